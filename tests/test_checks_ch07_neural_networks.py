"""Tests for the checks of chapter 07 (Neural networks): ``sgd_step``, ``Line`` and
``MyLinear``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

import minitorch
from minitorch import nn
from minitorch.autograd import grad_mode
from minitorch.exercises.ch07_neural_networks import check_line, check_my_linear, check_sgd_step


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


# ------------------------------------------------------------------ sgd_step
def sgd_step(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p -= lr * p.grad
            p.grad.zero_()


def test_sgd_step_right(capsys):
    passed, out = _result(check_sgd_step, sgd_step, capsys)
    assert passed and "all 7 cases passed" in out


def test_sgd_step_grad_set_to_none_and_data_update_are_right_too(capsys):
    def via_data(params, lr):
        for p in params:
            if p.grad is not None:
                p.data -= lr * p.grad
                p.grad = None

    passed, out = _result(check_sgd_step, via_data, capsys)
    assert passed, out


def test_sgd_step_todo(capsys):
    passed, out = _result(check_sgd_step, _todo, capsys)
    assert not passed and "not done yet" in out


def test_sgd_step_without_no_grad(capsys):
    def outside(params, lr):
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, outside, capsys)
    assert not passed
    assert "in-place operation" in out and "with torch.no_grad():" in out


def test_sgd_step_rebinding_the_loop_variable(capsys):
    def rebinds(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p = p - lr * p.grad
                    p.grad = None

    passed, out = _result(check_sgd_step, rebinds, capsys)
    assert not passed and "did not change" in out and "Change it in place" in out
    assert "p -= lr * p.grad" not in out  # the message names the mistake, not the answer


def test_sgd_step_wrong_sign(capsys):
    def ascends(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p += lr * p.grad
                    p.grad.zero_()

    passed, out = _result(check_sgd_step, ascends, capsys)
    assert not passed and "*up* the gradient" in out


def test_sgd_step_forgets_to_clear(capsys):
    def keeps(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p -= lr * p.grad

    passed, out = _result(check_sgd_step, keeps, capsys)
    assert not passed and "still holds the gradient" in out


def test_sgd_step_does_not_skip_missing_grads(capsys):
    def no_skip(params, lr):
        with minitorch.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, no_skip, capsys)
    assert not passed and "is None" in out and "Skip it" in out


def test_sgd_step_leaves_recording_off(capsys):
    def switches_off(params, lr):
        minitorch.set_grad_enabled(False)
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, switches_off, capsys)
    assert not passed and "Recording is still switched off" in out


# ------------------------------------------------------------------ Line
class Line(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(minitorch.tensor(0.0))
        self.b = nn.Parameter(minitorch.tensor(0.0))

    def forward(self, x):
        return self.w * x + self.b


def test_line_right(capsys):
    passed, out = _result(check_line, Line, capsys)
    assert passed and "all 7 cases passed" in out


def test_line_todo(capsys):
    class Todo(nn.Module):
        def __init__(self):
            super().__init__()
            raise NotImplementedError("your code here")

    passed, out = _result(check_line, Todo, capsys)
    assert not passed and "not done yet" in out


def test_line_forgets_super_init(capsys):
    class NoSuper(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(minitorch.tensor(0.0))
            self.b = nn.Parameter(minitorch.tensor(0.0))

        def forward(self, x):
            return self.w * x + self.b

    passed, out = _result(check_line, NoSuper, capsys)
    assert not passed and "super().__init__()" in out


def test_line_plain_tensors_are_not_registered(capsys):
    class Plain(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = minitorch.tensor(0.0, requires_grad=True)
            self.b = minitorch.tensor(0.0, requires_grad=True)

        def forward(self, x):
            return self.w * x + self.b

    passed, out = _result(check_line, Plain, capsys)
    assert not passed and "plain tensor" in out and "nn.Parameter" in out


def test_line_shape_one_instead_of_scalar(capsys):
    class Vector(Line):
        def __init__(self):
            nn.Module.__init__(self)
            self.w = nn.Parameter(minitorch.zeros(1))
            self.b = nn.Parameter(minitorch.zeros(1))

    passed, out = _result(check_line, Vector, capsys)
    assert not passed and "shape (1,)" in out


def test_line_not_a_module(capsys):
    class NotModule:
        def __init__(self):
            self.w = nn.Parameter(minitorch.tensor(0.0))
            self.b = nn.Parameter(minitorch.tensor(0.0))

    passed, out = _result(check_line, NotModule, capsys)
    assert not passed and "class Line(nn.Module)" in out


def test_line_forgets_the_bias_in_forward(capsys):
    class NoBias(Line):
        def forward(self, x):
            return self.w * x

    passed, out = _result(check_line, NoBias, capsys)
    assert not passed and "self.w * x + self.b" in out


# ------------------------------------------------------------------ MyLinear
def _linear(init="uniform", transposed=False, forward="right", order=("weight", "bias"),
            call_super=True):
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            if call_super:
                super().__init__()
            k = 1 / math.sqrt(in_features)
            shape = (in_features, out_features) if transposed else (out_features, in_features)
            weight = {"uniform": minitorch.rand(*shape) * 2 * k - k,
                      "randn": minitorch.randn(*shape),
                      "zeros": minitorch.zeros(*shape)}[init]
            values = {"weight": weight, "bias": minitorch.rand(out_features) * 2 * k - k}
            for name in order:
                setattr(self, name, nn.Parameter(values[name]))

        def forward(self, x):
            if forward == "no bias":
                return x @ self.weight.T
            if forward == "no transpose":
                return x @ self.weight + self.bias
            return x @ (self.weight if transposed else self.weight.T) + self.bias

    return MyLinear


def test_my_linear_right(capsys):
    passed, out = _result(check_my_linear, _linear(), capsys)
    assert passed and "all 10 cases passed" in out


def test_my_linear_todo(capsys):
    class Todo(nn.Module):
        def __init__(self, in_features, out_features):
            raise NotImplementedError("your code here")

    passed, out = _result(check_my_linear, Todo, capsys)
    assert not passed and "not done yet" in out


def test_my_linear_weight_stored_as_in_out(capsys):
    passed, out = _result(check_my_linear, _linear(transposed=True), capsys)
    assert not passed and "(out_features, in_features)" in out


def test_my_linear_all_zero_weights(capsys):
    passed, out = _result(check_my_linear, _linear(init="zeros"), capsys)
    assert not passed and "symmetry" in out


def test_my_linear_randn_init_is_too_wide(capsys):
    passed, out = _result(check_my_linear, _linear(init="randn"), capsys)
    assert not passed and "1/sqrt(in_features)" in out


def test_my_linear_forgets_the_bias(capsys):
    passed, out = _result(check_my_linear, _linear(forward="no bias"), capsys)
    assert not passed and "x @ self.weight.T + self.bias" in out


def test_my_linear_forgets_the_transpose(capsys):
    passed, out = _result(check_my_linear, _linear(forward="no transpose"), capsys)
    assert not passed and "transpose" in out


def test_my_linear_bias_registered_first(capsys):
    passed, out = _result(check_my_linear, _linear(order=("bias", "weight")), capsys)
    assert not passed and "before `bias`" in out


def test_my_linear_forgets_super_init(capsys):
    passed, out = _result(check_my_linear, _linear(call_super=False), capsys)
    assert not passed and "super().__init__()" in out




# ------------------------------------------------------------------ more wrong answers
def _sgd_outside_no_grad(params, lr):
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad.zero_()


def _sgd_rebinds_then_zeroes(params, lr):
    """The rebinding bug with `.zero_()`: the new tensor has no .grad to zero."""
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p = p - lr * p.grad
                p.grad.zero_()


def _sgd_rebinds(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p = p - lr * p.grad
                p.grad = None


def _sgd_ascends(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p += lr * p.grad
                p.grad.zero_()


def _sgd_keeps_grad(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad


def _sgd_no_skip(params, lr):
    with minitorch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad.zero_()


def _sgd_stops_at_a_none(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is None:
                break  # the parameters after it are never updated
            p -= lr * p.grad
            p.grad.zero_()


def _sgd_clears_first(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad.zero_()
                p -= lr * p.grad


def _sgd_fixed_lr(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= 0.1 * p.grad
                p.grad.zero_()


def _sgd_switches_off(params, lr):
    minitorch.set_grad_enabled(False)
    for p in params:
        if p.grad is not None:
            p -= lr * p.grad
            p.grad.zero_()


def _sgd_with_the_optimizer(params, lr):
    minitorch.optim.SGD(params, lr=lr).step()
    for p in params:
        p.grad = None


class _LinePlain(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = minitorch.tensor(0.0, requires_grad=True)
        self.b = minitorch.tensor(0.0, requires_grad=True)

    def forward(self, x):
        return self.w * x + self.b


class _LineNoSuper(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(minitorch.tensor(0.0))
        self.b = nn.Parameter(minitorch.tensor(0.0))

    def forward(self, x):
        return self.w * x + self.b


class _LineVector(Line):
    def __init__(self):
        nn.Module.__init__(self)
        self.w = nn.Parameter(minitorch.zeros(1))
        self.b = nn.Parameter(minitorch.zeros(1))


class _LineNoBias(Line):
    def forward(self, x):
        return self.w * x


class _LineSwapped(Line):
    def forward(self, x):
        return self.b * x + self.w


class _LineOneParameter(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = self.b = nn.Parameter(minitorch.tensor(0.0))

    def forward(self, x):
        return self.w * x + self.b


class _LineClassAttributes(nn.Module):
    w = nn.Parameter(minitorch.tensor(0.0))
    b = nn.Parameter(minitorch.tensor(0.0))

    def forward(self, x):
        return self.w * x + self.b


_SHARED_W = nn.Parameter(minitorch.tensor(0.0))
_SHARED_B = nn.Parameter(minitorch.tensor(0.0))


class _LineSharedParameters(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = _SHARED_W  # made once, outside the class
        self.b = _SHARED_B

    def forward(self, x):
        return self.w * x + self.b


class _LineFrozen(Line):
    def __init__(self):
        nn.Module.__init__(self)
        self.w = nn.Parameter(minitorch.tensor(0.0), requires_grad=False)
        self.b = nn.Parameter(minitorch.tensor(0.0))


class _LineDetached(Line):
    def forward(self, x):
        return self.w.item() * x + self.b.item()


def _linear_numpy_random():
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            k = 1 / math.sqrt(in_features)
            rng = np.random.default_rng()
            self.weight = nn.Parameter(minitorch.tensor(
                rng.uniform(-k, k, (out_features, in_features)), dtype=minitorch.float32))
            self.bias = nn.Parameter(minitorch.tensor(
                rng.uniform(-k, k, out_features), dtype=minitorch.float32))

        def forward(self, x):
            return x @ self.weight.T + self.bias

    return MyLinear


def _linear_seeds_itself():
    right = _linear()

    class MyLinear(right):
        def __init__(self, in_features, out_features):
            minitorch.manual_seed(0)
            super().__init__(in_features, out_features)

    return MyLinear


def _linear_seeds_after_drawing():
    right = _linear()

    class MyLinear(right):
        def __init__(self, in_features, out_features):
            super().__init__(in_features, out_features)
            minitorch.manual_seed(0)  # "so that what follows is reproducible"

    return MyLinear


def _linear_seeds_a_counter():
    right = _linear()

    class MyLinear(right):
        made = 0

        def __init__(self, in_features, out_features):
            super().__init__(in_features, out_features)
            MyLinear.made += 1
            minitorch.manual_seed(MyLinear.made)  # "a new seed per layer, so layers differ"

    return MyLinear


def _linear_init(scale):
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            k = {"out": 1 / math.sqrt(out_features), "no sqrt": 1 / in_features,
                 "positive": 1 / math.sqrt(in_features)}[scale]
            shift = 0 if scale == "positive" else k
            self.weight = nn.Parameter(
                minitorch.rand(out_features, in_features) * (2 * k if shift else k) - shift)
            self.bias = nn.Parameter(minitorch.zeros(out_features))

        def forward(self, x):
            return x @ self.weight.T + self.bias

    return MyLinear


# second adversarial review: a wrong answer whose message named the wrong cause
def _linear_half_range():
    """(rand - 0.5) * k: [-k/2, k/2], both signs (the message said "on one side of 0")."""
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            k = 1 / math.sqrt(in_features)
            self.weight = nn.Parameter((minitorch.rand(out_features, in_features) - 0.5) * k)
            self.bias = nn.Parameter(minitorch.zeros(out_features))

        def forward(self, x):
            return x @ self.weight.T + self.bias

    return MyLinear


def test_half_range_is_not_called_one_sided():
    result = run(check_my_linear, _linear_half_range())
    assert not result.passed and "on one side of 0" not in result.text


def _linear_wraps_nn_linear():
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            layer = nn.Linear(in_features, out_features)
            self.weight = nn.Parameter(layer.weight.detach())
            self.bias = nn.Parameter(layer.bias.detach())

        def forward(self, x):
            return x @ self.weight.T + self.bias

    return MyLinear


def _linear_functional():
    right = _linear()

    class MyLinear(right):
        def forward(self, x):
            return minitorch.nn.functional.linear(x, self.weight, self.bias)

    return MyLinear


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_sgd_step": (check_sgd_step, sgd_step),
    "check_line": (check_line, Line),
    "check_my_linear": (check_my_linear, _linear()),
}

WRONG = [
    ("check_sgd_step", _sgd_outside_no_grad, "the update outside no_grad",
     ["in-place operation", "with torch.no_grad():"]),
    ("check_sgd_step", _sgd_rebinds_then_zeroes, "p = p - lr * p.grad, then p.grad.zero_()",
     ["Every parameter here has a gradient", "*new* tensor"]),
    ("check_sgd_step", _sgd_rebinds, "p = p - lr * p.grad, then p.grad = None",
     ["did not change", "binds the loop variable"]),
    ("check_sgd_step", _sgd_ascends, "wrong sign (gradient ascent)", ["*up* the gradient"]),
    ("check_sgd_step", _sgd_keeps_grad, "never clears the gradient",
     ["still holds the gradient"]),
    ("check_sgd_step", _sgd_no_skip, "a None .grad not skipped",
     ["is None (it got no gradient", "Skip it"]),
    ("check_sgd_step", _sgd_stops_at_a_none, "stops at the first .grad that is None",
     ["`w` was updated but `b` was not", "`continue`"]),
    ("check_sgd_step", _sgd_clears_first, "clears the gradient before using it",
     ["cleared *before* the update used it"]),
    ("check_sgd_step", _sgd_fixed_lr, "0.1 instead of the lr argument",
     ["one step with lr=0.5", "learning rate 0.1, not the lr=0.5"]),
    ("check_sgd_step", _sgd_switches_off, "set_grad_enabled(False) left on",
     ["Recording is still switched off"]),
    ("check_sgd_step", _sgd_with_the_optimizer, "torch.optim.SGD",
     ["called `torch.optim.SGD`", "answer key"]),
    ("check_line", _LineNoSuper, "no super().__init__()", ["super().__init__()"]),
    ("check_line", _LinePlain, "plain tensors, not Parameters", ["plain tensor"]),
    ("check_line", _LineVector, "shape (1,) instead of ()", ["shape (1,)"]),
    ("check_line", _LineNoBias, "forward without the bias", ["The bias is missing"]),
    ("check_line", _LineSwapped, "b * x + w", ["w and b are swapped"]),
    ("check_line", _LineOneParameter, "self.w = self.b = one Parameter",
     ["one and the same Parameter"]),
    ("check_line", _LineClassAttributes, "Parameters in the class body",
     ["is a class attribute"]),
    ("check_line", _LineSharedParameters, "Parameters made once, outside the class",
     ["share their parameters", "not one made once, outside the class or in its body"]),
    ("check_line", _LineFrozen, "w with requires_grad=False", ["`w` does not require grad"]),
    ("check_line", _LineDetached, "forward with .item()", ["no `grad_fn`"]),
    ("check_my_linear", _linear(transposed=True), "transposed weight",
     ["(out_features, in_features)"]),
    ("check_my_linear", _linear(init="zeros"), "all-zero weights", ["symmetry"]),
    ("check_my_linear", _linear(init="randn"), "randn, too wide", ["1/sqrt(in_features)"]),
    ("check_my_linear", _linear(forward="no bias"), "forward without the bias",
     ["x @ self.weight.T + self.bias"]),
    ("check_my_linear", _linear(forward="no transpose"), "x @ weight", ["transpose"]),
    ("check_my_linear", _linear(order=("bias", "weight")), "bias registered first",
     ["before `bias`"]),
    ("check_my_linear", _linear(call_super=False), "no super().__init__()",
     ["super().__init__()"]),
    ("check_my_linear", _linear_init("out"), "k from out_features",
     ["from the number of *inputs*"]),
    ("check_my_linear", _linear_init("no sqrt"), "k = 1 / in_features",
     ["without the square root"]),
    ("check_my_linear", _linear_init("positive"), "rand * k: all positive",
     ["on one side of 0"]),
    ("check_my_linear", _linear_half_range(), "(rand - 0.5) * k: half of [-k, k]",
     ["about half of [-k, k]", "Scale the draw by 2k"]),
    ("check_my_linear", _linear_numpy_random(), "NumPy's random numbers",
     ["does not get the same weights twice", "not with NumPy's"]),
    ("check_my_linear", _linear_seeds_itself(), "manual_seed inside __init__",
     ["seed the generator itself"]),
    ("check_my_linear", _linear_seeds_after_drawing(), "manual_seed at the end of __init__",
     ["Two of three MyLinear(3, 2)", "seed the generator itself"]),
    ("check_my_linear", _linear_seeds_a_counter(), "a new manual_seed per layer, in __init__",
     ["no longer follows the caller's seed", "re-seeds the generator"]),
    ("check_my_linear", _linear_wraps_nn_linear(), "copies an nn.Linear's parameters",
     ["called `nn.Linear`", "answer key"]),
    ("check_my_linear", _linear_functional(), "F.linear in forward",
     ["called `F.linear`", "answer key"]),
]

GIVEAWAYS = {
    "check_sgd_step": ["p -= lr * p.grad"],
    "check_line": ["self.w = nn.Parameter(torch.tensor(0.0))"],
    "check_my_linear": ["torch.rand(out_features"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

"""Meta-tests of the checks: every ``check_*`` against deliberately wrong answers and hostile
learner code. Every wrong answer must fail, with a message that names the real culprit, and
no learner code may break a check (no exception escapes, the state is put back).

The right solutions come from the per-chapter test modules; each wrong answer below changes
one thing in them (a flipped sign, a missing ``+=``, a transposed weight, an unfinished helper).
"""

from __future__ import annotations

import importlib
import math
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import minitorch
from minitorch.exercises import runner
from minitorch.exercises.ch00_start_here import check_derivative
from minitorch.exercises.ch01_tensors import check_broadcast_shape, check_my_tensor
from minitorch.exercises.ch02_recording_the_dag import (
    check_dynamic_graph,
    check_find_leaves,
    check_mul,
)
from minitorch.exercises.ch03_backward import (
    check_chain_rule,
    check_logistic_autograd,
    check_logistic_grads,
)
from minitorch.exercises.ch04_backward_engine import (
    check_backprop,
    check_inplace_repair,
    check_my_backward,
    check_topological_sort,
)
from minitorch.exercises.ch05_checking_gradients import (
    check_gradcheck,
    check_second_derivative,
    check_vjp,
)
from minitorch.exercises.ch06_no_grad import check_no_grad_context, check_zero_grads
from minitorch.exercises.ch07_neural_networks import check_line, check_my_linear, check_sgd_step
from minitorch.exercises.ch08_training import check_conv2d_by_hand, check_unfold
from minitorch.exercises.ch09_data import check_collate, check_data_loader, check_dataset
from minitorch.exercises.ch10_gpu import check_to_device
from minitorch.exercises.ch11_gpu_backends import check_backend
from minitorch.exercises.ch12_capstone import (
    check_backward,
    check_log_softmax,
    check_matmul,
    check_reductions,
    check_tensor,
    check_training,
    check_unbroadcast,
)
from minitorch.exercises.predict import PredictValue, parse_answer
from minitorch.exercises.runner import Case, evaluate, last_result, set_time_limit


def _module(name):
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


ch12 = _module("test_exercises_ch01_02")
ch34 = _module("test_exercises_ch03_04")
ch56 = _module("test_exercises_ch05_06")
ch7 = _module("test_exercises_ch07")
d2 = _module("test_exercises_ch02_depth")
d3 = _module("test_exercises_ch03_depth")
d4 = _module("test_exercises_ch04_depth")
base = _module("test_exercises")
capstone = _module("test_checks_ch12_capstone").RIGHT_LIBRARY  # the solution notebook's code


@pytest.fixture(autouse=True)
def _short_time_limit():
    old = set_time_limit(3)
    yield
    set_time_limit(old)


def _run(check, solution):
    """Run a check quietly; return its CheckResult."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        passed = check(solution)
    result = last_result()
    assert passed is result.passed
    return result


# ------------------------------------------------------------------ the right solutions
def _my_backward_right(loss):
    return ch34.make_backward()(loss)


RIGHT = {
    "check_derivative": (check_derivative, lambda x: 2 * (3 * x + 1) * 3),
    "check_chain_rule": (check_chain_rule, lambda df, g, dg, x: df(g(x)) * dg(x)),
    "check_logistic_grads": (check_logistic_grads, lambda w, b, x, y: (
        (1 / (1 + math.exp(-(w * x + b))) - y) * x, 1 / (1 + math.exp(-(w * x + b))) - y)),
    "check_topological_sort": (check_topological_sort, base.topo_sort),
    "check_backprop": (check_backprop, base.backprop),
    "check_broadcast_shape": (check_broadcast_shape, ch12.broadcast_shape_right),
    "check_my_tensor": (check_my_tensor, ch12.MyTensorRight),
    "check_mul": (check_mul, ch12.MulRight),
    "check_find_leaves": (check_find_leaves, ch12.find_leaves_right),
    "check_logistic_autograd": (check_logistic_autograd, ch34.logistic_autograd),
    "check_my_backward": (check_my_backward, _my_backward_right),
    "check_zero_grads": (check_zero_grads, ch34.zero_grads),
    "check_no_grad_context": (check_no_grad_context, ch34.my_no_grad),
    "check_sgd_step": (check_sgd_step, ch56.sgd_step),
    "check_line": (check_line, ch56.Line),
    "check_my_linear": (check_my_linear, ch56._linear()),
    "check_conv2d_by_hand": (check_conv2d_by_hand, ch56.make_conv2d()),
    "check_unfold": (check_unfold, ch56.make_unfold()),
    "check_dataset": (check_dataset, ch56._dataset()),
    "check_collate": (check_collate, ch56.collate),
    "check_data_loader": (check_data_loader, ch56.make_batches()),
    "check_to_device": (check_to_device, ch7.to_device),
    "check_backend": (check_backend, ch7.MyBackend),
    "check_dynamic_graph": (check_dynamic_graph, d2.predicted_nodes_right),
    "check_vjp": (check_vjp, d3.vjp_right),
    "check_gradcheck": (check_gradcheck, d3.my_gradcheck),
    "check_second_derivative": (check_second_derivative, d3.second_derivative),
    "check_inplace_repair": (check_inplace_repair, d4.layer_loss_right),
    "check_tensor": (check_tensor, capstone.Tensor),
    "check_unbroadcast": (check_unbroadcast, capstone.unbroadcast),
    "check_reductions": (check_reductions, capstone.Tensor),
    "check_matmul": (check_matmul, capstone.Tensor),
    "check_log_softmax": (check_log_softmax, capstone.Tensor),
    "check_backward": (check_backward, capstone.Tensor),
    "check_training": (check_training, capstone.train),
}


CHAPTER_MODULES = sorted(p.stem for p in (Path(__file__).parents[1] / "minitorch" / "exercises")
                         .glob("ch[0-9][0-9]_*.py"))


def test_every_check_is_covered():
    names = set()
    for module in CHAPTER_MODULES:
        mod = importlib.import_module(f"minitorch.exercises.{module}")
        names |= {n for n in dir(mod) if n.startswith("check_") and callable(getattr(mod, n))
                  and getattr(mod, n).__module__ == mod.__name__}
    assert names == set(RIGHT)
    assert len(names) == 35


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert _run(check, solution).passed


# ------------------------------------------------------------------ faults injected anywhere
def topo_sort(graph, root):  # the learner's unfinished helper
    raise NotImplementedError("your code here")


class BadMessageError(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


class Hostile:
    """A returned object that breaks whatever touches it."""

    def __repr__(self):
        raise RuntimeError("repr")

    def __getattr__(self, name):
        raise RuntimeError(f"getattr {name}")

    def __eq__(self, other):
        raise RuntimeError("eq")

    def __bool__(self):
        raise RuntimeError("bool")

    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        raise RuntimeError("len")

    __hash__ = None


def _faulty(name, fault):
    """The right solution of check ``name`` with ``fault()`` called where its work starts."""
    _, right = RIGHT[name]
    if not isinstance(right, type):
        return lambda *args, **kwargs: fault()
    if issubclass(right, minitorch.autograd.Function):
        class Faulty(right):
            @staticmethod
            def forward(ctx, *args):
                return fault()
        return Faulty
    if name == "check_no_grad_context":
        class FaultyContext(right):
            def __enter__(self):
                return fault()
        return FaultyContext
    if name == "check_backend":
        class FaultyBackend(right):
            def from_numpy(self, *args, **kwargs):
                return fault()
        return FaultyBackend

    class Faulty(right):
        def __init__(self, *args, **kwargs):
            fault()
    return Faulty


def _unfinished():
    return topo_sort({}, "root")


def _exit():
    sys.exit(3)


def _bad_message():
    raise BadMessageError()


def _hostile():
    return Hostile()


def _interrupt():
    raise KeyboardInterrupt


def _no_grad_forever():
    minitorch.set_grad_enabled(False)
    minitorch.set_default_dtype(minitorch.float64)
    minitorch.manual_seed(1234)
    np.random.seed(99)
    raise ValueError("gave up")


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_an_unfinished_helper_is_named_as_the_culprit(name):
    result = _run(RIGHT[name][0], _faulty(name, _unfinished))
    assert result.status == "todo", result.text
    assert result.culprit == "topo_sort"
    assert "`topo_sort` (line" in result.text
    assert "still raises `NotImplementedError`" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_system_exit_is_a_result(name):
    result = _run(RIGHT[name][0], _faulty(name, _exit))
    assert result.status in ("error", "fail"), result.text
    if result.status == "error":
        assert "SystemExit" in result.text and "_exit" in result.text
        assert "sys.exit(3)" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_an_exception_whose_str_raises_is_a_result(name):
    result = _run(RIGHT[name][0], _faulty(name, _bad_message))
    assert not result.passed
    if result.status == "error":
        assert "BadMessageError" in result.text and "could not be shown" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_a_hostile_return_value_is_a_result(name):
    result = _run(RIGHT[name][0], _faulty(name, _hostile))
    assert not result.passed and result.status in ("fail", "error"), result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_keyboard_interrupt_stops_the_check(name):
    result = _run(RIGHT[name][0], _faulty(name, _interrupt))
    assert result.status == "interrupted" and "interrupted" in result.text.splitlines()[0]


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_state_is_restored(name):
    before = np.random.get_state()[1].copy()
    minitorch.manual_seed(7)
    expected_draw = minitorch.randn(3).numpy()
    minitorch.manual_seed(7)
    result = _run(RIGHT[name][0], _faulty(name, _no_grad_forever))
    assert not result.passed
    assert minitorch.is_grad_enabled()
    assert minitorch.get_default_dtype() == minitorch.float32
    assert np.array_equal(minitorch.randn(3).numpy(), expected_draw)
    assert np.array_equal(np.random.get_state()[1], before)


def test_an_infinite_loop_hits_the_time_limit():
    def spin(*args):
        while True:
            pass

    start = time.perf_counter()
    result = evaluate("spin", [Case("spin()", spin, 1), Case("never run", lambda: 1, 1)],
                      time_limit=0.3)
    assert time.perf_counter() - start < 3
    assert result.status == "timeout"
    assert "your function did not finish in 0.3 s — is there an infinite loop?" in result.text
    time.sleep(0.1)
    assert not any(t.name.startswith("minitorch check: spin") for t in threading.enumerate())
    # and through a real check, with the configurable limit
    set_time_limit(0.3)
    result = _run(check_topological_sort, spin)
    assert result.status == "timeout" and "did not finish in 0.3 s" in result.text


def test_my_backward_names_topo_sort_when_it_is_the_blank_piece():
    result = _run(check_my_backward, ch34.make_backward(order_fn=topo_sort))
    assert result.status == "todo"
    assert "`topo_sort`" in result.text and "`my_backward`" not in result.text


# ------------------------------------------------------------------ wrong answers, named culprits
def _mul(backward):
    class Mul(ch12.MulRight):
        pass

    Mul.backward = staticmethod(backward)
    return Mul


def _saved(fn):
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return fn(grad, a, b)
    return backward


def _topo_recursive(graph, root):
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for parent in graph.get(node, []):
                visit(parent)
            order.append(node)

    visit(root)
    return order[::-1]


def _topo_no_seen(graph, root):
    out, stack = [root], [root]
    while stack:
        for parent in graph.get(stack.pop(), []):
            out.append(parent)
            stack.append(parent)
    return out


def _backprop_overwrite(local_grads, order):
    grads = {order[0]: 1.0}
    for node in order:
        for parent, local in local_grads.get(node, []):
            grads[parent] = grads[node] * local
    return grads


def _leaves_no_seen(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _sgd_wrong_sign(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is not None:
                p += lr * p.grad
                p.grad.zero_()


def _logistic_autograd_wrong_sign(w, b, x, y):
    gw, gb = ch34.logistic_autograd(w, b, x, y)
    return -gw, -gb


def _broadcast_left_aligned(a, b):
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a, b = a + [1] * (n - len(a)), b + [1] * (n - len(b))
    return tuple(max(x, y) for x, y in zip(a, b))


class _NoGradForgetsPrevious(ch34.my_no_grad):
    def __exit__(self, *exc):
        minitorch.set_grad_enabled(True)


# the second layer: dynamic graphs, VJPs, gradcheck, create_graph, in-place repair
_DYN = d2.RIGHT


def _other_branch():  # x = 1.0 predicted as if the else branch ran (its loop count too)
    return {1.0: ["MulBackward0"] * 3 + ["NegBackward0", "MulBackward0", "AccumulateGrad"],
            0.25: _DYN[0.25]}


def _one_pass_short():
    return {1.0: _DYN[1.0], 0.25: ["MulBackward0"] * 3 + _DYN[0.25][4:]}


def _leaf_first():
    return {x: names[::-1] for x, names in _DYN.items()}


def _numeric_gradient(f, x, eps, central=True):
    numeric = minitorch.zeros_like(x)
    with minitorch.no_grad():
        flat, out = x.view(-1), numeric.view(-1)
        base = f(x).item()
        for i in range(flat.numel()):
            old = flat[i].item()
            flat[i] = old + eps
            up = f(x).item()
            flat[i] = old - eps
            down = f(x).item() if central else base
            flat[i] = old
            out[i] = (up - down) / (2 * eps if central else eps)
    return numeric


def _gradcheck(eps=1e-6, atol=1e-5, central=True, restore=True, first_only=False):
    def my_gradcheck(f, x):
        x.grad = None
        f(x).backward()
        numeric = _numeric_gradient(f, x, eps, central)
        if not restore:
            with minitorch.no_grad():
                x += eps
        if first_only:
            return math.isclose(x.grad.view(-1)[0].item(), numeric.view(-1)[0].item(),
                                abs_tol=atol)
        return minitorch.allclose(x.grad, numeric, atol=atol)
    return my_gradcheck


def _first_derivative(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    f(x).backward()  # the engine runs twice, but f' comes back
    return dy


def _no_create_graph(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    (dy,) = minitorch.autograd.grad(f(x), x)
    (d2y,) = minitorch.autograd.grad(dy, x)
    return d2y


def _second_by_differences(f, x, h=1e-4):
    def value(t):
        return f(minitorch.tensor(t, dtype=minitorch.float64)).item()
    return (value(x + h) - 2 * value(x) + value(x - h)) / h ** 2


def _still_in_place(x, w):
    h = minitorch.sigmoid(x @ w)
    h *= 2
    return h.sum()


def _repaired_by_detach(x, w):
    h = minitorch.sigmoid(x @ w).detach()
    h *= 2
    return h.sum()


def _doubling_dropped(x, w):
    return minitorch.sigmoid(x @ w).sum()


WRONG = [
    # (check, wrong answer, what it gets wrong, words the message must contain)
    ("check_chain_rule", lambda df, g, dg, x: df(x) * dg(x),
     "outer derivative at x, not g(x)", ["f = sin, g(x) = x**2"]),
    ("check_logistic_grads", lambda w, b, x, y: (
        (y - 1 / (1 + math.exp(-(w * x + b)))) * x, y - 1 / (1 + math.exp(-(w * x + b)))),
     "wrong sign", ["wrong sign"]),
    ("check_topological_sort", _topo_recursive, "recursion on a deep graph",
     ["RecursionError", "5,000"]),
    ("check_topological_sort", _topo_no_seen, "no visited set", ["more than once"]),
    ("check_backprop", _backprop_overwrite, "missing accumulation (= instead of +=)",
     ["used twice", "half the expected"]),
    ("check_mul", _mul(_saved(lambda g, a, b: (g * a, g * b))), "swapped gradients",
     ["swapped"]),
    ("check_mul", _mul(_saved(lambda g, a, b: (-g * b, -g * a))), "wrong sign",
     ["wrong sign"]),
    ("check_mul", _mul(_saved(lambda g, a, b: (b, a))), "ignores the upstream gradient",
     ["upstream gradient"]),
    ("check_find_leaves", _leaves_no_seen, "no seen set", ["more than once"]),
    ("check_logistic_autograd", _logistic_autograd_wrong_sign, "wrong sign",
     ["w.grad should be"]),
    ("check_my_backward", ch34.make_backward(overwrite=True), "missing accumulation",
     ["x.grad should be"]),
    ("check_my_backward", ch34.make_backward(leaf_overwrite=True),
     "overwrites .grad instead of adding", ["two calls in a row"]),
    ("check_my_backward", ch34.make_backward(order_fn=topo_sort), "unfinished dependency",
     ["`topo_sort`", "NotImplementedError"]),
    ("check_zero_grads", lambda params: None, "clears nothing", ["✗ zero_grads"]),
    ("check_no_grad_context", _NoGradForgetsPrevious, "restores True, not the previous mode",
     ["✗ my_no_grad"]),
    ("check_sgd_step", _sgd_wrong_sign, "wrong sign (gradient ascent)", ["✗ sgd_step"]),
    ("check_my_linear", ch56._linear(transposed=True), "transposed weight", ["weight"]),
    ("check_broadcast_shape", _broadcast_left_aligned, "aligns shapes on the left",
     ["✗ broadcast_shape"]),
    ("check_dynamic_graph", _other_branch, "the nodes of the other branch",
     ["branch of the `if`", "x = 1.0"]),
    ("check_dynamic_graph", _one_pass_short, "one loop pass too few",
     ["loop's passes", "x = 0.25"]),
    ("check_dynamic_graph", _leaf_first, "listed from the leaf up", ["starts at the leaf"]),
    ("check_vjp", lambda x, v: v * x.sum() + x * v.sum(), "transposed Jacobian (J v)",
     ["J v, not v^T J"]),
    ("check_vjp", lambda x, v: -(v * x.sum() + (v * x).sum()), "wrong sign", ["wrong sign"]),
    ("check_vjp", lambda x, v: v * x.sum(), "the diagonal of J only", ["not diagonal"]),
    ("check_gradcheck", lambda f, x: True, "a checker that never fails",
     ["never says False", "forgot the 2"]),
    ("check_gradcheck", _gradcheck(eps=1e-3, atol=1e-2, central=False),
     "one-sided difference with a loose tolerance", ["one-sided difference", "sin(30 x)"]),
    ("check_gradcheck", _gradcheck(atol=0.1), "a tolerance too loose",
     ["tolerance is too loose", "0.2%"]),
    ("check_gradcheck", _gradcheck(first_only=True), "compares the first element only",
     ["every element", "one element only"]),
    ("check_gradcheck", _gradcheck(restore=False), "leaves x changed", ["x came back changed"]),
    ("check_second_derivative", _first_derivative, "the first derivative returned",
     ["the first derivative"]),
    ("check_second_derivative", _no_create_graph, "create_graph missing",
     ["does not require grad", "create_graph=True"]),
    ("check_second_derivative", _second_by_differences, "finite differences, no autograd",
     ["engine did not run twice"]),
    ("check_inplace_repair", _still_in_place, "still in place",
     ["modified by an inplace operation", "still changed in place"]),
    ("check_inplace_repair", _repaired_by_detach, "detach() hides the error",
     ["no grad_fn"]),
    ("check_inplace_repair", _doubling_dropped, "the doubling dropped", ["The loss should be"]),
    ("check_conv2d_by_hand", ch56.make_conv2d("flipped"), "the filter flipped (textbook "
     "convolution)", ["You flipped the filter", "cross-correlation"]),
    ("check_conv2d_by_hand", ch56.make_conv2d("no bias"), "the bias forgotten",
     ["The bias is missing", "with bias 0.5"]),
    ("check_conv2d_by_hand", ch56.make_conv2d("first channel"), "the first input channel only",
     ["Only the first input channel", "2 input channels"]),
    ("check_conv2d_by_hand", ch56.make_conv2d("off by one"), "one position too few",
     ["H - kh + 1"]),
    ("check_conv2d_by_hand", ch56.make_conv2d("transposed"), "rows and columns swapped",
     ["olumns are swapped"]),
    ("check_unfold", ch56.make_unfold("transposed"), "F.unfold's (C*kh*kw, L) layout",
     ["is the transpose of", "one row per patch"]),
    ("check_unfold", ch56.make_unfold("channels last"), "each patch flattened channels last",
     ["flatten it channel first", "2 channels"]),
    ("check_unfold", ch56.make_unfold("column major"), "the patches column by column",
     ["column by column"]),
    ("check_data_loader", ch56.make_batches(shuffle_fix="ignored"), "shuffle ignored",
     ["shuffle=True, but the samples come in order"]),
    ("check_data_loader", ch56.make_batches(shuffle_fix="global"),
     "shuffles with the global stream, not the generator", ["from `generator`", "seed (0)"]),
    ("check_data_loader", ch56.make_batches(worker_draw=False),
     "the worker-seed draw left out", ["worker-seed draw"]),
    ("check_data_loader", ch56.make_batches(drop="ignored"), "drop_last ignored",
     ["drop_last=True, but the last batch has only 2 samples"]),
    ("check_data_loader", ch56.make_batches(drop="always"), "always drops the last batch",
     ["The last, smaller batch is missing"]),
    ("check_data_loader", ch56.make_batches(collate="skipped"), "collate_fn never called",
     ["Yield collated batches"]),
    ("check_data_loader", ch56.make_batches(epoch="cached"), "the same order every epoch",
     ["The second epoch repeats"]),
]


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=[f"{w[0]}: {w[2]}" for w in WRONG])
def test_deliberately_wrong_answers_fail_naming_the_culprit(name, wrong, what, words):
    result = _run(RIGHT[name][0], wrong)
    assert not result.passed, what
    for word in words:
        assert word in result.text, (what, word, result.text)


def test_hints_never_print_the_solution():
    """A failure's text and every help step together do not contain the solution's code."""
    giveaways = {
        "check_mul": ["grad * b", "save_for_backward(a, b)"],
        "check_my_backward": ["node.apply(grad)) ", "ones_like(loss)", "zip("],
        "check_logistic_autograd": ["minitorch.log(1 - p)", "requires_grad=True) (the same"],
        "check_backprop": ["grads[parent] +="],
        "check_sgd_step": ["p -= lr * p.grad"],
        "check_collate": ["torch.stack([image"],
        "check_conv2d_by_hand": ["(x[:, i:i + kh, j:j + kw] * weight[k]).sum() + bias[k]"],
        "check_unfold": ["torch.stack(rows)", "for i in range(H - kh + 1) for j in"],
        "check_data_loader": ["randperm(n, generator=generator)", "range(0, n, batch_size)"],
        "check_my_linear": ["torch.rand(out_features"],
        "check_dynamic_graph": ["ExpBackward0\", \"MulBackward0", "\"MulBackward0\"] * 4"],
        "check_vjp": ["(v * x).sum()", "s v_j + (v . x)"],
        "check_gradcheck": ["(up - down)", "allclose(x.grad, numeric"],
        "check_second_derivative": ["grad(f(x), x, create_graph=True)",
                                    "grad(dy, x)`; return"],
        "check_inplace_repair": ["h = h * 2", "(2 * h).sum()"],
    }
    for name, wrong, _, _ in WRONG:
        result = _run(RIGHT[name][0], wrong)
        everything = result.text + "\n".join(result.help_steps)
        for code in giveaways.get(name, []):
            assert code not in everything, (name, code)
        if result.status in ("fail", "error"):
            assert result.help_steps, name
            assert any(line.startswith("Hint: ") for line in result.lines), name


def test_more_help_comes_in_steps():
    result = _run(check_backprop, _backprop_overwrite)
    steps = list(result.help_steps)
    assert len(steps) >= 2 and result.help_shown == 0
    assert not any(step in result.text for step in steps)  # nothing until asked
    assert [result.more_help() for _ in steps] == steps
    assert result.more_help() is None


# ------------------------------------------------------------------ predict box
@pytest.mark.parametrize("text,value", [
    ("True", True), ("true", True), ("false", False), ("inf", math.inf), ("-inf", -math.inf),
    ("1e-3", 0.001), ("[1, 2]", [1.0, 2.0]),
])
def test_predict_reads_what_a_person_types(text, value):
    assert parse_answer(text) == value
    assert math.isnan(parse_answer("nan"))


@pytest.mark.parametrize("answer,typed,right", [
    (math.inf, "inf", True), (math.inf, "-inf", False), (-math.inf, "-inf", True),
    (math.nan, "nan", True), (math.nan, "0", False), (1.0, "nan", False),
    ([1.0, math.inf], "[1, inf]", True), ([1.0, math.nan], "[1, nan]", True),
    (True, "true", True),
])
def test_predict_judges_inf_and_nan(answer, typed, right):
    exercise = PredictValue("?", answer)
    exercise.entry.value = typed
    exercise.check_button.click()
    assert exercise.correct is right, exercise.feedback


@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, "(" * 100_000, "-" * 9000 + "1",
                                  "1" * 20_000])
def test_deeply_nested_predict_answers_get_a_message(text):
    exercise = PredictValue("?", 1.0)
    exercise.entry.value = text
    exercise.check_button.click()
    assert exercise.status == "invalid" and exercise.feedback.startswith("⚠")


# ------------------------------------------------------------------ hostile objects, Hypothesis
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


class RaisingRepr:
    def __repr__(self):
        raise ValueError("repr")


class RaisingStrError(Exception):
    def __str__(self):
        raise ValueError("str")


HOSTILE = {  # by name, so Hypothesis never has to repr the hostile objects themselves
    "None": lambda: None, "raising __repr__": RaisingRepr, "raising everything": Hostile,
    "a string": lambda: "a string", "an int": lambda: 3, "a float": lambda: 2.5,
    "nan": lambda: math.nan, "inf": lambda: math.inf, "[None]": lambda: [None], "{}": dict,
    "object()": object, "nan array": lambda: np.full((3,), np.nan),
    "big array": lambda: np.zeros((300, 300)),
    "nan tensor": lambda: minitorch.full((2, 3), float("nan")),
    "big tensor": lambda: minitorch.zeros(200, 200),
    "huge tensor": lambda: minitorch.zeros(2000, 2000),
    "nested lists": lambda: [[[[[[]]]]]],
}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(RIGHT)), kind=st.sampled_from(sorted(HOSTILE)),
       how=st.sampled_from(["return", "raise", "solution"]))
def test_checks_survive_hostile_objects(name, kind, how):
    """Every check, fed a hostile object (as a returned value, a raised exception, or as the
    solution itself), reports a result and never raises."""
    check = RIGHT[name][0]
    value = HOSTILE[kind]()
    if how == "solution":
        learner = value
    elif how == "raise":
        learner = _faulty(name, lambda: (_ for _ in ()).throw(RaisingStrError()))
    else:
        learner = _faulty(name, lambda: value)
    result = _run(check, learner)
    assert not result.passed
    assert result.status in ("fail", "error", "todo", "timeout"), result.text
    assert result.text and result.html
    assert minitorch.is_grad_enabled()


def test_more_help_button_in_jupyter(monkeypatch):
    """In Jupyter a failure shows a More help button; each click adds one step."""
    from minitorch.exercises import _common

    shown = []
    monkeypatch.setattr(runner, "_in_ipython", lambda: True)
    monkeypatch.setattr(_common, "display_widget", lambda widget, text=None: shown.append(text))
    assert not check_backprop(_backprop_overwrite)
    result = last_result()
    assert shown == [result.text]
    box = result.widget
    steps, button = box.children[1], box.children[2]
    assert steps.value == "" and button.description == "More help"
    for n in range(len(result.help_steps)):
        button.click()
        assert steps.value.count("💡") == n + 1
    assert button.disabled and button.description == "No more help"

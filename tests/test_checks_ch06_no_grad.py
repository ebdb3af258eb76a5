"""Tests for the checks of chapter 06 (Clearing gradients, no_grad): ``zero_grads`` and
``my_no_grad``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

import minitorch
from minitorch.autograd import grad_mode
from minitorch.exercises.ch06_no_grad import check_no_grad_context, check_zero_grads

pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


# ------------------------------------------------------------------ zero_grads
def zero_grads(params):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()


def test_zero_grads_right(capsys):
    passed, out = _result(check_zero_grads, zero_grads, capsys)
    assert passed and "all 6 cases passed" in out


def test_zero_grads_set_to_none_is_right_too(capsys):
    def set_to_none(params):
        for p in params:
            p.grad = None

    passed, out = _result(check_zero_grads, set_to_none, capsys)
    assert passed


def test_zero_grads_todo(capsys):
    passed, out = _result(check_zero_grads, _todo, capsys)
    assert not passed and "not done yet" in out


def test_zero_grads_zeroes_the_weights(capsys):
    def weights(params):
        with minitorch.no_grad():
            for p in params:
                p.zero_()

    passed, out = _result(check_zero_grads, weights, capsys)
    assert not passed and "clear `p.grad`, not `p`" in out


def test_zero_grads_without_none_check(capsys):
    def no_none_check(params):
        for p in params:
            p.grad.zero_()

    passed, out = _result(check_zero_grads, no_none_check, capsys)
    assert not passed and "AttributeError" in out and "parameters whose .grad is still None" in out


def test_zero_grads_rebinding_a_loop_variable(capsys):
    def rebinding(params):
        for p in params:
            g = p.grad
            g = minitorch.zeros(1)  # noqa: F841  (the mistake: p.grad is unchanged)

    passed, out = _result(check_zero_grads, rebinding, capsys)
    assert not passed and "neither None nor all zeros" in out


def test_zero_grads_freezing_is_not_clearing(capsys):
    def freezes(params):
        for p in params:
            p.grad = None
            p.requires_grad_(False)

    passed, out = _result(check_zero_grads, freezes, capsys)
    assert not passed and "no longer requires grad" in out


# ------------------------------------------------------------------ my_no_grad
class my_no_grad:  # noqa: N801
    def __enter__(self):
        self.prev = grad_mode._state.enabled
        grad_mode._state.enabled = False

    def __exit__(self, exc_type, exc_value, traceback):
        grad_mode._state.enabled = self.prev


def test_no_grad_right(capsys):
    passed, out = _result(check_no_grad_context, my_no_grad, capsys)
    assert passed and "all 6 cases passed" in out


def test_no_grad_todo(capsys):
    class todo:  # noqa: N801
        def __enter__(self):
            raise NotImplementedError("your code here")

        def __exit__(self, *exc):
            raise NotImplementedError("your code here")

    passed, out = _result(check_no_grad_context, todo, capsys)
    assert not passed and "not done yet" in out


def test_no_grad_always_turns_recording_on(capsys):
    class always_on:  # noqa: N801
        def __enter__(self):
            grad_mode._state.enabled = False

        def __exit__(self, *exc):
            grad_mode._state.enabled = True

    passed, out = _result(check_no_grad_context, always_on, capsys)
    assert not passed and "restore the *previous* mode" in out


def test_no_grad_never_restores(capsys):
    class never_restores:  # noqa: N801
        def __enter__(self):
            grad_mode._state.enabled = False

        def __exit__(self, *exc):
            pass

    passed, out = _result(check_no_grad_context, never_restores, capsys)
    assert not passed and "not back on after the block" in out


def test_no_grad_swallows_exceptions(capsys):
    class swallows(my_no_grad):  # noqa: N801
        def __exit__(self, *exc):
            super().__exit__(*exc)
            return True

    passed, out = _result(check_no_grad_context, swallows, capsys)
    assert not passed and "swallow" in out


def test_no_grad_generator_without_finally(capsys):
    @contextmanager
    def fragile():
        prev = grad_mode._state.enabled
        grad_mode._state.enabled = False
        yield
        grad_mode._state.enabled = prev

    passed, out = _result(check_no_grad_context, fragile, capsys)
    assert not passed and "the block raises an exception" in out


def test_no_grad_does_nothing(capsys):
    class nothing:  # noqa: N801
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    passed, out = _result(check_no_grad_context, nothing, capsys)
    assert not passed and "Recording is still on inside the block" in out


# ------------------------------------------------------------------ more wrong answers
def _zero_weights(params):
    with minitorch.no_grad():
        for p in params:
            p.zero_()


def _zero_without_none_check(params):
    for p in params:
        p.grad.zero_()


def _zero_loop_variable(params):
    for p in params:
        g = p.grad
        g = minitorch.zeros(1)  # noqa: F841  (the mistake: p.grad is unchanged)


def _zero_freezes(params):
    for p in params:
        p.grad = None
        p.requires_grad_(False)


def _zero_by_multiplying(params):
    for p in params:
        if p.grad is not None:
            p.grad *= 0


def _zero_first_only(params):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()
            return


def _zero_until_a_none(params):
    for p in params:
        if p.grad is None:
            return  # the rest are not cleared
        p.grad.zero_()


def _zero_with_an_optimizer(params):
    minitorch.optim.SGD(params, lr=0.0).zero_grad()


class _NoGradForgetsPrevious(my_no_grad):
    def __exit__(self, *exc):
        minitorch.set_grad_enabled(True)


class _NoGradSavesAtInit:
    def __init__(self):
        self.prev = grad_mode._state.enabled  # the mode when made, not when entered

    def __enter__(self):
        grad_mode._state.enabled = False

    def __exit__(self, *exc):
        grad_mode._state.enabled = self.prev


class _NoGradAlwaysOn:
    def __enter__(self):
        grad_mode._state.enabled = False

    def __exit__(self, *exc):
        grad_mode._state.enabled = True


class _NoGradNeverRestores:
    def __enter__(self):
        grad_mode._state.enabled = False

    def __exit__(self, *exc):
        pass


class _NoGradSwallows(my_no_grad):
    def __exit__(self, *exc):
        super().__exit__(*exc)
        return True


@contextmanager
def _no_grad_without_finally():
    prev = grad_mode._state.enabled
    grad_mode._state.enabled = False
    yield
    grad_mode._state.enabled = prev


class _NoGradToggles:
    def __enter__(self):
        grad_mode._state.enabled = not grad_mode._state.enabled

    def __exit__(self, *exc):
        grad_mode._state.enabled = not grad_mode._state.enabled


class _NoGradSharedState:
    """Remembers the mode in a class attribute, shared by every block."""

    prev = True

    def __enter__(self):
        _NoGradSharedState.prev = grad_mode._state.enabled
        grad_mode._state.enabled = False

    def __exit__(self, *exc):
        grad_mode._state.enabled = _NoGradSharedState.prev


class _NoGradDelegates:
    def __enter__(self):
        self.inner = minitorch.no_grad()
        self.inner.__enter__()

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)


class _NoGradSubclass(minitorch.no_grad):
    pass


class _NoGradNothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_zero_grads": (check_zero_grads, zero_grads),
    "check_no_grad_context": (check_no_grad_context, my_no_grad),
}

WRONG = [
    ("check_zero_grads", lambda params: None, "clears nothing",
     ["w.grad and b.grad are neither None nor all zeros"]),
    ("check_zero_grads", _zero_weights, "zeroes the weights", ["clear `p.grad`, not `p`"]),
    ("check_zero_grads", _zero_without_none_check, "no check for None",
     ["no backward has run yet", "skip such a parameter"]),
    ("check_zero_grads", _zero_loop_variable, "rebinds a loop variable",
     ["assigning to a loop variable changes nothing"]),
    ("check_zero_grads", _zero_freezes, "freezes the parameters", ["no longer requires grad"]),
    ("check_zero_grads", _zero_by_multiplying, "multiplies by 0 (inf * 0 is NaN)",
     ["overflowed", "0 * inf and 0 * NaN are NaN"]),
    ("check_zero_grads", _zero_first_only, "returns inside the loop",
     ["w.grad was cleared but b.grad was not", "`return`"]),
    ("check_zero_grads", _zero_until_a_none, "stops at the first .grad that is None",
     ["the parameter between them has no gradient", "`continue`"]),
    ("check_zero_grads", _zero_with_an_optimizer, "optimizer.zero_grad()",
     ["called `optimizer.zero_grad`", "answer key"]),
    ("check_no_grad_context", _NoGradForgetsPrevious, "restores True, not the previous mode",
     ["restore the *previous* mode", "not always turn recording on"]),
    ("check_no_grad_context", _NoGradSavesAtInit, "saves the mode in __init__, not __enter__",
     ["when the block was *entered*", "the mode of when the object was made"]),
    ("check_no_grad_context", _NoGradAlwaysOn, "always turns recording on",
     ["restore the *previous* mode"]),
    ("check_no_grad_context", _NoGradNeverRestores, "never restores",
     ["not back on after the block"]),
    ("check_no_grad_context", _NoGradSwallows, "swallows exceptions", ["swallow"]),
    ("check_no_grad_context", _no_grad_without_finally, "a generator without finally",
     ["the block raises an exception", "Recording is not back on"]),
    ("check_no_grad_context", _NoGradToggles, "toggles the mode with `not`",
     ["already off turned recording *on*", "`not enabled`"]),
    ("check_no_grad_context", _NoGradSharedState, "the mode kept in a class attribute",
     ["two nested blocks", "not back on after two nested blocks", "not on the class"]),
    ("check_no_grad_context", _NoGradDelegates, "delegates to torch.no_grad",
     ["called `torch.no_grad`", "answer key"]),
    ("check_no_grad_context", _NoGradSubclass, "subclasses torch.no_grad",
     ["subclasses `torch.no_grad`", "answer key"]),
    ("check_no_grad_context", _NoGradNothing, "does nothing",
     ["Recording is still on inside the block"]),
]

GIVEAWAYS = {
    "check_zero_grads": ["p.grad.zero_()"],
    "check_no_grad_context": ["self.prev = grad_mode._state.enabled"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

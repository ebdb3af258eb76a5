"""Tests for the check of chapter 00 (Start here): ``df``, the derivative of ``(3x + 1)**2``.

Chapter 00 builds this check in plain sight to show how checks work, so its feedback is the
harness's own: the first case that fails, what was expected and what came back, and the hint
that names the chain rule. The right answer passes; a stub reports "not done yet"; every
realistic wrong answer in ``WRONG`` fails, and its message shows the case and the hint (the
harness-wide guarantees are in ``test_checks_robustness.py``).
"""

from __future__ import annotations

import pytest
from _checks import assert_fails_naming, run, wrong_ids

import minitorch as torch
from minitorch.exercises.ch00_start_here import autograd_derivative, check_derivative, f


def df(x):
    return 2 * (3 * x + 1) * 3


def _forgot_the_inner_derivative(x):
    return 2 * (3 * x + 1)


def _returned_f_itself(x):
    return (3 * x + 1) ** 2


def _expanded_with_a_slip(x):  # f = 9x^2 + 6x + 1, so f' = 18x + 6, not 18x + 1
    return 18 * x + 1


def _power_rule_without_the_chain(x):
    return 2 * (3 * x + 1) ** 1 * x


# Answers that passed before the review of chapter 00: autograd (the answer key) and numerical
# estimates, where the exercise asks for the formula.
def _autograd_by_backward(x):
    t = torch.tensor(x, requires_grad=True)
    ((3 * t + 1) ** 2).backward()
    return t.grad.item()


def _autograd_grad(x):
    t = torch.tensor(x, requires_grad=True)
    return torch.autograd.grad(f(t), t)[0].item()


def _the_answer_key(x):
    return autograd_derivative(x)


def _central_difference(x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def _forward_difference(x, h=1e-6):
    return (f(x + h) - f(x)) / h


def _float32_formula(x):  # right: a formula in float32 tensors is still exact here
    t = torch.tensor(x)
    return 2 * (3 * t + 1) * 3


RIGHT = {"check_derivative": (check_derivative, df)}

WRONG = [
    ("check_derivative", _forgot_the_inner_derivative, "the inner derivative 3 forgotten",
     ["df(0.0)", "expected", "6.0", "the inner one, 3"]),
    ("check_derivative", _returned_f_itself, "f returned instead of its derivative",
     ["df(0.0)", "Chain rule"]),
    ("check_derivative", _expanded_with_a_slip, "the constant of the expanded derivative wrong",
     ["df(0.0)", "got", "1"]),
    ("check_derivative", _power_rule_without_the_chain, "multiplied by x instead of by 3",
     ["df(0.0)", "Chain rule"]),
    ("check_derivative", _autograd_by_backward, "autograd's backward()",
     ["called `Tensor.backward`", "autograd is the answer key"]),
    ("check_derivative", _autograd_grad, "torch.autograd.grad",
     ["called `torch.autograd.grad`", "with the chain rule"]),
    ("check_derivative", _the_answer_key, "the check's own autograd_derivative",
     ["called `autograd_derivative`", "answer key"]),
    ("check_derivative", _central_difference, "a central difference",
     ["Close, but not exact", "finite difference", "formula"]),
    ("check_derivative", _forward_difference, "a forward difference",
     ["Close, but not exact", "finite difference"]),
]

GIVEAWAYS = {"check_derivative": ["2 * (3 * x + 1) * 3"]}


def test_the_reference_is_autograd_and_agrees_with_the_formula():
    for x in (0.0, 1.0, -2.0, 0.5):
        assert autograd_derivative(x) == pytest.approx(df(x))
    assert f(2.0) == 49.0


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed


def test_a_formula_in_float32_tensors_passes():
    assert run(check_derivative, _float32_formula).passed


def test_a_stub_is_not_done_yet():
    def stub(x):
        raise NotImplementedError("your code here")

    assert run(check_derivative, stub).status == "todo"


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)

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


def test_a_stub_is_not_done_yet():
    def stub(x):
        raise NotImplementedError("your code here")

    assert run(check_derivative, stub).status == "todo"


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)

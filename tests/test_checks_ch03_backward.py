"""Tests for the checks of chapter 03 (Backward: the chain rule): ``chain_rule``,
``logistic_grads`` (by hand) and ``logistic_autograd`` (with autograd).

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
from minitorch.autograd import grad_mode
from minitorch.exercises.ch03_backward import (
    check_chain_rule,
    check_logistic_autograd,
    check_logistic_grads,
)


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


def central(f, x, h=1e-5):
    return (f(x + h) - f(x - h)) / (2 * h)


# ------------------------------------------------------------------ chain rule, by hand
def chain_rule(df, g, dg, x):
    return df(g(x)) * dg(x)


def logistic_grads(w, b, x, y):
    p = 1 / (1 + math.exp(-(w * x + b)))
    return (p - y) * x, p - y


def test_checks_pass_correct_solutions(capsys):
    assert check_chain_rule(chain_rule)
    assert check_logistic_grads(logistic_grads)
    out = capsys.readouterr().out
    assert out.count("✓") == 2 and "✗" not in out


def _loss(w, b, x, y):  # the binary cross-entropy, in plain floats
    p = 1 / (1 + math.exp(-(w * x + b)))
    return -(y * math.log(p) + (1 - y) * math.log(1 - p))


def _np_loss(w, b, x, y):  # the same loss with NumPy's log (which no Shortcut sees)
    p = 1 / (1 + np.exp(-(w * x + b)))
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)))


def test_the_expected_gradients_agree_with_finite_differences():
    for sample in [(0.5, 0.0, 2.0, 1.0), (-1.0, 0.3, 1.5, 0.0), (-0.0004, 0.5, -5000.0, 1.0)]:
        estimate = _logistic_finite_differences(*sample, h=1e-8)
        assert np.allclose(estimate, logistic_grads(*sample), rtol=1e-6)


def _logistic_finite_differences(w, b, x, y, h=1e-5):  # estimates the slope, with math.log
    return (central(lambda v: _loss(v, b, x, y), w, h),
            central(lambda v: _loss(w, v, x, y), b, h))


def _logistic_central_numpy(w, b, x, y):
    return (central(lambda v: _np_loss(v, b, x, y), w),
            central(lambda v: _np_loss(w, v, x, y), b))


def _logistic_forward_numpy(w, b, x, y, h=1e-7):
    loss = _np_loss(w, b, x, y)
    return (_np_loss(w + h, b, x, y) - loss) / h, (_np_loss(w, b + h, x, y) - loss) / h


def test_chain_rule_at_x_fails(capsys):
    assert not check_chain_rule(lambda df, g, dg, x: df(x) * dg(x))
    out = capsys.readouterr().out
    assert "✗ chain rule" in out and "outer derivative at x" in out


def test_checks_say_not_done_yet_for_stubs(capsys):
    for check in (check_chain_rule, check_logistic_grads):
        assert check(_todo) is False
        assert "not done yet" in capsys.readouterr().out


def _logistic_slip(fn):
    """``logistic_grads`` with one slip, written the way a learner writes it."""

    def logistic(w, b, x, y):
        return fn(w, b, x, y, 1 / (1 + math.exp(-(w * x + b))))

    return logistic


def _logistic_with_tensors(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    p = minitorch.sigmoid(w * x + b)
    (-(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))).backward()
    return w.grad.item(), b.grad.item()


def _logistic_sigmoid_sign(w, b, x, y):
    p = 1 / (1 + math.exp(w * x + b))  # lost the minus sign
    return (p - y) * x, p - y


def _logistic_no_bias(w, b, x, y):
    p = 1 / (1 + math.exp(-w * x))
    return (p - y) * x, p - y


# ------------------------------------------------------------------ logistic, by autograd
def logistic_autograd(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    p = minitorch.sigmoid(w * x + b)
    loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
    loss.backward()
    return w.grad, b.grad


def test_logistic_autograd_right(capsys):
    passed, out = _result(check_logistic_autograd, logistic_autograd, capsys)
    assert passed and "all 4 cases passed" in out


def test_logistic_autograd_todo(capsys):
    passed, out = _result(check_logistic_autograd, _todo, capsys)
    assert not passed and "not done yet" in out


def _logistic_autograd_forgot_requires_grad(w, b, x, y):
    w, b = minitorch.tensor(w), minitorch.tensor(b)
    p = minitorch.sigmoid(w * x + b)
    loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
    loss.backward()
    return w.grad, b.grad


def test_logistic_autograd_without_requires_grad(capsys):
    passed, out = _result(check_logistic_autograd, _logistic_autograd_forgot_requires_grad,
                          capsys)
    assert not passed and "does not require grad" in out


def test_logistic_autograd_by_hand_is_not_autograd(capsys):
    passed, out = _result(check_logistic_autograd, logistic_grads, capsys)
    assert not passed and "`backward()` never ran" in out


def _logistic_autograd_squared_error(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    loss = (minitorch.sigmoid(w * x + b) - y) ** 2
    loss.backward()
    return w.grad, b.grad


def test_logistic_autograd_wrong_loss(capsys):
    passed, out = _result(check_logistic_autograd, _logistic_autograd_squared_error, capsys)
    assert not passed and "squared error" in out


def _logistic_autograd_only_w(w, b, x, y):
    return logistic_autograd(w, b, x, y)[0]


def test_logistic_autograd_returns_one_value(capsys):
    passed, out = _result(check_logistic_autograd, _logistic_autograd_only_w, capsys)
    assert not passed and "Return the pair" in out


def _logistic_autograd_wrong_sign(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    p = minitorch.sigmoid(w * x + b)
    loss = y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p)  # the log-likelihood
    loss.backward()
    return w.grad, b.grad


def _logistic_autograd_backward_twice(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    p = minitorch.sigmoid(w * x + b)
    loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
    loss.backward(retain_graph=True)
    print("loss:", loss.item())
    loss.backward()  # once more, to see the gradients "again"
    return w.grad, b.grad


def _logistic_autograd_swapped(w, b, x, y):
    gw, gb = logistic_autograd(w, b, x, y)
    return gb, gw


def _logistic_autograd_formula_after_backward(w, b, x, y):
    t = minitorch.tensor(1.0, requires_grad=True)
    (t * 2).backward()  # "autograd ran"
    p = 1 / (1 + math.exp(-(w * x + b)))
    return minitorch.tensor((p - y) * x), minitorch.tensor(p - y)


def _chain_rule_numerical_dg(df, g, dg, x, h=1e-6):
    return df(g(x)) * (g(x + h) - g(x - h)) / (2 * h)


def _chain_rule_forward_dg(df, g, dg, x, h=1e-7):
    return df(g(x)) * (g(x + h) - g(x)) / h


def _logistic_autograd_with_pytorch(w, b, x, y):
    import torch

    w = torch.tensor(w, requires_grad=True)
    b = torch.tensor(b, requires_grad=True)
    p = torch.sigmoid(w * x + b)
    loss = -(y * torch.log(p) + (1 - y) * torch.log(1 - p))
    loss.backward()
    return w.grad, b.grad


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_chain_rule": (check_chain_rule, chain_rule),
    "check_logistic_grads": (check_logistic_grads, logistic_grads),
    "check_logistic_autograd": (check_logistic_autograd, logistic_autograd),
}

WRONG = [
    ("check_chain_rule", lambda df, g, dg, x: df(x) * dg(x),
     "outer derivative at x, not g(x)", ["f = sin, g(x) = x**2", "outer derivative at x"]),
    ("check_chain_rule", lambda df, g, dg, x: df(g(x)), "the inner derivative missing",
     ["inner derivative is missing"]),
    ("check_chain_rule", lambda df, g, dg, x: df(g(x)) + dg(x), "added, not multiplied",
     ["You added the two derivatives"]),
    ("check_chain_rule", lambda df, g, dg, x: df(dg(x)) * dg(x), "df of the inner derivative",
     ["passed the inner *derivative* to `df`"]),
    ("check_chain_rule", lambda df, g, dg, x: lambda t: df(g(t)) * dg(t),
     "returns a function", ["You returned a function"]),
    ("check_logistic_grads", _logistic_slip(lambda w, b, x, y, p: ((y - p) * x, y - p)),
     "wrong sign", ["wrong sign"]),
    ("check_logistic_grads", _logistic_slip(lambda w, b, x, y, p: (p - y, p - y)),
     "the factor x forgotten", ["missing its factor x"]),
    ("check_logistic_grads", _logistic_slip(lambda w, b, x, y, p: (p - y, (p - y) * x)),
     "the pair in the wrong order", ["wrong order"]),
    ("check_logistic_grads", _logistic_slip(
        lambda w, b, x, y, p: ((w * x + b - y) * x, w * x + b - y)), "z instead of p",
     ["You used z where p belongs"]),
    ("check_logistic_grads", _logistic_slip(
        lambda w, b, x, y, p: ((p - y) * p * (1 - p) * x, (p - y) * p * (1 - p))),
     "the sigmoid's derivative kept", ["An extra factor p(1 - p)"]),
    ("check_logistic_grads", _logistic_sigmoid_sign, "sigmoid without its minus sign",
     ["Your p is 1 - sigmoid(z)"]),
    ("check_logistic_grads", _logistic_no_bias, "z without the bias", ["forgot the bias"]),
    ("check_logistic_grads", _logistic_with_tensors, "autograd instead of by hand",
     ["called `minitorch.tensor`", "plain Python floats"]),
    ("check_logistic_grads", _logistic_finite_differences, "finite differences of the loss",
     ["called `math.log`", "no logarithm left", "instead of deriving it by hand"]),
    ("check_logistic_grads", _logistic_central_numpy, "central differences with np.log",
     ["Close, but not exact", "dL/dw", "finite differences"]),
    ("check_logistic_grads", _logistic_forward_numpy, "forward differences, h=1e-7",
     ["Close, but not exact", "finite differences"]),
    ("check_chain_rule", _chain_rule_numerical_dg, "g's slope measured, dg unused",
     ["straight-through", "measured g's slope numerically", "instead of using `dg`"]),
    ("check_chain_rule", _chain_rule_forward_dg, "g's slope by forward differences",
     ["measured g's slope numerically", "instead of using `dg`"]),
    ("check_logistic_autograd", _logistic_autograd_formula_after_backward,
     "the formula returned after an unrelated backward",
     ["`backward()` ran", "is not a gradient it computed", "return their `.grad`"]),
    ("check_logistic_autograd", _logistic_autograd_wrong_sign, "the loss without its minus",
     ["wrong sign", "*negative* log-likelihood"]),
    ("check_logistic_autograd", _logistic_autograd_forgot_requires_grad,
     "requires_grad forgotten", ["does not require grad"]),
    ("check_logistic_autograd", logistic_grads, "by hand, no autograd",
     ["`backward()` never ran"]),
    ("check_logistic_autograd", _logistic_autograd_squared_error, "a squared-error loss",
     ["squared error"]),
    ("check_logistic_autograd", _logistic_autograd_only_w, "returns w.grad only",
     ["Return the pair"]),
    ("check_logistic_autograd", _logistic_autograd_backward_twice, "backward called twice",
     ["twice the right one", "ran twice"]),
    ("check_logistic_autograd", _logistic_autograd_swapped, "(b.grad, w.grad)",
     ["wrong order"]),
]
if __import__("importlib").util.find_spec("torch") is not None:
    WRONG.append(("check_logistic_autograd", _logistic_autograd_with_pytorch,
                  "the real PyTorch instead of minitorch", ["These are PyTorch tensors"]))

GIVEAWAYS = {
    "check_chain_rule": ["df(g(x)) * dg(x)"],
    "check_logistic_grads": ["(p - y) * x, p - y"],
    "check_logistic_autograd": ["minitorch.log(1 - p)", "requires_grad=True) (the same"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

"""Tests for chapter 4's check_inplace_repair: the repair passes, the broken code and other
wrong answers fail with a message that says what is wrong."""

from __future__ import annotations

import minitorch
from minitorch.exercises.ch04_backward_engine import check_inplace_repair


def _run(fn, capsys):
    passed = check_inplace_repair(fn)
    return passed, capsys.readouterr().out


def layer_loss_right(x, w):
    h = minitorch.sigmoid(x @ w)
    h = h * 2
    return h.sum()


def test_repair_out_of_place(capsys):
    passed, out = _run(layer_loss_right, capsys)
    assert passed and "all 3 cases passed" in out


def test_repair_with_clone(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w).clone()
        h *= 2
        return h.sum()

    assert _run(layer_loss, capsys)[0]


def test_todo(capsys):
    def layer_loss(x, w):
        raise NotImplementedError("your code here")

    passed, out = _run(layer_loss, capsys)
    assert not passed and "not done yet" in out


def test_broken_original_fails(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w)
        h *= 2
        return h.sum()

    passed, out = _run(layer_loss, capsys)
    assert not passed and "modified by an inplace operation" in out
    assert "still changed in place" in out


def test_detach_repair_fails(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w).detach()
        h *= 2
        return h.sum()

    passed, out = _run(layer_loss, capsys)
    assert not passed and "no grad_fn" in out


def test_dropping_the_doubling_fails(capsys):
    def layer_loss(x, w):
        return minitorch.sigmoid(x @ w).sum()

    passed, out = _run(layer_loss, capsys)
    assert not passed and "The loss should be" in out


def test_wrong_gradient_fails(capsys):
    def layer_loss(x, w):
        s = minitorch.sigmoid(x @ w)
        return (2 * s.detach() + 0 * s).sum() + (x @ w).sum() * 0.1 - (x @ w).sum().detach() * 0.1

    passed, out = _run(layer_loss, capsys)
    assert not passed and "w.grad should be" in out


def test_no_grad_mode_left_on(capsys):
    from minitorch.autograd import grad_mode

    def layer_loss(x, w):
        grad_mode._state.enabled = False
        return minitorch.sigmoid(x @ w).sum() * 2

    passed, _ = _run(layer_loss, capsys)
    assert not passed and grad_mode._state.enabled

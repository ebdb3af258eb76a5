"""Tests for chapter 3's second-layer checks: check_vjp, check_gradcheck, check_second_derivative.

For each: the right answer passes, an unfinished stub is "not done yet", and several typical
wrong answers fail with a message that says what is wrong.
"""

from __future__ import annotations

import math

import minitorch
from minitorch.exercises.ch05_checking_gradients import (
    check_gradcheck,
    check_second_derivative,
    check_vjp,
)


def _run(check, fn, capsys):
    passed = check(fn)
    return passed, capsys.readouterr().out


def _todo(*args, **kwargs):
    raise NotImplementedError("your code here")


# ------------------------------------------------------------------ VJP
def vjp_right(x, v):
    return v * x.sum() + (v * x).sum()


def test_vjp_right(capsys):
    passed, out = _run(check_vjp, vjp_right, capsys)
    assert passed and "all 4 cases passed" in out


def test_vjp_via_explicit_jacobian_also_right(capsys):
    def vjp_f(x, v):
        n = x.shape[0]
        jac = x.sum() * minitorch.eye(n, dtype=x.dtype) + x.unsqueeze(1) * minitorch.ones(
            n, n, dtype=x.dtype)
        return v @ jac

    assert _run(check_vjp, vjp_f, capsys)[0]


def test_vjp_todo(capsys):
    passed, out = _run(check_vjp, _todo, capsys)
    assert not passed and "not done yet" in out


def test_vjp_diagonal_only_fails(capsys):
    passed, out = _run(check_vjp, lambda x, v: v * x.sum(), capsys)
    assert not passed and "not diagonal" in out


def test_vjp_jacobian_times_v_fails(capsys):
    # J v instead of v^T J: (s v + x (1 . v)) differs from s v + (v . x) 1
    passed, out = _run(check_vjp, lambda x, v: v * x.sum() + x * v.sum(), capsys)
    assert not passed and "J v, not v^T J" in out


def test_vjp_calling_backward_fails(capsys):
    def vjp_f(x, v):
        x = x.detach().requires_grad_()
        (x * x.sum()).backward(gradient=v)
        return x.grad

    passed, out = _run(check_vjp, vjp_f, capsys)
    assert not passed and "called backward()" in out


def test_vjp_scalar_fails(capsys):
    passed, out = _run(check_vjp, lambda x, v: (v * x).sum() * x.sum(), capsys)
    assert not passed and "shape" in out


# ------------------------------------------------------------------ gradcheck
def my_gradcheck(f, x, eps=1e-6, atol=1e-5):
    x.grad = None
    f(x).backward()
    numeric = minitorch.zeros_like(x)
    with minitorch.no_grad():
        flat, out = x.view(-1), numeric.view(-1)
        for i in range(flat.numel()):
            old = flat[i].item()
            flat[i] = old + eps
            up = f(x).item()
            flat[i] = old - eps
            down = f(x).item()
            flat[i] = old
            out[i] = (up - down) / (2 * eps)
    return minitorch.allclose(x.grad, numeric, atol=atol)


def test_gradcheck_right(capsys):
    passed, out = _run(check_gradcheck, my_gradcheck, capsys)
    assert passed and "all 8 cases passed" in out


def test_gradcheck_todo(capsys):
    passed, out = _run(check_gradcheck, _todo, capsys)
    assert not passed and "not done yet" in out


def test_gradcheck_always_true_fails(capsys):
    passed, out = _run(check_gradcheck, lambda f, x: True, capsys)
    assert not passed and "backward is wrong" in out


def test_gradcheck_always_false_fails(capsys):
    passed, out = _run(check_gradcheck, lambda f, x: False, capsys)
    assert not passed and "gradient is correct" in out


def test_gradcheck_first_element_only_fails(capsys):
    def first_only(f, x, eps=1e-6):
        x.grad = None
        f(x).backward()
        with minitorch.no_grad():
            flat = x.view(-1)
            old = flat[0].item()
            flat[0] = old + eps
            up = f(x).item()
            flat[0] = old - eps
            down = f(x).item()
            flat[0] = old
        return math.isclose(x.grad.view(-1)[0].item(), (up - down) / (2 * eps), abs_tol=1e-5)

    passed, _ = _run(check_gradcheck, first_only, capsys)
    assert not passed


def test_gradcheck_forgets_to_restore_fails(capsys):
    def no_restore(f, x, eps=1e-6):
        x.grad = None
        f(x).backward()
        numeric = minitorch.zeros_like(x)
        with minitorch.no_grad():
            flat, out = x.view(-1), numeric.view(-1)
            for i in range(flat.numel()):
                old = flat[i].item()
                flat[i] = old + eps
                up = f(x).item()
                flat[i] = old - eps
                down = f(x).item()
                out[i] = (up - down) / (2 * eps)
        return minitorch.allclose(x.grad, numeric, atol=1e-5)

    passed, out = _run(check_gradcheck, no_restore, capsys)
    assert not passed and "changed" in out


def test_gradcheck_forward_difference_with_huge_eps_fails(capsys):
    def sloppy(f, x):
        return my_gradcheck(f, x, eps=0.5)

    passed, _ = _run(check_gradcheck, sloppy, capsys)
    assert not passed


# ------------------------------------------------------------------ second derivative
def second_derivative(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    (d2y,) = minitorch.autograd.grad(dy, x)
    return d2y


def test_second_derivative_right(capsys):
    passed, out = _run(check_second_derivative, second_derivative, capsys)
    assert passed and "all 4 cases passed" in out


def test_second_derivative_todo(capsys):
    passed, out = _run(check_second_derivative, _todo, capsys)
    assert not passed and "not done yet" in out


def test_second_derivative_first_derivative_fails(capsys):
    def first(f, x):
        x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
        (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
        f(x).backward()  # runs the engine twice, but returns f'
        return dy

    passed, out = _run(check_second_derivative, first, capsys)
    assert not passed and "the first derivative" in out


def test_second_derivative_without_create_graph_fails(capsys):
    def no_graph(f, x):
        x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
        (dy,) = minitorch.autograd.grad(f(x), x)
        (d2y,) = minitorch.autograd.grad(dy, x)
        return d2y

    passed, out = _run(check_second_derivative, no_graph, capsys)
    assert not passed and "does not require grad" in out


def test_second_derivative_finite_differences_fails(capsys):
    def numeric(f, x, h=1e-4):
        def val(t):
            return f(minitorch.tensor(t, dtype=minitorch.float64)).item()
        return (val(x + h) - 2 * val(x) + val(x - h)) / h ** 2

    passed, out = _run(check_second_derivative, numeric, capsys)
    assert not passed and "engine did not run" in out

"""Tests for the checks of chapter 05 (Checking gradients): ``vjp_f``, ``my_gradcheck`` and
``second_derivative``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import math

import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import todo as _todo

import minitorch
from minitorch.exercises.ch05_checking_gradients import (
    check_gradcheck,
    check_second_derivative,
    check_vjp,
)


def _run(check, fn, capsys):
    passed = check(fn)
    return passed, capsys.readouterr().out


# ------------------------------------------------------------------ VJP
def vjp_right(x, v):
    return v * x.sum() + (v * x).sum()


def test_vjp_right(capsys):
    passed, out = _run(check_vjp, vjp_right, capsys)
    assert passed and "all 4 cases passed" in out


def _vjp_via_explicit_jacobian(x, v):
    n = x.shape[0]
    jac = x.sum() * minitorch.eye(n, dtype=x.dtype) + x.unsqueeze(1) * minitorch.ones(
        n, n, dtype=x.dtype)
    return v @ jac


def test_vjp_via_explicit_jacobian_is_refused(capsys):
    """The exercise says "without building J": a right value from the full Jacobian is
    refused, with the reason (it used to pass)."""
    passed, out = _run(check_vjp, _vjp_via_explicit_jacobian, capsys)
    assert not passed and "built a matrix" in out and "*without* building J" in out


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
    assert passed and "all 12 cases passed" in out


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
    assert passed and "all 5 cases passed" in out


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


# ------------------------------------------------------------------ more wrong answers
def _vjp_in_place(x, v):
    s = x.sum()
    v *= s  # changes the caller's v
    return v + (v * x).sum() / s


def _vjp_outer(x, v):
    n = x.shape[0]
    jac = x.sum() * minitorch.eye(n, dtype=x.dtype) + x.unsqueeze(1)  # J[i, j]
    return (v.unsqueeze(1) * jac).sum(0)


def _vjp_numpy(x, v):
    xs, vs = x.numpy(), v.numpy()
    return vs * xs.sum() + (vs * xs).sum()


def _vjp_elementwise(x, v):
    return v * x.sum() + v * x


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


def _gradcheck(eps=1e-6, atol=1e-5, central=True, restore=True, first_only=False,
               clear=True, compare="allclose"):
    def my_gradcheck(f, x):
        if clear:
            x.grad = None
        f(x).backward()
        numeric = _numeric_gradient(f, x, eps, central)
        if not restore:
            with minitorch.no_grad():
                x += eps
        if first_only:
            return math.isclose(x.grad.view(-1)[0].item(), numeric.view(-1)[0].item(),
                                abs_tol=atol)
        if compare == "relative":
            return ((x.grad - numeric).abs() / numeric.abs()).max().item() < 1e-5
        if compare == "total":
            return abs(x.grad.sum().item() - numeric.sum().item()) < atol
        return minitorch.allclose(x.grad, numeric, atol=atol)
    return my_gradcheck


def _gradcheck_built_in(f, x):
    return minitorch.autograd.gradcheck(f, (x,))


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


def _second_without_requires_grad(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64)
    (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    (d2y,) = minitorch.autograd.grad(dy, x)
    return d2y


def _second_by_differences(f, x, h=1e-4):
    def value(t):
        return f(minitorch.tensor(t, dtype=minitorch.float64)).item()
    return (value(x + h) - 2 * value(x) + value(x - h)) / h ** 2


def _second_through_dot_grad(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    f(x).backward(create_graph=True)
    x.grad.backward()  # adds f'' to the f' already in x.grad
    return x.grad


def _second_as_a_tuple(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    return minitorch.autograd.grad(dy, x)


def _second_by_hessian(f, x):
    x = minitorch.tensor(x, dtype=minitorch.float64)
    return minitorch.autograd.functional.hessian(f, x)


# second adversarial review: wrong answers that passed the checks before
def _vjp_from_a_list(x, v):
    """Entry by entry with .item(): the list becomes a float32 tensor."""
    s, vx = x.sum().item(), (v * x).sum().item()
    return minitorch.tensor([s * v[j].item() + vx for j in range(x.numel())])


def _gradcheck_guarded_relative(f, x, eps=1e-6, atol=1e-5):
    """A relative error whose division is guarded: right on an exact 0, wrong where the
    difference quotient is 1e-12 and the gradient 0."""
    x.grad = None
    f(x).backward()
    numeric = _numeric_gradient(f, x, eps, True)
    return ((x.grad - numeric).abs() / (numeric.abs() + 1e-12)).max().item() < 1e-3


def _gradcheck_numerical_jacobian(f, x, eps=1e-6, atol=1e-5):
    """gradcheck's own finite differences: the answer key."""
    from minitorch.autograd.gradcheck import numerical_jacobian

    x.grad = None
    f(x).backward()
    ((jacobian,),) = numerical_jacobian(f, [x], eps)
    return bool(abs(jacobian.reshape(-1) - x.grad.numpy().reshape(-1)).max() < atol)


def _second_from_two_first_derivatives(f, x, h=1e-4):
    """Autograd twice, but each time on f: a central difference of f', not f' differentiated."""
    def first(t):
        t = minitorch.tensor(t, dtype=minitorch.float64, requires_grad=True)
        (dy,) = minitorch.autograd.grad(f(t), t)
        return dy.item()
    return (first(x + h) - first(x - h)) / (2 * h)


def _second_through_backward(f, x):
    """Right: grad with create_graph, then backward on the first derivative."""
    x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
    (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
    dy.backward()
    return x.grad


@pytest.mark.parametrize("check,right", [
    (check_vjp, lambda x, v: v * x.sum() + minitorch.dot(v, x)),
    (check_gradcheck, _gradcheck(compare="allclose")),
    (check_second_derivative, _second_through_backward),
], ids=["vjp with dot", "gradcheck with allclose", "second derivative via backward"])
def test_other_right_answers_pass(check, right):
    assert run(check, right).passed


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_vjp": (check_vjp, vjp_right),
    "check_gradcheck": (check_gradcheck, my_gradcheck),
    "check_second_derivative": (check_second_derivative, second_derivative),
}

WRONG = [
    ("check_vjp", lambda x, v: v * x.sum() + x * v.sum(), "transposed Jacobian (J v)",
     ["J v, not v^T J"]),
    ("check_vjp", lambda x, v: -(v * x.sum() + (v * x).sum()), "wrong sign", ["wrong sign"]),
    ("check_vjp", lambda x, v: v * x.sum(), "the diagonal of J only", ["not diagonal"]),
    ("check_vjp", lambda x, v: v * x.sum() + x, "v dropped from the off-diagonal part",
     ["dropped v"]),
    ("check_vjp", _vjp_elementwise, "v_j x_j instead of the sum over i",
     ["The off-diagonal part is one number"]),
    ("check_vjp", _vjp_via_explicit_jacobian, "builds J after all", ["built a matrix"]),
    ("check_vjp", _vjp_outer, "builds J from an outer product", ["built a matrix"]),
    ("check_vjp", _vjp_in_place, "multiplies v in place", ["changed its input `v`"]),
    ("check_vjp", _vjp_numpy, "NumPy arrays instead of a tensor",
     ["Return a minitorch tensor"]),
    ("check_vjp", lambda x, v: (v * x).sum() * x.sum(), "a scalar", ["shape"]),
    ("check_vjp", _vjp_from_a_list, "entry by entry into a list (float32)",
     ["Your VJP is float32, though x and v are float64"]),
    ("check_gradcheck", _gradcheck_numerical_jacobian, "gradcheck's numerical_jacobian",
     ["called `torch.autograd.gradcheck.numerical_jacobian`", "answer key"]),
    ("check_gradcheck", _gradcheck_guarded_relative, "a relative error, division guarded",
     ["the central difference is eps ** 2 = 1e-12", "added to the divisor"]),
    ("check_second_derivative", _second_from_two_first_derivatives,
     "a difference of two first derivatives", ["no backward differentiated the result of "
                                               "another", "`create_graph=True`"]),
    ("check_gradcheck", lambda f, x: True, "a checker that never fails",
     ["never says False", "forgot the 2"]),
    ("check_gradcheck", lambda f, x: False, "a checker that always fails",
     ["gradient is correct"]),
    ("check_gradcheck", _gradcheck(eps=1e-3, atol=1e-2, central=False),
     "one-sided difference with a loose tolerance", ["one-sided difference", "sin(30 x)"]),
    ("check_gradcheck", _gradcheck(eps=1e-3), "central difference with its own eps = 1e-3",
     ["the step is too large", "eps ** 2 * f'''(x) / 6"]),
    ("check_gradcheck", _gradcheck(central=False), "one-sided difference, eps = 1e-6",
     ["A one-sided difference", "eps * f''(x) / 2"]),
    ("check_gradcheck", _gradcheck(atol=0.1), "a tolerance too loose",
     ["tolerance is too loose", "0.2%"]),
    ("check_gradcheck", _gradcheck(first_only=True), "compares the first element only",
     ["does not compare every element", "one element only"]),
    ("check_gradcheck", _gradcheck(restore=False), "leaves x changed",
     ["x came back changed", "True, and x changed"]),
    ("check_gradcheck", _gradcheck(compare="relative"), "a relative error (0 / 0 at a zero)",
     ["divides by zero", "0 at one element"]),
    ("check_gradcheck", _gradcheck(clear=False), "x.grad not cleared first",
     ["already held a gradient", "*adds* to .grad"]),
    ("check_gradcheck", _gradcheck(compare="total"), "compares the totals",
     ["wrong places", "element by element"]),
    ("check_gradcheck", _gradcheck_built_in, "the built-in gradcheck",
     ["called `torch.autograd.gradcheck`", "answer key"]),
    ("check_second_derivative", _first_derivative, "the first derivative returned",
     ["the first derivative"]),
    ("check_second_derivative", _no_create_graph, "create_graph missing",
     ["does not require grad", "computed without `create_graph=True`"]),
    ("check_second_derivative", _second_without_requires_grad, "x does not require grad",
     ["does not require grad", "`requires_grad=True` before calling f"]),
    ("check_second_derivative", _second_by_differences, "finite differences, no autograd",
     ["engine did not run twice"]),
    ("check_second_derivative", _second_through_dot_grad, "backward twice into x.grad",
     ["f'(x) + f''(x)", "*adds* into `x.grad`"]),
    ("check_second_derivative", _second_as_a_tuple, "returns grad's tuple",
     ["a tuple of one tensor"]),
    ("check_second_derivative", _second_by_hessian, "hessian()",
     ["called `torch.autograd.functional.hessian`", "answer key"]),
]

GIVEAWAYS = {
    "check_vjp": ["(v * x).sum()", "s v_j + (v . x)"],
    "check_gradcheck": ["(up - down)", "allclose(x.grad, numeric"],
    "check_second_derivative": ["grad(f(x), x, create_graph=True)", "grad(dy, x)`; return"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

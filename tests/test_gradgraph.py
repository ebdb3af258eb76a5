"""The gradients' own graphs (``create_graph=True``) against PyTorch 2.13's, and their derivatives.

A backward that is one PyTorch kernel (``tanh_backward``, ``sigmoid_backward``,
``gelu_backward``, ``mse_loss_backward``, ``smooth_l1_loss_backward``,
``huber_loss_backward``) is one Function here too, written once on the arrays,
with its own backward in tensor operations: so the recorded gradient has PyTorch's node
(``TanhBackwardBackward0``...), and differentiates to any order. A formula that multiplies by a
number records PyTorch's Scalar overload (``MulBackward1``, one edge). The op table
(``test_opinfo.py``) compares these graphs for every sample; here: the third-order graphs, the
second and third derivatives against finite differences in float64, and float16.
"""

from __future__ import annotations

import numpy as np
import pytest
from _opinfo_samples import graph_lines

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

CASES = {  # name: (call on the library, positive inputs only)
    "tanh": (lambda lib, x: lib.tanh(x), False),
    "sigmoid": (lambda lib, x: lib.sigmoid(x), False),
    "gelu": (lambda lib, x: lib.nn.functional.gelu(x), False),
    "gelu-tanh": (lambda lib, x: lib.nn.functional.gelu(x, approximate="tanh"), False),
    "silu": (lambda lib, x: lib.nn.functional.silu(x), False),
    "mse_loss": (lambda lib, x: lib.nn.functional.mse_loss(x, lib.ones_like(x) * 0.3), False),
    "mse_loss-sum": (lambda lib, x: lib.nn.functional.mse_loss(x, _fixed(lib, x),
                                                             reduction="sum"), False),
    "mse_loss-none": (lambda lib, x: lib.nn.functional.mse_loss(_fixed(lib, x), x,
                                                              reduction="none"), False),
    "mse_loss-both": (lambda lib, x: lib.nn.functional.mse_loss(x, x.flip(0)), False),
    "smooth_l1_loss": (lambda lib, x: lib.nn.functional.smooth_l1_loss(
        x, _fixed(lib, x), beta=0.5), False),
    "smooth_l1_loss-none": (lambda lib, x: lib.nn.functional.smooth_l1_loss(
        _fixed(lib, x), x, reduction="none"), False),
    "huber_loss": (lambda lib, x: lib.nn.functional.huber_loss(
        x, _fixed(lib, x), delta=0.7), False),
    "huber_loss-sum-both": (lambda lib, x: lib.nn.functional.huber_loss(
        x, x.flip(0) * 0.5, reduction="sum"), False),
    "var-dim": (lambda lib, x: x.var(1), False),
    "var-dim-keepdim": (lambda lib, x: x.var(0, keepdim=True, correction=0), False),
    "pow3": (lambda lib, x: x ** 3, False),
    "pow2.5": (lambda lib, x: x ** 2.5, True),
    "pow-tensor": (lambda lib, x: x ** (_fixed(lib, x) + x), True),
    "rpow": (lambda lib, x: 2.5 ** x, False),
    "abs": (lambda lib, x: x.abs(), False),
    "sqrt": (lambda lib, x: x.sqrt(), True),
    "exp2": (lambda lib, x: x.exp2(), False),
    "expm1": (lambda lib, x: x.expm1(), False),
    "log1p": (lambda lib, x: x.log1p(), True),
    "log2": (lambda lib, x: x.log2(), True),
    "log10": (lambda lib, x: x.log10(), True),
    "bias-broadcast": (lambda lib, x: (x * lib.ones(2, 3, 4, dtype=x.dtype)) ** 2, False),
    # ggpoint task: pointwise math (numbers as Scalar overloads, PyTorch's formulas) and the
    # in-place ops, whose backward reads a clone of the changed input (CloneBackward0)
    "cos": (lambda lib, x: x.cos(), False),
    "erf": (lambda lib, x: lib.erf(x), False),
    "erfc": (lambda lib, x: x.erfc(), False),
    "tan": (lambda lib, x: x.tan(), False),
    "asin": (lambda lib, x: x.asin(), "unit"),
    "acos": (lambda lib, x: lib.arccos(x), "unit"),
    "atan": (lambda lib, x: x.atan(), False),
    "asinh": (lambda lib, x: x.asinh(), False),
    "acosh": (lambda lib, x: x.acosh(), "above1"),
    "atanh": (lambda lib, x: x.atanh(), "unit"),
    "sin_": (lambda lib, x: (x * 1).sin_(), False),
    "cos_": (lambda lib, x: (x * 1).cos_(), False),
    "cosh_": (lambda lib, x: (x * 1).cosh_(), False),
    "log_": (lambda lib, x: (x * 1).log_(), True),
    "log1p_": (lambda lib, x: (x * 1).log1p_(), True),
    "square_": (lambda lib, x: (x * 1).square_(), False),
    "erf_": (lambda lib, x: (x * 1).erf_(), False),
    "asin_": (lambda lib, x: (x * 1).asin_(), "unit"),
    "digamma_": (lambda lib, x: (x * 1).digamma_(), True),
    "polygamma_": (lambda lib, x: (x * 1).polygamma_(1), True),
    "mvlgamma_": (lambda lib, x: (x * 1).mvlgamma_(2), True),
    "exp_": (lambda lib, x: (x * 1).exp_(), False),  # saves its output: no clone
    "abs_": (lambda lib, x: (x * 1).abs_(), False),
    "pow_": (lambda lib, x: (x * 1).pow_(3), False),
    "hypot_": (lambda lib, x: (x * 1).hypot_(x.flip(0)), False),
    # ggpoint task: reductions whose backward unsqueezes the reduced dims and broadcasts (as
    # PyTorch's), var/std without a dim (a.mean(), MeanBackward0), prod with zeros (cumprod)
    "logsumexp": (lambda lib, x: x.logsumexp(1), False),
    "logsumexp-keepdim": (lambda lib, x: lib.logsumexp(x, (0, 1), keepdim=True), False),
    "var": (lambda lib, x: x.var(), False),
    "std": (lambda lib, x: x.std(), False),
    "std-dim": (lambda lib, x: x.std(1), False),
    "var_mean": (lambda lib, x: _combined(lib.var_mean(x)), False),
    "std_mean-dim": (lambda lib, x: _combined(lib.std_mean(x, 0)), False),
    "prod": (lambda lib, x: x.prod(), True),
    "prod-dim": (lambda lib, x: x.prod(1), True),
    "prod-a-zero": (lambda lib, x: (x * _one_zero(lib, x)).prod(), True),
    "prod-dim-a-zero": (lambda lib, x: (x * _one_zero(lib, x)).prod(0, keepdim=True), True),
    "norm": (lambda lib, x: x.norm(), False),
    "norm-p1-dim": (lambda lib, x: lib.norm(x, 1, dim=1), False),
    "norm-p3-dims": (lambda lib, x: lib.linalg.vector_norm(x, 3, dim=(0, 1)), False),
    "norm-p0.5": (lambda lib, x: lib.linalg.vector_norm(x, 0.5, dim=0, keepdim=True), True),
    "dist": (lambda lib, x: lib.dist(x, _fixed(lib, x), 2.5), False),
    "lerp-weight": (lambda lib, x: lib.lerp(x, _fixed(lib, x), x.flip(0) * 0.3), False),
    "addcmul": (lambda lib, x: lib.addcmul(_fixed(lib, x), x, x.flip(1), value=0.5), False),
    "addcdiv": (lambda lib, x: x.addcdiv(x.flip(0), x + 1, value=2), True),
    "logaddexp": (lambda lib, x: lib.logaddexp(x, x.flip(0)), False),
    "logaddexp2": (lambda lib, x: lib.logaddexp2(_fixed(lib, x), x), False),
    "sinc": (lambda lib, x: lib.sinc(x), False),
    "logit": (lambda lib, x: (x * 0.2).logit(), True),
    "logit-eps": (lambda lib, x: lib.logit(x * 0.2, eps=0.1), True),
    "atan2": (lambda lib, x: lib.atan2(x, x.flip(1)), False),
    "copysign": (lambda lib, x: lib.copysign(x, _fixed(lib, x)), False),
    "fmod": (lambda lib, x: lib.fmod(_fixed(lib, x) * 3, x), True),
    "remainder": (lambda lib, x: lib.remainder(_fixed(lib, x) * 3, x), True),
    "ldexp": (lambda lib, x: lib.ldexp(x.flip(0), x), False),
    "cumprod": (lambda lib, x: x.cumprod(1), True),
    "trapezoid-x": (lambda lib, x: lib.trapezoid(x.exp(), x), True),
    "cumulative_trapezoid-x": (lambda lib, x: lib.cumulative_trapezoid(
        x.exp(), x, dim=1), True),
}


def _combined(pair):
    """Both outputs of var_mean / std_mean in one tensor."""
    return pair[0] * 2 + pair[1]


def _one_zero(lib, like):
    """Ones of ``like``'s shape and dtype, but for a 0 (a product with a zero factor)."""
    a = np.ones(tuple(like.shape))
    a[1, 2] = 0
    return lib.tensor(a, dtype=like.dtype)


def _fixed(lib, like):
    """Constant numbers of ``like``'s shape and dtype (a target, an exponent)."""
    a = np.random.default_rng(1).standard_normal(tuple(like.shape))
    return lib.tensor(a, dtype=like.dtype)


def _input(lib, positive, dtype="float64"):
    """Inputs: any, positive (True), in (-1, 1) ("unit") or above 1 ("above1")."""
    a = np.random.default_rng(0).standard_normal((3, 4))
    if positive == "unit":
        a = np.tanh(a) * 0.9
    elif positive:
        a = np.abs(a) + (1.5 if positive == "above1" else 0.5)
    return lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=True)


def _graphs(lib, name, order, dtype="float64"):
    """graph_lines of the gradient of each order up to ``order`` (and its values)."""
    fn, positive = CASES[name]
    x = _input(lib, positive, dtype)
    y = fn(lib, x)
    w = lib.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)), dtype=y.dtype)
    out, g = [], (y * w).sum()
    for _ in range(order):
        (g,) = lib.autograd.grad(g, x, create_graph=True)
        zero = getattr(g, "_is_zerotensor", None) and g._is_zerotensor()  # PyTorch's lazy 0
        out.append((graph_lines(g.grad_fn), np.zeros(tuple(g.shape)) if zero
                    else g.detach().numpy()))
        if g.grad_fn is None:  # a constant derivative (abs'): no higher one to record
            break
        g = (g * lib.tensor(np.linspace(0.5, 1.5, 12).reshape(3, 4), dtype=g.dtype)).sum()
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_graphs_are_torchs(name):
    """The first gradient's graph is PyTorch's (the op table compares it too); the values of
    the first three derivatives agree; for the backward kernels written as Functions, the
    second gradient's graph is PyTorch's as well (their own backward is PyTorch's formula)."""
    mine, theirs = _graphs(minitorch, name, 3), _graphs(torch, name, 3)
    assert len(mine) == len(theirs)
    assert mine[0][0] == theirs[0][0]
    for (_, vm), (_, vt) in zip(mine, theirs):
        np.testing.assert_allclose(vm, vt, rtol=1e-10, atol=1e-12)
    if name in ("tanh", "sigmoid", "pow3", "abs", "mse_loss", "mse_loss-sum", "mse_loss-none",
                "mse_loss-both", "smooth_l1_loss", "smooth_l1_loss-none", "huber_loss",
                "huber_loss-sum-both"):
        assert mine[1][0] == theirs[1][0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_and_third_derivatives_by_finite_differences(name):
    fn, positive = CASES[name]
    x = _input(minitorch, positive)
    assert minitorch.autograd.gradgradcheck(lambda t: fn(minitorch, t), (x,))

    def first(t):  # a third derivative: the second of the first gradient
        y = fn(minitorch, t)
        (g,) = minitorch.autograd.grad(y.sum(), t, create_graph=True)
        return g
    assert minitorch.autograd.gradgradcheck(first, (x,))


@pytest.mark.parametrize("name", ["tanh", "sigmoid", "gelu", "gelu-tanh", "mse_loss",
                                  "smooth_l1_loss", "huber_loss"])
def test_float16_gradients(name):
    """The backward kernels compute float16 in float32 and round once, as PyTorch's CPU does."""
    mine, theirs = _graphs(minitorch, name, 2, "float16"), _graphs(torch, name, 2, "float16")
    for (_, vm), (_, vt) in zip(mine, theirs):
        assert vm.dtype == np.float16
        np.testing.assert_allclose(vm.astype(np.float64), vt.astype(np.float64),
                                   rtol=2e-3, atol=2e-3)
    assert mine[0][0] == theirs[0][0]


def test_mse_loss_of_mixed_dtypes_gives_each_input_its_dtype():
    for lib in (minitorch, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([0.5, 0.0], dtype=lib.float64, requires_grad=True)
        gx, gy = lib.autograd.grad(lib.nn.functional.mse_loss(x, y), (x, y), create_graph=True)
        assert (gx.dtype, gy.dtype) == (lib.float32, lib.float64)
        assert gx.grad_fn.name() == gy.grad_fn.name() == "MseLossBackwardBackward0"

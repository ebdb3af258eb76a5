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
    # ggops task: an integer index's backward is PyTorch's select_backward kernel
    # (SelectBackwardBackward0, whose backward selects again); max/min split the gradient as
    # where(tie, grad / 2, grad).masked_fill_(loses, 0) (x.flip(0) ties x on the middle row)
    "select": (lambda lib, x: x[1] ** 3, False),
    "select-negative": (lambda lib, x: x.select(-1, -2) ** 3 + x[:, 0].exp(), False),
    "maximum": (lambda lib, x: lib.maximum(x, x.flip(0)) ** 2, False),
    "minimum-broadcast": (lambda lib, x: lib.minimum(x[1:], x[0]) ** 2, False),
    # an in-place op on a view: CopySlices' backward records PyTorch's steps (CopyBackwards,
    # AsStridedBackward0, CloneBackward0, CopySlices), the op saves a clone of the view
    "inplace-on-views": (lambda lib, x: _changed_through_views(x), False),
    # cumprod with a zero: each gradient slice copied into zeros (CopySlices, as PyTorch's)
    "cumprod-a-zero": (lambda lib, x: (x * _one_zero(lib, x)).cumprod(1), True),
    # linear algebra: PyTorch's recorded formulas (solves of A^T, transposes as mT nodes)
    "inv": (lambda lib, x: lib.linalg.inv(x[:, :3]), False),
    "solve-vector": (lambda lib, x: lib.linalg.solve(x[:, :3], x[:, 3]), False),
    "det": (lambda lib, x: lib.linalg.det(x[:, 1:]), False),
    "slogdet": (lambda lib, x: lib.linalg.slogdet(x[:, :3]).logabsdet, False),
    "cross": (lambda lib, x: lib.linalg.cross(x[:, :3], x[:1, 1:]), False),
    "renorm": (lambda lib, x: x.renorm(2, 0, 1.5), False),
    "cholesky": (lambda lib, x: lib.linalg.cholesky(x @ x.mT + lib.eye(3, dtype=x.dtype)),
                 False),
    "cholesky-upper": (lambda lib, x: lib.linalg.cholesky(x @ x.mT + 1, upper=True), True),
    "qr-tall": (lambda lib, x: _flat(lib, lib.linalg.qr(x.mT)), False),
    "qr-wide": (lambda lib, x: _flat(lib, lib.linalg.qr(x)), False),
    "qr-r-only": (lambda lib, x: lib.linalg.qr(x[:, :3]).R, False),
    "svdvals": (lambda lib, x: lib.linalg.svdvals(x), False),  # through the whole SVD's node
    "nuclear-norm": (lambda lib, x: lib.linalg.matrix_norm(x, "nuc") ** 2, False),
    # a reduction over dims: its gradient is unsqueezed back (UnsqueezeBackward0), as PyTorch's
    "sum-dim": (lambda lib, x: x.sum(1) ** 2, False),
    "mean-dims": (lambda lib, x: x.unsqueeze(0).mean((0, 2)) ** 2, False),
    "amax-dim": (lambda lib, x: x.amax(0) ** 2, False),
    "lu_solve": (lambda lib, x: lib.linalg.lu_solve(*lib.linalg.lu_factor(x[:, :3]), x[:, 3:]),
                 False),
    "eigh": (lambda lib, x: _flat(lib, lib.linalg.eigh(x @ x.mT)) ** 2, False),
    # (U and V^T enter multiplied, so that their signs, which LAPACK picks, cancel)
    "svd-full": (lambda lib, x: _svd_products(lib, lib.linalg.svd(x.mT)), False),
    "svd-reduced": (lambda lib, x: _svd_products(lib, lib.linalg.svd(x, False)), False),
    "matrix_exp": (lambda lib, x: lib.linalg.matrix_exp(x[:, 1:] * 0.5), False),
    # several paths into one tensor: the nodes made in the order of PyTorch's C++ (its right
    # operands first), so the gradients are summed in its order
    "cond-nuc": (lambda lib, x: lib.linalg.cond(x[:, :3], "nuc"), False),
    "det-singular": (lambda lib, x: lib.linalg.det(lib.stack([x[0, :3], x[1, :3], x[0, :3]])),
                     False),
    "gradient-coordinates": (lambda lib, x: lib.gradient(
        x[0], spacing=(x[1].abs().cumsum(0),))[0], False),
    # gglast task: squeeze()'s recorded gradient is PyTorch's unsqueeze_to (an unsqueeze per
    # dropped dim, none when nothing was dropped; was one reshape): corrcoef's cov squeezes
    "squeeze": (lambda lib, x: (x.reshape(3, 1, 4, 1) ** 2).squeeze() ** 2, False),
    "squeeze-nothing": (lambda lib, x: (x ** 2).squeeze() ** 2, False),
    "corrcoef": (lambda lib, x: lib.corrcoef(x), False),
}


def _svd_products(lib, usv):
    u, s, vh = usv
    k = s.shape[-1]
    return _flat(lib, ((u[..., :k] * s) @ vh[..., :k, :] * 2, u[..., :k] @ vh[..., :k, :]))


def _changed_through_views(x):
    z = x * x
    z[1:].mul_(x[1:])
    z[0].add_(x[2] ** 2)
    z[:, 1] *= x[0, :3]
    v = z[2]  # a view read after its base changed (AsStridedBackward0)
    z[2, 1:] = x[1, :3]
    return z * v


def _flat(lib, tensors):
    """Several outputs (QR's Q and R) as one vector."""
    return lib.cat([t.flatten() for t in tensors])


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
                "huber_loss-sum-both", "select", "select-negative"):
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


# ---------------------------------------------------------------- ggnn task: the nn side
# Ops of several inputs: (call, input shapes, extra keyword arguments of the call); the graph
# of the gradient of each input is PyTorch's, and gradgradcheck passes.
def _colmajor(lib, x):
    """``x``'s values laid out column by column (a transposed copy, viewed back)."""
    return x.t().contiguous().t()


NN_CASES = {
    "linear": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b), [(4, 3), (5, 3), (5,)]),
    "linear-no-bias": (lambda lib, x, w: lib.nn.functional.linear(x, w), [(4, 3), (5, 3)]),
    "linear-1-d": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b), [(3,), (5, 3), (5,)]),
    "linear-3-d": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b),
                   [(2, 4, 3), (5, 3), (5,)]),
    "mm-t": (lambda lib, x, w: x.mm(w.t()), [(4, 3), (5, 3)]),
    "mm-column-major": (lambda lib, x, w: _colmajor(lib, x).mm(w), [(4, 3), (3, 5)]),
    "mv": (lambda lib, m, v: m.mv(v), [(4, 3), (3,)]),
    "matmul-vector": (lambda lib, m, v: m @ v, [(4, 3), (3,)]),
    "matmul-batch-of-one": (lambda lib, x, y: x @ y, [(1, 3, 4), (2, 4, 5)]),
    "matmul-vector-batch": (lambda lib, v, y: v @ y, [(4,), (2, 4, 3)]),
    "squeeze-dims": (lambda lib, x: x.unsqueeze(1).unsqueeze(0).squeeze((0, 2)).exp(),
                     [(3, 4)]),
    "addmm-scaled": (lambda lib, x, a, b: lib.addmm(x, a, b, beta=0.5, alpha=2.0),
                     [(4, 5), (4, 3), (3, 5)]),
    "addmm-t": (lambda lib, x, a, b: lib.addmm(x, a, b.t()), [(4, 5), (4, 3), (5, 3)]),
    "addmv-scaled": (lambda lib, x, m, v: lib.addmv(x, m, v, beta=0.5, alpha=2.0),
                     [(4,), (4, 3), (3,)]),
    "addr-scaled": (lambda lib, x, u, v: lib.addr(x, u, v, beta=0.5, alpha=2.0),
                    [(4, 3), (4,), (3,)]),
    "baddbmm-scaled": (lambda lib, x, a, b: lib.baddbmm(x, a, b, beta=0.5, alpha=2.0),
                       [(2, 4, 5), (2, 4, 3), (2, 3, 5)]),
    "addbmm-scaled": (lambda lib, x, a, b: lib.addbmm(x, a, b, beta=0.5, alpha=2.0),
                      [(4, 5), (2, 4, 3), (2, 3, 5)]),
    "conv1d": (lambda lib, x, w, b: lib.nn.functional.conv1d(x, w, b, padding=1),
               [(2, 3, 6), (4, 3, 3), (4,)]),
    "conv2d": (lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b), [(2, 3, 5, 5),
                                                                     (4, 3, 3, 3), (4,)]),
    "conv2d-groups-stride": (lambda lib, x, w, b: lib.nn.functional.conv2d(
        x, w, b, stride=2, padding=1, groups=2), [(1, 4, 5, 5), (2, 2, 3, 3), (2,)]),
    "conv2d-no-bias": (lambda lib, x, w: lib.nn.functional.conv2d(x, w, dilation=2),
                       [(1, 2, 6, 6), (3, 2, 2, 2)]),
    "conv3d": (lambda lib, x, w, b: lib.nn.functional.conv3d(x, w, b), [(1, 2, 4, 4, 4),
                                                                     (3, 2, 2, 2, 2), (3,)]),
    "conv_transpose1d": (lambda lib, x, w, b: lib.nn.functional.conv_transpose1d(
        x, w, b, stride=2, output_padding=1), [(2, 3, 4), (3, 2, 3), (2,)]),
    "conv_transpose2d": (lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(x, w, b),
                         [(2, 3, 4, 4), (3, 4, 3, 3), (4,)]),
    "conv_transpose2d-groups": (lambda lib, x, w, b: lib.nn.functional.conv_transpose2d(
        x, w, b, stride=2, padding=1, groups=2, dilation=2, output_padding=1),
        [(1, 4, 3, 3), (4, 1, 2, 2), (2,)]),
    "cross_entropy-2d": (lambda lib, x: lib.nn.functional.cross_entropy(
        x, _classes(lib, (2, 4, 4), 3)), [(2, 3, 4, 4)]),
    "cross_entropy-2d-weight-smoothing": (lambda lib, x: lib.nn.functional.cross_entropy(
        x, _classes(lib, (2, 4, 4), 3), weight=lib.tensor([0.5, 1.0, 2.0], dtype=x.dtype),
        ignore_index=1, label_smoothing=0.1), [(2, 3, 4, 4)]),
    "nll_loss-3d-image-none": (lambda lib, x: lib.nn.functional.nll_loss(
        x, _classes(lib, (2, 3, 2, 2), 4), reduction="none"), [(2, 4, 3, 2, 2)]),
    "binary_cross_entropy": (lambda lib, x: lib.nn.functional.binary_cross_entropy(
        x.sigmoid(), _probabilities(lib, (4, 3))), [(4, 3)]),
    "binary_cross_entropy-weight-none": (lambda lib, x: lib.nn.functional.binary_cross_entropy(
        x.sigmoid(), _probabilities(lib, (4, 3)), weight=_probabilities(lib, (3,)),
        reduction="none"), [(4, 3)]),
    "binary_cross_entropy-target-sum": (lambda lib, x, t: lib.nn.functional.binary_cross_entropy(
        x.sigmoid(), t.sigmoid(), weight=_probabilities(lib, (4, 3)), reduction="sum"),
        [(4, 3), (4, 3)]),
    "binary_cross_entropy-target": (lambda lib, x, t: lib.nn.functional.binary_cross_entropy(
        x.sigmoid(), t.sigmoid()), [(4, 3), (4, 3)]),
    "bce_with_logits": (lambda lib, x: lib.nn.functional.binary_cross_entropy_with_logits(
        x, _probabilities(lib, (4, 3))), [(4, 3)]),
    "bce_with_logits-weight-sum": (
        lambda lib, x: lib.nn.functional.binary_cross_entropy_with_logits(
            x, _probabilities(lib, (4, 3)), weight=_probabilities(lib, (3,)), reduction="sum"),
        [(4, 3)]),
    "bce_with_logits-pos_weight": (
        lambda lib, x, t: lib.nn.functional.binary_cross_entropy_with_logits(
            x, t.sigmoid(), pos_weight=_probabilities(lib, (3,)) + 1), [(4, 3), (4, 3)]),
    "bce_with_logits-target-none": (
        lambda lib, x, t: lib.nn.functional.binary_cross_entropy_with_logits(
            x, t.sigmoid(), weight=_probabilities(lib, (3,)), reduction="none"),
        [(4, 3), (4, 3)]),
    # in place: PyTorch's gradient reads the result (elu_, leaky_relu_, rrelu_: the edge is
    # the in-place node itself) or a clone of the input made before the change (the others)
    **{f"{name}-inplace": (lambda lib, x, f=f: f(lib.nn.functional, x * 1), [(4, 3)])
       for name, f in {
           "elu": lambda nnf, x: nnf.elu_(x),
           "elu-alpha": lambda nnf, x: nnf.elu(x, 0.5, inplace=True),
           "selu": lambda nnf, x: nnf.selu_(x),
           "celu": lambda nnf, x: nnf.celu_(x, 2.0),
           "leaky_relu": lambda nnf, x: nnf.leaky_relu_(x, 0.2),
           "rrelu-eval": lambda nnf, x: nnf.rrelu_(x, training=False),
           "hardtanh": lambda nnf, x: nnf.hardtanh_(x, -0.5, 0.5),
           "relu6": lambda nnf, x: nnf.relu6(x * 4, inplace=True),
           "hardsigmoid": lambda nnf, x: nnf.hardsigmoid(x * 4, inplace=True),
           "hardswish": lambda nnf, x: nnf.hardswish(x * 4, inplace=True),
           "threshold": lambda nnf, x: nnf.threshold_(x, 0.1, 2.0),
           "silu": lambda nnf, x: nnf.silu(x, inplace=True),
       }.items()},
    "hardsigmoid": (lambda lib, x: lib.nn.functional.hardsigmoid(x * 4), [(4, 3)]),
    "layer_norm": (lambda lib, x: lib.nn.functional.layer_norm(x, (3,)), [(4, 3)]),
    "layer_norm-affine": (lambda lib, x, w, b: lib.nn.functional.layer_norm(x, (3,), w, b),
                          [(4, 3), (3,), (3,)]),
    "layer_norm-weight-2-dims": (lambda lib, x, w: lib.nn.functional.layer_norm(x, (2, 3), w),
                                 [(4, 2, 3), (2, 3)]),
    "layer_norm-weight-of-input": (lambda lib, x: lib.nn.functional.layer_norm(
        x, (3,), x[0] * 0.5 + 1.5, x[1]), [(4, 3)]),
    "mish": (lambda lib, x: lib.nn.functional.mish(x), [(4, 3)]),
    "mish-inplace": (lambda lib, x: lib.nn.functional.mish(x * 1, inplace=True), [(4, 3)]),
    "glu": (lambda lib, x: lib.nn.functional.glu(x), [(3, 4)]),
    "glu-dim0": (lambda lib, x: lib.nn.functional.glu(x, 0), [(4, 3)]),
    # pools: the backward kernel's node has an edge for the pooled input too
    **{f"{name}": (lambda lib, x, f=f: f(lib.nn.functional, x), [shape])
       for name, (f, shape) in {
           "max_pool1d": (lambda nnf, x: nnf.max_pool1d(x, 2), (2, 3, 6)),
           "max_pool2d": (lambda nnf, x: nnf.max_pool2d(x, 2), (2, 3, 4, 4)),
           "max_pool2d-overlap": (lambda nnf, x: nnf.max_pool2d(x, 3, 1, 1), (1, 2, 4, 4)),
           "max_pool3d": (lambda nnf, x: nnf.max_pool3d(x, 2), (1, 2, 4, 4, 4)),
           "avg_pool1d": (lambda nnf, x: nnf.avg_pool1d(x, 2), (2, 3, 6)),
           "avg_pool2d": (lambda nnf, x: nnf.avg_pool2d(x, 3, 2, 1), (2, 3, 5, 5)),
           "avg_pool3d": (lambda nnf, x: nnf.avg_pool3d(x, 2), (1, 2, 4, 4, 4)),
           "adaptive_avg_pool2d": (lambda nnf, x: nnf.adaptive_avg_pool2d(x, (2, 3)),
                                   (2, 3, 5, 5)),
           "adaptive_avg_pool3d": (lambda nnf, x: nnf.adaptive_avg_pool3d(x, 2),
                                   (1, 2, 3, 3, 3)),
           "adaptive_max_pool2d": (lambda nnf, x: nnf.adaptive_max_pool2d(x, 2), (2, 3, 5, 5)),
           "adaptive_max_pool1d": (lambda nnf, x: nnf.adaptive_max_pool1d(x, 3), (2, 3, 7)),
           "interpolate-area": (lambda nnf, x: nnf.interpolate(x, size=(2, 2), mode="area"),
                                (1, 2, 5, 5)),
       }.items()},
}

# ggnorm2 task: batch norm's gradients are one node (NativeBatchNormBackwardBackward0, whose
# own backward differentiates the same formula); instance norm is batch norm of the repeated
# parameters (repeat's gradient: PyTorch's one reshape and sum)
def _running(lib, c, value):
    return lib.full((c,), value, dtype=lib.float64)


NN_CASES.update({
    "batch_norm": (lambda lib, x: lib.nn.functional.batch_norm(
        x, None, None, training=True), [(4, 3)]),
    "batch_norm-affine-running": (lambda lib, x, w, b: lib.nn.functional.batch_norm(
        x, _running(lib, 3, 0.2), _running(lib, 3, 1.5), w, b, training=True), [(4, 3), (3,),
                                                                                 (3,)]),
    "batch_norm-eval-affine": (lambda lib, x, w, b: lib.nn.functional.batch_norm(
        x, _running(lib, 3, 0.2), _running(lib, 3, 1.5), w, b), [(4, 3), (3,), (3,)]),
    "batch_norm-4-d-weight": (lambda lib, x, w: lib.nn.functional.batch_norm(
        x, None, None, w, training=True, eps=0.1), [(2, 3, 2, 2), (3,)]),
    "batch_norm-weight-of-input": (lambda lib, x: lib.nn.functional.batch_norm(
        x, None, None, x[:, 0] * 0.5 + 1.5, training=True), [(3, 3)]),
    "instance_norm-affine": (lambda lib, x, w, b: lib.nn.functional.instance_norm(
        x, weight=w, bias=b), [(2, 3, 4), (3,), (3,)]),
    "instance_norm-eval": (lambda lib, x, w: lib.nn.functional.instance_norm(
        x, _running(lib, 3, 0.2), _running(lib, 3, 1.5), w, use_input_stats=False),
        [(2, 3, 4), (3,)]),
    "repeat": (lambda lib, x: x.repeat(2, 1, 3).exp(), [(4, 3)]),
    # rms_norm: mean's and rsqrt's gradients divide / multiply by a number (div.Scalar,
    # mul.Scalar), as PyTorch's
    "rms_norm": (lambda lib, x: lib.nn.functional.rms_norm(x, (3,)), [(4, 3)]),
    "rms_norm-weight-2-dims": (lambda lib, x, w: lib.nn.functional.rms_norm(
        x, (2, 3), w, eps=0.1), [(4, 2, 3), (2, 3)]),
    "mean-exp": (lambda lib, x: x.mean().exp(), [(4, 3)]),
    "mean-dim-exp": (lambda lib, x: x.mean(1).exp(), [(4, 3)]),
    "mean-dim-keepdim-exp": (lambda lib, x: x.mean(0, keepdim=True).exp(), [(4, 3)]),
    "sum-dims-exp": (lambda lib, x: x.sum((0, 2)).exp(), [(2, 4, 3)]),
    "rsqrt-exp": (lambda lib, x: (x * x + 0.5).rsqrt().exp(), [(4, 3)]),
    "repeat-ones": (lambda lib, x: x.repeat(1, 1).exp(), [(4, 3)]),
})

# gglast task: linear's bias gradient is PyTorch's sum_to (SumBackward1 under ViewBackward0
# when recorded), down to the bias's own shape, whatever shape it broadcasts from
NN_CASES.update({
    "linear-tanh": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b).tanh(),
                    [(4, 3), (5, 3), (5,)]),
    "linear-bias-2-d": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b).tanh(),
                        [(4, 3), (5, 3), (4, 5)]),
    "linear-bias-column": (lambda lib, x, w, b: lib.nn.functional.linear(x, w, b).tanh(),
                           [(4, 3), (5, 3), (4, 1)]),
    "rnn_tanh_cell": (lambda lib, x, h, wi, wh, bi, bh: lib.rnn_tanh_cell(x, h, wi, wh, bi, bh),
                      [(4, 3), (4, 5), (5, 3), (5, 5), (5,), (5,)]),
    # gru_cell multiplies in place as PyTorch's: r's and z's gradients read saved clones
    "gru_cell": (lambda lib, x, h, wi, wh, bi, bh: lib.gru_cell(x, h, wi, wh, bi, bh),
                 [(4, 3), (4, 2), (6, 3), (6, 2), (6,), (6,)]),
    "gru_cell-no-bias": (lambda lib, x, h, wi, wh: lib.gru_cell(x, h, wi, wh),
                         [(3, 3), (3, 2), (6, 3), (6, 2)]),
})

# gridsample task: grid_sample's gradients are one node, PyTorch's grid_sampler_2d_backward /
# grid_sampler_3d_backward (GridSampler2DBackwardBackward0: edges the output gradient, the
# input, the grid), whose own backward differentiates the same formula
def _grid_sample(lib, x, g, **kw):
    return lib.nn.functional.grid_sample(x, g, align_corners=False, **kw)


NN_CASES.update({
    "grid_sample": (lambda lib, x, g: _grid_sample(lib, x, g), [(2, 3, 4, 5), (2, 3, 2, 2)]),
    "grid_sample-bicubic": (lambda lib, x, g: _grid_sample(
        lib, x, g, mode="bicubic"), [(1, 2, 4, 4), (1, 2, 3, 2)]),
    "grid_sample-nearest": (lambda lib, x, g: _grid_sample(lib, x, g, mode="nearest"),
                            [(2, 3, 4, 5), (2, 3, 2, 2)]),
    "grid_sample-grid-only": (lambda lib, g: _grid_sample(
        lib, _probabilities(lib, (2, 2, 3, 4)), g, padding_mode="border"), [(2, 3, 2, 2)]),
    "grid_sample-input-only": (lambda lib, x: _grid_sample(
        lib, x, _probabilities(lib, (2, 3, 2, 2)) * 2 - 1), [(2, 2, 3, 4)]),
    "grid_sample-3-d": (lambda lib, x, g: _grid_sample(lib, x, g), [(1, 2, 3, 4, 3),
                                                                     (1, 2, 2, 2, 3)]),
    "grid_sample-3-d-weighted": (lambda lib, x, g: _grid_sample(lib, x * 2.0, g).exp(),
                                 [(1, 2, 3, 2, 3), (1, 2, 1, 2, 3)]),
})


def test_repeat_zero_times_has_a_constant_gradient():
    """A repeat of 0 copies: PyTorch's gradient is zeros, recorded as no graph at all."""
    for lib in (minitorch, torch):
        x = lib.ones(4, 3, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(x.repeat(0, 2).exp().sum(), x, create_graph=True)
        assert g.grad_fn is None and not g.requires_grad
        assert g.shape == (4, 3) and not g.detach().numpy().any()

# PyTorch has no second derivative of hardsigmoid (its backward's node is NotImplemented)
_NO_GRADGRAD = {"hardsigmoid", "hardsigmoid-inplace"}


def _probabilities(lib, shape):
    """Fixed numbers in (0, 1) of ``shape``: targets, weights."""
    return lib.tensor(np.random.default_rng(3).uniform(0.05, 0.95, shape), dtype=lib.float64)


def _classes(lib, shape, c):
    """Fixed class targets of ``shape`` in ``range(c)``."""
    return lib.tensor(np.random.default_rng(2).integers(0, c, shape))


def _nn_inputs(lib, name):
    shapes = NN_CASES[name][1]
    return [lib.tensor(np.random.default_rng(i).standard_normal(s), dtype=lib.float64,
                       requires_grad=True) for i, s in enumerate(shapes)]


def _nn_grads(lib, name):
    fn = NN_CASES[name][0]
    xs = _nn_inputs(lib, name)
    y = fn(lib, *xs)
    w = lib.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)), dtype=y.dtype)
    return lib.autograd.grad((y * w).sum(), xs, create_graph=True)


# values and derivatives only: ``x[0]``'s gradient records SliceBackwardBackward0 where PyTorch
# records SelectBackwardBackward0 (indexing, outside the nn ops)
_VALUES_ONLY = {"layer_norm-weight-of-input", "batch_norm-weight-of-input"}


@pytest.mark.parametrize("name", sorted(set(NN_CASES) - _VALUES_ONLY))
def test_nn_gradient_graphs_are_torchs(name):
    mine, theirs = _nn_grads(minitorch, name), _nn_grads(torch, name)
    for i, (gm, gt) in enumerate(zip(mine, theirs)):
        assert graph_lines(gm.grad_fn) == graph_lines(gt.grad_fn), f"input {i}"
        np.testing.assert_allclose(gm.detach().numpy(), gt.detach().numpy(), rtol=1e-10)


# (left out: _NO_GRADGRAD, whose backward PyTorch does not differentiate, nor minitorch)
@pytest.mark.parametrize("name", sorted(set(NN_CASES) - _NO_GRADGRAD))
def test_nn_second_derivatives_by_finite_differences(name):
    fn = NN_CASES[name][0]
    assert minitorch.autograd.gradgradcheck(lambda *t: fn(minitorch, *t),
                                            tuple(_nn_inputs(minitorch, name)))


@pytest.mark.parametrize("name", sorted(NN_CASES))
def test_nn_second_derivatives_are_torchs(name):
    """The derivatives of the gradients (their own backward) are PyTorch's values."""
    if name in _NO_GRADGRAD:
        for lib in (minitorch, torch):
            with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward"):
                (g,) = _nn_grads(lib, name)
                g.sum().backward()
        return
    def second(lib):
        xs = _nn_inputs(lib, name)
        y = NN_CASES[name][0](lib, *xs)
        w = lib.tensor(np.linspace(0.5, 1.5, y.numel()).reshape(tuple(y.shape)), dtype=y.dtype)
        gs = lib.autograd.grad((y * w).sum(), xs, create_graph=True)
        total = sum((g * lib.tensor(np.linspace(-1, 2, g.numel()).reshape(tuple(g.shape)),
                                    dtype=g.dtype)).sum() for g in gs)
        return [np.zeros(tuple(x.shape)) if g is None else g.detach().numpy()
                for x, g in zip(xs, lib.autograd.grad(total, xs, allow_unused=True))]
    for mine, theirs in zip(second(minitorch), second(torch)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", ["glu", "glu-dim0", "bce_with_logits-pos_weight"])
def test_nn_second_gradient_graphs_are_torchs(name):
    """The graph of the second gradient (the backward's own backward, recorded) is PyTorch's."""
    def second(lib):
        xs = _nn_inputs(lib, name)
        (g,) = lib.autograd.grad(NN_CASES[name][0](lib, *xs).sum(), xs[:1], create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), xs[:1], create_graph=True)
        return graph_lines(gg.grad_fn)
    assert second(minitorch) == second(torch)


def test_mish_float16_gradient_graph_is_torchs():
    """Recorded, PyTorch's mish gradient is its formula step by step in float16 (no casts)."""
    def grad(lib):
        x = lib.tensor([-2.0, 0.5, 3.0], dtype=lib.float16, requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.mish(x).sum(), x, create_graph=True)
        return graph_lines(g.grad_fn), g.detach().numpy()
    (mine, vm), (theirs, vt) = grad(minitorch), grad(torch)
    assert mine == theirs
    np.testing.assert_allclose(vm.astype(float), vt.astype(float), rtol=2e-3)


# ggops task: prod's gradient of src where two of its zeros meet is PyTorch's DelayedError
@pytest.mark.parametrize("name", ["scatter_reduce", "index_reduce"])
def test_prod_past_two_zeros_records_an_error_node(name):
    """The gradient is recorded behind ``torch::autograd::Error``, whose backward raises
    PyTorch's message; with one zero in a place, the gradient is differentiable."""
    import warnings

    def grads(lib, src):
        s = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        src = lib.tensor(src, dtype=lib.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (index_reduce is in beta: PyTorch warns)
            y = getattr(s, name)(0, lib.tensor([0, 0, 1]), src, "prod")
        g = lib.autograd.grad((y * lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64)).sum(),
                              [s, src], create_graph=True)
        try:
            second = lib.autograd.grad(g[1].sum(), src)[0].detach().numpy()
        except RuntimeError as e:
            second = str(e)
        return graph_lines(g[1].grad_fn), g[1].detach().numpy(), second

    for src in ([0.0, 0.0, 2.0], [0.0, 5.0, 2.0]):
        (gm, vm, sm), (gt, vt, st) = grads(minitorch, src), grads(torch, src)
        assert gm == gt
        np.testing.assert_allclose(vm, vt)
        if isinstance(st, str):
            assert sm == st
        else:
            np.testing.assert_allclose(sm, st)


# gglast task: PyTorch's autograd-not-implemented fallback gives a NotImplemented node an edge
# for each tensor argument that requires grad only (no empty edge for a constant gradient)
_NOT_IMPLEMENTED_LOSSES = {
    "multi_margin_loss": (lambda lib, x, w: lib.nn.functional.multi_margin_loss(
        x, lib.tensor([0, 2, 1, 2]), p=2) * w, (4, 3)),
    "multilabel_margin_loss": (lambda lib, x, w: lib.nn.functional.multilabel_margin_loss(
        x, lib.tensor([[2, -1, 0], [0, 1, -1], [1, -1, 2], [2, 0, 1]]), reduction="sum") * w,
        (4, 3)),
    "ctc_loss": (lambda lib, x, w: lib.nn.functional.ctc_loss(
        x.log_softmax(2), lib.tensor([[1, 2], [2, 2]]), [5, 4], [2, 2]) * w, (5, 2, 3)),
}


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", sorted(_NOT_IMPLEMENTED_LOSSES))
def test_not_implemented_nodes_have_edges_only_for_inputs_that_require_grad(name, weighted):
    """The gradient's graph and values are PyTorch's, with the incoming gradient as a constant
    (no edge) or, scaled by a weight that requires grad, recorded (an edge); differentiating
    the gradient again raises PyTorch's error, as there."""
    fn, shape = _NOT_IMPLEMENTED_LOSSES[name]

    def grad(lib):
        x = lib.tensor(np.random.default_rng(0).standard_normal(shape), dtype=lib.float64,
                       requires_grad=True)
        w = lib.tensor(1.5, dtype=lib.float64, requires_grad=weighted)
        (g,) = lib.autograd.grad(fn(lib, x * 1, w), x, create_graph=True)
        with pytest.raises(RuntimeError) as error:
            g.sum().backward()
        return graph_lines(g.grad_fn), g.detach().numpy(), str(error.value)

    (gm, vm, em), (gt, vt, et) = grad(minitorch), grad(torch)
    assert gm == gt
    np.testing.assert_allclose(vm, vt, rtol=1e-10, atol=1e-12)
    assert em == et

"""Issue 26's tensor API against PyTorch, beyond the OpInfo table (``tests/test_opinfo.py``
compares every family of inputs and runs gradcheck on the ordinary one): node names, the
``torch.return_types`` reprs, Hypothesis shapes, second derivatives, in-place forms, strides
and the random streams of ``bernoulli_``/``random_``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from _oracle import assert_same_values, graph_signature
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _pair(arr, requires_grad=True):
    a = np.array(arr)
    mt = minitorch.tensor(a, requires_grad=requires_grad)
    th = torch.tensor(a, requires_grad=requires_grad)
    return mt, th


def _both(fn, *arrays, grad=True):
    """``fn(lib, *tensors)`` with both libraries; returns (mine, theirs, my leaves, theirs)."""
    mt = [minitorch.tensor(np.array(a), requires_grad=grad and np.array(a).dtype.kind == "f")
          for a in arrays]
    th = [torch.tensor(np.array(a), requires_grad=grad and np.array(a).dtype.kind == "f")
          for a in arrays]
    return fn(minitorch, *mt), fn(torch, *th), mt, th


X = np.array([[3.0, -1.0, 2.0, 0.5], [0.0, 4.0, -2.0, 1.5], [1.0, 1.0, -3.0, 2.0]], np.float32)

NODE_CASES = {
    "sort": lambda t, x: x.sort(1).values,
    "topk": lambda t, x: x.topk(2).values,
    "median": lambda t, x: x.median(),
    "median-dim": lambda t, x: x.median(1).values,
    "cumsum": lambda t, x: x.cumsum(1),
    "cumprod": lambda t, x: x.cumprod(0),
    "logsumexp": lambda t, x: x.logsumexp(1),
    "tril": lambda t, x: x.tril(),
    "triu": lambda t, x: t.triu(x, 1),
    "scatter": lambda t, x: x.scatter(1, t.tensor([[0], [1], [2]]), x[:, :1]),
    "scatter-value": lambda t, x: x.scatter(1, t.tensor([[0], [1], [2]]), 1.5),
    "scatter_add": lambda t, x: x.scatter_add(1, t.tensor([[0], [1], [2]]), x[:, :1]),
    "masked_select": lambda t, x: x.masked_select(x > 0),
    "round": lambda t, x: x.round(),
    "round-decimals": lambda t, x: x.round(decimals=1),
    "einsum-matmul": lambda t, x: t.einsum("ij,kj->ik", x, x),
    "einsum-sum": lambda t, x: t.einsum("ij->j", x),
    "einsum-mul": lambda t, x: t.einsum("ij,ij->ij", x, x),
    "einsum-permute": lambda t, x: t.einsum("ij->ji", x),
}


@pytest.mark.parametrize("case", sorted(NODE_CASES))
def test_graph_nodes_are_pytorchs(case):
    mine, ref, _, _ = _both(NODE_CASES[case], X)
    assert type(mine.grad_fn).__name__ == type(ref.grad_fn).__name__
    assert_same_values(mine, ref)
    if case in ("sort", "cumsum", "tril", "round", "masked_select"):
        assert graph_signature(mine) == graph_signature(ref)


@pytest.mark.parametrize("name", ["sort", "topk", "median"])
def test_return_types_print_as_pytorchs(name):
    def call(t, x):
        return {"sort": x.sort(descending=True), "topk": x.topk(2, dim=0),
                "median": x.median(1, keepdim=True)}[name]

    mine, ref, _, _ = _both(call, X, grad=False)
    assert repr(mine) == repr(ref)
    assert mine._fields == ref._fields if hasattr(ref, "_fields") else True
    values, indices = mine
    assert values is mine.values and indices is mine.indices


def test_argsort_and_nonzero_are_integers_without_history():
    mine, ref, _, _ = _both(lambda t, x: (x.argsort(1), x.nonzero(), x.bincount()
                                          if x.dtype == t.int64 else None), X)
    for a, b in zip(mine[:2], ref[:2]):
        assert a.grad_fn is None and not a.requires_grad
        assert_same_values(a, b)


@settings(max_examples=30, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), st.data())
def test_sort_cumsum_logsumexp_any_shape(shape, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    desc = data.draw(st.booleans())
    arr = np.random.default_rng(len(shape) * 7 + dim).integers(-3, 4, shape).astype(np.float32)

    def call(t, x):
        return (x.sort(dim, descending=desc).values * 1.5).sum() + x.cumsum(dim).pow(2).sum() \
            + x.logsumexp(dim).sum() + x.cumprod(dim).sum()

    mine, ref, (m,), (r,) = _both(call, arr)
    assert_same_values(mine, ref)
    mine.backward()
    ref.backward()
    assert_same_values(m.grad, r.grad)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.integers(1, 3))
def test_einsum_contractions_any_size(i, j, k, b):
    rng = np.random.default_rng(i * 100 + j * 10 + k)
    x, y = rng.standard_normal((b, i, j)), rng.standard_normal((b, j, k))
    for eq in ("bij,bjk->bik", "bij,bjk->ik", "bij,bjk->", "bij,bjk->bkji", "bij,bkj->bik"
               if j == k else "bij,bjk->jb"):
        mine, ref, ms, rs = _both(lambda t, p, q, eq=eq: t.einsum(eq, p, q), x, y)
        assert_same_values(mine, ref, rtol=1e-9, atol=1e-12)
        mine.sum().backward()
        ref.sum().backward()
        for m, r in zip(ms, rs):
            assert_same_values(m.grad, r.grad, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("arr", [[2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 0.0, 5.0], [1.5, -2.0, 0.5],
                                 [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]], ids=str)
def test_cumprod_with_zeros_first_and_second_derivatives(arr):
    x = minitorch.tensor(arr, dtype=minitorch.float64, requires_grad=True)
    assert minitorch.autograd.gradcheck(lambda t: t.cumprod(-1), (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: t.cumprod(-1), (x,))
    # and the same numbers as PyTorch, in a plain backward and through create_graph
    mine, ref, (m,), (r,) = _both(lambda t, v: v.cumprod(-1), np.array(arr))
    w = np.linspace(0.5, 2.0, np.array(arr).size).reshape(np.array(arr).shape)
    (gm,) = minitorch.autograd.grad(mine, m, minitorch.tensor(w), create_graph=True)
    (gr,) = torch.autograd.grad(ref, r, torch.tensor(w), create_graph=True)
    assert_same_values(gm, gr, rtol=1e-12, atol=1e-12)
    (ggm,) = minitorch.autograd.grad(gm.pow(2).sum(), m)
    (ggr,) = torch.autograd.grad(gr.pow(2).sum(), r)
    assert_same_values(ggm, ggr, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fn", ["sort", "topk", "median", "logsumexp", "scatter", "tril",
                                "masked_select", "einsum"])
def test_gradgradcheck(fn):
    f = {
        "sort": lambda x: x.sort(0).values * x,
        "topk": lambda x: x.topk(2).values.pow(2),
        "median": lambda x: x.median(1).values * x.sum(),
        "logsumexp": lambda x: x.logsumexp(1),
        "scatter": lambda x: x.scatter(1, minitorch.tensor([[1], [0], [2]]), x[:, 2:] ** 2),
        "tril": lambda x: x.tril(-1) * x,
        "masked_select": lambda x: x.masked_select(minitorch.tensor([True, False, True,
                                                                     False])) ** 2,
        "einsum": lambda x: minitorch.einsum("ij,kj->ik", x, x),
    }[fn]
    distinct = np.random.default_rng(3).permutation(12).reshape(3, 4) / 4.0 - 1.0  # no ties
    x = minitorch.tensor(distinct, requires_grad=True)
    assert minitorch.autograd.gradcheck(f, (x,))
    assert minitorch.autograd.gradgradcheck(f, (x,))


def test_inplace_forms_rewrite_history_like_pytorch():
    def call(t, x):
        y = x * 1.0
        y.tril_(1)
        y.scatter_(1, t.tensor([[0], [3], [1]]), 9.0)
        y.scatter_add_(0, t.tensor([[2, 0, 1, 1]]), x[:1] * 2)
        y.round_()
        return y, y.grad_fn.name(), y._version

    mine, ref, (m,), (r,) = _both(call, X)
    assert mine[1:] == ref[1:]
    assert_same_values(mine[0], ref[0])
    mine[0].sum().backward()
    ref[0].sum().backward()
    assert_same_values(m.grad, r.grad)


@pytest.mark.parametrize("view", ["contiguous", "t", "expand", "unsqueeze", "step", "permute",
                                  "reshape", "none-index", "narrow"])
def test_stride_of_views(view):
    def call(t):
        x = t.arange(24.0).reshape(2, 3, 4)
        return {"contiguous": x, "t": x[0].t(), "expand": x[:, :1].expand(2, 5, 4),
                "unsqueeze": x.unsqueeze(2), "step": x[:, ::2], "permute": x.permute(2, 0, 1),
                "reshape": x.reshape(6, 4), "none-index": x[:, None],
                "narrow": x[:, 1:, 1:3]}[view].stride()

    assert call(minitorch) == call(torch)


@pytest.mark.parametrize("op", ["relu", "exp", "neg", "sigmoid", "mul2", "clamp"])
@pytest.mark.parametrize("view", ["t", "permute", "step", "narrow", "expand", "contiguous"])
def test_elementwise_results_keep_the_inputs_layout(op, view):
    """An elementwise op on a transposed or sliced tensor gives PyTorch's strides: a
    transposed result for a transposed input, a dense one for a sliced input."""
    def call(t):
        x = t.arange(-12.0, 12.0).reshape(2, 3, 4)
        v = {"t": x[0].t(), "permute": x.permute(2, 0, 1), "step": x[:, ::2],
             "narrow": x[:, 1:, 1:3], "expand": x[:, :1].expand(2, 5, 4), "contiguous": x}[view]
        out = {"relu": v.relu, "exp": v.exp, "neg": v.neg, "sigmoid": v.sigmoid,
               "mul2": lambda: v * 2, "clamp": lambda: v.clamp(min=0)}[op]()
        return out.stride(), out.is_contiguous()

    assert call(minitorch) == call(torch)


def test_new_tensors_keep_dtype_and_take_overrides():
    for dtype in ("float16", "int32", "bool"):
        mt = minitorch.ones(2, dtype=getattr(minitorch, dtype))
        th = torch.ones(2, dtype=getattr(torch, dtype))
        for call in (lambda x: x.new_zeros(2, 3), lambda x: x.new_ones((3,)),
                     lambda x: x.new_full((2,), 1), lambda x: x.new_empty(4).shape):
            a, b = call(mt), call(th)
            if isinstance(b, torch.Size):
                assert tuple(a) == tuple(b)
            else:
                assert_same_values(a, b)
    z = minitorch.ones(2).new_zeros(3, dtype=minitorch.float64, requires_grad=True)
    assert z.dtype == minitorch.float64 and z.requires_grad and z.is_leaf


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 1])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "uint8",
                                   "int8", "int16", "bool"])
def test_random_fills_draw_pytorchs_numbers(seed, dtype):
    def draw(t):
        d = getattr(t, dtype)
        out = [t.empty(17, dtype=d).random_(), t.empty(5, dtype=d).random_(2),
               t.empty(3, 2, dtype=d).bernoulli_(0.3),
               t.empty(4, dtype=d).bernoulli_(t.tensor([0.1, 0.5, 0.9, 1.0])),
               t.empty(3, dtype=d).bernoulli_()]
        if dtype != "bool":
            out += [t.empty(6, dtype=d).random_(1, 9), t.empty(2, dtype=d).random_(100, None)]
        if dtype in ("float32", "float64", "int64"):
            out.append(t.empty(4, dtype=d).random_(-2**40, 2**40))
        return out

    minitorch.manual_seed(seed)
    torch.manual_seed(seed)
    for a, b in zip(draw(minitorch), draw(torch)):
        assert a.dtype == getattr(minitorch, str(b.dtype).split(".")[1])
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_random_fills_errors_and_history_are_pytorchs():
    cases = [lambda t: t.empty(2).bernoulli_(1.5), lambda t: t.empty(2).random_(5, 3),
             lambda t: t.empty(2, dtype=t.uint8).random_(0, 300),
             lambda t: t.empty(2, dtype=t.uint8).random_(-1, 3),
             lambda t: t.ones(2, requires_grad=True).bernoulli_(),
             lambda t: t.empty(2).bernoulli_(t.tensor([1.5, 0.0]))]
    for case in cases:
        with pytest.raises(Exception) as ours:
            case(minitorch)
        with pytest.raises(Exception) as theirs:
            case(torch)
        assert type(ours.value).__name__ == type(theirs.value).__name__
        assert str(ours.value) == str(theirs.value)
    for name, call in [("bernoulli", lambda x: x.bernoulli_(0.5)),
                       ("bernoulli-tensor", lambda x: x.bernoulli_(x.detach() * 0 + 0.5)),
                       ("random", lambda x: x.random_()), ("random-to", lambda x: x.random_(3)),
                       ("random-from-to", lambda x: x.random_(1, 3))]:
        mine, ref, (m,), (r,) = _both(lambda t, v, call=call: call(v * 2), [1.0, 2.0])
        assert mine.grad_fn.name() == ref.grad_fn.name(), name
        mine.sum().backward()
        ref.sum().backward()
        assert_same_values(m.grad, r.grad)


def test_isclose_allclose_match_torch_on_the_edges():
    a = np.array([1.0, np.inf, -np.inf, np.nan, 0.0, 1e-9], np.float32)
    b = np.array([1.0 + 1e-6, np.inf, np.inf, np.nan, 1e-9, 0.0], np.float32)
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 0.0}, {"atol": 1e-8, "rtol": 0}):
        mine, ref, _, _ = _both(lambda t, x, y, kw=kw: t.isclose(x, y, **kw), a, b, grad=False)
        assert_same_values(mine, ref)
        assert minitorch.allclose(minitorch.tensor(a), minitorch.tensor(b), **kw) == \
            torch.allclose(torch.tensor(a), torch.tensor(b), **kw)


@pytest.mark.parametrize("high", [2**27, 2**28 - 1, 2**28, 2**31, 2**40])
@pytest.mark.parametrize("dtype", ["int64", "int32", "float32", "float64"])
def test_randint_large_ranges_draw_pytorchs_numbers(high, dtype):
    """A range of 2**28 or more takes 64-bit draws; a float dtype first moves its bounds to
    numbers it holds (PyTorch's update_from/update_to)."""
    if dtype == "int32" and high > 2**31:
        return
    minitorch.manual_seed(5)
    torch.manual_seed(5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns that float32 cannot hold them all
        a = minitorch.randint(-3, high, (6,), dtype=getattr(minitorch, dtype))
        b = torch.randint(-3, high, (6,), dtype=getattr(torch, dtype))
    np.testing.assert_array_equal(a.numpy(), b.numpy())



# --------------------------------------------------------------------------- linalg
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 5), (1, 1), (5, 1)], ids=str)
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs_and_matches_torch_up_to_signs(shape, full_matrices):
    arr = np.random.default_rng(sum(shape)).standard_normal(shape)
    u, s, vh = minitorch.linalg.svd(minitorch.tensor(arr), full_matrices=full_matrices)
    ut, st_, vht = torch.linalg.svd(torch.tensor(arr), full_matrices=full_matrices)
    assert u.shape == ut.shape and s.shape == st_.shape and vh.shape == vht.shape
    np.testing.assert_allclose(s.numpy(), st_.numpy(), rtol=1e-12, atol=1e-12)
    k = s.shape[-1]
    recon = (u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :]
    np.testing.assert_allclose(recon.numpy(), arr, atol=1e-12)
    for q, dim in ((u, -1), (vh, -2)):  # orthonormal columns of U, rows of Vh
        gram = q.mT @ q if dim == -1 else q @ q.mT
        np.testing.assert_allclose(gram.numpy(), np.broadcast_to(np.eye(gram.shape[-1]),
                                                                  gram.shape), atol=1e-12)
    # each singular vector equals PyTorch's up to its sign (U's column and Vh's row together)
    signs = np.sign((u[..., :k].numpy() * ut[..., :k].numpy()).sum(-2))
    np.testing.assert_allclose(u[..., :k].numpy() * signs[..., None, :], ut[..., :k].numpy(),
                               atol=1e-10)
    np.testing.assert_allclose(vh[..., :k, :].numpy() * signs[..., :, None],
                               vht[..., :k, :].numpy(), atol=1e-10)


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)], ids=str)
def test_svd_gradients_by_finite_differences(shape):
    arr = np.random.default_rng(4).standard_normal(shape)
    x = minitorch.tensor(arr, requires_grad=True)

    def parts(a):
        u, s, vh = minitorch.linalg.svd(a, full_matrices=False)
        return u * u.sum(-2, keepdim=True), s, vh * vh.sum(-1, keepdim=True)  # sign-free

    def used(a):
        u, s, vh = minitorch.linalg.svd(a, full_matrices=False)
        return ((u @ u.mT) * (a @ a.mT)).sum() + s.pow(3).sum() + (a @ vh.mT @ vh).sum()

    assert minitorch.autograd.gradcheck(parts, (x,))
    assert minitorch.autograd.gradcheck(used, (x,))
    assert minitorch.autograd.gradgradcheck(used, (x,))
    # only S used: the gradient is U diag(gS) Vh, finite also for equal singular values
    eye = minitorch.eye(3, dtype=minitorch.float64, requires_grad=True)
    minitorch.linalg.svd(eye).S.sum().backward()
    np.testing.assert_allclose(eye.grad.numpy(), np.eye(3), atol=1e-12)


def test_cross_and_linalg_matmul_and_sin_match_torch():
    a = np.random.default_rng(0).standard_normal((2, 1, 3))
    b = np.random.default_rng(1).standard_normal((4, 3))[None]

    def call(t, x, y):
        return t.linalg.cross(x, y) * t.linalg.matmul(x, y.mT).sum(-1, keepdim=True)

    mine, ref, ms, rs = _both(call, a, b)
    assert mine.grad_fn.name() == ref.grad_fn.name() == "MulBackward0"
    assert_same_values(mine, ref, rtol=1e-12, atol=1e-12)
    mine.sum().backward()
    ref.sum().backward()
    for m, r in zip(ms, rs):
        assert_same_values(m.grad, r.grad, rtol=1e-12, atol=1e-12)
    c = minitorch.linalg.cross(*(minitorch.tensor(v) for v in (a, b)))
    assert c.grad_fn is None
    x = minitorch.tensor([0.5, 1.0])
    assert minitorch.sin_(x) is x
    np.testing.assert_allclose(x.numpy(), np.sin([0.5, 1.0]).astype(np.float32))


@pytest.mark.parametrize("module", ["ops.sorting", "ops.scan", "ops.scatter", "ops.einsum",
                                    "ops.compare", "ops.rounding", "ops.triangular",
                                    "ops.sampling", "linalg", "return_types"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"minitorch.{module}"),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0

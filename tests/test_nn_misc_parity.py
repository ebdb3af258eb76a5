"""``F.interpolate``'s modes ``bicubic`` and ``area``, ``nn.Upsample(mode="bicubic")``, and
``F.embedding``'s ``max_norm``, ``scale_grad_by_freq`` and ``sparse`` against PyTorch: values,
gradients (and finite differences in float64), node names, in-place renormalisation and errors.
The op table (tests/_opinfo_samples_nn_misc.py) covers the input families."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
from _oracle import assert_same_values

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _node(lib, t):
    if t.grad_fn is None:
        return None
    return type(t.grad_fn).__name__ if lib is minitorch else t.grad_fn.name()


def _outcome(lib, x, kw, grad=True):
    """``interpolate(x, **kw)``'s (output, input gradient, node name), or the exception."""
    xt = lib.tensor(x, requires_grad=grad and x.dtype.kind == "f")
    try:
        y = lib.nn.functional.interpolate(xt, **kw)
    except Exception as e:
        return type(e).__name__, str(e)
    if not xt.requires_grad:
        return y, None, None
    w = np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(x.dtype)
    try:
        y.backward(lib.tensor(w))
    except Exception as e:
        return "backward", type(e).__name__, str(e)
    return y, xt.grad, _node(lib, y)


def _assert_same(x, kw, **tol):
    mine, ref = _outcome(minitorch, x, kw), _outcome(torch, x, kw)
    if isinstance(ref[0], str) or isinstance(mine[0], str):
        assert mine == ref
        return
    assert mine[2] == ref[2]
    assert_same_values(mine[0], ref[0], **tol)
    assert_same_values(mine[1], ref[1], **tol)


# ------------------------------------------------------------------ bicubic
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bicubic_sweep_of_sizes_and_scales(align, dtype):
    """Every input size from 1 to 6 by 1, 2, 5 against up, down and unchanged sizes: the
    four taps clamped at the borders, the points left of the first pixel (not clamped, unlike
    bilinear), the gradient's copy where no size changes."""
    rng = np.random.default_rng(3)
    for h in range(1, 7):
        for w in (1, 2, 5):
            x = rng.standard_normal((2, 2, h, w)).astype(dtype)
            kws = [{"scale_factor": sf} for sf in (0.5, 0.75, 1.0, 1.2, 1.5, 2.0, 2.6,
                                                   (1.25, 1.6), (0.9, 3.0))]
            kws += [{"size": s} for s in [(1, 1), (3, 7), (8, 2), (h, w)]]
            kws += [{"scale_factor": 1.7, "recompute_scale_factor": True}]
            for kw in kws:
                _assert_same(x, {"mode": "bicubic", "align_corners": align, **kw},
                             rtol=1e-5, atol=1e-5)


def test_bicubic_float16_and_special_values():
    x16 = np.random.default_rng(0).standard_normal((1, 2, 4, 3)).astype(np.float16)
    _assert_same(x16, {"mode": "bicubic", "scale_factor": 1.5}, rtol=1e-2, atol=1e-2)
    special = np.array([[[[1.0, np.inf, 3.0], [4.0, np.nan, 6.0], [7.0, 8.0, -np.inf]]]],
                       np.float32)
    for kw in ({"scale_factor": 2}, {"size": (3, 3)}, {"size": (2, 5), "align_corners": True}):
        _assert_same(special, {"mode": "bicubic", **kw})


def test_bicubic_known_values():
    """A ramp is reproduced where the 4 taps are inside; the borders overshoot as PyTorch's
    (Keys' kernel with A = -0.75, the taps clamped to the edge)."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 1, 4)
    y = minitorch.nn.functional.interpolate(minitorch.tensor(x), size=(1, 8), mode="bicubic")
    ref = torch.nn.functional.interpolate(torch.tensor(x), size=(1, 8), mode="bicubic")
    assert_same_values(y, ref, rtol=1e-6, atol=1e-6)
    assert y.grad_fn is None


@pytest.mark.parametrize("kw", [{"scale_factor": 1.7}, {"size": (5, 2), "align_corners": True},
                                {"scale_factor": 0.6}])
def test_bicubic_gradcheck_float64(kw):
    x = minitorch.tensor(np.random.default_rng(1).standard_normal((1, 2, 3, 4)),
                         requires_grad=True)
    f = lambda t: minitorch.nn.functional.interpolate(t, mode="bicubic", **kw)  # noqa: E731
    assert minitorch.autograd.gradcheck(f, (x,))
    assert minitorch.autograd.gradgradcheck(f, (x,))


def test_bicubic_double_backward_node_names_match_torch():
    names = []
    for lib in (minitorch, torch):
        x = lib.tensor(np.linspace(-1, 1, 12).reshape(1, 1, 3, 4), requires_grad=True)
        y = lib.nn.functional.interpolate(x, scale_factor=1.5, mode="bicubic")
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        g.sum().backward()
        names.append((_node(lib, y), x.grad.numpy().round(6).tolist()))
    assert names[0] == names[1]


# ------------------------------------------------------------------ area
@pytest.mark.parametrize("shape,kw", [
    ((2, 3, 5, 7), {"size": (3, 4)}), ((2, 3, 5, 7), {"scale_factor": 0.5}),
    ((2, 3, 5, 7), {"scale_factor": (0.7, 1.3)}), ((2, 3, 5, 7), {"size": (1, 1)}),
    ((2, 3, 5, 7), {"size": (9, 10)}), ((3, 5, 7), {"size": 3}), ((3, 5, 7), {"scale_factor": 0.6}),
    ((2, 3, 5, 7), {"size": (0, 3)}), ((0, 3, 4, 4), {"size": 3}), ((1, 0, 4, 4), {"size": 3}),
    ((1, 3, 0, 4), {"size": 3}), ((3, 0), {"size": 2}), ((2, 3, 5, 7), {"size": 2,
                                                                         "align_corners": True}),
])
def test_area_is_adaptive_average_pooling(shape, kw):
    x = np.random.default_rng(2).standard_normal(shape).astype(np.float32)
    _assert_same(x, {"mode": "area", **kw})


def test_area_float64_int_and_gradcheck():
    x64 = np.random.default_rng(4).standard_normal((1, 2, 5, 6))
    _assert_same(x64, {"mode": "area", "size": (2, 4)})
    _assert_same(x64.astype(np.int64), {"mode": "area", "size": 2})
    x = minitorch.tensor(x64, requires_grad=True)
    f = lambda t: minitorch.nn.functional.interpolate(t, size=(3, 4), mode="area")  # noqa: E731
    assert minitorch.autograd.gradcheck(f, (x,))
    assert minitorch.autograd.gradgradcheck(f, (x,))


# ------------------------------------------------------------------ checks, in torch's order
X4 = np.random.default_rng(5).standard_normal((2, 3, 5, 7)).astype(np.float32)


@pytest.mark.parametrize("x,kw", [
    (X4, {"size": 3, "mode": "nearest", "antialias": True}),
    (X4[0], {"size": 3, "mode": "bilinear", "antialias": True}),
    (X4, {"size": 3, "mode": "lanczos"}), (X4, {"size": 3, "mode": "lanczos",
                                                "align_corners": True}),
    (X4[0], {"size": 3, "mode": "lanczos"}),
    (X4, {"size": (3.0, 2), "mode": "bicubic"}),
    (X4, {"size": (3, np.int64(2)), "mode": "bicubic"}),
    (X4, {"size": (3, 2), "recompute_scale_factor": True}),
    (X4[0], {"scale_factor": 2, "mode": "bicubic"}), (X4[None], {"scale_factor": 2,
                                                                 "mode": "bicubic"}),
    (X4[0, 0], {"scale_factor": 2, "mode": "bicubic"}),
    (X4[0, 0], {"size": (2,), "mode": "bicubic"}),
    (X4[0, 0, 0], {"size": 3}), (X4, {"size": (3, 3), "scale_factor": 2, "mode": "foo"}),
    (X4, {"size": (3, 3), "mode": "foo"}), (X4, {"size": 3, "mode": "bicubic",
                                                 "scale_factor": 2}),
    (X4, {"mode": "bicubic"}), (X4, {"size": (0, 3), "mode": "bicubic"}),
    (np.zeros((1, 0, 4, 4), np.float32), {"size": 3, "mode": "bicubic"}),
    (np.zeros((0, 2, 4, 4), np.float32), {"size": 3, "mode": "bicubic"}),
    (X4.astype(np.int64), {"size": 3, "mode": "bicubic"}),
    (X4 > 0, {"size": 3, "mode": "bicubic"}),
])
def test_interpolate_errors_and_edges_match_torch(x, kw):
    mine, ref = _outcome(minitorch, x, kw), _outcome(torch, x, kw)
    if isinstance(ref[0], str) or isinstance(mine[0], str):
        assert mine == ref
        return
    assert mine[2] == ref[2]
    assert_same_values(mine[0], ref[0])


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("align", [False, True])
def test_antialias_sweep_matches_torch(mode, align):
    """PyTorch's antialiased resize: the filter stretched by the scale when shrinking, weights
    normalised, a pass skipped where the size does not change, and its forward's quirk for an
    output one pixel wide (every row is the first row's value)."""
    rng = np.random.default_rng(14)
    for h in (1, 2, 5, 9):
        for w in (1, 3, 8):
            x = rng.standard_normal((1, 2, h, w)).astype(np.float32)
            kws = [{"scale_factor": sf} for sf in (0.3, 0.5, 0.75, 1.0, 1.5, 2.0, (0.4, 1.7),
                                                   (1.1, 1.0))]
            kws += [{"size": s} for s in [(3, 2), (h, w), (1, 1)]]
            for kw in kws:
                _assert_same(x, {"mode": mode, "align_corners": align, "antialias": True, **kw},
                             rtol=1e-4, atol=1e-5)


def test_antialias_dtypes_special_values_and_gradcheck():
    x64 = np.random.default_rng(15).standard_normal((1, 2, 7, 6))
    for mode in ("bilinear", "bicubic"):
        _assert_same(x64, {"mode": mode, "antialias": True, "size": (3, 4)})
        for dtype in (np.float16, np.int64, np.bool_):  # PyTorch refuses them
            _assert_same(x64.astype(dtype), {"mode": mode, "antialias": True, "size": (3, 4)})
        special = np.array([[[[1.0, np.inf, 3.0, 0.5], [4.0, np.nan, 6.0, 1.0]]]], np.float32)
        _assert_same(special, {"mode": mode, "antialias": True, "size": (2, 2)})
        _assert_same(special, {"mode": mode, "antialias": True, "size": (2, 4)})
        t = minitorch.tensor(x64, requires_grad=True)
        f = lambda v, m=mode: minitorch.nn.functional.interpolate(  # noqa: E731
            v, size=(3, 9), mode=m, antialias=True)
        assert minitorch.autograd.gradcheck(f, (t,))
        assert minitorch.autograd.gradgradcheck(f, (t,))


def test_lanczos_is_refused_by_name():
    with pytest.raises(NotImplementedError, match="lanczos"):
        minitorch.nn.functional.interpolate(minitorch.tensor(X4), size=3, mode="lanczos",
                                            antialias=True)


def test_adaptive_pools_refuse_empty_spatial_dims():
    for name, shape in [("adaptive_avg_pool2d", (2, 3, 0, 4)), ("adaptive_avg_pool2d", (3, 4, 0)),
                        ("adaptive_max_pool2d", (2, 3, 0, 4)), ("adaptive_avg_pool1d", (2, 3, 0)),
                        ("adaptive_avg_pool2d", (0, 4, 4)), ("adaptive_avg_pool2d", (1, 0, 4, 4)),
                        ("adaptive_max_pool2d", (1, 0, 4, 4)), ("adaptive_max_pool2d", (0, 4, 4)),
                        ("adaptive_avg_pool2d", (0, 2, 4, 4))]:
        outs = []
        for lib in (minitorch, torch):
            x = lib.zeros(*shape, requires_grad=True)
            got = []
            try:
                y = getattr(lib.nn.functional, name)(x, 2)
                got.append(tuple(y.shape))
                y.sum().backward()
                got.append(tuple(x.grad.shape))
            except RuntimeError as e:
                got.append(str(e))
            outs.append(got)
        assert outs[0] == outs[1], (name, shape)


# ------------------------------------------------------------------ nn.Upsample
@pytest.mark.parametrize("kw", [{"scale_factor": 2, "mode": "bicubic"},
                                {"size": (3, 5), "mode": "bicubic", "align_corners": True},
                                {"scale_factor": 0.5, "mode": "area"}])
def test_upsample_module_bicubic_and_area(kw):
    x = np.random.default_rng(6).standard_normal((1, 2, 4, 6)).astype(np.float32)
    mine, ref = minitorch.nn.Upsample(**kw), torch.nn.Upsample(**kw)
    assert repr(mine) == repr(ref)
    a, b = mine(minitorch.tensor(x)), ref(torch.tensor(x))
    assert_same_values(a, b, rtol=1e-5, atol=1e-5)


# ------------------------------------------------------------------ embedding's options
IDX = np.array([[1, 1, 2], [4, 1, 0]])


def _embedding_run(lib, w_arr, idx, **kw):
    """(output, the weight after the call, its version bump, its gradient, node name)."""
    w = lib.tensor(w_arr, requires_grad=True)
    v0 = w._version
    y = lib.nn.functional.embedding(lib.tensor(idx), w, **kw)
    bump = w._version - v0
    y.backward(lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(
        w_arr.dtype)))
    return y, w.detach(), bump, w.grad, _node(lib, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("kw", [
    {"max_norm": 1.0}, {"max_norm": 2.0, "norm_type": 1}, {"max_norm": 0.5, "norm_type": 0.5},
    {"max_norm": 1.5, "norm_type": float("inf")}, {"max_norm": 100.0},
    {"max_norm": 1.0, "padding_idx": 0}, {"scale_grad_by_freq": True},
    {"scale_grad_by_freq": True, "padding_idx": 1}, {"scale_grad_by_freq": True, "max_norm": 1.0},
    {"padding_idx": -1}, {"sparse": False},
])
def test_embedding_options_match_torch(dtype, kw):
    w = (np.random.default_rng(7).standard_normal((5, 3)) * 2).astype(dtype)
    mine, ref = _embedding_run(minitorch, w, IDX, **kw), _embedding_run(torch, w, IDX, **kw)
    assert mine[2] == ref[2] and mine[4] == ref[4]
    for a, b in zip(mine[:2] + mine[3:4], ref[:2] + ref[3:4]):
        assert_same_values(a, b, rtol=1e-6, atol=1e-6)


def test_embedding_max_norm_rescales_only_the_looked_up_rows_in_place():
    w = np.full((4, 2), 3.0, np.float32)
    for lib in (minitorch, torch):
        weight = lib.tensor(w)
        lib.nn.functional.embedding(lib.tensor([0, 2, 2]), weight, max_norm=1.0)
        norms = np.linalg.norm(weight.numpy(), axis=1)
        np.testing.assert_allclose(norms, [1.0, np.hypot(3, 3), 1.0, np.hypot(3, 3)], rtol=1e-6)


def test_embedding_scale_grad_by_freq_second_order_like_torch():
    """PyTorch's double backward masks the padding row but does not divide by the counts."""
    outs = []
    for lib in (minitorch, torch):
        w = lib.tensor(np.linspace(-1, 1, 15).reshape(5, 3), requires_grad=True)
        y = lib.nn.functional.embedding(lib.tensor(IDX), w, padding_idx=0,
                                        scale_grad_by_freq=True)
        (g,) = lib.autograd.grad((y ** 3).sum(), w, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), w)
        outs.append((g.detach().numpy(), gg.numpy(), _node(lib, g)))
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-12)
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-12)
    assert outs[0][2] == outs[1][2]


def test_embedding_sparse_is_refused_only_where_a_gradient_would_be_sparse():
    w = minitorch.randn(5, 3, requires_grad=True)
    with pytest.raises(NotImplementedError, match="sparse"):
        minitorch.nn.functional.embedding(minitorch.tensor(IDX), w, sparse=True)
    with pytest.raises(NotImplementedError, match="sparse"):
        minitorch.nn.Embedding(5, 3, sparse=True)(minitorch.tensor(IDX))
    with minitorch.no_grad():
        out = minitorch.nn.functional.embedding(minitorch.tensor(IDX), w, sparse=True)
    assert out.shape == (2, 3, 3)
    out = minitorch.nn.functional.embedding(minitorch.tensor(IDX), w.detach(), sparse=True)
    assert out.shape == (2, 3, 3)


@pytest.mark.parametrize("call", [
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1.0, 2.0]), w, max_norm=1.0),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1, 7]), w, max_norm=1.0),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([-1, 2]), w, max_norm=1.0),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1, 2]), w, padding_idx=5),
    lambda lib, w: lib.nn.functional.embedding(lib.tensor([1, 2]), w, padding_idx=-6),
    lambda lib, w: lib.embedding_renorm_(w.detach(), lib.tensor([1.0]), 1.0, 2.0),
    lambda lib, w: lib.embedding_renorm_(w.detach()[0], lib.tensor([1]), 1.0, 2.0),
    lambda lib, w: lib.embedding_renorm_(w.detach(), lib.tensor([-7]), 1.0, 2.0),
    lambda lib, w: lib.embedding_renorm_(w, lib.tensor([1]), 1.0, 2.0),
])
def test_embedding_renorm_errors_match_torch(call):
    outs = []
    for lib in (minitorch, torch):
        w = lib.tensor(np.full((5, 3), 2.0, np.float32), requires_grad=True)
        try:
            call(lib, w)
            outs.append(None)
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert outs[0] == outs[1]


def test_embedding_renorm_returns_its_weight():
    for lib in (minitorch, torch):
        w = lib.tensor(np.full((3, 2), 4.0, np.float32))
        assert lib.embedding_renorm_(w, lib.tensor([[2, 2]]), 1.0, 2.0) is w
        np.testing.assert_allclose(np.linalg.norm(w.numpy(), axis=1)[2], 1.0, rtol=1e-6)


@pytest.mark.parametrize("kw", [{"max_norm": 1.0}, {"max_norm": 2.0, "norm_type": 1.0},
                                {"scale_grad_by_freq": True, "padding_idx": 2}])
def test_embedding_module_options(kw):
    minitorch.manual_seed(0)
    torch.manual_seed(0)
    mine, ref = minitorch.nn.Embedding(5, 3, **kw), torch.nn.Embedding(5, 3, **kw)
    assert repr(mine) == repr(ref)
    with minitorch.no_grad():
        mine.weight.copy_(minitorch.tensor(ref.weight.detach().numpy()))
    a, b = mine(minitorch.tensor(IDX)), ref(torch.tensor(IDX))
    assert_same_values(a, b, rtol=1e-6, atol=1e-7)
    assert_same_values(mine.weight, ref.weight, rtol=1e-6, atol=1e-7)
    a.sum().backward()
    b.sum().backward()
    assert_same_values(mine.weight.grad, ref.weight.grad)


# ------------------------------------------------------------------ embedding_bag
BAG_W = np.random.default_rng(9).standard_normal((6, 3))
BAG_IN = np.array([1, 2, 2, 5, 0, 3, 3, 1])
BAG_OFF = np.array([0, 2, 2, 5])


def _bag_run(lib, inp, off, dtype=np.float32, psw=None, w=BAG_W, **kw):
    """(output, weight grad, per-sample-weights grad, node name) or the exception."""
    weight = lib.tensor(w.astype(dtype), requires_grad=True)
    p = None if psw is None else lib.tensor(psw.astype(dtype), requires_grad=True)
    try:
        y = lib.nn.functional.embedding_bag(lib.tensor(inp), weight,
                                            None if off is None else lib.tensor(off),
                                            per_sample_weights=p, **kw)
        y.backward(lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(
            dtype)))
    except Exception as e:
        return type(e).__name__, str(e)
    return y, weight.grad, None if p is None else p.grad, _node(lib, y)


BAG_CASES = [(BAG_IN, BAG_OFF, {"mode": m, **kw}) for m in ("sum", "mean", "max")
             for kw in ({}, {"padding_idx": 2}, {"padding_idx": -1}, {"dtype": np.float64},
                        {"dtype": np.float16}, {"max_norm": 1.0},
                        {"include_last_offset": True, "_off": np.array([0, 2, 2, 5, 8])})]
BAG_CASES += [(BAG_IN.reshape(2, 4), None, {"mode": m}) for m in ("sum", "mean", "max")]
BAG_CASES += [
    (BAG_IN, BAG_OFF, {"mode": "sum", "scale_grad_by_freq": True}),
    (BAG_IN, BAG_OFF, {"mode": "mean", "scale_grad_by_freq": True, "padding_idx": 3}),
    (np.array([4, 0, 0, 1, 2, 2, 2, 3, 3, 3, 3]), np.array([0, 3, 7]),
     {"mode": "sum", "scale_grad_by_freq": True}),
    (BAG_IN, BAG_OFF, {"mode": "sum", "psw": np.linspace(0.1, 0.9, 8)}),
    (BAG_IN, BAG_OFF, {"mode": "sum", "psw": np.linspace(0.1, 0.9, 8), "padding_idx": 3}),
    (BAG_IN.reshape(2, 4), None, {"mode": "sum", "psw": np.linspace(0.1, 0.9, 8).reshape(2, 4)}),
    (np.array([1, 1, 1]), np.array([0, 0, 3]), {"mode": "max"}),  # empty bags and ties
    (np.array([1, 0, 4]), np.array([0]), {"mode": "max", "w": np.array(
        [[1.0, np.nan, 2.0], [1.0, 3.0, np.nan], [0, 0, 0], [0, 0, 0], [5.0, 1.0, np.inf]])}),
    (np.array([], np.int64), np.array([0]), {"mode": "mean"}),
    (np.array([2, 3]).astype(np.int32), np.array([0, 1]).astype(np.int32), {"mode": "mean"}),
    # errors, in PyTorch's order
    (np.array([1, 9]), np.array([0]), {"mode": "sum"}),
    (np.array([1, 9]), np.array([0]), {"mode": "max"}),
    (np.array([1, -1]), np.array([0]), {"mode": "mean", "dtype": np.float64}),
    (BAG_IN, np.array([1, 3]), {"mode": "sum"}), (BAG_IN, np.array([0, 9]), {"mode": "sum"}),
    (BAG_IN, BAG_OFF, {"mode": "foo"}), (BAG_IN, BAG_OFF, {"mode": "max",
                                                           "scale_grad_by_freq": True}),
    (BAG_IN, BAG_OFF, {"mode": "max", "sparse": True}), (BAG_IN, None, {"mode": "sum"}),
    (BAG_IN, np.array([[0]]), {"mode": "sum"}), (BAG_IN[None, None], None, {"mode": "sum"}),
    (BAG_IN, BAG_OFF, {"mode": "sum", "padding_idx": 6}),
    (BAG_IN, BAG_OFF, {"mode": "mean", "psw": np.ones(8)}),
    (BAG_IN, BAG_OFF, {"mode": "sum", "psw": np.ones(7)}),
    (BAG_IN.astype(np.float32), BAG_OFF, {"mode": "sum"}),
]


@pytest.mark.parametrize("case", BAG_CASES, ids=[str(i) for i in range(len(BAG_CASES))])
def test_embedding_bag_matches_torch(case):
    inp, off, kw = case
    kw = dict(kw)
    off = kw.pop("_off", off)
    mine, ref = _bag_run(minitorch, inp, off, **kw), _bag_run(torch, inp, off, **kw)
    if isinstance(ref[0], str) or isinstance(mine[0], str):
        assert mine == ref
        return
    assert mine[3] == ref[3]
    tol = {"rtol": 1e-2, "atol": 1e-2} if kw.get("dtype") == np.float16 else {}
    for a, b in zip(mine[:3], ref[:3]):
        assert_same_values(a, b, **tol)


def test_embedding_bag_gradcheck_and_no_second_derivative():
    w = minitorch.tensor(BAG_W, requires_grad=True)
    psw = minitorch.tensor(np.linspace(0.5, 1.5, 8), requires_grad=True)
    inp, off = minitorch.tensor(BAG_IN), minitorch.tensor(BAG_OFF)
    F = minitorch.nn.functional
    for mode in ("sum", "mean", "max"):
        assert minitorch.autograd.gradcheck(
            lambda t, m=mode: F.embedding_bag(inp, t, off, mode=m, padding_idx=3), (w,))
    assert minitorch.autograd.gradcheck(
        lambda t, p: F.embedding_bag(inp, t, off, mode="sum", per_sample_weights=p), (w, psw))
    outs = []
    for lib in (minitorch, torch):
        wt = lib.tensor(BAG_W, requires_grad=True)
        y = lib.nn.functional.embedding_bag(lib.tensor(BAG_IN), wt, lib.tensor(BAG_OFF))
        (g,) = lib.autograd.grad((y * y).sum(), wt, create_graph=True)
        with pytest.raises(NotImplementedError) as e:
            g.sum().backward()
        outs.append((_node(lib, g), str(e.value)))
    assert outs[0] == outs[1]


def test_embedding_bag_sparse_refused_and_argument_order_warning():
    w = minitorch.randn(6, 3, requires_grad=True)
    with pytest.raises(NotImplementedError, match="sparse"):
        minitorch.nn.functional.embedding_bag(minitorch.tensor(BAG_IN), w,
                                              minitorch.tensor(BAG_OFF), sparse=True)
    outs = []
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning, match="Argument order of nn.functional.embedding_bag"):
            outs.append(lib.nn.functional.embedding_bag(
                lib.tensor(BAG_W), lib.tensor(BAG_IN), lib.tensor(BAG_OFF)))
    assert_same_values(*outs)


@pytest.mark.parametrize("kw", [{}, {"mode": "max", "padding_idx": -1}, {"mode": "sum",
                                                                          "max_norm": 1.0,
                                                                          "norm_type": 1.0},
                                {"scale_grad_by_freq": True, "include_last_offset": True}])
def test_embedding_bag_module(kw):
    minitorch.manual_seed(0)
    torch.manual_seed(0)
    mine, ref = minitorch.nn.EmbeddingBag(6, 3, **kw), torch.nn.EmbeddingBag(6, 3, **kw)
    assert repr(mine) == repr(ref)
    assert_same_values(mine.weight, ref.weight, rtol=0, atol=0)  # N(0, 1) bit for bit
    off = np.append(BAG_OFF, 8) if kw.get("include_last_offset") else BAG_OFF
    a = mine(minitorch.tensor(BAG_IN), minitorch.tensor(off))
    b = ref(torch.tensor(BAG_IN), torch.tensor(off))
    assert_same_values(a, b)
    a.sum().backward()
    b.sum().backward()
    assert_same_values(mine.weight.grad, ref.weight.grad)


def test_embedding_bag_from_pretrained():
    table = np.array([[1, 2.3, 3], [4, 5.1, 6.3]], np.float32)
    for freeze in (True, False):
        outs = []
        for lib in (minitorch, torch):
            bag = lib.nn.EmbeddingBag.from_pretrained(lib.tensor(table), freeze=freeze,
                                                      mode="max")
            outs.append((repr(bag), bag.weight.requires_grad,
                         bag(lib.tensor([[1, 0]])).detach().numpy().tolist()))
        assert outs[0] == outs[1]
    for lib in (minitorch, torch):
        with pytest.raises(AssertionError, match="2-dimensional"):
            lib.nn.EmbeddingBag.from_pretrained(lib.ones(3))
        with pytest.raises(AssertionError, match="Shape of weight"):
            lib.nn.EmbeddingBag(2, 2, _weight=lib.ones(3, 2))
        with pytest.raises(AssertionError, match="padding_idx must be within"):
            lib.nn.EmbeddingBag(2, 2, padding_idx=2)


# ------------------------------------------------------------------ affine_grid
@pytest.mark.parametrize("size", [(2, 1, 3, 4), (2, 3, 1, 5), (1, 1, 1, 1), (2, 1, 2, 3, 4),
                                  (3, 2, 7, 6), (1, 1, 1, 1, 1)])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_affine_grid_matches_torch(size, align, dtype):
    k = len(size) - 2
    th = np.random.default_rng(sum(size)).standard_normal((size[0], k, k + 1)).astype(dtype)
    import warnings

    outs = []
    for lib in (minitorch, torch):
        t = lib.tensor(th, requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            g = lib.nn.functional.affine_grid(t, size, align_corners=align)
        g.backward(lib.tensor(np.cos(np.arange(g.numel())).reshape(tuple(g.shape)).astype(dtype)))
        outs.append((g, t.grad, (_node(lib, g), [str(w.message) for w in caught])))
    assert outs[0][2] == outs[1][2]
    assert_same_values(outs[0][0], outs[1][0], rtol=1e-6, atol=1e-6)
    assert_same_values(outs[0][1], outs[1][1], rtol=1e-5, atol=1e-5)


def test_affine_grid_gradcheck_and_second_order_graph():
    th = minitorch.tensor(np.random.default_rng(1).standard_normal((2, 2, 3)), requires_grad=True)
    f = lambda t: minitorch.nn.functional.affine_grid(t, (2, 1, 3, 4), align_corners=False)  # noqa: E731
    assert minitorch.autograd.gradcheck(f, (th,))
    assert minitorch.autograd.gradgradcheck(f, (th,))
    names = []
    for lib in (minitorch, torch):
        t = lib.tensor(np.ones((1, 3, 4)), requires_grad=True)
        g = lib.nn.functional.affine_grid(t, (1, 1, 2, 2, 3), align_corners=True)
        (gt,) = lib.autograd.grad((g * g).sum(), t, create_graph=True)
        names.append(_node(lib, gt))
    assert names[0] == names[1]


@pytest.mark.parametrize("theta,size,kw", [
    (np.ones((1, 2, 3), np.int64), (1, 1, 2, 2), {"align_corners": False}),
    (np.ones((1, 2, 3)), (1, 1, 2, 2, 2), {"align_corners": False}),
    (np.ones((1, 3, 4)), [1, 1, 2, 2], {"align_corners": False}),
    (np.ones((2, 3)), (1, 1, 2, 2), {"align_corners": False}),
    (np.ones((1, 2, 3)), (1, 1, 2), {"align_corners": False}),
    (np.ones((1, 2, 3)), (1, 1, 0, 2), {"align_corners": False}),
    (np.ones((1, 2, 3)), (1, 1, 0, 2), {"align_corners": True}),
    (np.ones((1, 2, 3)), (1, 1, 3, 2), {}),
])
def test_affine_grid_errors_and_warnings_match_torch(theta, size, kw):
    import warnings

    outs = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                g = lib.nn.functional.affine_grid(lib.tensor(theta), size, **kw)
                got = tuple(g.shape), g.numpy().tolist()
            except Exception as e:
                got = type(e).__name__, str(e).replace("torch.Size", "").replace(
                    "minitorch.", "torch.")
        outs.append((got, [str(w.message) for w in caught]))
    assert outs[0] == outs[1]


# ------------------------------------------------------------------ gumbel_softmax
@pytest.mark.parametrize("kw", [{}, {"hard": True}, {"tau": 0.3, "dim": 0},
                                {"hard": True, "dim": 0, "tau": 2}, {"tau": 5.0, "dim": 1}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gumbel_softmax_draws_torchs_numbers(kw, dtype):
    x = np.random.default_rng(0).standard_normal((3, 5)).astype(dtype)
    outs = []
    for lib in (minitorch, torch):
        lib.manual_seed(3)
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.gumbel_softmax(t, **kw)
        y.backward(lib.tensor(np.cos(np.arange(15)).reshape(3, 5).astype(dtype)))
        after = lib.rand(2)  # the generator moved on by as much
        outs.append((y, t.grad, after, _node(lib, y)))
    assert outs[0][3] == outs[1][3]
    for a, b in zip(outs[0][:3], outs[1][:3]):
        assert_same_values(a, b, rtol=1e-5, atol=1e-6)
    if kw.get("hard"):
        np.testing.assert_array_equal(outs[0][0].detach().numpy(), outs[1][0].detach().numpy())


def test_gumbel_softmax_noise_is_bitwise_and_eps_warns():
    """The noise is ``-log`` of the same exponential draws (equal to the last bit)."""
    for lib in (minitorch, torch):
        lib.manual_seed(1)
    e1 = minitorch.empty(4, 6).exponential_()
    e2 = torch.empty(4, 6).exponential_()
    np.testing.assert_array_equal(e1.numpy(), e2.numpy())
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning, match="`eps` parameter is deprecated"):
            lib.nn.functional.gumbel_softmax(lib.zeros(2, 3), eps=1e-5)


# ------------------------------------------------------------------ nn.Buffer
def _buffer_story(lib):
    nn = lib.nn
    b = nn.Buffer(lib.ones(2, requires_grad=True))
    story = [type(b).__name__, isinstance(b, nn.Buffer), isinstance(lib.ones(1), nn.Buffer),
             b.requires_grad, b.persistent, tuple(nn.Buffer().shape),
             nn.Buffer(lib.ones(1), persistent=False).persistent]
    m = nn.Module()
    m.a = nn.Buffer(lib.zeros(2))
    m.b = nn.Buffer(lib.ones(1), persistent=False)
    m.c = lib.ones(3)
    story += [list(m.state_dict()), [n for n, _ in m.named_buffers()]]
    m.a = lib.ones(2) * 5  # a plain tensor keeps the buffer (and its persistence)
    m.b = lib.ones(1)
    story += [list(m.state_dict()), m.a.tolist()]
    m.b = nn.Buffer(lib.ones(1))  # a Buffer says it again
    story.append(list(m.state_dict()))
    for bad in (lambda: setattr(m, "c", nn.Buffer(lib.ones(1))), lambda: setattr(m, "a", 3)):
        try:
            bad()
        except Exception as e:
            story.append((type(e).__name__, str(e)))

    class NoInit(nn.Module):
        def __init__(self):
            self.x = nn.Buffer(lib.ones(1))
    try:
        NoInit()
    except AttributeError as e:
        story.append(str(e))
    return story


def test_buffer_registers_like_torch():
    assert _buffer_story(minitorch) == _buffer_story(torch)


# ------------------------------------------------------------------ grid_sample
GS_SHAPES = [(4, 5, 3, 2), (1, 3, 2, 2), (3, 1, 2, 3), (5, 5, 4, 4)]


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grid_sample_matches_torch(mode, padding_mode, align, dtype):
    """Points inside, on and well outside the image (the grid spans -1.7 .. 1.7)."""
    rng = np.random.default_rng(11)
    for h, w, ho, wo in GS_SHAPES:
        x = rng.standard_normal((2, 3, h, w)).astype(dtype)
        g = (rng.random((2, ho, wo, 2)) * 3.4 - 1.7).astype(dtype)
        g[0, 0, 0] = (-1, 1)  # exactly on the corners
        g[1, 0, 0] = (1, -1)
        outs = []
        for lib in (minitorch, torch):
            xt, gt = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
            y = lib.nn.functional.grid_sample(xt, gt, mode=mode, padding_mode=padding_mode,
                                              align_corners=align)
            y.backward(lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(
                dtype)))
            outs.append((y, xt.grad, gt.grad, _node(lib, y)))
        assert outs[0][3] == outs[1][3]
        for a, b in zip(outs[0][:3], outs[1][:3]):
            assert_same_values(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode,dims", [("bilinear", 2), ("nearest", 2), ("bicubic", 2),
                                       ("bilinear", 3), ("nearest", 3)])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradcheck_and_second_order_like_torch(mode, dims, padding_mode):
    rng = np.random.default_rng(12)
    x = rng.standard_normal((1, 2, 3, 4) if dims == 2 else (1, 2, 2, 3, 4))
    g = rng.random((1, 2, 3, 2) if dims == 2 else (1, 2, 2, 2, 3)) * 2.4 - 1.2
    F = minitorch.nn.functional
    f = lambda a, b: F.grid_sample(a, b, mode=mode, padding_mode=padding_mode,  # noqa: E731
                                   align_corners=False)
    leaves = (minitorch.tensor(x, requires_grad=True), minitorch.tensor(g, requires_grad=True))
    assert minitorch.autograd.gradcheck(f, leaves)
    assert minitorch.autograd.gradgradcheck(f, leaves)
    outs = []
    for lib in (minitorch, torch):
        a, b = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
        y = lib.nn.functional.grid_sample(a, b, mode=mode, padding_mode=padding_mode,
                                          align_corners=False)
        ga, gb = lib.autograd.grad((y ** 2).sum(), [a, b], create_graph=True)
        (ga.sum() + (gb ** 2).sum()).backward()
        outs.append((a.grad, b.grad))
    for m, r in zip(*outs):
        assert_same_values(m, r, rtol=1e-9, atol=1e-9)


def test_grid_sample_special_grids_and_the_spatial_transformer():
    x = np.random.default_rng(13).standard_normal((1, 2, 4, 5)).astype(np.float32)
    g = np.array([[[[np.nan, 0], [np.inf, 0], [0, -np.inf], [0.3, 0.2]]]], np.float32)
    for pad in ("zeros", "border", "reflection"):
        a = minitorch.nn.functional.grid_sample(minitorch.tensor(x), minitorch.tensor(g),
                                                padding_mode=pad, align_corners=False)
        b = torch.nn.functional.grid_sample(torch.tensor(x), torch.tensor(g), padding_mode=pad,
                                            align_corners=False)
        assert_same_values(a, b)
    outs = []  # affine_grid + grid_sample: a rotation of the image, and its gradient
    theta = np.array([[[0.8, -0.6, 0.1], [0.6, 0.8, -0.2]]], np.float32)
    for lib in (minitorch, torch):
        th = lib.tensor(theta, requires_grad=True)
        grid = lib.nn.functional.affine_grid(th, (1, 2, 4, 5), align_corners=False)
        y = lib.nn.functional.grid_sample(lib.tensor(x), grid, align_corners=False)
        y.sum().backward()
        outs.append((y, th.grad))
    for m, r in zip(*outs):
        assert_same_values(m, r, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("x,g,kw", [
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 2), np.float32), {"mode": "foo"}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 2), np.float32),
     {"padding_mode": "circular"}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 2)), {}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 2), np.float32), {}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((2, 1, 1, 2), np.float32), {}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 3), np.float32), {}),
    (np.zeros((1, 1, 0, 2), np.float32), np.zeros((1, 1, 1, 2), np.float32), {}),
    (np.zeros((0, 1, 2, 2), np.float32), np.zeros((0, 1, 1, 2), np.float32), {}),
    (np.zeros((1, 0, 2, 2), np.float32), np.zeros((1, 3, 1, 2), np.float32), {}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 0, 1, 2), np.float32), {}),
    (np.zeros((1, 1, 2, 2), np.float32), np.zeros((1, 1, 1, 2), np.float32),
     {"align_corners": None}),
])
def test_grid_sample_errors_and_edges_match_torch(x, g, kw):
    import warnings

    kw = {"align_corners": False, **kw}
    outs = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                y = lib.nn.functional.grid_sample(lib.tensor(x), lib.tensor(g), **kw)
                got = tuple(y.shape), y.numpy().tolist()
            except Exception as e:
                got = type(e).__name__, str(e)
        outs.append((got, [str(w.message) for w in caught]))
    assert outs[0] == outs[1]


# ------------------------------------------------------------------ grid_sample, 5-D
GS3_SHAPES = [(3, 4, 5, 2, 3, 2), (1, 2, 2, 2, 2, 2), (2, 1, 3, 1, 3, 4), (4, 4, 4, 3, 2, 2)]


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grid_sample_3d_matches_torch(mode, padding_mode, align, dtype):
    """Volumes (trilinear and nearest) read at points inside, on and well outside them."""
    rng = np.random.default_rng(14)
    for d, h, w, do, ho, wo in GS3_SHAPES:
        x = rng.standard_normal((2, 3, d, h, w)).astype(dtype)
        g = (rng.random((2, do, ho, wo, 3)) * 3.4 - 1.7).astype(dtype)
        g[0, 0, 0, 0] = (-1, 1, -1)  # exactly on the corners
        g[1, 0, 0, 0] = (1, -1, 1)
        outs = []
        for lib in (minitorch, torch):
            xt, gt = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
            y = lib.nn.functional.grid_sample(xt, gt, mode=mode, padding_mode=padding_mode,
                                              align_corners=align)
            y.backward(lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)).astype(
                dtype)))
            outs.append((y, xt.grad, gt.grad, _node(lib, y)))
        assert outs[0][3] == outs[1][3]
        for a, b in zip(outs[0][:3], outs[1][:3]):
            assert_same_values(a, b, rtol=1e-5, atol=1e-5)


def test_grid_sample_3d_special_grids_and_affine_grid():
    x = np.random.default_rng(15).standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    g = np.array([[[[[np.nan, 0, 0], [np.inf, 0, 0.5], [0, -np.inf, 0],
                     [0.3, 0.2, -0.9]]]]], np.float32)
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            outs = []
            for lib in (minitorch, torch):
                xt, gt = lib.tensor(x, requires_grad=True), lib.tensor(g, requires_grad=True)
                y = lib.nn.functional.grid_sample(xt, gt, mode=mode, padding_mode=pad,
                                                  align_corners=False)
                y.sum().backward()
                outs.append((y, xt.grad, gt.grad))
            assert_same_values(outs[0][0], outs[1][0])
            # the gradients only where PyTorch's backward agrees with its own forward: its
            # 3-d backward clips a NaN or infinite point to no pixel at all where the forward
            # read the border pixel ("border", "reflection")
            if pad == "zeros":
                for m, r in zip(outs[0][1:], outs[1][1:]):
                    assert_same_values(m, r)
    outs = []  # affine_grid + grid_sample in 3-d, and the gradient of the matrix
    theta = np.array([[[0.8, -0.6, 0.0, 0.1], [0.6, 0.8, 0.0, -0.2], [0.0, 0.1, 0.9, 0.3]]],
                     np.float32)
    for lib in (minitorch, torch):
        th = lib.tensor(theta, requires_grad=True)
        grid = lib.nn.functional.affine_grid(th, (1, 2, 3, 4, 5), align_corners=False)
        y = lib.nn.functional.grid_sample(lib.tensor(x), grid, align_corners=False)
        y.sum().backward()
        outs.append((y, th.grad))
    for m, r in zip(*outs):
        assert_same_values(m, r, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("xs,gs,kw", [
    ((1, 1, 2, 2, 2), (1, 1, 1, 1, 3), {"mode": "bicubic"}),
    ((1, 1, 2, 2, 2), (1, 1, 1, 2), {"mode": "bicubic"}),
    ((1, 1, 2, 2, 2), (2, 1, 1, 1, 3), {"mode": "bicubic"}),
    ((1, 1, 2, 0, 2), (1, 1, 1, 1, 3), {}),
    ((1, 1, 2, 2, 2), (2, 1, 1, 1, 3), {}),
    ((1, 1, 2, 2, 2), (1, 1, 1, 3), {}),
    ((1, 1, 2, 2), (1, 1, 1, 1, 2), {"mode": "bicubic"}),
    ((0, 1, 2, 2, 2), (0, 1, 1, 1, 3), {}),
    ((1, 1, 2, 2, 2), (1, 0, 1, 1, 3), {}),
    ((1, 1, 2, 2, 2), (1, 1, 1, 1, 3), {"mode": "cubic"}),
])
def test_grid_sample_3d_and_bicubic_errors_match_torch(xs, gs, kw):
    outs = []
    for lib in (minitorch, torch):
        try:
            y = lib.nn.functional.grid_sample(lib.ones(*xs), lib.ones(*gs), align_corners=False,
                                              **kw)
            outs.append((tuple(y.shape), y.tolist()))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert outs[0] == outs[1]


def test_grid_sample_bicubic_special_grids_and_float16():
    x = np.random.default_rng(16).standard_normal((1, 2, 4, 5)).astype(np.float32)
    g = np.array([[[[np.nan, 0], [np.inf, 0], [0, -np.inf], [0.3, 0.2], [-1.6, 1.9]]]],
                 np.float32)
    for pad in ("zeros", "border", "reflection"):
        for align in (False, True):
            a, b = (lib.nn.functional.grid_sample(lib.tensor(x), lib.tensor(g), mode="bicubic",
                                                  padding_mode=pad, align_corners=align)
                    for lib in (minitorch, torch))
            assert_same_values(a, b)
    gs = []  # nearest reads have no slope: a zero gradient for the grid, NaN points included
    for lib in (minitorch, torch):
        gt = lib.tensor(g, requires_grad=True)
        lib.nn.functional.grid_sample(lib.tensor(x), gt, mode="nearest",
                                      align_corners=False).sum().backward()
        gs.append(gt.grad)
    assert_same_values(*gs)
    for mode in ("bilinear", "nearest", "bicubic"):
        x16, g16 = x[:, :, :3].astype(np.float16), (g[:, :, 3:] / 2).astype(np.float16)
        a, b = (lib.nn.functional.grid_sample(lib.tensor(x16), lib.tensor(g16), mode=mode,
                                              align_corners=False) for lib in (minitorch, torch))
        assert_same_values(a, b, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("xs,gs", [((1, 1, 2), (1, 1, 2)), ((1, 1, 2, 2, 2), (1, 1, 1, 2)),
                                   ((1, 1, 2, 2, 2), (1, 1, 1, 1, 2)),
                                   ((1, 1, 2, 2), (1, 1, 1, 1, 2)), ((1, 1, 2, 2, 2), (1, 1, 3))])
def test_grid_sample_dimension_checks_match_torch(xs, gs):
    outs = []
    for lib in (minitorch, torch):
        try:
            lib.nn.functional.grid_sample(lib.zeros(*xs), lib.zeros(*gs), align_corners=False)
            outs.append(None)
        except RuntimeError as e:
            outs.append(str(e))
    assert outs[0] == outs[1]


# ------------------------------------------------------------------ lazy modules
def _lazy_story(lib, make, shape):
    nn = lib.nn
    m = make(nn)
    story = [repr(m), repr(m.weight), repr(m.bias), m.has_uninitialized_params(),
             list(m.state_dict()), isinstance(m.weight, nn.UninitializedParameter)]
    with pytest.raises(RuntimeError) as e:
        story.append(m.weight.shape)
    story.append(str(e.value))
    opt = lib.optim.SGD(m.parameters(), lr=0.1)  # made before the parameters have shapes
    lib.manual_seed(0)
    y = m(lib.ones(*shape))
    y.sum().backward()
    opt.step()
    story += [repr(m), type(m).__name__, type(m.weight).__name__, m.has_uninitialized_params()
              if hasattr(m, "has_uninitialized_params") else None,
              y.detach().numpy().round(5).tolist(), m.weight.detach().numpy().round(5).tolist()]
    return story


@pytest.mark.parametrize("make,shape", [
    (lambda nn: nn.LazyLinear(3), (2, 5)), (lambda nn: nn.LazyLinear(2, bias=False), (4, 3, 6)),
    (lambda nn: nn.LazyConv1d(4, 3), (2, 3, 8)), (lambda nn: nn.LazyConv1d(2, 2, stride=2),
                                                  (3, 7)),
    (lambda nn: nn.LazyConv2d(4, 3), (2, 3, 6, 6)),
    (lambda nn: nn.LazyConv2d(2, (2, 3), padding=1, bias=False), (3, 5, 5)),
    (lambda nn: nn.LazyConv3d(3, 2), (2, 2, 4, 4, 3)),
    (lambda nn: nn.LazyConv3d(4, (1, 2, 2), groups=2, bias=False), (2, 3, 3, 3)),
])
def test_lazy_modules_materialize_like_torch(make, shape):
    assert _lazy_story(minitorch, make, shape) == _lazy_story(torch, make, shape)


@pytest.mark.parametrize("make,shape", [  # task nnextra: the lazy transposed convolutions
    (lambda nn: nn.LazyConvTranspose1d(4, 3), (2, 3, 8)),
    (lambda nn: nn.LazyConvTranspose1d(2, 2, stride=2, output_padding=1), (3, 7)),
    (lambda nn: nn.LazyConvTranspose2d(4, 3), (2, 3, 6, 6)),
    (lambda nn: nn.LazyConvTranspose2d(2, (2, 3), padding=1, bias=False, dilation=2),
     (3, 5, 5)),
    (lambda nn: nn.LazyConvTranspose2d(4, 3, stride=2, padding=1, output_padding=1, groups=2),
     (1, 4, 3, 3)),
    (lambda nn: nn.LazyConvTranspose3d(3, 2), (2, 2, 4, 4, 3)),
    (lambda nn: nn.LazyConvTranspose3d(4, (1, 2, 2), groups=2, bias=False), (2, 3, 3, 3)),
])
def test_lazy_transposed_convolutions_materialize_like_torch(make, shape):
    assert _lazy_story(minitorch, make, shape) == _lazy_story(torch, make, shape)


@pytest.mark.parametrize("name", ["LazyConvTranspose1d", "LazyConvTranspose2d",
                                  "LazyConvTranspose3d"])
def test_lazy_transposed_convolutions_errors_and_output_size_like_torch(name):
    n = int(name[-2])
    outs = []
    for lib in (minitorch, torch):
        make = getattr(lib.nn, name)
        got = [repr(make(6, 3, stride=2, output_padding=1, dilation=2, groups=3)),
               repr(make(2, 1, padding=(1,) * n, bias=False))]
        for layer, x in [(make(4, 3), lib.ones(*(2,) * (n + 3))),
                         (make(4, 3), lib.ones(*(2,) * n)),
                         (make(4, 3, groups=2), lib.ones(1, 3, *(4,) * n)),
                         (make(3, 3, groups=2), lib.ones(1, 4, *(4,) * n))]:
            try:
                layer(x)
                got.append(repr(layer))
            except (RuntimeError, ValueError) as e:
                got.append((type(e).__name__, str(e), type(layer).__name__))
        lib.manual_seed(3)
        m = make(2, 3, stride=2)
        y = m(lib.ones(1, 2, *(3,) * n), output_size=(8,) * n)
        got += [tuple(y.shape), y.detach().numpy().round(5).tolist(), repr(m)]
        outs.append(got)
    assert outs[0] == outs[1]


def test_lazy_placeholders_and_errors_like_torch():
    outs = []
    for lib in (minitorch, torch):
        nn = lib.nn
        got = [repr(nn.UninitializedParameter()), repr(nn.UninitializedBuffer()),
               nn.UninitializedParameter(requires_grad=False).requires_grad,
               isinstance(nn.UninitializedParameter(), nn.Parameter)]
        for layer, x in [(nn.LazyConv2d(4, 3), lib.ones(2, 3)),
                         (nn.LazyConv1d(4, 3), lib.ones(1, 2, 3, 8))]:
            try:
                layer(x)
            except RuntimeError as e:
                got.append(str(e))
        outs.append(got)
    assert outs[0] == outs[1]


# misc: an uninitialized placeholder refuses the Tensor's operations as PyTorch's does
_UNINITIALIZED_USES = [
    "p + 1", "1 + p", "p * p", "p - 1", "1 - p", "p / 2", "2 ** p", "p ** 2", "-p", "abs(p)",
    "p @ p", "p == p", "p < 1", "p[0]", "len(p)", "bool(p)", "p.numel()", "p.nelement()",
    "p.sum()", "p.dim()", "p.t()", "p.detach()", "p.clone()", "p.zero_()", "p.fill_(1)",
    "p.view(-1)", "p.reshape(2)", "p.numpy()", "p.tolist()", "p.item()", "p.backward()",
    "p.norm()", "p.requires_grad_(False)", "p.share_memory_()", "p.shape", "b.shape",
    "b + 1", "b.numel()", "list(p.size())", "p.dtype", "p.requires_grad", "p.grad", "p.is_leaf",
    "p.is_floating_point()", "p.get_device()", "repr(p)", "type(p.float()).__name__",
    "type(p.double()).__name__", "type(p.cpu()).__name__", "hash(p) == hash(p)",
]


@pytest.mark.parametrize("expr", _UNINITIALIZED_USES)
def test_uninitialized_placeholders_refuse_tensor_operations_like_torch(expr):
    """Before materializing, PyTorch's placeholder refuses the Tensor's methods and operators
    with a ValueError naming the method (methods written in Python by address, masked here),
    lets ``size``, the casts and the attributes through, and has its own RuntimeErrors for
    ``shape`` and ``share_memory_``."""
    import re

    outs = []
    for lib in (minitorch, torch):
        p, b = lib.nn.UninitializedParameter(), lib.nn.UninitializedBuffer()
        try:
            got = repr(eval(expr, {"p": p, "b": b}))
            got = got if expr.startswith(("list", "type", "hash", "repr")) else "ok"
        except (ValueError, RuntimeError, TypeError) as e:
            got = (type(e).__name__, re.sub(r" at 0x[0-9a-f]+>", " at ...>", str(e)))
        outs.append(got)
    assert outs[0] == outs[1]


# misc2: nn.init's functions refuse a placeholder, each named as PyTorch's
_UNINITIALIZED_CALLS = [
    "lib.nn.init.zeros_(p)", "lib.nn.init.ones_(p)", "lib.nn.init.normal_(p)",
    "lib.nn.init.uniform_(p)", "lib.nn.init.constant_(p, 1.0)", "lib.nn.init.kaiming_uniform_(p)",
    "lib.nn.init.zeros_(b)",
    # let through
    "lib.is_tensor(p)", "type(lib.as_tensor(p)).__name__", "type(p.float()).__name__",
    "lib.nn.utils.clip_grad_norm_([p], 1.0)", "repr(b.data)", "b.data.requires_grad",
    "type(b.data).__name__", "b.data is b", "type(p.data).__name__",
    "[type(d).__name__, d.materialize((2,)), type(d).__name__, type(b).__name__]",
]


@pytest.mark.parametrize("expr", _UNINITIALIZED_CALLS)
def test_uninitialized_placeholders_refuse_nn_init_like_torch(expr):
    """nn.init's functions refuse PyTorch's placeholder with the ValueError naming the function
    as its repr reads (addresses masked); ``zeros_`` names ``zero_``, ``ones_`` ``fill_``; an
    ``UninitializedBuffer``'s ``.data`` is another placeholder. (PyTorch's functions of torch.*
    refuse it too, through ``__torch_function__``; minitorch's do not: naming the function the
    user called would need its call stack read.)"""
    import re
    import warnings

    outs = []
    for lib in (minitorch, torch):
        p = lib.nn.UninitializedParameter()
        b = lib.nn.UninitializedBuffer(requires_grad=True)
        d = b.data
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = eval(expr, {"lib": lib, "p": p, "b": b, "d": d})
            got = repr(got) if isinstance(got, (str, bool, list)) else "ok"
        except (ValueError, RuntimeError, TypeError) as e:
            got = (type(e).__name__, re.sub(r" at 0x[0-9a-f]+>", " at ...>", str(e)))
        outs.append(got)
    assert outs[0] == outs[1]


def test_lazy_state_dict_keeps_placeholders_and_loading_materializes_like_torch():
    """A lazy module's ``state_dict`` holds its placeholders themselves (not detached, which
    they refuse); loading a state into it materializes them to the loaded shapes; loading
    placeholders into an initialized module is the shape error."""
    outs = []
    for lib in (minitorch, torch):
        lib.manual_seed(0)
        nn = lib.nn
        got = [[type(v).__name__ for v in nn.LazyBatchNorm1d().state_dict().values()]]
        m, src = nn.LazyLinear(3), nn.Linear(2, 3)
        got.append(str(m.load_state_dict(src.state_dict())))
        got += [type(m).__name__, type(m.weight).__name__, m.weight.requires_grad,
                m.weight.tolist() == src.weight.tolist(), tuple(m(lib.ones(1, 2)).shape),
                type(m).__name__]
        try:
            nn.Linear(2, 3).load_state_dict(nn.LazyLinear(3).state_dict())
        except RuntimeError as e:
            got.append(str(e))
        outs.append(got)
    assert outs[0] == outs[1]


def _lazy_norm_story(lib, name, shape, kw):
    m = getattr(lib.nn, name)(**kw)
    story = [repr(m), list(m.state_dict()),
             [(n, repr(b) if type(b).__name__.startswith("Uninit") else b.tolist())
              for n, b in m.named_buffers()], m.has_uninitialized_params()]
    y = m(lib.tensor(np.random.default_rng(1).standard_normal(shape).astype(np.float32)))
    story += [repr(m), type(m).__name__, [(n, tuple(p.shape)) for n, p in m.named_parameters()],
              [n for n, _ in m.named_buffers()]]
    return story, [y.detach().numpy()] + [b.numpy() for _, b in m.named_buffers()]


@pytest.mark.parametrize("name,shape,kw", [
    ("LazyBatchNorm1d", (4, 6), {}), ("LazyBatchNorm1d", (4, 3, 5), {"momentum": None}),
    ("LazyBatchNorm2d", (2, 3, 4, 4), {}), ("LazyBatchNorm2d", (2, 3, 4, 4), {"affine": False}),
    ("LazyBatchNorm1d", (4, 6), {"track_running_stats": False, "bias": False}),
    ("LazyInstanceNorm1d", (2, 3, 5), {}), ("LazyInstanceNorm2d", (2, 3, 4, 4), {"eps": 0.1}),
    ("LazyBatchNorm3d", (2, 3, 2, 3, 2), {}), ("LazyInstanceNorm3d", (2, 3, 2, 3, 2), {}),
])
def test_lazy_norms_materialize_like_torch(name, shape, kw):
    mine, ref = _lazy_norm_story(minitorch, name, shape, kw), _lazy_norm_story(torch, name,
                                                                               shape, kw)
    assert mine[0] == ref[0]
    for a, b in zip(mine[1], ref[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ adaptive softmax (nnextra)
ASM_CONFIGS = [  # (in_features, n_classes, cutoffs, keywords)
    (8, 10, [2, 6], {}), (16, 12, [3], {"head_bias": True}),
    (8, 20, [4, 8, 15], {"div_value": 2.0}), (5, 7, [1, 2, 3, 6], {"div_value": 1.5}),
    (6, 9, (2, 5), {"dtype": "float64", "head_bias": True}),
]


def _asm(lib, in_features, n_classes, cutoffs, kw):
    kw = dict(kw)
    if "dtype" in kw:
        kw["dtype"] = getattr(lib, kw["dtype"])
    lib.manual_seed(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a tail of 0 features: "Initializing zero-element"
        return lib.nn.AdaptiveLogSoftmaxWithLoss(in_features, n_classes, cutoffs, **kw)


def _asm_story(lib, config, x, targets):
    """Repr, parameters, and per target set: output, loss, their nodes and the gradients."""
    m = _asm(lib, *config)
    params = [(n, tuple(p.shape), p.detach().numpy().copy()) for n, p in m.named_parameters()]
    story = [repr(m), [p[:2] for p in params], [m.shortlist_size, m.n_clusters, m.head_size,
                                                m.cutoffs]]
    arrays = [p[2] for p in params]
    for t in targets:
        m.zero_grad()
        xt = lib.tensor(x, requires_grad=True)
        tt = lib.tensor(t)
        if tt.dim() == 0:
            xt = lib.tensor(x[0], requires_grad=True)
        out = m(xt, tt)
        story += [type(out).__name__, out._fields, tuple(out.output.shape),
                  _node(lib, out.output), _node(lib, out.loss)]
        out.loss.backward(retain_graph=True)
        (out.output * 0.5).sum().backward()
        arrays += [out.output.detach().numpy(), out.loss.detach().numpy(), xt.grad.numpy()]
        arrays += [np.zeros(0) if p.grad is None else p.grad.numpy() for p in m.parameters()]
    xt = lib.tensor(x)
    arrays += [m.log_prob(xt).detach().numpy(), m.predict(xt).numpy()]
    story.append(m.log_prob(lib.tensor(x, requires_grad=True)).grad_fn.name())
    return story, arrays


@pytest.mark.parametrize("config", ASM_CONFIGS)
def test_adaptive_log_softmax_matches_torch(config):
    """Targets in every cluster, in the shortlist only, in some clusters, one row, 0-d."""
    in_features, n_classes, cutoffs, kw = config
    dtype = np.float64 if kw.get("dtype") == "float64" else np.float32
    x = np.random.default_rng(21).standard_normal((7, in_features)).astype(dtype)
    targets = [np.arange(7) * (n_classes - 1) // 6, np.zeros(7, np.int64),
               np.full(7, n_classes - 1), np.array([0, n_classes - 1] * 3 + [1]),
               np.array([n_classes - 2]), np.array(n_classes - 1), np.array(0)]
    xs = {len(t) if t.ndim else 0: x[:max(t.size, 1)] for t in targets}
    mine, ref = ([], []), ([], [])
    for t in targets:
        xi = xs[len(t) if t.ndim else 0]
        for lib, acc in ((minitorch, mine), (torch, ref)):
            s, a = _asm_story(lib, config, xi, [t])
            acc[0].append(s)
            acc[1].extend(a)
    assert mine[0] == ref[0]
    for a, b in zip(mine[1], ref[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_adaptive_log_softmax_signatures_match_torch():
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]
    mine, ref = minitorch.nn.AdaptiveLogSoftmaxWithLoss, torch.nn.AdaptiveLogSoftmaxWithLoss
    for method in ("__init__", "forward", "log_prob", "predict", "reset_parameters"):
        assert params(getattr(mine, method)) == params(getattr(ref, method))
    m, r = _asm(minitorch, 16, 10, [2, 6], {}), _asm(torch, 16, 10, [2, 6], {})
    m.reset_parameters()
    r.reset_parameters()
    assert [tuple(p.shape) for p in m.parameters()] == [tuple(p.shape) for p in r.parameters()]
    assert {k: v for k, v in vars(m).items() if not k.startswith("_") and k != "training"} == \
        {k: v for k, v in vars(r).items() if not k.startswith("_") and k != "training"}


def test_adaptive_log_softmax_predict_paths_match_torch():
    """``predict``'s three paths: all rows in the shortlist, none, some (the head's weights
    set so that the head prefers a cluster on some rows)."""
    x = np.random.default_rng(22).standard_normal((6, 8)).astype(np.float32)
    outs = []
    for lib in (minitorch, torch):
        m = _asm(lib, 8, 10, [2, 6], {"head_bias": True})
        got = []
        for bias in ([9.0, 0, 0, 0], [0, 0, 9.0, -9.0], [0, 0, 0, 9.0], [0, 0, 0, 0]):
            with lib.no_grad():
                m.head.bias.copy_(lib.tensor(bias))
                m.head.weight[:, 0] = lib.tensor([0.0, 0.0, 9.0, 0.0])
            got.append((m.predict(lib.tensor(x)).tolist(),
                        m.log_prob(lib.tensor(x)).argmax(1).tolist()))
        outs.append(got)
    assert outs[0] == outs[1]
    assert all(p == a for p, a in outs[0])


def test_adaptive_log_softmax_gradcheck():
    m = _asm(minitorch, 6, 9, [2, 5], {"head_bias": True, "dtype": "float64"})
    x = minitorch.tensor(np.random.default_rng(23).standard_normal((5, 6)), requires_grad=True)
    t = minitorch.tensor([0, 3, 8, 1, 6])
    assert minitorch.autograd.gradcheck(lambda a: m(a, t).output, (x,))
    assert minitorch.autograd.gradcheck(lambda a: m.log_prob(a), (x,))
    assert minitorch.autograd.gradgradcheck(lambda a: m(a, t).loss, (x,))


@pytest.mark.parametrize("args", [
    (8, 10, []), (8, 10, [5, 2]), (8, 10, [0, 4]), (8, 10, [2, 10]), (8, 10, [2, 2, 5]),
    (8, 10, [2.5, 6]), (8, 10, [-1]), (8, 10, [9]),
])
def test_adaptive_log_softmax_bad_cutoffs_like_torch(args):
    outs = []
    for lib in (minitorch, torch):
        try:
            outs.append(repr(_asm(lib, *args, {})))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("xs,t", [
    ((3, 8), [0, 1]), ((3, 8, 2), [0, 1, 2]), ((8,), [1]), ((2, 8), 1), ((3, 8), [[0, 1, 2]]),
    ((3, 8), [0, 10, 2]), ((3, 8), [0, -1, 2]), ((3, 8), [-3, 12, 2]), ((8,), 10),
    ((0, 8), np.zeros(0, np.int64)),
])
def test_adaptive_log_softmax_bad_inputs_like_torch(xs, t):
    outs = []
    for lib in (minitorch, torch):
        m = _asm(lib, 8, 10, [2, 6], {})
        try:
            out = m(lib.zeros(*xs), lib.tensor(t))
            outs.append((out.output.tolist(), out.loss.tolist()))
        except Exception as e:
            outs.append((type(e).__name__, str(e)))
    assert str(outs[0]) == str(outs[1])

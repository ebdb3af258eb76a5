"""``broadcast_to``, ``broadcast_tensors``, ``atleast_nd``, ``ravel``, ``unflatten``, ``rot90``,
``fliplr``/``flipud``, ``hsplit``/``vsplit``/``dsplit``, ``diff`` and ``msort`` against PyTorch:
what the op table (``tests/_opinfo_samples_rearrange.py``) does not compare. The views share
memory and the version counter with their base, the copies do not, second derivatives are
checked with finite differences and against PyTorch, and Hypothesis draws shapes."""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_second_derivatives_agree
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.arange(12, dtype=np.float64).reshape(3, 4) / 7 - 0.5

VIEWS = {  # op(lib, x) -> a view of x, in both libraries
    "broadcast_to": lambda lib, x: lib.broadcast_to(x, (2, 3, 4)),
    "broadcast_tensors": lambda lib, x: lib.broadcast_tensors(x, lib.zeros(2, 1, 1))[0],
    "atleast_3d": lambda lib, x: lib.atleast_3d(x),
    "ravel": lambda lib, x: x.ravel(),
    "unflatten": lambda lib, x: x.unflatten(1, (2, -1)),
    "hsplit": lambda lib, x: lib.hsplit(x, 2)[1],
    "vsplit": lambda lib, x: x.vsplit([1])[1],
}

COPIES = {
    "rot90": lambda lib, x: lib.rot90(x, 1),
    "rot90-0": lambda lib, x: x.rot90(0),
    "fliplr": lambda lib, x: lib.fliplr(x),
    "flipud": lambda lib, x: x.flipud(),
    "diff-0": lambda lib, x: lib.diff(x, 0),
    "msort": lambda lib, x: lib.msort(x),
    "ravel-noncontig": lambda lib, x: x.t().ravel(),
}


def _both(fn, data=X, requires_grad=True):
    return [(lib, x, fn(lib, x)) for lib in (minitorch, torch)
            for x in [lib.tensor(data.copy(), requires_grad=requires_grad)]]


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_views_share_memory_with_their_base(name):
    for lib, x, v in _both(VIEWS[name]):
        assert v._base is x, (lib.__name__, name)
    results = []
    for _, y, w in _both(VIEWS[name], requires_grad=False):
        y.add_(1)  # a write into the base shows in the view, whose version is the base's
        results.append((w.numpy().copy(), w._version, y._version))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    assert results[0][1:] == results[1][1:] == (1, 1)


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copies_do_not_share_memory(name):
    for lib, x, out in _both(COPIES[name], requires_grad=False):
        before = out.numpy().copy()
        x.add_(1)
        np.testing.assert_array_equal(out.numpy(), before)
        assert out._base is None or out._base is not x, (lib.__name__, name)


def test_in_place_change_through_an_unflatten_view_reaches_the_base():
    results = []
    for lib in (minitorch, torch):
        leaf = lib.tensor(X.copy(), requires_grad=True)
        y = leaf * 2
        v = y.unflatten(1, (2, 2))
        v.mul_(3)
        (y * lib.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        results.append((y.detach().numpy(), leaf.grad.numpy(), v.grad_fn.name()))
    np.testing.assert_allclose(results[0][0], results[1][0])
    np.testing.assert_allclose(results[0][1], results[1][1])
    assert results[0][2] == results[1][2] == "AsStridedBackward0"


def test_broadcast_tensors_writes_through_expanded_views_are_refused_as_in_torch():
    errors = []
    for lib in (minitorch, torch):
        a, _ = lib.broadcast_tensors(lib.zeros(3, 1), lib.zeros(4))
        with pytest.raises(RuntimeError) as info:
            a.add_(1)
        errors.append(str(info.value)[:60])
    assert errors[0] == errors[1]


SECOND_ORDER = {
    "broadcast_to": lambda lib, x: lib.broadcast_to(x[:, :1], (2, 3, 5)) ** 3,
    "broadcast_tensors": lambda lib, x: lib.broadcast_tensors(x[:1], x[:, 1:2])[1] ** 3 * x,
    "atleast_3d": lambda lib, x: lib.atleast_3d(x[0]) ** 3,
    "ravel": lambda lib, x: x.t().ravel() ** 3,
    "unflatten": lambda lib, x: x.unflatten(1, (2, 2)) ** 3,
    "rot90": lambda lib, x: lib.rot90(x ** 2, 1) * lib.rot90(x, -1),
    "rot90-3-d": lambda lib, x: lib.rot90(x.reshape(2, 3, 2) ** 2, 3, (2, 0)),
    "fliplr": lambda lib, x: lib.fliplr(x) ** 3,
    "flipud": lambda lib, x: x.flipud() * x,
    "hsplit": lambda lib, x: lib.hsplit(x, [1, 3])[1] ** 3,
    "dsplit": lambda lib, x: lib.dsplit(x.reshape(3, 2, 2), 2)[0] ** 3,
    "diff": lambda lib, x: lib.diff(x ** 3, 2),
    "diff-prepend": lambda lib, x: lib.diff(x, 1, 0, prepend=x[:1] ** 2, append=x * x) ** 2,
    "diff-0": lambda lib, x: lib.diff(x, 0) ** 3,
    "msort": lambda lib, x: lib.msort(x.t()) ** 3,
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives_match_finite_differences_and_torch(name):
    assert_second_derivatives_agree(SECOND_ORDER[name], X, minitorch, torch)


def test_grad_fn_is_printed_as_pytorch_prints_it():
    for name, fn in [("Rot90Backward0", lambda lib, x: x.rot90()),
                     ("FlipBackward0", lambda lib, x: lib.fliplr(x)),
                     ("SubBackward0", lambda lib, x: lib.diff(x)),
                     ("SortBackward0", lambda lib, x: x.msort()),
                     ("ExpandBackward0", lambda lib, x: x.broadcast_to((2, 3, 4))),
                     ("ViewBackward0", lambda lib, x: x.ravel()),
                     ("CopyBackwards", lambda lib, x: x.diff(0))]:
        mine, ref = (repr(out).split("grad_fn=")[1] for _, _, out in _both(fn))
        assert mine.startswith(f"<{name}") and ref.startswith(f"<{name}"), (mine, ref)


def test_tensor_methods_exist_where_torch_has_them():
    for name in ("broadcast_to", "ravel", "unflatten", "rot90", "fliplr", "flipud", "hsplit",
                 "vsplit", "dsplit", "diff", "msort"):
        assert hasattr(torch.Tensor, name) and hasattr(minitorch.Tensor, name), name
    for name in ("broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d"):
        assert hasattr(minitorch, name) and not hasattr(minitorch.Tensor, name), name


def _same(mine, ref):
    assert mine.dtype == minitorch.from_numpy(ref.numpy()).dtype
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())


@settings(max_examples=40, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=4, max_side=3))
def test_broadcast_tensors_of_any_shapes_like_torch(shapes):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes.input_shapes]
    mine = minitorch.broadcast_tensors(*(minitorch.from_numpy(a.copy()) for a in arrays))
    ref = torch.broadcast_tensors(*(torch.from_numpy(a.copy()) for a in arrays))
    assert [tuple(t.shape) for t in mine] == [tuple(t.shape) for t in ref]
    for m, r in zip(mine, ref):
        _same(m, r)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=4), st.integers(-5, 5),
       st.data())
def test_rot90_of_any_shape_k_and_dims_like_torch(shape, k, data):
    ndim = len(shape)
    d0, d1 = data.draw(st.lists(st.integers(0, ndim - 1), min_size=2, max_size=2, unique=True))
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    mine = minitorch.rot90(minitorch.from_numpy(x.copy()), k, (d0, d1 - ndim))
    ref = torch.rot90(torch.from_numpy(x.copy()), k, (d0, d1 - ndim))
    assert tuple(mine.shape) == tuple(ref.shape)
    if mine.numel():  # (minitorch gives an empty tensor strides of 0, PyTorch does not)
        assert mine.stride() == ref.stride()
    _same(mine, ref)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5), st.integers(0, 6),
       st.sampled_from([np.float64, np.int64, np.int32, np.uint8, np.bool_]), st.data())
def test_diff_of_any_shape_n_and_dtype_like_torch(shape, n, dtype, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = np.random.default_rng(1).integers(0, 9, shape).astype(dtype)
    _same(minitorch.diff(minitorch.from_numpy(x.copy()), n, dim),
          torch.diff(torch.from_numpy(x.copy()), n, dim))


@settings(max_examples=30, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4), st.data())
def test_unflatten_of_any_shape_like_torch(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1))
    size = shape[dim]
    factors = [f for f in range(1, size + 1) if size % f == 0] or [1]
    f = data.draw(st.sampled_from(factors))
    sizes = data.draw(st.sampled_from([(f, size // f), (-1, f), (f, -1, 1)])) if size else (1, 0)
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    _same(minitorch.from_numpy(x.copy()).unflatten(dim, sizes),
          torch.from_numpy(x.copy()).unflatten(dim, sizes))

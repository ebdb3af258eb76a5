"""``searchsorted``, ``bucketize``, ``isin`` and ``histc`` against PyTorch over shapes, values
and dtypes that Hypothesis draws: what the op table (``tests/_opinfo_samples_search.py``) does
not reach. Sequences with ties and NaN (sorted as PyTorch sorts, NaN last) and with a
``sorter``, values on and between the boundaries, histograms whose elements fall on the bin
edges; all must agree exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

# few distinct values, so that ties and exact hits are common
_SMALL = st.sampled_from([-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, -np.inf, np.nan])


def _both(fn, *arrays, **kw):
    """``fn`` of both libraries on the same arrays (copied), as NumPy arrays."""
    out = []
    for lib in (minitorch, torch):
        args = [lib.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a for a in arrays]
        r = getattr(lib, fn)(*args, **kw)
        out.append((str(r.dtype).replace("torch.", ""), r.numpy()))
    return out


def _assert_same(pair):
    (dm, m), (dr, r) = pair
    assert dm == dr
    np.testing.assert_array_equal(m, r)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(0, 9), elements=_SMALL),
       hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4),
                  elements=_SMALL),
       st.booleans(), st.booleans())
def test_searchsorted_of_sorted_sequences_with_ties_and_nan(seq, values, right, use_sorter):
    kw = {"right": right}
    if use_sorter:  # search the unsorted sequence through the order that sorts it
        rng = np.random.default_rng(len(seq))
        seq = rng.permutation(seq)
        order = np.argsort(seq, kind="stable")  # NumPy sorts NaN last, as PyTorch does
        pair = _both_with_sorter(seq, values, order, right)
    else:
        pair = _both("searchsorted", np.sort(seq), values, **kw)
    _assert_same(pair)


def _both_with_sorter(seq, values, order, right):
    out = []
    for lib in (minitorch, torch):
        r = lib.searchsorted(lib.from_numpy(seq.copy()), lib.from_numpy(values.copy()),
                             right=right, sorter=lib.from_numpy(order.copy()))
        out.append((str(r.dtype).replace("torch.", ""), r.numpy()))
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(0, 6), st.integers(0, 5), st.booleans(),
       st.sampled_from([np.float64, np.int64, np.int32, np.float16]))
def test_searchsorted_row_by_row(rows, n, m, out_int32, dtype):
    rng = np.random.default_rng(rows * 100 + n * 10 + m)
    seq = np.sort(rng.integers(-3, 4, (rows, n)), axis=1).astype(dtype)
    values = rng.integers(-4, 5, (rows, m)).astype(dtype)
    _assert_same(_both("searchsorted", seq, values, out_int32=out_int32))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 6), elements=_SMALL.filter(lambda v: v == v)),
       hnp.arrays(np.float32, st.integers(0, 8), elements=_SMALL), st.booleans())
def test_bucketize_is_searchsorted_of_the_boundaries(boundaries, values, right):
    boundaries = np.sort(boundaries)
    _assert_same(_both("bucketize", values, boundaries, right=right))
    mine = minitorch.bucketize(minitorch.from_numpy(values.copy()),
                               minitorch.from_numpy(boundaries.copy()), right=right)
    same = minitorch.searchsorted(minitorch.from_numpy(boundaries.copy()),
                                  minitorch.from_numpy(values.copy()), right=right)
    assert minitorch.equal(mine, same)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
                  elements=_SMALL),
       hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
                  elements=_SMALL),
       st.booleans(), st.sampled_from([np.float32, np.float64, np.int64, np.int16]))
def test_isin_like_torch(elements, tests, invert, dtype):
    if np.dtype(dtype).kind == "i":  # integers: no inf or NaN
        elements = np.nan_to_num(elements, posinf=9, neginf=-9).astype(dtype)
        tests = np.nan_to_num(tests, posinf=9, neginf=-9).astype(dtype)
    _assert_same(_both("isin", elements, np.ascontiguousarray(tests), invert=invert))


@settings(max_examples=80, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float32, np.float64, np.float16]), st.integers(0, 40),
                  elements=st.floats(-4, 4, width=16) | st.sampled_from([np.nan, -0.0])),
       st.integers(1, 12),
       st.sampled_from([(0, 0), (-1, 1), (0, 3), (-4, 4), (0.1, 0.7), (-2.5, 1.5), (1, 1)]))
def test_histc_counts_every_element_as_torch_does(x, bins, bounds):
    lo, hi = bounds
    if lo == hi and np.isnan(x).any():  # the range is found from the data: NaN, an error
        messages = []
        for lib in (minitorch, torch):
            with pytest.raises(RuntimeError) as info:
                lib.histc(lib.from_numpy(x.copy()), bins, lo, hi)
            messages.append(str(info.value).replace("-nan", "nan"))  # (KNOWN_DIFFERENCES)
        assert messages[0] == messages[1]
        return
    _assert_same(_both("histc", x, bins, lo, hi))


def test_none_of_them_records_a_gradient():
    x = minitorch.tensor([0.5, 1.5, 2.5], requires_grad=True)
    seq = minitorch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    for out in (minitorch.searchsorted(seq, x), minitorch.bucketize(x, seq),
                minitorch.isin(x, seq), minitorch.histc(x, 3), x.histc(3)):
        assert not out.requires_grad and out.grad_fn is None


def test_tensor_methods_exist_where_torch_has_them():
    assert hasattr(torch.Tensor, "histc") and hasattr(minitorch.Tensor, "histc")
    for name in ("searchsorted", "bucketize", "isin"):
        assert not hasattr(torch.Tensor, name) and not hasattr(minitorch.Tensor, name), name


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
                  elements=st.sampled_from([0.0, -0.0, 1.0, 2.0, np.nan])), st.data())
def test_unique_consecutive_like_torch(x, data):
    dim = data.draw(st.none() | st.integers(-max(x.ndim, 1), max(x.ndim, 1) - 1))
    if dim is not None and (x.ndim == 0 or any(s == 0 for i, s in enumerate(x.shape)
                                               if i != dim % x.ndim)):
        errors = []  # a 0-d tensor has no dim; PyTorch refuses other empty dims than dim's
        for lib in (minitorch, torch):
            with pytest.raises((IndexError, RuntimeError)) as info:
                lib.unique_consecutive(lib.from_numpy(x.copy()), True, True, dim)
            errors.append((info.type, str(info.value)))
        assert errors[0] == errors[1]
        return
    mine, ref = (lib.unique_consecutive(lib.from_numpy(x.copy()), True, True, dim)
                 for lib in (minitorch, torch))
    for m, r in zip(mine, ref):
        assert str(m.dtype) == str(r.dtype)
        np.testing.assert_array_equal(m.numpy(), r.numpy())


@settings(max_examples=60, deadline=None)
@given(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=5),
       hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2, max_side=4),
                  elements=st.integers(-200, 200)))
def test_unravel_index_like_torch(shape, indices):
    mine, ref = (lib.unravel_index(lib.from_numpy(indices.copy()), shape)
                 for lib in (minitorch, torch))
    assert len(mine) == len(ref)
    for m, r in zip(mine, ref):
        assert str(m.dtype) == str(r.dtype)
        np.testing.assert_array_equal(m.numpy(), r.numpy())


@pytest.mark.parametrize("name", ["unique", "unique_consecutive"])
@pytest.mark.parametrize("shape", [(0, 0), (2, 0), (0, 3), (0, 0, 1), (1, 0, 0), (0,), (0, 0, 0),
                                   (2, 0, 3)])
def test_unique_along_a_dim_of_an_empty_tensor_like_torch(name, shape):
    """Which empty dimensions PyTorch refuses, and which of its two messages it gives (it asks
    first whether an empty dimension is not the one selected): ``unique`` gave a result and
    ``unique_consecutive`` the other message for (0, 0, 1) along -1 (CI's Hypothesis draw)."""
    for dim in range(-len(shape), len(shape)):
        outcomes = []
        for lib in (minitorch, torch):
            try:
                out = getattr(lib, name)(lib.zeros(shape), dim=dim, return_inverse=True,
                                         return_counts=True)
                outcomes.append([tuple(t.shape) for t in out])
            except RuntimeError as e:
                outcomes.append(str(e))
        assert outcomes[0] == outcomes[1], dim

"""``logspace``, ``tril_indices``, ``triu_indices`` and ``range`` against PyTorch: the
deprecation warning of ``range`` on every call, and Hypothesis over the numbers, steps, bases
and dtypes, where the values must agree to the last bit (the op table,
``tests/_opinfo_samples_factories.py``, compares them within a tolerance)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _warnings_of(lib, calls: int) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(calls):
            lib.range(0, 2)
    return [(w.category, str(w.message)) for w in caught]


def test_range_warns_on_every_call_as_torch_does():
    mine, ref = _warnings_of(minitorch, 2), _warnings_of(torch, 2)
    assert mine == ref and len(mine) == 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minitorch.range(0, 2)
    assert caught[0].filename == __file__  # it points at the line that called range


def _same(mine, ref):
    assert str(mine.dtype) == str(ref.dtype)
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())


_DTYPES = st.sampled_from(["float32", "float64", "float16", "int64", "int32", "int16"])


@settings(max_examples=100, deadline=None)
@given(st.floats(-8, 8), st.floats(-8, 8), st.integers(0, 70),
       st.sampled_from([10.0, 2.0, 0.5, 3.7, 1.0]), _DTYPES)
def test_logspace_like_torch(start, end, steps, base, dtype):
    mine = minitorch.logspace(start, end, steps, base, dtype=getattr(minitorch, dtype))
    ref = torch.logspace(start, end, steps, base, dtype=getattr(torch, dtype))
    assert str(mine.dtype) == str(ref.dtype)
    m, r = mine.numpy(), ref.numpy()
    if dtype.startswith("int"):  # a power too large for the int dtype is undefined in C++
        fits = np.abs(r.astype(np.float64)) < np.iinfo(dtype).max / 2
        m, r = m[fits], r[fits]
    np.testing.assert_array_equal(m, r)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 9), st.integers(0, 9), st.integers(-12, 12),
       st.sampled_from(["int64", "int32"]), st.booleans())
def test_triangle_indices_like_torch(row, col, offset, dtype, lower):
    name = "tril_indices" if lower else "triu_indices"
    _same(getattr(minitorch, name)(row, col, offset, dtype=getattr(minitorch, dtype)),
          getattr(torch, name)(row, col, offset, dtype=getattr(torch, dtype)))


@settings(max_examples=80, deadline=None)
@given(st.floats(-50, 50), st.floats(0.01, 20), st.integers(0, 60),
       st.sampled_from(["float32", "float64"]), st.booleans())
def test_range_like_torch(start, step, count, dtype, down):
    end = start + step * count * (1 if not down else -1)
    step = -step if down else step
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(minitorch.range(start, end, step, dtype=getattr(minitorch, dtype)),
              torch.range(start, end, step, dtype=getattr(torch, dtype)))

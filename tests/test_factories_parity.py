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


# misc2: sizes too big for memory: PyTorch's RuntimeErrors (its 64-bit byte count overflows,
# or its allocator has not that much memory), not NumPy's ValueError or MemoryError
_HUGE = 2**62
_TOO_BIG = 2**46  # float32: 256 TiB, more than a 64-bit address space holds
HUGE_CALLS = {
    "zeros": lambda lib: lib.zeros(_HUGE), "zeros-2d": lambda lib: lib.zeros(2**40, 2**40),
    "ones": lambda lib: lib.ones(_HUGE), "empty": lambda lib: lib.empty(_HUGE),
    "full": lambda lib: lib.full((_HUGE,), 1.0), "rand": lambda lib: lib.rand(_HUGE),
    "randn": lambda lib: lib.randn(_HUGE), "randint": lambda lib: lib.randint(0, 5, (_HUGE,)),
    "randperm": lambda lib: lib.randperm(_HUGE), "arange": lambda lib: lib.arange(_HUGE),
    "arange-float": lambda lib: lib.arange(0, 2.0**62),
    "linspace": lambda lib: lib.linspace(0, 1, _HUGE),
    "logspace": lambda lib: lib.logspace(0, 1, _HUGE), "eye": lambda lib: lib.eye(2**31),
    "kaiser_window": lambda lib: lib.kaiser_window(_HUGE),
    "hann_window": lambda lib: lib.hann_window(_HUGE),
    "bartlett_window": lambda lib: lib.bartlett_window(_HUGE, periodic=False),
    "empty_strided": lambda lib: lib.empty_strided((_HUGE,), (1,)),
    "new_zeros": lambda lib: lib.ones(1).new_zeros(_HUGE),
    "float64": lambda lib: lib.zeros(2**61, dtype=lib.float64),
    "int64-max": lambda lib: lib.zeros(2**63 - 1),
    "no-memory-zeros": lambda lib: lib.zeros(_TOO_BIG),
    "no-memory-empty": lambda lib: lib.empty(_TOO_BIG),
    "no-memory-int8": lambda lib: lib.zeros(_HUGE, dtype=lib.int8),
}


@pytest.mark.parametrize("name", list(HUGE_CALLS))
def test_factories_too_big_for_memory_like_torch(name):
    outs = []
    for lib in (torch, minitorch):
        try:
            HUGE_CALLS[name](lib)
            outs.append("made")
        except Exception as e:  # (its type is compared)
            outs.append((type(e).__name__, str(e).split(" (Cannot")[0]))
    assert outs[1] == outs[0]

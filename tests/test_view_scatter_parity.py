"""``select_scatter``, ``slice_scatter`` and ``diagonal_scatter`` against PyTorch: what the op
table (``tests/_opinfo_samples_view_scatter.py``) does not compare. The result is a copy (the
input is left as it was), second derivatives with respect to both inputs agree with finite
differences and torch, and Hypothesis draws shapes, dims and slices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.arange(12, dtype=np.float64).reshape(3, 4) / 7 - 0.5
CALLS = {
    "select_scatter": lambda lib, x, s: lib.select_scatter(x, s[0], 0, 1),
    "slice_scatter": lambda lib, x, s: x.slice_scatter(s[:, 1:3], 1, 1, 4, 2),
    "diagonal_scatter": lambda lib, x, s: lib.diagonal_scatter(x, s[:2, 0], -1),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_the_result_is_a_copy(name):
    for lib in (minitorch, torch):
        x, s = lib.tensor(X.copy()), lib.tensor(X.copy() + 1)
        out = CALLS[name](lib, x, s)
        assert out._base is None
        np.testing.assert_array_equal(x.numpy(), X)  # the input is as it was
        out.add_(1)
        np.testing.assert_array_equal(x.numpy(), X)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_second_derivatives_for_both_inputs(name):
    def fn(lib, x, s):
        return CALLS[name](lib, x * x, (s * x).sin()) ** 3

    x0, s0 = (minitorch.tensor(v, requires_grad=True) for v in (X.copy(), X.copy() + 0.3))
    assert minitorch.autograd.gradgradcheck(lambda x, s: fn(minitorch, x, s), (x0, s0))
    grads = []
    for lib in (minitorch, torch):
        x, s = (lib.tensor(v, requires_grad=True) for v in (X.copy(), X.copy() + 0.3))
        gx, gs = lib.autograd.grad(fn(lib, x, s).sum(), (x, s), create_graph=True)
        ggx, ggs = lib.autograd.grad((gx * gs).sum(), (x, s))
        grads.append([t.detach().numpy() for t in (gx, gs, ggx, ggs)])
    for m, r in zip(*grads):
        np.testing.assert_allclose(m, r, rtol=1e-10, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5), st.data())
def test_slice_scatter_of_any_slice_like_torch(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1))
    start = data.draw(st.none() | st.integers(-7, 7))
    end = data.draw(st.none() | st.integers(-7, 7))
    step = data.draw(st.integers(1, 3))
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    part = x[(slice(None),) * dim + (slice(start, end, step),)]
    src = -1 - np.arange(part.size, dtype=np.float32).reshape(part.shape)
    mine, ref = (lib.slice_scatter(lib.from_numpy(x.copy()), lib.from_numpy(src.copy()), dim,
                                   start, end, step) for lib in (minitorch, torch))
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())

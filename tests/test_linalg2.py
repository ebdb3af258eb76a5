"""Task linalg2: gradients of ``addmv``, ``addr`` and ``index_reduce`` against finite
differences in float64 (first and second order), so that PyTorch is not the only oracle.
The comparisons with PyTorch are in the op table (``tests/_opinfo_samples_linalg2.py``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch
from minitorch.autograd import gradcheck, gradgradcheck

rng = np.random.default_rng(7)


def _t(*shape):
    return minitorch.tensor(rng.standard_normal(shape), dtype=minitorch.float64,
                            requires_grad=True)


@pytest.mark.parametrize("kw", [{}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0}])
def test_addmv_addr_gradcheck(kw):
    x, m, v = _t(3), _t(3, 4), _t(4)
    f = lambda x, m, v: minitorch.addmv(x, m, v, **kw)  # noqa: E731
    assert gradcheck(f, (x, m, v)) and gradgradcheck(f, (x, m, v))
    x, v1, v2 = _t(4), _t(3), _t(4)  # input broadcast to (3, 4)
    f = lambda x, a, b: minitorch.addr(x, a, b, **kw)  # noqa: E731
    assert gradcheck(f, (x, v1, v2)) and gradgradcheck(f, (x, v1, v2))


@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_index_reduce_gradcheck(reduce, include_self):
    x, src = _t(4, 3), _t(5, 3)
    index = minitorch.tensor([0, 2, 0, 3, 2])

    def f(x, src):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return minitorch.index_reduce(x, 0, index, src, reduce, include_self=include_self)
    assert gradcheck(f, (x, src)) and gradgradcheck(f, (x, src))


def test_index_reduce_prod_single_zero_gradcheck():
    """A single zero factor in a slot: its gradient is the product of the others, not 0."""
    x, src = _t(3, 2), _t(3, 2)
    with minitorch.no_grad():
        src[1, 0] = 0.0
        x[2, 1] = 0.0
    index = minitorch.tensor([0, 2, 0])

    def f(x, src):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return minitorch.index_reduce(x, 0, index, src, "prod")
    assert gradcheck(f, (x, src))


def test_index_reduce_warns_once_as_pytorch():
    import minitorch._warnings as w

    w._given.discard("index_reduce")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            minitorch.zeros(2).index_reduce(0, minitorch.tensor([1]), minitorch.ones(1), "amax")
    assert [str(c.message) for c in caught] == [
        "index_reduce() is in beta and the API may change at any time."]

"""``scatter(dim, index, src | value, reduce="add" | "multiply")`` and ``scatter_``, PyTorch's
older reducing scatter: repeated indices add up (or multiply), float16 as PyTorch rounds it,
its NotImplemented node whose backward raises, and its error for another ``reduce``. minitorch
raised NotImplementedError for every ``reduce`` before.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")

_RNG = np.random.default_rng(0)
_X = _RNG.standard_normal((3, 4)).astype(np.float32) * 3
_SRC = _RNG.standard_normal((2, 4)).astype(np.float32) * 3
_INDEX = np.array([[0, 1, 2, 0], [0, 2, 0, 1]])  # row 0 of column 0 is hit twice

FORMS = {
    "tensor": lambda x, i, s, r: x.scatter(0, i, s, reduce=r),
    "value": lambda x, i, s, r: x.scatter(0, i, 2.5 if x.is_floating_point() else 3, reduce=r),
    "in place": lambda x, i, s, r: x.scatter_(0, i, s, reduce=r),
    "value in place": lambda x, i, s, r: x.scatter_(0, i, value=2, reduce=r),
    "dim 1": lambda x, i, s, r: x.scatter(1, i[:, :2].t().contiguous(), s[:, :2].t() * 1,
                                          reduce=r),
}


def _outcome(lib, form, dtype, reduce, grad):
    x = lib.tensor(_X).to(getattr(lib, dtype))
    src = lib.tensor(_SRC).to(getattr(lib, dtype))
    if grad:
        x.requires_grad_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation of reduce= with a Tensor src
        try:
            out = FORMS[form](x * 1 if grad else x, lib.tensor(_INDEX), src, reduce)
        except RuntimeError as e:
            return str(e)
    result = [str(out.dtype).split(".")[-1], [repr(v) for v in out.reshape(-1).tolist()]]
    if grad:
        result.append(out.grad_fn.name())
        with pytest.raises(RuntimeError) as info:
            out.sum().backward()
        result.append(str(info.value))
    return result


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("reduce", ["add", "multiply", "mean"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_reducing_scatter_like_torch(form, reduce, dtype):
    grad = dtype != "int64" and "in place" not in form
    assert (_outcome(minitorch, form, dtype, reduce, grad)
            == _outcome(torch, form, dtype, reduce, grad))

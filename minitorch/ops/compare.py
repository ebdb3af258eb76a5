"""``isclose`` and ``allclose``: equal up to a tolerance, elementwise or for a whole tensor.

``a`` is close to ``b`` when ``|a - b| <= atol + rtol * |b|`` (so the test is not symmetric:
``b`` is the reference), or when they are equal (so ``inf`` is close to ``inf``); NaN is close
to NaN only with ``equal_nan=True``. As in PyTorch, both tensors must have the same dtype, and
the tolerances are applied in that dtype (integers and bools are converted to float32).

Example:
    >>> import minitorch
    >>> minitorch.isclose(minitorch.tensor([1.0, 2.0]), minitorch.tensor([1.0 + 1e-6, 2.1]))
    tensor([ True, False])
"""

from __future__ import annotations

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.ops._util import broadcast_error, check_tensor

__all__ = ["isclose", "allclose"]


def _short(t: Tensor) -> str:
    return t.dtype._legacy[:-6]  # "FloatTensor" -> "Float"


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
            equal_nan: bool = False) -> Tensor:
    """Elementwise: whether ``input`` is within ``atol + rtol * |other|`` of ``other``."""
    check_tensor(other, "isclose", "other", 2)
    a, b = input._data, other._data
    if a.dtype != b.dtype:
        raise RuntimeError(f"{_short(input)} did not match {_short(other)}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol:g}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol:g}")
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    xp = array_module(a)
    close = a == b
    if equal_nan and a.dtype.kind == "f":
        close = close | (xp.isnan(a) & xp.isnan(b))
    if rtol == 0 and atol == 0:
        return _wrap(xp.asarray(close))
    # The tolerance in the tensors' dtype, each step rounded as PyTorch rounds it: float16
    # computes in float32 and rounds every result; integers and bools compare in float32.
    if a.dtype.kind == "f":
        dt, opmath = a.dtype, (np.float64 if a.dtype == np.float64 else np.float32)
        scaled = (opmath(rtol) * b.astype(opmath)).astype(dt)
        allowed = (opmath(atol) + xp.abs(scaled).astype(opmath)).astype(dt)
        with np.errstate(invalid="ignore", over="ignore"):
            actual = xp.abs(a - b)
    else:  # integers and bools: both converted to the default float dtype first
        f = _dtype.get_default_dtype().np.type
        a, b = a.astype(f), b.astype(f)
        allowed = f(atol) + xp.abs(f(rtol) * b)
        actual = xp.abs(a - b)
    with np.errstate(invalid="ignore"):
        close = close | (xp.isfinite(actual) & (actual <= allowed))
    return _wrap(xp.asarray(close))


def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
             equal_nan: bool = False) -> bool:
    """Whether every element of ``input`` is close to ``other`` (see :func:`isclose`)."""
    check_tensor(other, "allclose", "other", 2)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())

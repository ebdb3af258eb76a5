"""``round``: to the nearest integer (halves to the even neighbour), or to ``decimals`` places.

Like ``ceil`` and ``floor`` it is a step function, so its derivative is 0 wherever it exists.
PyTorch rounds ``x`` to ``decimals`` places as ``nearbyint(x * 10**decimals) / 10**decimals``
(``nearbyint(x / 10**-decimals) * 10**-decimals`` for negative ``decimals``), in float32 for
float16 and float32 tensors; so does minitorch, so that the last bit agrees too.

Example:
    >>> import minitorch
    >>> minitorch.round(minitorch.tensor([0.5, 1.5, 2.5, -1.26]))
    tensor([ 0.,  2.,  2., -1.])
    >>> minitorch.round(minitorch.tensor([1.2345]), decimals=2)
    tensor([1.2300])
"""

from __future__ import annotations

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.ops.unary import Ceil

__all__ = ["round"]


class Round(Ceil):
    """``round``: halves go to the even neighbour (``round(2.5)`` is 2). Derivative 0."""

    node_name = "RoundBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        x = a._data
        if x.dtype == np.bool_:
            raise NotImplementedError("\"round_vml_cpu\" not implemented for 'Bool'")
        return _wrap(np.rint(x)) if x.dtype.kind == "f" else _wrap(x.copy())


class RoundDecimals(Ceil):
    """``round(decimals=d)``: rounded to ``d`` decimal places (derivative 0)."""

    node_name = "RoundBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, decimals):
        x = a._data
        if x.dtype.kind != "f":  # decimals=0 hands integers to round's own kernel
            kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
            raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                      f"'{a.dtype._legacy[:-6]}'")
        opmath = np.float64 if x.dtype == np.float64 else np.float32
        scale = opmath(10.0 ** abs(decimals))
        y = x.astype(opmath)
        with np.errstate(over="ignore", invalid="ignore"):
            out = np.rint(y / scale) * scale if decimals < 0 else np.rint(y * scale) / scale
        return _wrap(out.astype(x.dtype))


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001, A002
    """Round to the nearest integer, halves to even (``decimals``: to that many decimal
    places; a negative number rounds to tens, hundreds, ...). The dtype stays."""
    if decimals == 0:
        return Round.apply(input)
    return RoundDecimals.apply(input, int(decimals))

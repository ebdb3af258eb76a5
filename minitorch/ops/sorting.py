"""Sorting-family operations: ``unique``.

Example:
    >>> import minitorch
    >>> minitorch.unique(minitorch.tensor([3, 1, 2, 3, 1]), return_counts=True)
    (tensor([1, 2, 3]), tensor([2, 1, 2]))
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module, to_numpy
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import normalize_dim

__all__ = ["unique"]


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
           return_counts: bool = False, dim: int | None = None):
    """The distinct values of ``input`` (or distinct slices along ``dim``), in ascending order.

    Args:
        sorted: accepted for PyTorch compatibility; the CPU result is always sorted, as
            PyTorch's is.
        return_inverse: also return, for each element of ``input``, the position of its value
            in the result (so ``result[inverse]`` rebuilds ``input``).
        return_counts: also return how often each distinct value occurs.

    Returns a tensor, or a tuple ``(values, inverse?, counts?)`` when either flag is set.
    ``unique`` is not differentiable: as in PyTorch, the values of an input that requires grad
    are recorded (``Unique2Backward0``), and backward through them raises.
    """
    data = to_numpy(input._data)
    if dim is None:
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(data.shape)
    else:
        d = normalize_dim(dim, data.ndim)
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True,
                                            axis=d)
        inverse = inverse.reshape(-1)
    xp = array_module(input._data)  # a GPU input gives GPU results
    node = Unique if dim is None else UniqueDim
    out = [node.apply(input, xp.asarray(values))]
    if return_inverse:
        out.append(_wrap(xp.asarray(inverse.astype(np.int64))))
    if return_counts:
        out.append(_wrap(xp.asarray(counts.astype(np.int64))))
    return out[0] if len(out) == 1 else tuple(out)


class Unique(Function):
    """The values ``unique`` found (computed by :func:`unique`). As in PyTorch, the result of
    an input that requires grad is recorded, but has no derivative: backward raises."""

    node_name = "Unique2Backward0"
    _builtin = True
    _aten_name = "_unique2"

    @staticmethod
    def forward(ctx, input, values):  # noqa: A002
        return _wrap(values)

    @classmethod
    def backward(cls, ctx, grad):
        raise NotImplementedError(f"the derivative for '{cls._aten_name}' is not implemented.")


class UniqueDim(Unique):
    """``unique(..., dim=d)``: the same, under PyTorch's other name."""

    node_name = "UniqueDimBackward0"
    _builtin = True
    _aten_name = "unique_dim"

"""Sorting-family operations: ``unique``.

Example:
    >>> import minitorch
    >>> minitorch.unique(minitorch.tensor([3, 1, 2, 3, 1]), return_counts=True)
    (tensor([1, 2, 3]), tensor([2, 1, 2]))
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import to_numpy
from minitorch._tensor import Tensor, _wrap
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
    The result has no gradient (as in PyTorch, ``unique`` is not differentiable).
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
    out = [_wrap(values)]
    if return_inverse:
        out.append(_wrap(inverse.astype(np.int64)))
    if return_counts:
        out.append(_wrap(counts.astype(np.int64)))
    if input._data.__class__ is not np.ndarray:  # a GPU input gives GPU results
        out = [t.to(input.device) for t in out]
    return out[0] if len(out) == 1 else tuple(out)

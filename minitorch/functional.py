"""``minitorch.functional``: the tensor functions PyTorch keeps in ``torch.functional``.

(Not to be confused with :mod:`minitorch.nn.functional`, the layers as functions.) These are
small compositions of minitorch operations, so autograd records them like any other code:

* :func:`broadcast_tensors`, :func:`broadcast_shapes`, :func:`meshgrid`;
* :func:`atleast_1d`, :func:`atleast_2d`, :func:`atleast_3d`;
* :func:`tensordot`, :func:`cartesian_prod`, :func:`chain_matmul`;
* :func:`split`, :func:`norm`, :func:`unique` (the same functions as ``minitorch.*``).

Example:
    >>> import minitorch
    >>> xs, ys = minitorch.functional.meshgrid(minitorch.arange(2), minitorch.arange(3),
    ...                                        indexing="ij")
    >>> xs
    tensor([[0, 0, 0],
            [1, 1, 1]])
"""

from __future__ import annotations

import warnings
from functools import reduce

from minitorch._tensor import Tensor
from minitorch.ops import linalg as _linalg
from minitorch.ops import shape as _shape
from minitorch.ops.reduction import norm
from minitorch.ops.shape import split
from minitorch.ops.sorting import unique

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "chain_matmul", "meshgrid", "norm", "split", "tensordot",
           "unique"]


def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` broadcast to."""
    from minitorch import broadcast_shapes as _bs  # noqa: PLC0415

    return _bs(*shapes)


def _tensors(args) -> tuple:
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else args


def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded (as views, ``ExpandBackward0``) to their common shape."""
    tensors = _tensors(tensors)
    shape = tuple(broadcast_shapes(*[t.shape for t in tensors]))
    return tuple(t if tuple(t.shape) == shape else _shape.expand(t, shape) for t in tensors)


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids from 1-D tensors: with ``indexing="ij"`` the ``k``-th output varies
    along dimension ``k``; ``"xy"`` swaps the first two dimensions (as NumPy's default)."""
    tensors = _tensors(tensors)
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the "
                      "indexing argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                           f"received: {indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0], *tensors[2:])
    n = len(tensors)
    shape = tuple(t.numel() for t in tensors)
    grids = []
    for k, t in enumerate(tensors):
        view = [1] * n
        view[k] = -1
        grids.append(_shape.expand(t.reshape(*view), shape))
    if swap:  # the grids already have the "xy" shape; give them back in argument order
        grids = [grids[1], grids[0], *grids[2:]]
    return tuple(grids)


def _atleast(ndim: int, tensors):
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    out = []
    for t in _tensors(tensors):
        if t.dim() == 0:
            t = t.reshape(*([1] * ndim))
        elif ndim == 3 and t.dim() == 1:
            t = t.reshape(1, -1, 1)
        elif ndim >= 2 and t.dim() == 1:
            t = t.unsqueeze(0)
        elif ndim == 3 and t.dim() == 2:
            t = t.unsqueeze(-1)
        out.append(t)
    return out[0] if single else tuple(out)


def atleast_1d(*tensors):
    """Each tensor with at least one dimension (a number becomes ``[x]``)."""
    return _atleast(1, tensors)


def atleast_2d(*tensors):
    """Each tensor with at least two dimensions (a vector becomes a row)."""
    return _atleast(2, tensors)


def atleast_3d(*tensors):
    """Each tensor with at least three dimensions (as NumPy's ``atleast_3d``)."""
    return _atleast(3, tensors)


def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Sum the products over the last ``dims`` dimensions of ``a`` and the first ``dims`` of
    ``b`` (or over the listed pairs ``([a_dims], [b_dims])``), as one matrix product."""
    if isinstance(dims, int):
        dims_a = list(range(a.dim() - dims, a.dim()))
        dims_b = list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    k = 1
    for d in dims_a:
        k *= a.shape[d]
    left = a.permute(*free_a, *dims_a).reshape(-1, k)
    right = b.permute(*dims_b, *free_b).reshape(k, -1)
    out_shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    return _linalg.mm(left, right).reshape(*out_shape)


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each 1-D tensor, one per row."""
    tensors = _tensors(tensors)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return _shape.stack([g.reshape(-1) for g in grids], 1)


def chain_matmul(*matrices) -> Tensor:
    """The product of several matrices (deprecated in PyTorch for ``linalg.multi_dot``)."""
    matrices = _tensors(matrices)
    return reduce(_linalg.mm, matrices)

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

import numpy as np

from minitorch import linalg as _linalg_api
from minitorch._out import copy_into_out
from minitorch._size import Size
from minitorch._tensor import Tensor
from minitorch._warnings import warn_once
from minitorch.ops import shape as _shape
from minitorch.ops.linalg import tensordot
from minitorch.ops.rearrange import (  # torch.functional's names for them
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_tensors,
)
from minitorch.ops.reduction import vector_norm
from minitorch.ops.shape import split
from minitorch.ops.sorting import unique

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "chain_matmul", "meshgrid", "norm", "split", "tensordot",
           "unique"]


def broadcast_shapes(*shapes) -> Size:
    """The shape that tensors of ``shapes`` broadcast to, or PyTorch's error.

    Each shape is matched from the right: a dimension of 1 stretches to the other's size.

    >>> broadcast_shapes((2, 1), (3,))
    torch.Size([2, 3])
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError("Input shapes should be of type ints, a tuple of ints, or a list "
                               f"of ints, got {shape}")
    common = [1] * max((len(s) for s in shapes), default=0)
    for arg_idx, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            if shape[idx] != 1 and shape[idx] != common[idx]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! "
                    f"Mismatching argument at index {arg_idx} had {shape}; but expected shape "
                    f"should be broadcastable to {common}")
    return Size(common)


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False,  # noqa: A002
         dtype=None) -> Tensor:
    """``torch.norm``: the vector p-norm over ``dim`` (:func:`ops.reduction.vector_norm`), or
    for ``p='nuc'`` (or ``'fro'`` over more than two dims) :func:`minitorch.linalg.matrix_norm`.
    ``'fro'`` over at most two dims is the 2-norm of the elements.

    >>> import minitorch
    >>> minitorch.tensor([3.0, -4.0]).norm(), minitorch.tensor([3.0, -4.0]).norm(p=float("inf"))
    (tensor(5.), tensor(4.))
    """
    if isinstance(p, str):
        if p == "fro" and (dim is None or isinstance(dim, (int, np.integer)) or len(dim) <= 2):
            p = 2  # the Frobenius norm is the 2-norm of the elements
        else:  # "nuc", or a matrix norm of the wrong dims: linalg.matrix_norm (or its error)
            dims = tuple(range(input._data.ndim)) if dim is None else dim
            return _linalg_api.matrix_norm(input, p, dims, keepdim, dtype=dtype)
    return vector_norm(input, p, dim, keepdim, dtype=dtype)


def _tensors(args) -> tuple:
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else args


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids from 1-D tensors: with ``indexing="ij"`` the ``k``-th output varies
    along dimension ``k``; ``"xy"`` swaps the first two dimensions (as NumPy's default)."""
    tensors = _tensors(tensors)
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but "
                               f"got: {t}")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing is None:
        warn_once("meshgrid", "torch.meshgrid: in an upcoming release, it will be required to "
                              "pass the indexing argument.")
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


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each 1-D tensor, one per row."""
    tensors = _tensors(tensors)
    for t in tensors:
        if t.dim() != 1:
            shape = ", ".join(map(str, t.shape))
            raise RuntimeError(f"Expect a 1D vector, but got shape [{shape}]")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return _shape.stack([g.reshape(-1) for g in grids], 1)


def chain_matmul(*matrices, out=None) -> Tensor:
    """The product of several matrices: PyTorch's deprecated form of ``linalg.multi_dot``
    (it warns once); one matrix is returned as a copy."""
    warn_once("chain_matmul", "torch.chain_matmul is deprecated and will be removed in a future "
                              "PyTorch release. Use torch.linalg.multi_dot instead, which accepts "
                              "a list of two or more tensors rather than multiple parameters.")
    matrices = _tensors(matrices)
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return matrices[0].clone() if out is None else copy_into_out(out, matrices[0],
                                                                     warn_resize=True)
    return _linalg_api.multi_dot(matrices, out=out)


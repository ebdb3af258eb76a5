"""Indexing: reading ``x[key]`` and writing ``x[key] = value``, both differentiable.

* Basic indexing (ints, slices, ``None``, ``...``) gives a *view*, one op per indexed dimension,
  as in PyTorch: ``x[0]`` is ``SelectBackward0``, ``x[1:3]`` is ``SliceBackward0``.
* Advanced indexing (an integer tensor or list, or a boolean mask) copies: ``IndexBackward0``.
  Its backward *adds* the gradient into the picked positions, so an index used twice gets the
  gradient twice.

Example:
    >>> import minitorch
    >>> x = minitorch.zeros(3, requires_grad=True)
    >>> x[minitorch.tensor([0, 0, 2])].sum().backward()
    >>> x.grad
    tensor([2., 0., 1.])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import as_tensor, normalize_dim
from minitorch.ops.shape import _view_of

__all__ = ["getitem", "index_put", "gather"]


class Select(Function):
    """``x[..., i, ...]``: one position of one dimension (the dimension disappears)."""

    node_name = "SelectBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.shape, ctx.key = a._data.shape, (slice(None),) * dim + (index,)
        return _view_of(a, a._data[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        return Embed.apply(grad, ctx.shape, ctx.key)


class Slice(Function):
    """``x[..., start:stop:step, ...]`` (a view)."""

    node_name = "SliceBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, start, stop, step):
        ctx.shape = a._data.shape
        ctx.key = (slice(None),) * dim + (slice(start, stop, step),)
        return _view_of(a, a._data[ctx.key])

    @staticmethod
    def backward(ctx, grad):
        return Embed.apply(grad, ctx.shape, ctx.key)


class Embed(Function):
    """Backward of a view-index: put ``grad`` at ``key`` in zeros of ``shape``."""

    node_name = "SliceBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        out[key] = grad._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.key]


class Index(Function):
    """Advanced indexing with integer arrays or masks (copies)."""

    node_name = "IndexBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a._data.shape, key
        try:
            return _wrap(a._data[key])
        except IndexError as e:
            raise IndexError(str(e).replace("axis", "dimension")) from None

    @staticmethod
    def backward(ctx, grad):
        return IndexAdd.apply(grad, ctx.shape, ctx.key)


class IndexAdd(Function):
    """Backward of advanced indexing: add ``grad`` into zeros at ``key`` (repeats add up)."""

    node_name = "IndexPutBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        np.add.at(out, key, grad._data)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key)


class IndexPut(Function):
    """The value of ``x[key] = v``: x with ``v`` written at ``key``."""

    node_name = "IndexPutBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, value, key):
        ctx.key = key
        out = a._data.copy()
        try:
            out[key] = value._data
        except ValueError:
            raise RuntimeError(
                f"shape mismatch: value tensor of shape [{', '.join(map(str, value.shape))}] "
                f"cannot be broadcast to indexing result of shape "
                f"[{', '.join(map(str, a._data[key].shape))}]"
            ) from None
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        # The old values at key were overwritten: no gradient reaches them.
        ga = grad.masked_fill(_mask_of(grad.shape, ctx.key), 0.0)
        return ga, grad[ctx.key]


class CopySlices(IndexPut):
    node_name = "CopySlices"
    _builtin = True


def _mask_of(shape, key) -> Tensor:
    mask = np.zeros(shape, dtype=np.bool_)
    mask[key] = True
    return _wrap(mask)


class Gather(Function):
    node_name = "GatherBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.shape, ctx.dim, ctx.index = a._data.shape, dim, index
        return _wrap(np.take_along_axis(a._data, index._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        out = np.zeros(ctx.shape, dtype=grad._data.dtype)
        idx = np.indices(ctx.index._data.shape, sparse=True)
        idx = list(idx)
        idx[ctx.dim] = ctx.index._data
        np.add.at(out, tuple(idx), grad._data)
        return _wrap(out), None


# ---------------------------------------------------------------- key handling
def _is_advanced(k) -> bool:
    return isinstance(k, (Tensor, list, np.ndarray)) and not (
        isinstance(k, Tensor) and k._data.ndim == 0 and k._data.dtype.kind in "iu")


def _to_numpy_index(k):
    if isinstance(k, Tensor):
        if k._data.dtype.kind not in "biu":
            raise IndexError(
                "tensors used as indices must be long, int, byte or bool tensors"
            )
        return k._data
    if isinstance(k, list):
        arr = np.asarray([x.item() if isinstance(x, Tensor) else x for x in k])
        if arr.dtype.kind not in "biu":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return arr
    return k


def _normalize_key(key, ndim: int) -> list:
    """Basic-index key as a list with ``...`` expanded into full slices."""
    keys = key if isinstance(key, tuple) else (key,)
    used = sum(1 for k in keys if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    if sum(1 for k in keys if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    out = []
    for k in keys:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - used))
        else:
            out.append(k)
    return out


def _check_bounds(index: int, size: int, dim: int) -> int:
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return index + size if index < 0 else index


def getitem(x: Tensor, key) -> Tensor:
    """``x[key]`` with PyTorch's semantics (see the module docstring)."""
    ndim = x._data.ndim
    keys = key if isinstance(key, tuple) else (key,)
    if any(_is_advanced(k) for k in keys):
        np_key = tuple(_to_numpy_index(k) for k in keys)
        return Index.apply(x, np_key if len(np_key) > 1 else np_key[0])
    out = x
    dim = 0
    for k in _normalize_key(key, ndim):
        if k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(k, (numbers.Integral, Tensor)):
            i = _check_bounds(int(k), out._data.shape[dim], dim)
            out = Select.apply(out, dim, i)
        elif isinstance(k, slice):
            size = out._data.shape[dim]
            start, stop, step = k.indices(size)
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero")
            if (start, stop, step) != (0, size, 1) or (out is x and key == slice(None)):
                out = Slice.apply(out, dim, start, max(stop, start), step)
            dim += 1
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                f"are valid indices (got {type(k).__name__})"
            )
    if out is x:  # x[...] or x[:, :]: still a new view, as in PyTorch
        out = Slice.apply(x, 0, 0, x._data.shape[0], 1) if ndim else x.view(())
    return out


def index_put(x: Tensor, key, value) -> Tensor:
    """The tensor ``x`` with ``value`` written at ``key`` (used by ``x[key] = value``)."""
    keys = key if isinstance(key, tuple) else (key,)
    advanced = any(_is_advanced(k) for k in keys)
    np_key = tuple(_to_numpy_index(k) if advanced else
                   (int(k) if isinstance(k, Tensor) else k) for k in keys)
    np_key = np_key if len(np_key) > 1 else np_key[0]
    value = as_tensor(value, x)
    if value._data.dtype != x._data.dtype:
        value = value.to(x.dtype)
    return (IndexPut if advanced else CopySlices).apply(x, value, np_key)


def gather(x: Tensor, dim: int, index: Tensor) -> Tensor:
    """Pick values along ``dim`` at ``index`` (same number of dims as ``x``)."""
    return Gather.apply(x, normalize_dim(dim, x._data.ndim), index)

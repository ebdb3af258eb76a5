"""``select_scatter``, ``slice_scatter`` and ``diagonal_scatter``: a copy of ``input`` with
``src`` written where ``select``, ``slice`` or ``diagonal`` would look (the out-of-place form
of ``x.select(dim, i).copy_(src)``, ...).

Each is one Function, as in PyTorch (``SelectScatterBackward0``, ...). Its backward is made
of the same two operations: ``input``'s gradient is the output's with zeros where ``src``
went (the same scatter, of zeros), ``src``'s is the part of the output's gradient that the
view picks. Both are written in tensor operations, so second derivatives work too.

>>> import minitorch
>>> minitorch.select_scatter(minitorch.zeros(2, 2), minitorch.ones(2), 0, 1)
tensor([[0., 0.],
        [1., 1.]])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops._util import check_tensor, normalize_dim
from minitorch.ops.shape import Slice, _fmt, _scalar_type, diagonal

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter"]


class ViewScatter(Function):
    """Write ``src`` into a copy of ``input`` where the view of ``args`` looks; subclasses
    say which view (``_part``: of an array, ``_view``: of a tensor)."""

    _builtin = True

    @classmethod
    def forward(cls, a, src, *args):
        out = a._data.copy()
        cls._part(out, *args)[...] = src._data
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, src, *args = inputs
        ctx.args, ctx.src_shape, ctx.src_dtype = args, src._data.shape, src.dtype

    @classmethod
    def backward(cls, ctx, grad):
        zeros = _wrap(array_module(grad._data).zeros(ctx.src_shape, grad._data.dtype))
        return cls.apply(grad, zeros, *ctx.args), cls._view(grad, *ctx.args).to(ctx.src_dtype)


class SelectScatter(ViewScatter):
    node_name = "SelectScatterBackward0"
    _builtin = True

    @staticmethod
    def _part(x, dim, index):
        return x[(slice(None),) * dim + (index, Ellipsis)]

    @staticmethod
    def _view(t, dim, index):
        return t.select(dim, index)


class SliceScatter(ViewScatter):
    node_name = "SliceScatterBackward0"
    _builtin = True

    @staticmethod
    def _part(x, dim, start, stop, step):
        return x[(slice(None),) * dim + (slice(start, stop, step),)]

    @staticmethod
    def _view(t, dim, start, stop, step):
        return Slice.apply(t, dim, start, stop, step)


class DiagonalScatter(ViewScatter):
    node_name = "DiagonalScatterBackward0"
    _builtin = True

    @staticmethod
    def _part(x, offset, dim1, dim2):
        part = x.diagonal(offset, dim1, dim2)
        if isinstance(part, np.ndarray):
            part.flags.writeable = True  # (NumPy's diagonal view is read-only by default)
        return part

    @staticmethod
    def _view(t, offset, dim1, dim2):
        return diagonal(t, offset, dim1, dim2)


def _scatter(node, input: Tensor, src: Tensor, name: str, args: tuple) -> Tensor:  # noqa: A002
    """``node.apply(input, src, *args)`` once ``src`` has the shape of the part it replaces."""
    check_tensor(src, name, "src", 2)
    want = node._part(np.empty(input._data.shape, np.bool_), *args).shape
    if src._data.shape != want:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{_fmt(src._data.shape)}, slice size = {_fmt(want)}")
    if src.requires_grad and grad_mode.is_grad_enabled() and not input.dtype.is_floating_point:
        # (the result would take input's dtype, which has no gradient)
        raise RuntimeError(f"Autograd not support dtype: {_scalar_type(input.dtype)}")
    return node.apply(input, src, *args)


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:  # noqa: A002
    """A copy of ``input`` with ``src`` at position ``index`` of dimension ``dim``.

    >>> import minitorch
    >>> minitorch.select_scatter(minitorch.zeros(2, 3), minitorch.tensor([1.0, 2.0]), 1, 0)
    tensor([[1., 0., 0.],
            [2., 0., 0.]])
    """
    shape = input._data.shape
    d = normalize_dim(dim, len(shape))
    size = shape[d] if shape else 1
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{_fmt(shape)} at dimension {d}")
    return _scatter(SelectScatter, input, src, "select_scatter", (d, index % size))


def slice_scatter(input: Tensor, src: Tensor, dim: int = 0, start=None, end=None,  # noqa: A002
                  step: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` in ``input[start:end:step]`` along ``dim``.

    >>> import minitorch
    >>> minitorch.slice_scatter(minitorch.zeros(4), minitorch.ones(2), start=1, end=3)
    tensor([0., 1., 1., 0.])
    """
    if isinstance(step, numbers.Integral) and step <= 0:
        raise RuntimeError("slice step must be positive")
    d = normalize_dim(dim, input._data.ndim)
    return _scatter(SliceScatter, input, src, "slice_scatter", (d, start, end, step))


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,  # noqa: A002
                     dim2: int = 1) -> Tensor:
    """A copy of ``input`` with ``src`` on its diagonal ``offset`` of the (``dim1``, ``dim2``)
    planes (what ``input.diagonal(offset, dim1, dim2)`` looks at).

    >>> import minitorch
    >>> minitorch.diagonal_scatter(minitorch.zeros(2, 2), minitorch.ones(2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    n = input._data.ndim
    d1, d2 = normalize_dim(dim1, n), normalize_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return _scatter(DiagonalScatter, input, src, "diagonal_scatter", (int(offset), d1, d2))

"""Shape functions made of the shape ops: ``broadcast_to``, ``broadcast_tensors``,
``atleast_1d``/``2d``/``3d``, ``ravel``, ``unflatten``, ``rot90``, ``fliplr``, ``flipud``,
``hsplit``/``vsplit``/``dsplit``, ``diff`` and ``msort``.

Most are written as PyTorch writes them, from ``expand``, ``view``, ``flip``, ``tensor_split``,
``narrow``, ``sub`` and ``sort``: the graph records those ops' nodes (``ExpandBackward0``,
``ViewBackward0``, ``SliceBackward0``, ``SubBackward0``...), so their gradients and second
derivatives are the ones of the ops below. ``rot90`` is an op of its own in PyTorch
(``Rot90Backward0``), and is one here.

>>> import minitorch
>>> x = minitorch.tensor([[1, 2], [3, 4]])
>>> minitorch.rot90(x)
tensor([[2, 4],
        [1, 3]])
>>> minitorch.diff(minitorch.tensor([1, 4, 9, 16]))
tensor([3, 5, 7])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops import shape as _shape
from minitorch.ops._util import broadcast_error, full_like_result, normalize_dim
from minitorch.ops.arithmetic import ne, sub
from minitorch.ops.indexing import narrow
from minitorch.ops.sorting import sort

__all__ = ["broadcast_to", "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d",
           "ravel", "unflatten", "rot90", "fliplr", "flipud", "hsplit", "vsplit", "dsplit",
           "diff", "msort"]


def _int_tuple(value, func: str, arg: str, position: int) -> tuple:
    """A tuple or list of ints as a tuple, with PyTorch's TypeError naming what is wrong."""
    start = f"{func}(): argument '{arg}' (position {position}) must be tuple of ints"
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{start}, not {type(value).__name__}")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            raise TypeError(f"{start}, but found element of type {type(v).__name__} at pos {i}")
    return tuple(int(v) for v in value)


# ---------------------------------------------------------------- broadcasting
def broadcast_to(input: Tensor, size, *, _position: int = 2) -> Tensor:  # noqa: A002
    """``input`` seen with the shape ``size`` (a view: ``expand``); -1 keeps a dimension.
    (``_position``: where ``size`` is as called, 1 in the method ``x.broadcast_to(size)``,
    which also takes one int as a size.)

    >>> import minitorch
    >>> minitorch.broadcast_to(minitorch.tensor([1, 2]), (2, 2))
    tensor([[1, 2],
            [1, 2]])
    """
    if isinstance(size, numbers.Integral) and _position == 1:
        size = (size,)
    return _shape.expand(input, _int_tuple(size, "broadcast_to", "size", _position))


def _check_tensors(tensors) -> None:
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(t).__name__}")


def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded to their common shape (views); one already of that shape is
    returned as it is, as in PyTorch.

    >>> import minitorch
    >>> a, b = minitorch.broadcast_tensors(minitorch.zeros(2, 1), minitorch.zeros(3))
    >>> a.shape, b.shape
    (torch.Size([2, 3]), torch.Size([2, 3]))
    """
    _check_tensors(tensors)
    common: tuple = ()
    for t in tensors:
        try:
            common = np.broadcast_shapes(common, t._data.shape)
        except ValueError:
            raise broadcast_error(common, t._data.shape) from None
    return tuple(t if t._data.shape == common else _shape.expand(t, common) for t in tensors)


def _atleast(ndim: int, tensors: tuple):
    """``atleast_{ndim}d``: one tensor gives a tensor, several (or a list) a tuple."""
    if len(tensors) == 1:
        one = tensors[0]
        if isinstance(one, Tensor):
            return _shape._atleast_nd(one, ndim)
        if not isinstance(one, (tuple, list)):
            raise _shape._invalid_combination(f"atleast_{ndim}d", type(one).__name__,
                                              "Tensor input", "tuple of Tensors tensors")
        tensors = one  # atleast_1d([a, b]) is atleast_1d(a, b)
    _check_tensors(tensors)
    return tuple(_shape._atleast_nd(t, ndim) for t in tensors)


def atleast_1d(*tensors):
    """Each tensor with at least one dimension (a 0-d tensor becomes a view of shape (1,)).

    >>> import minitorch
    >>> minitorch.atleast_1d(minitorch.tensor(1.0))
    tensor([1.])
    """
    return _atleast(1, tensors)


def atleast_2d(*tensors):
    """Each tensor with at least two dimensions (a vector becomes a row ``(1, n)``)."""
    return _atleast(2, tensors)


def atleast_3d(*tensors):
    """Each tensor with at least three dimensions (a vector ``(1, n, 1)``, a matrix
    ``(m, n, 1)``)."""
    return _atleast(3, tensors)


# ---------------------------------------------------------------- ravel, unflatten
def ravel(input: Tensor) -> Tensor:  # noqa: A002
    """The elements as one dimension: ``input.contiguous().view(-1)`` (a view when ``input`` is
    contiguous, else a view of a contiguous copy)."""
    return _shape.view(input.contiguous(), (-1,))


def _unexpected(message: str) -> RuntimeError:
    """PyTorch's wording for an error that ``unflatten`` meets inside another function."""
    return RuntimeError(f"unflatten got an unexpected error:\n{message}")


def unflatten(input: Tensor, dim: int, sizes) -> Tensor:  # noqa: A002
    """Split dimension ``dim`` into the dimensions ``sizes`` (a view; one size may be -1).

    >>> import minitorch
    >>> minitorch.arange(6).unflatten(0, (2, 3))
    tensor([[0, 1, 2],
            [3, 4, 5]])
    """
    sizes = _int_tuple(sizes, "unflatten", "sizes", 2)
    shape = input._data.shape
    d = normalize_dim(dim, len(shape))
    if not shape:
        raise _unexpected(f"Dimension specified as {d} but tensor has no dimensions")
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) > 1:
        raise _unexpected("only one dimension can be inferred")
    known = int(np.prod([s for s in sizes if s != -1]))
    if -1 in sizes and known == 0:
        if shape[d] == 0:
            raise _unexpected(f"cannot reshape tensor of 0 elements into shape {list(sizes)} "
                              "because the unspecified dimension size -1 can be any value and "
                              "is ambiguous")
        ok = False
    else:
        ok = shape[d] % known == 0 if -1 in sizes else known == shape[d]
    if not ok:
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the "
                           f"size of dim {dim} ({shape[d]}) in the input tensor")
    sizes = tuple(shape[d] // known if s == -1 else s for s in sizes)
    return _shape.view(input, shape[:d] + sizes + shape[d + 1:])


# ---------------------------------------------------------------- rot90, fliplr, flipud
class Rot90(Function):
    """``rot90``: the plane ``dims`` turned ``k`` quarter turns from ``dims[0]`` towards
    ``dims[1]`` (a copy). Laid out as PyTorch's is: an odd ``k`` is the transposed view of a
    flip. The gradient turns back: ``rot90(grad, -k, dims)``."""

    node_name = "Rot90Backward0"
    _builtin = True

    @staticmethod
    def forward(a, k, dims):
        x = a._data
        xp = array_module(x)
        d0, d1 = dims
        if k == 0:
            return _wrap(x.copy(order="C"))
        out = full_like_result(x)
        out[...] = xp.flip(x, {1: d1, 2: dims, 3: d0}[k])
        return _wrap(out if k == 2 else xp.swapaxes(out, d0, d1))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.k, ctx.dims = inputs

    @staticmethod
    def backward(ctx, grad):
        return Rot90.apply(grad, (4 - ctx.k) % 4, ctx.dims)


def rot90(input: Tensor, k: int = 1, dims=(0, 1), *, _position: int = 2) -> Tensor:  # noqa: A002
    """``input`` rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first
    towards the second (a copy); a negative ``k`` turns the other way. (``_position``: where
    ``k`` is as called, 1 in the method.)

    >>> import minitorch
    >>> minitorch.rot90(minitorch.tensor([[1, 2], [3, 4]]), -1)
    tensor([[3, 1],
            [4, 2]])
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"rot90(): argument 'k' (position {_position}) must be int, not "
                        f"{type(k).__name__}")
    dims = _int_tuple(dims, "rot90", "dims", _position + 1)
    n = input._data.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if n < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {n}")
    d0, d1 = (normalize_dim(d, n) for d in dims)
    if dims[0] == dims[1] or abs(dims[0] - dims[1]) == n:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} "
                           f"and dim1 = {dims[1]}")
    return Rot90.apply(input, int(k) % 4, (d0, d1))


def fliplr(input: Tensor) -> Tensor:  # noqa: A002
    """The columns in reverse order: ``flip(input, [1])`` (a copy)."""
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return _shape.Flip.apply(input, (1,))


def flipud(input: Tensor) -> Tensor:  # noqa: A002
    """The rows in reverse order: ``flip(input, [0])`` (a copy)."""
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return _shape.Flip.apply(input, (0,))


# ---------------------------------------------------------------- hsplit, vsplit, dsplit
def _split_along(name: str, input: Tensor, sections, dim: int, min_ndim: int) -> tuple:  # noqa: A002
    """``tensor_split`` along ``dim``, where an int number of sections must divide the size."""
    n = input._data.ndim
    if n < min_ndim:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_ndim} dimension, "
                           f"but got a tensor with {n} dimensions!")
    if isinstance(sections, (tuple, list)):
        return _shape.tensor_split(input, list(_shape._ints(sections, name, "indices", 2)), dim)
    if isinstance(sections, bool) or not isinstance(sections, (numbers.Integral, Tensor)):
        raise _shape._invalid_combination(
            name, "Tensor, " + type(sections).__name__, "Tensor input, int sections",
            "Tensor input, tuple of ints indices")
    sections = int(sections)
    size = input._data.shape[dim]
    if sections == 0 or size % sections:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the "
                           f"size of the dimension {size} is not divisible by the split_size "
                           f"{sections}!")
    return _shape.tensor_split(input, sections, dim)


def hsplit(input: Tensor, sections) -> tuple:  # noqa: A002
    """Split column-wise: along dim 1 (dim 0 of a vector), into ``sections`` equal parts or at
    the given indices (views)."""
    return _split_along("hsplit", input, sections, 1 if input._data.ndim > 1 else 0, 1)


def vsplit(input: Tensor, sections) -> tuple:  # noqa: A002
    """Split row-wise (along dim 0) a tensor of at least two dimensions (views)."""
    return _split_along("vsplit", input, sections, 0, 2)


def dsplit(input: Tensor, sections) -> tuple:  # noqa: A002
    """Split depth-wise (along dim 2) a tensor of at least three dimensions (views)."""
    return _split_along("dsplit", input, sections, 2, 3)


# ---------------------------------------------------------------- diff, msort
def _check_diff_part(part, input: Tensor, d: int, arg: str) -> None:  # noqa: A002
    if not isinstance(part, Tensor):
        raise TypeError(f"diff(): argument '{arg}' must be Tensor, not {type(part).__name__}")
    if part._data.ndim != input._data.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")
    for i, (want, got) in enumerate(zip(input._data.shape, part._data.shape)):
        if i != d and want != got:
            raise RuntimeError(
                "diff expects the shape of tensor to prepend or append to match that of input "
                f"except along the differencing dimension; input.size({i}) = {want}, but got "
                f"tensor.size({i}) = {got}")


def diff(input: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None, *,  # noqa: A002
         _position: int = 2) -> Tensor:
    """The ``n``-th forward difference along ``dim``: ``x[1:] - x[:-1]``, ``n`` times
    (``!=`` for bool), after joining ``prepend`` and ``append`` to ``input`` along ``dim``.
    (``_position``: where ``n`` is as called, 1 in the method.)

    >>> import minitorch
    >>> minitorch.diff(minitorch.tensor([1, 4, 9, 16]), n=2)
    tensor([2, 2])
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"diff(): argument 'n' (position {_position}) must be int, not "
                        f"{type(n).__name__}")
    if input._data.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    d = normalize_dim(dim, input._data.ndim)
    parts = [p for p in (prepend, append) if p is not None]
    for p, arg in ((prepend, "prepend"), (append, "append")):
        if p is not None:
            _check_diff_part(p, input, d, arg)
    if n == 0:  # PyTorch copies ``input`` into zeros (and leaves prepend and append out)
        return _shape.Copy.apply(_wrap(full_like_result(input._data)), input)
    x = _shape.cat([p for p in (prepend, input, append) if p is not None], d) if parts else input
    step = ne if x.dtype is _dtype.bool else sub
    for _ in range(min(n, x._data.shape[d])):
        m = x._data.shape[d] - 1
        x = step(narrow(x, d, 1, m), narrow(x, d, 0, m))
    return x


def msort(input: Tensor) -> Tensor:  # noqa: A002
    """``input`` sorted along its first dimension: ``sort(input, dim=0).values`` (NaN last)."""
    return sort(input, 0).values

"""Searching sorted values and counting: ``searchsorted``, ``bucketize``, ``isin`` and
``histc``. None of them is differentiable (their results are indices, booleans or counts).

``searchsorted`` runs PyTorch's binary search itself, for every value at once, rather than
NumPy's: the two agree on sorted numbers but not where NaN is involved. PyTorch moves right past
an element ``b`` while ``not (b >= v)`` (``not (b > v)`` for ``right=True``), and every
comparison with NaN is false, so a NaN value lands after all the boundaries.

``histc`` counts as PyTorch's kernel does, in the input's dtype: element ``x`` goes to bin
``int((x - min) * bins / (max - min))`` (the last bin also takes ``max``), elements outside
``[min, max]`` and NaN are left out.

>>> import minitorch
>>> minitorch.searchsorted(minitorch.tensor([1, 3, 5, 7]), minitorch.tensor([3, 6]))
tensor([1, 3])
>>> minitorch.histc(minitorch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3)
tensor([0., 2., 1., 0.])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.ops._util import as_tensor, operands
from minitorch.ops.shape import _invalid_combination, _scalar_type

__all__ = ["searchsorted", "bucketize", "isin", "histc", "unravel_index"]


def _fmt(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _not_implemented(kernel: str, dtype) -> NotImplementedError:
    return NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_type(dtype)}\'')


# ---------------------------------------------------------------- searchsorted, bucketize
def _binary_search(bounds, values, sorter, right: bool):
    """PyTorch's lower (``right=False``) or upper bound of each value of ``values`` (R, m) in
    the matching row of ``bounds`` (R, n), every row and value at once."""
    xp = array_module(values)
    rows = xp.arange(bounds.shape[0])[:, None]
    start = xp.zeros(values.shape, np.int64)
    end = xp.full(values.shape, bounds.shape[1], np.int64)
    while bool((start < end).any()):
        active = start < end
        mid = start + (end - start) // 2
        at = xp.minimum(mid, bounds.shape[1] - 1)  # (inactive searches may point past the end)
        if sorter is not None:
            at = sorter[rows, at]
        b = bounds[rows, at]
        go_right = ~(b > values) if right else ~(b >= values)
        start = xp.where(active & go_right, mid + 1, start)
        end = xp.where(active & ~go_right, mid, end)
    return start


def _check_sorter(sorter, bounds: Tensor) -> None:
    """PyTorch's errors for a ``sorter`` that cannot order ``bounds`` (int64, of its shape,
    each index in its last dimension)."""
    order = sorter._data
    if sorter.dtype is not _dtype.int64:
        problem = ("sorter must be a tensor of long dtype but got dtype "
                   f"{_scalar_type(sorter.dtype)}")
    elif order.shape != bounds._data.shape:
        problem = (f"boundary and sorter must have the same size, but got boundary tensor "
                   f"{_fmt(bounds.shape)}and got sorter tensor {_fmt(sorter.shape)}")
    elif order.size and not 0 <= int(order.min()) <= int(order.max()) < order.shape[-1]:
        problem = "sorter index out of range"
    else:
        return
    raise RuntimeError(f"torch.searchsorted(): {problem}")


def _check_shapes(bounds: Tensor, values: Tensor, scalar: bool) -> None:
    bshape, vshape = bounds._data.shape, values._data.shape
    if not bshape:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive "
                           "dimension, but got 0 dimension")
    if scalar and len(bshape) != 1:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when "
                           "boundaries tensor dimension is 1, but we got boundaries tensor "
                           f"dim({len(bshape)}) and input value's dim(0) numel(1)")
    if len(bshape) != 1 and bshape[:-1] != vshape[:-1]:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the "
                           "first N-1 dimensions of boundaries tensor and input value tensor must "
                           f"match, but we got boundaries tensor {_fmt(bshape)} and input value "
                           f"tensor {_fmt(vshape)}")


_SEARCHSORTED = ("Tensor sorted_sequence, Tensor input, *, bool out_int32 = False, bool right = "
                 "False, str side = None, Tensor sorter = None, Tensor out = None",
                 "Tensor sorted_sequence, Number self, *, bool out_int32 = False, bool right = "
                 "False, str side = None, Tensor sorter = None")


def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False,  # noqa: A002
                 right: bool = False, side: str | None = None, sorter=None) -> Tensor:
    """Where each value of ``input`` would go in ``sorted_sequence`` to keep it sorted: the
    first place (``right=False``, ``side="left"``) or the last (``right=True``,
    ``side="right"``). An N-d ``sorted_sequence`` is searched row by row (its first N-1
    dimensions match ``input``'s); ``sorter`` gives the order of an unsorted sequence. The
    result is int64 (int32 with ``out_int32=True``).

    >>> import minitorch
    >>> minitorch.searchsorted(minitorch.tensor([1, 2, 2, 3]), 2, right=True)
    tensor(3)
    """
    scalar = isinstance(input, numbers.Number) and not isinstance(input, bool)
    if not isinstance(sorted_sequence, Tensor) or not (scalar or isinstance(input, Tensor)):
        got = f"{type(sorted_sequence).__name__}, {type(input).__name__}"
        raise _invalid_combination("searchsorted", got, *_SEARCHSORTED[:1])
    if side is not None and side not in ("left", "right"):
        raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got "
                           f"{side}")
    if side == "left" and right:
        raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got "
                           "side of left while right was True")
    values = as_tensor(input, sorted_sequence) if scalar else input
    _check_shapes(sorted_sequence, values, scalar)
    if sorter is not None:
        _check_sorter(sorter, sorted_sequence)
    bounds, v = operands(sorted_sequence, values)
    if bounds.dtype == np.bool_:
        raise _not_implemented("searchsorted_out_cpu", _dtype.bool)
    n = bounds.shape[-1]
    if n == 0:  # nothing to search in: every value goes first
        return _wrap(array_module(v).zeros(v.shape, np.int32 if out_int32 else np.int64))
    rows = bounds.reshape(-1, n)
    flat = v.reshape(1, -1) if bounds.ndim == 1 else v.reshape(rows.shape[0], -1)
    order = None if sorter is None else sorter._data.reshape(-1, n)
    found = _binary_search(rows, flat, order, right or side == "right")
    return _wrap(found.reshape(v.shape).astype(np.int32 if out_int32 else np.int64))


_BUCKETIZE = ("Tensor input, Tensor boundaries, *, bool out_int32 = False, bool right = False, "
              "Tensor out = None", "Number self, Tensor boundaries, *, bool out_int32 = False, "
              "bool right = False")


def bucketize(input, boundaries: Tensor, *, out_int32: bool = False,  # noqa: A002
              right: bool = False, **unknown) -> Tensor:
    """The bucket of each value of ``input`` between the sorted 1-d ``boundaries``:
    ``searchsorted(boundaries, input, right=right)``.

    >>> import minitorch
    >>> minitorch.bucketize(minitorch.tensor([0.5, 3.0, 9.0]), minitorch.tensor([1.0, 3.0]))
    tensor([0, 1, 2])
    """
    if unknown:  # (PyTorch's argument parser names the call it could not match)
        got = ", ".join([type(input).__name__, type(boundaries).__name__]
                        + [f"{k}={type(v).__name__}" for k, v in unknown.items()])
        raise _invalid_combination("bucketize", got, *_BUCKETIZE)
    if isinstance(boundaries, Tensor) and boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got "
                           f"dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# ---------------------------------------------------------------- isin
_ISIN = ("Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert = "
         "False, Tensor out = None",
         "Number element, Tensor test_elements, *, bool assume_unique = False, bool invert = "
         "False, Tensor out = None",
         "Tensor elements, Number test_element, *, bool assume_unique = False, bool invert = "
         "False, Tensor out = None")


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number)


def isin(elements, test_elements, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """Whether each element of ``elements`` is in ``test_elements`` (either may be a number),
    compared in their promoted dtype; NaN is in nothing. ``invert=True`` gives the opposite.
    (``assume_unique`` is accepted as in PyTorch: it only allows a quicker search.)

    >>> import minitorch
    >>> minitorch.isin(minitorch.tensor([1, 2, 3]), minitorch.tensor([2, 5]))
    tensor([False,  True, False])
    """
    tensors = [x for x in (elements, test_elements) if isinstance(x, Tensor)]
    if not tensors or not all(isinstance(x, Tensor) or _is_number(x)
                              for x in (elements, test_elements)):
        got = f"{type(elements).__name__}, {type(test_elements).__name__}"
        raise _invalid_combination("isin", got, *_ISIN)
    if any(isinstance(x, bool) or isinstance(x, Tensor) and x.dtype is _dtype.bool
           for x in (elements, test_elements)):
        raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    like = tensors[0]
    a, b = operands(as_tensor(elements, like), as_tensor(test_elements, like))
    xp = array_module(a)
    return _wrap(xp.asarray(xp.isin(a, b, invert=invert)))


# ---------------------------------------------------------------- histc
def _c_double(x: float) -> str:
    """A double as C++ prints it: 1, 0.5, inf, nan."""
    return f"{x:g}"


def _histc_range(x: np.ndarray, low: float, high: float) -> tuple:
    """The outer bin edges, as PyTorch chooses them: ``min`` and ``max``, or the data's
    smallest and largest element when they are equal, widened by 1 when still equal."""
    from_data = low == high and x.size > 0
    if from_data:
        low, high = float(x.min()), float(x.max())
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_c_double(low)}, {_c_double(high)}] is "
                           "not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    return low, high


def histc(input: Tensor, bins: int = 100, min=0, max=0, *,  # noqa: A002
          _position: int = 2) -> Tensor:
    """The histogram of ``input``'s elements in ``bins`` equal bins from ``min`` to ``max``
    (the data's smallest and largest element when both are 0), in ``input``'s float dtype.
    Elements outside the range, and NaN, are not counted. (``_position``: where ``bins`` is as
    called, 1 in the method.)

    >>> import minitorch
    >>> minitorch.histc(minitorch.tensor([0.0, 0.4, 1.0]), bins=2, min=0, max=1)
    tensor([2., 1.])
    """
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral):
        raise TypeError(f"histc(): argument 'bins' (position {_position}) must be int, not "
                        f"{type(bins).__name__}")
    dt = input.dtype
    if dt is _dtype.bool:
        raise _not_implemented("linspace_cpu", dt)
    if not dt.is_floating_point:
        raise _not_implemented("histogram_cpu", dt)
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    x = input._data.reshape(-1)
    xp = array_module(x)
    low, high = _histc_range(x, float(min), float(max))
    lo, hi = x.dtype.type(low), x.dtype.type(high)  # the edges, in the input's dtype
    inside = x[(x >= lo) & (x <= hi)]
    pos = ((inside - lo) * x.dtype.type(bins) / (hi - lo)).astype(np.int64)
    pos = xp.minimum(pos, bins - 1)  # the last bin takes the right edge too
    return _wrap(xp.bincount(pos, minlength=bins).astype(x.dtype))


# ---------------------------------------------------------------- unravel_index
def unravel_index(indices, shape) -> tuple:
    """The coordinates in a tensor of ``shape`` of each flat index in ``indices``: one int64
    tensor per dimension, as PyTorch computes them, ``indices // stride % size`` (so a
    negative or too large index wraps around).

    >>> import minitorch
    >>> minitorch.unravel_index(minitorch.tensor([4, 1]), (2, 3))
    (tensor([1, 0]), tensor([1, 1]))
    """
    if not isinstance(indices, Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices.dtype.is_floating_point or indices.dtype is _dtype.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    sizes = (shape,) if isinstance(shape, numbers.Integral) else tuple(shape)
    if any(s < 0 for s in sizes):
        raise ValueError(f"'shape' cannot have negative values, but got {sizes}")
    xp = array_module(indices._data)
    strides = np.cumprod((sizes[1:] + (1,))[::-1])[::-1] if sizes else np.zeros(0, np.int64)
    if 0 in sizes:
        raise RuntimeError("ZeroDivisionError")
    flat = indices._data.astype(np.int64)[..., None]
    coords = flat // xp.asarray(strides.astype(np.int64)) % xp.asarray(np.array(sizes, np.int64))
    return tuple(_wrap(coords[..., i].copy()) for i in range(len(sizes)))

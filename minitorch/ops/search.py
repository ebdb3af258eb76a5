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

from minitorch import _dtype, return_types
from minitorch._backend import array_module, to_numpy
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
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


# ---------------------------------------------------------------- histogram, histogramdd
# (task linalg2)
def _linspace(start, end, steps: int, dtype) -> np.ndarray:
    """PyTorch's ``linspace`` in ``dtype``: the first half counted up from ``start``, the
    second down from ``end``."""
    i = np.arange(steps)
    if steps == 1:
        return np.array([start], dtype)
    start, end = dtype.type(start), dtype.type(end)
    step = (end - start) / dtype.type(steps - 1)
    up = start + step * i.astype(dtype)
    down = end - step * (steps - 1 - i).astype(dtype)
    return np.where(i < steps // 2, up, down).astype(dtype)


def _outer_edges(column: np.ndarray, lo, hi, dim: int) -> tuple:
    """The range of one dimension: given, or the data's (``(0, 1)`` for no data), widened
    by 0.5 each way where it is one value; PyTorch's checks."""
    if lo is None:
        lo, hi = (float(column.min()), float(column.max())) if column.size else (0.0, 1.0)
    if lo > hi:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min "
                           f"{_c_double(lo)} max {_c_double(hi)} for dimension {dim}")
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{_c_double(lo)}, "
                           f"{_c_double(hi)}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _histogramdd(input: Tensor, bins, range, weight, density, name):  # noqa: A002
    """``histogramdd`` of an ``(N, D)`` view of ``input``: the counts (or summed weights)
    and the edges of each dimension, as PyTorch bins: equal bins by interpolation checked
    against the edges, given edges by binary search; the right edge closes the last bin."""
    dt = input.dtype
    if not dt.is_floating_point or dt is _dtype.float16:
        raise _not_implemented("histogramdd", dt)
    d = input.shape[-1] if input.dim() else 1
    x = to_numpy(input._data).reshape(-1, d)  # binned on the host, the results moved back
    xp = array_module(input._data)
    if isinstance(bins, Tensor):
        bins = [bins]
    bins = list(bins) if isinstance(bins, (list, tuple)) else [bins] * d
    if weight is not None and tuple(weight.shape) != tuple(input.shape[:-1]):
        raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the "
                           "same shape as the input tensor excluding its innermost dimension, "
                           f"but got input with shape [{', '.join(map(str, input.shape))}] and "
                           f"weight with shape [{', '.join(map(str, weight.shape))}]")
    edges, positions = [], []
    keep = np.ones(x.shape[0], bool)
    for k, b in enumerate(bins):
        column = x[:, k]
        if isinstance(b, Tensor):
            if b.dtype is not dt:
                raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have "
                                   f"the same dtype, but got input with dtype "
                                   f"{_dtype.CPP_NAMES[dt.name]} and bins for dimension {k} "
                                   f"with dtype {_dtype.CPP_NAMES[b.dtype.name]}")
            e = to_numpy(b._data)
            lo, hi = (e[0], e[-1]) if e.size else (0, 0)
            pos = np.searchsorted(e, column, side="right") - 1
        else:
            if b <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {b} for "
                                   f"dimension {k}")
            given = (None, None) if range is None else (range[2 * k], range[2 * k + 1])
            lo, hi = _outer_edges(column, *given, k)
            e = _linspace(lo, hi, b + 1, x.dtype)
            lo, hi = e[0], e[-1]
            with np.errstate(all="ignore"):
                pos = ((column - lo) * x.dtype.type(b) / (hi - lo))
            pos = np.where(np.isfinite(pos), pos, -1).astype(np.int64)
            pos = np.clip(pos, 0, b - 1)
            pos = pos - (column < e[pos]) + (column >= e[np.minimum(pos + 1, b)]) * (pos + 1 < b)
        n_bins = max(e.size - 1, 0)
        pos = np.where(column == hi, n_bins - 1, pos)
        keep &= (column >= lo) & (column <= hi)
        edges.append(e)
        positions.append(np.clip(pos, 0, max(n_bins - 1, 0)))
    shape = tuple(max(e.size - 1, 0) for e in edges)
    w = np.ones(x.shape[0], x.dtype) if weight is None else to_numpy(
        weight._data).reshape(-1)
    hist = np.zeros(shape, np.float64)
    if keep.any() and all(shape):
        np.add.at(hist, tuple(p[keep] for p in positions), w[keep].astype(np.float64))
    hist = hist.astype(x.dtype)
    if density:
        total = hist.sum(dtype=np.float64)
        widths = [np.diff(e) for e in edges]
        volume = np.ones(shape, np.float64)
        for k, wk in enumerate(widths):
            volume = volume * wk.reshape((1,) * k + (-1,) + (1,) * (len(shape) - k - 1))
        with np.errstate(all="ignore"):
            hist = (hist / total / volume).astype(x.dtype)
    outs = [xp.asarray(hist)] + [xp.asarray(e.astype(x.dtype)) for e in edges]
    if input.requires_grad or (weight is not None and weight.requires_grad):
        recorded = HistogramNotImplemented.apply(input, weight, name, *outs)
        given = [isinstance(b, Tensor) and name != "histogram" for b in bins]
        return recorded[0], [_wrap(e) if g else r for e, r, g in zip(outs[1:], recorded[1:],
                                                                      given)]
    return _wrap(outs[0]), [_wrap(e) for e in outs[1:]]


class HistogramNotImplemented(Function):
    """The results of ``histogram``/``histogramdd`` made from a tensor that requires grad:
    recorded, as PyTorch records them, but without a derivative (backward raises)."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, input, weight, name, *outs):  # noqa: A002
        ctx.aten_name = name
        return tuple(_wrap(o) for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(f"derivative for aten::{ctx.aten_name} is not implemented")


def histogram(input: Tensor, bins, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """The histogram of ``input``'s elements: ``torch.return_types.histogram(hist,
    bin_edges)``. ``bins`` is a number of equal bins (over ``range``, by default the data's
    smallest to largest element) or a 1-D tensor of increasing edges; ``weight`` adds each
    element's weight instead of 1; ``density`` divides by the total and the bin widths.

    >>> import minitorch
    >>> minitorch.histogram(minitorch.tensor([0.0, 0.4, 1.0]), 2).hist
    tensor([2., 1.])
    """
    if weight is not None and weight.shape == input.shape:
        weight = weight.reshape(-1)  # (another shape: histogramdd's error names it as given)
    hist, edges = _histogramdd(input.reshape(-1, 1), [bins], range, weight, density,
                               "histogram")
    return return_types.histogram(hist, edges[0])


def histogramdd(input: Tensor, bins, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """The histogram of the points ``input[..., :]`` (each row one point of ``D``
    coordinates): ``torch.return_types.histogramdd(hist, bin_edges)`` with a ``D``-dimensional
    ``hist`` and one tensor of edges per dimension; ``bins`` is one number, one per
    dimension, or one tensor of edges per dimension; ``range`` is ``[min0, max0, min1,
    ...]``."""
    hist, edges = _histogramdd(input, bins, range, weight, density, "_histogramdd_from_bin_cts")
    return return_types.histogramdd(hist, tuple(edges))


__all__ += ["histogram", "histogramdd"]

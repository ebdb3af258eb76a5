"""Sorting-family operations: ``sort``, ``argsort``, ``topk``, ``median``, ``unique`` and
``bincount``.

``sort``, ``topk`` and ``median(dim)`` *select* elements, so their gradient goes back to the
elements they picked: the output's gradient is written (``scatter``) at the indices they
returned, and every other element gets 0.

Order of equal elements: NaN counts as larger than every number (ascending order puts NaNs
last), and equal elements keep their order (the lower index first), which is what PyTorch's
``stable=True`` guarantees. PyTorch's default ``stable=False`` gives the same order for up to
16 elements along the sorted dimension; beyond that its order among equal elements comes from
the C++ library's ``std::sort`` and is unspecified (it differs between platforms).

Example:
    >>> import minitorch
    >>> minitorch.unique(minitorch.tensor([3, 1, 2, 3, 1]), return_counts=True)
    (tensor([1, 2, 3]), tensor([2, 1, 2]))
    >>> minitorch.tensor([3.0, 1.0, 2.0]).sort(descending=True)
    torch.return_types.sort(
    values=tensor([3., 2., 1.]),
    indices=tensor([0, 2, 1]))
"""

from __future__ import annotations

import numpy as np

from minitorch import return_types
from minitorch._backend import array_module, onto_device_of, to_numpy
from minitorch._tensor import Tensor, _Default, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import laid_out_as, normalize_dim
from minitorch.ops.scatter import scatter

__all__ = ["unique", "sort", "argsort", "topk", "median", "bincount"]


def _check_empty_dims(shape: tuple, d: int) -> None:
    """``unique`` along ``d`` of an empty tensor: PyTorch's errors where another dimension
    than ``d`` is empty too (there are no slices to compare)."""
    empty_dims = [i for i, s in enumerate(shape) if s == 0]
    if empty_dims and d not in empty_dims:  # (PyTorch asks this first)
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique "
                           "cannot be applied")
    if len(empty_dims) > 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot "
                           "be applied ")


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
        # each NaN is a value of its own, as in PyTorch (NumPy folds them into one)
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True,
                                            equal_nan=False)
        inverse = inverse.reshape(data.shape)
    else:
        d = normalize_dim(dim, data.ndim)
        _check_empty_dims(data.shape, d)
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


# ---------------------------------------------------------------- sort, argsort, topk
def _stable_order(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """The indices that sort ``x`` along ``axis``, equal elements in their original order
    and NaNs counted as the largest values (last ascending, first descending)."""
    if x.dtype == np.float16:  # NumPy sorts float16 in float32 anyway; same order
        x = x.astype(np.float32)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Descending and still stable: sort the reversed array ascending, then reverse the result
    # (NaNs, last in the ascending order, come first).
    n = x.shape[axis]
    rev = np.flip(x, axis)
    return (n - 1) - np.flip(np.argsort(rev, axis=axis, kind="stable"), axis)


def _check_sortable(x: np.ndarray, name: str) -> None:
    if x.dtype == np.bool_ and name == "topk":
        raise RuntimeError("topk does not support bool dtypes on CPU")


class Sort(Function):
    """``sort``/``topk``: values and the indices they came from (a selection: the gradient
    goes back to those indices)."""

    node_name = "SortBackward0"
    _builtin = True
    pack_order = ("indices",)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, dim, order, laid=False):
        data = a._data
        xp = array_module(data)
        idx = xp.asarray(order)
        values = xp.take_along_axis(data, idx, axis=dim) if data.ndim else data.copy()
        ctx.shape, ctx.dim = data.shape, dim
        ctx.indices = _wrap(idx.astype(np.int64))
        if laid:  # sort: both results laid out as the input (PyTorch's; topk's: contiguous)
            values, idx = laid_out_as(values, data), laid_out_as(idx, data)
        indices = _wrap(idx.astype(np.int64))
        ctx.mark_non_differentiable(indices)
        return _wrap(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        return _value_selecting_backward(grad, ctx.dim, ctx.indices, ctx.shape)


class SortStable(Sort):
    """``sort(..., stable=...)``: PyTorch's overload with the ``stable`` keyword records
    another node (the sorting is the same)."""

    node_name = "SortBackward1"
    _builtin = True


NO_STABLE = _Default(False)  # ``stable`` not given: which of PyTorch's two overloads ran


class Topk(Sort):
    node_name = "TopkBackward0"
    _builtin = True


def _value_selecting_backward(grad: Tensor, dim: int, indices: Tensor, shape: tuple) -> Tensor:
    """The gradient of an op that picked ``indices`` along ``dim``: ``grad`` written there,
    zeros elsewhere (PyTorch's ``value_selecting_reduction_backward``)."""
    zeros = _wrap(array_module(grad._data).zeros(shape, dtype=grad._data.dtype))
    if not shape:
        return grad.reshape(())
    return scatter(zeros, dim, indices, grad)


def sort(input: Tensor, dim: int = -1, descending: bool = False,  # noqa: A002
         stable: bool = NO_STABLE):
    """The elements of ``input`` sorted along ``dim``, and where each one was:
    ``torch.return_types.sort(values, indices)``.

    NaN sorts as the largest value; equal elements keep their order (see the module
    docstring). ``stable`` is accepted as in PyTorch (the order is always stable here).

    >>> import minitorch
    >>> minitorch.tensor([[2.0, 1.0, 3.0]]).sort(dim=1)
    torch.return_types.sort(
    values=tensor([[1., 2., 3.]]),
    indices=tensor([[1, 0, 2]]))
    """
    x = input._data
    d = normalize_dim(dim, x.ndim)
    if x.ndim == 0:
        order = np.zeros((), np.int64)
    else:
        order = _stable_order(to_numpy(x), d, descending)
    node = Sort if stable is NO_STABLE else SortStable
    return return_types.sort(*node.apply(input, d, order, True))


def argsort(input: Tensor, dim: int = -1, descending: bool = False, *,  # noqa: A002
            stable: bool = False) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (``sort(...).indices``)."""
    return sort(input, dim, descending, stable).indices


def check_k(k, position: int) -> None:
    """PyTorch's TypeError for a ``k`` that is not an int (a method counts from 1)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"topk(): argument 'k' (position {position}) must be int, not "
                        f"{type(k).__name__}")


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True,  # noqa: A002
         sorted: bool = True):  # noqa: A002
    """The ``k`` largest (``largest=False``: smallest) elements along ``dim``, and their
    indices: ``torch.return_types.topk(values, indices)``. NaN counts as the largest value.

    Among equal elements the lower index comes first; PyTorch's choice among them is
    unspecified (its C++ library's ``std::nth_element``). With ``sorted=False`` the order of
    the ``k`` results is unspecified in PyTorch; minitorch returns them sorted.

    >>> import minitorch
    >>> minitorch.tensor([1.0, 5.0, 3.0, 4.0]).topk(2)
    torch.return_types.topk(
    values=tensor([5., 4.]),
    indices=tensor([1, 3]))
    """
    check_k(k, 2)
    x = input._data
    d = normalize_dim(dim, x.ndim)
    _check_sortable(x, "topk")
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x.ndim == 0:
        return return_types.topk(*Topk.apply(input, d, np.zeros((), np.int64)))
    order = _stable_order(to_numpy(x), d, largest)
    order = np.take(order, np.arange(k), axis=d)
    return return_types.topk(*Topk.apply(input, d, order))


# ---------------------------------------------------------------- median
class MedianAll(Function):
    """``median()`` of all elements (the lower of the two middle ones for an even count);
    elements equal to it share the gradient evenly, as in PyTorch."""

    node_name = "MedianBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        flat = to_numpy(a._data).reshape(-1)
        if flat.size == 0:
            value = np.array(np.nan, dtype=flat.dtype)
        elif flat.dtype.kind == "f" and np.isnan(flat).any():
            value = np.array(np.nan, dtype=flat.dtype)
        else:
            value = np.sort(flat)[(flat.size - 1) // 2]
        out = _wrap(onto_device_of(np.asarray(value, flat.dtype), a._data))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        from minitorch.ops.reduction import MaxAll

        return MaxAll.backward(ctx, grad)


class MedianDim(Function):
    """``median(dim)``: the lower median along ``dim`` and its index (the first NaN, if the
    slice has one); the gradient goes to that index."""

    node_name = "MedianBackward1"
    _builtin = True
    pack_order = ("returned",)  # saved_tensors_hooks: PyTorch's pack order (the indices returned)

    @staticmethod
    def forward(ctx, a, dim, pick, keepdim):
        values, indices = Sort.forward(ctx, a, dim, pick)
        ctx.keepdim = keepdim
        if not keepdim and a._data.ndim:
            values, indices = _wrap(values._data.squeeze(dim)), _wrap(indices._data.squeeze(dim))
            ctx.mark_non_differentiable(indices)
        ctx.returned = indices  # as PyTorch saves them (an unpack hook's result replaces them)
        return values, indices

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        indices = ctx.returned
        if not ctx.keepdim and ctx.shape:
            grad, indices = grad.unsqueeze(ctx.dim), indices.unsqueeze(ctx.dim)
        return _value_selecting_backward(grad, ctx.dim, indices, ctx.shape)


def median(input: Tensor, dim=None, keepdim: bool = False, *, _position: int = 2):  # noqa: A002
    """The median: of all elements (a tensor), or along ``dim``
    (``torch.return_types.median(values, indices)``). For an even count it is the *lower*
    of the two middle values, as in PyTorch; a NaN makes the median NaN.

    >>> import minitorch
    >>> minitorch.tensor([4.0, 1.0, 3.0, 2.0]).median()
    tensor(2.)
    """
    return _median(input, dim, keepdim, MedianAll, MedianDim, return_types.median, "median",
                   _position)


def _median(input: Tensor, dim, keepdim: bool, all_node, dim_node, result, name: str,  # noqa: A002
            position: int):
    """``median`` or ``nanmedian`` (``name``): of all elements with ``all_node``, or along
    ``dim`` with ``dim_node``, the value and index picked as PyTorch picks them. (``position``:
    where ``dim`` is as called, 1 in the methods.)"""
    x = input._data
    if x.dtype == np.bool_:
        raise NotImplementedError(f"\"median_{'cpu' if dim is None else 'out'}\" not "
                                  "implemented for 'Bool'")
    if dim is None:
        return all_node.apply(input)
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{name}(): argument 'dim' (position {position}) must be int, not "
                        f"{type(dim).__name__}")
    d = normalize_dim(int(dim), x.ndim)
    if x.ndim == 0:
        return result(*dim_node.apply(input, d, np.zeros((), np.int64), keepdim))
    n = x.shape[d]
    if n == 0 and all(s for i, s in enumerate(x.shape) if i != d):
        raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    data = to_numpy(x)
    order = _stable_order(data, d, False)  # (NaN last; equal values in the order they come)
    nan = np.isnan(data) if data.dtype.kind == "f" and n else None
    if name == "nanmedian" and nan is not None:
        # the lower middle of the numbers; a slice of NaN only gives the index that PyTorch's
        # std::nth_element leaves first among elements that are all equivalent
        k = n - nan.sum(axis=d, keepdims=True)
        pick = np.take_along_axis(order, np.maximum(k - 1, 0) // 2, axis=d)
        return result(*dim_node.apply(input, d, np.where(k == 0, _nth_of_equals(n), pick),
                                      keepdim))
    pick = np.take(order, [(n - 1) // 2], axis=d) if n else np.take(order, [], axis=d)
    if nan is not None:  # a slice with a NaN: its median is its first NaN
        first_nan = np.argmax(nan, axis=d, keepdims=True)
        pick = np.where(nan.any(axis=d, keepdims=True), first_nan, pick)
    return result(*dim_node.apply(input, d, pick, keepdim))


# ---------------------------------------------------------------- bincount
class BincountWeighted(Function):
    """The weighted counts of :func:`bincount`. As in PyTorch, a result made from weights
    that require grad is recorded, but has no derivative: backward raises."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, weights, sums):
        return _wrap(sums)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bincount is not implemented")


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:  # noqa: A002
    """How often each value 0, 1, 2, ... occurs in the 1-D non-negative integer tensor
    ``input``: a tensor of ``max(input) + 1`` counts (at least ``minlength``). With
    ``weights`` (one per element of ``input``) each value gets the sum of its weights instead,
    as float32 for float32 weights and float64 for any other dtype.

    >>> import minitorch
    >>> minitorch.bincount(minitorch.tensor([0, 2, 2, 5]))
    tensor([1, 0, 2, 0, 0, 1])
    """
    x = input._data
    if x.dtype.kind not in "iu":
        raise NotImplementedError(f"\"bincount_cpu\" not implemented for "
                                  f"'{input.dtype._legacy[:-6]}'")
    data = to_numpy(x)
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    xp = array_module(x)
    if weights is None:
        return _wrap(xp.asarray(np.bincount(data, minlength=minlength).astype(np.int64)))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out_dtype = np.float32 if w.dtype == np.float32 else np.float64
    sums = np.bincount(data, weights=to_numpy(w).astype(np.float64), minlength=minlength)
    return BincountWeighted.apply(weights, xp.asarray(sums.astype(out_dtype)))


# ---------------------------------------------------------------- kthvalue, mode
def _quick_select(values: np.ndarray, k: int) -> int:
    """The index that PyTorch's CPU ``kthvalue`` picks: its quickselect (median-of-three pivot,
    NaN larger than every number) run on one slice, swapping indices along; position ``k`` of
    the result. Among equal values this decides which index comes back."""
    arr, idx = list(values), list(range(len(values)))

    def gt(x, y):  # x > y, a NaN counting as the largest
        return (x != x and y == y) or x > y

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if gt(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        if gt(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if gt(arr[lo], arr[hi]):
            swap(lo, hi)
        if gt(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while gt(pivot, arr[i]):
                i += 1
            j -= 1
            while gt(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


def _pick_per_slice(data: np.ndarray, d: int, pick_one) -> np.ndarray:
    """``pick_one(slice)`` (an index) for every 1-D slice of ``data`` along ``d``, kept as a
    dimension of size 1 (what :class:`MedianDim` takes)."""
    moved = np.moveaxis(data, d, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    picks = np.array([pick_one(row) for row in flat], np.int64).reshape(moved.shape[:-1] + (1,))
    return np.moveaxis(picks, -1, d)


class Kthvalue(MedianDim):
    """``kthvalue(k, dim)``: the ``k``-th smallest value along ``dim`` and its index; the
    gradient goes to that index."""

    node_name = "KthvalueBackward0"
    _builtin = True


class Mode(MedianDim):
    """``mode(dim)``: the most frequent value along ``dim`` and its index; the gradient goes
    to that index."""

    node_name = "ModeBackward0"
    _builtin = True


def _reduced_dim(input: Tensor, dim, name: str) -> int:  # noqa: A002
    x = input._data
    d = normalize_dim(int(dim), x.ndim)
    if x.ndim and x.shape[d] == 0 and all(s for i, s in enumerate(x.shape) if i != d):
        raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return d


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):  # noqa: A002
    """The ``k``-th smallest element along ``dim`` (``k`` counts from 1) and its index:
    ``torch.return_types.kthvalue(values, indices)``. NaN counts as the largest value; among
    equal values the index is the one PyTorch's quickselect lands on.

    >>> import minitorch
    >>> minitorch.tensor([3.0, 1.0, 2.0]).kthvalue(2)
    torch.return_types.kthvalue(
    values=tensor(2.),
    indices=tensor(2))
    """
    x = input._data
    if x.dtype == np.bool_:
        raise NotImplementedError("\"kthvalue_cpu\" not implemented for 'Bool'")
    d = _reduced_dim(input, dim, "kthvalue")
    size = x.shape[d] if x.ndim else 1
    if not (1 <= k <= size) and x.size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if x.ndim == 0 or x.size == 0:
        pick = np.zeros(x.shape and tuple(1 if i == d else s for i, s in enumerate(x.shape)),
                        np.int64)
        return return_types.kthvalue(*Kthvalue.apply(input, d, pick, keepdim))
    data = to_numpy(x)
    pick = _pick_per_slice(data, d, lambda row: _quick_select(row, k - 1))
    return return_types.kthvalue(*Kthvalue.apply(input, d, pick, keepdim))


def _mode_index(row: np.ndarray) -> int:
    """The last index of the most frequent value (the smallest such value on a tie)."""
    values, inverse, counts = np.unique(row, return_inverse=True, return_counts=True)
    best = int(np.argmax(counts))
    return int(np.flatnonzero(inverse.reshape(-1) == best)[-1])


def mode(input: Tensor, dim: int = -1, keepdim: bool = False):  # noqa: A002
    """The most frequent value along ``dim`` (the smallest one on a tie) and the index of its
    last occurrence: ``torch.return_types.mode(values, indices)``. (With NaNs PyTorch's
    result depends on its C++ sort and is unspecified.)

    >>> import minitorch
    >>> minitorch.tensor([2, 1, 2, 1, 3]).mode()
    torch.return_types.mode(
    values=tensor(1),
    indices=tensor(3))
    """
    x = input._data
    d = _reduced_dim(input, dim, "mode")
    if x.ndim == 0 or x.size == 0:
        pick = np.zeros(x.shape and tuple(1 if i == d else s for i, s in enumerate(x.shape)),
                        np.int64)
        return return_types.mode(*Mode.apply(input, d, pick, keepdim))
    pick = _pick_per_slice(to_numpy(x), d, _mode_index)
    return return_types.mode(*Mode.apply(input, d, pick, keepdim))


__all__ += ["kthvalue", "mode"]


# ---------------------------------------------------------------- nanmedian
class NanmedianAll(MedianAll):
    """``nanmedian()`` of all elements: the median of those that are not NaN (NaN if there are
    none); elements equal to it share the gradient evenly."""

    node_name = "NanmedianBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        flat = to_numpy(a._data).reshape(-1)
        if flat.dtype.kind == "f":
            flat = flat[~np.isnan(flat)]
        value = np.sort(flat)[(flat.size - 1) // 2] if flat.size else np.nan
        out = _wrap(onto_device_of(np.array(value, a._data.dtype), a._data))
        ctx.save_for_backward(a, out)
        return out


class NanmedianDim(MedianDim):
    """``nanmedian(dim)``: the lower median of the numbers along ``dim`` and its index."""

    node_name = "NanmedianBackward1"
    _builtin = True


def _nth_of_equals(n: int) -> int:
    """Where ``std::nth_element`` (libstdc++'s introselect, nth = 0) finds the first element
    of ``n`` when none is less than another, as for NaNs: each round swaps the middle element
    to the front, partitions the rest by swapping from both ends and keeps the left part."""
    idx, last = list(range(n)), n
    while last > 3:
        mid = last // 2
        idx[0], idx[mid] = idx[mid], idx[0]
        lo, hi = 1, last
        while True:
            hi -= 1
            if lo >= hi:
                break
            idx[lo], idx[hi] = idx[hi], idx[lo]
            lo += 1
        last = lo
    return idx[0]


def nanmedian(input: Tensor, dim=None, keepdim: bool = False, *, _position: int = 2):  # noqa: A002
    """``median`` that leaves NaN out: the lower middle of the numbers (NaN when there are
    none), of all elements or along ``dim`` (``torch.return_types.nanmedian(values,
    indices)``).

    >>> import minitorch
    >>> minitorch.tensor([1.0, float("nan"), 3.0, 2.0]).nanmedian()
    tensor(2.)
    """
    return _median(input, dim, keepdim, NanmedianAll, NanmedianDim, return_types.nanmedian,
                   "nanmedian", _position)


__all__ += ["nanmedian"]


# ---------------------------------------------------------------- unique_consecutive
class UniqueConsecutive(Unique):
    """The values ``unique_consecutive`` kept: recorded for an input that requires grad, with
    no derivative (backward raises), as in PyTorch."""

    node_name = "UniqueConsecutiveBackward0"
    _builtin = True
    _aten_name = "unique_consecutive"


def unique_consecutive(input: Tensor, return_inverse: bool = False,  # noqa: A002
                       return_counts: bool = False, dim: int | None = None):
    """``input`` with each run of equal consecutive elements (or slices along ``dim``) kept
    once, like the Unix ``uniq``: ``values``, and as asked the ``inverse`` (the run each
    element belongs to) and the ``counts`` (the length of each run). NaN equals nothing, so
    NaNs stay; ``-0.0`` and ``0.0`` are one run.

    >>> import minitorch
    >>> minitorch.unique_consecutive(minitorch.tensor([1, 1, 2, 2, 3, 1]), return_counts=True)
    (tensor([1, 2, 3, 1]), tensor([2, 2, 1, 1]))
    """
    data = to_numpy(input._data)
    if dim is None:
        rows, keep_shape = data.reshape(-1, 1), data.shape
    else:
        if data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        d = normalize_dim(dim, data.ndim)
        _check_empty_dims(data.shape, d)
        moved = np.moveaxis(data, d, 0)
        rows = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:])))
        keep_shape = (moved.shape[0],)
    n = rows.shape[0]
    new_run = np.ones(n, bool)
    new_run[1:] = (rows[1:] != rows[:-1]).any(axis=1)  # (NaN != NaN: a NaN starts a run)
    starts = np.flatnonzero(new_run)
    if dim is None:
        values = data.reshape(-1)[starts]
    else:
        values = np.take(data, starts, axis=d)
    xp = array_module(input._data)
    out = [UniqueConsecutive.apply(input, xp.asarray(values))]
    if return_inverse:
        inverse = np.cumsum(new_run) - 1 if n else np.zeros(0, np.int64)
        out.append(_wrap(xp.asarray(inverse.astype(np.int64).reshape(keep_shape))))
    if return_counts:
        out.append(_wrap(xp.asarray(np.diff(np.append(starts, n)).astype(np.int64))))
    return out[0] if len(out) == 1 else tuple(out)


__all__ += ["unique_consecutive"]

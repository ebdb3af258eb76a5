"""Indexing: reading ``x[key]`` and writing ``x[key] = value``, both differentiable.

* Basic indexing (ints, slices, ``None``, ``...``) gives a *view*, one op per indexed dimension,
  as in PyTorch: ``x[0]`` is ``SelectBackward0``, ``x[1:3]`` is ``SliceBackward0`` (those view
  Functions live in ``ops/shape.py``, beside the other views, which ``cat`` and ``stack`` use).
* Advanced indexing (an integer tensor or list, or a boolean mask) copies: ``IndexBackward0``.
  Its backward *adds* the gradient into the picked positions, so an index used twice gets the
  gradient twice.
* ``x[key] = v`` writes into the view that the basic part of the key picks, in place
  (``copy_``, or ``index_put_`` with index tensors); in a graph, ``x``'s node becomes
  ``CopySlices`` (``ops/views.py``).

Example:
    >>> import minitorch
    >>> x = minitorch.zeros(3, requires_grad=True)
    >>> x[minitorch.tensor([0, 0, 2])].sum().backward()
    >>> x.grad
    tensor([2., 0., 1.])
"""

from __future__ import annotations

import numbers
import re
import warnings

import numpy as np

from minitorch import _dtype, _warnings
from minitorch._backend import array_module, open_grid, to_numpy
from minitorch._tensor import Tensor, _counter, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops import shape as _shape
from minitorch.ops._util import (
    as_tensor,
    check_in_bounds,
    check_tensor,
    first_out_of_bounds,
    normalize_dim,
    unpacked_by_hooks,
)
from minitorch.ops.shape import Embed, Select, Slice, _view_of  # noqa: F401  (view indexing)

__all__ = ["getitem", "setitem", "gather", "select", "narrow"]


def _is_array(k) -> bool:
    """Whether an index is an array (NumPy's or a device library's), not a number or a
    tensor."""
    return hasattr(k, "shape") and not isinstance(k, (np.generic, Tensor))


def _index_error(e: IndexError, shape: tuple, key) -> IndexError:
    """NumPy's IndexError for advanced indexing, in PyTorch's words."""
    message = str(e)
    if message.startswith("boolean index did not match"):
        d = 0  # the dimension of x that the next index applies to
        for k in key if isinstance(key, tuple) else (key,):
            if _is_array(k) and k.dtype == np.bool_:
                for i, n in enumerate(k.shape):
                    if shape[d + i] != n:
                        return IndexError(
                            f"The shape of the mask [{', '.join(map(str, k.shape))}] at index "
                            f"{i} does not match the shape of the indexed tensor "
                            f"[{', '.join(map(str, shape))}] at index {d + i}")
                d += k.ndim
            else:
                d += 1
    if message.startswith("shape mismatch: indexing arrays could not be broadcast"):
        shapes = [s.strip(",").replace(",", ", ")
                  for s in re.findall(r"\(([^)]*)\)", message)]
        return IndexError("shape mismatch: indexing tensors could not be broadcast together "
                          f"with shapes {', '.join(f'[{s}]' for s in shapes)}")
    if re.fullmatch(r"index -?\d+ is out of bounds for axis \d+ with size 0", message):
        return IndexError("index is out of bounds for dimension with size 0")  # PyTorch's words
    found = re.fullmatch(r"(index -?\d+ is out of bounds for )axis (\d+)( with size \d+)", message)
    if found:  # PyTorch counts the index tensors, not the dimensions: x[:, i] says dimension 0
        position = _tensor_index_position(shape, key, int(found[2]))
        return IndexError(f"{found[1]}dimension {position}{found[3]}")
    return IndexError(message.replace("axis", "dimension"))


def _tensor_index_position(shape: tuple, key, axis: int) -> int:
    """Which of the key's index tensors indexes ``axis`` (a k-d mask counts as k of them, as
    PyTorch turns it into k index tensors); ``axis`` itself if none does."""
    keys = key if isinstance(key, tuple) else (key,)
    used = sum(k.ndim if _is_array(k) and k.dtype == np.bool_ else 1
               for k in keys if k is not None and k is not Ellipsis)
    d = position = 0
    for k in keys:
        if k is Ellipsis:
            d += len(shape) - used
        elif k is None:
            continue
        elif _is_array(k):
            width = k.ndim if k.dtype == np.bool_ else 1
            if k.dtype != np.bool_ and d == axis:
                return position
            position, d = position + width, d + width
        else:
            d += 1
    return axis


def _check_on_the_host(data, key) -> None:
    """Raise NumPy's IndexError for a key out of bounds of a GPU array. CuPy checks no index:
    it wraps one around when reading and writing, and writes out of bounds (a crash) in
    ``add.at``. Each index array's smallest and largest value is read from the device (two
    numbers) and compared with its dimension; only a key that fails (or a mask of another
    shape) is tried on a stand-in of the array's shape, with its index arrays copied to the
    host, for NumPy's message."""
    if type(data) is np.ndarray:
        return
    keys = key if isinstance(key, tuple) else (key,)
    masks = [k for k in keys if _is_array(k) and k.dtype == np.bool_]
    used = sum(1 for k in keys if k is not None and k is not Ellipsis) + sum(
        m.ndim - 1 for m in masks)
    d, fits = 0, used <= data.ndim
    for k in keys if fits else ():
        if k is Ellipsis:
            d += data.ndim - used
        elif _is_array(k) and k.dtype == np.bool_:
            fits = fits and k.shape == data.shape[d:d + k.ndim]
            d += k.ndim
        elif k is not None:
            if _is_array(k) and k.size:
                n = data.shape[d]
                fits = fits and -n <= int(k.min()) and int(k.max()) < n
            d += 1
    if not fits:
        np.broadcast_to(np.empty((), np.bool_), data.shape)[
            tuple(to_numpy(k) if _is_array(k) else k for k in keys)]


class Index(Function):
    """Advanced indexing with integer arrays or masks (copies)."""

    node_name = "IndexBackward0"
    _builtin = True
    pack_order = ((lambda node: _index_tensors(node.key, node.given),  # saved_tensors_hooks
                   lambda node, t: _put_index_arrays(node, "key", t)),)
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, key, given=None):  # given: the key as called (its index tensors)
        ctx.shape, ctx.key, ctx.given = a._data.shape, key, given
        try:
            _check_on_the_host(a._data, key)
            return _wrap(a._data[key])
        except IndexError as e:
            raise _index_error(e, a._data.shape, key) from None

    @staticmethod
    def backward(ctx, grad):
        return IndexAdd.apply(grad, ctx.shape, ctx.key)


def _index_tensors(key, given=None) -> list:
    """The index arrays of an advanced-indexing key, as tensors: what PyTorch's
    ``IndexBackward0`` saves (for ``saved_tensors_hooks``; slices and None save nothing). The
    index tensors of the key as called (``given``) are PyTorch's, in their order, where
    there are as many of them (a list in the key is a new tensor)."""
    parts = key if isinstance(key, tuple) else (key,)
    arrays = [k for k in parts if hasattr(k, "dtype") and hasattr(k, "shape")]
    given = given if isinstance(given, tuple | list) else (given,)
    tensors = [t for t in given if isinstance(t, Tensor) and t._data.ndim]
    if len(tensors) == len(arrays):
        return tensors
    return [_wrap(k) for k in arrays]


def _put_index_arrays(node, name: str, tensors: list) -> None:
    """Put the index tensors a ``saved_tensors_hooks`` unpack hook gave into the key that
    backward reads (``node.<name>``), in place of its index arrays."""
    arrays = iter([t._data for t in tensors])
    key = getattr(node, name)
    if isinstance(key, tuple):
        key = tuple(next(arrays) if hasattr(k, "dtype") and hasattr(k, "shape") else k
                    for k in key)
    else:
        key = next(arrays)
    setattr(node, name, key)


# (get, put) of the index tensor a node was called with, for ``pack_order``: backward reads
# the one unpacked (as a flat array, the op's ``index``; take's keeps its shape)
_INDEX = (lambda node: _given(node, node.index),
          lambda node, t: setattr(node, "index", t[0]._data.reshape(-1)))
_INDEX_AS_IS = (lambda node: _given(node, node.index),
                lambda node, t: setattr(node, "index", t[0]._data))


def _given(node, index) -> Tensor:
    """The index tensor an op was called with (``node.given``), which PyTorch's node saves, or
    else (an op applied from a backward) ``index`` as a tensor (for ``saved_tensors_hooks``)."""
    return _wrap(index) if node.given is None else node.given


class IndexAdd(Function):
    """Backward of advanced indexing: add ``grad`` into zeros at ``key`` (repeats add up)."""

    node_name = "IndexPutImplBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = array_module(grad._data).zeros(shape, dtype=grad._data.dtype)
        _add_at(out, key, grad._data)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key)


class IndexPut(Function):
    """The value of ``x.index_put_(indices, v)``, which ``x[key] = v`` runs when the key has
    index tensors (``indices`` is the NumPy key): ``x`` with ``v`` written at ``indices``, or
    added there with ``accumulate=True`` (repeated indices add up)."""

    node_name = "IndexPutBackward0"
    _builtin = True
    pack_order = ((lambda node: _index_tensors(node.indices, node.given),  # saved_tensors_hooks
                   lambda node, t: _put_index_arrays(node, "indices", t)),)

    @staticmethod
    def forward(ctx, a, value, indices, accumulate=False, given=None):
        ctx.indices, ctx.accumulate, ctx.given = indices, accumulate, given
        out = a._data.copy()
        try:
            _check_on_the_host(out, indices)
        except IndexError as e:
            raise _index_error(e, a._data.shape, indices) from None
        if accumulate:
            got = _indexed_shape(out, indices)
            if got is not None and not _broadcasts_to(value._data.shape, got):
                raise _shape_mismatch(value._data.shape, got)
            try:
                _add_at(out, indices, value._data)
            except IndexError as e:
                raise _index_error(e, a._data.shape, indices) from None
            return _wrap(out)
        try:
            out[indices] = value._data
        except (ValueError, TypeError, IndexError) as e:  # PyTorch checks the shapes first
            got = _indexed_shape(out, indices)
            if got is not None and _broadcasts_to(value._data.shape, got) is False:
                raise _shape_mismatch(value._data.shape, got) from None
            if isinstance(e, IndexError):
                raise _index_error(e, a._data.shape, indices) from None
            raise
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        key = ctx.indices if len(ctx.indices) > 1 else ctx.indices[0]
        if ctx.accumulate:  # the old values were added to: all of the gradient reaches them
            return grad, Index.apply(grad, key)
        # The old values at ``indices`` were overwritten: no gradient reaches them.
        written = array_module(grad._data).zeros(grad._data.shape, dtype=np.bool_)
        written[ctx.indices] = True
        return grad.masked_fill(_wrap(written), 0.0), Index.apply(grad, key)


def _indexed_shape(out, indices) -> tuple | None:
    """The shape of ``out[indices]`` whatever the index values (out of bounds too), or None
    where it cannot be told (an index into an empty dimension). A GPU array's masks are read
    on the host."""
    safe = tuple((np.zeros(k.shape, np.int64) if k.dtype != np.bool_ else to_numpy(k))
                 if _is_array(k) else k for k in indices)
    try:
        return np.broadcast_to(np.empty((), np.bool_), out.shape)[safe].shape
    except IndexError:
        return None


def _shape_mismatch(shape: tuple, got: tuple) -> RuntimeError:
    """PyTorch's error for a value that does not broadcast to what the index picks."""
    return RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, shape))}] "
                        f"cannot be broadcast to indexing result of shape "
                        f"[{', '.join(map(str, got))}]")


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False


def _add_at(out, key, values) -> None:
    """``out[key] += values`` where repeated indices add up (NumPy's ``add.at``)."""
    if type(out) is np.ndarray:
        np.add.at(out, key, values)
    else:  # CuPy has add.at from version 13 (before, only cupyx.scatter_add, now deprecated)
        at = getattr(array_module(out).add, "at", None)
        if at is None:
            import cupyx

            at = cupyx.scatter_add
        if out.dtype.itemsize < 4 and out.dtype.kind in "biu":  # CuPy adds 32- and 64-bit
            wide = out.astype(np.int64)                            # integers only: add there
            at(wide, key, array_module(out).asarray(values).astype(np.int64))
            out[...] = wide != 0 if out.dtype.kind == "b" else wide.astype(out.dtype)
            return
        at(out, key, values)


class Gather(Function):
    node_name = "GatherBackward0"
    _builtin = True
    pack_order = ("index", 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.shape, ctx.dim, ctx.index = a._data.shape, dim, index
        ctx.save_for_backward(a)  # as PyTorch (for its pack hooks; backward reads no values)
        data, idx = a._data, index._data
        if data.ndim == 0:
            return _wrap(data[()] + array_module(data).zeros(idx.shape, data.dtype))
        if idx.ndim == 0:  # a 0-d index into a vector: one number
            return _wrap(array_module(data).asarray(data.take(idx)))
        # outside ``dim`` the index may be smaller than the input: gather from that corner
        corner = tuple(slice(None) if k == dim else slice(0, n) for k, n in enumerate(idx.shape))
        return _wrap(np.take_along_axis(data[corner], idx, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        xp = array_module(grad._data)
        out = xp.zeros(ctx.shape, dtype=grad._data.dtype)
        if not ctx.shape:  # a 0-d input: every gathered number is it
            return _wrap(out + grad._data.sum(dtype=out.dtype)), None
        if unpacked_by_hooks(ctx):
            check_in_bounds(ctx.index._data, ctx.dim, ctx.shape[ctx.dim])
        idx = list(open_grid(xp, ctx.index._data.shape)) or [None]  # a 0-d index: one place
        idx[ctx.dim] = ctx.index._data
        if grad._requires_grad and grad_mode._state.enabled:  # double backward: recorded
            return IndexAdd.apply(grad, ctx.shape, tuple(idx)), None
        _add_at(out, tuple(idx), grad._data)
        return _wrap(out), None


# ---------------------------------------------------------------- key handling
def _is_advanced(k) -> bool:
    """Index tensors, lists and arrays (not a 0-dim integer tensor or NumPy array, which acts
    as an int)."""
    if isinstance(k, Tensor):
        return not (k._data.ndim == 0 and k._data.dtype.kind in "iu")
    if isinstance(k, np.ndarray):
        return not (k.ndim == 0 and k.dtype.kind in "iu" and k.dtype != np.uint8)
    return isinstance(k, (list, range))


_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))


def _to_numpy_index(k):
    if isinstance(k, Tensor):
        if k._data.dtype not in _INDEX_DTYPES:  # int8 and int16 too (a NumPy array of them
            raise IndexError("tensors used as indices must be long, int, byte or bool "
                             "tensors")  # is read as int64)
        k = k._data
    elif isinstance(k, (list, range)):
        values = [x.item() if isinstance(x, Tensor) else x for x in k]
        _check_sequence(values)
        k = np.asarray(values) if values else np.zeros(0, np.int64)  # x[[]] picks nothing
        if k.dtype.kind == "f":  # PyTorch reads Python floats in a list as ints (1.5 is 1)
            k = k.astype(np.int64)
    if k.dtype.kind not in "biu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    if k.dtype == np.uint8:  # a uint8 tensor is a mask (PyTorch's old convention)
        warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                      "torch.bool instead.", UserWarning, stacklevel=4)
        k = k.astype(np.bool_)
    return k


def _check_sequence(values) -> None:
    """PyTorch reads each number of a list index as a C ``long long``: Python floats are
    truncated to ints, but NumPy's floats and ints beyond 64 bits are refused."""
    for v in values:
        if isinstance(v, (list, tuple)):
            _check_sequence(v)
        elif isinstance(v, np.floating):
            raise TypeError(f"'{type(v).__module__}.{type(v).__name__}' object cannot be "
                            "interpreted as an integer")
        elif isinstance(v, int) and not -(2 ** 63) <= v < 2 ** 63:
            raise ValueError("Overflow when unpacking long long")


def _as_tuple_key(key) -> tuple:
    """The key as a tuple of indices, as PyTorch reads it.

    A Python bool is a 0-dim mask (``x[True]`` adds a dimension, ``x[False]`` selects nothing);
    a list that holds sequences, slices, None, ``...`` or tensors means a tuple of indices
    (``x[[[0, 1], [1, 2]]]`` is ``x[[0, 1], [1, 2]]``); a range is a list of ints.
    """
    if isinstance(key, list) and any(isinstance(k, (list, tuple, range, slice, Tensor,
                                                    np.ndarray)) or
                                     k is None or k is Ellipsis for k in key):
        key = tuple(key)
    keys = key if isinstance(key, tuple) else (key,)
    # A tuple inside the key is a list of indices (``x[(0, 1),]`` is ``x[[0, 1]]``).
    return tuple(np.array(k) if isinstance(k, (bool, np.bool_)) else
                 list(k) if isinstance(k, tuple) else k for k in keys)


def _check_bounds(index: int, size: int, dim: int) -> int:
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return index + size if index < 0 else index


def _dims_used(k) -> int:
    """How many dimensions of x an index uses: a mask uses one per mask dimension."""
    if k is None or k is Ellipsis:
        return 0
    return k.ndim if getattr(k, "dtype", None) == np.bool_ else 1


def _parse_key(key, data) -> tuple:
    """Split a PyTorch index into the two steps PyTorch takes.

    First the *basic* part (ints, slices, None) picks a view; then the index tensors, kept at
    the dimensions where they appeared, index that view. This differs from NumPy when ints and
    index tensors are mixed: ``x[0, :, idx]`` selects in dimension 0 first.

    Returns ``(basic, advanced)``: two keys for ``data`` (``advanced`` is None without index
    tensors), its index arrays on ``data``'s device (a CPU index tensor may index a GPU tensor).
    """
    shape = data.shape
    keys = [_to_numpy_index(k) if _is_advanced(k) else int(k) if isinstance(k, np.ndarray) else k
            for k in _as_tuple_key(key)]
    if type(data) is not np.ndarray:
        xp = array_module(data)
        keys = [xp.asarray(k) if type(k) is np.ndarray else k for k in keys]
    if not shape and any(isinstance(k, (numbers.Integral, slice, Tensor)) for k in keys):
        raise IndexError(_ZERO_DIM_MESSAGE)
    used = sum(_dims_used(k) for k in keys)
    if used > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
    basic, advanced = [], {}
    ellipsis_dims = len(shape) - used  # a second ``...`` stands for no dimension
    dim = 0  # the dimension of x that the next index applies to
    view_dim = 0  # the same dimension in the view that ``basic`` picks
    for k in keys:
        if _is_array(k) and k.ndim == 0 and k.dtype == np.bool_:
            # a single bool, as PyTorch reads it: a new dimension (an unsqueeze), indexed by
            # [0] (True, it stays) or by nothing (False, it is empty)
            basic.append(None)
            advanced[view_dim] = array_module(data).zeros(1 if k else 0, np.int64)
            view_dim += 1
        elif k is Ellipsis or _is_array(k):
            n = _dims_used(k)
            if k is Ellipsis:
                n, ellipsis_dims = ellipsis_dims, 0
            if k is not Ellipsis:
                advanced[view_dim] = k
            basic += [slice(None)] * n
            dim, view_dim = dim + n, view_dim + n
        elif k is None:
            basic.append(None)
            view_dim += 1
        elif isinstance(k, (numbers.Integral, Tensor)):
            _check_bounds(int(k), shape[dim], dim)
            basic.append(int(k))  # a negative index as it is (SelectBackward0 shows it)
            dim += 1
        elif isinstance(k, slice):
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero")
            basic.append(k)
            dim, view_dim = dim + 1, view_dim + 1
        else:
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                f"are valid indices (got {type(k).__name__})"
            )
    if not advanced:
        return tuple(basic), None
    adv, d = [], 0
    while d <= max(advanced):  # e.g. {1: idx} -> (slice(None), idx)
        k = advanced.get(d, slice(None))
        adv.append(k)
        d += max(_dims_used(k), 1)
    return tuple(basic), tuple(adv)


def getitem(x: Tensor, key) -> Tensor:
    """``x[key]`` with PyTorch's semantics (see the module docstring)."""
    if not (x._requires_grad and grad_mode._state.enabled):  # nothing to record
        plain = _plain_key(x, key)
        if plain is not None:  # ints and slices: one NumPy view, the tensor the ops would make
            return _view_of(x, x._data[plain])
    if type(key) is int:  # x[i], the most common key: a view of one position of dimension 0
        if not x._data.ndim:
            raise IndexError(_ZERO_DIM_MESSAGE)
        _check_bounds(key, x._data.shape[0], 0)
        return Select.apply(x, 0, key)  # (a negative key as it is: the node shows it)
    if isinstance(key, slice):  # x[a:b] is always a SliceBackward0, even when it takes all
        if x._data.ndim == 0:
            raise IndexError(_ZERO_DIM_MESSAGE)
        if key.step is not None and key.step <= 0:
            raise ValueError("step must be greater than zero")
        start, stop, step = key.indices(x._data.shape[0])
        return Slice.apply(x, 0, start, max(stop, start), step)
    basic, advanced = _parse_key(key, x._data)
    out = _basic_view(x, basic)
    if advanced is not None:
        # (the key as called, in a tuple: a CPU index tensor may index a tensor on any device)
        return Index.apply(out, advanced if len(advanced) > 1 else advanced[0],
                           key if isinstance(key, tuple) else (key,))
    if out is x:  # x[...] or x[:, :]: still a new view, as in PyTorch
        out = _shape.Alias.apply(x)
    return out


def _plain_key(x: Tensor, key) -> tuple | None:
    """``key`` as a NumPy key that gives a view, if it is ints (in range) and slices (with
    positive steps), which NumPy reads as PyTorch does; else None (the general path)."""
    keys = key if type(key) is tuple else (key,)
    shape = x._data.shape
    if len(keys) > len(shape):
        return None
    for k, n in zip(keys, shape):
        if type(k) is int:
            if not -n <= k < n:
                return None
        elif type(k) is not slice or (k.step is not None and k.step <= 0):
            return None
    return keys + (Ellipsis,)  # ``...``: a 0-d result is still a view


_ZERO_DIM_MESSAGE = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                     "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")


def _basic_view(x: Tensor, basic: tuple) -> Tensor:
    """The view of ``x`` that the basic part of a key picks (``x`` itself when it picks all),
    made with one view op per index, as PyTorch records them."""
    out, dim = x, 0
    for k in basic:
        if k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(k, slice):
            size = out._data.shape[dim]
            if not _takes_all(k, size):  # ``:`` is skipped
                start, stop, step = k.indices(size)
                out = Slice.apply(out, dim, start, max(stop, start), step)
            dim += 1
        else:
            out = Select.apply(out, dim, k)
    return out


def _takes_all(k: slice, size: int) -> bool:
    """Whether PyTorch skips the slice ``k``: ``:``, ``0:``, ``:n`` (or more), not ``-n:``."""
    return k.start in (None, 0) and k.step in (None, 1) and k.indices(size)[1] == size


def setitem(x: Tensor, key, value) -> None:
    """``x[key] = value``, as PyTorch does it: the basic part of the key (ints, slices, None,
    ``...``) picks a view of ``x`` (or ``x`` itself when it picks all), and ``value`` is
    written into that view in place: with ``index_put_`` when the key has index tensors
    (``IndexPutBackward0``), else with ``copy_`` (``fill_`` for a single number; ``value``
    broadcast with ``expand``, its leading dimensions of size 1 dropped first).

    Writing into a view of a recorded ``x`` rewrites ``x``'s history: its node becomes
    ``CopySlices`` (see ``ops/views.py``).
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _check_number(value, x.dtype)  # a number that does not fit x's dtype: PyTorch's error
    if key is True or key is False:  # not a mask: True adds a dimension (as None does), and
        if key is False:  # False picks nothing, so nothing is written
            return
        key = None
    if (not grad_mode._state.enabled or not (x._requires_grad or (
            isinstance(value, Tensor) and value._requires_grad))) and _plain_write(x, key, value):
        return  # nothing to record, and NumPy could write it
    if (isinstance(key, Tensor) and key._data.dtype == np.uint8
            and (not isinstance(value, Tensor) or value._data.ndim == 0)):
        # PyTorch writes a single value through masked_fill_, which takes only bool masks
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           "unsigned char")
    basic, advanced = _parse_key(key, x._data)
    value = as_tensor(value, x)
    if value._wrapped and value._data.dtype != x._data.dtype:
        value = value.to(x.dtype)
    shape = tuple(value._data.shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    target = _basic_view(x, basic)
    if advanced is not None:
        if value._data.size == 1 and _one_mask(advanced):  # PyTorch's index_put_ then runs
            value = value.to(x.dtype)  # masked_fill_ with the value as a number: converted
        if value._data.dtype != x._data.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{x.dtype._legacy[:-6]} for the destination and {value.dtype._legacy[:-6]} for "
                "the source."
            )
        if shape != value._data.shape:
            value = value.view(shape)
        # (the key as called, in a tuple: its index tensors are what PyTorch's node packs)
        target._inplace(_put, value, advanced, key if isinstance(key, tuple) else (key,))
    elif value._data.shape == target._data.shape:
        target.copy_(value)
    elif not value._data.ndim:  # a single number: fill_ with it (FillBackward3)
        target._inplace(FillFrom.apply, value)
    else:  # PyTorch's copy_to: always a view (ViewBackward0), then expand if still needed
        value = value.view(shape)
        target.copy_(value if value._data.shape == target._data.shape
                     else value.expand(target._data.shape))


def _one_mask(advanced: tuple) -> bool:
    """Whether the index tensors of a key are one bool mask (slices aside)."""
    arrays = [k for k in advanced if not isinstance(k, slice)]  # (a 0-d mask is not one)
    return len(arrays) == 1 and arrays[0].dtype == np.bool_ and arrays[0].ndim > 0


def _plain_write(x: Tensor, key, value) -> bool:
    """``x[key] = value`` when nothing is recorded and the key is ints and slices: NumPy writes
    ``value`` straight into ``x``'s memory (the version goes up). Returns False, having written
    nothing, where the general path is needed (to raise PyTorch's error, for example)."""
    plain, data = _plain_key(x, key), x._data
    if (plain is None or type(data) is not np.ndarray or not data.flags.writeable
            or x.is_inference()):
        return False
    value = as_tensor(value, x)  # a number: PyTorch's rules for it
    src, target = value._data, data[plain]
    if type(src) is not np.ndarray or np.may_share_memory(src, target):
        return False
    while src.ndim > target.ndim and src.shape[0] == 1:  # PyTorch drops leading 1s
        src = src[0]
    try:
        target[...] = src  # broadcasts as ``expand`` does; converts as ``copy_`` does
    except ValueError:
        return False
    _counter(x).value += 1
    return True


def _put(x: Tensor, value: Tensor, advanced: tuple, given: tuple | None = None) -> Tensor:
    """What ``x.index_put_(advanced, value)`` writes (``given``: the key as called)."""
    return IndexPut.apply(x, value, advanced, False, given)


def select(input: Tensor, dim: int, index: int, *, _position: int = 3) -> Tensor:  # noqa: A002
    """Position ``index`` of dimension ``dim``, which disappears (a view): ``x.select(0, i)`` is
    ``x[i]``, ``x.select(1, i)`` is ``x[:, i]``.

    >>> import minitorch
    >>> minitorch.arange(6).reshape(2, 3).select(1, -1)
    tensor([2, 5])
    """
    shape = input._data.shape
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, len(shape))
    if not isinstance(index, numbers.Integral):
        raise TypeError(f"select(): argument 'index' (position {_position}) must be int, not "
                        f"{type(index).__name__}")
    if not -shape[d] <= index < shape[d]:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"[{', '.join(map(str, shape))}] at dimension {d}")
    return Select.apply(input, d, int(index), dim)  # (as called: the node shows them)


def narrow(input: Tensor, dim: int, start, length: int) -> Tensor:  # noqa: A002
    """``length`` positions of dimension ``dim`` from ``start`` on (a view, ``SliceBackward0``).

    >>> import minitorch
    >>> minitorch.arange(6).narrow(0, 1, 3)
    tensor([1, 2, 3])
    """
    shape = input._data.shape
    if not shape:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor) and (start._data.ndim or start._data.dtype.kind not in "iu"):
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    for name, value in (("dim", dim), ("start", start), ("length", length)):
        if not hasattr(value, "__index__") or isinstance(value, bool):
            raise TypeError(f"narrow(): argument '{name}' must be int, not "
                            f"{type(value).__name__}")  # 1.0 is not cut down to 1
    d = normalize_dim(dim, len(shape))
    size, start = shape[d], int(start)  # start may be a 0-d integer tensor
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    return Slice.apply(input, d, start, start + length, 1)


def _check_number(value, dt) -> None:
    """PyTorch reads the number of ``x[key] = number`` as a C ``long long`` or ``double``, then
    converts it to ``x``'s dtype with a check (which PyTorch 2.13 skips for float16)."""
    if isinstance(value, int) and not -(2 ** 63) <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    if dt is not _dtype.float16:
        _dtype.number_as(value, dt)


class FillFrom(_shape.Copy):
    """``x.fill_(tensor)``: what ``x[...] = number`` records."""

    node_name = "FillBackward3"
    _builtin = True


def gather(x: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
    """Pick values along ``dim`` at ``index`` (same number of dims as ``x``):
    ``out[i][j] = x[index[i][j]][j]`` for ``dim=0``.

    >>> import minitorch
    >>> minitorch.tensor([[1, 2], [3, 4]]).gather(1, minitorch.tensor([[1], [0]]))
    tensor([[2],
            [3]])
    """
    check_tensor(index, "gather", "index", 3)
    if sparse_grad:
        raise NotImplementedError("gather(sparse_grad=True): minitorch has no sparse tensors; "
                                  "its gradient is dense (sparse_grad=False)")
    d = normalize_dim(dim, x._data.ndim)
    idx = index._data
    if idx.dtype not in (np.int32, np.int64):
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    if idx.ndim != x._data.ndim and not (idx.ndim <= 1 and x._data.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    shape = x._data.shape or (1,)
    for k, n in enumerate(idx.shape):
        if k != d and n > shape[k]:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {list(idx.shape)} to be no "
                f"larger than self {list(x._data.shape)} apart from dimension {d}")
    check_in_bounds(idx, d, shape[d] if shape else 1)
    return Gather.apply(x, d, index)


# ---------------------------------------------------------------- index_select / index_add
def _index_vector(index: Tensor, name: str, int_message: str) -> np.ndarray:
    """The indices of ``index_select``/``index_add`` as a 1-D integer array, or the error."""
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError(int_message)
    if index._data.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector" + (
            "" if name == "index_select" else
            f", but got dim: {index._data.ndim} with type: {index.dtype._legacy[:-6]} and "
            f"size: [{', '.join(map(str, index.shape))}]"))
    return index._data.reshape(-1)


class IndexSelect(Function):
    """``x.index_select(dim, index)``: the slices ``index`` along ``dim`` (a copy).

    Backward adds each output slice's gradient back into the slice it came from (an index
    that appears twice gets two gradients): that is ``index_add``.
    """

    node_name = "IndexSelectBackward0"
    _builtin = True
    pack_order = (_INDEX,)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, dim, index, given=None):  # given: the index tensor as called
        ctx.shape, ctx.dim, ctx.index, ctx.given = a._data.shape, dim, index, given
        if a._data.ndim == 0:  # one number: the index must be exactly [0]
            if index.size != 1:
                raise RuntimeError("index_select(): Index to scalar can have only 1 value, got "
                                   f"{index.size} value(s)")
            if int(index.reshape(-1)[0]) != 0:
                raise IndexError("index out of range in self")
            return _wrap(a._data.copy())
        size = a._data.shape[dim]
        bad = first_out_of_bounds(index, size)  # no negative indices
        if bad is not None and not size:
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        if bad is not None and dim == 1:  # (the message of PyTorch's kernel for dim 1)
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} "
                               f"axis_dim={size}")
        if bad is not None:
            raise IndexError("index out of range in self")
        return _wrap(np.take(a._data, index, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        zeros = _wrap(array_module(grad._data).zeros(ctx.shape, dtype=grad._data.dtype))
        return index_add(zeros, ctx.dim, _wrap(ctx.index), grad)


class IndexAddDim(Function):
    """``x.index_add(dim, index, source, alpha=a)``: ``x`` with ``a * source[i]`` added to
    slice ``index[i]`` of ``x`` along ``dim``.

    Backward: ``x``'s gradient passes through; ``source``'s is the slices of the output's
    gradient that it was added to (``index_select``), times ``alpha``.
    """

    node_name = "IndexAddBackward0"
    _builtin = True
    pack_order = (_INDEX, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, source, alpha, given=None):  # given: the index as called
        ctx.dim, ctx.index, ctx.alpha, ctx.given = dim, index, alpha, given
        ctx.save_for_backward(source)  # as PyTorch (for its pack hooks; backward reads no values)
        out = a._data.copy()
        src = source._data if alpha == 1 else source._data * source._data.dtype.type(alpha)
        if out.ndim == 0:
            out += src.reshape(())
            return _wrap(out)
        key = (slice(None),) * dim + (index,)
        _add_at(out, key, src)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        g_source = IndexSelect.apply(grad, ctx.dim, ctx.index)
        return grad, g_source if ctx.alpha == 1 else g_source * ctx.alpha


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:  # noqa: A002
    """The slices of ``input`` at ``index`` along ``dim``.

    >>> import minitorch
    >>> minitorch.arange(6).reshape(2, 3).index_select(1, minitorch.tensor([2, 0]))
    tensor([[2, 0],
            [5, 3]])
    """
    check_tensor(index, "index_select", "index", 3)
    idx = _index_vector(index, "index_select",
                        "index_select(): Expected dtype int32 or int64 for index")
    return IndexSelect.apply(input, normalize_dim(dim, input._data.ndim), idx, index)


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *,  # noqa: A002
              alpha=1) -> Tensor:
    """``input`` with ``alpha * source`` added into the slices ``index`` along ``dim``
    (repeated indices add up).

    >>> import minitorch
    >>> minitorch.zeros(3).index_add(0, minitorch.tensor([0, 0, 2]), minitorch.ones(3))
    tensor([2., 0., 1.])
    """
    check_tensor(index, "index_add", "index", 3)
    idx = _index_vector(index, "index_add_",
                        "index_add_(): Expected dtype int32/int64 for index but got: "
                        f"{getattr(index, 'dtype', None) and index.dtype._legacy[:-6]}")
    ndim = input._data.ndim
    dim = normalize_dim(dim, ndim)
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"index_add_(): self ({input.dtype._legacy[:-6]}) and source "
                           f"({source.dtype._legacy[:-6]}) must have the same scalar type")
    n_src = source._data.shape[dim] if source._data.ndim else 1
    if idx.size != n_src:
        raise RuntimeError(f"index_add_(): Number of indices ({idx.size}) should be equal to "
                           f"source.size(dim): ({n_src}), for dim: {dim}")
    size = input._data.shape[dim] if ndim else 1
    bad = idx[(idx < 0) | (idx >= size)]  # no negative indices (PyTorch does not wrap them)
    if bad.size:  # the message is that of the PyTorch kernel that would run: one for alpha 1
        if alpha == 1 and ndim > 1 and dim in (0, ndim - 1):  # into an outer dim, one else
            raise RuntimeError(f"index {int(bad[0])} is out of bounds for dimension {dim} "
                               f"with size {size}")
        raise IndexError("index out of range in self")
    if ndim and source._data.shape[:dim] + source._data.shape[dim + 1:] != \
            input._data.shape[:dim] + input._data.shape[dim + 1:]:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = [{', '.join(map(str, input.shape))}] source.shape = "
            f"[{', '.join(map(str, source.shape))}]")
    return IndexAddDim.apply(input, dim, idx, source, alpha, index)


__all__ += ["index_select", "index_add"]


# ---------------------------------------------------------------- take / take_along_dim
class Take(Function):
    """``x.take(index)``: the elements of ``x`` read as one flat vector, at ``index`` (any
    shape; negative indices count from the end). Backward adds the gradient back into those
    flat positions (``put_`` with ``accumulate=True``)."""

    node_name = "TakeBackward0"
    _builtin = True
    pack_order = (_INDEX_AS_IS, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, index, given=None):  # given: the index tensor as called
        ctx.shape, ctx.index, ctx.given = a._data.shape, index, given
        ctx.save_for_backward(a)  # as PyTorch (for its pack hooks; backward reads no values)
        return _wrap(a._data.reshape(-1)[index])

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        return _PutAdd.apply(grad, ctx.shape, ctx.index)


class _PutAdd(Function):
    """The backward of :class:`Take`: ``grad`` added into flat zeros of ``shape`` at ``index``
    (its own backward takes again)."""

    node_name = "PutBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, index):
        ctx.index = index
        out = array_module(grad._data).zeros(int(np.prod(shape)), dtype=grad._data.dtype)
        _add_at(out, index, grad._data)
        return _wrap(out.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return Take.apply(grad, ctx.index)


def take(input: Tensor, index: Tensor) -> Tensor:  # noqa: A002
    """The elements of ``input``, read as a flat vector, at the long tensor ``index``; the
    result has ``index``'s shape.

    >>> import minitorch
    >>> minitorch.tensor([[1, 2], [3, 4]]).take(minitorch.tensor([0, -1]))
    tensor([1, 4])
    """
    check_tensor(index, "take", "index", 2)
    idx = index._data
    if idx.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{index.dtype._legacy[:-6]}")
    return Take.apply(input, _flat_positions(idx, input._data.size,
                                             "take(): tried to take from an empty tensor"), index)


def _flat_positions(idx, n: int, empty_message: str):
    """Flat indices into ``n`` elements (negative ones count from the end), with PyTorch's
    errors for one out of range (``empty_message`` where there are no elements)."""
    if n == 0 and idx.size:
        raise IndexError(empty_message)
    bad = idx[(idx < -n) | (idx >= n)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a "
                         f"tensor of {n} elements.")
    return idx % max(n, 1)


def take_along_dim(input: Tensor, indices: Tensor, dim=None) -> Tensor:  # noqa: A002
    """``gather`` along ``dim`` after broadcasting ``input`` and ``indices`` against each
    other in every other dimension (with ``dim=None``, both flattened first): the values at
    the indices that ``argsort``, ``argmax(keepdim=True)`` ... return.

    >>> import minitorch
    >>> x = minitorch.tensor([[3, 1, 2]])
    >>> x.take_along_dim(x.argsort(dim=1), dim=1)
    tensor([[1, 2, 3]])
    """
    check_tensor(indices, "take_along_dim", "indices", 2)
    if indices._data.dtype != np.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{indices.dtype._legacy[:-6]}")
    if dim is None:
        return gather(input.view(-1), 0, indices.view(-1))  # as PyTorch: views, not copies
    ndim = input._data.ndim
    d = normalize_dim(dim, ndim)
    if indices._data.ndim != ndim:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {ndim} dimensions for input, and "
                           f"{indices._data.ndim} dimensions for indices")
    if not ndim:
        return gather(input, 0, indices)
    shape_x, shape_i = list(input._data.shape), list(indices._data.shape)
    shape_x[d] = shape_i[d] = 1
    try:
        common = list(np.broadcast_shapes(tuple(shape_x), tuple(shape_i)))
    except ValueError:
        from minitorch.ops._util import broadcast_error

        raise broadcast_error(tuple(shape_x), tuple(shape_i)) from None
    common[d] = input._data.shape[d]
    x = input.expand(common)
    common[d] = indices._data.shape[d]
    return gather(x, d, indices.expand(common))


# ---------------------------------------------------------------- index_copy / index_fill
def _dim_key(dim: int, index) -> tuple:
    return (slice(None),) * dim + (index,)


class IndexCopy(Function):
    """``x.index_copy(dim, index, source)``: ``x`` with slice ``i`` of ``source`` written
    over slice ``index[i]`` along ``dim``. Backward: ``x`` gets the gradient except on the
    overwritten slices; ``source`` reads those slices of it (``index_select``)."""

    node_name = "IndexCopyBackward0"
    _builtin = True
    pack_order = (_INDEX, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, source, given=None):  # given: the index tensor as called
        ctx.dim, ctx.index, ctx.source_shape, ctx.given = dim, index, source._data.shape, given
        ctx.save_for_backward(source)  # as PyTorch (for its pack hooks; backward reads no values)
        out = a._data.copy()
        if out.ndim == 0:
            out[()] = source._data.reshape(-1)[-1] if index.size else out
        else:
            out[_dim_key(dim, index)] = source._data.reshape(
                source._data.shape if source._data.ndim else (1,))
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        g_self = g_source = None
        if ctx.needs_input_grad[0]:
            g_self = IndexFill.apply(grad, ctx.dim, ctx.index, 0)
        if ctx.needs_input_grad[3]:
            g = grad.reshape(grad._data.shape or (1,))
            g_source = IndexSelect.apply(g, ctx.dim, ctx.index).reshape(ctx.source_shape)
        return g_self, g_source


class IndexFill(Function):
    """``x.index_fill(dim, index, value)``: the slices ``index`` along ``dim`` set to the
    number ``value``; they pass no gradient back."""

    node_name = "IndexFillBackward0"
    _builtin = True
    pack_order = (_INDEX,)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, dim, index, value, given=None):  # given: the index tensor as called
        ctx.dim, ctx.index, ctx.given = dim, index, given
        out = a._data.copy()
        if out.ndim == 0:
            if index.size:
                out[()] = value
        else:
            out[_dim_key(dim, index)] = value
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return IndexFill.apply(grad, ctx.dim, ctx.index, 0)


class IndexFillTensor(Function):
    """``x.index_fill(dim, index, value)`` with a 0-d tensor ``value``: as above, and
    ``value``'s gradient is the sum of the gradient over the filled slices (each counted
    once)."""

    node_name = "IndexFillBackward1"
    _builtin = True
    pack_order = (_INDEX,)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, value, given=None):  # given: the index tensor as called
        return IndexFill.forward(ctx, a, dim, index, value._data.astype(a._data.dtype), given)

    @staticmethod
    def backward(ctx, grad):
        g_self = IndexFill.apply(grad, ctx.dim, ctx.index, 0) if ctx.needs_input_grad[0] \
            else None
        g_value = None
        if ctx.needs_input_grad[3]:
            g = grad.reshape(grad._data.shape or (1,))
            g_value = IndexSelect.apply(g, ctx.dim, np.unique(ctx.index)).sum()
        return g_self, g_value


def _slice_index(name: str, input: Tensor, dim: int, index: Tensor, wrap: bool):  # noqa: A002
    """The checked indices of ``index_copy``/``index_fill`` along ``dim`` (negative ones
    counted from the end where ``wrap``), or PyTorch's error."""
    size = input._data.shape[dim] if input._data.ndim else 1
    idx = index._data.reshape(-1)
    lo = -size if wrap else 0
    bad = idx[(idx < lo) | (idx >= size)]
    if bad.size:
        prefix = "index_copy_(): " if name == "index_copy" else ""
        raise IndexError(f"{prefix}index {int(bad[0])} is out of bounds for dimension {dim} "
                         f"with size {size}")
    return idx % size if size else idx


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """``input`` with the slices of ``source`` (along ``dim``) copied over the slices
    ``index`` of it; with a repeated index the last copy wins.

    >>> import minitorch
    >>> minitorch.zeros(4).index_copy(0, minitorch.tensor([3, 0]), minitorch.tensor([1., 2.]))
    tensor([2., 0., 0., 1.])
    """
    check_tensor(index, "index_copy", "index", 3)
    check_tensor(source, "index_copy", "source", 4)
    ndim = input._data.ndim
    d = normalize_dim(dim, ndim)
    if index._data.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got "
                         f"{index._data.ndim})")
    if index._data.dtype != np.int64:
        raise RuntimeError("index_copy_(): Expected a long tensor for index, but got "
                           f"{index.dtype._legacy[:-6]}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, "
                           f"but got (self) {input.dtype._legacy[:-6]} and (source) "
                           f"{source.dtype._legacy[:-6]}")
    n_src = source._data.shape[d] if source._data.ndim else 1
    if index._data.size != n_src:
        raise IndexError(f"index_copy_(): Number of indices ({index._data.size}) should be "
                         f"equal to source.size(dim) ({n_src})")
    if ndim and source._data.ndim and (source._data.shape[:d] + source._data.shape[d + 1:] !=
                                       input._data.shape[:d] + input._data.shape[d + 1:]):
        raise IndexError("index_copy_(): Source/destination tensor must have same slice "
                         f"shapes. Destination slice shape: "
                         f"{' '.join(map(str, input.shape[:d] + input.shape[d + 1:]))} at "
                         f"dimension {d} and source slice shape: "
                         f"{' '.join(map(str, source.shape[:d] + source.shape[d + 1:]))} at "
                         f"dimension 0.")
    idx = _slice_index("index_copy", input, d, index, wrap=False)
    return IndexCopy.apply(input, d, idx, source, index)


def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:  # noqa: A002
    """``input`` with the slices ``index`` along ``dim`` set to ``value`` (a number or a 0-d
    tensor; negative indices count from the end).

    >>> import minitorch
    >>> minitorch.zeros(2, 3).index_fill(1, minitorch.tensor([0, -1]), 5.0)
    tensor([[5., 0., 5.],
            [5., 0., 5.]])
    """
    check_tensor(index, "index_fill", "index", 3)
    d = normalize_dim(dim, input._data.ndim)
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index._data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    idx = _slice_index("index_fill", input, d, index, wrap=True)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value._data.ndim} dimension(s).")
        return IndexFillTensor.apply(input, d, idx, value, index)
    value = _dtype.number_as(value, input.dtype)  # (one that does not fit: PyTorch's error)
    return IndexFill.apply(input, d, idx, as_tensor(value, input)._data.astype(
        input._data.dtype), index)


__all__ += ["take", "take_along_dim", "index_copy", "index_fill"]


# ---------------------------------------------------------------- index_put, put, fill_diagonal_
def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:  # noqa: A002
    """``input`` with ``values`` written (or, with ``accumulate=True``, added) at
    ``input[indices]``, ``indices`` a tuple of index tensors, one per leading dimension:
    ``x.index_put((rows, cols), v)`` is ``x[rows, cols] = v`` on a copy.

    >>> import minitorch
    >>> minitorch.zeros(3).index_put((minitorch.tensor([0, 0]),), minitorch.tensor(1.0),
    ...                              accumulate=True)
    tensor([2., 0., 0.])
    """
    return index_put_checked(input, indices, values, accumulate, "index_put", 3)


def index_put_(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:  # noqa: A002
    """``input.index_put_(indices, values, accumulate)``: :func:`index_put` written into
    ``input``."""
    return input._inplace(lambda t, v: index_put_checked(t, indices, v, accumulate,
                                                         "index_put_", 3), values)


def index_put_checked(input: Tensor, indices, values: Tensor, accumulate: bool,  # noqa: A002
                      _name: str, _first: int) -> Tensor:
    """:func:`index_put` whose errors name the function ``_name`` and count the argument
    ``values`` as at position ``_first`` (2 for a method, 3 for the function)."""
    if not isinstance(indices, (tuple, list)) or not all(isinstance(k, Tensor) for k in indices):
        raise TypeError(f"{_name}(): argument 'indices' (position {_first - 1}) must be tuple "
                        f"of Tensors, not {type(indices).__name__}")
    check_tensor(values, _name, "values", _first)
    if values.dtype is not input.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{input.dtype._legacy[:-6]} for the destination and "
                           f"{values.dtype._legacy[:-6]} for the source.")
    if len(indices) > input.dim():
        raise IndexError(f"too many indices for tensor of dimension {input.dim()} (got "
                         f"{len(indices)})")
    if any(k._data.dtype not in _INDEX_DTYPES for k in indices):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    _, advanced = _parse_key(tuple(indices), input._data)
    return IndexPut.apply(input, values, advanced, bool(accumulate), indices)


class Put(Function):
    """``x.put(index, source, accumulate)``: ``x`` read as one flat vector, with the elements
    of ``source`` written (or added) at ``index``. The gradient reaches ``source`` read back
    at ``index`` (``take``), and ``x`` where nothing was written over it."""

    node_name = "PutBackward0"
    _builtin = True
    pack_order = (_INDEX, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, a, source, index, accumulate, given=None):  # given: the index as called
        ctx.index, ctx.accumulate, ctx.source_shape = index, accumulate, source._data.shape
        ctx.given = given
        ctx.save_for_backward(source)  # as PyTorch (for its pack hooks; backward reads no values)
        out = a._data.copy()
        flat = out.reshape(-1)  # a view: the copy is contiguous
        if accumulate:
            _add_at(flat, index, source._data.reshape(-1))
        else:
            flat[index] = source._data.reshape(-1)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        keep = grad if ctx.accumulate else Put.apply(grad, grad.new_zeros(ctx.source_shape),
                                                     ctx.index, False)
        return keep, Take.apply(grad, ctx.index).reshape(ctx.source_shape)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False,  # noqa: A002
        *, _first: int = 2, _name: str = "put") -> Tensor:
    """``input`` with ``source``'s elements put at the flat positions ``index`` (negative ones
    count from the end), or added there with ``accumulate=True``.

    >>> import minitorch
    >>> minitorch.zeros(2, 2).put(minitorch.tensor([0, -1]), minitorch.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    check_tensor(index, _name, "index", _first)  # ``_first``: 1 for the methods
    check_tensor(source, _name, "source", _first + 1)
    if _warnings.deterministic and (not accumulate or input.device.type != "cpu"):
        _warnings.alert_not_deterministic("put_")  # repeated indices: which value wins?
    if index._data.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{index.dtype._legacy[:-6]}")
    if source.dtype is not input.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got "
                           f"self.dtype = {input.dtype._legacy[:-6]} and source.dtype = "
                           f"{source.dtype._legacy[:-6]}")
    if source.numel() != index.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() "
                         f"= {index.numel()}")
    idx = _flat_positions(index._data.reshape(-1), input.numel(),
                          "put_(): Tried to put elements into an empty tensor")
    return Put.apply(input, source, idx, bool(accumulate), index)


def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal of ``self`` (every dimension the same index) with
    ``fill_value``, in place. With ``wrap=True`` a tall matrix's diagonal starts again every
    ``columns + 1`` rows, as NumPy's ``fill_diagonal`` does.

    Written as PyTorch writes it, into a view of the diagonal, so the graph records it as a
    change to a view (``CopySlices``).
    """
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    height, width = self.shape[0], self.shape[1]
    if self.dim() > 2 and any(size != height for size in self.shape[1:]):
        raise RuntimeError("all dimensions of input must be of equal length")
    diagonal = self
    for _ in range(self.dim() - 1):
        diagonal = diagonal.diagonal(0, 0, 1)
    diagonal.fill_(fill_value)
    if wrap and self.dim() == 2 and height > width + 1:
        for start in range(width + 1, height, width + 1):
            self[start:].diagonal().fill_(fill_value)
    return self

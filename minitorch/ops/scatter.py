"""Writing by index and selecting by mask: ``scatter``, ``scatter_add``, ``masked_select`` and
``nonzero``.

``scatter`` is ``gather`` run backwards: ``gather`` *reads* ``out[i][j] = x[i][index[i][j]]``,
``scatter`` *writes* ``out[i][index[i][j]] = src[i][j]`` (for ``dim=1``). So each one's
gradient is the other: the gradient of ``src`` gathers the output's gradient at ``index``, and
the positions that were overwritten pass no gradient back to the old values.

Example:
    >>> import minitorch
    >>> x = minitorch.zeros(2, 3)
    >>> x.scatter(1, minitorch.tensor([[2], [0]]), minitorch.tensor([[5.0], [7.0]]))
    tensor([[0., 0., 5.],
            [7., 0., 0.]])
    >>> minitorch.tensor([[0, 3], [4, 0]]).nonzero()
    tensor([[0, 1],
            [1, 0]])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch._backend import array_module, open_grid, to_numpy
from minitorch._dtype import number_as
from minitorch._tensor import Tensor, _wrap
from minitorch._warnings import warn_once
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    as_tensor,
    broadcast_error,
    check_in_bounds,
    check_tensor,
    normalize_dim,
    unpacked_by_hooks,
)
from minitorch.ops.indexing import Gather, _add_at, _given

__all__ = ["scatter", "scatter_add", "masked_select", "nonzero"]


def _corner(shape: tuple, dim: int | None = None) -> tuple:
    """The key of the corner ``[:n0, :n1, ...]`` of an array (all of ``dim``, if given)."""
    return tuple(slice(None) if k == dim else slice(0, n) for k, n in enumerate(shape))


def _positions(index: np.ndarray, dim: int) -> tuple:
    """The full NumPy key that ``index`` stands for along ``dim``: the other dims count up."""
    xp = array_module(index)
    key = list(open_grid(xp, index.shape))
    key[dim] = index
    return tuple(key)


def _check_index(name: str, self: Tensor, dim: int, index, src: Tensor | None) -> int:
    """PyTorch's checks of ``scatter``'s arguments; returns the normalised ``dim``."""
    check_tensor(index, name, "index", 2)
    ndim = self._data.ndim
    d = normalize_dim(dim, ndim)
    idx = index._data
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if src is not None and src._data.dtype != self._data.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
    if idx.size == 0:
        return d
    if max(idx.ndim, 1) != max(ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None and max(src._data.ndim, 1) != max(ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    self_shape, src_shape = self._data.shape or (1,), None
    if src is not None:
        src_shape = src._data.shape or (1,)
    idx_shape = idx.shape or (1,)
    too_big = any(n > self_shape[k] for k, n in enumerate(idx_shape) if k != d)
    if src_shape is not None and not too_big:
        too_big = any(n > src_shape[k] for k, n in enumerate(idx_shape))
    if too_big:
        more = "" if src is None else f" and to be no larger size than src {list(src_shape)}"
        raise RuntimeError(f"Expected index {list(idx_shape)} to be no larger than self "
                           f"{list(self_shape)} apart from dimension {d}{more}")
    size = self_shape[d]
    bad = idx[(idx < 0) | (idx >= size)]
    if bad.size:
        raise RuntimeError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension "
                           f"{d} with size {size}")
    return d


def _as_nd(a: np.ndarray) -> np.ndarray:
    """A 0-d array as 1-d (``scatter`` treats a number as a vector of one)."""
    return a.reshape(1) if a.ndim == 0 else a


class Scatter(Function):
    """``input.scatter(dim, index, src)``: a copy of ``input`` with ``src[i][j]`` written at
    ``[i][index[i][j]]`` (for ``dim=1``). Where an index repeats, the last write wins.

    Backward: ``input``'s gradient is the output's, except where something was written (0);
    ``src``'s gradient is the output's gradient read back at ``index`` (``gather``).
    """

    node_name = "ScatterBackward0"
    _builtin = True
    pack_order = ("index",)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim, ctx.index, ctx.src_shape = dim, index, src._data.shape
        out = _as_nd(a._data.copy())
        idx = _as_nd(index._data)
        if idx.size:
            values = _as_nd(src._data)[_corner(idx.shape)]
            out[_corner(idx.shape, dim)][_positions(idx, dim)] = values
        return _wrap(out.reshape(a._data.shape))

    @staticmethod
    def backward(ctx, grad):
        g_self = scatter(grad, ctx.dim, ctx.index, 0.0) if ctx.needs_input_grad[0] else None
        g_src = _gathered(grad, ctx.dim, ctx.index, ctx.src_shape, unpacked_by_hooks(ctx)) \
            if ctx.needs_input_grad[3] else None
        return g_self, g_src


def _gathered(grad: Tensor, dim: int, index: Tensor, shape: tuple, check: bool) -> Tensor:
    """``grad`` read at ``index`` along ``dim`` (the gradient of ``src``), padded with zeros to
    ``src``'s ``shape`` where ``index`` is smaller. ``check``: the index came from an unpack
    hook (PyTorch's kernel checks it)."""
    if not grad._data.ndim:
        return grad.reshape(shape)
    if check:
        check_in_bounds(index._data, dim, grad._data.shape[dim])
    g = Gather.apply(grad.reshape(grad._data.shape or (1,)), dim, index.reshape(
        index._data.shape or (1,)))
    if tuple(g._data.shape) != tuple(shape or (1,)):
        zeros = _wrap(array_module(grad._data).zeros(shape or (1,), dtype=grad._data.dtype))
        g = _PadTo.apply(g, zeros._data.shape) if g._data.size else zeros
    return g.reshape(shape)


class _PadTo(Function):
    """A gradient of a smaller corner, placed in zeros of the full ``shape`` (its backward
    reads the corner back)."""

    node_name = "ConstantPadNdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, g, shape):
        ctx.key = _corner(g._data.shape)
        out = array_module(g._data).zeros(shape, dtype=g._data.dtype)
        out[ctx.key] = g._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.key]


class ScatterValue(Function):
    """``input.scatter(dim, index, value)``: ``value`` written at every ``index``."""

    node_name = "ScatterBackward1"
    _builtin = True
    pack_order = ("index",)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, dim, index, value):
        ctx.dim, ctx.index = dim, index
        out = _as_nd(a._data.copy())
        idx = _as_nd(index._data)
        if idx.size:
            out[_corner(idx.shape, dim)][_positions(idx, dim)] = value
        return _wrap(out.reshape(a._data.shape))

    @staticmethod
    def backward(ctx, grad):
        return scatter(grad, ctx.dim, ctx.index, 0.0)


class ScatterAdd(Function):
    """``input.scatter_add(dim, index, src)``: ``src[i][j]`` *added* at ``[i][index[i][j]]``;
    a repeated index adds up. Backward: ``input``'s gradient passes through unchanged, ``src``
    reads the output's gradient at ``index``."""

    node_name = "ScatterAddBackward0"
    _builtin = True
    pack_order = ("index",)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, src):
        ctx.dim, ctx.index, ctx.src_shape = dim, index, src._data.shape
        out = _as_nd(a._data.copy())
        idx = _as_nd(index._data)
        if idx.size:
            values = _as_nd(src._data)[_corner(idx.shape)]
            corner = out[_corner(idx.shape, dim)]
            _add_at(corner, _positions(idx, dim), values)
        return _wrap(out.reshape(a._data.shape))

    @staticmethod
    def backward(ctx, grad):
        g_src = _gathered(grad, ctx.dim, ctx.index, ctx.src_shape, unpacked_by_hooks(ctx)) \
            if ctx.needs_input_grad[3] else None
        return grad, g_src


def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None,  # noqa: A002
            reduce=None) -> Tensor:
    """Write ``src`` (a tensor) or ``value`` (a number) into a copy of ``input`` at ``index``
    along ``dim``: ``out[i][index[i][j]] = src[i][j]`` for ``dim=1``.

    ``index`` has as many dimensions as ``input``; outside ``dim`` it may be smaller than
    ``input`` (and than ``src``), and then only that corner is written.
    """
    if reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if src is None:
        src = value
    if src is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' or 'value'")
    if isinstance(src, Tensor):
        d = _check_index("scatter", input, dim, index, src)
        if reduce is not None:
            warn_once("scatter-reduce", "The reduce argument of torch.scatter with Tensor src is "
                      "deprecated and will be removed in a future PyTorch release. Use "
                      "torch.scatter_reduce instead for more reduction options.")
            return ScatterReduced.apply(input, d, index, src, reduce)
        return Scatter.apply(input, d, index, src)
    if not isinstance(src, (numbers.Number, np.number, np.bool_)):
        raise TypeError(f"scatter(): argument 'src' (position 4) must be Tensor, not "
                        f"{type(src).__name__}")
    d = _check_index("scatter", input, dim, index, None)
    value = number_as(src, input.dtype)  # (one that does not fit the dtype: PyTorch's error)
    value = as_tensor(value, input)._data.astype(input._data.dtype)
    if reduce is not None:
        return ScatterReduced.apply(input, d, index, _wrap(value), reduce)
    return ScatterValue.apply(input, d, index, value)


class ScatterReduced(Function):
    """``scatter(dim, index, src, reduce="add" | "multiply")``, PyTorch's older reducing
    scatter: where an index repeats, the values add up (or multiply) instead of the last write
    winning. PyTorch has no derivative for it: its node is NotImplemented, and backward raises.
    A number ``src`` comes as a 0-d tensor, spread over ``index``."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, src, reduce):
        out = _as_nd(a._data.copy())
        idx = _as_nd(index._data)
        if idx.size:
            xp = array_module(out)
            values = _as_nd(src._data)
            values = xp.broadcast_to(values, idx.shape) if values.size == 1 and not \
                src._data.ndim else values[_corner(idx.shape)]
            ufunc = xp.add if reduce == "add" else xp.multiply
            if out.dtype == np.float16:  # NumPy's float16 ufunc.at loses a bit: work in float32
                wide = out.astype(np.float32)
                ufunc.at(wide[_corner(idx.shape, dim)], _positions(idx, dim),
                         values.astype(np.float32))
                out = wide.astype(np.float16)
            else:
                ufunc.at(out[_corner(idx.shape, dim)], _positions(idx, dim), values)
        return _wrap(out.reshape(a._data.shape))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::scatter is not implemented")


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:  # noqa: A002
    """Add ``src`` into a copy of ``input`` at ``index`` along ``dim`` (repeats add up):
    ``out[i][index[i][j]] += src[i][j]`` for ``dim=1``.

    >>> import minitorch
    >>> minitorch.zeros(4).scatter_add(0, minitorch.tensor([0, 0, 3]), minitorch.ones(3))
    tensor([2., 0., 0., 1.])
    """
    check_tensor(src, "scatter_add", "src", 3)
    d = _check_index("scatter", input, dim, index, src)  # (PyTorch's messages say scatter)
    return ScatterAdd.apply(input, d, index, src)


# ---------------------------------------------------------------- masked_select
# (get, put) of the mask a node was called with, for ``pack_order``: backward reads the mask
# unpacked (broadcast as the op's ``mask``)
_MASK = (lambda node: _given(node, node.mask),
         lambda node, t: setattr(node, "mask", array_module(t[0]._data).broadcast_to(
             t[0]._data, node.mask.shape)))


class MaskedSelect(Function):
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor (both broadcast to
    one shape first). Backward puts each gradient back where its element came from."""

    node_name = "MaskedSelectBackward0"
    _builtin = True
    pack_order = (_MASK, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, mask, shape, given=None):  # given: the mask tensor as called
        xp = array_module(a._data)
        ctx.mask, ctx.shape, ctx.input_shape, ctx.given = mask, shape, a._data.shape, given
        ctx.save_for_backward(a)  # as PyTorch (for its pack hooks; backward reads no values)
        return _wrap(xp.broadcast_to(a._data, shape)[mask])

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        full = MaskedScatter.apply(grad, ctx.mask, ctx.shape)
        return full.sum_to_size(ctx.input_shape) if ctx.shape != ctx.input_shape else full


class MaskedScatter(Function):
    """The backward of :class:`MaskedSelect`: the selected values put back at the mask's
    True positions of zeros. It is linear, and its own backward selects again."""

    node_name = "MaskedScatterBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, values, mask, shape):
        ctx.mask, ctx.shape = mask, shape
        out = array_module(values._data).zeros(shape, dtype=values._data.dtype)
        out[mask] = values._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return MaskedSelect.apply(grad, ctx.mask, ctx.shape)


def masked_select(input: Tensor, mask: Tensor) -> Tensor:  # noqa: A002
    """The elements of ``input`` where the bool tensor ``mask`` is True, in order, as a 1-D
    tensor. ``input`` and ``mask`` broadcast against each other.

    >>> import minitorch
    >>> x = minitorch.tensor([[1.0, -2.0], [-3.0, 4.0]])
    >>> x.masked_select(x > 0)
    tensor([1., 4.])
    """
    check_tensor(mask, "masked_select", "mask", 2)
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    except ValueError:
        raise broadcast_error(mask._data.shape, input._data.shape) from None
    m = array_module(mask._data).broadcast_to(mask._data, shape)
    return MaskedSelect.apply(input, m, tuple(shape), mask)


# ---------------------------------------------------------------- nonzero
def nonzero(input: Tensor, *, as_tuple: bool = False):  # noqa: A002
    """The indices of the non-zero elements: a (count, ndim) int64 tensor, one row per
    element, in order; with ``as_tuple=True`` one 1-D tensor per dimension (what ``x[...]``
    takes). NaN counts as non-zero, ``-0.0`` as zero. Not differentiable.

    >>> import minitorch
    >>> minitorch.nonzero(minitorch.tensor([0, 5, 0, 7]), as_tuple=True)
    (tensor([1, 3]),)
    """
    x = input._data
    xp = array_module(x)
    if as_tuple:
        found = xp.nonzero(x.reshape(1) if x.ndim == 0 else x)
        return tuple(_wrap(i.astype(np.int64)) for i in found)
    if x.ndim == 0:
        return _wrap(xp.zeros((int(x != 0), 0), dtype=np.int64))
    return _wrap(xp.argwhere(x).astype(np.int64).reshape(-1, x.ndim))


# ---------------------------------------------------------------- scatter_reduce
_REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _identity(reduce: str, dtype: np.dtype):
    """The value that ``reduce`` starts from where ``include_self=False``."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype == np.bool_:
        return reduce == "amin"
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


_UFUNCS = {"sum": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum"}


def _reduce_at(reduce: str, out, key: tuple, values) -> None:
    """``out[key] = reduce(out[key], values)`` where repeated indices combine (``ufunc.at``).
    CuPy has ``at`` only where the GPU has an atomic operation (add, maximum, minimum, not
    multiply; not every dtype): elsewhere the work goes through the host. So do a float
    maximum and minimum: the GPU's atomic ones let a NaN lose, where PyTorch's keeps it."""
    name = _UFUNCS[reduce]
    if type(out) is np.ndarray:
        getattr(np, name).at(out, key, values)
        return
    xp = array_module(out)
    try:
        if name in ("maximum", "minimum") and out.dtype.kind == "f":
            raise NotImplementedError
        getattr(xp, name).at(out, key, values)
    except (AttributeError, NotImplementedError, TypeError):  # CuPy: no `at`, or not here
        host = to_numpy(out)
        getattr(np, name).at(host, tuple(k if k is None else to_numpy(k) for k in key),
                             to_numpy(values))
        out[...] = xp.asarray(host)


def _reduce_into(out, dim: int, idx, values, reduce: str, include_self: bool) -> None:
    """``out[..., idx[i][j], ...] = reduce(that, values[i][j])`` along ``dim``, in place (the
    old value of ``out`` left out where ``include_self`` is False); the work of
    ``scatter_reduce`` and ``index_reduce``."""
    corner = out[_corner(idx.shape, dim)]
    key = _positions(idx, dim)
    if not include_self:
        corner[key] = _identity(reduce, out.dtype)
    if reduce == "mean":
        xp = array_module(out)
        count = xp.zeros(corner.shape, np.int64)
        _add_at(count, key, 1)
        total = corner.astype(np.float64) if out.dtype.kind == "f" else corner.copy()
        _add_at(total, key, values)
        count = count + (1 if include_self else 0)
        n = np.maximum(count, 1)
        hit = xp.zeros(corner.shape, bool)
        hit[key] = True
        mean = total / n if out.dtype.kind == "f" else np.floor_divide(total, n)
        corner[hit] = mean[hit].astype(out.dtype)
    else:
        with np.errstate(all="ignore"):
            _reduce_at(reduce, corner, key, values)


class ScatterReduce(Function):
    """``input.scatter_reduce(dim, index, src, reduce, include_self=...)``: ``src[i][j]``
    combined (``reduce``) into ``[i][index[i][j]]`` (for ``dim=1``), with the old value there
    too when ``include_self``.

    Backward, PyTorch's rules (``scatter_reduce_backward``): ``sum`` passes the gradient
    through and gathers it for ``src``; ``mean`` divides by the count; ``prod`` multiplies by
    the product of the *other* factors (exactly, also where a factor is 0); ``amax``/``amin``
    share the gradient evenly among all the values equal to the result.
    """

    node_name = "ScatterReduceBackward0"
    _builtin = True
    pack_order = ("index", 0, 1, 2)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, src, reduce, include_self):
        ctx.dim, ctx.index, ctx.reduce, ctx.include_self = dim, index, reduce, include_self
        out = _as_nd(a._data.copy())
        idx = _as_nd(index._data)
        if idx.size:
            _reduce_into(out, dim, idx, _as_nd(src._data)[_corner(idx.shape)], reduce,
                         include_self)
        result = _wrap(out.reshape(a._data.shape))
        ctx.save_for_backward(a, src, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        self, src, result = ctx.saved_tensors
        dim, index, reduce = ctx.dim, ctx.index, ctx.reduce
        if reduce == "sum":
            g_self, g_src = grad, grad.gather(dim, index)
        elif reduce == "mean":
            n = (grad.new_ones(grad.shape) if ctx.include_self else
                 grad.new_zeros(grad.shape)).scatter_add(dim, index, grad.new_ones(index.shape))
            n = n.masked_fill(n == 0, 1)
            g_self, g_src = grad / n, grad.gather(dim, index) / n.gather(dim, index)
        elif reduce == "prod":
            masked_self = self.masked_fill(self == 0, 1)
            others = masked_self.scatter_reduce(dim, index, src, "prod",
                                                include_self=ctx.include_self)
            g_self = grad * others / masked_self
            src_zero = src == 0
            zeros_at = self.new_zeros(self.shape).scatter_add(dim, index, src_zero.to(
                self.dtype)).gather(dim, index)
            single_zero = src_zero & (zeros_at == 1)
            masked_src = src.masked_fill(single_zero, 1)
            masked_result = self.scatter_reduce(dim, index, masked_src, "prod",
                                                include_self=ctx.include_self)
            from minitorch.ops.arithmetic import where

            g_src = where(single_zero, (grad * masked_result).gather(dim, index),
                          (grad * result).gather(dim, index) / src.masked_fill(src_zero, 1))
            g_src = _no_double_backward_past_zeros(g_src, zeros_at, "scatter_reduce", "src")
        else:  # amax, amin
            value = result.gather(dim, index)
            self_is = (self == result).to(self.dtype)
            src_is = (src == value).to(self.dtype)
            share = grad / self_is.scatter_add(dim, index, src_is)
            g_self = self_is * share
            g_src = src_is * share.gather(dim, index)
        if not ctx.include_self:
            g_self = g_self.scatter(dim, index, 0.0)
        return (g_self if ctx.needs_input_grad[0] else None,
                g_src if ctx.needs_input_grad[3] else None)


class DelayedError(Function):
    """PyTorch's ``DelayedError``: passes a gradient on unchanged, under a node
    (``torch::autograd::Error``) whose backward raises ``message``: a gradient that is right
    but was not computed in a differentiable way."""

    node_name = "torch::autograd::Error"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, message):
        ctx.message = message
        return _wrap(a._data)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(ctx.message)


def _no_double_backward_past_zeros(g_src: Tensor, zeros_at: Tensor, name: str,
                                   what: str) -> Tensor:
    """The prod gradient of ``src`` where two of its zeros meet in one place of self (it is 0
    there, by a formula that is not differentiable): recorded (create_graph) behind
    :class:`DelayedError`, as PyTorch does."""
    if g_src.requires_grad and grad_mode.is_grad_enabled() and bool((zeros_at._data > 1).any()):
        return DelayedError.apply(g_src, f"{name}(): Double backward is unsupported for {what} "
                                  f"when >1 zeros in {what} are scattered to the same position "
                                  "in self")
    return g_src


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor,  # noqa: A002
                   reduce: str, *, include_self: bool = True) -> Tensor:
    """Combine ``src`` into a copy of ``input`` at ``index`` along ``dim`` with ``reduce``
    (``"sum"``, ``"prod"``, ``"mean"``, ``"amax"`` or ``"amin"``): for ``dim=1``,
    ``out[i][index[i][j]] = reduce(out[i][index[i][j]], src[i][j])``, the old value of
    ``input`` left out where ``include_self=False``. (An integer ``mean`` rounds down.)

    >>> import minitorch
    >>> minitorch.zeros(3).scatter_reduce(0, minitorch.tensor([0, 0, 2]),
    ...                                   minitorch.tensor([1.0, 5.0, 2.0]), "amax")
    tensor([5., 0., 2.])
    """
    check_tensor(src, "scatter_reduce", "src", 4)
    if reduce not in _REDUCES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got "
                           f"{reduce}")
    d = _check_index("scatter", input, dim, index, src)
    if reduce == "mean" and input._data.dtype == np.bool_:
        raise NotImplementedError("\"scatter_gather_tensor_cpu_reduce_mean\" not implemented "
                                  "for 'Bool'")
    return ScatterReduce.apply(input, d, index, src, reduce, bool(include_self))


# ---------------------------------------------------------------- masked_scatter
class MaskedScatterSource(Function):
    """``input.masked_scatter(mask, source)``: ``input`` with the first elements of ``source``
    written, in order, where ``mask`` is True. Backward: ``input`` gets the gradient where the
    mask is False; ``source`` the selected gradient, padded with zeros to its size."""

    node_name = "MaskedScatterBackward0"
    _builtin = True
    pack_order = (_MASK,)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 2)

    @staticmethod
    def forward(ctx, a, mask, source, given=None):  # given: the mask tensor as called
        ctx.mask, ctx.source_shape, ctx.given = mask, source._data.shape, given
        out = array_module(mask).broadcast_to(a._data, mask.shape).copy()  # a may broadcast
        n = int(mask.sum())
        out.reshape(-1)[mask.reshape(-1)] = source._data.reshape(-1)[:n]
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        mask = _wrap(ctx.mask)
        g_self = grad.masked_fill(mask, 0.0) if ctx.needs_input_grad[0] else None
        g_source = None
        if ctx.needs_input_grad[2]:
            from minitorch.ops.shape import cat

            picked = grad.masked_select(mask)
            size = int(np.prod(ctx.source_shape))
            if size > picked._data.size:
                picked = cat([picked, picked.new_zeros(size - picked._data.size)])
            g_source = picked.reshape(ctx.source_shape)
        return g_self, g_source


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """Copy the elements of ``source``, in order, into ``input`` where the bool ``mask`` is
    True (``input`` and ``mask`` broadcast); ``source`` needs at least as many elements as
    the mask has True values.

    >>> import minitorch
    >>> minitorch.zeros(4).masked_scatter(minitorch.tensor([True, False, True, False]),
    ...                                   minitorch.tensor([1.0, 2.0, 3.0]))
    tensor([1., 0., 2., 0.])
    """
    check_tensor(mask, "masked_scatter", "mask", 2)
    check_tensor(source, "masked_scatter", "source", 3)
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {mask.dtype._legacy[:-6]}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but "
                           f"got{input.dtype._legacy[:-6]} and {source.dtype._legacy[:-6]}")
    try:
        shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    except ValueError:
        raise broadcast_error(mask._data.shape, input._data.shape) from None
    m = array_module(mask._data).broadcast_to(mask._data, shape)
    if int(m.sum()) > source._data.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    # one node on input itself, as PyTorch's: its gradient is summed back to its shape
    m = array_module(m).ascontiguousarray(m).reshape(shape)  # (ascontiguousarray makes 0-d 1-d)
    return MaskedScatterSource.apply(input, m, source, mask)


def argwhere(input: Tensor) -> Tensor:  # noqa: A002
    """The indices of the non-zero elements, one row each: ``nonzero(input)``.

    >>> import minitorch
    >>> minitorch.argwhere(minitorch.tensor([0, 5, 0, 7]))
    tensor([[1],
            [3]])
    """
    return nonzero(input)


__all__ += ["scatter_reduce", "masked_scatter", "argwhere"]


# ---------------------------------------------------------------- index_reduce (task linalg2)
_INDEX_REDUCES = ("prod", "mean", "amax", "amin")


class IndexReduce(Function):
    """``input.index_reduce(dim, index, source, reduce, include_self=...)``: slice ``i`` of
    ``source`` along ``dim`` combined (``reduce``) into slice ``index[i]`` of ``input``; the
    work is ``scatter_reduce``'s with ``index`` repeated along the other dims.

    Backward is PyTorch's ``index_reduce_backward``, ``scatter_reduce``'s rules on slices:
    ``mean`` divides by the count, ``prod`` multiplies by the product of the other factors
    (exactly, also where one factor is 0), ``amax``/``amin`` share the gradient evenly among
    the values equal to the result; without ``include_self`` the slices written get no
    gradient for ``input``.
    """

    node_name = "IndexReduceBackward0"
    _builtin = True
    _edge_args = (0, 3)

    @staticmethod
    def forward(ctx, a, dim, index, source, reduce, include_self):
        ctx.dim, ctx.index, ctx.reduce, ctx.include_self = dim, index, reduce, include_self
        out = _as_nd(a._data.copy())
        values = _as_nd(source._data)
        if index.size:
            shape = [1] * values.ndim
            shape[dim] = -1
            xp = array_module(values)
            idx = xp.broadcast_to(index.reshape(shape), values.shape)
            _reduce_into(out, dim, idx, values, reduce, include_self)
        result = _wrap(out.reshape(a._data.shape))
        ctx.save_for_backward(a, source, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        from minitorch.ops.arithmetic import where
        from minitorch.ops.indexing import index_add, index_fill, index_select

        self, src, result = ctx.saved_tensors
        dim, reduce, include_self = ctx.dim, ctx.reduce, ctx.include_self
        index = _wrap(ctx.index)
        if reduce == "prod":
            masked_self = self.masked_fill(self == 0, 1)
            g_self = grad * index_reduce(masked_self, dim, index, src, "prod",
                                         include_self=include_self) / masked_self
            src_zero = src == 0
            zeros_at = index_select(index_add(self.new_zeros(self.shape), dim, index,
                                              src_zero.to(self.dtype)), dim, index)
            single_zero = src_zero & (zeros_at == 1)
            masked_src_result = index_reduce(self, dim, index, src.masked_fill(single_zero, 1),
                                             "prod", include_self=include_self)
            g_src = where(single_zero, index_select(grad * masked_src_result, dim, index),
                          index_select(grad * result, dim, index) / src.masked_fill(src_zero, 1))
            g_src = _no_double_backward_past_zeros(g_src, zeros_at, "index_reduce", "source")
        elif reduce == "mean":
            n = grad.new_ones(grad.shape) if include_self else grad.new_zeros(grad.shape)
            n = index_add(n, dim, index, src.new_ones(src.shape).to(grad.dtype))
            n = n.masked_fill(n == 0, 1)
            g_self, g_src = grad / n, index_select(grad, dim, index) / index_select(n, dim, index)
        else:  # amax, amin
            value = index_select(result, dim, index)
            self_is = (self == result).to(self.dtype)
            src_is = (src == value).to(self.dtype)
            share = grad / index_add(self_is, dim, index, src_is)
            g_self = self_is * share
            g_src = src_is * index_select(share, dim, index)
        if not include_self:
            g_self = index_fill(g_self, dim, index, 0)
        return (g_self if ctx.needs_input_grad[0] else None,
                g_src if ctx.needs_input_grad[3] else None)


def index_reduce(input: Tensor, dim: int, index: Tensor, source: Tensor,  # noqa: A002
                 reduce: str, *, include_self: bool = True) -> Tensor:
    """Combine slice ``i`` of ``source`` along ``dim`` into slice ``index[i]`` of a copy of
    ``input`` with ``reduce`` (``"prod"``, ``"mean"``, ``"amax"`` or ``"amin"``), the old
    values of ``input`` left out where ``include_self=False``. (An integer ``mean`` rounds
    down.) PyTorch marks it as beta and says so once.

    >>> import minitorch
    >>> minitorch.zeros(3).index_reduce(0, minitorch.tensor([0, 0, 2]),
    ...                                 minitorch.tensor([1.0, 5.0, 2.0]), "amax")
    tensor([5., 0., 2.])
    """
    check_tensor(input, "index_reduce", "input", 1)
    check_tensor(index, "index_reduce", "index", 3)
    check_tensor(source, "index_reduce", "source", 4)
    if reduce not in _INDEX_REDUCES:
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    dim = normalize_dim(dim, input._data.ndim)
    if index._data.ndim > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector, but got dim: "
                         f"{index._data.ndim} with type: {index.dtype._legacy[:-6]} and size: "
                         f"[{', '.join(map(str, index.shape))}]")
    if index._data.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{index.dtype._legacy[:-6]}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"index_reduce_(): self ({input.dtype._legacy[:-6]}) and source "
                           f"({source.dtype._legacy[:-6]}) must have the same scalar type")
    ndim, sdim = input._data.ndim, source._data.ndim
    if dim != 0 and dim >= sdim:
        raise RuntimeError(f"index_reduce_(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {sdim}")
    n_src = source._data.shape[dim] if sdim else 1
    if index._data.size != n_src:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index._data.size}) should be "
                           f"equal to source.size(dim): ({n_src}), for dim: {dim}")
    rest, src_rest = input._data.shape, source._data.shape
    if ndim and sdim:
        rest, src_rest = rest[:dim] + rest[dim + 1:], src_rest[:dim] + src_rest[dim + 1:]
    if rest != src_rest:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = [{', '.join(map(str, input.shape))}] source.shape = "
            f"[{', '.join(map(str, source.shape))}]")
    idx = index._data.reshape(-1)  # in its dtype: the backward's index_fill wants int64
    size = input._data.shape[dim] if ndim else 1
    if idx.size and (idx.min() < 0 or idx.max() >= size):  # no negative indices
        raise IndexError("index out of range in self")
    warn_once("index_reduce", "index_reduce() is in beta and the API may change at any time.",
              stacklevel=2)
    if input._data.dtype == np.bool_ and (reduce == "mean" or not include_self):
        kernel = "div_floor_cpu" if reduce == "mean" else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    return IndexReduce.apply(input, dim, idx, source, reduce, bool(include_self))


__all__ += ["index_reduce"]


# ---------------------------------------------------------------- nonzero_static (task linalg2)
def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:  # noqa: A002
    """``nonzero``'s (count, ndim) indices with exactly ``size`` rows: the first ``size``
    found, or all of them followed by rows of ``fill_value``.

    >>> import minitorch
    >>> minitorch.nonzero_static(minitorch.tensor([0, 5, 0, 7]), size=3)
    tensor([[ 1],
            [ 3],
            [-1]])
    """
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    found = nonzero(input)._data[:size]
    xp = array_module(found)
    pad = xp.full((size - found.shape[0], found.shape[1]), fill_value, dtype=np.int64)
    return _wrap(xp.concatenate([found, pad]))


__all__ += ["nonzero_static"]

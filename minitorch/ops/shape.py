"""Shape operations: ``reshape``/``view``, ``transpose``, ``permute``, ``squeeze``,
``unsqueeze``, ``expand``, ``cat``, ``stack`` and copies.

Most of these are *views*: the result shares memory (and the version counter) with its input,
as in PyTorch. Their backward just undoes the shape change on the gradient: ``transpose``
transposes it back, ``unsqueeze`` squeezes it, ``expand`` sums it over the expanded dimensions.

Example:
    >>> import minitorch
    >>> x = minitorch.ones(2, 3, requires_grad=True)
    >>> x.T.shape, x.T.grad_fn
    (torch.Size([3, 2]), <PermuteBackward0 object at 0x...>)
"""

from __future__ import annotations

import numbers
import operator
from operator import index as _index

import numpy as np

from minitorch import _backend, _dtype
from minitorch._backend import array_module
from minitorch._device import device as _device_cls
from minitorch._tensor import (
    VIEW_MULTI,
    VIEW_NO_GRAD,
    Tensor,
    _counter,
    _in_format,
    _keep_numpy_strides,
    _numpy_laid,
    _wrap,
)
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    as_int64_shown,
    broadcast_error,
    check_same_device,
    check_tensor,
    full_like_result,
    normalize_dim,
    normalize_dims,
    saved_dim,
    saved_sizes,
)

__all__ = ["reshape", "view", "flatten", "transpose", "t", "permute", "squeeze", "unsqueeze",
           "expand", "repeat", "cat", "stack", "split", "chunk", "unbind", "diagonal"]


def as_shape(args, name: str = "view", what: str = "size") -> tuple:
    """``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` all mean the shape ``(2, 3)``. Each size
    must be an integer (or stand for one, as a one-element integer tensor does): a float such
    as ``n / 2`` is refused, as in PyTorch, not cut down to an int."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    try:
        return tuple([_index(a) for a in args])  # (a third of what tuple(map(...)) costs)
    except TypeError:
        for pos, a in enumerate(args):
            try:
                _index(a)
            except TypeError:
                raise TypeError(f"{name}(): argument '{what}' must be tuple of ints, but found "
                                f"element of type {type(a).__name__} at pos {pos}") from None
        raise


def _view_of(base: Tensor, array, kind: int = 0) -> Tensor:
    """A view: a result that shares memory with ``base``, as PyTorch's views do.

    It shares ``base``'s version counter (which remembers it, see ``ops/views.py``), and its
    ``_base`` is the tensor that owns the memory. ``kind`` is ``VIEW_MULTI`` for the views that
    one op returns together; a view made under no_grad is ``VIEW_NO_GRAD``, and requires grad
    when its base does (as in PyTorch); a view of such views is of the same kind.
    """
    out = _wrap(array)
    counter = out._version_counter = _counter(base)
    root = base._base
    out._base = base if root is None else root
    if not grad_mode._state.enabled:
        kind = VIEW_NO_GRAD
        if base._requires_grad:
            out._requires_grad = True
    if kind or base._view_kind:
        out._view_kind = kind or base._view_kind
    counter.add_view(out)
    return out


def _fmt(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _resolve_shape(shape: tuple, numel: int) -> tuple:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{_fmt(shape)}' is invalid for input of size {numel}")
    return shape


class View(Function):
    node_name = "ViewBackward0"
    _builtin = True
    saved_values = {"self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, shape):
        try:
            data = np.reshape(a._data, shape, copy=False)
        except ValueError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ) from None
        return _view_of(a, data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, _ = inputs
        ctx.shape = a._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape)


class ReshapeAlias(View):
    """``reshape`` that can be a view of a non-contiguous tensor."""

    node_name = "ReshapeAliasBackward0"
    _builtin = True


class ViewCopy(View):
    """``view_copy``: ``view``'s values in memory of their own, so that any layout works (one
    node, ``ViewBackward0_copy``, where ``contiguous().view()`` would record two)."""

    node_name = "ViewBackward0_copy"
    _builtin = True

    @staticmethod
    def forward(a, shape):
        return _wrap(np.reshape(a._data, shape).copy())


class Alias(Function):
    """``x[...]``: a new view of the whole tensor."""

    node_name = "AliasBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        return _view_of(a, a._data.view())

    @staticmethod
    def backward(ctx, grad):
        return grad


class UnsafeView(Function):
    """``reshape`` when the memory layout needs a copy (PyTorch: clone + _unsafe_view)."""

    node_name = "UnsafeViewBackward0"
    _builtin = True
    saved_values = {"self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a._data.shape
        return _wrap(np.reshape(a._data, shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape)


class Transpose(Function):
    node_name = "TransposeBackward0"
    _builtin = True
    saved_values = {  # the dims as called, as in PyTorch
        "dim0": lambda node: as_int64_shown(getattr(node, "given", node.dims)[0]),
        "dim1": lambda node: as_int64_shown(getattr(node, "given", node.dims)[1])}

    @staticmethod
    def forward(a, dim0, dim1, given=None):  # given: (dim0, dim1) as called
        if a._data.ndim == 0:  # a 0-dim tensor accepts dims 0 and -1 and stays as it is
            return _view_of(a, a._data.view())
        return _view_of(a, a._data.swapaxes(dim0, dim1))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, dim0, dim1, *given = inputs
        ctx.dims = (dim0, dim1)
        if given:
            ctx.given = given[0]

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims)


class T(Transpose):
    node_name = "TBackward0"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        return grad.t()  # PyTorch's t's derivative is t (TBackward0 again, not a transpose)


class Permute(Function):
    node_name = "PermuteBackward0"
    _builtin = True
    saved_values = {"dims": lambda node: as_int64_shown(  # as called, as in PyTorch
        getattr(node, "given", None) or tuple(np.argsort(node.inverse)))}

    @staticmethod
    def forward(a, dims, given=None):  # given: the dims as called
        return _view_of(a, np.transpose(a._data, dims))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, dims, *given = inputs
        ctx.inverse = tuple(np.argsort(dims))
        if given:
            ctx.given = given[0]

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(ctx.inverse)


class Squeeze(Function):
    """``squeeze()``: drop every dimension of size 1."""

    node_name = "SqueezeBackward0"
    _builtin = True
    saved_values = {"self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, dims, given=None):  # given: the dim(s) as called
        return _view_of(a, np.squeeze(a._data, axis=dims))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, dims, *given = inputs
        ctx.shape, ctx.dims = a._data.shape, dims
        if given:
            ctx.given = given[0]

    @staticmethod
    def backward(ctx, grad):
        # Recorded, PyTorch's unsqueeze_to: one unsqueeze per dropped dim, in increasing order
        # (none when nothing was dropped); otherwise one reshape does it.
        if grad.requires_grad and grad_mode.is_grad_enabled():
            return SqueezeDim.backward(ctx, grad)
        return grad.reshape(ctx.shape)


class SqueezeDim(Squeeze):
    """``squeeze(dim)``: its gradient gets the dimensions back by ``unsqueeze``, one at a time
    in increasing order, as PyTorch's ``unsqueeze_to`` does (``squeeze()``'s by a reshape)."""

    node_name = "SqueezeBackward1"
    _builtin = True
    saved_values = {"dim": saved_dim("given"), "self_sym_sizes": saved_sizes()}  # as PyTorch's

    @staticmethod
    def setup_context(ctx, inputs, output):
        Squeeze.setup_context(ctx, inputs, output)
        ctx.dims = sorted(inputs[1])

    @staticmethod
    def backward(ctx, grad):
        for d in ctx.dims:
            grad = grad.unsqueeze(d)
        return grad


class SqueezeDims(SqueezeDim):
    node_name = "SqueezeBackward2"
    _builtin = True
    saved_values = {"dim": saved_dim("given", as_tuple=True),
                    "self_sym_sizes": saved_sizes()}  # as in PyTorch


class SqueezeMatmul(SqueezeDim):
    """The squeeze inside ``matmul(vector, matrix)``, named as PyTorch names it: PyTorch
    squeezes its fresh product in place (``squeeze_``), so the result is not a view."""

    node_name = "SqueezeBackward4"
    _builtin = True
    saved_values = SqueezeDim.saved_values

    @staticmethod
    def forward(a, dims, given=None):
        return _wrap(np.squeeze(a._data, axis=dims))


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dim")}  # as called, as in PyTorch

    @staticmethod
    def forward(a, dim, given=None):  # given: the dim as called
        return _view_of(a, np.expand_dims(a._data, dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, dim, *given = inputs
        ctx.dim = dim
        if given:
            ctx.given = given[0]

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim)


class Expand(Function):
    node_name = "ExpandBackward0"
    _builtin = True
    saved_values = {"self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, shape):
        data = a._data
        lead = len(shape) - data.ndim
        if (lead >= 0 and all(want == 1 for want in shape[:lead])
                and all(want in (have, -1) for want, have in zip(shape[lead:], data.shape))):
            # nothing is repeated: a view that may be written into, as PyTorch's is
            return _view_of(a, data[(None,) * lead])
        return _view_of(a, _backend.broadcast_to(data, shape))  # read-only: repeats memory

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, _ = inputs
        ctx.shape = a._data.shape

    @staticmethod
    def backward(ctx, grad):
        if not ctx.shape:  # PyTorch's sum_to: down to a 0-d tensor it always sums
            return grad.sum()
        return grad.sum_to_size(ctx.shape)  # each input element was used many times: sum


class Diagonal(Function):
    """``x.diagonal(offset, dim1, dim2)``: the diagonal of the (dim1, dim2) planes, as a last
    dimension (a view: writing into it writes into ``x``)."""

    node_name = "DiagonalBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.shape, ctx.args = a._data.shape, (offset, dim1, dim2)
        data = a._data.diagonal(offset, dim1, dim2)
        if isinstance(data, np.ndarray) and _backend.writeable(a._data):
            data.flags.writeable = True  # NumPy's diagonal view is read-only only by default
        return _view_of(a, data)

    @staticmethod
    def backward(ctx, grad):
        return DiagonalEmbed.apply(grad, ctx.shape, *ctx.args)


class DiagonalEmbed(Function):
    """Backward of ``diagonal``: ``grad`` on the diagonal of zeros of the input's shape."""

    node_name = "DiagonalBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, offset, dim1, dim2):
        ctx.args = (offset, dim1, dim2)
        out = array_module(grad._data).zeros(shape, dtype=grad._data.dtype)
        diag = out.diagonal(offset, dim1, dim2)
        if isinstance(diag, np.ndarray):
            diag.flags.writeable = True
        diag[...] = grad._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, *ctx.args)


class Repeat(Function):
    node_name = "RepeatBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, repeats):
        ctx.shape, ctx.repeats = a._data.shape, repeats
        out = np.tile(a._data, repeats)  # (PyTorch's is C order; NumPy's may keep a's)
        return _wrap(out if out.flags.c_contiguous else out.copy())

    @staticmethod
    def backward(ctx, grad):
        # As PyTorch's repeat_backward (so create_graph=True records its graph): the new
        # leading dims summed one at a time, then one reshape that splits each repeated dim
        # into (repeat, size) and one sum over the repeats.
        if 0 in ctx.repeats:
            return grad.new_zeros(ctx.shape)
        lead = len(ctx.repeats) - len(ctx.shape)
        for _ in range(lead):
            grad = grad.sum(0)
        split, repeated = [], []
        for r, s in zip(ctx.repeats[lead:], ctx.shape):
            if r != 1:
                split.append(r)
                repeated.append(len(split) - 1)
            split.append(s)
        return grad.reshape(split).sum(repeated) if repeated else grad


# ---------------------------------------------------------------- views of a part: x[i], x[a:b]
class Select(Function):
    """``x[..., i, ...]``: one position of one dimension (the dimension disappears)."""

    node_name = "SelectBackward0"
    _builtin = True
    saved_values = {  # as called (a negative index too), as in PyTorch
        "dim": lambda node: as_int64_shown(getattr(node, "given_dim", len(node.key) - 1)),
        "index": lambda node: as_int64_shown(node.key[-1]),
        "self_sym_sizes": saved_sizes()}

    @staticmethod
    def forward(ctx, a, dim, index, given_dim=None):  # given_dim: the dim as called
        ctx.shape, ctx.key = a._data.shape, (slice(None),) * dim + (index,)
        if given_dim is not None:
            ctx.given_dim = given_dim
        # ``...`` keeps a 0-d result an array that shares memory (NumPy's a[2] is a copy)
        return _view_of(a, a._data[ctx.key + (Ellipsis,)])

    @staticmethod
    def backward(ctx, grad):
        return SelectEmbed.apply(grad, ctx.shape, ctx.key, getattr(ctx, "given_dim", None))


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
        out = array_module(grad._data).zeros(shape, dtype=grad._data.dtype)
        out[key] = grad._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return grad[ctx.key]


class SelectEmbed(Embed):
    """Backward of ``x[..., i, ...]`` (PyTorch's ``select_backward`` kernel): ``grad`` at index
    ``i`` of its dimension in zeros; its own backward selects that index again."""

    node_name = "SelectBackwardBackward0"
    _builtin = True
    saved_values = Select.saved_values.copy()
    del saved_values["self_sym_sizes"]

    @staticmethod
    def forward(ctx, grad, shape, key, given_dim=None):  # given_dim: the dim as called
        if given_dim is not None:
            ctx.given_dim = given_dim
        return Embed.forward(ctx, grad, shape, key)

    @staticmethod
    def backward(ctx, grad):
        return Select.apply(grad, len(ctx.key) - 1, ctx.key[-1],
                            getattr(ctx, "given_dim", None))


class Split(Function):
    """``split``/``chunk``: consecutive pieces along ``dim``, all views, made by one node.

    Backward joins the pieces' gradients again (a piece that got none contributes zeros).
    """

    node_name = "SplitBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, sizes, dim):
        ctx.dim = dim
        pieces, start = [], 0
        for size in sizes:
            key = (slice(None),) * dim + (slice(start, start + size),)
            pieces.append(_view_of(a, a._data[key], VIEW_MULTI))
            start += size
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *grads):
        return cat(grads, ctx.dim)


class SplitWithSizes(Split):
    node_name = "SplitWithSizesBackward0"
    _builtin = True


class Unbind(Function):
    """``unbind``: every slice along ``dim`` (views); backward stacks their gradients."""

    node_name = "UnbindBackward0"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dim")}  # as called, as in PyTorch

    @staticmethod
    def forward(ctx, a, dim, given=None):  # given: the dim as called
        ctx.dim = dim
        if given is not None:
            ctx.given = given
        return tuple(_view_of(a, a._data[(slice(None),) * dim + (i, ...)], VIEW_MULTI)
                     for i in range(a._data.shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        return stack(grads, ctx.dim)


class Cat(Function):
    node_name = "CatBackward0"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dim")}  # as called, as in PyTorch

    @staticmethod
    def forward(ctx, dim, *tensors):
        if type(dim) is tuple:  # (dim, the dim as called)
            dim, ctx.given = dim
        ctx.dim = dim
        # A 1-d empty tensor joins tensors of any shape (PyTorch's legacy rule): it adds
        # nothing but its dtype, and gets an empty gradient (None in ``sizes``).
        ctx.sizes = [None if _is_legacy_empty(t) else t._data.shape[dim] for t in tensors]
        rt = tensors[0].dtype
        for t in tensors[1:]:
            rt = _dtype.promote_types(rt, t.dtype)
        parts = [t._data.astype(rt.np, copy=False) for t in tensors if not _is_legacy_empty(t)]
        return _wrap(np.concatenate(parts or [tensors[0]._data.astype(rt.np)], dim))

    @staticmethod
    def backward(ctx, grad):
        # each input gets its own slice of the gradient back
        grads, start = [], 0
        for n in ctx.sizes:
            if n is None:
                grads.append(_wrap(array_module(grad._data).zeros(0, grad._data.dtype)))
            else:
                grads.append(Slice.apply(grad, ctx.dim, start, start + n, 1))
                start += n
        return tuple(grads)


def _is_legacy_empty(t: Tensor) -> bool:
    return t._data.ndim == 1 and t._data.size == 0


class Stack(Function):
    node_name = "StackBackward0"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dim")}  # as called, as in PyTorch

    @staticmethod
    def forward(ctx, dim, *tensors):
        if type(dim) is tuple:  # (dim, the dim as called)
            dim, ctx.given = dim
        ctx.dim = dim
        rt = tensors[0].dtype
        for t in tensors[1:]:
            rt = _dtype.promote_types(rt, t.dtype)
        return _wrap(np.stack([t._data.astype(rt.np, copy=False) for t in tensors], dim))

    @staticmethod
    def backward(ctx, grad):
        return tuple(Select.apply(grad, ctx.dim, i) for i in range(grad._data.shape[ctx.dim]))


class Clone(Function):
    node_name = "CloneBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(a._data.copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return grad


# layout task: clone() keeps its input's layout
class ClonePreserve(Clone):
    """``clone()``: a copy laid out in memory as its input is (PyTorch's default
    ``memory_format=torch.preserve_format``: a transposed tensor's clone is transposed too).
    ``Clone``, the copy to contiguous memory, serves ``contiguous()`` and ``reshape``."""

    node_name = "CloneBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        data = a._data  # (without elements: a new array object with the same strides)
        return _wrap(data.copy(order="K") if data.size else data.view())


# layout2 task: clone(memory_format=...)
class CloneFormat(Clone):
    """``clone(memory_format=f)`` for ``contiguous_format`` or a channels-last ``f``: a copy
    laid out in memory as ``f`` says (``contiguous(memory_format=f)`` makes it too)."""

    node_name = "CloneBackward0"
    _builtin = True

    @staticmethod
    def forward(a, fmt):
        return _wrap(_in_format(a._data, fmt))


def _cast(data, dtype):
    """``data.astype(dtype)`` as PyTorch casts: a float goes to uint8 through int64, so that
    -1.5 is 255 on every device (a GPU's own cast gives 0)."""
    if dtype == np.uint8 and data.dtype.kind == "f":
        data = data.astype(np.int64)
    return data.astype(dtype)


class ToCopy(Function):
    """A dtype conversion: the gradient is converted back to the input's dtype."""

    node_name = "ToCopyBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.dtype = a.dtype
        return _wrap(_cast(a._data, dtype.np))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.dtype)


class ToDevice(Function):
    """A copy to another device; the gradient is copied back."""

    node_name = "ToCopyBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, device: _device_cls):
        ctx.device = a._device
        data = _backend.move(a._data, device)
        if not data.size and _numpy_laid(a._data):  # layout task: the strides go along
            _keep_numpy_strides(data)
        return _wrap(data)

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.device)


class Fill(Function):
    """The value of ``fill_``: a constant, so the old values get a zero gradient."""

    node_name = "FillBackward2"
    _builtin = True

    @staticmethod
    def forward(ctx, a, value):
        return _wrap(array_module(a._data).full_like(a._data, value))  # (in a's layout)

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad)


class Zero(Fill):
    node_name = "ZeroBackward0"
    _builtin = True


class FillTensor(Function):
    """The value of ``fill_(value)`` with a 0-d tensor ``value``: its gradient is the sum of
    the gradients of every element it filled; the old values get zero."""

    node_name = "FillBackward3"
    _builtin = True

    @staticmethod
    def forward(a, value):
        xp = array_module(a._data)
        out = xp.empty_like(a._data)  # (laid out as a is, as PyTorch's fill's result)
        with np.errstate(invalid="ignore"):  # NaN into an integer dtype: as PyTorch, no error
            out[...] = value._data  # (a device's value stays on it: no host array involved)
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad), grad.sum()


def _zeros_like(t: Tensor) -> Tensor:
    return _wrap(array_module(t._data).zeros_like(t._data))


class Copy(Function):
    """The value of ``copy_(src)``: ``src`` broadcast to the destination's shape and dtype."""

    node_name = "torch::autograd::CopyBackwards"
    _builtin = True

    @staticmethod
    def forward(a, src):
        try:
            data = _cast(np.broadcast_to(src._data, a._data.shape), a._data.dtype)
        except ValueError:
            try:  # the shapes broadcast, but to a larger one than the destination's
                wide = np.broadcast_shapes(a._data.shape, src._data.shape)
            except ValueError:
                raise broadcast_error(a._data.shape, src._data.shape) from None
            raise RuntimeError(f"output with shape {_fmt(a._data.shape)} doesn't match the "
                               f"broadcast shape {_fmt(wide)}") from None
        return _wrap(data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, src = inputs
        ctx.src_dtype = src.dtype

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad), grad.to(ctx.src_dtype)  # the old values were overwritten


# ---------------------------------------------------------------- functions (the public API)
def view(input: Tensor, shape: tuple) -> Tensor:  # noqa: A002
    """The same memory seen with another shape (must be possible without copying)."""
    return View.apply(input, _resolve_shape(shape, input._data.size))


def reshape(input: Tensor, shape: tuple) -> Tensor:  # noqa: A002
    """Another shape with the same number of elements: a view when possible, else a copy."""
    shape = _resolve_shape(tuple(shape), input._data.size)
    data = input._data
    if (shape == data.shape or data.size == 0 or data.flags.c_contiguous
            or np.may_share_memory(np.reshape(data, shape), data)):
        # PyTorch records a view of a non-contiguous tensor as ReshapeAliasBackward0
        return (View if data.flags.c_contiguous else ReshapeAlias).apply(input, shape)
    return UnsafeView.apply(Clone.apply(input), shape)  # copy to contiguous memory, then view


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:  # noqa: A002
    """Merge dimensions ``start_dim..end_dim`` into one."""
    shape = input._data.shape
    if not shape:
        return reshape(input, (1,))
    s = normalize_dim(start_dim, len(shape))
    e = normalize_dim(end_dim, len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:  # noqa: A002
    """Swap two dimensions (a view)."""
    n = input._data.ndim
    return Transpose.apply(input, normalize_dim(dim0, n), normalize_dim(dim1, n), (dim0, dim1))


def t(input: Tensor) -> Tensor:  # noqa: A002
    """Transpose a matrix (a vector is returned as is)."""
    if input._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is "
                           f"{input._data.ndim}D")
    if input._data.ndim < 2:
        return T.apply(input, 0, 0)
    return T.apply(input, 0, 1)


def permute(input: Tensor, dims: tuple) -> Tensor:  # noqa: A002
    """Reorder the dimensions (a view)."""
    n = input._data.ndim
    if len(dims) != n:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {n} is not equal "
            f"to len(dims) = {len(dims)}"
        )
    given = tuple(dims)
    dims = tuple(normalize_dim(d, n) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(input, dims, given)


def squeeze(input: Tensor, dim=None) -> Tensor:  # noqa: A002
    """Drop dimensions of size 1 (all of them, or the given ones that have size 1)."""
    shape = input._data.shape
    if dim is None:
        return Squeeze.apply(input, tuple(i for i, s in enumerate(shape) if s == 1))
    if isinstance(dim, numbers.Integral):
        d = normalize_dim(int(dim), len(shape))
        return SqueezeDim.apply(input, (d,) if shape and shape[d] == 1 else (), dim)
    dims = tuple(normalize_dim(int(d), len(shape)) for d in dim)
    return SqueezeDims.apply(input, tuple(d for d in dims if shape and shape[d] == 1), dim)


def unsqueeze(input: Tensor, dim: int) -> Tensor:  # noqa: A002
    """Insert a dimension of size 1 at ``dim``."""
    return Unsqueeze.apply(input, normalize_dim(dim, input._data.ndim + 1), dim)


def expand(input: Tensor, shape: tuple) -> Tensor:  # noqa: A002
    """Repeat size-1 dimensions (without copying memory) to reach ``shape``."""
    have = input._data.shape
    if len(shape) < len(have):
        kind = input.dtype._legacy  # PyTorch's legacy type name: torch.FloatTensor, CPUBoolType
        kind = "CPUBoolType" if kind == "BoolTensor" else "torch." + kind
        raise RuntimeError(
            f"expand({kind}{{{_fmt(have)}}}, size={_fmt(shape)}): the number of sizes "
            f"provided ({len(shape)}) must be greater or equal to the number of dimensions in "
            f"the tensor ({len(have)})"
        )
    lead = len(shape) - len(have)
    target = list(shape)
    for i, s in reversed(list(enumerate(have))):  # from the last, as PyTorch checks them
        want = shape[lead + i]
        if want == -1:
            target[lead + i] = s
        elif s != want and s != 1:
            raise RuntimeError(
                f"The expanded size of the tensor ({want}) must match the existing size ({s}) at "
                f"non-singleton dimension {lead + i}.  Target sizes: {_fmt(shape)}.  Tensor "
                f"sizes: {_fmt(have)}"
            )
    for i, want in reversed(list(enumerate(shape[:lead]))):
        if want < 0:
            raise RuntimeError(f"The expanded size of the tensor ({want}) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
    return Expand.apply(input, tuple(target))


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:  # noqa: A002
    """The diagonal of ``input`` (a view), ``offset`` above it (below when negative); for more
    than two dimensions, of each (dim1, dim2) plane, as a new last dimension.

    >>> import minitorch
    >>> minitorch.arange(9.0).reshape(3, 3).diagonal()
    tensor([0., 4., 8.])
    """
    n = input._data.ndim
    d1, d2 = normalize_dim(dim1, n), normalize_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, int(offset), d1, d2)


def repeat(input: Tensor, repeats: tuple) -> Tensor:  # noqa: A002
    """Tile the tensor ``repeats[i]`` times along each dimension (copies memory)."""
    if len(repeats) < input._data.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions "
            "of tensor"
        )
    if any(r < 0 for r in repeats):  # PyTorch names the shape it would have made
        have = (1,) * (len(repeats) - input._data.ndim) + input._data.shape
        shape = [r * s for r, s in zip(repeats, have)]
        raise RuntimeError(f"Trying to create tensor with negative dimension "
                           f"{next(s for s in shape if s < 0)}: {_fmt(shape)}")
    return Repeat.apply(input, tuple(repeats))


def _tensor_list(tensors, name: str) -> list:
    if isinstance(tensors, Tensor):  # iterating it would join its rows
        raise TypeError(f"{name.removeprefix('torch.')}(): argument 'tensors' (position 1) must "
                        "be tuple of Tensors, not Tensor")
    tensors = list(tensors)
    if not tensors:
        raise ValueError(f"{name}(): expected a non-empty list of Tensors")
    for i, t_ in enumerate(tensors):
        if not isinstance(t_, Tensor):
            raise TypeError(
                f"{name}(): argument 'tensors' must be a sequence of Tensors, but element {i} is "
                f"{type(t_).__name__}"
            )
    check_same_device(*tensors)
    return tensors


def cat(tensors, dim: int = 0) -> Tensor:
    """Join tensors along an existing dimension.

    >>> import minitorch
    >>> minitorch.cat([minitorch.zeros(1, 2), minitorch.ones(2, 2)]).shape
    torch.Size([3, 2])
    """
    tensors = _tensor_list(tensors, "torch.cat")
    try:
        dim = operator.index(dim)  # an int, or what stands for one (a one-element int tensor)
    except TypeError:
        raise TypeError(f"cat(): argument 'dim' (position 2) must be int, not "
                        f"{type(dim).__name__}") from None
    for i, t_ in enumerate(tensors):
        if t_._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    # A 1-d empty tensor joins any shape (a legacy rule): only the others must match.
    shaped = [t_ for t_ in tensors if not _is_legacy_empty(t_)] or tensors
    ref = shaped[0]._data.shape
    d = normalize_dim(dim, len(ref))
    for i, t_ in enumerate(tensors):
        if _is_legacy_empty(t_):
            continue
        s = t_._data.shape
        if len(s) != len(ref):
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {len(ref)} and {len(s)}"
            )
        for k in range(len(ref)):
            if k != d and s[k] != ref[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref[k]} "
                    f"but got size {s[k]} for tensor number {i} in the list."
                )
    return Cat.apply((d, dim), *tensors)


concat = concatenate = cat


def stack(tensors, dim: int = 0) -> Tensor:
    """Join same-shape tensors along a new dimension."""
    if not isinstance(tensors, Tensor) and not len(tensors):
        raise RuntimeError("stack expects a non-empty TensorList")
    tensors = _tensor_list(tensors, "stack")
    ref = tensors[0]._data.shape
    for i, t_ in enumerate(tensors):
        if t_._data.shape != ref:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {_fmt(ref)} at entry 0 and "
                f"{_fmt(t_._data.shape)} at entry {i}"
            )
    return Stack.apply((normalize_dim(dim, len(ref) + 1), dim), *tensors)


def split(input: Tensor, split_size, dim: int = 0) -> tuple:  # noqa: A002
    """Cut into pieces of ``split_size`` (an int, or a list of sizes) along ``dim``."""
    if input._data.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if not isinstance(split_size, (numbers.Integral, list, tuple)):
        raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple "
                        f"of ints, not {type(split_size).__name__}")
    d = normalize_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if isinstance(split_size, numbers.Integral):
        if split_size == 0 and n != 0:
            raise RuntimeError("split_size can only be 0 if dimension size is 0, but got "
                               f"dimension size of {n}")
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got "
                               f"split_size={split_size}")
        if split_size == 0:
            return Split.apply(input, [0], d)
        sizes = [min(split_size, n - i) for i in range(0, n, split_size)] or [0]
        return Split.apply(input, sizes, d)
    sizes = list(split_size)
    if any(size < 0 for size in sizes):
        raise RuntimeError("split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={sizes}")
    if sum(sizes) != n:
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size "
            f"at dimension {d}), but got split_sizes={sizes}"
        )
    return SplitWithSizes.apply(input, sizes, d)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:  # noqa: A002
    """Cut into ``chunks`` nearly equal pieces along ``dim``: all but the last have
    ``ceil(n / chunks)`` elements, so there may be fewer than ``chunks`` pieces."""
    if not isinstance(chunks, numbers.Integral):
        raise TypeError(f"chunk(): argument 'chunks' (position 1) must be int, not "
                        f"{type(chunks).__name__}")
    if input._data.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = normalize_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if n == 0:  # any number of empty pieces adds up to 0: PyTorch keeps ``chunks`` of them
        return SplitWithSizes.apply(input, [0] * chunks, d)
    return split(input, -(-n // chunks), dim)


def unbind(input: Tensor, dim: int = 0) -> tuple:  # noqa: A002
    """All slices along ``dim``, each without that dimension."""
    if input._data.ndim == 0:  # 0 and -1 name its one place; others are out of range
        raise IndexError(f"Dimension specified as {normalize_dim(dim, 0)} but tensor has no "
                         "dimensions")
    return Unbind.apply(input, normalize_dim(dim, input._data.ndim), dim)


def filled(a: Tensor, value) -> Tensor:
    """What ``a.fill_(value)`` writes."""
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value._data.ndim} dimensions.")
        return FillTensor.apply(a, value)  # a value that requires grad gets its gradient
    return Fill.apply(a, _dtype.number_as(value, a.dtype))  # nan is no int64: PyTorch's error


def zeroed(a: Tensor) -> Tensor:
    """What ``a.zero_()`` writes."""
    return Zero.apply(a, 0)


def copied(a: Tensor, src) -> Tensor:
    """What ``a.copy_(src)`` writes."""
    if not isinstance(src, Tensor):
        from minitorch._creation import tensor

        src = tensor(np.asarray(src))
    if type(src._data) is not type(a._data):  # copy_ may cross devices, as in PyTorch
        src = src.to(a.device)
    return Copy.apply(a, src)


def _address(array) -> int:
    """Where an array's first element is in memory (NumPy's interface, or CuPy's pointer)."""
    if isinstance(array, np.ndarray):
        return array.__array_interface__["data"][0]
    return array.data.ptr


def check_partial_overlap(dst, src) -> None:
    """PyTorch's error when ``copy_`` would read memory it writes (``x[1:] = x[:-1]``); like
    PyTorch, it only looks at two contiguous blocks (copying a tensor onto itself is fine)."""
    if (type(dst) is not type(src)
            or not (dst.flags.c_contiguous and src.flags.c_contiguous and dst.size and src.size)
            or not array_module(dst).may_share_memory(dst, src)):
        return
    if _address(dst) == _address(src) and dst.nbytes == src.nbytes:
        return
    raise RuntimeError(
        "unsupported operation: some elements of the input tensor and the written-to tensor "
        "refer to a single memory location. Please clone() the tensor before performing the "
        "operation.")


# ---------------------------------------------------------------- flip
class Flip(Function):
    """The elements in reverse order along ``dims``: a copy, not a view (as in PyTorch), laid
    out as an elementwise result. Its backward flips the gradient back."""

    node_name = "FlipBackward0"
    _builtin = True

    @staticmethod
    def forward(a, dims):
        x = a._data
        out = full_like_result(x)
        out[...] = array_module(x).flip(x, dims) if dims else x
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.dims = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims)


def flip_dims(input: Tensor, dims, position: int) -> tuple:  # noqa: A002
    """``flip``'s ``dims`` (a list or tuple of ints) as sorted non-negative dims, with
    PyTorch's errors; ``position`` is the argument's position as called."""
    start = f"flip(): argument 'dims' (position {position}) must be tuple of ints"
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"{start}, not {type(dims).__name__}")
    for i, d in enumerate(dims):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"{start}, but found element of type {type(d).__name__} at pos {i}")
    # (an empty list flips nothing: normalize_dims would read it as every dim)
    return normalize_dims([int(d) for d in dims], input._data.ndim) if dims else ()


def flip(input: Tensor, dims) -> Tensor:  # noqa: A002
    """Reverse the order of the elements along each dim in ``dims`` (a copy).

    >>> import minitorch
    >>> minitorch.flip(minitorch.tensor([[1, 2], [3, 4]]), [1])
    tensor([[2, 1],
            [4, 3]])
    """
    check_tensor(input, "flip", "input", 1)
    return Flip.apply(input, flip_dims(input, dims, 2))


__all__ += ["flip"]


# ---------------------------------------------------------------- roll, movedim, the stacks,
# tensor_split, tile, repeat_interleave, diag, diag_embed, unfold (PyTorch's graphs: most are
# made of the ops above, as PyTorch makes them)
class Roll(Function):
    """``roll``: the elements shifted along ``dims``, those that fall off the end coming back at
    the start (a copy). Its backward rolls the gradient back."""

    node_name = "RollBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        x = a._data
        xp = array_module(x)
        if not dims:  # no dims: roll the flattened tensor
            return _wrap(xp.roll(x.reshape(-1), shifts[0]).reshape(x.shape))
        return _wrap(xp.ascontiguousarray(xp.roll(x, shifts, dims)))

    @staticmethod
    def backward(ctx, grad):
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims)


def _ints(value, func: str, arg: str, position: int) -> tuple:
    """An int or a sequence of ints as a tuple, with PyTorch's TypeError."""
    values = value if isinstance(value, (tuple, list)) else (value,)
    try:
        if any(isinstance(v, (bool, float)) for v in values):
            raise TypeError
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be tuple of "
                        f"ints, not {type(value).__name__}") from None


def _dim_of_0d(dims, ndim: int) -> None:
    if ndim == 0 and dims:
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")


def roll(input: Tensor, shifts, dims=None) -> Tensor:  # noqa: A002
    """Shift the elements by ``shifts`` along ``dims`` (of the flattened tensor when ``dims``
    is None), wrapping around.

    >>> import minitorch
    >>> minitorch.roll(minitorch.tensor([1, 2, 3, 4]), 1)
    tensor([4, 1, 2, 3])
    """
    shifts = _ints(shifts, "roll", "shifts", 2)
    dims = () if dims is None else _ints(dims, "roll", "dims", 3)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and not (len(shifts) == 1 and not dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                           f"dims:{len(dims)}")
    n = input._data.ndim
    _dim_of_0d(dims, n)
    return Roll.apply(input, shifts, tuple(normalize_dim(d, n) for d in dims))


def _movedim_error(source, destination, name: str) -> TypeError:
    def kind(v):
        if isinstance(v, (tuple, list)):
            return f"{type(v).__name__} of ({', '.join(type(e).__name__ for e in v)})"
        return type(v).__name__
    got = f"(Tensor, {kind(source)}, {kind(destination)})"
    return TypeError(
        f"{name}() received an invalid combination of arguments - got {got}, but expected one "
        "of:\n * (Tensor input, int source, int destination)\n * (Tensor input, tuple of ints "
        "source, tuple of ints destination)\n")


def movedim(input: Tensor, source, destination, *, _name: str = "movedim") -> Tensor:  # noqa: A002
    """Move the dimensions ``source`` to the places ``destination`` (a view: a permute); the
    other dimensions keep their order.

    >>> import minitorch
    >>> minitorch.movedim(minitorch.zeros(2, 3, 4), 0, -1).shape
    torch.Size([3, 4, 2])
    """
    if isinstance(source, (tuple, list)) != isinstance(destination, (tuple, list)):
        raise _movedim_error(source, destination, _name)
    try:
        src, dst = _ints(source, "movedim", "source", 2), _ints(destination, "movedim",
                                                                 "destination", 3)
    except TypeError:
        raise _movedim_error(source, destination, _name) from None
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} "
                           f"dims) should contain the same number of dims as destination "
                           f"({list(dst)} dims)")
    n = input._data.ndim
    src = tuple(normalize_dim(d, n) for d in src)
    dst = tuple(normalize_dim(d, n) for d in dst)
    for name, ds in (("source", src), ("destination", dst)):
        if len(set(ds)) != len(ds):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(ds)})")
    if n == 0:
        return Alias.apply(input)
    order = [-1] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    return Permute.apply(input, tuple(o if o >= 0 else next(rest) for o in order))


def moveaxis(input: Tensor, source, destination) -> Tensor:  # noqa: A002
    """NumPy's name for ``movedim``."""
    return movedim(input, source, destination, _name="moveaxis")


def swapaxes(input: Tensor, axis0: int, axis1: int) -> Tensor:  # noqa: A002
    """NumPy's name for ``transpose`` (a view)."""
    return transpose(input, axis0, axis1)


def swapdims(input: Tensor, dim0: int, dim1: int) -> Tensor:  # noqa: A002
    """Another name for ``transpose`` (a view)."""
    return transpose(input, dim0, dim1)


def _atleast_nd(t: Tensor, ndim: int) -> Tensor:
    """``torch.atleast_{1,2,3}d`` of one tensor, with PyTorch's graph (reshape / unsqueeze)."""
    n = t._data.ndim
    if n == 0:
        return reshape(t, (1,) * ndim)
    if ndim >= 2 and n == 1:
        t = unsqueeze(t, 0)
        return unsqueeze(t, -1) if ndim == 3 else t
    if ndim == 3 and n == 2:
        return unsqueeze(t, -1)
    return t


def _stack_list(tensors, name: str) -> list:
    if not isinstance(tensors, Tensor) and not len(tensors):
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return _tensor_list(tensors, name)


def hstack(tensors) -> Tensor:
    """Join tensors column-wise: along dim 1, or dim 0 for 1-d tensors (0-d ones become 1-d).

    >>> import minitorch
    >>> minitorch.hstack([minitorch.tensor([1, 2]), minitorch.tensor([3])])
    tensor([1, 2, 3])
    """
    parts = [_atleast_nd(t_, 1) for t_ in _stack_list(tensors, "hstack")]
    return cat(parts, 0 if parts[0]._data.ndim == 1 else 1)


def vstack(tensors) -> Tensor:
    """Join tensors row-wise (along dim 0), after making each at least 2-d (a vector is a row).

    >>> import minitorch
    >>> minitorch.vstack([minitorch.tensor([1, 2]), minitorch.tensor([3, 4])])
    tensor([[1, 2],
            [3, 4]])
    """
    return cat([_atleast_nd(t_, 2) for t_ in _stack_list(tensors, "vstack")], 0)


def row_stack(tensors) -> Tensor:
    """Another name for ``vstack`` (whose name PyTorch's error for an empty list gives)."""
    if not isinstance(tensors, Tensor) and not len(tensors):
        raise RuntimeError("vstack expects a non-empty TensorList")
    return cat([_atleast_nd(t_, 2) for t_ in _tensor_list(tensors, "row_stack")], 0)


def dstack(tensors) -> Tensor:
    """Join tensors depth-wise (along dim 2), after making each at least 3-d."""
    return cat([_atleast_nd(t_, 3) for t_ in _stack_list(tensors, "dstack")], 2)


def column_stack(tensors) -> Tensor:
    """Join tensors as columns: each 0-d or 1-d tensor becomes a column ``(n, 1)``, then they
    are joined along dim 1."""
    parts = _stack_list(tensors, "column_stack")
    return hstack([reshape(t_, (t_._data.size, 1)) if t_._data.ndim <= 1 else t_
                   for t_ in parts])


def _scalar_type(dtype) -> str:
    """PyTorch's ScalarType name of a dtype (``Float``, ``Long``, ``Bool``...)."""
    return dtype._legacy.removesuffix("Tensor")


def _invalid_combination(func: str, got: str, *signatures) -> TypeError:
    return TypeError(f"{func}() received an invalid combination of arguments - got ({got}), but "
                     "expected one of:\n" + "".join(f" * ({s})\n" for s in signatures))


_TENSOR_SPLIT = ("tuple of ints indices, int dim = 0",
                 "Tensor tensor_indices_or_sections, int dim = 0", "int sections, int dim = 0")


def tensor_split(input: Tensor, indices_or_sections=None, dim: int = 0, *,  # noqa: A002
                 sections=None, indices=None, tensor_indices_or_sections=None) -> tuple:
    """Views of ``input`` cut along ``dim``: into ``sections`` nearly equal pieces (the first
    ``n % sections`` are one longer), or at the ``indices`` (as Python slices ``[:i0]``,
    ``[i0:i1]``, ..., ``[ik:]``). A 0-d or 1-d int64 tensor stands for sections or indices.

    >>> import minitorch
    >>> [p.tolist() for p in minitorch.tensor_split(minitorch.arange(5), 2)]
    [[0, 1, 2], [3, 4]]
    """
    given = [v for v in (indices_or_sections, sections, indices, tensor_indices_or_sections)
             if v is not None]
    arg = given[0] if given else None
    if input._data.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    if isinstance(arg, Tensor):
        if arg.dtype is not _dtype.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype "
                               f"of long, but got {_scalar_type(arg.dtype)}")
        if arg._data.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a "
                               "zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {arg._data.ndim} dims")
        arg = int(arg.item()) if arg._data.ndim == 0 else [int(i) for i in arg.tolist()]
    if isinstance(arg, (list, tuple)):
        cuts = list(_ints(arg, "tensor_split", "indices", 2))
    elif isinstance(arg, numbers.Integral) and not isinstance(arg, bool):
        cuts = None
    else:
        raise _invalid_combination("tensor_split", "Tensor, " + type(arg).__name__,
                                   *("Tensor input, " + s for s in _TENSOR_SPLIT))
    d = normalize_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if cuts is None:
        if arg <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {arg}")
        size, extra = divmod(n, int(arg))
        cuts = list(np.cumsum([size + 1] * extra + [size] * (int(arg) - extra))[:-1])
    bounds = [0] + [min(max(c + n if c < 0 else c, 0), n) for c in cuts] + [n]
    return tuple(Slice.apply(input, d, start, max(start, stop), 1)
                 for start, stop in zip(bounds, bounds[1:]))


def tile(input: Tensor, dims) -> Tensor:  # noqa: A002
    """``input`` repeated ``dims[i]`` times along each dimension; missing leading ``dims`` are
    1 (unlike ``repeat``, which wants one per dimension).

    >>> import minitorch
    >>> minitorch.tile(minitorch.tensor([1, 2]), (2,))
    tensor([1, 2, 1, 2])
    """
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"tile(): argument 'dims' (position 2) must be tuple of ints, not "
                        f"{type(dims).__name__}")
    dims = _ints(dims, "tile", "dims", 2)
    dims = (1,) * (input._data.ndim - len(dims)) + dims
    return repeat(input, dims)


_REPEAT_INTERLEAVE = ("Tensor input, Tensor repeats, int dim = None, *, int output_size = None",
                      "Tensor repeats, *, int output_size = None",
                      "Tensor input, int repeats, int dim = None, *, int output_size = None")


def _repeat_indices(repeats: Tensor, output_size) -> Tensor:
    """``repeat_interleave(repeats)``: ``i`` written ``repeats[i]`` times."""
    if repeats._data.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if repeats.dtype not in (_dtype.int32, _dtype.int64):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{_scalar_type(repeats.dtype)}'")
    counts = _backend.to_numpy(repeats._data)
    if (counts < 0).any():
        raise RuntimeError("repeats can not be negative")
    out = np.repeat(np.arange(counts.size, dtype=counts.dtype), counts)
    if output_size is not None and output_size != out.size:
        raise RuntimeError("allocated size does not match required size")
    return _wrap(_backend.move(out, repeats._device))


def repeat_interleave(input: Tensor, repeats=None, dim=None, *,  # noqa: A002
                      output_size=None) -> Tensor:
    """Each element repeated ``repeats`` times (an int, or a tensor of one count per element)
    along ``dim`` (of the flattened tensor when ``dim`` is None). ``repeat_interleave(counts)``
    alone gives each index ``i`` written ``counts[i]`` times.

    >>> import minitorch
    >>> minitorch.tensor([1, 2]).repeat_interleave(2)
    tensor([1, 1, 2, 2])
    """
    if repeats is None:
        check_tensor(input, "repeat_interleave", "repeats", 1)
        return _repeat_indices(input, output_size)
    if isinstance(repeats, Tensor):
        if dim is not None and input._data.ndim == 0:  # (the size along ``dim`` is asked)
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        x = flatten(input) if dim is None else input
        d = normalize_dim(0 if dim is None else dim, x._data.ndim)
        n = x._data.shape[d] if x._data.ndim else 1
        if repeats._data.ndim == 0 or (repeats._data.ndim == 1 and repeats._data.shape[0] == 1):
            repeats = expand(reshape(repeats, (1,)), (n,))
        elif repeats._data.ndim == 1:
            if repeats._data.shape[0] != n:
                raise RuntimeError(
                    "repeats must have the same size as input along dim, but got "
                    f"repeats.size(0) = {repeats._data.shape[0]} and input.size({d}) = {n}")
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        return x.index_select(d, _repeat_indices(repeats, output_size))
    if isinstance(repeats, (bool, float)) or not isinstance(repeats, numbers.Integral):
        raise _invalid_combination("repeat_interleave", "Tensor, " + type(repeats).__name__,
                                   *_REPEAT_INTERLEAVE)
    x = input if dim is not None else flatten(input)
    d = normalize_dim(0 if dim is None else dim, input._data.ndim)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    x = unsqueeze(x, d + 1)
    shape = list(x._data.shape)
    shape[d + 1] = int(repeats)
    if output_size is not None and output_size != shape[d] * repeats:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected "
                           f"{shape[d] * repeats} but got {output_size}")
    x = Clone.apply(expand(x, tuple(shape)))
    return reshape(x, tuple(shape[:d]) + (shape[d] * shape[d + 1],) + tuple(shape[d + 2:]))


class DiagEmbed(DiagonalEmbed):
    """``diag_embed`` (and ``diag`` of a vector): the last dimension of the input on the
    diagonal of new (dim1, dim2) planes of zeros. Its backward takes that diagonal."""

    node_name = "DiagEmbedBackward0"
    _builtin = True


class DiagonalCopy(Function):
    """``diag`` of a matrix: its diagonal, copied (PyTorch's ``diagonal_copy``)."""

    node_name = "DiagonalBackward0_copy"
    _builtin = True

    @staticmethod
    def forward(ctx, a, offset):
        ctx.shape, ctx.offset = a._data.shape, offset
        return _wrap(a._data.diagonal(offset).copy())

    @staticmethod
    def backward(ctx, grad):
        return DiagonalEmbed.apply(grad, ctx.shape, ctx.offset, 0, 1)


def _embed_shape(shape: tuple, offset: int, dim1: int, dim2: int) -> tuple:
    """The shape of ``diag_embed``'s result: the last dimension (``n``) becomes two of size
    ``n + |offset|``, at ``dim1`` and ``dim2``."""
    out = list(shape[:-1])
    size = (shape[-1] if shape else 1) + abs(offset)
    for d in sorted((dim1, dim2)):
        out.insert(d, size)
    return tuple(out)


def _int_arg(value, func: str, arg: str, position: int) -> int:
    if isinstance(value, (bool, float)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be int, not "
                        f"{type(value).__name__}")
    return int(value)


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    """Matrices (in dims ``dim1``, ``dim2``) with the last dimension of ``input`` on their
    diagonal ``offset`` (a copy; ``diagonal`` with the same arguments gives ``input`` back).

    >>> import minitorch
    >>> minitorch.diag_embed(minitorch.tensor([1, 2]))
    tensor([[1, 0],
            [0, 2]])
    """
    offset = _int_arg(offset, "diag_embed", "offset", 2)
    n = input._data.ndim + 1
    d1, d2 = normalize_dim(dim1, n), normalize_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return DiagEmbed.apply(input, _embed_shape(input._data.shape, offset, d1, d2), offset,
                           d1, d2)


def diag(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """A vector -> the square matrix with it on diagonal ``diagonal``; a matrix -> its
    diagonal ``diagonal`` as a vector (a copy, unlike ``x.diagonal()``)."""
    diagonal = _int_arg(diagonal, "diag", "diagonal", 2)
    n = input._data.ndim
    if n == 1:
        return DiagEmbed.apply(input, _embed_shape(input._data.shape, diagonal, 0, 1),
                               diagonal, 0, 1)
    if n != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {n}D")
    return DiagonalCopy.apply(input, diagonal)


def _unfold_geometry(shape: tuple, strides: tuple, d: int, size: int, step: int):
    if not shape:  # a 0-d tensor has one window of its one element (or none)
        return (size,), (strides[0] if strides else 0,)
    shape, strides = list(shape), list(strides)
    n_windows = (shape[d] - size) // step + 1
    new_shape = shape[:d] + [n_windows] + shape[d + 1:] + [size]
    new_strides = strides[:d] + [strides[d] * step] + strides[d + 1:] + [strides[d]]
    return tuple(new_shape), tuple(new_strides)


class Unfold(Function):
    """``x.unfold(dim, size, step)``: the windows of ``size`` elements along ``dim``, ``step``
    apart, as a new last dimension (a view: windows may share elements). Its backward adds
    each window's gradient back into place."""

    node_name = "UnfoldBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, size, step):
        ctx.shape, ctx.args = a._data.shape, (dim, size, step)
        x = a._data
        shape, strides = _unfold_geometry(x.shape, x.strides if x.ndim else (x.itemsize,),
                                          dim, size, step)
        if type(x) is np.ndarray:  # (NumPy's view is writeable where ``x`` is)
            data = np.lib.stride_tricks.as_strided(x, shape, strides,
                                                   writeable=_backend.writeable(x))
        else:
            data = array_module(x).lib.stride_tricks.as_strided(x, shape, strides)
        return _view_of(a, data)

    @staticmethod
    def backward(ctx, grad):
        return UnfoldGrad.apply(grad, ctx.shape, *ctx.args)


class UnfoldGrad(Function):
    """Backward of ``unfold``: each window's gradient added into zeros of the input's shape."""

    node_name = "UnfoldBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, dim, size, step):
        ctx.args = (dim, size, step)
        g = grad._data
        xp = array_module(g)
        if not shape:
            return _wrap(g.sum(dtype=g.dtype).reshape(()))
        out = xp.zeros(shape, dtype=g.dtype)
        for i in range(g.shape[dim]):
            key = (slice(None),) * dim + (slice(i * step, i * step + size),)
            out[key] += xp.moveaxis(g.take(i, axis=dim), -1, dim)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return Unfold.apply(grad, *ctx.args)


def unfold(input: Tensor, dimension: int, size: int, step: int) -> Tensor:  # noqa: A002
    """``x.unfold(dimension, size, step)``: the windows of ``size`` elements along
    ``dimension``, ``step`` apart, as a new last dimension (a view).

    >>> import minitorch
    >>> minitorch.arange(5).unfold(0, 2, 2)
    tensor([[0, 1],
            [2, 3]])
    """
    n = input._data.ndim
    d = normalize_dim(dimension, n)
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    biggest = input._data.shape[d] if n else 1
    if size > biggest:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {biggest} but size is "
                           f"{size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return Unfold.apply(input, d, int(size), int(step))


__all__ += ["roll", "movedim", "moveaxis", "swapaxes", "swapdims", "hstack", "vstack",
            "row_stack", "dstack", "column_stack", "tensor_split", "tile", "repeat_interleave",
            "diag", "diag_embed", "unfold"]


# ---------------------------------------------------------------- torch.fill (task: methods)
class FillOut(Fill):
    """``torch.fill(input, number)``: a new tensor of ``input``'s shape and dtype."""

    node_name = "FillBackward0"
    _builtin = True


class FillTensorOut(FillTensor):
    """``torch.fill(input, value)`` with a 0-d tensor ``value``."""

    node_name = "FillBackward1"
    _builtin = True


def fill(input: Tensor, value) -> Tensor:  # noqa: A002
    """``input.clone().fill_(value)`` as one operation: ``input``'s shape and dtype, every
    element ``value`` (PyTorch's out-of-place ``torch.fill``)."""
    if not isinstance(input, Tensor):
        raise _invalid_combination("fill", f"{type(input).__name__}, {type(value).__name__}",
                                   "Tensor input, Tensor value", "Tensor input, Number value")
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value._data.ndim} dimensions.")
        return FillTensorOut.apply(input, value)
    return FillOut.apply(input, _dtype.number_as(value, input.dtype))


class ConjPhysicalInplace(Clone):
    """What ``x.conj_physical_()`` writes into a real tensor: its own values."""

    node_name = "ConjPhysicalBackward1"
    _builtin = True


def conj_physical_value(a: Tensor) -> Tensor:
    return ConjPhysicalInplace.apply(a)


_renamed_classes: dict = {}


def renamed_node(node, name: str):
    """``node``, its class renamed ``name``: the node PyTorch gives an op made of another
    (``unsafe_split`` is ``split`` recorded as ``UnsafeSplitBackward0``)."""
    if node is not None and type(node).__name__ != name:
        key = (type(node), name)
        if key not in _renamed_classes:
            _renamed_classes[key] = type(name, (type(node),), {"__module__": __name__})
        node.__class__ = _renamed_classes[key]
    return node


def unsafe(pieces: tuple) -> tuple:
    """``split``'s pieces as ``unsafe_split`` returns them: the same memory, but not views
    (no ``_base``, no version counter of the input's), recorded by ``UnsafeSplitBackward0``
    (or ``UnsafeSplitWithSizesBackward0``)."""
    out = []
    node = pieces[0]._grad_fn if pieces else None
    name = node is not None and "Unsafe" + type(node).__name__
    for piece in pieces:
        t = _wrap(piece._data)
        if piece._grad_fn is not None:
            t._set_history(renamed_node(piece._grad_fn, name), piece._output_nr)
        t._requires_grad = piece._requires_grad
        out.append(t)
    return tuple(out)


class DetachCopy(Clone):
    """``torch.detach_copy``: a copy that PyTorch records (it requires grad when the input
    does) but cannot differentiate: backward raises."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::detach_copy is not implemented")

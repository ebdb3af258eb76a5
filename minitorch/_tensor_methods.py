"""More Tensor methods: rounding, inverse trig, bitwise, ``prod``, ``unique``, ``index_add``
and the in-place forms (``sin_``, ``unsqueeze_``, ...).

They are written here, as a plain class, and copied onto :class:`~minitorch.Tensor` when
``minitorch._tensor`` finishes loading (the last line of that file). Each method only calls
the operation in ``minitorch/ops/``, as every method in ``_tensor.py`` does.

In-place methods come in two kinds, both as in PyTorch:

* elementwise ones (``x.sin_()``) compute the new values and write them into ``x``'s memory
  (``Tensor._inplace``): the version counter goes up, and ``x`` takes over the new node;
* shape ones (``x.unsqueeze_(0)``) change how ``x`` looks at its memory: ``x`` becomes the
  view (same numbers, new shape) and, when it is in a graph, takes over the view's node.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor([0.0, 1.0])
    >>> x.exp_()
    tensor([1.0000, 2.7183])
    >>> x.unsqueeze_(0).shape
    torch.Size([1, 2])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _creation, _dtype, _legacy, _linalg_torch, _random
from minitorch import functional as _functional
from minitorch._backend import array_module
from minitorch._device import device as _device_cls
from minitorch._size import Size
from minitorch._tensor import (
    _VIEW_OF_LEAF_MESSAGE,
    NO_DIM,
    NO_KEEPDIM,
    Tensor,
    _any_requires_grad,
    _contiguous_strides,
    _counter,
    _in_format,
    _numpy_laid,
    _suggest_memory_format,
    _wrap,
)
from minitorch._tensor import (
    _dense_in_order as _dense_in_order_of,
)
from minitorch.autograd import grad_mode
from minitorch.autograd.function import _FREED, SavedTensor
from minitorch.ops import _util
from minitorch.ops import arithmetic as _arith
from minitorch.ops import compare as _compare
from minitorch.ops import einsum as _einsum  # noqa: F401  (loaded with the other ops)
from minitorch.ops import elementwise as _elementwise
from minitorch.ops import gamma as _gamma
from minitorch.ops import incomplete_gamma as _incomplete_gamma
from minitorch.ops import indexing as _indexing
from minitorch.ops import linalg as _linalg
from minitorch.ops import matrices as _matrices
from minitorch.ops import pointwise as _pointwise
from minitorch.ops import rearrange as _rearrange
from minitorch.ops import reduction as _reduction
from minitorch.ops import rounding as _rounding
from minitorch.ops import sampling as _sampling
from minitorch.ops import scan as _scan
from minitorch.ops import scatter as _scatter
from minitorch.ops import search as _search
from minitorch.ops import shape as _shape
from minitorch.ops import softmax as _softmax
from minitorch.ops import sorting as _sorting
from minitorch.ops import statistics as _statistics
from minitorch.ops import tensor_apply as _tensor_apply
from minitorch.ops import triangular as _triangular
from minitorch.ops import type_queries as _type_queries
from minitorch.ops import unary as _unary
from minitorch.ops import view_scatter as _view_scatter
from minitorch.ops import views as _views
from minitorch.ops._util import normalize_dim

__all__ = ["TensorMethods", "METHODS", "OPERATORS", "COPY_FUNCTIONS"]


# PyTorch numbers the nodes of the in-place shape ops apart from the out-of-place ones.
_INPLACE_NODE_NAMES = {
    "UnsqueezeBackward0": "UnsqueezeBackward1", "SqueezeBackward0": "SqueezeBackward3",
    "SqueezeBackward1": "SqueezeBackward4", "SqueezeBackward2": "SqueezeBackward5",
    "TransposeBackward0": "TransposeBackward1", "TBackward0": "TBackward1",
}
_inplace_node_classes: dict = {}


# ggpoint task: an in-place op's saved input, handed out as PyTorch's clone
class SavedClone(SavedTensor):
    """An in-place op's saved input (``x.sin_()`` saves the ``x`` it changed): PyTorch saves
    a clone of it, made before the change, so the gradient's graph (``create_graph=True``)
    reaches it through ``CloneBackward0``. Here the saved copy is cloned when a graph is
    recorded: the same graph, at no cost to a backward that records none."""

    __slots__ = ()

    def unpack(self):
        t = SavedTensor.unpack(self)
        return t.clone() if grad_mode.is_grad_enabled() else t


def saved_as_clone(node, tensor) -> None:
    """Let ``node`` hand out ``tensor``, where it saved it, as a :class:`SavedClone`."""
    saved = node._saved
    if saved and saved is not _FREED and any(s is not None and s.tensor is tensor
                                               for s in saved):
        node._saved = tuple(s if s is None or s.tensor is not tensor else _as_clone(s)
                            for s in saved)


def _as_clone(s: SavedTensor) -> SavedClone:
    c = SavedClone.__new__(SavedClone)
    c.tensor, c.version, c.origin = s.tensor, s.version, s.origin
    return c


def _saved_as_self(node, result, self) -> None:
    """(gradgraph task) An in-place op computed in a wider dtype than ``self``'s
    (``x_f16.copysign_(y_f64)``): where ``node`` saved its output, save ``self`` instead,
    the result in ``self``'s dtype, as PyTorch's in-place kernel saves it (its backward then
    computes in that dtype, with no cast at the end)."""
    saved = node._saved
    if saved and saved is not _FREED and any(s is not None and s.tensor is result
                                             for s in saved):
        node._saved = tuple(s if s is None or s.tensor is not result else _saved_self(s, self)
                            for s in saved)


def _saved_self(s: SavedTensor, self) -> SavedTensor:
    new = SavedTensor(self)
    new.origin = s.origin
    return new


def _inplace_node(node):
    """The same node, with the class name PyTorch gives the in-place op's node."""
    cls = type(node)
    new_name = _INPLACE_NODE_NAMES.get(cls.__name__)
    if new_name is not None:
        if cls not in _inplace_node_classes:
            _inplace_node_classes[cls] = type(new_name, (cls,), {"__module__": cls.__module__})
        node.__class__ = _inplace_node_classes[cls]
    return node


def _reshape_inplace(self: Tensor, fn, *args) -> Tensor:
    """Make ``self`` the view ``fn(self, *args)`` (``unsqueeze_``, ``squeeze_``, ``t_``)."""
    record = self._check_inplace() and self._requires_grad  # a leaf that requires grad: error
    if record:
        result = fn(self, *args)
    else:
        with grad_mode.no_grad():
            result = fn(self, *args)
    self._data = result._data
    _counter(self).value += 1  # a change in place, as PyTorch counts it
    if record:
        self._set_history(_inplace_node(result._grad_fn), result._output_nr)
    return self


# ---------------------------------------------------------------- helpers (task: methods)
def _inplace_undifferentiated(self: Tensor, fn, *args) -> Tensor:
    """An in-place op PyTorch does not differentiate (``logical_and_``): the new values are
    written (the version goes up) and the tensor keeps its history; even a leaf that
    requires grad may be changed."""
    with grad_mode.no_grad():
        return self._inplace(fn, *args)


def _check_cast(dtype, out: Tensor) -> None:
    from minitorch._tensor import check_cast

    check_cast(dtype, out)


def _check_clamp_bounds(self: Tensor, *bounds) -> None:
    """``clamp_`` with number bounds that ``self`` cannot hold (``int_tensor.clamp_(0.5)``):
    PyTorch's message names the C++ type (``long int``)."""
    dt = self.dtype
    for b in bounds:
        if b is not None and not isinstance(b, Tensor):
            dt = _dtype.promote_types(dt, _dtype.result_type(self, _util.as_tensor(b, self)))
    try:
        _check_cast(dt.np, self)
    except RuntimeError:
        raise RuntimeError(f"result type {dt._legacy[:-6]} can't be cast to the desired output "
                           f"type {_dtype.CPP_NAMES[self.dtype.name]}") from None


def _bitwise_inplace(self: Tensor, fn, other) -> Tensor:
    """``bitwise_and_``, ..., the shifts: PyTorch checks that the result's dtype fits the
    tensor (a float ``other``) before it looks for a kernel."""
    if isinstance(other, (Tensor, int, float)):
        _check_cast(_dtype.result_type(self, _util.as_tensor(other, self)).np, self)
    return self._inplace(fn, other)


def _product_inplace(self: Tensor, op, a, b, beta, alpha, shape=None) -> Tensor:
    """``addmm_``, ``baddbmm_``, ``addbmm_``: the product (of ``shape``, when the matrices
    tell it) must have ``self``'s shape: it does not broadcast into it."""
    def check(shape):
        if shape is not None and tuple(shape) != self._data.shape:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and "
                               f"output tensor size {list(shape)} should match")

    check(shape)  # (before the dtypes are looked at, as in PyTorch)

    def fn(t, a, b):
        out = op(t, a, b, beta=beta, alpha=alpha)
        check(out._data.shape)
        return out
    return self._inplace(fn, a, b)


# misc: addbmm_ resizes a tensor that broadcasts into the product, as PyTorch's addbmm_out
def _resizes_into(self: Tensor, shape) -> bool:
    """Whether ``addbmm_`` resizes ``self`` to the product's ``shape``: PyTorch's kernel
    broadcasts ``self`` to it and writes the result into ``self``, resized (``addmm_`` and the
    others refuse). A view is left to that refusal here."""
    if shape is None or tuple(shape) == self._data.shape or self._base is not None:
        return False
    try:  # (baddbmm_ asks too: a shape that does not broadcast is expand's error)
        return np.broadcast_shapes(self._data.shape, tuple(shape)) == tuple(shape)
    except ValueError:
        return False


def _addbmm_resizing(self: Tensor, batch1, batch2, beta, alpha, shape) -> Tensor:
    """``self.addbmm_`` where ``self`` broadcasts into the ``(n, p)`` product: the
    out-of-place ``addbmm`` (its gradient summed back to ``self``'s shape), written into
    ``self`` resized. As PyTorch's kernel copies the broadcast ``self`` into its own memory, one
    element after another, an ``(n, 1)`` ``self`` (``n, p > 1``) reads back its first element
    into every row: the values are computed from that, the gradient as for the broadcast."""
    n, p = shape
    aliased = self._data.ndim == 2 and self._data.shape[1] == 1 and n > 1 and p > 1

    def fn(t, a, b):
        out = _linalg.addbmm(t, a, b, beta=beta, alpha=alpha)
        if aliased:
            with grad_mode.no_grad():
                first = t.detach()[:1, :1]
                out._data = _linalg.addbmm(first, a.detach(), b.detach(), beta=beta,
                                           alpha=alpha)._data
        self._data = array_module(self._data).empty(out._data.shape, dtype=self._data.dtype)
        return out
    return self._inplace(fn, batch1, batch2)


def _shape_of(ndim: int, *dims):
    """The product's shape from its factors' ``(tensor, dim)`` pairs, when they are tensors
    of ``ndim`` dimensions (else the operation gives its own error)."""
    if all(isinstance(t, Tensor) and t._data.ndim == ndim for t, _ in dims):
        return tuple(t._data.shape[d] for t, d in dims)
    return None


def _check_scan_inplace(self: Tensor, name: str, dim, dtype) -> None:
    """``cumsum_``/``cumprod_`` run in ``self``'s dtype: none for bools, no other ``dtype``."""
    normalize_dim(dim, self._data.ndim)  # an IndexError comes first
    if self._data.dtype.kind == "b":
        raise NotImplementedError(f'"{name}_out_cpu" not implemented for \'Bool\'')
    dtype = _dtype.as_dtype(dtype, name + "_")
    if dtype is not None and dtype is not self.dtype:
        raise RuntimeError(
            f"Bad in-place call: input tensor dtype {_dtype.CPP_NAMES[self.dtype.name]} and "
            f"output tensor dtype {_dtype.CPP_NAMES[dtype.name]} should match")


def _warn_deprecated_0d(what: str, instead: str) -> None:
    from minitorch._warnings import warn_once

    warn_once(f"{what} 0-d", f"{what} is deprecated on 0-D tensors. Consider using "
              f"{instead}.", stacklevel=3)


def _warn_reversed_dims(ndim: int) -> None:
    """(misc2) ``x.T``'s deprecation warnings, once each, as PyTorch's."""
    from minitorch._warnings import warn_once

    if ndim == 0:
        warn_once("Tensor.T 0-d", "Tensor.T is deprecated on 0-D tensors. This function is the "
                  "identity in these cases.", stacklevel=3)
    elif ndim != 2:
        warn_once("Tensor.T ndim", "The use of `x.T` on tensors of dimension other than 2 to "
                  "reverse their shape is deprecated and it will throw an error in a future "
                  "release. Consider `x.mT` to transpose batches of matrices or "
                  "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of "
                  "a tensor.", stacklevel=3)


def _alpha_first(name: str, alpha, args) -> tuple:
    """PyTorch's deprecated overload ``x.add_(alpha, other)`` (old tutorials' SGD step
    ``p.data.add_(-lr, p.grad.data)``): ``(other, alpha)``, with PyTorch's warning, given once
    in a process for all the deprecated overloads, as PyTorch gives it."""
    from minitorch._warnings import warn_once

    if len(args) != 1 or isinstance(alpha, Tensor):
        raise TypeError(f"{name}() takes 1 positional argument but {1 + len(args)} were given")
    warn_once("deprecated overload", f"This overload of {name} is deprecated:\n\t{name}(Number "
              f"alpha, Tensor other)\nConsider using one of the following signatures instead:"
              f"\n\t{name}(Tensor other, *, Number alpha = 1)", stacklevel=3)
    return args[0], alpha


def _adjoint(self: Tensor, message: str) -> Tensor:
    """``mH``/``adjoint()`` (and ``mT`` of fewer than 2 dimensions): ``mT`` for real numbers
    (a 0-d tensor is returned, with PyTorch's warning)."""
    ndim = self._data.ndim
    if ndim == 0:
        if "mT" in message:
            from minitorch._warnings import warn_once

            warn_once("Tensor.mT 0-d", "Tensor.mT is deprecated on 0-D tensors. This function is "
                      "the identity in these cases.", stacklevel=3)
        else:
            _warn_deprecated_0d("Tensor.mH" if "mH" in message else "adjoint()", "x.conj()")
        return self
    if ndim == 1:
        raise RuntimeError(f"{message} on matrices or batches of matrices. Got 1-D tensor.")
    return _shape.transpose(self, -2, -1)


def _copy_of(view_op, node_name=None):
    """The ``*_copy`` form of the view op ``view_op``: the same values in memory of their own,
    recorded by the view's node under PyTorch's name for it (``ExpandBackward0_copy``, or
    ``node_name``)."""
    def copy_op(input, *args, **kwargs):  # noqa: A002
        result = view_op(input, *args, **kwargs)
        views = (result,) if isinstance(result, Tensor) else tuple(result)
        node = views[0]._grad_fn if views else None  # (the pieces of a split share one)
        name = node_name or (node is not None and type(node).__name__ + "_copy")
        out = tuple(_owned(t, name) for t in views)
        return out[0] if isinstance(result, Tensor) else out
    return copy_op


def _owned(view: Tensor, node_name) -> Tensor:
    out = _wrap(view._data.copy())
    if view._grad_fn is not None:
        out._set_history(_shape.renamed_node(view._grad_fn, node_name), view._output_nr)
    out._requires_grad = view._requires_grad and grad_mode._state.enabled
    return out


# layout2 task: to()'s error for a bad memory_format
_TO_SIGNATURES = "".join(
    f"\n * ({sig}bool non_blocking = False, bool copy = False, *, torch.memory_format "
    "memory_format = None)" for sig in ("torch.device device = None, torch.dtype dtype = None, ",
                                        "torch.dtype dtype, ", "Tensor tensor, "))


def _invalid_to(args, kwargs) -> str:
    """PyTorch's TypeError message for ``to()`` arguments it cannot parse."""
    def name(v):
        return ("torch.dtype" if isinstance(v, _dtype.dtype) else "torch.device"
                if isinstance(v, _device_cls) else "Tensor" if isinstance(v, Tensor)
                else type(v).__name__)
    got = ", ".join([name(a) for a in args] + [f"{k}={name(v)}" for k, v in kwargs.items()])
    return (f"to() received an invalid combination of arguments - got ({got}{'' if args else ', '}"
            f"), but expected one of:{_TO_SIGNATURES}\n")


def _non_overlapping_and_dense(shape, strides) -> bool:  # layout2 task
    """PyTorch's ``is_non_overlapping_and_dense``: the strides are a permutation of a
    contiguous tensor's (size-1 dimensions and those after a size-0 one not counted)."""
    expected = 1
    for d in sorted(range(len(shape)), key=lambda d: (shape[d] < 2, strides[d])):
        if shape[d] < 2:
            return True
        if strides[d] != expected:
            return False
        expected *= shape[d]
    return True


def _dense_in_order(shape, strides, order) -> bool:
    """``_tensor._dense_in_order``, where a tensor without elements is dense in every order."""
    return 0 in shape or _dense_in_order_of(shape, strides, order)


def _dim_order(shape, strides, ambiguity_check: bool):
    """``torch._prims_common.compute_elementwise_output_logical_to_physical_perm`` for one
    tensor: the permutation, and whether it is ambiguous."""
    ndim = len(shape)
    if ndim < 2:
        return list(range(ndim)), False
    contiguous = _dense_in_order(shape, strides, range(ndim - 1, -1, -1))
    channels_last = ndim == 4 and _dense_in_order(shape, strides, (1, 3, 2, 0))
    if contiguous and not channels_last:
        return list(range(ndim)), False
    if channels_last and not contiguous:
        return [0, *range(2, ndim), 1], False

    def ge(a, b):
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a, b):
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(shape[b], shape[a]) else 1
        if ge(sb, sa):
            return -1
        return 1 if ge(sa, sb) else 0

    perm = _util.sort_dims(ndim, should_swap)
    ambiguous = ambiguity_check and any(should_swap(perm[i], perm[i + 1]) != -1
                                        for i in range(ndim - 1))
    return perm[::-1], ambiguous


class TensorMethods:
    """The methods this module adds to ``Tensor`` (see the module docstring), besides the
    operations in ``METHODS`` that are methods as they are."""

    # ------------------------------------------------------------ size, conversion and copies
    def size(self, dim: int | None = None):
        """``size()`` is ``shape``; ``size(d)`` is the length of dimension ``d``."""
        if dim is None:
            return Size(self._data.shape)
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._data.shape[_util.normalize_dim(dim, self._data.ndim)]

    def to(self, *args, **kwargs) -> Tensor:
        """Convert dtype and/or device: ``to(dtype)``, ``to(device)``, ``to(other_tensor)``.

        Returns ``self`` when nothing changes, as PyTorch does.
        """
        fmt = kwargs.pop("memory_format", None)  # layout2 task
        if fmt is not None and type(fmt) is not _dtype.memory_format:
            raise TypeError(_invalid_to(args, {"memory_format": fmt, **kwargs}))
        dtype = _dtype.as_dtype(kwargs.pop("dtype", None), "to")
        dev = kwargs.pop("device", None)
        copy = kwargs.pop("copy", False)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
        for a in args:
            if isinstance(a, (_dtype.dtype, type)):  # a dtype, or to(float) (float64)
                dtype = _dtype.as_dtype(a, "to")
            elif isinstance(a, Tensor):
                dtype, dev = a.dtype, a.device
            elif isinstance(a, (str, _device_cls)):
                dev = a
            elif isinstance(a, bool):
                pass  # non_blocking
            else:
                raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
        out = self
        if dev is not None:
            dev = _device_cls(dev)
            if dev.type != out._device.type or (dev.index or 0) != (out._device.index or 0):
                out = _shape.ToDevice.apply(out, dev)
                copy = False
        if dtype is not None and dtype is not out.dtype:
            out = _shape.ToCopy.apply(out, dtype)
            copy = False
        if copy:
            out = _shape.ToCopy.apply(out, out.dtype)
        if fmt is not None and fmt is not _dtype.preserve_format:  # layout2 task
            if out is self and _suggest_memory_format(self.shape, self.stride()) is not fmt:
                out = _shape.ToCopy.apply(out, out.dtype)  # (else self: its layout is fmt's)
            if out is not self:
                out._data = _in_format(out._data, fmt)  # (a new tensor's memory, relaid)
        return out

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{self.dtype._legacy}"
        if not isinstance(dtype, _dtype.dtype):  # torch.LongTensor or "torch.LongTensor"
            dtype = _legacy.legacy_dtype(dtype)
        return self.to(dtype)

    def clone(self, *, memory_format=_dtype.preserve_format) -> Tensor:
        """A copy with its own memory, recorded in the graph (``CloneBackward0``), laid out
        in memory as this tensor is (or as ``memory_format`` says)."""
        if memory_format is _dtype.preserve_format:
            return _shape.ClonePreserve.apply(self)
        fmt = _dtype.as_memory_format(memory_format, "clone")  # layout2 task
        return (_shape.ClonePreserve.apply(self) if fmt is _dtype.preserve_format
                else _shape.CloneFormat.apply(self, fmt))

    def _contiguous_copy(self) -> Tensor:  # layout task
        """A copy in contiguous memory, recorded as ``clone()`` is (``contiguous()``)."""
        return _shape.Clone.apply(self)

    def _as_grad_of(self, var, unshared: bool = False) -> Tensor:  # layout2 task
        """This gradient as the first ``.grad`` of the leaf ``var``, by PyTorch's "gradient
        layout contract" (AccumulateGrad): a gradient nothing else holds is kept if it is
        laid out as ``var`` (or, where ``var`` is not dense, contiguous), else copied into
        that layout; under ``create_graph=True`` it is always a (recorded) copy."""
        data, laid, recorded = self._data, var._data, grad_mode._state.enabled
        if not recorded and laid.flags.c_contiguous:  # the common case, a contiguous
            return self._contiguous_copy()  # parameter: a contiguous copy
        shape, strides, own = var.shape, var.stride(), self.stride()
        dense = _non_overlapping_and_dense(shape, strides)
        if unshared and not recorded and (all(
                g == s if n != 1 else g != 0 for n, g, s in zip(shape, own, strides))
                if dense else data.flags.c_contiguous):
            return self
        if not recorded:  # a plain copy, in var's layout (NumPy's empty_like keeps a dense
            if not dense:  # array's order of dimensions), else contiguous
                return self._contiguous_copy()
            out = array_module(data).empty_like(laid, dtype=data.dtype)
            out[...] = data
            return _wrap(out)
        if not dense:
            return self.clone(memory_format=_dtype.contiguous_format)
        out = _creation.empty_strided(shape, strides, dtype=self.dtype, device=self.device)
        return out.copy_(self)  # (CopyBackwards, where it is recorded)

    # ------------------------------------------------------------ in-place machinery
    # An in-place op computes its out-of-place result and writes it into ``self``'s memory;
    # a change to a view goes through ``ops/views.py``.
    def _refresh(self) -> None:
        """Give a view whose base got a new history its new node (``ops/views.py``)."""
        _views.regenerate(self)

    def _check_inplace(self, args=()) -> bool:
        """Guard an in-place op on this tensor with ``args``: PyTorch's errors, else whether it
        must be recorded in the graph (grad mode is on and something requires grad)."""
        if not (grad_mode._state.enabled and (self._requires_grad or _any_requires_grad(args))):
            return False
        base = self._base
        if base is not None:
            if self._view_kind:  # made under no_grad, or by unbind/split: PyTorch refuses
                raise RuntimeError(_views.view_change_message(self, indirect=False))
            if self._view_stale is not None:
                self._refresh()
            if self._requires_grad and base._grad_fn is None:
                raise RuntimeError(_VIEW_OF_LEAF_MESSAGE)
        if self._requires_grad and self._grad_fn is None:
            raise RuntimeError(
                "a leaf Variable that requires grad is being used in an in-place operation."
            )
        return True

    def _inplace(self, fn, *args) -> Tensor:
        """Run the out-of-place ``fn(self, *args)`` and write the result into ``self``.

        When the result joins the graph, ``self`` takes over its history (as PyTorch does) and
        its version counter goes up, so saved copies of the old value are detected. A view
        passes the change on to the tensor whose memory it shows: see ``ops/views.py``.
        """
        if not self._check_inplace(args):  # nothing to record
            self._write(fn(self, *args)._data)
            return self
        if self._base is not None:
            return _views.inplace_on_view(self, fn, args, saved_as_clone)
        old = self._recorded_copy()
        result = fn(old, *args)
        if result._grad_fn is not None:  # PyTorch saves a clone of the changed input
            saved_as_clone(result._grad_fn, old)
        self._write(result._data)
        if result._grad_fn is None and not self._requires_grad:
            return self  # an integer result (x_int.copy_(y)): no history, as in PyTorch
        self._set_history(result._grad_fn, result._output_nr)
        if result._data.dtype != self._data.dtype:  # (gradgraph task)
            _saved_as_self(result._grad_fn, result, self)
        if self._version_counter.views and self._grad_fn is not None:
            _views.rebase_views(self)  # its views show the new values: new history too
        return self

    def _recorded_copy(self) -> Tensor:
        """This tensor's value before an in-place change, with its history."""
        old = _wrap(self._data.copy())
        old._grad_fn, old._output_nr = self._grad_fn, self._output_nr
        old._requires_grad = self._requires_grad
        old._leaf_edge = self._leaf_edge
        return old

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
        _util.check_tensor(other, "allclose", "other", 1)
        return _compare.allclose(self, other, rtol, atol, equal_nan)


    # ------------------------------------------------------------ in place
    # Each goes through ``Tensor._inplace``, so that the graph and the versions stay right;
    # ``add_``, ``sub_`` and ``mul_`` try the no-graph fast path ``_ufunc_inplace`` first.
    def add_(self, other, *args, alpha=1) -> Tensor:
        if args:
            other, alpha = _alpha_first("add_", other, args)
        if alpha == 1 and self._ufunc_inplace(np.add, other):
            return self
        return self._inplace(_arith.add, other, alpha)

    def sub_(self, other, *args, alpha=1) -> Tensor:
        if args:
            other, alpha = _alpha_first("sub_", other, args)
        if alpha == 1 and self._ufunc_inplace(np.subtract, other):
            return self
        return self._inplace(_arith.sub, other, alpha)

    def mul_(self, other) -> Tensor:
        if self._ufunc_inplace(np.multiply, other):
            return self
        return self._inplace(_arith.mul, other)

    def div_(self, other, *, rounding_mode=None) -> Tensor:
        return self._inplace(lambda t, o: _arith.div(t, o, rounding_mode=rounding_mode), other)

    def pow_(self, exponent) -> Tensor:
        return self._inplace(_arith.pow, exponent)

    __ipow__ = pow_  # x **= 2 changes x in place, as PyTorch's (not x = x ** 2)

    def clamp_(self, min=None, max=None) -> Tensor:  # noqa: A002
        _check_clamp_bounds(self, min, max)
        return self._inplace(_arith.clamp, min, max)

    clip_ = clamp_
    def neg_(self) -> Tensor:
        return self._inplace(_arith.neg)

    def zero_(self) -> Tensor:
        """Fill with zeros in place (how gradients are cleared: ``x.grad.zero_()``)."""
        if self._fill_inplace(0):
            return self
        return self._inplace(_shape.zeroed)

    def fill_(self, value) -> Tensor:
        if self._fill_inplace(value):
            return self
        return self._inplace(_shape.filled, value)

    def copy_(self, src) -> Tensor:
        """Copy ``src`` (broadcast to this shape) into this tensor, in place."""
        if isinstance(src, Tensor):
            _shape.check_partial_overlap(self._data, src._data)
        return self._inplace(_shape.copied, src)

    def masked_fill_(self, mask, value) -> Tensor:
        _arith.check_masked_fill_args("masked_fill_", (mask, value))
        return self._inplace(_arith.masked_fill, mask, value)

    def masked_fill(self, mask, value) -> Tensor:
        _arith.check_masked_fill_args("masked_fill", (mask, value))
        return _arith.masked_fill(self, mask, value)

    def uniform_(self, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
        """Fill with numbers drawn uniformly from [a, b)."""
        _random.check_uniform_range(a, b, self._data.dtype)
        dtype = self._data.dtype
        values = _random.in_memory_order(
            self._data, lambda shape: _random.uniform_array(shape, a, b, dtype, generator))
        with grad_mode.no_grad():
            return self.copy_(values)

    def normal_(self, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
        """Fill with numbers drawn from a normal distribution."""
        _random.check_float_fill(self._data.dtype, "normal_kernel_cpu")
        data = self._data
        values = _random.in_memory_order(data, lambda shape: _random.normal_array(
            shape, mean, std, data.dtype, generator, contiguous=data.flags.c_contiguous))
        with grad_mode.no_grad():
            return self.copy_(values)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    def __itruediv__(self, other):
        return self.div_(other)

    def __setitem__(self, key, value) -> None:
        _indexing.setitem(self, key, value)

    def __delitem__(self, key) -> None:
        raise TypeError("Tensor does not support deleting items")

    def __contains__(self, element) -> bool:
        """``element in t``: whether any entry of ``t`` equals it, as PyTorch's (Python's own
        ``in`` would compare it with each row, and a row of two is no truth value)."""
        if not isinstance(element, Tensor | numbers.Number):
            raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you "
                               f"passed in a {type(element)}.")
        return bool((element == self).any().item())

    def __reversed__(self):
        """``reversed(t)``: ``t`` flipped along dim 0, a tensor (a 0-d one is ``t`` itself)."""
        return self if self._data.ndim == 0 else self.flip(0)

    # ------------------------------------------------------------ arguments passed on changed
    # (reflected operators, ``add`` with ``alpha``, ``where``, sizes given as ``*shape``)
    def __rtruediv__(self, other):
        return _arith.mul(_arith.reciprocal(self), other)

    def __rfloordiv__(self, other):
        return _arith.floor_divide(other, self)

    def __rmod__(self, other):
        return _arith.remainder(other, self)

    def __rpow__(self, base):
        return _arith.pow(base, self)

    def __rmatmul__(self, other):
        return _linalg.matmul(other, self)

    def __and__(self, other):
        return _arith.logical_op(np.bitwise_and, self, other)

    def __or__(self, other):
        return _arith.logical_op(np.bitwise_or, self, other)

    def __xor__(self, other):
        return _arith.logical_op(np.bitwise_xor, self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__
    def add(self, other, *args, alpha=1):
        if args:
            other, alpha = _alpha_first("add", other, args)
        return _arith.add(self, other, alpha)

    def sub(self, other, *args, alpha=1):
        if args:
            other, alpha = _alpha_first("sub", other, args)
        return _arith.sub(self, other, alpha)

    subtract = sub
    def square(self):
        return _arith.pow(self, 2)

    def where(self, condition, other):
        return _arith.where(condition, self, other)

    def norm(self, p="fro", dim=None, keepdim: bool = False, dtype=None):
        return _functional.norm(self, p, dim, keepdim, dtype=dtype)

    def sum_to_size(self, *size):
        return _reduction.sum_to_size(self, _shape.as_shape(size, "sum_to_size"))

    # ------------------------------------------------------------ shape
    def reshape(self, *shape):
        return _shape.reshape(self, _shape.as_shape(shape, "reshape", "shape"))

    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            raise NotImplementedError("view(dtype) is not supported by minitorch")
        return _shape.view(self, _shape.as_shape(shape))

    def view_as(self, other):
        return _shape.view(self, tuple(other.shape))

    def reshape_as(self, other):
        return _shape.reshape(self, tuple(other.shape))

    @property
    def T(self):  # noqa: N802
        _warn_reversed_dims(self._data.ndim)  # (misc2)
        return _shape.permute(self, tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):  # noqa: N802
        if self._data.ndim < 2:  # (misc2) PyTorch's warning and error
            return _adjoint(self, "tensor.mT is only supported")
        return _shape.transpose(self, -2, -1)

    def permute(self, *dims):
        return _shape.permute(self, _shape.as_shape(dims, "permute", "dims"))

    def expand(self, *sizes):
        return _shape.expand(self, _shape.as_shape(sizes, "expand"))

    def expand_as(self, other):
        return _shape.expand(self, tuple(other.shape))

    def repeat(self, *sizes):
        return _shape.repeat(self, _shape.as_shape(sizes, "repeat", "repeats"))

    # ------------------------------------------------------------ new tensors like this one
    def new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False):
        """A copy of ``data`` with this tensor's dtype and device (unless given)."""
        return _creation.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                                requires_grad=requires_grad)

    # ------------------------------------------------------------ softmax
    def softmax(self, dim, dtype=None):
        if dim is None:  # only nn.functional.softmax guesses a dim
            raise TypeError("softmax(): argument 'dim' (position 1) must be int, not NoneType")
        return _softmax.softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim, dtype=None):
        if dim is None:  # only nn.functional.log_softmax guesses a dim
            raise TypeError("log_softmax(): argument 'dim' (position 1) must be int, not NoneType")
        return _softmax.log_softmax(self, dim, dtype=dtype)

    # ------------------------------------------------------------ new elementwise operations
    def ceil(self):
        return _unary.ceil(self)

    def floor(self):
        return _unary.floor(self)

    def asin(self):
        return _unary.asin(self)

    def acos(self):
        return _unary.acos(self)

    def atan(self):
        return _unary.atan(self)

    arcsin, arccos, arctan = asin, acos, atan

    def bitwise_and(self, other):
        return _arith.bitwise_and(self, other)

    def bitwise_or(self, other):
        return _arith.bitwise_or(self, other)

    def bitwise_xor(self, other):
        return _arith.bitwise_xor(self, other)

    def bitwise_not(self):
        return _arith.bitwise_not_(self)

    def clamp_min(self, min):  # noqa: A002
        return _arith.clamp_min(self, min)

    def clamp_max(self, max):  # noqa: A002
        return _arith.clamp_max(self, max)

    # ------------------------------------------------------------ views
    def narrow(self, dim: int, start, length: int):
        return _indexing.narrow(self, dim, start, length)

    def select(self, dim: int, index: int):
        return _indexing.select(self, dim, index, _position=2)  # (the method's index is 2nd)

    # roll, movedim, tensor_split, tile, repeat_interleave, diag, unfold (ops/shape.py); the
    # methods count argument positions from after ``self``, as PyTorch's do
    def roll(self, shifts, dims=None):
        _shape._ints(shifts, "roll", "shifts", 1)
        return _shape.roll(self, shifts, dims)

    def movedim(self, source, destination):
        return _shape.movedim(self, source, destination)

    def moveaxis(self, source, destination):
        return _shape.moveaxis(self, source, destination)

    def swapaxes(self, axis0: int, axis1: int):
        return _shape.transpose(self, axis0, axis1)

    def swapdims(self, dim0: int, dim1: int):
        return _shape.transpose(self, dim0, dim1)

    def tensor_split(self, indices_or_sections=None, dim: int = 0, **kwargs):
        arg = indices_or_sections
        if arg is not None and not isinstance(arg, (Tensor, tuple, list, int, np.integer)):
            raise _shape._invalid_combination("tensor_split", type(arg).__name__,
                                              *_shape._TENSOR_SPLIT)
        return _shape.tensor_split(self, indices_or_sections, dim, **kwargs)

    def tile(self, *dims):
        if not dims:
            raise TypeError('tile() missing 1 required positional arguments: "dims"')
        if len(dims) == 1:  # x.tile(2), x.tile((2, 3)) and x.tile(2, 3) are the same
            dims = dims[0]
        return _shape.tile(self, list(_shape._ints(dims, "tile", "dims", 1)))

    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        return _shape.repeat_interleave(self, repeats, dim, output_size=output_size)

    def diag(self, diagonal: int = 0):
        _shape._int_arg(diagonal, "diag", "diagonal", 1)
        return _shape.diag(self, diagonal)

    def diag_embed(self, offset: int = 0, dim1: int = -2, dim2: int = -1):
        _shape._int_arg(offset, "diag_embed", "offset", 1)
        return _shape.diag_embed(self, offset, dim1, dim2)

    def unfold(self, dimension: int, size: int, step: int):
        return _shape.unfold(self, dimension, size, step)

    # broadcast_to, rot90, diff (ops/rearrange.py): their errors count from after ``self``
    def broadcast_to(self, size):
        return _rearrange.broadcast_to(self, size, _position=1)

    def rot90(self, k: int = 1, dims=(0, 1)):
        return _rearrange.rot90(self, k, dims, _position=1)

    def diff(self, n: int = 1, dim: int = -1, prepend=None, append=None):
        return _rearrange.diff(self, n, dim, prepend, append, _position=1)

    def histc(self, bins: int = 100, min=0, max=0):  # noqa: A002
        return _search.histc(self, bins, min, max, _position=1)

    # nanmedian, quantile, nanquantile (ops/sorting.py, ops/statistics.py)
    def nanmedian(self, dim=None, keepdim: bool = False):
        return _sorting.nanmedian(self, dim, keepdim, _position=1)

    def quantile(self, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):
        return _statistics.quantile(self, q, dim, keepdim, interpolation=interpolation)

    def nanquantile(self, q, dim=None, keepdim: bool = False, *,
                    interpolation: str = "linear"):
        return _statistics.nanquantile(self, q, dim, keepdim, interpolation=interpolation)

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1):
        return _shape.diagonal(self, offset, dim1, dim2)

    def storage_offset(self) -> int:
        """Where this tensor starts in the memory it shares with its base, in elements."""
        return _views.storage_offset(self)

    def data_ptr(self) -> int:
        """The memory address of the first element (views of one base share memory)."""
        return _views.data_ptr(self)

    # ------------------------------------------------------------ reductions, sets, indexing
    def prod(self, dim=NO_DIM, keepdim: bool = NO_KEEPDIM, *, dtype=None):
        return _reduction.prod(self, dim, keepdim, dtype=dtype)

    def unique(self, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
               return_counts: bool = False, dim=None):
        return _sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def unique_consecutive(self, return_inverse: bool = False, return_counts: bool = False,
                           dim=None):
        return _sorting.unique_consecutive(self, return_inverse, return_counts, dim)

    # A method counts its arguments after ``self``: its errors name other positions.
    def maximum(self, other):
        _util.check_tensor(other, "maximum", "other", 1)
        return _arith.maximum(self, other)

    def minimum(self, other):
        _util.check_tensor(other, "minimum", "other", 1)
        return _arith.minimum(self, other)

    def logical_and(self, other):
        _util.check_tensor(other, "logical_and", "other", 1)
        return _arith.logical_and(self, other)

    def logical_or(self, other):
        _util.check_tensor(other, "logical_or", "other", 1)
        return _arith.logical_or(self, other)

    def index_select(self, dim: int, index):
        _util.check_tensor(index, "index_select", "index", 2)
        return _indexing.index_select(self, dim, index)

    def index_add(self, dim: int, index, source, *, alpha=1):
        _util.check_tensor(index, "index_add", "index", 2)
        return _indexing.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim: int, index, source, *, alpha=1):
        """Add ``alpha * source[i]`` into slice ``index[i]`` along ``dim``, in place."""
        _util.check_tensor(index, "index_add_", "index", 2)
        return self._inplace(lambda t, s: _indexing.index_add(t, dim, index, s, alpha=alpha),
                             source)

    # ------------------------------------------------------------ addmv_, addr_ (task linalg2)
    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        """``self = beta * self + alpha * (mat @ vec)``, in place (``self`` is not broadcast)."""
        if self.dim() <= 1 and self.numel() == 1 and mat.dim() == 2 and vec.dim() == 1 and \
                mat.shape[1] == vec.shape[0] and tuple(self.shape) != (mat.shape[0],):
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and "
                               f"output tensor size [{mat.shape[0]}] should match")
        return self._inplace(lambda t, m, v: _linalg.addmv(t, m, v, beta=beta, alpha=alpha),
                             mat, vec)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        """``self = beta * self + alpha * outer(vec1, vec2)``, in place."""
        for t, name in ((vec1, "vec1"), (vec2, "vec2")):
            if isinstance(t, Tensor) and t.dim() != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.dim()}-D")
        if self.dim() != 2:
            raise RuntimeError(f"2D tensor expected, got {self.dim()}D tensor for input")
        if tuple(self.shape) != (vec1.shape[0], vec2.shape[0]):
            raise RuntimeError(f"size mismatch, input: {list(self.shape)}, v1: "
                               f"{list(vec1.shape)}, v2: {list(vec2.shape)}")
        return self._inplace(lambda t, v1, v2: _linalg._addr(t, v1, v2, beta, alpha),
                             vec1, vec2)

    def index_reduce_(self, dim: int, index, source, reduce: str, *, include_self: bool = True):
        """Combine slice ``i`` of ``source`` into slice ``index[i]`` of ``self``, in place."""
        return self._inplace(lambda t, s: _scatter.index_reduce(
            t, dim, index, s, reduce, include_self=include_self), source)

    # ------------------------------------------------------------ elementwise, in place
    def sin_(self):
        return self._inplace(_unary.sin)

    def cos_(self):
        return self._inplace(_unary.cos)

    def tanh_(self):
        return self._inplace(_unary.tanh)

    def sigmoid_(self):
        return self._inplace(_unary.sigmoid)

    def relu_(self):
        return self._inplace(_unary.relu)

    def exp_(self):
        return self._inplace(_unary.exp)

    def log_(self):
        return self._inplace(_unary.log)

    def sqrt_(self):
        return self._inplace(_unary.sqrt)

    def abs_(self):
        return self._inplace(_unary.abs)

    absolute_ = abs_

    def ceil_(self):
        return self._inplace(_unary.ceil)

    def floor_(self):
        return self._inplace(_unary.floor)

    def asin_(self):
        return self._inplace(_unary.asin)

    def acos_(self):
        return self._inplace(_unary.acos)

    def atan_(self):
        return self._inplace(_unary.atan)

    def reciprocal_(self):
        return self._inplace(_arith.reciprocal)

    def square_(self):
        return self._inplace(_arith.pow, 2)

    def clamp_min_(self, min):  # noqa: A002
        _check_clamp_bounds(self, min)
        return self._inplace(_arith.clamp_min, min)

    def clamp_max_(self, max):  # noqa: A002
        _check_clamp_bounds(self, max)
        return self._inplace(_arith.clamp_max, max)

    def log1p_(self):
        return self._inplace(_pointwise.log1p)

    def expm1_(self):
        return self._inplace(_pointwise.expm1)

    def rsqrt_(self):
        return self._inplace(_pointwise.rsqrt)

    def log2_(self):
        return self._inplace(_pointwise.log2)

    def log10_(self):
        return self._inplace(_pointwise.log10)

    def exp2_(self):
        return self._inplace(_pointwise.exp2)

    def erf_(self):
        return self._inplace(_pointwise.erf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return self._inplace(_pointwise.nan_to_num,
                             *_pointwise.nan_to_num_args("nan_to_num_", nan, posinf, neginf))

    def lerp(self, end, weight):
        _pointwise.check_lerp_args((end, weight))  # (the method's errors count from ``end``)
        return _pointwise.lerp(self, end, weight)

    def lerp_(self, end, weight):
        _pointwise.check_lerp_args((end, weight), "lerp_")
        return self._inplace(_pointwise.lerp, end, weight)

    def flip(self, *dims, **kwargs):
        """``x.flip(0, 1)``, ``x.flip((0, 1))`` or ``x.flip(dims=(0, 1))``."""
        if "dims" in kwargs:
            dims = kwargs.pop("dims")
        elif not dims:
            raise TypeError('flip() missing 1 required positional arguments: "dims"')
        elif len(dims) == 1 and not isinstance(dims[0], (int, np.integer)):
            dims = dims[0]  # a tuple or list (or the wrong type, which flip_dims names)
        if kwargs:
            raise TypeError(f"flip() got an unexpected keyword argument '{next(iter(kwargs))}'")
        return _shape.Flip.apply(self, _shape.flip_dims(self, dims, 1))

    def renorm_(self, p, dim: int, maxnorm):
        return self._inplace(_linalg.renorm, p, dim, maxnorm)

    def outer(self, vec2):
        _util.check_tensor(vec2, "outer", "vec2", 1)
        return _linalg.outer(self, vec2)

    # ------------------------------------------------------------ shape, in place
    def unsqueeze_(self, dim: int):
        return _reshape_inplace(self, _shape.unsqueeze, dim)

    def squeeze_(self, dim=None):
        return _reshape_inplace(self, _shape.squeeze, dim)

    def t_(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is "
                               f"{self._data.ndim}D")
        return _reshape_inplace(self, _shape.t)

    def transpose_(self, dim0: int, dim1: int):
        return _reshape_inplace(self, _shape.transpose, dim0, dim1)

    # ------------------------------------------------------------ sorting and selecting
    def sort(self, dim: int = -1, descending: bool = False, stable: bool = _sorting.NO_STABLE):
        return _sorting.sort(self, dim, descending, stable)

    def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False):
        return _sorting.argsort(self, dim, descending, stable=stable)

    def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
        _sorting.check_k(k, 1)
        return _sorting.topk(self, k, dim, largest, sorted)

    def median(self, dim=None, keepdim: bool = False):
        return _sorting.median(self, dim, keepdim, _position=1)

    def bincount(self, weights=None, minlength: int = 0):
        return _sorting.bincount(self, weights, minlength)

    def masked_select(self, mask):
        return _scatter.masked_select(self, mask)

    def nonzero(self, *, as_tuple: bool = False):
        return _scatter.nonzero(self, as_tuple=as_tuple)

    def scatter(self, dim: int, index, src=None, *, value=None, reduce=None):
        return _scatter.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim: int, index, src):
        return _scatter.scatter_add(self, dim, index, src)

    def scatter_(self, dim: int, index, src=None, *, value=None, reduce=None):
        """``scatter`` in place: write ``src`` (or ``value``) into ``self`` at ``index``."""
        return self._inplace(lambda t, s: _scatter.scatter(t, dim, index, s, value=value,
                                                            reduce=reduce), src)

    def scatter_add_(self, dim: int, index, src):
        """``scatter_add`` in place: add ``src`` into ``self`` at ``index``."""
        return self._inplace(lambda t, s: _scatter.scatter_add(t, dim, index, s), src)

    def scatter_reduce(self, dim: int, index, src, reduce: str, *, include_self: bool = True):
        return _scatter.scatter_reduce(self, dim, index, src, reduce, include_self=include_self)

    def scatter_reduce_(self, dim: int, index, src, reduce: str, *, include_self: bool = True):
        """``scatter_reduce`` in place."""
        return self._inplace(lambda t, s: _scatter.scatter_reduce(
            t, dim, index, s, reduce, include_self=include_self), src)

    def masked_scatter(self, mask, source):
        return _scatter.masked_scatter(self, mask, source)

    def masked_scatter_(self, mask, source):
        """``masked_scatter`` in place (the mask broadcasts to ``self``'s shape)."""
        return self._inplace(lambda t, s: _scatter.masked_scatter(t, mask, s), source)

    def argwhere(self):
        return _scatter.argwhere(self)

    def take(self, index):
        return _indexing.take(self, index)

    def take_along_dim(self, indices, dim=None):
        return _indexing.take_along_dim(self, indices, dim)

    def index_copy(self, dim: int, index, source):
        return _indexing.index_copy(self, dim, index, source)

    def index_copy_(self, dim: int, index, source):
        """``index_copy`` in place."""
        return self._inplace(lambda t, s: _indexing.index_copy(t, dim, index, s), source)

    def index_fill(self, dim: int, index, value):
        return _indexing.index_fill(self, dim, index, value)

    def index_fill_(self, dim: int, index, value):
        """``index_fill`` in place."""
        return self._inplace(lambda t, v: _indexing.index_fill(t, dim, index, v), value)

    def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False):
        return _sorting.kthvalue(self, k, dim, keepdim)

    def mode(self, dim: int = -1, keepdim: bool = False):
        return _sorting.mode(self, dim, keepdim)

    def cummax(self, dim: int):
        return _scan.cummax(self, dim)

    def cummin(self, dim: int):
        return _scan.cummin(self, dim)

    def nansum(self, dim=None, keepdim: bool = False, *, dtype=None):
        return _reduction.nansum(self, dim, keepdim, dtype=dtype)

    def nanmean(self, dim=None, keepdim: bool = False, *, dtype=None):
        return _reduction.nanmean(self, dim, keepdim, dtype=dtype)

    def aminmax(self, *, dim=None, keepdim: bool = False):
        return _reduction.aminmax(self, dim=dim, keepdim=keepdim)

    # ------------------------------------------------------------ running totals, triangles
    def cumsum(self, dim: int, *, dtype=None):
        return _scan.cumsum(self, dim, dtype=dtype)

    def cumprod(self, dim: int, *, dtype=None):
        return _scan.cumprod(self, dim, dtype=dtype)

    def logsumexp(self, dim, keepdim: bool = False):
        return _scan.logsumexp(self, dim, keepdim)

    def tril(self, diagonal: int = 0):
        return _triangular.tril(self, diagonal)

    def triu(self, diagonal: int = 0):
        return _triangular.triu(self, diagonal)

    def tril_(self, diagonal: int = 0):
        return self._inplace(_triangular.tril, diagonal)

    def triu_(self, diagonal: int = 0):
        return self._inplace(_triangular.triu, diagonal)

    # ------------------------------------------------------------ rounding and closeness
    def round(self, *, decimals: int = 0):
        return _rounding.round(self, decimals=decimals)

    def round_(self, *, decimals: int = 0):
        return self._inplace(lambda t: _rounding.round(t, decimals=decimals))

    def isclose(self, other, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
        _util.check_tensor(other, "isclose", "other", 1)
        return _compare.isclose(self, other, rtol, atol, equal_nan)

    # ------------------------------------------------------------ new tensors like this one
    def new_zeros(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """Zeros of ``size``, with this tensor's dtype and device unless given."""
        return _creation.zeros(*size, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """Ones of ``size``, with this tensor's dtype and device unless given."""
        return _creation.ones(*size, dtype=dtype or self.dtype, device=device or self.device,
                              requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """An uninitialised tensor of ``size``, with this tensor's dtype and device."""
        return _creation.empty(*size, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None,
                 requires_grad: bool = False):
        """A tensor of ``size`` filled with ``fill_value``, with this tensor's dtype and
        device unless given."""
        if not isinstance(size, (tuple, list)):
            raise TypeError(f"new_full(): argument 'size' (position 1) must be tuple of ints, "
                            f"not {type(size).__name__}")
        return _creation.full(size, fill_value, dtype=dtype or self.dtype,
                              device=device or self.device, requires_grad=requires_grad)

    def stride(self, dim=None):
        """How many elements to step in memory to move one position along each dimension
        (``stride(d)``: along dimension ``d``). A broadcast (expanded) dimension steps 0; a
        tensor without elements reports the strides of its layout, as PyTorch's does."""
        data = self._data
        strides = tuple(s // data.itemsize for s in data.strides)
        if not data.size and not any(strides) and data.ndim and not _numpy_laid(data):
            strides = _contiguous_strides(data.shape)  # NumPy gave it 0s (_tensor._laid_out)
        if dim is None:
            return strides
        if data.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return strides[normalize_dim(dim, data.ndim)]

    # ------------------------------------------------------------ random fills, in place
    def bernoulli_(self, p=0.5, *, generator=None):
        return _sampling.bernoulli_(self, p, generator=generator)

    def random_(self, *args, generator=None, **kwargs):
        return _sampling.random_(self, *args, generator=generator, **kwargs)

    def bernoulli(self, p=None, *, generator=None):
        return _sampling.bernoulli(self, p, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return _sampling.multinomial(self, num_samples, replacement, generator=generator)

    # ------------------------------------------------------------ conversions, predicates,
    # Python callables and the other random fills
    def byte(self):
        return self.to(_dtype.uint8)

    def char(self):
        return self.to(_dtype.int8)

    def short(self):
        return self.to(_dtype.int16)

    def is_complex(self) -> bool:
        """Always False: minitorch has no complex dtypes."""
        return False

    def is_nonzero(self) -> bool:
        return _type_queries.is_nonzero(self)

    def apply_(self, callable):  # noqa: A002  (PyTorch's argument name)
        return _tensor_apply.apply_(self, callable)

    def map_(self, other, callable):  # noqa: A002
        return _tensor_apply.map_(self, other, callable)

    def fill_diagonal_(self, fill_value, wrap=False):
        return _indexing.fill_diagonal_(self, fill_value, wrap)

    def index_put(self, indices, values, accumulate=False):
        return _indexing.index_put_checked(self, indices, values, accumulate, "index_put", 2)

    def index_put_(self, indices, values, accumulate=False):
        return self._inplace(lambda t, v: _indexing.index_put_checked(
            t, indices, v, accumulate, "index_put_", 2), values)  # (argument positions 1, 2)

    def put(self, index, source, accumulate=False):
        return _indexing.put(self, index, source, accumulate, _first=1)

    def put_(self, index, source, accumulate=False):
        return self._inplace(lambda t, s: _indexing.put(t, index, s, accumulate, _first=1,
                                                        _name="put_"), source)

    def exponential_(self, lambd=1.0, *, generator=None):
        return _sampling.exponential_(self, lambd, generator=generator)

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        return _sampling.cauchy_(self, median, sigma, generator=generator)

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        return _sampling.log_normal_(self, mean, std, generator=generator)

    def geometric_(self, *args, generator=None):
        return _sampling.geometric_(self, *args, generator=generator)

    # ------------------------------------------------------------ more in place (task: methods)
    # Each goes through ``Tensor._inplace`` (elementwise) or ``_reshape_inplace`` (shape).
    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        return _product_inplace(self, _linalg.addmm, mat1, mat2, beta, alpha,
                                _shape_of(2, (mat1, 0), (mat2, 1)))

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        shape = _shape_of(3, (batch1, 0), (batch1, 1), (batch2, 2))
        if shape is not None and self._data.shape != shape and not _resizes_into(self, shape):
            _shape.expand(self.detach(), shape)  # (misc) PyTorch's error first, if it has one
        return _product_inplace(self, _linalg.baddbmm, batch1, batch2, beta, alpha, shape)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        shape = _shape_of(3, (batch1, 1), (batch2, 2))
        if _resizes_into(self, shape):
            return _addbmm_resizing(self, batch1, batch2, beta, alpha, shape)
        return _product_inplace(self, _linalg.addbmm, batch1, batch2, beta, alpha)

    def bitwise_and_(self, other):
        return _bitwise_inplace(self, _arith.bitwise_and, other)

    def bitwise_or_(self, other):
        return _bitwise_inplace(self, _arith.bitwise_or, other)

    def bitwise_xor_(self, other):
        return _bitwise_inplace(self, _arith.bitwise_xor, other)

    def bitwise_not_(self):
        return self._inplace(_arith.bitwise_not_)

    def bitwise_left_shift(self, other):
        return _arith.bitwise_left_shift(self, other)

    def bitwise_right_shift(self, other):
        return _arith.bitwise_right_shift(self, other)

    def bitwise_left_shift_(self, other):
        return _bitwise_inplace(self, _arith.bitwise_left_shift, other)

    def bitwise_right_shift_(self, other):
        return _bitwise_inplace(self, _arith.bitwise_right_shift, other)

    __lshift__, __rshift__ = bitwise_left_shift, bitwise_right_shift
    __ilshift__, __irshift__ = bitwise_left_shift_, bitwise_right_shift_
    __iand__, __ior__, __ixor__ = bitwise_and_, bitwise_or_, bitwise_xor_  # (x &= y: in place)

    def __rlshift__(self, other):
        return _arith.bitwise_left_shift(other, self)

    def __rrshift__(self, other):
        return _arith.bitwise_right_shift(other, self)

    def cumsum_(self, dim: int, *, dtype=None):
        _check_scan_inplace(self, "cumsum", dim, dtype)
        return self._inplace(lambda t: _scan.cumsum(t, dim, dtype=self.dtype))

    def cumprod_(self, dim: int, *, dtype=None):
        _check_scan_inplace(self, "cumprod", dim, dtype)
        return self._inplace(lambda t: _scan.cumprod(t, dim, dtype=self.dtype))

    def logical_xor(self, other):
        _util.check_tensor(other, "logical_xor", "other", 1)
        return _arith.logical_xor(self, other)

    # PyTorch does not differentiate the logical ops: in place, the values change (the
    # version goes up) but the tensor keeps its node, as if nothing happened to it.
    def logical_and_(self, other):
        _util.check_tensor(other, "logical_and_", "other", 1)
        return _inplace_undifferentiated(self, _arith.logical_and, other)

    def logical_or_(self, other):
        _util.check_tensor(other, "logical_or_", "other", 1)
        return _inplace_undifferentiated(self, _arith.logical_or, other)

    def logical_xor_(self, other):
        _util.check_tensor(other, "logical_xor_", "other", 1)
        return _inplace_undifferentiated(self, _arith.logical_xor, other)

    def logical_not_(self):
        return _inplace_undifferentiated(self, _arith.logical_not)

    def swapaxes_(self, axis0: int, axis1: int):
        return _reshape_inplace(self, _shape.transpose, axis0, axis1)

    def swapdims_(self, dim0: int, dim1: int):
        return _reshape_inplace(self, _shape.transpose, dim0, dim1)

    def conj_physical_(self):
        """A real tensor's complex conjugate is itself: written back in place (its version
        goes up), recorded as ``ConjPhysicalBackward1``, as in PyTorch."""
        return self._inplace(_shape.conj_physical_value)

    # ------------------------------------------------------------ real tensors' complex API,
    # predicates, properties, splits and strided empties (task: methods)
    @property
    def H(self):  # noqa: N802
        """The conjugate transpose of a matrix: for real numbers, ``t()``."""
        if self._data.ndim == 0:
            _warn_deprecated_0d("Tensor.H", "x.conj()")
            return self
        if self._data.ndim != 2:
            raise RuntimeError(
                "tensor.H is only supported on matrices (2-D tensors). Got "
                f"{self._data.ndim}-D tensor."
                + (" For batches of matrices, consider using tensor.mH"
                   if self._data.ndim > 2 else ""))
        return _shape.transpose(self, 0, 1)

    @property
    def mH(self):  # noqa: N802
        """The conjugate transpose of each matrix in a batch (``mT`` for real numbers)."""
        return _adjoint(self, "tensor.mH is only supported")

    def adjoint(self):
        return _adjoint(self, "tensor.adjoint() is only supported")

    @property
    def real(self):
        """A real tensor's real part: the tensor itself, as in PyTorch."""
        return self

    @property
    def imag(self):
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")

    def conj(self):
        """A real tensor is its own conjugate: ``self``."""
        return self

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def conj_physical(self):
        return self

    def is_conj(self) -> bool:
        return False

    def is_neg(self) -> bool:
        return False

    def isreal(self):
        """Every element of a real tensor is real: all True."""
        return _creation.ones_like(self, dtype=_dtype.bool)  # (laid out as self: PyTorch's)

    def is_signed(self) -> bool:
        return self._data.dtype.kind in "if"

    def is_same_size(self, other) -> bool:
        _util.check_tensor(other, "is_same_size", "other", 1)
        return self._data.shape == other._data.shape

    def get_device(self) -> int:
        """The GPU's index, or -1 for the CPU."""
        index = self._device.index
        return -1 if self._device.type == "cpu" else (index or 0)

    @property
    def output_nr(self) -> int:
        """Which output of its node this tensor is (the ``i`` of ``split(...)[i]``)."""
        return self._output_nr if self._grad_fn is not None else 0

    def split_with_sizes(self, split_sizes, dim: int = 0):
        if not isinstance(split_sizes, (list, tuple)):
            raise TypeError("split_with_sizes(): argument 'split_sizes' (position 1) must be "
                            f"tuple of ints, not {type(split_sizes).__name__}")
        return _shape.split(self, list(split_sizes), dim)

    def unsafe_split(self, split_size, dim: int = 0):
        if not isinstance(split_size, (int, np.integer)) or isinstance(split_size, bool):
            raise TypeError("unsafe_split(): argument 'split_size' (position 1) must be int, "
                            f"not {type(split_size).__name__}")
        return _shape.unsafe(_shape.split(self, split_size, dim))

    def unsafe_split_with_sizes(self, split_sizes, dim: int = 0):
        if not isinstance(split_sizes, (list, tuple)):
            raise TypeError("unsafe_split_with_sizes(): argument 'split_sizes' (position 1) "
                            f"must be tuple of ints, not {type(split_sizes).__name__}")
        return _shape.unsafe(_shape.split(self, list(split_sizes), dim))

    def unsafe_chunk(self, chunks: int, dim: int = 0):
        if not isinstance(chunks, (int, np.integer)) or isinstance(chunks, bool):
            raise TypeError("unsafe_chunk(): argument 'chunks' (position 1) must be int, not "
                            f"{type(chunks).__name__}")
        return _shape.unsafe(_shape.chunk(self, chunks, dim))

    def narrow_copy(self, dim: int, start: int, length: int):
        if isinstance(dim, int) and dim >= self._data.ndim:  # (PyTorch's message, as it is)
            raise RuntimeError(
                "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got "
                "false.  (Could this error message be improved?  If so, please report an "
                "enhancement request to PyTorch.)")
        return _copy_of(_indexing.narrow, "NarrowCopyBackward0")(self, dim, start, length)

    def frexp(self):
        return _pointwise.frexp(self)

    def dim_order(self, *, ambiguity_check=False):
        """The dimensions from the outermost in memory to the innermost (PyTorch's algorithm,
        ``torch._prims_common``: ties of size-1 or equal strides keep the logical order)."""
        if not isinstance(ambiguity_check, bool) and (
                not isinstance(ambiguity_check, list) or ambiguity_check):
            raise TypeError("The ambiguity_check argument must be a bool or a list of memory "
                            "formats.")  # (minitorch has no memory formats to list)
        shape, strides = tuple(self._data.shape), self.stride()
        check = ambiguity_check if isinstance(ambiguity_check, bool) else True
        if check and (any(a == b for a, b in zip(strides, strides[1:])) or 1 in shape):
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to "
                               "exact one of the given memory formats.")
        perm, ambiguous = _dim_order(shape, strides, check)
        if ambiguous:
            raise RuntimeError("The tensor does not have unique dim order.")
        return tuple(perm)

    def new_empty_strided(self, size, stride, *, dtype=None, device=None,
                          requires_grad: bool = False):
        """An uninitialised tensor with ``size`` and ``stride``, with this tensor's dtype and
        device unless given."""
        return _creation.empty_strided(size, stride, dtype=dtype or self.dtype,
                                       device=device or self.device,
                                       requires_grad=requires_grad, _name="new_empty_strided")


# Most operations are methods as they are: ``Tensor.exp is ops.unary.exp``, so ``x.exp()`` calls
# it with ``x`` first and costs no extra Python call.
METHODS = {
    "__getitem__": _indexing.getitem, "gather": _indexing.gather,
    "__floordiv__": _arith.floor_divide, "__mod__": _arith.remainder, "__eq__": _arith.eq,
    "__ne__": _arith.ne, "__lt__": _arith.lt, "__le__": _arith.le, "__gt__": _arith.gt,
    "__ge__": _arith.ge, "__invert__": _arith.bitwise_not, "mul": _arith.mul,
    "multiply": _arith.mul, "div": _arith.div, "divide": _arith.div, "true_divide": _arith.div,
    "pow": _arith.pow, "neg": _arith.neg, "negative": _arith.neg, "reciprocal": _arith.reciprocal,
    "floor_divide": _arith.floor_divide, "remainder": _arith.remainder,
    "logical_not": _arith.logical_not,
    "clamp": _arith.clamp, "clip": _arith.clamp,
    "eq": _arith.eq, "ne": _arith.ne, "lt": _arith.lt, "le": _arith.le, "gt": _arith.gt,
    "ge": _arith.ge,
    "__abs__": _unary.abs, "sign": _unary.sign, "exp": _unary.exp, "log": _unary.log,
    "sqrt": _unary.sqrt, "abs": _unary.abs, "absolute": _unary.abs, "sin": _unary.sin,
    "cos": _unary.cos, "tanh": _unary.tanh, "sigmoid": _unary.sigmoid, "relu": _unary.relu,
    "log1p": _pointwise.log1p, "expm1": _pointwise.expm1, "rsqrt": _pointwise.rsqrt,
    "log2": _pointwise.log2, "log10": _pointwise.log10, "exp2": _pointwise.exp2,
    "erf": _pointwise.erf, "isinf": _pointwise.isinf, "isposinf": _pointwise.isposinf,
    "isneginf": _pointwise.isneginf, "nan_to_num": _pointwise.nan_to_num,
    "matmul": _linalg.matmul, "mm": _linalg.mm, "dot": _linalg.dot, "mv": _linalg.mv,
    "bmm": _linalg.bmm,
    "trace": _linalg.trace, "vdot": _linalg.vdot, "inner": _linalg.inner, "kron": _linalg.kron,
    "addmm": _linalg.addmm, "baddbmm": _linalg.baddbmm, "addbmm": _linalg.addbmm,
    "dist": _linalg.dist, "renorm": _linalg.renorm,
    "addmv": _linalg.addmv, "addr": _linalg.addr, "ger": _linalg.outer,  # (task linalg2)
    "index_reduce": _scatter.index_reduce, "nonzero_static": _scatter.nonzero_static,
    "histogram": _search.histogram,
    **{name: getattr(_linalg_torch, name) for name in (
        "matrix_exp", "cholesky_inverse", "cholesky_solve", "triangular_solve", "qr",
        "lu_solve", "orgqr")},
    "lu": _linalg_torch._lu_method,
    "det": _linalg_torch.det, "logdet": _linalg_torch.logdet, "slogdet": _linalg_torch.slogdet,
    "inverse": _linalg_torch.inverse, "matrix_power": _linalg_torch.matrix_power,
    "cholesky": _linalg_torch.cholesky, "cross": _linalg_torch.cross,
    "pinverse": _linalg_torch.pinverse, "svd": _linalg_torch.svd,
    "sum": _reduction.sum, "mean": _reduction.mean, "prod": _reduction.prod, "max": _reduction.max,
    "min": _reduction.min, "amax": _reduction.amax, "amin": _reduction.amin,
    "argmax": _reduction.argmax, "argmin": _reduction.argmin, "var": _reduction.var,
    "std": _reduction.std, "all": _reduction.all, "any": _reduction.any,
    "flatten": _shape.flatten, "transpose": _shape.transpose,
    "t": _shape.t, "squeeze": _shape.squeeze, "unsqueeze": _shape.unsqueeze, "split": _shape.split,
    "chunk": _shape.chunk, "unbind": _shape.unbind,
    # broadcast_to, ravel, unflatten, rot90, fliplr, ..., diff, msort (ops/rearrange.py)
    **{name: getattr(_rearrange, name) for name in (
        "ravel", "unflatten", "fliplr", "flipud", "hsplit", "vsplit", "dsplit", "msort")},
    "logcumsumexp": _scan.logcumsumexp,
    "diagflat": _matrices.diagflat, "cov": _matrices.cov, "corrcoef": _matrices.corrcoef,
    # select_scatter, slice_scatter, diagonal_scatter (ops/view_scatter.py)
    **{name: getattr(_view_scatter, name) for name in (
        "select_scatter", "slice_scatter", "diagonal_scatter")},
}

_CLASS_MACHINERY = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"}
for _name, _method in [*vars(TensorMethods).items(), *METHODS.items()]:
    if _name not in _CLASS_MACHINERY and _name not in vars(Tensor):
        setattr(Tensor, _name, _method)
del _name, _method

# ``tan``, ``atan2``, ``addcmul``... (ops/elementwise.py) and their in-place forms; PyTorch's
# other names of comparisons, and the in-place forms of its aliases
for _name, _method in _elementwise.tensor_methods().items():
    setattr(Tensor, _name, _method)
for _alias, _name in (("not_equal", "ne"), ("greater", "gt"), ("greater_equal", "ge"),
                      ("less", "lt"), ("less_equal", "le"), ("arcsin_", "asin_"),
                      ("arccos_", "acos_"), ("arctan_", "atan_"), ("multiply_", "mul_"),
                      ("divide_", "div_"), ("true_divide_", "div_"), ("subtract_", "sub_"),
                      ("negative_", "neg_")):
    setattr(Tensor, _alias, getattr(Tensor, _name))
del _alias, _name, _method

# lgamma, digamma, polygamma, erfinv, mvlgamma, igamma, igammac and their in-place forms (task:
# the gamma family)
for _name, _method in {**_gamma.tensor_methods(), **_incomplete_gamma.tensor_methods()}.items():
    setattr(Tensor, _name, _method)
del _name, _method

# The operators run in every step of every program, so they *are* the operations:
# ``Tensor.__mul__ is ops.arithmetic.mul``. A method that called ``mul`` would cost one more
# Python call on each ``a * b``. (The reflected forms take the tensor first too: ``2 - x`` is
# ``x.__rsub__(2)``, which is ``rsub(x, 2)``.)
OPERATORS = {
    "__add__": _arith.add, "__radd__": _arith.add, "__sub__": _arith.sub,
    "__rsub__": _arith.rsub, "__mul__": _arith.mul, "__rmul__": _arith.mul,
    "__truediv__": _arith.div, "__pow__": _arith.pow, "__neg__": _arith.neg,
    "__matmul__": _linalg.matmul,
}
for _name, _op in OPERATORS.items():
    setattr(Tensor, _name, _op)
del _name, _op


# ---------------------------------------------------------------- (task: methods)
# torch.alias_copy, expand_copy, ...: each view op's copying form (``_copy_of``)
def _slice(input, dim: int = 0, start=None, end=None, step: int = 1):  # noqa: A002
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = normalize_dim(dim, input._data.ndim)
    return _indexing.getitem(input, (slice(None),) * d + (slice(start, end, step),))


def _detach_copy(input):  # noqa: A002
    _util.check_tensor(input, "detach_copy", "input", 1)
    return _shape.DetachCopy.apply(input)


def _checked(name: str, op):
    def checked(input, *args, **kwargs):  # noqa: A002
        _util.check_tensor(input, name, "input", 1)
        return op(input, *args, **kwargs)
    checked.__name__ = checked.__qualname__ = name
    checked.__doc__ = f"``{name}``: the result of ``{name[:-5]}`` in memory of its own."
    return checked


COPY_FUNCTIONS = {name: _checked(name, _copy_of(op, node)) for name, op, node in (
    ("alias_copy", lambda t: _shape.view(t, tuple(t.shape)), "AliasBackward0_copy"),
    ("expand_copy", lambda t, size, *, implicit=False: t.expand(size), None),
    ("permute_copy", lambda t, dims: t.permute(dims), None),
    ("t_copy", _shape.t, None),
    ("transpose_copy", _shape.transpose, None),
    ("unsqueeze_copy", _shape.unsqueeze, None),
    ("squeeze_copy", _shape.squeeze, None),
    ("view_copy", lambda t, size: _shape.ViewCopy.apply(
        t, _shape._resolve_shape(tuple(size), t._data.size)), "ViewBackward0_copy"),
    ("select_copy", _indexing.select, None),
    ("slice_copy", _slice, "SliceBackward0_copy"),
    ("diagonal_copy", _shape.diagonal, None),
    ("unbind_copy", _shape.unbind, None),
    ("split_copy", _shape.split, None),
    ("split_with_sizes_copy", lambda t, split_sizes, dim=0: t.split_with_sizes(split_sizes, dim),
     None),
    ("unfold_copy", _shape.unfold, None),
    ("narrow_copy", _indexing.narrow, "NarrowCopyBackward0"),
)}
COPY_FUNCTIONS["detach_copy"] = _detach_copy

# ``x.is_cpu``, ``x.is_mps``, ...: whether the tensor lives on that kind of device; minitorch's
# tensors are dense and strided, so never sparse, quantized, nested or MKL-DNN ones.
for _name in ("cpu", "meta", "mps", "xpu", "vulkan", "ipu", "xla", "mtia", "maia"):
    setattr(Tensor, f"is_{_name}", property(
        lambda self, _type=_name: self._device.type == _type,
        doc=f"Whether this tensor is on a {_name!r} device."))
for _name in ("is_sparse", "is_sparse_csr", "is_quantized", "is_nested", "is_mkldnn"):
    setattr(Tensor, _name, property(lambda self: False, doc="Always False in minitorch."))
del _name


# Tensor.module_load, the hook nn.Module.load_state_dict's swap path calls
def _module_load(self: Tensor, other: Tensor, assign: bool = False) -> Tensor:
    """What a module's parameter ``self`` becomes when a state dict loads ``other`` into it:
    ``other`` itself with ``assign=True``, else ``other``'s values copied into ``self``
    (``copy_``'s casts and checks); detached either way, as PyTorch's."""
    if assign:
        return other.detach()
    return self.copy_(other).detach()


_module_load.__name__, _module_load.__qualname__ = "module_load", "Tensor.module_load"
Tensor.module_load = _module_load


# NumPy functions that fall back to an array (np.transpose(t, axes),
# np.clip, np.sin...) hand their result to __array_wrap__, which makes it a tensor again, as
# PyTorch's does: bool results as uint8, and the one-argument form NumPy 2 warns about.
def _array_wrap(self, array):
    if array.dtype == bool:
        array = array.astype("uint8")
    return _creation.from_numpy(array)


Tensor.__array_wrap__ = _array_wrap

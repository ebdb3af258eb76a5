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

import numpy as np

from minitorch import _creation, _dtype, _legacy, _linalg_torch, _random
from minitorch import functional as _functional
from minitorch._device import device as _device_cls
from minitorch._size import Size
from minitorch._tensor import (
    _VIEW_OF_LEAF_MESSAGE,
    NO_DIM,
    NO_KEEPDIM,
    Tensor,
    _any_requires_grad,
    _wrap,
)
from minitorch.autograd import grad_mode
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

__all__ = ["TensorMethods", "METHODS", "OPERATORS"]


# PyTorch numbers the nodes of the in-place shape ops apart from the out-of-place ones.
_INPLACE_NODE_NAMES = {
    "UnsqueezeBackward0": "UnsqueezeBackward1", "SqueezeBackward0": "SqueezeBackward3",
    "SqueezeBackward1": "SqueezeBackward4", "SqueezeBackward2": "SqueezeBackward5",
    "TransposeBackward0": "TransposeBackward1", "TBackward0": "TBackward1",
}
_inplace_node_classes: dict = {}


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
    if record:
        self._set_history(_inplace_node(result._grad_fn), result._output_nr)
    return self


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
        return out

    def type(self, dtype=None):
        if dtype is None:
            return f"torch.{self.dtype._legacy}"
        if not isinstance(dtype, _dtype.dtype):  # torch.LongTensor or "torch.LongTensor"
            dtype = _legacy.legacy_dtype(dtype)
        return self.to(dtype)

    def clone(self) -> Tensor:
        """A copy with its own memory, recorded in the graph (``CloneBackward0``)."""
        return _shape.Clone.apply(self)

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
            return _views.inplace_on_view(self, fn, args)
        result = fn(self._recorded_copy(), *args)
        self._write(result._data)
        if result._grad_fn is None and not self._requires_grad:
            return self  # an integer result (x_int.copy_(y)): no history, as in PyTorch
        self._set_history(result._grad_fn, result._output_nr)
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
    def add_(self, other, *, alpha=1) -> Tensor:
        if alpha == 1 and self._ufunc_inplace(np.add, other):
            return self
        return self._inplace(_arith.add, other, alpha)

    def sub_(self, other, *, alpha=1) -> Tensor:
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

    def clamp_(self, min=None, max=None) -> Tensor:  # noqa: A002
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
    def add(self, other, *, alpha=1):
        return _arith.add(self, other, alpha)

    def sub(self, other, *, alpha=1):
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
        return _shape.permute(self, tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):  # noqa: N802
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
        return self._inplace(_arith.clamp_min, min)

    def clamp_max_(self, max):  # noqa: A002
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
        (``stride(d)``: along dimension ``d``). A broadcast (expanded) dimension steps 0."""
        data = self._data
        strides = tuple(s // data.itemsize for s in data.strides)
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

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

from minitorch import _creation
from minitorch._tensor import Tensor
from minitorch.autograd import grad_mode
from minitorch.ops import arithmetic as _arith
from minitorch.ops import indexing as _indexing
from minitorch.ops import linalg as _linalg
from minitorch.ops import reduction as _reduction
from minitorch.ops import shape as _shape
from minitorch.ops import softmax as _softmax
from minitorch.ops import sorting as _sorting
from minitorch.ops import unary as _unary

__all__ = ["TensorMethods", "OPERATORS"]


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
    """The methods this module adds to ``Tensor`` (see the module docstring)."""

    # ------------------------------------------------------------ new tensors like this one
    def new_tensor(self, data, *, dtype=None, device=None, requires_grad: bool = False):
        """A copy of ``data`` with this tensor's dtype and device (unless given)."""
        return _creation.tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                                requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """Ones of shape ``size``, with this tensor's dtype and device (unless given)."""
        return _creation.ones(*size, dtype=dtype or self.dtype, device=device or self.device,
                              requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """Zeros of shape ``size``, with this tensor's dtype and device (unless given)."""
        return _creation.zeros(*size, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad: bool = False):
        """An uninitialised tensor of shape ``size``, with this tensor's dtype and device."""
        return _creation.empty(*size, dtype=dtype or self.dtype, device=device or self.device,
                               requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None,
                 requires_grad: bool = False):
        """``fill_value`` everywhere in shape ``size``, with this tensor's dtype and device."""
        return _creation.full(size, fill_value, dtype=dtype or self.dtype,
                              device=device or self.device, requires_grad=requires_grad)

    # ------------------------------------------------------------ softmax
    def softmax(self, dim, dtype=None):
        return _softmax.softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim, dtype=None):
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
        return _arith.clamp(self, min, None)

    def clamp_max(self, max):  # noqa: A002
        return _arith.clamp(self, None, max)

    # ------------------------------------------------------------ reductions, sets, indexing
    def prod(self, dim=None, keepdim: bool = False, *, dtype=None):
        return _reduction.prod(self, dim, keepdim, dtype=dtype)

    def unique(self, sorted: bool = True, return_inverse: bool = False,  # noqa: A002
               return_counts: bool = False, dim=None):
        return _sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def index_select(self, dim: int, index):
        return _indexing.index_select(self, dim, index)

    def index_add(self, dim: int, index, source, *, alpha=1):
        return _indexing.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim: int, index, source, *, alpha=1):
        """Add ``alpha * source[i]`` into slice ``index[i]`` along ``dim``, in place."""
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
        return self._inplace(_arith.clamp, min, None)

    def clamp_max_(self, max):  # noqa: A002
        return self._inplace(_arith.clamp, None, max)

    # ------------------------------------------------------------ shape, in place
    def unsqueeze_(self, dim: int):
        return _reshape_inplace(self, _shape.unsqueeze, dim)

    def squeeze_(self, dim=None):
        return _reshape_inplace(self, _shape.squeeze, dim)

    def t_(self):
        return _reshape_inplace(self, _shape.t)

    def transpose_(self, dim0: int, dim1: int):
        return _reshape_inplace(self, _shape.transpose, dim0, dim1)


for _name, _method in list(vars(TensorMethods).items()):
    if not _name.startswith("__") and not hasattr(Tensor, _name):
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

"""The Tensor: an n-dimensional array that can remember how it was made.

A minitorch Tensor is "a NumPy array on steroids": it holds its numbers in an array (``_data``)
and adds what autograd needs:

* ``requires_grad``: whether gradients should flow to this tensor;
* ``grad_fn``: the graph node of the operation that produced it (``None`` for leaves);
* ``grad``: where ``backward()`` accumulates the gradient of a leaf;
* a version counter that detects in-place changes to tensors saved for backward.

Every operation is a method here *and* a function in ``minitorch``, as in PyTorch. Their
forward and backward formulas live in ``minitorch/ops/``, one module per family.

Example:
    >>> import minitorch
    >>> w = minitorch.tensor([1.0, 2.0], requires_grad=True)
    >>> y = (w * w).sum()
    >>> y
    tensor(5., grad_fn=<SumBackward0>)
    >>> y.backward()
    >>> w.grad
    tensor([2., 4.])
"""

from __future__ import annotations

import numbers
import warnings
from weakref import ref as _weakref

import numpy as np

from minitorch import _backend, _dtype, _tensor_str
from minitorch._device import cpu
from minitorch._device import device as _device_cls
from minitorch._size import Size
from minitorch._warnings import warn_once
from minitorch.autograd import engine as _engine
from minitorch.autograd import function as _function
from minitorch.autograd import grad_mode
from minitorch.autograd.function import AccumulateGrad, RemovableHandle

__all__ = ["Tensor"]

_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If "
    "you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


_VIEW_OF_LEAF_MESSAGE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)

# How a view was made (``Tensor._view_kind``), which decides whether it may be changed in place
# while autograd records (as PyTorch's "creation meta" does). 0 is an ordinary view.
VIEW_NO_GRAD = 1  # made while grad mode was off (or a view of such a view)
VIEW_MULTI = 2  # one of the views one op returns together (unbind, split, chunk), or a view of one


class _VersionCounter:
    """Counts in-place changes. Views share their base's counter, and it keeps a list of them
    (weak references): when an in-place change gives the base a new history, its views are
    found here and marked, to get new histories too (``ops/views.py``)."""

    __slots__ = ("value", "views", "_prune_at")

    def __init__(self) -> None:
        self.value = 0
        self.views = None

    def add_view(self, view) -> None:
        """Remember ``view``, a tensor that shares this counter's memory."""
        views = self.views
        if views is None:
            views = self.views = []
            self._prune_at = 16
        views.append(_weakref(view))
        if len(views) >= self._prune_at:  # forget the views that are gone (amortised O(1))
            views[:] = [r for r in views if r() is not None]
            self._prune_at = max(16, 2 * len(views))

    def take_views(self) -> list:
        """The views still alive, oldest first; the list forgets them."""
        found = [] if self.views is None else [r() for r in self.views]
        self.views = None
        return [v for v in found if v is not None]


class _Default:
    """A default argument that remembers it was not given.

    PyTorch's ``sum`` has two overloads, ``sum()`` and ``sum(dim, keepdim=False)``, so
    ``x.sum(keepdim=True)`` (a ``dim`` missing) is a TypeError there while ``x.sum(None, True)``
    is not, and ``x.max(dim=None)`` is a TypeError. Python has no overloads: these defaults
    let ``sum``, ``mean``, ``max``, ``min`` and ``prod`` tell "not given" from ``None`` and
    ``False``. They print as the value they stand for, so ``help(Tensor.sum)`` shows
    PyTorch's signature, ``sum(dim=None, keepdim=False, *, dtype=None)``.
    """

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)

    def __bool__(self) -> bool:
        return bool(self.value)


NO_DIM, NO_KEEPDIM = _Default(None), _Default(False)  # dim and keepdim, not given


_INFERENCE_INPLACE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


class _InferenceCounter:
    """The stand-in counter of every *inference tensor* (one made under ``inference_mode``).

    It counts nothing, so in-place changes cost no bookkeeping, and it allows them only
    inside inference mode. ``Tensor.is_inference()`` is ``counter is _INFERENCE``.
    """

    __slots__ = ()
    views = None

    @property
    def value(self) -> int:
        return 0

    @value.setter
    def value(self, _new: int) -> None:
        if not grad_mode._state.inference:
            raise RuntimeError(_INFERENCE_INPLACE_MESSAGE)

    def add_view(self, view) -> None:  # inference tensors have no history to rewrite
        pass

    def take_views(self) -> list:
        return []


_INFERENCE = _InferenceCounter()


def _new_counter():
    """A new tensor's counter: the inference stand-in inside ``inference_mode``, else None (the
    real one is made on first use, see ``_counter``). ``_wrap`` writes this out inline."""
    if grad_mode._inference_blocks and grad_mode._state.inference:
        return _INFERENCE
    return None


def _counter(t) -> _VersionCounter:
    """``t``'s version counter, made the first time something needs it.

    Most tensors are never changed in place, viewed or saved for backward, so a new tensor
    starts without a counter (version 0) and only these few paths make one.
    """
    counter = t._version_counter
    if counter is None:
        counter = t._version_counter = _VersionCounter()
    return counter



def check_cast(dtype: np.dtype, out: Tensor) -> None:
    """PyTorch's error when a result of ``dtype`` cannot be written into ``out``: a float into
    an integer or bool tensor, or a number into a bool one (integers of another sign or size
    are cast, as ``canCast`` allows)."""
    into = out._data.dtype
    if (dtype.kind == "f" and into.kind != "f") or (dtype.kind != "b" and into.kind == "b"):
        raise RuntimeError(
            f"result type {_dtype.from_numpy_dtype(dtype)._legacy[:-6]} can't be cast to the "
            f"desired output type {out.dtype._legacy[:-6]}"
        )

def check_shape(shape: tuple, out: Tensor) -> None:
    """PyTorch's error when a result of ``shape`` cannot be written into ``out`` (an in-place
    operation cannot grow its tensor)."""
    if tuple(shape) != out._data.shape:
        raise RuntimeError(
            f"output with shape [{', '.join(map(str, out._data.shape))}] doesn't match the "
            f"broadcast shape [{', '.join(map(str, shape))}]"
        )


class Tensor:
    """A multi-dimensional array with autograd support. See the module docstring.

    Use the factories (``minitorch.tensor``, ``ones``, ``randn``, ...) to make tensors.
    ``minitorch.Tensor(data)`` also works and, as in PyTorch, always gives float32.
    """

    # Per-instance state lives in __dict__; these class attributes are the defaults, so making
    # a tensor only sets the few fields that differ (this keeps every operation cheap).
    _requires_grad = False
    _grad_fn = None
    _output_nr = 0
    _grad = None
    _base = None
    _retains_grad = False
    _hooks = None
    _post_accumulate_hooks = None
    _leaf_edge = None  # (AccumulateGrad node, 0), made when a leaf first joins a graph
    _wrapped = False  # a Python number wrapped for an operation (weakest in type promotion)
    _version_counter = None  # made on first use (see _counter): None means version 0
    __array_priority__ = 1000  # numpy_array * tensor -> Tensor.__rmul__
    _view_kind = 0  # how a view (``_base`` is not None) was made: VIEW_NO_GRAD, VIEW_MULTI, 0
    _view_stale = None  # a view whose base got a new history: its old node (or True) until used

    def __init__(self, *args) -> None:
        if len(args) == 1 and not isinstance(args[0], numbers.Number):
            data = np.array(_unwrap_nested(args[0]), dtype=np.float32)
        else:  # torch.Tensor(2, 3): an uninitialised tensor of that shape
            data = np.zeros(args, dtype=np.float32)
        self._data = data
        self._version_counter = _new_counter()

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:
        """The size of each dimension, as a ``torch.Size``."""
        return Size(self._data.shape)


    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        """The number of dimensions."""
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        """The number of elements."""
        return self._data.size

    nelement = numel

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def device(self) -> _device_cls:
        """Where the numbers live: ``device(type='cpu')`` or ``device(type='cuda', index=0)``."""
        return self._device

    @property
    def _device(self) -> _device_cls:
        # The array's type says where it lives (NumPy: the CPU, CuPy: a GPU).
        if type(self._data) is np.ndarray:
            return cpu
        return _backend.device_of_array(self._data)

    @property
    def is_cuda(self) -> bool:
        return self._device.type == "cuda"

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def is_contiguous(self, memory_format=_dtype.contiguous_format) -> bool:
        """Whether the elements lie in memory in ``memory_format``'s order, without gaps
        (row-major by default; ``channels_last``: a 4-d tensor's channels innermost)."""
        if memory_format is _dtype.contiguous_format:
            return bool(self._data.flags.c_contiguous)
        return _is_contiguous_as(self, _dtype.as_memory_format(memory_format,
                                                               "is_contiguous", None))

    @property
    def layout(self) -> _dtype.layout:  # layout2 task
        """How the elements are stored: always ``torch.strided`` (a dense array)."""
        return _dtype.strided

    @property
    def _version(self) -> int:
        """How many times this tensor (or a view of its memory) was changed in place."""
        counter = self._version_counter
        if counter is _INFERENCE:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if counter is None else counter.value

    def is_inference(self) -> bool:
        """Whether this tensor was made inside ``inference_mode`` (see ``grad_mode``)."""
        return self._version_counter is _INFERENCE

    # ------------------------------------------------------------------ autograd state
    @property
    def requires_grad(self) -> bool:
        """Whether gradients flow to this tensor. Only floating tensors can require grad."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self._grad_fn is not None:
            if value:
                raise RuntimeError("you can only change requires_grad flags of leaf variables.")
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if value and self._data.dtype.kind != "f":
            raise RuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        if value and self._version_counter is _INFERENCE and not grad_mode._state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return ``self``."""
        if requires_grad and self._data.dtype.kind != "f":  # (PyTorch words it differently)
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors made by the user rather than by a recorded operation."""
        return self.grad_fn is None

    @property
    def grad_fn(self):
        """The node that made this tensor (``<AddBackward0 object at ...>``), or None."""
        if self._view_stale is not None:  # a view whose base changed in place
            self._refresh()
        return self._grad_fn

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient of a leaf (None until a backward reaches it)."""
        if (self._grad_fn is not None or self._view_stale is not None) and \
                self.grad_fn is not None and not self._retains_grad:  # (a leaf skips grad_fn)
            warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__}"
                )
            if value._data.shape != self._data.shape:
                got = ", ".join(map(str, value.shape))
                raise RuntimeError(
                    f"attempting to assign a gradient of size '[{got}]'"
                    f" to a tensor of size '[{', '.join(map(str, self.shape))}]'. Please ensure "
                    "that the gradient and the tensor are the same size"
                )
            if value.dtype is not self.dtype:
                raise RuntimeError("assigned grad has data of a different type")
        self._grad = value

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Make a non-leaf tensor keep its ``.grad`` after backward."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True

        def store(grad):
            self._grad = grad.detach().clone() if self._grad is None else self._grad + grad

        self._grad_fn._register_tensor_hook(self._output_nr, _RetainGradHook(store))

    def register_hook(self, hook) -> RemovableHandle:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor
        replaces the gradient.

        >>> import minitorch
        >>> x = minitorch.ones(2, requires_grad=True)
        >>> h = x.register_hook(lambda g: g * 10)
        >>> x.sum().backward(); x.grad
        tensor([10., 10.])
        """
        if not self._requires_grad:
            raise RuntimeError(
                "cannot register a hook on a tensor that doesn't require gradient"
            )
        if self.grad_fn is not None:
            return self._grad_fn._register_tensor_hook(self._output_nr, hook)
        if self._hooks is None:
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = hook
        return handle

    def register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
        """Call ``hook(tensor)`` after a gradient was accumulated into this leaf's ``.grad``."""
        if self.grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = {}
        handle = RemovableHandle(self._post_accumulate_hooks)
        self._post_accumulate_hooks[handle.id] = hook
        return handle

    def _edge(self) -> tuple:
        """The graph edge a gradient for this tensor flows along: ``(node, output_nr)``."""
        if self._grad_fn is not None:
            return (self._grad_fn, self._output_nr)
        if self._view_stale is not None:  # a view whose base changed in place: its new node
            self._refresh()
            return (self._grad_fn, self._output_nr)
        if not self._requires_grad:
            return (None, 0)
        edge = self._leaf_edge  # made once, and shared by every graph the leaf joins
        if edge is None:
            base = self._base
            if base is not None and self._view_kind == VIEW_NO_GRAD and base._requires_grad:
                return (None, 0)  # it requires grad only through its base: none reaches it
            edge = self._leaf_edge = (AccumulateGrad(self), 0)
        return edge

    def _set_history(self, node, output_nr: int) -> None:
        self._grad_fn = node
        self._output_nr = output_nr
        self._requires_grad = True

    def backward(self, gradient: Tensor | None = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs=None) -> None:
        """Compute the gradient of this tensor w.r.t. the graph leaves, into their ``.grad``.

        Args:
            gradient: d(something)/d(self); may be omitted when ``self`` has one element.
            retain_graph: keep saved tensors so that backward can run through the graph again.
            create_graph: record the backward pass as well (for higher-order derivatives).
            inputs: accumulate only into these tensors.
        """
        _engine.backward(self, gradient, retain_graph, create_graph, inputs)

    def detach(self) -> Tensor:
        """A new leaf that shares this tensor's memory (and version counter) but no history.

        As in PyTorch it is not a view (``_base`` is None): changing it in place changes this
        tensor's values, and the shared version counter tells autograd."""
        out = _wrap(self._data)
        out._version_counter = _counter(self)
        return out

    def _is_view(self) -> bool:
        """Whether this tensor is a view of another one's memory (then ``_base`` is that one)."""
        return self._base is not None

    def detach_(self) -> Tensor:
        """Detach in place: drop the history and make this a leaf that needs no grad."""
        if self._base is not None:  # any view, in a graph or not, as in PyTorch
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
            )
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """The same memory without autograd: changes through it are not tracked (careful)."""
        return _wrap(self._data)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
        self._data = value._data

    # ------------------------------------------------------------------ conversion
    def item(self):
        """The single value as a Python number."""
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()

    def tolist(self):
        """The values as (nested) Python lists."""
        return self._data.tolist()

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The NumPy array behind this tensor (shared memory, not a copy)."""
        if self._device.type != "cpu" and not force:
            raise TypeError(
                f"can't convert {self._device} device type tensor to numpy. Use Tensor.cpu() to "
                "copy the tensor to host memory first."
            )
        if self._requires_grad and grad_mode._state.enabled and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return _backend.to_numpy(self._data)

    def __array__(self, dtype=None, copy=None):
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            what = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {what} is ambiguous")
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        if self.requires_grad and grad_mode.is_grad_enabled():
            # PyTorch's warning, given once a process (int() and item() stay silent)
            warn_once("float-requires-grad", "Converting a tensor with requires_grad=True to a "
                      "scalar may lead to unexpected behavior.\nConsider using tensor.detach() "
                      "first.")
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def _scalar(self):
        """``item()`` for ``float()`` and ``int()``, with their error (a ValueError, where
        ``item()`` raises a RuntimeError), as in PyTorch."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        suffixes = []
        if self._device.type != "cpu":
            suffixes.append(f"device='{self._device}'")
        grad_fn = self.grad_fn
        if grad_fn is not None:  # (without PyTorch's C++ namespace: <CopySlices>)
            suffixes.append(f"grad_fn=<{grad_fn.name().rpartition('::')[2]}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        dt = self.dtype
        default = dt is _dtype.get_default_dtype() or dt is _dtype.int64 or dt is _dtype.bool
        return _tensor_str.format_tensor(_backend.to_numpy(self._data), suffixes=suffixes,
                                         is_default_dtype=default, dtype_str=repr(dt))

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:  # as PyTorch: a 0-d tensor formats like its number
            return self.item().__format__(spec)
        if spec:  # f"{losses:.4f}" of several numbers: PyTorch refuses it, so as not to guess
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                "be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._data = self._data.copy()
        new._version_counter = _new_counter()
        new._leaf_edge = None
        new._hooks = None
        new._base = None
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    def __reduce_ex__(self, protocol):
        return (_rebuild, (type(self), _backend.to_numpy(self._data), self._requires_grad,
                           str(self._device)))

    def __getstate__(self):
        raise TypeError("use pickle's protocol through __reduce_ex__")

    # ------------------------------------------------------------------ dtype / device / copies

    def float(self) -> Tensor:
        return self.to(_dtype.float32)

    def double(self) -> Tensor:
        return self.to(_dtype.float64)

    def half(self) -> Tensor:
        return self.to(_dtype.float16)

    def long(self) -> Tensor:
        return self.to(_dtype.int64)

    def int(self) -> Tensor:
        return self.to(_dtype.int32)

    def bool(self) -> Tensor:
        return self.to(_dtype.bool)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)


    def cpu(self) -> Tensor:
        return self.to("cpu")

    def cuda(self, device=None) -> Tensor:
        return self.to("cuda" if device is None else _device_cls("cuda", device)
                       if isinstance(device, int) else device)


    def contiguous(self, memory_format=_dtype.contiguous_format) -> Tensor:
        if memory_format is _dtype.contiguous_format:
            return self if self._data.flags.c_contiguous else self._contiguous_copy()
        fmt = _dtype.as_memory_format(memory_format, "contiguous", None)  # layout2 task
        if self.is_contiguous(fmt):
            return self
        if fmt is _dtype.preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        return self.clone(memory_format=fmt)

    # ------------------------------------------------------------------ in-place helpers
    # (``_inplace``, which runs an in-place op, is attached from above with the operations:
    # a change to a view goes through ``ops/views.py``.)
    def _write(self, values) -> None:
        """Copy ``values`` into this tensor's memory and count the change."""
        if self._version_counter is _INFERENCE and not grad_mode._state.inference:
            raise RuntimeError(_INFERENCE_INPLACE_MESSAGE)
        data = self._data
        if values.dtype is not data.dtype and values.dtype != data.dtype:
            check_cast(values.dtype, self)
        if data.size and not _backend.writeable(data):
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation."
            )
        if values.shape != data.shape:  # NumPy would let [1] into [], PyTorch does not
            check_shape(values.shape, self)
        if data.size:  # an empty view may be read-only to NumPy, and there is nothing to write
            data[...] = values
        _counter(self).value += 1

    def _accumulate_(self, grad: Tensor) -> None:
        """``self += grad`` for gradient accumulation (no graph, no checks)."""
        if grad._data.shape != self._data.shape:  # (a `.grad` whose `.data` was replaced)
            self.add_(grad)  # PyTorch's in-place add: it broadcasts, or raises PyTorch's error
            return
        self._data += grad._data
        _counter(self).value += 1

    def _fill_inplace(self, value) -> bool:
        """``zero_`` and ``fill_`` of a floating-point tensor with a Python number and no graph
        to record (``p.grad.zero_()``), written straight into memory. Returns False, having
        changed nothing, whenever the general path is needed (as ``_ufunc_inplace`` does)."""
        data = self._data
        if ((grad_mode._state.enabled and self._requires_grad)
                or not (type(value) is float or type(value) is int)
                or type(data) is not np.ndarray or data.dtype.kind != "f"
                or not -65504.0 <= value <= 65504.0  # (float16's range: beyond it, and for
                or not data.flags.writeable  # inf and NaN, number_as checks that it fits)
                or self._version_counter is _INFERENCE):
            return False
        data.fill(value)
        _counter(self).value += 1
        return True

    def _ufunc_inplace(self, ufunc, other) -> bool:
        """The common case of ``p -= lr * g`` under ``no_grad``, done straight into this tensor's
        memory with ``ufunc(data, other, out=data)``. Returns False, having changed nothing,
        whenever the general path is needed: a graph to record, another dtype, another device,
        a shape that does not fit, a read-only view or an inference tensor."""
        if grad_mode._state.enabled and (self._requires_grad or (
                isinstance(other, Tensor) and other._requires_grad)):
            return False
        data = self._data
        if isinstance(other, Tensor):  # of the same dtype (bools take the general path)
            operand = other._data
            if (operand.dtype is not data.dtype or type(operand) is not np.ndarray
                    or data.dtype.kind == "b"):
                return False
        elif type(other) is float or type(other) is int and -2**53 < other < 2**53:
            operand = other  # a Python number takes the tensor's floating dtype
            if data.dtype.kind != "f" or data.dtype == np.float16:  # float16: see ops._times
                return False
        else:
            return False
        if (type(data) is not np.ndarray or not data.flags.writeable
                or self._version_counter is _INFERENCE):
            return False
        try:
            ufunc(data, operand, out=data)
        except ValueError:  # the shapes do not fit: the general path says how
            return False
        _counter(self).value += 1
        return True

    # ------------------------------------------------------------------ comparisons
    def __pos__(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def equal(self, other) -> bool:
        return self.shape == other.shape and bool((self._data == other._data).all())

    def isnan(self):
        return _wrap(np.isnan(self._data))

    def isfinite(self):
        return _wrap(np.isfinite(self._data))

    # The operations (``x.exp()``, ``x.sum(1)``, ``x + y``, ``x.add_(y)``, ...) are attached by
    # minitorch/_tensor_methods.py once ops/ has loaded: they sit above this module.


class _RetainGradHook:
    """The hook ``retain_grad`` installs: stores the gradient, leaves it unchanged."""

    retains_grad = True  # it runs after the other hooks, so ``.grad`` shows what they returned

    def __init__(self, store) -> None:
        self.store = store

    def __call__(self, grad):
        self.store(grad)
        return None


def _unwrap_nested(data):
    """Turn tensors inside (nested) lists into their values, for ``tensor([t1, t2])``."""
    if isinstance(data, Tensor):
        return _backend.to_numpy(data._data)
    if isinstance(data, (list, tuple)):
        return [_unwrap_nested(d) for d in data]
    return data


_new = object.__new__


def _any_requires_grad(args) -> bool:
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            return True
    return False


def _wrap(data, requires_grad: bool = False) -> Tensor:
    """Make a Tensor around an array without copying (internal fast path)."""
    t = _new(Tensor)
    if type(data) is not np.ndarray:
        data = _backend.asarray(data)
    if not data.size:  # (a tensor without elements: see _laid_out)
        data = _laid_out(data)
    t._data = data
    if grad_mode._inference_blocks and grad_mode._state.inference:  # _new_counter(), inline
        t._version_counter = _INFERENCE
    if requires_grad:
        t._requires_grad = True
    return t


# layout task: the strides of tensors without elements
def _laid_out(data):
    """A new array without elements gets the strides PyTorch gives a fresh contiguous tensor
    of its shape (NumPy sets them all to 0), so that ``stride()`` and the views made from it
    (``t()``, slices, ``expand``) report what PyTorch's do. An empty array given to
    ``from_numpy`` keeps NumPy's strides, 0, as PyTorch's tensor does, and so do its views."""
    if type(data) is not np.ndarray or not data.ndim or any(data.strides) or _numpy_laid(data):
        return data  # a device's array, 0-d, or strides NumPy carried over from its base
    return np.lib.stride_tricks.as_strided(data, strides=_contiguous_strides(
        data.shape, data.itemsize), subok=True)


def _contiguous_strides(shape, step: int = 1) -> tuple:
    """The strides PyTorch gives a contiguous tensor of ``shape`` (in units of ``step``):
    each dimension steps over the ones inside it, a size-0 one counted as size 1."""
    strides = []
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


# layout2 task: memory formats (``clone``, ``contiguous``, ``to`` and the ``*_like`` factories)
_FORMAT_ORDERS = {"channels_last": (4, (1, 3, 2, 0)), "channels_last_3d": (5, (1, 4, 3, 2, 0))}


def _format_order(fmt, ndim: int):
    """The order of ``fmt``'s dimensions in memory, innermost first (PyTorch's error for a
    channels-last format and a tensor of another rank)."""
    if fmt is _dtype.contiguous_format:
        return range(ndim - 1, -1, -1)
    rank, order = _FORMAT_ORDERS[fmt.name]
    if ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")
    return order


def _is_contiguous_as(t, fmt) -> bool:
    """``is_contiguous(memory_format=fmt)``: PyTorch's check, where a size-1 dimension has
    any stride (and a channels-last one is checked for a tensor without elements too)."""
    if fmt.name not in _FORMAT_ORDERS:  # contiguous_format, or preserve_format (the default)
        return bool(t._data.flags.c_contiguous)
    rank, order = _FORMAT_ORDERS[fmt.name]
    return t._data.ndim == rank and _dense_in_order(t._data.shape, t.stride(), order)


def _dense_in_order(shape, strides, order) -> bool:
    """Whether the dimensions in ``order`` (innermost first) step through memory densely
    (size-1 dimensions do not count), as PyTorch's contiguity checks say."""
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _suggest_memory_format(shape, strides):
    """PyTorch's ``suggest_memory_format``: ``channels_last`` (``_3d``) where the strides
    order a 4-d (5-d) tensor's dimensions as that format does, else ``contiguous_format``."""
    for fmt in (_dtype.channels_last, _dtype.channels_last_3d):
        rank, order = _FORMAT_ORDERS[fmt.name]
        if len(shape) == rank and strides[1]:
            low = 0
            for d in order:  # (is_channels_last_strides_2d_s4, with its tie rules)
                if not shape[d] or strides[d] < low or (d == 0 and low == strides[1]):
                    break
                low = strides[d] * max(shape[d], 1)
            else:
                return fmt
    return _dtype.contiguous_format


def _in_format(data, fmt):
    """A copy of the array ``data`` laid out in memory as ``fmt`` says (the strides PyTorch
    gives a fresh tensor of that format, a dimension of size 0 counted as it is)."""
    order, strides, step = _format_order(fmt, data.ndim), [0] * data.ndim, data.itemsize
    if fmt is _dtype.contiguous_format or type(data) is not np.ndarray:  # (a device's: C)
        data = data.copy()  # (C order)
        return data if data.size else _laid_out(data)
    for d in order:
        strides[d] = step
        step *= data.shape[d]
    out = np.lib.stride_tricks.as_strided(np.empty(data.size, data.dtype), data.shape, strides)
    out[...] = data
    return out


_NUMPY_EMPTIES: dict = {}  # id -> weak reference: the empty arrays from_numpy was given


def _numpy_laid(data) -> bool:
    """Whether ``data`` is (a view of) an empty array ``from_numpy`` was given."""
    while data is not None:
        ref = _NUMPY_EMPTIES.get(id(data))
        if ref is not None and ref() is data:
            return True
        data = getattr(data, "base", None)
    return False


def _keep_numpy_strides(data) -> None:
    """Remember ``data``, an empty array whose strides (NumPy's 0) the tensor keeps, and so
    do the views made of it."""
    key = id(data)
    _NUMPY_EMPTIES[key] = _weakref(data, lambda _, key=key: _NUMPY_EMPTIES.pop(key, None))


def _rebuild(cls, array, requires_grad, device):
    t = _wrap(array.copy())
    if cls is not Tensor:
        t.__class__ = cls
    if device != "cpu":
        t = t.to(device)
    t._requires_grad = requires_grad
    return t


# Function.apply recognises tensors, and checks their devices, without an import cycle
_function.Tensor = Tensor


def _counts_for_device(a) -> bool:
    # Python numbers and 0-d CPU tensors may join tensors on any device, as in PyTorch.
    return isinstance(a, Tensor) and not a._wrapped and not (
        a._data.ndim == 0 and type(a._data) is np.ndarray)


def _check_devices(args) -> None:
    kinds = {type(a._data) for a in args if _counts_for_device(a)}
    if len(kinds) > 1:
        devices = sorted({str(a.device) for a in args if _counts_for_device(a)},
                         key=lambda d: d != "cpu")
        raise RuntimeError(
            "Expected all tensors to be on the same device, but found at least two devices, "
            f"{devices[-1]} and {devices[0]}!"
        )


_function._check_devices = _check_devices


def _untracked(out, inputs: tuple, ctx):
    """What ``Function.apply`` hands back when it records no node (no input needs a gradient,
    or grad mode is off), as PyTorch's ``_wrap_outputs`` does: an output that ``forward`` made
    with grad mode turned back on loses its graph (detached in place, unless it is a view);
    an input returned as an output comes back as a new tensor, detached if it requires grad,
    else a view of it (itself, if ``forward`` marked it dirty)."""
    dirty = getattr(ctx, "_dirty", ())
    outs = out if isinstance(out, tuple) else (out,)
    fixed = []
    for o in outs:
        if isinstance(o, Tensor):
            is_input = any(o is a for a in inputs)
            if not o._requires_grad:
                if is_input and not any(o is d for d in dirty):
                    with grad_mode.no_grad():
                        o = o.view_as(o)
            elif is_input:
                o = o.detach()
            elif o._base is None:
                o.detach_()
        fixed.append(o)
    return tuple(fixed) if isinstance(out, tuple) else fixed[0]


_function._untracked = _untracked

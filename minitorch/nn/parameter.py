"""``nn.Parameter``: a tensor that a :class:`~minitorch.nn.Module` learns.

A Parameter is an ordinary :class:`~minitorch.Tensor` with two differences:

* it requires grad by default (it is a leaf that ``backward()`` fills with ``.grad``);
* assigning it to a module attribute (``self.weight = Parameter(...)``) *registers* it, so it
  shows up in ``module.parameters()`` and in the ``state_dict``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> w = nn.Parameter(minitorch.ones(2))
    >>> w
    Parameter containing:
    tensor([1., 1.], requires_grad=True)
    >>> (w * 3).sum().backward(); w.grad
    tensor([3., 3.])
"""

from __future__ import annotations

import numpy as np

from minitorch._tensor import Tensor, _counter, _VersionCounter

__all__ = ["Parameter", "Buffer"]


class Parameter(Tensor):
    """A Tensor that is a module parameter (``torch.nn.Parameter``).

    Args:
        data: the initial values; the Parameter shares their memory. ``None`` gives an empty
            tensor.
        requires_grad: whether the parameter gets gradients (default ``True``).
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            array, counter = np.empty(0, dtype=np.float32), _VersionCounter()
        elif isinstance(data, Tensor):
            array, counter = data._data, _counter(data)
        else:
            raise TypeError(
                f"Parameter(): argument 'data' must be a Tensor, not {type(data).__name__}"
            )
        self._data = array
        self._version_counter = counter  # shares memory with ``data``, as detach() would
        self.requires_grad = requires_grad

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


# nn misc: nn.Buffer (PyTorch 2.5+)
class _BufferMeta(type):
    """``isinstance(t, nn.Buffer)`` is true for the tensors :class:`Buffer` marked."""

    def __instancecheck__(cls, instance) -> bool:
        if cls is Buffer:
            return isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False)
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """A tensor that is module state but not a parameter (``torch.nn.Buffer``): assigned to a
    module attribute, it is registered as a buffer (saved in the ``state_dict`` unless
    ``persistent=False``), as ``register_buffer`` does.

    ``Buffer(data)`` returns ``data`` detached (keeping its ``requires_grad``), marked as a
    buffer: an ordinary Tensor, as in PyTorch.
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True):
        if data is None:
            data = Tensor(np.empty(0, dtype=np.float32))
        t = data.detach().requires_grad_(data.requires_grad)
        t.persistent = persistent
        t._is_buffer = True
        return t



# nn misc: the lazy modules' placeholders
_UNINITIALIZED_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This "
                        "error usually happens in `load_state_dict` when trying to load an "
                        "uninitialized parameter into an initialized one. Call `forward` to "
                        "initialize the parameters before accessing their attributes.")


# misc: an uninitialized tensor refuses the Tensor's operations, as PyTorch's does
_UNINITIALIZED_USE = (
    "Attempted to use an uninitialized parameter in {}. This error happens when you are using a "
    "`LazyModule` or explicitly manipulating `torch.nn.parameter.{}` objects. When using "
    "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling "
    "torch functions")
# what PyTorch's UninitializedTensorMixin lets through (and materialize, its own)
_ALLOWED_METHODS = frozenset({"size", "copy_", "is_complex", "is_floating_point", "half", "float",
                              "double", "char", "short", "int", "long", "cuda", "cpu", "to",
                              "get_device", "materialize", "share_memory_"})
# PyTorch's Tensor methods written in Python: its error names them as functions
_PYTHON_METHODS = frozenset({
    "backward", "dim_order", "is_shared", "istft", "lu", "module_load", "norm", "register_hook",
    "register_post_accumulate_grad_hook", "split", "stft", "storage", "storage_type",
    "unflatten", "unique", "unique_consecutive", "__rsub__", "__rdiv__", "__floordiv__",
    "__rfloordiv__", "__rmod__", "__rpow__", "__len__", "__contains__", "__array__",
    "__format__", "__reversed__", "__rmatmul__"})
# the operators, by the method PyTorch's error names
_OPERATORS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__isub__": "sub_",
    "__rsub__": "__rsub__", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
    "__truediv__": "div", "__rtruediv__": "__rdiv__", "__itruediv__": "div_",
    "__floordiv__": "__floordiv__", "__rfloordiv__": "__rfloordiv__", "__mod__": "remainder",
    "__rmod__": "__rmod__", "__pow__": "pow", "__rpow__": "__rpow__", "__matmul__": "matmul",
    "__rmatmul__": "__rmatmul__", "__neg__": "neg", "__pos__": "positive", "__abs__": "abs",
    "__invert__": "__invert__", "__eq__": "__eq__", "__ne__": "ne", "__lt__": "lt", "__le__": "le",
    "__gt__": "gt", "__ge__": "ge", "__and__": "__and__", "__or__": "__or__",
    "__xor__": "__xor__", "__lshift__": "__lshift__", "__rshift__": "__rshift__",
    "__bool__": "__bool__", "__float__": "__float__", "__int__": "__int__",
    "__index__": "__index__", "__iter__": "dim", "__len__": "__len__",
    "__contains__": "__contains__", "__array__": "__array__", "__format__": "__format__",
    "__reversed__": "__reversed__", "__getitem__": "__getitem__", "__setitem__": "__setitem__"}


def _refusing(name: str):
    """A method that raises PyTorch's ValueError, naming the Tensor method ``name`` as
    PyTorch's ``repr`` of it reads (``nelement`` is ``numel`` there)."""
    name = "numel" if name == "nelement" else name

    def refused(self, *args, **kwargs):
        if name in _PYTHON_METHODS:
            func = f"<function Tensor.{name} at 0x{id(refused):x}>"
        elif name == "pow":
            func = f"<function TensorBase.pow at 0x{id(refused):x}>"
        elif name in ("__getitem__", "__setitem__"):
            func = f"<slot wrapper '{name}' of 'torch._C.TensorBase' objects>"
        else:
            func = f"<method '{name}' of 'torch._C.TensorBase' objects>"
        raise ValueError(_UNINITIALIZED_USE.format(func, type(self).__name__))
    return refused


# misc2: the functions of torch.* refuse it too (PyTorch's __torch_function__), each named as
# PyTorch's repr of it reads: torch.add is "<built-in method add of type object at 0x...>", the
# Python functions "<function norm at 0x...>", the linalg/special/fft ones "<built-in function
# linalg_norm>"
_TORCH_PYTHON_FUNCTIONS = frozenset({  # torch/functional.py's
    "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
    "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu", "norm",
    "meshgrid", "pca_lowrank", "split", "stft", "svd_lowrank", "tensordot", "unique",
    "unique_consecutive", "unravel_index"})
# nn.functional's functions that are torch's own built-in methods or torch._C._nn's functions
_F_TORCH_METHODS = frozenset({
    "adaptive_avg_pool1d", "avg_pool1d", "bilinear", "celu_", "channel_shuffle", "conv1d",
    "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
    "cosine_similarity", "hardshrink", "native_channel_shuffle", "pairwise_distance", "pdist",
    "pixel_shuffle", "pixel_unshuffle", "prelu", "relu_", "rrelu_", "selu_", "threshold_"})
_F_BUILTINS = {name: name for name in (
    "avg_pool2d", "avg_pool3d", "elu_", "gelu", "hardtanh_", "leaky_relu_", "linear", "one_hot",
    "scaled_dot_product_attention", "softplus", "softshrink")} | {"logsigmoid": "log_sigmoid"}
# the functions that take it as it is (PyTorch's do not dispatch on it)
_TAKE_IT = frozenset({"tensor", "as_tensor", "asarray", "is_tensor", "save"})
_public = None  # {code object: [(function, its repr)]}, built at first use


def _describe(ns: str, name: str, fn, root) -> str | None:
    """How PyTorch's error shows the function ``name`` of namespace ``ns`` (None: it takes
    the placeholder)."""
    if ns == "torch" and name in _TAKE_IT:
        return None
    if ns == "torch" and name not in _TORCH_PYTHON_FUNCTIONS or \
            ns == "F" and name in _F_TORCH_METHODS:
        return f"<built-in method {name} of type object at 0x{id(root):x}>"
    if ns in ("linalg", "special", "fft"):
        return f"<built-in function {ns}_{name}>"
    if ns == "F" and name in _F_BUILTINS:
        return f"<built-in function {_F_BUILTINS[name]}>"
    return f"<function {name} at 0x{id(fn):x}>"


def _public_functions() -> dict:
    """The code of each public function (``minitorch.*``, ``nn.functional.*``, ``linalg.*``,
    ``special.*``, ``fft.*``), with the functions that run it and their PyTorch reprs. The
    package is looked up where it is already loaded (a refusal happens after ``import
    minitorch``), not imported here. An alias shows as its shortest name (``cat``, not
    ``concatenate``)."""
    global _public
    if _public is None:
        import inspect
        import sys

        root = sys.modules["minitorch"]
        found = {}
        spaces = [("F", root.nn.functional)] + [
            (ns, getattr(root, ns)) for ns in ("linalg", "special", "fft") if hasattr(root, ns)]
        spaces.append(("torch", root))  # last: its aliases of the others' functions win
        for ns, module in spaces:
            for name in sorted(dir(module), key=lambda n: (len(n), n), reverse=True):
                fn = getattr(module, name) if not name.startswith("_") else None
                while getattr(fn, "__code__", None) is not None:  # with its wrappers (out=)
                    found[fn] = _describe(ns, name, inspect.unwrap(fn), root)
                    fn = getattr(fn, "__wrapped__", None)
        _public = {}
        for fn, desc in found.items():
            _public.setdefault(fn.__code__, []).append((fn, desc))
    return _public


def _which(frame, candidates):
    """The candidate function that ``frame`` runs: functions made by one factory share their
    code, their closures tell them apart."""
    if len(candidates) == 1:
        return candidates[0][1]
    names, values = frame.f_code.co_freevars, frame.f_locals
    for fn, desc in candidates:
        if all(values.get(v) is c.cell_contents for v, c in zip(names, fn.__closure__ or ())):
            return desc
    return candidates[0][1]


def _called_in() -> str | None:
    """The public function the user called that touches the placeholder, as PyTorch's error
    names it; None when that belongs to a method it lets through (``to``, ``copy_``,
    ``materialize``...), a function that takes it (``tensor``, ``is_tensor``), or no public
    function (module machinery, the user's own code).

    The calls inside minitorch are read from the outermost (the user's call) in: the first
    that is a public function or an allowed method decides."""
    import sys

    frames, frame = [], sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("minitorch"):
        frames.append(frame)
        frame = frame.f_back
    public = _public_functions()
    for frame in reversed(frames):
        if frame.f_code in _ALLOWED_CODES:
            return None
        if frame.f_code in public:
            return _which(frame, public[frame.f_code])
    return None


def refuse_uninitialized(tensor, fn) -> None:
    """The ValueError of a function written in Python (``nn.init.normal_``...) that PyTorch
    lets refuse a placeholder itself, naming it."""
    if isinstance(tensor, UninitializedTensorMixin):
        raise ValueError(_UNINITIALIZED_USE.format(f"<function {fn.__name__} at 0x{id(fn):x}>",
                                                   type(tensor).__name__))


class UninitializedTensorMixin:
    """A placeholder whose shape is not known yet: ``materialize(shape)`` gives it memory and
    turns it into ``cls_to_become`` (the lazy modules do that on their first call).

    Until then, as in PyTorch, it refuses the Tensor's methods and operators (a ValueError
    that names the method) but for a few (``size``, ``to``, the dtype casts, ``copy_``...); its
    ``shape`` and ``share_memory_`` have their own RuntimeErrors; attributes (``dtype``,
    ``requires_grad``, ``grad``) read as usual."""

    cls_to_become: type = Tensor

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED_SHAPE)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call "
                           "`forward` to initialize the parameters before calling "
                           "`module.share_memory()`.")

    def __getattribute__(self, name):
        if not name.startswith("__"):  # (misc2) inside a function of torch.*: its error
            func = _called_in()
            if func is not None:
                raise ValueError(_UNINITIALIZED_USE.format(func, type(self).__name__))
        value = super().__getattribute__(name)
        if (name.startswith("_") or name in _ALLOWED_METHODS or not callable(value)
                or not hasattr(Tensor, name)):
            return value
        return _refusing(name).__get__(self)

    for _name, _method in _OPERATORS.items():
        locals()[_name] = _refusing(_method)
    del _name, _method
    __hash__ = Tensor.__hash__

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Allocate (uninitialised) memory of ``shape`` and become ``cls_to_become``."""
        from minitorch import _creation  # (the creation layer is below nn)

        device = self.device if device is None else device
        dtype = self.dtype if dtype is None else dtype
        self._data = _creation.empty(*tuple(shape), dtype=dtype, device=device)._data
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter of a lazy module before its first call (``<UninitializedParameter>``)."""

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device=None, dtype=None) -> None:
        from minitorch import _creation

        super().__init__(_creation.empty(0, dtype=dtype, device=device), requires_grad)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer of a lazy module before its first call (``<UninitializedBuffer>``)."""

    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device=None, dtype=None) -> None:
        from minitorch import _creation

        self._data = _creation.empty(0, dtype=dtype, device=device)._data
        self._version_counter = _VersionCounter()
        self.requires_grad = requires_grad

    @property
    def data(self) -> UninitializedBuffer:
        """(misc2) A placeholder too, as PyTorch's: another one, on the same memory, that does
        not require grad."""
        new = UninitializedBuffer.__new__(UninitializedBuffer)
        new._data, new._version_counter = self._data, self._version_counter
        return new

    @data.setter
    def data(self, value: Tensor) -> None:
        Tensor.data.fset(self, value)


__all__ += ["UninitializedParameter", "UninitializedBuffer"]
# (misc2) the methods let through, and the placeholders' own: what they read is not refused
_ALLOWED_CODES = frozenset(
    getattr(getattr(cls, name), "__code__", None)
    for cls in (UninitializedParameter, UninitializedBuffer)
    for name in (*_ALLOWED_METHODS, "__init__", "__repr__", "materialize")) - {None} | {
        UninitializedBuffer.data.fget.__code__}

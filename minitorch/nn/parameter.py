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

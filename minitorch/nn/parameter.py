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


class UninitializedTensorMixin:
    """A placeholder whose shape is not known yet: ``materialize(shape)`` gives it memory and
    turns it into ``cls_to_become`` (the lazy modules do that on their first call)."""

    cls_to_become: type = Tensor

    @property
    def shape(self):
        raise RuntimeError(_UNINITIALIZED_SHAPE)

    def size(self, dim=None):
        raise RuntimeError(_UNINITIALIZED_SHAPE)

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


__all__ += ["UninitializedParameter", "UninitializedBuffer"]

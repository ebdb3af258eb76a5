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


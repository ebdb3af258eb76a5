"""``Variable``: the wrapper that old PyTorch code (before 0.4) puts around every tensor.

Tensors and Variables merged long ago, so ``Variable(t, requires_grad=True)`` is just a new leaf
that shares ``t``'s data (``t.detach()``, asking for gradients or not), and every tensor counts
as a Variable for ``isinstance``. Older tutorials run unchanged:

>>> import minitorch
>>> from minitorch.autograd import Variable
>>> x = Variable(minitorch.ones(2), requires_grad=True)
>>> x, isinstance(x, Variable)
(tensor([1., 1.], requires_grad=True), True)
"""

from __future__ import annotations

import warnings

from minitorch._creation import empty
from minitorch._tensor import Tensor

__all__ = ["Variable"]


class VariableMeta(type):
    """Makes ``isinstance(t, Variable)`` true for every Tensor, as PyTorch's does."""

    def __instancecheck__(cls, other) -> bool:
        return isinstance(other, Tensor)


class Variable(metaclass=VariableMeta):
    """``Variable(data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None)``:
    ``data.detach()``, a leaf that shares ``data``'s values. ``volatile`` and ``name`` are
    accepted and have no effect (PyTorch warns about ``volatile``)."""

    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None,
                name=None):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use "
                          "`with torch.no_grad():` instead.", UserWarning, stacklevel=2)
        if data is None:
            return empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and not data.dtype.is_floating_point:
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients")
        return data.detach().requires_grad_(bool(requires_grad))

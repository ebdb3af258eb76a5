"""``minitorch.nn``: neural-network building blocks, as ``torch.nn``.

* :class:`Module` and :class:`Parameter`: how a network owns its weights;
* layers (``Linear``, ``Conv2d``, ``MaxPool2d``, ``ReLU``, ``Sequential``, ...) in ``modules/``;
* losses (``MSELoss``, ``CrossEntropyLoss``, ...);
* :mod:`~minitorch.nn.functional`: the same computations as plain functions;
* :mod:`~minitorch.nn.init`: initialisation schemes.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    >>> net(minitorch.zeros(2, 4)).shape
    torch.Size([2, 3])
"""

from minitorch.nn import functional, init, utils
from minitorch.nn.modules import *  # noqa: F403
from minitorch.nn.modules import __all__ as _modules_all
from minitorch.nn.parameter import (  # (Buffer and the Uninitialized ones: nn misc)
    Buffer,
    Parameter,
    UninitializedBuffer,
    UninitializedParameter,
)

__all__ = ["functional", "init", "utils", "Parameter", *_modules_all]
__all__ += ["Buffer", "UninitializedParameter", "UninitializedBuffer"]  # nn misc

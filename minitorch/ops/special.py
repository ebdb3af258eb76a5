"""The Functions that only ``torch.special`` has: ``entr`` and ``xlog1py``.

``entr(x)`` is ``-x log(x)``, the entropy of one probability (0 at ``x = 0``, ``-inf`` below
0). ``xlog1py(x, y)`` is ``x log(1 + y)``, 0 where ``x`` is 0 (unless ``y`` is NaN), as
``xlogy`` is ``x log(y)``. Both follow PyTorch's CPU kernels and its derivative formulas;
``minitorch.special`` gives them their public names.

Example:
    >>> import minitorch
    >>> Entr.apply(minitorch.tensor([0.0, 0.5, -1.0]))
    tensor([0.0000, 0.3466,   -inf])
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.ops._util import quietly
from minitorch.ops.elementwise import Xlogy, _float, _OfInput

__all__ = ["Entr", "Xlog1py", "Xlog1pyNumberSelf", "Xlog1pyNumberOther"]


def _entr_array(x):
    """``-x log(x)`` for ``x > 0``, 0 at 0, ``-inf`` below 0, NaN kept (PyTorch's kernel).
    As there, ``log(x)`` is rounded to ``x``'s dtype before the product (which float16 takes in
    float32, rounding once)."""
    xp = array_module(x)
    positive = x > 0
    log = xp.log(xp.where(positive, x, 1).astype(np.float64)).astype(x.dtype)
    work = np.float32 if x.dtype == np.float16 else x.dtype
    out = xp.where(positive, -x.astype(work) * log.astype(work), -np.inf)
    return xp.where(x == 0, 0, xp.where(xp.isnan(x), x, out)).astype(x.dtype)


class Entr(_OfInput):
    node_name = "SpecialEntrBackward0"
    _builtin = True
    derivative = staticmethod(lambda a: -(a.log() + 1))  # d(-a log a)/da = -(1 + log a)

    @staticmethod
    def forward(a):
        return _wrap(quietly(_entr_array, _float(a)))


def _xlog1py_array(x, y):
    """``x log1p(y)``, 0 where ``x == 0`` unless ``y`` is NaN (PyTorch's kernel)."""
    xp = array_module(x)
    out = xp.where(x == 0, x.dtype.type(0), x * np.log1p(y))
    return xp.where(xp.isnan(y), y, out)


class Xlog1py(Xlogy):
    node_name = "SpecialXlog1PyBackward0"
    _builtin = True
    _compute = staticmethod(_xlog1py_array)
    shift = 1.0  # Xlogy's gradients of x log(y + 1)


Xlog1py._base = Xlog1py


class Xlog1pyNumberSelf(Xlog1py):
    """``xlog1py(number, tensor)``: only the tensor has an edge."""

    node_name = "SpecialXlog1PyBackward1"
    _builtin = True
    _edge_args = (1,)


class Xlog1pyNumberOther(Xlog1py):
    """``xlog1py(tensor, number)``: only the tensor has an edge."""

    node_name = "SpecialXlog1PyBackward2"
    _builtin = True
    _edge_args = (0,)


"""The array seam: the one place that knows which array library holds a tensor's numbers.

Autograd and the operations only talk to arrays through the NumPy API (``xp.exp``,
``xp.matmul``, ...). On the CPU ``xp`` is NumPy; the GPU chapter plugs CuPy in here, and the
rest of minitorch does not change.
"""

from __future__ import annotations

import numpy as np

__all__ = ["asarray", "to_numpy", "array_module"]


def asarray(data, dtype=None):
    """Turn array-likes (including NumPy scalars that ops return) into an ndarray."""
    return np.asarray(data, dtype=dtype)


def to_numpy(data) -> np.ndarray:
    """A NumPy array with the same values (the array itself when it already is one)."""
    return data if isinstance(data, np.ndarray) else np.asarray(data)


def array_module(data):
    """The module (``numpy``) whose functions operate on ``data``."""
    return np

"""Short, stable text for tensors in pictures: shapes, dtypes and small values.

Everything here returns the same string for the same tensor on every run (no memory
addresses, no ``repr`` of objects), so pictures can be compared byte for byte.
"""

from __future__ import annotations

import numpy as np

__all__ = ["shape_text", "values_text", "grad_text", "dtype_text"]


def shape_text(t) -> str:
    """``(5, 3)``, ``(3,)`` or ``()``: the shape as a Python tuple, as torchviz writes it."""
    return str(tuple(int(s) for s in np.shape(_array(t))))


def dtype_text(t) -> str:
    """``float32`` (the dtype without the ``torch.`` prefix)."""
    return str(t.dtype).removeprefix("torch.")


def _array(t) -> np.ndarray:
    data = getattr(t, "_data", t)
    if hasattr(data, "get"):  # a CuPy array: bring the few values to the host
        data = data.get()
    return np.asarray(data)


def _number(v, digits: int) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if v == 0:
        return "0"  # also turns -0.0 into 0
    text = f"{v:.{digits}g}"
    return text


def values_text(t, digits: int = 4) -> str:
    """The values of a small tensor, ``[0.2761, 0.2276]`` or ``0.6931`` (nested for 2-d)."""
    a = _array(t)
    if a.ndim == 0:
        return _number(a.item(), digits)

    def fmt(x) -> str:
        if x.ndim == 0:
            return _number(x.item(), digits)
        return "[" + ", ".join(fmt(row) for row in x) + "]"

    return fmt(a)


def grad_text(t, max_values: int = 6, digits: int = 4) -> str:
    """Values when the tensor has at most ``max_values`` elements, else its shape."""
    if t is None:
        return "None"
    if _array(t).size <= max_values:
        return values_text(t, digits)
    return shape_text(t)

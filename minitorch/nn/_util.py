"""Helpers shared by ``nn.functional`` and the ``Function`` classes behind it: loss reductions,
and argument checks."""

from __future__ import annotations

import warnings

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce) -> str:
    """The ``reduction`` that the deprecated ``size_average`` and ``reduce`` stand for, with
    PyTorch's warning."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        reduction = "none"
    else:
        reduction = "mean" if size_average else "sum"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", stacklevel=2)
    return reduction


def _type_name(t: Tensor) -> str:
    """PyTorch's short C type name of a tensor's dtype (``Float``, ``Double``, ``Long``)."""
    return t.dtype._legacy[:-6]  # FloatTensor -> Float


def _fmt_shape(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _check_reduction(reduction: str) -> None:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce_array(loss: np.ndarray, reduction: str, dtype) -> np.ndarray:
    """The loss reduced; float16 losses are added up in float32, as in PyTorch."""
    xp = array_module(loss)
    acc = np.float32 if np.dtype(dtype) == np.float16 else dtype
    with np.errstate(over="ignore"):  # a float16 mean of 1e5 is inf, without a word
        if reduction == "mean":
            return xp.asarray(loss.mean(dtype=acc), dtype=dtype)
        if reduction == "sum":
            return xp.asarray(loss.sum(dtype=acc), dtype=dtype)
    return loss


def _scale_grad(grad: Tensor, reduction: str, n: int) -> Tensor:
    """The gradient of a loss *element*: ``mean`` divides the incoming gradient by ``n``."""
    if reduction == "mean":
        return grad / max(n, 1)
    return grad


def _pair(value, name: str = "kernel_size") -> tuple:
    """``3`` -> ``(3, 3)``; ``(3, 2)`` stays; what Conv2d and the pools accept."""
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            return (int(value[0]), int(value[0]))
        if len(value) != 2:
            raise ValueError(f"{name} must be an int or a pair of ints, got {value!r}")
        return (int(value[0]), int(value[1]))
    return (int(value), int(value))


def _as_strided(data, shape, strides):
    """A read-only strided *view* of ``data`` (NumPy's stride tricks; no copy)."""
    xp = array_module(data)
    if xp is np:
        return np.lib.stride_tricks.as_strided(data, shape, strides, writeable=False)
    return xp.lib.stride_tricks.as_strided(data, shape, strides)

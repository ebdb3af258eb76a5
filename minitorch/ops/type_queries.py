"""Questions about dtypes and values: ``torch.result_type``, ``promote_types``,
``is_floating_point``, ``is_complex`` and ``is_nonzero``, with PyTorch's answers and errors.

Example:
    >>> import minitorch
    >>> minitorch.result_type(minitorch.tensor([1, 2]), 1.0)
    torch.float32
"""

from __future__ import annotations

import numbers

from minitorch import _dtype
from minitorch._tensor import Tensor
from minitorch.ops._util import check_tensor

__all__ = ["result_type", "promote_types", "is_floating_point", "is_complex", "is_nonzero"]


def _operand(value, position: int) -> tuple[_dtype.dtype, int]:
    """The dtype of an operand and its rank in promotion: 2 for a tensor with dimensions, 1 for
    a 0-d tensor, 0 for a Python number."""
    if isinstance(value, Tensor):
        return value.dtype, 2 if value.dim() else 1
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return _dtype.scalar_dtype(value), 0
    raise TypeError(f"result_type(): argument '{('tensor', 'other')[position - 1]}' (position "
                    f"{position}) must be Tensor or Number, not {type(value).__name__}")


def result_type(tensor, other) -> _dtype.dtype:
    """The dtype an operation on ``tensor`` and ``other`` (tensors or Python numbers) gives:
    a tensor with dimensions outranks a 0-d tensor, which outranks a number, and a
    lower-ranked operand only counts when its kind (bool < int < float) is higher."""
    (da, ra), (db, rb) = _operand(tensor, 1), _operand(other, 2)
    if ra == rb:
        return _dtype.promote_types(da, db)
    (dhi, _), (dlo, rlo) = ((da, ra), (db, rb)) if ra > rb else ((db, rb), (da, ra))
    if dlo.category <= dhi.category:
        return dhi
    if rlo == 0:  # a number of a higher kind: the default dtype of its kind
        return _dtype.get_default_dtype() if dlo.is_floating_point else _dtype.int64
    return dlo


def promote_types(type1, type2) -> _dtype.dtype:
    """The smallest dtype both convert to (``torch.promote_types``), with PyTorch's errors
    for what is not a dtype. (The ops call ``_dtype.promote_types``, which checks nothing.)"""
    return _dtype.promote_types(_dtype.dtype_argument(type1, "promote_types", "type1", 1),
                                _dtype.dtype_argument(type2, "promote_types", "type2", 2))


def is_floating_point(input: Tensor) -> bool:  # noqa: A002
    check_tensor(input, "is_floating_point", "input", 1)
    return input.dtype.is_floating_point


def is_complex(input: Tensor) -> bool:  # noqa: A002
    """Always False for a tensor: minitorch has no complex dtypes."""
    check_tensor(input, "is_complex", "input", 1)
    return False


def is_nonzero(input: Tensor) -> bool:  # noqa: A002
    """Whether the single element of ``input`` is not zero (NaN is not zero)."""
    check_tensor(input, "is_nonzero", "input", 1)
    return bool(input)  # with its errors for no values, or more than one

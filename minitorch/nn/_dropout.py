"""PyTorch's ``_dropout_impl``: what ``nn.functional.dropout``, ``dropout1d/2d/3d``,
``alpha_dropout`` and ``feature_alpha_dropout`` all run.

A Bernoulli(1 - p) mask, drawn as PyTorch draws it (so the same seed gives the same mask, bit
for bit), scales the kept elements by ``1 / (1 - p)``; the product is a ``MulBackward0``
node, so the gradient is masked and scaled the same way.
"""

from __future__ import annotations

import numpy as np

from minitorch import _random
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.nn._util import _type_name

_SELU_ALPHA_TIMES_SCALE = 1.7580993408473766  # minus SELU's limit at -inf


def _with_number(op, arr, number):
    """``op(arr, number)`` as PyTorch computes a tensor and a Python number: in float32 for
    float16 (its opmath), rounded once to ``arr``'s dtype."""
    math_t = np.float32 if arr.dtype == np.float16 else arr.dtype.type
    return op(arr.astype(math_t, copy=False), math_t(number)).astype(arr.dtype, copy=False)


def _is_dense(data) -> bool:
    """Whether ``data`` fills its memory without gaps, in some order of its axes (a transpose
    or a permute of a contiguous array)."""
    step = data.itemsize
    for i in sorted(range(data.ndim), key=lambda i: data.strides[i]):
        if data.shape[i] != 1 and data.strides[i] != step:
            return False
        step *= data.shape[i]
    return True


def _mask_like(data, keep: float):
    """``bernoulli_mask`` drawn as PyTorch draws ``empty_like(x).bernoulli_(keep)``: its
    ``empty_like`` keeps a dense layout and the sampler walks memory in order, so the mask of
    a transposed ``x`` is drawn along ``x``'s rows in memory, not its logical ones."""
    def draw(shape):
        return _random.bernoulli_mask(shape, keep)
    return _random.in_memory_order(data, draw) if _is_dense(data) else draw(data.shape)


def dropout(input: Tensor, p: float, training: bool, inplace: bool,  # noqa: A002
            feature: bool = False, alpha: bool = False) -> Tensor:
    """PyTorch's ``_dropout_impl``: one Bernoulli(1 - p) draw per element (``feature``: per
    channel, the mask shaped ``(N, C, 1, ...)``), kept elements scaled by ``1 / (1 - p)``.
    ``alpha``: kept elements become ``a (x + alpha' p)`` and dropped ones ``a alpha' (p - 1)``
    (``alpha'`` is SELU's negative limit), which keeps SELU's mean 0 and variance 1. The mask
    is PyTorch's, bit for bit, after the same seed."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    data = input._data
    if p == 1.0:  # everything dropped: PyTorch multiplies by zero and draws nothing
        noise, shift = np.zeros((), data.dtype), None
    else:
        if feature and data.ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        if feature:
            keep = _random.bernoulli_mask(data.shape[:2] + (1,) * (data.ndim - 2), 1.0 - p)
        else:
            keep = _mask_like(data, 1.0 - p)
        if data.dtype.kind != "f":  # the mask is divided in place: a float in an int tensor
            raise RuntimeError("result type Float can't be cast to the desired output type "
                               f"{_type_name(input)}")
        keep = keep.astype(data.dtype)
        if alpha:  # PyTorch's steps, each rounded to the dtype
            a = 1.0 / float(np.sqrt((_SELU_ALPHA_TIMES_SCALE ** 2 * p + 1) * (1 - p)))
            shift = _with_number(np.add, keep, -1.0)
            shift = _with_number(np.multiply, shift, _SELU_ALPHA_TIMES_SCALE * a)
            # (PyTorch's add of a number rounds the number to float16 first; mul does not)
            shift = _with_number(np.add, shift, keep.dtype.type(_SELU_ALPHA_TIMES_SCALE * a * p))
            noise = _with_number(np.multiply, keep, a)
        else:
            noise, shift = _with_number(np.divide, keep, 1.0 - p), None
    noise = _wrap(noise)
    if array_module(data) is not np:
        noise = noise.to(input.device)
    out = input.mul_(noise) if inplace else input * noise  # MulBackward0
    if shift is not None:
        shift = _wrap(shift).to(input.device)
        out = out.add_(shift)  # AddBackward0
    return out

"""``softmax`` and ``log_softmax`` along a dimension: the ``Function`` classes behind
``nn.functional.softmax`` and ``log_softmax`` (``SoftmaxBackward0``, ``LogSoftmaxBackward0``)."""

from __future__ import annotations

import numpy as np

from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._util import (
    _plain_backward,
)


class Softmax(Function):
    """``exp(x) / sum(exp(x))`` along ``dim``, computed as ``exp(x - max)`` (no overflow)."""

    node_name = "SoftmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, dim):
        xd = _acc(x._data)
        e = np.exp(xd - xd.max(axis=dim, keepdims=True))
        out = _wrap((e / e.sum(axis=dim, keepdims=True)).astype(x._data.dtype, copy=False))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (s,) = ctx.saved_tensors
        # ds_i/dx_j = s_i (delta_ij - s_j)  =>  grad_x = s * (grad - sum(grad * s))
        if _plain_backward():
            g, sd = _acc(grad._data), _acc(s._data)
            gx = sd * (g - (g * sd).sum(axis=ctx.dim, keepdims=True))
            return _wrap(gx.astype(grad._data.dtype, copy=False))
        return s * (grad - (grad * s).sum(ctx.dim, keepdim=True))


class LogSoftmax(Function):
    """``x - log(sum(exp(x)))`` along ``dim``, with the log-sum-exp trick."""

    node_name = "LogSoftmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, dim):
        xd = _acc(x._data)
        shifted = xd - xd.max(axis=dim, keepdims=True)  # the largest entry becomes 0
        out = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        out = _wrap(out.astype(x._data.dtype, copy=False))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d log_softmax_i / dx_j = delta_ij - softmax_j
        if _plain_backward():
            g = _acc(grad._data)
            gx = g - np.exp(_acc(out._data)) * g.sum(axis=ctx.dim, keepdims=True)
            return _wrap(gx.astype(grad._data.dtype, copy=False))
        return grad - out.exp() * grad.sum(ctx.dim, keepdim=True)


def _acc(x: np.ndarray) -> np.ndarray:
    """``x`` in the precision PyTorch computes softmax in: float16 in float32, rounded once
    at the end (the sum of exponentials would lose digits in float16)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x

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
        xd = x._data
        e = np.exp(xd - xd.max(axis=dim, keepdims=True))
        out = _wrap(e / e.sum(axis=dim, keepdims=True))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (s,) = ctx.saved_tensors
        # ds_i/dx_j = s_i (delta_ij - s_j)  =>  grad_x = s * (grad - sum(grad * s))
        if _plain_backward():
            g, sd = grad._data, s._data
            return _wrap(sd * (g - (g * sd).sum(axis=ctx.dim, keepdims=True)))
        return s * (grad - (grad * s).sum(ctx.dim, keepdim=True))


class LogSoftmax(Function):
    """``x - log(sum(exp(x)))`` along ``dim``, with the log-sum-exp trick."""

    node_name = "LogSoftmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, dim):
        xd = x._data
        shifted = xd - xd.max(axis=dim, keepdims=True)  # the largest entry becomes 0
        out = _wrap(shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True)))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d log_softmax_i / dx_j = delta_ij - softmax_j
        if _plain_backward():
            g = grad._data
            return _wrap(g - np.exp(out._data) * g.sum(axis=ctx.dim, keepdims=True))
        return grad - out.exp() * grad.sum(ctx.dim, keepdim=True)

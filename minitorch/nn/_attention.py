"""Attention: the arithmetic of ``nn.functional.scaled_dot_product_attention`` and the
``Function`` of its fused path (``ScaledDotProductFlashAttentionForCpuBackward0``)::

    attention(q, k, v) = softmax(q k^T * scale + mask) v

Each query (a row of ``q``) scores every key, the scores become weights that sum to one, and
the answer is the weighted mean of the values. PyTorch computes it on the CPU in one of two
ways. The "math" path chains ordinary operations (two matrix products, a softmax, dropout), so
its graph has a node for each. The fused kernel (4-d inputs, no dropout) is one node; here its
forward runs the same arithmetic and its backward is the chain rule through it, written out::

    P = softmax(S)           dV = P^T dO         dP = dO V^T
    dS = P * (dP - sum(dP * P, -1))              dQ = dS K scale    dK = dS^T Q scale

Both give zeros, not NaN, for a query whose every key is masked out: PyTorch 2.5 and later use a
"safe" softmax there, which a plain softmax of a row of -inf is not.
"""

from __future__ import annotations

import math

from minitorch import _dtype
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops.arithmetic import MulScalar
from minitorch.ops.softmax import SafeSoftmax


def upcast(t: Tensor | None) -> Tensor | None:
    """A float16 tensor in float32 (PyTorch's CPU kernels accumulate half in float)."""
    return t.float() if t is not None and t.dtype == _dtype.float16 else t


def attention_weights(q: Tensor, k: Tensor, mask: Tensor | None, scale: float) -> Tensor:
    """``safe_softmax(q k^T * scale + mask)``, as PyTorch's math path computes it: ``q`` and
    ``k^T`` each scaled by ``sqrt(scale)`` before the product."""
    root = math.sqrt(scale)
    scores = MulScalar.apply(q, root).matmul(MulScalar.apply(k.transpose(-2, -1), root))
    if mask is not None:
        scores = scores + mask
    return SafeSoftmax.apply(scores, scores.dim() - 1)


class ScaledDotProductFlashAttentionForCpu(Function):
    """The fused attention of 4-d ``q``, ``k``, ``v`` (with an additive float ``mask`` or
    None); float16 is computed in float32."""

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # the mask gets no gradient

    @staticmethod
    def forward(q, k, v, mask, scale):
        with grad_mode.no_grad():
            out = attention_weights(upcast(q), upcast(k), upcast(mask), scale) @ upcast(v)
        return _wrap(out._data.astype(q._data.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        q, k, v, mask, scale = inputs
        ctx.save_for_backward(q, k, v, mask)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        q, k, v, mask = ctx.saved_tensors
        dtype, scale = q.dtype, ctx.scale
        q, k, v, grad = upcast(q), upcast(k), upcast(v), upcast(grad)
        p = attention_weights(q, k, upcast(mask), scale)
        gp = grad.matmul(v.transpose(-2, -1))
        gs = p * (gp - (gp * p).sum(-1, keepdim=True))
        gq = gs.matmul(k) * scale
        gk = gs.transpose(-2, -1).matmul(q) * scale
        gv = p.transpose(-2, -1).matmul(grad)
        return tuple(g.to(dtype) if g.dtype != dtype else g for g in (gq, gk, gv))

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

The fused kernel also serves grouped-query attention (``enable_gqa``) as PyTorch's does: ``k``
and ``v`` with fewer heads are taken as they are (their edges go straight to them), each head
serving a group of query heads, so their gradients are summed over each group. Its result is
written into memory laid out as the query's (PyTorch's ``empty_like(query)``).
"""

from __future__ import annotations

import math

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.nn._dropout import _is_dense
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


def _laid_out_like(x, like):
    """The array ``x`` (of ``like``'s shape) in ``like``'s memory layout, where ``like`` fills
    its memory densely (a transposed or permuted view): what PyTorch's ``empty_like`` gives."""
    if x.flags.c_contiguous and like.flags.c_contiguous or not _is_dense(like):
        return x
    out = array_module(x).empty_like(like, dtype=x.dtype)  # order "K": like's strides
    out[...] = x
    return out


def _repeat_heads(t: Tensor, groups: int) -> Tensor:
    """Keys or values with each head repeated for the ``groups`` query heads it serves."""
    return t if groups == 1 else t.repeat_interleave(groups, -3)


def _sum_heads(grad: Tensor, groups: int) -> Tensor:
    """The gradient of ``_repeat_heads``: the gradients of each group of heads, summed."""
    if groups == 1:
        return grad
    shape = tuple(grad.shape)
    return grad.reshape(shape[:-3] + (shape[-3] // groups, groups) + shape[-2:]).sum(-3)


class ScaledDotProductFlashAttentionForCpu(Function):
    """The fused attention of 4-d ``q``, ``k``, ``v`` (with an additive float ``mask`` or
    None); float16 is computed in float32. ``k`` and ``v`` may have fewer heads than ``q``
    (grouped-query attention), a divisor of its number."""

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # the mask gets no gradient

    @staticmethod
    def forward(q, k, v, mask, scale):
        groups = q.shape[-3] // k.shape[-3]
        with grad_mode.no_grad():
            k, v = _repeat_heads(k, groups), _repeat_heads(v, groups)
            out = attention_weights(upcast(q), upcast(k), upcast(mask), scale) @ upcast(v)
        return _wrap(_laid_out_like(out._data.astype(q._data.dtype, copy=False), q._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        q, k, v, mask, scale = inputs
        ctx.save_for_backward(q, k, v, mask)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        q, k, v, mask = ctx.saved_tensors
        dtype, scale, groups = q.dtype, ctx.scale, q.shape[-3] // k.shape[-3]
        k, v = _repeat_heads(k, groups), _repeat_heads(v, groups)
        q, k, v, grad = upcast(q), upcast(k), upcast(v), upcast(grad)
        p = attention_weights(q, k, upcast(mask), scale)
        gp = grad.matmul(v.transpose(-2, -1))
        gs = p * (gp - (gp * p).sum(-1, keepdim=True))
        gq = gs.matmul(k) * scale
        gk = _sum_heads(gs.transpose(-2, -1).matmul(q) * scale, groups)
        gv = _sum_heads(p.transpose(-2, -1).matmul(grad), groups)
        return tuple(g.to(dtype) if g.dtype != dtype else g for g in (gq, gk, gv))

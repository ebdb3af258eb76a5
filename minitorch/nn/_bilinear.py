"""The Function behind ``nn.functional.bilinear``: PyTorch's ``_trilinear``.

``bilinear(x1, x2, A)[b, o] = sum_ij x1[b, i] A[o, i, j] x2[b, j]`` is a sum of products of
three tensors. Its gradient for each of them is again such a sum, with the output's gradient
in that tensor's place (``d x1[b, i] = sum_oj g[b, o] A[o, i, j] x2[b, j]``), so one Function,
with the subscripts of ``einsum``, is the forward, every gradient, and every gradient of
those (PyTorch's nodes are all ``TrilinearBackward0``).
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function


class Trilinear(Function):
    """``einsum(spec, a, b, c)`` for three tensors whose every index appears in at least two
    of the four subscripts (the three inputs' and the output's)."""

    node_name = "TrilinearBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(a, b, c, spec):
        arrays = [t._data for t in (a, b, c)]
        dtype = arrays[0].dtype
        if dtype == np.float16:  # summed in float32, rounded once
            arrays = [x.astype(np.float32) for x in arrays]
        with np.errstate(invalid="ignore", over="ignore"):  # inf * 0, as PyTorch: NaN
            out = array_module(arrays[0]).einsum(spec, *arrays, optimize=True)
        return _wrap(out.astype(dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs[:3])
        ctx.spec = inputs[3]

    @staticmethod
    def backward(ctx, grad):
        tensors = ctx.saved_tensors
        ins, out = ctx.spec.split("->")
        subs = ins.split(",")
        grads = []
        for k in range(3):  # input k's place taken by the gradient, contracted to its indices
            if not ctx.needs_input_grad[k]:
                grads.append(None)
                continue
            operands, operand_subs = list(tensors), list(subs)
            operands[k], operand_subs[k] = grad, out
            spec = ",".join(operand_subs) + "->" + subs[k]
            grads.append(Trilinear.apply(*operands, spec))
        return (*grads, None)

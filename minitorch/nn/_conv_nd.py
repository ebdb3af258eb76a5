"""Transposed convolutions: the ``Function`` behind ``nn.functional.conv_transpose2d`` (1d,
3d). It is a ``ConvolutionBackward0`` node, as in PyTorch, and reuses the convolution of
``_conv.py`` (which ``conv1d`` runs directly, over one spatial dimension):

* a transposed convolution ("deconvolution") is the *gradient* of a convolution with respect
  to its input: each input pixel spreads ``weight`` over a patch of the (larger) output.
  So its forward is ``_conv2d_input_grad_array``, and its input gradient is an ordinary
  convolution.
"""

from __future__ import annotations

from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import no_grad
from minitorch.nn._conv import (
    Convolution,
    ConvolutionWeightGrad,
    _conv2d_input_grad_array,
    conv_saved_values,
)
from minitorch.ops.scatter import _PadTo


class ConvolutionTranspose(Function):
    """Transposed convolution of (N, C_in, *spatial) by a weight (C_in, C_out, *kernel), for
    any number of spatial dimensions (conv_transpose1d, 2d and 3d): the input gradient of the
    convolution that maps (N, C_out, *out_spatial) to the input's shape, plus a bias per
    output channel."""

    node_name = "ConvolutionBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)
    saved_names = ("input", "weight")  # as PyTorch's, and (read when asked):
    saved_values = conv_saved_values(transposed=True)

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation, out_shape, groups=1):
        out = _conv2d_input_grad_array(x._data, weight._data, out_shape, stride, padding,
                                       dilation, groups)
        if bias is not None:
            out = out + bias._data.reshape((1, -1) + (1,) * (out.ndim - 2))
        ctx.save_for_backward(x, weight)
        ctx.params, ctx.groups = (stride, padding, dilation), groups
        ctx.out_shape = out_shape  # (for _saved_output_padding)
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return ConvolutionTransposeBackward.apply(grad, x, weight, ctx.needs_input_grad,
                                                  *ctx.params, ctx.groups)


def _transpose_grads(grad, x, weight, mask, stride, padding, dilation, groups) -> tuple:
    """The gradients of ``conv_transpose(x, weight) + bias`` for (x, weight, bias) where
    ``mask`` asks for them, in tensor operations."""
    gx = gw = gb = None
    sizes = tuple(x.shape[2:])
    params = (stride, padding, dilation)
    # With an output_padding of at least the stride (allowed with dilation), the
    # convolution below has more output positions than x has pixels: those extra ones
    # belong to no input pixel, so gx drops them and x gets zeros there for gw.
    if mask[0]:  # the forward convolution that this one transposes
        gx = Convolution.apply(grad, weight, None, *params, groups)
        if tuple(gx.shape[2:]) != sizes:
            gx = gx[(slice(None), slice(None), *(slice(0, s) for s in sizes))]
    if mask[1]:
        outs = tuple((g + 2 * p - d * (k - 1) - 1) // s + 1 for g, p, d, k, s in zip(
            grad.shape[2:], padding, dilation, weight.shape[2:], stride))
        xs = x if outs == sizes else _PadTo.apply(x, tuple(x.shape[:2]) + outs)
        gw = ConvolutionWeightGrad.apply(grad, xs, tuple(weight.shape), *params, None, groups)
    if mask[2]:
        gb = grad.sum((0, *range(2, grad.dim())))
    return gx, gw, gb


class ConvolutionTransposeBackward(Function):
    """The three gradients of a transposed convolution (input, weight, bias): one node,
    ``ConvolutionBackwardBackward0`` with edges (output gradient, input, weight), as PyTorch
    records ``convolution_backward``. Each gradient is linear in the output gradient, the
    input's in the weight and the weight's in the input, so the derivatives for the input and
    the weight are these gradients again, with the other argument replaced."""

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(ctx, grad, x, weight, mask, stride, padding, dilation, groups):
        ctx.save_for_backward(grad, x, weight)
        ctx.params, ctx.groups = (stride, padding, dilation), groups
        ctx.set_materialize_grads(False)  # a gradient that is not used stays None
        with no_grad():
            return _transpose_grads(grad.detach(), x.detach(), weight.detach(), mask,
                                    stride, padding, dilation, groups)

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, weight = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad[:3]
        params, groups = ctx.params, ctx.groups
        d_grad = d_x = d_w = None
        if need_g:  # the output gradient's share of each of the three
            out_shape = tuple(grad.shape)
            parts = [ConvolutionTranspose.apply(a, b, None, *params, out_shape, groups)
                     for a, b in ((ggx, weight), (x, ggw)) if a is not None and b is not None]
            if ggb is not None:
                parts.append(ggb.reshape((1, -1) + (1,) * (grad.dim() - 2)).expand(out_shape))
            d_grad = sum(parts[1:], parts[0]) if parts else None
        if need_x and ggw is not None:
            d_x = _transpose_grads(grad, x, ggw, (True, False, False), *params, groups)[0]
        if need_w and ggx is not None:
            d_w = _transpose_grads(grad, ggx, weight, (False, True, False), *params, groups)[1]
        return d_grad, d_x, d_w

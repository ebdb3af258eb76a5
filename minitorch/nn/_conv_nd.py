"""1-d and transposed convolutions: the ``Function`` classes behind ``nn.functional.conv1d``
and ``nn.functional.conv_transpose2d``. Both are ``ConvolutionBackward0`` nodes, as in
PyTorch, and both reuse the 2-d convolution of ``_conv.py``:

* a 1-d convolution is a 2-d one over images of height 1;
* a transposed convolution ("deconvolution") is the *gradient* of a convolution with respect
  to its input: each input pixel spreads ``weight`` over a patch of the (larger) output.
  So its forward is ``_conv2d_input_grad_array``, and its input gradient is an ordinary
  convolution.
"""

from __future__ import annotations

from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._conv import (
    Convolution,
    ConvolutionInputGrad,
    ConvolutionWeightGrad,
    _conv2d_array,
    _conv2d_input_grad_array,
    conv_saved_values,
)
from minitorch.ops.scatter import _PadTo


class Convolution1d(Function):
    """1-d convolution of (N, C, L) by (O, C, k): a 2-d one with height 1."""

    node_name = "ConvolutionBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)
    saved_names = ("input", "weight")  # as PyTorch's, with (the width's of the 2-d params):
    saved_values = conv_saved_values(spatial=lambda pair: pair[1:])

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation):
        params = ((1, stride), (0, padding), (1, dilation))
        out, _ = _conv2d_array(x._data[:, :, None, :], weight._data[:, :, None, :],
                               None if bias is None else bias._data, *params)
        ctx.save_for_backward(x, weight)
        ctx.params = params
        return _wrap(out[:, :, 0, :])

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        g4 = grad.unsqueeze(2)
        gx = gw = gb = None
        if ctx.needs_input_grad[0]:
            gx = ConvolutionInputGrad.apply(g4, weight.unsqueeze(2),
                                            tuple(x.shape[:2]) + (1, x.shape[2]),
                                            *ctx.params).squeeze(2)
        if ctx.needs_input_grad[1]:
            w_shape = tuple(weight.shape[:2]) + (1, weight.shape[2])
            gw = ConvolutionWeightGrad.apply(x.unsqueeze(2), g4, w_shape, *ctx.params,
                                             None).squeeze(2)
        if ctx.needs_input_grad[2]:
            gb = grad.sum((0, 2))
        return gx, gw, gb


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
        gx = gw = gb = None
        sizes = tuple(x.shape[2:])
        # With an output_padding of at least the stride (allowed with dilation), the
        # convolution below has more output positions than x has pixels: those extra ones
        # belong to no input pixel, so gx drops them and x gets zeros there for gw.
        if ctx.needs_input_grad[0]:  # the forward convolution that this one transposes
            gx = Convolution.apply(grad, weight, None, *ctx.params, ctx.groups)
            if tuple(gx.shape[2:]) != sizes:
                gx = gx[(slice(None), slice(None), *(slice(0, s) for s in sizes))]
        if ctx.needs_input_grad[1]:
            stride, padding, dilation = ctx.params
            outs = tuple((g + 2 * p - d * (k - 1) - 1) // s + 1 for g, p, d, k, s in zip(
                grad.shape[2:], padding, dilation, weight.shape[2:], stride))
            xs = x if outs == sizes else _PadTo.apply(x, tuple(x.shape[:2]) + outs)
            gw = ConvolutionWeightGrad.apply(grad, xs, tuple(weight.shape), *ctx.params, None,
                                             ctx.groups)
        if ctx.needs_input_grad[2]:
            gb = grad.sum((0, *range(2, grad.dim())))
        return gx, gw, gb

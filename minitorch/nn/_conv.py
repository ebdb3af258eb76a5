"""2-d convolution: the ``Function`` classes behind ``nn.functional.conv2d``
(``ConvolutionBackward0``), computed as one matrix product over image patches (im2col)."""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._util import (
    _as_strided,
)


# The convolution is a matrix product in disguise ("im2col"). Put the input channels last
# (N, H, W, C) and pad it; a strided *view* then shows every kh x kw receptive field as a
# (kh, kw, C) block without copying. Reshaping that view to one row per output pixel,
# (N * Ho * Wo, kh * kw * C), makes the one copy; multiplying by the weight matrix
# (kh * kw * C, O) gives every output pixel of every image in a single matmul.
def _conv_out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _pad_nhwc(x: np.ndarray, ph: int, pw: int) -> np.ndarray:
    """``x`` (N, C, H, W) as channels-last (N, H + 2 ph, W + 2 pw, C), zero padded."""
    n, c, h, w = x.shape
    out = array_module(x).zeros((n, h + 2 * ph, w + 2 * pw, c), dtype=x.dtype)
    out[:, ph:ph + h, pw:pw + w, :] = x.transpose(0, 2, 3, 1)
    return out


def _im2col(x: np.ndarray, kernel, stride, padding, dilation) -> tuple:
    """Every receptive field of ``x`` (N, C, H, W) as one row of a matrix.

    Returns ``(cols, (Ho, Wo))`` with ``cols`` of shape (N * Ho * Wo, kh * kw * C).
    """
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    n, c, h, w = x.shape
    ho, wo = _conv_out_size(h, kh, sh, ph, dh), _conv_out_size(w, kw, sw, pw, dw)
    xp = _pad_nhwc(x, ph, pw)
    s_n, s_h, s_w, s_c = xp.strides
    fields = _as_strided(xp, (n, ho, wo, kh, kw, c),
                         (s_n, s_h * sh, s_w * sw, s_h * dh, s_w * dw, s_c))
    return fields.reshape(n * ho * wo, kh * kw * c), (ho, wo)


def _weight_matrix(w: np.ndarray) -> np.ndarray:
    """The weight (O, C, kh, kw) as (O, kh * kw * C), in the order of the im2col columns."""
    return w.transpose(0, 2, 3, 1).reshape(w.shape[0], -1)


def _to_nchw(rows: np.ndarray, n: int, ho: int, wo: int) -> np.ndarray:
    """One row per output pixel (N * Ho * Wo, O) -> a contiguous (N, O, Ho, Wo) array."""
    out = rows.reshape(n, ho, wo, rows.shape[1]).transpose(0, 3, 1, 2)
    return array_module(rows).ascontiguousarray(out)


def _conv2d_array(x, w, b, stride, padding, dilation) -> tuple:
    """The convolution of arrays; also returns the im2col matrix (for the weight gradient)."""
    cols, (ho, wo) = _im2col(x, w.shape[2:], stride, padding, dilation)
    out = cols @ _weight_matrix(w).T
    if b is not None:
        out += b
    return _to_nchw(out, x.shape[0], ho, wo), cols


def _conv2d_weight_grad_array(g, w_shape, cols) -> np.ndarray:
    """dL/dW = sum over output pixels of (output gradient) x (receptive field)."""
    o, c, kh, kw = w_shape
    g_rows = g.transpose(0, 2, 3, 1).reshape(-1, o)  # (N * Ho * Wo, O)
    gw = (g_rows.T @ cols).reshape(o, kh, kw, c).transpose(0, 3, 1, 2)
    return array_module(gw).ascontiguousarray(gw)


def _conv2d_input_grad_array(g, w, x_shape, stride, padding, dilation) -> np.ndarray:
    """dL/dx: every output gradient flows back to the pixels of its receptive field."""
    n, c, h, wd = x_shape
    o, _, kh, kw = w.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    xp = array_module(g)
    qh, qw = dh * (kh - 1) - ph, dw * (kw - 1) - pw
    fits = (g.shape[2] + qh - ph, g.shape[3] + qw - pw) == (h, wd)  # no output_padding
    if (sh, sw) == (1, 1) and qh >= 0 and qw >= 0 and fits:
        # With stride 1 this is itself a convolution: of the output gradient, padded by
        # d (k - 1) - p, with the kernel flipped and its in/out channels swapped.
        flipped = xp.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        return _conv2d_array(g, flipped, None, (1, 1), (qh, qw), dilation)[0]
    # General strides: scatter each kernel tap's share back ("col2im"), one tap at a time.
    ho, wo = g.shape[2:]
    g_rows = g.transpose(0, 2, 3, 1).reshape(-1, o)
    g_cols = (g_rows @ _weight_matrix(w)).reshape(n, ho, wo, kh, kw, c)
    gx = xp.zeros((n, h + 2 * ph, wd + 2 * pw, c), dtype=g.dtype)
    for i in range(kh):
        for j in range(kw):
            gx[:, i * dh:i * dh + sh * (ho - 1) + 1:sh,
               j * dw:j * dw + sw * (wo - 1) + 1:sw, :] += g_cols[:, :, :, i, j, :]
    gx = gx[:, ph:ph + h, pw:pw + wd, :].transpose(0, 3, 1, 2)
    return xp.ascontiguousarray(gx)


class Convolution(Function):
    """2-D convolution (cross-correlation, as in every deep-learning library).

    ``out[n, o] = bias[o] + sum_c sum_ij weight[o, c, i, j] * x[n, c, s*h + d*i, s*w + d*j]``.
    Its backward is two more convolutions: one gives dL/dx, one gives dL/dweight.
    """

    node_name = "ConvolutionBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # input, weight, bias (an edge even when there is no bias)

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation):
        need_x, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        out, cols = _conv2d_array(x._data, weight._data, None if bias is None else bias._data,
                                  stride, padding, dilation)
        ctx.save_for_backward(x if need_w else None, weight if need_x else None)
        ctx.params = (stride, padding, dilation)
        ctx.x_shape, ctx.w_shape = x._data.shape, weight._data.shape
        ctx.cols = cols if need_w else None  # reused by the weight gradient
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        gx = gw = gb = None
        if weight is not None:
            gx = ConvolutionInputGrad.apply(grad, weight, ctx.x_shape, *ctx.params)
        if x is not None:
            gw = ConvolutionWeightGrad.apply(x, grad, ctx.w_shape, *ctx.params, ctx.cols)
        if ctx.needs_input_grad[2]:
            gb = grad.sum((0, 2, 3))  # the bias is added at every output pixel
        return gx, gw, gb


class ConvolutionInputGrad(Function):
    """dL/dx of a convolution, as a function of (output gradient, weight).

    It is linear in both, so its own backward is a convolution and a weight gradient.
    """

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, grad, weight, x_shape, stride, padding, dilation):
        need_g, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(grad if need_w else None, weight if need_g else None)
        ctx.params, ctx.w_shape = (stride, padding, dilation), weight._data.shape
        return _wrap(_conv2d_input_grad_array(grad._data, weight._data, x_shape, stride,
                                              padding, dilation))

    @staticmethod
    def backward(ctx, gg):
        grad, weight = ctx.saved_tensors
        d_grad = d_weight = None
        if weight is not None:
            d_grad = Convolution.apply(gg, weight, None, *ctx.params)
        if grad is not None:
            d_weight = ConvolutionWeightGrad.apply(gg, grad, ctx.w_shape, *ctx.params, None)
        return d_grad, d_weight


class ConvolutionWeightGrad(Function):
    """dL/dweight of a convolution, as a function of (input, output gradient)."""

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, x, grad, w_shape, stride, padding, dilation, cols):
        need_x, need_g = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(x if need_g else None, grad if need_x else None)
        ctx.params, ctx.x_shape = (stride, padding, dilation), x._data.shape
        if cols is None:
            cols = _im2col(x._data, w_shape[2:], stride, padding, dilation)[0]
        return _wrap(_conv2d_weight_grad_array(grad._data, w_shape, cols))

    @staticmethod
    def backward(ctx, ggw):
        x, grad = ctx.saved_tensors
        d_x = d_grad = None
        if grad is not None:
            d_x = ConvolutionInputGrad.apply(grad, ggw, ctx.x_shape, *ctx.params)
        if x is not None:
            d_grad = Convolution.apply(x, ggw, None, *ctx.params)
        return d_x, d_grad

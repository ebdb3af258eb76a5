"""Convolution: the ``Function`` classes behind ``nn.functional.conv2d`` and ``conv3d``
(``ConvolutionBackward0``), computed as one matrix product over image patches (im2col). They
take any number of spatial dimensions, and ``groups``."""

from __future__ import annotations

import itertools
import math

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
# The helpers below take any number of spatial dimensions (conv3d's (D, H, W) as well).
def _conv_out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _pad_nhwc(x: np.ndarray, padding) -> np.ndarray:
    """``x`` (N, C, *spatial) as channels-last (N, *(spatial + 2 padding), C), zero padded."""
    n, c, *sizes = x.shape
    out = array_module(x).zeros((n, *(s + 2 * p for s, p in zip(sizes, padding)), c),
                                dtype=x.dtype)
    inside = tuple(slice(p, p + s) for s, p in zip(sizes, padding))
    out[(slice(None), *inside, slice(None))] = array_module(x).moveaxis(x, 1, -1)
    return out


def _im2col(x: np.ndarray, kernel, stride, padding, dilation) -> tuple:
    """Every receptive field of ``x`` (N, C, H, W) as one row of a matrix.

    Returns ``(cols, (Ho, Wo))`` with ``cols`` of shape (N * Ho * Wo, kh * kw * C).
    """
    n, c, *sizes = x.shape
    out = tuple(_conv_out_size(*a) for a in zip(sizes, kernel, stride, padding, dilation))
    xp = _pad_nhwc(x, padding)
    s_n, *s_sp, s_c = xp.strides
    fields = _as_strided(xp, (n, *out, *kernel, c),
                         (s_n, *(a * b for a, b in zip(s_sp, stride)),
                          *(a * b for a, b in zip(s_sp, dilation)), s_c))
    return fields.reshape(n * math.prod(out), math.prod(kernel) * c), out


def _weight_matrix(w: np.ndarray) -> np.ndarray:
    """The weight (O, C, kh, kw) as (O, kh * kw * C), in the order of the im2col columns."""
    return array_module(w).moveaxis(w, 1, -1).reshape(w.shape[0], -1)


def _to_nchw(rows: np.ndarray, n: int, out_size) -> np.ndarray:
    """One row per output pixel (N * Ho * Wo, O) -> a contiguous (N, O, Ho, Wo) array."""
    out = array_module(rows).moveaxis(rows.reshape(n, *out_size, rows.shape[1]), -1, 1)
    return array_module(rows).ascontiguousarray(out)


# With ``groups`` g, the channels split into g groups, each convolved with its own Og = O / g
# filters: the one matmul becomes a batch of g matmuls over the columns of each group.
def _grouped(cols: np.ndarray, k: int, groups: int) -> np.ndarray:
    """The im2col matrix (M, K * C), columns ordered (tap, channel), as (g, M, K * C / g):
    the columns of each group's channels."""
    m = cols.shape[0]
    split = cols.reshape(m, k, groups, -1).transpose(2, 0, 1, 3)
    return array_module(cols).ascontiguousarray(split).reshape(groups, m, -1)


def _conv2d_array(x, w, b, stride, padding, dilation, groups=1) -> tuple:
    """The convolution of arrays; also returns the im2col matrix (for the weight gradient)."""
    cols, out_size = _im2col(x, w.shape[2:], stride, padding, dilation)
    if groups == 1:
        out = cols @ _weight_matrix(w).T
    else:  # (g, M, K * Cg) @ (g, K * Cg, Og) -> (M, g * Og)
        wg = _weight_matrix(w).reshape(groups, w.shape[0] // groups, -1)
        out = _grouped(cols, math.prod(w.shape[2:]), groups) @ wg.transpose(0, 2, 1)
        out = out.transpose(1, 0, 2).reshape(cols.shape[0], w.shape[0])
    if b is not None:
        out += b
    return _to_nchw(out, x.shape[0], out_size), cols


def _conv2d_weight_grad_array(g, w_shape, cols, groups=1) -> np.ndarray:
    """dL/dW = sum over output pixels of (output gradient) x (receptive field)."""
    o, c, *kernel = w_shape
    xp = array_module(g)
    g_rows = xp.moveaxis(g, 1, -1).reshape(-1, o)  # (N * Ho * Wo, O)
    if groups == 1:
        gw = g_rows.T @ cols
    else:  # each group's filters see only its channels
        g_groups = g_rows.reshape(-1, groups, o // groups).transpose(1, 2, 0)
        gw = g_groups @ _grouped(cols, math.prod(kernel), groups)
    gw = xp.moveaxis(gw.reshape(o, *kernel, c), -1, 1)
    return xp.ascontiguousarray(gw)


def _conv2d_input_grad_array(g, w, x_shape, stride, padding, dilation, groups=1) -> np.ndarray:
    """dL/dx: every output gradient flows back to the pixels of its receptive field."""
    n, c, *sizes = x_shape
    o, cg, *kernel = w.shape
    xp = array_module(g)
    q = [d * (k - 1) - p for k, p, d in zip(kernel, padding, dilation)]
    fits = all(go + qi - p == s for go, qi, p, s in zip(g.shape[2:], q, padding, sizes))
    if all(s == 1 for s in stride) and min(q) >= 0 and fits:  # (no output_padding)
        # With stride 1 this is itself a convolution: of the output gradient, padded by
        # d (k - 1) - p, with the kernel flipped and its in/out channels swapped.
        # (With groups, the swap is within each group: (g, Og, Cg) -> (g, Cg, Og).)
        flip = (slice(None), slice(None)) + (slice(None, None, -1),) * len(kernel)
        flipped = xp.swapaxes(w[flip].reshape(groups, o // groups, cg, *kernel), 1, 2)
        flipped = xp.ascontiguousarray(flipped).reshape(c, o // groups, *kernel)
        return _conv2d_array(g, flipped, None, stride, q, dilation, groups)[0]
    # General strides: scatter each kernel tap's share back ("col2im"), one tap at a time.
    out_size = g.shape[2:]
    g_rows = xp.moveaxis(g, 1, -1).reshape(-1, o)
    if groups == 1:
        g_cols = g_rows @ _weight_matrix(w)
    else:  # (g, M, Og) @ (g, Og, K * Cg), back to columns ordered (tap, channel)
        wg = _weight_matrix(w).reshape(groups, o // groups, -1)
        g_cols = g_rows.reshape(-1, groups, o // groups).transpose(1, 0, 2) @ wg
        g_cols = g_cols.reshape(groups, -1, math.prod(kernel), cg).transpose(1, 2, 0, 3)
    g_cols = g_cols.reshape(n, *out_size, *kernel, c)
    gx = xp.zeros((n, *(s + 2 * p for s, p in zip(sizes, padding)), c), dtype=g.dtype)
    lead = (slice(None),) * (1 + len(kernel))
    for tap in itertools.product(*(range(k) for k in kernel)):
        window = tuple(slice(i * d, i * d + s * (m - 1) + 1, s)
                       for i, d, s, m in zip(tap, dilation, stride, out_size))
        gx[(slice(None), *window, slice(None))] += g_cols[(*lead, *tap, slice(None))]
    inside = tuple(slice(p, p + s) for s, p in zip(sizes, padding))
    return xp.ascontiguousarray(xp.moveaxis(gx[(slice(None), *inside, slice(None))], -1, 1))


# -- task saved2: a ConvolutionBackward0's _saved_ attributes, as PyTorch shows them
def conv_saved_values(spatial=tuple, transposed: bool = False) -> dict:
    """The ``saved_values`` of a convolution's node, from its ``params`` (stride, padding,
    dilation; ``spatial`` picks the dims PyTorch sees from them), its ``groups`` and, for a
    transposed one, the ``out_shape`` it was asked for (which gives the output padding)."""
    def output_padding(node):
        if not transposed:
            return (0,) * len(spatial(node.params[0]))
        stride, padding, dilation = node.params
        x_shape, w_shape = node._input_meta[0][0], node._input_meta[1][0]
        return tuple(int(o - ((i - 1) * s - 2 * p + d * (k - 1) + 1)) for o, i, s, p, d, k in zip(
            node.out_shape[2:], x_shape[2:], stride, padding, dilation, w_shape[2:]))
    def bias_sizes(node):
        shape = node._input_meta[2][0]
        return (0,) if shape is None else tuple(shape)
    return {"stride": lambda node: tuple(map(int, spatial(node.params[0]))),
            "padding": lambda node: tuple(map(int, spatial(node.params[1]))),
            "dilation": lambda node: tuple(map(int, spatial(node.params[2]))),
            "groups": lambda node: int(getattr(node, "groups", 1)),
            "transposed": lambda node: transposed,
            "output_padding": output_padding,
            "bias_sym_sizes_opt": bias_sizes}


class Convolution(Function):
    """2-D convolution (cross-correlation, as in every deep-learning library).

    ``out[n, o] = bias[o] + sum_c sum_ij weight[o, c, i, j] * x[n, c, s*h + d*i, s*w + d*j]``.
    Its backward is two more convolutions: one gives dL/dx, one gives dL/dweight.
    """

    node_name = "ConvolutionBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # input, weight, bias (an edge even when there is no bias)
    saved_names = ("input", "weight")  # both, as PyTorch saves them; and (read when asked):
    saved_values = conv_saved_values()

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation, groups=1):
        need_w = ctx.needs_input_grad[1]
        out, cols = _conv2d_array(x._data, weight._data, None if bias is None else bias._data,
                                  stride, padding, dilation, groups)
        ctx.save_for_backward(x, weight)  # both, as PyTorch: the edges of its backward's node
        ctx.params, ctx.groups = (stride, padding, dilation), groups
        ctx.cols = cols if need_w else None  # reused by the weight gradient
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        return ConvolutionBackward.apply(grad, x, weight, ctx.needs_input_grad, *ctx.params,
                                         ctx.groups, ctx.cols)


class ConvolutionBackward(Function):
    """The three gradients of a convolution (input, weight, bias) from the output gradient:
    one node, ``ConvolutionBackwardBackward0`` with edges (output gradient, input, weight), as
    PyTorch's ``convolution_backward`` records them. All three are linear in the output
    gradient and the input gradient in the weight, the weight gradient in the input, so its
    own backward is convolutions again (PyTorch's ``_convolution_double_backward``)."""

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(ctx, grad, x, weight, mask, stride, padding, dilation, groups, cols):
        ctx.save_for_backward(grad, x, weight)
        ctx.params, ctx.groups = (stride, padding, dilation), groups
        g = grad._data
        gx = gw = gb = None
        if mask[0]:
            gx = _wrap(_conv2d_input_grad_array(g, weight._data, x._data.shape, stride, padding,
                                                dilation, groups))
        if mask[1]:
            if cols is None:
                cols = _im2col(x._data, weight._data.shape[2:], stride, padding, dilation)[0]
            gw = _wrap(_conv2d_weight_grad_array(g, weight._data.shape, cols, groups))
        if mask[2]:  # added at every output pixel (summed as minitorch's sum does)
            gb = grad.detach().sum((0, *range(2, g.ndim)))
        ctx.set_materialize_grads(False)  # a gradient that is not used stays None
        return gx, gw, gb

    @staticmethod
    def backward(ctx, ggx, ggw, ggb):
        grad, x, weight = ctx.saved_tensors
        need_g, need_x, need_w = ctx.needs_input_grad[:3]
        d_grad = d_x = d_w = None
        if need_g:  # the output gradient's share of each of the three
            parts = []
            if ggx is not None:
                parts.append(Convolution.apply(ggx, weight, None, *ctx.params, ctx.groups))
            if ggw is not None:
                parts.append(Convolution.apply(x, ggw, None, *ctx.params, ctx.groups))
            if ggb is not None:
                parts.append(ggb.reshape((1, -1) + (1,) * (grad.dim() - 2)).expand(grad.shape))
            d_grad = sum(parts[1:], parts[0]) if parts else None
        if need_x and ggw is not None:  # the weight gradient is linear in the input
            d_x = ConvolutionInputGrad.apply(grad, ggw, tuple(x.shape), *ctx.params,
                                             ctx.groups)
        if need_w and ggx is not None:  # the input gradient is linear in the weight
            d_w = ConvolutionWeightGrad.apply(ggx, grad, tuple(weight.shape), *ctx.params,
                                              None, ctx.groups)
        return d_grad, d_x, d_w


class ConvolutionInputGrad(Function):
    """dL/dx of a convolution, as a function of (output gradient, weight).

    It is linear in both, so its own backward is a convolution and a weight gradient.
    """

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, grad, weight, x_shape, stride, padding, dilation, groups=1):
        need_g, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(grad if need_w else None, weight if need_g else None)
        ctx.params, ctx.w_shape = (stride, padding, dilation), weight._data.shape
        ctx.groups = groups
        return _wrap(_conv2d_input_grad_array(grad._data, weight._data, x_shape, stride,
                                              padding, dilation, groups))

    @staticmethod
    def backward(ctx, gg):
        grad, weight = ctx.saved_tensors
        d_grad = d_weight = None
        if weight is not None:
            d_grad = Convolution.apply(gg, weight, None, *ctx.params, ctx.groups)
        if grad is not None:
            d_weight = ConvolutionWeightGrad.apply(gg, grad, ctx.w_shape, *ctx.params, None,
                                                   ctx.groups)
        return d_grad, d_weight


class ConvolutionWeightGrad(Function):
    """dL/dweight of a convolution, as a function of (input, output gradient)."""

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, x, grad, w_shape, stride, padding, dilation, cols, groups=1):
        need_x, need_g = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(x if need_g else None, grad if need_x else None)
        ctx.params, ctx.x_shape = (stride, padding, dilation), x._data.shape
        ctx.groups = groups
        if cols is None:
            cols = _im2col(x._data, w_shape[2:], stride, padding, dilation)[0]
        return _wrap(_conv2d_weight_grad_array(grad._data, w_shape, cols, groups))

    @staticmethod
    def backward(ctx, ggw):
        x, grad = ctx.saved_tensors
        d_x = d_grad = None
        if grad is not None:
            d_x = ConvolutionInputGrad.apply(grad, ggw, ctx.x_shape, *ctx.params, ctx.groups)
        if x is not None:
            d_grad = Convolution.apply(x, ggw, None, *ctx.params, ctx.groups)
        return d_x, d_grad

"""Layer and group normalisation: the ``Function`` classes behind ``nn.functional.layer_norm``
(``NativeLayerNormBackward0``) and ``nn.functional.group_norm``
(``NativeGroupNormBackward0``).

Both normalise each sample on its own (unlike batch norm, which normalises each channel over
the batch): ``layer_norm`` over its last dimensions (all the features of one token),
``group_norm`` over each group of channels of one sample. Then an optional per-feature
(per-channel) ``weight`` and ``bias``::

    y = (x - mean) / sqrt(var + eps) * weight + bias      (var: the biased variance)

The backward is batch norm's, per group: ``gx = rstd (g - mean(g) - xhat mean(g xhat))`` with
``g`` the gradient of ``xhat``. It recomputes the statistics with tensor operations of ``x``,
so it can be differentiated again. Recorded (``create_graph=True``), the three gradients of
layer norm and of batch norm are one node each, as PyTorch's backward kernels
(``NativeLayerNormGrad``, ``NativeBatchNormGrad``); unrecorded, the same formula runs without it.
Group norm's backward is PyTorch's differentiable formula instead (``_group_norm_grads``): it
reads the mean and ``1 / std`` that the forward saved (its second and third outputs), so a
recorded gradient reaches ``x`` through them too, as PyTorch's does.
"""

from __future__ import annotations

import math

import numpy as np

from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import is_grad_enabled, no_grad
from minitorch.ops._util import differentiate_kernel as _differentiate
from minitorch.ops.arithmetic import DivScalar, MulScalar


def _moments(x: np.ndarray, axes: tuple):
    """Mean and biased variance over ``axes`` (kept), in float32 for float16 input."""
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    v = x.astype(acc, copy=False)
    mean = v.mean(axis=axes, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=axes, keepdims=True)
    return v, mean, var


def _normalize_backward(x, g_xhat, axes: tuple, eps: float):
    """The gradient of ``x`` from that of ``xhat = (x - mean) rstd``, statistics over
    ``axes``, as tensor operations."""
    mean = x.mean(axes, keepdim=True)
    xc = x - mean
    rstd = ((xc * xc).mean(axes, keepdim=True) + eps) ** -0.5
    xhat = xc * rstd
    return rstd * (g_xhat - g_xhat.mean(axes, keepdim=True)
                   - xhat * (g_xhat * xhat).mean(axes, keepdim=True)), xhat


class NativeLayerNorm(Function):
    """``layer_norm`` over the last ``n`` dimensions, with optional ``weight``/``bias`` of
    their shape."""

    node_name = "NativeLayerNormBackward0"
    _builtin = True
    # saved_tensors_hooks: what PyTorch packs, in its order (bias, input, weight, mean, rstd)
    pack_order = (2, 0, 1, "_saved_result1", "_saved_result2")
    _edge_args = (0, 1, 2)
    saved_names = ("input", "weight", "bias")  # as PyTorch's, and (read when asked):
    saved_values = {"normalized_shape": lambda node: tuple(
                        int(node._input_meta[0][0][a]) for a in node.axes),
                    "result1": lambda node: _layer_norm_stats(node)[0],  # the mean
                    "result2": lambda node: _layer_norm_stats(node)[1]}  # and 1 / std

    @staticmethod
    def forward(ctx, x, weight, bias, n, eps):
        xd = x._data
        axes = tuple(range(xd.ndim - n, xd.ndim))
        v, mean, var = _moments(xd, axes)
        out = (v - mean) / np.sqrt(var + v.dtype.type(eps))
        if weight is not None:
            out = out * weight._data
        if bias is not None:
            out = out + bias._data
        ctx.save_for_backward(x, weight, bias)
        ctx.axes, ctx.eps = axes, eps
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, weight, bias = ctx.saved_tensors
        if not is_grad_enabled():  # not recorded: the kernel's formula, without its node
            return _layer_norm_grads(grad, x, weight, ctx.axes, ctx.eps, ctx.needs_input_grad[:3])
        return NativeLayerNormGrad.apply(grad, x, None, None, weight, bias, ctx.axes,
                                         ctx.eps, ctx.needs_input_grad[:3])


def _layer_norm_grads(grad, x, weight, axes: tuple, eps: float, mask) -> tuple:
    """The gradients of ``layer_norm`` for (x, weight, bias) where ``mask`` asks, in tensor
    operations."""
    batch = tuple(range(x.dim() - len(axes)))  # the weight is shared over these
    g_xhat = grad if weight is None else grad * weight
    gx, xhat = _normalize_backward(x, g_xhat, axes, eps)
    gw = gb = None
    if mask[1]:
        gw = (grad * xhat).sum(batch) if batch else grad * xhat
    if mask[2]:
        gb = grad.sum(batch) if batch else grad
    return (gx if mask[0] else None), gw, gb


class NativeLayerNormGrad(Function):
    """The three gradients of ``layer_norm`` as one node, as PyTorch's
    ``native_layer_norm_backward`` (``NativeLayerNormBackwardBackward0``, edges: the output
    gradient, the input, the saved mean and rstd (no gradient: empty here), the weight, the
    bias (which its gradients do not read)). Forward: :func:`_layer_norm_grads`, not recorded; its
    backward differentiates that same formula (recorded on the saved tensors)."""

    node_name = "NativeLayerNormBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2, 3, 4, 5)

    @staticmethod
    def forward(ctx, grad, x, mean, rstd, weight, bias, axes, eps, mask):
        ctx.save_for_backward(grad, x, weight)
        ctx.axes, ctx.eps, ctx.mask = axes, eps, mask
        ctx.set_materialize_grads(False)  # a gradient that is not used stays None
        with no_grad():
            return _layer_norm_grads(grad.detach(), x.detach(),
                                     None if weight is None else weight.detach(), axes, eps,
                                     mask)

    @staticmethod
    def backward(ctx, *ggs):
        d_grad, d_x, d_w = _differentiate(_layer_norm_grads, ctx.saved_tensors,
                                          (ctx.axes, ctx.eps, ctx.mask), ggs)
        return d_grad, d_x, None, None, d_w, None


def _layer_norm_stats(node):
    """The statistics a ``NativeLayerNormBackward0`` saves, worked out again from its saved
    input: the mean and ``1 / sqrt(var + eps)`` over the normalized dims, kept as size 1, in
    the input's dtype."""
    x = node.saved_tensors[0]  # (raises the freed-graph error after backward)
    v, mean, var = _moments(x._data, node.axes)
    dtype = x._data.dtype
    return (_wrap(mean.astype(dtype, copy=False)),
            _wrap((1 / np.sqrt(var + v.dtype.type(node.eps))).astype(dtype, copy=False)))


class NativeGroupNorm(Function):
    """``group_norm``: the channels of each sample split into ``groups``, each normalised;
    then a per-channel ``weight`` and ``bias``. As PyTorch's ``native_group_norm``, three
    outputs: the result, and the mean and ``1 / std`` of each group, shape (N, groups), which
    ``F.group_norm`` drops; the backward reads the last two saved, so a recorded gradient
    (``create_graph=True``) reaches the input through them too (:func:`_group_norm_grads`)."""

    node_name = "NativeGroupNormBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(ctx, x, weight, bias, groups, eps):
        xd = x._data
        n, c = xd.shape[:2]
        grouped = xd.reshape(n, groups, -1)
        v, mean, var = _moments(grouped, (2,))
        out = ((v - mean) / np.sqrt(var + v.dtype.type(eps))).reshape(xd.shape)
        shape = (1, c) + (1,) * (xd.ndim - 2)
        if weight is not None:
            out = out * weight._data.reshape(shape)
        if bias is not None:
            out = out + bias._data.reshape(shape)
        dtype = xd.dtype
        mean = _wrap(mean.reshape(n, groups).astype(dtype, copy=False))
        rstd = _wrap((1 / np.sqrt(var + v.dtype.type(eps))).reshape(n, groups).astype(
            dtype, copy=False))
        ctx.save_for_backward(x, weight, mean, rstd)
        ctx.groups, ctx.bias_shape = groups, None if bias is None else tuple(bias.shape)
        ctx.set_materialize_grads(False)  # the gradients of mean and rstd are mostly None
        return _wrap(out.astype(dtype, copy=False)), mean, rstd

    @staticmethod
    def backward(ctx, grad, grad_mean, grad_rstd):
        x, weight, mean, rstd = ctx.saved_tensors
        return _group_norm_grads(grad, grad_mean, grad_rstd, x, mean, rstd, weight,
                                 ctx.groups, ctx.bias_shape, ctx.needs_input_grad[:3])


def _group_norm_grads(d_y, d_mean, d_rstd, x, mean, rstd, weight, groups: int, bias_shape,
                      mask) -> tuple:
    """The gradients of ``native_group_norm`` for (x, weight, bias), from those of its three
    outputs, in the tensor operations of PyTorch's
    ``infinitely_differentiable_native_group_norm_backward`` and in its order (the gradient
    graph that ``create_graph=True`` records is PyTorch's): with ``X`` the input as
    (N, groups, D, HxW) and ``ds``, ``db`` the sums over HxW of ``dY X`` and ``dY``,
    ``dX = rstd gamma dY + b X + c``, ``b`` and ``c`` per group."""
    n, c = x.shape[:2]
    d = c // groups
    hxw = math.prod(x.shape[2:])
    s = 1.0 / (d * hxw)
    x4 = x.reshape(n, groups, d, hxw)
    mean4 = mean.reshape(n, groups, 1, 1)
    rstd4 = rstd.reshape(n, groups, 1, 1)
    d_x = d_w = d_b = None
    if d_y is not None:
        d_y4 = d_y.reshape(n, groups, d, hxw)
        ds = (d_y4 * x4).sum(3).unsqueeze_(-1)
        db = d_y4.sum(3).unsqueeze_(-1)
    if mask[0]:
        gamma = None if weight is None else weight.reshape(1, groups, d, 1)
        rstd_cube = rstd4 * rstd4 * rstd4
        d_var = None
        if d_rstd is not None:
            d_var = MulScalar.apply(rstd_cube, -0.5) * d_rstd.view(n, groups, 1, 1)
        both = d_mean is not None and d_rstd is not None
        if d_y is not None:
            a = rstd4 if gamma is None else rstd4 * gamma
            b = (ds.sum(2) if gamma is None else (ds * gamma).sum(2)).unsqueeze_(-2)
            cc = (db.sum(2) if gamma is None else (db * gamma).sum(2)).unsqueeze_(-2)
            b = MulScalar.apply((cc * mean4 - b) * rstd_cube, s)
            cc = -b * mean4 - MulScalar.apply(cc * rstd4, s)
            d_x = a * d_y4 + b * x4 + cc
            if both:
                d_x = d_x + _var_mean_backward(d_var, d_mean.view(n, groups, 1, 1), x4)
            d_x = d_x.reshape_as(x)
        elif both:
            d_x = _var_mean_backward(d_var, d_mean.view(n, groups, 1, 1), x4).reshape_as(x)
    if mask[1] and d_y is not None:
        d_w = ((ds - db * mean4) * rstd4).sum(0).reshape_as(weight)
    if mask[2] and d_y is not None:  # (PyTorch reshapes it as the weight: without one, it
        d_b = db.sum(0).reshape(bias_shape)  # fails; here the bias's own shape)
    return d_x, d_w, d_b


def _var_mean_backward(d_var, d_mean, x4):
    """PyTorch's ``var_mean_backward`` over dimensions (2, 3), kept, without correction: the
    gradient of ``x4`` from those of its groups' biased variance and mean."""
    size = x4.shape[2] * x4.shape[3]
    d_x = None
    if d_var is not None:
        d_x = MulScalar.apply(d_var, 2.0 / size) * (x4 - x4.mean((2, 3), keepdim=True))
    if d_mean is not None:
        part = DivScalar.apply(d_mean.expand(x4.shape), size)
        d_x = part if d_x is None else d_x + part
    return d_x


# ggnorm2 task: batch norm's gradients as one node, as PyTorch's native_batch_norm_backward
def _batch_norm_grads(grad, x, weight, stats, training: bool, eps: float, dims: tuple,
                      mask) -> tuple:
    """The gradients of ``batch_norm`` for (x, weight, bias) where ``mask`` asks, in tensor
    operations: with the batch's statistics (training; written with tensor operations of
    ``x``, they depend on it) or the running ones (``stats``: the mean and ``1 / std``,
    shaped to broadcast). float16 is computed in float32 and rounded once, as the forward."""
    half = x._data.dtype == np.float16
    if half:
        param_dtype = grad.dtype if weight is None else weight.dtype
        x, grad = x.float(), grad.float()
    shape = (1, -1) + (1,) * (x.dim() - 2)
    if training:
        mean = x.mean(dims, keepdim=True)
        xc = x - mean
        invstd = ((xc * xc).mean(dims, keepdim=True) + eps) ** -0.5
    else:
        mean, invstd = stats
        xc = x - mean
    xhat = xc * invstd
    gxhat = grad if weight is None else grad * weight.reshape(shape)
    gx = gw = gb = None
    if mask[0]:
        if training:
            gx = invstd * (gxhat - gxhat.mean(dims, keepdim=True)
                           - xhat * (gxhat * xhat).mean(dims, keepdim=True))
        else:
            gx = gxhat * invstd
    if mask[1]:
        gw = (grad * xhat).sum(dims)
    if mask[2]:
        gb = grad.sum(dims)
    if half:
        gx = None if gx is None else gx.half()
        gw = None if gw is None else gw.to(param_dtype)
        gb = None if gb is None else gb.to(param_dtype)
    return gx, gw, gb


class NativeBatchNormGrad(Function):
    """The three gradients of ``batch_norm`` as one node, as PyTorch's
    ``native_batch_norm_backward`` (``NativeBatchNormBackwardBackward0``, edges: the output
    gradient, the input, the weight, the saved mean and ``1 / std`` (no gradient: empty
    here)). Forward: :func:`_batch_norm_grads`, not recorded; its backward differentiates that
    same formula (recorded on the saved tensors)."""

    node_name = "NativeBatchNormBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2, 3, 4)
    saved_names = ("grad_out", "input", "weight")  # as PyTorch's

    @staticmethod
    def forward(ctx, grad, x, weight, save_mean, save_invstd, stats, training, eps, dims, mask):
        ctx.save_for_backward(grad, x, weight)
        ctx.args = (stats, training, eps, dims, mask)
        ctx.set_materialize_grads(False)  # a gradient that is not used stays None
        with no_grad():
            return _batch_norm_grads(grad.detach(), x.detach(),
                                     None if weight is None else weight.detach(), *ctx.args)

    @staticmethod
    def backward(ctx, *ggs):
        d_grad, d_x, d_w = _differentiate(_batch_norm_grads, ctx.saved_tensors, ctx.args, ggs)
        return d_grad, d_x, d_w, None, None

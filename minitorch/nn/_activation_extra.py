"""The Functions behind ``nn.functional.threshold``, ``hardshrink``, ``softshrink``, ``glu``
and ``prelu``.

* ``threshold(x, t, v)``: ``x`` where ``x > t``, else ``v`` (``ThresholdBackward0``);
* ``hardshrink(x, l)``: 0 where ``-l <= x <= l``, else ``x`` (``HardshrinkBackward0``);
* ``softshrink(x, l)``: ``x`` moved ``l`` towards 0, and 0 inside ``[-l, l]``;
* ``glu(x, dim)``: ``a * sigmoid(b)``, ``a`` and ``b`` the two halves of ``x`` along ``dim``;
* ``prelu(x, w)``: ``x`` where ``x > 0``, else ``w * x``, with ``w`` learned per channel.

The backward of each is an operation of its own, as in PyTorch (``threshold_backward``,
``glu_backward``, ...), so that a second derivative records PyTorch's nodes
(``ThresholdBackwardBackward0``, ``GluBackwardBackward0``, ...); those are written in tensor
operations, so they can be differentiated again.
"""

from __future__ import annotations

import numpy as np

from minitorch import _random
from minitorch._backend import array_module, to_numpy
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._activation import HardtanhGrad, _original
from minitorch.ops.arithmetic import where
from minitorch.ops.shape import cat
from minitorch.ops.unary import sigmoid


# ---------------------------------------------------------------- threshold and the shrinks
# Each forward keeps or replaces an element by a comparison; each backward passes ``grad``
# where the element was kept (``keep``) and 0 elsewhere: HardtanhGrad's select, under the
# node name PyTorch gives each.
class ThresholdGrad(HardtanhGrad):
    """``threshold_backward``: ``grad`` where the input was above the threshold, else 0."""

    node_name = "ThresholdBackwardBackward0"
    _builtin = True


class HardshrinkGrad(HardtanhGrad):
    """``hardshrink_backward``: 0 where ``-lambd <= x <= lambd``, else ``grad``."""

    node_name = "HardshrinkBackwardBackward0"
    _builtin = True


class SoftshrinkGrad(HardtanhGrad):
    """``softshrink_backward``: the same select as hardshrink's."""

    node_name = "SoftshrinkBackwardBackward0"
    _builtin = True


class _Select(Function):
    """Threshold and the shrinks: ``forward(x, number)``; the backward passes ``grad`` where
    the subclass' ``_keep(x, number)`` says, through its ``_grad`` Function."""

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, number = inputs[0], inputs[1]
        ctx.x, ctx.keep = x, ctx._forward_cls._keep(x._data, number)

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls._grad.apply(grad, ctx.x, ctx.keep)


class Threshold(_Select):
    """``x`` where ``x > threshold``, else ``value`` (both numbers already in ``x``'s dtype).
    NaN is not ``<= threshold``: it stays."""

    node_name = "ThresholdBackward0"
    _builtin = True
    _grad = ThresholdGrad

    @staticmethod
    def forward(x, threshold, value):
        xd = x._data
        return _wrap(array_module(xd).where(xd <= threshold, value, xd))

    @staticmethod
    def _keep(xd, threshold):
        return ~(xd <= threshold)


class ThresholdInplace(Threshold):
    """``threshold_``: the node PyTorch names for the in-place version (``ThresholdBackward1``);
    its gradient is taken from the input as it was before (PyTorch saves a copy)."""

    node_name = "ThresholdBackward1"
    _builtin = True

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, number = inputs[0], inputs[1]
        ctx.x, ctx.keep = _original(x, True), ctx._forward_cls._keep(x._data, number)


class Hardshrink(_Select):
    """0 where ``-lambd <= x <= lambd``, else ``x``."""

    node_name = "HardshrinkBackward0"
    _builtin = True
    _grad = HardshrinkGrad

    @staticmethod
    def forward(x, lambd):
        xd = x._data
        return _wrap(array_module(xd).where(_inside(xd, lambd), xd.dtype.type(0), xd))

    @staticmethod
    def _keep(xd, lambd):
        return ~_inside(xd, lambd)


def _inside(xd, lambd):
    """Where ``-lambd <= x <= lambd`` (never at a NaN)."""
    return (xd >= -lambd) & (xd <= lambd)


class Softshrink(Hardshrink):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0; NaN stays NaN.
    Its gradient is hardshrink's.

    The zero's sign: PyTorch's vectorised float32/float64 loop gives +0.0, its float16 loop
    ``x * 0`` (-0.0 for a negative ``x``); its loop for the last few elements of an array also
    ``x * 0``. Here: +0.0, and ``x * 0`` in float16."""

    node_name = "SoftshrinkBackward0"
    _builtin = True
    _grad = SoftshrinkGrad

    @staticmethod
    def forward(x, lambd):
        xd = x._data
        xp = array_module(xd)
        with np.errstate(invalid="ignore"):  # inf * 0, never chosen
            zero = xd * 0 if xd.dtype == np.float16 else xd.dtype.type(0)
            out = xp.where(xd > lambd, xd - lambd, xp.where(xd < -lambd, xd + lambd, zero))
            out = xp.where(xp.isnan(xd), xd, out)
        return _wrap(out.astype(xd.dtype, copy=False))


# ---------------------------------------------------------------- GLU
def _halves(x, dim: int):
    """The two halves of an array or a tensor along ``dim``."""
    n = x.shape[dim] // 2
    index = [slice(None)] * x.ndim
    first, second = list(index), list(index)
    first[dim], second[dim] = slice(0, n), slice(n, None)
    return x[tuple(first)], x[tuple(second)]


def _opmath(x):
    """``x`` in the dtype PyTorch's CPU kernels compute in: float32 for float16."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


class Glu(Function):
    """``a * sigmoid(b)`` where ``a``, ``b`` are the first and second halves along ``dim``
    (in float32 for float16, as PyTorch's kernel)."""

    node_name = "GluBackward0"
    _builtin = True

    @staticmethod
    def forward(x, dim):
        xd = x._data
        a, b = _halves(_opmath(xd), dim)
        one = a.dtype.type(1)
        with np.errstate(over="ignore", invalid="ignore"):
            out = a * (one / (one + array_module(xd).exp(-b)))
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.dim = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GluGrad.apply(grad, x, ctx.dim)


class GluGrad(Function):
    """``glu_backward``: ``s * grad`` for ``a`` and ``(1 - s) s a grad`` for ``b``
    (``s = sigmoid(b)``), side by side along ``dim``. Linear in ``grad``; its derivative in
    ``x`` brings in ``s' = s (1 - s)`` and ``s'' = s' (1 - 2 s)``."""

    node_name = "GluBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(grad, x, dim):
        g, xd = grad._data, x._data
        a, b = _halves(xd, dim)
        with np.errstate(over="ignore", invalid="ignore"):
            s = sigmoid(_wrap(b))._data
            one = s.dtype.type(1)
            out = array_module(xd).concatenate([s * g, (one - s) * s * a * g], axis=dim)
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], inputs[1])
        ctx.dim = inputs[2]

    @staticmethod
    def backward(ctx, gg):
        # PyTorch's glu_double_backward and glu_double_backward_grad_output, step by step
        grad, x = ctx.saved_tensors
        dim = ctx.dim
        n = x.shape[dim] // 2
        d_grad = d_x = None
        if ctx.needs_input_grad[0]:
            sizes = list(x.shape)
            sizes[dim] = n
            tmp = gg * GluGrad.apply(x.new_ones(sizes), x, dim)
            d_grad = tmp.narrow(dim, 0, n) + tmp.narrow(dim, n, n)
        if ctx.needs_input_grad[1]:
            a, b = x.narrow(dim, 0, n), x.narrow(dim, n, n)
            s = sigmoid(b)
            one_sub_s = s.new_ones(()) - s  # C++'s 1 - s
            s_ds = s * one_sub_s
            gg_a, gg_b = gg.narrow(dim, 0, n), gg.narrow(dim, n, n)
            gg_b_a = gg_b * a
            d_a = gg_b * grad * s_ds
            second_order = s_ds * one_sub_s - s * s_ds
            d_b = gg_b_a * grad * second_order + gg_a * grad * s_ds
            d_x = cat([d_a, d_b], dim)
        return d_grad, d_x, None


# ---------------------------------------------------------------- PReLU
class Prelu(Function):
    """``x`` where ``x > 0``, else ``w * x`` (``w`` broadcast to ``x``: one weight, or one per
    channel, shaped by the caller). PyTorch's ``_prelu_kernel``."""

    node_name = "PreluKernelBackward0"
    _builtin = True

    @staticmethod
    def forward(x, w):
        xd, wd = x._data, w._data
        return _wrap(array_module(xd).where(xd > 0, xd, wd * xd).astype(xd.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        return PreluGrad.apply(grad, x, w)


class PreluGrad(Function):
    """``_prelu_kernel_backward``: the gradients of ``x`` (``grad`` where ``x > 0``, else
    ``w * grad``) and of ``w`` (0 where ``x > 0``, else ``x * grad``), at ``x``'s shape (the
    engine sums the weight's to its shape). Its own backward is PyTorch's formula, which splits
    at ``x >= 0``."""

    node_name = "PreluKernelBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(grad, x, w):
        g, xd, wd = grad._data, x._data, w._data
        xp, positive = array_module(xd), xd > 0
        zero = xd.dtype.type(0)
        return (_wrap(xp.where(positive, g, wd * g).astype(xd.dtype, copy=False)),
                _wrap(xp.where(positive, zero, xd * g).astype(xd.dtype, copy=False)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg_x, gg_w):
        grad, x, w = ctx.saved_tensors
        nonneg = x >= 0
        d_grad = where(nonneg, gg_x, gg_x * w + gg_w * x)
        d_x = where(nonneg, 0.0, grad * gg_w)
        d_w = where(nonneg, 0.0, grad * gg_x)
        return d_grad, d_x, d_w


# ---------------------------------------------------------------- RReLU
def inplace_negative_slope_error() -> RuntimeError:
    """PyTorch's refusal to differentiate ``leaky_relu_`` (and ``rrelu_`` out of training)
    with a negative slope, whose gradient it would take from the result."""
    return RuntimeError(
        "In-place leakyReLu backward calculation is triggered with a negative slope which is "
        "not supported. This is caused by calling in-place forward function with a negative "
        "slope, please call out-of-place version instead. File an issue at "
        "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
        "backward calculation with negative slope")


def rrelu_noise(x, lower: float, upper: float, generator=None):
    """PyTorch's slopes for the training pass: a 53-bit uniform for each element ``<= 0`` in
    C order, ``u (upper - lower) + lower`` in double (not fused: PyTorch's loop is not), the
    bounds and the result rounded to float32 for a float32 input; 1 for the others. The
    numbers come from ``generator`` (by default the global one)."""
    math_t = np.float64 if x.dtype == np.float64 else np.float32
    lo, hi = float(math_t(lower)), float(math_t(upper))
    low = to_numpy(x <= 0)
    u = _random._unit(_random._gen(generator), int(low.sum()), np.float64)
    noise = np.ones(low.shape, math_t)
    noise[low] = (u * (hi - lo) + lo).astype(math_t)  # the True places, in C order
    return noise if array_module(x) is np else array_module(x).asarray(noise)


class RreluWithNoise(Function):
    """``x * r`` where ``x <= 0``, else ``x``: ``r`` is the element's slope, one number per
    element (``noise``: drawn in training, 1 where ``x > 0``), or, out of training, one for
    all (``(lower + upper) / 2``, a leaky ReLU)."""

    node_name = "RreluWithNoiseBackward0"
    _builtin = True

    @staticmethod
    def forward(x, noise, slope, training):
        xd = x._data
        v = _opmath(xd)
        if training:
            out = array_module(v).where(v <= 0, v * noise, v)
        else:  # leaky_relu's kernel
            out = array_module(v).where(v > 0, v, v * v.dtype.type(slope))
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, noise, slope, training = inputs
        ctx.x, ctx.noise, ctx.slope, ctx.training = x, noise, slope, training

    @staticmethod
    def backward(ctx, grad):
        return RreluGrad.apply(grad, ctx.x, ctx.noise, ctx.slope, ctx.training)


class RreluWithNoiseInplace(RreluWithNoise):
    """``rrelu_``: PyTorch's node for the in-place version, whose gradient it takes from the
    result: out of training, a negative slope cannot be undone, so it refuses (as
    ``leaky_relu_``)."""

    node_name = "RreluWithNoiseBackward1"
    _builtin = True

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, noise, slope, training = inputs
        # its gradient is computed from the result (whose grad_fn is this node)
        ctx.x, ctx.noise, ctx.slope, ctx.training = output, noise, slope, training

    @staticmethod
    def backward(ctx, grad):
        if not ctx.training and ctx.slope < 0:
            raise inplace_negative_slope_error()
        return RreluGrad.apply(grad, ctx.x, ctx.noise, ctx.slope, ctx.training)


class RreluGrad(Function):
    """``rrelu_with_noise_backward``: ``grad * noise`` in training, else leaky_relu's
    (``grad`` where ``x > 0``, else ``slope * grad``). Linear in ``grad``; the input only
    chose, so its gradient is zero."""

    node_name = "RreluWithNoiseBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(grad, x, noise, slope, training):
        g = grad._data
        if training:
            out = g * noise.astype(g.dtype, copy=False)
        else:
            v = _opmath(g)
            scaled = (v * v.dtype.type(slope)).astype(g.dtype, copy=False)
            out = array_module(g).where(x._data > 0, g, scaled)
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.x, ctx.noise, ctx.slope, ctx.training = inputs

    @staticmethod
    def backward(ctx, gg):
        return (RreluGrad.apply(gg, ctx.x, ctx.noise, ctx.slope, ctx.training),
                gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)

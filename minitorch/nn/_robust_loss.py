"""Losses that are gentle with outliers, and the KL divergence: the ``Function`` classes behind
``nn.functional.smooth_l1_loss`` (``SmoothL1LossBackward0``), ``huber_loss``
(``HuberLossBackward0``) and the ``xlogy`` step of ``kl_div``.

With ``z = |input - target|``:

* smooth L1: ``z^2 / (2 beta)`` below ``beta``, else ``z - beta / 2``;
* Huber: ``z^2 / 2`` below ``delta``, else ``delta (z - delta / 2)``.

Both are quadratic near 0 and linear far out, so one wild target cannot dominate the gradient:
``d/dinput`` is ``clamp(input - target, -beta, beta) / beta`` (Huber:
``clamp(input - target, -delta, delta)``; its own derivative is 0 outside ``|d| < beta``,
the edges included, as in PyTorch), written with tensor operations so that it is
differentiable again.
"""

from __future__ import annotations

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._util import _reduce_array, _scale_grad
from minitorch.ops.arithmetic import where


class SmoothL1Loss(Function):
    """``mean(smooth_l1(input - target))`` (or ``sum``, or elementwise with ``"none"``)."""

    node_name = "SmoothL1LossBackward0"
    _builtin = True
    _huber = False

    @classmethod
    def forward(cls, ctx, x, y, reduction, beta):
        # smooth L1 computes in the promoted dtype of the two; Huber in the input's
        dt = x._data.dtype if cls._huber else _dtype.result_type(x, y).np
        xd, yd = x._data.astype(dt, copy=False), y._data.astype(dt, copy=False)
        opmath = np.float64 if xd.dtype == np.float64 else np.float32
        with np.errstate(invalid="ignore", over="ignore"):
            z = np.abs(xd.astype(opmath) - yd.astype(opmath))
            b = opmath(beta)
            if cls._huber:
                loss = np.where(z < b, opmath(0.5) * z * z, b * (z - opmath(0.5) * b))
            else:
                loss = np.where(z < b, opmath(0.5) * z * z / b, z - opmath(0.5) * b)
        loss = loss.astype(xd.dtype, copy=False)
        ctx.save_for_backward(x, y)
        ctx.reduction, ctx.beta, ctx.n = reduction, beta, loss.size
        return _wrap(array_module(xd).asarray(_reduce_array(loss, reduction, xd.dtype)))

    @classmethod
    def backward(cls, ctx, grad):
        x, y = ctx.saved_tensors
        d = x - (y if y.dtype is x.dtype or not cls._huber else y.to(x.dtype))
        # clamp(d, -beta, beta), whose own derivative is 0 from |d| = beta on, as PyTorch's
        # second derivative (clamp's is 1 at the edges): outside, the slope is a constant
        slope = where(d.abs() < ctx.beta, d, d.detach().clamp(-ctx.beta, ctx.beta))
        if not cls._huber:
            slope = slope / ctx.beta
        g = slope * _scale_grad(grad, ctx.reduction, ctx.n)
        gx = g if ctx.needs_input_grad[0] else None
        gy = -g if ctx.needs_input_grad[1] else None
        gx, gy = (t.to(a.dtype) if t is not None and t.dtype is not a.dtype else t
                  for t, a in ((gx, x), (gy, y)))
        return gx, gy


class HuberLoss(SmoothL1Loss):
    """``mean(huber(input - target))``: smooth L1 scaled by ``delta``."""

    node_name = "HuberLossBackward0"
    _builtin = True
    _huber = True


class Xlogy(Function):
    """``x * log(y)``, taken as 0 where ``x`` is 0 (also when ``y`` is 0); NaN where ``y`` is.
    ``kl_div`` computes ``target * log(target)`` with it."""

    node_name = "XlogyBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, y):
        xd, yd = x._data, y._data
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(xd == 0, xd.dtype.type(0), xd * np.log(yd))
        out = np.where(np.isnan(yd), yd, out)
        ctx.save_for_backward(x, y)
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:  # log(y), as PyTorch: 0 where x is 0 and y <= 0
            gx = Xlogy.apply(grad, y).masked_fill((x == 0) & (y <= 0), 0.0)
        if ctx.needs_input_grad[1]:
            gy = grad * x / y
        return gx, gy

"""Losses that are gentle with outliers, and the KL divergence: the ``Function`` classes behind
``nn.functional.smooth_l1_loss`` (``SmoothL1LossBackward0``), ``huber_loss``
(``HuberLossBackward0``) and the ``xlogy`` step of ``kl_div``.

With ``z = |input - target|``:

* smooth L1: ``z^2 / (2 beta)`` below ``beta``, else ``z - beta / 2``;
* Huber: ``z^2 / 2`` below ``delta``, else ``delta (z - delta / 2)``.

Both are quadratic near 0 and linear far out, so one wild target cannot dominate the gradient:
``d/dinput`` is ``clamp(input - target, -beta, beta) / beta`` (Huber:
``clamp(input - target, -delta, delta)``): an operation of its own, as PyTorch's
``smooth_l1_loss_backward``, whose own derivative (0 outside ``|d| < beta``, the edges
included, as in PyTorch) is written with tensor operations so that it is differentiable
again.
"""

from __future__ import annotations

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._util import _reduce_array
from minitorch.ops.arithmetic import DivScalar


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
        x, y = ctx.saved_tensors  # the target's gradient: the same, with x and y swapped
        grad_cls = HuberLossGrad if cls._huber else SmoothL1LossGrad
        args = (ctx.reduction, ctx.beta)
        return (grad_cls.apply(grad, x, y, *args) if ctx.needs_input_grad[0] else None,
                grad_cls.apply(grad, y, x, *args) if ctx.needs_input_grad[1] else None)


class SmoothL1LossGrad(Function):
    """smooth_l1_loss' backward as an operation of its own, as PyTorch's
    ``smooth_l1_loss_backward``: ``norm * grad * clamp(d, -beta, beta) / beta`` with
    ``d = x - y`` (``norm``: ``1 / n`` for ``"mean"``), computed on the arrays as PyTorch's
    kernel (``sign(d)`` from ``|d| >= beta`` on), in the dtype of ``x``. Its own backward in
    tensor operations, as PyTorch's: linear in ``grad``, and ``norm / beta`` times ``grad``
    times the incoming gradient where ``|d| < beta`` for ``x`` (minus that for ``y``)."""

    node_name = "SmoothL1LossBackwardBackward0"
    _builtin = True
    _huber = False

    @classmethod
    def forward(cls, ctx, grad, x, y, reduction, beta):
        ctx.save_for_backward(grad, x, y)
        ctx.reduction, ctx.beta = reduction, beta
        dt = x._data.dtype if cls._huber else _dtype.result_type(x, y).np
        opmath = np.float64 if dt == np.float64 else np.float32
        g, xd, yd = (t._data.astype(opmath, copy=False) for t in (grad, x, y))
        xp, b = array_module(xd), opmath(beta)
        norm = opmath(1 / max(x.numel(), 1) if reduction == "mean" else 1)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            d = (xd.astype(dt).astype(opmath) - yd.astype(dt).astype(opmath))
            if cls._huber:  # clamp(d, -delta, delta)
                slope = xp.where(d <= -b, -b, xp.where(d >= b, b, d))
            else:
                slope = xp.where(xp.abs(d) >= b, xp.where(d > 0, opmath(1), opmath(-1)), d / b)
            out = norm * slope * g
        return _wrap(out.astype(x._data.dtype, copy=False))

    @classmethod
    def backward(cls, ctx, gg):
        grad, x, y = ctx.saved_tensors
        need_grad, need_x, need_y = ctx.needs_input_grad[:3]
        d_grad = d_x = None
        if need_grad:
            d_grad = cls.apply(gg, x, y, ctx.reduction, ctx.beta)
            d_grad = d_grad if ctx.reduction == "none" else d_grad.sum()
        if need_x or need_y:
            if ctx.beta == 0 and not cls._huber:  # (no quadratic part: zero, as PyTorch)
                d_x = gg.new_zeros(gg.shape)
            else:
                inside = _wrap(array_module(x._data).abs(x._data - y._data) < ctx.beta)
                d_x = gg * grad * inside.to(grad.dtype)
                d_x = d_x if cls._huber else DivScalar.apply(d_x, ctx.beta)
                if ctx.reduction == "mean":
                    d_x = DivScalar.apply(d_x, max(x.numel(), 1))
        return d_grad, d_x if need_x else None, -d_x if need_y else None


class HuberLossGrad(SmoothL1LossGrad):
    """huber_loss' backward (``huber_loss_backward``): ``norm * grad * clamp(d, -delta,
    delta)``, in ``x``'s dtype; its backward as smooth L1's, without the division."""

    node_name = "HuberLossBackwardBackward0"
    _builtin = True
    _huber = True


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

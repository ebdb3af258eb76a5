"""GELU and SiLU: the smooth activations of transformers, as the ``Function`` classes behind
``nn.functional.gelu`` (``GeluBackward0``) and ``nn.functional.silu`` (``SiluBackward0``);
then those of softplus, ELU/SELU/CELU, logsigmoid, hardtanh, hardsigmoid, hardswish and mish.

* ``gelu(x) = x * Phi(x)``, where ``Phi`` is the standard normal CDF,
  ``Phi(x) = (1 + erf(x / sqrt(2))) / 2``; ``approximate="tanh"`` uses
  ``(1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2`` instead of ``Phi``.
* ``silu(x) = x * sigmoid(x)`` (also called swish).

``Phi`` needs ``erf``, which NumPy lacks: ``ops/pointwise.py`` evaluates it (``erf_array``,
and ``Erf``, the Function behind ``torch.erf``). gelu's derivative is an operation of its own
(``GeluBackwardBackward0``, as PyTorch's ``gelu_backward``), whose backward is written with
tensor operations; silu's backward is written with tensor operations. So second derivatives
work.
"""

from __future__ import annotations

import math

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import is_grad_enabled
from minitorch.ops._util import suggested_layout
from minitorch.ops.arithmetic import AddScalar, MulScalar, where
from minitorch.ops.pointwise import erf_array
from minitorch.ops.shape import Clone
from minitorch.ops.unary import sigmoid, tanh

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_KAPPA = 0.044715


def _gelu_array(x, approximate: str):
    """``gelu`` of an array, in float32 for float16 and float32 (PyTorch's opmath)."""
    xp = array_module(x)
    opmath = np.float64 if x.dtype == np.float64 else np.float32
    v = x.astype(opmath)
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == "tanh":
            inner = opmath(_SQRT_2_OVER_PI) * (v + opmath(_KAPPA) * v * v * v)
            out = opmath(0.5) * v * (opmath(1) + xp.tanh(inner))
        else:
            out = v * opmath(0.5) * (opmath(1) + erf_array(v * opmath(1 / math.sqrt(2.0))))
    return out.astype(x.dtype, copy=False)


def _gelu_backward_array(grad, x, approximate: str):
    """``grad * d gelu(x)/dx`` on arrays, as PyTorch's ``gelu_backward`` kernel computes it
    (in float32 for float16): ``Phi(x) + x phi(x)``, or the derivative of the tanh form."""
    xp = array_module(x)
    opmath = np.float64 if x.dtype == np.float64 else np.float32
    v, g = x.astype(opmath), grad.astype(opmath)
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == "tanh":
            t = xp.tanh(opmath(_SQRT_2_OVER_PI) * (v + opmath(_KAPPA) * v * v * v))
            d_inner = opmath(_SQRT_2_OVER_PI) * (opmath(1) + opmath(3 * _KAPPA) * v * v)
            slope = opmath(0.5) * (opmath(1) + t) + opmath(0.5) * v * (opmath(1) - t * t) * d_inner
        else:
            cdf = opmath(0.5) * (opmath(1) + erf_array(v * opmath(1 / math.sqrt(2.0))))
            pdf = opmath(1 / math.sqrt(2 * math.pi)) * xp.exp(v * v * opmath(-0.5))
            slope = cdf + v * pdf
        return (g * slope).astype(grad.dtype, copy=False)


def _gelu_curvature(x: Tensor, approximate: str) -> Tensor:
    """``d^2 gelu(x)/dx^2`` with tensor operations (so it can be differentiated again), as
    PyTorch's ``gelu_double_backward``: ``phi(x) (2 - x^2)``; for the tanh form, with
    ``t = tanh(u)``, ``u = sqrt(2/pi) (x + 0.044715 x^3)`` and ``h = du/dx``,
    ``(1 - t^2) (h (1 - x t h) + x h' / 2)``."""
    if approximate == "tanh":
        t = tanh((x + x * x * x * _KAPPA) * _SQRT_2_OVER_PI)
        h = (x * x * (3 * _KAPPA) + 1) * _SQRT_2_OVER_PI
        h_prime = x * (6 * _KAPPA * _SQRT_2_OVER_PI)
        return (1 - t * t) * (h * (1 - x * t * h) + x * h_prime * 0.5)
    pdf = (x * x * -0.5).exp() * (1 / math.sqrt(2 * math.pi))
    return pdf * (2 - x * x)


class Gelu(Function):
    """``gelu(x) = x Phi(x)``; its derivative is ``Phi(x) + x phi(x)`` (phi: the normal
    density), or the derivative of the tanh form (:class:`GeluGrad`)."""

    node_name = "GeluBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"approximate": lambda node: node.approximate}

    @staticmethod
    def forward(ctx, a, approximate):
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        return _wrap(_gelu_array(a._data, approximate))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return GeluGrad.apply(grad, a, ctx.approximate)


class GeluGrad(Function):
    """gelu's backward as an operation of its own, as PyTorch's ``gelu_backward``: the
    derivative on the arrays (in float32 for float16, where ``x * x`` would overflow from
    ``|x| = 256``), and with ``create_graph=True`` the node PyTorch records. Its own backward
    in tensor operations: linear in ``grad``, and ``grad * gelu''(x)`` for ``x``."""

    node_name = "GeluBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.save_for_backward(grad, x)
        ctx.approximate = approximate
        return _wrap(_gelu_backward_array(grad._data, x._data, approximate))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        need_grad, need_x = ctx.needs_input_grad[:2]
        return (GeluGrad.apply(gg, x, ctx.approximate) if need_grad else None,
                gg * grad * _gelu_curvature(x, ctx.approximate) if need_x else None)


class Silu(Function):
    """``silu(x) = x sigmoid(x)``; derivative ``s (1 + x (1 - s))`` with ``s = sigmoid(x)``."""

    node_name = "SiluBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(ctx, a, inplace=False):
        ctx.save_for_backward(_original(a, inplace))
        x = a._data
        opmath = np.float64 if x.dtype == np.float64 else np.float32
        v = x.astype(opmath)
        with np.errstate(over="ignore"):
            out = v / (opmath(1) + array_module(x).exp(-v))
        return _wrap(out.astype(x.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        s = sigmoid(a)  # PyTorch's formula, with a number added and subtracted as its C++ does
        return grad * s * AddScalar.apply(a * (s.new_ones(()) - s), 1.0)


# ---------------------------------------------------------------- softplus, ELU, hard*, mish
# The rest of ``nn.functional``'s activations. Each is one Function whose forward computes on
# the arrays (in float32 for float16: PyTorch's opmath) and whose backward is the Function of
# PyTorch's ``*_backward`` kernel (``SoftplusBackwardBackward0``, ...): the kernel's
# arithmetic on the arrays forward, so the gradient is PyTorch's to the last bit and takes the
# same branch at a kink, and tensor operations backward, so second derivatives work.
def _opmath(x):
    """``x`` in the dtype PyTorch's CPU kernels compute in: float32 for float16."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _mask(cond, like: Tensor) -> Tensor:
    """A boolean array as a 0/1 tensor of ``like``'s dtype (PyTorch's ``cond.type_as(x)``):
    multiplying by it zeroes a gradient, and turns an inf one into NaN, as in PyTorch."""
    return _wrap(cond.astype(like._data.dtype))


def _original(x: Tensor, inplace: bool) -> Tensor:
    """What an activation's gradient reads of its input ``x``: for the in-place version, a
    clone made before the change, as PyTorch saves it (``CloneBackward0``, whose edge leads
    to the input's history)."""
    if inplace and x._requires_grad and is_grad_enabled():
        return Clone.apply(x)
    return x


def _result(node, out) -> Tensor:
    """The result of an in-place activation whose gradient PyTorch computes from it, as it
    unpacks a saved output: the array as a tensor whose ``grad_fn`` is ``node`` itself."""
    t = _wrap(out)
    t._set_history(node, 0)
    return t


def _softplus_array(x, beta: float, threshold: float):
    xp, v = array_module(x), _opmath(x)
    t = v.dtype.type
    xb = v * t(beta)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        out = xp.where(xb > t(threshold), v, xp.log1p(xp.exp(xb)) / t(beta))
    return out.astype(x.dtype, copy=False)


class Softplus(Function):
    """``log(1 + exp(beta x)) / beta``, and ``x`` itself where ``beta x > threshold``."""

    node_name = "SoftplusBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, beta, threshold):
        ctx.save_for_backward(x)
        ctx.beta, ctx.threshold = beta, threshold
        return _wrap(_softplus_array(x._data, beta, threshold))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return SoftplusGrad.apply(grad, x, ctx.beta, ctx.threshold)


class SoftplusGrad(Function):
    """softplus' backward (``softplus_backward``): ``grad * z / (z + 1)`` with
    ``z = exp(beta x)``, and ``grad`` where ``beta x > threshold``. Its own derivative in ``x``
    is ``beta sigmoid'(beta x)`` where ``beta x < threshold`` (0 at the threshold itself)."""

    node_name = "SoftplusBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x, beta, threshold):
        ctx.save_for_backward(grad, x)
        ctx.beta, ctx.threshold = beta, threshold
        g, v = _opmath(grad._data), _opmath(x._data)
        t = v.dtype.type
        xb = v * t(beta)
        with np.errstate(over="ignore", invalid="ignore"):
            z = array_module(v).exp(xb)
            out = array_module(v).where(xb > t(threshold), g, g * z / (z + t(1)))
        return _wrap(out.astype(grad._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        beta, threshold = ctx.beta, ctx.threshold
        d_grad = SoftplusGrad.apply(gg, x, beta, threshold) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            s = sigmoid(x * beta)
            below = _mask(x._data * x._data.dtype.type(beta) < threshold, x)
            d_x = gg * grad * (1 - s) * s * below * beta
        return d_grad, d_x


# SELU's constants (Klambauer et al., 2017), as PyTorch writes them
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _elu_coefs(v, alpha: float, scale: float, input_scale: float):
    t = v.dtype.type
    return t(alpha * scale), t(scale), t(input_scale)  # negcoef, poscoef, negiptcoef


class Elu(Function):
    """``scale * x`` for ``x > 0``, else ``scale * alpha * (exp(input_scale * x) - 1)``: ELU
    (scale 1, input_scale 1), SELU (PyTorch's constants) and, as :class:`Celu`, CELU
    (input_scale ``1 / alpha``)."""

    node_name = "EluBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, alpha, scale, input_scale):
        ctx.save_for_backward(x)
        ctx.coefs = (alpha, scale, input_scale)
        v = _opmath(x._data)
        neg, pos, ipt = _elu_coefs(v, alpha, scale, input_scale)
        with np.errstate(over="ignore", invalid="ignore"):
            out = array_module(v).where(v <= 0, array_module(v).expm1(v * ipt) * neg, v * pos)
        ctx.result = out  # what the in-place version's gradient is computed from
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return EluGrad.apply(grad, x, *ctx.coefs, None)


class EluInplace(Elu):
    """``elu_``/``selu_``: the node PyTorch names for the in-place version. PyTorch computes
    its gradient from the result, which it cannot do for a negative ``alpha``: it refuses."""

    node_name = "EluBackward1"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        if ctx.coefs[0] * ctx.coefs[1] < 0:
            raise RuntimeError(
                "In-place elu backward calculation is triggered with a negative slope which is "
                "not supported. This is caused by calling in-place forward function with a "
                "negative slope, please call out-of-place version instead.")
        (x,) = ctx.saved_tensors
        result = _result(ctx, ctx.result.astype(x._data.dtype, copy=False))
        return EluGrad.apply(grad, result, *ctx.coefs, ctx.result)


class Celu(Elu):
    node_name = "CeluBackward0"
    _builtin = True


class CeluInplace(EluInplace):
    node_name = "CeluBackward1"
    _builtin = True


class EluGrad(Function):
    """ELU's backward (``elu_backward``): ``grad * input_scale * alpha * scale *
    exp(input_scale x)`` where ``x <= 0`` (so ``alpha * scale`` at 0), else ``grad * scale``.
    Its derivative in ``x`` is taken where ``x < 0`` only, as PyTorch's. Given the ``result``
    (the in-place version), it computes ``grad * input_scale * (result + alpha * scale)``
    instead, as PyTorch does there (0 * inf = NaN where the result has rounded to ``-alpha``)."""

    node_name = "EluBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x, alpha, scale, input_scale, result):
        ctx.save_for_backward(grad, x)
        ctx.coefs, ctx.result = (alpha, scale, input_scale), result
        g, v = _opmath(grad._data), _opmath(x._data)
        neg, pos, ipt = _elu_coefs(v, alpha, scale, input_scale)
        xp = array_module(v)
        with np.errstate(over="ignore", invalid="ignore"):
            if result is None:
                out = xp.where(v <= 0, g * ipt * neg * xp.exp(v * ipt), g * pos)
            else:
                out = xp.where(result <= 0, g * ipt * (result + neg), g * pos)
        return _wrap(out.astype(grad._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        coefs = ctx.coefs
        d_grad = EluGrad.apply(gg, x, *coefs, ctx.result) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1] and ctx.result is not None:  # x is the result: PyTorch's
            d_x = MulScalar.apply(gg * grad, coefs[2]) * _mask(ctx.result < 0, x)
        elif ctx.needs_input_grad[1]:
            d_x = EluGrad.apply(gg * grad * coefs[2], x, *coefs, None) * _mask(x._data < 0, x)
        return d_grad, d_x


def _hardtanh_array(x, lo, hi):
    """``min(max(x, lo), hi)`` as PyTorch's kernel compares: NaN stays, and a -0.0 too."""
    xp = array_module(x)
    y = xp.where(x < lo, lo, x)
    return xp.where(hi < y, hi, y).astype(x.dtype, copy=False)


class Hardtanh(Function):
    """``x`` clipped to ``[min_val, max_val]``; also ``relu6`` (``[0, 6]``)."""

    node_name = "HardtanhBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, lo, hi, inplace=False):
        xd = x._data
        # the gradient is 0 at the limits
        ctx.x, ctx.inside = _original(x, inplace), ~((xd <= lo) | (xd >= hi))
        return _wrap(_hardtanh_array(xd, xd.dtype.type(lo), xd.dtype.type(hi)))

    @staticmethod
    def backward(ctx, grad):
        return HardtanhGrad.apply(grad, ctx.x, ctx.inside)


class HardtanhGrad(Function):
    """hardtanh's backward: ``grad`` strictly inside the limits, else 0 (a select, so an inf
    gradient outside gives 0). Linear in ``grad``; the input only chose where. Threshold's
    and the shrinks' backward nodes are subclasses: ``ctx._forward_cls`` is the Function that
    made the node, so each differentiates into itself, under its own name."""

    node_name = "HardtanhBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)  # grad and the input; the mask is an array

    @staticmethod
    def forward(grad, x, inside):
        g = grad._data
        return _wrap(array_module(g).where(inside, g, g.dtype.type(0)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.x, ctx.inside = inputs

    @staticmethod
    def backward(ctx, gg):
        return (ctx._forward_cls.apply(gg, ctx.x, ctx.inside),
                gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)


class Hardsigmoid(Function):
    """``min(max(x + 3, 0), 6) / 6``."""

    node_name = "HardsigmoidBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, inplace=False):
        ctx.save_for_backward(_original(x, inplace))
        v = _opmath(x._data)
        t, xp = v.dtype.type, array_module(v)
        out = xp.minimum(xp.maximum(v + t(3), t(0)), t(6)) / t(6)
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        # PyTorch's node for it has an edge for each input that requires grad, no other:
        # the others are passed as arrays (no edge)
        return HardsigmoidGrad.apply(*(t if t._requires_grad else t._data for t in (grad, x)))


class HardsigmoidGrad(Function):
    """hardsigmoid's backward: ``grad / 6`` where ``-3 < x < 3``, else 0 (times the float
    ``1.0f / 6.0f``, as PyTorch's kernel, even in float64). PyTorch has no
    derivative for it: differentiating it again raises, as there."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x):
        grad, x = (a._data if isinstance(a, Tensor) else a for a in (grad, x))
        g, v = _opmath(grad), _opmath(x)
        t = v.dtype.type
        one_sixth = t(np.float32(1) / np.float32(6))  # the kernel's float 1/6, in any dtype
        out = array_module(v).where((v > t(-3)) & (v < t(3)), g * one_sixth, t(0))
        return _wrap(out.astype(grad.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        raise RuntimeError("derivative for aten::hardsigmoid_backward is not implemented")


class Hardswish(Function):
    """``x * min(max(x + 3, 0), 6) / 6``."""

    node_name = "HardswishBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, inplace=False):
        ctx.save_for_backward(_original(x, inplace))
        v = _opmath(x._data)
        t, xp = v.dtype.type, array_module(v)
        with np.errstate(invalid="ignore"):  # -inf * 0
            out = v * xp.minimum(xp.maximum(v + t(3), t(0)), t(6)) / t(6)
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return HardswishGrad.apply(grad, x)


class HardswishGrad(Function):
    """hardswish's backward: 0 for ``x <= -3``, ``grad * (x / 3 + 1/2)`` for ``x < 3``, else
    ``grad`` (NaN too); its derivative in ``x`` is ``grad / 3`` strictly inside ``(-3, 3)``."""

    node_name = "HardswishBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        g, v = _opmath(grad._data), _opmath(x._data)
        t, xp = v.dtype.type, array_module(v)
        with np.errstate(invalid="ignore"):
            out = xp.where(v <= t(-3), t(0), xp.where(v < t(3), g * (v / t(3) + t(0.5)), g))
        return _wrap(out.astype(grad._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        d_grad = HardswishGrad.apply(gg, x) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            xd = x._data
            d_x = where(_wrap((xd > -3) & (xd < 3)), gg * grad / 3.0, 0.0)
        return d_grad, d_x


def _logsigmoid_array(x):
    xp, v = array_module(x), _opmath(x)
    out = xp.minimum(v, v.dtype.type(0)) - xp.log1p(xp.exp(-xp.abs(v)))
    return out.astype(x.dtype, copy=False)


class LogSigmoid(Function):
    """``log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|))``, which neither overflows nor
    rounds to ``log(0)``."""

    node_name = "LogSigmoidBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _wrap(suggested_layout(_logsigmoid_array(x._data), x._data))  # (PyTorch's)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LogSigmoidGrad.apply(grad, x)


class LogSigmoidGrad(Function):
    """logsigmoid's backward: ``grad * (1 - sigmoid(x))``, computed from ``z = exp(-|x|)`` as
    PyTorch's kernel; its derivative in ``x`` is ``grad * (s - 1) * s``, ``s = sigmoid(x)``."""

    node_name = "LogSigmoidBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        g, v = _opmath(grad._data), _opmath(x._data)
        t, xp = v.dtype.type, array_module(v)
        negative = v < t(0)
        z = xp.exp(-xp.abs(v))
        max_deriv, sign = xp.where(negative, t(1), t(0)), xp.where(negative, t(1), t(-1))
        out = g * (max_deriv - sign * (z / (t(1) + z)))
        return _wrap(out.astype(grad._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        grad, x = ctx.saved_tensors
        d_grad = LogSigmoidGrad.apply(gg, x) if ctx.needs_input_grad[0] else None
        d_x = None
        if ctx.needs_input_grad[1]:
            s = sigmoid(x)
            d_x = gg * grad * (s - 1) * s
        return d_grad, d_x


class Mish(Function):
    """``x * tanh(softplus(x))``; its derivative ``t + x sigmoid(x) (1 - t^2)`` with
    ``t = tanh(softplus(x))`` is written in tensor operations (PyTorch's
    ``infinitely_differentiable_mish_backward``)."""

    node_name = "MishBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, inplace=False):
        ctx.save_for_backward(_original(x, inplace))
        v = _opmath(x._data)
        xp = array_module(v)
        with np.errstate(over="ignore", invalid="ignore"):
            out = v * xp.tanh(xp.log1p(xp.exp(v)))
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        # in float32, rounded once, as PyTorch's mish_backward kernel computes it; recorded
        # (create_graph=True), PyTorch's formula step by step, in float16 too
        if x._data.dtype == np.float16 and not is_grad_enabled():
            return (grad.float() * _mish_slope(x.float())).half()
        return grad * _mish_slope(x)


def _mish_slope(x: Tensor) -> Tensor:
    # log(1 + exp(x)) without softplus' threshold, as PyTorch's (``x.exp().log1p()``): its
    # derivative is NaN where exp(x) overflows, there too; ``1 - t^2`` as C++'s ``1.0 - t``
    # (SubBackward0 of a tensor of ones)
    t = tanh(x.exp().log1p())
    return t + x * sigmoid(x) * (x.new_ones(()) - t * t)

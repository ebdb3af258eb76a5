"""GELU and SiLU: the smooth activations of transformers, as the ``Function`` classes behind
``nn.functional.gelu`` (``GeluBackward0``) and ``nn.functional.silu`` (``SiluBackward0``).

* ``gelu(x) = x * Phi(x)``, where ``Phi`` is the standard normal CDF,
  ``Phi(x) = (1 + erf(x / sqrt(2))) / 2``; ``approximate="tanh"`` uses
  ``(1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) / 2`` instead of ``Phi``.
* ``silu(x) = x * sigmoid(x)`` (also called swish).

NumPy has no ``erf``, so :func:`erf` evaluates Cephes' rational approximations (accurate to
the last bit of a float64). The backward formulas are written with tensor operations, so
second derivatives work.
"""

from __future__ import annotations

import math

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops.unary import sigmoid, tanh

# Cephes (ndtr.c): erf(x) = x T(x^2) / U(x^2) for |x| <= 1, else 1 - erfc(|x|) with
# erfc(x) = exp(-x^2) P(x) / Q(x) (x < 8) or exp(-x^2) R(x) / S(x).
_T = (9.60497373987051638749E0, 9.00260197203842689217E1, 2.23200534594684319226E3,
      7.00332514112805075473E3, 5.55923013010394962768E4)
_U = (3.35617141647503099647E1, 5.21357949780152679795E2, 4.59432382970980127987E3,
      2.26290000613890934246E4, 4.92673942608635921086E4)
_P = (2.46196981473530512524E-10, 5.64189564831068821977E-1, 7.46321056442269912687E0,
      4.86371970985681366614E1, 1.96520832956077098242E2, 5.26445194995477358631E2,
      9.34528527171957607540E2, 1.02755188689515710272E3, 5.57535335369399327526E2)
_Q = (1.32281951154744992508E1, 8.67072140885989742329E1, 3.54937778887819891062E2,
      9.75708501743205489753E2, 1.82390916687909736289E3, 2.24633760818710981792E3,
      1.65666309194161350182E3, 5.57535340817727675546E2)
_R = (5.64189583547755073984E-1, 1.27536670759978104416E0, 5.01905042251180477414E0,
      6.16021097993053585195E0, 7.40974269950448939160E0, 2.97886665372100240670E0)
_S = (2.26052863220117276590E0, 9.39603524938001434673E0, 1.20489539808096656605E1,
      1.70814450747565897222E1, 9.60896809063285878198E0, 3.36907645100081516050E0)


def _poly(x, coefs, monic: bool = False):
    """Horner's rule; ``monic``: the leading coefficient is an implicit 1 (Cephes' p1evl)."""
    y = x + coefs[0] if monic else x * 0 + coefs[0]
    for c in coefs[1:]:
        y = y * x + c
    return y


def erf(x):
    """The error function of an array, computed in float64 and returned in ``x``'s dtype."""
    xp = array_module(x)
    v = x.astype(np.float64)
    a = xp.abs(v)
    with np.errstate(all="ignore"):
        z = v * v
        inner = v * _poly(z, _T) / _poly(z, _U, monic=True)
        tail = xp.exp(-z) * xp.where(a < 8.0, _poly(a, _P) / _poly(a, _Q, monic=True),
                                      _poly(a, _R) / _poly(a, _S, monic=True))
        tail = xp.where(xp.isinf(a), 0.0, tail)
        out = xp.where(a <= 1.0, inner, xp.sign(v) * (1.0 - tail))
    return xp.where(xp.isnan(v), np.nan, out).astype(x.dtype, copy=False)


class Erf(Function):
    """``erf`` as a differentiable operation: ``d erf(x)/dx = 2 / sqrt(pi) exp(-x^2)``."""

    node_name = "ErfBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _wrap(erf(a._data))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * ((a * a).neg().exp() * (2.0 / math.sqrt(math.pi)))


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
            out = v * opmath(0.5) * (opmath(1) + erf(v * opmath(1 / math.sqrt(2.0))))
    return out.astype(x.dtype, copy=False)


def _gelu_slope(x: Tensor, approximate: str) -> Tensor:
    """``d gelu(x)/dx`` with tensor operations (so it can be differentiated again)."""
    if approximate == "tanh":
        inner = (x + x * x * x * _KAPPA) * _SQRT_2_OVER_PI
        t = tanh(inner)
        d_inner = (x * x * (3 * _KAPPA) + 1) * _SQRT_2_OVER_PI
        return (t + 1) * 0.5 + x * 0.5 * (1 - t * t) * d_inner
    cdf = (Erf.apply(x * (1 / math.sqrt(2.0))) + 1) * 0.5
    pdf = (x * x * -0.5).exp() * (1 / math.sqrt(2 * math.pi))
    return cdf + x * pdf


class Gelu(Function):
    """``gelu(x) = x Phi(x)``; its derivative is ``Phi(x) + x phi(x)`` (phi: the normal
    density), or the derivative of the tanh form."""

    node_name = "GeluBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, approximate):
        ctx.save_for_backward(a)
        ctx.approximate = approximate
        return _wrap(_gelu_array(a._data, approximate))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        if a._data.dtype == np.float16:  # in float32, rounded once, as PyTorch computes it:
            # in float16, x * x overflows from |x| = 256 and the slope became inf * 0 = NaN
            return (grad.float() * _gelu_slope(a.float(), ctx.approximate)).half()
        return grad * _gelu_slope(a, ctx.approximate)


class Silu(Function):
    """``silu(x) = x sigmoid(x)``; derivative ``s (1 + x (1 - s))`` with ``s = sigmoid(x)``."""

    node_name = "SiluBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        x = a._data
        opmath = np.float64 if x.dtype == np.float64 else np.float32
        v = x.astype(opmath)
        with np.errstate(over="ignore"):
            out = v / (opmath(1) + array_module(x).exp(-v))
        return _wrap(out.astype(x.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        s = sigmoid(a)
        return grad * (s * (1 + a * (1 - s)))

"""The gamma family: ``lgamma``, ``digamma``, ``polygamma``, ``mvlgamma``, and ``erfinv``.

NumPy has none of them, so each array function here computes it in float64 (the input moved to
the host) with the algorithm of PyTorch's CPU kernel (``ATen/native/Math.h``), so that the
values agree with PyTorch's where it matters, at the poles and the edges too:

* ``lgamma``: the C library's ``lgamma`` (Python's ``math.lgamma``), ``inf`` at the poles
  ``0, -1, -2, ...``;
* ``digamma``: Cephes' ``psi``: the reflection ``psi(1 - x) - pi / tan(pi x)`` below 0, the
  recurrence ``psi(x) = psi(x + 1) - 1/x`` up to 10, then the asymptotic series. ``-inf`` at
  ``+0``, ``inf`` at ``-0``, NaN at the negative integers;
* ``polygamma(1, x)``: the trigamma recurrence of PyTorch's kernel, in the input's own float
  dtype (float32 keeps float32's huge finite values at the negative integers, as PyTorch's);
* ``polygamma(n, x)``, ``n >= 2``: ``(-1)^(n+1) n! zeta(n + 1, x)`` with Cephes' Hurwitz
  ``zeta`` (Euler-Maclaurin summation);
* ``erfinv``: a rational first guess refined by two Newton steps on ``erf``.

Each Function states its derivative in tensor ops, PyTorch's formulas, so a second derivative
records the next function of the family (``lgamma' = digamma``, ``digamma' = polygamma(1, .)``,
``polygamma(n, .)' = polygamma(n + 1, .)``).

Example:
    >>> import minitorch
    >>> minitorch.lgamma(minitorch.tensor([0.5, 1.0, 0.0]))
    tensor([0.5724, 0.0000,    inf])
    >>> minitorch.digamma(minitorch.tensor([1.0]))
    tensor([-0.5772])
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module, to_numpy
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    check_tensor,
    float_type,
    laid_out_as,
    quietly,
    suggested_layout,
)
from minitorch.ops.arithmetic import MulScalar

__all__ = ["lgamma", "digamma", "polygamma", "erfinv", "mvlgamma"]


def _host64(x) -> np.ndarray:
    return to_numpy(x).astype(np.float64)


def _back(values: np.ndarray, like) -> np.ndarray:
    """``values`` in ``like``'s dtype, on its device."""
    return array_module(like).asarray(quietly(values.astype, like.dtype))


# ---------------------------------------------------------------- lgamma
def _lgamma_scalar(v: float) -> float:
    try:
        return math.lgamma(v)
    except (ValueError, OverflowError):  # a pole (0, -1, -2, ...) or a result past float64
        return math.inf


_lgamma_ufunc = np.frompyfunc(_lgamma_scalar, 1, 1)


def lgamma_array(x):
    """``log|Gamma(x)|`` of a float array, in its dtype."""
    v = _host64(x)
    return _back(np.asarray(_lgamma_ufunc(v), dtype=np.float64).reshape(v.shape), x)


# ---------------------------------------------------------------- digamma
_PSI_10 = 2.25175258906672110764
_PSI_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
          -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
          8.33333333333333333333E-2)


def _digamma64(x: np.ndarray) -> np.ndarray:
    """Cephes' ``psi`` of a float64 array (PyTorch's ``calc_digamma``)."""
    negative = x < 0
    integer = x == np.trunc(x)
    r = x - np.trunc(x)  # the fractional part: tan(pi r) is more accurate than tan(pi x)
    reflection = np.where(negative & ~integer, np.pi / np.tan(np.pi * r), 0.0)
    x = np.where(negative, 1 - x, x)
    result = np.zeros_like(x)
    while True:  # push x to be >= 10
        small = x < 10
        if not small.any():
            break
        result = np.where(small, result - 1 / np.where(small, x, 1.0), result)
        x = np.where(small, x + 1, x)
    z = 1.0 / (x * x)
    poly = np.zeros_like(x)
    for c in _PSI_A:
        poly = poly * z + c
    y = np.where(x < 1.0e17, z * poly, 0.0)
    out = np.where(x == 10, result + _PSI_10, result + np.log(x) - 0.5 / x - y)
    out = out - reflection
    return np.where(negative & integer, np.nan, out)


def digamma_array(x):
    v = _host64(x)
    zero = v == 0
    out = quietly(_digamma64, v)
    return _back(np.where(zero, np.copysign(np.inf, -v), out), x)


# ---------------------------------------------------------------- trigamma, zeta, polygamma
def _trigamma(x: np.ndarray) -> np.ndarray:
    """PyTorch's ``calc_trigamma``, in ``x``'s own dtype (float32 or float64)."""
    t = x.dtype.type
    pi = t(math.pi)
    below = x < t(0.5)
    sin_pi_x = np.sin(pi * x)
    result = np.where(below, -(pi * pi) / (sin_pi_x * sin_pi_x), t(0))
    x = np.where(below, t(1) - x, x)
    for _ in range(6):
        result = result + t(1) / (x * x)
        x = x + t(1)
    ixx = t(1) / (x * x)
    result = result + (t(1) + t(1) / (t(2) * x)
                       + ixx * (t(1 / 6) - ixx * (t(1 / 30) - ixx * t(1 / 42)))) / x
    return np.where(below, -result, result).astype(x.dtype, copy=False)


def trigamma_array(x):
    work = np.float32 if x.dtype == np.float16 else x.dtype
    return _back(quietly(_trigamma, to_numpy(x).astype(work)), x)


_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta_cephes(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Cephes' Hurwitz zeta ``sum_k (q + k)^-x`` (PyTorch's ``zeta``) of float arrays of one
    shape and dtype, computed in that dtype. Its first loop adds up the terms one by one from
    ``q`` up to 9: ``|q|`` steps for a negative ``q``."""
    out = np.full(x.shape, np.nan, x.dtype)
    done = (x <= 1) | ((q <= 0) & (q == np.floor(q))) | ((q <= 0) & (x != np.floor(x)))
    out = np.where(x == 1, np.inf, out)
    out = np.where((x > 1) & (q <= 0) & (q == np.floor(q)), np.inf, out)
    s = np.power(q, -x)
    a = q.copy()
    b = np.zeros_like(q)
    i, one = 0, q.dtype.type(1)
    while True:
        active = ~done & ((i < 9) | (a <= 9.0))
        if not active.any():
            break
        i += 1
        a = np.where(active, a + one, a)
        b = np.where(active, np.power(a, -x), b)
        s = np.where(active, s + b, s)
        small = active & (-_MACHEP * s < b) & (b < _MACHEP * s)
        out = np.where(small, s, out)
        done = done | small
    w = a
    s = s + b * w / (x - one)
    s = s - q.dtype.type(0.5) * b
    a = np.ones_like(q)
    k = q.dtype.type(0)
    for coefficient in np.asarray(_ZETA_A, q.dtype):
        a = a * (x + k)
        b = b / w
        t = a * b / coefficient
        s = s + t
        converged = ~done & (np.abs(t / s) < _MACHEP)
        out = np.where(converged, s, out)
        done = done | converged
        k += one
        a = a * (x + k)
        b = b / w
        k += one
    return np.where(done, out, s)


def zeta_array(x: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The Hurwitz zeta function of float arrays of one dtype (broadcast together), computed
    in it. PyTorch's kernel adds the terms ``(q + k)^-x`` one by one from ``q`` up to 9; for a
    ``q`` below -1000 (an integer ``x``, else NaN) the terms of the negative ``q + k`` are
    summed here as two zetas of positive arguments instead: with ``q = -j - r``, ``0 < r < 1``,
    ``zeta(x, q) = (-1)^x (zeta(x, r) - zeta(x, r + j + 1)) + zeta(x, 1 - r)`` (the same sum,
    but for an odd ``x`` and a half-integer ``q``, where it is 0, not PyTorch's rounding
    residue of ``|q|`` additions)."""
    x, q = np.broadcast_arrays(x, q)
    far = (q < -1000) & (x > 1) & (x == np.floor(x)) & (q != np.floor(q)) & np.isfinite(q)
    near_q = np.where(far, 0.5, q)
    out = _zeta_cephes(x, near_q)
    if far.any():
        xf, qf = x[far], q[far]
        j = np.floor(-qf)
        r = -qf - j
        sign = np.where(np.fmod(xf, 2) == 0, 1, -1).astype(q.dtype)
        value = sign * (_zeta_cephes(xf, r) - _zeta_cephes(xf, r + j + 1)) + _zeta_cephes(
            xf, 1 - r)
        out = out.copy()
        out[far] = value
    return out


def polygamma_array(n: int, x):
    """``polygamma(n, x)`` of a float array, in its dtype."""
    if n == 0:
        return digamma_array(x)
    if n == 1:
        return trigamma_array(x)
    # As PyTorch's kernel: zeta rounded to x's dtype, times (-1)^(n+1) exp(lgamma(n + 1)) in
    # float32 for float16 and float32 (n! is inf there from n = 35), in float64 for float64
    work = np.float64 if x.dtype == np.float64 else np.float32
    factorial = quietly(np.exp, work(math.lgamma(n + 1.0)))  # exp(lgamma(n + 1)), in work
    sign = work(1.0 if n % 2 else -1.0) * factorial
    host = to_numpy(x)  # zeta sums in float32 for float16, in float64 for float32 and float64
    acc = np.float32 if host.dtype == np.float16 else np.float64
    zeta = quietly(zeta_array, acc(n + 1), host.astype(acc))
    zeta = quietly(np.ndarray.astype, zeta, host.dtype).astype(work)
    return _back(quietly(np.multiply, sign, zeta), x)


# ---------------------------------------------------------------- erfinv
_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


def _c_function(fn):
    ufunc = np.frompyfunc(fn, 1, 1)
    return lambda x: np.asarray(ufunc(x), dtype=np.float64)


_C_ERF, _C_ERFC = _c_function(math.erf), _c_function(math.erfc)


def _erfinv64(y: np.ndarray) -> np.ndarray:
    """Pavlis' rational first guess (PyTorch's ``calc_erfinv``), then Newton's steps on
    ``|y|``. PyTorch's CPU build takes MKL's ``ErfInv``, correct to an ulp; Newton's step on
    ``erf(x) - y`` is not near +-1, where ``erf(x)`` rounds to 1 and the residual is all rounding
    error (0.9999999999999999 gave 5.86395 for 5.86358). So past ``|y| = 0.5`` the residual is
    ``(1 - |y|) - erfc(|x|)`` (``1 - |y|`` exact there), with C's ``erf`` and ``erfc`` (``math``'s,
    within an ulp; the NumPy series here are off by up to 30 in ``erfc``'s tail), and a third
    step settles the last bit."""
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    y_abs = np.abs(y)
    z = y_abs * y_abs
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0]
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0
    central = y_abs * num / dem
    z = np.sqrt(-np.log((1.0 - np.minimum(y_abs, 1.0)) / 2.0))
    num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0]
    dem = (d[1] * z + d[0]) * z + 1.0
    x = np.where(y_abs <= 0.7, central, num / dem)
    tail = y_abs > 0.5
    for _ in range(3):  # Newton's steps (each C function only where it is needed)
        residual = np.empty_like(x)
        residual[tail] = (1.0 - y_abs[tail]) - _C_ERFC(x[tail])
        residual[~tail] = _C_ERF(x[~tail]) - y_abs[~tail]
        x = x - residual / ((2.0 / math.sqrt(math.pi)) * np.exp(-x * x))
    x = np.copysign(np.where(y_abs == 1.0, np.inf, x), y)
    return np.where(y_abs > 1.0, np.nan, x)


def erfinv_array(x):
    return _back(quietly(_erfinv64, _host64(x)), x)


# ---------------------------------------------------------------- the Functions
class _GammaOp(Function):
    """A function of one tensor (float32 for an integer or bool one): ``_compute`` on its
    array; backward multiplies the gradient by ``derivative`` of the saved input."""

    _builtin = True

    @classmethod
    def forward(cls, a):
        return _wrap(cls._compute(a._data.astype(float_type(a), copy=False)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @classmethod
    def backward(cls, ctx, grad):
        (saved,) = ctx.saved_tensors
        return grad * cls.derivative(saved)


class Lgamma(_GammaOp):
    node_name = "LgammaBackward0"
    _builtin = True
    _compute = staticmethod(lgamma_array)
    derivative = staticmethod(lambda a: Digamma.apply(a))


class Digamma(_GammaOp):
    node_name = "DigammaBackward0"
    _builtin = True
    _compute = staticmethod(digamma_array)
    derivative = staticmethod(lambda a: Polygamma.apply(a, 1))


class Polygamma(Function):
    """``polygamma(n, a)``, recorded with the tensor first (``n`` is a number, no edge)."""

    node_name = "PolygammaBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(a, n):
        return _wrap(laid_out_as(polygamma_array(n, a._data.astype(float_type(a), copy=False)),
                                 a._data))  # (laid out as the input, as PyTorch's)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, ctx.n = inputs
        ctx.save_for_backward(a)

    @classmethod
    def backward(cls, ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Polygamma.apply(a, ctx.n + 1)


class PolygammaInplace(Polygamma):
    """``x.polygamma_(n)``: PyTorch numbers the in-place node apart (its backward uses a
    clone of the saved input, as every in-place op's: ``Tensor._inplace``)."""

    node_name = "PolygammaBackward1"
    _builtin = True


_SQRT_PI_2 = math.sqrt(math.pi) / 2


class Erfinv(_GammaOp):
    node_name = "ErfinvBackward0"
    _builtin = True
    _compute = staticmethod(erfinv_array)
    # d erfinv(y)/dy = sqrt(pi)/2 exp(erfinv(y)^2)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return MulScalar.apply(Erfinv.apply(a).pow(2).exp(), _SQRT_PI_2) * grad


def _mvlgamma_shifts(p: int, dtype) -> np.ndarray:
    """``-(p-1)/2, ..., -1/2, 0``: what ``mvlgamma`` adds to its input before ``lgamma``."""
    return np.arange(-p * 0.5 + 0.5, 0.5, 0.5).astype(dtype)


class Mvlgamma(Function):
    """``log Gamma_p(x) = p(p-1)/4 log(pi) + sum_i lgamma(x - i/2)``, ``i = 0 .. p-1``, as
    PyTorch's (the shifted copies summed over a last axis)."""

    node_name = "MvlgammaBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(a, p):
        x = a._data.astype(float_type(a), copy=False)
        xp = array_module(x)
        args = x[..., None] + xp.asarray(_mvlgamma_shifts(p, x.dtype))
        total = quietly(lambda v: v.sum(-1, dtype=x.dtype), lgamma_array(args))
        total = total + x.dtype.type(p * (p - 1) * math.log(math.pi) / 4)
        return _wrap(suggested_layout(total, x))  # (layout2 task: PyTorch's)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, ctx.p = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        shifts = _wrap(array_module(a._data).asarray(_mvlgamma_shifts(ctx.p, a._data.dtype)))
        return grad * Digamma.apply(shifts + a.unsqueeze(-1)).sum(-1)


# ---------------------------------------------------------------- the public functions
def _one(cls, name: str, doc: str, special_name: str | None = None):
    """``name(input)``: ``cls`` of one tensor (``special_name``: its name in PyTorch's
    ``special`` errors)."""
    def fn(input: Tensor) -> Tensor:  # noqa: A002
        check_tensor(input, name, "input", 1)
        return cls.apply(input)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


lgamma = _one(Lgamma, "lgamma", "``log|Gamma(input)|``, elementwise (``inf`` at the poles).")
digamma = _one(Digamma, "digamma", "``d/dx lgamma(x)``, the digamma function (``psi``).")
erfinv = _one(Erfinv, "erfinv", "The inverse of ``erf`` on ``[-1, 1]`` (``+-inf`` at ``+-1``, "
              "NaN outside).")


def _check_int(name: str, value, arg: str, position: int) -> None:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be int, not "
                        f"{type(value).__name__}")


def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002
    """The ``n``-th derivative of ``digamma`` (``polygamma(0, x)`` is ``digamma(x)``)."""
    _check_int("polygamma", n, "n", 1)
    check_tensor(input, "polygamma", "input", 2)
    return _polygamma(input, int(n), Polygamma)


def _polygamma(input: Tensor, n: int, cls) -> Tensor:  # noqa: A002
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return cls.apply(input, n)


def mvlgamma(input: Tensor, p: int) -> Tensor:  # noqa: A002
    """The multivariate log-gamma function of dimension ``p``:
    ``p(p-1)/4 log(pi) + sum_{i=0}^{p-1} lgamma(input - i/2)``."""
    check_tensor(input, "mvlgamma", "input", 1)
    _check_int("mvlgamma", p, "p", 2)
    return _mvlgamma(input, int(p))


def _mvlgamma(input: Tensor, p: int, cls=Mvlgamma) -> Tensor:  # noqa: A002
    if input.dtype.np.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return cls.apply(input, p)


def _p_argument(name: str, args, kwargs) -> int:
    """``p`` of ``x.mvlgamma(p)``, given by position or by name, with PyTorch's errors."""
    if len(args) + len(kwargs) != 1 or (kwargs and "p" not in kwargs):
        if not args and not kwargs:
            raise TypeError(f'{name}() missing 1 required positional arguments: "p"')
        raise TypeError(f"{name}() takes 1 positional argument but {len(args) + len(kwargs)} "
                        "were given" if not kwargs else
                        f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    p = args[0] if args else kwargs["p"]
    if not isinstance(p, numbers.Integral) or isinstance(p, bool):
        where = " (position 1)" if args else ""
        raise TypeError(f"{name}(): argument 'p'{where} must be int, not {type(p).__name__}")
    return int(p)


polygamma.out_name = "polygamma"
mvlgamma.out_name = "mvlgamma"


def _of_self(cls, name: str):
    """``x.name()`` and ``x.name_()`` of a one-tensor Function."""
    def method(self, *args):
        if args:
            raise TypeError(f"TensorBase.{name}() takes no arguments ({len(args)} given)")
        return cls.apply(self)

    def method_(self, *args):
        if args:
            raise TypeError(f"TensorBase.{name}_() takes no arguments ({len(args)} given)")
        return self._inplace(cls.apply)
    return method, method_


def tensor_methods() -> dict:
    """``x.lgamma()``, ``x.polygamma(n)``, ``x.mvlgamma(p)``... and their in-place forms."""
    def method_polygamma(self, n):
        _check_int("polygamma", n, "n", 1)
        return _polygamma(self, int(n), Polygamma)

    def method_polygamma_(self, n):
        _check_int("polygamma_", n, "n", 1)
        n = int(n)
        return self._inplace(lambda t: _polygamma(t, n, PolygammaInplace))

    def method_mvlgamma(self, *args, **kwargs):
        p = _p_argument("mvlgamma", args, kwargs)
        return _mvlgamma(self, p)

    def method_mvlgamma_(self, *args, **kwargs):
        p = _p_argument("mvlgamma_", args, kwargs)
        if self.dtype.np.kind in "iu":  # PyTorch's words, its dtypes in this order
            default = _dtype.get_default_dtype()._legacy[:-6]
            raise RuntimeError(f"mvlgamma: result type {self.dtype._legacy[:-6]} can't be cast "
                               f"to the desired output type {default}")
        return self._inplace(lambda t: _mvlgamma(t, p, Mvlgamma))

    methods = {"polygamma": method_polygamma, "polygamma_": method_polygamma_,
               "mvlgamma": method_mvlgamma, "mvlgamma_": method_mvlgamma_}
    for name, cls in (("lgamma", Lgamma), ("digamma", Digamma), ("erfinv", Erfinv)):
        methods[name], methods[name + "_"] = _of_self(cls, name)
    for name, method in methods.items():
        method.__name__ = method.__qualname__ = name
    return methods

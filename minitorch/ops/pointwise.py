"""More elementwise functions: ``log1p``, ``expm1``, ``rsqrt``, ``log2``, ``log10``, ``exp2``,
``erf``, the tests ``isinf``, ``isposinf``, ``isneginf``, and ``nan_to_num`` and ``lerp``.

They follow ``ops/unary.py``: an integer or bool input gives a float32 result, a float16 one
stays float16, and each Function states its local derivative next to its forward, with PyTorch's
formula (so a gradient is inf or NaN exactly where PyTorch's is). Two of them exist for accuracy:
``log1p(x)`` is ``log(1 + x)`` and ``expm1(x)`` is ``exp(x) - 1`` without the rounding of
``1 + x`` that loses a small ``x``.

NumPy has no ``erf``, so :func:`erf_array` evaluates Cephes' rational approximations (accurate
to the last bit of a float64); ``nn.functional.gelu`` uses it too.

Example:
    >>> import minitorch
    >>> minitorch.log1p(minitorch.tensor([1e-10, 0.0]))
    tensor([1.0000e-10, 0.0000e+00])
    >>> minitorch.lerp(minitorch.tensor([0.0, 10.0]), minitorch.tensor([1.0, 20.0]), 0.25)
    tensor([ 0.2500, 12.5000])
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._dtype import CPP_NAMES
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    broadcast_error,
    check_tensor,
    float_type,
    fused_multiply_add,
    quietly,
)
from minitorch.ops.arithmetic import AddScalar, MulScalar, _described

__all__ = ["log1p", "expm1", "rsqrt", "log2", "log10", "exp2", "erf", "isinf", "isposinf",
           "isneginf", "nan_to_num", "lerp", "erf_array"]


def _float(a: Tensor) -> np.ndarray:
    return a._data.astype(float_type(a), copy=False)


# ---------------------------------------------------------------- logarithms and exponentials
class Log1p(Function):
    node_name = "Log1PBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.log1p, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / AddScalar.apply(a, 1)  # d log(1 + a)/da = 1 / (1 + a)


class Expm1(Function):
    node_name = "Expm1Backward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.expm1, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * AddScalar.apply(out, 1)  # d (exp(a) - 1)/da = exp(a) = expm1(a) + 1


def _rsqrt_array(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.float16:  # in float32, rounded once, as PyTorch's kernel
        return quietly(_rsqrt_array, x.astype(np.float32)).astype(np.float16)
    return np.reciprocal(np.sqrt(x))  # rsqrt(-0.0) is 1 / -0.0: -inf, as in PyTorch


class Rsqrt(Function):
    node_name = "RsqrtBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(_rsqrt_array, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d a^(-1/2)/da = -1/2 a^(-3/2) = -1/2 rsqrt(a)^3 (the -1/2: mul.Scalar, as PyTorch's)
        return MulScalar.apply(grad, -0.5) * out.pow(3)


class Log2(Function):
    node_name = "Log2Backward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.log2, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.apply(a, math.log(2.0))  # d log_b(a)/da = 1 / (a ln b)


class Log10(Log2):
    node_name = "Log10Backward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.log10, _float(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / MulScalar.apply(a, math.log(10.0))


class Exp2(Function):
    node_name = "Exp2Backward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.exp2, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return MulScalar.apply(grad * out, math.log(2.0))  # d 2^a/da = 2^a ln 2


# ---------------------------------------------------------------- the error function
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


def erf_array(x):
    """The error function of a floating-point array, computed in float64 and returned in
    ``x``'s dtype."""
    xp = array_module(x)
    v = x.astype(np.float64)
    a = xp.abs(v)
    with np.errstate(all="ignore"):
        z = v * v
        inner = v * _poly(z, _T) / _poly(z, _U, monic=True)
        tail = xp.exp(-z) * xp.where(a < 8.0, _poly(a, _P) / _poly(a, _Q, monic=True),
                                      _poly(a, _R) / _poly(a, _S, monic=True))
        tail = xp.where(a >= 27.3, 0.0, tail)  # erfc underflows (and P/Q overflows by 1e200)
        out = xp.where(a <= 1.0, inner, xp.sign(v) * (1.0 - tail))
    return xp.where(xp.isnan(v), np.nan, out).astype(x.dtype, copy=False)


class Erf(Function):
    """``erf`` as a differentiable operation: ``d erf(x)/dx = 2 / sqrt(pi) exp(-x^2)``."""

    node_name = "ErfBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _wrap(erf_array(_float(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return MulScalar.apply(a.pow(2).neg().exp(), 2.0 / math.sqrt(math.pi)) * grad


def log1p(input: Tensor) -> Tensor:  # noqa: A002
    """``log(1 + input)``, accurate for a small ``input`` (where ``1 + input`` would round)."""
    check_tensor(input, "log1p", "input", 1)
    return Log1p.apply(input)


def expm1(input: Tensor) -> Tensor:  # noqa: A002
    """``exp(input) - 1``, accurate for a small ``input``."""
    check_tensor(input, "expm1", "input", 1)
    return Expm1.apply(input)


def rsqrt(input: Tensor) -> Tensor:  # noqa: A002
    """``1 / sqrt(input)`` (inf at 0, -inf at -0.0, NaN below 0)."""
    check_tensor(input, "rsqrt", "input", 1)
    return Rsqrt.apply(input)


def log2(input: Tensor) -> Tensor:  # noqa: A002
    """Logarithm to base 2."""
    check_tensor(input, "log2", "input", 1)
    return Log2.apply(input)


def log10(input: Tensor) -> Tensor:  # noqa: A002
    """Logarithm to base 10."""
    check_tensor(input, "log10", "input", 1)
    return Log10.apply(input)


def exp2(input: Tensor) -> Tensor:  # noqa: A002
    """``2 ** input``."""
    check_tensor(input, "exp2", "input", 1)
    return Exp2.apply(input)


def erf(input: Tensor) -> Tensor:  # noqa: A002
    """The error function ``2 / sqrt(pi) * integral of exp(-t^2) from 0 to input``."""
    check_tensor(input, "erf", "input", 1)
    return Erf.apply(input)


# ---------------------------------------------------------------- infinities and NaNs
def _test(input: Tensor, name: str, np_test) -> Tensor:  # noqa: A002
    """A bool tensor: ``np_test`` of a float tensor; all False for an integer or bool one."""
    check_tensor(input, name, "input", 1)
    x = input._data
    if x.dtype.kind == "f":
        return _wrap(np_test(x))
    return _wrap(array_module(x).zeros(x.shape, dtype=bool))


def isinf(input: Tensor) -> Tensor:  # noqa: A002
    """Where ``input`` is +inf or -inf (a bool tensor; never recorded in the graph)."""
    return _test(input, "isinf", np.isinf)


def isposinf(input: Tensor) -> Tensor:  # noqa: A002
    """Where ``input`` is +inf."""
    return _test(input, "isposinf", lambda x: x == np.inf)


def isneginf(input: Tensor) -> Tensor:  # noqa: A002
    """Where ``input`` is -inf."""
    return _test(input, "isneginf", lambda x: x == -np.inf)


class NanToNum(Function):
    node_name = "NanToNumBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, nan, posinf, neginf):
        x = a._data
        if x.dtype.kind != "f":  # an integer holds no NaN or inf: a copy
            return _wrap(x.copy())
        ctx.save_for_backward(a)
        xp = array_module(x)
        info = np.finfo(x.dtype)
        # each number in the tensor's dtype, as PyTorch casts it (1e300 is inf in float32)
        nan, posinf, neginf = (quietly(x.dtype.type, v) for v in
                               (nan, info.max if posinf is None else posinf,
                                info.min if neginf is None else neginf))
        out = xp.where(x == np.inf, posinf, xp.where(x == -np.inf, neginf, x))
        return _wrap(xp.where(xp.isnan(x), nan, out))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        # 1 where the input is finite, else 0; a product, as in PyTorch (an inf gradient
        # at a replaced value gives NaN)
        return grad * a.isfinite()


def nan_to_num_args(fn: str, nan, posinf, neginf) -> tuple:
    """``nan_to_num``'s three numbers as floats (``nan=None`` is 0; ``posinf`` and ``neginf``
    None stay None), with PyTorch's TypeError naming ``fn`` and the argument."""
    def as_float(value, name):
        if value is None or isinstance(value, numbers.Real):
            return value if value is None else float(value)
        if isinstance(value, Tensor) and value.numel() == 1:
            return float(value.item())
        raise TypeError(f"{fn}(): argument '{name}' must be float, not {type(value).__name__}")

    nan = as_float(nan, "nan")
    return (0.0 if nan is None else nan, as_float(posinf, "posinf"),
            as_float(neginf, "neginf"))


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None,  # noqa: A002
               neginf: float | None = None) -> Tensor:
    """``input`` with NaN replaced by ``nan``, +inf by ``posinf`` and -inf by ``neginf``
    (by default the largest and the smallest number of the dtype). Its gradient is 0 at the
    replaced values."""
    check_tensor(input, "nan_to_num", "input", 1)
    return NanToNum.apply(input, *nan_to_num_args("nan_to_num", nan, posinf, neginf))


# ---------------------------------------------------------------- lerp
def _lerp_array(start, end, weight):
    """``start + weight (end - start)`` as PyTorch's kernel computes it: from the nearer end,
    ``start + w d`` for ``|w| < 0.5``, else ``end + (w - 1) d``, each a fused multiply-add
    (one rounding). ``weight`` is a number or an array (NumPy's or CuPy's) of the arrays' dtype."""
    is_array = not np.isscalar(weight)
    if start.dtype == np.float16:  # in float32 (PyTorch's opmath), rounded once at the end
        f32 = np.float32
        weight = weight.astype(f32) if is_array else f32(weight)
        return _lerp_array(start.astype(f32), end.astype(f32), weight).astype(np.float16)
    diff = end - start
    one = start.dtype.type(1)
    if not is_array:
        if abs(weight) < 0.5:
            return fused_multiply_add(weight, diff, start)
        return fused_multiply_add(weight - one, diff, end)
    xp = array_module(start)
    return xp.where(xp.abs(weight) < 0.5, fused_multiply_add(weight, diff, start),
                    fused_multiply_add(weight - one, diff, end))


def one_minus(t: Tensor) -> Tensor:
    """``1 - t`` as PyTorch's C++ formulas write it: the 1 a 0-d tensor of ``t``'s dtype, so
    the node is ``SubBackward0`` with an empty first edge (``1 - t`` in Python records
    ``RsubBackward1``)."""
    return _wrap(array_module(t._data).ones((), t._data.dtype)) - t


class Lerp(Function):
    """``lerp(start, end, w)`` with a number ``w``: ``d/dstart = 1 - w``, ``d/dend = w``."""

    node_name = "LerpBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.weight = weight
        x, y = start._data, end._data
        w = weight if x.dtype == np.float16 else x.dtype.type(weight)
        try:
            return _wrap(quietly(_lerp_array, x, y, w))
        except ValueError:
            raise broadcast_error(start.shape, end.shape) from None

    @staticmethod
    def backward(ctx, grad):
        w = ctx.weight
        return grad * (1 - w), grad * w


class LerpTensor(Function):
    """``lerp(start, end, w)`` with a tensor ``w``: ``d/dw = end - start`` too."""

    node_name = "LerpBackward1"
    _builtin = True
    pack_order = (1, 0, 2)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, start, end, weight):
        ctx.save_for_backward(start, end, weight)
        x, y, w = start._data, end._data, weight._data
        if w.dtype != x.dtype:  # a 0-d weight of another dtype: its value, in start's dtype
            w = w.astype(x.dtype)
        try:
            shape = np.broadcast_shapes(x.shape, y.shape)
        except ValueError:
            raise broadcast_error(x.shape, y.shape) from None
        try:
            np.broadcast_shapes(shape, w.shape)
        except ValueError:
            raise broadcast_error(shape, w.shape) from None
        return _wrap(quietly(_lerp_array, x, y, w))

    @staticmethod
    def backward(ctx, grad):
        start, end, weight = ctx.saved_tensors
        need_start, need_end, need_weight = ctx.needs_input_grad
        if need_start and weight._data.dtype == np.bool_:  # PyTorch's 1 - weight refuses it
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                               "supported. Use the `^` or `logical_xor()` operator instead.")
        return (grad * one_minus(weight) if need_start else None,
                grad * weight if need_end else None,
                grad * (end - start) if need_weight else None)


def check_lerp_args(args: tuple, name: str = "lerp") -> None:
    """PyTorch's TypeError for ``lerp``'s arguments as called (``args`` of the methods
    ``lerp`` and ``lerp_`` start at ``end``): the two overloads it tried."""
    *tensors, weight = args
    if all(isinstance(t, Tensor) for t in tensors) and isinstance(weight, (Tensor, numbers.Number)):
        return
    words = ["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args]
    method = len(args) == 2
    tried = []
    for kind in ("Tensor", "Number"):
        params = ["Tensor input", "Tensor end", f"{kind} weight"][-len(args):]
        text = ", ".join(params) if method else ", ".join(params) + ", *, Tensor out = None"
        if method:  # the method's parser also marks the arguments that did not fit (and,
            # as for masked_fill, the weight of the Number overload, whatever it is)
            fits = [isinstance(a, Tensor) and p != "Number weight" for a, p in zip(args, params)]
            marked = ", ".join(w if ok else f"!{_described(a)}!"
                               for a, w, ok in zip(args, words, fits))
            text += (f")\n      didn't match because some of the arguments have invalid types: "
                     f"({marked}")
        tried.append(f" * ({text})\n")
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(words)}), but expected one of:\n" + "".join(tried))


def lerp(input: Tensor, end: Tensor, weight) -> Tensor:  # noqa: A002
    """``input + weight * (end - input)``: the point a fraction ``weight`` of the way from
    ``input`` to ``end`` (``weight`` a number or a tensor; the three broadcast together)."""
    check_lerp_args((input, end, weight))
    x = input._data
    if end._data.dtype != x.dtype:
        raise RuntimeError(f"expected dtype {CPP_NAMES[input.dtype.name]} for `end` but got "
                           f"dtype {CPP_NAMES[end.dtype.name]}")
    tensor_weight = isinstance(weight, Tensor)
    if tensor_weight and weight._data.ndim and weight._data.dtype != x.dtype:
        raise RuntimeError(f"expected dtype {CPP_NAMES[input.dtype.name]} for `weight` but got "
                           f"dtype {CPP_NAMES[weight.dtype.name]}")
    if x.dtype.kind != "f":
        kernel = "lerp_kernel_tensor" if tensor_weight else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{input.dtype._legacy[:-6]}'")
    if tensor_weight:
        return LerpTensor.apply(input, end, weight)
    if x.dtype != np.float64:  # the weight is taken in float32 (float16's opmath too)
        _dtype.number_as(weight, _dtype.float32)
    return Lerp.apply(input, end, float(weight))


# ---------------------------------------------------------------- frexp (task: methods)
class Frexp(Function):
    """``frexp``: ``input = mantissa * 2 ** exponent``; only the mantissa has a gradient,
    ``grad / 2 ** exponent``."""

    node_name = "FrexpBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        mantissa, exponent = array_module(a._data).frexp(a._data)
        exponent = _wrap(exponent.astype(np.int32))
        ctx.exponent = exponent
        ctx.mark_non_differentiable(exponent)
        return _wrap(mantissa), exponent

    @staticmethod
    def backward(ctx, grad, _grad_exponent=None):
        wide = _dtype.float32 if grad.dtype is _dtype.float16 else grad.dtype  # as PyTorch
        return (grad.to(wide) / exp2(ctx.exponent.to(wide))).to(grad.dtype)


def frexp(input: Tensor):  # noqa: A002
    """The mantissa (in [0.5, 1) in size) and the int32 exponent of each element:
    ``torch.return_types.frexp(mantissa, exponent)``.

    >>> import minitorch
    >>> minitorch.frexp(minitorch.tensor([8.0, -3.5])).exponent
    tensor([4, 2], dtype=torch.int32)
    """
    from minitorch import return_types

    check_tensor(input, "frexp", "input", 1)
    if input._data.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    return return_types.frexp(*Frexp.apply(input))


__all__ += ["frexp"]

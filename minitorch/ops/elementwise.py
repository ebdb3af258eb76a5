"""More elementwise math, as PyTorch has it: the hyperbolic functions and their inverses, ``tan``,
``sinc``, ``erfc``, ``logit``, ``deg2rad``/``rad2deg``, ``trunc``/``fix``, ``frac``, ``sgn``,
``signbit``, ``positive``; of two tensors ``atan2``, ``hypot``, ``copysign``, ``logaddexp``,
``logaddexp2``, ``xlogy``, ``fmax``, ``fmin``, ``fmod``, ``float_power``, ``ldexp``,
``nextafter``, ``heaviside``, ``gcd``, ``lcm``; ``i0``; and ``addcmul``, ``addcdiv`` and
``count_nonzero``.

They follow ``ops/unary.py`` and ``ops/pointwise.py``: an integer or bool input of a function
that is only defined on reals gives a float32 result (where PyTorch has no integer kernel, its
``NotImplementedError``), float16 is computed in float32 and rounded once, and each Function
states its derivative next to its forward, with PyTorch's formula, so that a gradient is inf,
NaN or a chosen subgradient exactly where PyTorch's is (``atan2`` and ``copysign`` at 0, the
ties of ``fmax`` and ``fmin``, ``xlogy`` at ``x = 0``).

Example:
    >>> import minitorch
    >>> minitorch.atan2(minitorch.tensor([1.0, -1.0]), minitorch.tensor([-1.0, -1.0]))
    tensor([ 2.3562, -2.3562])
    >>> minitorch.logaddexp(minitorch.tensor([1000.0]), minitorch.tensor([1000.0]))
    tensor([1000.6932])
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module, onto_device_of, to_numpy
from minitorch._tensor import Tensor, _wrap, check_cast, check_shape
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops import arithmetic
from minitorch.ops._util import (
    as_tensor,
    broadcast_error,
    check_tensor,
    float_type,
    fused_multiply_add,
    normalize_dims,
    operands,
    quietly,
)
from minitorch.ops.arithmetic import (
    AddScalar,
    FloorDivide,
    MulScalar,
    SubScalar,
    _check_int_zero,
    _keeping_first,
    _times,
    remainder,
    where,
)
from minitorch.ops.pointwise import _P, _Q, _R, _S, _poly, erf_array, one_minus
from minitorch.ops.unary import Ceil, Sgn, _check_not_bool, sign

__all__ = [
    "tan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh",
    "deg2rad", "rad2deg", "sinc", "erfc", "logit", "trunc", "fix", "frac", "sgn", "signbit",
    "positive", "atan2", "arctan2", "hypot", "copysign", "logaddexp", "logaddexp2", "xlogy",
    "fmax", "fmin", "fmod", "addcmul", "addcdiv", "count_nonzero", "float_power", "ldexp",
    "nextafter", "heaviside", "gcd", "lcm", "i0",
]


def _float(a: Tensor) -> np.ndarray:
    return a._data.astype(float_type(a), copy=False)


def _in_float32(np_fn, *arrays):
    """``np_fn`` of float16 arrays computed in float32 and rounded once, as PyTorch's kernels
    compute float16 (other dtypes as they are)."""
    if arrays[0].dtype.char != "e":
        return np_fn(*arrays)
    return np_fn(*(x.astype(np.float32) if x.dtype.char == "e" else x for x in arrays)
                 ).astype(np.float16)


# ---------------------------------------------------------------- functions of one tensor
class _OfInput(Function):
    """A float function of one tensor: ``_compute`` on its array (float32 for an integer or bool
    tensor), and ``derivative`` of its input (``_OfOutput``: of its output), which backward
    multiplies the gradient by. Both are written next to each other in each subclass."""

    _builtin = True

    @classmethod
    def forward(cls, a):
        return _wrap(quietly(_in_float32, cls._compute, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @classmethod
    def backward(cls, ctx, grad):
        (saved,) = ctx.saved_tensors
        return grad * cls.derivative(saved)


def _save_input_and_output(ctx, inputs, output):
    """A ``setup_context`` that saves the (first) input and the output for backward."""
    ctx.save_for_backward(inputs[0], output)


class _OfOutput(_OfInput):
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)


class Tan(_OfOutput):
    node_name = "TanBackward0"
    _builtin = True
    _compute = staticmethod(np.tan)
    derivative = staticmethod(lambda out: AddScalar.apply(out.pow(2), 1))  # 1 + tan(a)^2


class Sinh(_OfInput):
    node_name = "SinhBackward0"
    _builtin = True
    _compute = staticmethod(np.sinh)
    derivative = staticmethod(lambda a: cosh(a))


class Cosh(_OfInput):
    node_name = "CoshBackward0"
    _builtin = True
    _compute = staticmethod(np.cosh)
    derivative = staticmethod(lambda a: sinh(a))


class Asinh(_OfInput):
    node_name = "AsinhBackward0"
    _builtin = True
    _compute = staticmethod(np.arcsinh)
    derivative = staticmethod(lambda a: AddScalar.apply(a.pow(2), 1).rsqrt())  # 1/sqrt(a^2+1)


class Acosh(_OfInput):
    node_name = "AcoshBackward0"
    _builtin = True
    _compute = staticmethod(np.arccosh)
    # 1 / sqrt(a^2 - 1): inf at 1, NaN below
    derivative = staticmethod(lambda a: SubScalar.apply(a * a, 1).rsqrt())


class Atanh(_OfInput):
    node_name = "AtanhBackward0"
    _builtin = True
    _compute = staticmethod(np.arctanh)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors  # grad / (1 - a^2): +-inf at +-1 (the 1 a tensor, as PyTorch's)
        return grad / one_minus(a.pow(2))


_DEG = math.pi / 180


class Deg2Rad(Function):
    """``x * (pi / 180)``, computed as ``x * number`` is (float16 in float32)."""

    node_name = "Deg2RadBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(_times(_float(a), _DEG))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # a constant factor

    @staticmethod
    def backward(ctx, grad):
        return grad * _DEG


class Rad2Deg(Deg2Rad):
    node_name = "Rad2DegBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(_times(_float(a), 1 / _DEG))

    @staticmethod
    def backward(ctx, grad):
        return grad * (1 / _DEG)


def _sinc_array(x):
    """``sin(pi x) / (pi x)``, 1 at 0, as PyTorch's kernel (``pi x`` rounded in the dtype)."""
    product = x * x.dtype.type(math.pi)
    return array_module(x).where(x == 0, x.dtype.type(1), np.sin(product) / product)


class Sinc(_OfInput):
    node_name = "SincBackward0"
    _builtin = True
    _compute = staticmethod(_sinc_array)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        # (pi a cos(pi a) - sin(pi a)) / (pi a^2), taken as 0 at a = 0 (PyTorch's formula)
        a_pi = MulScalar.apply(a, math.pi)
        a_squared_pi = MulScalar.apply(a * a, math.pi)
        out = grad * (((a_pi * a_pi.cos()) - a_pi.sin()) / a_squared_pi)
        return where(a_squared_pi == 0.0, 0.0, out)


def erfc_array(x):
    """``1 - erf(x)`` of a floating-point array without the cancellation for a large ``x``:
    Cephes' ``exp(-x^2) P(|x|) / Q(|x|)`` from ``|x| >= 1`` (``erf_array``'s tail), computed in
    float64 and returned in ``x``'s dtype."""
    xp = array_module(x)
    v = x.astype(np.float64)
    a = xp.abs(v)
    with np.errstate(all="ignore"):
        tail = xp.exp(-v * v) * xp.where(a < 8.0, _poly(a, _P) / _poly(a, _Q, monic=True),
                                         _poly(a, _R) / _poly(a, _S, monic=True))
        tail = xp.where(a >= 27.3, 0.0, tail)  # erfc underflows (and P/Q overflows by 1e200)
        out = xp.where(a < 1.0, 1.0 - erf_array(v), xp.where(v < 0, 2.0 - tail, tail))
    return xp.where(xp.isnan(v), np.nan, out).astype(x.dtype, copy=False)


class Erfc(_OfInput):
    node_name = "ErfcBackward0"
    _builtin = True
    _compute = staticmethod(erfc_array)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors  # -2 / sqrt(pi) exp(-a^2), in PyTorch's order
        return MulScalar.apply((-a.pow(2)).exp(), -2.0 / math.sqrt(math.pi)) * grad


class Logit(Function):
    """``log(x / (1 - x))``, with ``x`` first clamped to ``[eps, 1 - eps]`` when ``eps`` is a
    number >= 0 (a negative one counts as None, as in PyTorch's kernel). float16 is computed in
    float16, each step rounded, as PyTorch's kernel does."""

    node_name = "LogitBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(a, eps):
        x = _float(a)
        one = x.dtype.type(1)
        if eps >= 0:  # x < lo ? lo : (x > hi ? hi : x): NaN passes
            lo = x.dtype.type(eps)
            hi = one - lo  # in the dtype, as PyTorch's kernel
            xp = array_module(x)
            x = xp.where(x < lo, lo, xp.where(x > hi, hi, x))
        return _wrap(quietly(lambda v: np.log(v / (one - v)), x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, ctx.eps = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        eps = ctx.eps
        lo, hi, outside = (0.0, 1.0, math.nan) if eps < 0 else (eps, 1 - eps, 0.0)
        # 1 / (a (1 - a)), outside [lo, hi] NaN (no eps) or 0 (where the input was clamped)
        slope = a * one_minus(a)
        if grad_mode.is_grad_enabled():  # create_graph: PyTorch's differentiable formula
            return where((a >= lo) & (a <= hi), grad / slope, outside)  # (NaN: outside)
        # PyTorch's kernel: a NaN stays NaN, and at a = 0 and 1 the slope is infinite, grad *
        # inf, also at a = -0.0, whose a (1 - a) is -0.0: adding 0.0 makes it +0.0
        return where((a < lo) | (a > hi), outside, grad / (slope + 0.0))


class Trunc(Ceil):
    """``trunc``: round toward zero (derivative 0; integers stay as they are)."""

    node_name = "TruncBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        _check_not_bool(a, "trunc")
        return _wrap(np.trunc(a._data)) if a._data.dtype.kind == "f" else _wrap(a._data.copy())


class Frac(Function):
    """``x - trunc(x)``: the gradient passes unchanged."""

    node_name = "FracBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        x = a._data
        if x.dtype.kind != "f":
            raise NotImplementedError(f"\"frac_cpu\" not implemented for '{a.dtype._legacy[:-6]}'")
        return _wrap(quietly(np.subtract, x, np.trunc(x)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad


def _unary(cls, name: str, doc: str, alias_of: str | None = None):
    """The public function of a one-tensor Function ``cls``, with PyTorch's TypeError for an
    argument that is not a tensor (``alias_of``: the name PyTorch's ``out=`` errors use)."""
    def fn(input: Tensor) -> Tensor:  # noqa: A002
        check_tensor(input, name, "input", 1)
        return cls.apply(input)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    fn.out_name = alias_of or name
    return fn


tan = _unary(Tan, "tan", "Tangent, elementwise.")
sinh = _unary(Sinh, "sinh", "Hyperbolic sine, elementwise.")
cosh = _unary(Cosh, "cosh", "Hyperbolic cosine, elementwise.")
asinh = _unary(Asinh, "asinh", "Inverse hyperbolic sine.")
acosh = _unary(Acosh, "acosh", "Inverse hyperbolic cosine (NaN below 1).")
atanh = _unary(Atanh, "atanh", "Inverse hyperbolic tangent (+-inf at +-1, NaN outside).")
deg2rad = _unary(Deg2Rad, "deg2rad", "Degrees to radians: ``input * pi / 180``.")
rad2deg = _unary(Rad2Deg, "rad2deg", "Radians to degrees: ``input * 180 / pi``.")
sinc = _unary(Sinc, "sinc", "The normalized sinc function ``sin(pi x) / (pi x)``, 1 at 0.")
erfc = _unary(Erfc, "erfc", "The complementary error function ``1 - erf(x)``, accurate for "
              "a large ``x``.")
trunc = _unary(Trunc, "trunc", "Round toward zero (integers stay as they are).")
frac = _unary(Frac, "frac", "The fractional part ``input - trunc(input)``, with the sign of "
              "``input``.")
sgn = _unary(Sgn, "sgn", "The sign of each element (for real numbers, the same as ``sign``).")
arcsinh = _unary(Asinh, "arcsinh", "``asinh``, under NumPy's name.", "asinh")
arccosh = _unary(Acosh, "arccosh", "``acosh``, under NumPy's name.", "acosh")
arctanh = _unary(Atanh, "arctanh", "``atanh``, under NumPy's name.", "atanh")
fix = _unary(Trunc, "fix", "``trunc``, under NumPy's name.", "trunc")


def _raising(error: type, message: str):
    """A backward that raises PyTorch's error, for an operation PyTorch has no derivative of."""
    def backward(ctx, grad):
        raise error(message)
    return staticmethod(backward)


def _no_inplace_derivative(name: str):
    return _raising(NotImplementedError,
                    f"the derivative for 'inplace version of {name}' is not implemented.")


# PyTorch records ``asinh_``, ``acosh_`` and ``atanh_`` under nodes of their own, whose
# backward is not implemented: a graph through them cannot be differentiated.
class AsinhInplace(Asinh):
    node_name = "AsinhBackward1"
    _builtin = True
    backward = _no_inplace_derivative("asinh")


class AcoshInplace(Acosh):
    node_name = "AcoshBackward1"
    _builtin = True
    backward = _no_inplace_derivative("acosh")


class AtanhInplace(Atanh):
    node_name = "AtanhBackward1"
    _builtin = True
    backward = _no_inplace_derivative("atanh")


def logit(input: Tensor, eps: float | None = None) -> Tensor:  # noqa: A002
    """``log(p / (1 - p))``, the inverse of ``sigmoid``; with ``eps``, ``p`` is first clamped to
    ``[eps, 1 - eps]`` (so 0 and 1 give finite values and a zero gradient)."""
    check_tensor(input, "logit", "input", 1)
    return Logit.apply(input, _eps(eps, "logit"))


def _eps(eps, name: str) -> float:
    """``logit``'s ``eps`` as a float (None is -1: no clamping), with PyTorch's TypeError."""
    if eps is not None and not isinstance(eps, numbers.Real):
        raise TypeError(f"{name}(): argument 'eps' must be float, not {type(eps).__name__}")
    return -1.0 if eps is None else float(eps)


def _logit_(self: Tensor, eps: float | None = None) -> Tensor:
    """``x.logit_(eps)``: ``logit`` written into ``x``."""
    return self._inplace(Logit.apply, _eps(eps, "logit_"))


def signbit(input: Tensor) -> Tensor:  # noqa: A002
    """Whether the sign bit of each element is set: True for negative numbers, ``-0.0`` and a
    NaN with its sign bit set (a bool tensor, never recorded in the graph)."""
    check_tensor(input, "signbit", "input", 1)
    x = input._data
    return _wrap(np.signbit(x) if x.dtype.kind != "b" else array_module(x).zeros_like(x))


def positive(input: Tensor) -> Tensor:  # noqa: A002
    """``+input``: the tensor itself (PyTorch refuses a bool tensor)."""
    check_tensor(input, "positive", "input", 1)
    if input._data.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


# ---------------------------------------------------------------- functions of two tensors
def _float_operands(a: Tensor, b: Tensor, kernel: str | None = None):
    """The arrays of ``a`` and ``b`` in the dtype a float function of both computes in: their
    promoted dtype, or for integers and bools the default float (each made a float from its own
    dtype). ``kernel``: the op has no integer kernel in PyTorch, which raises this error."""
    d = _dtype.result_type(a, b)
    if d.np.kind != "f":
        if kernel is not None:
            raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{d._legacy[:-6]}'")
        d = _dtype.get_default_dtype()
    x, y = a._data, b._data
    if type(x) is not type(y):  # a 0-d CPU tensor meets a device tensor: move it there
        x, y = operands(a, b)
    return x.astype(d.np, copy=False), y.astype(d.np, copy=False)


def _broadcasting(np_fn, a: Tensor, b: Tensor, x, y, float16_in_float32=True) -> Tensor:
    """``np_fn(x, y)`` (float16 in float32, unless told not to), with PyTorch's error when ``a``
    and ``b`` do not broadcast."""
    try:
        if float16_in_float32:
            return _wrap(quietly(_in_float32, np_fn, x, y))
        return _wrap(quietly(np_fn, x, y))
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None


class _OfTwoFloats(Function):
    """A float function of two tensors, ``_compute`` on their arrays (``_kernel``: PyTorch's
    kernel name when it has none for integers); backward gets both inputs."""

    _builtin = True
    _kernel = None
    _float16_in_float32 = True

    @classmethod
    def forward(cls, a, b):
        return _broadcasting(cls._compute, a, b, *_float_operands(a, b, cls._kernel),
                             cls._float16_in_float32)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @classmethod
    def _of_edges(cls, grads: tuple):
        """The gradients of the arguments that have edges: both, or (for a subclass that takes
        a Python number, listed in ``_edge_args``) the tensor's alone."""
        if cls._edge_args is None:
            return grads
        (i,) = cls._edge_args
        return grads[i]


class Atan2(_OfTwoFloats):
    node_name = "Atan2Backward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _compute = staticmethod(np.arctan2)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d atan2(a, b) = (b da - a db) / (a^2 + b^2), taken as 0 at a = b = 0
        denom = a * a + b * b
        recip = denom.reciprocal().masked_fill(denom == 0, 0.0)
        need_a, need_b = ctx.needs_input_grad
        return (grad * b * recip if need_a else None,
                grad * -a * recip if need_b else None)


class Hypot(_OfTwoFloats):
    node_name = "HypotBackward0"
    _builtin = True
    pack_order = (1, 0, 2)  # saved_tensors_hooks: PyTorch's pack order
    _compute = staticmethod(np.hypot)
    _kernel = "hypot"

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs, output)

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors  # a / hypot(a, b): NaN at (0, 0), as in PyTorch
        need_a, need_b = ctx.needs_input_grad
        return (grad * a / out if need_a else None, grad * b / out if need_b else None)


def _logaddexp_array(x, y, exp_fn=np.exp, scale=None):
    """``max + log1p(exp(-|x - y|))`` as PyTorch's kernel (``x`` where both are the same
    infinity); with ``exp2`` and the scale ``1 / ln 2``, ``logaddexp2``."""
    xp = array_module(x)
    terms = np.log1p(exp_fn(-xp.abs(x - y)))
    if scale is not None:
        terms = terms * x.dtype.type(scale)
    out = xp.maximum(x, y) + terms
    return xp.where((x == y) & (xp.abs(x) == np.inf), x, out)


class Logaddexp(_OfTwoFloats):
    node_name = "LogaddexpBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _compute = staticmethod(_logaddexp_array)
    _kernel = "logaddexp"
    _exp = staticmethod(lambda t: t.exp())

    @classmethod
    def backward(cls, ctx, grad):
        a, b = ctx.saved_tensors  # d/da = 1 / (1 + exp(b - a)): a softmax weight
        need_a, need_b = ctx.needs_input_grad
        return (grad / AddScalar.apply(cls._exp(b - a), 1) if need_a else None,
                grad / AddScalar.apply(cls._exp(a - b), 1) if need_b else None)


class Logaddexp2(Logaddexp):
    """``logaddexp`` in base 2: ``d/da = 1 / (1 + 2^(b - a))``."""

    node_name = "Logaddexp2Backward0"
    _builtin = True
    _compute = staticmethod(lambda x, y: _logaddexp_array(x, y, np.exp2, 1 / math.log(2)))
    _kernel = "logaddexp2"
    _exp = staticmethod(lambda t: 2 ** t)  # (pow(2, t): PyTorch's PowBackward2)


class Copysign(_OfTwoFloats):
    """``|a|`` with the sign of ``b``; ``b`` gets a zero gradient (a tensor of zeros)."""

    node_name = "CopysignBackward0"
    _builtin = True
    _compute = staticmethod(np.copysign)
    setup_context = staticmethod(_save_input_and_output)

    @classmethod
    def backward(cls, ctx, grad):
        a, out = ctx.saved_tensors
        ratio = (out / a).masked_fill(a == 0, 0.0)  # +-1, taken as 0 at a = 0
        need_a, need_b = ctx.needs_input_grad
        return cls._of_edges((grad * ratio if need_a else None,
                              grad.new_zeros(grad.shape) if need_b else None))


class CopysignNumber(Copysign):
    """``copysign(a, number)``: only the tensor has an edge."""

    node_name = "CopysignBackward1"
    _builtin = True
    _edge_args = (0,)


def _xlogy_array(x, y):
    """``x log(y)``, 0 where ``x == 0`` unless ``y`` is NaN (PyTorch's kernel)."""
    xp = array_module(x)
    out = xp.where(x == 0, x.dtype.type(0), x * np.log(y))
    return xp.where(xp.isnan(y), y, out)


class Xlogy(_OfTwoFloats):
    """``x log(y + shift)`` (``shift`` 0 here, 1 for ``special.xlog1py``)."""

    node_name = "XlogyBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _compute = staticmethod(_xlogy_array)
    shift = 0.0

    @classmethod
    def backward(cls, ctx, grad):
        a, b = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        # d/da = log(b + shift), taken as 0 at a == 0, b + shift <= 0 (the derivative along
        # a = 0); d/db = a / (b + shift)
        ga = (cls._base.apply(grad, b).masked_fill((a == 0.0) & (b <= -cls.shift), 0.0)
              if need_a else None)
        return cls._of_edges((ga, grad * a / (b + cls.shift if cls.shift else b)
                              if need_b else None))


Xlogy._base = Xlogy  # the function of two tensors, for the gradient of a


class XlogyNumberOther(Xlogy):
    """``xlogy(tensor, number)``: only the tensor has an edge."""

    node_name = "XlogyBackward2"
    _builtin = True
    _edge_args = (0,)
    pack_order, pack_skip = (0,), (1,)  # saved_tensors_hooks: the number is not packed


class XlogyNumberSelf(Xlogy):
    """``xlogy(number, tensor)``: only the tensor has an edge."""

    node_name = "XlogyBackward1"
    _builtin = True
    _edge_args = (1,)
    pack_order, pack_skip = (1,), (0,)  # saved_tensors_hooks: the number is not packed


class Fmax(_OfTwoFloats):
    """The larger of two numbers, ignoring NaN. A tie's gradient goes to ``a``."""

    node_name = "FmaxBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _compute = staticmethod(_keeping_first(np.fmax))  # a tie gives a (-0.0 against 0.0)

    @classmethod
    def forward(cls, a, b):
        x, y = operands(a, b)  # integers and bools keep their dtype
        return _broadcasting(cls._compute, a, b, x, y)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _to_winner(grad, (a >= b) | b.isnan(), ctx.needs_input_grad)


class Fmin(Fmax):
    node_name = "FminBackward0"
    _builtin = True
    _compute = staticmethod(_keeping_first(np.fmin))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _to_winner(grad, (a <= b) | b.isnan(), ctx.needs_input_grad)


def _to_winner(grad, a_wins, needs):
    """The whole gradient to ``a`` where ``a_wins``, else to ``b`` (PyTorch's masked fills)."""
    need_a, need_b = needs
    return (grad.masked_fill(~a_wins, 0) if need_a else None,
            grad.masked_fill(a_wins, 0) if need_b else None)


def _fmod_array(x, y):
    if x.dtype == np.bool_:
        raise NotImplementedError("\"fmod_cpu\" not implemented for 'Bool'")
    _check_int_zero(y)
    return np.fmod(x, y)


class Fmod(Fmax):
    """``a - trunc(a / b) * b``: the remainder with the sign of ``a`` (C's ``fmod``)."""

    node_name = "FmodBackward1"
    _builtin = True
    _compute = staticmethod(_fmod_array)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d/da = 1, d/db = -trunc(a / b)
        return grad, (-grad * a.div(b, rounding_mode="trunc") if ctx.needs_input_grad[1]
                      else None)


class FmodNumber(Fmod):
    """``fmod(tensor, number)``: only the tensor has an edge."""

    node_name = "FmodBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        return grad


def _tensor_args(name: str, a, b) -> None:
    """PyTorch's TypeError for a function of two tensors given something else."""
    check_tensor(a, name, "input", 1)
    check_tensor(b, name, "other", 2)


def _numbers_allowed(name: str, a, b, number_self: bool = False, out=None) -> None:
    """PyTorch's TypeError for a function of a tensor and a tensor or a number (``number_self``:
    or of a number and a tensor) given something else (or an ``out`` that is not a tensor)."""
    ok_a = isinstance(a, Tensor) or (number_self and isinstance(a, numbers.Number)
                                     and isinstance(b, Tensor))
    ok_out = out is None or isinstance(out, Tensor)
    if ok_a and isinstance(b, (Tensor, numbers.Number)) and ok_out:
        return
    tried = ["Tensor input, Tensor other", *(["Number self, Tensor other"] if number_self else []),
             "Tensor input, Number other"]
    words = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in (a, b))
    words += "" if ok_out else f", out={type(out).__name__}"
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({words}), "
                    "but expected one of:\n"
                    + "".join(f" * ({t}, *, Tensor out = None)\n" for t in tried))



def _of_two_tensors(cls, name: str, doc: str, alias_of: str | None = None):
    """The public function of a Function ``cls`` of two tensors, with PyTorch's TypeError for an
    argument that is not a tensor (``alias_of``: the name PyTorch's ``out=`` errors use)."""
    def fn(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
        _tensor_args(name, input, other)
        return cls.apply(input, other)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    fn.out_name = alias_of or name
    return fn


atan2 = _of_two_tensors(Atan2, "atan2", "The angle of the point ``(other, input)``: "
                        "``atan(input / other)`` in the right quadrant, in ``[-pi, pi]``.")
arctan2 = _of_two_tensors(Atan2, "arctan2", "``atan2``, under NumPy's name.", "atan2")
hypot = _of_two_tensors(Hypot, "hypot", "``sqrt(input^2 + other^2)`` without overflow in the "
                        "squares.")
logaddexp = _of_two_tensors(Logaddexp, "logaddexp", "``log(exp(input) + exp(other))`` without "
                            "overflow.")
logaddexp2 = _of_two_tensors(Logaddexp2, "logaddexp2", "``log2(2^input + 2^other)`` without "
                             "overflow.")
fmax = _of_two_tensors(Fmax, "fmax", "The elementwise maximum, where a NaN loses to a number "
                       "(``maximum`` propagates it).")
fmin = _of_two_tensors(Fmin, "fmin", "The elementwise minimum, where a NaN loses to a number.")


def copysign(input: Tensor, other) -> Tensor:  # noqa: A002
    """``|input|`` with the sign of ``other`` (a tensor or a number; ``-0.0`` is negative)."""
    _numbers_allowed("copysign", input, other)
    if isinstance(other, Tensor):
        return Copysign.apply(input, other)
    return CopysignNumber.apply(input, _float_number(other, input))


def xlogy(input, other) -> Tensor:  # noqa: A002
    """``input * log(other)``, 0 where ``input`` is 0 (even where ``log(other)`` is -inf), NaN
    where ``other`` is NaN. Either may be a number."""
    _numbers_allowed("xlogy", input, other, number_self=True)
    if not isinstance(input, Tensor):
        return XlogyNumberSelf.apply(_float_number(input, other), other)
    if not isinstance(other, Tensor):
        return XlogyNumberOther.apply(input, _float_number(other, input))
    return Xlogy.apply(input, other)


def _float_number(number, like: Tensor) -> Tensor:
    """A number next to ``like`` in a function with a float result: as a float, so that -1 next
    to a uint8 tensor is -1.0 and not 255."""
    return as_tensor(number if like._data.dtype.kind == "f" else float(number), like)


def fmod(input: Tensor, other) -> Tensor:  # noqa: A002
    """The remainder of ``input / other`` with the sign of ``input`` (``remainder`` takes the
    sign of ``other``). Integer ``fmod(x, 0)`` raises, as in PyTorch."""
    _numbers_allowed("fmod", input, other)
    if isinstance(other, Tensor):
        return Fmod.apply(input, other)
    return FmodNumber.apply(input, as_tensor(other, input))


# ---------------------------------------------------------------- addcmul, addcdiv
class Addcmul(Function):
    """``input + value * tensor1 * tensor2``; ``(value * tensor1) * tensor2 + input`` rounded
    once, as PyTorch's CPU kernel (a fused multiply-add)."""

    node_name = "AddcmulBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(a, t1, t2, value):
        x, y, z = _three_operands(a, t1, t2, "addcmul_cpu_out")
        if x.dtype.kind != "f":  # the value in the integer dtype (0.5 is 0), as PyTorch
            return _wrap(x + x.dtype.type(value) * y * z)
        if x.dtype.char == "e":  # in float32, rounded once
            return _wrap(_in_float32(lambda *f32: _addcmul_array(*f32, value), x, y, z))
        return _wrap(quietly(_addcmul_array, x, y, z, value))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, t1, t2, ctx.value = inputs
        ctx.save_for_backward(t1, t2)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        value = ctx.value
        need_t1, need_t2 = ctx.needs_input_grad[1:3]
        return (grad, grad * MulScalar.apply(t2, value) if need_t1 else None,
                grad * MulScalar.apply(t1, value) if need_t2 else None)


def _addcmul_array(x, y, z, value):
    return fused_multiply_add(y if value == 1 else x.dtype.type(value) * y, z, x)


class Addcdiv(Addcmul):
    """``input + value * tensor1 / tensor2``, as ``input + (value * tensor1) / tensor2``."""

    node_name = "AddcdivBackward0"
    _builtin = True

    @staticmethod
    def forward(a, t1, t2, value):
        if t1._data.dtype.kind != "f" and t2._data.dtype.kind != "f":
            raise RuntimeError(
                "Integer division with addcdiv is no longer supported, and in a future  release "
                "addcdiv will perform a true division of tensor1 and tensor2. The historic "
                "addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / "
                "tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / "
                "tensor2) for float inputs. The future addcdiv behavior is just the latter "
                "implementation: (input + value * tensor1 / tensor2), for all dtypes.")
        x, y, z = _three_operands(a, t1, t2, None)
        return _wrap(quietly(_in_float32, lambda *f: f[0] + f[0].dtype.type(value) * f[1] / f[2],
                             x, y, z))

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        value = ctx.value
        need_t1, need_t2 = ctx.needs_input_grad[1:3]
        # d/dt1 = value / t2, d/dt2 = -value t1 / t2^2 (PyTorch's order of operations; the
        # value a 0-d tensor in value / t2)
        ratio = (_wrap(onto_device_of(np.array(value, t2._data.dtype), t2._data)) / t2
                 if t2._data.dtype.kind == "f" else value / t2)
        return (grad, grad * ratio if need_t1 else None,
                -grad * (MulScalar.apply(t1, value) / (t2 * t2)) if need_t2 else None)


def _three_operands(a, t1, t2, kernel):
    """The three arrays in their promoted dtype, with PyTorch's errors for bools and shapes."""
    d = _dtype.promote_types(_dtype.result_type(a, t1), _dtype.result_type(a, t2))
    d = _dtype.promote_types(d, _dtype.result_type(t1, t2))
    if d is _dtype.bool and kernel is not None:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    x, y, z = (t._data.astype(d.np, copy=False) for t in (a, t1, t2))
    try:
        np.broadcast_shapes(y.shape, z.shape)
    except ValueError:
        raise broadcast_error(y.shape, z.shape) from None
    try:
        np.broadcast_shapes(x.shape, y.shape, z.shape)
    except ValueError:
        raise broadcast_error(x.shape, np.broadcast_shapes(y.shape, z.shape)) from None
    return x, y, z


def _check_addc(name: str, args: tuple, value) -> None:
    for i, (t, arg) in enumerate(zip(args, ("input", "tensor1", "tensor2"))):
        check_tensor(t, name, arg, i + 1)
    if not isinstance(value, numbers.Number):
        raise TypeError(f"{name}(): argument 'value' must be Number, not {type(value).__name__}")


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 * tensor2`` (the three broadcast together)."""
    _check_addc("addcmul", (input, tensor1, tensor2), value)
    return Addcmul.apply(input, tensor1, tensor2, value)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 / tensor2`` (Adam's step is ``p.addcdiv_(m, denom,
    value=-lr)``)."""
    _check_addc("addcdiv", (input, tensor1, tensor2), value)
    return Addcdiv.apply(input, tensor1, tensor2, value)


def count_nonzero(input: Tensor, dim=None) -> Tensor:  # noqa: A002
    """The number of non-zero elements (along ``dim``: an int or a tuple of ints), as int64."""
    check_tensor(input, "count_nonzero", "input", 1)
    x = input._data
    dims = normalize_dims(dim, x.ndim) if dim is not None else None
    xp = array_module(x)
    return _wrap(xp.asarray(xp.count_nonzero(x, axis=dims), dtype=np.int64))


# ---------------------------------------------------------------- powers of two, neighbours
def float_power(input, exponent) -> Tensor:  # noqa: A002
    """``input ** exponent`` computed in float64 (the result is float64 whatever the inputs):
    both are converted first, as PyTorch does (``ToCopyBackward0`` nodes, then ``pow``'s)."""
    if not all(isinstance(v, (Tensor, numbers.Number)) for v in (input, exponent)) or not (
            isinstance(input, Tensor) or isinstance(exponent, Tensor)):
        raise TypeError(
            f"float_power() received an invalid combination of arguments - got "
            f"({type(input).__name__}, {type(exponent).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
            " * (Number self, Tensor exponent, *, Tensor out = None)\n"
            " * (Tensor input, Number exponent, *, Tensor out = None)\n")
    return arithmetic.pow(*(v.to(_dtype.float64) if isinstance(v, Tensor) else float(v)
                 for v in (input, exponent)))


def _float_power_(self: Tensor, exponent) -> Tensor:
    """``x.float_power_(e)``: only a float64 ``x`` can hold the float64 result."""
    if self.dtype is not _dtype.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {self.dtype._legacy[:-6]} "
                           "but the operation's result requires dtype Double")
    return self._inplace(float_power, exponent)


def _ldexp_array(x, e):
    """``x * 2 ** e``; for an integer ``e``, C's ``ldexp``, as PyTorch: exact, and ``0 * 2**5000``
    is 0 (past +-2**16 the result is 0 or inf anyway)."""
    if e.dtype.kind in "iub":
        wide = e.astype(np.int64, copy=False)  # (CuPy clips in e's own dtype: -2**16 is no int8)
        return np.ldexp(x, array_module(e).clip(wide, -2**16, 2**16).astype(np.int32))
    return x * np.exp2(e)


class Ldexp(_OfTwoFloats):
    """``a * 2 ** b``: ``d/da = 2 ** b``, ``d/db = a 2 ** b ln 2`` (the result times ln 2)."""

    node_name = "LdexpBackward0"
    _builtin = True

    @staticmethod
    def forward(a, b):
        x, y = _float_operands(a, b)
        if b._data.dtype.kind in "iub":  # the integer exponent itself
            y = b._data if type(b._data) is type(x) else array_module(x).asarray(b._data)
        return _broadcasting(_ldexp_array, a, b, x, y)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[1], output)

    @staticmethod
    def backward(ctx, grad):
        b, out = ctx.saved_tensors
        need_a, need_b = ctx.needs_input_grad
        return (grad * 2 ** b if need_a else None,  # (pow(2, b), as PyTorch's formula)
                MulScalar.apply(grad * out, math.log(2.0)) if need_b else None)


class Nextafter(_OfTwoFloats):
    """The next float after ``a`` toward ``b``. PyTorch passes the gradient to ``a`` as if it
    were the identity, but where ``a == b`` (the result is ``b``), and gives ``b`` zeros."""

    node_name = "NextafterBackward0"
    _builtin = True
    _compute = staticmethod(np.nextafter)
    _kernel = "nextafter"
    _float16_in_float32 = False  # the next float16, not the next float32 rounded back

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (where(a == b, 0.0, grad),
                grad.new_zeros(grad.shape) if ctx.needs_input_grad[1] else None)


class Heaviside(Function):
    """The step function: 0 below 0, ``values`` at 0, 1 above (NaN counts as below, as in
    PyTorch's kernel). PyTorch has no derivative for it."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def forward(a, values):
        x, v = a._data, values._data
        if x.dtype != v.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different "
                               "dtypes.")
        xp = array_module(x)
        try:
            return _wrap(xp.where(x == 0, v, (x > 0).astype(x.dtype)))
        except ValueError:
            raise broadcast_error(a.shape, values.shape) from None

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    backward = _raising(RuntimeError, "derivative for aten::heaviside is not implemented")


class HeavisideInplace(Heaviside):
    """``heaviside_``: PyTorch's error names the in-place operation."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    backward = _raising(RuntimeError, "derivative for aten::heaviside_ is not implemented")


def _integer_operands(a: Tensor, b: Tensor, kernel: str):
    """The arrays of two integer tensors in their promoted dtype (PyTorch's error for others)."""
    try:  # PyTorch checks the shapes first
        np.broadcast_shapes(a._data.shape, b._data.shape)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    d = _dtype.result_type(a, b)
    if d.np.kind not in "iu":
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{d._legacy[:-6]}'")
    return operands(a, b)


ldexp = _of_two_tensors(Ldexp, "ldexp", "``input * 2 ** other`` (exact, but for overflow and "
                        "underflow).")
nextafter = _of_two_tensors(Nextafter, "nextafter", "The next floating-point number after "
                            "``input`` in the direction of ``other``.")


def heaviside(input: Tensor, values: Tensor) -> Tensor:  # noqa: A002
    """The Heaviside step: 0 where ``input < 0``, 1 where ``input > 0``, and ``values`` where it
    is 0 (both of one dtype)."""
    check_tensor(input, "heaviside", "input", 1)
    check_tensor(values, "heaviside", "values", 2)
    return Heaviside.apply(input, values)


# PyTorch's out= errors name these by their ATen names (they have no derivative formula)
heaviside.out_name = "aten::heaviside"


def gcd(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The greatest common divisor of integers (never negative; ``gcd(0, 0)`` is 0)."""
    _tensor_args("gcd", input, other)
    return _broadcasting(_gcd_array, input, other, *_integer_operands(input, other, "gcd"))


def _gcd_array(x, y):
    """Euclid's algorithm on ``|x|`` and ``|y|`` with C's remainder, as PyTorch's kernel (so that
    ``gcd(-2**63, 6)``, where ``|x|`` overflows, is PyTorch's -2)."""
    xp = array_module(x)
    a, b = xp.broadcast_arrays(xp.abs(x), xp.abs(y))
    while xp.any(a != 0):
        nonzero = a != 0
        a, b = xp.where(nonzero, np.fmod(b, xp.where(nonzero, a, 1)), 0), xp.where(nonzero, a, b)
    return b


def lcm(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The least common multiple of integers (never negative; 0 if either is 0)."""
    _tensor_args("lcm", input, other)
    return _broadcasting(np.lcm, input, other, *_integer_operands(input, other, "lcm"))


gcd.out_name, lcm.out_name = "aten::gcd", "aten::lcm"


# ---------------------------------------------------------------- the Bessel function I0
# Chebyshev coefficients of exp(-x) I1(x) / x on [0, 8] and of exp(-x) sqrt(x) I1(x) on
# [8, inf) (Cephes' i1e, as PyTorch's Math.h has them)
_I1E_A = (
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
    4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
    2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B = (
    7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
    3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
    -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
    7.78576235018280120474E-1)


def _chbevl(x, coefficients):
    """The Chebyshev series ``sum' c_i T_i(x)`` by Clenshaw's recurrence (Cephes' chbevl), in
    ``x``'s dtype."""
    xp = array_module(x)
    b0, b1, b2 = xp.full_like(x, coefficients[0]), xp.zeros_like(x), xp.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + x.dtype.type(c)
    return x.dtype.type(0.5) * (b0 - b2)


def _chbevl32(x, coefficients):
    """``_chbevl`` in float32 as PyTorch's compiled kernel runs it: each step's ``x * b1 -
    b2`` is one fused multiply-add (the product of two float32 is exact in float64)."""
    xp = array_module(x)
    wide = x.astype(np.float64)
    b0, b1, b2 = xp.full_like(x, coefficients[0]), xp.zeros_like(x), xp.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = (wide * b1 - b2).astype(np.float32) + np.float32(c)
    return np.float32(0.5) * (b0 - b2)


def _exp32(a):
    """``expf``: float32's ``exp`` correctly rounded (NumPy's float32 ``exp`` is not always)."""
    return array_module(a).exp(a.astype(np.float64)).astype(np.float32)


def _i1_array(x, scaled: bool = False, full: bool = False):
    """The modified Bessel function ``I1`` (``i0``'s derivative, ``special.i1``): ``exp(|x|)``
    times Cephes' Chebyshev series of ``i1e``, odd, as PyTorch's ``calc_i1``, and like it in
    float32 in float32, so that it overflows where PyTorch's does: past ``|x| = 88.72`` in
    float32 and 709.78 in float64 (where ``exp`` does; float16 rounds the float64 value).

    (misc2) In float32 as PyTorch's kernels: the series cut to their last 17 and 7
    coefficients (Cephes' float tables), fused steps, ``expf``. ``scaled``: ``i1e``, without
    ``exp(|x|)``; ``full``: ``special.modified_bessel_i1``'s float32 kernel, all the
    coefficients and its own order of products."""
    xp = array_module(x)
    if x.dtype != np.float32:
        v = x.astype(np.float64)
        a = xp.abs(v)
        with np.errstate(all="ignore"):
            scale = 1.0 if scaled else xp.exp(a)
            out = xp.where(a <= 8, scale * a * _chbevl(a / 2 - 2, _I1E_A),
                           scale * _chbevl(32 / a - 2, _I1E_B) / xp.sqrt(a))
        return xp.where(v < 0, -out, out).astype(x.dtype, copy=False)
    f32 = np.float32
    a = xp.abs(x)
    first, second = (_I1E_A, _I1E_B) if full else (_I1E_A[-17:], _I1E_B[-7:])
    with np.errstate(all="ignore"):
        small = _chbevl32(a / f32(2) - f32(2), first)
        large = _chbevl32(f32(32) / a - f32(2), second)
        if scaled:
            small, large = small * a, large / xp.sqrt(a)
        elif full:
            small, large = small * a * _exp32(a), _exp32(a) * large / xp.sqrt(a)
        else:
            small, large = _exp32(a) * a * small, _exp32(a) * large / xp.sqrt(a)
        out = xp.where(a <= 8, small, large)
    return xp.where(x < 0, -out, out)


class I0(_OfInput):
    """``I0``, the modified Bessel function of the first kind of order 0 (NumPy's ``i0``:
    Cephes' Chebyshev series, as PyTorch's)."""

    node_name = "I0Backward0"
    _builtin = True
    # (on the host: CuPy's i0 is another series, NaN at inf)
    _compute = staticmethod(lambda x: array_module(x).asarray(
        np.i0(to_numpy(x)).astype(x.dtype, copy=False)))
    derivative = staticmethod(lambda a: I1.apply(a))


class I1(_OfInput):
    """``I1``, recorded as PyTorch's ``special_i1``, so that ``i0``'s second derivative works."""

    node_name = "SpecialI1Backward0"
    _builtin = True
    _compute = staticmethod(_i1_array)
    setup_context = staticmethod(_save_input_and_output)

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        # d I1(a)/da = I0(a) - I1(a) / a, which is 1/2 at a = 0 (PyTorch's i1_backward: a
        # tiny a is replaced by eps in the formula, and its gradient by 1/2)
        eps = float(np.finfo(a._data.dtype).eps)
        not_tiny = a.abs() > eps
        safe = where(not_tiny, a, eps)
        return grad * where(not_tiny, I0.apply(safe) - out * safe.reciprocal(), 0.5)


i0 = _unary(I0, "i0", "The modified Bessel function of the first kind of order 0.")


# ---------------------------------------------------------------- comparisons in place
class _ComparisonInPlace(Function):
    """``x.lt_(other)`` and the other comparisons in place: 1 where it holds, else 0, in ``x``'s
    own dtype. Flat: the gradients are zeros. PyTorch names the node ``LtBackward0`` for a
    number ``other``, ``LtBackward1`` for a tensor (the subclasses made by ``_comparison``)."""

    _builtin = True

    @classmethod
    def forward(cls, a, other):
        return _wrap(cls._compare(a, other)._data.astype(a._data.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, grad):
        zeros = grad.new_zeros(grad.shape)
        return zeros if ctx._forward_cls._edge_args == (0,) else (zeros, zeros)


def _comparison(compare, node: str) -> type:
    """The ``_ComparisonInPlace`` of ``compare`` (``arithmetic.lt``...) recorded as ``node``."""
    edges = (0,) if node.endswith("0") else (0, 1)
    return type(node.replace("Backward", "InPlace"), (_ComparisonInPlace,), {
        "node_name": node, "_builtin": True, "_edge_args": edges,
        "_compare": staticmethod(compare)})


def _comparison_method(compare, name: str, node: str):
    """``x.<name>_(other)``, recorded as ``<node>Backward0`` (a number) or ``...1`` (a tensor)."""
    with_number, with_tensor = _comparison(compare, node + "Backward0"), _comparison(
        compare, node + "Backward1")

    def method(self, other):
        cls = with_tensor if isinstance(other, Tensor) else with_number
        return self._inplace(cls.apply, other)
    method.__name__ = method.__qualname__ = name + "_"
    return method


_COMPARISONS = {"eq": "Eq", "ne": "Ne", "lt": "Lt", "le": "Le", "gt": "Gt", "ge": "Ge",
                "not_equal": "Ne", "greater": "Gt", "greater_equal": "Ge", "less": "Lt",
                "less_equal": "Le"}


# ---------------------------------------------------------------- as Tensor methods
# (``_tensor_methods`` attaches them.) A method counts its arguments from after ``self``, so
# ``x.atan2(2.0)`` names ``other`` as argument 1; PyTorch has no in-place form of the others.
_OTHER_MUST_BE_TENSOR = ("atan2", "arctan2", "hypot", "logaddexp", "logaddexp2", "fmax", "fmin",
                         "ldexp", "nextafter", "gcd", "lcm", "heaviside")
_WITHOUT_INPLACE = ("logaddexp", "logaddexp2", "fmax", "fmin", "signbit", "positive",
                    "count_nonzero")


def inplace_method(fn, name: str):
    """``x.name(*args, **kwargs)``: ``fn(x, *args, **kwargs)`` written into ``x`` (through
    ``Tensor._inplace``, which keeps the graph and the version counter right)."""
    def method(self, *args, **kwargs):
        return self._inplace(lambda t, *a: fn(t, *a, **kwargs), *args)
    method.__name__ = method.__qualname__ = name
    return method


def _checking_other(fn, name: str):
    """``fn`` as a method whose ``other`` must be a tensor (PyTorch's TypeError names it
    argument 1); ``name`` ends in ``_`` for the in-place form."""
    body = inplace_method(fn, name) if name.endswith("_") else fn
    arg = "values" if name.startswith("heaviside") else "other"

    def method(self, other):
        check_tensor(other, name, arg, 1)
        if name.endswith("_"):
            _check_inplace_result(name[:-1], self, other)
        return body(self, other)
    method.__name__ = method.__qualname__ = name
    return method


def _check_inplace_result(name: str, self: Tensor, other: Tensor) -> None:
    """What PyTorch checks before it computes ``self.name_(other)``: that the shapes broadcast
    to ``self``'s, and that the result's dtype can be written into ``self``."""
    try:
        shape = np.broadcast_shapes(self._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(self.shape, other.shape) from None
    check_shape(shape, self)
    if name == "heaviside":  # its own dtype check comes first
        return
    d = _dtype.result_type(self, other)
    if d.np.kind != "f" and name in ("atan2", "arctan2", "ldexp"):  # integers give floats
        d = _dtype.get_default_dtype()
    try:
        check_cast(d.np, self)
    except RuntimeError:
        if name != "ldexp":
            raise
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{self.dtype._legacy[:-6]}") from None


_INPLACE_FUNCTIONS = {name: _unary(cls, name, "") for name, cls in (
    ("asinh", AsinhInplace), ("arcsinh", AsinhInplace), ("acosh", AcoshInplace),
    ("arccosh", AcoshInplace), ("atanh", AtanhInplace), ("arctanh", AtanhInplace))}


def tensor_methods() -> dict:
    """The Tensor methods of this module's functions, and their in-place forms: name -> method."""
    methods = {}
    for name in __all__:
        fn = globals()[name]
        if name in _OTHER_MUST_BE_TENSOR:
            methods[name] = _checking_other(fn, name)
            if name not in _WITHOUT_INPLACE:
                methods[name + "_"] = _checking_other(fn, name + "_")
            continue
        methods[name] = fn
        if name not in _WITHOUT_INPLACE:
            methods[name + "_"] = inplace_method(_INPLACE_FUNCTIONS.get(name, fn), name + "_")
    methods["logit_"] = _logit_
    methods["float_power_"] = _float_power_
    methods["heaviside_"] = _checking_other(HeavisideInplace.apply, "heaviside_")
    for name, node in _COMPARISONS.items():  # eq_, lt_, ..., greater_
        compare = getattr(arithmetic, node.lower())
        methods[name + "_"] = _comparison_method(compare, name, node)
    # the in-place forms of three older operations
    methods["remainder_"] = inplace_method(remainder, "remainder_")
    methods["sign_"] = inplace_method(sign, "sign_")
    methods["floor_divide_"] = inplace_method(
        lambda t, other: FloorDivideInplace.apply(t, as_tensor(other, t)), "floor_divide_")
    # ``x %= y`` and ``x //= y`` change x in place, as PyTorch's (not ``x = x % y``)
    methods["__imod__"], methods["__ifloordiv__"] = methods["remainder_"], methods["floor_divide_"]
    return methods


class FloorDivideInplace(FloorDivide):
    """``floor_divide_``: PyTorch's error names the in-place operation."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    backward = _raising(RuntimeError, "derivative for aten::floor_divide_ is not implemented")

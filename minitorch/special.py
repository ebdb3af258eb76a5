"""``minitorch.special``: the functions of ``torch.special`` that minitorch computes exactly.

Most are other names for operations minitorch already has (``expit`` is ``sigmoid``, ``erf``
is ``erf``); PyTorch's errors call them ``special_<name>``, and so do minitorch's. Two are new
(``entr`` and ``xlog1py``, in ``ops/special.py``) and one is built from others as PyTorch
builds it: ``ndtr(x) = (1 + erf(x / sqrt(2))) / 2``, so its graph is PyTorch's
(``MulBackward1`` on top).

The gamma family (``gammaln``, ``digamma``/``psi``, ``polygamma``, ``multigammaln``,
``gammainc``, ``gammaincc``) and ``erfinv`` are ``torch.lgamma``... under their SciPy names
(``ops/gamma.py``, ``ops/incomplete_gamma.py``).

So are ``i0e``, ``i1``, ``i1e``, ``erfcx``, ``log_ndtr``, ``ndtri`` and ``zeta``
(``ops/special.py``), and the orthogonal polynomials (``chebyshev_polynomial_t``... of
``(input, n)``; like PyTorch's, without a derivative), ``bessel_j0/j1/y0/y1``,
``modified_bessel_i0/i1/k0/k1``, ``scaled_modified_bessel_k0/k1``, ``spherical_bessel_j0`` and
``airy_ai`` (also without one).

Example:
    >>> import minitorch
    >>> minitorch.special.expit(minitorch.tensor([0.0, 2.0]))
    tensor([0.5000, 0.8808])
    >>> minitorch.special.entr(minitorch.tensor([0.5, 0.0, -1.0]))
    tensor([0.3466, 0.0000,   -inf])
"""

from __future__ import annotations

import math
import numbers

from minitorch import _dtype
from minitorch._out import _NOT_DIFFERENTIABLE, copy_into_out, with_out
from minitorch._tensor import Tensor, _wrap
from minitorch.ops import elementwise, pointwise, rounding, scan, unary
from minitorch.ops import gamma as _gamma
from minitorch.ops import incomplete_gamma as _incomplete_gamma
from minitorch.ops import softmax as _softmax
from minitorch.ops import special as _special
from minitorch.ops._util import broadcast_error, check_tensor, float_type
from minitorch.ops.arithmetic import AddScalar, MulScalar
from minitorch.ops.elementwise import _numbers_allowed

__all__ = ["entr", "erf", "erfc", "exp2", "expit", "expm1", "i0", "log1p", "log_softmax",
           "logit", "logsumexp", "ndtr", "round", "sinc", "softmax", "xlog1py", "xlogy"]


def _check_out(name: str, out) -> None:
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"special_{name}(): argument 'out' must be Tensor, not "
                        f"{type(out).__name__}")


def _of_input(op, name: str, doc: str, out_name: str | None = None):
    """``special.<name>(input, *, out=None)``: ``op`` of one tensor (``out_name``: the name
    PyTorch's ``out=`` errors give it)."""
    op_with_out = with_out(op, out_name or name)

    def fn(input: Tensor, *, out=None) -> Tensor:  # noqa: A002
        check_tensor(input, f"special_{name}", "input", 1)
        _check_out(name, out)
        return op_with_out(input, out=out)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


expit = _of_input(unary.sigmoid, "expit", "``1 / (1 + exp(-input))``: ``sigmoid``.", "sigmoid")
erf = _of_input(pointwise.erf, "erf", "The error function.")
erfc = _of_input(elementwise.erfc, "erfc", "``1 - erf(input)``, accurate for a large input.")
exp2 = _of_input(pointwise.exp2, "exp2", "``2 ** input``.")
expm1 = _of_input(pointwise.expm1, "expm1", "``exp(input) - 1``, accurate for a small input.")
log1p = _of_input(pointwise.log1p, "log1p", "``log(1 + input)``, accurate for a small input.")
sinc = _of_input(elementwise.sinc, "sinc", "``sin(pi x) / (pi x)``, 1 at 0.")
i0 = _of_input(elementwise.i0, "i0", "The modified Bessel function of the first kind, order 0.")
entr = _of_input(_special.Entr.apply, "entr", "``-input * log(input)``: 0 at 0, ``-inf`` "
                 "below 0.", "special_entr")


def logit(input: Tensor, eps: float | None = None, *, out=None) -> Tensor:  # noqa: A002
    """``log(p / (1 - p))``, with ``p`` first clamped to ``[eps, 1 - eps]`` when ``eps`` is
    given."""
    check_tensor(input, "special_logit", "input", 1)
    if eps is not None and not isinstance(eps, numbers.Real):
        raise TypeError(f"special_logit(): argument 'eps' must be float, not "
                        f"{type(eps).__name__}")
    _check_out("logit", out)
    return _logit(input, eps, out=out)


_logit = with_out(elementwise.logit)


def round(input: Tensor, *, decimals: int = 0, out=None) -> Tensor:  # noqa: A001, A002
    """``torch.round(input, decimals=decimals)``: halves to even (node ``RoundBackward1``)."""
    check_tensor(input, "special_round", "input", 1)
    if not isinstance(decimals, numbers.Integral) or isinstance(decimals, bool):
        raise TypeError(f"special_round(): argument 'decimals' must be int, not "
                        f"{type(decimals).__name__}")
    _check_out("round", out)
    return _round(input, int(decimals), out=out)


def _round_decimals(input: Tensor, decimals: int) -> Tensor:  # noqa: A002
    return rounding.RoundDecimals.apply(input, decimals)


_round_decimals.__name__ = "round"
_round = with_out(_round_decimals)


def ndtr(input: Tensor, *, out=None) -> Tensor:  # noqa: A002
    """The standard normal distribution function, ``(1 + erf(input / sqrt(2))) / 2``: the
    probability that a standard normal sample is at most ``input``.

    With ``out=`` the result is copied into ``out`` (recorded, as PyTorch's ``CopyBackwards``)."""
    check_tensor(input, "special_ndtr", "input", 1)
    _check_out("ndtr", out)
    if input.is_floating_point():
        x = MulScalar.apply(input, 1 / math.sqrt(2))
        result = MulScalar.apply(AddScalar.apply(pointwise.erf(x), 1.0), 0.5)
    else:  # an integer or bool tensor (no gradient): the product is of the default dtype
        result = (pointwise.erf(input * (1 / math.sqrt(2))) + 1) * 0.5
    if out is None:
        return result
    copy_into_out(out, result.detach(), warn_resize=True)  # out's shape, PyTorch's cast error
    return out.copy_(result) if result.requires_grad or out.requires_grad else out


def _two_numbers(op, number_self, number_other, name: str, doc: str):
    """``special.<name>(input, other, *, out=None)`` of two tensors, or a number and a tensor."""
    def fn(input, other, *, out=None) -> Tensor:  # noqa: A002
        _numbers_allowed(f"special_{name}", input, other, number_self=True, out=out)
        return fn_with_out(input, other, out=out)

    def compute(input, other) -> Tensor:  # noqa: A002
        if not isinstance(input, Tensor):
            return number_self.apply(elementwise._float_number(input, other), other)
        if not isinstance(other, Tensor):
            return number_other.apply(input, elementwise._float_number(other, input))
        return op.apply(input, other)

    compute.__name__ = name if name == "xlogy" else f"special_{name}"  # out='s error names it
    fn_with_out = with_out(compute)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


xlogy = _two_numbers(elementwise.Xlogy, elementwise.XlogyNumberSelf,
                     elementwise.XlogyNumberOther, "xlogy",
                     "``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN).")
xlog1py = _two_numbers(_special.Xlog1py, _special.Xlog1pyNumberSelf, _special.Xlog1pyNumberOther,
                       "xlog1py", "``input * log1p(other)``, 0 where ``input`` is 0 (unless "
                       "``other`` is NaN).")


_MISSING = object()


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_dim(name: str, input, dim, dtype=None, dtype_position: str = "") -> None:  # noqa: A002
    """PyTorch's TypeErrors for ``special.<name>(input, dim, ...)`` (logsumexp's ``dim`` may
    be a tuple of ints; ``dtype_position``: where softmax's ``dtype`` stands, in words)."""
    check_tensor(input, f"special_{name}", "input", 1)
    if dim is _MISSING:
        raise TypeError(f'special_{name}() missing 1 required positional arguments: "dim"')
    if name == "logsumexp" and isinstance(dim, (tuple, list)):
        for item in dim:
            if not _is_int(item):
                raise TypeError(f"special_logsumexp(): argument 'dim' failed to unpack the object "
                                f'at pos 2 with error "type must be tuple of ints,but got '
                                f'{type(item).__name__}"')
    elif not _is_int(dim):
        kind = "tuple of ints" if name == "logsumexp" else "int"
        raise TypeError(f"special_{name}(): argument 'dim' (position 2) must be {kind}, not "
                        f"{type(dim).__name__}")
    if dtype is not None and not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"special_{name}(): argument 'dtype'{dtype_position} must be "
                        f"torch.dtype, not {type(dtype).__name__}")


def softmax(input: Tensor, dim=_MISSING, dtype=None) -> Tensor:  # noqa: A002
    """Probabilities along ``dim``: ``exp(input)`` divided by its sum (in ``dtype`` when
    given)."""
    _check_dim("softmax", input, dim, dtype, " (position 3)")
    return _softmax.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim=_MISSING, *more, dtype=None) -> Tensor:  # noqa: A002
    """``log(softmax(input, dim))`` in one numerically stable step (``dtype`` is keyword-only
    here, unlike in ``special.softmax``)."""
    if more:
        raise TypeError(f"special_log_softmax() takes 2 positional arguments but {2 + len(more)} "
                        "were given")
    _check_dim("log_softmax", input, dim, dtype)
    return _softmax.log_softmax(input, dim, dtype=dtype)


def logsumexp(input: Tensor, dim=_MISSING, keepdim: bool = False, *, out=None) -> Tensor:  # noqa: A002
    """``log(sum(exp(input)))`` over ``dim`` (an int or a tuple), without overflow."""
    _check_dim("logsumexp", input, dim)
    _check_out("logsumexp", out)
    return _logsumexp(input, dim, keepdim, out=out)


_logsumexp = with_out(scan.logsumexp)

# gammaln, digamma, psi, polygamma, erfinv, multigammaln (ops/gamma.py; task: the gamma family)
gammaln = _of_input(_gamma.lgamma, "gammaln", "``log|Gamma(input)|`` (``torch.lgamma``).",
                    "lgamma")
digamma = _of_input(_gamma.digamma, "digamma", "The digamma function ``lgamma'(input)``.")
psi = _of_input(_gamma.digamma, "psi", "The digamma function (``digamma``).", "digamma")
erfinv = _of_input(_gamma.erfinv, "erfinv", "The inverse error function.")


def polygamma(n: int, input: Tensor, *, out=None) -> Tensor:  # noqa: A002
    """The ``n``-th derivative of the digamma function (``torch.polygamma``)."""
    if not _is_int(n):
        raise TypeError(f"special_polygamma(): argument 'n' (position 1) must be int, not "
                        f"{type(n).__name__}")
    check_tensor(input, "special_polygamma", "input", 2)
    _check_out("polygamma", out)
    return _polygamma(n, input, out=out)


def multigammaln(input: Tensor, p: int, *, out=None) -> Tensor:  # noqa: A002
    """The multivariate log-gamma function of dimension ``p`` (``torch.mvlgamma``)."""
    check_tensor(input, "special_multigammaln", "input", 1)
    if not _is_int(p):
        raise TypeError(f"special_multigammaln(): argument 'p' (position 2) must be int, not "
                        f"{type(p).__name__}")
    _check_out("multigammaln", out)
    return _multigammaln(input, p, out=out)




def _two_tensors(op, name: str, doc: str):
    """``special.<name>(input, other, *, out=None)`` of two tensors."""
    op_with_out = with_out(op)

    def fn(input: Tensor, other: Tensor, *, out=None) -> Tensor:  # noqa: A002
        check_tensor(input, f"special_{name}", "input", 1)
        check_tensor(other, f"special_{name}", "other", 2)
        _check_out(name, out)
        return op_with_out(input, other, out=out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


gammainc = _two_tensors(_incomplete_gamma.igamma, "gammainc", "The regularized lower "
                        "incomplete gamma function ``P(input, other)`` (``torch.igamma``).")
gammaincc = _two_tensors(_incomplete_gamma.igammac, "gammaincc", "The regularized upper "
                         "incomplete gamma function ``Q(input, other)`` (``torch.igammac``).")
i0e = _of_input(_special.I0e.apply, "i0e", "``exp(-|input|) I0(input)``.", "special_i0e")
i1 = _of_input(_special.SpecialI1.apply, "i1", "The modified Bessel function of the first kind, "
               "order 1.", "special_i1")
i1e = _of_input(_special.I1e.apply, "i1e", "``exp(-|input|) I1(input)``.", "special_i1e")
erfcx = _of_input(_special.Erfcx.apply, "erfcx", "``exp(input^2) erfc(input)``, without "
                  "overflow.", "special_erfcx")
log_ndtr = _of_input(_special.LogNdtr.apply, "log_ndtr", "``log(ndtr(input))``, accurate far "
                     "into the lower tail.", "special_log_ndtr")
ndtri = _of_input(_special.Ndtri.apply, "ndtri", "The standard normal quantile: ``ndtr``'s "
                  "inverse.", "special_ndtri")
zeta = _two_numbers(_special.Zeta, _special.ZetaNumberSelf, _special.ZetaNumberOther, "zeta",
                    "Hurwitz's zeta function ``sum_k (other + k)^-input``.")
_POLYNOMIALS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
                "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
                "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")


def _polynomial(name: str):
    """``special.<name>(input, n, *, out=None)``: the polynomial of degree ``n`` (a tensor or a
    number, truncated to an integer) at ``input``, elementwise. No derivative: the result never
    requires grad, as in PyTorch."""
    def compute(input, n):  # noqa: A002
        if not isinstance(input, Tensor):
            input = elementwise._float_number(input, n)  # noqa: A001
        elif not isinstance(n, Tensor):
            n = elementwise._float_number(n, input)
        x, degree = elementwise._float_operands(input, n)
        if x.dtype.char == "e":
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Half'")
        try:
            return _wrap(_special.polynomial_array(name, x, degree))
        except ValueError:
            raise broadcast_error(input.shape, n.shape) from None
    compute.__name__ = f"special_{name}"
    _NOT_DIFFERENTIABLE.add(compute.__name__)  # out= takes inputs that require grad
    compute_with_out = with_out(compute)

    def fn(input, n, *, out=None) -> Tensor:  # noqa: A002
        numbers_ok = isinstance(n, Tensor) and isinstance(input, (Tensor, numbers.Number)) or (
            isinstance(input, Tensor) and isinstance(n, numbers.Number))
        if not numbers_ok or (out is not None and not isinstance(out, Tensor)):
            words = ", ".join("Tensor" if isinstance(v, Tensor) else type(v).__name__
                              for v in (input, n))
            words += "" if out is None or isinstance(out, Tensor) else (
                f", out={type(out).__name__}")
            raise TypeError(
                f"special_{name}() received an invalid combination of arguments - got ({words}), "
                "but expected one of:\n * (Tensor x, Tensor n, *, Tensor out = None)\n"
                " * (Number x, Tensor n, *, Tensor out = None)\n"
                " * (Tensor x, Number n, *, Tensor out = None)\n")
        return compute_with_out(input, n, out=out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``{name}(input, n)``: the polynomial of degree ``n`` at ``input``, "
                  "elementwise (no derivative).")
    return fn


def _without_derivative(name: str, arg: str):
    """``special.<name>(input, *, out=None)``, a function PyTorch has no derivative of: the
    result never requires grad (``arg``: the argument's name in PyTorch's errors)."""
    def compute(input):  # noqa: A002
        x = input._data.astype(float_type(input), copy=False)
        if x.dtype.char == "e":
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Half'")
        return _wrap(_special.WITHOUT_DERIVATIVE[name](x))
    compute.__name__ = f"special_{name}"
    _NOT_DIFFERENTIABLE.add(compute.__name__)
    compute_with_out = with_out(compute)

    def fn(input, *, out=None) -> Tensor:  # noqa: A002
        check_tensor(input, f"special_{name}", arg, 1)
        _check_out(name, out)
        return compute_with_out(input, out=out)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``{name}(input)``, elementwise (no derivative, as in PyTorch)."
    return fn


modified_bessel_i0 = _without_derivative("modified_bessel_i0", "input")
modified_bessel_i1 = _without_derivative("modified_bessel_i1", "input")
spherical_bessel_j0 = _without_derivative("spherical_bessel_j0", "x")
airy_ai = _without_derivative("airy_ai", "x")
bessel_j0 = _without_derivative("bessel_j0", "input")
bessel_j1 = _without_derivative("bessel_j1", "input")
bessel_y0 = _without_derivative("bessel_y0", "input")
bessel_y1 = _without_derivative("bessel_y1", "input")
modified_bessel_k0 = _without_derivative("modified_bessel_k0", "input")
modified_bessel_k1 = _without_derivative("modified_bessel_k1", "input")
scaled_modified_bessel_k0 = _without_derivative("scaled_modified_bessel_k0", "x")
scaled_modified_bessel_k1 = _without_derivative("scaled_modified_bessel_k1", "x")
__all__ += ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
            "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
            "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"]

for _name in _POLYNOMIALS:
    globals()[_name] = _polynomial(_name)
__all__ += list(_POLYNOMIALS)

_polygamma = with_out(_gamma.polygamma)
_multigammaln = with_out(_gamma.mvlgamma)
__all__ += ["digamma", "erfcx", "erfinv", "gammainc", "gammaincc", "gammaln", "i0e", "i1",
            "i1e", "log_ndtr", "multigammaln", "ndtri", "polygamma", "psi", "zeta"]

# Python names a function's __qualname__ in its own errors ("takes 1 positional argument but 2
# were given", "got an unexpected keyword argument"); PyTorch's say special_<name>.
for _name in __all__:
    globals()[_name].__qualname__ = f"special_{_name}"

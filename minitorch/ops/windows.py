"""The window functions of signal processing: ``bartlett_window``, ``blackman_window``,
``hamming_window``, ``hann_window`` and ``kaiser_window``.

Each is a factory (``dtype``, ``device``, ``requires_grad`` as ``zeros`` takes them) computed as
PyTorch's kernels compute it, step by step in the window's dtype (float16 in float32, rounded
after each step): ``arange(N)`` scaled, then the window's formula. A *periodic* window (the
default, for spectral analysis) is the symmetric window of length ``N + 1`` without its last
point. Length 0 gives an empty tensor, length 1 ``[1.]``.

Example:
    >>> import minitorch
    >>> minitorch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    >>> minitorch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from minitorch import _dtype
from minitorch._creation import _finish, check_storage, storage_error
from minitorch._tensor import Tensor
from minitorch.ops.special import modified_bessel_i0_array

__all__ = ["bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window"]

_CPP_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool"}
_OPTIONS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
            "bool pin_memory = False, bool requires_grad = False")
_SIGNATURES = {
    "hamming_window": ["int window_length", "int window_length, bool periodic",
                       "int window_length, bool periodic, float alpha",
                       "int window_length, bool periodic, float alpha, float beta"],
    "kaiser_window": ["int window_length", "int window_length, bool periodic",
                      "int window_length, bool periodic, float beta"],
}


def _invalid(name: str, args, kwargs) -> TypeError:
    # (PyTorch's parser lists the keyword arguments last, in the reverse of their order)
    got = ", ".join([type(a).__name__ for a in args]
                    + [f"{k}={_kind(v)}" for k, v in reversed(kwargs.items())])
    signatures = _SIGNATURES.get(name, ["int window_length", "int window_length, bool periodic"])
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but "
                     "expected one of:\n" + "".join(f" * ({s}, {_OPTIONS})\n" for s in signatures))


def _kind(value) -> str:
    if isinstance(value, _dtype.dtype):
        return "torch.dtype"
    return type(value).__name__


# misc: the windows read their arguments as PyTorch's parser does
_NUMBERS = {"hamming_window": ("alpha", "beta"), "kaiser_window": ("beta",)}
_OPTION_NAMES = ("dtype", "layout", "device", "pin_memory", "requires_grad")


def _parse(name: str, args, kwargs):
    """``(window_length, periodic, numbers, options)`` as PyTorch's argument parser reads them:
    its overloads take ``window_length`` and then ``periodic`` and the window's numbers in
    order, each only after the ones before it (by position or by keyword: ``beta=`` without
    ``periodic`` matches none), ``periodic`` a bool, the numbers floats (a bool counts) or
    ints; the factory options by keyword. Anything else is its TypeError; then a negative
    length or a dtype that is not floating point is its RuntimeError."""
    params = ("window_length", "periodic", *_NUMBERS.get(name, ()))
    values, options = dict(zip(params, args)), {}
    fits = len(args) <= len(params)
    for key, value in kwargs.items():
        if key in params and key not in values:
            values[key] = value
        elif key in _OPTION_NAMES:
            options[key] = value
        else:
            fits = False
    if "window_length" not in values and fits:
        raise TypeError(f'{name}() missing 1 required positional arguments: "window_length"')
    window_length = values.get("window_length")
    if fits and (not isinstance(window_length, numbers.Integral)
                 or isinstance(window_length, bool)):
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not "
                        f"{type(window_length).__name__}")
    given = [p for p in params if p in values]
    periodic = values.get("periodic", True)
    found = [values[p] for p in params[2:] if p in values]
    if (not fits or given != list(params[:len(given)]) or not isinstance(periodic, bool)
            or not all(isinstance(v, numbers.Real) for v in found)):
        raise _invalid(name, args, kwargs)
    dtype = _dtype.as_dtype(options.get("dtype"), name) or _dtype.get_default_dtype()
    if not dtype.is_floating_point:
        raise RuntimeError(
            f"{name} expects floating point dtypes, got: TensorOptions(dtype="
            f"{_CPP_NAMES[dtype.np.name]}, device=cpu, layout=Strided (default), "
            "requires_grad=false (default), pinned_memory=false, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got "
                           f"window_length={window_length}")
    return (window_length, periodic, [float(v) for v in found], dtype,
            options.get("device"), options.get("requires_grad", False))


def _steps(n: int, dt):
    """``arange(n)`` in ``dt``, and ``op(fn, values, *others)``: ``fn`` as PyTorch's kernels
    compute it in ``dt`` (float16 through float32), rounded to ``dt`` after each step."""
    work = np.float32 if dt == np.float16 else dt

    def op(fn, values, *numbers_):
        return fn(values.astype(work), *(work(dt(v)) for v in numbers_)).astype(dt)
    return np.arange(n).astype(dt), op


def _window(name: str, window_length: int, periodic: bool, dtype, device, requires_grad,
            formula) -> Tensor:
    dt = dtype.np.type
    if window_length == 0:
        data = np.zeros(0, dt)
    elif window_length == 1:
        data = np.ones(1, dt)
    else:
        n = window_length + 1 if periodic else window_length
        check_storage((window_length,), dt)  # (misc2) PyTorch's errors, not NumPy's
        try:
            with np.errstate(all="ignore"):
                data = formula(n, dt)[:window_length]
        except MemoryError:
            raise storage_error((window_length,), dt) from None
    return _finish(data, dtype, device, requires_grad)


def hamming_window(*args, **kwargs) -> Tensor:
    """``hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None,
    layout=None, device=None, pin_memory=False, requires_grad=False)``: ``alpha - beta
    cos(2 pi k / (N - 1))``."""
    n, periodic, found, dtype, device, requires_grad = _parse("hamming_window", args, kwargs)
    alpha = found[0] if found else 0.54
    beta = found[1] if len(found) > 1 else 0.46
    return _hamming("hamming_window", n, periodic, alpha, beta, dtype, device, requires_grad)


def _hamming(name, window_length, periodic, alpha, beta, dtype, device, requires_grad):
    def formula(n, dt):
        w, op = _steps(n, dt)
        w = op(np.multiply, w, math.pi * 2.0 / (n - 1))
        w = op(np.cos, w)
        w = op(np.multiply, w, -beta)
        return op(np.add, w, alpha)
    return _window(name, window_length, periodic, dtype, device, requires_grad, formula)


def hann_window(*args, **kwargs) -> Tensor:
    """``hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
    pin_memory=False, requires_grad=False)``: ``0.5 - 0.5 cos(2 pi k / (N - 1))``,
    ``hamming_window`` with ``alpha = beta = 0.5``."""
    n, periodic, _, dtype, device, requires_grad = _parse("hann_window", args, kwargs)
    return _hamming("hann_window", n, periodic, 0.5, 0.5, dtype, device, requires_grad)


def bartlett_window(*args, **kwargs) -> Tensor:
    """``bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
    pin_memory=False, requires_grad=False)``: the triangle ``1 - |2k / (N - 1) - 1|``."""
    n, periodic, _, dtype, device, requires_grad = _parse("bartlett_window", args, kwargs)

    def formula(n, dt):
        w, op = _steps(n, dt)
        w = op(np.multiply, w, 2.0 / (n - 1))
        half = ((n - 1) >> 1) + 1
        w[half:] = op(np.add, op(np.multiply, w[half:], -1), 2)
        return w
    return _window("bartlett_window", n, periodic, dtype, device, requires_grad, formula)


def blackman_window(*args, **kwargs) -> Tensor:
    """``blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None,
    pin_memory=False, requires_grad=False)``: ``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08
    cos(4 pi k / (N - 1))``."""
    n, periodic, _, dtype, device, requires_grad = _parse("blackman_window", args, kwargs)

    def formula(n, dt):
        w, op = _steps(n, dt)
        w = op(np.multiply, w, math.pi / (n - 1))
        four = op(np.multiply, op(np.cos, op(np.multiply, w, 4)), 0.08)
        two = op(np.multiply, op(np.cos, op(np.multiply, w, 2)), 0.5)
        return op(np.add, op(np.subtract, four, two), 0.42)
    return _window("blackman_window", n, periodic, dtype, device, requires_grad, formula)


def kaiser_window(*args, **kwargs) -> Tensor:
    """``kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None,
    device=None, pin_memory=False, requires_grad=False)``: ``I0(beta sqrt(1 - ((k - a) /
    a)^2)) / I0(beta)``, ``a = (N - 1) / 2``."""
    n, periodic, found, dtype, device, requires_grad = _parse("kaiser_window", args, kwargs)
    beta = found[0] if found else 12.0

    def formula(n, dt):
        k = np.arange(n, dtype=np.float64)
        alpha = (n - 1) / 2.0
        arg = beta * np.sqrt(1 - ((k - alpha) / alpha) ** 2)
        return (modified_bessel_i0_array(arg) / modified_bessel_i0_array(
            np.array(beta, np.float64))).astype(dt)
    return _window("kaiser_window", n, periodic, dtype, device, requires_grad, formula)

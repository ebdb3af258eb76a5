"""``minitorch.testing``: ``assert_close`` and ``make_tensor``, as ``torch.testing``.

``assert_close(actual, expected)`` passes when the two are close, and otherwise raises PyTorch's
AssertionError, word for word::

    Tensor-likes are not close!

    Mismatched elements: 1 / 3 (33.3%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.25 at index (1,) (up to 1.3e-06 allowed)

It compares tensors (or NumPy arrays), Python numbers, ``None``, and lists, tuples and dicts of
them, nested. Two tensors must first agree in shape, device and dtype; then each element must
satisfy ``|actual - expected| <= atol + rtol * |expected|``, with default tolerances by dtype
(``_TOLERANCES``; integers and bools must be equal). The code follows PyTorch's
``torch/testing/_comparison.py``, without its sparse, quantized and complex tensors.

Example:
    >>> import minitorch
    >>> from minitorch.testing import assert_close
    >>> assert_close(minitorch.tensor([1.0, 2.0]), minitorch.tensor([1.0, 2.0 + 1e-7]))
    >>> assert_close({"w": [1, 2]}, {"w": [1, 2]})
"""

from __future__ import annotations

import cmath
import collections.abc
import contextlib
import math
import warnings

import numpy as np

from minitorch import _dtype
from minitorch._creation import as_tensor, empty, randint
from minitorch._tensor import Tensor

__all__ = ["assert_close", "make_tensor"]

# {dtype: (rtol, atol)}; every other dtype is compared exactly
_TOLERANCES = {_dtype.float16: (1e-3, 1e-5), _dtype.float32: (1.3e-6, 1e-5),
               _dtype.float64: (1e-7, 1e-7)}
# the dtype that stands for a Python number, for its tolerances
_NUMBER_DTYPES = {int: _dtype.int64, float: _dtype.float64, complex: _dtype.float64}


class _MismatchError(Exception):
    """A failed check: the exception type and message to raise, and where in the nested inputs
    (``id``, the keys and indices that lead there) it happened."""

    def __init__(self, error_type: type, message: str, id: tuple = ()) -> None:  # noqa: A002
        super().__init__(message)
        self.error_type, self.message, self.id = error_type, message, id

    def to_error(self, msg=None) -> Exception:
        """The exception to raise: ``msg`` when it is a string, else the message made here
        (passed through ``msg`` when that is a callable)."""
        if isinstance(msg, str):
            return self.error_type(msg)
        message = self.message
        if self.id:
            message += f"\n\nThe failure occurred for item {''.join(str([i]) for i in self.id)}"
        return self.error_type(msg(message) if callable(msg) else message)


class _UnsupportedInputsError(Exception):
    """This kind of pair cannot compare these two inputs; the next kind tries."""


def _tolerances(dtypes, rtol, atol, id: tuple) -> tuple[float, float]:  # noqa: A002
    """``rtol, atol`` as given, or the loosest defaults of ``dtypes``; one without the other is
    PyTorch's ValueError."""
    if (rtol is None) != (atol is None):
        raise _MismatchError(ValueError, "Both 'rtol' and 'atol' must be either specified or "
                             f"omitted, but got no {'rtol' if rtol is None else 'atol'}.", id)
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*(_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes))
    return max(rtols), max(atols)


def _mismatch_message(what: str, extra: str, abs_diff, rel_diff, rtol, atol,
                      abs_idx=None, rel_idx=None) -> str:
    """PyTorch's report: the header, ``extra``, and the greatest differences with their
    tolerances (left out when both are 0: then the header says "equal")."""
    equality = rtol == 0 and atol == 0
    lines = [f"{what} are not {'equal' if equality else 'close'}!", "", extra]
    for kind, diff, idx, tol in (("absolute", abs_diff, abs_idx, atol),
                                 ("relative", rel_diff, rel_idx, rtol)):
        line = (f"{kind.title()} difference: {diff}" if idx is None
                else f"Greatest {kind} difference: {diff} at index {idx}")
        lines.append(line if equality else f"{line} (up to {tol} allowed)")
    return "\n".join(lines)


def _scalar_message(actual, expected, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    return _mismatch_message("Scalars", f"Expected {expected} but got {actual}.", abs_diff,
                             rel_diff, rtol, atol)


def _tensor_message(actual: Tensor, expected: Tensor, matches: Tensor, rtol, atol) -> str:
    """Where the most different elements are, among those that do not match."""
    total = matches.numel()
    mismatched = total - int(matches.sum())
    extra = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    a, e, ok = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point:  # ints and bools are subtracted as int64
        a, e = a.to(_dtype.int64), e.to(_dtype.int64)
    abs_diff = (a - e).abs()
    abs_diff[ok] = 0
    rel_diff = abs_diff / e.abs()
    rel_diff[ok] = 0
    (max_abs, abs_at), (max_rel, rel_at) = abs_diff.max(0), rel_diff.max(0)
    shape = matches.shape
    return _mismatch_message("Tensor-likes", extra, max_abs.item(), max_rel.item(), rtol, atol,
                             _unravel(int(abs_at), shape), _unravel(int(rel_at), shape))


def _unravel(flat_index: int, shape) -> tuple:
    return tuple(int(i) for i in np.unravel_index(flat_index, tuple(shape)))


# -- the pairs: each checks that it can compare its two inputs, then compares them ----------

class _NonePair:
    def __init__(self, actual, expected, id, **options) -> None:  # noqa: A002
        if actual is not None and expected is not None:
            raise _UnsupportedInputsError
        self.actual, self.expected, self.id = actual, expected, id

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            raise _MismatchError(AssertionError,
                                 f"None mismatch: {self.actual} is not {self.expected}", self.id)


class _BoolPair:
    def __init__(self, actual, expected, id, **options) -> None:  # noqa: A002
        if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
            raise _UnsupportedInputsError
        self.actual, self.expected, self.id = bool(actual), bool(expected), id

    def compare(self) -> None:
        if self.actual is not self.expected:
            message = f"Booleans mismatch: {self.actual} is not {self.expected}"
            raise _MismatchError(AssertionError, message, self.id)


class _NumberPair:
    def __init__(self, actual, expected, id, rtol, atol, equal_nan, check_dtype,  # noqa: A002
                 **options) -> None:
        if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
            raise _UnsupportedInputsError
        self.actual, self.expected = (x.item() if isinstance(x, np.number) else x
                                      for x in (actual, expected))
        self.id, self.equal_nan, self.check_dtype = id, equal_nan, check_dtype
        self.rtol, self.atol = _tolerances(
            [_NUMBER_DTYPES[type(x)] for x in (self.actual, self.expected)], rtol, atol, id)

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            raise _MismatchError(AssertionError, f"The (d)types do not match: {type(actual)} != "
                                 f"{type(expected)}.", self.id)
        if actual == expected or (self.equal_nan and cmath.isnan(actual)
                                  and cmath.isnan(expected)):
            return
        abs_diff = abs(actual - expected)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(expected):
            return
        message = _scalar_message(actual, expected, self.rtol, self.atol)
        raise _MismatchError(AssertionError, message, self.id)


class _TensorPair:
    def __init__(self, actual, expected, id, allow_subclasses, rtol, atol, equal_nan,  # noqa: A002
                 check_device, check_dtype, check_stride, **options) -> None:
        related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
        if not related or (not allow_subclasses and type(actual) is not type(expected)):
            raise _UnsupportedInputsError
        self.actual, self.expected = (self._to_tensor(x) for x in (actual, expected))
        self.id, self.equal_nan = id, equal_nan
        self.check_device, self.check_dtype, self.check_stride = (check_device, check_dtype,
                                                                  check_stride)
        self.rtol, self.atol = _tolerances([self.actual.dtype, self.expected.dtype], rtol, atol,
                                           id)

    @staticmethod
    def _to_tensor(x) -> Tensor:
        if isinstance(x, Tensor):
            return x
        try:
            return as_tensor(x)
        except Exception:
            raise _UnsupportedInputsError from None

    def _check(self, name: str, a, b) -> None:
        if a != b:
            message = f"The values for attribute '{name}' do not match: {a} != {b}."
            raise _MismatchError(AssertionError, message, self.id)

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        self._check("shape", actual.shape, expected.shape)
        if self.check_stride:
            self._check("stride()", actual.stride(), expected.stride())
        if self.check_device:
            self._check("device", actual.device, expected.device)
        if self.check_dtype:
            self._check("dtype", actual.dtype, expected.dtype)
        if actual.device != expected.device:  # compared on the CPU, in a common dtype
            actual, expected = actual.cpu(), expected.cpu()
        if actual.dtype is not expected.dtype:
            common = _dtype.promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(common), expected.to(common)
        matches = actual.isclose(expected, rtol=self.rtol, atol=self.atol,
                                 equal_nan=self.equal_nan)
        if bool(matches.all()):
            return
        if actual.dim() == 0:
            message = _scalar_message(actual.item(), expected.item(), self.rtol, self.atol)
        else:
            message = _tensor_message(actual, expected, matches, self.rtol, self.atol)
        raise _MismatchError(AssertionError, message, self.id)


_PAIR_TYPES = (_NonePair, _BoolPair, _NumberPair, _TensorPair)


def _pairs(actual, expected, id: tuple, options: dict) -> list:  # noqa: A002
    """The pairs to compare: sequences and mappings are walked into, element by element."""
    sequences = [isinstance(x, collections.abc.Sequence) and not isinstance(x, str)
                 for x in (actual, expected)]
    if all(sequences):
        if len(actual) != len(expected):
            raise _MismatchError(AssertionError, "The length of the sequences mismatch: "
                                 f"{len(actual)} != {len(expected)}", id)
        return [p for i in range(len(actual))
                for p in _pairs(actual[i], expected[i], (*id, i), options)]
    if all(isinstance(x, collections.abc.Mapping) for x in (actual, expected)):
        keys, expected_keys = set(actual.keys()), set(expected.keys())
        if keys != expected_keys:
            missing, extra = sorted(expected_keys - keys), sorted(keys - expected_keys)
            raise _MismatchError(AssertionError, "The keys of the mappings do not match:\n"
                                 f"Missing keys in the actual mapping: {missing}\n"
                                 f"Additional keys in the actual mapping: {extra}", id)
        with contextlib.suppress(Exception):
            keys = sorted(keys)
        return [p for key in keys for p in _pairs(actual[key], expected[key], (*id, key), options)]
    for pair_type in _PAIR_TYPES:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except _UnsupportedInputsError:
            continue
    raise _MismatchError(TypeError, "No comparison pair was able to handle inputs of type "
                         f"{type(actual)} and {type(expected)}.", id)


def assert_close(actual, expected, *, allow_subclasses: bool = True, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg=None) -> None:
    """Raise an AssertionError unless ``actual`` and ``expected`` are close, as
    ``torch.testing.assert_close``.

    Tensors must have the same shape, device and dtype (``check_device=False`` and
    ``check_dtype=False`` compare them on the CPU in their promoted dtype), and every element
    must satisfy ``|actual - expected| <= atol + rtol * |expected|``. Without ``rtol`` and
    ``atol`` the tolerances are those of the dtype: float16 ``1e-3, 1e-5``, float32
    ``1.3e-6, 1e-5``, float64 (and Python floats) ``1e-7, 1e-7``, integers and bools exact.
    NaNs are equal only with ``equal_nan=True``. ``msg``, a string, replaces the message; a
    callable gets the message and returns the one to raise. ``check_layout`` has nothing to
    check: every minitorch tensor is strided.
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this function's
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol,
                   equal_nan=equal_nan, check_device=check_device, check_dtype=check_dtype,
                   check_stride=check_stride)
    try:
        pairs = _pairs(actual, expected, (), options)
    except _MismatchError as failure:  # the inputs do not fit together: PyTorch ignores msg here
        raise failure.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except _MismatchError as failure:
            raise failure.to_error(msg) from None


# -- make_tensor ---------------------------------------------------------------------------

def _low_high(low, high, dtype, lowest: float, highest: float, default_low, default_high):
    """``make_tensor``'s range: the defaults, PyTorch's checks, clamped to what ``dtype`` holds
    (integer bounds rounded up)."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
    if low == high and dtype.is_floating_point:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                      "complex types is deprecated since 2.1 and will be removed in 2.3. Use "
                      "`torch.full(...)` instead.", FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if not dtype.is_floating_point:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad: bool = False,
                noncontiguous: bool = False, exclude_zero: bool = False) -> Tensor:
    """A tensor of ``shape`` with random values from ``[low, high)``, as
    ``torch.testing.make_tensor``: by default ``[-9, 9)`` for floats, ``[-9, 10)`` for signed
    integers, ``[0, 10)`` for uint8 and ``[0, 2)`` for bool. ``noncontiguous=True`` gives a
    strided view (every other element of a last dimension twice as long); ``exclude_zero=True``
    replaces zeros with 1 (integers) or the dtype's ``finfo.tiny``.

    It is built as PyTorch builds it, from ``randint`` and ``uniform_``, which draw PyTorch's
    numbers: after the same ``manual_seed`` it gives the same values as torch.
    """
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    floating = dtype.is_floating_point
    if requires_grad and not floating:
        raise ValueError("`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype is _dtype.bool:
        low, high = _low_high(low, high, dtype, 0, 2, 0, 2)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif not floating:
        info = _dtype.iinfo(dtype)
        low, high = _low_high(low, high, dtype, info.min,
                              info.max + (dtype is not _dtype.int64), -9, 10)
        result = randint(low, high, shape, device=device, dtype=dtype)
    else:
        info = _dtype.finfo(dtype)
        low, high = _low_high(low, high, dtype, info.min, info.max, -9, 9)
        result = empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:  # the width would overflow: draw half as wide, then double
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    if noncontiguous:
        result = result[..., 1::2]
    if exclude_zero:
        result[result == 0] = info.tiny if floating else 1
    if floating:
        result.requires_grad = requires_grad
    return result

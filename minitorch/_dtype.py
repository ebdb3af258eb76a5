"""Data types: ``minitorch.float32`` and friends, and PyTorch's type-promotion rules.

A :class:`dtype` is a thin, printable wrapper around a NumPy dtype. The default floating
dtype is ``float32`` and the default integer dtype is ``int64``, as in PyTorch.

Example:
    >>> import minitorch
    >>> minitorch.float32
    torch.float32
    >>> minitorch.tensor([1, 2]).dtype
    torch.int64
"""

from __future__ import annotations

import builtins as _builtins
import math

import numpy as np

__all__ = [
    "dtype", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
    "bool", "half", "float", "double", "short", "int", "long", "get_default_dtype",
    "set_default_dtype", "promote_types",
]

_BOOL, _INT, _FLOAT = 0, 1, 2  # type categories, in promotion order


class dtype:  # noqa: N801  (PyTorch's name)
    """A tensor element type, printed as PyTorch prints it (``torch.float32``)."""

    __slots__ = ("name", "np", "category", "is_floating_point", "itemsize", "_legacy")

    def __init__(self, name: str, np_dtype, category: int, legacy: str) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self.category = category
        self.is_floating_point = category == _FLOAT
        self.itemsize = self.np.itemsize
        self._legacy = legacy  # the old type name used in some error messages

    @property
    def is_signed(self) -> bool:
        return self.np.kind != "u" and self.np.kind != "b"

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))


float16 = half = dtype("float16", np.float16, _FLOAT, "HalfTensor")
float32 = dtype("float32", np.float32, _FLOAT, "FloatTensor")
float64 = double = dtype("float64", np.float64, _FLOAT, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, _INT, "ByteTensor")
int8 = dtype("int8", np.int8, _INT, "CharTensor")
int16 = short = dtype("int16", np.int16, _INT, "ShortTensor")
int32 = dtype("int32", np.int32, _INT, "IntTensor")
int64 = long = dtype("int64", np.int64, _INT, "LongTensor")
bool = dtype("bool", np.bool_, _BOOL, "BoolTensor")  # noqa: A001  (PyTorch's name)
float = float32  # noqa: A001
int = int32  # noqa: A001

_ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_FROM_NP = {d.np: d for d in _ALL}
_NAMES = {d.name: d for d in _ALL}
_default_float = float32


def _by_name(name: str) -> dtype:
    return _NAMES[name]


def from_numpy_dtype(np_dtype) -> dtype:
    """The minitorch dtype for a NumPy dtype, or a TypeError naming the unsupported one."""
    try:
        return _FROM_NP[np_dtype]
    except KeyError:
        pass
    try:
        return _FROM_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype)}. The only supported "
            "types are: float64, float32, float16, int64, int32, int16, int8, uint8, and bool."
        ) from None


def get_default_dtype() -> dtype:
    """The dtype that floating-point factories use (``torch.float32`` unless changed)."""
    return _default_float


def set_default_dtype(d: dtype) -> None:
    """Set the default floating dtype (``float32`` or ``float64``)."""
    global _default_float
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


_PYTHON_TYPES = {_builtins.float: float64, _builtins.int: int64, _builtins.bool: bool}


def as_dtype(d, function: str):
    """``d`` as a dtype: PyTorch also takes Python's ``float``, ``int`` and ``bool`` (float64,
    int64, bool); anything else but None is its TypeError, not a crash further in."""
    if d is None or isinstance(d, dtype):
        return d
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d]
    raise TypeError(f"{function}(): argument 'dtype' must be torch.dtype, not "
                    f"{type(d).__name__}")


def promote_types(a: dtype, b: dtype) -> dtype:
    """The smallest dtype both ``a`` and ``b`` convert to, as ``torch.promote_types``.

    >>> promote_types(int64, float32)
    torch.float32
    """
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.np.kind != b.np.kind:  # uint8 with a signed int
        return _FROM_NP[np.promote_types(a.np, b.np)]
    return a if a.itemsize >= b.itemsize else b


def scalar_dtype(value) -> dtype:
    """The dtype PyTorch gives a Python number: bool, int64, or the default float."""
    if isinstance(value, (_builtins.bool, np.bool_)):
        return bool
    if isinstance(value, (_builtins.int, np.integer)):
        return int64
    return _default_float


def result_type(a, b) -> dtype:
    """The dtype of ``a <op> b`` for two tensors, following PyTorch's promotion rules.

    Tensors with dimensions outrank zero-dimensional tensors, which outrank Python numbers;
    a lower-ranked operand only matters when its category (bool < int < float) is higher.
    """
    da, db = a.dtype, b.dtype
    if da is db:
        return da
    ra = 2 if a._data.ndim else (0 if a._wrapped else 1)
    rb = 2 if b._data.ndim else (0 if b._wrapped else 1)
    if ra == rb:
        return promote_types(da, db)
    (hi, dhi), (lo, dlo) = ((a, da), (b, db)) if ra > rb else ((b, db), (a, da))
    if dlo.category > dhi.category:
        if lo._wrapped:
            return _default_float if dlo.category == _FLOAT else int64
        return dlo
    return dhi


# What PyTorch's errors call each type by its C++ name: "expected m1 and m2 to have the same
# dtype, but got: float != double"; "value cannot be converted to type int8_t" (CPP_NAMES for
# most messages, _C_NAMES for the range checks of a number converted to a dtype).
CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
             "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
             "bool": "bool"}
_C_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double", "uint8": "uint8_t",
            "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def check_python_int(value) -> None:
    """PyTorch reads a Python int argument as a 64-bit integer (signed, or unsigned when it is
    positive): beyond that it raises while parsing the arguments."""
    if isinstance(value, _builtins.int) and not isinstance(value, _builtins.bool):
        if value >= 2 ** 64:
            raise OverflowError("int too big to convert")
        if value < -(2 ** 63):
            raise OverflowError("can't convert negative int to unsigned")


def number_as(value, d: dtype):
    """The number ``value`` converted to ``d`` as PyTorch converts it (``checked_convert``).

    A value that does not fit raises PyTorch's RuntimeError (``full((2,), 1e40)``,
    ``int64_tensor.fill_(nan)``). As in PyTorch, inf and NaN fit every floating dtype, any
    number fits bool, and a negative integer down to -255 wraps into uint8 (-1 is 255; -2.5
    does not fit).

    >>> number_as(-1, uint8).item()
    255
    """
    check_python_int(value)
    if isinstance(value, np.generic):
        value = value.item()
    kind = d.np.kind
    if kind == "b":
        return np.bool_(value)
    if kind == "f":
        fits = (not isinstance(value, _builtins.float) or not math.isfinite(value)
                or abs(value) <= _builtins.float(np.finfo(d.np).max))
        if isinstance(value, _builtins.int):
            fits = abs(value) <= _builtins.float(np.finfo(d.np).max)
    else:
        info = np.iinfo(d.np)
        fits = (not isinstance(value, _builtins.float) or math.isfinite(value)) and (
            info.min <= value <= info.max
            or (kind == "u" and isinstance(value, _builtins.int) and -info.max <= value < 0))
    if not fits:
        raise RuntimeError(f"value cannot be converted to type {_C_NAMES[d.name]} without "
                           "overflow")
    if kind == "u" and value < 0:
        return d.np.type(_builtins.int(value) % (info.max + 1))
    return d.np.type(value)


# ---------------------------------------------------------------- finfo, iinfo, can_cast
_MISSING = object()  # an argument not given (None is a wrong one)


def _info_dtype(d, kind: str) -> dtype:
    """The dtype ``finfo``/``iinfo`` is asked about: a minitorch dtype, or Python's ``float``
    and ``int`` (float64 and int64), as PyTorch takes them."""
    if d is _MISSING:  # PyTorch's argument parser says it so
        raise TypeError(f'{kind}() missing 1 required positional arguments: "type"')
    if isinstance(d, type) and d in _PYTHON_TYPES:
        return _PYTHON_TYPES[d]
    if not isinstance(d, dtype):
        raise TypeError(f"{kind}(): argument 'type' (position 1) must be torch.dtype, not "
                        f"{type(d).__name__}")
    return d


class finfo:  # noqa: N801  (PyTorch's name)
    """The limits of a floating dtype, as ``torch.finfo``: ``bits``, ``eps`` (the gap between
    1 and the next number), ``max``, ``min``, ``tiny`` (= ``smallest_normal``), ``resolution``
    (``10 ** -digits``) and ``dtype`` (its name). ``finfo()`` is the default dtype's.

    >>> finfo(float16).max
    65504.0
    """

    def __init__(self, type=_MISSING) -> None:  # noqa: A002  (PyTorch's argument name)
        d = _default_float if type is _MISSING else _info_dtype(type, "finfo")
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        info = np.finfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.eps, self.max, self.min = (_builtins.float(v) for v in (info.eps, info.max, info.min))
        self.tiny = self.smallest_normal = _builtins.float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # as a double (NumPy's is in the dtype)

    def __eq__(self, other) -> _builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    __hash__ = None

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:  # noqa: N801  (PyTorch's name)
    """The limits of an integer dtype, as ``torch.iinfo``: ``bits``, ``max``, ``min`` and
    ``dtype`` (its name).

    >>> iinfo(uint8).max
    255
    """

    def __init__(self, type=_MISSING) -> None:  # noqa: A002  (PyTorch's argument name)
        d = _info_dtype(type, "iinfo")
        if d is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.is_floating_point:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        info = np.iinfo(d.np)
        self.bits, self.dtype = info.bits, d.name
        self.max, self.min = _builtins.int(info.max), _builtins.int(info.min)

    def __eq__(self, other) -> _builtins.bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    __hash__ = None

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


def dtype_argument(value, function: str, name: str, position: int) -> dtype:
    """A dtype argument as PyTorch's argument parser reads it: a dtype, or Python's
    ``float``, ``int`` or ``bool``; anything else is its TypeError."""
    if isinstance(value, type) and value in _PYTHON_TYPES:
        return _PYTHON_TYPES[value]
    if not isinstance(value, dtype):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                        f"torch.dtype, not {type(value).__name__}")
    return value


def can_cast(from_: dtype, to: dtype) -> _builtins.bool:
    """Whether PyTorch's type promotion may cast ``from_`` to ``to``: never a float to an
    integer, nor anything but bool to bool (``torch.can_cast``).

    >>> can_cast(int64, float16), can_cast(float32, int64)
    (True, False)
    """
    from_ = dtype_argument(from_, "can_cast", "from_", 1)
    return from_.category <= dtype_argument(to, "can_cast", "to", 2).category


# layout2 task: memory formats and layouts
class _Named:
    """One of PyTorch's named constants (``torch.channels_last``, ``torch.strided``): shown,
    and pickled, by its name in the module."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name  # the module's object of that name


class memory_format(_Named):  # noqa: N801  (PyTorch's name)
    """How a tensor's dimensions are ordered in memory, as ``clone``, ``contiguous``, ``to``
    and the ``*_like`` factories take it: ``preserve_format`` (as the input is),
    ``contiguous_format`` (row-major), ``channels_last`` (a 4-d NCHW tensor stored as NHWC)
    and ``channels_last_3d`` (a 5-d NCDHW tensor stored as NDHWC)."""

    __slots__ = ()


preserve_format = memory_format("preserve_format")
contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")


class layout(_Named):  # noqa: N801  (PyTorch's name)
    """How a tensor's elements are stored: minitorch's tensors are all ``strided`` (dense
    arrays with a stride per dimension; PyTorch also has sparse layouts)."""

    __slots__ = ()


strided = layout("strided")


def as_memory_format(value, function: str, default=preserve_format) -> memory_format:
    """The ``memory_format=`` argument of ``function``, ``default`` for None (PyTorch's
    TypeError for anything else)."""
    if value is None and default is not None:
        return default
    if type(value) is not memory_format:
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, "
                        f"not {type(value).__name__}")
    return value

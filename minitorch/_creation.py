"""Factories: the ways to make a tensor (``tensor``, ``ones``, ``zeros``, ``randn``, ...).

Every factory takes PyTorch's keyword arguments ``dtype=``, ``device=`` and
``requires_grad=``. Shapes may be given as separate ints or as one tuple: ``ones(2, 3)`` and
``ones((2, 3))`` are the same.

Example:
    >>> import minitorch
    >>> minitorch.zeros(2, 3).shape
    torch.Size([2, 3])
    >>> minitorch.tensor(3.0, requires_grad=True)
    tensor(3., requires_grad=True)
"""

from __future__ import annotations

import builtins
import math
import numbers
import warnings

import numpy as np

from minitorch import _backend, _device, _dtype, _random, _warnings
from minitorch._tensor import Tensor, _in_format, _keep_numpy_strides, _numpy_laid, _wrap

__all__ = [
    "tensor", "as_tensor", "from_numpy", "ones", "zeros", "full", "empty", "randn", "rand",
    "randint", "randperm", "arange", "linspace", "eye", "ones_like", "zeros_like", "full_like",
    "empty_like", "randn_like", "rand_like", "randint_like", "normal", "logspace", "tril_indices",
    "triu_indices", "deprecated_range", "asarray",
]


def _finish(data: np.ndarray, dtype, device, requires_grad: bool) -> Tensor:
    if dtype is not None:
        if not isinstance(dtype, _dtype.dtype):
            raise TypeError(
                f"dtype must be a minitorch dtype such as minitorch.float32, not {dtype!r}"
            )
        if data.dtype != dtype.np:
            data = data.astype(dtype.np)
    if device is None:
        device = _device._default_device  # set_default_device (None: stay on the CPU)
    if device is not None and device is not _device.cpu:  # NumPy arrays are on the CPU already
        device = _device.device(device)
        if device.type != "cpu":  # made there, as PyTorch's are: no copy op is recorded
            data = _backend.move(data, device)
    t = _wrap(data)
    if requires_grad:
        if data.dtype.kind != "f":
            raise RuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        t._requires_grad = True
    return t


# a random factory reads its device before it draws: a bad device string raises
# with the generator untouched, as in PyTorch (the tutorials' ``device='gpu'``)
def _parsed(device):
    """``device`` as a :class:`device` (None stays None), raising on a bad device string."""
    return device if device is None else _device.device(device)


def _check_fits(arr: np.ndarray, dtype) -> None:
    """PyTorch's error when Python numbers do not fit the integer ``dtype`` they become.

    As in PyTorch, a negative integer may wrap into an unsigned type (``-1`` is 255 as uint8),
    but 300 does not fit uint8, and neither inf nor NaN fits any integer type.
    """
    if dtype is None or dtype.np.kind not in "iu" or arr.size == 0 or arr.dtype.kind not in "iuf":
        return
    info = np.iinfo(dtype.np)
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            low = -1.0 if info.min == 0 else float(info.min) - 1.0
            bad = ~np.isfinite(arr) | (arr <= low) | (arr >= float(info.max) + 1.0)
    else:
        low = -int(info.max) if info.min == 0 else int(info.min)
        bad = (arr < low) | (arr > info.max)
    if bad.any():
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")


def _nested_error(data, dtype) -> Exception | None:
    """PyTorch's error for data that is not a rectangular nest of numbers, found in its order:
    the sizes from the first element at each depth, then the type of every element, then the
    length of every sequence. None where it finds nothing wrong."""
    if isinstance(data, str):
        return TypeError("new(): invalid data type 'str'")
    sizes, first = [], data
    while isinstance(first, (list, tuple, str)):
        if isinstance(first, str):  # a string is a sequence of strings, without end
            return ValueError("too many dimensions 'str'")
        sizes.append(len(first))
        if not first:
            break
        first = first[0]
    kinds = set()

    def check_types(x):
        if isinstance(x, (list, tuple)):
            return next((e for e in map(check_types, x) if e is not None), None)
        if isinstance(x, str):
            return TypeError("new(): invalid data type 'str'")
        if not isinstance(x, (numbers.Real, np.bool_, np.number)):
            return RuntimeError(f"Could not infer dtype of {type(x).__name__}")
        kinds.add("b" if isinstance(x, (bool, np.bool_)) else "f"
                  if isinstance(x, (float, np.floating)) else "i")
        return None

    error = check_types(data)
    if error is not None:
        return error
    if 0 in sizes:  # an empty tensor: PyTorch stores nothing into it, so checks no length
        return None
    kind = dtype.np.kind if dtype is not None else "f" if "f" in kinds else "i"

    def check_lengths(x, dim):
        if dim == len(sizes):
            if not isinstance(x, (list, tuple)):
                return None
            return TypeError(f"must be real number, not {type(x).__name__}" if kind == "f" else
                             f"'{type(x).__name__}' object cannot be interpreted as an integer")
        if not isinstance(x, (list, tuple)):
            return TypeError("not a sequence")
        if len(x) != sizes[dim]:
            return ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} "
                              f"(got {len(x)})")
        return next((e for e in (check_lengths(y, dim + 1) for y in x) if e is not None), None)

    return check_lengths(data, 0)


def _empty_nest(data) -> np.ndarray | None:
    """PyTorch's tensor for a nest whose first elements lead to an empty list, such as
    ``[[], [1]]``: its shape is read from the first element at each depth, (2, 0), and as
    nothing is stored into it the other elements are never compared with it (they are
    checked for their types only). Floating point, as the empty list's. None otherwise."""
    sizes, first = [], data
    while isinstance(first, (list, tuple)):
        sizes.append(len(first))
        if not first:
            return np.empty(sizes, np.float64)
        first = first[0]
    return None


def _check_int64(data, arr: np.ndarray) -> None:
    """Python ints beyond int64: PyTorch cannot unpack them (NumPy would make uint64 or
    object arrays, or silently floats for mixed lists)."""
    too_big = arr.dtype == np.uint64 or arr.dtype == object or (
        arr.dtype.kind == "f" and arr.size and np.fmax.reduce(np.abs(arr), None) >= 2.0 ** 63
        and _has_big_int(data))
    if too_big:
        raise ValueError("Overflow when unpacking long long")


def _has_big_int(data) -> bool:
    if isinstance(data, (list, tuple)):
        return builtins.any(_has_big_int(d) for d in data)
    return isinstance(data, int) and not -(2 ** 63) <= data < 2 ** 63


def _shape_arg(size, negative: str | None = None) -> tuple:
    """``f(2, 3)``, ``f((2, 3))`` or ``f([2, 3])`` as the shape ``(2, 3)``, checked. A negative
    size is an error in the words of ``negative`` if given (``zeros`` has its own)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    shape = []
    for s in size:
        if type(s) is not int:  # (asking the Integral ABC costs more than the rest together)
            if not isinstance(s, (numbers.Integral, Tensor)):
                raise TypeError(
                    f"expected a sequence of integers as the size, but got an element of type "
                    f"{type(s).__name__}"
                )
            s = int(s)
        if s < 0:
            raise RuntimeError(negative or f"Trying to create tensor with negative dimension "
                               f"{s}: [{', '.join(str(int(x)) for x in size)}]")
        shape.append(s)
    return tuple(shape)


def _float(dtype) -> np.dtype:
    return (dtype or _dtype.get_default_dtype()).np


_PLAIN = frozenset((float, int, builtins.bool))


_FLOAT_TENSOR = "a floating-point tensor"  # marks one in ``found``: see ``tensor``


def _values(data, found: set):
    """``data``, nested lists, with each tensor replaced by its one number, for ``np.array``.
    What the elements are goes into ``found``: the Python types of plain numbers, and the NumPy
    dtype of each tensor, NumPy number or array (PyTorch infers a list's dtype from them all).
    """
    kinds = set(map(type, data))
    if kinds <= _PLAIN:  # plain Python numbers (the common case): nothing to replace
        found |= kinds
        return data
    if not any(issubclass(k, (list, tuple, Tensor)) for k in kinds):
        for k in kinds:  # Python and NumPy numbers and arrays: np.array reads them as they are
            if not issubclass(k, np.ndarray):
                found.add(np.dtype(k) if issubclass(k, np.generic) else k)
        if any(issubclass(k, np.ndarray) for k in kinds):
            found |= {d.dtype for d in data if isinstance(d, np.ndarray)}
        return data
    out = []
    for d in data:
        if isinstance(d, (list, tuple)):
            out.append(_values(d, found))
        elif isinstance(d, Tensor):
            a = d._data
            if a.size != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            found.add(a.dtype)
            if a.dtype.kind == "f":
                found.add(_FLOAT_TENSOR)
            out.append(a.item())
        else:
            found.add(d.dtype if isinstance(d, (np.generic, np.ndarray)) else type(d))
            out.append(d)
    return out


def tensor(data, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Copy ``data`` (a number, nested lists, a NumPy array) into a new leaf tensor.

    Python floats become ``float32``, ints ``int64``, bools ``bool``; NumPy arrays keep their
    dtype.

    >>> tensor([[1, 2], [3, 4]])
    tensor([[1, 2],
            [3, 4]])
    """
    dtype = _dtype.as_dtype(dtype, "tensor")  # float, int, bool too
    if isinstance(data, Tensor):
        warnings.warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        arr = np.array(data._data)
    elif isinstance(data, (np.ndarray, np.generic)):  # NumPy arrays and scalars keep their dtype
        arr = np.array(data)
        if arr.dtype not in _dtype._FROM_NP:
            _dtype.from_numpy_dtype(arr.dtype)  # raises a TypeError naming the dtype
    else:
        found: set = set()
        values = _values(data, found) if isinstance(data, (list, tuple)) else data
        if _FLOAT_TENSOR in found:
            found.discard(_FLOAT_TENSOR)
            if dtype is not None and not dtype.is_floating_point:  # PyTorch reads each such
                raise TypeError("only integer tensors of a single element can be converted "
                                "to an index")  # tensor as an index, a float one refuses
        try:
            arr = np.array(values)
        except ValueError as e:
            error = _nested_error(data, dtype)
            if error is not None:
                raise error from None
            arr = _empty_nest(data)  # [[], [1]]: its shape comes from the first elements
            if arr is None:
                raise ValueError(
                    f"could not make a tensor from {type(data).__name__}: {e}") from None
        if arr.dtype.kind not in "biuf":
            error = _nested_error(data, dtype)
            if error is not None:
                raise error
        _check_int64(data, arr)
        _check_fits(arr, dtype)
        kind = arr.dtype.kind
        typed = [_dtype.from_numpy_dtype(f) for f in found if isinstance(f, np.dtype)]
        if dtype is not None and kind in "biuf":
            pass  # converted once, straight to dtype, below (not through float32 first)
        elif typed:  # tensors or NumPy numbers inside: PyTorch promotes every element's dtype
            inferred = typed[0]
            python = [_dtype.scalar_dtype(f(0)) for f in found if not isinstance(f, np.dtype)]
            for f in typed[1:] + python:
                inferred = _dtype.promote_types(inferred, f)
            arr = arr.astype(inferred.np, copy=False)
        elif kind == "f":
            arr = arr.astype(_float(None), copy=False)
        elif kind in "iu":
            arr = arr.astype(np.int64, copy=False)
        elif kind == "b":
            pass
        else:
            raise TypeError(
                f"Could not infer dtype of {type(data).__name__}: minitorch tensors hold numbers "
                "or bools"
            )
    return _finish(arr, dtype, device, requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """Like ``tensor`` but returns ``data`` itself when it already is a suitable tensor."""
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device)
    if isinstance(data, np.ndarray) and (dtype is None or data.dtype == dtype.np):
        return _finish(data, None, device, False)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor that shares memory with a NumPy array (changes show in both).

    >>> import numpy as np
    >>> a = np.zeros(2)
    >>> t = from_numpy(a); t += 1; a
    array([1., 1.])
    """
    if not isinstance(array, np.ndarray):
        kind = type(array)  # PyTorch names a type with its module, unless a builtin
        module = "" if kind.__module__ == "builtins" else f"{kind.__module__}."
        raise TypeError(f"expected np.ndarray (got {module}{kind.__name__})")
    if any(stride < 0 for stride in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with "
            "negative strides are not currently supported. (You can probably work around this "
            "by making a copy of your array  with array.copy().) ")
    _dtype.from_numpy_dtype(array.dtype)
    if not array.size:  # an empty array keeps NumPy's strides, 0, as in PyTorch
        _keep_numpy_strides(array)
    return _wrap(array)


# misc2: sizes too big for memory get PyTorch's RuntimeErrors, not NumPy's errors
def storage_error(shape, np_dtype, strides=None) -> RuntimeError:
    """PyTorch's error for a tensor of ``shape`` (and ``strides``) that cannot be made: its
    byte count overflows 64 bits, or the allocator has not that much memory."""
    shape = [int(n) for n in shape]
    length = 1 if strides is None else 1 + sum((n - 1) * st for n, st in zip(shape, strides))
    nbytes = (math.prod(shape) if strides is None else length) * np.dtype(np_dtype).itemsize
    if nbytes > _MAX_BYTES:
        return RuntimeError(f"Storage size calculation overflowed with sizes={shape}" + (
            "" if strides is None else f" and strides={list(strides)}"))
    return RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: "
                        f"can't allocate memory: you tried to allocate {nbytes} bytes. Error "
                        "code 12 (Cannot allocate memory)")


_MAX_BYTES = 2**63 - 1


def check_storage(shape, np_dtype, strides=None) -> None:
    """Raise PyTorch's overflow error before making a tensor of ``shape`` whose byte count
    does not fit 64 bits (a factory that computes its values before it has its result)."""
    error = storage_error(shape, np_dtype, strides)
    if "overflowed" in str(error):
        raise error


def _allocate(make, shape, np_dtype, *args) -> np.ndarray:
    """``make(shape, *args, dtype=np_dtype)`` (``np.zeros``, ``np.empty``...), with PyTorch's
    errors where it is too big."""
    try:
        return make(shape, *args, dtype=np_dtype)
    except (ValueError, MemoryError) as e:
        if isinstance(e, ValueError) and "too big" not in str(e):
            raise
        raise storage_error(shape, np_dtype) from None


def ones(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with 1 (float32 unless ``dtype`` says otherwise)."""
    dtype = _dtype.as_dtype(dtype, "ones")  # float, int, bool too
    return _finish(_ones_array(_shape_arg(size), _float(dtype) if dtype is None else dtype.np),
                   None, device, requires_grad)


def _ones_array(shape: tuple, np_dtype) -> np.ndarray:
    data = _allocate(np.empty, shape, np_dtype)
    data.fill(1)  # (np.ones does this in Python, at twice the cost)
    return data


def zeros(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with 0 (float32 unless ``dtype`` says otherwise)."""
    dtype = _dtype.as_dtype(dtype, "zeros")  # float, int, bool too
    shape = _shape_arg(size, "zeros: Dimension size must be non-negative.")
    return _finish(_allocate(np.zeros, shape, _float(dtype) if dtype is None else dtype.np),
                   None, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor whose values are whatever was in memory (fill it before reading it)."""
    dtype = _dtype.as_dtype(dtype, "empty")  # float, int, bool too
    return _finish(_uninitialized(_allocate(np.empty, _shape_arg(size), _float(dtype) if dtype
                                            is None else dtype.np)), None, device, requires_grad)


def _uninitialized(memory: np.ndarray) -> np.ndarray:
    """New memory whose values are undefined: filled, as PyTorch fills it, with NaN (the
    largest value for integers, True for bool) under ``use_deterministic_algorithms(True)``."""
    if _warnings.deterministic:
        kind = memory.dtype.kind
        memory.fill(np.nan if kind == "f" else True if kind == "b" else np.iinfo(memory.dtype).max)
    return memory


def full(size, fill_value, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``fill_value``; its dtype follows the value (``full((2,), 7)`` is
    int64)."""
    dtype = _dtype.as_dtype(dtype, "full")  # float, int, bool too
    if isinstance(size, int):  # PyTorch's full takes a size, not a length
        raise TypeError("full(): argument 'size' (position 1) must be tuple of ints, not int")
    if dtype is None:
        dtype = _dtype.scalar_dtype(fill_value)
    if isinstance(fill_value, numbers.Number):  # PyTorch's checked conversion: 1e40 is no float32
        fill_value = _dtype.number_as(fill_value, dtype)
    return _finish(_allocate(np.full, _shape_arg((size,)), dtype.np, fill_value), None, device,
                   requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Numbers drawn from the standard normal distribution N(0, 1)."""
    device = _parsed(device)
    dtype = _dtype.as_dtype(dtype, "randn")  # float, int, bool too
    _random.check_float_fill(_float(dtype), "normal_kernel_cpu")
    check_storage(_shape_arg(size), _float(dtype))
    return _finish(_random.normal_array(_shape_arg(size), 0.0, 1.0, _float(dtype), generator),
                   None, device, requires_grad)


def rand(*size, generator=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """Numbers drawn uniformly from [0, 1)."""
    device = _parsed(device)
    dtype = _dtype.as_dtype(dtype, "rand")  # float, int, bool too
    _random.check_float_fill(_float(dtype), "check_uniform_bounds")
    check_storage(_shape_arg(size), _float(dtype))
    return _finish(_random.uniform_array(_shape_arg(size), 0.0, 1.0, _float(dtype), generator),
                   None, device, requires_grad)


def normal(mean: float, std: float, size, *, generator=None, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    """Numbers drawn from N(mean, std**2)."""
    # on the CPU when given no device: PyTorch's default device (set_default_device,
    # ``with torch.device(...)``) does not reach normal, as its list of factories leaves it out
    device = _parsed(device) or _device.cpu
    dtype = _dtype.as_dtype(dtype, "normal")  # float, int, bool too
    _random.check_float_fill(_float(dtype), "normal_kernel_cpu")
    check_storage(_shape_arg((size,)), _float(dtype))
    return _finish(_random.normal_array(_shape_arg((size,)), mean, std, _float(dtype), generator),
                   None, device, requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad: bool = False) -> Tensor:
    """Integers drawn uniformly from [low, high): ``randint(10, (3,))`` or
    ``randint(0, 10, (3,))``."""
    device = _parsed(device)
    dtype = _dtype.as_dtype(dtype, "randint")  # float, int, bool too
    if size is None:
        low, high, size = 0, low, high
    if size is None:
        raise TypeError("randint() missing required argument 'size'")
    np_dtype = np.int64 if dtype is None else dtype.np
    check_storage(_shape_arg((size,)), np_dtype)
    return _finish(_random.integers_array(low, high, _shape_arg((size,)), np_dtype, generator),
                   dtype, device, requires_grad)


def randperm(n: int, *, generator=None, dtype=None, device=None) -> Tensor:
    """A random permutation of ``0 .. n-1``."""
    device = _parsed(device)
    dtype = _dtype.as_dtype(dtype, "randperm")  # float, int, bool too
    check_storage((n,), np.int64)
    return _finish(_random.permutation(n, generator).astype(np.int64), dtype, device, False)


def arange(start, end=None, step=1, *, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    """``start, start+step, ...`` up to (not including) ``end``; int64 when all are ints.

    >>> arange(4)
    tensor([0, 1, 2, 3])
    """
    dtype = _dtype.as_dtype(dtype, "arange")  # float, int, bool too
    if end is None:
        start, end = 0, start
    values = (start, end, step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if dtype is None:  # bools count as ints: arange(True) is tensor([0])
        ints = builtins.all(isinstance(v, (numbers.Integral,)) for v in values)
        dtype = _dtype.int64 if ints else _dtype.get_default_dtype()
    if dtype.is_floating_point:  # compute in float64 as PyTorch does, then cast
        n = int(np.ceil((end - start) / step))
        check_storage((n,), dtype.np)
        data = (start + step * np.arange(builtins.max(n, 0), dtype=np.float64))
    else:
        check_storage((len(range(int(start), int(end), int(step))),), dtype.np)
        data = np.arange(start, end, step)
    return _finish(data, dtype, device, requires_grad)


def linspace(start, end, steps: int, *, dtype=None, device=None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced numbers from ``start`` to ``end`` inclusive."""
    dtype = _dtype.as_dtype(dtype, "linspace")  # float, int, bool too
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = dtype or _dtype.get_default_dtype()
    check_storage((steps,), dtype.np)
    if dtype.np in _FUSED and steps > 1:
        data = _linspace(start, end, steps, dtype.np)
    else:
        data = np.linspace(start, end, steps, dtype=np.float64)
    return _finish(data, dtype, device, requires_grad)


# A precision in which ``a * b + c`` of two numbers of the dtype is rounded (nearly) once.
_FUSED = {np.dtype(np.float32): np.float64, np.dtype(np.float64): np.longdouble}


def _linspace(start, end, steps: int, np_dtype) -> np.ndarray:
    """PyTorch's CPU linspace, value for value: the first half counts up from ``start``, the
    second half down from ``end``, each value ``start + step * i`` computed as one fused
    multiply-add in the dtype's precision (NumPy's linspace rounds differently, and a model
    trained on the points drifts apart over a few thousand steps)."""
    t = np_dtype.type
    start, end = t(start), t(end)
    step = (end - start) / t(steps - 1)
    i = np.arange(steps)
    counting_up = i < steps // 2
    wide = _FUSED[np_dtype]
    offset = wide(step) * np.where(counting_up, i, steps - i - 1).astype(wide)
    return np.where(counting_up, wide(start) + offset, wide(end) - offset).astype(np_dtype)


def eye(n: int, m: int | None = None, *, dtype=None, device=None,
        requires_grad: bool = False) -> Tensor:
    """The identity matrix (ones on the diagonal)."""
    dtype = _dtype.as_dtype(dtype, "eye")  # float, int, bool too
    for name, size in (("n", n), ("m", m)):
        if size is not None and size < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {size}")
    np_dtype = _float(dtype) if dtype is None else dtype.np
    check_storage((n, n if m is None else m), np_dtype)
    return _finish(np.eye(n, m, dtype=np_dtype), None, device, requires_grad)


def _like(fn, t: Tensor, dtype, device, requires_grad, memory_format, name) -> Tensor:
    return _laid_out_as(t, fn(t.shape, dtype=dtype or t.dtype, device=device or t.device,
                              requires_grad=requires_grad), memory_format, name)


# layout task: the *_like factories keep their input's layout
def _laid_out_as(like: Tensor, out: Tensor, memory_format=_dtype.preserve_format,
                 name: str = "") -> Tensor:
    """``out``, its memory laid out as ``like``'s is (PyTorch's ``*_like`` factories default
    to ``memory_format=torch.preserve_format``: the zeros_like of a transposed tensor is
    transposed too), or as ``memory_format`` says."""
    data = like._data
    if memory_format is not _dtype.preserve_format:  # layout2 task
        fmt = _dtype.as_memory_format(memory_format, name)
        if fmt is not _dtype.preserve_format:
            out._data = _in_format(out._data, fmt)
            return out
    if type(out._data) is not np.ndarray:
        return out
    if not data.size:  # the strides of a tensor without elements, as they are
        out._data = np.lib.stride_tricks.as_strided(out._data, strides=data.strides)
        if _numpy_laid(data):  # (NumPy's 0s: an empty array from_numpy was given)
            _keep_numpy_strides(out._data)
    elif not data.flags.c_contiguous:
        laid = np.empty_like(data, dtype=out._data.dtype, subok=False)
        laid[...] = out._data
        out._data = laid
    return out


def ones_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,  # noqa: A002
              memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "ones_like")  # float, int, bool too
    data = input._data
    if (dtype is None and device is None and not requires_grad and type(data) is np.ndarray
            and data.size and memory_format is _dtype.preserve_format):
        seed = np.empty_like(data)  # the common case: a backward's seed (in input's layout)
        seed.fill(1)
        return _wrap(seed)
    return _like(ones, input, dtype, device, requires_grad, memory_format,
                 "ones_like")


def zeros_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,  # noqa: A002
               memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "zeros_like")  # float, int, bool too
    return _like(zeros, input, dtype, device, requires_grad, memory_format,
                 "zeros_like")


def empty_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,  # noqa: A002
               memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "empty_like")  # float, int, bool too
    return _like(empty, input, dtype, device, requires_grad, memory_format,
                 "empty_like")


def full_like(input: Tensor, fill_value, *, dtype=None, device=None,  # noqa: A002
              requires_grad: bool = False, memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "full_like")  # float, int, bool too
    return _laid_out_as(input, full(input.shape, fill_value, dtype=dtype or input.dtype,
                                    device=device or input.device, requires_grad=requires_grad),
                        memory_format, "full_like")


def randn_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,  # noqa: A002
               memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "randn_like")  # float, int, bool too
    return _like(randn, input, dtype, device, requires_grad, memory_format,
                 "randn_like")


def rand_like(input: Tensor, *, dtype=None, device=None, requires_grad: bool = False,  # noqa: A002
              memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "rand_like")  # float, int, bool too
    return _like(rand, input, dtype, device, requires_grad, memory_format,
                 "rand_like")


def randint_like(input: Tensor, low, high=None, *, dtype=None, device=None,  # noqa: A002
                 memory_format=_dtype.preserve_format) -> Tensor:
    dtype = _dtype.as_dtype(dtype, "randint_like")  # float, int, bool too
    if high is None:
        low, high = 0, low
    return _laid_out_as(input, randint(low, high, input.shape, dtype=dtype or input.dtype,
                                       device=device or input.device),
                        memory_format, "randint_like")


# ---------------------------------------------------------------- logspace, tril/triu_indices,
# range
def _number(value):
    """A 0-d tensor's number, as PyTorch's factories take one for start and end."""
    return value.item() if isinstance(value, Tensor) else value


_LOGSPACE = ("int steps, float base = 10.0, *, Tensor out = None, torch.dtype dtype = None, "
             "torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
             "bool requires_grad = False")


def logspace(start, end, steps: int | None = None, base: float = 10.0, *, dtype=None,
             device=None, requires_grad: bool = False) -> Tensor:
    """``steps`` numbers from ``base ** start`` to ``base ** end``, their exponents evenly
    spaced. As PyTorch's CPU kernel: the exponents count up from ``start`` for the first half
    and down from ``end`` for the second (in float64, from ``start`` and ``end`` rounded to
    the dtype), each power taken in float64 and rounded once (cut to an int for int dtypes).

    >>> logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    if steps is None:  # (PyTorch's argument parser finds no signature without steps)
        got = f"{type(start).__name__}, {type(end).__name__}"
        raise TypeError(f"logspace() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n" + "".join(
                            f" * ({a} start, {b} end, {_LOGSPACE})\n"
                            for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"),
                                         ("Tensor", "Number"), ("Number", "Number"))))
    dtype = _dtype.as_dtype(dtype, "logspace") or _dtype.get_default_dtype()
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    start, end = _number(start), _number(end)
    check_storage((steps,), dtype.np)
    if steps == 1:  # (from start itself, not rounded to the dtype)
        data = _libm_pow(base, np.array([start], np.float64))
    else:
        t = dtype.np.type
        low, high = np.array([start, end]).astype(dtype.np)  # (an int dtype cuts them)
        if dtype.is_floating_point:
            step = np.float64(t(high - low)) / (steps - 1)
        else:
            step = (np.float64(high) - np.float64(low)) / (steps - 1)
            base = float(np.float32(base))  # PyTorch raises a float32 base for int dtypes
        i = np.arange(steps, dtype=np.float64)
        up = i < steps // 2
        exponent = np.where(up, np.float64(low) + step * i,
                            np.float64(high) - step * (steps - i - 1))
        data = _libm_pow(base, exponent)
    if not dtype.is_floating_point:
        with np.errstate(invalid="ignore"):
            data = np.trunc(data)
    return _finish(data, dtype, device, requires_grad)


def _libm_pow(base, exponents: np.ndarray) -> np.ndarray:
    """``base ** e`` for each exponent with the C library's ``pow``, as PyTorch's ``std::pow``
    (NumPy's own float64 power can differ in the last bit); NaN and inf where it has no
    finite answer."""
    def power(e):
        try:
            return math.pow(base, e)
        except (ValueError, OverflowError):
            with np.errstate(invalid="ignore", over="ignore"):
                return float(np.power(np.float64(base), e))
    return np.array([power(float(e)) for e in exponents], np.float64)


def _triangle_indices(name: str, row: int, col: int, offset: int, dtype, device,
                      lower: bool) -> Tensor:
    for arg, value, position in (("row", row, 1), ("col", col, 2), ("offset", offset, 3)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be int, "
                            f"not {type(value).__name__}")
    dtype = _dtype.as_dtype(dtype, name) or _dtype.int64
    if dtype not in (_dtype.int64, _dtype.int32):
        raise NotImplementedError(f'"{name}" not implemented for '
                                  f"'{dtype._legacy.removesuffix('Tensor')}'")
    for arg, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{arg} must be non-negative, got{value}")
    i, j = np.indices((row, col)).reshape(2, -1)
    keep = j - i <= offset if lower else j - i >= offset
    return _finish(np.stack([i[keep], j[keep]]), dtype, device, False)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None) -> Tensor:
    """The indices of the lower triangle of a ``row`` x ``col`` matrix (the elements on and
    below the diagonal ``offset``), row by row: a 2 x N tensor of rows and columns.

    >>> tril_indices(2, 2)
    tensor([[0, 1, 1],
            [0, 0, 1]])
    """
    return _triangle_indices("tril_indices", row, col, offset, dtype, device, True)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None) -> Tensor:
    """The indices of the upper triangle (on and above the diagonal ``offset``), row by row."""
    return _triangle_indices("triu_indices", row, col, offset, dtype, device, False)


def deprecated_range(start, end=None, step=1, *, dtype=None, device=None,
                     requires_grad: bool = False) -> Tensor:
    """``torch.range`` (named so here, not to hide Python's ``range`` in this module).
    Deprecated, as in PyTorch (it warns on every call): ``start, start + step, ...`` up to
    *and including* ``end``, in the default float dtype unless ``dtype`` is given. Use
    ``arange``, which leaves ``end`` out, as Python's ``range`` does.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     deprecated_range(1, 3)
    tensor([1., 2., 3.])
    """
    warnings.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=3)  # the caller of minitorch.range (which _out's out= wraps)
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    for position, (arg, value) in enumerate((("start", start), ("end", end), ("step", step)), 1):
        if not isinstance(value, numbers.Number):
            raise TypeError(f"range(): argument '{arg}' (position {position}) must be Number, "
                            f"not {type(value).__name__}")
    dtype = _dtype.as_dtype(dtype, "range") or _dtype.get_default_dtype()
    if not dtype.is_floating_point:  # PyTorch computes in int64: the numbers are cut first
        start, end, step = (int(v) if np.isfinite(v) else v for v in (start, end, step))
    if not (np.isfinite(start) and np.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((end - start) / step + 1)
    wide = np.float64 if dtype.is_floating_point else np.int64  # as PyTorch's kernel counts
    data = wide(start) + np.arange(n, dtype=wide) * wide(step)
    return _finish(data, dtype, device, requires_grad)


# ---------------------------------------------------------------- (task: methods)
# scalar_tensor, empty_strided, empty_permuted
def scalar_tensor(s, *, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A 0-d tensor holding the number ``s``, of the default float dtype unless ``dtype`` is
    given (``scalar_tensor(3)`` is ``tensor(3.)``)."""
    if isinstance(s, Tensor) and s._data.ndim == 0:
        s = s.item()
    if not isinstance(s, numbers.Number):
        raise TypeError("scalar_tensor(): argument 's' (position 1) must be Number, not "
                        f"{type(s).__name__}")
    dtype = _dtype.as_dtype(dtype, "scalar_tensor") or _dtype.get_default_dtype()
    if isinstance(s, int) and not -2**63 <= s < 2**64:  # PyTorch's conversion of a Python int
        raise OverflowError("can't convert negative int to unsigned" if s < 0 else
                            "int too big to convert")
    value = _dtype.number_as(s, dtype)
    return _finish(np.array(value, dtype=dtype.np), None, device, requires_grad)


def _ints_arg(value, func: str, arg: str, position: int) -> tuple:
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be tuple of "
                        f"ints, not {type(value).__name__}")
    for i, v in enumerate(value):
        if not isinstance(v, (int, np.integer)) or isinstance(v, builtins.bool):
            raise TypeError(f"{func}(): argument '{arg}' (position {position}) must be tuple of "
                            f"ints, but found element of type {type(v).__name__} at pos {i}")
    return tuple(int(v) for v in value)


def empty_strided(size, stride, *, dtype=None, device=None, requires_grad: bool = False,
                  pin_memory: bool = False, _name: str = "empty_strided") -> Tensor:
    """An uninitialised tensor of ``size`` that steps ``stride`` elements along each
    dimension in its memory (``empty_strided((2, 3), (1, 2))`` is column-major)."""
    size = _ints_arg(size, _name, "size", 1)
    stride = _ints_arg(stride, _name, "stride", 2)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    np_dtype = _float(_dtype.as_dtype(dtype, "empty_strided"))
    length = 0 if 0 in size else 1 + sum((n - 1) * st for n, st in zip(size, stride))
    check_storage(size, np_dtype, stride)
    memory = _uninitialized(_allocate(np.empty, (length,), np_dtype))
    data = np.lib.stride_tricks.as_strided(
        memory, size, tuple(st * memory.itemsize for st in stride))
    return _finish(data, None, device, requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, device=None,
                   requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """An uninitialised tensor of ``size`` whose dimensions lie in memory in the order
    ``physical_layout`` (outermost first): ``empty((2, 3, 4)).permute(...)`` turned back."""
    size = _ints_arg(size, "empty_permuted", "size", 1)
    layout = _ints_arg(physical_layout, "empty_permuted", "physical_layout", 2)
    if len(size) != len(layout):
        raise RuntimeError("Number of dimensions in size does not match the length of the "
                           f"physical_layout; i.e. len(size) = {len(size)} is not equal to "
                           f"len(physical_layout) = {len(layout)}")
    seen = set()
    for i, d in enumerate(layout):
        if not 0 <= d < len(size):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and "
                               f"{len(size) - 1}, but got {d} at index {i}).  NB: negative dims "
                               "not currently supported; file an issue if you want it.")
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    np_dtype = _float(_dtype.as_dtype(dtype, "empty_permuted"))
    memory = _uninitialized(np.empty([size[d] for d in layout], np_dtype))
    return _finish(memory.transpose(np.argsort(layout)), None, device, requires_grad)


# asarray: torch.asarray, which shares memory with its input where it can
def _scalar_type(d: _dtype.dtype) -> str:
    """PyTorch's C++ name of a dtype (``Float``, ``Long``...), as its alias errors spell it."""
    return d._legacy.removesuffix("Tensor")


def _check_bool_arg(value, name: str) -> None:
    if value is not None and not isinstance(value, builtins.bool):
        raise TypeError(f"asarray(): argument '{name}' must be bool, not {type(value).__name__}")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` (a tensor, a NumPy array, a number, nested sequences) as a tensor, sharing its
    memory where it can, as ``torch.asarray`` does.

    ``copy=None`` shares the memory of a tensor or NumPy array that already has the asked
    ``dtype`` and ``device`` (a tensor comes back itself) and copies otherwise; ``copy=True``
    always copies; ``copy=False`` never does, and raises PyTorch's ``ValueError`` where a copy
    would be needed. Numbers and sequences are always copied (their dtypes follow
    :func:`tensor`: Python floats give the default dtype, a NumPy float64 array stays float64).
    ``requires_grad`` left out keeps a tensor's own (PyTorch warns when that is True); a
    conversion or copy of a tensor is recorded in the graph, and ``requires_grad=False`` detaches.

    >>> import numpy as np
    >>> a = np.zeros(2)
    >>> t = asarray(a); a[0] = 1; t
    tensor([1., 0.], dtype=torch.float64)
    """
    dtype = _dtype.as_dtype(dtype, "asarray")
    _check_bool_arg(copy, "copy")
    _check_bool_arg(requires_grad, "requires_grad")
    if isinstance(obj, np.ndarray):
        obj = from_numpy(obj)  # shares the memory; a tensor from here on
        if requires_grad is None:
            requires_grad = False
    if isinstance(obj, Tensor):
        return _asarray_tensor(obj, dtype, device, copy, requires_grad)
    if copy is False:
        if isinstance(obj, np.generic):
            raise RuntimeError("can't alias NumPy scalars. Either remove copy=False or transform "
                               "it in a ndarray. ")
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    if isinstance(obj, range):
        obj = list(obj)
    if requires_grad and dtype is not None and not dtype.is_floating_point:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    return tensor(obj, dtype=dtype, device=device, requires_grad=builtins.bool(requires_grad))


def _asarray_tensor(t: Tensor, dtype, device, copy, requires_grad) -> Tensor:
    if device is not None:
        device = _device.device(device)
        if device.type != "cpu" and device.index is None:
            device = _device.device(device.type, 0)
    wrong_device = device is not None and device != t.device
    wrong_dtype = dtype is not None and dtype is not t.dtype
    if copy is False:
        if wrong_device:
            raise ValueError(f"can't alias tensor from device '{t.device}' to '{device}'.")
        if wrong_dtype:
            raise ValueError(f"can't alias tensor with dtype '{_scalar_type(t.dtype)}' into "
                             f"dtype '{_scalar_type(dtype)}'.")
    out = t
    if wrong_device or wrong_dtype:
        out = t.to(device=device, dtype=dtype, copy=builtins.bool(copy))
    elif copy:
        out = t.clone()
    if requires_grad is None:
        if out is t and t.requires_grad:
            warnings.warn(
                "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad "
                "instead of False. Pass requires_grad=False explicitly to get the old behavior "
                "and silence this warning.", UserWarning, stacklevel=3)
    elif not requires_grad:
        if out.requires_grad:
            out = out.detach()
    elif not out.requires_grad:
        if not out.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        out.requires_grad_(True)
    return out

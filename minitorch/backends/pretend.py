"""A pretend GPU: a device backend whose memory is ordinary RAM, kept apart from the CPU's.

Most machines that run the course (Binder, CI, many laptops) have no NVIDIA GPU. minitorch's
device machinery does not care *what* a device is: a backend registered for a device type
(:mod:`minitorch._backend`) says which arrays it owns and how to copy them to and from the host.
This module is such a backend, for the device type ``"sim"``: its arrays are NumPy arrays of a
subclass, :class:`PretendArray`, kept apart from the CPU's and copied on every move, as a real
GPU's would be. Everything that decides where a tensor lives, moves it, or refuses to mix
devices then runs for real; only the speed is the CPU's. Where CuPy behaves differently from
NumPy in a way that breaks programs, the pretend GPU behaves like CuPy: it refuses NumPy arrays
inside its computations (move them first), has no ``writeable`` flag, and gives 0-d arrays for
single elements, so code that would fail on a real GPU fails here too. The GPU chapters'
checks and the package's device tests both use it.

=====================  ====================================================================
name                   what it is
=====================  ====================================================================
add_pretend_gpu        register the pretend GPU (device ``"sim"``, or another type) once
                       and return its device
second_device          the real GPU where minitorch can use one, the pretend GPU otherwise
backend_for            a context manager: another backend for a device type, for a block
PretendGPU             the backend
PretendArray           the arrays that live on the pretend GPU
PretendXP              the pretend GPU's array module (NumPy, results on the device)
=====================  ====================================================================

Example:
    >>> import minitorch
    >>> sim = add_pretend_gpu()
    >>> x = minitorch.tensor([1.0, 2.0]).to(sim)
    >>> x
    tensor([1., 2.], device='sim:0')
    >>> type(x._data).__name__, (x * 2).device
    ('PretendArray', device(type='sim', index=0))
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from minitorch import _backend
from minitorch._device import device

__all__ = ["PRETEND", "PretendArray", "PretendGPU", "PretendXP", "add_pretend_gpu",
           "backend_for", "second_device"]


PRETEND = "sim"  # the pretend GPU's device type: tensor([...], device='sim:0')


# ------------------------------------------------------------------ the pretend GPU
class PretendArray(np.ndarray):
    """An array that lives on the pretend GPU.

    Like CuPy's arrays, NumPy functions called on it give arrays of its own kind, so results
    stay on the device: ``np.exp(a)`` and ``a @ b`` are PretendArrays again.

    Example:
        >>> a = np.arange(3.0).view(PretendArray)
        >>> type(np.exp(a)).__name__, type(np.concatenate([a, a])).__name__
        ('PretendArray', 'PretendArray')
    """

    # Like CuPy, it refuses host (NumPy) arrays in its computations: the data must be moved
    # first. (A NumPy subclass would take them silently, hiding a program that cannot run on a
    # real GPU.) Python numbers and NumPy scalars are welcome, as in CuPy.
    # (Only the outermost call is checked: NumPy's own implementations mix in arrays of theirs.)
    def __array_function__(self, func, types, args, kwargs):
        with _checked((args, kwargs), zero_d=True):
            return _on_device(super().__array_function__(func, types, args, kwargs))

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        args = [x.view(np.ndarray) if isinstance(x, PretendArray) else x for x in inputs]
        if out is not None:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, PretendArray) else o
                                  for o in out)
        if method == "accumulate" and ufunc.__name__ not in ("add", "multiply"):
            raise NotImplementedError(f"`cupy_{ufunc.__name__}.accumulate` is not supported yet")
        if method == "at" and not _depth[0]:
            _refuse_adding_out_of_bounds(inputs[0].shape, inputs[1])
        if method == "at" and ufunc.__name__ == "add" and inputs[0].dtype.name not in _ADD_AT:
            raise TypeError("cupy.add.at only supports int32, int64, float16, float32, float64, "
                            "uint32, uint64, as data type")
        with _checked((inputs, out)):
            result = super().__array_ufunc__(ufunc, method, *args, **kwargs)
        if result is NotImplemented or method == "at":
            return result
        if out is not None:  # written into the caller's arrays: hand those back
            return out[0] if len(out) == 1 else out
        return _on_device(result)

    def __getitem__(self, key):
        """One element is a 0-d array on the device, as CuPy gives, not a NumPy scalar. An
        integer index array out of bounds wraps around, as CuPy's does (it checks nothing; so
        does writing, ``__setitem__``)."""
        with _checked(key, IndexError):
            out = super().__getitem__(_wrapped_around(self.shape, key))
        return out if isinstance(out, np.ndarray) else np.asarray(out).view(PretendArray)

    def __setitem__(self, key, value) -> None:
        if not _depth[0] and type(value) is np.ndarray and value.ndim:
            raise ValueError("non-scalar numpy.ndarray cannot be used for fill")  # CuPy's words
        with _checked(key, IndexError):
            super().__setitem__(_wrapped_around(self.shape, key), value)

    # CuPy's reductions take no ``initial=`` or ``where=``
    def max(self, axis=None, out=None, keepdims=False):
        return super().max(axis=axis, out=out, keepdims=keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return super().min(axis=axis, out=out, keepdims=keepdims)

    @property
    def flags(self):
        """CuPy's arrays have no ``writeable`` flag, so neither do these: code that reads it
        fails on the pretend GPU as it would on a real one, not only on a machine with CuPy.

        Example:
            >>> a = np.arange(3.0).view(PretendArray)
            >>> a.flags.c_contiguous, hasattr(a.flags, "writeable")
            (True, False)
        """
        return _CupyLikeFlags(np.ndarray.flags.__get__(self))


class _CupyLikeFlags:
    """A NumPy array's flags without ``writeable`` to read, as CuPy's ``Flags`` has none.
    Setting it (which NumPy-only code does, to make a NumPy view writeable) still works."""

    def __init__(self, flags) -> None:
        object.__setattr__(self, "_flags", flags)

    def __getattr__(self, name: str):
        if name in ("writeable", "writable"):
            raise AttributeError(f"'Flags' object has no attribute '{name}'")
        return getattr(self._flags, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._flags, name, value)


_ADD_AT = {"int32", "int64", "float16", "float32", "float64", "uint32", "uint64"}  # CuPy's
_depth = [0]  # how deep inside a PretendArray operation NumPy is


@contextmanager
def _checked(args: Any, error: type = TypeError, zero_d: bool = False) -> Iterator[None]:
    """Refuse host arrays in an operation called from outside; then let NumPy work."""
    if not _depth[0]:
        _refuse_host_arrays(args, error, zero_d)
    _depth[0] += 1
    try:
        yield
    finally:
        _depth[0] -= 1


def _refuse_host_arrays(args: Any, error: type = TypeError, zero_d: bool = False) -> None:
    """CuPy's refusal of a NumPy array (not a number) inside a device computation; with
    ``zero_d``, of a 0-d one too (CuPy's functions refuse it; in an operator it is the form
    NumPy gives a scalar, ``np.float32(2) < a``, and CuPy's ufuncs take that)."""
    if type(args) is np.ndarray and (args.ndim or zero_d):
        if error is IndexError:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             "byte Variables are valid indices (got a NumPy array: move it to "
                             "the device first)")
        raise TypeError("Unsupported type <class 'numpy.ndarray'>")
    if isinstance(args, (tuple, list)):
        for a in args:
            _refuse_host_arrays(a, error, zero_d)
    elif isinstance(args, dict):
        for a in args.values():
            _refuse_host_arrays(a, error, zero_d)


def _index_arrays(shape: tuple, key: Any) -> list:
    """``(position in the key, size of the dimension it indexes)`` of each integer index array
    of ``key`` (a key with more indices than ``shape`` has dimensions gives none)."""
    keys = key if isinstance(key, tuple) else (key,)
    arrays = [isinstance(k, np.ndarray) for k in keys]
    used = sum(k.ndim if a and k.dtype == np.bool_ else 1
               for k, a in zip(keys, arrays) if k is not None and k is not Ellipsis)
    found, d = [], 0
    for i, (k, a) in enumerate(zip(keys, arrays)):
        if used > len(shape):
            break
        if k is Ellipsis:
            d += len(shape) - used
        elif a and k.dtype == np.bool_:
            d += k.ndim
        elif k is not None:
            if a and k.dtype.kind in "iu":
                found.append((i, shape[d]))
            d += 1
    return found


def _wrapped_around(shape: tuple, key: Any) -> Any:
    """``key`` with its integer index arrays taken modulo their dimension's size, as CuPy
    reads and writes them."""
    found = _index_arrays(shape, key)
    if not found:
        return key
    keys = list(key if isinstance(key, tuple) else (key,))
    for i, n in found:
        keys[i] = keys[i].view(np.ndarray) % n if n else keys[i]
    return tuple(keys) if isinstance(key, tuple) else keys[0]


def _refuse_adding_out_of_bounds(shape: tuple, key: Any) -> None:
    """CuPy's ``add.at`` writes outside the array for an index out of range, and the GPU then
    fails every later call; the pretend GPU raises that error at once."""
    keys = key if isinstance(key, tuple) else (key,)
    for i, n in _index_arrays(shape, key):
        k = keys[i].view(np.ndarray)
        if k.size and (k.min() < -n or k.max() >= n):
            raise RuntimeError("CUDA error: an illegal memory access was encountered (the "
                               "pretend GPU's add.at was given an index out of bounds)")


def _on_device(out: Any) -> Any:
    if isinstance(out, np.generic):  # CuPy gives 0-d arrays, not scalars
        return np.asarray(out).view(PretendArray)
    if type(out) is np.ndarray:
        return out.view(PretendArray)
    if isinstance(out, (tuple, list)):
        return type(out)(_on_device(o) for o in out)
    return out


class PretendXP:
    """The pretend GPU's array module: NumPy, with every new array placed on the device.

    minitorch creates arrays through a tensor's array module (``xp.zeros(...)``), as it would
    with ``cupy``.

    Example:
        >>> type(PretendXP().zeros(2)).__name__
        'PretendArray'
    """

    def __getattr__(self, name: str) -> Any:
        if name == "lib":  # cupy.lib.stride_tricks.as_strided: a view on the device
            return _PretendLib
        attr = getattr(np, name)
        if isinstance(attr, np.ufunc) or not callable(attr):
            return attr

        def on_device(*args, **kwargs):
            return _on_device(attr(*args, **kwargs))

        return on_device


class _PretendLib:
    class stride_tricks:  # noqa: N801 (the module's name in NumPy and CuPy)
        @staticmethod
        def as_strided(x, shape=None, strides=None):
            view = np.lib.stride_tricks.as_strided(x.view(np.ndarray), shape, strides)
            return view.view(PretendArray)


class PretendGPU(_backend.Backend):
    """A device backend whose memory is ordinary RAM, kept apart from the CPU's arrays.

    Example:
        >>> gpu = PretendGPU()
        >>> on = gpu.from_numpy(np.ones(2), 0)
        >>> gpu.owns(on), gpu.owns(np.ones(2)), type(gpu.to_numpy(on)).__name__
        (True, False, 'ndarray')
    """

    name = "pretend"
    xp = PretendXP()

    def owns(self, array) -> bool:
        return isinstance(array, PretendArray)

    def index_of(self, array) -> int:
        return 0

    def from_numpy(self, array, index):
        return np.array(array).view(PretendArray)  # a copy: device memory is separate

    def to_numpy(self, array):
        return np.array(array.view(np.ndarray))  # a copy, back in host memory


def add_pretend_gpu(device_type: str = PRETEND) -> device:
    """Register the pretend GPU for ``device_type`` (once) and return its device.

    Example:
        >>> add_pretend_gpu()
        device(type='sim')
    """
    if not isinstance(_backend._BACKENDS.get(device_type), PretendGPU):
        _backend.register_backend(device_type, PretendGPU())
    return device(device_type)


def second_device() -> device:
    """A device other than the CPU: the GPU where minitorch can use one, else the pretend GPU.

    Example:
        >>> import minitorch
        >>> second_device().type in ("cuda", "sim")
        True
    """
    if _backend.get("cuda").is_available():
        return device("cuda")
    return add_pretend_gpu()


@contextmanager
def backend_for(device_type: str, backend: _backend.Backend) -> Iterator[None]:
    """Use ``backend`` for ``device_type`` inside the block; put back what was there.

    Example:
        >>> import minitorch
        >>> before = _backend.get("cuda")
        >>> with backend_for("cuda", PretendGPU()):
        ...     print(minitorch.ones(2).to("cuda").device, type(_backend.get("cuda")).__name__)
        cuda:0 PretendGPU
        >>> _backend.get("cuda") is before
        True
    """
    old = _backend._BACKENDS.get(device_type)
    flag = _backend.devices_in_use
    _backend.register_backend(device_type, backend)
    try:
        yield
    finally:
        if old is None:
            del _backend._BACKENDS[device_type]
        else:
            _backend._BACKENDS[device_type] = old
        _backend.devices_in_use = flag or _backend.devices_in_use

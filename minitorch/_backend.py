"""The array seam: the one place that knows which array library holds a tensor's numbers.

Every operation works on its inputs' arrays through the NumPy API. On the CPU the arrays are
NumPy arrays; on a GPU they are CuPy arrays, and NumPy's functions dispatch to CuPy by
themselves (``np.exp(cupy_array)`` runs ``cupy.exp``). Where an operation must *create* an
array, it asks :func:`array_module` for the right module (``xp.zeros(...)``). So the autograd
code does not change when the GPU backend plugs in.

A backend is registered per device type:

* ``"cpu"``: NumPy, always there.
* ``"cuda"``: CuPy, loaded on first use. Without CuPy, or without a GPU, moving a tensor there
  raises a RuntimeError that says which one is missing and how to get it.

Example:
    >>> import minitorch
    >>> minitorch.cuda.is_available() in (True, False)
    True
"""

from __future__ import annotations

import numpy as np

from minitorch import _device

__all__ = ["Backend", "NumpyBackend", "CupyBackend", "get", "register_backend", "move",
           "asarray", "to_numpy", "array_module", "device_of_array"]


class Backend:
    """What minitorch needs from an array library on one device type."""

    name = "abstract"
    xp = np  # the array module: numpy, cupy, ...

    def is_available(self) -> bool:
        return True

    def owns(self, array) -> bool:
        """Whether ``array`` is one of this backend's arrays."""
        return False

    def device_count(self) -> int:
        return 1

    def from_numpy(self, array: np.ndarray, index: int) -> object:
        """Copy a host (NumPy) array onto this device."""
        raise NotImplementedError

    def to_numpy(self, array) -> np.ndarray:
        """Copy an array of this device to the host."""
        raise NotImplementedError

    def synchronize(self) -> None:
        """Wait for queued work to finish (GPUs run asynchronously)."""


class NumpyBackend(Backend):
    """The CPU: arrays are NumPy arrays, nothing to copy."""

    name = "numpy"

    def owns(self, array) -> bool:
        return type(array) is np.ndarray

    def from_numpy(self, array, index):
        return array

    def to_numpy(self, array):
        return array


class CupyBackend(Backend):
    """NVIDIA GPUs through CuPy (``pip install cupy-cuda12x``)."""

    name = "cupy"

    def __init__(self) -> None:
        self._cupy = None
        self._error = None

    def _load(self):
        if self._cupy is None and self._error is None:
            try:
                import cupy  # optional, heavy: imported on first use

                count = cupy.cuda.runtime.getDeviceCount()
                if count < 1:
                    self._error = "CuPy is installed but it finds no CUDA GPU on this machine"
                else:
                    self._cupy = cupy
            except ImportError:
                self._error = ("CuPy is not installed. Install it with `pip install cupy-cuda12x` "
                               "(or `pip install -e \".[gpu]\"`) on a machine with an NVIDIA GPU")
            except Exception as e:  # CUDA driver missing, no device, ...
                self._error = f"CuPy cannot use a GPU here ({type(e).__name__}: {e})"
        return self._cupy

    @property
    def xp(self):
        return self._load() or np

    def unavailable_reason(self) -> str | None:
        self._load()
        return self._error

    def is_available(self) -> bool:
        return self._load() is not None

    def owns(self, array) -> bool:
        cupy = self._cupy  # never import CuPy just to look at an array
        return cupy is not None and isinstance(array, cupy.ndarray)

    def device_count(self) -> int:
        cupy = self._load()
        return 0 if cupy is None else cupy.cuda.runtime.getDeviceCount()

    def index_of(self, array) -> int:
        return array.device.id

    def from_numpy(self, array, index):
        cupy = self._require()
        with cupy.cuda.Device(index or 0):
            if array.ndim == 0:  # CuPy makes a 0-d array from its value (seen: -0.0 becomes
                return cupy.asarray(array.reshape(1)).reshape(())  # 0.0): copy its bytes
            return cupy.asarray(array)

    def to_numpy(self, array):
        return self._require().asnumpy(array)

    def synchronize(self) -> None:
        cupy = self._load()
        if cupy is not None:
            cupy.cuda.Stream.null.synchronize()

    def _require(self):
        cupy = self._load()
        if cupy is None:
            raise RuntimeError(
                f"Cannot use device 'cuda': {self._error}. Use device='cpu', or pick the device "
                "with `device = 'cuda' if minitorch.cuda.is_available() else 'cpu'`."
            )
        return cupy


_BACKENDS: dict[str, Backend] = {"cpu": NumpyBackend(), "cuda": CupyBackend()}

# True once any tensor has left the CPU: until then operations skip all device bookkeeping.
devices_in_use = False


def register_backend(device_type: str, backend: Backend) -> Backend | None:
    """Use ``backend`` for ``device_type``; returns the previous one (tests swap in a
    simulated GPU backed by NumPy this way)."""
    _device._DEVICE_TYPES.add(device_type)
    old = _BACKENDS.get(device_type)
    _BACKENDS[device_type] = backend
    return old


def get(device) -> Backend:
    """The backend of a device (or device type string)."""
    return _BACKENDS[getattr(device, "type", device)]


def move(array, device):
    """``array`` copied to ``device`` (through the host when it changes library)."""
    global devices_in_use
    target = get(device)
    if not target.is_available():
        target.from_numpy(None, device.index)  # raises the "which part is missing" error
    host = array if type(array) is np.ndarray else to_numpy(array)
    devices_in_use = devices_in_use or device.type != "cpu"
    return target.from_numpy(host, device.index)


def broadcast_to(array, shape: tuple):
    """``np.broadcast_to(array, shape)``: a read-only view that repeats size-1 dimensions.

    NumPy's own builds the view with an iterator and costs about ten times more than the view
    itself; for a contiguous NumPy array the strides are simple enough to write down: 0 along
    every repeated dimension, the array's own elsewhere.
    """
    lead = len(shape) - array.ndim
    if type(array) is not np.ndarray or not array.flags.c_contiguous or not array.size or lead < 0:
        return np.broadcast_to(array, shape)
    strides = [0] * lead
    for have, want, stride in zip(array.shape, shape[lead:], array.strides):
        if have == 1 and want >= 0:  # repeated (or kept at 1): stride 0, as NumPy writes it
            strides.append(0)
        elif have == want:
            strides.append(stride)
        else:  # not broadcastable: NumPy's error
            return np.broadcast_to(array, shape)
    view = np.ndarray(shape, array.dtype, array, 0, tuple(strides))
    view.flags.writeable = False
    return view


def writeable(array) -> bool:
    """Whether ``array`` may be written into. NumPy keeps a flag (off for broadcast views);
    CuPy has none, so there an array is refused only where one memory location stands for
    several elements (a stride of 0 along a dimension longer than 1), as PyTorch refuses."""
    flags = array.flags
    if hasattr(flags, "writeable"):
        return flags.writeable
    return all(stride or size <= 1 for stride, size in zip(array.strides, array.shape))


def open_grid(xp, shape: tuple) -> tuple:
    """``xp.indices(shape, sparse=True)``, which CuPy's ``indices`` lacks: one index array per
    dimension, counting along it and of length 1 along the others."""
    last = len(shape) - 1
    return tuple(xp.arange(size).reshape((1,) * i + (size,) + (1,) * (last - i))
                 for i, size in enumerate(shape))


def asarray(data, dtype=None):
    """Turn NumPy scalars (which NumPy ops return for 0-d results) into arrays; arrays of
    other libraries pass through unchanged."""
    if isinstance(data, np.generic):  # the common case, first: a NumPy op's 0-d result
        return np.asarray(data) if dtype is None else np.asarray(data, dtype)
    if isinstance(data, (int, float, bool, list, tuple)):
        return np.asarray(data, dtype=dtype)
    return data


def _owner(data) -> tuple[str, Backend] | None:
    for device_type, backend in _BACKENDS.items():
        if device_type != "cpu" and backend.owns(data):
            return device_type, backend
    return None


def to_numpy(data) -> np.ndarray:
    """A NumPy array with the same values (the array itself when it already is one)."""
    if type(data) is np.ndarray:
        return data
    found = _owner(data)
    return found[1].to_numpy(data) if found else np.asarray(data)


def onto_device_of(host: np.ndarray, like):
    """``host`` copied to the device that ``like`` is on, bit for bit: a 0-d array as one
    element (CuPy makes a 0-d array from its value, and -0.0 lost its sign)."""
    xp = array_module(like)
    return xp.asarray(host.reshape(1)).reshape(()) if host.ndim == 0 else xp.asarray(host)


def array_module(data):
    """The module whose functions create arrays like ``data`` (``numpy`` or ``cupy``)."""
    if type(data) is np.ndarray:
        return np
    found = _owner(data)
    return found[1].xp if found else np


def device_of_array(data):
    """The device an array lives on."""
    found = _owner(data)
    if found is None:
        return _device.cpu
    device_type, backend = found
    index = backend.index_of(data) if hasattr(backend, "index_of") else 0
    return _device.device(device_type, index)


# ---------------------------------------------------------------- the default device
def set_default_device(device_: _device.device | str | int | None) -> None:
    """Make factories (``zeros``, ``randn``, ``tensor``, ...) create tensors on ``device_``
    when they are given no ``device=``; ``None`` goes back to the CPU.

    >>> import minitorch
    >>> minitorch.set_default_device("cpu"); minitorch.get_default_device()
    device(type='cpu')
    >>> minitorch.set_default_device(None)
    """
    if device_ is None:
        _device._default_device = None
        return
    if isinstance(device_, int):
        device_ = _device.device("cuda", device_)
    new = _device.device(device_)
    if new.type != "cpu" and not get(new.type).is_available():
        get(new.type).from_numpy(None, new.index)  # the RuntimeError that says what is missing
    _device._set_default(new)

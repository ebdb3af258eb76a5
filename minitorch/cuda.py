"""``minitorch.cuda``: is there a GPU, how many, and waiting for it.

>>> import minitorch
>>> device = "cuda" if minitorch.cuda.is_available() else "cpu"
"""

from __future__ import annotations

from minitorch import _backend

__all__ = ["is_available", "device_count", "synchronize", "current_device", "get_device_name",
           "unavailable_reason"]


def is_available() -> bool:
    """True when CuPy is installed and finds a CUDA GPU."""
    return _backend.get("cuda").is_available()


def device_count() -> int:
    """The number of GPUs minitorch can use (0 without CuPy or a GPU)."""
    backend = _backend.get("cuda")
    return backend.device_count() if backend.is_available() else 0


def synchronize(device=None) -> None:
    """Wait until the GPU has finished everything queued (do this before reading a timer)."""
    _backend.get("cuda").synchronize()


def current_device() -> int:
    return 0


def get_device_name(device=None) -> str:
    """The GPU's name, such as ``"NVIDIA H100 80GB HBM3"``."""
    backend = _backend.get("cuda")
    cupy = backend.__dict__.get("_cupy") if backend.is_available() else None
    if cupy is None:
        raise RuntimeError(unavailable_reason() or "no CUDA device")
    props = cupy.cuda.runtime.getDeviceProperties(device or 0)
    name = props["name"]
    return name.decode() if isinstance(name, bytes) else name


def unavailable_reason() -> str | None:
    """Why the GPU cannot be used here (None when it can)."""
    backend = _backend.get("cuda")
    reason = getattr(backend, "unavailable_reason", None)
    return reason() if reason else None

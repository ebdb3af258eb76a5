"""``minitorch.accelerator``: the one accelerator this machine has, whatever its kind.

PyTorch 2.6+ tutorials write::

    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() \\
        else "cpu"

minitorch's only accelerator is an NVIDIA GPU through CuPy, so these answer what
``minitorch.cuda`` answers.

>>> import minitorch
>>> minitorch.accelerator.is_available() == minitorch.cuda.is_available()
True
"""

from __future__ import annotations

from minitorch import cuda
from minitorch._device import device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index",
           "synchronize"]


def is_available() -> bool:
    """Whether there is an accelerator (a CUDA GPU minitorch can use)."""
    return cuda.is_available()


def current_accelerator(check_available: bool = False) -> device | None:
    """``device(type='cuda')`` when a GPU is usable here, else None (as PyTorch on a machine
    whose build has no accelerator)."""
    if cuda.is_available():
        return device("cuda")
    return None


def device_count() -> int:
    """How many accelerators there are (0 without a usable GPU)."""
    return cuda.device_count()


def current_device_index() -> int:
    """The index of the current accelerator; a RuntimeError when there is none."""
    if not cuda.is_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return cuda.current_device()


current_device_idx = current_device_index


def synchronize(device=None) -> None:
    """Wait until the accelerator has finished its queued work."""
    if cuda.is_available():
        cuda.synchronize(device)

"""Devices: where a tensor's numbers live.

``minitorch.device("cpu")`` names the NumPy backend. The GPU chapter adds ``"cuda"`` through
CuPy; until then asking for it raises a RuntimeError that says what is missing.

Example:
    >>> import minitorch
    >>> minitorch.device("cpu")
    device(type='cpu')
"""

from __future__ import annotations

__all__ = ["device"]


class device:  # noqa: N801  (PyTorch's name)
    """A device, as ``torch.device``: a type (``"cpu"``, ``"cuda"``) and an optional index."""

    __slots__ = ("type", "index")

    def __new__(cls, type_or_device="cpu", index: int | None = None):
        if isinstance(type_or_device, device):
            return type_or_device
        self = object.__new__(cls)
        spec = str(type_or_device)
        if ":" in spec:
            spec, _, idx = spec.partition(":")
            if not idx.isdigit():
                raise RuntimeError(f"Invalid device string: '{type_or_device}'")
            index = int(idx)
        if spec not in _DEVICE_TYPES:
            known = ("cpu, cuda" if spec in _TORCH_DEVICE_TYPES.split(", ")
                     else _TORCH_DEVICE_TYPES)
            raise RuntimeError(
                f"Expected one of {known} device type at start of device string: "
                f"{type_or_device}"
            )
        self.type = spec
        self.index = index
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        # As in PyTorch, a device equals only a device: ``t.device == "cpu"`` is False (compare
        # ``t.device.type == "cpu"``, or ``t.device == torch.device("cpu")``).
        if not isinstance(other, device):
            return NotImplemented
        return (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (str(self),))

    # ``with torch.device("cuda"):`` makes it the default device of the factories
    # inside the block (PyTorch's DeviceContext); the block's end, or an exception leaving
    # it, puts back the default that was set before, so blocks nest.
    def __enter__(self) -> device:
        _entered.append(_default_device)
        _set_default(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        global _default_device
        if _entered:
            _default_device = _entered.pop()


# Device types the backend registry knows about (see minitorch/_backend.py).
_DEVICE_TYPES = {"cpu", "cuda"}
# the types PyTorch knows, as its error for a string that names none lists them
# (one it knows that minitorch lacks, such as "mps", is refused with minitorch's two)
_TORCH_DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
                       "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone")
cpu = device("cpu")


# ---------------------------------------------------------------- the default device
_default_device: device | None = None  # None: factories make CPU tensors (see _backend)
_entered: list = []  # the defaults that ``with device(...)`` blocks replaced


def _set_default(new: device) -> None:
    """Make ``new`` the factories' default device (the CPU is kept as None)."""
    global _default_device
    _default_device = None if new.type == "cpu" else new


def get_default_device() -> device:
    """The device factories use when given none (``device(type='cpu')`` unless changed)."""
    return cpu if _default_device is None else _default_device

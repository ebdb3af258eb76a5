"""Padding layers, as ``torch.nn``'s: ``ZeroPad1d/2d``, ``ConstantPad1d/2d``,
``ReflectionPad1d/2d`` and ``ReplicationPad1d/2d``, each a call of
:func:`minitorch.nn.functional.pad` with its mode.

``padding`` is an int (the same on every side) or a tuple ``(left, right)`` for 1d,
``(left, right, top, bottom)`` for 2d; the module keeps it as that tuple.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.ReflectionPad1d(2)
    ReflectionPad1d((2, 2))
    >>> nn.ZeroPad1d((1, 0))(minitorch.tensor([[1.0, 2.0]]))
    tensor([[0., 1., 2.]])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["ConstantPad1d", "ConstantPad2d", "ZeroPad1d", "ZeroPad2d", "ReflectionPad1d",
           "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d"]


def _ntuple(padding, n: int) -> tuple:
    """An int repeated ``n`` times, or the given sequence as a tuple (as PyTorch's ``_pair``
    and ``_quadruple``)."""
    if isinstance(padding, (tuple, list)):
        return tuple(padding)
    return (padding,) * n


class _ConstantPadNd(Module):
    def __init__(self, value: float) -> None:
        super().__init__()
        self.value = value

    def forward(self, input):  # noqa: A002
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last dimension with ``value``."""

    def __init__(self, padding, value: float) -> None:
        super().__init__(value)
        self.padding = _ntuple(padding, 2)


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two dimensions with ``value``."""

    def __init__(self, padding, value: float) -> None:
        super().__init__(value)
        self.padding = _ntuple(padding, 4)


class ZeroPad1d(ConstantPad1d):
    """Pad the last dimension with zeros."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Pad the last two dimensions with zeros."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ModePad(Module):
    mode = ""
    size = 2

    def __init__(self, padding) -> None:
        super().__init__()
        self.padding = _ntuple(padding, self.size)

    def forward(self, input):  # noqa: A002
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_ModePad):
    """Pad the last dimension with its mirror image (the edge not repeated)."""

    mode = "reflect"


class ReflectionPad2d(_ModePad):
    """Pad the last two dimensions with their mirror image (the edge not repeated)."""

    mode, size = "reflect", 4


class ReplicationPad1d(_ModePad):
    """Pad the last dimension by repeating its edge values."""

    mode = "replicate"


class ReplicationPad2d(_ModePad):
    """Pad the last two dimensions by repeating their edge values."""

    mode, size = "replicate", 4


# the 3d pads and the circular ones
class ConstantPad3d(_ConstantPadNd):
    """Pad the last three dimensions with ``value``."""

    def __init__(self, padding, value: float) -> None:
        super().__init__(value)
        self.padding = _ntuple(padding, 6)


class ZeroPad3d(ConstantPad3d):
    """Pad the last three dimensions with zeros."""

    def __init__(self, padding) -> None:
        super().__init__(padding, 0.0)

    extra_repr = ZeroPad1d.extra_repr  # the padding alone


class ReflectionPad3d(_ModePad):
    """Pad the last three dimensions with their mirror image (the edge not repeated)."""

    mode, size = "reflect", 6


class ReplicationPad3d(_ModePad):
    """Pad the last three dimensions by repeating their edge values."""

    mode, size = "replicate", 6


class _CircularPad(_ModePad):
    """Pad with the values from the other end (as if the signal were periodic). PyTorch's
    modules check the input's rank first: with or without a batch dimension."""

    mode = "circular"

    def forward(self, input):  # noqa: A002
        spatial = self.size // 2
        if input.dim() not in (spatial + 1, spatial + 2):
            raise ValueError(f"expected {spatial + 1}D or {spatial + 2}D input (got "
                             f"{input.dim()}D input)")
        return super().forward(input)


class CircularPad1d(_CircularPad):
    """Pad the last dimension circularly."""


class CircularPad2d(_CircularPad):
    """Pad the last two dimensions circularly."""

    size = 4


class CircularPad3d(_CircularPad):
    """Pad the last three dimensions circularly."""

    size = 6


__all__ += ["ConstantPad3d", "ZeroPad3d", "ReflectionPad3d", "ReplicationPad3d",
            "CircularPad1d", "CircularPad2d", "CircularPad3d"]

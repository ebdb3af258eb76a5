"""``nn.Unfold`` and ``nn.Fold``: sliding blocks to columns (im2col) and back (col2im).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.Unfold(kernel_size=(2, 3))(minitorch.zeros(2, 5, 3, 4)).shape
    torch.Size([2, 30, 4])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["Unfold", "Fold"]


class Unfold(Module):
    """The sliding ``kernel_size`` blocks of ``(N, C, H, W)`` as columns of
    ``(N, C kh kw, L)``."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):  # noqa: A002
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Unfold):
    """Columns of ``(N, C kh kw, L)`` summed back into ``(N, C, *output_size)``."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input):  # noqa: A002
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, " + super().extra_repr()

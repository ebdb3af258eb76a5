"""``nn.Flatten``: merge dimensions, by default all but the batch dimension.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.Flatten()(minitorch.zeros(8, 16, 5, 5)).shape
    torch.Size([8, 400])
"""

from __future__ import annotations

from minitorch.nn.modules.module import Module

__all__ = ["Flatten"]


class Flatten(Module):
    """``input.flatten(start_dim, end_dim)`` as a layer (default: keep dimension 0)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"

"""``nn.Dropout``: randomly zero activations while training (a regulariser).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> drop = nn.Dropout(p=0.5).eval()     # in evaluation mode it does nothing
    >>> drop(minitorch.ones(3))
    tensor([1., 1., 1.])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """Zero each element with probability ``p`` in training mode, scaling the others by
    ``1 / (1 - p)``; the identity in evaluation mode."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"

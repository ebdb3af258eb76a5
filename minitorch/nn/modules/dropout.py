"""``nn.Dropout`` and its channel-wise and SELU variants: randomly zero activations while
training (a regulariser).

* ``Dropout``: each element on its own;
* ``Dropout1d``/``Dropout2d``/``Dropout3d``: whole channels (dimension 1) of a signal, an
  image, a volume, as neighbouring values are too alike to be dropped alone;
* ``AlphaDropout``/``FeatureAlphaDropout``: for SELU networks, keeping mean 0 and variance 1.

Each draws the same mask as PyTorch after the same ``manual_seed``.

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

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
           "FeatureAlphaDropout"]


class _DropoutNd(Module):
    """``p`` and ``inplace``, checked and printed as PyTorch does."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability ``p`` in training mode, scaling the others by
    ``1 / (1 - p)``; the identity in evaluation mode."""

    def forward(self, input):  # noqa: A002
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` inputs."""

    def forward(self, input):  # noqa: A002
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of ``(N, C, H, W)`` inputs."""

    def forward(self, input):  # noqa: A002
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` inputs."""

    def forward(self, input):  # noqa: A002
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for SELU networks (dropped elements take SELU's negative limit, then all are
    moved and scaled to keep mean 0 and variance 1)."""

    def forward(self, input):  # noqa: A002
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """:class:`AlphaDropout` of whole channels."""

    def forward(self, input):  # noqa: A002
        return F.feature_alpha_dropout(input, self.p, self.training)

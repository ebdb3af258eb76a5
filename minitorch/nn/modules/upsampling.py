"""``nn.Upsample``: resize images (or sequences) inside a network, with
:func:`minitorch.nn.functional.interpolate`.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> up = nn.Upsample(scale_factor=2)
    >>> up
    Upsample(scale_factor=2.0, mode='nearest')
    >>> up(minitorch.tensor([[[[1.0, 2.0]]]]))
    tensor([[[[1., 1., 2., 2.],
              [1., 1., 2., 2.]]]])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["Upsample"]


class Upsample(Module):
    """Resize to ``size``, or by ``scale_factor`` (``mode``: ``"nearest"``,
    ``"nearest-exact"``, ``"linear"``, ``"bilinear"``, ``"bicubic"`` or ``"area"``)."""

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest",
                 align_corners: bool | None = None,
                 recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):  # noqa: A002
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """:class:`Upsample` with ``mode="nearest"`` (PyTorch keeps it for old code)."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """:class:`Upsample` with ``mode="bilinear"`` and ``align_corners=True``."""

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


__all__ += ["UpsamplingNearest2d", "UpsamplingBilinear2d"]

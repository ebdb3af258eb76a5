"""Pooling layers: ``nn.MaxPool2d`` and ``nn.AvgPool2d`` shrink an image by summarising each
window (its maximum, or its mean).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.MaxPool2d(2)(minitorch.zeros(1, 6, 28, 28)).shape
    torch.Size([1, 6, 14, 14])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["MaxPool2d", "AvgPool2d"]


class _MaxPoolNd(Module):
    """The arguments of the max pools, as PyTorch keeps and prints them."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool2d(_MaxPoolNd):
    """The maximum over each ``kernel_size`` window, moving by ``stride`` (default: the
    kernel size, so windows do not overlap)."""

    def forward(self, input):  # noqa: A002
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool2d(Module):
    """The mean over each ``kernel_size`` window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):  # noqa: A002
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class _AdaptivePoolNd(Module):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        if return_indices:
            self.return_indices = True

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptivePoolNd):
    """Average-pool to a fixed ``output_size`` whatever the input's height and width (how
    image classifiers accept any image size before their linear head).

    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.AdaptiveAvgPool2d((1, 1))(minitorch.ones(2, 8, 7, 9)).shape
    torch.Size([2, 8, 1, 1])
    """

    def forward(self, input):  # noqa: A002
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptivePoolNd):
    """Average-pool ``(N, C, L)`` to length ``output_size``."""

    def forward(self, input):  # noqa: A002
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(_AdaptivePoolNd):
    """Max-pool to a fixed ``output_size`` (``return_indices=True``: also where each max was)."""

    return_indices = False

    def forward(self, input):  # noqa: A002
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """Max-pool ``(N, C, L)`` to length ``output_size``."""

    def forward(self, input):  # noqa: A002
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


__all__ += ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


# the 1-d pools
class MaxPool1d(_MaxPoolNd):
    """The maximum over each ``kernel_size`` window along the length of ``(N, C, L)``."""

    def forward(self, input):  # noqa: A002
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool1d(Module):
    """The mean over each ``kernel_size`` window along the length of ``(N, C, L)``. PyTorch
    keeps its sizes as 1-tuples."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):  # noqa: A002
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(value) -> tuple:
    """An int as a 1-tuple; a sequence as a tuple (PyTorch's ``_single``)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


__all__ += ["MaxPool1d", "AvgPool1d"]


# ---------------------------------------------------------------- the 3-d pools (task nn3d)
class MaxPool3d(_MaxPoolNd):
    """The maximum over each ``kernel_size`` window of a volume (N, C, D, H, W)."""

    def forward(self, input):  # noqa: A002
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool3d(AvgPool2d):
    """The mean over each ``kernel_size`` window of a volume (N, C, D, H, W)."""

    def forward(self, input):  # noqa: A002
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(_AdaptivePoolNd):
    """Average-pool a volume to a fixed ``output_size`` (an int or a triple; None keeps a
    dimension)."""

    def forward(self, input):  # noqa: A002
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(AdaptiveMaxPool2d):
    """Max-pool a volume to a fixed ``output_size`` (``return_indices=True``: also where each
    max was)."""

    def forward(self, input):  # noqa: A002
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


__all__ += ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d"]


# ---------------------------------------------------------------- unpooling, LP pools (task nn3d)
class _MaxUnpoolNd(Module):
    """Max pooling's partial inverse; PyTorch keeps the sizes as n-tuples."""

    _n = 2

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        n = self._n

        def tup(v):
            return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n

        self.kernel_size = tup(kernel_size)
        self.stride = tup(stride if stride is not None else kernel_size)
        self.padding = tup(padding)

    def forward(self, input, indices, output_size=None):  # noqa: A002
        fn = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._n - 1]
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Put each value of a 1-d max pool back where it came from (zeros elsewhere)."""

    _n = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Put each value of a 2-d max pool back where it came from (zeros elsewhere)."""

    _n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Put each value of a 3-d max pool back where it came from (zeros elsewhere)."""

    _n = 3


class _LPPoolNd(Module):
    """The p-norm of each window (power-average pooling)."""

    _n = 2

    def __init__(self, norm_type: float, kernel_size, stride=None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):  # noqa: A002
        fn = (F.lp_pool1d, F.lp_pool2d, F.lp_pool3d)[self._n - 1]
        return fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window along the length of (N, C, L)."""

    _n = 1


class LPPool2d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window of (N, C, H, W)."""

    _n = 2


class LPPool3d(_LPPoolNd):
    """The p-norm of each ``kernel_size`` window of (N, C, D, H, W)."""

    _n = 3


__all__ += ["MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "LPPool1d", "LPPool2d", "LPPool3d"]


# ---------------------------------------------------------------- fractional max pools (task nn3d)
class _FractionalMaxPoolNd(Module):
    """Fractional max pooling: ``kernel_size`` windows at pseudo-random places (the same as
    PyTorch's after the same seed), ``output_size`` or ``output_ratio`` of the input."""

    _n = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None) -> None:
        super().__init__()
        n = self._n

        def tup(v):
            return tuple(v) * (n if len(v) == 1 else 1) if isinstance(v, (tuple, list)) \
                else (v,) * n

        self.kernel_size = tup(kernel_size)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = tup(output_size) if output_size is not None else None
        self.output_ratio = tup(output_ratio) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output "
                             "size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):  # noqa: A002
        fn = F.fractional_max_pool2d if self._n == 2 else F.fractional_max_pool3d
        return fn(input, self.kernel_size, self.output_size, self.output_ratio,
                  self.return_indices, _random_samples=self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, H, W) or (C, H, W)."""

    _n = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of (N, C, D, H, W) or (C, D, H, W)."""

    _n = 3


__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]

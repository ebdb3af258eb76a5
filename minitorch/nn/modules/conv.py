"""``nn.Conv2d``: a layer that slides small learned filters over an image.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> conv = nn.Conv2d(1, 6, 5)
    >>> conv
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    >>> conv(minitorch.zeros(1, 1, 32, 32)).shape
    torch.Size([1, 6, 28, 28])
"""

from __future__ import annotations

import math

from minitorch import _creation
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["Conv2d"]


class Conv2d(Module):
    """2-D convolution over an input of shape (N, C_in, H, W) or (C_in, H, W).

    Args:
        in_channels, out_channels: channels of the input and of the output.
        kernel_size: the filter size (an int or a pair).
        stride: the step between windows (default 1).
        padding: zeros added on each side, an int, a pair, ``"valid"`` or ``"same"``.
        dilation: spacing between kernel elements (default 1).
        groups: only 1 is supported.
        bias: whether to add a learned bias per output channel.
        padding_mode: only ``"zeros"`` is supported.

    The weight has shape (out_channels, in_channels, kh, kw); weight and bias start uniform in
    ``[-1/sqrt(fan_in), 1/sqrt(fan_in)]`` with ``fan_in = in_channels * kh * kw``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__()
        if groups != 1:
            raise NotImplementedError("minitorch's Conv2d supports groups=1 only")
        if padding_mode != "zeros":
            raise NotImplementedError("minitorch's Conv2d supports padding_mode='zeros' only")
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(
                    f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and F._pair(stride) != (1, 1):
                raise ValueError("padding='same' is not supported for strided convolutions")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = F._pair(kernel_size)
        self.stride = F._pair(stride)
        self.padding = padding if isinstance(padding, str) else F._pair(padding)
        self.dilation = F._pair(dilation)
        self.transposed = False
        self.output_padding = (0, 0)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(_creation.empty(out_channels, in_channels, *self.kernel_size,
                                                dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):  # noqa: A002
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if isinstance(self.padding, str) or self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class _ConvNdMore(Module):
    """What ``Conv1d`` and ``ConvTranspose2d`` share with ``Conv2d``: the arguments, the
    parameters (initialised as in PyTorch, so a seed gives PyTorch's weights) and the repr."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride, padding,
                 dilation, transposed: bool, output_padding, groups: int, bias: bool,
                 padding_mode: str, device, dtype, n: int) -> None:
        super().__init__()
        name = type(self).__name__
        if groups != 1 and not self._any_groups:
            raise NotImplementedError(f"minitorch's {name} supports groups=1 only")
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError(f"minitorch's {name} supports padding_mode='zeros' only")

        def tup(v):
            return tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * n

        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(
                    f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}")
            if padding == "same" and tup(stride) != (1,) * n:
                raise ValueError("padding='same' is not supported for strided convolutions")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = tup(kernel_size), tup(stride)
        self.padding = padding if isinstance(padding, str) else tup(padding)
        self.dilation = tup(dilation)
        self.transposed = transposed
        self.output_padding = tup(output_padding)
        self.groups = groups
        self.padding_mode = padding_mode
        shape = ((in_channels, out_channels // groups) if transposed
                 else (out_channels, in_channels // groups))
        self.weight = Parameter(_creation.empty(*shape, *self.kernel_size, dtype=dtype,
                                                device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    reset_parameters = Conv2d.reset_parameters
    _any_groups = False  # the layers whose functional form takes groups (task nn3d)

    def extra_repr(self) -> str:
        n = len(self.kernel_size)
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if isinstance(self.padding, str) or self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNdMore):
    """1-d convolution over an input of shape (N, C_in, L) or (C_in, L): filters of
    ``kernel_size`` slide along the sequence. The weight has shape
    (out_channels, in_channels, kernel_size)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, device, dtype, 1)

    def forward(self, input):  # noqa: A002
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class ConvTranspose2d(_ConvNdMore):
    """2-d transposed convolution ("deconvolution"): each input pixel stamps the filter,
    scaled by its value, onto the output, so ``stride=2`` doubles the size. The weight has
    shape (in_channels, out_channels, kh, kw)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, device, dtype, 2)

    def forward(self, input, output_size=None):  # noqa: A002
        output_padding = self.output_padding
        if output_size is not None:  # the output_padding that gives this size
            sizes = list(output_size)[-2:]
            spatial = input.shape[-2:]
            output_padding = tuple(
                int(want) - ((i - 1) * s - 2 * p + d * (k - 1) + 1)
                for want, i, s, p, d, k in zip(sizes, spatial, self.stride, self.padding,
                                               self.dilation, self.kernel_size))
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  output_padding, self.groups, self.dilation)


__all__ += ["Conv1d", "ConvTranspose2d"]


# ---------------------------------------------------------------- 3-d and transposed (task nn3d)
class Conv3d(_ConvNdMore):
    """3-d convolution over an input of shape (N, C_in, D, H, W) or (C_in, D, H, W), for
    volumes and videos. The weight has shape (out_channels, in_channels, kd, kh, kw)."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         False, 0, groups, bias, padding_mode, device, dtype, 3)

    _any_groups = True

    def forward(self, input):  # noqa: A002
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding,
                        self.dilation, self.groups)


class _ConvTransposeNd(_ConvNdMore):
    """ConvTranspose1d and 3d: the arguments of ConvTranspose2d, for ``n`` dimensions."""

    _n = 0
    _any_groups = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         True, output_padding, groups, bias, padding_mode, device, dtype,
                         self._n)

    def forward(self, input, output_size=None):  # noqa: A002
        output_padding = self.output_padding
        if output_size is not None:  # the output_padding that gives this size
            n = self._n
            output_padding = tuple(
                int(want) - ((i - 1) * s - 2 * p + d * (k - 1) + 1)
                for want, i, s, p, d, k in zip(list(output_size)[-n:], input.shape[-n:],
                                               self.stride, self.padding, self.dilation,
                                               self.kernel_size))
        fn = F.conv_transpose1d if self._n == 1 else F.conv_transpose3d
        return fn(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                  self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-d transposed convolution over (N, C_in, L) or (C_in, L). The weight has shape
    (in_channels, out_channels, kernel_size)."""

    _n = 1


class ConvTranspose3d(_ConvTransposeNd):
    """3-d transposed convolution over (N, C_in, D, H, W) or (C_in, D, H, W). The weight has
    shape (in_channels, out_channels, kd, kh, kw)."""

    _n = 3


__all__ += ["Conv3d", "ConvTranspose1d", "ConvTranspose3d"]

"""``nn.Linear`` (an affine map ``y = x W^T + b``), ``nn.Bilinear`` (``y = x1^T A x2 + b``)
and ``nn.Identity``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> fc = nn.Linear(3, 2)
    >>> fc.weight.shape, fc.bias.shape
    (torch.Size([2, 3]), torch.Size([2]))
    >>> fc(minitorch.ones(5, 3)).grad_fn
    <AddmmBackward0 object at 0x...>
"""

from __future__ import annotations

import math

from minitorch import _creation
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["Linear", "Identity"]  # and NonDynamicallyQuantizableLinear, not exported (PyTorch)


class Identity(Module):
    """Returns its input unchanged (a placeholder, e.g. to remove a layer)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()

    def forward(self, input):  # noqa: A002
        return input


class Linear(Module):
    """A fully connected layer: ``y = x W^T + b``.

    Args:
        in_features: size of each input sample.
        out_features: size of each output sample.
        bias: whether to learn an additive bias (default True).

    Initialisation (PyTorch's): ``W`` and ``b`` uniform in ``[-1/sqrt(in), 1/sqrt(in)]``
    (``kaiming_uniform_(W, a=sqrt(5))`` works out to exactly that bound).
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty(out_features, in_features, dtype=dtype,
                                                device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh initial values (as PyTorch does)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """A ``Linear`` under another name: ``nn.MultiheadAttention``'s ``out_proj``, which PyTorch
    names so that its quantization tools leave it alone."""


class Bilinear(Module):
    """``y[o] = x1 @ A[o] @ x2 + b[o]``: a bilinear form of two inputs per output feature.

    Args:
        in1_features, in2_features: the sizes of the two inputs' last dimension.
        out_features: size of each output sample.
        bias: whether to learn an additive bias (default True).

    Initialisation (PyTorch's): ``A`` and ``b`` uniform in ``[-1/sqrt(in1), 1/sqrt(in1)]``.
    """

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty(out_features, in1_features, in2_features,
                                                dtype=dtype, device=device))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh initial values (as PyTorch does)."""
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


__all__ += ["Bilinear"]

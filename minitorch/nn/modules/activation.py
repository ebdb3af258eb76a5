"""Activation functions as modules: ``nn.ReLU``, ``nn.LeakyReLU``, ``nn.Sigmoid``,
``nn.Tanh``, ``nn.Softmax``, ``nn.LogSoftmax``.

They have no parameters; they exist so that they can sit inside an ``nn.Sequential``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.ReLU()(minitorch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
"""

from __future__ import annotations

import warnings

from minitorch import _creation
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["ReLU", "LeakyReLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax"]


class ReLU(Module):
    """``max(x, 0)`` elementwise."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` for ``x > 0``, else ``negative_slope * x``."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace}"


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` elementwise."""

    def forward(self, input):  # noqa: A002
        return F.sigmoid(input)


class Tanh(Module):
    """``tanh(x)`` elementwise."""

    def forward(self, input):  # noqa: A002
        return F.tanh(input)


class _AlongDim(Module):
    """Softmax, LogSoftmax and Softmin: a ``dim`` (None: chosen, with a warning)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    """Probabilities along ``dim`` (positive, summing to 1)."""

    def forward(self, input):  # noqa: A002
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_AlongDim):
    """``log(softmax(x))`` along ``dim``, computed stably."""

    def forward(self, input):  # noqa: A002
        return F.log_softmax(input, self.dim, _stacklevel=5)


class GELU(Module):
    """``x * Phi(x)`` (``Phi``: the standard normal CDF), or its tanh approximation with
    ``approximate="tanh"``. The activation of transformers such as BERT and GPT."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input):  # noqa: A002
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """``x * sigmoid(x)`` (also called swish)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


__all__ += ["GELU", "SiLU"]


# the rest of PyTorch's elementwise activations, with its constructor arguments and reprs
class Softplus(Module):
    """``log(1 + exp(beta x)) / beta``, and ``x`` where ``beta x > threshold``."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):  # noqa: A002
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class _AlphaActivation(Module):
    """ELU and CELU: ``alpha`` and ``inplace``."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class ELU(_AlphaActivation):
    """``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``."""

    def forward(self, input):  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)


class CELU(_AlphaActivation):
    """``x`` for ``x > 0``, else ``alpha * (exp(x / alpha) - 1)``."""

    def forward(self, input):  # noqa: A002
        return F.celu(input, self.alpha, self.inplace)


class _InplaceActivation(Module):
    """An activation whose only argument is ``inplace`` (printed only when True)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class SELU(_InplaceActivation):
    """``scale * elu(x, alpha)`` with PyTorch's self-normalising constants."""

    def forward(self, input):  # noqa: A002
        return F.selu(input, self.inplace)


class Mish(_InplaceActivation):
    """``x * tanh(softplus(x))``."""

    def forward(self, input):  # noqa: A002
        return F.mish(input, inplace=self.inplace)


class Hardsigmoid(_InplaceActivation):
    """``min(max(x + 3, 0), 6) / 6``. PyTorch prints no ``inplace`` for it."""

    def forward(self, input):  # noqa: A002
        return F.hardsigmoid(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Hardswish(_InplaceActivation):
    """``x * hardsigmoid(x)``. No ``inplace`` in its repr either."""

    def forward(self, input):  # noqa: A002
        return F.hardswish(input, self.inplace)

    def extra_repr(self) -> str:
        return ""


class Hardtanh(Module):
    """``x`` clipped to ``[min_val, max_val]`` (``min_value``/``max_value``: the old names)."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False,
                 min_value: float | None = None, max_value: float | None = None) -> None:
        super().__init__()
        for old, new, value in (("min_value", "min_val", min_value),
                                ("max_value", "max_val", max_value)):
            if value is not None:
                warnings.warn(f"keyword argument `{old}` is deprecated and renamed to `{new}`",
                              FutureWarning, stacklevel=3)
        self.min_val = min_val if min_value is None else min_value
        self.max_val = max_val if max_value is None else max_value
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(
                f"max_val ({self.max_val}) must be greater than min_val ({self.min_val})")

    def forward(self, input):  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class ReLU6(Hardtanh):
    """``min(max(x, 0), 6)``."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LogSigmoid(Module):
    """``log(sigmoid(x))``."""

    def forward(self, input):  # noqa: A002
        return F.logsigmoid(input)


class Softsign(Module):
    """``x / (1 + |x|)``."""

    def forward(self, input):  # noqa: A002
        return F.softsign(input)


class Tanhshrink(Module):
    """``x - tanh(x)``."""

    def forward(self, input):  # noqa: A002
        return F.tanhshrink(input)


__all__ += ["Softplus", "ELU", "CELU", "SELU", "Mish", "Hardsigmoid", "Hardswish", "Hardtanh",
            "ReLU6", "LogSigmoid", "Softsign", "Tanhshrink"]


# threshold, the shrinks, softmin, Softmax2d, GLU and PReLU
class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace}"


class Hardshrink(Module):
    """0 where ``-lambd <= x <= lambd``, else ``x``."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input):  # noqa: A002
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """``x`` moved ``lambd`` towards 0, and 0 where ``|x| <= lambd``."""

    def forward(self, input):  # noqa: A002
        return F.softshrink(input, self.lambd)


class Softmin(_AlongDim):
    """``softmax(-x)`` along ``dim``: the smallest score gets the largest probability."""

    def forward(self, input):  # noqa: A002
        return F.softmin(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels of each pixel (dimension -3 of a 3-d or 4-d input)."""

    def forward(self, input):  # noqa: A002
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)


class GLU(Module):
    """The gated linear unit: ``a * sigmoid(b)``, ``a`` and ``b`` the halves along ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input):  # noqa: A002
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """``x`` where ``x > 0``, else ``a * x``, with the slope ``a`` learned: one for all
    channels (``num_parameters=1``) or one per channel; each starts at ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(_creation.empty(num_parameters, dtype=dtype, device=device))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every slope back to ``init``."""
        init.constant_(self.weight, self.init)

    def forward(self, input):  # noqa: A002
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


__all__ += ["Threshold", "Hardshrink", "Softshrink", "Softmin", "Softmax2d", "GLU", "PReLU"]


class RReLU(Module):
    """The randomised leaky ReLU: in training each ``x <= 0`` gets its own slope, drawn from
    ``U(lower, upper)``; in evaluation the slope is ``(lower + upper) / 2``."""

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3,
                 inplace: bool = False) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):  # noqa: A002
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace}"


__all__ += ["RReLU"]

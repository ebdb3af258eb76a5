"""Per-sample normalisation: ``nn.LayerNorm`` (transformers), ``nn.GroupNorm`` and
``nn.RMSNorm``.

Unlike batch norm they use no batch statistics, so they behave the same in training and
evaluation and keep no running estimates: only the learned per-feature ``weight`` (ones at
first) and ``bias`` (zeros).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> ln = nn.LayerNorm(4)
    >>> ln
    LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)
    >>> ln(minitorch.tensor([[1.0, 2.0, 3.0, 4.0]]))
    tensor([[-1.3416, -0.4472,  0.4472,  1.3416]], grad_fn=<NativeLayerNormBackward0>)
"""

from __future__ import annotations

import numbers

from minitorch import _creation
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["LayerNorm", "GroupNorm", "RMSNorm"]


def _scale_and_shift(module: Module, shape: tuple, affine: bool, bias: bool, device,
                     dtype) -> None:
    """Give ``module`` its learned ``weight`` and ``bias`` of ``shape`` (None for the ones
    switched off, as PyTorch registers them) and set them to ones and zeros."""
    def parameter(wanted: bool):
        return Parameter(_creation.empty(shape, dtype=dtype, device=device)) if wanted else None

    module.register_parameter("weight", parameter(affine))
    module.register_parameter("bias", parameter(affine and bias))
    _reset_scale_and_shift(module)


def _reset_scale_and_shift(module: Module) -> None:
    if module.weight is not None:
        init.ones_(module.weight)
    if module.bias is not None:
        init.zeros_(module.bias)


class LayerNorm(Module):
    """Normalise the last dimensions of the input (``normalized_shape``) of each sample to
    mean 0 and variance 1, then scale and shift them per feature."""

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(int(s) for s in normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _scale_and_shift(self, self.normalized_shape, elementwise_affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input):  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")


class GroupNorm(Module):
    """Split the ``num_channels`` channels into ``num_groups`` groups and normalise each group
    of each sample; then scale and shift per channel (``affine=True``)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _scale_and_shift(self, (num_channels,), affine, bias, device, dtype)

    def reset_parameters(self) -> None:
        _reset_scale_and_shift(self)

    def forward(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


class RMSNorm(Module):
    """Divide the last dimensions of the input (``normalized_shape``) of each sample by their
    root mean square, then scale them per feature (``elementwise_affine``). ``eps=None``: the
    machine epsilon of the input's dtype."""

    def __init__(self, normalized_shape, eps: float | None = None,
                 elementwise_affine: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        weight = _creation.empty(self.normalized_shape, dtype=dtype, device=device)
        self.register_parameter("weight", Parameter(weight) if elementwise_affine else None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


class LocalResponseNorm(Module):
    """Divide each value by ``(k + alpha * mean of the squares of ``size`` neighbouring
    channels) ** beta`` (AlexNet's normalisation)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):  # noqa: A002
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


__all__ += ["LocalResponseNorm"]

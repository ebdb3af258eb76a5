"""``nn.init``: ways to fill a weight tensor with its starting values, in place.

Why initialisation matters: if the weights are too large, activations grow layer after layer
and saturate or overflow; too small, and they (and the gradients) fade away. The Xavier/Glorot
and Kaiming/He schemes pick the spread from the layer's *fan-in* (inputs per output) and/or
*fan-out* so that the variance stays about the same through the network. PyTorch's layers use
``kaiming_uniform_(w, a=sqrt(5))``, which works out to ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``.

All functions work under ``no_grad`` (filling a parameter is not part of the graph) and return
the tensor.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> w = minitorch.empty(3, 5)
    >>> nn.init.constant_(w, 0.5)[0]
    tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000])
    >>> nn.init.calculate_gain("relu")
    1.4142135623730951
"""

from __future__ import annotations

import math
import warnings

from minitorch._tensor import Tensor
from minitorch.autograd import grad_mode
from minitorch.nn.parameter import refuse_uninitialized

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "zeros_", "ones_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
           "orthogonal_"]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d")


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The factor that keeps the variance of activations stable through ``nonlinearity``.

    ========================  =============================
    nonlinearity              gain
    ========================  =============================
    linear, conv, sigmoid     1
    tanh                      5/3
    relu                      sqrt(2)
    leaky_relu                sqrt(2 / (1 + slope^2))
    selu                      3/4
    ========================  =============================
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """``fan_in = in_features * receptive field``, ``fan_out = out_features * receptive
    field``, for a weight of shape (out, in, *kernel)."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn uniformly from ``[a, b)``."""
    refuse_uninitialized(tensor, uniform_)  # (misc2) as PyTorch's: named
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with values drawn from ``N(mean, std^2)``."""
    refuse_uninitialized(tensor, normal_)  # (misc2) as PyTorch's: named
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val``."""
    refuse_uninitialized(tensor, constant_)  # (misc2) as PyTorch's: named
    with grad_mode.no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    with grad_mode.no_grad():  # (misc2) zero_, as PyTorch's (its errors name it)
        return tensor.zero_()


def ones_(tensor: Tensor) -> Tensor:
    with grad_mode.no_grad():  # (misc2) fill_, as PyTorch's (not constant_: its errors name it)
        return tensor.fill_(1.0)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std  # a uniform on [-a, a] has standard deviation a / sqrt(3)
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """Glorot: ``N(0, std^2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He: ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)``.

    Args:
        a: the negative slope of the leaky ReLU that follows (0 for ReLU).
        mode: ``"fan_in"`` keeps the forward activations' variance, ``"fan_out"`` the
            backward gradients'.
    """
    refuse_uninitialized(tensor, kaiming_uniform_)  # (misc2) as PyTorch's
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * gain / math.sqrt(fan)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He: ``N(0, std^2)`` with ``std = gain / sqrt(fan)``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return normal_(tensor, 0.0, std, generator)


# orthogonal_, which the Parametrizations tutorial uses
def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix: the Q of the QR decomposition of a matrix of
    standard normal numbers, each column's sign made that of R's diagonal (so that Q is
    uniformly distributed), times ``gain``. The dimensions after the first are flattened."""
    from minitorch.linalg import qr

    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    with grad_mode.no_grad():
        flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
        if rows < cols:
            flattened = flattened.t()
        q, r = qr(flattened)
        q = q * r.diagonal().sign()
        if rows < cols:
            q = q.t()
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor

"""``minitorch.nn.functional``: layers, activations and losses as plain functions.

Every ``nn`` layer is a thin module around one of these functions: ``nn.Linear`` calls
:func:`linear`, ``nn.Conv2d`` calls :func:`conv2d`, ``nn.CrossEntropyLoss`` calls
:func:`cross_entropy`. Each heavy operation is one ``autograd.Function`` whose graph node has
PyTorch's name (``AddmmBackward0``, ``ConvolutionBackward0``, ``NllLossBackward0``, ...). Its
forward runs on the NumPy arrays; its backward is written with tensor operations (or with
Functions whose own backward is known), so gradients of gradients work too.

Example:
    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> z = minitorch.zeros(3, requires_grad=True)
    >>> F.binary_cross_entropy_with_logits(z, minitorch.ones(3))
    tensor(0.6931, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
    >>> logits = minitorch.zeros(2, 4, requires_grad=True)
    >>> F.cross_entropy(logits, minitorch.tensor([0, 3]))
    tensor(1.3863, grad_fn=<NllLossBackward0>)
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from minitorch import _random
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops.unary import relu as _relu
from minitorch.ops.unary import sigmoid, tanh

__all__ = [
    # activations
    "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout",
    # layers
    "linear", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "embedding", "one_hot",
    # losses
    "mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "nll_loss", "cross_entropy",
]


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _softplus_neg_abs(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(-|x|))``, which never overflows."""
    return np.log1p(np.exp(-np.abs(x)))


class BinaryCrossEntropyWithLogits(Function):
    """Sigmoid followed by binary cross-entropy, in one numerically stable step.

    With ``x`` the logit, ``y`` the target and ``p`` the positive weight:
    ``loss = (1 - y) x + (1 + (p - 1) y) (log(1 + e^-|x|) + max(-x, 0))``.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        ctx.save_for_backward(x, y, weight, pos_weight)
        ctx.reduction = reduction
        xd, yd = x._data, y._data.astype(x._data.dtype, copy=False)
        log_sig_neg = _softplus_neg_abs(xd) + np.maximum(-xd, 0)  # -log(sigmoid(x))
        if pos_weight is None:
            loss = (1 - yd) * xd + log_sig_neg
        else:
            loss = (1 - yd) * xd + (1 + (pos_weight._data - 1) * yd) * log_sig_neg
        if weight is not None:
            loss = loss * weight._data
        if reduction == "mean":
            loss = loss.mean(dtype=xd.dtype)
        elif reduction == "sum":
            loss = loss.sum(dtype=xd.dtype)
        elif reduction != "none":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return _wrap(loss.astype(xd.dtype, copy=False) if hasattr(loss, 'astype') else loss)

    @staticmethod
    def backward(ctx, grad):
        x, y, weight, pos_weight = ctx.saved_tensors
        if ctx.reduction == "mean":
            grad = grad.expand(x.shape) / max(x.numel(), 1)
        elif ctx.reduction == "sum":
            grad = grad.expand(x.shape)
        s = sigmoid(x)
        if pos_weight is None:
            gx = s - y                           # d loss / dx = sigmoid(x) - y
            gy = -x                              # d loss / dy = -x
        else:
            gx = (pos_weight * y + 1 - y) * s - pos_weight * y
            gy = (pos_weight - 1) * (-x).sigmoid().log().neg() - x
        if weight is not None:
            gx, gy = gx * weight, gy * weight
        return grad * gx, grad * gy, None, None


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy on logits: ``-[y log s(x) + (1 - y) log(1 - s(x))]``.

    Taking logits (not probabilities) lets it use ``log(1 + e^-|x|)``, which is exact where
    ``sigmoid`` followed by ``log`` would round to ``log(0)``.

    Args:
        input: logits, any shape.
        target: same shape as ``input``, values in [0, 1].
        weight: optional rescaling weight, broadcast to ``input``.
        reduction: ``"mean"`` (default), ``"sum"`` or ``"none"``.
        pos_weight: weight of positive examples, broadcast along the last dimension.
    """
    if reduce is not None or size_average is not None:  # the deprecated way to say reduction
        reduction = _legacy_reduction(size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    if pos_weight is not None and pos_weight.shape != input.shape:
        pos_weight = pos_weight.expand(input.shape)
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)

"""Gradient clipping: keep one bad batch from throwing the weights far away.

Call it between ``loss.backward()`` and ``optimizer.step()``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> w = nn.Parameter(minitorch.zeros(2))
    >>> w.grad = minitorch.tensor([3.0, 4.0])
    >>> nn.utils.clip_grad_norm_([w], max_norm=1.0)
    tensor(5.)
    >>> w.grad
    tensor([0.6000, 0.8000])
"""

from __future__ import annotations

import math

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode

__all__ = ["clip_grad_norm_", "clip_grad_value_"]


def _grads(parameters) -> list[Tensor]:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """Scale all gradients together so that their joint norm is at most ``max_norm``.

    Returns the norm before clipping (a tensor), as PyTorch does.
    """
    grads = _grads(parameters)
    if not grads:
        return _wrap(np.zeros((), dtype=np.float32))
    norm_type = float(norm_type)
    with grad_mode.no_grad():
        if math.isinf(norm_type):
            norms = [g.abs().max() for g in grads]
            total = norms[0] if len(norms) == 1 else _stack_max(norms)
        else:
            per_tensor = [(g.abs() ** norm_type).sum() for g in grads]
            total = per_tensor[0]
            for t in per_tensor[1:]:
                total = total + t
            total = total ** (1.0 / norm_type)
        if error_if_nonfinite and not math.isfinite(total.item()):
            raise RuntimeError(
                f"The total norm of order {norm_type} for gradients from `parameters` is "
                "non-finite, so it cannot be clipped. To disable this error and scale the "
                "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`"
            )
        coef = min(max_norm / (total.item() + 1e-6), 1.0)
        for g in grads:
            g.mul_(coef)
    return total


def _stack_max(norms: list[Tensor]) -> Tensor:
    best = norms[0]
    for n in norms[1:]:
        best = best.maximum(n)
    return best


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    """Clamp every gradient element into ``[-clip_value, clip_value]``."""
    with grad_mode.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)

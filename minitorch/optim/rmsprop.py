"""``optim.RMSprop``: divide each step by a running root-mean-square of the gradient.

For each parameter RMSprop keeps ``v``, a running average of the squared gradient
(``v <- alpha v + (1 - alpha) g^2``), and steps by ``lr * g / (sqrt(v) + eps)``: weights whose
gradients are usually large take small steps, and vice versa. ``centered=True`` also keeps the
running mean ``m`` of the gradient and uses the variance ``v - m^2`` instead; ``momentum``
smooths the steps themselves.

Example:
    >>> import minitorch
    >>> from minitorch import nn, optim
    >>> model = nn.Linear(2, 1)
    >>> opt = optim.RMSprop(model.parameters(), lr=0.01)
    >>> model(minitorch.ones(4, 2)).sum().backward(); opt.step()
    >>> sorted(opt.state[model.weight])
    ['square_avg', 'step']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import (
    Optimizer,
    _add,
    _add_,
    _addcmul_,
    _as_dtype,
    _bump,
    _lerp_,
    _params_with_grad,
)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop (``torch.optim.RMSprop``), following PyTorch's single-tensor update."""

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach=None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay,
                    "capturable": capturable, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _init_state(self, p, group: dict) -> dict:
        state = self.state[p]
        if not state:
            xp = array_module(p._data)
            state["step"] = _wrap(np.zeros((), dtype=np.float32))
            state["square_avg"] = _wrap(xp.zeros_like(p._data))
            if group["momentum"] > 0:
                state["momentum_buffer"] = _wrap(xp.zeros_like(p._data))
            if group["centered"]:
                state["grad_avg"] = _wrap(xp.zeros_like(p._data))
        return state

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One RMSprop update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            weight_decay, momentum = group["weight_decay"], group["momentum"]
            for p, grad in _params_with_grad(group):
                data = p._data
                if group["maximize"]:
                    grad = -grad
                state = self._init_state(p, group)
                state["step"]._data += 1
                _bump(state["step"])
                if weight_decay != 0:
                    grad = _add(grad, data, weight_decay)  # g + wd p
                v = state["square_avg"]._data        # v <- alpha v + (1 - alpha) g^2
                v *= _as_dtype(alpha, v)
                _addcmul_(v, grad, grad, 1 - alpha)
                if group["centered"]:                # variance: v - m^2
                    m = state["grad_avg"]._data
                    _lerp_(m, grad, 1 - alpha)
                    variance = v.copy()
                    _addcmul_(variance, m, m, -1)
                    avg = np.sqrt(variance)
                else:
                    avg = np.sqrt(v)
                avg += _as_dtype(eps, avg)
                if momentum > 0:                     # buf <- momentum buf + g / avg
                    buf = state["momentum_buffer"]._data
                    buf *= _as_dtype(momentum, buf)
                    buf += grad / avg
                    _add_(data, buf, -lr)
                else:
                    data += (_as_dtype(-lr, data) * grad) / avg  # p <- p - lr g / avg
                _bump(p)
                for key in ("square_avg", "grad_avg", "momentum_buffer"):
                    if key in state:
                        _bump(state[key])
        return loss

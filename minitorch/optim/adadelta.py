"""``optim.Adadelta``: step sizes from running averages of both the gradients and the steps.

Adadelta keeps ``E[g^2]``, a running average of squared gradients (as RMSprop does), and also
``E[dx^2]``, one of the squared *updates*. The update is
``dx = sqrt(E[dx^2] + eps) / sqrt(E[g^2] + eps) * g``: the ratio has the units of the
parameter, so the default ``lr=1.0`` needs no tuning.

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.Adadelta([w])
    >>> (w * w).sum().backward(); opt.step()
    >>> sorted(opt.state[w])
    ['acc_delta', 'square_avg', 'step']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import Optimizer, _as_dtype, _bump, _params_with_grad

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (``torch.optim.Adadelta``), following PyTorch's single-tensor update
    operation by operation, so that float32 rounds the same way."""

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach=None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, rho, eps, wd = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    xp = array_module(data)
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["square_avg"] = _wrap(xp.zeros_like(data))
                    state["acc_delta"] = _wrap(xp.zeros_like(data))
                state["step"]._data += 1
                _bump(state["step"])
                if group["maximize"]:
                    grad = -grad
                if wd != 0:
                    grad = grad + _as_dtype(wd, data) * data
                square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
                square_avg *= _as_dtype(rho, data)           # E[g^2] <- rho E[g^2] + ...
                square_avg += _as_dtype(1 - rho, data) * grad * grad  # ... (1 - rho) g^2
                std = np.sqrt(square_avg + _as_dtype(eps, data))
                delta = np.sqrt(acc_delta + _as_dtype(eps, data))
                delta /= std
                delta *= grad                                 # dx = RMS[dx] / RMS[g] * g
                acc_delta *= _as_dtype(rho, data)
                acc_delta += _as_dtype(1 - rho, data) * delta * delta
                data += _as_dtype(-lr, data) * delta          # p <- p - lr dx
                _bump(p)
                _bump(state["square_avg"])
                _bump(state["acc_delta"])
        return loss

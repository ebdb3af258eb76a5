"""``optim.Adamax``: Adam with the infinity norm in place of the squared average.

Like Adam it keeps a running average ``m`` of the gradient; instead of the average of its
square it keeps ``u``, a decaying *maximum* of its size: ``u <- max(beta2 u, |g| + eps)``. The
step is ``lr / (1 - beta1^t) * m / u``: only ``m`` needs a bias correction, since a maximum
does not start too small the way an average of zeros does.

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.Adamax([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> sorted(opt.state[w])
    ['exp_avg', 'exp_inf', 'step']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import (
    Optimizer,
    _add,
    _as_dtype,
    _bump,
    _check_adam_hyperparameters,
    _lerp_,
    _params_with_grad,
)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    """Adamax (``torch.optim.Adamax``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach=None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One Adamax update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            wd = group["weight_decay"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    xp = array_module(data)
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["exp_avg"] = _wrap(xp.zeros_like(data))
                    state["exp_inf"] = _wrap(xp.zeros_like(data))
                if group["maximize"]:
                    grad = -grad
                state["step"]._data += 1
                _bump(state["step"])
                if wd != 0:
                    grad = _add(grad, data, wd)           # L2: g + wd p
                m, u = state["exp_avg"]._data, state["exp_inf"]._data
                _lerp_(m, grad, 1 - beta1)                # m <- beta1 m + (1 - beta1) g
                u *= _as_dtype(beta2, u)                  # u <- max(beta2 u, |g| + eps)
                np.maximum(u, np.abs(grad) + _as_dtype(eps, u), out=u)
                clr = lr / (1 - beta1 ** float(state["step"]._data))
                update = _as_dtype(-clr, data) * m
                update /= u
                data += update                            # p <- p - lr m_hat / u
                _bump(p)
                _bump(state["exp_avg"])
                _bump(state["exp_inf"])
        return loss

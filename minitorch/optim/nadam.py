"""``optim.NAdam``: Adam with Nesterov momentum.

Like Adam it keeps running averages of the gradient (``m``) and of its square (``v``), but it
looks one step ahead: the update mixes the current gradient, weighted by ``1 - mu_t``, with
the momentum, weighted by the *next* step's ``mu_{t+1}``. The momentum factor ``mu_t`` grows
towards ``beta1`` as training goes on (``momentum_decay`` sets how fast).

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.NAdam([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> sorted(opt.state[w])
    ['exp_avg', 'exp_avg_sq', 'mu_product', 'step']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import (
    Optimizer,
    _addcmul_,
    _as_dtype,
    _bump,
    _check_adam_hyperparameters,
    _lerp_,
    _params_with_grad,
    _weight_decay,
)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam (``torch.optim.NAdam``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_adam_hyperparameters(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One NAdam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            psi = group["momentum_decay"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    xp = array_module(data)
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["mu_product"] = _wrap(np.ones((), dtype=np.float32))
                    state["exp_avg"] = _wrap(xp.zeros_like(data))
                    state["exp_avg_sq"] = _wrap(xp.zeros_like(data))
                if group["maximize"]:
                    grad = -grad
                state["step"]._data += 1
                _bump(state["step"])
                step = float(state["step"]._data)
                bias_correction2 = 1 - beta2**step
                grad = _weight_decay(group, data, grad, lr)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * psi)))       # momentum now
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * psi)))  # and next
                mu_product = state["mu_product"]._data
                mu_product *= np.float32(mu)
                _bump(state["mu_product"])
                m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
                _lerp_(m, grad, 1 - beta1)
                v *= _as_dtype(beta2, v)
                _addcmul_(v, grad, grad, 1 - beta2)
                denom = np.sqrt(v / _as_dtype(bias_correction2, v))
                denom += _as_dtype(eps, v)
                product = float(mu_product)
                mu_product_next = product * mu_next
                # p <- p - lr (1 - mu) g / denom - lr mu_next m / denom (the Nesterov look-ahead)
                data += _as_dtype(-lr * (1.0 - mu) / (1.0 - product), data) * grad / denom
                data += _as_dtype((-lr * mu_next) / (1.0 - mu_product_next), data) * m / denom
                _bump(p)
                _bump(state["exp_avg"])
                _bump(state["exp_avg_sq"])
        return loss

"""``optim.RAdam``: Adam with a rectified (warmed-up) adaptive step.

Early in training Adam's estimate of the gradient's variance ``v`` rests on very few steps
and is unreliable. RAdam measures how reliable it is (``rho_t``, the length of the
approximated simple moving average): while ``rho_t <= 5`` it takes plain momentum steps
(``lr * m_hat``), and after that Adam's adaptive step scaled by the rectification factor
``r_t``, which rises towards 1.

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.RAdam([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.8000, -1.6000], requires_grad=True)
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

__all__ = ["RAdam"]


class RAdam(Optimizer):
    """RAdam (``torch.optim.RAdam``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0,
                 decoupled_weight_decay: bool = False, *, foreach=None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One RAdam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    xp = array_module(data)
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["exp_avg"] = _wrap(xp.zeros_like(data))
                    state["exp_avg_sq"] = _wrap(xp.zeros_like(data))
                if group["maximize"]:
                    grad = -grad
                state["step"]._data += 1
                _bump(state["step"])
                step = float(state["step"]._data)
                grad = _weight_decay(group, data, grad, lr)
                m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
                _lerp_(m, grad, 1 - beta1)
                v *= _as_dtype(beta2, v)
                _addcmul_(v, grad, grad, 1 - beta2)
                bias_correction1 = 1 - beta1**step
                bias_correction2 = 1 - beta2**step
                m_hat = m / _as_dtype(bias_correction1, m)
                # rho: how many steps the variance estimate effectively averages
                rho_inf = 2 / (1 - beta2) - 1
                rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
                if rho_t > 5.0:  # reliable enough: Adam's step, rectified
                    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                            / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                    sqrt_v = np.sqrt(v) + _as_dtype(eps, v)
                    adaptive = (_as_dtype(1, v) / sqrt_v) * _as_dtype(bias_correction2**0.5, v)
                    update = m_hat * _as_dtype(lr, m) * adaptive * _as_dtype(rect, m)
                else:  # too few steps: plain (bias-corrected) momentum
                    update = m_hat * _as_dtype(lr, m)
                data -= update
                _bump(p)
                _bump(state["exp_avg"])
                _bump(state["exp_avg_sq"])
        return loss

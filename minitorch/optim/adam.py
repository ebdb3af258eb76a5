"""``optim.Adam`` and ``optim.AdamW``: adaptive step sizes from running gradient moments.

For each parameter Adam keeps two running averages: ``m`` of the gradient (momentum) and
``v`` of its square (how large it usually is). After bias correction (both start at 0),
the step is ``lr * m_hat / (sqrt(v_hat) + eps)``: each weight gets its own step size, large
where gradients are small and steady, small where they are large or noisy.

AdamW decouples the weight decay: it shrinks the weights directly, ``p <- p (1 - lr wd)``,
instead of adding ``wd * p`` to the gradient (where Adam's scaling would distort it).

Example:
    >>> import minitorch
    >>> from minitorch import nn, optim
    >>> model = nn.Linear(2, 1)
    >>> opt = optim.Adam(model.parameters(), lr=1e-3)
    >>> model(minitorch.ones(4, 2)).sum().backward(); opt.step()
    >>> sorted(opt.state[model.weight])
    ['exp_avg', 'exp_avg_sq', 'step']
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

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """Adam (``torch.optim.Adam``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach=None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused=None,
                 decoupled_weight_decay: bool = False) -> None:
        _check_adam_hyperparameters(lr, eps, betas, weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable,
                    "fused": fused, "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _init_state(self, p, amsgrad: bool) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = _wrap(np.zeros((), dtype=np.float32))
            xp = array_module(p._data)
            state["exp_avg"] = _wrap(xp.zeros_like(p._data))
            state["exp_avg_sq"] = _wrap(xp.zeros_like(p._data))
            if amsgrad:
                state["max_exp_avg_sq"] = _wrap(xp.zeros_like(p._data))
        return state

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            amsgrad = group["amsgrad"]
            for p, grad in _params_with_grad(group):
                data = p._data
                if group["maximize"]:
                    grad = -grad
                state = self._init_state(p, amsgrad)
                step_t = state["step"]
                step_t._data += 1
                _bump(step_t)
                grad = _weight_decay(group, data, grad, lr)  # AdamW shrinks p; L2: g + wd p
                m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
                _lerp_(m, grad, 1 - beta1)                 # m <- beta1 m + (1 - beta1) g
                v *= _as_dtype(beta2, v)                   # v <- beta2 v + (1 - beta2) g^2
                _addcmul_(v, grad, grad, 1 - beta2)
                step = float(step_t._data)
                bias_correction1 = 1 - beta1**step
                bias_correction2_sqrt = (1 - beta2**step) ** 0.5
                step_size = lr / bias_correction1
                if amsgrad:
                    v_max = state["max_exp_avg_sq"]._data
                    np.maximum(v_max, v, out=v_max)
                    v = v_max
                denom = np.sqrt(v) / _as_dtype(bias_correction2_sqrt, v)
                denom += _as_dtype(eps, v)
                update = _as_dtype(-step_size, data) * m
                update /= denom
                data += update                             # p <- p - lr m_hat / (sqrt(v_hat) + eps)
                _bump(p)
                for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
                    if key in state:
                        _bump(state[key])
        return loss


class AdamW(Adam):
    """Adam with decoupled weight decay (``torch.optim.AdamW``; default ``weight_decay=0.01``)."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, foreach=None, capturable: bool = False,
                 differentiable: bool = False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

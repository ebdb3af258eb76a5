"""``optim.Adagrad``: per-weight step sizes that shrink with the gradients seen so far.

Adagrad adds up each weight's squared gradients, ``s <- s + g^2``, and steps by
``clr * g / (sqrt(s) + eps)``, where ``clr = lr / (1 + (step - 1) lr_decay)``. Weights that
have seen large gradients slow down for good: useful for sparse features, too cautious for
long training (RMSprop and Adam forget old gradients instead).

Example:
    >>> import minitorch
    >>> from minitorch import nn, optim
    >>> model = nn.Linear(2, 1)
    >>> opt = optim.Adagrad(model.parameters(), lr=0.1)
    >>> sorted(opt.state[model.weight])   # Adagrad makes its state at once
    ['step', 'sum']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import (
    Optimizer,
    _add,
    _addcmul_,
    _as_dtype,
    _bump,
    _params_with_grad,
)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad (``torch.optim.Adagrad``), following PyTorch's single-tensor update."""

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, foreach=None, *,
                 maximize: bool = False, differentiable: bool = False, fused=None) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "fused": fused}
        super().__init__(params, defaults)  # add_param_group makes each parameter's state

    def _init_state(self, p, group: dict) -> dict:
        state = self.state[p]
        if not state:
            xp = array_module(p._data)
            state["step"] = _wrap(np.zeros((), dtype=np.float32))
            state["sum"] = _wrap(xp.full_like(p._data, group["initial_accumulator_value"]))
        return state

    def add_param_group(self, param_group: dict) -> None:
        """Add a group; as in PyTorch, its parameters' state exists before the first step."""
        super().add_param_group(param_group)
        group = self.param_groups[-1]
        for p in group["params"]:
            self._init_state(p, group)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
            weight_decay = group["weight_decay"]
            for p, grad in _params_with_grad(group):
                data = p._data
                if group["maximize"]:
                    grad = -grad
                state = self._init_state(p, group)
                state["step"]._data += 1
                _bump(state["step"])
                step = float(state["step"]._data)
                if weight_decay != 0:
                    grad = _add(grad, data, weight_decay)  # g + wd p
                clr = lr / (1 + (step - 1) * lr_decay)
                s = state["sum"]._data
                _addcmul_(s, grad, grad)              # s <- s + g^2
                std = np.sqrt(s)
                std += _as_dtype(eps, std)
                data += (_as_dtype(-clr, data) * grad) / std  # p <- p - clr g / (sqrt(s) + eps)
                _bump(p)
                _bump(state["sum"])
        return loss

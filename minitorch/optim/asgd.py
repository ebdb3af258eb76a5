"""``optim.ASGD``: averaged stochastic gradient descent.

Plain SGD steps, with a step size ``eta`` that shrinks as ``lr / (1 + lambd lr t)^alpha``
and a decay of the weights by ``1 - lambd eta``; besides, from step ``t0`` on, it keeps a
running average ``ax`` of the weights it visits (Polyak averaging): the average wanders
less than the last iterate, and is the answer to use once training is done. Before ``t0``
``ax`` just follows the weights.

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.ASGD([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> sorted(opt.state[w])
    ['ax', 'eta', 'mu', 'step']
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import Optimizer, _add, _add_, _as_dtype, _bump, _params_with_grad

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """ASGD (``torch.optim.ASGD``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach=None,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            wd = group["weight_decay"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["eta"] = _wrap(np.array(lr, dtype=np.float32))
                    state["mu"] = _wrap(np.ones((), dtype=np.float32))
                    state["ax"] = _wrap(array_module(data).zeros_like(data))
                if group["maximize"]:
                    grad = -grad
                state["step"]._data += 1
                _bump(state["step"])
                if wd != 0:
                    grad = _add(grad, data, wd)             # L2: g + wd p
                eta = float(state["eta"]._data)
                data *= _as_dtype(1 - lambd * eta, data)    # decay the weights
                _add_(data, grad, -eta)                     # p <- p - eta g
                ax, mu = state["ax"]._data, state["mu"]._data
                if float(mu) != 1:                          # average: ax += mu (p - ax)
                    ax += (data - ax) * _as_dtype(float(mu), ax)
                else:
                    ax[...] = data
                step = float(state["step"]._data)
                state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** alpha)
                state["mu"]._data[...] = 1 / max(1, step - t0)
                _bump(p)
                for key in ("eta", "mu", "ax"):
                    _bump(state[key])
        return loss

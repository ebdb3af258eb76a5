"""``optim.SGD``: stochastic gradient descent, with optional momentum and weight decay.

The plain rule is ``p <- p - lr * grad``. With momentum ``mu`` a velocity ``v`` keeps a
running sum of past gradients, ``v <- mu * v + (1 - dampening) * grad``, and the step uses
``v`` instead (Nesterov: ``grad + mu * v``). ``weight_decay`` adds ``wd * p`` to the gradient
(an L2 penalty). Each ``a + alpha * x`` is rounded once, as PyTorch's ``add_(x, alpha=...)``
rounds it (a fused multiply-add), so the parameters follow PyTorch's bit for bit.

Example:
    >>> import minitorch
    >>> from minitorch import nn, optim
    >>> model = nn.Linear(2, 1)
    >>> opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    >>> loss = model(minitorch.ones(4, 2)).pow(2).mean()
    >>> opt.zero_grad(); loss.backward(); opt.step()
"""

from __future__ import annotations

from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import (
    Optimizer,
    _add,
    _add_,
    _as_dtype,
    _bump,
    _params_with_grad,
)

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (``torch.optim.SGD``), PyTorch's exact update order."""

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach=None, differentiable: bool = False, fused=None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns the closure's loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            weight_decay, nesterov = group["weight_decay"], group["nesterov"]
            for p, grad in _params_with_grad(group):
                data = p._data
                if group["maximize"]:
                    grad = -grad
                if weight_decay != 0:
                    grad = _add(grad, data, weight_decay)  # g + wd p
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = _wrap(grad.copy())
                    else:
                        b = buf._data
                        b *= _as_dtype(momentum, b)
                        _add_(b, grad, 1 - dampening)  # b <- momentum b + (1 - dampening) g
                        _bump(buf)
                    if nesterov:
                        grad = _add(grad, buf._data, momentum)
                    else:
                        grad = buf._data
                # p <- p - lr * grad in place, rounded once as PyTorch's p.add_(grad, alpha=-lr)
                _add_(data, grad, -lr)
                _bump(p)
        return loss

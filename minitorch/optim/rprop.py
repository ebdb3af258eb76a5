"""``optim.Rprop``: resilient backpropagation, steps that follow the gradient's sign only.

Each weight has its own step size. Where the gradient keeps its sign from one step to the
next, the step grows (times ``etas[1]``); where it flips (a minimum was jumped over) the step
shrinks (times ``etas[0]``) and that weight stays put this once. The weight then moves by its
step size against the sign of the gradient: the gradient's size is never used, which suits
full-batch training and badly scaled problems (not noisy mini-batches).

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, -2.0]))
    >>> opt = minitorch.optim.Rprop([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> w
    Parameter containing:
    tensor([ 0.9000, -1.9000], requires_grad=True)
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd import grad_mode
from minitorch.optim.optimizer import Optimizer, _addcmul_, _as_dtype, _bump, _params_with_grad

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Rprop (``torch.optim.Rprop``), following PyTorch's single-tensor update exactly."""

    def __init__(self, params, lr: float = 1e-2, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50), *, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One Rprop update of every parameter that has a gradient."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            for p, grad in _params_with_grad(group):
                data = p._data
                state = self.state[p]
                if not state:
                    xp = array_module(data)
                    state["step"] = _wrap(np.zeros((), dtype=np.float32))
                    state["prev"] = _wrap(xp.zeros_like(data))
                    state["step_size"] = _wrap(xp.full_like(grad, group["lr"]))
                if group["maximize"]:
                    grad = -grad
                state["step"]._data += 1
                _bump(state["step"])
                prev, step_size = state["prev"]._data, state["step_size"]._data
                sign = np.sign(grad * prev)   # +: same sign as last time, -: it flipped
                sign[sign > 0] = etaplus
                sign[sign < 0] = etaminus
                sign[sign == 0] = 1
                step_size *= sign
                np.clip(step_size, _as_dtype(step_size_min, step_size),
                        _as_dtype(step_size_max, step_size), out=step_size)
                grad = grad.copy()
                grad[sign == _as_dtype(etaminus, sign)] = 0  # a flip: no move this time
                _addcmul_(data, np.sign(grad), step_size, -1)  # p <- p - sign(g) step
                prev[...] = grad
                _bump(p)
                _bump(state["prev"])
                _bump(state["step_size"])
        return loss

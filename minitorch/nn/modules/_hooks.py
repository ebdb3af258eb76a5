"""Module backward hooks: how ``register_full_backward_hook`` sees a module's gradients.

A module is many operations, so no single graph node stands for "the module". When a module
has full backward hooks, ``Module.__call__`` brackets its forward pass with two identity
operations (``BackwardHookFunctionBackward``, as PyTorch names them):

* one on the *inputs*: in backward, the gradients that reach it are the gradients with respect
  to the module's inputs (``grad_input``), so the full hooks run there and may replace them;
* one on the *outputs*: in backward, the gradients that reach it are the gradients with
  respect to the module's outputs (``grad_output``); the pre-hooks run there and may replace
  them, and they are remembered for the full hooks.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> lin = nn.Linear(2, 1)
    >>> seen = []
    >>> h = lin.register_full_backward_hook(
    ...     lambda module, grad_input, grad_output: seen.append(grad_output[0].shape))
    >>> lin(minitorch.ones(3, 2, requires_grad=True)).sum().backward()
    >>> seen
    [torch.Size([3, 1])]
"""

from __future__ import annotations

import warnings

from minitorch._creation import zeros_like
from minitorch._tensor import Tensor
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function

__all__ = ["BackwardHook"]

_NO_INPUT_GRAD_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHookFunction(Function):
    """Identity on several tensors; its node calls ``ctx.on_backward(grads)`` in backward."""

    node_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, on_backward, *tensors):
        ctx.on_backward = on_backward
        ctx.set_materialize_grads(False)  # unused outputs arrive as None, as in PyTorch
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        return (None, *ctx.on_backward(grads))


class BackwardHook:
    """The hooks of one call of one module (a new one for every forward pass)."""

    def __init__(self, module, full_hooks: list, pre_hooks: list) -> None:
        self.module = module
        self.full_hooks = full_hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_positions: list[int] = []

    def setup_input_hook(self, args: tuple) -> tuple:
        """Route the tensor arguments through an identity node that calls the full hooks."""
        self.n_inputs = len(args)
        self.tensor_inputs = [(i, a) for i, a in enumerate(args) if isinstance(a, Tensor)]
        positions = [i for i, a in self.tensor_inputs if a.requires_grad]
        self.input_positions = positions
        self._inputs_need_grad = bool(positions) and grad_mode.is_grad_enabled()
        if not self._inputs_need_grad:
            return args
        wrapped = BackwardHookFunction.apply(self._on_inputs, *[args[i] for i in positions])
        args = list(args)
        for i, t in zip(positions, wrapped):
            args[i] = t
        return tuple(args)

    def setup_output_hook(self, output):
        """Route the tensor outputs through an identity node that records ``grad_output``."""
        single = isinstance(output, Tensor)
        outs = (output,) if single else output
        if not isinstance(outs, tuple):
            return output
        positions = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
        if not positions:
            return output
        wrapped = BackwardHookFunction.apply(self._on_outputs, *[outs[i] for i in positions])
        outs = list(outs)
        for i, t in zip(positions, wrapped):
            outs[i] = t
        return outs[0] if single else tuple(outs)

    def _on_outputs(self, grads: tuple) -> tuple:
        for hook in self.pre_hooks:
            result = hook(self.module, grads)
            if result is not None:
                grads = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        self.grad_outputs = grads
        if not self._inputs_need_grad:
            warnings.warn(_NO_INPUT_GRAD_WARNING, UserWarning, stacklevel=2)
            for hook in self.full_hooks:
                hook(self.module, (None,) * self.n_inputs, grads)
        return grads

    def _on_inputs(self, grads: tuple) -> tuple:
        grad_input = [None] * self.n_inputs
        for i, a in self.tensor_inputs:  # a tensor that needs no gradient gets zeros (PyTorch)
            grad_input[i] = zeros_like(a)
        for i, g in zip(self.input_positions, grads):
            grad_input[i] = g
        grad_input = tuple(grad_input)
        for hook in self.full_hooks:
            result = hook(self.module, grad_input, self.grad_outputs)
            if result is not None:
                result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                if len(result) != len(grad_input):
                    raise RuntimeError(
                        f"Backward hook returned an invalid number of grad_input, got "
                        f"{len(result)}, but expected {len(grad_input)}")
                grad_input = result
        return tuple(grad_input[i] for i in self.input_positions)

    _inputs_need_grad = False
    tensor_inputs: list = []

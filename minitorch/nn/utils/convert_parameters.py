"""A model's parameters as one flat vector and back (``torch.nn.utils.parameters_to_vector``).

Handy where an algorithm sees the weights as a single point: global pruning ranks every weight
of several layers together, and second-order optimizers work on one long vector.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> lin = nn.Linear(2, 1)
    >>> v = nn.utils.parameters_to_vector(lin.parameters())
    >>> v.shape
    torch.Size([3])
    >>> nn.utils.vector_to_parameters(minitorch.zeros(3), lin.parameters())
    >>> lin.bias
    Parameter containing:
    tensor([0.], requires_grad=True)
"""

from __future__ import annotations

from minitorch._tensor import Tensor
from minitorch.nn.modules.module import _typename
from minitorch.ops.shape import cat

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters) -> Tensor:
    """The parameters flattened and joined into one vector (a graph op: gradients flow back)."""
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    """Copy consecutive slices of ``vec`` into the parameters, each reshaped to its shape."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n

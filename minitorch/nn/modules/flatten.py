"""``nn.Flatten``: merge dimensions, by default all but the batch dimension.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.Flatten()(minitorch.zeros(8, 16, 5, 5)).shape
    torch.Size([8, 400])
"""

from __future__ import annotations

import math

from minitorch.nn.modules.module import Module
from minitorch.ops._util import normalize_dim

__all__ = ["Flatten"]


class Flatten(Module):
    """``input.flatten(start_dim, end_dim)`` as a layer (default: keep dimension 0)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size`` (a tuple or list of ints, one of which
    may be -1): the inverse of :class:`Flatten`.

    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.Unflatten(1, (2, 3))(minitorch.zeros(4, 6)).shape
    torch.Size([4, 2, 3])
    """

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError("unflattened_size must be tuple of ints, but found element of "
                                f"type {type(elem).__name__} at pos {idx}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):  # noqa: A002
        shape = tuple(input.shape)
        dim = normalize_dim(self.dim, len(shape))
        sizes = list(self.unflattened_size)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        known = math.prod(s for s in sizes if s != -1)
        if sizes.count(-1) == 1 and known and shape[dim] % known == 0:
            sizes[sizes.index(-1)] = shape[dim] // known
        if sizes.count(-1) > 1:
            raise RuntimeError("unflatten got an unexpected error:\n"
                               "only one dimension can be inferred")
        if -1 in sizes or math.prod(sizes) != shape[dim]:
            raise RuntimeError(
                f"unflatten: Provided sizes {list(self.unflattened_size)} don't multiply up to "
                f"the size of dim {self.dim} ({shape[dim]}) in the input tensor")
        return input.reshape(shape[:dim] + tuple(sizes) + shape[dim + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


__all__ += ["Unflatten"]

"""``nn.CosineSimilarity`` and ``nn.PairwiseDistance``, around
:func:`minitorch.nn.functional.cosine_similarity` and
:func:`minitorch.nn.functional.pairwise_distance`.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> nn.PairwiseDistance(eps=0.0)(minitorch.tensor([[0.0, 0.0]]), minitorch.tensor([[3.0, 4.0]]))
    tensor([5.])
"""

from __future__ import annotations

from minitorch.nn import functional as F
from minitorch.nn.modules.module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class CosineSimilarity(Module):
    """The cosine similarity of two tensors along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """The ``p``-norm distance of two tensors over their last dimension."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)

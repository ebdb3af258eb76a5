"""``tril`` and ``triu``: the lower or upper triangle of a matrix (of each matrix of a batch),
zeros elsewhere.

``diagonal`` moves the border: 0 keeps the main diagonal, 1 the one above it, -1 the one below.
Keeping part of the input is linear, so the gradient keeps the same part of the output's
gradient. A causal attention mask is ``torch.ones(n, n).tril()``.

Example:
    >>> import minitorch
    >>> minitorch.ones(3, 3).tril()
    tensor([[1., 0., 0.],
            [1., 1., 0.],
            [1., 1., 1.]])
"""

from __future__ import annotations

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function

__all__ = ["tril", "triu"]


def _keep_mask(xp, rows: int, cols: int, diagonal: int, lower: bool):
    """True where ``tril`` (``lower``) or ``triu`` keeps an element of a rows x cols matrix."""
    i = xp.arange(rows)[:, None]
    j = xp.arange(cols)[None, :]
    return (j - i <= diagonal) if lower else (j - i >= diagonal)


class Tril(Function):
    """The lower triangle (``j - i <= diagonal``) of the last two dims; zeros above."""

    node_name = "TrilBackward0"
    _builtin = True
    _lower = True

    @classmethod
    def forward(cls, ctx, a, diagonal):
        x = a._data
        xp = array_module(x)
        ctx.diagonal = diagonal
        keep = _keep_mask(xp, x.shape[-2], x.shape[-1], diagonal, cls._lower)
        return _wrap(xp.where(keep, x, x.dtype.type(0)))

    @classmethod
    def backward(cls, ctx, grad):
        return cls.apply(grad, ctx.diagonal)


class Triu(Tril):
    """The upper triangle (``j - i >= diagonal``) of the last two dims; zeros below."""

    node_name = "TriuBackward0"
    _builtin = True
    _lower = False


def _check(input: Tensor, name: str) -> None:  # noqa: A002
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The lower triangle of ``input``'s last two dimensions (``diagonal``: which diagonal is
    the border, 0 the main one), zeros above it."""
    _check(input, "tril")
    return Tril.apply(input, int(diagonal))


def triu(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The upper triangle of ``input``'s last two dimensions, zeros below it."""
    _check(input, "triu")
    return Triu.apply(input, int(diagonal))


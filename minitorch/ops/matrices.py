"""Matrices built from tensors: ``block_diag``, ``diagflat``, ``cartesian_prod``,
``combinations``, ``vander``, and the covariance ``cov`` with ``corrcoef``.

All but ``block_diag`` are written as PyTorch writes them, from the ops below (``meshgrid``'s
``view`` and ``expand``, ``masked_select``, ``stack``, ``cumprod``, ``mm``...), so their
gradients, second derivatives and recorded nodes are PyTorch's. ``block_diag`` is one Function
(``BlockDiagBackward0``): each input's gradient is its block of the output's.

>>> import minitorch
>>> minitorch.combinations(minitorch.tensor([1, 2, 3]))
tensor([[1, 2],
        [1, 3],
        [2, 3]])
>>> minitorch.cov(minitorch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
tensor([[ 1., -1.],
        [-1.,  1.]])
"""

from __future__ import annotations

import warnings

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops import shape as _shape
from minitorch.ops.arithmetic import MulScalar
from minitorch.ops.linalg import mm
from minitorch.ops.rearrange import _check_tensors, ravel
from minitorch.ops.scan import cumprod
from minitorch.ops.scatter import masked_select

__all__ = ["block_diag", "diagflat", "cartesian_prod", "combinations", "vander", "cov",
           "corrcoef"]


# ---------------------------------------------------------------- block_diag, diagflat
class BlockDiag(Function):
    """``block_diag``: the inputs (each seen as a matrix) on the diagonal of zeros, in their
    promoted dtype; each input's gradient is its block of the output's."""

    node_name = "BlockDiagBackward0"
    _builtin = True

    @staticmethod
    def forward(*tensors):
        blocks = [t._data.reshape(t._data.shape if t._data.ndim == 2 else (1, -1))
                  for t in tensors]
        dt = tensors[0].dtype
        for t in tensors[1:]:
            dt = _dtype.promote_types(dt, t.dtype)
        xp = array_module(blocks[0])
        out = xp.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)),
                       dt.np)
        row = col = 0
        for b in blocks:
            out[row:row + b.shape[0], col:col + b.shape[1]] = b
            row, col = row + b.shape[0], col + b.shape[1]
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shapes = [t._data.shape for t in inputs]
        ctx.dtypes = [t.dtype for t in inputs]

    @staticmethod
    def backward(ctx, grad):
        grads, row, col = [], 0, 0
        for shape, dt in zip(ctx.shapes, ctx.dtypes):
            rows, cols = shape if len(shape) == 2 else (1, int(np.prod(shape)))
            block = grad[row:row + rows, col:col + cols]
            grads.append(block.reshape(shape).to(dt))
            row, col = row + rows, col + cols
        return tuple(grads)


def block_diag(*tensors) -> Tensor:
    """The tensors on the diagonal of a matrix of zeros (a 0-d tensor is a 1 x 1 block, a
    vector a row).

    >>> import minitorch
    >>> minitorch.block_diag(minitorch.tensor([[1, 2]]), minitorch.tensor(3))
    tensor([[1, 2, 0],
            [0, 0, 3]])
    """
    _check_tensors(tensors)
    for i, t in enumerate(tensors):
        if t._data.ndim > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {i} has {t._data.ndim} dimensions")
    if not tensors:
        return _wrap(np.zeros((1, 0), _dtype.get_default_dtype().np))
    return BlockDiag.apply(*tensors)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:  # noqa: A002
    """The elements of ``input``, flattened, on the diagonal ``offset`` of a square matrix:
    ``diag_embed(input.contiguous().view(-1), offset)``."""
    return _shape.diag_embed(ravel(input), offset, 0, 1)


# ---------------------------------------------------------------- cartesian_prod, combinations
def _one_dimensional(t: Tensor) -> None:
    if t._data.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {_shape._fmt(t._data.shape)}")


def _grids(tensors) -> list:
    """``meshgrid(*tensors, indexing="ij")`` of 1-d tensors, as PyTorch makes it: each a view
    along its own dimension, expanded to the full grid."""
    shape = tuple(t._data.shape[0] for t in tensors)
    return [_shape.expand(_shape.view(t, tuple(-1 if j == i else 1 for j in range(len(shape)))),
                          shape) for i, t in enumerate(tensors)]


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element of each 1-d tensor, as rows (``itertools.product``);
    a single tensor is returned as it is.

    >>> import minitorch
    >>> minitorch.cartesian_prod(minitorch.tensor([1, 2]), minitorch.tensor([3, 4]))
    tensor([[1, 3],
            [1, 4],
            [2, 3],
            [2, 4]])
    """
    _check_tensors(tensors)
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        _one_dimensional(t)
    if len(tensors) == 1:
        return tensors[0]
    if len({t.dtype for t in tensors}) > 1:
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    return _shape.stack([_shape.flatten(g) for g in _grids(tensors)], 1)


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa: A002
    """The ``r``-element combinations of a 1-d tensor's elements, as rows, in the order of
    ``itertools.combinations`` (``combinations_with_replacement`` with ``with_replacement``).
    """
    _one_dimensional(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _wrap(array_module(input._data).zeros(0, input._data.dtype))
    n = input._data.shape[0]
    index = np.indices((n,) * r)
    keep = np.ones((n,) * r, bool)
    for i in range(r - 1):  # positions i <= j <= k ... (i < j < k ... without replacement)
        keep &= index[i] <= index[i + 1] if with_replacement else index[i] < index[i + 1]
    mask = _wrap(array_module(input._data).asarray(keep))
    return _shape.stack([masked_select(g, mask) for g in _grids([input] * r)], 1)


# ---------------------------------------------------------------- vander
def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix: column ``j`` is ``x ** j`` for ``j < N`` (``N = len(x)`` by
    default), from the highest power unless ``increasing``; integers and bools give int64.

    >>> import minitorch
    >>> minitorch.vander(minitorch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [4, 2, 1],
            [9, 3, 1]])
    """
    if x._data.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._data.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = _dtype.promote_types(x.dtype, _dtype.int64)
    result = _wrap(array_module(x._data).ones((x._data.shape[0], n), dt.np))
    if n > 1:  # as PyTorch: the columns after the first are x, then their running products
        result[:, 1:].copy_(x.unsqueeze(1))
        result[:, 1:].copy_(cumprod(result[:, 1:], 1))
    return result if increasing else _shape.Flip.apply(result, (1,))


# ---------------------------------------------------------------- cov, corrcoef
def _check_weights(w: Tensor, name: str, observations: int, integral: bool) -> None:
    kind = "integral" if integral else "floating point"
    if w._data.ndim > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got "
                           f"{name} with {w._data.ndim} dimensions")
    if (w._data.dtype.kind in "iu") != integral or (not integral and w._data.dtype.kind != "f"):
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_shape._scalar_type(w.dtype)} dtype")
    if w._data.size != observations:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are "
                           f"observations in the input but got {w._data.size} != {observations}")
    if observations and bool((w._data < 0).any()):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def cov(input: Tensor, *, correction: int = 1, fweights=None, aweights=None) -> Tensor:  # noqa: A002
    """The covariance matrix of the variables in the rows of ``input`` (its columns are the
    observations), divided by N - ``correction``; ``fweights`` (integer counts) and
    ``aweights`` (float importances) weight the observations. A single variable gives a 0-d
    tensor."""
    if input._data.ndim > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an "
                           f"input with {input._data.ndim} dimensions")
    if input.dtype is _dtype.bool:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = input.view((1, -1)) if input._data.ndim < 2 else input
    observations = x._data.shape[1]
    w = None
    if fweights is not None:
        _check_weights(fweights, "fweights", observations, True)
        w = fweights
    if aweights is not None:
        _check_weights(aweights, "aweights", observations, False)
        w = aweights if w is None else w * aweights
    if w is None:
        w_sum = _wrap(array_module(x._data).asarray(np.array(observations, np.int64)))
    else:
        w_sum = w.sum()
        if not bool(w_sum._data != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (x if w is None else x * w).sum(1) / w_sum
    if correction == 0:  # the weights' sum itself, as PyTorch records it (no node)
        norm = w_sum
    elif w is not None and aweights is not None:  # times a number: PyTorch's MulBackward1
        norm = w_sum - MulScalar.apply((w * aweights).sum(), correction) / w_sum
    else:
        norm = w_sum - correction
    if bool(norm._data <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the number of observations.", UserWarning, stacklevel=2)
        norm = norm * 0
    centered = x - avg.unsqueeze(1)
    product = mm(centered, (centered if w is None else centered * w).t())
    return (product / norm).squeeze()


def corrcoef(input: Tensor) -> Tensor:  # noqa: A002
    """The correlation coefficients of the rows of ``input``: ``cov`` scaled by the standard
    deviations, clipped to [-1, 1]."""
    if input._data.ndim > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got "
                           f"an input with {input._data.ndim} dimensions")
    c = cov(input)
    if c._data.ndim == 0:  # one variable: 1, or NaN when its variance is 0, inf or NaN
        return c / c
    stddev = c.diagonal().sqrt()
    c = c / stddev.view((-1, 1))
    c = c / stddev.view((1, -1))
    return c.clip(-1, 1)


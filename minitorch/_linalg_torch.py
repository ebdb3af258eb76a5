"""The ``torch.*`` forms of linear-algebra functions whose home is ``torch.linalg``:
``det``, ``logdet``, ``slogdet``, ``inverse``, ``matrix_power``, ``cholesky``, ``cross``,
``pinverse`` and ``svd``.

Most are the ``minitorch.linalg`` function under an older name. Three differ as PyTorch's do:
``slogdet`` returns ``torch.return_types.slogdet``; ``cholesky`` is deprecated (it warns
once), records ``CholeskyBackward0`` and names itself ``cholesky`` in its errors; ``cross``
without ``dim`` takes the first dimension of size 3 (``linalg.cross`` takes the last) and
warns once that this default is deprecated. ``logdet`` is NaN for a negative determinant.
``svd`` returns ``V`` (not ``Vh``), and zeros for ``U`` and ``V`` with ``compute_uv=False``.

Example:
    >>> import minitorch
    >>> minitorch.logdet(minitorch.tensor([[2.0, 0.0], [0.0, 3.0]]))
    tensor(1.7918)
"""

from __future__ import annotations

import math

from minitorch import linalg, return_types
from minitorch._backend import array_module
from minitorch._out import with_out
from minitorch._tensor import Tensor, _wrap
from minitorch._warnings import warn_once
from minitorch.ops import arithmetic as _arith

__all__ = ["det", "logdet", "slogdet", "inverse", "matrix_power", "cholesky", "cross",
           "pinverse", "svd"]

det = linalg.det.__wrapped__  # torch.det has no out=
matrix_power = linalg.matrix_power


def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """``log(det(input))``: NaN where the determinant is negative, ``-inf`` where it is 0."""
    sign, logabsdet = linalg._checked_slogdet(input, "logdet")
    return _arith.where(sign == -1, math.nan, logabsdet)


def slogdet(input: Tensor):  # noqa: A002
    """``linalg.slogdet``, as ``torch.return_types.slogdet(sign, logabsdet)``."""
    return return_types.slogdet(*linalg.slogdet(input))


def inverse(input: Tensor) -> Tensor:  # noqa: A002
    """``linalg.inv``: the inverse of a square matrix (of each matrix of a batch)."""
    return linalg.inv(input)


class Cholesky(linalg.Cholesky):
    node_name = "CholeskyBackward0"
    _builtin = True


def cholesky(input: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """The deprecated ``torch.cholesky``: ``linalg.cholesky`` (``upper`` as a positional
    argument too)."""
    warn_once("cholesky", _CHOLESKY_DEPRECATED, stacklevel=3)  # past with_out
    linalg._check_square(input, "cholesky")
    if input._data.dtype.kind != "f":  # no "Expected a floating point" check: the kernel's
        raise NotImplementedError(f"\"cholesky_cpu\" not implemented for "
                                  f"'{input.dtype._legacy[:-6]}'")
    linalg._check_low_precision(input, "cholesky_cpu", NotImplementedError)
    return Cholesky.apply(input, bool(upper), "cholesky")


def cross(input: Tensor, other: Tensor, dim: int | None = None) -> Tensor:  # noqa: A002
    """``linalg.cross`` along ``dim``; without ``dim``, along the first dimension of size 3
    of ``input`` (deprecated by PyTorch, so it warns once)."""
    if dim is None:
        warn_once("cross", "Using torch.cross without specifying the dim arg is deprecated.\n"
                           "Please either pass the dim explicitly or simply use "
                           "torch.linalg.cross.\nThe default value of dim will change to "
                           "agree with that of linalg.cross in a future release.",
                  stacklevel=3)  # past with_out
        dim = next((i for i, n in enumerate(input.shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    return linalg.cross(input, other, dim=dim)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """``linalg.pinv`` with ``rcond`` (singular values up to ``rcond`` times the largest
    count as zero)."""
    return linalg.pinv(input, rcond)


def svd(input: Tensor, some: bool = True, compute_uv: bool = True):  # noqa: A002
    """The older ``torch.svd``: ``torch.return_types.svd(U, S, V)`` with ``A = U diag(S)
    V^T`` (``linalg.svd`` returns ``V^T``); ``some=False`` gives square ``U`` and ``V``."""
    if input.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has "
                           f"{input.dim()} dimensions instead")
    if compute_uv:
        u, s, vh = linalg.svd(input, full_matrices=not some)
        return return_types.svd(u, s, vh.mT)
    s = linalg.svdvals(input)
    *batch, m, n = input.shape
    zeros = array_module(input._data).zeros
    return return_types.svd(_wrap(zeros((*batch, m, m), input._data.dtype)), s,
                            _wrap(zeros((*batch, n, n), input._data.dtype)))


_CHOLESKY_DEPRECATED = (
    "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
    "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
    "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
    "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results "
    "for all valid (symmetric positive definite) inputs.")

inverse, cross = with_out(inverse, "linalg_inv_ex"), with_out(cross, "linalg_cross")

"""The ``torch.*`` forms of linear-algebra functions whose home is ``torch.linalg``:
``det``, ``logdet``, ``slogdet``, ``inverse``, ``matrix_power``, ``cholesky``, ``cross``,
``pinverse`` and ``svd``.

Most are the ``minitorch.linalg`` function under an older name. Three differ as PyTorch's do:
``slogdet`` returns ``torch.return_types.slogdet``; ``cholesky`` is deprecated (it warns
once), records ``CholeskyBackward0`` and names itself ``cholesky`` in its errors; ``cross``
without ``dim`` takes the first dimension of size 3 (``linalg.cross`` takes the last) and
warns once that this default is deprecated. ``logdet`` is NaN for a negative determinant.
``svd`` returns ``V`` (not ``Vh``), and zeros for ``U`` and ``V`` with ``compute_uv=False``.
Further down (task linalg2): ``matrix_exp``, the deprecated ``nuclear_norm``,
``frobenius_norm``, ``triangular_solve`` and ``qr`` (each warns once, as PyTorch does), and
``cholesky_inverse`` and ``cholesky_solve`` with PyTorch's backward formulas.

Example:
    >>> import minitorch
    >>> minitorch.logdet(minitorch.tensor([[2.0, 0.0], [0.0, 3.0]]))
    tensor(1.7918)
"""

from __future__ import annotations

import math

import numpy as _np

from minitorch import _dtype, linalg, return_types
from minitorch._backend import array_module, to_numpy
from minitorch._out import with_out
from minitorch._tensor import Tensor, _wrap
from minitorch._warnings import warn_once
from minitorch.autograd.function import Function as _Function
from minitorch.ops import arithmetic as _arith
from minitorch.ops import reduction as _reduction
from minitorch.ops._util import normalize_dims as _normalize_dims

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


# ---------------------------------------------------------------- task linalg2
# matrix_exp, nuclear_norm, frobenius_norm, cholesky_inverse, cholesky_solve,
# triangular_solve and qr: the torch.* forms
matrix_exp = linalg.matrix_exp


def nuclear_norm(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """The deprecated ``torch.nuclear_norm``: ``linalg.matrix_norm(input, "nuc", dim,
    keepdim)`` (over the last two dimensions without ``dim``); it warns once."""
    if isinstance(dim, bool):  # nuclear_norm(A, keepdim) positionally
        dim, keepdim = None, dim
    warn_once("nuclear_norm", "at::nuclear_norm is deprecated and it is just left for JIT "
              "compatibility. It will be removed in a future PyTorch release. Please use "
              "`linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead", stacklevel=2)
    return linalg.matrix_norm(input, "nuc", (-2, -1) if dim is None else tuple(dim), keepdim)


class _NormDim(_reduction.Norm):
    """``at::norm(x, 2, dim)``: the vector norm under the node name PyTorch gives it."""

    node_name = "NormBackward1"
    _builtin = True


def frobenius_norm(input: Tensor, dim, keepdim: bool = False) -> Tensor:  # noqa: A002
    """The deprecated ``torch.frobenius_norm``: the 2-norm over at most two dimensions
    ``dim``; it warns once."""
    warn_once("frobenius_norm", "at::frobenius_norm is deprecated and it is just left for JIT "
              "compatibility. It will be removed in a future PyTorch release. Please use "
              "`linalg.vector_norm(A, 2., dim, keepdim)` instead", stacklevel=2)
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions "
                           "instead.")
    if not input.dtype.is_floating_point:
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {input.dtype._legacy[:-6]} instead.")
    dims = _normalize_dims(dim, input.dim()) if dim else tuple(range(input.dim()))
    return _NormDim.apply(input, 2.0, tuple(dims), bool(keepdim), None, None,
                          tuple(dims) if dim else ())


class CholeskyInverse(_Function):
    """``(L L^T)^-1`` from a Cholesky factor ``L`` (``upper``: ``(U^T U)^-1``). Backward is
    PyTorch's: with ``C = inv (G + G^T) inv``, ``grad_L = -C L`` (``-U C``)."""

    node_name = "CholeskyInverseBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, factor, upper):
        f = factor._data
        a = _np.swapaxes(f, -1, -2) @ f if upper else f @ _np.swapaxes(f, -1, -2)
        out = linalg._on_device_of(linalg._by_columns(_np.linalg.inv(a) if a.size else a.copy()),
                                   factor)
        ctx.upper = upper
        ctx.save_for_backward(factor, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        factor, inverse = ctx.saved_tensors
        common = inverse @ ((grad + grad.mT) @ inverse)
        return (-(factor @ common) if ctx.upper else -(common @ factor)), None


def cholesky_inverse(input: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """The inverse of ``A = L L^T`` from its Cholesky factor ``L`` (``upper``: ``A = U^T
    U``), as ``torch.cholesky_inverse``."""
    if input.dim() < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 "
                           "dimensions.")
    linalg._check_square(input, "cholesky_inverse")
    if input._data.dtype.kind != "f" or input._data.dtype == _np.float16:
        raise NotImplementedError("\"cholesky_inverse_out_cpu\" not implemented for "
                                  f"'{input.dtype._legacy[:-6]}'")
    return CholeskyInverse.apply(input, bool(upper))


class CholeskySolve(_Function):
    """``X = (L L^T)^-1 B``. Backward is PyTorch's: ``grad_B = cholesky_solve(G, L)`` and,
    with ``C = grad_B X^T + X grad_B^T``, ``grad_L = -C L`` (``-U C`` for ``upper``)."""

    node_name = "CholeskySolveBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, b, factor, upper):
        f = to_numpy(factor._data)  # the triangular solves run on the host (as inv's)
        low = _np.swapaxes(f, -1, -2) if upper else f
        y = linalg._trsm(low, to_numpy(b._data), upper=False, unit=False)
        x = linalg._trsm(_np.swapaxes(low, -1, -2), y, upper=True, unit=False)
        out = linalg._on_device_of(linalg._by_columns(x), b)  # by columns, as PyTorch's
        ctx.upper, ctx.shapes = upper, (b.shape, factor.shape)
        ctx.save_for_backward(factor, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        factor, x = ctx.saved_tensors
        g_b = cholesky_solve(grad, factor, ctx.upper)
        common = g_b @ x.mT
        common = common + common.mT
        g_l = -(factor @ common) if ctx.upper else -(common @ factor)
        return g_b.sum_to_size(ctx.shapes[0]), g_l.sum_to_size(ctx.shapes[1]), None


def cholesky_solve(input: Tensor, input2: Tensor, upper: bool = False) -> Tensor:  # noqa: A002
    """The solution ``X`` of ``A X = B`` (``B`` is ``input``) from the Cholesky factor
    ``input2`` of ``A = L L^T`` (``upper``: ``A = U^T U``), as ``torch.cholesky_solve``."""
    if input.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {input.dim()} "
                           "dimensions instead")
    if input2.dim() < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {input2.dim()} "
                           "dimensions instead")
    if input.dtype is not input2.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{input.dtype._legacy[:-6]} and A of type "
                           f"{input2.dtype._legacy[:-6]} instead.")
    n, m = input2.shape[-2:]
    if n != m or input.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{n} by {m} but each b matrix is {input.shape[-2]} by "
                           f"{input.shape[-1]}")
    if input._data.dtype.kind != "f" or input._data.dtype == _np.float16:
        raise NotImplementedError("\"cholesky_solve_cpu\" not implemented for "
                                  f"'{input.dtype._legacy[:-6]}'")
    return CholeskySolve.apply(input, input2, bool(upper))


class TriangularSolve(_Function):
    """The older ``triangular_solve``: ``(A^-1 B, A)`` (``A^-T B`` with ``transpose``), both
    from one node. Backward is PyTorch's: ``grad_B`` is a triangular solve with the
    transpose, ``grad_A = -grad_B X^T`` kept to ``A``'s triangle, plus the gradient of the
    returned copy of ``A``."""

    node_name = "TriangularSolveBackward0"
    _builtin = True

    @staticmethod
    def forward(b, a, upper, transpose, unit):
        host = to_numpy(a._data)  # the triangular solve runs on the host (as inv's)
        m = _np.swapaxes(host, -1, -2) if transpose else host
        x = linalg._trsm(m, to_numpy(b._data), upper=upper != transpose, unit=unit)
        batch = _np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        copy = _np.array(_np.broadcast_to(host, batch + a.shape[-2:]))
        return (linalg._on_device_of(linalg._by_columns(x), b),  # by columns, as PyTorch's
                linalg._on_device_of(linalg._by_columns(copy), a))

    @staticmethod
    def setup_context(ctx, inputs, output):
        b, a, ctx.upper, ctx.transpose, ctx.unit = inputs
        ctx.shapes = b.shape, a.shape
        ctx.save_for_backward(a, output[0])
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_x, g_m):
        a, x = ctx.saved_tensors
        g_b = g_a = None
        if g_x is not None:
            g_b = triangular_solve(g_x, a, ctx.upper, not ctx.transpose, ctx.unit)[0]
            g_a = -(x @ g_b.mT) if ctx.transpose else -(g_b @ x.mT)
            g_a = g_a.triu(int(ctx.unit)) if ctx.upper else g_a.tril(-int(ctx.unit))
        if g_m is not None:
            g_a = g_m if g_a is None else g_a + g_m
        return (None if g_b is None else g_b.sum_to_size(ctx.shapes[0]),
                None if g_a is None else g_a.sum_to_size(ctx.shapes[1]), None, None, None)


def triangular_solve(input: Tensor, A: Tensor, upper: bool = True, transpose: bool = False,  # noqa: A002, N803
                     unitriangular: bool = False):
    """The deprecated ``torch.triangular_solve(B, A)``: ``torch.return_types.
    triangular_solve(solution, cloned_coefficient)`` with ``solution = A^-1 B`` (``A^-T B``
    with ``transpose``) for a triangular ``A``, and a copy of ``A``. It warns once."""
    warn_once("triangular_solve", _TRIANGULAR_DEPRECATED, stacklevel=2)
    for t, name in ((input, "b"), (A, "A")):
        if t.dim() < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 "
                               f"dimensions, but it has {t.dim()} dimensions instead")
    if input.dtype is not A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{input.dtype._legacy[:-6]} and A of type {A.dtype._legacy[:-6]} "
                           "instead.")
    n, m = A.shape[-2:]
    if n != m or input.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{n} by {m} but each b matrix is {input.shape[-2]} by "
                           f"{input.shape[-1]}")
    if A._data.dtype.kind != "f" or A._data.dtype == _np.float16:
        raise NotImplementedError("\"triangular_solve_cpu\" not implemented for "
                                  f"'{A.dtype._legacy[:-6]}'")
    return return_types.triangular_solve(*TriangularSolve.apply(
        input, A, bool(upper), bool(transpose), bool(unitriangular)))


def qr(input: Tensor, some: bool = True):  # noqa: A002
    """The deprecated ``torch.qr``: ``linalg.qr(input, "reduced" if some else "complete")``
    as ``torch.return_types.qr(Q, R)``; it warns once."""
    warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in "
              "a future PyTorch release.\nThe boolean parameter 'some' has been replaced with a "
              "string parameter 'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\n"
              "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')", stacklevel=2)
    return return_types.qr(*linalg.qr(input, "reduced" if some else "complete"))


_TRIANGULAR_DEPRECATED = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, "
    "A).solution\nshould be replaced with\nX = torch.linalg.solve_triangular(A, B).")
__all__ += ["matrix_exp", "nuclear_norm", "frobenius_norm", "cholesky_inverse",
            "cholesky_solve", "triangular_solve", "qr"]


# lu, lu_unpack, lu_solve: the older torch.* forms of linalg.lu_factor and linalg.lu_solve
def lu(A: Tensor, pivot: bool = True, get_infos: bool = False):  # noqa: N803
    """The deprecated ``torch.lu``: ``linalg.lu_factor_ex``'s ``(LU, pivots)`` (with
    ``get_infos``, ``torch.return_types._lu_with_info(LU, pivots, info)``); it never raises
    for a singular matrix, and warns once."""
    warn_once("lu", "torch.lu is deprecated in favor of torch.linalg.lu_factor / "
              "torch.linalg.lu_factor_ex and will be removed in a future PyTorch release.\nLU, "
              "pivots = torch.lu(A, compute_pivots)\nshould be replaced with\nLU, pivots = "
              "torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
              "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
              "torch.linalg.lu_factor_ex(A, compute_pivots)", stacklevel=2)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    result = linalg.lu_factor_ex(A)
    return return_types._lu_with_info(*result) if get_infos else tuple(result[:2])


def _lu_method(self: Tensor, pivot: bool = True, get_infos: bool = False):
    """``Tensor.lu``: ``torch.lu``, its three results as a plain tuple."""
    return tuple(lu(self, pivot, get_infos))


def lu_unpack(LU_data: Tensor, LU_pivots: Tensor, unpack_data: bool = True,  # noqa: N803
              unpack_pivots: bool = True):
    """``P``, ``L`` and ``U`` of ``A = P L U`` from ``linalg.lu_factor``'s packed ``LU`` and
    pivots: ``torch.return_types.lu_unpack(P, L, U)`` (empty where not unpacked)."""
    if LU_data.dim() < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got "
                           f"size: [{', '.join(map(str, LU_data.shape))}] instead")
    if LU_pivots.dtype is not _dtype.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of "
                           "torch.int32 dtype.")
    m = LU_data.shape[-2]
    piv = to_numpy(LU_pivots._data)
    if piv.size and (piv.min() < 1 or piv.max() > m):
        raise RuntimeError("pivots passed to lu_unpack must be between 1 and LU.size(-2) "
                           "inclusive.Did you properly pass the result of lu_factor?")
    p = _wrap(array_module(LU_data._data).asarray(linalg._permutation(
        piv, m, LU_data._data.dtype))) if unpack_pivots else LU_data.new_zeros(0)
    return return_types.lu_unpack(p, *linalg.LuUnpack.apply(LU_data, bool(unpack_data)))


def lu_solve(input: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: A002, N803
    """The deprecated ``torch.lu_solve(B, LU, pivots)``: ``linalg.lu_solve(LU, pivots, B)``;
    it warns once."""
    warn_once("lu_solve", "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand "
              "will be removed in a future PyTorch release.\nNote that torch.linalg.lu_solve "
              "has its arguments reversed.\nX = torch.lu_solve(B, LU, pivots)\nshould be "
              "replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)", stacklevel=2)
    return linalg.lu_solve(LU_data, LU_pivots, input)


__all__ += ["lu", "lu_unpack", "lu_solve"]
cholesky_inverse, cholesky_solve = with_out(cholesky_inverse), with_out(cholesky_solve)
orgqr = linalg.householder_product  # torch.orgqr: the older name (task linalg2)
__all__ += ["orgqr"]

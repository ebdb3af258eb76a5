"""``minitorch.linalg``: norms, inverse, determinants, linear systems and decompositions.

Each operation is a :class:`~minitorch.autograd.Function` whose backward is the textbook
matrix-calculus rule, written with minitorch operations (so it can itself be differentiated
where that is noted):

* ``inv``:   ``d(A^-1) = -A^-1 dA A^-1``, so ``grad_A = -A^-T G A^-T``;
* ``det``:   ``d det(A)/dA = det(A) A^-T`` (the cofactor matrix, also when A is singular);
* ``solve``: ``X = A^-1 B``: ``grad_B = A^-T G`` and ``grad_A = -grad_B X^T``;
* ``vector_norm`` is ``Tensor.norm``: ``d ||x||_p / dx = sign(x) |x|^(p-1) / ||x||^(p-1)``;
* ``cross``: ``d(a x b)``: ``grad_a = b x G`` and ``grad_b = G x a``;
* ``svd``: ``A = U diag(S) Vh``; the gradient of ``A`` from those of ``U``, ``S`` and ``Vh``
  (PyTorch's ``svd_backward``), written with tensor operations so that it is differentiable
  again;
* ``slogdet``: ``d log|det A| / dA = A^-T`` (the sign has no gradient);
* ``cholesky``, ``eigh``, ``qr`` and ``pinv``: PyTorch's backward formulas, each in its
  class's docstring; ``matrix_power`` and ``multi_dot`` are products of ``matmul``/``mm``.

* ``matrix_exp``: the gradient is a block of the exponential of ``[[A^T, G], [0, A^T]]``;
  ``solve_triangular``: as ``solve``, kept to ``A``'s triangle; ``inv_ex``, ``solve_ex``,
  ``cholesky_ex`` return an ``info`` tensor where the others raise (LU with partial pivoting
  and Cholesky written out as LAPACK runs them, so a failed matrix gives PyTorch's values).

Decompositions are unique only up to signs (a column of ``Q`` or of ``V`` may be negated):
minitorch's come from NumPy's LAPACK, and the tests compare what does not depend on them.

Example:
    >>> import minitorch
    >>> A = minitorch.tensor([[2.0, 0.0], [0.0, 4.0]], requires_grad=True)
    >>> minitorch.linalg.det(A)
    tensor(8., grad_fn=<LinalgDetBackward0>)
    >>> minitorch.linalg.solve(A, minitorch.tensor([2.0, 4.0]))
    tensor([1., 1.], grad_fn=<LinalgSolveExBackward0>)
"""

from __future__ import annotations

import functools
import math

import numpy as np

from minitorch import _dtype, return_types
from minitorch._backend import array_module, to_numpy
from minitorch._dtype import CPP_NAMES
from minitorch._out import _check_out_dtype, copy_into_out, with_out
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops import arithmetic as _arith
from minitorch.ops import linalg as _linalg_ops
from minitorch.ops import reduction as _reduction
from minitorch.ops import shape as _shape_ops
from minitorch.ops._util import broadcast_error, normalize_dim, suggested_layout

__all__ = ["LinAlgError", "norm", "vector_norm", "matrix_norm", "inv", "det", "solve",
           "svdvals", "svd", "cross", "matmul"]


class LinAlgError(RuntimeError):
    """A linear-algebra failure such as a singular matrix (``torch.linalg.LinAlgError``)."""


def _check_float(a: Tensor, name: str) -> None:
    if a._data.dtype.kind != "f":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. "
                           f"Got {a.dtype._legacy[:-6]}")


def _check_square(a: Tensor, name: str) -> None:
    if a._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if a._data.shape[-1] != a._data.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are "
                           f"{a._data.shape[-2]} by {a._data.shape[-1]} matrices")


def _zero_pivot(a: np.ndarray) -> int:
    """The 1-based position of the first zero pivot of LU with partial pivoting (what
    PyTorch names in its error), for the first singular matrix of a batch."""
    mats = a.reshape(-1, *a.shape[-2:])
    for m in mats:
        m = m.astype(np.float64)
        n = m.shape[0]
        for k in range(n):
            p = k + int(np.argmax(np.abs(m[k:, k])))
            if m[p, k] == 0:
                return k + 1
            m[[k, p]] = m[[p, k]]
            m[k + 1:] -= np.outer(m[k + 1:, k] / m[k, k], m[k])
    return a.shape[-1]


def _check_low_precision(a: Tensor, name: str, error=RuntimeError) -> None:
    """float16 has no LAPACK routines: PyTorch's error (its wording differs by operation)."""
    if a._data.dtype == np.float16:
        if error is NotImplementedError:
            raise NotImplementedError(f'"{name}" not implemented for \'Half\'')
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def _nan_where_nan(a, out):
    """PyTorch's result for a matrix with a NaN: every element of its result is NaN."""
    xp = array_module(a)
    bad = xp.isnan(a).any(axis=(-2, -1))
    if not bad.any():
        return out
    return xp.where(bad.reshape(bad.shape + (1,) * (out.ndim - bad.ndim)), xp.nan, out)


def _mT(t: Tensor) -> Tensor:  # noqa: N802
    return t.transpose(-2, -1)


def _by_columns(x):
    """The array ``x`` with each of its matrices laid out column by column (the batch stays
    row-major), as LAPACK writes its results and PyTorch returns them: a later ``reshape``
    (in ``matmul``) is then a view, or a copy, exactly where PyTorch's is. A vector (one
    dimension) is returned as it is."""
    xp = array_module(x)
    if x.ndim < 2:
        return x
    out = xp.empty(x.shape[:-2] + x.shape[:-3:-1], x.dtype)  # (a fresh array: its strides are
    out[...] = xp.swapaxes(x, -1, -2)  # PyTorch's also along dimensions of size 1)
    return xp.swapaxes(out, -1, -2)


# ---------------------------------------------------------------- inverse
class Inv(Function):
    node_name = "LinalgInvExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        xp = array_module(a._data)
        try:
            out = _wrap(_by_columns(_nan_where_nan(a._data, xp.linalg.inv(a._data))))
        except np.linalg.LinAlgError:
            raise LinAlgError(
                f"linalg.inv: The diagonal element {_zero_pivot(to_numpy(a._data))} is zero, "
                "the inversion could not be completed because the input matrix is singular."
            ) from None
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (inv_a,) = ctx.saved_tensors  # grad_A = -A^-T (G A^-T), as PyTorch records it
        return -(_mT(inv_a) @ (grad @ _mT(inv_a)))


def inv(A: Tensor) -> Tensor:  # noqa: N803
    """The inverse of a square matrix (or of each matrix of a batch).

    >>> import minitorch
    >>> minitorch.linalg.inv(minitorch.tensor([[2.0, 0.0], [0.0, 4.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    _check_square(A, "linalg.inv")
    _check_float(A, "linalg.inv")
    _check_low_precision(A, "linalg.inv")
    return Inv.apply(A)


# ---------------------------------------------------------------- determinant
def _on_device_of(host: np.ndarray, a: Tensor) -> Tensor:
    """A result computed on the host (NumPy's LAPACK), as a tensor on ``a``'s device and of
    its dtype."""
    return _wrap(array_module(a._data).asarray(host.astype(a._data.dtype, copy=False)))


def _cofactors(a: np.ndarray) -> np.ndarray:
    """The cofactor matrix ``d det(A) / dA``, from the SVD so that singular matrices work:
    with ``A = U S V^T``, ``cof(A) = det(U) det(V) U diag(prod_{j != i} s_j) V^T``."""
    u, s, vt = np.linalg.svd(a)
    sign = np.linalg.det(u) * np.linalg.det(vt)
    others = _reduction._prod_of_others(s, -1) if s.shape[-1] else s
    return sign[..., None, None] * (u * others[..., None, :]) @ vt


def _diagonal_of(g: Tensor, a: Tensor) -> Tensor:
    """Diagonal matrices of ``a``'s shape with ``g`` (one number per matrix) along their
    diagonals, recorded as PyTorch's det and slogdet backward make them:
    ``diag_embed(g.unsqueeze(-1).expand_as(pivots)).mT``."""
    return _mT(_shape_ops.diag_embed(g.unsqueeze(-1).expand(a.shape[:-1])))


class Det(Function):
    node_name = "LinalgDetBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        out = _wrap(array_module(a._data).asarray(np.linalg.det(a._data)).astype(a._data.dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, d = ctx.saved_tensors
        if a._data.size == 0:  # (PyTorch's: zeros; for 1x1 matrices the gradient itself)
            return _wrap(array_module(grad._data).zeros(a._data.shape, grad._data.dtype))
        if a._data.shape[-1] == 1:
            return grad.unsqueeze(-1).unsqueeze(-1).expand(a.shape)
        if grad_mode._state.enabled:  # create_graph: PyTorch's recorded formulas
            singular = np.abs(to_numpy(d._data)) < 100 * np.finfo(a._data.dtype).eps
            if not singular.any():  # the solve of A^T X = diag(grad det(A))
                return solve(_mT(a), _diagonal_of(grad * d, a))
            if singular.all():  # by the SVD: U diag(the products of the other S) Vh
                u, s, vh = Svd.apply(a, True)
                alpha = det(u) * det(vh)
                prods = _reduction._product_of_others((alpha * grad).unsqueeze(-1), s,
                                                      s.dim() - 1)
                return (u * prods.unsqueeze(-2)) @ vh
        g = grad.unsqueeze(-1).unsqueeze(-1)
        if np.all(d._data != 0):  # invertible: det(A) A^-T, differentiable again
            return g * d.unsqueeze(-1).unsqueeze(-1) * _mT(inv(a))
        return g * _on_device_of(_cofactors(to_numpy(a._data)), a)


def det(A: Tensor) -> Tensor:  # noqa: N803
    """The determinant of a square matrix (or of each matrix of a batch)."""
    _check_square(A, "linalg.det")
    _check_float(A, "linalg.det")
    _check_low_precision(A, "lu_cpu", NotImplementedError)
    return Det.apply(A)


# ---------------------------------------------------------------- solve
class Solve(Function):
    """``X`` with ``A X = B`` (``left``) or ``X A = B``; for the second, the same solve of the
    transposed equation ``A^T X^T = B^T``, inside the one node as in PyTorch."""

    node_name = "LinalgSolveExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, b, vector, left=True):
        xp = array_module(a._data)
        rhs = b._data[..., None] if vector else b._data
        da, db = (a._data, rhs) if left else (_swapped(a._data), _swapped(rhs))
        try:
            x = _nan_where_nan(da, xp.linalg.solve(da, db))
        except np.linalg.LinAlgError:
            raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix "
                              "is singular.") from None
        x = x if left else _swapped(x)
        out = _wrap(_solve_layout(x[..., 0] if vector else x, left))
        ctx.vector, ctx.left = vector, left
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's linalg_solve_backward, as it records: A^T grad_B = G (X A = B: grad_B =
        # G A^-T), grad_A = -grad_B X^T (-X^T grad_B); a vector as a column of one matrix
        a, x = ctx.saved_tensors
        if ctx.vector:
            grad, x = grad.unsqueeze(-1), x.unsqueeze(-1)
        grad_b = solve(_mT(a), grad, left=ctx.left)
        grad_a = -(grad_b @ _mT(x)) if ctx.left else -(_mT(x) @ grad_b)
        return grad_a, grad_b.squeeze(-1) if ctx.vector else grad_b


def _swapped(x):
    """An array with its last two dimensions swapped (a view)."""
    return x.swapaxes(-1, -2)


def _solve_layout(x, left: bool):
    """A solve's result laid out as PyTorch's: by columns for ``A X = B``, by rows for ``X A
    = B`` (which PyTorch solves as the transposed equation); a batch of vectors counts as one
    matrix."""
    if left:
        return _by_columns(x)
    out = array_module(x).empty(x.shape, x.dtype)  # (PyTorch's strides also along dimensions
    out[...] = x  # of size 1, which NumPy's ascontiguousarray leaves as they were)
    return out


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``), without forming
    ``A^-1``. ``B`` may be a vector (one right-hand side) or a matrix (one per column)."""
    _check_square(A, "linalg.solve")
    _check_float(A, "linalg.solve")
    return Solve.apply(A, B, _solve_checks(A, B, "linalg.solve", left), bool(left))


# ---------------------------------------------------------------- norms
def vector_norm(x: Tensor, ord: float = 2, dim=None, keepdim: bool = False, *,  # noqa: A002
                dtype=None) -> Tensor:
    """The ``ord``-norm of ``x`` (all elements, or along ``dim``): ``(sum |x|^ord)^(1/ord)``;
    ``inf`` is the largest ``|x|``, ``0`` counts the non-zeros. The same operation as
    ``x.norm(p=ord)`` (one ``LinalgVectorNormBackward0`` node).

    >>> import minitorch
    >>> minitorch.linalg.vector_norm(minitorch.tensor([3.0, 4.0]))
    tensor(5.)
    """
    if isinstance(ord, bool) or not isinstance(ord, (int, float, np.number)):
        raise TypeError("linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
                        f"{type(ord).__name__}")
    _check_float(x, "linalg.vector_norm")
    return _reduction.vector_norm(x, ord, dim, keepdim, dtype=dtype)  # (its node shows ord as is)


def svdvals(A: Tensor) -> Tensor:  # noqa: N803
    """The singular values of ``A`` (of each matrix of a batch), in descending order."""
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_float(A, "linalg.svd")
    _check_low_precision(A, "linalg_svd_cpu", NotImplementedError)
    # PyTorch's: the whole decomposition, its node's U and Vh reached by S's gradient
    return Svd.apply(A, False)[1]


def _amax_or_zero(t: Tensor, dim: int, keepdim: bool = False) -> Tensor:
    """The largest of non-negative numbers along ``dim``; of none at all, 0 (as PyTorch's
    matrix norms give for an empty matrix)."""
    if t.shape[dim] == 0:
        dim %= t.dim()
        shape = [1 if i == dim else n for i, n in enumerate(t.shape) if keepdim or i != dim]
        return _wrap(array_module(t._data).zeros(shape, dtype=t._data.dtype))
    return t.amax(dim, keepdim)


def matrix_norm(A: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,  # noqa: A002, N803
                dtype=None) -> Tensor:
    """A matrix norm: ``"fro"`` (Frobenius, the default), ``"nuc"`` (sum of singular values),
    ``2``/``-2`` (largest/smallest singular value), ``1``/``-1`` (max/min column sum of
    ``|A|``), ``inf``/``-inf`` (max/min row sum). Each is built from other operations as
    PyTorch builds it, so that the graph has PyTorch's nodes."""
    _check_float(A, "linalg.matrix_norm")
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(map(str, dim))}")
    dtype = _dtype.as_dtype(dtype, "linalg_matrix_norm")
    d0, d1 = normalize_dim(dim[0], A.dim()), normalize_dim(dim[1], A.dim())
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in (1, -1, math.inf, -math.inf):
        # the 1-norms of the columns (of the rows for inf), then their max or min
        first, second = (d0, d1) if ord in (1, -1) else (d1, d0)
        if not keepdim and first < second:
            second -= 1  # the first reduction removed a dimension in front of it
        sums = vector_norm(A, 1, (first,), keepdim, dtype=dtype)
        return _amax_or_zero(sums, second, keepdim) if ord > 0 else sums.amin(second, keepdim)
    if ord not in ("nuc", 2, -2):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        A = A.to(dtype)  # noqa: N806
    _check_low_precision(A, "linalg.matrix_norm")
    order = [i for i in range(A.dim()) if i not in (d0, d1)] + [d0, d1]
    s = svdvals(A.permute(*order))  # the singular values of each matrix, moved to the end
    if ord == "nuc":
        out = s.sum(-1, keepdim)
    else:
        out = _amax_or_zero(s, -1, keepdim) if ord == 2 else s.amin(-1, keepdim)
    if keepdim:
        out = out.unsqueeze(-1).permute(*[order.index(i) for i in range(A.dim())])
    return out


def norm(A: Tensor, ord=None, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002, N803
    """A vector or matrix norm, chosen as PyTorch chooses: a matrix norm when ``ord`` is a
    string or ``dim`` names two dimensions (or ``ord`` is given for a 2-D input without
    ``dim``), else a vector norm (the 2-norm of all elements by default)."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is not None and dim is None:
        if A.dim() not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input "
                               f"must be 1D or 2D. Got {A.dim()}D.")
        dim = tuple(range(A.dim()))
    if isinstance(ord, str) or (dim is not None and len(dim) == 2):
        return matrix_norm(A, "fro" if ord is None else ord, dim or (-2, -1), keepdim,
                           dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)



# ---------------------------------------------------------------- matmul
matmul = with_out(_linalg_ops.matmul)
matmul.__doc__ = """``torch.linalg.matmul``: the matrix product, the same operation as
``torch.matmul`` (and ``@``), with ``out=``."""


# ---------------------------------------------------------------- cross product
class Cross(Function):
    """The cross product of 3-vectors along ``dim``: ``a x b`` is perpendicular to both.

    It is linear in each argument, so ``grad_a = b x G`` and ``grad_b = G x a`` (each summed
    back to its input's shape where it was broadcast)."""

    node_name = "LinalgCrossBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, b, dim):
        need_a, need_b = ctx.needs_input_grad[:2]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.dim, ctx.shapes = dim, (a._data.shape, b._data.shape)
        x, y = a._data, b._data
        out = array_module(x).cross(x, y, axis=dim)
        return _wrap(suggested_layout(out.astype(np.result_type(x, y), copy=False), x))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ga = gb = None
        if b is not None:
            ga = Cross.apply(b, grad, ctx.dim).sum_to_size(ctx.shapes[0])
        if a is not None:
            gb = Cross.apply(grad, a, ctx.dim).sum_to_size(ctx.shapes[1])
        return ga, gb


def cross(input: Tensor, other: Tensor, *, dim: int = -1) -> Tensor:  # noqa: A002
    """The cross product of the 3-vectors along ``dim`` of ``input`` and ``other`` (which
    broadcast against each other).

    >>> import minitorch
    >>> x, y = minitorch.tensor([1.0, 0.0, 0.0]), minitorch.tensor([0.0, 1.0, 0.0])
    >>> minitorch.linalg.cross(x, y)
    tensor([0., 0., 1.])
    """
    x, y = input._data, other._data
    if x.ndim != y.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if x.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = normalize_dim(dim, x.ndim)
    if x.shape[d] != 3 or y.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{x.shape[d]} and {y.shape[d]}")
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise broadcast_error(x.shape, y.shape) from None
    if x.dtype != y.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype._legacy[:-6]} but found "
                           f"{other.dtype._legacy[:-6]}")
    if x.dtype == np.bool_:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    return Cross.apply(input, other, d)


# ---------------------------------------------------------------- singular value decomposition
class Svd(Function):
    """``A = U diag(S) Vh``: ``U`` and ``Vh`` have orthonormal columns and rows, ``S`` holds
    the singular values, largest first.

    Backward is PyTorch's ``svd_backward``. With ``k = min(m, n)`` singular values and
    ``E_ij = S_j^2 - S_i^2``, the gradient of ``A`` is ``U [sym-part / E + diag(gS)] Vh``
    plus, for a tall (wide) matrix, the part of ``gU`` (``gVh``) outside the span of ``U``
    (``Vh``). Only the first ``k`` columns of ``U`` (rows of ``Vh``) count: the others of a
    ``full_matrices`` result are any basis of the rest of the space.
    """

    node_name = "LinalgSvdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, full_matrices):
        data = to_numpy(a._data)
        m, n = data.shape[-2:]
        k = min(m, n)
        dt = data.dtype
        if np.isnan(data).any():
            raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                              "matrix contained non-finite values.")
        batch = data.shape[:-2]
        if k == 0 or data.size == 0:
            u = np.broadcast_to(np.eye(m, m if full_matrices else k, dtype=dt), batch + (
                m, m if full_matrices else k)).copy()
            vh = np.broadcast_to(np.eye(n if full_matrices else k, n, dtype=dt), batch + (
                n if full_matrices else k, n)).copy()
            s = np.zeros(batch + (k,), dt)
        elif not np.isfinite(data).all():  # PyTorch: NaN for a matrix with an infinity
            u = np.full(batch + (m, m if full_matrices else k), np.nan, dt)
            vh = np.full(batch + (n if full_matrices else k, n), np.nan, dt)
            s = np.full(batch + (k,), np.nan, dt)
        else:
            u, s, vh = np.linalg.svd(data, full_matrices=full_matrices)
        xp = array_module(a._data)
        u, vh = _by_columns(u), _by_columns(vh)
        u, s, vh = (_wrap(xp.asarray(t.astype(dt, copy=False))) for t in (u, s, vh))
        ctx.save_for_backward(u, s, vh)
        ctx.full_matrices, ctx.k = full_matrices, k
        ctx.set_materialize_grads(False)  # an unused output's gradient stays None
        return u, s, vh

    @staticmethod
    def backward(ctx, g_u, g_s, g_vh):
        u, s, vh = ctx.saved_tensors
        k = ctx.k
        if ctx.full_matrices:  # only the first k singular vectors carry information
            u, vh = u.narrow(-1, 0, k), vh.narrow(-2, 0, k)  # (SliceBackward0, as PyTorch's)
            g_u = None if g_u is None else g_u.narrow(-1, 0, k)
            g_vh = None if g_vh is None else g_vh.narrow(-2, 0, k)
        return _svd_backward(g_u, g_s, g_vh, u, s, vh)


def _svd_backward(g_u, g_s, g_vh, u, s, vh):
    """PyTorch's ``svd_backward`` (real case) with tensor operations."""
    m, n = u.shape[-2], vh.shape[-1]
    if g_u is None and g_vh is None:  # only S is used (as in svdvals): U diag(gS) Vh
        if g_s is None:
            return None
        return (u @ (g_s.unsqueeze(-1) * vh)) if m >= n else ((u * g_s.unsqueeze(-2)) @ vh)
    uhgu = None if g_u is None else _skew(_mT(u) @ g_u)
    vhgv = None if g_vh is None else _skew(vh @ _mT(g_vh))
    s2 = s * s
    e = s2.unsqueeze(-2) - s2.unsqueeze(-1)
    e.diagonal(0, -2, -1).fill_(1.0)  # any non-zero: the diagonal is 0 / e (in place, as
    # PyTorch's: CopySlices)
    if g_u is not None and g_vh is not None:
        g_a = (uhgu * s.unsqueeze(-2) + s.unsqueeze(-1) * vhgv) / e
    elif g_u is not None:
        g_a = uhgu * (s.unsqueeze(-2) / e)
    else:
        g_a = s.unsqueeze(-1) * (vhgv / e)
    if g_s is not None:
        g_a = g_a + _shape_ops.diag_embed(g_s)
    if m > n and g_u is not None:
        g_a = u @ g_a
        gu_sinv = g_u / s.unsqueeze(-2)
        g_a = g_a + gu_sinv - u @ (_mT(u) @ gu_sinv)
        return g_a @ vh
    if m < n and g_vh is not None:
        g_a = g_a @ vh
        sinv_gvh = g_vh / s.unsqueeze(-1)
        g_a = g_a + sinv_gvh - (sinv_gvh @ _mT(vh)) @ vh
        return u @ g_a
    return u @ (g_a @ vh) if m >= n else (u @ g_a) @ vh


def _skew(t: Tensor) -> Tensor:
    return t - _mT(t)


def svd(A: Tensor, full_matrices: bool = True, *, driver=None):  # noqa: N803
    """The singular value decomposition ``A = U diag(S) Vh`` of a matrix (or of each matrix
    of a batch): ``torch.return_types.linalg_svd(U, S, Vh)``, singular values largest first.

    With ``full_matrices=False`` (the "reduced" SVD), ``U`` is m x k and ``Vh`` is k x n for
    ``k = min(m, n)``; with ``True``, they are square.

    Each singular vector is unique only up to its sign (a column of ``U`` and the matching row
    of ``Vh`` can flip together). minitorch's come from NumPy's LAPACK and PyTorch's from
    MKL's: they usually agree for square and tall matrices, and for wide ones they often
    differ in sign. ``S``, the product ``U diag(S) Vh`` and the gradient of anything that does
    not depend on those signs agree.

    >>> import minitorch
    >>> U, S, Vh = minitorch.linalg.svd(minitorch.tensor([[3.0, 0.0], [0.0, -2.0]]))
    >>> S
    tensor([3., 2.])
    """
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_float(A, "linalg.svd")
    _check_low_precision(A, "linalg_svd_cpu", NotImplementedError)
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    return return_types.linalg_svd(*Svd.apply(A, bool(full_matrices)))


# ---------------------------------------------------------------- log-determinant
class Slogdet(Function):
    """``(sign, log|det A|)``, which stays finite where ``det`` itself overflows. The sign is
    piecewise constant, so only ``log|det A|`` has a gradient: ``grad_A = g A^-T``."""

    node_name = "LinalgSlogdetBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        data = to_numpy(a._data)
        sign, logabsdet = np.linalg.slogdet(data)
        nan = np.isnan(data).any(axis=(-2, -1))  # PyTorch: sign 0 and a NaN logarithm
        sign, logabsdet = np.where(nan, 0, sign), np.where(nan, np.nan, logabsdet)
        return _on_device_of(sign, a), _on_device_of(logabsdet, a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, grad_sign, grad_logabsdet):
        (a,) = ctx.saved_tensors
        if grad_mode._state.enabled:  # create_graph: PyTorch's solve of A^T X = diag(g)
            return solve(_mT(a), _diagonal_of(grad_logabsdet, a))
        return grad_logabsdet.unsqueeze(-1).unsqueeze(-1) * _mT(inv(a))


def _checked_slogdet(A: Tensor, name: str) -> tuple:  # noqa: N803
    _check_square(A, name)
    _check_float(A, name)
    _check_low_precision(A, name)
    return Slogdet.apply(A)


def slogdet(A: Tensor):  # noqa: N803
    """The sign and the logarithm of the absolute value of the determinant, as
    ``torch.return_types.linalg_slogdet(sign, logabsdet)``: ``det(A) = sign *
    exp(logabsdet)``, without the overflow of ``det`` for a large matrix.

    >>> import minitorch
    >>> minitorch.linalg.slogdet(minitorch.tensor([[-2.0, 0.0], [0.0, 3.0]]))
    torch.return_types.linalg_slogdet(
    sign=tensor(-1.),
    logabsdet=tensor(1.7918))
    """
    return return_types.linalg_slogdet(*_checked_slogdet(A, "linalg.slogdet"))


# ---------------------------------------------------------------- products of several matrices
def _chain_order(dims: list) -> list:
    """PyTorch's ``matrix_chain_order``: ``split[i][j]`` is where the cheapest product of
    matrices ``i..j`` (matrix ``k`` is ``dims[k] x dims[k + 1]``) is split in two."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(tensors: list, split: list, i: int, j: int) -> Tensor:
    if i == j:
        return tensors[i]
    k = split[i][j]
    return _linalg_ops.mm(_chain_product(tensors, split, i, k),
                          _chain_product(tensors, split, k + 1, j))


def multi_dot(tensors) -> Tensor:
    """The product of two or more matrices, in the order of multiplications that costs the
    fewest scalar products (the result is the same, the rounding may differ). The first may
    be a vector (a row) and the last a vector (a column), as in ``matmul``.

    >>> import minitorch
    >>> minitorch.linalg.multi_dot([minitorch.ones(2), minitorch.ones(2, 3), minitorch.ones(3)])
    tensor(6.)
    """
    tensors = list(tensors)
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    mats, out_shape = list(tensors), []
    for pos, end, axis in (("first", 0, 0), ("last", n - 1, 1)):
        t = tensors[end]
        if t.dim() == 1:
            mats[end] = t.unsqueeze(axis)
        elif t.dim() == 2:
            out_shape.append(t.shape[axis])
        else:
            raise RuntimeError(f"multi_dot(): the {pos} tensor must be 1D or 2D but got "
                               f"{t.dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    for i in range(1, n):
        if mats[i].dtype is not mats[0].dtype:
            names = CPP_NAMES
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {names[mats[0].dtype.name]} and tensor {i} "
                               f"{names[mats[i].dtype.name]}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            shapes = [list(tensors[i - 1].shape), list(tensors[i].shape)]
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {shapes[0]} "
                               f"and {shapes[1]} cannot be multiplied")
    if n == 3:  # PyTorch compares the two orders directly
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if a * c * (b + d) > b * d * (a + c):
            product = _linalg_ops.mm(mats[0], _linalg_ops.mm(mats[1], mats[2]))
        else:
            product = _linalg_ops.mm(_linalg_ops.mm(mats[0], mats[1]), mats[2])
    else:
        dims = [mats[0].shape[0]] + [m.shape[1] for m in mats]
        product = _chain_product(mats, _chain_order(dims), 0, n - 1)
    return product.view(*out_shape)


# ---------------------------------------------------------------- matrix power
def matrix_power(A: Tensor, n: int) -> Tensor:  # noqa: N803
    """``A`` multiplied by itself ``n`` times (``n < 0``: its inverse, ``n = 0``: the
    identity), by repeated squaring, with PyTorch's sequence of products.

    >>> import minitorch
    >>> minitorch.linalg.matrix_power(minitorch.tensor([[1, 1], [0, 1]]), 5)
    tensor([[1, 5],
            [0, 1]])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"matrix_power(): argument 'n' (position 2) must be int, not "
                        f"{type(n).__name__}")
    _check_square(A, "linalg.matrix_power")
    if n == 0:  # the identity, recorded through a copy so that the graph knows A
        eye = array_module(A._data).eye(A.shape[-1], dtype=A._data.dtype)
        return A.clone().copy_(_wrap(eye))
    if n == 1:
        return A.clone()
    if n == -1:
        return inv(A)
    a = inv(A) if n < 0 else A
    n = abs(n)
    if n == 2:
        return a @ a
    if n == 3:
        return (a @ a) @ a
    z = result = None
    while n > 0:  # the bits of n, lowest first: z runs through a, a^2, a^4, ...
        bit, n = n % 2, n // 2
        z = a if z is None else z @ z
        if bit:
            result = z if result is None else result @ z
    return result


# ---------------------------------------------------------------- Cholesky factorisation
def _not_positive_definite(a: np.ndarray, name: str) -> LinAlgError:
    """PyTorch's error for the first matrix of the batch that is not positive-definite: it
    names the order of the first leading minor that is not (LAPACK's ``potrf`` reads only the
    lower triangle; a NaN fails the test too)."""
    mats = a.reshape(-1, *a.shape[-2:])
    for index, m in enumerate(mats):
        for k in range(1, m.shape[-1] + 1):
            minor = np.tril(m[:k, :k]) + np.tril(m[:k, :k], -1).T
            try:
                ok = not np.isnan(np.linalg.cholesky(minor)).any()
            except np.linalg.LinAlgError:
                ok = False
            if not ok:
                batch = f"(Batch element {index}): " if a.ndim > 2 else ""
                return LinAlgError(f"{name}: {batch}The factorization could not be completed "
                                   "because the input is not positive-definite (the leading "
                                   f"minor of order {k} is not positive-definite).")
    raise AssertionError("every matrix is positive-definite")


class Cholesky(Function):
    """``A = L L^T`` with ``L`` lower triangular (``upper``: the factor ``L^T`` instead).

    Backward is PyTorch's ``cholesky_backward`` (Murray, 2016): with ``P = tril(L^T gL)``
    and ``S = (P + tril(P, -1)^T) / 2``, ``grad_A = L^-T S L^-1``, a symmetric matrix."""

    node_name = "LinalgCholeskyExBackward0"
    _builtin = True

    @staticmethod
    def forward(a, upper, name):
        data = to_numpy(a._data)
        lower = np.tril(data) + np.swapaxes(np.tril(data, -1), -1, -2)  # as LAPACK reads it
        try:
            factor = np.linalg.cholesky(lower)
        except np.linalg.LinAlgError:
            factor = None
        if factor is None or np.isnan(factor).any():
            raise _not_positive_definite(data, name)
        factor = np.tril(factor)
        out = _on_device_of(_by_columns(np.swapaxes(factor, -1, -2) if upper else factor), a)
        return out

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.upper = inputs[1]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (factor,) = ctx.saved_tensors
        low, g = (_mT(factor), _mT(grad)) if ctx.upper else (factor, grad)
        p = (_mT(low) @ g).tril()
        s = _arith.MulScalar.apply(p + _mT(p.tril(-1)), 0.5)
        s = solve_triangular(_mT(low), s, upper=True)  # as PyTorch's, two triangular solves
        return solve_triangular(low, s, upper=False, left=False), None, None


def _cholesky(A: Tensor, upper: bool, name: str) -> Tensor:  # noqa: N803
    _check_square(A, name)
    _check_float(A, name)
    _check_low_precision(A, "cholesky_cpu", NotImplementedError)
    return Cholesky.apply(A, bool(upper), name)


def cholesky(A: Tensor, *, upper: bool = False) -> Tensor:  # noqa: N803
    """The Cholesky factor ``L`` of a symmetric positive-definite matrix, ``A = L L^T``
    (``upper=True``: ``U = L^T``, ``A = U^T U``). Only the lower triangle of ``A`` is read.

    >>> import minitorch
    >>> minitorch.linalg.cholesky(minitorch.tensor([[4.0, 2.0], [2.0, 5.0]]))
    tensor([[2., 0.],
            [1., 2.]])
    """
    return _cholesky(A, upper, "linalg.cholesky")


inv, det, cross, cholesky, solve = (with_out(f, name) for f, name in (
    (inv, "linalg_inv_ex"), (det, "_linalg_det"), (cross, "linalg_cross"),
    (cholesky, "linalg_cholesky_ex"), (solve, "_linalg_solve_ex")))
multi_dot = with_out(multi_dot, "linalg_multi_dot", writer="mm")  # out= goes to mm
__all__ += ["slogdet", "multi_dot", "matrix_power", "cholesky"]


# ---------------------------------------------------------------- symmetric eigendecomposition
class Eigh(Function):
    """``A = V diag(L) V^T`` for a symmetric ``A`` (read from one triangle): eigenvalues in
    ascending order, orthonormal eigenvectors as the columns of ``V``.

    Backward is PyTorch's ``linalg_eig_backward`` for a Hermitian matrix: with ``K`` the
    skew-symmetric part of ``V^T gV`` divided by ``E_ij = L_j - L_i`` off the diagonal and
    ``gL`` on it, ``grad_A = V K V^T`` (symmetric; infinite where eigenvalues repeat)."""

    node_name = "LinalgEighBackward0"
    _builtin = True

    @staticmethod
    def forward(a, uplo):
        data = to_numpy(a._data)
        if not np.isfinite(data).all():  # LAPACK's answer is undefined: NaN
            values, vectors = np.full(data.shape[:-1], np.nan), np.full(data.shape, np.nan)
        else:
            values, vectors = np.linalg.eigh(data, UPLO=uplo)
        return _on_device_of(values, a), _on_device_of(_by_columns(vectors), a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*output)
        ctx.set_materialize_grads(False)  # an unused output's gradient stays None

    @staticmethod
    def backward(ctx, g_values, g_vectors):
        values, vectors = ctx.saved_tensors
        if g_vectors is None:  # only the eigenvalues are used: V diag(gL) V^T
            return (vectors * g_values.unsqueeze(-2)) @ _mT(vectors), None
        # PyTorch's linalg_eig_backward (hermitian), as it records: in-place on the diagonals
        vhgv = _mT(vectors) @ g_vectors
        skew = _arith.MulScalar.apply(vhgv - _mT(vhgv), 0.5)
        gaps = values.unsqueeze(-2) - values.unsqueeze(-1)  # E_ij = L_j - L_i
        gaps.diagonal(0, -2, -1).fill_(1.0)
        inner = skew / gaps
        if g_values is not None:  # the diagonal: the eigenvalues' gradient
            inner.diagonal(0, -2, -1).copy_(g_values)
        return vectors @ (inner @ _mT(vectors)), None


def _eigh(A: Tensor, UPLO: str, name: str) -> tuple:  # noqa: N803
    _check_square(A, name)
    if A._data.dtype.kind != "f" or A._data.dtype == np.float16:
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for "
                                  f"'{A.dtype._legacy[:-6]}'")
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return Eigh.apply(A, UPLO)


def eigh(A: Tensor, UPLO: str = "L"):  # noqa: N803
    """The eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix, read
    from its lower (``UPLO="L"``) or upper triangle: ``torch.return_types.linalg_eigh(
    eigenvalues, eigenvectors)``. Each eigenvector is unique only up to its sign.

    >>> import minitorch
    >>> minitorch.linalg.eigh(minitorch.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
    tensor([1., 2.])
    """
    return return_types.linalg_eigh(*_eigh(A, UPLO, "linalg.eigh"))


def eigvalsh(A: Tensor, UPLO: str = "L") -> Tensor:  # noqa: N803
    """The eigenvalues of a symmetric matrix, in ascending order (``linalg.eigh``'s first
    result)."""
    return _eigh(A, UPLO, "linalg.eigh")[0]


__all__ += ["eigh", "eigvalsh"]


# ---------------------------------------------------------------- QR decomposition
class Qr(Function):
    """``A = Q R``: ``Q`` with orthonormal columns, ``R`` upper triangular (LAPACK's
    Householder ``geqrf``, as PyTorch's; a column of ``Q`` and the row of ``R`` can differ
    in sign between the two libraries only where LAPACK's do).

    Backward, for ``m >= n``: with ``M = R gR^T - gQ^T Q``, ``grad_A = (gQ + Q
    copyltu(M)) R^-T``, ``copyltu`` making ``M`` symmetric from its lower triangle. For
    ``m < n``, ``A = [X | Y]`` and ``R = [U | V]``: ``Y = Q V`` gives ``grad_Y = Q gV``
    and adds ``Y gV^T`` to ``gQ``, and ``X = Q U`` is the square case."""

    node_name = "LinalgQrBackward0"
    _builtin = True

    @staticmethod
    def forward(a, mode):
        data = to_numpy(a._data)
        if mode == "r":
            r = np.linalg.qr(data, mode="r")
            return (_on_device_of(np.zeros((0,), data.dtype), a),
                    _on_device_of(_by_columns(r), a))
        q, r = np.linalg.qr(data, mode=mode)
        return _on_device_of(_by_columns(q), a), _on_device_of(_by_columns(r), a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mode = inputs[1]
        ctx.save_for_backward(*output)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_q, g_r):
        q, r = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                               "when mode='r'. Please use linalg.qr(A, mode='reduced') if you "
                               "are going to differentiate through linalg.qr.")
        m, n = q.shape[-2], r.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when mode='complete' "
                               "and nrows > ncols.")
        if m >= n:
            return _qr_backward_tall(g_q, g_r, q, r), None
        if grad_mode._state.enabled:  # create_graph: PyTorch's linalg_qr_backward, recorded
            return _qr_backward_recorded(g_q, g_r, q, r), None
        if g_r is None:  # R's gradient is zero: V = Q^T Y still passes gQ on to Y
            g_r = _wrap(array_module(r._data).zeros(r.shape, r._data.dtype))
        u, g_u, g_v = r[..., :m], g_r[..., :m], g_r[..., m:]
        y = q @ r[..., m:]
        g_q = y @ _mT(g_v) if g_q is None else g_q + y @ _mT(g_v)
        return _shape_ops.cat([_qr_backward_tall(g_q, g_u, q, u), q @ g_v], -1), None


def _qr_backward_tall(g_q, g_r, q, r):
    """``(gQ + Q copyltu(M)) R^-T`` with ``M = R gR^T - gQ^T Q`` (``m >= n``)."""
    if grad_mode._state.enabled:  # create_graph: PyTorch's linalg_qr_backward, recorded
        return _qr_backward_recorded(g_q, g_r, q, r)
    if g_r is None:
        m_ = -(_mT(g_q) @ q)
    else:
        m_ = r @ _mT(g_r) if g_q is None else r @ _mT(g_r) - _mT(g_q) @ q
    sym = m_.tril() + _mT(m_.tril(-1))
    b = q @ sym if g_q is None else g_q + q @ sym
    return _mT(solve(r, _mT(b)))


def _qr_backward_recorded(g_q, g_r, q, r):
    """PyTorch's linalg_qr_backward, as it records: with ``G = gR R^T - Q^T gQ``, for
    ``m >= n`` ``S = triu(G) + triu(G)^T`` with its diagonal halved in place and ``grad_A =
    (Q S + gQ) R^-T``; for ``m < n`` (``R = [U | V]``) ``grad_A = [Q tril(G^T - G) U^-T | 0]
    + Q gR``, each ``R^-T`` a triangular solve."""
    if g_q is None:
        g = g_r @ _mT(r)
    else:
        g = -(_mT(q) @ g_q) if g_r is None else g_r @ _mT(r) - _mT(q) @ g_q
    m, n = q.shape[-2], r.shape[-1]
    if m < n:
        g = -g
        g = q @ (g - _mT(g)).tril()
        g = solve_triangular(_mT(r.narrow(-1, 0, m)), g, upper=False, left=False)
        zeros = _wrap(array_module(g._data).zeros(g.shape[:-1] + (n - m,), g._data.dtype))
        g = _shape_ops.cat([g, zeros], -1)
        return g if g_r is None else g + q @ g_r
    g = g.triu()
    sym = g + _mT(g)
    sym.diagonal(0, -2, -1)._inplace(_arith.MulScalar.apply, 0.5)  # (C++'s mul_.Scalar)
    g = q @ sym
    if g_q is not None:
        g = g + g_q
    return solve_triangular(_mT(r), g, upper=False, left=False)


_QR_MODES = ("reduced", "complete", "r")


def qr(A: Tensor, mode: str = "reduced"):  # noqa: N803
    """The QR decomposition ``A = Q R`` of a matrix (of each matrix of a batch):
    ``torch.return_types.linalg_qr(Q, R)``. ``mode="reduced"``: ``Q`` is m x k and ``R`` k x n
    for ``k = min(m, n)``; ``"complete"``: ``Q`` is m x m; ``"r"``: ``R`` alone (``Q`` is
    empty, and nothing can be differentiated).

    >>> import minitorch
    >>> minitorch.linalg.qr(minitorch.tensor([[3.0, 0.0], [4.0, 5.0]])).R.abs()
    tensor([[5., 4.],
            [0., 3.]])
    """
    if A.dim() < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    if mode not in _QR_MODES:
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    _check_float(A, "linalg.qr")
    _check_low_precision(A, "geqrf_cpu", NotImplementedError)
    return return_types.linalg_qr(*Qr.apply(A, mode))


__all__ += ["qr"]


# ---------------------------------------------------------------- pseudo-inverse and rank
def _tolerance(a: np.ndarray, s_max: np.ndarray, atol, rtol) -> np.ndarray:
    """PyTorch's cut-off for singular values: ``max(atol, rtol * s_max)``; without either,
    ``rtol`` is ``eps * max(m, n)``, and with ``atol > 0`` alone, 0."""
    def value(t):
        return np.asarray(to_numpy(t._data) if isinstance(t, Tensor) else t, np.float64)
    default = np.finfo(a.dtype).eps * max(a.shape[-2:])
    if rtol is None:
        rtol = default if atol is None else np.where(value(atol) > 0, 0.0, default)
    atol = 0.0 if atol is None else atol
    return np.maximum(value(atol)[..., None], value(rtol)[..., None] * s_max)


def _pinv_array(a: np.ndarray, atol, rtol, hermitian: bool) -> np.ndarray:
    """``V diag(1/S) U^T`` over the singular values above the tolerance (for a symmetric
    matrix from its eigenvalues, ``U diag(1/L) U^T``)."""
    if a.size == 0:
        return np.zeros(a.shape[:-2] + (a.shape[-1], a.shape[-2]), a.dtype)
    if hermitian:
        values, u = np.linalg.eigh(a)
        kept = np.abs(values) > _tolerance(a, np.abs(values).max(-1, keepdims=True), atol, rtol)
        with np.errstate(divide="ignore"):
            inverse = np.where(kept, 1 / values, 0).astype(a.dtype)
        return (u * inverse[..., None, :]) @ np.swapaxes(u, -1, -2)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    kept = s > _tolerance(a, s[..., :1], atol, rtol)
    with np.errstate(divide="ignore"):
        inverse = np.where(kept, 1 / s, 0).astype(a.dtype)
    return (np.swapaxes(vh, -1, -2) * inverse[..., None, :]) @ np.swapaxes(u, -1, -2)


class Pinv(Function):
    """The Moore-Penrose pseudo-inverse ``A+``. Backward is PyTorch's ``pinv_backward``: the
    derivative of ``A+`` where its rank does not change, arranged so that the products are
    of the smaller of ``m`` and ``n``."""

    node_name = "LinalgPinvBackward0"
    _builtin = True

    @staticmethod
    def forward(a, atol, rtol, hermitian):
        return _on_device_of(_pinv_array(to_numpy(a._data), atol, rtol, hermitian), a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0], output)

    @staticmethod
    def backward(ctx, grad):
        a, p = ctx.saved_tensors
        return _pinv_backward(grad, a, p), None, None, None


def _pinv_backward(grad: Tensor, a: Tensor, p: Tensor) -> Tensor:
    """PyTorch's ``pinv_backward``: the gradient of ``A`` from that of ``p = A+``."""
    p_t, g_t = _mT(p), _mT(grad)
    if a.shape[-2] <= a.shape[-1]:
        k = g_t @ p
        k_p_t = k @ p_t
        return -_mT(p @ k) + k_p_t - (a @ p) @ k_p_t + (p_t @ p) @ (g_t - k @ a)
    k = p @ g_t
    p_t_k = p_t @ k
    return -_mT(k @ p) + (g_t - a @ k) @ p @ p_t + p_t_k - p_t_k @ p @ a


def pinv(A: Tensor, rcond=None, hermitian: bool = False, *, atol=None, rtol=None) -> Tensor:  # noqa: N803
    """The pseudo-inverse of a matrix (of each of a batch), from its SVD (``hermitian``: from
    its eigenvalues, for a symmetric ``A``): singular values up to ``max(atol, rtol *
    largest)`` count as zero. ``rcond`` is PyTorch's older name for ``rtol``.

    >>> import minitorch
    >>> minitorch.linalg.pinv(minitorch.tensor([[1.0, 0.0], [0.0, 0.0]]))
    tensor([[1., 0.],
            [0., 0.]])
    """
    if A.dim() < 2 or A._data.dtype not in (np.float32, np.float64):
        shape = ", ".join(map(str, A.shape))
        raise RuntimeError(f"linalg.pinv({A.dtype._legacy[:-6]}{{[{shape}]}}): expected a tensor "
                           "with 2 or more dimensions of float, double, cfloat or cdouble types")
    if rcond is not None:
        atol, rtol = 0.0, rcond
    return Pinv.apply(A, atol, rtol, bool(hermitian))


def matrix_rank(A: Tensor, tol=None, hermitian: bool = False, *, atol=None,  # noqa: N803
                rtol=None) -> Tensor:
    """The number of singular values of ``A`` (of each matrix of a batch) above ``max(atol,
    rtol * largest)``, an int64 tensor; ``tol`` is PyTorch's older name for ``atol``.

    >>> import minitorch
    >>> minitorch.linalg.matrix_rank(minitorch.ones(3, 3))
    tensor(1)
    """
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least "
                           "2 dimensions.")
    if A._data.dtype not in (np.float32, np.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    data = to_numpy(A._data)
    if data.size == 0:
        return _wrap(array_module(A._data).zeros(data.shape[:-2], np.int64))
    s = np.abs(np.linalg.eigvalsh(data)) if hermitian else np.linalg.svd(data, compute_uv=False)
    rank = (s > _tolerance(data, s.max(-1, keepdims=True), atol, rtol)).sum(-1)
    return _wrap(array_module(A._data).asarray(rank.astype(np.int64)))


pinv = with_out(pinv, "linalg_pinv")
__all__ += ["pinv", "matrix_rank"]


# ---------------------------------------------------------------- task linalg2
# vecdot, vander, diagonal, cond, tensorinv, tensorsolve: built from other operations as
# PyTorch builds them (so their graphs have PyTorch's nodes)
def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot products of the vectors along ``dim`` (``x`` and ``y`` broadcast): ``(x *
    y).sum(dim)``; two 1-D tensors give ``vdot``.

    >>> import minitorch
    >>> minitorch.linalg.vecdot(minitorch.tensor([[1.0, 2.0]]), minitorch.tensor([3.0, 4.0]))
    tensor([11.])
    """
    _check_float(x, "linalg.vecdot")
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x "
                           f"of type {x.dtype._legacy[:-6]} and y of type {y.dtype._legacy[:-6]} "
                           "instead")
    if x.dim() == 1 and y.dim() == 1:
        return _linalg_ops.vdot(x, y)
    return (x * y).sum(dim)


def vander(x: Tensor, *, N: int | None = None) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of ``x`` (of each vector of a batch) with increasing powers:
    ``out[..., i, j] = x[..., i] ** j`` for ``j < N`` (``N`` defaults to ``len(x)``): a column
    of ones, then the running products of ``x`` (``cumprod``), as PyTorch computes them.

    >>> import minitorch
    >>> minitorch.linalg.vander(minitorch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [1, 2, 4],
            [1, 3, 9]])
    """
    from minitorch.ops.shape import cat

    if x.dtype is _dtype.bool or x.dtype is _dtype.float16:
        raise RuntimeError("linalg.vander supports floating point, complex, and integer tensors, "
                           f"but got {x.dtype._legacy[:-6]}")
    n = N if N is not None else (x.shape[-1] if x.dim() else 0)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape = tuple(x.shape) + (n - 1,)
    powers = x.unsqueeze(-1).expand(*shape).cumprod(-1)
    return cat([powers.new_ones(shape[:-1] + (1,)), powers], -1)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: N803
    """``torch.diagonal`` with the last two dimensions as the default: the diagonal of each
    matrix of a batch (a view)."""
    return _shape_ops.diagonal(A, offset, dim1, dim2)


_COND_ORDS = (1, -1, 2, -2, math.inf, -math.inf, "fro", "nuc")


def _ord_name(p) -> str:
    return str(int(p)) if isinstance(p, (int, float)) and math.isfinite(p) else \
        ("inf" if p == math.inf else "-inf") if isinstance(p, float) else str(p)


def cond(A: Tensor, p=None) -> Tensor:  # noqa: N803
    """The condition number of ``A`` (of each matrix of a batch) in the norm ``p``: for
    ``None``/``2``/``-2`` the ratio of its largest and smallest singular values (any shape),
    else ``norm(A) * norm(A^-1)`` for a square ``A`` (``inf`` for a singular one).

    >>> import minitorch
    >>> minitorch.linalg.cond(minitorch.tensor([[1.0, 0.0], [0.0, 4.0]]))
    tensor(4.)
    """
    if A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    p = 2 if p is None else p
    if p not in _COND_ORDS or isinstance(p, bool):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if isinstance(p, str):
        _check_square(A, f"linalg.cond(ord={p})")
    if A.numel() == 0:
        return A.new_zeros(A.shape[:-2])
    if p in (2, -2) and not isinstance(p, str):
        s = svdvals(A)
        s_max, s_min = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (s_min / s_max if p == -2 else s_max / s_min).squeeze(-1)
    if not isinstance(p, str):
        _check_square(A, f"linalg.cond(ord={_ord_name(p)})")
    if p == "nuc":  # the nuclear norm of A^-1 is the sum of 1 / (A's singular values)
        s = svdvals(A)
        inverse_norm = s.reciprocal().sum(-1)  # (first: PyTorch's C++ evaluates it first,
        return s.sum(-1) * inverse_norm  # which orders its gradient's graph)
    inverse, info = inv_ex(A)
    inverse.masked_fill_((info > 0).unsqueeze(-1).unsqueeze(-1), math.inf)  # in place, as
    result = matrix_norm(A, p) * matrix_norm(inverse, p)  # PyTorch: its backward then fails
    return result.nan_to_num_(math.inf, math.inf, -math.inf)


def tensorinv(A: Tensor, ind: int = 2) -> Tensor:  # noqa: N803
    """The inverse of ``A`` read as a square matrix of ``prod(shape[:ind])`` rows: shaped
    ``shape[ind:] + shape[:ind]``, so that ``tensordot(tensorinv(A), A, ind)`` is the
    identity."""
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    end, start = tuple(A.shape[ind:]), tuple(A.shape[:ind])
    n, m = math.prod(end), math.prod(start)
    if n != m:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {n} != {m}")
    inverse, info = inv_ex(A.reshape(n, n))
    _raise_info(info, "inv: {batch}The diagonal element {info} is zero, the inversion could not "
                "be completed because the input matrix is singular.", False)
    # PyTorch's inverse is in column-major order: its reshape is recorded as ReshapeAlias
    return _shape_ops.ReshapeAlias.apply(inverse, end + start)


def tensorsolve(A: Tensor, B: Tensor, dims=None) -> Tensor:  # noqa: N803
    """The ``X`` with ``tensordot(A, X, X.ndim) == B``: ``A`` read as a square matrix (its
    first ``B.ndim`` dimensions as rows; ``dims`` moved to the end first)."""
    if dims is not None:
        A = A.movedim(tuple(dims), tuple(range(A.dim() - len(dims), A.dim())))  # noqa: N806
    result_shape = tuple(A.shape[B.dim():])
    n, m = math.prod(result_shape), B.numel()
    if n != m:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:])"
                           f" == prod(self.shape[:other.ndim]), but got {n} != {m}")
    return solve(A.reshape(n, n), B.flatten()).reshape(result_shape)


__all__ += ["vecdot", "vander", "diagonal", "cond", "tensorinv", "tensorsolve"]


# ---------------------------------------------------------------- matrix_exp
def _expm_array(a: np.ndarray) -> np.ndarray:
    """``exp(A)`` by scaling and squaring: a degree-18 Taylor polynomial of ``A / 2^s`` (in
    float64, ``s`` from the 1-norm), squared ``s`` times."""
    x = a.astype(np.float64)
    if x.size == 0:
        return a.copy()
    norm = np.abs(x).sum(-2).max(-1) if x.ndim > 1 else np.abs(x)
    with np.errstate(all="ignore"):
        s = np.where(np.isfinite(norm) & (norm > 0.5), np.ceil(np.log2(np.maximum(norm, 1))) + 1,
                     0).astype(np.int64)
        s = np.minimum(s, 1100)
        scaled = x / np.exp2(s)[..., None, None]
        eye = np.broadcast_to(np.eye(x.shape[-1]), x.shape)
        out, term = eye.copy(), eye.copy()
        for k in range(1, 19):
            term = term @ scaled / k
            out = out + term
        for _ in range(int(s.max()) if s.size else 0):
            squared = out @ out
            out = np.where((s > 0)[..., None, None], squared, out)
            s = s - 1
    return out.astype(a.dtype)


class MatrixExp(Function):
    """``exp(A) = sum_k A^k / k!``. Backward is PyTorch's: the gradient is the top-right block
    of ``exp([[A^T, G], [0, A^T]])``, itself a ``matrix_exp`` (so it differentiates again)."""

    node_name = "LinalgMatrixExpBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _on_device_of(_expm_array(to_numpy(a._data)), a)

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's differential_analytic_matrix_function: exp([[A^T, G], [0, A^T]])'s
        # upper right block, the three blocks copied into zeros in place (CopySlices)
        (a,) = ctx.saved_tensors
        n = a.shape[-1]
        at = _mT(a)
        big = _wrap(array_module(grad._data).zeros(a.shape[:-2] + (2 * n, 2 * n),
                                                   grad._data.dtype))
        big.narrow(-2, 0, n).narrow(-1, 0, n).copy_(at)
        big.narrow(-2, n, n).narrow(-1, n, n).copy_(at)
        big.narrow(-2, 0, n).narrow(-1, n, n).copy_(grad)
        return matrix_exp(big).narrow(-2, 0, n).narrow(-1, n, n)


def matrix_exp(A: Tensor) -> Tensor:  # noqa: N803
    """The matrix exponential ``sum_k A^k / k!`` of a square matrix (of each of a batch).

    >>> import minitorch
    >>> minitorch.linalg.matrix_exp(minitorch.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    _check_square(A, "linalg.matrix_exp")
    _check_float(A, "linalg.matrix_exp")
    return MatrixExp.apply(A)


__all__ += ["matrix_exp"]


# ---------------------------------------------------------------- triangular systems
def _trsm(a: np.ndarray, b: np.ndarray, upper: bool, unit: bool) -> np.ndarray:
    """``A^-1 B`` for triangular ``A`` (batches broadcast), by substitution as BLAS's
    ``trsm`` does it: row by row, times the reciprocal of the diagonal (so a zero on the
    diagonal gives PyTorch's infs and NaNs)."""
    n = a.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), dtype=np.result_type(a, b))
    a = np.broadcast_to(a, shape + a.shape[-2:])
    with np.errstate(all="ignore"):
        recip = 1 / np.diagonal(a, 0, -2, -1)
        for k in (range(n - 1, -1, -1) if upper else range(n)):
            if not unit:
                x[..., k, :] = x[..., k, :] * recip[..., k, None]
            rows = slice(0, k) if upper else slice(k + 1, n)
            x[..., rows, :] -= a[..., rows, k, None] * x[..., k, None, :]
    return x


class SolveTriangular(Function):
    """``X = A^-1 B`` for a triangular ``A`` (``left=False``: ``X = B A^-1``), reading one
    triangle of ``A`` (its diagonal taken as ones with ``unitriangular``).

    Backward is PyTorch's: ``grad_B = A^-T G`` (another triangular solve, of the other
    triangle) and ``grad_A = -grad_B X^T`` (``-X^T grad_B`` for ``left=False``) kept to
    ``A``'s triangle."""

    node_name = "LinalgSolveTriangularBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, b, upper, left, unit):
        ctx.shapes, ctx.flags, ctx.b_dtype = (a.shape, b.shape), (upper, left, unit), b.dtype
        x, y = to_numpy(a._data), to_numpy(b._data).astype(a._data.dtype, copy=False)
        if left:
            out = _trsm(x, y, upper, unit)
        else:  # X A = B: A^T X^T = B^T
            out = np.swapaxes(_trsm(np.swapaxes(x, -1, -2), np.swapaxes(y, -1, -2), not upper,
                                    unit), -1, -2)
        result = _on_device_of(_by_columns(out), a)  # by columns (left or not), as PyTorch's
        ctx.save_for_backward(a, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        upper, left, unit = ctx.flags
        g_b = solve_triangular(_mT(a), grad, upper=not upper, left=left, unitriangular=unit)
        g_a = None
        if ctx.needs_input_grad[0]:
            g_a = -(g_b @ _mT(x)) if left else -(_mT(x) @ g_b)
            g_a = (g_a.triu(int(unit)) if upper else g_a.tril(-int(unit))).sum_to_size(
                ctx.shapes[0])
        g_b = g_b.sum_to_size(ctx.shapes[1])
        if g_b.dtype != ctx.b_dtype:  # B was converted to A's dtype inside the node
            g_b = g_b.to(ctx.b_dtype)
        return g_a, g_b, None, None, None


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool = None, left: bool = True,  # noqa: N803
                     unitriangular: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``) for a triangular
    ``A``: only its upper (``upper=True``) or lower triangle is read. Batches broadcast.

    >>> import minitorch
    >>> A = minitorch.tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> minitorch.linalg.solve_triangular(A, minitorch.tensor([[4.0], [8.0]]), upper=True)
    tensor([[1.],
            [2.]])
    """
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: '
                        '"upper"')
    for name, t in (("A", A), ("B", B)):
        if t.dim() < 2:
            raise RuntimeError(f"linalg.solve_triangular: The input tensor {name} must have at "
                               "least 2 dimensions.")
    _check_square(A, "linalg.solve_triangular")
    n = A.shape[-1]
    rows = B.shape[-2] if left else B.shape[-1]
    if rows != n:
        shape = f"{n}x{n} and {B.shape[-2]}x{B.shape[-1]}"
        raise RuntimeError("linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {'AX = B' if left else 'XA = B'} ({shape})")
    try:
        np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    except ValueError:
        raise broadcast_error(B.shape[:-2], A.shape[:-2]) from None
    dtype = A.dtype  # B is computed in A's dtype
    if not dtype.is_floating_point or dtype is _dtype.float16:
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for "
                                  f"'{dtype._legacy[:-6]}'")
    # B is converted inside the node (its gradient comes back in B's dtype)
    return SolveTriangular.apply(A, B, bool(upper), bool(left), bool(unitriangular))


__all__ += ["solve_triangular"]


# ---------------------------------------------------------------- LU, and the *_ex forms
def _lu_array(a: np.ndarray) -> tuple:
    """LAPACK's ``getrf`` for a batch: Doolittle's elimination with partial pivoting, ``P A =
    L U``. Returns the packed ``LU`` (``L`` below the diagonal, its ones left out), the
    1-based int32 pivots (row ``i`` was swapped with row ``pivots[i]``) and ``info`` (the
    1-based position of the first zero pivot, 0 if none; the elimination goes on past it,
    as LAPACK's does)."""
    lu = np.array(a, dtype=a.dtype, copy=True)
    m, n = lu.shape[-2:]
    k_max = min(m, n)
    batch = lu.shape[:-2]
    pivots = np.zeros(batch + (k_max,), np.int32)
    info = np.zeros(batch, np.int32)
    if lu.size == 0:
        pivots[...] = np.arange(1, k_max + 1)
        return lu, pivots, info
    flat, piv, inf = lu.reshape(-1, m, n), pivots.reshape(-1, k_max), info.reshape(-1)
    rows = np.arange(flat.shape[0])
    with np.errstate(all="ignore"):
        for k in range(k_max):
            col = np.abs(flat[:, k:, k])
            p = k + (np.argmax(np.where(np.isnan(col), np.inf, col), axis=1) if m > k else 0)
            piv[:, k] = p + 1
            swap = flat[rows, p].copy()
            flat[rows, p] = flat[:, k]
            flat[:, k] = swap
            pivot = flat[:, k, k]
            zero = pivot == 0
            inf[(inf == 0) & zero] = k + 1
            factor = np.where(zero[:, None], flat[:, k + 1:, k], flat[:, k + 1:, k] /
                              np.where(zero, 1, pivot)[:, None])
            flat[:, k + 1:, k] = factor
            flat[:, k + 1:, k + 1:] -= factor[:, :, None] * flat[:, k, None, k + 1:]
    return lu, pivots, info


def _lu_solve_array(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray,
                    adjoint: bool = False) -> np.ndarray:
    """``A^-1 B`` (``A^-T B`` with ``adjoint``) from ``A``'s ``getrf`` factors, as LAPACK's
    ``getrs``: the row swaps, then the unit lower and the upper triangular solves (for
    ``A^T = U^T L^T P^T``: ``U^T``, ``L^T``, then the swaps undone, last first)."""
    shape = np.broadcast_shapes(lu.shape[:-2], b.shape[:-2])
    x = np.array(np.broadcast_to(b, shape + b.shape[-2:]), dtype=np.result_type(lu, b))
    piv = np.broadcast_to(pivots, shape + pivots.shape[-1:]) - 1
    if not adjoint:
        _swap_rows(x, piv, range(piv.shape[-1]))
        x = _trsm(lu, x, upper=False, unit=True)
        return _trsm(lu, x, upper=True, unit=False)
    lu_t = np.swapaxes(lu, -1, -2)
    x = _trsm(lu_t, _trsm(lu_t, x, upper=False, unit=False), upper=True, unit=True)
    _swap_rows(x, piv, range(piv.shape[-1] - 1, -1, -1))
    return x


def _swap_rows(x: np.ndarray, piv: np.ndarray, order) -> None:
    """Swap row ``k`` of each matrix of ``x`` with row ``piv[..., k]`` (0-based), in place,
    for ``k`` in ``order``."""
    flat, fp = x.reshape(-1, *x.shape[-2:]), piv.reshape(-1, piv.shape[-1])
    rows = np.arange(flat.shape[0])
    for k in order:
        swap = flat[rows, fp[:, k]].copy()
        flat[rows, fp[:, k]] = flat[:, k]
        flat[:, k] = swap


def _info_tensor(info: np.ndarray, a: Tensor) -> Tensor:
    return _wrap(array_module(a._data).asarray(info.astype(np.int32)))


class InvEx(Inv):
    """``inv`` that does not raise: a singular matrix's inverse is what LAPACK's LU solve
    gives (infs and NaNs), as PyTorch's ``inv_ex``."""

    node_name = "LinalgInvExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        data = to_numpy(a._data)
        lu, pivots, info = _lu_array(data)
        if info.any():
            out = _lu_solve_array(lu, pivots, np.broadcast_to(np.eye(data.shape[-1], dtype=
                                                                     data.dtype), data.shape))
        else:
            out = np.linalg.inv(data)
        out = _on_device_of(_by_columns(_nan_where_nan(data, out)), a)  # as inv's
        ctx.save_for_backward(out)
        return out


def _raise_info(info: np.ndarray, message: str, batched: bool) -> None:
    """PyTorch's ``_linalg_check_errors``: the error of the first failed matrix (``info`` an
    array, or an info tensor on any device)."""
    flat = (to_numpy(info._data) if isinstance(info, Tensor) else info).reshape(-1)
    bad = np.flatnonzero(flat)
    if bad.size:
        i = int(bad[0])
        batch = f"(Batch element {i}): " if batched else ""
        raise LinAlgError(message.format(batch=batch, info=int(flat[i])))


def inv_ex(A: Tensor, *, check_errors: bool = False):  # noqa: N803
    """``linalg.inv`` with an ``info`` tensor (int32, per matrix: 0, or the position of a
    zero pivot of its LU factorization) instead of an error: ``torch.return_types.
    linalg_inv_ex(inverse, info)``. A singular matrix's ``inverse`` holds LAPACK's infs
    and NaNs. ``check_errors=True`` raises as ``inv`` does."""
    _check_square(A, "linalg.inv")  # PyTorch's messages name inv, not inv_ex
    _check_float(A, "linalg.inv")
    _check_low_precision(A, "linalg.inv")
    info = _lu_array(to_numpy(A._data))[2]
    if check_errors:
        _raise_info(info, "linalg.inv_ex: {batch}The diagonal element {info} is zero, the "
                    "inversion could not be completed because the input matrix is singular.",
                    A.dim() > 2)
    return return_types.linalg_inv_ex(InvEx.apply(A), _info_tensor(info, A))


class SolveEx(Solve):
    """``solve`` that does not raise: for a singular matrix, LAPACK's LU solve (infs, NaNs)."""

    node_name = "LinalgSolveExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, b, vector, left=True):
        data, rhs = to_numpy(a._data), to_numpy(b._data)
        rhs = rhs[..., None] if vector else rhs
        if not left:
            data, rhs = _swapped(data), _swapped(rhs)
        lu, pivots, info = _lu_array(data)
        x = _lu_solve_array(lu, pivots, rhs) if info.any() else np.linalg.solve(
            np.broadcast_to(data, np.broadcast_shapes(data.shape[:-2], rhs.shape[:-2]) +
                            data.shape[-2:]), rhs)
        x = _nan_where_nan(data, x)
        x = x if left else _swapped(x)
        out = _on_device_of(_solve_layout(x[..., 0] if vector else x, left), a)
        ctx.vector, ctx.left = vector, left
        ctx.save_for_backward(a, out)
        return out


def solve_ex(A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False):  # noqa: N803
    """``linalg.solve`` with an ``info`` tensor instead of an error for a singular ``A``:
    ``torch.return_types.linalg_solve_ex(result, info)``."""
    _check_square(A, "linalg.solve")  # PyTorch's messages name solve, not solve_ex
    _check_float(A, "linalg.solve")
    vector = _solve_checks(A, B, "linalg.solve", left)
    info = _lu_array(to_numpy(A._data))[2]
    if check_errors:
        _raise_info(info, "torch.linalg.solve_ex: {batch}The solver failed because the input "
                    "matrix is singular.", A.dim() > 2)
    return return_types.linalg_solve_ex(SolveEx.apply(A, B, vector, left),
                                        _info_tensor(info, A))


def _solve_checks(A: Tensor, B: Tensor, name: str, left: bool = True) -> bool:  # noqa: N803
    """``solve``'s checks (under ``name``); whether ``B`` is a vector (PyTorch decides before
    it reads ``left``, and refuses a vector for ``left=False``)."""
    if A.dtype is not B.dtype:
        raise RuntimeError(f"{name}: Expected A and B to have the same dtype, but found A of "
                           f"type {A.dtype._legacy[:-6]} and B of type {B.dtype._legacy[:-6]} "
                           "instead")
    _check_low_precision(A, "lu_cpu", NotImplementedError)
    n = A.shape[-1]
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows, cols = (B.shape[-1], 1) if vector else tuple(B.shape[-2:])
    if (rows if left else cols) != n:
        raise RuntimeError(f"{name}: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    if vector and not left:
        raise RuntimeError(f"{name}: Vector broadcasting of the left hand side is not supported "
                           "for left=False. In this case linalg.solve is equivalent to B / "
                           "A.squeeze(-1)")
    return vector


def _cholesky_info(a: np.ndarray) -> tuple:
    """LAPACK's ``potf2`` on the lower triangle, for a batch: the factor and ``info`` (the
    order of the first leading minor that is not positive-definite, 0 if none). Where it
    fails at column ``j``, the columns before are done, ``L[j, j]`` holds the non-positive
    value and the rest is the input's lower triangle, as LAPACK leaves it."""
    if a.size == 0:
        return a.copy(), np.zeros(a.shape[:-2], np.int32)
    lower = np.tril(a) + np.swapaxes(np.tril(a, -1), -1, -2)
    flat = np.tril(lower).reshape(-1, *a.shape[-2:]).copy()
    info = np.zeros(flat.shape[0], np.int32)
    for i, m in enumerate(lower.reshape(-1, *a.shape[-2:])):
        try:
            factor = np.linalg.cholesky(m)
            if not np.isnan(factor).any():
                flat[i] = factor
                continue
        except np.linalg.LinAlgError:
            pass
        out = np.tril(m).copy()
        for j in range(m.shape[0]):
            ajj = out[j, j] - out[j, :j] @ out[j, :j]
            if not ajj > 0:
                out[j, j] = ajj
                info[i] = j + 1
                break
            out[j, j] = np.sqrt(ajj)
            out[j + 1:, j] = (out[j + 1:, j] - out[j + 1:, :j] @ out[j, :j]) / out[j, j]
        flat[i] = out
    return flat.reshape(a.shape), info.reshape(a.shape[:-2])


class CholeskyEx(Cholesky):
    """``cholesky`` that does not raise: where the matrix is not positive-definite, the
    partial factor LAPACK leaves (see ``_cholesky_info``)."""

    node_name = "LinalgCholeskyExBackward0"
    _builtin = True

    @staticmethod
    def forward(a, upper, name):
        factor = _cholesky_info(to_numpy(a._data))[0]
        return _on_device_of(_by_columns(np.swapaxes(factor, -1, -2) if upper else factor), a)


def cholesky_ex(A: Tensor, *, upper: bool = False, check_errors: bool = False):  # noqa: N803
    """``linalg.cholesky`` with an ``info`` tensor instead of an error: ``torch.return_types.
    linalg_cholesky_ex(L, info)``; ``info`` is the order of the first leading minor that is
    not positive-definite (0 if none), and ``L`` then holds LAPACK's partial factor."""
    _check_square(A, "linalg.cholesky")  # PyTorch's messages name cholesky
    _check_float(A, "linalg.cholesky")
    _check_low_precision(A, "cholesky_cpu", NotImplementedError)
    info = _cholesky_info(to_numpy(A._data))[1]
    if check_errors and info.any():
        raise _not_positive_definite(to_numpy(A._data), "linalg.cholesky_ex")
    return return_types.linalg_cholesky_ex(CholeskyEx.apply(A, bool(upper), "linalg.cholesky_ex"),
                                           _info_tensor(info, A))


__all__ += ["inv_ex", "solve_ex", "cholesky_ex"]


# ---------------------------------------------------------------- lu_factor, lu, lu_solve
def _permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The matrix ``P`` of ``A = P L U`` from LAPACK's 1-based row swaps."""
    batch = pivots.shape[:-1]
    if m == 0 or pivots.size == 0:
        return np.broadcast_to(np.eye(m, dtype=dtype), batch + (m, m)).copy()
    perm = np.broadcast_to(np.arange(m), batch + (m,)).copy().reshape(-1, m)
    rows = np.arange(perm.shape[0])
    for k, p in enumerate(np.moveaxis(pivots.reshape(-1, pivots.shape[-1]) - 1, -1, 0)):
        swap = perm[rows, p].copy()
        perm[rows, p] = perm[:, k]
        perm[:, k] = swap
    out = np.zeros((perm.shape[0], m, m), dtype)
    out[rows[:, None], perm, np.arange(m)] = 1
    return out.reshape(batch + (m, m))


class LuUnpack(Function):
    """``L`` (unit lower, ``m x k``) and ``U`` (upper, ``k x n``) from a packed ``LU``.
    Backward: the gradients' strict lower and upper triangles, put back in place."""

    node_name = "LuUnpackBackward0"
    _builtin = True

    @staticmethod
    def forward(lu, unpack_data=True):
        x = lu._data
        m, n = x.shape[-2:]
        k = min(m, n)
        xp = array_module(x)
        if not unpack_data:  # torch.lu_unpack(..., unpack_data=False): empty, still recorded
            return _wrap(xp.zeros(0, x.dtype)), _wrap(xp.zeros(0, x.dtype))
        lower = xp.tril(x[..., :, :k], -1) + xp.eye(m, k, dtype=x.dtype)
        return _wrap(lower), _wrap(xp.triu(x[..., :k, :]))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0].shape
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_l, g_u):
        if (g_l is not None and g_l.dim() == 1) or (g_u is not None and g_u.dim() == 1):
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        return _unpack_backward(g_l, g_u, ctx.shape), None


def _unpack_backward(g_l, g_u, shape) -> Tensor:
    """PyTorch's ``lu_unpack_backward``: ``tril(gL, -1) + triu(gU)``, each padded to the
    shape of ``LU``."""
    m, n = shape[-2:]
    parts = []
    if g_l is not None:
        parts.append(_pad_to(g_l.tril(-1), m, n))
    if g_u is not None:
        parts.append(_pad_to(g_u.triu(), m, n))
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


def _pad_to(t: Tensor, m: int, n: int) -> Tensor:
    """``t`` with zero rows and columns added to make it ``m x n``."""
    if t.shape[-1] < n:
        t = _shape_ops.cat([t, t.new_zeros(t.shape[:-1] + (n - t.shape[-1],))], -1)
    if t.shape[-2] < m:
        t = _shape_ops.cat([t, t.new_zeros(t.shape[:-2] + (m - t.shape[-2], n))], -2)
    return t


def _lu_backward(g_l, g_u, p, low, up) -> Tensor:
    """PyTorch's ``linalg_lu_backward``: the gradient of ``A = P L U`` from those of ``L``
    and ``U`` (square, wide and tall ``A``), in triangular solves."""
    m, n = low.shape[-2], up.shape[-1]
    k = min(m, n)
    if m == n:
        g = _mT(low) @ g_l if g_l is not None else None
        g = g.tril(-1) if g is not None else None
        if g_u is not None:
            g = (g_u @ _mT(up)).triu() if g is None else g + (g_u @ _mT(up)).triu()
        g = solve_triangular(_mT(up), g, upper=False, left=False)
        g = solve_triangular(_mT(low), g, upper=True, unitriangular=True)
    elif m < n:
        u1 = up[..., :k]
        g = _mT(low) @ g_l if g_l is not None else None
        if g_u is not None:
            term = g_u.triu() @ _mT(up)
            g = -term if g is None else g - term
        g = solve_triangular(_mT(u1), g.tril(-1), upper=False, left=False)
        if g_u is not None:
            g = _shape_ops.cat([g + g_u[..., :k].triu(), g_u[..., k:]], -1)
        g = solve_triangular(_mT(low), g, upper=True, unitriangular=True)
        if g_u is None:
            g = _shape_ops.cat([g, up.new_zeros(up[..., k:].shape)], -1)
    else:
        l1 = low[..., :k, :]
        g = g_u @ _mT(up) if g_u is not None else None
        if g_l is not None:
            term = _mT(low) @ g_l.tril(-1)
            g = -term if g is None else g - term
        g = solve_triangular(_mT(l1), g.triu(), upper=True, unitriangular=True)
        if g_l is not None:
            g = _shape_ops.cat([g + g_l[..., :k, :].tril(-1), g_l[..., k:, :]], -2)
        g = solve_triangular(_mT(up), g, upper=False, left=False)
        if g_l is None:
            g = _shape_ops.cat([g, low.new_zeros(low[..., k:, :].shape)], -2)
    return p @ g


class LuFactor(Function):
    """The packed ``LU`` of ``P A = L U`` (computed by ``_lu_array``, passed in with its
    pivots). Backward is PyTorch's ``lu_factor_ex_backward``: unpack ``L`` and ``U``, and
    ``linalg_lu_backward`` with the gradient's two triangles."""

    node_name = "LinalgLuFactorExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, lu, pivots):
        out = _on_device_of(_by_columns(lu), a)  # as LAPACK's getrf writes it
        ctx.pivots = pivots
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (lu,) = ctx.saved_tensors
        m, n = lu.shape[-2:]
        k = min(m, n)
        low, up = LuUnpack.apply(lu, True)
        p = _on_device_of(_permutation(ctx.pivots, m, lu._data.dtype), lu)
        # (narrowed as PyTorch's: SliceBackward0 even when all is kept)
        return _lu_backward(grad.narrow(-1, 0, k), grad.narrow(-2, 0, k), p, low, up), None, None


def _check_lu_input(A: Tensor, name: str, pivot: bool = True) -> None:  # noqa: N803
    if A.dim() < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"[{', '.join(map(str, A.shape))}] instead")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if A._data.dtype.kind != "f" or A._data.dtype == np.float16:
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{A.dtype._legacy[:-6]}'")


def lu_factor_ex(A: Tensor, *, pivot: bool = True, check_errors: bool = False):  # noqa: N803
    """The LU factorization with partial pivoting, ``P A = L U``, packed as LAPACK's
    ``getrf`` returns it: ``torch.return_types.linalg_lu_factor_ex(LU, pivots, info)`` with
    ``L`` (unit diagonal left out) below the diagonal of ``LU`` and ``U`` on and above it,
    1-based int32 ``pivots`` (row ``i`` was swapped with row ``pivots[i]``) and ``info``
    (the position of the first zero on ``U``'s diagonal, 0 if none).

    >>> import minitorch
    >>> minitorch.linalg.lu_factor_ex(minitorch.tensor([[1.0, 2.0], [4.0, 4.0]])).pivots
    tensor([2, 2], dtype=torch.int32)
    """
    _check_lu_input(A, "torch.lu_factor", pivot)
    lu, pivots, info = _lu_array(to_numpy(A._data))
    if check_errors:
        _raise_info(info, "torch.linalg.lu_factor_ex: {batch}U[{info},{info}] is zero and using "
                    "it on lu_solve would result in a division by zero. If you still want to "
                    "perform the factorization, consider calling linalg.lu(A, pivot) or "
                    "linalg.lu_factor_ex(A, pivot)", A.dim() > 2)
    return return_types.linalg_lu_factor_ex(LuFactor.apply(A, lu, pivots),
                                            _info_tensor(pivots, A), _info_tensor(info, A))


def lu_factor(A: Tensor, *, pivot: bool = True):  # noqa: N803
    """``lu_factor_ex`` that raises for a matrix with a zero on ``U``'s diagonal:
    ``torch.return_types.linalg_lu_factor(LU, pivots)``."""
    _check_lu_input(A, "torch.lu_factor", pivot)
    lu, pivots, info = _lu_array(to_numpy(A._data))
    _raise_info(info, "torch.linalg.lu_factor: {batch}U[{info},{info}] is zero and using it on "
                "lu_solve would result in a division by zero. If you still want to perform the "
                "factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, "
                "pivot)", A.dim() > 2)
    return return_types.linalg_lu_factor(LuFactor.apply(A, lu, pivots),
                                         _info_tensor(pivots, A))


class Lu(Function):
    """``A = P L U`` unpacked: ``L`` (unit lower, ``m x k``) and ``U`` (upper, ``k x n``).
    Backward is PyTorch's ``linalg_lu_backward``."""

    node_name = "LinalgLuBackward0"
    _builtin = True
    _edge_args = (0,)  # only A: the factors and the permutation are arrays

    @staticmethod
    def forward(a, lu, p):
        m, n = lu.shape[-2:]
        k = min(m, n)
        lower = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
        return _on_device_of(lower, a), _on_device_of(np.triu(lu[..., :k, :]), a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.p = inputs[2]  # the permutation (no gradient)
        ctx.save_for_backward(*output)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_l, g_u):
        low, up = ctx.saved_tensors
        return _lu_backward(g_l, g_u, ctx.p, low, up)


def lu(A: Tensor, *, pivot: bool = True):  # noqa: N803
    """The LU factorization with partial pivoting, unpacked: ``torch.return_types.linalg_lu(
    P, L, U)`` with ``A = P L U``, ``L`` unit lower triangular and ``U`` upper triangular.

    >>> import minitorch
    >>> minitorch.linalg.lu(minitorch.tensor([[1.0, 2.0], [4.0, 4.0]])).U
    tensor([[4., 4.],
            [0., 1.]])
    """
    _check_lu_input(A, "linalg.lu", pivot)
    lu_, pivots, _ = _lu_array(to_numpy(A._data))
    p = _on_device_of(_permutation(pivots, A.shape[-2], lu_.dtype), A)
    low, up = Lu.apply(A, lu_, p)
    return return_types.linalg_lu(p, low, up)


class LuSolve(Function):
    """``X = A^-1 B`` from ``A``'s packed ``LU`` and pivots (``adjoint``: ``A^-T B``;
    ``left=False``: ``X A = B``). Backward is PyTorch's: ``grad_B`` is another ``lu_solve``
    (with the other ``adjoint``), ``grad_LU`` its ``linalg_lu_solve_LU``: triangular solves
    with the unpacked ``L`` and ``U``."""

    node_name = "LinalgLuSolveBackward0"
    _builtin = True
    _edge_args = (0, 1)  # LU and B (not the pivots)

    @staticmethod
    def forward(ctx, lu, b, pivots, left, adjoint):
        x, y = to_numpy(lu._data), to_numpy(b._data)
        piv = to_numpy(pivots._data)
        if left:
            out = _lu_solve_array(x, piv, y, adjoint)
        else:  # X A = B: A^T X^T = B^T
            out = np.swapaxes(_lu_solve_array(x, piv, np.swapaxes(y, -1, -2), not adjoint),
                              -1, -2)
        result = _on_device_of(_solve_layout(out, left), b)
        ctx.pivots, ctx.flags, ctx.shapes = pivots, (left, adjoint), (lu.shape, b.shape)
        ctx.save_for_backward(lu, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        lu, x = ctx.saved_tensors
        left, adjoint = ctx.flags
        g_b = lu_solve(lu, ctx.pivots, grad, left=left, adjoint=not adjoint)
        g_lu = None
        if ctx.needs_input_grad[0]:
            low, up = LuUnpack.apply(lu, True)
            if left != adjoint:
                g_r = solve_triangular(_mT(up), -((grad if left else _mT(grad)) @
                                                  (_mT(x) if left else x)), upper=False)
                g_l = solve_triangular(_mT(low), g_r @ _mT(up), upper=True,
                                       unitriangular=True).tril(-1)
                g_lu = g_l + g_r.triu()
            else:
                p = _on_device_of(_permutation(to_numpy(ctx.pivots._data), lu.shape[-2],
                                               lu._data.dtype), lu)
                g_r = -(_mT(p) @ (x if left else _mT(x)) @ (_mT(grad) if left else grad) @ p)
                g_r = solve_triangular(_mT(low), g_r, upper=True, left=False,
                                       unitriangular=True)
                g_u = solve_triangular(_mT(up), _mT(low) @ g_r, upper=False, left=False).triu()
                g_lu = g_r.tril(-1) + g_u
            g_lu = g_lu.sum_to_size(ctx.shapes[0])
        return g_lu, g_b.sum_to_size(ctx.shapes[1]), None, None, None


def lu_solve(LU: Tensor, pivots: Tensor, B: Tensor, *, left: bool = True,  # noqa: N803
             adjoint: bool = False) -> Tensor:
    """The solution ``X`` of ``A X = B`` from ``A``'s LU factorization (``lu_factor``'s
    ``LU`` and ``pivots``); ``adjoint``: of ``A^T X = B``; ``left=False``: of ``X A = B``.

    >>> import minitorch
    >>> A = minitorch.tensor([[2.0, 0.0], [0.0, 4.0]])
    >>> LU, pivots = minitorch.linalg.lu_factor(A)
    >>> minitorch.linalg.lu_solve(LU, pivots, minitorch.tensor([[2.0], [4.0]]))
    tensor([[1.],
            [1.]])
    """
    if B.dim() < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 "
                           "dimensions.")
    _check_square(LU, "linalg.lu_solve")
    if pivots.dtype is not _dtype.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type "
                           "torch.int32")
    n = LU.shape[-1]
    rows = B.shape[-2] if left else B.shape[-1]
    if rows != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {B.shape[-2]}x"
                           f"{B.shape[-1]})")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but "
                           f"found LU of type {LU.dtype._legacy[:-6]} and B of type "
                           f"{B.dtype._legacy[:-6]} instead")
    _check_float(LU, "linalg.lu_solve")
    return LuSolve.apply(LU, B, pivots, bool(left), bool(adjoint))


__all__ += ["lu_factor", "lu_factor_ex", "lu", "lu_solve"]


# ---------------------------------------------------------------- least squares
_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


class Lstsq(Function):
    """The least-squares solution and, where asked for, its squared residuals (computed by
    ``lstsq`` for its driver, passed in as arrays). Backward is
    PyTorch's ``linalg_lstsq_backward``, through the pseudo-inverse: ``grad_A`` is
    ``pinv_backward(G B^T)``, ``grad_B = A+^T G``; the residuals ``|A X - B|^2`` add
    ``2 (A X - B) gR X^T`` and ``-2 (A X - B) gR`` (``X`` is optimal: its change does not
    move them)."""

    node_name = "LinalgLstsqBackward0"
    _builtin = True

    @staticmethod
    def forward(a, b, vector, solution, residuals):  # (the arrays computed by lstsq)
        return _on_device_of(solution, a), _on_device_of(residuals, a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.vector = inputs[2]
        ctx.save_for_backward(inputs[0], inputs[1], output[0])
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, g_x, g_res):
        # PyTorch's linalg_lstsq_backward, in its operations and order (gradgraph task)
        a, b, x = ctx.saved_tensors
        bm = b.unsqueeze(-1) if ctx.vector else b
        g_a = g_b = None
        if g_x is not None:  # from the solution
            g = g_x.unsqueeze(-1) if ctx.vector else g_x
            p = pinv(a)
            g_a = _pinv_backward(g @ _mT(bm), a, p) if ctx.needs_input_grad[0] else None
            if ctx.needs_input_grad[1]:
                g_b = _mT(p) @ g
                g_b = g_b.squeeze(-1) if ctx.vector else g_b
        if g_res is not None and g_res.numel():  # from the residuals ||A X - B||^2
            xm = x.unsqueeze(-1) if ctx.vector else x
            r = a @ xm - bm
            g_l = g_res.unsqueeze(-2)
            if ctx.needs_input_grad[0]:
                g_a_l = _arith.MulScalar.apply((g_l * r) @ _mT(xm), 2)
                g_a = g_a_l if g_a is None else g_a + g_a_l
            if ctx.needs_input_grad[1]:
                g_b_l = _arith.MulScalar.apply(g_l, -2) * r
                g_b_l = g_b_l.squeeze(-1) if ctx.vector else g_b_l
                g_b = g_b_l if g_b is None else g_b + g_b_l
        if g_b is not None:
            g_b = g_b.sum_to_size(b.shape)
        if g_a is not None:
            g_a = g_a.sum_to_size(a.shape)
        return g_a, g_b, None, None, None


# ---------------------------------------------------------------- task lapack: lstsq's drivers
_ULP = np.finfo(np.float64).eps / 2  # LAPACK's dlamch('Epsilon')


def _laic1_max(x, sest, w, gamma):
    """LAPACK's ``dlaic1`` (job 1): the estimate of the largest singular value of ``[[L, 0],
    [w^T, gamma]]`` from that of ``L`` (``sest``, vector ``x``); returns it, ``s`` and ``c``
    (the new vector is ``[s x, c]``)."""
    alpha = float(x @ w)
    a, g, e = abs(alpha), abs(gamma), abs(sest)
    if sest == 0:
        big = max(g, a)
        if big == 0:
            return 0.0, 0.0, 1.0
        s, c = alpha / big, gamma / big
        norm = math.hypot(s, c)
        return big * norm, s / norm, c / norm
    if g <= _ULP * e:
        return math.hypot(e, a), 1.0, 0.0
    if a <= _ULP * e:
        return (e, 1.0, 0.0) if g <= e else (g, 0.0, 1.0)
    if e <= _ULP * a or e <= _ULP * g:
        if g <= a:
            t = math.sqrt(1 + (g / a) ** 2)
            return a * t, math.copysign(1.0, alpha) / t, gamma / a / t
        t = math.sqrt(1 + (a / g) ** 2)
        return g * t, alpha / g / t, math.copysign(1.0, gamma) / t
    z1, z2 = alpha / e, gamma / e
    b, c = (1 - z1 * z1 - z2 * z2) / 2, z1 * z1
    t = c / (b + math.sqrt(b * b + c)) if b > 0 else math.sqrt(b * b + c) - b
    sine, cosine = -z1 / t, -z2 / (1 + t)
    norm = math.hypot(sine, cosine)
    return math.sqrt(t + 1) * e, sine / norm, cosine / norm


def _laic1_min(x, sest, w, gamma):
    """LAPACK's ``dlaic1`` (job 2): as ``_laic1_max``, for the smallest singular value."""
    alpha = float(x @ w)
    a, g, e = abs(alpha), abs(gamma), abs(sest)
    if sest == 0:
        sine, cosine = (1.0, 0.0) if max(g, a) == 0 else (-gamma, alpha)
        big = max(abs(sine), abs(cosine))
        norm = math.hypot(sine / big, cosine / big)
        return 0.0, sine / big / norm, cosine / big / norm
    if g <= _ULP * e:
        return g, 0.0, 1.0
    if a <= _ULP * e:
        return (g, 0.0, 1.0) if g <= e else (e, 1.0, 0.0)
    if e <= _ULP * a or e <= _ULP * g:
        if g <= a:
            t = math.sqrt(1 + (g / a) ** 2)
            return e * (g / a) / t, -(gamma / a) / t, math.copysign(1.0, alpha) / t
        t = math.sqrt(1 + (a / g) ** 2)
        return e / t, -math.copysign(1.0, gamma) / t, alpha / g / t
    z1, z2 = alpha / e, gamma / e
    norma = max(1 + z1 * z1 + abs(z1 * z2), abs(z1 * z2) + z2 * z2)
    if 1 + 2 * (z1 - z2) * (z1 + z2) >= 0:  # the root is near 0
        b, c = (z1 * z1 + z2 * z2 + 1) / 2, z2 * z2
        t = c / (b + math.sqrt(abs(b * b - c)))
        sine, cosine, est = z1 / (1 - t), -z2 / t, math.sqrt(t + 4 * _ULP * _ULP * norma) * e
    else:  # near 1: shifted by it
        b, c = (z2 * z2 + z1 * z1 - 1) / 2, z1 * z1
        t = -c / (b + math.sqrt(b * b + c)) if b >= 0 else b - math.sqrt(b * b + c)
        sine, cosine = -z1 / t, -z2 / (1 + t)
        est = math.sqrt(1 + t + 4 * _ULP * _ULP * norma) * e
    norm = math.hypot(sine, cosine)
    return est, sine / norm, cosine / norm


def _gelsy_one(a: np.ndarray, b: np.ndarray, rcond: float) -> tuple:
    """LAPACK's ``gelsy`` for one matrix as PyTorch calls it: the Householder QR of ``A``
    (its columns stay in place: PyTorch hands ``geqp3`` an uninitialised pivot array, which
    in practice fixes every column, and always does for the matrices of a batch after the
    first), the rank from the incremental condition estimate of ``R`` (the leading ``r``
    columns, while ``smax * rcond <= smin``), then the minimum-norm solution of ``[R11 R12]
    y = (Q^T B)[:r]``. Returns the solution (``n x k``) and the rank."""
    m, n = a.shape
    r, qtb = a.astype(np.float64), b.astype(np.float64)
    for i in range(min(m, n)):  # Householder reflections, applied to R and to B as they come
        alpha, below = r[i, i], np.linalg.norm(r[i + 1:, i])
        if below == 0:
            continue
        beta = -math.copysign(math.hypot(alpha, below), alpha)
        u = np.concatenate([[1.0], r[i + 1:, i] / (alpha - beta)])
        tau = (beta - alpha) / beta
        r[i:, i:] -= tau * np.outer(u, u @ r[i:, i:])
        qtb[i:] -= tau * np.outer(u, u @ qtb[i:])
    x = np.zeros((n, b.shape[1]))
    if min(m, n, b.shape[1]) == 0 or r[0, 0] == 0:
        return x, 0
    smin = smax = abs(r[0, 0])
    vmin = vmax = np.ones(1)
    rank = 1
    while rank < min(m, n):
        sminpr, s1, c1 = _laic1_min(vmin, smin, r[:rank, rank], r[rank, rank])
        smaxpr, s2, c2 = _laic1_max(vmax, smax, r[:rank, rank], r[rank, rank])
        if smaxpr * rcond > sminpr:
            break
        vmin, vmax = np.append(s1 * vmin, c1), np.append(s2 * vmax, c2)
        smin, smax, rank = sminpr, smaxpr, rank + 1
    top = np.triu(r[:rank])  # [R11 R12]: its minimum-norm solution through the QR of its
    if rank == n:  # transpose (LAPACK's tzrzf makes the same orthogonal reduction)
        return np.linalg.solve(top, qtb[:rank]), rank
    z, t = np.linalg.qr(top.T)
    return z @ np.linalg.solve(t.T, qtb[:rank]), rank


def _lstsq_arrays(a: np.ndarray, b: np.ndarray, rcond: float, driver: str) -> tuple:
    """The solution (``n x k`` per matrix, batches broadcast), rank and singular values of
    ``lstsq`` as PyTorch's CPU driver computes them: ``gelsy`` as ``_gelsy_one``; ``gelsd``
    and ``gelss`` through the SVD, singular values up to ``rcond`` times the largest counting
    as zero (``gelsd`` takes LAPACK's epsilon for an ``rcond`` outside (0, 1), ``gelss`` for
    a negative one); ``gels`` (full rank assumed) as the SVD's."""
    m, n = a.shape[-2:]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    x = np.zeros(batch + (n, b.shape[-1]))
    if driver == "gelsy":
        count = math.prod(batch)
        aa = np.broadcast_to(a, batch + (m, n)).reshape(count, m, n)
        bb = np.broadcast_to(b, batch + b.shape[-2:]).reshape(count, m, b.shape[-1])
        flat, ranks = x.reshape(count, n, b.shape[-1]), np.zeros(count, np.int64)
        for i in range(aa.shape[0]):
            flat[i], ranks[i] = _gelsy_one(aa[i], bb[i], rcond)
        lead = len(batch) - (a.ndim - 2)  # the rank has A's batch shape (it depends on A only)
        rank = ranks.reshape(batch)[(0,) * lead + tuple(slice(0, 1) if d == 1 else slice(None)
                                                        for d in a.shape[:-2])]
        return x, rank, None
    s = np.linalg.svd(a.astype(np.float64), compute_uv=False) if a.size else \
        np.zeros(a.shape[:-2] + (min(m, n),))
    if driver == "gelsd" and not 0 < rcond < 1 or driver == "gelss" and rcond < 0:
        rcond = _ULP
    rank = (s > rcond * s[..., :1]).sum(-1) if s.shape[-1] else np.zeros(s.shape[:-1], int)
    if a.size and b.size:
        u, s_, vh = np.linalg.svd(a.astype(np.float64), full_matrices=False)
        keep = s_ > rcond * s_[..., :1]
        inverse = np.where(keep, 1 / np.where(keep, s_, 1), 0)
        x[...] = np.swapaxes(vh, -1, -2) @ (inverse[..., None] * (np.swapaxes(u, -1, -2) @ b))
    return x, rank, s


def _lstsq_layout(x: np.ndarray, m: int) -> np.ndarray:
    """The solution inside LAPACK's ``max(m, n) x k`` right-hand side, by columns, as
    PyTorch returns it (a view of its first ``n`` rows)."""
    n = x.shape[-2]
    buffer = _by_columns(np.zeros(x.shape[:-2] + (max(m, n), x.shape[-1]), x.dtype))
    buffer[..., :n, :] = x
    return buffer[..., :n, :]


def lstsq(A: Tensor, B: Tensor, rcond=None, *, driver=None):  # noqa: N803
    """The least-squares solution of ``A X = B`` (the minimum-norm one where ``A`` is rank
    deficient): ``torch.return_types.linalg_lstsq(solution, residuals, rank,
    singular_values)`` as PyTorch's CPU drivers fill them: the default ``'gelsy'`` gives the
    rank, no residuals and no singular values; ``'gelsd'``/``'gelss'`` all three (residuals
    only for a tall ``A`` of full rank); ``'gels'`` the residuals alone. Singular values up
    to ``rcond`` times the largest (default: ``eps * max(m, n)``) count as zero.

    ``gelsy`` is LAPACK's (QR, the rank from an incremental condition estimate, the
    minimum-norm solution of the leading rows of ``R``) with the columns in place, as
    PyTorch's runs it in practice (see ``_gelsy_one``); the other drivers solve through the
    SVD.

    >>> import minitorch
    >>> A = minitorch.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> minitorch.linalg.lstsq(A, minitorch.tensor([[1.0], [2.0], [3.0]])).solution
    tensor([[1.],
            [2.]])
    """
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if A._data.dtype not in (np.float32, np.float64) or B._data.dtype not in (np.float32,
                                                                                np.float64):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same "
                           f"dtype, but got input's dtype {A.dtype._legacy[:-6]} and other's "
                           f"dtype {B.dtype._legacy[:-6]}")
    if B.dim() > A.dim() or A.dim() - B.dim() > 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to "
                           "other.dim() and (input.dim() - other.dim()) <= 1")
    vector = B.dim() == A.dim() - 1
    driver = "gelsy" if driver is None else driver
    if driver not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, "
                           "gelsy, gelsd, gelss)")
    try:
        np.broadcast_shapes(A.shape[:-2], B.shape[:-1 if vector else -2])
    except ValueError:
        raise broadcast_error(A.shape[:-2], B.shape[:-1 if vector else -2]) from None
    if (B.shape[-1] if vector else B.shape[-2]) != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = A.shape[-2:]
    data, rhs = to_numpy(A._data), to_numpy(B._data).astype(np.float64)
    rhs = rhs[..., None] if vector else rhs
    rcond = float(np.finfo(data.dtype).eps * max(m, n)) if rcond is None else float(rcond)
    x, rank, s = _lstsq_arrays(data, rhs, rcond, driver)
    residuals = np.zeros((0,), data.dtype)
    if driver != "gelsy" and m > n and (driver == "gels" or bool(np.all(rank == n))):
        residuals = ((data.astype(np.float64) @ x - rhs) ** 2).sum(-2)  # (a vector's: length 1)
    x = _lstsq_layout(x.astype(data.dtype), m)
    solution, residuals = Lstsq.apply(A, B, vector, x[..., 0] if vector else x, residuals)
    xp = array_module(A._data)
    rank_t = _wrap(xp.asarray(rank.astype(np.int64) if driver != "gels" else
                              np.zeros((0,), np.int64)))
    values = _on_device_of(s if driver in ("gelsd", "gelss") else np.zeros((0,)), A)
    return return_types.linalg_lstsq(solution, residuals, rank_t, values)


__all__ += ["lstsq"]


# out= (task linalg2): the names PyTorch's errors give them
vecdot = with_out(vecdot, "linalg_vecdot", writer="sum")
solve_triangular, lu_solve = (with_out(f, name) for f, name in (
    (solve_triangular, "linalg_solve_triangular"), (lu_solve, "linalg_lu_solve")))


def _copy_out(fn, name: str):
    """``out=`` of a function PyTorch builds from others: the result is copied into ``out``
    by ``copy_``, so ``out`` joins the graph (``CopyBackwards``) where the result needs
    gradients."""
    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        result = fn(*args, **kwargs)
        if out is None:
            return result
        _check_out_dtype(name, out, result)
        if out.shape != result.shape:
            copy_into_out(out, result.detach(), warn_resize=True)
        return out.copy_(result)

    return wrapper


cond, tensorinv, tensorsolve = (_copy_out(f, name) for f, name in (
    (cond, "linalg_cond"), (tensorinv, "linalg_tensorinv"), (tensorsolve, "linalg_tensorsolve")))


# ---------------------------------------------------------------- householder_product
def _householder_vectors(a, i: int):
    """The ``i``-th Householder vector stored in column ``i`` of the array ``a``: 1 at row
    ``i``, the column below it, zeros above."""
    m = a.shape[-2]
    return np.where(np.arange(m) > i, a[..., :, i], 0) + (np.arange(m) == i)


class HouseholderProduct(Function):
    """The first ``n`` columns of ``H_1 ... H_k`` with ``H_i = I - tau_i v_i v_i^T`` (LAPACK's
    ``orgqr``; ``v_i`` stored below the diagonal of column ``i``). Backward: PyTorch's
    formula, :func:`_householder_product_backward`, in tensor operations (so it differentiates
    again)."""

    node_name = "LinalgHouseholderProductBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, tau):
        x, t = to_numpy(a._data), to_numpy(tau._data)
        m, n = x.shape[-2:]
        q = np.broadcast_to(np.eye(m, n, dtype=x.dtype), x.shape).copy()
        for i in range(t.shape[-1] - 1, -1, -1):
            v = _householder_vectors(x, i)[..., :, None]
            q = q - t[..., i, None, None] * v * (np.swapaxes(v, -1, -2) @ q)
        out = _on_device_of(_by_columns(q.astype(x.dtype)), a)
        ctx.save_for_backward(a, tau, out)  # (the result, as PyTorch's node saves it)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, tau, result = ctx.saved_tensors
        return _householder_product_backward(grad, result, a, tau)


def _householder_product_backward(grad, result, a, tau):
    """PyTorch's ``householder_product_backward`` (its out-of-place form, the one a recorded
    gradient takes), in its tensor operations and order (gradgraph task). With ``H_i = I -
    tau_i v_i v_i^T`` and ``sigma_i`` such that ``H(sigma_i)`` is its inverse, ``K = Q G^T``
    is carried along as ``H_i^{-1} ... K ... H_i``: column ``i``'s gradient is ``-tau_i (v^T
    K + K v)`` (the parts of ``v`` from row ``i``), ``tau_i``'s ``-v^T K v``."""
    if not a.numel() or not tau.numel():
        return None, None
    m, k = a.shape[-2], tau.shape[-1]
    v_all = a.tril(-1)  # the vectors: below the diagonal, the diagonal's 1 implied
    v_all.diagonal(0, -2, -1).fill_(1.0)
    first = v_all.narrow(-1, 0, k)
    sigma = tau / _arith.SubScalar.apply(tau * (first * first).sum(-2), 1.0)

    def reflect(v, t, k_mat, left):  # (I - t v v^T) K, or K (I - t v v^T)
        if left:
            change = (t.unsqueeze(-1) * v) * _mT(v).matmul(k_mat)
        else:
            change = k_mat.matmul(t.unsqueeze(-1) * v) * _mT(v)
        return k_mat - change

    k_mat = result.matmul(_mT(grad))
    k_mat = reflect(v_all.narrow(-1, 0, 1), sigma.narrow(-1, 0, 1), k_mat, True)
    g_a, g_tau = a.new_zeros(a.shape), tau.new_zeros(tau.shape)
    for i in range(k):
        v_i, t_i = v_all.narrow(-1, i, 1), tau.narrow(-1, i, 1)
        v = v_i.narrow(-2, i, m - i)
        vhk = _mT(v).matmul(k_mat.narrow(-2, i, m - i))
        kv = k_mat.narrow(-1, i, m - i).matmul(v)
        t = t_i.unsqueeze(-1)
        g_v = ((-t * vhk).squeeze(-2) - (t * kv).squeeze(-1)).unsqueeze(-1)
        g_t = (-(vhk.narrow(-1, i, m - i).matmul(v))).squeeze(-1)
        g_a.select(-1, i).copy_(g_v.squeeze(-1))
        g_tau.select(-1, i).copy_(g_t.squeeze(-1))
        if i != k - 1:  # K <- H_{i+1}^{-1} K H_i
            k_mat = reflect(v_all.narrow(-1, i + 1, 1), sigma.narrow(-1, i + 1, 1), k_mat,
                            True)
            k_mat = reflect(v_i, t_i, k_mat, False)
    g_a.tril_(-1)
    return g_a, g_tau


def householder_product(A: Tensor, tau: Tensor) -> Tensor:  # noqa: N803
    """The first ``n`` columns of the product of the Householder reflections ``H_i = I -
    tau_i v_i v_i^T`` stored in ``A`` (as ``geqrf`` leaves them: ``v_i`` below the diagonal
    of column ``i``, its leading 1 implied), as LAPACK's ``orgqr``."""
    name = "torch.linalg.householder_product"
    if A.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if A.dim() - tau.dim() != 1:
        raise RuntimeError(f"{name}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.dim()} and input.ndim is equal to "
                           f"{A.dim()}")
    if A.dim() > 2 and tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"{name}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got [{', '.join(map(str, tau.shape[:-1]))}]")
    if tau.dtype is not A.dtype:
        raise RuntimeError(f"{name}: tau dtype {tau.dtype._legacy[:-6]} does not match input "
                           f"dtype {A.dtype._legacy[:-6]}")
    if A._data.dtype.kind != "f" or A._data.dtype == np.float16:
        raise NotImplementedError(f"\"orgqr_cpu\" not implemented for '{A.dtype._legacy[:-6]}'")
    return HouseholderProduct.apply(A, tau)


__all__ += ["householder_product"]


# ---------------------------------------------------------------- LDL^T (Bunch-Kaufman)
_BK_ALPHA = (1 + math.sqrt(17)) / 8


def _ldl_one(a: np.ndarray) -> tuple:
    """LAPACK's ``sytf2`` (lower) for one symmetric matrix: ``P A P^T = L D L^T`` with 1x1
    and 2x2 blocks in ``D`` chosen by Bunch-Kaufman pivoting. Returns the packed ``LD``,
    LAPACK's 1-based pivots (negative for a 2x2 block) and ``info``."""
    a = np.tril(a).astype(a.dtype, copy=True)
    a = a + np.tril(a, -1).T  # symmetric, so the updates can read either triangle
    n = a.shape[0]
    ipiv = np.zeros(n, np.int32)
    info, k = 0, 0
    with np.errstate(all="ignore"):
        while k < n:
            kstep, absakk = 1, abs(a[k, k])
            imax, colmax = k, 0.0
            if k < n - 1:
                imax = k + 1 + int(np.argmax(np.abs(a[k + 1:, k])))
                colmax = abs(a[imax, k])
            if max(absakk, colmax) == 0 or np.isnan(absakk):
                info = info or k + 1
                kp = k
            else:
                if absakk >= _BK_ALPHA * colmax:
                    kp = k
                else:
                    rowmax = np.abs(a[imax, k:imax]).max()
                    if imax < n - 1:
                        rowmax = max(rowmax, np.abs(a[imax + 1:, imax]).max())
                    if absakk >= _BK_ALPHA * colmax * (colmax / rowmax):
                        kp = k
                    elif abs(a[imax, imax]) >= _BK_ALPHA * rowmax:
                        kp = imax
                    else:
                        kp, kstep = imax, 2
                kk = k + kstep - 1
                if kp != kk:  # swap rows and columns kk and kp of the trailing matrix
                    perm = np.arange(n)
                    perm[[kk, kp]] = perm[[kp, kk]]
                    rest = slice(k, n)
                    block = a[rest, rest][np.ix_(perm[k:] - k, perm[k:] - k)]
                    a[rest, rest] = block  # (the columns before k keep their rows)
                if kstep == 1:
                    if k < n - 1:
                        d11 = 1 / a[k, k]
                        col = a[k + 1:, k].copy()
                        a[k + 1:, k + 1:] -= d11 * np.outer(col, col)
                        a[k + 1:, k] = col * d11
                        a[k, k + 1:] = a[k + 1:, k]
                else:
                    if k < n - 2:
                        d21 = a[k + 1, k]
                        d11 = a[k + 1, k + 1] / d21
                        d22 = a[k, k] / d21
                        t = 1 / (d11 * d22 - 1)
                        d21 = t / d21
                        wk = d21 * (d11 * a[k + 2:, k] - a[k + 2:, k + 1])
                        wkp1 = d21 * (d22 * a[k + 2:, k + 1] - a[k + 2:, k])
                        a[k + 2:, k + 2:] -= (np.outer(a[k + 2:, k], wk) +
                                              np.outer(a[k + 2:, k + 1], wkp1))
                        a[k + 2:, k], a[k + 2:, k + 1] = wk, wkp1
                        a[k, k + 2:], a[k + 1, k + 2:] = wk, wkp1
            if kstep == 1:
                ipiv[k] = kp + 1
            else:
                ipiv[k] = ipiv[k + 1] = -(kp + 1)
            k += kstep
    return np.tril(a), ipiv, info


def _ldl_solve_one(ld: np.ndarray, ipiv: np.ndarray, b: np.ndarray) -> np.ndarray:
    """LAPACK's ``sytrs`` (lower): ``A^-1 B`` from ``sytf2``'s ``LD`` and pivots."""
    b = b.copy()
    n = ld.shape[0]
    k = 0
    with np.errstate(all="ignore"):
        while k < n:  # L D Y = P B
            if ipiv[k] > 0:
                kp = ipiv[k] - 1
                b[[k, kp]] = b[[kp, k]]
                b[k + 1:] -= np.outer(ld[k + 1:, k], b[k])
                b[k] = b[k] / ld[k, k]
                k += 1
            else:
                kp = -ipiv[k] - 1
                b[[k + 1, kp]] = b[[kp, k + 1]]
                b[k + 2:] -= np.outer(ld[k + 2:, k], b[k]) + np.outer(ld[k + 2:, k + 1], b[k + 1])
                akm1k = ld[k + 1, k]
                akm1, ak = ld[k, k] / akm1k, ld[k + 1, k + 1] / akm1k
                denom = akm1 * ak - 1
                bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
                b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
                k += 2
        k = n - 1
        while k >= 0:  # L^T P^T X = Y
            if ipiv[k] > 0:
                b[k] -= ld[k + 1:, k] @ b[k + 1:]
                kp = ipiv[k] - 1
                b[[k, kp]] = b[[kp, k]]
                k -= 1
            else:
                b[k] -= ld[k + 1:, k] @ b[k + 1:]
                b[k - 1] -= ld[k + 1:, k - 1] @ b[k + 1:]
                kp = -ipiv[k] - 1
                b[[k, kp]] = b[[kp, k]]
                k -= 2
    return b


class LdlNotImplemented(Function):
    """The results of ``ldl_factor``/``ldl_solve`` made from tensors that require grad:
    recorded, as PyTorch records them, without a derivative (backward raises)."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def forward(ctx, name, out, *tensors):  # (its edges: the tensors that require grad)
        ctx.aten_name = name
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(f"derivative for aten::{ctx.aten_name} is not implemented")


def _maybe_recorded(out: np.ndarray, a: Tensor, b, name: str) -> Tensor:
    host = array_module(a._data).asarray(out)
    inputs = [t for t in (a, b) if t is not None and t.requires_grad]
    return LdlNotImplemented.apply(name, host, *inputs) if inputs else _wrap(host)


def ldl_factor_ex(A: Tensor, *, hermitian: bool = False, check_errors: bool = False):  # noqa: N803
    """The ``L D L^T`` factorization of a symmetric matrix (read from its lower triangle)
    with Bunch-Kaufman pivoting, as LAPACK's ``sytrf``: ``torch.return_types.
    linalg_ldl_factor_ex(LD, pivots, info)``, ``LD`` holding ``L`` below the diagonal and
    ``D``'s 1x1 and 2x2 blocks on it, 1-based int32 pivots (negative for a 2x2 block).
    Not differentiable (as in PyTorch)."""
    name = "torch.linalg.ldl_factor_ex"
    if A.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    _check_square(A, name)
    _check_float(A, name)
    if A._data.dtype == np.float16:
        raise NotImplementedError("\"ldl_factor_kernel_cpu\" not implemented for 'Half'")
    data = to_numpy(A._data)
    n = data.shape[-1]
    flat = data.reshape(int(np.prod(data.shape[:-2])), n, n)
    lds, pivs, infos = np.zeros_like(flat), np.zeros((flat.shape[0], n), np.int32), []
    for i, m in enumerate(flat):
        lds[i], pivs[i], info = _ldl_one(m)
        infos.append(info)
    info = np.array(infos, np.int32).reshape(data.shape[:-2])
    if check_errors:
        _ldl_error(info, "torch.linalg.ldl_factor_ex")
    return return_types.linalg_ldl_factor_ex(
        _maybe_recorded(_by_columns(lds.reshape(data.shape)), A, None, "linalg_ldl_factor_ex"),
        _info_tensor(pivs.reshape(data.shape[:-1]), A), _info_tensor(info, A))


def _ldl_error(info: np.ndarray, name: str) -> None:
    """PyTorch's error for a zero column: an internal assertion of its own, word for word."""
    flat = info.reshape(-1)
    if flat.any():
        raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/'
                           'native/BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
                           f"{name}: Unknown error code: {int(flat[np.flatnonzero(flat)[0]])}.")


def ldl_factor(A: Tensor, *, hermitian: bool = False):  # noqa: N803
    """``ldl_factor_ex`` without ``info``: ``torch.return_types.linalg_ldl_factor(LD,
    pivots)``. (PyTorch fails with an internal error for a matrix with a zero column; so
    does minitorch, with PyTorch's message.)"""
    ld, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    _ldl_error(to_numpy(info._data), "torch.linalg.ldl_factor")
    return return_types.linalg_ldl_factor(ld, pivots)


def ldl_solve(LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False) -> Tensor:  # noqa: N803
    """The solution ``X`` of ``A X = B`` from ``ldl_factor``'s ``LD`` and pivots, as LAPACK's
    ``sytrs``. Not differentiable (as in PyTorch)."""
    if B.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-B.dim()}, "
                         f"{B.dim() - 1}], but got -2)")
    n = LD.shape[-1]
    if B.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix "
                           f"is {n} by {n} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    if B.dtype is not LD.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type "
                           f"{B.dtype._legacy[:-6]} and A of type {LD.dtype._legacy[:-6]} "
                           "instead.")
    ld, piv, b = to_numpy(LD._data), to_numpy(pivots._data), to_numpy(B._data)
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, batch + ld.shape[-2:]).reshape(-1, n, n)
    piv = np.broadcast_to(piv, batch + piv.shape[-1:]).reshape(-1, n)
    bs = np.broadcast_to(b, batch + b.shape[-2:]).reshape(-1, *b.shape[-2:])
    out = np.stack([_ldl_solve_one(x, p, y) for x, p, y in zip(ld, piv, bs)]) if bs.shape[0] \
        else np.zeros(bs.shape, b.dtype)
    out = _by_columns(out.reshape(batch + b.shape[-2:]))
    return _maybe_recorded(out, LD, B, "linalg_ldl_solve")


__all__ += ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

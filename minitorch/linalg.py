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

import math

import numpy as np

from minitorch import _dtype, return_types
from minitorch._backend import array_module, to_numpy
from minitorch._dtype import CPP_NAMES
from minitorch._out import with_out
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops import linalg as _linalg_ops
from minitorch.ops import reduction as _reduction
from minitorch.ops import shape as _shape_ops
from minitorch.ops._util import broadcast_error, normalize_dim

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
    (in ``matmul``) is then a view, or a copy, exactly where PyTorch's is."""
    xp = array_module(x)
    return xp.swapaxes(xp.ascontiguousarray(xp.swapaxes(x, -1, -2)), -1, -2)


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
        (inv_a,) = ctx.saved_tensors
        inv_t = _mT(inv_a)
        return -(inv_t @ grad @ inv_t)  # grad_A = -A^-T G A^-T


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
    node_name = "LinalgSolveExBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, b, vector):
        xp = array_module(a._data)
        rhs = b._data[..., None] if vector else b._data
        try:
            x = _nan_where_nan(a._data, xp.linalg.solve(a._data, rhs))
        except np.linalg.LinAlgError:
            raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix "
                              "is singular.") from None
        out = _wrap(x[..., 0] if vector else x)
        ctx.vector = vector
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        grad_b = solve(_mT(a), grad)  # A^T grad_B = G
        if ctx.vector:
            grad_a = -(grad_b.unsqueeze(-1) @ x.unsqueeze(-2))
        else:
            grad_a = -(grad_b @ _mT(x))
        return grad_a, grad_b


def solve(A: Tensor, B: Tensor, *, left: bool = True) -> Tensor:  # noqa: N803
    """The solution ``X`` of ``A X = B`` (``X A = B`` with ``left=False``), without forming
    ``A^-1``. ``B`` may be a vector (one right-hand side) or a matrix (one per column)."""
    _check_square(A, "linalg.solve")
    _check_float(A, "linalg.solve")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A "
                           f"of type {A.dtype._legacy[:-6]} and B of type "
                           f"{B.dtype._legacy[:-6]} instead")
    _check_low_precision(A, "lu_cpu", NotImplementedError)
    if not left:
        return _mT(solve(_mT(A), _mT(B)))
    n = A.shape[-1]
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    rows = B.shape[-1] if vector else B.shape[-2]
    if rows != n:
        cols = 1 if vector else B.shape[-1]
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"AX = B ({n}x{n} and {rows}x{cols})")
    return Solve.apply(A, B, vector)


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
    return _reduction.vector_norm(x, float(ord), dim, keepdim, dtype=dtype)


class Svdvals(Function):
    """The singular values, largest first; backward: ``grad_A = U diag(g) V^T``."""

    node_name = "LinalgSvdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        data = to_numpy(a._data)
        if np.isnan(data).any():
            raise LinAlgError("linalg.svd: The algorithm failed to converge because the input "
                              "matrix contained non-finite values.")
        if not np.isfinite(data).all():  # PyTorch: NaN singular values for an infinite input
            k = min(data.shape[-2:])
            ctx.a = a
            ctx.u = _on_device_of(np.full(data.shape[:-1] + (k,), np.nan, data.dtype), a)
            ctx.vt = _on_device_of(np.full(data.shape[:-2] + (k, data.shape[-1]), np.nan,
                                           data.dtype), a)
            return _on_device_of(np.full(data.shape[:-2] + (k,), np.nan, data.dtype), a)
        ctx.a = a
        u, s, vt = np.linalg.svd(data, full_matrices=False)
        ctx.u, ctx.vt = _on_device_of(u, a), _on_device_of(vt, a)
        return _on_device_of(s, a)

    @staticmethod
    def backward(ctx, grad):
        return SvdvalsGrad.apply(grad, ctx.a, ctx.u, ctx.vt)


class SvdvalsGrad(Function):
    """The backward of :class:`Svdvals`, ``U diag(g) V^T``, as a node of its own: its
    derivative needs the derivative of the singular vectors, which minitorch does not
    implement, so differentiating it (a second derivative of ``svdvals``) raises instead of
    silently treating ``U`` and ``V`` as constants."""

    node_name = "LinalgSvdBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)  # the gradient, and A (which U and V depend on)

    @staticmethod
    def forward(ctx, grad, a, u, vt):
        return _wrap((u._data * grad._data[..., None, :]) @ vt._data)

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("minitorch does not implement the second derivative of "
                                  "linalg.svdvals (it needs the derivative of the singular "
                                  "vectors)")


def svdvals(A: Tensor) -> Tensor:  # noqa: N803
    """The singular values of ``A`` (of each matrix of a batch), in descending order."""
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    _check_float(A, "linalg.svd")
    _check_low_precision(A, "linalg_svd_cpu", NotImplementedError)
    return Svdvals.apply(A)


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

    @staticmethod
    def forward(ctx, a, b, dim):
        need_a, need_b = ctx.needs_input_grad[:2]
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.dim, ctx.shapes = dim, (a._data.shape, b._data.shape)
        x, y = a._data, b._data
        out = array_module(x).cross(x, y, axis=dim)
        return _wrap(out.astype(np.result_type(x, y), copy=False))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        ga = gb = None
        if b is not None:
            ga = Cross.apply(b.expand(grad.shape), grad, ctx.dim).sum_to_size(ctx.shapes[0])
        if a is not None:
            gb = Cross.apply(grad, a.expand(grad.shape), ctx.dim).sum_to_size(ctx.shapes[1])
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
            u, vh = u[..., :k], vh[..., :k, :]
            g_u = None if g_u is None else g_u[..., :k]
            g_vh = None if g_vh is None else g_vh[..., :k, :]
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
    eye = _wrap(array_module(e._data).eye(e.shape[-1], dtype=np.bool_))
    e = e.masked_fill(eye, 1.0)  # any non-zero: the diagonal is 0 / e
    if g_u is not None and g_vh is not None:
        g_a = (uhgu * s.unsqueeze(-2) + s.unsqueeze(-1) * vhgv) / e
    elif g_u is not None:
        g_a = uhgu * (s.unsqueeze(-2) / e)
    else:
        g_a = s.unsqueeze(-1) * (vhgv / e)
    if g_s is not None:
        g_a = g_a + g_s.unsqueeze(-1) * eye.to(g_s.dtype)  # diag_embed(gS)
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
        s = 0.5 * (p + _mT(p.tril(-1)))
        return solve(low, solve(_mT(low), s), left=False), None, None


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
        vhgv = _mT(vectors) @ g_vectors
        skew = 0.5 * (vhgv - _mT(vhgv))
        gaps = values.unsqueeze(-2) - values.unsqueeze(-1)  # E_ij = L_j - L_i
        eye = _wrap(array_module(gaps._data).eye(gaps.shape[-1], dtype=np.bool_))
        inner = skew / gaps.masked_fill(eye, 1.0)
        if g_values is not None:
            inner = inner + g_values.unsqueeze(-1) * eye.to(inner.dtype)
        return vectors @ inner @ _mT(vectors), None


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
        if g_r is None:  # R's gradient is zero: V = Q^T Y still passes gQ on to Y
            g_r = _wrap(array_module(r._data).zeros(r.shape, r._data.dtype))
        u, g_u, g_v = r[..., :m], g_r[..., :m], g_r[..., m:]
        y = q @ r[..., m:]
        g_q = y @ _mT(g_v) if g_q is None else g_q + y @ _mT(g_v)
        return _shape_ops.cat([_qr_backward_tall(g_q, g_u, q, u), q @ g_v], -1), None


def _qr_backward_tall(g_q, g_r, q, r):
    """``(gQ + Q copyltu(M)) R^-T`` with ``M = R gR^T - gQ^T Q`` (``m >= n``)."""
    if g_r is None:
        m_ = -(_mT(g_q) @ q)
    else:
        m_ = r @ _mT(g_r) if g_q is None else r @ _mT(g_r) - _mT(g_q) @ q
    sym = m_.tril() + _mT(m_.tril(-1))
    b = q @ sym if g_q is None else g_q + q @ sym
    return _mT(solve(r, _mT(b)))


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
        p_t, g_t = _mT(p), _mT(grad)
        if a.shape[-2] <= a.shape[-1]:
            k = g_t @ p
            k_p_t = k @ p_t
            out = -_mT(p @ k) + k_p_t - (a @ p) @ k_p_t + (p_t @ p) @ (g_t - k @ a)
        else:
            k = p @ g_t
            p_t_k = p_t @ k
            out = -_mT(k @ p) + (g_t - a @ k) @ p @ p_t + p_t_k - p_t_k @ p @ a
        return out, None, None, None


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

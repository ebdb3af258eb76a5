"""Ready-made parametrizations, as ``torch.nn.utils.parametrizations``: ``orthogonal``,
``weight_norm`` and ``spectral_norm``, registered with :mod:`minitorch.nn.utils.parametrize`.

``weight_norm(layer)`` stores the weight as a norm ``g`` (``original0``) and a direction ``v``
(``original1``) and computes ``weight = g * v / ||v||``; ``spectral_norm(layer)`` divides the
weight by an estimate of its largest singular value, refined by one step of power iteration
at each access in training mode. ``orthogonal(layer)`` keeps the weight orthogonal: it is
computed from an unconstrained tensor by a matrix exponential, a Cayley map or a product of
Householder reflections.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> from minitorch.nn.utils.parametrizations import weight_norm
    >>> layer = weight_norm(nn.Linear(3, 2))
    >>> list(layer.state_dict())
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""

from __future__ import annotations

from enum import Enum, auto

import numpy as np

from minitorch import linalg
from minitorch._backend import to_numpy
from minitorch._creation import eye, randn, zeros_like
from minitorch._dtype import finfo
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import no_grad
from minitorch.nn import functional as F
from minitorch.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from minitorch.nn.modules.module import Module
from minitorch.nn.utils import parametrize
from minitorch.ops.shape import cat

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


# ---------------------------------------------------------------- weight_norm
def _norm_except_dim(v: Tensor, dim: int) -> Tensor:
    """PyTorch's ``norm_except_dim(v, 2, dim)``: the 2-norm over every dimension but ``dim``,
    kept as size 1 (``dim=-1``: the norm of all of ``v``, a 0-d tensor)."""
    if dim == -1:
        return v.norm(2)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(2, 1).view(
            (v.size(0),) + (1,) * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(dim)).norm(2, 0).view(
            (1,) * (v.dim() - 1) + (v.size(dim),))
    return _norm_except_dim(v.transpose(0, dim), 0).transpose(0, dim)


class WeightNormInterface(Function):
    """``g * v / ||v||`` with the norm over every dimension but the first or the last one
    (PyTorch's fused kernel, whose node is ``WeightNormInterfaceBackward0``).

    With ``s`` the sum of ``grad * v`` over the normed dimensions, the gradients are
    ``s / ||v||`` for ``g`` and ``g / ||v|| * (grad - v * s / ||v||^2)`` for ``v``.
    """

    node_name = "WeightNormInterfaceBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, v, g, dim):
        vd = v._data
        axes = tuple(a for a in range(vd.ndim) if a != dim)
        norm = np.sqrt((vd * vd).sum(axis=axes, keepdims=True))
        ctx.save_for_backward(v, g)
        ctx.axes = axes
        return _wrap((vd * (g._data / norm)).astype(vd.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        v, g = ctx.saved_tensors
        norm = (v * v).sum(ctx.axes, keepdim=True).sqrt()
        grad_g = (grad * v).sum(ctx.axes, keepdim=True) / norm
        grad_v = g / norm * (grad - v * (grad_g / norm))
        return grad_v, grad_g


def _weight_norm(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """PyTorch's ``_weight_norm``: the fused kernel where the kept dimension is the first or
    the last one (and neither tensor is float16), else the same formula in tensor operations."""
    half = "float16" in (str(v.dtype), str(g.dtype))
    if not half and dim in (0, v.dim() - 1):
        return WeightNormInterface.apply(v.contiguous(), g.contiguous(), dim)
    return v * (g / _norm_except_dim(v, dim))


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Store ``module.<name>`` as a magnitude ``g`` (``original0``) and a direction ``v``
    (``original1``), so that ``weight = g * v / ||v||``, the norm taken over every dimension
    but ``dim`` (over all of them for ``dim=None``; as in PyTorch, ``dim=-1`` means that too).

    (PyTorch also loads a state_dict saved with the old ``weight_g``/``weight_v`` keys into it,
    through a load_state_dict pre-hook; minitorch's modules have no such hooks yet.)
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


# ---------------------------------------------------------------- spectral_norm
class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            # u and v, the singular vectors' estimates, start random and are refined 15 times
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        """The weight as a matrix whose rows run along ``dim``."""
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        """``n_power_iterations`` steps of power iteration, written into the buffers."""
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(weight_mat.H.mv(self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()  # the buffers change in place later
        sigma = u.vdot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its spectral norm (largest singular value), estimated by
    power iteration on the weight seen as a matrix whose rows run along ``dim`` (1 for the
    transposed convolutions, else 0); ``n_power_iterations`` steps each time the weight is
    computed in training mode (none in eval mode)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


# ---------------------------------------------------------------- orthogonal
def _geqrf(a: Tensor) -> tuple[Tensor, Tensor]:
    """LAPACK's ``geqrf`` of a matrix (of each of a batch), as ``torch.geqrf``: the
    Householder reflectors below the diagonal, ``R`` on and above it, and the ``tau``s
    (NumPy's ``qr(mode="raw")``, which gives them transposed)."""
    data = to_numpy(a._data)
    h, tau = np.linalg.qr(data, mode="raw")
    return (_wrap(np.ascontiguousarray(np.swapaxes(h, -1, -2)).astype(data.dtype, copy=False)),
            _wrap(tau.astype(data.dtype, copy=False)))


def _is_orthogonal(q: Tensor) -> bool:
    n, k = q.size(-2), q.size(-1)
    eps = 10.0 * n * finfo(q.dtype).eps  # a reasonable tolerance, not too large
    return (q.mH @ q).allclose(eye(k, dtype=q.dtype, device=q.device), atol=eps)


def _make_orthogonal(a: Tensor) -> Tensor:
    """The ``Q`` of ``A = Q R`` (``A`` tall) with the diagonal of ``R`` non-negative."""
    x, tau = _geqrf(a)
    q = linalg.householder_product(x, tau)
    q *= x.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)  # (diag(x) is diag(R))
    return q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """The orthogonal ``Q`` (of the shape of ``X``, transposed when wide) made from ``X``:
    ``exp(A)`` or the Cayley map ``(I - A/2)^-1 (I + A/2)`` of the skew-symmetric ``A`` built
    from the lower triangle of ``X``, or the product of the Householder reflections stored
    below the diagonal of ``X`` (whose diagonal, 1s and -1s, gives the columns' signs). With
    the trivialization, the result is ``base @ Q``, ``base`` an orthogonal matrix that
    assigning a value sets."""

    def __init__(self, weight: Tensor, orthogonal_map: _OrthMaps, *,
                 use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x: Tensor) -> Tensor:
        n, k = x.size(-2), x.size(-1)
        transposed = n < k
        if transposed:
            x = x.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            x = x.tril()  # (n k - k (k - 1) / 2 parameters are enough)
            if n != k:  # embedded in a square matrix
                x = cat([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
            a = x - x.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                q = linalg.matrix_exp(a)
            else:
                eye_n = eye(n, dtype=a.dtype, device=a.device)
                q = linalg.solve(eye_n.add(a, alpha=-0.5), eye_n.add(a, alpha=0.5))
            if n != k:
                q = q[..., :k]
        else:
            a = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (a * a).sum(dim=-2))
            q = linalg.householder_product(a, tau)
            q = q * x.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)  # (not differentiated)
        if hasattr(self, "base"):
            q = self.base @ q
        if transposed:
            q = q.mT
        return q

    @no_grad()
    def right_inverse(self, q: Tensor) -> Tensor:
        if q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {q.shape}.")
        q_init = q
        n, k = q.size(-2), q.size(-1)
        transpose = n < k
        if transpose:
            q = q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential or the Cayley "
                    "parametrizations when use_trivialization=False.")
            # the reflectors of Q's QR, with the signs that make diag(R) positive on the diagonal
            a, tau = _geqrf(q)
            a.diagonal(dim1=-2, dim2=-1).sign_()
            a.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1  # (LAPACK skipped that reflection)
            return a.mT if transpose else a
        if n == k:
            q = q.clone() if _is_orthogonal(q) else _make_orthogonal(q)
        else:  # completed to an orthogonal n x n matrix
            extra = randn(*(q.size()[:-2] + (n, n - k)), dtype=q.dtype, device=q.device)
            q = _make_orthogonal(cat([q, extra], dim=-1))
        self.base = q
        # -Id, so that householder(zeros(m, n)) is eye(m, n) (the diagonal gives the signs)
        neg_id = zeros_like(q_init)
        neg_id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Make ``module.<name>`` (a matrix or a batch of them) orthogonal: orthonormal columns
    when it is tall, orthonormal rows when it is wide. ``orthogonal_map`` is
    ``"matrix_exp"``, ``"cayley"`` or ``"householder"`` (default: ``"matrix_exp"`` for a
    square matrix, ``"householder"`` otherwise). With ``use_trivialization`` (the default) an
    orthogonal ``base`` is kept under ``module.parametrizations.<name>[0].base``, and the
    initial value is the original tensor, made orthogonal by a QR decomposition unless it
    already is (as with ``"householder"`` without the trivialization).

    >>> import minitorch
    >>> from minitorch import nn
    >>> from minitorch.nn.utils.parametrizations import orthogonal
    >>> layer = orthogonal(nn.Linear(3, 5))
    >>> (layer.weight.T @ layer.weight).allclose(minitorch.eye(3), atol=1e-6)
    True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError("Expected a matrix or batch of matrices. "
                         f"Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1)
                          or weight.is_complex() else "householder")
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", '
                         f'"householder". Got: {orthogonal_map}')
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module

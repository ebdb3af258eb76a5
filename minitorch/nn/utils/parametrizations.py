"""Ready-made parametrizations, as ``torch.nn.utils.parametrizations``: ``weight_norm`` and
``spectral_norm``, registered with :mod:`minitorch.nn.utils.parametrize`.

``weight_norm(layer)`` stores the weight as a norm ``g`` (``original0``) and a direction ``v``
(``original1``) and computes ``weight = g * v / ||v||``; ``spectral_norm(layer)`` divides the
weight by an estimate of its largest singular value, refined by one step of power iteration
at each access in training mode.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> from minitorch.nn.utils.parametrizations import weight_norm
    >>> layer = weight_norm(nn.Linear(3, 2))
    >>> list(layer.state_dict())
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""

from __future__ import annotations

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import no_grad
from minitorch.nn import functional as F
from minitorch.nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from minitorch.nn.modules.module import Module
from minitorch.nn.utils import parametrize

__all__ = ["spectral_norm", "weight_norm"]


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

"""The ``Function`` behind ``nn.functional.affine_grid`` (``AffineGridGeneratorBackward0``).

Each output point of an ``(N, C, H, W)`` (or ``(N, C, D, H, W)``) image gets its
normalised coordinates ``(x, y[, z], 1)`` in ``[-1, 1]`` (with ``align_corners=False`` the
centres of the pixels, ``linspace(-1, 1, n) * (n - 1) / n``), and the grid is that base times
each batch's ``theta`` transposed: linear in ``theta``, so the gradient is the base transposed
times the grid's gradient.
"""

from __future__ import annotations

import numpy as np

from minitorch import _creation
from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops.linalg import bmm


def _steps(n: int, align_corners: bool, dtype, device):
    """``n`` coordinates from -1 to 1 (PyTorch's ``linspace_from_neg_one``)."""
    if n <= 1:
        return _creation.zeros(n, dtype=dtype, device=device)._data
    r = _creation.linspace(-1, 1, n, dtype=dtype, device=device)._data
    if not align_corners:
        r = r * r.dtype.type(n - 1) / r.dtype.type(n)
    return r


def base_grid(spatial: tuple, align_corners: bool, dtype, device):
    """The ``(prod(spatial), len(spatial) + 1)`` array of ``(x, y[, z], 1)`` rows, the last
    spatial dimension (x) varying fastest."""
    axes = [_steps(n, align_corners, dtype, device) for n in spatial]
    xp = array_module(axes[0])
    mesh = xp.meshgrid(*axes, indexing="ij")  # (z,) y, x
    cols = [m.reshape(-1) for m in reversed(mesh)]  # x, y (, z)
    cols.append(xp.ones_like(cols[0]))
    return xp.stack(cols, axis=1)


class AffineGridGenerator(Function):
    """``grid = base @ theta^T`` for each batch element."""

    node_name = "AffineGridGeneratorBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, theta, size, align_corners):
        t = theta._data
        spatial = tuple(size[2:])
        base = base_grid(spatial, align_corners, theta.dtype, theta.device)
        ctx.base, ctx.shape = base, tuple(theta.shape)
        with np.errstate(invalid="ignore", over="ignore"):
            out = array_module(t).matmul(base[None], t.transpose(0, 2, 1))
        return _wrap(out.reshape((size[0],) + spatial + (len(spatial),)))

    @staticmethod
    def backward(ctx, grad):
        n, k = ctx.shape[0], ctx.shape[1]
        base = _wrap(ctx.base).expand(n, -1, -1)
        return bmm(base.transpose(1, 2), grad.reshape(n, -1, k)).transpose(1, 2)

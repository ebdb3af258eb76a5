"""The ``Function`` classes behind ``nn.functional.grid_sample``: 4-D input (N, C, H, W) read
at a grid (N, Ho, Wo, 2) of ``(x, y)`` points (``GridSampler2DBackward0``), 5-D input
(N, C, D, H, W) at a grid (N, Do, Ho, Wo, 3) of ``(x, y, z)`` points
(``GridSampler3DBackward0``); each coordinate runs over ``[-1, 1]`` across its dimension.

A grid coordinate ``c`` becomes a pixel coordinate (``align_corners``: ``(c + 1) / 2 *
(size - 1)``, else ``(c + 1) * size / 2 - 0.5``), which ``padding_mode`` ``"border"`` clips
to the image and ``"reflection"`` reflects back into it (``"zeros"``: reads outside give 0).
``bilinear`` (trilinear in 5-D) blends the 4 (8) pixels around the point, ``nearest`` reads
the closest one (ties to even), ``bicubic`` (4-D only) blends the 4 x 4 pixels around it
with Keys' cubic weights (``A = -0.75``) and pads each of them instead of the point. The
pixel coordinate is a piecewise linear function of the grid coordinate: its slope (the
unnormalising scale, 0 where clipped, -1 where reflected) is kept to carry the gradient back
to the grid. Both gradients come from one node, as PyTorch's ``grid_sampler_2d_backward``
(``GridSampler2DBackwardBackward0``, ``3D`` in 5-D), whose own backward differentiates the
same formula.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from minitorch._backend import array_module
from minitorch._backend import to_numpy as _to_numpy
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import KernelNode
from minitorch.ops.arithmetic import where
from minitorch.ops.shape import stack


def _clip(c, size: int, nan_to: int = 0):
    """PyTorch's ``clip_coordinates`` and its slope (0 at and beyond either edge); a NaN goes
    to ``nan_to`` (0 in PyTorch's 2-d kernel, ``size - 1`` in its 3-d one)."""
    inside = (c > 0) & (c < size - 1)
    return np.where(inside, c, np.clip(np.nan_to_num(c, nan=nan_to), 0, size - 1)), inside


def _reflect(c, twice_low: int, twice_high: int):
    """PyTorch's ``reflect_coordinates`` and its slope (+1 or -1)."""
    if twice_low == twice_high:
        return np.zeros_like(c), np.zeros_like(c)
    low, span = c.dtype.type(twice_low / 2), c.dtype.type((twice_high - twice_low) / 2)
    d = c - low
    sign = np.where(d < 0, -1, 1).astype(c.dtype)
    d = np.abs(d)
    flips = np.floor(d / span)
    extra = np.fmod(d, span)
    even = np.fmod(flips, 2) == 0
    return np.where(even, extra + low, span - extra + low), sign * np.where(even, 1, -1)


def _unnormalize(c, size: int, align_corners: bool):
    """PyTorch's ``grid_sampler_unnormalize``: (pixel coordinate, its slope in c)."""
    t = c.dtype.type
    if align_corners:
        scale = t(size - 1) / t(2)
        return (c + t(1)) * scale, scale
    scale = t(size) / t(2)
    return (c + t(1)) * scale - t(0.5), scale


def _pad(pix, size: int, padding_mode: str, align_corners: bool, nan_to: int = 0):
    """PyTorch's ``compute_coordinates``: (padded coordinate, its slope in ``pix``)."""
    slope = np.ones_like(pix)
    if padding_mode == "reflection":
        pix, sign = _reflect(pix, 0, 2 * (size - 1)) if align_corners else \
            _reflect(pix, -1, 2 * size - 1)
        slope = slope * sign
    if padding_mode in ("border", "reflection"):
        pix, inside = _clip(pix, size, nan_to)
        slope = slope * inside
    return pix, slope


def source_index(c, size: int, padding_mode: str, align_corners: bool, nan_to: int = 0):
    """``(pixel coordinate, its slope in c)`` for grid coordinates ``c`` (an array)."""
    pix, scale = _unnormalize(c, size, align_corners)
    pix, slope = _pad(pix, size, padding_mode, align_corners, nan_to)
    return pix, slope * scale


def _weights(mode: str, t):
    """``{offset: weight}`` of the taps at ``floor(p) + offset`` along one dimension, ``t``
    being ``p - floor(p)`` (arrays or tensors alike: the forward and backward share it)."""
    if mode == "bilinear":
        return {0: 1 - t, 1: t}
    a = -0.75  # Keys' cubic convolution, PyTorch's get_cubic_upsample_coefficients
    near = lambda s: ((a + 2) * s - (a + 3)) * s * s + 1  # noqa: E731  |s| <= 1
    far = lambda s: ((a * s - 5 * a) * s + 8 * a) * s - 4 * a  # noqa: E731  1 < |s| < 2
    return {-1: far(t + 1), 0: near(t), 1: near(1 - t), 2: far(2 - t)}


def _weight_slopes(mode: str, t):
    """The derivatives in ``t`` of :func:`_weights` (tensors: the grid's gradient)."""
    if mode == "bilinear":
        return {0: -1.0, 1: 1.0}
    a = -0.75
    near = lambda s: (3 * (a + 2) * s - 2 * (a + 3)) * s  # noqa: E731
    far = lambda s: (3 * a * s - 10 * a) * s + 8 * a  # noqa: E731
    return {-1: far(t + 1), 0: near(t), 1: -near(1 - t), 2: -far(2 - t)}


def _taps(pix, sizes, mode: str, pad=None):
    """``[(indices, in_bounds, offsets)]``: the pixels read (one index array per spatial
    dimension, 0 where out of bounds), in PyTorch's order (nw, ne, sw, se in 2-D); ``pad``
    maps each tap's index into the image (``bicubic``, which pads the taps, not the point)."""
    with np.errstate(invalid="ignore"):
        if mode == "nearest":
            bases, offsets = [np.round(p) for p in pix], [(0,) * len(pix)]
        else:
            bases = [np.floor(p) for p in pix]
            offsets = itertools.product((0, 1) if mode == "bilinear" else (-1, 0, 1, 2),
                                        repeat=len(pix))
        taps = []
        for off in offsets:
            idx = [b + o for b, o in zip(bases, off)]
            if pad is not None:
                idx = [pad(i, s) for i, s in zip(idx, sizes)]
            ok = np.logical_and.reduce([(i >= 0) & (i <= s - 1) for i, s in zip(idx, sizes)])
            taps.append(([np.where(ok, i, 0).astype(np.int64) for i in idx], ok, off))
    return taps


def _plan(shape, g, mode: str, padding_mode: str, align_corners: bool):
    """The pixel coordinates (one array per spatial dimension, D, H, W), their slopes in the
    grid, and the taps; the grid's last axis runs the other way (x, y, z)."""
    sizes = shape[2:]
    nd = len(sizes)
    pix, slopes = [], []
    for d, size in enumerate(sizes):
        c = g[..., nd - 1 - d]
        if mode == "bicubic":
            p, s = _unnormalize(c, size, align_corners)
            s = np.full_like(c, s)
        else:
            p, s = source_index(c, size, padding_mode, align_corners, (size - 1) * (nd == 3))
        pix.append(p)
        slopes.append(s)
    pad = None
    if mode == "bicubic":
        pad = lambda i, s: _pad(i, s, padding_mode, align_corners)[0]  # noqa: E731
    return pix, slopes, mode, tuple(shape), _taps(pix, sizes, mode, pad)


class GridSampler2D(Function):
    """``input`` (N, C, H, W) read at ``grid`` (N, Ho, Wo, 2): (N, C, Ho, Wo)."""

    node_name = "GridSampler2DBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, grid, mode, padding_mode, align_corners):
        xa = x._data
        xp = array_module(xa)
        ctx.plan = pix, _, _, shape, taps = _plan(xa.shape, _to_numpy(grid._data), mode,
                                                 padding_mode, align_corners)
        ctx.save_for_backward(x, grid)
        batch = np.arange(shape[0]).reshape((-1,) + (1,) * len(pix))

        def read(idx, ok):  # (N, C, *out), 0 outside
            v = xa[(xp.asarray(batch), slice(None)) + tuple(xp.asarray(i) for i in idx)]
            return xp.moveaxis(v * xp.asarray(ok[..., None]).astype(xa.dtype), -1, 1)

        if mode == "nearest":
            return _wrap(read(*taps[0][:2]))
        with np.errstate(invalid="ignore", over="ignore"):
            weights = [_weights(mode, p - np.floor(p)) for p in pix]
            out = None
            for idx, ok, off in taps:
                wk = math.prod(w[o] for w, o in zip(weights, off))
                term = read(idx, ok) * xp.asarray(wk.astype(xa.dtype))[:, None]
                if len(pix) == 3:  # PyTorch's 3-d kernel skips the taps outside (NaN weights)
                    term = xp.where(xp.asarray(ok[:, None]), term, 0)
                out = term if out is None else out + term
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        x, grid = ctx.saved_tensors
        # as PyTorch: both gradients from one grid_sampler_{2,3}d_backward node
        grad_cls = GridSampler2DGrad if len(ctx.plan[0]) == 2 else GridSampler3DGrad
        return grad_cls.apply(grad, x, grid, ctx.plan, tuple(ctx.needs_input_grad[:2]))


class GridSampler3D(GridSampler2D):
    """``input`` (N, C, D, H, W) read at ``grid`` (N, Do, Ho, Wo, 3): (N, C, Do, Ho, Wo)."""

    node_name = "GridSampler3DBackward0"
    _builtin = True


# gridsample task: the gradients as one node, as PyTorch's grid_sampler_2d_backward
class GridSampler2DGrad(KernelNode):
    """PyTorch's ``grid_sampler_2d_backward`` as one node (``GridSampler2DBackwardBackward0``,
    edges: the output gradient, the input, the grid), giving the gradients of the input and
    the grid (where ``mask`` asks): :func:`_grid_sample_grads`, not recorded. Its backward
    differentiates that same formula (ops/_util.differentiate_kernel)."""

    node_name = "GridSampler2DBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # grad, the input, the grid; then the plan and the mask
    _formula = staticmethod(lambda *args: _grid_sample_grads(*args))  # (defined below)


class GridSampler3DGrad(GridSampler2DGrad):
    """The same for 5-D input: ``grid_sampler_3d_backward`` (``GridSampler3DBackwardBackward0``)."""

    node_name = "GridSampler3DBackwardBackward0"
    _builtin = True


def _grid_sample_grads(grad, x, grid, plan, mask=(True, True)):
    """The gradients of ``input`` and ``grid`` (each where ``mask`` asks, else None) from
    ``grad``, that of the output, in tensor ops (so they have gradients too)."""
    pix, slopes, mode, shape, taps = plan
    n, c, *sizes = shape
    nd = len(sizes)
    xp = array_module(grad._data)
    dtype = grad._data.dtype

    def const(a):
        return _wrap(xp.asarray(np.asarray(a).astype(dtype)))

    flat_x = x.reshape(n, c, math.prod(sizes))
    gx = _wrap(xp.zeros((n, c, math.prod(sizes)), dtype=dtype))
    points = math.prod(pix[0].shape[1:])

    def flat_index(idx):  # (N, C, points) positions in the flattened image
        flat = np.ravel_multi_index(tuple(idx), sizes).reshape(n, 1, points)
        return _wrap(xp.asarray(np.broadcast_to(flat, (n, c, points)).copy()))

    if mode == "nearest":
        idx, ok, _ = taps[0]
        if mask[0]:
            gx = gx.scatter_add(2, flat_index(idx),
                                (grad * const(ok[:, None])).reshape(n, c, points))
        return (gx.reshape(shape) if mask[0] else None,
                _wrap(xp.zeros(tuple(grid.shape), dtype=dtype)) if mask[1] else None)  # 0 (NaN)
    # the pixel coordinates as functions of the grid (their values, their slopes)
    t = []
    for d in range(nd):
        gd = grid[..., nd - 1 - d]
        p = gd * const(slopes[d]) + const(pix[d] - _to_numpy(gd._data) * slopes[d])
        t.append(p - const(np.floor(pix[d])))
    weights = [_weights(mode, td) for td in t]
    dweights = [_weight_slopes(mode, td) for td in t]
    dgrid = [None] * nd
    for idx, ok, off in taps:
        fidx = flat_index(idx)
        inside = _wrap(xp.asarray(ok[:, None]))  # (a NaN weight outside adds nothing)
        if mask[0]:
            wk = math.prod(w[o] for w, o in zip(weights, off))
            gx = gx.scatter_add(2, fidx, (grad * where(inside, wk.unsqueeze(1), 0.0)).reshape(
                n, c, points))
        if not mask[1]:
            continue
        v = flat_x.gather(2, fidx).reshape(grad.shape) * const(ok[:, None]) * grad  # weighted
        for d in range(nd):
            dw = dweights[d][off[d]]
            for e in range(nd):
                if e != d:
                    dw = dw * weights[e][off[e]]
            term = (v * dw.unsqueeze(1)).sum(1)
            if nd == 3:  # skipped outside, as in the forward
                term = where(inside[:, 0], term, 0.0)
            dgrid[d] = term if dgrid[d] is None else dgrid[d] + term
    return (gx.reshape(shape) if mask[0] else None,
            stack([dgrid[d] * const(slopes[d]) for d in reversed(range(nd))], -1)
            if mask[1] else None)

"""The ``Function`` behind ``nn.functional.grid_sample`` for 4-D input
(``GridSampler2DBackward0``): each output point reads ``input`` at the point its ``grid``
entry names, ``(x, y)`` in ``[-1, 1]`` across the width and height.

A grid coordinate ``c`` becomes a pixel coordinate (``align_corners``: ``(c + 1) / 2 *
(size - 1)``, else ``(c + 1) * size / 2 - 0.5``), which ``padding_mode`` ``"border"`` clips
to the image and ``"reflection"`` reflects back into it (``"zeros"``: reads outside give 0).
``bilinear`` blends the four pixels around the point, ``nearest`` reads the closest one
(ties to even). The pixel coordinate is a piecewise linear function of the grid coordinate:
its slope (the unnormalising scale, 0 where clipped, -1 where reflected) is kept to carry
the gradient back to the grid.
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._backend import to_numpy as _to_numpy
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops.arithmetic import where
from minitorch.ops.shape import stack


def _clip(c, size: int):
    """PyTorch's ``clip_coordinates`` and its slope (0 at and beyond either edge)."""
    inside = (c > 0) & (c < size - 1)
    return np.where(inside, c, np.clip(np.nan_to_num(c), 0, size - 1)), inside


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


def source_index(c, size: int, padding_mode: str, align_corners: bool):
    """``(pixel coordinate, its slope in c)`` for grid coordinates ``c`` (an array)."""
    t = c.dtype.type
    if align_corners:
        scale = t(size - 1) / t(2)
        pix = (c + t(1)) * scale
    else:
        scale = t(size) / t(2)
        pix = (c + t(1)) * scale - t(0.5)
    slope = np.full_like(c, scale)
    if padding_mode == "border":
        pix, inside = _clip(pix, size)
        slope = slope * inside
    elif padding_mode == "reflection":
        pix, sign = _reflect(pix, 0, 2 * (size - 1)) if align_corners else \
            _reflect(pix, -1, 2 * size - 1)
        slope = slope * sign
        pix, inside = _clip(pix, size)
        slope = slope * inside
    return pix, slope


def _taps(ix, iy, h: int, w: int, mode: str):
    """``[(y, x, in_bounds, kind)]``: the pixels read, the corners for ``bilinear``."""
    with np.errstate(invalid="ignore"):
        if mode == "nearest":
            cols, rows = [np.round(ix)], [np.round(iy)]
            kinds = [("n", "n")]
        else:
            x0, y0 = np.floor(ix), np.floor(iy)
            cols, rows = [x0, x0 + 1], [y0, y0 + 1]
            kinds = [(a, b) for a in "ns" for b in "we"]
    taps = []
    for ky, kx in kinds:
        y = rows[0] if ky == "n" else rows[1]
        x = cols[0] if kx in "nw" else cols[1]
        ok = (x >= 0) & (x <= w - 1) & (y >= 0) & (y <= h - 1)  # False for NaN
        taps.append((np.where(ok, y, 0).astype(np.int64), np.where(ok, x, 0).astype(np.int64),
                     ok, (ky, kx)))
    return taps


class GridSampler2D(Function):
    """``input`` (N, C, H, W) read at ``grid`` (N, Ho, Wo, 2): (N, C, Ho, Wo)."""

    node_name = "GridSampler2DBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, grid, mode, padding_mode, align_corners):
        xa, g = x._data, _to_numpy(grid._data)
        xp = array_module(xa)
        n, c, h, w = xa.shape
        ix, sx = source_index(g[..., 0], w, padding_mode, align_corners)
        iy, sy = source_index(g[..., 1], h, padding_mode, align_corners)
        ctx.plan = (ix, iy, sx, sy, mode, (n, c, h, w))
        ctx.save_for_backward(x, grid)
        batch = np.arange(n)[:, None, None]

        def read(y, xx, ok):  # (N, C, Ho, Wo), 0 outside
            v = xa[xp.asarray(batch), :, xp.asarray(y), xp.asarray(xx)]  # (N, Ho, Wo, C)
            return xp.moveaxis(v * xp.asarray(ok[..., None]).astype(xa.dtype), -1, 1)

        taps = _taps(ix, iy, h, w, mode)
        if mode == "nearest":
            return _wrap(read(*taps[0][:3]))
        tx, ty = ix - np.floor(ix), iy - np.floor(iy)
        weights = {"n": 1 - ty, "s": ty, "w": 1 - tx, "e": tx}
        out = None
        with np.errstate(invalid="ignore", over="ignore"):
            for y, xx, ok, (ky, kx) in taps:  # nw, ne, sw, se: PyTorch's order
                wk = xp.asarray((weights[ky] * weights[kx]).astype(xa.dtype))[:, None]
                term = read(y, xx, ok) * wk
                out = term if out is None else out + term
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        x, grid = ctx.saved_tensors
        return _grid_sample_grads(x, grid, grad, ctx.plan)


def _grid_sample_grads(x, grid, grad, plan):
    """The gradients of ``input`` and ``grid``, in tensor ops (so they have gradients too)."""
    ix, iy, sx, sy, mode, (n, c, h, w) = plan
    xp = array_module(grad._data)
    dtype = grad._data.dtype

    def const(a):
        return _wrap(xp.asarray(np.asarray(a).astype(dtype)))

    taps = _taps(ix, iy, h, w, mode)
    flat_x = x.reshape(n, c, h * w)
    gx = _wrap(xp.zeros((n, c, h * w), dtype=dtype))
    points = ix.shape[1] * ix.shape[2]

    def flat_index(y, xx):  # (N, C, Ho * Wo) positions in the flattened image
        return _wrap(xp.asarray(np.broadcast_to((y * w + xx).reshape(n, 1, points),
                                               (n, c, points)).copy()))

    if mode == "nearest":
        y, xx, ok, _ = taps[0]
        gx = gx.scatter_add(2, flat_index(y, xx), (grad * const(ok[:, None])).reshape(n, c, points))
        return gx.reshape(n, c, h, w), grid * 0
    # the pixel coordinates as functions of the grid (their values, their slopes)
    gxs, gys = grid[..., 0], grid[..., 1]
    px = gxs * const(sx) + const(ix - _to_numpy(gxs._data) * sx)
    py = gys * const(sy) + const(iy - _to_numpy(gys._data) * sy)
    fx, fy = const(np.floor(ix)), const(np.floor(iy))
    tx, ty = px - fx, py - fy
    weights = {"n": 1 - ty, "s": ty, "w": 1 - tx, "e": tx}
    d_dx = {"w": -1.0, "e": 1.0}
    d_dy = {"n": -1.0, "s": 1.0}
    dix = diy = None
    for y, xx, ok, (ky, kx) in taps:
        idx = flat_index(y, xx)
        mask = const(ok[:, None])
        inside = _wrap(xp.asarray(ok[:, None]))  # (a NaN weight outside adds nothing)
        wk = where(inside, (weights[ky] * weights[kx]).unsqueeze(1), 0.0)
        gx = gx.scatter_add(2, idx, (grad * wk).reshape(n, c, points))
        v = flat_x.gather(2, idx).reshape(grad.shape) * mask * grad  # the value read, weighted
        tx_term = (v * (weights[ky].unsqueeze(1) * d_dx[kx])).sum(1)
        ty_term = (v * (weights[kx].unsqueeze(1) * d_dy[ky])).sum(1)
        dix = tx_term if dix is None else dix + tx_term
        diy = ty_term if diy is None else diy + ty_term
    return gx.reshape(n, c, h, w), stack([dix * const(sx), diy * const(sy)], -1)

"""Resizing images and sequences: the ``Function`` behind ``nn.functional.interpolate`` and
``nn.Upsample`` (``UpsampleNearest2DBackward0``, ``UpsampleBilinear2DBackward0``, ...).

Resizing works one spatial dimension at a time. For each output position, PyTorch's rules pick
where it comes from in the input:

* ``nearest``: ``src = floor(dst * scale)`` (``nearest-exact``: ``floor((dst + 0.5) * scale)``);
* ``linear``/``bilinear``: the point ``src = (dst + 0.5) * scale - 0.5`` (at least 0), blended
  from its two neighbours ``i0 = floor(src)`` and ``i1 = i0 + 1`` with weights
  ``1 - (src - i0)`` and ``src - i0``; with ``align_corners=True``, ``src = dst * scale``.

* ``antialias=True`` (``bilinear``, ``bicubic``): see :func:`_antialias_plan`.
* ``bicubic``: the point ``src = (dst + 0.5) * scale - 0.5`` (not clamped), blended from its
  four neighbours ``floor(src) - 1 .. floor(src) + 2`` (clamped to the border) with Keys' cubic
  convolution weights (``A = -0.75``) of ``t = src - floor(src)``.

``scale`` is ``1 / scale_factor`` when a scale factor is given, else ``in_size / out_size``
(``(in - 1) / (out - 1)`` for ``align_corners``); a dimension whose size does not change is
copied as it is, whatever the scale factor (except by ``nearest-exact`` and ``bicubic``, as in
PyTorch; bicubic's gradient is copied then, though).
The positions are computed in float32 for float32 and float16 inputs, as PyTorch computes
them. Resizing is linear in the input, so the gradient sends each output's gradient back to
the input positions it was made from, with the same weights.
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops.indexing import _add_at


def _source_index(mode: str, in_size: int, out_size: int, scale_factor, align_corners, dtype):
    """The plan of one dimension: ``("nearest", idx)``, ``("linear", i0, i1, l0, l1)`` or
    ``("cubic", idx, w)``."""
    opmath = np.float64 if dtype == np.float64 else np.float32
    dst = np.arange(out_size, dtype=opmath)
    if out_size == in_size and mode not in ("nearest-exact", "bicubic"):  # kept as it is
        return ("nearest", np.arange(out_size))
    if mode in ("nearest", "nearest-exact"):
        if mode == "nearest" and out_size == 2 * in_size:
            return ("nearest", np.arange(out_size) >> 1)
        scale = opmath(1.0 / scale_factor) if scale_factor else opmath(in_size / out_size)
        offset = opmath(0.5) if mode == "nearest-exact" else opmath(0.0)
        idx = np.floor((dst + offset) * scale).astype(np.int64)
        return ("nearest", np.minimum(idx, in_size - 1))
    if align_corners:
        scale = opmath((in_size - 1) / (out_size - 1)) if out_size > 1 else opmath(0)
        src = scale * dst
    else:
        scale = opmath(1.0 / scale_factor) if scale_factor else opmath(in_size / out_size)
        src = scale * (dst + opmath(0.5)) - opmath(0.5)
        if mode != "bicubic":  # cubic keeps the points left of the first pixel
            src = np.maximum(src, opmath(0))
    if mode == "bicubic":
        return _cubic_plan(src, in_size, opmath)
    i0 = src.astype(np.int64)  # src >= 0: truncation is floor
    i1 = np.where(i0 < in_size - 1, i0 + 1, i0)
    l1 = src - i0.astype(opmath)
    l0 = opmath(1) - l1
    return ("linear", i0, i1, l0, l1)


def _cubic_plan(src, in_size: int, opmath):
    """``("cubic", idx, w)``: the four neighbours (4, out) of each source point and their
    weights, as PyTorch computes them (``floorf``, ``t`` clamped to [0, 1])."""
    a = opmath(-0.75)
    i = np.minimum(np.floor(src.astype(np.float32)).astype(np.int64), in_size - 1)
    t = np.minimum(np.maximum(src - i.astype(opmath), opmath(0)), opmath(1))

    def near(x):  # |x| <= 1
        return ((a + opmath(2)) * x - (a + opmath(3))) * x * x + opmath(1)

    def far(x):  # 1 < |x| < 2
        return ((a * x - opmath(5) * a) * x + opmath(8) * a) * x - opmath(4) * a

    s = opmath(1) - t
    w = np.stack([far(t + opmath(1)), near(t), near(s), far(s + opmath(1))])
    idx = np.clip(i + np.arange(-1, 3)[:, None], 0, in_size - 1)
    return ("cubic", idx, w)


def _antialias_plan(mode: str, in_size: int, out_size: int, scale_factor, align_corners,
                    dtype):
    """``("taps", idx, w)`` of PyTorch's antialiased resize (``antialias=True``): when
    shrinking, the filter (the triangle of ``bilinear``, the cubic with ``A = -0.5`` of
    ``bicubic``) is stretched by the scale, so each output averages all the inputs it covers;
    the weights of each output are normalised to sum to 1."""
    if align_corners:
        scale = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    else:
        scale = 1.0 / scale_factor if scale_factor else in_size / out_size
    half = 1.0 if mode == "bilinear" else 2.0  # half the filter's width
    support = half * scale if scale >= 1.0 else half
    invscale = 1.0 / scale if scale >= 1.0 else 1.0

    def filt(x):
        x = np.abs(x)
        if mode == "bilinear":
            return np.where(x < 1, 1 - x, 0.0)
        a = -0.5
        near = ((a + 2) * x - (a + 3)) * x * x + 1
        far = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
        return np.where(x < 1, near, np.where(x < 2, far, 0.0))

    centre = scale * (np.arange(out_size) + 0.5)
    lo = np.maximum((centre - support + 0.5).astype(np.int64), 0)
    hi = np.minimum((centre + support + 0.5).astype(np.int64), in_size)
    k = max(int((hi - lo).max()), 1) if out_size else 1
    j = np.arange(k)[:, None]
    w = np.where(j < hi - lo, filt((j + lo - centre + 0.5) * invscale), 0.0)
    total = w.sum(0)
    w = np.where(total != 0, w / np.where(total != 0, total, 1), w)
    opmath = np.float64 if dtype == np.float64 else np.float32
    # where the size does not change PyTorch's forward skips the pass, whatever the scale
    # factor, but its backward does not ("taps-same")
    kind = "taps-same" if in_size == out_size else "taps"
    return (kind, np.minimum(lo + j, in_size - 1), w.astype(opmath))


def _apply_plan(x, axis: int, plan):
    """Resize ``x`` along ``axis`` as ``plan`` says (PyTorch's formula, in its order)."""
    xp = array_module(x)
    if plan[0] == "nearest":
        return xp.take(x, xp.asarray(plan[1]), axis=axis)
    if plan[0] == "taps-same":
        return x
    shape = [1] * x.ndim
    shape[axis] = -1
    if plan[0] in ("cubic", "taps"):
        _, idx, w = plan
        v = x.astype(w.dtype, copy=False)
        out = None
        with np.errstate(invalid="ignore", over="ignore"):
            for j in range(len(w)):  # summed in PyTorch's order
                term = xp.asarray(w[j]).reshape(shape) * xp.take(v, xp.asarray(idx[j]), axis=axis)
                out = term if out is None else out + term
        return out
    _, i0, i1, l0, l1 = plan
    opmath = l0.dtype.type
    v = x.astype(opmath, copy=False)
    a = xp.take(v, xp.asarray(i0), axis=axis)
    b = xp.take(v, xp.asarray(i1), axis=axis)
    with np.errstate(invalid="ignore", over="ignore"):
        return xp.asarray(l0).reshape(shape) * a + xp.asarray(l1).reshape(shape) * b


def _apply_plan_transposed(g, axis: int, plan, in_size: int):
    """The gradient of :func:`_apply_plan`: each output's gradient added back to the input
    positions it came from (with the blending weights)."""
    xp = array_module(g)
    shape = list(g.shape)
    shape[axis] = in_size
    out = xp.zeros(shape, dtype=g.dtype)
    moved = xp.moveaxis(out, axis, 0)
    gm = xp.moveaxis(g, axis, 0)
    if plan[0] == "nearest":
        _add_at(moved, xp.asarray(plan[1]), gm)
        return out
    if plan[0] in ("cubic", "taps", "taps-same"):
        _, idx, w = plan
        with np.errstate(invalid="ignore", over="ignore"):
            for j in range(len(w)):
                wj = xp.asarray(w[j].astype(g.dtype).reshape((-1,) + (1,) * (g.ndim - 1)))
                _add_at(moved, xp.asarray(idx[j]), wj * gm)
        return out
    _, i0, i1, l0, l1 = plan  # computed on the host: the weights and indices go where g is
    w0 = xp.asarray(l0.astype(g.dtype).reshape((-1,) + (1,) * (g.ndim - 1)))
    w1 = xp.asarray(l1.astype(g.dtype).reshape((-1,) + (1,) * (g.ndim - 1)))
    with np.errstate(invalid="ignore", over="ignore"):
        _add_at(moved, xp.asarray(i0), w0 * gm)
        _add_at(moved, xp.asarray(i1), w1 * gm)
    return out


_NODE_NAMES = {("nearest", 1): "UpsampleNearest1DBackward0",
               ("nearest", 2): "UpsampleNearest2DBackward0",
               ("nearest", 3): "UpsampleNearest3DBackward0",
               ("nearest-exact", 1): "UpsampleNearestExact1DBackward0",
               ("nearest-exact", 2): "UpsampleNearestExact2DBackward0",
               ("nearest-exact", 3): "UpsampleNearestExact3DBackward0",
               ("linear", 1): "UpsampleLinear1DBackward0",
               ("bilinear", 2): "UpsampleBilinear2DBackward0",
               ("bicubic", 2): "UpsampleBicubic2DBackward0",
               ("bilinear-aa", 2): "UpsampleBilinear2DAaBackward0",
               ("bicubic-aa", 2): "UpsampleBicubic2DAaBackward0"}


def _upsample_class(mode: str, ndim: int) -> type:
    """The Function with PyTorch's node name for ``mode`` over ``ndim`` spatial dims."""
    name = _NODE_NAMES[(mode, ndim)]
    if name not in _CLASSES:
        _CLASSES[name] = type(name.replace("Backward0", ""), (Upsample,),
                              {"node_name": name, "_builtin": True,
                               "__module__": __name__})
    return _CLASSES[name]


_CLASSES: dict = {}


class Upsample(Function):
    """Resize the spatial dimensions (2, 3, ...) of ``x`` by the per-dimension ``plans``."""

    node_name = "UpsampleBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, plans):
        out = x._data
        for axis in range(len(plans) + 1, 1, -1):  # the last dimension first, as PyTorch
            out = _apply_plan(out, axis, plans[axis - 2])
        ctx.plans, ctx.in_shape = plans, x._data.shape
        if plans[0][0] == "taps" and out.shape[-1] == 1:
            # PyTorch's antialiased kernel, resizing the height of an output one pixel wide,
            # gives every row the first row's value (its backward does not): minitorch returns
            # what it returns
            out = array_module(out).broadcast_to(out[..., :1, :], out.shape).copy()
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        return UpsampleGrad.apply(grad, ctx.plans, ctx.in_shape)


class UpsampleGrad(Function):
    """The backward of :class:`Upsample` (linear in the gradient; its own backward resizes
    again)."""

    node_name = "UpsampleBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, plans, in_shape):
        g = grad._data
        ctx.plans = plans
        if plans[0][0] == "cubic" and g.shape == tuple(in_shape):
            # PyTorch's bicubic backward copies the gradient when no size changes (its forward
            # still resamples by the scale factor)
            return _wrap(g.copy())
        opmath = np.float64 if g.dtype == np.float64 else np.float32
        g = g.astype(opmath, copy=False)
        for axis in range(2, len(plans) + 2):
            g = _apply_plan_transposed(g, axis, plans[axis - 2], in_shape[axis])
        return _wrap(g.astype(grad._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        return Upsample.apply(gg, ctx.plans)

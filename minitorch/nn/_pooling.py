"""Max, average and adaptive pooling: the ``Function`` classes behind ``nn.functional.max_pool2d``,
``avg_pool2d`` and the adaptive pools, with their backward nodes."""

from __future__ import annotations

import itertools
import math

import numpy as np

from minitorch._backend import array_module, open_grid
from minitorch._tensor import Tensor, _in_format, _suggest_memory_format, _wrap
from minitorch.autograd.function import Function
from minitorch.nn._util import (
    _pair,
)
from minitorch.ops.unary import _select_gradient


# A pool looks at the same windows as a convolution. The window offsets (i, j) are few, so the
# loops below run over them (4 for a 2x2 pool), never over pixels: each step is one NumPy
# operation on a whole (N, C, Ho, Wo) array. The offsets read the input with a stride, in rows
# as short as the output (NumPy pays for every row), so each is copied out once (``_gathered``)
# and the steps run on contiguous arrays.
def _pool_out_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1  # the last window must start inside the input or the left padding
    return out


def _pool_geometry(x_shape, kernel, stride, padding, dilation, ceil_mode, name, sizes=()):
    """The windows of a 2-d pool over ``x_shape`` (N, C, H, W), after PyTorch's checks in its
    order (``sizes``: the input's own shape, for the message about empty dimensions)."""
    kernel = _pair(kernel)
    stride = kernel if (stride is None or stride == []) else _pair(stride, "stride")
    padding, dilation = _pair(padding, "padding"), _pair(dilation, "dilation")
    for k, s, p, d in zip(kernel, stride, padding, dilation):  # pooling_output_shape's checks
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int((d * (k - 1) + 1) / 2):  # C's division, towards 0
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}"
            )
    for what, (a, b), (na, nb) in (("kernel size", kernel, ("kH", "kW")),
                                   ("stride", stride, ("dH", "dW")),
                                   ("dilation", dilation, ("dilationH", "dilationW"))):
        if a <= 0 or b <= 0:
            raise RuntimeError(f"{what} should be greater than zero, but got {na}: {a} {nb}: {b}")
    n, c, h, w = x_shape
    if 0 in x_shape[1:]:  # only the batch may be empty
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch "
                           f"size for input, but got:{list(sizes or x_shape)}")
    ho = _pool_out_size(h, kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    wo = _pool_out_size(w, kernel[1], stride[1], padding[1], dilation[1], ceil_mode)
    if ho < 1 or wo < 1:
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{ho}x{wo}). Output "
            "size is too small"
        )
    # The padded extent: left padding, plus whatever the last window needs on the right.
    hp = max(h + padding[0], (ho - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1)
    wp = max(w + padding[1], (wo - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1)
    return kernel, stride, padding, dilation, (ho, wo), (hp - padding[0], wp - padding[1])


# The helpers below take any number of spatial dimensions: (H, W) for the 2-d pools and
# (D, H, W) for the 3-d ones (a tap is then a triple of slices).
def _inside(padding, sizes) -> tuple:
    """The index of the input inside its padded copy: (:, :, ph:ph + h, pw:pw + w)."""
    return (slice(None), slice(None), *(slice(p, p + s) for p, s in zip(padding, sizes)))


def _padded(x: np.ndarray, padding, extent, fill) -> np.ndarray:
    """``x`` inside a (hp, wp) plane of ``fill`` (left/top padding, then the right side)."""
    n, c, *sizes = x.shape
    if not any(padding) and tuple(extent) == tuple(sizes):
        return x
    out = array_module(x).full((n, c, *(p + e for p, e in zip(padding, extent))), fill,
                               dtype=x.dtype)
    out[_inside(padding, sizes)] = x
    return out


def _taps(kernel, stride, dilation, out_size):
    """For each kernel offset (i, j): the slices of the padded input that it reads."""
    return [tuple(slice(i * d, i * d + s * (o - 1) + 1, s)
                  for i, s, d, o in zip(tap, stride, dilation, out_size))
            for tap in itertools.product(*(range(k) for k in kernel))]


def _gathered(padded: np.ndarray, taps: list) -> np.ndarray:
    """What each kernel offset reads, as one contiguous (offsets, N, C, Ho, Wo) array."""
    return array_module(padded).stack([padded[(slice(None), slice(None), *tap)]
                                       for tap in taps])


def _as4d(a: np.ndarray, n: int = 2) -> np.ndarray:
    """An unbatched (C, H, W) array as a batch of one; (N, C, H, W) unchanged (``n``: the
    number of spatial dimensions)."""
    return a[None] if a.ndim == n + 1 else a


def _shape4d(shape: tuple, n: int = 2) -> tuple:
    return (1, *shape) if len(shape) == n + 1 else tuple(shape)


def _unpad(gx: np.ndarray, padding, x_shape) -> np.ndarray:
    if gx.shape[2:] == tuple(x_shape[2:]):
        return gx
    return array_module(gx).ascontiguousarray(gx[_inside(padding, x_shape[2:])])


# layout2 task: a pool keeps its input's channels-last layout
def _kept_layout(out, x):
    """A batched pool's result, laid out channels-last where its input is (PyTorch's
    ``suggest_memory_format``: a 1-d pool's (N, C, L) input with strides (C L, 1, C) is one)."""
    if x.flags.c_contiguous or type(x) is not np.ndarray:
        return out
    fmt = _suggest_memory_format(x.shape, tuple(s // x.itemsize for s in x.strides))
    return out if fmt.name == "contiguous_format" else _in_format(out, fmt)
# -- task saved2: the _saved_ attributes of a pooling node, as PyTorch shows them
def pool_saved_values() -> dict:
    """The ``saved_values`` a max or average pooling node shares: its window, from the node's
    ``geometry``, and the stride and ``ceil_mode`` as called (``ctx.options``; a stride left
    out is shown as ``()``)."""
    return {"kernel_size": lambda node: tuple(map(int, node.geometry[0])),
            "stride": lambda node: () if node.options[1] is None or node.options[1] == [] else (
                tuple(map(int, node.geometry[1]))),
            "padding": lambda node: tuple(map(int, node.geometry[2])),
            "ceil_mode": lambda node: bool(node.options[0])}


def _max_pool_indices(node):
    """``_saved_result1`` of a max pooling node: the indices ``return_indices`` gives."""
    (x,) = node.saved_tensors  # (raises the freed-graph error after backward)
    if node.which is None:  # the indices a saved_tensors_hooks unpack hook gave
        return _wrap(node.at)
    n = len(node.geometry[0])
    idx = MaxPool2DWithIndices.indices(node.which, node.geometry, _shape4d(x._data.shape, n))
    return _wrap(idx if x._data.ndim == n + 2 else idx[0])


def _put_max_pool_indices(node, indices) -> None:
    """Backward adds the gradient at the (flat) indices a ``saved_tensors_hooks`` unpack hook
    gave, as PyTorch's kernel does, in place of the winning offsets of the windows."""
    node.which, node.at = None, indices._data


class MaxPool2DWithIndices(Function):
    """The largest value of each window; the gradient goes to the element that won."""

    node_name = "MaxPool2DWithIndicesBackward0"
    _builtin = True
    saved_names = ("self",)  # as PyTorch's, and (read when asked):
    saved_values = {**pool_saved_values(),
                    "dilation": lambda node: tuple(map(int, node.geometry[3])),
                    "result1": lambda node: _max_pool_indices(node)}
    # saved_tensors_hooks: PyTorch's pack order; backward reads the indices unpacked
    pack_order = (0, ("_saved_result1", lambda node, t: _put_max_pool_indices(node, t[0])))

    @staticmethod
    def forward(ctx, x, geometry, options=None):
        # options: (ceil_mode, stride as given), kept for the _saved_ attributes
        if options is not None:
            ctx.save_for_backward(x)
            ctx.options = options
        kernel, stride, padding, dilation, out_size, extent = geometry
        xd = _as4d(x._data, len(kernel))
        xp = array_module(xd)
        fill = -np.inf if xd.dtype.kind == "f" else np.iinfo(xd.dtype).min
        taps = _gathered(_padded(xd, padding, extent, fill),
                         _taps(kernel, stride, dilation, out_size))
        out = taps[0].copy()
        which = xp.zeros(out.shape, dtype=np.uint8)  # the winning offset of each window
        for k in range(1, len(taps)):
            candidate = taps[k]
            # strictly greater: the first max wins; but a NaN always wins (the last one, as in
            # PyTorch's kernel), so its gradient goes to the NaN that the output shows
            wins = candidate > out
            if candidate.dtype.kind == "f":
                wins |= xp.isnan(candidate)
            # which = k where it wins: k is larger than every offset before it, so a maximum
            # sets it (a copy with where= is several times slower)
            xp.maximum(which, wins.view(np.uint8) * np.uint8(k), out=which)
            xp.maximum(out, candidate, out=out)
        ctx.which, ctx.geometry, ctx.x_shape, ctx.x = which, geometry, x._data.shape, x
        return _wrap(_kept_layout(out, x._data) if x._data.ndim == len(kernel) + 2 else out[0])

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        if ctx.which is None:  # the indices a saved_tensors_hooks unpack hook gave: added there
            return ctx._forward_cls._partner_at.apply(grad, ctx.x_shape, ctx.at,
                                                      len(ctx.geometry[0]), ctx.x)
        return ctx._forward_cls._partner.apply(grad, ctx.which, ctx.geometry, ctx.x_shape,
                                               ctx.x)

    @staticmethod
    def indices(which, geometry, x_shape) -> np.ndarray:
        """PyTorch's ``return_indices``: the flat position (in the H x W plane) of each max."""
        kernel, stride, padding, dilation, out_size, _ = geometry
        xp = array_module(which)
        n = len(kernel)
        flat = 0
        # the offset of the winner along each dimension: ``which`` is the row-major tap number
        for axis, (tap, s, p, d, o, size) in enumerate(zip(
                xp.unravel_index(which, tuple(kernel)), stride, padding, dilation, out_size,
                x_shape[2:])):
            start = xp.arange(o).reshape((o,) + (1,) * (n - 1 - axis)) * s - p
            flat = flat * size + (start + tap.astype(np.int64) * d)
        return flat.astype(np.int64)


# A pool's backward is PyTorch's kernel ``*_backward(grad, self, ...)``: its node has an edge
# for the pooled input ``x`` too (which only chose the windows: its gradient is zero).
def _zero_for_input(ctx, gg, position: int):
    """The pooled input's gradient from a pool's backward node: zeros, as in PyTorch."""
    return gg.new_zeros(ctx._input_meta[1][0]) if ctx.needs_input_grad[position] else None


class MaxPool2DBackward(Function):
    """Route each window's gradient to the element that won (a scatter); linear in ``grad``."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    _builtin = True
    _edge_args = (0, 4)  # grad and the pooled input

    @staticmethod
    def forward(ctx, grad, which, geometry, x_shape, x=None):
        kernel, stride, padding, dilation, out_size, extent = geometry
        g = grad._data.reshape(which.shape)
        xp = array_module(g)
        ctx.which, ctx.geometry = which, geometry
        n, c = _shape4d(x_shape, len(kernel))[:2]
        gx = xp.zeros((n, c, *(p + e for p, e in zip(padding, extent))), dtype=g.dtype)
        overlap = any(s < d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation))
        for k, tap in enumerate(_taps(kernel, stride, dilation, out_size)):
            won = _select_gradient(g, which != k)  # g where offset k won its window, else 0
            at = (slice(None), slice(None), *tap)
            if overlap:  # an element can win several windows: add up their gradients
                gx[at] += won
            else:  # each element is in one window at most: just write
                gx[at] = won
        return _wrap(_unpad(gx, padding, _shape4d(x_shape, len(kernel))).reshape(x_shape))

    @staticmethod
    def backward(ctx, gg):
        return (ctx._forward_cls._partner.apply(gg, ctx.which, ctx.geometry),
                _zero_for_input(ctx, gg, 4))


class MaxPoolGather(Function):
    """Read the value at each window's winning position (the adjoint of the scatter)."""

    node_name = "MaxPool2DWithIndicesBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, x, which, geometry):
        kernel, stride, padding, dilation, out_size, extent = geometry
        xd = _as4d(x._data, len(kernel))
        ctx.which, ctx.geometry, ctx.x_shape = which, geometry, x._data.shape
        taps = _gathered(_padded(xd, padding, extent, 0), _taps(kernel, stride, dilation, out_size))
        out = array_module(xd).zeros(which.shape, dtype=xd.dtype)
        for k in range(len(taps)):
            out += _select_gradient(taps[k], which != k)
        return _wrap(_kept_layout(out, x._data) if x._data.ndim == len(kernel) + 2 else out[0])

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls._partner.apply(grad, ctx.which, ctx.geometry, ctx.x_shape)


class AvgPool2D(Function):
    """The mean of each window. Linear, so its backward spreads the gradient evenly back."""

    node_name = "AvgPool2DBackward0"
    _builtin = True
    saved_names = ("self",)  # as PyTorch's, and (read when asked):
    saved_values = {**pool_saved_values(),
                    "count_include_pad": lambda node: bool(node.options[2]),
                    "divisor_override": lambda node: node.options[3]}

    @staticmethod
    def forward(ctx, x, geometry, divisor, options=None):
        # options: (ceil_mode, stride, count_include_pad, divisor_override) as called
        if options is not None:
            ctx.save_for_backward(x)
            ctx.options = options
        kernel, stride, padding, dilation, out_size, extent = geometry
        taps = _gathered(_padded(_as4d(x._data, len(kernel)), padding, extent, 0),
                         _taps(kernel, stride, dilation, out_size))
        out = taps[0].astype(np.int64) if taps[0].dtype.kind in "iu" else taps[0].copy()
        for tap in taps[1:]:
            out += tap
        if out.dtype.kind == "i":  # integers: summed in int64, divided as C divides (towards 0)
            whole = array_module(out).abs(out) // array_module(out).asarray(divisor, np.int64)
            out = (array_module(out).sign(out) * whole).astype(x._data.dtype)
        else:
            out /= divisor
        ctx.geometry, ctx.divisor, ctx.x_shape, ctx.x = geometry, divisor, x._data.shape, x
        if x._data.ndim != len(kernel) + 2:
            return _wrap(out[0])
        return _wrap(_kept_layout(out, x._data) if len(kernel) == 2 else out)  # (3-d: C order)

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls._partner.apply(grad, ctx.geometry, ctx.divisor, ctx.x_shape,
                                               ctx.x)


class AvgPool2DBackward(Function):
    """Each window's gradient, divided by the window size, added back to its elements."""

    node_name = "AvgPool2DBackwardBackward0"
    _builtin = True
    _edge_args = (0, 4)  # grad and the pooled input

    @staticmethod
    def forward(ctx, grad, geometry, divisor, x_shape, x=None):
        kernel, stride, padding, dilation, out_size, extent = geometry
        g = _as4d(grad._data, len(kernel)) / divisor
        n, c = _shape4d(x_shape, len(kernel))[:2]
        gx = array_module(g).zeros((n, c, *(p + e for p, e in zip(padding, extent))),
                                   dtype=grad._data.dtype)
        for tap in _taps(kernel, stride, dilation, out_size):
            gx[(slice(None), slice(None), *tap)] += g
        ctx.geometry, ctx.divisor = geometry, divisor
        return _wrap(_unpad(gx, padding, _shape4d(x_shape, len(kernel))).reshape(x_shape))

    @staticmethod
    def backward(ctx, gg):  # the adjoint of the adjoint
        return (ctx._forward_cls._partner.apply(gg, ctx.geometry, ctx.divisor),
                _zero_for_input(ctx, gg, 4))


# Each backward applies its class's ``_partner`` (the 3-d subclasses below name their own).
MaxPool2DWithIndices._partner = MaxPool2DBackward
MaxPool2DBackward._partner = MaxPoolGather
MaxPoolGather._partner = MaxPool2DBackward
AvgPool2D._partner = AvgPool2DBackward
AvgPool2DBackward._partner = AvgPool2D


# ---------------------------------------------------------------- adaptive pooling
def _check_grad_size(grad: Tensor, name: str) -> None:
    """PyTorch's backward refuses an empty output (outside the batch dimensions)."""
    for d in range(1, grad.dim()):
        if grad.shape[d] == 0:
            raise RuntimeError(
                f"{name}_backward(): Expected grad_output to have non-zero size for non-batch "
                f"dimensions, but grad_output has sizes [{', '.join(map(str, grad.shape))}] "
                f"with dimension {d} being empty")


def _adaptive_bins(in_size: int, out_size: int) -> list[tuple[int, int]]:
    """PyTorch's windows: bin ``i`` covers ``[floor(i*in/out), ceil((i+1)*in/out))``.

    Neighbouring bins may overlap by one element when ``in`` is not a multiple of ``out``.
    """
    return [((i * in_size) // out_size, -((-(i + 1) * in_size) // out_size))
            for i in range(out_size)]


def _bin_means(x, axis: int, out_size: int):
    """The mean of each adaptive bin of ``x`` along ``axis`` (which has ``out_size`` bins).

    Each mean adds only the elements of its bin, so an inf or NaN stays in the bins that
    contain it (a matrix product with 0 weights would spread NaN = 0 * inf everywhere)."""
    xp = array_module(x)
    bins = _adaptive_bins(x.shape[axis], out_size)
    moved = xp.moveaxis(x, axis, -1)
    means = [moved[..., a:b].mean(axis=-1) for a, b in bins]
    out = xp.stack(means, axis=-1) if means else xp.zeros(moved.shape[:-1] + (0,), x.dtype)
    return xp.moveaxis(out.astype(x.dtype, copy=False), -1, axis)


def _bin_spread(g, axis: int, in_size: int):
    """The transpose of :func:`_bin_means`: each bin's value, divided by the bin's size, added
    to every element of the bin (overlapping bins both add)."""
    xp = array_module(g)
    moved = xp.moveaxis(g, axis, -1)
    out = xp.zeros(moved.shape[:-1] + (in_size,), dtype=g.dtype)
    for i, (a, b) in enumerate(_adaptive_bins(in_size, moved.shape[-1])):
        out[..., a:b] += (moved[..., i] / g.dtype.type(b - a))[..., None]
    return xp.moveaxis(out, -1, axis)


class AdaptiveAvgPool2D(Function):
    """Average pooling to a fixed output size. A 2-D window mean is separable: the mean over
    the rows of each bin, then over its columns. Backward spreads each gradient evenly over
    its window (:class:`AdaptiveAvgPool2DGrad`)."""

    node_name = "AdaptiveAvgPool2DBackward0"
    _builtin = True
    saved_names = ("self",)  # as PyTorch's

    @staticmethod
    def forward(ctx, x, out_hw):
        ctx.save_for_backward(x)
        ctx.in_hw, ctx.x = x._data.shape[-len(out_hw):], x
        out = x._data
        for axis, size in zip(range(-len(out_hw), 0), out_hw):  # one dimension at a time
            out = _bin_means(out, axis, size)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        _check_grad_size(grad, f"adaptive_avg_pool{len(ctx.in_hw)}d")
        return ctx._forward_cls._partner.apply(grad, ctx.in_hw, ctx.x)


class AdaptiveAvgPool2DGrad(Function):
    """Backward of adaptive average pooling: linear in the gradient, so its own backward
    (for ``create_graph=True``) is the pooling again."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    _builtin = True
    _edge_args = (0, 2)  # grad and the pooled input

    @staticmethod
    def forward(ctx, grad, in_hw, x=None):
        ctx.out_hw = grad._data.shape[-len(in_hw):]
        out = grad._data
        for axis, size in zip(range(-len(in_hw), 0), in_hw):
            out = _bin_spread(out, axis, size)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        return (ctx._forward_cls._partner.apply(grad, ctx.out_hw),
                _zero_for_input(ctx, grad, 2))


class AdaptiveMaxPool2D(Function):
    """The maximum of each adaptive bin; backward sends the gradient to the winner."""

    node_name = "AdaptiveMaxPool2DBackward0"
    _builtin = True
    # saved_tensors_hooks: what PyTorch packs, in its order (self, the indices returned)
    # (backward reads the indices unpacked)
    pack_order = ("x", (lambda node: _wrap(node.idx),
                        lambda node, t: setattr(node, "idx", t[0]._data)))

    @staticmethod
    def forward(ctx, x, out_hw):
        data = x._data
        n = len(out_hw)
        sizes, lead = data.shape[-n:], data.shape[:-n]
        xp = array_module(data)
        out = xp.empty(lead + tuple(out_hw), dtype=data.dtype)
        idx = xp.empty(lead + tuple(out_hw), dtype=np.int64)
        bins = [list(enumerate(_adaptive_bins(i, o))) for i, o in zip(sizes, out_hw)]
        for cell in itertools.product(*bins):  # one output position (i, j) at a time
            at = (Ellipsis, *(i for i, _ in cell))
            spans = [b - a for _, (a, b) in cell]
            window = data[(Ellipsis, *(slice(a, b) for _, (a, b) in cell))]
            window = window.reshape(lead + (math.prod(spans),))
            # the first maximum wins, as in PyTorch; but a NaN always wins (the last one)
            k = window.argmax(-1) if window.size else xp.zeros(window.shape[:-1], np.int64)
            nan = xp.isnan(window)
            last_nan = window.shape[-1] - 1 - nan[..., ::-1].argmax(-1) if window.size else k
            k = xp.where(nan.any(-1), last_nan, k)
            out[at] = xp.take_along_axis(window, k[..., None], -1)[..., 0]
            flat = 0  # the winner's position in the input's plane (or volume)
            for (_, (a, _b)), size, i in zip(cell, sizes, xp.unravel_index(k, spans)):
                flat = flat * size + a + i
            idx[at] = flat
        ctx.shape, ctx.idx, ctx.n, ctx.x = data.shape, idx, n, x
        return _wrap(out), _wrap(idx)

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        _check_grad_size(grad, f"adaptive_max_pool{ctx.n}d")
        return ctx._forward_cls._partner.apply(grad, ctx.shape, ctx.idx, ctx.n, ctx.x)


class AdaptiveMaxPool2DGradInput(Function):
    """Backward of adaptive max pooling: each gradient added at its window's winner (a
    winner of two overlapping windows gets both). Its own backward picks them out again."""

    node_name = "AdaptiveMaxPool2DBackwardBackward0"
    _builtin = True
    _edge_args = (0, 4)  # grad and the pooled input

    @staticmethod
    def forward(ctx, grad, shape, idx, n=2, x=None):
        from minitorch.ops.indexing import _add_at

        ctx.grad_hw, ctx.n = grad._data.shape[-n:], n
        plane = math.prod(ctx.grad_hw)
        ctx.idx = idx.reshape(idx.shape[:-n] + (plane,))
        g = grad._data.reshape(grad._data.shape[:-n] + (plane,))
        out = array_module(g).zeros(shape[:-n] + (math.prod(shape[-n:]),), dtype=g.dtype)
        lead = open_grid(array_module(g), g.shape[:-1]) if g.ndim > 1 else ()
        _add_at(out, (*[i[..., None] for i in lead], ctx.idx), g)
        return _wrap(out.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        flat = grad.reshape(*grad.shape[:-ctx.n], -1)
        return (flat.gather(-1, _wrap(ctx.idx)).reshape(*grad.shape[:-ctx.n], *ctx.grad_hw),
                _zero_for_input(ctx, grad, 4))


AdaptiveAvgPool2D._partner = AdaptiveAvgPool2DGrad
AdaptiveAvgPool2DGrad._partner = AdaptiveAvgPool2D
AdaptiveMaxPool2D._partner = AdaptiveMaxPool2DGradInput


class MaxPool2DBackwardAt(AdaptiveMaxPool2DGradInput):
    """Max pooling's backward for indices a ``saved_tensors_hooks`` unpack hook gave: each
    gradient added at its index, as adaptive max pooling's."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    _builtin = True


MaxPool2DWithIndices._partner_at = MaxPool2DBackwardAt


# ---------------------------------------------------------------- the 1-d pools' checks
def one_int(value, fn: str, arg: str) -> int:
    """PyTorch's ``check1d``: an int, or a sequence of one int."""
    values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) != 1:
        raise RuntimeError(f"{fn}() argument '{arg}' should contain one int (got {len(values)})")
    return values[0]


def check_max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode) -> None:  # noqa: A002
    """PyTorch's ``max_pool1d`` checks, in its words (``check_max_pool1d``)."""
    if not ((input.ndim == 2 and input.shape[0] and input.shape[1])
            or (input.ndim == 3 and input.shape[1] and input.shape[2])):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 "
                           f"dim batch size for input, but got:{list(input.shape)}")
    seqs = {}
    for arg, value in (("kernel_size", kernel_size), ("stride", stride),
                       ("padding", padding), ("dilation", dilation)):
        seqs[arg] = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    words = {"kernel_size": "an int, list of ints or tuple of ints",
             "stride": "None, an int, list of ints, or tuple of ints",
             "padding": "an int, list of ints, or tuple of ints",
             "dilation": "an int, list of ints or tuple of ints"}
    for arg, values in seqs.items():
        if len(values) != 1 and not (arg == "stride" and not values):
            raise RuntimeError(f"max_pool1d() {arg} must be {words[arg]} of size 1 but got "
                               f"size {len(values)}")
    k, p, d = seqs["kernel_size"][0], seqs["padding"][0], seqs["dilation"][0]
    s = seqs["stride"][0] if seqs["stride"] else k
    for arg, value in (("kernel_size", k), ("stride", s)):
        if value <= 0:
            raise RuntimeError(f"max_pool1d() {arg} must be greater than zero, but got {value}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError("max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={p} and kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    span = input.shape[-1] + 2 * p - d * (k - 1) - 1
    length = -(-span // s) + 1 if ceil_mode else span // s + 1
    if ceil_mode and (length - 1) * s >= input.shape[-1] + p:
        length -= 1
    if length <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {length}")


# ---------------------------------------------------------------- the 3-d pools (task nn3d)
# The 2-d Functions above work on any number of spatial dimensions; the 3-d ones are the same
# classes under PyTorch's 3-d node names, each backward applying its 3-d ``_partner``.
class MaxPool3DWithIndices(MaxPool2DWithIndices):
    """The largest value of each (kd, kh, kw) window."""

    node_name = "MaxPool3DWithIndicesBackward0"
    _builtin = True
    saved_names, saved_values = MaxPool2DWithIndices.saved_names, MaxPool2DWithIndices.saved_values


class MaxPool3DBackward(MaxPool2DBackward):
    node_name = "MaxPool3DWithIndicesBackwardBackward0"
    _builtin = True


class MaxPool3DGather(MaxPoolGather):
    node_name = "MaxPool3DWithIndicesBackward0"
    _builtin = True
    _edge_args = (0,)


class AvgPool3D(AvgPool2D):
    """The mean of each (kd, kh, kw) window."""

    node_name = "AvgPool3DBackward0"
    _builtin = True


class AvgPool3DBackward(AvgPool2DBackward):
    node_name = "AvgPool3DBackwardBackward0"
    _builtin = True


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    node_name = "AdaptiveAvgPool3DBackward0"
    _builtin = True


class AdaptiveAvgPool3DGrad(AdaptiveAvgPool2DGrad):
    node_name = "AdaptiveAvgPool3DBackwardBackward0"
    _builtin = True


class AdaptiveMaxPool3D(AdaptiveMaxPool2D):
    node_name = "AdaptiveMaxPool3DBackward0"
    _builtin = True


class AdaptiveMaxPool3DGradInput(AdaptiveMaxPool2DGradInput):
    node_name = "AdaptiveMaxPool3DBackwardBackward0"
    _builtin = True


MaxPool3DWithIndices._partner = MaxPool3DBackward


class MaxPool3DBackwardAt(MaxPool2DBackwardAt):
    node_name = "MaxPool3DWithIndicesBackwardBackward0"
    _builtin = True


MaxPool3DWithIndices._partner_at = MaxPool3DBackwardAt
MaxPool3DBackward._partner = MaxPool3DGather
MaxPool3DGather._partner = MaxPool3DBackward
AvgPool3D._partner = AvgPool3DBackward
AvgPool3DBackward._partner = AvgPool3D
AdaptiveAvgPool3D._partner = AdaptiveAvgPool3DGrad
AdaptiveAvgPool3DGrad._partner = AdaptiveAvgPool3D
AdaptiveMaxPool3D._partner = AdaptiveMaxPool3DGradInput


def _triple(value, message: str, allow_empty: bool = False) -> tuple:
    """PyTorch's 3-d pool argument: an int, or a sequence of one or three ints."""
    values = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(values) == 1:
        values = values * 3
    if len(values) != 3:
        raise RuntimeError(message)
    return tuple(int(v) for v in values)


def pool3d_geometry(x_shape, kernel, stride, padding, dilation, ceil_mode, fn: str,
                    check_input_size: bool = False) -> tuple:
    """The windows of a 3-d pool over ``x_shape`` (N, C, D, H, W) or (C, D, H, W), after
    PyTorch's checks in its order (``pooling_output_shape``, then ``pool3d_shape_check``)."""
    for k, s, p, d in zip(kernel, stride, padding, dilation):
        if s == 0:
            raise RuntimeError("stride should not be zero")
        if p < 0:
            raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
        if p > int((d * (k - 1) + 1) / 2):
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}")
    for what, values, names in (("kernel size", kernel, ("kT", "kH", "kW")),
                                ("stride", stride, ("dT", "dH", "dW")),
                                ("dilation", dilation, ("dilationT", "dilationH", "dilationW"))):
        if min(values) <= 0:
            got = " ".join(f"{n}: {v}" for n, v in zip(names, values))
            raise RuntimeError(f"{what} should be greater than zero, but got {got}")
    for i, size in enumerate(x_shape):
        if size == 0 and not (len(x_shape) == 5 and i == 0):
            raise RuntimeError(f"{fn}: Expected input's non-batch dimensions to have positive "
                               f"length, but input has a shape of {list(x_shape)} and "
                               f"non-batch dimension {size} has length zero!")
    c, *sizes = x_shape[-4:]
    if check_input_size and any(i < k for i, k in zip(sizes, kernel)):
        raise RuntimeError(f"input image (T: {sizes[0]} H: {sizes[1]} W: {sizes[2]}) smaller "
                           f"than kernel size (kT: {kernel[0]} kH: {kernel[1]} kW: "
                           f"{kernel[2]})")
    out = tuple(_pool_out_size(*a, ceil_mode)
                for a in zip(sizes, kernel, stride, padding, dilation))
    if min(out) < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, [c, *sizes]))}). Calculated "
                           f"output size: ({'x'.join(map(str, [c, *out]))}). Output size is too "
                           "small")
    # The padded extent: left padding, plus whatever the last window needs on the right.
    extent = tuple(max(i + p, (o - 1) * s + d * (k - 1) + 1) - p for i, o, k, s, p, d in zip(
        sizes, out, kernel, stride, padding, dilation))
    return kernel, stride, padding, dilation, out, extent


def avg_divisor(sizes, geometry, ceil_mode: bool, count_include_pad: bool, dtype):
    """What each window's sum is divided by: the window's size, or (``count_include_pad=False``
    or windows that ``ceil_mode`` lets run off the end) how many of its positions are input
    (or input-or-padding): one number, or one per output position."""
    kernel, stride, padding, _, out_size, extent = geometry
    if (not any(padding) and tuple(extent) == tuple(sizes)) or (count_include_pad
                                                                 and not ceil_mode):
        return float(math.prod(kernel))
    inside = np.zeros((1, 1, *(p + e for p, e in zip(padding, extent))), dtype=dtype)
    if count_include_pad:
        inside[(slice(None), slice(None), *(slice(0, s + 2 * p)
                                            for s, p in zip(sizes, padding)))] = 1
    else:
        inside[_inside(padding, sizes)] = 1
    counts = sum(inside[(slice(None), slice(None), *tap)]
                 for tap in _taps(kernel, stride, (1,) * len(kernel), out_size))
    return counts[0, 0]


# ---------------------------------------------------------------- unpooling (task nn3d)
class MaxUnpool2D(Function):
    """Max pooling's partial inverse: each value written at its index in a zero plane (or
    volume) of ``out_size``. Linear in the input; its backward reads the gradient at the
    indices again (a gather)."""

    node_name = "MaxUnpool2DBackward0"
    _builtin = True
    # saved_tensors_hooks: PyTorch's pack order (backward reads the indices unpacked)
    pack_order = (("indices", lambda node, t: setattr(node, "idx", t[0]._data.reshape(
        node.idx.shape))),)
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, x, indices, out_size):
        n = len(out_size)
        data, idx = x._data, indices._data
        lead, plane = data.shape[:-n], math.prod(data.shape[-n:])
        flat_idx = idx.reshape(lead + (plane,))
        out = array_module(data).zeros(lead + (math.prod(out_size),), dtype=data.dtype)
        grid = open_grid(array_module(data), lead) if lead else ()
        out[(*[i[..., None] for i in grid], flat_idx)] = data.reshape(lead + (plane,))
        ctx.idx, ctx.in_size, ctx.indices = flat_idx, data.shape[-n:], indices
        return _wrap(out.reshape(lead + tuple(out_size)))

    @staticmethod
    def backward(ctx, grad):
        n = len(ctx.in_size)
        lead = grad.shape[:-n]
        flat = grad.reshape(*lead, math.prod(grad.shape[-n:]))
        return flat.gather(-1, _wrap(ctx.idx)).reshape(*lead, *ctx.in_size)


class MaxUnpool3D(MaxUnpool2D):
    node_name = "MaxUnpool3DBackward0"
    _builtin = True
    _edge_args = (0,)


# ---------------------------------------------------------------- fractional max pools (task nn3d)
def _fractional_starts(sample: np.ndarray, in_size: int, out_size: int, k: int) -> np.ndarray:
    """PyTorch's ``generate_intervals``: where each of the ``out_size`` windows starts, from
    one random ``sample`` in [0, 1) per plane, computed in the input's precision as PyTorch
    computes it (``int((i + u) * alpha) - int(u * alpha)``; the last window ends the input)."""
    xp = array_module(sample)
    starts = xp.empty(sample.shape + (out_size,), dtype=np.int64)
    if out_size > 1:
        dt = sample.dtype.type
        alpha = dt(in_size - k) / dt(out_size - 1)
        i = xp.arange(out_size - 1).astype(sample.dtype)
        starts[..., :-1] = (((i + sample[..., None]) * alpha).astype(np.int64)
                            - (sample * alpha).astype(np.int64)[..., None])
    if out_size > 0:
        starts[..., -1] = in_size - k
    return starts


class FractionalMaxPool2D(Function):
    """The maximum of each ``kernel`` window, the windows starting at pseudo-random places
    (one random sample per plane and dimension) so that ``out_size`` of them cover the input.
    The first maximum of a window wins, a NaN always (the last one). Backward sends each
    gradient to its window's winner (:class:`FractionalMaxPool2DGrad`)."""

    node_name = "FractionalMaxPool2DBackward0"
    _builtin = True
    _edge_args = (0,)
    _sample_of_dim = (1, 0)  # PyTorch's 2-d kernel: sample 0 for the width, 1 for the height

    @staticmethod
    def forward(ctx, x, kernel, out_size, samples):
        n = len(kernel)
        data = x._data
        xd = _as4d(data, n)
        xp = array_module(xd)
        batch, c, *sizes = xd.shape
        which = FractionalMaxPool3D._sample_of_dim if n == 3 else (1, 0)
        flat = xp.zeros((batch, c, *out_size), dtype=np.int64)  # each window's first element
        step = 1
        for d in reversed(range(n)):
            starts = _fractional_starts(samples[:batch, :, which[d]], sizes[d], out_size[d],
                                        kernel[d])
            flat += starts.reshape((batch, c) + (1,) * d + (out_size[d],)
                                   + (1,) * (n - 1 - d)) * step
            step *= sizes[d]
        plane = xd.reshape(batch, c, math.prod(sizes))
        best = idx = None
        for tap in itertools.product(*(range(k) for k in kernel)):
            at = flat + sum(t * math.prod(sizes[d + 1:]) for d, t in enumerate(tap))
            val = xp.take_along_axis(plane, at.reshape(batch, c, math.prod(out_size)),
                                     -1).reshape(at.shape)
            if best is None:
                best, idx = val, at
                continue
            wins = val > best
            if val.dtype.kind == "f":
                wins |= xp.isnan(val)
            best, idx = xp.where(wins, val, best), xp.where(wins, at, idx)
        if data.ndim == n + 1:
            best, idx = best[0], idx[0]
        ctx.shape, ctx.idx, ctx.n, ctx.x = data.shape, idx, n, x
        return _wrap(best), _wrap(idx)

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        return ctx._forward_cls._partner.apply(grad, ctx.shape, ctx.idx, ctx.n, ctx.x)


class FractionalMaxPool2DGrad(AdaptiveMaxPool2DGradInput):
    """Each gradient added at its window's winner; its backward picks them out again."""

    node_name = "FractionalMaxPool2DBackwardBackward0"
    _builtin = True


class FractionalMaxPool3D(FractionalMaxPool2D):
    node_name = "FractionalMaxPool3DBackward0"
    _builtin = True
    _edge_args = (0,)
    _sample_of_dim = (0, 1, 2)  # the 3-d kernel: samples 0, 1, 2 for time, height, width


class FractionalMaxPool3DGrad(AdaptiveMaxPool2DGradInput):
    node_name = "FractionalMaxPool3DBackwardBackward0"
    _builtin = True


FractionalMaxPool2D._partner = FractionalMaxPool2DGrad
FractionalMaxPool3D._partner = FractionalMaxPool3DGrad

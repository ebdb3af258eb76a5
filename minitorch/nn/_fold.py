"""``unfold`` (im2col) and ``fold`` (col2im): sliding blocks to columns and back.

``unfold`` of ``(N, C, H, W)`` with a ``kh x kw`` kernel gives ``(N, C kh kw, L)``: column
``l`` holds the ``C kh kw`` values of the ``l``-th block (a convolution is then one matrix
product). ``fold`` sums columns back into an image, each value into its position, where
blocks overlap. Each is the other's adjoint, so each one's gradient is the other.
"""

from __future__ import annotations

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.nn._pooling import _padded, _taps, _unpad


def blocks(size: int, k: int, d: int, p: int, s: int) -> int:
    """How many positions a dilated kernel takes along one side (PyTorch's formula)."""
    return (size + 2 * p - (d * (k - 1) + 1)) // s + 1


def check_block_args(kernel, dilation, padding, stride) -> None:
    """PyTorch's checks of im2col's and col2im's arguments, in its order and words."""
    for what, (a, b), (na, nb), ok in (
            ("kernel size", kernel, ("kernel_height", "kernel_width"), lambda v: v > 0),
            ("dilation", dilation, ("dilation_height", "dilation_width"), lambda v: v > 0),
            ("padding", padding, ("pad_height", "pad_width"), lambda v: v >= 0),
            ("stride", stride, ("stride_height", "stride_width"), lambda v: v > 0)):
        if not (ok(a) and ok(b)):
            rule = "be non-negative" if what == "padding" else "be greater than zero"
            raise RuntimeError(f"{what} should {rule}, but got {na}: {a} {nb}: {b}")


def _im2col(x, kernel, dilation, padding, stride):
    """(N, C, H, W) -> (N, C kh kw, L)."""
    n, c, h, w = x.shape
    out_size = tuple(blocks(size, *args) for size, args in
                     zip((h, w), zip(kernel, dilation, padding, stride)))
    extent = (h + padding[0], w + padding[1])
    xp = _padded(x, padding, extent, 0)
    taps = [xp[:, :, rows, cols] for rows, cols in _taps(kernel, stride, dilation, out_size)]
    cols = array_module(x).stack(taps, axis=2)  # (N, C, kh kw, Lh, Lw)
    return cols.reshape(n, c * kernel[0] * kernel[1], out_size[0] * out_size[1])


def _col2im(cols, output_size, kernel, dilation, padding, stride):
    """(N, C kh kw, L) -> (N, C, H, W): each column's values added where they came from."""
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    (h, w), (ph, pw) = output_size, padding
    out_size = tuple(blocks(size, *args) for size, args in
                     zip((h, w), zip(kernel, dilation, padding, stride)))
    taps = cols.reshape(n, c, kernel[0] * kernel[1], *out_size)
    out = array_module(cols).zeros((n, c, h + 2 * ph, w + 2 * pw), dtype=cols.dtype)
    for k, (rows, cols_) in enumerate(_taps(kernel, stride, dilation, out_size)):
        out[:, :, rows, cols_] += taps[:, :, k]
    return _unpad(out, padding, (n, c, h, w))


def _batched(fn, a, *args):
    """``fn`` on a batch of one when ``a`` has no batch dimension (``unbatched_ndim``)."""
    return fn(a[None], *args)[0]


class Im2Col(Function):
    """``unfold``: the sliding blocks of an image as columns."""

    node_name = "Im2ColBackward0"
    _builtin = True

    @staticmethod
    def forward(x, kernel, dilation, padding, stride):
        xd = x._data
        args = (kernel, dilation, padding, stride)
        out = _im2col(xd, *args) if xd.ndim == 4 else _batched(_im2col, xd, *args)
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.size, ctx.args = tuple(inputs[0].shape[-2:]), inputs[1:]

    @staticmethod
    def backward(ctx, grad):
        return Col2Im.apply(grad, ctx.size, *ctx.args)


class Col2Im(Function):
    """``fold``: columns summed back into an image."""

    node_name = "Col2ImBackward0"
    _builtin = True

    @staticmethod
    def forward(cols, output_size, kernel, dilation, padding, stride):
        cd = cols._data
        args = (output_size, kernel, dilation, padding, stride)
        out = _col2im(cd, *args) if cd.ndim == 3 else _batched(_col2im, cd, *args)
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.args = inputs[2:]

    @staticmethod
    def backward(ctx, grad):
        return Im2Col.apply(grad, *ctx.args)

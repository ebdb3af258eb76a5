"""``pixel_shuffle`` and ``pixel_unshuffle``: channels traded for space and back.

``pixel_shuffle(x, r)`` turns ``(*, C r^2, H, W)`` into ``(*, C, H r, W r)``: each group of
``r^2`` channels becomes an ``r x r`` block of pixels (the last step of an upsampling
network). ``pixel_unshuffle`` is its inverse, so each is the other's gradient. Both are a
reshape, a permutation of axes and a copy.
"""

from __future__ import annotations

from minitorch._tensor import _wrap
from minitorch.autograd.function import Function


def _shuffle(x, r: int):
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    n = len(lead)
    blocks = x.reshape(*lead, c // (r * r), r, r, h, w)  # (*, C, r, r, H, W)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)  # (*, C, H, r, W, r)
    return blocks.transpose(order).reshape(*lead, c // (r * r), h * r, w * r)


def _unshuffle(x, r: int):
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    n = len(lead)
    blocks = x.reshape(*lead, c, h // r, r, w // r, r)  # (*, C, H, r, W, r)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)  # (*, C, r, r, H, W)
    return blocks.transpose(order).reshape(*lead, c * r * r, h // r, w // r)


class PixelShuffle(Function):
    """``(*, C r^2, H, W) -> (*, C, H r, W r)``; the gradient is ``pixel_unshuffle``'s."""

    node_name = "PixelShuffleBackward0"
    _builtin = True

    @staticmethod
    def forward(x, r):
        return _wrap(_shuffle(x._data, r).copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.r = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return ctx._forward_cls.inverse.apply(grad, ctx.r)


class PixelUnshuffle(PixelShuffle):
    """``(*, C, H r, W r) -> (*, C r^2, H, W)``; the gradient is ``pixel_shuffle``'s."""

    node_name = "PixelUnshuffleBackward0"
    _builtin = True

    @staticmethod
    def forward(x, r):
        return _wrap(_unshuffle(x._data, r).copy())


PixelShuffle.inverse, PixelUnshuffle.inverse = PixelUnshuffle, PixelShuffle


# ---------------------------------------------------------------- channel shuffle (torchnn task)
def _channel_shuffle(x, groups: int):
    """``(N, g k, *) -> (N, k g, *)``: channel ``a k + b`` moves to ``b g + a``."""
    n, c = x.shape[:2]
    return x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape)


class ChannelShuffle(Function):
    """``channel_shuffle``: the channels (dimension 1), split into ``groups`` groups, dealt
    out one from each group in turn (ShuffleNet). The gradient is the inverse shuffle, a
    shuffle with ``C / groups`` groups."""

    node_name = "ChannelShuffleBackward0"
    _builtin = True

    @staticmethod
    def forward(x, groups):
        return _wrap(_channel_shuffle(x._data, groups).copy())

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.groups = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return ChannelShuffle.apply(grad, grad.shape[1] // ctx.groups)


class NativeChannelShuffle(ChannelShuffle):
    """``native_channel_shuffle``: the same shuffle, with no derivative in PyTorch (its node
    is NotImplemented, and backward raises)."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::native_channel_shuffle is not implemented")

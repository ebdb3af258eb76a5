"""The padding Functions behind ``F.pad`` (and ``nn.ZeroPad2d``, ``nn.ReflectionPad1d``, ...).

* :class:`ConstantPadNd`: a border of one value (a negative pad crops). Its backward is the
  same Function with the pads negated (crop where it padded), so gradients of gradients work.
* ``GATHER_PADS``, the reflection and replication pads (1 to 3 dimensions): every output
  element copies one input element, chosen by an index array per padded dimension (a mirror
  image without the edge for ``"reflect"``, the edge repeated for ``"replicate"``). The
  forward gathers with those indices; the backward (:class:`_PadGradient`) adds the gradients
  back at them, and its own backward gathers again.

Each node has PyTorch's name: ``ConstantPadNdBackward0``, ``ReflectionPad2DBackward0``, ...
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import suggested_layout
from minitorch.ops.indexing import _add_at
from minitorch.ops.reduction import Norm


def _pairs(pad) -> list:
    """``[(before, after), ...]`` from PyTorch's flat pad list, whose first pair is for the last
    dimension: ``(1, 2, 3, 4)`` is ``[(3, 4), (1, 2)]`` for the last two dimensions."""
    return [(pad[2 * i], pad[2 * i + 1]) for i in reversed(range(len(pad) // 2))]


class ConstantPadNd(Function):
    """``constant_pad_nd(x, pad, value)``: ``pad`` in PyTorch's order, ``value`` already
    converted to the input's dtype."""

    node_name = "ConstantPadNdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, pad, value):
        ctx.pad = pad
        x = a._data
        lead = x.ndim - len(pad) // 2
        crop, widths = [slice(None)] * lead, [(0, 0)] * lead
        for (before, after), n in zip(_pairs(pad), x.shape[lead:]):
            crop.append(slice(max(-before, 0), n - max(-after, 0)))
            widths.append((max(before, 0), max(after, 0)))
        if not widths:  # a 0-d tensor and no pads: a copy
            return _wrap(x.copy())
        return _wrap(suggested_layout(np.pad(x[tuple(crop)], widths, constant_values=value), x))

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0)


def _pad_index(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """The input index of each output position along one dimension of length ``n``."""
    i = np.arange(-before, n + after)
    if mode == "replicate":
        return np.clip(i, 0, n - 1)
    period = 2 * (n - 1)  # "reflect": ... 2 1 [0 1 2 3] 2 1 ... (the edge is not repeated)
    i = np.abs(i) % period if period else np.zeros_like(i)
    return np.where(i >= n, period - i, i)


class _GatherPad(Function):
    """Pad by gathering (``cls.mode``: ``"reflect"`` or ``"replicate"``); ``pad`` is PyTorch's
    list. Called as ``cls.apply(x, pad, cls)``."""

    _builtin = True

    @staticmethod
    def forward(ctx, a, pad, cls):
        x = a._data
        xp = array_module(x)  # the index arrays go where the data is (CuPy takes no others)
        lead = x.ndim - len(pad) // 2
        index = [xp.asarray(_pad_index(n, before, after, cls.mode))
                 for (before, after), n in zip(_pairs(pad), x.shape[lead:])]
        ctx.pad, ctx.cls, ctx.index = pad, cls, index
        ctx.save_for_backward(a)  # as PyTorch's backward takes the input (see _PadGradient)
        return _wrap(xp.ascontiguousarray(x[(Ellipsis, *xp.ix_(*index))]))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return ctx.cls.gradient.apply(grad, a, ctx.cls, ctx.pad, ctx.index), None, None


class _PadGradient(Function):
    """The gradient of a gathering pad: each output's gradient is added to its source. Its
    own gradient is the pad again. Like PyTorch's ``reflection_pad2d_backward(grad, input)``
    it has an edge to the input, whose gradient is zero (the input only gave the shape), so a
    gradient penalty through a pad is recorded."""

    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, grad, a, cls, pad, index):
        ctx.cls, ctx.pad = cls, pad
        g = grad._data
        xp = array_module(g)
        out = xp.zeros(a._data.shape, g.dtype)
        _add_at(out, (Ellipsis, *xp.ix_(*index)), g)
        return _wrap(out)

    @staticmethod
    def backward(ctx, gg):
        zeros = gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None
        return ctx.cls.apply(gg, ctx.pad, ctx.cls), zeros, None, None, None


def _gather_pad_class(name: str, mode: str):
    """The Function of one mode and number of dimensions, with PyTorch's node names."""
    gradient = type(name + "Backward", (_PadGradient,),
                    {"node_name": name + "BackwardBackward0", "_builtin": True})
    return type(name, (_GatherPad,), {"node_name": name + "Backward0", "_builtin": True,
                                       "mode": mode, "gradient": gradient})


GATHER_PADS = {(mode, n): _gather_pad_class(f"{kind}Pad{n}D", mode)
               for mode, kind in (("reflect", "Reflection"), ("replicate", "Replication"))
               for n in (1, 2, 3)}


class NormDim(Norm):
    """``at::norm(x, p, dim)``: ``Norm`` under the node name PyTorch gives that overload
    (``F.pairwise_distance``)."""

    node_name = "NormBackward1"
    _builtin = True


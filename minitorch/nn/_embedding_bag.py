"""The ``Function`` behind ``nn.functional.embedding_bag``: the sums, means or maxima of
"bags" of embedding rows, without building the rows one by one (``EmbeddingBagBackward0``).

The indices are one flat list cut into bags by ``offsets`` (bag ``b`` is
``input[offsets[b]:offsets[b + 1]]``; a 2-D input is a batch of equal bags). An index equal to
``padding_idx`` is left out of its bag (and of a mean's count); an empty bag is zeros.
``per_sample_weights`` (mode ``sum`` only) multiplies each row before the sum.

The gradient sends each bag's gradient back to the rows it was made from: with its weight
(``1``, ``1 / count`` for a mean, the per-sample weight), or, for ``max``, to the row that won
each feature. As in PyTorch, this backward has no derivative of its own: a second backward
raises.
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._backend import to_numpy as _to_numpy
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function


def _bags(idx: np.ndarray, offsets: np.ndarray, include_last_offset: bool):
    """``(bag_of, n_bags)``: each index's bag (-1 for one after the last bag)."""
    n = idx.shape[0]
    n_bags = offsets.shape[0] - 1 if include_last_offset else offsets.shape[0]
    n_bags = max(n_bags, 0)
    starts = offsets[:n_bags]
    end = int(offsets[n_bags]) if include_last_offset and n_bags < offsets.shape[0] else n
    bag_of = np.searchsorted(starts, np.arange(n), side="right") - 1
    bag_of[np.arange(n) >= end] = -1
    return bag_of, n_bags


class EmbeddingBag(Function):
    """The bags' sums, means or maxima; ``ctx`` keeps the plan (each index's bag and weight,
    or each maximum's row) for the backward."""

    node_name = "EmbeddingBagBackward0"
    _builtin = True
    _edge_args = (0, 1)  # the weight and the per-sample weights
    pack_order = (lambda node: _saved(node),)  # saved_tensors_hooks: what PyTorch packs

    @staticmethod
    def forward(ctx, weight, per_sample_weights, idx, bag_of, n_bags, mode, padding_idx,
                scale_grad_by_freq, given=(None, None, None)):
        # given: the (flat) indices and offsets tensors as called, and the offsets' array
        ctx.given, ctx.padding_idx = given, padding_idx
        w = weight._data
        xp = array_module(w)
        keep = (bag_of >= 0) if padding_idx is None else (bag_of >= 0) & (idx != padding_idx)
        kidx, kbag = idx[keep], bag_of[keep]
        out = xp.zeros((n_bags, w.shape[1]), dtype=w.dtype)
        ctx.plan = (idx, keep, bag_of, n_bags, mode, scale_grad_by_freq, w.shape[0])
        ctx.psw = None
        if mode == "max":
            winner = np.full((n_bags, w.shape[1]), -1, dtype=np.int64)
            order = np.argsort(kbag, kind="stable")
            kidx, kbag = kidx[order], kbag[order]
            pos = np.arange(kbag.shape[0]) - np.searchsorted(kbag, kbag, side="left")
            for k in range(int(pos.max()) + 1 if pos.size else 0):  # the k-th row of each bag
                at = pos == k
                b, rows = kbag[at], w[xp.asarray(kidx[at])]
                cur = out[xp.asarray(b)]
                better = _to_numpy(rows > cur) | (k == 0)
                out[xp.asarray(b)] = xp.where(xp.asarray(better), rows, cur)
                winner[b] = np.where(better, kidx[at][:, None], winner[b])
            ctx.winner = winner
            return _wrap(out)
        coef = np.ones(kidx.shape[0])
        if mode == "mean":
            counts = np.bincount(kbag, minlength=n_bags)
            coef = 1.0 / counts[kbag]
        rows = w[xp.asarray(kidx)]
        if per_sample_weights is not None:
            rows = rows * per_sample_weights._data[xp.asarray(np.flatnonzero(keep))][:, None]
        _add_at(xp, out, kbag, rows)
        if mode == "mean":
            counts = xp.asarray(np.maximum(np.bincount(kbag, minlength=n_bags), 1))
            out = out / counts.astype(w.dtype)[:, None]
        ctx.coef = coef
        ctx.weight = weight if per_sample_weights is not None else None
        ctx.psw = per_sample_weights
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        gw = EmbeddingBagBackward.apply(grad, ctx.psw, ctx)
        gp = None
        if ctx.psw is not None:  # (edges: only the tensors that require grad, see below)
            gp = EmbeddingBagPerSampleWeightsBackward.apply(
                *(t if t.requires_grad else None for t in (grad, ctx.weight)), ctx,
                grad._data, ctx.weight._data)
        return gw, gp


def _saved(node) -> list:
    """What PyTorch's ``EmbeddingBagBackward0`` saves, in its order, for ``saved_tensors_hooks``:
    the indices and offsets (the caller's tensors where it gave them), ``per_sample_weights``
    (and the weight, where they require grad), and the ``offset2bag``, ``bag_size`` and
    ``max_indices`` of PyTorch's CPU kernel (its fast path, a float32 sum without
    ``padding_idx``, leaves ``offset2bag`` empty; a sum's ``bag_size`` is zeros;
    ``max_indices`` is ``bag_size`` but for ``max``), in the indices' integer type. Backward
    reads its own plan, not these."""
    indices, offsets, off = node.given
    if indices is None:
        return []
    idx, _, _, n_bags, mode, _, _ = node.plan
    kind = indices._data.dtype
    offsets = _wrap(off.astype(kind)) if offsets is None else offsets
    starts = _to_numpy(offsets._data).astype(np.int64)[:n_bags]
    bag = np.searchsorted(starts, np.arange(idx.shape[0]), side="right") - 1
    counted = bag >= 0 if node.padding_idx is None else (bag >= 0) & (idx != node.padding_idx)
    sizes = np.bincount(bag[counted], minlength=n_bags) if mode != "sum" else \
        np.zeros(n_bags, np.int64)
    fast = mode == "sum" and node.padding_idx is None and \
        node._input_meta[0][1] == np.float32
    most = np.maximum(node.winner, 0) if mode == "max" else sizes
    weight = node.weight if node.psw is not None and node.needs_input_grad[1] else None
    return [indices, offsets, node.psw, weight,
            *(_wrap(a.astype(kind)) for a in (bag[:0] if fast else bag, sizes, most))]


class EmbeddingBagBackward(Function):
    """The gradient of the weight (PyTorch's ``_embedding_bag_backward``, which has no
    derivative)."""

    node_name = "EmbeddingBagBackwardBackward0"
    _builtin = True
    _aten_name = "_embedding_bag_backward"
    _edge_args = (0, 1)  # the gradient and the per-sample weights (an empty edge if none)

    @staticmethod
    def forward(ctx, grad, per_sample_weights, fctx):
        idx, keep, bag_of, n_bags, mode, scale_grad_by_freq, num = fctx.plan
        g = grad._data
        xp = array_module(g)
        out = xp.zeros((num, g.shape[1]), dtype=g.dtype)
        if mode == "max":
            b, d = np.nonzero(fctx.winner >= 0)
            _add_at(xp, out, (fctx.winner[b, d], d), g[xp.asarray(b), xp.asarray(d)])
            return _wrap(out)
        kidx, kbag = idx[keep], bag_of[keep]
        coef = fctx.coef
        if fctx.psw is not None:
            coef = _to_numpy(fctx.psw._data)[keep].astype(np.float64)
        if scale_grad_by_freq:
            coef = coef / _frequencies(idx, num)[keep]
        rows = g[xp.asarray(kbag)] * xp.asarray(coef.astype(g.dtype))[:, None]
        _add_at(xp, out, kidx, rows)
        return _wrap(out)

    @classmethod
    def backward(cls, ctx, gg):
        raise NotImplementedError(f"the derivative for '{cls._aten_name}' is not implemented.")


class EmbeddingBagPerSampleWeightsBackward(EmbeddingBagBackward):
    """The gradient of the per-sample weights: each bag's gradient dotted with the row.
    PyTorch has no derivative entry for it: its fallback node has an edge for each input that
    requires grad, only, so those come as the first two arguments (else None, no edge) and
    the values as arrays."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = None
    _aten_name = "_embedding_bag_per_sample_weights_backward"

    @staticmethod
    def forward(ctx, grad_edge, weight_edge, fctx, g, w):
        idx, keep, bag_of, *_ = fctx.plan
        xp = array_module(g)
        out = xp.zeros(idx.shape[0], dtype=g.dtype)
        at = np.flatnonzero(keep)
        out[xp.asarray(at)] = (g[xp.asarray(bag_of[at])] * w[xp.asarray(idx[at])]).sum(-1)
        return _wrap(out)


def _frequencies(idx: np.ndarray, num: int) -> np.ndarray:
    """What PyTorch's CPU backward divides each index's gradient by: the count of the index
    found at the position, in the sorted indices, of this index's rank among the distinct
    ones (``counts[sorted[rank]]``). That is the count of the index itself for the first
    distinct index and wherever every index before it occurs once; otherwise another one."""
    counts = np.bincount(idx, minlength=num)
    ordered = np.sort(idx)
    rank = np.searchsorted(np.unique(idx), idx)
    return counts[ordered[rank]]


def _add_at(xp, out, where, values) -> None:
    """``out[where] += values``, repeated positions adding up (on the array's device)."""
    if isinstance(where, tuple):
        xp.add.at(out, tuple(xp.asarray(w) for w in where), values)
    else:
        xp.add.at(out, xp.asarray(where), values)

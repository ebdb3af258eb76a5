"""The ``Function`` behind ``nn.functional.embedding_bag``: the sums, means or maxima of
"bags" of embedding rows, without building the rows one by one (``EmbeddingBagBackward0``).

The indices are one flat list cut into bags by ``offsets`` (bag ``b`` is
``input[offsets[b]:offsets[b + 1]]``; a 2-D input is a batch of equal bags). An index equal to
``padding_idx`` is left out of its bag (and of a mean's count); an empty bag is zeros.
``per_sample_weights`` (mode ``sum`` only) multiplies each row before the sum.

The gradient sends each bag's gradient back to the rows it was made from: with its weight
(``1``, ``1 / count`` for a mean, the per-sample weight), or, for ``max``, to the row that won
each feature. As in PyTorch's CPU kernel, it reads these from the integer tensors the forward
saved (``offset2bag``, ``bag_size``, ``max_indices``), which ``saved_tensors_hooks`` see and
may replace. As in PyTorch, this backward has no derivative of its own: a second backward
raises.
"""

from __future__ import annotations

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._backend import to_numpy as _to_numpy
from minitorch._dtype import promote_types
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import first_out_of_bounds


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
    """The bags' sums, means or maxima; ``ctx.ints`` keeps the integer tensors PyTorch's CPU
    kernel saves (indices, offsets, ``offset2bag``, ``bag_size``, ``max_indices``), which the
    backward reads, as PyTorch's does (an unpack hook's tensors replace them)."""

    node_name = "EmbeddingBagBackward0"
    _builtin = True
    _edge_args = (0, 1)  # the weight and the per-sample weights
    # saved_tensors_hooks: what PyTorch packs; backward reads what the unpack hook gave
    pack_order = ((lambda node: _saved(node), lambda node, t: _put_saved(node, t)),)

    @staticmethod
    def forward(ctx, weight, per_sample_weights, idx, bag_of, n_bags, mode, padding_idx,
                scale_grad_by_freq, given):
        # given: the (flat) indices and offsets tensors as called, and the offsets' array
        ctx.given, ctx.padding_idx, ctx.mode = given, padding_idx, mode
        ctx.scale_grad_by_freq, ctx.num = scale_grad_by_freq, weight._data.shape[0]
        w = weight._data
        xp = array_module(w)
        # PyTorch's offset2bag: an index past the last offset (include_last_offset) counts in
        # the last bag, except in the sums of its fast path (a float32 or float16 sum or mean
        # without padding_idx), which stop at the last offset (a mean still divides by the
        # bag's size with them)
        bag = np.where(bag_of < 0, n_bags - 1, bag_of) if n_bags else bag_of
        counted = bag >= 0 if padding_idx is None else (bag >= 0) & (idx != padding_idx)
        sizes = np.bincount(bag[counted], minlength=n_bags)
        fast = padding_idx is None and w.dtype in (np.float32, np.float16)
        if not fast or mode == "max":
            bag_of = bag
        keep = (bag_of >= 0) if padding_idx is None else (bag_of >= 0) & (idx != padding_idx)
        kidx, kbag = idx[keep], bag_of[keep]
        out = xp.zeros((n_bags, w.shape[1]), dtype=w.dtype)
        ctx.psw = per_sample_weights
        ctx.weight = weight if per_sample_weights is not None else None
        winner = None
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
        else:
            rows = w[xp.asarray(kidx)]
            if per_sample_weights is not None:
                rows = rows * per_sample_weights._data[xp.asarray(np.flatnonzero(keep))][:, None]
            _add_at(xp, out, kbag, rows)
            if mode == "mean":
                out = out / xp.asarray(np.maximum(sizes, 1)).astype(w.dtype)[:, None]
        ctx.ints = _kernel_saved(given, bag, sizes, mode, winner, fast and mode == "sum")
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        gw = gp = None
        if ctx.needs_input_grad[0]:
            gw = EmbeddingBagBackward.apply(grad, ctx.psw, ctx)
        if ctx.psw is not None and ctx.needs_input_grad[1]:  # (edges: only what requires grad)
            gp = EmbeddingBagPerSampleWeightsBackward.apply(
                *(t if t.requires_grad else None for t in (grad, ctx.weight)), ctx,
                grad._data, ctx.weight._data)
        return gw, gp


def _kernel_saved(given, bag: np.ndarray, sizes: np.ndarray, mode: str, winner,
                  fast: bool) -> list:
    """The integer tensors PyTorch's CPU kernel saves: the indices and offsets (copies of the
    caller's), each index's bag ``offset2bag`` (left empty on the fast path, a float32 or
    float16 sum without ``padding_idx``), each bag's ``bag_size`` without the padding (zeros
    for a sum) and ``max_indices`` (each maximum's row, 0 for an empty bag; ``bag_size`` but
    for ``max``), in the indices' and offsets' common integer type."""
    indices, offsets, off = given
    ints = promote_types(indices.dtype, indices.dtype if offsets is None else offsets.dtype).np
    ind = _to_numpy(indices._data).copy()
    off = off.astype(ints) if offsets is None else _to_numpy(offsets._data).copy()
    sizes = sizes if mode != "sum" else np.zeros_like(sizes)
    most = np.maximum(winner, 0) if mode == "max" else sizes
    return [_wrap(a) for a in (ind, off)] + \
        [_wrap(a.astype(ints)) for a in (bag[:0] if fast else bag, sizes, most)]


def _saved(node) -> list:
    """What PyTorch's ``EmbeddingBagBackward0`` saves, in its order, for ``saved_tensors_hooks``:
    the indices and offsets (the caller's tensors where it gave them), ``per_sample_weights``
    (and the weight, where they require grad), ``offset2bag``, ``bag_size`` and
    ``max_indices`` (see :func:`_kernel_saved`)."""
    indices, offsets, _ = node.given
    weight = node.weight if _packs_weight(node) else None
    return [indices, node.ints[1] if offsets is None else offsets, node.psw, weight,
            *node.ints[2:]]


def _put_saved(node, unpacked: list) -> None:
    """Backward's tensors from what a ``saved_tensors_hooks`` unpack hook gave."""
    got = iter(unpacked)
    indices, offsets = next(got), next(got)
    if node.psw is not None:
        packs_weight = _packs_weight(node)
        node.psw = next(got)
        if packs_weight:
            node.weight = next(got)
    node.ints = [indices, offsets, *got]


def _packs_weight(node) -> bool:
    return node.psw is not None and node.needs_input_grad[1]


def _unpacked(fctx, rebuilt_as_saved: bool = False) -> tuple:
    """``(indices, offsets, offset2bag)`` for a backward, as PyTorch's checks them: the indices
    and offsets in their common type, which must be an integer one, and ``offset2bag`` rebuilt
    from the offsets where it is empty (PyTorch's fast path), in the offsets' type (or, for the
    per-sample weights' backward, ``rebuilt_as_saved``, in the empty one's)."""
    indices, offsets, bags = fctx.ints[:3]
    kind = promote_types(indices.dtype, offsets.dtype)
    if kind not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(_TYPES.format(arg="indices", legacy=kind._legacy))
    ind = _to_numpy(indices._data).astype(kind.np).reshape(-1)
    off = _to_numpy(offsets._data).astype(kind.np).reshape(-1)
    if ind.size and not bags.numel():  # offset2bag = cumsum of a 1 at each offset, less 1
        if rebuilt_as_saved and bags.dtype != kind:
            raise RuntimeError(f"index_add_(): self ({bags.dtype._legacy[:-6]}) and source "
                               f"({kind._legacy[:-6]}) must have the same scalar type")
        if off.size and (off.min() < 0 or off.max() > ind.size):
            raise IndexError("index out of range in self")
        starts = np.zeros(ind.size + 1, kind.np)
        np.add.at(starts, off, 1)
        starts[0] -= 1
        return ind, off, np.cumsum(starts)[:ind.size].astype(kind.np)
    if bags.dtype not in (_dtype.int64, _dtype.int32):
        raise RuntimeError(_TYPES.format(arg="offset2bag", legacy=bags.dtype._legacy))
    return ind, off, _to_numpy(bags._data)


_TYPES = ("Expected tensor for argument #1 '{arg}' to have one of the following scalar types: "
          "Long, Int; but got torch.{legacy} instead (while checking arguments for "
          "embedding_bag)")


def _same_kind(ind: np.ndarray, *arrays) -> None:
    """PyTorch's kernel reads ``offset2bag`` and ``bag_size`` as the indices' type."""
    for a in arrays:
        if a.dtype != ind.dtype:
            name = [_dtype.from_numpy_dtype(d)._legacy[:-6] for d in (ind.dtype, a.dtype)]
            raise RuntimeError(f"expected scalar type {name[0]} but found {name[1]}")


def _in_range(index: np.ndarray, size: int) -> None:
    """An index outside ``[0, size)`` (where PyTorch's kernel reads or writes outside its
    tensors, or its ``index_select``/``index_add_`` refuse it)."""
    if first_out_of_bounds(index, size) is not None:
        raise IndexError("index out of range in self")


class EmbeddingBagBackward(Function):
    """The gradient of the weight (PyTorch's ``_embedding_bag_backward``, which has no
    derivative), from the saved integer tensors: a sum or mean sends each bag's gradient
    (``offset2bag``) to each index's row, times its per-sample weight, over its frequency
    (``scale_grad_by_freq``) and over its bag's ``bag_size`` (a mean, where it is not 0),
    ``padding_idx`` left out; a maximum sends each nonempty bag's (``bag_size``) gradient to the
    rows in ``max_indices``."""

    node_name = "EmbeddingBagBackwardBackward0"
    _builtin = True
    _aten_name = "_embedding_bag_backward"
    _edge_args = (0, 1)  # the gradient and the per-sample weights (an empty edge if none)

    @staticmethod
    def forward(ctx, grad, per_sample_weights, fctx):
        ind, _, bags = _unpacked(fctx)
        bag_size, most = fctx.ints[3:]
        g = grad._data
        xp = array_module(g)
        out = xp.zeros((fctx.num, g.shape[1]), dtype=g.dtype)
        if fctx.mode == "max":
            full = np.flatnonzero(_to_numpy(bag_size._data).reshape(-1))
            rows = _to_numpy(most._data)
            _in_range(full, min(rows.shape[0] if rows.ndim else 1, g.shape[0]))
            rows = rows[full]
            if rows.ndim < 2:
                raise IndexError("Dimension out of range (expected to be in range of "
                                 f"[-{rows.ndim}, {rows.ndim - 1}], but got 1)")
            if most.dtype not in (_dtype.int64, _dtype.int32):
                raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but "
                                   f"got: {most.dtype._legacy[:-6]}")
            rows = rows[:, :g.shape[1]]
            _in_range(rows, fctx.num)
            cols = np.broadcast_to(np.arange(rows.shape[1]), rows.shape)
            _add_at(xp, out, (rows, cols), g[xp.asarray(full)][:, :rows.shape[1]])
            return _wrap(out)
        psw = None if per_sample_weights is None else _to_numpy(per_sample_weights._data)
        for a in (bags, psw):
            if a is not None and a.shape[0] < ind.shape[0]:
                raise IndexError("index out of range in self")  # (index_select)
        sizes = _to_numpy(bag_size._data)
        _same_kind(ind, bags, sizes)
        _in_range(ind, fctx.num)
        keep = ind != (-1 if fctx.padding_idx is None else fctx.padding_idx)
        # (a bag outside the gradient, such as the one after the last offset: nothing)
        bag = bags[:ind.shape[0]].astype(np.int64)
        keep &= (bag >= 0) & (bag < g.shape[0])
        coef = np.ones(ind.shape[0]) if psw is None else psw[:ind.shape[0]].astype(np.float64)
        if fctx.scale_grad_by_freq:
            coef = coef / _frequencies(ind.astype(np.int64), fctx.num)
        if fctx.mode == "mean":
            _in_range(bag[keep], sizes.shape[0])
            size = np.ones(ind.shape[0])
            size[keep] = sizes[bag[keep]]
            coef = coef / np.where(size != 0, size, 1)
        rows = g[xp.asarray(bag[keep])] * xp.asarray(coef[keep].astype(g.dtype))[:, None]
        _add_at(xp, out, ind[keep].astype(np.int64), rows)
        return _wrap(out)

    @classmethod
    def backward(cls, ctx, gg):
        raise NotImplementedError(f"the derivative for '{cls._aten_name}' is not implemented.")


class EmbeddingBagPerSampleWeightsBackward(EmbeddingBagBackward):
    """The gradient of the per-sample weights: each bag's gradient (``offset2bag``) dotted
    with the index's row (0 for ``padding_idx``). PyTorch has no derivative entry for it: its
    fallback node has an edge for each input that requires grad, only, so those come as the
    first two arguments (else None, no edge) and the values as arrays."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = None
    _aten_name = "_embedding_bag_per_sample_weights_backward"

    @staticmethod
    def forward(ctx, grad_edge, weight_edge, fctx, g, w):
        ind, _, bags = _unpacked(fctx, rebuilt_as_saved=True)
        if bags.shape[0] < ind.shape[0]:
            raise IndexError("index out of range in self")
        _same_kind(ind, bags)
        xp = array_module(g)
        out = xp.zeros(ind.shape[0], dtype=g.dtype)
        _in_range(ind, w.shape[0])
        bag = bags[:ind.shape[0]].astype(np.int64)
        keep = ind != (-1 if fctx.padding_idx is None else fctx.padding_idx)
        at = np.flatnonzero(keep & (bag >= 0) & (bag < g.shape[0]))  # (else 0, as above)
        out[xp.asarray(at)] = (g[xp.asarray(bag[at])] * w[xp.asarray(ind[at])]).sum(-1)
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

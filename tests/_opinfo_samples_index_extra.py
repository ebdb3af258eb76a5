"""OpInfo samples of ``take``, ``take_along_dim``, ``index_copy``, ``index_fill``,
``masked_scatter``, ``scatter_reduce``, ``kthvalue``, ``mode``, ``cummax``, ``cummin``,
``argwhere``, ``nansum``, ``nanmean`` and ``aminmax`` (functions, methods, in-place methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the input families
of ``tests/_opinfo_samples.py`` plus the cases where these ops are special: ties (which index is
picked, how a gradient is shared), NaN, ``-0.0``, zeros in a product, empty and 0-d inputs,
integer and bool dtypes, and PyTorch's errors.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, rnd


def _idx(*rows):
    return A(np.array(rows, dtype=np.int64))


def _call(op):
    """``fn:name`` -> ``lib.name(x, ...)``, ``method:name`` -> ``x.name(...)``, ``name_`` on a
    clone (returning whether the result is the tensor itself)."""
    style, name = op.split(":")

    def call(lib, x, *args, **kw):
        if name.endswith("_"):
            y = x.clone()
            out = getattr(y, name)(*args, **kw)
            return out, out is y
        if style == "fn":
            return getattr(lib, name)(x, *args, **kw)
        return getattr(x, name)(*args, **kw)
    return call


def _node(op):
    """The names of the node the op records and of the nodes feeding it."""
    inner = _call(op)

    def call(lib, *args, **kw):
        out = inner(lib, *args, **kw)
        out = out[0] if isinstance(out, tuple) else out
        node = out.grad_fn
        return out, node.name(), [n and n.name() for n, _ in node.next_functions]
    return call


def _s(op, fam, args, kwargs=None, gradgrad=False, node=False):
    return Sample(op, fam, args, dict(kwargs or {}), gradgrad=gradgrad,
                  call=_node(op) if node else _call(op))


def take_samples(op):
    def gen():
        for fam, a in all_families():
            n = a.arr.size
            idx = np.array([0, -1, 2, 2], np.int64) % max(n, 1) if n else np.zeros(0, np.int64)
            yield _s(op, fam, (a, A(idx.reshape(2, -1) if n else idx)),
                     gradgrad=fam == "ordinary")
        yield _s(op, "node", (A(rnd(3, 4)), _idx(1, 1)), node=True)
        yield _s(op, "0-d-index", (A(rnd(3)), A(np.array(-2))))
        yield _s(op, "0-d-input", (A(f32(2.0)), _idx(0, -1)))
        yield _s(op, "out-of-range", (A(rnd(2, 3)), _idx(0, 6)))
        yield _s(op, "int32-index", (A(rnd(2, 3)), A(np.array([0], np.int32))))
        yield _s(op, "empty-input", (A(np.zeros(0, np.float32)), _idx(0)))
    return gen


def take_along_dim_samples(op):
    def gen():
        x = A(rnd(3, 4))
        yield _s(op, "ordinary", (x, _idx([0, 3, 1, 1], [2, 2, 0, 0], [1, 0, 3, 2]), 1),
                 gradgrad=True)
        yield _s(op, "node", (x, _idx([0], [1], [3]), 1), node=True)
        yield _s(op, "dim-none", (x, _idx(0, 11, 5, 5)), node=True)
        yield _s(op, "broadcast", (x, _idx([0, 2, 1, 1]), 0))
        yield _s(op, "broadcast-input", (A(rnd(1, 4)), _idx([0], [0], [0]), 0))
        yield _s(op, "argsort", (A(f32([[3.0, NAN, -0.0, 0.0]])),
                                 _idx([2, 3, 0, 1]), -1))
        yield _s(op, "int", (A(np.arange(6).reshape(2, 3)), _idx([2], [0]), 1))
        yield _s(op, "bool", (A(np.arange(6).reshape(2, 3) > 2), _idx([2], [0]), 1))
        yield _s(op, "float16", (A(rnd(2, 3, dtype=np.float16)), _idx([2], [0]), 1))
        yield _s(op, "empty", (A(np.zeros((0, 3), np.float32)), _idx([0, 1]), 1))
        yield _s(op, "int32", (x, A(np.array([[0]], np.int32)), 0))
        yield _s(op, "ndim-mismatch", (x, _idx(0, 1), 0))
        yield _s(op, "bad-broadcast", (x, _idx([0, 1]), 0))
        yield _s(op, "bad-dim", (x, _idx([0]), 2))
    return gen


def index_copy_samples(op):
    def gen():
        x = A(rnd(4, 3))
        yield _s(op, "dim0", (x, 0, _idx(3, 0), A(rnd(2, 3))), gradgrad=True)
        yield _s(op, "node", (x, 0, _idx(3, 0), A(rnd(2, 3))), node=True)
        yield _s(op, "dim1", (x, 1, _idx(2, 0), A(rnd(4, 2))))
        yield _s(op, "neg-dim", (x, -1, _idx(1), A(rnd(4, 1))))
        yield _s(op, "self-only-grad", (x, 0, _idx(1), A(rnd(1, 3), grad=False)))
        yield _s(op, "empty-index", (x, 0, A(np.zeros(0, np.int64)),
                                     A(np.zeros((0, 3), np.float32))))
        yield _s(op, "int", (A(np.zeros((3, 2), np.int64)), 0, _idx(2), A(np.array([[7, 8]]))))
        yield _s(op, "bool", (A(np.zeros((3, 2), bool)), 1, _idx(1), A(np.ones((3, 1), bool))))
        yield _s(op, "float16", (A(rnd(3, 2, dtype=np.float16)), 0, _idx(0),
                                 A(rnd(1, 2, dtype=np.float16))))
        yield _s(op, "nan-inf", (A(f32([NAN, 1.0, -0.0])), 0, _idx(0, 2), A(f32([INF, -0.0]))))
        yield _s(op, "out-of-range", (x, 0, _idx(4), A(rnd(1, 3))))
        yield _s(op, "negative-index", (x, 0, _idx(-1), A(rnd(1, 3))))
        yield _s(op, "2-d-index", (x, 0, _idx([0]), A(rnd(1, 3))))
        yield _s(op, "count-mismatch", (x, 0, _idx(0, 1), A(rnd(3, 3))))
        yield _s(op, "dtype-mismatch", (x, 0, _idx(0), A(rnd(1, 3, dtype=np.float64))))
        yield _s(op, "int32-index", (x, 0, A(np.array([0], np.int32)), A(rnd(1, 3))))
    return gen


def index_fill_samples(op):
    def gen():
        x = A(rnd(4, 3))
        yield _s(op, "dim0", (x, 0, _idx(3, 0), 2.5), gradgrad=True)
        yield _s(op, "node", (x, 0, _idx(3, 0), -1.0), node=True)
        yield _s(op, "tensor-value", (x, 1, _idx(2, 0, 2), A(f32(4.0))), gradgrad=True)
        yield _s(op, "tensor-value-node", (x, 1, _idx(2), A(f32(4.0))), node=True)
        yield _s(op, "negative-index", (x, 1, _idx(-1), 0.0))
        yield _s(op, "0-d-index", (x, 0, A(np.array(1)), NAN))
        yield _s(op, "inf", (x, 0, _idx(1), -INF))
        yield _s(op, "empty-index", (x, 0, A(np.zeros(0, np.int64)), 1.0))
        yield _s(op, "int", (A(np.arange(6).reshape(3, 2)), 0, _idx(1), 7))
        yield _s(op, "int-float-value", (A(np.arange(6).reshape(3, 2)), 0, _idx(1), 2.5))
        yield _s(op, "bool", (A(np.zeros((3, 2), bool)), 1, _idx(0), True))
        yield _s(op, "float16", (A(rnd(3, 2, dtype=np.float16)), 0, _idx(0), 0.5))
        yield _s(op, "out-of-range", (x, 1, _idx(3), 1.0))
        yield _s(op, "int32-index", (x, 1, A(np.array([0], np.int32)), 1.0))
        yield _s(op, "2-d-index", (x, 1, _idx([0]), 1.0))
        yield _s(op, "1-d-value", (x, 1, _idx(0), A(f32([1.0]))))
    return gen


def masked_scatter_samples(op):
    inplace = op.endswith("_")

    def gen():
        for fam, a in all_families():
            mask = A(np.resize(np.array([True, False, True]), a.arr.shape))
            src = A(np.resize(a.arr.reshape(-1)[::-1], (5, 3)) if a.arr.size else
                    np.zeros((5, 3), a.arr.dtype))
            yield _s(op, fam, (a, mask, src), gradgrad=fam == "ordinary")
        yield _s(op, "node", (A(rnd(2, 3)), A(np.array([True, False, True])), A(rnd(4))),
                 node=True)
        if not inplace:
            yield _s(op, "broadcast-input", (A(rnd(3)), A(np.array([[True, False, True],
                                                                    [False, True, True]])),
                                             A(rnd(6))))
        yield _s(op, "all-false", (A(rnd(2, 3)), A(np.zeros((2, 3), bool)), A(rnd(2))))
        yield _s(op, "too-few", (A(rnd(2, 3)), A(np.ones((2, 3), bool)), A(rnd(5))))
        yield _s(op, "dtype-mismatch", (A(rnd(2, 3)), A(np.ones((2, 3), bool)),
                                        A(rnd(6, dtype=np.float64))))
        yield _s(op, "int-mask", (A(rnd(2, 3)), A(np.ones((2, 3), np.int64)), A(rnd(6))))
    return gen


def _reduce_cases():
    """(family, self, dim, index, src) for scatter_reduce: ties, zeros, NaN, repeats."""
    x = f32([[1.0, 2.0, 0.0, 4.0], [3.0, 0.0, 5.0, 5.0], [-1.0, 2.0, 2.0, 0.5]])
    idx = np.array([[0, 0, 2], [1, 1, 1], [3, 0, 3]], np.int64)
    yield "ordinary", A(rnd(3, 4)), 1, idx, A(rnd(3, 3))
    yield "ties-zeros", A(x), 1, idx, A(f32([[1.0, 0.0, 0.0], [5.0, 5.0, 0.0], [2.0, 2.0, 7.0]]))
    yield "two-zeros", A(x), 1, idx, A(f32([[0.0, 0.0, 3.0], [0.0, 2.0, 1.0], [4.0, 1.0, 2.0]]))
    yield "dim0", A(rnd(3, 4)), 0, idx.T[:, :3].copy(), A(rnd(3, 3))
    yield "nan", A(f32([[NAN, 1.0, 2.0], [0.0, -0.0, 3.0]])), 1, np.array(
        [[0, 1], [1, 1]], np.int64), A(f32([[1.0, NAN], [0.0, -0.0]]))
    yield "float64", A(rnd(3, 4, dtype=np.float64)), 1, idx, A(rnd(3, 3, dtype=np.float64))
    yield "int", A(np.array([[1, 2, 3], [-4, 5, 6]])), 1, np.array([[0, 0], [1, 1]], np.int64), \
        A(np.array([[7, -8], [-9, 1]]))
    yield "bool", A(np.array([[True, False, False]])), 1, np.array([[1, 2]], np.int64), \
        A(np.array([[True, False]]))
    yield "empty-index", A(rnd(2, 3)), 1, np.zeros((0, 2), np.int64), A(np.zeros((0, 2),
                                                                                 np.float32))
    yield "0-d", A(f32(2.0)), 0, np.array(0), A(f32(3.0))


def scatter_reduce_samples(op):
    def gen():
        for reduce in ("sum", "prod", "mean", "amax", "amin"):
            for include_self in (True, False):
                for fam, x, dim, idx, src in _reduce_cases():
                    if reduce == "prod" and fam == "two-zeros":  # double backward: torch's
                        gg = False  # DelayedError; the first-order gradient is compared
                    else:
                        gg = fam in ("ordinary", "ties-zeros")
                    yield Sample(op, f"{reduce}-{include_self}-{fam}",
                                 (x, dim, A(idx), src, reduce),
                                 {"include_self": include_self}, gradgrad=gg, call=_call(op))
        x = A(rnd(3, 4))
        yield _s(op, "node", (x, 1, _idx([0, 1]), A(rnd(1, 2)), "amax"), node=True)
        yield _s(op, "bad-reduce", (x, 1, _idx([0]), A(rnd(1, 1)), "foo"))
        yield _s(op, "dtype-mismatch", (x, 1, _idx([0]), A(rnd(1, 1, dtype=np.float64)), "sum"))
        yield _s(op, "out-of-range", (x, 1, _idx([4]), A(rnd(1, 1)), "sum"))
        yield _s(op, "float16", (A(rnd(2, 3, dtype=np.float16)), 1, _idx([0, 0]),
                                 A(rnd(1, 2, dtype=np.float16)), "sum"))
    return gen


def _selection_families():
    """Float families with ties, -0.0 and NaN in short slices (PyTorch's choice among equal
    elements is only fixed for short slices)."""
    yield from ((f, a) for f, a in all_families() if f not in ("float16",))
    yield "float16", A(np.resize(np.array([1.0, 2.0, 2.0, -1.0], np.float16), (3, 4)))
    yield "zero-signs", A(f32([[0.0, -0.0, -0.0, 0.0], [-0.0, 0.0, 0.0, -0.0]]))
    yield "neg-ties", A(f32([[-1.0, -1.0, 2.0, 2.0], [3.0, 3.0, 3.0, 1.0]]))


def kthvalue_samples(op):
    def gen():
        for fam, a in _selection_families():
            if a.arr.dtype == np.bool_:
                yield _s(op, fam, (a, 1))
                continue
            for k, dim in ((1, -1), (2, 0), (3, 1)):
                if a.arr.ndim == 0 and k > 1:
                    continue
                if a.arr.size == 0 and dim == -1:
                    continue
                yield _s(op, f"{fam}-k{k}-dim{dim}", (a, k, dim if a.arr.ndim else 0),
                         gradgrad=fam == "ordinary" and k == 2)
        yield _s(op, "keepdim", (A(rnd(3, 4)), 2, 1, True))
        yield _s(op, "node", (A(rnd(3, 4)), 2), node=True)
        yield _s(op, "nan", (A(f32([2.0, NAN, 2.0, 1.0, NAN])), 4))
        yield _s(op, "k-too-big", (A(rnd(3, 4)), 5))
        yield _s(op, "k-zero", (A(rnd(3, 4)), 0))
        yield _s(op, "empty-dim", (A(np.zeros(0, np.float32)), 1))
    return gen


def mode_samples(op):
    def gen():
        for fam, a in _selection_families():
            if fam == "nan":  # PyTorch's choice among NaNs comes from its C++ sort
                continue
            for dim in (-1, 0):
                if a.arr.size == 0 and dim == -1:
                    continue
                yield _s(op, f"{fam}-dim{dim}", (a, dim), gradgrad=fam == "ordinary")
        yield _s(op, "keepdim", (A(f32([[1.0, 2.0, 2.0, 1.0, 3.0]])), 1, True))
        yield _s(op, "node", (A(rnd(3, 4)),), node=True)
        yield _s(op, "empty-dim", (A(np.zeros(0, np.float32)),))
    return gen


def cum_samples(op):
    def gen():
        for fam, a in _selection_families():
            for dim in (0, -1):
                yield _s(op, f"{fam}-dim{dim}", (a, dim), gradgrad=fam == "ordinary")
        yield _s(op, "nan-later", (A(f32([0.0, -0.0, NAN, 3.0, NAN, -INF])), 0))
        yield _s(op, "node", (A(rnd(3, 4)), 1), node=True)
        yield _s(op, "bad-dim", (A(rnd(3, 4)), 2))
    return gen


def argwhere_samples(op):
    def gen():
        for fam, a in all_families():
            yield _s(op, fam, (a,))
        yield _s(op, "3-d", (A(np.arange(8).reshape(2, 2, 2) % 3 == 0),))
    return gen


def nan_reduce_samples(op, mean):
    def gen():
        for fam, a in all_families():
            if mean and a.arr.dtype.kind != "f":
                yield _s(op, fam, (a,))
                continue
            yield _s(op, fam, (a,), gradgrad=fam in ("ordinary", "nan"))
            if a.arr.ndim == 2:
                yield _s(op, f"{fam}-dim1", (a, 1), gradgrad=fam == "nan")
                yield _s(op, f"{fam}-dim0-keepdim", (a, 0, True))
        all_nan = A(f32([[NAN, NAN], [1.0, NAN]]))
        yield _s(op, "all-nan", (all_nan, 1))
        yield _s(op, "node", (all_nan,), node=True)
        yield _s(op, "dims", (A(rnd(2, 3, 2)), (0, 2)))
        yield _s(op, "float16", (A(np.array([[NAN, 1.5], [2.0, -0.0]], np.float16)), 0))
    return gen


def aminmax_samples(op):
    def gen():
        for fam, a in _selection_families():
            yield _s(op, fam, (a,), gradgrad=fam in ("ordinary", "ties"))
            if a.arr.ndim == 2:
                yield _s(op, f"{fam}-dim0", (a,), {"dim": 0})
                yield _s(op, f"{fam}-dim1-keepdim", (a,), {"dim": 1, "keepdim": True},
                         gradgrad=fam == "ties")
        yield _s(op, "0-d-dim", (A(f32(3.0)),), {"dim": 0})
        yield _s(op, "node", (A(rnd(3, 4)),), {"dim": 1}, node=True)
    return gen


def add_samples(t: dict) -> None:
    """Register every new op: functions, methods and in-place methods."""
    for name, gen, inplace in (
            ("take", take_samples, False), ("take_along_dim", take_along_dim_samples, False),
            ("index_copy", index_copy_samples, True), ("index_fill", index_fill_samples, True),
            ("masked_scatter", masked_scatter_samples, True),
            ("scatter_reduce", scatter_reduce_samples, True),
            ("kthvalue", kthvalue_samples, False), ("mode", mode_samples, False),
            ("cummax", cum_samples, False), ("cummin", cum_samples, False),
            ("argwhere", argwhere_samples, False),
            ("nansum", lambda op: nan_reduce_samples(op, False), False),
            ("nanmean", lambda op: nan_reduce_samples(op, True), False),
            ("aminmax", aminmax_samples, False)):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = gen(f"{style}:{name}")
        if inplace:
            t[f"method:{name}_"] = gen(f"method:{name}_")

"""OpInfo samples of task linalg2: ``addmv``, ``addr``, ``ger`` (functions, methods, the
in-place forms and ``out=``), ``index_reduce``.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the table's input
families (see ``tests/_opinfo_samples.py``): every family for ``input``, ``beta``/``alpha``
(``beta=0`` does not read ``input``, its NaN too), broadcasting, integer and bool dtypes,
non-contiguous and empty operands, each error, and the names of the recorded nodes.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, rnd
from _opinfo_samples_sampling_extra import _graph, _like


def _style_call(op):
    """Call ``op`` ("fn:addmv", "method:addr", "method:addr_" on a clone) with the input."""
    style, name = op.split(":")

    def call(lib, x, *args, **kw):
        if name.endswith("_"):
            return getattr(x.clone(), name)(*args, **kw)
        if style == "fn":
            return getattr(lib, name)(x, *args, **kw)
        return getattr(x, name)(*args, **kw)
    return call


def _out_call(name, dtype=None):
    def call(lib, x, *args, **kw):
        out = lib.empty(0, dtype=getattr(lib, dtype) if dtype else x.dtype)
        res = getattr(lib, name)(x.detach(), *(a.detach() for a in args), out=out, **kw)
        return res, res is out
    return call


def addmv_addr_samples(op):
    """``addmv`` (``input`` of length n, ``mat`` n x k, ``vec`` of length k) and ``addr``
    (``input`` n x m, ``vec1`` of length n, ``vec2`` of length m)."""
    name = op.split(":")[1].rstrip("_")
    inplace = op.endswith("_")
    mv = name == "addmv"
    xs, s1, s2 = ((3,), (3, 4), (4,)) if mv else ((3, 4), (3,), (4,))
    call = _style_call(op)

    def gen():
        for fam, a in all_families(xs):
            if inplace and fam in ("empty", "0-d"):
                continue
            if fam == "empty":
                b1, b2 = (A(np.zeros((0, 4), np.float32)), A(rnd(4))) if mv else \
                    (A(np.zeros(0, np.float32)), A(rnd(4)))
            else:
                b1, b2 = _like(rnd(*s1), a.arr), _like(rnd(*s2), a.arr)
            yield Sample(op, fam, (a, b1, b2), call=call,
                         gradgrad=fam in ("ordinary", "float64") and not inplace)
            if fam not in ("empty", "0-d") or not mv:
                kw = {"beta": 0.5, "alpha": 2} if a.arr.dtype.kind == "f" else \
                    {"beta": 2, "alpha": 3}
                yield Sample(op, fam + "-scaled", (a, b1, b2), kw, call=call)
        x, m1, m2 = A(rnd(*xs)), A(rnd(*s1)), A(rnd(*s2))
        for fam, kw in (("beta0", {"beta": 0}), ("alpha0", {"alpha": 0}),
                        ("negative", {"beta": -1.5, "alpha": -0.25}),
                        ("int-scalars", {"beta": 2, "alpha": 3}),
                        ("bool-beta", {"beta": True}), ("bool-alpha", {"alpha": False})):
            yield Sample(op, fam, (x, m1, m2), kw, call=call, gradgrad=fam == "negative")
        nan_in = A(np.resize(f32([NAN, 1, INF, 2, -INF, 0]), np.prod(xs)).reshape(xs))
        yield Sample(op, "beta0-nan-input", (nan_in, m1, m2), {"beta": 0}, call=call)
        yield Sample(op, "nan-input", (nan_in, m1, m2), {"beta": 0.5}, call=call)
        yield Sample(op, "inf-operand", (x, A(np.where(rnd(*s1) > 1, INF, rnd(*s1))), m2),
                     call=call)
        ints = np.arange(int(np.prod(xs))).reshape(xs)
        yield Sample(op, "int-float-scalars", (A(ints), _like(rnd(*s1), ints),
                                               _like(rnd(*s2), ints)),
                     {"beta": 0.5, "alpha": 1.5}, call=call)
        yield Sample(op, "float16-scaled", (A(rnd(*xs, dtype=np.float16)),
                                            A(rnd(*s1, dtype=np.float16)),
                                            A(rnd(*s2, dtype=np.float16))),
                     {"beta": 0.5, "alpha": 1.5}, call=call)
        # input broadcast to the result's shape (its gradient summed back)
        shapes = (("broadcast-0d", ()), ("broadcast-1", (1,))) if mv else \
            (("broadcast-row", (4,)), ("broadcast-col", (3, 1)), ("broadcast-0d", ()),
             ("broadcast-1x1", (1, 1)))
        for fam, shape in shapes:
            yield Sample(op, fam, (A(rnd(*shape)), m1, m2), {"beta": 0.7}, call=call,
                         gradgrad=fam == "broadcast-0d" and not inplace)
        yield Sample(op, "noncontig", (A(rnd(*xs), layout="T"), A(rnd(*s1), layout="T"),
                                       A(rnd(*s2), layout="T")), call=call)
        yield Sample(op, "strided", (A(rnd(*xs), layout="step"), A(rnd(*s1), layout="step"),
                                     A(rnd(*s2), layout="step")), call=call)
        if mv:
            yield Sample(op, "empty-inner", (x, A(np.zeros((3, 0), np.float32)),
                                             A(np.zeros(0, np.float32))), {"beta": 2}, call=call)
            yield Sample(op, "empty-inner-beta0", (nan_in, A(np.zeros((3, 0), np.float32)),
                                                   A(np.zeros(0, np.float32))), {"beta": 0},
                         call=call)
        else:
            yield Sample(op, "empty-vec2", (A(np.zeros((3, 0), np.float32)), m1,
                                            A(np.zeros(0, np.float32))), call=call)
            # the three promote to one dtype
            yield Sample(op, "promote-int-vec", (x, A(np.array([1, 2, 3])), m2), call=call)
            yield Sample(op, "promote-float64-vecs", (x, A(rnd(3, dtype=np.float64)),
                                                      A(rnd(4, dtype=np.float64))), call=call)
            yield Sample(op, "promote-float64-input", (A(rnd(3, 4, dtype=np.float64)),
                                                       A(rnd(3), grad=False),
                                                       A(rnd(4), grad=False)), call=call)
            yield Sample(op, "promote-half-input", (A(rnd(3, 4, dtype=np.float16)), m1, m2),
                         call=call)
            bools = (A(np.array([[True, False, True, False]] * 3)), A(np.array([1, 0, 1]) > 0),
                     A(np.array([1, 1, 0, 1]) > 0))
            for fam, kw in (("bool", {}), ("bool-beta-false", {"beta": False}),
                            ("bool-alpha-false", {"alpha": False}),
                            ("bool-int-scalars", {"beta": 2, "alpha": 0}),
                            ("bool-float-beta", {"beta": 0.5})):
                yield Sample(op, fam, bools, kw, call=call)
            yield Sample(op, "bool-vecs-uint8", (A(np.ones((3, 4), np.uint8)), *bools[1:]),
                         {"beta": 2, "alpha": 3}, call=call)
            yield Sample(op, "int-float-beta", (A(np.ones((3, 4), np.int64)),
                                                A(np.array([1, 2, 3])), A(np.array([1, 2, 3, 4]))),
                         {"beta": 0.5}, call=call)
            yield Sample(op, "int-float-alpha", (A(np.ones((3, 4), np.int64)),
                                                 A(np.array([1, 2, 3])),
                                                 A(np.array([1, 2, 3, 4]))),
                         {"alpha": 1.5}, call=call)
            yield Sample(op, "float-bool-beta", (x, m1, m2), {"beta": True}, call=call)
            yield Sample(op, "vec1-2d", (x, A(rnd(3, 1)), m2), call=call)
            yield Sample(op, "vec2-0d", (x, m1, A(f32(1.0))), call=call)
            yield Sample(op, "input-wrong", (A(rnd(3, 3)), m1, m2), call=call, msg=0)
            yield Sample(op, "input-3d", (A(rnd(2, 3, 4)), m1, m2), call=call, msg=0)
            # PyTorch's backward fails on these dtypes (grad.mv(vec2) of two dtypes)
            yield Sample(op, "promote-float64-input-grad", (A(rnd(3, 4, dtype=np.float64)),
                                                            m1, m2), call=call)
        # errors
        if mv:
            yield Sample(op, "inner-mismatch", (x, m1, A(rnd(3))), call=call)
            yield Sample(op, "rows-mismatch", (A(rnd(4)), m1, m2), call=call)
            yield Sample(op, "mat-1d", (x, A(rnd(4)), m2), call=call)
            yield Sample(op, "vec-2d", (x, m1, A(rnd(4, 1))), call=call)
            yield Sample(op, "input-2d", (A(rnd(3, 1)), m1, m2), call=call)
            yield Sample(op, "0d-input-mismatch", (A(f32(1.0)), m1, A(rnd(3))), call=call)
            yield Sample(op, "input-float64", (A(rnd(3, dtype=np.float64)), m1, m2), call=call)
            yield Sample(op, "vec-float64", (x, m1, A(rnd(4, dtype=np.float64))), call=call)
            yield Sample(op, "input-int", (A(np.ones(3, np.int64)), m1, m2), call=call)
            yield Sample(op, "bool", (A(np.ones(3, bool)), A(np.ones((3, 4), bool)),
                                      A(np.ones(4, bool))), call=call)
        if inplace:
            yield Sample(op, "self-broadcast", (A(rnd(*([1] * len(xs)))), m1, m2), call=call)
            yield Sample(op, "self-int", (A(np.ones(xs, np.int64)), m1, m2), call=call)
        else:
            yield Sample(op, "graph", (A(rnd(*xs)), m1, m2), {"beta": 0.5, "alpha": 2},
                         call=_graph(name) if op.startswith("fn:") else None)
            yield Sample(op, "graph-no-input-grad", (A(rnd(*xs), grad=False), m1, m2),
                         call=_graph(name) if op.startswith("fn:") else None)
        if op.startswith("fn:"):
            for fam, dtype in (("out", None), ("out-float64", "float64"), ("out-int", "int64")):
                yield Sample(op, fam, (x, m1, m2), {"beta": 0.5}, call=_out_call(name, dtype))
            yield Sample(op, "out-requires-grad", (x, m1, m2),
                         call=lambda lib, *a: getattr(lib, name)(*a, out=lib.empty(0)))
    return gen


def ger_samples(op):
    def call(lib, a, b):
        return a.ger(b) if op.startswith("method") else lib.ger(a, b)

    def gen():
        for fam, a in all_families((3,)):
            if fam == "0-d":
                continue
            yield Sample(op, fam, (a, _like(rnd(4), a.arr)), call=call,
                         gradgrad=fam == "ordinary")
        yield Sample(op, "2d", (A(rnd(3)), A(rnd(2, 2))), call=call)
        yield Sample(op, "0d", (A(f32(1.0)), A(rnd(2))), call=call)
        yield Sample(op, "promote", (A(rnd(3)), A(np.array([1, 2]))), call=call)
        yield Sample(op, "graph", (A(rnd(3)), A(rnd(2))), call=_graph("ger"))
        if op.startswith("fn:"):
            yield Sample(op, "out", (A(rnd(3), grad=False), A(rnd(2), grad=False)),
                         call=lambda lib, a, b: lib.ger(a, b, out=lib.empty(0)))
    return gen


def add_samples(t: dict) -> None:
    for name in ("addmv", "addr"):
        t[f"fn:{name}"] = addmv_addr_samples(f"fn:{name}")
        t[f"method:{name}"] = addmv_addr_samples(f"method:{name}")
        t[f"method:{name}_"] = addmv_addr_samples(f"method:{name}_")
    t["fn:ger"] = ger_samples("fn:ger")
    t["method:ger"] = ger_samples("method:ger")
    add_index_reduce_samples(t)


def index_reduce_samples(op):
    """``index_reduce`` for each ``reduce`` and ``include_self``: every family for ``input``
    (``source`` in its dtype), ties (``amax``/``amin`` share the gradient), zeros (``prod``'s
    gradient where one or two factors are 0), repeated and unused indices, errors."""
    call = _style_call(op)
    idx = A(np.array([0, 2, 0, 3]))

    def gen():
        for reduce in ("prod", "mean", "amax", "amin"):
            for inc in (True, False):
                kw = {"include_self": inc}
                tag = f"{reduce}-{'self' if inc else 'noself'}"
                for fam, a in all_families((4, 3)):
                    if fam in ("empty", "0-d") or (fam == "bool" and reduce == "mean"):
                        continue
                    src = _like(rnd(4, 3), a.arr)
                    if fam == "ties":
                        src = A(np.resize(f32([2.0, 1.0, 2.0, -1.0]), 12).reshape(4, 3))
                    yield Sample(op, f"{tag}-{fam}", (a, 0, idx, src, reduce), kw, call=call,
                                 gradgrad=fam in ("ordinary", "float64") and
                                 not op.endswith("_"))
                x = A(rnd(3, 5))
                yield Sample(op, f"{tag}-dim1", (x, 1, A(np.array([4, 0, 4])), A(rnd(3, 3)),
                                                 reduce), kw, call=call)
                yield Sample(op, f"{tag}-neg-dim", (x, -1, A(np.array([1, 1], np.int32)),
                                                    A(rnd(3, 2)), reduce), kw, call=call)
                yield Sample(op, f"{tag}-0-d", (A(f32(2.0)), 0, A(np.array([0])),
                                                A(f32(-3.0)), reduce), kw, call=call)
                yield Sample(op, f"{tag}-empty-index", (x, 0, A(np.zeros(0, np.int64)),
                                                        A(np.zeros((0, 5), np.float32)), reduce),
                             kw, call=call)
                yield Sample(op, f"{tag}-3d", (A(rnd(2, 3, 2)), 1, A(np.array([2, 2])),
                                               A(rnd(2, 2, 2)), reduce), kw, call=call)
                zeros = rnd(4, 3)
                zeros[0, 0] = zeros[1, 1] = zeros[2, 1] = 0  # one zero per slot, and two
                base = rnd(4, 3)
                base[0, 2] = 0
                yield Sample(op, f"{tag}-zeros", (A(base), 0, A(np.array([0, 1, 1, 3])),
                                                  A(zeros), reduce), kw, call=call)
                yield Sample(op, f"{tag}-float16", (A(rnd(4, 3, dtype=np.float16)), 0, idx,
                                                    A(rnd(4, 3, dtype=np.float16)), reduce),
                             kw, call=call)
        x, src = A(rnd(4, 3)), A(rnd(4, 3))
        yield Sample(op, "int-mean-floor", (A(np.arange(12).reshape(4, 3)), 0, idx,
                                            A(np.arange(12).reshape(4, 3) * 3 - 7), "mean"),
                     call=call)
        # errors
        yield Sample(op, "reduce-sum", (x, 0, idx, src, "sum"), call=call)
        yield Sample(op, "dtype-mismatch", (x, 0, idx, A(rnd(4, 3, dtype=np.float64)), "prod"),
                     call=call)
        yield Sample(op, "float-index", (x, 0, A(f32([0, 1, 2, 3]), grad=False), src, "prod"),
                     call=call)
        yield Sample(op, "2-d-index", (x, 0, A(np.array([[0, 1, 2, 3]])), src, "prod"),
                     call=call)
        yield Sample(op, "2-d-float-index", (x, 0, A(np.ones((4, 1), np.float32), grad=False),
                                             src, "prod"), call=call)
        yield Sample(op, "count-mismatch", (x, 0, A(np.array([0, 1])), src, "amax"), call=call)
        yield Sample(op, "out-of-range", (x, 0, A(np.array([0, 4, 0, 0])), src, "amax"),
                     call=call)
        yield Sample(op, "negative-index", (x, 0, A(np.array([0, -1, 0, 0])), src, "amax"),
                     call=call)
        yield Sample(op, "shape-mismatch", (x, 0, idx, A(rnd(4, 2)), "amax"), call=call)
        yield Sample(op, "bad-dim", (x, 2, idx, src, "amax"), call=call)
        yield Sample(op, "source-dim", (A(rnd(4, 3)), 1, A(np.array([0])), A(rnd(4)), "amax"),
                     call=call)
        yield Sample(op, "0-d-self-1-d-source", (A(f32(2.0)), 0, A(np.array([0])), A(f32([3.0])),
                                                 "amax"), call=call)
        yield Sample(op, "bool-mean", (A(np.ones((4, 3), bool)), 0, idx,
                                       A(np.ones((4, 3), bool)), "mean"), call=call)
        if not op.endswith("_"):
            yield Sample(op, "graph", (x, 0, idx, src, "amax"),
                         call=_graph("index_reduce") if op.startswith("fn:") else None)
        if op.startswith("fn:"):
            yield Sample(op, "out", (A(rnd(4, 3), grad=False), 0, idx, A(rnd(4, 3), grad=False),
                                     "amin"),
                         call=lambda lib, *a: lib.index_reduce(*a, out=lib.empty(0)))
    return gen


def add_index_reduce_samples(t: dict) -> None:
    for op in ("fn:index_reduce", "method:index_reduce", "method:index_reduce_"):
        t[op] = index_reduce_samples(op)

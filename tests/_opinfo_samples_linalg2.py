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
        out = lib.empty(0, dtype=getattr(lib, dtype) if dtype else x.dtype, device=x.device)
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
                         call=lambda lib, *a: getattr(lib, name)(
                             *a, out=lib.empty(0, device=a[0].device)))
            yield Sample(op, "out-not-tensor", (x, m1, m2),  # (task misc2)
                         call=lambda lib, *a: getattr(lib, name)(*a, out=[1]))
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
                         call=lambda lib, a, b: lib.ger(a, b, out=lib.empty(0, device=a.device)))
    return gen


def add_samples(t: dict) -> None:
    for name in ("addmv", "addr"):
        t[f"fn:{name}"] = addmv_addr_samples(f"fn:{name}")
        t[f"method:{name}"] = addmv_addr_samples(f"method:{name}")
        t[f"method:{name}_"] = addmv_addr_samples(f"method:{name}_")
    t["fn:ger"] = ger_samples("fn:ger")
    t["method:ger"] = ger_samples("method:ger")
    add_index_reduce_samples(t)
    _linalg_ops(t)
    _older_ops(t)
    _lu_ops(t)
    t["linalg:lstsq"] = lstsq_samples("linalg:lstsq")
    _more_ops(t)
    _out_ops(t)
    _householder_ops(t)
    _ldl_ops(t)


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
                         call=lambda lib, *a: lib.index_reduce(
                             *a, out=lib.empty(0, device=a[0].device)))
    return gen


def add_index_reduce_samples(t: dict) -> None:
    for op in ("fn:index_reduce", "method:index_reduce", "method:index_reduce_"):
        t[op] = index_reduce_samples(op)


# --------------------------------------------------------------------------- torch.linalg
def _spd(*shape, dtype=np.float32):
    """Well-conditioned square matrices (rounding agrees between the libraries)."""
    m = rnd(*shape, dtype=np.float64)
    return (m + 3 * np.eye(shape[-1])).astype(dtype)


def _pd(*shape, dtype=np.float32):
    m = rnd(*shape, dtype=np.float64)
    return (m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _tri(*shape, upper=False, dtype=np.float32):
    m = _spd(*shape, dtype=dtype)
    return np.triu(m) if upper else np.tril(m)


def vecdot_samples(op):
    def gen():
        for fam, a in all_families((2, 3)):
            yield Sample(op, fam, (a, _like(rnd(2, 3), a.arr) if a.arr.ndim else A(f32(2.0))),
                         gradgrad=fam == "ordinary")
        x = A(rnd(2, 3))
        yield Sample(op, "1-d", (A(rnd(3)), A(rnd(3))), gradgrad=True)
        yield Sample(op, "broadcast", (x, A(rnd(3))))
        yield Sample(op, "dim0", (x, A(rnd(2, 3))), {"dim": 0})
        yield Sample(op, "empty-1-d", (A(np.zeros(0, np.float32)), A(np.zeros(0, np.float32))))
        yield Sample(op, "dtypes", (x, A(rnd(2, 3, dtype=np.float64))))
        yield Sample(op, "1-d-mismatch", (A(rnd(3)), A(rnd(4))))
        yield Sample(op, "mismatch", (x, A(rnd(2, 4))))
        yield Sample(op, "graph", (x, A(rnd(2, 3))), call=_linalg_graph("vecdot"))
        yield Sample(op, "graph-1-d", (A(rnd(3)), A(rnd(3))), call=_linalg_graph("vecdot"))
    return gen


def _linalg_graph(name):
    def call(lib, *args, **kw):
        out = getattr(lib.linalg, name)(*args, **kw)
        first = out[0] if isinstance(out, tuple) else out
        return out, _names_of(first.grad_fn)
    return call


def _names_of(node) -> list:
    if node is None:
        return [None]
    return [node.name()] + [n for child, _ in node.next_functions for n in _names_of(child)]


def vander_samples(op):
    def gen():
        for fam, a in all_families((4,)):
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        yield Sample(op, "N", (A(rnd(3)),), {"N": 5})
        yield Sample(op, "N=2", (A(rnd(3)),), {"N": 2})
        yield Sample(op, "N=1", (A(rnd(3)),), {"N": 1})
        yield Sample(op, "batch", (A(rnd(2, 3)),))
        yield Sample(op, "int32-big", (A(np.array([100, 1000, 7], np.int32)),))
        yield Sample(op, "graph", (A(rnd(3)),), call=_linalg_graph("vander"))
    return gen


def diagonal_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            if a.arr.ndim == 2:
                yield Sample(op, fam, (a,))
        x = A(rnd(2, 3, 4))
        yield Sample(op, "batch", (x,), gradgrad=True)
        yield Sample(op, "offset", (x,), {"offset": 1})
        yield Sample(op, "offset-neg", (x,), {"offset": -2})
        yield Sample(op, "dims", (x,), {"dim1": 0, "dim2": 2})
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "same-dims", (x,), {"dim1": 1, "dim2": 1})
    return gen


def cond_samples(op):
    def gen():
        a = A(_spd(3, 3))
        for p in (None, 2, -2, 1, -1, INF, -INF, "fro", "nuc"):
            # (no second derivative of svdvals in minitorch; PyTorch's backward of the
            # norm-of-the-inverse orders fails: cond modifies the inverse in place)
            yield Sample(op, f"p={p}", (a,) + ((p,) if p is not None else ()),
                         gradgrad=False)
            # a singular matrix: (for the singular values, one exactly 0 only for zeros: a
            # rounded one gives a huge number that the libraries' LAPACKs do not agree on)
            singular = np.zeros((2, 2), np.float32) if p in (None, 2, -2, "nuc") else \
                f32([[1.0, 2.0], [2.0, 4.0]])
            yield Sample(op, f"p={p}-singular", (A(singular, grad=False), p))
            yield Sample(op, f"p={p}-batch", (A(_spd(2, 3, 3)), p))
            yield Sample(op, f"p={p}-empty", (A(np.zeros((2, 0, 0), np.float32)), p))
            yield Sample(op, f"p={p}-float64", (A(_spd(3, 3, dtype=np.float64)), p))
            yield Sample(op, f"p={p}-not-square", (A(rnd(2, 3)), p))
        yield Sample(op, "p=3", (a, 3))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        for p in (None, "fro", "nuc"):
            yield Sample(op, f"graph-{p}", (a, p), call=_linalg_graph("cond"))
    return gen


def tensorinv_samples(op):
    def gen():
        m = _spd(6, 6)
        yield Sample(op, "ordinary", (A(m.reshape(2, 3, 6)),), {"ind": 2}, gradgrad=True)
        yield Sample(op, "ind1", (A(m.reshape(6, 2, 3)),), {"ind": 1})
        yield Sample(op, "float64", (A(m.astype(np.float64).reshape(3, 2, 2, 3)),))
        yield Sample(op, "ind0", (A(m.reshape(6, 6)),), {"ind": 0})
        yield Sample(op, "mismatch", (A(rnd(4, 6, 8, 3)),), {"ind": 1})
        yield Sample(op, "singular", (A(np.ones((2, 2, 2, 2), np.float32)),), msg=20)
        yield Sample(op, "graph", (A(m.reshape(2, 3, 6)),), call=_linalg_graph("tensorinv"))
    return gen


def tensorsolve_samples(op):
    def gen():
        m = _spd(6, 6)
        yield Sample(op, "ordinary", (A(m.reshape(2, 3, 6)), A(rnd(2, 3))), gradgrad=True)
        yield Sample(op, "dims", (A(m.reshape(6, 2, 3).transpose(1, 0, 2).copy()), A(rnd(2, 3))),
                     {"dims": (0,)})
        yield Sample(op, "float64", (A(m.astype(np.float64).reshape(6, 3, 2)),
                                     A(rnd(6, dtype=np.float64))))
        yield Sample(op, "mismatch", (A(rnd(2, 3, 5)), A(rnd(2, 3))))
        yield Sample(op, "graph", (A(m.reshape(2, 3, 6)), A(rnd(2, 3))),
                     call=_linalg_graph("tensorsolve"))
    return gen


def matrix_exp_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(rnd(3, 3)),), gradgrad=True)
        yield Sample(op, "batch", (A(rnd(2, 3, 3)),))
        yield Sample(op, "float64", (A(rnd(4, 4, dtype=np.float64)),), gradgrad=True)
        yield Sample(op, "large", (A(rnd(3, 3) * 4),))
        yield Sample(op, "zeros", (A(np.zeros((3, 3), np.float32)),))
        yield Sample(op, "1x1", (A(f32([[0.5]])),))
        yield Sample(op, "nilpotent", (A(np.triu(rnd(4, 4), 1)),))
        yield Sample(op, "noncontig", (A(rnd(3, 3), layout="T"),))
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 2), np.float32)),))
        yield Sample(op, "not-square", (A(rnd(2, 3)),))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        if op.startswith("linalg"):
            yield Sample(op, "graph", (A(rnd(3, 3)),), call=_linalg_graph("matrix_exp"))
    return gen


def solve_triangular_samples(op):
    def gen():
        for upper in (True, False):
            for left in (True, False):
                for unit in (False, True):
                    tag = f"{'upper' if upper else 'lower'}-{'left' if left else 'right'}" + \
                        ("-unit" if unit else "")
                    a = A(_spd(3, 3))  # the other triangle is not read
                    b = A(rnd(3, 2) if left else rnd(2, 3))
                    yield Sample(op, tag, (a, b), {"upper": upper, "left": left,
                                                   "unitriangular": unit},
                                 gradgrad=not unit)
        a, b = A(_tri(3, 3)), A(rnd(3, 2))
        yield Sample(op, "batch", (A(_tri(2, 3, 3)), A(rnd(2, 3, 2))), {"upper": False})
        yield Sample(op, "broadcast", (A(_tri(2, 1, 3, 3)), A(rnd(4, 3, 2))), {"upper": False})
        yield Sample(op, "broadcast-b", (a, A(rnd(2, 3, 2))), {"upper": False})
        yield Sample(op, "float64", (A(_tri(3, 3, dtype=np.float64)),
                                     A(rnd(3, 2, dtype=np.float64))), {"upper": False})
        yield Sample(op, "noncontig", (A(_tri(3, 3), layout="T"), A(rnd(3, 2), layout="T")),
                     {"upper": False})
        yield Sample(op, "zero-diagonal", (A(f32([[0.0, 0.0], [1.0, 2.0]])), A(f32([[1.0],
                                                                                   [1.0]]))),
                     {"upper": False})
        yield Sample(op, "zeros", (A(np.zeros((2, 2), np.float32), grad=False),
                                   A(f32([[1.0, 0.0], [0.0, 1.0]]))), {"upper": True})
        yield Sample(op, "nan", (a, A(f32([[NAN, 1], [0, 1], [2, INF]]))), {"upper": False})
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),
                                   A(np.zeros((0, 2), np.float32))), {"upper": False})
        yield Sample(op, "empty-cols", (a, A(np.zeros((3, 0), np.float32))), {"upper": False})
        yield Sample(op, "no-upper", (a, b))
        yield Sample(op, "mismatch", (a, A(rnd(2, 2))), {"upper": False})
        yield Sample(op, "mismatch-right", (a, A(rnd(2, 2))), {"upper": False, "left": False})
        yield Sample(op, "b-1-d", (a, A(rnd(3))), {"upper": False})
        yield Sample(op, "dtypes", (a, A(rnd(3, 2, dtype=np.float64))), {"upper": False})
        yield Sample(op, "dtypes-int-b", (a, A(np.ones((3, 2), np.int64))), {"upper": False})
        yield Sample(op, "dtypes-half-b", (a, A(rnd(3, 2, dtype=np.float16))), {"upper": False})
        yield Sample(op, "dtypes-int-a", (A(np.eye(3, dtype=np.int64)), b), {"upper": False})
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)), A(np.ones((2, 1), np.int64))),
                     {"upper": False})
        yield Sample(op, "float16", (A(_tri(2, 2, dtype=np.float16)),
                                     A(rnd(2, 1, dtype=np.float16))), {"upper": False})
        yield Sample(op, "not-square", (A(rnd(2, 3)), A(rnd(2, 1))), {"upper": False})
        yield Sample(op, "batch-mismatch", (A(_tri(2, 3, 3)), A(rnd(3, 3, 2))), {"upper": False})
        yield Sample(op, "graph", (a, b), {"upper": False},
                     call=_linalg_graph("solve_triangular"))
    return gen


def ex_samples(op):
    """``inv_ex``, ``solve_ex``, ``cholesky_ex``: the result and its ``info`` tensor, also
    for matrices that fail (LAPACK's infs and NaNs, the partial Cholesky factor)."""
    name = op.split(":")[1]

    def args(m):
        if name == "solve_ex":  # (B without a gradient where A is singular: see below)
            return (m, A(np.ones(m.arr.shape[:-1], m.arr.dtype), grad=m.grad))
        return (m,)

    def gen():
        good = A(_pd(3, 3)) if name == "cholesky_ex" else A(_spd(3, 3))
        # (not the family "ordinary": test_gradcheck would perturb one triangle of a matrix
        # whose gradient PyTorch makes symmetric; tests/test_linalg2.py checks it)
        yield Sample(op, "well-conditioned", args(good), gradgrad=True)
        yield Sample(op, "batch", args(A(_pd(2, 3, 3) if name == "cholesky_ex" else
                                         _spd(2, 3, 3))))
        yield Sample(op, "float64", args(A(_pd(3, 3, dtype=np.float64))))
        yield Sample(op, "empty", args(A(np.zeros((0, 0), np.float32))))
        failing = [("singular", f32([[1.0, 2.0], [2.0, 4.0]])), ("zeros", np.zeros((2, 2),
                                                                                 np.float32)),
                   ("rank1-3x3", np.ones((3, 3), np.float32)),
                   ("not-pd-2", f32([[4.0, 2.0, 1.0], [2.0, -5.0, 0.0], [1.0, 0.0, 3.0]])),
                   ("not-pd-1", f32([[-4.0, 2.0], [2.0, 5.0]])),
                   ("singular-later", f32([[2.0, 1.0, 1.0], [4.0, 2.0, 2.0], [1.0, 3.0, 5.0]]))]
        for fam, m in failing:
            yield Sample(op, fam, args(A(m, grad=False)))
            yield Sample(op, fam + "-check", args(A(m, grad=False)), {"check_errors": True})
        batch = np.stack([_pd(2, 2), f32([[1.0, 2.0], [2.0, 1.0]]), np.zeros((2, 2),
                                                                            np.float32)])
        yield Sample(op, "batch-failing", args(A(batch, grad=False)))
        yield Sample(op, "batch-failing-check", args(A(batch, grad=False)),
                     {"check_errors": True})
        if name == "cholesky_ex":
            yield Sample(op, "upper", (A(_pd(3, 3)),), {"upper": True})
            yield Sample(op, "upper-failing", (A(failing[3][1], grad=False),), {"upper": True})
        if name == "solve_ex":
            yield Sample(op, "left-false", (A(_spd(3, 3)), A(rnd(2, 3))), {"left": False})
            yield Sample(op, "matrix", (A(_spd(3, 3)), A(rnd(3, 2))))
            yield Sample(op, "mismatch", (A(_spd(3, 3)), A(rnd(4))))
            yield Sample(op, "dtypes", (A(_spd(3, 3)), A(rnd(3, dtype=np.float64))))
        yield Sample(op, "not-square", args(A(rnd(2, 3))))
        yield Sample(op, "int", args(A(np.eye(2, dtype=np.int64))))
        yield Sample(op, "float16", args(A(_pd(2, 2, dtype=np.float16))))
        yield Sample(op, "graph", args(good), call=_linalg_graph(name))
    return gen


def _linalg_ops(t: dict) -> None:
    t["linalg:vecdot"] = vecdot_samples("linalg:vecdot")
    t["linalg:vander"] = vander_samples("linalg:vander")
    t["linalg:diagonal"] = diagonal_samples("linalg:diagonal")
    t["linalg:cond"] = cond_samples("linalg:cond")
    t["linalg:tensorinv"] = tensorinv_samples("linalg:tensorinv")
    t["linalg:tensorsolve"] = tensorsolve_samples("linalg:tensorsolve")
    for op in ("linalg:matrix_exp", "fn:matrix_exp", "method:matrix_exp"):
        t[op] = matrix_exp_samples(op)
    t["linalg:solve_triangular"] = solve_triangular_samples("linalg:solve_triangular")
    for name in ("inv_ex", "solve_ex", "cholesky_ex"):
        t[f"linalg:{name}"] = ex_samples(f"linalg:{name}")


# --------------------------------------------------------------------------- older torch.* forms
def _graph_of(name):
    def call(lib, *args, **kw):
        out = getattr(lib, name)(*args, **kw)
        first = out[0] if isinstance(out, tuple) else out
        return out, _names_of(first.grad_fn)
    return call


def nuclear_frobenius_samples(op):
    name = op.split(":")[1]

    def gen():
        x = A(rnd(3, 4))
        dims = {"dim": (0, 1)} if name == "frobenius_norm" else {}
        for fam, a in float_families_2d():
            yield Sample(op, fam, (a,), dict(dims), gradgrad=fam == "ordinary" and
                         name == "frobenius_norm")
        yield Sample(op, "keepdim", (x,), {**dims, "keepdim": True})
        yield Sample(op, "batch-dims", (A(rnd(2, 3, 4)),), {"dim": (1, 2)})
        yield Sample(op, "batch-dims-keepdim", (A(rnd(2, 3, 4)),), {"dim": (0, 2),
                                                                      "keepdim": True})
        yield Sample(op, "1-d", (A(rnd(3)),), dict(dims) if name == "nuclear_norm" else
                     {"dim": (0,)})
        yield Sample(op, "int", (A(np.ones((2, 2), np.int64)),), dict(dims))
        yield Sample(op, "graph", (x,), dict(dims), call=_graph_of(name))
        if name == "frobenius_norm":
            yield Sample(op, "one-dim", (x,), {"dim": (1,)})
            yield Sample(op, "int-dim", (x,), {"dim": 1})
            yield Sample(op, "no-dims", (x,), {"dim": ()})
            yield Sample(op, "three-dims", (A(rnd(2, 3, 4)),), {"dim": (0, 1, 2)})
            yield Sample(op, "repeated", (x,), {"dim": (0, 0)})
        else:
            yield Sample(op, "3-d-no-dim", (A(rnd(2, 3, 4)),))
            yield Sample(op, "one-dim", (A(rnd(2, 3, 4)),), {"dim": (0,)})
    return gen


def float_families_2d():
    from _opinfo_samples import float_families

    for fam, a in float_families((3, 4)):
        if a.arr.ndim == 2 and fam not in ("float16", "inf", "nan"):
            yield fam, a


def _chol_factor(*shape, upper=False, dtype=np.float32):
    m = np.linalg.cholesky(_pd(*shape, dtype=np.float64))
    return (np.swapaxes(m, -1, -2) if upper else m).astype(dtype)


def cholesky_inverse_samples(op):
    def gen():
        for upper in (False, True):
            tag = "upper" if upper else "lower"
            yield Sample(op, tag, (A(_chol_factor(3, 3, upper=upper)), upper), gradgrad=True)
            yield Sample(op, f"{tag}-batch", (A(_chol_factor(2, 3, 3, upper=upper)), upper))
        yield Sample(op, "ordinary", (A(_chol_factor(3, 3)),))
        yield Sample(op, "float64", (A(_chol_factor(3, 3, dtype=np.float64)),))
        yield Sample(op, "noncontig", (A(_chol_factor(3, 3), layout="T"),))
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "not-square", (A(rnd(2, 3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "graph", (A(_chol_factor(3, 3)),), call=_graph_of("cholesky_inverse")
                     if op.startswith("fn") else None)
    return gen


def cholesky_solve_samples(op):
    def gen():
        for upper in (False, True):
            tag = "upper" if upper else "lower"
            yield Sample(op, tag, (A(rnd(3, 2)), A(_chol_factor(3, 3, upper=upper)), upper),
                         gradgrad=True)
            yield Sample(op, f"{tag}-batch", (A(rnd(2, 3, 2)),
                                              A(_chol_factor(2, 3, 3, upper=upper)), upper))
        L = A(_chol_factor(3, 3))
        # (not the family "ordinary" that test_gradcheck picks: PyTorch's gradient for the
        # factor is a full matrix, though only one triangle is read; gradcheck would fail
        # PyTorch too. tests/test_linalg2.py checks it on the triangle)
        yield Sample(op, "default-lower", (A(rnd(3, 2)), L))
        yield Sample(op, "broadcast", (A(rnd(2, 3, 2)), L))
        yield Sample(op, "float64", (A(rnd(3, 1, dtype=np.float64)),
                                     A(_chol_factor(3, 3, dtype=np.float64))))
        yield Sample(op, "b-1-d", (A(rnd(3)), L))
        yield Sample(op, "mismatch", (A(rnd(2, 1)), L))
        yield Sample(op, "dtypes", (A(rnd(3, 1, dtype=np.float64)), L))
        yield Sample(op, "int", (A(np.ones((2, 1), np.int64)), A(np.eye(2, dtype=np.int64))))
        yield Sample(op, "graph", (A(rnd(3, 2)), L), call=_graph_of("cholesky_solve")
                     if op.startswith("fn") else None)
    return gen


def triangular_solve_samples(op):
    def gen():
        for upper in (True, False):
            for transpose in (False, True):
                for unit in (False, True):
                    tag = f"{'upper' if upper else 'lower'}" + ("-T" if transpose else "") + \
                        ("-unit" if unit else "")
                    yield Sample(op, tag, (A(rnd(3, 2)), A(_spd(3, 3)), upper, transpose, unit),
                                 gradgrad=not unit)
        a = A(_tri(3, 3, upper=True))
        yield Sample(op, "ordinary", (A(rnd(3, 2)), a))
        yield Sample(op, "batch", (A(rnd(2, 3, 2)), A(_tri(2, 3, 3, upper=True))))
        yield Sample(op, "broadcast", (A(rnd(2, 3, 2)), a))
        yield Sample(op, "float64", (A(rnd(3, 1, dtype=np.float64)),
                                     A(_tri(3, 3, upper=True, dtype=np.float64))))
        yield Sample(op, "only-copy-used", (A(rnd(3, 2)), a),
                     call=lambda lib, b, m: lib.triangular_solve(b, m).cloned_coefficient * 2)
        yield Sample(op, "b-1-d", (A(rnd(3)), a))
        yield Sample(op, "mismatch", (A(rnd(2, 1)), a))
        yield Sample(op, "dtypes", (A(rnd(3, 1, dtype=np.float64)), a))
        yield Sample(op, "int", (A(np.ones((2, 1), np.int64)), A(np.eye(2, dtype=np.int64))))
        yield Sample(op, "graph", (A(rnd(3, 2)), a), call=_graph_of("triangular_solve")
                     if op.startswith("fn") else None)
    return gen


def qr_samples(op):
    def gen():
        # (R's diagonal made positive: Q and R are unique only up to signs)
        def call(lib, x, *args, **kw):
            f = lib.qr if op.startswith("fn") else type(x).qr
            q, r = f(x, *args, **kw)
            sign = lib.diagonal(r, 0, -2, -1).sign().unsqueeze(-1)
            return q @ r, (r * sign).abs() * 0 + r * sign
        yield Sample(op, "ordinary", (A(_spd(3, 3)),), call=call)
        yield Sample(op, "tall", (A(rnd(4, 3)),), call=call)
        yield Sample(op, "tall-complete", (A(rnd(4, 3)), False), call=call)
        yield Sample(op, "wide", (A(rnd(2, 3)),), call=call)
        yield Sample(op, "1-d", (A(rnd(3)),), call=call)
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),), call=call)
        yield Sample(op, "type", (A(rnd(3, 3), grad=False),),
                     call=lambda lib, x: type(lib.qr(x)).__name__)
    return gen


def _older_ops(t: dict) -> None:
    for name in ("nuclear_norm", "frobenius_norm"):
        t[f"fn:{name}"] = nuclear_frobenius_samples(f"fn:{name}")
    for name, samples in (("cholesky_inverse", cholesky_inverse_samples),
                          ("cholesky_solve", cholesky_solve_samples),
                          ("triangular_solve", triangular_solve_samples), ("qr", qr_samples)):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = samples(f"{style}:{name}")


# --------------------------------------------------------------------------- LU
def _lu_mats():
    """(family, A) for the LU factorizations: pivoting needed, batches, wide, tall, ties."""
    yield "ordinary", A(rnd(3, 3))
    yield "pivots", A(f32([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]))
    yield "batch", A(rnd(2, 3, 3))
    yield "wide", A(rnd(2, 4))
    yield "tall", A(rnd(4, 2))
    yield "float64", A(rnd(4, 4, dtype=np.float64))
    yield "ties", A(f32([[1.0, 2.0], [-1.0, 3.0]]))  # equal |pivots|: the first is taken
    yield "noncontig", A(rnd(3, 3), layout="T")
    yield "1x1", A(f32([[2.0]]))


def lu_factor_samples(op):
    name = op.split(":")[1]

    def gen():
        for fam, a in _lu_mats():
            yield Sample(op, fam, (a,), gradgrad=fam in ("ordinary", "wide", "tall"))
        for fam, m in (("singular", f32([[1.0, 2.0], [2.0, 4.0]])),
                       ("zeros", np.zeros((3, 3), np.float32)),
                       ("zero-column", f32([[0.0, 1.0, 2.0], [0.0, 3.0, 1.0], [0.0, 1.0, 1.0]])),
                       ("batch-singular", np.stack([np.eye(2, dtype=np.float32),
                                                    f32([[1.0, 1.0], [1.0, 1.0]])]))):
            yield Sample(op, fam, (A(m, grad=False),))
        yield Sample(op, "nan", (A(f32([[NAN, 1.0], [2.0, 3.0]]), grad=False),))
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),))
        yield Sample(op, "empty-rows", (A(np.zeros((0, 3), np.float32)),))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "float16", (A(rnd(2, 2, dtype=np.float16)),))
        yield Sample(op, "no-pivot", (A(rnd(2, 2)),), {"pivot": False})
        if name == "lu_factor_ex":
            yield Sample(op, "singular-check", (A(f32([[1.0, 2.0], [2.0, 4.0]])),),
                         {"check_errors": True})
        yield Sample(op, "graph", (A(rnd(3, 3)),), call=_linalg_graph(name))
    return gen


def lu_solve_samples(op):
    def call(lib, a, b, **kw):
        lu, piv = lib.linalg.lu_factor(a)
        return lib.linalg.lu_solve(lu, piv, b, **kw)

    def gen():
        a = A(_spd(3, 3))
        for left in (True, False):
            for adjoint in (False, True):
                tag = f"{'left' if left else 'right'}{'-adjoint' if adjoint else ''}"
                b = A(rnd(3, 2) if left else rnd(2, 3))
                yield Sample(op, tag, (a, b), {"left": left, "adjoint": adjoint}, call=call,
                             gradgrad=True)
                yield Sample(op, tag + "-pivots", (A(f32([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0],
                                                          [7.0, 8.0, 10.0]])), b),
                             {"left": left, "adjoint": adjoint}, call=call)
        yield Sample(op, "batch", (A(_spd(2, 3, 3)), A(rnd(2, 3, 2))), call=call)
        yield Sample(op, "broadcast", (A(_spd(3, 3)), A(rnd(2, 3, 2))), call=call)
        yield Sample(op, "float64", (A(_spd(3, 3, dtype=np.float64)),
                                     A(rnd(3, 1, dtype=np.float64))), call=call)
        yield Sample(op, "b-1-d", (a, A(rnd(3))), call=call)
        yield Sample(op, "mismatch", (a, A(rnd(2, 2))), call=call)
        yield Sample(op, "int64-pivots", (a, A(rnd(3, 2))),
                     call=lambda lib, a, b: lib.linalg.lu_solve(lib.linalg.lu_factor(a)[0],
                                                                lib.linalg.lu_factor(a)[1].long(),
                                                                b))
        yield Sample(op, "LU-grad", (A(rnd(3, 3) + 3 * np.eye(3, dtype=np.float32)),
                                     A(rnd(3, 2))),
                     call=lambda lib, lu, b: lib.linalg.lu_solve(
                         lu, lib.linalg.lu_factor(lu.detach())[1], b), gradgrad=True)
        yield Sample(op, "graph", (a, A(rnd(3, 2))),
                     call=lambda lib, a, b: (call(lib, a, b), _names_of(call(lib, a, b).grad_fn)))
    return gen


def torch_lu_samples(op):
    def gen():
        f = (lambda lib, *a, **k: lib.lu(*a, **k)) if op.startswith("fn") else \
            (lambda lib, x, *a, **k: x.lu(*a, **k))
        for fam, a in _lu_mats():
            yield Sample(op, fam, (a,), call=f)
        yield Sample(op, "get-infos", (A(f32([[1.0, 2.0], [2.0, 4.0]])),), {"get_infos": True},
                     call=lambda lib, *a, **k: (type(f(lib, *a, **k)).__name__, f(lib, *a, **k)))
        yield Sample(op, "singular", (A(f32([[1.0, 2.0], [2.0, 4.0]])),), call=f)
        yield Sample(op, "no-pivot", (A(rnd(2, 2)), False), call=f)
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),), call=f)
    return gen


def lu_unpack_samples(op):
    def call(lib, a, **kw):
        return lib.lu_unpack(*lib.linalg.lu_factor(a), **kw)

    def gen():
        for fam, a in _lu_mats():
            yield Sample(op, fam, (a,), call=call, gradgrad=fam == "ordinary")
        a = A(rnd(3, 3))
        yield Sample(op, "no-data", (a,), {"unpack_data": False}, call=call)
        yield Sample(op, "no-pivots", (a,), {"unpack_pivots": False}, call=call)
        yield Sample(op, "int-LU", (A(np.ones((2, 2), np.int64)),),
                     call=lambda lib, x: lib.lu_unpack(x, lib.tensor([2, 2], dtype=lib.int32)))
        yield Sample(op, "int64-pivots", (A(rnd(2, 2)),),
                     call=lambda lib, x: lib.lu_unpack(x, lib.tensor([1, 2])))
        yield Sample(op, "bad-pivots", (A(rnd(2, 2)),),
                     call=lambda lib, x: lib.lu_unpack(x, lib.tensor([3, 2], dtype=lib.int32)))
        # (without a gradient: PyTorch's autograd wrapper reads LU.size(-2) first, an IndexError)
        yield Sample(op, "1-d", (A(rnd(2), grad=False),),
                     call=lambda lib, x: lib.lu_unpack(x, lib.tensor([1, 2], dtype=lib.int32)))
        yield Sample(op, "graph", (a,), call=lambda lib, a: _names_of(call(lib, a).L.grad_fn))
    return gen


def torch_lu_solve_samples(op):
    def call(lib, b, a):
        lu, piv = lib.linalg.lu_factor(a)
        return lib.lu_solve(b, lu, piv) if op.startswith("fn") else b.lu_solve(lu, piv)

    def gen():
        yield Sample(op, "ordinary", (A(rnd(3, 2)), A(_spd(3, 3))), call=call)
        yield Sample(op, "batch", (A(rnd(2, 3, 2)), A(_spd(2, 3, 3))), call=call)
        yield Sample(op, "b-1-d", (A(rnd(3)), A(_spd(3, 3))), call=call)
    return gen


def _lu_ops(t: dict) -> None:
    for name in ("lu_factor", "lu_factor_ex", "lu"):
        t[f"linalg:{name}"] = lu_factor_samples(f"linalg:{name}")
    t["linalg:lu_solve"] = lu_solve_samples("linalg:lu_solve")
    t["fn:lu"] = torch_lu_samples("fn:lu")
    t["method:lu"] = torch_lu_samples("method:lu")
    t["fn:lu_unpack"] = lu_unpack_samples("fn:lu_unpack")
    t["fn:lu_solve"] = torch_lu_solve_samples("fn:lu_solve")
    t["method:lu_solve"] = torch_lu_solve_samples("method:lu_solve")


def lstsq_samples(op):
    def gen():
        for driver in (None, "gels", "gelsy", "gelsd", "gelss"):
            kw = {} if driver is None else {"driver": driver}
            tag = driver or "default"
            yield Sample(op, f"{tag}-tall", (A(rnd(5, 3)), A(rnd(5, 2))), kw,
                         gradgrad=driver is None)
            yield Sample(op, f"{tag}-square", (A(_spd(3, 3)), A(rnd(3, 2))), kw)
            yield Sample(op, f"{tag}-vector", (A(rnd(5, 3)), A(rnd(5))), kw)
            yield Sample(op, f"{tag}-batch", (A(rnd(2, 5, 3)), A(rnd(2, 5, 2))), kw)
            if driver != "gels":  # (gels assumes full rank: LAPACK's result is undefined)
                yield Sample(op, f"{tag}-wide", (A(rnd(2, 4)), A(rnd(2, 1))), kw)
                yield Sample(op, f"{tag}-rank-deficient",
                             (A(f32([[1, 2], [2, 4], [3, 6]]), grad=False), A(rnd(3, 1))), kw)
                yield Sample(op, f"{tag}-zeros", (A(np.zeros((3, 2), np.float32), grad=False),
                                                  A(rnd(3, 1))), kw)
        yield Sample(op, "float64", (A(rnd(5, 3, dtype=np.float64)),
                                     A(rnd(5, 2, dtype=np.float64))))
        yield Sample(op, "broadcast", (A(rnd(2, 5, 3)), A(rnd(1, 5, 2))))
        yield Sample(op, "vector-batch-mismatch", (A(rnd(2, 5, 3)), A(rnd(5, 2))))
        yield Sample(op, "b-more-dims", (A(rnd(5, 3)), A(rnd(2, 5, 2))))
        yield Sample(op, "vector-batch", (A(rnd(2, 5, 3)), A(rnd(2, 5))), {"driver": "gelsd"})
        yield Sample(op, "rcond", (A(f32([[1, 0], [0, 1e-3], [0, 0]])), A(rnd(3, 1))),
                     {"rcond": 1e-2, "driver": "gelsd"})
        yield Sample(op, "noncontig", (A(rnd(3, 5), layout="T"), A(rnd(5, 2))))
        yield Sample(op, "empty-cols", (A(np.zeros((3, 0), np.float32)), A(rnd(3, 2))))
        yield Sample(op, "1-d", (A(rnd(3)), A(rnd(3))))
        yield Sample(op, "rows-mismatch", (A(rnd(3, 2)), A(rnd(4, 1))))
        yield Sample(op, "driver", (A(rnd(3, 2)), A(rnd(3, 1))), {"driver": "foo"})
        yield Sample(op, "dtypes", (A(rnd(3, 2)), A(rnd(3, 1, dtype=np.float64))))
        yield Sample(op, "int", (A(np.ones((3, 2), np.int64)), A(np.ones((3, 1), np.int64))))
        yield Sample(op, "batch-mismatch", (A(rnd(2, 4, 3)), A(rnd(3, 4, 2))))
        yield Sample(op, "graph", (A(rnd(5, 3)), A(rnd(5, 2))), call=_linalg_graph("lstsq"))
    return gen


# --------------------------------------------------------------------------- gradient, ...
def gradient_samples(op):
    def gen():
        from _opinfo_samples import float_families

        for fam, a in float_families((4, 5)):
            if a.arr.ndim == 2 and a.arr.shape[0] >= 3:
                yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
                yield Sample(op, fam + "-edge2", (a,), {"edge_order": 2})
        x = A(rnd(4, 5))
        yield Sample(op, "1-d", (A(rnd(6)),), gradgrad=True)
        yield Sample(op, "int", (A(np.array([1, 4, 9, 16, 25])),))
        yield Sample(op, "spacing", (x,), {"spacing": 2.0})
        yield Sample(op, "spacing-int", (x,), {"spacing": 3})
        yield Sample(op, "spacing-list", (x,), {"spacing": [0.5, 2.0]})
        yield Sample(op, "dim", (x,), {"dim": 1})
        yield Sample(op, "dim-neg", (x,), {"dim": -2, "edge_order": 2})
        yield Sample(op, "dims-spacing", (x,), {"dim": (1, 0), "spacing": (2.0, 0.5)})
        coords = A(f32([0.0, 1.0, 3.0, 4.0, 7.0]), grad=False)
        yield Sample(op, "coordinates", (x,), {"dim": 1, "spacing": (coords,)})
        yield Sample(op, "coordinates-edge2", (x,), {"dim": 1, "spacing": (coords,),
                                                     "edge_order": 2})
        yield Sample(op, "coordinates-grad", (A(rnd(5)), A(f32([0.0, 1.0, 3.0, 4.0, 7.0]))),
                     call=lambda lib, x, c: lib.gradient(x, spacing=(c,)))
        yield Sample(op, "0-d", (A(f32(1.0)),))
        yield Sample(op, "too-short", (A(rnd(1)),))
        yield Sample(op, "too-short-edge2", (A(rnd(2)),), {"edge_order": 2})
        yield Sample(op, "edge3", (x,), {"edge_order": 3})
        yield Sample(op, "spacing-length", (x,), {"spacing": [1.0, 2.0, 3.0]})
        yield Sample(op, "spacing-dim-length", (x,), {"dim": 0, "spacing": [1.0, 2.0]})
        yield Sample(op, "uint8", (A(np.ones(4, np.uint8)),))
        yield Sample(op, "coordinates-2d", (x,), {"dim": 1, "spacing": (A(rnd(5, 1)),)})
    return gen


def nonzero_static_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            for size in (0, 3, 20):
                yield Sample(op, f"{fam}-{size}", (a,), {"size": size})
        x = A(np.array([0, 1, 0, 2, 3]))
        yield Sample(op, "fill", (x,), {"size": 5, "fill_value": -7})
        yield Sample(op, "negative-size", (x,), {"size": -1})
    return gen


def histogram_samples(op):
    def gen():
        from _opinfo_samples import float_families

        for fam, a in float_families((3, 4)):
            if fam in ("inf", "nan", "float16"):
                continue
            for bins in (1, 3, 7):
                yield Sample(op, f"{fam}-{bins}", (a, bins))
        x = A(f32([0.0, 0.4, 1.0, 2.0, 2.0, 3.5, 1.1666666]))
        yield Sample(op, "edges", (x, A(f32([0.0, 1.0, 2.0, 4.0]), grad=False)))
        yield Sample(op, "edges-outside", (x, A(f32([0.5, 1.0, 2.0]), grad=False)))
        yield Sample(op, "edges-decreasing", (x, A(f32([2.0, 1.0]), grad=False)))
        yield Sample(op, "range", (x, 3), {"range": (0.0, 2.0)})
        yield Sample(op, "weight", (x, 3), {"weight": A(rnd(7), grad=False)})
        yield Sample(op, "density", (x, 3), {"density": True})
        yield Sample(op, "weight-density", (x, 4), {"weight": A(np.abs(rnd(7)), grad=False),
                                                    "density": True})
        yield Sample(op, "constant", (A(np.ones(3, np.float32)), 2))
        yield Sample(op, "2-d-weight", (A(rnd(2, 3)), 3), {"weight": A(rnd(2, 3), grad=False)})
        yield Sample(op, "nan", (A(f32([1.0, NAN])), 2))
        yield Sample(op, "nan-range", (A(f32([1.0, NAN])), 2), {"range": (0.0, 2.0)})
        yield Sample(op, "inf", (A(f32([1.0, INF])), 2))
        yield Sample(op, "int", (A(np.ones(3, np.int64)), 2))
        yield Sample(op, "bad-range", (x, 3), {"range": (2.0, 1.0)})
        yield Sample(op, "zero-bins", (x, 0))
        yield Sample(op, "weight-shape", (x, 3), {"weight": A(rnd(5), grad=False)})
        yield Sample(op, "edges-dtype", (x, A(np.array([0.0, 1.0]), grad=False)))
    return gen


def histogramdd_samples(op):
    def gen():
        pts = A(f32([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5], [0.3, 0.9], [1.5, 0.2]]))
        yield Sample(op, "ordinary", (pts,), {"bins": [2, 3]})
        yield Sample(op, "int-bins", (pts,), {"bins": 2})
        yield Sample(op, "edges", (pts,), {"bins": [A(f32([0.0, 1.0, 2.0]), grad=False),
                                               A(f32([0.0, 0.5, 1.0]), grad=False)]})
        yield Sample(op, "range-density", (pts,), {"bins": [2, 2], "range": [0.0, 4.0, 0.0, 2.0],
                                                   "density": True})
        yield Sample(op, "weight", (pts,), {"bins": [2, 2], "weight": A(rnd(5), grad=False)})
        yield Sample(op, "3-d", (A(rnd(10, 3)),), {"bins": [2, 3, 4]})
        yield Sample(op, "batch-points", (A(rnd(2, 4, 2)),), {"bins": 3})
        yield Sample(op, "float64", (A(rnd(6, 2, dtype=np.float64)),), {"bins": 3})
        yield Sample(op, "int", (A(np.ones((3, 2), np.int64)),), {"bins": 2})
    return gen


def _more_ops(t: dict) -> None:
    t["fn:gradient"] = gradient_samples("fn:gradient")
    t["fn:nonzero_static"] = nonzero_static_samples("fn:nonzero_static")
    t["method:nonzero_static"] = nonzero_static_samples("method:nonzero_static")
    t["fn:histogram"] = histogram_samples("fn:histogram")
    t["method:histogram"] = histogram_samples("method:histogram")
    t["fn:histogramdd"] = histogramdd_samples("fn:histogramdd")


def out_samples(op):
    """``out=`` of the linalg functions that take it: a resized result, an ``out`` of
    float64 (cast where PyTorch casts, refused in each function's words where it does not),
    of int64, and arguments that require grad."""
    name = op.split(":")[1]
    eye = np.eye(3, dtype=np.float32) + 0.1 * rnd(3, 3)
    b = rnd(3, 2)
    calls = {
        "vecdot": lambda lib, x: lib.linalg.vecdot(x, x, out=OUT[0](lib)),
        "solve_triangular": lambda lib, x: lib.linalg.solve_triangular(
            x, lib.ones(3, 2, device=x.device), upper=False, out=OUT[0](lib)),
        "lu_solve": lambda lib, x: lib.linalg.lu_solve(*lib.linalg.lu_factor(x),
                                                       lib.ones(3, 2, device=x.device),
                                                       out=OUT[0](lib)),
        "cond": lambda lib, x: lib.linalg.cond(x, out=OUT[0](lib)),
        "tensorinv": lambda lib, x: lib.linalg.tensorinv(x, ind=1, out=OUT[0](lib)),
        "tensorsolve": lambda lib, x: lib.linalg.tensorsolve(x, lib.ones(3, device=x.device),
                                                             out=OUT[0](lib)),
        "cholesky_inverse": lambda lib, x: lib.cholesky_inverse(x.tril(), out=OUT[0](lib)),
        "cholesky_solve": lambda lib, x: lib.cholesky_solve(lib.ones(3, 2, device=x.device),
                                                            x.tril(), out=OUT[0](lib)),
    }

    def gen():
        arg = b if name == "vecdot" else eye
        for dtype in ("float32", "float64", "int64"):
            def call(lib, x, dtype=dtype):
                OUT[0] = lambda lib: lib.empty(0, dtype=getattr(lib, dtype), device=x.device)
                res = calls[name](lib, x)  # (compared in float32: both round in float32)
                return str(res.dtype), res.float()
            yield Sample(op, f"out-{dtype}", (A(arg, grad=False),), call=call)

        def grad_call(lib, x):
            OUT[0] = lambda lib: lib.empty(0, device=x.device)
            return calls[name](lib, x)
        yield Sample(op, "out-requires-grad", (A(arg),), call=grad_call)
    return gen


OUT: list = [None]


def _out_ops(t: dict) -> None:
    for name in ("vecdot", "solve_triangular", "lu_solve", "cond", "tensorinv", "tensorsolve",
                 "cholesky_inverse", "cholesky_solve"):
        t[f"out:{name}"] = out_samples(f"out:{name}")


def householder_samples(op):
    def gen():
        for fam, shape, k in (("ordinary", (4, 3), 2), ("square", (3, 3), 3), ("tall", (5, 2), 2),
                              ("batch", (2, 4, 3), 3), ("no-reflections", (4, 3), 0),
                              ("float64", (4, 3), 3)):
            dtype = np.float64 if fam == "float64" else np.float32
            yield Sample(op, fam, (A(rnd(*shape, dtype=dtype)),
                                   A(rnd(*shape[:-2], k, dtype=dtype))),
                         gradgrad=fam in ("ordinary", "batch"))
        yield Sample(op, "from-geqrf", (A(f32([[-5.0, -4.0], [0.5, 3.0], [0.25, 0.1]])),
                                        A(f32([1.6, 1.2]))))
        yield Sample(op, "1-d", (A(rnd(3)), A(rnd(2))))
        yield Sample(op, "wide", (A(rnd(2, 3)), A(rnd(2))))
        yield Sample(op, "tau-long", (A(rnd(4, 3)), A(rnd(4))))
        yield Sample(op, "tau-ndim", (A(rnd(4, 3)), A(rnd(2, 2))))
        yield Sample(op, "tau-batch", (A(rnd(2, 4, 3)), A(rnd(3, 2))))
        yield Sample(op, "dtypes", (A(rnd(4, 3)), A(rnd(2, dtype=np.float64))))
        yield Sample(op, "int", (A(np.ones((4, 3), np.int64)), A(np.ones(2, np.int64))))
        if op.startswith("linalg"):
            yield Sample(op, "graph", (A(rnd(4, 3)), A(rnd(2))),
                         call=_linalg_graph("householder_product"))
    return gen


def _householder_ops(t: dict) -> None:
    for op in ("linalg:householder_product", "fn:orgqr", "method:orgqr"):
        t[op] = householder_samples(op)


def _sym(n, scale_diag=1.0, batch=(), dtype=np.float32):
    m = rnd(*batch, n, n, dtype=np.float64)
    m = m + np.swapaxes(m, -1, -2)
    m[..., np.arange(n), np.arange(n)] *= scale_diag
    return m.astype(dtype)


def ldl_factor_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(_sym(4)),))
        yield Sample(op, "small-diagonal", (A(_sym(5, 0.01)),))  # 2x2 pivots
        yield Sample(op, "zero-diagonal", (A(f32([[0, 1, 2], [1, 0, 3], [2, 3, 0]])),))
        yield Sample(op, "batch", (A(_sym(3, 0.1, (2,))),))
        yield Sample(op, "float64", (A(_sym(6, 0.05, dtype=np.float64)),))
        yield Sample(op, "upper-ignored", (A(np.tril(_sym(4)) + np.triu(rnd(4, 4), 1)),))
        yield Sample(op, "hermitian", (A(_sym(3)),), {"hermitian": True})
        yield Sample(op, "1x1", (A(f32([[2.0]])),))
        yield Sample(op, "empty", (A(np.zeros((0, 0), np.float32)),))
        yield Sample(op, "zeros", (A(np.zeros((2, 2), np.float32)),))
        yield Sample(op, "not-square", (A(rnd(2, 3)),))
        yield Sample(op, "1-d", (A(rnd(3)),))
        yield Sample(op, "int", (A(np.eye(2, dtype=np.int64)),))
        yield Sample(op, "float16", (A(np.eye(2, dtype=np.float16)),))
        if op.endswith("_ex"):
            yield Sample(op, "zeros-check", (A(np.zeros((2, 2), np.float32)),),
                         {"check_errors": True})
        yield Sample(op, "graph", (A(_sym(3)),), call=_linalg_graph(op.split(":")[1]))
    return gen


def ldl_solve_samples(op):
    def call(lib, a, b, **kw):
        ld, piv = lib.linalg.ldl_factor(a.detach())
        return lib.linalg.ldl_solve(ld, piv, b, **kw)

    def gen():
        for fam, a in (("ordinary", _sym(4)), ("2x2-pivots", _sym(5, 0.01)),
                       ("zero-diagonal", f32([[0, 1, 2], [1, 0, 3], [2, 3, 0]])),
                       ("float64", _sym(4, 0.05, dtype=np.float64))):
            yield Sample(op, fam, (A(a, grad=False), A(rnd(a.shape[-1], 2, dtype=a.dtype))),
                         call=call)
        yield Sample(op, "batch", (A(_sym(3, 0.1, (2,)), grad=False), A(rnd(2, 3, 1))),
                     call=call)
        yield Sample(op, "broadcast", (A(_sym(3), grad=False), A(rnd(2, 3, 1))), call=call)
        yield Sample(op, "long-pivots", (A(_sym(3), grad=False), A(rnd(3, 1))),
                     call=lambda lib, a, b: lib.linalg.ldl_solve(
                         lib.linalg.ldl_factor(a)[0], lib.linalg.ldl_factor(a)[1].long(), b))
        yield Sample(op, "b-1-d", (A(_sym(3), grad=False), A(rnd(3))), call=call)
        yield Sample(op, "mismatch", (A(_sym(3), grad=False), A(rnd(2, 1))), call=call)
        yield Sample(op, "dtypes", (A(_sym(3), grad=False), A(rnd(3, 1, dtype=np.float64))),
                     call=call)
        yield Sample(op, "graph", (A(_sym(3), grad=False), A(rnd(3, 1))),
                     call=lambda lib, a, b: _names_of(call(lib, a, b).grad_fn))
    return gen


def _ldl_ops(t: dict) -> None:
    for name in ("ldl_factor", "ldl_factor_ex"):
        t[f"linalg:{name}"] = ldl_factor_samples(f"linalg:{name}")
    t["linalg:ldl_solve"] = ldl_solve_samples("linalg:ldl_solve")

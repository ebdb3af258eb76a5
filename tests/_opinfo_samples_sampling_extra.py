"""OpInfo samples of ``addmm``, ``baddbmm``, ``addbmm`` (functions and methods) and ``cdist``.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``): every family for
``input`` (the others in its dtype), ``beta``/``alpha`` (0 included: ``beta=0`` does not read
``input``, its NaN too), broadcasting, non-contiguous and empty operands, each error, and
samples that compare the names of the nodes recorded in the graph. ``bernoulli`` and
``multinomial`` draw random numbers: they are in the table's ``SKIP`` and their streams are
compared bit for bit in ``tests/test_sampling_extra_parity.py``.
"""

from __future__ import annotations

import warnings

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, rnd


def _names(node) -> list:
    """The names of ``node`` and of every node that feeds it, depth first."""
    if node is None:
        return [None]
    return [node.name()] + [n for child, _ in node.next_functions for n in _names(child)]


def _graph(name):
    """Call ``lib.<name>`` and also return the names of all the nodes of its graph."""
    def call(lib, *args, **kw):
        out = getattr(lib, name)(*args, **kw)
        return out, _names(out.grad_fn)
    return call


def _like(arr: np.ndarray, like: np.ndarray) -> A:
    """``arr`` in the dtype of ``like`` (small whole numbers for integer dtypes)."""
    if like.dtype.kind in "biu":
        arr = np.round(arr * 2)
        arr = np.abs(arr) if like.dtype.kind == "u" else arr
        arr = arr > 0 if like.dtype.kind == "b" else arr
    return A(arr.astype(like.dtype))


def _shapes(op):
    """(input, first, second) shapes of an op's ordinary call, and its result's shape."""
    return {"addmm": ((2, 4), (4, 3)), "baddbmm": ((5, 2, 4), (5, 4, 3)),
            "addbmm": ((5, 2, 4), (5, 4, 3))}[op.split(":")[1]]


def addmm_samples(op):
    """``addmm``, ``baddbmm`` and ``addbmm``: ``beta * input + alpha * product``."""
    name = op.split(":")[1]
    s1, s2 = _shapes(op)
    batched = name != "addmm"

    def gen():
        for fam, a in all_families((2, 3)):
            b1, b2 = _like(rnd(*s1), a.arr), _like(rnd(*s2), a.arr)
            yield Sample(op, fam, (a, b1, b2), gradgrad=fam in ("ordinary", "float64"))
            yield Sample(op, fam + "-scaled", (a, b1, b2), {"beta": 0.5, "alpha": 2})
        x, m1, m2 = A(rnd(2, 3)), A(rnd(*s1)), A(rnd(*s2))
        for fam, kw in (("beta0", {"beta": 0}), ("alpha0", {"alpha": 0}),
                        ("negative", {"beta": -1.5, "alpha": -0.25}),
                        ("int-scalars", {"beta": 2, "alpha": 3}),
                        ("bool-beta", {"beta": True})):
            yield Sample(op, fam, (x, m1, m2), kw, gradgrad=fam == "negative")
        nan_in = A(f32([[NAN, 1, INF], [2, -INF, 0]]))
        yield Sample(op, "beta0-nan-input", (nan_in, m1, m2), {"beta": 0})
        yield Sample(op, "nan-input", (nan_in, m1, m2), {"beta": 0.5})
        yield Sample(op, "inf-mat", (x, A(np.where(rnd(*s1) > 1, INF, rnd(*s1))), m2))
        ints = np.arange(6).reshape(2, 3)
        yield Sample(op, "int-float-scalars", (A(ints), _like(rnd(*s1), ints),
                                               _like(rnd(*s2), ints)), {"beta": 0.5, "alpha": 1.5})
        yield Sample(op, "float16-scaled", (A(rnd(2, 3, dtype=np.float16)),
                                            A(rnd(*s1, dtype=np.float16)),
                                            A(rnd(*s2, dtype=np.float16))),
                     {"beta": 0.5, "alpha": 1.5})
        # input broadcast to the product's shape (its gradient summed back)
        for fam, shape in (("broadcast-row", (3,)), ("broadcast-col", (2, 1)),
                           ("broadcast-0d", ()), ("broadcast-1x1", (1, 1))):
            yield Sample(op, fam, (A(rnd(*shape)), m1, m2), {"beta": 0.7},
                         gradgrad=fam == "broadcast-row")
        if batched:
            yield Sample(op, "broadcast-batch", (A(rnd(1, 2, 3)), m1, m2))
        yield Sample(op, "noncontig", (A(rnd(2, 3), layout="T"), A(rnd(*s1), layout="T"),
                                       A(rnd(*s2), layout="T")))
        yield Sample(op, "strided", (x, A(rnd(*s1), layout="step"), A(rnd(*s2), layout="step")))
        e1, e2 = list(s1), list(s2)
        e1[-1] = e2[-2] = 0  # an empty inner dimension: the product is zeros
        yield Sample(op, "empty-inner", (x, A(np.zeros(e1, np.float32)),
                                         A(np.zeros(e2, np.float32))), {"beta": 2})
        o1 = list(s1)
        o1[-2] = 0
        yield Sample(op, "empty-rows", (A(np.zeros((0, 3), np.float32)),
                                        A(np.zeros(o1, np.float32)), m2))
        if batched:
            yield Sample(op, "empty-batch", (x, A(np.zeros((0,) + s1[1:], np.float32)),
                                             A(np.zeros((0,) + s2[1:], np.float32))),
                         {"beta": 2})
        # errors
        bad = list(s2)
        bad[-2] += 1
        yield Sample(op, "inner-mismatch", (x, m1, A(rnd(*bad))), msg=0 if batched else 40)
        yield Sample(op, "mat-1d", (x, A(rnd(4)), m2))
        yield Sample(op, "mat2-1d", (x, m1, A(rnd(3))))
        yield Sample(op, "input-too-wide", (A(rnd(4)), m1, m2), msg=0)
        yield Sample(op, "input-3d", (A(rnd(3, 2, 3) if not batched else rnd(2, 5, 2, 3)),
                                      m1, m2), msg=0)
        d64 = A(rnd(2, 3, dtype=np.float64))
        yield Sample(op, "input-float64", (d64, m1, m2))
        yield Sample(op, "mat2-float64", (x, m1, A(rnd(*s2, dtype=np.float64))))
        if name == "addmm":
            yield Sample(op, "mat1-float64", (x, A(rnd(*s1, dtype=np.float64)), m2))
        yield Sample(op, "graph", (A(rnd(3)), m1, m2), {"beta": 0.5, "alpha": 2},
                     call=_graph(name))
        yield Sample(op, "graph-no-input-grad", (A(rnd(2, 3), grad=False), m1, m2),
                     call=_graph(name))
        if op.startswith("fn:"):  # (task misc2) out=
            yield from _out_samples(op, name, x, m1, m2)
    return gen


def _out_call(name, shape=(0,), dtype=None, detach=True, out_grad=False):
    """``lib.<name>(..., out=out)`` into a zero ``out`` of ``shape`` and ``dtype`` (the
    input's when None): the result, whether it is ``out``, and the warnings given."""
    def call(lib, x, *args, **kw):
        out = lib.zeros(shape, dtype=getattr(lib, dtype) if dtype else x.dtype,
                        device=x.device, requires_grad=out_grad)
        if detach:
            x, args = x.detach(), [a.detach() for a in args]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = getattr(lib, name)(x, *args, out=out, **kw)
        return res, res is out, [str(w.message).split(" (Triggered internally")[0]
                                 for w in caught]
    return call


def _out_samples(op, name, x, m1, m2):
    """``out=``: resized (PyTorch warns when it had elements, but for ``addbmm``), dtypes
    (``addbmm`` casts ``input`` into ``out`` and checks ``out`` against the batches), no
    autograd through it, an ``out`` that is not a tensor."""
    for fam, kw in (("out", {}), ("out-resized", {"shape": (5,)}),
                    ("out-same-shape", {"shape": (2, 3)}), ("out-float64", {"dtype": "float64"}),
                    ("out-int64", {"dtype": "int64"}), ("out-float16", {"dtype": "float16"}),
                    ("out-bool", {"dtype": "bool"}),
                    ("out-requires-grad", {"out_grad": True}),
                    ("out-args-require-grad", {"detach": False})):
        if fam == "out-same-shape" and name == "baddbmm":
            kw = {"shape": (5, 2, 3)}
        yield Sample(op, fam, (x, m1, m2), {"beta": 0.5, "alpha": 2}, call=_out_call(name, **kw))
    yield Sample(op, "out-float64-input", (A(rnd(2, 3, dtype=np.float64)), m1, m2),
                 call=_out_call(name, dtype="float32"))
    ints = np.arange(6).reshape(2, 3)
    yield Sample(op, "out-int-into-float", (A(ints), _like(rnd(*_shapes(op)[0]), ints),
                                            _like(rnd(*_shapes(op)[1]), ints)),
                 call=_out_call(name, dtype="float32"))
    yield Sample(op, "out-noncontig", (x, m1, m2), call=lambda lib, *a: getattr(lib, name)(
        *(t.detach() for t in a), out=lib.zeros(3, 2, device=a[0].device).t()))
    yield Sample(op, "out-errors-first", (x, A(rnd(7, 7, 7)), m2), msg=0,
                 call=_out_call(name, detach=False))
    if name == "addbmm":  # (addmm's and baddbmm's name their two signatures)
        yield Sample(op, "out-not-tensor", (x, m1, m2),
                     call=lambda lib, *a: lib.addbmm(*a, out=[1]))


def cdist_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            other = _like(rnd(5, 4), a.arr) if a.arr.ndim == 2 else A(rnd(5, 4))
            if fam in ("inf", "nan"):  # gradients through inf - inf are NaN either way
                a = A(a.arr, grad=False)
            yield Sample(op, fam, (a, other))
            if fam in ("ordinary", "ties", "zeros", "float64", "noncontig", "strided"):
                for p in (0.0, 0.5, 1.0, 1.5, 3.0, INF):
                    yield Sample(op, f"{fam}-p={p}", (a, other), {"p": p})
        x, y = A(rnd(3, 4)), A(rnd(5, 4))
        same = rnd(3, 4)
        for p in (0.0, 0.5, 1.0, 2.0, 3.0, INF):  # distance 0: the gradient is 0 there
            yield Sample(op, f"same-rows-p={p}", (A(same), A(same.copy())), {"p": p})
        moved = same.copy()  # some coordinates equal, the distance not 0: for p < 1 the
        moved[:, ::2] += 1  # derivative of |d|^p is infinite there; PyTorch gives 0
        for p in (0.5, 1.0, 1.5, 3.0, INF):
            yield Sample(op, f"shared-coords-p={p}", (A(same), A(moved)), {"p": p})
        ties = f32([[0, 1, -1, 2], [2, 2, 2, 2], [1, 0, 0, 0]])
        yield Sample(op, "inf-norm-ties", (A(ties), A(np.zeros((2, 4), np.float32))),
                     {"p": INF})
        # p = 2 through one matrix product (more than 25 rows, or asked for)
        big = A(rnd(30, 4))
        yield Sample(op, "mm-rows", (big, y))
        yield Sample(op, "mm-rows-x2", (x, A(rnd(27, 4))))
        yield Sample(op, "mm-rows-p1", (big, y), {"p": 1.0})
        for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist",
                     "use_mm_for_euclid_dist_if_necessary"):
            yield Sample(op, f"mode-{mode}", (x, y), {"compute_mode": mode})
            yield Sample(op, f"mode-{mode}-big", (big, y), {"compute_mode": mode})
        yield Sample(op, "mm-float64", (A(rnd(30, 4, dtype=np.float64)),
                                        A(rnd(5, 4, dtype=np.float64))))
        yield Sample(op, "mm-float16", (A(rnd(30, 4, dtype=np.float16), grad=False),
                                        A(rnd(5, 4, dtype=np.float16), grad=False)))
        # batches broadcast
        yield Sample(op, "batched", (A(rnd(2, 3, 4)), A(rnd(2, 5, 4))))
        yield Sample(op, "batch-broadcast", (A(rnd(2, 3, 4)), A(rnd(1, 5, 4))), {"p": 1.0})
        yield Sample(op, "batch-broadcast-2d", (A(rnd(2, 3, 4)), y))
        yield Sample(op, "batch-broadcast-mm", (A(rnd(2, 30, 4)), A(rnd(1, 5, 4))))
        yield Sample(op, "empty-rows", (A(np.zeros((0, 4), np.float32)), y))
        yield Sample(op, "empty-cols", (A(np.zeros((3, 0), np.float32)),
                                        A(np.zeros((5, 0), np.float32))))
        yield Sample(op, "empty-mm", (A(np.zeros((0, 4), np.float32)), A(rnd(30, 4))))
        # errors
        yield Sample(op, "1d", (A(rnd(4)), y))
        yield Sample(op, "1d-x2", (x, A(rnd(4))))
        yield Sample(op, "columns", (x, A(rnd(5, 3))))
        yield Sample(op, "negative-p", (x, y), {"p": -1.0})
        yield Sample(op, "nan-p", (x, y), {"p": NAN})
        yield Sample(op, "int-x2", (x, A(np.ones((5, 4), np.int64))))
        yield Sample(op, "dtypes", (x, A(rnd(5, 4, dtype=np.float64))))
        yield Sample(op, "dtypes-mm", (big, A(rnd(5, 4, dtype=np.float64))))
        yield Sample(op, "batch-mismatch", (A(rnd(2, 3, 4)), A(rnd(3, 5, 4))))
        yield Sample(op, "bad-mode", (x, y), {"compute_mode": "fast"})
        # graphs: CdistBackward0, or a view of EuclideanDistBackward0 for the product
        for fam, args in (("graph", (x, y)), ("graph-mm", (big, y)),
                          ("graph-mm-batched", (A(rnd(2, 30, 4)), A(rnd(1, 5, 4)))),
                          ("graph-empty", (A(np.zeros((0, 4), np.float32)), big))):
            yield Sample(op, fam, args, call=_graph("cdist"))
    return gen


def add_samples(t: dict) -> None:
    for name in ("addmm", "baddbmm", "addbmm"):
        for style in ("fn", "method"):  # torch.addmm(x, a, b) and x.addmm(a, b)
            t[f"{style}:{name}"] = addmm_samples(f"{style}:{name}")
    t["fn:cdist"] = cdist_samples("fn:cdist")

"""OpInfo samples of ``logcumsumexp`` (the function, the Tensor method and ``out=``),
``trapezoid``, ``trapz`` and ``cumulative_trapezoid`` (``minitorch/ops/scan.py``).

``_opinfo_samples._build_table`` calls :func:`add_samples`: every family along each dimension,
values that overflow ``exp`` and infinities of both signs (where ``logcumsumexp`` must not
compute ``inf - inf``), sample points ``x`` as a 1-d tensor, a tensor of ``y``'s shape and one
that broadcasts, spacings ``dx``, and PyTorch's errors.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import _OUT_ARGS, INF, NAN, A, Sample, all_families, f32, out_samples, rnd
from _opinfo_samples_pointwise import _chain
from _opinfo_samples_shape_extra import _gradcheck_named

_BIG = f32([[1000.0, -1000.0, 3.0, 1000.0], [INF, 1.0, INF, -INF], [-INF, -INF, 2.0, NAN]])


def logcumsumexp_samples(op):
    def gen():
        for fam, a in all_families():
            for d in (0, -1) if a.arr.ndim else (0,):
                yield Sample(op, f"{fam}-{d}", (a, d), gradgrad=fam == "ordinary")
        yield Sample(op, "big", (A(_BIG), 1))
        yield Sample(op, "big-dim0", (A(_BIG), 0))
        yield Sample(op, "big-grad", (A(f32([[1000.0, -1000.0, 3.0, 999.0]])), 1), gradgrad=True)
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), 1), gradgrad=True)
        yield Sample(op, "keyword", (A(rnd(3, 4)),), {"dim": 1})
        yield Sample(op, "no-dim", (A(rnd(3, 4)),))
        yield Sample(op, "dim-out-of-range", (A(rnd(3, 4)), 2))
    return gen


def trapezoid_samples(op):
    def gen():
        for fam, a in all_families():
            if a.arr.ndim == 0:
                yield Sample(op, fam, (a,))
                continue
            for d in (0, -1):
                yield Sample(op, f"{fam}-{d}", (a,), {"dim": d}, gradgrad=fam == "ordinary")
                yield Sample(op, f"{fam}-{d}-dx", (a,), {"dim": d, "dx": 0.5})
                n = a.arr.shape[d]
                yield Sample(op, f"{fam}-{d}-x", (a, A(np.cumsum(np.abs(rnd(n)) + 0.1))),
                             {"dim": d}, gradgrad=fam == "ordinary")
        y = A(rnd(3, 4))
        for fam, args, kw in (("x-like-y", (y, A(rnd(3, 4))), {}),
                              ("x-broadcasts", (y, A(rnd(1, 4))), {}),
                              ("x-fewer-dims", (A(rnd(2, 3, 4)), A(rnd(3, 4))), {"dim": 1}),
                              ("x-int", (y, A(np.array([0, 1, 3, 4]))), {}),
                              ("x-float64", (y, A(np.array([0.0, 1.0, 3.0, 4.0]))), {}),
                              ("dx-int", (A(np.array([1, 2, 4])),), {"dx": 2}),
                              ("dx-negative", (y,), {"dx": -1.5}),
                              ("one-sample", (A(f32([2.0])),), {}),
                              ("empty-dim", (A(np.zeros((3, 0), np.float32)),), {}),
                              ("empty-dim-int", (A(np.zeros((3, 0), np.int64)),), {}),
                              ("x-wrong-length", (A(f32([1.0, 2.0])), A(f32([1.0, 2.0, 3.0]))),
                               {}),
                              ("x-not-broadcast", (A(rnd(2, 3)), A(rnd(3, 3))), {}),
                              ("x-number", (y, 2.0), {}), ("dx-bool", (y,), {"dx": True}),
                              ("bool", (A(np.array([True, False])),), {}),
                              ("dim-out-of-range", (y,), {"dim": 2})):
            yield Sample(op, fam, args, kw)
    return gen


KEYS = ["fn:logcumsumexp", "method:logcumsumexp", "fn:trapezoid", "fn:trapz",
        "fn:cumulative_trapezoid"]


def add_samples(t: dict) -> None:
    _OUT_ARGS["logcumsumexp"] = lambda: ((A(rnd(3, 4), grad=False), 1), (3, 4))
    t["fn:logcumsumexp"] = _chain(logcumsumexp_samples("fn:logcumsumexp"),
                                  out_samples("logcumsumexp"))
    t["method:logcumsumexp"] = logcumsumexp_samples("method:logcumsumexp")
    for name in ("trapezoid", "trapz", "cumulative_trapezoid"):
        t[f"fn:{name}"] = trapezoid_samples(f"fn:{name}")
    for op in KEYS:
        t[op] = _gradcheck_named(t[op])

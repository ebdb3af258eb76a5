"""OpInfo samples of ``var_mean``, ``std_mean``, ``nanmedian``, ``quantile`` and
``nanquantile`` (``minitorch/ops/statistics.py`` and ``ops/sorting.py``; the functions and the
Tensor methods where PyTorch has them).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``), plus
slices with NaN (some or all of them), ties, every interpolation of the quantiles and samples
that compare the names of the recorded nodes.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, f32, float_families, reduction, rnd
from _opinfo_samples_shape_extra import _call, _gradcheck_named, _graph

# (16 elements: beyond 16 along the sorted dimension, PyTorch's order among equal values, and
# so which of them gets the gradient, is unspecified; see minitorch/ops/sorting.py)
_NAN_ROWS = f32([[1.0, NAN, 3.0, 2.0], [NAN] * 4, [2.0, 2.0, NAN, -1.0],
                 [INF, -INF, NAN, 1.0]])
_NAN_ROWS_5 = f32([[NAN, NAN, 0.5, NAN, NAN], [2.0, NAN, 2.0, NAN, 2.0]])


def spread_mean_samples(op):
    extra = [("correction-0", (A(rnd(3, 4)),), {"dim": 1, "correction": 0}),
             ("correction-2.5", (A(rnd(3, 4)),), {"dim": (0, 1), "correction": 2.5}),
             ("correction-too-big", (A(rnd(3, 4)),), {"dim": 0, "correction": 3}),
             ("unbiased-positional", (A(rnd(3, 4)), False), {}),
             ("dim-unbiased-keepdim", (A(rnd(3, 4)), 1, False, True), {}),
             ("one-element", (A(f32([1.5])),), {}),
             ("nan-rows", (A(_NAN_ROWS),), {"dim": 1}),
             ("int", (A(np.array([1, 2])),), {}), ("bool", (A(np.array([True])),), {}),
             ("node", (A(rnd(3, 4)), 1), {})]

    def gen():
        for s in reduction(op, extra=extra)():
            if s.family == "node":
                s = Sample(op, "node", s.args, s.kwargs, call=_graph(_call(op)))
            yield s
    return gen


def nanmedian_samples(op):
    def gen():
        for fam, a in list(float_families()) + [("int64", A(np.array([[3, 1, 2], [2, 2, 5]]))),
                                                 ("nan-rows", A(_NAN_ROWS)),
                                                 ("nan-rows-5", A(_NAN_ROWS_5)),
                                                 ("3-d", A(rnd(2, 3, 4)))]:
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
            for d in ((0, -1) if a.arr.ndim else (0,)):
                for k in (False, True):
                    yield Sample(op, f"{fam}-dim{d}-keep{k}", (a, d, k),
                                 gradgrad=fam == "ordinary" and d == 0)
        for n in (1, 2, 3, 4, 5, 7, 8, 16, 33):  # slices of NaN only: which index comes back
            yield Sample(op, f"all-nan-{n}", (A(np.full((2, n), NAN, np.float32)), 1))
        yield Sample(op, "ties", (A(f32([[2.0, 1.0, 2.0, 1.0], [5.0, 5.0, 5.0, NAN]])), 1),
                     gradgrad=True)
        yield Sample(op, "ties-all", (A(f32([2.0, 1.0, 2.0, 1.0, NAN, 2.0])),), gradgrad=True)
        yield Sample(op, "all-nan-all", (A(f32([NAN, NAN])),))
        yield Sample(op, "empty-all", (A(np.zeros((0, 3), np.float32)),))
        yield Sample(op, "empty-dim", (A(np.zeros((0, 3), np.float32)), 0))
        yield Sample(op, "empty-other-dim", (A(np.zeros((0, 3), np.float32)), 1))
        yield Sample(op, "bool", (A(np.array([True, False])),))
        yield Sample(op, "bool-dim", (A(np.array([True, False])), 0))
        yield Sample(op, "float-dim", (A(rnd(3)), 0.0))
        yield Sample(op.replace("nanmedian", "median"), "float-dim-median", (A(rnd(3)), 0.0))
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"dim": 1, "keepdim": True})
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_graph(_call(op)))
        yield Sample(op, "node-dim", (A(rnd(3, 4)), 1), call=_graph(_call(op)))
    return gen


def quantile_samples(op):
    qs = (0.0, 0.3, 0.5, 1.0, A(f32([0.25, 0.75]), grad=False), A(f32(0.4), grad=False))

    def gen():
        inputs = [(f, a) for f, a in float_families() if f != "float16"] + [
            ("nan-rows", A(_NAN_ROWS)), ("nan-rows-5", A(_NAN_ROWS_5)),
            ("3-d", A(rnd(2, 3, 4)))]
        for fam, a in inputs:
            f64 = a.arr.dtype == np.float64
            for i, q in enumerate(qs):
                if isinstance(q, A) and f64:
                    q = A(q.arr.astype(np.float64), grad=False)
                yield Sample(op, f"{fam}-q{i}", (a, q), gradgrad=fam == "ordinary" and i == 1)
                for d in ((0, -1) if a.arr.ndim else (0,)):
                    for k in (False, True):
                        yield Sample(op, f"{fam}-q{i}-dim{d}-keep{k}", (a, q, d, k))
            for mode in ("lower", "higher", "nearest", "midpoint"):
                for i, q in enumerate(qs[:4]):
                    yield Sample(op, f"{fam}-{mode}-q{i}", (a, q), {"interpolation": mode},
                                 gradgrad=fam == "ordinary" and i == 1)
                yield Sample(op, f"{fam}-{mode}-dim", (a, 0.4, 0), {"interpolation": mode})
        x = A(rnd(3, 4))
        yield Sample(op, "nearest-halves", (A(f32([0.0, 1.0, 2.0, 3.0, 4.0])),
                                            A(f32([0.125, 0.375, 0.625, 0.875]), grad=False)),
                     {"interpolation": "nearest"})
        yield Sample(op, "q-float64", (A(rnd(5, dtype=np.float64)), 0.1))
        yield Sample(op, "empty-q", (x, A(np.zeros(0, np.float32), grad=False), 1))
        yield Sample(op, "q-int", (x, 1))
        for fam, args, kw in (("int", (A(np.array([1, 2])), 0.5), {}),
                              ("float16", (A(rnd(3, dtype=np.float16)), 0.5), {}),
                              ("q-other-dtype", (x, A(np.array([0.5]), grad=False)), {}),
                              ("q-2-d", (x, A(f32([[0.5]]), grad=False)), {}),
                              ("q-above-1", (x, 1.5), {}), ("q-negative", (x, -0.1), {}),
                              ("q-nan", (x, NAN), {}),
                              ("q-tensor-above-1", (x, A(f32([0.5, 1.5]), grad=False)), {}),
                              ("q-tensor-nan", (x, A(f32(NAN), grad=False)), {}),
                              ("interpolation", (x, 0.5), {"interpolation": "foo"}),
                              ("empty", (A(np.zeros((0, 3), np.float32)), 0.5), {}),
                              ("empty-dim", (A(np.zeros((0, 3), np.float32)), 0.5, 1), {}),
                              ("dim-tuple", (x, 0.5), {"dim": (0, 1)}),
                              ("dim-out-of-range", (x, 0.5, 2), {}),
                              ("int-interpolation", (A(np.array([1, 2])), 0.5),
                               {"interpolation": "foo"})):
            yield Sample(op, fam, args, kw)
        yield Sample(op, "node", (x, 0.3), call=_graph(_call(op)))
        yield Sample(op, "node-q-tensor", (x, A(f32([0.3, 0.6]), grad=False), 1),
                     call=_graph(_call(op)))
        yield Sample(op, "node-lower", (x, 0.3), {"interpolation": "lower"},
                     call=_graph(_call(op)))
    return gen


_ONE_ELEMENT = ("as *:var[0-d*]: one element, no degrees of freedom: both give NaN and a NaN "
                "gradient, PyTorch's without a second derivative")
# (sample-id pattern, verdict, reason), added to _opinfo_samples.KNOWN_DIFFERENCES
KNOWN_DIFFERENCES = [
    (f"fn:{name}[{pattern}]", "SILENT", reason)
    for name in ("var_mean", "std_mean")
    for pattern, reason in (
        ("*dim()*", "the PyTorch bug of var(dim=()) (see *:var[*dim()*]): its backward divides "
         "by N - 1 with N = 1; minitorch's gradient agrees with gradcheck"),
        ("0-d*", _ONE_ELEMENT), ("one-element", _ONE_ELEMENT),
        ("inf-dim*", "the mean of a slice with +-inf: PyTorch's var_mean computes it with "
         "Welford's running update, where a finite value after an infinite one gives inf - inf "
         "= NaN (mean() and minitorch give the infinity, the limit); which slices come out NaN "
         "depends on how its kernel splits the reduction"))]

_GENERATORS = {"fn:var_mean": spread_mean_samples, "fn:std_mean": spread_mean_samples,
               **{f"{style}:{name}": quantile_samples if name.endswith("quantile")
                  else nanmedian_samples for style in ("fn", "method")
                  for name in ("nanmedian", "quantile", "nanquantile")}}
KEYS = list(_GENERATORS)


def add_samples(t: dict) -> None:
    for op, gen in _GENERATORS.items():
        t[op] = _gradcheck_named(gen(op))

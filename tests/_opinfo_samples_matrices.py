"""OpInfo samples of ``block_diag``, ``diagflat``, ``cartesian_prod``, ``combinations``,
``vander``, ``cov`` and ``corrcoef`` (``minitorch/ops/matrices.py``; the functions and the
Tensor methods where PyTorch has them).

``_opinfo_samples._build_table`` calls :func:`add_samples`: the input families (as vectors
where the function takes vectors), mixed dtypes, empty inputs, the weights of ``cov``, and
PyTorch's errors.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, rnd
from _opinfo_samples_shape_extra import _gradcheck_named


def _vectors():
    return all_families((5,))


def block_diag_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a, A(rnd(2))), gradgrad=fam == "ordinary")
        yield Sample(op, "mixed", (A(f32(1.0)), A(np.array([1, 2])),
                                   A(rnd(2, 3, dtype=np.float64))), gradgrad=True)
        yield Sample(op, "empty-blocks", (A(np.zeros((0, 2), np.float32)),
                                          A(np.ones((2, 0), np.float32))))
        yield Sample(op, "one", (A(rnd(2, 2)),))
        yield Sample(op, "none", ())
        yield Sample(op, "int-bool", (A(np.array([[1, 2]])), A(np.array([True]))))
        yield Sample(op, "3-d", (A(rnd(2, 2, 2)),))
        yield Sample(op, "list", ([A(rnd(2))],))
    return gen


def diagflat_samples(op):
    def gen():
        for fam, a in all_families():
            for offset in (0, 1, -2):
                yield Sample(op, f"{fam}-{offset}", (a, offset), gradgrad=fam == "ordinary")
        yield Sample(op, "default", (A(rnd(3)),))
    return gen


def cartesian_prod_samples(op):
    def gen():
        for fam, a in _vectors():
            yield Sample(op, fam, (a, a), gradgrad=fam == "ordinary")
            yield Sample(op, f"{fam}-three", (a, A(np.resize(a.arr, 2)), a))
        yield Sample(op, "one", (A(rnd(3)),))
        yield Sample(op, "empty", (A(rnd(3)), A(np.zeros(0, np.float32))))
        for fam, args in (("none", ()), ("dtypes", (A(rnd(3)), A(np.array([1, 2])))),
                          ("2-d", (A(rnd(2, 2)),)), ("0-d", (A(f32(1.0)), A(rnd(3))))):
            yield Sample(op, fam, args)
    return gen


def combinations_samples(op):
    def gen():
        for fam, a in _vectors():
            for args in ((), (3,), (1,), (0,), (2, True), (3, True), (6,)):
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and args == (2, True))
        yield Sample(op, "keywords", (A(rnd(4)),), {"r": 2, "with_replacement": True})
        for fam, args in (("negative", (A(rnd(3)), -1)), ("2-d", (A(rnd(2, 2)),)),
                          ("empty", (A(np.zeros(0, np.float32)),))):
            yield Sample(op, fam, args)
    return gen


def vander_samples(op):
    def gen():
        for fam, a in _vectors():
            for args, kw in (((), {}), ((3,), {}), ((), {"increasing": True}), ((0,), {}),
                             ((1,), {}), ((7,), {"increasing": True})):
                yield Sample(op, f"{fam}-{args}-{kw}", (a, *args), kw,
                             gradgrad=fam == "ordinary" and not args)
        yield Sample(op, "int8", (A(np.array([1, 2, 3], np.int8)),))
        yield Sample(op, "keyword", (A(rnd(3)),), {"N": 4})
        for fam, args in (("negative", (A(rnd(3)), -1)), ("2-d", (A(rnd(2, 2)),)),
                          ("0-d", (A(f32(1.0)),))):
            yield Sample(op, fam, args)
    return gen


def cov_samples(op):
    corr = op.endswith("corrcoef")

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        for fam, a in (("1-d", A(rnd(5))), ("one-observation", A(rnd(3, 1))),
                       ("3-variables", A(rnd(3, 6))), ("constant-row", A(f32([[1, 1, 1],
                                                                                 [1, 2, 4]]))),
                       ("inf-nan", A(f32([[1.0, INF, 2.0], [NAN, 1.0, 0.0]]))),
                       ("3-d", A(rnd(2, 2, 2))), ("one-element", A(f32([2.0])))):
            yield Sample(op, fam, (a,), gradgrad=fam == "3-variables")
        if corr:
            return
        x = A(rnd(2, 4))
        fw, aw = A(np.array([1, 2, 0, 3])), A(f32([0.5, 1.0, 2.0, 0.25]), grad=False)
        for fam, kw in (("correction-0", {"correction": 0}), ("correction-2", {"correction": 2}),
                        ("correction-too-big", {"correction": 5}),
                        ("fweights", {"fweights": fw}), ("aweights", {"aweights": aw}),
                        ("both", {"fweights": fw, "aweights": aw}),
                        ("both-correction-0", {"fweights": fw, "aweights": aw, "correction": 0}),
                        ("aweights-grad", {"aweights": A(f32([0.5, 1.0, 2.0, 0.25]))}),
                        ("fweights-float", {"fweights": A(f32([1, 2, 0, 3]), grad=False)}),
                        ("aweights-int", {"aweights": fw}),
                        ("fweights-negative", {"fweights": A(np.array([1, -2, 0, 3]))}),
                        ("aweights-negative", {"aweights": A(f32([1, -2, 0, 3]), grad=False)}),
                        ("fweights-zero", {"fweights": A(np.zeros(4, np.int64))}),
                        ("fweights-length", {"fweights": A(np.array([1, 2]))}),
                        ("fweights-2-d", {"fweights": A(np.ones((1, 4), np.int64))})):
            yield Sample(op, fam, (x,), kw, gradgrad=fam in ("both", "aweights-grad"))
        yield Sample(op, "int", (A(np.array([[1, 2, 3], [2, 2, 5]])),))
        yield Sample(op, "bool", (A(np.array([True, False])),))
        # graph task: the normalization with aweights that require grad (MulBackward1; the
        # weights' sum itself without a correction)
        awg = A(f32([0.5, 1.0, 2.0, 0.25]))
        for fam, kw in (("aweights-grad-correction-0", {"aweights": awg, "correction": 0}),
                        ("aweights-grad-correction-2", {"aweights": awg, "correction": 2}),
                        ("both-grad", {"aweights": awg, "fweights": fw})):
            yield Sample(op, fam, (x,), kw)
    return gen


_GENERATORS = {"fn:block_diag": block_diag_samples, "fn:cartesian_prod": cartesian_prod_samples,
               "fn:combinations": combinations_samples, "fn:vander": vander_samples,
               **{f"{style}:{name}": gen for style in ("fn", "method")
                  for name, gen in (("diagflat", diagflat_samples), ("cov", cov_samples),
                                    ("corrcoef", cov_samples))}}
KEYS = list(_GENERATORS)


def add_samples(t: dict) -> None:
    for op, gen in _GENERATORS.items():
        t[op] = _gradcheck_named(gen(op))

"""OpInfo samples of ``searchsorted``, ``bucketize``, ``isin``, ``histc`` and
``unravel_index`` (``minitorch/ops/search.py``; the functions, ``Tensor.histc`` and ``out=``),
and ``unique_consecutive`` (``ops/sorting.py``; the function and the method).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``): each
family is searched for, searched in, tested for membership and counted, next to sequences with
ties, NaN, infinities and signed zeros.
"""

from __future__ import annotations

import _opinfo_samples as table
import numpy as np
from _opinfo_samples import _OUT_ARGS, INF, NAN, A, Sample, f32, out_samples, rnd
from _opinfo_samples_pointwise import _chain

SEQUENCES = {  # sorted 1-d sequences, as PyTorch sorts (NaN last)
    "ordinary": f32([-1.5, -0.2, 0.0, 0.3, 1.1, 2.0]),
    "ties": f32([-1.0, 0.0, 0.0, 0.0, 2.0, 2.0, 7.0]),
    "nan-last": f32([-1.0, 0.5, 2.0, NAN, NAN]),
    "inf": f32([-INF, -1.0, 0.0, INF]),
    "signed-zeros": f32([-1.0, -0.0, 0.0, 1.0]),
    "one": f32([0.5]),
    "int64": np.array([-5, -2, 0, 1, 3, 3, 7]),
    "float64": np.array([-1.5, -0.25, 0.0, 0.7, 1.0]),
    "float16": np.array([-1.5, -0.25, 0.0, 0.7, 1.0], np.float16),
}


def _values():
    yield from table.all_families()
    yield "edges", A(f32([-INF, INF, NAN, -0.0, 0.0, 2.0, 0.3, -1.5, 7.0]))


def searchsorted_samples(op):
    def gen():
        for seq_name, seq in SEQUENCES.items():
            for fam, v in _values():
                for kw in ({}, {"right": True}):
                    yield Sample(op, f"{seq_name}-{fam}-{kw}", (A(seq), v), dict(kw))
        x = A(rnd(3, 4))
        seq = A(SEQUENCES["ties"])
        for kw in ({"side": "right"}, {"side": "left"}, {"side": "right", "right": False},
                   {"out_int32": True}, {"out_int32": True, "right": True},
                   {"side": "left", "right": True}, {"side": "middle"}):
            yield Sample(op, f"keywords-{kw}", (seq, x), kw)
        for fam, number in (("float", 0.0), ("int", 2), ("nan", NAN), ("big", 1e40)):
            yield Sample(op, f"scalar-{fam}", (seq, number))
            yield Sample(op, f"int-sequence-scalar-{fam}", (A(SEQUENCES["int64"]), number))
        rows = A(np.sort(rnd(3, 5), axis=1))
        yield Sample(op, "rows", (rows, A(rnd(3, 4))))
        yield Sample(op, "rows-right", (rows, A(rnd(3, 2))), {"right": True})
        yield Sample(op, "rows-3-d", (A(np.sort(rnd(2, 3, 4), axis=-1)), A(rnd(2, 3, 5))))
        unsorted = rnd(3, 5)
        order = np.argsort(unsorted, axis=-1, kind="stable")
        yield Sample(op, "sorter", (A(unsorted[0]), x), {"sorter": A(order[0])})
        yield Sample(op, "sorter-rows", (A(unsorted), A(rnd(3, 4))),
                     {"sorter": A(order), "right": True})
        for fam, args, kw in (
                ("empty-sequence", (A(np.zeros(0, np.float32)), x), {}),
                ("empty-values", (seq, A(np.zeros((0, 3), np.float32))), {}),
                ("0-d-values", (seq, A(f32(2.0))), {}),
                ("int-sequence-float-values", (A(SEQUENCES["int64"]), x), {}),
                ("float16-values-int-sequence", (A(SEQUENCES["int64"]),
                                                 A(rnd(5, dtype=np.float16))), {}),
                ("bool-both", (A(np.array([False, True])), A(np.array([True]))), {}),
                ("bool-sequence-float-values", (A(np.array([False, True])), x), {}),
                ("0-d-sequence", (A(f32(1.0)), x), {}),
                ("rows-mismatch", (rows, A(rnd(2, 4))), {}),
                ("rows-1-d-values", (rows, A(rnd(3))), {}),
                ("rows-scalar", (rows, 1.0), {}),
                ("sorter-float", (seq, x), {"sorter": A(f32(np.arange(7)))}),
                ("sorter-int32", (seq, x), {"sorter": A(np.arange(7, dtype=np.int32))}),
                ("sorter-size", (seq, x), {"sorter": A(np.arange(6))}),
                ("sorter-out-of-range", (seq, x), {"sorter": A(np.arange(1, 8))}),
                ("sorter-negative", (seq, x), {"sorter": A(np.arange(-1, 6))}),
                ("list-values", (seq, [1.0]), {}), ("list-sequence", ([1.0], x), {})):
            yield Sample(op, fam, args, kw)
    return gen


def bucketize_samples(op):
    def gen():
        for seq_name, seq in SEQUENCES.items():
            for fam, v in _values():
                for kw in ({}, {"right": True}):
                    yield Sample(op, f"{seq_name}-{fam}-{kw}", (v, A(seq)), dict(kw))
        seq = A(SEQUENCES["ties"])
        yield Sample(op, "out_int32", (A(rnd(3, 4)), seq), {"out_int32": True})
        yield Sample(op, "scalar", (2, seq))
        yield Sample(op, "scalar-float-right", (0.0, seq), {"right": True})
        yield Sample(op, "bool-both", (A(np.array([True])), A(np.array([False, True]))))
        for fam, bounds in (("2-d-boundaries", A(np.sort(rnd(2, 3), axis=1))),
                            ("0-d-boundaries", A(f32(1.0)))):
            yield Sample(op, fam, (A(rnd(3)), bounds))
        yield Sample(op, "side", (A(rnd(3)), seq), {"side": "right"})
    return gen


def isin_samples(op):
    def gen():
        tests = {"some": f32([0.0, 2.0, NAN, -1.0, 7.0]), "int": np.array([3, 0, -5]),
                 "empty": np.zeros(0, np.float32), "2-d": f32([[1.0, 2.0], [INF, -0.0]])}
        for fam, a in _values():
            for t_name, t in tests.items():
                for kw in ({}, {"invert": True}):
                    yield Sample(op, f"{fam}-{t_name}-{kw}", (a, A(t)), dict(kw))
            yield Sample(op, f"{fam}-itself", (a, a))
        x = A(np.array([[1, 2], [3, 4]]))
        yield Sample(op, "assume_unique", (A(np.array([1, 2, 5])), A(np.array([2, 5]))),
                     {"assume_unique": True})
        for fam, args in (("number-test", (x, 2)), ("float-number-test", (x, 2.5)),
                          ("number-elements", (2, x)), ("float-number-elements", (2.0, x)),
                          ("nan-number", (A(f32([NAN, 1.0])), NAN)),
                          ("uint8-negative", (A(np.array([1, 255], np.uint8)),
                                              A(np.array([-1])))),
                          ("int-float", (x, A(f32([1.0, 2.5])))),
                          ("float16-float64", (A(np.array([0.1, 0.5], np.float16)),
                                               A(np.array([0.1, 0.5])))),
                          ("numbers", (2, 3)), ("list", (x, [1, 2])),
                          ("bool", (A(np.array([True, False])), A(np.array([1])))),
                          ("int-bool", (x, A(np.array([True]))))):
            yield Sample(op, fam, args)
        yield Sample(op, "out-bool", (x, A(np.array([2, 3]))),
                     {"out": A(np.zeros((2, 2), bool), False, "own")})
    return gen


def histc_samples(op):
    def gen():
        for fam, a in table.float_families():
            for args in ((), (4,), (4, -1.0, 1.0), (3, 0, 2.5), (5, 0.5, 0.5), (1, -1, 1)):
                yield Sample(op, f"{fam}-{args}", (a, *args))
        for fam, a in table.int_families():
            yield Sample(op, fam, (a, 3))
        edges = f32([0.0, 0.25, 0.5, 0.75, 1.0, 1.0, -0.0, 1.0000001, -1e-8])
        for dt in (np.float32, np.float64, np.float16):
            yield Sample(op, f"bin-edges-{np.dtype(dt).name}", (A(edges.astype(dt)), 4, 0, 1))
            yield Sample(op, f"thirds-{np.dtype(dt).name}",
                         (A(np.linspace(-1, 2, 31).astype(dt)), 3, -1, 2))
            yield Sample(op, f"many-{np.dtype(dt).name}", (A(rnd(200).astype(dt)), 7))
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"bins": 5, "min": -1, "max": 1})
        yield Sample(op, "one-value", (A(f32([2.0, 2.0])), 3))
        yield Sample(op, "0-d", (A(f32(2.5)), 3, 2, 2))
        yield Sample(op, "empty-auto", (A(np.zeros(0, np.float32)), 3))
        yield Sample(op, "tensor-min", (A(rnd(4)), 3), {"min": A(f32(-1.0), grad=False)})
        for fam, args in (("bins-0", (0,)), ("bins-negative", (-1,)), ("bins-float", (3.0,)),
                          ("min-above-max", (3, 2, 1)), ("nan-min", (3, NAN)),
                          ("inf-max", (3, 0, INF))):
            yield Sample(op, fam, (A(f32([1.0, 2.0])), *args))
        yield Sample(op, "inf-data", (A(f32([1.0, 2.0, INF])),))
        yield Sample(op, "nan-data", (A(f32([1.0, NAN])),))
    return gen


_FLAT_INDICES = {"vector": np.array([0, 4, 1, 5]), "2-d": np.array([[1, 2], [3, 0]]),
                 "0-d": np.array(3), "negative": np.array([-1, -7, 2]),
                 "too-large": np.array([7, 12]), "int32": np.array([1, 5], np.int32),
                 "uint8": np.array([1, 5], np.uint8), "empty": np.zeros(0, np.int64)}


def unravel_index_samples(op):
    def gen():
        for shape in ((2, 3), [4], (2, 1, 3), 5, (), (1,)):
            for fam, idx in _FLAT_INDICES.items():
                yield Sample(op, f"{fam}-{shape}", (A(idx), shape))
        for fam, args in (("float", (A(f32([1.0])), (2, 3))),
                          ("bool", (A(np.array([True])), (2,))),
                          ("negative-shape", (A(np.array([1])), (2, -3))),
                          ("zero-size", (A(np.array([1])), (0, 3))), ("int", (5, (2, 3)))):
            yield Sample(op, fam, args)
    return gen


def unique_consecutive_samples(op):
    def gen():
        runs = {"runs": np.array([1, 1, 2, 2, 3, 1, 1, 2]), "nan": f32([NAN, NAN, 1.0, 1.0]),
                "signed-zeros": f32([-0.0, 0.0, 1.0]), "bool": np.array([True, True, False]),
                "float16": np.array([1, 1, 2], np.float16), "0-d": f32(2.0),
                "empty": np.zeros(0, np.float32), "rows": np.array([[1, 1], [1, 1], [2, 3]])}
        for fam, a in list(runs.items()) + [(f, x.arr) for f, x in table.all_families()]:
            for kw in ({}, {"return_inverse": True}, {"return_counts": True},
                       {"return_inverse": True, "return_counts": True}):
                yield Sample(op, f"{fam}-{sorted(kw)}", (A(a),), dict(kw))
                if np.ndim(a):
                    yield Sample(op, f"{fam}-{sorted(kw)}-dim0", (A(a),), {**kw, "dim": 0})
                if np.ndim(a) > 1:
                    yield Sample(op, f"{fam}-{sorted(kw)}-dim1", (A(a),), {**kw, "dim": -1})
        yield Sample(op, "empty-other-dim", (A(np.zeros((0, 2), np.float32)),), {"dim": 1})
        yield Sample(op, "empty-dim", (A(np.zeros((2, 0), np.float32)),),
                     {"dim": 1, "return_inverse": True, "return_counts": True})
        yield Sample(op, "dim-out-of-range", (A(rnd(3)),), {"dim": 1})
        yield Sample(op, "0-d-dim", (A(f32(1.0)),), {"dim": 0})
        yield Sample(op, "0-d-dim-negative", (A(f32(1.0)),), {"dim": -1})
    return gen


_OUT_ARGS["searchsorted"] = lambda: ((A(SEQUENCES["ties"], grad=False),
                                      A(rnd(3), grad=False)), (3,))
_OUT_ARGS["bucketize"] = lambda: ((A(rnd(3), grad=False), A(SEQUENCES["ties"], grad=False)),
                                  (3,))
_OUT_ARGS["isin"] = lambda: ((A(rnd(3), grad=False), A(rnd(2), grad=False)), (3,))
_OUT_ARGS["histc"] = lambda: ((A(rnd(6), grad=False), 3), (3,))

# (sample-id pattern, verdict, reason), added to _opinfo_samples.KNOWN_DIFFERENCES
KNOWN_DIFFERENCES = [
    ("fn:isin[*-itself]", "accepted-where-torch-raises",
     "PyTorch bug: isin with a non-contiguous test_elements that cannot be viewed as 1-d (a "
     "transposed matrix) raises 'view size is not compatible with input tensor's size and "
     "stride' on its sorting path (chosen when elements has more than a few elements); "
     "minitorch answers, as PyTorch does for a contiguous copy"),
    ("*:histc[nan-*]", "same-class-different-message",
     "histc of data with NaN and no range: both raise 'torch.histc: range of [nan, nan] is not "
     "finite'; PyTorch prints the NaN that its vectorised aminmax returns, which has the sign "
     "bit set (-nan) when the tensor has more than one element, and minitorch prints nan"),
]

KEYS = ["fn:searchsorted", "fn:bucketize", "fn:isin", "fn:histc", "method:histc",
        "fn:unravel_index", "fn:unique_consecutive", "method:unique_consecutive"]


def add_samples(t: dict) -> None:
    t["fn:searchsorted"] = _chain(searchsorted_samples("fn:searchsorted"),
                                  out_samples("searchsorted"))
    t["fn:bucketize"] = _chain(bucketize_samples("fn:bucketize"), out_samples("bucketize"))
    t["fn:isin"] = _chain(isin_samples("fn:isin"), out_samples("isin"))
    t["fn:histc"] = _chain(histc_samples("fn:histc"), out_samples("histc"))
    t["method:histc"] = histc_samples("method:histc")
    t["fn:unravel_index"] = unravel_index_samples("fn:unravel_index")
    for style in ("fn", "method"):
        t[f"{style}:unique_consecutive"] = unique_consecutive_samples(f"{style}:unique_consecutive")

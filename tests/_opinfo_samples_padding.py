"""OpInfo samples of ``F.pad`` (every mode), ``F.normalize``, ``F.cosine_similarity`` and
``F.pairwise_distance``.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``), plus the pads of
each mode (negative ones that crop, the largest allowed, one too large), their errors, and
samples that compare the names of the nodes recorded in the graph.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, all_families, f32, float_families, rnd


def _names(node) -> list:
    """The names of ``node`` and of every node that feeds it, depth first."""
    if node is None:
        return [None]
    return [node.name()] + [n for child, _ in node.next_functions for n in _names(child)]


def _graph(op, deep=True):
    """Call ``F.<op>`` and also return the names of all the nodes of the graph it records
    (``deep=False``: of its node only)."""
    name = op.split(":")[1]

    def call(lib, *args, **kw):
        out = getattr(lib.nn.functional, name)(*args, **kw)
        return out, _names(out.grad_fn) if deep else out.grad_fn.name()
    return call


def _families3(shape=(2, 3, 4)):
    """The float families as 3-d tensors (batch, channels, width), and int, bool, float16."""
    for fam, a in all_families(shape):
        if fam in ("0-d", "empty"):
            continue
        yield fam, a
    yield "empty-batch", A(np.zeros((0, 3, 4), np.float32))


def pad_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            yield Sample(op, fam, (a, (1, 2)), gradgrad=fam in ("ordinary", "float64"))
            yield Sample(op, fam + "-value", (a, (2, 0, 1, 1)), {"value": 1.5})
        # constant: any number of dims, crops, values of each dtype
        x = A(rnd(2, 3, 4))
        for fam, pad in (("all-dims", (1, 0, 0, 2, 1, 1)), ("crop", (-1, 2)),
                         ("crop-both", (-1, -2, 1, -1)), ("crop-to-nothing", (-2, -2)),
                         ("crop-too-far", (-3, -2)), ("crop-then-pad", (-5, 2)),
                         ("no-pad", ()), ("zeros", (0, 0)), ("odd", (1,)),
                         ("too-long", (1,) * 8), ("list", [1, 1])):
            yield Sample(op, "constant-" + fam, (x, pad), gradgrad=fam == "crop-both")
        for fam, (arr, value) in {
                "int-value": (np.arange(3), 2.7), "int-negative-value": (np.arange(3), -2.7),
                "uint8-overflow": (np.arange(3, dtype=np.uint8), -1),
                "bool-value": (np.array([True, False]), 0.5),
                "float16-overflow": (np.ones(3, np.float16), 1e6), "nan-value": (f32([1]), NAN),
                "inf-value": (f32([1]), -INF), "true-value": (f32([1]), True),
                "int-value-int": (np.arange(3), 7)}.items():
            yield Sample(op, "constant-" + fam, (A(arr), (1, 1)), {"value": value})
        yield Sample(op, "0-d", (A(f32(1.5)), (1, 1)))
        yield Sample(op, "0-d-no-pad", (A(f32(1.5)), ()))
        yield Sample(op, "bad-mode", (x, (1, 1)), {"mode": "foo"})
        yield Sample(op, "pad-float", (x, (1.5, 1)))
        yield Sample(op, "pad-int", (x, 1))
        yield Sample(op, "value-str", (x, (1, 1)), {"value": "a"})
        yield Sample(op, "mode-none", (x, (1, 1)), {"mode": None})
        yield Sample(op, "not-a-tensor", ([1.0, 2.0], (1, 1)))
        yield Sample(op, "node", (x, (1, 1)), call=_graph(op))
        # the other modes: 1, 2 and 3 padded dimensions, with and without a batch dimension
        for mode in ("reflect", "replicate", "circular"):
            for fam, a in _families3():
                yield Sample(op, f"{mode}-{fam}", (a, (2, 1)), {"mode": mode},
                             gradgrad=fam in ("ordinary", "float64"))
            cases = {
                "1d-no-batch": ((3, 4), (1, 3)), "2d": ((2, 3, 4), (1, 2, 2, 0)),
                "2d-batch": ((2, 2, 3, 4), (3, 0, 1, 2)), "3d": ((2, 3, 4, 4), (1, 1, 2, 0, 1, 2)),
                "3d-batch": ((1, 2, 3, 4, 4), (1, 3, 2, 2, 2, 1)),
                "crop": ((2, 3, 4), (-1, 2)), "crop-2d": ((2, 3, 4), (-1, 2, 1, -2)),
                "largest": ((2, 3, 4), (3, 3)), "too-large": ((2, 3, 4), (4, 0)),
                "too-large-right": ((2, 3, 4), (0, 4)), "too-large-h": ((2, 3, 4), (1, 1, 0, 3)),
                "too-large-d": ((1, 2, 2, 3), (0, 0, 0, 0, 2, 0)),
                "output-0": ((2, 3, 4), (-2, -2)), "output-negative": ((2, 3, 4), (-3, -2)),
                "output-0-h": ((2, 3, 4), (0, 0, -2, -1)),
                "output-neg-h": ((2, 3, 4), (0, 0, -3, -1)),
                "wraps": ((2, 3, 4), (5, 0)), "1-d-input": ((4,), (1, 1)),
                "2-d-input-2d": ((3, 4), (1, 1, 1, 1)), "4-d-input-1d": ((1, 2, 3, 4), (1, 1)),
                "pad-8": ((1, 2, 3, 4), (1,) * 8), "empty-channels": ((0, 4), (1, 1)),
                "empty-width": ((2, 0), (1, 1)), "empty-2d": ((1, 0, 3), (1, 1, 1, 1)),
                "empty-3d": ((1, 0, 2, 3), (1,) * 6), "width-1": ((2, 1), (0, 0)),
            }
            for fam, (shape, pad) in cases.items():
                yield Sample(op, f"{mode}-{fam}", (A(rnd(*shape)), pad), {"mode": mode},
                             gradgrad=fam in ("2d", "3d"))
            yield Sample(op, f"{mode}-value", (A(rnd(2, 3)), (1, 1)), {"mode": mode, "value": 1})
            yield Sample(op, f"{mode}-value-0", (A(rnd(2, 3)), (1, 1)),
                         {"mode": mode, "value": 0.0})
            for n in (1, 2, 3):
                yield Sample(op, f"{mode}-bool-{n}d", (A(np.ones((1, 2, 3, 3)) > 0), (1, 1) * n),
                             {"mode": mode})
                yield Sample(op, f"{mode}-node-{n}d", (A(rnd(1, 2, 3, 3)), (1, 1) * n),
                             {"mode": mode}, call=_graph(op, mode != "circular" or n == 1))
            yield Sample(op, f"{mode}-bool-too-large", (A(np.ones((2, 3)) > 0), (5, 5)),
                         {"mode": mode})
    return gen


def normalize_samples(op):
    def gen():
        for fam, a in float_families((3, 4)):
            yield Sample(op, fam, (a,), gradgrad=fam in ("ordinary", "zeros", "float64"))
            yield Sample(op, fam + "-dim0-p1", (a,), {"p": 1.0, "dim": 0})
        for fam, a in all_families((3, 4)):
            if fam in ("int64", "int32", "uint8", "bool"):
                yield Sample(op, fam, (a,))
        x = A(rnd(3, 4))
        for fam, kw in (("p3", {"p": 3}), ("p-inf", {"p": INF}), ("p0.5", {"p": 0.5}),
                        ("dim-neg", {"dim": -1}), ("eps-big", {"eps": 10.0}),
                        ("dim-out", {"dim": 2})):
            yield Sample(op, fam, (x,), kw, gradgrad=fam == "eps-big")
        yield Sample(op, "zero-row", (A(f32([[0.0, 0.0], [3.0, 4.0]])),), {"dim": 1},
                     gradgrad=True)
        yield Sample(op, "out", (A(rnd(3, 4), grad=False),), {"out": A(np.zeros((3, 4),
                                                                                np.float32),
                                                                       grad=False)})
        yield Sample(op, "node", (x,), call=_graph(op))
    return gen


def _pair_families():
    yield "ordinary", A(rnd(3, 4)), A(rnd(3, 4))
    yield "broadcast", A(rnd(3, 1)), A(rnd(4))
    yield "broadcast-rows", A(rnd(1, 4)), A(rnd(3, 4))
    yield "noncontig", A(rnd(3, 4), layout="T"), A(rnd(3, 4))
    yield "zeros", A(np.zeros((2, 3), np.float32)), A(rnd(2, 3))
    yield "both-zero", A(np.zeros((2, 3), np.float32)), A(np.zeros((2, 3), np.float32))
    yield "tiny", A(np.full((2, 3), 1e-10, np.float32)), A(rnd(2, 3))
    yield "equal", A(f32([[1.0, 2.0, 3.0]])), A(f32([[1.0, 2.0, 3.0]]))
    yield "inf", A(f32([[1.0, INF, 0.0]])), A(f32([[1.0, 2.0, 3.0]]))
    yield "nan", A(f32([[1.0, NAN, 0.0]])), A(f32([[1.0, 2.0, 3.0]]))
    yield "empty", A(np.zeros((0, 3), np.float32)), A(np.zeros((0, 3), np.float32))
    yield "1-d", A(rnd(4)), A(rnd(4))
    yield "0-d", A(f32(1.5)), A(f32(-0.5))
    yield "float64", A(rnd(3, 4, dtype=np.float64)), A(rnd(3, 4, dtype=np.float64))
    yield "float16", A(rnd(3, 4, dtype=np.float16)), A(rnd(3, 4, dtype=np.float16))
    yield "mixed", A(rnd(3, 4, dtype=np.float64)), A(rnd(3, 4))
    yield "int-float", A(np.arange(12).reshape(3, 4)), A(rnd(3, 4))
    yield "int-int", A(np.arange(12).reshape(3, 4)), A(np.ones((3, 4), np.int64))
    yield "bool", A(np.ones((3, 4)) > 0), A(np.zeros((3, 4)) > 0)
    yield "mismatch", A(rnd(3, 4)), A(rnd(2, 4))


def distance_samples(op):
    name = op.split(":")[1]
    variants = ({"dim": 0}, {"dim": -1}, {"eps": 0.5}, {"dim": 2}) if name == "cosine_similarity" \
        else ({"p": 1.0}, {"p": INF}, {"p": 0.5}, {"keepdim": True}, {"eps": 0.0}, {"p": 3})

    def gen():
        for fam, a, b in _pair_families():
            yield Sample(op, fam, (a, b), gradgrad=fam in ("ordinary", "zeros", "float64",
                                                           "broadcast"))
        for i, kw in enumerate(variants):
            yield Sample(op, f"variant{i}", (A(rnd(3, 4)), A(rnd(3, 4))), kw, gradgrad=True)
        yield Sample(op, "node", (A(rnd(3, 4)), A(rnd(3, 4))), call=_graph(op))
    return gen


def add_samples(t: dict) -> None:
    t["F:pad"] = pad_samples("F:pad")
    t["F:normalize"] = normalize_samples("F:normalize")
    t["F:cosine_similarity"] = distance_samples("F:cosine_similarity")
    t["F:pairwise_distance"] = distance_samples("F:pairwise_distance")

"""OpInfo samples of ``log1p``, ``expm1``, ``rsqrt``, ``log2``, ``log10``, ``exp2``, ``erf``,
``isinf``, ``isposinf``, ``isneginf``, ``nan_to_num``, ``lerp``, ``flip`` and ``outer`` (the
functions, the Tensor methods and the in-place methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``), plus an
``edges`` family of the values where these functions are special (``-1`` for ``log1p``, ``-0.0``
for ``rsqrt``, ...), and samples that compare the names of the nodes recorded in the graph.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import (
    _OUT_ARGS,
    INF,
    NAN,
    A,
    Sample,
    all_families,
    f32,
    float_families,
    int_families,
    out_samples,
    positive_families,
    rnd,
)

FLOAT_FUNCTIONS = ("log1p", "expm1", "rsqrt", "log2", "log10", "exp2", "erf")
TESTS = ("isinf", "isposinf", "isneginf")
# where the ordinary values must be in the function's domain (for finite differences)
_POSITIVE = {"log1p", "rsqrt", "log2", "log10"}


def edge_families():
    """The special values, in float32, float16 and float64."""
    values = [-0.0, 0.0, -1.0, -2.0, INF, -INF, NAN, 1e-30, 0.5, -0.5, 30.0, -30.0, 100.0]
    yield "edges", A(f32(values))
    yield "edges-float16", A(np.array(values, np.float16))
    yield "edges-float64", A(np.array(values, np.float64))
    yield "subnormal", A(f32([1e-45, -1e-45, 1e-39]))


def families_of(name: str):
    def families():
        yield from (positive_families() if name in _POSITIVE else float_families())
        yield from int_families()
        yield from edge_families()
    return families


def _graph(fn):
    """``fn(lib, *args)``, with the names of its node and of the nodes feeding it."""
    def call(lib, *args, **kw):
        out = fn(lib, *args, **kw)
        node = out.grad_fn
        return out, node.name(), [n and n.name() for n, _ in node.next_functions]
    return call


def _fn(name):
    return lambda lib, *args, **kw: getattr(lib, name)(*args, **kw)


def _inplace(name):
    def call(lib, x, *args, **kw):
        y = x.clone()
        return getattr(y, name)(*args, **kw)
    return call


def unary_samples(op, families, grad=True):
    """Every family; ``grad``: the node's name and a second derivative on the ordinary one."""
    style, name = op.split(":")

    def gen():
        for fam, a in families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary",
                         call=_inplace(name) if name.endswith("_") else None)
        if style == "fn":
            yield Sample(op, "not-a-tensor", (1.5,))
        if grad and not name.endswith("_"):
            yield Sample(op, "node", (A(rnd(3, low=0.5)),), call=_graph(
                lambda lib, x: getattr(lib, name)(x) if style == "fn" else getattr(x, name)()))
            # an infinite gradient reaches the backward formula
            yield Sample(op, "upstream-inf", (A(f32([0.5, 1.0, 2.0])),), call=lambda lib, x: (
                getattr(lib, name)(x) * lib.tensor(INF)))
    return gen


# --------------------------------------------------------------------------- nan_to_num
def nan_to_num_samples(op):
    style, name = op.split(":")
    call = _inplace(name) if name.endswith("_") else None
    specials = f32([NAN, INF, -INF, 1.0, -0.0, 2.5])

    def gen():
        for fam, a in (*float_families(), *int_families(), *edge_families()):
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary", call=call)
            yield Sample(op, fam + "-values", (a,), {"nan": 1.0, "posinf": 2.0, "neginf": -3.0},
                         call=call)
        cases = {
            "positional": ((1.5, 7.0, -7.0), {}), "nan-only": ((), {"nan": -1.0}),
            "posinf-only": ((), {"posinf": 10.0}), "neginf-only": ((), {"neginf": -10.0}),
            "overflowing": ((), {"posinf": 1e300, "neginf": -1e300, "nan": 1e40}),
            "nan-None": ((), {"nan": None}), "int-values": ((), {"nan": 1, "posinf": 2}),
            "bool-value": ((), {"nan": True}), "tensor-value": ((), {"nan": A(f32(4.0), False)}),
            "nan-str": ((), {"nan": "a"}), "posinf-str": ((), {"posinf": "a"}),
            "neginf-list": ((), {"neginf": [1.0]}),
        }
        for fam, (args, kw) in cases.items():
            yield Sample(op, fam, (A(specials),) + args, kw, call=call)
        for dt in (np.float16, np.float64):
            yield Sample(op, f"overflowing-{np.dtype(dt).name}", (A(specials.astype(dt)),),
                         {"posinf": 1e10, "neginf": -1e300}, call=call)
        yield Sample(op, "int-big-values", (A(np.array([1, 2], np.uint8)),), {"nan": 1e6},
                     call=call)
        if not name.endswith("_"):
            # the gradient is 0 where a value was replaced: an inf gradient there gives NaN
            yield Sample(op, "upstream-inf", (A(specials),),
                         call=lambda lib, x: lib.nan_to_num(x) * lib.tensor(INF))
            yield Sample(op, "node", (A(specials),), call=_graph(
                lambda lib, x: lib.nan_to_num(x) if style == "fn" else x.nan_to_num()))
        if style == "fn":
            yield Sample(op, "not-a-tensor", (1.5,))
    return gen


# --------------------------------------------------------------------------- lerp
def _lerp_call(op):
    style, name = op.split(":")
    if style == "fn":
        return None
    return _inplace(name) if name.endswith("_") else None


def lerp_samples(op):
    call = _lerp_call(op)
    inplace = op.endswith("_")

    def gen():
        b = A(rnd(3, 4))
        for fam, a in float_families():
            end = A(rnd(*a.arr.shape).astype(a.arr.dtype))
            for w in (0.3, 0.7):
                yield Sample(op, f"{fam}-w{w}", (a, end, w), gradgrad=fam == "ordinary",
                             call=call)
            w = A((np.abs(rnd(*a.arr.shape)) * 0.9).astype(a.arr.dtype))
            yield Sample(op, fam, (a, end, w), gradgrad=fam == "ordinary", call=call)
        for w in (0.0, 1.0, 0.5, -0.5, 0.4999, 1.5, -2.0, 2, True, NAN, INF):
            yield Sample(op, f"weight-{w}", (A(rnd(3, 4)), b, w), call=call)
        weights = f32([[0.0, 0.5, -0.5, 1.0], [0.25, 0.75, 2.0, -1.0], [NAN, INF, 0.49, 0.51]])
        yield Sample(op, "weights", (A(rnd(3, 4)), b, A(weights)), call=call)
        specials = f32([INF, 0.0, -INF, 1.0, NAN, 1e38, -1e38, 3e38])
        ends = f32([INF, INF, INF, 2.0, 1.0, -1e38, 3e38, -3e38])
        for w in (0.25, 0.75):
            yield Sample(op, f"specials-w{w}", (A(specials), A(ends), w), call=call)
            yield Sample(op, f"specials-tensor-w{w}", (A(specials), A(ends),
                                                       A(np.full(8, w, np.float32))), call=call)
        # broadcasting (an in-place lerp_ cannot grow its tensor: PyTorch's error)
        yield Sample(op, "broadcast-end", (A(rnd(3, 4)), A(rnd(4)), 0.3), call=call)
        yield Sample(op, "broadcast-start", (A(rnd(3, 1)), A(rnd(4)), 0.6), call=call)
        yield Sample(op, "broadcast-weight", (A(rnd(3, 4)), A(rnd(4)), A(rnd(3, 1))),
                     call=call)
        yield Sample(op, "broadcast-grow", (A(rnd(4)), A(rnd(4)), A(rnd(2, 4))), call=call)
        yield Sample(op, "broadcast-error", (A(rnd(3)), A(rnd(4)), 0.5), call=call)
        yield Sample(op, "broadcast-error-weight", (A(rnd(3)), A(rnd(3)), A(rnd(4))),
                     call=call)
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)), A(rnd(3)), A(rnd(3))),
                     call=call)
        # a 0-d weight may have another dtype; a larger one may not, nor may ``end``
        yield Sample(op, "0-d-weight-float64", (A(rnd(3)), A(rnd(3)), A(np.array(0.3))),
                     call=call)
        yield Sample(op, "0-d-weight", (A(rnd(3)), A(rnd(3)), A(f32(0.8))), call=call)
        yield Sample(op, "0-d-weight-int", (A(rnd(3)), A(rnd(3)), A(np.array(1))), call=call)
        yield Sample(op, "0-d-weight-bool", (A(rnd(3)), A(rnd(3)), A(np.array(True))),
                     call=call)
        yield Sample(op, "0-d-all", (A(f32(1.0)), A(f32(3.0)), A(f32(0.25))), call=call)
        yield Sample(op, "weight-float64", (A(rnd(3)), A(rnd(3)), A(rnd(3, dtype=np.float64))),
                     call=call)
        yield Sample(op, "end-float64", (A(rnd(3)), A(rnd(3, dtype=np.float64)), 0.5),
                     call=call)
        yield Sample(op, "end-float16", (A(rnd(3)), A(rnd(3, dtype=np.float16)), 0.5),
                     call=call)
        yield Sample(op, "start-float64-0-d", (A(np.array(2.0)), A(rnd(3)), A(f32(0.5))),
                     call=call)
        yield Sample(op, "float16-weight-float32", (A(rnd(3, dtype=np.float16)),
                                                    A(rnd(3, dtype=np.float16)), A(rnd(3))),
                     call=call)
        yield Sample(op, "float16-0-d-weight-float32", (
            A(rnd(3, dtype=np.float16)), A(rnd(3, dtype=np.float16)), A(f32(0.3))), call=call)
        yield Sample(op, "float16-big-weight", (A(rnd(3, dtype=np.float16)),
                                                A(rnd(3, dtype=np.float16)), 1e10), call=call)
        yield Sample(op, "float32-big-weight", (A(rnd(3)), A(rnd(3)), 1e40), call=call)
        for fam, a in int_families():
            yield Sample(op, f"{fam}-scalar", (a, a, 0.5), call=call)
            yield Sample(op, f"{fam}-tensor", (a, a, a), call=call)
        yield Sample(op, "int-float-weight", (A(np.array([1, 2])), A(np.array([3, 4])),
                                              A(f32([0.5, 0.5]))), call=call)
        yield Sample(op, "int-big-weight", (A(np.array([1, 2])), A(np.array([3, 4])), 1e40),
                     call=call)
        yield Sample(op, "int-end-float", (A(np.array([1, 2])), A(f32([3, 4])), 0.5), call=call)
        # arguments of the wrong kind: PyTorch's argument parser
        for fam, end, w in (("end-number", 5.0, 0.5), ("weight-None", b, None),
                            ("weight-str", b, "a"), ("weight-list", b, [0.5])):
            yield Sample(op, fam, (A(rnd(3, 4)), end, w), call=call, msg=400)
        if not inplace:
            yield Sample(op, "node-scalar", (A(rnd(3)), A(rnd(3)), 0.3), call=_graph(
                lambda lib, *a: a[0].lerp(*a[1:]) if "method" in op else lib.lerp(*a)))
            yield Sample(op, "node-tensor", (A(rnd(3)), A(rnd(3)), A(rnd(3))), call=_graph(
                lambda lib, *a: a[0].lerp(*a[1:]) if "method" in op else lib.lerp(*a)))
            yield Sample(op, "keywords", (A(rnd(3)), A(rnd(3))), {"weight": 0.5})
    return gen


# --------------------------------------------------------------------------- flip
def _flip_method(lib, x, *dims, **kw):
    return x.flip(*dims, **kw)


def flip_samples(op):
    method = op == "method:flip"

    def gen():
        for fam, a in all_families():
            dims_list = ([0], [-1], [0, 1], []) if a.arr.ndim else ([0], [-1], [])
            for dims in dims_list:
                yield Sample(op, f"{fam}-dims{dims}", (a, dims),
                             gradgrad=fam == "ordinary" and dims == [0, 1])
        yield Sample(op, "ordinary", (A(rnd(3, 4)), (1,)), gradgrad=True)
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), (0, 2)))
        yield Sample(op, "3-d-permuted", (A(rnd(4, 3, 2).transpose(2, 1, 0)), [2, 1]))
        yield Sample(op, "duplicate", (A(rnd(3, 4)), [0, 0]))
        yield Sample(op, "duplicate-negative", (A(rnd(3, 4)), [1, -1]))
        yield Sample(op, "out-of-range", (A(rnd(3, 4)), [2]))
        yield Sample(op, "out-of-range-negative", (A(rnd(3, 4)), [-3]))
        yield Sample(op, "0-d-dim1", (A(f32(1.0)), [1]))
        yield Sample(op, "0-d-two", (A(f32(1.0)), [0, -1]))
        yield Sample(op, "float-element", (A(rnd(3, 4)), [1.0]))
        yield Sample(op, "str-element", (A(rnd(3, 4)), (0, "a")), msg=0)
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_graph(
            lambda lib, x: x.flip(0) if method else lib.flip(x, [0])))
        if method:
            for fam, dims in (("varargs", (0, 1)), ("one-int", (1,)), ("tuple", ((0, 1),)),
                              ("none", ()), ("float", (1.0,)), ("None", (None,))):
                yield Sample(op, f"method-{fam}", (A(rnd(3, 4)),) + dims, call=_flip_method)
            yield Sample(op, "method-keyword", (A(rnd(3, 4)),), {"dims": (0,)},
                         call=_flip_method)
        else:
            yield Sample(op, "int-dims", (A(rnd(3, 4)), 0))
            yield Sample(op, "None-dims", (A(rnd(3, 4)), None))
            yield Sample(op, "not-a-tensor", (1.0, [0]))
    return gen


# --------------------------------------------------------------------------- outer
def outer_samples(op):
    def gen():
        yield Sample(op, "ordinary", (A(rnd(3)), A(rnd(4))), gradgrad=True)
        yield Sample(op, "strided", (A(rnd(3), layout="step"), A(rnd(4))))
        yield Sample(op, "empty", (A(np.zeros(0, np.float32)), A(rnd(3))))
        yield Sample(op, "empty-both", (A(np.zeros(0, np.float32)), A(np.zeros(0, np.float32))))
        yield Sample(op, "inf-nan", (A(f32([INF, 0.0, NAN])), A(f32([0.0, -INF, 2.0]))))
        yield Sample(op, "float64", (A(rnd(3, dtype=np.float64)), A(rnd(2, dtype=np.float64))))
        yield Sample(op, "float16", (A(rnd(3, dtype=np.float16)), A(rnd(2, dtype=np.float16))))
        yield Sample(op, "f16-f64", (A(rnd(3, dtype=np.float16)), A(rnd(2, dtype=np.float64))))
        yield Sample(op, "int-float", (A(np.array([1, 2])), A(rnd(3))))
        yield Sample(op, "int", (A(np.array([1, -2, 3])), A(np.array([4, 5], np.int32))))
        yield Sample(op, "bool", (A(np.array([True, False])), A(np.array([True, True, False]))))
        yield Sample(op, "0-d", (A(f32(1.0)), A(rnd(3))))
        yield Sample(op, "2-d-vec2", (A(rnd(3)), A(rnd(2, 2))))
        yield Sample(op, "2-d-both", (A(rnd(2, 2)), A(rnd(2, 2))))
        yield Sample(op, "vec2-number", (A(rnd(3)), 2.0))
        if op == "fn:outer":
            yield Sample(op, "input-number", (2.0, A(rnd(3))))
        yield Sample(op, "node", (A(rnd(3)), A(rnd(2))), call=_graph(
            lambda lib, a, b: lib.outer(a, b) if op == "fn:outer" else a.outer(b)))
        yield Sample(op, "node-strided", (A(rnd(3), layout="step"), A(rnd(2))), call=_graph(
            lambda lib, a, b: lib.outer(a, b)))
    return gen


def add_samples(t: dict) -> None:
    for name in FLOAT_FUNCTIONS:
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = unary_samples(f"{style}:{name}", families_of(name))
        t[f"method:{name}_"] = unary_samples(f"method:{name}_", families_of(name))
        _OUT_ARGS[name] = lambda: ((A(rnd(3, low=0.1), grad=False),), (3,))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for name in TESTS:
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = unary_samples(
                f"{style}:{name}", lambda: (*all_families(), *edge_families()), grad=False)
    for op in ("fn:nan_to_num", "method:nan_to_num", "method:nan_to_num_"):
        t[op] = nan_to_num_samples(op)
    for op in ("fn:lerp", "method:lerp", "method:lerp_"):
        t[op] = lerp_samples(op)
    for op in ("fn:flip", "method:flip"):
        t[op] = flip_samples(op)
    _OUT_ARGS["outer"] = lambda: ((A(rnd(3), grad=False), A(rnd(4), grad=False)), (3, 4))
    for op in ("fn:outer", "method:outer"):
        t[op] = outer_samples(op)
    t["fn:outer"] = _chain(t["fn:outer"], out_samples("outer"))


def _chain(*gens):
    def gen():
        for g in gens:
            yield from g()
    return gen

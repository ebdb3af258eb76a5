"""OpInfo samples of ``roll``, ``movedim``/``moveaxis``, ``swapaxes``/``swapdims``, the stacks
(``hstack``, ``vstack``, ``row_stack``, ``dstack``, ``column_stack``), ``tensor_split``,
``tile``, ``repeat_interleave``, ``meshgrid``, ``diag``, ``diag_embed`` and ``Tensor.unfold``
(the functions and the Tensor methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``), plus
samples that compare the names of the nodes recorded in the graph and whether the result is a
view (``_base`` is set), as PyTorch's is.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import A, Sample, all_families, f32, meshgrid_samples, rnd


def _graph(fn):
    """``fn(lib, *args)``, with the names of its node and of the nodes feeding it, and whether
    the result is a view."""
    def call(lib, *args, **kw):
        out = fn(lib, *args, **kw)
        out = out[0] if isinstance(out, tuple) else out
        node = out.grad_fn
        return (out, node.name(), [n and n.name() for n, _ in node.next_functions],
                out._base is not None)
    return call


def _call(op):
    """Call ``op`` (``fn:name`` or ``method:name``) with ``lib`` and the arguments."""
    style, name = op.split(":")
    if style == "fn":
        return lambda lib, *a, **kw: getattr(lib, name)(*a, **kw)
    return lambda lib, x, *a, **kw: getattr(x, name)(*a, **kw)


def _is_fn(op) -> bool:
    return op.startswith("fn:")


# --------------------------------------------------------------------------- roll
def roll_samples(op):
    def gen():
        for fam, a in all_families():
            for args in ((1,), (1, 0), ((1, -2), (0, 1)), (-5, -1), (7,)):
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and args == ((1, -2), (0, 1)))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), (1, 2), (2, 0)))
        yield Sample(op, "same-dim-twice", (A(rnd(3, 4)), (1, 1), (0, 0)))
        yield Sample(op, "tensor-shift", (A(rnd(3, 4)), A(np.array(2))))
        yield Sample(op, "list", (A(rnd(3, 4)), [1], [1]))
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"shifts": 1, "dims": 1})
        for fam, args in (("mismatch", ((1, 2), 0)), ("no-dims-two-shifts", ((1, 2),)),
                          ("no-shifts", ((), ())), ("dim-out-of-range", (1, 2)),
                          ("float-shift", (1.0,)), ("0-d-dim-neg", (1, -1))):
            x = A(f32(1.0)) if fam.startswith("0-d") else A(rnd(3, 4))
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "node", (A(rnd(3, 4)), 1, 0), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- movedim, swapdims
def movedim_samples(op):
    def gen():
        for fam, a in all_families():
            cases = ((0, 0), (-1, 0)) if a.arr.ndim == 0 else (
                (0, 1), (1, 0), ((0, 1), (1, 0)), (-1, 0), ((), ()))
            for args in cases:
                yield Sample(op, f"{fam}-{args}", (a, *args), gradgrad=fam == "ordinary")
        x3 = A(rnd(2, 3, 4))
        for args in ((0, 2), ((0, 1), (2, 0)), ([2], [0]), ((0, -1), (-1, 0))):
            yield Sample(op, f"3-d-{args}", (x3, *args))
        for fam, args in (("count-mismatch", ((0, 1), (0,))), ("tuple-int", ((0, 1), 0)),
                          ("repeated-source", ((0, 0), (0, 1))),
                          ("repeated-destination", ((0, 1), (1, 1))),
                          ("out-of-range", (2, 0)), ("float", (0.0, 1))):
            yield Sample(op, fam, (A(rnd(3, 4)), *args))
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"source": 0, "destination": 1})
        yield Sample(op, "node", (A(rnd(3, 4)), 0, 1), call=_graph(_call(op)))
        yield Sample(op, "node-0-d", (A(f32(2.0)), 0, 0), call=_graph(_call(op)))
    return gen


def swapdims_samples(op):
    names = ("axis0", "axis1") if op.endswith("swapaxes") else ("dim0", "dim1")

    def gen():
        for fam, a in all_families():
            for args in ((0, -1),) if a.arr.ndim == 0 else ((0, 1), (1, 0), (-1, 0)):
                yield Sample(op, f"{fam}-{args}", (a, *args), gradgrad=fam == "ordinary")
        yield Sample(op, "keywords", (A(rnd(3, 4)),), dict(zip(names, (0, 1))))
        yield Sample(op, "out-of-range", (A(rnd(3, 4)), 0, 2))
        yield Sample(op, "node", (A(rnd(3, 4)), 0, 1), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- the stacks
def stack_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, ([a, a],), gradgrad=fam == "ordinary")
        yield Sample(op, "1-d", ([A(rnd(3)), A(rnd(3))],))
        yield Sample(op, "1-d-lengths", ([A(rnd(3)), A(rnd(2))],))
        yield Sample(op, "0-d", ([A(f32(1.0)), A(f32(2.0))],))
        yield Sample(op, "0-d-and-1-d", ([A(f32(1.0)), A(rnd(1))],))
        yield Sample(op, "1-d-and-2-d", ([A(rnd(4)), A(rnd(3, 4))],))
        yield Sample(op, "2-d-and-1-d-column", ([A(rnd(3, 2)), A(rnd(3))],))
        yield Sample(op, "3-d", ([A(rnd(2, 3, 4)), A(rnd(2, 3, 4))],))
        yield Sample(op, "3-d-4-d", ([A(rnd(2, 3, 4)), A(rnd(1, 2, 3, 4))],))
        yield Sample(op, "one", ([A(rnd(3, 4))],))
        yield Sample(op, "tuple", ((A(rnd(2, 2)), A(rnd(2, 2)), A(rnd(2, 2))),))
        yield Sample(op, "dtypes", ([A(rnd(3, 4)), A(np.ones((3, 4), np.int64))],))
        yield Sample(op, "int-bool", ([A(np.ones((2, 2), np.int32)),
                                       A(np.ones((2, 2), bool))],))
        yield Sample(op, "float16-float64", ([A(rnd(2, 2, dtype=np.float16)),
                                              A(rnd(2, 2, dtype=np.float64))],))
        yield Sample(op, "empty-rows", ([A(np.zeros((0, 4), np.float32)), A(rnd(2, 4))],))
        yield Sample(op, "noncontig", ([A(rnd(3, 4), layout="T"), A(rnd(3, 4), layout="step")],))
        yield Sample(op, "mismatch", ([A(rnd(3, 4)), A(rnd(2, 5))],))
        yield Sample(op, "empty-list", ([],))
        yield Sample(op, "a-tensor", (A(rnd(3, 4)),))
        yield Sample(op, "node-0-d", ([A(f32(1.0)), A(f32(2.0))],), call=_graph(_call(op)))
        yield Sample(op, "node-1-d", ([A(rnd(3)), A(rnd(3))],), call=_graph(_call(op)))
        yield Sample(op, "node-2-d", ([A(rnd(3, 2)), A(rnd(3, 2))],), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- tensor_split
def tensor_split_samples(op):
    def gen():
        for fam, a in all_families():
            for args in ((2,), (3, 1), ([1, 2],), ((1, -1), -1), (5,), ([],), ([2, 1, 9],)):
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and args == (3, 1))
        x = A(rnd(5, 4))
        yield Sample(op, "tensor-sections", (x, A(np.array(2))))
        yield Sample(op, "tensor-indices", (x, A(np.array([1, 3]))))
        yield Sample(op, "tensor-one-index", (x, A(np.array([2]))))
        yield Sample(op, "tensor-indices-dim", (x, A(np.array([1, -1])), 1))
        yield Sample(op, "negative-beyond", (x, [-9, 9]))
        yield Sample(op, "keyword-sections", (x,), {"sections": 3})
        yield Sample(op, "keyword-indices", (x,), {"indices": [1], "dim": 1})
        for fam, args in (("0-sections", (0,)), ("negative-sections", (-2,)),
                          ("float", (2.0,)), ("dim-out-of-range", (2, 2)),
                          ("tensor-float", (A(f32([1.0]), grad=False),)),
                          ("tensor-int32", (A(np.array([1], np.int32)),)),
                          ("tensor-2-d", (A(np.array([[1]])),))):
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "0-d", (A(f32(1.0)), 2))
        yield Sample(op, "node", (x, 2), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- tile
def tile_samples(op):
    def gen():
        for fam, a in all_families():
            for dims in ((2,), (2, 1, 1), (), [2, 3], (0, 1)):
                yield Sample(op, f"{fam}-{dims}", (a, dims),
                             gradgrad=fam == "ordinary" and dims == [2, 3])
        yield Sample(op, "negative", (A(rnd(3, 4)), (-1,)))
        if _is_fn(op):
            yield Sample(op, "int-dims", (A(rnd(3, 4)), 2))
        else:
            yield Sample(op, "varargs", (A(rnd(3, 4)), 2, 2))
            yield Sample(op, "one-int", (A(rnd(3, 4)), 2))
            yield Sample(op, "float", (A(rnd(3, 4)), 2.0))
            yield Sample(op, "none", (A(rnd(3, 4)),))
        yield Sample(op, "node", (A(rnd(3, 4)), (2, 1)), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- repeat_interleave
def repeat_interleave_samples(op):
    def gen():
        for fam, a in all_families():
            for args in ((2,), (2, 0), (3, -1), (0, 1), (1,), (A(np.array([1, 0, 2])), 0),
                         (A(np.array(2)),), (A(np.array([3])), 1)):
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and len(args) == 2)
        x = A(rnd(3, 4))
        yield Sample(op, "output-size", (x, 2, 0), {"output_size": 6})
        yield Sample(op, "output-size-wrong", (x, 2, 0), {"output_size": 5})
        yield Sample(op, "tensor-output-size", (x, A(np.array([1, 0, 2])), 0),
                     {"output_size": 3})
        yield Sample(op, "tensor-output-size-wrong", (x, A(np.array([1, 0, 2])), 0),
                     {"output_size": 4})
        yield Sample(op, "tensor-int32", (x, A(np.array([1, 0, 2], np.int32)), 0))
        for fam, args in (("negative", (-1,)), ("dim-out-of-range", (2, 2)), ("float", (2.0,)),
                          ("tensor-mismatch", (A(np.array([1, 2])), 0)),
                          ("tensor-negative", (A(np.array([1, -2, 0])), 0)),
                          ("tensor-2-d", (A(np.array([[1]])), 0)),
                          ("tensor-float", (A(f32([1.0, 2.0, 0.0]), grad=False), 0))):
            yield Sample(op, fam, (x, *args))
        if _is_fn(op):  # repeat_interleave(counts): the indices, each repeated
            for fam, counts in (("counts", np.array([1, 2, 0, 3])),
                                ("counts-int32", np.array([2, 1], np.int32)),
                                ("counts-empty", np.zeros(0, np.int64)),
                                ("counts-0-d", np.array(2)), ("counts-2-d", np.array([[1]])),
                                ("counts-negative", np.array([1, -1])),
                                ("counts-float", f32([1.0]))):
                yield Sample(op, fam, (A(counts, grad=False),))
            yield Sample(op, "counts-output-size", (A(np.array([1, 2])),), {"output_size": 3})
            yield Sample(op, "counts-output-size-wrong", (A(np.array([1, 2])),),
                         {"output_size": 4})
        yield Sample(op, "node-int", (x, 2), call=_graph(_call(op)))
        yield Sample(op, "node-int-dim", (x, 2, 1), call=_graph(_call(op)))
        yield Sample(op, "node-tensor", (x, A(np.array([1, 0, 2])), 0), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- diag, diag_embed
def diag_samples(op):
    def gen():
        for shape in ((3, 4), (4,)):
            for fam, a in all_families(shape):
                for k in (0, 1, -2, 5):
                    yield Sample(op, f"{fam}-{a.arr.ndim}-d-{k}", (a, k),
                                 gradgrad=fam == "ordinary" and k == 1)
        yield Sample(op, "default", (A(rnd(3)),))
        yield Sample(op, "keyword", (A(rnd(3, 3)),), {"diagonal": -1})
        yield Sample(op, "3-d", (A(rnd(2, 2, 2)), 0))
        yield Sample(op, "float-diagonal", (A(rnd(3, 3)), 1.0))
        yield Sample(op, "node-1-d", (A(rnd(3)), 1), call=_graph(_call(op)))
        yield Sample(op, "node-2-d", (A(rnd(3, 4)), 1), call=_graph(_call(op)))
    return gen


def diag_embed_samples(op):
    def gen():
        for fam, a in all_families():
            for args in ((), (1,), (-1, 0, 2), (2, -1, 0), (0, 1, -1)):
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and args == (-1, 0, 2))
        yield Sample(op, "1-d", (A(rnd(3)), -1))
        yield Sample(op, "keywords", (A(rnd(2, 3)),), {"offset": 1, "dim1": 0, "dim2": 2})
        yield Sample(op, "identical-dims", (A(rnd(3, 4)), 0, 1, 1))
        yield Sample(op, "identical-dims-negative", (A(rnd(3, 4)), 0, -1, 2))
        yield Sample(op, "out-of-range", (A(rnd(3, 4)), 0, 0, 3))
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- unfold
def unfold_samples(op):
    def gen():
        for fam, a in all_families():
            cases = ((0, 1, 1), (0, 0, 1), (-1, 1, 2)) if a.arr.ndim == 0 else (
                (1, 2, 1), (0, 2, 1), (-1, 3, 2), (1, 0, 1), (1, 4, 3), (0, 1, 5))
            for args in cases:
                yield Sample(op, f"{fam}-{args}", (a, *args),
                             gradgrad=fam == "ordinary" and args == (1, 2, 1))
        yield Sample(op, "3-d", (A(rnd(2, 5, 3)), 1, 3, 1), gradgrad=True)
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"dimension": 1, "size": 2, "step": 2})
        for fam, x, args in (("too-big", A(rnd(3, 4)), (1, 5, 1)),
                             ("step-0", A(rnd(3, 4)), (1, 2, 0)),
                             ("negative-size", A(rnd(3, 4)), (1, -1, 1)),
                             ("negative-size-step-0", A(rnd(3, 4)), (1, -1, 0)),
                             ("out-of-range", A(rnd(3, 4)), (2, 1, 1)),
                             ("0-d-too-big", A(f32(1.0)), (0, 2, 1)),
                             ("0-d-dim-1", A(f32(1.0)), (1, 1, 1)),
                             ("empty-window", A(np.zeros((0, 3), np.float32)), (0, 1, 1))):
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "node", (A(rnd(3, 4)), 1, 2, 1), call=_graph(_call(op)))
    return gen


def _gradcheck_named(gen):
    """The first ``ordinary-...`` sample that compares second derivatives is named
    ``ordinary``: ``test_opinfo.test_gradcheck`` checks that one with finite differences."""
    def named():
        found = False
        for s in gen():
            if not found and s.gradgrad and s.family.startswith("ordinary-"):
                found, s = True, Sample(s.op, "ordinary", s.args, s.kwargs, True, s.call, s.msg)
            yield s
    return named


def _put(t: dict, op: str, gen) -> None:
    """``t[op] = gen``, after the samples ``t`` already has for ``op`` (``method:swapaxes``)."""
    before = t.get(op)
    if before is None:
        t[op] = gen
        return

    def chained():
        yield from before()
        yield from gen()
    t[op] = chained


def add_samples(t: dict) -> None:
    for style in ("fn", "method"):
        t[f"{style}:roll"] = roll_samples(f"{style}:roll")
        for name in ("movedim", "moveaxis"):
            t[f"{style}:{name}"] = movedim_samples(f"{style}:{name}")
        for name in ("swapaxes", "swapdims"):
            _put(t, f"{style}:{name}", swapdims_samples(f"{style}:{name}"))
        for name in ("tensor_split", "tile", "repeat_interleave", "diag", "diag_embed"):
            gen = {"tensor_split": tensor_split_samples, "tile": tile_samples,
                   "repeat_interleave": repeat_interleave_samples, "diag": diag_samples,
                   "diag_embed": diag_embed_samples}[name]
            t[f"{style}:{name}"] = gen(f"{style}:{name}")
    for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack"):
        t[f"fn:{name}"] = stack_samples(f"fn:{name}")
    t["fn:meshgrid"] = meshgrid_samples("fn:meshgrid")
    t["method:unfold"] = unfold_samples("method:unfold")
    for op in KEYS:
        t[op] = _gradcheck_named(t[op])


KEYS = [f"{style}:{name}" for style in ("fn", "method")
        for name in ("roll", "movedim", "moveaxis", "swapaxes", "swapdims", "tensor_split", "tile",
                     "repeat_interleave", "diag", "diag_embed")] + [
    f"fn:{name}" for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack",
                              "meshgrid")] + ["method:unfold"]

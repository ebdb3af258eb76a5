"""OpInfo samples of ``broadcast_to``, ``broadcast_tensors``, ``atleast_1d``/``2d``/``3d``,
``ravel``, ``unflatten``, ``rot90``, ``fliplr``, ``flipud``, ``hsplit``/``vsplit``/``dsplit``,
``diff`` and ``msort`` (``minitorch/ops/rearrange.py``; the functions and the Tensor methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and the same comparison as every other op (see ``tests/_opinfo_samples.py``), plus
samples that compare the names of the recorded nodes and whether the result is a view, and the
``out=`` samples of ``diff`` and ``msort``.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import _OUT_ARGS, INF, NAN, A, Sample, all_families, f32, out_samples, rnd
from _opinfo_samples_pointwise import _chain
from _opinfo_samples_shape_extra import _call, _gradcheck_named, _graph, _is_fn


def _per_family(op, cases, gradgrad_case, shape=(3, 4)):
    """``op(a, *args)`` for every family ``a`` and every ``args`` in ``cases``; the ordinary
    family's ``gradgrad_case`` also compares second derivatives."""
    for fam, a in all_families(shape):
        for args in cases:
            yield Sample(op, f"{fam}-{args}", (a, *args),
                         gradgrad=fam == "ordinary" and args == gradgrad_case)


# --------------------------------------------------------------------------- broadcasting
def broadcast_to_samples(op):
    def gen():
        # (-1 in a new leading dimension of a 0-d tensor: PyTorch 2.13 overflows computing
        # the size, "numel: integer multiplication overflow"; minitorch's expand names the -1)
        for fam, a in all_families():
            for size in ((2, 3, 4), (3, 4)) + (() if fam == "0-d" else ([-1, 4], (1, 1, -1, 4))):
                yield Sample(op, f"{fam}-{size}", (a, size),
                             gradgrad=fam == "ordinary" and size == (2, 3, 4))
        yield Sample(op, "0-d", (A(f32(2.0)), (2, 3)), gradgrad=True)
        yield Sample(op, "column", (A(rnd(3, 1)), (2, 3, 5)), gradgrad=True)
        yield Sample(op, "to-empty", (A(rnd(3, 1)), (3, 0)))
        for fam, size in (("mismatch", (4, 4)), ("too-few", (4,)), ("int", 4),
                          ("leading-negative", (-1, 3, 4)), ("float", (3.0, 4))):
            yield Sample(op, fam, (A(rnd(3, 4)), size))
        yield Sample(op, "node", (A(rnd(3, 1)), (3, 4)), call=_graph(_call(op)))
        yield Sample(op, "node-same-shape", (A(rnd(3, 4)), (3, 4)), call=_graph(_call(op)))
    return gen


def broadcast_tensors_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, f"{fam}-with-column", (a, A(rnd(2, 1, 1))),
                         gradgrad=fam == "ordinary")
            yield Sample(op, f"{fam}-list", ([a, A(np.ones(4, np.int64))],))
        yield Sample(op, "three", (A(rnd(3, 1)), A(rnd(4)), A(f32(2.0))), gradgrad=True)
        yield Sample(op, "one", (A(rnd(3, 4)),))
        yield Sample(op, "none", ())
        yield Sample(op, "empty-list", ([],))
        yield Sample(op, "empty", (A(np.zeros((0, 1), np.float32)), A(rnd(3))))
        yield Sample(op, "mismatch", (A(rnd(3, 4)), A(rnd(5))))
        yield Sample(op, "mismatch-third", (A(rnd(3, 1)), A(rnd(4)), A(rnd(2, 3, 5))))
        yield Sample(op, "number", (A(rnd(3)), 1.0))
        yield Sample(op, "list-in-list", ([A(rnd(3)), [A(rnd(3))]],))
        yield Sample(op, "node", (A(rnd(3, 1)), A(rnd(4))), call=_graph(_call(op)))
        yield Sample(op, "same-shape-is-input", (A(rnd(3, 4)), A(rnd(4))), call=_same_object)
    return gen


def _same_object(lib, a, b):
    """Which results are the very tensors passed in (PyTorch returns those of the common
    shape as they are)."""
    out = lib.broadcast_tensors(a, b)
    return [o is x for o, x in zip(out, (a, b))]


def atleast_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        for fam, shape in (("1-d", (3,)), ("3-d", (2, 3, 4)), ("4-d", (1, 2, 1, 3))):
            yield Sample(op, fam, (A(rnd(*shape)),), gradgrad=True)
        several = (A(f32(1.0)), A(rnd(3)), A(rnd(2, 3)), A(rnd(2, 3, 1)))
        yield Sample(op, "several", several)
        yield Sample(op, "list", (list(several),))
        yield Sample(op, "tuple-of-one", ((A(rnd(3)),),))
        yield Sample(op, "none", ())
        yield Sample(op, "empty-list", ([],))
        yield Sample(op, "number", (1.0,))
        yield Sample(op, "list-of-number", ([1.0],))
        yield Sample(op, "number-second", (A(rnd(3)), 2))
        for fam, shape in (("node-0-d", ()), ("node-1-d", (3,)), ("node-2-d", (2, 3))):
            if len(shape) < int(op[-2]):
                yield Sample(op, fam, (A(rnd(*shape)),), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- ravel, unflatten
def ravel_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)),))
        for fam, layout in (("node", None), ("node-noncontig", "T"), ("node-strided", "step")):
            yield Sample(op, fam, (A(rnd(3, 4), layout=layout),), call=_graph(_call(op)))
        yield Sample(op, "node-of-clone", (A(rnd(3, 4), layout="T"),), call=_clone_node(op))
    return gen


def _clone_node(op):
    """The node that ``ravel`` of a non-contiguous tensor views: its contiguous copy's."""
    def call(lib, x):
        out = _call(op)(lib, x)
        return out._base.grad_fn.name(), out._base.shape
    return call


def unflatten_samples(op):
    def gen():
        yield from _per_family(op, ((1, (2, 2)), (-1, [2, -1]), (0, (3, 1)), (1, (4,)),
                                    (0, (1, -1, 1))), (1, (2, 2)))
        yield Sample(op, "noncontig-split", (A(rnd(3, 4), layout="T"), 1, (2, 2)), gradgrad=True)
        yield Sample(op, "empty-dim", (A(np.zeros((3, 0), np.float32)), 1, (5, 0)))
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"dim": 1, "sizes": (2, 2)})
        for fam, x, args in (("not-multiply", A(rnd(3, 4)), (1, (3, 2))),
                             ("not-divisible", A(rnd(3, 4)), (1, (-1, 3))),
                             ("zero-and-infer", A(rnd(3, 4)), (1, (0, -1))),
                             ("zero-and-infer-empty", A(np.zeros((3, 0), np.float32)),
                              (1, (0, -1))),
                             ("two-inferred", A(rnd(3, 4)), (1, (-1, -1))),
                             ("no-sizes", A(rnd(3, 4)), (1, ())),
                             ("out-of-range", A(rnd(3, 4)), (2, (2, 2))),
                             ("0-d", A(f32(1.0)), (0, (1,))),
                             ("int-sizes", A(rnd(3, 4)), (1, 2)),
                             ("float-size", A(rnd(3, 4)), (1, (2.0, 2)))):
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "node", (A(rnd(3, 4)), 1, (2, 2)), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- rot90, fliplr, flipud
def rot90_samples(op):
    def gen():
        yield from _per_family(op, ((), (1,), (2,), (3,), (-1,), (0,), (6,), (1, (1, 0)),
                                    (-3, [-1, 0])), (1,))
        for k in range(4):
            yield Sample(op, f"3-d-{k}", (A(rnd(2, 3, 4)), k, (2, 0)), gradgrad=True)
        yield Sample(op, "keywords", (A(rnd(3, 4)),), {"k": 3, "dims": (1, 0)})
        for fam, x, args in (("one-dim", A(rnd(3, 4)), (1, [0])),
                             ("three-dims", A(rnd(3, 4)), (1, [0, 1, 1])),
                             ("same-dims", A(rnd(3, 4)), (1, [0, 0])),
                             ("same-dims-negative", A(rnd(3, 4)), (1, [0, -2])),
                             ("same-dims-negative-2", A(rnd(3, 4)), (1, [1, -1])),
                             ("out-of-range", A(rnd(3, 4)), (1, [0, 2])),
                             ("out-of-range-3-d", A(rnd(2, 3, 4)), (1, [0, -4])),
                             ("1-d", A(rnd(3)), (1,)), ("0-d", A(f32(1.0)), (1,)),
                             ("float-k", A(rnd(3, 4)), (1.0,))):
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "node", (A(rnd(3, 4)), 1), call=_graph(_call(op)))
        for k in (0, 1, 2, 3):
            for layout in (None, "T"):
                yield Sample(op, f"strides-{k}-{layout}", (A(rnd(3, 4), layout=layout), k),
                             call=_strides(_call(op)))
    return gen


def _strides(fn):
    """The result and how it is laid out in memory (PyTorch's rot90 by an odd k is the
    transposed view of a flip)."""
    def call(lib, *args, **kw):
        out = fn(lib, *args, **kw)
        return out, out.stride(), out.is_contiguous()
    return call


def flip_lr_ud_samples(op):
    min_ndim = 2 if op.endswith("fliplr") else 1

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)),))
        yield Sample(op, "too-few-dims", (A(rnd(3)) if min_ndim == 2 else A(f32(1.0)),))
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- hsplit, vsplit, dsplit
def hvd_split_samples(op):
    name = op.split(":")[1]
    shape, cases = {"hsplit": ((3, 4), ((2,), ([1, 3],), ((1,),), (1,), ([],))),
                    "vsplit": ((3, 4), ((3,), ([1],), ((0, 5),), (1,))),
                    "dsplit": ((3, 4, 2), ((2,), ([1],), ((),)))}[name]

    def gen():
        yield from _per_family(op, cases, cases[0], shape)
        x = A(rnd(*shape))
        yield Sample(op, "not-divisible", (x, 3 if name != "vsplit" else 2))
        yield Sample(op, "zero-sections", (x, 0))
        yield Sample(op, "float-sections", (x, 2.0))
        yield Sample(op, "too-few-dims", (A(rnd(*shape[:-1])) if name != "hsplit"
                                          else A(f32(1.0)), 1))
        if name == "hsplit":
            yield Sample(op, "1-d", (A(rnd(6)), 3), gradgrad=True)
            yield Sample(op, "1-d-negative-sections", (A(rnd(6)), -2))
            yield Sample(op, "1-d-empty", (A(np.zeros(0, np.float32)), 2))
        yield Sample(op, "node", (x, cases[0][0]), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- diff, msort
def diff_samples(op):
    def gen():
        yield from _per_family(op, ((), (1,), (2, 0), (1, -1), (3, 1), (5,), (0,)), (2, 0))
        x = A(rnd(3, 4))
        yield Sample(op, "prepend", (x, 1, -1, A(rnd(3, 2))), gradgrad=True)
        yield Sample(op, "append", (x, 2, 0), {"append": A(rnd(1, 4))}, gradgrad=True)
        yield Sample(op, "both", (x,), {"prepend": A(rnd(3, 1)), "append": A(rnd(3, 3)),
                                        "n": 3}, gradgrad=True)
        yield Sample(op, "n-0-prepend", (x, 0, -1, A(rnd(3, 1))))
        yield Sample(op, "int-float-prepend", (A(np.array([1, 2])),),
                     {"prepend": A(f32([1.5]))})
        yield Sample(op, "float-int-prepend", (A(f32([1.0, 2.0])),),
                     {"prepend": A(np.array([1]))})
        yield Sample(op, "int32-bool-append", (A(np.array([1, 2], np.int32)),),
                     {"append": A(np.array([True]))})
        yield Sample(op, "bool-int-prepend", (A(np.array([True, False])),),
                     {"prepend": A(np.array([1]))})
        yield Sample(op, "bool-n-2", (A(np.array([True, False, False, True])), 2))
        yield Sample(op, "uint8-wraps", (A(np.array([1, 5, 2], np.uint8)),))
        yield Sample(op, "inf-nan", (A(f32([INF, INF, 1.0, NAN, -INF, 0.0])),))
        yield Sample(op, "empty-dim0", (A(np.zeros((3, 0), np.float32)), 1, 0))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), 2, 1), gradgrad=True)
        for fam, args, kw in (("0-d", (A(f32(1.0)),), {}), ("negative-n", (x, -1), {}),
                              ("float-n", (x, 1.0), {}), ("dim-out-of-range", (x, 1, 2), {}),
                              ("prepend-ndim", (x,), {"prepend": A(rnd(4))}),
                              ("prepend-shape", (x,), {"prepend": A(rnd(2, 1))}),
                              ("append-shape-dim0", (x, 1, 0), {"append": A(rnd(2, 1))}),
                              ("prepend-number", (A(np.array([1, 2])),), {"prepend": 1})):
            yield Sample(op, fam, args, kw)
        yield Sample(op, "node", (x,), call=_graph(_call(op)))
        yield Sample(op, "node-n-0", (x, 0), call=_graph(_call(op)))
        yield Sample(op, "node-prepend", (x, 1, -1, A(rnd(3, 1))), call=_graph(_call(op)))
        yield Sample(op, "node-bool", (A(np.array([True, False, True])),),
                     call=lambda lib, b: _call(op)(lib, b).grad_fn)
    return gen


def msort_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary")
        yield Sample(op, "nan-last", (A(f32([[NAN, 1.0], [-INF, NAN], [0.0, -0.0]])),))
        yield Sample(op, "ties", (A(f32([[2.0, 1.0], [2.0, 1.0], [1.0, 2.0]])),), gradgrad=True)
        yield Sample(op, "3-d", (A(rnd(3, 2, 2)),))
        if _is_fn(op):  # (Tensor.msort's wording: "takes no keyword arguments")
            yield Sample(op, "keyword-dim", (A(rnd(3, 4)),), {"dim": 0})
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_graph(_call(op)))
    return gen


# --------------------------------------------------------------------------- the table
_GENERATORS = {"broadcast_to": broadcast_to_samples, "ravel": ravel_samples,
               "unflatten": unflatten_samples, "rot90": rot90_samples,
               "fliplr": flip_lr_ud_samples, "flipud": flip_lr_ud_samples,
               "hsplit": hvd_split_samples, "vsplit": hvd_split_samples,
               "dsplit": hvd_split_samples, "diff": diff_samples, "msort": msort_samples}

KEYS = [f"{style}:{name}" for style in ("fn", "method") for name in _GENERATORS] + [
    "fn:broadcast_tensors", "fn:atleast_1d", "fn:atleast_2d", "fn:atleast_3d"]


def add_samples(t: dict) -> None:
    for style in ("fn", "method"):
        for name, gen in _GENERATORS.items():
            t[f"{style}:{name}"] = gen(f"{style}:{name}")
    t["fn:broadcast_tensors"] = broadcast_tensors_samples("fn:broadcast_tensors")
    for n in (1, 2, 3):
        t[f"fn:atleast_{n}d"] = atleast_samples(f"fn:atleast_{n}d")
    _OUT_ARGS["diff"] = lambda: ((A(rnd(3, 4), grad=False),), (3, 3))
    _OUT_ARGS["msort"] = lambda: ((A(rnd(3, 4), grad=False),), (3, 4))
    for name in ("diff", "msort"):
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for op in KEYS:
        t[op] = _gradcheck_named(t[op])

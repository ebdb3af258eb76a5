"""OpInfo samples of ``byte``, ``char``, ``short``, the dtype questions (``result_type``,
``can_cast``, ``is_floating_point``, ``is_complex``, ``is_nonzero``), ``fill_diagonal_``,
``index_put``/``index_put_`` and ``put``/``put_`` (the functions, ``torch.index_put_`` too,
the methods and the in-place methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`. The in-place samples run on a
clone of a leaf that requires grad, so that the gradient through the write is compared too;
``node`` samples compare the name of the recorded node. ``SKIP`` lists the new public names
compared elsewhere: ``apply_``/``map_`` take Python callables and the random fills are
compared bit for bit in ``tests/test_testing_api_parity.py``.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import NAN, A, Sample, all_families, f32, float_families, int_families, rnd

SKIP = {"method:apply_", "method:map_", "method:cauchy_", "method:log_normal_",
        "method:geometric_"}

_DTYPES = ("float16", "float32", "float64", "uint8", "int8", "int16", "int32", "int64", "bool")


def _on_clone(name):
    """``x.clone().name(...)``: an in-place method on a non-leaf, so gradients flow."""
    def call(lib, x, *args, **kw):
        return getattr(x.clone(), name)(*args, **kw)
    return call


def _node(fn):
    def call(lib, *args, **kw):
        out = fn(lib, *args, **kw)
        return out, out.grad_fn.name()
    return call


# ------------------------------------------------------------------ byte, char, short
def conversion_samples(op):
    def gen():
        for fam, a in all_families():
            if fam not in ("inf", "nan"):  # inf and NaN have no integer: C leaves it undefined
                yield Sample(op, fam, (a,))
        yield Sample(op, "wrapping", (A(np.array([-300, -129, -1, 0, 127, 128, 255, 256,
                                                  70000])),))
        yield Sample(op, "in-range-floats", (A(f32([-1.9, -0.5, 0.5, 1.9, 100.7])),))
    return gen


# ------------------------------------------------------------------ dtype questions
def predicate_samples(op):
    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,))
        if op.startswith("fn:"):
            yield Sample(op, "not-a-tensor", (1.5,))
    return gen


def is_nonzero_samples(op):
    def gen():
        cases = {"one": f32([2.0]), "zero": f32([0.0]), "minus-zero": f32([-0.0]),
                 "nan": f32([NAN]), "0-d": f32(0.0), "empty": f32([]), "two": f32([1.0, 0.0]),
                 "int": np.array([[3]]), "int-zero": np.array(0), "bool": np.array([True]),
                 "bool-false": np.array(False), "float16": np.array([0.5], np.float16)}
        for fam, arr in cases.items():
            yield Sample(op, fam, (A(arr, grad=False),))
        if op.startswith("fn:"):
            yield Sample(op, "not-a-tensor", (1,))
    return gen


def result_type_samples(op):
    def gen():
        operands = {"f32": A(rnd(2), grad=False), "f16": A(rnd(2, dtype=np.float16), grad=False),
                    "f64-0d": A(np.float64(1.5), grad=False),
                    "i32": A(np.array([1, 2], np.int32)), "u8-0d": A(np.uint8(3)),
                    "i8": A(np.array([1], np.int8)), "b": A(np.array([True])),
                    "b-0d": A(np.bool_(True)), "int": 3, "float": 2.5, "bool": False}
        for na, a in operands.items():
            for nb, b in operands.items():
                yield Sample(op, f"{na}-{nb}", (a, b))
    return gen


def can_cast_samples(op):
    def gen():
        for a in _DTYPES:
            for b in _DTYPES:
                yield Sample(op, f"{a}-{b}", (a, b))
        yield Sample(op, "not-a-dtype", (1, "float32"))
    return gen


# ------------------------------------------------------------------ fill_diagonal_
def fill_diagonal_samples(op):
    call = _on_clone("fill_diagonal_")

    def gen():
        for fam, a in (*float_families((4, 4)), *int_families((4, 4))):
            if a.arr.ndim == 2:
                yield Sample(op, fam, (a, 2), call=call)
        for shape in ((3, 5), (5, 3), (7, 3), (8, 3), (2, 2, 2), (3, 3, 3), (1, 1)):
            name = "x".join(map(str, shape))
            yield Sample(op, name, (A(rnd(*shape)), -1.5), call=call)
            yield Sample(op, f"{name}-wrap", (A(rnd(*shape)), 7.0), {"wrap": True}, call=call)
        for shape in ((7, 3), (3, 5)):  # the diagonal of a transposed tensor, wrapped too
            yield Sample(op, f"transposed-{shape}", (A(rnd(*shape), layout="T"), 3.0),
                         {"wrap": True}, call=call)
        yield Sample(op, "int-float-value", (A(np.zeros((3, 3), np.int64)), 1.5), call=call)
        yield Sample(op, "bool-value", (A(np.zeros((2, 2), np.bool_)), True), call=call)
        yield Sample(op, "nan-value", (A(rnd(3, 3)), NAN), call=call)
        yield Sample(op, "node", (A(rnd(3, 3)), 0.0), call=_node(call))
        yield Sample(op, "1-d", (A(rnd(3)), 1.0), call=call)
        yield Sample(op, "not-a-cube", (A(rnd(2, 2, 3)), 1.0), call=call)
        yield Sample(op, "leaf", (A(rnd(2, 2)), 1.0),
                     call=lambda lib, x, v: x.fill_diagonal_(v))
    return gen


# ------------------------------------------------------------------ index_put, index_put_
def index_put_samples(op):
    style, name = op.split(":")
    call = None
    if name.endswith("_"):  # on a clone of the leaf, so that gradients flow
        call = (lambda lib, x, *a, **k: lib.index_put_(x.clone(), *a, **k)) if style == "fn" \
            else _on_clone(name)
    rows = A(np.array([0, 2, 0]))  # a repeat: the last write wins, or both add up
    cols = A(np.array([1, 1, 3]))
    distinct = A(np.array([2, 0]))  # for gradcheck: a repeated write has no derivative
    mask = A(np.array([True, False, True]))

    def gen():
        for acc in (False, True):
            kw = {"accumulate": acc}
            tag = "-acc" if acc else ""
            for fam, x in float_families((3, 4)):
                if x.arr.ndim == 2 and fam not in ("0-d",):
                    v = A(rnd(4, dtype=x.arr.dtype))
                    index = distinct if fam == "ordinary" else rows
                    yield Sample(op, fam + tag, (x, (index,), v), kw, gradgrad=fam == "ordinary",
                                 call=call)
            yield Sample(op, "two-indices" + tag, (A(rnd(3, 4)), (rows, cols), A(rnd(3))), kw,
                         call=call)
            yield Sample(op, "scalar-value" + tag, (A(rnd(3, 4)), (rows,), A(f32(2.5))), kw,
                         call=call)
            yield Sample(op, "mask" + tag, (A(rnd(3, 4)), (mask,), A(rnd(4))), kw, call=call)
            yield Sample(op, "int" + tag, (A(np.arange(12).reshape(3, 4)), (rows, cols),
                                           A(np.array([5, 6, 7]))), kw, call=call)
            yield Sample(op, "int32-index" + tag, (A(rnd(3, 4)), (A(np.array([1], np.int32)),),
                                                   A(rnd(4))), kw, call=call)
            yield Sample(op, "out-of-bounds" + tag, (A(rnd(3, 4)), (A(np.array([5])),),
                                                     A(rnd(4))), kw, call=call)
            yield Sample(op, "shape-mismatch" + tag, (A(rnd(3, 4)), (rows,), A(rnd(2))), kw,
                         call=call)
            yield Sample(op, "node" + tag, (A(rnd(3, 4)), (rows,), A(rnd(4))), kw,
                         call=_node(call or (lambda lib, x, *a, **k: (
                             lib.index_put(x, *a, **k) if style == "fn"
                             else x.index_put(*a, **k)))))
        yield Sample(op, "list-indices", (A(rnd(3, 4)), [rows], A(rnd(4))), call=call)
        yield Sample(op, "tensor-indices", (A(rnd(3, 4)), rows, A(rnd(4))), call=call)
        yield Sample(op, "too-many", (A(rnd(3)), (rows, rows), A(f32(1.0))), call=call)
        yield Sample(op, "float-index", (A(rnd(3)), (A(f32([0.0])),), A(f32(1.0))), call=call)
        yield Sample(op, "dtype-mismatch", (A(rnd(3)), (rows,), A(np.array(1))), call=call)
        yield Sample(op, "number-value", (A(rnd(3)), (rows,), 1.0), call=call)
    return gen


# ------------------------------------------------------------------ put, put_
def put_samples(op):
    style, name = op.split(":")
    call = _on_clone(name) if name.endswith("_") else None
    index = A(np.array([0, -1, 2]))

    def gen():
        for acc in (False, True):
            kw = {"accumulate": acc}
            tag = "-acc" if acc else ""
            for fam, x in all_families((2, 3)):
                if x.arr.ndim == 2:
                    v = A(rnd(3).astype(x.arr.dtype))
                    yield Sample(op, fam + tag, (x, index, v), kw, gradgrad=fam == "ordinary",
                                 call=call)
            yield Sample(op, "repeats" + tag, (A(rnd(2, 3)), A(np.array([[1, 1], [-5, 4]])),
                                               A(rnd(2, 2))), kw, call=call)
            yield Sample(op, "node" + tag, (A(rnd(4)), A(np.array([0])), A(rnd(1))), kw,
                         call=_node(call or (lambda lib, x, *a, **k: (
                             lib.put(x, *a, **k) if style == "fn" else x.put(*a, **k)))))
        yield Sample(op, "out-of-range", (A(rnd(4)), A(np.array([4])), A(rnd(1))), call=call)
        yield Sample(op, "float-index", (A(rnd(4)), A(f32([0.0])), A(rnd(1))), call=call)
        yield Sample(op, "int32-index", (A(rnd(4)), A(np.array([0], np.int32)), A(rnd(1))),
                     call=call)
        yield Sample(op, "dtype-mismatch", (A(rnd(4)), A(np.array([0])), A(np.array([1]))),
                     call=call)
        yield Sample(op, "numel-mismatch", (A(rnd(4)), A(np.array([0, 1])), A(rnd(1))),
                     call=call)
        yield Sample(op, "empty-self", (A(np.zeros(0, np.float32)), A(np.array([0])),
                                        A(rnd(1))), call=call)
        yield Sample(op, "empty", (A(np.zeros(0, np.float32)), A(np.zeros(0, np.int64)),
                                   A(np.zeros(0, np.float32))), call=call)
        yield Sample(op, "number-source", (A(rnd(4)), A(np.array([0])), 1.0), call=call)
        yield Sample(op, "list-index", (A(rnd(4)), [0], A(rnd(1))), call=call)
    return gen


def add_samples(t: dict) -> None:
    for style in ("fn", "method"):
        t[f"{style}:is_complex"] = predicate_samples(f"{style}:is_complex")
        t[f"{style}:is_nonzero"] = is_nonzero_samples(f"{style}:is_nonzero")
    t["fn:is_floating_point"] = predicate_samples("fn:is_floating_point")
    for name in ("byte", "char", "short"):
        t[f"method:{name}"] = conversion_samples(f"method:{name}")
    t["fn:result_type"] = result_type_samples("fn:result_type")
    t["fn:can_cast"] = can_cast_samples("fn:can_cast")
    t["method:fill_diagonal_"] = fill_diagonal_samples("method:fill_diagonal_")
    for op in ("fn:index_put", "fn:index_put_", "method:index_put", "method:index_put_"):
        t[op] = index_put_samples(op)
    for op in ("fn:put", "method:put", "method:put_"):
        t[op] = put_samples(op)

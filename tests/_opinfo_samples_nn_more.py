"""OpInfo samples of ``F.relu_``, ``F.leaky_relu_``, ``F.threshold``, ``F.threshold_``,
``F.hardshrink``, ``F.softshrink``, ``F.softmin``, ``F.glu``, ``F.prelu``,
``F.pixel_shuffle``, ``F.pixel_unshuffle``, ``F.dropout1d``/``2d``/``3d``, ``F.alpha_dropout``
and ``F.feature_alpha_dropout`` (their masks bit for bit: each call seeds both libraries),
``F.max_pool1d``, ``F.avg_pool1d`` and ``F.max_pool1d/2d_with_indices``.

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``): every family,
the points where each function switches (ties), an infinite upstream gradient there (a select
gives 0, a product NaN), second derivatives, the in-place forms on a non-leaf and on a leaf,
the errors, and the names of the nodes recorded.
"""

from __future__ import annotations

import _opinfo_samples
import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, activation_samples, all_families, f32, rnd


def _names(out) -> list:
    """The names of ``out``'s node and of the nodes feeding it."""
    node = out.grad_fn
    return [node.name()] + [n and n.name() for n, _ in node.next_functions]


def _fn(name, inplace=False, graph=False):
    """``F.<name>(x, ...)``: on a non-leaf copy for an in-place form (with whether the result
    is that copy), and with the node names when ``graph``."""
    def call(lib, x, *args, **kw):
        if inplace:
            x = x * 1.0 if x.requires_grad else x.clone()
        out = getattr(lib.nn.functional, name)(x, *args, **kw)
        if graph:
            return out, _names(out)
        return (out, out is x) if inplace else out
    return call


def _second_order_names(name):
    """The node names of the gradient in ``x`` of ``F.<name>(x, *args)``, taken with
    ``create_graph=True``."""
    def call(lib, x, *args):
        out = getattr(lib.nn.functional, name)(x, *args)
        (g,) = lib.autograd.grad(out.sum(), x, create_graph=True)
        return g, _names(g)
    return call


# ------------------------------------------------------------------ threshold
_THRESHOLD_KINKS = f32([-1.0, 0.5, 0.4999, 0.5001, -0.0, 0.0, 2.0, NAN, INF, -INF])
# (family, threshold, value, input): the numbers as each dtype takes them
_THRESHOLD_CASES = [
    ("zero-zero", 0.0, 0.0, f32([-1.0, -0.0, 0.0, 1.0])),  # relu
    ("value-above", 0.5, 3.0, f32([0.0, 0.5, 1.0, 4.0])),
    ("nan-value", 0.5, NAN, f32([0.0, 1.0, -0.0])),
    ("nan-threshold", NAN, 2.0, f32([0.0, 1.0, NAN])),
    ("inf-threshold", INF, 2.0, f32([0.0, 1.0, INF])),
    ("int-float-args", 1.5, 7.9, np.array([1, 2, 3])),
    ("int-negative-float", -1.5, -7.9, np.array([-2, -1, 3])),
    ("int32", 2, 7, np.array([1, 2, 3], np.int32)),
    ("uint8-wrap", 1, -1, np.array([1, 2, 3], np.uint8)),
    ("uint8-overflow", 1, 300, np.array([1, 2, 3], np.uint8)),
    ("uint8-negative-float", 1, -2.7, np.array([1, 2, 3], np.uint8)),
    ("int32-overflow", 1, 1e10, np.array([1, 2, 3], np.int32)),
    ("float-overflow", 1e40, 0.0, f32([1.0])),
    ("value-overflow", 0.0, 1e40, f32([1.0])),
    ("float16-rounds", 1.5, 7.9, np.array([1.0, 1.5, 2.0], np.float16)),
    ("float16-overflow", 0.0, 1e10, np.array([1.0], np.float16)),
    ("float64", 0.1, 0.2, np.array([0.1, 0.2, 0.0], np.float64)),
    ("int-values-float", 0, 2, f32([-1.0, 1.0])),
    ("bool-args", True, False, f32([0.0, 1.0, 2.0])),
]


def threshold_samples(op):
    name = op.split(":")[1]
    inplace = name.endswith("_")
    call = _fn(name, inplace)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a, 0.25, -2.0), gradgrad=fam in ("ordinary", "float64"),
                         call=call)
        for dt in (np.float32, np.float64, np.float16):
            yield Sample(op, f"kinks-{np.dtype(dt).name}", (A(_THRESHOLD_KINKS.astype(dt)),
                                                            0.5, -3.0), gradgrad=True, call=call)
        for fam, t, v, arr in _THRESHOLD_CASES:
            yield Sample(op, fam, (A(arr), t, v), gradgrad=arr.dtype.kind == "f", call=call)
        yield Sample(op, "kinks-upinf", (A(_THRESHOLD_KINKS), 0.5, -3.0),
                     call=lambda lib, *a: call(lib, *a)[0] * lib.tensor(INF) if inplace
                     else call(lib, *a) * lib.tensor(INF))
        yield Sample(op, "node", (A(rnd(3, 4)), 0.0, 1.0), call=_fn(name, inplace, graph=True))
        yield Sample(op, "not-a-tensor", (1.5, 0.0, 1.0))
        yield Sample(op, "missing-value", (A(rnd(3)), 0.0))
        if inplace:
            yield Sample(op, "leaf", (A(rnd(3, 4)), 0.0, 1.0))
            yield Sample(op, "no-grad", (A(rnd(3, 4), grad=False), 0.0, 1.0))
        else:
            yield Sample(op, "second-order-nodes", (A(rnd(4)), 0.0, 1.0),
                         call=_second_order_names("threshold"))
            yield Sample(op, "inplace-kw", (A(_THRESHOLD_KINKS), 0.5, -3.0), {"inplace": True},
                         call=_fn(name, True))
            # the in-place gradient is taken from the input as it was, not from the result
            # (where a replaced element lands above the threshold)
            yield Sample(op, "inplace-value-above", (A(f32([0.0, 0.5, 1.0])), 0.5, 2.0),
                         {"inplace": True}, call=_fn(name, True))
            yield Sample(op, "inplace-leaf", (A(rnd(3)), 0.0, 1.0), {"inplace": True})
    return gen


# ------------------------------------------------------------------ hardshrink, softshrink
_SHRINK_KINKS = {
    "hardshrink": ([-1.0, -0.5, 0.5, -0.3, 0.3, -0.0, 0.0, 0.49999, -0.50001, 2.0], [
        ("lambd0", {"lambd": 0.0}, [-1.0, -0.0, 0.0, 1.0]),
        ("lambd-negative", {"lambd": -0.5}, [-1.0, -0.5, 0.0, 0.5, 1.0]),
        ("lambd-big", {"lambd": 1e30}, [-1.0, 1e31, -1e31]),
        ("lambd-overflow", {"lambd": 1e40}, [1.0]),
        ("lambd-int", {"lambd": 1}, [-1.0, 0.0, 1.0, 2.0])]),
    "softshrink": ([-1.0, -0.5, 0.5, -0.3, 0.3, -0.0, 0.0, 0.49999, -0.50001, 2.0], [
        ("lambd0", {"lambd": 0.0}, [-1.0, -0.0, 0.0, 1.0]),
        ("lambd-negative", {"lambd": -0.5}, [-1.0, 0.0, 1.0]),
        ("lambd-inf", {"lambd": INF}, [-1.0, 0.0, 1.0]),
        ("lambd-overflow", {"lambd": 1e40}, [1.0]),
        ("lambd-nan", {"lambd": NAN}, [-1.0, 0.0, 1.0]),
        ("lambd-int", {"lambd": 1}, [-1.0, 0.0, 1.0, 2.0]),
        ("lambd-big", {"lambd": 1e30}, [-1.0, 1e31, -1e31])]),
}


def shrink_samples(op):
    """The activation samples of the table (``_opinfo_samples.activation_samples``), with the
    kinks of each shrink, and the errors and nodes of its own."""
    name = op.split(":")[1]

    def gen():
        yield from activation_samples(op)()
        yield Sample(op, "float16-lambd-overflow", (A(np.ones(2, np.float16)),), {"lambd": 1e5})
        yield Sample(op, "float64-lambd-negative", (A(rnd(2, dtype=np.float64)), -1.0))
        yield Sample(op, "positional", (A(rnd(3, 4)), 0.1), gradgrad=True)
        # a NaN lambd: PyTorch's vectorised loop and its loop for the tail of an array disagree
        # on the gradient, so only a short input (the tail loop alone) is compared
        yield Sample(op, "lambd-nan", (A(f32([-1.0, 0.0, 1.0])),), {"lambd": NAN})
        yield Sample(op, "not-a-tensor", (1.5,))
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_fn(name, graph=True))
        yield Sample(op, "second-order-nodes", (A(rnd(4)),), call=_second_order_names(name))
    return gen


# ------------------------------------------------------------------ softmin
def softmin_samples(op):
    def gen():
        yield from _opinfo_samples.softmax_samples(op)()
        yield Sample(op, "implicit-dim", (A(rnd(3, 4)),))
        yield Sample(op, "implicit-dim-3d", (A(rnd(2, 3, 4)),))
        yield Sample(op, "bool", (A(np.array([True, False])), 0))
        yield Sample(op, "dtype-int", (A(np.array([1, 2])), 0), {"dtype": "float32"})
        yield Sample(op, "neg-inf", (A(f32([INF, INF, 1.0])), 0))
        yield Sample(op, "node", (A(rnd(3, 4)), 1), call=_fn("softmin", graph=True))
    return gen


# ------------------------------------------------------------------ GLU
def glu_samples(op):
    def gen():
        for fam, a in all_families((3, 4)):
            yield Sample(op, fam, (a,), gradgrad=fam in ("ordinary", "float64"))
        yield Sample(op, "dim0", (A(rnd(4, 3)), 0), gradgrad=True)
        yield Sample(op, "dim1-3d", (A(rnd(2, 6, 3)), 1), gradgrad=True)
        yield Sample(op, "dim-negative", (A(rnd(2, 4, 3, dtype=np.float64)), -2), gradgrad=True)
        yield Sample(op, "odd", (A(rnd(3, 5)),))
        yield Sample(op, "odd-int", (A(np.arange(3)),))
        yield Sample(op, "bad-dim", (A(rnd(3, 4)), 2))
        yield Sample(op, "scalar", (A(f32(1.0)),))
        yield Sample(op, "specials", (A(f32([[1.0, INF, -INF, NAN, 0.0, -0.0],
                                             [100.0, -100.0, 0.0, 1.0, INF, -INF]])),),
                     gradgrad=True)
        yield Sample(op, "upinf", (A(rnd(2, 4)),),
                     call=lambda lib, x: lib.nn.functional.glu(x) * lib.tensor(INF))
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_fn("glu", graph=True))
        yield Sample(op, "second-order-nodes", (A(rnd(4)),), call=_second_order_names("glu"))
    return gen


# ------------------------------------------------------------------ PReLU
def prelu_samples(op):
    def gen():
        w1 = A(f32([0.25]))
        for fam, a in all_families((3, 4)):
            yield Sample(op, fam, (a, w1), gradgrad=fam in ("ordinary",))
            if a.arr.ndim == 2:
                w = A(rnd(4, dtype=a.arr.dtype)) if a.arr.dtype.kind == "f" else A(rnd(4))
                yield Sample(op, fam + "-channels", (a, w), gradgrad=fam in ("ordinary",
                                                                             "float64"))
        yield Sample(op, "4-d-channels", (A(rnd(2, 3, 2, 2)), A(rnd(3))), gradgrad=True)
        yield Sample(op, "4-d-one", (A(rnd(2, 3, 2, 2)), A(rnd(1))), gradgrad=True)
        yield Sample(op, "kinks", (A(f32([[-1.0, 0.0, -0.0, 1.0], [NAN, INF, -INF, 2.0]])),
                                   A(f32([0.5, -0.5, 2.0, 0.0]))), gradgrad=True)
        yield Sample(op, "kinks-float64", (A(np.array([[-1.0, 0.0], [-0.0, 1.0]])),
                                           A(np.array([0.5, -0.5]))), gradgrad=True)
        yield Sample(op, "0-d-weight", (A(rnd(2, 3)), A(f32(0.25))), gradgrad=True)
        yield Sample(op, "1-d", (A(rnd(5)), w1), gradgrad=True)
        yield Sample(op, "0-d-input", (A(f32(-2.0)), w1))
        yield Sample(op, "0-d-input-channels", (A(f32(-2.0)), A(rnd(3))))
        yield Sample(op, "1-d-channels", (A(rnd(2)), A(rnd(2))))
        yield Sample(op, "mismatch", (A(rnd(2, 3)), A(rnd(4))))
        yield Sample(op, "2-d-weight", (A(rnd(2, 3)), A(rnd(1, 3))))
        yield Sample(op, "dtypes", (A(rnd(2, 3)), A(np.array([0.25]))))
        yield Sample(op, "int", (A(np.array([[-1, 2]])), A(np.array([1]))))
        yield Sample(op, "weight-only", (A(rnd(2, 3), grad=False), A(rnd(3))), gradgrad=True)
        yield Sample(op, "input-only", (A(rnd(2, 3)), A(rnd(3), grad=False)), gradgrad=True)
        yield Sample(op, "upinf", (A(f32([[-1.0, 0.0, 1.0]])), A(rnd(3))),
                     call=lambda lib, x, w: lib.nn.functional.prelu(x, w) * lib.tensor(INF))
        yield Sample(op, "node", (A(rnd(2, 3)), A(rnd(3))), call=_fn("prelu", graph=True))
        yield Sample(op, "node-1-d", (A(rnd(3)), A(rnd(1))), call=_fn("prelu", graph=True))
        yield Sample(op, "second-order-nodes", (A(rnd(2, 3)), A(rnd(3), grad=False)),
                     call=_second_order_names("prelu"))
        yield Sample(op, "not-a-tensor", (1.5, w1))
    return gen


# ------------------------------------------------------------------ relu_, leaky_relu_
def inplace_relu_samples(op):
    name = op.split(":")[1]
    call = _fn(name, inplace=True)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), gradgrad=fam in ("ordinary", "float64"), call=call)
        kinks = A(f32([-1.0, -0.0, 0.0, 1.0, NAN, INF, -INF]))
        yield Sample(op, "kinks", (kinks,), gradgrad=True, call=call)
        yield Sample(op, "leaf", (A(rnd(3)),))
        yield Sample(op, "no-grad", (A(rnd(3), grad=False),))
        yield Sample(op, "node", (A(rnd(3, 4)),), call=_fn(name, True, graph=True))
        if name == "leaky_relu_":
            for slope in (0.0, 0.2, 1.5):
                yield Sample(op, f"slope{slope}", (kinks, slope), gradgrad=True, call=call)
            # the gradient of the in-place form is taken from the result: PyTorch refuses it
            # for a negative slope, out-of-place takes any
            yield Sample(op, "slope-negative", (kinks, -0.5), call=call)
            yield Sample(op, "inplace-kw-slope-negative", (kinks, -0.5),
                         {"inplace": True}, call=_fn("leaky_relu", True))
    return gen


# ------------------------------------------------------------------ pixel shuffle
def pixel_samples(op):
    name = op.split(":")[1]
    shuffle = name == "pixel_shuffle"
    shape = (2, 8, 2, 3) if shuffle else (2, 2, 4, 6)

    def gen():
        # an empty input is compared without its gradient: PyTorch's backward fails there
        # (pixel_shuffle's hands back a gradient of the wrong shape, pixel_unshuffle's
        # rejects its own result), a bug of PyTorch's; minitorch gives the empty gradient
        for fam, a in all_families(shape):
            if fam == "empty":
                a = A(a.arr, grad=False)
            yield Sample(op, fam, (a, 2), gradgrad=fam in ("ordinary", "float64"))
        yield Sample(op, "factor1", (A(rnd(*shape)), 1))
        yield Sample(op, "3-d", (A(rnd(*shape[1:])), 2), gradgrad=True)
        yield Sample(op, "5-d", (A(rnd(2, *shape)), 2))
        yield Sample(op, "empty-batch", (A(np.zeros((0, *shape[1:]), np.float32), grad=False),
                                         2))
        yield Sample(op, "factor0", (A(rnd(*shape)), 0))
        yield Sample(op, "factor-negative", (A(rnd(*shape)), -2))
        yield Sample(op, "factor-float", (A(rnd(*shape)), 2.0))
        yield Sample(op, "2-d", (A(rnd(4, 4)), 2))
        yield Sample(op, "not-divisible", (A(rnd(*shape)), 3))
        if not shuffle:
            yield Sample(op, "width-not-divisible", (A(rnd(1, 2, 4, 3)), 2))
        yield Sample(op, "node", (A(rnd(*shape)), 2), call=_fn(name, graph=True))
        yield Sample(op, "not-a-tensor", (1.5, 2))
    return gen


# ------------------------------------------------------------------ channel and alpha dropout
# Random masks are compared bit for bit: each call seeds both libraries the same way first.
_DROPOUT_SHAPES = {"dropout1d": (2, 3, 4), "dropout2d": (2, 3, 2, 2),
                   "dropout3d": (2, 2, 2, 2, 2), "alpha_dropout": (3, 4),
                   "feature_alpha_dropout": (2, 3, 2, 2)}


def _seeded_call(name, inplace=False):
    def call(lib, x, *args, **kw):
        lib.manual_seed(7)
        if inplace:
            x = x * 1.0 if x.requires_grad else x.clone()
        out = getattr(lib.nn.functional, name)(x, *args, **kw)
        after = lib.rand(2).tolist()  # the same numbers drawn: the same state after
        return (out, out is x, after) if inplace else (out, after)
    return call


def dropout_nd_samples(op):
    name = op.split(":")[1]
    shape = _DROPOUT_SHAPES[name]
    call = _seeded_call(name)

    def gen():
        for fam, a in all_families(shape):
            yield Sample(op, fam, (a, 0.5, True), gradgrad=fam in ("ordinary", "float64"),
                         call=call)
        x = A(rnd(*shape))
        for p in (0.1, 0.7, 0.0, 1.0):
            yield Sample(op, f"p{p}", (x, p, True), call=call)
            yield Sample(op, f"p{p}-float16", (A(rnd(*shape, dtype=np.float16)), p, True),
                         call=call)
        yield Sample(op, "eval", (x, 0.5, False), call=lambda lib, x, *a: (
            getattr(lib.nn.functional, name)(x, *a) is x))
        yield Sample(op, "default-training", (x,), call=call)
        yield Sample(op, "bad-p", (x, 1.5, True), call=call)
        yield Sample(op, "negative-p", (x, -0.1, True), call=call)
        yield Sample(op, "inplace", (x, 0.5, True, True), call=_seeded_call(name, True))
        yield Sample(op, "inplace-p1", (x, 1.0, True, True), call=_seeded_call(name, True))
        yield Sample(op, "inplace-leaf", (x, 0.5, True, True), call=call)
        for k in range(1, 6):  # inputs of every rank: errors, warnings, batch dims added
            yield Sample(op, f"{k}-d", (A(rnd(*(2, 3, 2, 2, 2)[:k])), 0.5, True), call=call)
        yield Sample(op, "1-d-p1", (A(rnd(3)), 1.0, True), call=call)
        yield Sample(op, "node", (x, 0.5, True),
                     call=lambda lib, *a: _names(call(lib, *a)[0]))
    return gen


# ------------------------------------------------------------------ 1-d pooling
def pool1d_samples(op):
    name = op.split(":")[1]
    is_max = name.startswith("max")

    def gen():
        for fam, a in all_families((2, 3, 6)):
            yield Sample(op, fam, (a, 2), gradgrad=fam in ("ordinary", "float64"))
        x = A(rnd(2, 3, 7))
        cases = {
            "stride-pad": ((x, 3), {"stride": 2, "padding": 1}),
            "ceil": ((x, 2), {"ceil_mode": True}),
            "ceil-pad": ((A(rnd(1, 2, 6)), 3), {"stride": 2, "padding": 1, "ceil_mode": True}),
            "overlap": ((x, 3), {"stride": 1}),
            "2-d": ((A(rnd(3, 8)), 2), {}),
            "1-tuples": ((x, (3,)), {"stride": [2], "padding": (1,)}),
            "stride-empty": ((x, 2), {"stride": []}),
            "ties": ((A(np.ones((1, 2, 6), np.float32)), 3), {"stride": 1}),
            "nan-inf": ((A(f32([[[NAN, 1.0, -INF, 2.0, INF, NAN]]])), 2), {}),
            "too-small": ((A(rnd(1, 2, 1)), 3), {}),
            "kernel0": ((x, 0), {}), "stride0": ((x, 2), {"stride": 0}),
            "pad-negative": ((x, 2), {"padding": -1}), "pad-too-big": ((x, 2), {"padding": 2}),
            "kernel-pair": ((x, (2, 2)), {}), "stride-pair": ((x, 2), {"stride": (1, 1)}),
            "pad-pair": ((x, 2), {"padding": (1, 1)}), "kernel-float": ((x, 2.0), {}),
            "1-d": ((A(rnd(8)), 2), {}), "4-d": ((A(rnd(1, 2, 3, 8)), 2), {}),
            "empty-channels": ((A(np.zeros((2, 0, 6), np.float32)), 2), {}),
            "empty-batch": ((A(np.zeros((0, 2, 6), np.float32)), 2), {}),
            "empty-2-d": ((A(np.zeros((0, 6), np.float32)), 2), {}),
            "int64": ((A(np.arange(12).reshape(2, 6)), 2), {}),
            "int32": ((A(np.arange(12, dtype=np.int32).reshape(2, 6)), 2), {}),
        }
        if is_max:
            cases.update({
                "dilation": ((A(rnd(2, 2, 9)), 2), {"dilation": 2, "padding": 1}),
                "dilation0": ((x, 2), {"dilation": 0}),
                "dilation-pair": ((x, 2), {"dilation": (1, 1)}),
                "indices": ((x, 3), {"stride": 2, "padding": 1, "return_indices": True}),
            })
        else:
            cases.update({
                "no-count-pad": ((x, 3), {"stride": 2, "padding": 1,
                                          "count_include_pad": False}),
                "ceil-no-count-pad": ((x, 2), {"padding": 1, "ceil_mode": True,
                                               "count_include_pad": False}),
            })
        for fam, (args, kw) in cases.items():
            yield Sample(op, fam, args, kw, gradgrad=fam in ("stride-pad", "overlap", "ties",
                                                             "dilation", "no-count-pad"))
        yield Sample(op, "node", (x, 2), call=_fn(name, graph=True) if "indices" not in name
                     else lambda lib, *a: _names(getattr(lib.nn.functional, name)(*a)[0]))
    return gen


def pool2d_indices_samples(op):
    def gen():
        x = A(rnd(2, 3, 6, 6))
        yield Sample(op, "ordinary", (x, 2), gradgrad=True)
        yield Sample(op, "stride-pad", (x, 3), {"stride": 2, "padding": 1})
        yield Sample(op, "ceil-dilation", (x, 2), {"ceil_mode": True, "dilation": 2})
        yield Sample(op, "3-d", (A(rnd(3, 5, 5)), 2))
        yield Sample(op, "return-indices-false", (x, 2), {"return_indices": False})
        yield Sample(op, "bad-pad", (x, 2), {"padding": 2})
    return gen


def pool2d_checks_samples(op):
    """The 2-d pools' argument checks, in PyTorch's order, and the dtypes they take."""
    def gen():
        x = A(rnd(1, 2, 4, 4))
        cases = {"kernel0": ((x, 0), {}), "stride0": ((x, 2, 0), {}),
                 "kernel-negative": ((x, (2, -1)), {"stride": 1}),
                 "pad-negative": ((x, 2), {"padding": -1}),
                 "empty-batch": ((A(np.zeros((0, 2, 4, 4), np.float32)), 2), {}),
                 "empty-channels": ((A(np.zeros((2, 0, 4, 4), np.float32)), 2), {}),
                 "empty-3-d": ((A(np.zeros((0, 4, 4), np.float32)), 2), {}),
                 "bool": ((A(np.ones((1, 2, 4, 4), bool)), 2), {}),
                 "int64": ((A(np.arange(-8, 24).reshape(1, 2, 4, 4)), 3),
                           {"stride": 2, "padding": 1}),
                 "int32": ((A(np.arange(32, dtype=np.int32).reshape(1, 2, 4, 4)), 2), {})}
        if op == "F:max_pool2d":
            cases["dilation0"] = ((x, 2), {"dilation": (1, 0)})
        else:
            cases["int64-no-count-pad"] = ((A(np.arange(-8, 24).reshape(1, 2, 4, 4)), 3),
                                           {"stride": 2, "padding": 1,
                                            "count_include_pad": False})
        for fam, (args, kw) in cases.items():
            yield Sample(op, fam, args, kw)
    return gen


# ------------------------------------------------------------------ upsample (deprecated)
def upsample_samples(op):
    name = op.split(":")[1]

    def gen():
        x = A(rnd(1, 2, 3, 4))
        yield Sample(op, "ordinary", (x,), {"scale_factor": 2}, gradgrad=True)
        yield Sample(op, "size", (x, (5, 7)), gradgrad=True)
        yield Sample(op, "size-int", (x, 6))
        yield Sample(op, "scale-pair", (x,), {"scale_factor": (1.5, 2.0)})
        yield Sample(op, "float64", (A(rnd(1, 1, 2, 3, dtype=np.float64)),), {"scale_factor": 3})
        yield Sample(op, "neither", (x,))
        yield Sample(op, "both", (x, 4), {"scale_factor": 2})
        if name == "upsample":
            for mode, corners in (("bilinear", True), ("bilinear", False), ("nearest", None),
                                  ("linear", False)):
                arr = A(rnd(1, 2, 5)) if mode == "linear" else x
                yield Sample(op, f"{mode}-{corners}", (arr, None, 2, mode, corners))
            yield Sample(op, "nearest-corners", (x, None, 2, "nearest", True))
        yield Sample(op, "node", (x,), {"scale_factor": 2}, call=_fn(name, graph=True))
    return gen


# ------------------------------------------------------------------ bilinear
def bilinear_samples(op):
    def gen():
        x1, x2, w, b = A(rnd(4, 3)), A(rnd(4, 5)), A(rnd(2, 3, 5)), A(rnd(2))
        yield Sample(op, "ordinary", (x1, x2, w, b), gradgrad=True)
        yield Sample(op, "no-bias", (x1, x2, w), gradgrad=True)
        yield Sample(op, "3-d", (A(rnd(2, 3, 3)), A(rnd(2, 3, 5)), w, b), gradgrad=True)
        yield Sample(op, "1-d", (A(rnd(3)), A(rnd(5)), w, b))
        yield Sample(op, "float64", (A(rnd(4, 3, dtype=np.float64)),
                                     A(rnd(4, 5, dtype=np.float64)),
                                     A(rnd(2, 3, 5, dtype=np.float64))), gradgrad=True)
        yield Sample(op, "float16", (A(rnd(4, 3, dtype=np.float16)),
                                     A(rnd(4, 5, dtype=np.float16)),
                                     A(rnd(2, 3, 5, dtype=np.float16))))
        yield Sample(op, "int64", (A(np.arange(6).reshape(2, 3)), A(np.arange(10).reshape(2, 5)),
                                   A(np.arange(30).reshape(2, 3, 5))))
        yield Sample(op, "weight-only", (A(rnd(4, 3), grad=False), A(rnd(4, 5), grad=False), w),
                     gradgrad=True)
        yield Sample(op, "empty-batch", (A(np.zeros((0, 3), np.float32)),
                                         A(np.zeros((0, 5), np.float32)), w, b))
        yield Sample(op, "specials", (A(f32([[INF, 0.0, 1.0]])), A(f32([[NAN, 1, 2, 3, 4]])), w))
        yield Sample(op, "mixed-dtypes", (x1, A(rnd(4, 5, dtype=np.float64)), w))
        yield Sample(op, "mixed-bias", (x1, x2, w, A(rnd(2, dtype=np.float64))))
        yield Sample(op, "ranks", (A(rnd(2, 4, 3)), x2, w))
        yield Sample(op, "batch", (A(rnd(2, 3)), x2, w))
        yield Sample(op, "in1", (A(rnd(4, 5)), x2, w))
        yield Sample(op, "in2", (x1, A(rnd(4, 4)), w))
        yield Sample(op, "bias-size", (x1, x2, w, A(rnd(1))))
        yield Sample(op, "0-d", (A(f32(1.0)), A(f32(1.0)), w))
        yield Sample(op, "node", (x1, x2, w, b), call=_fn("bilinear", graph=True))
        yield Sample(op, "second-order-nodes", (x1, x2, w),
                     call=lambda lib, a, c, d: _names(lib.autograd.grad(
                         lib.nn.functional.bilinear(a, c, d).sum(), a, create_graph=True)[0]))
    return gen


# ------------------------------------------------------------------ instance and LRN norm
def _instance_norm_with_stats(lib, x, rm, rv, *args, **kw):
    """``F.instance_norm`` on copies of the running statistics, which it updates in place:
    the result and the statistics after."""
    rm, rv = rm.clone(), rv.clone()
    return lib.nn.functional.instance_norm(x, rm, rv, *args, **kw), rm, rv


def instance_norm_samples(op):
    def gen():
        x = A(rnd(2, 3, 4))
        w, b = A(rnd(3)), A(rnd(3))
        rm, rv = A(rnd(3), grad=False), A(rnd(3, low=0.5), grad=False)
        yield Sample(op, "ordinary", (x,), gradgrad=True)
        yield Sample(op, "affine", (x, None, None, w, b), gradgrad=True)
        yield Sample(op, "4-d", (A(rnd(2, 3, 2, 3)), None, None, w, b), gradgrad=True)
        yield Sample(op, "5-d", (A(rnd(1, 3, 2, 2, 2)),))
        yield Sample(op, "float64", (A(rnd(2, 3, 5, dtype=np.float64)),), gradgrad=True)
        yield Sample(op, "float16", (A(rnd(2, 3, 5, dtype=np.float16)),))
        yield Sample(op, "eps-momentum", (x, None, None, w, b), {"eps": 0.1, "momentum": 0.5})
        yield Sample(op, "running", (x, rm, rv, w, b), call=_instance_norm_with_stats)
        yield Sample(op, "running-momentum", (x, rm, rv), {"momentum": 0.3},
                     call=_instance_norm_with_stats)
        yield Sample(op, "eval", (x, rm, rv, w, b), {"use_input_stats": False},
                     call=_instance_norm_with_stats, gradgrad=True)
        yield Sample(op, "eval-without-stats", (x,), {"use_input_stats": False})
        yield Sample(op, "one-position", (A(rnd(2, 3, 1)),))
        yield Sample(op, "one-position-eval", (A(rnd(2, 3, 1)), rm, rv),
                     {"use_input_stats": False})
        yield Sample(op, "constant", (A(np.ones((2, 3, 4), np.float32)), None, None, w, b))
        yield Sample(op, "specials", (A(f32([[[1.0, INF, 2.0], [NAN, 0.0, 1.0]]])),))
        yield Sample(op, "int", (A(np.arange(24).reshape(2, 3, 4)),))
        yield Sample(op, "node", (x, None, None, w, b), call=_fn("instance_norm", graph=True))
    return gen


def lrn_samples(op):
    def gen():
        for fam, a in all_families((2, 4, 3)):
            yield Sample(op, fam, (a, 3), gradgrad=fam in ("ordinary", "float64"))
        x = A(rnd(2, 5, 3, 2))
        yield Sample(op, "4-d", (x, 2), gradgrad=True)
        yield Sample(op, "5-d", (A(rnd(1, 4, 2, 2, 2)), 3))
        yield Sample(op, "arguments", (x, 4, 0.1, 0.5, 2.0), gradgrad=True)
        yield Sample(op, "size1", (x, 1))
        yield Sample(op, "size-big", (x, 9))
        yield Sample(op, "size0", (x, 0))
        yield Sample(op, "2-d", (A(rnd(3, 4)), 2))
        yield Sample(op, "empty-4-d", (A(np.zeros((0, 3, 2, 2), np.float32)), 2))
        yield Sample(op, "node", (x, 3), call=lambda lib, *a: lib.nn.functional
                     .local_response_norm(*a).grad_fn.name())
    return gen


# ------------------------------------------------------------------ unfold, fold
def unfold_samples(op):
    def gen():
        for fam, a in all_families((2, 3, 4, 5)):
            yield Sample(op, fam, (a, 2), gradgrad=fam in ("ordinary", "float64"))
        x = A(rnd(2, 3, 5, 6))
        cases = {"all-args": ((x, (2, 3)), {"dilation": (2, 1), "padding": 1, "stride": (2, 1)}),
                 "3-d": ((A(rnd(3, 4, 5)), 3), {"padding": 1}), "kernel-whole": ((x, (5, 6)), {}),
                 "kernel0": ((x, 0), {}), "dilation0": ((x, 2), {"dilation": 0}),
                 "pad-negative": ((x, 2), {"padding": (0, -1)}), "stride0": ((x, 2, 1, 0, 0), {}),
                 "too-big": ((x, 7), {}), "2-d": ((A(rnd(4, 5)), 2), {}),
                 "5-d": ((A(rnd(1, 2, 3, 4, 5)), 2), {}),
                 "empty-batch": ((A(np.zeros((0, 2, 4, 5), np.float32)), 2), {}),
                 "empty-channels": ((A(np.zeros((1, 0, 4, 5), np.float32)), 2), {})}
        for fam, (args, kw) in cases.items():
            yield Sample(op, fam, args, kw, gradgrad=fam == "all-args")
        yield Sample(op, "node", (x, 2), call=_fn("unfold", graph=True))
    return gen


def fold_samples(op):
    def gen():
        for fam, a in all_families((2, 12, 12)):  # 3 planes of 2x2 blocks, 3x4 positions
            yield Sample(op, fam, (a, (4, 5), 2), gradgrad=fam in ("ordinary", "float64"))
        cases = {"all-args": ((A(rnd(2, 12, 15)), (5, 6), (2, 3)),
                              {"dilation": (2, 1), "padding": 1, "stride": (2, 1)}),
                 "2-d": ((A(rnd(8, 12)), (4, 5), 2), {}),
                 "kernel-not-dividing": ((A(rnd(1, 8, 12)), (4, 5), 3), {}),
                 "blocks-mismatch": ((A(rnd(1, 8, 12)), (4, 6), 2), {}),
                 "too-small": ((A(rnd(1, 8, 12)), (0, 5), 2), {}),
                 "kernel0": ((A(rnd(1, 8, 12)), (4, 5), 0), {}),
                 "4-d": ((A(rnd(1, 2, 3, 4)), (4, 5), 2), {}),
                 "empty-batch": ((A(np.zeros((0, 8, 12), np.float32)), (4, 5), 2), {}),
                 "output-int": ((A(rnd(1, 4, 16)), 5, 2), {})}
        for fam, (args, kw) in cases.items():
            yield Sample(op, fam, args, kw, gradgrad=fam == "all-args")
        yield Sample(op, "node", (A(rnd(1, 8, 12)), (4, 5), 2), call=_fn("fold", graph=True))
    return gen


# ------------------------------------------------------------------ RReLU
def rrelu_samples(op):
    """Training draws a slope per element: each call seeds both libraries the same way."""
    name = op.split(":")[1]
    inplace = name.endswith("_")

    def gen():
        for training in (True, False):
            call = _seeded_call(name, inplace)
            for fam, a in all_families():
                yield Sample(op, f"{fam}-training{training}", (a, 0.1, 0.3, training),
                             gradgrad=fam in ("ordinary", "float64"), call=call)
            kinks = A(f32([-1.0, -0.0, 0.0, 1.0, NAN, INF, -INF, -1e-30]))
            yield Sample(op, f"kinks-training{training}", (kinks,), {"training": training},
                         gradgrad=True, call=call)
            yield Sample(op, f"equal-bounds-training{training}", (A(rnd(3, 4)), 0.2, 0.2,
                                                                  training), call=call)
            yield Sample(op, f"negative-bounds-training{training}",
                         (A(rnd(3, 4)), -0.5, -0.2, training), call=call)
            yield Sample(op, f"bad-bounds-training{training}", (A(rnd(3)), 0.3, 0.1, training),
                         call=call)
            yield Sample(op, f"float64-bounds-training{training}",
                         (A(rnd(20, dtype=np.float64)), 1 / 7, 5 / 7, training), call=call)
        yield Sample(op, "defaults", (A(rnd(3, 4)),), call=_seeded_call(name, inplace))
        yield Sample(op, "not-a-tensor", (1.5,))
        if inplace:
            yield Sample(op, "leaf", (A(rnd(3)),))
        else:
            yield Sample(op, "inplace-kw", (A(rnd(3, 4)), 0.1, 0.3, True, True),
                         call=_seeded_call(name, True))
            yield Sample(op, "inplace-negative-slope", (A(rnd(3, 4)), -0.5, -0.2, False, True),
                         call=_seeded_call(name, True))
            yield Sample(op, "node", (A(rnd(3, 4)),), call=_fn(name, graph=True))
            yield Sample(op, "second-order-nodes", (A(rnd(4)), 0.1, 0.3),
                         call=_second_order_names(name))
    return gen


def adaptive_indices_samples(op):
    def gen():
        one = "1d" in op
        x = A(rnd(2, 3, 7) if one else rnd(2, 3, 5, 7))
        yield Sample(op, "ordinary", (x, 3 if one else (2, 3)), gradgrad=True)
        yield Sample(op, "unbatched", (A(rnd(3, 7) if one else rnd(3, 5, 7)), 2))
        yield Sample(op, "return-indices-false", (x, 2), {"return_indices": False})
        yield Sample(op, "bad-rank", (A(rnd(7)), 2))
    return gen


def add_samples(t: dict) -> None:
    # the shrinks' kinks join those of the other activations (activation_samples reads them)
    _opinfo_samples._ACTIVATION_KINKS.update(_SHRINK_KINKS)
    for name in ("threshold", "threshold_"):
        t[f"F:{name}"] = threshold_samples(f"F:{name}")
    for name in ("hardshrink", "softshrink"):
        t[f"F:{name}"] = shrink_samples(f"F:{name}")
    t["F:softmin"] = softmin_samples("F:softmin")
    t["F:glu"] = glu_samples("F:glu")
    t["F:prelu"] = prelu_samples("F:prelu")
    for name in ("relu_", "leaky_relu_"):
        t[f"F:{name}"] = inplace_relu_samples(f"F:{name}")
    for name in ("pixel_shuffle", "pixel_unshuffle"):
        t[f"F:{name}"] = pixel_samples(f"F:{name}")
    for name in _DROPOUT_SHAPES:
        t[f"F:{name}"] = dropout_nd_samples(f"F:{name}")
    for name in ("max_pool1d", "avg_pool1d", "max_pool1d_with_indices"):
        t[f"F:{name}"] = pool1d_samples(f"F:{name}")
    t["F:max_pool2d_with_indices"] = pool2d_indices_samples("F:max_pool2d_with_indices")
    for name in ("max_pool2d", "avg_pool2d"):  # the checks this change fixed
        t[f"F:{name}"] = _opinfo_samples._chain(t[f"F:{name}"], pool2d_checks_samples(f"F:{name}"))
    for name in ("upsample", "upsample_nearest", "upsample_bilinear"):
        t[f"F:{name}"] = upsample_samples(f"F:{name}")
    t["F:bilinear"] = bilinear_samples("F:bilinear")
    t["F:instance_norm"] = instance_norm_samples("F:instance_norm")
    t["F:local_response_norm"] = lrn_samples("F:local_response_norm")
    t["F:unfold"] = unfold_samples("F:unfold")
    t["F:fold"] = fold_samples("F:fold")
    for name in ("rrelu", "rrelu_"):
        t[f"F:{name}"] = rrelu_samples(f"F:{name}")
    for k in (1, 2):
        op = f"F:adaptive_max_pool{k}d_with_indices"
        t[op] = adaptive_indices_samples(op)

"""OpInfo samples of the losses added with ``nn/_margin_loss.py`` (soft margin, multi-class
and multi-label margins, multi-label soft margin, cosine embedding, margin ranking, hinge
embedding, the two triplet losses, Gaussian and Poisson NLL) and ``nn/_ctc_loss.py``, and
more samples of the older losses' options (``label_smoothing`` with probabilities and weights,
``pos_weight``, ``log_target``, ``delta``, ``beta=0``, ``nll_loss`` with weights and
``ignore_index`` on images, ``weight=`` of mse_loss, l1_loss and huber_loss).

``_opinfo_samples._build_table`` calls :func:`add_samples`. Each loss runs over the float input
families (special values, layouts, float16 and float64), its reductions (and the deprecated
``size_average``/``reduce``), PyTorch's errors, and a sample that compares the names of all the
nodes of its graph (``loss.grad_fn`` and below).
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, _chain, f32, float_families, rnd
from _opinfo_samples_padding import _graph


def _signs(shape) -> A:
    """Labels of +-1, float32, no gradient."""
    return A(np.where(rnd(*shape) > 0, 1.0, -1.0).astype(np.float32), grad=False)


def _reductions(op, args, kwargs=None, gradgrad=False):
    """The three reductions, a bad one and the deprecated arguments, on one call."""
    kwargs = kwargs or {}
    for red in ("sum", "none"):
        yield Sample(op, red, args, {**kwargs, "reduction": red}, gradgrad=gradgrad)
    yield Sample(op, "bad-reduction", args, {**kwargs, "reduction": "bad"})
    if op not in ("F:gaussian_nll_loss", "F:triplet_margin_with_distance_loss",
                  "F:ctc_loss"):
        yield Sample(op, "size_average-False", args, {**kwargs, "size_average": False})
        yield Sample(op, "reduce-False", args, {**kwargs, "reduce": False})
    yield Sample(op, "node", args, {**kwargs, "reduction": "none"}, call=_graph(op))
    yield Sample(op, "node-mean", args, kwargs, call=_graph(op, deep=False))


def soft_margin_samples(op):
    def gen():
        for fam, a in float_families((3, 4)):
            yield Sample(op, fam, (a, _signs(a.arr.shape)),
                         gradgrad=fam in ("ordinary", "float64", "inf"))
        x, y = A(rnd(3, 4)), _signs((3, 4))
        yield from _reductions(op, (x, y), gradgrad=True)
        yield Sample(op, "soft-targets", (x, A(rnd(3, 4), grad=False)), gradgrad=True)
        yield Sample(op, "broadcast-target", (x, _signs((4,))), gradgrad=True)
        yield Sample(op, "larger-target", (A(rnd(4)), _signs((3, 4))))
        yield Sample(op, "bad-shape", (x, _signs((3,))))
        yield Sample(op, "target-grad", (x, A(rnd(3, 4))))
        yield Sample(op, "big", (A(f32([100.0, -100.0, 0.0])), A(f32([-1.0, -1.0, 1.0]))))
        yield Sample(op, "int-target", (x, A(np.ones((3, 4), np.int64))))
        yield Sample(op, "bool-target", (x, A(np.ones((3, 4), bool))))
        yield Sample(op, "float64-target", (x, A(rnd(3, 4, dtype=np.float64), grad=False)))
        yield Sample(op, "int", (A(np.array([1, 2])), A(np.array([1, -1]))))
        yield Sample(op, "int-float-target", (A(np.array([1, 2])), A(f32([1, -1]))))
        yield Sample(op, "bool", (A(np.array([True, False])), A(f32([1, -1]))))
        yield Sample(op, "empty-sum", (A(np.zeros((0, 4), np.float32)), _signs((0, 4))),
                     {"reduction": "sum"})
    return gen


def _rows_families(drop=()):
    """(family, scores (3, 4)) from the float families, without those in ``drop``."""
    for fam, a in float_families((3, 4)):
        if fam not in drop and a.arr.ndim == 2 and a.arr.shape[0] == 3:
            yield fam, a


def multi_margin_samples(op):
    def gen():
        t = A(np.array([0, 3, 1]))
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, t), gradgrad=fam == "ordinary")
        x = A(rnd(3, 4))
        w = A(rnd(4, low=0.1), grad=False)
        yield from _reductions(op, (x, t))
        for fam, kw in (("p2", {"p": 2}), ("margin", {"margin": 0.5}),
                        ("negative-margin", {"margin": -1.0}), ("weight", {"weight": w}),
                        ("p2-weight", {"p": 2, "weight": w, "margin": 2.0}),
                        ("weight-none", {"weight": w, "reduction": "none"}),
                        ("weight-sum-p2", {"weight": w, "reduction": "sum", "p": 2}),
                        ("p3", {"p": 3}), ("p0", {"p": 0}),
                        ("weight-size", {"weight": A(rnd(3, low=0.1), grad=False)}),
                        ("weight-2d", {"weight": A(rnd(4, 1, low=0.1), grad=False)}),
                        ("weight-dtype", {"weight": A(rnd(4, dtype=np.float64), grad=False)}),
                        ("weight-grad", {"weight": A(rnd(4, low=0.1))})):
            yield Sample(op, fam, (x, t), kw, gradgrad=fam in ("p2", "p2-weight"))
        yield Sample(op, "ties", (A(np.ones((3, 4), np.float32)), t))
        yield Sample(op, "at-margin", (A(f32([[2.0, 1.0, 0.5, 1.0]])), A(np.array([0]))))
        yield Sample(op, "float64", (A(rnd(3, 4, dtype=np.float64)), t), {"p": 2})
        yield Sample(op, "1-d", (A(rnd(4)), A(np.array(2))), {"reduction": "none"})
        yield Sample(op, "1-d-target-1", (A(rnd(4)), A(np.array([2]))), {"reduction": "none"})
        yield Sample(op, "1-d-mean", (A(rnd(4)), A(np.array(2))))
        yield Sample(op, "0-d", (A(f32(0.5)), A(np.array(0))), {"reduction": "none"})
        yield Sample(op, "one-class", (A(rnd(3, 1)), A(np.zeros(3, np.int64))))
        # (an empty batch reduced: PyTorch 2.13 returns uninitialised memory, no sample)
        yield Sample(op, "empty-batch-none", (A(np.zeros((0, 4), np.float32)),
                                              A(np.zeros(0, np.int64))), {"reduction": "none"})
        yield Sample(op, "no-classes", (A(np.zeros((3, 0), np.float32)), t))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), t))
        yield Sample(op, "target-size", (x, A(np.array([0, 1]))))
        yield Sample(op, "target-2d", (x, A(np.array([[0], [1], [2]]))))
        yield Sample(op, "target-too-big", (x, A(np.array([0, 4, 1]))))
        yield Sample(op, "target-negative", (x, A(np.array([0, -1, 1]))))
        yield Sample(op, "target-int32", (x, A(np.array([0, 3, 1], np.int32))))
        yield Sample(op, "target-float", (x, A(f32([0, 3, 1]), grad=False)))
        yield Sample(op, "int", (A(np.ones((3, 4), np.int64)), t))
        yield Sample(op, "float16-only", (A(rnd(3, 4, dtype=np.float16)), t))
    return gen


def multilabel_margin_samples(op):
    def gen():
        t = A(np.array([[0, 1, -1, 0], [3, -1, 0, 0], [-1, 0, 0, 0]]))
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, t), gradgrad=fam == "ordinary")
        x = A(rnd(3, 4))
        yield from _reductions(op, (x, t))
        yield Sample(op, "all-listed", (x, A(np.array([[0, 1, 2, 3]] * 3))))
        yield Sample(op, "repeated", (x, A(np.array([[1, 1, -1, 2], [2, 0, 2, -1],
                                                     [3, 3, 3, 3]]))), {"reduction": "none"})
        yield Sample(op, "after-end", (x, A(np.array([[2, -1, 1, 3]] * 3))))
        yield Sample(op, "ties", (A(np.ones((3, 4), np.float32)), t))
        yield Sample(op, "wide", (A(rnd(2, 6) * 0.3), A(np.array([[5, 0, 2, -1, 1, 1],
                                                                   [1, 4, -1, 0, 0, 0]]))))
        yield Sample(op, "float64", (A(rnd(3, 4, dtype=np.float64)), t), {"reduction": "sum"})
        yield Sample(op, "1-d", (A(rnd(4)), A(np.array([3, 1, -1, 0]))), {"reduction": "none"})
        yield Sample(op, "1-d-mean", (A(rnd(4)), A(np.array([3, 1, -1, 0]))))
        yield Sample(op, "1-element", (A(f32([0.5])), A(np.array([0]))))
        yield Sample(op, "0-d", (A(f32(0.5)), A(np.array(0))), {"reduction": "none"})
        yield Sample(op, "empty-batch-none", (A(np.zeros((0, 4), np.float32)),
                                              A(np.zeros((0, 4), np.int64))),
                     {"reduction": "none"})
        yield Sample(op, "no-classes", (A(np.zeros((3, 0), np.float32)),
                                        A(np.zeros((3, 0), np.int64))))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), A(np.zeros((2, 3, 4), np.int64))))
        yield Sample(op, "target-shape", (x, A(np.zeros((3, 3), np.int64))))
        yield Sample(op, "target-1-d", (x, A(np.array([0, 1, -1, 0]))))
        yield Sample(op, "0-d-target", (A(rnd(4)), A(np.array(1))))
        yield Sample(op, "target-too-big", (x, A(np.array([[0, 4, -1, 0]] * 3))))
        yield Sample(op, "target-below-1", (x, A(np.array([[0, -2, -1, 0]] * 3))))
        yield Sample(op, "target-late-bad", (A(rnd(4)), A(np.array([1, -1, 7, -5]))))
        yield Sample(op, "target-int32", (x, A(t.arr.astype(np.int32))))
        yield Sample(op, "target-float", (x, A(t.arr.astype(np.float32), grad=False)))
        yield Sample(op, "int", (A(np.ones((3, 4), np.int64)), t))
        yield Sample(op, "float16-only", (A(rnd(3, 4, dtype=np.float16)), t))
    return gen


def multilabel_soft_margin_samples(op):
    def gen():
        y = A((rnd(3, 4) > 0).astype(np.float32), grad=False)
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, y), gradgrad=fam in ("ordinary", "float64"))
        x = A(rnd(3, 4))
        yield from _reductions(op, (x, y), gradgrad=True)
        w = A(rnd(4, low=0.1), grad=False)
        yield Sample(op, "weight", (x, y), {"weight": w}, gradgrad=True)
        yield Sample(op, "weight-none", (x, y), {"weight": w, "reduction": "none"})
        yield Sample(op, "weight-grad", (x, y), {"weight": A(rnd(4, low=0.1))})
        yield Sample(op, "soft-target-grad", (x, A(rnd(3, 4, low=0.0) / 2)), gradgrad=True)
        yield Sample(op, "broadcast-target", (x, A(f32([1, 0, 0, 1]), grad=False)))
        yield Sample(op, "1-d", (A(rnd(4)), A(f32([1, 0, 0, 1]), grad=False)))
        yield Sample(op, "0-d", (A(f32(0.3)), A(f32(1.0), grad=False)))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), A((rnd(2, 3, 4) > 0).astype(np.float32))),
                     {"reduction": "none"})
        yield Sample(op, "int-target", (x, A(y.arr.astype(np.int64))))
        yield Sample(op, "bool-target", (x, A(y.arr > 0)))
        yield Sample(op, "int", (A(np.ones((3, 4), np.int64)), y))
        yield Sample(op, "bad-shape", (x, A(f32([1, 0, 1]), grad=False)))
    return gen


def cosine_embedding_samples(op):
    def gen():
        t = A(f32([1, -1, 1]), grad=False)
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, A(rnd(3, 4)), t), gradgrad=fam in ("ordinary", "float64"))
        x1, x2 = A(rnd(3, 4)), A(rnd(3, 4))
        yield from _reductions(op, (x1, x2, t), gradgrad=True)
        yield Sample(op, "margin", (x1, x2, A(f32([-1, -1, 1]), grad=False)), {"margin": 0.3},
                     gradgrad=True)
        yield Sample(op, "negative-margin", (x1, x2, A(f32([-1, -1, -1]), grad=False)),
                     {"margin": -0.5})
        yield Sample(op, "other-labels", (x1, x2, A(f32([2, 0, -1]), grad=False)))
        yield Sample(op, "int-target", (x1, x2, A(np.array([1, -1, -1]))))
        yield Sample(op, "zero-vector", (A(np.zeros((2, 3), np.float32)), A(rnd(2, 3)),
                                         A(f32([1, -1]), grad=False)))
        yield Sample(op, "same", (x1, x1, t))
        yield Sample(op, "1-d", (A(rnd(4)), A(rnd(4)), A(f32(-1), grad=False)),
                     {"reduction": "none"})
        yield Sample(op, "float16-all", (A(rnd(3, 4, dtype=np.float16)),
                                         A(rnd(3, 4, dtype=np.float16)),
                                         A(t.arr.astype(np.float16), grad=False)))
        yield Sample(op, "mixed", (x1, A(rnd(3, 4, dtype=np.float64)), t))
        yield Sample(op, "int", (A(np.arange(12).reshape(3, 4)), A(np.ones((3, 4), np.int64)),
                                 t))
        yield Sample(op, "broadcast", (x1, A(rnd(1, 4)), t))
        yield Sample(op, "target-2d", (x1, x2, A(f32([[1], [1], [1]]), grad=False)))
        yield Sample(op, "0-d-target-2d-inputs", (x1, x2, A(f32(1), grad=False)))
        yield Sample(op, "1-d-target-1d-inputs", (A(rnd(4)), A(rnd(4)), t))
        yield Sample(op, "target-size", (x1, x2, A(f32([1, -1]), grad=False)))
        yield Sample(op, "batch-mismatch", (x1, A(rnd(2, 4)), t))
    return gen


def margin_ranking_samples(op):
    def gen():
        t = A(f32([1, -1, 1, 1, -1]), grad=False)
        for fam, a in float_families((5,)):
            n = a.arr.shape[0] if a.arr.ndim else None
            tt = A(f32(1), grad=False) if n is None else A(np.resize(t.arr, n), grad=False)
            b = A(rnd(*a.arr.shape, dtype=a.arr.dtype))
            yield Sample(op, fam, (a, b, tt), gradgrad=fam in ("ordinary", "float64"))
        x1, x2 = A(rnd(5)), A(rnd(5))
        yield from _reductions(op, (x1, x2, t), gradgrad=True)
        yield Sample(op, "margin", (x1, x2, t), {"margin": 0.5})
        yield Sample(op, "ties", (A(f32([1, 2, 2])), A(f32([1, 2, 2])),
                                  A(f32([1, -1, 1]), grad=False)))
        yield Sample(op, "target-grad", (x1, x2, A(t.arr)))
        yield Sample(op, "2-d", (A(rnd(2, 3)), A(rnd(2, 3)), A(f32([[1, -1, 1], [-1, 1, 1]]),
                                                               grad=False)))
        yield Sample(op, "int", (A(np.array([1, 2])), A(np.array([2, 2])), A(np.array([1, -1]))))
        yield Sample(op, "int-target", (x1, x2, A(np.array([1, -1, 1, 1, -1]))))
        yield Sample(op, "mixed", (x1, A(rnd(5, dtype=np.float64)), t))
        yield Sample(op, "dims", (A(rnd(2, 5)), x2, t))
        yield Sample(op, "sizes", (x1, A(rnd(3)), A(f32([1, 1, 1]), grad=False)))
    return gen


def hinge_embedding_samples(op):
    def gen():
        for fam, a in float_families((3, 4)):
            yield Sample(op, fam, (a, _signs(a.arr.shape)),
                         gradgrad=fam in ("ordinary", "float64"))
        x, y = A(rnd(3, 4)), _signs((3, 4))
        yield from _reductions(op, (x, y), gradgrad=True)
        yield Sample(op, "margin", (x, y), {"margin": 0.3})
        yield Sample(op, "other-labels", (x, A(np.resize(f32([1, -1, 0, 2]), (3, 4)),
                                               grad=False)), {"reduction": "none"})
        yield Sample(op, "at-margin", (A(f32([1.0, 1.0, 0.5])), A(f32([-1, -1, -1]))))
        yield Sample(op, "broadcast", (x, _signs((4,))))
        yield Sample(op, "broadcast-input", (A(rnd(4)), _signs((3, 4))))
        yield Sample(op, "bad-shape", (x, _signs((3,))))
        yield Sample(op, "int-target", (x, A(np.resize(np.array([1, -1]), (3, 4)))))
        yield Sample(op, "int", (A(np.array([1, 2])), A(np.array([1, -1]))))
        yield Sample(op, "int-none", (A(np.array([1, 2])), A(np.array([1, -1]))),
                     {"reduction": "none"})
        yield Sample(op, "target-grad", (x, A(np.resize(f32([1, -1]), (3, 4)))))
    return gen


def triplet_samples(op):
    def gen():
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, A(rnd(3, 4)), A(rnd(3, 4))),
                         gradgrad=fam in ("ordinary", "float64"))
        a, p, n = A(rnd(3, 4)), A(rnd(3, 4)), A(rnd(3, 4))
        yield from _reductions(op, (a, p, n), gradgrad=True)
        yield Sample(op, "swap", (a, p, n), {"swap": True}, gradgrad=True)
        yield Sample(op, "margin", (a, p, n), {"margin": 3.0})
        yield Sample(op, "margin-0", (a, p, n), {"margin": 0})
        yield Sample(op, "margin-negative", (a, p, n), {"margin": -1.0})
        yield Sample(op, "dims", (a, p, A(rnd(4))))
        yield Sample(op, "sizes", (a, p, A(rnd(2, 4))))
        yield Sample(op, "broadcast", (a, p, A(rnd(1, 4))))
        yield Sample(op, "1-d", (A(rnd(4)), A(rnd(4)), A(rnd(4))))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), A(rnd(2, 3, 4)), A(rnd(2, 3, 4))),
                     {"reduction": "none"})
        yield Sample(op, "same", (a, a, a))
        yield Sample(op, "empty-batch", (A(np.zeros((0, 4), np.float32)),) * 3,
                     {"reduction": "sum"})
        yield Sample(op, "int", (A(np.arange(8).reshape(2, 4)), A(np.ones((2, 4), np.int64)),
                                 A(np.zeros((2, 4), np.int64))))
        yield Sample(op, "mixed", (a, A(rnd(3, 4, dtype=np.float64)), n))
        if op == "F:triplet_margin_loss":
            yield Sample(op, "swap-none", (a, p, n), {"swap": True, "reduction": "none"},
                         call=_graph(op))
            for fam, kw in (("p1", {"p": 1}), ("p3", {"p": 3.0}), ("eps0", {"eps": 0.0}),
                            ("p-inf", {"p": INF}), ("p1-swap-eps", {"p": 1, "swap": True,
                                                                     "eps": 0.1})):
                yield Sample(op, fam, (a, p, n), kw, gradgrad=fam == "p3")
        else:
            yield Sample(op, "cosine-distance", (a, p, n), call=_with_distance(_cosine),
                         gradgrad=True)
            yield Sample(op, "l1-module", (a, p, n), {"swap": True},
                         call=_with_distance(lambda lib: lib.nn.PairwiseDistance(p=1.0)))
            yield Sample(op, "cosine-node", (a, p, n), {"reduction": "none"},
                         call=_with_distance(_cosine, graph=True))
    return gen


def _cosine(lib):
    return lambda x, y: 1.0 - lib.nn.functional.cosine_similarity(x, y)


def _with_distance(make, graph=False):
    """Call triplet_margin_with_distance_loss with the distance ``make(lib)``."""
    def call(lib, *args, **kw):
        fn = lib.nn.functional.triplet_margin_with_distance_loss
        if graph:
            return _graph("F:triplet_margin_with_distance_loss")(
                lib, *args, distance_function=make(lib), **kw)
        return fn(*args, distance_function=make(lib), **kw)
    return call


def gaussian_nll_samples(op):
    def gen():
        for fam, a in float_families((3, 4)):
            shape = a.arr.shape
            yield Sample(op, fam, (a, A(rnd(*shape)), A(rnd(*shape, low=0.1))),
                         gradgrad=fam in ("ordinary", "float64"))
        x, y, v = A(rnd(3, 4)), A(rnd(3, 4)), A(rnd(3, 4, low=0.1))
        yield from _reductions(op, (x, y, v), gradgrad=True)
        yield Sample(op, "full", (x, y, v), {"full": True}, gradgrad=True)
        yield Sample(op, "full-node", (x, y, v), {"full": True, "reduction": "none"},
                     call=_graph(op))
        yield Sample(op, "eps", (x, y, A(f32([[0.0, 1e-3, 0.5, 2.0]] * 3))), {"eps": 0.01})
        yield Sample(op, "var-zeros", (x, y, A(np.zeros((3, 4), np.float32))))
        yield Sample(op, "var-one-fewer", (x, y, A(rnd(3, low=0.1))), gradgrad=True)
        yield Sample(op, "var-one-fewer-none", (x, y, A(rnd(3, low=0.1))), {"reduction": "none"})
        yield Sample(op, "var-column", (x, y, A(rnd(3, 1, low=0.1))))
        yield Sample(op, "var-row", (x, y, A(rnd(1, 4, low=0.1))))
        yield Sample(op, "var-3d", (A(rnd(2, 3, 4)), A(rnd(2, 3, 4)), A(rnd(2, 1, 4, low=0.1))))
        yield Sample(op, "var-float", (x, y, 0.5))
        yield Sample(op, "var-float-negative", (x, y, -0.5))
        yield Sample(op, "var-int", (x, y, 1))
        yield Sample(op, "var-negative", (x, y, A(-v.arr)))
        yield Sample(op, "var-last", (x, y, A(rnd(4, low=0.1))))
        yield Sample(op, "var-two-ones", (x, y, A(rnd(1, 1, low=0.1))))
        yield Sample(op, "var-0-d", (x, y, A(f32(0.5))))
        yield Sample(op, "var-bad", (x, y, A(rnd(2, 1, low=0.1))))
        yield Sample(op, "var-float64", (x, y, A(rnd(3, 4, low=0.1, dtype=np.float64))))
        yield Sample(op, "var-int-tensor", (x, y, A(np.ones((3, 4), np.int64))))
        yield Sample(op, "target-broadcast", (x, A(rnd(4)), v))
        yield Sample(op, "int", (A(np.ones((3, 4), np.int64)), A(np.ones((3, 4), np.int64)), v))
    return gen


def poisson_nll_samples(op):
    def gen():
        counts = A(f32([[0, 1, 2, 5]] * 3), grad=False)
        for fam, a in _rows_families():
            yield Sample(op, fam, (a, counts), gradgrad=fam in ("ordinary", "float64"))
        x = A(rnd(3, 4))
        yield from _reductions(op, (x, counts), gradgrad=True)
        rate = A(rnd(3, 4, low=0.1))
        yield Sample(op, "rate", (rate, counts), {"log_input": False}, gradgrad=True)
        yield Sample(op, "rate-zero", (A(f32([0.0, 1.0])), A(f32([2.0, 0.0]))),
                     {"log_input": False})
        yield Sample(op, "rate-eps", (rate, counts), {"log_input": False, "eps": 0.5})
        yield Sample(op, "full", (x, counts), {"full": True}, gradgrad=True)
        yield Sample(op, "full-none", (x, counts), {"full": True, "reduction": "none"})
        yield Sample(op, "full-rate", (rate, counts), {"full": True, "log_input": False})
        fractional = A(f32([[0.5, 1.0, 1.5, 3.0]] * 3))
        yield Sample(op, "full-target-grad", (x, fractional), {"full": True}, gradgrad=True)
        yield Sample(op, "full-node", (x, fractional), {"full": True, "reduction": "none"},
                     call=_graph(op))
        yield Sample(op, "rate-node", (rate, fractional), {"log_input": False,
                                                            "reduction": "none"},
                     call=_graph(op))
        yield Sample(op, "target-grad", (x, A(rnd(3, 4, low=0.0))))
        yield Sample(op, "int-target", (x, A(np.array([0, 1, 2, 5]))), {"full": True})
        yield Sample(op, "int", (A(np.array([0, 1, 2])), A(np.array([1, 1, 3]))))
        yield Sample(op, "int-full", (A(np.array([0, 1, 2])), A(np.array([1, 1, 3]))),
                     {"full": True})
        yield Sample(op, "float64", (A(rnd(3, 4, dtype=np.float64)), counts), {"full": True})
        yield Sample(op, "broadcast", (x, A(f32([0, 1, 2, 5]), grad=False)))
        yield Sample(op, "bad-shape", (x, A(f32([0, 1, 2]), grad=False)))
    return gen


def _log_softmax(x: np.ndarray) -> np.ndarray:
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def ctc_samples(op):
    def gen():
        lp = A(_log_softmax(rnd(6, 2, 4)))
        tg, il, tl = A(np.array([[1, 2, 2], [3, 1, 0]])), A(np.array([6, 5])), A(np.array([3, 2]))
        yield Sample(op, "ordinary", (lp, tg, il, tl), gradgrad=True)
        yield from _reductions(op, (lp, tg, il, tl))
        yield Sample(op, "float64", (A(_log_softmax(rnd(6, 2, 4, dtype=np.float64))), tg, il,
                                     tl))
        yield Sample(op, "noncontig", (A(_log_softmax(rnd(6, 2, 4)), layout="T"), tg, il, tl))
        yield Sample(op, "concatenated", (lp, A(np.array([1, 2, 2, 3, 1])), il, tl))
        yield Sample(op, "lists", (lp, tg, [6, 5], [3, 2]), {"reduction": "none"})
        yield Sample(op, "tuples", (lp, tg, (6, 5), (3, 2)))
        yield Sample(op, "int32", (lp, A(tg.arr.astype(np.int32)), A(il.arr.astype(np.int32)),
                                   A(tl.arr.astype(np.int32))))
        yield Sample(op, "float-targets", (lp, A(tg.arr.astype(np.float32), grad=False), il, tl))
        yield Sample(op, "blank-3", (lp, A(np.array([[1, 2, 2], [0, 1, 0]])), il, tl),
                     {"blank": 3, "reduction": "none"})
        yield Sample(op, "empty-target", (lp, tg, il, A(np.array([0, 2]))), {"reduction": "none"})
        yield Sample(op, "empty-targets-mean", (lp, A(np.zeros((2, 0), np.int64)), il,
                                                A(np.array([0, 0]))))
        yield Sample(op, "one-step", (lp, tg, A(np.array([1, 1])), A(np.array([1, 0]))),
                     {"reduction": "none"})
        yield Sample(op, "impossible", (lp, tg, A(np.array([2, 5])), tl), {"reduction": "none"})
        yield Sample(op, "repeats-need-blanks", (lp, tg, A(np.array([3, 5])), tl),
                     {"reduction": "none"})
        for red in ("mean", "none"):
            yield Sample(op, f"zero-infinity-{red}", (lp, tg, A(np.array([2, 5])), tl),
                         {"zero_infinity": True, "reduction": red})
        yield Sample(op, "zero-infinity-node", (lp, tg, A(np.array([2, 5])), tl),
                     {"zero_infinity": True}, call=_graph(op))
        masked = _log_softmax(rnd(6, 2, 4))
        masked[:, :, 3] = -INF
        yield Sample(op, "masked-class", (A(masked), A(np.array([[1, 2, 2], [2, 1, 0]])), il,
                                          tl))
        yield Sample(op, "nan", (A(np.where(rnd(6, 2, 4) > 1, NAN, masked)), tg, il, tl))
        one = A(_log_softmax(rnd(5, 3)))
        for fam, lengths in (("tensors", (A(np.array(5)), A(np.array(2)))),
                             ("lists", ([4], [2])), ("ints", (5, 2))):
            for red in ("mean", "none"):
                yield Sample(op, f"unbatched-{fam}-{red}", (one, A(np.array([2, 1])), *lengths),
                             {"reduction": red})
        yield Sample(op, "unbatched-node", (one, A(np.array([2, 1])), [5], [2]),
                     {"reduction": "none"}, call=_graph(op))
        for fam, args in (
                ("float-lengths", (lp, tg, A(f32([6, 5]), grad=False), tl)),
                ("float-target-lengths", (lp, tg, il, A(f32([3, 2]), grad=False))),
                ("mixed-lengths", (lp, tg, il, [3, 2])),
                ("blank-4", (lp, tg, il, tl)), ("blank-negative", (lp, tg, il, tl)),
                ("input-lengths-size", (lp, tg, A(np.array([6])), tl)),
                ("target-lengths-size", (lp, tg, il, A(np.array([3])))),
                ("input-too-long", (lp, tg, A(np.array([7, 5])), tl)),
                ("input-negative", (lp, tg, A(np.array([-1, 5])), tl)),
                ("target-too-long", (lp, tg, il, A(np.array([4, 2])))),
                ("target-negative", (lp, tg, il, A(np.array([-1, 2])))),
                ("targets-batch", (lp, A(tg.arr[:1]), il, tl)),
                ("concatenated-size", (lp, A(np.array([1, 2, 2, 3])), il, tl)),
                ("4-d", (A(_log_softmax(rnd(1, 6, 2, 4))), tg, il, tl)),
                ("targets-3-d", (lp, A(tg.arr[None]), il, tl)),
                ("float16", (A(lp.arr.astype(np.float16)), tg, il, tl)),
                ("int", (A(np.zeros((6, 2, 4), np.int64)), tg, il, tl))):
            kw = {"blank": 4} if fam == "blank-4" else {"blank": -1} if "blank" in fam else {}
            yield Sample(op, fam, args, kw)
    return gen


# ------------------------------------------------------------------ the older losses' options


def cross_entropy_more_samples(op):
    def gen():
        x = A(rnd(4, 5))
        tgt = A(np.array([1, 0, 4, 2]))
        probs = A(rnd(4, 5, low=0.0) / 10, grad=False)
        w = A(rnd(5, low=0.1), grad=False)
        for red in ("mean", "sum", "none"):
            yield Sample(op, f"smoothing-probs-weight-{red}", (x, probs),
                         {"label_smoothing": 0.2, "weight": w, "reduction": red},
                         gradgrad=red == "mean")
            yield Sample(op, f"smoothing-weight-ignore-{red}", (x, A(np.array([1, -100, 4, 2]))),
                         {"label_smoothing": 0.3, "weight": w, "reduction": red})
        yield Sample(op, "probs-weight", (x, probs), {"weight": w})
        yield Sample(op, "smoothing-1", (x, tgt), {"label_smoothing": 1.0})
        yield Sample(op, "smoothing-bad", (x, tgt), {"label_smoothing": 1.5})
        img = A(rnd(2, 5, 3, 3))
        img_t = A(np.resize(np.array([0, 4, -100, 2, 3]), (2, 3, 3)))
        yield Sample(op, "image-smoothing-weight-ignore", (img, img_t),
                     {"label_smoothing": 0.1, "weight": w, "ignore_index": -100})
        yield Sample(op, "image-probs-smoothing", (img, A(rnd(2, 5, 3, 3, low=0.0) / 4,
                                                         grad=False)),
                     {"label_smoothing": 0.25, "weight": w, "reduction": "none"})
    return gen


def nll_more_samples(op):
    def gen():
        logp = A(np.log(np.exp(rnd(2, 5, 3, 4)) / np.exp(rnd(2, 5, 3, 4)).sum(1, keepdims=True)))
        t = A(np.resize(np.array([0, 4, 3, 3, 1, 2, 4]), (2, 3, 4)))
        w = A(rnd(5, low=0.1), grad=False)
        for red in ("mean", "sum", "none"):
            yield Sample(op, f"image-weight-ignore-{red}", (logp, t),
                         {"weight": w, "ignore_index": 3, "reduction": red},
                         gradgrad=red == "mean")
        yield Sample(op, "image-3d-weight-ignore", (A(rnd(2, 5, 2, 2, 2)),
                                                    A(np.resize(np.arange(5), (2, 2, 2, 2)))),
                     {"weight": w, "ignore_index": 0})
        yield Sample(op, "image-all-ignored-weight", (logp, A(np.full((2, 3, 4), 3))),
                     {"weight": w, "ignore_index": 3})
        yield Sample(op, "image-zero-weights", (logp, t), {"weight": A(np.zeros(5, np.float32))})
    return gen


def bce_logits_more_samples(op):
    def gen():
        x = A(rnd(3, 4))
        t = A(rnd(3, 4, low=0.0) / 2, grad=False)
        pw = A(rnd(4, low=0.0), grad=False)
        for red in ("sum", "none"):
            yield Sample(op, f"pos_weight-{red}", (x, t), {"pos_weight": pw, "reduction": red},
                         gradgrad=True)
        yield Sample(op, "pos_weight-weight", (x, t), {"pos_weight": pw,
                                                       "weight": A(rnd(3, 1, low=0.1),
                                                                   grad=False)})
        yield Sample(op, "pos_weight-target-grad", (x, A(t.arr)), {"pos_weight": pw},
                     gradgrad=True)
        yield Sample(op, "pos_weight-inf", (A(f32([INF, -INF, 50.0, -50.0])),
                                            A(f32([1.0, 0.0, 0.0, 1.0]), grad=False)),
                     {"pos_weight": A(f32([2.0, 3.0, 0.5, 1.0]), grad=False)})
        yield Sample(op, "pos_weight-grad", (x, t), {"pos_weight": A(rnd(4, low=0.0))})
        yield Sample(op, "pos_weight-bad", (x, t), {"pos_weight": A(rnd(3, low=0.0),
                                                                     grad=False)})
    return gen


def kl_div_more_samples(op):
    def gen():
        x = A(np.log(rnd(3, 4, low=0.1) / 8))
        for red in ("batchmean", "none"):
            yield Sample(op, f"log-target-grad-{red}", (x, A(np.log(rnd(3, 4, low=0.1) / 8))),
                         {"log_target": True, "reduction": red}, gradgrad=True)
        yield Sample(op, "log-target-inf", (x, A(f32([[-INF, 0.0, -1.0, -2.0]] * 3))),
                     {"log_target": True, "reduction": "sum"})
        yield Sample(op, "log-target-node", (x, A(np.log(rnd(3, 4, low=0.1) / 8))),
                     {"log_target": True, "reduction": "none"}, call=_graph(op))
        yield Sample(op, "node", (x, A(rnd(3, 4, low=0.1) / 8)), {"reduction": "none"},
                     call=_graph(op))
    return gen


def robust_more_samples(op, param):
    def gen():
        x, y = A(rnd(3, 4) * 2), A(rnd(3, 4) * 2)
        for v in (0.1, 1.0, 10.0):
            yield Sample(op, f"{param}{v}-none", (x, y), {param: v, "reduction": "none"},
                         gradgrad=True)
        at = A(f32([0.0, 0.5, -0.5, 1.0, 2.0]))
        yield Sample(op, f"{param}-kink", (at, A(np.zeros(5, np.float32), grad=False)),
                     {param: 0.5, "reduction": "none"}, gradgrad=True)
        if param == "beta":
            yield Sample(op, "beta0-none", (x, y), {"beta": 0.0, "reduction": "none"},
                         gradgrad=True)
            yield Sample(op, "beta0-node", (x, y), {"beta": 0.0}, call=_graph(op))
            yield Sample(op, "beta0-zeros", (at, A(at.arr)), {"beta": 0.0, "reduction": "sum"})
            yield Sample(op, "beta0-broadcast", (x, A(rnd(4))), {"beta": 0.0})
        yield Sample(op, "node", (x, y), {param: 2.0}, call=_graph(op))
        yield Sample(op, f"{param}-nan", (x, y), {param: NAN})
    return gen


def weighted_samples(op):
    """``weight=`` of mse_loss, l1_loss and huber_loss (PyTorch composes them in Python)."""
    def gen():
        x, y, w = A(rnd(3, 4)), A(rnd(3, 4)), A(rnd(3, 4, low=0.1))
        for red in ("mean", "sum", "none"):
            yield Sample(op, f"weight-{red}", (x, y), {"weight": w, "reduction": red},
                         gradgrad=True)
            yield Sample(op, f"weight-node-{red}", (x, y), {"weight": w, "reduction": red},
                         call=_graph(op))
        yield Sample(op, "weight-broadcast-target", (x, A(rnd(4))), {"weight": w})
        yield Sample(op, "weight-zeros", (x, y), {"weight": A(np.zeros((3, 4), np.float32))})
        yield Sample(op, "weight-float64", (x, y), {"weight": A(rnd(3, 4, dtype=np.float64))})
        yield Sample(op, "weight-shape", (x, y), {"weight": A(rnd(4, low=0.1))})
        yield Sample(op, "weight-bad-reduction", (x, y), {"weight": w, "reduction": "bad"})
        yield Sample(op, "weight-bad-shapes", (x, A(rnd(5))), {"weight": w})
        if op != "F:huber_loss":
            yield Sample(op, "weight-legacy", (x, y), {"weight": w, "size_average": False})
    return gen


def add_samples(t: dict) -> None:
    for name, samples in (("soft_margin_loss", soft_margin_samples),
                          ("multi_margin_loss", multi_margin_samples),
                          ("multilabel_margin_loss", multilabel_margin_samples),
                          ("multilabel_soft_margin_loss", multilabel_soft_margin_samples),
                          ("cosine_embedding_loss", cosine_embedding_samples),
                          ("margin_ranking_loss", margin_ranking_samples),
                          ("hinge_embedding_loss", hinge_embedding_samples),
                          ("triplet_margin_loss", triplet_samples),
                          ("triplet_margin_with_distance_loss", triplet_samples),
                          ("gaussian_nll_loss", gaussian_nll_samples),
                          ("poisson_nll_loss", poisson_nll_samples),
                          ("ctc_loss", ctc_samples)):
        t[f"F:{name}"] = samples(f"F:{name}")
    for key, more in (("F:cross_entropy", cross_entropy_more_samples),
                      ("F:nll_loss", nll_more_samples),
                      ("F:binary_cross_entropy_with_logits", bce_logits_more_samples),
                      ("F:kl_div", kl_div_more_samples)):
        t[key] = _chain(t[key], more(key))
    # a 0-d tensor's size(dim), which multilabel_soft_margin_loss asks for
    t["method:size"] = _chain(t["method:size"], lambda: (
        Sample("method:size", f"0-d-dim{d}", (A(f32(0.3)), d)) for d in (0, -1, 1)))
    t["F:smooth_l1_loss"] = _chain(t["F:smooth_l1_loss"],
                                   robust_more_samples("F:smooth_l1_loss", "beta"))
    t["F:huber_loss"] = _chain(t["F:huber_loss"], robust_more_samples("F:huber_loss", "delta"),
                               weighted_samples("F:huber_loss"))
    for key in ("F:mse_loss", "F:l1_loss"):
        t[key] = _chain(t[key], weighted_samples(key))

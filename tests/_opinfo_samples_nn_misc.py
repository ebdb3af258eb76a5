"""OpInfo samples of ``F.interpolate``'s modes ``bicubic`` and ``area`` (added to the op's
other samples in ``_opinfo_samples_api``), ``F.embedding``'s ``max_norm``, ``norm_type``,
``scale_grad_by_freq`` and ``sparse``, ``embedding_renorm_``, ``F.embedding_bag``,
``F.affine_grid``, ``F.grid_sample`` and ``F.gumbel_softmax`` (seeded alike in both libraries).

``_opinfo_samples._build_table`` calls :func:`add_samples`; the samples use the same input
families and comparison as every other op (see ``tests/_opinfo_samples.py``).
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, f32, rnd


def _interpolate_more(op, base):
    def gen():
        yield from base()
        img = A(rnd(2, 3, 4, 5))
        for align in (False, True):
            for fam, kw in [("x2", {"scale_factor": 2}), ("x0.5", {"scale_factor": 0.5}),
                            ("x1.7", {"scale_factor": 1.7}), ("size", {"size": (7, 3)}),
                            ("size-1", {"size": (1, 1)}), ("same-size", {"size": (4, 5)}),
                            ("scale-tuple", {"scale_factor": (1.5, 0.6)}),
                            ("recompute", {"scale_factor": 0.7, "recompute_scale_factor": True})]:
                yield Sample(op, f"bicubic-{'align-' * align}{fam}", (img,),
                             {"mode": "bicubic", "align_corners": align, **kw},
                             gradgrad=fam == "x1.7")
        yield Sample(op, "bicubic-default-align", (img,), {"mode": "bicubic", "size": 6})
        for mode in ("bilinear", "bicubic"):
            for fam, kw in [("down", {"scale_factor": 0.4}), ("up", {"size": (7, 9)}),
                            ("mixed", {"size": (2, 8)}), ("align", {"size": (3, 2),
                                                                    "align_corners": True}),
                            ("one-wide", {"size": (6, 1)})]:
                yield Sample(op, f"{mode}-antialias-{fam}", (img,),
                             {"mode": mode, "antialias": True, **kw}, gradgrad=fam == "down")
        yield Sample(op, "bicubic-float64", (A(rnd(1, 2, 3, 3, dtype=np.float64)),),
                     {"scale_factor": 1.5, "mode": "bicubic"})
        yield Sample(op, "bicubic-float16", (A(rnd(1, 1, 3, 3, dtype=np.float16)),),
                     {"scale_factor": 1.5, "mode": "bicubic"})
        yield Sample(op, "bicubic-inf-nan", (A(f32([[[[1.0, INF, 0.0], [NAN, 2.0, 3.0]]]])),),
                     {"scale_factor": 2, "mode": "bicubic"})
        yield Sample(op, "bicubic-noncontig", (A(rnd(2, 3, 5, 4), layout="T"),),
                     {"scale_factor": 1.5, "mode": "bicubic"})
        yield Sample(op, "bicubic-empty-batch", (A(np.zeros((0, 2, 3, 3), np.float32)),),
                     {"scale_factor": 2, "mode": "bicubic"})
        for fam, kw in [("size", {"size": (3, 2)}), ("x0.5", {"scale_factor": 0.5}),
                        ("up", {"size": (6, 7)}), ("global", {"size": 1}),
                        ("scale-tuple", {"scale_factor": (0.5, 1.5)})]:
            yield Sample(op, f"area-{fam}", (img,), {"mode": "area", **kw}, gradgrad=fam == "size")
        yield Sample(op, "area-1d", (A(rnd(2, 3, 7)),), {"mode": "area", "size": 3})
        yield Sample(op, "area-3d", (A(rnd(2, 2, 4, 5, 6)),), {"mode": "area", "size": (2, 3, 4)},
                     gradgrad=True)
        yield Sample(op, "area-3d-scale", (A(rnd(1, 2, 4, 4, 6)),),
                     {"mode": "area", "scale_factor": 0.5})
        yield Sample(op, "area-float64", (A(rnd(1, 2, 5, 4, dtype=np.float64)),),
                     {"mode": "area", "size": (2, 3)})
        yield Sample(op, "area-inf-nan", (A(f32([[[[1.0, INF], [NAN, 2.0]]]])),),
                     {"mode": "area", "size": (1, 2)})
        for fam, kw in [("bicubic-3d", {"scale_factor": 2, "mode": "bicubic",
                                        "_x": A(rnd(2, 3, 5))}),
                        ("bicubic-int", {"size": 3, "mode": "bicubic",
                                         "_x": A(np.ones((1, 1, 2, 2), np.int64))}),
                        ("area-int", {"size": 3, "mode": "area",
                                      "_x": A(np.ones((1, 1, 2, 2), np.int64))}),
                        ("area-align", {"size": 3, "mode": "area", "align_corners": True}),
                        ("size-float", {"size": (3.0, 2), "mode": "bicubic"}),
                        ("recompute-size", {"size": 3, "recompute_scale_factor": True}),
                        ("antialias-nearest", {"size": 3, "antialias": True}),
                        ("lanczos-no-antialias", {"size": 3, "mode": "lanczos"}),
                        ("bicubic-zero-size", {"scale_factor": 0.2, "mode": "bicubic"}),
                        ("area-empty-dim", {"size": 2, "mode": "area",
                                            "_x": A(np.zeros((1, 2, 0, 3), np.float32))})]:
            x = kw.pop("_x", img)
            yield Sample(op, fam, (x,), kw, msg=60)
    return gen


def _embedding_more(op, base):
    def gen():
        yield from base()
        w = A(rnd(5, 3) * 2)
        idx = A(np.array([[0, 2, 2], [4, 1, 2]]))
        for fam, kw in [("max-norm", {"max_norm": 1.0}), ("max-norm-p1", {"max_norm": 1.5,
                                                                          "norm_type": 1}),
                        ("max-norm-inf", {"max_norm": 0.7, "norm_type": INF}),
                        ("max-norm-padding", {"max_norm": 1.0, "padding_idx": 2}),
                        ("freq", {"scale_grad_by_freq": True}),
                        ("freq-padding", {"scale_grad_by_freq": True, "padding_idx": 0}),
                        ("sparse-false", {"sparse": False}), ("padding-negative",
                                                               {"padding_idx": -1})]:
            yield Sample(op, fam, (idx, w), kw, gradgrad=fam.startswith("freq"))
        yield Sample(op, "max-norm-float64", (idx, A(rnd(5, 3, dtype=np.float64) * 2)),
                     {"max_norm": 1.0})
        yield Sample(op, "max-norm-float16", (idx, A(rnd(5, 3, dtype=np.float16) * 2)),
                     {"max_norm": 1.0})
        yield Sample(op, "max-norm-empty", (A(np.zeros(0, np.int64)), w), {"max_norm": 1.0})
        for fam, kw in [("padding-too-big", {"padding_idx": 5}),
                        ("padding-too-small", {"padding_idx": -6})]:
            yield Sample(op, fam, (idx, w), kw)
        yield Sample(op, "max-norm-float-index", (A(f32([1.0]), grad=False), w),
                     {"max_norm": 1.0})
        yield Sample(op, "max-norm-out-of-range", (A(np.array([1, 7])), w), {"max_norm": 1.0})
    return gen


def _renorm_samples(op):
    def gen():
        w = rnd(5, 3) * 2
        for fam, args in [("ordinary", (np.array([0, 2, 2]), 1.0, 2.0)),
                          ("p1", (np.array([[1, 4]]), 1.5, 1.0)),
                          ("none-changed", (np.array([1]), 100.0, 2.0)),
                          ("negative-index", (np.array([-1, 0]), 1.0, 2.0)),
                          ("empty", (np.zeros(0, np.int64), 1.0, 2.0))]:
            yield Sample(op, fam, (A(w, grad=False), A(args[0])) + args[1:])
        yield Sample(op, "float64", (A(rnd(4, 2, dtype=np.float64) * 3, grad=False),
                                     A(np.array([0, 3])), 1.0, 2.0))
        yield Sample(op, "float-index", (A(w, grad=False), A(f32([1.0]), grad=False), 1.0, 2.0))
        yield Sample(op, "1-d-weight", (A(w[0], grad=False), A(np.array([0])), 1.0, 2.0))
        yield Sample(op, "out-of-range", (A(w, grad=False), A(np.array([9])), 1.0, 2.0))
        yield Sample(op, "leaf-requires-grad", (A(w, grad=True), A(np.array([0])), 1.0, 2.0))
    return gen


def _embedding_bag_samples(op):
    def gen():
        w = A(rnd(6, 3))
        idx, off = A(np.array([1, 2, 2, 5, 0, 3, 3, 1])), A(np.array([0, 2, 2, 5]))
        for mode in ("sum", "mean", "max"):
            yield Sample(op, "ordinary" if mode == "mean" else mode, (idx, w, off),
                         {"mode": mode})
            yield Sample(op, f"{mode}-padding", (idx, w, off), {"mode": mode, "padding_idx": 2})
            yield Sample(op, f"{mode}-2-d", (A(np.array([[1, 2], [5, 5]])), w), {"mode": mode})
            yield Sample(op, f"{mode}-float64", (idx, A(rnd(6, 3, dtype=np.float64)), off),
                         {"mode": mode})
            yield Sample(op, f"{mode}-float16", (idx, A(rnd(6, 3, dtype=np.float16)), off),
                         {"mode": mode})
            yield Sample(op, f"{mode}-last-offset", (idx, w, A(np.array([0, 2, 2, 5, 8]))),
                         {"mode": mode, "include_last_offset": True})
        yield Sample(op, "max-ties-inf-nan", (A(np.array([0, 1, 2])), A(f32(
            [[1.0, NAN, 2.0], [1.0, 3.0, NAN], [INF, 0.0, -INF]])), A(np.array([0]))),
            {"mode": "max"})
        yield Sample(op, "sum-inf", (A(np.array([0, 1])), A(f32([[INF, 1.0], [-INF, 2.0]])),
                                     A(np.array([0]))), {"mode": "sum"})
        yield Sample(op, "per-sample-weights", (idx, w, off),
                     {"mode": "sum", "per_sample_weights": A(rnd(8))})
        yield Sample(op, "freq", (idx, w, off), {"mode": "sum", "scale_grad_by_freq": True})
        yield Sample(op, "max-norm", (idx, A(rnd(6, 3) * 3), off), {"max_norm": 1.0})
        yield Sample(op, "empty-bags", (A(np.array([1, 1])), w, A(np.array([0, 0, 2, 2]))))
        yield Sample(op, "int32", (A(np.array([1, 2], np.int32)), w,
                                   A(np.array([0, 1], np.int32))))
        for fam, args, kw in [
                ("bad-index", (A(np.array([1, 9])), w, A(np.array([0]))), {"mode": "sum"}),
                ("bad-index-max", (A(np.array([1, 9])), w, A(np.array([0]))), {"mode": "max"}),
                ("bad-first-offset", (idx, w, A(np.array([1]))), {}),
                ("bad-last-offset", (idx, w, A(np.array([0, 9]))), {}),
                ("bad-mode", (idx, w, off), {"mode": "foo"}),
                ("max-freq", (idx, w, off), {"mode": "max", "scale_grad_by_freq": True}),
                ("no-offsets", (idx, w), {}), ("3-d", (A(np.zeros((1, 1, 2), np.int64)), w), {}),
                ("weight-1-d", (idx, A(rnd(6)), off), {}),
                ("bad-padding", (idx, w, off), {"padding_idx": 6}),
                ("psw-mean", (idx, w, off), {"per_sample_weights": A(rnd(8))}),
                ("psw-shape", (idx, w, off), {"mode": "sum", "per_sample_weights": A(rnd(7))}),
                ("float-index", (A(f32([1.0]), grad=False), w, A(np.array([0]))), {})]:
            yield Sample(op, fam, args, kw, msg=80)
    return gen


def _affine_grid_samples(op):
    def gen():
        th = A(rnd(2, 2, 3))
        for align in (False, True):
            yield Sample(op, "ordinary" if not align else "align", (th, (2, 3, 4, 5)),
                         {"align_corners": align}, gradgrad=not align)
            yield Sample(op, f"3-d-{align}", (A(rnd(2, 3, 4)), (2, 1, 2, 3, 4)),
                         {"align_corners": align})
            yield Sample(op, f"unit-size-{align}", (th, (2, 1, 1, 3)), {"align_corners": align})
        yield Sample(op, "float64", (A(rnd(1, 2, 3, dtype=np.float64)), (1, 1, 3, 3)),
                     {"align_corners": False})
        yield Sample(op, "float16", (A(rnd(1, 2, 3, dtype=np.float16)), (1, 1, 3, 3)),
                     {"align_corners": False})
        yield Sample(op, "inf-nan", (A(f32([[[INF, 0.0, 1.0], [NAN, 1.0, 0.0]]])), (1, 1, 2, 2)),
                     {"align_corners": False})
        yield Sample(op, "noncontig", (A(rnd(2, 3, 2), layout="T"), (2, 1, 2, 2)),
                     {"align_corners": True})
        for fam, args in [("int-theta", (A(np.ones((1, 2, 3), np.int64)), (1, 1, 2, 2))),
                          ("wrong-matrix", (A(rnd(1, 3, 4)), (1, 1, 2, 2))),
                          ("wrong-size", (th, (2, 1, 2))),
                          ("empty-size", (th, (2, 1, 0, 2)))]:
            yield Sample(op, fam, args, {"align_corners": False}, msg=60)
    return gen


def _seeded_gumbel(lib, x, **kw):
    """``F.gumbel_softmax`` after seeding both libraries alike (its noise bit for bit)."""
    lib.manual_seed(5)
    return lib.nn.functional.gumbel_softmax(x, **kw)


def _gumbel_samples(op):
    def gen():
        x = A(rnd(3, 4))
        for fam, kw in [("ordinary", {}), ("hard", {"hard": True}), ("tau", {"tau": 0.5}),
                        ("dim0", {"dim": 0}), ("hard-dim0", {"hard": True, "dim": 0})]:
            yield Sample(op, fam, (x,), kw, call=_seeded_gumbel)
        yield Sample(op, "float64", (A(rnd(2, 5, dtype=np.float64)),), {}, call=_seeded_gumbel)
        yield Sample(op, "1-d", (A(rnd(6)),), {"hard": True}, call=_seeded_gumbel)
        yield Sample(op, "ties", (A(np.zeros((2, 3), np.float32)),), {"hard": True},
                     call=_seeded_gumbel)
        yield Sample(op, "inf", (A(f32([[INF, 0.0, 1.0], [-INF, 1.0, 2.0]])),), {},
                     call=_seeded_gumbel)
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)),), {}, call=_seeded_gumbel)
        yield Sample(op, "bad-dim", (x,), {"dim": 2}, call=_seeded_gumbel)
    return gen


def _grid_sample_samples(op):
    def gen():
        x = A(rnd(2, 3, 4, 5))
        g = A(rnd(2, 3, 2, 2) * 1.5)  # inside, on and outside the image
        for mode in ("bilinear", "nearest"):
            for pad in ("zeros", "border", "reflection"):
                for align in (False, True):
                    fam = "ordinary" if (mode, pad, align) == ("bilinear", "zeros", False) else \
                        f"{mode}-{pad}-{'align' if align else 'centres'}"
                    yield Sample(op, fam, (x, g), {"mode": mode, "padding_mode": pad,
                                                   "align_corners": align},
                                 gradgrad=not align and mode == "bilinear")
        for pad in ("zeros", "border", "reflection"):  # task nnextra: bicubic, 5-D
            for align in (False, True):
                yield Sample(op, f"bicubic-{pad}-{'align' if align else 'centres'}", (x, g),
                             {"mode": "bicubic", "padding_mode": pad, "align_corners": align},
                             gradgrad=not align and pad == "zeros")
                for mode in ("bilinear", "nearest"):
                    yield Sample(op, f"5-d-{mode}-{pad}-{'align' if align else 'centres'}",
                                 (A(rnd(2, 2, 3, 4, 3)), A(rnd(2, 2, 3, 2, 3) * 1.5)),
                                 {"mode": mode, "padding_mode": pad, "align_corners": align},
                                 gradgrad=not align and mode == "bilinear" and pad == "zeros")
        yield Sample(op, "5-d-float64", (A(rnd(1, 2, 2, 3, 3, dtype=np.float64)),
                                         A(rnd(1, 2, 1, 2, 3, dtype=np.float64))),
                     {"align_corners": False})
        yield Sample(op, "5-d-float16", (A(rnd(1, 2, 2, 3, 3, dtype=np.float16)),
                                         A(rnd(1, 2, 1, 2, 3, dtype=np.float16) * 0.5)),
                     {"align_corners": False})
        yield Sample(op, "5-d-noncontig", (A(rnd(2, 3, 4, 5, 3), layout="T"),
                                           A(rnd(2, 2, 1, 2, 3))), {"align_corners": True})
        yield Sample(op, "5-d-nan-grid", (A(rnd(1, 1, 2, 2, 3)),
                                          A(f32([[[[[NAN, 0.0, 0.0], [0.0, INF, 0.2]]]]]))),
                     {"align_corners": False})
        yield Sample(op, "5-d-empty-batch", (A(np.zeros((0, 2, 3, 3, 2), np.float32)),
                                             A(np.zeros((0, 2, 2, 2, 3), np.float32))),
                     {"align_corners": False})
        for fam, args, kw in [
                ("5-d-bicubic", (A(rnd(1, 2, 2, 2, 2)), A(rnd(1, 1, 2, 2, 3))),
                 {"mode": "bicubic"}),
                ("5-d-grid-last-dim", (A(rnd(1, 2, 2, 2, 2)), A(rnd(1, 1, 2, 2, 2))), {}),
                ("5-d-batch-mismatch", (A(rnd(1, 2, 2, 2, 2)), A(rnd(2, 1, 2, 2, 3))), {}),
                ("5-d-grid-4-d", (A(rnd(1, 2, 2, 2, 2)), A(rnd(1, 2, 2, 3))), {})]:
            yield Sample(op, fam, args, {"align_corners": False, **kw}, msg=80)
        yield Sample(op, "float64", (A(rnd(1, 2, 3, 3, dtype=np.float64)),
                                     A(rnd(1, 2, 2, 2, dtype=np.float64))),
                     {"align_corners": False})
        yield Sample(op, "noncontig", (A(rnd(2, 3, 5, 4), layout="T"), g),
                     {"align_corners": True})
        yield Sample(op, "inf-nan-input", (A(f32([[[[1.0, INF], [NAN, 2.0]]]])),
                                           A(f32([[[[0.2, -0.3], [-1.0, -1.0]]]]))),
                     {"align_corners": False})
        yield Sample(op, "nan-grid", (A(rnd(1, 1, 2, 3)), A(f32([[[[NAN, 0.0], [0.0, INF]]]]))),
                     {"align_corners": False})
        yield Sample(op, "empty-batch", (A(np.zeros((0, 2, 3, 3), np.float32)),
                                         A(np.zeros((0, 2, 2, 2), np.float32))),
                     {"align_corners": False})
        for fam, args, kw in [
                ("bad-mode", (x, g), {"mode": "foo"}),
                ("bad-padding", (x, g), {"padding_mode": "circular"}),
                ("batch-mismatch", (x, A(rnd(1, 3, 2, 2))), {}),
                ("grid-last-dim", (x, A(rnd(2, 3, 2, 3))), {}),
                ("mixed-dtype", (x, A(rnd(2, 3, 2, 2, dtype=np.float64))), {}),
                ("3-d-input", (A(rnd(2, 3, 4)), A(rnd(2, 3, 1))), {}),
                ("empty-spatial", (A(np.zeros((1, 1, 0, 2), np.float32)),
                                   A(rnd(1, 1, 1, 2))), {})]:
            yield Sample(op, fam, args, {"align_corners": False, **kw}, msg=80)
    return gen


def add_samples(t: dict) -> None:
    t["F:interpolate"] = _interpolate_more("F:interpolate", t["F:interpolate"])
    t["F:embedding"] = _embedding_more("F:embedding", t["F:embedding"])
    t["fn:embedding_renorm_"] = _renorm_samples("fn:embedding_renorm_")
    t["F:embedding_bag"] = _embedding_bag_samples("F:embedding_bag")
    t["F:affine_grid"] = _affine_grid_samples("F:affine_grid")
    t["F:gumbel_softmax"] = _gumbel_samples("F:gumbel_softmax")
    t["F:grid_sample"] = _grid_sample_samples("F:grid_sample")

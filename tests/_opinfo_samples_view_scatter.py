"""OpInfo samples of ``select_scatter``, ``slice_scatter`` and ``diagonal_scatter``
(``minitorch/ops/view_scatter.py``; the functions and the Tensor methods).

``_opinfo_samples._build_table`` calls :func:`add_samples`: every family of ``input`` gets a
``src`` of the shape of the part it replaces (float32, or the family's own values), both with
gradients, and the positions, slices and diagonals that matter (negative, empty, stepped, off
the end), plus PyTorch's errors and the recorded node.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import A, Sample, all_families, f32, rnd
from _opinfo_samples_shape_extra import _call, _gradcheck_named, _graph


def _part_shape(name: str, args: tuple) -> tuple:
    """The shape of what the view of ``args`` looks at in a (3, 4) tensor."""
    x = np.empty((3, 4))
    if name == "select_scatter":
        dim, index = args
        return np.take(x, index, axis=dim).shape
    if name == "slice_scatter":
        dim, start, end, step = (list(args) + [0, None, None, 1][len(args):])
        return x[(slice(None),) * dim + (slice(start, end, step),)].shape
    return x.diagonal(*args).shape


CASES = {
    "select_scatter": ((0, 1), (1, -1), (-1, 3), (0, -3)),
    "slice_scatter": ((), (0, 1), (1, 0, 4, 2), (1, 1, 3), (0, -5, 10), (0, 2, 1), (1, -2),
                      (1, 0, 4, 3)),
    "diagonal_scatter": ((), (1,), (-1,), (-1, 1, 0), (5,), (2, 0, 1)),
}


def scatter_samples(op):
    name = op.split(":")[1]

    def gen():
        for fam, a in all_families():
            if a.arr.ndim != 2:
                continue
            for args in CASES[name]:
                shape = _part_shape(name, args)
                for src_name, src in (("f32", A(rnd(*shape))),
                                      ("own", A(np.resize(a.arr, shape)))):
                    yield Sample(op, f"{fam}-{src_name}-{args}", (a, src, *args),
                                 gradgrad=fam == "ordinary" and src_name == "f32")
        x = A(rnd(3, 4))
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)), A(rnd(*{
            "select_scatter": (2, 4), "slice_scatter": (1, 3, 4),
            "diagonal_scatter": (4, 2)}[name])), *{
            "select_scatter": (1, 0), "slice_scatter": (0, 1, 2),
            "diagonal_scatter": (0, 0, 1)}[name]), gradgrad=True)
        for fam, args in {
            "select_scatter": (("src-shape", (A(rnd(3)), 0, 1)),
                               ("src-0-d", (A(f32(1.0)), 0, 0)),
                               ("index-out-of-range", (A(rnd(4)), 0, 5)),
                               ("dim-out-of-range", (A(rnd(4)), 2, 0))),
            "slice_scatter": (("step-0", (A(rnd(1, 4)), 0, 1, 2, 0)),
                              ("step-negative", (A(rnd(1, 4)), 0, 1, 2, -1)),
                              ("src-shape", (A(rnd(2, 4)), 0, 0, 1))),
            "diagonal_scatter": (("src-shape", (A(rnd(4)),)),
                                 ("same-dims", (A(rnd(3)), 0, 0, 0)),
                                 ("src-short", (A(rnd(2)), -1, 1, 0)))}[name]:
            yield Sample(op, fam, (x, *args))
        yield Sample(op, "src-not-tensor", (x, 1.0, *CASES[name][0]))
        yield Sample(op, "node", (x, A(rnd(*_part_shape(name, CASES[name][0]))),
                                  *CASES[name][0]), call=_graph(_call(op)))
        if name == "slice_scatter":
            yield Sample(op, "keywords", (x, A(rnd(3, 1))), {"dim": 1, "start": -1})
    return gen


KEYS = [f"{style}:{name}" for style in ("fn", "method") for name in CASES]


def add_samples(t: dict) -> None:
    for op in KEYS:
        t[op] = _gradcheck_named(scatter_samples(op))

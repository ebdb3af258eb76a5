"""OpInfo samples of ``logspace``, ``tril_indices``, ``triu_indices`` and ``range``
(``minitorch/_creation.py``): values, dtypes, ``out=`` and PyTorch's errors.

``_opinfo_samples._build_table`` calls :func:`add_samples`. The factories take numbers, so the
families here are the numbers and dtypes that matter: steps of 0, 1, 2 and many, bases below
1, negative (NaN powers) and fractional, exponents that overflow float16, integer dtypes (which
cut the powers), offsets beyond the matrix, and steps that do or do not reach ``end``.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import INF, NAN, A, Sample, _out_call

DTYPES = ("float32", "float64", "float16", "int64", "int32", "uint8")


def logspace_samples(op):
    def gen():
        for args in ((0, 2, 5), (0, 2, 1), (0, 2, 0), (0, 2, 2), (-3, 3, 7), (2, 0, 6),
                     (0.5, 2.25, 4), (-1, 1, 4, -2), (0, 3, 10, 2), (0, 1, 9, 0.5),
                     (1, 5, 100, 2.718281828459045), (0, 10, 11, 10), (30, 40, 3, 10),
                     (0, 1.7, 33, 3), (-2.5, 2.5, 1)):
            for dt in DTYPES:
                yield Sample(op, f"{args}-{dt}", args, {"dtype": dt})
            yield Sample(op, f"{args}", args)
        yield Sample(op, "tensor-ends", (A(np.array(0.5)), A(np.array(2.0))), {"steps": 4})
        yield Sample(op, "keywords", (), {"start": 1, "end": 3, "steps": 3, "base": 2})
        yield Sample(op, "requires_grad", (0, 1, 3), {"requires_grad": True})
        yield Sample(op, "int-requires_grad", (0, 1, 3), {"dtype": "int64",
                                                          "requires_grad": True})
        yield Sample(op, "negative-steps", (0, 1, -1))
        yield Sample(op, "no-steps", (0, 1))
        for fam, out in (("out", np.zeros(5, np.float32)), ("out-float64", np.zeros(5)),
                         ("out-int", np.zeros(5, np.int64)), ("out-resize", np.zeros(2))):
            yield Sample(op, fam, (0, 2, 5), {"out": A(out, False, "own")},
                         call=_out_call("logspace"))
    return gen


def triangle_indices_samples(op):
    def gen():
        for row, col in ((3, 4), (4, 3), (1, 1), (0, 4), (4, 0), (5, 5)):
            for offset in (0, 1, -1, 2, -3, 10, -10):
                yield Sample(op, f"{row}x{col}-{offset}", (row, col, offset))
        for dt in DTYPES + ("bool", "int16", "int8"):
            yield Sample(op, f"dtype-{dt}", (3, 4), {"dtype": dt})
        yield Sample(op, "default-offset", (3, 3))
        yield Sample(op, "keywords", (), {"row": 2, "col": 3, "offset": 1})
        for fam, args in (("negative-row", (-1, 4)), ("negative-col", (3, -4)),
                          ("float-row", (3.0, 4)), ("float-offset", (3, 4, 1.0))):
            yield Sample(op, fam, args)
    return gen


def range_samples(op):
    def gen():
        for args in ((0, 3), (0, 3, 0.5), (3, 0, -1), (0, 1, 0.3), (1, 2, 0.1), (-1, 1, 0.25),
                     (0, 0), (2.5, 7), (0, 10, 3), (0.1, 0.3, 0.1), (0, 5.5, 2)):
            # (an int dtype with a fractional step: PyTorch divides by the step cut to 0, and
            # the process dies of SIGFPE)
            fractional = len(args) == 3 and args[2] != int(args[2])
            for dt in ("float32", "float64") + (() if fractional else ("int64", "int32")):
                yield Sample(op, f"{args}-{dt}", args, {"dtype": dt})
            yield Sample(op, f"{args}", args)
        yield Sample(op, "tensor-ends", (A(np.array(1.0)), A(np.array(3.0))))
        yield Sample(op, "no-end", (5,))
        yield Sample(op, "requires_grad", (0, 2), {"requires_grad": True})
        for fam, args in (("step-0", (0, 3, 0)), ("wrong-sign", (3, 0)),
                          ("wrong-sign-2", (0, 3, -1)), ("inf", (0, INF)), ("nan", (NAN, 1))):
            yield Sample(op, fam, args)
        for fam, out in (("out", np.zeros(4, np.float32)), ("out-int", np.zeros(4, np.int64)),
                         ("out-resize", np.zeros(2))):
            yield Sample(op, fam, (0, 3), {"out": A(out, False, "own")}, call=_out_call("range"))
    return gen


KEYS = ["fn:logspace", "fn:tril_indices", "fn:triu_indices", "fn:range"]


def add_samples(t: dict) -> None:
    t["fn:logspace"] = logspace_samples("fn:logspace")
    for name in ("tril_indices", "triu_indices"):
        t[f"fn:{name}"] = triangle_indices_samples(f"fn:{name}")
    t["fn:range"] = range_samples("fn:range")

"""OpInfo samples of ``ops/elementwise.py``: ``tan``, the hyperbolic functions and their
inverses, ``deg2rad``, ``rad2deg``, ``sinc``, ``erfc``, ``logit``, ``trunc``/``fix``, ``frac``,
``sgn``, ``signbit``, ``positive``, ``atan2``, ``hypot``, ``copysign``, ``logaddexp(2)``,
``xlogy``, ``fmax``, ``fmin``, ``fmod``, ``float_power``, ``ldexp``, ``nextafter``, ``heaviside``,
``gcd``, ``lcm``, ``addcmul``, ``addcdiv``, ``count_nonzero``, the
comparison aliases (``not_equal``, ``greater``, ...) and the in-place forms of PyTorch's aliases
(``arcsin_``, ``multiply_``, ...): the functions, the Tensor methods and the in-place methods.

``_opinfo_samples._build_table`` calls :func:`add_samples`. Besides the usual families, the
values where these functions are special: ``+-1`` for ``atanh`` and ``acosh``, ``0`` and ``1``
for ``logit``, signed zeros and ``(0, 0)`` for the functions of two tensors (where PyTorch
chooses a subgradient), and ties for ``fmax`` and ``fmin``.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import (
    _OUT_ARGS,
    INF,
    NAN,
    A,
    Sample,
    _pairs,
    _scalars,
    all_families,
    f32,
    float_families,
    inplace_samples,
    int_families,
    out_samples,
    rnd,
    unit_families,
)
from _opinfo_samples_pointwise import _chain, _graph, _inplace, edge_families, unary_samples

UNARY = ("tan", "sinh", "cosh", "asinh", "acosh", "atanh", "arcsinh", "arccosh", "arctanh",
         "deg2rad", "rad2deg", "sinc", "erfc", "trunc", "fix", "frac", "sgn", "i0")
# where the ordinary values are moved into the domain (for finite differences)
_DOMAIN = {
    "acosh": lambda x: 1.1 + np.abs(x), "arccosh": lambda x: 1.1 + np.abs(x),
    "atanh": lambda x: 0.9 * np.tanh(x), "arctanh": lambda x: 0.9 * np.tanh(x),
    "logit": lambda x: 0.05 + 0.9 / (1 + np.exp(-x)),
}
BINARY = ("atan2", "arctan2", "hypot", "logaddexp", "logaddexp2", "fmax", "fmin", "copysign",
          "xlogy", "fmod", "float_power", "ldexp", "nextafter", "heaviside", "gcd", "lcm")
_NUMBER_OTHER = ("copysign", "xlogy", "fmod", "float_power")  # the others take only tensors
_NO_INPLACE = ("logaddexp", "logaddexp2", "fmax", "fmin")


def _in_domain(name):
    def families():
        move = _DOMAIN.get(name)
        for fam, a in (*float_families(), *int_families(), *edge_families()):
            if move and fam in ("ordinary", "noncontig", "strided", "float64", "float16"):
                a = A(move(a.arr).astype(a.arr.dtype), layout=a.layout)
            yield fam, a
        yield "ones", A(f32([1.0, -1.0, 0.999, 1.001, 0.0, 1e-8]))
        yield "ones-float64", A(np.array([1.0, -1.0, 1 - 1e-12, 1 + 1e-12, 0.0]))
    return families


# --------------------------------------------------------------------------- logit
def logit_samples(op):
    style, name = op.split(":")
    call = _inplace(name) if name.endswith("_") else None

    def gen():
        for fam, a in _in_domain("logit")():
            yield Sample(op, fam, (a,), gradgrad=fam == "ordinary", call=call)
            yield Sample(op, fam + "-eps", (a,), {"eps": 0.1}, gradgrad=fam == "ordinary",
                         call=call)
        edges = A(f32([0.0, 1.0, 0.05, 0.95, 0.5, -1.0, 2.0, NAN, INF]))
        for eps in (0.0, 0.1, 0.5, 0.7, -1.0, 2.0, NAN, 1e-8, 0):
            yield Sample(op, f"edges-eps{eps}", (edges,), {"eps": eps}, call=call)
        yield Sample(op, "edges-eps-positional", (edges, 0.2), call=call)
        yield Sample(op, "float16-eps", (A(np.array([0.0, 1.0, 0.3], np.float16)),),
                     {"eps": 1e-3}, call=call)
        yield Sample(op, "eps-str", (edges,), {"eps": "a"}, call=call)
        if not name.endswith("_"):
            yield Sample(op, "node", (A(f32([0.2, 0.5])),), {"eps": 0.1}, call=_graph(
                lambda lib, x, **kw: x.logit(**kw) if style == "method" else lib.logit(x, **kw)))
        if style == "fn":
            yield Sample(op, "not-a-tensor", (0.5,))
    return gen


# --------------------------------------------------------------------------- two tensors
def _edge_pairs():
    """Signed zeros, ``(0, 0)``, ties, infinities and NaNs, in each float dtype."""
    a = [0.0, 0.0, -0.0, -0.0, 1.0, -1.0, INF, -INF, INF, NAN, 2.0, 0.0, 1e-30, -2.0, 3.0]
    b = [0.0, -0.0, 0.0, -0.0, 0.0, 0.0, INF, INF, -INF, 1.0, NAN, -1.0, 1e-30, -2.0, -0.5]
    for dt in (np.float32, np.float64, np.float16):
        suffix = "" if dt is np.float32 else "-" + np.dtype(dt).name
        yield "edges" + suffix, A(np.array(a, dt)), A(np.array(b, dt))


def binary_samples(op):
    style, name = op.split(":")
    inplace = name.endswith("_")
    call = _inplace(name) if inplace else None
    base = name.rstrip("_")

    def gen():
        for fam, a, b in (*_pairs(), *_edge_pairs()):
            if base == "xlogy" and fam in ("ordinary", "float64"):  # log needs b > 0
                b = A(np.abs(b.arr) + 0.5)
            if base == "float_power" and fam in ("ordinary", "float64"):  # a real power: a > 0
                a = A(np.abs(a.arr) + 0.5)
            yield Sample(op, fam, (a, b), gradgrad=fam == "ordinary", call=call)
        for fam, a, s in _scalars():
            yield Sample(op, fam, (a, s), call=call)
        yield Sample(op, "ties", (A(f32([1.0, 2.0, -0.0, 0.0])), A(f32([1.0, 3.0, 0.0, -0.0]))),
                     call=call)
        yield Sample(op, "broadcast-grow", (A(rnd(4)), A(rnd(3, 4))), call=call)
        yield Sample(op, "int-zero", (A(np.array([5, -5, 0])), A(np.array([0, 2, 0]))),
                     call=call)
        yield Sample(op, "int-signs", (A(np.array([-4, 0, 6, -9, 12, 7], np.int32)),
                                       A(np.array([6, 0, -4, 0, -18, 7], np.int32))), call=call)
        yield Sample(op, "float64-pair", (A(rnd(3, dtype=np.float64)),
                                          A(rnd(3, low=0.5, dtype=np.float64))), call=call)
        if not inplace:
            yield Sample(op, "node", (A(rnd(3)), A(rnd(3, low=0.5))), call=_graph(
                lambda lib, a, b: getattr(a, name)(b) if style == "method"
                else getattr(lib, name)(a, b)))
            yield Sample(op, "upstream-inf", (A(f32([0.5, 1.0, 2.0])), A(f32([1.5, -1.0, 0.5]))),
                         call=lambda lib, a, b: getattr(lib, base)(a, b) * lib.tensor(INF))
        if base in _NUMBER_OTHER:
            for number in (2.5, -1.0, 0.0, -0.0, 0, -3):
                yield Sample(op, f"number-{number}", (A(f32([0.5, -2.0, 0.0, -0.0, INF, NAN])),
                                                      number), call=call)
            if not inplace:
                yield Sample(op, "node-number", (A(rnd(3)), 2.0), call=_graph(
                    lambda lib, a, b: getattr(a, name)(b) if style == "method"
                    else getattr(lib, name)(a, b)))
        if style == "fn":
            for fam, a, s in _scalars():
                yield Sample(op, "r" + fam, (s, a))
            yield Sample(op, "numbers", (2.0, 3.0))
            yield Sample(op, "str", (A(rnd(3)), "a"), msg=0)
    return gen


def comparison_inplace_samples(op):
    """``x.lt_(other)``...: the families of ``binary_samples``, and the nodes PyTorch records
    (``LtBackward0`` for a number, ``LtBackward1`` for a tensor) with their zero gradients."""
    name = op.split(":")[1]

    def gen():
        yield from binary_samples(op)()
        for fam, other in (("node", A(rnd(3))), ("node-number", 0.5)):
            yield Sample(op, fam, (A(rnd(3)), other), call=_graph(
                lambda lib, a, b: getattr(a * 1, name)(b)))
    return gen


# --------------------------------------------------------------------------- addcmul, addcdiv
def addc_samples(op):
    style, name = op.split(":")
    inplace = name.endswith("_")
    call = _inplace(name) if inplace else None
    divide = name.startswith("addcdiv")

    def away(x):  # a divisor away from 0
        return (np.sign(x) + (x == 0)) * (np.abs(x) + 0.5) if divide else x

    def gen():
        for fam, a in float_families():
            t1 = A(rnd(*a.arr.shape).astype(a.arr.dtype))
            t2 = A(away(rnd(*a.arr.shape)).astype(a.arr.dtype))
            yield Sample(op, fam, (a, t1, t2), gradgrad=fam == "ordinary", call=call)
            yield Sample(op, fam + "-value", (a, t1, t2), {"value": -0.25},
                         gradgrad=fam == "ordinary", call=call)
        x, t1, t2 = A(rnd(3, 4)), A(rnd(3, 4)), A(away(rnd(3, 4)))
        for value in (0, 1, 2, 0.1, -1e-3, 1e30, INF, NAN, True):
            yield Sample(op, f"value-{value}", (x, t1, t2), {"value": value}, call=call)
        yield Sample(op, "value-str", (x, t1, t2), {"value": "a"}, call=call, msg=0)
        yield Sample(op, "broadcast", (A(rnd(3, 1)), A(rnd(4)), A(away(rnd(3, 4)))), call=call)
        yield Sample(op, "broadcast-t1", (A(rnd(3, 4)), A(rnd(3, 1)), A(away(rnd(1, 4)))),
                     call=call)
        yield Sample(op, "broadcast-grow", (A(rnd(4)), A(rnd(3, 4)), A(away(rnd(4)))),
                     call=call)
        yield Sample(op, "mismatch-t1-t2", (A(rnd(3)), A(rnd(3)), A(away(rnd(4)))), call=call)
        yield Sample(op, "mismatch-input", (A(rnd(4)), A(rnd(3)), A(away(rnd(3)))), call=call)
        yield Sample(op, "empty", (A(np.zeros((0, 3), np.float32)), A(rnd(3)), A(away(rnd(3)))),
                     call=call)
        yield Sample(op, "0-d", (A(f32(1.5)), A(f32(2.0)), A(f32(-4.0))), call=call)
        yield Sample(op, "inf-nan", (A(f32([INF, 1.0, NAN, 0.0])), A(f32([1.0, INF, 2.0, 0.0])),
                                     A(f32([2.0, 0.0, 1.0, -INF]))), call=call)
        yield Sample(op, "mixed-dtype", (A(rnd(3)), A(rnd(3, dtype=np.float64)),
                                         A(away(rnd(3)))), call=call)
        yield Sample(op, "float16-value", (A(rnd(3, dtype=np.float16)),
                                           A(rnd(3, dtype=np.float16)),
                                           A(away(rnd(3)).astype(np.float16))), {"value": 1e-4},
                     call=call)
        ints = A(np.array([3, -2, 7])), A(np.array([2, 5, -1])), A(np.array([4, 1, 2]))
        yield Sample(op, "int", ints, {"value": 2}, call=call)
        yield Sample(op, "int-value-float", ints, {"value": 0.5}, call=call)
        yield Sample(op, "int-float", (ints[0], A(f32([0.5, 1.5, 2.0])), ints[2]), call=call)
        bools = A(np.array([True, False])), A(np.array([True, True])), A(np.array([True, False]))
        yield Sample(op, "bool", bools, call=call)
        yield Sample(op, "not-a-tensor", (A(rnd(3)), 2.0, A(rnd(3))), call=call, msg=0)
        if not inplace:
            yield Sample(op, "node", (A(rnd(3)), A(rnd(3)), A(away(rnd(3)))), {"value": 0.5},
                         call=_graph(lambda lib, a, *t, **kw: getattr(a, name)(*t, **kw)
                                     if style == "method" else getattr(lib, name)(a, *t, **kw)))
    return gen


# --------------------------------------------------------------------------- count_nonzero
def count_nonzero_samples(op):
    def gen():
        for fam, a in (*all_families(), *edge_families(), ("3-d", A(rnd(2, 3, 4) > 0))):
            dims = (None, 0, -1, (0, 1), (), [1, 0]) if a.arr.ndim >= 2 else (None, 0, -1)
            for dim in dims:
                yield Sample(op, f"{fam}-dim{dim}", (a,), {} if dim is None else {"dim": dim})
        yield Sample(op, "positional-dim", (A(rnd(3, 4)), 1))
        yield Sample(op, "dim-out-of-range", (A(rnd(3, 4)), 2))
        yield Sample(op, "dim-repeated", (A(rnd(3, 4)),), {"dim": (0, 0)})
        yield Sample(op, "0-d-dim1", (A(f32(0.0)),), {"dim": 1})
    return gen


def add_samples(t: dict) -> None:
    for name in UNARY:
        for op in (f"fn:{name}", f"method:{name}", f"method:{name}_"):
            t[op] = unary_samples(op, _in_domain(name))
        _OUT_ARGS[name] = lambda: ((A(rnd(3, low=1.1), grad=False),), (3,))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for op in ("fn:logit", "method:logit", "method:logit_"):
        t[op] = logit_samples(op)
    _OUT_ARGS["logit"] = lambda: ((A(rnd(3, low=-0.5) / 3, grad=False),), (3,))
    t["fn:logit"] = _chain(t["fn:logit"], out_samples("logit"))
    for name in ("signbit", "positive"):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = unary_samples(
                f"{style}:{name}", lambda: (*all_families(), *edge_families()), grad=False)
    _OUT_ARGS["signbit"] = lambda: ((A(f32([-1.0, 0.0, -0.0]), grad=False),), (3,))
    t["fn:signbit"] = _chain(t["fn:signbit"], out_samples("signbit"))
    for name in BINARY:
        ops = [f"fn:{name}", f"method:{name}"] + ([] if name in _NO_INPLACE else
                                                   [f"method:{name}_"])
        for op in ops:
            t[op] = binary_samples(op)
        _OUT_ARGS[name] = (
            (lambda: ((A(np.array([4, 6, -9]), grad=False), A(np.array([6, 4, 3]), grad=False)),
                      (3,))) if name in ("gcd", "lcm") else
            (lambda: ((A(rnd(3), grad=False), A(rnd(3, low=0.5), grad=False)), (3,))))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for name in ("addcmul", "addcdiv"):
        for op in (f"fn:{name}", f"method:{name}", f"method:{name}_"):
            t[op] = addc_samples(op)
        _OUT_ARGS[name] = lambda: ((A(rnd(3), grad=False), A(rnd(3), grad=False),
                                    A(rnd(3, low=0.5), grad=False)), (3,))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for style in ("fn", "method"):
        t[f"{style}:count_nonzero"] = count_nonzero_samples(f"{style}:count_nonzero")
    for name in ("not_equal", "greater", "greater_equal", "less", "less_equal"):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = lambda op=f"{style}:{name}": (
                Sample(op, fam, (a, b)) for fam, a, b in (*_pairs(), *_edge_pairs()))
    for name in ("eq", "ne", "lt", "le", "gt", "ge", "not_equal", "greater", "greater_equal",
                 "less", "less_equal"):
        t[f"method:{name}_"] = comparison_inplace_samples(f"method:{name}_")
    for name in ("arcsin_", "arccos_", "arctan_", "sign_"):
        families = unit_families if name in ("arcsin_", "arccos_") else all_families
        t[f"method:{name}"] = unary_samples(
            f"method:{name}", lambda families=families: (*families(), *edge_families()))
    for name, arg in (("multiply_", 2.0), ("divide_", 2.0), ("true_divide_", 2.0),
                      ("subtract_", 1.0), ("floor_divide_", 2.0), ("remainder_", 2.0),
                      ("negative_", None)):
        t[f"method:{name}"] = inplace_samples(f"method:{name}", () if arg is None else (arg,))

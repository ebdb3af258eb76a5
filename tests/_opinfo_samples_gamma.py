"""OpInfo samples of ``ops/gamma.py`` and ``ops/incomplete_gamma.py``: ``lgamma``, ``digamma``,
``polygamma``, ``erfinv``, ``mvlgamma``, ``igamma`` and ``igammac``, as functions (with
``out=``), Tensor methods and in-place methods; and the window functions (``ops/windows.py``).

Besides the usual families, the values where these functions are special: the poles ``0, -0,
-1, -2``, negative non-integers, the root of ``digamma`` near 1.46, 10 (where ``digamma``
switches to its series), large values, and for ``erfinv`` ``+-1`` and values just inside.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import _OUT_ARGS, INF, NAN, A, Sample, f32, out_samples, rnd, unit_families
from _opinfo_samples_pointwise import _chain, _graph, _inplace, edge_families, unary_samples

_GAMMA_VALUES = [0.0, -0.0, -1.0, -2.0, -2.5, -0.3, -7.1, 1.0, 2.0, 1.4616321449683622, 0.5,
                 1e-8, 3.7, 10.0, 9.999999, 25.3, 1e5, 1e17, 1e300, INF, -INF, NAN, -150.25]
_ERFINV_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.7, 0.7, 0.70001, 0.9999999, -0.999999, 1e-300,
                  1.5, -2.0, INF, NAN, 0.3, 0.99]


def _gamma_edges(values):
    def families():
        for dt in (np.float64, np.float32, np.float16):
            with np.errstate(over="ignore"):
                yield f"gamma-edges-{np.dtype(dt).name}", A(np.array(values, dt))
    return families


def _families(name):
    from _opinfo_samples import float_families, int_families

    def families():
        if name == "erfinv":
            yield from unit_families()
            yield from int_families()
            yield from edge_families()
            yield from _gamma_edges(_ERFINV_VALUES)()
            return
        for fam, a in float_families():
            if fam in ("ordinary", "noncontig", "strided", "float64", "float16"):
                a = A((np.abs(a.arr) + 0.5).astype(a.arr.dtype), layout=a.layout)
            yield fam, a
        yield from int_families()
        yield from edge_families()
        yield from _gamma_edges(_GAMMA_VALUES)()
    return families


def polygamma_samples(op):
    style, name = op.split(":")
    inplace = name.endswith("_")

    def call(lib, x, n, **kw):
        if style == "fn":
            return lib.polygamma(n, x, **kw)
        return getattr(x, name)(n)

    def gen():
        for n in (0, 1, 2, 3, 5):
            for fam, a in _families("polygamma")():
                yield Sample(op, f"{fam}-n{n}", (a, n), gradgrad=fam == "ordinary",
                             call=_inplace(name) if inplace else call)
        for n in (-1, 1.5, True):
            yield Sample(op, f"n-{n}", (A(rnd(3)), n), call=call)
        if not inplace:
            yield Sample(op, "node", (A(rnd(3, low=0.5)), 2), call=_graph(call))
        if style == "fn":
            yield Sample(op, "not-a-tensor", (1.5, 1), call=call)
    return gen


def mvlgamma_samples(op):
    style, name = op.split(":")
    inplace = name.endswith("_")

    def call(lib, x, p, **kw):
        if style == "fn":
            return lib.mvlgamma(x, p, **kw)
        if inplace:
            x = x.clone()
        return getattr(x, name)(p)

    def gen():
        for p in (1, 2, 3, 5):
            for fam, a in _families("mvlgamma")():
                if fam in ("ordinary", "noncontig", "strided", "float64", "float16"):
                    a = A((a.arr + p).astype(a.arr.dtype), layout=a.layout)
                yield Sample(op, f"{fam}-p{p}", (a, p), gradgrad=fam == "ordinary", call=call)
        for p in (0, -1, 1.5, True):
            yield Sample(op, f"p-{p}", (A(rnd(3, low=3.0)), p), call=call)
        yield Sample(op, "bool", (A(np.array([True, False])), 1), call=call)
        yield Sample(op, "below-domain", (A(f32([0.1, -5.0, 0.5])), 3), call=call)
        if not inplace:
            yield Sample(op, "node", (A(rnd(3, low=3.0)), 2), call=_graph(call))
    return gen


def add_samples(t: dict) -> None:
    for name in ("lgamma", "digamma", "erfinv"):
        for op in (f"fn:{name}", f"method:{name}", f"method:{name}_"):
            t[op] = unary_samples(op, _families(name))
        _OUT_ARGS[name] = lambda: ((A(rnd(3, low=0.1) / 4, grad=False),), (3,))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))
    for op in ("fn:polygamma", "method:polygamma", "method:polygamma_"):
        t[op] = polygamma_samples(op)
    for op in ("fn:mvlgamma", "method:mvlgamma", "method:mvlgamma_"):
        t[op] = mvlgamma_samples(op)
    add_igamma_samples(t)
    add_window_samples(t)


# --------------------------------------------------------------------------- igamma, igammac
_IGAMMA_EDGES = (
    [0.0, 0.0, 1.0, 2.0, INF, INF, NAN, 1.0, -1.0, 0.5, 25.0, 25.0, 250.0, 250.0, 1e-30, 5.0,
     1e4, 0.01],
    [0.0, 1.0, 0.0, INF, INF, 1.0, 1.0, NAN, 1.0, -0.5, 24.0, 26.5, 255.0, 240.0, 1e-30, 1e30,
     1e4 + 50, 0.3],
)


def igamma_samples(op):
    """``igamma(a, x)``: the pairs of ``_pairs`` (the ordinary ones moved to ``a, x > 0``), the
    edges of each of its four methods, a gradient of ``x`` alone (second derivatives), and
    ``a`` requiring grad, where PyTorch's backward raises."""
    from _opinfo_samples import _pairs

    style, name = op.split(":")
    inplace = name.endswith("_")
    call = _inplace(name) if inplace else None

    def positive(arg):
        return A((np.abs(arg.arr) + 0.1).astype(arg.arr.dtype), arg.grad, arg.layout)

    def gen():
        for fam, a, x in _pairs():
            if fam in ("ordinary", "broadcast", "noncontig", "strided", "float64", "float16",
                       "f16-f64", "0-d"):
                a, x = positive(a), positive(x)
            yield Sample(op, fam, (A(a.arr, False, a.layout), x), gradgrad=fam == "ordinary",
                         call=call)
        yield Sample(op, "grad-input", (A(rnd(3, low=0.5)), A(rnd(3, low=0.5))), call=call)
        for dt in (np.float32, np.float64, np.float16):
            with np.errstate(over="ignore"):
                a, x = (A(np.array(v, dt), False) for v in _IGAMMA_EDGES)
            yield Sample(op, f"edges-{np.dtype(dt).name}", (a, x), call=call)
        if not inplace:
            yield Sample(op, "node", (A(rnd(3, low=0.5), False), A(rnd(3, low=0.5))),
                         call=_graph(lambda lib, a, x: getattr(a, name)(x) if style == "method"
                                     else getattr(lib, name)(a, x)))
        if style == "fn":
            yield Sample(op, "number", (A(rnd(3, low=0.5)), 2.0))
            yield Sample(op, "rnumber", (2.0, A(rnd(3, low=0.5))))
    return gen


def add_igamma_samples(t: dict) -> None:
    for name in ("igamma", "igammac"):
        for op in (f"fn:{name}", f"method:{name}", f"method:{name}_"):
            t[op] = igamma_samples(op)
        _OUT_ARGS[name] = lambda: ((A(rnd(3, low=0.5), grad=False),
                                    A(rnd(3, low=0.5), grad=False)), (3,))
        t[f"fn:{name}"] = _chain(t[f"fn:{name}"], out_samples(name))


# --------------------------------------------------------------------------- window functions
WINDOWS = ("bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window")


def window_samples(op):
    """Lengths 0, 1, 2 and more, periodic or symmetric, in float32, float64 and float16 (where
    PyTorch's kernels round each step), ``requires_grad``, and PyTorch's errors (a negative
    length, an integer dtype, a float length, a non-bool ``periodic``)."""
    name = op.split(":")[1]

    def gen():
        for n in (0, 1, 2, 3, 5, 8, 33, 100):
            for periodic in (True, False):
                for dt in ("float32", "float64", "float16"):
                    yield Sample(op, f"{n}-{periodic}-{dt}", (n, periodic), {"dtype": dt})
            yield Sample(op, f"{n}-default", (n,))
        if name == "hamming_window":
            for extra in ((0.5,), (0.5, 0.3), (1, 2)):
                yield Sample(op, f"alpha-beta-{extra}", (9, True, *extra))
        if name == "kaiser_window":
            for beta in (0.0, 5.0, 30.0, 1):
                yield Sample(op, f"beta-{beta}", (9, False, beta))
                yield Sample(op, f"beta-{beta}-float64", (9, True, beta), {"dtype": "float64"})
        yield Sample(op, "requires_grad", (4,), {"requires_grad": True})
        yield Sample(op, "keyword-periodic", (4,), {"periodic": False})
        for fam, args, kwargs in (("negative", (-1,), {}), ("int-dtype", (3,), {"dtype": "int64"}),
                                  ("uint8-requires-grad", (3,), {"dtype": "uint8",
                                                                 "requires_grad": True}),
                                  ("float-length", (3.0,), {}), ("bool-length", (True,), {}),
                                  ("int-periodic", (3, 1), {}), ("str-extra", (3, True, "a"), {})):
            yield Sample(op, fam, args, kwargs)
        # misc: PyTorch's parser (the dtype checked before the length, keywords named in the
        # errors, a number only after the arguments before it, a bool as a float)
        for fam, args, kwargs in (("negative-int-dtype", (-1,), {"dtype": "int64"}),
                                  ("keyword-int-periodic", (3,), {"periodic": 1}),
                                  ("unknown-keyword", (3,), {"foo": 1}),
                                  ("length-twice", (3,), {"window_length": 3}),
                                  ("keyword-length", (), {"window_length": 4, "periodic": False}),
                                  ("no-length", (), {"periodic": False})):
            yield Sample(op, fam, args, kwargs)
        if name in ("hamming_window", "kaiser_window"):
            for fam, args, kwargs in (("number-without-periodic", (5,), {"beta": 3.0}),
                                      ("number-bool", (5, False), {"beta": True}),
                                      ("number-none", (5, True), {"beta": None}),
                                      ("keywords-reversed", (5,),
                                       {"beta": 0.3, "dtype": "float64", "requires_grad": True}),
                                      ("all-keywords", (), {"window_length": 6, "periodic": False,
                                                            "beta": 2.0, "dtype": "float64"})):
                yield Sample(op, fam, args, kwargs)
        if name == "hamming_window":
            yield Sample(op, "beta-without-alpha", (5, True), {"beta": 0.3})
            yield Sample(op, "alpha-keyword", (5, True), {"alpha": 0.5})
    return gen


def add_window_samples(t: dict) -> None:
    for name in WINDOWS:
        t[f"fn:{name}"] = window_samples(f"fn:{name}")

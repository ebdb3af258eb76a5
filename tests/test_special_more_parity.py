"""``minitorch.special``'s ``i0e``, ``i1``, ``i1e``, ``erfcx``, ``log_ndtr``, ``ndtri``, ``zeta``,
the Bessel functions and the orthogonal polynomials against ``torch.special``: values over wide
sweeps in each dtype (PyTorch has no float16 kernel of ``erfcx``, ``log_ndtr``, ``ndtri``,
``zeta``, the Bessel functions and the polynomials: its error), integer and bool inputs, nodes,
gradients and second derivatives (gradcheck/gradgradcheck in float64, and the values against
PyTorch's), the missing derivatives, and the errors of the argument checks.

Left out of the float16 sweep: ``i0e``, whose float16 value PyTorch computes in float16 steps in
its scalar loop (the tail of an array) and in float32 in its vectorized one, so two equal inputs
can round differently.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch
from minitorch.autograd.gradcheck import gradcheck, gradgradcheck
from tests._oracle import graph_signature

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

UNARY = ["i0e", "i1", "i1e", "erfcx", "log_ndtr", "ndtri"]
_EDGES = [0.0, -0.0, 1.0, -1.0, 8.0, -8.0, 8.000001, 25.0, -25.0, 26.0, -26.6, 1e-300, 700.0,
          710.0, -710.0, 1e5, -1e5, 1e300, -1e300, np.inf, -np.inf, np.nan, 0.5, -0.5, 1e-8,
          30.0, -30.0, -5.0, -38.0, 5.0]
_UNIT = [0.0, 1.0, -0.0, 0.5, 1e-300, 1 - 1e-16, 0.135, 0.1353352832366127, 0.8646647167633873,
         1.5, -0.5, np.nan, np.inf, 1e-20, 1e-15, 1 - 1e-10]


def _data(name):
    rng = np.random.default_rng(11)
    if name == "ndtri":
        return np.concatenate([_UNIT, rng.uniform(0, 1, 1000), 10 ** rng.uniform(-300, 0, 300),
                               1 - 10 ** rng.uniform(-16, 0, 300)])
    data = np.concatenate([_EDGES, rng.standard_normal(600) * 10, 10 ** rng.uniform(-10, 3, 300),
                           -(10 ** rng.uniform(-10, 3, 300))])
    return data[np.abs(data) < 2000] if name == "i1" else data  # torch's i1: inf past 713


def _result(lib, fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # out='s resize warning (both give it)
        warnings.simplefilter("error", RuntimeWarning)  # no NumPy warning reaches the user
        try:
            return fn(lib, *args)
        except (NotImplementedError, TypeError, RuntimeError) as e:
            return type(e).__name__, str(e)


def _same(mine, ref):
    if isinstance(ref, tuple):
        assert mine == ref
        return
    assert not isinstance(mine, tuple), mine
    assert str(mine.dtype) == str(ref.dtype)
    torch.testing.assert_close(torch.from_numpy(mine.detach().numpy().copy()), ref.detach(),
                               equal_nan=True)


@pytest.mark.parametrize("name,dtype", [
    (name, dtype) for name in UNARY for dtype in ("float64", "float32", "float16", "int64", "bool")
    # (PyTorch's float16 i0e depends on an element's place in the array)
    if not (name == "i0e" and dtype == "float16")])
def test_values_match_torch(name, dtype):
    data = _data(name)
    if dtype in ("int64", "bool"):
        data = np.array([0, 1, 2, -3, 7]) if dtype == "int64" else np.array([True, False])
    with np.errstate(over="ignore"):
        data = data.astype(dtype)

    def call(lib, x):
        return getattr(lib.special, name)(lib.tensor(x))
    _same(_result(minitorch, call, data), _result(torch, call, data))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64"])
def test_zeta_values_match_torch(dtype):
    rng = np.random.default_rng(5)
    x = np.concatenate([[1, 1.5, 2, 3, 0.5, -1, np.inf, np.nan, 2, 2, 2, 2, 4, 5, 6, 3],
                        rng.uniform(1, 20, 500)])
    q = np.concatenate([[1, 1, 1, 1, 1, 1, 1, 1, 0, -1, -1.5, np.inf, -2.5, 1e-8, 100, -150.5],
                        10 ** rng.uniform(-3, 3, 500)])
    if dtype == "int64":
        x, q = np.array([2, 3, 1, 0, 4]), np.array([1, 2, 3, 1, -2])
    x, q = x.astype(dtype), q.astype(dtype)

    def call(lib, a, b):
        return lib.special.zeta(lib.tensor(a), lib.tensor(b))
    _same(_result(minitorch, call, x, q), _result(torch, call, x, q))
    for number in (2.0, 3):  # zeta(number, tensor) and zeta(tensor, number)
        def number_self(lib, n=number):
            return lib.special.zeta(n, lib.tensor(np.abs(q)))

        def number_other(lib, n=number):
            return lib.special.zeta(lib.tensor(x), n)
        for fn in (number_self, number_other):
            _same(_result(minitorch, fn), _result(torch, fn))


GRAD = {
    "i0e": ([0.5, -1.3, 9.0, -12.0, 0.3], lambda lib, t: lib.special.i0e(t)),
    "i1": ([0.5, -1.3, 9.0, -12.0, 1e-20], lambda lib, t: lib.special.i1(t)),
    "i1e": ([0.5, -1.3, 9.0, -12.0, 1e-20], lambda lib, t: lib.special.i1e(t)),
    "erfcx": ([0.5, -1.3, 9.0, -2.0, 30.0], lambda lib, t: lib.special.erfcx(t)),
    "log_ndtr": ([0.5, -1.3, 9.0, -12.0, 3.0], lambda lib, t: lib.special.log_ndtr(t)),
    "ndtri": ([0.5, 0.1, 0.9, 1e-2, 0.99], lambda lib, t: lib.special.ndtri(t)),
    "zeta-q": ([0.5, 1.3, 9.0, 2.5], lambda lib, t: lib.special.zeta(
        lib.tensor([2.0, 3.0, 4.5, 2.0], dtype=lib.float64), t)),
    "zeta-number-x": ([0.5, 1.3, 9.0], lambda lib, t: lib.special.zeta(3.0, t)),
}


@pytest.mark.parametrize("name", list(GRAD))
def test_gradients(name):
    data, fn = GRAD[name]
    x = minitorch.tensor(data, dtype=minitorch.float64, requires_grad=True)
    assert gradcheck(lambda t: fn(minitorch, t), (x,))
    assert gradgradcheck(lambda t: fn(minitorch, t), (x,))
    results = []
    for lib in (minitorch, torch):
        t = lib.tensor(data, dtype=lib.float64, requires_grad=True)
        y = fn(lib, t)
        (g,) = lib.autograd.grad(y.sum(), t, create_graph=True)
        (g2,) = lib.autograd.grad(g.sum(), t)
        results.append((y, g, g2, type(y.grad_fn).__name__))
    for mine, ref in zip(results[0][:3], results[1][:3]):
        _same(mine, ref)
    assert results[0][3] == results[1][3]


ERRORS = {
    "i0e-number": lambda lib: lib.special.i0e(1.0),
    "ndtri-out-int": lambda lib: lib.special.ndtri(lib.tensor([0.5]),
                                                    out=lib.zeros(1, dtype=lib.long)),
    "zeta-numbers": lambda lib: lib.special.zeta(2.0, 3.0),
    "zeta-str": lambda lib: lib.special.zeta(lib.tensor([2.0]), "a"),
    "zeta-backward-x": lambda lib: lib.special.zeta(
        lib.tensor([2.0], requires_grad=True), lib.tensor([1.5])).sum().backward(),
    "zeta-backward-x-number": lambda lib: lib.special.zeta(
        lib.tensor([2.0], requires_grad=True), 1.5).sum().backward(),
    "zeta-shapes": lambda lib: lib.special.zeta(lib.ones(2), lib.ones(3)),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(case):
    def run(lib):
        try:
            ERRORS[case](lib)
        except Exception as e:
            return type(e).__name__, str(e)
        return None
    expected = run(torch)
    assert expected is not None
    assert run(minitorch) == expected


def test_zeta_graph():
    sigs = []
    for lib in (minitorch, torch):
        q = lib.tensor([1.5, 2.0], requires_grad=True)
        y = lib.special.zeta(lib.tensor([2.0, 3.0]), q)
        (g,) = lib.autograd.grad(y.sum(), q, create_graph=True)
        sigs.append((graph_signature(y), graph_signature(g),
                     graph_signature(lib.special.zeta(2.0, q)),
                     graph_signature(lib.special.zeta(q, 2.0))))
    assert sigs[0] == sigs[1]


@pytest.mark.parametrize("name", ["erf", "erfc"])
def test_erf_erfc_of_huge_values(name):
    """``erfc`` (and ``log_ndtr`` through it) underflows to 0 past 27.3; Cephes' rational tail
    overflowed to NaN from about 1e200 on."""
    data = np.array([1e200, -1e200, 1e300, -1e300, 27.2, 27.3, -27.3, 1e30])
    for dtype in ("float64", "float32"):
        with np.errstate(over="ignore"):
            x = data.astype(dtype)
        _same(getattr(minitorch, name)(minitorch.tensor(x)), getattr(torch, name)(torch.tensor(x)))


# ---------------------------------------------------------------- orthogonal polynomials
POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
               "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t",
               "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]
_POLY_X = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -3.0, 1e-20, 1 - 1e-16, -1 + 1e-16, 0.9999999,
           np.inf, -np.inf, 0.25, 0.75, 1.5, 10.0, -10.0, 1e-9, 0.999]
_POLY_N = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20, 50, 129, 130, 600, np.nan, np.inf,
           -np.inf, 2.7, -0.5]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_values_match_torch(name, dtype):
    """Every branch of PyTorch's kernels: the ends +-1 (0 and 1 for the shifted ones), the
    trigonometric form of a high degree, the recurrence, overflow, the degree's casts (NaN, inf,
    2.7) and Hermite's NaN past degree 128 (float32) or 512 (float64). float32 is computed in
    float32 with the fused multiply-add of PyTorch's compiled recurrence. (A NaN ``x`` of degree
    2 and up is left out: PyTorch returns an uninitialized value there for most of them; and
    float32's trigonometric form of degree 50 and up amplifies its libm's last bit.)"""
    rng = np.random.default_rng(2)
    x, n = np.meshgrid(np.concatenate([_POLY_X, rng.uniform(-1.2, 1.2, 25)]), _POLY_N)
    if dtype == "float32":
        keep = ~np.isin(n, (50, 129, 130, 600))
        x, n = x[keep], n[keep]
    x, n = x.astype(dtype), n.astype(dtype)

    def call(lib, a, b):
        return getattr(lib.special, name)(lib.tensor(a), lib.tensor(b))
    _same(_result(minitorch, call, x, n), _result(torch, call, x, n))


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_arguments_match_torch(name):
    cases = [
        lambda lib: getattr(lib.special, name)(2.0, lib.tensor([3.0, 4.0])),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.3, 0.6]), 3),
        lambda lib: getattr(lib.special, name)(lib.tensor([1, 2]), lib.tensor([2, 3])),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5], dtype=lib.float64),
                                               lib.tensor([3])),
        lambda lib: getattr(lib.special, name)(lib.tensor([[0.5], [2.0]]), lib.tensor([1, 2, 3])),
        lambda lib: getattr(lib.special, name)(lib.tensor([True, False]), 2),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5], dtype=lib.float16), 3),
        lambda lib: getattr(lib.special, name)(2.0, 3),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5]), "a"),
        lambda lib: getattr(lib.special, name)(lib.ones(2), lib.ones(3)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5]), 2,
                                               out=lib.zeros(1, dtype=lib.long)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5]), 2, out=lib.zeros(3)),
        # no derivative: the result of an input that requires grad does not require it
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5, 2.0], requires_grad=True),
                                               lib.tensor([2.0, 3.0], requires_grad=True)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5], requires_grad=True), 2,
                                               out=lib.zeros(1)),
    ]
    for case in cases:
        mine, ref = _result(minitorch, case), _result(torch, case)
        _same(mine, ref)
        if not isinstance(ref, tuple):
            assert mine.requires_grad is ref.requires_grad is False
            assert mine.grad_fn is None


# ---------------------------------------------------------------- Bessel functions
BESSEL = ["airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
          "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
          "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"]


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int64", "bool"])
@pytest.mark.parametrize("name", BESSEL)
def test_bessel_values_match_torch(name, dtype):
    data = _data("i0e")
    if dtype in ("int64", "bool"):
        data = np.array([0, 1, 2, -3, 7]) if dtype == "int64" else np.array([True, False])
    with np.errstate(over="ignore"):
        data = data.astype(dtype)

    def call(lib, x):
        return getattr(lib.special, name)(lib.tensor(x))
    _same(_result(minitorch, call, data), _result(torch, call, data))


@pytest.mark.parametrize("name", BESSEL)
def test_bessel_arguments_match_torch(name):
    cases = [
        lambda lib: getattr(lib.special, name)(1.0),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5]),
                                               out=lib.zeros(1, dtype=lib.long)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5]),
                                               out=lib.zeros(1, dtype=lib.float64)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5, 2.0], requires_grad=True)),
        lambda lib: getattr(lib.special, name)(lib.tensor([0.5], requires_grad=True),
                                               out=lib.zeros(1)),
    ]
    for case in cases:
        mine, ref = _result(minitorch, case), _result(torch, case)
        _same(mine, ref)
        if not isinstance(ref, tuple):
            assert mine.requires_grad is ref.requires_grad is False


# misc2: i1, i1e and modified_bessel_i1 in float32 compute as PyTorch's float32 kernels
# (Cephes' float tables, fused steps, expf): nearly every value the same bits
def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The distance in float32 units in the last place (0 where both are equal or NaN)."""
    ia, ib = (v.astype(np.float32).view(np.int32).astype(np.int64) for v in (a, b))
    ia, ib = (np.where(i < 0, -(i & 0x7FFFFFFF), i) for i in (ia, ib))
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    return np.where(same, 0, np.abs(ia - ib))


@pytest.mark.parametrize("name", ["i1", "i1e", "modified_bessel_i1"])
def test_float32_bessel_i1_to_the_bit_like_torch(name):
    rng = np.random.default_rng(5)
    x = np.concatenate([_EDGES, rng.uniform(-95, 95, 20000), rng.uniform(-9, 9, 20000),
                        np.linspace(-10, 10, 20001), rng.uniform(-1e-3, 1e-3, 500)])
    with np.errstate(over="ignore"):
        x = x.astype(np.float32)
    mine = getattr(minitorch.special, name)(minitorch.tensor(x)).numpy()
    ref = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    assert mine.dtype == ref.dtype == np.float32
    ulps = _ulps(mine, ref)
    assert ulps.max() <= 3
    assert (ulps > 0).mean() < 0.002  # (the old float64-then-round path: about 40%)

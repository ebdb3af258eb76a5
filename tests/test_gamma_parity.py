"""The gamma family (``lgamma``, ``digamma``, ``polygamma``, ``mvlgamma``, ``igamma``,
``igammac``) and ``erfinv`` against PyTorch: values over wide random sweeps in float64, float32
and float16 (within ``assert_close``'s default tolerances), ``minitorch.special``'s names for
them (``gammaln``, ``digamma``, ``psi``, ``polygamma``, ``erfinv``, ``multigammaln``,
``gammainc``, ``gammaincc``) with their ``out=``, graphs and errors, and gradients and second
derivatives checked by finite differences in float64. The op table
(tests/_opinfo_samples_gamma.py) covers the edge families.

Where minitorch cannot agree (``polygamma`` of an even order ``n`` at a half-integer far below
0, where PyTorch returns the rounding residue of ``|x|`` additions) the sweeps stay out.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch
from minitorch.autograd.gradcheck import gradcheck, gradgradcheck
from tests._oracle import graph_signature

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

DTYPES = [np.float64, np.float32, np.float16]


def _sweep(dtype, erfinv=False):
    rng = np.random.default_rng(7)
    if erfinv:
        y = np.concatenate([rng.uniform(-1, 1, 2000), 1 - 10 ** rng.uniform(-10, 0, 500),
                            -1 + 10 ** rng.uniform(-10, 0, 500), [1.0, -1.0, 0.0, -0.0]])
    else:
        y = np.concatenate([rng.uniform(-30, 30, 2000), rng.standard_normal(500) * 3,
                            10 ** rng.uniform(-10, 10, 500), -np.arange(0, 20) * 1.0,
                            -np.arange(0, 20) - 0.5, -rng.uniform(0, 900, 100)])
    if dtype is np.float16:
        y = y[np.abs(y) < 6e4]
    return y.astype(dtype)


def _close(mine, ref):
    assert str(mine.dtype) == str(ref.dtype) and tuple(mine.shape) == tuple(ref.shape)
    torch.testing.assert_close(torch.from_numpy(mine.detach().numpy().copy()), ref.detach(),
                               equal_nan=True)


CASES = {
    "lgamma": lambda lib, x: lib.lgamma(x),
    "digamma": lambda lib, x: lib.digamma(x),
    **{f"polygamma{n}": (lambda lib, x, n=n: lib.polygamma(n, x)) for n in (0, 1, 2, 3, 4, 5, 10)},
    **{f"mvlgamma{p}": (lambda lib, x, p=p: lib.mvlgamma(x, p)) for p in (1, 2, 4)},
    "erfinv": lambda lib, x: lib.erfinv(x),
}


@pytest.mark.parametrize("name,dtype", [
    pytest.param(name, dtype, id=f"{name}-{np.dtype(dtype).name}")
    for name in CASES for dtype in DTYPES
    # (PyTorch's float32 n! is expf(lgammaf(n + 1)): 7.8e-6 off for n = 10, glibc's)
    if not (name == "polygamma10" and dtype is np.float32)])
def test_sweep_matches_torch(name, dtype):
    x = _sweep(dtype, erfinv=name == "erfinv")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no NumPy warning reaches the user
        mine = CASES[name](minitorch, minitorch.tensor(x))
    _close(mine, CASES[name](torch, torch.tensor(x)))


# misc: erfinv in float64 to an ulp of PyTorch's (MKL's), up to +-1
def test_erfinv_float64_agrees_to_an_ulp_up_to_one():
    """Every input's ``erfinv`` in float64 within an ulp of PyTorch's: at random, near the
    switch at 0.5 and 0.7, and within ``1e-10`` of +-1 down to the last double below 1 (where
    Newton's steps on ``erf`` gave 5.86395 for 5.86358), with +-inf at +-1."""
    rng = np.random.default_rng(3)
    near_one = 1 - np.concatenate([10 ** rng.uniform(-16, -10, 2000), np.arange(1, 40) * 2.0**-53])
    y = np.concatenate([rng.uniform(-1, 1, 5000), near_one, -near_one, [0.5, 0.7, 1.0, -1.0],
                        np.nextafter([0.5, 0.7, -0.5, -0.7], 1)])
    mine = minitorch.erfinv(minitorch.tensor(y)).numpy()
    ref = torch.erfinv(torch.tensor(y)).numpy()
    np.testing.assert_array_equal(np.isinf(mine), np.isinf(ref))
    finite = np.isfinite(ref)
    ulps = np.abs(mine[finite] - ref[finite]) / np.spacing(np.abs(ref[finite]))
    assert ulps.max() <= 1, (y[finite][ulps.argmax()], ulps.max())


SPECIAL = {
    "gammaln": ((), lambda x: x), "digamma": ((), lambda x: x), "psi": ((), lambda x: x),
    "erfinv": ((), lambda x: np.tanh(x)), "polygamma": ((2,), lambda x: x),
    "multigammaln": ((3,), lambda x: x + 2),
}


def _special_call(lib, name, x, *, out=None):
    args, _ = SPECIAL[name]
    fn = getattr(lib.special, name)
    kw = {} if out is None else {"out": out}
    return fn(*args, x, **kw) if name == "polygamma" else fn(x, *args, **kw)


@pytest.mark.parametrize("name", list(SPECIAL))
def test_special_names(name):
    move = SPECIAL[name][1]
    data = move(np.array([0.7, 1.3, 2.5, 4.0]))
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(data, requires_grad=True)
        y = _special_call(lib, name, x)
        y.sum().backward()
        results.append((y, x.grad, graph_signature(y)))
    _close(results[0][0], results[1][0])
    _close(results[0][1], results[1][1])
    assert results[0][2] == results[1][2]
    for lib in (minitorch, torch):  # out= writes into a float64 tensor
        out = lib.zeros(4, dtype=lib.float64)
        assert _special_call(lib, name, lib.tensor(data), out=out) is out
    _close(out, _special_call(torch, name, torch.tensor(data)).double())


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e)
    return None


ERRORS = {
    "gammaln-number": lambda lib: lib.special.gammaln(1.0),
    "psi-number": lambda lib: lib.special.psi(1.0),
    "polygamma-n-float": lambda lib: lib.special.polygamma(1.5, lib.tensor([1.0])),
    "polygamma-negative": lambda lib: lib.special.polygamma(-1, lib.tensor([1.0])),
    "polygamma-number": lambda lib: lib.special.polygamma(1, 2.0),
    "multigammaln-p-float": lambda lib: lib.special.multigammaln(lib.tensor([3.0]), 2.0),
    "multigammaln-p0": lambda lib: lib.special.multigammaln(lib.tensor([3.0]), 0),
    "multigammaln-bool": lambda lib: lib.special.multigammaln(lib.tensor([True]), 1),
    "erfinv-out-int": lambda lib: lib.special.erfinv(lib.tensor([0.5]),
                                                      out=lib.zeros(1, dtype=lib.long)),
    "gammaln-out-grad": lambda lib: lib.special.gammaln(lib.tensor([0.5], requires_grad=True),
                                                        out=lib.zeros(1)),
    "gammaln-out-int": lambda lib: lib.special.gammaln(lib.tensor([0.5]), out=1),
    "mvlgamma-out-long": lambda lib: lib.mvlgamma(lib.tensor([3.0]), 2,
                                                  out=lib.zeros(1, dtype=lib.long)),
    "mvlgamma_-int": lambda lib: lib.tensor([3]).mvlgamma_(1),
    "mvlgamma_-p-keyword": lambda lib: lib.tensor([3.0]).mvlgamma_(p=2.0),
    "mvlgamma-missing-p": lambda lib: lib.tensor([3.0]).mvlgamma(),
    "polygamma_-negative": lambda lib: lib.tensor([3.0]).polygamma_(-2),
    "lgamma_-int": lambda lib: lib.tensor([1, 2]).lgamma_(),
    "lgamma-argument": lambda lib: lib.tensor([1.0]).lgamma(1),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_match_torch(case):
    expected = _error(lambda: ERRORS[case](torch))
    assert expected is not None
    assert _error(lambda: ERRORS[case](minitorch)) == expected


GRAD = {
    "lgamma": (lambda lib, x: lib.lgamma(x), [0.7, 1.3, 2.5, -0.4, -2.7]),
    "digamma": (lambda lib, x: lib.digamma(x), [0.7, 1.3, 2.5, -0.4, -2.7, 12.0]),
    "polygamma1": (lambda lib, x: lib.polygamma(1, x), [0.7, 1.3, 2.5, -0.4, 12.0]),
    "polygamma3": (lambda lib, x: lib.polygamma(3, x), [0.7, 1.3, 2.5, -0.4, 12.0]),
    "erfinv": (lambda lib, x: lib.erfinv(x), [0.1, -0.5, 0.9, -0.95]),
    "mvlgamma": (lambda lib, x: lib.mvlgamma(x, 3), [1.3, 2.5, 4.0]),
    "polygamma_": (lambda lib, x: (x * 1).polygamma_(2), [0.7, 2.5]),
    "mvlgamma_": (lambda lib, x: (x * 1).mvlgamma_(2), [0.7, 2.5]),
}


@pytest.mark.parametrize("name", list(GRAD))
def test_gradients(name):
    fn, data = GRAD[name]
    x = minitorch.tensor(data, dtype=minitorch.float64, requires_grad=True)
    assert gradcheck(lambda t: fn(minitorch, t), (x,))
    assert gradgradcheck(lambda t: fn(minitorch, t), (x,))
    grads = []
    for lib in (minitorch, torch):  # the first and second derivatives, and their graphs
        t = lib.tensor(data, dtype=lib.float64, requires_grad=True)
        (g,) = lib.autograd.grad(fn(lib, t).sum(), t, create_graph=True)
        (g2,) = lib.autograd.grad(g.sum(), t)
        grads.append((g, g2, graph_signature(g)))
    _close(grads[0][0], grads[1][0])
    _close(grads[0][1], grads[1][1])
    assert grads[0][2] == grads[1][2]


# ---------------------------------------------------------------- igamma, igammac
def _igamma_pairs(dtype):
    """``(a, x)`` over many decades, and near the diagonal, where PyTorch switches to Temme's
    asymptotic expansion (``20 < a < 200`` or ``a > 200``)."""
    rng = np.random.default_rng(3)
    a = np.concatenate([10 ** rng.uniform(-5, 4, 3000), 10 ** rng.uniform(0, 3.5, 1500)])
    x = np.concatenate([10 ** rng.uniform(-5, 4, 3000), a[3000:] * (1 + rng.uniform(-0.3, 0.3,
                                                                                     1500))])
    with np.errstate(over="ignore"):
        return a.astype(dtype), x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_sweep_matches_torch(name, dtype):
    a, x = _igamma_pairs(dtype)
    mine = getattr(minitorch, name)(minitorch.tensor(a), minitorch.tensor(x))
    _close(mine, getattr(torch, name)(torch.tensor(a), torch.tensor(x)))


# misc: igamma and igammac computed on arrays
@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_on_arrays_matches_torch_at_every_switch_and_is_fast(name):
    """Each element takes its own method (the series, the continued fraction, the series for
    Q at a small x, Temme's expansion) and its own number of steps, now on NumPy arrays: the
    grid crosses every switch (x = 0.5, 1, 1.1, a; a = 20, 200) and the ends (0, inf, NaN,
    negative), within float64's tolerance of PyTorch's, in a broadcast (3, 1) x (n,) shape;
    and the time grows far slower than the number of elements."""
    import time

    v = np.array([0.0, -1.0, np.nan, np.inf, 1e-300, 1e-8, 0.3, 0.5, 0.51, 1.0, 1.05, 1.1,
                  1.2, 3.0, 19.9, 20.5, 50.0, 199.0, 201.0, 1e3, 1e5, 1e300])
    a, x = np.meshgrid(v, v)
    fn, ref = getattr(minitorch, name), getattr(torch, name)
    _close(fn(minitorch.tensor(a), minitorch.tensor(x)), ref(torch.tensor(a), torch.tensor(x)))
    a3, x3 = np.array([[0.7], [30.0], [400.0]]), np.linspace(0.01, 500, 50)
    _close(fn(minitorch.tensor(a3), minitorch.tensor(x3)),
           ref(torch.tensor(a3), torch.tensor(x3)))
    rng = np.random.default_rng(0)
    a, x = 10 ** rng.uniform(-2, 3, 20000), 10 ** rng.uniform(-2, 3, 20000)

    def best_time(n):  # (the best of three: the machine may be busy)
        args = minitorch.tensor(a[:n]), minitorch.tensor(x[:n])
        times = []
        for _ in range(3):
            start = time.perf_counter()
            fn(*args)
            times.append(time.perf_counter() - start)
        return min(times)
    # 100 times the elements in well under 100 times the time (20 times: the loop of Python
    # floats took 100 times, one element after another)
    assert best_time(20000) < 20 * best_time(200)


@pytest.mark.parametrize("name", ["gammainc", "gammaincc"])
def test_igamma_special_names(name):
    a, x = np.array([0.5, 2.0, 30.0]), np.array([1.5, 1.0, 29.0])
    results = []
    for lib in (minitorch, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(lib.special, name)(lib.tensor(a), t)
        y.sum().backward()
        out = lib.zeros(3, dtype=lib.float64)
        getattr(lib.special, name)(lib.tensor(a), lib.tensor(x), out=out)
        results.append((y, t.grad, graph_signature(y), out))
    for mine, ref in zip(results[0][:2], results[1][:2]):
        _close(mine, ref)
    assert results[0][2] == results[1][2]
    _close(results[0][3], results[1][3])


IGAMMA_ERRORS = {
    "backward-input": lambda lib: lib.igamma(lib.tensor([1.5], requires_grad=True),
                                             lib.tensor([0.5])).sum().backward(),
    "backward-input-c": lambda lib: lib.igammac(lib.tensor([1.5], requires_grad=True),
                                                lib.tensor([0.5])).sum().backward(),
    "int": lambda lib: lib.igamma(lib.tensor([1, 2]), lib.tensor([1, 3])),
    "bool-c": lambda lib: lib.igammac(lib.tensor([True]), lib.tensor([True])),
    "number-other": lambda lib: lib.igamma(lib.tensor([1.0]), 2.0),
    "method-number": lambda lib: lib.tensor([1.0]).igammac(2.0),
    "special-number": lambda lib: lib.special.gammainc(lib.tensor([1.0]), 2),
    "inplace-int": lambda lib: lib.tensor([1, 2]).igamma_(lib.tensor([0.5, 3.0])),
    "inplace-broadcast": lambda lib: lib.ones(2).igammac_(lib.ones(3, 2)),
    "shapes": lambda lib: lib.igamma(lib.ones(2), lib.ones(3)),
}


@pytest.mark.parametrize("case", list(IGAMMA_ERRORS))
def test_igamma_errors_match_torch(case):
    expected = _error(lambda: IGAMMA_ERRORS[case](torch))
    assert expected is not None
    assert _error(lambda: IGAMMA_ERRORS[case](minitorch)) == expected


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_gradients(name):
    a = [1.5, 2.0, 9.0, 30.0, 0.3]
    x_data = [0.5, 3.0, 7.0, 31.0, 0.2]
    x = minitorch.tensor(x_data, dtype=minitorch.float64, requires_grad=True)
    fn = getattr(minitorch, name)
    a_t = minitorch.tensor(a, dtype=minitorch.float64)
    assert gradcheck(lambda t: fn(a_t, t), (x,))
    assert gradgradcheck(lambda t: fn(a_t, t), (x,))
    grads = []
    for lib in (minitorch, torch):
        t = lib.tensor(x_data, dtype=lib.float64, requires_grad=True)
        y = getattr(lib, name)(lib.tensor(a, dtype=lib.float64), t)
        (g,) = lib.autograd.grad(y.sum(), t, create_graph=True)
        (g2,) = lib.autograd.grad(g.sum(), t)
        grads.append((g, g2, graph_signature(g)))
    _close(grads[0][0], grads[1][0])
    _close(grads[0][1], grads[1][1])
    assert grads[0][2] == grads[1][2]

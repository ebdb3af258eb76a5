"""The functions of ``ops/elementwise.py`` beyond the op table (which compares every family of
inputs with PyTorch: ``tests/_opinfo_samples_elementwise.py``):

* first and second derivatives against finite differences (``gradcheck``, ``gradgradcheck`` in
  float64), without PyTorch as the oracle;
* values compared with PyTorch's *relative* to their size where the table's absolute tolerance
  would not see an error (``erfc`` of a large ``x`` is 1e-45, ``sinc`` and ``logit`` near their
  special points, ``logaddexp`` of large numbers);
* Hypothesis: the functions of two tensors broadcast any pair of shapes as PyTorch does, and
  sum each gradient back to its input's shape.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

_rng = np.random.default_rng(11)
_X = _rng.uniform(0.3, 0.7, (3, 4))  # inside every domain (logit's too), no ties
_Y = _rng.uniform(1.2, 2.0, (3, 4))

UNARY = {
    "tan": lambda x: x.tan(),
    "sinh": lambda x: minitorch.sinh(x),
    "cosh": lambda x: x.cosh(),
    "asinh": lambda x: minitorch.asinh(x * 3),
    "acosh": lambda x: (x + 1.1).acosh(),
    "atanh": lambda x: minitorch.atanh(x),
    "deg2rad": lambda x: minitorch.deg2rad(x * x),
    "rad2deg": lambda x: x.rad2deg() * x,
    "sinc": lambda x: minitorch.sinc(x * 3),
    "erfc": lambda x: x.erfc() * x,
    "logit": lambda x: minitorch.logit(x),
    "logit-eps": lambda x: x.logit(eps=0.2),
    "frac": lambda x: minitorch.frac(x * 5) * x,
    "trunc": lambda x: minitorch.trunc(x * 5) * x,
    "sgn": lambda x: x.sgn() * x,
    "i0": lambda x: minitorch.i0(x * 4 - 2),
    "i0-large": lambda x: (x * 30).i0(),
}
BINARY = {
    "atan2": lambda x, y: minitorch.atan2(x - 0.5, y),
    "hypot": lambda x, y: x.hypot(y),
    "copysign": lambda x, y: minitorch.copysign(x * y, 0.5 - x),
    "logaddexp": lambda x, y: minitorch.logaddexp(x * 3, y),
    "logaddexp2": lambda x, y: x.logaddexp2(y * 2),
    "xlogy": lambda x, y: minitorch.xlogy(x, y),
    "xlogy-number": lambda x, y: minitorch.xlogy(2.5, y) + minitorch.xlogy(x, 3.0),
    "fmax": lambda x, y: minitorch.fmax(x, y - 1),
    "fmin": lambda x, y: x.fmin(y - 1),
    "fmod": lambda x, y: minitorch.fmod(y * 3, x),
    "addcmul": lambda x, y: minitorch.addcmul(x, y, x * y, value=-0.5),
    "addcdiv": lambda x, y: x.addcdiv(x * x, y, value=2),
    "addcdiv-broadcast": lambda x, y: minitorch.addcdiv(x[0], y[:, :1], x, value=0.3),
    "float_power": lambda x, y: minitorch.float_power(x, y) + x.float_power(2.5),
    "float_power-number-base": lambda x, y: minitorch.float_power(1.5, x * y),
    "ldexp": lambda x, y: minitorch.ldexp(x, y * 2),
    "nextafter": lambda x, y: minitorch.nextafter(x * y, y) * x,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradients_match_finite_differences(name):
    x = minitorch.tensor(_X, requires_grad=True)
    assert minitorch.autograd.gradcheck(UNARY[name], (x,))
    assert minitorch.autograd.gradgradcheck(UNARY[name], (x,))


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradients_match_finite_differences(name):
    x = minitorch.tensor(_X, requires_grad=True)
    y = minitorch.tensor(_Y, requires_grad=True)
    assert minitorch.autograd.gradcheck(BINARY[name], (x, y))
    assert minitorch.autograd.gradgradcheck(BINARY[name], (x, y))


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")


_RTOL = {"float16": 1e-3, "float32": 2e-6, "float64": 1e-14}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("name, values", [
    ("erfc", [-30.0, -5.0, -1.0, -1e-5, 0.0, 1e-8, 0.5, 0.999, 1.0, 1.5, 3.0, 7.9, 8.0, 10.0,
              26.0, 27.0]),
    ("sinc", [1e-30, -1e-20, 1e-8, 1e-4, 0.5, 1.0, 2.5, 100.5]),
    ("logit", [1e-30, 1e-10, 1e-4, 0.3, 0.5, 0.9999, 1 - 1e-7]),
    ("tan", [1e-30, 1e-8, 0.5, 1.5, 1.5707, -3.0]),
    ("asinh", [1e-30, -1e-10, 1e-4, 2.0, 1e10, -1e30]),
    ("atanh", [1e-30, -1e-10, 1e-4, 0.5, 0.99999]),
    ("i0", [0.0, 1e-5, 0.5, 3.0, 7.99, 8.0, 8.5, 30.0, 80.0, -2.5, 700.0]),
])
def test_values_keep_their_relative_precision(name, values, dtype):
    """Compared with PyTorch relative to their size: erfc(26) is 6e-296 in float64, where an
    absolute tolerance would accept 0 or ``1 - erf``'s cancellation."""
    torch = _torch()
    with np.errstate(all="ignore"):  # tiny values are 0 in float16
        x = np.array(values, dtype)
    mine = getattr(minitorch, name)(minitorch.from_numpy(x.copy())).numpy()
    ref = getattr(torch, name)(torch.from_numpy(x.copy())).numpy()
    assert mine.dtype == ref.dtype
    tiny = np.finfo(dtype).tiny  # below it, subnormals: one step is a large fraction
    np.testing.assert_allclose(mine, ref, rtol=_RTOL[dtype], atol=tiny * 4)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_logaddexp_of_large_and_distant_numbers(name, dtype):
    torch = _torch()
    a = np.array([1e30, -1e30, 1000.0, -1000.0, 5.0, 1e-30, 80.0, -80.0], dtype)
    b = np.array([1e30, 1e30, 1000.0, -1000.5, -5.0, -1e-30, 80.0 + 1e-5, 30.0], dtype)
    mine = getattr(minitorch, name)(minitorch.from_numpy(a), minitorch.from_numpy(b)).numpy()
    ref = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    np.testing.assert_allclose(mine, ref, rtol=_RTOL[dtype])


def test_addcmul_rounds_once_as_pytorch_does():
    """``input + value * t1 * t2`` in float32: PyTorch's kernel fuses the last multiply-add;
    rounding twice would differ in the last bit on these numbers."""
    torch = _torch()
    rng = np.random.default_rng(3)
    x, t1, t2 = (rng.standard_normal(10_000).astype(np.float32) for _ in range(3))
    for value in (1, 0.1, -3.0):
        mine = minitorch.addcmul(*map(minitorch.from_numpy, (x, t1, t2)), value=value)
        ref = torch.addcmul(*map(torch.from_numpy, (x, t1, t2)), value=value)
        np.testing.assert_array_equal(mine.numpy(), ref.numpy())


_shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3)


@settings(max_examples=30, deadline=None)
@given(shapes=_shapes, name=st.sampled_from(["atan2", "hypot", "copysign", "xlogy",
                                             "logaddexp", "fmax", "fmod"]))
def test_binary_broadcasting_and_gradients_match_torch(shapes, name):
    """Any two broadcastable shapes: PyTorch's values, and each gradient summed back to its
    input's shape."""
    torch = _torch()
    rng = np.random.default_rng(len(shapes.input_shapes[0]) * 7 + len(shapes.input_shapes[1]))
    a = rng.uniform(0.5, 2.0, shapes.input_shapes[0])
    b = rng.uniform(0.5, 2.0, shapes.input_shapes[1]) * rng.choice([-1, 1], shapes.input_shapes[1])
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(a, requires_grad=True)
        y = lib.tensor(b, requires_grad=True)
        out = getattr(lib, name)(x, y)
        gx, gy = lib.autograd.grad(out.sum(), (x, y))
        results.append([t.detach().numpy() for t in (out, gx, gy)])
    for mine, ref in zip(*results):
        assert mine.shape == ref.shape
        np.testing.assert_allclose(mine, ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_i0_first_and_second_derivatives_match_torch(dtype):
    """``i0``'s derivative is ``I1``, which NumPy lacks (Cephes' Chebyshev series, as
    PyTorch's), and ``I1``'s is ``I0 - I1 / x``, taken as 1/2 at 0."""
    torch = _torch()
    x = np.array([0.0, 1e-9, -0.3, 1.0, 2.5, -7.9, 8.1, 20.0, 100.0, 600.0], dtype)
    results = []
    for lib in (minitorch, torch):
        t = lib.from_numpy(x.copy()).requires_grad_()
        (g,) = lib.autograd.grad(lib.i0(t).sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), t)
        results.append((g.detach().numpy(), gg.numpy()))
    for mine, ref in zip(*results):
        np.testing.assert_allclose(mine, ref, rtol=_RTOL[dtype] * 10)


# misc: I1 overflows where PyTorch's does
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_i0_gradient_and_i1_overflow_where_torch_does(dtype):
    """``I1`` (``i0``'s gradient, ``special.i1``) is ``exp(|x|)`` times a series in the input's
    dtype, as PyTorch's: infinite from ``|x| = 88.72`` in float32 (finite in float64) and from
    709.78 in float64 (where a power series overflowed before, near 709), finite below."""
    torch = _torch()
    x = np.array([12.0, -12.0, 88.0, 88.7, 88.73, -89.0, 90.0, 700.0, -709.0, 709.7, 709.78,
                  709.79, 710.0, -720.0, np.inf, -np.inf, np.nan], dtype)
    results = []
    for lib in (minitorch, torch):
        t = lib.from_numpy(x.copy()).requires_grad_()
        lib.i0(t).sum().backward()
        results.append((t.grad.numpy(), lib.special.i1(lib.from_numpy(x.copy())).numpy()))
    for mine, ref in zip(*results):
        np.testing.assert_array_equal(np.isinf(mine), np.isinf(ref))
        np.testing.assert_allclose(mine, ref, rtol=_RTOL[dtype] * 10)


def test_in_place_forms_record_pytorch_nodes():
    """In place, the values are written into the tensor and its node is PyTorch's: a new name
    for ``asinh_``, whose backward PyTorch has not implemented."""
    base = minitorch.tensor([0.5, 2.0], requires_grad=True)
    x = base * 1
    assert x.atan2_(minitorch.tensor([1.0, -1.0])).grad_fn.name() == "Atan2Backward0"
    y = base * 1
    assert y.asinh_().grad_fn.name() == "AsinhBackward1"
    with pytest.raises(NotImplementedError, match="inplace version of asinh"):
        y.sum().backward()


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_ldexp_and_nextafter_at_the_ends_of_the_range(dtype):
    """``ldexp`` down to subnormals and up to inf, ``nextafter`` by one step of the dtype itself
    (float16's next number, not float32's rounded back)."""
    torch = _torch()
    x = np.array([3.0, -1.5, 1.0, 0.0, 1.0, -0.0, 65504.0, 1e-7], dtype)
    exps = np.array([-149, -1074, 200, 5000, -30, 3, 1, -20])
    toward = np.array([np.inf, -np.inf, 0.0, -1.0, 1.0, 1.0, np.nan, 0.0], dtype)
    for name, other in (("ldexp", exps), ("nextafter", toward)):
        mine = getattr(minitorch, name)(minitorch.from_numpy(x), minitorch.from_numpy(other))
        ref = getattr(torch, name)(torch.from_numpy(x), torch.from_numpy(other))
        assert mine.dtype.name == str(ref.dtype).split(".")[1]
        np.testing.assert_array_equal(mine.numpy(), ref.numpy())


def test_gcd_and_lcm_of_signed_and_large_integers():
    torch = _torch()
    a = np.array([-4, 0, 6, -9, 2**40, 2**62, -(2**63), 7, 0], np.int64)
    b = np.array([6, 0, -4, 0, 2**20 * 3, 2**31, 6, -7, -5], np.int64)
    for name in ("gcd", "lcm"):
        mine = getattr(minitorch, name)(minitorch.from_numpy(a), minitorch.from_numpy(b))
        ref = getattr(torch, name)(torch.from_numpy(a), torch.from_numpy(b))
        np.testing.assert_array_equal(mine.numpy(), ref.numpy())


def test_docstring_examples_run():
    import doctest

    from minitorch.ops import elementwise

    result = doctest.testmod(elementwise, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0

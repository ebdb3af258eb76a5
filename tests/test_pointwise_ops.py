"""Second derivatives of ``log1p``, ``expm1``, ``rsqrt``, ``log2``, ``log10``, ``exp2``, ``erf``,
``nan_to_num``, ``lerp``, ``flip`` and ``outer`` against finite differences (``gradgradcheck``,
in float64). Their values, gradients and second derivatives are compared with PyTorch's in
``tests/test_opinfo.py`` (samples in ``tests/_opinfo_samples_pointwise.py``); this checks the
backward formulas without PyTorch as the oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

_X = np.random.default_rng(7).uniform(0.3, 1.7, (3, 4))  # inside every domain, no ties

CASES = {
    "log1p": lambda x: x.log1p(),
    "expm1": lambda x: minitorch.expm1(x),
    "rsqrt": lambda x: x.rsqrt(),
    "log2": lambda x: minitorch.log2(x),
    "log10": lambda x: x.log10(),
    "exp2": lambda x: minitorch.exp2(x),
    "erf": lambda x: x.erf() * x,
    "nan_to_num": lambda x: minitorch.nan_to_num(x * x),
    "lerp-scalar": lambda x: minitorch.lerp(x, x * x, 0.3),
    "lerp-tensor": lambda x: x.lerp(x.exp(), x * 0.5),
    "lerp-weight-broadcast": lambda x: minitorch.lerp(x[:, :1], x.sin(), x[0] * 0.4),
    "flip": lambda x: x.flip(0, 1) * x,
    "outer": lambda x: minitorch.outer(x[0], x[:, 1] * x[:, 2]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradients_match_finite_differences(name):
    x = minitorch.tensor(_X, requires_grad=True)
    assert minitorch.autograd.gradcheck(CASES[name], (x,))
    assert minitorch.autograd.gradgradcheck(CASES[name], (x,))


@pytest.mark.parametrize("name", ["log1p", "expm1", "erf", "rsqrt", "exp2", "log2", "log10"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_small_and_large_values_keep_their_relative_precision(name, dtype):
    """log1p and expm1 exist for tiny inputs (``log(1 + 1e-10)`` rounds to 0): the values are
    compared with PyTorch's relative to their size, which the op table's tolerance (an absolute
    1e-5 in float32) would not see."""
    torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")
    with np.errstate(over="ignore"):  # 1e30 is inf in float16
        x = np.array([1e-10, -1e-10, 1e-30, 3e-5, -2e-4, 1e-3, 2.0, 50.0, 1e4, 1e30], dtype)
    if name in ("rsqrt", "log2", "log10"):
        x = np.abs(x)
    mine = getattr(minitorch, name)(minitorch.from_numpy(x.copy())).numpy()
    ref = getattr(torch, name)(torch.from_numpy(x.copy())).numpy()
    assert mine.dtype == ref.dtype
    rtol = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-14}[dtype]
    # (float16's subnormals, below 6e-5, are 6e-8 apart: there one step is a large fraction)
    np.testing.assert_allclose(mine, ref, rtol=rtol, atol=1e-7 if dtype == "float16" else 0)

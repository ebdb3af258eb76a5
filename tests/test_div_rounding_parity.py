"""``div(a, b, rounding_mode="trunc" | "floor")`` (and ``divide``, ``Tensor.div``, ``div_``,
``out=``) as PyTorch: the quotient rounded toward zero or down, integer dtypes kept, integer
division by zero refused, a step function whose gradient is zero for both inputs
(``DivBackward2``). ``floor_divide`` records PyTorch's ``NotImplemented`` node and its backward
raises. Before, ``rounding_mode`` was refused with a TypeError and ``floor_divide`` recorded
``FloorDivideBackward0``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")

INPUTS = {
    "float32": np.array([-3.5, 3.5, -7.0, 7.0, 0.0, -0.0, 1e-30, np.inf, np.nan, 5.0], np.float32),
    "float64": np.array([1e308, -1e-308, -7.25, 7.25, 0.0, 3, -3, 2.5, np.inf, 6.0], np.float64),
    "float16": np.array([7.1, -7.1, 0.3, 65000, -0.0, 1, 2, 3, 4, 5], np.float16),
    "int64": np.array([-7, 7, -1, 5, 0, 9, -9, 2 ** 62, -2 ** 62, 3], np.int64),
    "int8": np.array([-7, 7, -1, 5, 0, 9, -9, 127, -128, 3], np.int8),
    "uint8": np.array([7, 8, 1, 5, 0, 9, 255, 127, 128, 3], np.uint8),
    "bool": np.ones(10, np.bool_),
}
DIVISORS = {
    "float32": np.array([2.0, 2.0, -2.0, 2.0, -1.0, 1.0, 3, -2, 2, 0], np.float32),
    "int64": np.array([2, -2, 3, 4, 1, -4, 5, 3, -7, 2], np.int64),
    "int8": np.array([2, -2, 3, 4, 1, -4, 5, 3, -7, 2], np.int8),
    "uint8": np.array([2, 3, 4, 5, 1, 7, 9, 2, 3, 4], np.uint8),
    "bool": np.ones(10, np.bool_),
}
FORMS = {
    "tensors": lambda lib, a, b, m: lib.div(lib.tensor(a), lib.tensor(b), rounding_mode=m),
    "int scalar": lambda lib, a, b, m: lib.tensor(a).div(2, rounding_mode=m),
    "float scalar": lambda lib, a, b, m: lib.tensor(a).div(-2.5, rounding_mode=m),
    "by zero": lambda lib, a, b, m: lib.divide(lib.tensor(a), 0, rounding_mode=m),
    "in place": lambda lib, a, b, m: lib.tensor(a).div_(lib.tensor(b), rounding_mode=m),
    "broadcast": lambda lib, a, b, m: lib.div(lib.tensor(a)[:3, None], lib.tensor(b)[:2],
                                              rounding_mode=m),
    "out": lambda lib, a, b, m: lib.div(lib.tensor(a), lib.tensor(b), rounding_mode=m,
                                        out=lib.empty(10, dtype=lib.float64)),
}


def _outcome(lib, form, a, b, mode):
    try:
        r = FORMS[form](lib, a, b, mode)
    except Exception as e:
        return type(e).__name__, str(e)
    return str(r.dtype).split(".")[-1], [repr(v) for v in r.reshape(-1).tolist()]


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("mode", ["trunc", "floor", "round"])
def test_values_dtypes_and_errors_match_torch(form, mode):
    for (_, a), (_, b) in itertools.product(INPUTS.items(), DIVISORS.items()):
        assert _outcome(minitorch, form, a, b, mode) == _outcome(torch, form, a, b, mode), (
            a.dtype, b.dtype)


@pytest.mark.parametrize("mode", ["trunc", "floor"])
def test_the_gradient_is_zero_and_not_recorded(mode):
    grads = []
    for lib in (minitorch, torch):
        x = lib.tensor([5.0, -3.0, 7.5], requires_grad=True)
        y = lib.tensor([2.0, 2.0, -2.0], requires_grad=True)
        z = lib.div(x * 1, y, rounding_mode=mode)
        gx, gy = lib.autograd.grad(z.sum(), (x, y), create_graph=True)
        grads.append((z.grad_fn.name(), gx.tolist(), gy.tolist(), gx.grad_fn, gy.grad_fn))
    assert grads[0] == grads[1]


def test_floor_divide_records_not_implemented_and_its_backward_raises():
    seen = []
    for lib in (minitorch, torch):
        x = lib.tensor([5.0, -3.0], requires_grad=True)
        for y in (lib.floor_divide(x, 2), x // 2, (x * 1).floor_divide_(2)):
            with pytest.raises(RuntimeError) as info:
                y.sum().backward()
            seen.append((y.grad_fn.name(), type(y.grad_fn).__name__, str(info.value)))
    assert seen[:3] == seen[3:]

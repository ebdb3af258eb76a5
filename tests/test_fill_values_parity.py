"""A Python number written into a tensor is converted as PyTorch converts it
(``_dtype.number_as``): one that does not fit the dtype (-2.5 or 300 in uint8, NaN or 1e40 in
an integer dtype, 1e40 in float16) is refused with PyTorch's RuntimeError, -1 wraps into uint8
as 255, and any non-zero number is True in bool. ``index_fill`` and ``scatter`` with a value
wrapped or truncated silently (300 became 44 in uint8), ``fill_`` wrote inf into float16, and a
tiny float became False in bool. Compared with PyTorch over numbers x dtypes x operations.
"""

from __future__ import annotations

import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")

OPS = {
    "fill_": lambda lib, x, v: x.fill_(v),
    "index_fill": lambda lib, x, v: x.index_fill(0, lib.tensor([0]), v),
    "index_fill_": lambda lib, x, v: x.index_fill_(0, lib.tensor([0]), v),
    "scatter": lambda lib, x, v: x.scatter(0, lib.tensor([0]), v),
    "scatter_": lambda lib, x, v: x.scatter_(0, lib.tensor([0]), v),
    "masked_fill": lambda lib, x, v: x.masked_fill(lib.tensor([True, False]), v),
}
VALUES = [-2.5, 300, -1, float("nan"), float("inf"), 1e40, 70000.0, 65504.0, 1e-50, 2 ** 70,
          True, 0.1]
DTYPES = ["uint8", "int8", "int64", "bool", "float16", "float32", "float64"]


def _outcome(lib, op, value, dtype):
    try:
        out = OPS[op](lib, lib.tensor([1, 2], dtype=getattr(lib, dtype)), value)
    except Exception as e:
        return type(e).__name__, str(e)
    return [repr(float(v)) for v in out.tolist()]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", VALUES, ids=repr)
@pytest.mark.parametrize("op", sorted(OPS))
def test_number_written_as_torch_writes_it(op, value, dtype):
    assert _outcome(minitorch, op, value, dtype) == _outcome(torch, op, value, dtype)

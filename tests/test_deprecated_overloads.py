"""PyTorch's deprecated ``Tensor.add_(alpha, other)`` overload (and ``add``, ``sub``, ``sub_``),
which old tutorials use for their SGD step ``p.data.add_(-lr, p.grad.data)``: the same values,
the same warning (given once in a process, for every deprecated overload together) and the
same errors as PyTorch. Each case runs in a fresh interpreter, because of the once."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

SCRIPT = r'''
import sys, warnings
import numpy as np
lib = __import__(sys.argv[1])
a = lib.tensor([1.0, 2.0])
b = lib.tensor([3.0, -1.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for case in sys.argv[2].split(","):
        try:
            if case == "add_":
                r = a.clone().add_(-0.5, b)
            elif case == "sub_":
                r = a.clone().sub_(2, b)
            elif case == "add":
                r = a.add(3, b)
            elif case == "sub":
                r = a.sub(0.25, b)
            elif case == "numbers":
                r = a.add(2, 3)
            elif case == "grad":
                w = lib.tensor([1.0, 2.0], requires_grad=True)
                r = w.add(2, b)
                r.sum().backward()
                r = (r.detach(), w.grad, type(r.grad_fn).__name__)
            elif case == "tensor_alpha":
                r = a.add_(b, b)
            print(case, repr(r))
        except Exception as e:
            print(case, type(e).__name__, e)
for w in caught:
    print(w.category.__name__, str(w.message).split(" (Triggered internally")[0],
          w.filename == "<string>")
'''


def _run(lib, cases):
    out = subprocess.run([sys.executable, "-c", SCRIPT, lib, ",".join(cases)],
                         capture_output=True, text=True, check=True)
    return out.stdout


@pytest.mark.parametrize("cases", [
    ["add_"], ["sub_", "add_", "sub"], ["add", "numbers"], ["sub"], ["grad"],
    ["tensor_alpha"],
])
def test_alpha_first_overload_matches_torch(cases):
    assert _run("minitorch", cases) == _run("torch", cases)

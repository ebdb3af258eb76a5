"""``show_source`` names the file that defines the code it prints, as the chapters show it."""

from __future__ import annotations

import contextlib
import io

import minitorch
from minitorch.autograd import engine
from minitorch.exercises import show_source


def _header(obj) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        show_source(obj)
    return out.getvalue().splitlines()[0]


def test_a_decorated_method_is_shown_from_its_own_file():
    # SGD.step is wrapped by @no_grad(): the wrapper lives in grad_mode.py, the code in sgd.py.
    assert _header(minitorch.optim.SGD.step).startswith("# minitorch/optim/sgd.py: SGD.step, ")


def test_functions_and_classes_name_their_file_and_count_their_code():
    assert _header(engine._run).startswith("# minitorch/autograd/engine.py: _run, ")
    assert _header(minitorch.nn.Linear).startswith("# minitorch/nn/modules/linear.py: Linear, ")
    assert _header(minitorch.cuda.is_available).endswith(" lines of code")

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


def test_the_core_the_chapters_show_fits_one_screen():
    """Chapters 02 and 04 show these listings; each fits a screen (at most 50 lines of code,
    comments and docstrings not counted), and the two modules together stay at most 700."""
    import inspect

    from minitorch.autograd import function
    from minitorch.exercises.display import lines_of_code

    for fn in (function.Function.apply, function._run_forward, function._forward_and_setup,
               function._record_node,
               engine._run):
        assert lines_of_code(inspect.getsource(fn)) <= 50, fn.__name__
    total = sum(lines_of_code(inspect.getsource(m)) for m in (function, engine))
    assert total <= 700

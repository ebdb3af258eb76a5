"""Anomaly detection (``torch.autograd.detect_anomaly``), side by side with PyTorch: the same
code runs on both libraries, and the switches, the stacks kept on the nodes, the NaN errors and
the warnings that name the forward line must agree."""

from __future__ import annotations

import re
import threading
import warnings

import pytest

import minitorch
from minitorch.autograd import engine, function
from minitorch.autograd.recorders import record_forward

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for anomaly mode")

LIBS = pytest.mark.parametrize("lib", [minitorch, torch], ids=["minitorch", "torch"])


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    minitorch.set_anomaly_enabled(False)
    torch.set_anomaly_enabled(False)


def _ours(messages: list) -> list:
    """The warnings' texts, without PyTorch's note on where in C++ it warned, and without
    NumPy's floating-point warnings (PyTorch computes without them)."""
    return [str(m.message).split(" (Triggered internally")[0] for m in messages
            if "encountered in" not in str(m.message)]


def _user_frames(stack: list) -> list:
    """The frames of a stack in this file: PyTorch keeps every frame (its own Python, pytest's),
    minitorch only the learner's."""
    return [f for f in stack if f'File "{__file__}"' in f]


def _frames(text: str) -> list:
    """The frames of a warning's stack, one string each."""
    return re.findall(r'  File "[^"]*", line \d+, in [^\n]*\n(?:    [^\n]*\n)?', text)


def _run_both(program):
    """``program(lib)`` on each library, with every warning kept: (result, warning texts)."""
    out = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = program(lib)
        out.append((result, _ours(caught)))
    return out


def test_the_switches_as_pytorch():
    seen = []
    for lib in (minitorch, torch):
        states = []

        def state(lib=lib, states=states):
            states.append((lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()))

        state()
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            with lib.autograd.detect_anomaly():
                state()
                with lib.autograd.set_detect_anomaly(True, check_nan=False):
                    state()
                    with lib.autograd.set_detect_anomaly(False):
                        state()
                    state()
                state()
            state()
            with lib.autograd.detect_anomaly(check_nan=False):
                state()
        state()
        lib.autograd.set_detect_anomaly(True)  # called as a function: on at once, and stays
        state()
        lib.set_anomaly_enabled(False)
        state()
        seen.append(states)
    assert seen[0] == seen[1]
    assert (True, False) in seen[0] and (False, True) in seen[0]


def test_detect_anomaly_warns_that_it_is_slow():
    (_, ours), (_, theirs) = _run_both(lambda lib: lib.autograd.detect_anomaly())
    assert ours == theirs == ["Anomaly Detection has been enabled. This mode will increase the "
                              "runtime and should only be enabled for debugging."]


def test_off_it_costs_nothing_on():
    """Off, the graph's seams are empty: recording and backward run as without the mode."""
    minitorch.autograd.set_detect_anomaly(True)
    assert function.node_watchers and engine.observers
    minitorch.autograd.set_detect_anomaly(False)
    assert function.node_watchers == [] and engine.observers == []
    x = minitorch.ones(2, requires_grad=True)
    assert dict((x * 2).grad_fn.metadata) == {}


def _stack_of(lib):
    x = lib.ones(2, requires_grad=True)
    with lib.autograd.set_detect_anomaly(True):
        inside = (x * 2).grad_fn.metadata  # the line that made the node
    outside = (x * 3).grad_fn.metadata
    return dict(inside), dict(outside)


def test_each_node_keeps_the_stack_that_made_it():
    (ours, _), (theirs, _) = _run_both(_stack_of)
    assert list(ours[0]) == list(theirs[0]) == ["traceback_"]
    assert ours[0]["traceback_"] == _user_frames(theirs[0]["traceback_"])
    assert ours[0]["traceback_"] == _user_frames(ours[0]["traceback_"])  # pytest's left out
    assert "(x * 2)" in ours[0]["traceback_"][-1]  # the learner's line, last
    assert ours[1] == theirs[1] == {}  # made with the mode off: nothing kept


def _nan_in_backward(lib, check_nan=True):
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with lib.autograd.set_detect_anomaly(True, check_nan=check_nan):
        y = x.sqrt()  # its derivative is inf at 0
        loss = (y * 0).sum()  # and inf * 0 is NaN
        try:
            loss.backward()
        except RuntimeError as error:
            return type(error), str(error), x.grad
    return None, None, x.grad.tolist()


def test_a_nan_gradient_is_an_error_that_names_the_forward_line():
    (ours, our_warnings), (theirs, their_warnings) = _run_both(_nan_in_backward)
    assert ours[:2] == theirs[:2] == (
        RuntimeError, "Function 'SqrtBackward0' returned nan values in its 0th output.")
    assert len(our_warnings) == len(their_warnings) == 1
    assert _frames(our_warnings[0]) == _user_frames(_frames(their_warnings[0]))
    assert our_warnings[0].split(":\n")[0] == their_warnings[0].split(":\n")[0]
    assert "y = x.sqrt()" in _frames(our_warnings[0])[-1]
    assert our_warnings[0].startswith("Error detected in SqrtBackward0. Traceback of forward "
                                      "call that caused the error:\n")


def test_check_nan_off_lets_the_nan_through():
    (ours, our_warnings), (theirs, their_warnings) = _run_both(
        lambda lib: _nan_in_backward(lib, check_nan=False))
    assert ours[:2] == theirs[:2] == (None, None)
    assert str(ours[2]) == str(theirs[2]) == "[nan, 0.0]"
    assert our_warnings == their_warnings == []


def _failing_function(lib, record_in_mode=True):
    class Broken(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a.clone()

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("a mistake in backward")

    a = lib.ones(2, requires_grad=True)
    with lib.autograd.set_detect_anomaly(record_in_mode):
        out = Broken.apply(a).sum()
    with lib.autograd.set_detect_anomaly(True):
        try:
            out.backward()
        except ValueError as error:
            return str(error)
    return None


def test_an_error_in_a_learners_backward_names_its_forward_line():
    (ours, our_warnings), (theirs, their_warnings) = _run_both(_failing_function)
    assert ours == theirs == "a mistake in backward"
    assert len(our_warnings) == len(their_warnings) == 1
    head = "Error detected in BrokenBackward. Traceback of forward call that caused the error:\n"
    assert our_warnings[0].startswith(head) and their_warnings[0].startswith(head)
    assert _frames(our_warnings[0]) == _user_frames(_frames(their_warnings[0]))
    assert "".join(_frames(our_warnings[0])) == our_warnings[0][len(head):]
    assert "Broken.apply(a)" in our_warnings[0]


def test_a_node_made_before_the_mode_has_no_stack_to_show():
    (ours, our_warnings), (theirs, their_warnings) = _run_both(
        lambda lib: _failing_function(lib, record_in_mode=False))
    assert ours == theirs
    assert our_warnings == their_warnings == [
        "Error detected in BrokenBackward. No forward pass information available. Enable "
        "detect anomaly during forward pass for more information."]


def _double_backward(lib):
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    with lib.autograd.set_detect_anomaly(True):
        y = (x ** 3).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)  # its nodes are made in backward
        try:
            g.sqrt().sum().backward()  # d sqrt(3x^2)/dx at 0: NaN, inside g's graph
        except RuntimeError as error:
            return str(error)
    return None


def test_a_node_made_in_backward_names_the_node_that_made_it():
    (ours, our_warnings), (theirs, their_warnings) = _run_both(_double_backward)
    assert ours == theirs == "Function 'PowBackward0' returned nan values in its 0th output."
    assert len(our_warnings) == len(their_warnings) == 2
    for mine, torchs in zip(our_warnings, their_warnings):
        assert mine.split(":\n")[0] == torchs.split(":\n")[0]
        assert _frames(mine) == _user_frames(_frames(torchs))
    assert all(_frames(m) for m in our_warnings)
    assert our_warnings[1].startswith("\n\nPrevious calculation was induced by PowBackward0. ")
    assert "lib.autograd.grad(y, x, create_graph=True)" in our_warnings[0]
    assert "y = (x ** 3).sum()" in our_warnings[1]


def test_the_warning_points_at_the_learners_backward_call():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _nan_in_backward(minitorch)
    (warning,) = [w for w in caught if "Error detected" in str(w.message)]
    assert warning.filename == __file__ and warning.category is UserWarning


def test_record_forward_still_sees_only_its_own_thread():
    x = minitorch.ones(2, requires_grad=True)
    with record_forward() as steps:
        (x * 2).exp()
        other = threading.Thread(target=lambda: x.sin())
        other.start()
        other.join()
    assert [node.name() for node, _ in steps] == ["MulBackward0", "ExpBackward0"]
    assert function.node_watchers == []


@LIBS
def test_metadata_is_a_dict_for_anything(lib):
    node = (lib.ones(2, requires_grad=True) * 2).grad_fn
    node.metadata["mine"] = 1
    assert node.metadata == {"mine": 1}


def test_the_modules_example_runs():
    import doctest

    from minitorch.autograd import anomaly_mode

    result = doctest.testmod(anomaly_mode)
    assert result.attempted > 0 and result.failed == 0


def test_a_leafs_accumulate_grad_keeps_its_stack_too():
    def keys(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(), lib.autograd.detect_anomaly():
            warnings.simplefilter("ignore")
            y = x * 2
        return sorted(y.grad_fn.next_functions[0][0].metadata)

    assert keys(minitorch) == keys(torch) == ["traceback_"]


def _both_warned(program):
    """(result, first lines of the 'Error detected' warnings) for minitorch, then torch."""
    out = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = program(lib)
            except Exception as e:
                result = (type(e).__name__, str(e))
        lines = [str(w.message).split(":\n")[0].split(" (Triggered")[0] for w in caught
                 if "Error detected" in str(w.message)]
        out.append((result, lines))
    return out


@pytest.mark.parametrize("where", ["tensor hook", "node pre-hook"])
def test_an_error_in_a_hook_names_the_node(where):
    """PyTorch calls the pre-hooks inside the node's call: an error there is an error of that
    node, and anomaly mode warns with its forward stack. minitorch says nothing."""
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.detect_anomaly():
            y = x.exp()

            def broken(*_):
                raise ValueError("hook broke")

            if where == "tensor hook":
                y.register_hook(broken)
            else:
                y.grad_fn.register_prehook(broken)
            y.sum().backward()

    (mine, my_warnings), (theirs, their_warnings) = _both_warned(program)
    assert mine == theirs == ("ValueError", "hook broke")
    assert my_warnings == their_warnings == [
        "Error detected in ExpBackward0. Traceback of forward call that caused the error"]


def test_the_nan_check_sees_what_a_post_hook_returned():
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.detect_anomaly():
            y = x.exp()
            y.grad_fn.register_hook(lambda gi, go: (gi[0] * float("nan"),))
            y.sum().backward()
        return x.grad.tolist()

    (mine, my_warnings), (theirs, their_warnings) = _both_warned(program)
    assert mine == theirs == (
        "RuntimeError", "Function 'ExpBackward0' returned nan values in its 0th output.")
    assert my_warnings == their_warnings

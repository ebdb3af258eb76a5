"""inf and NaN arrive silently, as in PyTorch: no NumPy "overflow encountered in ..." warning.

NumPy warns when a float operation overflows or has no answer (``inf - inf``); PyTorch never
does. A learner whose training diverges should see the NaN loss, not a screen of
``RuntimeWarning: invalid value encountered in multiply`` pointing into minitorch's source.
The OpInfo suite checks every op's samples for such warnings (``test_op_matches_torch``); these
tests cover what it does not run: whole training steps, empty means, and the learner's own
NumPy, which must still warn.

The warnings are caught with the filters a learner has (``catch_warnings(record=True)``), not
pytest's ``recwarn``, which turns every filter off ("always").
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for these tests")


def _caught(fn):
    """``fn()``'s result and the RuntimeWarnings it raised, as a learner's session shows them."""
    with warnings.catch_warnings(record=True) as caught:
        out = fn()
    return out, [f"{w.message} ({w.filename}:{w.lineno})" for w in caught
                 if issubclass(w.category, RuntimeWarning)]


def _diverging_raw_steps(lib, steps=4):
    """The "with examples" loop with a learning rate that sends the weights to inf, then NaN."""
    x = lib.tensor(np.linspace(-3, 3, 24, dtype=np.float32).reshape(8, 3))
    y = lib.tensor(np.arange(8) % 2)
    w = lib.tensor(np.full((3, 2), 1e37, np.float32), requires_grad=True)
    losses = []
    for _ in range(steps):
        loss = lib.nn.functional.cross_entropy((x @ w) * 1e3, y)
        loss.backward()
        with lib.no_grad():
            w -= w.grad * 1e30
            w.grad.zero_()
        losses.append(loss.item())
    return losses, w.detach().numpy()


def _diverging_module_steps(lib, steps=4):
    """``nn.Sequential`` with SGD and momentum, its loss squared until it overflows."""
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1))
    opt = lib.optim.SGD(model.parameters(), lr=1e20, momentum=0.9)
    x = lib.tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = (model(x) ** 8).mean() * 1e30
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, [p.detach().numpy() for p in model.parameters()]


@pytest.mark.parametrize("steps", [_diverging_raw_steps, _diverging_module_steps])
def test_a_diverging_training_loop_gives_torchs_inf_and_nan_without_a_warning(steps):
    (mine, mine_params), warned = _caught(lambda: steps(minitorch))
    theirs, their_params = steps(torch)
    assert not warned, warned
    assert not np.isfinite(theirs).all()  # the loop really diverges
    np.testing.assert_array_equal(np.isnan(mine), np.isnan(theirs))
    np.testing.assert_array_equal(np.isinf(mine), np.isinf(theirs))
    for a, b in zip(mine_params if isinstance(mine_params, list) else [mine_params],
                    their_params if isinstance(their_params, list) else [their_params]):
        np.testing.assert_array_equal(np.isfinite(a), np.isfinite(b))


@pytest.mark.parametrize("expr", [
    "lib.tensor([]).mean()",
    "lib.zeros(0, 3).mean(0)",
    "lib.zeros(0, 3, requires_grad=True).mean()",
    "lib.tensor([float('inf'), -float('inf')]).mean()",
    "lib.tensor([float('inf'), 1.0]).var()",
    "lib.tensor([float('inf'), 0.0]).prod()",
    "lib.tensor([3e38, 3e38]).sum()",
    "lib.tensor([[float('inf')]]) @ lib.tensor([[0.0]])",
    "lib.nn.functional.batch_norm(lib.tensor([[float('inf')], [1.0]]), None, None, "
    "training=True)",
])
def test_reductions_of_empty_and_infinite_tensors_are_silent_as_in_torch(expr):
    mine, warned = _caught(lambda: eval(expr, {"lib": minitorch}))
    theirs = eval(expr, {"lib": torch})
    assert not warned, warned
    np.testing.assert_array_equal(mine.detach().numpy(), theirs.detach().numpy())


def test_var_of_nothing_gives_torchs_user_warning_and_only_that():
    with warnings.catch_warnings(record=True) as caught:
        out = minitorch.tensor([]).var()
    assert np.isnan(out.item())
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).startswith("var(): degrees of freedom is <= 0.")


def test_a_learners_own_numpy_still_warns():
    """Only the warnings NumPy attributes to minitorch's modules are dropped."""
    minitorch.tensor([float("inf")]) - minitorch.tensor([float("inf")])
    _, warned = _caught(lambda: np.array([np.inf]) - np.array([np.inf]))
    assert len(warned) == 1 and "invalid value encountered in subtract" in warned[0]


def test_importing_minitorch_silences_its_own_arithmetic_and_nothing_else():
    """In a fresh interpreter, as a notebook's kernel starts (the tests above run with the
    filter that conftest.py puts back)."""
    code = ("import numpy as np, minitorch as mt\n"
            "inf = mt.tensor([float('inf')])\n"
            "(inf - inf, inf * 0.0, (mt.ones(2) * 1e30 * 1e30).sum(), mt.tensor([]).mean())\n"
            "np.array([np.inf]) - np.array([np.inf])  # the learner's own NumPy\n")
    run = subprocess.run([sys.executable, "-W", "default", "-c", code],
                         capture_output=True, text=True, check=True)
    assert run.stderr.count("RuntimeWarning") == 1, run.stderr
    assert "<string>:4: RuntimeWarning: invalid value encountered in subtract" in run.stderr

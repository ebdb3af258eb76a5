"""An op that saves its own output (exp, tanh, sigmoid, relu, softmax, log_softmax,
reciprocal) keeps it without its history, as PyTorch does: no reference cycle, so a graph is
freed as soon as its last tensor goes, not when Python's cycle collector next runs."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

OPS = {
    "exp": lambda t: t.exp(),
    "tanh": lambda t: t.tanh(),
    "sigmoid": lambda t: t.sigmoid(),
    "relu": lambda t: t.relu(),
    "softmax": lambda t: t.softmax(0),
    "log_softmax": lambda t: t.log_softmax(0),
    "reciprocal": lambda t: t.reciprocal(),
}
VALUES = np.array([-1.5, 0.0, 0.5, 2.0])


@pytest.fixture
def no_cycle_collector():
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was:
        gc.enable()


@pytest.mark.parametrize("name", OPS)
def test_a_graph_that_saves_an_output_is_freed_without_the_cycle_collector(
        name, no_cycle_collector):
    x = minitorch.tensor(VALUES, requires_grad=True)
    y = OPS[name](x * 1.0)
    node = weakref.ref(y.grad_fn)
    out = weakref.ref(y)
    del y
    assert out() is None and node() is None


@pytest.mark.parametrize("name", OPS)
def test_the_saved_output_is_a_new_tensor_with_the_same_values_as_in_pytorch(name):
    for lib in (minitorch, torch):
        x = lib.tensor(VALUES, requires_grad=True)
        y = OPS[name](x)
        saved = y.grad_fn._saved_result
        assert saved is not y  # (PyTorch's docs: "to avoid reference cycles")
        assert saved.equal(y)
        assert saved.grad_fn is y.grad_fn


@pytest.mark.parametrize("name", OPS)
def test_gradients_and_second_derivatives_through_a_saved_output_match_pytorch(name):
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(VALUES, dtype=lib.float64, requires_grad=True)
        y = OPS[name](x)
        (g,) = lib.autograd.grad((y * y).sum(), x, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), x)
        results.append((g.detach().numpy(), h.numpy()))
    for mine, ref in zip(*results):
        np.testing.assert_allclose(mine, ref, rtol=1e-12, atol=1e-12)


def test_a_saved_output_changed_in_place_is_still_caught_and_named():
    messages = []
    for lib in (minitorch, torch):
        x = lib.tensor(VALUES, requires_grad=True)
        y = x.exp()
        y.mul_(2)
        with pytest.raises(RuntimeError) as caught:
            y.sum().backward()
        messages.append(str(caught.value))
    assert "which is output 0 of Exp, is at version 1" in messages[1]
    assert messages[0] == messages[1]

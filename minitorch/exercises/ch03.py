"""Checks for chapter 3 (Backward) that run on real minitorch tensors and graphs.

The plain-Python checks of the chapter (chain rule, gradients by hand, topological sort and
gradient accumulation on dicts) live in :mod:`minitorch.exercises.checks`. The two here use
the real thing:

==========================  =========================================================
check                       the learner writes
==========================  =========================================================
check_logistic_autograd     ``logistic_autograd(w, b, x, y)``: ``(w.grad, b.grad)``
                            of one-sample logistic regression, found by ``backward()``
check_my_backward           ``my_backward(loss)``: a backward engine over minitorch's
                            real graph (``grad_fn``, ``next_functions``, ``apply``)
==========================  =========================================================

Every case builds a fresh graph and compares the learner's gradients with those of the real
``loss.backward()`` on an identical graph. The checks never raise: they show ✓ ✗ ⏳.

Example:
    >>> import minitorch
    >>> def logistic_autograd(w, b, x, y):
    ...     w = minitorch.tensor(w, requires_grad=True)
    ...     b = minitorch.tensor(b, requires_grad=True)
    ...     p = minitorch.sigmoid(w * x + b)
    ...     loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
    ...     loss.backward()
    ...     return w.grad, b.grad
    >>> check_logistic_autograd(logistic_autograd)
    ✓ logistic regression with autograd: all 4 cases passed.
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import format_value, to_numpy
from .runner import Case, run_check

__all__ = ["check_logistic_autograd", "check_my_backward"]


# ------------------------------------------------------------------ helpers
class _Outcome:
    """What a case got: the learner's value, and how many nodes the real engine ran."""

    def __init__(self, value: Any, ran: int) -> None:
        self.value, self.ran = value, ran

    def __repr__(self) -> str:  # the feedback's "got:" line shows the value only
        return format_value(self.value)


def _engine_ran(fn: Callable[[], Any]) -> _Outcome:
    """Run ``fn()`` and count the nodes the real backward engine ran meanwhile."""
    from minitorch.autograd.engine import record_backward  # noqa: PLC0415

    with record_backward() as steps:
        result = fn()
    return _Outcome(result, len(steps))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


# ------------------------------------------------------------------ logistic regression
def check_logistic_autograd(logistic_autograd: Callable[..., Any]) -> bool:
    """Check ``logistic_autograd(w, b, x, y)``: the gradients of one-sample logistic
    regression, computed by autograd.

    The learner makes ``w`` and ``b`` tensors with ``requires_grad=True``, runs the forward
    pass ``z = w * x + b``, ``p = sigmoid(z)``, ``L = -(y log p + (1 - y) log(1 - p))``, calls
    ``L.backward()`` and returns ``(w.grad, b.grad)``. The expected values are the ones found
    by hand: ``((p - y) * x, p - y)``.

    Example:
        >>> def logistic_autograd(w, b, x, y):
        ...     raise NotImplementedError  # your code here
        >>> check_logistic_autograd(logistic_autograd)  # doctest: +ELLIPSIS
        ⏳ logistic regression with autograd: not done yet.
        ...
        False
    """
    samples = [(1.0, 0.0, 6.7, 0.0), (0.5, 0.0, 2.0, 1.0), (-1.0, 0.3, 1.5, 0.0),
               (2.0, -1.0, -0.5, 1.0)]

    def compare(got: Any, expected: Any) -> bool:
        result, ran = got.value, got.ran
        assert ran, ("`backward()` never ran: this exercise is about autograd. Build the loss "
                     "from tensors with `requires_grad=True` and call `loss.backward()`.")
        assert isinstance(result, (tuple, list)) and len(result) == 2, (
            f"Return the pair `(w.grad, b.grad)`; got {format_value(result)}.")
        for name, value, want in zip(("w.grad", "b.grad"), result, expected):
            assert value is not None, (
                f"{name} is None: only tensors created with `requires_grad=True` get a "
                "gradient (and it appears only after `loss.backward()`).")
            array = to_numpy(value)
            assert array is not None and array.size == 1, (
                f"{name} should be one number; got {format_value(value)}.")
            assert math.isclose(float(array.reshape(())), want, rel_tol=1e-4, abs_tol=1e-5), (
                f"{name} should be {want:.5g}; got {float(array.reshape(())):.5g}.")
        return True

    cases = []
    for w, b, x, y in samples:
        p = _sigmoid(w * x + b)
        cases.append(Case(
            f"w={w}, b={b}, x={x}, y={y}",
            lambda w=w, b=b, x=x, y=y: _engine_ran(lambda: logistic_autograd(w, b, x, y)),
            ((p - y) * x, p - y), compare=compare,
            expected_repr=f"(tensor({(p - y) * x:.4f}), tensor({p - y:.4f}))"))
    return run_check(
        "logistic regression with autograd", cases,
        hint=(
            "Let autograd do the chain rule: build the loss from tensors that require grad, then "
            "call `backward()`."
        ),
        more_help=[
            "Only tensors created with `requires_grad=True` get a `.grad`: which of w, b, x, y "
            "need it?",
            "Write the forward pass exactly as the formula in the exercise: z, then p, then the "
            "binary cross-entropy.",
            "After `loss.backward()`, the gradients are in the `.grad` of the tensors you made.",
        ],
    )


# ------------------------------------------------------------------ my_backward
def _problems() -> list[tuple[str, Callable[[], tuple[Any, dict]]]]:
    """Graph builders: each returns ``(loss, {name: leaf})`` for a fresh, identical graph."""
    import minitorch  # noqa: PLC0415

    def one_op():
        x = minitorch.tensor(2.0, requires_grad=True)
        return 3 * x, {"x": x}

    def logistic():
        w = minitorch.tensor(1.0, requires_grad=True)
        b = minitorch.tensor(0.0, requires_grad=True)
        x, y = minitorch.tensor(6.7), minitorch.tensor(0.0)
        p = minitorch.sigmoid(w * x + b)
        loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
        return loss, {"w": w, "b": b, "x": x}

    def diamond():
        x = minitorch.tensor(3.0, requires_grad=True)
        a = x * 2
        b = x + 1
        return a * b, {"x": x}

    def used_three_times():
        x = minitorch.tensor(3.0, requires_grad=True)
        return x * x + x, {"x": x}

    def worked_example():
        x = minitorch.ones(5)
        y = minitorch.zeros(3)
        w = minitorch.tensor(np.linspace(-1.0, 1.0, 15, dtype=np.float32).reshape(5, 3),
                             requires_grad=True)
        b = minitorch.tensor([0.1, -0.2, 0.3], requires_grad=True)
        z = minitorch.matmul(x, w) + b
        loss = minitorch.nn.functional.binary_cross_entropy_with_logits(z, y)
        return loss, {"w": w, "b": b, "x": x}

    def deep_chain():
        x = minitorch.tensor(1.0, requires_grad=True)
        h = x
        for _ in range(2000):
            h = h * 1.0005
        return h, {"x": x}

    return [
        ("y = 3 * x at x = 2", one_op),
        ("logistic regression: w=1, b=0, x=6.7, y=0", logistic),
        ("diamond: L = (2 * x) * (x + 1) at x = 3", diamond),
        ("x used three times: y = x * x + x at x = 3", used_three_times),
        ("the worked example: matmul, + b, BCE with logits", worked_example),
        ("a chain 2,000 ops deep", deep_chain),
    ]


def _grads(leaves: dict) -> dict:
    return {name: t.grad for name, t in leaves.items()}


def _run_learner(my_backward: Callable[[Any], Any], build: Callable, times: int) -> tuple:
    loss, leaves = build()

    def run() -> None:
        for _ in range(times):
            my_backward(loss)

    outcome = _engine_ran(run)
    outcome.value = _grads(leaves)
    return outcome


def _expected(build: Callable, times: int) -> dict:
    loss, leaves = build()
    for _ in range(times):
        loss.backward(retain_graph=True)
    return _grads(leaves)


def _compare_grads(got: Any, expected: dict) -> bool:
    grads, ran = got.value, got.ran
    assert not ran, ("`my_backward` ran the real engine (`loss.backward()` or "
                     "`autograd.grad`): write the sweep yourself, with `node.apply(grad)`.")
    for name, want in expected.items():
        have = grads[name]
        if want is None:
            assert have is None, (
                f"{name} has requires_grad=False, so it must not get a .grad; got "
                f"{format_value(have)}.")
            continue
        assert have is not None, (
            f"{name}.grad is still None: the gradient never reached {name}'s AccumulateGrad "
            "node (skip only the (None, 0) entries of next_functions, and write "
            "`leaf.grad` when you reach an AccumulateGrad node).")
        assert have.requires_grad is False and have.grad_fn is None, (
            f"{name}.grad has a grad_fn: run the sweep inside `with minitorch.no_grad():`, "
            "as the real engine does, so the backward pass itself is not recorded.")
        a, e = to_numpy(have), to_numpy(want)
        assert a.shape == e.shape, f"{name}.grad has shape {a.shape}; expected {e.shape}."
        assert np.allclose(a, e, rtol=1e-4, atol=1e-6), (
            f"{name}.grad should be {format_value(want)}; got {format_value(have)}.")
    return True


def check_my_backward(my_backward: Callable[[Any], Any]) -> bool:
    """Check ``my_backward(loss)``: a small backward engine over minitorch's real graph.

    ``my_backward`` must leave in each leaf's ``.grad`` exactly what ``loss.backward()``
    leaves there: start from ``loss.grad_fn`` with the gradient ``1``, visit the nodes in a
    topological order (each node before the nodes in its ``next_functions``), call
    ``node.apply(grad)`` to get one gradient per entry of ``node.next_functions``, **sum**
    the gradients arriving at a node from several uses, skip ``(None, 0)`` entries, and at an
    ``AccumulateGrad`` node add the gradient into ``node.variable.grad``. The cases include a
    diamond, a tensor used three times, the chapter's worked example, a chain 2,000 ops deep,
    and two calls in a row (the second must add to ``.grad``). The real engine must not run.

    The graphs have no broadcasting: the real engine also sums a gradient back down to its
    input's shape where the forward pass broadcast it, which this small version skips.

    Example:
        >>> def my_backward(loss):
        ...     raise NotImplementedError  # your code here
        >>> check_my_backward(my_backward)  # doctest: +ELLIPSIS
        ⏳ my_backward: not done yet.
        ...
        False
    """
    cases = []
    for name, build in _problems():
        cases.append(Case(name, lambda build=build: _run_learner(my_backward, build, 1),
                          _expected(build, 1), compare=_compare_grads,
                          expected_repr="the same .grad as loss.backward()"))
    _, diamond = _problems()[2]
    cases.append(Case("two calls in a row on the diamond: .grad adds up",
                      lambda: _run_learner(my_backward, diamond, 2), _expected(diamond, 2),
                      compare=_compare_grads,
                      expected_repr="twice the gradient of one call (x.grad = 28)"))
    return run_check(
        "my_backward", cases,
        hint=(
            "Backward visits the nodes in topological order and *sums* the gradients that reach a"
            " node from its several uses."
        ),
        more_help=[
            "Your `topo_sort` and `graph_of` from above give the order; the loss's node starts "
            "with a gradient of ones.",
            "For each node, `node.apply(grad)` returns one gradient per entry of "
            "`node.next_functions`: hand each to that node, adding to what it already has.",
            "An `AccumulateGrad` node ends a path: its gradient goes into its `.variable`'s "
            "`.grad`, added to any gradient already there. Skip `(None, 0)` entries.",
        ],
    )

"""Chapter 03 (Backward: the chain rule): the checks of its code exercises.

==========================  =================================================================
check                       the learner writes
==========================  =================================================================
check_chain_rule            ``chain_rule(df, g, dg, x)``: the derivative of ``f(g(x))``
check_logistic_grads        ``logistic_grads(w, b, x, y)``: ``(dL/dw, dL/db)`` of one-sample
                            logistic regression, derived by hand with plain floats
check_logistic_autograd     ``logistic_autograd(w, b, x, y)``: the same two gradients, found
                            by ``backward()`` on minitorch tensors
==========================  =================================================================

Like every check, these never raise: they show ✓, ✗ (with what was wrong) or ⏳ (the learner's
code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> check_chain_rule(lambda df, g, dg, x: df(g(x)) * dg(x))  # doctest: +ELLIPSIS
    ✓ chain rule: all ... cases passed.
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ._common import format_value, to_numpy
from .runner import Case, run_check

__all__ = ["check_chain_rule", "check_logistic_autograd", "check_logistic_grads"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_chain_rule": "chain_rule",
    "check_logistic_grads": "logistic_grads",
    "check_logistic_autograd": "logistic_autograd",
}


def check_chain_rule(chain_rule: Callable[..., float]) -> bool:
    """Check ``chain_rule(df, g, dg, x)``, the derivative of ``f(g(x))`` at ``x``.

    Here ``df`` is the derivative of the outer function ``f``, ``g`` the inner function and
    ``dg`` its derivative. The chain rule says: ``df(g(x)) * dg(x)``.

    Example:
        >>> def chain_rule(df, g, dg, x):
        ...     return df(g(x)) * dg(x)
        >>> check_chain_rule(chain_rule)
        ✓ chain rule: all 3 cases passed.
        True
    """
    cases = [
        Case("f = sin, g(x) = x**2, at x = 1.5",
             lambda: chain_rule(math.cos, lambda x: x**2, lambda x: 2 * x, 1.5),
             math.cos(2.25) * 3.0),
        Case("f = exp, g(x) = 3x, at x = 0.5",
             lambda: chain_rule(math.exp, lambda x: 3 * x, lambda x: 3.0, 0.5),
             3.0 * math.exp(1.5)),
        Case("f(u) = u**3, g = sin, at x = 1",
             lambda: chain_rule(lambda u: 3 * u**2, math.sin, math.cos, 1.0),
             3 * math.sin(1.0) ** 2 * math.cos(1.0)),
    ]
    return run_check(
        "chain rule", cases,
        hint=(
            "The chain rule: the outer derivative, taken at the inner value, times the inner "
            "derivative."
        ),
        more_help=[
            "Which argument of `df` is right: `x` or `g(x)`?",
        ],
    )


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def check_logistic_grads(logistic_grads: Callable[..., Any]) -> bool:
    """Check hand-derived gradients of one-sample logistic regression.

    The learner writes ``logistic_grads(w, b, x, y)`` returning ``(dL_dw, dL_db)`` for::

        z = w * x + b
        p = sigmoid(z)                                # 1 / (1 + exp(-z))
        L = -(y * log(p) + (1 - y) * log(1 - p))      # binary cross-entropy

    Example:
        >>> import math
        >>> def logistic_grads(w, b, x, y):
        ...     p = 1 / (1 + math.exp(-(w * x + b)))
        ...     return (p - y) * x, p - y
        >>> check_logistic_grads(logistic_grads)
        ✓ logistic regression gradients: all 4 cases passed.
        True
    """
    samples = [(0.5, 0.0, 2.0, 1.0), (-1.0, 0.3, 1.5, 0.0), (2.0, -1.0, -0.5, 1.0),
               (0.0, 0.0, 3.0, 0.0)]
    cases = []
    for w, b, x, y in samples:
        p = _sigmoid(w * x + b)
        expected = ((p - y) * x, p - y)
        cases.append(Case(f"w={w}, b={b}, x={x}, y={y}",
                          lambda w=w, b=b, x=x, y=y: logistic_grads(w, b, x, y),
                          expected))
    return run_check(
        "logistic regression gradients", cases,
        hint=(
            "Apply the chain rule through z = w*x + b, p = sigmoid(z) and the binary "
            "cross-entropy."
        ),
        more_help=[
            "Work out dL/dp and dp/dz separately, then multiply: the product simplifies a lot.",
            "dz/dw and dz/db come straight from z = w*x + b.",
            "Return the two gradients as a pair, in the order (dL/dw, dL/db).",
        ],
    )


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

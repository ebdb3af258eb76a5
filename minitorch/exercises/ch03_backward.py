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

import numpy as np

from ._checking import engine_ran, from_pytorch
from ._common import format_value, to_numpy
from .runner import Case, Shortcut, run_check

__all__ = ["check_chain_rule", "check_logistic_autograd", "check_logistic_grads"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_chain_rule": "chain_rule",
    "check_logistic_grads": "logistic_grads",
    "check_logistic_autograd": "logistic_autograd",
}


def _is_number(value: Any) -> bool:
    array = to_numpy(value)
    return array is not None and array.size == 1 and not isinstance(value, (bool, np.bool_))


def _chain_rule_compare(df: Callable, g: Callable, dg: Callable,
                        x: float) -> Callable[[Any, float], bool]:
    """Compare with the chain rule, naming the usual slips (computed for this case)."""

    def compare(got: Any, expected: float) -> bool:
        if callable(got):
            raise AssertionError("You returned a function: return the number, the derivative "
                                 "of f(g(x)) at this x.")
        if not _is_number(got):
            raise AssertionError(f"Return one number; got {format_value(got)}.")
        value = float(np.asarray(to_numpy(got)).reshape(()))
        if math.isclose(value, expected, rel_tol=1e-6, abs_tol=1e-9):
            return True
        slips = [
            (df(x) * dg(x), "You evaluated the outer derivative at x: `df` must be taken at "
             "the inner *value*, g(x), the point where f is applied."),
            (df(g(x)), "The inner derivative is missing: the chain rule multiplies the outer "
             "derivative (at g(x)) by the inner one, dg(x)."),
            (df(g(x)) + dg(x), "You added the two derivatives: along a chain, local "
             "derivatives are *multiplied*."),
            (df(dg(x)) * dg(x), "You passed the inner *derivative* to `df`: the outer "
             "derivative is taken at the inner value, g(x)."),
        ]
        for slip, why in slips:
            if math.isclose(value, slip, rel_tol=1e-6, abs_tol=1e-9) and not math.isclose(
                    slip, expected, rel_tol=1e-6, abs_tol=1e-9):
                raise AssertionError(why)
        slope = (g(x + 1e-6) - g(x - 1e-6)) / 2e-6  # g's own slope, measured numerically
        if not math.isclose(slope, dg(x), rel_tol=1e-3, abs_tol=1e-6) and math.isclose(
                value, df(g(x)) * slope, rel_tol=1e-3, abs_tol=1e-6):
            raise AssertionError(
                f"You measured g's slope numerically ({slope:.4g} here) instead of using "
                f"`dg`, which gives {dg(x):.4g}: the chain rule multiplies by the inner "
                "derivative you are given, dg(x).")
        return False

    return compare


def check_chain_rule(chain_rule: Callable[..., float]) -> bool:
    """Check ``chain_rule(df, g, dg, x)``, the derivative of ``f(g(x))`` at ``x``.

    Here ``df`` is the derivative of the outer function ``f``, ``g`` the inner function and
    ``dg`` its derivative. The chain rule says: ``df(g(x)) * dg(x)``. A wrong answer is
    compared with the usual slips (the outer derivative taken at x, the inner derivative
    missing, the two added) to name the mistake. One case gives a ``dg`` that is not the
    slope of ``g`` (``g = round`` with the straight-through ``dg = 1``), so an answer that
    measures ``g``'s slope numerically instead of using ``dg`` is seen.

    Example:
        >>> def chain_rule(df, g, dg, x):
        ...     return df(g(x)) * dg(x)
        >>> check_chain_rule(chain_rule)
        ✓ chain rule: all 5 cases passed.
        True
    """
    problems = [
        ("f = sin, g(x) = x**2, at x = 1.5", math.cos, lambda x: x**2, lambda x: 2 * x, 1.5),
        ("f = exp, g(x) = 3x, at x = 0.5", math.exp, lambda x: 3 * x, lambda x: 3.0, 0.5),
        ("f(u) = u**3, g = sin, at x = 1", lambda u: 3 * u**2, math.sin, math.cos, 1.0),
        ("f = log, g(x) = x**2 + 1, at a negative x = -2", lambda u: 1 / u,
         lambda x: x**2 + 1, lambda x: 2 * x, -2.0),
        # dg is not g's slope (round is flat): only df(g(x)) * dg(x) gives the expected value
        ("f = exp, g = round with the straight-through dg(x) = 1, at x = 0.3", math.exp,
         round, lambda x: 1.0, 0.3),
    ]
    cases = [
        Case(name, lambda df=df, g=g, dg=dg, x=x: chain_rule(df, g, dg, x), df(g(x)) * dg(x),
             compare=_chain_rule_compare(df, g, dg, x))
        for name, df, g, dg, x in problems
    ]
    return run_check(
        "chain rule", cases,
        hint=(
            "The chain rule: the outer derivative, taken at the inner value, times the inner "
            "derivative."
        ),
        more_help=[
            "Which argument of `df` is right: `x` or `g(x)`?",
            "How do the two derivatives combine along a chain: added or multiplied?",
        ],
    )


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def _logistic_slips(w: float, b: float, x: float, y: float) -> list[tuple[tuple, str]]:
    """What the usual slips of the logistic gradients give (to name a wrong answer)."""
    z = w * x + b
    p = _sigmoid(z)
    return [
        (((y - p) * x, y - p), "Every value has the wrong sign: dL/dz is p - y (the loss "
         "grows when p moves away from y), not y - p."),
        ((p - y, p - y), "dL/dw is missing its factor x: z = w*x + b, so dz/dw = x (and only "
         "dz/db = 1)."),
        ((p - y, (p - y) * x), "The two gradients are in the wrong order: return "
         "(dL/dw, dL/db)."),
        (((z - y) * x, z - y), "You used z where p belongs: the loss compares the "
         "probability p = sigmoid(z) with y, so dL/dz = p - y."),
        (((p - y) * p * (1 - p) * x, (p - y) * p * (1 - p)), "An extra factor p(1 - p): "
         "dL/dp already contains 1 / (p(1 - p)), which cancels the sigmoid's derivative; "
         "dL/dz is simply p - y."),
        (((1 - p - y) * x, 1 - p - y), "Your p is 1 - sigmoid(z): sigmoid(z) = "
         "1 / (1 + exp(-z)), with a minus sign in the exponent."),
        (((_sigmoid(w * x) - y) * x, _sigmoid(w * x) - y), "Your z forgot the bias: "
         "z = w*x + b."),
    ]


def _logistic_compare(w: float, b: float, x: float, y: float) -> Callable[[Any, Any], bool]:
    def compare(got: Any, expected: tuple) -> bool:
        if not (isinstance(got, (tuple, list)) and len(got) == 2):
            raise AssertionError(f"Return the pair `(dL_dw, dL_db)`; got {format_value(got)}.")
        if not all(_is_number(v) for v in got):
            raise AssertionError(f"Return two numbers; got {format_value(got)}.")
        values = tuple(float(np.asarray(to_numpy(v)).reshape(())) for v in got)
        # a formula is exact to the last digits; an estimate (finite differences) is not
        close = [math.isclose(v, e, rel_tol=1e-9, abs_tol=1e-12) for v, e in zip(values, expected)]
        if all(close):
            return True
        for slip, why in _logistic_slips(w, b, x, y):
            if all(math.isclose(v, s, rel_tol=1e-6, abs_tol=1e-9) for v, s in zip(values, slip)) \
                    and not all(math.isclose(s, e, rel_tol=1e-6, abs_tol=1e-9)
                                for s, e in zip(slip, expected)):
                raise AssertionError(why)
        if all(math.isclose(v, e, rel_tol=0.1) for v, e in zip(values, expected)):
            name, value, want = next((n, v, e) for n, v, e, ok in zip(
                ("dL/dw", "dL/db"), values, expected, close) if not ok)
            raise AssertionError(
                f"Close, but not exact: {name} is off by a relative "
                f"{abs(value - want) / abs(want):.1e}. That is what finite differences give "
                "(the loss evaluated at nearby points estimates the slope); a formula derived "
                "with the chain rule is exact to the last digits.")
        return False

    return compare


_PLAIN_FLOATS = Shortcut(
    "This exercise derives the gradients by hand, with plain Python floats and `math`: a "
    "tensor, or autograd, would find them for you (that is Exercise 3).",
    packages=("minitorch", "torch"))
_NO_LOSS = Shortcut(
    "The derivative has no logarithm left in it (the log's derivative is 1/p): a `log` "
    "means evaluating the loss itself, which estimates the gradient numerically instead of "
    "deriving it by hand.",
    objects={"math.log": math.log, "math.log1p": math.log1p, "math.log2": math.log2,
             "math.log10": math.log10})


def check_logistic_grads(logistic_grads: Callable[..., Any]) -> bool:
    """Check hand-derived gradients of one-sample logistic regression.

    The learner writes ``logistic_grads(w, b, x, y)`` returning ``(dL_dw, dL_db)`` for::

        z = w * x + b
        p = sigmoid(z)                                # 1 / (1 + exp(-z))
        L = -(y * log(p) + (1 - y) * log(1 - p))      # binary cross-entropy

    with plain floats: a call to minitorch or PyTorch is refused, and so is `math.log` (the
    derivative has no log in it: a log means evaluating the loss, finite differences). The
    values must be exact to 1e-9 (relative), which estimates are not, on inputs where they
    lose digits. A wrong answer is compared with the usual slips (the sign, the factor x, the
    order, z for p, an extra p(1 - p), the bias forgotten) to name the mistake.

    Example:
        >>> import math
        >>> def logistic_grads(w, b, x, y):
        ...     p = 1 / (1 + math.exp(-(w * x + b)))
        ...     return (p - y) * x, p - y
        >>> check_logistic_grads(logistic_grads)
        ✓ logistic regression gradients: all 6 cases passed.
        True
    """
    samples = [(0.5, 0.0, 2.0, 1.0), (-1.0, 0.3, 1.5, 0.0), (2.0, -1.0, -0.5, 1.0),
               (0.0, 0.0, 3.0, 0.0), (1.5, -0.5, -2.0, 0.0),
               # a large x: the loss curves fast in w, where finite differences lose digits
               (-0.0004, 0.5, -5000.0, 1.0)]
    cases = []
    for w, b, x, y in samples:
        p = _sigmoid(w * x + b)
        expected = ((p - y) * x, p - y)
        cases.append(Case(f"w={w}, b={b}, x={x}, y={y}",
                          lambda w=w, b=b, x=x, y=y: logistic_grads(w, b, x, y),
                          expected, compare=_logistic_compare(w, b, x, y)))
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
        refuse=[_PLAIN_FLOATS, _NO_LOSS],
    )


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

    def compare_for(w: float, b: float, x: float, y: float) -> Callable[[Any, Any], bool]:
        z = w * x + b
        p = _sigmoid(z)
        squared = (2 * (p - y) * p * (1 - p) * x, 2 * (p - y) * p * (1 - p))

        def compare(got: Any, expected: Any) -> bool:
            result, ran = got.value, got.ran
            assert isinstance(result, (tuple, list)) and len(result) == 2, (
                f"Return the pair `(w.grad, b.grad)`; got {format_value(result)}.")
            assert not any(from_pytorch(v) for v in result), (
                "These are PyTorch tensors. In this notebook `torch` is minitorch (`import "
                "minitorch as torch`): build the loss with it, so that minitorch's autograd "
                "computes the gradients.")
            assert ran, ("`backward()` never ran: this exercise is about autograd. Build the "
                         "loss from tensors with `requires_grad=True` and call "
                         "`loss.backward()`.")
            values = []
            for name, value in zip(("w.grad", "b.grad"), result):
                assert value is not None, (
                    f"{name} is None: only tensors created with `requires_grad=True` get a "
                    "gradient (and it appears only after `loss.backward()`).")
                array = to_numpy(value)
                assert array is not None and array.size == 1, (
                    f"{name} should be one number; got {format_value(value)}.")
                values.append(float(array.reshape(())))
            filled = [float(step.accumulated_into.grad.detach().numpy().reshape(-1)[0])
                      for step in got.steps if step.accumulated_into is not None
                      and step.accumulated_into.grad is not None
                      and step.accumulated_into.grad.numel() == 1]
            for name, value in zip(("w.grad", "b.grad"), values):
                assert any(math.isclose(value, g, rel_tol=1e-9, abs_tol=1e-12)
                           for g in filled), (
                    f"`backward()` ran, but your {name} ({value:.5g}) is not a gradient it "
                    "computed (it filled "
                    + (", ".join(f"{g:.5g}" for g in filled) or "no one-number `.grad`")
                    + "): build the loss from the tensors `w` and `b`, call `backward()` on "
                    "it and return their `.grad`, not a formula.")

            def same(pair: tuple) -> bool:
                return all(math.isclose(v, e, rel_tol=1e-4, abs_tol=1e-5)
                           for v, e in zip(values, pair))

            if same(expected):
                return True
            slips = [
                ((-expected[0], -expected[1]), "Every value has the wrong sign: the loss is "
                 "the *negative* log-likelihood, -(y log p + (1 - y) log(1 - p))."),
                ((2 * expected[0], 2 * expected[1]), "Every value is twice the right one: "
                 "`backward()` ran twice on the same loss (gradients add up in `.grad`), or "
                 "the loss counts its terms twice."),
                ((expected[1], expected[0]), "The two gradients are in the wrong order: "
                 "return `(w.grad, b.grad)`."),
                (squared, "These are the gradients of a squared error (p - y)**2: the loss "
                 "of this exercise is the binary cross-entropy, -(y log p + (1 - y) "
                 "log(1 - p))."),
            ]
            for pair, why in slips:
                if same(pair) and not same(expected):
                    raise AssertionError(why)
            raise AssertionError(f"w.grad should be {expected[0]:.5g} and b.grad "
                                 f"{expected[1]:.5g}; got {values[0]:.5g} and {values[1]:.5g}.")

        return compare

    cases = []
    for w, b, x, y in samples:
        p = _sigmoid(w * x + b)
        cases.append(Case(
            f"w={w}, b={b}, x={x}, y={y}",
            lambda w=w, b=b, x=x, y=y: engine_ran(lambda: logistic_autograd(w, b, x, y)),
            ((p - y) * x, p - y), compare=compare_for(w, b, x, y),
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

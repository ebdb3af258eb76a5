"""Chapter 00 (Start here): the check of its one code exercise, built in plain sight.

=========================  ==============================================================
name                       what it is
=========================  ==============================================================
f                          the exercise's function, ``f(x) = (3x + 1)**2``
autograd_derivative        the right answer, ``f'(x)``, computed by autograd
check_derivative           checks the learner's ``df(x)``, the derivative of ``f``
=========================  ==============================================================

Chapter 00 shows this module's source to show that a check is no magic: a few
:class:`~minitorch.exercises.Case` objects given to :func:`~minitorch.exercises.run_check`.

Example:
    >>> check_derivative(lambda x: 2 * (3 * x + 1) * 3)
    ✓ derivative of (3x + 1)**2: all 4 cases passed.
    True
"""

from __future__ import annotations

from collections.abc import Callable

import minitorch

from ._common import to_numpy
from .runner import Case, Shortcut, approx, run_check

__all__ = ["autograd_derivative", "check_derivative", "f"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_derivative": "df",
}


def f(x):
    return (3 * x + 1) ** 2


def autograd_derivative(x: float) -> float:
    """The right answer, from autograd."""
    t = minitorch.tensor(x, requires_grad=True)
    f(t).backward()
    return t.grad.item()


NO_AUTOGRAD = Shortcut(
    "The exercise is to find the derivative yourself, with the chain rule: autograd is the "
    "answer key.",
    objects={"autograd_derivative": autograd_derivative,
             "Tensor.backward": minitorch.Tensor.backward,
             "torch.autograd.grad": minitorch.autograd.grad,
             "torch.autograd.backward": minitorch.autograd.backward})


def exactly(got, expected) -> bool:
    """The formula gives these derivatives exactly; a finite difference only comes close."""
    if approx(atol=0.0, rtol=1e-12)(got, expected):
        return True
    if approx()(got, expected):
        off = abs(float(to_numpy(got)) - expected)
        raise AssertionError(f"Close, but not exact (off by {off:.1e}), as a numerical estimate "
                             "(a finite difference) is: write the formula of f'(x) instead.")
    return False


def check_derivative(df: Callable[[float], float]) -> bool:
    cases = [Case(f"df({x})", lambda x=x: df(x), autograd_derivative(x), compare=exactly)
             for x in [0.0, 1.0, -2.0, 0.5]]
    return run_check("derivative of (3x + 1)**2", cases, refuse=[NO_AUTOGRAD],
                     hint="Chain rule: the outer derivative 2(3x + 1) times the inner one, 3.",
                     more_help=["f is an outer function of an inner one: f(x) = u**2 with "
                                "u = 3x + 1.",
                                "The chain rule multiplies two derivatives: d(u**2)/du = 2u, "
                                "and du/dx. What is du/dx for u = 3x + 1?"])

"""Chapter 05 (Checking gradients): the checks of its code exercises.

=========================  ==================================================================
check                      the learner writes
=========================  ==================================================================
check_vjp                  ``vjp_f(x, v)``: the vector-Jacobian product of
                           ``f(x) = x * x.sum()``, without building the Jacobian
check_gradcheck            ``my_gradcheck(f, x, eps, atol)``: whether autograd's gradient of
                           a scalar ``f`` matches central finite differences
check_second_derivative    ``second_derivative(f, x)``: ``f''(x)``, by differentiating twice
                           with ``create_graph=True``
=========================  ==================================================================

Like every check, these never raise: they show ✓, ✗ (with what was wrong) or ⏳ (the learner's
code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> check_vjp(lambda x, v: v * x.sum() + (v * x).sum())  # doctest: +ELLIPSIS
    ✓ ...
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import EngineRun, engine_ran, from_pytorch, watch_ops
from ._common import format_value, to_numpy
from .runner import Case, Shortcut, WrongAnswer, learner_line, run_check

__all__ = ["check_gradcheck", "check_second_derivative", "check_vjp"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_vjp": "vjp_f",
    "check_gradcheck": "my_gradcheck",
    "check_second_derivative": "second_derivative",
}


# ================================================================== the second layer
# Vector-Jacobian products, a finite-difference gradient checker, second derivatives.
# Every reference below comes from the real engine or a closed-form formula, never from the
# learner's own code.
def _f_times_sum(x: Any) -> Any:
    """The function of the VJP exercise: ``f(x) = x * x.sum()``."""
    return x * x.sum()


def _vjp_reference(x_values: np.ndarray, v_values: np.ndarray) -> np.ndarray:
    """v^T J of ``f(x) = x * x.sum()``, found by the real engine with ``backward(gradient=v)``."""
    import minitorch

    x = minitorch.tensor(x_values, requires_grad=True)
    _f_times_sum(x).backward(gradient=minitorch.tensor(v_values))
    return x.grad.numpy()


def check_vjp(vjp_f: Callable[[Any, Any], Any]) -> bool:
    """Check ``vjp_f(x, v)``: the vector-Jacobian product ``v^T J`` of ``f(x) = x * x.sum()``.

    The Jacobian of ``f`` is ``J = s I + x 1^T`` with ``s = x.sum()``, so
    ``v^T J = s v + (v . x) 1``. The learner writes it with tensor arithmetic, without calling
    ``backward`` and without building ``J`` (an operation on a tensor of two or more
    dimensions is refused), returns a minitorch tensor and leaves ``x`` and ``v`` unchanged;
    the expected value comes from the real ``f(x).backward(gradient=v)``.

    Example:
        >>> import minitorch
        >>> def vjp_f(x, v):
        ...     return v * x.sum() + (v * x).sum()
        >>> check_vjp(vjp_f)
        ✓ vjp of f(x) = x * x.sum(): all 4 cases passed.
        True
    """
    import minitorch

    samples = [([1.0, 2.0, 3.0], [2.0, 0.0, 0.0]), ([1.0, 2.0, 3.0], [0.5, -1.0, 2.0]),
               ([0.3, -1.2], [2.0, 1.0]), ([0.1, 0.2, -0.4, 1.5, 2.0], [1.0, 1.0, 1.0, 1.0, 1.0])]

    def compare(got: Any, expected: np.ndarray) -> bool:
        value, ran = got.value, got.ran
        assert not ran, ("`vjp_f` called backward(): write v^T J yourself, with tensor "
                         "arithmetic on x and v (the check compares with backward).")
        assert isinstance(value, minitorch.Tensor), (
            f"Return a minitorch tensor (tensor arithmetic on x and v gives one); got "
            f"{'a PyTorch tensor' if from_pytorch(value) else format_value(value)}.")
        array = to_numpy(value)
        assert array.shape == expected.shape, (
            f"A VJP has the shape of the input x, {expected.shape}; got {array.shape}. "
            "(v^T J is a row: one number per input element.)")
        if np.allclose(array, expected, rtol=1e-5, atol=1e-6):
            return True
        x, v = got.inputs
        s = x.sum()
        # what the usual slips give, from the closed form J = s I + x 1^T (to name the slip;
        # the expected value itself comes from backward)
        slips = [
            (-expected, "Every value has the wrong sign: a VJP is v^T J, with no minus sign "
             "(descent steps subtract gradients later; the VJP itself does not)."),
            (s * v + x * v.sum(), "That is J v, not v^T J: you used the Jacobian transposed. "
             "Entry j of v^T J sums over the outputs i: v_i * d f_i / d x_j."),
            (s * v, "Only the diagonal of J: every output f_i also depends on every x_j "
             "through the sum, so J is not diagonal."),
            (s * v + x, "You dropped v from the off-diagonal part: each term of the sum over "
             "outputs is weighted by v_i."),
            (s * v + v * x, "The off-diagonal part is one number, the sum over i of v_i x_i, "
             "added to every entry: yours adds v_j x_j to entry j instead."),
        ]
        matches = [why for value_if_slip, why in slips
                   if value_if_slip.shape == array.shape
                   and np.allclose(array, value_if_slip, rtol=1e-5, atol=1e-6)]
        if len(matches) == 1:  # two slips that give the same numbers here name neither
            raise AssertionError(matches[0])
        raise AssertionError(
            "The values differ. Remember that every output depends on every x through the "
            "sum: J is not diagonal.")

    cases = []
    for x_values, v_values in samples:
        x_np = np.array(x_values, dtype=np.float64)
        v_np = np.array(v_values, dtype=np.float64)

        def run(x_np=x_np, v_np=v_np):
            x, v = minitorch.tensor(x_np), minitorch.tensor(v_np)
            with watch_ops() as seen:
                outcome = engine_ran(lambda: vjp_f(x, v))
            for name, t, was in (("x", x, x_np), ("v", v, v_np)):
                if not np.array_equal(t.numpy(), was):
                    raise WrongAnswer(
                        f"`vjp_f` changed its input `{name}` in place (`*=`, `+=`, a method "
                        "ending in `_`): compute new tensors instead.")
            if seen.largest_ndim >= 2:
                shapes = sorted({shape for _, ins, outs in seen.ops for shape in (*ins, *outs)
                                 if len(shape) >= 2})
                raise WrongAnswer(
                    f"Your code built a matrix (a tensor of shape {shapes[0]}): that is the "
                    "Jacobian, or a piece of it. The exercise asks for v^T J *without* "
                    "building J, which is what makes a VJP cheap: one number per input, "
                    "from tensor arithmetic on x and v alone.")
            if isinstance(outcome.value, minitorch.Tensor) and \
                    outcome.value.dtype != minitorch.float64:
                raise WrongAnswer(
                    f"Your VJP is {str(outcome.value.dtype).rsplit('.', 1)[-1]}, though x and "
                    "v are float64: a tensor rebuilt from Python numbers (a list, `.item()`) "
                    "gets the default dtype, float32, and loses half the digits. Compute with "
                    "x and v themselves: the result keeps their dtype.")
            outcome.inputs = (x_np, v_np)
            return outcome

        cases.append(Case(f"x={x_values}, v={v_values}", run, _vjp_reference(x_np, v_np),
                          compare=compare))
    return run_check(
        "vjp of f(x) = x * x.sum()", cases,
        hint="A VJP is the row v^T J: entry j sums v_i * d f_i / d x_j over every output i, "
        "without ever building J.",
        more_help=[
            "Write f_i = x_i * s with s = x.sum(). Which inputs x_j does the output f_i depend "
            "on? (All of them, through s.)",
            "Differentiate f_i = x_i * s by x_j with the product rule: one term is there only "
            "when i == j (the diagonal of J), the other is there for every i and j.",
            "Weight each row i by v_i and sum over i: the diagonal term gives one value per j, "
            "the other term gives the same number for every j. Both are tensor expressions "
            "in x and v.",
        ],
    )


class _BadSquare:
    """``x ** 2`` with a backward that forgot the factor 2 (a bug gradcheck must catch)."""

    @staticmethod
    def make() -> Any:
        import minitorch

        class BadSquare(minitorch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad * x  # wrong: d(x^2)/dx = 2x

        return BadSquare


class _ZeroGradient:
    """``x ** 2`` with a backward that returns zeros: wrong for any x that is not 0."""

    @staticmethod
    def make() -> Any:
        import minitorch

        class ZeroGradient(minitorch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * x

            @staticmethod
            def backward(ctx, grad):
                return grad * 0

        return ZeroGradient


def _truthy(verdict: Any) -> bool:
    try:
        return bool(verdict)
    except Exception:
        return False


class _Verdict:
    """What a gradient checker said, and whether it left ``x`` as it found it."""

    def __init__(self, verdict: Any, unchanged: bool) -> None:
        self.verdict, self.unchanged = verdict, unchanged

    def __repr__(self) -> str:  # the feedback's "got:" line: the verdict, and what else it did
        return format_value(self.verdict) + ("" if self.unchanged else ", and x changed")


_FAST_CURVE = ("a correct gradient on sin(30 x), which curves fast (a one-sided difference "
               "is off here)")


_SLIGHTLY_WRONG = "a custom log whose backward is off by a little (about 0.2%)"

_ONE_ELEMENT = "a wrong backward that shows in one element only"

_ZERO_GRADIENT = "a correct gradient that is 0 at one element: (x ** 2).sum() at x = [0, 1.5]"

_NEAR_ZERO = ("a correct gradient that is 0 at x = 0, where the central difference is "
              "about 1e-12, not 0: (x ** 3 + x ** 2).sum() at x = [0]")

_STALE_GRAD = ("a correct gradient, with x.grad still holding an earlier gradient when the "
               "checker is called")

_MISPLACED = ("a custom backward whose gradient is right in total but in the wrong places "
              "(reversed)")


def _gradcheck_problems() -> list[tuple[str, Callable[[], tuple[Callable, Any]], bool]]:
    """``(name, build, right)``: ``build()`` gives ``(f, x)``; ``right`` says whether the
    autograd gradient of ``f`` is correct (known by construction, not measured)."""
    import minitorch

    def x64(values):
        return minitorch.tensor(values, dtype=minitorch.float64, requires_grad=True)

    def sin_sum():
        return (lambda x: x.sin().sum()), x64([0.1, 1.0, -2.0])

    def product():
        return (lambda x: x[0] * x[1] + x[2] * x[3] ** 2), x64([1.5, -0.5, 2.0, 3.0])

    def softplus():
        return (lambda x: minitorch.log(1 + minitorch.exp(x)).sum()), x64([[0.2, -1.0],
                                                                           [3.0, 0.5]])

    def fast_curve():
        # f'' = -900 sin(30 x) is large: (f(x + eps) - f(x)) / eps is off by about eps f''/2
        return (lambda x: (30 * x).sin().sum()), x64([0.05, 0.052])

    def bad_square():
        bad = _BadSquare.make()
        return (lambda x: bad.apply(x).sum()), x64([1.0, 2.0, -2.5])

    def bad_on_one_element():
        bad = _BadSquare.make()
        # x ** 2 is wrong only where x != 0: the checker must look at every element
        return (lambda x: (x.sin() + bad.apply(x * minitorch.tensor(
            [0.0, 0.0, 1.0], dtype=minitorch.float64))).sum()), x64([0.5, 1.0, 2.0])

    def bad_mul():
        class BadMul(minitorch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(a, b)
                return a * b

            @staticmethod
            def backward(ctx, grad):
                a, b = ctx.saved_tensors
                return grad * a, grad * b  # swapped: d(ab)/da = b

        w = minitorch.tensor([2.0, -1.0], dtype=minitorch.float64)
        return (lambda x: BadMul.apply(x, w).sum()), x64([3.0, 0.5])

    def zero_gradient():
        return (lambda x: (x ** 2).sum()), x64([0.0, 1.5])

    def near_zero():
        # f(eps) - f(-eps) = 2 eps ** 3: the difference quotient is eps ** 2 = 1e-12 where the
        # gradient is exactly 0, so a relative error is about 1, however it guards its division
        return (lambda x: (x ** 3 + x ** 2).sum()), x64([0.0])

    def stale_grad():
        x = x64([0.3, -0.8, 1.1])
        x.grad = minitorch.ones_like(x)  # left over from an earlier backward
        return (lambda x: (x.sin() * x).sum()), x

    def misplaced():
        class Reversed(minitorch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                g = 2 * grad * x
                return minitorch.stack([g[2], g[1], g[0]])  # wrong: right values, wrong places

        return (lambda x: Reversed.apply(x).sum()), x64([1.0, -0.5, 2.5])

    def slightly_wrong_log():
        class SlightlyWrongLog(minitorch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return minitorch.log(x)

            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return grad / (x + 1e-3)  # wrong: d log(x)/dx = 1 / x, no epsilon

        return (lambda x: SlightlyWrongLog.apply(x).sum()), x64([0.5, 2.0])

    return [("sin(x).sum(), a correct gradient", sin_sum, True),
            ("x[0] * x[1] + x[2] * x[3] ** 2, a correct gradient", product, True),
            ("softplus on a 2 x 2 input, a correct gradient", softplus, True),
            (_FAST_CURVE, fast_curve, True),
            (_ZERO_GRADIENT, zero_gradient, True),
            (_NEAR_ZERO, near_zero, True),
            (_STALE_GRAD, stale_grad, True),
            ("a custom x ** 2 whose backward forgot the 2", bad_square, False),
            (_ONE_ELEMENT, bad_on_one_element, False),
            ("a custom a * b whose backward swapped a and b", bad_mul, False),
            (_MISPLACED, misplaced, False),
            (_SLIGHTLY_WRONG, slightly_wrong_log, False)]


def check_gradcheck(my_gradcheck: Callable[..., Any]) -> bool:
    """Check ``my_gradcheck(f, x)``: True when autograd's gradient of the scalar ``f`` at ``x``
    agrees with central finite differences, False when it does not.

    Seven cases have a correct gradient, five a deliberately wrong ``backward`` (known by
    construction, so the reference does not depend on any checker): one is wrong in a single
    element only, one right in total but at the wrong elements, one by only 0.2% (a tolerance
    that is too loose misses it); one correct case curves so fast that a one-sided difference
    rejects it, one is 0 at an element (a relative error divides by zero there), one is 0
    where the central difference is 1e-12 (a relative error is 100% there, however it guards
    its division), and one comes with an old gradient already in ``x.grad``. The learner's
    ``x`` must come back unchanged. ``my_gradcheck`` is called with its own defaults for
    ``eps`` and ``atol``; the built-in ``gradcheck`` and its ``numerical_jacobian`` are
    refused.

    Example:
        >>> import minitorch
        >>> def my_gradcheck(f, x, eps=1e-6, atol=1e-5):
        ...     x.grad = None
        ...     f(x).backward()
        ...     numeric = minitorch.zeros_like(x)
        ...     with minitorch.no_grad():
        ...         flat, out = x.view(-1), numeric.view(-1)
        ...         for i in range(flat.numel()):
        ...             old = flat[i].item()
        ...             flat[i] = old + eps
        ...             up = f(x).item()
        ...             flat[i] = old - eps
        ...             down = f(x).item()
        ...             flat[i] = old
        ...             out[i] = (up - down) / (2 * eps)
        ...     return minitorch.allclose(x.grad, numeric, atol=atol)
        >>> check_gradcheck(my_gradcheck)
        ✓ my_gradcheck: all 12 cases passed.
        True
    """

    def run(build, right, name):
        f, x = build()
        before = x.detach().clone()
        verdict = my_gradcheck(f, x)
        outcome = _Verdict(verdict, bool(np.array_equal(to_numpy(x.detach()),
                                                        to_numpy(before))))
        outcome.says_false_ever = None
        if not right and _truthy(verdict):  # does it ever say False? ask about a zero gradient
            zero = _ZeroGradient.make()
            probe = minitorch.tensor([0.5, -1.0, 2.0], dtype=minitorch.float64,
                                     requires_grad=True)
            outcome.says_false_ever = not _truthy(my_gradcheck(
                lambda t: zero.apply(t).sum(), probe))
        outcome.right_on_a_parabola = None
        if name == _FAST_CURVE and not _truthy(verdict):
            # 5000 x**2 curves too (f'' = 10000) but f''' = 0: a central difference is exact
            # there for any step, a one-sided one is off by eps * f'' / 2 = 5000 eps
            probe = minitorch.tensor([0.001, -0.002], dtype=minitorch.float64,
                                     requires_grad=True)
            outcome.right_on_a_parabola = _truthy(my_gradcheck(lambda t: (5000 * t * t).sum(),
                                                               probe))
        return outcome

    def compare_for(name: str) -> Callable[[Any, bool], bool]:
        def compare(got: Any, expected: bool) -> bool:
            verdict, unchanged = got.verdict, got.unchanged
            assert isinstance(verdict, (bool, np.bool_)) or (
                hasattr(verdict, "item") and getattr(verdict, "numel", lambda: 0)() == 1), (
                f"Return True or False; got {format_value(verdict)}.")
            assert unchanged, ("x came back changed: put every element back after nudging "
                               "it, or nudge a copy.")
            if bool(verdict) == expected:
                return True
            if name == _FAST_CURVE and got.right_on_a_parabola:
                raise AssertionError(
                    "This gradient is correct, but your checker said False: its "
                    "finite-difference estimate is off. It is right on 5000 x ** 2, where a "
                    "central difference is exact whatever the step, so the step is too large: "
                    "a central difference is off by about eps ** 2 * f'''(x) / 6, and here "
                    "f''' = -27000 cos(30 x). Nudge by the `eps` you are given (1e-6).")
            if name == _FAST_CURVE:
                raise AssertionError(
                    "This gradient is correct, but your checker said False: its "
                    "finite-difference estimate is off. A one-sided difference "
                    "(f(x + eps) - f(x)) / eps is wrong by about eps * f''(x) / 2, large where "
                    "f curves fast; the central difference cancels that term.")
            if name == _NEAR_ZERO:
                raise AssertionError(
                    "This gradient is correct, but your checker said False. It is exactly 0 "
                    "here, while the central difference is eps ** 2 = 1e-12 (a truncation "
                    "error far below any tolerance): measured relative to the gradient, that "
                    "tiny difference is 100%, even with a small number added to the divisor. "
                    "Compare with an absolute tolerance (atol), as allclose does.")
            if name == _ZERO_GRADIENT:
                raise AssertionError(
                    "This gradient is correct, but your checker said False. It is 0 at one "
                    "element: a relative error, |a - n| / |n|, divides by zero there. Compare "
                    "with an absolute tolerance (atol), as allclose does.")
            if name == _STALE_GRAD:
                raise AssertionError(
                    "This gradient is correct, but your checker said False. Here x.grad "
                    "already held a gradient when your checker was called, and backward "
                    "*adds* to .grad: clear x.grad before the backward whose result you "
                    "compare.")
            if name == _MISPLACED:
                raise AssertionError(
                    "This backward is wrong and your checker said True: its gradient has the "
                    "right values but at the wrong elements, so a comparison of totals (or "
                    "norms, or sorted values) misses it. Compare element by element.")
            if name == _SLIGHTLY_WRONG:
                raise AssertionError(
                    "This backward is wrong by only about 0.2%, and your checker said True: "
                    "its tolerance is too loose. In float64, central differences are good to "
                    "about 1e-8, so atol about 1e-5 still catches small bugs.")
            if expected:
                raise AssertionError(
                    "This gradient is correct, so the answer is True: compare with a tolerance "
                    "(exact equality fails on rounding), and make sure the numeric gradient "
                    "uses the same f and x as autograd.")
            if name == _ONE_ELEMENT:
                raise AssertionError(
                    "This backward is wrong in one element only (the last), and your checker "
                    "said True: it does not compare every element. Compare the "
                    "finite-difference gradient with x.grad element by element, all of them.")
            if got.says_false_ever is False:
                raise AssertionError(
                    "This backward is wrong, so the answer is False. Your checker said True "
                    "even for a backward that returns zeros: a checker that never says False "
                    "checks nothing. Compare the finite-difference gradient with x.grad, "
                    "element by element, every element.")
            raise AssertionError(
                "This backward is wrong, so the answer is False, but your checker said True: "
                "compare the finite-difference gradient with x.grad, element by element, every "
                "element, with a tolerance small enough to see the difference.")
        return compare

    import minitorch
    from minitorch.autograd.gradcheck import numerical_jacobian

    answer_key = Shortcut(
        "The exercise is to write the checker: `gradcheck` (and its `numerical_jacobian`) is "
        "the answer key. Compute the finite differences yourself.",
        objects={"torch.autograd.gradcheck": minitorch.autograd.gradcheck,
                 "torch.autograd.gradgradcheck": minitorch.autograd.gradgradcheck,
                 "torch.autograd.gradcheck.numerical_jacobian": numerical_jacobian},
        packages=("torch",))
    cases = [Case(name, lambda build=build, right=right, name=name: run(build, right, name),
                  right, compare=compare_for(name), expected_repr=str(right))
             for name, build, right in _gradcheck_problems()]
    return run_check(
        "my_gradcheck", cases,
        hint="A gradient checker compares autograd's gradient with an independent estimate: "
        "finite differences, one element of x at a time.",
        more_help=[
            "First get autograd's answer: clear x.grad, run f(x) and call backward().",
            "Then the numeric answer for element i: nudge x[i] up by eps and down by eps, "
            "evaluate f each time, and divide the difference by 2 * eps (a central "
            "difference). Do it under no_grad, and put x[i] back afterwards.",
            "`x.view(-1)` shares x's memory, so changing its element i changes x: that reaches "
            "every element of a tensor of any shape.",
            "Finally compare the two gradients with a tolerance (allclose with atol), and "
            "return that True or False.",
        ],
        refuse=[answer_key],
    )


def _near(value: Any, want: float) -> bool:
    """Whether ``value`` is one number close to ``want`` (False for anything else)."""
    try:
        array = to_numpy(value)
        return bool(array is not None and array.size == 1 and math.isclose(
            float(np.asarray(array).reshape(())), want, rel_tol=1e-4, abs_tol=1e-6))
    except Exception:
        return False


def check_second_derivative(second_derivative: Callable[[Callable, float], Any]) -> bool:
    """Check ``second_derivative(f, x)``: ``f''(x)`` found with two calls to
    ``torch.autograd.grad``, the first with ``create_graph=True``.

    The expected values are the closed-form second derivatives; the check also makes sure that
    the real engine ran, and that a backward differentiated the result of another (a
    difference of two first derivatives is refused: ``create_graph`` is the point of the
    exercise).

    Example:
        >>> import minitorch
        >>> def second_derivative(f, x):
        ...     x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
        ...     (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
        ...     (d2y,) = minitorch.autograd.grad(dy, x)
        ...     return d2y
        >>> check_second_derivative(second_derivative)
        ✓ second_derivative: all 5 cases passed.
        True
    """
    import minitorch

    problems = [  # (name, f, x, f'(x), f''(x)): closed forms, by hand
        ("f(x) = x ** 3 at x = 2", lambda x: x ** 3, 2.0, 3 * 2.0 ** 2, 6 * 2.0),
        ("f(x) = sin(x) at x = 0.5", minitorch.sin, 0.5, math.cos(0.5), -math.sin(0.5)),
        ("f(x) = exp(2 x) at x = 0.3", lambda x: minitorch.exp(2 * x), 0.3,
         2 * math.exp(0.6), 4 * math.exp(0.6)),
        ("f(x) = x * tanh(x) at x = 0.7", lambda x: x * minitorch.tanh(x), 0.7,
         math.tanh(0.7) + 0.7 * (1 - math.tanh(0.7) ** 2),
         2 * (1 - math.tanh(0.7) ** 2) * (1 - 0.7 * math.tanh(0.7))),
        ("f(x) = x ** 3 at a negative x = -1.5", lambda x: x ** 3, -1.5, 3 * 1.5 ** 2,
         6 * -1.5),
    ]

    def compare_for(first: float) -> Callable[[Any, float], bool]:
        def compare(got: Any, expected: float) -> bool:
            value, ran = got.value, got.ran
            assert ran >= 2, ("The real engine did not run twice: the point is to let "
                              "autograd differentiate its own result (create_graph), not to "
                              "estimate f'' another way.")
            assert not (isinstance(value, tuple) and len(value) == 1), (
                "You returned a tuple of one tensor: `torch.autograd.grad` returns one "
                "gradient per input you ask for, in a tuple. Take its element: "
                "`(d2y,) = ...` or `[0]`.")
            array = to_numpy(value)
            assert array is not None and array.size == 1, (
                f"Return one number (a tensor or a float); got {format_value(value)}.")
            got_value = float(array.reshape(()))
            if math.isclose(got_value, expected, rel_tol=1e-4, abs_tol=1e-6):
                return True
            assert not math.isclose(got_value, first, rel_tol=1e-4, abs_tol=1e-6), (
                f"You returned f'(x) = {first:.6g}, the first derivative: differentiate that "
                "result once more.")
            assert not math.isclose(got_value, first + expected, rel_tol=1e-4, abs_tol=1e-6), (
                f"You returned f'(x) + f''(x) = {first + expected:.6g}: `backward` *adds* "
                "into `x.grad`, so after a second backward it holds both derivatives. Ask "
                "`torch.autograd.grad` for the derivatives instead, which returns them "
                "without touching `.grad`.")
            raise AssertionError(f"f'' should be {expected:.6g}; got {got_value:.6g}.")
        return compare

    functional = minitorch.autograd.functional
    answer_key = Shortcut(
        "The exercise is to differentiate twice yourself, with `create_graph=True`: "
        "`hessian` (and its relatives) are the answer key.",
        objects={f"torch.autograd.functional.{name}": getattr(functional, name)
                 for name in ("hessian", "hvp", "vhp", "jacobian")},
        packages=("torch",))
    def run(f: Callable, x: float, want: float) -> Any:
        from minitorch.autograd.recorders import record_backward

        with record_backward() as steps:
            try:
                value = second_derivative(f, x)
            except RuntimeError as error:
                if "does not require grad" not in str(error):
                    raise
                where = learner_line(error)
                if steps:  # the first derivative was computed: the second one failed
                    raise WrongAnswer(
                        f"{error} ({where}). The first derivative was computed without "
                        "`create_graph=True`, so it is a plain tensor with no graph behind it: "
                        "there is nothing left to differentiate.") from None
                raise WrongAnswer(
                    f"{error} ({where}). Differentiating needs a tensor that requires grad: "
                    "make x a float64 tensor with `requires_grad=True` before calling f.") \
                    from None
        outcome = EngineRun(value, len(steps))
        # the tensors that one backward made with create_graph=True have nodes of their own:
        # a second backward that runs one of them differentiated the first one's result
        made = {g.grad_fn for step in steps for g in step.grad_inputs
                if isinstance(g, minitorch.Tensor) and g.grad_fn is not None}
        if len(steps) >= 2 and not any(step.node in made for step in steps) \
                and _near(value, want):  # the right number, but not from a second backward
            raise WrongAnswer(
                "The engine ran, but no backward differentiated the result of another: each "
                "run started from f(x), so f'' came from some other estimate (a difference "
                "of first derivatives?). Ask for the first derivative with "
                "`create_graph=True`, then differentiate that tensor itself.")
        return outcome

    cases = [Case(name, lambda f=f, x=x, want=want: run(f, x, want), want,
                  compare=compare_for(first), expected_repr=f"{want:.6g}")
             for name, f, x, first, want in problems]
    return run_check(
        "second_derivative", cases,
        hint="A second derivative differentiates the first one, so the first gradient must "
        "itself be recorded as a graph: that is what create_graph=True asks for.",
        more_help=[
            "`torch.autograd.grad(y, x)` returns a tuple: one gradient per input you ask for.",
            "Without create_graph=True, the first gradient is a plain tensor with no grad_fn: "
            "there is nothing left to differentiate, and the second call fails with 'does not "
            "require grad'.",
            "x must be a floating-point tensor with requires_grad=True (float64 keeps the "
            "check's tolerance easy); call grad a second time, on the first result.",
        ],
        refuse=[answer_key],
    )

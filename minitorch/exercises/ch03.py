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

__all__ = ["check_logistic_autograd", "check_my_backward", "check_vjp", "check_gradcheck",
           "check_second_derivative"]


# ------------------------------------------------------------------ helpers
class _Outcome:
    """What a case got: the learner's value, and how many nodes the real engine ran."""

    def __init__(self, value: Any, ran: int) -> None:
        self.value, self.ran = value, ran

    def __repr__(self) -> str:  # the feedback's "got:" line shows the value only
        return format_value(self.value)


def _engine_ran(fn: Callable[[], Any]) -> _Outcome:
    """Run ``fn()`` and count the nodes the real backward engine ran meanwhile."""
    from minitorch.autograd.engine import record_backward

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
    import minitorch

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
    ``backward``; the expected value comes from the real ``f(x).backward(gradient=v)``.

    Example:
        >>> import minitorch
        >>> def vjp_f(x, v):
        ...     return v * x.sum() + (v * x).sum()
        >>> check_vjp(vjp_f)
        ✓ vjp of f(x) = x * x.sum(): all 4 cases passed.
        True
    """
    import minitorch

    samples = [([1.0, 2.0, 3.0], [1.0, 0.0, 0.0]), ([1.0, 2.0, 3.0], [0.5, -1.0, 2.0]),
               ([0.3, -1.2], [2.0, 1.0]), ([0.1, 0.2, -0.4, 1.5, 2.0], [1.0, 1.0, 1.0, 1.0, 1.0])]

    def compare(got: Any, expected: np.ndarray) -> bool:
        value, ran = got.value, got.ran
        assert not ran, ("`vjp_f` called backward(): write v^T J yourself, with tensor "
                         "arithmetic on x and v (the check compares with backward).")
        array = to_numpy(value)
        assert array is not None, f"Return a tensor; got {format_value(value)}."
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
        ]
        for value_if_slip, why in slips:
            if value_if_slip.shape == array.shape and np.allclose(array, value_if_slip,
                                                                  rtol=1e-5, atol=1e-6):
                raise AssertionError(why)
        raise AssertionError(
            "The values differ. Remember that every output depends on every x through the "
            "sum: J is not diagonal.")

    cases = []
    for x_values, v_values in samples:
        x_np = np.array(x_values, dtype=np.float64)
        v_np = np.array(v_values, dtype=np.float64)

        def run(x_np=x_np, v_np=v_np):
            x, v = minitorch.tensor(x_np), minitorch.tensor(v_np)
            outcome = _engine_ran(lambda: vjp_f(x, v))
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


class _Verdict:
    """What a gradient checker said, and whether it left ``x`` as it found it."""

    def __init__(self, verdict: Any, unchanged: bool) -> None:
        self.verdict, self.unchanged = verdict, unchanged

    def __repr__(self) -> str:  # the feedback's "got:" line shows the verdict only
        return format_value(self.verdict)


_FAST_CURVE = ("a correct gradient on sin(30 x), which curves fast (a one-sided difference "
               "is off here)")
_SLIGHTLY_WRONG = "a custom log whose backward is off by a little (about 0.2%)"


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
        return (lambda x: bad.apply(x).sum()), x64([1.0, 2.0, -3.0])

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
            ("a custom x ** 2 whose backward forgot the 2", bad_square, False),
            ("a wrong backward that shows in one element only", bad_on_one_element, False),
            ("a custom a * b whose backward swapped a and b", bad_mul, False),
            (_SLIGHTLY_WRONG, slightly_wrong_log, False)]


def check_gradcheck(my_gradcheck: Callable[..., Any]) -> bool:
    """Check ``my_gradcheck(f, x)``: True when autograd's gradient of the scalar ``f`` at ``x``
    agrees with central finite differences, False when it does not.

    Half of the cases have a correct gradient, half a deliberately wrong ``backward`` (known by
    construction, so the reference does not depend on any checker): one is wrong in a single
    element only, one by only 0.2% (a tolerance that is too loose misses it), and one correct
    case curves so fast that a one-sided difference rejects it. The learner's ``x`` must come
    back unchanged. ``my_gradcheck`` is called with its own defaults for ``eps`` and ``atol``.

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
        ✓ my_gradcheck: all 8 cases passed.
        True
    """

    def run(build):
        f, x = build()
        before = x.detach().clone()
        verdict = my_gradcheck(f, x)
        return _Verdict(verdict, bool(np.array_equal(to_numpy(x.detach()), to_numpy(before))))

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
            if name == _FAST_CURVE:
                raise AssertionError(
                    "This gradient is correct, but your checker said False: its "
                    "finite-difference estimate is off. A one-sided difference "
                    "(f(x + eps) - f(x)) / eps is wrong by about eps * f''(x) / 2, large where "
                    "f curves fast; the central difference cancels that term.")
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
            raise AssertionError(
                "This backward is wrong, so the answer is False. A checker that never says "
                "False checks nothing: compare the finite-difference gradient with x.grad, "
                "element by element, every element.")
        return compare

    cases = [Case(name, lambda build=build: run(build), right, compare=compare_for(name),
                  expected_repr=str(right)) for name, build, right in _gradcheck_problems()]
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
    )


def check_second_derivative(second_derivative: Callable[[Callable, float], Any]) -> bool:
    """Check ``second_derivative(f, x)``: ``f''(x)`` found with two calls to
    ``torch.autograd.grad``, the first with ``create_graph=True``.

    The expected values are the closed-form second derivatives; the check also makes sure that
    the real engine ran (``create_graph`` is the point of the exercise).

    Example:
        >>> import minitorch
        >>> def second_derivative(f, x):
        ...     x = minitorch.tensor(x, dtype=minitorch.float64, requires_grad=True)
        ...     (dy,) = minitorch.autograd.grad(f(x), x, create_graph=True)
        ...     (d2y,) = minitorch.autograd.grad(dy, x)
        ...     return d2y
        >>> check_second_derivative(second_derivative)
        ✓ second_derivative: all 4 cases passed.
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
    ]

    def compare_for(first: float) -> Callable[[Any, float], bool]:
        def compare(got: Any, expected: float) -> bool:
            value, ran = got.value, got.ran
            assert ran >= 2, ("The real engine did not run twice: the point is to let "
                              "autograd differentiate its own result (create_graph), not to "
                              "estimate f'' another way.")
            array = to_numpy(value)
            assert array is not None and array.size == 1, (
                f"Return one number (a tensor or a float); got {format_value(value)}.")
            got_value = float(array.reshape(()))
            if math.isclose(got_value, expected, rel_tol=1e-4, abs_tol=1e-6):
                return True
            assert not math.isclose(got_value, first, rel_tol=1e-4, abs_tol=1e-6), (
                f"You returned f'(x) = {first:.6g}, the first derivative: differentiate that "
                "result once more.")
            raise AssertionError(f"f'' should be {expected:.6g}; got {got_value:.6g}.")
        return compare

    cases = [Case(name, lambda f=f, x=x: _engine_ran(lambda: second_derivative(f, x)), want,
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
    )

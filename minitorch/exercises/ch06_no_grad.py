"""Chapter 06 (Clearing gradients, no_grad): the checks of its code exercises.

======================  ===============================================================
check                   the learner writes
======================  ===============================================================
check_zero_grads        ``zero_grads(params)``: clear the ``.grad`` of every parameter
                        (what ``optimizer.zero_grad()`` does)
check_no_grad_context   ``class my_no_grad``: a context manager that turns recording off
                        (flips ``minitorch.autograd.grad_mode._state.enabled``) and puts
                        back the mode it found, even when the block raises
======================  ===============================================================

The checks never raise, and never leave recording switched off: whatever the learner's code
does, the grad mode is put back after each case.

Example:
    >>> def zero_grads(params):
    ...     for p in params:
    ...         if p.grad is not None:
    ...             p.grad.zero_()
    >>> check_zero_grads(zero_grads)  # doctest: +ELLIPSIS
    ✓ zero_grads: all ... cases passed.
    True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import Seen, keep_grad_mode
from ._common import format_value, to_numpy
from .runner import Case, Shortcut, WrongAnswer, learner_line, run_check

__all__ = ["check_no_grad_context", "check_zero_grads"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_zero_grads": "zero_grads",
    "check_no_grad_context": "my_no_grad",
}


# ------------------------------------------------------------------ zero_grads
def _model():
    """Two parameters, a loss of them, and their values before anything happens."""
    import minitorch

    w = minitorch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    b = minitorch.tensor(0.3, requires_grad=True)
    x = minitorch.tensor([2.0, 1.0, -1.0])

    def loss():
        return ((w * x).sum() + b) ** 2

    return w, b, loss


def _is_clear(t) -> bool:
    g = t.grad
    return g is None or bool(np.all(to_numpy(g) == 0))


def _overflowed(w, b) -> None:
    """Gradients that overflowed: inf and NaN (after a step that diverged, say)."""
    import minitorch

    w.grad = minitorch.tensor([float("inf"), 1.0, float("nan")])
    b.grad = minitorch.tensor(float("-inf"))


def check_zero_grads(zero_grads: Callable[[list], Any]) -> bool:
    """Check ``zero_grads(params)``: afterwards every parameter's ``.grad`` is cleared.

    Cleared means all zeros (``p.grad.zero_()``) or ``None`` (``p.grad = None``, what
    ``optimizer.zero_grad()`` does by default since PyTorch 2.0): both make the next
    ``backward()`` start afresh. The parameters themselves must not change, a parameter whose
    ``.grad`` is still ``None`` must not cause an error, a gradient that overflowed to inf or
    NaN is cleared too (multiplying by 0 leaves NaN), and the parameters must still require
    grad. ``optimizer.zero_grad()`` and ``module.zero_grad()`` are refused: this is their
    heart.

    Example:
        >>> def zero_grads(params):
        ...     for p in params:
        ...         p.zero_()        # wrong: zeroes the weights, not their gradients
        >>> check_zero_grads(zero_grads)  # doctest: +ELLIPSIS
        ✗ zero_grads: ...
        False
    """

    def cleared_state(w, b, before):
        unchanged = bool(np.array_equal(to_numpy(w), before[0])
                         and np.array_equal(to_numpy(b), before[1]))
        trainable = bool(w.requires_grad and w.is_leaf and b.requires_grad and b.is_leaf)
        return Seen({
            "w.grad": w.grad, "b.grad": b.grad,
            "w and b": ("unchanged" if unchanged else "changed") + (
                ", still requiring grad" if trainable else ", no longer requiring grad"),
            "_unchanged": unchanged, "_trainable": trainable,
            "_w": _is_clear(w), "_b": _is_clear(b),
            "_nan": any(g is not None and np.isnan(to_numpy(g)).any()
                        for g in (w.grad, b.grad)),
        })

    def after_one_backward():
        w, b, loss = _model()
        loss().backward()
        before = (to_numpy(w).copy(), to_numpy(b).copy())
        zero_grads([w, b])
        return cleared_state(w, b, before)

    def grad_none():
        w, b, loss = _model()
        try:
            zero_grads([w, b])  # nothing has run backward yet: both .grad are None
        except (AttributeError, TypeError) as error:
            if "NoneType" not in str(error):
                raise
            raise WrongAnswer(
                f"{type(error).__name__}: {error} ({learner_line(error)}): no backward has "
                "run yet, so `p.grad` is "
                "None. There is nothing to clear then: skip such a parameter.") from None
        return cleared_state(w, b, (to_numpy(w).copy(), to_numpy(b).copy()))

    def twice():
        w, b, loss = _model()
        loss().backward()
        before = (to_numpy(w).copy(), to_numpy(b).copy())
        zero_grads([w, b])
        zero_grads([w, b])
        return cleared_state(w, b, before)

    def overflowed():
        w, b, loss = _model()
        _overflowed(w, b)
        before = (to_numpy(w).copy(), to_numpy(b).copy())
        zero_grads([w, b])
        return cleared_state(w, b, before)

    def one_never_used():
        w, b, loss = _model()
        unused = minitorch.zeros(2, requires_grad=True)  # a parameter the loss leaves out
        loss().backward()
        before = (to_numpy(w).copy(), to_numpy(b).copy())
        zero_grads([w, unused, b])
        return cleared_state(w, b, before)

    def compare_past_none(got: Any, expected: Any) -> bool:
        assert not (got["_w"] and not got["_b"]), (
            "w.grad was cleared but b.grad was not: the parameter between them has no "
            "gradient (its `.grad` is None, as for a layer the loss did not use), and your "
            "loop stopped there. Skip such a parameter (`continue`) instead of ending the loop "
            "(`return` or `break`).")
        return compare_cleared(got, expected)

    def fresh_next_time():
        w, b, loss = _model()
        loss().backward()
        once = to_numpy(w.grad).copy()
        zero_grads([w, b])
        loss().backward()
        return to_numpy(w.grad), once

    def compare_cleared(got: Any, expected: Any) -> bool:
        assert got["_unchanged"], (
            "The parameters themselves changed: clear `p.grad`, not `p` (`p.zero_()` would "
            "erase the weights the model has learned).")
        assert got["_trainable"], (
            "A parameter no longer requires grad: clearing the gradient must not freeze the "
            "parameter (`requires_grad_(False)` and `detach_()` are for freezing).")
        assert not got["_nan"], (
            "A gradient that held inf or NaN still holds NaN after zero_grads: 0 * inf and "
            "0 * NaN are NaN, so multiplying by 0 does not clear it. Set it to zero, or drop "
            "it.")
        if not got["_w"] and not got["_b"]:
            raise AssertionError(
                "w.grad and b.grad are neither None nor all zeros after zero_grads: change "
                "`p.grad` itself (in place, with a method that ends in `_`, or by dropping "
                "it); assigning to a loop variable changes nothing.")
        for name, other in (("w", "b"), ("b", "w")):
            assert got[f"_{name}"], (
                f"{other}.grad was cleared but {name}.grad was not: clear every parameter in "
                "`params` (does the loop stop early, at a `return` or `break`?).")
        return True

    def compare_fresh(got: Any, _expected: Any) -> bool:
        grad, once = got
        assert not np.allclose(grad, 2 * once), (
            "After zero_grads and a second backward, w.grad is twice the first gradient: the "
            "old gradient was not cleared.")
        assert np.allclose(grad, once), f"w.grad should be {format_value(once)}; got " \
            f"{format_value(grad)}."
        return True

    import minitorch

    answer_key = Shortcut(
        "The exercise is to write the heart of `optimizer.zero_grad()` yourself: calling it "
        "(or `module.zero_grad()`) is the answer key.",
        objects={"optimizer.zero_grad": minitorch.optim.Optimizer.zero_grad,
                 "module.zero_grad": minitorch.nn.Module.zero_grad})
    cleared = "w.grad and b.grad all zeros (or None); w and b unchanged, still requiring grad"
    cases = [
        Case("after one backward, w.grad and b.grad are cleared",
             keep_grad_mode(after_one_backward), None, compare=compare_cleared,
             expected_repr=cleared),
        Case("parameters whose .grad is still None (no backward yet)",
             keep_grad_mode(grad_none), None, compare=compare_cleared,
             expected_repr="no error; .grad stays None"),
        Case("params = [w, a parameter the loss does not use (.grad None), b]",
             keep_grad_mode(one_never_used), None, compare=compare_past_none,
             expected_repr="w.grad and b.grad all zeros (or None), past the one without a "
             "gradient"),
        Case("zero_grads twice in a row", keep_grad_mode(twice), None,
             compare=compare_cleared, expected_repr=cleared),
        Case("gradients that overflowed to inf and NaN are cleared too",
             keep_grad_mode(overflowed), None, compare=compare_cleared, expected_repr=cleared),
        Case("zero_grads, then backward again: a fresh gradient, not a sum",
             keep_grad_mode(fresh_next_time), None, compare=compare_fresh,
             expected_repr="w.grad equal to the gradient of one backward"),
    ]
    return run_check(
        "zero_grads", cases,
        hint=(
            "Gradients accumulate across backward calls, so each parameter's `.grad` must be "
            "cleared before the next one."
        ),
        more_help=[
            "A parameter that was never used has `.grad = None`: there is nothing to clear.",
            "Clearing can happen in place (methods ending in `_` change the tensor itself) or by "
            "dropping the gradient.",
        ],
        refuse=[answer_key],
    )


# ------------------------------------------------------------------ my_no_grad
def check_no_grad_context(my_no_grad: type) -> bool:
    """Check ``my_no_grad``, a context manager class that works like ``minitorch.no_grad``.

    ``__enter__`` remembers the current mode (``grad_mode._state.enabled``) and sets it to
    ``False``; ``__exit__`` puts the remembered mode back, also when the block raised, and
    returns ``None`` (or ``False``) so the exception still propagates. The cases enter it with
    recording on and already off, nested, and with an exception inside (nested too); using
    ``torch.no_grad`` or ``inference_mode`` inside it, or subclassing them, is refused.

    Example:
        >>> from minitorch.autograd import grad_mode
        >>> class my_no_grad:
        ...     def __enter__(self):
        ...         self.prev = grad_mode._state.enabled
        ...         grad_mode._state.enabled = False
        ...     def __exit__(self, *exc):
        ...         grad_mode._state.enabled = self.prev
        >>> check_no_grad_context(my_no_grad)
        ✓ my_no_grad: all 6 cases passed.
        True
    """
    import minitorch
    from minitorch.autograd import grad_mode

    def inside():
        w = minitorch.ones(3, requires_grad=True)
        with my_no_grad():
            y = w * 2
            enabled = grad_mode._state.enabled
        return {"recording inside": enabled, "y.requires_grad": y.requires_grad,
                "y.grad_fn is None": y.grad_fn is None}

    def after():
        w = minitorch.ones(3, requires_grad=True)
        with my_no_grad():
            pass
        y = w * 2
        return {"recording after": grad_mode._state.enabled, "y.requires_grad": y.requires_grad}

    def restores_previous():
        block = my_no_grad()  # made while recording is on, entered while it is off
        with minitorch.no_grad():
            with block:
                inside = grad_mode._state.enabled
            return {"recording inside, entered while off": inside,
                    "recording after, inside minitorch.no_grad()": grad_mode._state.enabled}

    def on_exception():
        propagated = False
        try:
            with my_no_grad():
                raise ValueError("boom")
        except ValueError:
            propagated = True
        return {"exception propagated": propagated,
                "recording after": grad_mode._state.enabled}

    def nested():
        with my_no_grad():
            with my_no_grad():
                innermost = grad_mode._state.enabled
            middle = grad_mode._state.enabled
        return {"recording inside the inner block": innermost,
                "recording between the two exits": middle,
                "recording after both": grad_mode._state.enabled}

    def nested_with_exception():
        propagated = False
        try:
            with my_no_grad():
                try:
                    with my_no_grad():
                        raise KeyError("inner")
                except KeyError:
                    propagated = True
                middle = grad_mode._state.enabled
        finally:
            after = grad_mode._state.enabled
        return {"exception propagated": propagated,
                "recording between the two exits": middle,
                "recording after both": after}

    messages = {
        "recording inside": "Recording is still on inside the block: `__enter__` must set "
        "`grad_mode._state.enabled = False`.",
        "recording inside, entered while off": "Entering your block while recording was "
        "already off turned recording *on*: `__enter__` must switch it off, whatever the mode "
        "was (flipping it, `not enabled`, does the opposite when it is already off).",
        "recording inside the inner block": "Inside the inner of two nested blocks recording "
        "is on: entering must switch recording off, whatever the mode was (flipping it, `not "
        "enabled`, turns it back on in a nested block).",
        "y.requires_grad": "An operation was recorded where it should not be (or not recorded "
        "where it should be): check what `__enter__` and `__exit__` set.",
        "y.grad_fn is None": "An operation inside the block was recorded.",
        "recording after": "Recording is not back on after the block: `__exit__` must put back "
        "the mode that `__enter__` found.",
        "recording after, inside minitorch.no_grad()": "After your block, recording came back "
        "on inside `minitorch.no_grad()`: `__exit__` must restore the *previous* mode, the one "
        "that was on when the block was *entered* (save it in `__enter__`); not always turn "
        "recording on, nor restore the mode of when the object was made (this block was made "
        "while recording was on).",
        "exception propagated": "The exception raised inside the block disappeared: `__exit__` "
        "returned something true, which tells Python to swallow it. Return None.",
        "recording between the two exits": "When two blocks are nested, leaving the inner one "
        "must keep recording off: restore the mode saved in `__enter__`.",
        "recording after both": "Recording is not back on after two nested blocks, though it "
        "is after one: the inner block's `__enter__` overwrote the mode the outer one saved. "
        "Keep the saved mode on the object itself (`self.`), not on the class or in a global.",
    }

    def compare(got: Any, expected: Any) -> bool:
        assert isinstance(got, dict)
        for key, want in expected.items():
            assert got[key] == want, messages[key]
        return True

    def subclass_refused():
        built_ins = [klass for klass in (minitorch.no_grad, minitorch.enable_grad,
                                         minitorch.inference_mode, minitorch.set_grad_enabled)
                     if isinstance(my_no_grad, type) and isinstance(klass, type)
                     and issubclass(my_no_grad, klass)]
        if built_ins:
            raise WrongAnswer(
                f"`my_no_grad` subclasses `torch.{built_ins[0].__name__}`, so the built-in "
                f"does the work: {answer_key.why}")

    def case(name, fn, expected):
        def run():
            subclass_refused()
            return Seen(fn())

        return Case(name, keep_grad_mode(run), expected, compare=compare,
                    expected_repr=", ".join(f"{key}: {value}" for key, value in expected.items()))

    answer_key = Shortcut(
        "The exercise is to build `no_grad` yourself, by switching "
        "`grad_mode._state.enabled` (or calling `torch.set_grad_enabled(...)`) and putting it "
        "back: using `torch.no_grad` (or `inference_mode`) inside it would be the answer key.",
        objects={"torch.no_grad": minitorch.no_grad,
                 "torch.inference_mode": minitorch.inference_mode})

    cases = [
        case("inside the block nothing is recorded", inside,
             {"recording inside": False, "y.requires_grad": False, "y.grad_fn is None": True}),
        case("after the block recording is back on", after,
             {"recording after": True, "y.requires_grad": True}),
        case("made while recording is on, entered while it is off (inside "
             "minitorch.no_grad())",
             restores_previous, {"recording inside, entered while off": False,
                                 "recording after, inside minitorch.no_grad()": False}),
        case("the block raises an exception", on_exception,
             {"exception propagated": True, "recording after": True}),
        case("two nested blocks", nested,
             {"recording inside the inner block": False,
              "recording between the two exits": False, "recording after both": True}),
        case("two nested blocks, the inner one raises", nested_with_exception,
             {"exception propagated": True, "recording between the two exits": False,
              "recording after both": True}),
    ]
    return run_check(
        "my_no_grad", cases,
        hint=(
            "A context manager switches grad mode off on entry and restores the *previous* mode "
            "on exit, even when the block raises."
        ),
        more_help=[
            "`__enter__` must remember the mode that was on before, since blocks can be nested.",
            "`__exit__` runs whether or not the block raised; it should put back what `__enter__`"
            " remembered, not simply switch grad mode on.",
        ],
        refuse=[answer_key],
    )

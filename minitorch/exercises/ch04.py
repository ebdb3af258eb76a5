"""Checks for chapter 4 (Clearing gradients, no_grad), run on real minitorch tensors.

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
    >>> check_zero_grads(zero_grads)
    ✓ zero_grads: all 4 cases passed.
    True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import format_value, safe_str, to_numpy
from .runner import Case, run_check

__all__ = ["check_inplace_repair", "check_no_grad_context", "check_zero_grads"]


def _keep_grad_mode(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` wrapped so that the grad mode is the same after it as before, whatever it does."""
    from minitorch.autograd import grad_mode

    def run() -> Any:
        before = grad_mode._state.enabled
        try:
            return fn()
        finally:
            grad_mode._state.enabled = before

    return run


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


def check_zero_grads(zero_grads: Callable[[list], Any]) -> bool:
    """Check ``zero_grads(params)``: afterwards every parameter's ``.grad`` is cleared.

    Cleared means all zeros (``p.grad.zero_()``, what the learner note describes) or
    ``None`` (``p.grad = None``, what ``optimizer.zero_grad()`` does by default since
    PyTorch 2.0): both make the next ``backward()`` start afresh. The parameters themselves
    must not change, a parameter whose ``.grad`` is still ``None`` must not cause an error, and
    the parameters must still require grad.

    Example:
        >>> def zero_grads(params):
        ...     for p in params:
        ...         p.zero_()        # wrong: zeroes the weights, not their gradients
        >>> check_zero_grads(zero_grads)  # doctest: +ELLIPSIS
        ✗ zero_grads: ...
        False
    """

    def after_one_backward():
        w, b, loss = _model()
        loss().backward()
        before = (to_numpy(w).copy(), to_numpy(b).copy())
        zero_grads([w, b])
        return {
            "unchanged": bool(np.array_equal(to_numpy(w), before[0])
                              and np.array_equal(to_numpy(b), before[1])),
            "trainable": bool(w.requires_grad and w.is_leaf and b.requires_grad and b.is_leaf),
            "w": _is_clear(w), "b": _is_clear(b),
        }

    def grad_none():
        w, b, loss = _model()
        zero_grads([w, b])  # nothing has run backward yet: both .grad are None
        return {"unchanged": True, "trainable": True, "w": _is_clear(w), "b": _is_clear(b)}

    def twice():
        w, b, loss = _model()
        loss().backward()
        zero_grads([w, b])
        zero_grads([w, b])
        return {"unchanged": True, "trainable": True, "w": _is_clear(w), "b": _is_clear(b)}

    def fresh_next_time():
        w, b, loss = _model()
        loss().backward()
        once = to_numpy(w.grad).copy()
        zero_grads([w, b])
        loss().backward()
        return to_numpy(w.grad), once

    def compare_cleared(got: Any, expected: Any) -> bool:
        assert got["unchanged"], (
            "The parameters themselves changed: clear `p.grad`, not `p` (`p.zero_()` would "
            "erase the weights the model has learned).")
        assert got["trainable"], (
            "A parameter no longer requires grad: clearing the gradient must not freeze the "
            "parameter (`requires_grad_(False)` and `detach_()` are for freezing).")
        for name in ("w", "b"):
            assert got[name], (
                f"{name}.grad is neither None nor all zeros after zero_grads: change `p.grad` "
                "itself (`p.grad.zero_()` in place, or `p.grad = None`); assigning to a "
                "loop variable changes nothing.")
        return True

    def compare_fresh(got: Any, _expected: Any) -> bool:
        grad, once = got
        assert not np.allclose(grad, 2 * once), (
            "After zero_grads and a second backward, w.grad is twice the first gradient: the "
            "old gradient was not cleared.")
        assert np.allclose(grad, once), f"w.grad should be {format_value(once)}; got " \
            f"{format_value(grad)}."
        return True

    cleared = "w.grad and b.grad all zeros (or None); w and b unchanged, still requiring grad"
    cases = [
        Case("after one backward, w.grad and b.grad are cleared",
             _keep_grad_mode(after_one_backward), None, compare=compare_cleared,
             expected_repr=cleared),
        Case("parameters whose .grad is still None (no backward yet)",
             _keep_grad_mode(grad_none), None, compare=compare_cleared,
             expected_repr="no error; .grad stays None"),
        Case("zero_grads twice in a row", _keep_grad_mode(twice), None,
             compare=compare_cleared, expected_repr=cleared),
        Case("zero_grads, then backward again: a fresh gradient, not a sum",
             _keep_grad_mode(fresh_next_time), None, compare=compare_fresh,
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
    )


# ------------------------------------------------------------------ my_no_grad
def check_no_grad_context(my_no_grad: type) -> bool:
    """Check ``my_no_grad``, a context manager class that works like ``minitorch.no_grad``.

    ``__enter__`` remembers the current mode (``grad_mode._state.enabled``) and sets it to
    ``False``; ``__exit__`` puts the remembered mode back, also when the block raised, and
    returns ``None`` (or ``False``) so the exception still propagates.

    Example:
        >>> from minitorch.autograd import grad_mode
        >>> class my_no_grad:
        ...     def __enter__(self):
        ...         self.prev = grad_mode._state.enabled
        ...         grad_mode._state.enabled = False
        ...     def __exit__(self, *exc):
        ...         grad_mode._state.enabled = self.prev
        >>> check_no_grad_context(my_no_grad)
        ✓ my_no_grad: all 5 cases passed.
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
        with minitorch.no_grad():
            with my_no_grad():
                pass
            return {"recording after, inside minitorch.no_grad()": grad_mode._state.enabled}

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
                pass
            middle = grad_mode._state.enabled
        return {"recording between the two exits": middle,
                "recording after both": grad_mode._state.enabled}

    messages = {
        "recording inside": "Recording is still on inside the block: `__enter__` must set "
        "`grad_mode._state.enabled = False`.",
        "y.requires_grad": "An operation was recorded where it should not be (or not recorded "
        "where it should be): check what `__enter__` and `__exit__` set.",
        "y.grad_fn is None": "An operation inside the block was recorded.",
        "recording after": "Recording is not back on after the block: `__exit__` must put back "
        "the mode that `__enter__` found.",
        "recording after, inside minitorch.no_grad()": "After your block, recording came back "
        "on inside `minitorch.no_grad()`: `__exit__` must restore the *previous* mode (save "
        "it in `__enter__`), not always turn recording on.",
        "exception propagated": "The exception raised inside the block disappeared: `__exit__` "
        "returned something true, which tells Python to swallow it. Return None.",
        "recording between the two exits": "When two blocks are nested, leaving the inner one "
        "must keep recording off: restore the mode saved in `__enter__`.",
        "recording after both": "Recording is not back on after two nested blocks.",
    }

    def compare(got: Any, expected: Any) -> bool:
        assert isinstance(got, dict)
        for key, want in expected.items():
            assert got[key] == want, messages[key]
        return True

    def case(name, fn, expected):
        return Case(name, _keep_grad_mode(fn), expected, compare=compare)

    cases = [
        case("inside the block nothing is recorded", inside,
             {"recording inside": False, "y.requires_grad": False, "y.grad_fn is None": True}),
        case("after the block recording is back on", after,
             {"recording after": True, "y.requires_grad": True}),
        case("it restores the previous mode (used inside minitorch.no_grad())",
             restores_previous, {"recording after, inside minitorch.no_grad()": False}),
        case("the block raises an exception", on_exception,
             {"exception propagated": True, "recording after": True}),
        case("two nested blocks", nested,
             {"recording between the two exits": False, "recording after both": True}),
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
    )


# ================================================================== the second layer
# In-place operations and the version counter: repair code that triggers PyTorch's
# "modified by an inplace operation" error. The reference is a closed-form formula in NumPy.
def _layer_reference(x: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray]:
    """``sum(2 * sigmoid(x @ w))`` and its gradient with respect to ``w``, by hand."""
    s = 1.0 / (1.0 + np.exp(-(x @ w)))
    return float((2 * s).sum()), x.T @ (2 * s * (1 - s))


class _BackwardFailed:
    """What a case got when the learner's loss still fails backward with the in-place error."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __repr__(self) -> str:
        return f"backward() raised RuntimeError: {self.message}"


def check_inplace_repair(layer_loss: Callable[[Any, Any], Any]) -> bool:
    """Check a repaired ``layer_loss(x, w)``: ``sum(2 * sigmoid(x @ w))`` whose backward works.

    The broken version doubled ``h = sigmoid(x @ w)`` in place (``h *= 2``), but
    ``SigmoidBackward0`` saved ``h`` for its backward, so ``backward()`` raised the in-place
    error. The check runs the learner's function on fresh inputs, calls ``backward()`` and
    compares the loss and ``w.grad`` with the formulas
    ``L = sum(2 s)`` and ``dL/dw = x^T (2 s (1 - s))``, ``s = sigmoid(x @ w)``.

    Example:
        >>> import minitorch
        >>> def layer_loss(x, w):
        ...     h = minitorch.sigmoid(x @ w)
        ...     h = h * 2
        ...     return h.sum()
        >>> check_inplace_repair(layer_loss)
        ✓ layer_loss, repaired: all 3 cases passed.
        True
    """
    import minitorch

    rng = np.random.default_rng(4)
    samples = [(np.array([[1.0, 2.0]]), np.array([[0.5], [-0.25]])),
               (rng.standard_normal((4, 3)), rng.standard_normal((3, 2))),
               (rng.standard_normal((5, 2)), rng.standard_normal((2, 1)))]

    def run(x_np, w_np):
        x = minitorch.tensor(x_np, dtype=minitorch.float64)
        w = minitorch.tensor(w_np, dtype=minitorch.float64, requires_grad=True)
        loss = layer_loss(x, w)
        assert loss is not None, "Return the loss (a one-element tensor)."
        assert getattr(loss, "grad_fn", None) is not None, (
            "The loss has no grad_fn: it must stay connected to w (no detach(), no "
            "no_grad), or backward cannot reach w.")
        try:
            loss.backward()  # the real engine: this is where the broken version failed
        except RuntimeError as error:
            if "inplace operation" not in safe_str(error):
                raise
            return _BackwardFailed(safe_str(error).splitlines()[0])
        return loss.item(), w.grad

    def compare(got: Any, expected: tuple[float, np.ndarray]) -> bool:
        assert not isinstance(got, _BackwardFailed), (
            "backward() still fails with the in-place error: the tensor that sigmoid saved is "
            "still changed in place (look for `*=`, `+=`, a method ending in `_`, or `out=`).")
        value, grad = got
        want_value, want_grad = expected
        assert np.isclose(value, want_value, rtol=1e-6), (
            f"The loss should be {want_value:.6g} (the sum of 2 * sigmoid(x @ w)); got "
            f"{value:.6g}.")
        assert grad is not None, "w.grad is None after backward."
        assert np.allclose(to_numpy(grad), want_grad, rtol=1e-6, atol=1e-9), (
            f"w.grad should be {format_value(want_grad)}; got {format_value(grad)}.")
        return True

    cases = [Case(f"x of shape {x.shape}, w of shape {w.shape}",
                  _keep_grad_mode(lambda x=x, w=w: run(x, w)), _layer_reference(x, w),
                  compare=compare, expected_repr="backward works; the same loss and w.grad")
             for x, w in samples]
    return run_check(
        "layer_loss, repaired", cases,
        hint="sigmoid saved its output for backward. An in-place op on a saved tensor bumps "
        "its version counter, and backward refuses a saved tensor whose version changed.",
        more_help=[
            "Print `h._version` before and after the line that changes h: which line bumps it?",
            "Backward needs the h that sigmoid returned, unchanged. Leave that tensor alone and "
            "put the doubled values in a new tensor (an out-of-place operation), or double a "
            "copy of h.",
            "Keep the loss connected to w: `detach()` or `no_grad` would hide the error by "
            "cutting the graph, and w.grad would never arrive.",
        ],
    )

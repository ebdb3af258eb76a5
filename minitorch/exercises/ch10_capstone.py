"""Chapter 10 (Capstone: your own autograd): the checks of its code exercises.

In this chapter the learner writes a small tensor autograd library over NumPy, in the
notebook: a ``Tensor``, operations as ``Function`` nodes whose ``forward`` and ``backward``
work on NumPy arrays, an engine, and a training loop. Each check takes one piece and compares
what it computes with PyTorch (where PyTorch is installed) or minitorch (otherwise).

=====================  ======================================================================
check                  the piece it checks
=====================  ======================================================================
check_tensor           ``Tensor`` and ``Function.apply`` (given, and yours to change): an
                       array, ``requires_grad``, ``grad`` and the node that made it, and
                       nothing recorded when no input requires grad or under ``no_grad``
check_unbroadcast      ``unbroadcast(grad, shape)``: the gradient of a broadcast operation
                       summed back down to an input's shape
check_reductions       ``Sum.backward`` and ``Mean.backward``: ``x.sum(dim, keepdim)`` and
                       ``x.mean(dim, keepdim)``, over one dim, several, or all
check_matmul           ``MatMul.backward``: the gradients of ``a @ b`` (2-D)
check_log_softmax      ``LogSoftmax``: a forward that cannot overflow, and its backward
check_backward         ``run_backward(root)``: a topological order, one sweep, and gradients
                       that add up (``loss.backward()`` on the learner's tensors)
check_training         ``train(lib, model, images, labels, ...)``: one training loop that runs
                       unchanged with any library that has PyTorch's names
=====================  ======================================================================

The operations are reached through the learner's ``Tensor`` (``x.sum(dim=1)``, ``a @ b``),
and each node's ``backward`` is called directly, so a check needs nothing that the chapter
has not built yet. Like every check, these never raise: they show ✓, ✗ (with what was wrong)
or ⏳ (the learner's code still raises ``NotImplementedError``) and return ``True`` when all
cases pass.

Example:
    >>> def unbroadcast(grad, shape):
    ...     raise NotImplementedError("your code here")
    >>> check_unbroadcast(unbroadcast)  # doctest: +ELLIPSIS
    ⏳ unbroadcast: not done yet.
    ...
    False
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import format_value, safe_str, to_numpy, type_name
from .runner import (
    Case,
    Shortcut,
    _describe,
    _learner_frame,
    _where,
    preserved_state,
    run_check,
)

__all__ = [
    "check_backward", "check_log_softmax", "check_matmul", "check_reductions", "check_tensor",
    "check_training", "check_unbroadcast",
]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_unbroadcast": "unbroadcast",
    "check_reductions": "Tensor",
    "check_matmul": "Tensor",
    "check_log_softmax": "Tensor",
    "check_backward": "Tensor",
    "check_training": "train",
}

# Checks of code the chapter gives (they pass from the start). They guard the changes a learner
# may make to that code; the grader and the progress table do not count them as exercises.
GIVEN = {
    "check_tensor": "Tensor",
}


# ------------------------------------------------------------------ shared helpers
def _oracle() -> tuple[Any, str]:
    """The library whose gradients are right by definition: PyTorch where it is installed,
    minitorch otherwise (whose tests compare it with PyTorch)."""
    try:
        import torch
    except ImportError:
        import minitorch as torch

        return torch, "minitorch"
    return torch, "PyTorch"


def _reference(fn: Callable[..., Any], arrays: list[np.ndarray],
               grad: np.ndarray | None) -> tuple[np.ndarray, list[np.ndarray]]:
    """``fn(lib, *tensors)`` in the oracle library, in float64, and the gradient of each
    input when ``grad`` flows back into the output."""
    lib, _ = _oracle()
    tensors = [lib.tensor(np.asarray(a, dtype=np.float64), requires_grad=True) for a in arrays]
    out = fn(lib, *tensors)
    seed = np.ones(tuple(out.shape)) if grad is None else grad
    out.backward(lib.tensor(np.asarray(seed, dtype=np.float64)))
    return (out.detach().numpy().copy(),
            [np.zeros(t.shape) if t.grad is None else t.grad.numpy().copy() for t in tensors])


class _UnusableError(Exception):
    """Raised by a case itself when the learner's objects cannot be used (no ``grad_fn``,
    say): its message is the feedback."""


class _Raised:
    """What a case got when the learner's code raised: shown as the error (with the learner's
    line), explained by the case's comparison."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.where = _where(_learner_frame(error))

    def __repr__(self) -> str:
        if isinstance(self.error, _RevisitedError):
            return "an engine that runs one backward again and again (below)"
        if isinstance(self.error, _UnusableError):
            return "something the check could not use (below)"
        return f"{_describe(self.error)}{self.where}"


_OVER_NUMPY = Shortcut(
    "Your library is built over NumPy alone: minitorch and PyTorch already hold every piece "
    "of it (`sum_to_size` is an unbroadcast, their autograd is the engine), so handing the "
    "work to them is the answer key. Write it with NumPy arrays.",
    packages=("minitorch", "torch"))


def _call(fn: Callable[[], Any]) -> Any:
    """``fn()``, or a :class:`_Raised` for an ordinary exception. "Not done yet", interrupts,
    time-outs and ``exit()`` go on to the runner, which reports them itself."""
    try:
        return fn()
    except NotImplementedError:
        raise
    except Exception as error:
        return _Raised(error)


def _error_message(got: _Raised, why: str = "") -> str:
    """What the feedback says under a raised error (which its "got:" line already shows)."""
    if isinstance(got.error, _UnusableError):
        return safe_str(got.error)
    return why or "Your code raised the error shown above."


def _show(array: Any) -> str:
    """An array on one line, rounded: what feedback shows."""
    a = to_numpy(array)
    if a is None:
        return format_value(array)
    with np.printoptions(precision=4, suppress=True, threshold=40, edgeitems=3):
        return np.array2string(np.asarray(a, dtype=float), separator=", ").replace("\n", "")


def _show_any(value: Any) -> str:
    """A value for feedback: arrays on one line, tuples of them too, anything else as repr."""
    if isinstance(value, tuple):
        inner = ", ".join(_show_any(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return _show(value) if to_numpy(value) is not None else format_value(value)


class _Got:
    """What a case got: the raw values (``raw``, for the comparison), shown as ``name =
    value`` pairs."""

    def __init__(self, raw: Any, shown: dict[str, Any]) -> None:
        self.raw, self.shown = raw, shown

    def __repr__(self) -> str:
        return ", ".join(f"{name} = {_show_any(value)}" for name, value in self.shown.items())


def _as_array(value: Any, what: str) -> np.ndarray:
    """``value`` as a float array, or an AssertionError that says what ``what`` should be."""
    if isinstance(value, (list, tuple)) and len(value) == 1 and to_numpy(value[0]) is not None:
        raise AssertionError(f"{what} is a {type_name(value)} of one array; return the array "
                             "itself.")
    array = to_numpy(value)
    if array is None:
        raise AssertionError(f"{what} should be a NumPy array; got {format_value(value)}.")
    return np.asarray(array, dtype=float)


def _close(got: np.ndarray, want: np.ndarray) -> bool:
    return got.shape == want.shape and bool(
        np.allclose(got, want, rtol=1e-4, atol=1e-5, equal_nan=True))


def _grads_tuple(value: Any, n: int, op: str) -> list:
    """The gradients a node's backward returned, checked to be one per input."""
    if not isinstance(value, (tuple, list)):
        raise AssertionError(
            f"`{op}`'s backward must return one gradient per input, in a tuple: "
            f"{'`(grad_x,)`, with the comma' if n == 1 else '`(grad_a, grad_b)`'}. It "
            f"returned a {type_name(value)}" + (
                " (the engine would zip the inputs with its rows)." if n == 1 else "."))
    if len(value) != n:
        raise AssertionError(f"`{op}`'s backward returned {len(value)} gradients; it has "
                             f"{n} input{'s' if n > 1 else ''}, so it must return {n}.")
    return list(value)


def _node_of(out: Any, op: str) -> Any:
    node = getattr(out, "grad_fn", None)
    if node is None:
        raise _UnusableError(
            f"The result of {op} has no grad_fn, though its input requires grad: "
            "`Function.apply` must record the node.")
    return node


# ------------------------------------------------------------------ Tensor and recording
def _tensor_cases(tensor_class: Any) -> list[Case]:
    """The cases of :func:`check_tensor`: each run returns a list of (ok, why) findings."""

    def findings(*pairs: tuple[bool, str]) -> list[str]:
        return _Findings(why for ok, why in pairs if not ok)

    def leaf() -> list[str]:
        t = tensor_class([1.0, 2.0])
        data = getattr(t, "data", None)
        is_array = isinstance(data, np.ndarray)
        return findings(
            (is_array, "`.data` should hold the NumPy array; got "
             f"{format_value(data)}."),
            (not is_array or data.dtype == np.float32,
             f"`.data` has dtype {getattr(data, 'dtype', None)}: Python floats become "
             "float32, as in PyTorch (`torch.tensor([1.0]).dtype` is float32)."),
            (not is_array or data.tolist() == [1.0, 2.0], "`.data` holds the wrong numbers."),
            (getattr(t, "requires_grad", None) is False,
             "`requires_grad` should be False unless you ask for it."),
            (getattr(t, "grad", "missing") is None,
             "A new tensor's `.grad` is None: nothing has been computed yet."),
            (getattr(t, "grad_fn", "missing") is None,
             "A tensor you create yourself is a leaf: its `grad_fn` is None."),
        )

    def leaf_requiring_grad() -> list[str]:
        t = tensor_class([1.0, 2.0], requires_grad=True)
        return findings(
            (getattr(t, "requires_grad", None) is True,
             "`Tensor(data, requires_grad=True)` must keep `requires_grad=True`."),
            (getattr(t, "grad", "missing") is None, "A new tensor's `.grad` is None."),
            (getattr(t, "grad_fn", "missing") is None,
             "A tensor you create yourself is a leaf, even when it requires grad: its "
             "`grad_fn` is None."),
        )

    def product() -> list[str]:
        x, y = tensor_class([1.0, 2.0], requires_grad=True), tensor_class([3.0, 4.0])
        out = x * y
        node = getattr(out, "grad_fn", None)
        inputs = list(getattr(node, "inputs", None) or [])
        return findings(
            (to_numpy(getattr(out, "data", None)) is not None
             and np.allclose(to_numpy(out.data), [3.0, 8.0]),
             f"x * y should be [3, 8]; got {format_value(getattr(out, 'data', out))}."),
            (getattr(out, "requires_grad", None) is True,
             "x requires grad, so x * y must require grad too (it depends on x)."),
            (node is not None, "x * y must remember the node that made it in `grad_fn`."),
            (node is None or type_name(node) == "Mul",
             f"x * y was made by a Mul node, but its grad_fn is a {type_name(node)}."),
            (node is None or (len(inputs) == 2 and inputs[0] is x and inputs[1] is y),
             "The node must keep its input tensors, `node.inputs`, in order: [x, y] "
             "(the arrows of the graph, which backward follows)."),
        )

    def nothing_to_record() -> list[str]:
        x, y = tensor_class([1.0, 2.0]), tensor_class([3.0, 4.0])
        out = x * y
        return findings(
            (getattr(out, "grad_fn", "missing") is None,
             "Neither x nor y requires grad, so nothing may be recorded: x * y must have no "
             "grad_fn (PyTorch records only what a gradient will need)."),
            (getattr(out, "requires_grad", None) is False,
             "Neither x nor y requires grad, so x * y must not require grad either."),
        )

    def with_a_number() -> list[str]:
        x = tensor_class([1.0, 2.0], requires_grad=True)
        out = x * 2
        node = getattr(out, "grad_fn", None)
        inputs = list(getattr(node, "inputs", None) or [])
        constant = inputs[1] if len(inputs) == 2 else None
        return findings(
            (np.allclose(to_numpy(out.data), [2.0, 4.0]),
             f"x * 2 should be [2, 4]; got {format_value(out.data)}."),
            (len(inputs) == 2 and inputs[0] is x,
             "x * 2 records a node with two inputs: x, and the number 2 as a tensor."),
            (isinstance(constant, tensor_class)
             and getattr(constant, "requires_grad", None) is False,
             "The number 2 must become a Tensor that does not require grad (a constant)."),
        )

    def chain() -> list[str]:
        x = tensor_class([[1.0, -2.0], [0.0, 3.0]], requires_grad=True)
        out = (x + x.T).relu()
        node = getattr(out, "grad_fn", None)
        inputs = list(getattr(node, "inputs", None) or [])
        inner = getattr(inputs[0], "grad_fn", None) if inputs else None
        return findings(
            (np.allclose(to_numpy(out.data), [[2.0, 0.0], [0.0, 6.0]]),
             "(x + x.T).relu() should be [[2, 0], [0, 6]]; got "
             f"{format_value(out.data)}."),
            (type_name(node) == "ReLU" and type_name(inner) == "Add",
             "(x + x.T).relu() should be made by a ReLU node whose input was made by an Add "
             f"node; got {type_name(node)} and {type_name(inner)}."),
        )

    def no_grad_blocks() -> list[str]:
        init = getattr(tensor_class, "__init__", None)
        names = getattr(init, "__globals__", {})
        no_grad = names.get("no_grad")
        if no_grad is None:
            return _Findings(["`no_grad` was not found next to your `Tensor`: define it in "
                              "the same notebook."])
        before = names.get("grad_enabled", None)
        x, y = tensor_class([1.0, 2.0], requires_grad=True), tensor_class([3.0, 4.0])
        try:
            with no_grad():
                inside = x * y
            after = x * y
            with no_grad():
                with no_grad():
                    pass
                nested = x * y
            try:
                with no_grad():
                    raise ValueError("an error inside the block")
            except ValueError:
                pass
            after_error = x * y
        finally:
            if "grad_enabled" in names:
                names["grad_enabled"] = before  # whatever happened, the notebook records again
        return findings(
            (getattr(inside, "grad_fn", "missing") is None
             and getattr(inside, "requires_grad", None) is False,
             "Inside `with no_grad():` nothing may be recorded: x * y must have no grad_fn "
             "and not require grad."),
            (getattr(after, "grad_fn", None) is not None,
             "After the `with no_grad():` block, recording must be back on."),
            (getattr(nested, "grad_fn", "missing") is None,
             "After an inner `with no_grad():` inside an outer one, recording must stay off "
             "until the outer block ends: restore the mode from before the block, not True."),
            (getattr(after_error, "grad_fn", None) is not None,
             "After an error inside `with no_grad():`, recording must be back on (restore it "
             "in `__exit__`, which runs on errors too)."),
        )

    problems = [
        ("Tensor([1.0, 2.0]): a leaf", leaf),
        ("Tensor([1.0, 2.0], requires_grad=True)", leaf_requiring_grad),
        ("x * y with x requiring grad: a recorded Mul node", product),
        ("x * y where neither requires grad: nothing recorded", nothing_to_record),
        ("x * 2: the number becomes a constant input", with_a_number),
        ("(x + x.T).relu(): a chain of nodes", chain),
        ("with no_grad(): nothing recorded, then recording again", no_grad_blocks),
    ]
    return [Case(name, lambda fn=fn: _call(fn), [], compare=_no_findings,
                 expected_repr="a tensor that records what PyTorch records")
            for name, fn in problems]


class _Findings(list):
    """What a case of :func:`check_tensor` found wrong (the first is explained below it)."""

    def __repr__(self) -> str:
        if not self:
            return "as expected"
        more = f", and {len(self) - 1} more after it is fixed" if len(self) > 1 else ""
        return f"{len(self)} difference{'s' if len(self) > 1 else ''}: the one below{more}"


def _no_findings(got: Any, _expected: Any) -> bool:
    if isinstance(got, _Raised):
        raise AssertionError(_error_message(got, (
            "The check builds tensors with `Tensor(data, requires_grad=...)` and combines "
            "them with `*`, `+`, `.T` and `.relu()`.")))
    if got:
        raise AssertionError(got[0])
    return True


def check_tensor(tensor_class: type) -> bool:
    """Check the learner's ``Tensor`` and ``Function.apply``: what a tensor holds and what an
    operation records.

    A leaf holds its data as a float32 NumPy array, ``requires_grad`` (False unless asked),
    ``grad = None`` and ``grad_fn = None``. An operation on a tensor that requires grad
    records a node of the operation's class (``Mul`` for ``*``) in ``out.grad_fn``, with its
    input tensors in ``node.inputs``; a number becomes a constant input. Nothing is recorded
    when no input requires grad, nor inside ``with no_grad():`` (which the check finds next
    to ``Tensor``, in the same notebook), nested or left by an error.

    Example:
        >>> import numpy as np
        >>> class Tensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         self.data = np.asarray(data)   # float64: Python floats are float32
        ...         self.requires_grad, self.grad, self.grad_fn = requires_grad, None, None
        >>> check_tensor(Tensor)  # doctest: +ELLIPSIS
        ✗ Tensor: wrong result for `Tensor([1.0, 2.0]): a leaf`.
        ...
        False
    """
    return run_check(
        "Tensor", _tensor_cases(tensor_class),
        hint="A tensor is an array plus three things: whether it requires grad, its gradient, "
        "and the node that made it; an operation records a node only when a gradient will "
        "need it.",
        more_help=[
            "Read `Function.apply` line by line: which line decides whether a node is "
            "recorded, and what does it look at?",
            "`out.grad_fn` is the node itself (an instance of the operation's class), and "
            "`node.inputs` the tensors it was applied to, in order.",
            "`no_grad` must put back the mode it found when the block began, also when the "
            "block ends with an error.",
        ],
    )


# ------------------------------------------------------------------ unbroadcast
# Each problem: what it is, the op, the two shapes, and which input's gradient is asked for.
_BROADCASTS = [
    ("a (3, 4) + b (4,): the gradient of b", "add", (3, 4), (4,), 1),
    ("a (3, 4) + b (1, 4): the gradient of b", "add", (3, 4), (1, 4), 1),
    ("a (3, 4) + b (3, 1): the gradient of b", "add", (3, 4), (3, 1), 1),
    ("a (2, 3) + b (), a number: the gradient of b", "add", (2, 3), (), 1),
    ("a (4, 1) * b (1, 3): the gradient of a", "mul", (4, 1), (1, 3), 0),
    ("a (2, 3, 4) * b (3, 1): the gradient of b", "mul", (2, 3, 4), (3, 1), 1),
    ("a (5, 1, 4) + b (2, 1): the gradient of a", "add", (5, 1, 4), (2, 1), 0),
    ("a (3, 4) * b (3, 4), no broadcasting: the gradient of a", "mul", (3, 4), (3, 4), 0),
]


def _unbroadcast_problem(op: str, a_shape: tuple, b_shape: tuple, which: int, seed: int):
    """The arrays of one problem (small integers, zeros among them), the upstream gradient,
    the gradient that reaches the broadcast result's elements, and the oracle's answer."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, a_shape).astype(np.float64)
    b = rng.integers(-3, 4, b_shape).astype(np.float64)
    out_shape = np.broadcast_shapes(a_shape, b_shape)
    grad = rng.integers(-3, 4, out_shape).astype(np.float64)
    other = (b, a)[which]
    local = grad if op == "add" else grad * other  # what Mul.backward hands to unbroadcast

    def fn(lib, x, y):
        return x + y if op == "add" else x * y

    _, grads = _reference(fn, [a, b], grad)
    return local, grads[which]


def _squeeze_size1(shape: tuple) -> tuple:
    return tuple(size for size in shape if size != 1)


def _unbroadcast_compare(local: np.ndarray, shape: tuple, name: str):
    """A comparison that names the usual mistakes of ``unbroadcast``."""
    n_new = local.ndim - len(shape)
    leading = local.sum(axis=tuple(range(n_new))) if n_new else local
    stretched = [axis for axis, size in enumerate(shape) if size == 1 and leading.shape[axis] != 1]

    def compare(got: Any, expected: np.ndarray) -> bool:
        if isinstance(got, _Raised):
            raise AssertionError(_error_message(got))
        array = _as_array(got, "unbroadcast's result")
        if _close(array, expected):
            return True
        if array.shape != tuple(shape):
            if array.shape == leading.shape and stretched:
                raise AssertionError(
                    f"You summed the dims that broadcasting added in front (if any), but not "
                    f"the dims of size 1 that it stretched: the input has shape {shape}, so its "
                    f"axis {stretched[0]} (size 1) was stretched to "
                    f"{leading.shape[stretched[0]]} and must be summed too, keeping its size 1.")
            if array.shape == local.shape:
                raise AssertionError(
                    f"Your result still has the broadcast result's shape {local.shape}: sum "
                    f"it down to the input's shape {shape}.")
            if array.shape == _squeeze_size1(shape) and _close(array.reshape(shape), expected):
                raise AssertionError(
                    f"The numbers are right, but the dims of size 1 are gone: the gradient "
                    f"must have the input's shape {shape}, so keep them (`keepdims=True`).")
            if len(shape) and array.shape == local.shape[:len(shape)]:
                raise AssertionError(
                    "You summed the trailing dims: broadcasting lines shapes up on the "
                    "right, so the dims it adds are the *leading* ones.")
            if array.ndim == len(shape):
                raise AssertionError(
                    f"The gradient has shape {array.shape}, not the input's {shape}: you "
                    "summed the wrong axis. Sum the axes where the input has size 1 and the "
                    "broadcast gradient does not.")
            raise AssertionError(f"The gradient must have the input's shape {shape}; got "
                                 f"{array.shape}.")
        if _close(array, expected / max(local.size // max(expected.size, 1), 1)):
            raise AssertionError("You averaged: the gradient is the *sum* over the broadcast "
                                 "copies (each copy is a path, and paths add up).")
        raise AssertionError(f"{name}: the gradient should be {_show(expected)}; got "
                             f"{_show(array)}.")

    return compare


def check_unbroadcast(unbroadcast: Callable[[np.ndarray, tuple], np.ndarray]) -> bool:
    """Check ``unbroadcast(grad, shape)``: the gradient of a broadcast operation summed back
    down to an input's shape.

    ``grad`` has the broadcast result's shape. The answer sums it over the dims that
    broadcasting added in front, and over the dims where ``shape`` has size 1 (keeping them,
    size 1). Each case is the gradient of one input of ``a + b`` or ``a * b`` (where the
    learner's ``Mul`` first multiplies ``grad`` by the other input), compared with the
    gradient PyTorch (or minitorch) gives that input.

    Example:
        >>> def unbroadcast(grad, shape):
        ...     while grad.ndim > len(shape):
        ...         grad = grad.sum(axis=0)
        ...     for axis, size in enumerate(shape):
        ...         if size == 1:
        ...             grad = grad.sum(axis=axis, keepdims=True)
        ...     return grad
        >>> check_unbroadcast(unbroadcast)
        ✓ unbroadcast: all 8 cases passed.
        True
    """
    cases = []
    for seed, (name, op, a_shape, b_shape, which) in enumerate(_BROADCASTS):
        local, expected = _unbroadcast_problem(op, a_shape, b_shape, which, seed)
        shape = (a_shape, b_shape)[which]
        cases.append(Case(
            name, lambda local=local, shape=shape: _call(lambda: unbroadcast(local.copy(), shape)),
            expected, compare=_unbroadcast_compare(local, shape, name),
            expected_repr=f"{_oracle()[1]}'s gradient, shape {shape}: {_show(expected)}"))
    return run_check(
        "unbroadcast", cases,
        hint="A broadcast input was used once per copy, so its gradient is the *sum* of the "
        "copies' gradients, in the input's own shape.",
        more_help=[
            "Broadcasting lines shapes up on the right: first sum away the extra leading "
            "dims, until `grad.ndim == len(shape)`.",
            "Then every axis where `shape` has size 1 was stretched: sum over it, and keep it "
            "as a dim of size 1.",
            "Print `grad.shape` and `shape` side by side for the failing case.",
        ],
        refuse=[_OVER_NUMPY],
    )


# ------------------------------------------------------------------ Sum and Mean
_REDUCTIONS = [
    ("x.sum() of a (2, 3)", "sum", (2, 3), None, False),
    ("x.sum(dim=1) of a (4, 4)", "sum", (4, 4), 1, False),
    ("x.sum(dim=0, keepdim=True) of a (3, 4)", "sum", (3, 4), 0, True),
    ("x.sum(dim=1) of a (3, 4)", "sum", (3, 4), 1, False),
    ("x.sum(dim=-1) of a (2, 3, 4)", "sum", (2, 3, 4), -1, False),
    ("x.sum(dim=(0, 2)) of a (2, 3, 4)", "sum", (2, 3, 4), (0, 2), False),
    ("x.mean() of a (2, 3)", "mean", (2, 3), None, False),
    ("x.mean(dim=1) of a (3, 4)", "mean", (3, 4), 1, False),
    ("x.mean(dim=(0, 2), keepdim=True) of a (2, 3, 4)", "mean", (2, 3, 4), (0, 2), True),
    ("x.mean(dim=0) of a (5, 2), with zeros", "mean", (5, 2), 0, False),
]


def _reduction_problem(op: str, shape: tuple, dim: Any, keepdim: bool, seed: int):
    rng = np.random.default_rng(100 + seed)
    x = rng.integers(-2, 3, shape).astype(np.float64)

    def fn(lib, t):
        kwargs = {} if dim is None else {"dim": dim, "keepdim": keepdim}
        return getattr(t, op)(**kwargs)

    out_shape = x.sum(axis=dim, keepdims=keepdim).shape
    grad = rng.integers(-3, 4, out_shape).astype(np.float64) if out_shape else np.array(2.0)
    out, (expected,) = _reference(fn, [x], grad)
    return x, grad, out, expected


def _reduction_compare(op: str, shape: tuple, dim: Any, keepdim: bool, grad: np.ndarray):
    dims = tuple(range(len(shape))) if dim is None else (dim if isinstance(dim, tuple)
                                                          else (dim,))
    count = int(np.prod([shape[d] for d in dims]))
    call = f"x.{op}(" + ("" if dim is None else f"dim={dim}" + (
        ", keepdim=True" if keepdim else "")) + ")"

    def compare(got: Any, expected: tuple) -> bool:
        want_out, want_grad = expected
        if isinstance(got, _Raised):
            text = safe_str(got.error)
            if "broadcast" in text or "dimensions" in text:
                if keepdim:
                    why = (f"With keepdim=True the gradient {grad.shape} still has the "
                           "reduced dims, as size 1: it broadcasts to x's shape as it is, with "
                           "nothing put back.")
                else:
                    why = (f"The gradient of {call} has shape {grad.shape}: the reduced dims "
                           f"are gone, so it cannot be stretched to x's shape {shape} from "
                           "the right. Put the reduced dims back first, as dims of size 1 "
                           "(`np.expand_dims`).")
                raise AssertionError(_error_message(got, why))
            raise AssertionError(_error_message(got))
        out, grads = got.raw
        out = _as_array(out, f"The value of {call}")
        if not _close(out, want_out):
            raise AssertionError(f"The forward value of {call} should be {_show(want_out)}; "
                                 f"got {_show(out)} (the forward is given: was it changed?).")
        (g,) = _grads_tuple(grads, 1, op.capitalize())
        g = _as_array(g, "x's gradient")
        if _close(g, want_grad):
            return True
        if g.shape != tuple(shape):
            raise AssertionError(f"x's gradient must have x's shape {shape}; got {g.shape}.")
        if op == "mean" and count > 1 and _close(g, want_grad * count):
            raise AssertionError(
                f"Every value is {count} times too big: the mean divides by the number of "
                f"elements it averages ({count} here), so its backward divides by it too.")
        if op == "mean" and count < np.prod(shape) and _close(
                g, want_grad * count / np.prod(shape)):
            raise AssertionError(
                f"You divided by all of x's {int(np.prod(shape))} elements; each output of "
                f"{call} averages {count} of them, so divide by {count}.")
        if op == "sum" and dim is not None and not keepdim:
            try:
                naive = np.broadcast_to(grad, shape)
            except ValueError:
                naive = None
            if naive is not None and _close(g, naive):
                raise AssertionError(
                    f"Your gradient runs along the wrong axis: `np.broadcast_to` lines the "
                    f"gradient {grad.shape} up with x's *last* dims, but after {call} it "
                    f"belongs to the dims that were kept. Put the reduced dim back as a dim "
                    "of size 1 first (`np.expand_dims`), then broadcast.")
        raise AssertionError(f"x's gradient should be {_show(want_grad)}; got {_show(g)}.")

    return compare


def check_reductions(tensor_class: type) -> bool:
    """Check ``Sum.backward`` and ``Mean.backward`` through the learner's ``Tensor``:
    ``x.sum(dim=..., keepdim=...)`` and ``x.mean(...)``.

    Each case makes ``x = tensor_class(data, requires_grad=True)``, reduces it, and calls the
    result's node, ``out.grad_fn.backward(grad)``, with an upstream gradient of the output's
    shape. It must return ``(grad_x,)``: every element of ``x`` gets the gradient of the
    output it went into (divided by the count for ``mean``), in ``x``'s shape. The cases
    reduce all dims, one, a negative one and two, with and without ``keepdim``, and include a
    square input, on which a gradient broadcast along the wrong axis still fits.

    Example:
        >>> import numpy as np
        >>> class Sum:
        ...     def backward(self, grad):
        ...         raise NotImplementedError("your code here")
        >>> class Tensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         self.data, self.requires_grad = np.asarray(data, dtype=np.float32), True
        ...     def sum(self, dim=None, keepdim=False):
        ...         out = Tensor(self.data.sum(axis=dim, keepdims=keepdim))
        ...         out.grad_fn = Sum()
        ...         return out
        >>> check_reductions(Tensor)  # doctest: +ELLIPSIS
        ⏳ reductions: not done yet.
        ...
        False
    """
    cases = []
    for seed, (name, op, shape, dim, keepdim) in enumerate(_REDUCTIONS):
        x, grad, out, expected = _reduction_problem(op, shape, dim, keepdim, seed)

        def run(x=x, grad=grad, op=op, dim=dim, keepdim=keepdim, name=name):
            t = tensor_class(x.copy(), requires_grad=True)
            result = getattr(t, op)() if dim is None else getattr(t, op)(dim=dim,
                                                                         keepdim=keepdim)
            node = _node_of(result, name.split(" of ")[0])
            value = getattr(result, "data", result)
            grads = node.backward(grad.astype(np.float32))
            return _Got((value, grads), {name.split(" of ")[0]: value,
                                         "its node's backward(grad)": grads})

        cases.append(Case(name, lambda run=run: _call(run), (out, expected),
                          compare=_reduction_compare(op, shape, dim, keepdim, grad),
                          expected_repr=f"{_oracle()[1]}'s x.grad, shape {shape}: "
                                        f"{_show(expected)}"))
    return run_check(
        "reductions", cases,
        hint="A sum hands each element the gradient of the output it went into; a mean also "
        "divides by how many elements each output averages.",
        more_help=[
            "The gradient arrives with the output's shape. Where was each reduced dim before "
            "the sum? Put it back there, as a dim of size 1 (with keepdim=True it is still "
            "there).",
            "Then stretch it to x's shape with `np.broadcast_to`: every element along the "
            "reduced dims gets the same value.",
            "For `Mean`, reuse `Sum`'s backward on a gradient divided by `self.count`.",
        ],
        refuse=[_OVER_NUMPY],
    )


# ------------------------------------------------------------------ MatMul
_MATMULS = [
    ("a (3, 3) @ b (3, 3)", (3, 3), (3, 3)),
    ("a (2, 3) @ b (3, 4)", (2, 3), (3, 4)),
    ("a (1, 5) @ b (5, 1): a row times a column", (1, 5), (5, 1)),
    ("a (4, 1) @ b (1, 2): a column times a row", (4, 1), (1, 2)),
    ("a (3, 2) @ b (2, 2), a with a row of zeros", (3, 2), (2, 2)),
]


def _matmul_problem(a_shape: tuple, b_shape: tuple, seed: int):
    rng = np.random.default_rng(200 + seed)
    a = rng.integers(-3, 4, a_shape).astype(np.float64)
    b = rng.integers(-3, 4, b_shape).astype(np.float64)
    if a_shape == (3, 2):
        a[1] = 0.0
    grad = rng.integers(-3, 4, (a_shape[0], b_shape[1])).astype(np.float64)
    out, grads = _reference(lambda lib, x, y: x @ y, [a, b], grad)
    return a, b, grad, out, grads


def _matmul_mistakes(a: np.ndarray, b: np.ndarray, grad: np.ndarray) -> dict[str, list]:
    """Products a learner may write instead of each gradient, with what each gets wrong."""
    return {
        "a": [(lambda: grad @ b, "grad @ b: b is not transposed"),
              (lambda: (grad @ b.T).T, "the transpose of a's gradient: the factors are in the "
                                       "wrong order"),
              (lambda: b.T @ grad, "b.T @ grad: the factors are in the wrong order"),
              (lambda: a.T @ grad, "b's gradient: the two formulas are swapped")],
        "b": [(lambda: a @ grad, "a @ grad: a is not transposed"),
              (lambda: (a.T @ grad).T, "the transpose of b's gradient: the factors are in the "
                                       "wrong order"),
              (lambda: grad @ a.T, "grad @ a.T: the factors are in the wrong order"),
              (lambda: grad @ b.T, "a's gradient: the two formulas are swapped")],
    }


def _matmul_compare(a: np.ndarray, b: np.ndarray, grad: np.ndarray):
    mistakes = _matmul_mistakes(a, b, grad)

    def compare(got: Any, expected: tuple) -> bool:
        want_out, (want_a, want_b) = expected
        if isinstance(got, _Raised):
            raise AssertionError(_error_message(got, (
                f"Each gradient has its input's shape: a is {a.shape}, b is {b.shape}, and "
                f"grad (the output's gradient) is {grad.shape}. Which product of grad with "
                "the other input, transposed or not, has that shape?")))
        out, grads = got.raw
        out = _as_array(out, "The value of a @ b")
        if not _close(out, want_out):
            raise AssertionError(f"a @ b should be {_show(want_out)}; got {_show(out)} (the "
                                 "forward is given: was it changed?).")
        got_a, got_b = (_as_array(g, f"{n}'s gradient")
                        for g, n in zip(_grads_tuple(grads, 2, "MatMul"), "ab"))
        if _close(got_a, want_b) and _close(got_b, want_a) and not _close(want_a, want_b):
            raise AssertionError("The two gradients are swapped: return a's first, then b's.")
        for got_x, want, name in ((got_a, want_a, "a"), (got_b, want_b, "b")):
            if _close(got_x, want):
                continue
            shape = a.shape if name == "a" else b.shape
            if got_x.shape != shape:
                raise AssertionError(f"{name}'s gradient must have {name}'s shape {shape}; got "
                                     f"{got_x.shape}.")
            for formula, why in mistakes[name]:
                with np.errstate(all="ignore"):
                    try:
                        value = formula()
                    except ValueError:
                        continue
                if _close(got_x, value) and not _close(value, want):
                    raise AssertionError(f"Your gradient for {name} is {why}.")
            raise AssertionError(f"{name}'s gradient should be {_show(want)}; got "
                                 f"{_show(got_x)}.")
        return True

    return compare


def check_matmul(tensor_class: type) -> bool:
    """Check ``MatMul.backward`` through the learner's ``Tensor``: the gradients of ``a @ b``
    for 2-D ``a`` (n, k) and ``b`` (k, m).

    Each case calls ``(a @ b).grad_fn.backward(grad)`` with an upstream ``grad`` of shape
    (n, m); it must return ``(grad_a, grad_b)``, compared with PyTorch's (or minitorch's).
    The first case is square, so that a missing or misplaced transpose gives wrong numbers
    (which the feedback names) rather than a shape error.

    Example:
        >>> import numpy as np
        >>> class MatMul:
        ...     def backward(self, grad):
        ...         return grad @ self.b, self.a @ grad     # transposes forgotten
        >>> class Tensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         self.data = np.asarray(data, dtype=np.float32)
        ...     def __matmul__(self, other):
        ...         out, node = Tensor(self.data @ other.data), MatMul()
        ...         node.a, node.b, out.grad_fn = self.data, other.data, node
        ...         return out
        >>> check_matmul(Tensor)  # doctest: +ELLIPSIS
        ✗ matmul: wrong result for `a (3, 3) @ b (3, 3)`.
        ...
        Your gradient for a is grad @ b: b is not transposed.
        ...
        False
    """
    cases = []
    for seed, (name, a_shape, b_shape) in enumerate(_MATMULS):
        a, b, grad, out, grads = _matmul_problem(a_shape, b_shape, seed)

        def run(a=a, b=b, grad=grad):
            ta = tensor_class(a.copy(), requires_grad=True)
            tb = tensor_class(b.copy(), requires_grad=True)
            result = ta @ tb
            node = _node_of(result, "a @ b")
            value = getattr(result, "data", result)
            grads = node.backward(grad.astype(np.float32))
            return _Got((value, grads), {"a @ b": value, "its node's backward(grad)": grads})

        cases.append(Case(name, lambda run=run: _call(run), (out, grads),
                          compare=_matmul_compare(a, b, grad),
                          expected_repr=f"{_oracle()[1]}'s (a.grad, b.grad): "
                                        f"({_show(grads[0])}, {_show(grads[1])})"))
    return run_check(
        "matmul", cases,
        hint="Each gradient has its input's shape, and the shapes leave one way to multiply "
        "the output's gradient with the other input.",
        more_help=[
            "Write one element: out[i, j] is the sum over k of a[i, k] * b[k, j]. Which "
            "outputs does a[i, k] reach, and with what factor?",
            "Summing those paths for a[i, k] gives a sum over j: which matrix product is "
            "that, and does b appear transposed in it?",
            "Check the shapes: a's gradient is (n, k), grad is (n, m), b is (k, m).",
        ],
        refuse=[_OVER_NUMPY],
    )


# ------------------------------------------------------------------ LogSoftmax
def _log_softmax_problems() -> list[tuple[str, np.ndarray, int, np.ndarray]]:
    rng = np.random.default_rng(300)
    batch = np.array([[0.0, 1.0, 0.0], [0.0, 1.0, 2.0], [1.0, 0.0, 0.0]])
    onehot = np.eye(3)[[1, 2, 0]]
    return [
        ("log_softmax(dim=1) of [[1, 2, 3], [0, 0, 0]] (a row of ties)",
         np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]), 1, rng.normal(size=(2, 3))),
        ("log_softmax(dim=1) of [[1000, 0, -1000], [-1000, -1000, -999]] (large logits)",
         np.array([[1000.0, 0.0, -1000.0], [-1000.0, -1000.0, -999.0]]), 1,
         rng.normal(size=(2, 3))),
        ("log_softmax(dim=1) of a (3, 4)", rng.normal(size=(3, 4)) * 2, 1,
         rng.normal(size=(3, 4))),
        ("log_softmax(dim=0) of a (4, 4)", rng.normal(size=(4, 4)), 0, rng.normal(size=(4, 4))),
        ("the cross-entropy gradient (-onehot / 3) into log_softmax(dim=1)", batch, 1,
         -onehot / 3),
        ("log_softmax(dim=-1) of a (2, 3, 4)", rng.normal(size=(2, 3, 4)), -1,
         rng.normal(size=(2, 3, 4))),
    ]


def _log_softmax_compare(x: np.ndarray, dim: int, grad: np.ndarray, name: str):
    with np.errstate(all="ignore"):
        p = np.exp(x - x.max(axis=dim, keepdims=True))
        p = p / p.sum(axis=dim, keepdims=True)
    other = 1 - dim if x.ndim == 2 and dim in (0, 1) else None
    mistakes = [
        (grad - p, "Your gradient is grad - softmax: the sum of grad along the dim is missing "
                   "(it is 1 only when each row of grad sums to 1)."),
        (grad * (1 - p), "Your gradient is grad * (1 - softmax), the diagonal of the Jacobian "
                         "only: each output depends on every input of its row."),
        (grad - p * grad.sum(), "Your gradient sums grad over all its elements: sum along "
                                "`dim` only, one sum per row."),
    ]
    if other is not None:
        mistakes.append((grad - p * grad.sum(axis=other, keepdims=True),
                         f"Your gradient sums grad along dim {other}; the softmax runs along "
                         f"dim {dim}."))

    def compare(got: Any, expected: tuple) -> bool:
        want_out, want_grad = expected
        if isinstance(got, _Raised):
            raise AssertionError(_error_message(got))
        out, grads = got.raw
        out = _as_array(out, "log_softmax's value")
        if out.shape != want_out.shape:
            raise AssertionError(f"log_softmax keeps x's shape {want_out.shape}; got "
                                 f"{out.shape}: sum with `keepdims=True`.")
        if np.isposinf(out).any() and not (np.isneginf(out) | np.isnan(out)).any():
            raise AssertionError(
                "The forward value has +inf where a row lies far below the largest value of "
                "the whole tensor: shifted by that one maximum, every exp of the row "
                "underflows to 0, and log(0) is -inf. Subtract each row's *own* maximum "
                "(`keepdims=True` along `dim`): then every row has an exp of exactly 1.")
        if not np.isfinite(out).all():
            raise AssertionError(
                "The forward value has inf or nan: exp(1000) overflows (float32 stops at "
                "about 3.4e38, exp(89)). Subtract each row's maximum before `exp`: the "
                "log-softmax of a row does not change when you shift the row.")
        if not _close(out, want_out):
            row_max = np.broadcast_to(x.max(axis=dim, keepdims=True), out.shape)
            if np.allclose(np.abs(out - want_out), np.abs(row_max), atol=1e-3):
                raise AssertionError(
                    "The forward value is off by each row's maximum m: log_softmax(x) = (x - m) "
                    "- log(sum(exp(x - m))), with the shift in both terms.")
            raise AssertionError(f"log_softmax({name.split(' of ')[-1]}) should be "
                                 f"{_show(want_out)}; got {_show(out)}.")
        (g,) = _grads_tuple(grads, 1, "LogSoftmax")
        g = _as_array(g, "x's gradient")
        if _close(g, want_grad):
            return True
        if g.shape != x.shape:
            raise AssertionError(f"x's gradient must have x's shape {x.shape}; got {g.shape}: "
                                 "sum along the dim with `keepdims=True`.")
        for value, why in mistakes:
            if _close(g, value) and not _close(value, want_grad):
                raise AssertionError(why)
        raise AssertionError(f"x's gradient should be {_show(want_grad)}; got {_show(g)}.")

    return compare


def check_log_softmax(tensor_class: type) -> bool:
    """Check ``LogSoftmax`` through the learner's ``Tensor``: ``x.log_softmax(dim)`` and
    its node's ``backward``.

    The forward must equal PyTorch's (or minitorch's) ``log_softmax``, also for logits of
    ±1000, where ``exp`` overflows unless each row is first shifted by its maximum. The
    backward must return ``(grad_x,)``, the vector-Jacobian product of chapter 05 (never the
    Jacobian itself), along ``dim`` (1, 0 or -1), including the gradient that cross-entropy
    sends into it.

    Example:
        >>> class Tensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         self.data = data
        ...     def log_softmax(self, dim):
        ...         raise NotImplementedError("your code here")
        >>> check_log_softmax(Tensor)  # doctest: +ELLIPSIS
        ⏳ log_softmax: not done yet.
        ...
        False
    """
    cases = []
    for name, x, dim, grad in _log_softmax_problems():
        out, (expected,) = _reference(lambda lib, t, dim=dim: lib.nn.functional.log_softmax(
            t, dim=dim), [x], grad)

        def run(x=x, dim=dim, grad=grad):
            t = tensor_class(x.copy(), requires_grad=True)
            with np.errstate(all="ignore"):  # an overflow is reported, not warned about
                result = t.log_softmax(dim=dim)
                node = _node_of(result, f"x.log_softmax(dim={dim})")
                value = getattr(result, "data", result)
                grads = node.backward(grad.astype(np.float32))
                return _Got((value, grads), {f"x.log_softmax(dim={dim})": value,
                                             "its node's backward(grad)": grads})

        cases.append(Case(name, lambda run=run: _call(run), (out, expected),
                          compare=_log_softmax_compare(x, dim, grad, name),
                          expected_repr=f"{_oracle()[1]}'s log_softmax {_show(out)}, and "
                                        f"x.grad {_show(expected)}"))
    return run_check(
        "log_softmax", cases,
        hint="Shift each row by its maximum before `exp` (the result does not change), and "
        "remember in backward that every output of a row depends on every input of that row.",
        more_help=[
            "Forward: with m the row's maximum, log_softmax(x) = (x - m) - log(sum(exp(x - "
            "m))). No exp of a large number remains.",
            "Backward: with p = softmax(x), the Jacobian of a row is [i == j] - p_j. Multiply "
            "grad (a row vector) by it, without building it: one term from the identity, "
            "one from p.",
            "Sum along `self.dim` with `keepdims=True`, so the sum broadcasts back over the "
            "row.",
        ],
        refuse=[_OVER_NUMPY],
    )


# ------------------------------------------------------------------ the engine
def _engine_problems() -> list[tuple[str, Callable, Callable, int]]:
    """``(name, leaves, graph, times)``: ``leaves(make)`` makes the leaf tensors with
    ``make(data, requires_grad)``, ``graph(leaves)`` returns ``(loss, {name: tensor})`` (the
    tensors whose ``.grad`` is checked), and backward runs ``times`` times, each time on a
    new graph over the same leaves."""
    rng = np.random.default_rng(400)
    w0 = rng.integers(-2, 3, (3, 4)).astype(np.float64)
    x0 = np.array([[1.0, 0.0, -1.0, 2.0], [0.0, 0.0, 0.0, 0.0]])
    b0 = np.array([0.0, 1.0, -1.0])

    def one(data):
        return lambda make: {"x": make(np.array(data), True)}

    def scaled(leaves):
        return (leaves["x"] * 3).sum(), {"x": leaves["x"]}

    def diamond(leaves):
        x = leaves["x"]
        a, b = x * 2, x + 1
        return (a * b).sum(), {"x": x, "a (not a leaf)": a, "b (not a leaf)": b}

    def three_uses(leaves):
        x = leaves["x"]
        return (x * x + x).sum(), {"x": x}

    def layer_leaves(make):
        return {"w": make(w0, True), "b": make(b0, True), "x (requires no grad)": make(x0, False)}

    def layer(leaves):
        h = leaves["x (requires no grad)"] @ leaves["w"].T + leaves["b"]
        return h.relu().mean(), {**leaves, "h (not a leaf)": h}

    def two_leaves(make):
        return {"a": make(np.array([1.0, 2.0]), True), "b": make(np.array([3.0, 4.0]), True),
                "c (requires no grad)": make(np.array([5.0, -6.0]), False)}

    def added(leaves):
        a, b = leaves["a"], leaves["b"]
        return ((a + b) * leaves["c (requires no grad)"]).sum(), {"a": a, "b": b}

    def chain(leaves):
        h = leaves["x"]
        for _ in range(5000):
            h = h * 1.0001
        return h.sum(), {"x": leaves["x"]}

    def squarings(leaves):
        h = leaves["x"]
        for _ in range(40):
            h = h * h
        loss = h.sum()
        _count_backward_calls(loss)
        return loss, {"x": leaves["x"]}

    return [
        ("(x * 3).sum()", one([1.0, -2.0, 3.0, 0.5]), scaled, 1),
        ("diamond: a = x * 2, b = x + 1, loss = (a * b).sum()", one([3.0, -1.0, 0.5]),
         diamond, 1),
        ("x used three times: (x * x + x).sum()", one([3.0, 2.0]), three_uses, 1),
        ("a layer: (x @ w.T + b).relu().mean(), some inputs of relu exactly 0", layer_leaves,
         layer, 1),
        ("backward() twice, on two graphs over the same x: .grad adds up",
         one([3.0, -1.0, 0.5]), diamond, 2),
        ("backward() twice on ((a + b) * c).sum(): Add hands a and b the same gradient array",
         two_leaves, added, 2),
        ("a chain 5,000 operations deep", one([1.0, 2.0]), chain, 1),
        ("x squared 40 times (h = h * h): 2**40 paths from the loss to x", one([1.0, -1.0]),
         squarings, 1),
    ]


class _RevisitedError(_UnusableError):
    """Raised from a learner's ``grad_fn.backward`` that runs again and again: the engine
    passes each gradient on along every path instead of once per tensor."""


_BACKWARD_CALLS_ALLOWED = 4  # an engine that visits each tensor once calls its backward once


def _count_backward_calls(loss: Any) -> None:
    """Make every ``grad_fn`` behind the learner's ``loss`` count the calls of its
    ``backward`` (an attribute of the object, over its class's method), and stop an engine
    that calls one too often. The oracle's tensors (no ``grad_fn.inputs``) are left alone."""
    stack, seen = [loss], set()
    while stack:
        fn = getattr(stack.pop(), "grad_fn", None)
        inputs = getattr(fn, "inputs", None)
        if fn is None or inputs is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        try:
            fn.backward = _counted(fn, fn.backward)
        except Exception:  # an object that takes no attributes: left uncounted
            continue
        stack.extend(inputs)


def _counted(fn: Any, backward: Callable[..., Any]) -> Callable[..., Any]:
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] > _BACKWARD_CALLS_ALLOWED:
            raise _RevisitedError(
                f"Your engine called the backward of one {type(fn).__name__} {calls[0]} times "
                "and was still going: here every tensor is reached along two paths, so "
                "passing each gradient on as soon as it arrives follows every path (2**40 of "
                "them). Visit the tensors in a topological order, each once, with the sum of "
                "all the gradients that reached it.")
        return backward(*args, **kwargs)

    # the learner's engine calls this in place of its own backward: a code object outside
    # minitorch's folder keeps the check's refusal of minitorch (`_OVER_NUMPY`) off it
    code = counted.__code__.replace(co_filename="<the check's count of backward calls>")
    return types.FunctionType(code, counted.__globals__, counted.__name__,
                              counted.__defaults__, counted.__closure__)


def _engine_run(make: Callable, leaves: Callable, graph: Callable, times: int) -> _Got:
    """Build and back-propagate the graph ``times`` times; every checked tensor's ``.grad``
    (the tensors of the last graph, and the leaves)."""
    inputs = leaves(make)
    for _ in range(times):
        loss, named = graph(inputs)
        loss.backward()
    grads = {key: t.grad for key, t in named.items()}
    return _Got(grads, {f"{key.split()[0]}.grad": value for key, value in grads.items()})


def _engine_reference(leaves: Callable, graph: Callable, times: int) -> dict:
    lib, _ = _oracle()

    def make(data, requires_grad=False):
        return lib.tensor(np.asarray(data, dtype=np.float64), requires_grad=requires_grad)

    inputs = leaves(make)
    for _ in range(times):
        loss, named = graph(inputs)
        loss.backward()
    return {name: (None if (t.grad_fn is not None or not t.requires_grad) else
                   t.grad.numpy().copy()) for name, t in named.items()}


def _is_array_of(value: Any, other: Any) -> bool:
    """Whether two gradients are one NumPy array (or share its memory)."""
    try:
        return value is other or bool(np.shares_memory(np.asarray(value), np.asarray(other)))
    except Exception:
        return False


def _engine_compare(name: str, times: int):
    def compare(got: Any, expected: dict) -> bool:
        if isinstance(got, _Raised):
            error = got.error
            if isinstance(error, RecursionError):
                why = ("Python stops recursing about 1,000 calls deep, and this graph is 5,000 "
                       "deep: use chapter 04's `topo_sort`, with an explicit stack.")
            elif isinstance(error, ValueError) and "read-only" in safe_str(error):
                why = ("`+=` added in place into a gradient array that NumPy made read-only "
                       "(`np.broadcast_to` returns a read-only view, and an operation may hand "
                       "one array to several inputs). Add gradients out of place, with `+`, "
                       "which makes a new array.")
            elif isinstance(error, KeyError):
                why = ("A tensor's gradient was looked up before any arrived. Walk the tensors "
                       "in topological order (each before its inputs), so that all of a "
                       "tensor's gradient has arrived before you use it.")
            else:
                why = ""
            raise AssertionError(_error_message(got, why))
        for key, want in expected.items():
            have = got.raw.get(key, "missing")
            if want is None:
                if have is not None:
                    if "not a leaf" in key:
                        raise AssertionError(
                            f"{key.split()[0]} got a .grad: only leaves get one (a tensor "
                            "made by an operation passes its gradient on, and PyTorch keeps "
                            "its .grad None).")
                    raise AssertionError(f"{key.split()[0]} does not require grad, so it must "
                                         "get no .grad.")
                continue
            if have is None:
                raise AssertionError(f"{key}.grad is still None: the gradient never reached "
                                     f"{key}.")
            array = _as_array(have, f"{key}.grad")
            if _close(array, want):
                continue
            shared = [other for other, value in got.raw.items()
                      if other != key and value is not None and _is_array_of(value, have)]
            if shared:
                raise AssertionError(
                    f"{key}.grad should be {_show(want)}; got {_show(array)}, and {key}.grad "
                    f"and {shared[0]}.grad are one and the same array. Add's backward hands the "
                    "very same gradient array to both its inputs; stored as both leaves' .grad, "
                    "it is then added into in place (`+=`) once for each leaf. Add into .grad "
                    "out of place, with `+`, which makes a new array.")
            if times == 2 and _close(array, want / 2):
                raise AssertionError(
                    f"{key}.grad holds the gradient of one call only: a second backward() "
                    "*adds* to .grad (that is why training loops call zero_grad()).")
            if "diamond" in name or "three" in name:
                raise AssertionError(
                    f"{key}.grad should be {_show(want)}; got {_show(array)}. {key} is used "
                    "more than once: the gradients of all its uses must be added, never "
                    "replaced.")
            note = (" Some inputs of relu are exactly 0 here, where its gradient is 0 (as in "
                    "PyTorch): `ReLU.backward` passes the gradient only where x > 0."
                    if "relu" in name else "")
            raise AssertionError(f"{key}.grad should be {_show(want)}; got {_show(array)}."
                                 + note)
        return True

    return compare


def check_backward(tensor_class: type) -> bool:
    """Check the learner's engine, ``run_backward(root)``, through ``loss.backward()`` on the
    learner's ``Tensor``.

    After ``loss.backward()`` every leaf that requires grad must hold in ``.grad`` what
    PyTorch (or minitorch) puts there; tensors made by operations, and leaves that do not
    require grad, keep ``.grad = None``. The cases include a diamond (a tensor used twice), a
    tensor used three times, a layer with broadcasting and ReLU inputs exactly at 0, two
    ``backward()`` calls (``.grad`` adds up; once with two leaves that ``Add`` hands one
    gradient array, so adding into ``.grad`` in place counts it twice), a chain 5,000
    operations deep, which a recursive topological sort cannot handle, and ``x`` squared 40
    times (2**40 paths: each ``grad_fn.backward`` must run once, not once per path).

    Example:
        >>> import numpy as np
        >>> class Tensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         raise NotImplementedError("your code here")
        >>> check_backward(Tensor)  # doctest: +ELLIPSIS
        ⏳ backward: not done yet.
        ...
        False
    """
    cases = []
    for name, leaves, graph, times in _engine_problems():
        expected = _engine_reference(leaves, graph, times)

        def run(leaves=leaves, graph=graph, times=times):
            return _engine_run(tensor_class, leaves, graph, times)

        cases.append(Case(name, lambda run=run: _call(run), expected,
                          compare=_engine_compare(name, times),
                          expected_repr=f"the same .grad as {_oracle()[1]}: " + ", ".join(
                              f"{key.split()[0]}.grad = "
                              f"{'None' if v is None else _show(v)}"
                              for key, v in expected.items())))
    return run_check(
        "backward", cases,
        hint="Backward visits the tensors in a topological order and *adds* the gradients "
        "that reach a tensor from its several uses; only leaves that require grad keep one.",
        more_help=[
            "Start with `{root: ones}`; for each tensor in `topo_sort(graph_of(root), "
            "root)`, take its complete gradient out of the dict.",
            "A tensor with a `grad_fn` hands `grad_fn.backward(grad)` on to its inputs (the "
            "ones that require grad); several arrivals at the same tensor add up.",
            "A leaf adds its gradient into `.grad` (which may already hold one from an "
            "earlier backward call).",
        ],
        refuse=[_OVER_NUMPY],
    )


# ------------------------------------------------------------------ the training loop
def _training_data(n: int = 96, features: int = 8, classes: int = 3):
    rng = np.random.default_rng(500)
    images = rng.normal(size=(n, features)).astype(np.float32)
    labels = (images[:, :classes].argmax(axis=1)).astype(np.int64)
    return images, labels


def _training_model(lib: Any, features: int = 8, hidden: int = 6, classes: int = 3) -> Any:
    """A small network in ``lib`` (minitorch), with the same starting weights every time."""
    nn = lib.nn
    model = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, classes))
    rng = np.random.default_rng(501)
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    return model


def _batches(images: np.ndarray, labels: np.ndarray, batch_size: int, epochs: int):
    """The chapter's ``batches``: a new order from NumPy's seed-0 generator every epoch."""
    rng = np.random.default_rng(0)
    for _ in range(epochs):
        order = rng.permutation(len(labels))
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            yield images[index], labels[index]


def _loop(variant: str, epochs: int, lr: float, batch_size: int) -> list[float]:
    """The losses of the training loop, done right or with one well-known mistake."""
    import minitorch

    images, labels = _training_data()
    model = _training_model(minitorch)
    optimizer = minitorch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for xb, yb in _batches(images, labels, batch_size, epochs):
        loss = minitorch.nn.functional.cross_entropy(model(minitorch.tensor(xb)),
                                                     minitorch.tensor(yb))
        if variant != "no zero_grad":
            optimizer.zero_grad()
        loss.backward()
        if variant != "no step":
            optimizer.step()
        losses.append(loss.item())
    return losses


_LOOP_MISTAKES = {
    "no zero_grad": "Your losses are those of a loop that never calls `optimizer.zero_grad()`: "
                    "each backward() adds to the gradients of all the steps before it.",
    "no step": "Your losses are those of a loop whose weights never change: when "
               "`optimizer.step()` runs (if it does), there is no gradient to follow. Clear the "
               "gradients before `loss.backward()`, never between `loss.backward()` and "
               "`optimizer.step()`.",
}


def _training_compare(epochs: int, lr: float, batch_size: int):
    def compare(got: Any, expected: list) -> bool:
        if isinstance(got, _Raised):
            if "modified by an inplace operation" in safe_str(got.error):
                raise AssertionError(_error_message(got, (
                    "`optimizer.step()` changed the weights in place between the forward "
                    "pass and `loss.backward()`, and minitorch's version counter caught it "
                    "(chapter 04): this batch's backward needs the weights its forward used. "
                    "Step after backward.")))
            raise AssertionError(_error_message(got, (
                "The check calls `train(minitorch, model, images, labels, epochs, lr, "
                "batch_size)` with a small minitorch network.")))
        if got is None:
            raise AssertionError("`train` returned None: return the list of losses, one per "
                                 "step.")
        try:
            values = [float(v) for v in got]
        except Exception as error:
            raise AssertionError(
                f"`train` should return a list of numbers, one loss per step (`loss.item()`); "
                f"got {format_value(got)} ({type_name(error)}).") from None
        graphs = [v for v in got if getattr(v, "grad_fn", None) is not None]
        if graphs:
            raise AssertionError(
                f"{len(graphs)} of your losses are tensors that still hold their graph "
                f"(grad_fn={graphs[0].grad_fn.name()}): the list keeps every step's graph, "
                "its saved activations included, alive for the whole training. Keep "
                "`loss.item()`, a Python float.")
        if len(values) != len(expected):
            raise AssertionError(
                f"{len(expected)} steps ({epochs} epoch(s) of batches of {batch_size}) should "
                f"give {len(expected)} losses, one per batch; got {len(values)}.")
        if np.allclose(values, expected, rtol=1e-4, atol=1e-5):
            return True
        for variant, why in _LOOP_MISTAKES.items():
            if np.allclose(values, _loop(variant, epochs, lr, batch_size), rtol=1e-4,
                           atol=1e-5):
                raise AssertionError(why)
        first = next(i for i, (v, e) in enumerate(zip(values, expected))
                     if not np.isclose(v, e, rtol=1e-4, atol=1e-5))
        raise AssertionError(
            f"The losses differ from step {first + 1} on: expected {expected[first]:.5f}, got "
            f"{values[first]:.5f}. Each step: the loss of the batch, clear the gradients, "
            "backward, step, and record `loss.item()`.")

    return compare


def check_training(train: Callable[..., list]) -> bool:
    """Check ``train(lib, model, images, labels, epochs, lr, batch_size)``: the training loop.

    The check runs it with ``lib = minitorch`` and a small minitorch network on 96 random
    samples, and compares the losses it returns (one ``loss.item()`` per batch) with those of
    the right loop: for each batch of the chapter's ``batches(...)``, the cross-entropy of
    ``model(lib.tensor(xb))`` and ``lib.tensor(yb)``, ``optimizer.zero_grad()``,
    ``loss.backward()``, ``optimizer.step()``. A loop that forgets ``zero_grad``, clears the
    gradients at the wrong moment, or misses ``step`` or ``backward`` is named.

    Example:
        >>> def train(lib, model, images, labels, epochs, lr, batch_size):
        ...     return [2.3] * 6
        >>> check_training(train)  # doctest: +ELLIPSIS
        ✗ train: wrong result for `2 epochs, batches of 32 ...
        ...
        False
    """
    images, labels = _training_data()
    problems = [("2 epochs, batches of 32 (3 per epoch), lr 0.5", 2, 0.5, 32),
                ("1 epoch, batches of 40 (the last one has 16 samples), lr 0.1", 1, 0.1, 40)]
    import minitorch

    cases = []
    for name, epochs, lr, batch_size in problems:
        def run(epochs=epochs, lr=lr, batch_size=batch_size):
            model = _training_model(minitorch)
            return train(minitorch, model, images.copy(), labels.copy(), epochs, lr,
                         batch_size)

        with preserved_state():  # nn.Linear draws its first weights: put the stream back
            expected = _loop("right", epochs, lr, batch_size)
        cases.append(Case(name, lambda run=run: _call(run), expected,
                          compare=_training_compare(epochs, lr, batch_size),
                          expected_repr=f"{len(expected)} losses: " + ", ".join(
                              f"{v:.4f}" for v in expected)))
    return run_check(
        "train", cases,
        hint="Every step: the loss of one batch, clear the old gradients, backward, step, "
        "and keep `loss.item()`.",
        more_help=[
            "Use only `lib`'s names (`lib.tensor`, `lib.nn.functional.cross_entropy`) and the "
            "`optimizer` made for you: then the same loop runs in every library.",
            "Gradients add up across backward() calls: when must they be cleared?",
            "The step follows the gradient, so it comes after backward().",
        ],
    )


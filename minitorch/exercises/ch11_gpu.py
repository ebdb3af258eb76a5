"""Chapter 11 (GPU: devices): the check of its code exercise.

======================  ===============================================================
check                   the learner writes
======================  ===============================================================
check_to_device         ``to_device(batch, device)``: move the tensors inside nested
                        tuples, lists and dicts; leave everything else as it is
======================  ===============================================================

The check runs on a second device: the real GPU where minitorch can use one, otherwise the
pretend GPU of :mod:`minitorch.backends.pretend`. It never raises: it shows ✓, ✗ or ⏳.

Example:
    >>> def to_device(batch, device):
    ...     raise NotImplementedError("your code here")
    >>> check_to_device(to_device)  # doctest: +ELLIPSIS
    ⏳ to_device: not done yet...
    False
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from minitorch.backends.pretend import second_device

from ._common import format_value
from .runner import Case, WrongAnswer, learner_line, run_check

__all__ = ["check_to_device"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_to_device": "to_device",
}



# ------------------------------------------------------------------ to_device
def _describe(obj: Any) -> Any:
    """A comparable picture of a batch: containers kept, tensors as (device, values, grad)."""
    import minitorch

    if isinstance(obj, minitorch.Tensor):
        return ("tensor", str(obj.device), obj.detach().cpu().numpy().tolist(),
                obj.requires_grad, str(obj.dtype))
    if isinstance(obj, dict):
        return {key: _describe(value) for key, value in obj.items()}
    if isinstance(obj, (tuple, list)):
        return type(obj)(_describe(value) for value in obj)
    return obj


def _first_difference(got: Any, want: Any, where: str = "batch", given: Any = None) -> str | None:
    """Words for the first place where two described batches differ (None if they agree).

    ``given`` is the description of the batch before the move, where the tensors started."""
    if isinstance(want, tuple) and want and want[0] == "tensor":
        if not (isinstance(got, tuple) and got and got[0] == "tensor"):
            return (f"`{where}` should be a tensor on {want[1]}; got {format_value(got)}. "
                    "Move tensors with `t.to(device)`; do not turn them into something else.")
        started = given[1] if isinstance(given, tuple) and given[:1] == ("tensor",) else None
        if got[1] != want[1] and started is not None and got[1] != started:
            return (f"`{where}` went to {got[1]}, but the device asked for is {want[1]}: move "
                    "it to the `device` argument, not to a device of your choosing (or a "
                    "variable of the notebook), so the same code moves batches anywhere.")
        if got[1] != want[1]:
            return (f"`{where}` is still on {got[1]}, not on {want[1]}. `t.to(device)` is not "
                    "in place: it *returns* the moved tensor, so put that in the result.")
        if got[2] != want[2]:
            return f"`{where}` holds different numbers than before the move."
        if got[3] != want[3]:
            if got[3]:
                return (f"`{where}` requires grad now, and did not before: move it with "
                        "`t.to(device)` alone, which keeps `requires_grad` as it was.")
            return (f"`{where}` lost `requires_grad`: move it with `t.to(device)` (a recorded "
                    "copy), not by building a new tensor from its values.")
        if got[4] != want[4]:
            return (f"`{where}` changed its dtype from {want[4]} to {got[4]}: `t.to(device)` "
                    "alone keeps it (labels must stay integers, for the loss).")
        return None
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"`{where}` should stay a dict; got {type(got).__name__}."
        if set(got) != set(want):
            return f"`{where}` should keep its keys {sorted(want)}; got {sorted(got)}."
        for key in want:
            inner = given.get(key) if isinstance(given, dict) else None
            found = _first_difference(got[key], want[key], f"{where}[{key!r}]", inner)
            if found:
                return found
        return None
    if isinstance(want, (tuple, list)):
        if type(got) is not type(want):
            return (f"`{where}` should stay a {type(want).__name__}; got "
                    f"{type(got).__name__}. Rebuild each container with the type it had (a "
                    "tuple of inputs and targets is unpacked as a tuple later on).")
        if len(got) != len(want):
            return f"`{where}` should have {len(want)} items; got {len(got)}."
        for i, (g, w) in enumerate(zip(got, want)):
            inner = given[i] if isinstance(given, (tuple, list)) and i < len(given) else None
            found = _first_difference(g, w, f"{where}[{i}]", inner)
            if found:
                return found
        return None
    if got != want or type(got) is not type(want):
        if isinstance(want, str) and isinstance(got, str) and got.startswith("<generator"):
            return (f"`{where}` is the string {want!r}, but came back as {got[:30]!r}...: your "
                    "code rebuilt it like a container (a str is a sequence too, and `str()` "
                    "of a generator gives that text). Give strings back unchanged.")
        return (f"`{where}` is not a tensor, so it should come back unchanged "
                f"({format_value(want)}); got {format_value(got)}.")
    return None


def _given_back(out: Any, given: Any, where: str = "batch") -> str | None:
    """Words for a container with tensors inside that came back as the very object it was
    (so its tensors never moved), or None."""
    import minitorch

    if isinstance(given, (dict, tuple, list)) and out is given and _holds_tensor(given):
        kind = type(given).__name__
        return (f"`{where}` is the very {kind} you were given, handed back as it was, so the "
                f"tensors in it did not move. A {kind} is a container too: build a new {kind} "
                "from its moved items.")
    if isinstance(given, dict) and isinstance(out, dict):
        pairs = [(out[key], given[key], f"{where}[{key!r}]") for key in given if key in out]
    elif isinstance(given, (tuple, list)) and type(out) is type(given):
        pairs = [(o, g, f"{where}[{i}]") for i, (o, g) in enumerate(zip(out, given))]
    else:
        return None
    for inner_out, inner_given, inner_where in pairs:
        if not isinstance(inner_given, minitorch.Tensor):
            found = _given_back(inner_out, inner_given, inner_where)
            if found:
                return found
    return None


def _holds_tensor(obj: Any) -> bool:
    import minitorch

    if isinstance(obj, minitorch.Tensor):
        return True
    if isinstance(obj, dict):
        return any(_holds_tensor(value) for value in obj.values())
    return isinstance(obj, (tuple, list)) and any(_holds_tensor(value) for value in obj)


class _Moved(dict):
    """What a case saw; shown as the batch ``to_device`` returned (the check's own record,
    with the expected batch in it, is not for the learner's eyes)."""

    def __repr__(self) -> str:
        return _show(self["out"])


def _show(obj: Any) -> str:
    """A batch, with each tensor shown by its values and its device."""
    import minitorch

    if isinstance(obj, minitorch.Tensor):
        values = format_value(obj.detach().cpu().numpy().tolist(), 60)
        return f"tensor({values}, device='{obj.device}')"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{key!r}: {_show(value)}" for key, value in obj.items()) + "}"
    if isinstance(obj, tuple):
        inner = ", ".join(_show(value) for value in obj)
        return f"({inner},)" if len(obj) == 1 else f"({inner})"
    if isinstance(obj, list):
        return "[" + ", ".join(_show(value) for value in obj) + "]"
    return format_value(obj, 80)


def _call(to_device: Callable, batch: Any, device: Any) -> Any:
    """``to_device(batch, device)``, with the usual errors explained."""
    try:
        return to_device(batch, device)
    except RecursionError as error:
        raise WrongAnswer(
            f"RecursionError ({learner_line(error)}): a string is a sequence of strings (each "
            "character is a string of length 1, itself a sequence...), so treating every "
            "sequence as a container never ends. Handle tensors, dicts, tuples and lists, and "
            "give everything else back as it is.") from None
    except AttributeError as error:
        text = str(error)
        for kind in ("dict", "tuple", "list", "str", "int", "NoneType"):
            if f"'{kind}' object has no attribute 'to'" in text:
                article = "An" if kind == "int" else "A"
                what = ("is a container: build a new one from its moved parts."
                        if kind in ("dict", "tuple", "list") else
                        "is not a tensor: give it back unchanged.")
                raise WrongAnswer(
                    f"AttributeError: {text} ({learner_line(error)}): only tensors have "
                    f"`.to()`. {article} {kind} {what}") from None
        raise
    except RuntimeError as error:
        if "cuda" in str(error).lower() and "cuda" not in str(device):
            raise WrongAnswer(
                f"Your code asked for 'cuda' ({learner_line(error)}), but the device to move "
                f"to is {device!r}: use the `device` argument, so the same code runs on any "
                "machine.") from None
        raise


def check_to_device(to_device: Callable[[Any, Any], Any]) -> bool:
    """Check ``to_device(batch, device)``: every tensor inside ``batch`` moved to ``device``.

    ``batch`` may be a tensor, or tuples, lists and dicts nested in any way; the result has the
    same structure (a tuple stays a tuple), with each tensor replaced by ``tensor.to(device)``
    and everything else (numbers, strings, ``None``) unchanged. The moved tensors stay in the
    graph, so gradients flow back to the originals. ``device`` may be a string or a
    ``minitorch.device``. The checks use the GPU where there is one, the pretend GPU otherwise.

    Example:
        >>> import minitorch
        >>> def to_device(batch, device):
        ...     if isinstance(batch, minitorch.Tensor):
        ...         return batch.to(device)
        ...     if isinstance(batch, dict):
        ...         return {k: to_device(v, device) for k, v in batch.items()}
        ...     if isinstance(batch, (tuple, list)):
        ...         return type(batch)(to_device(v, device) for v in batch)
        ...     return batch
        >>> check_to_device(to_device)
        ✓ to_device: all 7 cases passed.
        True
    """
    import minitorch

    gpu = second_device()
    name = str(gpu)

    def t(*values):
        return minitorch.tensor(list(values))

    def expect(batch, device):
        """What a right answer gives: the batch described with every tensor on device."""
        where = str(minitorch.ones(1).to(device).device)  # "sim" -> "sim:0"

        def moved(obj):
            if isinstance(obj, minitorch.Tensor):
                return ("tensor", where, obj.detach().cpu().numpy().tolist(), obj.requires_grad,
                        str(obj.dtype))
            if isinstance(obj, dict):
                return {key: moved(value) for key, value in obj.items()}
            if isinstance(obj, (tuple, list)):
                return type(obj)(moved(value) for value in obj)
            return obj

        return moved(batch)

    def case(title, make_batch, device, extra=None):
        def run():
            batch = make_batch()
            before, original = _describe(batch), copy.copy(batch)
            out = _call(to_device, batch, device)
            return _Moved({"out": out, "given": batch, "before": before,
                           "after": _describe(batch),
                           "want": expect(original, device),
                           "extra": extra(original, out) if extra else None})

        return Case(title, run, None, compare=compare, expected_repr=f"the same batch with every "
                    f"tensor on {minitorch.device(device)}")

    def compare(got: Any, _expected: Any) -> bool:
        assert got["out"] is not None or got["want"] is None, (
            "`to_device` returned None: did you forget a `return`? (It must return the moved "
            "batch.)")
        assert got["after"] == got["before"], (
            "The batch you were given changed: build a new container, and leave the old one "
            "and its tensors as they were.")
        problem = (_given_back(got["out"], got["given"])
                   or _first_difference(_describe(got["out"]), got["want"], given=got["before"]))
        assert problem is None, problem
        if got["extra"] is not None:
            assert got["extra"] is True, got["extra"]
        return True

    def grad_flows_back(batch, out):
        try:
            out["w"].sum().backward()
        except Exception:
            return True
        if batch["w"].grad is None:
            return ("No gradient reached the original tensor: move it with `t.to(device)`, "
                    "which records a copy in the graph (`ToCopyBackward0`); `detach()` or "
                    "`minitorch.tensor(t.numpy())` cut it off.")
        if batch["w"].grad.device != minitorch.device("cpu"):
            return "The gradient should come home to the original tensor's device, the CPU."
        return True

    def sample():
        return {"image": t(0.0, 0.5, 1.0), "label": t(2), "index": 7, "name": "seven"}

    cases = [
        case(f"one tensor, to {name!r}", lambda: t(1.0, 2.0, 3.0), name),
        case("a tuple (inputs, targets)", lambda: (t(1.0, 2.0), t(0, 1)), name),
        case("a list of three tensors", lambda: [t(1.0), t(2.0), t(3.0)], gpu),
        case("a dict with tensors and other values (an int, a string)", sample, name),
        case("nested: a dict holding a tuple that holds a list", lambda: {
            "inputs": (t(1.0, 2.0), [t(3.0), None]), "meta": {"id": 3, "tags": ("a", "b")}},
            name),
        case("a tensor that requires grad: the gradient flows back through the move",
             lambda: {"w": minitorch.tensor([1.0, -1.0], requires_grad=True)}, name,
             extra=grad_flows_back),
        case("back to the CPU (the first tensor is there already)",
             lambda: (t(1.0, 2.0), {"y": t(3.0).to(gpu)}), "cpu"),
    ]
    return run_check(
        "to_device", cases,
        hint=(
            "Moving a batch means moving every tensor in it, however deeply nested, and keeping "
            "the structure."
        ),
        more_help=[
            "Which kinds of `batch` can arrive? Tensors, dicts, tuples and lists, and anything "
            "else.",
            "For containers, build a new container of the same kind from the moved parts: the "
            "function can call itself.",
            "Things that are not tensors (ints, strings) pass through unchanged.",
        ],
    )

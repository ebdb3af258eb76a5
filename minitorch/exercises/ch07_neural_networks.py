"""Chapter 07 (Neural networks): the checks of its code exercises.

======================  ===============================================================
check                   the learner writes
======================  ===============================================================
check_sgd_step          ``sgd_step(params, lr)``: the update rule
                        ``weight = weight - learning_rate * gradient`` for every
                        parameter, in place and under ``no_grad``, then clear ``.grad``
check_line              ``class Line(nn.Module)``: two scalar ``nn.Parameter`` s ``w`` and
                        ``b`` (starting at 0) and ``forward(x) = w * x + b``
check_my_linear         ``class MyLinear(nn.Module)``: ``weight`` (out, in) and ``bias``
                        (out,) as parameters, initialised as PyTorch does, and
                        ``forward(x) = x @ weight.T + bias``
======================  ===============================================================

Like every check, these never raise: they show ✓, ✗ (with what was wrong) or ⏳ (the learner's
code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> import minitorch
    >>> def sgd_step(params, lr):
    ...     with minitorch.no_grad():
    ...         for p in params:
    ...             if p.grad is not None:
    ...                 p -= lr * p.grad
    ...                 p.grad.zero_()
    >>> check_sgd_step(sgd_step)  # doctest: +ELLIPSIS
    ✓ sgd_step: all ... cases passed.
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import Seen
from ._common import format_value, safe_str, to_numpy
from .runner import Case, Shortcut, WrongAnswer, learner_line, run_check

__all__ = ["check_line", "check_my_linear", "check_sgd_step"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_sgd_step": "sgd_step",
    "check_line": "Line",
    "check_my_linear": "MyLinear",
}


# ------------------------------------------------------------------ shared helpers
class _Explained:
    """What a case returns when the learner's code raised a well-known error: the error and
    what it means, so the comparison can explain it instead of showing a bare message."""

    def __init__(self, error: BaseException, why: str) -> None:
        self.error, self.why = error, why

    def __repr__(self) -> str:
        return f"{type(self.error).__name__}: {safe_str(self.error)}"


def _run(fn: Callable[[], Any], known: dict[str, str]) -> Callable[[], Any]:
    """``fn`` with the grad mode restored afterwards, and known errors turned into data.

    ``known`` maps a piece of an error message to the explanation a learner needs.
    """
    from minitorch.autograd import grad_mode

    def run() -> Any:
        before = grad_mode._state.enabled
        try:
            return fn()
        except NotImplementedError:  # "not done yet", reported by the runner
            raise
        except Exception as error:
            for fragment, why in known.items():
                if fragment in safe_str(error):
                    return _Explained(error, why)
            raise
        finally:
            grad_mode._state.enabled = before

    return run


def _explaining(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """A comparison that first reports a known error with its explanation."""

    def wrapped(got: Any, expected: Any) -> bool:
        if isinstance(got, _Explained):
            raise AssertionError(got.why)
        return compare(got, expected)

    return wrapped


def _array(t: Any) -> np.ndarray:
    a = to_numpy(t)
    if a is None:
        raise AssertionError(f"expected a tensor, got {format_value(t)}")
    return a


_SUPER_INIT = (
    "`cannot assign ... before Module.__init__() call`: the first line of your `__init__` "
    "must be `super().__init__()`. It creates the registries (`_parameters`, `_modules`) "
    "that every later `self.name = nn.Parameter(...)` is filed into."
)


_MODULE_ERRORS = {"before Module.__init__() call": _SUPER_INIT}


# ------------------------------------------------------------------ sgd_step
def _problem():
    """Three parameters (one unused), a loss of the used ones, and their gradient."""
    import minitorch

    w = minitorch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    b = minitorch.tensor(0.3, requires_grad=True)
    unused = minitorch.tensor([4.0, 5.0], requires_grad=True)
    x = minitorch.tensor([2.0, 1.0, -1.0])

    def loss():
        return ((w * x).sum() + b - 1.0) ** 2

    return w, b, unused, loss


def _call_sgd(sgd_step: Callable, params: list, lr: float) -> None:
    """``sgd_step(params, lr)``, with the usual errors explained from what the call saw."""
    had_none = [p.grad is None for p in params]
    try:
        sgd_step(params, lr)
    except NotImplementedError:
        raise
    except Exception as error:
        text = safe_str(error)
        where = learner_line(error)
        if "in-place operation" in text:
            raise WrongAnswer(
                f"{type(error).__name__}: {text} ({where}). Autograd refuses to change, in "
                "place, a leaf that requires grad while it is recording: the update itself "
                "would become part of the graph. Do the update inside `with "
                "torch.no_grad():`.") from None
        if "NoneType" in text and any(had_none):
            raise WrongAnswer(
                f"{type(error).__name__}: {text} ({where}). A parameter's `.grad` is None (it "
                "got no gradient: it is not used in the loss). Skip it, as "
                "`optimizer.step()` does.") from None
        if "NoneType" in text:
            raise WrongAnswer(
                f"{type(error).__name__}: {text} ({where}). Every parameter here has a "
                "gradient, so this None is the `.grad` of a *new* tensor: `p = p - lr * "
                "p.grad` makes a new tensor (with no gradient) and binds the loop variable "
                "`p` to it; the parameter in `params` is not changed. Change the parameter "
                "itself, in place.") from None
        raise


def check_sgd_step(sgd_step: Callable[[list, float], Any]) -> bool:
    """Check ``sgd_step(params, lr)``: one step of gradient descent on every parameter.

    For each ``p`` in ``params`` whose ``.grad`` is not ``None``: ``p`` becomes
    ``p - lr * p.grad`` **in place** (the tensor in ``params`` must change; rebinding a loop
    variable does not), under ``no_grad`` (otherwise autograd refuses to change a leaf that
    requires grad), and afterwards ``p.grad`` is cleared (zeros or ``None``). Parameters
    without a gradient are skipped, as ``optimizer.step()`` does. The learning rate is the one
    given (two values are tried); ``torch.optim.SGD`` is refused.

    Example:
        >>> import minitorch
        >>> def sgd_step(params, lr):
        ...     for p in params:
        ...         p -= lr * p.grad            # forgot no_grad
        >>> check_sgd_step(sgd_step)  # doctest: +ELLIPSIS
        ✗ sgd_step: wrong result for `one step with lr=0.1: w and b become p - lr * p.grad`.
        ...
        False
    """
    import minitorch
    from minitorch.autograd import grad_mode

    known = {
        "does not require grad and does not have a grad_fn": (
            "After your step a parameter no longer requires grad, so the next `backward()` "
            "has nothing to reach. Under `no_grad`, `p = p - lr * p.grad` makes a *new* "
            "tensor without `requires_grad`; change the parameter itself, in place."),
    }

    def one_step(lr):
        def run():
            w, b, _, loss = _problem()
            loss().backward()
            grads = {"w": _array(w.grad).copy(), "b": _array(b.grad).copy()}
            _call_sgd(sgd_step, [w, b], lr)
            return Seen({"w": _array(w).copy(), "b": _array(b).copy(),
                         "_cleared": {name: p.grad is None or bool(np.all(_array(p.grad) == 0))
                                      for name, p in (("w", w), ("b", b))},
                         "_grads": grads})
        return run

    def before_and_grads():
        w, b, _, loss = _problem()
        loss().backward()
        return ({"w": _array(w).copy(), "b": _array(b).copy()},
                {"w": _array(w.grad).copy(), "b": _array(b.grad).copy()})

    before, grads = before_and_grads()

    def compare_step(lr):
        expected_step = {name: before[name] - lr * grads[name] for name in before}

        def compare(got: Any, expected: Any) -> bool:
            for name in ("w", "b"):
                now = got[name]
                if np.allclose(now, expected_step[name], atol=1e-6):
                    continue
                before_, grad = before[name], grads[name]
                if np.array_equal(now, before_):
                    if got["_cleared"][name]:
                        raise AssertionError(
                            f"`{name}` did not change, and its `.grad` is cleared: the "
                            "gradient was cleared *before* the update used it. Update first, "
                            "then clear.")
                    raise AssertionError(
                        f"`{name}` did not change, though its `.grad` is still there: the new "
                        "value never reached the tensor in `params`. `p = p - lr * p.grad` "
                        "makes a new tensor and binds the loop variable `p` to it; the "
                        "parameter stays as it was. Change it in place.")
                if np.allclose(now, before_ + lr * grad, atol=1e-6):
                    raise AssertionError(
                        f"`{name}` moved *up* the gradient (`p + lr * grad`): that climbs the "
                        "loss. Gradient descent steps against it: `p - lr * grad`.")
                for other in (0.1, 0.01, 0.001, 1.0):
                    if other != lr and np.allclose(now, before_ - other * grad, atol=1e-6):
                        raise AssertionError(
                            f"`{name}` took a step with the learning rate {other}, not the "
                            f"lr={lr} it was given: use the argument `lr`.")
                raise AssertionError(
                    f"`{name}` should be {format_value(expected_step[name])} (p - lr * p.grad), "
                    f"got {format_value(now)}.")
            return True

        return compare, expected_step

    def cleared():
        w, b, _, loss = _problem()
        loss().backward()
        _call_sgd(sgd_step, [w, b], 0.1)
        return Seen({"w.grad": w.grad, "b.grad": b.grad, **{
            f"_{name}": p.grad is None or bool(np.all(_array(p.grad) == 0))
            for name, p in (("w", w), ("b", b))}})

    def compare_cleared(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            assert got[f"_{name}"], (
                f"`{name}.grad` still holds the gradient after the step. Clear it; otherwise "
                "the next backward *adds* to it and every later step uses the sum of all past "
                "gradients (chapter 06).")
        return True

    def still_trainable():
        w, b, _, loss = _problem()
        loss().backward()
        _call_sgd(sgd_step, [w, b], 0.1)
        return Seen({f"{name}.{field}": getattr(p, field) for name, p in (("w", w), ("b", b))
                     for field in ("requires_grad", "is_leaf")}
                    | {"grad mode on": grad_mode._state.enabled})

    def compare_trainable(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            requires_grad, is_leaf = got[f"{name}.requires_grad"], got[f"{name}.is_leaf"]
            assert requires_grad and is_leaf, (
                f"After the step `{name}` is not a leaf that requires grad any more: change "
                "the values in place under `no_grad` and leave `requires_grad` alone.")
        assert got["grad mode on"], (
            "Recording is still switched off after `sgd_step`: use `with torch.no_grad():` "
            "(which switches it back on when the block ends) rather than "
            "`torch.set_grad_enabled(False)` on its own.")
        return True

    def skips_unused():
        w, b, unused, loss = _problem()
        loss().backward()  # `unused` is not in the loss: its .grad stays None
        w_before, b_before = _array(w).copy(), _array(b).copy()
        _call_sgd(sgd_step, [w, unused, b], 0.1)  # the one without a gradient in the middle
        return Seen({"unused": _array(unused).tolist(),
                     "w and b": "updated" if not np.array_equal(_array(b), b_before)
                     else "w updated, b not" if not np.array_equal(_array(w), w_before)
                     else "neither updated"})

    def compare_unused(got: Any, expected: Any) -> bool:
        assert got["unused"] == expected["unused"], (
            f"A parameter without a gradient changed: {got['unused']}. Leave it alone.")
        assert got["w and b"] != "w updated, b not", (
            "`w` was updated but `b` was not: in `[w, unused, b]` the parameter before `b` "
            "has no gradient (`.grad` is None), and your loop stopped there. Skip such a "
            "parameter (`continue`) and go on with the rest.")
        return got["w and b"] == expected["w and b"]

    def second_step():
        w, b, _, loss = _problem()
        loss().backward()
        _call_sgd(sgd_step, [w, b], 0.1)
        loss().backward()
        grad = _array(w.grad).copy()
        _call_sgd(sgd_step, [w, b], 0.1)
        return {"grad": grad, "w": _array(w).copy()}

    def expected_second():
        w, b, _, loss = _problem()
        for _ in range(2):
            if w.grad is not None:
                w.grad = None
                b.grad = None
            loss().backward()
            with minitorch.no_grad():
                w -= 0.1 * w.grad
                b -= 0.1 * b.grad
        return _array(w).copy()

    def compare_second(got: Any, expected: Any) -> bool:
        assert np.allclose(got["w"], expected, atol=1e-5), (
            f"After two steps `w` should be {format_value(expected)}, got "
            f"{format_value(got['w'])}. Is the second gradient a fresh one (cleared after the "
            "first step) and does the parameter still require grad?")
        return True

    def fits_a_line():
        torch = minitorch
        x = torch.linspace(-1, 1, 20)
        y = 2 * x + 1
        w = torch.tensor(0.0, requires_grad=True)
        b = torch.tensor(0.0, requires_grad=True)
        for _ in range(200):
            loss = ((w * x + b - y) ** 2).mean()
            loss.backward()
            _call_sgd(sgd_step, [w, b], 0.1)
        return {"w": round(w.item(), 3), "b": round(b.item(), 3)}

    def step_case(lr):
        compare, expected_step = compare_step(lr)
        return Case(f"one step with lr={lr}: w and b become p - lr * p.grad",
                    _run(one_step(lr), known), expected_step, compare=_explaining(compare),
                    expected_repr=f"w and b: p - {lr} * p.grad")

    answer_key = Shortcut(
        "The exercise is to write the update yourself: `torch.optim.SGD` is the answer key "
        "(chapter 08 uses it).", objects={"torch.optim.SGD": minitorch.optim.SGD})
    cases = [
        step_case(0.1),
        Case("after the step, w.grad and b.grad are cleared", _run(cleared, known), None,
             compare=_explaining(compare_cleared), expected_repr="zeros (or None)"),
        Case("after the step, w and b are still leaves that require grad, and recording is on",
             _run(still_trainable, known), None, compare=_explaining(compare_trainable),
             expected_repr="requires_grad=True, is_leaf=True; grad mode on"),
        Case("params = [w, unused, b]: unused (not in the loss, .grad None) is skipped",
             _run(skips_unused, known), {"unused": [4.0, 5.0], "w and b": "updated"},
             compare=_explaining(compare_unused),
             expected_repr="unused: [4.0, 5.0] (unchanged), w and b: updated"),
        step_case(0.5),
        Case("a second forward, backward and step", _run(second_step, known),
             expected_second(), compare=_explaining(compare_second),
             expected_repr=format_value(expected_second())),
        Case("200 steps fit the line y = 2x + 1", _run(fits_a_line, known),
             {"w": 2.0, "b": 1.0}, compare=_explaining(lambda got, exp: got == exp)),
    ]
    return run_check(
        "sgd_step", cases,
        hint=(
            "One SGD step moves each parameter against its gradient, without recording the update"
            " in the graph."
        ),
        more_help=[
            "The update must not be tracked by autograd, and must change the parameter in place "
            "(the optimizer and the model share the same tensor).",
            "Parameters whose `.grad` is None were not used: leave them alone.",
            "Gradients accumulate: clear them once they have been used.",
        ],
        refuse=[answer_key],
    )


# ------------------------------------------------------------------ Line
def _is_module(obj: Any) -> bool:
    from minitorch import nn

    return isinstance(obj, nn.Module)


def _named(module: Any) -> dict:
    return dict(module.named_parameters())


class _Names(list):
    """Parameter names (shown as a list), with the reason when some are missing."""

    note: str | None = None


def _names(module: Any, expected: list[str]) -> _Names:
    names = _Names(_named(module))
    names.note = _registration_note(module, expected)
    return names


def _registration_note(module: Any, names: list[str]) -> str | None:
    """Why ``names`` are missing from ``module.parameters()``, if the reason is visible."""
    import minitorch
    from minitorch import nn

    for name in names:
        value = module.__dict__.get(name)
        if isinstance(value, minitorch.Tensor) and not isinstance(value, nn.Parameter):
            return (f"`self.{name}` is a plain tensor, so the module did not register it and "
                    "`parameters()` (and with it the optimizer) never sees it, even with "
                    f"`requires_grad=True`. Wrap it: `self.{name} = nn.Parameter(...)`.")
        if isinstance(type(module).__dict__.get(name), minitorch.Tensor):
            return (f"`{name}` is a class attribute (written in the class body), so it is not "
                    "registered, and every instance would share it: assign it in `__init__`, "
                    f"`self.{name} = nn.Parameter(...)`.")
    found = [getattr(module, name, None) for name in names]
    for i, first in enumerate(found):
        for j in range(i + 1, len(found)):
            if first is not None and first is found[j]:
                return (f"`self.{names[i]}` and `self.{names[j]}` are one and the same "
                        "Parameter (`a = b = nn.Parameter(...)` makes one object with two "
                        "names), so the module registers it once. Make one Parameter each.")
    return None


def check_line(line_class: type) -> bool:
    """Check ``Line``, a tiny ``nn.Module``: ``w * x + b`` with two learnable scalars.

    ``Line()`` subclasses ``nn.Module``, calls ``super().__init__()``, and registers two
    parameters, ``self.w`` and ``self.b``: ``nn.Parameter`` s of shape ``()`` that start at
    ``0.0``. ``forward(x)`` returns ``self.w * x + self.b``. The last case trains it with
    ``torch.optim.SGD(line.parameters(), ...)``, which only works if the parameters are
    registered.

    Example:
        >>> import minitorch
        >>> from minitorch import nn
        >>> class Line(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = nn.Parameter(minitorch.tensor(0.0))
        ...         self.b = nn.Parameter(minitorch.tensor(0.0))
        ...     def forward(self, x):
        ...         return self.w * x + self.b
        >>> check_line(Line)
        ✓ Line: all 7 cases passed.
        True
    """
    import minitorch

    Line = line_class  # noqa: N806  (a class)

    def is_module():
        return _is_module(Line())

    def compare_module(got: Any, expected: Any) -> bool:
        assert got, "`Line()` is not an `nn.Module`: write `class Line(nn.Module):`."
        return True

    def names():
        return _names(Line(), ["w", "b"])

    def compare_names(got: Any, expected: Any) -> bool:
        if sorted(got) != expected:
            raise AssertionError(got.note or (
                f"Expected the parameters `b` and `w`, found {list(got)}: assign "
                "`self.w = nn.Parameter(...)` and `self.b = nn.Parameter(...)` in "
                "`__init__`."))
        return True

    def shapes_and_values():
        params = _named(Line())
        shared = any(p is q for p in Line().parameters() for q in Line().parameters())
        return Seen({name: (tuple(params[name].shape), float(_array(params[name]).sum()))
                     for name in sorted(params)} | {"_shared": shared})

    def compare_shapes(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            shape, value = got.get(name, (None, None))
            assert shape == (), (
                f"`{name}` has shape {shape}; a scalar has shape `()`, a 0-d tensor made from "
                "a number (`torch.zeros(1)` or a one-element list gives shape (1,)).")
            assert value == 0.0 or not got["_shared"], (
                f"`{name}` should start at 0.0, not {value}: every Line you make gets the same "
                "parameters, so a Line trained earlier (by an earlier run of this check, say) "
                "left its values in them. Two Lines must not share their parameters: make new "
                "`nn.Parameter`s in `__init__`, for each instance (not one made once, outside "
                "the class or in its body).")
            assert value == 0.0, f"`{name}` should start at 0.0, not {value}."
        return True

    def forward_values():
        line = Line()
        with minitorch.no_grad():
            line.w.fill_(2.0)
            line.b.fill_(1.0)
        return line(minitorch.tensor([0.0, 1.0, 2.0]))

    def compare_forward(got: Any, expected: Any) -> bool:
        array = _array(got)
        if np.allclose(array, expected):
            return True
        x = np.array([0.0, 1.0, 2.0])
        for value, why in ((2 * x, "The bias is missing: `forward` returns w * x."),
                           (1 * x + 2, "w and b are swapped: `forward` returns b * x + w."),
                           (x + 2 + 1, "`forward` returns x + w + b: the weight multiplies "
                            "x, it is not added.")):
            if array.shape == value.shape and np.allclose(array, value):
                raise AssertionError(why + " It should be `self.w * x + self.b`.")
        raise AssertionError("`forward(x)` should return `self.w * x + self.b`.")

    def backward_grads():
        line = Line()
        with minitorch.no_grad():
            line.w.fill_(2.0)
            line.b.fill_(1.0)
        frozen = [name for name in ("w", "b") if not getattr(line, name).requires_grad]
        if frozen:
            raise WrongAnswer(
                f"`{frozen[0]}` does not require grad, so it never gets a gradient and an "
                "optimizer never moves it: leave `requires_grad` at its default, True, for a "
                "Parameter.")
        out = line(minitorch.tensor([0.0, 1.0, 2.0])).sum()
        if out.grad_fn is None:
            raise WrongAnswer(
                "The output has no `grad_fn`: nothing was recorded. Compute it from `self.w` "
                "and `self.b` themselves (parameters, which require grad), not from their "
                "values taken out (`.item()`, `.data`, `.detach()`).")
        out.backward()
        return {"w.grad": line.w.grad, "b.grad": line.b.grad}

    def independent():
        first, second = Line(), Line()
        with minitorch.no_grad():
            for p in first.parameters():
                p.add_(1.0)
        return {name: float(_array(p).sum()) for name, p in second.named_parameters()}

    def compare_independent(got: Any, expected: Any) -> bool:
        assert got == expected, (
            "Changing one Line's parameters changed another Line's: the two share their "
            "parameters. Make new `nn.Parameter`s in `__init__`, for each instance (not one "
            "made once, outside the class or in its body).")
        return True

    def trains():
        torch = minitorch
        torch.manual_seed(0)
        line = Line()
        x = torch.linspace(-1, 1, 20)
        y = 2 * x + 1
        optimizer = torch.optim.SGD(line.parameters(), lr=0.1)
        for _ in range(200):
            optimizer.zero_grad()
            loss = ((line(x) - y) ** 2).mean()
            loss.backward()
            optimizer.step()
        frozen = sorted(name for name, p in line.named_parameters() if not p.requires_grad)
        return Seen({"w": round(line.w.item(), 3), "b": round(line.b.item(), 3),
                     "_frozen": frozen})

    def compare_trains(got: Any, expected: Any) -> bool:
        assert not got["_frozen"], (
            f"`{got['_frozen'][0]}` does not require grad, so it never gets a gradient and "
            "SGD never moves it: leave `requires_grad` at its default, True, for a "
            "Parameter.")
        assert {k: v for k, v in got.items() if not k.startswith("_")} == expected, (
            f"After 200 steps w = {got['w']} and b = {got['b']}: the fit did not reach "
            "w = 2, b = 1.")
        return True

    errors = dict(_MODULE_ERRORS)
    cases = [
        Case("Line() is an nn.Module", _run(is_module, errors), True,
             compare=_explaining(compare_module)),
        Case("the names in line.named_parameters()", _run(names, errors), ["b", "w"],
             compare=_explaining(compare_names)),
        Case("w and b are scalars (shape ()) that start at 0.0",
             _run(shapes_and_values, errors), {"b": ((), 0.0), "w": ((), 0.0)},
             compare=_explaining(compare_shapes)),
        Case("line(tensor([0., 1., 2.])) with w = 2, b = 1", _run(forward_values, errors),
             np.array([1.0, 3.0, 5.0], dtype=np.float32), compare=_explaining(compare_forward)),
        Case("line(x).sum().backward() at x = [0, 1, 2]: the gradients",
             _run(backward_grads, errors), {"w.grad": 3.0, "b.grad": 3.0},
             compare=_explaining(lambda got, exp: all(
                 got[k] is not None and np.allclose(_array(got[k]), v)
                 for k, v in exp.items())),
             expected_repr="{'w.grad': tensor(3.), 'b.grad': tensor(3.)}  (sum of x; count)"),
        Case("two Lines have parameters of their own", _run(independent, errors),
             {"b": 0.0, "w": 0.0}, compare=_explaining(compare_independent),
             expected_repr="the second Line still at w = 0, b = 0"),
        Case("200 steps of SGD(line.parameters(), lr=0.1) on y = 2x + 1", _run(trains, errors),
             {"w": 2.0, "b": 1.0}, compare=_explaining(compare_trains)),
    ]
    return run_check(
        "Line", cases,
        hint=(
            "An `nn.Module` registers the `nn.Parameter`s assigned as attributes, once "
            "`super().__init__()` has run."
        ),
        more_help=[
            "Call the parent's `__init__` before assigning any attribute.",
            "Wrap each learnable tensor in `nn.Parameter` so `parameters()` finds it.",
            "`forward` only describes the computation; calling the module runs it.",
        ],
    )


# ------------------------------------------------------------------ MyLinear
def check_my_linear(my_linear: type) -> bool:
    """Check ``MyLinear(in_features, out_features)``, a fully connected layer like ``nn.Linear``.

    It subclasses ``nn.Module`` and registers ``self.weight``, an ``nn.Parameter`` of shape
    ``(out_features, in_features)``, then ``self.bias`` of shape ``(out_features,)``, both
    drawn uniformly from ``[-k, k]`` with ``k = 1 / sqrt(in_features)`` (PyTorch's default).
    ``forward(x)`` returns ``x @ self.weight.T + self.bias`` for a single sample ``(in,)`` or
    a batch ``(N, in)``. The values come from minitorch's generator (the same seed gives the
    same layer; ``__init__`` does not seed it); ``nn.Linear`` and ``F.linear`` are refused.

    Example:
        >>> import math, minitorch
        >>> from minitorch import nn
        >>> class MyLinear(nn.Module):
        ...     def __init__(self, in_features, out_features):
        ...         super().__init__()
        ...         k = 1 / math.sqrt(in_features)
        ...         w = minitorch.rand(out_features, in_features) * 2 * k - k
        ...         self.weight = nn.Parameter(w)
        ...         self.bias = nn.Parameter(minitorch.rand(out_features) * 2 * k - k)
        ...     def forward(self, x):
        ...         return x @ self.weight.T + self.bias
        >>> check_my_linear(MyLinear)
        ✓ MyLinear: all 10 cases passed.
        True
    """
    import minitorch
    from minitorch import nn

    MyLinear = my_linear  # noqa: N806  (a class)

    def is_module():
        return _is_module(MyLinear(4, 3))

    def compare_module(got: Any, expected: Any) -> bool:
        assert got, "`MyLinear(4, 3)` is not an `nn.Module`: write `class MyLinear(nn.Module):`."
        return True

    def names():
        return _names(MyLinear(4, 3), ["weight", "bias"])

    def compare_names(got: Any, expected: Any) -> bool:
        if sorted(got) != sorted(expected):
            raise AssertionError(got.note or (
                f"Expected the parameters {expected}, found {list(got)}: assign "
                "`self.weight = nn.Parameter(...)` and `self.bias = nn.Parameter(...)`."))
        assert list(got) == expected, (
            "Register `weight` before `bias` (as `nn.Linear` does), so that `params[0]` is "
            "the weight.")
        return True

    def shapes(n_in, n_out):
        def run():
            params = _named(MyLinear(n_in, n_out))
            return {name: tuple(p.shape) for name, p in params.items()}
        return run

    def compare_shapes(got: Any, expected: Any) -> bool:
        weight = got.get("weight")
        if weight is not None and weight == expected["weight"][::-1] and weight[0] != weight[1]:
            raise AssertionError(
                f"`weight` has shape {weight}, i.e. (in_features, out_features). PyTorch "
                f"stores it as (out_features, in_features) = {expected['weight']}: each row "
                "holds the weights of one output. `forward` then computes "
                "`x @ self.weight.T + self.bias`.")
        assert got == expected, (
            f"Expected the shapes {expected}, got {got}. Use the arguments: "
            "(out_features, in_features) and (out_features,).")
        return True

    def init_values():
        minitorch.manual_seed(0)
        params = _named(MyLinear(16, 8))
        weight, bias = _array(params["weight"]), _array(params["bias"])
        return Seen({
            "weight": f"in [{weight.min():.3f}, {weight.max():.3f}], std {weight.std():.3f}",
            "bias": f"in [{bias.min():.3f}, {bias.max():.3f}]",
            "_weight": (float(weight.min()), float(weight.max()), float(weight.std())),
            "_bias": (float(bias.min()), float(bias.max()))})

    def compare_init(got: Any, expected: Any) -> bool:
        k = 1 / math.sqrt(16)
        low, high, spread = got["_weight"]
        assert spread > 0, (
            "All the weights are equal. Then every output unit computes the same thing, gets "
            "the same gradient and stays equal to the others forever; random initial values "
            "break that symmetry.")
        if not (-k <= low and high <= k):
            if -1 / math.sqrt(8) <= low and high <= 1 / math.sqrt(8):
                raise AssertionError(
                    f"For MyLinear(16, 8) the weights lie in [{low:.3f}, {high:.3f}], beyond "
                    f"k = 1/sqrt(in_features) = {k} but within 1/sqrt(out_features): k comes "
                    "from the number of *inputs* (16 here).")
            raise AssertionError(
                f"For MyLinear(16, 8) the weights lie in [{low:.3f}, {high:.3f}]; PyTorch draws "
                f"them uniformly from [-k, k] with k = 1/sqrt(in_features) = {k}.")
        assert low < -k / 2 and high > k / 2 or high <= k / 4 or low < 0, (
            f"All the weights of MyLinear(16, 8) lie in [{low:.3f}, {high:.3f}], on one side "
            "of 0: `torch.rand` draws from [0, 1), so scale *and shift* it to [-k, k].")
        assert low < -k / 2 and high > k / 2 or high <= k / 4, (
            f"The weights of MyLinear(16, 8) lie in [{low:.3f}, {high:.3f}], about half of "
            f"[-k, k] with k = 1/sqrt(in_features) = {k}: `torch.rand` draws from [0, 1), "
            "so `(torch.rand(...) - 0.5) * k` spans only [-k/2, k/2]. Scale the draw by 2k "
            "before shifting it by k.")
        assert high > k / 4, (
            f"The weights of MyLinear(16, 8) lie in [{low:.3f}, {high:.3f}], far inside "
            f"[-k, k] with k = 1/sqrt(in_features) = {k}: is k 1/in_features, without the "
            "square root?" if high <= 1 / 16 + 1e-6 else
            f"The weights of MyLinear(16, 8) hardly vary (std {spread:.4f}): draw them from "
            f"the whole range [-k, k], k = {k}.")
        low, high = got["_bias"]
        assert -k <= low and high <= k, (
            f"The bias lies in [{low:.3f}, {high:.3f}]; draw it from [-k, k] too (or start "
            "it at zero).")
        return True

    def seeded():
        minitorch.manual_seed(5)
        first = _array(_named(MyLinear(3, 2))["weight"]).copy()
        second_layer = _array(_named(MyLinear(3, 2))["weight"]).copy()
        third_layer = _array(_named(MyLinear(3, 2))["weight"]).copy()
        minitorch.manual_seed(5)
        again = _array(_named(MyLinear(3, 2))["weight"]).copy()
        same = bool(np.array_equal(first, again))
        differ = not (np.array_equal(first, second_layer)
                      or np.array_equal(second_layer, third_layer))
        after = []  # the global stream after a layer is made, for the seeds 6, 6 and 7
        for seed in (6, 6, 7):
            minitorch.manual_seed(seed)
            MyLinear(3, 2)
            after.append(_array(minitorch.rand(4)).copy())
        moves_on = np.array_equal(after[0], after[1]) and not np.array_equal(after[0], after[2])
        return Seen({"the same seed, the same weights": same,
                     "three layers in a row, different weights": differ,
                     "after a layer, the stream follows the caller's seed": moves_on,
                     "_same seed, same weights": same, "_two layers differ": differ,
                     "_stream moves on": moves_on})

    def compare_seeded(got: Any, expected: Any) -> bool:
        assert got["_two layers differ"], (
            "Two of three MyLinear(3, 2) made one after the other have the same weights: does "
            "`__init__` seed the generator itself (`manual_seed` inside it)? Then every layer "
            "starts alike. Seeding is the caller's business.")
        assert got["_stream moves on"], (
            "After MyLinear(3, 2), the global random stream no longer follows the caller's "
            "seed (`torch.manual_seed(6)`, a layer, then `torch.rand(4)` does not give the "
            "same draw every time, and a different one for seed 7): `__init__` re-seeds the "
            "generator (`manual_seed` inside it), so nothing drawn after a layer is made "
            "(the next layers, a shuffle) is reproducible. Seeding is the caller's business.")
        assert got["_same seed, same weights"], (
            "After `torch.manual_seed(5)`, MyLinear(3, 2) does not get the same weights twice: "
            "draw them with minitorch's generator (`torch.rand`), which `manual_seed` seeds, "
            "not with NumPy's or Python's `random`.")
        return True

    def set_params(layer, weight, bias):
        with minitorch.no_grad():
            layer.weight.copy_(minitorch.tensor(weight))
            layer.bias.copy_(minitorch.tensor(bias))

    weight = [[1.0, 0.0, -1.0, 2.0], [0.5, 0.5, 0.5, 0.5], [0.0, 1.0, 0.0, -1.0]]
    bias = [0.1, -0.2, 0.3]
    x = [[1.0, 2.0, 3.0, 4.0], [0.0, -1.0, 1.0, 2.0]]
    expected_out = np.array(x, dtype=np.float32) @ np.array(weight, dtype=np.float32).T \
        + np.array(bias, dtype=np.float32)

    def forward_batch():
        layer = MyLinear(4, 3)
        set_params(layer, weight, bias)
        return layer(minitorch.tensor(x))

    def forward_one():
        layer = MyLinear(4, 3)
        set_params(layer, weight, bias)
        return layer(minitorch.tensor(x[0]))

    def compare_out(got: Any, expected: Any) -> bool:
        array = _array(got)
        assert array.shape == expected.shape, (
            f"The output has shape {array.shape}, expected {expected.shape}: "
            "`x @ self.weight.T + self.bias`.")
        if np.allclose(array, expected, atol=1e-5):
            return True
        xs = np.array(x, dtype=np.float32)[: 1 if expected.ndim == 1 else None]
        no_bias = (xs @ np.array(weight, dtype=np.float32).T).reshape(expected.shape)
        assert not np.allclose(array, no_bias, atol=1e-5), (
            "The bias is missing: `forward(x)` should return `x @ self.weight.T + self.bias`.")
        raise AssertionError("`forward(x)` should return `x @ self.weight.T + self.bias`.")

    def grads():
        layer = MyLinear(4, 3)
        set_params(layer, weight, bias)
        out = layer(minitorch.tensor(x))
        if out.grad_fn is None:
            raise WrongAnswer(
                "The output has no `grad_fn`: nothing was recorded. Compute it from the "
                "parameters (`self.weight`, `self.bias`), which require grad.")
        out.sum().backward()
        return {"weight.grad": layer.weight.grad, "bias.grad": layer.bias.grad}

    expected_grads = {"weight.grad": np.tile(np.array(x, dtype=np.float32).sum(0), (3, 1)),
                      "bias.grad": np.array([2.0, 2.0, 2.0], dtype=np.float32)}

    def compare_grads(got: Any, expected: Any) -> bool:
        for name, want in expected.items():
            assert got[name] is not None, f"`{name}` is None: the parameter got no gradient."
            assert np.allclose(_array(got[name]), want), (
                f"`{name}` should be {format_value(want)}, got {format_value(_array(got[name]))}.")
        return True

    def in_a_network():
        net = nn.Sequential(MyLinear(2, 8), nn.ReLU(), MyLinear(8, 1))
        params = list(net.parameters())
        return {"len(params)": len(params), "params[0].size()": tuple(params[0].size()),
                "output": tuple(net(minitorch.ones(5, 2)).shape)}

    errors = dict(_MODULE_ERRORS)
    errors["cannot be multiplied"] = (
        "The shapes do not fit the matrix product. `x` is (N, in_features) and `weight` is "
        "(out_features, in_features), so multiply by its transpose: "
        "`x @ self.weight.T + self.bias`.")
    cases = [
        Case("MyLinear(4, 3) is an nn.Module", _run(is_module, errors), True,
             compare=_explaining(compare_module)),
        Case("the names in MyLinear(4, 3).named_parameters()", _run(names, errors),
             ["weight", "bias"], compare=_explaining(compare_names)),
        Case("the shapes of MyLinear(4, 3)'s parameters", _run(shapes(4, 3), errors),
             {"weight": (3, 4), "bias": (3,)}, compare=_explaining(compare_shapes)),
        Case("the shapes of MyLinear(2, 5)'s parameters", _run(shapes(2, 5), errors),
             {"weight": (5, 2), "bias": (5,)}, compare=_explaining(compare_shapes)),
        Case("the initial values of MyLinear(16, 8)", _run(init_values, errors), None,
             compare=_explaining(compare_init),
             expected_repr="random, in [-0.25, 0.25] (k = 1/sqrt(16))"),
        Case("drawn from the generator that manual_seed seeds: the same seed, the same "
             "weights; layers in a row, different ones; the stream not re-seeded",
             _run(seeded, errors), None,
             compare=_explaining(compare_seeded),
             expected_repr="reproducible with torch.manual_seed, different per layer"),
        Case("a batch of two samples (2, 4) -> (2, 3), with known weight and bias",
             _run(forward_batch, errors), expected_out, compare=_explaining(compare_out)),
        Case("out.sum().backward(): weight.grad and bias.grad",
             _run(grads, errors), expected_grads, compare=_explaining(compare_grads)),
        Case("nn.Sequential(MyLinear(2, 8), nn.ReLU(), MyLinear(8, 1))",
             _run(in_a_network, errors),
             {"len(params)": 4, "params[0].size()": (8, 2), "output": (5, 1)},
             compare=_explaining(lambda got, exp: got == exp)),
    ]
    # One sample (in,) -> (out,) also works with `x @ W.T + b`; it is checked last, so the
    # batch case explains the formula first.
    cases.append(Case("a single sample (4,) -> (3,)", _run(forward_one, errors),
                      expected_out[0], compare=_explaining(compare_out)))
    answer_key = Shortcut(
        "The exercise is to write the layer yourself: `nn.Linear` and `F.linear` are the "
        "answer key.", objects={"nn.Linear": nn.Linear,
                                "F.linear": minitorch.nn.functional.linear})
    return run_check(
        "MyLinear", cases,
        hint=(
            "A linear layer holds a weight of shape (out, in) and a bias of shape (out,), "
            "initialised like `nn.Linear`."
        ),
        more_help=[
            "Both must be `nn.Parameter`s, registered after `super().__init__()`.",
            "`nn.Linear` draws both uniformly from [-k, k] with k = 1 / sqrt(in_features).",
            "Check the shapes: the input has `in_features` columns, the output `out_features`.",
        ],
        refuse=[answer_key],
    )

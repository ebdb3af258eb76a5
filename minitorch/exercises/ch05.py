"""Checks for chapters 05 (Neural networks) and 06 (Training), run on real minitorch tensors.

Chapter 05 uses ``check_sgd_step``, ``check_line`` and ``check_my_linear``; chapter 06 the
two convolution checks. (The module kept its name when the chapter was split in two.)

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
check_conv2d_by_hand    ``conv2d_by_hand(x, weight, bias)``: a ``Conv2d`` output for one
                        image (C, H, W), a sum over every patch, no padding, stride 1
check_unfold            ``unfold(x, kh, kw)``: the patches of one image as rows
                        (L, C * kh * kw), so that a ``Linear`` with the convolution's
                        weights computes the convolution
======================  ===============================================================

Like every check, these never raise and never leave recording switched off. The usual
mistakes get an explanation: an update outside ``no_grad``, ``p = p - lr * p.grad`` (which
changes nothing), a forgotten ``super().__init__()``, a plain tensor where an
``nn.Parameter`` belongs, a weight stored as (in, out).

Example:
    >>> import minitorch
    >>> def sgd_step(params, lr):
    ...     with minitorch.no_grad():
    ...         for p in params:
    ...             if p.grad is not None:
    ...                 p -= lr * p.grad
    ...                 p.grad.zero_()
    >>> check_sgd_step(sgd_step)
    ✓ sgd_step: all 6 cases passed.
    True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import format_value, safe_str, to_numpy
from .runner import Case, run_check

__all__ = ["check_conv2d_by_hand", "check_line", "check_my_linear", "check_sgd_step",
           "check_unfold"]


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
        except Exception as error:  # learner code may raise anything
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


def check_sgd_step(sgd_step: Callable[[list, float], Any]) -> bool:
    """Check ``sgd_step(params, lr)``: one step of gradient descent on every parameter.

    For each ``p`` in ``params`` whose ``.grad`` is not ``None``: ``p`` becomes
    ``p - lr * p.grad`` **in place** (the tensor in ``params`` must change; rebinding a loop
    variable does not), under ``no_grad`` (otherwise autograd refuses to change a leaf that
    requires grad), and afterwards ``p.grad`` is cleared (zeros or ``None``). Parameters
    without a gradient are skipped, as ``optimizer.step()`` does.

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
        "in-place operation": (
            "Autograd refuses to change, in place, a leaf that requires grad while it is "
            "recording: the update itself would become part of the graph. Do the update "
            "inside `with torch.no_grad():`."),
        "does not require grad and does not have a grad_fn": (
            "After your step a parameter no longer requires grad, so the next `backward()` "
            "has nothing to reach. Under `no_grad`, `p = p - lr * p.grad` makes a *new* "
            "tensor without `requires_grad`; change the parameter itself: `p -= lr * p.grad`."),
        "'NoneType' object": (
            "A parameter's `.grad` is None (it got no gradient: it is not used in the loss). "
            "Skip it, as `optimizer.step()` does: `if p.grad is None: continue`."),
        "unsupported operand type(s) for *: 'float' and 'NoneType'": (
            "A parameter's `.grad` is None (it got no gradient). Skip it: "
            "`if p.grad is None: continue`."),
    }

    def one_step():
        w, b, _, loss = _problem()
        loss().backward()
        sgd_step([w, b], 0.1)
        return {"w": _array(w).copy(), "b": _array(b).copy()}

    def before_and_grads():
        w, b, _, loss = _problem()
        loss().backward()
        return ({"w": _array(w).copy(), "b": _array(b).copy()},
                {"w": _array(w.grad).copy(), "b": _array(b.grad).copy()})

    before, grads = before_and_grads()
    expected_step = {name: before[name] - 0.1 * grads[name] for name in before}

    def compare_step(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            now = got[name]
            if np.allclose(now, expected[name], atol=1e-6):
                continue
            before_, grad = before[name], grads[name]
            if np.array_equal(now, before_):
                raise AssertionError(
                    f"`{name}` did not change. Did you write `p = p - lr * p.grad`? That makes "
                    "a new tensor and binds the loop variable `p` to it; the tensor in "
                    "`params` stays as it was. Change it in place: `p -= lr * p.grad`.")
            if np.allclose(now, before_ + 0.1 * grad, atol=1e-6):
                raise AssertionError(
                    f"`{name}` moved *up* the gradient (`p + lr * grad`): that climbs the "
                    "loss. Gradient descent steps against it: `p - lr * grad`.")
            raise AssertionError(
                f"`{name}` should be {format_value(expected[name])} (p - lr * p.grad), got "
                f"{format_value(now)}.")
        return True

    def cleared():
        w, b, _, loss = _problem()
        loss().backward()
        sgd_step([w, b], 0.1)
        return {name: p.grad is None or bool(np.all(_array(p.grad) == 0))
                for name, p in (("w", w), ("b", b))}

    def compare_cleared(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            assert got[name], (
                f"`{name}.grad` still holds the gradient after the step. Clear it "
                "(`p.grad.zero_()` or `p.grad = None`); otherwise the next backward *adds* to "
                "it and every later step uses the sum of all past gradients (chapter 4).")
        return True

    def still_trainable():
        w, b, _, loss = _problem()
        loss().backward()
        sgd_step([w, b], 0.1)
        return {"w": (w.requires_grad, w.is_leaf), "b": (b.requires_grad, b.is_leaf),
                "recording": grad_mode._state.enabled}

    def compare_trainable(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            requires_grad, is_leaf = got[name]
            assert requires_grad and is_leaf, (
                f"After the step `{name}` is not a leaf that requires grad any more: change "
                "the values in place under `no_grad` and leave `requires_grad` alone.")
        assert got["recording"], (
            "Recording is still switched off after `sgd_step`: use `with torch.no_grad():` "
            "(which switches it back on when the block ends) rather than "
            "`torch.set_grad_enabled(False)` on its own.")
        return True

    def skips_unused():
        w, b, unused, loss = _problem()
        loss().backward()  # `unused` is not in the loss: its .grad stays None
        sgd_step([w, b, unused], 0.1)
        return _array(unused).tolist()

    def compare_unused(got: Any, expected: Any) -> bool:
        assert got == expected, (
            f"A parameter without a gradient changed: {got}. Leave it alone.")
        return True

    def second_step():
        w, b, _, loss = _problem()
        loss().backward()
        sgd_step([w, b], 0.1)
        loss().backward()
        grad = _array(w.grad).copy()
        sgd_step([w, b], 0.1)
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
            sgd_step([w, b], 0.1)
        return {"w": round(w.item(), 3), "b": round(b.item(), 3)}

    cases = [
        Case("one step with lr=0.1: w and b become p - lr * p.grad", _run(one_step, known),
             expected_step, compare=_explaining(compare_step),
             expected_repr="w and b: p - 0.1 * p.grad"),
        Case("after the step, w.grad and b.grad are cleared", _run(cleared, known), None,
             compare=_explaining(compare_cleared), expected_repr="zeros (or None)"),
        Case("after the step, w and b are still leaves that require grad, and recording is on",
             _run(still_trainable, known), None, compare=_explaining(compare_trainable),
             expected_repr="requires_grad=True, is_leaf=True; grad mode on"),
        Case("a parameter whose .grad is None (not used in the loss) is skipped",
             _run(skips_unused, known), [4.0, 5.0], compare=_explaining(compare_unused)),
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
        ✓ Line: all 6 cases passed.
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
        return {name: (tuple(params[name].shape), float(_array(params[name]).sum()))
                for name in sorted(params)}

    def compare_shapes(got: Any, expected: Any) -> bool:
        for name in ("w", "b"):
            shape, value = got.get(name, (None, None))
            assert shape == (), (
                f"`{name}` has shape {shape}; a scalar has shape `()`: "
                f"`nn.Parameter(torch.tensor(0.0))` (not `torch.zeros(1)`, which is (1,)).")
            assert value == 0.0, f"`{name}` should start at 0.0, not {value}."
        return True

    def forward_values():
        line = Line()
        with minitorch.no_grad():
            line.w.fill_(2.0)
            line.b.fill_(1.0)
        return line(minitorch.tensor([0.0, 1.0, 2.0]))

    def compare_forward(got: Any, expected: Any) -> bool:
        assert np.allclose(_array(got), expected), (
            "`forward(x)` should return `self.w * x + self.b`.")
        return True

    def backward_grads():
        line = Line()
        with minitorch.no_grad():
            line.w.fill_(2.0)
            line.b.fill_(1.0)
        out = line(minitorch.tensor([0.0, 1.0, 2.0])).sum()
        assert out.grad_fn is not None, (
            "The output has no `grad_fn`: nothing was recorded. Compute it from `self.w` and "
            "`self.b` (parameters, which require grad).")
        out.backward()
        return {"w.grad": line.w.grad, "b.grad": line.b.grad}

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
        return {"w": round(line.w.item(), 3), "b": round(line.b.item(), 3)}

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
        Case("200 steps of SGD(line.parameters(), lr=0.1) on y = 2x + 1", _run(trains, errors),
             {"w": 2.0, "b": 1.0}, compare=_explaining(lambda got, exp: got == exp)),
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
    a batch ``(N, in)``.

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
        ✓ MyLinear: all 9 cases passed.
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
        return {"weight": (float(weight.min()), float(weight.max()), float(weight.std())),
                "bias": (float(bias.min()), float(bias.max()))}

    def compare_init(got: Any, expected: Any) -> bool:
        k = 1 / math.sqrt(16)
        low, high, spread = got["weight"]
        assert spread > 0, (
            "All the weights are equal. Then every output unit computes the same thing, gets "
            "the same gradient and stays equal to the others forever; random initial values "
            "break that symmetry.")
        assert -k <= low and high <= k, (
            f"For MyLinear(16, 8) the weights lie in [{low:.3f}, {high:.3f}]; PyTorch draws "
            f"them from [-k, k] with k = 1/sqrt(in_features) = {k}: "
            "`torch.rand(out, in) * 2 * k - k`.")
        assert spread > k / 4, (
            f"The weights of MyLinear(16, 8) hardly vary (std {spread:.4f}): draw them from "
            f"the whole range [-k, k], k = {k}.")
        low, high = got["bias"]
        assert -k <= low and high <= k, (
            f"The bias lies in [{low:.3f}, {high:.3f}]; draw it from [-k, k] too (or start "
            "it at zero).")
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
        assert np.allclose(array, expected, atol=1e-5), (
            "`forward(x)` should return `x @ self.weight.T + self.bias`.")
        return True

    def grads():
        layer = MyLinear(4, 3)
        set_params(layer, weight, bias)
        out = layer(minitorch.tensor(x))
        assert out.grad_fn is not None, (
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
    )


# ------------------------------------------------------------------ convolution vs linear
# The references: PyTorch's conv2d and unfold where PyTorch is installed, otherwise
# minitorch's F.conv2d and a NumPy sliding window. The "slips" below are computed in NumPy
# only to name a mistake, never to decide whether the answer is right.
def _windows(x: np.ndarray, kh: int, kw: int) -> np.ndarray:
    """``(C, H, W)`` -> ``(oh, ow, C, kh, kw)``: every kh x kw patch (a view, no copy)."""
    view = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))
    return view.transpose(1, 2, 0, 3, 4)


def _xcorr(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross-correlation in NumPy: ``(C, H, W)``, ``(K, C, kh, kw)``, ``(K,)`` -> ``(K, oh,
    ow)``."""
    return np.einsum("ijcuv,kcuv->kij", _windows(x, *w.shape[2:]), w) + b[:, None, None]


def _conv_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    try:
        import torch
    except ImportError:
        import minitorch as torch
    out = torch.nn.functional.conv2d(torch.tensor(x[None]), torch.tensor(w), torch.tensor(b))
    return out[0].detach().numpy()


def _unfold_reference(x: np.ndarray, kh: int, kw: int) -> np.ndarray:
    try:
        import torch
    except ImportError:
        oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
        return _windows(x, kh, kw).reshape(oh * ow, -1).copy()
    return torch.nn.functional.unfold(torch.tensor(x[None]), (kh, kw))[0].T.numpy()


def _conv_problems() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(5)
    x1 = np.arange(16, dtype=np.float64).reshape(1, 4, 4)
    w1 = np.array([[[[1.0, 2.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 3.0]]]])
    return [
        ("one channel: a 3 x 3 filter on a 4 x 4 image, bias 0", x1, w1, np.zeros(1)),
        ("the same with bias 0.5", x1, w1, np.array([0.5])),
        ("2 input channels, 3 filters of 2 x 3, on a 5 x 6 image",
         rng.standard_normal((2, 5, 6)), rng.standard_normal((3, 2, 2, 3)),
         rng.standard_normal(3)),
        ("3 input channels, 2 filters of 1 x 1 (a Linear per pixel)",
         rng.standard_normal((3, 3, 4)), rng.standard_normal((2, 3, 1, 1)),
         rng.standard_normal(2)),
    ]


def check_conv2d_by_hand(conv2d_by_hand: Callable[[Any, Any, Any], Any]) -> bool:
    """Check ``conv2d_by_hand(x, weight, bias)``: the output of ``Conv2d`` (stride 1, no
    padding) for one image ``x`` of shape ``(C, H, W)``, with ``weight`` ``(K, C, kh, kw)``
    and ``bias`` ``(K,)``: ``out[k, i, j] = bias[k] + sum(weight[k] * x[:, i:i+kh, j:j+kw])``,
    shape ``(K, H - kh + 1, W - kw + 1)``.

    The reference is PyTorch's ``conv2d`` where PyTorch is installed, minitorch's otherwise.
    The inputs are float64 tensors.

    Example:
        >>> import minitorch
        >>> def conv2d_by_hand(x, weight, bias):
        ...     K, C, kh, kw = weight.shape
        ...     _, H, W = x.shape
        ...     out = minitorch.zeros(K, H - kh + 1, W - kw + 1, dtype=x.dtype)
        ...     for k in range(K):
        ...         for i in range(H - kh + 1):
        ...             for j in range(W - kw + 1):
        ...                 patch = x[:, i:i + kh, j:j + kw]
        ...                 out[k, i, j] = (patch * weight[k]).sum() + bias[k]
        ...     return out
        >>> check_conv2d_by_hand(conv2d_by_hand)
        ✓ conv2d_by_hand: all 4 cases passed.
        True
    """
    import minitorch

    def run(x, w, b):
        return conv2d_by_hand(minitorch.tensor(x), minitorch.tensor(w), minitorch.tensor(b))

    def compare_for(x, w, b):
        def compare(got: Any, expected: np.ndarray) -> bool:
            array = to_numpy(got)
            assert array is not None, f"Return a tensor; got {format_value(got)}."
            K, _, kh, kw = w.shape  # noqa: N806  (the names of the formula)
            H, W = x.shape[1:]  # noqa: N806
            if array.shape != expected.shape:
                if array.shape == (K, H - kh, W - kw) or array.shape == (K, H - kh + 2,
                                                                           W - kw + 2):
                    raise AssertionError(
                        f"The output has shape {array.shape}, expected {expected.shape}: a "
                        f"filter {kh} rows tall fits H - kh + 1 = {H - kh + 1} times down an "
                        f"image {H} rows tall (count the positions again).")
                if array.shape == (K, W - kw + 1, H - kh + 1):
                    raise AssertionError(
                        f"The output has shape {array.shape}: rows and columns are swapped. "
                        "Output row i comes from image rows i .. i + kh - 1.")
                raise AssertionError(
                    f"The output should have shape (K, H - kh + 1, W - kw + 1) = "
                    f"{expected.shape}; got {array.shape}.")
            if np.allclose(array, expected, rtol=1e-6, atol=1e-8):
                return True
            slips = [
                (_xcorr(x, w[:, :, ::-1, ::-1], b),
                 "You flipped the filter: that is the convolution of maths textbooks. "
                 "PyTorch's Conv2d does not flip it (strictly, it computes a "
                 "cross-correlation): multiply weight[k, c, u, v] with x[c, i + u, j + v]."),
                (expected - b[:, None, None],
                 "The bias is missing: add bias[k] once to every position of output "
                 "channel k."),
                (_xcorr(x[:1], w[:, :1], b),
                 "Only the first input channel counts in your sum: a filter spans every input "
                 "channel, so sum over c as well as over the rows and columns of the patch."),
                (expected + (w.shape[1] - 1) * b[:, None, None],
                 "The bias is added once per input channel: add it once per output value."),
                (expected.transpose(0, 2, 1),
                 "Rows and columns are swapped: output row i comes from image rows "
                 "i .. i + kh - 1, output column j from image columns j .. j + kw - 1."),
            ]
            for value, why in slips:
                if np.allclose(array, value, rtol=1e-6, atol=1e-8) and not np.allclose(
                        value, expected, rtol=1e-6, atol=1e-8):
                    raise AssertionError(why)
            return False
        return compare

    cases = [Case(name, lambda x=x, w=w, b=b: run(x, w, b), _conv_reference(x, w, b),
                  compare=compare_for(x, w, b)) for name, x, w, b in _conv_problems()]
    return run_check(
        "conv2d_by_hand", cases,
        hint="A convolution output is one weighted sum per filter and per position: the "
        "filter times the patch under it, summed, plus the filter's bias.",
        more_help=[
            "How many positions? A filter kh rows tall fits H - kh + 1 times down the image, "
            "and W - kw + 1 times across.",
            "The patch at output position (i, j) is x[:, i:i + kh, j:j + kw]: every input "
            "channel, kh rows, kw columns. It has the shape of weight[k].",
            "Multiply the patch with weight[k] elementwise, sum everything, and add bias[k]; "
            "loop over k, i and j (no flipping of the filter).",
        ],
    )


class _Patches:
    """What the Linear case got: the learner's patches (shown by shape), and the conv's parts."""

    def __init__(self, *parts: Any) -> None:
        self.parts = parts

    def __repr__(self) -> str:
        patches = self.parts[0]
        return f"patches of shape {None if patches is None else tuple(patches.shape)}"


def check_unfold(unfold: Callable[[Any, int, int], Any]) -> bool:
    """Check ``unfold(x, kh, kw)``: every ``kh x kw`` patch of one image ``x`` ``(C, H, W)``,
    flattened, one patch per row, shape ``(L, C * kh * kw)`` with
    ``L = (H - kh + 1) * (W - kw + 1)``. The patches come row by row of the output (left to
    right, then down), and each is flattened channel first, then row, then column: the order
    of ``conv.weight.view(K, -1)``. So ``Linear`` with the convolution's weight, applied to
    the rows, gives the convolution's output.

    The reference is PyTorch's ``F.unfold`` (transposed) where PyTorch is installed, a NumPy
    sliding window otherwise; the last case compares with minitorch's real ``nn.Conv2d``.

    Example:
        >>> import minitorch
        >>> def unfold(x, kh, kw):
        ...     C, H, W = x.shape
        ...     rows = [x[:, i:i + kh, j:j + kw].reshape(-1)
        ...             for i in range(H - kh + 1) for j in range(W - kw + 1)]
        ...     return minitorch.stack(rows)
        >>> check_unfold(unfold)
        ✓ unfold: all 4 cases passed.
        True
    """
    import minitorch
    from minitorch import nn

    rng = np.random.default_rng(11)
    problems = [
        ("one channel, a 3 x 3 image, 2 x 2 patches",
         np.arange(1, 10, dtype=np.float64).reshape(1, 3, 3), 2, 2),
        ("2 channels, a 4 x 5 image, 3 x 2 patches",
         np.arange(40, dtype=np.float64).reshape(2, 4, 5), 3, 2),
        ("3 channels, a 3 x 4 image, 1 x 3 patches", rng.standard_normal((3, 3, 4)), 1, 3),
    ]

    def compare_for(x, kh, kw):
        H, W = x.shape[1:]  # noqa: N806  (the names of the formula)
        oh, ow = H - kh + 1, W - kw + 1

        def compare(got: Any, expected: np.ndarray) -> bool:
            array = to_numpy(got)
            assert array is not None, f"Return a tensor; got {format_value(got)}."
            if array.shape == expected.shape[::-1] and array.shape != expected.shape:
                raise AssertionError(
                    f"Shape {array.shape} is the transpose of {expected.shape}: one row per "
                    "patch, so that a Linear layer reads each patch as one input sample. "
                    "(PyTorch's own F.unfold returns the transposed layout, (C*kh*kw, L).)")
            if array.shape != expected.shape:
                raise AssertionError(
                    f"Expected (L, C * kh * kw) = {expected.shape}, with L = "
                    f"(H - kh + 1) * (W - kw + 1) = {oh} * {ow} patches; got {array.shape}.")
            if np.allclose(array, expected):
                return True
            windows = _windows(x, kh, kw)
            slips = [
                (windows.transpose(0, 1, 3, 4, 2).reshape(oh * ow, -1),
                 "Each patch is flattened pixel by pixel with the channels innermost; flatten "
                 "it channel first, then row, then column, the order of "
                 "`conv.weight.view(K, -1)`: x[:, i:i+kh, j:j+kw].reshape(-1) keeps it."),
                (windows.transpose(1, 0, 2, 3, 4).reshape(oh * ow, -1),
                 "The patches come column by column; list them row by row of the output "
                 "(left to right, then down), the order of conv(x).view(K, -1)."),
            ]
            for value, why in slips:
                if np.allclose(array, value) and not np.allclose(value, expected):
                    raise AssertionError(why)
            return False
        return compare

    cases = [Case(name, lambda x=x, kh=kh, kw=kw: unfold(minitorch.tensor(x), kh, kw),
                  _unfold_reference(x, kh, kw), compare=compare_for(x, kh, kw))
             for name, x, kh, kw in problems]

    def as_linear():
        minitorch.manual_seed(3)
        conv = nn.Conv2d(2, 3, kernel_size=(3, 2), dtype=minitorch.float64)
        x = minitorch.randn(2, 5, 4, dtype=minitorch.float64)
        patches = to_numpy(unfold(x, 3, 2))
        weight = conv.weight.detach().reshape(3, -1).numpy()
        return _Patches(patches, weight, conv.bias.detach().numpy(),
                        conv(x.unsqueeze(0))[0].detach())

    def compare_linear(got: Any, _expected: Any) -> bool:
        patches, weight, bias, conv_out = got.parts
        assert patches is not None and patches.shape == (9, 12), (
            "The patches of a (2, 5, 4) image with 3 x 2 patches should be a (9, 12) tensor "
            f"(3 * 3 positions, 2 * 3 * 2 numbers each); got "
            f"{format_value(None if patches is None else patches.shape)}.")
        mine = (patches @ weight.T + bias).T.reshape(3, 3, 3)  # what Linear(12, 3) computes
        assert np.allclose(mine, to_numpy(conv_out)), (
            "Linear(C * kh * kw, K), with the Conv2d's weight.view(K, -1) and bias, on your "
            "patches, does not give the Conv2d's output: check the order of the patches and "
            "of the numbers inside each one.")
        return True

    cases.append(Case("Linear with the Conv2d's weights on your patches = the Conv2d's output",
                      as_linear, True, compare=compare_linear,
                      expected_repr="conv(x) for nn.Conv2d(2, 3, kernel_size=(3, 2))"))
    return run_check(
        "unfold", cases,
        hint="Unfolding turns every patch the filter can sit on into one row: then one "
        "matrix product with the flattened filters computes every output position at once.",
        more_help=[
            "How many rows? One per output position: (H - kh + 1) * (W - kw + 1).",
            "The patch at output position (i, j) is x[:, i:i + kh, j:j + kw]; flatten it into "
            "one row, keeping the channel, row, column order of the tensor.",
            "Collect the rows for i from top to bottom and, within a row of positions, j from "
            "left to right; stack them into one tensor.",
        ],
    )

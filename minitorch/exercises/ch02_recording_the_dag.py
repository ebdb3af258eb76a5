"""Chapter 02 (Recording the DAG): the checks of its code exercises.

=====================  ====================================================================
check                  the learner writes
=====================  ====================================================================
check_mul              ``Mul``: an ``autograd.Function`` with static ``forward``/``backward``
                       that saves its inputs with ``ctx.save_for_backward``
check_find_leaves      ``find_leaves(t)``: walk ``grad_fn.next_functions`` back to the
                       ``AccumulateGrad`` nodes and return their ``.variable`` tensors
check_dynamic_graph    ``predicted_nodes()``: the nodes that a forward pass with an ``if``
                       and a data-dependent loop records, for two inputs
=====================  ====================================================================

Like every check, these never raise: they show ✓, ✗ (with what was expected) or ⏳ (the
learner's code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> import minitorch
    >>> class Mul(minitorch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, a, b):
    ...         raise NotImplementedError("your code here")
    >>> check_mul(Mul)  # doctest: +ELLIPSIS
    ⏳ Mul: not done yet.
    ...
    False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

import minitorch

from ._common import format_value, to_numpy
from .runner import Case, Shortcut, WrongAnswer, approx, default_compare, learner_line, run_check

__all__ = ["check_dynamic_graph", "check_find_leaves", "check_mul", "dynamic_f"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_dynamic_graph": "predicted_nodes",
    "check_find_leaves": "find_leaves",
    "check_mul": "Mul",
}


# ------------------------------------------------------------------------ Mul
def _t(values, requires_grad: bool = True) -> minitorch.Tensor:
    """A float64 tensor (float64 keeps finite differences accurate)."""
    return minitorch.tensor(values, dtype=minitorch.float64, requires_grad=requires_grad)


def _grads(**tensors: minitorch.Tensor) -> dict[str, Any]:
    """``{"a.grad": ..., "b.grad": ...}`` as NumPy arrays (or None)."""
    return {f"{name}.grad": (None if t.grad is None else t.grad.numpy())
            for name, t in tensors.items()}


def _is_function(mul: Any) -> Callable[[], Any]:
    def run() -> Any:
        if not isinstance(mul, type):
            raise WrongAnswer(f"`Mul` should be a class, not a {type(mul).__name__}.")
        return issubclass(mul, minitorch.autograd.Function)

    return run


def _explain_subclass(got: Any, expected: Any) -> bool:
    assert got is True, (
        "`Mul` must subclass `autograd.Function` (`class Mul(torch.autograd.Function):`). "
        "A common mix-up is `autograd.Parameter`: forward and backward live in "
        "`autograd.Function` (`nn.Parameter` is a kind of tensor).")
    return True


def _forward_values(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        a, b = _t([1.0, 2.0, 3.0], False), _t([4.0, 5.0, 6.0], False)
        out = mul.apply(a, b)
        if not isinstance(out, minitorch.Tensor):
            raise WrongAnswer(f"`forward` should return a tensor, not a {type(out).__name__}"
                              + (": did you forget a `return`?" if out is None else "."))
        changed = [name for name, t, was in (("a", a, [1.0, 2.0, 3.0]), ("b", b, [4.0, 5.0, 6.0]))
                   if not np.array_equal(t.numpy(), was)]
        if changed:
            raise WrongAnswer(
                f"`forward` changed its input `{changed[0]}` in place (with `*=` or `mul_`): "
                "the caller's tensor is not yours to change. Return a new tensor.")
        if out.dtype != a.dtype:
            raise WrongAnswer(
                f"`forward` returned a {_dtype_name(out.dtype)} tensor for two float64 inputs; "
                "a * b is float64, as in PyTorch. A tensor rebuilt from Python numbers (a "
                "list, `.tolist()`, `.item()`) gets the default dtype, float32, and a cast "
                "(`.float()`) loses the same digits: multiply the tensors themselves.")
        return out.detach().numpy()

    return run


def _dtype_name(dtype: Any) -> str:
    """``float32`` for ``minitorch.float32``."""
    return str(dtype).rsplit(".", 1)[-1]


def _records_node(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        a, b = _t([1.0, 2.0]), _t([3.0, 4.0])
        out = mul.apply(a, b)
        fn = getattr(out, "grad_fn", None)
        return None if fn is None else fn.name()

    return run


def _saved_inputs(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        a, b = _t([1.0, 2.0]), _t([3.0, 4.0])
        out = mul.apply(a, b)
        saved = out.grad_fn.saved_tensors
        names = []
        for s in saved:
            names.append("a" if s is a else "b" if s is b else
                         "something else" if s is not None else "None")
        return sorted(names)

    return run


def _saved_compare(got: Any, expected: Any) -> bool:
    if got == expected:
        return True
    if got == []:
        raise AssertionError(
            "Nothing was saved: save the inputs in `forward` with `ctx.save_for_backward` and "
            "read them back in `backward` from `ctx.saved_tensors`. (Keeping them as "
            "attributes of `ctx` works too, but saved tensors let autograd free them after "
            "backward and catch in-place changes to them.)")
    raise AssertionError(
        "Save the two inputs themselves, not copies or other tensors: backward needs `b` for "
        "a's gradient and `a` for b's.")


def _backward_with(mul: type, a0: list, b0: list, upstream: list | None) -> Callable[[], Any]:
    """``Mul.apply(a, b)`` back-propagated with ``upstream`` (``.sum()`` when None)."""

    def run() -> Any:
        a, b = _t(a0), _t(b0)
        out = mul.apply(a, b)
        if upstream is None:
            out.sum().backward()
        else:
            out.backward(_t(upstream, False))
        return _grads(a=a, b=b)

    return run


def _grads_compare(a0: list, b0: list, upstream: list | None) -> Callable[[Any, Any], bool]:
    """Compare ``{"a.grad", "b.grad"}`` and name the usual slips of ``Mul.backward``."""
    a, b = np.array(a0), np.array(b0)
    g = np.ones_like(a) if upstream is None else np.array(upstream)

    def compare(got: Any, expected: Any) -> bool:
        if default_compare(got, expected):
            return True
        mine = {key: to_numpy(value) for key, value in got.items()}
        if any(value is None for value in mine.values()):
            return False  # the runner's note names the None
        for key, mine_input, name in (("a.grad", a, "a"), ("b.grad", b, "b")):
            nan = np.isnan(mine[key])
            if nan.any() and not (nan & (mine_input != 0)).any():
                raise AssertionError(
                    f"`{key}` is NaN where an input is 0. Dividing by an input (such as "
                    "`grad * out / a`) breaks down at zero; the local derivative of a * b with "
                    f"respect to {name} is the other input, with no division.")
        if upstream is not None and np.allclose(mine["a.grad"], b) and np.allclose(
                mine["b.grad"], a):
            raise AssertionError(
                "These are the local derivatives alone: backward must multiply them by the "
                "upstream gradient it receives (`grad`), here [1, 10, 100].")
        if np.allclose(mine["a.grad"], g * a) and np.allclose(mine["b.grad"], g * b):
            return False  # swapped: the runner's note says so
        if np.allclose(mine["a.grad"], g * b) and np.allclose(mine["b.grad"], g * b):
            raise AssertionError(
                "`b.grad` is grad times b itself: each input's gradient uses the *other* "
                "input (d(ab)/db = a).")
        if np.allclose(mine["a.grad"], g * a) and np.allclose(mine["b.grad"], g * a):
            raise AssertionError(
                "`a.grad` is grad times a itself: each input's gradient uses the *other* "
                "input (d(ab)/da = b).")
        return False

    return compare


def _finite_differences(mul: type) -> Callable[[], Any]:
    """``L = sin(Mul(a, b)).sum()``: autograd's gradients next to central differences of
    ``sin(a * b).sum()`` computed in NumPy (an independent reference)."""

    def run() -> Any:
        rng = np.random.default_rng(0)
        a0, b0 = rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
        a, b = _t(a0), _t(b0)
        mul.apply(a, b).sin().sum().backward()

        def loss(x: np.ndarray, y: np.ndarray) -> float:
            # The reference is NumPy's own product, never the learner's forward.
            return float(np.sin(x * y).sum())

        h = 1e-6
        numeric = {"a.grad": np.zeros_like(a0), "b.grad": np.zeros_like(b0)}
        for index in np.ndindex(a0.shape):
            step = np.zeros_like(a0)
            step[index] = h
            numeric["a.grad"][index] = (loss(a0 + step, b0) - loss(a0 - step, b0)) / (2 * h)
            numeric["b.grad"][index] = (loss(a0, b0 + step) - loss(a0, b0 - step)) / (2 * h)
        return {"autograd": _grads(a=a, b=b), "finite differences": numeric}

    return run


def _agree(got: Any, _expected: Any) -> bool:
    close = approx(atol=1e-5, rtol=1e-4)
    for key in ("a.grad", "b.grad"):
        mine, numeric = got["autograd"][key], got["finite differences"][key]
        assert mine is not None, f"`{key}` is None after backward: return one gradient per input."
        assert close(mine, numeric), (
            f"`{key}` from your backward is {np.round(mine, 4).tolist()}, but finite "
            f"differences give {np.round(numeric, 4).tolist()}.")
    return True


def _broadcasting(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        a, b = _t([[1.0], [2.0], [3.0]]), _t([1.0, 10.0, 100.0, 1000.0])
        out = mul.apply(a, b)
        out.sum().backward()
        return {"out.shape": tuple(out.shape), **_grads(a=a, b=b)}

    return run


def _used_twice(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        x = _t(3.0)
        mul.apply(x, x).backward()
        return _grads(x=x)

    return run


def _diamond(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        x, w = _t(2.0), _t(5.0)
        h = mul.apply(x, w)
        mul.apply(h, x).backward()  # L = (x * w) * x = w x^2
        return _grads(x=x, w=w)

    return run


def _one_input_needs_grad(mul: type) -> Callable[[], Any]:
    def run() -> Any:
        a, b = _t([1.0, 2.0]), _t([3.0, 4.0], requires_grad=False)
        mul.apply(a, b).sum().backward()
        return _grads(a=a, b=b)

    return run


def check_mul(mul: type) -> bool:
    """Check a learner's ``Mul(autograd.Function)``: ``forward`` is ``a * b``, ``backward``
    returns ``(grad * b, grad * a)`` from tensors saved with ``ctx.save_for_backward``.

    The cases: it subclasses ``autograd.Function``; forward values (its inputs unchanged); the
    node it records; what it saves; backward with a sum, with zeros and negatives, with an
    upstream gradient, against finite differences; broadcasting; a tensor used twice; a
    diamond-shaped graph; an input that needs no grad.

    Example:
        >>> import minitorch
        >>> class Mul(minitorch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, a, b):
        ...         ctx.save_for_backward(a, b)
        ...         return a * b
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         a, b = ctx.saved_tensors
        ...         return grad * b, grad * a
        >>> check_mul(Mul)
        ✓ Mul: all 12 cases passed.
        True
    """
    try:  # the learner's class names the node (MulBackward): even a hostile object gets a name
        name = str(mul.__name__)
    except Exception:
        name = "Mul"
    cases = [
        Case("Mul is a subclass of autograd.Function", _is_function(mul), True,
             compare=_explain_subclass),
        Case("forward: Mul.apply([1, 2, 3], [4, 5, 6])", _forward_values(mul),
             np.array([4.0, 10.0, 18.0])),
        Case("forward records a node: Mul.apply(a, b).grad_fn.name()", _records_node(mul),
             f"{name}Backward"),
        Case("what forward saved: Mul.apply(a, b).grad_fn.saved_tensors", _saved_inputs(mul),
             ["a", "b"], compare=_saved_compare, expected_repr="the inputs a and b"),
        Case("backward of Mul.apply(a, b).sum(), a = [1, 2, 3], b = [4, 5, 6]",
             _backward_with(mul, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], None),
             {"a.grad": [4.0, 5.0, 6.0], "b.grad": [1.0, 2.0, 3.0]},
             compare=_grads_compare([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], None)),
        Case("zeros and negatives: Mul.apply(a, b).sum(), a = [0, 2, -1], b = [3, 0, -2]",
             _backward_with(mul, [0.0, 2.0, -1.0], [3.0, 0.0, -2.0], None),
             {"a.grad": [3.0, 0.0, -2.0], "b.grad": [0.0, 2.0, -1.0]},
             compare=_grads_compare([0.0, 2.0, -1.0], [3.0, 0.0, -2.0], None)),
        Case("backward with an upstream gradient: Mul.apply(a, b).backward([1, 10, 100])",
             _backward_with(mul, [1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [1.0, 10.0, 100.0]),
             {"a.grad": [4.0, 50.0, 600.0], "b.grad": [1.0, 20.0, 300.0]},
             compare=_grads_compare([1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [1.0, 10.0, 100.0])),
        Case("sin(Mul.apply(a, b)).sum() for random a, b of shape (2, 3)",
             _finite_differences(mul), "autograd = finite differences", compare=_agree),
        Case("broadcasting: a of shape (3, 1) times b of shape (4,)", _broadcasting(mul),
             {"out.shape": (3, 4), "a.grad": [[1111.0], [1111.0], [1111.0]],
              "b.grad": [6.0, 6.0, 6.0, 6.0]}),
        Case("x used twice: Mul.apply(x, x) at x = 3", _used_twice(mul), {"x.grad": 6.0}),
        Case("a diamond: h = Mul.apply(x, w); L = Mul.apply(h, x), x = 2, w = 5",
             _diamond(mul), {"x.grad": 20.0, "w.grad": 4.0}),
        Case("only a requires grad: Mul.apply(a, b).sum(), a = [1, 2], b = [3, 4]",
             _one_input_needs_grad(mul), {"a.grad": [3.0, 4.0], "b.grad": None}),
    ]
    return run_check(
        "Mul", cases,
        hint=(
            "`forward` computes and saves what `backward` needs; `backward` applies the chain "
            "rule: upstream gradient times the local derivative."
        ),
        more_help=[
            "What is d(a*b)/da? And d(a*b)/db? Each input's gradient uses the *other* input.",
            "`backward` receives the upstream gradient and returns one gradient per input of "
            "`forward`, in the same order.",
            "Read the inputs back from `ctx.saved_tensors`: they must be the tensors you saved in"
            " `forward`, not copies.",
        ],
    )


# ------------------------------------------------------------------------ find_leaves
def _leaf_names(result: Any, names: dict[int, str]) -> Any:
    if result is None:
        return None
    if isinstance(result, minitorch.Tensor) or not isinstance(result, Iterable):
        raise WrongAnswer(f"Return a list of tensors, not a {type(result).__name__}.")
    out = []
    for t in result:
        if id(t) in names:
            out.append(names[id(t)])
        elif isinstance(t, minitorch.Tensor):
            kind = "a leaf" if t.is_leaf else f"a non-leaf (grad_fn={t.grad_fn.name()})"
            out.append(f"<{kind} tensor of shape {tuple(t.shape)}>")
        elif hasattr(t, "variable") and hasattr(t, "next_functions"):
            out.append("<an AccumulateGrad node>")
        else:
            out.append(f"<a {type(t).__name__}, not a tensor>")
    return out


def _call_find_leaves(find_leaves: Callable, t: Any) -> Any:
    """``find_leaves(t)``, with the two well-known errors of a graph walk explained."""
    try:
        return find_leaves(t)
    except RuntimeError as error:
        if "Boolean value of Tensor" not in str(error):
            raise
        raise WrongAnswer(
            "Your code compared tensors (with `in`, `==` or `!=`; "
            f"{learner_line(error) or 'see the traceback'}). On tensors `==` compares "
            "element by element, so it cannot say whether two tensors are the same one. "
            "Remember the *nodes* you have seen, in a set.") from None
    except AttributeError as error:
        if "'NoneType' object has no attribute" not in str(error):
            raise
        raise WrongAnswer(
            f"Your code used a None as a node ({learner_line(error) or str(error)}): an entry "
            "of `next_functions` is `(None, 0)` where an input needs no gradient. Skip "
            "those entries.") from None


def _same_leaves(got: Any, expected: Any, leaf_itself: bool = False,
                 equal_values: bool = False) -> bool:
    assert isinstance(got, list), "Your function returned None: did you forget a `return`?"
    repeated = sorted({n for n in got if got.count(n) > 1})
    assert not repeated, (
        f"{', '.join(repeated)} appears more than once: a tensor used several times is "
        "reached along several paths. Keep a `seen` set of the nodes you have visited.")
    strange = [n for n in got if n.startswith("<")]
    assert "<an AccumulateGrad node>" not in strange, (
        "You returned the `AccumulateGrad` nodes themselves: the leaf tensor is the node's "
        "`.variable`.")
    assert not strange, (
        f"{strange[0]} is not a leaf that requires grad. The leaves are the `.variable` of "
        "the `AccumulateGrad` nodes (`hasattr(node, 'variable')`).")
    if sorted(got) == sorted(expected):
        return True
    if not got and expected == ["w"] and leaf_itself:
        raise AssertionError(
            "`w` has no `grad_fn`: it is a leaf itself, and it requires grad, so it is its own "
            "(only) leaf: return `[w]`.")
    if not got:
        raise AssertionError(
            "Your function found no leaf at all: how does it recognise an AccumulateGrad "
            "node? Such a node has a `.variable` (and its `.name()` is "
            "'torch::autograd::AccumulateGrad', prefix included).")
    missing = sorted(set(expected) - set(got))
    if missing and set(got) <= set(expected):
        if equal_values:
            raise AssertionError(
                f"{', '.join(missing)} is missing. Here a and b hold the same value, 1.0: did "
                "your code skip a leaf because an *equal* tensor was found already (`in` or "
                "`==` on tensors compares values)? Two equal tensors can be different leaves: "
                "remember the nodes you have seen instead.")
        raise AssertionError(
            f"{', '.join(missing)} is missing: follow every entry of `next_functions`, not "
            "only the first.")
    return False


def _seed_example() -> tuple[minitorch.Tensor, dict[int, str]]:
    gen = minitorch.Generator().manual_seed(0)
    x, y = minitorch.ones(5), minitorch.zeros(3)
    w = minitorch.randn(5, 3, requires_grad=True, generator=gen)
    b = minitorch.randn(3, requires_grad=True, generator=gen)
    z = minitorch.matmul(x, w) + b
    loss = minitorch.nn.functional.binary_cross_entropy_with_logits(z, y)
    return loss, {id(x): "x", id(y): "y", id(w): "w", id(b): "b", id(z): "z"}


def _deep_chain(n: int) -> tuple[minitorch.Tensor, dict[int, str]]:
    x = minitorch.tensor(1.0, requires_grad=True)
    h = x
    for _ in range(n):
        h = h * 1.0
    return h, {id(x): "x"}


class _Revisited(WrongAnswer):
    """Raised from inside the learner's walk when it reads one node's ``next_functions``
    again and again: the walk follows every path instead of visiting each node once."""


def _squarings(n: int) -> tuple[minitorch.Tensor, dict[int, str]]:
    """``x`` squared ``n`` times: every node is reached along two edges, so a walk without a
    ``seen`` set follows 2**n paths. The nodes count how often their ``next_functions`` are
    read, and stop such a walk long before it would end."""
    x = minitorch.tensor(1.0, requires_grad=True)
    h = x
    for _ in range(n):
        h = h * h
    counting: dict[type, type] = {}
    stack, seen = [h.grad_fn], set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
        cls = type(node)
        if hasattr(node, "variable"):  # AccumulateGrad stays itself, for `type(node) is ...`
            continue
        if cls not in counting:
            counting[cls] = type(cls.__name__, (cls,), {
                "next_functions": property(_counted_next_functions(cls)),
                "__module__": cls.__module__})
        node.__class__ = counting[cls]
    return h, {id(x): "x"}


_READS_ALLOWED = 8  # a walk with a `seen` set reads a node's next_functions a few times at most


def _counted_next_functions(cls: type) -> Callable[[Any], tuple]:
    def next_functions(node: Any) -> tuple:
        node._reads = getattr(node, "_reads", 0) + 1
        if node._reads > _READS_ALLOWED:
            raise _Revisited(
                f"Your walk came back to the same node ({node.name()}) {node._reads} times and "
                "was still going: here every node is reached along two paths, so a walk that "
                "follows every path visits the nodes near the leaf 2, 4, 8, ... times. Visit "
                "each node once: keep a `seen` set of the nodes you have handled, and skip a "
                "node that is already in it.")
        return cls.next_functions.fget(node)

    return next_functions


def check_find_leaves(find_leaves: Callable[[minitorch.Tensor], Any]) -> bool:
    """Check ``find_leaves(t)``: the leaf tensors that ``t.backward()`` would give a ``.grad``.

    Start at ``t.grad_fn`` and follow ``next_functions`` (skipping ``None`` entries); an
    ``AccumulateGrad`` node's ``.variable`` is a leaf. Each leaf once, in any order. A tensor
    with no ``grad_fn`` is its own leaf if it requires grad, else there are none. One case is a
    chain 3,000 ops deep, too deep for recursion: use a loop with a stack; another reaches ``x``
    along 2**40 paths, too many to follow one by one: visit each node once. The chapter's
    ``walk`` (``minitorch.autograd.graph``), which lists the leaves already, is refused.

    Example:
        >>> def find_leaves(t):
        ...     if t.grad_fn is None:
        ...         return [t] if t.requires_grad else []
        ...     leaves, seen, stack = [], set(), [t.grad_fn]
        ...     while stack:
        ...         node = stack.pop()
        ...         if node in seen:
        ...             continue
        ...         seen.add(node)
        ...         if hasattr(node, "variable"):
        ...             leaves.append(node.variable)
        ...         stack.extend(n for n, _ in node.next_functions if n is not None)
        ...     return leaves
        >>> check_find_leaves(find_leaves)
        ✓ find_leaves: all 9 cases passed.
        True
    """

    def case(name: str, build: Callable[[], tuple[Any, dict[int, str]]],
             expected: list[str]) -> Case:
        def run() -> Any:
            t, names = build()
            return _leaf_names(_call_find_leaves(find_leaves, t), names)

        def compare(got: Any, want: Any) -> bool:
            return _same_leaves(got, want, leaf_itself=build is a_leaf,
                                equal_values=build is equal_values)

        return Case(name, run, expected, compare=compare)

    def one_op():
        w = minitorch.ones(3, requires_grad=True)
        return (w * 2).sum(), {id(w): "w"}

    def used_three_times():
        x = minitorch.tensor(3.0, requires_grad=True)
        return x * x + x, {id(x): "x"}

    def equal_values():
        a = minitorch.tensor(1.0, requires_grad=True)
        b = minitorch.tensor(1.0, requires_grad=True)
        return a * b + b, {id(a): "a", id(b): "b"}

    def no_grad_anywhere():
        x = minitorch.ones(3)
        return x * 2, {id(x): "x"}

    def a_leaf():
        w = minitorch.ones(2, requires_grad=True)
        return w, {id(w): "w"}

    def frozen_branch():
        w = minitorch.ones(2, requires_grad=True)
        v = minitorch.ones(2)  # requires_grad=False: frozen
        x = minitorch.tensor([1.0, 2.0])
        return (w * x).sum() + (v * x).sum(), {id(w): "w", id(v): "v", id(x): "x"}

    cases = [
        case("(w * 2).sum()", one_op, ["w"]),
        case("the worked example: loss = bce_with_logits(matmul(x, w) + b, y)",
             _seed_example, ["b", "w"]),
        case("x * x + x (x reached along three paths)", used_three_times, ["x"]),
        case("a * b + b with a = b = 1.0 (two leaves, equal values)", equal_values,
             ["a", "b"]),
        case("(w * x).sum() + (v * x).sum() with v, x not requiring grad", frozen_branch,
             ["w"]),
        case("ones(3) * 2 (nothing requires grad, no grad_fn)", no_grad_anywhere, []),
        case("w itself, a leaf with requires_grad=True", a_leaf, ["w"]),
        case("a chain of 3,000 multiplications", lambda: _deep_chain(3000), ["x"]),
        case("x squared 40 times (h = h * h): 2**40 paths from the root to x",
             lambda: _squarings(40), ["x"]),
    ]
    from minitorch.autograd.graph import walk

    answer_key = Shortcut(
        "The exercise is to walk the graph yourself: `walk` (from `minitorch.autograd.graph`) "
        "already lists a graph's nodes and leaves, so it is the answer key.",
        objects={"minitorch.autograd.graph.walk": walk})
    return run_check(
        "find_leaves", cases,
        hint=(
            "Walk the graph from `t.grad_fn` through `next_functions`, without recursion, "
            "visiting each node once."
        ),
        more_help=[
            "A list used as a stack replaces recursion: push the nodes still to visit, pop one at"
            " a time.",
            "A node reached along two paths must be handled once: remember the nodes you have "
            "seen.",
            "Leaves sit behind `AccumulateGrad` nodes: such a node has a `.variable`. Entries of "
            "`next_functions` can be `(None, 0)`.",
        ],
        refuse=[answer_key],
    )


# ================================================================== the second layer
# Dynamic graphs: predict the nodes that a forward pass with an `if` and a data-dependent
# loop records. The reference is the graph that minitorch really records.
def dynamic_f(x: minitorch.Tensor, w: minitorch.Tensor) -> minitorch.Tensor:
    """The function of the dynamic-graph exercise (the notebook shows the same code)."""
    h = w * x
    if h > 1:
        h = h.exp()
    else:
        h = -h
    while h.abs() < 20:
        h = h * 3
    return h


def _chain_names(out: minitorch.Tensor) -> list[str]:
    """The node names of a chain-shaped graph, from the root down to the leaf's node."""
    names, node = [], out.grad_fn
    while node is not None:
        names.append(node.name().rsplit("::", 1)[-1])  # torch::autograd::AccumulateGrad
        inputs = [n for n, _ in node.next_functions if n is not None]
        node = inputs[0] if inputs else None
    return names


def _branch_and_loop(names: list) -> tuple[str | None, int]:
    """The branch node of a predicted chain (``ExpBackward0``/``NegBackward0``) and the number
    of loop multiplications recorded after it (the ``MulBackward0`` nodes before it)."""
    for i, name in enumerate(names):
        if name in ("ExpBackward0", "NegBackward0"):
            return name, sum(n == "MulBackward0" for n in names[:i])
    return None, sum(n == "MulBackward0" for n in names)


_WITHOUT_RUNNING = Shortcut(
    "The exercise is to predict the graph without running it: follow the values through "
    "`dynamic_f` on paper and return the names as a literal dict. Running `dynamic_f` (or any "
    "tensor code) and reading the graph would only copy the answer.",
    packages=("minitorch", "torch"))


def check_dynamic_graph(predicted_nodes: Callable[[], dict]) -> bool:
    """Check ``predicted_nodes()``: for ``x = 1.0`` and ``x = 0.25``, the names of the nodes
    that ``dynamic_f(x, w)`` (``w = 2``) records, from the root down to ``AccumulateGrad``.

    The reference is the graph that minitorch really records when it runs ``dynamic_f``.
    A failure says which part of the prediction is off (the order, the leaf, the branch of the
    ``if``, the passes of the loop) without showing the right list: that is the exercise.
    Names are accepted as ``.name()`` prints them (``torch::autograd::AccumulateGrad`` too).
    The prediction is made without running anything: a call to minitorch or PyTorch from
    ``predicted_nodes`` is refused.

    Example:
        >>> def predicted_nodes():
        ...     return {1.0: ["MulBackward0", "ExpBackward0", "MulBackward0",
        ...                   "AccumulateGrad"],
        ...             0.25: ["MulBackward0"] * 4 + ["NegBackward0", "MulBackward0",
        ...                                           "AccumulateGrad"]}
        >>> check_dynamic_graph(predicted_nodes)
        ✓ the two dynamic graphs: all 2 cases passed.
        True
    """

    def expected(x: float) -> list[str]:
        w = minitorch.tensor(2.0, requires_grad=True)
        return _chain_names(dynamic_f(minitorch.tensor(x), w))

    def run(x: float) -> Any:
        got = predicted_nodes()
        if not isinstance(got, dict):
            raise WrongAnswer(f"Return a dict {{1.0: [...], 0.25: [...]}}; got "
                              f"{format_value(got)}.")
        if x not in got:
            raise WrongAnswer(f"The dict has no key {x}: its keys are "
                              f"{format_value(list(got))}.")
        names = got[x]
        if not (isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names)):
            raise WrongAnswer(f"For x = {x}, give a list of node names (strings); got "
                              f"{format_value(names)}.")
        # `.name()` prints the leaf's node as "torch::autograd::AccumulateGrad": both spellings
        return [n.strip().rsplit("::", 1)[-1] for n in names]

    def compare(got: list, want: list) -> bool:
        if got == want:
            return True
        x = 1.0 if "ExpBackward0" in want else 0.25
        h = 2.0 * x
        assert got, "The list is empty: every operation on w records a node."
        for name in got:
            if name == "AccumulateGrad" or name.endswith("Backward0"):
                continue
            if name.endswith("Backward"):
                raise AssertionError(
                    f"{name!r}: the node names end with a number, as `.name()` prints them "
                    f"({name}0).")
            raise AssertionError(
                f"{name!r} is not a node name. A node is named after the backward of its "
                "operation, as `.name()` prints it: the backward of `*` is MulBackward0.")
        if "AbsBackward0" in got:
            raise AssertionError(
                "`h.abs()` in the loop's condition does record an AbsBackward0, but on a "
                "branch of its own that only the comparison uses: the h that the function "
                "returns does not depend on it, so it is not in h's chain.")
        assert not (got[0] == "AccumulateGrad" and got[-1] != "AccumulateGrad"), (
            "The list starts at the leaf: list the nodes from the root (the last operation "
            "that ran) down to the leaf.")
        assert got[-1] == "AccumulateGrad", (
            "End at the leaf w: its node is an AccumulateGrad.")
        assert got[-2:-1] == ["MulBackward0"], (
            "The first operation on w is h = w * x: its node sits just above the leaf.")
        got_branch, got_loop = _branch_and_loop(got[:-2])
        want_branch, want_loop = _branch_and_loop(want[:-2])
        assert got_branch == want_branch, (
            f"The branch of the `if` is wrong: here h = w * x = {h:g}. Is h > 1? Only the "
            "branch that runs records a node; the other one leaves no trace in the graph.")
        assert got_loop == want_loop, (
            f"The branch is right, but count the loop's passes again: {got_loop} "
            "multiplication(s) recorded. Follow h after the branch: it is multiplied by 3 "
            "while |h| < 20, and every pass records one MulBackward0.")
        raise AssertionError("The nodes are right but not in the order the graph records "
                             "them: from the last operation back to w.")

    cases = [Case(f"x = {x}", lambda x=x: run(x), expected(x), compare=compare,
                  expected_repr=f"the nodes that dynamic_f(torch.tensor({x}), w) records, "
                  "root first (predict them: the check does not show them)")
             for x in (1.0, 0.25)]
    return run_check(
        "the two dynamic graphs", cases,
        hint="A dynamic graph records only the operations that really ran, for this input: "
        "follow the values through f.",
        more_help=[
            "Start with h = w * x = 2 * x. Which side of the `if` does that value take?",
            "The branch that runs records one node (exp records ExpBackward0, -h records "
            "NegBackward0); the other branch records nothing.",
            "Then write down h after each pass of the `while` loop: each pass records one "
            "MulBackward0, and the loop stops as soon as |h| >= 20.",
            "List the nodes from the root (the last multiplication) down to w: the root comes "
            "first, AccumulateGrad last.",
        ],
        refuse=[_WITHOUT_RUNNING],
    )

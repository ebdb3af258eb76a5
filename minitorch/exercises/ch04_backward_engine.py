"""Chapter 04 (The backward engine, and what it saves): the checks of its code exercises.

=========================  ==================================================================
check                      the learner writes
=========================  ==================================================================
check_topological_sort     ``topo_sort(graph, root)``: every node reachable from ``root``,
                           once, each node before its inputs (the order backward visits)
check_backprop             ``backprop(local_grads, order)``: one reverse sweep on plain
                           numbers that adds the gradients of every path
check_my_backward          ``my_backward(loss)``: a backward engine over minitorch's real
                           graph (``grad_fn``, ``next_functions``, ``apply``)
check_inplace_repair       ``layer_loss(x, w)``: a layer whose in-place change broke
                           backward ("modified by an inplace operation"), repaired
=========================  ==================================================================

Like every check, these never raise: they show ✓, ✗ (with what was wrong) or ⏳ (the learner's
code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> def backprop(local_grads, order):
    ...     raise NotImplementedError("your code here")
    >>> check_backprop(backprop)  # doctest: +ELLIPSIS
    ⏳ backprop: not done yet...
    False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import format_value, safe_str, to_numpy
from .runner import Case, run_check

__all__ = ["check_backprop", "check_inplace_repair", "check_my_backward", "check_topological_sort"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_topological_sort": "topo_sort",
    "check_backprop": "backprop",
    "check_my_backward": "my_backward",
    "check_inplace_repair": "layer_loss",
}


# ------------------------------------------------------------------------ graphs
Graph = dict[str, list[str]]


def _reachable(graph: Graph, root: str) -> set[str]:
    """All nodes reachable from ``root`` (itself included), found with an explicit stack."""
    seen, stack = {root}, [root]
    while stack:
        for parent in graph.get(stack.pop(), []):
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return seen


def _backward_order_compare(graph: Graph, root: str) -> Callable[[Any, Any], bool]:
    """A compare function that accepts every valid order, explaining the first problem."""

    def compare(got: Any, _expected: Any) -> bool:
        assert isinstance(got, (list, tuple)), "Return a list of node names."
        nodes = _reachable(graph, root)
        assert len(got) == len(set(got)), (
            "Some nodes appear more than once: keep a `visited` set so a node used twice "
            "(the diamond) is listed once.")
        assert set(got) <= nodes, f"These nodes are not reachable from {root!r}: " \
            f"{sorted(set(got) - nodes)}."
        assert set(got) == nodes, f"Missing nodes: {sorted(nodes - set(got))}."
        position = {node: i for i, node in enumerate(got)}
        for node in got:
            for parent in graph.get(node, []):
                assert position[node] < position[parent], (
                    f"{node!r} uses {parent!r}, so {node!r} must come before {parent!r}: "
                    "its gradient has to be complete before it is passed on.")
        return True

    return compare


def check_topological_sort(topo_sort: Callable[[Graph, str], list[str]]) -> bool:
    """Check ``topo_sort(graph, root)``: the order in which backward visits the nodes.

    ``graph`` maps each node to the list of its inputs (like ``grad_fn.next_functions``);
    leaves may be missing from the dict. The result must list every node reachable from
    ``root`` exactly once, starting with ``root``, with every node before its inputs. The
    cases include a diamond (a node used twice) and a chain 5,000 nodes deep, which a
    recursive sort cannot handle: use an explicit stack.

    Example:
        >>> def topo_sort(graph, root):
        ...     return [root]   # a first, wrong attempt
        >>> check_topological_sort(topo_sort)  # doctest: +ELLIPSIS
        ✗ topological sort: wrong result for `chain y <- h <- x`.
        ...
        False
    """
    deep = {f"n{i}": [f"n{i + 1}"] for i in range(5000)}
    graphs = [
        ("chain y <- h <- x", {"y": ["h"], "h": ["x"]}, "y", ["y", "h", "x"]),
        ("diamond: loss <- a, b; a <- x; b <- x",
         {"loss": ["a", "b"], "a": ["x"], "b": ["x"]}, "loss", ["loss", "a", "b", "x"]),
        ("two inputs and a shared one: z <- x, w, b; x <- w",
         {"z": ["x", "w", "b"], "x": ["w"]}, "z", ["z", "x", "w", "b"]),
        ("node 'other' is not reachable from the root",
         {"out": ["a"], "a": ["x"], "other": ["a"]}, "out", ["out", "a", "x"]),
        ("a chain 5,000 nodes deep", deep, "n0", [f"n{i}" for i in range(5001)]),
    ]
    cases = [
        Case(name, lambda graph=graph, root=root: topo_sort(graph, root), example,
             compare=_backward_order_compare(graph, root),
             expected_repr=f"each reachable node once, every node before its inputs, e.g. "
             f"{example if len(example) < 10 else example[:4] + ['...']}")
        for name, graph, root, example in graphs
    ]
    return run_check(
        "topological sort", cases,
        hint=(
            "Every node must come before its inputs; a depth-first search with an explicit stack "
            "gives such an order, even for very deep graphs."
        ),
        more_help=[
            "Recursion fails on a chain 5,000 deep: keep your own stack (a list).",
            "Mark nodes as visited, so a node reached twice (the diamond) is listed once.",
            "A node can be placed only once everything below it is finished; which order does "
            "that give, and does it need reversing?",
        ],
    )


LocalGrads = dict[str, list[tuple[str, float]]]


def check_backprop(backprop: Callable[[LocalGrads, list[str]], dict[str, float]]) -> bool:
    """Check ``backprop(local_grads, order)``: gradient accumulation on plain dicts.

    ``local_grads[node]`` lists ``(input, d node / d input)`` pairs, one per use of an input
    (so ``y = x * x`` lists ``x`` twice). ``order`` lists the nodes root first, each node
    before its inputs. Return ``{node: d root / d node}`` for every node in ``order``, with
    ``1.0`` for the root. A node used several times must **sum** the gradients of its uses.

    Example:
        >>> def backprop(local_grads, order):
        ...     grads = {node: 0.0 for node in order}
        ...     grads[order[0]] = 1.0
        ...     for node in order:
        ...         for parent, local in local_grads.get(node, []):
        ...             grads[parent] += grads[node] * local
        ...     return grads
        >>> check_backprop(backprop)
        ✓ backprop: all 4 cases passed.
        True
    """
    problems = [
        ("y = 3 * x", {"y": [("x", 3.0)]}, ["y", "x"], {"y": 1.0, "x": 3.0}),
        ("L = a**2, a = 2 * x, at x = 1.5 (a chain)",
         {"L": [("a", 6.0)], "a": [("x", 2.0)]}, ["L", "a", "x"],
         {"L": 1.0, "a": 6.0, "x": 12.0}),
        ("y = x * x at x = 3 (x used twice)", {"y": [("x", 3.0), ("x", 3.0)]}, ["y", "x"],
         {"y": 1.0, "x": 6.0}),
        ("diamond: L = a * b, a = 2 * x, b = x + 1, at x = 3",
         {"L": [("a", 4.0), ("b", 6.0)], "a": [("x", 2.0)], "b": [("x", 1.0)]},
         ["L", "a", "b", "x"], {"L": 1.0, "a": 4.0, "b": 6.0, "x": 14.0}),
    ]
    cases = [
        Case(name, lambda local=local, order=order: backprop(local, list(order)), expected)
        for name, local, order, expected in problems
    ]
    return run_check(
        "backprop", cases,
        hint=(
            "Gradients *accumulate*: a node used several times sums the contributions of all its "
            "uses."
        ),
        more_help=[
            "The root's gradient with respect to itself is 1.",
            "Each (input, local) pair passes `grads[node] * local` on to the input.",
            "Assigning overwrites an earlier contribution; what operator adds to it?",
        ],
    )


# ------------------------------------------------------------------ helpers
class _Outcome:
    """What a case got: the learner's value, and how many nodes the real engine ran."""

    def __init__(self, value: Any, ran: int) -> None:
        self.value, self.ran = value, ran

    def __repr__(self) -> str:  # the feedback's "got:" line shows the value only
        return format_value(self.value)


def _engine_ran(fn: Callable[[], Any]) -> _Outcome:
    """Run ``fn()`` and count the nodes the real backward engine ran meanwhile."""
    from minitorch.autograd.engine import record_backward  # noqa: PLC0415

    with record_backward() as steps:
        result = fn()
    return _Outcome(result, len(steps))


# ------------------------------------------------------------------ my_backward
def _problems() -> list[tuple[str, Callable[[], tuple[Any, dict]]]]:
    """Graph builders: each returns ``(loss, {name: leaf})`` for a fresh, identical graph."""
    import minitorch  # noqa: PLC0415

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


def _keep_grad_mode(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` wrapped so that the grad mode is the same after it as before, whatever it does."""
    from minitorch.autograd import grad_mode  # noqa: PLC0415

    def run() -> Any:
        before = grad_mode._state.enabled
        try:
            return fn()
        finally:
            grad_mode._state.enabled = before

    return run


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
    import minitorch  # noqa: PLC0415

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

"""Chapter 04 (The backward engine, and what it saves): the checks of its code exercises.

=========================  ==================================================================
check                      the learner writes
=========================  ==================================================================
check_topological_sort     ``topo_sort(graph, root)``: every node reachable from ``root``,
                           once, each node before its inputs (the order backward visits)
check_backprop             ``backprop(local_grads, order)``: one reverse sweep on plain
                           numbers that adds the gradients of every path
check_my_backward          ``my_backward(loss)``: a backward engine over minitorch's real
                           graph (``grad_fn``, ``next_functions``, ``node(grad)``)
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

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import engine_ran, keep_grad_mode
from ._common import format_value, safe_str, to_numpy
from .runner import Case, Shortcut, WrongAnswer, default_compare, run_check

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


def _first_reached(graph: Graph, root: str, breadth_first: bool,
                   reverse_inputs: bool = False) -> list[str]:
    """The nodes in the order a walk first reaches them: breadth first (a queue) or depth
    first (a stack, each node listed when it is popped): orders that are *not* topological."""
    order, seen, todo = [], {root}, [root]
    while todo:
        node = todo.pop(0) if breadth_first else todo.pop()
        order.append(node)
        inputs = graph.get(node, [])
        for parent in (inputs[::-1] if reverse_inputs else inputs):
            if breadth_first:
                if parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
            else:
                todo.append(parent)
        if not breadth_first:
            todo = [n for n in todo if n not in order]
    return list(dict.fromkeys(order))


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
                if position[node] < position[parent]:
                    continue
                why = (f"{node!r} uses {parent!r}, so {node!r} must come before {parent!r}: "
                       "its gradient has to be complete before it is passed on.")
                got = list(got)
                if got == _first_reached(graph, root, breadth_first=True):
                    why += (" Yours is the order in which a breadth-first walk reaches the "
                            "nodes; but a node reached early along a short path may still be "
                            "used by a node on a longer path. Place a node only after every "
                            "node that uses it.")
                elif got in (_first_reached(graph, root, breadth_first=False),
                             _first_reached(graph, root, False, reverse_inputs=True)):
                    why += (" Yours lists each node when the depth-first walk first reaches "
                            "it (pre-order); that works for some input orders only. Append a "
                            "node *after* all of its inputs are done, then reverse the list.")
                elif position[root] != 0:
                    why += " (The root comes first.)"
                raise AssertionError(why)
        return True

    return compare


def _call_unchanged(fn: Callable, *inputs: Any) -> Any:
    """``fn(*inputs)``; a wrong answer if ``fn`` changed one of its inputs."""
    before = copy.deepcopy(inputs)
    result = fn(*inputs)
    if inputs != before:
        raise WrongAnswer(
            "Your function changed its input (a dict or list it was given: `pop`, `remove`, "
            "`append`, a deleted key...). The caller still needs it: work on your own "
            "variables instead.")
    return result


_GRAPHLIB = Shortcut(
    "The exercise is to write the topological sort yourself: `graphlib.TopologicalSorter` "
    "is the answer key.", objects={
        "graphlib.TopologicalSorter": __import__("graphlib").TopologicalSorter})


def check_topological_sort(topo_sort: Callable[[Graph, str], list[str]]) -> bool:
    """Check ``topo_sort(graph, root)``: the order in which backward visits the nodes.

    ``graph`` maps each node to the list of its inputs (like ``grad_fn.next_functions``);
    leaves may be missing from the dict. The result must list every node reachable from
    ``root`` exactly once, starting with ``root``, with every node before its inputs. The
    cases include a diamond (a node used twice), a node reached along two paths of different
    lengths with its inputs listed in either order (where breadth-first and pre-order walks
    go wrong), and a chain 5,000 nodes deep, which a recursive sort cannot handle: use an
    explicit stack. The graph must come back unchanged; ``graphlib`` is refused.

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
        ("two paths of different lengths: out <- a, c; a <- b; b <- c",
         {"out": ["a", "c"], "a": ["b"], "b": ["c"]}, "out", ["out", "a", "b", "c"]),
        ("the same graph, inputs listed the other way: out <- c, a; a <- b; b <- c",
         {"out": ["c", "a"], "a": ["b"], "b": ["c"]}, "out", ["out", "a", "b", "c"]),
        ("node 'other' is not reachable from the root",
         {"out": ["a"], "a": ["x"], "other": ["a"]}, "out", ["out", "a", "x"]),
        ("a chain 5,000 nodes deep", deep, "n0", [f"n{i}" for i in range(5001)]),
    ]
    cases = [
        Case(name, lambda graph=graph, root=root: _call_unchanged(topo_sort, graph, root),
             example, compare=_backward_order_compare(graph, root),
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
        refuse=[_GRAPHLIB],
    )


LocalGrads = dict[str, list[tuple[str, float]]]


def _sweep(local_grads: LocalGrads, order: list[str], slip: str = "") -> dict[str, float]:
    """One reverse sweep on plain numbers, right or with one slip (to name a wrong answer)."""
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 0.0 if slip == "root 0" else 1.0
    nodes = {"reversed": order[::-1], "dict order": list(local_grads),
             "dict order reversed": list(local_grads)[::-1]}.get(slip, order)
    for node in nodes:
        for parent, local in local_grads.get(node, []):
            if slip == "overwrite":
                grads[parent] = grads[node] * local
            elif slip == "no upstream":
                grads[parent] += local
            else:
                grads[parent] += grads[node] * local
    return grads


_SWEEP_SLIPS = {
    "overwrite": "A node used more than once got only one of its contributions: assigning "
    "(`=`) replaces what an earlier use sent. Gradients *accumulate*: add each contribution.",
    "no upstream": "Each contribution must be the node's own gradient times the local "
    "derivative (the chain rule); yours passes the local derivative alone.",
    "reversed": "You went through `order` from the end (the leaves first): a node can pass "
    "its gradient on only once it is complete, so go root first, in the order given.",
    "dict order": "You went through the nodes in the order of `local_grads`' keys, which is "
    "not a topological order here: use `order`, which is one.",
    "dict order reversed": "You went through the keys of `local_grads` from the last one: "
    "their order, forwards or backwards, is not a topological order here. Use `order`, which "
    "is one.",
    "root 0": "Every gradient is 0: the sweep starts from the root's gradient with respect "
    "to itself, d root / d root = 1.",
}


def _backprop_compare(local_grads: LocalGrads, order: list[str]) -> Callable[[Any, Any], bool]:
    def compare(got: Any, expected: dict) -> bool:
        if default_compare(got, expected):
            return True
        if isinstance(got, dict) and set(got) >= set(expected):
            mine = {node: got[node] for node in expected}
            matches = [slip for slip in _SWEEP_SLIPS
                       if default_compare(mine, value := _sweep(local_grads, order, slip))
                       and not default_compare(value, expected)]
            if len(matches) == 1:
                raise AssertionError(_SWEEP_SLIPS[matches[0]])
            if matches and set(matches) <= {"reversed", "dict order", "dict order reversed"}:
                raise AssertionError(
                    "A node passed its gradient on before it was complete: go through the "
                    "nodes in `order`, root first, as given (neither reversed nor in the "
                    "order of `local_grads`' keys).")
        if isinstance(got, dict) and set(got) < set(expected):
            missing = sorted(set(expected) - set(got))
            raise AssertionError(f"{', '.join(map(repr, missing))} is missing: return the "
                                 "gradient of every node in `order`, the leaves included.")
        return False

    return compare


def check_backprop(backprop: Callable[[LocalGrads, list[str]], dict[str, float]]) -> bool:
    """Check ``backprop(local_grads, order)``: gradient accumulation on plain dicts.

    ``local_grads[node]`` lists ``(input, d node / d input)`` pairs, one per use of an input
    (so ``y = x * x`` lists ``x`` twice). ``order`` lists the nodes root first, each node
    before its inputs. Return ``{node: d root / d node}`` for every node in ``order``, with
    ``1.0`` for the root. A node used several times must **sum** the gradients of its uses.
    The keys of ``local_grads`` do not come in a topological order (only ``order`` does), a
    local derivative may be 0 or negative, and the inputs must come back unchanged.

    Example:
        >>> def backprop(local_grads, order):
        ...     grads = {node: 0.0 for node in order}
        ...     grads[order[0]] = 1.0
        ...     for node in order:
        ...         for parent, local in local_grads.get(node, []):
        ...             grads[parent] += grads[node] * local
        ...     return grads
        >>> check_backprop(backprop)
        ✓ backprop: all 6 cases passed.
        True
    """
    problems = [
        ("y = 3 * x", {"y": [("x", 3.0)]}, ["y", "x"], {"y": 1.0, "x": 3.0}),
        ("L = a**2, a = 2 * x, at x = 1.5 (a chain)",
         {"a": [("x", 2.0)], "L": [("a", 6.0)]}, ["L", "a", "x"],
         {"L": 1.0, "a": 6.0, "x": 12.0}),
        ("y = x * x at x = 3 (x used twice)", {"y": [("x", 3.0), ("x", 3.0)]}, ["y", "x"],
         {"y": 1.0, "x": 6.0}),
        ("diamond: L = a * b, a = 2 * x, b = x + 1, at x = 3",
         {"a": [("x", 2.0)], "b": [("x", 1.0)], "L": [("a", 4.0), ("b", 6.0)]},
         ["L", "a", "b", "x"], {"L": 1.0, "a": 4.0, "b": 6.0, "x": 14.0}),
        ("two paths of different lengths, a local derivative 0: L = 3 * b + relu(a), "
         "b = -a, a = 2 * x, at x = -1",
         {"a": [("x", 2.0)], "b": [("a", -1.0)], "L": [("b", 3.0), ("a", 0.0)]},
         ["L", "b", "a", "x"], {"L": 1.0, "b": 3.0, "a": -3.0, "x": -6.0}),
        # the keys of local_grads in no topological order, forwards or backwards (nor sorted),
        # and d reached only through a local derivative 0: its gradient is 0, still returned
        ("keys in no useful order, d reached through a local derivative 0 only: "
         "L = 2 * c + relu(d), c = 3 * b + a, b = -a, a = x / 2, d = x, at x = -4",
         {"b": [("a", -1.0)], "L": [("c", 2.0), ("d", 0.0)], "a": [("x", 0.5)],
          "d": [("x", 1.0)], "c": [("b", 3.0), ("a", 1.0)]},
         ["L", "c", "d", "b", "a", "x"],
         {"L": 1.0, "c": 2.0, "d": 0.0, "b": 6.0, "a": -4.0, "x": -2.0}),
    ]
    cases = [
        Case(name, lambda local=local, order=order: _call_unchanged(backprop, local, order),
             expected, compare=_backprop_compare(local, order))
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

    def shared_gradient():
        x = minitorch.tensor(1.0, requires_grad=True)
        p, q = 2 * x, 3 * x
        return (p + q) + p, {"x": x}

    def two_leaves_added():
        a = minitorch.tensor([1.0, 2.0], requires_grad=True)
        b = minitorch.tensor([3.0, 4.0], requires_grad=True)
        return ((a + b) * minitorch.tensor([1.0, -1.0])).sum(), {"a": a, "b": b}

    def squarings():
        x = minitorch.tensor(1.0, requires_grad=True)
        h = x
        for _ in range(40):
            h = h * h
        _count_applies(h)
        return h, {"x": x}

    return [
        ("y = 3 * x at x = 2", one_op),
        ("logistic regression: w=1, b=0, x=6.7, y=0", logistic),
        ("diamond: L = (2 * x) * (x + 1) at x = 3", diamond),
        ("x used three times: y = x * x + x at x = 3", used_three_times),
        ("the worked example: matmul, + b, BCE with logits", worked_example),
        ("a chain 2,000 ops deep", deep_chain),
        ("two leaves added: L = ((a + b) * [1, -1]).sum(), AddBackward0 hands both the same "
         "gradient", two_leaves_added),
        ("p = 2 * x, q = 3 * x, L = (p + q) + p at x = 1: each AddBackward0 hands one gradient "
         "tensor to both its inputs", shared_gradient),
        ("x squared 40 times (h = h * h): 2**40 paths from the root to x", squarings),
    ]


class _Revisited(WrongAnswer):
    """Raised from inside the learner's backward when it calls one node's ``apply`` again and
    again: it passes each gradient on along every path instead of once per node."""


_APPLIES_ALLOWED = 4  # a backward that visits each node once calls its apply once


def _count_applies(root: Any) -> None:
    """Make every node of ``root``'s graph (but the leaves' ``AccumulateGrad``) count the
    calls of its ``apply``, and stop a backward that calls one too often."""
    counting: dict[type, type] = {}
    stack, seen = [root.grad_fn], set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions if nxt is not None)
        cls = type(node)
        if hasattr(node, "variable"):  # AccumulateGrad stays itself, for `isinstance`
            continue
        if cls not in counting:
            counting[cls] = type(cls.__name__, (cls,), {"apply": _counted_apply(cls),
                                                        "__module__": cls.__module__})
        node.__class__ = counting[cls]


def _counted_apply(cls: type) -> Callable[..., Any]:
    def apply(node: Any, *grads: Any) -> Any:
        node._applies = getattr(node, "_applies", 0) + 1
        if node._applies > _APPLIES_ALLOWED:
            raise _Revisited(
                f"Your backward called the apply of one node ({node.name()}) "
                f"{node._applies} times and was still going: here every node is reached along "
                "two paths, so passing each gradient on as soon as it arrives follows every "
                "path (2**40 of them). Visit the nodes in a topological order, each once, with "
                "the sum of all the gradients that reached it.")
        return cls.apply(node, *grads)

    return apply


def _grads(leaves: dict) -> dict:
    return {name: t.grad for name, t in leaves.items()}


def _run_learner(my_backward: Callable[[Any], Any], build: Callable, times: int) -> tuple:
    loss, leaves = build()

    def run() -> None:
        for _ in range(times):
            my_backward(loss)

    outcome = engine_ran(run)
    outcome.value = _grads(leaves)
    return outcome


def _expected(build: Callable, times: int) -> dict:
    loss, leaves = build()
    for _ in range(times):
        loss.backward(retain_graph=True)
    return _grads(leaves)


def _slip_sweep(build: Callable, slip: str) -> dict:
    """What a backward with one slip leaves in the leaves' ``.grad`` (to name a wrong answer):
    ``"breadth first"`` visits the nodes in the order a breadth-first walk reaches them,
    ``"overwrite"`` keeps only the last gradient that arrives at a node, ``"in place"`` adds
    a gradient into the one a node already has with ``+=``."""
    import minitorch
    from minitorch.autograd.function import AccumulateGrad

    loss, leaves = build()
    with minitorch.no_grad():
        if slip == "breadth first":
            order, seen, queue = [], {loss.grad_fn}, [loss.grad_fn]
            while queue:
                node = queue.pop(0)
                order.append(node)
                for nxt, _ in node.next_functions:
                    if nxt is not None and nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
        else:
            order, seen, stack = [], set(), [(loss.grad_fn, False)]
            while stack:
                node, done = stack.pop()
                if done:
                    order.append(node)
                elif node not in seen:
                    seen.add(node)
                    stack.append((node, True))
                    stack.extend((n, False) for n, _ in node.next_functions if n is not None)
            order.reverse()
        grads = {loss.grad_fn: minitorch.ones_like(loss)}
        for node in order:
            grad = grads.pop(node, None)
            if grad is None:
                continue
            if isinstance(node, AccumulateGrad):
                leaf = node.variable
                leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
                continue
            outs = node(grad)
            outs = outs if isinstance(outs, tuple) else (outs,)
            for (nxt, _), g in zip(node.next_functions, outs):
                if nxt is not None and g is not None:
                    add = nxt in grads and slip != "overwrite"
                    if add and slip == "in place":
                        grads[nxt] += g
                    else:
                        grads[nxt] = grads[nxt] + g if add else g
    return {name: (None if t.grad is None else t.grad.numpy()) for name, t in leaves.items()}


_BACKWARD_SLIPS = {
    "overwrite": "A node used more than once kept only the last gradient that reached it: "
    "the gradients arriving at a node from its several uses must be *added*.",
    "second call replaced": "The second call replaced `.grad` instead of adding to it: "
    "`.grad` accumulates across backward calls.",
    "in place": "A gradient changed after it was handed on: `+=` adds in place, into the "
    "very tensor a node received, and a node can hand that one tensor to several inputs "
    "(AddBackward0 hands its gradient to both), so the others change with it. Add out of "
    "place: `grads[node] = grads[node] + g`.",
    "breadth first": "A node passed its gradient on before all of it had arrived: your order "
    "is not topological. The order in which a breadth-first walk reaches the nodes is not "
    "enough; each node must come after every node that uses it.",
}


def _shared(first: Any, second: Any) -> bool:
    """Whether two .grad tensors are one object, or share their memory."""
    if first is None or second is None:
        return False
    if first is second:
        return True
    try:
        return bool(np.shares_memory(first._data, second._data))
    except Exception:
        return False


def _compare_grads(got: Any, expected_and_slips: tuple) -> bool:
    expected, slips = expected_and_slips
    grads, ran = got.value, got.ran
    assert not ran, ("`my_backward` ran the real engine (`loss.backward()` or "
                     "`autograd.grad`): write the sweep yourself, with `node(grad)`.")
    names = list(grads)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            assert not _shared(grads[first], grads[second]), (
                f"{first}.grad and {second}.grad are one and the same tensor: a node can hand "
                "the very same gradient tensor to several inputs (AddBackward0 does), and "
                "storing it as it is makes the leaves share one `.grad`; the next "
                "accumulation into one would change the other. The first time, store a copy.")
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
        if not np.allclose(a, e, rtol=1e-4, atol=1e-6):
            for slip, why in _BACKWARD_SLIPS.items():
                found = slips.get(slip)
                value = (found() if callable(found) else found or {}).get(name)
                if value is not None and value.shape == a.shape and np.allclose(
                        a, value, rtol=1e-4, atol=1e-6) and not np.allclose(value, e):
                    raise AssertionError(f"{name}.grad should be {format_value(want)}; got "
                                         f"{format_value(have)}. {why}")
            raise AssertionError(
                f"{name}.grad should be {format_value(want)}; got {format_value(have)}.")
    return True


def check_my_backward(my_backward: Callable[[Any], Any]) -> bool:
    """Check ``my_backward(loss)``: a small backward engine over minitorch's real graph.

    ``my_backward`` must leave in each leaf's ``.grad`` exactly what ``loss.backward()``
    leaves there: start from ``loss.grad_fn`` with the gradient ``1``, visit the nodes in a
    topological order (each node before the nodes in its ``next_functions``), call
    ``node(grad)`` to get one gradient per entry of ``node.next_functions``, **sum**
    the gradients arriving at a node from several uses, skip ``(None, 0)`` entries, and at an
    ``AccumulateGrad`` node add the gradient into ``node.variable.grad``. (Calling a node, as
    in PyTorch, and minitorch's ``node.apply(grad)`` run the same backward formula: either
    passes.) The cases include a
    diamond, a tensor used three times, the chapter's worked example, a chain 2,000 ops deep,
    two leaves added (whose ``.grad`` must be two tensors, not one shared), a gradient tensor
    handed to two inputs (so adding into it in place changes both), ``x`` squared 40 times
    (2**40 paths: each node's ``apply`` must run once, not once per path), and two calls in
    a row (the second must add to ``.grad``). The real engine must not run.

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
        slips = {slip: (lambda build=build, slip=slip: _slip_sweep(build, slip))
                 for slip in _BACKWARD_SLIPS if slip != "second call replaced"}
        cases.append(Case(name, lambda build=build: _run_learner(my_backward, build, 1),
                          (_expected(build, 1), slips), compare=_compare_grads,
                          expected_repr="the same .grad as loss.backward()"))
    _, diamond = _problems()[2]
    cases.append(Case("two calls in a row on the diamond: .grad adds up",
                      lambda: _run_learner(my_backward, diamond, 2),
                      (_expected(diamond, 2), {"second call replaced": {
                          name: None if g is None else to_numpy(g)
                          for name, g in _expected(diamond, 1).items()}}),
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
            "For each node, `node(grad)` returns one gradient per entry of "
            "`node.next_functions`: hand each to that node, adding to what it already has.",
            "An `AccumulateGrad` node ends a path: its gradient goes into its `.variable`'s "
            "`.grad`, added to any gradient already there. Skip `(None, 0)` entries.",
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
    samples = [(np.array([[1.0, 2.0]]), np.array([[0.5], [0.25]])),
               (rng.standard_normal((4, 3)), rng.standard_normal((3, 2))),
               (rng.standard_normal((5, 2)), rng.standard_normal((2, 1)))]

    def run(x_np, w_np):
        x = minitorch.tensor(x_np, dtype=minitorch.float64)
        w = minitorch.tensor(w_np, dtype=minitorch.float64, requires_grad=True)
        loss = layer_loss(x, w)
        if not isinstance(loss, minitorch.Tensor):
            raise WrongAnswer(
                f"Return the loss as a one-element tensor (`h.sum()`); got "
                f"{format_value(loss)}" + (": did you forget a `return`?" if loss is None
                                           else ", which backward cannot start from."))
        if loss.grad_fn is None:
            raise WrongAnswer(
                "The loss has no grad_fn: it must stay connected to w (no detach(), no "
                "no_grad), or backward cannot reach w. Cutting the graph hides the error "
                "instead of repairing it.")
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
            "still changed in place (look for `*=`, `+=`, a method ending in `_`, or `out=`; "
            "under `no_grad` too: the version counter counts every in-place change).")
        value, grad = got
        want_value, want_grad = expected
        x, w = inputs[id(expected)]
        s = 1.0 / (1.0 + np.exp(-(x @ w)))
        if not np.isclose(value, want_value, rtol=1e-6):
            doubled_input = (1.0 / (1.0 + np.exp(-2 * (x @ w)))).sum()
            if np.isclose(value, doubled_input, rtol=1e-6) and not np.isclose(value, s.sum()):
                raise AssertionError(
                    "You doubled the input of sigmoid, not its output: the loss is "
                    "sum(2 * sigmoid(x @ w)), the output times 2.")
            if np.isclose(value, s.sum(), rtol=1e-6):
                raise AssertionError(
                    f"The loss should be {want_value:.6g}, twice the sum of sigmoid(x @ w); "
                    f"got {value:.6g}: the doubling is missing.")
            raise AssertionError(
                f"The loss should be {want_value:.6g} (the sum of 2 * sigmoid(x @ w)); got "
                f"{value:.6g}.")
        assert grad is not None, "w.grad is None after backward."
        mine = to_numpy(grad)
        if np.allclose(mine, want_grad, rtol=1e-6, atol=1e-9):
            return True
        if mine.shape == want_grad.shape and np.allclose(mine, x.T @ (2 * s * (1 - 2 * s)),
                                                          rtol=1e-6, atol=1e-9):
            raise AssertionError(
                "The loss is right but w.grad is wrong: the doubling still happened in place, "
                "behind the version counter's back (through `.data`?), so backward used the "
                "doubled values instead of what sigmoid saved. That is the silent wrong "
                "gradient the version counter exists to prevent: leave the saved tensor "
                "unchanged.")
        raise AssertionError(
            f"w.grad should be {format_value(want_grad)}; got {format_value(grad)}.")

    references = [_layer_reference(x, w) for x, w in samples]
    inputs = {id(ref): (x, w) for ref, (x, w) in zip(references, samples)}
    cases = [Case(f"x of shape {x.shape}, w of shape {w.shape}",
                  keep_grad_mode(lambda x=x, w=w: run(x, w)), ref,
                  compare=compare, expected_repr="backward works; the same loss and w.grad")
             for (x, w), ref in zip(samples, references)]
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

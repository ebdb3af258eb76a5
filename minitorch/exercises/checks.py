"""Instant checks for the code exercises of the chapters (NumPy-only ones, for now).

Each ``check_*`` function takes the learner's function, runs it on a few cases with
:func:`~minitorch.exercises.runner.run_check`, shows ✓ / ✗ / ⏳ feedback and returns ``True``
when every case passes. The docstrings show the stub a notebook gives the learner.

=========================  ==========================================================  =======
check                      the learner writes                                          chapter
=========================  ==========================================================  =======
check_numeric_derivative   ``numeric_derivative(f, x)``: central difference            3
check_chain_rule           ``chain_rule(df, g, dg, x)``: ``df(g(x)) * dg(x)``          3
check_logistic_grads       ``logistic_grads(w, b, x, y)``: ``(dL/dw, dL/db)`` by hand  3
check_topological_sort     ``topo_sort(graph, root)``: the order backward visits       3
check_backprop             ``backprop(local_grads, order)``: accumulate gradients      3
=========================  ==========================================================  =======
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .runner import Case, approx, run_check

__all__ = [
    "check_backprop", "check_chain_rule", "check_logistic_grads", "check_numeric_derivative",
    "check_topological_sort",
]


# ------------------------------------------------------------------------ derivatives
def check_numeric_derivative(numeric_derivative: Callable[..., float]) -> bool:
    """Check a central-difference derivative ``numeric_derivative(f, x)``.

    The learner's function should return ``(f(x + h) - f(x - h)) / (2 * h)`` for a small
    ``h`` (about ``1e-5``). The one-sided ``(f(x + h) - f(x)) / h`` is ten thousand times less
    accurate, and fails the check.

    Example:
        >>> def numeric_derivative(f, x, h=1e-5):
        ...     raise NotImplementedError  # your code here
        >>> check_numeric_derivative(numeric_derivative)  # doctest: +ELLIPSIS
        ⏳ numeric derivative: not done yet.
        ...
        False
    """
    functions = [
        ("x**2 at x=3", lambda x: x**2, 3.0, 6.0),
        ("sin(x) at x=0", math.sin, 0.0, 1.0),
        ("exp(x) at x=1", math.exp, 1.0, math.e),
        ("x**3 at x=-2", lambda x: x**3, -2.0, 12.0),
    ]
    cases = [
        Case(name, lambda f=f, x=x: numeric_derivative(f, x), slope,
             compare=approx(atol=1e-6, rtol=1e-6))
        for name, f, x, slope in functions
    ]
    return run_check(
        "numeric derivative", cases,
        hint=(
            "A finite difference approximates the slope from two nearby values; the symmetric "
            "(central) one is far more accurate."
        ),
        more_help=[
            "Evaluate f on both sides of x, at the same small distance h.",
            "An h around 1e-5 balances the approximation error against rounding error.",
        ],
    )


def check_chain_rule(chain_rule: Callable[..., float]) -> bool:
    """Check ``chain_rule(df, g, dg, x)``, the derivative of ``f(g(x))`` at ``x``.

    Here ``df`` is the derivative of the outer function ``f``, ``g`` the inner function and
    ``dg`` its derivative. The chain rule says: ``df(g(x)) * dg(x)``.

    Example:
        >>> def chain_rule(df, g, dg, x):
        ...     return df(g(x)) * dg(x)
        >>> check_chain_rule(chain_rule)
        ✓ chain rule: all 3 cases passed.
        True
    """
    cases = [
        Case("f = sin, g(x) = x**2, at x = 1.5",
             lambda: chain_rule(math.cos, lambda x: x**2, lambda x: 2 * x, 1.5),
             math.cos(2.25) * 3.0),
        Case("f = exp, g(x) = 3x, at x = 0.5",
             lambda: chain_rule(math.exp, lambda x: 3 * x, lambda x: 3.0, 0.5),
             3.0 * math.exp(1.5)),
        Case("f(u) = u**3, g = sin, at x = 1",
             lambda: chain_rule(lambda u: 3 * u**2, math.sin, math.cos, 1.0),
             3 * math.sin(1.0) ** 2 * math.cos(1.0)),
    ]
    return run_check(
        "chain rule", cases,
        hint=(
            "The chain rule: the outer derivative, taken at the inner value, times the inner "
            "derivative."
        ),
        more_help=[
            "Which argument of `df` is right: `x` or `g(x)`?",
        ],
    )


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def check_logistic_grads(logistic_grads: Callable[..., Any]) -> bool:
    """Check hand-derived gradients of one-sample logistic regression.

    The learner writes ``logistic_grads(w, b, x, y)`` returning ``(dL_dw, dL_db)`` for::

        z = w * x + b
        p = sigmoid(z)                                # 1 / (1 + exp(-z))
        L = -(y * log(p) + (1 - y) * log(1 - p))      # binary cross-entropy

    Example:
        >>> import math
        >>> def logistic_grads(w, b, x, y):
        ...     p = 1 / (1 + math.exp(-(w * x + b)))
        ...     return (p - y) * x, p - y
        >>> check_logistic_grads(logistic_grads)
        ✓ logistic regression gradients: all 4 cases passed.
        True
    """
    samples = [(0.5, 0.0, 2.0, 1.0), (-1.0, 0.3, 1.5, 0.0), (2.0, -1.0, -0.5, 1.0),
               (0.0, 0.0, 3.0, 0.0)]
    cases = []
    for w, b, x, y in samples:
        p = _sigmoid(w * x + b)
        expected = ((p - y) * x, p - y)
        cases.append(Case(f"w={w}, b={b}, x={x}, y={y}",
                          lambda w=w, b=b, x=x, y=y: logistic_grads(w, b, x, y),
                          expected))
    return run_check(
        "logistic regression gradients", cases,
        hint=(
            "Apply the chain rule through z = w*x + b, p = sigmoid(z) and the binary "
            "cross-entropy."
        ),
        more_help=[
            "Work out dL/dp and dp/dz separately, then multiply: the product simplifies a lot.",
            "dz/dw and dz/db come straight from z = w*x + b.",
            "Return the two gradients as a pair, in the order (dL/dw, dL/db).",
        ],
    )


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


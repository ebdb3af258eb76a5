"""Tests for the checks of chapter 04 (The backward engine): ``topo_sort``, ``backprop``,
``my_backward`` and the in-place repair.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import graphlib
import sys

import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

import minitorch
from minitorch.autograd import grad_mode
from minitorch.autograd.function import AccumulateGrad
from minitorch.exercises import ch04_backward_engine
from minitorch.exercises.ch04_backward_engine import (
    check_backprop,
    check_inplace_repair,
    check_my_backward,
    check_topological_sort,
)


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


# ------------------------------------------------------------------ topo_sort and backprop
def topo_sort_iterative(graph, root):
    """Iterative post-order depth-first search, reversed."""
    order, visited, stack = [], {root}, [(root, iter(graph.get(root, [])))]
    while stack:
        node, parents = stack[-1]
        parent = next(parents, None)
        if parent is None:
            stack.pop()
            order.append(node)
        elif parent not in visited:
            visited.add(parent)
            stack.append((parent, iter(graph.get(parent, []))))
    return order[::-1]


def backprop(local_grads, order):
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 1.0
    for node in order:
        for parent, local in local_grads.get(node, []):
            grads[parent] += grads[node] * local
    return grads


def test_checks_pass_correct_solutions(capsys):
    assert check_topological_sort(topo_sort_iterative)
    assert check_backprop(backprop)
    out = capsys.readouterr().out
    assert out.count("✓") == 2 and "✗" not in out


def _topo_recursive(graph, root):
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for parent in graph.get(node, []):
                visit(parent)
            order.append(node)

    visit(root)
    return order[::-1]


def _topo_duplicates(graph, root):
    out, stack = [root], [root]
    while stack:
        for parent in graph.get(stack.pop(), []):
            out.append(parent)
            stack.append(parent)
    return out


def _backprop_overwrite(local_grads, order):
    grads = {order[0]: 1.0}
    for node in order:
        for parent, local in local_grads.get(node, []):
            grads[parent] = grads[node] * local  # = instead of +=
    return grads


def test_checks_catch_typical_mistakes(capsys):
    assert not check_topological_sort(_topo_recursive)
    out = capsys.readouterr().out
    assert "case `a chain 5,000 nodes deep` raised RecursionError" in out
    assert "6 of 7 cases passed." in out

    assert not check_topological_sort(_topo_duplicates)
    out = capsys.readouterr().out
    assert "wrong result for `diamond" in out and "appear more than once" in out

    assert not check_backprop(_backprop_overwrite)
    out = capsys.readouterr().out
    assert "wrong result for `y = x * x at x = 3 (x used twice)`" in out
    assert "{'y': 1.0, 'x': 6.0}" in out and "{'y': 1.0, 'x': 3.0}" in out


def test_checks_say_not_done_yet_for_stubs(capsys):
    for check in (check_topological_sort, check_backprop):
        assert check(_todo) is False
        assert "not done yet" in capsys.readouterr().out


def test_topological_sort_rejects_wrong_orders(capsys):
    assert not check_topological_sort(
        lambda graph, root: list(reversed(topo_sort_iterative(graph, root))))
    assert "must come before" in capsys.readouterr().out
    assert not check_topological_sort(lambda graph, root: [root, *graph, "x"][:-1])
    assert "✗ topological sort" in capsys.readouterr().out


def _topo_breadth_first(graph, root):
    order, seen, queue = [], {root}, [root]
    while queue:
        node = queue.pop(0)
        order.append(node)
        for parent in graph.get(node, []):
            if parent not in seen:
                seen.add(parent)
                queue.append(parent)
    return order


def _topo_preorder(graph, root):
    order, seen, stack = [], set(), [root]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        stack.extend(graph.get(node, []))
    return order


def _topo_consumes_the_graph(graph, root):
    order, stack = [], [(root, False)]
    seen = set()
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        while graph.get(node):
            stack.append((graph[node].pop(), False))  # empties the lists as it goes
    return order[::-1]


def _topo_graphlib(graph, root):
    order = list(graphlib.TopologicalSorter(graph).static_order())[::-1]
    reachable, stack = {root}, [root]
    while stack:
        for parent in graph.get(stack.pop(), []):
            if parent not in reachable:
                reachable.add(parent)
                stack.append(parent)
    return [node for node in order if node in reachable]


def _backprop_no_upstream(local_grads, order):
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 1.0
    for node in order:
        for parent, local in local_grads.get(node, []):
            grads[parent] += local
    return grads


def _backprop_keys_order(local_grads, order):
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 1.0
    for node, pairs in local_grads.items():
        for parent, local in pairs:
            grads[parent] += grads[node] * local
    return grads


def _backprop_reversed(local_grads, order):
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 1.0
    for node in reversed(order):
        for parent, local in local_grads.get(node, []):
            grads[parent] += grads[node] * local
    return grads


def _backprop_root_zero(local_grads, order):
    grads = {node: 0.0 for node in order}
    for node in order:
        for parent, local in local_grads.get(node, []):
            grads[parent] += grads[node] * local
    return grads


def _backprop_consumes(local_grads, order):
    grads = {order[0]: 1.0}
    while order:
        node = order.pop(0)
        for parent, local in local_grads.get(node, []):
            grads[parent] = grads.get(parent, 0.0) + grads[node] * local
    return grads


def _backprop_leaves_only(local_grads, order):
    grads = backprop(local_grads, order)
    return {node: g for node, g in grads.items() if node not in local_grads}


# ------------------------------------------------------------------ my_backward
def topo_sort(graph, root):
    order, visited, stack = [], set(), [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        stack.extend((parent, False) for parent in graph.get(node, []) if parent not in visited)
    return order[::-1]


def graph_of(loss):
    graph, stack = {}, [loss.grad_fn]
    while stack:
        node = stack.pop()
        if node in graph:
            continue
        graph[node] = [n for n, _ in node.next_functions if n is not None]
        stack.extend(graph[node])
    return graph


def make_backward(overwrite=False, no_grad=True, order_fn=None, leaf_overwrite=False,
                  alias=False, in_place=False, call=False):
    """The right my_backward, or one with a typical mistake switched on (``call``: the
    nodes are called, ``node(grad)``, as in PyTorch, instead of ``node.apply(grad)``)."""

    def my_backward(loss):
        mode = minitorch.no_grad() if no_grad else minitorch.enable_grad()
        with mode:
            order = (order_fn or (lambda g, r: topo_sort(g, r)))(graph_of(loss), loss.grad_fn)
            grads = {loss.grad_fn: minitorch.ones_like(loss)}
            for node in order:
                grad = grads.pop(node, None)
                if grad is None:
                    continue
                if isinstance(node, AccumulateGrad):
                    leaf = node.variable
                    if alias:  # stores the gradient tensor itself, then adds in place
                        if leaf.grad is None:
                            leaf.grad = grad
                        else:
                            leaf.grad += grad
                    elif leaf.grad is None or leaf_overwrite:
                        leaf.grad = grad.clone()
                    else:
                        leaf.grad = leaf.grad + grad
                    continue
                outs = node(grad) if call else node.apply(grad)
                outs = outs if isinstance(outs, tuple) else (outs,)
                for (nxt, _), g in zip(node.next_functions, outs):
                    if nxt is None or g is None:
                        continue
                    if in_place and nxt in grads:  # adds into the tensor it was handed
                        grads[nxt] += g
                    else:
                        grads[nxt] = g if (overwrite or nxt not in grads) else grads[nxt] + g

    return my_backward


def test_my_backward_right(capsys):
    passed, out = _result(check_my_backward, make_backward(), capsys)
    assert passed and "all 10 cases passed" in out


def test_my_backward_right_when_it_calls_the_nodes_as_in_pytorch(capsys):
    passed, out = _result(check_my_backward, make_backward(call=True), capsys)
    assert passed and "all 10 cases passed" in out


def test_my_backward_calling_the_nodes_still_names_a_typical_mistake(capsys):
    passed, out = _result(check_my_backward, make_backward(call=True, overwrite=True), capsys)
    assert not passed and "must be *added*" in out


def test_my_backward_todo(capsys):
    passed, out = _result(check_my_backward, _todo, capsys)
    assert not passed and "not done yet" in out


def test_my_backward_overwrites_instead_of_summing(capsys):
    passed, out = _result(check_my_backward, make_backward(overwrite=True), capsys)
    assert not passed and "diamond" in out and "x.grad should be" in out


def test_my_backward_overwrites_leaf_grad(capsys):
    passed, out = _result(check_my_backward, make_backward(leaf_overwrite=True), capsys)
    assert not passed and "two calls in a row" in out


def test_my_backward_records_the_backward_pass(capsys):
    passed, out = _result(check_my_backward, make_backward(no_grad=False), capsys)
    assert not passed and "no_grad" in out


def test_my_backward_recursive_sort_fails_on_the_deep_chain(capsys):

    def recursive(graph, root):
        order, seen = [], set()

        def visit(node):
            if node in seen:
                return
            seen.add(node)
            for parent in graph.get(node, []):
                visit(parent)
            order.append(node)

        visit(root)
        return order[::-1]

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        passed, out = _result(check_my_backward, make_backward(order_fn=recursive), capsys)
    finally:
        sys.setrecursionlimit(limit)
    assert not passed and "2,000 ops deep" in out and "RecursionError" in out


def test_my_backward_breadth_first_order_is_wrong(capsys):
    """Breadth first is not a topological order: in the logistic loss, p = sigmoid(z) is
    reached through log(p) before 1 - p has sent its gradient, so dL/dp is incomplete."""

    def breadth_first(graph, root):
        order, seen, queue = [], {root}, [root]
        while queue:
            node = queue.pop(0)
            order.append(node)
            for parent in graph.get(node, []):
                if parent not in seen:
                    seen.add(parent)
                    queue.append(parent)
        return order

    passed, out = _result(check_my_backward, make_backward(order_fn=breadth_first), capsys)
    assert not passed and "logistic regression" in out and "w.grad should be" in out


def test_my_backward_calling_the_real_engine_is_refused(capsys):
    passed, out = _result(check_my_backward, lambda loss: loss.backward(retain_graph=True),
                          capsys)
    assert not passed and "ran the real engine" in out


def test_my_backward_without_leaves(capsys):
    def stops_early(loss):
        with minitorch.no_grad():
            order = topo_sort(graph_of(loss), loss.grad_fn)
            grads = {loss.grad_fn: minitorch.ones_like(loss)}
            for node in order:
                grad = grads.pop(node, None)
                if grad is None or isinstance(node, AccumulateGrad):
                    continue
                outs = node.apply(grad)
                outs = outs if isinstance(outs, tuple) else (outs,)
                for (nxt, _), g in zip(node.next_functions, outs):
                    if nxt is not None:
                        grads[nxt] = g

    passed, out = _result(check_my_backward, stops_early, capsys)
    assert not passed and "x.grad is still None" in out


def test_my_backward_does_not_touch_x_in_the_worked_example(capsys):
    """The worked example's x has requires_grad=False: its .grad must stay None."""
    loss, leaves = ch04_backward_engine._problems()[4][1]()
    make_backward()(loss)
    assert leaves["x"].grad is None and leaves["w"].grad is not None
    capsys.readouterr()



# ------------------------------------------------------------------ the in-place repair
def _run_repair(fn, capsys):
    passed = check_inplace_repair(fn)
    return passed, capsys.readouterr().out


def layer_loss_right(x, w):
    h = minitorch.sigmoid(x @ w)
    h = h * 2
    return h.sum()


def test_inplace_repair_out_of_place(capsys):
    passed, out = _run_repair(layer_loss_right, capsys)
    assert passed and "all 3 cases passed" in out


def test_inplace_repair_with_clone(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w).clone()
        h *= 2
        return h.sum()

    assert _run_repair(layer_loss, capsys)[0]


def test_inplace_todo(capsys):
    def layer_loss(x, w):
        raise NotImplementedError("your code here")

    passed, out = _run_repair(layer_loss, capsys)
    assert not passed and "not done yet" in out


def test_inplace_broken_original_fails(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w)
        h *= 2
        return h.sum()

    passed, out = _run_repair(layer_loss, capsys)
    assert not passed and "modified by an inplace operation" in out
    assert "still changed in place" in out


def test_inplace_detach_repair_fails(capsys):
    def layer_loss(x, w):
        h = minitorch.sigmoid(x @ w).detach()
        h *= 2
        return h.sum()

    passed, out = _run_repair(layer_loss, capsys)
    assert not passed and "no grad_fn" in out


def test_inplace_dropping_the_doubling_fails(capsys):
    def layer_loss(x, w):
        return minitorch.sigmoid(x @ w).sum()

    passed, out = _run_repair(layer_loss, capsys)
    assert not passed and "The loss should be" in out


def test_inplace_wrong_gradient_fails(capsys):
    def layer_loss(x, w):
        s = minitorch.sigmoid(x @ w)
        return (2 * s.detach() + 0 * s).sum() + (x @ w).sum() * 0.1 - (x @ w).sum().detach() * 0.1

    passed, out = _run_repair(layer_loss, capsys)
    assert not passed and "w.grad should be" in out


def test_inplace_no_grad_mode_left_on(capsys):
    from minitorch.autograd import grad_mode

    def layer_loss(x, w):
        grad_mode._state.enabled = False
        return minitorch.sigmoid(x @ w).sum() * 2

    passed, _ = _run_repair(layer_loss, capsys)
    assert not passed and grad_mode._state.enabled


def _still_in_place(x, w):
    h = minitorch.sigmoid(x @ w)
    h *= 2
    return h.sum()


def _repaired_by_detach(x, w):
    h = minitorch.sigmoid(x @ w).detach()
    h *= 2
    return h.sum()


def _doubling_dropped(x, w):
    return minitorch.sigmoid(x @ w).sum()


def _repair_through_data(x, w):
    h = minitorch.sigmoid(x @ w)
    h.data *= 2  # no version bump: backward runs, with the doubled values
    return h.sum()


def _repair_doubles_the_input(x, w):
    return minitorch.sigmoid(2 * (x @ w)).sum()


def _repair_under_no_grad(x, w):
    h = minitorch.sigmoid(x @ w)
    with minitorch.no_grad():
        h *= 2
    return h.sum()


def _repair_returns_a_number(x, w):
    h = minitorch.sigmoid(x @ w)
    h = h * 2
    return h.sum().item()


def _breadth_first(graph, root):
    order, seen, queue = [], {root}, [root]
    while queue:
        node = queue.pop(0)
        order.append(node)
        for parent in graph.get(node, []):
            if parent not in seen:
                seen.add(parent)
                queue.append(parent)
    return order


def _my_backward_stops_at_leaves(loss):
    with minitorch.no_grad():
        order = topo_sort(graph_of(loss), loss.grad_fn)
        grads = {loss.grad_fn: minitorch.ones_like(loss)}
        for node in order:
            grad = grads.pop(node, None)
            if grad is None or isinstance(node, AccumulateGrad):
                continue
            outs = node.apply(grad)
            outs = outs if isinstance(outs, tuple) else (outs,)
            for (nxt, _), g in zip(node.next_functions, outs):
                if nxt is not None:
                    grads[nxt] = g


# second adversarial review: wrong answers that passed the checks before
def _backprop_keys_reversed(local_grads, order):
    """Goes through local_grads' keys from the last one (as if the dict were leaves first):
    a topological order on every graph the check had, by chance."""
    grads = {node: 0.0 for node in order}
    grads[order[0]] = 1.0
    for node in reversed(local_grads):
        for parent, local in local_grads[node]:
            grads[parent] += grads[node] * local
    return grads


def _backprop_skips_zero_locals(local_grads, order):
    """Skips a local derivative 0 (nothing to pass on): a node reached only that way never
    gets its gradient 0."""
    grads = {order[0]: 1.0}
    for node in order:
        if node not in grads:  # nothing reached it
            continue
        for parent, local in local_grads.get(node, []):
            if local == 0:
                continue
            grads[parent] = grads.get(parent, 0.0) + grads[node] * local
    return grads


def _my_backward_every_path(loss):
    """Passes each gradient on as soon as it arrives, along every path: the right .grad (the
    chain rule is linear), but one apply per path, 2**n of them on a graph of n squarings."""
    with minitorch.no_grad():
        stack = [(loss.grad_fn, minitorch.ones_like(loss))]
        while stack:
            node, grad = stack.pop()
            if isinstance(node, AccumulateGrad):
                leaf = node.variable
                leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
                continue
            outs = node.apply(grad)
            outs = outs if isinstance(outs, tuple) else (outs,)
            stack.extend((nxt, g) for (nxt, _), g in zip(node.next_functions, outs)
                         if nxt is not None and g is not None)


def _kahn(graph, root):
    """Kahn's algorithm on the reachable nodes: another right topological sort."""
    reach, stack = {root}, [root]
    while stack:
        for parent in graph.get(stack.pop(), []):
            if parent not in reach:
                reach.add(parent)
                stack.append(parent)
    uses = dict.fromkeys(reach, 0)
    for node in reach:
        for parent in graph.get(node, []):
            uses[parent] += 1
    order, ready = [], [root]
    while ready:
        node = ready.pop()
        order.append(node)
        for parent in graph.get(node, []):
            uses[parent] -= 1
            if uses[parent] == 0:
                ready.append(parent)
    return order


def _my_backward_adds_in_place_into_leaf_grad(loss):
    """Right: a copy the first time, then `+=` into the leaf's own .grad (as PyTorch does)."""
    with minitorch.no_grad():
        order = topo_sort(graph_of(loss), loss.grad_fn)
        grads = {loss.grad_fn: minitorch.tensor(1.0)}  # the loss is 0-d: tensor(1.) will do
        for node in order:
            grad = grads.pop(node, None)
            if grad is None:
                continue
            if isinstance(node, AccumulateGrad):
                if node.variable.grad is None:
                    node.variable.grad = grad.clone()
                else:
                    node.variable.grad += grad
                continue
            outs = node.apply(grad)
            outs = outs if isinstance(outs, tuple) else (outs,)
            for (nxt, _), g in zip(node.next_functions, outs):
                if nxt is not None and g is not None:
                    grads[nxt] = g if nxt not in grads else grads[nxt] + g


@pytest.mark.parametrize("check,right", [
    (check_topological_sort, _kahn),
    (check_my_backward, _my_backward_adds_in_place_into_leaf_grad),
], ids=["topo_sort: Kahn's algorithm", "my_backward: += into .grad, tensor(1.) to start"])
def test_other_right_answers_pass(check, right):
    assert run(check, right).passed


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_topological_sort": (check_topological_sort, topo_sort_iterative),
    "check_backprop": (check_backprop, backprop),
    "check_my_backward": (check_my_backward, make_backward()),
    "check_inplace_repair": (check_inplace_repair, layer_loss_right),
}

WRONG = [
    ("check_topological_sort", _topo_recursive, "recursion on a deep graph",
     ["RecursionError", "5,000"]),
    ("check_topological_sort", _topo_duplicates, "no visited set", ["more than once"]),
    ("check_topological_sort", _topo_breadth_first, "a breadth-first walk with a visited set",
     ["two paths of different lengths", "breadth-first walk reaches the nodes"]),
    ("check_topological_sort", _topo_preorder, "a depth-first pre-order",
     ["(pre-order)"]),
    ("check_topological_sort", lambda g, r: topo_sort_iterative(g, r)[::-1],
     "leaves first (not reversed)", ["must come before", "(The root comes first.)"]),
    ("check_topological_sort", _topo_consumes_the_graph, "pops the graph's lists empty",
     ["changed its input"]),
    ("check_topological_sort", _topo_graphlib, "graphlib.TopologicalSorter",
     ["called `graphlib.TopologicalSorter`", "answer key"]),
    ("check_backprop", _backprop_overwrite, "= instead of +=",
     ["used twice", "assigning (`=`) replaces"]),
    ("check_backprop", _backprop_no_upstream, "adds the local derivative alone",
     ["the node's own gradient times the local derivative"]),
    ("check_backprop", _backprop_keys_order, "goes through local_grads' keys, not order",
     ["order of `local_grads`' keys"]),
    ("check_backprop", _backprop_reversed, "goes through order from the end",
     ["root first, as given"]),
    ("check_backprop", _backprop_root_zero, "the root's gradient never set to 1",
     ["d root / d root = 1"]),
    ("check_backprop", _backprop_consumes, "pops the order list empty",
     ["changed its input"]),
    ("check_backprop", _backprop_leaves_only, "returns the leaves only",
     ["is missing", "every node in `order`"]),
    ("check_my_backward", make_backward(overwrite=True), "missing accumulation",
     ["x.grad should be", "must be *added*"]),
    ("check_my_backward", make_backward(leaf_overwrite=True),
     "overwrites .grad instead of adding", ["two calls in a row", "replaced `.grad`"]),
    ("check_my_backward", make_backward(no_grad=False), "records the backward pass",
     ["no_grad"]),
    ("check_my_backward", make_backward(order_fn=_breadth_first), "breadth-first order",
     ["logistic regression", "w.grad should be", "not topological"]),
    ("check_my_backward", make_backward(in_place=True), "+= into a gradient handed on",
     ["x.grad should be tensor(7.); got tensor(10.)", "changed after it was handed on"]),
    ("check_my_backward", make_backward(alias=True), "stores the shared gradient tensor",
     ["two leaves added", "one and the same tensor"]),
    ("check_my_backward", lambda loss: loss.backward(retain_graph=True), "the real engine",
     ["ran the real engine"]),
    ("check_backprop", _backprop_keys_reversed, "goes through local_grads' keys from the last",
     ["keys in no useful order", "order of `local_grads`' keys"]),
    ("check_backprop", _backprop_skips_zero_locals, "leaves out a node reached through 0 only",
     ["'d' is missing"]),
    ("check_my_backward", _my_backward_every_path, "passes gradients along every path",
     ["2**40 paths", "apply of one node", "each once"]),
    ("check_my_backward", _my_backward_stops_at_leaves, "never writes .grad",
     ["x.grad is still None"]),
    ("check_inplace_repair", _still_in_place, "still in place",
     ["modified by an inplace operation", "still changed in place"]),
    ("check_inplace_repair", _repaired_by_detach, "detach() hides the error",
     ["no grad_fn"]),
    ("check_inplace_repair", _doubling_dropped, "the doubling dropped",
     ["The loss should be"]),
    ("check_inplace_repair", _repair_through_data, "doubled through .data",
     ["behind the version counter's back"]),
    ("check_inplace_repair", _repair_doubles_the_input, "doubles sigmoid's input",
     ["doubled the input of sigmoid"]),
    ("check_inplace_repair", _repair_under_no_grad, "in place under no_grad",
     ["still changed in place", "under `no_grad` too"]),
    ("check_inplace_repair", _repair_returns_a_number, "returns loss.item()",
     ["one-element tensor"]),
]

GIVEAWAYS = {
    "check_topological_sort": ["order[::-1]", "stack.append((node, True))"],
    "check_backprop": ["grads[parent] +="],
    "check_my_backward": ["node.apply(grad)) ", "node(grad)) ", "ones_like(loss)", "zip("],
    "check_inplace_repair": ["h = h * 2", "(2 * h).sum()"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed


def test_my_backward_names_topo_sort_when_it_is_the_blank_piece():
    def blank(graph, root):
        raise NotImplementedError("your code here")

    result = run(check_my_backward, make_backward(order_fn=blank))
    assert result.status == "todo"
    assert "`blank`" in result.text and "`my_backward`" not in result.text

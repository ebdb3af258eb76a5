"""Tests for the tensor-based checks of chapters 03, 04 and 06 (logistic regression by autograd,
my_backward, zero_grads and my_no_grad).

For each check: the right solution passes, typical wrong solutions fail with the text a learner
needs, and an unfinished stub (NotImplementedError) is reported as "not done yet".
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

import minitorch
from minitorch.autograd import grad_mode
from minitorch.autograd.function import AccumulateGrad
from minitorch.exercises import ch04_backward_engine
from minitorch.exercises.ch03_backward import check_logistic_autograd
from minitorch.exercises.ch04_backward_engine import check_my_backward
from minitorch.exercises.ch06_no_grad import check_no_grad_context, check_zero_grads


def _result(check, fn, capsys):
    """Run a check; return (passed, printed text)."""
    passed = check(fn)
    return passed, capsys.readouterr().out


def _todo(*args, **kwargs):
    raise NotImplementedError("your code here")


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


# ------------------------------------------------------------------ chapter 3: logistic
def logistic_autograd(w, b, x, y):
    w = minitorch.tensor(w, requires_grad=True)
    b = minitorch.tensor(b, requires_grad=True)
    p = minitorch.sigmoid(w * x + b)
    loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
    loss.backward()
    return w.grad, b.grad


def test_logistic_autograd_right(capsys):
    passed, out = _result(check_logistic_autograd, logistic_autograd, capsys)
    assert passed and "all 4 cases passed" in out


def test_logistic_autograd_todo(capsys):
    passed, out = _result(check_logistic_autograd, _todo, capsys)
    assert not passed and "not done yet" in out


def test_logistic_autograd_without_requires_grad(capsys):
    def forgot(w, b, x, y):
        w, b = minitorch.tensor(w), minitorch.tensor(b)
        p = minitorch.sigmoid(w * x + b)
        loss = -(y * minitorch.log(p) + (1 - y) * minitorch.log(1 - p))
        loss.backward()
        return w.grad, b.grad

    passed, out = _result(check_logistic_autograd, forgot, capsys)
    assert not passed and "does not require grad" in out


def test_logistic_autograd_by_hand_is_not_autograd(capsys):
    import math

    def by_hand(w, b, x, y):
        p = 1 / (1 + math.exp(-(w * x + b)))
        return (p - y) * x, p - y

    passed, out = _result(check_logistic_autograd, by_hand, capsys)
    assert not passed and "`backward()` never ran" in out


def test_logistic_autograd_wrong_loss(capsys):
    def squared_error(w, b, x, y):
        w = minitorch.tensor(w, requires_grad=True)
        b = minitorch.tensor(b, requires_grad=True)
        loss = (minitorch.sigmoid(w * x + b) - y) ** 2
        loss.backward()
        return w.grad, b.grad

    passed, out = _result(check_logistic_autograd, squared_error, capsys)
    assert not passed and "w.grad should be" in out


def test_logistic_autograd_returns_one_value(capsys):
    def only_w(w, b, x, y):
        return logistic_autograd(w, b, x, y)[0]

    passed, out = _result(check_logistic_autograd, only_w, capsys)
    assert not passed and "Return the pair" in out


# ------------------------------------------------------------------ chapter 3: my_backward
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


def make_backward(overwrite=False, no_grad=True, order_fn=None, leaf_overwrite=False):
    """The right my_backward, or one with a typical mistake switched on."""

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
                    if leaf.grad is None or leaf_overwrite:
                        leaf.grad = grad.clone()
                    else:
                        leaf.grad = leaf.grad + grad
                    continue
                outs = node.apply(grad)
                outs = outs if isinstance(outs, tuple) else (outs,)
                for (nxt, _), g in zip(node.next_functions, outs):
                    if nxt is None or g is None:
                        continue
                    grads[nxt] = g if (overwrite or nxt not in grads) else grads[nxt] + g

    return my_backward


def test_my_backward_right(capsys):
    passed, out = _result(check_my_backward, make_backward(), capsys)
    assert passed and "all 7 cases passed" in out


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
    import sys

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


# ------------------------------------------------------------------ chapter 4: zero_grads
def zero_grads(params):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()


def test_zero_grads_right(capsys):
    passed, out = _result(check_zero_grads, zero_grads, capsys)
    assert passed and "all 4 cases passed" in out


def test_zero_grads_set_to_none_is_right_too(capsys):
    def set_to_none(params):
        for p in params:
            p.grad = None

    passed, out = _result(check_zero_grads, set_to_none, capsys)
    assert passed


def test_zero_grads_todo(capsys):
    passed, out = _result(check_zero_grads, _todo, capsys)
    assert not passed and "not done yet" in out


def test_zero_grads_zeroes_the_weights(capsys):
    def weights(params):
        with minitorch.no_grad():
            for p in params:
                p.zero_()

    passed, out = _result(check_zero_grads, weights, capsys)
    assert not passed and "clear `p.grad`, not `p`" in out


def test_zero_grads_without_none_check(capsys):
    def no_none_check(params):
        for p in params:
            p.grad.zero_()

    passed, out = _result(check_zero_grads, no_none_check, capsys)
    assert not passed and "AttributeError" in out and "parameters whose .grad is still None" in out


def test_zero_grads_rebinding_a_loop_variable(capsys):
    def rebinding(params):
        for p in params:
            g = p.grad
            g = minitorch.zeros(1)  # noqa: F841  (the mistake: p.grad is unchanged)

    passed, out = _result(check_zero_grads, rebinding, capsys)
    assert not passed and "neither None nor all zeros" in out


def test_zero_grads_freezing_is_not_clearing(capsys):
    def freezes(params):
        for p in params:
            p.grad = None
            p.requires_grad_(False)

    passed, out = _result(check_zero_grads, freezes, capsys)
    assert not passed and "no longer requires grad" in out


# ------------------------------------------------------------------ chapter 4: my_no_grad
class my_no_grad:  # noqa: N801
    def __enter__(self):
        self.prev = grad_mode._state.enabled
        grad_mode._state.enabled = False

    def __exit__(self, exc_type, exc_value, traceback):
        grad_mode._state.enabled = self.prev


def test_no_grad_right(capsys):
    passed, out = _result(check_no_grad_context, my_no_grad, capsys)
    assert passed and "all 5 cases passed" in out


def test_no_grad_todo(capsys):
    class todo:  # noqa: N801
        def __enter__(self):
            raise NotImplementedError("your code here")

        def __exit__(self, *exc):
            raise NotImplementedError("your code here")

    passed, out = _result(check_no_grad_context, todo, capsys)
    assert not passed and "not done yet" in out


def test_no_grad_always_turns_recording_on(capsys):
    class always_on:  # noqa: N801
        def __enter__(self):
            grad_mode._state.enabled = False

        def __exit__(self, *exc):
            grad_mode._state.enabled = True

    passed, out = _result(check_no_grad_context, always_on, capsys)
    assert not passed and "restore the *previous* mode" in out


def test_no_grad_never_restores(capsys):
    class never_restores:  # noqa: N801
        def __enter__(self):
            grad_mode._state.enabled = False

        def __exit__(self, *exc):
            pass

    passed, out = _result(check_no_grad_context, never_restores, capsys)
    assert not passed and "not back on after the block" in out


def test_no_grad_swallows_exceptions(capsys):
    class swallows(my_no_grad):  # noqa: N801
        def __exit__(self, *exc):
            super().__exit__(*exc)
            return True

    passed, out = _result(check_no_grad_context, swallows, capsys)
    assert not passed and "swallow" in out


def test_no_grad_generator_without_finally(capsys):
    @contextmanager
    def fragile():
        prev = grad_mode._state.enabled
        grad_mode._state.enabled = False
        yield
        grad_mode._state.enabled = prev

    passed, out = _result(check_no_grad_context, fragile, capsys)
    assert not passed and "the block raises an exception" in out


def test_no_grad_does_nothing(capsys):
    class nothing:  # noqa: N801
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

    passed, out = _result(check_no_grad_context, nothing, capsys)
    assert not passed and "Recording is still on inside the block" in out

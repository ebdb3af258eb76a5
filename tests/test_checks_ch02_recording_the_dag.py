"""Tests for the checks of chapter 02 (Recording the DAG): ``Mul``, ``find_leaves`` and the
dynamic-graph prediction.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import pytest
from _checks import assert_fails_naming, run, wrong_ids

import minitorch
from minitorch.exercises.ch02_recording_the_dag import (
    check_dynamic_graph,
    check_find_leaves,
    check_mul,
    dynamic_f,
)


def _output(capsys) -> str:
    return capsys.readouterr().out


# ------------------------------------------------------------------ Mul
class MulRight(minitorch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


def test_mul_right_answer_passes(capsys):
    assert check_mul(MulRight)
    assert _output(capsys) == "✓ Mul: all 12 cases passed.\n"


def test_mul_not_done_yet(capsys):
    class Mul(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            raise NotImplementedError("your code here")

        @staticmethod
        def backward(ctx, grad):
            raise NotImplementedError("your code here")

    assert not check_mul(Mul)
    out = _output(capsys)
    assert out.startswith("⏳ Mul: not done yet.")
    assert "1 of 12 cases passed" in out  # only "is a subclass of Function"


def test_mul_backward_not_done_yet(capsys):
    class Mul(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            raise NotImplementedError("your code here")

    assert not check_mul(Mul)
    out = _output(capsys)
    assert out.startswith("⏳ Mul: not done yet.")
    assert "4 of 12 cases passed" in out


def test_mul_swapped_gradients_fail(capsys):
    class Mul(MulRight):
        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * a, grad * b

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "✗ Mul: wrong result for `backward of Mul.apply(a, b).sum()" in out
    assert "`a.grad` and `b.grad` are swapped" in out
    assert "grad * b" not in out  # the hint names the concept, not the code


def test_mul_ignoring_upstream_gradient_fails(capsys):
    class Mul(MulRight):
        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return b, a  # forgot to multiply by grad

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "wrong result for `backward with an upstream gradient" in out
    assert "finite differences give" not in out  # the first failing case is described


def test_mul_without_save_for_backward_fails(capsys):
    class Mul(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.a, ctx.b = a, b
            return a * b

        @staticmethod
        def backward(ctx, grad):
            return grad * ctx.b, grad * ctx.a

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "what forward saved" in out
    assert "Nothing was saved: save the inputs in `forward`" in out
    assert "save_for_backward(a, b)" not in out  # names the mistake, not the answer


def test_mul_saving_nothing_is_explained(capsys):
    class Mul(minitorch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "10 of 12 cases passed" not in out
    assert "Nothing was saved" in out


def test_mul_returning_one_gradient_fails(capsys):
    class Mul(MulRight):
        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b

    assert not check_mul(Mul)
    assert "returned an incorrect number of gradients" in _output(capsys)


def test_mul_wrong_forward_fails(capsys):
    class Mul(MulRight):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a + b

    assert not check_mul(Mul)
    assert "wrong result for `forward: Mul.apply([1, 2, 3], [4, 5, 6])`" in _output(capsys)


def test_mul_that_is_not_a_function_fails(capsys):
    class Mul:  # forgot the base class
        @staticmethod
        def apply(a, b):
            return a * b

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "must subclass `autograd.Function`" in out
    assert "autograd.Parameter" in out


def test_mul_finite_difference_case_catches_a_wrong_formula(capsys):
    class Mul(MulRight):
        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * a * 1.01  # slightly off

    assert not check_mul(Mul)
    out = _output(capsys)
    assert "b.grad" in out


# ------------------------------------------------------------------ find_leaves
def find_leaves_right(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def test_find_leaves_right_answer_passes(capsys):
    assert check_find_leaves(find_leaves_right)
    assert _output(capsys) == "✓ find_leaves: all 9 cases passed.\n"


def test_find_leaves_not_done_yet(capsys):
    def stub(t):
        raise NotImplementedError("your code here")

    assert not check_find_leaves(stub)
    assert _output(capsys).startswith("⏳ find_leaves: not done yet.")


def test_find_leaves_without_seen_set_lists_duplicates(capsys):
    def no_seen(t):
        if t.grad_fn is None:
            return [t] if t.requires_grad else []
        leaves, stack = [], [t.grad_fn]
        while stack:
            node = stack.pop()
            if hasattr(node, "variable"):
                leaves.append(node.variable)
            stack.extend(n for n, _ in node.next_functions if n is not None)
        return leaves

    assert not check_find_leaves(no_seen)
    assert "x appears more than once" in _output(capsys)


def test_find_leaves_recursive_fails_on_the_deep_chain(capsys):
    def recursive(t):
        found = []

        def visit(node):
            if node is None or any(node is f for f in found):
                return
            if hasattr(node, "variable"):
                if not any(node.variable is v for v in found):
                    found.append(node.variable)
                return
            for n, _ in node.next_functions:
                visit(n)

        if t.grad_fn is None:
            return [t] if t.requires_grad else []
        visit(t.grad_fn)
        return found

    assert not check_find_leaves(recursive)
    out = _output(capsys)
    assert "a chain of 3,000 multiplications" in out
    assert "RecursionError" in out
    assert "7 of 9 cases passed" in out  # the 2**40 paths stop it too


def test_find_leaves_returning_non_leaves_is_explained(capsys):
    def wrong(t):  # returns the tensor itself
        return [t]

    assert not check_find_leaves(wrong)
    assert "is not a leaf that requires grad" in _output(capsys)


def test_find_leaves_forgetting_the_leaf_case_fails(capsys):
    def no_leaf_case(t):
        if t.grad_fn is None:
            return []
        return find_leaves_right(t)

    assert not check_find_leaves(no_leaf_case)
    assert "w itself" in _output(capsys)


def test_find_leaves_returning_none_is_explained(capsys):
    assert not check_find_leaves(lambda t: None)
    assert "did you forget a `return`?" in _output(capsys)



# ------------------------------------------------------------------ the dynamic graphs
DYNAMIC_RIGHT = {1.0: ["MulBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad"],
         0.25: ["MulBackward0"] * 4 + ["NegBackward0", "MulBackward0", "AccumulateGrad"]}


def predicted_nodes_right():
    return DYNAMIC_RIGHT


def _run_dynamic(predicted, capsys):
    passed = check_dynamic_graph(lambda: predicted)
    return passed, capsys.readouterr().out


def test_dynamic_graph_right(capsys):
    passed, out = _run_dynamic(DYNAMIC_RIGHT, capsys)
    assert passed and "all 2 cases passed" in out


def test_dynamic_graph_reference_is_the_real_graph():
    out = dynamic_f(minitorch.tensor(0.25), minitorch.tensor(2.0, requires_grad=True))
    assert out.item() == -40.5


def test_dynamic_graph_todo(capsys):
    def todo():
        raise NotImplementedError("your code here")

    assert "not done yet" in (check_dynamic_graph(todo), capsys.readouterr().out)[1]


def test_dynamic_graph_same_graph_for_both_fails(capsys):
    passed, _ = _run_dynamic({1.0: DYNAMIC_RIGHT[1.0], 0.25: DYNAMIC_RIGHT[1.0]}, capsys)
    assert not passed


def test_dynamic_graph_wrong_loop_count_fails(capsys):
    wrong = {**DYNAMIC_RIGHT, 0.25: ["MulBackward0"] * 3 + DYNAMIC_RIGHT[0.25][4:]}
    passed, out = _run_dynamic(wrong, capsys)
    assert not passed and "loop" in out


def test_dynamic_graph_leaf_first_order_fails(capsys):
    passed, out = _run_dynamic({k: v[::-1] for k, v in DYNAMIC_RIGHT.items()}, capsys)
    assert not passed and "root" in out


def test_dynamic_graph_missing_leaf_fails(capsys):
    passed, out = _run_dynamic({k: v[:-1] for k, v in DYNAMIC_RIGHT.items()}, capsys)
    assert not passed and "AccumulateGrad" in out


def test_dynamic_graph_wrong_branch_fails(capsys):
    wrong = {**DYNAMIC_RIGHT,
             1.0: ["MulBackward0", "NegBackward0", "MulBackward0", "AccumulateGrad"]}
    passed, out = _run_dynamic(wrong, capsys)
    assert not passed and "branch of the `if`" in out


def test_dynamic_graph_failure_does_not_show_the_answer(capsys):
    passed, out = _run_dynamic({1.0: DYNAMIC_RIGHT[0.25], 0.25: DYNAMIC_RIGHT[1.0]}, capsys)
    assert not passed and "ExpBackward0" not in out.split("got:")[0]


def test_dynamic_graph_reference_matches_pytorch():
    torch = __import__("pytest").importorskip("torch", reason="PyTorch is not installed")
    from minitorch.exercises.ch02_recording_the_dag import _chain_names

    for x in (1.0, 0.25):
        w = torch.tensor(2.0, requires_grad=True)
        mine = _chain_names(dynamic_f(minitorch.tensor(x),
                                      minitorch.tensor(2.0, requires_grad=True)))
        assert _chain_names(dynamic_f(torch.tensor(x), w)) == mine == DYNAMIC_RIGHT[x]


def test_dynamic_graph_accepts_the_names_as_name_prints_them(capsys):
    """`.name()` prints the leaf's node as "torch::autograd::AccumulateGrad": a learner who
    copies that spelling is right."""
    printed = {x: [n if n != "AccumulateGrad" else "torch::autograd::AccumulateGrad"
                   for n in names] for x, names in DYNAMIC_RIGHT.items()}
    passed, out = _run_dynamic(printed, capsys)
    assert passed, out


# ------------------------------------------------------------------ more wrong answers
class _MulSwapped(MulRight):
    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * a, grad * b


class _MulWrongSign(MulRight):
    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return -grad * b, -grad * a


class _MulNoUpstream(MulRight):
    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return b, a


class _MulDividesTheOutput(minitorch.autograd.Function):
    """d(ab)/da = ab / a: right, except where a = 0."""

    @staticmethod
    def forward(ctx, a, b):
        out = a * b
        ctx.save_for_backward(a, b)
        ctx.out = out
        return out

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * ctx.out / a, grad * ctx.out / b


class _MulCopyPaste(MulRight):
    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * b


class _MulForwardInPlace(minitorch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a.clone(), b)
        a *= b
        return a

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b, grad * a


class _MulOnAttributes(minitorch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = a, b
        return a * b

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.b, grad * ctx.a


class _MulOneGradient(MulRight):
    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * b


class _MulNotAFunction:
    @staticmethod
    def apply(a, b):
        return a * b


def _leaves_without_seen(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_without_seen_nodes(t):  # no duplicate leaves, but every path walked
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable") and not any(v is node.variable for v in leaves):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_compared_with_in(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            if node.variable not in leaves:
                leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_compared_with_equal(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, stack = [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            if not any(minitorch.equal(leaf, node.variable) for leaf in leaves):
                leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_without_skipping_none(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions)
    return leaves


def _leaves_the_nodes(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if hasattr(node, "variable"):
            leaves.append(node)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_first_input_only(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, node = [], t.grad_fn
    while node is not None:
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        inputs = [n for n, _ in node.next_functions if n is not None]
        node = inputs[0] if inputs else None
    return leaves


def _leaves_by_name(t):
    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    leaves, seen, stack = [], set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node.name() == "AccumulateGrad":
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return leaves


def _leaves_no_leaf_case(t):
    if t.grad_fn is None:
        return []
    return find_leaves_right(t)


def _predict_other_branch():  # x = 1.0 predicted as if the else branch ran
    return {1.0: ["MulBackward0"] * 3 + ["NegBackward0", "MulBackward0", "AccumulateGrad"],
            0.25: DYNAMIC_RIGHT[0.25]}


def _predict_one_pass_short():
    return {1.0: DYNAMIC_RIGHT[1.0], 0.25: ["MulBackward0"] * 3 + DYNAMIC_RIGHT[0.25][4:]}


def _predict_leaf_first():
    return {x: names[::-1] for x, names in DYNAMIC_RIGHT.items()}


def _predict_forward_names():
    return {1.0: ["Mul", "Exp", "Mul", "AccumulateGrad"],
            0.25: ["Mul"] * 4 + ["Neg", "Mul", "AccumulateGrad"]}


def _predict_without_the_number():
    return {x: [n.rstrip("0") for n in names] for x, names in DYNAMIC_RIGHT.items()}


def _predict_with_abs():
    return {1.0: ["MulBackward0", "AbsBackward0", "ExpBackward0", "MulBackward0",
                  "AccumulateGrad"], 0.25: DYNAMIC_RIGHT[0.25]}


def _predict_without_the_leaf():
    return {x: names[:-1] for x, names in DYNAMIC_RIGHT.items()}


def _predict_by_running_it():
    out = {}
    for x in (1.0, 0.25):
        w = minitorch.tensor(2.0, requires_grad=True)
        node, names = dynamic_f(minitorch.tensor(x), w).grad_fn, []
        while node is not None:
            names.append(node.name())
            inputs = [n for n, _ in node.next_functions if n is not None]
            node = inputs[0] if inputs else None
        out[x] = names
    return out


# second adversarial review: a wrong answer that passed the check before
class _MulThroughAList(MulRight):
    """Rebuilds the product from Python numbers: the default dtype, float32, for float64
    inputs (every value rounded to 7 digits)."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return minitorch.tensor((a * b).tolist())


class _MulNeedsInputGrad(MulRight):
    """Right: a gradient only for the inputs that need one."""

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if ctx.needs_input_grad[0] else None,
                grad * a if ctx.needs_input_grad[1] else None)


def _leaves_from_walk(t):
    """The chapter's own `walk` lists the leaves already: the answer key."""
    from minitorch.autograd.graph import walk

    if t.grad_fn is None:
        return [t] if t.requires_grad else []
    return walk(t).leaves


def test_mul_alternative_right_answer_passes():
    assert run(check_mul, _MulNeedsInputGrad).passed


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_mul": (check_mul, MulRight),
    "check_find_leaves": (check_find_leaves, find_leaves_right),
    "check_dynamic_graph": (check_dynamic_graph, predicted_nodes_right),
}

WRONG = [
    ("check_mul", _MulSwapped, "swapped gradients", ["`a.grad` and `b.grad` are swapped"]),
    ("check_mul", _MulWrongSign, "wrong sign", ["wrong sign"]),
    ("check_mul", _MulNoUpstream, "ignores the upstream gradient",
     ["multiply them by the upstream gradient"]),
    ("check_mul", _MulDividesTheOutput, "grad * out / a (breaks at zero)",
     ["NaN where an input is 0", "zeros and negatives"]),
    ("check_mul", _MulCopyPaste, "grad * b for both inputs",
     ["`b.grad` is grad times b itself"]),
    ("check_mul", _MulForwardInPlace, "forward multiplies its input in place",
     ["changed its input `a` in place"]),
    ("check_mul", _MulOnAttributes, "ctx.a = a instead of save_for_backward",
     ["Nothing was saved"]),
    ("check_mul", _MulOneGradient, "one gradient for two inputs",
     ["incorrect number of gradients"]),
    ("check_mul", _MulThroughAList, "the product rebuilt from a list (float32)",
     ["returned a float32 tensor for two float64 inputs", "multiply the tensors themselves"]),
    ("check_mul", _MulNotAFunction, "not an autograd.Function",
     ["must subclass `autograd.Function`"]),
    ("check_find_leaves", _leaves_without_seen, "no seen set", ["appears more than once"]),
    ("check_find_leaves", _leaves_without_seen_nodes, "dedups the leaves, walks every path",
     ["came back to the same node", "keep a `seen` set"]),
    ("check_find_leaves", _leaves_compared_with_in, "`in` on tensors",
     ["compared tensors", "element by element"]),
    ("check_find_leaves", _leaves_compared_with_equal, "skips a leaf equal to one found",
     ["a and b hold the same value", "Two equal tensors can be different leaves"]),
    ("check_find_leaves", _leaves_without_skipping_none, "does not skip (None, 0)",
     ["`(None, 0)`", "Skip"]),
    ("check_find_leaves", _leaves_the_nodes, "returns the AccumulateGrad nodes",
     ["`AccumulateGrad` nodes themselves"]),
    ("check_find_leaves", _leaves_first_input_only, "follows the first input only",
     ["is missing", "every entry of `next_functions`"]),
    ("check_find_leaves", _leaves_by_name, "name() == 'AccumulateGrad' never matches",
     ["found no leaf at all", "torch::autograd::AccumulateGrad"]),
    ("check_find_leaves", _leaves_no_leaf_case, "forgets that t may be a leaf",
     ["it is a leaf itself"]),
    ("check_find_leaves", lambda t: None, "forgot return", ["did you forget a `return`?"]),
    ("check_find_leaves", _leaves_from_walk, "the chapter's walk(t).leaves",
     ["called `minitorch.autograd.graph.walk`", "answer key"]),
    ("check_dynamic_graph", _predict_other_branch, "the nodes of the other branch",
     ["branch of the `if`", "x = 1.0"]),
    ("check_dynamic_graph", _predict_one_pass_short, "one loop pass too few",
     ["loop's passes", "x = 0.25"]),
    ("check_dynamic_graph", _predict_leaf_first, "listed from the leaf up",
     ["starts at the leaf"]),
    ("check_dynamic_graph", _predict_without_the_leaf, "no AccumulateGrad at the end",
     ["AccumulateGrad"]),
    ("check_dynamic_graph", _predict_forward_names, "the forward operations' names",
     ["is not a node name"]),
    ("check_dynamic_graph", _predict_without_the_number, "MulBackward without its 0",
     ["end with a number"]),
    ("check_dynamic_graph", _predict_with_abs, "the condition's abs() in the chain",
     ["AbsBackward0", "branch of its own"]),
    ("check_dynamic_graph", _predict_by_running_it, "runs dynamic_f instead of predicting",
     ["called `minitorch", "without running it"]),
]

GIVEAWAYS = {
    "check_mul": ["grad * b", "save_for_backward(a, b)"],
    "check_find_leaves": ["seen.add(node)", "if node in seen"],
    "check_dynamic_graph": ["ExpBackward0\", \"MulBackward0", "\"MulBackward0\"] * 4"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed


@pytest.mark.parametrize("check", [check_mul, check_find_leaves, check_dynamic_graph])
def test_checks_never_raise_on_garbage(check, capsys):
    assert check(None) is False
    assert "✗" in _output(capsys)

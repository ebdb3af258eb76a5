"""Tests for the checks of chapters 01 and 02: right answers pass, typical mistakes fail with
feedback that names the mistake, and stubs report "not done yet" instead of an error."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch
from minitorch.exercises.ch01_tensors import check_broadcast_shape, check_my_tensor, show_broadcast
from minitorch.exercises.ch02_recording_the_dag import check_find_leaves, check_mul


def _output(capsys) -> str:
    return capsys.readouterr().out


# ------------------------------------------------------------------ 01: broadcast_shape
def broadcast_shape_right(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"cannot broadcast {x} and {y}")
        out.append(y if x == 1 else x)
    return tuple(out)


def test_broadcast_shape_right_answer_passes(capsys):
    assert check_broadcast_shape(broadcast_shape_right)
    assert _output(capsys) == "✓ broadcast_shape: all 12 cases passed.\n"


def test_broadcast_shape_agrees_with_minitorch():
    for a, b in [((3, 1), (4,)), ((5, 1, 4), (3, 1)), ((), (2,)), ((0,), (1,))]:
        result = minitorch.zeros(*a) + minitorch.zeros(*b)
        assert broadcast_shape_right(a, b) == tuple(result.shape)


def test_broadcast_shape_list_result_is_accepted(capsys):
    assert check_broadcast_shape(lambda a, b: list(broadcast_shape_right(a, b)))


def test_broadcast_shape_not_done_yet(capsys):
    def stub(a, b):
        raise NotImplementedError("your code here")

    assert not check_broadcast_shape(stub)
    out = _output(capsys)
    assert out.startswith("⏳ broadcast_shape: not done yet.")
    assert "0 of 12 cases passed" in out


def test_broadcast_shape_aligned_from_the_left_fails(capsys):
    def left_aligned(a, b):  # pads on the right: a classic slip
        n = max(len(a), len(b))
        a = tuple(a) + (1,) * (n - len(a))
        b = tuple(b) + (1,) * (n - len(b))
        return tuple(max(x, y) for x, y in zip(a, b))

    assert not check_broadcast_shape(left_aligned)
    out = _output(capsys)
    assert "✗ broadcast_shape: wrong result for `a missing dimension counts as 1" in out
    assert "(3, 4)" in out


def test_broadcast_shape_without_compatibility_check_fails(capsys):
    def no_check(a, b):
        n = max(len(a), len(b))
        a = (1,) * (n - len(a)) + tuple(a)
        b = (1,) * (n - len(b)) + tuple(b)
        return tuple(y if x == 1 else x for x, y in zip(a, b))

    assert not check_broadcast_shape(no_check)
    out = _output(capsys)
    assert "incompatible: (3,) and (4,)" in out
    assert "should `raise ValueError(...)`" in out


def test_broadcast_shape_zip_without_padding_fails(capsys):
    def zipped(a, b):
        return tuple(max(x, y) for x, y in zip(a, b))

    assert not check_broadcast_shape(zipped)
    assert "Shorter shapes are padded with 1s on the left" in _output(capsys)


def test_broadcast_shape_raising_on_compatible_shapes_is_explained(capsys):
    def strict(a, b):
        if tuple(a) != tuple(b):
            raise ValueError("shapes differ")
        return tuple(a)

    assert not check_broadcast_shape(strict)
    assert "but these shapes are compatible" in _output(capsys)


def test_show_broadcast_picture():
    picture = show_broadcast((3, 1), (4,))
    assert picture.result == (3, 4)
    assert "1 → 4" in picture.text() and "1 → 4" in picture._repr_html_()
    bad = show_broadcast(minitorch.ones(2, 3), minitorch.ones(2))
    assert bad.result is None and bad.bad == 1
    assert "cannot broadcast" in bad.text() and "cannot broadcast" in bad._repr_html_()
    assert show_broadcast((2, 3), (2, 3)).result == (2, 3)


# ------------------------------------------------------------------ 01: MyTensor
class MyTensorRight:
    def __init__(self, data, requires_grad=False):
        self.data = np.asarray(data, dtype=np.float32)
        self.requires_grad = requires_grad
        self.grad = None

    @property
    def shape(self):
        return self.data.shape

    def __add__(self, other):
        if not isinstance(other, MyTensorRight):
            other = MyTensorRight(other)
        return MyTensorRight(self.data + other.data,
                             requires_grad=self.requires_grad or other.requires_grad)


def test_my_tensor_right_answer_passes(capsys):
    assert check_my_tensor(MyTensorRight)
    assert _output(capsys) == "✓ MyTensor: all 11 cases passed.\n"


def test_my_tensor_not_done_yet(capsys):
    class Stub:
        def __init__(self, data, requires_grad=False):
            raise NotImplementedError("your code here")

    assert not check_my_tensor(Stub)
    assert _output(capsys).startswith("⏳ MyTensor: not done yet.")


def test_my_tensor_keeping_integers_fails(capsys):
    class KeepsDtype(MyTensorRight):
        def __init__(self, data, requires_grad=False):
            super().__init__(data, requires_grad)
            self.data = np.asarray(data)

    assert not check_my_tensor(KeepsDtype)
    assert "should hold float32 numbers" in _output(capsys)


def test_my_tensor_requires_grad_of_self_only_fails(capsys):
    class SelfOnly(MyTensorRight):
        def __add__(self, other):
            other = other if isinstance(other, SelfOnly) else SelfOnly(other)
            return SelfOnly(self.data + other.data, requires_grad=self.requires_grad)

    assert not check_my_tensor(SelfOnly)
    out = _output(capsys)
    assert "(x + y).requires_grad" in out
    assert "[True, True, False, False]" in out


def test_my_tensor_forgotten_return_fails(capsys):
    class NoReturn(MyTensorRight):
        def __add__(self, other):
            MyTensorRight(self.data + getattr(other, "data", other))

    assert not check_my_tensor(NoReturn)
    assert "did you forget a `return`?" in _output(capsys)


def test_my_tensor_in_place_add_fails(capsys):
    class InPlace(MyTensorRight):
        def __add__(self, other):
            other = other if isinstance(other, InPlace) else InPlace(other)
            self.data = self.data + other.data
            self.requires_grad = self.requires_grad or other.requires_grad
            return self

    assert not check_my_tensor(InPlace)
    assert "returned one of its inputs" in _output(capsys)


def test_my_tensor_number_operand_fails_with_the_error(capsys):
    class NoNumbers(MyTensorRight):
        def __add__(self, other):
            return NoNumbers(self.data + other.data,
                             requires_grad=self.requires_grad or other.requires_grad)

    assert not check_my_tensor(NoNumbers)
    out = _output(capsys)
    assert "a number on the right" in out
    assert "AttributeError" in out


# ------------------------------------------------------------------ 02: Mul
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
    assert _output(capsys) == "✓ Mul: all 11 cases passed.\n"


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
    assert "1 of 11 cases passed" in out  # only "is a subclass of Function"


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
    assert "4 of 11 cases passed" in out


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
    assert "Nothing was saved: call `ctx.save_for_backward(a, b)`" in out


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
    assert "9 of 11 cases passed" not in out
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


# ------------------------------------------------------------------ 02: find_leaves
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
    assert _output(capsys) == "✓ find_leaves: all 7 cases passed.\n"


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
    assert "6 of 7 cases passed" in out


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


@pytest.mark.parametrize("check", [check_broadcast_shape, check_my_tensor, check_mul,
                                   check_find_leaves])
def test_checks_never_raise_on_garbage(check, capsys):
    assert check(None) is False
    assert "✗" in _output(capsys)

"""Tests for the checks of chapter 01 (Tensors): ``broadcast_shape`` and ``MyTensor``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids

import minitorch
from minitorch.exercises.ch01_tensors import check_broadcast_shape, check_my_tensor, show_broadcast


def _output(capsys) -> str:
    return capsys.readouterr().out


# ------------------------------------------------------------------ broadcast_shape
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
    assert _output(capsys) == "✓ broadcast_shape: all 15 cases passed.\n"


def test_broadcast_shape_agrees_with_minitorch():
    for a, b in [((3, 1), (4,)), ((5, 1, 4), (3, 1)), ((), (2,)), ((0,), (1,)), ((2, 1), (0,)),
                 ((4,), (2, 3, 1))]:
        result = minitorch.zeros(*a) + minitorch.zeros(*b)
        assert broadcast_shape_right(a, b) == tuple(result.shape)
        assert broadcast_shape_right(a, b) == np.broadcast_shapes(a, b)


def test_broadcast_shape_list_result_is_accepted(capsys):
    assert check_broadcast_shape(lambda a, b: list(broadcast_shape_right(a, b)))


def test_broadcast_shape_not_done_yet(capsys):
    def stub(a, b):
        raise NotImplementedError("your code here")

    assert not check_broadcast_shape(stub)
    out = _output(capsys)
    assert out.startswith("⏳ broadcast_shape: not done yet.")
    assert "0 of 15 cases passed" in out


def _left_aligned(a, b):  # pads on the right: a classic slip
    n = max(len(a), len(b))
    a = tuple(a) + (1,) * (n - len(a))
    b = tuple(b) + (1,) * (n - len(b))
    return tuple(max(x, y) for x, y in zip(a, b))


def test_broadcast_shape_aligned_from_the_left_fails(capsys):
    assert not check_broadcast_shape(_left_aligned)
    out = _output(capsys)
    assert "✗ broadcast_shape: wrong result for `a missing dimension counts as 1" in out
    assert "(3, 4)" in out
    assert "aligns them on the **right**" in out


def _no_check(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(y if x == 1 else x for x, y in zip(a, b))


def test_broadcast_shape_without_compatibility_check_fails(capsys):
    assert not check_broadcast_shape(_no_check)
    out = _output(capsys)
    assert "incompatible: (3,) and (4,)" in out
    assert "should `raise ValueError(...)`" in out


def _zipped(a, b):
    return tuple(max(x, y) for x, y in zip(a, b))


def test_broadcast_shape_zip_without_padding_fails(capsys):
    assert not check_broadcast_shape(_zipped)
    assert "Shorter shapes are padded with 1s on the left" in _output(capsys)


def _strict(a, b):
    if tuple(a) != tuple(b):
        raise ValueError("shapes differ")
    return tuple(a)


def test_broadcast_shape_raising_on_compatible_shapes_is_explained(capsys):
    assert not check_broadcast_shape(_strict)
    assert "but (3, 1) and (1, 4) are compatible" in _output(capsys)


def _larger_size(a, b):  # max() of each pair: wrong when a size is 0
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError(f"cannot broadcast {a} and {b}")
        out.append(max(x, y))
    return tuple(out)


def _from_the_right(a, b):  # walks from the right and forgets to reverse
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            raise ValueError(f"cannot broadcast {a} and {b}")
        out.append(y if x == 1 else x)
    return tuple(out)


def _numpy_answer_key(a, b):
    return tuple(np.broadcast_shapes(tuple(a), tuple(b)))


def _adds_two_tensors(a, b):
    try:
        return tuple((minitorch.zeros(*a) + minitorch.zeros(*b)).shape)
    except RuntimeError as error:
        raise ValueError(str(error)) from None


def _max_stretch_check(a, b):
    """Raises on incompatible shapes with an AssertionError instead of a ValueError."""
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        assert x == y or x == 1 or y == 1, f"cannot broadcast {x} and {y}"
        out.append(y if x == 1 else x)
    return tuple(out)


# ------------------------------------------------------------------ show_broadcast
def test_show_broadcast_picture():
    picture = show_broadcast((3, 1), (4,))
    assert picture.result == (3, 4)
    assert "1 → 4" in picture.text() and "1 → 4" in picture._repr_html_()
    bad = show_broadcast(minitorch.ones(2, 3), minitorch.ones(2))
    assert bad.result is None and bad.bad == 1
    assert "cannot broadcast" in bad.text() and "cannot broadcast" in bad._repr_html_()
    assert show_broadcast((2, 3), (2, 3)).result == (2, 3)


# ------------------------------------------------------------------ MyTensor
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
    assert _output(capsys) == "✓ MyTensor: all 12 cases passed.\n"


def test_my_tensor_not_done_yet(capsys):
    class Stub:
        def __init__(self, data, requires_grad=False):
            raise NotImplementedError("your code here")

    assert not check_my_tensor(Stub)
    assert _output(capsys).startswith("⏳ MyTensor: not done yet.")


class _KeepsDtype(MyTensorRight):
    def __init__(self, data, requires_grad=False):
        super().__init__(data, requires_grad)
        self.data = np.asarray(data)


def test_my_tensor_keeping_integers_fails(capsys):
    assert not check_my_tensor(_KeepsDtype)
    assert "should hold float32 numbers" in _output(capsys)


class _SelfOnly(MyTensorRight):
    def __add__(self, other):
        other = other if isinstance(other, _SelfOnly) else _SelfOnly(other)
        return _SelfOnly(self.data + other.data, requires_grad=self.requires_grad)


def test_my_tensor_requires_grad_of_self_only_fails(capsys):
    assert not check_my_tensor(_SelfOnly)
    out = _output(capsys)
    assert "(x + y).requires_grad" in out
    assert "[True, True, False, False]" in out
    assert "only when the *left* operand does" in out


class _NoReturn(MyTensorRight):
    def __add__(self, other):
        MyTensorRight(self.data + getattr(other, "data", other))


def test_my_tensor_forgotten_return_fails(capsys):
    assert not check_my_tensor(_NoReturn)
    assert "did you forget a `return`?" in _output(capsys)


class _InPlace(MyTensorRight):
    def __add__(self, other):
        other = other if isinstance(other, _InPlace) else _InPlace(other)
        self.data = self.data + other.data
        self.requires_grad = self.requires_grad or other.requires_grad
        return self


def test_my_tensor_in_place_add_fails(capsys):
    assert not check_my_tensor(_InPlace)
    assert "returned one of its inputs" in _output(capsys)


class _NoNumbers(MyTensorRight):
    def __add__(self, other):
        return _NoNumbers(self.data + other.data,
                          requires_grad=self.requires_grad or other.requires_grad)


def test_my_tensor_number_operand_fails_with_the_cause(capsys):
    assert not check_my_tensor(_NoNumbers)
    out = _output(capsys)
    assert "a number on the right" in out
    assert "a plain number has no `.data`" in out


class _BothRequired(MyTensorRight):
    def __add__(self, other):
        other = other if isinstance(other, _BothRequired) else _BothRequired(other)
        return _BothRequired(self.data + other.data,
                             requires_grad=self.requires_grad and other.requires_grad)


class _ShapeMethod(MyTensorRight):
    def shape(self):  # forgot @property
        return self.data.shape


class _ListData(MyTensorRight):
    def __init__(self, data, requires_grad=False):
        super().__init__(data, requires_grad)
        self.data = data  # keeps the list


class _ReturnsArray(MyTensorRight):
    def __add__(self, other):
        return self.data + getattr(other, "data", other)


class _AddsInPlaceIntoLeft(MyTensorRight):
    def __add__(self, other):
        other = other if isinstance(other, MyTensorRight) else type(self)(other)
        out = type(self)(self.data, self.requires_grad or other.requires_grad)
        out.data += other.data  # out.data is self.data: np.asarray did not copy
        return out


class _GradStartsAtZero(MyTensorRight):
    def __init__(self, data, requires_grad=False):
        super().__init__(data, requires_grad)
        self.grad = np.zeros_like(self.data)


class _NumberDropsRequiresGrad(MyTensorRight):
    def __add__(self, other):
        if not isinstance(other, MyTensorRight):  # a number: add it to the array directly
            return type(self)(self.data + other)
        return type(self)(self.data + other.data,
                          requires_grad=self.requires_grad or other.requires_grad)


# second adversarial review: a wrong answer whose message named the wrong cause
class _RequiresGradNone(MyTensorRight):
    """requires_grad defaults to None (the message said "did you forget a `return`?")."""

    def __init__(self, data, requires_grad=None):
        super().__init__(data, requires_grad)


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_broadcast_shape": (check_broadcast_shape, broadcast_shape_right),
    "check_my_tensor": (check_my_tensor, MyTensorRight),
}

WRONG = [
    ("check_broadcast_shape", _left_aligned, "aligns shapes on the left",
     ["aligns them on the **right**"]),
    ("check_broadcast_shape", _no_check, "no compatibility check",
     ["should `raise ValueError(...)`", "incompatible: (3,) and (4,)"]),
    ("check_broadcast_shape", _zipped, "zip without padding",
     ["padded with 1s on the left"]),
    ("check_broadcast_shape", _strict, "raises unless the shapes are equal",
     ["are compatible"]),
    ("check_broadcast_shape", _larger_size, "max() of each pair (wrong for size 0)",
     ["even when that is 0", "a size-0 dimension"]),
    ("check_broadcast_shape", _from_the_right, "walks from the right, forgets to reverse",
     ["Your result is reversed"]),
    ("check_broadcast_shape", _max_stretch_check, "an assert instead of raise ValueError",
     ["raise a `ValueError`", "not an AssertionError"]),
    ("check_broadcast_shape", _numpy_answer_key, "np.broadcast_shapes, the answer key",
     ["called `numpy.broadcast_shapes`", "answer key", "_numpy_answer_key"]),
    ("check_broadcast_shape", _adds_two_tensors, "adds two tensors of those shapes",
     ["called `minitorch", "answer key"]),
    ("check_my_tensor", _KeepsDtype, "keeps integer dtype", ["should hold float32 numbers"]),
    ("check_my_tensor", _RequiresGradNone, "requires_grad defaults to None",
     ["`requires_grad` is None when it is not given", "default `False`"]),
    ("check_my_tensor", _SelfOnly, "requires_grad of the left operand only",
     ["only when the *left* operand does"]),
    ("check_my_tensor", _BothRequired, "and instead of or", ["`and` where `or` belongs"]),
    ("check_my_tensor", _NoReturn, "forgotten return", ["did you forget a `return`?"]),
    ("check_my_tensor", _InPlace, "adds in place and returns self",
     ["returned one of its inputs"]),
    ("check_my_tensor", _NoNumbers, "a number operand has no .data",
     ["a plain number has no `.data`"]),
    ("check_my_tensor", _ShapeMethod, "shape without @property", ["`@property`"]),
    ("check_my_tensor", _ListData, "keeps the list as .data", ["should be a NumPy array"]),
    ("check_my_tensor", _ReturnsArray, "__add__ returns the NumPy array",
     ["is a ndarray, not a MyTensor"]),
    ("check_my_tensor", _AddsInPlaceIntoLeft, "the result shares the left operand's array",
     ["changed an operand's `.data`"]),
    ("check_my_tensor", _NumberDropsRequiresGrad, "t + 1 loses t's requires_grad",
     ["`t + 1` does not require grad, though `t` does"]),
    ("check_my_tensor", _GradStartsAtZero, ".grad starts as zeros, not None",
     ["MyTensor([1.0]).grad (no gradient yet)"]),
]

GIVEAWAYS = {
    "check_broadcast_shape": ["(1,) * (n - len(a))"],
    "check_my_tensor": ["np.asarray(data, dtype=np.float32)", "self.requires_grad or other"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed


@pytest.mark.parametrize("check", [check_broadcast_shape, check_my_tensor])
def test_checks_never_raise_on_garbage(check, capsys):
    assert check(None) is False
    assert "✗" in _output(capsys)

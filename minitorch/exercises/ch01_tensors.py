"""Chapter 01 (Tensors): the checks of its code exercises and its broadcasting picture.

=========================  ==============================================================
name                       what it is
=========================  ==============================================================
check_broadcast_shape      checks the learner's ``broadcast_shape(a, b)``
check_my_tensor            checks the learner's ``MyTensor``: data, ``requires_grad``,
                           ``grad`` and ``__add__``
show_broadcast             a picture (HTML table) of how two shapes broadcast
=========================  ==============================================================

Like every check, these never raise: they show ✓, ✗ (with what was expected) or ⏳ (the
learner's code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> def broadcast_shape(a, b):
    ...     raise NotImplementedError("your code here")
    >>> check_broadcast_shape(broadcast_shape)  # doctest: +ELLIPSIS
    ⏳ broadcast_shape: not done yet.
    ...
    False
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .runner import Case, Shortcut, WrongAnswer, run_check

__all__ = ["BroadcastPicture", "check_broadcast_shape", "check_my_tensor", "show_broadcast"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_broadcast_shape": "broadcast_shape",
    "check_my_tensor": "MyTensor",
}


# ------------------------------------------------------------------------ broadcast_shape
class _Raised:
    """What a case returns when the learner's code raised: the error, kept as data."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"{type(self.error).__name__}: {self.error}"


def _expect_error(fn: Callable[[], Any]) -> Any:
    """Run ``fn``; an exception (other than "not done yet") is returned as data, so the
    comparison can say whether raising was right and which error it should have been."""
    try:
        return fn()
    except NotImplementedError:  # a RuntimeError too, but it means "not done yet"
        raise
    except Exception as error:
        return _Raised(error)


def _a(noun: str) -> str:
    """'an AssertionError', 'a TypeError'."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _padded(a: tuple, b: tuple, left: bool = True) -> tuple[tuple, tuple]:
    n = max(len(a), len(b))
    if left:
        return (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    return a + (1,) * (n - len(a)), b + (1,) * (n - len(b))


def _shape_slips(a: tuple, b: tuple) -> list[tuple[tuple, str]]:
    """What the usual slips return for shapes ``a`` and ``b`` (to name a wrong answer)."""
    pa, pb = _padded(a, b)
    la, lb = _padded(a, b, left=False)
    slips = []
    if len(a) != len(b):  # equal lengths line up the same from either side
        slips.append((tuple(max(x, y) for x, y in zip(la, lb)),
                      "You lined the shapes up on the left. Broadcasting aligns them on the "
                      "**right** (the last dimensions meet): pad the shorter shape with 1s on "
                      "its left."))
    slips += [
        (tuple(max(x, y) for x, y in zip(pa, pb)),
         "You took the larger size of each pair. A size 1 stretches to the other size, even "
         "when that is 0: (0,) and (1,) broadcast to (0,), so `max` is not the rule."),
        (tuple(y if x == 1 else x for x, y in zip(pa, pb))[::-1],
         "Your result is reversed: you walked the shapes from the right and kept that order."),
    ]
    return slips


def _same_shape(a: tuple, b: tuple) -> Callable[[Any, Any], bool]:
    """A shape comparison that names the usual mistakes, computed for this pair."""

    def compare(got: Any, expected: Any) -> bool:
        if isinstance(expected, _Raised):
            if isinstance(got, _Raised):
                error = got.error
                assert isinstance(error, ValueError), (
                    f"Raising is right here, but raise a `ValueError` (as NumPy does for "
                    f"shapes that cannot be broadcast), not {_a(type(error).__name__)}.")
                return True
            raise AssertionError(
                f"These shapes cannot be broadcast ({a} and {b}: a pair of sizes, aligned "
                "from the right, differs and neither is 1), so `broadcast_shape` should "
                "`raise ValueError(...)` instead of returning a shape.")
        if isinstance(got, _Raised):
            raise AssertionError(
                f"Your function raised {got!r}, but {a} and {b} are compatible: each pair of "
                "sizes, aligned from the right, is equal or contains a 1.")
        assert isinstance(got, (tuple, list)), (
            f"Return the shape as a tuple of ints, like (3, 4); got a {type(got).__name__}.")
        got = tuple(got)
        assert all(isinstance(s, (int, np.integer)) and not isinstance(s, bool)
                   for s in got), "Every size must be an int."
        if got == tuple(expected):
            return True
        if len(got) != len(expected):
            raise AssertionError(
                f"The result should have {len(expected)} dimensions (as many as the longer "
                f"shape), but has {len(got)}. Shorter shapes are padded with 1s on the left.")
        for value, why in _shape_slips(a, b):
            if got == value:
                raise AssertionError(why)
        return False

    return compare


_BROADCAST_CASES = [
    ("equal shapes (2, 3) and (2, 3)", (2, 3), (2, 3), (2, 3)),
    ("a column and a row: (3, 1) and (1, 4)", (3, 1), (1, 4), (3, 4)),
    ("a missing dimension counts as 1: (3, 1) and (4,)", (3, 1), (4,), (3, 4)),
    ("a scalar () and (5,)", (), (5,), (5,)),
    ("(2, 3) and a scalar ()", (2, 3), (), (2, 3)),
    ("a bias added to a batch: (64, 10) and (10,)", (64, 10), (10,), (64, 10)),
    ("(5, 1, 4) and (3, 1)", (5, 1, 4), (3, 1), (5, 3, 4)),
    ("(8, 1, 6, 1) and (7, 1, 5)", (8, 1, 6, 1), (7, 1, 5), (8, 7, 6, 5)),
    ("the shorter shape first: (4,) and (2, 3, 1)", (4,), (2, 3, 1), (2, 3, 4)),
    ("a size-0 dimension: (0,) and (1,)", (0,), (1,), (0,)),
    ("a size-0 dimension stretched to: (2, 1) and (0,)", (2, 1), (0,), (2, 0)),
]

_INCOMPATIBLE_CASES = [
    ("incompatible: (3,) and (4,)", (3,), (4,)),
    ("incompatible: (2, 3) and (2,)", (2, 3), (2,)),
    ("incompatible: (4, 3) and (2, 1, 4)", (4, 3), (2, 1, 4)),
    ("incompatible: (0,) and (2,)", (0,), (2,)),
]

_BY_HAND = Shortcut(
    "The exercise is to work the shape out yourself, from the two tuples: "
    "`np.broadcast_shapes` (or making arrays or tensors of those shapes and adding them) "
    "is the answer key. Plain Python is all it takes: `len`, `max`, `zip`, tuples.",
    packages=("numpy", "minitorch", "torch"))


def check_broadcast_shape(broadcast_shape: Callable[[Sequence[int], Sequence[int]], Any]) -> bool:
    """Check ``broadcast_shape(a, b)``: the shape of ``x + y`` for shapes ``a`` and ``b``.

    The learner's function takes two shapes (tuples of ints) and returns the broadcast shape
    as a tuple, or raises ``ValueError`` when the shapes cannot be broadcast. The rule: align
    the shapes from the right, pad the shorter one with 1s on the left, and in each position
    the sizes must be equal or one of them 1 (which stretches to the other, even to 0).
    It is written by hand: a call to NumPy, minitorch or PyTorch is refused.

    Example:
        >>> import numpy as np
        >>> def broadcast_shape(a, b):
        ...     return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
        >>> check_broadcast_shape(broadcast_shape)  # doctest: +ELLIPSIS
        ✗ broadcast_shape: case `equal shapes (2, 3) and (2, 3)` called `numpy.broadcast_...
        ...
        False
    """
    cases = [
        Case(name, lambda a=a, b=b: _expect_error(lambda: broadcast_shape(a, b)), expected,
             compare=_same_shape(a, b))
        for name, a, b, expected in _BROADCAST_CASES
    ]
    cases += [
        Case(name, lambda a=a, b=b: _expect_error(lambda: broadcast_shape(a, b)),
             _Raised(ValueError("...")), compare=_same_shape(a, b),
             expected_repr="a ValueError (these shapes cannot be broadcast)")
        for name, a, b in _INCOMPATIBLE_CASES
    ]
    return run_check(
        "broadcast_shape", cases,
        hint="Broadcasting compares shapes from the right.",
        more_help=[
            "Line the two shapes up on the right, as if the shorter one had 1s on its left.",
            "At each position: equal sizes stay; a size 1 stretches to match the other size.",
            "Any other pair of sizes cannot broadcast: raise a ValueError naming both shapes.",
        ],
        refuse=[_BY_HAND],
    )


# ------------------------------------------------------------------------ MyTensor
def _float32_array(got: Any, expected: Any) -> bool:
    assert isinstance(got, np.ndarray), (
        f"`.data` should be a NumPy array (use np.asarray or np.array); got a "
        f"{type(got).__name__}.")
    assert got.dtype == np.float32, (
        f"`.data` should hold float32 numbers, like `torch.Tensor(...)`; its dtype is "
        f"{got.dtype}. Pass dtype=np.float32.")
    return got.shape == np.shape(expected) and bool(np.allclose(got, expected))


def _data_of(t: Any, my_tensor: type) -> Any:
    return _result_of(t, my_tensor).data


def _result_of(t: Any, my_tensor: type) -> Any:
    """``t``, the result of ``a + b``, once it is known to be a MyTensor."""
    if t is None:
        raise WrongAnswer("`__add__` returned None: did you forget a `return`?")
    if not isinstance(t, my_tensor):
        raise WrongAnswer(f"`a + b` is a {type(t).__name__}, not a MyTensor: `__add__` must "
                          "return a new MyTensor.")
    return t


def _shape_of_tensor(t: Any) -> Any:
    shape = t.shape
    if callable(shape):
        raise WrongAnswer(
            "`shape` is a method, so `t.shape` is the method itself, not a shape: put "
            "`@property` above `def shape(self)`, as the exercise asks.")
    return tuple(shape)


def _explain_number(my_tensor: type, requires_grad: bool = False) -> Callable[[], Any]:
    """``MyTensor([1, 2], requires_grad=...) + 1``, with the usual error explained: its
    ``.data``, or its ``.requires_grad`` when the left operand requires grad."""

    def run() -> Any:
        try:
            result = _result_of(my_tensor([1, 2], requires_grad=requires_grad) + 1, my_tensor)
        except AttributeError as error:
            if "'int' object has no attribute" in str(error):
                raise WrongAnswer(
                    "`a + 1` fails: your `__add__` reads `other.data`, but a plain number has "
                    "no `.data`. Wrap a number in a MyTensor first.") from None
            raise
        if requires_grad and result.requires_grad is not True:
            raise WrongAnswer(
                "`t + 1` does not require grad, though `t` does: with a number on the right, "
                "the result lost `t`'s `requires_grad`. A number needs no gradient, but `t` "
                "still does, so the result requires grad when either operand does, numbers "
                "included.")
        return result.requires_grad if requires_grad else result.data

    return run


def _grad_starts_none(got: Any, expected: Any) -> bool:
    assert got is None, (
        "`.grad` should start as None: no gradient has been computed yet, and None (not "
        "zeros) is how PyTorch says so.")
    return True


def _requires_grad_note(got: Any, expected: Any) -> bool:
    if got == expected:
        return True
    if got == [True, True, False, False]:
        raise AssertionError(
            "The result requires grad only when the *left* operand does: it should require "
            "grad when either operand does (a gradient can flow back through either one).")
    if got == [False, True, False, False]:
        raise AssertionError(
            "The result requires grad only when *both* operands do: `and` where `or` belongs. "
            "One operand that requires grad is enough for a gradient to flow back.")
    if got == [False, False, True, False]:
        raise AssertionError(
            "The result requires grad only when the *right* operand does: it should require "
            "grad when either operand does.")
    return False


def _is_new_tensor(my_tensor: type) -> Callable[[], Any]:
    def run() -> Any:
        a = my_tensor([1.0, 2.0])
        b = my_tensor([10.0, 20.0])
        c = a + b
        problems = []
        if not isinstance(c, my_tensor):
            problems.append(f"`a + b` should be a new MyTensor, not a {type(c).__name__}")
        elif c is a or c is b:
            problems.append("`a + b` returned one of its inputs: make a new MyTensor")
        if not np.allclose(a.data, [1.0, 2.0]) or not np.allclose(b.data, [10.0, 20.0]):
            problems.append("`a + b` changed an operand's `.data`: addition must not modify "
                            "its inputs")
        if isinstance(c, my_tensor) and getattr(c, "grad", "missing") is not None:
            problems.append("the result's `.grad` should start as None")
        if problems:
            raise WrongAnswer("; ".join(problems) + ".")
        return "ok"

    return run


def _requires_grad_default(got: Any, expected: bool) -> bool:
    """``requires_grad`` of a tensor made without the argument: ``False``, not ``None``."""
    if got is None:
        raise AssertionError(
            "`requires_grad` is None when it is not given: make its default `False`, as in "
            "PyTorch (`def __init__(self, data, requires_grad=False)`), so that it is always "
            "True or False.")
    return got is expected or (isinstance(got, (bool, np.bool_)) and bool(got) == expected)


def check_my_tensor(my_tensor: type) -> bool:
    """Check the learner's ``MyTensor``: a NumPy array with autograd's fields and ``+``.

    ``MyTensor(data, requires_grad=False)`` keeps ``data`` as a float32 NumPy array in
    ``.data``, stores ``.requires_grad``, starts with ``.grad = None``, has a ``.shape``
    property, and ``a + b`` returns a new ``MyTensor`` (broadcasting as NumPy does) whose
    ``requires_grad`` is ``True`` when either input requires grad. ``b`` may be a number.

    Example:
        >>> import numpy as np
        >>> class MyTensor:
        ...     def __init__(self, data, requires_grad=False):
        ...         self.data = np.asarray(data, dtype=np.float32)
        ...         self.requires_grad = requires_grad
        ...         self.grad = None
        ...     @property
        ...     def shape(self):
        ...         return self.data.shape
        ...     def __add__(self, other):
        ...         if not isinstance(other, MyTensor):
        ...             other = MyTensor(other)
        ...         return MyTensor(self.data + other.data,
        ...                         requires_grad=self.requires_grad or other.requires_grad)
        >>> check_my_tensor(MyTensor)
        ✓ MyTensor: all 12 cases passed.
        True
    """
    T = my_tensor  # noqa: N806  (a class)
    cases = [
        Case("MyTensor([1, 2, 3]).data", lambda: T([1, 2, 3]).data,
             np.array([1.0, 2.0, 3.0], dtype=np.float32), compare=_float32_array,
             expected_repr="array([1., 2., 3.], dtype=float32)"),
        Case("MyTensor([[1, 2], [3, 4]]).shape", lambda: _shape_of_tensor(T([[1, 2], [3, 4]])),
             (2, 2)),
        Case("MyTensor(3.0).shape (a scalar)", lambda: _shape_of_tensor(T(3.0)), ()),
        Case("MyTensor([1.0]).requires_grad (the default)",
             lambda: T([1.0]).requires_grad, False, compare=_requires_grad_default),
        Case("MyTensor(3.0, requires_grad=True).requires_grad",
             lambda: T(3.0, requires_grad=True).requires_grad, True),
        Case("MyTensor([1.0]).grad (no gradient yet)", lambda: T([1.0]).grad, None,
             compare=_grad_starts_none),
        Case("(MyTensor([1, 2]) + MyTensor([10, 20])).data",
             lambda: _data_of(T([1, 2]) + T([10, 20]), T),
             np.array([11.0, 22.0], dtype=np.float32), compare=_float32_array,
             expected_repr="array([11., 22.], dtype=float32)"),
        Case("a + b is a new MyTensor; a and b are unchanged; (a + b).grad is None",
             _is_new_tensor(T), "ok"),
        Case("broadcasting: (MyTensor([[1], [2]]) + MyTensor([10, 20, 30])).data",
             lambda: _data_of(T([[1], [2]]) + T([10, 20, 30]), T),
             np.array([[11, 21, 31], [12, 22, 32]], dtype=np.float32), compare=_float32_array,
             expected_repr="array([[11., 21., 31.], [12., 22., 32.]], dtype=float32)"),
        Case("(x + y).requires_grad when x, y require grad: [(yes, no), (yes, yes), "
             "(no, yes), (no, no)]",
             lambda: [(x + y).requires_grad for x, y in (
                 (T(1.0, requires_grad=True), T(2.0)),
                 (T(1.0, requires_grad=True), T(2.0, requires_grad=True)),
                 (T(2.0), T(1.0, requires_grad=True)),
                 (T(1.0), T(2.0)))],
             [True, True, True, False], compare=_requires_grad_note),
        Case("a number on the right: (MyTensor([1, 2]) + 1).data", _explain_number(T),
             np.array([2.0, 3.0], dtype=np.float32),
             compare=_float32_array, expected_repr="array([2., 3.], dtype=float32)"),
        Case("a number on the right keeps requires_grad: "
             "(MyTensor([1, 2], requires_grad=True) + 1).requires_grad",
             _explain_number(T, requires_grad=True), True),
    ]
    return run_check(
        "MyTensor", cases,
        hint="A tensor wraps a float32 NumPy array and remembers `requires_grad`.",
        more_help=[
            "`__init__` should convert whatever it gets (a number, a list, an array) into a "
            "float32 array.",
            "`__add__` must return a new MyTensor and leave both operands unchanged; a plain "
            "number is a valid operand too.",
            "The result requires grad when either operand does.",
        ],
    )


# ------------------------------------------------------------------------ the picture
def _shape_of(x: Any) -> tuple[int, ...]:
    if hasattr(x, "shape"):
        return tuple(int(s) for s in x.shape)
    return tuple(int(s) for s in x)


class BroadcastPicture:
    """How two shapes broadcast, position by position (HTML in Jupyter, text elsewhere).

    Attributes:
        a, b: the two shapes; padded_a, padded_b: them padded with 1s on the left.
        result: the broadcast shape, or ``None`` when the shapes are incompatible.
        bad: the position (counted from the left of the padded shapes) that fails, or None.
    """

    def __init__(self, a: tuple[int, ...], b: tuple[int, ...], names=("a", "b")) -> None:
        self.a, self.b, self.names = a, b, names
        n = max(len(a), len(b))
        self.padded_a = (1,) * (n - len(a)) + a
        self.padded_b = (1,) * (n - len(b)) + b
        self.result: tuple[int, ...] | None = None
        self.bad: int | None = None
        out = []
        for i, (x, y) in enumerate(zip(self.padded_a, self.padded_b)):
            if x != y and 1 not in (x, y):
                self.bad = i
                break
            out.append(y if x == 1 else x)
        if self.bad is None:
            self.result = tuple(out)

    def _cell(self, which: str, i: int) -> tuple[str, str]:
        """(text, css) of row ``which`` ("a" or "b") at position ``i``."""
        shape, padded = (self.a, self.padded_a) if which == "a" else (self.b, self.padded_b)
        other = self.padded_b if which == "a" else self.padded_a
        added = i < len(padded) - len(shape)
        size = padded[i]
        if i == self.bad:
            return str(size), "background:#f8d7da;color:#721c24;font-weight:bold"
        if added:
            if other[i] != 1 and self.bad is None:
                return f"(1) → {other[i]}", "color:#777;font-style:italic;background:#fff3cd"
            return "(1)", "color:#999;font-style:italic"
        if size == 1 and other[i] != 1 and self.bad is None:
            return f"1 → {other[i]}", "background:#fff3cd"
        return str(size), ""

    def text(self) -> str:
        n = len(self.padded_a)
        rows = []
        for which, shape in (("a", self.a), ("b", self.b)):
            cells = []
            for i in range(n):
                text, _css = self._cell(which, i)
                cells.append(text)
            name = self.names[0] if which == "a" else self.names[1]
            rows.append((f"{name} {shape}", cells))
        if self.result is not None:
            rows.append((f"result {self.result}", [str(s) for s in self.result]))
        width = max(len(label) for label, _ in rows)
        col = max([len(c) for _, cells in rows for c in cells] + [1])
        lines = [f"{label:<{width}}  " + "  ".join(f"{c:>{col}}" for c in cells)
                 for label, cells in rows]
        if self.result is None:
            i = self.bad
            lines.append(f"✗ cannot broadcast: at dim {i - n}, {self.padded_a[i]} and "
                         f"{self.padded_b[i]} differ and neither is 1")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        n = len(self.padded_a)
        td = "padding:3px 10px;border:1px solid #ccc;text-align:center;font-family:monospace"
        head = "".join(f'<th style="{td};color:#666;font-weight:normal">dim {i - n}</th>'
                       for i in range(n))
        body = []
        for which, shape in (("a", self.a), ("b", self.b)):
            name = self.names[0] if which == "a" else self.names[1]
            cells = "".join(f'<td style="{td};{css}">{html.escape(text)}</td>'
                            for text, css in (self._cell(which, i) for i in range(n)))
            body.append(f'<tr><th style="{td};text-align:left">{html.escape(name)} '
                        f"{html.escape(str(shape))}</th>{cells}</tr>")
        if self.result is not None:
            cells = "".join(f'<td style="{td};background:#d5efcf;font-weight:bold">{s}</td>'
                            for s in self.result)
            body.append(f'<tr><th style="{td};text-align:left">result '
                        f"{html.escape(str(self.result))}</th>{cells}</tr>")
            note = ("<i>(1)</i>: a missing dimension, counted as 1 &nbsp;&nbsp; "
                    '<span style="background:#fff3cd">1 → n</span>: a size-1 dimension, '
                    "stretched to size n (its values repeated)")
        else:
            i = self.bad
            note = (f'<span style="color:#721c24">✗ cannot broadcast: at dim {i - n}, '
                    f"{self.padded_a[i]} and {self.padded_b[i]} differ and neither is 1</span>")
        return (f'<table style="border-collapse:collapse;margin:4px 0"><tr><th style="{td}">'
                f"</th>{head}</tr>{''.join(body)}</table>"
                f'<div style="font-size:90%;margin-bottom:6px">{note}</div>')

    def __repr__(self) -> str:
        return self.text()


def show_broadcast(a: Any, b: Any, names: tuple[str, str] = ("a", "b")) -> BroadcastPicture:
    """A picture of how shapes (or tensors) ``a`` and ``b`` broadcast, dimension by dimension.

    Example:
        >>> print(show_broadcast((3, 1), (4,)).text())
        a (3, 1)             3    1 → 4
        b (4,)         (1) → 3        4
        result (3, 4)        3        4
    """
    return BroadcastPicture(_shape_of(a), _shape_of(b), names)

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

from .runner import Case, run_check

__all__ = ["BroadcastPicture", "check_broadcast_shape", "check_my_tensor", "show_broadcast"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_broadcast_shape": "broadcast_shape",
    "check_my_tensor": "MyTensor",
}


# ------------------------------------------------------------------------ broadcast_shape
class _Raised:
    """What a case returns when the learner's code raised the error we hoped for."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"{type(self.error).__name__}: {self.error}"


def _expect_error(fn: Callable[[], Any]) -> Any:
    """Run ``fn``; a ValueError or RuntimeError is the right answer, so return it as data."""
    try:
        return fn()
    except NotImplementedError:  # a RuntimeError too, but it means "not done yet"
        raise
    except (ValueError, RuntimeError) as error:
        return _Raised(error)


def _same_shape(got: Any, expected: Any) -> bool:
    """A shape comparison that explains the usual mistakes."""
    if isinstance(expected, _Raised):
        assert isinstance(got, _Raised), (
            "These shapes cannot be broadcast (a pair of sizes differs and neither is 1), so "
            "`broadcast_shape` should `raise ValueError(...)` instead of returning a shape.")
        return True
    if isinstance(got, _Raised):
        raise AssertionError(
            f"Your function raised {got!r}, but these shapes are compatible: each pair of "
            "sizes, aligned from the right, is equal or contains a 1.")
    assert isinstance(got, (tuple, list)), (
        f"Return the shape as a tuple of ints, like (3, 4); got a {type(got).__name__}.")
    got = tuple(got)
    assert all(isinstance(s, (int, np.integer)) for s in got), "Every size must be an int."
    assert len(got) == len(expected), (
        f"The result should have {len(expected)} dimensions (as many as the longer shape), "
        f"but has {len(got)}. Shorter shapes are padded with 1s on the left.")
    return got == tuple(expected)


_BROADCAST_CASES = [
    ("equal shapes (2, 3) and (2, 3)", (2, 3), (2, 3), (2, 3)),
    ("a column and a row: (3, 1) and (1, 4)", (3, 1), (1, 4), (3, 4)),
    ("a missing dimension counts as 1: (3, 1) and (4,)", (3, 1), (4,), (3, 4)),
    ("a scalar () and (5,)", (), (5,), (5,)),
    ("(2, 3) and a scalar ()", (2, 3), (), (2, 3)),
    ("a bias added to a batch: (64, 10) and (10,)", (64, 10), (10,), (64, 10)),
    ("(5, 1, 4) and (3, 1)", (5, 1, 4), (3, 1), (5, 3, 4)),
    ("(8, 1, 6, 1) and (7, 1, 5)", (8, 1, 6, 1), (7, 1, 5), (8, 7, 6, 5)),
    ("a size-0 dimension: (0,) and (1,)", (0,), (1,), (0,)),
]

_INCOMPATIBLE_CASES = [
    ("incompatible: (3,) and (4,)", (3,), (4,)),
    ("incompatible: (2, 3) and (2,)", (2, 3), (2,)),
    ("incompatible: (4, 3) and (2, 1, 4)", (4, 3), (2, 1, 4)),
]


def check_broadcast_shape(broadcast_shape: Callable[[Sequence[int], Sequence[int]], Any]) -> bool:
    """Check ``broadcast_shape(a, b)``: the shape of ``x + y`` for shapes ``a`` and ``b``.

    The learner's function takes two shapes (tuples of ints) and returns the broadcast shape
    as a tuple, or raises ``ValueError`` when the shapes cannot be broadcast. The rule: align
    the shapes from the right, pad the shorter one with 1s on the left, and in each position
    the sizes must be equal or one of them 1 (which stretches to the other).

    Example:
        >>> import numpy as np
        >>> def broadcast_shape(a, b):
        ...     try:
        ...         return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
        ...     except ValueError:
        ...         raise ValueError(f"shapes {a} and {b} cannot be broadcast") from None
        >>> check_broadcast_shape(broadcast_shape)
        ✓ broadcast_shape: all 12 cases passed.
        True
    """
    cases = [
        Case(name, lambda a=a, b=b: _expect_error(lambda: broadcast_shape(a, b)), expected,
             compare=_same_shape)
        for name, a, b, expected in _BROADCAST_CASES
    ]
    cases += [
        Case(name, lambda a=a, b=b: _expect_error(lambda: broadcast_shape(a, b)),
             _Raised(ValueError("...")), compare=_same_shape,
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


def _data_of(t: Any) -> Any:
    assert t is not None, "`__add__` returned None: did you forget a `return`?"
    assert hasattr(t, "data"), f"the result is a {type(t).__name__}, not a MyTensor"
    return t.data


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
        if not np.allclose(a.data, [1.0, 2.0]):
            problems.append("`a + b` changed `a.data`: addition must not modify its inputs")
        if isinstance(c, my_tensor) and getattr(c, "grad", "missing") is not None:
            problems.append("the result's `.grad` should start as None")
        return problems or "ok"

    return run


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
        ✓ MyTensor: all 11 cases passed.
        True
    """
    T = my_tensor  # noqa: N806  (a class)
    cases = [
        Case("MyTensor([1, 2, 3]).data", lambda: T([1, 2, 3]).data,
             np.array([1.0, 2.0, 3.0], dtype=np.float32), compare=_float32_array,
             expected_repr="array([1., 2., 3.], dtype=float32)"),
        Case("MyTensor([[1, 2], [3, 4]]).shape", lambda: tuple(T([[1, 2], [3, 4]]).shape),
             (2, 2)),
        Case("MyTensor(3.0).shape (a scalar)", lambda: tuple(T(3.0).shape), ()),
        Case("MyTensor([1.0]).requires_grad (the default)",
             lambda: T([1.0]).requires_grad, False),
        Case("MyTensor(3.0, requires_grad=True).requires_grad",
             lambda: T(3.0, requires_grad=True).requires_grad, True),
        Case("MyTensor([1.0]).grad (no gradient yet)", lambda: T([1.0]).grad, None),
        Case("(MyTensor([1, 2]) + MyTensor([10, 20])).data",
             lambda: _data_of(T([1, 2]) + T([10, 20])),
             np.array([11.0, 22.0], dtype=np.float32), compare=_float32_array,
             expected_repr="array([11., 22.], dtype=float32)"),
        Case("broadcasting: (MyTensor([[1], [2]]) + MyTensor([10, 20, 30])).data",
             lambda: _data_of(T([[1], [2]]) + T([10, 20, 30])),
             np.array([[11, 21, 31], [12, 22, 32]], dtype=np.float32), compare=_float32_array,
             expected_repr="array([[11., 21., 31.], [12., 22., 32.]], dtype=float32)"),
        Case("(x + y).requires_grad when x, y require grad: [(yes, no), (yes, yes), "
             "(no, yes), (no, no)]",
             lambda: [(x + y).requires_grad for x, y in (
                 (T(1.0, requires_grad=True), T(2.0)),
                 (T(1.0, requires_grad=True), T(2.0, requires_grad=True)),
                 (T(2.0), T(1.0, requires_grad=True)),
                 (T(1.0), T(2.0)))],
             [True, True, True, False]),
        Case("a number on the right: (MyTensor([1, 2]) + 1).data",
             lambda: _data_of(T([1, 2]) + 1), np.array([2.0, 3.0], dtype=np.float32),
             compare=_float32_array, expected_repr="array([2., 3.], dtype=float32)"),
        Case("a + b is a new MyTensor; a is unchanged; (a + b).grad is None",
             _is_new_tensor(T), "ok"),
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

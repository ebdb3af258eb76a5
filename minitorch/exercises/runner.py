"""The check runner behind every code exercise.

A check is a list of :class:`Case` objects. Each case calls the learner's code and compares
what comes back with the value we expect. :func:`run_check` runs the cases and reports the
first problem in words a learner can act on:

* ⏳ the code still raises ``NotImplementedError`` ("not done yet"),
* ✗ the code raised another exception (its type and message, no traceback wall),
* ✗ a case returned a wrong value (expected vs got, plus a hint),
* ✓ every case passed.

It never raises: a check cell must not turn red because the learner's code is unfinished.

Example:
    >>> def double(x):
    ...     return 2 * x
    >>> run_check("double", [Case("double(3)", lambda: double(3), 6)])
    ✓ double: all 1 cases passed.
    True
"""

from __future__ import annotations

import html
import os
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._common import format_value, inline_markup, show, to_numpy

__all__ = ["Case", "CheckResult", "approx", "default_compare", "evaluate", "run_check"]

Compare = Callable[[Any, Any], bool]


def approx(atol: float = 1e-6, rtol: float = 1e-5) -> Compare:
    """A comparison for numbers, arrays and tensors with the given tolerances.

    Shapes must match exactly: ``[1.0]`` is not ``1.0``.

    Example:
        >>> close = approx(atol=1e-3)
        >>> close(0.3333, 1 / 3), close([1.0, 2.0], [1.0, 2.1])
        (True, False)
    """

    def compare(got: Any, expected: Any) -> bool:
        got_array, expected_array = to_numpy(got), to_numpy(expected)
        if got_array is None or expected_array is None:
            return False
        if got_array.shape != expected_array.shape:
            return False
        return bool(np.allclose(got_array, expected_array, atol=atol, rtol=rtol, equal_nan=True))

    return compare


def default_compare(got: Any, expected: Any) -> bool:
    """Compare a result with the expected value, the way most checks need.

    * numbers, arrays and tensors: same shape and ``np.allclose`` (``atol=1e-6, rtol=1e-5``);
    * dicts: same keys, values compared with this same function;
    * anything else (strings, lists of names, ``None``): ``==``.

    Example:
        >>> default_compare(np.array([0.1 + 0.2]), [0.3])
        True
        >>> default_compare({"x": 1.0}, {"x": 2.0})
        False
    """
    if isinstance(expected, dict):
        return (
            isinstance(got, dict)
            and set(got) == set(expected)
            and all(default_compare(got[key], expected[key]) for key in expected)
        )
    if to_numpy(expected) is not None and not isinstance(expected, bool):
        return approx()(got, expected)
    try:
        return bool(got == expected)
    except Exception:  # noqa: BLE001  (e.g. an array compared with a string)
        return False


@dataclass
class Case:
    """One test case of a check.

    Args:
        name: what the case tries, shown when it fails (``"x * y at x=2, y=3"``).
        run: a function with no arguments that calls the learner's code and returns its result.
        expected: the value ``run()`` should return.
        compare: ``compare(got, expected) -> bool``; :func:`default_compare` if not given.
            It may also raise ``AssertionError("why")`` to explain what is wrong.
        expected_repr: text shown as "expected" instead of ``repr(expected)`` (useful when
            several answers are right, e.g. "any order where each node comes before its
            inputs").

    Example:
        >>> case = Case("1 + 1", lambda: 1 + 1, 2)
        >>> case.name, case.run(), case.expected
        ('1 + 1', 2, 2)
    """

    name: str
    run: Callable[[], Any]
    expected: Any
    compare: Compare = default_compare
    expected_repr: str | None = None


@dataclass
class CheckResult:
    """What :func:`evaluate` found, readable in tests and notebooks.

    Attributes:
        title: the check's title.
        status: ``"pass"``, ``"fail"`` (wrong value), ``"error"`` (an exception) or
            ``"todo"`` (``NotImplementedError``: not done yet).
        passed: ``True`` only when every case passed.
        n_passed: how many cases passed.
        n_total: how many cases there are.
        case: the name of the first case that did not pass (``None`` when all passed).
        text: the feedback as plain text.
        html: the same feedback as HTML.

    Example:
        >>> result = evaluate("half", [Case("half(4)", lambda: 4 / 2, 2.0)])
        >>> result.status, result.passed, result.text
        ('pass', True, '✓ half: all 1 cases passed.')
    """

    title: str
    status: str
    n_passed: int
    n_total: int
    case: str | None = None
    lines: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def html(self) -> str:
        colors = {"pass": "#2e7d32", "todo": "#8d6e00", "fail": "#c62828", "error": "#c62828"}
        color = colors[self.status]
        head, *rest = self.lines
        body = "".join(_line_to_html(line) for line in rest)
        return (
            f'<div style="border-left: 4px solid {color}; padding: 4px 10px; margin: 4px 0">'
            f'<div style="color: {color}; font-weight: bold">{inline_markup(head)}</div>'
            f"{body}</div>"
        )

    def show(self) -> None:
        """Display the result (HTML in Jupyter, text elsewhere).

        Example:
            >>> evaluate("one", [Case("1", lambda: 1, 1)]).show()
            ✓ one: all 1 cases passed.
        """
        show(self.text, self.html)

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.text


def _line_to_html(line: str) -> str:
    """Lines that start with two spaces hold values: show them as code."""
    if line.startswith("  "):
        return f'<pre style="margin: 2px 0 2px 12px">{html.escape(line.strip())}</pre>'
    return f"<div>{inline_markup(line)}</div>"


def _where(error: BaseException) -> str:
    """' (in `my_function`, line 12)': the innermost frame outside this package, or ''."""
    here = os.path.dirname(os.path.abspath(__file__))
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not os.path.abspath(frame.filename).startswith(here)]
    if not frames:
        return ""
    frame = frames[-1]
    return f" (in `{frame.name}`, line {frame.lineno})"


def _mismatch_note(got: Any, expected: Any) -> str | None:
    """A short explanation of a wrong value, when one is obvious."""
    if got is None and expected is not None:
        return "Your code returned None: did you forget a `return` statement?"
    got_array, expected_array = to_numpy(got), to_numpy(expected)
    if got_array is not None and expected_array is not None:
        if got_array.shape != expected_array.shape:
            return f"The shapes differ: expected {expected_array.shape}, got {got_array.shape}."
    return None


def evaluate(title: str, cases: list[Case], hint: str = "") -> CheckResult:
    """Run ``cases`` and describe the first one that does not pass. Never raises.

    Every case runs (so the count of passing cases is right); the feedback describes the
    first case that raised or returned a wrong value.

    Args:
        title: the name of the check, e.g. ``"mul backward"``.
        cases: the cases to run, in the order a learner should fix them.
        hint: a sentence shown under a wrong answer.

    Returns:
        A :class:`CheckResult`.

    Example:
        >>> def todo():
        ...     raise NotImplementedError
        >>> evaluate("todo", [Case("todo()", todo, 1)]).status
        'todo'
    """
    outcomes: list[tuple[str, Case, Any]] = []
    for case in cases:
        try:
            got = case.run()
        except NotImplementedError as error:
            outcomes.append(("todo", case, error))
            continue
        except Exception as error:  # noqa: BLE001  (learner code may raise anything)
            outcomes.append(("error", case, error))
            continue
        try:
            ok, why = bool(case.compare(got, case.expected)), None
        except AssertionError as error:  # a compare function explaining the mismatch
            ok, why = False, str(error) or None
        except Exception:  # noqa: BLE001  (a result the comparison cannot read is wrong)
            ok, why = False, None
        outcomes.append(("pass" if ok else "fail", case, (got, why)))

    n_total = len(cases)
    n_passed = sum(status == "pass" for status, _, _ in outcomes)
    problems = [outcome for outcome in outcomes if outcome[0] != "pass"]
    if not problems:
        return CheckResult(title, "pass", n_passed, n_total,
                           lines=[f"✓ {title}: all {n_total} cases passed."])

    status, case, value = problems[0]
    count = f"{n_passed} of {n_total} cases passed."
    if status == "todo":
        lines = [
            f"⏳ {title}: not done yet.",
            f"Case `{case.name}` reached a `raise NotImplementedError`: replace it with your "
            "code, then run this check again.",
            count,
        ]
    elif status == "error":
        lines = [
            f"✗ {title}: case `{case.name}` raised "
            f"{type(value).__name__}: {value}{_where(value)}",
            count,
        ]
        if hint:
            lines.append(f"Hint: {hint}")
    else:
        got, why = value
        expected_text = case.expected_repr or format_value(case.expected)
        lines = [f"✗ {title}: wrong result for `{case.name}`.", "expected:",
                 f"  {expected_text}", "got:", f"  {format_value(got)}"]
        note = why or _mismatch_note(got, case.expected)
        if note:
            lines.append(note)
        lines.append(count)
        if hint:
            lines.append(f"Hint: {hint}")
    return CheckResult(title, status, n_passed, n_total, case=case.name, lines=lines)


def run_check(title: str, cases: list[Case], hint: str = "") -> bool:
    """Run a check, show its feedback, and return whether every case passed.

    In Jupyter the feedback is a coloured HTML box; in a plain Python process it is printed
    as text. Use :func:`evaluate` to get the :class:`CheckResult` without showing it.

    Args:
        title: the name of the check.
        cases: the :class:`Case` objects to run.
        hint: a sentence shown under a wrong answer.

    Returns:
        ``True`` if all cases passed, ``False`` otherwise.

    Example:
        >>> run_check("square", [Case("square(3)", lambda: 3 ** 2, 9)])
        ✓ square: all 1 cases passed.
        True
    """
    result = evaluate(title, cases, hint)
    result.show()
    return result.passed

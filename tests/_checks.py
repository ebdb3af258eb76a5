"""Helpers for the tests of the exercise checks (``tests/test_checks_*.py``).

Each chapter's test module defines, next to its own tests:

* ``RIGHT``: ``{check name: (check, right solution)}`` for every check of the chapter;
* ``WRONG``: ``[(check name, wrong answer, what it gets wrong, [words the message must
  contain])]``: realistic wrong answers, written as a learner would write them, at least
  three per check; every one must fail, and its message must name the real cause;
* ``GIVEAWAYS``: ``{check name: [code that no message or help step may contain]}``.

``tests/test_checks_robustness.py`` gathers them from every chapter module.
"""

from __future__ import annotations

import contextlib
import io

from minitorch.exercises.runner import CheckResult, last_result


def run(check, solution) -> CheckResult:
    """Run a check quietly; return its CheckResult."""
    with contextlib.redirect_stdout(io.StringIO()):
        passed = check(solution)
    result = last_result()
    assert passed is result.passed
    return result


def checked(check, fn, capsys) -> tuple[bool, str]:
    """Run a check; return (passed, printed text)."""
    passed = check(fn)
    return passed, capsys.readouterr().out


def todo(*args, **kwargs):
    """A learner's exercise as the learner copy has it: not written yet."""
    raise NotImplementedError("your code here")


def wrong_ids(wrong: list) -> list[str]:
    """Readable test ids for a WRONG list."""
    return [f"{name}: {what}" for name, _, what, _ in wrong]


def assert_fails_naming(check, answer, what: str, words: list[str]) -> CheckResult:
    """The check must reject ``answer``, and its message must contain every one of ``words``."""
    result = run(check, answer)
    assert not result.passed, f"a wrong answer passed: {what}"
    assert result.status in ("fail", "error"), (what, result.text)
    for word in words:
        assert word in result.text, (what, word, result.text)
    assert_no_same_expected_and_got(result)
    return result


def assert_no_same_expected_and_got(result: CheckResult) -> None:
    """A message never says "expected: X / got: X" with the same X."""
    lines = result.lines
    if "expected:" in lines and "got:" in lines:
        expected = lines[lines.index("expected:") + 1]
        got = lines[lines.index("got:") + 1]
        assert expected != got, result.text

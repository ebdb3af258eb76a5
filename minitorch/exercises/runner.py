"""The check runner behind every code exercise.

A check is a list of :class:`Case` objects. Each case calls the learner's code and compares
what comes back with the value we expect. :func:`run_check` runs the cases and reports the
first problem in words a learner can act on:

* ⏳ the code still raises ``NotImplementedError`` ("not done yet"), naming the function that
  raised it (which may be a helper the learner wrote earlier, such as ``topo_sort``),
* ✗ the code raised another exception (its type, message and the learner's own line),
* ✗ a case returned a wrong value (the case, expected, got, why they differ, and a nudge),
* ✗ the code called a built-in that the exercise asks it to replace (a :class:`Shortcut`:
  ``np.broadcast_shapes`` in an exercise that writes it), with the exercise's reason,
* ⌛ the code did not finish within the time limit (an infinite loop?),
* ⏹ the check was interrupted,
* ✓ every case passed.

More help comes only when the learner asks for it: the **More help** button (or
:func:`more_help` outside Jupyter) shows the next of a check's help steps. No step prints
the solution.

Inside a notebook, each chapter check's latest verdict is also saved on the learner's computer
for chapter 00's progress table (:mod:`.progress`).

It never raises: a check cell must not turn red because the learner's code is unfinished,
broken or hostile. Every case runs in a helper thread with a time limit
(:func:`set_time_limit`), and the grad mode, the default dtype and the random number
generators are put back as they were after every check.

Example:
    >>> def double(x):
    ...     return 2 * x
    >>> run_check("double", [Case("double(3)", lambda: double(3), 6)])
    ✓ double: all 1 cases passed.
    True
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import html
import os
import random
import sys
import sysconfig
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._common import format_value, inline_markup, safe_str, show, to_numpy, type_name
from .progress import remember

__all__ = [
    "Case", "CheckResult", "Shortcut", "WrongAnswer", "approx", "default_compare", "evaluate",
    "get_time_limit", "last_result", "more_help", "run_check", "set_time_limit",
]

Compare = Callable[[Any, Any], bool]

_time_limit = float(os.environ.get("MINITORCH_CHECK_TIME_LIMIT", "20"))


def set_time_limit(seconds: float) -> float:
    """Set how long one case of a check may run, in seconds; return the previous limit.

    Example:
        >>> old = set_time_limit(5)
        >>> get_time_limit()
        5.0
        >>> _ = set_time_limit(old)
    """
    global _time_limit
    seconds = float(seconds)
    if not seconds > 0:
        raise ValueError(f"the time limit must be a positive number of seconds, got {seconds}")
    old, _time_limit = _time_limit, seconds
    return old


def get_time_limit() -> float:
    """How long one case of a check may run, in seconds (20 unless changed).

    Example:
        >>> get_time_limit() > 0
        True
    """
    return _time_limit


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
    except Exception:
        return False


@dataclass
class Case:
    """One test case of a check.

    Args:
        name: what the case tries, shown when it fails (``"x * y at x=2, y=3"``).
        run: a function with no arguments that calls the learner's code and returns its result.
        expected: the value ``run()`` should return, computed independently of the learner's
            code (by hand, with PyTorch, with minitorch's own implementation, or with finite
            differences).
        compare: ``compare(got, expected) -> bool``; :func:`default_compare` if not given.
            It may also raise ``AssertionError("why")`` to explain what is wrong.
        expected_repr: text shown as "expected" instead of ``repr(expected)`` (useful when
            several answers are right, e.g. "any order where each node comes before its
            inputs").
        refuse: the :class:`Shortcut` s this case refuses (besides those of the whole check).

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
    refuse: Sequence[Shortcut] = ()


_COLORS = {"pass": "#2e7d32", "todo": "#8d6e00", "fail": "#c62828", "error": "#c62828",
           "timeout": "#c62828", "interrupted": "#8d6e00"}


@dataclass
class CheckResult:
    """What :func:`evaluate` found, readable in tests and notebooks.

    Attributes:
        title: the check's title.
        status: ``"pass"``, ``"fail"`` (wrong value), ``"error"`` (an exception),
            ``"todo"`` (``NotImplementedError``: not done yet), ``"timeout"`` (the time limit
            was reached) or ``"interrupted"`` (``KeyboardInterrupt``).
        passed: ``True`` only when every case passed.
        n_passed: how many cases passed.
        n_total: how many cases there are.
        case: the name of the first case that did not pass (``None`` when all passed).
        culprit: the learner's function that raised, when one did (e.g. ``"topo_sort"``).
        lines: the feedback, one line per item; ``text`` joins them.
        help_steps: further help, shown one step at a time by :meth:`more_help`.
        help_shown: how many help steps have been shown.

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
    culprit: str | None = None
    help_steps: list[str] = field(default_factory=list)
    help_shown: int = 0

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def html(self) -> str:
        color = _COLORS[self.status]
        head, *rest = self.lines
        body = "".join(_line_to_html(line) for line in rest)
        return (
            f'<div style="border-left: 4px solid {color}; padding: 4px 10px; margin: 4px 0">'
            f'<div style="color: {color}; font-weight: bold">{inline_markup(head)}</div>'
            f"{body}</div>"
        )

    @property
    def offers_help(self) -> bool:
        """Whether this result has help steps to offer (failures and errors only)."""
        return self.status in ("fail", "error") and bool(self.help_steps)

    def more_help(self) -> str | None:
        """Reveal the next help step and return it (``None`` when there is no more).

        Example:
            >>> r = evaluate("one", [Case("1", lambda: 2, 1)], more_help=["Look again."])
            >>> r.more_help(), r.more_help()
            ('Look again.', None)
        """
        if not self.offers_help or self.help_shown >= len(self.help_steps):
            return None
        self.help_shown += 1
        return self.help_steps[self.help_shown - 1]

    def show(self) -> None:
        """Display the result (HTML in Jupyter, text elsewhere).

        In Jupyter, a failure with help steps gets a **More help** button that shows one more
        step per click.

        Example:
            >>> evaluate("one", [Case("1", lambda: 1, 1)]).show()
            ✓ one: all 1 cases passed.
        """
        if self.offers_help and _in_ipython():
            try:
                self._show_widget()
                return
            except ImportError:  # no ipywidgets: fall back to text and HTML
                pass
        text, html_text = self.text, self.html
        if self.offers_help:
            more = ("More help, one step at a time: call "
                    "`minitorch.exercises.more_help()`.")
            text += "\n" + more
            html_text = html_text[:-len("</div>")] + _line_to_html(more) + "</div>"
        show(text, html_text)

    def _show_widget(self) -> None:
        import ipywidgets as widgets

        from ._common import display_widget

        steps = widgets.HTML("")
        button = widgets.Button(description="More help", icon="life-ring",
                                tooltip="show one more hint")

        def on_click(_button: Any = None) -> None:
            step = self.more_help()
            if step is not None:
                steps.value += (f'<div style="margin: 2px 0 2px 14px">💡 '
                                f"{inline_markup(step)}</div>")
            left = len(self.help_steps) - self.help_shown
            button.description = f"More help ({left} left)" if left else "No more help"
            button.disabled = left == 0

        button.on_click(on_click)
        box = widgets.VBox([widgets.HTML(self.html), steps, button])
        box.add_class("mt-check-result")
        button.add_class("mt-more-help")
        self.widget = box
        display_widget(box, self.text)

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.text


def _in_ipython() -> bool:
    from ._common import in_ipython

    return in_ipython()


def _line_to_html(line: str) -> str:
    """Lines that start with two spaces hold values: show them as code."""
    if line.startswith("  "):
        return f'<pre style="margin: 2px 0 2px 12px">{html.escape(line.strip())}</pre>'
    return f"<div>{inline_markup(line)}</div>"


# ------------------------------------------------------------------------ learner frames
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the minitorch package
_LIBRARY_DIRS = tuple(
    os.path.abspath(path) for path in
    {sysconfig.get_paths().get(key) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    if path
)


def _is_learner_file(filename: str) -> bool:
    if filename.startswith("<") and not filename.startswith(("<ipython", "<doctest", "<string")):
        return False  # "<frozen importlib._bootstrap>" and the like
    path = os.path.abspath(filename)
    if path.startswith(_HERE + os.sep):
        return False
    return not any(path.startswith(lib + os.sep) for lib in _LIBRARY_DIRS)


def _learner_frame(error: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame of ``error``'s traceback that is the learner's own code."""
    try:
        frames = traceback.extract_tb(error.__traceback__)
    except Exception:
        return None
    mine = [frame for frame in frames if _is_learner_file(frame.filename)]
    return mine[-1] if mine else None


def learner_line(error: BaseException) -> str:
    """Where the learner's own code raised ``error``: 'in `fn`, line 3: `code`', or ''.

    Example:
        >>> learner_line(ValueError("no traceback"))
        ''
    """
    return _where(_learner_frame(error)).strip()[1:-1]


def _where(frame: traceback.FrameSummary | None) -> str:
    """' (in `my_function`, line 12: `return x / 0`)', or ''."""
    if frame is None:
        return ""
    code = (frame.line or "").strip()
    if len(code) > 80:
        code = code[:77] + "..."
    return f" (in `{frame.name}`, line {frame.lineno}" + (f": `{code}`)" if code else ")")


# ------------------------------------------------------------------------ shortcuts
@dataclass(frozen=True)
class Shortcut:
    """A built-in that an exercise asks the learner to replace: calling it is refused.

    While a case runs, every call that the learner's own code makes is watched; a call to one
    of ``objects``, or to any function of one of ``packages``, stops the case with a message
    that names the call and gives ``why``. Calls made inside the library (``x + y`` calling
    NumPy) are not the learner's, so they are never refused; only the learner's own lines are.
    Functions and methods are seen; callable objects that are neither (NumPy's ufuncs such as
    ``np.add``, operators) are not, so list the functions that do the job.

    Args:
        why: the exercise's reason, shown to the learner ("the exercise is to find the shape
            yourself: `np.broadcast_shapes` is the answer key").
        objects: ``{"np.broadcast_shapes": np.broadcast_shapes}``: functions, methods or
            classes (a class: every method it defines), by the name the learner knows them by.
        packages: top-level packages whose every function is refused, e.g. ``("numpy",)``.

    Example:
        >>> import math
        >>> no_sqrt = Shortcut("take the root by hand", objects={"math.sqrt": math.sqrt})
        >>> result = evaluate("root", [Case("root(4)", lambda: math.sqrt(4), 2.0)],
        ...                   refuse=[no_sqrt])
        >>> print(result.lines[0])
        ✗ root: case `root(4)` called `math.sqrt`: this exercise asks you to do without it.
    """

    why: str
    objects: dict = field(default_factory=dict)
    packages: tuple = ()

    def __hash__(self) -> int:
        return id(self)


class _Refused(BaseException):
    """Raised into learner code that called a refused built-in (not an ``Exception``, so a
    learner's ``except Exception`` does not swallow it)."""

    def __init__(self, shortcut: Shortcut, name: str, where: str) -> None:
        super().__init__(name)
        self.shortcut, self.name, self.where = shortcut, name, where


@functools.lru_cache(maxsize=4096)
def _learner_filename(filename: str) -> bool:
    return _is_learner_file(filename)


@functools.lru_cache(maxsize=64)
def _package_dir(root: str) -> str | None:
    """The folder of an installed top-level package, found without importing it."""
    import importlib.util

    module = sys.modules.get(root)
    origin = getattr(module, "__file__", None)
    if origin is None:
        try:
            spec = importlib.util.find_spec(root)
        except (ImportError, ValueError):
            return None
        origin = getattr(spec, "origin", None)
    if not origin:
        return None
    return os.path.dirname(os.path.abspath(origin)) + os.sep


def _codes_of(obj: Any) -> list:
    """The code objects behind a function, a method or a class (the methods it defines)."""
    obj = getattr(obj, "__func__", obj)
    code = getattr(obj, "__code__", None)
    if code is not None:
        return [code]
    if isinstance(obj, type):  # the methods the class itself defines (not shared bases')
        found = []
        for value in vars(obj).values():
            value = getattr(value, "__func__", value)
            if isinstance(value, property):
                value = value.fget
            if hasattr(value, "__code__"):
                found.append(value.__code__)
        return found
    wrapped = getattr(obj, "__wrapped__", None)
    return _codes_of(wrapped) if wrapped is not None else []


def _public_name(frame: Any, root: str) -> str:
    """``minitorch.tensor`` for the function ``minitorch._creation.tensor`` when the package
    exports it under that name; else ``module.qualname``."""
    code = frame.f_code
    name = code.co_qualname
    if "<locals>" in name:  # a decorator's wrapper: the learner's line shows what it was
        return root
    package = sys.modules.get(root)
    exported = getattr(package, name.split(".")[0], None) if package is not None else None
    if exported is not None and (code in _codes_of(exported) or "." in name):
        return f"{root}.{name}"
    module = frame.f_globals.get("__name__", root)
    return f"{module}.{name}"


def _line_of(frame: Any) -> str:
    """'in `fn`, line 3: `code`' for a learner frame."""
    try:
        summary = traceback.FrameSummary(frame.f_code.co_filename, frame.f_lineno,
                                         frame.f_code.co_name)
        return _where(summary).strip()[1:-1]
    except Exception:
        return ""


class _Watcher:
    """A profile function that refuses the learner's calls to the shortcuts' built-ins."""

    def __init__(self, shortcuts: Sequence[Shortcut]) -> None:
        self.codes: dict = {}
        self.builtins: dict = {}
        self.dirs: list = []
        self.roots: dict = {}
        self.refused: _Refused | None = None
        for shortcut in shortcuts:
            for name, obj in shortcut.objects.items():
                codes = _codes_of(obj)
                for code in codes:
                    self.codes.setdefault(code, (shortcut, name))
                if not codes:  # a C function
                    self.builtins.setdefault(id(obj), (obj, shortcut, name))
            for root in shortcut.packages:
                self.roots.setdefault(root, shortcut)
                folder = _package_dir(root)
                if folder:
                    self.dirs.append((folder, root, shortcut))

    def _refuse(self, shortcut: Shortcut, name: str, caller: Any) -> None:
        self.refused = _Refused(shortcut, name, _line_of(caller))
        sys.setprofile(None)
        raise self.refused

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        # every call of the learner's code passes here: the common cases return at once
        if event == "call":
            code = frame.f_code
            found = self.codes.get(code)
            if found is None and not self.dirs:
                return
            caller = frame.f_back
            if caller is None or not _learner_filename(caller.f_code.co_filename):
                return
            if found is not None:
                self._refuse(found[0], found[1], caller)
            filename = code.co_filename
            for folder, root, shortcut in self.dirs:
                if filename.startswith(folder):
                    self._refuse(shortcut, _public_name(frame, root), caller)
        elif event == "c_call" and (self.builtins or self.roots):
            if not _learner_filename(frame.f_code.co_filename):
                return
            found = self.builtins.get(id(arg))
            if found is not None and found[0] is arg:
                self._refuse(found[1], found[2], frame)
            if self.roots:
                owner = getattr(arg, "__self__", None)
                module = getattr(arg, "__module__", None)
                if not isinstance(module, str):
                    module = type(owner).__module__ if owner is not None else ""
                root = module.split(".")[0]
                if root in self.roots:
                    self._refuse(self.roots[root], f"{module}.{arg.__qualname__}", frame)


def _run_refusing(run: Callable[[], Any], shortcuts: Sequence[Shortcut]) -> Any:
    """``run()``, refusing the learner's calls to the shortcuts (see :class:`Shortcut`)."""
    if not shortcuts:
        return run()
    watcher = _Watcher(shortcuts)
    previous = sys.getprofile()
    sys.setprofile(watcher)
    try:
        result = run()
    except _Refused:
        raise
    except BaseException:
        if watcher.refused is not None:  # the learner caught our refusal and went on
            raise watcher.refused from None
        raise
    finally:
        sys.setprofile(previous)
    if watcher.refused is not None:
        raise watcher.refused
    return result


# ------------------------------------------------------------------------ why values differ
def _array_note(got: np.ndarray, expected: np.ndarray, prefix: str = "") -> str | None:
    if got.shape != expected.shape:
        note = f"{prefix}The shapes differ: expected {expected.shape}, got {got.shape}."
        if got.ndim == 2 and got.shape == expected.shape[::-1]:
            note += " Is it transposed?"
        return note
    try:
        g, e = got.astype(float), expected.astype(float)
    except (TypeError, ValueError):
        return None
    close = np.isclose(g, e, rtol=1e-5, atol=1e-6, equal_nan=True)
    if close.all():
        return None
    nonzero = np.abs(e) > 1e-12
    if nonzero.any() and np.allclose(g, -e, rtol=1e-5, atol=1e-6):
        return f"{prefix}Every value has the wrong sign."
    if g.ndim == 2 and g.shape[0] == g.shape[1] and g.shape[0] > 1 and np.allclose(g, e.T):
        return f"{prefix}You got the transpose of the expected matrix."
    if nonzero.any() and np.allclose(g, 2 * e):
        return f"{prefix}Every value is twice the expected one: counted twice?"
    if nonzero.any() and np.allclose(2 * g, e):
        return f"{prefix}Every value is half the expected one: a contribution is missing?"
    if np.isnan(g).any() and not np.isnan(e).any():
        return f"{prefix}Your result contains NaN (a 0/0, log of a negative, or inf - inf?)."
    if g.ndim == 0:
        return None
    bad = np.argwhere(~close)
    first = tuple(int(i) for i in bad[0])
    return (f"{prefix}{len(bad)} of {g.size} values differ; the first at index {first}: "
            f"expected {e[first]:.6g}, got {g[first]:.6g}.")


def _swapped_keys(got: dict, expected: dict) -> tuple[str, str] | None:
    """Two keys whose values are exchanged (``a.grad`` holding ``b.grad``'s value), if any."""
    keys = [key for key in expected if key in got]
    for i, first in enumerate(keys):
        for second in keys[i + 1:]:
            a, b = to_numpy(got[first]), to_numpy(got[second])
            ea, eb = to_numpy(expected[first]), to_numpy(expected[second])
            if any(x is None for x in (a, b, ea, eb)) or a.shape != eb.shape \
                    or b.shape != ea.shape or np.allclose(ea, eb):
                continue
            if np.allclose(a, eb) and np.allclose(b, ea):
                return first, second
    return None


def _mismatch_note(got: Any, expected: Any) -> str | None:
    """A short explanation of why a value differs from the expected one, when one is clear."""
    if got is None and expected is not None:
        return "Your code returned None: did you forget a `return` statement?"
    if isinstance(expected, dict) and isinstance(got, dict):
        missing = [key for key in expected if key not in got]
        if missing:
            return f"The key {missing[0]!r} is missing."
        swapped = _swapped_keys(got, expected)
        if swapped:
            return (f"`{swapped[0]}` and `{swapped[1]}` are swapped: each got the value the "
                    "other one should have.")
        for key, want in expected.items():
            have = got[key]
            if want is None and have is not None:
                return f"`{key}` should be None."
            if have is None and want is not None:
                return f"`{key}` is None; expected {format_value(want)}."
            got_array, expected_array = to_numpy(have), to_numpy(want)
            if got_array is not None and expected_array is not None:
                note = _array_note(got_array, expected_array, prefix=f"`{key}`: ")
                if note:
                    return note
        return None
    got_array, expected_array = to_numpy(got), to_numpy(expected)
    if got_array is not None and expected_array is not None:
        return _array_note(got_array, expected_array)
    return None


# ------------------------------------------------------------------------ running one case
class WrongAnswer(Exception):  # noqa: N818  (it is not an error of the check's)
    """Raised by a check's own code while a case runs, to say what the answer did wrong.

    The case then fails with this message (and no "expected/got" pair, unless ``got`` is
    given): for what can only be seen while the learner's code runs, such as an error it
    raised that has a well-known cause.

    Example:
        >>> def run():
        ...     raise WrongAnswer("`a + 1` fails: a number has no `.data`.")
        >>> print(evaluate("add", [Case("a + 1", run, 2)]).text)
        ✗ add: wrong result for `a + 1`.
        `a + 1` fails: a number has no `.data`.
        0 of 1 cases passed.
    """

    def __init__(self, why: str, got: Any = None, show_got: bool = False) -> None:
        super().__init__(why)
        self.why, self.got, self.show_got = why, got, show_got


class CheckTimeout(BaseException):
    """Raised inside learner code that ran past the time limit, to stop it."""


@dataclass
class _Outcome:
    status: str  # pass, fail, error, todo, timeout, interrupted, refused
    got: str = ""
    note: str | None = None
    error: str = ""
    frame: traceback.FrameSummary | None = None
    got_type: str = ""


def _describe(error: BaseException) -> str:
    message = safe_str(error)
    name = type_name(error)
    if isinstance(error, SystemExit):
        return f"SystemExit (code {message or None}): your code called `exit()` or `sys.exit()`"
    return f"{name}: {message}" if message else name


def _attempt(case: Case, shortcuts: Sequence[Shortcut] = ()) -> _Outcome:
    """Run one case and turn whatever happens into an :class:`_Outcome` (in the worker)."""
    try:
        got = _run_refusing(case.run, (*shortcuts, *case.refuse))
    except _Refused as refused:
        return _Outcome("refused", got=refused.name, note=refused.shortcut.why,
                        error=refused.where)
    except WrongAnswer as wrong:
        return _Outcome("fail", got=format_value(wrong.got) if wrong.show_got else "",
                        note=safe_str(wrong.why), got_type="explained")
    except NotImplementedError as error:
        return _Outcome("todo", error=safe_str(error), frame=_learner_frame(error))
    except KeyboardInterrupt:
        return _Outcome("interrupted")
    except CheckTimeout:
        raise
    except BaseException as error:
        return _Outcome("error", error=_describe(error), frame=_learner_frame(error))
    why = None
    try:
        ok = bool(case.compare(got, case.expected))
    except AssertionError as error:  # a compare function explaining the mismatch
        ok, why = False, safe_str(error) or None
    except KeyboardInterrupt:
        return _Outcome("interrupted")
    except CheckTimeout:
        raise
    except BaseException as error:
        ok, why = False, f"Your result could not be read: {_describe(error)}."
    if ok:
        return _Outcome("pass")
    try:
        note = why or _mismatch_note(got, case.expected)
    except Exception:
        note = why
    return _Outcome("fail", got=format_value(got), note=note, got_type=type_name(got))


def _stop_thread(thread: threading.Thread) -> None:
    """Raise :class:`CheckTimeout` inside ``thread`` (CPython), so a runaway loop stops."""
    try:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(CheckTimeout))
    except Exception:
        pass


def _run_case(case: Case, limit: float, shortcuts: Sequence[Shortcut] = ()) -> _Outcome:
    """Run ``case`` in a daemon thread; give up after ``limit`` seconds."""
    box: list[_Outcome] = []

    def target() -> None:
        try:
            box.append(_attempt(case, shortcuts))
        except CheckTimeout:
            pass
        except BaseException as error:
            box.append(_Outcome("error", error=_describe(error)))

    thread = threading.Thread(target=target, name=f"minitorch check: {case.name}", daemon=True)
    thread.start()
    try:
        thread.join(limit)
    except KeyboardInterrupt:
        _stop_thread(thread)
        thread.join(1.0)
        return _Outcome("interrupted")
    if thread.is_alive():
        _stop_thread(thread)
        thread.join(1.0)
        return _Outcome("timeout")
    return box[0] if box else _Outcome("error", error="the case stopped without a result")


# ------------------------------------------------------------------------ state
@contextlib.contextmanager
def preserved_state() -> Iterator[None]:
    """Put the grad mode, the default dtype and the random generators back afterwards.

    Covers minitorch's grad mode, default dtype and default generator, NumPy's and Python's
    global generators, and PyTorch's grad mode, default dtype and generator when PyTorch is
    already imported.

    Example:
        >>> import minitorch
        >>> with preserved_state():
        ...     _ = minitorch.set_grad_enabled(False)
        ...     minitorch.set_default_dtype(minitorch.float64)
        >>> minitorch.is_grad_enabled(), minitorch.get_default_dtype()
        (True, torch.float32)
    """
    import minitorch
    from minitorch import _random

    generator = _random.default_generator
    saved = [
        (minitorch.is_grad_enabled(), minitorch.set_grad_enabled),
        (minitorch.get_default_dtype(), minitorch.set_default_dtype),
        (generator.get_state(), generator.set_state),
        (np.random.get_state(), np.random.set_state),
        (random.getstate(), random.setstate),
    ]
    torch = sys.modules.get("torch")
    if torch is not None and hasattr(torch, "get_rng_state"):
        saved += [(torch.is_grad_enabled(), torch.set_grad_enabled),
                  (torch.get_default_dtype(), torch.set_default_dtype),
                  (torch.get_rng_state(), torch.set_rng_state)]
    try:
        yield
    finally:
        for value, restore in saved:
            with contextlib.suppress(Exception):
                restore(value)


# ------------------------------------------------------------------------ evaluate
def evaluate(title: str, cases: list[Case], hint: str = "",
             more_help: Sequence[str] = (), time_limit: float | None = None,
             refuse: Sequence[Shortcut] = ()) -> CheckResult:
    """Run ``cases`` and describe the first one that does not pass. Never raises.

    Every case runs (so the count of passing cases is right) unless one runs out of time or
    is interrupted; the feedback describes the first case that called a refused built-in,
    else the first case that raised or returned a wrong value.

    Args:
        title: the name of the check, e.g. ``"mul backward"``.
        cases: the cases to run, in the order a learner should fix them.
        hint: a short nudge naming the concept, shown under a wrong answer.
        more_help: further hints, revealed one at a time on request; none gives the solution.
        time_limit: seconds each case may run (default: :func:`get_time_limit`).
        refuse: the :class:`Shortcut` s that every case refuses.

    Returns:
        A :class:`CheckResult`.

    Example:
        >>> def todo():
        ...     raise NotImplementedError
        >>> evaluate("todo", [Case("todo()", todo, 1)]).status
        'todo'
    """
    limit = get_time_limit() if time_limit is None else float(time_limit)
    outcomes: list[tuple[_Outcome, Case]] = []
    with preserved_state():
        for case in cases:
            outcome = _run_case(case, limit, refuse)
            outcomes.append((outcome, case))
            if outcome.status in ("timeout", "interrupted"):
                break

    n_total = len(cases)
    n_passed = sum(outcome.status == "pass" for outcome, _ in outcomes)
    problems = [(outcome, case) for outcome, case in outcomes if outcome.status != "pass"]
    if not problems:
        return CheckResult(title, "pass", n_passed, n_total,
                           lines=[f"✓ {title}: all {n_total} cases passed."])

    refused = [(outcome, case) for outcome, case in problems if outcome.status == "refused"]
    outcome, case = (refused or problems)[0]
    status = outcome.status
    count = f"{n_passed} of {n_total} cases passed."
    culprit = outcome.frame.name if outcome.frame is not None else None
    if culprit in ("<lambda>", "<module>", "<listcomp>", "<genexpr>"):
        culprit = None
    if status == "todo":
        who = f"`{culprit}`" if culprit else "your code"
        where = f" (line {outcome.frame.lineno})" if outcome.frame is not None else ""
        lines = [
            f"⏳ {title}: not done yet.",
            f"{who}{where} still raises `NotImplementedError` (reached by case "
            f"`{case.name}`): replace it with your code, then run this check again.",
            count,
        ]
    elif status == "timeout":
        lines = [
            f"⌛ {title}: your function did not finish in {limit:g} s — is there an infinite "
            f"loop? (case `{case.name}`)",
            "A `while` loop whose condition never becomes false, or a graph walk that visits "
            "the same node again and again (keep a `seen` set), are the usual causes.",
            count,
        ]
    elif status == "interrupted":
        lines = [f"⏹ {title}: interrupted while running case `{case.name}`.",
                 "Nothing was checked after that; run the check again when you are ready.",
                 count]
    elif status == "refused":
        status = "fail"
        lines = [f"✗ {title}: case `{case.name}` called `{outcome.got}`: this exercise asks "
                 "you to do without it.",
                 f"The call: {outcome.error}." if outcome.error else "",
                 outcome.note or "", count]
        lines = [line for line in lines if line]
        if hint:
            lines.append(f"Hint: {hint}")
    elif status == "error":
        lines = [f"✗ {title}: case `{case.name}` raised {outcome.error}{_where(outcome.frame)}",
                 count]
        if hint:
            lines.append(f"Hint: {hint}")
    else:
        expected_text = case.expected_repr or format_value(case.expected)
        if outcome.got_type == "explained":  # a WrongAnswer: its message says it all
            lines = [f"✗ {title}: wrong result for `{case.name}`."]
            if outcome.got:
                lines += ["got:", f"  {outcome.got}"]
        elif expected_text == outcome.got:  # "expected: True / got: True" would say nothing
            lines = [f"✗ {title}: wrong result for `{case.name}`.", "got:",
                     f"  {outcome.got}"]
            if not outcome.note:
                kind = outcome.got_type
                article = "an" if kind[:1].lower() in "aeiou" else "a"
                lines.append(f"It prints like the expected value, but it is {article} {kind}, "
                             f"not {article_of(case.expected)}.")
        else:
            lines = [f"✗ {title}: wrong result for `{case.name}`.", "expected:",
                     f"  {expected_text}", "got:", f"  {outcome.got}"]
        if outcome.note:
            lines.append(outcome.note)
        lines.append(count)
        if hint:
            lines.append(f"Hint: {hint}")
    return CheckResult(title, status, n_passed, n_total, case=case.name, lines=lines,
                       culprit=culprit, help_steps=list(more_help))


def article_of(value: Any) -> str:
    """'a bool', 'an int': the kind of ``value``, for a message."""
    kind = type_name(value)
    return ("an " if kind[:1].lower() in "aeiou" else "a ") + kind


_last = threading.local()


def last_result() -> CheckResult | None:
    """The result of the last check run in this thread (``None`` before the first).

    Example:
        >>> _ = run_check("one", [Case("1", lambda: 1, 1)])
        ✓ one: all 1 cases passed.
        >>> last_result().passed
        True
    """
    return getattr(_last, "result", None)


def more_help() -> None:
    """Show the next help step of the last failed check (outside Jupyter's button).

    Example:
        >>> _ = run_check("one", [Case("1", lambda: 2, 1)], more_help=["Is it 1?"])
        ✗ one: wrong result for `1`.
        ...
        >>> more_help()
        💡 Is it 1?
        >>> more_help()
        That was all the help there is for this check.
    """
    result = last_result()
    if result is None or not result.offers_help:
        print("No check has failed yet, so there is no help to show.")
        return
    step = result.more_help()
    if step is None:
        print("That was all the help there is for this check.")
    else:
        print(f"💡 {step}")


def run_check(title: str, cases: list[Case], hint: str = "",
              more_help: Sequence[str] = (), time_limit: float | None = None,
              refuse: Sequence[Shortcut] = ()) -> bool:
    """Run a check, show its feedback, and return whether every case passed.

    In Jupyter the feedback is a coloured HTML box (with a **More help** button when there
    is more help); in a plain Python process it is printed as text. Use :func:`evaluate` to
    get the :class:`CheckResult` without showing it.

    Args:
        title: the name of the check.
        cases: the :class:`Case` objects to run.
        hint: a short nudge naming the concept, shown under a wrong answer.
        more_help: further hints, revealed one at a time on request.
        time_limit: seconds each case may run (default: :func:`get_time_limit`).
        refuse: the :class:`Shortcut` s that every case refuses.

    Returns:
        ``True`` if all cases passed, ``False`` otherwise.

    Example:
        >>> run_check("square", [Case("square(3)", lambda: 3 ** 2, 9)])
        ✓ square: all 1 cases passed.
        True
    """
    result = evaluate(title, cases, hint, more_help, time_limit, refuse)
    _last.result = result
    remember(result)  # the latest verdict, for the progress table (never raises)
    try:
        result.show()
    except Exception:
        print(result.text)
    return result.passed

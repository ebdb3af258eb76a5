"""The guarantees every check gives, whatever the learner's code does, tried on every check of
every chapter: no exception escapes, a time limit stops runaway code, the grad mode, the
default dtype and the random generators are put back, hostile objects are reported, an
unfinished helper is named, and no failure message or help step prints the solution.

The right solutions, the realistic wrong answers (``WRONG``) and the solution code that no
message may show (``GIVEAWAYS``) come from the chapter test modules,
``tests/test_checks_chNN_name.py``, one per chapter, each named after its notebook.
"""

from __future__ import annotations

import importlib
import math
import re
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from _checks import run

import minitorch
from minitorch.exercises import runner
from minitorch.exercises.runner import Case, Shortcut, evaluate, last_result, set_time_limit

TESTS = Path(__file__).parent
EXERCISES = TESTS.parent / "minitorch" / "exercises"
CHAPTER_MODULES = sorted(p.stem for p in EXERCISES.glob("ch[0-9][0-9]_*.py"))
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")


def _test_module(chapter_module: str):
    """``test_checks_chNN_name`` for the exercise module ``chNN_name``."""
    sys.path.insert(0, str(TESTS))
    try:
        return importlib.import_module(f"test_checks_{chapter_module}")
    finally:
        sys.path.pop(0)


CHAPTER_TESTS = {module: _test_module(module) for module in CHAPTER_MODULES}
RIGHT = {name: pair for tests in CHAPTER_TESTS.values() for name, pair in tests.RIGHT.items()}
WRONG = [wrong for tests in CHAPTER_TESTS.values() for wrong in tests.WRONG]
GIVEAWAYS = {name: codes for tests in CHAPTER_TESTS.values()
             for name, codes in tests.GIVEAWAYS.items()}


@pytest.fixture(autouse=True)
def _short_time_limit():
    old = set_time_limit(3)
    yield
    set_time_limit(old)


def _checks_of(module_name: str) -> set[str]:
    module = importlib.import_module(f"minitorch.exercises.{module_name}")
    return {n for n in dir(module) if n.startswith("check_") and callable(getattr(module, n))
            and getattr(module, n).__module__ == module.__name__}


# ------------------------------------------------------------------ coverage
def test_every_check_of_every_chapter_is_covered_by_its_chapters_test_module():
    for module_name, tests in CHAPTER_TESTS.items():
        assert set(tests.RIGHT) == _checks_of(module_name), module_name
        for name, (check, _) in tests.RIGHT.items():
            assert check.__module__ == f"minitorch.exercises.{module_name}", name
    assert len(RIGHT) == 35


def test_every_chapter_module_has_a_test_module_named_after_it():
    names = sorted(p.stem for p in TESTS.glob("test_checks_ch*.py"))
    assert names == [f"test_checks_{module}" for module in CHAPTER_MODULES]
    assert not list(TESTS.glob("test_exercises_ch*.py"))  # no names from an old numbering


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_every_check_has_at_least_three_realistic_wrong_answers(name):
    wrong = [w for w in WRONG if w[0] == name]
    assert len(wrong) >= 3, name
    for _, _, what, words in wrong:
        assert what and words, (name, what)  # each names what it gets wrong and the cause


# ------------------------------------------------------------------ faults injected anywhere
def topo_sort(graph, root):  # the learner's unfinished helper
    raise NotImplementedError("your code here")


class BadMessageError(Exception):
    def __str__(self):
        raise RuntimeError("no message for you")


class Hostile:
    """A returned object that breaks whatever touches it."""

    def __repr__(self):
        raise RuntimeError("repr")

    def __getattr__(self, name):
        raise RuntimeError(f"getattr {name}")

    def __eq__(self, other):
        raise RuntimeError("eq")

    def __bool__(self):
        raise RuntimeError("bool")

    def __iter__(self):
        raise RuntimeError("iter")

    def __len__(self):
        raise RuntimeError("len")

    __hash__ = None


def _faulty(name, fault):
    """The right solution of check ``name`` with ``fault()`` called where its work starts."""
    _, right = RIGHT[name]
    if not isinstance(right, type):
        return lambda *args, **kwargs: fault()
    if issubclass(right, minitorch.autograd.Function):
        class Faulty(right):
            @staticmethod
            def forward(ctx, *args):
                return fault()
        return Faulty
    if name == "check_no_grad_context":
        class FaultyContext(right):
            def __enter__(self):
                return fault()
        return FaultyContext
    if name == "check_backend":
        class FaultyBackend(right):
            def from_numpy(self, *args, **kwargs):
                return fault()
        return FaultyBackend

    class Faulty(right):
        def __init__(self, *args, **kwargs):
            fault()
    return Faulty


def _unfinished():
    return topo_sort({}, "root")


def _exit():
    sys.exit(3)


def _bad_message():
    raise BadMessageError()


def _hostile():
    return Hostile()


def _interrupt():
    raise KeyboardInterrupt


def _no_grad_forever():
    minitorch.set_grad_enabled(False)
    minitorch.set_default_dtype(minitorch.float64)
    minitorch.manual_seed(1234)
    np.random.seed(99)
    raise ValueError("gave up")


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_an_unfinished_helper_is_named_as_the_culprit(name):
    result = run(RIGHT[name][0], _faulty(name, _unfinished))
    assert result.status == "todo", result.text
    assert result.culprit == "topo_sort"
    assert "`topo_sort` (line" in result.text
    assert "still raises `NotImplementedError`" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_system_exit_is_a_result(name):
    result = run(RIGHT[name][0], _faulty(name, _exit))
    assert result.status in ("error", "fail"), result.text
    if result.status == "error":
        assert "SystemExit" in result.text and "_exit" in result.text
        assert "sys.exit(3)" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_an_exception_whose_str_raises_is_a_result(name):
    result = run(RIGHT[name][0], _faulty(name, _bad_message))
    assert not result.passed
    if result.status == "error":
        assert "BadMessageError" in result.text and "could not be shown" in result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_a_hostile_return_value_is_a_result(name):
    result = run(RIGHT[name][0], _faulty(name, _hostile))
    assert not result.passed and result.status in ("fail", "error"), result.text


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_keyboard_interrupt_stops_the_check(name):
    result = run(RIGHT[name][0], _faulty(name, _interrupt))
    assert result.status == "interrupted" and "interrupted" in result.text.splitlines()[0]


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_state_is_restored(name):
    before = np.random.get_state()[1].copy()
    minitorch.manual_seed(7)
    expected_draw = minitorch.randn(3).numpy()
    minitorch.manual_seed(7)
    result = run(RIGHT[name][0], _faulty(name, _no_grad_forever))
    assert not result.passed
    assert minitorch.is_grad_enabled()
    assert minitorch.get_default_dtype() == minitorch.float32
    assert np.array_equal(minitorch.randn(3).numpy(), expected_draw)
    assert np.array_equal(np.random.get_state()[1], before)
    assert sys.getprofile() is None  # the watch for refused built-ins is gone too


def test_an_infinite_loop_hits_the_time_limit():
    def spin(*args):
        while True:
            pass

    start = time.perf_counter()
    result = evaluate("spin", [Case("spin()", spin, 1), Case("never run", lambda: 1, 1)],
                      time_limit=0.3)
    assert time.perf_counter() - start < 3
    assert result.status == "timeout"
    assert "your function did not finish in 0.3 s — is there an infinite loop?" in result.text
    time.sleep(0.1)
    assert not any(t.name.startswith("minitorch check: spin") for t in threading.enumerate())
    # and through a real check, with the configurable limit
    set_time_limit(0.3)
    check_topological_sort = RIGHT["check_topological_sort"][0]
    result = run(check_topological_sort, spin)
    assert result.status == "timeout" and "did not finish in 0.3 s" in result.text


def test_an_infinite_loop_under_a_refused_built_in_watch_hits_the_time_limit():
    """A check that watches for refused built-ins still stops a runaway loop, and the watch
    does not outlive it."""
    def spin(a, b):
        while True:
            pass

    set_time_limit(0.3)
    result = run(RIGHT["check_broadcast_shape"][0], spin)
    assert result.status == "timeout"
    assert sys.getprofile() is None


# ------------------------------------------------------------------ refused built-ins
def test_a_refused_built_in_is_refused_under_any_name_and_even_when_caught():
    from numpy import broadcast_shapes as shapes_of

    no_numpy = Shortcut("work it out yourself", objects={"np.broadcast_shapes":
                                                         np.broadcast_shapes})

    def aliased():
        return shapes_of((3, 1), (4,))

    def swallowed():
        try:
            return np.broadcast_shapes((3, 1), (4,))
        except BaseException:
            return (3, 4)

    for answer in (aliased, swallowed):
        result = evaluate("shape", [Case("(3, 1) and (4,)", answer, (3, 4))], refuse=[no_numpy])
        assert result.status == "fail", result.text
        assert "called `np.broadcast_shapes`" in result.text
        assert "work it out yourself" in result.text
    assert sys.getprofile() is None


def test_library_code_may_call_what_the_learner_may_not():
    """Only the learner's own calls are refused: minitorch calling NumPy inside `x + y` is
    not the learner calling NumPy."""
    no_reduce = Shortcut("by hand", objects={"np.add.reduce": np.add.reduce})
    x = minitorch.ones(3)
    result = evaluate("sum", [Case("x.sum()", lambda: x.sum().item(), 3.0)],
                      refuse=[no_reduce])
    assert result.passed, result.text


# ------------------------------------------------------------------ messages
def test_hints_never_print_the_solution():
    """A failure's text and every help step together do not contain the solution's code (the
    learner's own line, quoted where it raised, is theirs, not ours)."""
    for name, wrong, _, _ in WRONG:
        result = run(RIGHT[name][0], wrong)
        everything = re.sub(r"line \d+: `[^\n]*?`\)", "",
                            result.text + "\n".join(result.help_steps))
        for code in GIVEAWAYS.get(name, []):
            assert code not in everything, (name, code)
        if result.status in ("fail", "error"):
            assert result.help_steps, name
            assert any(line.startswith("Hint: ") for line in result.lines), name


def test_more_help_comes_in_steps():
    check_backprop = RIGHT["check_backprop"][0]
    overwrite = next(w for n, w, what, _ in WRONG if n == "check_backprop" and "=" in what)
    result = run(check_backprop, overwrite)
    steps = list(result.help_steps)
    assert len(steps) >= 2 and result.help_shown == 0
    assert not any(step in result.text for step in steps)  # nothing until asked
    assert [result.more_help() for _ in steps] == steps
    assert result.more_help() is None


def test_more_help_button_in_jupyter(monkeypatch):
    """In Jupyter a failure shows a More help button; each click adds one step."""
    from minitorch.exercises import _common

    check_backprop = RIGHT["check_backprop"][0]
    overwrite = next(w for n, w, what, _ in WRONG if n == "check_backprop" and "=" in what)
    shown = []
    monkeypatch.setattr(runner, "_in_ipython", lambda: True)
    monkeypatch.setattr(_common, "display_widget", lambda widget, text=None: shown.append(text))
    assert not check_backprop(overwrite)
    result = last_result()
    assert shown == [result.text]
    box = result.widget
    steps, button = box.children[1], box.children[2]
    assert steps.value == "" and button.description == "More help"
    for n in range(len(result.help_steps)):
        button.click()
        assert steps.value.count("💡") == n + 1
    assert button.disabled and button.description == "No more help"


# ------------------------------------------------------------------ hostile objects, Hypothesis
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


class RaisingRepr:
    def __repr__(self):
        raise ValueError("repr")


class RaisingStrError(Exception):
    def __str__(self):
        raise ValueError("str")


HOSTILE = {  # by name, so Hypothesis never has to repr the hostile objects themselves
    "None": lambda: None, "raising __repr__": RaisingRepr, "raising everything": Hostile,
    "a string": lambda: "a string", "an int": lambda: 3, "a float": lambda: 2.5,
    "nan": lambda: math.nan, "inf": lambda: math.inf, "[None]": lambda: [None], "{}": dict,
    "object()": object, "nan array": lambda: np.full((3,), np.nan),
    "big array": lambda: np.zeros((300, 300)),
    "nan tensor": lambda: minitorch.full((2, 3), float("nan")),
    "big tensor": lambda: minitorch.zeros(200, 200),
    "huge tensor": lambda: minitorch.zeros(2000, 2000),
    "nested lists": lambda: [[[[[[]]]]]],
}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(RIGHT)), kind=st.sampled_from(sorted(HOSTILE)),
       how=st.sampled_from(["return", "raise", "solution"]))
def test_checks_survive_hostile_objects(name, kind, how):
    """Every check, fed a hostile object (as a returned value, a raised exception, or as the
    solution itself), reports a result and never raises."""
    check = RIGHT[name][0]
    value = HOSTILE[kind]()
    if how == "solution":
        learner = value
    elif how == "raise":
        learner = _faulty(name, lambda: (_ for _ in ()).throw(RaisingStrError()))
    else:
        learner = _faulty(name, lambda: value)
    result = run(check, learner)
    assert not result.passed
    assert result.status in ("fail", "error", "todo", "timeout"), result.text
    assert result.text and result.html
    assert minitorch.is_grad_enabled()
    assert sys.getprofile() is None

"""Every kind of widget the notebooks show displays as a live widget, on the installed ipywidgets.

This file runs twice in the suite: here, with the ipywidgets 8 of the test environment
(JupyterLab 4), and inside the Colab-like environment of ``tests/test_launch_paths.py``, with the
ipywidgets 7.7.1 that Colab ships. Each widget is displayed through IPython's own ``display``
(what a notebook cell's last line does), and the published bundle must carry the widget view
(ipywidgets' model id) and our own plain-text form, never an AttributeError.
"""

from __future__ import annotations

import pytest

widgets = pytest.importorskip("ipywidgets", reason="the widgets need ipywidgets")
IPython = pytest.importorskip("IPython", reason="display needs IPython")

import minitorch  # noqa: E402
from minitorch.exercises import PredictValue, quiz_for, tangent_explorer  # noqa: E402
from minitorch.exercises.questions import QUESTIONS  # noqa: E402
from minitorch.viz import record_forward_graph, step_backward  # noqa: E402

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def published():
    """What ``IPython.display.display`` publishes, captured from an InteractiveShell."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    captured: list[dict] = []
    original = shell.display_pub.publish
    shell.display_pub.publish = lambda data, metadata=None, *a, **k: captured.append(data)
    try:
        yield captured
    finally:
        shell.display_pub.publish = original


def _shown(obj, published) -> dict:
    from IPython.display import display

    published.clear()
    display(obj)
    bundles = [b for b in published if WIDGET in b]
    assert len(bundles) == 1, f"{type(obj).__name__} published {published!r}"
    return bundles[0]


def _model_ids(widget) -> set[str]:
    """The model ids of ``widget`` and every widget inside it."""
    ids, stack = set(), [widget]
    while stack:
        w = stack.pop()
        ids.add(w.model_id)
        stack.extend(getattr(w, "children", ()))
    return ids


def test_the_installed_ipywidgets_is_one_the_course_supports():
    major = int(widgets.__version__.split(".")[0])
    assert major in (7, 8), widgets.__version__


@pytest.mark.parametrize("chapter", sorted(QUESTIONS))
def test_every_quiz_displays_as_a_widget(chapter, published):
    for i in range(len(QUESTIONS[chapter])):
        quiz = quiz_for(chapter, i)
        bundle = _shown(quiz, published)
        view = bundle[WIDGET]
        assert view["version_major"] == 2
        assert view["model_id"] == quiz.widget.model_id
        assert bundle["text/plain"] == repr(quiz)


def test_predict_value_displays_and_answers(published):
    box = PredictValue("What is `1 + 1`?", answer=2.0, explanation="one plus one")
    bundle = _shown(box, published)
    assert bundle[WIDGET]["model_id"] == box.widget.model_id
    assert bundle["text/plain"] == repr(box)


def test_tangent_explorer_displays(published):
    explorer = tangent_explorer(lambda w, b: (w - 1.0) ** 2 + b, lambda w, b: 2 * (w - 1.0),
                                x_range=(-2, 2), w=0.0, b_range=(-1, 1))
    bundle = _shown(explorer, published)
    assert bundle[WIDGET]["model_id"] in _model_ids(explorer.widget)


def test_backward_stepper_displays_and_steps(published):
    x = minitorch.tensor(3.0, requires_grad=True)
    loss = (x * 2) * (x + 1)
    stepper = step_backward(loss, params={"x": x, "loss": loss})
    bundle = _shown(stepper, published)
    assert bundle[WIDGET]["model_id"] == stepper.widget.model_id
    assert bundle["text/plain"] == stepper.describe()
    stepper.next()
    assert stepper.current == 1


def test_forward_recorder_displays(published):
    def f(a, b):
        return (a * b).sum()

    a = minitorch.ones(2, requires_grad=True)
    recording = record_forward_graph(f, a, minitorch.ones(2), params={"a": a})
    bundle = _shown(recording, published)
    assert bundle[WIDGET]["model_id"] == recording.widget.model_id


def test_progress_table_displays_and_its_buttons_work(published, tmp_path, monkeypatch):
    from minitorch.exercises import ProgressTable
    from minitorch.exercises.ch00_start_here import check_derivative

    monkeypatch.setenv("MINITORCH_PROGRESS", str(tmp_path / "progress.json"))
    check_derivative(lambda x: 6 * (3 * x + 1))
    table = ProgressTable()
    bundle = _shown(table, published)
    assert bundle[WIDGET]["model_id"] == table.widget.model_id
    assert bundle["text/plain"] == repr(table) and "✓ df" in repr(table)
    reset = table._widgets["reset"]
    reset.click()
    assert table.n_passed == 1  # the first press only asks
    reset.click()
    assert table.n_passed == 0 and not (tmp_path / "progress.json").exists()
    check_derivative(lambda x: 6 * (3 * x + 1))
    table._widgets["refresh"].click()
    assert table.n_passed == 1 and "1 of" in table._widgets["table"].value

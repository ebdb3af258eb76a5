"""The progress table: every check's latest verdict, saved on the learner's computer, shown by
chapter 00 for every chapter. Saving must never get in a check's way."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from pathlib import Path

import pytest

from minitorch.exercises import ProgressTable, progress_path, reset_progress
from minitorch.exercises.catalog import chapters
from minitorch.exercises.ch00_start_here import check_derivative
from minitorch.exercises.ch01_tensors import check_broadcast_shape
from minitorch.exercises.runner import Case, last_result, run_check

ROOT = Path(__file__).resolve().parents[1]


def right_broadcast_shape(a, b):
    """By hand, as the exercise asks (the check refuses np.broadcast_shapes)."""
    a, b = tuple(a), tuple(b)
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} cannot be broadcast")
        out.append(y if x == 1 else x)
    return tuple(out)


def unfinished(a, b):
    raise NotImplementedError("your code here")


def quietly(check, answer):
    with contextlib.redirect_stdout(io.StringIO()):
        return check(answer)


@pytest.fixture
def progress_file(tmp_path, monkeypatch):
    path = tmp_path / "progress.json"
    monkeypatch.setenv("MINITORCH_PROGRESS", str(path))
    return path


def marks(table: ProgressTable) -> dict[str, str]:
    """{learner name: mark} read from the table's text."""
    found = {}
    for line in repr(table).splitlines()[1:-1]:
        for mark, name in re.findall(r"(✓|✗|⏳|·) (\w+)", line):
            found[name] = mark
    return found


def test_the_table_after_passing_one_check(progress_file):
    assert quietly(check_broadcast_shape, right_broadcast_shape)
    table = ProgressTable()
    n_exercises = sum(len(chapter.checks) for chapter in chapters())
    assert table.n_passed == 1 and table.n_total == n_exercises
    text = repr(table)
    assert text.splitlines()[0] == f"Your progress: 1 of {n_exercises} exercises passed."
    assert re.search(r"^01 Tensors +✓ broadcast_shape  · MyTensor$", text, re.M)
    assert marks(table) == {name: "✓" if name == "broadcast_shape" else "·"
                            for chapter in chapters() for name in chapter.checks.values()}
    saved = json.loads(progress_file.read_text())
    cases = last_result().n_total
    assert cases >= 10
    assert saved["checks"] == {"tensors": {"check_broadcast_shape": {
        "status": "pass", "passed": cases, "total": cases}}}
    assert "✓</span> <code>broadcast_shape</code>" in table._repr_html_()


def test_the_latest_verdict_wins_and_each_status_has_its_mark(progress_file):
    quietly(check_broadcast_shape, right_broadcast_shape)
    quietly(check_broadcast_shape, unfinished)  # done, then broken again: not done
    quietly(check_derivative, lambda x: 2 * (3 * x + 1))  # the inner derivative forgotten
    table = ProgressTable()
    assert table.n_passed == 0
    assert marks(table)["broadcast_shape"] == "⏳" and marks(table)["df"] == "✗"
    quietly(check_derivative, lambda x: 6 * (3 * x + 1))
    table.refresh()
    assert marks(table)["df"] == "✓" and table.n_passed == 1


def test_only_a_chapters_own_checks_are_saved(progress_file):
    quietly(lambda _: run_check("my own check", [Case("1", lambda: 1, 1)]), None)
    assert not progress_file.exists()


def test_outside_a_notebook_nothing_is_saved_unless_a_file_is_named(tmp_path, monkeypatch):
    monkeypatch.delenv("MINITORCH_PROGRESS")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert progress_path() == tmp_path / ".minitorch" / "progress.json"
    quietly(check_broadcast_shape, right_broadcast_shape)  # a test or a script, not IPython
    assert not (tmp_path / ".minitorch").exists()


def test_off_saves_nothing_and_shows_an_empty_table(monkeypatch, tmp_path):
    monkeypatch.setenv("MINITORCH_PROGRESS", "off")
    assert progress_path() is None
    assert quietly(check_broadcast_shape, right_broadcast_shape)
    assert ProgressTable().n_passed == 0
    assert reset_progress()


@pytest.mark.parametrize("damage", ["not json {", '{"checks": [1, 2]}', '"a string"',
                                    '{"checks": {"tensors": {"check_my_tensor": 7}}}'])
def test_a_damaged_file_never_breaks_a_check_and_is_replaced(progress_file, damage):
    progress_file.write_text(damage)
    assert quietly(check_broadcast_shape, right_broadcast_shape)
    assert ProgressTable().n_passed == 1
    assert json.loads(progress_file.read_text())["format"] == 1


def test_a_read_only_home_never_breaks_a_check(progress_file, monkeypatch):
    from minitorch.exercises import progress

    def read_only(*args, **kwargs):
        raise PermissionError(30, "Read-only file system")

    monkeypatch.setattr(progress.tempfile, "mkstemp", read_only)
    assert quietly(check_broadcast_shape, right_broadcast_shape)
    assert not progress_file.exists() and ProgressTable().n_passed == 0


def test_a_path_that_cannot_be_a_folder_never_breaks_a_check(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MINITORCH_PROGRESS", str(blocker / "progress.json"))
    assert quietly(check_broadcast_shape, right_broadcast_shape)
    assert ProgressTable().n_passed == 0
    assert blocker.read_text() == "not a folder"


def test_reset_erases_and_the_button_asks_first(progress_file):
    quietly(check_broadcast_shape, right_broadcast_shape)
    table = ProgressTable()
    parts = table._build()
    table._widgets = parts
    assert "1 of" in parts["table"].value
    parts["reset"].click()  # the first press only asks
    assert progress_file.exists() and parts["reset"].description == "Erase everything?"
    parts["reset"].click()
    assert not progress_file.exists()
    assert table.n_passed == 0 and "0 of" in parts["table"].value
    assert parts["reset"].description == "Reset" and "erased" in parts["note"].value
    quietly(check_derivative, lambda x: 6 * (3 * x + 1))
    parts["refresh"].click()  # a check run elsewhere shows after Refresh
    assert table.n_passed == 1 and "1 of" in parts["table"].value
    assert reset_progress() and reset_progress()  # nothing left to erase is fine too
    assert ProgressTable().n_passed == 0


def test_the_table_shows_as_a_widget_with_its_text():
    bundle = ProgressTable()._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("Your progress: ")


def test_a_check_in_a_real_kernel_is_saved_under_home(tmp_path):
    """In a notebook (no MINITORCH_PROGRESS) a passed check lands in ~/.minitorch/progress.json
    and chapter 00's table shows it."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    cells = [
        "from minitorch.exercises.ch00_start_here import check_derivative\n"
        "check_derivative(lambda x: 6 * (3 * x + 1));",
        "from minitorch.exercises import ProgressTable\nProgressTable()",
    ]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    env = {key: value for key, value in os.environ.items() if key != "MINITORCH_PROGRESS"}
    env.update(HOME=str(tmp_path), IPYTHONDIR=str(tmp_path / ".ipython"))
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute(env=env)
    saved = json.loads((tmp_path / ".minitorch" / "progress.json").read_text())
    assert saved["checks"]["start_here"]["check_derivative"]["status"] == "pass"
    shown = notebook.cells[1].outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in shown
    assert re.search(r"^00 Start here +✓ df$", shown["text/plain"], re.M)
    assert shown["text/plain"].splitlines()[0].startswith("Your progress: 1 of ")


def test_chapter_00_shows_the_table_for_its_own_run():
    """The stored table is the one a fresh progress file gives after chapter 00's check passed:
    re-execute chapter 00 when a chapter or a check is added."""
    nb = json.loads((ROOT / "notebooks" / "solutions" / "00_start_here.ipynb").read_text())
    cells = [c for c in nb["cells"] if "ProgressTable()" in "".join(c["source"])]
    assert len(cells) == 1 and "nbval-ignore-output" not in cells[0]["metadata"].get("tags", [])
    stored = "".join(cells[0]["outputs"][0]["data"]["text/plain"])
    n_exercises = sum(len(chapter.checks) for chapter in chapters())
    assert stored.splitlines()[0] == f"Your progress: 1 of {n_exercises} exercises passed."
    for chapter in chapters():
        line = next(line for line in stored.splitlines() if line.startswith(chapter.label))
        assert re.findall(r"(?:✓|·) (\w+)", line) == list(chapter.checks.values())
    markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "Colab" in markdown and "restart" in markdown and "reset_progress()" in markdown

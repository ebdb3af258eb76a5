"""``python -m minitorch.exercises grade``: every chapter's checks, rerun by the grader on the
names a notebook defined, in a temporary copy, under time and output limits.

The slow tests grade every solution notebook (every check passes) and every learner copy (no
check passes, nothing crashes) once each, and a set of hostile submissions: each gets the right
verdict, within its limits, and changes nothing outside the grader's temporary folders.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import io
import json
import os
import re
import tempfile
import time
from pathlib import Path

import pytest

from minitorch.exercises import catalog
from minitorch.exercises.catalog import chapters, find_chapter, read_chapter
from minitorch.exercises.grading import (
    Limits,
    classroom_workflow,
    format_report,
    grade_notebook,
    main,
    recognize_chapter,
)

nbformat = pytest.importorskip("nbformat", reason="the grader needs the course extra")
pytest.importorskip("nbclient", reason="the grader needs the course extra")

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb"))
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


# ------------------------------------------------------------------ the chapters' CHECKS
def _code_cells(path: Path) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]
            if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_check_is_declared_with_the_name_its_notebook_passes(path):
    """CHECKS lists every check of the chapter's module, in the order the notebook first runs
    them, each with the name the notebook passes it; the learner copy defines that name (in the
    exercise cell, or, like the capstone's ``Tensor``, in given code that exercises extend)."""
    chapter = find_chapter(path.stem)
    assert chapter.notebook == path.name
    module = importlib.import_module(f"minitorch.exercises.{chapter.module}")
    defined = [name for name, value in vars(module).items()
               if name.startswith("check_") and inspect.isfunction(value)
               and value.__module__ == module.__name__]
    given = getattr(module, "GIVEN", {})  # checks of given code: not exercises
    assert module.CHECKS == chapter.checks
    assert set(chapter.checks) | set(given) == set(defined)
    assert not set(chapter.checks) & set(given)
    cells = _code_cells(path)
    calls = [(check, arg) for cell in cells
             for check, arg in re.findall(r"^(check_\w+)\((\w+)\)", cell, re.M)]
    for check, name in given.items():
        assert (check, name) in calls, f"the notebook never runs {check}({name})"
    calls = [(check, arg) for check, arg in calls if check not in given]
    assert list(dict.fromkeys(check for check, _ in calls)) == list(chapter.checks)
    learner = _code_cells(path.parent.parent / path.name)
    for check, name in chapter.checks.items():
        assert (check, name) in calls, f"the notebook never runs {check}({name})"
        defining = [cell for cell in learner if re.search(rf"^(def|class) {name}\b", cell, re.M)]
        assert defining, f"the learner copy of {path.name} never defines {name}"
        if not any("YOUR CODE" in cell for cell in defining):  # given code, then exercises
            assert any("YOUR CODE" in cell and name in cell for cell in learner), name


def test_every_exercise_module_has_a_chapter_and_every_notebook_a_module():
    modules = sorted(p.stem for p in catalog.EXERCISES.glob("ch[0-9][0-9]_*.py"))
    assert [c.module for c in chapters()] == modules
    assert [c.notebook for c in chapters()] == [p.name for p in SOLUTIONS]
    assert all(c.title and c.checks for c in chapters())
    assert [c.number for c in chapters()] == list(range(len(SOLUTIONS)))


def test_find_chapter_takes_any_of_its_names():
    chapter = find_chapter("ch02_recording_the_dag")
    for key in (2, "02", "2", "02_recording_the_dag", "02_recording_the_dag.ipynb",
                "recording_the_dag"):
        assert find_chapter(key) == chapter
    with pytest.raises(LookupError, match="no chapter '99'"):
        find_chapter("99")


def test_a_module_without_a_literal_checks_dict_is_refused(tmp_path):
    path = tmp_path / "ch42_nothing.py"
    path.write_text('"""Chapter 42 (Nothing): no checks."""\nCHECKS = dict(check_x="x")\n')
    with pytest.raises(ValueError, match="CHECKS"):
        read_chapter(path)
    path.write_text('"""No title."""\nCHECKS = {"check_x": "x"}\n')
    assert read_chapter(path).title == "Nothing" and read_chapter(path).slug == "nothing"


# ------------------------------------------------------------------ recognizing a chapter
def _notebook(*cells: str, title: str | None = None):
    made = [nbformat.v4.new_code_cell(c) for c in cells]
    if title is not None:
        made.insert(0, nbformat.v4.new_markdown_cell(title))
    return nbformat.v4.new_notebook(cells=made)


def test_the_chapter_comes_from_the_imports_then_the_title_then_the_file_name():
    imports = _notebook("from minitorch.exercises.ch02_recording_the_dag import check_mul",
                        title="# 05 · wrong title")
    assert recognize_chapter(imports, "07_neural_networks.ipynb") == (
        find_chapter(2), "its imports")
    titled = _notebook("x = 1", title="# 03 · Backward: the chain rule\n\ntext")
    assert recognize_chapter(titled, "mine.ipynb") == (find_chapter(3), "its title")
    for name in ("Copy of 04_backward_engine.ipynb", "04_backward_engine (2).ipynb",
                 "alice-04_backward_engine.ipynb"):
        assert recognize_chapter(_notebook("x = 1"), name) == (find_chapter(4), "its file name")
    chapter, why = recognize_chapter(_notebook("x = 1"), "homework.ipynb")
    assert chapter is None and "--chapter" in why
    unknown_module = _notebook("import minitorch.exercises.ch99_future")
    assert recognize_chapter(unknown_module, "x.ipynb")[0] is None


# ------------------------------------------------------------------ the command's other parts
def test_checks_lists_every_chapter(capsys):
    assert main(["checks"]) == 0
    out = capsys.readouterr().out
    for chapter in chapters():
        assert chapter.label in out
        for check, name in chapter.checks.items():
            assert f"{check}({name})" in out


@pytest.mark.parametrize("per_check", [False, True])
def test_classroom_prints_a_workflow_with_one_test_per_chapter_or_check(per_check):
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(classroom_workflow(per_check=per_check))
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    graders = [s for s in steps if s.get("uses", "").startswith(
        "classroom-resources/autograding-command-grader")]
    expected = [(c, check) for c in chapters() for check in (c.checks if per_check else [None])]
    assert len(graders) == len(expected)
    for step, (chapter, check) in zip(graders, expected):
        command = step["with"]["command"]
        assert command.startswith("python -I -m minitorch.exercises grade ")
        assert f"notebooks/{chapter.notebook} --chapter {chapter.number:02d} " in command
        assert (f"--check {check}" in command) if check else "--check" not in command
        assert step["with"]["max-score"] == (1 if check else len(chapter.checks))
    reporter = steps[-1]
    runners = reporter["with"]["runners"].split(",")
    assert runners == [s["id"] for s in graders]
    assert set(reporter["env"]) == {f"{r.upper()}_RESULTS" for r in runners}
    assert all(reporter["env"][f"{r.upper()}_RESULTS"] == f"${{{{steps.{r}.outputs.result}}}}"
               for r in runners)


def test_the_classroom_examples_in_the_docs_are_what_the_command_prints():
    workflow = classroom_workflow(only=[find_chapter(2)])
    readme = (ROOT / "README.md").read_text()
    assert f"```yaml\n{workflow}```" in readme
    start, end = workflow.index('      - name: "02'), workflow.index("      - name: Autograding")
    step = workflow[start:end]
    assert f"```yaml\n{step}```" in (ROOT / "notebooks" / "AUTHORING.md").read_text()
    assert "--timeout 300" in step and "timeout: 10" in step  # the grader ends first


def test_bad_options_are_refused(capsys):
    assert main(["grade", "x.ipynb", "--chapter", "99"]) == 2
    assert "no chapter" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["grade", "x.ipynb", "--timeout", "0"])


def test_a_check_that_does_not_exist_is_not_a_pass(tmp_path, capsys):
    path = tmp_path / "mine.ipynb"
    nbformat.write(_notebook(IMPORT_00), path)
    assert main(["grade", str(path), "--check", "check_mul", "-q"]) == 1
    out = capsys.readouterr().out
    assert "chapter 00 has no check check_mul (it has check_derivative)" in out
    assert "1 notebook, 0 checks: 0 passed, 0 not passed." in out


def test_a_file_that_is_not_a_notebook_is_reported_not_graded(tmp_path, capsys):
    path = tmp_path / "broken.ipynb"
    path.write_bytes(b"\x00\xffnot json")
    report_path = tmp_path / "report.json"
    assert main(["grade", str(path), "--json", str(report_path), "-q"]) == 1
    out = capsys.readouterr().out
    assert "could not read the notebook" in out and "1 notebook not graded" in out
    report = json.loads(report_path.read_text())
    assert report["passed"] is False and report["notebooks"][0]["checks"] == []


# ------------------------------------------------------------------ hostile submissions
IMPORT_00 = "from minitorch.exercises.ch00_start_here import check_derivative"
RIGHT_DF = "def df(x):\n    return 2 * (3 * x + 1) * 3"
WRONG_DF = "def df(x):\n    return 2 * (3 * x + 1)  # the inner derivative forgotten"
TODO_DF = 'def df(x):\n    raise NotImplementedError("your code here")'
IMPORT_01 = "from minitorch.exercises.ch01_tensors import check_broadcast_shape, check_my_tensor"
TODO_MY_TENSOR = ('class MyTensor:\n    def __init__(self, data, requires_grad=False):\n'
                  '        raise NotImplementedError("your code here")')


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "folder" for p in sorted(folder.rglob("*"))}


def _grader_folders() -> set[str]:
    return {name for name in os.listdir(tempfile.gettempdir())
            if name.startswith("minitorch-grade-")}


def grade(tmp_path: Path, *cells: str, limits: Limits | None = None, title: str | None = None,
          max_seconds: float = 90):
    """Grade a notebook of ``cells`` kept in ``tmp_path`` beside a file of the instructor's;
    check that nothing outside the grader's temporary folders changed and that it took at
    most ``max_seconds``."""
    path = tmp_path / "submission.ipynb"
    nbformat.write(_notebook(*cells, title=title), path)
    (tmp_path / "instructor.txt").write_text("the instructor's file\n")
    progress = Path(os.environ["MINITORCH_PROGRESS"])
    before = (_snapshot(tmp_path), _grader_folders(),
              progress.read_bytes() if progress.exists() else None, os.getcwd())
    start = time.monotonic()
    report = grade_notebook(path, limits=limits or Limits(cell=20, notebook=60, check=30))
    seconds = time.monotonic() - start
    after = (_snapshot(tmp_path), _grader_folders(),
             progress.read_bytes() if progress.exists() else None, os.getcwd())
    assert after == before
    assert seconds < max_seconds, f"grading took {seconds:.1f} s"
    return report


def statuses(report) -> dict[str, str]:
    return {check.check: check.status for check in report.checks}


def noted(report, pattern: str) -> bool:
    return any(re.search(pattern, note) for note in report.notes)


@pytest.mark.slow
def test_an_infinite_loop_is_interrupted_and_the_rest_still_counts(tmp_path):
    report = grade(tmp_path, IMPORT_00, "while True:\n    pass", RIGHT_DF,
                   limits=Limits(cell=3, notebook=60, check=30))
    assert statuses(report) == {"check_derivative": "pass"} and report.passed
    assert noted(report, r"cell 2 \(while True:\) ran past its time limit and was interrupted")


@pytest.mark.slow
def test_a_notebook_out_of_time_leaves_later_checks_not_attempted(tmp_path):
    report = grade(tmp_path, IMPORT_01, "def broadcast_shape(a, b):\n    return ()",
                   "import time\ntime.sleep(60)", TODO_MY_TENSOR,
                   limits=Limits(cell=30, notebook=8, check=30), max_seconds=45)
    assert statuses(report) == {"check_broadcast_shape": "fail",
                                "check_my_tensor": "not attempted"}
    assert report.checks[1].message == "`MyTensor` is not defined in the notebook"
    assert report.notes == ["the notebook ran out of its 8 s in cell 3 (import time): it was "
                            "interrupted and later cells did not run"]


@pytest.mark.slow
def test_a_loop_that_ignores_interrupts_is_skipped_in_a_new_kernel(tmp_path):
    report = grade(tmp_path, IMPORT_00, RIGHT_DF,
                   "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                   "while True:\n    pass", "df = df", limits=Limits(cell=3, notebook=60))
    assert report.passed
    assert noted(report, r"cell 3 \(import signal\) .*could not be interrupted")


@pytest.mark.slow
def test_exits_and_errors_are_contained(tmp_path):
    report = grade(tmp_path, IMPORT_00, "1 / 0", "import sys\nsys.exit(3)", "exit()",
                   "import os\nos._exit(0)", RIGHT_DF)
    assert report.passed, format_report([report])
    assert noted(report, r"cell 2 \(1 / 0\) raised ZeroDivisionError: division by zero")
    assert noted(report, r"cell 3 \(import sys\) raised SystemExit: 3")
    assert noted(report, r"cell 4 \(exit\(\)\) ended the kernel; it was skipped")
    assert noted(report, r"cell 5 \(import os\) ended the kernel; it was skipped")


@pytest.mark.slow
def test_a_check_that_ends_the_kernel_crashes_alone(tmp_path):
    report = grade(tmp_path, IMPORT_01,
                   "import os\n\ndef broadcast_shape(a, b):\n    os._exit(1)", TODO_MY_TENSOR)
    assert statuses(report) == {"check_broadcast_shape": "crashed", "check_my_tensor": "todo"}
    assert "ended the kernel" in report.checks[0].message


@pytest.mark.slow
def test_changing_folder_and_deleting_files_touches_only_the_temporary_copy(tmp_path):
    report = grade(tmp_path, IMPORT_00, RIGHT_DF,
                   "import os, shutil\nos.chdir('..')\nfor name in os.listdir('.'):\n"
                   "    if os.path.isdir(name):\n        shutil.rmtree(name)\n"
                   "    else:\n        os.remove(name)\nprint(os.listdir('.'))",
                   "import pathlib\nhome = pathlib.Path('~').expanduser()\n"
                   "home.mkdir(exist_ok=True)\n(home / 'minitorch-grading-test').write_text('x')")
    assert report.passed and not report.notes
    assert not (Path.home() / "minitorch-grading-test").exists()


@pytest.mark.slow
def test_a_redefined_or_patched_check_is_not_believed(tmp_path):
    report = grade(
        tmp_path, IMPORT_00, WRONG_DF,
        "import minitorch.exercises as ex\n"
        "import minitorch.exercises.ch00_start_here as ch00\n"
        "import minitorch.exercises.runner as runner\n\n"
        "def check_derivative(df):\n"
        "    print('✓ derivative of (3x + 1)**2: all 4 cases passed.')\n"
        "    return True\n\n"
        "ch00.check_derivative = ex.run_check = runner.run_check = check_derivative\n"
        "runner.evaluate = lambda title, cases, *a, **k: runner.CheckResult(\n"
        "    title, 'pass', len(cases), len(cases))\n"
        "runner.CheckResult.passed = property(lambda self: True)\n"
        "runner.last_result = lambda: runner.CheckResult('x', 'pass', 1, 1)\n"
        "check_derivative(df)")
    assert statuses(report) == {"check_derivative": "fail"}
    assert report.checks[0].message == "wrong result for `df(0.0)`."
    assert report.checks[0].cases == [0, 4]


@pytest.mark.slow
def test_another_minitorch_is_not_graded(tmp_path):
    fake = tmp_path / "elsewhere" / "minitorch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    report = grade(tmp_path, IMPORT_00, RIGHT_DF,
                   "import sys\nfor name in [m for m in sys.modules if 'minitorch' in m]:\n"
                   f"    del sys.modules[name]\nsys.path.insert(0, {str(fake.parent)!r})\n"
                   "import minitorch")
    assert statuses(report) == {"check_derivative": "error"}
    assert report.checks[0].message.startswith(
        "the grader could not run in this notebook's kernel (RuntimeError: the notebook uses "
        f"the minitorch in {fake.resolve()}, not the grader's")


@pytest.mark.slow
def test_printing_or_writing_passed_is_not_believed(tmp_path):
    report = grade(
        tmp_path, IMPORT_00, TODO_DF,
        "from IPython.display import HTML, display\n"
        "print('✓ derivative of (3x + 1)**2: all 4 cases passed.')\n"
        "display(HTML('<b>✓ passed</b>'))",
        "import json, os, pathlib\n"
        "record = {'status': 'pass', 'check': 'check_derivative', 'passed': 4, 'total': 4}\n"
        "path = pathlib.Path(os.environ['MINITORCH_PROGRESS'])\n"
        "path.parent.mkdir(parents=True, exist_ok=True)\n"
        "path.write_text(json.dumps({'format': 1, 'checks': {'start_here': {\n"
        "    'check_derivative': record}}}))\n"
        "pathlib.Path('results.jsonl').write_text(json.dumps(record) + '\\n')")
    assert statuses(report) == {"check_derivative": "todo"}
    assert report.checks[0].message.startswith("`df` (line 2) still raises")


@pytest.mark.slow
def test_megabytes_of_output_are_dropped_past_the_limit(tmp_path):
    loud_df = "def df(x):\n    print('y' * 5_000_000)  # even inside the check\n" \
              "    return 2 * (3 * x + 1) * 3"
    report = grade(tmp_path, IMPORT_00, loud_df, "print('x' * 20_000_000)",
                   "for i in range(100_000):\n    print(i)",
                   limits=Limits(cell=30, notebook=60, output=100_000))
    assert report.passed
    assert noted(report, r"output past 100000 characters was dropped \(2\d{7} characters\)")


@pytest.mark.slow
def test_a_notebook_without_names_is_not_attempted_and_graded_by_its_title(tmp_path):
    report = grade(tmp_path, "x = 1", title="# 01 · Tensors")
    assert report.recognized_from == "its title"
    assert statuses(report) == {"check_broadcast_shape": "not attempted",
                                "check_my_tensor": "not attempted"}


# ------------------------------------------------------------------ the course's notebooks
def _grade_all(paths, tmp_path_factory) -> tuple[int, dict, str]:
    """Grade ``paths`` with the command, two at a time: (exit status, JSON report, table)."""
    report_path = tmp_path_factory.mktemp("report") / "report.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["grade", *map(str, paths), "--json", str(report_path), "-q", "-j", "2"])
    return status, json.loads(report_path.read_text()), out.getvalue()


@pytest.fixture(scope="module")
def solutions_graded(tmp_path_factory):
    return _grade_all(SOLUTIONS, tmp_path_factory)


@pytest.fixture(scope="module")
def learner_copies_graded(tmp_path_factory):
    return _grade_all(LEARNER, tmp_path_factory)


def _by_notebook(report: dict) -> dict[str, dict]:
    return {Path(nb["notebook"]).name: nb for nb in report["notebooks"]}


@pytest.mark.slow
def test_every_check_of_every_solution_notebook_passes(solutions_graded):
    status, report, table = solutions_graded
    assert status == 0 and report["passed"], table
    notebooks = _by_notebook(report)
    for chapter in chapters():
        graded = notebooks[chapter.notebook]
        assert graded["chapter"]["module"] == chapter.module
        assert [c["check"] for c in graded["checks"]] == list(chapter.checks)
        assert all(c["status"] == "pass" for c in graded["checks"]), graded
        assert graded["notes"] == [], graded["notes"]
    n_checks = sum(len(c.checks) for c in chapters())
    assert table.rstrip().endswith(f"{len(SOLUTIONS)} notebooks, {n_checks} checks: "
                                   f"{n_checks} passed, 0 not passed.")


@pytest.mark.slow
def test_no_check_of_a_learner_copy_passes_and_nothing_crashes(learner_copies_graded):
    status, report, table = learner_copies_graded
    assert status == 1 and not report["passed"]
    notebooks = _by_notebook(report)
    for chapter in chapters():
        graded = notebooks[chapter.notebook]
        assert graded["recognized_from"] == "its imports"
        assert [c["check"] for c in graded["checks"]] == list(chapter.checks)
        for check in graded["checks"]:  # every exercise still raises NotImplementedError
            assert check["status"] == "todo", check
            assert check["message"].startswith("`") and "still raises" in check["message"]
        assert graded["notes"] == [], graded["notes"]


def test_the_table_shows_every_check_with_its_verdict():
    from minitorch.exercises.grading import CheckReport, NotebookReport

    report = NotebookReport("work/01.ipynb", find_chapter(1), "its title", seconds=3.25, checks=[
        CheckReport("check_broadcast_shape", "broadcast_shape", "pass", "all 12 cases passed.",
                    [12, 12], 0.01),
        CheckReport("check_my_tensor", "MyTensor", "not attempted",
                    "`MyTensor` is not defined in the notebook")],
        notes=["cell 3 (1 / 0) raised ZeroDivisionError: division by zero"])
    text = format_report([report])
    assert text.splitlines() == [
        "work/01.ipynb · chapter 01 Tensors (known by its title) · 3.2 s",
        "  ✓ passed         check_broadcast_shape  broadcast_shape  12/12  0.01 s  "
        "all 12 cases passed.",
        "  — not attempted  check_my_tensor        MyTensor             —       —  "
        "`MyTensor` is not defined in the notebook",
        "  note: cell 3 (1 / 0) raised ZeroDivisionError: division by zero",
        "",
        "1 notebook, 2 checks: 1 passed, 1 not passed.",
    ]
    assert not report.passed and json.dumps(report.to_json())


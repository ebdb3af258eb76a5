"""Grade learners' notebooks with the chapters' own checks: ``python -m minitorch.exercises grade``.

::

    python -m minitorch.exercises grade SUBMISSION.ipynb [MORE.ipynb ...] [--json report.json]

For each notebook the grader

1. works out its chapter: from the exercise module its code imports
   (``minitorch.exercises.ch02_recording_the_dag``), else from its title (``# 02 · ...``), else
   from its file name (``--chapter`` says it outright);
2. copies it into a fresh temporary folder and runs its cells, top to bottom, in a fresh
   kernel whose working folder and home folder are inside that temporary folder, with a time
   limit per cell and per notebook and a limit on how much output it keeps. A cell that
   raises does not stop the run (a later exercise still counts); a cell that runs past its
   limit is interrupted; a cell that ends or hangs the kernel is skipped in a new kernel;
3. reruns every check of the chapter itself, on the names the learner defined, from the
   package's own copy of the check (see :mod:`._grade_kernel`: a redefined ``check_mul``, a
   patched ``run_check`` or a printed "✓ passed" changes nothing). A check whose name the
   notebook never defined is "not attempted".

It prints a table and, with ``--json``, writes a report. The exit status is 0 when every
check of every notebook passed and 1 otherwise, so GitHub Classroom and CI can use the
command as it is. Learner code runs with your permissions: the temporary folders, time and
output limits contain a submission that loops, exits, deletes its working folder or prints
megabytes, but this is not a sandbox against code written to attack the machine. Grade work
you do not trust in a throwaway container or CI runner (GitHub Classroom does).

Other commands: ``checks`` lists every chapter's checks; ``progress`` prints (or with
``--reset`` erases) the progress saved on this computer; ``classroom`` prints a GitHub
Classroom workflow that grades every chapter.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import logging
import math
import os
import re
import secrets
import shutil
import site
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .catalog import EXERCISES, Chapter, chapters, find_chapter

__all__ = ["CheckReport", "GradingError", "Limits", "NotebookReport", "classroom_workflow",
           "format_report", "grade_notebook", "main", "recognize_chapter"]

# A check's status (the runner's, and the grader's own "crashed" and "not attempted"): its mark
# and words in the table.
MARKS = {"pass": "✓", "fail": "✗", "error": "✗", "timeout": "⌛", "todo": "⏳",
         "interrupted": "✗", "crashed": "✗", "not attempted": "—"}
ASCII_MARKS = {"pass": "ok", "todo": "..", "not attempted": "--", "timeout": "TO"}
WORDS = {"pass": "passed", "fail": "wrong", "error": "error", "timeout": "timed out",
         "todo": "not done", "interrupted": "interrupted", "crashed": "crashed",
         "not attempted": "not attempted"}
_KERNEL_STARTS = 4  # one per learner cell or check that ends or hangs the kernel, at most
_TIMED_OUT = "MinitorchGraderTimeout"  # the reply nbclient makes up for a cell it interrupted
_QUIET = logging.getLogger("minitorch.grading.nbclient")  # nbclient's own log: the report says it
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False


class GradingError(Exception):
    """The grader itself cannot run (no kernel can start): not the submission's fault."""


@dataclass
class Limits:
    """The limits one notebook runs under (seconds, and characters of output kept)."""

    cell: float = 120.0
    notebook: float = 600.0
    check: float = 60.0
    output: int = 1_000_000

    @property
    def case(self) -> float:
        """Each case of a check: the runner's usual 20 s, or less when a check has less."""
        return min(20.0, self.check)


@dataclass
class CheckReport:
    """The verdict on one check of one notebook."""

    check: str
    name: str
    status: str
    message: str
    cases: list[int] | None = None
    seconds: float | None = None
    details: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "pass"


@dataclass
class NotebookReport:
    """Everything the grader found in one notebook."""

    notebook: str
    chapter: Chapter | None
    recognized_from: str
    checks: list[CheckReport] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether every check passed (a notebook with no check graded did not pass)."""
        return bool(self.checks) and all(check.passed for check in self.checks)

    def to_json(self) -> dict:
        chapter = self.chapter
        return {
            "notebook": self.notebook,
            "chapter": None if chapter is None else {
                "number": chapter.number, "module": chapter.module, "title": chapter.title},
            "recognized_from": self.recognized_from,
            "passed": self.passed,
            "seconds": round(self.seconds, 2),
            "notes": self.notes,
            "checks": [{**asdict(check), "passed": check.passed,
                        "seconds": None if check.seconds is None else round(check.seconds, 3)}
                       for check in self.checks],
        }


# ------------------------------------------------------------------------ which chapter
_MODULE_IN_CODE = re.compile(r"minitorch\.exercises\.(ch\d\d_\w+)")
_TITLE_NUMBER = re.compile(r"^\s*#\s*(\d{1,2})\b", re.M)
_FILE_NUMBER = re.compile(r"(?:^|[^0-9])(\d\d)_[A-Za-z]")


def recognize_chapter(nb: Any, filename: str = "") -> tuple[Chapter | None, str]:
    """The notebook's chapter and how it was told: from the exercise module its code imports,
    else its title's number, else its file name. ``(None, why)`` when nothing says.

    Example:
        >>> import nbformat
        >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        ...     "from minitorch.exercises.ch01_tensors import check_my_tensor")])
        >>> chapter, how = recognize_chapter(nb, "my work (1).ipynb")
        >>> chapter.module, how
        ('ch01_tensors', 'its imports')
    """
    known = {chapter.module: chapter for chapter in chapters()}
    code = "\n".join(cell.get("source", "") for cell in nb.get("cells", [])
                     if cell.get("cell_type") == "code")
    used = Counter(m for m in _MODULE_IN_CODE.findall(code) if m in known)
    if used:
        return known[used.most_common(1)[0][0]], "its imports"
    by_number = {chapter.number: chapter for chapter in known.values()}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            match = _TITLE_NUMBER.search(cell.get("source", ""))
            if match and int(match.group(1)) in by_number:
                return by_number[int(match.group(1))], "its title"
            break  # only the first markdown cell holds the title
    name = Path(filename).name
    for chapter in known.values():
        if chapter.module[2:] in name:
            return chapter, "its file name"
    match = _FILE_NUMBER.search(name)
    if match and int(match.group(1)) in by_number:
        return by_number[int(match.group(1))], "its file name"
    return None, "nothing in it names a chapter (pass --chapter)"


# ------------------------------------------------------------------------ the kernel
def _first_line(source: str) -> str:
    line = next((line.strip() for line in source.splitlines() if line.strip()), "")
    return line if len(line) <= 50 else line[:47] + "..."


def _message_size(msg: dict) -> int:
    """About how many characters an output message adds to the notebook."""
    content = msg.get("content", {})
    size = len(content.get("text", "") or "")
    for value in (content.get("data") or {}).values():
        size += len(value) if isinstance(value, str) else len(json.dumps(value))
    size += sum(len(line) for line in content.get("traceback", []) or [])
    return size


def _kernel_classes() -> tuple[type, type]:
    """nbclient's NotebookClient with an output limit, and a kernel manager that always starts
    this Python's own ipykernel (never a kernelspec installed elsewhere on the machine)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from traitlets import default

    class ThisPythonKernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _this_python_only(self) -> KernelSpecManager:
            return KernelSpecManager(kernel_dirs=[])  # just the native python3 kernel

    class LimitedClient(NotebookClient):
        output_limit = 1_000_000
        output_used = 0
        output_dropped = 0

        def output(self, outs: list, msg: dict, display_id: Any, cell_index: int) -> Any:
            if self.output_limit is None:  # the grader's own cells: it reads none of it
                return None
            size = _message_size(msg)
            if self.output_used + size > self.output_limit:
                self.output_dropped += size
                return None
            self.output_used += size
            return super().output(outs, msg, display_id, cell_index)

    return ThisPythonKernelManager, LimitedClient


def _kernel_env(home: Path, limits: Limits) -> dict[str, str]:
    """The learner's kernel's environment: this one, with a fresh home folder."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_CONFIG_DIR")}
    env.setdefault("PYTHONUSERBASE", site.getuserbase())  # packages installed with --user
    env.update({
        "HOME": str(home), "USERPROFILE": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"), "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "IPYTHONDIR": str(home / ".ipython"),
        "MINITORCH_PROGRESS": str(home / ".minitorch" / "progress.json"),
        "MINITORCH_CHECK_TIME_LIMIT": f"{limits.case:g}",
        "PYTHONDONTWRITEBYTECODE": "1",  # no __pycache__ written into the installed package
    })
    return env


def _seed_home(home: Path) -> None:
    """Copy matplotlib's font list into the fresh home (building it again takes seconds)."""
    try:
        cache = Path(os.environ.get("MPLCONFIGDIR") or Path(
            os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "matplotlib")
    except (RuntimeError, KeyError):  # no home folder: nothing to copy
        return
    target = home / ".cache" / "matplotlib"
    target.mkdir(parents=True, exist_ok=True)
    for path in glob.glob(str(cache / "fontlist-*.json")):
        with contextlib.suppress(OSError):
            shutil.copy(path, target)


class _Run:
    """One notebook's run: its kernels, cells, notes and the checks' results."""

    def __init__(self, nb: Any, chapter: Chapter, checks: dict[str, str], work: Path,
                 home: Path, results: Path, limits: Limits) -> None:
        import nbformat

        self.nbformat = nbformat
        self.nb, self.chapter, self.checks = nb, chapter, checks
        self.work, self.home, self.results, self.limits = work, home, results, limits
        self.learner_cells = [i for i, cell in enumerate(nb.cells)
                              if cell.cell_type == "code" and cell.source.strip()]
        self.skip: set[int] = set()
        self.notes: list[str] = []
        self.errors_seen: set[str] = set()
        self.token = secrets.token_hex(16)
        self.reply: dict = {}
        self.deadline: float | None = None  # set when the first learner cell starts
        self.out_of_time = False
        self.verdicts: dict[str, CheckReport] = {}
        self.output_used = self.output_dropped = 0
        self.manager_class, self.client_class = _kernel_classes()

    def _note(self, text: str) -> None:
        if text not in self.notes:  # a cell run again in a new kernel says it once
            self.notes.append(text)

    # -- a kernel
    def _client(self) -> Any:
        client = self.client_class(
            self.nb, kernel_manager_class=self.manager_class, kernel_name="python3",
            allow_errors=True, shutdown_kernel="immediate", startup_timeout=120,
            iopub_timeout=4, timeout=int(self.limits.cell), record_timing=False,
            interrupt_on_timeout=True, error_on_timeout={
                "ename": _TIMED_OUT, "evalue": "the cell ran past its time limit",
                "traceback": []},
            log=_QUIET)
        client.output_limit = self.limits.output
        client.output_used = self.output_used  # the limit is for the whole notebook
        client.on_cell_executed = self._remember_reply
        return client

    def _execute(self, client: Any, index: int, timeout: float) -> str:
        """Run cell ``index``: "ok", "error", "timeout" (interrupted), "stuck" or "dead".

        On a timeout nbclient interrupts the kernel and waits for the cell to stop; when it
        does not, a probe cell finds the kernel still busy ("stuck").
        """
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        client.timeout = max(1, math.ceil(timeout))
        cell = self.nb.cells[index]
        self.reply = {}
        try:
            client.execute_cell(cell, index, store_history=True)
        except DeadKernelError:
            return "dead"
        except CellTimeoutError:  # the output did not stop coming after an interrupt
            return "stuck"
        finally:
            self.output_used = client.output_used
            self.output_dropped += client.output_dropped
            client.output_dropped = 0
        payloads = self.reply.get("payload") or []
        if any(p.get("source") == "ask_exit" and not p.get("keepkernel") for p in payloads):
            return "dead"  # exit(): the kernel stops a moment after it replies
        if self.reply.get("ename") == _TIMED_OUT:
            return "timeout" if self._responds(client) else "stuck"
        return "error" if self.reply.get("status") == "error" else "ok"

    @property
    def error_text(self) -> str:
        """The last cell's error, "ZeroDivisionError: division by zero"."""
        text = f"{self.reply.get('ename', 'Error')}: {self.reply.get('evalue', '')}"
        return text.strip().rstrip(":")[:200]

    def _remember_reply(self, cell: Any, cell_index: int, execute_reply: dict | None) -> None:
        self.reply = (execute_reply or {}).get("content") or {}

    def _responds(self, client: Any) -> bool:
        """Whether the kernel answers a probe cell within 10 s (after an interrupt)."""
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        self.nb.cells.append(self.nbformat.v4.new_code_cell("pass"))
        index = len(self.nb.cells) - 1
        client.timeout = 10
        self.reply = {}
        try:
            client.execute_cell(self.nb.cells[index], index, store_history=False)
        except (CellTimeoutError, DeadKernelError):
            return False
        return self.reply.get("ename") != _TIMED_OUT

    def _inject(self, client: Any, source: str, timeout: float) -> str:
        """Run one of the grader's own cells, keeping none of its output (whatever the learner's
        code prints during a check): the verdicts come through the results file."""
        self.nb.cells.append(self.nbformat.v4.new_code_cell(source))
        client.output_limit = None
        try:
            return self._execute(client, len(self.nb.cells) - 1, timeout)
        finally:
            client.output_limit = self.limits.output

    # -- the learner's cells
    def _run_learner_cells(self, client: Any) -> bool:
        """Run every learner cell not skipped; ``False`` when the kernel must be replaced."""
        if self.deadline is None:  # the notebook's time counts from its first cell
            self.deadline = time.monotonic() + self.limits.notebook
        for index in self.learner_cells:
            if index in self.skip:
                continue
            left = self.deadline - time.monotonic()
            if left <= 0 and not self.out_of_time:
                self.out_of_time = True
                self._note(f"the notebook ran out of its {self.limits.notebook:g} s before "
                           f"cell {index + 1}: later cells did not run")
            if self.out_of_time:
                return True
            cell = self.nb.cells[index]
            what = f"cell {index + 1} ({_first_line(cell.source)})"
            outcome = self._execute(client, index, min(self.limits.cell, left))
            if outcome in ("timeout", "stuck") and left < self.limits.cell:
                self.out_of_time = True  # stopped by the notebook's limit, not the cell's
                self._note(f"the notebook ran out of its {self.limits.notebook:g} s in {what}: "
                           "it was interrupted and later cells did not run")
                if outcome == "timeout":
                    return True
            if outcome == "error":
                self._note_error(what)
            elif outcome == "timeout":
                self._note(f"{what} ran past its time limit and was interrupted")
            elif outcome in ("dead", "stuck"):
                self.skip.add(index)
                self._note(
                    f"{what} ended the kernel; it was skipped in a new kernel" if outcome == "dead"
                    else f"{what} ran past its time limit and could not be interrupted; "
                         "it was skipped in a new kernel")
                return False
        return True

    def _note_error(self, what: str) -> None:
        if what in self.errors_seen:  # the same cell again, in a new kernel
            return
        self.errors_seen.add(what)
        if len(self.errors_seen) > 3:
            if len(self.errors_seen) == 4:
                self._note("more cells raised errors (not listed)")
            return
        self._note(f"{what} raised {self.error_text}")

    # -- the checks
    def _load_grader(self, client: Any) -> str | None:
        """Load the grader's fresh copy of the checks into the kernel; ``None`` or why not."""
        handle = f"_minitorch_grade_{self.token}"
        source = (
            "import importlib.util, sys\n"
            f"_spec = importlib.util.spec_from_file_location({handle!r}, "
            f"{str(EXERCISES / '_grade_kernel.py')!r})\n"
            f"{handle} = importlib.util.module_from_spec(_spec)\n"
            f"_spec.loader.exec_module({handle})\n"
            f"{handle}.load({str(EXERCISES)!r}, {self.chapter.module!r}, "
            f"{str(self.results)!r}, {self.token!r}, {self.limits.case!r})\n"
            "del _spec\n")
        outcome = self._inject(client, source, max(self.limits.check, 60))
        if outcome == "ok":
            return None
        if outcome == "error":
            return self.error_text
        return {"dead": "the kernel died", "timeout": "it timed out",
                "stuck": "it timed out"}[outcome]

    def _read_results(self) -> dict[str, list[dict]]:
        records: dict[str, list[dict]] = {}
        try:
            lines = self.results.read_text(encoding="utf-8").splitlines()
        except OSError:
            return records
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("token") == self.token:
                records.setdefault(record.get("check"), []).append(record)
        return records

    def _run_checks(self, client: Any) -> bool:
        """Run each pending check in its own cell; ``False`` when the kernel must be replaced."""
        why = self._load_grader(client)
        if why is not None:
            for check, name in self.checks.items():
                self.verdicts.setdefault(check, CheckReport(
                    check, name, "error", f"the grader could not run in this notebook's kernel "
                    f"({why})"))
            return True
        handle = f"_minitorch_grade_{self.token}"
        for check, name in self.checks.items():
            if check in self.verdicts:
                continue
            source = (f"import sys\n{handle}.run({self.token!r}, {check!r}, {name!r}, "
                      "sys._getframe(0).f_globals)\n")
            started = time.monotonic()
            outcome = self._inject(client, source, self.limits.check)
            records = self._read_results().get(check, [])
            final = [r for r in records if r.get("event") != "start"]
            if final:
                self.verdicts[check] = _verdict(check, name, final[-1])
            elif outcome in ("timeout", "stuck"):
                self.verdicts[check] = CheckReport(
                    check, name, "timeout", f"the check did not finish in "
                    f"{self.limits.check:g} s", seconds=time.monotonic() - started)
            else:
                self.verdicts[check] = CheckReport(
                    check, name, "crashed", "the learner's code ended the kernel during this "
                    "check" if outcome == "dead" else f"the check gave no result ({outcome})",
                    seconds=time.monotonic() - started)
            if outcome in ("dead", "stuck"):
                return False
        return True

    def run(self) -> None:
        for _attempt in range(_KERNEL_STARTS):
            client = self._client()
            try:
                with client.setup_kernel(env=_kernel_env(self.home, self.limits),
                                         cwd=str(self.work), stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL):
                    if self._run_learner_cells(client) and self._run_checks(client):
                        return
            except Exception as error:
                if client.kc is None:  # the kernel never started: not the learner's doing
                    raise GradingError(f"could not start a Python kernel: {error}") from error
                self._note(f"the kernel failed: {type(error).__name__}: {error}")
        self._note(f"gave up after {_KERNEL_STARTS} kernels")


def _verdict(check: str, name: str, record: dict) -> CheckReport:
    """A :class:`CheckReport` from the kernel's record of a check's result."""
    status = record.get("status", "error")
    lines = [str(line) for line in record.get("lines") or []]
    message = record.get("message", "")
    if lines:  # "✗ mul: wrong result for `x * y`." -> "wrong result for `x * y`."
        message = lines[0].split(f"{record.get('title')}: ", 1)[-1]
        if status == "todo" and len(lines) > 1:  # "`df` (line 2) still raises ..."
            message = lines[1].split(" (reached by", 1)[0]
    return CheckReport(check, name, status, message, cases=record.get("cases"),
                       seconds=record.get("seconds"), details="\n".join(lines))


# ------------------------------------------------------------------------ one notebook
def grade_notebook(path: str | Path, chapter: Chapter | None = None,
                   limits: Limits | None = None,
                   only: list[str] | None = None) -> NotebookReport:
    """Run the notebook at ``path`` in a temporary copy and rerun its chapter's checks.

    Args:
        path: the learner's notebook (it is only read).
        chapter: its chapter; recognized from the notebook when ``None``.
        limits: the time and output limits (:class:`Limits`).
        only: grade only these checks (check names or the learner's names).

    Returns:
        A :class:`NotebookReport`; it never raises for anything the notebook does.

    Raises:
        GradingError: no kernel could start at all.
    """
    import nbformat

    limits = limits or Limits()
    path = Path(path)
    started = time.monotonic()
    report = NotebookReport(str(path), chapter, "--chapter" if chapter else "")
    try:
        raw = path.read_bytes()
        nb = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as error:
        report.recognized_from = "unreadable"
        report.notes.append(f"could not read the notebook: {type(error).__name__}: {error}")
        report.seconds = time.monotonic() - started
        return report
    if chapter is None:
        report.chapter, report.recognized_from = recognize_chapter(nb, path.name)
    if report.chapter is None:
        report.notes.append(f"no chapter: {report.recognized_from}")
        report.seconds = time.monotonic() - started
        return report
    checks = {check: name for check, name in report.chapter.checks.items()
              if not only or check in only or name in only}
    unknown = [key for key in only or [] if key not in report.chapter.checks
               and key not in report.chapter.checks.values()]
    if unknown:
        report.notes.append(f"chapter {report.chapter.number:02d} has no check "
                            f"{', '.join(unknown)} (it has {', '.join(report.chapter.checks)})")
    if not checks:
        report.seconds = time.monotonic() - started
        return report
    root = Path(tempfile.mkdtemp(prefix="minitorch-grade-"))
    private = Path(tempfile.mkdtemp(prefix="minitorch-grade-results-"))
    try:
        work, home = root / "work", root / "home"
        work.mkdir()
        home.mkdir()
        _seed_home(home)
        (work / path.name).write_bytes(raw)
        run = _Run(nb, report.chapter, checks, work, home, private / "results.jsonl", limits)
        run.run()
        report.notes += run.notes
        if run.output_dropped:
            report.notes.append(f"output past {limits.output} characters was dropped "
                                f"({run.output_dropped} characters)")
        for check, name in checks.items():
            report.checks.append(run.verdicts.get(check) or CheckReport(
                check, name, "not attempted", "the grader never reached this check"))
    finally:
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(private, ignore_errors=True)
    report.seconds = time.monotonic() - started
    return report


# ------------------------------------------------------------------------ the table
def _marks_for(stream: Any) -> dict[str, str]:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "".join(MARKS.values()).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return {status: ASCII_MARKS.get(status, "XX") for status in MARKS}
    return MARKS


def format_report(reports: list[NotebookReport], marks: dict[str, str] = MARKS,
                  width: int | None = None) -> str:
    """The terminal table of ``reports``, one block per notebook and a total; a message longer
    than the terminal is cut (140 columns where there is no terminal, as in CI logs)."""
    width = width or max(100, shutil.get_terminal_size((140, 24)).columns)
    lines = []
    for report in reports:
        chapter = report.chapter
        head = report.notebook
        if chapter is not None:
            head += f" · chapter {chapter.label} (known by {report.recognized_from})"
        lines.append(f"{head} · {report.seconds:.1f} s")
        rows = []
        for check in report.checks:
            cases = f"{check.cases[0]}/{check.cases[1]}" if check.cases else "—"
            seconds = "—" if check.seconds is None else f"{check.seconds:.2f} s"
            verdict = f"{marks.get(check.status, '?')} {WORDS.get(check.status, check.status)}"
            rows.append((verdict, check.check, check.name, cases, seconds, check.message))
        if rows:
            widths = [max(len(row[i]) for row in rows) for i in range(5)]
            for row in rows:
                text = "  " + "  ".join(cell.ljust(w) if i < 3 else cell.rjust(w)
                                         for i, (cell, w) in enumerate(zip(row, widths)))
                message = row[5].replace("\n", " ")
                room = max(20, width - len(text) - 2)
                if len(message) > room:
                    message = message[:room - 1] + "…"
                lines.append(f"{text}  {message}".rstrip())
        for note in report.notes:
            lines.append(f"  note: {note}")
        lines.append("")
    checks = [check for report in reports for check in report.checks]
    passed = sum(check.passed for check in checks)
    unread = sum(report.chapter is None for report in reports)
    total = (f"{len(reports)} notebook{'s' * (len(reports) != 1)}, "
             f"{len(checks)} check{'s' * (len(checks) != 1)}: "
             f"{passed} passed, {len(checks) - passed} not passed")
    if unread:
        total += f", {unread} notebook{'s' * (unread != 1)} not graded"
    lines.append(total + ".")
    return "\n".join(lines)


# ------------------------------------------------------------------------ the command
def _grade_all(paths: list[str], chapter: Chapter | None, limits: Limits,
               only: list[str] | None, jobs: int, quiet: bool) -> list[NotebookReport]:
    """Grade ``paths`` in order, or ``jobs`` at a time in worker processes."""
    def say(path: str) -> None:
        if not quiet:
            print(f"grading {path} ...", file=sys.stderr, flush=True)

    if jobs <= 1 or len(paths) <= 1:
        reports = []
        for path in paths:
            say(path)
            reports.append(grade_notebook(path, chapter, limits, only))
        return reports
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")  # no event loop or kernel is inherited
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = []
        for path in paths:
            say(path)
            futures.append(pool.submit(grade_notebook, path, chapter, limits, only))
        return [future.result() for future in futures]


def _cmd_grade(args: argparse.Namespace) -> int:
    limits = Limits(cell=args.cell_timeout, notebook=args.timeout, check=args.check_timeout,
                    output=args.max_output)
    try:
        chapter = find_chapter(args.chapter) if args.chapter else None
    except LookupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    marks = _marks_for(sys.stdout)
    try:
        reports = _grade_all(args.notebooks, chapter, limits, args.check, args.jobs, args.quiet)
    except GradingError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(format_report(reports, marks))
    if args.json:
        document = {"passed": all(r.passed for r in reports),
                    "notebooks": [r.to_json() for r in reports]}
        Path(args.json).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return 0 if reports and all(report.passed for report in reports) else 1


def _cmd_checks(args: argparse.Namespace) -> int:
    for chapter in chapters():
        print(f"{chapter.label}  ({chapter.notebook}, minitorch/exercises/{chapter.module}.py)")
        for check, name in chapter.checks.items():
            print(f"    {check}({name})")
    return 0


def _cmd_progress(args: argparse.Namespace) -> int:
    from .progress import ProgressTable, progress_path, reset_progress

    if args.reset:
        return 0 if reset_progress() else 1
    print(ProgressTable())
    print(f"(saved in {progress_path()})")
    return 0


def classroom_workflow(folder: str = "notebooks", per_check: bool = False,
                       only: list[Chapter] | None = None) -> str:
    """A GitHub Classroom workflow (``.github/workflows/classroom.yml``) that grades every
    chapter's notebook in ``folder`` (or the chapters ``only``): one test per chapter, or one
    per check (a point each)."""
    from minitorch._about import PIP_SPEC

    install = PIP_SPEC.replace("minitorch-course @", "minitorch-course[course] @", 1)
    steps, runners = [], []
    for chapter in only or chapters():
        tests = ([(f"ch{chapter.number:02d}-{check.removeprefix('check_')}".replace("_", "-"),
                   f"{chapter.label}: {name}", f" --check {check}", 1)
                  for check, name in chapter.checks.items()] if per_check else
                 [(f"ch{chapter.number:02d}", chapter.label, "", len(chapter.checks))])
        for step_id, test_name, option, score in tests:
            runners.append(step_id)
            steps.append(
                f"      - name: {json.dumps(test_name)}\n"
                f"        id: {step_id}\n"
                f"        uses: classroom-resources/autograding-command-grader@v1\n"
                f"        with:\n"
                f"          test-name: {json.dumps(test_name)}\n"
                f"          command: python -I -m minitorch.exercises grade "
                f"{folder}/{chapter.notebook} --chapter {chapter.number:02d} "
                f"--timeout 300{option}\n"
                f"          timeout: 10\n"
                f"          max-score: {score}\n")
    env = "".join(f"          {r.upper()}_RESULTS: \"${{{{steps.{r}.outputs.result}}}}\"\n"
                  for r in runners)
    return (
        "name: Autograding Tests\n"
        "on: [push, workflow_dispatch, repository_dispatch]\n"
        "permissions:\n  checks: write\n  actions: read\n  contents: read\n"
        "jobs:\n  run-autograding-tests:\n    runs-on: ubuntu-latest\n"
        "    if: github.actor != 'github-classroom[bot]'\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - uses: actions/setup-python@v5\n"
        "        with:\n          python-version: \"3.11\"\n"
        f"      - run: python -m pip install \"{install}\"\n"
        + "".join(steps)
        + "      - name: Autograding Reporter\n"
          "        uses: classroom-resources/autograding-grading-reporter@v1\n"
          "        env:\n" + env
        + f"        with:\n          runners: {','.join(runners)}\n")


def _cmd_classroom(args: argparse.Namespace) -> int:
    try:
        only = [find_chapter(key) for key in args.chapter or []]
    except LookupError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(classroom_workflow(args.folder, args.per_check, only), end="")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m minitorch.exercises COMMAND ...``; returns the exit status."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.reconfigure(errors="replace")
    parser = argparse.ArgumentParser(
        prog="python -m minitorch.exercises",
        description="Grade course notebooks with the chapters' own checks, list the checks, "
                    "or show the progress saved on this computer.")
    sub = parser.add_subparsers(dest="command", required=True)
    grade = sub.add_parser(
        "grade", help="run learners' notebooks and rerun every check of their chapter",
        description="Run each notebook in a fresh kernel, in a temporary copy, and rerun its "
                    "chapter's checks on the learner's names. Exit status 0 when every check "
                    "passed, 1 otherwise, 2 when the grader itself could not run.")
    grade.add_argument("notebooks", nargs="+", metavar="NOTEBOOK.ipynb")
    grade.add_argument("--json", metavar="REPORT.json", help="also write the report as JSON")
    grade.add_argument("--chapter", help="the chapter (02, ch02_recording_the_dag, ...) "
                                         "instead of recognizing it from each notebook")
    grade.add_argument("--check", action="append", metavar="NAME",
                       help="grade only this check (check_mul or Mul); repeatable")
    grade.add_argument("--cell-timeout", type=float, default=Limits.cell, metavar="S",
                       help="seconds one cell may run (default %(default)g)")
    grade.add_argument("--timeout", type=float, default=Limits.notebook, metavar="S",
                       help="seconds all of a notebook's cells may run (default %(default)g)")
    grade.add_argument("--check-timeout", type=float, default=Limits.check, metavar="S",
                       help="seconds one check may run (default %(default)g)")
    grade.add_argument("--max-output", type=int, default=Limits.output, metavar="CHARS",
                       help="output kept per notebook; the rest is dropped "
                            "(default %(default)d)")
    grade.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                       help="grade N notebooks at a time (default 1; each needs a CPU core)")
    grade.add_argument("-q", "--quiet", action="store_true", help="print only the table")
    grade.set_defaults(fn=_cmd_grade)
    sub.add_parser("checks", help="list every chapter's checks and the names they take"
                   ).set_defaults(fn=_cmd_checks)
    progress = sub.add_parser("progress", help="the progress saved on this computer")
    progress.add_argument("--reset", action="store_true", help="erase it")
    progress.set_defaults(fn=_cmd_progress)
    classroom = sub.add_parser("classroom", help="print a GitHub Classroom workflow that "
                                                 "grades every chapter")
    classroom.add_argument("--folder", default="notebooks",
                           help="where the notebooks are in the learners' repository")
    classroom.add_argument("--per-check", action="store_true",
                           help="one test (one point) per check instead of per chapter")
    classroom.add_argument("--chapter", action="append", metavar="NN",
                           help="only this chapter (repeatable; default: every chapter)")
    classroom.set_defaults(fn=_cmd_classroom)
    args = parser.parse_args(argv)
    for name in ("cell_timeout", "timeout", "check_timeout", "max_output", "jobs"):
        if getattr(args, name, 1) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    return args.fn(args)

"""Your progress through the course: the latest verdict of every check, kept on this computer.

Each time a chapter's check runs in a notebook, its verdict (✓ passed, ✗ not right yet, ⏳ not
done yet) is written to a small JSON file, ``~/.minitorch/progress.json``; nothing is ever sent
anywhere. :class:`ProgressTable` shows every chapter's exercises from that file, done or not,
with **Refresh** and **Reset** buttons; :func:`reset_progress` erases it.

The environment variable ``MINITORCH_PROGRESS`` names another file (then checks are recorded
outside notebooks too), or ``off`` to record nothing. Saving never gets in a check's way: a
read-only home folder or a damaged file just means nothing is remembered.

On Colab the home folder is wiped when the runtime restarts, and with it the progress file; on
Binder it lasts as long as the session.

Example:
    >>> table = ProgressTable()
    >>> print(table)  # doctest: +ELLIPSIS
    Your progress: ... exercises passed.
    00 Start here ... df
    01 Tensors    ... broadcast_shape  ... MyTensor
    ...
    ✓ passed   ✗ not right yet   ⏳ not done yet   · not tried
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from ._common import DisplaysWidget, in_ipython
from .catalog import chapters

__all__ = ["ProgressTable", "progress_path", "remember", "reset_progress"]

_OFF = {"", "0", "off", "no", "none", "false"}
_CHAPTER_MODULE = re.compile(r"minitorch\.exercises\.ch\d\d_(\w+)")
_MARKS = {"pass": "✓", "fail": "✗", "error": "✗", "timeout": "✗", "todo": "⏳", None: "·"}
_COLORS = {"pass": "#2e7d32", "fail": "#c62828", "error": "#c62828", "timeout": "#c62828",
           "todo": "#8d6e00", None: "#9e9e9e"}
LEGEND = "✓ passed   ✗ not right yet   ⏳ not done yet   · not tried"


def progress_path() -> Path | None:
    """Where progress is kept: ``$MINITORCH_PROGRESS``, else ``~/.minitorch/progress.json``
    (``None`` when ``MINITORCH_PROGRESS=off`` or there is no home folder).

    Example:
        >>> progress_path().name
        'progress.json'
    """
    setting = os.environ.get("MINITORCH_PROGRESS")
    if setting is not None:
        return None if setting.strip().lower() in _OFF else Path(setting).expanduser()
    try:
        return Path.home() / ".minitorch" / "progress.json"
    except (RuntimeError, KeyError):  # no home folder at all
        return None


def _load(path: Path | None) -> dict[str, dict[str, dict]]:
    """``{chapter slug: {check: {"status", "passed", "total"}}}``; ``{}`` if unreadable."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    checks = data.get("checks") if isinstance(data, dict) else None
    if not isinstance(checks, dict):
        return {}
    return {slug: {name: entry for name, entry in entries.items() if isinstance(entry, dict)}
            for slug, entries in checks.items() if isinstance(entries, dict)}


def _save(path: Path, checks: dict) -> None:
    """Write atomically (a whole file or the old one, never half of one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": 1, "checks": checks}, indent=1, sort_keys=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".progress-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text + "\n")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _running_check() -> tuple[str, str] | None:
    """(chapter slug, check name) of the chapter check that is running now, if one is."""
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        match = _CHAPTER_MODULE.fullmatch(module) if isinstance(module, str) else None
        if match and frame.f_code.co_name in frame.f_globals.get("CHECKS", ()):
            return match.group(1), frame.f_code.co_name
        frame = frame.f_back
    return None


def remember(result: Any) -> None:
    """Record ``result`` (a :class:`~minitorch.exercises.CheckResult`) as the latest verdict
    of the chapter check that produced it. Called by ``run_check``; never raises.

    It records inside IPython/Jupyter, or anywhere when ``MINITORCH_PROGRESS`` names a file;
    a check run from a test or a script leaves ``~/.minitorch`` alone.
    """
    try:
        if result.status not in _MARKS:  # "interrupted": the check did not finish
            return
        explicit = os.environ.get("MINITORCH_PROGRESS") is not None
        if not (explicit or in_ipython()):
            return
        key = _running_check()
        path = progress_path()
        if key is None or path is None:
            return
        checks = _load(path)
        slug, name = key
        checks.setdefault(slug, {})[name] = {
            "status": result.status, "passed": result.n_passed, "total": result.n_total}
        _save(path, checks)
    except Exception:
        pass


def reset_progress() -> bool:
    """Forget every saved verdict; return whether there is nothing saved any more."""
    path = progress_path()
    if path is None:
        return True
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        print(f"Could not erase {path}: {error.strerror or error}")
        return False
    return True


def _shown_path(path: Path | None) -> str:
    if path is None:
        return "nowhere (MINITORCH_PROGRESS=off)"
    with contextlib.suppress(RuntimeError, KeyError, ValueError):
        return "~/" + path.relative_to(Path.home()).as_posix()
    return str(path)


class ProgressTable(DisplaysWidget):
    """Every chapter's exercises, each marked ✓ passed, ✗ not right yet, ⏳ not done yet or
    · not tried, from the saved progress.

    In Jupyter it shows as a table with a **Refresh** button (read the file again, after
    working in other notebooks) and a **Reset** button (press it twice to erase everything);
    elsewhere it prints as text.

    Attributes:
        rows: ``[(chapter, [(learner name, status or None), ...]), ...]``, one per chapter.
        n_passed: how many exercises passed; ``n_total``: how many there are.
    """

    def __init__(self) -> None:
        self._widgets: dict[str, Any] | None = None
        self.refresh()

    def refresh(self) -> None:
        """Read the saved progress again."""
        self.path = progress_path()
        saved = _load(self.path)
        self.rows = []
        for chapter in chapters():
            entries = saved.get(chapter.slug, {})
            self.rows.append((chapter, [(name, entries.get(check, {}).get("status"))
                                        for check, name in chapter.checks.items()]))
        marks = [status for _, exercises in self.rows for _, status in exercises]
        self.n_total, self.n_passed = len(marks), marks.count("pass")
        if self._widgets is not None:
            self._widgets["table"].value = self._repr_html_()

    def reset(self) -> bool:
        """Erase the saved progress (:func:`reset_progress`) and show the empty table."""
        done = reset_progress()
        self.refresh()
        return done

    @property
    def headline(self) -> str:
        return f"Your progress: {self.n_passed} of {self.n_total} exercises passed."

    def __repr__(self) -> str:
        width = max(len(chapter.label) for chapter, _ in self.rows)
        lines = [self.headline]
        for chapter, exercises in self.rows:
            marks = "  ".join(f"{_MARKS.get(status, '·')} {name}" for name, status in exercises)
            lines.append(f"{chapter.label:<{width}}  {marks}")
        lines.append(LEGEND)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        cell = 'style="padding: 2px 12px 2px 0; text-align: left; vertical-align: top"'
        rows = []
        for chapter, exercises in self.rows:
            marks = " ".join(
                f'<span style="margin-right: 14px; white-space: nowrap">'
                f'<span style="color: {_COLORS.get(status, "#9e9e9e")}; font-weight: bold">'
                f'{_MARKS.get(status, "·")}</span> <code>{html.escape(name)}</code></span>'
                for name, status in exercises)
            rows.append(f"<tr><td {cell}>{chapter.number:02d}</td>"
                        f"<td {cell}>{html.escape(chapter.title)}</td><td {cell}>{marks}</td></tr>")
        return (f'<div><div style="font-weight: bold; margin-bottom: 4px">'
                f"{html.escape(self.headline)}</div>"
                f'<table style="border-collapse: collapse">{"".join(rows)}</table>'
                f'<div style="color: #666; margin-top: 4px">{html.escape(LEGEND)} · saved in '
                f"<code>{html.escape(_shown_path(self.path))}</code></div></div>")

    @property
    def widget(self) -> Any:
        """The ``ipywidgets`` box: the table, **Refresh** and **Reset** (built when shown)."""
        if self._widgets is None:
            self._widgets = self._build()
        return self._widgets["box"]

    def _build(self) -> dict[str, Any]:
        import ipywidgets as widgets

        table = widgets.HTML(self._repr_html_())
        refresh = widgets.Button(description="Refresh", icon="refresh",
                                 tooltip="read the saved progress again")
        reset = widgets.Button(description="Reset", icon="trash",
                               tooltip="erase the saved progress (asks first)")
        note = widgets.HTML("")

        def on_refresh(_button: Any = None) -> None:
            self.refresh()
            note.value = ""

        def on_reset(_button: Any = None) -> None:
            if reset.description == "Reset":  # the first press only asks
                reset.description, reset.button_style = "Erase everything?", "danger"
                note.value = "<i>Press again to erase your saved progress.</i>"
                return
            done = self.reset()
            reset.description, reset.button_style = "Reset", ""
            note.value = "<i>Progress erased.</i>" if done else "<i>Could not erase it.</i>"

        refresh.on_click(on_refresh)
        reset.on_click(on_reset)
        box = widgets.VBox([table, widgets.HBox([refresh, reset]), note])
        box.add_class("mt-progress")
        return {"box": box, "table": table, "refresh": refresh, "reset": reset, "note": note}

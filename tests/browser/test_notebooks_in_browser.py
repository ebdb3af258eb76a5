"""Run every course notebook in JupyterLab in a real (headless) Chromium, as a learner would.

For each learner copy (``notebooks/NN_*.ipynb``) and each solution copy
(``notebooks/solutions/NN_*.ipynb``), and for a small self-test notebook made here:

1. open ``/lab/tree/<path>?reset``, clear all outputs, then "Kernel > Restart Kernel and Run All
   Cells..." and confirm the dialog, as a learner would;
2. wait until the kernel is idle and every code cell has run;
3. check what the browser shows: no traceback anywhere (no cell raises, not even on purpose:
   intended errors are shown by ``expected_error``, whose box is plain output), every
   ``draw_graph`` picture an SVG that the browser decodes (Graphviz's ``g.graph`` and nodes in it;
   learner copies may wait for the learner's code before drawing), every widget rendered live
   (no "Loading widget...", no "Error displaying widget", no text fallback such as
   ``VBox(children=...)``), quiz options laid out with their button before the text, and the
   checks' verdicts: the solution copy shows what its saved outputs show and ends every check
   with ✓; the learner copy ends every check with ⏳ "not done yet" (a ✗ only where the
   solution copy shows the same ✗ on purpose);
4. in the solution copies (and the self-test), use the exercises: answer each quiz wrong and
   right and read the ✗ / ✓ feedback, type a wrong value and then the revealed answer into each
   "predict the value" box, and click each stepper's Next (the SVG must change) and Prev (it
   must come back).

Artifacts in ``tests/artifacts/browser/<copy>-<notebook>/``: ``opened.png`` (the notebook as
first opened), ``report.json`` (cells, outputs, findings, timings), for learner copies
``notebook*.png`` (the whole notebook after Run All) and ``cellNN.png`` (each exercise), for
solution copies ``cellNN-<exercise>-wrong/right/first/next.png``.

Timing: the notebooks run one after another in one server and one browser; the terminal summary
prints each one's seconds by phase. ``MINITORCH_BROWSER_NOTEBOOKS=<regex>`` (or ``-k``) picks a
subset; ``-m "not browser"`` leaves the suite out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts" / "browser"

LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted((ROOT / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb"))
SELFTEST = "selftest"
NOTEBOOKS = [SELFTEST] + [str(p.relative_to(ROOT)) for p in sorted(
    LEARNER + SOLUTIONS, key=lambda p: (p.name, p.parent.name != "notebooks"))]
# MINITORCH_BROWSER_NOTEBOOKS=<regex> keeps the notebooks whose path matches (and the
# self-test), e.g. '0[0-4]_' or 'solutions/'; `-k` works too.
if os.environ.get("MINITORCH_BROWSER_NOTEBOOKS"):
    _keep = re.compile(os.environ["MINITORCH_BROWSER_NOTEBOOKS"])
    NOTEBOOKS = [SELFTEST] + [rel for rel in NOTEBOOKS[1:] if _keep.search(rel)]

RUN_TIMEOUT = 180  # seconds for one notebook's Run All (the guide asks for 30 s or less)
RENDER_TIMEOUT = 30  # seconds for the widgets and pictures to appear after the run
FEEDBACK_TIMEOUT = 20_000  # milliseconds for a widget to answer a click
MAX_SHOT_HEIGHT = 12_000  # pixels of one full-notebook screenshot (taller ones come in parts)
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
FALLBACK = re.compile(r"\b(VBox|HBox|Box|GridBox|Output|Tab|Accordion)\(children=|"
                      r"^(Quiz|PredictValue|BackwardStepper|ForwardRecording|TangentExplorer|"
                      r"Descent2D):|Loading widget\.\.\.|Error displaying widget")

# --------------------------------------------------------------------------- the self-test
# A tiny notebook with one of everything the course uses, so the harness is tested even
# before the chapters exist: what each check must say is listed in SELFTEST_CHECKS.
SELFTEST_CELLS = [
    ("markdown", "# Browser self-test\nOne of each kind of output the course notebooks use."),
    ("code", "import minitorch\nfrom minitorch.viz import draw_graph, step_backward\n"
             "from minitorch.exercises import (Case, PredictValue, Quiz, expected_error,\n"
             "                                 quiz_for, run_check)\n"
             "minitorch.manual_seed(0);"),
    ("code", "x = minitorch.tensor(2.0, requires_grad=True)\n"
             "w = minitorch.tensor(3.0, requires_grad=True)\n"
             "loss = x * w + x\ndraw_graph(loss, params={'x': x, 'w': w})"),
    ("code", "Quiz('2 + 2 = ?', ['3', '4', '`5`'], answer='4', explanations=['no', 'yes', 'no'])"),
    ("code", "quiz_for(3, 0)"),
    ("code", "PredictValue('`y = x * x` at `x = 3`: dy/dx?', answer=6.0, explanation='2x = 6')"),
    ("code", "def double(v):\n    return 2 * v\n\n"
             "run_check('double', [Case('double(3)', lambda: double(3), 6)]);"),
    ("code", "def todo(v):\n    raise NotImplementedError('your code here')\n\n"
             "run_check('todo', [Case('todo(3)', lambda: todo(3), 6)]);"),
    ("code", "step_backward(loss, params={'x': x, 'w': w})"),
    ("code", "with expected_error(ZeroDivisionError):\n    1 / 0"),
    ("code", "print('Run All goes on after an expected error')"),
]
SELFTEST_CHECKS = ["✓", "⏳"]
VERDICT_MARKS = "✓✗⏳"  # how a check's result starts


def make_selftest() -> Path:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    for kind, source, *tags in SELFTEST_CELLS:
        cell = (nbformat.v4.new_markdown_cell(source) if kind == "markdown"
                else nbformat.v4.new_code_cell(source))
        if tags:
            cell.metadata["tags"] = tags[0]
        nb.cells.append(cell)
    path = ARTIFACTS / "selftest.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


# --------------------------------------------------------------------------- JavaScript
# The notebook panel of `path` among the main-area widgets (window.jupyterapp is exposed by
# --LabApp.expose_app_in_browser).
FIND_PANEL = """
(path) => Array.from(window.jupyterapp.shell.widgets('main'))
                .find(w => w.context && w.context.path === path && w.content && w.sessionContext)
"""

KERNEL_READY = f"""
(path) => {{
  const panel = ({FIND_PANEL})(path);
  const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
  // the first kernel need not be idle yet (Restart replaces it), but every cell must be there:
  // a long notebook's cells appear over a few seconds, and Run All runs the cells that exist
  const n = panel ? panel.content.model.cells.length : 0;
  return !!(kernel && ['starting', 'idle', 'busy'].includes(kernel.status) && n > 0
            && panel.content.widgets.length === n
            && panel.content.node.querySelectorAll('.jp-Cell').length === n);
}}
"""

# Progress of Run All: done when the kernel is idle, no prompt shows [*], and either every code
# cell has an execution count or an error stopped the run.
RUN_STATE = f"""
(path) => {{
  const panel = ({FIND_PANEL})(path);
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code');
  const queued = cells.filter(c => {{
    const p = c.node.querySelector('.jp-InputPrompt');
    return p && p.textContent.includes('*');
  }}).length;
  const counted = cells.filter(c => c.model.executionCount !== null).length;
  const stopped = cells.some(c => c.model.outputs.toJSON().some(o => o.output_type === 'error')
      && !(c.model.getMetadata('tags') || []).includes('raises-exception'));
  const indicator = panel.node.querySelector('.jp-Notebook-ExecutionIndicator');
  return {{status: kernel ? kernel.status : 'none', queued, counted, total: cells.length,
           stopped, indicator: indicator ? indicator.getAttribute('data-status') : null}};
}}
"""

# Everything the tests need to know about each cell: the model (source, tags, execution count,
# outputs) and what the browser shows (rendered mime types, SVGs, widgets, check verdicts).
# Each cell node gets data-mt-cell=<index>, so Python can find it with a locator.
REPORT = f"""
(path) => {{
  const panel = ({FIND_PANEL})(path);
  const text = (el, n) => (el ? el.innerText || el.textContent || '' : '').slice(0, n || 400);
  const svgInfo = (source) => ({{
    graph: /<g[^>]*class="graph"/.test(source),
    nodes: (source.match(/<g[^>]*class="node"/g) || []).length,
    edges: (source.match(/<g[^>]*class="edge"/g) || []).length,
  }});
  return panel.content.widgets.map((cell, index) => {{
    cell.node.setAttribute('data-mt-cell', String(index));
    const model = cell.model;
    const info = {{index, type: model.type, source: model.sharedModel.getSource(),
                  tags: model.getMetadata('tags') || [], count: null, outputs: []}};
    if (model.type !== 'code') return info;
    info.count = model.executionCount;
    const area = cell.node.querySelector('.jp-Cell-outputArea');
    const shown = area ? Array.from(area.querySelectorAll(
        ':scope > .jp-OutputArea-child > .jp-OutputArea-output')) : [];
    const outputs = model.outputs.toJSON();
    info.outputs = outputs.map((o, i) => {{
      const el = shown[i];
      const data = o.data || {{}};
      const out = {{
        type: o.output_type, name: o.name || null, ename: o.ename || null,
        evalue: o.evalue || null, mimes: Object.keys(data),
        plain: String(o.text || data['text/plain'] || '').slice(0, 400),
        shown_mime: el ? el.getAttribute('data-mime-type') : 'missing',
        shown_text: text(el, 400),
      }};
      if (el && data['{WIDGET_MIME}']) {{
        const root = el.querySelector(':scope > .jupyter-widgets');
        out.widget = {{rendered: !!root && !/Loading widget|Error displaying widget/.test(
                          text(el, 2000)), classes: root ? root.className : ''}};
      }}
      return out;
    }});
    info.svg_images = Array.from(area ? area.querySelectorAll('img') : [])
      .filter(img => img.src.startsWith('data:image/svg+xml'))
      .map(img => Object.assign(
          svgInfo(decodeURIComponent(img.src.slice(img.src.indexOf(',') + 1))),
          {{loaded: img.complete && img.naturalWidth > 0, width: img.naturalWidth,
            height: img.naturalHeight}}));
    info.inline_svgs = Array.from(area ? area.querySelectorAll('svg') : [])
      .filter(svg => svg.querySelector('g.graph'))
      .map(svg => ({{graph: true, nodes: svg.querySelectorAll('g.node').length,
                    edges: svg.querySelectorAll('g.edge').length,
                    width: svg.getBoundingClientRect().width}}));
    info.checks = Array.from(area ? area.querySelectorAll(
        '.jp-RenderedHTMLCommon div[style*="border-left"] > div:first-child') : [])
      .map(el => el.textContent.trim());
    info.quizzes = area ? area.querySelectorAll('.mt-quiz').length : 0;
    // quiz layout: each option's button at the start of its row, rows not overlapping
    info.layout = [];
    Array.from(area ? area.querySelectorAll('.mt-quiz') : []).forEach((quiz, q) => {{
      let above = -Infinity;
      Array.from(quiz.querySelectorAll('.mt-quiz-choices .widget-radio-box label, '
                                       + '.mt-quiz-option label.widget-label-basic'))
        .forEach((label, i) => {{
          const input = label.querySelector('input');
          if (!input) return;
          const row = label.getBoundingClientRect(), box = input.getBoundingClientRect();
          const words = Array.from(label.childNodes).find(
            n => n !== input && (n.textContent || '').trim());
          if (words) {{
            const range = document.createRange();
            range.selectNodeContents(words);
            const text = range.getBoundingClientRect();
            if (box.left >= text.left) info.layout.push(
              `quiz ${{q}}, option ${{i}}: its ${{input.type}} button is drawn after the text `
              + `(button at x=${{Math.round(box.left - row.left)}}, text at `
              + `x=${{Math.round(text.left - row.left)}})`);
          }}
          if (row.top < above - 1) info.layout.push(
            `quiz ${{q}}, option ${{i}} overlaps the option above it`);
          above = row.bottom;
        }});
    }});
    info.predicts = area ? area.querySelectorAll('.mt-predict').length : 0;
    info.players = area ? Array.from(area.querySelectorAll('.widget-button'))
      .filter(b => /Next/.test(b.textContent)).length : 0;
    info.stderr = shown.filter(el => el.getAttribute('data-mime-type') ===
                                     'application/vnd.jupyter.stderr').map(el => text(el, 2000));
    info.fallback_texts = shown.filter(el => /^text\\/(plain|html)$/.test(
        el.getAttribute('data-mime-type') || '')).map(el => text(el, 300));
    return info;
  }});
}}
"""

# The height of the notebook's cells (without the "scroll past the end" space under them).
CONTENT_HEIGHT = """
(id) => {
  const outer = document.querySelector(`#${id} .jp-WindowedPanel-outer`);
  const cells = outer.querySelectorAll('.jp-Cell');
  if (!cells.length) return outer.scrollHeight;
  const last = cells[cells.length - 1].getBoundingClientRect().bottom;
  return Math.ceil(last - outer.getBoundingClientRect().top + outer.scrollTop + 30);
}
"""

PICTURE = """
(button) => {
  const box = button.closest('.widget-vbox');
  const svg = box && box.querySelector('.widget-html-content svg');
  if (svg) return {kind: 'svg', sig: svg.outerHTML, graph: !!svg.querySelector('g.graph'),
                   nodes: svg.querySelectorAll('g.node').length};
  const img = box && box.querySelector('img');
  if (img) return {kind: 'img', sig: img.src, graph: false, nodes: 0};
  return null;
}
"""


# --------------------------------------------------------------------------- helpers
class Notebook:
    """One notebook open in a browser page, with its artifacts folder and findings."""

    def __init__(self, page, server, rel: str, kind: str) -> None:
        self.page, self.server, self.rel, self.kind = page, server, rel, kind
        slug = Path(rel).stem if kind == "selftest" else rel.replace(
            "notebooks/solutions/", "solutions-").replace("notebooks/", "learner-")
        self.slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", slug.removesuffix(".ipynb"))
        self.out = ARTIFACTS / self.slug
        shutil.rmtree(self.out, ignore_errors=True)
        self.out.mkdir(parents=True, exist_ok=True)
        self.problems: list[str] = []
        self.notes: list[str] = []
        self.console: list[str] = []
        self.timing: dict[str, float] = {}
        self.cells: list[dict] = []
        self.interactions: list[dict] = []
        self.opened: dict = {}

    # ---- JupyterLab
    def js(self, script: str, arg=None):
        return self.page.evaluate(f"({script})", arg if arg is not None else self.rel)

    def command(self, name: str) -> None:
        self.page.evaluate("([panelId, name]) => { window.jupyterapp.shell.activateById(panelId);"
                           " window.jupyterapp.commands.execute(name); }",
                           [self.panel_id, name])

    def open(self) -> None:
        page, start = self.page, time.monotonic()
        page.goto(f"{self.server.url}/lab/tree/{self.rel}?reset", wait_until="domcontentloaded",
                  timeout=60_000)
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden)", timeout=60_000)
        self.timing["page"] = round(time.monotonic() - start, 2)
        page.wait_for_function(KERNEL_READY, arg=self.rel, timeout=90_000)
        self.timing["kernel"] = round(time.monotonic() - start, 2)
        self.panel_id = self.js(f"(path) => ({FIND_PANEL})(path).id")
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        self.shot("opened.png")  # what a learner sees on opening the notebook
        if self.kind == "solution":  # the saved outputs, as shown before anything runs
            self.opened_state()
        self.timing["shot"] = round(time.monotonic() - start, 2)

    def opened_state(self) -> None:
        """What the saved outputs look like before anything runs.

        A notebook from someone else is untrusted, so JupyterLab shows the text/plain of its
        SVG and widget outputs (the graph as a text tree, "Quiz: ..." for a quiz) until the
        cells run: recorded in the report, not a failure.
        """
        outputs = [o for c in self.js(REPORT) for o in c["outputs"]]
        rich = {"image/svg+xml": "svg", WIDGET_MIME: "widget"}
        self.opened = {"outputs": len(outputs)}
        for mime, name in rich.items():
            saved = [o for o in outputs if mime in o["mimes"]]
            self.opened[f"{name}_outputs"] = len(saved)
            self.opened[f"{name}_shown_as_text"] = sum(o["shown_mime"] == "text/plain"
                                                       for o in saved)

    def restart_and_run_all(self) -> None:
        page = self.page
        self.command("notebook:clear-all-cell-outputs")
        # Kernel > Restart Kernel and Run All Cells..., then "Restart" in the dialog
        self.command("notebook:restart-run-all")
        dialog = page.locator(".jp-Dialog")
        dialog.wait_for(timeout=20_000)
        dialog.locator(".jp-Dialog-button.jp-mod-accept").click()
        dialog.wait_for(state="detached", timeout=20_000)
        deadline, stable, state = time.monotonic() + RUN_TIMEOUT, 0, {}
        while time.monotonic() < deadline:
            state = self.js(RUN_STATE)
            finished = state["queued"] == 0 and (state["counted"] == state["total"]
                                                 or state["stopped"])
            if state["status"] == "dead":
                raise AssertionError(f"{self.rel}: the kernel died during Run All")
            idle = state["status"] == "idle" and state["indicator"] in (None, "idle")
            stable = stable + 1 if idle and finished else 0
            if stable >= 3:
                return
            time.sleep(0.25)
        self.shot("timeout.png")
        raise AssertionError(f"{self.rel}: Run All did not finish in {RUN_TIMEOUT} s: {state}")

    def wait_rendered(self) -> None:
        """Wait until no widget says "Loading widget..." and every SVG image is decoded."""
        try:
            self.page.wait_for_function(
                """(panelId) => {
                  const node = document.getElementById(panelId);
                  if (!node || /Loading widget\\.\\.\\./.test(node.innerText)) return false;
                  return Array.from(node.querySelectorAll('.jp-OutputArea-output img'))
                              .every(img => img.complete);
                }""", arg=self.panel_id, timeout=RENDER_TIMEOUT * 1000)
        except Exception:  # reported as problems by check_outputs
            self.notes.append(f"outputs still loading after {RENDER_TIMEOUT} s")

    def cell(self, index: int):
        return self.page.locator(f'#{self.panel_id} [data-mt-cell="{index}"]')

    # ---- screenshots
    def shot(self, name: str, locator=None, clip: dict | None = None) -> None:
        path = self.out / name
        try:
            if locator is None:
                self.page.screenshot(path=str(path), clip=clip)
            else:
                locator.screenshot(path=str(path), timeout=10_000)
        except Exception as error:  # a screenshot must not hide a real finding
            self.notes.append(f"screenshot {name} failed: {type(error).__name__}: {error}")

    def tall_viewport(self) -> int:
        """Make the window as tall as the notebook (up to MAX_SHOT_HEIGHT); the content height."""
        height = self.page.evaluate(CONTENT_HEIGHT, self.panel_id)
        self.page.set_viewport_size({"width": self.page.viewport_size["width"],
                                     "height": min(height + 140, MAX_SHOT_HEIGHT)})
        self.page.wait_for_timeout(300)
        return self.page.evaluate(CONTENT_HEIGHT, self.panel_id)  # drawn cells: true heights

    def full_shots(self, prefix: str) -> None:
        """The whole notebook, in as few screenshots as the height limit allows.

        Cells out of view have an estimated height until they are drawn (the windowing mode
        "contentVisibility"), so the height is measured again after every scroll.
        """
        viewport = dict(self.page.viewport_size)
        self.tall_viewport()
        outer = "document.querySelector(`#${id} .jp-WindowedPanel-outer`)"
        box = self.page.evaluate(
            f"(id) => {{ const r = {outer}.getBoundingClientRect(); "
            "return {top: r.top, height: r.height}; }", self.panel_id)
        step = int(box["height"]) - 40  # the parts overlap by 40 px
        top = 0
        for part in range(1, 30):
            self.page.evaluate(f"([id, top]) => {{ {outer}.scrollTop = top; }}",
                               [self.panel_id, top])
            self.page.wait_for_timeout(200)
            height = self.page.evaluate(CONTENT_HEIGHT, self.panel_id)
            last = top + box["height"] >= height
            name = f"{prefix}.png" if part == 1 and last else f"{prefix}-part{part}.png"
            # stop under the last cell (no "scroll past the end" space)
            clip = {"x": 0, "y": 0, "width": viewport["width"],
                    "height": min(self.page.viewport_size["height"],
                                  box["top"] + height - top + 30)}
            self.shot(name, clip=clip)
            if last:
                break
            top += step
        self.page.evaluate(f"(id) => {{ {outer}.scrollTop = 0; }}", self.panel_id)
        self.page.set_viewport_size(viewport)

    # ---- reporting
    def save_report(self) -> None:
        report = {"notebook": self.rel, "kind": self.kind, "timing_s": self.timing,
                  "opened": self.opened,
                  "problems": self.problems, "notes": self.notes,
                  "console": self.console[:50], "interactions": self.interactions,
                  "cells": [{k: v for k, v in c.items() if k != "source"}
                            | {"source": c["source"][:200]} for c in self.cells]}
        (self.out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))


def first_line(cell: dict) -> str:
    lines = [ln for ln in cell["source"].splitlines() if ln.strip() and not ln.startswith("#")]
    return (lines[0] if lines else cell["source"][:60])[:70]


def calls_draw_graph(cell: dict) -> bool:
    code = "\n".join(ln.split("#")[0] for ln in cell["source"].splitlines())
    return "draw_graph(" in code


def stored_verdicts(path: Path) -> list[str]:
    """The first lines of the check results (✓ ✗ ⏳) saved in an executed notebook."""
    nb = json.loads(path.read_text())
    verdicts = []
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            html = "".join(data.get("text/html", ""))
            if "border-left: 4px solid" in html and "text/plain" in data:
                # the browser shows `code` and **bold** as markup, without the marks
                verdicts.append(plain("".join(data["text/plain"]).splitlines()[0].strip()))
    return [v for v in verdicts if v[:1] in VERDICT_MARKS]  # not expected_error's boxes


def plain(text: str) -> str:
    """Text as the browser shows it: `code` and **bold** lose their marks (like the package's
    ``minitorch.exercises._common.plain``, not imported here so that collecting this module
    imports neither minitorch nor ipywidgets)."""
    return re.sub(r"\*\*([^*]+)\*\*", r"\1", re.sub(r"`([^`]+)`", r"\1", text))


def last_verdicts(verdicts: list[str]) -> dict[str, str]:
    """The last verdict of each check, by title ("✓ title: ..." -> title)."""
    last = {}
    for v in verdicts:
        last[v[1:].split(":")[0].strip()] = v
    return last


def stored_outputs(path: Path) -> dict[str, int]:
    """How many SVG pictures and widgets the executed notebook file holds."""
    nb = json.loads(path.read_text())
    counts = {"svg": 0, "widgets": 0, "outputs": 0}
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            counts["outputs"] += 1
            data = output.get("data", {})
            counts["svg"] += "image/svg+xml" in data
            counts["widgets"] += WIDGET_MIME in data
    return counts


# --------------------------------------------------------------------------- checks
def check_outputs(nb: Notebook) -> None:
    """What the browser shows after Run All: errors, pictures, widgets, check verdicts."""
    problems, notes = nb.problems, nb.notes
    code_cells = [c for c in nb.cells if c["type"] == "code"]
    for c in code_cells:
        where = f"cell {c['index']} ({first_line(c)!r})"
        tagged = "raises-exception" in c["tags"]
        if c["count"] is None:
            problems.append(f"{where} did not run (no execution count)")
        errors = [o for o in c["outputs"] if o["type"] == "error"]
        for o in errors:
            problems.append(f"{where} shows an error: {o['ename']}: {o['evalue']}")
        if tagged:
            problems.append(f"{where} is tagged raises-exception: Colab ignores the tag, so no "
                            "cell may raise (show the error with expected_error)")
        for text in c["stderr"]:
            if "Traceback" in text:
                problems.append(f"{where} prints a traceback on stderr: {text[-300:]!r}")
            elif not errors:
                notes.append(f"{where} writes to stderr: {text[:200]!r}")
        # widgets: every widget output rendered live, no text fallback
        for o in c["outputs"]:
            if WIDGET_MIME in o["mimes"]:
                if not o.get("widget", {}).get("rendered"):
                    problems.append(f"{where}: a widget is not rendered (the browser shows "
                                    f"{o['shown_mime']}: {o['shown_text'][:120]!r})")
        for text in c["fallback_texts"]:
            if FALLBACK.search(text):
                problems.append(f"{where}: a widget shows as text: {text[:120]!r}")
        for issue in c.get("layout", []):
            problems.append(f"{where}: {issue}")
        # pictures: every SVG decodes, and is a Graphviz graph with nodes
        for svg in c["svg_images"]:
            if not svg["loaded"]:
                problems.append(f"{where}: an SVG image does not load in the browser")
            elif not (svg["graph"] and svg["nodes"]):
                notes.append(f"{where}: an SVG that is not a Graphviz graph: {svg}")
        if calls_draw_graph(c) and not any(s["graph"] and s["nodes"] and s["loaded"]
                                           for s in c["svg_images"] + c["inline_svgs"]):
            text = " ".join(o["shown_text"] for o in c["outputs"])[:150]
            message = f"{where} calls draw_graph but shows no SVG graph (it shows {text!r})"
            # a learner copy may wait for the learner's code before it can draw
            if nb.kind != "learner" or "Graphviz" in text or errors:
                problems.append(message)
            else:
                notes.append(message)
    # check verdicts (a chapter may show ⏳ and ✗ on purpose, e.g. to explain the checks)
    verdicts = [v.splitlines()[0] for c in code_cells for v in c["checks"]
                if v[:1] in VERDICT_MARKS]  # expected_error's boxes are not verdicts
    if nb.kind == "selftest":
        if [v[:1] for v in verdicts] != SELFTEST_CHECKS:
            problems.append(f"self-test check verdicts {verdicts} != {SELFTEST_CHECKS}")
    elif nb.kind == "solution":
        saved = stored_verdicts(ROOT / nb.rel)
        if verdicts != saved and stored_outputs(ROOT / nb.rel)["outputs"]:
            problems.append(f"the checks say {verdicts} in the browser, {saved} in the saved "
                            "notebook")
        for title, last in last_verdicts(verdicts).items():
            if not last.startswith("✓"):
                problems.append(f"the last check of {title!r} in the solution copy does not "
                                f"pass: {last!r}")
    else:
        solution = ROOT / nb.rel.replace("notebooks/", "notebooks/solutions/", 1)
        saved = stored_verdicts(solution) if solution.exists() else []
        for v in verdicts:
            if v.startswith("✗") and v not in saved:
                problems.append("a check in the learner copy fails instead of saying 'not "
                                f"done yet': {v!r}")
        for title, last in last_verdicts(verdicts).items():
            if last.startswith("✗"):
                problems.append(f"the last check of {title!r} in the learner copy says {last!r}"
                                ", not ⏳ 'not done yet'")
        if solution.exists() and "### BEGIN SOLUTION" in solution.read_text():
            if not any(v.startswith("⏳") for v in verdicts):
                problems.append("no check in the learner copy says ⏳ 'not done yet' "
                                f"(verdicts: {verdicts})")
    # the executed solution file and the browser show the same pictures and widgets
    if nb.kind == "solution":
        stored = stored_outputs(ROOT / nb.rel)
        if not stored["outputs"]:
            problems.append("the solution notebook is saved without outputs (not executed: "
                            "python scripts/notebooks.py execute)")
            return
        shown_svg = sum(len(c["svg_images"]) for c in code_cells)
        shown_widgets = sum(WIDGET_MIME in o["mimes"] for c in code_cells for o in c["outputs"])
        if stored["svg"] != shown_svg:
            problems.append(f"the saved notebook has {stored['svg']} SVG pictures, the browser "
                            f"shows {shown_svg}")
        if stored["widgets"] != shown_widgets:
            problems.append(f"the saved notebook has {stored['widgets']} widgets, the browser "
                            f"shows {shown_widgets}")


# --------------------------------------------------------------------------- exercises
def wait_changed(page, locator, before: str) -> str:
    handle = locator.element_handle(timeout=FEEDBACK_TIMEOUT)
    page.wait_for_function("([el, before]) => el.innerHTML !== before", arg=[handle, before],
                           timeout=FEEDBACK_TIMEOUT)
    return locator.inner_text()


def click_and_read(page, button, feedback) -> str:
    """Click a Check/Reveal button and return the feedback once the kernel has answered.

    A click that gets no answer is tried once more (a busy machine can lose the race between
    a click and the widget's last sync); a second silence raises AssertionError.
    """
    before = feedback.inner_html()
    for attempt in (1, 2):
        button.click()
        try:
            return wait_changed(page, feedback, before)
        except Exception:  # Playwright's TimeoutError
            if attempt == 2:
                label = button.inner_text().strip()
                raise AssertionError(f"clicking {label!r} changed nothing in "
                                     f"{2 * FEEDBACK_TIMEOUT // 1000} s") from None
    raise AssertionError("unreachable")


def exercise_quiz(nb: Notebook, quiz, name: str) -> dict:
    page = nb.page
    feedback = quiz.locator(".mt-feedback .widget-html-content")
    check = quiz.locator(".mt-check")
    multi = "mt-quiz-multi" in (quiz.get_attribute("class") or "")
    options = quiz.locator(".mt-quiz-option input[type=checkbox]" if multi
                           else ".mt-quiz-choices input[type=radio]")
    n = options.count()
    record = {"exercise": name, "kind": "quiz-multi" if multi else "quiz", "options": n}

    def choose(chosen: set[int]) -> str:
        for i in range(n):
            if multi:
                options.nth(i).set_checked(i in chosen)
            elif i in chosen:
                options.nth(i).check()
        return click_and_read(page, check, feedback)

    if nb.kind == "selftest":  # the same code in every quiz: try it once
        text = click_and_read(page, check, feedback)  # nothing chosen yet
        record["empty"] = text.strip()
        if "Pick an answer first" not in text:
            nb.problems.append(f"{name}: Check with nothing chosen says {text!r}")
    def marks() -> list[str]:
        return [m.inner_text().strip()
                for m in quiz.locator(".mt-feedback li > span:first-child").all()]

    # A wrong answer marks only the options chosen (it must not give the right one away), so
    # find the right answer as a learner would: by trying. Multi-select: choose every option,
    # and the feedback marks each one. Single answer: try the options in turn.
    right, wrong_text = None, None
    if multi:
        text = choose(set(range(n)))
        seen = marks()
        if len(seen) != n:
            nb.problems.append(f"{name}: with every option chosen the feedback should mark each "
                               f"of {n} ✓ or ✗, it shows {seen} ({text[:200]!r})")
            return record
        right = {i for i, m in enumerate(seen) if m == "✓"}
        if right != set(range(n)):
            wrong_text = text
    else:
        for i in range(n):
            text = choose({i})
            if text.startswith("✓ Correct!"):
                right = {i}
                break
            if wrong_text is None:
                wrong_text = text
                nb.shot(f"{name}-wrong.png", quiz)
                if marks() != ["✗"]:
                    nb.problems.append(f"{name}: a wrong answer should mark only the option "
                                       f"chosen, ✗; it shows {marks()} ({text[:200]!r})")
        if right is None:
            nb.problems.append(f"{name}: no option gets ✓ Correct!")
            return record
    if wrong_text is not None:
        record["wrong"] = wrong_text.splitlines()[0] if wrong_text else ""
        if not wrong_text.startswith("✗"):
            nb.problems.append(f"{name}: a wrong answer gets {wrong_text[:120]!r}, not ✗")
        if multi:
            nb.shot(f"{name}-wrong.png", quiz)
    if multi:  # (a single-answer quiz shows the right answer's feedback already)
        text = choose(right)
    record["right"] = text.splitlines()[0] if text else ""
    if not text.startswith("✓ Correct!"):
        nb.problems.append(f"{name}: the right answer gets {text[:120]!r}, not ✓ Correct!")
    elif len(marks()) != n:
        nb.problems.append(f"{name}: after the right answer every option should be explained, "
                           f"the feedback marks {marks()}")
    nb.shot(f"{name}-right.png", quiz)
    return record


def exercise_predict(nb: Notebook, exercise, name: str) -> dict:
    page = nb.page
    entry = exercise.locator(".mt-predict-entry input")
    check = exercise.locator(".mt-check")
    feedback = exercise.locator(".mt-feedback .widget-html-content")
    record = {"exercise": name, "kind": "predict"}
    if nb.kind == "selftest":  # the same code in every exercise: try it once
        entry.fill("1 +* 2")
        text = click_and_read(page, check, feedback)
        record["unreadable"] = text
        if not text.startswith("⚠"):
            nb.problems.append(f"{name}: unreadable input gets {text[:120]!r}, not ⚠")
    entry.fill("123456.789")
    text = click_and_read(page, check, feedback)
    record["wrong"] = text
    if not text.startswith("✗"):
        nb.problems.append(f"{name}: a wrong value gets {text[:120]!r}, not ✗")
    nb.shot(f"{name}-wrong.png", exercise)
    reveal = exercise.locator(".mt-reveal")
    if reveal.count() == 0:
        nb.notes.append(f"{name}: no Reveal button, so the right answer was not tried")
        return record
    revealed = click_and_read(page, reveal, exercise.locator(".mt-reveal-text "
                                                             ".widget-html-content"))
    answer = exercise.locator(".mt-reveal-text code").first.inner_text()
    record["revealed"] = revealed
    entry.fill(answer)
    text = click_and_read(page, check, feedback)
    record["right"] = text
    if not text.startswith("✓"):
        nb.problems.append(f"{name}: the revealed answer {answer!r} gets {text[:120]!r}, not ✓")
    nb.shot(f"{name}-right.png", exercise)
    return record


def exercise_player(nb: Notebook, button, name: str) -> dict:
    """Click a stepper's Next: the picture must change (and Prev must bring it back)."""
    page = nb.page
    record = {"exercise": name, "kind": "stepper"}
    box = button.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")
    nb.shot(f"{name}-first.png", box)
    first = button.evaluate(PICTURE)
    if first is None:
        nb.notes.append(f"{name}: a Next button without a picture next to it")
        return record
    record["picture"] = first["kind"]
    if first["kind"] == "svg" and not (first["graph"] and first["nodes"]):
        nb.problems.append(f"{name}: the stepper's picture is not a Graphviz SVG")
    if button.is_disabled():
        nb.notes.append(f"{name}: Next is disabled (a single frame)")
        return record
    button.click()
    try:
        page.wait_for_function(f"([b, sig]) => ({PICTURE})(b).sig !== sig",
                               arg=[button.element_handle(), first["sig"]],
                               timeout=FEEDBACK_TIMEOUT)
    except Exception:
        nb.problems.append(f"{name}: clicking Next does not change the picture")
        return record
    second = button.evaluate(PICTURE)
    record["next_changed"] = True
    if second["kind"] == "svg" and not (second["graph"] and second["nodes"]):
        nb.problems.append(f"{name}: after Next the picture is not a Graphviz SVG")
    nb.shot(f"{name}-next.png", box)
    prev = box.locator(".widget-button", has_text="Prev").first
    if prev.count():
        prev.click()
        try:
            page.wait_for_function(f"([b, sig]) => ({PICTURE})(b).sig === sig",
                                   arg=[button.element_handle(), first["sig"]],
                                   timeout=FEEDBACK_TIMEOUT)
            record["prev_restored"] = True
        except Exception:
            record["prev_restored"] = False
            if first["kind"] == "svg":
                nb.problems.append(f"{name}: Prev does not bring back the first picture")
    return record


def exercise_all(nb: Notebook) -> None:
    def timed(function, nb, element, name):
        start = time.monotonic()
        try:
            record = function(nb, element, name)
        except Exception as error:  # one broken widget must not hide the rest
            nb.problems.append(f"{name}: {type(error).__name__}: {str(error)[:300]}")
            nb.shot(f"{name}-failure.png", element)
            record = {"exercise": name, "error": str(error)[:300]}
        record["seconds"] = round(time.monotonic() - start, 2)
        nb.interactions.append(record)

    for c in nb.cells:
        if c["type"] != "code" or not (c["quizzes"] or c["predicts"] or c["players"]):
            continue
        cell = nb.cell(c["index"])
        for k, quiz in enumerate(cell.locator(".mt-quiz").all()):
            timed(exercise_quiz, nb, quiz, f"cell{c['index']:02d}-quiz{k}")
        for k, ex in enumerate(cell.locator(".mt-predict").all()):
            timed(exercise_predict, nb, ex, f"cell{c['index']:02d}-predict{k}")
        for k, button in enumerate(cell.locator(".jp-OutputArea-output .widget-button",
                                                has_text="Next").all()):
            timed(exercise_player, nb, button, f"cell{c['index']:02d}-step{k}")


def shoot_exercises(nb: Notebook) -> None:
    """Learner copies: a picture of every check and exercise as Run All left it."""
    for c in nb.cells:
        if c["type"] == "code" and (c["checks"] or c["quizzes"] or c["predicts"]
                                    or c["players"]):
            nb.shot(f"cell{c['index']:02d}.png", nb.cell(c["index"]).locator(".jp-Cell-outputArea"))


# --------------------------------------------------------------------------- the test
@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_notebook_in_browser(rel: str, lab_server, lab_browser, artifacts, browser_timings
                             ) -> None:
    if rel == SELFTEST:
        rel, kind = str(make_selftest().relative_to(ROOT)), "selftest"
    else:
        kind = "solution" if rel.startswith("notebooks/solutions/") else "learner"
    start = time.monotonic()
    page = lab_browser.new_page()
    nb = Notebook(page, lab_server, rel, kind)
    page.on("console", lambda m: nb.console.append(f"{m.type}: {m.text[:300]}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: nb.console.append(f"pageerror: {e}"[:300]))
    page.on("requestfailed", lambda r: nb.console.append(
        f"request failed: {r.url[:200]} ({r.failure})"))

    def lap(phase: str, since: float) -> float:
        now = time.monotonic()
        nb.timing[phase] = round(now - since, 2)
        return now

    try:
        nb.open()
        t = lap("open", start)
        nb.restart_and_run_all()
        t = lap("run", t)
        nb.wait_rendered()
        nb.cells = nb.js(REPORT)
        check_outputs(nb)
        t = lap("render", t)
        if kind in ("solution", "selftest"):
            exercise_all(nb)
            n_quiz = sum(c.get("quizzes", 0) for c in nb.cells)
            n_predict = sum(c.get("predicts", 0) for c in nb.cells)
            if kind == "selftest" and (n_quiz, n_predict) != (2, 1):
                nb.problems.append(f"self-test: found {n_quiz} quizzes and {n_predict} "
                                   "predict boxes, expected 2 and 1")
        t = lap("interact", t)
        if kind == "learner":  # what a learner sees after Run All
            shoot_exercises(nb)
            nb.full_shots("notebook")
        lap("screenshots", t)
    except Exception:
        nb.shot("failure.png")
        raise
    finally:
        nb.timing["total"] = round(time.monotonic() - start, 2)
        browser_timings[rel] = nb.timing
        nb.save_report()
        page.close()
        lab_server.shutdown_kernels()
    assert not nb.problems, f"{rel}: {len(nb.problems)} problem(s) in the browser:\n  " + \
        "\n  ".join(nb.problems)

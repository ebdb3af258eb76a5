"""The stored notebook outputs hold only what we render, so no new release of another library can
break nbval (a Pygments release once did: its HTML for source listings changed).

Rules, for every solution notebook (the learner copies store no outputs at all):
- no cell raises, and none is tagged ``raises-exception`` (Colab's "Run all" ignores tags);
- outputs are plain text, our own HTML (inline styles: no ``class=``, ``<style>`` or
  ``<script>``), pictures, or widget views; never ``text/latex`` or ``text/markdown``;
- the plain text is never a library's repr (matplotlib figures, widget objects, IPython
  display objects) nor a tqdm progress bar, in a cell whose output nbval compares, unless
  ``notebooks/sanitize.cfg`` neutralises it (matplotlib's ``<Figure size ...>`` beside a PNG);
- an SVG is one of our graph pictures, with our plain-text form beside it (nbval compares that
  text and skips the SVG, see ``notebooks/conftest.py``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb"))
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))

ALLOWED = {"text/plain", "text/html", "image/png", "image/svg+xml",
           "application/vnd.jupyter.widget-view+json"}
# Markup that only another library writes: Pygments (classes, <style>), widget fallbacks,
# pandas and friends (classes), any script.
FOREIGN_HTML = re.compile(r"class=|<style|<script|<table[^>]*class", re.I)
# Reprs and progress bars of other libraries.
FOREIGN_TEXT = [
    (re.compile(r"<Figure size \d+x\d+"), "matplotlib's Figure repr"),
    (re.compile(r"<matplotlib\.|<Axes:|\[<matplotlib"), "a matplotlib repr"),
    (re.compile(r"<IPython\.(core\.)?display\."), "an IPython display object's repr"),
    (re.compile(r"\b(VBox|HBox|Output|Button|HTML|IntSlider|FloatSlider)\(.*?(children|value|"
                r"layout)="), "an ipywidgets repr"),
    (re.compile(r"\d+%\|.*\|.*(it/s|s/it)|\[\d\d:\d\d<"), "a tqdm progress bar"),
    (re.compile(r"<graphviz\."), "a graphviz repr"),
]


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    """The regexes of ``notebooks/sanitize.cfg``: what nbval neutralises before comparing."""
    import configparser

    config = configparser.ConfigParser()
    config.read(ROOT / "notebooks" / "sanitize.cfg")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


def _cells(path: Path):
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def problems(path: Path) -> list[str]:
    """Everything in the notebook's stored outputs that breaks the rules above."""
    found = []
    for i, cell in enumerate(_cells(path)):
        tags = cell.get("metadata", {}).get("tags", [])
        compared = "nbval-ignore-output" not in tags and "nbval-skip" not in tags
        where = f"{path.name}, code cell {i}"
        if "raises-exception" in tags:
            found.append(f"{where}: tagged raises-exception (show the error with expected_error)")
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"{where}: raised {out.get('ename')}")
                continue
            texts = [_text(out.get("text", ""))]
            data = out.get("data", {})
            extra = set(data) - ALLOWED
            if extra:
                found.append(f"{where}: stores {sorted(extra)} (another library's rendering)")
            html = _text(data.get("text/html", ""))
            if FOREIGN_HTML.search(html):
                found.append(f"{where}: HTML with classes/styles/scripts, not ours: "
                             f"{html[:80]!r}")
            if "image/svg+xml" in data and not _text(data.get("text/plain", "")).strip():
                found.append(f"{where}: an SVG without our plain-text form beside it")
            texts.append(_text(data.get("text/plain", "")))
            if compared:
                for text in texts:
                    for pattern, replacement in _sanitizers():
                        text = pattern.sub(replacement, text)
                    for pattern, what in FOREIGN_TEXT:
                        if pattern.search(text):
                            found.append(f"{where}: {what} in a compared output: "
                                         f"{pattern.search(text).group(0)!r}")
    return found


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_stored_outputs_are_our_own_rendering(path):
    assert problems(path) == []


@pytest.mark.parametrize("path", LEARNER, ids=lambda p: p.name)
def test_learner_copies_store_no_outputs_and_no_widget_state(path):
    nb = json.loads(path.read_text())
    assert "widgets" not in nb["metadata"], "stale widget state from the solution run"
    for cell in _cells(path):
        assert cell.get("outputs", []) == []
        assert cell.get("execution_count") is None
        assert "raises-exception" not in cell.get("metadata", {}).get("tags", [])


def _notebook(outputs: list[dict], tags=()) -> dict:
    return {"cells": [{"cell_type": "code", "metadata": {"tags": list(tags)},
                       "outputs": outputs, "source": "", "execution_count": 1}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


@pytest.mark.parametrize("outputs, complaint", [
    # the exact rendering that broke a fresh machine: IPython.display.Code through Pygments
    ([{"output_type": "execute_result", "data": {
        "text/html": '<style>pre { line-height: 125%; }</style><div class="highlight">',
        "text/latex": "\\begin{Verbatim}", "text/plain": "def f(): ..."}}], "text/latex"),
    ([{"output_type": "display_data", "data": {
        "text/html": '<div class="highlight"><pre><span class="k">def</span>',
        "text/plain": "def f()"}}], "not ours"),
    ([{"output_type": "execute_result",
       "data": {"text/plain": "[<matplotlib.lines.Line2D at 0x7f>]"}}], "matplotlib"),
    ([{"output_type": "execute_result",
       "data": {"text/plain": "VBox(children=(HTML(value='x'),))"}}], "ipywidgets"),
    ([{"output_type": "stream", "name": "stderr",
       "text": " 50%|#####     | 5/10 [00:01<00:01,  4.2it/s]"}], "tqdm"),
    ([{"output_type": "error", "ename": "RuntimeError", "evalue": "x", "traceback": []}],
     "raised"),
    ([{"output_type": "display_data", "data": {"image/svg+xml": "<svg/>", "text/plain": ""}}],
     "SVG without"),
])
def test_the_guard_catches_foreign_renderings(tmp_path, outputs, complaint):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(_notebook(outputs)))
    found = problems(path)
    assert found and complaint in " ".join(found), found


def test_the_guard_accepts_our_own_renderings(tmp_path):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(_notebook([
        {"output_type": "stream", "name": "stdout", "text": "tensor([1., 2.])\n"},
        {"output_type": "display_data", "data": {
            "text/html": '<div style="border-left: 4px solid #2e7d32"><b>ok</b></div>',
            "text/plain": "✓ ok"}},
        {"output_type": "display_data", "data": {"image/svg+xml": "<svg/>",
                                                 "text/plain": "loss  MeanBackward0"}},
    ])))
    assert problems(path) == []
    tagged = tmp_path / "tagged.ipynb"  # a progress bar is fine where nbval ignores the output
    tagged.write_text(json.dumps(_notebook(
        [{"output_type": "stream", "name": "stderr", "text": "100%|##| 5/5 [00:01<00:00]"}],
        tags=["nbval-ignore-output"])))
    assert problems(tagged) == []


def test_nbval_skips_svg_and_compares_the_text_beside_it():
    spec = importlib.util.spec_from_file_location("notebooks_conftest",
                                                  ROOT / "notebooks" / "conftest.py")
    notebooks_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notebooks_conftest)
    assert "image/svg+xml" in notebooks_conftest.SKIP_COMPARE
    assert "text/plain" not in notebooks_conftest.SKIP_COMPARE
    nbval = pytest.importorskip("nbval.plugin", reason="nbval is part of the test extra")
    assert nbval.IPyNbFile.__init__.__name__ == "_init_skipping_svg"

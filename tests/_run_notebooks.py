"""Run notebooks the way Colab's "Run all" does, and report what happened, as JSON.

Every cell tag is removed first (Colab ignores ``raises-exception`` and ``nbval-*`` tags), so a
cell that raises stops the run there, exactly as it would for a learner. Used by
``tests/test_launch_paths.py`` with the Python of another environment (Colab-like, Binder), so it
imports only what such an environment has: nbformat and nbclient.

    python tests/_run_notebooks.py REPORT.json NOTEBOOK.ipynb [...]

The report maps each notebook to ``{"seconds", "error", "cells", "widgets", "outputs"}``:
``error`` is ``None`` or the first error (cell index, exception name and message); ``widgets``
counts widget displays; ``outputs`` is every output's text, so a test can look for tracebacks
that a cell printed rather than raised.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

WIDGET = "application/vnd.jupyter.widget-view+json"


def run(path: Path, timeout: int = 300) -> dict:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("tags", None)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    error = None
    with tempfile.TemporaryDirectory() as progress:  # checks save progress here, not in ~
        try:
            client.execute(env=dict(os.environ,
                                    MINITORCH_PROGRESS=os.path.join(progress, "progress.json")))
        except CellExecutionError as e:
            error = {"ename": e.ename, "evalue": e.evalue[:2000]}
    seconds = time.perf_counter() - start
    widgets, texts = 0, []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error" and error is not None and "cell" not in error:
                error["cell"] = i
            data = out.get("data", {})
            widgets += WIDGET in data
            texts.append(out.get("text", "") + data.get("text/plain", "")
                         + "\n".join(out.get("traceback", [])))
    return {"seconds": round(seconds, 1), "error": error, "cells": len(nb.cells),
            "widgets": widgets, "outputs": texts}


def main(argv: list[str]) -> int:
    report_path, *paths = argv
    report = {}
    for p in paths:
        report[Path(p).name] = run(Path(p))
        print(f"{Path(p).name}: {report[Path(p).name]['seconds']} s, "
              f"error: {report[Path(p).name]['error']}", flush=True)
    Path(report_path).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

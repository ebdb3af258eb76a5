"""Course notebook tool: one source (the solution notebooks) -> learner copies.

The solution notebooks in ``notebooks/solutions/`` are the single source of the course. Exercise
answers in them sit between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` (nbgrader's markers).
This tool makes the learner copies in ``notebooks/`` by replacing each marked region with a
placeholder that raises ``NotImplementedError`` (the checks report "not done yet" for it), removing
cells tagged ``solution-only``, clearing outputs, and pointing the Binder/Colab badges at the
learner copy's own path.

Usage::

    python scripts/notebooks.py learner           # regenerate the learner copies
    python scripts/notebooks.py check             # exit 1 if a learner copy is out of date
    python scripts/notebooks.py execute [NAMES]   # re-run solution notebooks in place, timed
    python scripts/notebooks.py from-py SRC.py    # percent-format script -> solution notebook
    python scripts/notebooks.py to-py NN [DIR]    # solution notebook -> percent-format script
    python scripts/notebooks.py sync              # badges, setup cells, links <- _about.py
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_about():
    """``minitorch/_about.py`` (the repository's address), without importing minitorch."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_about", ROOT / "minitorch" / "_about.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


about = _load_about()

SOLUTIONS = ROOT / "notebooks" / "solutions"
LEARNER = ROOT / "notebooks"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
PLACEHOLDER = 'raise NotImplementedError("your code here")'


def strip_solutions(source: str) -> str:
    """Replace each BEGIN/END SOLUTION region with an indented placeholder."""
    out, skipping = [], False
    for line in source.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}# YOUR CODE HERE\n{indent}{PLACEHOLDER}\n")
            skipping = True
        elif stripped.startswith(END):
            skipping = False
        elif not skipping:
            out.append(line)
    if skipping:
        raise ValueError("a '### BEGIN SOLUTION' has no matching '### END SOLUTION'")
    return "".join(out)


def learner_copy(nb: dict) -> dict:
    """The learner version of a solution notebook (a new dict)."""
    nb = copy.deepcopy(nb)
    cells = []
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if "solution-only" in tags:
            continue
        src = "".join(cell["source"])
        if cell["cell_type"] == "code":
            src = strip_solutions(src)
            cell["outputs"] = []
            cell["execution_count"] = None
        else:
            # Point the Binder/Colab badge links at the learner copy's own path (prose that
            # mentions notebooks/solutions/ stays as it is), and relative links to the
            # repository's files (`](../../minitorch/...)`) at them from one folder up.
            src = re.sub(r"((?:blob/main|lab/tree)/)notebooks/solutions/", r"\1notebooks/", src)
            src = src.replace("](../../", "](../")
        cell["source"] = src.splitlines(keepends=True)
        cell.get("metadata", {}).pop("execution", None)
        cells.append(cell)
    nb["cells"] = cells
    nb["metadata"].pop("widgets", None)  # widget state of the solution run: stale for a learner
    return nb


def dumps(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


# --- the repository's address, from its one home (minitorch/_about.py) ---------------------------

SETUP_CELL = f"""\
# Setup: on Colab, install minitorch (Colab already has NumPy, ipywidgets, matplotlib, Graphviz
# and PyTorch); anywhere else this does nothing.
import sys
if "google.colab" in sys.modules:
    import subprocess
    subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                    "{about.PIP_SPEC}"],
                   check=True)"""


def badges(rel_path: str) -> str:
    """The Binder and Colab badge lines for the notebook at ``rel_path``."""
    return (f"[![Open in Binder](https://mybinder.org/badge_logo.svg)]"
            f"({about.binder_link(rel_path)})\n"
            f"[![Open in Colab](https://colab.research.google.com/assets/colab-badge.svg)]"
            f"({about.colab_link(rel_path)})")


_BADGES = re.compile(r"\[!\[Open in Binder\]\([^)]*\)\]\([^)]*\)\n"
                     r"\[!\[Open in Colab\]\([^)]*\)\]\([^)]*\)")


def synced_notebook(nb: dict, rel_path: str) -> dict:
    """``nb`` with its badges and Colab setup cell generated from ``minitorch/_about.py``."""
    nb = copy.deepcopy(nb)
    for cell in nb["cells"][:6]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and _BADGES.search(src):
            src = _BADGES.sub(lambda _: badges(rel_path), src, count=1)
        elif cell["cell_type"] == "code" and "google.colab" in src:
            src = SETUP_CELL
        else:
            continue
        # keep the stored form (nbformat writes one string, hand-made cells a list of lines)
        cell["source"] = src if isinstance(cell["source"], str) else src.splitlines(keepends=True)
    return nb


def synced_text_files() -> dict[Path, str]:
    """README, pyproject.toml and AUTHORING.md with the repository's address filled in."""
    out = {}
    readme = (ROOT / "README.md").read_text()
    out[ROOT / "README.md"] = re.sub(
        r"https://mybinder\.org/v2/gh/[^)\s]*?urlpath=lab/tree/notebooks/00_start_here\.ipynb",
        about.binder_link("notebooks/00_start_here.ipynb"), readme)
    pyproject = (ROOT / "pyproject.toml").read_text()
    out[ROOT / "pyproject.toml"] = re.sub(r'(?m)^Homepage = ".*"$',
                                          f'Homepage = "{about.GITHUB_URL}"', pyproject)
    authoring = (ROOT / "notebooks" / "AUTHORING.md").read_text()
    out[ROOT / "notebooks" / "AUTHORING.md"] = re.sub(
        r"(<!-- setup cell -->\n```python\n)(?:(?!```).*\n)*(```)",
        lambda m: m.group(1) + SETUP_CELL + "\n" + m.group(2), authoring, count=1)
    return out


def unsynced() -> list[str]:
    """The files whose repository address or setup cell differ from ``minitorch/_about.py``."""
    stale = []
    for path in solution_paths():
        rel = path.relative_to(ROOT).as_posix()
        nb = json.loads(path.read_text())
        if dumps(synced_notebook(nb, rel)) != dumps(nb):
            stale.append(rel)
    for path, text in synced_text_files().items():
        if path.read_text() != text:
            stale.append(path.relative_to(ROOT).as_posix())
    return stale


def cmd_sync(args) -> int:
    for path in solution_paths():
        rel = path.relative_to(ROOT).as_posix()
        nb = json.loads(path.read_text())
        path.write_text(dumps(synced_notebook(nb, rel)))
    for path, text in synced_text_files().items():
        path.write_text(text)
    print("badges, setup cells, README, pyproject.toml and AUTHORING.md synced with "
          f"minitorch/_about.py ({about.GITHUB_URL})")
    return cmd_learner(args)


def solution_paths(names=None) -> list[Path]:
    paths = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
    if names:
        paths = [p for p in paths if any(n in p.name for n in names)]
    return paths


def cmd_learner(args) -> int:
    for path in solution_paths():
        target = LEARNER / path.name
        target.write_text(dumps(learner_copy(json.loads(path.read_text()))))
        print(f"wrote {target.relative_to(ROOT)}")
    return 0


def cmd_check(args) -> int:
    stale = []
    for path in solution_paths():
        target = LEARNER / path.name
        want = dumps(learner_copy(json.loads(path.read_text())))
        if not target.exists() or target.read_text() != want:
            stale.append(target.relative_to(ROOT))
    for extra in sorted(LEARNER.glob("[0-9][0-9]_*.ipynb")):
        if not (SOLUTIONS / extra.name).exists():
            stale.append(f"{extra.relative_to(ROOT)} (no solution notebook)")
    stale += [f"{name} (run: python scripts/notebooks.py sync)" for name in unsynced()]
    if stale:
        print("learner copies out of date (run: python scripts/notebooks.py learner):")
        for s in stale:
            print(f"  {s}")
        return 1
    print(f"{len(solution_paths())} learner copies up to date")
    return 0


def execute(path: Path, timeout: int = 120) -> float:
    """Run a notebook top to bottom in a fresh kernel, store its outputs; return seconds.

    The kernel saves check verdicts to a fresh, empty progress file (not the home folder's),
    so chapter 00's progress table shows the same thing on every run.
    """
    import tempfile

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, MINITORCH_PROGRESS=os.path.join(folder, "progress.json"))
        client.execute(env=env)
    seconds = time.perf_counter() - start
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    path.write_text(dumps(nb))
    return seconds


def cmd_execute(args) -> int:
    for path in solution_paths(args.names):
        seconds = execute(path)
        print(f"{path.relative_to(ROOT)}: {seconds:.1f} s")
    return cmd_learner(args)


def from_py(src: Path) -> dict:
    """A notebook from a percent-format script (``# %%`` code, ``# %% [markdown]`` text).

    Cell tags go on the marker line: ``# %% tags=["raises-exception"]``.
    """
    cells = []
    text = src.read_text()
    blocks = re.split(r"^# %%", text, flags=re.M)
    for block in blocks[1:]:
        header, _, body = block.partition("\n")
        tags = re.findall(r'"([^"]+)"', header.split("tags=", 1)[1]) if "tags=" in header else []
        meta = {"tags": tags} if tags else {}
        body = body.strip("\n")
        if "[markdown]" in header:
            text = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                             for line in body.splitlines())
            cells.append({"cell_type": "markdown", "metadata": meta,
                          "source": text.splitlines(keepends=True)})
        else:
            cells.append({"cell_type": "code", "metadata": meta, "execution_count": None,
                          "outputs": [], "source": body.splitlines(keepends=True)})
    stem = hashlib.sha256(text.encode()).hexdigest()[:8]
    for number, cell in enumerate(cells):  # stable ids: nbformat 4.5 wants one per cell
        cell["id"] = f"{stem}-{number:03d}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def to_py(nb: dict) -> str:
    """The percent-format script of a notebook (the inverse of :func:`from_py`, outputs dropped)."""
    parts = []
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        tag_text = " tags=[" + ", ".join(f'"{t}"' for t in tags) + "]" if tags else ""
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            body = "\n".join(f"# {line}" if line else "#" for line in src.splitlines())
            parts.append(f"# %% [markdown]{tag_text}\n{body}\n")
        else:
            parts.append(f"# %%{tag_text}\n{src}\n")
    return "\n".join(parts)


def cmd_to_py(args) -> int:
    out_dir = Path(args.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for path in solution_paths(args.names):
        target = out_dir / (path.stem + ".py")
        target.write_text(to_py(json.loads(path.read_text())))
        print(f"wrote {target}")
    return 0


def cmd_from_py(args) -> int:
    src = Path(args.src)
    nb = from_py(src)
    if args.gpu:
        nb["metadata"]["accelerator"] = "GPU"
        nb["metadata"]["colab"] = {"provenance": [], "gpuType": "T4"}
    target = SOLUTIONS / (src.stem + ".ipynb")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(dumps(nb))
    seconds = execute(target)
    print(f"{target.relative_to(ROOT)}: executed in {seconds:.1f} s")
    learner = LEARNER / target.name
    learner.write_text(dumps(learner_copy(json.loads(target.read_text()))))
    print(f"wrote {learner.relative_to(ROOT)}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("learner", help="regenerate the learner copies").set_defaults(fn=cmd_learner)
    sub.add_parser("check", help="fail if a learner copy is stale").set_defaults(fn=cmd_check)
    sub.add_parser("sync", help="badges, setup cells and links from minitorch/_about.py"
                   ).set_defaults(fn=cmd_sync)
    ex = sub.add_parser("execute", help="re-run solution notebooks in place")
    ex.add_argument("names", nargs="*")
    ex.set_defaults(fn=cmd_execute)
    tp = sub.add_parser("to-py", help="solution notebooks -> percent-format scripts")
    tp.add_argument("names", nargs="*")
    tp.add_argument("--dir", default=".", help="where to write the scripts")
    tp.set_defaults(fn=cmd_to_py)
    fp = sub.add_parser("from-py", help="build + run a solution notebook from a script")
    fp.add_argument("src")
    fp.add_argument("--gpu", action="store_true", help="mark the notebook as needing a GPU")
    fp.set_defaults(fn=cmd_from_py)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())

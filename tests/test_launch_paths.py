"""The course where learners really are: Colab and Binder, each rebuilt here in a fresh virtualenv.

- **Colab**: ipywidgets 7.7.1 and no JupyterLab, the package installed exactly as the notebooks'
  setup cell installs it (from the repository, no extras), and "Run all", which ignores cell
  tags. Every learner notebook must run through, showing its widgets; the widget tests run
  there too, under ipywidgets 7. Colab has PyTorch; this environment leaves it out, so that the
  notebooks' "PyTorch is not installed" path runs somewhere (Binder's build runs them with it).
- **Binder**: exactly ``binder/requirements.txt`` (with ``runtime.txt``'s Python and
  ``apt.txt``'s Graphviz); PyTorch's CPU build and no CUDA package; every solution notebook runs
  through with its tags ignored.

Each environment takes a few minutes to build (it is the only way to know), so these tests are
marked ``slow``; CI runs them. Package versions come from ``constraints.txt``, like everywhere
else in the suite.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
LEARNER = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = sorted((ROOT / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb"))
RUNNER = ROOT / "tests" / "_run_notebooks.py"
# What Colab has that our constraints would pin otherwise (ipywidgets 8 and its JupyterLab side).
NOT_ON_COLAB = {"ipywidgets", "widgetsnbextension", "jupyterlab-widgets", "jupyterlab",
                "notebook", "notebook-shim", "jupyterlab-server", "jupyter-lsp",
                "jupyterlab-pygments"}
# Colab's preinstalled packages that the notebooks use (Colab pins its own versions of these).
COLAB_HAS = ["ipykernel", "nbclient", "nbformat", "matplotlib", "graphviz", "tqdm",
             "scikit-learn", "numpy", "ipywidgets==7.7.1", "notebook<7"]


def _run(cmd: list, env: dict | None = None, cwd: Path = ROOT,
         timeout: int = 900) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        pytest.fail(f"{' '.join(map(str, cmd))} failed ({done.returncode}):\n"
                    f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}")
    return done


def _venv(path: Path) -> tuple[Path, dict]:
    """A fresh virtualenv at ``path``: its python, and an environment that puts it first."""
    _run([sys.executable, "-m", "venv", path])
    env = dict(os.environ, VIRTUAL_ENV=str(path), PATH=f"{path / 'bin'}:{os.environ['PATH']}",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    for name in ("PYTHONPATH", "PYTHONHOME", "CONDA_PREFIX"):
        env.pop(name, None)
    return path / "bin" / "python", env


def _installed(python: Path, env: dict) -> dict[str, str]:
    out = _run([python, "-m", "pip", "list", "--format=json"], env=env).stdout
    return {p["name"].lower().replace("_", "-"): p["version"] for p in json.loads(out)}


def _run_notebooks(python: Path, env: dict, paths: list[Path], report: Path) -> dict:
    _run([python, RUNNER, report, *paths], env=env, timeout=1500)
    return json.loads(report.read_text())


def setup_cell_spec(path: Path) -> str:
    """The pip requirement that the notebook's Colab setup cell installs."""
    nb = json.loads(path.read_text())
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code"
                and "google.colab" in "".join(c["source"]))
    strings = [n.value for n in ast.walk(ast.parse("".join(cell["source"])))
               if isinstance(n, ast.Constant) and isinstance(n.value, str) and "git+" in n.value]
    assert len(strings) == 1, strings
    return strings[0]


# ----------------------------------------------------------------------------------- Colab
@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """A Colab-like environment, after the setup cell: (python, env, installed packages)."""
    tmp = tmp_path_factory.mktemp("colab")
    python, env = _venv(tmp / "venv")
    pins = [line for line in (ROOT / "constraints.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")
            and re.split(r"[=<>]", line)[0].lower().replace("_", "-") not in NOT_ON_COLAB]
    (tmp / "colab-constraints.txt").write_text("\n".join(pins) + "\n")
    _run([python, "-m", "pip", "install", "-q", "-c", tmp / "colab-constraints.txt",
          *COLAB_HAS, "pytest", "hypothesis"], env=env)
    # The setup cell, with the repository's address replaced by a copy of this checkout's
    # package files (what a git clone has; no stale build/ folder can sneak into the wheel).
    source = tmp / "repository"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "minitorch", source / "minitorch",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    spec = setup_cell_spec(LEARNER[0])
    local = re.sub(r"git\+https://\S+", source.as_uri(), spec)
    assert local != spec
    _run([python, "-m", "pip", "install", "-q", "-c", tmp / "colab-constraints.txt", local],
         env=env)
    return python, env, _installed(python, env), tmp


def test_colab_setup_cell_installs_the_package_alone():
    spec = setup_cell_spec(LEARNER[0])
    assert spec.startswith("minitorch-course @ git+https://github.com/"), spec
    assert "[" not in spec.split("@")[0], "no extras on Colab: they would pull JupyterLab " \
                                          "and ipywidgets 8"
    assert all(setup_cell_spec(p) == spec for p in LEARNER + SOLUTIONS)


def test_colab_environment_is_like_colabs(colab):
    python, env, installed, _ = colab
    assert installed["ipywidgets"] == "7.7.1"
    assert "jupyterlab" not in installed
    assert "torch" not in installed
    probe = _run([python, "-c", "import json, minitorch, ipywidgets\n"
                  "from minitorch.exercises.ch12_gpu_backends import bench_results\n"
                  "print(json.dumps([minitorch.__file__, len(bench_results())]))"],
                 env=env, cwd=colab[3]).stdout
    location, n_results = json.loads(probe.strip().splitlines()[-1])
    assert "site-packages" in location, "the package must be installed, not read from here"
    assert n_results >= 1, "the benchmark results must ship as package data"


@pytest.fixture(scope="module")
def colab_run(colab):
    python, env, _, tmp = colab
    return _run_notebooks(python, env, LEARNER, tmp / "report.json")


@pytest.mark.parametrize("path", LEARNER, ids=lambda p: p.name)
def test_learner_notebook_runs_through_on_colab(colab_run, path):
    result = colab_run[path.name]
    assert result["error"] is None, f"Run all stopped: {result['error']}"
    assert result["widgets"] > 0, "no widget was displayed"
    # each chapter's "compare with PyTorch" cell took its no-PyTorch path, and said so
    assert any("PyTorch is not installed" in text for text in result["outputs"])
    for text in result["outputs"]:
        # a widget that fails to display is printed, not raised: look for its traceback
        # (a traceback as Python prints it: anomaly mode's warning names a forward "Traceback")
        assert "Traceback (most recent call last)" not in text, text[:2000]
        assert "_repr_mimebundle_" not in text, text[:2000]


def test_widgets_work_under_ipywidgets_7(colab):
    python, env, _, _ = colab
    done = _run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                 "tests/test_widget_display.py"], env=env)
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-2000:]


# ----------------------------------------------------------------------------------- Binder
def test_binder_files_pin_python_cpu_torch_and_graphviz():
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert re.fullmatch(r"python-3\.\d+", runtime), runtime
    assert "graphviz" in (ROOT / "binder" / "apt.txt").read_text().split()
    requirements = (ROOT / "binder" / "requirements.txt").read_text()
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in requirements
    assert re.search(r"(?m)^torch==[\d.]+\+cpu$", requirements)
    assert re.search(r"(?m)^-e \.\[course\]$", requirements)


@pytest.fixture(scope="module")
def binder(tmp_path_factory):
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    here = f"python-{sys.version_info.major}.{sys.version_info.minor}"
    if runtime != here:
        pytest.skip(f"binder/runtime.txt pins {runtime}; this interpreter is {here}")
    if shutil.which("dot") is None:
        pytest.fail("Graphviz's dot is missing: binder/apt.txt installs it on Binder, and "
                    ".ci/run here")
    tmp = tmp_path_factory.mktemp("binder")
    python, env = _venv(tmp / "venv")
    # Exactly the file Binder reads, run from the repository's root as repo2docker does.
    # --retries 0: this machine cannot reach PyTorch's index; pip then takes torch from PyPI's
    # mirror here, the same +cpu build.
    _run([python, "-m", "pip", "install", "-q", "--retries", "0", "-r",
          "binder/requirements.txt"], env=env)
    return python, env, _installed(python, env), tmp


def test_binder_has_cpu_torch_and_no_cuda_packages(binder):
    _, _, installed, _ = binder
    assert installed["torch"].endswith("+cpu"), installed["torch"]
    cuda = sorted(name for name in installed if "nvidia" in name or "cuda" in name)
    assert cuda == []
    for name in ("jupyterlab", "ipywidgets", "matplotlib", "graphviz", "minitorch-course"):
        assert name in installed, name


@pytest.fixture(scope="module")
def binder_run(binder):
    python, env, _, tmp = binder
    return _run_notebooks(python, env, SOLUTIONS, tmp / "report.json")


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.name)
def test_solution_notebook_runs_through_on_binder(binder_run, path):
    result = binder_run[path.name]
    assert result["error"] is None, f"Run all stopped: {result['error']}"
    for text in result["outputs"]:
        assert "Traceback (most recent call last)" not in text, text[:2000]
    assert not any("PyTorch is not installed" in text for text in result["outputs"])

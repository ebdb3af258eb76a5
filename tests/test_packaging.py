"""Binder and Colab readiness, checked offline: environment.yml, binder/, pyproject.toml, badges,
the Colab setup cell, and the one home of the repository's address (``minitorch/_about.py``).

``tests/test_launch_paths.py`` goes further and builds the Colab and Binder environments."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
import tomllib

yaml = pytest.importorskip("yaml", reason="PyYAML is needed to parse environment.yml")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + sorted(
    (ROOT / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb"))

from minitorch import _about  # noqa: E402

REPO = _about.REPOSITORY

# import name -> (conda-forge package, PyPI package)
PACKAGES = {
    "numpy": ("numpy", "numpy"),
    "matplotlib": ("matplotlib", "matplotlib"),
    "ipywidgets": ("ipywidgets", "ipywidgets"),
    "graphviz": ("python-graphviz", "graphviz"),
    "sklearn": ("scikit-learn", "scikit-learn"),
    "tqdm": ("tqdm", "tqdm"),
    "IPython": ("jupyterlab", "jupyterlab"),  # IPython comes with JupyterLab's kernel
}
OPTIONAL = {"torch", "cupy", "cupyx", "google"}  # guarded: compare cells, GPU, Colab


def _env() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _names(specs) -> set[str]:
    return {re.split(r"[<>=!\s\[]", s, maxsplit=1)[0].lower() for s in specs if isinstance(s, str)}


def _notebook_imports(path: Path) -> set[str]:
    nb = json.loads(path.read_text())
    found = set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        src = "\n".join(line for line in src.splitlines()
                        if not line.lstrip().startswith(("!", "%")))
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_environment_yml_is_a_conda_environment():
    env = _env()
    assert "conda-forge" in env["channels"]
    deps = env["dependencies"]
    names = _names(deps)
    for needed in ("python", "numpy", "jupyterlab", "ipywidgets", "matplotlib", "graphviz",
                   "python-graphviz", "nbval", "pytest", "pip"):
        assert needed in names, needed
    pip = next(d["pip"] for d in deps if isinstance(d, dict) and "pip" in d)
    assert "-e ." in pip  # the package itself, from this repository


def test_environment_and_pyproject_agree():
    env_names = _names(_env()["dependencies"])
    project = _pyproject()["project"]
    assert _names(project["dependencies"]) == {"numpy"}  # the core needs NumPy alone
    course = _names(project["optional-dependencies"]["course"]) | {"numpy"}  # core dep
    for conda_name, pypi_name in PACKAGES.values():
        assert conda_name in env_names, f"{conda_name} missing from environment.yml"
        assert pypi_name in course, f"{pypi_name} missing from the 'course' extra"
    test_extra = _names(project["optional-dependencies"]["test"])
    assert {"pytest", "nbval", "hypothesis"} <= test_extra
    assert "nbval" in env_names and "pytest" in env_names


@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")
def test_everything_the_notebooks_import_is_installed_by_both():
    env_names = _names(_env()["dependencies"])
    course = _names(_pyproject()["project"]["optional-dependencies"]["course"]) | {"numpy"}
    stdlib = set(sys.stdlib_module_names)
    for path in NOTEBOOKS:
        for module in _notebook_imports(path) - stdlib - OPTIONAL - {"minitorch"}:
            assert module in PACKAGES, f"{path.name} imports {module}: add it to PACKAGES, " \
                "environment.yml and the course extra"
            conda_name, pypi_name = PACKAGES[module]
            assert conda_name in env_names and pypi_name in course


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_badges_point_at_the_notebooks_own_path(path):
    rel = path.relative_to(ROOT).as_posix()
    nb = json.loads(path.read_text())
    md = "".join("".join(c["source"]) for c in nb["cells"][:3] if c["cell_type"] == "markdown")
    colab = re.findall(r"https://colab\.research\.google\.com/github/([^)\s\"']+)", md)
    binder = re.findall(r"https://mybinder\.org/v2/gh/([^)\s\"']+)", md)
    assert colab, "no Colab badge"
    assert binder, "no Binder badge"
    assert all(link == f"{REPO}/blob/main/{rel}" for link in colab), colab
    assert all(link.endswith(f"urlpath=lab/tree/{rel}") for link in binder), binder


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_colab_setup_cell_installs_from_the_repository_only_on_colab(path):
    nb = json.loads(path.read_text())
    setup = [c for c in nb["cells"][:6] if c["cell_type"] == "code"
             and "google.colab" in "".join(c["source"])]
    assert setup, "no Colab setup cell near the top"
    src = "".join(setup[0]["source"])
    assert f"git+https://github.com/{REPO}" in src
    tree = ast.parse(src)
    guard = [n for n in ast.walk(tree) if isinstance(n, ast.If)
             and "google.colab" in ast.unparse(n.test)]
    assert guard, "the install must sit under `if 'google.colab' in sys.modules:`"
    # Elsewhere it does nothing: running it here (no google.colab) must not call pip.
    calls = []
    fake_subprocess = type(sys)("subprocess")
    fake_subprocess.run = lambda *a, **k: calls.append(a)
    saved = sys.modules.get("subprocess")
    sys.modules["subprocess"] = fake_subprocess
    try:
        exec(compile(tree, path.name, "exec"), {})
    finally:
        sys.modules["subprocess"] = saved
    assert calls == []


def test_binder_opens_jupyterlab_at_chapter_00():
    readme = (ROOT / "README.md").read_text()
    link = re.search(r"https://mybinder\.org/v2/gh/[^)\s]+", readme).group(0)
    assert link.startswith(f"https://mybinder.org/v2/gh/{REPO}/main?")
    assert link.endswith("urlpath=lab/tree/notebooks/00_start_here.ipynb")


def _binder_names() -> set[str]:
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return _names(line for line in lines if line and not line.startswith(("#", "-")))


def test_environment_course_extra_and_binder_name_the_same_packages():
    """conda users (environment.yml), pip users (the course extra) and Binder get one course."""
    env_names = _names(_env()["dependencies"])
    course = _names(_pyproject()["project"]["optional-dependencies"]["course"]) | {"numpy"}
    requirements = (ROOT / "binder" / "requirements.txt").read_text()
    assert "-e .[course]" in requirements.splitlines(), "Binder installs the course extra"
    assert _binder_names() == {"torch"}, "Binder adds PyTorch's CPU build and nothing else"
    conda_for = {pypi: conda for conda, pypi in PACKAGES.values()}
    conda_for["numpy"] = "numpy"
    for pypi_name in course:
        assert conda_for.get(pypi_name, pypi_name) in env_names, \
            f"{pypi_name} is in the course extra but not in environment.yml"
    assert "pytorch-cpu" in env_names, "environment.yml: PyTorch without CUDA, as on Binder"
    assert "graphviz" in env_names  # the dot binary; Binder's is binder/apt.txt
    assert "graphviz" in (ROOT / "binder" / "apt.txt").read_text().split()


def _notebooks_tool():
    spec = importlib.util.spec_from_file_location("notebooks_tool",
                                                  ROOT / "scripts" / "notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_copy_of_the_repository_address_comes_from_its_one_home():
    tool = _notebooks_tool()
    assert tool.unsynced() == [], "run: python scripts/notebooks.py sync"
    assert _pyproject()["project"]["urls"]["Homepage"] == _about.GITHUB_URL
    from minitorch.viz._dot import BINDER_URL, INSTALL_HINT

    assert BINDER_URL == _about.BINDER_URL and BINDER_URL in INSTALL_HINT
    readme = (ROOT / "README.md").read_text()
    assert _about.binder_link("notebooks/00_start_here.ipynb") in readme
    others = {m for m in re.findall(r"github\.com/([\w.-]+/[\w.-]+)", readme)
              if not m.startswith("pytorch/")}
    assert others <= {REPO}, others


def test_learner_copies_are_up_to_date():
    tool = _notebooks_tool()
    for path in tool.solution_paths():
        learner = tool.LEARNER / path.name
        assert learner.read_text() == tool.dumps(tool.learner_copy(json.loads(path.read_text()))), \
            f"{learner.name} is stale: run python scripts/notebooks.py learner"


def test_ruff_runs_in_the_test_command_and_flags_unused_noqa():
    """CI runs ``scripts/test.sh``: ruff must be in it, and RUF100 (a ``noqa`` comment that
    silences nothing) in ruff's configuration, so that such comments do not come back."""
    script = (ROOT / "scripts" / "test.sh").read_text()
    assert re.search(r"^python -m ruff check minitorch tests bench scripts$", script, re.M)
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]
    assert "RUF100" in lint["select"] + lint.get("extend-select", [])

"""Where the course lives: the one home of the repository's address.

Everything else that names the repository is generated from these lines by
``python scripts/notebooks.py sync``: the notebooks' Binder and Colab badges and Colab setup
cells, the README's Binder link, ``pyproject.toml``'s homepage and ``binder/``; the viz hint
imports them. ``tests/test_packaging.py`` checks that they all agree.
"""

REPOSITORY = "minitorch-course/minitorch"  # owner/name on GitHub
BRANCH = "main"

GITHUB_URL = f"https://github.com/{REPOSITORY}"
BINDER_URL = f"https://mybinder.org/v2/gh/{REPOSITORY}/{BRANCH}"
COLAB_URL = f"https://colab.research.google.com/github/{REPOSITORY}/blob/{BRANCH}"
# What the Colab setup cell installs: the package alone, since Colab already has NumPy,
# ipywidgets 7, matplotlib, Graphviz and PyTorch (no JupyterLab, no ipywidgets 8).
PIP_SPEC = f"minitorch-course @ git+{GITHUB_URL}"


def binder_link(path: str) -> str:
    """The Binder address that opens ``path`` (relative to the repository) in JupyterLab."""
    return f"{BINDER_URL}?urlpath=lab/tree/{path}"


def colab_link(path: str) -> str:
    """The Colab address that opens the notebook at ``path`` (relative to the repository)."""
    return f"{COLAB_URL}/{path}"

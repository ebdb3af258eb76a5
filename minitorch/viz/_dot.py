"""A tiny, deterministic DOT writer and the call to Graphviz's ``dot`` program.

The pictures are written as DOT text by hand (a few lines, no dependency) so that the same
graph always gives the same bytes. ``graphviz.Digraph`` (the Python package) wraps that text
when a learner wants ``.render()``; ``dot`` itself turns it into SVG or PNG.
"""

from __future__ import annotations

import shutil
import subprocess

from minitorch._about import BINDER_URL

__all__ = ["HTML", "quote", "attrs", "dot_available", "run_dot", "visible", "INSTALL_HINT",
           "BINDER_URL", "failure_text"]

INSTALL_HINT = (
    "Graphviz's `dot` program was not found, so here is the graph as text. To see it drawn, "
    "install Graphviz (apt-get install graphviz | brew install graphviz | conda install -c "
    f"conda-forge graphviz python-graphviz) and restart the kernel, or run the course on Binder: "
    f"{BINDER_URL}"
)


class HTML(str):
    """A Graphviz HTML-like label: written between ``<`` and ``>``, not quoted."""


def visible(text: str) -> str:
    """``text`` with control characters written out (``\\n``, ``\\x07``), so a name holding
    them cannot break the DOT text or the picture.

    Example:
        >>> visible("a\\tb\\x00")
        'a\\\\tb\\\\x00'
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def escape(text: str) -> str:
    """Escape text for use inside an HTML-like label (control characters written out)."""
    return (visible(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def quote(value) -> str:
    """A DOT attribute value: HTML labels as ``<...>``, everything else double-quoted."""
    if isinstance(value, HTML):
        return f"<{value}>"
    lines = str(value).split("\n")  # a newline stays a DOT line break; other controls are shown
    text = "\\n".join(visible(line).replace("\\", "\\\\").replace('"', '\\"')
                        for line in lines)
    return f'"{text}"'


def attrs(values: dict) -> str:
    """``[key=value key=value]`` in the order given (so the output is deterministic)."""
    parts = [f"{k}={quote(v)}" for k, v in values.items() if v is not None]
    return f" [{' '.join(parts)}]" if parts else ""


def dot_available() -> bool:
    """Whether Graphviz's ``dot`` program is on the PATH (checked each time: cheap)."""
    return shutil.which("dot") is not None


def failure_text(error: Exception | None) -> str:
    """The line shown above the text tree when no picture could be drawn: the install hint
    when ``dot`` is missing, else what ``dot`` itself said."""
    if error is None or not dot_available():
        return INSTALL_HINT
    return (f"Graphviz's `dot` could not draw this graph, so here it is as text. "
            f"{str(error).strip()}")


def run_dot(source: str, fmt: str = "svg") -> bytes:
    """Lay out ``source`` with ``dot`` and return the picture (``svg``, ``png``, ...)."""
    exe = shutil.which("dot")
    if exe is None:
        raise RuntimeError(INSTALL_HINT)
    proc = subprocess.run([exe, f"-T{fmt}"], input=source.encode("utf-8"),
                          capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"dot failed: {proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout

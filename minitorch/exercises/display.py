"""Two ways the notebooks show things without another library's rendering.

- :func:`show_source` prints the source of minitorch's own functions and classes as plain text
  (no syntax-highlighting HTML whose bytes change with each Pygments release).
- :class:`expected_error` runs code that is *meant* to fail and shows the error it raised, in a
  calm labelled box, instead of letting it escape. A notebook that uses it runs top to bottom
  everywhere: JupyterLab, Colab (whose "Run all" ignores cell tags), VS Code, nbclient.

Example:
    >>> with expected_error(ZeroDivisionError):
    ...     1 / 0
    Expected error: ZeroDivisionError: division by zero
"""

from __future__ import annotations

import ast
import html
import inspect
import textwrap
import traceback
from pathlib import Path
from typing import Any

from ._common import in_ipython

__all__ = ["expected_error", "show_source"]

def _where(obj: Any) -> str:
    """Where ``obj`` is defined, as a path inside the package (``minitorch/autograd/engine.py``).

    A decorated function is looked up through its ``__wrapped__`` chain, as
    :func:`inspect.getsource` does: ``SGD.step`` (wrapped by ``@no_grad()``) is in
    ``minitorch/optim/sgd.py``, not in the decorator's ``grad_mode.py``.
    """
    try:
        path = Path(inspect.getsourcefile(inspect.unwrap(obj)) or "").resolve()
    except TypeError:
        return ""
    parts = path.parts
    if "minitorch" in parts:  # from the package folder on, wherever it is installed
        return "/".join(parts[len(parts) - 1 - parts[::-1].index("minitorch"):])
    return path.name


def lines_of_code(source: str) -> int:
    r"""How many lines of ``source`` are code: not blank, not a comment, not a docstring.

    Example:
        >>> lines_of_code("def f(x):\n    '''Twice x.'''\n    # the easy way\n\n    return 2 * x")
        2
    """
    source = textwrap.dedent(source)
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            docstrings.update(range(first.lineno, first.end_lineno + 1))
    return sum(1 for number, line in enumerate(source.splitlines(), start=1)
               if line.strip() and not line.strip().startswith("#") and number not in docstrings)


def show_source(*objects: Any) -> None:
    """Print the source code of each object, under a comment that names its file and says how
    many lines of code it has (blank lines, comments and docstrings not counted).

    Example:
        >>> from minitorch.autograd.grad_mode import is_grad_enabled
        >>> show_source(is_grad_enabled)  # doctest: +ELLIPSIS
        # minitorch/autograd/grad_mode.py: is_grad_enabled, ... lines of code
        def is_grad_enabled() -> bool:
        ...
    """
    listings = []
    for obj in objects:
        where = _where(obj)
        source = inspect.getsource(obj).rstrip()
        count = lines_of_code(source)
        name = getattr(obj, "__qualname__", getattr(obj, "__name__", ""))
        header = f"# {where}: {name}, {count} line{'s' * (count != 1)} of code"
        listings.append(f"{header}\n{source}")
    print("\n\n\n".join(listings))


_BOX = ('<div style="border-left: 4px solid {color}; background: {background}; '
        'padding: 6px 10px; margin: 4px 0">'
        '<div style="color: {color}; font-weight: bold; margin-bottom: 2px">{label}</div>'
        '<pre style="white-space: pre-wrap; margin: 0; background: transparent">{text}</pre>'
        '</div>')


def _show_box(label: str, text: str, color: str, background: str) -> None:
    if not in_ipython():
        print(f"{label}: {text}")
        return
    from IPython.display import display

    box = _BOX.format(color=color, background=background, label=html.escape(label),
                      text=html.escape(text))
    display({"text/plain": f"{label}: {text}", "text/html": box}, raw=True)


class expected_error:  # noqa: N801  (used like a function: ``with expected_error(...)``)
    """Run a block that should raise; show its error as Python prints it, and carry on.

    Args:
        *types: the exception classes the block is expected to raise (any ``Exception`` if
            none are given).

    After the block, ``.error`` holds the exception (or ``None``). A block that raises nothing,
    or raises another class than expected, is shown too, with a different label: the notebook
    still goes on, so "Run All" always completes. ``KeyboardInterrupt`` and ``SystemExit`` are
    never swallowed.

    Example:
        >>> with expected_error(KeyError) as caught:
        ...     {}["w"]
        Expected error: KeyError: 'w'
        >>> type(caught.error).__name__
        'KeyError'
    """

    def __init__(self, *types: type[BaseException]) -> None:
        self.types = types or (Exception,)
        self.error: BaseException | None = None

    def __enter__(self) -> expected_error:
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is None:
            names = " or ".join(t.__name__ for t in self.types)
            _show_box("No error", f"the code ran without raising {names}", "#8d6e00", "#fffbea")
            return False
        if not issubclass(exc_type, Exception):  # KeyboardInterrupt, SystemExit: let them go
            return False
        self.error = exc
        text = "".join(traceback.format_exception_only(exc_type, exc)).strip()
        if issubclass(exc_type, self.types):
            _show_box("Expected error", text, "#455a64", "#f3f6f8")
        else:
            _show_box("Unexpected error", text, "#c62828", "#fdf0f0")
        return True

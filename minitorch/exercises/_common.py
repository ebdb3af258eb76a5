"""Small helpers shared by the exercise widgets: value conversion, formatting and display.

Nothing here imports matplotlib or ipywidgets, so the checks work in a plain Python shell.
"""

from __future__ import annotations

import html
import io
import re
import reprlib
from typing import Any

import numpy as np

from minitorch.viz._widgets import display_widget, widget_bundle

__all__ = [
    "DisplaysWidget", "display_widget", "fig_to_png", "format_value", "in_ipython", "in_notebook",
    "inline_markup", "plain", "safe_repr", "safe_str", "show", "to_float", "to_numpy",
    "type_name", "widget_bundle",
]


def to_numpy(value: Any) -> np.ndarray | None:
    """Return ``value`` as a numeric NumPy array, or ``None`` if it is not numeric.

    Tensors (minitorch or PyTorch) are detached and converted with ``.numpy()``; numbers,
    booleans, nested lists and arrays go through ``np.asarray``. Strings, ``None``, dicts,
    ragged lists and objects that raise when they are read are not numeric.

    Example:
        >>> to_numpy([1, 2]).tolist()
        [1, 2]
        >>> to_numpy("hello") is None
        True
    """
    if value is None or isinstance(value, (str, bytes, dict)):
        return None
    try:
        numpy_method = getattr(value, "numpy", None)
    except Exception:
        return None
    if callable(numpy_method):  # a tensor
        try:
            if hasattr(value, "detach"):
                value = value.detach()
            if hasattr(value, "cpu"):
                value = value.cpu()
            value = value.numpy()
        except Exception:
            pass
    try:
        array = np.asarray(value)
    except Exception:
        return None
    if array.dtype.kind not in "biufc":
        return None
    return array


def to_float(value: Any) -> float:
    """Turn a number, a one-element array or a one-element tensor into a Python ``float``.

    Example:
        >>> to_float(np.array([0.5]))
        0.5
    """
    try:
        return float(value)
    except TypeError:
        if hasattr(value, "item"):
            return float(value.item())
        raise


class _ShortRepr(reprlib.Repr):
    """``reprlib`` that keeps a dict's own key order (a learner's dict reads as printed)."""

    def repr_dict(self, x: dict, level: int) -> str:
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        items = []
        for i, (key, value) in enumerate(x.items()):
            if i >= self.maxdict:
                items.append("...")
                break
            items.append(f"{self.repr1(key, level - 1)}: {self.repr1(value, level - 1)}")
        return "{" + ", ".join(items) + "}"


_SHORT = _ShortRepr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 6, 40, 40, 40
_SHORT.maxset, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 40, 200, 400, 60


def safe_repr(value: Any) -> str:
    """``repr(value)``, or a description of the value when its ``__repr__`` raises.

    Nested lists are shortened (``[[[...]]]``) instead of raising ``RecursionError``.

    Example:
        >>> class Broken:
        ...     def __repr__(self):
        ...         raise ValueError("no")
        >>> safe_repr(Broken())
        '<a Broken object (its __repr__ raised ValueError)>'
    """
    try:
        if isinstance(value, (list, tuple, dict, set, frozenset)):
            return _SHORT.repr(value)
        return repr(value)
    except Exception as error:
        return f"<a {type_name(value)} object (its __repr__ raised {type_name(error)})>"


def safe_str(value: Any) -> str:
    """``str(value)``, or a description when its ``__str__`` raises (e.g. an exception's).

    Example:
        >>> class Odd(Exception):
        ...     def __str__(self):
        ...         raise RuntimeError
        >>> safe_str(Odd())
        '<its message could not be shown: __str__ raised RuntimeError>'
    """
    try:
        text = str(value)
        if not isinstance(text, str):
            raise TypeError("__str__ returned a non-string")
        return text
    except Exception as error:
        return f"<its message could not be shown: __str__ raised {type_name(error)}>"


def type_name(value: Any) -> str:
    """The name of ``value``'s class, even for objects that lie about their class.

    Example:
        >>> type_name(1.5)
        'float'
    """
    try:
        name = type(value).__name__
        return name if isinstance(name, str) else "object"
    except Exception:
        return "object"


def format_value(value: Any, limit: int = 400) -> str:
    """``repr`` of a value, shortened to about ``limit`` characters for display.

    It never raises: a value whose ``__repr__`` raises is described instead.

    Example:
        >>> format_value([1.0, 2.0])
        '[1.0, 2.0]'
        >>> len(format_value(list(range(1000)), limit=50)) < 80
        True
    """
    with np.printoptions(precision=4, threshold=50, edgeitems=3):
        text = safe_repr(value)
    if len(text) > limit:
        text = text[:limit] + f" ... ({len(text) - limit} more characters)"
    return text


_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*([^*\s][^*]*?)\*(?![*\w])")


def inline_markup(text: str) -> str:
    """Escape ``text`` for HTML and turn ```code```, ``**bold**`` and ``*italic*`` into tags.

    Example:
        >>> inline_markup("call `x.backward()` **once**")
        'call <code>x.backward()</code> <b>once</b>'
    """
    escaped = html.escape(text, quote=False)
    escaped = _CODE.sub(r"<code>\1</code>", escaped)
    escaped = _BOLD.sub(r"<b>\1</b>", escaped)
    return _ITALIC.sub(r"<i>\1</i>", escaped)


def plain(text: str) -> str:
    """Drop the backticks and ``**`` of :func:`inline_markup`, for plain-text labels.

    Example:
        >>> plain("`x.detach()` is **new**")
        'x.detach() is new'
    """
    return _ITALIC.sub(r"\1", _BOLD.sub(r"\1", _CODE.sub(r"\1", text)))


def in_ipython() -> bool:
    """``True`` when running inside IPython or Jupyter, ``False`` in a plain Python process.

    Example:
        >>> isinstance(in_ipython(), bool)
        True
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    return get_ipython() is not None


def in_notebook() -> bool:
    """``True`` inside a Jupyter kernel (JupyterLab, Notebook, Colab, VS Code), where images
    and HTML can be shown; ``False`` in plain Python and in terminal IPython.

    Example:
        >>> in_notebook()
        False
    """
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(text: str, html_text: str) -> None:
    """Show a result: rich HTML in Jupyter, the plain ``text`` elsewhere.

    Inside IPython both versions are sent, and the front end picks the richest it can show
    (JupyterLab and Colab show HTML, a terminal IPython shows the text).

    Example:
        >>> show("✓ done", "<b>✓ done</b>")
        ✓ done
    """
    if not in_ipython():
        print(text)
        return
    from IPython.display import display

    display({"text/plain": text, "text/html": html_text}, raw=True)


def fig_to_png(fig: Any, dpi: int = 80) -> bytes:
    """Render a matplotlib ``Figure`` to PNG bytes (for an ``ipywidgets.Image``).

    Example:
        >>> from matplotlib.figure import Figure
        >>> fig_to_png(Figure(figsize=(1, 1)))[:4]
        b'\\x89PNG'
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    return buffer.getvalue()


class DisplaysWidget:
    """Mixin: an object with a ``.widget`` attribute displays as that widget in Jupyter.

    So a bare ``Quiz(...)`` as the last line of a cell shows the quiz, on ipywidgets 7 and 8.
    """

    widget: Any

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = widget_bundle(self.widget)
        bundle["text/plain"] = repr(self)  # where widgets cannot render, show our own repr
        return bundle

    def _ipython_display_(self) -> None:
        display_widget(self.widget, repr(self))

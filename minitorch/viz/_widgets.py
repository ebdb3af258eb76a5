"""Showing an ``ipywidgets`` widget the same way on ipywidgets 7 (Colab) and 8 (JupyterLab 4).

Nothing here imports ipywidgets: these functions take a widget that the caller already made.
"""

from __future__ import annotations

from typing import Any

__all__ = ["display_widget", "widget_bundle"]


def widget_bundle(widget: Any) -> dict:
    """The display bundle of an ``ipywidgets`` widget, on ipywidgets 7 (Colab) and 8.

    ipywidgets 8 widgets have ``_repr_mimebundle_``; ipywidgets 7 widgets only have
    ``_ipython_display_``, which sends this same bundle itself. Building it here lets our own
    objects show as their widget on both.
    """
    method = getattr(widget, "_repr_mimebundle_", None)
    if callable(method):  # ipywidgets 8
        bundle = method()
        if isinstance(bundle, tuple):  # (data, metadata)
            bundle = bundle[0]
        return dict(bundle or {})
    bundle = {"text/plain": repr(widget)[:110]}  # ipywidgets 7: what _ipython_display_ sends
    if getattr(widget, "_view_name", None) is not None:
        bundle["application/vnd.jupyter.widget-view+json"] = {
            "version_major": 2, "version_minor": 0, "model_id": widget._model_id}
    return bundle


def display_widget(widget: Any, text: str | None = None) -> None:
    """Display ``widget`` (ipywidgets 7 or 8), with ``text`` as its plain-text form."""
    from IPython.display import display  # only inside IPython

    bundle = widget_bundle(widget)
    if text is not None:
        bundle["text/plain"] = text
    display(bundle, raw=True)
    handle_displayed = getattr(widget, "_handle_displayed", None)  # ipywidgets 7 only
    if callable(handle_displayed):
        handle_displayed()

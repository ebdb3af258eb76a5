"""A picture that changes frame by frame: a slider, Prev/Next buttons and the picture.

Shared by the backward stepper and the forward recorder. Everything but ``.widget`` works
without ipywidgets (``frame_source(k)``, ``frame_text(k)``, ``show(k)``), so tests can drive
the frames headless; ``ipywidgets`` is imported when the widget is first made.
"""

from __future__ import annotations

import html

from minitorch.viz._dot import dot_available, failure_text, run_dot
from minitorch.viz._scene import Scene, dot_source, to_text
from minitorch.viz._widgets import display_widget, widget_bundle

__all__ = ["FramePlayer"]


class FramePlayer:
    """Frames ``first .. last``; subclasses define :meth:`frame_scene` and :meth:`describe`."""

    first = 0
    slider_label = "frame"

    @property
    def last(self) -> int:
        raise NotImplementedError

    def frame_scene(self, k: int) -> Scene:
        raise NotImplementedError

    def describe(self) -> str:
        """A stable one-line summary (the text/plain of the widget)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ frames as data
    def _check(self, k: int) -> int:
        if not self.first <= k <= self.last:
            raise IndexError(f"frame {k} is out of range [{self.first}, {self.last}]")
        return k

    def frame_source(self, k: int) -> str:
        """The DOT text of frame ``k``."""
        return dot_source(self.frame_scene(self._check(k)))

    def frame_text(self, k: int) -> str:
        """Frame ``k`` as an indented tree (what shows without Graphviz)."""
        return to_text(self.frame_scene(self._check(k)))

    def frame_svg(self, k: int) -> str:
        """Frame ``k`` as SVG (drawn by ``dot`` once, then kept)."""
        cache = self.__dict__.setdefault("_svg_cache", {})
        if k not in cache:
            svg = run_dot(self.frame_source(k), "svg").decode("utf-8")
            svg = svg[svg.find("<svg"):]
            # Shrink to the notebook's width instead of being cut off on the right.
            cache[k] = svg.replace("<svg", '<svg style="max-width: 100%; height: auto"', 1)
        return cache[k]

    def frame_html(self, k: int) -> str:
        """What the widget shows for frame ``k``: SVG, or a hint and the text tree."""
        error = None
        if dot_available():
            try:
                return self.frame_svg(k)
            except RuntimeError as e:  # dot is there but failed: show what it said
                error = e
        text = failure_text(error) + "\n" + self.frame_text(k)
        return f"<pre>{html.escape(text)}</pre>"

    # ------------------------------------------------------------------ the widget
    @property
    def current(self) -> int:
        """The frame on show."""
        return self.__dict__.get("_current", self.first)

    def show(self, k: int) -> None:
        """Go to frame ``k`` (the slider follows)."""
        self._current = self._check(int(k))
        w = self.__dict__.get("_widgets")
        if w is not None:
            if w["slider"].value != k:
                w["slider"].value = k  # calls back into show()
                return
            w["view"].value = self.frame_html(k)
            w["prev"].disabled = k <= self.first
            w["next"].disabled = k >= self.last

    def next(self) -> None:
        self.show(min(self.current + 1, self.last))

    def prev(self) -> None:
        self.show(max(self.current - 1, self.first))

    def _build(self) -> dict:
        import ipywidgets as widgets  # only when the widget is shown

        slider = widgets.IntSlider(value=self.current, min=self.first, max=self.last,
                                   description=self.slider_label, continuous_update=True,
                                   layout=widgets.Layout(width="420px"))
        prev = widgets.Button(description="◀ Prev", layout=widgets.Layout(width="90px"),
                              tooltip="previous frame")
        nxt = widgets.Button(description="Next ▶", layout=widgets.Layout(width="90px"),
                             tooltip="next frame")
        view = widgets.HTML(value="")
        box = widgets.VBox([widgets.HBox([prev, slider, nxt]), view])
        self._widgets = {"slider": slider, "prev": prev, "next": nxt, "view": view, "box": box}
        slider.observe(lambda change: self.show(change["new"]), names="value")
        prev.on_click(lambda _: self.prev())
        nxt.on_click(lambda _: self.next())
        self.show(self.current)
        return self._widgets

    @property
    def widget(self):
        """The ``ipywidgets.VBox``: [Prev, slider, Next] above the picture."""
        w = self.__dict__.get("_widgets") or self._build()
        return w["box"]

    @property
    def slider(self):
        return self.widget and self._widgets["slider"]

    @property
    def prev_button(self):
        return self.widget and self._widgets["prev"]

    @property
    def next_button(self):
        return self.widget and self._widgets["next"]

    @property
    def view(self):
        """The ``ipywidgets.HTML`` that holds the picture."""
        return self.widget and self._widgets["view"]

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        bundle = widget_bundle(self.widget)
        bundle["text/plain"] = self.describe()
        return bundle

    def _ipython_display_(self) -> None:
        display_widget(self.widget, self.describe())

    def __repr__(self) -> str:
        return self.describe()

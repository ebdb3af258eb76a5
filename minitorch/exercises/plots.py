"""Interactive plots for the notebooks: tangents, gradient descent, live loss curves.

The widgets draw with matplotlib into an ``ipywidgets.Image`` (a PNG), using a plain
``matplotlib.figure.Figure``: no pyplot, no ``%matplotlib`` magic, no extra extension, so they
work the same in JupyterLab, Binder and Colab, and can be driven from code in tests.
matplotlib is imported inside the functions that draw, so importing this module is cheap.

* :func:`tangent_explorer`: a loss curve ``L(w)`` and its tangent at ``w`` (sliders for
  ``w`` and ``b``), with the slope that autograd computes.
* :func:`descent_2d`: gradient descent on a 2-D loss surface, one step per click.
* :class:`LiveLossPlot`: a loss curve that redraws itself during a training loop.
* :func:`plot_decision_boundary`: the regions a 2-D classifier assigns to each class.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np

from ._common import DisplaysWidget, fig_to_png, in_notebook, to_float, to_numpy

__all__ = [
    "Descent2D", "LiveLossPlot", "TangentExplorer", "decision_grid", "descent_2d",
    "logistic_loss", "logistic_loss_grad", "plot_decision_boundary", "tangent_explorer",
]


# ---------------------------------------------------------------------------- example loss
def logistic_loss(w: float, b: float, x: float = 1.5, y: float = 1.0) -> float:
    """Binary cross-entropy of one sample under logistic regression.

    ``z = w * x + b``, ``p = sigmoid(z)``, ``L = -(y log p + (1 - y) log(1 - p))``, computed
    as ``log(1 + exp(z)) - y * z``, which is the same number without overflow.

    Example:
        >>> round(logistic_loss(0.0, 0.0), 4)   # p = 0.5, so L = log 2
        0.6931
    """
    z = w * x + b
    return float(np.logaddexp(0.0, z) - y * z)


def logistic_loss_grad(w: float, b: float, x: float = 1.5, y: float = 1.0) -> float:
    """``dL/dw`` of :func:`logistic_loss`: ``(sigmoid(w * x + b) - y) * x``.

    Example:
        >>> logistic_loss_grad(0.0, 0.0)   # (0.5 - 1) * 1.5
        -0.75
    """
    p = 1.0 / (1.0 + math.exp(-(w * x + b)))
    return (p - y) * x


def _takes_b(f: Callable[..., Any]) -> bool:
    """Whether ``f`` accepts a second positional argument (the bias ``b``)."""
    try:
        parameters = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):  # some built-ins have no signature
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in parameters if p.kind in kinds]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in parameters)


def _new_figure(width: float, height: float) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    return fig, fig.subplots()


# ---------------------------------------------------------------------------- tangent
class TangentExplorer(DisplaysWidget):
    """A loss curve ``L(w)`` and its tangent line at the current ``w``; see
    :func:`tangent_explorer`.

    Attributes:
        w_slider, b_slider: the sliders (``b_slider`` is ``None`` when ``f`` takes only ``w``).
        w, b: their current values.
        loss: ``L(w, b)`` at the current values.
        slope: ``dL/dw`` at the current values (from ``df``, or a finite difference).
        image: the ``ipywidgets.Image`` showing the plot; ``info``: the ``HTML`` line under it.
        fig, ax: the matplotlib figure and axes.
        widget: the ``VBox`` to display.
    """

    def __init__(
        self,
        f: Callable[..., Any],
        df: Callable[..., Any] | None = None,
        x_range: tuple[float, float] = (-3.0, 3.0),
        b_range: tuple[float, float] = (-3.0, 3.0),
        w: float | None = None,
        b: float = 0.0,
        n_points: int = 121,
    ) -> None:
        self.f, self.df = f, df
        self.x_range = (float(x_range[0]), float(x_range[1]))
        self.n_points = n_points
        self.uses_b = _takes_b(f)
        start = (self.x_range[0] + self.x_range[1]) / 2 if w is None else w
        step = (self.x_range[1] - self.x_range[0]) / 200
        self.w_slider = widgets.FloatSlider(value=start, min=self.x_range[0],
                                            max=self.x_range[1], step=step, description="w")
        self.b_slider: widgets.FloatSlider | None = None
        sliders: list[widgets.Widget] = [self.w_slider]
        if self.uses_b:
            self.b_slider = widgets.FloatSlider(value=b, min=b_range[0], max=b_range[1],
                                                step=(b_range[1] - b_range[0]) / 200,
                                                description="b")
            sliders.append(self.b_slider)
        self.image = widgets.Image(format="png")
        self.info = widgets.HTML()
        self.fig, self.ax = _new_figure(6, 3.5)
        for slider in sliders:
            slider.observe(lambda _change: self.redraw(), names="value")
        self.widget = widgets.VBox([widgets.HBox(sliders), self.image, self.info])
        self.widget.add_class("mt-tangent")  # a stable class for the browser tests
        self.redraw()

    @property
    def w(self) -> float:
        return float(self.w_slider.value)

    @property
    def b(self) -> float:
        return float(self.b_slider.value) if self.b_slider is not None else 0.0

    def loss_at(self, w: float) -> float:
        """``L(w)`` for the current ``b``.

        Example:
            >>> tangent_explorer(lambda w: w ** 2).loss_at(3.0)
            9.0
        """
        return to_float(self.f(w, self.b) if self.uses_b else self.f(w))

    def slope_at(self, w: float) -> float:
        """``dL/dw`` at ``w`` for the current ``b``: ``df`` if given, else a central difference.

        Example:
            >>> round(tangent_explorer(lambda w: w ** 2).slope_at(3.0), 6)
            6.0
        """
        if self.df is not None:
            return to_float(self.df(w, self.b) if self.uses_b else self.df(w))
        h = 1e-5
        return (self.loss_at(w + h) - self.loss_at(w - h)) / (2 * h)

    def redraw(self) -> None:
        """Recompute the loss, the slope and the picture (the sliders call this).

        Example:
            >>> explorer = tangent_explorer(lambda w: w ** 2)
            >>> explorer.redraw()
            >>> bytes(explorer.image.value[:4])
            b'\\x89PNG'
        """
        w = self.w
        self.loss, self.slope = self.loss_at(w), self.slope_at(w)
        grid = np.linspace(*self.x_range, self.n_points)
        curve = np.array([self.loss_at(value) for value in grid])
        tangent = self.loss + self.slope * (grid - w)

        ax = self.ax
        ax.clear()
        ax.plot(grid, curve, label="L(w)")
        ax.plot(grid, tangent, "--", label=f"tangent, slope {self.slope:.3f}")
        ax.plot([w], [self.loss], "o", color="black")
        low, high = float(np.nanmin(curve)), float(np.nanmax(curve))
        margin = 0.1 * (high - low) + 1e-3
        ax.set_ylim(low - margin, high + margin)  # keep the steep tangents from rescaling
        ax.set_xlabel("w")
        ax.set_ylabel("loss")
        ax.legend(loc="upper right")
        self.image.value = fig_to_png(self.fig)
        b_text = f", b = {self.b:.3f}" if self.uses_b else ""
        self.info.value = (f"w = {w:.3f}{b_text}: L = {self.loss:.4f}, "
                           f"<b>slope dL/dw = {self.slope:.4f}</b>")

    def __repr__(self) -> str:
        return f"TangentExplorer(w={self.w:.3f}, b={self.b:.3f}, slope={self.slope:.4f})"


def tangent_explorer(
    f: Callable[..., Any],
    df: Callable[..., Any] | None = None,
    x_range: tuple[float, float] = (-3.0, 3.0),
    **options: Any,
) -> TangentExplorer:
    """Sliders for ``w`` (and ``b``) that redraw a loss curve and its tangent at ``w``.

    The slope of the tangent is the derivative ``dL/dw``: exactly the number autograd puts
    in ``w.grad``. Pass a ``df`` computed with autograd to see that it touches the curve.

    Args:
        f: the loss, ``f(w, b)`` or ``f(w)``; it may return a float or a one-element tensor.
        df: ``dL/dw`` with the same arguments; if ``None``, a central finite difference.
        x_range: the range of ``w`` on the horizontal axis (and of its slider).
        **options: ``b_range``, ``w`` (start value), ``b`` (start value), ``n_points``.

    Returns:
        A :class:`TangentExplorer`; display it by making it the last line of a cell.

    Example:
        >>> explorer = tangent_explorer(logistic_loss, logistic_loss_grad)
        >>> explorer.w_slider.value = 1.0
        >>> round(explorer.slope, 4) == round(logistic_loss_grad(1.0, 0.0), 4)
        True
    """
    return TangentExplorer(f, df, x_range, **options)


# ---------------------------------------------------------------------------- descent
class Descent2D(DisplaysWidget):
    """Gradient descent on a 2-D loss surface, one step per click; see :func:`descent_2d`.

    Attributes:
        next_button, prev_button, reset_button: the buttons.
        lr_slider: the learning rate (a log-scale slider); changing it replays the same
            number of steps with the new rate.
        step: how many steps the shown point is from the start.
        path: the points from the start to the current one (a list of arrays).
        current: the current point; ``loss``: the loss there.
        message: a warning such as "diverged" (``""`` when all is well).
        image, info, fig, ax, widget: as in :class:`TangentExplorer`.
    """

    def __init__(
        self,
        loss_fn: Callable[[np.ndarray], Any],
        grad_fn: Callable[[np.ndarray], Any] | None = None,
        start: Sequence[float] = (2.0, 2.0),
        lr: float = 0.1,
        bounds: tuple[tuple[float, float], tuple[float, float]] | None = None,
        lr_range: tuple[float, float] = (1e-3, 1.0),
        resolution: int = 60,
    ) -> None:
        self.loss_fn, self.grad_fn = loss_fn, grad_fn
        self.start = np.asarray(start, dtype=float)
        if self.start.shape != (2,):
            raise ValueError(f"start must be a point (x, y), got shape {self.start.shape}")
        if bounds is None:
            radius = 1.5 * max(1.0, float(np.abs(self.start).max()))
            bounds = ((-radius, radius), (-radius, radius))
        self.bounds = bounds
        self._points = [self.start.copy()]
        self.step = 0
        self.message = ""

        low, high = min(lr_range[0], lr), max(lr_range[1], lr)
        self.lr_slider = widgets.FloatLogSlider(value=lr, base=10, min=math.log10(low),
                                                max=math.log10(high), step=0.05,
                                                description="lr", readout_format=".3g")
        self.lr_slider.observe(self._on_lr, names="value")
        self.next_button = widgets.Button(description="Next", icon="step-forward")
        self.prev_button = widgets.Button(description="Prev", icon="step-backward")
        self.reset_button = widgets.Button(description="Reset", icon="undo")
        self.next_button.on_click(lambda _button: self.advance(1))
        self.prev_button.on_click(lambda _button: self.back())
        self.reset_button.on_click(lambda _button: self.reset())
        self.image = widgets.Image(format="png")
        self.info = widgets.HTML()
        self.fig, self.ax = _new_figure(5, 4.2)
        self._surface = self._evaluate_surface(resolution)
        self.widget = widgets.VBox([
            widgets.HBox([self.prev_button, self.next_button, self.reset_button]),
            self.lr_slider, self.image, self.info,
        ])
        self.widget.add_class("mt-descent")  # a stable class for the browser tests
        self.redraw()

    # ---- the numbers
    @property
    def lr(self) -> float:
        return float(self.lr_slider.value)

    @property
    def path(self) -> list[np.ndarray]:
        return [point.copy() for point in self._points[: self.step + 1]]

    @property
    def current(self) -> np.ndarray:
        return self._points[self.step].copy()

    @property
    def loss(self) -> float:
        return self._loss_at(self.current)

    def _loss_at(self, point: np.ndarray) -> float:
        """The loss at ``point``; ``inf`` where it overflows (a diverging descent)."""
        try:
            with np.errstate(all="ignore"):
                return to_float(self.loss_fn(point.copy()))
        except OverflowError:
            return math.inf

    def gradient(self, point: np.ndarray) -> np.ndarray:
        """The gradient at ``point``: ``grad_fn`` if given, else central differences.

        Example:
            >>> demo = descent_2d(lambda w: w[0] ** 2 + w[1] ** 2)
            >>> demo.gradient(np.array([1.0, -2.0])).round(6).tolist()
            [2.0, -4.0]
        """
        try:
            with np.errstate(all="ignore"):
                if self.grad_fn is not None:
                    grad = to_numpy(self.grad_fn(point.copy()))
                    return np.asarray(grad, dtype=float).reshape(2)
                h = 1e-5
                return np.array([
                    (self._loss_at(point + h * unit) - self._loss_at(point - h * unit)) / (2 * h)
                    for unit in np.eye(2)
                ])
        except OverflowError:
            return np.full(2, math.inf)

    def _evaluate_surface(self, resolution: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        (x_low, x_high), (y_low, y_high) = self.bounds
        xs, ys = np.meshgrid(np.linspace(x_low, x_high, resolution),
                             np.linspace(y_low, y_high, resolution))
        try:  # many losses, like p[0]**2 + 10 * p[1]**2, work on a whole grid at once
            zs = np.asarray(to_numpy(self.loss_fn(np.stack([xs, ys]))), dtype=float)
            if zs.shape != xs.shape:
                raise ValueError("not elementwise")
        except Exception:
            zs = np.array([[to_float(self.loss_fn(np.array([x, y]))) for x, y in zip(row_x, row_y)]
                           for row_x, row_y in zip(xs, ys)])
        return xs, ys, zs

    # ---- the buttons
    def advance(self, n: int = 1) -> None:
        """Take ``n`` steps forward (replaying steps already computed after a Prev).

        Example:
            >>> demo = descent_2d(lambda w: w[0] ** 2 + w[1] ** 2, start=(1.0, 1.0), lr=0.25)
            >>> demo.advance(2)
            >>> demo.step, demo.current.round(6).tolist()
            (2, [0.25, 0.25])
        """
        for _ in range(n):
            if self.step + 1 < len(self._points):
                self.step += 1
                continue
            point = self._points[-1]
            with np.errstate(all="ignore"):
                new = point - self.lr * self.gradient(point)
            if not np.all(np.isfinite(new)):
                self.message = "The step overflowed: gradient descent diverged. Lower lr."
                break
            self._points.append(new)
            self.step += 1
        self.redraw()

    def back(self) -> None:
        """Go back one step (the later steps are kept, and Next replays them).

        Example:
            >>> demo = descent_2d(lambda w: w[0] ** 2 + w[1] ** 2, start=(1.0, 1.0), lr=0.25)
            >>> demo.advance(2)
            >>> demo.back()
            >>> demo.step, len(demo.path)
            (1, 2)
        """
        self.step = max(0, self.step - 1)
        self.redraw()

    def reset(self) -> None:
        """Back to the start, forgetting the path.

        Example:
            >>> demo = descent_2d(lambda w: w[0] ** 2 + w[1] ** 2, start=(1.0, 1.0))
            >>> demo.advance(3)
            >>> demo.reset()
            >>> demo.step, demo.current.tolist()
            (0, [1.0, 1.0])
        """
        self._points, self.step, self.message = [self.start.copy()], 0, ""
        self.redraw()

    def _on_lr(self, _change: Any) -> None:
        steps = self.step
        self._points, self.step, self.message = [self.start.copy()], 0, ""
        self.advance(steps)  # the same number of steps, with the new learning rate

    # ---- the picture
    def redraw(self) -> None:
        """Draw the contour plot, the path so far and the current point (buttons call this).

        Example:
            >>> demo = descent_2d(lambda w: w[0] ** 2 + w[1] ** 2)
            >>> demo.redraw()
            >>> demo.info.value.startswith("step 0:")
            True
        """
        xs, ys, zs = self._surface
        ax = self.ax
        ax.clear()
        ax.contourf(xs, ys, zs, levels=30, cmap="viridis", alpha=0.8)
        ax.contour(xs, ys, zs, levels=15, colors="white", linewidths=0.5, alpha=0.6)
        path = np.array(self.path)
        ax.plot(path[:, 0], path[:, 1], "o-", color="orange", markersize=4)
        ax.plot(*path[-1], "o", color="red", markersize=8)
        ax.set_xlim(*self.bounds[0])
        ax.set_ylim(*self.bounds[1])
        ax.set_xlabel("w[0]")
        ax.set_ylabel("w[1]")
        self.image.value = fig_to_png(self.fig)
        x, y = self.current
        grad, loss = self.gradient(self.current), self.loss
        with np.errstate(all="ignore"):
            grad_norm = float(np.linalg.norm(grad))
        diverging = not math.isfinite(loss) or abs(loss) > 1e12
        if diverging and not self.message:
            self.message = "The loss is exploding: gradient descent diverged. Lower lr."
        warning = f' <span style="color: #c62828">{self.message}</span>' if self.message else ""
        self.info.value = (f"step {self.step}: w = ({x:.4g}, {y:.4g}), loss = {loss:.4g}, "
                           f"|gradient| = {grad_norm:.3g}, lr = {self.lr:.3g}"
                           f"{warning}")

    def __repr__(self) -> str:
        x, y = self.current
        return f"Descent2D(step={self.step}, w=({x:.4g}, {y:.4g}), lr={self.lr:.3g})"


def descent_2d(
    loss_fn: Callable[[np.ndarray], Any],
    grad_fn: Callable[[np.ndarray], Any] | None = None,
    start: Sequence[float] = (2.0, 2.0),
    lr: float = 0.1,
    **options: Any,
) -> Descent2D:
    """Gradient descent on a 2-D loss surface, stepped with Next / Prev / Reset.

    Each Next applies ``w = w - lr * grad_fn(w)`` and draws the path on a contour plot of
    the loss. Try a learning rate that is too large and watch the path zig-zag or diverge.

    Args:
        loss_fn: the loss at a point ``w``, an array of shape ``(2,)``.
        grad_fn: its gradient at ``w`` (shape ``(2,)``), e.g. computed with autograd; if
            ``None``, central finite differences.
        start: the starting point.
        lr: the starting learning rate.
        **options: ``bounds=((x_min, x_max), (y_min, y_max))``, ``lr_range``, ``resolution``.

    Returns:
        A :class:`Descent2D`; display it by making it the last line of a cell.

    Example:
        >>> bowl = lambda w: w[0] ** 2 + 10 * w[1] ** 2
        >>> grad = lambda w: np.array([2 * w[0], 20 * w[1]])
        >>> demo = descent_2d(bowl, grad, start=(2.0, 1.0), lr=0.05)
        >>> demo.next_button.click()
        >>> demo.current.tolist()       # (2 - 0.05 * 4, 1 - 0.05 * 20)
        [1.8, 0.0]
    """
    return Descent2D(loss_fn, grad_fn, start, lr, **options)


# ---------------------------------------------------------------------------- live loss
class LiveLossPlot:
    """A loss curve that updates in place during a training loop.

    In a notebook it redraws one image at most every ``min_interval`` seconds, and never
    spends more than a fifth of the time drawing, so the loop is not slowed down; in a
    terminal it prints a line at most every ``print_interval`` seconds. Call :meth:`close`
    (or use ``with``) at the end for the final picture or summary.

    Args:
        title: the plot's title.
        min_interval: the least time between two redraws in a notebook, in seconds.
        print_interval: the least time between two printed lines in a terminal.
        logy: use a logarithmic loss axis.
        mode: ``"auto"`` (notebook or text, detected), ``"notebook"``, ``"text"`` or
            ``"none"`` (record only).
        clock: the time source (tests pass a fake clock).

    Attributes:
        history: ``{label: (steps, losses)}`` of everything recorded.
        n_draws: how many times it has drawn (or printed).
        last_png: the last image drawn in notebook mode (PNG bytes).

    Example:
        >>> plot = LiveLossPlot(mode="text", print_interval=0)
        >>> for step in range(3):
        ...     plot.update(step, 1.0 / (step + 1))
        step 0  loss 1.0000
        step 1  loss 0.5000
        step 2  loss 0.3333
        >>> plot.close()
        done: 3 steps; last loss 0.3333, best 0.3333 at step 2
    """

    def __init__(
        self,
        title: str = "training loss",
        min_interval: float = 0.2,
        print_interval: float = 1.0,
        logy: bool = False,
        mode: str = "auto",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mode == "auto":
            mode = "notebook" if in_notebook() else "text"
        if mode not in ("notebook", "text", "none"):
            raise ValueError(f"mode must be 'auto', 'notebook', 'text' or 'none', not {mode!r}")
        self.title, self.logy, self.mode, self.clock = title, logy, mode, clock
        self.interval = min_interval if mode == "notebook" else print_interval
        self.history: dict[str, tuple[list[float], list[float]]] = {}
        self.n_draws = 0
        self.last_png = b""
        self.closed = False
        self._last_draw = -math.inf
        self._wait = self.interval
        self._handle: Any = None
        self._fig: Any = None

    def update(self, step: float, loss: Any, label: str = "loss") -> None:
        """Record ``loss`` (a number or a one-element tensor) at ``step``; redraw if due.

        Use several labels for several curves, e.g. ``"train"`` and ``"test"``.

        Example:
            >>> plot = LiveLossPlot(mode="none")
            >>> plot.update(0, 0.9, label="train")
            >>> plot.update(0, 1.1, label="test")
            >>> sorted(plot.history)
            ['test', 'train']
        """
        steps, losses = self.history.setdefault(label, ([], []))
        steps.append(float(step))
        losses.append(to_float(loss))
        start = self.clock()
        if start - self._last_draw >= self._wait:
            self._draw()
            end = self.clock()
            if self.mode == "notebook":  # drawing must not slow training down:
                self._wait = max(self.interval, 4 * (end - start))  # wait 4x its duration
            self._last_draw = end

    def show(self) -> None:
        """Draw now, whatever the time since the last redraw.

        Example:
            >>> plot = LiveLossPlot(mode="text", print_interval=60)
            >>> plot.update(0, 1.0)
            step 0  loss 1.0000
            >>> plot.update(1, 0.5)       # too soon: not printed
            >>> plot.show()
            step 1  loss 0.5000
        """
        self._draw()

    def close(self) -> None:
        """Draw the final picture (notebook) or print a summary (terminal).

        Example:
            >>> plot = LiveLossPlot(mode="text")
            >>> plot.update(0, 2.0)
            step 0  loss 2.0000
            >>> plot.close()
            done: 1 steps; last loss 2.0000, best 2.0000 at step 0
        """
        if self.closed:
            return
        self.closed = True
        if self.mode == "notebook":
            self._draw()
        elif self.mode == "text":
            for label, (steps, losses) in self.history.items():
                best = int(np.argmin(losses))
                print(f"done: {len(steps)} steps; last {label} {losses[-1]:.4f}, "
                      f"best {losses[best]:.4f} at step {steps[best]:g}")

    def __enter__(self) -> LiveLossPlot:
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    def _draw(self) -> None:
        if self.mode == "none" or not self.history:
            return
        self.n_draws += 1
        if self.mode == "text":
            parts = [f"{label} {losses[-1]:.4f}" for label, (_, losses) in self.history.items()]
            last_step = max(steps[-1] for steps, _ in self.history.values())
            print(f"step {last_step:g}  " + "  ".join(parts))
            return
        if self._fig is None:
            self._fig, self._ax = _new_figure(6, 3.5)
        ax = self._ax
        ax.clear()
        for label, (steps, losses) in self.history.items():
            ax.plot(steps, losses, label=f"{label} ({losses[-1]:.4f})")
        if self.logy:
            ax.set_yscale("log")
        ax.set_title(self.title)
        ax.set_xlabel("step")
        ax.set_ylabel("loss")
        ax.legend(loc="upper right")
        self.last_png = fig_to_png(self._fig)
        from IPython.display import Image, display

        image = Image(data=self.last_png, format="png")
        if self._handle is None:
            self._handle = display(image, display_id=True)
        else:
            self._handle.update(image)

    def __repr__(self) -> str:
        points = sum(len(steps) for steps, _ in self.history.values())
        return f"LiveLossPlot(mode={self.mode!r}, points={points}, draws={self.n_draws})"


# ---------------------------------------------------------------------------- classifier
def _to_classes(scores: np.ndarray, threshold: float | None) -> np.ndarray:
    """Turn model outputs into class numbers (see :func:`decision_grid`)."""
    if scores.ndim == 2 and scores.shape[1] > 1:
        return scores.argmax(axis=1)
    scores = scores.reshape(-1)
    if scores.dtype.kind in "biu":
        return scores.astype(int)  # booleans or class numbers
    if threshold is None and np.all(scores == np.round(scores)):
        return scores.astype(int)  # already class numbers
    if threshold is None:
        threshold = 0.5 if scores.min() >= 0 and scores.max() <= 1 else 0.0
    return (scores > threshold).astype(int)


def decision_grid(
    predict_fn: Callable[[np.ndarray], Any],
    X: Any,  # noqa: N803  (the usual name for a data matrix)
    resolution: int = 200,
    margin: float = 0.5,
    threshold: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The class ``predict_fn`` assigns to every point of a grid covering ``X``.

    ``predict_fn`` gets an ``(N, 2)`` NumPy array and may return class numbers, scores of
    shape ``(N, C)`` (the largest wins), probabilities in [0, 1] (threshold 0.5) or logits
    (threshold 0); a tensor result is converted with ``.numpy()``.

    Returns:
        ``(xx, yy, classes)``, three arrays of shape ``(resolution, resolution)``.

    Example:
        >>> X = np.array([[-1.0, 0.0], [1.0, 0.0]])
        >>> xx, yy, classes = decision_grid(lambda p: p[:, 0], X, resolution=3)
        >>> classes[0].tolist()     # logits x0 at x0 = -1.5, 0, 1.5
        [0, 0, 1]
    """
    points = np.asarray(to_numpy(X), dtype=float)
    (x_min, y_min), (x_max, y_max) = points.min(axis=0) - margin, points.max(axis=0) + margin
    xx, yy = np.meshgrid(np.linspace(x_min, x_max, resolution),
                         np.linspace(y_min, y_max, resolution))
    grid = np.column_stack([xx.ravel(), yy.ravel()])
    scores = to_numpy(predict_fn(grid))
    if scores is None:
        raise TypeError("predict_fn must return numbers (an array or a tensor)")
    return xx, yy, _to_classes(np.asarray(scores), threshold).reshape(xx.shape)


def plot_decision_boundary(
    predict_fn: Callable[[np.ndarray], Any],
    X: Any,  # noqa: N803  (the usual name for a data matrix)
    y: Any,
    ax: Any = None,
    resolution: int = 200,
    threshold: float | None = None,
) -> Any:
    """Colour the plane by the class a 2-D classifier predicts, and scatter the data on top.

    Args:
        predict_fn: maps an ``(N, 2)`` NumPy array to classes or scores (see
            :func:`decision_grid`). Wrap a model like
            ``lambda p: model(torch.tensor(p, dtype=torch.float32))``.
        X: the data points, shape ``(N, 2)`` (array or tensor).
        y: their labels, shape ``(N,)``.
        ax: matplotlib axes to draw on; a new figure if ``None``.
        resolution: grid points per axis.
        threshold: the score above which a single-score model predicts class 1.

    Returns:
        The matplotlib axes.

    Example:
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> X = np.array([[-1.0, 0.0], [1.0, 1.0]])
        >>> ax = plot_decision_boundary(lambda p: p[:, 0] > 0, X, np.array([0, 1]))
        >>> ax.collections[-1].get_offsets().shape    # the scattered points
        (2, 2)
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 4))
    xx, yy, classes = decision_grid(predict_fn, X, resolution, threshold=threshold)
    labels = np.asarray(to_numpy(y)).reshape(-1)
    n_classes = int(max(classes.max(), labels.max())) + 1
    levels = np.arange(n_classes + 1) - 0.5
    ax.contourf(xx, yy, classes, levels=levels, cmap="coolwarm", alpha=0.3)
    points = np.asarray(to_numpy(X), dtype=float)
    ax.scatter(points[:, 0], points[:, 1], c=labels, cmap="coolwarm", vmin=0,
               vmax=max(n_classes - 1, 1), edgecolors="black", s=25)
    ax.set_xlim(xx.min(), xx.max())
    ax.set_ylim(yy.min(), yy.max())
    return ax

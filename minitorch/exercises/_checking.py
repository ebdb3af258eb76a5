"""Helpers shared by the chapters' checks: what the real engine did while the learner's code
ran, which operations it ran, and the grad mode put back afterwards.

=======================  ======================================================================
name                     what it is
=======================  ======================================================================
:func:`engine_ran`       run a function; also count the nodes the real backward engine ran
:func:`watch_ops`        record the shapes that every tensor operation took and gave
:func:`keep_grad_mode`   a function wrapped so that the grad mode is the same after it
:func:`from_pytorch`     whether a value is a PyTorch object (not a minitorch one)
:class:`Seen`            what a case saw, shown as ``key: value`` pairs
=======================  ======================================================================

Example:
    >>> import minitorch
    >>> x = minitorch.ones(2, requires_grad=True)
    >>> outcome = engine_ran(lambda: (x * 3).sum().backward())
    >>> outcome.ran
    3
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from ._common import format_value

__all__ = ["EngineRun", "OpShapes", "Seen", "a_kind", "engine_ran", "from_pytorch",
           "keep_grad_mode", "watch_ops"]


class Seen(dict):
    """What a case saw, shown as ``key: value`` pairs; keys that start with ``_`` are for the
    comparison only and are not shown (the feedback never prints a check's own dict).

    Example:
        >>> Seen({"w.grad": None, "_cleared": True})
        w.grad: None
    """

    def __repr__(self) -> str:
        return ", ".join(
            f"{key}: {value if isinstance(value, str) else format_value(value, 80)}"
            for key, value in self.items() if not key.startswith("_"))


class EngineRun:
    """What a case got: the learner's value, how many nodes the real engine ran and (from
    :func:`engine_ran`) the steps it ran (``minitorch.autograd.recorders.BackwardStep``)."""

    def __init__(self, value: Any, ran: int, steps: Any = ()) -> None:
        self.value, self.ran, self.steps = value, ran, list(steps)

    def __repr__(self) -> str:  # the feedback's "got:" line shows the value only
        return format_value(self.value)


def engine_ran(fn: Callable[[], Any]) -> EngineRun:
    """Run ``fn()`` and count the nodes the real backward engine ran meanwhile."""
    from minitorch.autograd.recorders import record_backward

    with record_backward() as steps:
        result = fn()
    return EngineRun(result, len(steps), steps)


class OpShapes:
    """The shapes that tensor operations took and gave while :func:`watch_ops` watched.

    Attributes:
        ops: ``(name, input shapes, output shapes)`` for every operation, in order.
    """

    def __init__(self) -> None:
        self.ops: list[tuple[str, list, list]] = []
        self._bypass = False

    @property
    def largest_ndim(self) -> int:
        """The largest number of dimensions of any input or output (0 when none ran)."""
        return max((len(shape) for _, ins, outs in self.ops for shape in (*ins, *outs)),
                   default=0)

    # the hooks that Function.apply and the engine call while a profiler is installed
    def begin(self, name: str, input_shapes: Any = None) -> None:
        """A backward node starts (the engine's hook): not an operation of the learner's."""

    def end(self) -> None:
        """A backward node ends."""

    def wants(self, cls: type) -> bool:
        if self._bypass:
            self._bypass = False
            return False
        return True

    def time_op(self, cls: type, args: tuple) -> Any:
        from minitorch.autograd import function

        shapes = [tuple(a.shape) for a in args if isinstance(a, function.Tensor)]
        self._bypass = True
        try:
            out = cls.apply(*args)
        finally:
            self._bypass = False
        outs = out if isinstance(out, tuple) else (out,)
        self.ops.append((getattr(cls, "__name__", "op"), shapes,
                         [tuple(o.shape) for o in outs if isinstance(o, function.Tensor)]))
        return out


@contextlib.contextmanager
def watch_ops() -> Iterator[OpShapes]:
    """Record every tensor operation run inside the block, with its shapes.

    Example:
        >>> import minitorch
        >>> with watch_ops() as seen:
        ...     _ = minitorch.ones(2, 3).sum(0)
        >>> seen.largest_ndim
        2
    """
    from minitorch.autograd import function

    watcher = OpShapes()
    previous = function._profiler
    function._profiler = watcher
    try:
        yield watcher
    finally:
        function._profiler = previous


def keep_grad_mode(fn: Callable[[], Any]) -> Callable[[], Any]:
    """``fn`` wrapped so that the grad mode is the same after it as before, whatever it does.

    Example:
        >>> import minitorch
        >>> _ = keep_grad_mode(lambda: minitorch.set_grad_enabled(False))()
        >>> minitorch.is_grad_enabled()
        True
    """
    from minitorch.autograd import grad_mode

    def run() -> Any:
        before = grad_mode._state.enabled
        try:
            return fn()
        finally:
            grad_mode._state.enabled = before

    return run


def a_kind(value: Any) -> str:
    """'a list', 'an ndarray', 'a PyTorch tensor': what ``value`` is, for a message.

    Example:
        >>> a_kind([1]), a_kind(None)
        ('a list', 'None')
    """
    if value is None:
        return "None"
    if from_pytorch(value):
        return "a PyTorch tensor"
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" or name == "ndarray" else "a ") + name


def from_pytorch(value: Any) -> bool:
    """Whether ``value`` is a PyTorch object (a ``torch.Tensor``, say), not a minitorch one.

    Example:
        >>> import minitorch
        >>> from_pytorch(minitorch.ones(1)), from_pytorch(1.0)
        (False, False)
    """
    module = getattr(type(value), "__module__", "") or ""
    return module == "torch" or module.startswith("torch.")

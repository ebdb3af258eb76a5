"""Anomaly detection: which forward line made the node whose backward failed.

When backward fails, the traceback shows the engine and the failing formula, but not the line
of the learner's forward pass that recorded it. In anomaly mode (``detect_anomaly``,
``set_detect_anomaly``) two things change, as in PyTorch:

* every node recorded keeps the call stack of the forward pass that made it, in
  ``node.metadata["traceback_"]``; a node recorded inside the backward of another (with
  ``create_graph=True``) also keeps that one, as ``metadata["parent_"]``;
* if a node's backward fails, a ``UserWarning`` says "Error detected in <node>" with that stack,
  then the error goes on; with ``check_nan`` (the default), a gradient containing NaN is such
  an error: ``Function 'SqrtBackward0' returned nan values in its 0th output.``

The stack is the learner's: the frames inside minitorch, Python's library and installed packages
(a notebook's kernel, pytest) are left out, where PyTorch shows them all. Both halves plug
into seams the graph already has, so the hot paths pay nothing while the mode is off: the
forward half watches the nodes ``Function.apply`` makes (``function.node_watchers``), the
backward half is an observer of the engine (``engine.observers``).

Example:
    >>> import warnings
    >>> import minitorch
    >>> x = minitorch.zeros(2, requires_grad=True)
    >>> with warnings.catch_warnings(record=True), minitorch.autograd.detect_anomaly():
    ...     try:
    ...         (x.sqrt() * 0).sum().backward()   # d sqrt(x)/dx is inf at 0, and inf * 0 NaN
    ...     except RuntimeError as error:
    ...         print(error)
    Function 'SqrtBackward0' returned nan values in its 0th output.
"""

from __future__ import annotations

import functools
import os
import site
import sys
import sysconfig
import threading
import traceback
import warnings

from minitorch.autograd import engine, function

__all__ = ["detect_anomaly", "set_detect_anomaly"]

_enabled = False
_check_nan = True
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on (``torch.is_anomaly_enabled``)."""
    return _enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly mode checks gradients for NaN (``torch.is_anomaly_check_nan_enabled``)."""
    return _check_nan


def set_anomaly_enabled(enabled: bool, check_nan: bool = True) -> None:
    """Turn anomaly detection on or off, in every thread (``torch.set_anomaly_enabled``)."""
    global _enabled, _check_nan
    _enabled, _check_nan = bool(enabled), bool(check_nan)
    for seam, watcher in ((function.node_watchers, _keep_stack), (engine.observers, _OBSERVER)):
        if _enabled and watcher not in seam:
            seam.append(watcher)
        elif not _enabled and watcher in seam:
            seam.remove(watcher)


class detect_anomaly:  # noqa: N801
    """Turn anomaly detection on inside the ``with`` block (and warn that it is slow)."""

    def __init__(self, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _enabled, _check_nan
        self.check_nan = check_nan
        warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                      "and should only be enabled for debugging.", UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


class set_detect_anomaly:  # noqa: N801
    """Turn anomaly detection on or off: at once when called, until the end of the block when
    used with ``with``."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.prev, self.prev_check_nan = _enabled, _check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)


# ---------------------------------------------------------------- forward: keep the stack
class _Running(threading.local):
    """Per thread: the nodes whose backward is running, innermost last."""

    def __init__(self) -> None:
        self.nodes: list = []


_running = _Running()


def _keep_stack(node, outputs) -> None:
    """A node was recorded: keep the learner's call stack, and the node whose backward made it."""
    frames = [f for f in traceback.extract_stack() if _learners(f.filename)]
    node.metadata["traceback_"] = stack = traceback.format_list(frames)
    if _running.nodes:
        node.metadata["parent_"] = _running.nodes[-1]
    for leaf, _ in node._next:  # a leaf joins its first graph in the mode: PyTorch makes its
        if type(leaf) is function.AccumulateGrad and "traceback_" not in leaf.metadata:
            leaf.metadata["traceback_"] = stack  # AccumulateGrad then, and it keeps the stack


@functools.cache
def _learners(filename: str) -> bool:
    """Whether a frame's file is the learner's: not minitorch, Python's library or an installed
    package (a notebook's kernel, pytest), whose frames PyTorch shows too but say nothing about
    the learner's mistake."""
    paths = sysconfig.get_paths()
    library = {_PACKAGE, *(paths[k] + os.sep for k in ("stdlib", "platstdlib", "purelib"))}
    library.update(p + os.sep for p in site.getsitepackages() if isinstance(p, str))
    return not (filename.startswith(tuple(library)) or filename.startswith("<frozen ")
                or f"{os.sep}dist-packages{os.sep}" in filename
                or f"{os.sep}site-packages{os.sep}" in filename)


# ---------------------------------------------------------------- backward: check and report
class _AnomalyObserver(engine.BackwardObserver):
    def node_started(self, node, grads: list) -> None:
        _running.nodes.append(node)

    def node_finished(self, node, grads: list, outs: tuple) -> None:
        if _check_nan:
            for i, g in enumerate(outs):
                d = None if g is None else g._data
                if d is not None and d.dtype.kind in "fc" and bool((d != d).any()):
                    raise RuntimeError(  # (node_failed reports it)
                        f"Function '{node.name()}' returned nan values in its {i}th output.")
        _running.nodes.pop()

    def node_failed(self, node, error: Exception) -> None:
        _running.nodes.pop()
        level = _learner_stacklevel()
        warnings.warn(_stack_message(node, False), UserWarning, stacklevel=level)
        parent = node.metadata.get("parent_")
        while parent is not None:  # the nodes whose backward made this one, outwards
            warnings.warn(_stack_message(parent, True), UserWarning, stacklevel=level)
            parent = parent.metadata.get("parent_")


_OBSERVER = _AnomalyObserver()


def _stack_message(node, parent: bool) -> str:
    """PyTorch's words for the stack that made ``node``: the failing node's, or a parent's."""
    stack = "".join(node.metadata.get("traceback_", ()))
    if not stack:
        return (f"Error detected in {node.name()}. No forward pass information available. "
                "Enable detect anomaly during forward pass for more information.")
    if parent:
        return (f"\n\nPrevious calculation was induced by {node.name()}. Traceback of forward "
                f"call that induced the previous calculation:\n{stack}")
    return (f"Error detected in {node.name()}. Traceback of forward call that caused the "
            f"error:\n{stack}")


def _learner_stacklevel() -> int:
    """The ``stacklevel``, for a warning given by its caller, that names the first line outside
    minitorch (the learner's ``.backward()``)."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        level, frame = level + 1, frame.f_back
    return level

"""Recorders of what the graph does, for the course's pictures and checks.

``record_forward`` keeps every node as ``Function.apply`` records it (it watches the nodes being
made: ``function.node_watchers``), and ``record_backward`` every node as the engine runs it (an
observer of backward: ``engine.observers``). Neither is PyTorch's API; both only watch, through
the seams the graph has for that, so the algorithm they show stays as it is.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

from minitorch.autograd.engine import BackwardObserver, observers
from minitorch.autograd.function import AccumulateGrad, node_watchers

__all__ = ["record_forward", "record_backward", "BackwardStep"]


class record_forward:  # noqa: N801
    """Collect ``(node, outputs)`` for every node recorded inside the ``with`` block, in order,
    in this thread.

    >>> import minitorch
    >>> x = minitorch.ones(2, requires_grad=True)
    >>> with record_forward() as steps:
    ...     y = (x * 2).exp()
    >>> [node.name() for node, _ in steps]
    ['MulBackward0', 'ExpBackward0']
    """

    def __enter__(self) -> list:
        self.steps: list = []
        self.thread = threading.get_ident()  # (nodes made in other threads are not its own)
        node_watchers.append(self._keep)
        return self.steps

    def __exit__(self, *exc) -> None:
        node_watchers.remove(self._keep)

    def _keep(self, node, outputs: tuple) -> None:
        if threading.get_ident() == self.thread:
            self.steps.append((node, outputs))


@dataclass
class BackwardStep:
    """One step of a recorded backward pass (see :func:`record_backward`).

    Attributes:
        index: 0 for the first node that ran, 1 for the next, ...
        node: the node that ran (``AccumulateGrad`` for a leaf).
        grad_outputs: the gradients that arrived at the node (already summed).
        grad_inputs: what it sent along each of its ``next_functions`` (None where nothing).
        accumulated_into: for ``AccumulateGrad``, the leaf tensor whose ``.grad`` changed.
        grad_after: for ``AccumulateGrad``, a copy of the leaf's ``.grad`` after the step.
    """

    index: int
    node: object
    grad_outputs: tuple
    grad_inputs: tuple
    accumulated_into: object = None
    grad_after: object = None
    extra: dict = field(default_factory=dict)


class _StepRecorder(BackwardObserver):
    """Keeps a :class:`BackwardStep` for each node that backward runs in this thread."""

    def __init__(self) -> None:
        self.steps: list[BackwardStep] = []
        self.thread = threading.get_ident()
        self.arrived: tuple = ()

    def node_started(self, node, grads: list) -> None:
        self.arrived = tuple(grads)  # before the node runs: a leaf's gradient is handed over

    def node_finished(self, node, grads: list, outs: tuple) -> None:
        if threading.get_ident() != self.thread:
            return
        leaf = node.variable if type(node) is AccumulateGrad else None
        after = None if leaf is None or leaf._grad is None else leaf._grad.detach().clone()
        self.steps.append(BackwardStep(len(self.steps), node, self.arrived, tuple(outs), leaf,
                                       after))


@contextmanager
def record_backward():
    """Record every node that backward runs in this thread, in the real execution order.

    >>> import minitorch
    >>> x = minitorch.ones(2, requires_grad=True)
    >>> with minitorch.autograd.recorders.record_backward() as steps:
    ...     (x * 3).sum().backward()
    >>> [s.node.name() for s in steps]
    ['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    recorder = _StepRecorder()
    observers.append(recorder)
    try:
        yield recorder.steps
    finally:
        observers.remove(recorder)

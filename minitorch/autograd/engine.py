"""The backward engine: the chain rule, run over the recorded DAG.

``backward`` does three things:

1. it computes the gradients from each ``.grad_fn``,
2. accumulates them in the ``.grad`` of the leaf tensors that require grad,
3. and, using the chain rule, propagates them all the way from the output to those leaves.

The algorithm fits on one screen. First count, for every node reachable from the roots, how
many edges point at it (its *dependencies*). Then start from the roots and run a node only when
all of its dependencies have delivered their gradient, so each node runs exactly once even in a
diamond-shaped graph, and the gradients arriving at it are summed first. Among the nodes that
are ready, the most recently created runs first (a leaf's ``AccumulateGrad`` as soon as it is
ready), which is PyTorch's order. Everything is iterative: a graph 100,000 ops deep is fine.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor(2.0, requires_grad=True)
    >>> y = x * x + x          # x is used three times
    >>> minitorch.autograd.grad(y, x)
    (tensor(5.),)
"""

from __future__ import annotations

import heapq
import itertools
import threading

from minitorch._dtype import from_numpy_dtype
from minitorch.autograd import function, grad_mode
from minitorch.autograd.function import AccumulateGrad, _zeros_for_missing

__all__ = ["backward", "grad", "BackwardObserver", "observers"]


# ---------------------------------------------------------------- the algorithm
def _run(roots: list, root_grads: list, retain_graph: bool, create_graph: bool,
         extra_observers: tuple = ()) -> None:
    """Run backward from ``roots`` (edges ``(node, output_nr)``) seeded with ``root_grads``.

    The optional concerns are not here: hooks are part of calling a node (``_call_node``), and
    whatever wants to watch the nodes run (the profiler, anomaly mode, ``record_backward``,
    the gradients that ``grad()`` captures) is an observer (``_call_observed``).
    """
    watching = (*observers, *extra_observers)
    deps = _count_dependencies(roots)  # 1. how many edges point at each node
    buffers: dict = {}  # node -> the sum of the gradients that arrived, one per output
    for (node, nr), g in zip(roots, root_grads):  # 2. seed the roots' buffers
        _add_to_buffer(buffers, node, nr, g)
    tiebreak = itertools.count()  # nodes made at the same time run in the order they got ready
    ready = [(-node._seq, next(tiebreak), node) for node in buffers if deps[node] == 0]
    heapq.heapify(ready)
    with grad_mode.set_grad_enabled(create_graph):  # record backward only for create_graph
        while ready:  # 3. the newest node whose gradients have all arrived
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None) or [None]
            # 4. call it (its hooks first): one gradient per edge
            outs = _call_observed(watching, node, grads) if watching else _call_node(node, grads)
            if not retain_graph and node._saved and outs:  # free what it saved (if it ran)
                node._release()
            for (nxt, nr), g in zip(node._next, outs):  # 5. send each gradient along its edge
                if nxt is None:
                    continue
                if g is not None:
                    _add_to_buffer(buffers, nxt, nr, g)
                deps[nxt] -= 1
                if deps[nxt] == 0:  # all its gradients have arrived: it is ready
                    heapq.heappush(ready, (-nxt._seq, next(tiebreak), nxt))
            outs = g = None  # let go of what was sent: a leaf keeps a gradient held nowhere else


def _count_dependencies(roots: list) -> dict:
    """For every node reachable from ``roots``: how many edges point at it. An explicit stack,
    not recursion, so a graph 100,000 nodes deep is fine."""
    deps = {node: 0 for node, _ in roots if node is not None}
    stack = list(deps)
    while stack:
        for nxt, _ in stack.pop()._next:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)
    return deps


def _add_to_buffer(buffers: dict, node, nr: int, g) -> None:
    """Add ``g`` into the gradient buffer of ``node``'s output ``nr``."""
    if node is None:
        return
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * node._num_outputs
    # Never add in place: the same gradient tensor may be flowing along another edge too.
    buf[nr] = g if buf[nr] is None else buf[nr] + g


def _call_node(node, grads: list) -> tuple:
    """Run one node: from the gradients of its outputs, one gradient per edge (each checked
    against its input by ``_checked``). A leaf's ``AccumulateGrad`` adds into ``.grad``."""
    leaf = type(node) is AccumulateGrad
    if leaf and node.variable._hooks and grads[0] is not None:  # a leaf's hooks come first:
        grads[0] = function.through_hooks(node.variable._hooks, grads[0])  # its tensor's
    if node._tensor_pre_hooks or node._pre_hooks:  # hooks may replace the gradients
        grads = _call_pre_hooks(node, grads)
    arrived = tuple(grads) if node._hooks else ()  # (for the node's own hooks, after it)
    if leaf:  # a gradient nothing else holds is kept as is
        outs = () if grads[0] is None else node.accumulate_handed_over(grads, False)
    elif grads[0] is None if len(grads) == 1 else all(g is None for g in grads):
        return (None,) * len(node._next)  # nothing flows into this part of the graph
    else:
        if len(grads) > 1 and node._materialize and any(g is None for g in grads):
            grads = _zeros_for_missing(node, grads)
        # A built-in's backward returns one gradient per edge; node.apply does the same for a
        # learner's Function, from one gradient per forward argument.
        outs = node._forward_cls.backward(node, *grads) if node._builtin else node.apply(*grads)
        outs = _checked(node, outs if type(outs) is tuple else (outs,))
    if node._hooks:
        for hook in tuple(node._hooks.values()):
            new = hook(outs, arrived)
            if new is not None:  # a hook may replace the gradients the node sends on
                outs = _hook_result(hook, outs, new)
    return outs


def _call_observed(watching: tuple, node, grads: list) -> tuple:
    """``_call_node``, with each observer told before and after. A node that an observer
    answers ``False`` for (``grad()`` does for the nodes it does not need) is skipped: it
    keeps its saved tensors and sends nothing on, so what only it leads to does not run."""
    run = True
    for observer in watching:
        run = observer.node_started(node, grads) is not False and run
    try:
        outs = _call_node(node, grads) if run else ()
        for observer in watching:
            observer.node_finished(node, grads, outs)
    except Exception as error:  # (anomaly mode says which forward line made the node)
        for observer in watching:
            observer.node_failed(node, error)
        raise
    return outs


# ---------------------------------------------------------------- hooks and checks
def _call_pre_hooks(node, grads: list) -> list:
    if node._tensor_pre_hooks:  # (in place: an observer sees them in node_finished)
        for nr, hooks in node._tensor_pre_hooks.items():
            if grads[nr] is not None:
                grads[nr] = function.through_hooks(hooks, grads[nr])
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks.values()):
            new = hook(tuple(grads))
            if new is not None:
                grads = list(new)
    return grads


def _hook_result(hook, outs: tuple, new) -> tuple:
    """What a node's post hook returned in place of its gradients, checked as PyTorch does."""
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(outs):
        raise RuntimeError(f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has returned "
                           f"an incorrect number of values (got {len(new)}, but expected "
                           f"{len(outs)})")
    for old, g in zip(outs, new):
        if g is not None and not isinstance(g, function.Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(g).__name__}'")
        if g is not None and old is not None:
            function.check_hook_result(hook, old, g)
    return new


def _checked(node, outs: tuple) -> tuple:
    """One gradient per edge, each fitting its input (else ``_fitted`` makes it fit)."""
    nexts = node._next
    if len(outs) != len(nexts):
        if len(outs) > len(nexts) and all(o is None for o in outs[len(nexts):]):
            outs = outs[:len(nexts)]  # extra Nones for non-tensor inputs are allowed
        else:
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {len(nexts)}, got {len(outs)})"
            )
    for (nxt, _), g, (shape, dtype) in zip(nexts, outs, node._input_meta):
        if g is not None and (nxt is None or type(g) is not function.Tensor
                              or g._data.shape != shape or g._data.dtype is not dtype):
            return _fitted(node, outs)
    return outs


def _fitted(node, outs: tuple) -> tuple:
    """Each gradient fitted to its input: broadcasting in the forward pass makes a gradient
    larger than its input, and it is summed back down (``_fix_gradient``). An edge that leads
    nowhere gets None."""
    fitted = []
    for (nxt, _), g, (shape, dtype) in zip(node._next, outs, node._input_meta):
        if g is None or nxt is None:
            fitted.append(None)
        elif type(g) is function.Tensor and g._data.shape == shape and g._data.dtype is dtype:
            fitted.append(g)
        else:
            fitted.append(_fix_gradient(node, len(fitted), g, shape, dtype))
    return tuple(fitted)


def _fix_gradient(node, i: int, g, shape: tuple, dtype):
    if not isinstance(g, function.Tensor):
        raise TypeError(
            f"function {node.name()} returned a gradient of type {type(g).__name__} at index "
            f"{i}; expected a Tensor or None"
        )
    if g._data.shape != shape:
        try:
            g = g.sum_to_size(shape)
        except RuntimeError:
            raise RuntimeError(
                f"Function {node.name()} returned an invalid gradient at index {i} - got "
                f"[{', '.join(map(str, g.shape))}] but expected shape compatible with "
                f"[{', '.join(map(str, shape))}]"
            ) from None
    if g._data.dtype != dtype:
        g = g.to(from_numpy_dtype(dtype))
    return g


# ---------------------------------------------------------------- observers
class BackwardObserver:
    """Something that watches backward run, node by node (the profiler, ``record_backward``).

    Put one in :data:`observers` to watch every backward pass; the engine tells it about each
    node it runs. ``node_started`` may answer ``False`` to skip the node.
    """

    def node_started(self, node, grads: list) -> bool | None:
        """Before ``node`` runs, with the gradients that arrived at its outputs."""

    def node_finished(self, node, grads: list, outs: tuple) -> None:
        """After ``node`` ran: ``outs`` is what it sends along each of its ``next_functions``."""

    def node_failed(self, node, error: Exception) -> None:
        """``node``'s backward (or an observer's ``node_finished``) raised ``error``."""


observers: list = []  # the observers of every backward pass (``_run`` reads it once per pass)


class _Passes(threading.local):
    def __init__(self) -> None:
        self.running: list = []  # the backward passes running in this thread, innermost last


passes = _Passes()


class _Pass:
    """A backward pass while it runs (in ``passes.running``), as PyTorch's graph task: hooks
    can tell which pass calls them, and whether a node will run in it."""

    def __init__(self, roots: list) -> None:
        self.roots, self.reached = roots, None

    def __enter__(self):
        passes.running.append(self)

    def __exit__(self, *exc) -> None:
        passes.running.remove(self)

    def will_run(self, node) -> bool:
        if self.reached is None:  # every node reachable from the roots
            self.reached = _count_dependencies(self.roots)
        return node in self.reached


class _Capture(_Pass, BackwardObserver):
    """``grad()`` and ``backward(inputs=...)``: run only the nodes on a path from the roots to
    one of the chosen edges ``(node, output_nr)``, as PyTorch's engine does. ``grad()`` keeps
    the gradient that arrives at each; ``backward(inputs=...)`` runs their nodes as well (a
    leaf's ``AccumulateGrad``; a non-leaf keeps its gradient by ``retain_grad``). A reentrant
    checkpoint refuses to run in such a pass, as in PyTorch."""

    def __init__(self, edges, roots: list, run_targets: bool = False) -> None:
        super().__init__(roots)
        self.found = dict.fromkeys(edges)
        self.targets, self.run_targets = {node for node, _ in self.found}, run_targets
        self.needed = _leading_to(self.targets, roots) | (self.targets if run_targets else set())

    def will_run(self, node) -> bool:
        return node in self.needed or node in self.targets

    def node_started(self, node, grads: list) -> bool:
        needed = node in self.needed
        for nr, g in enumerate(grads):
            if (node, nr) in self.found:  # as PyTorch: where the pass stops, after the tensor's
                self.found[node, nr] = g if needed or g is None else _tensor_hooked(node, nr, g)
        return needed  # hooks; where it goes on, as the gradient arrived


def _tensor_hooked(node, nr: int, g):
    """``g`` through the hooks of the tensor whose gradient it is (a leaf's, at its node)."""
    if type(node) is AccumulateGrad:
        return function.through_hooks(node.variable._hooks or {}, g)
    return function.through_hooks((node._tensor_pre_hooks or {}).get(nr, {}), g)


def _leading_to(targets: set, roots: list) -> set:
    """The nodes reachable from ``roots`` from which one of ``targets`` can be reached."""
    parents: dict = {}
    stack = [node for node, _ in roots if node is not None]
    while stack:  # every edge reachable from the roots, turned around
        node = stack.pop()
        for nxt, _ in node._next:
            if nxt is not None:
                if nxt not in parents:
                    stack.append(nxt)
                parents.setdefault(nxt, []).append(node)
    needed: set = set()
    stack = [t for t in targets if t in parents]
    while stack:  # then up from the targets
        for parent in parents.get(stack.pop(), ()):
            if parent not in needed:
                needed.add(parent)
                stack.append(parent)
    return needed


# ---------------------------------------------------------------- the API
def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, function.Tensor) or hasattr(x, "output_nr") else tuple(x)


def _root_edge(t, index: int):
    if not t.requires_grad:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    return t._edge()


def _input_edge(t):
    """Where the gradient of an input is captured: a tensor's edge, or a ``GradientEdge``."""
    return t._edge() if isinstance(t, function.Tensor) else (t.node, t.output_nr)


def _make_root_grads(tensors: tuple, grads: tuple, create_graph: bool) -> list:
    if len(grads) not in (0, len(tensors)):
        raise RuntimeError(
            f"grad can be implicitly created only for scalar outputs: got {len(grads)} "
            f"gradients for {len(tensors)} tensors"
        )
    out = []
    for i, t in enumerate(tensors):
        g = grads[i] if grads else None
        if g is None:
            if t.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            out.append(t.new_ones(t.shape))  # a new tensor: no history to detach from
            continue
        if not isinstance(g, function.Tensor):
            g = t.new_tensor(g)
        elif g.shape != t.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {t.shape}."
            )
        out.append(g if create_graph else g.detach())
    return out


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves.

    Args:
        tensors: the roots to differentiate (usually one scalar loss).
        grad_tensors: the gradient of something with respect to each root; may be omitted for
            scalar roots (it is then 1).
        retain_graph: keep the saved tensors so backward can run again (default: create_graph).
        create_graph: record the backward pass too, for higher-order gradients.
        inputs: only accumulate into these leaves.
    """
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    roots = [_root_edge(t, i) for i, t in enumerate(tensors)]
    root_grads = _make_root_grads(tensors, grads, create_graph)
    if inputs is None:
        with _Pass(roots):
            _run(roots, root_grads, retain_graph, create_graph)
        return
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    for t in inputs:  # as PyTorch: a non-leaf input keeps its gradient as retain_grad does
        if isinstance(t, function.Tensor):
            t.retain_grad()
    capture = _Capture((_input_edge(t) for t in inputs), roots, run_targets=True)
    with capture:
        _run(roots, root_grads, retain_graph, create_graph, (capture,))


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (nothing is accumulated).

    >>> import minitorch
    >>> x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    >>> minitorch.autograd.grad((x ** 3).sum(), x)
    (tensor([ 3., 12.]),)
    """
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grads = _as_tuple(grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in inputs:
        if isinstance(t, function.Tensor) and not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = [_root_edge(t, i) for i, t in enumerate(outputs)]
    root_grads = _make_root_grads(outputs, grads, create_graph)
    capture = _Capture((_input_edge(t) for t in inputs), roots)
    with capture:
        _run(roots, root_grads, retain_graph, create_graph, (capture,))
    result = []
    for i, t in enumerate(inputs):
        g = capture.found[_input_edge(t)]
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
            if materialize_grads and not isinstance(t, function.Tensor):
                raise RuntimeError(
                    "materialize_grads cannot be used when the given input is a GradientEdge")
            if materialize_grads:
                g = t.new_zeros(t.shape)
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)

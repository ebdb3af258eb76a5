"""The backward engine: the chain rule, run over the recorded DAG.

``backward`` does three things (the learner notes say it best):

1. it computes the gradients from each ``.grad_fn``,
2. accumulates them in the respective tensor's ``.grad``,
3. and, using the chain rule, propagates all the way to the leaf tensors.

The algorithm fits on one screen. First count, for every node reachable from the roots, how
many edges point at it (its *dependencies*). Then start from the roots and run a node only when
all of its dependencies have delivered their gradient, so each node runs exactly once even in a
diamond-shaped graph, and the gradients arriving at it are summed first. Among the nodes that
are ready, the most recently created runs first, which is PyTorch's order. Everything is
iterative: a graph 100,000 ops deep is fine.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor(2.0, requires_grad=True)
    >>> y = x * x + x          # x is used three times
    >>> minitorch.autograd.grad(y, x)
    (tensor(5.),)
"""

from __future__ import annotations

import heapq
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

from minitorch.autograd import function, grad_mode
from minitorch.autograd.function import AccumulateGrad

__all__ = ["backward", "grad", "record_backward", "BackwardStep"]


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


class _Recorders(threading.local):
    """Per thread: the step lists of the active :func:`record_backward` blocks."""

    def __init__(self) -> None:
        self.stack: list[list] = []


_recorders = _Recorders()  # thread-local: a recording sees only backward passes of its thread


@contextmanager
def record_backward():
    """Record every node that backward runs, in the real execution order.

    >>> import minitorch
    >>> x = minitorch.ones(2, requires_grad=True)
    >>> with minitorch.autograd.engine.record_backward() as steps:
    ...     (x * 3).sum().backward()
    >>> [s.node.name() for s in steps]
    ['SumBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    """
    steps: list[BackwardStep] = []
    _recorders.stack.append(steps)
    try:
        yield steps
    finally:
        _recorders.stack.remove(steps)


def _as_tuple(x) -> tuple:
    if x is None:
        return ()
    return (x,) if isinstance(x, function.Tensor) else tuple(x)


def _root_edge(t, index: int):
    if not t.requires_grad:
        raise RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn"
        )
    return t._edge()


def _make_root_grads(tensors: tuple, grads: tuple, create_graph: bool) -> list:
    from minitorch import _creation  # noqa: PLC0415

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
            g = _creation.ones_like(t)
        elif not isinstance(g, function.Tensor):
            g = _creation.tensor(g, dtype=t.dtype)
        elif g.shape != t.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {t.shape}."
            )
        out.append(g if create_graph else g.detach())
    return out


def _run(roots: list, root_grads: list, retain_graph: bool, create_graph: bool,
         capture: dict | None = None, accumulate: bool = True) -> None:
    """Run backward from ``roots`` (edges) seeded with ``root_grads``.

    ``capture`` maps edges ``(node, output_nr)`` to a slot: their gradients are stored there
    instead of (for leaves) being accumulated. ``accumulate=False`` skips every AccumulateGrad.
    """
    # 1. Count dependencies with an explicit stack (no recursion: deep graphs are fine). A node
    #    is in ``deps`` once it has been seen.
    deps: dict = {}
    root_nodes = []  # each root node once, even when several roots are outputs of one node
    for n, _ in roots:
        if n is not None and n not in deps:
            deps[n] = 0
            root_nodes.append(n)
    stack = list(root_nodes)
    while stack:
        for nxt, _ in stack.pop()._next:
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)

    # 2. Seed the input buffers of the root nodes.
    buffers: dict = {}
    for (node, nr), g in zip(roots, root_grads):
        _add_to_buffer(buffers, node, nr, g)
    ready = []
    counter = 0
    for node in root_nodes:
        if deps[node] == 0:
            heapq.heappush(ready, (-node._seq, counter, node))
            counter += 1

    recorders = _recorders.stack[-1:]
    profiler = function._profiler  # autograd.profiler.profile() times each node when set
    step = 0
    with grad_mode.set_grad_enabled(create_graph):  # record backward only for create_graph
        # 3. Run each node once all its gradients have arrived, newest node first.
        while ready:
            node = heapq.heappop(ready)[2]
            grads = buffers.pop(node, None) or [None]
            if node._tensor_pre_hooks or node._pre_hooks:
                grads = _call_pre_hooks(node, grads)
            if capture is not None:
                for nr, g in enumerate(grads):
                    slot = capture.get((node, nr))
                    if slot is not None:
                        slot.append(g)
            is_leaf_node = type(node) is AccumulateGrad
            if profiler is not None:
                profiler.begin(node.name())
            if is_leaf_node:
                outs = ()
                if accumulate and (capture is None or (node, 0) not in capture):
                    if grads[0] is not None:
                        node.apply(grads[0])
            else:
                outs = _call_node(node, grads)
                if not retain_graph and node._saved:  # free what it saved for backward
                    node._release()
            if profiler is not None:
                profiler.end()
            if recorders:
                outs = _checked(node, outs)  # what is sent on, as it is sent
                leaf = node.variable if is_leaf_node else None
                recorders[0].append(BackwardStep(
                    step, node, tuple(grads), tuple(outs), leaf,
                    None if leaf is None or leaf._grad is None else leaf._grad.detach().clone()))
                step += 1
            # 4. Send each gradient along its edge, into the buffer of the node it goes to
            #    (``_add_to_buffer``, written out here: it runs for every edge). A node whose
            #    gradients have all arrived is ready.
            i = -1
            for (nxt, nr), g, (shape, dtype) in zip(node._next, outs, node._input_meta):
                i += 1
                if nxt is None:
                    continue
                if g is not None:
                    if (type(g) is not function.Tensor or g._data.shape != shape
                            or g._data.dtype is not dtype):
                        g = _fix_gradient(node, i, g, shape, dtype)
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt._num_outputs
                    buf[nr] = g if buf[nr] is None else buf[nr] + g  # never in place
                left = deps[nxt] - 1
                deps[nxt] = left
                if left == 0:
                    heapq.heappush(ready, (-nxt._seq, counter, nxt))
                    counter += 1


def _add_to_buffer(buffers: dict, node, nr: int, g) -> None:
    """Add ``g`` into the gradient buffer of ``node``'s output ``nr``."""
    if node is None:
        return
    buf = buffers.get(node)
    if buf is None:
        buf = buffers[node] = [None] * node._num_outputs
    # Never add in place: the same gradient tensor may be flowing along another edge too.
    buf[nr] = g if buf[nr] is None else buf[nr] + g


def _call_pre_hooks(node, grads: list) -> list:
    tensor_hooks = node._tensor_pre_hooks
    if tensor_hooks:
        for nr, hooks in tensor_hooks.items():
            for hook in tuple(hooks.values()):
                if grads[nr] is None:
                    continue
                new = hook(grads[nr])
                if new is not None:
                    function.check_hook_result(hook, grads[nr], new)
                    grads[nr] = new
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks.values()):
            new = hook(tuple(grads))
            if new is not None:
                grads = list(new)
    return grads


def _call_node(node, grads: list) -> tuple:
    """Call the node's backward: one gradient per edge. ``_run`` checks each against its
    input's shape and dtype as it sends it on (``_checked`` does it here for hooks)."""
    if len(grads) == 1:
        if grads[0] is None:
            return (None,) * len(node._next)  # nothing flows into this part of the graph
    elif all(g is None for g in grads):
        return (None,) * len(node._next)
    elif any(g is None for g in grads) and node._materialize:
        from minitorch import _creation  # noqa: PLC0415

        meta = node._output_meta or ()
        grads = [_creation.zeros(*meta[i][0], dtype=meta[i][1]) if g is None and i < len(meta)
                 and meta[i] is not None else g for i, g in enumerate(grads)]
    # A built-in's backward returns one gradient per edge; node.apply does the same for a
    # learner's Function, from one gradient per forward argument.
    outs = node._forward_cls.backward(node, *grads) if node._builtin else node.apply(*grads)
    if type(outs) is not tuple:
        outs = (outs,)
    nexts = node._next
    if len(outs) != len(nexts):
        if len(outs) > len(nexts) and all(o is None for o in outs[len(nexts):]):
            outs = outs[:len(nexts)]  # extra Nones for non-tensor inputs are allowed
        else:
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {len(nexts)}, got {len(outs)})"
            )
    if node._hooks:
        outs = _checked(node, outs)
        for hook in tuple(node._hooks.values()):
            hook(outs, tuple(grads))
    return outs


def _checked(node, outs: tuple) -> tuple:
    """Each gradient fitted to its input: broadcasting in the forward pass makes a gradient
    larger than its input, and it is summed back down (``_fix_gradient``)."""
    checked = []
    for (nxt, _), g, (shape, dtype) in zip(node._next, outs, node._input_meta):
        if g is None or nxt is None:
            checked.append(None)
        elif type(g) is function.Tensor and g._data.shape == shape and g._data.dtype is dtype:
            checked.append(g)
        else:
            checked.append(_fix_gradient(node, len(checked), g, shape, dtype))
    return tuple(checked)


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
        from minitorch._dtype import from_numpy_dtype  # noqa: PLC0415

        g = g.to(from_numpy_dtype(dtype))
    return g


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
    roots = []
    for i, t in enumerate(tensors):
        roots.append(_root_edge(t, i))
    root_grads = _make_root_grads(tensors, grads, create_graph)
    if inputs is None:
        _run(roots, root_grads, retain_graph, create_graph)
        return
    inputs = _as_tuple(inputs)
    if not inputs:
        raise RuntimeError("'inputs' argument to backward() cannot be empty.")
    capture = {t._edge(): [] for t in inputs}
    _run(roots, root_grads, retain_graph, create_graph, capture=capture, accumulate=False)
    with grad_mode.set_grad_enabled(create_graph):
        for t in inputs:
            found = capture[t._edge()]
            if not found or found[0] is None:
                continue
            if t.is_leaf:
                t._edge()[0].apply(found[0])
            else:
                t._grad = found[0] if t._grad is None else t._grad + found[0]


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         materialize_grads: bool = False) -> tuple:
    """Return the gradients of ``outputs`` with respect to ``inputs`` (nothing is accumulated).

    >>> import minitorch
    >>> x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    >>> minitorch.autograd.grad((x ** 3).sum(), x)
    (tensor([ 3., 12.]),)
    """
    from minitorch import _creation  # noqa: PLC0415

    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grads = _as_tuple(grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in inputs:
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    roots = [_root_edge(t, i) for i, t in enumerate(outputs)]
    root_grads = _make_root_grads(outputs, grads, create_graph)
    capture = {}
    for t in inputs:
        capture.setdefault(t._edge(), [])
    _run(roots, root_grads, retain_graph, create_graph, capture=capture, accumulate=False)
    result = []
    for i, t in enumerate(inputs):
        found = capture[t._edge()]
        g = found[0] if found else None
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
            if materialize_grads:
                g = _creation.zeros_like(t)
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)

"""Walking a recorded graph: what ``backward`` will visit, as plain data.

:func:`walk` follows ``grad_fn.next_functions`` from one or more tensors and returns every node
and edge in a deterministic order (the order they are first reached, breadth first). Node ids are
those positions, never ``id()``, so the same code always gives the same description. The graph
pictures of ``minitorch.viz`` and the backward stepper are built on it.

Example:
    >>> import minitorch
    >>> from minitorch.autograd.graph import walk
    >>> w = minitorch.ones(3, requires_grad=True)
    >>> g = walk((w * 2).sum())
    >>> [n.name for n in g.nodes]
    ['SumBackward0', 'MulBackward0', 'AccumulateGrad']
    >>> [(e.src, e.dst) for e in g.edges]
    [(0, 1), (1, 2)]
"""

from __future__ import annotations

import abc
import contextlib
import sys
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from minitorch.autograd import engine, function, grad_mode
from minitorch.autograd.function import _FREED, AccumulateGrad

__all__ = ["GraphNode", "GraphEdge", "Graph", "walk", "saved_tensors",
           # savedhooks task: PyTorch's torch.autograd.graph
           "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "Node",
           "GradientEdge", "get_gradient_edge", "increment_version",
           # multigradhook task
           "register_multi_grad_hook"]


@dataclass
class GraphNode:
    """A node of the backward graph.

    Attributes:
        id: position in the walk (0 = the first root's ``grad_fn``).
        node: the node object itself (``grad_fn`` or ``AccumulateGrad``).
        name: PyTorch's name, ``"MulBackward0"``, or ``"AccumulateGrad"`` for a leaf
            (``"CopySlices"`` for ``torch::autograd::CopySlices``).
        is_leaf: True for ``AccumulateGrad`` nodes.
        tensor: the leaf tensor of an ``AccumulateGrad`` node, else None.
        saved: the tensors the node saved for backward (``None`` once freed by a backward).
        depth: the number of edges from the nearest root.
    """

    id: int
    node: object
    name: str
    is_leaf: bool
    tensor: object = None
    saved: list | None = field(default_factory=list)
    depth: int = 0


@dataclass
class GraphEdge:
    """An edge along which a gradient flows, from ``src`` to ``dst`` (node ids).

    ``input_nr`` is which input of ``src`` it is (its position in ``next_functions``) and
    ``output_nr`` which output of ``dst`` produced that input.
    """

    src: int
    dst: int
    input_nr: int
    output_nr: int


@dataclass
class Graph:
    """The nodes and edges reachable from some root tensors."""

    roots: list
    nodes: list
    edges: list
    root_edges: list  # (root index, node id) for each root tensor that has a node

    def node_of(self, obj) -> GraphNode | None:
        """The GraphNode describing a node object (or None if it is not in this graph)."""
        for n in self.nodes:
            if n.node is obj:
                return n
        return None

    @property
    def leaves(self) -> list:
        """The leaf tensors (``AccumulateGrad`` nodes) in walk order."""
        return [n.tensor for n in self.nodes if n.is_leaf]


def saved_tensors(node) -> list | None:
    """The tensors ``node`` saved for backward, or None if a backward already freed them.
    What ``saved_tensors_hooks`` packed is left out (it is not a tensor until unpacked)."""
    saved = getattr(node, "_saved", ())
    if saved is _FREED:
        return None
    return [s.tensor for s in saved if s is not None and s.tensor is not None]


def _short(name: str) -> str:
    """A node's name without PyTorch's C++ namespace: ``torch::autograd::CopySlices`` is
    drawn as ``CopySlices`` (as ``AccumulateGrad`` is)."""
    return name.rpartition("::")[2]


def walk(*roots, max_nodes: int | None = None) -> Graph:
    """Describe the backward graph of ``roots`` (tensors), breadth first, deterministically.

    Args:
        roots: tensors whose history to walk; tensors without a graph are skipped.
        max_nodes: stop after this many nodes (edges to nodes not visited are left out).
    """
    index: dict = {}
    nodes: list[GraphNode] = []
    edges: list[GraphEdge] = []
    root_edges = []
    queue: deque = deque()

    def visit(obj, depth: int) -> int | None:
        if obj in index:
            return index[obj]
        if max_nodes is not None and len(nodes) >= max_nodes:
            return None
        i = len(nodes)
        index[obj] = i
        leaf = type(obj) is AccumulateGrad
        nodes.append(GraphNode(
            id=i, node=obj, name="AccumulateGrad" if leaf else _short(obj.name()), is_leaf=leaf,
            tensor=obj.variable if leaf else None,
            saved=[] if leaf else saved_tensors(obj), depth=depth))
        queue.append(obj)
        return i

    for r, t in enumerate(roots):
        node, _ = t._edge()
        if node is not None:
            i = visit(node, 0)
            if i is not None:
                root_edges.append((r, i))
    while queue:
        obj = queue.popleft()
        src = index[obj]
        for input_nr, (nxt, output_nr) in enumerate(obj.next_functions):
            if nxt is None:
                continue
            dst = visit(nxt, nodes[src].depth + 1)
            if dst is not None:
                edges.append(GraphEdge(src, dst, input_nr, output_nr))
    return Graph(list(roots), nodes, edges, root_edges)


# ---------------------------------------------------------------- savedhooks task
# The rest of PyTorch's ``torch.autograd.graph``: hooks for saved tensors (``saved_tensors_hooks``,
# ``save_on_cpu``, ``disable_saved_tensors_hooks``, ``grad_fn._raw_saved_<name>``), the ``Node``
# base class, gradient edges and multi-tensor gradient hooks.
#
# A node saves a tensor as a ``function.SavedTensor``. While a ``saved_tensors_hooks`` block is
# open in some thread, ``_pack_node`` watches the nodes being made (``function.node_watchers``;
# else recording a node checks nothing more): each new node's saved tensors are then handed to
# the innermost pack hook of the thread, right after the node is recorded, and kept as a
# :class:`_HookedSaved`, which holds what the pack hook returned (not the tensor) and calls the
# unpack hook when backward, or ``grad_fn._saved_<name>``, needs the tensor.

_PACK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
    "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
    "Please open an issue if you need to perform in-place operations on the input to a pack hook.")
_RAW_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need to "
    "access saved variables after calling backward.")


class _HooksState(threading.local):
    """Per thread, as in PyTorch: the open hooks (innermost last), and the error message of an
    open ``disable_saved_tensors_hooks`` (None when hooks are allowed)."""

    def __init__(self) -> None:
        self.stack: list = []
        self.disabled: str | None = None


_hooks = _HooksState()
_open_blocks = 0  # saved_tensors_hooks blocks open in any thread
_open_lock = threading.Lock()


def _incompatible(name: str, signature: str, args: tuple) -> TypeError:
    """The TypeError PyTorch's bindings raise for an argument of the wrong type."""
    return TypeError(
        f"{name}(): incompatible function arguments. The following argument types are "
        f"supported:\n    1. ({signature}arg0: collections.abc.Callable, arg1: "
        f"collections.abc.Callable) -> None\n\nInvoked with: {', '.join(map(repr, args))}")


class _HookedSaved:
    """A saved tensor packed by hooks: it keeps ``pack_hook(tensor)`` and where the tensor's
    gradient flows (its edge), never the tensor. ``unpack`` gives ``unpack_hook(packed)`` as a
    new tensor with that history. As in PyTorch, no version is checked: the hooks own the
    values (a pack hook must not change its input in place, which is checked)."""

    __slots__ = ("packed", "unpack_hook", "edge")
    tensor = None  # the tensor is not kept (``walk`` shows nothing for it)
    origin = None  # ``unpack`` gives the history itself

    def __init__(self, tensor, pack_hook, unpack_hook, edge) -> None:
        version = tensor._version
        with grad_mode.no_grad():
            self.packed = pack_hook(tensor)
        if tensor._version != version:
            raise RuntimeError(_PACK_INPLACE)
        self.unpack_hook, self.edge = unpack_hook, edge

    def unpack(self):
        data = self.unpack_hook(self.packed)
        if not isinstance(data, function.Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got "
                            f"result of type {type(data).__name__}")
        out = data.detach()
        node, nr = self.edge
        if type(node) is AccumulateGrad:  # a leaf: its gradient reaches the saved leaf's .grad
            out._requires_grad, out._leaf_edge = True, self.edge
        elif node is not None:
            out._set_history(node, nr)
        return out


def _edge_of(saved) -> tuple:
    """Where the gradient of a saved tensor flows: its node (an output saved by its own node
    names it in ``origin``), the ``AccumulateGrad`` of a leaf, or nowhere."""
    t = saved.tensor
    return saved.origin or (t._edge() if t._requires_grad else (None, 0))


def _pack_node(node, outputs: tuple) -> None:
    """A watcher of the nodes being made: pack what a node just recorded saved, with this
    thread's innermost hooks (another thread's open block packs nothing here)."""
    if _hooks.stack and node._saved and node._saved is not _FREED:
        pack_hook, unpack_hook = _hooks.stack[-1]
        node._saved = tuple([None if s is None else _HookedSaved(s.tensor, pack_hook, unpack_hook,
                                                                 _edge_of(s))
                             for s in node._saved])


class saved_tensors_hooks:  # noqa: N801
    """Context manager: within it, ``pack_hook(tensor)`` runs (under ``no_grad``) each time an
    operation saves a tensor for backward, and what it returns is kept instead of the tensor;
    ``unpack_hook(packed)`` runs when the saved tensor is needed and must return a tensor with
    the same values. The hooks of the block open when a tensor was saved are the ones used.
    Blocks nest (the innermost pair applies) and belong to their thread.

    >>> import minitorch
    >>> from minitorch.autograd.graph import saved_tensors_hooks
    >>> a = minitorch.ones(2, requires_grad=True)
    >>> with saved_tensors_hooks(lambda t: t.tolist(), lambda p: minitorch.tensor(p)):
    ...     y = (a * a).sum()
    >>> y.backward(); a.grad
    tensor([2., 2.])
    """

    def __init__(self, pack_hook, unpack_hook) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        global _open_blocks
        if not (callable(self.pack_hook) and callable(self.unpack_hook)):
            raise _incompatible("_push_saved_tensors_default_hooks", "",
                                (self.pack_hook, self.unpack_hook))
        if _hooks.disabled is not None:
            raise RuntimeError(_hooks.disabled)
        _hooks.stack.append((self.pack_hook, self.unpack_hook))
        with _open_lock:
            _open_blocks += 1
            if _open_blocks == 1:
                function.node_watchers.append(_pack_node)

    def __exit__(self, *exc) -> None:
        global _open_blocks
        _hooks.stack.pop()
        with _open_lock:
            _open_blocks -= 1
            if not _open_blocks:
                function.node_watchers.remove(_pack_node)


class save_on_cpu(saved_tensors_hooks):  # noqa: N801
    """Saved tensors are kept on the CPU and moved back to their device when backward needs
    them (a CPU tensor stays as it is; ``pin_memory=True`` keeps a copy)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            packed = tensor.new_empty(tensor.size(), device="cpu")
            packed.copy_(tensor)
            return (tensor.device, packed)

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Context manager: opening ``saved_tensors_hooks`` inside it raises
    ``RuntimeError(error_message)`` (and so does opening it while hooks are open)."""
    previous = _hooks.disabled
    try:
        _hooks.disabled = error_message
        if _hooks.stack:
            raise RuntimeError(error_message)
        yield
    finally:
        _hooks.disabled = previous


class SavedTensor:
    """``grad_fn._raw_saved_<name>``: one saved tensor of a node, as
    ``torch._C._autograd.SavedTensor``, whose ``register_hooks(pack_hook, unpack_hook)`` packs
    it now, and unpacks it when it is needed."""

    def __init__(self, node, i: int) -> None:
        self._node, self._i = node, i

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        if not (callable(pack_hook) and callable(unpack_hook)):
            raise _incompatible("register_hooks",
                                "self: torch._C._autograd.SavedTensor, ", (self, pack_hook,
                                                                          unpack_hook))
        node, i = self._node, self._i
        saved = node._saved
        if (saved is _FREED and node._freed_none and node._freed_none[i]) or (
                saved is not _FREED and saved[i] is None):
            raise RuntimeError("Calling register_hooks on a saved tensor with value None is "
                               "forbidden")
        if saved is _FREED:
            raise RuntimeError(_RAW_FREED)
        if type(saved[i]) is _HookedSaved:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already "
                               "been set. Hint: only one pair of hooks is allowed at a time.")
        hooked = _HookedSaved(saved[i].tensor.detach(), pack_hook, unpack_hook, _edge_of(saved[i]))
        node._saved = saved[:i] + (hooked,) + saved[i + 1:]


function._raw_saved = SavedTensor


class Node(abc.ABC):
    """``torch.autograd.graph.Node``: what every node of the backward graph is.

    ``isinstance(t.grad_fn, Node)`` holds for every node minitorch records (they are
    ``function.Node``s) and for ``AccumulateGrad``; a class of one's own may subclass it and
    implement the abstract methods.
    """

    @abc.abstractmethod
    def name(self) -> str:
        """The node's name, such as ``"MulBackward0"``."""
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def next_functions(self) -> tuple:
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def metadata(self) -> dict:
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def _sequence_nr(self) -> int:
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def _input_metadata(self) -> list:
        raise NotImplementedError

    @abc.abstractmethod
    def _register_hook_dict(self, tensor) -> None:
        raise NotImplementedError

    @abc.abstractmethod
    def register_hook(self, fn):
        """Call ``fn(grad_inputs, grad_outputs)`` after the node runs in backward."""
        raise NotImplementedError

    @abc.abstractmethod
    def register_prehook(self, fn):
        """Call ``fn(grad_outputs)`` before the node runs in backward."""
        raise NotImplementedError

    @classmethod
    def __subclasshook__(cls, subclass: type) -> bool:
        if cls is Node and issubclass(subclass, function.Node):
            return True
        return NotImplemented


class GradientEdge(NamedTuple):
    """Where the gradient of a tensor is computed: a node and which of its outputs."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor) -> GradientEdge:
    """The gradient edge of ``tensor``: its ``grad_fn`` and output number, or the
    ``AccumulateGrad`` node of a leaf."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does "
                           "not require gradients")
    node, output_nr = tensor._edge()
    return GradientEdge(node, output_nr)


def increment_version(tensor) -> None:
    """Count an in-place change of ``tensor`` (or of each tensor in an iterable) that autograd
    could not see, so that a graph that saved it raises the in-place error. Inference tensors
    have no version counter and are left alone, as in PyTorch."""
    for t in (tensor,) if isinstance(tensor, function.Tensor) else tensor:
        if not t.is_inference():
            t.detach()._version_counter.value += 1  # (detach gives t a counter if it had none)


# ---------------------------------------------------------------- multigradhook task
# ``register_multi_grad_hook`` needs what PyTorch asks its engine: which backward pass is
# running, and whether it will run a given node. The engine is left as the chapters show it:
# the pass running now is the innermost frame of ``engine._run`` on the stack, and its locals
# say which nodes it reaches (``deps``) and which edges ``grad()`` / ``backward(inputs=...)``
# capture (the ``_Capture`` among ``extra_observers``). ``backward(inputs=...)`` accumulates
# into the leaves (and runs their hooks) after ``_run``, in its own frame, with that capture.

class _Backward(NamedTuple):
    token: object  # the same object for the whole pass, another for any other pass
    reached: dict | None  # every node reachable from the roots (None: after the pass)
    captures: list  # the _Capture observers (grad(), backward(inputs=...)), else empty
    leaf_hooks: bool  # whether the hooks of leaf tensors run for this pass


def _running_backward() -> _Backward | None:
    """The innermost backward pass running in this thread, or None outside backward."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code is engine._run.__code__:
            loc = frame.f_locals
            captures = [o for o in loc["extra_observers"] if isinstance(o, engine._Capture)]
            caller = frame.f_back.f_code if frame.f_back is not None else None
            return _Backward(captures[0] if captures else loc["tiebreak"], loc["deps"],
                             captures, not captures or caller is engine.backward.__code__)
        if frame.f_code is engine.backward.__code__ and "capture" in frame.f_locals:
            capture = frame.f_locals["capture"]
            return _Backward(capture, None, [capture], True)
        frame = frame.f_back
    return None


def _will_execute(run: _Backward) -> set:
    """The nodes that PyTorch's engine would run in ``run``: all it reaches, or, when only some
    inputs' gradients are asked for, those on a path to them."""
    if run.reached is None:  # after backward(inputs=...)'s pass: the leaves it accumulates into
        return {node for c in run.captures for (node, _), g in c.found.items() if g is not None}
    if not run.captures:
        return set(run.reached)
    parents: dict = {}
    for node in run.reached:
        for nxt, _ in node._next:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
    stack = [node for c in run.captures for node, _ in c.found if node in run.reached]
    needed = set(stack)
    while stack:
        for parent in parents.get(stack.pop(), ()):
            if parent not in needed:
                needed.add(parent)
                stack.append(parent)
    return needed


class _MultiHandle:
    """The handle ``register_multi_grad_hook`` returns: ``remove()`` removes every hook."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """Call ``fn`` once per backward pass for a group of tensors.

    ``mode="all"``: ``fn(grads)`` once the gradient of every tensor that the pass computes has
    been computed, with None for the tensors it does not reach (or does not need). ``"any"``:
    ``fn(grad)`` with the first of their gradients computed in the pass. Returns a handle whose
    ``remove()`` removes the hook.

    >>> import minitorch
    >>> a, b = minitorch.ones(2, requires_grad=True), minitorch.ones(2, requires_grad=True)
    >>> c, d = a * b, a * b
    >>> h = register_multi_grad_hook((a, b, c, d), lambda gs: print([g is not None for g in gs]))
    >>> c.sum().backward()
    [True, True, True, False]

    Not as in PyTorch: ``grad()`` runs no hooks of leaf tensors in minitorch, so the leaves of
    the group are left out there (None); ``backward(inputs=...)`` runs them after the pass, so
    ``fn`` may run after it.
    """
    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")
    tensors = tuple(tensors)
    nodes = [t._edge()[0] for t in tensors] if mode == "all" else None
    if nodes is not None and None in nodes:
        raise AssertionError("Expected gradient function to be set")
    lock = threading.Lock()
    passes: dict = {}  # token of a pass -> its state, until fn ran for it

    def state_of(run: _Backward) -> dict | None:
        with lock:
            if run.token not in passes:
                runs = _will_execute(run)
                if not run.leaf_hooks:  # grad() runs no leaf's hooks
                    runs = {n for n in runs if type(n) is not AccumulateGrad}
                passes[run.token] = {"runs": runs, "count": 0, "buffer": [None] * len(tensors),
                                     "calls": sum(n in runs for n in nodes or ()),
                                     "done": False}
            return passes[run.token]

    def inner_hook(idx: int, grad) -> None:
        run = _running_backward()
        if run is None:
            return
        state = state_of(run)
        if (nodes[idx] if nodes else tensors[idx]._edge()[0]) not in state["runs"]:
            return  # a node PyTorch would not run in this pass
        if mode == "any":
            if not state["done"]:
                state["done"] = True
                fn(grad)
            return
        state["buffer"][idx] = grad
        state["count"] += 1
        if state["count"] == state["calls"]:
            del passes[run.token]
            fn(state["buffer"])

    if mode == "all":
        handles = tuple(t.register_hook(lambda g, i=i: inner_hook(i, g))
                        for i, t in enumerate(tensors))
    else:
        handles = tuple(t.register_hook(lambda g, i=i: inner_hook(i, g))
                        for i, t in enumerate(tensors) if t.requires_grad)
    return _MultiHandle(handles)

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
import threading
import weakref
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

from minitorch.autograd import engine, function, grad_mode
from minitorch.autograd.function import _FREED, AccumulateGrad

__all__ = ["GraphNode", "GraphEdge", "Graph", "walk", "saved_tensors",
           # savedhooks task: PyTorch's torch.autograd.graph
           "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "Node",
           "GradientEdge", "get_gradient_edge", "increment_version", "register_multi_grad_hook"]


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
    values (a pack hook must not change its input in place, which is checked). A node that
    unpacks in its own order as backward begins (see :func:`_pack_in_order`) leaves the tensor
    in ``ready``, which the next ``unpack`` hands over instead of calling the hook again."""

    __slots__ = ("packed", "unpack_hook", "edge", "ready")
    tensor = None  # the tensor is not kept (``walk`` shows nothing for it)
    origin = None  # ``unpack`` gives the history itself

    def __init__(self, tensor, pack_hook, unpack_hook, edge) -> None:
        version = tensor._version
        with grad_mode.no_grad():
            self.packed = pack_hook(tensor)
        if tensor._version != version:
            raise RuntimeError(_PACK_INPLACE)
        self.unpack_hook, self.edge, self.ready = unpack_hook, edge, None

    def unpack(self):
        ready = self.ready
        if ready is not None:
            self.ready = None
            return ready
        return self.unpack_now()

    def unpack_now(self):
        """Call the unpack hook (the tensor it gives, with the saved tensor's history)."""
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
    thread's innermost hooks (another thread's open block packs nothing here).

    A Function whose ``pack_order`` lists what PyTorch's node saves, in the order PyTorch packs
    it, is packed in that order (see :func:`_pack_in_order`)."""
    if not _hooks.stack or node._saved is _FREED:
        return
    pack_hook, unpack_hook = _hooks.stack[-1]
    order = getattr(node._forward_cls, "pack_order", None)
    if order is not None:
        _pack_in_order(node, order, pack_hook, unpack_hook)
    elif node._saved:
        node._saved = tuple([None if s is None else _HookedSaved(s.tensor, pack_hook, unpack_hook,
                                                                 _edge_of(s))
                             for s in node._saved])


def _pack_in_order(node, order: tuple, pack_hook, unpack_hook) -> None:
    """Pack a node's saved tensors in PyTorch's order. ``order`` lists positions in what
    ``save_for_backward`` got (PyTorch's ``mul`` packs ``other`` before ``self``: ``(1, 0)``)
    and, for what PyTorch saves but minitorch keeps otherwise (integer indices, a target, the
    statistics of a norm), the name of the node's attribute that gives it, or a function of the
    node: a tensor, None (nothing) or a list of them. Those extra tensors are packed
    too. An extra named by an attribute of the node that holds the tensor (``ctx.indices``)
    is replaced by what the unpack hook gave, so backward reads that, as PyTorch's does; a
    getter paired with a setter, ``(get, put)``, has ``put(node, unpacked)`` write the
    unpacked tensors back where backward reads them. The saved tensors not
    listed are packed after them, except the positions in the Function's ``pack_skip`` (a
    number PyTorch keeps as a Scalar, which minitorch saves as a 0-d tensor).

    PyTorch's node unpacks all it saved as its backward begins, in the order it packed them:
    so does this one's (a pre-hook), where that order is not simply the positions (the
    unpacked saved tensors wait in ``ready`` for ``saved_tensors``, which each backward reads
    whole). A Function's ``pack_before(node)``, a context
    manager, is open while packing (batch_norm's shows its running stats as they were before
    forward updated them, as PyTorch packs its inputs before the kernel runs)."""
    extras = {}  # worked out first: a getter may read ``saved_tensors``, still unpacked here
    for key in order:
        if not isinstance(key, int):
            get = key[0] if isinstance(key, tuple) else key
            got = get(node) if callable(get) else getattr(node, get)
            extras[key] = got if isinstance(got, list | tuple) else [got]
    saved, in_order = list(node._saved), []  # (hooked, where the unpacked ones go)
    skip = order + getattr(node._forward_cls, "pack_skip", ())
    before = getattr(node._forward_cls, "pack_before", None)
    with contextlib.nullcontext() if before is None else before(node):
        for key in order + tuple(i for i in range(len(saved)) if i not in skip):
            if isinstance(key, int):
                s = saved[key] if key < len(saved) else None  # (a subclass may save fewer)
                if s is not None:
                    saved[key] = _HookedSaved(s.tensor, pack_hook, unpack_hook, _edge_of(s))
                    in_order.append(([saved[key]], _READY))
                continue
            settable = isinstance(key, str) and key in vars(node)  # (not a property of the node)
            hooked = [_HookedSaved(t, pack_hook, unpack_hook,
                                   t._edge() if t._requires_grad else (None, 0))
                      for t in extras[key] if t is not None]
            if isinstance(key, tuple):  # (get, put): put(node, the unpacked tensors)
                in_order.append((hooked, key[1]))
            else:
                in_order += [([h], key if settable and extras[key][0] is getattr(
                    node, key) else None) for h in hooked]
    node._saved = tuple(saved)
    positions = [hooked[0] for hooked, put in in_order if put is _READY]
    if len(positions) == len(in_order) and positions == [s for s in saved if s in positions]:
        return  # only saved tensors, packed in their order: ``saved_tensors`` unpacks them so
    node_ref = weakref.ref(node)  # (no cycle through the node's own hooks)

    def unpack_in_order(grads) -> None:
        for hooked, put in in_order:
            tensors = [h.unpack_now() for h in hooked]
            if put is _READY:
                hooked[0].ready = tensors[0]
            elif isinstance(put, str):
                setattr(node_ref(), put, tensors[0])
            elif put is not None:
                put(node_ref(), tensors)

    unpack_in_order.unpacks_saved = True  # (it stays the last pre-hook, as PyTorch unpacks
    node.register_prehook(unpack_in_order)  # in the node's apply, after the pre-hooks)
    node._unpack_extras = unpack_in_order  # (CopySlices runs its in-place op's node itself)


_READY = object()  # (in ``_pack_in_order``: a saved tensor, left ``ready`` for backward)


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


# ---------------------------------------------------------------- register_multi_grad_hook
class _MultiHandle:
    """What ``register_multi_grad_hook`` returns: ``remove()`` removes the hook of every tensor."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def _running_pass():
    """The backward pass running in this thread (PyTorch's graph task): hooks run inside one."""
    if not engine.passes.running:
        raise AssertionError("expected this hook to be called inside a backward call")
    return engine.passes.running[-1]


def _node_of(t):
    """The node that computes the gradient of ``t``: its ``grad_fn``, a leaf's
    ``AccumulateGrad``, or a ``GradientEdge``'s node."""
    node = t.node if isinstance(t, GradientEdge) else (t._edge()[0] if t.requires_grad else None)
    if node is None:
        raise AssertionError("Expected gradient function to be set")
    return node


def _will_run(run, node) -> bool:
    """Whether the pass ``run`` will run ``node``; PyTorch cannot tell for a leaf that grad()
    was asked about."""
    if type(node) is AccumulateGrad and isinstance(run, engine._Capture) and \
            not run.run_targets and node in run.targets:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are "
                           "currently running autograd.grad(). This is currently not supported.")
    return run.will_run(node)


def register_multi_grad_hook(tensors, fn, *, mode: str = "all"):
    """Call ``fn`` once per backward pass for a group of tensors, as PyTorch does.

    ``mode="all"``: ``fn(grads)`` once the gradients of all the tensors that the pass computes
    are there, with None for those it does not compute. ``mode="any"``: ``fn(grad)`` with the
    first gradient of the group that the pass computes. Each pass counts on its own (the
    engine's ``passes.running`` says which pass a hook runs in, and ``will_run`` whether it
    reaches a node). Returns a handle whose ``remove()`` removes the hooks.

    >>> import minitorch
    >>> a, b = minitorch.ones(2, requires_grad=True), minitorch.ones(2, requires_grad=True)
    >>> c = a * b
    >>> h = register_multi_grad_hook((a, b, c), lambda gs: print([g is not None for g in gs]))
    >>> c.sum().backward()
    [True, True, True]
    >>> (a * 3).sum().backward()
    [True, False, False]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of {('all', 'any')} but got {mode}")
    lock = threading.Lock()
    if mode == "any":
        ran: set = set()

        def first(grad) -> None:
            run = _running_pass()
            with lock:
                seen, _ = run in ran, ran.add(run)
            if not seen:
                fn(grad)

        return _MultiHandle(tuple(t.register_hook(first) for t in tensors if t.requires_grad))
    nodes = [_node_of(t) for t in tensors]
    counts: dict = {}  # pass -> gradients seen so far; and the pass's gradients, by position
    arrived: dict = {}

    def hook_of(i: int):
        def hook(grad) -> None:
            run = _running_pass()
            with lock:
                count = counts.get(run, 0)
                counts[run] = count + 1
                expected = sum(_will_run(run, node) for node in nodes)
            arrived.setdefault(run, [None] * len(nodes))[i] = grad
            if count == expected - 1:  # the last of the gradients this pass computes
                fn(arrived.pop(run))
                del counts[run]
        return hook

    return _MultiHandle(tuple(t.register_hook(hook_of(i)) for i, t in enumerate(tensors)))

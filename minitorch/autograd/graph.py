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

from collections import deque
from dataclasses import dataclass, field

from minitorch.autograd.function import _FREED, AccumulateGrad

__all__ = ["GraphNode", "GraphEdge", "Graph", "walk", "saved_tensors"]


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
    """The tensors ``node`` saved for backward, or None if a backward already freed them."""
    saved = getattr(node, "_saved", ())
    if saved is _FREED:
        return None
    return [s.tensor for s in saved if s is not None]


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

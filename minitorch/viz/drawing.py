"""``draw_graph``: a picture of the backward graph behind one or more tensors.

The picture is built from :func:`minitorch.autograd.graph.walk`, so node ids follow walk order
(``n0`` is the first root's ``grad_fn``) and the same code always gives the same DOT and SVG.

Example:
    >>> import minitorch
    >>> from minitorch.viz import draw_graph
    >>> w = minitorch.ones(3, requires_grad=True)
    >>> loss = (w * 2).sum()
    >>> print(draw_graph(loss, params={"w": w}).text)
    output ()
    └── SumBackward0
        └── MulBackward0
            └── w (3,)  · AccumulateGrad  [leaf]
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from minitorch.autograd.graph import walk
from minitorch.viz._dot import dot_available, failure_text, run_dot
from minitorch.viz._format import dtype_text, grad_text, shape_text, values_text
from minitorch.viz._scene import Scene, SceneEdge, SceneNode, dot_source, to_dot, to_text

__all__ = ["draw_graph", "GraphDrawing"]

COLLAPSE_AT = 8  # chains of this many identical ops become one box
SMALL = 6  # tensors with at most this many elements show their values


class GraphDrawing:
    """A drawn graph: DOT text, a ``graphviz.Digraph``, SVG, and a text fallback.

    In Jupyter it shows itself as SVG; without Graphviz's ``dot`` program it shows a
    one-line hint on installing Graphviz and the graph as an indented tree.

    Attributes:
        scene: the picture as plain data (nodes, edges), used by tests and by the stepper.
    """

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self._name, self._lines = to_dot(scene)
        self._source = dot_source(scene)
        self._svg: str | None = None

    @property
    def source(self) -> str:
        """The DOT text (byte-for-byte the same for the same graph)."""
        return self._source

    @property
    def digraph(self):
        """The picture as a ``graphviz.Digraph`` (needs the ``graphviz`` Python package)."""
        try:
            import graphviz  # only when a Digraph is asked for
        except ImportError as e:
            raise ImportError("draw_graph(...).digraph needs the graphviz package: "
                              "pip install graphviz") from e
        return graphviz.Digraph(name=self._name, body=list(self._lines))

    @property
    def text(self) -> str:
        """The same graph as an indented tree, from the outputs back to the leaves."""
        return to_text(self.scene)

    def pipe(self, format: str = "svg") -> bytes:  # noqa: A002  (graphviz's name)
        """The picture in ``format`` (``svg``, ``png``, ``pdf``), drawn by ``dot``."""
        return run_dot(self._source, format)

    def svg(self) -> str:
        """The SVG picture (computed once), from the ``<svg`` tag on."""
        if self._svg is None:
            text = self.pipe("svg").decode("utf-8")
            self._svg = text[text.find("<svg"):]
        return self._svg

    def render(self, filename: str | None = None, directory: str | None = None,
               format: str = "png", **kwargs) -> str:  # noqa: A002
        """Write the picture to a file with ``graphviz`` and return its path."""
        return self.digraph.render(filename=filename, directory=directory, format=format,
                                   **kwargs)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        error = None
        if dot_available():
            try:
                return {"image/svg+xml": self.svg(), "text/plain": self.text}
            except RuntimeError as e:  # dot is there but failed: show what it said
                error = e
        text = failure_text(error) + "\n" + self.text
        return {"text/plain": text, "text/html": f"<pre>{html.escape(text)}</pre>"}

    def __repr__(self) -> str:
        n = sum(1 for node in self.scene.nodes if node.kind in ("op", "leaf"))
        return f"<GraphDrawing: {n} nodes>\n{self.text}"


@dataclass
class _Unit:
    """A box of the picture: one graph node, or a collapsed chain of identical ones."""

    first: int
    members: list


def _collapse(g, at: int | None) -> list:
    """Group the walk's nodes into boxes: long chains of identical ops become one."""
    n = len(g.nodes)
    outs = [[] for _ in range(n)]
    ins = [[] for _ in range(n)]
    for e in g.edges:
        outs[e.src].append(e.dst)
        ins[e.dst].append(e.src)
    unit_of = [-1] * n
    units: list = []
    for node in g.nodes:
        i = node.id
        if unit_of[i] != -1:
            continue
        members = [i]
        if at and not node.is_leaf:
            # Extend while the chain is linear (one way out, one way in) with the same op.
            j = i
            while len(outs[j]) == 1:
                k = outs[j][0]
                if (len(ins[k]) != 1 or unit_of[k] != -1 or g.nodes[k].is_leaf
                        or g.nodes[k].name != node.name):
                    break
                members.append(k)
                j = k
            if len(members) < at:
                members = [i]
        for m in members:
            unit_of[m] = len(units)
        units.append(_Unit(i, members))
    return units


def _is(a, b) -> bool:
    return a is b or (getattr(a, "_data", None) is not None and a._data is getattr(b, "_data", 0))


def _validate(roots: tuple, params, max_nodes, collapse) -> None:
    """Clear errors for arguments that would otherwise fail deep inside, or draw nonsense."""
    from minitorch._tensor import Tensor

    if not roots:
        raise ValueError("draw_graph() needs at least one tensor, e.g. draw_graph(loss)")
    for i, t in enumerate(roots):
        if not isinstance(t, Tensor):
            raise TypeError(f"draw_graph() expects tensors, but argument {i} is a "
                            f"{type(t).__name__}")
    if params is not None:
        if not hasattr(params, "items"):
            raise TypeError("params must be a dict of names to tensors, e.g. {'w': w}; got a "
                            f"{type(params).__name__}")
        for name, t in params.items():
            if not isinstance(name, str):
                raise TypeError(f"params' names must be strings; got {name!r}")
            if not isinstance(t, Tensor):
                raise TypeError(f"params[{name!r}] must be a tensor, not a {type(t).__name__}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)):
        raise TypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if max_nodes is not None and max_nodes <= 0:
        raise ValueError(f"max_nodes must be at least 1 (or None to draw every node), "
                         f"got {max_nodes}")
    if collapse is not None and (isinstance(collapse, bool) or not isinstance(collapse, int)
                                 or collapse < 0):
        raise ValueError(f"collapse must be None or a non-negative int, got {collapse!r}")


def build_scene(roots: tuple, params: dict | None = None, show_saved: bool = False,
                show_grad: bool = False, show_data: bool = False,
                max_nodes: int | None = None, module=None,
                collapse: int | None = COLLAPSE_AT) -> tuple[Scene, object, list]:
    """The picture of ``roots``' graph as a :class:`Scene`, with the walk and the boxes."""
    _validate(roots, params, max_nodes, collapse)
    scope_of, labels = {}, {}
    if module is not None:
        if hasattr(module, "scope_of"):  # a track_modules recording
            scope_of, labels = module.scope_of, module.labels
            if params is None:
                params = module.parameters
        else:
            from minitorch.viz.modules import module_names

            labels = {p: (type(m).__name__ if p == "" else f"{p}: {type(m).__name__}")
                      for p, m in module_names(module)}
            if params is None and callable(getattr(module, "named_parameters", None)):
                params = dict(module.named_parameters())
    params = dict(params or {})
    grouped = module is not None
    name_of = {}
    for name, t in params.items():
        name_of.setdefault(id(t), name)

    g = walk(*roots)
    units = _collapse(g, collapse)
    kept = units if max_nodes is None else units[:max(0, max_nodes)]
    unit_key = {}
    for u in kept:
        for m in u.members:
            unit_key[m] = f"n{u.first}"
    scene = Scene(clusters=dict(labels))
    drawn = {}  # id(tensor) -> scene key, for tensors that have a box

    def leaf_title(t) -> tuple[str, str | None]:
        name = name_of.get(id(t))
        cluster = None
        if name is not None and grouped:
            cluster = name.rsplit(".", 1)[0] if "." in name else ""
            name = name.rsplit(".", 1)[-1]
        return (f"{name} {shape_text(t)}" if name else shape_text(t)), cluster

    def tensor_details(t, grad: bool) -> list:
        details = []
        if show_data and t.numel() <= SMALL:
            details.append(f"data: {values_text(t)}")
        if grad and show_grad:
            g = t._grad
            text = grad_text(g, SMALL)
            details.append(f"grad: shape {text}" if g is not None and g.numel() > SMALL
                           else f"grad: {text}")
        return details

    # Non-leaf tensors named in params: note them in the box of the op that made them.
    made_by = {}
    for name, t in params.items():
        fn = getattr(t, "grad_fn", None)
        if fn is not None and not any(t is r for r in roots):  # roots get their own box
            made_by.setdefault(fn, []).append(f"→ {name} {shape_text(t)}")

    for u in kept:
        node = g.nodes[u.first]
        key = f"n{u.first}"
        if len(u.members) > 1:
            scene.nodes.append(SceneNode(key, "op", f"{node.name} ×{len(u.members)}",
                                         [f"a chain of {len(u.members)} identical ops"],
                                         cluster=scope_of.get(node.node, None)))
            continue
        if node.is_leaf:
            title, cluster = leaf_title(node.tensor)
            scene.nodes.append(SceneNode(key, "leaf", title,
                                         ["AccumulateGrad", *tensor_details(node.tensor, True)],
                                         cluster=cluster))
            drawn[id(node.tensor)] = key
            continue
        details = list(made_by.get(node.node, []))
        if node.name == "CopySlices":  # an in-place op on a view rewrote this tensor's history
            details.append(f"{node.node.fn.name()} on a view")
        if show_saved and node.saved is None:
            details.append("saved tensors: freed")
        scene.nodes.append(SceneNode(key, "op", node.name, details,
                                     cluster=scope_of.get(node.node, None)))

    # Edges, drawn in the forward direction (input -> the op that used it).
    for e in g.edges:
        a, b = unit_key.get(e.dst), unit_key.get(e.src)
        if a is None or b is None or a == b:
            continue
        scene.edges.append(SceneEdge(a, b))
    hidden = sum(len(u.members) for u in units) - sum(len(u.members) for u in kept)
    if hidden:
        scene.nodes.append(SceneNode("more", "more", f"… {hidden} more nodes",
                                     ["(raise max_nodes to draw them)"]))
        heads = []
        for e in g.edges:
            b = unit_key.get(e.src)
            if b is not None and e.dst not in unit_key and b not in heads:
                heads.append(b)
        scene.edges.extend(SceneEdge("more", b, "more") for b in heads)

    # The roots: an output box under each root's grad_fn.
    root_node = dict(g.root_edges)
    for r, t in enumerate(roots):
        name = name_of.get(id(t)) or ("output" if len(roots) == 1 else f"output {r}")
        if r in root_node:
            if g.nodes[root_node[r]].is_leaf:
                continue  # the root is a leaf tensor: its own box is the output
            key = unit_key.get(root_node[r])
            if key is None:
                continue
            scene.nodes.append(SceneNode(f"out{r}", "output", f"{name} {shape_text(t)}",
                                         tensor_details(t, False)))
            scene.edges.append(SceneEdge(key, f"out{r}", "output"))
        else:
            scene.nodes.append(SceneNode(f"out{r}", "nograph", f"{name} {shape_text(t)}",
                                         ["requires_grad=False: no graph was recorded"]))

    # Parameters that are not in the graph: frozen ones (requires_grad=False) and unused ones.
    saved_by = [(f"n{u.first}", g.nodes[u.first].saved or []) for u in kept
                if len(u.members) == 1 and not g.nodes[u.first].is_leaf]
    in_graph = {id(n.tensor) for n in g.nodes if n.is_leaf}
    for k, t in enumerate(params.values()):
        if id(t) in drawn or id(t) in in_graph or getattr(t, "grad_fn", None) is not None:
            continue
        if any(t is r for r in roots):
            continue
        title, cluster = leaf_title(t)
        key = f"p{k}"
        users = [op for op, saved in saved_by if any(_is(s, t) for s in saved)]
        if t.requires_grad:
            scene.nodes.append(SceneNode(key, "unused", title,
                                         ["not used by this graph", *tensor_details(t, True)],
                                         cluster=cluster))
        elif users:
            scene.nodes.append(SceneNode(key, "frozen", title,
                                         ["used, but gets no gradient", *tensor_details(t, False)],
                                         cluster=cluster))
            scene.edges.extend(SceneEdge(key, op, "nograd") for op in users)
        else:
            scene.nodes.append(SceneNode(key, "frozen", title,
                                         ["requires_grad=False", *tensor_details(t, False)],
                                         cluster=cluster))
        drawn[id(t)] = key

    # Saved tensors: an orange box each (or a dashed edge from a box already drawn).
    if show_saved:
        linked = {(e.tail, e.head) for e in scene.edges}
        count = 0
        for op, saved in saved_by:
            for s in saved:
                key = drawn.get(id(s))
                if key is None:
                    key = f"s{count}"
                    count += 1
                    name = name_of.get(id(s))
                    title = f"{name} {shape_text(s)}" if name else f"saved {shape_text(s)}"
                    scene.nodes.append(SceneNode(key, "saved", title, [dtype_text(s)]))
                    drawn[id(s)] = key
                if (key, op) not in linked:
                    linked.add((key, op))
                    scene.edges.append(SceneEdge(key, op, "saved"))
    return scene, g, units


def draw_graph(*roots, params: dict | None = None, show_saved: bool = False,
               show_grad: bool = False, show_data: bool = False, max_nodes: int | None = None,
               module=None, collapse: int | None = COLLAPSE_AT) -> GraphDrawing:
    """Draw the backward graph of ``roots``, as torchviz's ``make_dot`` (but deterministic).

    Args:
        roots: one or more tensors (usually the loss).
        params: names for tensors, ``{"w": w, "b": b}`` or ``dict(model.named_parameters())``.
            Leaves are labelled with them; named tensors with ``requires_grad=False`` are drawn
            greyed (linked to the op that saved them, if any); named outputs of ops are noted
            in the op's box.
        show_saved: draw what each op saved for backward (or "freed" after a backward).
        show_grad: write each leaf's ``.grad`` (values if at most 6 elements, else shape).
        show_data: write the values of small leaves.
        max_nodes: draw at most this many boxes; the rest become "… N more nodes".
        module: a ``track_modules(model)`` recording (boxes grouped by the module that made
            them) or a model (parameter names, grouped by module).
        collapse: chains of at least this many identical ops become one box
            (``MulBackward0 ×1000``); ``None`` or ``0`` draws every node.

    Returns:
        A :class:`GraphDrawing` (``.source``, ``.digraph``, ``.text``, ``.svg()``); Jupyter
        shows it as SVG.

    Example:
        >>> import minitorch
        >>> x = minitorch.tensor(2.0, requires_grad=True)
        >>> d = draw_graph(x * x + x, params={"x": x})
        >>> "x ()" in d.source and "MulBackward0" in d.source
        True
    """
    scene, _, _ = build_scene(roots, params, show_saved, show_grad, show_data, max_nodes,
                              module, collapse)
    return GraphDrawing(scene)

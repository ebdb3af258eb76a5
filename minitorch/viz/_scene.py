"""A picture as plain data (nodes, edges, clusters), and its two renderings: DOT and text.

Every view in ``minitorch.viz`` (the graph, the backward stepper, the forward recorder)
first builds a :class:`Scene`; :func:`to_dot` writes it for Graphviz and :func:`to_text` as an
indented tree for places without Graphviz. Node keys come from walk order (``n0``, ``n1``,
...), so a scene never depends on memory addresses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minitorch.viz._dot import HTML, attrs, escape

__all__ = ["SceneNode", "SceneEdge", "Scene", "to_dot", "to_text", "STYLES"]

FONT = "Helvetica,Arial,sans-serif"
INK = "#333333"
MUTED = "#6B6B6B"
GRAD = "#C2185B"  # gradients flowing in the stepper

# kind -> (legend text, node attributes)
STYLES: dict = {
    "output": ("output (a root)", {"shape": "box", "style": "filled", "fillcolor": "#D5EFCF",
                                    "color": "#4E9A44"}),
    "op": ("backward function (grad_fn)", {"shape": "box", "style": "rounded,filled",
                                            "fillcolor": "#EFEFEF", "color": "#9A9A9A"}),
    "leaf": ("leaf, requires_grad=True", {"shape": "box", "style": "filled",
                                           "fillcolor": "#CFE3F5", "color": "#3C78B4"}),
    "frozen": ("requires_grad=False: not in the graph", {
        "shape": "box", "style": "dashed,filled", "fillcolor": "#FAFAFA", "color": "#B0B0B0",
        "fontcolor": "#8A8A8A"}),
    "unused": ("requires_grad=True, but not used", {
        "shape": "box", "style": "dashed,filled", "fillcolor": "#F2F7FC", "color": "#7FA7CF",
        "fontcolor": "#5A7FA6"}),
    "saved": ("saved for backward", {"shape": "box", "style": "filled", "fillcolor": "#FDE3C8",
                                     "color": "#E0823D"}),
    "earlier": ("recorded earlier", {"shape": "box", "style": "rounded,dashed",
                                     "color": "#9A9A9A", "fontcolor": MUTED}),
    "more": ("not drawn", {"shape": "plaintext", "fontcolor": MUTED}),
    "nograph": ("no graph", {"shape": "box", "style": "dashed", "color": "#B0B0B0",
                             "fontcolor": MUTED}),
}

# states used by the stepper and the forward recorder: extra node attributes
STATE_STYLES: dict = {
    "running": {"fillcolor": "#FFE08A", "color": "#E08A00", "penwidth": "2.5"},
    "new": {"fillcolor": "#FFE08A", "color": "#E08A00", "penwidth": "2.5"},
    "done": {"color": "#6B6B6B", "penwidth": "1.5"},
}

EDGE_STYLES: dict = {
    "flow": {"color": "#7A7A7A"},
    "output": {"color": "#4E9A44"},
    "saved": {"color": "#E0823D", "style": "dashed", "arrowhead": "none"},
    "nograd": {"color": "#B0B0B0", "style": "dashed", "arrowhead": "none"},
    "more": {"color": "#B0B0B0", "style": "dotted", "arrowhead": "none"},
}


@dataclass
class SceneNode:
    """One box. ``title`` is the bold first line; ``details`` are smaller lines under it."""

    key: str
    kind: str
    title: str
    details: list = field(default_factory=list)
    cluster: str | None = None  # module path ("fc1"); nested with dots
    state: str = ""  # "", "running", "done", "new"
    min_width: float | None = None  # inches; keeps the layout still between frames
    min_height: float | None = None


@dataclass
class SceneEdge:
    """An edge drawn in the forward direction: ``tail`` (input side) -> ``head``."""

    tail: str
    head: str
    kind: str = "flow"
    label: str = ""
    state: str = ""  # "", "carried", "new" (the stepper's gradients)
    hidden_label: bool = False  # draw the label invisibly (it still takes its place)


@dataclass
class Scene:
    nodes: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    clusters: dict = field(default_factory=dict)  # path -> label
    caption: str = ""  # a line drawn above the graph
    rankdir: str = "TB"
    legend: bool = True
    name: str = "backward graph"
    legend_text: dict = field(default_factory=dict)  # kind -> text, replacing STYLES' text
    caption_width: int | None = None  # points; the same in every frame keeps the picture still

    def node(self, key: str) -> SceneNode | None:
        for n in self.nodes:
            if n.key == key:
                return n
        return None


# ------------------------------------------------------------------------------------ DOT
def _label(node: SceneNode) -> HTML:
    text = f"<B>{escape(node.title)}</B>"
    for line in node.details:
        color = INK if node.state in ("running", "new") else MUTED
        if node.kind in ("frozen", "unused", "more", "nograph", "earlier"):
            color = STYLES[node.kind][1].get("fontcolor", MUTED)
        text += f'<BR/><FONT POINT-SIZE="10" COLOR="{color}">{escape(line)}</FONT>'
    return HTML(text)


def _node_line(node: SceneNode, indent: str) -> str:
    values = {"label": _label(node)}
    values.update(STYLES[node.kind][1])
    if node.state:
        values.update(STATE_STYLES.get(node.state, {}))
    if node.min_width is not None:
        values["width"] = f"{node.min_width:.2f}"
    if node.min_height is not None:
        values["height"] = f"{node.min_height:.2f}"
    values["tooltip"] = " ".join([node.title, *node.details])
    return f"{indent}{node.key}{attrs(values)}\n"


def _edge_line(edge: SceneEdge) -> str:
    values = dict(EDGE_STYLES.get(edge.kind, {}))
    if edge.state in ("carried", "new"):
        values.update({"color": GRAD, "fontcolor": GRAD, "penwidth": "2",
                       "dir": "back", "arrowtail": "normal", "style": "solid"})
        if edge.state == "new":
            values["penwidth"] = "3.5"
    if edge.label:
        values["label"] = f" {edge.label} "
        if edge.hidden_label:
            values["fontcolor"] = "transparent"
    return f"\t{edge.tail} -> {edge.head}{attrs(values)}\n"


def _legend(scene: Scene) -> HTML:
    kinds = []
    for n in scene.nodes:
        if n.kind not in kinds and n.kind not in ("more",):
            kinds.append(n.kind)
    order = list(STYLES)
    kinds.sort(key=order.index)
    cells = []
    for kind in kinds:
        text, style = STYLES[kind]
        text = scene.legend_text.get(kind, text)
        fill = style.get("fillcolor", "#FFFFFF")
        cells.append(f'<TD BGCOLOR="{fill}" COLOR="{style["color"]}"'
                     f'>{escape(text)}</TD>' if "color" in style else f"<TD>{escape(text)}</TD>")
    if any(n.state == "running" for n in scene.nodes):
        cells.append('<TD BGCOLOR="#FFE08A" COLOR="#E08A00">running now</TD>')
    if any(n.state == "new" for n in scene.nodes):
        cells.append('<TD BGCOLOR="#FFE08A" COLOR="#E08A00">just recorded</TD>')
    if any(e.state for e in scene.edges):
        cells.append(f'<TD COLOR="{GRAD}"><FONT COLOR="{GRAD}">gradient sent</FONT></TD>')
    return HTML('<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="6" CELLPADDING="4">'
                f'<TR>{"".join(cells)}</TR></TABLE>')


def to_dot(scene: Scene) -> tuple[str, list]:
    """The scene as DOT: ``(graph name, body lines)``; the lines end with newlines."""
    graph = {"rankdir": scene.rankdir, "fontname": FONT, "fontsize": "11", "fontcolor": INK,
             "nodesep": "0.3", "ranksep": "0.35", "bgcolor": "white", "pad": "0.2"}
    label = ""
    if scene.legend and scene.nodes:
        label = _legend(scene)
    if scene.caption:
        caption = f'<FONT POINT-SIZE="12">{escape(scene.caption)}</FONT>'
        cell = "<TD>"
        if scene.caption_width:
            cell = f'<TD WIDTH="{scene.caption_width}" FIXEDSIZE="TRUE">'
        label = HTML(f'<TABLE BORDER="0" CELLPADDING="2"><TR>{cell}{caption}</TD></TR>'
                     f"<TR><TD>{label}</TD></TR></TABLE>" if label else caption)
    if label:
        graph.update({"label": label, "labelloc": "t" if scene.caption else "b",
                      "labeljust": "l"})
    lines = [f"\tgraph{attrs(graph)}\n",
             f"\tnode{attrs({'fontname': FONT, 'fontsize': '12', 'fontcolor': INK, 'margin': '0.12,0.06', 'height': '0.3'})}\n",  # noqa: E501
             f"\tedge{attrs({'fontname': FONT, 'fontsize': '10', 'arrowsize': '0.7'})}\n"]

    # Nodes that belong to a module go inside (nested) clusters.
    by_cluster: dict = {}
    for n in scene.nodes:
        by_cluster.setdefault(n.cluster, []).append(n)
    for n in by_cluster.get(None, []):
        lines.append(_node_line(n, "\t"))
    paths = {p for p in by_cluster if p is not None}
    for p in list(paths):
        parts = p.split(".") if p else []
        paths.update(".".join(parts[:i]) for i in range(1, len(parts)))
    paths = sorted(paths)
    index = {p: i for i, p in enumerate(paths)}

    def parent(p: str) -> str | None:
        if p == "":
            return None
        if "." in p:
            return p.rsplit(".", 1)[0]
        return "" if "" in index else None

    def children(of: str | None) -> list:
        return [p for p in paths if parent(p) == of]

    def emit(path: str, depth: int) -> None:
        pad = "\t" * (depth + 1)
        lines.append(f"{pad}subgraph cluster_m{index[path]} {{\n")
        label = scene.clusters.get(path, path or "model")
        lines.append(f"{pad}\tgraph{attrs({'label': label, 'style': 'rounded,dashed', 'color': '#A0A0C8', 'fontcolor': '#50508C', 'labeljust': 'l', 'labelloc': 't'})}\n")  # noqa: E501
        for n in by_cluster.get(path, []):
            lines.append(_node_line(n, pad + "\t"))
        for child in children(path):
            emit(child, depth + 1)
        lines.append(f"{pad}}}\n")

    for p in children(None):
        emit(p, 0)
    lines.extend(_edge_line(e) for e in scene.edges)
    return scene.name, lines


def dot_source(scene: Scene) -> str:
    """The complete DOT text (what ``graphviz.Digraph(name, body=lines).source`` gives)."""
    name, lines = to_dot(scene)
    return f"digraph {_dot_id(name)} {{\n" + "".join(lines) + "}\n"


def _dot_id(name: str) -> str:
    if name.isidentifier():
        return name
    return '"' + name.replace('"', '\\"') + '"'


# ----------------------------------------------------------------------------------- text
_MARK = {"running": "▶ ", "new": "▶ ", "done": "✓ "}


def node_text(n: SceneNode) -> str:
    kind = {"leaf": "leaf", "output": "output", "saved": "saved", "frozen": "no grad",
            "unused": "unused"}.get(n.kind)
    text = _MARK.get(n.state, "") + n.title
    if n.details:
        text += "  · " + " · ".join(n.details)
    if kind and n.kind not in ("output",):
        text += f"  [{kind}]"
    return text


def to_text(scene: Scene) -> str:
    """An indented tree from the outputs back to the leaves (each node written out once)."""
    by_key = {n.key: n for n in scene.nodes}
    children: dict = {n.key: [] for n in scene.nodes}
    has_parent = set()
    for e in scene.edges:
        if e.head in children and e.tail in by_key:
            children[e.head].append(e)
            has_parent.add(e.tail)
    roots = [n.key for n in scene.nodes if n.kind == "output"]
    roots += [n.key for n in scene.nodes if n.key not in has_parent and n.key not in roots
              and n.kind not in ("output",) and not children[n.key] and n.kind != "more"
              and n.kind in ("frozen", "unused", "nograph")]
    roots += [n.key for n in scene.nodes if n.key not in has_parent and n.key not in roots
              and n.kind != "output" and children[n.key]]
    lines: list[str] = []
    if scene.caption:
        lines.append(scene.caption)
    shown: set = set()
    for root in roots:
        # an explicit stack (no recursion): deep graphs are fine
        stack = [(root, "", "", True, None)]
        while stack:
            key, prefix, branch, last, edge = stack.pop()
            n = by_key[key]
            text = node_text(n)
            if edge is not None and edge.label and not edge.hidden_label:
                text = f"({edge.label}) " + text
            if edge is not None and edge.kind in ("saved", "nograd"):
                text = {"saved": "saved: ", "nograd": "used without grad: "}[edge.kind] + text
            if key in shown and children[key]:
                lines.append(f"{prefix}{branch}{text}  (↑ shown above)")
                continue
            lines.append(f"{prefix}{branch}{text}")
            shown.add(key)
            kids = children[key]
            child_prefix = prefix + ("" if not branch else ("    " if last else "│   "))
            if len(child_prefix) > 48:  # deep graphs: start again at the left margin
                child_prefix = "┆ "
            for i in range(len(kids) - 1, -1, -1):
                e = kids[i]
                is_last = i == len(kids) - 1
                stack.append((e.tail, child_prefix, "└── " if is_last else "├── ", is_last, e))
    for n in scene.nodes:
        if n.key not in shown and n.kind == "more":
            lines.append(n.title)
    return "\n".join(lines)

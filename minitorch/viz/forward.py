"""Watch the forward pass record the graph, one op at a time (chapter 02).

Every differentiable op that runs while some input requires grad adds one node to the graph.
:func:`record_forward_graph` runs a function inside
:func:`minitorch.autograd.recorders.record_forward`, keeps the nodes in the order they were
recorded, and replays them: frame ``k`` shows the first ``k`` nodes, the leaves they touch,
and the tensor the newest op returned (with its ``grad_fn``).

Example:
    >>> import minitorch
    >>> w = minitorch.ones(3, requires_grad=True)
    >>> rec = record_forward_graph(lambda: (w * 2).sum(), params={"w": w})
    >>> rec.last, [n.name() for n in rec.nodes]
    (2, ['MulBackward0', 'SumBackward0'])
    >>> rec.caption(1)
    'Op 1 of 2 recorded: MulBackward0, next_functions = ((AccumulateGrad, 0), (None, 0))'
"""

from __future__ import annotations

from minitorch.autograd.function import AccumulateGrad
from minitorch.autograd.recorders import record_forward
from minitorch.viz._format import shape_text
from minitorch.viz._player import FramePlayer
from minitorch.viz._scene import Scene, SceneEdge, SceneNode

__all__ = ["ForwardRecording", "record_forward_graph"]


def _short(node) -> str:  # torch::autograd::CopySlices -> CopySlices
    return "AccumulateGrad" if type(node) is AccumulateGrad else node.name().rpartition("::")[2]


def _not_recorded_here(node) -> str:
    """Why a node is in the graph but not in the recording."""
    if _short(node) in ("CopySlices", "AsStridedBackward0"):  # made by ops/views.py
        return "a history rewritten by an in-place change through a view"
    return "recorded before"


class ForwardRecording(FramePlayer):
    """The nodes a forward pass recorded, in order; also a context manager.

    >>> import minitorch
    >>> x = minitorch.tensor(3.0, requires_grad=True)
    >>> with ForwardRecording(params={"x": x}) as rec:
    ...     y = x * x
    >>> rec.frame_text(1).splitlines()[1]
    'result ()  · grad_fn=MulBackward0'

    Attributes:
        nodes: the recorded nodes, oldest first; ``outputs[i]`` are the tensors node ``i`` made.
        result: what the function returned (with :func:`record_forward_graph`).
        first, last: frame ``k`` (1 .. number of nodes) shows the first ``k`` nodes.
    """

    first = 1
    slider_label = "op"

    def __init__(self, params: dict | None = None) -> None:
        self.params = dict(params or {})
        self.nodes: list = []
        self.outputs: list = []
        self.result = None
        self._recorder = None

    def __enter__(self) -> ForwardRecording:
        self._recorder = record_forward()
        self._records = self._recorder.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._recorder.__exit__(*exc)
        self.nodes = [node for node, _ in self._records]
        self.outputs = [outs for _, outs in self._records]

    @property
    def last(self) -> int:
        return max(len(self.nodes), 1)

    def _names(self) -> dict:
        return {id(t): name for name, t in self.params.items()}

    def _check(self, k: int) -> int:
        if not self.nodes:
            raise IndexError("nothing was recorded: no op had an input that requires grad")
        return super()._check(k)

    def caption(self, k: int) -> str:
        """``Op k of n recorded: AddBackward0, next_functions = (...)``."""
        node = self.nodes[self._check(k) - 1]
        nexts = ", ".join("(None, 0)" if nxt is None else f"({_short(nxt)}, {nr})"
                          for nxt, nr in node.next_functions)
        if len(node.next_functions) == 1:
            nexts += ","
        return f"Op {k} of {len(self.nodes)} recorded: {node.name()}, next_functions = ({nexts})"

    def frame_scene(self, k: int) -> Scene:
        """The graph after ``k`` recorded ops, the newest highlighted."""
        self._check(k)
        names = self._names()
        index = {id(node): i for i, node in enumerate(self.nodes)}
        scene = Scene(name="forward pass", legend_text={"output": "the tensor it returned"})
        leaf_key: dict = {}
        earlier_key: dict = {}
        # Leaf and earlier keys are numbered over the whole recording, so they stay put.
        for node in self.nodes:
            for nxt, _ in node.next_functions:
                if nxt is None:
                    continue
                if type(nxt) is AccumulateGrad:
                    leaf_key.setdefault(id(nxt), f"l{len(leaf_key)}")
                elif id(nxt) not in index:
                    earlier_key.setdefault(id(nxt), f"e{len(earlier_key)}")
        added = set()
        for i, node in enumerate(self.nodes[:k]):
            details = []
            for t in self.outputs[i]:
                name = names.get(id(t))
                if name is not None:
                    details.append(f"→ {name} {shape_text(t)}")
            scene.nodes.append(SceneNode(f"n{i}", "op", node.name(), details,
                                         state="new" if i == k - 1 else ""))
            for nxt, _ in node.next_functions:
                if nxt is None:
                    continue
                if type(nxt) is AccumulateGrad:
                    key = leaf_key[id(nxt)]
                    if key not in added:
                        t = nxt.variable
                        name = names.get(id(t))
                        title = f"{name} {shape_text(t)}" if name else shape_text(t)
                        scene.nodes.append(SceneNode(key, "leaf", title, ["AccumulateGrad"]))
                elif id(nxt) in index:
                    key = f"n{index[id(nxt)]}"
                else:
                    key = earlier_key[id(nxt)]
                    if key not in added:
                        scene.nodes.append(SceneNode(key, "earlier", _short(nxt),
                                                     [_not_recorded_here(nxt)]))
                added.add(key)
                scene.edges.append(SceneEdge(key, f"n{i}"))
        newest = self.nodes[k - 1]
        for r, t in enumerate(self.outputs[k - 1]):
            if getattr(t, "grad_fn", None) is not newest:
                continue
            name = names.get(id(t)) or "result"
            scene.nodes.append(SceneNode(f"out{r}", "output", f"{name} {shape_text(t)}",
                                         [f"grad_fn={newest.name()}"]))
            scene.edges.append(SceneEdge(f"n{k - 1}", f"out{r}", "output"))
        scene.caption = self.caption(k)
        scene.caption_width = max(int(len(self.caption(i)) * 12 * 0.55) + 8
                                  for i in range(1, len(self.nodes) + 1))
        return scene

    def describe(self) -> str:
        names = " → ".join(n.name() for n in self.nodes[:6])
        more = " → …" if len(self.nodes) > 6 else ""
        return (f"ForwardRecording: {len(self.nodes)} ops ({names}{more}); "
                f"showing op {self.current}")


def record_forward_graph(fn, *args, params: dict | None = None, **kwargs) -> ForwardRecording:
    """Run ``fn(*args, **kwargs)`` and return a widget that replays the graph being recorded.

    Args:
        fn: the forward computation (a function, a model, a lambda).
        args, kwargs: passed to ``fn``.
        params: names for tensors (leaves and results), ``{"w": w, "z": z}``.

    Returns:
        A :class:`ForwardRecording`; ``.result`` is what ``fn`` returned, ``.widget`` the
        slider over the recorded ops, ``.frame_source(k)`` the DOT of frame ``k``.
    """
    if not callable(fn):
        raise TypeError(f"record_forward_graph() expects a function to run, not a "
                        f"{type(fn).__name__}: pass `lambda: model(x)` rather than `model(x)`")
    rec = ForwardRecording(params)
    with rec:
        rec.result = fn(*args, **kwargs)
    return rec

"""Watch backward happen: the engine's real steps, one frame each.

:func:`step_backward` runs ``loss.backward()`` once inside
:func:`minitorch.autograd.recorders.record_backward`, which records every node in the order the
engine really ran it, with the gradients it received and sent. Frame ``k`` shows step ``k``:
the node running now (amber), the edges that already carried a gradient (red, labelled with
the gradient, or its shape when it is large) and, at each leaf, the gradients arriving one
edge at a time and then ``.grad`` once ``AccumulateGrad`` has run.

The learner's tensors are left as they were. The stepper runs backward with
``retain_graph=True`` (so ``loss.backward()`` still works afterwards) and puts every leaf's
``.grad`` back as it found it: the frames show the gradients of this one backward pass
(starting from ``.grad = None``, or from the current ``.grad`` with
``keep_existing_grad=True``), but nothing is accumulated into the real ``.grad``. Hooks that
only record (``retain_grad`` on non-leaves, post-accumulate hooks) are switched off during the
run; other tensor hooks run, as they change the gradients.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor(2.0, requires_grad=True)
    >>> s = step_backward(x * x + x, params={"x": x})
    >>> [step.node.name() for step in s.steps]
    ['AddBackward0', 'MulBackward0', 'torch::autograd::AccumulateGrad']
    >>> s.leaf_state(2, x)["grad"], x.grad is None
    ('5', True)
"""

from __future__ import annotations

import copy
import dataclasses

from minitorch.autograd.recorders import record_backward
from minitorch.viz._format import grad_text, shape_text
from minitorch.viz._player import FramePlayer
from minitorch.viz._scene import Scene
from minitorch.viz.drawing import SMALL, build_scene

__all__ = ["BackwardStepper", "step_backward"]


DIGITS = 3  # significant digits of the gradients in the frames (edges and leaves alike)


def _edge_text(g) -> str:
    """A gradient on an edge: its values when at most 4, else its shape."""
    return grad_text(g, max_values=4, digits=DIGITS)


def _leaf_text(g) -> str:
    """A leaf's gradient: its values when at most 6, else ``a (5, 3) tensor``."""
    if g is not None and g.numel() > SMALL:
        return f"a {shape_text(g)} tensor"
    return grad_text(g, max_values=SMALL, digits=DIGITS)


def _short(name: str) -> str:
    return name.rpartition("::")[2]  # torch::autograd::AccumulateGrad -> AccumulateGrad


def _run_recorded(loss, graph, gradient, retain_graph: bool, keep_existing_grad: bool) -> list:
    """Run ``loss.backward`` under ``record_backward`` and put every ``.grad`` back."""
    from minitorch._tensor import _RetainGradHook  # a private marker class

    leaves = [n.tensor for n in graph.nodes if n.is_leaf]
    old = [(t.__dict__.get("_grad"), t.__dict__.get("_post_accumulate_hooks")) for t in leaves]
    muted = []  # retain_grad hooks on non-leaf outputs: (their dict, its items)
    for n in graph.nodes:
        for hooks in (getattr(n.node, "_tensor_pre_hooks", None) or {}).values():
            if any(isinstance(h, _RetainGradHook) for h in hooks.values()):
                muted.append((hooks, list(hooks.items())))
                for hid in [h for h, fn in hooks.items() if isinstance(fn, _RetainGradHook)]:
                    del hooks[hid]
    try:
        for t, (grad, _) in zip(leaves, old):
            t._grad = grad.detach().clone() if keep_existing_grad and grad is not None else None
            t._post_accumulate_hooks = None
        with record_backward() as steps:
            loss.backward(gradient, retain_graph=retain_graph)
    finally:
        for t, (grad, post) in zip(leaves, old):
            t._grad, t._post_accumulate_hooks = grad, post
        for hooks, items in muted:
            hooks.clear()
            hooks.update(items)
    return list(steps)


class BackwardStepper(FramePlayer):
    """The frames of one backward pass; ``.widget`` is the slider + Prev/Next + picture.

    Attributes:
        steps: the engine's :class:`~minitorch.autograd.recorders.BackwardStep` list, in order.
        graph: the walked graph (:class:`~minitorch.autograd.graph.Graph`).
        first, last: the frame range (frame ``k`` is ``steps[k]``).
    """

    slider_label = "step"

    def __init__(self, loss, params: dict | None = None, retain_graph: bool = True,
                 keep_existing_grad: bool = False, gradient=None) -> None:
        from minitorch._tensor import Tensor

        if not isinstance(loss, Tensor):
            raise TypeError(f"step_backward() expects a tensor (the loss), not a "
                            f"{type(loss).__name__}")
        if not loss.requires_grad:
            raise RuntimeError(
                "element 0 of tensors does not require grad and does not have a grad_fn")
        self.loss = loss
        self._base, self.graph, _ = build_scene((loss,), params, collapse=None)
        self._base.name = "backward pass"
        self.params = dict(params or {})
        self.steps = _run_recorded(loss, self.graph, gradient, retain_graph, keep_existing_grad)
        self._prepare(keep_existing_grad)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def _prepare(self, keep: bool) -> None:
        g = self.graph
        self._id_of = {id(n.node): n.id for n in g.nodes}
        self._step_of = {}  # graph node id -> step index
        for s in self.steps:
            self._step_of.setdefault(self._id_of.get(id(s.node)), s.index)
        self._edge_by = {(e.src, e.input_nr): i for i, e in enumerate(g.edges)}
        # when each edge carried its gradient, and what
        self._carried = {}  # edge index -> (step, grad)
        for s in self.steps:
            src = self._id_of.get(id(s.node))
            for nr, grad in enumerate(s.grad_inputs):
                i = self._edge_by.get((src, nr))
                if i is not None and grad is not None:
                    self._carried[i] = (s.index, grad)
        self._into = {}  # leaf node id -> [edge indices]
        for i, e in enumerate(g.edges):
            if g.nodes[e.dst].is_leaf:
                self._into.setdefault(e.dst, []).append(i)
        self._start = {n.id: (n.tensor._grad if keep else None) for n in g.nodes if n.is_leaf}
        # Each box keeps the same size in every frame, so the picture does not jump. A box
        # shows one of a few texts over the whole pass; the largest sets its size. Working
        # them out per node (not per frame) keeps this linear in the size of the graph.
        sizes: dict = {}
        for n in self._base.nodes:
            variants = [list(n.details)]
            if n.key.startswith("n"):
                variants = [[*n.details, *extra] for extra in self._detail_variants(int(n.key[1:]))]
            variants = variants or [list(n.details)]
            sizes[n.key] = (max(_estimate_parts(n.title, d)[0] for d in variants),
                            max(_estimate_parts(n.title, d)[1] for d in variants))
        self._sizes = sizes
        self._caption_width = max((_text_width(self.caption(k)) for k in range(len(self.steps))),
                                  default=0)

    def _detail_variants(self, nid: int) -> list[list[str]]:
        """Every list of extra detail lines node ``nid`` shows in some frame."""
        g = self.graph
        j = self._step_of.get(nid)
        if g.nodes[nid].is_leaf:
            arrived = sorted((self._carried[i] for i in self._into.get(nid, [])
                              if i in self._carried), key=lambda sg: sg[0])
            first_change = min([step for step, _ in arrived[:1]] + ([j] if j is not None else []),
                               default=None)
            variants = []
            if first_change is None or first_change > self.first:
                variants.append([f".grad = {_leaf_text(self._start.get(nid))}"])
            total = None
            for count, (step, grad) in enumerate(arrived, 1):
                total = grad if total is None else total + grad
                if count < len(arrived) and arrived[count][0] == step:
                    continue  # the next gradient arrives in the same step: never shown alone
                if j is not None and step >= j:
                    break  # from step j on, the leaf shows its .grad instead
                variants.append([f"received {count} of {len(self._into.get(nid, []))}: "
                                 f"sum {_leaf_text(total)}"])
            if j is not None:
                variants.append([f".grad = {_leaf_text(self.steps[j].grad_after)}"])
            return variants
        if j is None:
            return [["waiting"]]
        variants = [[f"step {j + 1}", f"gets {_edge_text(self.steps[j].grad_outputs[0])}"]]
        if j > self.first:
            variants.append(["waiting"])
        if j < self.last:
            variants.append([f"step {j + 1}"])
        return variants

    # ------------------------------------------------------------------ frame data
    def leaf_state(self, k: int, tensor) -> dict:
        """What leaf ``tensor`` shows in frame ``k``.

        Returns ``{"received": [grads that arrived so far], "expected": number of edges,
        "grad": ".grad" text (None before AccumulateGrad ran), "accumulated": bool}``.
        """
        node = next(n for n in self.graph.nodes if n.is_leaf and n.tensor is tensor)
        return self._leaf_state(k, node.id)

    def _leaf_state(self, k: int, nid: int) -> dict:
        edges = self._into.get(nid, [])
        arrived = sorted((self._carried[i] for i in edges if i in self._carried
                          and self._carried[i][0] <= k), key=lambda sg: sg[0])
        j = self._step_of.get(nid)
        done = j is not None and j <= k
        grad = None
        if done:
            grad = _leaf_text(self.steps[j].grad_after)
        return {"received": [gr for _, gr in arrived], "expected": len(edges), "grad": grad,
                "accumulated": done}

    def _scene_nodes(self, k: int) -> Scene:
        # A shallow copy with fresh node objects: O(nodes), and the base scene stays as built.
        nodes = [dataclasses.replace(n, details=list(n.details)) for n in self._base.nodes]
        scene = dataclasses.replace(self._base, nodes=nodes, edges=list(self._base.edges))
        g = self.graph
        for n in scene.nodes:
            if not n.key.startswith("n"):
                continue
            nid = int(n.key[1:])
            j = self._step_of.get(nid)
            gn = g.nodes[nid]
            if gn.is_leaf:
                st = self._leaf_state(k, nid)
                start = self._start.get(nid)
                if st["accumulated"]:
                    n.details.append(f".grad = {st['grad']}")
                    n.state = "running" if j == k else "done"
                elif st["received"]:
                    total = st["received"][0]
                    for gr in st["received"][1:]:
                        total = total + gr
                    n.details.append(f"received {len(st['received'])} of {st['expected']}: "
                                     f"sum {_leaf_text(total)}")
                else:
                    n.details.append(f".grad = {_leaf_text(start)}")
            elif j is not None and j <= k:
                n.state = "running" if j == k else "done"
                n.details.append(f"step {j + 1}")
                if j == k:
                    n.details.append(f"gets {_edge_text(self.steps[j].grad_outputs[0])}")
            else:
                n.details.append("waiting")
        return scene

    def frame_scene(self, k: int) -> Scene:
        """The picture of frame ``k`` (step ``k`` running) as a :class:`Scene`."""
        scene = self._scene_nodes(k)
        for n in scene.nodes:
            n.min_width, n.min_height = self._sizes.get(n.key, (None, None))
        edges = []
        n_flow = len(self.graph.edges)
        for i, e in enumerate(scene.edges):
            e = copy.copy(e)
            if i < n_flow and e.kind == "flow":
                if i in self._carried:
                    j, grad = self._carried[i]
                    e.label = _edge_text(grad)
                    e.state = "new" if j == k else ("carried" if j < k else "")
                    e.hidden_label = j > k
            elif e.kind == "output" and self.steps:
                e.label = _edge_text(self.steps[0].grad_outputs[0])
                e.state = "carried"
            edges.append(e)
        scene.edges = edges
        scene.caption = self.caption(k)
        scene.caption_width = self._caption_width
        return scene

    def caption(self, k: int) -> str:
        """One line saying what step ``k`` does."""
        s = self.steps[self._check(k)]
        head = f"Step {k + 1} of {len(self.steps)}: {_short(s.node.name())}"
        if s.accumulated_into is not None:
            name = self._name(s.accumulated_into)
            return f"{head} writes {name}.grad = {_leaf_text(s.grad_after)}"
        sent = [_edge_text(gr) for gr in s.grad_inputs if gr is not None]
        return (f"{head} gets {_edge_text(s.grad_outputs[0])} and sends "
                f"{', '.join(sent) if sent else 'nothing'}")

    def _name(self, t) -> str:
        for name, p in self.params.items():
            if p is t:
                return name
        return f"leaf {shape_text(t)}"

    def describe(self) -> str:
        names = " → ".join(_short(s.node.name()) for s in self.steps[:6])
        more = " → …" if len(self.steps) > 6 else ""
        return (f"BackwardStepper: {len(self.steps)} steps ({names}{more}); "
                f"showing step {self.current + 1}")


def _text_width(text: str, size: int = 12) -> int:
    """A generous guess of the width of a line of text, in points."""
    return int(len(text) * size * 0.55) + 8


def _estimate(n) -> tuple[float, float]:
    """A generous guess of a box's size in inches (12 pt title, 10 pt details)."""
    return _estimate_parts(n.title, n.details)


def _estimate_parts(title: str, details: list) -> tuple[float, float]:
    width = max([len(title) * 12 * 0.58] + [len(d) * 10 * 0.5 for d in details]) / 72
    height = (14 + 12.5 * len(details)) / 72
    return round(width + 0.25, 2), round(height + 0.1, 2)


def step_backward(loss, params: dict | None = None, retain_graph: bool = True,
                  keep_existing_grad: bool = False, gradient=None) -> BackwardStepper:
    """A widget that steps through ``loss.backward()`` in the engine's real order.

    Args:
        loss: the tensor to run backward from (a scalar, or give ``gradient``).
        params: names for the leaves, ``{"w": w}`` or ``dict(model.named_parameters())``.
        retain_graph: keep the saved tensors, so ``loss.backward()`` still works afterwards.
        keep_existing_grad: start the leaves from their current ``.grad`` (to show
            accumulation across backward calls) instead of from ``None``.
        gradient: the gradient of the loss, for a loss that is not a scalar.

    Returns:
        A :class:`BackwardStepper`. Display it (or its ``.widget``) in Jupyter; tests use
        ``.steps``, ``.frame_source(k)``, ``.current``, ``.slider``, ``.next_button``.
        The leaves' ``.grad`` are left exactly as they were.
    """
    return BackwardStepper(loss, params, retain_graph, keep_existing_grad, gradient)

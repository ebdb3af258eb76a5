"""Which ``nn.Module`` made which node: recorded with forward hooks while the model runs.

>>> import minitorch
>>> from minitorch import viz
>>> # with viz.track_modules(model) as scopes:
>>> #     loss = loss_fn(model(x), y)
>>> # viz.draw_graph(loss, module=scopes)        # nodes grouped in a box per module

The hooks are only installed inside the ``with`` block, and only if the model has
``register_forward_hook`` (checked when the block starts): without it nothing is grouped, and
nothing breaks.
"""

from __future__ import annotations

from minitorch.autograd.function import AccumulateGrad
from minitorch.autograd.recorders import record_forward

__all__ = ["track_modules", "module_names"]


def module_names(model) -> list:
    """``[(path, module), ...]``: ``named_modules()`` where the model has it, else the model."""
    named = getattr(model, "named_modules", None)
    if callable(named):
        return list(named())
    return [("", model)]


class track_modules:  # noqa: N801  (a context manager, named like one)
    """Record, during a forward pass, the innermost module that was running for each node.

    Attributes (after the block):
        scope_of: ``{node: module path}`` (``""`` is the model itself, ``"fc1"`` a child).
        labels: ``{module path: "fc1: Linear"}``, the box titles.
        parameters: ``dict(model.named_parameters())`` when the model has it.
    """

    def __init__(self, model) -> None:
        self.model = model
        self.scope_of: dict = {}
        self.labels: dict = {}
        self.parameters: dict = {}
        self._handles: list = []
        self._recorder = None
        self._records: list = []
        self._stack: list = []

    def __enter__(self) -> track_modules:
        named = getattr(self.model, "named_parameters", None)
        if callable(named):
            self.parameters = dict(named())
        self._recorder = record_forward()
        self._records = self._recorder.__enter__()
        for path, mod in module_names(self.model):
            kind = type(mod).__name__
            self.labels[path] = kind if path == "" else f"{path}: {kind}"
            post = getattr(mod, "register_forward_hook", None)
            if not callable(post):
                continue
            pre = getattr(mod, "register_forward_pre_hook", None)
            if callable(pre):
                self._handles.append(pre(self._pre_hook(path)))
                self._handles.append(post(self._post_hook(path)))
            else:
                self._handles.append(post(self._post_only_hook(path)))
        return self

    def __exit__(self, *exc) -> None:
        for h in self._handles:
            h.remove()
        self._handles.clear()
        if self._recorder is not None:
            self._recorder.__exit__(*exc)
            self._recorder = None

    # With pre and post hooks: the nodes recorded between them, innermost module first.
    def _pre_hook(self, path: str):
        def hook(module, args):
            self._stack.append(len(self._records))

        return hook

    def _post_hook(self, path: str):
        def hook(module, args, output):
            start = self._stack.pop() if self._stack else 0
            for node, _ in self._records[start:]:
                self.scope_of.setdefault(node, path)

        return hook

    # With a post hook only: the new nodes between the module's inputs and its output.
    def _post_only_hook(self, path: str):
        def hook(module, args, output):
            recorded = {node for node, _ in self._records}
            stop = {getattr(a, "grad_fn", None) for a in _tensors(args)}
            stack = [getattr(o, "grad_fn", None) for o in _tensors(output)]
            seen = set()
            while stack:
                node = stack.pop()
                if (node is None or node in seen or node in stop or node not in recorded
                        or type(node) is AccumulateGrad):
                    continue
                seen.add(node)
                self.scope_of.setdefault(node, path)  # an inner module's hook ran first
                stack.extend(nxt for nxt, _ in node.next_functions)

        return hook


def _tensors(obj) -> list:
    if isinstance(obj, (tuple, list)):
        return [t for o in obj for t in _tensors(o)]
    if isinstance(obj, dict):
        return [t for o in obj.values() for t in _tensors(o)]
    return [obj] if hasattr(obj, "_edge") else []

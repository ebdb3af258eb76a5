"""Views, and in-place changes made through them, as PyTorch has them.

A *view* shows the memory of another tensor: ``x[0]``, ``x[1:]``, ``x.t()``, ``x.view(6)``,
``x.diagonal()``, ... (``ops/shape.py`` and ``ops/indexing.py`` make them with ``_view_of``).
``v._base`` is the tensor that owns the memory, and the two share one version counter: a
change made through either is a change of both, and autograd sees it.

When a view of a recorded tensor is changed in place, its base's values change too, so the
base's history must change as well. PyTorch rewrites it, and so does minitorch. For
``z[1:].mul_(3)``:

1. ``mul`` runs on the view's old value, and the result is written into the shared memory;
2. ``z`` gets a new node, ``CopySlices``: the gradient of ``z``'s old value is the incoming
   gradient, except in the view's part, which goes through ``mul``'s backward (the ``mul``
   node lives inside ``CopySlices``, as in PyTorch);
3. every view of ``z`` gets a new node, ``AsStridedBackward0``, which picks the view's part out
   of ``z``'s gradient: a view used later follows ``z``'s new history.

The same happens to the views of a tensor changed in place itself (``z.mul_(3)``). A view that
PyTorch forbids to change (made under no_grad, or one of several views that one op returns,
such as ``unbind``'s) raises PyTorch's error instead.

To find a base's views, the version counter they share keeps weak references to them
(``_VersionCounter.add_view``): a recorded in-place change marks them, and a marked view makes
its new node when it is next used (the view changed in place makes its own at once, as
PyTorch's does, so the nodes are made, and run in backward, in PyTorch's order). PyTorch
instead compares a view's version each time its node is needed, so after an in-place change
made under no_grad (which changes no history) it renames a view's node
``AsStridedBackward0``, and refuses a view made under no_grad; minitorch keeps the name
(values and gradients are the same) and the view.

Example:
    >>> import minitorch
    >>> y = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> z = y * 2
    >>> z[1:].mul_(3)
    tensor([12., 18.], grad_fn=<AsStridedBackward0>)
    >>> z.grad_fn, z.grad_fn.name()
    (<CopySlices object at 0x...>, 'torch::autograd::CopySlices')
    >>> z.sum().backward()
    >>> y.grad
    tensor([2., 6., 6.])
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import VIEW_MULTI, VIEW_NO_GRAD, Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops.indexing import Index, IndexAdd, IndexPut
from minitorch.ops.shape import _view_of

__all__ = ["CopySlices", "AsStrided", "ViewGeometry", "inplace_on_view", "rebase_views",
           "regenerate", "view_change_message", "storage_offset", "data_ptr"]


def _address(array) -> int:
    """Where the first element of ``array`` is in memory (NumPy, or CuPy's ``data.ptr``)."""
    iface = getattr(array, "__array_interface__", None)
    return iface["data"][0] if iface is not None else array.data.ptr


def _byte_offsets(xp, shape: tuple, strides: tuple):
    """An array of ``shape``: each element's distance in bytes from element ``[0, 0, ...]``."""
    out = xp.zeros((), dtype=np.int64)
    for n, step in zip(shape, strides):
        out = out[..., None] + xp.arange(n, dtype=np.int64) * step
    return out


class ViewGeometry:
    """Where a view's elements sit in its base: PyTorch's as_strided geometry (sizes, strides
    and offset), read from the two arrays when first needed (NumPy is slow to tell where an
    array starts), then kept in bytes as NumPy gives them.

    ``positions()`` gives each element's position in the base flattened in C order, the index
    that picks the view's part out of a gradient of the base's shape.
    """

    __slots__ = ("shape", "base_shape", "_arrays", "_positions")

    def __init__(self, view: Tensor, base: Tensor) -> None:
        self.shape, self.base_shape = view._data.shape, base._data.shape
        self._arrays = (view._data, base._data)
        self._positions = None

    @property
    def base_numel(self) -> int:
        return int(np.prod(self.base_shape, dtype=np.int64))

    def positions(self):
        """An integer array of the view's shape: where each element is in the flat base."""
        if self._positions is None:
            v, b = self._arrays
            xp = array_module(b)
            where = _byte_offsets(xp, v.shape, v.strides) + (_address(v) - _address(b))
            if b.flags.c_contiguous:
                found = where // b.itemsize
            else:  # look each address up among the base's addresses
                at = _byte_offsets(xp, b.shape, b.strides).reshape(-1)
                order = xp.argsort(at, kind="stable")
                found = order[xp.searchsorted(at[order], where)] if at.size else where
            self._positions, self._arrays = found, None  # (the memory is not held any longer)
        return self._positions


def _node(node_cls, edges: tuple, meta: tuple, seq):
    """A node made without a forward call, given what ``Function.apply`` gives the nodes it
    records: where its gradients go (``_next``), what they must look like (``_input_meta``)
    and its place in the order of creation (``_seq``)."""
    node = node_cls()
    node._next, node._input_meta, node._seq = tuple(edges), tuple(meta), seq
    node.needs_input_grad = tuple(e[0] is not None for e in edges)
    return node


def _meta(t: Tensor) -> tuple:
    return (t._data.shape, t._data.dtype)


class AsStrided(Function):
    """The node of a view whose base got a new history: the view's part of the base.

    Backward puts the view's gradient at the view's positions in zeros of the base's shape
    (adding where an expanded view shows one element more than once). Only :func:`regenerate`
    runs it, on a view and its base.
    """

    node_name = "AsStridedBackward0"
    _builtin = True
    _edge_args = (0,)  # the gradient goes to the base

    @staticmethod
    def forward(ctx, base, view):
        ctx.geometry = ViewGeometry(view, base)
        return _wrap(view._data)  # the view's memory: its node is what ``regenerate`` wants

    @staticmethod
    def backward(ctx, grad):
        g = ctx.geometry
        if grad_mode._state.enabled and _steps(g.positions()) is not None:
            return _recorded_as_strided_backward(g, grad)  # create_graph, as PyTorch records
        return IndexAdd.apply(grad, (g.base_numel,), g.positions()).reshape(g.base_shape)


def _steps(positions) -> tuple | None:
    """The start and the step of each dimension (in elements) of a view at ``positions`` in
    its flattened base; None when two elements share a place (an expanded view)."""
    if positions.size == 0:
        return 0, (0,) * positions.ndim
    start = int(positions.reshape(-1)[0])
    steps = []
    for k, n in enumerate(positions.shape):
        at = [0] * positions.ndim
        at[k] = 1
        step = int(positions[tuple(at)]) - start if n > 1 else 0
        if n > 1 and step == 0:
            return None
        steps.append(step)
    return start, tuple(steps)


def _geometry(shape: tuple, base_shape: tuple, positions) -> ViewGeometry:
    g = ViewGeometry.__new__(ViewGeometry)
    g.shape, g.base_shape, g._positions, g._arrays = shape, base_shape, positions, None
    return g


def _recorded_as_strided_backward(g: ViewGeometry, grad):
    """PyTorch's ``as_strided_backward`` as it records (a view without overlaps): the
    gradient copied into its place in zeros of the base's size (``CopySlices``), which is
    shown in the base's shape (``AsStridedBackward0``)."""
    xp = array_module(grad._data)
    storage = _wrap(xp.zeros((g.base_numel,), dtype=grad._data.dtype))
    AsStridedPart.apply(storage, _geometry(g.shape, (g.base_numel,), g.positions())).copy_(grad)
    whole = xp.arange(g.base_numel).reshape(g.base_shape)
    return AsStridedPart.apply(storage, _geometry(g.base_shape, (g.base_numel,), whole))


class CopySlicesFunction(Function):
    """The backward of :class:`CopySlices` (the node class is below)."""

    node_name = "CopySlices"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        if grad_mode._state.enabled and _steps(ctx.geometry.positions()) is not None:
            return _recorded_copy_slices(ctx, grad)  # create_graph: as PyTorch records it
        # The base's gradient passes through, except at the view's positions: there the
        # in-place op's backward turns it into the gradient of the view's old value.
        g = ctx.geometry
        flat = grad.reshape(-1)
        where = g.positions()
        grads = _op_backward(ctx.fn, Index.apply(flat, where))
        old = grads[0]
        if old is None:  # the op's result does not depend on the old value
            old = _wrap(array_module(grad._data).zeros(g.shape, dtype=grad._data.dtype))
        elif old._data.shape != g.shape or old._data.dtype != grad._data.dtype:
            old = old.sum_to_size(g.shape).to(grad.dtype)
        whole = IndexPut.apply(flat, old, (where,)).reshape(g.base_shape)
        return (whole,) + grads[1:]


def _strided_part(array, positions):
    """The view of the C-contiguous ``array`` at ``positions`` (a view's positions in its
    flattened base: a start and a step for each dimension)."""
    flat = array.reshape(-1)
    if positions.size == 0:
        return flat[:0].reshape(positions.shape)
    start, steps = _steps(positions)
    return array_module(array).lib.stride_tricks.as_strided(
        flat[start:], positions.shape, tuple(step * array.itemsize for step in steps))


class AsStridedPart(Function):
    """``result.as_strided(...)`` in CopySlices' recorded backward: the changed view's part of
    a tensor of its base's shape, as a view (a copy into it records ``CopySlices``)."""

    node_name = "AsStridedBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, base, geometry):
        ctx.geometry = geometry
        return _view_of(base, _strided_part(base._data, geometry.positions()))

    @staticmethod
    def backward(ctx, grad):
        return AsStrided.backward(ctx, grad)


def _recorded_copy_slices(ctx, grad):
    """CopySlices' backward as PyTorch records it (``create_graph=True``): the gradient copied
    into a new tensor of the base's shape (``CopyBackwards``); the view's part of it
    (``AsStridedBackward0``), cloned (``CloneBackward0``), goes through the in-place op's
    backward, and the gradient of the view's old value is copied back into that part
    (``CopySlices``)."""
    g = ctx.geometry
    result = _wrap(array_module(grad._data).empty(g.base_shape, dtype=grad._data.dtype))
    result.copy_(grad)
    part = AsStridedPart.apply(result, g)
    grads = _op_backward(ctx.fn, part.clone())
    old = grads[0]
    if old is None:  # the op's result does not depend on the old value
        old = _wrap(array_module(grad._data).zeros(g.shape, dtype=grad._data.dtype))
    elif old._data.shape != g.shape:
        old = old.sum_to_size(g.shape)
    part.copy_(old)
    return (result,) + grads[1:]


def _op_backward(op, grad) -> tuple:
    """The gradients of the in-place op's node ``op`` for ``grad``, one per edge."""
    unpack = getattr(op, "_unpack_extras", None)  # what saved_tensors_hooks packed besides
    if unpack is not None:                         # its saved tensors (autograd/graph.py)
        unpack(None)
    grads = op._forward_cls.backward(op, grad) if op._builtin else op.apply(grad)
    grads = grads if type(grads) is tuple else (grads,)
    return (grads + (None,) * len(op._next))[:len(op._next)]


class CopySlices(CopySlicesFunction._backward_cls):
    """The node of a tensor whose view was changed in place (``torch::autograd::CopySlices``).

    Attributes:
        fn: the node of the in-place op on the view (``MulBackward0`` for ``v.mul_(3)``).
        geometry: where the view sits in the base (a :class:`ViewGeometry`).
    """

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def _release(self) -> None:  # free what the in-place op saved for backward
        super()._release()
        self.fn._release()


def _short_name(node) -> str:
    name = node.name()
    return name.rsplit("Backward", 1)[0] if "Backward" in name else name


def view_change_message(view: Tensor, indirect: bool) -> str:
    """PyTorch's error for changing in place a view made under no_grad or by a multi-view op
    (``indirect``: the view's base, or another view of it, was changed)."""
    stale = view._view_stale  # the node it had before its base changed, if it did
    node = view._grad_fn or (stale if stale is not True else None)
    kind = view._view_kind
    what = "its base or another view of its base has been" if indirect else "is being"
    out = f"Output {view._output_nr} of {_short_name(node)}" if node is not None else ""
    if kind == VIEW_NO_GRAD or node is None:
        prefix = f"{out} is a view of a view which was created in" if out else \
            "A view was created in"
        message = f"{prefix} no_grad mode and {what} modified inplace with grad mode enabled."
    else:
        message = f"{out} is a view and {what} modified inplace."
    if kind == VIEW_MULTI:
        return message + (
            " This view is the output of a function that returns multiple views. Such "
            "functions do not allow the output views to be modified inplace. You should "
            "replace the inplace operation by an out-of-place one.")
    return message + (
        " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
        "clarify your code by moving both the view and the inplace either both inside the "
        "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
        "want the inplace to be tracked).")


def inplace_on_view(view: Tensor, fn, args: tuple, saved_as_clone=None) -> Tensor:
    """``view``'s in-place op ``fn(view, *args)``, recorded: the base's node becomes
    ``CopySlices`` (``Tensor._inplace`` has checked that it may). ``saved_as_clone(node,
    old)``, when given, makes the op's node hand out the view's old value as PyTorch's clone."""
    base = view._base
    base_edge = base._edge()
    old = view._recorded_copy()
    result = fn(old, *args)  # the op's node: ``result._grad_fn``
    view._write(result._data)  # into the base's memory: the shared version goes up
    op = result._grad_fn
    if op is None:  # nothing differentiable was recorded
        return view
    if saved_as_clone is not None:
        saved_as_clone(op, old)
    node = _node(CopySlices, (base_edge,) + op._next[1:], (_meta(base),) + op._input_meta[1:],
                 op._seq)
    node.fn, node.geometry, node._saved = op, ViewGeometry(view, base), op._saved
    base._set_history(node, 0)
    rebase_views(base)
    if view._view_stale is not None:  # the changed view's own new node is made now, as in
        regenerate(view)  # PyTorch: it comes next in the order (the other views' when used)
    return view


def rebase_views(base: Tensor) -> None:
    """After an in-place change gave ``base`` a new history, mark its views: each one gets its
    new node (``AsStridedBackward0``, see :func:`regenerate`) when it is next used, as in
    PyTorch, which checks a view's version whenever its node is needed."""
    counter = base._version_counter
    for v in counter.take_views():  # a marked view is listed again once it has its new node,
        if v._base is base:  # so each change marks only the views used since the last one
            v._view_stale = v._grad_fn if v._grad_fn is not None else True
            v._grad_fn, v._requires_grad = None, True
        else:  # a view of a detached tensor, which shares the counter
            counter.add_view(v)


def regenerate(view: Tensor) -> None:
    """The new node of a view marked by :func:`rebase_views`: its part of its base's new
    history. A view that PyTorch forbids to use after its base changed (made under no_grad, or
    by unbind/split) raises PyTorch's error instead, each time."""
    if view._view_kind:
        raise RuntimeError(view_change_message(view, indirect=True))
    base = view._base
    with grad_mode.enable_grad():  # (the node is made even when it is read under no_grad)
        node = AsStrided.apply(base, view)._grad_fn
    view._grad_fn, view._output_nr, view._view_stale = node, 0, None
    base._version_counter.add_view(view)  # a later change of the base marks it again


def storage_offset(t: Tensor) -> int:
    """Where ``t`` starts in its base's memory, counted in elements (0 for a base; also 0 for
    an empty view, whose start NumPy does not keep)."""
    base = t._base
    if base is None:
        return 0
    return (_address(t._data) - _address(base._data)) // t._data.itemsize


def data_ptr(t: Tensor) -> int:
    """The address of ``t``'s first element."""
    return _address(t._data)

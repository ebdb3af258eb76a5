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
(``_VersionCounter.add_view``). PyTorch instead checks a view's version each time its
``grad_fn`` is read. Two consequences, both tested: after an in-place change made under
no_grad (which changes no history), a view keeps its node's name where PyTorch renames it
``AsStridedBackward0`` (values and gradients are the same); and a view that PyTorch refuses to
use after its base changed (made under no_grad, or by ``unbind``) raises PyTorch's error when
backward reaches it, or its node's ``name()`` is read, rather than at once.

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
from minitorch.autograd.function import Function
from minitorch.ops.indexing import Index, IndexAdd, IndexPut

__all__ = ["CopySlices", "AsStrided", "ViewGeometry", "inplace_on_view", "rebase_views",
           "view_change_message", "storage_offset", "data_ptr"]


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
    and offset), kept in bytes as NumPy gives them.

    ``positions()`` turns it into each element's position in the base flattened in C order,
    the index that picks the view's part out of a gradient of the base's shape.
    """

    __slots__ = ("shape", "strides", "offset", "base_shape", "base_strides", "base_dense",
                 "itemsize", "xp", "_positions")

    def __init__(self, view: Tensor, base: Tensor) -> None:
        v, b = view._data, base._data
        self.shape, self.strides = v.shape, v.strides
        self.offset = _address(v) - _address(b)
        self.base_shape, self.base_strides = b.shape, b.strides
        self.base_dense = bool(b.flags.c_contiguous)
        self.itemsize, self.xp = b.itemsize, array_module(b)
        self._positions = None

    @property
    def base_numel(self) -> int:
        return int(np.prod(self.base_shape, dtype=np.int64))

    def positions(self):
        """An integer array of the view's shape: where each element is in the flat base."""
        if self._positions is None:
            xp = self.xp
            where = _byte_offsets(xp, self.shape, self.strides) + self.offset
            if self.base_dense:
                found = where // self.itemsize
            else:  # look each address up among the base's addresses
                at = _byte_offsets(xp, self.base_shape, self.base_strides).reshape(-1)
                order = xp.argsort(at, kind="stable")
                found = order[xp.searchsorted(at[order], where)] if at.size else where
            self._positions = found
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
    (adding where an expanded view shows one element more than once). minitorch makes these
    nodes only in :func:`rebase_views`, never by running a forward.
    """

    node_name = "AsStridedBackward0"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        g = ctx.geometry
        return IndexAdd.apply(grad, (g.base_numel,), g.positions()).reshape(g.base_shape)


class CopySlicesFunction(Function):
    """The backward of :class:`CopySlices` (the node class is below)."""

    node_name = "CopySlices"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        # The base's gradient passes through, except at the view's positions: there the
        # in-place op's backward turns it into the gradient of the view's old value.
        g = ctx.geometry
        flat = grad.reshape(-1)
        where = g.positions()
        op = ctx.fn
        grads = (op._forward_cls.backward(op, Index.apply(flat, where)) if op._builtin
                 else op.apply(Index.apply(flat, where)))
        grads = grads if type(grads) is tuple else (grads,)
        grads = (grads + (None,) * len(op._next))[:len(op._next)]
        old = grads[0]
        if old is None:  # the op's result does not depend on the old value
            old = _wrap(array_module(grad._data).zeros(g.shape, dtype=grad._data.dtype))
        elif old._data.shape != g.shape or old._data.dtype != grad._data.dtype:
            old = old.sum_to_size(g.shape).to(grad.dtype)
        whole = IndexPut.apply(flat, old, (where,)).reshape(g.base_shape)
        return (whole,) + grads[1:]


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


class ModifiedView(Function):
    """The node of a view that PyTorch forbids to use after its base changed in place (made
    under no_grad, or by unbind/split): using it in backward raises PyTorch's error."""

    node_name = "ModifiedView"
    _builtin = True

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError(ctx.message)


class _ModifiedViewNode(ModifiedView._backward_cls):
    def name(self) -> str:  # PyTorch raises as soon as such a view's grad_fn is looked at
        raise RuntimeError(self.message)


def _short_name(node) -> str:
    name = node.name()
    return name.rsplit("Backward", 1)[0] if "Backward" in name else name


def view_change_message(view: Tensor, indirect: bool) -> str:
    """PyTorch's error for changing in place a view made under no_grad or by a multi-view op
    (``indirect``: the view's base, or another view of it, was changed)."""
    node, kind = view._grad_fn, view._view_kind
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


def inplace_on_view(view: Tensor, fn, args: tuple) -> Tensor:
    """``view``'s in-place op ``fn(view, *args)``, recorded: the base's node becomes
    ``CopySlices`` (``Tensor._inplace`` has checked that it may)."""
    base = view._base
    base_edge = base._edge()
    result = fn(view._recorded_copy(), *args)  # the op's node: ``result._grad_fn``
    view._write(result._data)  # into the base's memory: the shared version goes up
    op = result._grad_fn
    if op is None:  # nothing differentiable was recorded
        return view
    node = _node(CopySlices, (base_edge,) + op._next[1:], (_meta(base),) + op._input_meta[1:],
                 op._seq)
    node.fn, node.geometry, node._saved = op, ViewGeometry(view, base), op._saved
    base._set_history(node, 0)
    rebase_views(base)
    return view


def rebase_views(base: Tensor) -> None:
    """After an in-place change gave ``base`` a new history, give each of its views a new node,
    ``AsStridedBackward0`` (PyTorch makes it when the view is next used; minitorch at once)."""
    edge = base._edge()
    seq = edge[0]._seq
    for v in base._version_counter.live_views():
        if v._base is not base:  # a view of a detached tensor shares the counter too
            continue
        if v._view_kind:
            node = _node(_ModifiedViewNode, (edge,), (_meta(base),), seq)
            node.message = view_change_message(v, indirect=True)
        else:
            node = _node(AsStrided._backward_cls, (edge,), (_meta(base),), seq)
            node.geometry = ViewGeometry(v, base)
        v._grad_fn, v._output_nr, v._requires_grad = node, 0, True


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

"""The margin losses and the rest of PyTorch's losses, behind ``nn.functional``'s
``soft_margin_loss``, ``multi_margin_loss``, ``multilabel_margin_loss``,
``multilabel_soft_margin_loss``, ``cosine_embedding_loss``, ``margin_ranking_loss``,
``hinge_embedding_loss``, ``triplet_margin_loss``, ``triplet_margin_with_distance_loss``,
``gaussian_nll_loss`` and ``poisson_nll_loss``.

PyTorch computes three of them in one kernel each, so their graphs have one node:
``SoftMarginLossBackward0``, ``MultiMarginLossBackward0`` and ``MultilabelMarginLossBackward0``
(the ``Function`` classes here). The others it composes from tensor operations, and so do the
functions here, op for op, so that ``loss.grad_fn`` and the nodes below it carry PyTorch's names
(``MeanBackward0`` over ``ClampMinBackward0`` for a triplet loss, ...).

A margin loss is zero once a score beats the others by ``margin``: with ``z = margin - (right
score - wrong score)``, each pair costs ``max(0, z)``, and only the pairs with ``z > 0`` get a
gradient.
"""

from __future__ import annotations

import math

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module, onto_device_of, to_numpy
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.nn._activation import LogSigmoid
from minitorch.nn._padding import NormDim
from minitorch.nn._util import (
    _check_reduction,
    _fmt_shape,
    _legacy_reduction,
    _reduce,
    _reduce_array,
    _scale_grad,
    _type_name,
)
from minitorch.ops._util import broadcast_error
from minitorch.ops.arithmetic import AddScalar, MulScalar, SubScalar, where
from minitorch.ops.indexing import _add_at
from minitorch.ops.shape import unsqueeze

_EPSILON = 1e-12  # cosine_embedding_loss adds it to each squared norm, as PyTorch
_NEG_BOOL = ("Negation, the `-` operator, on a bool tensor is not supported. If you are "
             "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _reduction_of(size_average, reduce, reduction: str) -> str:
    """``reduction``, or what the deprecated ``size_average``/``reduce`` say, checked."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    return reduction


def _no_grad_for(tensor, name: str, function: str) -> None:
    """PyTorch's error for an argument its kernel does not differentiate."""
    if isinstance(tensor, Tensor) and tensor.requires_grad and grad_mode._state.enabled:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                           f"argument '{name}'. This input cannot have requires_grad True.")


def _plus(x: Tensor, number: float) -> Tensor:
    """``x + number`` as PyTorch's C++ adds a number (``AddBackward1``); an integer tensor
    plus a float becomes a float tensor of the default dtype."""
    if x.is_floating_point():
        return AddScalar.apply(x, float(number))
    return x + float(number)


# ============================================================== soft margin: one node


class SoftMarginLoss(Function):
    """``log(1 + exp(-y x))`` for a label ``y`` of +-1: the logistic loss.

    ``d/dx = -y e / (1 + e)`` with ``e = exp(-y x)``; that gradient is an operation of its own,
    :class:`SoftMarginLossGrad`, as in PyTorch."""

    node_name = "SoftMarginLossBackward0"
    _builtin = True
    _edge_args = (0,)  # the target gets no gradient (PyTorch refuses one that asks for it)

    @staticmethod
    def forward(x, y, reduction):
        xd = x._data
        with np.errstate(over="ignore"):  # exp overflows to inf, and the loss is inf
            loss = np.log1p(np.exp(-xd * y._data.astype(xd.dtype, copy=False)))
        return _wrap(array_module(xd).asarray(_reduce_array(loss, reduction, xd.dtype)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, ctx.reduction = inputs
        ctx.save_for_backward(x, y)

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        if y.dtype is _dtype.bool:  # PyTorch's backward starts with -target
            raise RuntimeError(_NEG_BOOL)
        return SoftMarginLossGrad.apply(grad, x, y, ctx.reduction), None, None


class SoftMarginLossGrad(Function):
    """``soft_margin_loss_backward``: ``-norm y e / (1 + e) grad`` with ``e = exp(-y x)`` and
    ``norm = 1 / numel`` for ``mean``. Linear in ``grad``; its derivative for ``x`` is
    ``norm y^2 e / (1 + e)^2 grad``."""

    node_name = "SoftMarginLossBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(grad, x, y, reduction):
        xd = x._data
        yd = y._data.astype(xd.dtype, copy=False)
        norm = 1.0 / xd.size if reduction == "mean" and xd.size else 1.0
        with np.errstate(over="ignore", invalid="ignore"):
            e = np.exp(-yd * xd)
            out = yd * e * xd.dtype.type(-norm) / (1 + e) * grad._data
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, x, y, ctx.reduction = inputs
        ctx.save_for_backward(grad, x, y)

    @staticmethod
    def backward(ctx, gg):
        grad_output, x, y = ctx.saved_tensors
        grad = SoftMarginLossGrad.apply(gg, x, y, "none")  # linear in the incoming gradient
        gx = None
        if ctx.needs_input_grad[1]:
            e = (-y * x).exp()
            gx = (_scale_grad(gg * grad_output, ctx.reduction, x.numel())
                  * (y * y) * e / (e + 1) / (e + 1))
        if ctx.reduction == "mean":
            grad = grad / max(x.numel(), 1)
        return (grad if ctx.reduction == "none" else grad.sum()), gx, None, None


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
                     reduction: str = "mean") -> Tensor:
    """The two-class logistic loss ``log(1 + exp(-target * input))`` for targets of +-1
    (``nn.SoftMarginLoss``). The loss has ``input``'s dtype."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _no_grad_for(target, "target", "soft_margin_loss")
    kind = input._data.dtype.kind
    if kind == "b":
        raise RuntimeError(_NEG_BOOL)
    if kind != "f":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_type_name(input)}")
    try:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(target.shape))
    except ValueError:
        raise broadcast_error(input.shape, target.shape) from None
    if shape != tuple(input.shape):
        raise RuntimeError(f"output with shape {_fmt_shape(input.shape)} doesn't match the "
                           f"broadcast shape {_fmt_shape(shape)}")
    if tuple(target.shape) != shape:
        target = target.expand(shape)
    return SoftMarginLoss.apply(input, target, reduction)


# ============================================================== multi-class margins: one node


class NotDifferentiated(Function):
    """A gradient that PyTorch does not differentiate again (``multi_margin_loss_backward``,
    ...): its node is ``NotImplemented``, and differentiating it raises, as there.
    Subclasses name the ATen operation and compute the gradient in ``forward``.

    PyTorch's autograd-not-implemented fallback gives that node an edge for each tensor
    argument that requires grad, and none for the others (the incoming gradient of a
    first-order backward has none): ``apply`` records it through a subclass that lists
    those arguments in ``_edge_args``, made once for each combination."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _aten_name = ""
    _variants: dict = {}  # (class, positions of the arguments with edges): its subclass

    @classmethod
    def apply(cls, *args):
        if cls._edge_args is not None:  # a variant already
            return super().apply(*args)
        edges = tuple([i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad])
        variant = NotDifferentiated._variants.get((cls, edges))
        if variant is None:
            variant = type(cls)(cls.__name__, (cls,), {
                "node_name": cls.node_name, "_builtin": True, "_edge_args": edges,
                "__module__": cls.__module__, "__qualname__": cls.__qualname__})
            NotDifferentiated._variants[cls, edges] = variant
        return variant.apply(*args)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # its backward only raises

    @classmethod
    def backward(cls, ctx, gg):
        raise RuntimeError(f"derivative for aten::{cls._aten_name} is not implemented")


class MultiMarginLoss(Function):
    """Multi-class hinge loss: per sample, ``sum_{j != y} w[y] max(0, z_j)^p / C`` with
    ``z_j = margin - x[y] + x[j]``. Its gradient is computed by :class:`MultiMarginLossGrad`,
    which PyTorch does not differentiate again."""

    node_name = "MultiMarginLossBackward0"
    _builtin = True
    pack_order = (0, "target", "weight")  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0,)  # the target and the class weights get no gradient

    @staticmethod
    def forward(x, target, p, margin, weight, reduction):
        rows, t, z, active = _multi_margin_pairs(x, target, margin)
        h = array_module(rows).where(active, z if p == 1 else z * z, rows.dtype.type(0))
        if weight is not None:
            h = h * weight._data[t][:, None]
        per_sample = h.sum(1, dtype=rows.dtype) / rows.dtype.type(rows.shape[1])
        if reduction == "none":
            return _wrap(per_sample.reshape(target.shape))
        total = per_sample.sum(dtype=rows.dtype)
        if reduction == "mean" and rows.shape[0]:  # an empty batch: 0, as PyTorch
            total = total / rows.dtype.type(rows.shape[0])
        return _wrap(array_module(rows).asarray(total, dtype=rows.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.target, ctx.p, ctx.margin, ctx.weight, ctx.reduction = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return MultiMarginLossGrad.apply(grad, x, ctx), None, None, None, None, None


def _multi_margin_pairs(x: Tensor, target: Tensor, margin: float) -> tuple:
    """The scores as rows (N, C), the targets (N,), ``z = margin - x[y] + x[j]`` for every
    class ``j``, and where it counts: ``z > 0`` and ``j != y`` (NaN never counts)."""
    rows = x._data.reshape(-1, x.shape[-1] if x.dim() else 1)
    t = target._data.reshape(-1)
    xp = array_module(rows)
    n = xp.arange(rows.shape[0])
    z = rows.dtype.type(margin) - rows[n, t][:, None] + rows
    active = z > 0
    active[n, t] = False
    return rows, t, z, active


class MultiMarginLossGrad(NotDifferentiated):
    """``multi_margin_loss_backward``: ``w[y] (1 or 2 z_j) / C`` at each class ``j`` that
    counts, minus their sum at the target class, times the incoming gradient."""

    node_name = "torch::autograd::NotImplemented"  # (read from each class's own body)
    _builtin = True
    _aten_name = "multi_margin_loss_backward"

    @staticmethod
    def forward(grad, x, loss):
        rows, t, z, active = _multi_margin_pairs(x, loss.target, loss.margin)
        xp, dt = array_module(rows), rows.dtype.type
        scale = rows.shape[1] * (rows.shape[0] if loss.reduction == "mean" else 1)
        g = xp.where(active, dt(1) if loss.p == 1 else dt(2) * z, dt(0)) / dt(scale)
        if loss.weight is not None:
            g = g * loss.weight._data[t][:, None]
        g[xp.arange(rows.shape[0]), t] = -g.sum(1)
        go = grad._data.reshape(-1, 1) if loss.reduction == "none" else grad._data
        return _wrap((g * go).reshape(x.shape))


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,  # noqa: A002
                      weight: Tensor | None = None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    """The multi-class hinge loss of scores ``(N, C)`` (or ``(C,)``) against class indices
    (``nn.MultiMarginLoss``): every wrong class ``j`` scoring within ``margin`` of the target
    class ``y`` costs ``w[y] (margin - x[y] + x[j])^p``, averaged over the ``C`` classes."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    _no_grad_for(weight, "weight", "multi_margin_loss")
    _margin_checks(input, target, "multi_margin_loss_cpu_kernel")
    n_classes = input.shape[-1] if input.dim() else 1
    n = input.shape[0] if input.dim() == 2 else 1
    if target.dim() > 1 or target.numel() != n:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n}], but got "
            f"{_fmt_shape(target.shape)}. Input has shape {_fmt_shape(input.shape)}.")
    t = target._data
    if t.size and (t.min() < 0 or t.max() >= n_classes):
        raise RuntimeError("target out of range")
    if weight is not None:
        if weight.numel() != n_classes:
            raise RuntimeError(f"inconsistent weight size, expected {n_classes} but got "
                               f"{_fmt_shape(weight.shape)}")
        if weight.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input)} but found "
                               f"{_type_name(weight)}")
    return MultiMarginLoss.apply(input, target, int(p), float(margin), weight, reduction)


def _margin_checks(input: Tensor, target: Tensor, kernel: str) -> None:  # noqa: A002
    """PyTorch's checks of the scores and class indices of the two multi-class margin
    losses: a non-empty vector or (N, C) matrix of float32 or float64, and int64 targets."""
    shape = tuple(input.shape)
    if len(shape) > 2 or (shape and shape[-1] == 0):
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {_fmt_shape(shape)}")
    if target._data.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    if input._data.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')


def _is_target(node) -> Tensor:
    """What PyTorch's multilabel margin loss saves as ``is_target``: 1 at each class a row of
    the target lists (up to its first -1), else 0, in the input's dtype (for
    ``saved_tensors_hooks``)."""
    target = to_numpy(node.target._data)
    rows = target.reshape(-1, target.shape[-1] if target.ndim else 1)
    out = np.zeros(rows.shape, node.saved_tensors[0]._data.dtype)
    for r, row in enumerate(rows):
        for c in row:
            if c < 0:
                break
            out[r, c] = 1
    return _wrap(onto_device_of(out.reshape(target.shape), node.target._data))


class MultilabelMarginLoss(Function):
    """Multi-label hinge loss: each row of ``target`` lists the sample's classes, ended by the
    first -1. Every listed class ``j`` against every unlisted class ``k`` costs
    ``max(0, 1 - x[j] + x[k])``; per sample, the sum over ``C``. The gradient
    (:class:`MultilabelMarginLossGrad`) is not differentiated again, as in PyTorch."""

    node_name = "MultilabelMarginLossBackward0"
    _builtin = True
    # saved_tensors_hooks: PyTorch's pack order (self, target, and its forward's is_target)
    pack_order = (0, "target", lambda node: _is_target(node))
    _edge_args = (0,)

    @staticmethod
    def forward(x, target, reduction):
        rows, _, z, active = _multilabel_pairs(x, target)
        dt = rows.dtype.type
        hinge = array_module(rows).where(active, z, dt(0))
        per_sample = hinge.sum((1, 2), dtype=rows.dtype) / dt(rows.shape[1])
        if reduction == "none":
            return _wrap(per_sample.reshape(x.shape[:-1] if x.dim() == 2 else ()))
        total = per_sample.sum(dtype=rows.dtype)
        if reduction == "mean":
            total = total / dt(rows.shape[0])
        return _wrap(array_module(rows).asarray(total, dtype=rows.dtype))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.target, ctx.reduction = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return MultilabelMarginLossGrad.apply(grad, x, ctx), None, None


def _multilabel_pairs(x: Tensor, target: Tensor) -> tuple:
    """The scores as rows (N, C); the listed classes (N, C, with 0 past the end of each
    list); ``z[n, j, k] = 1 - x[n, t_j] + x[n, k]`` and where it counts: ``t_j`` listed,
    ``k`` not, and ``z > 0``."""
    c = x.shape[-1] if x.dim() else 1
    rows = x._data.reshape(-1, c)
    t = target._data.reshape(-1, c)
    xp = array_module(rows)
    listed = xp.cumprod(t != -1, axis=1).astype(bool)  # up to the first -1
    t = xp.where(listed, t, 0)
    n = xp.arange(rows.shape[0])[:, None]
    is_target = xp.zeros(rows.shape, bool)
    is_target[xp.broadcast_to(n, t.shape)[listed], t[listed]] = True
    z = rows.dtype.type(1) - rows[n, t][:, :, None] + rows[:, None, :]
    active = (z > 0) & listed[:, :, None] & ~is_target[:, None, :]
    return rows, t, z, active


class MultilabelMarginLossGrad(NotDifferentiated):
    """``multilabel_margin_loss_backward``: ``+1/C`` at the unlisted class and ``-1/C`` at the
    listed one of every pair that counts, times the incoming gradient."""

    node_name = "torch::autograd::NotImplemented"  # (read from each class's own body)
    _builtin = True
    _aten_name = "multilabel_margin_loss_backward"

    @staticmethod
    def forward(grad, x, loss):
        rows, t, _, active = _multilabel_pairs(x, loss.target)
        xp, dt = array_module(rows), rows.dtype.type
        scale = rows.shape[1] * (rows.shape[0] if loss.reduction == "mean" else 1)
        g = active.sum(1).astype(rows.dtype)  # each unlisted class: how many pairs count
        n = xp.broadcast_to(xp.arange(rows.shape[0])[:, None], t.shape)
        _add_at(g, (n, t), -active.sum(2).astype(rows.dtype))  # each listed one
        go = grad._data.reshape(-1, 1) if loss.reduction == "none" else grad._data
        return _wrap((g / dt(scale) * go).reshape(x.shape))


def multilabel_margin_loss(input: Tensor, target: Tensor, size_average=None,  # noqa: A002
                           reduce=None, reduction: str = "mean") -> Tensor:
    """The multi-label hinge loss (``nn.MultiLabelMarginLoss``): ``target`` has ``input``'s
    shape and lists each sample's classes, ended by the first -1 (``[3, 0, -1, 1]``: classes
    3 and 0). Each listed class should score 1 above every unlisted one."""
    reduction = _reduction_of(size_average, reduce, reduction)
    _margin_checks(input, target, "multilabel_margin_loss_forward_out_frame")
    n_classes = input.shape[-1] if input.dim() else 1
    if input.dim() <= 1:
        ok = target.dim() <= 1 and target.numel() == n_classes
    else:
        ok = target.dim() == 2 and tuple(target.shape) == tuple(input.shape)
    if not ok:
        raise RuntimeError(f"inconsistent target size: {_fmt_shape(target.shape)} for input "
                           f"of size: {_fmt_shape(input.shape)}")
    t = target._data
    if t.size and (t.min() < -1 or t.max() >= n_classes):
        raise RuntimeError("argument #2 'target' is out of range")
    return MultilabelMarginLoss.apply(input, target, reduction)


# ============================================================== composites of tensor operations


def multilabel_soft_margin_loss(input: Tensor, target: Tensor,  # noqa: A002
                                weight: Tensor | None = None, size_average=None, reduce=None,
                                reduction: str = "mean") -> Tensor:
    """Binary cross-entropy on logits for each class, averaged over the classes
    (``nn.MultiLabelSoftMarginLoss``): ``-(y log s(x) + (1 - y) log s(-x))``, times the
    class ``weight``, summed over the last dimension and divided by ``C``."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"log_sigmoid_cpu\" not implemented for "
                                  f"'{_type_name(input)}'")
    loss = -(target * LogSigmoid.apply(input) + (1 - target) * LogSigmoid.apply(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)  # one loss per sample
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Pulls pairs together or pushes them apart by their cosine similarity
    (``nn.CosineEmbeddingLoss``): ``1 - cos`` where ``target`` is 1, ``max(0, cos - margin)``
    where it is -1, 0 elsewhere. Inputs (N, D) with targets (N,), or (D,) with a 0-d one."""
    reduction = _reduction_of(size_average, reduce, reduction)
    dim = target.dim()
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if (input1.dim(), input2.dim()) != (dim + 1, dim + 1):
        raise RuntimeError(
            f"{dim}D target tensor expects {dim + 1}D input tensors, but found inputs with "
            f"sizes {_fmt_shape(input1.shape)} and {_fmt_shape(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _plus((input1 * input1).sum(dim), _EPSILON)
    mag_square2 = _plus((input2 * input2).sum(dim), _EPSILON)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    zeros = cos.new_zeros(cos.shape)
    pos = cos.new_ones(cos.shape) - cos  # PyTorch's C++ `1 - cos`: SubBackward0
    neg = SubScalar.apply(cos, float(margin)).clamp_min(0)
    output = where(target == 1, pos, zeros) + where(target == -1, neg, zeros)
    return _reduce(output, reduction)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """``max(0, -target (input1 - input2) + margin)``: a target of 1 says ``input1`` should
    rank higher by ``margin``, -1 that ``input2`` should (``nn.MarginRankingLoss``)."""
    reduction = _reduction_of(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _margin_ranking_loss(input1, input2, target, margin, reduction)


def _margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float,
                         reduction: str) -> Tensor:
    """:func:`margin_ranking_loss` after its Python check (``torch.margin_ranking_loss``
    broadcasts inputs of any number of dimensions)."""
    return _reduce(_plus(-target * (input1 - input2), margin).clamp_min(0), reduction)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,  # noqa: A002
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """For distances ``input`` and labels of +-1 (``nn.HingeEmbeddingLoss``): ``input``
    itself where ``target`` is 1, ``max(0, margin - input)`` where it is -1."""
    reduction = _reduction_of(size_average, reduce, reduction)
    zeros = input.new_zeros(input.shape)
    margin_clamp = (input.new_full(input.shape, margin) - input).clamp_min(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def _pairwise_distance(x1: Tensor, x2: Tensor, p: float, eps: float) -> Tensor:
    """``F.pairwise_distance(x1, x2, p, eps)``, recorded as it records it: the p-norm of
    ``x1 - x2 + eps`` over the last dimension (``NormBackward1`` over ``AddBackward1``)."""
    diff = x1 - x2
    if not diff.is_floating_point():
        diff = diff.to(_dtype.get_default_dtype())
    last = max(x1.dim(), x2.dim()) - 1
    return NormDim.apply(AddScalar.apply(diff, eps), float(p), (last,) if last >= 0 else (),
                         False)


def _triplet_checks(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float,
                    check_margin: bool = True) -> None:
    """The checks of the triplet losses (``torch.triplet_margin_loss``: without the one of
    ``margin``, which only ``nn.functional``'s makes)."""
    if check_margin and margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if len(set(dims)) != 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs")


def _triplet(distance, anchor, positive, negative, margin, swap, reduction,
             plus=_plus) -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))``; with ``swap``, the
    negative's distance is the smaller of its distances to the anchor and the positive.
    ``plus(d, margin)`` adds the margin (as C++ does, or as Python does)."""
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance(positive, negative))
    return _reduce((plus(dist_pos, margin) - dist_neg).clamp_min(0), reduction)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """The triplet loss (``nn.TripletMarginLoss``): the anchor should be closer to the
    positive than to the negative by ``margin``, in the p-norm distance of
    ``F.pairwise_distance``."""
    reduction = _reduction_of(size_average, reduce, reduction)
    return _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction)


def _triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float,
                         p: float, eps: float, swap: bool, reduction: str,
                         check_margin: bool = True) -> Tensor:
    _triplet_checks(anchor, positive, negative, margin, check_margin)
    return _triplet(lambda a, b: _pairwise_distance(a, b, p, eps), anchor, positive,
                    negative, margin, swap, reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """The triplet loss with any distance: ``distance_function(a, b)`` gives one distance
    per sample (``F.pairwise_distance`` when it is None)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    _triplet_checks(anchor, positive, negative, margin)
    if distance_function is None:
        distance_function = lambda a, b: _pairwise_distance(a, b, 2.0, 1e-6)  # noqa: E731
    # written in Python in PyTorch: `margin + dist_pos` is AddBackward0
    return _triplet(distance_function, anchor, positive, negative, margin, swap, reduction,
                    plus=lambda d, m: m + d)


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False,  # noqa: A002
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of ``target`` under normal distributions of mean ``input``
    and variance ``var`` (``nn.GaussianNLLLoss``): ``(log var + (input - target)^2 / var) / 2``,
    plus ``log(2 pi) / 2`` with ``full``. ``var`` has ``input``'s shape, or one dimension
    fewer or one of size 1 (one variance shared along it), or is a float; it is clamped at
    ``eps`` without a gradient."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * input.new_ones(input.shape)
    elif not isinstance(var, Tensor):
        raise TypeError("any() received an invalid combination of arguments - got "
                        f"({type(var < 0).__name__}), but expected one of:")
    elif bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(var.shape):  # one variance per row
            var = unsqueeze(var, -1)
        elif not (input.dim() == var.dim()
                  and sum(b for a, b in zip(input.shape, var.shape) if a != b) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True,  # noqa: A002
                     full: bool = False, size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """The negative log-likelihood of counts ``target`` under Poisson distributions of rate
    ``exp(input)`` (``log_input``) or ``input`` (``nn.PoissonNLLLoss``): ``exp(input) - target
    input``, or ``input - target log(input + eps)``. ``full`` adds Stirling's approximation of
    ``log(target!)``, ``target log target - target + log(2 pi target) / 2``, where
    ``target > 1``."""
    reduction = _reduction_of(size_average, reduce, reduction)
    # (PyTorch's C++ computes target * input before exp(input): made in that order, the nodes
    # run in PyTorch's order, and a recorded gradient adds its parts as PyTorch's does)
    if log_input:
        product = target * input
        loss = input.exp() - product
    else:
        loss = input - target * _plus(input, eps).log()
    if full:
        t = target if target.is_floating_point() else target.to(_dtype.get_default_dtype())
        half_log = MulScalar.apply(MulScalar.apply(t, 2 * math.pi).log(), 0.5)  # (first, too)
        stirling = t * t.log() - t + half_log
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)

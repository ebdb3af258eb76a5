"""Losses: the ``Function`` classes behind ``nn.functional``'s ``mse_loss``, ``l1_loss``,
``binary_cross_entropy(_with_logits)``, ``nll_loss`` and ``cross_entropy``."""

from __future__ import annotations

import math

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import no_grad
from minitorch.nn._activation import LogSigmoid
from minitorch.nn._util import (
    _reduce_array,
    _type_name,
)
from minitorch.ops._util import REDUCTION_ENUM, broadcast_error, quietly, saved_attr
from minitorch.ops.arithmetic import AddScalar, DivScalar, MulScalar
from minitorch.ops.elementwise import logit
from minitorch.ops.unary import sigmoid


def _softplus_neg_abs(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(-|x|))``, which never overflows."""
    return np.log1p(np.exp(-np.abs(x)))


class BinaryCrossEntropyWithLogits(Function):
    """Sigmoid followed by binary cross-entropy, in one numerically stable step.

    With ``x`` the logit, ``y`` the target and ``p`` the positive weight:
    ``loss = (1 - y) x + (1 + (p - 1) y) (log(1 + e^-|x|) + max(-x, 0))``.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    _builtin = True
    _edge_args = (0, 1)  # as in PyTorch, the weights get no gradient (and no edge)
    saved_names = ("self", "target", "weight", "pos_weight")  # as in PyTorch, and:
    saved_values = {"reduction": saved_attr("reduction", convert=REDUCTION_ENUM.get)}

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        ctx.save_for_backward(x, y, weight, pos_weight)
        ctx.reduction = reduction
        # The loss has the target's dtype, as PyTorch's (whose first step is 1 - target),
        # computed in the wider of the two.
        out_dtype = y._data.dtype
        wide = np.promote_types(x._data.dtype, out_dtype)
        xd, yd = x._data.astype(wide, copy=False), y._data.astype(wide, copy=False)
        log_sig_neg = _softplus_neg_abs(xd) + np.maximum(-xd, 0)  # -log(sigmoid(x))
        if pos_weight is None:
            loss = (1 - yd) * xd + log_sig_neg
        else:
            loss = (1 - yd) * xd + (1 + (pos_weight._data - 1) * yd) * log_sig_neg
        if weight is not None:
            loss = loss * weight._data
        if reduction == "mean":
            loss = loss.mean(dtype=xd.dtype)
        elif reduction == "sum":
            loss = loss.sum(dtype=xd.dtype)
        elif reduction != "none":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return _wrap(loss.astype(out_dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's binary_cross_entropy_with_logits_backward and ..._target_backward, step
        # by step (so that create_graph=True records its nodes)
        x, y, weight, pos_weight = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                gx = sigmoid(x) - y                  # d loss / dx = sigmoid(x) - y
            else:
                t = pos_weight * y
                gx = (AddScalar.apply(t, 1) - y) * sigmoid(x) - t
            gx = _weighted_mean(gx * grad, weight, ctx.reduction, x.numel())
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                gy = -x * grad                       # d loss / dy = -x
            else:  # d loss / dy = log sigmoid(-x) - p log sigmoid(x)
                gy = (LogSigmoid.apply(-x) - LogSigmoid.apply(x) * pos_weight) * grad
            gy = _weighted_mean(gy, weight, ctx.reduction, y.numel())
        return gx, gy


def _weighted_mean(g, weight, reduction: str, n: int):
    """``g`` times the loss' weight, divided by ``n`` for ``"mean"``: the last steps of
    PyTorch's binary cross-entropy gradients."""
    if weight is not None:
        g = g * weight
    return DivScalar.apply(g, n) if reduction == "mean" else g


class MseLoss(Function):
    """Mean squared error, ``mean((x - y)^2)``; ``d/dx = 2 (x - y) / n``."""

    node_name = "MseLossBackward0"
    _builtin = True
    saved_names = ("self", "target")  # the node's _saved_<name>, as in PyTorch
    saved_values = {"reduction": saved_attr("reduction", convert=REDUCTION_ENUM.get)}

    @staticmethod
    def forward(ctx, x, y, reduction):
        dt = _dtype.result_type(x, y).np  # float32 input, float64 target: a float64 loss
        xd, yd = x._data.astype(dt, copy=False), y._data.astype(dt, copy=False)
        if xd.dtype.kind != "f":
            raise NotImplementedError(f'"mse_cpu" not implemented for \'{_type_name(x)}\'')
        try:
            diff = xd - yd
        except ValueError:
            raise broadcast_error(x.shape, y.shape) from None
        ctx.save_for_backward(x, y)
        ctx.reduction, ctx.n = reduction, diff.size
        return _wrap(_reduce_array(quietly(np.multiply, diff, diff), reduction, xd.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors  # the target's gradient: the same, with x and y swapped
        return (MseLossGrad.apply(grad, x, y, ctx.reduction) if ctx.needs_input_grad[0]
                else None,
                MseLossGrad.apply(grad, y, x, ctx.reduction) if ctx.needs_input_grad[1]
                else None)


class MseLossGrad(Function):
    """mse_loss' backward as an operation of its own, as PyTorch's ``mse_loss_backward``:
    ``d loss/dx = norm (x - y) grad``, with ``norm = 2 / n`` for ``"mean"``, else 2. One
    node, the one PyTorch records with ``create_graph=True``. Its own backward in tensor
    operations: linear in ``grad`` (summed back to the loss' shape), and ``norm`` times the
    incoming gradient times ``grad`` for ``x`` (minus that for ``y``)."""

    node_name = "MseLossBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, x, y, reduction):
        ctx.save_for_backward(grad, x, y)
        ctx.reduction = reduction
        ctx.norm = 2 / max(x.numel(), 1) if reduction == "mean" else 2
        g, xd, yd = (_opmath(t._data) for t in (grad, x, y))
        out = quietly(np.multiply, ctx.norm * quietly(np.subtract, xd, yd), g)
        return _wrap(out.astype(x._data.dtype, copy=False))  # (as the input x, as PyTorch)

    @staticmethod
    def backward(ctx, gg):
        grad, x, y = ctx.saved_tensors
        need_grad, need_x, need_y = ctx.needs_input_grad[:3]
        d_grad = d_x = None
        if need_grad:
            d_grad = MseLossGrad.apply(gg, x, y, ctx.reduction)
            d_grad = d_grad if ctx.reduction == "none" else d_grad.sum()
        if need_x or need_y:
            d_x = MulScalar.apply(gg * grad, ctx.norm)
        return d_grad, d_x if need_x else None, -d_x if need_y else None


def _opmath(x: np.ndarray) -> np.ndarray:
    """``x`` in the dtype PyTorch's CPU kernels compute in: float32 for float16."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


class BinaryCrossEntropy(Function):
    """``-w [y log x + (1 - y) log(1 - x)]`` on probabilities; the logs are clamped at -100
    (as in PyTorch) so that ``x = 0`` or ``1`` gives a large finite loss, not inf."""

    node_name = "BinaryCrossEntropyBackward0"
    _builtin = True
    _edge_args = (0, 1)  # the weight gets no edge, as in PyTorch
    saved_names = ("self", "target", "weight")  # as in PyTorch, and:
    saved_values = {"reduction": saved_attr("reduction", convert=REDUCTION_ENUM.get)}

    @staticmethod
    def forward(ctx, x, y, weight, reduction):
        xd = x._data
        yd = y._data.astype(xd.dtype, copy=False)
        # written so that NaN fails too, as in PyTorch
        if not ((xd >= 0) & (xd <= 1)).all():
            raise RuntimeError("all elements of input should be between 0 and 1")
        if not ((yd >= 0) & (yd <= 1)).all():
            raise RuntimeError("all elements of target should be between 0 and 1")
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(xd), -100)
            log_1mx = np.maximum(np.log1p(-xd), -100)
        loss = -(yd * log_x + (1 - yd) * log_1mx)
        if weight is not None:
            loss = loss * weight._data
        ctx.save_for_backward(x, y, weight)
        ctx.reduction, ctx.n = reduction, xd.size
        return _wrap(_reduce_array(loss.astype(xd.dtype, copy=False), reduction, xd.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight = ctx.saved_tensors
        gx = gy = None
        if ctx.needs_input_grad[0]:  # PyTorch's binary_cross_entropy_backward: one kernel
            gx = BinaryCrossEntropyGrad.apply(grad, x, y, weight, ctx.reduction)
        if ctx.needs_input_grad[1]:
            # d/dy = log(1 - x) - log(x) = -logit(x), not clamped (inf at x = 0, as in
            # PyTorch's binary_cross_entropy_target_backward)
            gy = _weighted_mean(-logit(x) * grad, weight, ctx.reduction, y.numel())
        return gx, gy


class BinaryCrossEntropyGrad(Function):
    """binary_cross_entropy's gradient for its input as an operation of its own, as
    PyTorch's ``binary_cross_entropy_backward``: ``grad (x - y) / max((1 - x) x, 1e-12)``
    (finite at ``x = 0`` and ``1``), times the weight, over ``n`` for ``"mean"``. Its own
    backward is PyTorch's ``binary_cross_entropy_double_backward`` (and ``_grad_output``,
    ``_target``), in tensor operations."""

    node_name = "BinaryCrossEntropyBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # the weight gets no edge, as in PyTorch

    @staticmethod
    def forward(ctx, grad, x, y, weight, reduction):
        ctx.save_for_backward(grad, x, y, weight)
        ctx.reduction = reduction
        xd = x._data
        one, eps = xd.dtype.type(1), xd.dtype.type(1e-12)
        g = quietly(np.multiply, grad._data, quietly(np.subtract, xd, y._data.astype(xd.dtype)))
        out = quietly(np.divide, g, np.maximum((one - xd) * xd, eps))
        if weight is not None:
            out = quietly(np.multiply, out, weight._data)
        if reduction == "mean":
            out = quietly(np.divide, out, xd.dtype.type(xd.size))
        return _wrap(array_module(xd).asarray(out, dtype=xd.dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x, y, weight = ctx.saved_tensors
        need_grad, need_x, need_y = ctx.needs_input_grad[:3]
        eps, mean = 1e-12, ctx.reduction == "mean"
        d_grad = d_x = d_y = None
        if need_grad:
            d_grad = (x - y) / (AddScalar.apply(x, eps) * AddScalar.apply(1 - x, eps)) * gg
            d_grad = d_grad if weight is None else d_grad * weight
            if ctx.reduction != "none":
                d_grad = DivScalar.apply(d_grad.sum(), x.numel()) if mean else d_grad.sum()
        if need_x:
            d_x = (x * x - MulScalar.apply(x, 2) * y + y) / (
                AddScalar.apply(x, eps).pow(2) * AddScalar.apply(1 - x, eps).pow(2))
            d_x = _weighted_mean(d_x * (gg * grad), weight, ctx.reduction, x.numel())
        if need_y:
            d_y = -gg * grad
            d_y = d_y if weight is None else d_y * weight
            denom = (1 - x) * x
            with no_grad():  # clamped where it is 0, its derivative left as it is
                denom.clamp_min_(eps)
            d_y = _weighted_mean(d_y / denom, None, ctx.reduction, y.numel())
        return d_grad, d_x, d_y


class NllLoss(Function):
    """Negative log-likelihood: pick ``-logp[target]`` for each sample.

    The gradient is ``-weight[target]`` times the incoming gradient (divided by the total
    weight for ``mean``) at the target class, and 0 elsewhere. As in PyTorch it is written
    into zeros at the targets, not multiplied by a 0/1 matrix: an infinite gradient stays
    infinite at the targets and 0 elsewhere, where ``inf * 0`` would give NaN.
    """

    node_name = "NllLossBackward0"
    _builtin = True
    # saved_tensors_hooks: what PyTorch packs, in its order
    pack_order = (0, ("_saved_target", lambda node, t: _nll_put_target(node, *t)),
                  "_saved_weight", "_saved_total_weight")  # (backward reads the target unpacked)
    _edge_args = (0,)  # the target and the class weights get no gradient
    saved_names = ("self",)  # the node's _saved_self, as in PyTorch, and (read when asked):
    saved_values = {"target": lambda node: _nll_saved(node, 0),
                    "weight": lambda node: _nll_saved(node, 1),
                    "total_weight": lambda node: _nll_saved(node, "total"),
                    "reduction": lambda node: REDUCTION_ENUM[node.reduction],
                    "ignore_index": lambda node: node.arguments[3] % (1 << 64)}

    @staticmethod
    def forward(ctx, logp, target, weight, reduction, ignore_index):
        # Saved although the gradient does not read it, as PyTorch saves it: changing it in
        # place before backward is an error, and it is an input of the gradient's node.
        ctx.save_for_backward(logp)
        lp = logp._data
        xp = array_module(lp)
        # One row of class scores per target: (C,) -> (1, C); (N, C, d1, ...) -> (N*d1*..., C)
        if lp.ndim <= 2:
            moved = lp if lp.ndim == 2 else lp[None]
        else:
            moved = xp.moveaxis(lp, 1, -1)
        n_classes = moved.shape[-1]
        rows_lp = moved.reshape(-1, n_classes)
        t = target._data.reshape(-1)  # (the target tensor itself is saved, as in PyTorch)
        rows = xp.arange(t.shape[0])
        # The common case costs one small reduction: every target a class, none ignored. Read
        # as unsigned, a negative target is huge, so the largest one checks both bounds.
        in_range = not t.size or t.view(t.dtype.str.replace("i", "u")).max() < n_classes
        all_valid = in_range and not (0 <= ignore_index < n_classes
                                      and (t == ignore_index).any())
        valid, t_safe, lo, hi = None, t, 0, -1
        if not all_valid:  # an ignored target may be any number: check the others
            valid = t != ignore_index
            t_safe = xp.where(valid, t, 0)
            if t_safe.size:
                lo, hi = t_safe.min(), t_safe.max()
        if lo < 0 or hi >= n_classes:
            bad = t_safe[(t_safe < 0) | (t_safe >= n_classes)]
            raise IndexError(f"Target {int(bad[0])} is out of bounds.")
        picked = rows_lp[rows, t_safe]  # log p(target) of every sample
        if weight is not None:
            w = weight._data[t_safe].astype(lp.dtype, copy=False)
            w = w if all_valid else w * valid
        elif not all_valid:
            w = valid.astype(lp.dtype)
        else:
            w = None  # every sample counts once
        loss = -picked if w is None else -picked * w  # each sample's -log p(target) * weight
        if valid is not None:  # an ignored sample adds nothing, even where its scores are NaN
            loss = xp.where(valid, loss, 0)  # or inf (padding masked with -inf), as in PyTorch
        total = None
        if reduction == "none":
            out = loss.reshape(target._data.shape)
        else:  # PyTorch adds the losses to a +0: so does + 0 here, for a sum of -0s
            out = loss.sum(dtype=lp.dtype) + 0
            if reduction == "mean":
                total = t.shape[0] if w is None else w.sum(dtype=lp.dtype)
                # every target ignored: the loss is 0 / 0 = NaN (PyTorch's), its gradient 0
                out = out / total if total else lp.dtype.type(np.nan)
        # Where the gradient goes: the target of each counted sample, with its class weight.
        if all_valid:
            ctx.picked = (rows, t_safe, w)
        else:
            kept = rows[valid]
            ctx.picked = (kept, t_safe[kept], None if w is None else w[kept])
        ctx.moved_shape, ctx.reduction, ctx.ndim = moved.shape, reduction, lp.ndim
        ctx.arguments = (target, weight, reduction, ignore_index)  # for double backward
        ctx.total = None if total is None else float(total)
        return _wrap(xp.asarray(out, dtype=lp.dtype))

    @staticmethod
    def backward(ctx, grad):
        # nll_loss_backward is an operation of its own, as in PyTorch (its node, with
        # create_graph=True, is NllLossBackwardBackward0)
        (logp,) = ctx.saved_tensors
        return NllLossGrad.apply(grad, logp, ctx)


def _nll_saved(node, which):
    """``NllLossBackward0._saved_target`` (0), ``_weight`` (1) or ``_total_weight``: as PyTorch
    saves them (the total weight of the counted targets, 0 without reduction), freed by
    backward."""
    if which == 1 and node.arguments[1] is None:
        return None  # no weight: None, before backward and after
    node.saved_tensors  # noqa: B018 - raises the freed-graph error after backward
    if which == 0:
        return node.arguments[0]  # the target tensor itself
    if which == 1:
        return node.arguments[1]
    kept, _, w = node.picked
    total = 0 if node.reduction == "none" else len(kept) if w is None else w.sum()
    return _wrap(np.asarray(total, dtype=node._input_meta[0][1]))


def _nll_put_target(node, target) -> None:
    """Where backward's gradient goes, from the target a ``saved_tensors_hooks`` unpack hook
    gave (the class weights picked again; the total weight is the one saved)."""
    t = target._data.reshape(-1)
    xp = array_module(t)
    weight, ignore_index = node.arguments[1], node.arguments[3]
    kept = xp.arange(t.shape[0])[t != ignore_index]
    w = None if weight is None else weight._data[t[kept]].astype(node._input_meta[0][1])
    node.picked = (kept, t[kept], w)
    node.arguments = (target, *node.arguments[1:])


class NllLossGrad(Function):
    """The gradient of ``nll_loss`` for its log-probabilities, from the gradient of the loss:
    ``-(grad / total) * weight[target]`` at each target (PyTorch's order of rounding), 0
    elsewhere. It is linear in ``grad``, so its own backward is ``nll_loss`` again.

    As in PyTorch, the log-probabilities are an input too, whose values it does not read: the
    gradient requires grad when they do, and their own gradient from here is zero."""

    node_name = "NllLossBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(grad, logp, loss_ctx):
        kept, targets, w = loss_ctx.picked
        g = grad._data
        xp = array_module(g)
        if loss_ctx.total is not None:
            g = quietly(np.divide, g, g.dtype.type(loss_ctx.total))  # 0 total: inf, as torch
        g = -g.reshape(-1)[kept] if loss_ctx.reduction == "none" else -g
        out = xp.zeros((math.prod(loss_ctx.moved_shape[:-1]), loss_ctx.moved_shape[-1]),
                       dtype=g.dtype)
        out[kept, targets] = g if w is None else quietly(np.multiply, g, w)  # (0 * inf: NaN)
        return _wrap(_like_logp(out, loss_ctx))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, loss_ctx = inputs
        ctx.loss_ctx = loss_ctx

    @staticmethod
    def backward(ctx, grad):
        loss = ctx.loss_ctx
        return loss._forward_cls.apply(grad, *loss.arguments), grad.new_zeros(grad.shape)


def _like_logp(rows, ctx):
    """An array of one row of classes per sample, shaped back like logp."""
    out = rows.reshape(ctx.moved_shape)
    if ctx.ndim == 1:
        return out[0]
    if ctx.ndim > 2:  # contiguous, as PyTorch's nll_loss2d_backward returns it
        xp = array_module(out)
        return xp.ascontiguousarray(xp.moveaxis(out, -1, 1))
    return out


class NllLoss2D(NllLoss):
    """``NllLoss`` on images, (N, C, H, W) scores against (N, H, W) targets."""

    node_name = "NllLoss2DBackward0"
    _builtin = True
    _edge_args = (0,)
    saved_names, saved_values = NllLoss.saved_names, NllLoss.saved_values  # PyTorch's six

    @staticmethod
    def backward(ctx, grad):
        (logp,) = ctx.saved_tensors
        return NllLoss2DGrad.apply(grad, logp, ctx)


class NllLoss2DGrad(NllLossGrad):
    """``NllLossGrad`` of the images' loss: PyTorch's ``nll_loss2d_backward``."""

    node_name = "NllLoss2DBackwardBackward0"
    _builtin = True

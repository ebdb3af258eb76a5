"""The Connectionist Temporal Classification loss behind ``nn.functional.ctc_loss``
(``CtcLossBackward0``).

CTC scores a label sequence (``"cat"``) against per-time-step class log-probabilities of a
longer input, summing over every alignment: the input may repeat a label and put the blank
class 0 anywhere, and reading it collapses repeats and drops blanks (``"cc-aa-t"`` reads
``"cat"``). With the extended target ``l' = (blank, c, blank, a, blank, t, blank)``, the
forward variable ``alpha[t, s]`` is the log-probability of the alignments of the first ``t``
steps that end in ``l'[s]``:

    alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2]) + logp[t, l'[s]]

(the last term only where ``l'[s] != l'[s-2]``: a blank between two equal labels cannot be
skipped). The loss is ``-log`` of the probability of ending in the last label or the last
blank. The backward variable ``beta`` is the same from the end, and the gradient of the loss
for ``logp[t, c]`` is ``p[t, c] - sum_{s: l'[s] = c} exp(alpha[t, s] + beta[t, s] + loss -
logp[t, c])`` (Graves et al., 2006). As in PyTorch, that gradient is not differentiated again.
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.nn._margin_loss import NotDifferentiated
from minitorch.nn._util import _check_reduction, _type_name
from minitorch.ops.arithmetic import where
from minitorch.ops.shape import unsqueeze

_WHILE = " (while checking arguments for ctc_loss_allocate_outputs)"


def _logsumexp(*terms):
    """``log(sum(exp(terms)))`` elementwise, 0-safe where all are -inf (PyTorch's form)."""
    xp = array_module(terms[0])
    m = terms[0]
    for t in terms[1:]:
        m = xp.maximum(m, t)
    m = xp.where(m == -np.inf, m.dtype.type(0), m)
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) = -inf: no alignment
        return xp.log(sum(xp.exp(t - m) for t in terms)) + m


def _shifted(row, k, fill):
    """``row`` moved ``k`` places right (left for negative ``k``), ``fill`` in the gap."""
    xp = array_module(row)
    out = xp.full_like(row, fill)
    if k > 0:
        out[k:] = row[:-k]
    else:
        out[:k] = row[-k:]
    return out


def _alignments(lp, labels, blank):
    """``(extended target l', log alpha, log beta)`` for one sample's ``lp`` (T, C)."""
    xp = array_module(lp)
    ext = xp.full(2 * len(labels) + 1, blank, dtype=np.int64)
    ext[1::2] = labels
    emit = lp[:, ext]  # (T, L): log p of l'[s] at each step
    inf = lp.dtype.type(-np.inf)
    skip = xp.zeros(len(ext), bool)  # may skip from s-2 to s (and back, for beta)
    skip[2:] = ext[2:] != ext[:-2]
    alpha, beta = xp.full(emit.shape, inf), xp.full(emit.shape, inf)
    alpha[0, :2] = emit[0, :2]
    beta[-1, -2:] = emit[-1, -2:]
    for t in range(1, len(lp)):
        a = alpha[t - 1]
        alpha[t] = _logsumexp(a, _shifted(a, 1, inf),
                              xp.where(skip, _shifted(a, 2, inf), inf)) + emit[t]
        b = beta[-t]
        beta[-t - 1] = _logsumexp(b, _shifted(b, -1, inf),
                                  _shifted(xp.where(skip, b, inf), -2, inf)) + emit[-t - 1]
    return ext, alpha, beta


class CtcLoss(Function):
    """The negative log-likelihood of each sample's target: a (N,) tensor."""

    node_name = "CtcLossBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(log_probs, targets, input_lengths, blank, zero_infinity):
        lp = log_probs._data
        xp = array_module(lp)
        out = xp.zeros(lp.shape[1], lp.dtype)
        for b, (steps, labels) in enumerate(zip(input_lengths, targets)):
            if steps == 0:  # no input: only the empty target is possible
                out[b] = 0 if len(labels) == 0 else np.inf
                continue
            _, alpha, _ = _alignments(lp[:steps, b], labels, blank)
            out[b] = -_logsumexp(*alpha[-1, -2:]) if len(labels) else -alpha[-1, 0]
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        log_probs, ctx.targets, ctx.input_lengths, ctx.blank, ctx.zero_infinity = inputs
        ctx.save_for_backward(log_probs, output)

    @staticmethod
    def backward(ctx, grad):
        log_probs, nll = ctx.saved_tensors
        return CtcLossGrad.apply(grad, log_probs, nll, ctx), None, None, None, None


class CtcLossGrad(NotDifferentiated):
    """``_ctc_loss_backward``: ``(p - sum_{s: l'[s] = c} exp(alpha + beta + loss - logp))``
    times each sample's incoming gradient, 0 past its input length."""

    node_name = "torch::autograd::NotImplemented"  # (read from each class's own body)
    _builtin = True
    _aten_name = "_ctc_loss_backward"

    @staticmethod
    def forward(grad, log_probs, nll, loss):
        lp, g, losses = log_probs._data, grad._data, nll._data
        xp = array_module(lp)
        out = xp.zeros_like(lp)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            for b, (steps, labels) in enumerate(zip(loss.input_lengths, loss.targets)):
                if steps == 0 or (loss.zero_infinity and losses[b] == np.inf):
                    continue
                ext, alpha, beta = _alignments(lp[:steps, b], labels, loss.blank)
                both = alpha + beta
                occupancy = xp.full((steps, lp.shape[2]), lp.dtype.type(-np.inf))
                for c in xp.unique(ext).tolist():  # log of the alignments through class c
                    occupancy[:, c] = _logsumexp(*both[:, ext == c].T)
                p = lp[:steps, b]
                out[:steps, b] = (xp.exp(p) - xp.exp(occupancy + losses[b] - p)) * g[b]
        return _wrap(out)


def _lengths(value, name: str) -> list:
    """A tensor of lengths (integral) or a sequence of ints, as a list of ints."""
    if isinstance(value, Tensor):
        if value._data.dtype.kind not in "iu":
            raise RuntimeError(f"{name} must be integral")
        return [int(v) for v in value._data.reshape(-1).tolist()]
    return [int(v) for v in value]


def _type_error(*args) -> TypeError:
    got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args)
    return TypeError(f"ctc_loss() received an invalid combination of arguments - got ({got}), "
                     "but expected one of:\n * (Tensor log_probs, Tensor targets, tuple of ints "
                     "input_lengths, tuple of ints target_lengths, int blank = 0, int reduction "
                     "= Mean, bool zero_infinity = False)\n * (Tensor log_probs, Tensor targets, "
                     "Tensor input_lengths, Tensor target_lengths, int blank = 0, int reduction = "
                     "Mean, bool zero_infinity = False)\n")


def _split_targets(targets: Tensor, target_lengths: list, batch: int) -> list:
    """Each sample's labels, from (N, S) padded targets or the (sum of lengths,) concatenated
    ones, with PyTorch's checks."""
    for n in target_lengths:
        if n < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got "
                               f"value {n}" + _WHILE)
    t = targets._data.astype(np.int64, copy=False)
    if t.ndim == 1:
        if t.shape[0] != sum(target_lengths):
            raise RuntimeError(f"Expected tensor to have size {sum(target_lengths)} at "
                               f"dimension 0, but got size {t.shape[0]} for argument #2 "
                               "'targets'" + _WHILE)
        ends = np.cumsum(target_lengths)
        return [t[end - n:end] for n, end in zip(target_lengths, ends)]
    if t.shape[0] != batch:
        raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size "
                           f"{t.shape[0]} for argument #2 'targets'" + _WHILE)
    longest = max(target_lengths, default=0)
    if t.shape[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, "
                           f"but got size {t.shape[1]} for argument #2 'targets'" + _WHILE)
    return [t[b, :n] for b, n in enumerate(target_lengths)]


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths, target_lengths,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The CTC loss of label sequences given per-step log-probabilities (``nn.CTCLoss``).

    Args:
        log_probs: (T, N, C) log-probabilities (``log_softmax`` over C), or (T, C) unbatched.
        targets: (N, S) labels padded to the longest, or all of them concatenated.
        input_lengths: (N,) steps of each input (a tensor or a sequence of ints).
        target_lengths: (N,) labels of each target.
        blank: the blank class.
        reduction: ``"mean"`` divides each loss by its target length, then averages.
        zero_infinity: an impossible target (loss inf) gets loss 0 and no gradient.
    """
    _check_reduction(reduction)
    if isinstance(input_lengths, Tensor) != isinstance(target_lengths, Tensor) or \
            not isinstance(input_lengths, (Tensor, list, tuple)):
        raise _type_error(log_probs, targets, input_lengths, target_lengths, blank, 1,
                          zero_infinity)
    input_lengths = _lengths(input_lengths, "input_lengths")
    target_lengths = _lengths(target_lengths, "target_lengths")
    batched = log_probs.dim() == 3
    lp = log_probs if batched else unsqueeze(log_probs, 1)
    if lp._data.dtype not in (np.float32, np.float64):
        raise NotImplementedError(f'"ctc_loss_cpu" not implemented for \'{_type_name(lp)}\'')
    if lp.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {lp.dim()}-dimensional "
                           "tensor for argument #1 'log_probs'" + _WHILE)
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional "
                           "tensor for argument #2 'targets'" + _WHILE)
    steps, batch, classes = lp.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    for name, lengths in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if len(lengths) != batch:
            raise RuntimeError(f"{name} must be of size batch_size")
    labels = _split_targets(targets, target_lengths, batch)
    for n in input_lengths:
        if not 0 <= n <= steps:
            bound = "least 0" if n < 0 else f"most {steps}"
            raise RuntimeError(f"Expected input_lengths to have value at {bound}, but got "
                               f"value {n}" + _WHILE)
    res = CtcLoss.apply(lp, labels, input_lengths, int(blank), bool(zero_infinity))
    if zero_infinity:
        res = where(res == np.inf, res.new_zeros(()), res)
    if reduction == "mean":
        lengths = res.new_tensor(target_lengths).clamp_min(1)
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)

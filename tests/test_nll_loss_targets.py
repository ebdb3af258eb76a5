"""``nll_loss`` and ``cross_entropy`` against PyTorch over the targets' families.

Its forward takes a short path when every target is a class and none is ignored (one
reduction of the targets, read as unsigned, tells it); these tests cross that path's borders:
ignore_index inside and outside the targets' range, present or not, every target ignored,
class weights, each reduction, an empty batch, and targets out of bounds (ignored ones may be
out of bounds), of both target dtypes. Then what nll_loss saves, as PyTorch does.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _both(logits: np.ndarray, target: np.ndarray, weight, **kw):
    """(loss, gradient of the logits) of cross_entropy in both libraries."""
    out = []
    for lib in (mt, torch):
        x = lib.tensor(logits, requires_grad=True)
        w = None if weight is None else lib.tensor(weight)
        loss = lib.nn.functional.cross_entropy(x, lib.tensor(target), w, **kw)
        loss.sum().backward()
        out.append((loss.detach().numpy(), x.grad.numpy()))
    return out


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 6), c=st.integers(1, 5), seed=st.integers(0, 2**16),
       ignore=st.sampled_from([-100, 0, 1, 3, 7]), weighted=st.booleans(),
       reduction=st.sampled_from(["mean", "sum", "none"]))
def test_cross_entropy_matches_torch_over_targets(n, c, seed, ignore, weighted, reduction):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((n, c)).astype(np.float32)
    target = rng.integers(0, c, n)
    if n and rng.random() < 0.5:
        target[rng.integers(0, n)] = ignore  # ignored (it may be out of bounds)
    weight = rng.uniform(0.5, 2.0, c).astype(np.float32) if weighted else None
    if not (((target >= 0) & (target < c)) | (target == ignore)).all():
        return  # torch fails on such a target; the error test below covers it
    (ours, ours_grad), (theirs, theirs_grad) = _both(logits, target, weight,
                                                     ignore_index=ignore, reduction=reduction)
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(ours_grad, theirs_grad, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("target, dtype", [([0, 3], "int64"), ([-1, 0], "int64"),
                                           ([0, -5], "int64"), ([-2**63, 0], "int64"),
                                           ([2, 3], "uint8"), ([255, 0], "uint8")])
def test_a_target_out_of_bounds_is_named(target, dtype):
    x = mt.zeros(2, 3, requires_grad=True)
    bad = [t for t in target if not 0 <= t < 3][0]
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
        mt.nn.functional.cross_entropy(x, mt.tensor(target, dtype=getattr(mt, dtype)))
    with pytest.raises(IndexError, match=f"Target {bad} is out of bounds."):
        torch.nn.functional.cross_entropy(torch.zeros(2, 3),
                                          torch.tensor(target, dtype=getattr(torch, dtype)))


def test_an_ignored_target_may_be_out_of_bounds():
    (ours, ours_grad), (theirs, theirs_grad) = _both(
        np.ones((3, 2), np.float32), np.array([-100, 1, -100]), None)
    np.testing.assert_allclose(ours, theirs)
    np.testing.assert_allclose(ours_grad, theirs_grad)


@pytest.mark.parametrize("weight, kw", [(None, {"ignore_index": 1}),  # nothing counted
                                        (np.array([1, 0, 1], np.float32), {})])  # weight 0
def test_a_zero_total_gives_torchs_nan_without_a_numpy_warning(weight, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy's divide-by-zero warning would be an error
        (ours, ours_grad), (theirs, theirs_grad) = _both(
            np.ones((2, 3), np.float32), np.array([1, 1]), weight, **kw)
    assert np.isnan(ours) and np.isnan(theirs)
    np.testing.assert_array_equal(ours_grad, theirs_grad)  # zeros, or NaN as in torch



_BAD = [np.nan, np.inf, -np.inf]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("kw", [{}, {"weight": np.array([1.0, 2.0, 0.5], np.float32)},
                                {"label_smoothing": 0.1}], ids=["plain", "weight", "smoothing"])
@pytest.mark.parametrize("images", [False, True], ids=["rows", "images"])
def test_an_ignored_sample_adds_nothing_even_a_nan_or_an_infinite_score(reduction, kw, images):
    """An ignored sample's scores are not read: NaN, inf or a row of -inf (padding masked
    with -inf) in it leave the loss finite, as in PyTorch; the zeros it adds are +0."""
    rows = np.array([[1.0, 2.0, 3.0], [0.0, np.inf, 0.0], [np.nan, 0.0, 0.0],
                     [-np.inf] * 3, [0.5, -1.0, 2.0]], np.float32)
    target = np.array([0, -100, -100, -100, 2])
    if images:  # (N, C, H, W) scores against (N, H, W) targets: NllLoss2D
        rows, target = rows.T[None, :, :, None].copy(), target[None, :, None]
    out = []
    for lib in (mt, torch):
        x = lib.tensor(rows, requires_grad=True)
        extra = {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
        loss = lib.nn.functional.cross_entropy(x, lib.tensor(target), reduction=reduction,
                                               **extra)
        loss.sum().backward()
        out.append((loss.detach().numpy(), x.grad.numpy()))
    (ours, ours_grad), (theirs, theirs_grad) = out
    assert np.isfinite(theirs).all()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    np.testing.assert_array_equal(np.signbit(ours), np.signbit(theirs))
    np.testing.assert_allclose(ours_grad, theirs_grad, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("target", [[-100, -100], [-100, 1]])
def test_a_sum_of_zero_losses_is_plus_zero_as_in_torch(target):
    """PyTorch adds the losses to a +0: every sample ignored, or one whose probability is 1
    (a loss of -0), gives +0, not -0."""
    logp = np.array([[0.0, -np.inf], [-np.inf, 0.0]], np.float32)
    ours, theirs = (lib.nn.functional.nll_loss(lib.tensor(logp), lib.tensor(target),
                                               reduction="sum").numpy()
                    for lib in (mt, torch))
    assert ours == theirs == 0 and not np.signbit(ours) and not np.signbit(theirs)


def _nll_graph(lib):
    """nll_loss's node and its gradient's node (create_graph=True), in ``lib``."""
    x = lib.tensor(np.linspace(-1, 1, 12).reshape(3, 4), requires_grad=True)
    logp = lib.nn.functional.log_softmax(x, 1)
    seed = lib.ones((), dtype=lib.float64, requires_grad=True)
    loss = lib.nn.functional.nll_loss(logp, lib.tensor([0, 2, 1]))
    (g,) = lib.autograd.grad(loss, logp, grad_outputs=seed, create_graph=True)
    grads = lib.autograd.grad(g.sum(), (seed, x))
    return (type(loss.grad_fn._saved_self.grad_fn).__name__, type(g.grad_fn).__name__,
            [type(n).__name__ for n, _ in g.grad_fn.next_functions],
            [t.detach().numpy() for t in grads])


def test_nll_loss_saves_its_input_and_its_gradient_depends_on_it_as_in_torch():
    """PyTorch's nll_loss saves the log-probabilities (``_saved_self``) and its backward,
    ``nll_loss_backward``, takes them as an input: the gradient's node has an edge for them
    (their gradient from it is zero) as well as for the incoming gradient."""
    ours, theirs = _nll_graph(mt), _nll_graph(torch)
    assert ours[:3] == theirs[:3] == ("LogSoftmaxBackward0", "NllLossBackwardBackward0",
                                      ["AccumulateGrad", "LogSoftmaxBackward0"])
    for a, b in zip(ours[3], theirs[3]):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_changing_nll_losss_input_in_place_is_an_error_as_in_torch():
    messages = []
    for lib in (mt, torch):
        logp = lib.tensor(np.zeros((2, 3)), requires_grad=True) * 1
        loss = lib.nn.functional.nll_loss(logp, lib.tensor([0, 2]))
        with lib.no_grad():
            logp.add_(1)
        with pytest.raises(RuntimeError) as info:
            loss.backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "modified by an inplace operation" in messages[0]

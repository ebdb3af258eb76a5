"""``nll_loss`` and ``cross_entropy`` against PyTorch over the targets' families.

Its forward takes a short path when every target is a class and none is ignored (two
reductions tell it); these tests cross that path's borders: ignore_index inside and outside
the targets' range, present or not, every target ignored, class weights, each reduction,
an empty batch, and targets out of bounds (ignored ones may be out of bounds).
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


@pytest.mark.parametrize("target", [[0, 3], [-1, 0], [0, -5]])
def test_a_target_out_of_bounds_is_named(target):
    x = mt.zeros(2, 3, requires_grad=True)
    with pytest.raises(IndexError, match=f"Target {[t for t in target if not 0 <= t < 3][0]} "
                                         "is out of bounds."):
        mt.nn.functional.cross_entropy(x, mt.tensor(target))


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

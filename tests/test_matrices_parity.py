"""``block_diag``, ``diagflat``, ``cartesian_prod``, ``combinations``, ``vander``, ``cov`` and
``corrcoef`` against PyTorch: what the op table (``tests/_opinfo_samples_matrices.py``) does not
compare. The recorded graphs are PyTorch's node for node, second derivatives agree with finite
differences and torch, ``cov`` warns as PyTorch does, and Hypothesis draws sizes."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from _oracle import assert_second_derivatives_agree, node_names
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.random.default_rng(11).standard_normal((3, 4))
W = np.array([0.5, 1.0, 2.0, 0.25])

CALLS = {
    "block_diag": lambda lib, x: lib.block_diag(x, x[0], x[1, 1]) ** 2,
    "diagflat": lambda lib, x: lib.diagflat(x, -1) ** 2,
    "cartesian_prod": lambda lib, x: lib.cartesian_prod(x[0], x[1]) ** 2,
    "combinations": lambda lib, x: lib.combinations(x[0], 3, with_replacement=True) ** 2,
    "vander": lambda lib, x: lib.vander(x[0], 5),
    "cov": lambda lib, x: lib.cov(x),
    "cov-weights": lambda lib, x: lib.cov(x, fweights=lib.tensor([1, 2, 0, 3]),
                                          aweights=lib.tensor(W) * x[0] ** 2),
    "corrcoef": lambda lib, x: lib.corrcoef(x),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_graphs_are_pytorchs(name):
    # (cov with aweights: PyTorch's C++ records correction * tensor as MulBackward1, five
    # nodes down; minitorch's mul by a number is MulBackward0, as PyTorch's from Python)
    depth = 4 if name == "cov-weights" else 6
    mine, ref = (node_names(CALLS[name](lib, lib.tensor(X.copy(), requires_grad=True)), depth)
                 for lib in (minitorch, torch))
    assert mine == ref


@pytest.mark.parametrize("name", sorted(set(CALLS) - {"vander"}))
def test_second_derivatives_match_finite_differences_and_torch(name):
    assert_second_derivatives_agree(CALLS[name], X, minitorch, torch)


def test_vander_backward_fails_as_pytorchs_does():
    """PyTorch 2.13's vander writes cumprod's result into the slice cumprod read, so its
    backward finds a saved tensor modified in place; minitorch's, made the same way, too."""
    messages = []
    for lib in (minitorch, torch):
        x = lib.tensor(X[0].copy(), requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.vander(x, 5).sum().backward()
        messages.append(str(info.value)[:120])
    assert messages[0] == messages[1]
    assert "modified by an inplace operation" in messages[0]


def test_cov_warns_as_torch_does_when_there_are_no_degrees_of_freedom():
    caught = []
    for lib in (minitorch, torch):
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            out = lib.cov(lib.tensor(X.copy()), correction=4)
        caught.append(([str(w.message).split(" (Triggered")[0] for w in found],
                       out.numpy().copy()))
    assert caught[0][0] == caught[1][0] and len(caught[0][0]) == 1
    np.testing.assert_array_equal(caught[0][1], caught[1][1])  # inf and NaN where torch has


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 6), st.integers(0, 4), st.booleans())
def test_combinations_are_itertools_order_like_torch(n, r, with_replacement):
    x = np.arange(n) * 10
    mine = minitorch.combinations(minitorch.tensor(x), r, with_replacement)
    ref = torch.combinations(torch.tensor(x), r, with_replacement)
    assert tuple(mine.shape) == tuple(ref.shape)
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())
    if r:
        pick = itertools.combinations_with_replacement if with_replacement else \
            itertools.combinations
        assert [tuple(row) for row in mine.tolist()] == list(pick(x.tolist(), r))

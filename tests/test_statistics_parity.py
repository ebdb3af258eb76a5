"""``var_mean``, ``std_mean``, ``nanmedian``, ``quantile`` and ``nanquantile`` against PyTorch:
what the op table (``tests/_opinfo_samples_statistics.py``) does not reach. Second derivatives
against finite differences and torch, the nodes recorded, the index ``nanmedian`` gives for a
slice of NaN only, and Hypothesis over shapes, dims, ``q``, interpolations, ties and NaN."""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_second_derivatives_agree, node_names
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.random.default_rng(3).permutation(np.arange(12.0)).reshape(3, 4) / 7 - 0.5  # no ties
MODES = ["linear", "lower", "higher", "nearest", "midpoint"]

def _quantile_of_cubes(mode):
    return lambda lib, x: lib.quantile(x ** 3, lib.tensor([0.3, 0.55], dtype=lib.float64), 1,
                                       interpolation=mode) ** 2


SECOND_ORDER = {
    "var_mean": lambda lib, x: sum(lib.var_mean(x * x, 1, correction=0)),
    "var_mean-all": lambda lib, x: lib.var_mean(x ** 3)[0] * lib.var_mean(x ** 3)[1],
    "std_mean": lambda lib, x: lib.std_mean(x ** 2, 0)[0] * lib.std_mean(x ** 2, 0)[1],
    "std_mean-only-std": lambda lib, x: lib.std_mean(x ** 3, (0, 1), keepdim=True)[0],
    "nanmedian": lambda lib, x: lib.nanmedian(x ** 3),
    "nanmedian-dim": lambda lib, x: x.nanmedian(1).values ** 3,
    **{f"quantile-{m}": _quantile_of_cubes(m) for m in MODES},
    "nanquantile": lambda lib, x: x.pow(3).nanquantile(0.4, 0, keepdim=True) ** 2,
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives_match_finite_differences_and_torch(name):
    assert_second_derivatives_agree(SECOND_ORDER[name], X, minitorch, torch)


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.var_mean(x, 1)[0], lambda lib, x: lib.std_mean(x)[1],
    lambda lib, x: lib.nanmedian(x), lambda lib, x: x.nanmedian(0).values,
    lambda lib, x: lib.quantile(x, 0.2), lambda lib, x: x.t().quantile(0.2, 0, True),
    lambda lib, x: lib.nanquantile(x, lib.tensor([0.2, 0.9], dtype=x.dtype), -1,
                                       interpolation="higher"),
], ids=["var_mean", "std_mean", "nanmedian", "nanmedian-dim", "quantile", "quantile-dim",
        "nanquantile-q-tensor"])
def test_graphs_have_pytorchs_nodes(call):
    graphs = [node_names(call(lib, lib.tensor(X.copy(), requires_grad=True)))
              for lib in (minitorch, torch)]
    assert graphs[0] == graphs[1]


def test_one_node_gives_both_results_of_var_mean():
    for lib in (minitorch, torch):
        v, m = lib.std_mean(lib.tensor(X.copy(), requires_grad=True), 0)
        assert v.grad_fn is m.grad_fn


@pytest.mark.parametrize("n", list(range(1, 70)))
def test_nanmedian_of_nan_only_gives_pytorchs_index(n):
    """PyTorch's std::nth_element decides among NaNs, which are all equivalent to it."""
    x = np.full((2, n), np.nan, np.float32)
    x[1, n // 2] = 1.0  # and next to them, one number: the median, at its own index
    mine = minitorch.nanmedian(minitorch.from_numpy(x), 1)
    ref = torch.nanmedian(torch.from_numpy(x), 1)
    assert mine.indices.tolist() == ref.indices.tolist()
    np.testing.assert_array_equal(mine.values.numpy(), ref.values.numpy())


_VALUES = st.sampled_from([-2.0, -1.0, 0.0, 0.5, 1.0, 2.5, np.inf, -np.inf, np.nan])


def _both(call, x, **kw):
    return [call(lib, lib.from_numpy(x.copy()), **kw) for lib in (minitorch, torch)]


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
                  elements=_VALUES), st.data())
def test_nanmedian_values_and_indices_with_ties_and_nan(x, data):
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    mine, ref = _both(lambda lib, t: lib.nanmedian(t, dim), x)
    np.testing.assert_array_equal(mine.values.numpy(), ref.values.numpy())
    np.testing.assert_array_equal(mine.indices.numpy(), ref.indices.numpy())
    mine, ref = _both(lambda lib, t: lib.nanmedian(t), x)
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())


@settings(max_examples=80, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float32, np.float64]),
                  hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
                  elements=st.floats(-100, 100, width=32) | _VALUES),
       st.lists(st.floats(0, 1), min_size=0, max_size=3) | st.floats(0, 1),
       st.sampled_from(MODES), st.booleans(), st.booleans(), st.data())
def test_quantiles_like_torch(x, q, mode, keepdim, nan_version, data):
    dim = data.draw(st.none() | st.integers(-max(x.ndim, 1), max(x.ndim, 1) - 1))
    name = "nanquantile" if nan_version else "quantile"

    def call(lib, t):
        qq = lib.tensor(q, dtype=t.dtype) if isinstance(q, list) else q
        return getattr(lib, name)(t, qq, dim, keepdim, interpolation=mode)
    mine, ref = _both(call, x)
    assert mine.dtype == minitorch.from_numpy(ref.numpy()).dtype
    # the same ranks and the same lerp: the same numbers, to the last bit
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())


@pytest.mark.parametrize("module", ["ops.rearrange", "ops.search", "ops.statistics",
                                    "ops.view_scatter", "ops.scan", "ops.matrices"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"minitorch.{module}"),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0

"""``logcumsumexp``, ``trapezoid``, ``trapz`` and ``cumulative_trapezoid`` against PyTorch:
what the op table (``tests/_opinfo_samples_integrals.py``) does not reach. Second derivatives
against finite differences and torch (``logcumsumexp``'s backward calls ``logcumsumexp``
again), and Hypothesis over shapes, dims and values with infinities, where ``logcumsumexp``
must agree with PyTorch's float32 results to the last bit."""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_second_derivatives_agree
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.random.default_rng(5).standard_normal((3, 4))
XS = np.array([0.0, 0.5, 2.0, 2.25])

SECOND_ORDER = {
    "logcumsumexp": lambda lib, x: lib.logcumsumexp(x * x, 1) * x,
    "logcumsumexp-dim0": lambda lib, x: x.sin().logcumsumexp(0) ** 2,
    "trapezoid": lambda lib, x: lib.trapezoid(x ** 3, dx=0.5),
    "trapezoid-x": lambda lib, x: lib.trapezoid(x ** 3, lib.tensor(XS) * x[0]),
    "trapz-dim0": lambda lib, x: lib.trapz(x ** 3, dim=0),
    "cumulative_trapezoid": lambda lib, x: lib.cumulative_trapezoid(x ** 3, dx=2.0),
    "cumulative_trapezoid-x": lambda lib, x: lib.cumulative_trapezoid(x ** 3, x[0] ** 2,
                                                                      dim=1),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives_match_finite_differences_and_torch(name):
    assert_second_derivatives_agree(SECOND_ORDER[name], X, minitorch, torch)


_VALUES = st.floats(-90, 90, width=32) | st.sampled_from([np.inf, -np.inf, 1e30, -1e30])


@settings(max_examples=80, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
                  elements=_VALUES), st.data())
def test_logcumsumexp_like_torch_to_the_last_bit(x, data):
    dim = data.draw(st.integers(-x.ndim, x.ndim - 1))
    mine = minitorch.logcumsumexp(minitorch.from_numpy(x.copy()), dim).numpy()
    ref = torch.logcumsumexp(torch.from_numpy(x.copy()), dim).numpy()
    np.testing.assert_array_equal(mine, ref)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
                  elements=st.floats(-10, 10)), st.data())
def test_trapezoids_like_torch(y, data):
    dim = data.draw(st.integers(-y.ndim, y.ndim - 1))
    dx = data.draw(st.none() | st.floats(-3, 3))
    use_x = data.draw(st.booleans())
    for name in ("trapezoid", "cumulative_trapezoid"):
        results = []
        for lib in (minitorch, torch):
            t = lib.from_numpy(y.copy())
            if use_x:
                xs = lib.from_numpy(np.cumsum(np.arange(y.shape[dim]) + 0.5))
                results.append(getattr(lib, name)(t, xs, dim=dim).numpy())
            else:
                kw = {} if dx is None else {"dx": dx}
                results.append(getattr(lib, name)(t, dim=dim, **kw).numpy())
        assert results[0].shape == results[1].shape
        np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-12)


def _node_names(node, depth=0) -> list:
    if node is None or depth > 6:
        return []
    names = [node.name()]
    for child, _ in node.next_functions:
        names += _node_names(child, depth + 1)
    return names


_FORMS = {
    "trapezoid": lambda lib, y, x: lib.trapezoid(y),
    "trapezoid-dx": lambda lib, y, x: lib.trapezoid(y, dx=0.5),
    "trapezoid-x": lambda lib, y, x: lib.trapezoid(y, x),
    "trapz-dx": lambda lib, y, x: lib.trapz(y, dx=0.5),
    "cumulative": lambda lib, y, x: lib.cumulative_trapezoid(y),
    "cumulative-dx": lambda lib, y, x: lib.cumulative_trapezoid(y, dx=2.0),
    "cumulative-x": lambda lib, y, x: lib.cumulative_trapezoid(y, x),
}


@pytest.mark.parametrize("form", sorted(_FORMS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64"])
def test_the_whole_graph_is_pytorchs(form, dtype):
    """PyTorch's C++ multiplies and divides by the step and by 2 with the number overloads
    (``MulBackward1``, ``DivBackward1``, no edge for the number); minitorch recorded
    ``MulBackward0``/``DivBackward0`` with an empty edge."""
    seen = []
    for lib in (minitorch, torch):
        grad = dtype != "int64"
        y = lib.tensor(np.array([1, 2, 4, 3], dtype), requires_grad=grad)
        x = lib.tensor(np.array([0, 1, 3, 4], dtype), requires_grad=grad)
        out = _FORMS[form](lib, y, x)
        seen.append((str(out.dtype).split(".")[-1], out.tolist(), _node_names(out.grad_fn)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("name", ["trapezoid", "trapz", "cumulative_trapezoid"])
def test_dx_as_a_tensor_like_torch(name):
    """A 0-d tensor ``dx`` is a number to PyTorch's argument parser; one that requires grad, or
    has more elements, does not fit any overload (its TypeError lists them)."""
    outcomes = []
    for lib in (minitorch, torch):
        y, seen = lib.tensor([1.0, 2.0, 4.0]), []
        for dx in (lib.tensor(2.0), lib.tensor(2.0, requires_grad=True), lib.tensor([2.0]),
                   lib.tensor(2), True, lib.tensor(True), 0.5):
            try:
                seen.append(getattr(lib, name)(y, dx=dx).tolist())
            except (TypeError, RuntimeError) as e:
                seen.append((type(e).__name__, str(e)))
        outcomes.append(seen)
    assert outcomes[0] == outcomes[1]

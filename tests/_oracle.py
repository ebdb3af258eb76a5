"""Helpers shared by the test modules. Nothing here imports torch: the oracle modules do that.

``graph_signature`` describes a backward graph the way ``next_functions`` shows it, so that one
assertion compares the node names, the None edges and the output numbers with PyTorch's.
"""

from __future__ import annotations

import numpy as np

# float32 results computed in a different order (BLAS, pairwise sums) differ in the last bits.
F32 = {"rtol": 1e-4, "atol": 1e-5}


def to_numpy(t) -> np.ndarray | None:
    """The values of a minitorch or torch tensor (None stays None)."""
    return None if t is None else np.array(t.detach().numpy())


def assert_same_values(mine, ref, **tol) -> None:
    """Same shape, dtype name and values (NaN where the reference has NaN)."""
    a, b = to_numpy(mine), to_numpy(ref)
    if a is None or b is None:
        assert a is None and b is None, f"one is None: {a!r} vs {b!r}"
        return
    assert a.shape == b.shape, f"shape {a.shape} != {b.shape}"
    assert str(mine.dtype) == str(ref.dtype), f"dtype {mine.dtype} != {ref.dtype}"
    np.testing.assert_allclose(a, b, equal_nan=True, **(tol or F32))


def graph_signature(t, max_nodes: int = 200):
    """``(name, ((child, output_nr), ...))`` from ``t.grad_fn`` down, None for a None edge.

    Leaves appear as ``"AccumulateGrad"``. A node reached twice is described twice, so a shared
    subgraph shows up in both places (graphs in the tests are small).
    """
    budget = [max_nodes]

    def describe(node):
        if node is None:
            return None
        budget[0] -= 1
        assert budget[0] >= 0, "graph too large to describe"
        return (type(node).__name__,
                tuple((describe(n), nr) for n, nr in node.next_functions))

    return describe(t.grad_fn)


def assert_second_derivatives_agree(fn, data: np.ndarray, mine, ref) -> None:
    """``fn(lib, x)``'s second derivatives in float64: minitorch's (``mine``) pass
    ``gradgradcheck`` and equal PyTorch's (``ref``), first and second order."""
    x = mine.tensor(data.copy(), requires_grad=True)
    assert mine.autograd.gradgradcheck(lambda t: fn(mine, t), (x,))
    grads = []
    for lib in (mine, ref):
        t = lib.tensor(data.copy(), requires_grad=True)
        (g,) = lib.autograd.grad(fn(lib, t).sum(), t, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), t)
        grads.append((g.detach().numpy(), gg.numpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-10)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-10)


def node_names(t, depth: int = 4):
    """``(name, (children...))`` from ``t.grad_fn`` down ``depth`` levels, by ``name()`` (a
    leaf is ``torch::autograd::AccumulateGrad`` in both libraries)."""
    def walk(node, d):
        if node is None or d == 0:
            return None
        return (node.name(), tuple(walk(n, d - 1) for n, _ in node.next_functions))
    return walk(t.grad_fn, depth)

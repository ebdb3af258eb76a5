"""Calling a graph node, ``node(grad)``, as PyTorch's built-in nodes are called.

A built-in node runs its backward formula on one gradient per output and returns one gradient
per edge (a lone one unwrapped, None where an edge leads nowhere); an ``AccumulateGrad`` adds
into its leaf's ``.grad``; a custom Function's node is not callable (it has ``apply``). No hook
runs, and nothing is summed down to an input's shape. Each case runs on minitorch and on
torch and must give the same values, or the same exception type and message.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="these tests compare node calls with PyTorch's")

LIBS = {"minitorch": minitorch, "torch": torch}


def _outcome(fn):
    """What ``fn()`` gave, in a form both libraries can be compared in."""
    try:
        r = fn()
    except Exception as e:  # the type and message are what is compared
        return ("raised", type(e).__name__, str(e))
    if isinstance(r, tuple):
        return tuple(_outcome(lambda g=g: g) for g in r)
    if r is None or isinstance(r, bool):
        return r
    values = np.round(np.asarray(r.detach().numpy()), 4).tolist()
    return ("tensor", tuple(r.shape), str(r.dtype), values, r.grad_fn is not None)


def _leaves(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = lib.tensor([4.0, 5.0, 6.0], requires_grad=True)
    return x, w


CASES = {
    "mul of two tensors: one gradient per edge, recorded in grad mode":
        lambda lib, x, w: (x * w).grad_fn(lib.ones(3)),
    "mul by a number: None for the edge that leads nowhere":
        lambda lib, x, w: (x * 3).grad_fn(lib.ones(3)),
    "under no_grad nothing is recorded":
        lambda lib, x, w: _no_grad(lib, lambda: (x * w).grad_fn)(lib.ones(3)),
    "a one-edge node returns the tensor itself":
        lambda lib, x, w: x.exp().grad_fn(lib.ones(3)),
    "sum": lambda lib, x, w: (x * 2).sum().grad_fn(lib.tensor(1.0)),
    "broadcast gradients are not summed down":
        lambda lib, x, w: (x * lib.ones(2, 3)).grad_fn(lib.ones(2, 3)),
    "None: None for every edge": lambda lib, x, w: (x * w).grad_fn(None),
    "no gradient": lambda lib, x, w: (x * w).grad_fn(),
    "two gradients for one output": lambda lib, x, w: (x * w).grad_fn(lib.ones(3), lib.ones(3)),
    "a number": lambda lib, x, w: (x * w).grad_fn(1.0),
    "a list": lambda lib, x, w: (x * w).grad_fn([1.0]),
    "a keyword": lambda lib, x, w: (x * w).grad_fn(grad=lib.ones(3)),
    "multi-output node: one gradient per output":
        lambda lib, x, w: x.unbind(0)[0].grad_fn(lib.tensor(1.0), lib.tensor(2.0),
                                                 lib.tensor(3.0)),
    "multi-output node: missing outputs become zeros":
        lambda lib, x, w: x.unbind(0)[0].grad_fn(lib.tensor(1.0), None, None),
    "multi-output node: too few gradients": lambda lib, x, w: x.unbind(0)[0].grad_fn(
        lib.tensor(1.0)),
    "after backward freed what it saved": lambda lib, x, w: _freed(x, w)(lib.ones(3)),
    "a custom Function's node is not callable":
        lambda lib, x, w: _custom(lib).apply(x).grad_fn(lib.ones(3)),
}


def _no_grad(lib, make):
    with lib.no_grad():
        return make()


def _freed(x, w):
    loss = (x * w).sum()
    node = loss.grad_fn.next_functions[0][0]
    loss.backward()
    return node


def _custom(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return 2 * g

    return Double


@pytest.mark.parametrize("case", list(CASES))
def test_calling_a_node_matches_torch(case):
    got = {name: _outcome(lambda lib=lib: CASES[case](lib, *_leaves(lib)))
           for name, lib in LIBS.items()}
    assert got["minitorch"] == got["torch"]


@pytest.mark.parametrize("kind", ["built-in", "AccumulateGrad", "custom"])
def test_which_nodes_are_callable_and_have_apply(kind):
    def node(lib):
        x, w = _leaves(lib)
        if kind == "built-in":
            return (x * w).grad_fn
        if kind == "AccumulateGrad":
            return (x * w).grad_fn.next_functions[0][0]
        return _custom(lib).apply(x).grad_fn

    mine, theirs = node(minitorch), node(torch)
    assert callable(mine) == callable(theirs)
    if kind == "custom":  # minitorch's other nodes keep ``apply`` too, as the course's extra
        assert hasattr(mine, "apply") and hasattr(theirs, "apply")


@pytest.mark.parametrize("lib_name", list(LIBS))
def test_calling_accumulate_grad_adds_into_grad_without_the_leafs_hooks(lib_name):
    lib = LIBS[lib_name]
    x, w = _leaves(lib)
    seen = []
    x.register_hook(lambda g: seen.append("tensor hook"))
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    acc = (x * w).grad_fn.next_functions[0][0]
    g = lib.ones(3)
    assert acc(g) == ()
    assert acc(None) == ()
    assert acc(g * 2) == ()
    assert x.grad.tolist() == [3.0, 3.0, 3.0] and g.tolist() == [1.0, 1.0, 1.0]
    assert seen == [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [3.0, 3.0, 3.0]]  # None runs them too
    for bad, message in [((), "expected 1 arguments, got 0 instead"),
                         ((g, g), "expected 1 arguments, got 2 instead"),
                         ((1.0,), "argument 0 is not a Variable")]:
        with pytest.raises(TypeError, match=f"^{message}$"):
            acc(*bad)


@pytest.mark.parametrize("lib_name", list(LIBS))
def test_calling_a_node_runs_none_of_its_hooks(lib_name):
    lib = LIBS[lib_name]
    x, w = _leaves(lib)
    y = x * w
    seen = []
    y.register_hook(lambda g: seen.append("tensor"))
    y.grad_fn.register_prehook(lambda go: seen.append("pre"))
    y.grad_fn.register_hook(lambda gi, go: seen.append("post"))
    gx, gw = y.grad_fn(lib.ones(3))
    assert seen == [] and gx.tolist() == [4.0, 5.0, 6.0] and gw.tolist() == [1.0, 2.0, 3.0]
    y.sum().backward()  # the engine does run them
    assert seen == ["tensor", "pre", "post"]


def test_node_call_gives_gradcheck_exact_float64_gradients():
    """What the call returns is the node's vector-Jacobian product: compare it, in float64,
    with the Jacobian that finite differences give."""
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((2, 3))
    x = minitorch.tensor(a, requires_grad=True)
    v = minitorch.tensor(rng.standard_normal((2, 3)))
    gx, gw = (x * minitorch.tensor(b, requires_grad=True)).grad_fn(v)
    np.testing.assert_allclose(gx.detach().numpy(), v.numpy() * b)
    np.testing.assert_allclose(gw.detach().numpy(), v.numpy() * a)
    got = x.tanh().grad_fn(v).detach().numpy()
    eps = 1e-6
    np.testing.assert_allclose(got, v.numpy() * (np.tanh(a + eps) - np.tanh(a - eps)) / (2 * eps),
                               rtol=1e-6)

"""The padding modules (ZeroPad1d/2d/3d, ConstantPad1d/2d/3d, ReflectionPad1d/2d/3d,
ReplicationPad1d/2d/3d, CircularPad1d/2d/3d),
nn.CosineSimilarity and nn.PairwiseDistance against PyTorch: constructor arguments, the
``padding`` tuple as PyTorch expands it, reprs, attributes, outputs, gradients, node names,
and errors. The functions themselves (every mode and family of inputs, crops, second
derivatives) are compared in test_opinfo.py through ``_opinfo_samples.OPS``."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch
from minitorch import nn

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

# (name, constructor arguments, input shape)
PADS = [
    ("ZeroPad1d", (2,), (2, 3, 4)), ("ZeroPad1d", ((1, 0),), (3, 4)),
    ("ZeroPad1d", ((-1, 2),), (2, 3, 4)), ("ZeroPad2d", (1,), (2, 3, 4)),
    ("ZeroPad2d", ((1, 2, 0, 3),), (1, 2, 3, 4)), ("ZeroPad2d", ([1, 0, -1, 2],), (2, 3, 4)),
    ("ConstantPad1d", (2, 3.5), (2, 3, 4)), ("ConstantPad1d", ((0, 1), -1), (3, 4)),
    ("ConstantPad2d", (1, 2.0), (2, 3, 4)), ("ConstantPad2d", ((1, 2, 0, 1), -1), (1, 2, 3, 4)),
    ("ReflectionPad1d", (2,), (2, 3, 4)), ("ReflectionPad1d", ((3, 1),), (3, 4)),
    ("ReflectionPad1d", ([1, 2],), (1, 2, 3)), ("ReflectionPad2d", (1,), (2, 3, 4)),
    ("ReflectionPad2d", ((1, 0, 2, 1),), (1, 2, 3, 4)), ("ReplicationPad1d", (5,), (2, 3, 4)),
    ("ReplicationPad1d", ((0, 2),), (3, 4)), ("ReplicationPad2d", (2,), (2, 3, 4)),
    ("ReplicationPad2d", ((3, 0, 1, 4),), (1, 2, 3, 4)),
    # the 3d pads and the circular ones
    ("ZeroPad3d", (1,), (1, 2, 3, 4, 2)), ("ZeroPad3d", ((1, 0, -1, 2, 0, 1),), (2, 3, 4, 2)),
    ("ConstantPad3d", (1, 2.5), (2, 2, 3, 2)), ("ConstantPad3d", ((0, 1, 1, 0, 2, 1), -1.0),
                                                  (1, 2, 2, 3, 2)),
    ("ReflectionPad3d", (1,), (1, 2, 3, 4, 2)), ("ReflectionPad3d", ((1, 0, 2, 1, 0, 1),),
                                                 (2, 2, 3, 4)),
    ("ReplicationPad3d", (2,), (2, 2, 3, 2)), ("ReplicationPad3d", ((3, 0, 1, 2, 0, 1),),
                                               (1, 2, 2, 3, 2)),
    ("CircularPad1d", (2,), (2, 3, 4)), ("CircularPad1d", ((1, 3),), (3, 4)),
    ("CircularPad1d", ((-1, 2),), (2, 3, 4)), ("CircularPad2d", (1,), (2, 3, 4)),
    ("CircularPad2d", ((1, 2, 0, 3),), (1, 2, 3, 4)), ("CircularPad3d", (1,), (1, 2, 3, 4, 2)),
    ("CircularPad3d", ((1, 0, 2, 1, 0, 1),), (2, 2, 3, 4)),
]


def _ids(case):
    name, args, shape = case
    return f"{name}{args}-{shape}"


@pytest.mark.parametrize("case", PADS, ids=[_ids(c) for c in PADS])
def test_padding_module_matches_torch(case):
    name, args, shape = case
    mine, ref = getattr(nn, name)(*args), getattr(torch.nn, name)(*args)
    assert repr(mine) == repr(ref)
    assert mine.padding == ref.padding and type(mine.padding) is type(ref.padding)
    if hasattr(ref, "value"):
        assert mine.value == ref.value
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    a = minitorch.tensor(x, requires_grad=True)
    b = torch.tensor(x, requires_grad=True)
    ya, yb = mine(a), ref(b)
    assert ya.grad_fn.name() == yb.grad_fn.name()
    np.testing.assert_allclose(ya.detach().numpy(), yb.detach().numpy())
    w = np.linspace(0.5, 1.5, ya.numel()).reshape(tuple(ya.shape)).astype(np.float32)
    ya.backward(minitorch.tensor(w))
    yb.backward(torch.tensor(w))
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-6)


@pytest.mark.parametrize("name,args,shape", [
    ("ReflectionPad1d", (3,), (2, 3)), ("ReflectionPad2d", (1,), (3, 4)),
    ("ReplicationPad1d", (1,), (4,)), ("ReflectionPad1d", (1,), (2, 0)),
    ("ReplicationPad2d", ((-3, -2, 0, 0),), (1, 2, 3)), ("ZeroPad2d", (1,), ()),
    ("CircularPad1d", (1,), (4,)), ("CircularPad1d", (1,), (1, 2, 3, 4)),
    ("CircularPad2d", (1,), (3, 4)), ("CircularPad3d", (1,), (2, 3, 4)),
    ("CircularPad3d", (1,), (1, 1, 2, 3, 4, 5)), ("CircularPad1d", (5,), (1, 2, 3)),
    ("ReflectionPad3d", (3,), (1, 2, 3, 3)), ("ReplicationPad3d", (1,), (2, 3)),
])
def test_padding_module_errors_match_torch(name, args, shape):
    x = np.ones(shape, np.float32)
    with pytest.raises(Exception) as ref:
        getattr(torch.nn, name)(*args)(torch.tensor(x))
    with pytest.raises(type(ref.value)) as mine:
        getattr(nn, name)(*args)(minitorch.tensor(x))
    assert str(mine.value) == str(ref.value)


def test_reflection_pad_double_backward_matches_torch():
    x = np.random.default_rng(1).standard_normal((1, 2, 3, 4))
    res = []
    for lib, mod in ((minitorch, nn), (torch, torch.nn)):
        a = lib.tensor(x, requires_grad=True)
        y = mod.ReflectionPad2d((2, 1, 1, 2))(a)
        v = lib.tensor(np.linspace(0, 1, y.numel()).reshape(tuple(y.shape)), requires_grad=True)
        (g,) = lib.autograd.grad(y, a, v, create_graph=True)
        (gg,) = lib.autograd.grad((g * g).sum(), v)
        res.append((g.grad_fn.name(), g.detach().numpy(), gg.numpy()))
    assert res[0][0] == res[1][0]
    np.testing.assert_allclose(res[0][1], res[1][1])
    np.testing.assert_allclose(res[0][2], res[1][2])


@pytest.mark.parametrize("mode", ["reflect", "replicate"])
def test_a_gathering_pads_gradient_is_recorded_as_in_torch(mode):
    """PyTorch's reflection/replication pad backward takes the input too: a gradient through
    the pad is recorded under create_graph even when the upstream gradient is constant, and
    its own gradient with respect to the input is zero (a gradient penalty through a pad)."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    res = []
    for lib in (minitorch, torch):
        a = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.pad(a[None], (2, 1), mode=mode)
        w = lib.arange(out.numel(), dtype=lib.float32).reshape(out.shape) + 1
        (g,) = lib.autograd.grad((out * w).sum(), a, create_graph=True)
        edges = [None if n is None else n.name() for n, _ in g.grad_fn.next_functions[0][0]
                 .next_functions]
        (h,) = lib.autograd.grad((g * g).sum(), a)
        res.append((g.requires_grad, edges, g.detach().numpy().tolist(), h.numpy().tolist()))
    assert res[0] == res[1]


DISTANCES = [
    ("CosineSimilarity", {}), ("CosineSimilarity", {"dim": 0}),
    ("CosineSimilarity", {"dim": -1, "eps": 0.5}), ("PairwiseDistance", {}),
    ("PairwiseDistance", {"p": 1.0}), ("PairwiseDistance", {"p": 3.0, "eps": 0.0}),
    ("PairwiseDistance", {"keepdim": True}),
]


@pytest.mark.parametrize("name,kw", DISTANCES, ids=[f"{n}{k}" for n, k in DISTANCES])
def test_distance_module_matches_torch(name, kw):
    mine, ref = getattr(nn, name)(**kw), getattr(torch.nn, name)(**kw)
    assert repr(mine) == repr(ref)
    for attr in ("dim", "eps", "norm", "keepdim"):
        assert getattr(mine, attr, None) == getattr(ref, attr, None), attr
    rng = np.random.default_rng(2)
    x1 = rng.standard_normal((3, 4)).astype(np.float32)
    x2 = rng.standard_normal((1, 4)).astype(np.float32)
    x1[0] = 0.0  # a zero vector: the norm clamped at eps
    outs = []
    for lib, mod in ((minitorch, mine), (torch, ref)):
        a, b = lib.tensor(x1, requires_grad=True), lib.tensor(x2, requires_grad=True)
        y = mod(a, b)
        y.backward(lib.ones_like(y))
        outs.append((y.grad_fn.name(), y.detach().numpy(), a.grad.numpy(), b.grad.numpy()))
    assert outs[0][0] == outs[1][0]
    for got, want in zip(outs[0][1:], outs[1][1:]):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_modules_in_a_model_match_torch():
    def build(mod):
        return mod.Sequential(mod.ReflectionPad2d(1), mod.ZeroPad2d((0, 1, 0, 1)),
                              mod.ReplicationPad2d((1, 0, 0, 0)), mod.ConstantPad1d(1, 2.5))
    assert repr(build(nn)) == repr(build(torch.nn))
    x = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
    np.testing.assert_allclose(build(nn)(minitorch.tensor(x)).numpy(),
                               build(torch.nn)(torch.tensor(x)).numpy())

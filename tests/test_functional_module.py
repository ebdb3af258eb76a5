"""minitorch.functional (``torch.functional``) against PyTorch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch as mt
from tests._oracle import assert_same_values

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _same(mine, ref):
    if isinstance(ref, tuple):
        assert isinstance(mine, tuple) and len(mine) == len(ref)
        for a, b in zip(mine, ref):
            assert_same_values(a, b)
    else:
        assert_same_values(mine, ref)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_meshgrid(indexing, n):
    arrays = [np.arange(k + 2) * (k + 1) for k in range(n)]
    _same(mt.functional.meshgrid(*[mt.tensor(a) for a in arrays], indexing=indexing),
          torch.functional.meshgrid(*[torch.tensor(a) for a in arrays], indexing=indexing))


def test_meshgrid_without_indexing_warns(monkeypatch):
    """Once a process, as PyTorch's TORCH_WARN_ONCE: whatever ran before, this process starts
    afresh here, warns, and then stays quiet."""
    monkeypatch.setattr(mt._warnings, "_given", set())
    with pytest.warns(UserWarning, match="required to pass the indexing argument"):
        mt.functional.meshgrid(mt.arange(2), mt.arange(3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mt.functional.meshgrid(mt.arange(2), mt.arange(3))


def test_broadcast_tensors_with_grad():
    x_m = mt.ones(2, 3, requires_grad=True)
    x_t = torch.ones(2, 3, requires_grad=True)
    ym = mt.functional.broadcast_tensors(x_m, mt.ones(4, 1, 1))
    yt = torch.functional.broadcast_tensors(x_t, torch.ones(4, 1, 1))
    _same(ym, yt)
    assert ym[0].grad_fn.name() == yt[0].grad_fn.name()
    ym[0].sum().backward()
    yt[0].sum().backward()
    assert_same_values(x_m.grad, x_t.grad)
    assert mt.functional.broadcast_shapes((2, 1), (3,)) == torch.functional.broadcast_shapes(
        (2, 1), (3,))


@pytest.mark.parametrize("name", ["atleast_1d", "atleast_2d", "atleast_3d"])
def test_atleast(name):
    for a in (np.float32(1.5), np.ones(2, np.float32), np.ones((2, 3), np.float32),
              np.ones((2, 3, 4), np.float32)):
        _same(getattr(mt.functional, name)(mt.tensor(a)),
              getattr(torch.functional, name)(torch.tensor(a)))
    _same(getattr(mt.functional, name)(mt.tensor(1.0), mt.ones(2)),
          getattr(torch.functional, name)(torch.tensor(1.0), torch.ones(2)))


@pytest.mark.parametrize(("sa", "sb", "dims"), [((2, 3), (3, 4), 1), ((2, 3, 4), (3, 4, 5), 2),
                                                ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])),
                                                ((2, 3), (4, 5), 0)])
def test_tensordot(sa, sb, dims):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    am, bm = mt.tensor(a, requires_grad=True), mt.tensor(b, requires_grad=True)
    at, bt = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    rm, rt = mt.functional.tensordot(am, bm, dims), torch.functional.tensordot(at, bt, dims)
    assert_same_values(rm, rt, rtol=1e-12, atol=1e-12)
    (rm * rm).sum().backward()
    (rt * rt).sum().backward()
    assert_same_values(am.grad, at.grad, rtol=1e-12, atol=1e-12)
    assert_same_values(bm.grad, bt.grad, rtol=1e-12, atol=1e-12)


def test_cartesian_prod_chain_matmul_split_norm_unique():
    _same(mt.functional.cartesian_prod(mt.tensor([1, 2]), mt.tensor([3, 4]), mt.tensor([5])),
          torch.functional.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4]),
                                          torch.tensor([5])))
    mats = [np.random.default_rng(i).standard_normal((3, 3)) for i in range(3)]
    with pytest.warns(UserWarning):  # PyTorch deprecates chain_matmul
        ref = torch.functional.chain_matmul(*[torch.tensor(m) for m in mats])
    _same(mt.functional.chain_matmul(*[mt.tensor(m) for m in mats]), ref)
    _same(mt.functional.split(mt.arange(5), 2), torch.functional.split(torch.arange(5), 2))
    _same(mt.functional.norm(mt.ones(3)), torch.functional.norm(torch.ones(3)))
    _same(mt.functional.unique(mt.tensor([2, 1, 2])), torch.functional.unique(
        torch.tensor([2, 1, 2])))

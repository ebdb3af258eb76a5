"""``take``, ``take_along_dim``, ``index_copy``, ``index_fill``, ``masked_scatter``,
``scatter_reduce``, ``kthvalue``, ``mode``, ``cummax``, ``cummin``, ``argwhere``, ``nansum``,
``nanmean`` and ``aminmax`` beyond the op table (``tests/_opinfo_samples_index_extra.py``):
finite-difference gradients (an oracle other than PyTorch), the index PyTorch picks among
ties on many random inputs, and the printed return types."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch
from minitorch.autograd.gradcheck import gradcheck, gradgradcheck

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

rng = np.random.default_rng(7)


def _leaf(a):
    return minitorch.tensor(np.asarray(a, np.float64), requires_grad=True)


IDX = minitorch.tensor([[0, 0, 2], [1, 1, 1], [3, 0, 3]])


@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_finite_differences(reduce, include_self):
    x, src = _leaf(rng.standard_normal((3, 4))), _leaf(rng.standard_normal((3, 3)))

    def f(a, b):
        return a.scatter_reduce(1, IDX, b, reduce, include_self=include_self)

    assert gradcheck(f, (x, src))
    assert gradgradcheck(f, (x, src))


@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_prod_zeros_and_amax_ties_match_torch(include_self):
    """PyTorch's rules where finite differences cannot judge: a product with one zero (the
    product of the other factors) and ties of amax/amin (the gradient shared evenly)."""
    x = np.array([[1.0, 2.0, 0.0, 4.0], [3.0, 0.0, 5.0, 5.0], [-1.0, 2.0, 2.0, 0.5]])
    src = np.array([[1.0, 0.0, 0.0], [5.0, 5.0, 0.0], [2.0, 2.0, 7.0]])
    idx = np.array([[0, 0, 2], [1, 1, 1], [3, 0, 3]])
    w = rng.standard_normal((3, 4))
    for reduce in ("prod", "amax", "amin", "mean"):
        grads = []
        for lib in (torch, minitorch):
            a = lib.tensor(x, requires_grad=True)
            b = lib.tensor(src, requires_grad=True)
            out = a.scatter_reduce(1, lib.tensor(idx), b, reduce, include_self=include_self)
            (out * lib.tensor(w)).sum().backward()
            grads.append((out.detach().numpy(), a.grad.numpy(), b.grad.numpy()))
        for mine, theirs in zip(grads[1], grads[0]):
            np.testing.assert_allclose(mine, theirs, rtol=1e-12, err_msg=reduce)


@pytest.mark.parametrize("name, fn", [
    ("take", lambda x: x.take(minitorch.tensor([[0, -1], [5, 5]]))),
    ("take_along_dim", lambda x: x.take_along_dim(minitorch.tensor([[1], [0], [2]]), 1)),
    ("index_copy", lambda x: x.index_copy(0, minitorch.tensor([2, 0]), x[:2] * 3)),
    ("index_fill", lambda x: x.index_fill(1, minitorch.tensor([0, -1]), 2.0)),
    ("masked_scatter", lambda x: x.masked_scatter(x > 0, x.flip(0) * 2)),
    ("kthvalue", lambda x: x.kthvalue(2, 0).values),
    ("mode", lambda x: x.mode(1).values),
    ("cummax", lambda x: x.cummax(1).values),
    ("cummin", lambda x: x.cummin(0).values),
    ("nansum", lambda x: x.nansum(1)),
    ("nanmean", lambda x: x.nanmean(0)),
    ("aminmax", lambda x: x.aminmax(dim=1).max * x.aminmax(dim=1).min),
])
def test_finite_differences(name, fn):
    x = _leaf(rng.standard_normal((3, 4)))
    assert gradcheck(fn, (x,)), name
    assert gradgradcheck(fn, (x,)), name


def test_tie_indices_match_torch_on_random_inputs():
    """The index among equal values: kthvalue's quickselect, cummax/cummin's later index,
    mode's last occurrence (in short slices, where PyTorch's sort is stable)."""
    for t in range(200):
        n = int(rng.integers(1, 30))
        a = rng.integers(-2, 3, (2, n)).astype(np.float32)
        if t % 3 == 0:
            a[a == 2] = np.nan
        if t % 4 == 1:
            a[a == 0] = -0.0
        k = int(rng.integers(1, n + 1))
        pairs = [("kthvalue", (k, 1)), ("cummax", (1,)), ("cummin", (1,))]
        if n <= 16 and t % 3:
            pairs.append(("mode", (1,)))
        for name, args in pairs:
            r = getattr(torch, name)(torch.from_numpy(a), *args)
            m = getattr(minitorch, name)(minitorch.tensor(a), *args)
            np.testing.assert_array_equal(m.indices.numpy(), r.indices.numpy(), err_msg=name)
            np.testing.assert_array_equal(m.values.numpy(), r.values.numpy(), err_msg=name)
            np.testing.assert_array_equal(np.signbit(m.values.numpy()),
                                          np.signbit(r.values.numpy()), err_msg=name)


def test_return_types_print_as_torch():
    x = [[1.0, 5.0, 2.0], [3.0, 3.0, 0.0]]
    for call in (lambda lib, t: t.kthvalue(2), lambda lib, t: t.mode(0),
                 lambda lib, t: lib.cummax(t, 1), lambda lib, t: lib.cummin(t, 0),
                 lambda lib, t: t.aminmax(dim=0)):
        mine = call(minitorch, minitorch.tensor(x, requires_grad=True))
        theirs = call(torch, torch.tensor(x, requires_grad=True))
        assert repr(mine) == repr(theirs)
        assert type(mine).__name__ == type(theirs).__name__


def test_inplace_forms_write_into_self():
    for lib in (torch, minitorch):
        x = lib.zeros(2, 3)
        assert x.index_fill_(1, lib.tensor([0]), 1.0) is x
        x.index_copy_(0, lib.tensor([1]), lib.ones(1, 3) * 2)
        x.masked_scatter_(x == 0, lib.arange(6.0))
        x.scatter_reduce_(1, lib.tensor([[2, 2]]), lib.tensor([[7.0, 9.0]]), "amax")
    assert x.tolist() == [[1.0, 0.0, 9.0], [2.0, 2.0, 2.0]]

"""``nn.utils.prune`` against PyTorch: the same weights and the same pruning calls give the same
masks, ``_orig`` parameters, pruned tensors, hooks, state_dict keys, forward outputs and errors;
the random methods draw PyTorch's numbers, so one seed gives one mask in both libraries. Also
``nn.utils.parameters_to_vector`` / ``vector_to_parameters``, which global pruning uses."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
pytest.importorskip("torch.nn.utils.prune")  # PyTorch does not import it with torch.nn.utils

RNG = np.random.default_rng(0)
W = RNG.standard_normal((4, 3, 2, 2)).astype(np.float32)
B = RNG.standard_normal(4).astype(np.float32)


def _conv(lib, dtype=np.float32):
    """A Conv2d(3, 4, 2) with the weights above (float64 on request)."""
    m = lib.nn.Conv2d(3, 4, 2)
    if dtype == np.float64:
        m = m.double()
    with lib.no_grad():
        m.weight.copy_(lib.tensor(W.astype(dtype)))
        m.bias.copy_(lib.tensor(B.astype(dtype)))
    return m


def _same(a, b):
    assert str(a.dtype) == str(b.dtype), (a.dtype, b.dtype)
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)


def _same_module(m, t):
    """Parameters, buffers, pruned attributes, hooks and state_dict keys all agree."""
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in m.named_buffers()] == [n for n, _ in t.named_buffers()]
    assert list(m.state_dict()) == list(t.state_dict())
    for (_, a), (_, b) in zip(m.named_buffers(), t.named_buffers()):
        _same(a, b)
    for (_, a), (_, b) in zip(m.named_parameters(), t.named_parameters()):
        _same(a, b)
        assert type(a).__name__ == type(b).__name__
    for name in ("weight", "bias"):
        _same(getattr(m, name), getattr(t, name))
        assert (name in m._parameters) == (name in t._parameters)
    assert [type(h).__name__ for h in m._forward_pre_hooks.values()] == \
        [type(h).__name__ for h in t._forward_pre_hooks.values()]


def _both(fn, dtype=np.float32):
    m, t = _conv(mt, dtype), _conv(torch, dtype)
    mt.manual_seed(0)
    torch.manual_seed(0)
    fn(mt, m)
    fn(torch, t)
    _same_module(m, t)
    x = RNG.standard_normal((2, 3, 5, 5)).astype(dtype)
    _same(m(mt.tensor(x)), t(torch.tensor(x)))
    return m, t


CASES = {
    "identity": lambda lib, m: lib.nn.utils.prune.identity(m, "weight"),
    "random_unstructured": lambda lib, m: lib.nn.utils.prune.random_unstructured(
        m, "weight", amount=0.3),
    "random_unstructured_int": lambda lib, m: lib.nn.utils.prune.random_unstructured(
        m, "bias", amount=2),
    "l1_unstructured": lambda lib, m: lib.nn.utils.prune.l1_unstructured(m, "bias", amount=3),
    "l1_unstructured_all": lambda lib, m: lib.nn.utils.prune.l1_unstructured(
        m, "weight", amount=1.0),
    "l1_unstructured_zero": lambda lib, m: lib.nn.utils.prune.l1_unstructured(
        m, "weight", amount=0),
    "l1_importance": lambda lib, m: lib.nn.utils.prune.l1_unstructured(
        m, "weight", amount=5, importance_scores=lib.tensor(W[::-1].copy())),
    "random_structured": lambda lib, m: lib.nn.utils.prune.random_structured(
        m, "weight", amount=2, dim=0),
    "random_structured_neg_dim": lambda lib, m: lib.nn.utils.prune.random_structured(
        m, "weight", amount=0.5, dim=-1),
    "ln_structured": lambda lib, m: lib.nn.utils.prune.ln_structured(
        m, "weight", amount=0.5, n=2, dim=0),
    "ln_structured_inf": lambda lib, m: lib.nn.utils.prune.ln_structured(
        m, "weight", amount=1, n=float("inf"), dim=1),
    "ln_structured_l1_zero": lambda lib, m: lib.nn.utils.prune.ln_structured(
        m, "weight", amount=0, n=1, dim=0),
    "custom_from_mask": lambda lib, m: lib.nn.utils.prune.custom_from_mask(
        m, "bias", lib.tensor([1, 0, 0, 1])),
    "custom_from_bool_mask": lambda lib, m: lib.nn.utils.prune.custom_from_mask(
        m, "bias", lib.tensor([True, False, True, True])),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_pruning_matches_torch(case):
    _both(lambda lib, m: CASES[case](lib, m))


def test_float64():
    _both(CASES["ln_structured"], dtype=np.float64)
    _both(CASES["random_unstructured"], dtype=np.float64)


def test_iterative_pruning_builds_a_container():
    def fn(lib, m):
        p = lib.nn.utils.prune
        p.random_unstructured(m, "weight", amount=0.3)
        p.l1_unstructured(m, "bias", amount=3)
        p.ln_structured(m, "weight", amount=0.5, n=2, dim=0)
        p.random_structured(m, "weight", amount=1, dim=1)
        p.l1_unstructured(m, "weight", amount=4)
        p.custom_from_mask(m, "bias", lib.tensor([0.0, 1.0, 1.0, 1.0]))

    m, t = _both(fn)
    hm = [h for h in m._forward_pre_hooks.values() if h._tensor_name == "weight"][0]
    ht = [h for h in t._forward_pre_hooks.values() if h._tensor_name == "weight"][0]
    assert type(hm).__name__ == "PruningContainer"
    assert [type(h).__name__ for h in hm] == [type(h).__name__ for h in ht]
    assert len(hm) == len(ht) == 4
    assert type(hm[-1]).__name__ == "L1Unstructured"


def test_hook_recomputes_weight_and_gradient_reaches_orig():
    def fn(lib, m):
        lib.nn.utils.prune.l1_unstructured(m, "weight", amount=0.5)
        with lib.no_grad():
            m.weight_orig.mul_(2)
        m(lib.ones(1, 3, 3, 3)).sum().backward()

    m, t = _both(fn)
    _same(m.weight_orig.grad, t.weight_orig.grad)
    assert m.weight.grad_fn.name() == t.weight.grad_fn.name() == "MulBackward0"


def test_remove_makes_pruning_permanent():
    def fn(lib, m):
        p = lib.nn.utils.prune
        p.random_unstructured(m, "weight", amount=0.5)
        p.l1_unstructured(m, "weight", amount=3)
        p.l1_unstructured(m, "bias", amount=1)
        assert p.remove(m, "weight") is m

    m, t = _both(fn)
    assert "weight" in m._parameters and "weight_orig" not in m._parameters


def test_is_pruned():
    for lib in (mt, torch):
        seq = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Sequential(lib.nn.Linear(2, 1)))
        assert lib.nn.utils.prune.is_pruned(seq) is False
        lib.nn.utils.prune.identity(seq[1][0], "bias")
        assert lib.nn.utils.prune.is_pruned(seq) is True
        lib.nn.utils.prune.remove(seq[1][0], "bias")
        assert lib.nn.utils.prune.is_pruned(seq) is False


def _lenet(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Conv2d(1, 3, 3), lib.nn.Flatten(), lib.nn.Linear(12, 5),
                             lib.nn.Linear(5, 2))


def test_global_unstructured():
    x = RNG.standard_normal((2, 1, 4, 4)).astype(np.float32)
    outs = []
    for lib in (mt, torch):
        net = _lenet(lib)
        p = lib.nn.utils.prune
        p.l1_unstructured(net[3], "weight", amount=3)  # an existing mask is respected
        params = [(net[0], "weight"), (net[2], "weight"), (net[3], "weight")]
        assert p.global_unstructured(params, pruning_method=p.L1Unstructured,
                                     amount=0.4) is None
        p.global_unstructured(params, p.RandomUnstructured, amount=5,
                              importance_scores={(net[0], "weight"): net[0].weight * 0})
        outs.append((net, net(lib.tensor(x))))
    (m, om), (t, ot) = outs
    _same(om, ot)
    assert list(m.state_dict()) == list(t.state_dict())
    for a, b in zip(m.buffers(), t.buffers()):
        _same(a, b)
    assert [type(h).__name__ for h in m[3]._forward_pre_hooks.values()] == ["PruningContainer"]
    assert [type(h).__name__ for h in m[3]._forward_pre_hooks[
        next(iter(m[3]._forward_pre_hooks))]] == \
        [type(h).__name__ for h in t[3]._forward_pre_hooks[next(iter(t[3]._forward_pre_hooks))]]


def test_custom_method_and_prune():
    def make(lib):
        class FooBar(lib.nn.utils.prune.BasePruningMethod):
            PRUNING_TYPE = "unstructured"

            def compute_mask(self, t, default_mask):
                mask = default_mask.clone()
                mask.flatten()[::2] = 0
                return mask
        return FooBar

    def fn(lib, m):
        make(lib).apply(m, "bias")
        make(lib).apply(m, "bias")  # acts on what is left
        lib.nn.utils.prune.l1_unstructured(m, "weight", amount=3)

    _both(fn)
    w = W.reshape(-1)[:5]
    _same(mt.nn.utils.prune.L1Unstructured(2).prune(mt.tensor(w)),
          torch.nn.utils.prune.L1Unstructured(2).prune(torch.tensor(w)))
    _same(mt.nn.utils.prune.LnStructured(1, n=1, dim=0).prune(mt.tensor(W[0, 0])),
          torch.nn.utils.prune.LnStructured(1, n=1, dim=0).prune(torch.tensor(W[0, 0])))


def _hooks_text(lib, m):
    # (the keys are hook handles' ids, counted over the whole process: masked as the addresses)
    text = re.sub(r"0x[0-9a-f]+", "ADDR", repr(m._forward_pre_hooks))
    return re.sub(r"\((\d+), <", "(ID, <", text)


def test_hook_repr_is_pytorchs():
    texts = []
    for lib in (mt, torch):
        m = lib.nn.Linear(3, 2)
        lib.nn.utils.prune.random_unstructured(m, "weight", amount=1)
        lib.nn.utils.prune.l1_unstructured(m, "weight", amount=1)
        lib.nn.utils.prune.identity(m, "bias")
        texts.append(_hooks_text(lib, m))
    # (the objects are minitorch's own: their module is minitorch's, printed as PyTorch's
    # default repr prints it)
    assert texts[0] == texts[1].replace("torch.nn.utils.prune", "minitorch.nn.utils.prune")
    assert "minitorch.nn.utils.prune.PruningContainer object at ADDR" in texts[0]


ERRORS = {
    "remove_unpruned": lambda lib: lib.nn.utils.prune.remove(lib.nn.Linear(2, 2), "weight"),
    "amount_too_big": lambda lib: lib.nn.utils.prune.l1_unstructured(
        lib.nn.Linear(2, 2), "weight", amount=5),
    "amount_negative": lambda lib: lib.nn.utils.prune.random_unstructured(
        lib.nn.Linear(2, 2), "weight", amount=-1),
    "amount_float_big": lambda lib: lib.nn.utils.prune.l1_unstructured(
        lib.nn.Linear(2, 2), "weight", amount=1.5),
    "amount_type": lambda lib: lib.nn.utils.prune.l1_unstructured(
        lib.nn.Linear(2, 2), "weight", amount="a"),
    "structured_1d": lambda lib: lib.nn.utils.prune.ln_structured(
        lib.nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
    "structured_dim": lambda lib: lib.nn.utils.prune.random_structured(
        lib.nn.Linear(2, 2), "weight", amount=1, dim=2),
    "global_not_iterable": lambda lib: lib.nn.utils.prune.global_unstructured(
        3, lib.nn.utils.prune.L1Unstructured, amount=1),
    "global_scores_not_dict": lambda lib: lib.nn.utils.prune.global_unstructured(
        [], lib.nn.utils.prune.L1Unstructured, importance_scores=[1], amount=1),
    "importance_shape": lambda lib: lib.nn.utils.prune.l1_unstructured(
        lib.nn.Linear(2, 2), "weight", amount=1, importance_scores=lib.ones(3)),
    "custom_mask_shape": lambda lib: lib.nn.utils.prune.custom_from_mask(
        lib.nn.Linear(2, 2), "weight", lib.ones(3)),
    "container_add": lambda lib: _container(lib).add_pruning_method(3),
    "container_other_name": lambda lib: _container(lib).add_pruning_method(
        lib.nn.utils.prune.L1Unstructured(1)),
    "container_structured_without_dim": lambda lib: _container(lib, _NoDim(lib)).compute_mask(
        lib.ones(2, 2), lib.ones(2, 2)),
    "vector_not_tensor": lambda lib: lib.nn.utils.vector_to_parameters(
        [1.0], lib.nn.Linear(1, 1).parameters()),
}


def _NoDim(lib):
    class NoDim(lib.nn.utils.prune.BasePruningMethod):
        PRUNING_TYPE = "structured"

        def compute_mask(self, t, default_mask):
            return default_mask
    return NoDim()


def _container(lib, method=None):
    method = method or lib.nn.utils.prune.Identity()
    method._tensor_name = "weight"
    container = lib.nn.utils.prune.PruningContainer(method)
    container.add_pruning_method(method)
    return container


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_match_torch(case):
    caught = []
    for lib in (mt, torch):
        with pytest.raises(Exception) as info:
            ERRORS[case](lib)
        caught.append((type(info.value), re.sub(r"0x[0-9a-f]+", "ADDR", str(info.value))))
    (mtype, mmsg), (ttype, tmsg) = caught
    assert mtype.__name__ == ttype.__name__
    assert mmsg == tmsg


def test_failed_pruning_restores_the_parameter():
    for lib in (mt, torch):
        m = lib.nn.Linear(2, 2)
        with pytest.raises(ValueError):
            lib.nn.utils.prune.l1_unstructured(m, "weight", amount=9)
        assert [n for n, _ in m.named_parameters()] == ["bias", "weight"]
        assert not m._forward_pre_hooks and not list(m.buffers())


def test_parameters_to_vector_round_trip():
    ms, ts = _conv(mt), _conv(torch)
    v = mt.nn.utils.parameters_to_vector(ms.parameters())
    u = torch.nn.utils.parameters_to_vector(ts.parameters())
    _same(v, u)
    assert v.grad_fn.name() == u.grad_fn.name() == "CatBackward0"
    new = np.arange(v.numel(), dtype=np.float32)
    mt.nn.utils.vector_to_parameters(mt.tensor(new), ms.parameters())
    torch.nn.utils.vector_to_parameters(torch.tensor(new), ts.parameters())
    _same(ms.weight, ts.weight)
    _same(ms.bias, ts.bias)

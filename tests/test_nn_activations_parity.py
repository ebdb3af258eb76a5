"""The activation modules (Softplus, ELU, ..., Mish), Unflatten, ParameterList and ParameterDict
against PyTorch: outputs, gradients, graph-node names, in-place behaviour, reprs of whole models,
parameter names and state_dicts. The functions themselves (every family of inputs, the kinks,
second derivatives) are compared in test_opinfo.py through ``_opinfo_samples.OPS``."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import minitorch
from minitorch import nn

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.array([[-4.0, -3.0, -1.0, -0.0, 0.0], [0.5, 1.0, 3.0, 6.0, 25.0]], np.float32)

# (name, constructor arguments): every activation module, with its variants
ACTIVATIONS = [
    ("Softplus", {}), ("Softplus", {"beta": 2.0, "threshold": 5.0}),
    ("ELU", {}), ("ELU", {"alpha": 0.5}), ("ELU", {"inplace": True}),
    ("CELU", {}), ("CELU", {"alpha": 2.0, "inplace": True}),
    ("SELU", {}), ("SELU", {"inplace": True}),
    ("LogSigmoid", {}),
    ("Hardtanh", {}), ("Hardtanh", {"min_val": -2.0, "max_val": 3.0, "inplace": True}),
    ("ReLU6", {}), ("ReLU6", {"inplace": True}),
    ("Hardsigmoid", {}), ("Hardsigmoid", {"inplace": True}),
    ("Hardswish", {}), ("Hardswish", {"inplace": True}),
    ("Mish", {}), ("Mish", {"inplace": True}),
    ("Softsign", {}), ("Tanhshrink", {}),
]


def _ids(case):
    name, kw = case
    return name + "".join(f"-{k}{v}" for k, v in kw.items())


@pytest.mark.parametrize("case", ACTIVATIONS, ids=[_ids(c) for c in ACTIVATIONS])
def test_activation_module_matches_torch(case):
    name, kw = case
    mine, ref = getattr(nn, name)(**kw), getattr(torch.nn, name)(**kw)
    assert repr(mine) == repr(ref)
    results = []
    for lib, module in ((minitorch, mine), (torch, ref)):
        x = lib.tensor(X, requires_grad=True)
        h = x * 1.0  # in place needs a non-leaf
        y = module(h)
        assert (y is h) == bool(kw.get("inplace"))
        y.backward(lib.tensor(np.linspace(0.5, 1.5, X.size, dtype=np.float32).reshape(X.shape)))
        results.append((y.detach().numpy(), x.grad.numpy(), type(y.grad_fn).__name__
                        if lib is minitorch else y.grad_fn.name()))
    (out, grad, node), (out_t, grad_t, node_t) = results
    np.testing.assert_allclose(out, out_t, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(out_t))
    np.testing.assert_allclose(grad, grad_t, rtol=1e-6, atol=1e-7)
    assert node == node_t


def test_models_print_and_save_like_torch():
    def build(lib):
        return lib.nn.Sequential(
            lib.nn.Linear(4, 6), lib.nn.Softplus(beta=0.5), lib.nn.ELU(alpha=0.3),
            lib.nn.Hardtanh(-0.5, 2.0), lib.nn.Unflatten(1, (2, 3)), lib.nn.Mish(inplace=True),
            lib.nn.Flatten(), lib.nn.Linear(6, 2), lib.nn.ReLU6(), lib.nn.Hardswish(),
            lib.nn.CELU(), lib.nn.SELU(inplace=True), lib.nn.LogSigmoid())
    mine, ref = build(minitorch), build(torch)
    assert repr(mine) == repr(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())
    mine.load_state_dict({k: minitorch.tensor(v.numpy()) for k, v in ref.state_dict().items()})
    x = np.linspace(-3, 3, 12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose(mine(minitorch.tensor(x)).detach().numpy(),
                               ref(torch.tensor(x)).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_hardtanh_arguments_like_torch():
    for lib in (minitorch, torch):
        with pytest.raises(AssertionError, match=r"max_val \(1.0\) must be greater than min_val"):
            lib.nn.Hardtanh(1.0, 1.0)
        with pytest.warns(FutureWarning, match="`min_value` is deprecated"):
            m = lib.nn.Hardtanh(min_value=-2.0)
        assert (m.min_val, m.max_val) == (-2.0, 1.0)


# ------------------------------------------------------------------ Unflatten
@pytest.mark.parametrize("dim, sizes", [(1, (2, 3)), (1, [2, 3]), (-1, (3, -1)), (0, (1, 4)),
                                        (1, (2, 2)), (1, ()), (3, (2, 3)), (1, (-1, -1)),
                                        (1, (6,)), (1, 6), (1, (2.0, 3))])
def test_unflatten_like_torch(dim, sizes):
    outcomes = []
    for lib in (minitorch, torch):
        try:
            m = lib.nn.Unflatten(dim, sizes)
            x = lib.tensor(np.arange(24, dtype=np.float32).reshape(4, 6), requires_grad=True)
            y = m(x)
            y.sum().backward()
            outcomes.append((repr(m), tuple(y.shape), y.detach().numpy().tolist(),
                             x.grad.numpy().tolist()))
        except (TypeError, RuntimeError, IndexError) as e:
            outcomes.append((type(e).__name__, str(e).split("\nException raised")[0]))
    assert outcomes[0] == outcomes[1]


# ------------------------------------------------------------------ ParameterList / ParameterDict
class _Net:
    """The same model in both libraries: a ParameterList and a ParameterDict beside a layer."""

    def __init__(self, lib):
        class Net(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = lib.nn.Linear(2, 2)
                self.ps = lib.nn.ParameterList(
                    [lib.nn.Parameter(lib.ones(2, 3)), lib.zeros(4, dtype=lib.float64)])
                self.ps.append(lib.ones(1))
                self.ps.extend([lib.nn.Parameter(lib.ones(2) * 3)])
                self.pd = lib.nn.ParameterDict({"w": lib.ones(3), "b": lib.zeros(1)})
                self.pd["a"] = lib.nn.Parameter(lib.ones(2, 2))
                self.pd.update(OrderedDict([("z", lib.ones(1)), ("c", lib.ones(1))]))

        self.net = Net()


def test_parameter_containers_register_like_torch():
    mine, ref = _Net(minitorch).net, _Net(torch).net
    assert repr(mine) == repr(ref)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in ref.named_parameters()]
    assert list(mine.state_dict()) == list(ref.state_dict())
    for (n, p), (_, q) in zip(mine.named_parameters(), ref.named_parameters()):
        assert type(p) is minitorch.nn.Parameter, n
        assert str(p.dtype) == str(q.dtype) and tuple(p.shape) == tuple(q.shape), n
        if not n.startswith("lin."):  # random initial values
            np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    for net in (mine, ref):
        assert len(net.ps) == 4 and len(net.pd) == 5
        assert list(net.pd) == ["b", "w", "a", "z", "c"]  # a dict: its keys in sorted order
    assert [tuple(p.shape) for p in mine.ps[1:3]] == [tuple(p.shape) for p in ref.ps[1:3]]
    assert repr(mine.ps[-2:]) == repr(ref.ps[-2:])
    assert tuple(mine.ps[-1].shape) == (2,) and "c" in mine.pd and "q" not in mine.pd


def test_parameter_containers_errors_like_torch():
    for lib in (minitorch, torch):
        ps = lib.nn.ParameterList([lib.ones(1)])
        with pytest.raises(IndexError, match="index 1 is out of range"):
            ps[1]
        with pytest.raises(TypeError, match="ParameterList.extend should be called with an "
                                            "iterable, but got Tensor"):
            ps.extend(lib.ones(2))
        with pytest.raises(RuntimeError, match="ParameterList should not be called."):
            ps(1)
        pd = lib.nn.ParameterDict()
        with pytest.raises(TypeError, match="cannot be used as a key as it is not a string"):
            pd[1] = lib.ones(1)
        with pytest.raises(ValueError, match="#0 has length 3; 2 is required"):
            pd.update([("a", lib.ones(1), 3)])
        with pytest.raises(RuntimeError, match="ParameterDict should not be called."):
            pd(1)


def test_parameter_dict_methods_like_torch():
    res = []
    for lib in (minitorch, torch):
        pd = lib.nn.ParameterDict({"b": lib.ones(1), "a": lib.ones(2)})
        pd.setdefault("c", lib.nn.Parameter(lib.ones(3)))
        popped = pd.pop("b")
        k, _ = pd.popitem()
        merged = pd | lib.nn.ParameterDict({"x": lib.ones(4)})
        res.append((tuple(popped.shape), k, list(pd.keys()), list(merged.keys()),
                    repr(merged), [tuple(v.shape) for v in merged.values()],
                    pd.get("zz", 5), list(reversed(merged))))
        pd.clear()
        res.append(len(pd))
    assert res[:2] == res[2:]

"""minitorch.optim against PyTorch: the same model, the same data, many steps.

Each run copies PyTorch's initial weights, takes N steps with both libraries, and compares
every parameter after every step (float32: the update order must match PyTorch's).
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny matrices: one BLAS thread (NumPy and PyTorch) is faster and steadier."""
    from minitorch.utils.threads import set_num_threads

    previous, previous_torch = set_num_threads(1), torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    set_num_threads(previous)
    torch.set_num_threads(previous_torch)

STEPS = 20


def _data(seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((16, 4)).astype(np.float32),
            rng.integers(0, 3, 16))


def _model(lib):
    return lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 3))


def _pair():
    torch.manual_seed(0)
    tm, mm = _model(torch), _model(mt)
    mm.load_state_dict({k: mt.tensor(v.numpy().copy()) for k, v in tm.state_dict().items()})
    return tm, mm


def _groups(lib_model, grouped, lr):
    if not grouped:
        return lib_model.parameters()
    return [{"params": lib_model[0].parameters()},
            {"params": lib_model[2].parameters(), "lr": lr * 0.5}]


def _loss(lib, model, x, y):
    out = model(x)
    return lib.nn.functional.cross_entropy(out, y) + 0.01 * out.pow(2).mean()


CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.5, dampening=0.3, weight_decay=1e-2)),
    ("SGD", dict(lr=0.05, momentum=0.9, maximize=True)),
    ("Adam", dict(lr=1e-2)),
    ("Adam", dict(lr=1e-2, betas=(0.8, 0.99), eps=1e-6, weight_decay=1e-2)),
    ("Adam", dict(lr=1e-2, amsgrad=True)),
    ("Adam", dict(lr=1e-2, maximize=True)),
    ("AdamW", dict(lr=1e-2)),
    ("AdamW", dict(lr=1e-2, weight_decay=0.1, amsgrad=True)),
]


@pytest.mark.parametrize("grouped", [False, True], ids=["one-group", "two-groups"])
@pytest.mark.parametrize("name,kw", CONFIGS, ids=[f"{n}-{i}" for i, (n, _) in
                                                  enumerate(CONFIGS)])
def test_optimizer_matches_torch_over_many_steps(name, kw, grouped):
    tm, mm = _pair()
    topt = getattr(torch.optim, name)(_groups(tm, grouped, kw["lr"]), **kw)
    mopt = getattr(mt.optim, name)(_groups(mm, grouped, kw["lr"]), **kw)
    x, y = _data()
    tx, ty, mx, my = torch.tensor(x), torch.tensor(y), mt.tensor(x), mt.tensor(y)
    for step in range(STEPS):
        topt.zero_grad()
        mopt.zero_grad()
        _loss(torch, tm, tx, ty).backward()
        _loss(mt, mm, mx, my).backward()
        topt.step()
        mopt.step()
        for (name_, tp), mp in zip(tm.named_parameters(), mm.parameters()):
            np.testing.assert_allclose(mp.detach().numpy(), tp.detach().numpy(), rtol=2e-5,
                                       atol=2e-6, err_msg=f"{name_} after step {step + 1}")
    assert repr(mopt) == repr(topt)
    tsd, msd = topt.state_dict(), mopt.state_dict()
    assert msd["param_groups"] == tsd["param_groups"]
    assert sorted(msd["state"]) == sorted(tsd["state"])
    for key in tsd["state"]:
        assert sorted(msd["state"][key]) == sorted(tsd["state"][key])
        for k, v in tsd["state"][key].items():
            assert str(msd["state"][key][k].dtype) == str(v.dtype)
            np.testing.assert_allclose(msd["state"][key][k].numpy(), v.numpy(), rtol=1e-4,
                                       atol=1e-6)


def test_state_dict_round_trip_continues_identically():
    x, y = _data(1)
    mx, my = mt.tensor(x), mt.tensor(y)

    def train(model, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            _loss(mt, model, mx, my).backward()
            opt.step()

    _, reference = _pair()
    ref_opt = mt.optim.Adam(reference.parameters(), lr=1e-2)
    train(reference, ref_opt, 10)

    _, model = _pair()
    opt = mt.optim.Adam(model.parameters(), lr=1e-2)
    train(model, opt, 5)
    saved_model, saved_opt = copy.deepcopy(model.state_dict()), copy.deepcopy(opt.state_dict())
    _, resumed = _pair()
    resumed.load_state_dict(saved_model)
    resumed_opt = mt.optim.Adam(resumed.parameters(), lr=0.5)  # lr comes from the state dict
    resumed_opt.load_state_dict(saved_opt)
    assert resumed_opt.param_groups[0]["lr"] == 1e-2
    train(resumed, resumed_opt, 5)
    for a, b in zip(resumed.parameters(), reference.parameters()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    # a state dict does not alias the live state
    before = float(saved_opt["state"][0]["step"])
    train(resumed, resumed_opt, 1)
    assert float(saved_opt["state"][0]["step"]) == before


def test_sgd_momentum_state_dict_round_trip():
    _, model = _pair()
    opt = mt.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = _data()
    _loss(mt, model, mt.tensor(x), mt.tensor(y)).backward()
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd["state"][0]) == ["momentum_buffer"]
    opt2 = mt.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    opt2.load_state_dict(sd)
    assert np.array_equal(opt2.state[model[0].weight]["momentum_buffer"].numpy(),
                          opt.state[model[0].weight]["momentum_buffer"].numpy())
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt2.load_state_dict({"state": {}, "param_groups": []})


def test_zero_grad_closure_and_frozen_parameters():
    _, model = _pair()
    opt = mt.optim.SGD(model.parameters(), lr=0.1)
    x, y = _data()
    mx, my = mt.tensor(x), mt.tensor(y)
    model[0].weight.requires_grad_(False)  # frozen: no grad, never updated
    frozen = model[0].weight.detach().clone()

    def closure():
        opt.zero_grad()
        loss = _loss(mt, model, mx, my)
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert isinstance(loss, mt.Tensor) and loss.requires_grad
    assert np.array_equal(model[0].weight.detach().numpy(), frozen.numpy())
    assert model[2].weight.grad is not None
    opt.zero_grad(set_to_none=False)
    assert float(model[2].weight.grad.abs().sum()) == 0.0
    opt.zero_grad()
    assert model[2].weight.grad is None


def test_step_counts_as_an_inplace_change():
    w = mt.nn.Parameter(mt.tensor([1.0, 2.0]))
    opt = mt.optim.SGD([w], lr=0.1)
    y = (w * w).sum()
    y.backward(retain_graph=True)
    version = w._version
    opt.step()
    assert w._version > version
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_add_param_group_and_errors():
    a, b = mt.nn.Parameter(mt.ones(2)), mt.nn.Parameter(mt.ones(3))
    opt = mt.optim.SGD([a], lr=0.1, momentum=0.5)
    opt.add_param_group({"params": b, "lr": 0.01})
    assert len(opt.param_groups) == 2
    assert opt.param_groups[1]["momentum"] == 0.5 and opt.param_groups[1]["lr"] == 0.01
    p = [torch.nn.Parameter(torch.ones(2))]
    q = [mt.nn.Parameter(mt.ones(2))]
    cases = [
        (lambda lib, ps: lib.optim.SGD(ps, lr=-1)),
        (lambda lib, ps: lib.optim.SGD(ps, lr=0.1, momentum=-1)),
        (lambda lib, ps: lib.optim.SGD(ps, lr=0.1, weight_decay=-1)),
        (lambda lib, ps: lib.optim.SGD(ps, lr=0.1, nesterov=True)),
        (lambda lib, ps: lib.optim.SGD([], lr=0.1)),
        (lambda lib, ps: lib.optim.SGD(ps[0], lr=0.1)),
        (lambda lib, ps: lib.optim.SGD([{"params": ps}, {"params": ps}], lr=0.1)),
        (lambda lib, ps: lib.optim.Adam(ps, lr=-1)),
        (lambda lib, ps: lib.optim.Adam(ps, eps=-1)),
        (lambda lib, ps: lib.optim.Adam(ps, betas=(1.0, 0.9))),
        (lambda lib, ps: lib.optim.Adam(ps, betas=(0.9, 1.0))),
        (lambda lib, ps: lib.optim.AdamW(ps, weight_decay=-1)),
        (lambda lib, ps: lib.optim.SGD([ps[0] * 2], lr=0.1)),
    ]
    for case in cases:
        with pytest.raises(Exception) as et:
            case(torch, [t.detach().requires_grad_() for t in p] if case is cases[-1] else p)
        with pytest.raises(Exception) as em:
            case(mt, [t.detach().requires_grad_() for t in q] if case is cases[-1] else q)
        assert type(em.value) is type(et.value) and str(em.value) == str(et.value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mt.optim.SGD([q[0], q[0]], lr=0.1)
    assert any("duplicate parameters" in str(w.message) for w in caught)


@pytest.mark.parametrize("make", [
    lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5),
    lambda lib, opt: lib.optim.lr_scheduler.StepLR(opt, 2),
    lambda lib, opt: lib.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9),
])
def test_lr_schedulers_match_torch(make):
    tp = [torch.nn.Parameter(torch.ones(1))]
    mp = [mt.nn.Parameter(mt.ones(1))]
    topt = torch.optim.SGD([{"params": tp}, {"params": [torch.nn.Parameter(torch.ones(1))],
                                             "lr": 0.3}], lr=1.0)
    mopt = mt.optim.SGD([{"params": mp}, {"params": [mt.nn.Parameter(mt.ones(1))],
                                          "lr": 0.3}], lr=1.0)
    ts, ms = make(torch, topt), make(mt, mopt)
    assert ms.get_last_lr() == ts.get_last_lr()
    for _ in range(8):
        topt.step()
        mopt.step()
        ts.step()
        ms.step()
        np.testing.assert_allclose(ms.get_last_lr(), ts.get_last_lr(), rtol=1e-12)
        assert [g["lr"] for g in mopt.param_groups] == pytest.approx(
            [g["lr"] for g in topt.param_groups])
    assert ms.last_epoch == ts.last_epoch
    assert mopt.param_groups[0]["initial_lr"] == 1.0
    state = ms.state_dict()
    assert state["base_lrs"] == ts.state_dict()["base_lrs"]
    assert state["last_epoch"] == 8

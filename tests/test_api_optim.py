"""Issue 26's optimizers (Adadelta, NAdam, RAdam) and schedulers (CosineAnnealingLR,
ReduceLROnPlateau, OneCycleLR) against PyTorch, step by step: the same weights, data and
hyper-parameters give the same parameters after every step, the same state and the same
learning rates (and momenta) at every step. The harness is ``test_optim_more``'s."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from test_optim_more import _loss, _params, _run, _weights

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

CASES = [
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5}),
    ("Adadelta", {"lr": 1.0, "weight_decay": 0.1, "maximize": True}),
    ("NAdam", {"lr": 0.01}),
    ("NAdam", {"lr": 0.02, "betas": (0.8, 0.95), "momentum_decay": 0.01}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("NAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("NAdam", {"lr": 0.01, "maximize": True, "eps": 1e-6}),
    ("RAdam", {"lr": 0.01}),
    ("RAdam", {"lr": 0.01, "betas": (0.8, 0.9)}),  # rho_t passes 5 within the run
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.01, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("RAdam", {"lr": 0.01, "maximize": True, "betas": (0.5, 0.6)}),
]


@pytest.mark.parametrize("groups", [False, True], ids=["one-group", "two-groups"])
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                          enumerate(CASES)])
def test_trajectory_matches_torch(name, kwargs, groups):
    opt_m, mine = _run(mt, getattr(mt.optim, name), kwargs, groups, steps=12)
    opt_t, ref = _run(torch, getattr(torch.optim, name), kwargs, groups, steps=12)
    for step, (a, b) in enumerate(zip(mine, ref)):
        for i, (pa, pb) in enumerate(zip(a, b)):
            np.testing.assert_allclose(pa, pb, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} step {step + 1} param {i}")
    sd_m, sd_t = opt_m.state_dict(), opt_t.state_dict()
    for k, state in sd_t["state"].items():
        assert sorted(sd_m["state"][k]) == sorted(state)
        for key, v in state.items():
            np.testing.assert_allclose(sd_m["state"][k][key].numpy(), v.numpy(), rtol=2e-5,
                                       atol=2e-6, err_msg=key)
            assert str(sd_m["state"][k][key].dtype) == str(v.dtype).replace("torch.",
                                                                             "torch.")
    for gm, gt in zip(sd_m["param_groups"], sd_t["param_groups"]):
        assert set(gm) == set(gt)


def test_radam_switches_to_the_rectified_step_as_pytorch():
    """With beta2 = 0.9, rho_t first exceeds 5 at step 6: before it, plain momentum steps."""
    _, mine = _run(mt, mt.optim.RAdam, {"lr": 0.1, "betas": (0.9, 0.9)}, False, steps=9)
    _, ref = _run(torch, torch.optim.RAdam, {"lr": 0.1, "betas": (0.9, 0.9)}, False, steps=9)
    for a, b in zip(mine, ref):
        for pa, pb in zip(a, b):
            np.testing.assert_allclose(pa, pb, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", ["Adadelta", "NAdam", "RAdam"])
def test_state_dict_round_trip_continues_the_same(name):
    _, straight = _run(mt, getattr(mt.optim, name), {"lr": 0.02}, False, steps=6)
    ps = _params(mt, _weights())
    opt = getattr(mt.optim, name)(ps, lr=0.02)
    rng = np.random.default_rng(1)

    def step(o):
        x = mt.tensor(rng.standard_normal((6, 4)).astype(np.float32))
        y = mt.tensor(rng.standard_normal((6, 3)).astype(np.float32))
        o.zero_grad()
        _loss(mt, ps, x, y).backward()
        o.step()

    for _ in range(3):
        step(opt)
    fresh = getattr(mt.optim, name)(ps, lr=0.5)
    fresh.load_state_dict(opt.state_dict())
    for _ in range(3):
        step(fresh)
    for p, want in zip(ps, straight[-1]):
        np.testing.assert_array_equal(p.detach().numpy(), want)


@pytest.mark.parametrize(("name", "kwargs"), [
    ("Adadelta", {"lr": -1}), ("Adadelta", {"rho": 1.5}), ("Adadelta", {"eps": -1}),
    ("Adadelta", {"weight_decay": -1}), ("NAdam", {"betas": (1.0, 0.9)}),
    ("NAdam", {"betas": (0.9, -0.1)}), ("NAdam", {"momentum_decay": -1}),
    ("RAdam", {"lr": -0.5}), ("RAdam", {"weight_decay": -0.5}), ("RAdam", {"eps": -1.0}),
])
def test_invalid_hyperparameters_raise_as_torch(name, kwargs):
    with pytest.raises(ValueError) as ref:
        getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as mine:
        getattr(mt.optim, name)([mt.zeros(1, requires_grad=True)], **kwargs)
    assert str(mine.value) == str(ref.value)


@pytest.mark.parametrize("name", ["Adadelta", "NAdam", "RAdam"])
def test_repr_lists_the_hyperparameters_like_torch(name):
    mine = repr(getattr(mt.optim, name)([mt.zeros(1, requires_grad=True)], lr=0.1))
    ref = repr(getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], lr=0.1))
    assert mine == ref


# --------------------------------------------------------------------------- schedulers
def _schedule(lib, make, steps, optimizer="SGD", opt_kwargs=None, metrics=None):
    """The learning rates (and momenta or betas) after creation and after each step."""
    p = lib.zeros(1, requires_grad=True)
    q = lib.zeros(1, requires_grad=True)
    kwargs = opt_kwargs or {"lr": 0.5, "momentum": 0.9}
    opt = getattr(lib.optim, optimizer)([{"params": [p]}, {"params": [q], "lr": 0.2}],
                                        **kwargs)
    sched = make(lib, opt)
    seen = []

    def record():
        groups = opt.param_groups
        seen.append((sched.get_last_lr(), [g.get("momentum") for g in groups],
                     [g.get("betas") for g in groups]))

    record()
    for i in range(steps):
        (p.sum() + q.sum()).backward()
        opt.step()
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[i])
        record()
    return seen


def _assert_same_schedule(mine, ref):
    assert len(mine) == len(ref)
    for step, ((lr_m, mom_m, betas_m), (lr_t, mom_t, betas_t)) in enumerate(zip(mine, ref)):
        np.testing.assert_allclose(lr_m, lr_t, rtol=1e-12, atol=1e-15, err_msg=f"step {step}")
        assert [m if m is None else pytest.approx(m, rel=1e-12) for m in mom_t] == mom_m, step
        assert betas_m == betas_t, step


SCHEDULES = {
    "cosine": (lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(o, T_max=5), 23),
    "cosine-eta-min": (lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(
        o, T_max=7, eta_min=0.01), 30),
    "plateau": (lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, patience=2), 20),
    "plateau-max-abs-cooldown": (lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(
        o, mode="max", factor=0.5, patience=1, threshold=0.05, threshold_mode="abs",
        cooldown=2, min_lr=[0.01, 0.05]), 20),
    "onecycle": (lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0,
                                                                   total_steps=20), 20),
    "onecycle-linear-3phase": (lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(
        o, max_lr=[1.0, 0.3], epochs=3, steps_per_epoch=7, pct_start=0.25,
        anneal_strategy="linear", three_phase=True, div_factor=10.0), 21),
    "onecycle-no-momentum": (lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(
        o, max_lr=0.1, total_steps=10, cycle_momentum=False), 10),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedule_matches_torch(name):
    make, steps = SCHEDULES[name]
    metrics = None
    if name.startswith("plateau"):
        rng = np.random.default_rng(0)
        metrics = list(np.round(1.0 / np.arange(1, steps + 1) + rng.uniform(0, 0.3, steps), 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's "call optimizer.step() first" checks
        mine = _schedule(mt, make, steps, metrics=metrics)
        ref = _schedule(torch, make, steps, metrics=metrics)
    _assert_same_schedule(mine, ref)


def test_onecycle_cycles_adams_beta1_like_torch():
    def make(lib, o):
        return lib.optim.lr_scheduler.OneCycleLR(o, max_lr=0.01, total_steps=12)

    mine = _schedule(mt, make, 12, "Adam", {"lr": 0.001})
    ref = _schedule(torch, make, 12, "Adam", {"lr": 0.001})
    _assert_same_schedule(mine, ref)


def test_cosine_closed_form_with_epoch_warns_like_torch():
    def run(lib):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=1.0)
        sched = lib.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10)
        opt.step()
        with pytest.warns(UserWarning, match="closed form is used"):
            sched.step(4)
        return sched.get_last_lr()

    assert run(mt) == pytest.approx(run(torch), rel=1e-15)
    assert run(mt)[0] == pytest.approx(0.5 * (1 + math.cos(math.pi * 4 / 10)))


@pytest.mark.parametrize("make", [
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0),
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=0),
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, epochs=0,
                                                     steps_per_epoch=2),
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=5,
                                                     pct_start=1),
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0, total_steps=5,
                                                     anneal_strategy="exp"),
    lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=5),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.0),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, mode="median"),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, threshold_mode="pct"),
    lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, min_lr=[0.1, 0.2]),
])
def test_scheduler_errors_are_pytorchs(make):
    def build(lib):
        return make(lib, lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=1.0,
                                       momentum=0.9))

    with pytest.raises(ValueError) as ref:
        build(torch)
    with pytest.raises(ValueError) as mine:
        build(mt)
    assert str(mine.value) == str(ref.value)


def test_onecycle_refuses_to_step_past_total_steps():
    for lib in (mt, torch):
        opt = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=1.0, momentum=0.9)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sched.step()
            sched.step()
            with pytest.raises(ValueError, match="Tried to step 3 times"):
                sched.step()


def test_plateau_state_dict_round_trip():
    opt = mt.optim.SGD([mt.zeros(1, requires_grad=True)], lr=1.0)
    sched = mt.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
    for metric in (1.0, 2.0, 3.0):
        sched.step(mt.tensor(metric))
    state = sched.state_dict()
    assert "optimizer" not in state and state["num_bad_epochs"] == 0
    other = mt.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=0)
    other.load_state_dict(state)
    assert other.mode == "min" and other.best == 1.0
    assert other.get_last_lr() == pytest.approx([0.01])  # two reductions: 1 * 0.1 * 0.1

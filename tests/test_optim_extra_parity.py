"""``optim.Adamax``, ``optim.Rprop``, ``optim.ASGD`` and ``lr_scheduler.CyclicLR`` against the
pinned PyTorch.

The optimizers: the same gradients for 50 steps (some of them growing with the weights, so
the trajectory feeds back), several hyperparameter settings each (weight decay, maximize, and
the settings where their rules switch: Rprop's sign flips and clamped step sizes, ASGD's
averaging from ``t0``), one and two parameter groups; the weights must agree bit for bit
after every step (none of the three takes a square root, whose vectorised rounding is
PyTorch's own), then the ``state_dict``, a save-and-resume that continues the same, the
``repr`` and the errors for bad hyperparameters. CyclicLR: the learning rates and momenta of
every step for each mode, ``SGD`` momentum and Adam's ``beta1``, and its ``state_dict``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

STEPS = 50

CASES = [
    ("Adamax", {}),
    ("Adamax", {"lr": 0.05, "betas": (0.8, 0.99), "eps": 1e-3}),
    ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
    ("Adamax", {"lr": 0.01, "maximize": True, "weight_decay": 0.05}),
    ("Rprop", {}),
    ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2)}),
    ("Rprop", {"lr": 0.001, "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "lambd": 1e-2, "alpha": 0.5, "t0": 10}),
    ("ASGD", {"lr": 0.02, "t0": 0, "weight_decay": 0.1}),
    ("ASGD", {"lr": 0.01, "maximize": True, "t0": 20.5}),
]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]


def _gradients(steps: int = STEPS):
    rng = np.random.default_rng(26)
    return [[rng.standard_normal(s).astype(np.float32) * (0.1 if i % 3 else 1.0)
             for s in ((20,), (4, 5))] for i in range(steps)]


def _run(lib, name, kwargs, groups: bool, steps: int = STEPS):
    rng = np.random.default_rng(0)
    ps = [lib.nn.Parameter(lib.tensor(rng.standard_normal(s).astype(np.float32)))
          for s in ((20,), (4, 5))]
    cls = getattr(lib.optim, name)
    if groups:
        opt = cls([{"params": ps[:1]}, {"params": ps[1:], "lr": 0.03}], **kwargs)
    else:
        opt = cls(ps, **kwargs)
    history = []
    for i, grads in enumerate(_gradients(steps)):
        for p, g in zip(ps, grads):
            # every other step the gradient grows with the weight: the path feeds back
            g = g + (p.detach().numpy() * 0.5 if i % 2 else 0)
            p.grad = lib.tensor(g.astype(np.float32))
        opt.step()
        history.append([p.detach().numpy().copy() for p in ps])
    return opt, ps, history


@pytest.mark.parametrize("groups", [False, True], ids=["one-group", "two-groups"])
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=IDS)
def test_trajectory_matches_torch_bit_for_bit(name, kwargs, groups):
    opt_m, _, mine = _run(mt, name, kwargs, groups)
    opt_t, _, ref = _run(torch, name, kwargs, groups)
    for step, (a, b) in enumerate(zip(mine, ref)):
        for i, (pa, pb) in enumerate(zip(a, b)):
            np.testing.assert_array_equal(pa, pb, err_msg=f"{name} step {step + 1} param {i}")
    sd_m, sd_t = opt_m.state_dict(), opt_t.state_dict()
    assert list(sd_m["state"]) == list(sd_t["state"])
    for k, state in sd_t["state"].items():
        assert list(sd_m["state"][k]) == list(state)  # the same keys, in the same order
        for key, v in state.items():
            mine_v = sd_m["state"][k][key]
            assert (mine_v.dtype.itemsize, tuple(mine_v.shape)) == (v.dtype.itemsize,
                                                                    tuple(v.shape)), key
            np.testing.assert_array_equal(mine_v.numpy(), v.numpy(), err_msg=key)
    assert sd_m["param_groups"] == sd_t["param_groups"]
    assert repr(opt_m) == repr(opt_t)


@pytest.mark.parametrize(("name", "kwargs"), [CASES[1], CASES[5], CASES[8]],
                         ids=["Adamax", "Rprop", "ASGD"])
def test_state_dict_round_trip_continues_the_same(name, kwargs):
    """Save after 20 steps, load into a fresh optimizer (other hyperparameters), go on."""
    _, _, straight = _run(mt, name, kwargs, False, steps=40)
    opt, ps, _ = _run(mt, name, kwargs, False, steps=20)
    fresh = getattr(mt.optim, name)(ps, lr=0.5)
    fresh.load_state_dict(opt.state_dict())
    assert fresh.param_groups[0]["lr"] == opt.param_groups[0]["lr"]
    for i, grads in enumerate(_gradients(40)[20:], start=20):
        for p, g in zip(ps, grads):
            p.grad = mt.tensor((g + (p.detach().numpy() * 0.5 if i % 2 else 0))
                               .astype(np.float32))
        fresh.step()
    for p, want in zip(ps, straight[-1]):
        np.testing.assert_array_equal(p.detach().numpy(), want)


@pytest.mark.parametrize("name", ["Adamax", "Rprop", "ASGD"])
def test_repr_and_defaults_like_torch(name):
    mine = getattr(mt.optim, name)([mt.zeros(1, requires_grad=True)])
    ref = getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)])
    assert repr(mine) == repr(ref)
    assert mine.defaults == ref.defaults


def test_closure_and_no_gradient():
    """A parameter without a gradient is left alone; ``step(closure)`` returns the loss."""
    for name in ("Adamax", "Rprop", "ASGD"):
        results = []
        for lib in (mt, torch):
            a, b = (lib.nn.Parameter(lib.tensor([1.0, -2.0])) for _ in range(2))
            opt = getattr(lib.optim, name)([a, b], lr=0.1)

            def closure(a=a, opt=opt):
                opt.zero_grad()
                loss = (a * a).sum()
                loss.backward()
                return loss

            loss = opt.step(closure)
            results.append((float(loss.detach()), a.tolist(), b.tolist(), len(opt.state)))
        assert results[0] == results[1], name


@pytest.mark.parametrize(("name", "kwargs", "message"), [
    ("Adamax", {"lr": -1}, "Invalid learning rate: -1"),
    ("Adamax", {"eps": -1}, "Invalid epsilon value: -1"),
    ("Adamax", {"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
    ("Adamax", {"betas": (0.9, -0.1)}, "Invalid beta parameter at index 1: -0.1"),
    ("Adamax", {"weight_decay": -1}, "Invalid weight_decay value: -1"),
    ("Rprop", {"lr": -0.5}, "Invalid learning rate: -0.5"),
    ("Rprop", {"etas": (1.0, 1.2)}, "Invalid eta values: 1.0, 1.2"),
    ("Rprop", {"etas": (0.5, 0.9)}, "Invalid eta values: 0.5, 0.9"),
    ("ASGD", {"lr": -1}, "Invalid learning rate: -1"),
    ("ASGD", {"weight_decay": -0.1}, "Invalid weight_decay value: -0.1"),
])
def test_invalid_hyperparameters_raise_as_torch(name, kwargs, message):
    with pytest.raises(ValueError) as ref:
        getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as mine:
        getattr(mt.optim, name)([mt.zeros(1, requires_grad=True)], **kwargs)
    assert str(mine.value) == str(ref.value) == message


# ---------------------------------------------------------------- CyclicLR
SCHEDULES = [
    {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 7},
    {"base_lr": [0.01, 0.02], "max_lr": [0.1, 0.3], "step_size_up": 5, "step_size_down": 9,
     "mode": "triangular2"},
    {"base_lr": 0.001, "max_lr": 0.1, "step_size_up": 4, "mode": "exp_range", "gamma": 0.97,
     "base_momentum": 0.7, "max_momentum": 0.95},
    {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3, "cycle_momentum": False},
    {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 1, "step_size_down": 6,
     "base_momentum": [0.5, 0.6], "max_momentum": [0.9, 0.8]},
    {"base_lr": 0.2, "max_lr": 0.05, "step_size_up": 2.5},  # max below base: inverted
]


def _schedule(lib, opt_name, kwargs, steps=120, scale_fn=None):
    a, b = lib.zeros(2, requires_grad=True), lib.zeros(2, requires_grad=True)
    opt_kw = {"lr": 0.1, "momentum": 0.9} if opt_name == "SGD" else {"lr": 0.1}
    opt = getattr(lib.optim, opt_name)([{"params": [a]}, {"params": [b], "lr": 0.5}],
                                       **opt_kw)
    extra = {"scale_fn": scale_fn, "scale_mode": "iterations"} if scale_fn else {}
    sched = lib.optim.lr_scheduler.CyclicLR(opt, **kwargs, **extra)
    seen = [(list(sched.get_last_lr()), [dict(g) for g in opt.state_dict()["param_groups"]])]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # stepping in the right order warns about nothing
        for _ in range(steps):
            opt.step()
            sched.step()
            seen.append((list(sched.get_last_lr()),
                         [dict(g) for g in opt.state_dict()["param_groups"]]))
    return seen, sched, opt


@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
@pytest.mark.parametrize("kwargs", SCHEDULES, ids=[f"case{i}" for i in range(len(SCHEDULES))])
def test_cyclic_lr_matches_torch(opt_name, kwargs):
    mine, sched_m, _ = _schedule(mt, opt_name, kwargs)
    ref, sched_t, _ = _schedule(torch, opt_name, kwargs)
    for step, (m, r) in enumerate(zip(mine, ref)):
        assert m == r, f"step {step}"  # the lrs, momenta (or betas) and every group key
    sd_m, sd_t = sched_m.state_dict(), sched_t.state_dict()
    assert sorted(sd_m) == sorted(sd_t)
    for key in ("base_lrs", "max_lrs", "total_size", "step_ratio", "mode", "gamma",
                "scale_mode", "cycle_momentum", "last_epoch", "_last_lr", "_scale_fn_custom"):
        assert sd_m[key] == sd_t[key], key


def test_cyclic_lr_custom_scale_function():
    mine, _, _ = _schedule(mt, "SGD", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3},
                           scale_fn=lambda x: 0.9**x)
    ref, _, _ = _schedule(torch, "SGD", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 3},
                          scale_fn=lambda x: 0.9**x)
    assert mine == ref


def test_cyclic_lr_state_dict_round_trip():
    kwargs = {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 4, "mode": "exp_range",
              "gamma": 0.9}
    _, sched, _ = _schedule(mt, "SGD", kwargs, steps=10)
    straight, _, _ = _schedule(mt, "SGD", kwargs, steps=15)
    _, fresh, opt = _schedule(mt, "SGD", {"base_lr": 0.5, "max_lr": 0.6}, steps=0)
    fresh.load_state_dict(sched.state_dict())
    for _ in range(5):
        opt.step()
        fresh.step()
    assert fresh.get_last_lr() == straight[-1][0]
    assert fresh.scale_fn(3) == 0.9**3


@pytest.mark.parametrize(("opt_name", "kwargs"), [
    ("SGD", {"mode": "linear"}), ("Adagrad", {}), ("SGD", {"base_lr": [0.1]}),
])
def test_cyclic_lr_errors_as_torch(opt_name, kwargs):
    errors = []
    for lib in (mt, torch):
        opt = getattr(lib.optim, opt_name)([{"params": [lib.zeros(1, requires_grad=True)]},
                                            {"params": [lib.zeros(1, requires_grad=True)]}],
                                           lr=0.1)
        with pytest.raises(ValueError) as err:
            lib.optim.lr_scheduler.CyclicLR(opt, **{"base_lr": 0.01, "max_lr": 0.1, **kwargs})
        errors.append(str(err.value))
    assert errors[0] == errors[1]

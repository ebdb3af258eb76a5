"""RMSprop, Adagrad and AdamW against PyTorch: same weights, same data, several steps.

Each case builds a small two-layer model in both libraries with the same weights, runs the
same number of steps (with two parameter groups where the case says so) and compares every
parameter after every step, then the optimizer's ``state_dict``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

STEPS = 8


def _weights(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in ((5, 4), (5,), (3, 5), (3,))]


def _params(lib, weights):
    return [lib.tensor(w.copy(), requires_grad=True) for w in weights]


def _loss(lib, ps, x, y):
    h = lib.tanh(x @ ps[0].T + ps[1])
    return ((h @ ps[2].T + ps[3] - y) ** 2).mean()


def _run(lib, opt_cls, kwargs, groups: bool, steps: int = STEPS):
    ps = _params(lib, _weights())
    rng = np.random.default_rng(1)
    if groups:  # two groups, the second with its own learning rate
        opt = opt_cls([{"params": ps[:2]}, {"params": ps[2:], "lr": 0.05}], **kwargs)
    else:
        opt = opt_cls(ps, **kwargs)
    history = []
    for _ in range(steps):
        x = lib.tensor(rng.standard_normal((6, 4)).astype(np.float32))
        y = lib.tensor(rng.standard_normal((6, 3)).astype(np.float32))
        opt.zero_grad()
        _loss(lib, ps, x, y).backward()
        opt.step()
        history.append([p.detach().numpy().copy() for p in ps])
    return opt, history


CASES = [
    ("RMSprop", {"lr": 0.01}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9}),
    ("RMSprop", {"lr": 0.01, "centered": True}),
    ("RMSprop", {"lr": 0.02, "alpha": 0.9, "eps": 1e-6, "weight_decay": 0.1, "momentum": 0.5,
                 "centered": True}),
    ("RMSprop", {"lr": 0.01, "maximize": True}),
    ("Adagrad", {"lr": 0.1}),
    ("Adagrad", {"lr": 0.1, "lr_decay": 0.05}),
    ("Adagrad", {"lr": 0.1, "weight_decay": 0.1, "initial_accumulator_value": 0.5,
                 "eps": 1e-6}),
    ("Adagrad", {"lr": 0.1, "maximize": True}),
    ("AdamW", {"lr": 0.01}),
    ("AdamW", {"lr": 0.01, "weight_decay": 0.3, "amsgrad": True, "betas": (0.8, 0.9)}),
]


@pytest.mark.parametrize("groups", [False, True], ids=["one-group", "two-groups"])
@pytest.mark.parametrize(("name", "kwargs"), CASES, ids=[f"{n}-{i}" for i, (n, _) in
                                                          enumerate(CASES)])
def test_trajectory_matches_torch(name, kwargs, groups):
    opt_m, mine = _run(mt, getattr(mt.optim, name), kwargs, groups)
    opt_t, ref = _run(torch, getattr(torch.optim, name), kwargs, groups)
    for step, (a, b) in enumerate(zip(mine, ref)):
        for i, (pa, pb) in enumerate(zip(a, b)):
            np.testing.assert_allclose(pa, pb, rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} step {step + 1} param {i}")
    sd_m, sd_t = opt_m.state_dict(), opt_t.state_dict()
    assert sorted(sd_m["state"]) == sorted(sd_t["state"])
    for k in sd_t["state"]:
        assert sorted(sd_m["state"][k]) == sorted(sd_t["state"][k])
        for key, v in sd_t["state"][k].items():
            np.testing.assert_allclose(sd_m["state"][k][key].numpy(), v.numpy(), rtol=2e-5,
                                       atol=2e-6, err_msg=key)
    for gm, gt in zip(sd_m["param_groups"], sd_t["param_groups"]):
        assert set(gm) == set(gt)
        assert gm["params"] == gt["params"]
        assert gm["lr"] == gt["lr"]


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad"])
def test_state_dict_round_trip_continues_the_same(name):
    """Save after 3 steps, load into a fresh optimizer, continue: same as never stopping."""
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
    assert fresh.param_groups[0]["lr"] == 0.02
    for _ in range(3):
        step(fresh)
    for p, want in zip(ps, straight[-1]):
        np.testing.assert_array_equal(p.detach().numpy(), want)


def test_adagrad_state_exists_before_the_first_step():
    p = mt.zeros(2, requires_grad=True)
    opt = mt.optim.Adagrad([p], initial_accumulator_value=0.25)
    assert sorted(opt.state[p]) == ["step", "sum"]
    assert opt.state[p]["sum"].tolist() == [0.25, 0.25]


@pytest.mark.parametrize(("name", "kwargs", "message"), [
    ("RMSprop", {"lr": -1}, "Invalid learning rate: -1"),
    ("RMSprop", {"alpha": -0.5}, "Invalid alpha value: -0.5"),
    ("RMSprop", {"momentum": -0.5}, "Invalid momentum value: -0.5"),
    ("Adagrad", {"lr_decay": -1}, "Invalid lr_decay value: -1"),
    ("Adagrad", {"initial_accumulator_value": -1},
     "Invalid initial_accumulator_value value: -1"),
])
def test_invalid_hyperparameters_raise_as_torch(name, kwargs, message):
    with pytest.raises(ValueError) as ref:
        getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs)
    with pytest.raises(ValueError) as mine:
        getattr(mt.optim, name)([mt.zeros(1, requires_grad=True)], **kwargs)
    assert str(mine.value) == str(ref.value) == message


def test_repr_lists_the_hyperparameters_like_torch():
    mine = repr(mt.optim.RMSprop([mt.zeros(1, requires_grad=True)], lr=0.1))
    ref = repr(torch.optim.RMSprop([torch.zeros(1, requires_grad=True)], lr=0.1))
    assert mine == ref


# ---------------------------------------------------------------- PyTorch's rounding (issue 26)
@pytest.mark.parametrize("kwargs", [
    {"lr": 0.1}, {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.01},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "momentum": 0.5, "dampening": 0.3, "maximize": True},
], ids=str)
def test_sgd_steps_round_as_torch_given_the_same_gradients(kwargs):
    """PyTorch's SGD updates with ``add_(g, alpha=-lr)``, whose kernel rounds ``p - lr * g``
    once (a fused multiply-add): given the same gradients, the parameters stay the same bit
    for bit. (Adam, RMSprop and Adagrad round their adds the same way, but take a square
    root, which PyTorch's vectorised CPU kernel does not round correctly: those differ in
    the last bit now and then, and are compared to a tolerance above.)"""
    rng = np.random.default_rng(26)
    p0 = rng.standard_normal(1000).astype(np.float32)
    grads = [rng.standard_normal(1000).astype(np.float32) for _ in range(30)]
    results = []
    for lib in (mt, torch):
        p = lib.nn.Parameter(lib.from_numpy(p0.copy()))
        opt = lib.optim.SGD([p], **kwargs)
        for g in grads:
            p.grad = lib.from_numpy(g.copy())
            opt.step()
        results.append(p.detach().numpy().copy())
    np.testing.assert_array_equal(results[0], results[1])


def test_add_with_alpha_and_linspace_round_as_torch():
    """``a.add(b, alpha=c)`` is one fused multiply-add in PyTorch, and its linspace counts the
    first half up from ``start`` and the second half down from ``end``, each value one fused
    multiply-add: the polynomial examples fit a model to ``linspace(-pi, pi, 2000)``."""
    import math

    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(5000).astype(np.float32) for _ in range(2))
    for alpha in (0.1, -1e-3, 3.0):
        got = mt.from_numpy(a.copy()).add(mt.from_numpy(b.copy()), alpha=alpha)
        want = torch.from_numpy(a.copy()).add(torch.from_numpy(b.copy()), alpha=alpha)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    for args in [(-math.pi, math.pi, 2000), (0, 1, 5), (2.5, -1.5, 64), (0, 1, 1), (-3, 7, 1001)]:
        for dt in ("float32", "float64"):
            got = mt.linspace(*args, dtype=getattr(mt, dt))
            want = torch.linspace(*args, dtype=getattr(torch, dt))
            np.testing.assert_array_equal(got.numpy(), want.numpy())

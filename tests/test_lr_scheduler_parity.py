"""Optimizers over ``named_parameters()`` and the learning-rate schedulers, against PyTorch.

Named parameters: every optimizer takes ``(name, tensor)`` pairs (also in group dicts), keeps
the names in ``param_names`` (printed, saved by ``state_dict``, kept or replaced by
``load_state_dict``) and refuses mixing named and unnamed parameters with PyTorch's errors.

Schedulers: the same learning rates as PyTorch's at every step (two parameter groups, float
and tensor rates), the same warnings (scheduler stepped before the optimizer, ``get_lr()``
called directly, ``optimizer.step`` replaced, ``step(epoch)`` and its closed form), the same
``state_dict`` and the same errors for bad arguments.
"""

from __future__ import annotations

import types
import warnings
from collections import Counter

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "NAdam", "RAdam"]


# --------------------------------------------------------------------------- named parameters
def _model(lib):
    rng = np.random.default_rng(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))
    with lib.no_grad():
        for p in model.parameters():
            p.copy_(lib.tensor(rng.standard_normal(tuple(p.shape)).astype(np.float32)))
    return model


def _train(lib, model, opt, steps=4):
    rng = np.random.default_rng(1)
    for _ in range(steps):
        x = lib.tensor(rng.standard_normal((5, 3)).astype(np.float32))
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    return [p.detach().numpy().copy() for p in model.parameters()]


def _groups(lib, model, how):
    if how == "named":
        return model.named_parameters()
    if how == "named-groups":
        return [{"params": model[0].named_parameters(prefix="0")},
                {"params": list(model[2].named_parameters(prefix="2")), "lr": 0.05}]
    return model.parameters()


def _packed_groups(opt):
    return [{k: v for k, v in g.items() if k != "params"} | {"params": g["params"]}
            for g in opt.state_dict()["param_groups"]]


@pytest.mark.parametrize("how", ["named", "named-groups"])
@pytest.mark.parametrize("name", OPTIMIZERS)
def test_named_parameters_train_and_save_like_torch(name, how):
    runs = {}
    for lib in (mt, torch):
        model = _model(lib)
        opt = getattr(lib.optim, name)(_groups(lib, model, how), lr=0.01)
        runs[lib] = (opt, _train(lib, model, opt))
    (mopt, mine), (topt, ref) = runs[mt], runs[torch]
    for a, b in zip(mine, ref):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert [g["param_names"] for g in mopt.param_groups] == \
        [g["param_names"] for g in topt.param_groups]
    assert repr(mopt) == repr(topt)
    assert _packed_groups(mopt) == _packed_groups(topt)
    assert [list(g) for g in mopt.state_dict()["param_groups"]] == \
        [list(g) for g in topt.state_dict()["param_groups"]]  # the keys' order too
    # the names do not change the numbers: the same run without them
    plain = _model(mt)
    plain_opt = getattr(mt.optim, name)(_groups(mt, plain, "plain") if how == "named" else
                                        [{"params": plain[0].parameters()},
                                         {"params": plain[2].parameters(), "lr": 0.05}],
                                        lr=0.01)
    for a, b in zip(_train(mt, plain, plain_opt), mine):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", OPTIMIZERS)
def test_named_state_dict_round_trip_continues_the_same(name):
    def run(lib):
        model = _model(lib)
        opt = getattr(lib.optim, name)(model.named_parameters(), lr=0.01)
        _train(lib, model, opt, 3)
        state = opt.state_dict()
        fresh = getattr(lib.optim, name)(model.named_parameters(), lr=0.5)
        fresh.load_state_dict(state)
        assert fresh.param_groups[0]["lr"] == 0.01
        assert fresh.param_groups[0]["param_names"] == ["0.weight", "0.bias", "2.weight",
                                                        "2.bias"]
        return _train(lib, model, fresh, 3), _packed_groups(fresh)

    (mine, mgroups), (ref, tgroups) = run(mt), run(torch)
    for a, b in zip(mine, ref):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert mgroups == tgroups


@pytest.mark.parametrize(("saved", "loader"), [("named", "plain"), ("plain", "named"),
                                                ("named", "renamed")])
def test_load_state_dict_keeps_or_replaces_the_names_as_torch(saved, loader):
    def run(lib):
        model = _model(lib)

        def params(how):
            if how == "plain":
                return model.parameters()
            prefix = "net." if how == "renamed" else ""
            return [(prefix + n, p) for n, p in model.named_parameters()]

        source = lib.optim.SGD(params(saved), lr=0.1, momentum=0.9)
        _train(lib, model, source, 2)
        target = lib.optim.SGD(params(loader), lr=0.3)
        target.load_state_dict(source.state_dict())
        return [list(g.items())[:-1] if "params" == list(g)[-1] else g for g in
                [{k: v for k, v in g.items() if k != "params"} for g in target.param_groups]]

    assert run(mt) == run(torch)


def _error(build):
    results = []
    for lib in (mt, torch):
        with pytest.raises(Exception) as info:
            build(lib)
        results.append(info)
    (mine, ref) = results
    assert type(mine.value) is type(ref.value)
    assert str(mine.value) == str(ref.value)


def _p(lib):
    return lib.zeros(2, requires_grad=True)


@pytest.mark.parametrize("build", [
    lambda lib: lib.optim.SGD([("a", _p(lib)), _p(lib)], lr=0.1),
    lambda lib: lib.optim.Adam([_p(lib), ("b", _p(lib))], lr=0.1),
    lambda lib: lib.optim.SGD([{"params": [("a", _p(lib))]}, {"params": [_p(lib)]}], lr=0.1),
    lambda lib: lib.optim.RMSprop([{"params": [_p(lib)]}, {"params": [("a", _p(lib))]}]),
    lambda lib: lib.optim.SGD([{"params": [("a", _p(lib))]}], lr=0.1).add_param_group(
        {"params": _p(lib)}),
    lambda lib: lib.optim.SGD([("a", lib.zeros(1, requires_grad=True) * 2)], lr=0.1),
    lambda lib: lib.optim.SGD([("a", 1.0)], lr=0.1),
    lambda lib: lib.optim.SGD([np.float32(1.0)], lr=0.1),
    lambda lib: lib.optim.SGD([("a", _p(lib))] * 2 + [("b", None)], lr=0.1),
], ids=["pair-then-tensor", "tensor-then-pair", "named-then-plain-group",
        "plain-then-named-group", "add_param_group", "non-leaf", "not-a-tensor", "numpy", "none"])
def test_mixing_names_is_refused_with_torchs_errors(build):
    _error(build)


def test_add_param_group_with_names_records_them():
    groups = []
    for lib in (mt, torch):
        a, b = _p(lib), _p(lib)
        opt = lib.optim.Adagrad([("a", a)], lr=0.1)
        opt.add_param_group({"params": [("b", b)], "lr": 0.2})
        assert opt.param_groups[1]["params"][0] is b
        groups.append(_packed_groups(opt))
    assert groups[0] == groups[1]


# --------------------------------------------------------------------------- schedulers
def _opt(lib, tensor_lr=False, optimizer="SGD"):
    p, q = lib.zeros(1, requires_grad=True), lib.zeros(1, requires_grad=True)
    lr0, lr1 = (lib.tensor(0.5), lib.tensor(0.2)) if tensor_lr else (0.5, 0.2)
    return getattr(lib.optim, optimizer)([{"params": [p], "lr": lr0},
                                          {"params": [q], "lr": lr1}], lr=0.1, momentum=0.9)


def _value(x):
    return x.item() if isinstance(x, (mt.Tensor, torch.Tensor)) else x


def _lrs(lrs):
    return [_value(lr) for lr in lrs]


def _lin(lib, o):
    return lib.optim.lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=4)


class _Halve:
    """A callable object: LambdaLR saves its ``__dict__`` (not a plain function's)."""

    def __init__(self):
        self.rate = 0.5

    def __call__(self, epoch):
        return self.rate ** epoch


SCHEDULERS = {
    "lambda": lambda lib, o: lib.optim.lr_scheduler.LambdaLR(
        o, lr_lambda=lambda e: 0.9 ** e + (e % 3) * 0.1),
    "lambda-list": lambda lib, o: lib.optim.lr_scheduler.LambdaLR(
        o, lr_lambda=[lambda e: e // 3 + 1, _Halve()]),
    "multiplicative": lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(
        o, lr_lambda=lambda e: 0.95 if e % 2 else 0.9),
    "multistep": lambda lib, o: lib.optim.lr_scheduler.MultiStepLR(
        o, milestones=[3, 7, 7, 12], gamma=0.5),
    "constant": lambda lib, o: lib.optim.lr_scheduler.ConstantLR(o),
    "constant-factor": lambda lib, o: lib.optim.lr_scheduler.ConstantLR(
        o, factor=0.1, total_iters=7),
    "linear": lambda lib, o: lib.optim.lr_scheduler.LinearLR(o),
    "linear-decay": lambda lib, o: lib.optim.lr_scheduler.LinearLR(
        o, start_factor=1.0, end_factor=0.05, total_iters=13),
    "sequential": lambda lib, o: lib.optim.lr_scheduler.SequentialLR(
        o, [_lin(lib, o), lib.optim.lr_scheduler.CosineAnnealingLR(o, T_max=10)],
        milestones=[4]),
    "sequential-3": lambda lib, o: lib.optim.lr_scheduler.SequentialLR(
        o, [lib.optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
            lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
            lib.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5)], milestones=[3, 9]),
    "chained": lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler(
        [lib.optim.lr_scheduler.ConstantLR(o, factor=0.1, total_iters=2),
         lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)]),
    "chained-optimizer": lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler(
        [_lin(lib, o), lib.optim.lr_scheduler.MultiStepLR(o, [3, 6])], optimizer=o),
    "polynomial": lambda lib, o: lib.optim.lr_scheduler.PolynomialLR(o, total_iters=8),
    "polynomial-power": lambda lib, o: lib.optim.lr_scheduler.PolynomialLR(
        o, total_iters=11, power=2.5),
    "warm-restarts": lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=5),
    "warm-restarts-mult": lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, T_0=3, T_mult=2, eta_min=0.01),
    "step": lambda lib, o: lib.optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
    "exponential": lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
    "cosine": lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingLR(o, T_max=6,
                                                                       eta_min=0.01),
    "onecycle": lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, max_lr=1.0,
                                                                  total_steps=40),
}
NEW = ["lambda", "lambda-list", "multiplicative", "multistep", "constant", "constant-factor",
       "linear", "linear-decay", "sequential", "sequential-3", "chained", "chained-optimizer",
       "polynomial",
       "polynomial-power", "warm-restarts", "warm-restarts-mult"]
STEPS = 40


def _schedule(lib, name, tensor_lr=False, steps=STEPS):
    """The learning rates (get_last_lr and the groups') after creation and every step, with
    every warning raised on the way."""
    opt = _opt(lib, tensor_lr)
    lr_objects = [g["lr"] for g in opt.param_groups]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched = SCHEDULERS[name](lib, opt)
        seen = [(_lrs(sched.get_last_lr()), _lrs(g["lr"] for g in opt.param_groups))]
        for _ in range(steps):
            opt.step()
            sched.step()
            seen.append((_lrs(sched.get_last_lr()), _lrs(g["lr"] for g in opt.param_groups)))
    return seen, [str(w.message) for w in caught], opt, sched, lr_objects


def _assert_close(mine, ref):
    assert len(mine) == len(ref)
    for i, (a, b) in enumerate(zip(mine, ref)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=f"step {i}")


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_schedules_match_torch(name):
    mine, mine_warnings, _, msched, _ = _schedule(mt, name)
    ref, ref_warnings, _, tsched, _ = _schedule(torch, name)
    _assert_close(mine, ref)
    assert mine_warnings == ref_warnings == []  # optimizer.step() first: no warning
    assert getattr(msched, "last_epoch", None) == getattr(tsched, "last_epoch", None)


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_tensor_learning_rates_are_filled_in_place(name):
    mine, _, mopt, msched, mobjects = _schedule(mt, name, tensor_lr=True, steps=15)
    ref, _, topt, tsched, tobjects = _schedule(torch, name, tensor_lr=True, steps=15)
    np.testing.assert_allclose(np.array(mine, dtype=np.float64), np.array(ref), rtol=1e-6)
    assert all(g["lr"] is lr for g, lr in zip(topt.param_groups, tobjects))
    assert all(g["lr"] is lr for g, lr in zip(mopt.param_groups, mobjects))
    last = msched.get_last_lr()
    assert all(isinstance(lr, mt.Tensor) and lr is not g["lr"]
               for lr, g in zip(last, mopt.param_groups))  # copies, never the group's tensor
    assert [type(lr).__name__ for lr in last] == [type(lr).__name__
                                                   for lr in tsched.get_last_lr()]


def _plain(value):
    """A state_dict value as plain data: tensors as numbers, Counters as dicts."""
    if isinstance(value, (mt.Tensor, torch.Tensor)):
        return value.item()
    if isinstance(value, Counter):
        return dict(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _compare_state(mine, ref):
    assert list(mine) == list(ref)
    for key in ref:
        a, b = _plain(mine[key]), _plain(ref[key])
        if key == "lr_lambdas":
            assert a == b
        elif isinstance(b, float):
            assert a == pytest.approx(b, rel=1e-12, abs=1e-15), key
        elif key == "_schedulers":
            for sa, sb in zip(mine[key], ref[key]):
                _compare_state(sa, sb)
        elif isinstance(b, list) and b and isinstance(b[0], float):
            np.testing.assert_allclose(a, b, rtol=1e-12, err_msg=key)
        else:
            assert a == b, key


@pytest.mark.parametrize("name", NEW)
def test_state_dict_and_resuming_match_torch(name):
    """Save after 9 steps, load into a fresh optimizer and scheduler, go on 12 more steps."""
    def run(lib):
        _, _, opt, sched, _ = _schedule(lib, name, steps=9)
        opt_state, sched_state = opt.state_dict(), sched.state_dict()
        state_copy = dict(sched_state)
        fresh = _opt(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            resumed = SCHEDULERS[name](lib, fresh)
        resumed.load_state_dict(sched_state)
        assert list(sched_state) == list(state_copy)  # the caller's dict is left as it was
        fresh.load_state_dict(opt_state)
        lrs = [_lrs(resumed.get_last_lr())]
        for _ in range(12):
            fresh.step()
            resumed.step()
            lrs.append(_lrs(resumed.get_last_lr()))
        return sched_state, lrs, getattr(resumed, "last_epoch", None)

    (mstate, mine, mepoch), (tstate, ref, tepoch) = run(mt), run(torch)
    _compare_state(mstate, tstate)
    _assert_close(mine, ref)
    assert mepoch == tepoch


def test_lambda_state_dict_saves_callable_objects_only():
    for lib in (mt, torch):
        halve = _Halve()
        sched = lib.optim.lr_scheduler.LambdaLR(_opt(lib), [lambda e: 1.0, halve])
        assert sched.state_dict()["lr_lambdas"] == [None, {"rate": 0.5}]
        other = _Halve()
        other.rate = 0.25
        resumed = lib.optim.lr_scheduler.LambdaLR(_opt(lib), [lambda e: 1.0, other])
        resumed.load_state_dict(sched.state_dict())
        assert other.rate == 0.5


@pytest.mark.parametrize("name", ["step", "exponential", "multistep", "constant-factor",
                                  "linear-decay", "polynomial", "cosine", "lambda",
                                  "multiplicative", "warm-restarts-mult"])
def test_step_with_an_epoch_warns_and_uses_the_closed_form(name):
    def run(lib):
        opt = _opt(lib)
        sched = SCHEDULERS[name](lib, opt)
        out = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for epoch in (3, 7, 2, 10, 0, 5, 13, 4.5 if "restarts" in name else 4):
                opt.step()
                sched.step(epoch)
                out.append((_lrs(sched.get_last_lr()), sched.last_epoch))
        return out, [(w.category, str(w.message)) for w in caught]

    (mine, mine_warnings), (ref, ref_warnings) = run(mt), run(torch)
    assert [e for _, e in mine] == [e for _, e in ref]
    _assert_close([lr for lr, _ in mine], [lr for lr, _ in ref])
    assert mine_warnings == ref_warnings
    if "restarts" not in name:  # CosineAnnealingWarmRestarts takes epochs without a warning
        assert len(ref_warnings) == 8 and "closed form is used" in ref_warnings[0][1]


def _warnings_of(action):
    out = []
    for lib in (mt, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            action(lib)
        out.append([(w.category, str(w.message)) for w in caught])
    assert out[0] == out[1]
    return out[1]


@pytest.mark.parametrize("name", sorted(set(SCHEDULERS) - {"warm-restarts",
                                                          "warm-restarts-mult"}))
def test_scheduler_stepped_before_the_optimizer_warns(name):
    def action(lib):
        opt = _opt(lib)
        sched = SCHEDULERS[name](lib, opt)
        sched.step()  # before opt.step(): warns once
        opt.step()
        sched.step()

    caught = _warnings_of(action)
    assert len(caught) == (2 if name.startswith("chained") else 1)  # one per scheduler
    assert all(category is UserWarning and message.startswith(
        "Detected call of `lr_scheduler.step()` before `optimizer.step()`.")
        for category, message in caught)


def test_replaced_optimizer_step_warns():
    def action(lib):
        opt = _opt(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, 2)
        opt.step = types.MethodType(type(opt).step, opt)
        opt.step()
        sched.step()

    caught = _warnings_of(action)
    assert len(caught) == 1 and "has been overridden" in caught[0][1]


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_calling_get_lr_directly_warns(name):
    def action(lib):
        opt = _opt(lib)
        sched = SCHEDULERS[name](lib, opt)
        if isinstance(sched, (lib.optim.lr_scheduler.SequentialLR,
                              lib.optim.lr_scheduler.ChainedScheduler)):
            sched = sched._schedulers[0]
        opt.step()
        sched.step()
        sched.get_lr()

    caught = _warnings_of(action)
    assert [m for _, m in caught] == ["To get the last learning rate computed by the "
                                      "scheduler, please use `get_last_lr()`."]


def test_the_wrapped_step_still_steps_and_keeps_its_name():
    for lib in (mt, torch):
        p = lib.ones(1, requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.5)
        lib.optim.lr_scheduler.ExponentialLR(opt, 0.5)
        lib.optim.lr_scheduler.StepLR(opt, 2)  # a second scheduler does not wrap it again
        assert opt.step._wrapped_by_lr_sched and opt.step.__name__ == "step"
        p.sum().backward()
        opt.step()
        assert p.item() == 0.5 and opt._opt_called


@pytest.mark.parametrize("make", [
    lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, [lambda e: 1.0]),
    lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(o, lambda e: 1.0, last_epoch=0),
    lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(o, [lambda e: 1.0, 0.5]),
    lambda lib, o: lib.optim.lr_scheduler.MultiplicativeLR(o, 0.5),
    lambda lib, o: lib.optim.lr_scheduler.ConstantLR(o, factor=1.5),
    lambda lib, o: lib.optim.lr_scheduler.ConstantLR(o, factor=-0.1),
    lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, start_factor=0),
    lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, start_factor=1.2),
    lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, end_factor=1.5),
    lambda lib, o: lib.optim.lr_scheduler.SequentialLR(o, [], milestones=[]),
    lambda lib, o: lib.optim.lr_scheduler.SequentialLR(o, [_lin(lib, o)], milestones=[3]),
    lambda lib, o: lib.optim.lr_scheduler.SequentialLR(o, [_lin(lib, o), object()], [3]),
    lambda lib, o: lib.optim.lr_scheduler.SequentialLR(
        o, [_lin(lib, o), lib.optim.lr_scheduler.ReduceLROnPlateau(o)], milestones=[3]),
    lambda lib, o: lib.optim.lr_scheduler.SequentialLR(
        o, [_lin(lib, o), _lin(lib, _opt(lib))], milestones=[3]),
    lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler([]),
    lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler([_lin(lib, o), 1.0]),
    lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler(
        [_lin(lib, o), lib.optim.lr_scheduler.ReduceLROnPlateau(o)]),
    lambda lib, o: lib.optim.lr_scheduler.ChainedScheduler([_lin(lib, o)],
                                                           optimizer=_opt(lib)),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2.0),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=1.5),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, eta_min="0"),
    lambda lib, o: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2).step(-1),
    lambda lib, o: lib.optim.lr_scheduler.PolynomialLR(o, last_epoch=3),
    lambda lib, o: lib.optim.lr_scheduler.LambdaLR(object(), lambda e: 1.0),
])
def test_bad_arguments_get_torchs_errors(make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _error(lambda lib: make(lib, _opt(lib)))


RESUMABLE = {
    "exponential": lambda lib, o, **kw: lib.optim.lr_scheduler.ExponentialLR(o, 0.9, **kw),
    "multiplicative": lambda lib, o, **kw: lib.optim.lr_scheduler.MultiplicativeLR(
        o, lambda e: 0.8, **kw),
    "lambda": lambda lib, o, **kw: lib.optim.lr_scheduler.LambdaLR(o, lambda e: 0.8 ** e, **kw),
    "linear": lambda lib, o, **kw: lib.optim.lr_scheduler.LinearLR(o, 0.5, 0.1, 9, **kw),
    "polynomial": lambda lib, o, **kw: lib.optim.lr_scheduler.PolynomialLR(o, 9, 2.0, **kw),
    "multistep": lambda lib, o, **kw: lib.optim.lr_scheduler.MultiStepLR(o, [2, 7], **kw),
    "step": lambda lib, o, **kw: lib.optim.lr_scheduler.StepLR(o, 3, 0.5, **kw),
    "constant": lambda lib, o, **kw: lib.optim.lr_scheduler.ConstantLR(o, 0.5, 8, **kw),
    "cosine": lambda lib, o, **kw: lib.optim.lr_scheduler.CosineAnnealingLR(o, 6, **kw),
    "warm-restarts": lambda lib, o, **kw: lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        o, 3, 2, **kw),
}


@pytest.mark.parametrize("name", sorted(RESUMABLE))
def test_resuming_with_last_epoch_matches_torch(name):
    """A scheduler created with ``last_epoch=5`` (after loading the optimizer's state, which
    holds ``initial_lr``) goes on from the loaded learning rates as PyTorch's does."""
    def run(lib):
        opt = _opt(lib)
        sched = RESUMABLE[name](lib, opt)
        for _ in range(5):
            opt.step()
            sched.step()
        fresh = _opt(lib)
        fresh.load_state_dict(opt.state_dict())
        resumed = RESUMABLE[name](lib, fresh, last_epoch=5)
        lrs = [_lrs(resumed.get_last_lr())]
        for _ in range(6):
            fresh.step()
            resumed.step()
            lrs.append(_lrs(resumed.get_last_lr()))
        return lrs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mine, ref = run(mt), run(torch)
    _assert_close(mine, ref)


def test_plateau_fills_a_tensor_learning_rate_in_place():
    out = []
    for lib in (mt, torch):
        opt = _opt(lib, tensor_lr=True)
        objects = [g["lr"] for g in opt.param_groups]
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1, factor=0.5)
        lrs = []
        for metric in (1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5):
            opt.step()
            sched.step(metric)
            lrs.append(_lrs(sched.get_last_lr()))
        assert all(g["lr"] is lr for g, lr in zip(opt.param_groups, objects))
        assert all(lr is not g["lr"] for lr, g in zip(sched.get_last_lr(), opt.param_groups))
        out.append(lrs)
    np.testing.assert_allclose(out[0], out[1], rtol=1e-6)

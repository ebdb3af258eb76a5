"""``optim.LBFGS`` against PyTorch: the same closure, weights and settings give the same losses,
parameters and state after every ``step`` (in float64, to 1e-6: the two libraries sum in
different orders, and Rosenbrock's valley magnifies the last digits), the same repr,
state_dict and errors. Also float() of a tensor that requires grad, which warns as PyTorch's
does (LBFGS calls float() on the loss)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X0 = np.array([-1.5, 2.0, 0.5, -0.7])
W0 = np.array([[0.3, -0.2], [0.1, 0.4]])


def _run(lib, kwargs, steps=3, extra_param=False):
    """Rosenbrock's function of ``x`` (plus a quadratic in ``w``), ``steps`` LBFGS steps."""
    x = lib.tensor(X0, dtype=lib.float64, requires_grad=True)
    w = lib.tensor(W0, dtype=lib.float64, requires_grad=True)
    unused = lib.zeros(3, dtype=lib.float64, requires_grad=True)  # its grad stays None
    params = [x, w, unused] if extra_param else [x]
    opt = lib.optim.LBFGS(params, **kwargs)

    def closure():
        opt.zero_grad()
        loss = (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
        if extra_param:
            loss = loss + ((w - 1) ** 2).sum() * 3 + (w[0] * w[1]).sum()
        loss.backward()
        return loss

    losses = [opt.step(closure).item() for _ in range(steps)]
    state = opt.state[x]
    return (losses, [p.detach().numpy() for p in params], state["func_evals"], state["n_iter"],
            opt)


CASES = [
    {},
    {"line_search_fn": "strong_wolfe"},
    {"history_size": 2},
    {"history_size": 2, "line_search_fn": "strong_wolfe", "max_iter": 7},
    {"lr": 0.5, "max_iter": 5},
    {"lr": 0.1, "max_iter": 3, "max_eval": 2},
    {"tolerance_change": 1e-2},
    {"tolerance_grad": 1e2},  # already "converged": step returns at once
    {"line_search_fn": "strong_wolfe", "max_iter": 40, "max_eval": 30},
]


@pytest.mark.parametrize("extra_param", [False, True], ids=["one-param", "three-params"])
@pytest.mark.parametrize("kwargs", CASES, ids=[str(i) for i in range(len(CASES))])
def test_trajectory_matches_torch(kwargs, extra_param):
    ref = _run(torch, kwargs, extra_param=extra_param)
    mine = _run(mt, kwargs, extra_param=extra_param)
    np.testing.assert_allclose(mine[0], ref[0], rtol=1e-7)
    for a, b in zip(mine[1], ref[1]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)
    assert mine[2:4] == ref[2:4]  # func_evals, n_iter


def test_state_keys_and_types_match_torch():
    for ls in (None, "strong_wolfe"):
        ref = _run(torch, {"line_search_fn": ls, "max_iter": 4})[4]
        mine = _run(mt, {"line_search_fn": ls, "max_iter": 4})[4]
        (sr,), (sm,) = ref.state.values(), mine.state.values()
        assert sorted(sm) == sorted(sr)
        assert type(sm["t"]) is type(sr["t"]) and type(sm["H_diag"]).__name__ == "Tensor"
        assert len(sm["old_dirs"]) == len(sr["old_dirs"])
        assert mine.state_dict()["param_groups"] == ref.state_dict()["param_groups"]


def test_repr_and_defaults_match_torch():
    for kwargs in ({}, {"lr": 0.5, "max_iter": 8, "history_size": 3,
                        "line_search_fn": "strong_wolfe"}):
        ref = torch.optim.LBFGS([torch.zeros(2, requires_grad=True)], **kwargs)
        mine = mt.optim.LBFGS([mt.zeros(2, requires_grad=True)], **kwargs)
        assert repr(mine) == repr(ref)
        assert mine.defaults == ref.defaults


def test_step_returns_the_first_loss_itself():
    for lib in (torch, mt):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        opt = lib.optim.LBFGS([x], max_iter=3)
        first = []

        def closure(x=x, opt=opt, first=first):
            opt.zero_grad()
            loss = (x ** 2).sum()
            loss.backward()
            first.append(loss)
            return loss

        assert opt.step(closure) is first[0]
        assert first[0].grad_fn is not None  # the closure ran with grad on


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.LBFGS([{"params": [p]}, {"params": [p * 1]}]),
    lambda lib, p: lib.optim.LBFGS([p], lr=-1.0),
    lambda lib, p: lib.optim.LBFGS([p], lr=lib.tensor([1.0, 2.0])),
], ids=["groups", "negative-lr", "tensor-lr"])
def test_errors_match_torch(make):
    with pytest.raises(Exception) as ref:
        make(torch, torch.zeros(2, requires_grad=True))
    with pytest.raises(Exception) as mine:
        make(mt, mt.zeros(2, requires_grad=True))
    assert type(mine.value) is type(ref.value) and str(mine.value) == str(ref.value)


def test_unknown_line_search_raises_torchs_error():
    for lib in (torch, mt):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        opt = lib.optim.LBFGS([x], line_search_fn="armijo")

        def closure(x=x, opt=opt):
            opt.zero_grad()
            loss = (x ** 2).sum()
            loss.backward()
            return loss

        with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
            opt.step(closure)


_FLOAT_SCRIPT = """
import warnings, {lib} as torch
a = torch.tensor(1.0, requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    int(a); a.item(); float(a.detach())
    with torch.no_grad():
        float(a)
    print(len(w))
    float(a * 2); float(a); complex(a)
print(len(w), str(w[0].message).split(" (Triggered")[0] if w else "")
"""


def test_float_of_a_tensor_that_requires_grad_warns_once_as_torch():
    outs = [subprocess.run([sys.executable, "-c", _FLOAT_SCRIPT.format(lib=lib)],
                           capture_output=True, text=True, check=True).stdout
            for lib in ("torch", "minitorch")]
    assert outs[1] == outs[0]
    assert outs[0].startswith("0\n1 Converting a tensor with requires_grad=True")


def test_float_warning_names_the_callers_line(monkeypatch):
    monkeypatch.setattr(mt._warnings, "_given", set())
    a = mt.tensor(1.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        float(a)
    assert len(w) == 1 and w[0].filename == __file__

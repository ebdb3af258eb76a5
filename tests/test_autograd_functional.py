"""autograd.functional (vjp, jvp, jacobian, hessian, hvp, vhp) against PyTorch, float64."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch as mt
from minitorch.autograd import functional as AF

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
TF = torch.autograd.functional
TOL = {"rtol": 1e-10, "atol": 1e-12}


def _arr(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape)


def _both(a):
    return mt.tensor(a), torch.tensor(a)


def _compare(mine, ref):
    if isinstance(ref, tuple):
        assert isinstance(mine, tuple) and len(mine) == len(ref)
        for a, b in zip(mine, ref):
            _compare(a, b)
        return
    assert tuple(mine.shape) == tuple(ref.shape)
    np.testing.assert_allclose(mine.detach().numpy(), ref.detach().numpy(), **TOL)


# functions written once, run with either library
FUNCS = {
    "square": (lambda lib: lambda x: x ** 2 * x.sin(), [(3,)]),
    "matrix": (lambda lib: lambda x: (x @ x.T).tanh(), [(2, 3)]),
    "two-in": (lambda lib: lambda a, b: a * b.exp() + a.sum(), [(3,), (3,)]),
    "two-out": (lambda lib: lambda a, b: (a * b, (a - b).sigmoid()), [(2,), (2,)]),
    "scalar": (lambda lib: lambda x: (x ** 3).sum().reshape(()), [(4,)]),
}


def _inputs(shapes, seed=0):
    arrs = [_arr(s, seed + i) for i, s in enumerate(shapes)]
    m = tuple(mt.tensor(a) for a in arrs)
    t = tuple(torch.tensor(a) for a in arrs)
    return (m[0], t[0]) if len(arrs) == 1 else (m, t)


@pytest.mark.parametrize("name", list(FUNCS))
def test_jacobian(name):
    make, shapes = FUNCS[name]
    im, it = _inputs(shapes)
    _compare(AF.jacobian(make(mt), im), TF.jacobian(make(torch), it))
    _compare(AF.jacobian(make(mt), im, vectorize=True), TF.jacobian(make(torch), it))


@pytest.mark.parametrize("name", list(FUNCS))
def test_vjp_and_jvp(name):
    make, shapes = FUNCS[name]
    im, it = _inputs(shapes)
    out_t = make(torch)(*(it if isinstance(it, tuple) else (it,)))
    outs = out_t if isinstance(out_t, tuple) else (out_t,)
    v_arr = [_arr(tuple(o.shape), 9 + i) for i, o in enumerate(outs)]
    vm = tuple(mt.tensor(a) for a in v_arr)
    vt = tuple(torch.tensor(a) for a in v_arr)
    if not isinstance(out_t, tuple):
        vm, vt = vm[0], vt[0]
    _compare(AF.vjp(make(mt), im, vm), TF.vjp(make(torch), it, vt))
    ins = it if isinstance(it, tuple) else (it,)
    u_arr = [_arr(tuple(i.shape), 20 + k) for k, i in enumerate(ins)]
    um = tuple(mt.tensor(a) for a in u_arr)
    ut = tuple(torch.tensor(a) for a in u_arr)
    if not isinstance(it, tuple):
        um, ut = um[0], ut[0]
    _compare(AF.jvp(make(mt), im, um), TF.jvp(make(torch), it, ut))


@pytest.mark.parametrize("name", ["scalar", "rosenbrock", "two-in"])
def test_hessian_hvp_vhp(name):
    if name == "rosenbrock":
        def make(lib):
            return lambda x: ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()
        shapes = [(4,)]
    elif name == "two-in":
        def make(lib):
            return lambda a, b: (a * b.exp() * a).sum()
        shapes = [(3,), (3,)]
    else:
        make, shapes = FUNCS[name]
    im, it = _inputs(shapes)
    _compare(AF.hessian(make(mt), im), TF.hessian(make(torch), it))
    ins = it if isinstance(it, tuple) else (it,)
    v_arr = [_arr(tuple(i.shape), 30 + k) for k, i in enumerate(ins)]
    vm = tuple(mt.tensor(a) for a in v_arr)
    vt = tuple(torch.tensor(a) for a in v_arr)
    if not isinstance(it, tuple):
        vm, vt = vm[0], vt[0]
    _compare(AF.hvp(make(mt), im, vm), TF.hvp(make(torch), it, vt))
    _compare(AF.vhp(make(mt), im, vm), TF.vhp(make(torch), it, vt))


def test_create_graph_lets_results_be_differentiated():
    for lib, fn in ((mt, AF), (torch, TF)):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64, requires_grad=True)
        _, g = fn.vjp(lambda t: (t ** 3).sum(), x, create_graph=True)
        g.sum().backward()
        assert g.requires_grad
        if lib is mt:
            mine = x.grad
        else:
            _compare(mine, x.grad)
    for lib, fn in ((mt, AF), (torch, TF)):
        x = lib.tensor([1.0, 2.0], dtype=lib.float64)
        _, g = fn.vjp(lambda t: (t ** 3).sum(), x)
        assert not g.requires_grad


def test_independent_inputs_give_zeros_or_strict_errors():
    for lib, fn in ((mt, AF), (torch, TF)):
        a, b = lib.ones(2, dtype=lib.float64), lib.ones(2, dtype=lib.float64)
        jac = fn.jacobian(lambda x, y: x * 2, (a, b))
        assert jac[1].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    for call in [lambda lib, fn: fn.vjp(lambda x, y: (x * 2).sum(), (lib.ones(2), lib.ones(2)),
                                        strict=True),
                 lambda lib, fn: fn.vjp(lambda x: lib.ones(1), lib.ones(1), strict=True),
                 lambda lib, fn: fn.vjp(lambda x: x * 2, lib.ones(2)),
                 lambda lib, fn: fn.vjp(lambda x: x * 2, lib.ones(2), lib.ones(3)),
                 lambda lib, fn: fn.jvp(lambda x: x * 2, (lib.ones(2),), (lib.ones(2),) * 2),
                 lambda lib, fn: fn.jacobian(lambda x: x, [1.0])]:
        with pytest.raises(Exception) as ref:
            call(torch, TF)
        with pytest.raises(type(ref.value)) as mine:
            call(mt, AF)
        assert str(mine.value) == str(ref.value)


def test_gradients_of_a_linear_layer_are_its_weight():
    lin = mt.nn.Linear(3, 2)
    x = mt.randn(3)
    np.testing.assert_allclose(AF.jacobian(lin, x).numpy(), lin.weight.detach().numpy())

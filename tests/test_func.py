"""``minitorch.func`` (torch.func's function transforms) side by side with PyTorch 2.13.

Each case is written once as ``case(fx, tt, *inputs)`` and run twice: with ``fx = torch.func,
tt = torch`` and with ``fx = minitorch.func, tt = minitorch``, on the same NumPy inputs. The results
must have the same structure (tuples, lists, dicts), shapes, dtypes, values (float64: 1e-10)
and ``requires_grad`` (a transform's result carries a graph only where PyTorch's does). Errors
must be PyTorch's type and message. The last part runs the core code of three PyTorch tutorials:
"Per-sample-gradients", "Jacobians, Hessians, hvp, vhp, and more" and "Model ensembling".
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as mF
from minitorch import func as mfunc

torch = pytest.importorskip("torch")
import torch.func as tfunc  # noqa: E402
import torch.nn.functional as tF  # noqa: E402
from torch.utils._pytree import tree_flatten as t_flatten  # noqa: E402

RNG = np.random.default_rng(0)
A = RNG.standard_normal(4)
B = RNG.standard_normal(4) + 1.5
M = RNG.standard_normal((3, 4))


def run_both(case, *arrays):
    """``case`` run with torch and with minitorch on the same arrays: ``(mine, ref)``."""
    ref = case(tfunc, torch, *[torch.tensor(a) for a in arrays])
    mine = case(mfunc, minitorch, *[minitorch.tensor(a) for a in arrays])
    return mine, ref


def assert_same(mine, ref, rtol=1e-10, atol=1e-12):
    ref_leaves, ref_spec = t_flatten(ref)
    my_leaves, my_spec = mfunc.tree_flatten(mine)
    assert repr(my_spec) == repr(ref_spec), f"structure {my_spec} != {ref_spec}"
    for m, r in zip(my_leaves, ref_leaves):
        if not isinstance(r, torch.Tensor):
            assert m == r
            continue
        assert tuple(m.shape) == tuple(r.shape), f"shape {tuple(m.shape)} != {tuple(r.shape)}"
        assert str(m.dtype) == str(r.dtype)
        assert m.requires_grad == r.requires_grad, f"requires_grad {m.requires_grad} (torch: " \
                                                   f"{r.requires_grad})"
        np.testing.assert_allclose(m.detach().numpy(), r.detach().numpy(), rtol=rtol, atol=atol)


def _f(tt, x):
    return (x.sin() * x.exp()).sum()


# --------------------------------------------------------------------- step 1: autodiff
CASES = {
    "grad": lambda fx, tt, x: fx.grad(lambda x: (x.sin() ** 2).sum())(x),
    "grad-0d": lambda fx, tt, x: fx.grad(lambda x: x.sin())(x[0]),
    "grad-grad": lambda fx, tt, x: fx.grad(fx.grad(lambda x: x.sin() * x))(x[1]),
    "grad-grad-grad": lambda fx, tt, x: fx.grad(fx.grad(fx.grad(lambda x: x.sin() * x)))(x[1]),
    # the inner grad's derivative is taken by the outer one: d/dx (x * cos x) summed
    "grad-of-x-times-grad": lambda fx, tt, x: fx.grad(
        lambda x: (x * fx.grad(lambda z: z.sin().sum())(x)).sum())(x),
    # the inner grad differentiates y only; x is a constant there, a variable outside
    "grad-closure": lambda fx, tt, x: fx.grad(
        lambda x: fx.grad(lambda y: (x * y ** 2).sum())(x * 0 + 1).sum())(x),
    "grad-argnums-1": lambda fx, tt, x, y: fx.grad(lambda x, y: (x * y.log()).sum(),
                                                   argnums=1)(x, y),
    "grad-argnums-neg": lambda fx, tt, x, y: fx.grad(lambda x, y: (x * y.log()).sum(),
                                                  argnums=-1)(x, y),
    "grad-argnums-tuple": lambda fx, tt, x, y: fx.grad(lambda x, y: (x * y.log()).sum(),
                                                    argnums=(1, 0))(x, y),
    "grad-pytree": lambda fx, tt, x, y: fx.grad(
        lambda d: (d["a"] * d["b"][0].exp() + d["b"][1]).sum())({"a": x, "b": [y, x * 2]}),
    "grad-unused-input": lambda fx, tt, x, y: fx.grad(lambda x, y: x.sum() * 2,
                                                   argnums=(0, 1))(x, y),
    "grad-constant": lambda fx, tt, x: fx.grad(lambda x: tt.ones((), dtype=tt.float64))(x),
    "grad-kwargs": lambda fx, tt, x, y: fx.grad(lambda x, *, w: (x * w).sum())(x, w=y),
    "grad-has-aux": lambda fx, tt, x: fx.grad(lambda x: ((x ** 2).sum(), {"c": x.cos()}),
                                           has_aux=True)(x),
    "grad-and-value": lambda fx, tt, x: fx.grad_and_value(lambda x: (x ** 3).sum())(x),
    "grad-and-value-aux": lambda fx, tt, x: fx.grad_and_value(
        lambda x: ((x ** 3).sum(), (x, [x * 2])), has_aux=True)(x),
    "grad-no-grad-inside": lambda fx, tt, x: fx.grad(lambda x: _detached_square(tt, x))(x),
    "grad-float32": lambda fx, tt, x: fx.grad(lambda x: (x.tanh() ** 2).sum())(x.float()),
    "grad-in-loop": lambda fx, tt, x: _grad_loop(fx, x),
    "vjp": lambda fx, tt, x: fx.vjp(lambda x: (x.sin(), x * 2), x)[1]((x, x + 1)),
    "vjp-output": lambda fx, tt, x: fx.vjp(lambda x: x.sin(), x)[0],
    "vjp-two-primals": lambda fx, tt, x, y: fx.vjp(lambda x, y: x * y.exp(), x, y)[1](x.cos()),
    "vjp-called-twice": lambda fx, tt, x: _vjp_twice(fx, x),
    "vjp-aux": lambda fx, tt, x: fx.vjp(lambda x: (x.exp(), x.sum()), x, has_aux=True)[2],
    "vjp-unused": lambda fx, tt, x, y: fx.vjp(lambda x, y: x * 2, x, y)[1](x),
    "vjp-of-grad": lambda fx, tt, x: fx.vjp(fx.grad(lambda x: (x.sin() * x).sum()), x)[1](x.cos()),
    "jvp": lambda fx, tt, x: fx.jvp(lambda x: x.sin() * x.sum(), (x,), (x.cos(),)),
    "jvp-two-primals": lambda fx, tt, x, y: fx.jvp(lambda x, y: (x * y, (x / y).sum()), (x, y),
                                                (y, x)),
    "jvp-pytree": lambda fx, tt, x, y: fx.jvp(lambda d: {"o": d["p"] * d["q"][0]},
                                           ({"p": x, "q": [y]},), ({"p": y, "q": [x]},)),
    "jvp-aux": lambda fx, tt, x: fx.jvp(lambda x: (x.exp(), x * 3), (x,), (x,), has_aux=True),
    "jvp-independent-output": lambda fx, tt, x: fx.jvp(lambda x: (x * 2, tt.ones(2)), (x,), (x,)),
    "hvp": lambda fx, tt, x, y: fx.jvp(fx.grad(lambda x: (x.sin() * x).sum()), (x,), (y,))[1],
    "vhp": lambda fx, tt, x, y: fx.vjp(fx.grad(lambda x: (x.sin() * x.exp()).sum()), x)[1](y),
    "jacrev": lambda fx, tt, x: fx.jacrev(lambda x: x.sin().outer(x))(x),
    "jacrev-0d": lambda fx, tt, x: fx.jacrev(lambda x: x.sin())(x[0]),
    "jacrev-argnums": lambda fx, tt, x, y: fx.jacrev(lambda x, y: x * y.exp(),
                                                     argnums=(0, 1))(x, y),
    "jacrev-outputs": lambda fx, tt, x, y: fx.jacrev(lambda x, y: {"p": x * y, "s": (x * y).sum()},
                                                  argnums=1)(x, y),
    "jacrev-aux": lambda fx, tt, x: fx.jacrev(lambda x: (x.exp(), x.sum()), has_aux=True)(x),
    "jacrev-chunk": lambda fx, tt, x: fx.jacrev(lambda x: x.exp() * x[0], chunk_size=2)(x),
    "jacrev-pytree-input": lambda fx, tt, x, y: fx.jacrev(lambda d: d["a"] * d["b"])(
        {"a": x, "b": y}),
    "jacfwd": lambda fx, tt, x: fx.jacfwd(lambda x: x.sin().outer(x))(x),
    "jacfwd-argnums": lambda fx, tt, x, y: fx.jacfwd(lambda x, y: (x * y.exp(), x.sum()),
                                                  argnums=(0, 1))(x, y),
    "jacfwd-aux": lambda fx, tt, x: fx.jacfwd(lambda x: (x.exp(), x.sum()), has_aux=True)(x),
    "hessian": lambda fx, tt, x: fx.hessian(lambda x: (x.sin() * x.exp()).sum())(x),
    "hessian-argnums": lambda fx, tt, x, y: fx.hessian(lambda x, y: (x * y.log()).sum() * x.sum(),
                                                    argnums=(0, 1))(x, y),
    "jacrev-jacrev": lambda fx, tt, x: fx.jacrev(fx.jacrev(lambda x: x.sin() * x.prod()))(x),
    "jacfwd-jacfwd": lambda fx, tt, x: fx.jacfwd(fx.jacfwd(lambda x: x.sin() * x.prod()))(x),
    "jacfwd-jacrev-of-grad": lambda fx, tt, x: fx.jacfwd(fx.jacrev(fx.grad(
        lambda x: (x ** 4).sum())))(x),
    "vmap-grad": lambda fx, tt, x, m: fx.vmap(fx.grad(lambda w, x: (w * x).sum().tanh()),
                                           in_dims=(None, 0))(x, m),
    "grad-of-vmap": lambda fx, tt, x, m: fx.grad(lambda w: fx.vmap(lambda r: (r * w).sum().sin())(m)
                                              .sum())(x),
    "vmap-jacrev": lambda fx, tt, x, m: fx.vmap(fx.jacrev(lambda w, x: (w * x).tanh()),
                                             in_dims=(None, 0))(x, m),
}


def _detached_square(tt, x):
    with tt.no_grad():
        c = x ** 2
    return (x - c).sum()


def _grad_loop(fx, x):
    w = x
    for _ in range(3):
        w = w - 0.1 * fx.grad(lambda w: (w ** 2 * w.sin()).sum())(w)
    return w


def _vjp_twice(fx, x):
    _, fn = fx.vjp(lambda x: x.sin() * x, x)
    return fn(x), fn(x * 2)


def _inputs(name):
    code = CASES[name].__code__
    n = code.co_argcount - 2
    if "m" in code.co_varnames[:code.co_argcount]:
        return A, M
    return (A, B)[:n]


@pytest.mark.parametrize("name", sorted(CASES))
def test_transform_matches_torch(name):
    mine, ref = run_both(CASES[name], *_inputs(name))
    tol = {"rtol": 1e-5, "atol": 1e-6} if name.endswith("float32") else {}
    assert_same(mine, ref, **tol)


@pytest.mark.parametrize("name", ["grad", "grad-grad", "grad-pytree", "vjp", "jvp", "jacrev",
                                  "jacfwd", "hessian", "vmap-grad"])
def test_result_keeps_graph_when_the_input_requires_grad(name):
    """Outside any transform, an input that requires grad makes the result differentiable by
    ordinary backward (as PyTorch's transforms compose with autograd); under no_grad it
    does not. The gradients of the summed results are compared."""
    arrays = _inputs(name)

    def results(fx, tt):
        leaves = [tt.tensor(a, requires_grad=True) for a in arrays]
        out = CASES[name](fx, tt, *leaves)
        flat = [t for t in (t_flatten(out)[0] if tt is torch else mfunc.tree_flatten(out)[0])
                if t.requires_grad]
        assert flat, "no result requires grad"
        sum(t.sum() for t in flat).backward()
        with tt.no_grad():
            again = CASES[name](fx, tt, *leaves)
        flat_again = t_flatten(again)[0] if tt is torch else mfunc.tree_flatten(again)[0]
        assert not any(t.requires_grad for t in flat_again)
        return [t.grad for t in leaves]

    assert_same(results(mfunc, minitorch), results(tfunc, torch))


def test_grad_of_grad_passes_gradcheck():
    """Finite differences check the graph that grad keeps for an outer derivative."""
    x = minitorch.tensor(A, requires_grad=True)
    g = mfunc.grad(lambda x: (x.sin() * x.exp()).sum())
    assert minitorch.autograd.gradcheck(g, (x,))
    assert minitorch.autograd.gradgradcheck(g, (x,))
    assert minitorch.autograd.gradcheck(lambda x: mfunc.jacrev(lambda x: x.sin() * x.sum())(x),
                                        (x,))


ERRORS = {
    "grad-not-scalar": lambda fx, tt, x: fx.grad(lambda x: x * 2)(x),
    "grad-not-tensor": lambda fx, tt, x: fx.grad(lambda x: 3.0)(x),
    "grad-aux-not-tuple": lambda fx, tt, x: fx.grad(lambda x: x.sum(), has_aux=True)(x),
    "grad-aux-not-tensors": lambda fx, tt, x: fx.grad(lambda x: (x.sum(), 3), has_aux=True)(x),
    "grad-input-not-tensor": lambda fx, tt, x: fx.grad(lambda x: x.sum())(3.0),
    "grad-argnum-range": lambda fx, tt, x: fx.grad(lambda x: x.sum(), argnums=3)(x),
    "grad-argnum-type": lambda fx, tt, x: fx.grad(lambda x: x.sum(), argnums=[0])(x),
    "grad-argnums-empty": lambda fx, tt, x: fx.grad(lambda x: x.sum(), argnums=())(x),
    "grad-argnums-repeated": lambda fx, tt, x: fx.grad(lambda x: x.sum(), argnums=(0, 0))(x),
    "grad-argnums-float": lambda fx, tt, x: fx.grad(lambda x: x.sum(), argnums=(0.5,))(x),
    "grad-int-input": lambda fx, tt, x: fx.grad(lambda x: x.sum())(x.long()),
    "vjp-aux-not-tuple": lambda fx, tt, x: fx.vjp(lambda x: x, x, has_aux=True),
    "vjp-int-output": lambda fx, tt, x: fx.vjp(lambda x: x.long(), x),
    "vjp-non-tensor-output": lambda fx, tt, x: fx.vjp(lambda x: (x, 3), x),
    "vjp-cotangent-structure": lambda fx, tt, x: fx.vjp(lambda x: (x, x), x)[1](x),
    "jvp-primals-not-tuple": lambda fx, tt, x: fx.jvp(lambda x: x, x, x),
    "jvp-structure": lambda fx, tt, x: fx.jvp(lambda x: x, (x,), (x, x)),
    "jvp-empty": lambda fx, tt, x: fx.jvp(lambda: tt.ones(1), (), ()),
    "jvp-tangent-type": lambda fx, tt, x: fx.jvp(lambda x: x, (x,), (3.0,)),
    "jvp-strict": lambda fx, tt, x: fx.jvp(lambda x: tt.ones(2), (x,), (x,), strict=True),
    "jvp-aux-not-tuple": lambda fx, tt, x: fx.jvp(lambda x: x, (x,), (x,), has_aux=True),
    "jacrev-chunk-size": lambda fx, tt, x: fx.jacrev(lambda x: x, chunk_size=0),
    "jacfwd-randomness": lambda fx, tt, x: fx.jacfwd(lambda x: x, randomness="foo")(x),
    "jacfwd-random-draw": lambda fx, tt, x: fx.jacfwd(
        lambda x: x + tt.rand(4, dtype=tt.float64))(x),
}


def _error(case, arrays):
    for fx, tt in ((tfunc, torch), (mfunc, minitorch)):
        with pytest.raises(Exception) as info:
            case(fx, tt, *[tt.tensor(a) for a in arrays])
        yield type(info.value).__name__, str(info.value)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_torch(name):
    ref, mine = _error(ERRORS[name], (A,))
    assert mine == ref


# ------------------------------------------------------------------------- step 2: vmap
VMAP = {
    "basic": lambda fx, tt, m, v: fx.vmap(tt.dot)(m, m),
    "in-dims-none": lambda fx, tt, m, v: fx.vmap(lambda r, w: r * w, in_dims=(0, None))(m, v),
    "in-dims-1": lambda fx, tt, m, v: fx.vmap(lambda c: c.exp(), in_dims=1)(m),
    "in-dims-neg": lambda fx, tt, m, v: fx.vmap(lambda c: c.sum(), in_dims=-1)(m),
    "out-dims-1": lambda fx, tt, m, v: fx.vmap(lambda r: r.outer(r), out_dims=1)(m),
    "out-dims-neg": lambda fx, tt, m, v: fx.vmap(lambda r: r * 2, out_dims=-1)(m),
    "out-dims-tuple": lambda fx, tt, m, v: fx.vmap(lambda r: (r, r.sum()), out_dims=(1, 0))(m),
    "out-dims-none": lambda fx, tt, m, v: fx.vmap(lambda r: (r * 2, 3), out_dims=(0, None))(m),
    "out-dims-none-tensor": lambda fx, tt, m, v: fx.vmap(lambda r, w: (r * w, w),
                                                      in_dims=(0, None), out_dims=(0, None))(m, v),
    "pytree-in": lambda fx, tt, m, v: fx.vmap(lambda d: d["a"] * d["b"][0],
                                           in_dims=({"a": 0, "b": [1]},))({"a": m, "b": [m.t()]}),
    "pytree-out": lambda fx, tt, m, v: fx.vmap(lambda r: {"s": r.sum(), "l": [r, r * 2]})(m),
    "kwargs-not-mapped": lambda fx, tt, m, v: fx.vmap(lambda r, *, w: r * w)(m, w=v),
    "non-tensor-arg": lambda fx, tt, m, v: fx.vmap(lambda r, k: r * k, in_dims=(0, None))(m, 3),
    "nested": lambda fx, tt, m, v: fx.vmap(fx.vmap(lambda a, b: a * b), in_dims=(0, 1),
                                        out_dims=1)(m, m.t().contiguous().t().t()),
    "nested-outer-product": lambda fx, tt, m, v: fx.vmap(fx.vmap(tt.mul, in_dims=(None, 0)),
                                                      in_dims=(0, None))(v, v),
    "empty-batch": lambda fx, tt, m, v: fx.vmap(lambda r: r.sum())(m[:0]),
    "int-dtype": lambda fx, tt, m, v: fx.vmap(lambda r: r * 2)(m.long()),
    "chunk-size": lambda fx, tt, m, v: fx.vmap(lambda r: r.exp(), chunk_size=2)(m),
    "vmap-of-vjp-fn": lambda fx, tt, m, v: fx.vmap(fx.vjp(lambda x: x.tanh().outer(x), v)[1])(
        tt.stack([v.outer(v), v.outer(v) * 2])),
    "randomness-different-no-draw": lambda fx, tt, m, v: fx.vmap(lambda r: r + 1,
                                                              randomness="different")(m),
}


@pytest.mark.parametrize("name", sorted(VMAP))
def test_vmap_matches_torch(name):
    mine, ref = run_both(VMAP[name], M, A)
    assert_same(mine, ref)


def test_vmap_is_differentiable():
    def grads(tt, fx):
        m = tt.tensor(M, requires_grad=True)
        fx.vmap(lambda r: (r.sin() * r.sum()))(m).pow(2).sum().backward()
        return m.grad

    assert_same(grads(minitorch, mfunc), grads(torch, tfunc))


VMAP_ERRORS = {
    "batch-sizes": lambda fx, tt, m: fx.vmap(tt.add)(m, m.t()),
    "in-dims-structure": lambda fx, tt, m: fx.vmap(tt.add, in_dims=(0,))(m, m),
    "in-dims-range": lambda fx, tt, m: fx.vmap(lambda x: x, in_dims=2)(m),
    "in-dims-list": lambda fx, tt, m: fx.vmap(lambda x: x, in_dims=[0])(m),
    "in-dims-none": lambda fx, tt, m: fx.vmap(lambda x: x, in_dims=None)(m),
    "in-dim-float": lambda fx, tt, m: fx.vmap(lambda x: x, in_dims=(0.5,))(m),
    "in-dim-non-tensor": lambda fx, tt, m: fx.vmap(lambda x, k: x, in_dims=(0, 0))(m, 2.0),
    "no-mapped-tensor": lambda fx, tt, m: fx.vmap(lambda x: x, in_dims=(None,))(m),
    "no-inputs": lambda fx, tt, m: fx.vmap(lambda: tt.ones(1))(),
    "non-tensor-output": lambda fx, tt, m: fx.vmap(lambda x: 3)(m),
    "out-dims-structure": lambda fx, tt, m: fx.vmap(lambda x: x, out_dims=(0, 1))(m),
    "out-dims-type": lambda fx, tt, m: fx.vmap(lambda x: x, out_dims="a")(m),
    "out-dims-none-batched": lambda fx, tt, m: fx.vmap(lambda x: x * 2, out_dims=None)(m),
    "out-dim-range": lambda fx, tt, m: fx.vmap(lambda x: x, out_dims=3)(m),
    "randomness-arg": lambda fx, tt, m: fx.vmap(lambda x: x, randomness="foo"),
    "chunk-size": lambda fx, tt, m: fx.vmap(lambda x: x, chunk_size=0),
    "random-rand": lambda fx, tt, m: fx.vmap(lambda x: x + tt.rand(4, dtype=tt.float64))(m),
    "random-randn-like": lambda fx, tt, m: fx.vmap(lambda x: tt.randn_like(x))(m),
    "random-dropout": lambda fx, tt, m: fx.vmap(lambda x: tt.nn.functional.dropout(x, 0.5))(m),
    "random-bernoulli": lambda fx, tt, m: fx.vmap(lambda x: (x * 0 + 0.5).bernoulli())(m),
    "random-nested": lambda fx, tt, m: fx.vmap(fx.vmap(lambda x: x + tt.rand(()),
                                                   randomness="different"))(m),
}


@pytest.mark.parametrize("name", sorted(VMAP_ERRORS))
def test_vmap_errors_match_torch(name):
    ref, mine = _error(VMAP_ERRORS[name], (M,))
    assert mine == ref


def test_vmap_randomness_same_and_different():
    """'same': every slice draws the same numbers; 'different': each its own; the generator
    works again after a refused draw."""
    x = minitorch.zeros(3, 5)
    same = minitorch.vmap(lambda r: r + minitorch.rand(5), randomness="same")(x)
    assert all(minitorch.equal(same[0], same[i]) for i in (1, 2))
    diff = minitorch.vmap(lambda r: r + minitorch.rand(5), randomness="different")(x)
    assert not minitorch.equal(diff[0], diff[1])
    with pytest.raises(RuntimeError):
        minitorch.vmap(lambda r: r + minitorch.rand(5))(x)
    assert minitorch.rand(2).shape == (2,)
    assert minitorch.vmap is mfunc.vmap and torch.vmap is tfunc.vmap


# -------------------------------------------------- step 3: functional_call, ensembles
def _mlp(nn, seed=0):
    torch.manual_seed(seed)
    ref = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    ref = ref.double()
    mine = minitorch.nn.Sequential(minitorch.nn.Linear(4, 8), minitorch.nn.Tanh(),
                                   minitorch.nn.Linear(8, 3)).double()
    with minitorch.no_grad():
        for p, q in zip(mine.parameters(), ref.parameters()):
            p.copy_(minitorch.tensor(q.detach().numpy()))
    return mine if nn is minitorch.nn else ref


def _fcall_case(fx, tt, x):
    model = _mlp(tt.nn)
    params = {k: v.detach() * 2 for k, v in model.named_parameters()}
    out = fx.functional_call(model, params, (x,))
    out2 = fx.functional_call(model, ({"0.weight": params["0.weight"]}, {}), x)
    again = model(x)  # the module keeps its own parameters
    return out, out2, again


def _fcall_grad_case(fx, tt, x):
    model = _mlp(tt.nn)
    params = {k: v.detach() for k, v in model.named_parameters()}
    return fx.grad(lambda p, x: fx.functional_call(model, p, (x,)).pow(2).sum())(params, x)


def _fcall_buffers_case(fx, tt, x):
    bn = tt.nn.BatchNorm1d(4).double()
    bufs = {k: v * 0 + 0.5 for k, v in bn.named_buffers()}
    out = fx.functional_call(bn, ({}, bufs), (x,))
    return out, dict(bn.named_buffers())["running_mean"]


def _tied_case(fx, tt, x):
    tt.manual_seed(0)  # minitorch draws PyTorch's numbers
    model = tt.nn.Sequential(tt.nn.Linear(4, 4), tt.nn.Linear(4, 4)).double()
    model[1].weight = model[0].weight
    w = tt.ones(4, 4, dtype=tt.float64)
    return (fx.functional_call(model, {"0.weight": w}, (x,)),
            fx.functional_call(model, {"0.weight": w}, (x,), tie_weights=False))


def _stack_case(fx, tt, x):
    models = [_mlp(tt.nn, seed) for seed in range(3)]
    params, buffers = fx.stack_module_state(models)
    base = copy.deepcopy(models[0])

    def fmodel(params, buffers, x):
        return fx.functional_call(base, (params, buffers), (x,))

    return params, fx.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)


FCALL = {"functional-call": _fcall_case, "grad-functional-call": _fcall_grad_case,
         "buffers": _fcall_buffers_case, "tied": _tied_case, "stack": _stack_case}


@pytest.mark.parametrize("name", sorted(FCALL))
def test_functional_call_matches_torch(name):
    mine, ref = run_both(FCALL[name], M)
    assert_same(mine, ref)


def _strict(fx, tt, x):
    return fx.functional_call(_mlp(tt.nn), {"0.weight": x, "extra": x}, (x,), strict=True)


def _tied_conflict(fx, tt, x):
    model = tt.nn.Sequential(tt.nn.Linear(4, 4), tt.nn.Linear(4, 4))
    model[1].weight = model[0].weight
    return fx.functional_call(model, {"0.weight": x, "1.weight": x * 2}, (x,))


FCALL_ERRORS = {
    "strict": _strict,
    "tied-conflict": _tied_conflict,
    "repeated-keys": lambda fx, tt, x: fx.functional_call(
        _mlp(tt.nn), ({"0.bias": x}, {"0.bias": x}), (x,)),
    "not-dicts": lambda fx, tt, x: fx.functional_call(_mlp(tt.nn), 3, (x,)),
    "not-all-dicts": lambda fx, tt, x: fx.functional_call(_mlp(tt.nn), ({}, 3), (x,)),
    "stack-none": lambda fx, tt, x: fx.stack_module_state([]),
    "stack-modes": lambda fx, tt, x: fx.stack_module_state([_mlp(tt.nn), _mlp(tt.nn).eval()]),
    "stack-classes": lambda fx, tt, x: fx.stack_module_state([tt.nn.Linear(2, 2), tt.nn.Tanh()]),
    "stack-requires-grad": lambda fx, tt, x: fx.stack_module_state(
        [_mlp(tt.nn), _mlp(tt.nn).requires_grad_(False)]),
}


@pytest.mark.parametrize("name", sorted(FCALL_ERRORS))
def test_functional_call_errors_match_torch(name):
    ref, mine = _error(FCALL_ERRORS[name], (M[:, :4],))
    assert mine == ref


# ------------------------------------------------------------------ the three tutorials
def _cnn(tt):
    """The per-sample-gradients tutorial's SimpleCNN, on 12x12 images (fc1 sized to match)."""
    nn, nnf = tt.nn, (tF if tt is torch else mF)

    class SimpleCNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 3, 1)
            self.conv2 = nn.Conv2d(4, 8, 3, 1)
            self.fc1 = nn.Linear(128, 16)
            self.fc2 = nn.Linear(16, 10)

        def forward(self, x):
            x = nnf.relu(self.conv1(x))
            x = nnf.relu(self.conv2(x))
            x = nnf.max_pool2d(x, 2)
            x = tt.flatten(x, 1)
            x = nnf.relu(self.fc1(x))
            return nnf.log_softmax(self.fc2(x), dim=1)

    return SimpleCNN(), nnf


def test_tutorial_per_sample_gradients():
    """torch.func's per-sample gradients, vmap(grad(compute_loss)), against a loop of
    ordinary backward passes and against PyTorch, with the tutorial's code."""
    data = RNG.standard_normal((4, 1, 12, 12)).astype(np.float32)
    targets = RNG.integers(0, 10, 4)

    def run(tt, func):
        torch.manual_seed(0)
        ref_model = _cnn(torch)[0]
        model, nnf = _cnn(tt)
        with tt.no_grad():
            for p, q in zip(model.parameters(), ref_model.parameters()):
                p.copy_(tt.tensor(q.detach().numpy()))

        def loss_fn(predictions, targets):
            return nnf.nll_loss(predictions, targets)

        x, y = tt.tensor(data), tt.tensor(targets)

        def compute_grad(sample, target):
            sample, target = sample.unsqueeze(0), target.unsqueeze(0)
            loss = loss_fn(model(sample), target)
            return tt.autograd.grad(loss, list(model.parameters()))

        loop = [tt.stack(shards) for shards in zip(*[compute_grad(x[i], y[i]) for i in range(4)])]
        params = {k: v.detach() for k, v in model.named_parameters()}
        buffers = {k: v.detach() for k, v in model.named_buffers()}

        def compute_loss(params, buffers, sample, target):
            batch, targets = sample.unsqueeze(0), target.unsqueeze(0)
            predictions = func.functional_call(model, (params, buffers), (batch,))
            return loss_fn(predictions, targets)

        ft = func.vmap(func.grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, x, y)
        for a, b in zip(loop, ft.values()):
            assert tt.allclose(a, b, atol=3e-3, rtol=1e-5)
        return loop, ft

    mine, ref = run(minitorch, mfunc), run(torch, tfunc)
    assert_same(mine, ref, rtol=1e-4, atol=1e-6)


def test_tutorial_jacobians_hessians():
    D = 6
    w, b, x, xs, t = (RNG.standard_normal((D, D)), RNG.standard_normal(D),
                      RNG.standard_normal(D), RNG.standard_normal((3, D)), RNG.standard_normal(D))

    def run(func, tt, weight, bias, x, xs, tangent):
        nnf = tF if tt is torch else mF

        def predict(weight, bias, x):
            return nnf.linear(x, weight, bias).tanh()

        _, vjp_fn = func.vjp(lambda x: predict(weight, bias, x), x)
        unit_vectors = tt.eye(D, dtype=tt.float64)
        (ft_jacobian,) = func.vmap(vjp_fn)(unit_vectors)
        primal = x.clone().requires_grad_()
        rows = [tt.autograd.grad(predict(weight, bias, primal), primal, v)[0]
                for v in unit_vectors]
        assert tt.allclose(ft_jacobian, tt.stack(rows))
        jac_rev = func.jacrev(predict, argnums=2)(weight, bias, x)
        jac_w, jac_b = func.jacrev(predict, argnums=(0, 1))(weight, bias, x)
        jac_fwd = func.jacfwd(predict, argnums=2)(weight, bias, x)
        hess = func.hessian(predict, argnums=2)(weight, bias, x)
        hess_fwdfwd = func.jacfwd(func.jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
        hess_revrev = func.jacrev(func.jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
        assert tt.allclose(hess, hess_fwdfwd) and tt.allclose(hess, hess_revrev)
        batch_jac = func.vmap(func.jacrev(predict, argnums=2), in_dims=(None, None, 0))(
            weight, bias, xs)
        summed = func.jacrev(lambda w, b, x: predict(w, b, x).sum(0), argnums=2)(
            weight, bias, xs).movedim(1, 0)
        assert tt.allclose(batch_jac, summed)
        batch_hess = func.vmap(func.hessian(predict, argnums=2), in_dims=(None, None, 0))(
            weight, bias, xs)

        def hvp(f, primals, tangents):
            return func.jvp(func.grad(f), primals, tangents)[1]

        hv = hvp(lambda x: x.sin().sum(), (x,), (tangent,))
        assert tt.allclose(hv, -x.sin() * tangent)
        return ft_jacobian, jac_rev, jac_w, jac_b, jac_fwd, hess, batch_jac, batch_hess, hv

    mine, ref = run_both(lambda fx, tt, *a: run(fx, tt, *a), w, b, x, xs, t)
    assert_same(mine, ref)


def test_tutorial_model_ensembling():
    """The tutorial's ensemble of MLPs: vmap over stacked states, one minibatch for all models
    and one minibatch per model. (The tutorial moves its base model to the 'meta' device,
    which minitorch does not have; a plain deep copy serves.)"""
    data = RNG.standard_normal((3, 5, 1, 28, 28)).astype(np.float32)

    def run(func, tt, minibatches):
        nnf = tF if tt is torch else mF

        class SimpleMLP(tt.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = tt.nn.Linear(784, 16)
                self.fc2 = tt.nn.Linear(16, 16)
                self.fc3 = tt.nn.Linear(16, 10)

            def forward(self, x):
                x = x.flatten(1)
                x = nnf.relu(self.fc1(x))
                x = nnf.relu(self.fc2(x))
                return self.fc3(x)

        torch.manual_seed(0)
        ref_models = [torch.nn.Sequential(torch.nn.Linear(784, 16), torch.nn.Linear(16, 16),
                                          torch.nn.Linear(16, 10)) for _ in range(3)]
        models = [SimpleMLP() for _ in range(3)]
        with tt.no_grad():
            for model, ref in zip(models, ref_models):
                for p, q in zip(model.parameters(), ref.parameters()):
                    p.copy_(tt.tensor(q.detach().numpy()))
        minibatch = minibatches[0]
        predictions1 = [model(minibatch) for model in models]
        predictions2 = [model(mb) for model, mb in zip(models, minibatches)]
        params, buffers = func.stack_module_state(models)
        base_model = copy.deepcopy(models[0])

        def fmodel(params, buffers, x):
            return func.functional_call(base_model, (params, buffers), (x,))

        p1 = func.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
        p2 = func.vmap(fmodel)(params, buffers, minibatches)
        assert tt.allclose(p1, tt.stack(predictions1), atol=1e-3, rtol=1e-5)
        assert tt.allclose(p2, tt.stack(predictions2), atol=1e-3, rtol=1e-5)
        return p1, p2

    mine, ref = run_both(lambda fx, tt, a: run(fx, tt, a), data)
    assert_same(mine, ref, rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------- from the review
def test_an_inner_transform_of_a_fresh_tensor_leaks_no_graph_out():
    """The inner grad closes over the outer variable; its own fresh leaf is no outside
    variable, so the outer result carries no graph (as PyTorch's levels decide)."""
    seen = []
    for fx, lib in ((mfunc, minitorch), (tfunc, torch)):
        def outer(x, fx=fx, lib=lib):
            return fx.grad(lambda y: (y * x).sum() ** 2)(lib.tensor([1.0, 1.0])).sum()

        g, v = fx.grad_and_value(outer)(lib.tensor([1.0, 2.0]))
        seen.append((g.requires_grad, v.requires_grad, g.tolist(), v.item()))
    assert seen[0] == seen[1] == (False, False, [12.0, 12.0], 18.0)


@pytest.mark.parametrize("kind", ["namedtuple", "OrderedDict"])
def test_namedtuples_and_ordered_dicts_are_pytrees(kind):
    import collections

    seen = []
    for fx, lib in ((mfunc, minitorch), (tfunc, torch)):
        if kind == "namedtuple":
            pair = collections.namedtuple("Pair", "a b")(lib.tensor([1.0]), lib.tensor([2.0]))
        else:
            pair = collections.OrderedDict(a=lib.tensor([1.0]), b=lib.tensor([2.0]))
        g = fx.grad(lambda p: (p[0] * p[1]).sum() if kind == "namedtuple"
                    else (p["a"] * p["b"]).sum())(pair)
        values = g.values() if isinstance(g, dict) else g
        batched = fx.vmap(lambda p: p[0] * 2 if kind == "namedtuple" else p["a"] * 2)(pair)
        seen.append((type(g).__name__, [v.tolist() for v in values], batched.tolist()))
    assert seen[0] == seen[1]
    assert seen[0][0] == ("Pair" if kind == "namedtuple" else "OrderedDict")


def test_an_inference_tensor_can_be_differentiated_by_the_transforms():
    """torch.func differentiates a tensor made under inference_mode (its own wrapper is a new
    tensor); minitorch's fresh leaf is a normal copy of it."""
    def run(lib):
        with lib.inference_mode():
            x = lib.tensor([1.0, 2.0, 3.0])
        out = [lib.func.grad(lambda v: (v ** 3).sum())(x), lib.func.jacrev(lambda v: v.sin())(x),
               lib.func.vjp(lambda v: v.exp(), x)[1](lib.ones(3))[0]]
        return [o.detach().numpy().round(5).tolist() for o in out], x.is_inference()

    assert run(minitorch) == run(torch)


@pytest.mark.parametrize("tangent_shape", [(2,), (3, 1), ()])
def test_a_tangent_of_another_shape_gets_torchs_error(tangent_shape):
    def run(lib):
        try:
            lib.func.jvp(lambda v: v.sin(), (lib.ones(3),), (lib.ones(tangent_shape),))
        except RuntimeError as e:
            return str(e)
        return "no error"

    assert run(minitorch) == run(torch)


# ------------------------------------------------- inference_mode
INFERENCE_CASES = {
    "grad": lambda fx, tt, x: fx.grad(lambda v: (v.sin() ** 2).sum())(x),
    "grad-and-value": lambda fx, tt, x: fx.grad_and_value(lambda v: (v ** 3).sum())(x),
    "grad-aux": lambda fx, tt, x: fx.grad(lambda v: (v.sum(), (v * 2, tt.ones(2))),
                                          has_aux=True)(x),
    "vjp": lambda fx, tt, x: fx.vjp(lambda v: v.exp(), x)[1](x.cos()),
    "vjp-output-aux": lambda fx, tt, x: fx.vjp(lambda v: (v.exp(), v + 1), x, has_aux=True)[::2],
    "jvp": lambda fx, tt, x: fx.jvp(lambda v: (v.sin(), v * 2), (x,), (x.cos(),)),
    "jvp-aux": lambda fx, tt, x: fx.jvp(lambda v: (v.exp(), v + 1), (x,), (x,), has_aux=True),
    "jacrev": lambda fx, tt, x: fx.jacrev(lambda v: v.sin().outer(v))(x),
    "jacfwd": lambda fx, tt, x: fx.jacfwd(lambda v: (v.exp(), v.sum()), has_aux=True)(x),
    "hessian": lambda fx, tt, x: fx.hessian(lambda v: (v.sin() * v.exp()).sum())(x),
    "vmap-sin": lambda fx, tt, x: fx.vmap(tt.sin)(x),
    "vmap-view": lambda fx, tt, x: fx.vmap(lambda v: v.view(()), out_dims=0)(x),
    "vmap-out-dims-none": lambda fx, tt, x: fx.vmap(lambda v: (v * 1, v.view(()), tt.ones(2)),
                                                    out_dims=(0, 0, None))(x),
    "vmap-grad": lambda fx, tt, x: fx.vmap(fx.grad(lambda v: v.sin() * v))(x),
    "grad-vmap": lambda fx, tt, x: fx.grad(lambda v: fx.vmap(tt.sin)(v).sum())(x),
    "vmap-empty": lambda fx, tt, x: fx.vmap(lambda v: v.view(()))(x[:0]),
}


@pytest.mark.parametrize("inference_input", [False, True])
@pytest.mark.parametrize("name", sorted(INFERENCE_CASES))
def test_results_made_under_inference_mode_are_torchs(name, inference_input):
    """Under inference_mode, PyTorch's differentiating transforms run (and make their results)
    out of inference mode: the results are normal tensors, which may be changed in place and
    used by autograd afterwards. vmap makes inference tensors, as plain ops do, but hands back
    a view of a normal tensor as a normal tensor."""
    def run(fx, tt):
        x = tt.tensor(A)
        with tt.inference_mode():
            if inference_input:
                x = tt.tensor(A)
            out = INFERENCE_CASES[name](fx, tt, x)
        leaves = t_flatten(out)[0] if tt is torch else mfunc.tree_flatten(out)[0]
        seen = []
        for t in leaves:
            value = t.detach().numpy().round(8).tolist()
            w = tt.ones(t.shape, dtype=t.dtype, requires_grad=True)
            try:
                (t * w).sum().backward()
                used = "ok"
            except RuntimeError as e:
                used = str(e)
            try:
                t.add_(1)
                changed = "ok"
            except RuntimeError as e:
                changed = str(e)
            seen.append((t.is_inference(), t.requires_grad, used, changed, value))
        return seen

    assert run(mfunc, minitorch) == run(tfunc, torch)


def test_transforms_switch_inference_mode_off_inside():
    """What ``func`` sees under inference_mode: the reverse-mode transforms switch it off and
    grad mode on (jvp and jacfwd are left out: PyTorch's forward mode leaves grad mode off,
    minitorch's double-vjp needs it on)."""
    def run(fx, tt):
        seen = []

        def f(v):
            seen.append((tt.is_inference_mode_enabled(), tt.is_grad_enabled(),
                         tt.ones(2).is_inference()))
            return (v * 2).sum()

        with tt.inference_mode():
            for transform in (fx.grad, fx.jacrev, fx.hessian, fx.vmap):
                transform(f)(tt.ones(3) if transform is not fx.vmap else tt.ones(1, 3))
            fx.vjp(f, tt.ones(2))
            seen.append((tt.is_inference_mode_enabled(), tt.is_grad_enabled()))
        return seen

    assert run(mfunc, minitorch) == run(tfunc, torch)


# ------------------------------------------- batch norm under vmap
RNG_BN = np.random.default_rng(3).standard_normal(24).astype(np.float32)
BATCH_NORM_CASES = {
    "module": lambda fx, lib, x: fx.vmap(lib.nn.BatchNorm1d(4))(x),
    "module-2d": lambda fx, lib, x: fx.vmap(lib.nn.BatchNorm2d(3))(x.reshape(2, 1, 3, 2, 2)),
    "sequential": lambda fx, lib, x: fx.vmap(lib.nn.Sequential(lib.nn.Tanh(),
                                                               lib.nn.BatchNorm1d(4)))(x),
    "momentum-none": lambda fx, lib, x: fx.vmap(lib.nn.BatchNorm1d(4, momentum=None))(x),
    "functional": lambda fx, lib, x: fx.vmap(lambda v: lib.nn.functional.batch_norm(
        v, lib.zeros(4), lib.ones(4), training=True))(x),
    "functional-mean-only": lambda fx, lib, x: fx.vmap(lambda v: lib.nn.functional.batch_norm(
        v, lib.zeros(4), None, training=True))(x),
    "functional-batched-stats": lambda fx, lib, x: fx.vmap(
        lambda v, m, s: lib.nn.functional.batch_norm(v, m, s, training=True))(
        x, lib.zeros(2, 4), lib.ones(2, 4)),
    "functional-eval": lambda fx, lib, x: fx.vmap(lambda v: lib.nn.functional.batch_norm(
        v, lib.zeros(4), lib.ones(4), training=False))(x),
    "functional-call-buffers": lambda fx, lib, x: _bn_functional_call(fx, lib, x, True),
    "functional-call-unbatched-buffers": lambda fx, lib, x: _bn_functional_call(fx, lib, x,
                                                                               False),
    "nested-stats-batched-outside": lambda fx, lib, x: _bn_nested(fx, lib, x, outer=True),
    "nested-stats-batched-inside": lambda fx, lib, x: _bn_nested(fx, lib, x, outer=False),
    "eval": lambda fx, lib, x: fx.vmap(lib.nn.BatchNorm1d(4).eval())(x),
    "no-running-stats": lambda fx, lib, x: fx.vmap(lib.nn.BatchNorm1d(
        4, track_running_stats=False))(x),
    "replaced": lambda fx, lib, x: _bn_replaced(fx, lib, x),
}


def _bn_functional_call(fx, lib, x, batched):
    bn = lib.nn.BatchNorm1d(4)
    params, buffers = dict(bn.named_parameters()), dict(bn.named_buffers())
    if not batched:
        return fx.vmap(lambda v: fx.functional_call(bn, (params, buffers), (v,)))(x)
    stacked = {k: lib.stack([b, b]) for k, b in buffers.items()}
    out = fx.vmap(lambda b, v: fx.functional_call(bn, (params, b), (v,)))(stacked, x)
    return out, stacked


def _bn_nested(fx, lib, x, outer):
    bn = lib.nn.BatchNorm1d(3)
    params = dict(bn.named_parameters())
    stacked = {k: lib.stack([b, b]) for k, b in bn.named_buffers()}
    x = x.reshape(2, 2, 2, 3)

    def call(b, v):
        return fx.functional_call(bn, (params, b), (v,))

    if outer:
        return fx.vmap(lambda b, v: fx.vmap(lambda w: call(b, w))(v))(stacked, x)
    return fx.vmap(lambda v: fx.vmap(call)(stacked, v))(x)


def _bn_replaced(fx, lib, x):
    model = lib.nn.Sequential(lib.nn.Linear(4, 4), lib.nn.BatchNorm1d(4))
    assert fx.replace_all_batch_norm_modules_(model) is model
    return fx.vmap(model)(x), repr(model), sorted(model.state_dict())


@pytest.mark.parametrize("name", sorted(BATCH_NORM_CASES))
def test_batch_norm_under_vmap_is_torchs(name):
    """PyTorch's vmap refuses batch norm in training when the running statistics it would
    update in place are not batched (the same error), and works when they are (each slice
    updates its own row), in eval mode, without running statistics, and after
    replace_all_batch_norm_modules_. The modules' buffers afterwards are compared too."""
    def run(fx, lib):
        lib.manual_seed(0)
        x = lib.tensor(RNG_BN.reshape(2, 3, 4))
        try:
            out = BATCH_NORM_CASES[name](fx, lib, x)
        except RuntimeError as e:
            return str(e)
        leaves = t_flatten(out)[0] if lib is torch else mfunc.tree_flatten(out)[0]
        return [v.detach().numpy().round(5).tolist() if isinstance(v, lib.Tensor) else v
                for v in leaves]

    assert run(mfunc, minitorch) == run(tfunc, torch)


def test_the_refused_batch_norm_leaves_the_module_as_torchs():
    """The module counts the batch before batch norm refuses: num_batches_tracked goes up once,
    the running statistics do not change."""
    def run(fx, lib):
        bn = lib.nn.BatchNorm1d(4)
        with pytest.raises(RuntimeError, match="Batch norm got a batched tensor"):
            fx.vmap(bn)(lib.tensor(RNG_BN.reshape(2, 3, 4)))
        return {k: v.tolist() for k, v in bn.state_dict().items()}

    assert run(mfunc, minitorch) == run(tfunc, torch)


def test_replace_all_batch_norm_modules_is_torchs():
    """Every BatchNorm in the tree (the root too) loses its running statistics; InstanceNorm
    (no BatchNorm in PyTorch) and a BatchNorm without running statistics are left alone."""
    def run(fx, lib):
        nn = lib.nn
        model = nn.Sequential(nn.BatchNorm1d(4), nn.InstanceNorm1d(4, track_running_stats=True),
                              nn.Sequential(nn.BatchNorm2d(3, affine=False)),
                              nn.BatchNorm1d(4, track_running_stats=False))
        root = nn.BatchNorm3d(2)
        seen = [fx.replace_all_batch_norm_modules_(model) is model,
                fx.replace_all_batch_norm_modules_(root) is root, repr(model), repr(root),
                sorted(model.state_dict()), [n for n, _ in model.named_buffers()],
                sorted(root.state_dict()), root.running_mean, root.num_batches_tracked]
        try:
            fx.replace_all_batch_norm_modules_(3)
        except AttributeError as e:
            seen.append(str(e))
        return seen

    assert run(mfunc, minitorch) == run(tfunc, torch)


# ------------------------------------------- documentation examples
def test_vmap_of_autograd_grad_through_an_outside_graph_is_torchs():
    """The example of PyTorch's vmap docstring: a batched vjp through a graph made outside vmap
    (minitorch runs one backward per slice: the graph lasts until the last one). Afterwards the
    graph is freed, as by PyTorch's one batched backward."""
    def run(lib):
        x = lib.tensor(A, requires_grad=True)
        y = x ** 2 * x.sin()
        jac = lib.vmap(lambda v: lib.autograd.grad(y, x, v))(lib.eye(4, dtype=lib.float64))
        try:
            lib.autograd.grad(y, x, lib.ones(4, dtype=lib.float64))
            again = "no error"
        except RuntimeError as e:
            again = str(e)[:60]
        return jac[0].numpy().round(10).tolist(), again

    assert run(minitorch) == run(torch)


LINEARIZE_CASES = {
    "sin": lambda lib: (lambda x: x.sin(), (lib.tensor(A),), (lib.tensor(B),)),
    "two-primals": lambda lib: (lambda x, y: x * y.exp(), (lib.tensor(A), lib.tensor(B)),
                                (lib.tensor(B), lib.tensor(A))),
    "pytree-output": lambda lib: (lambda x: (x.sin(), {"a": x * x}), (lib.tensor(A),),
                                  (lib.tensor(B),)),
    "requires-grad": lambda lib: (lambda x: (x.sin(), {"a": x * x}),
                                  (lib.tensor(A, requires_grad=True),), (lib.tensor(B),)),
    "0d-output": lambda lib: (lambda x: (x ** 3).sum(), (lib.tensor(A),), (lib.tensor(B),)),
    "float32": lambda lib: (lambda x: x.tanh(), (lib.tensor(A).float(),),
                            (lib.tensor(B).float(),)),
    "too-few-tangents": lambda lib: (lambda x, y: x * y, (lib.tensor(A), lib.tensor(B)),
                                     (lib.tensor(B),)),
    "tangents-in-a-list": lambda lib: (lambda x, y: x * y, (lib.tensor(A), lib.tensor(B)),
                                       ([lib.tensor(A), lib.tensor(B)],)),
    "tangent-shape": lambda lib: (lambda x, y: x * y, (lib.tensor(A), lib.tensor(B)),
                                  (lib.tensor(A), lib.tensor(M))),
    "tangent-dtype": lambda lib: (lambda x, y: x * y, (lib.tensor(A), lib.tensor(B)),
                                  (lib.tensor(A), lib.tensor(B).float())),
}


@pytest.mark.parametrize("name", sorted(LINEARIZE_CASES))
def test_linearize_matches_torch(name):
    """linearize: the output and jvp_fn's products (called twice), or PyTorch's error."""
    def run(fx, lib):
        func, primals, tangents = LINEARIZE_CASES[name](lib)
        out, jvp_fn = fx.linearize(func, *primals)
        try:
            first = jvp_fn(*tangents)
        except RuntimeError as e:
            return str(e)
        return out, first, jvp_fn(*[t * 2 for t in tangents])

    mine, ref = run(mfunc, minitorch), run(tfunc, torch)
    if isinstance(ref, str):
        assert mine == ref
    else:
        assert_same(mine, ref, rtol=1e-6, atol=1e-7)


FUNCTIONALIZE_CASES = {
    "intermediate-mutation": lambda lib, x: (lambda a: _mutate_view(a), x),
    "input-mutation": lambda lib, x: (lambda a: a.add_(1), x),
    "view-of-input": lambda lib, x: (lambda a: a.view(-1), x),
    "view-of-intermediate": lambda lib, x: (lambda a: (a * 2).view(-1), x),
    "pytree-output": lambda lib, x: (lambda a: {"v": a.sum(0), "m": a.mul_(3)}, x),
}


def _mutate_view(a):
    b = a + 1
    b.view(-1).add_(1)
    return b


@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
@pytest.mark.parametrize("name", sorted(FUNCTIONALIZE_CASES))
def test_functionalize_matches_torch(name, remove):
    """Values, the input changed in place, and aliasing: whether an output is an input or a
    view (of the input), as PyTorch's functionalize run eagerly."""
    def run(fx, lib):
        x = lib.tensor(M)
        func, arg = FUNCTIONALIZE_CASES[name](lib, x)
        out = fx.functionalize(func, remove=remove)(arg)
        leaves = t_flatten(out)[0] if lib is torch else mfunc.tree_flatten(out)[0]
        # (with remove="mutations" PyTorch may hand back an intermediate as a view of its own
        # internal base: whether ``_base`` is None is compared only without views)
        return x.tolist(), [(t.tolist(), t is x, t._base is x,
                             remove == "mutations" or t._base is None) for t in leaves]

    assert run(mfunc, minitorch) == run(tfunc, torch)


def test_functionalize_and_debug_unwrap_arguments_are_torchs():
    def run(fx, lib):
        try:
            fx.functionalize(lib.sin, remove="views")
        except RuntimeError as e:
            message = str(e)
        x = lib.ones(2)
        return (message, fx.functionalize(lib.sin).__name__, fx.debug_unwrap(x) is x,
                fx.debug_unwrap(x, recurse=False) is x)

    assert run(mfunc, minitorch) == run(tfunc, torch)


# ------------------------------------------- a vmap at work in one thread leaves others alone
def test_a_vmap_in_one_thread_changes_nothing_in_another():
    """PyTorch's transforms belong to their thread. While a vmap runs in one thread (here its
    function waits, in its first slice), another thread's random numbers, batch norm and
    backward behave as outside any vmap: a graph is freed by backward, and a second backward
    through it raises. Two overlapping vmaps leave nothing behind when both are done."""
    import threading

    started, go = threading.Event(), threading.Event()

    def waits(v):
        started.set()
        go.wait(10)
        return v * 2

    results: list = []
    threads = [threading.Thread(target=lambda: results.append(
        mfunc.vmap(waits)(minitorch.ones(3, 2)))) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        assert started.wait(10)

        def second_backward():
            x = minitorch.ones(2, requires_grad=True)
            y = (x * x).sum()
            y.backward()
            try:
                y.backward()
            except RuntimeError as error:
                return str(error).split(".")[0]
            return "no error"

        seen = [second_backward(), tuple(minitorch.randn(2).shape),
                tuple(minitorch.nn.BatchNorm1d(2).train()(minitorch.ones(4, 2)).shape)]
    finally:
        go.set()
        for thread in threads:
            thread.join(10)
    assert seen == ["Trying to backward through the graph a second time (or directly access "
                    "saved tensors after they have already been freed)", (2,), (4, 2)]
    assert [r.tolist() for r in results] == [[[2.0, 2.0]] * 3] * 2
    assert second_backward() == seen[0]  # and after them
    with pytest.raises(RuntimeError, match="randomness error mode"):
        mfunc.vmap(lambda v: v + minitorch.randn(2))(minitorch.ones(3, 2))


# ------------------------------------------- functionalize: which outputs alias the inputs
FUNCTIONALIZE_ALIASING = {
    "identity": lambda a: a,
    "add_": lambda a: a.add_(1),
    "add_ then view": lambda a: a.add_(1).view(-1),
    "view": lambda a: a.view(-1),
    "view then add_": lambda a: a.view(-1).add_(1),
    "fresh": lambda a: a * 2,
    "fresh view": lambda a: (a * 2).view(-1),
    "several": lambda a: (a, a.view(-1), a + 1),
    "transpose of a changed input": lambda a: a.mul_(2).t(),
}


@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
@pytest.mark.parametrize("name", list(FUNCTIONALIZE_ALIASING))
def test_functionalize_aliases_as_torchs(name, remove):
    """An input returned unchanged is itself; one that func changed in place, or a view of
    one, comes back unaliased (a view of a copy); with mutations_and_views no view is left."""
    def run(lib, fx):
        x = lib.ones(2, 3)
        out = fx.functionalize(FUNCTIONALIZE_ALIASING[name], remove=remove)(x)
        seen = []
        for o in out if isinstance(out, tuple) else (out,):
            before = x.clone()
            o.fill_(100.0)
            seen.append((o is x, bool((x == 100.0).any()), o._base is not None))
            x.copy_(before)
        return seen, x.tolist()

    assert run(minitorch, mfunc) == run(torch, tfunc)


# ------------------------------------------- vmap's outputs that need no copy
VMAP_ALIASING = {
    "identity": (lambda fx, lib, t, c: fx.vmap(lambda x: x)(t), "t"),
    "in 1, out 1": (lambda fx, lib, t, c: fx.vmap(lambda x: x, in_dims=1, out_dims=1)(t), "t"),
    "in 1, out 0": (lambda fx, lib, t, c: fx.vmap(lambda x: x, in_dims=1)(t), "t"),
    "in 0, out 1": (lambda fx, lib, t, c: fx.vmap(lambda x: x, out_dims=1)(t), "t"),
    "in -2, out -1": (lambda fx, lib, t, c: fx.vmap(lambda x: x, in_dims=-2, out_dims=-1)(
        t.reshape(2, 3, 2)), "t"),
    "in dims tuple": (lambda fx, lib, t, c: fx.vmap(lambda x: x, in_dims=(0,))(t), "t"),
    "both of a tuple": (lambda fx, lib, t, c: fx.vmap(lambda x: (x, x))(t), "t"),
    "nested": (lambda fx, lib, t, c: fx.vmap(fx.vmap(lambda x: x))(t), "t"),
    "empty batch": (lambda fx, lib, t, c: fx.vmap(lambda x: x)(t[:0]), "t"),
    "closed over": (lambda fx, lib, t, c: fx.vmap(lambda x: c)(t), "c"),
    "unmapped argument": (lambda fx, lib, t, c: fx.vmap(lambda x, y: y, in_dims=(0, None))(
        t, c), "c"),
    "unmapped argument, batch of 1": (lambda fx, lib, t, c: fx.vmap(
        lambda x, y: y, in_dims=(0, None))(t[:1], c), "c"),
    "unmapped argument, out_dims None": (lambda fx, lib, t, c: fx.vmap(
        lambda x, y: y, in_dims=(0, None), out_dims=None)(t, c), "c"),
    "detached": (lambda fx, lib, t, c: fx.vmap(lambda x: x.detach())(t), "t"),
}


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("name", list(VMAP_ALIASING))
def test_vmap_returns_its_input_as_torchs(name, requires_grad):
    """An output that is the slice handed to the function is the input itself (moved when
    out_dims differs from in_dims, a view then); a tensor that is not batched comes back
    expanded, a view of it: as PyTorch's vmap, which removes the batch dimension without
    copying."""
    def run(fx, lib):
        t = lib.tensor(M.copy(), requires_grad=requires_grad)
        c = lib.tensor(A[:3].copy(), requires_grad=requires_grad)
        make, source = VMAP_ALIASING[name]
        out = make(fx, lib, t, c)
        src = {"t": t, "c": c}[source]
        seen = []
        for o in out if isinstance(out, tuple) else (out,):
            seen.append((o is src, o._base is src, tuple(o.shape), tuple(o.stride()),
                         None if o.grad_fn is None else o.grad_fn.name(),
                         o.detach().numpy().round(10).tolist()))
        return seen

    assert run(mfunc, minitorch) == run(tfunc, torch)

"""Autograd on its own (no PyTorch needed): finite differences, graph shapes, grad modes,
hooks, custom Functions, and the engine on deep and diamond-shaped graphs.

The expected values are worked out by hand (or by central differences in float64), so these
tests run wherever minitorch does. The PyTorch comparisons live in ``test_ops_oracle.py``.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from _oracle import graph_signature
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch
from minitorch.autograd import Function, once_differentiable

F = minitorch.nn.functional
FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you "
    "call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward "
    "through the graph a second time or if you need to access saved tensors after calling "
    "backward."
)


def close(t, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(t.detach().numpy(), expected, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- finite differences
def grid(lo: int, hi: int, offset: float):
    """``(i + offset) / 64``: never exactly 0 or on a bound, so every op is smooth there."""
    return st.integers(lo, hi).map(lambda i: (i + offset) / 64)


SMOOTH = grid(-160, 159, 0.5)  # in (-2.5, 2.5), never 0, +-0.5 or +-1
OTHER = grid(-160, 159, 0.25)  # never equal to a SMOOTH value (no ties in maximum)
POSITIVE = grid(24, 159, 0.5)


@st.composite
def inputs(draw, *elements, broadcast=True, unique=False, min_dims=0, max_dims=3):
    """Float64 arrays (shapes broadcasting together) for an op with len(elements) inputs."""
    if broadcast:
        shapes = draw(hnp.mutually_broadcastable_shapes(
            num_shapes=len(elements), min_dims=min_dims, max_dims=max_dims, max_side=3)
        ).input_shapes
    else:
        shapes = [draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, max_side=3))]
    return [draw(hnp.arrays(np.float64, s, elements=e, unique=unique))
            for s, e in zip(shapes, elements)]


FD_CASES = {
    "add": (lambda a, b: a + b, inputs(SMOOTH, SMOOTH)),
    "sub_alpha": (lambda a, b: minitorch.sub(a, b, alpha=2), inputs(SMOOTH, SMOOTH)),
    "mul": (lambda a, b: a * b, inputs(SMOOTH, SMOOTH)),
    "div": (lambda a, b: a / b, inputs(SMOOTH, SMOOTH)),
    "scalars": (lambda a: (2 - a) * 3 + 1 / a - a / 4, inputs(SMOOTH)),
    "pow_scalar": (lambda a: a ** 3 + a ** 2.5 + a ** -1.5, inputs(POSITIVE)),
    "pow_tensor": (lambda a, b: a ** b, inputs(POSITIVE, SMOOTH)),
    "pow_scalar_base": (lambda a: 2.0 ** a, inputs(SMOOTH)),
    "neg_reciprocal": (lambda a: -a.reciprocal(), inputs(SMOOTH)),
    "exp_log_sqrt": (lambda a: a.exp() + a.log() * a.sqrt(), inputs(POSITIVE)),
    "abs_relu": (lambda a: a.abs() * 2 + a.relu(), inputs(SMOOTH)),
    "trig": (lambda a: a.sin() * a.cos(), inputs(SMOOTH)),
    "tanh_sigmoid": (lambda a: a.tanh() + minitorch.sigmoid(3 * a), inputs(SMOOTH)),
    "clamp": (lambda a: a.clamp(-1, 1) + a.clamp(min=0.5) + a.clamp(max=-0.5), inputs(SMOOTH)),
    "clamp_tensors": (lambda a, lo, hi: a.clamp(lo - 1, hi + 1), inputs(SMOOTH, OTHER, OTHER)),
    "maximum_minimum": (lambda a, b: minitorch.maximum(a, b) * minitorch.minimum(a, b),
                        inputs(SMOOTH, OTHER)),
    "where": (lambda a, b: minitorch.where(a > 0, a * b, b), inputs(SMOOTH, OTHER)),
    "sum_mean": (lambda a: a.sum() * a.mean(), inputs(SMOOTH)),
    "sum_mean_dim": (lambda a: a.sum(-1, keepdim=True) * a.mean(0), inputs(SMOOTH, min_dims=1)),
    "max_min": (lambda a: a.max() * a.min(), inputs(SMOOTH, unique=True)),
    "max_min_dim": (lambda a: a.max(0).values + a.min(-1, keepdim=True)[0],
                    inputs(SMOOTH, unique=True, min_dims=1)),
    "amax_amin": (lambda a: a.amax(0) * a.amin(), inputs(SMOOTH, unique=True, min_dims=1)),
    "var_std": (lambda a: a.var() + a.std(), inputs(SMOOTH, unique=True, min_dims=1).filter(
        lambda arrs: arrs[0].size > 1)),
    "var_std_dim": (lambda a: a.var(0, correction=0) + a.std(-1, keepdim=True),
                    inputs(SMOOTH, unique=True, min_dims=2).filter(
                        lambda arrs: min(arrs[0].shape) > 1)),
    "shapes": (lambda a: a.reshape(-1).unsqueeze(0).t().squeeze().flatten() * 2,
               inputs(SMOOTH)),
    "transpose_permute": (lambda a: a.transpose(0, -1).permute(*range(a.dim() - 1, -1, -1))
                          * a.T.mT.T if a.dim() >= 2 else a, inputs(SMOOTH, min_dims=2)),
    "expand_repeat": (lambda a: a.unsqueeze(0).expand(2, *a.shape) * a.repeat(2, *[1] * a.dim()),
                      inputs(SMOOTH)),
    "cat_stack": (lambda a, b: minitorch.cat([a, a * b], -1).sum() + minitorch.stack([a, b]).sum(),
                  inputs(SMOOTH, broadcast=False, min_dims=1).map(
                      lambda arrs: [arrs[0], np.asarray(arrs[0] * 0.5 + 0.125)])),
    "split_chunk_unbind": (lambda a: a.split(2)[0].sum() * a.chunk(2)[-1].sum()
                           + a.unbind()[0].sum(), inputs(SMOOTH, min_dims=1)),
    "indexing": (lambda a: a[0] * 2 + a[..., None][-1] + a[minitorch.tensor([0, 0, -1])].sum()
                 + a[a > 0].sum(), inputs(SMOOTH, min_dims=1)),
    "setitem": (lambda a, b: _put(a, b), inputs(SMOOTH, broadcast=False, min_dims=1).map(
        lambda arrs: [arrs[0], np.asarray(arrs[0] * 0.5 + 0.125)])),
    "matmul": (lambda a, b: a @ b, hnp.mutually_broadcastable_shapes(
        signature=np.matmul.signature, max_dims=2, max_side=3).flatmap(
            lambda bs: st.tuples(*[hnp.arrays(np.float64, s, elements=SMOOTH)
                                   for s in bs.input_shapes]).map(list))),
    "mm_mv_dot": (lambda a: a.mm(a.t()).sum() + a.mv(a[0]).sum() + a[0].dot(a[-1]),
                  inputs(SMOOTH, min_dims=2, max_dims=2)),
    "bmm": (lambda a: a.bmm(a.transpose(1, 2)), inputs(SMOOTH, min_dims=3, max_dims=3)),
    "clone_to": (lambda a: a.clone().to(minitorch.float64, copy=True) * a, inputs(SMOOTH)),
    "bce_with_logits": (lambda a, b: _bce(a, b), inputs(SMOOTH, broadcast=False).map(
        lambda arrs: [arrs[0], np.asarray(arrs[0] * 0.5 + 0.125)])),
}


def _bce(x, t):
    """Weights are constants: PyTorch does not differentiate them (no edge), so neither do we."""
    weight = minitorch.full(x.shape, 0.75, dtype=minitorch.float64)
    pos_weight = minitorch.tensor([1.5], dtype=minitorch.float64) if x.dim() else None
    return F.binary_cross_entropy_with_logits(x, t.sigmoid(), weight=weight,
                                              pos_weight=pos_weight, reduction="sum")


def _put(a, b):
    y = a * 1
    y[0] = b[-1] * 3  # CopySlices: a[0] gets no gradient, b[-1] gets 3
    return y * a


def numerical_gradients(fn, arrays, weights, eps=1e-6):
    """Central differences of ``sum(fn(*arrays) * weights)`` in float64."""
    def value():
        with minitorch.no_grad():
            out = fn(*[minitorch.from_numpy(a) for a in arrays])
        return float((out.detach().numpy() * weights).sum())

    grads = []
    for a in arrays:
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            keep = a[idx]
            a[idx] = keep + eps
            up = value()
            a[idx] = keep - eps
            down = value()
            a[idx] = keep
            g[idx] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


@pytest.mark.parametrize("name", sorted(FD_CASES))
@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_gradient_matches_finite_differences(name, data):
    fn, strategy = FD_CASES[name]
    arrays = data.draw(strategy, label="inputs")
    xs = [minitorch.from_numpy(a.copy()).requires_grad_() for a in arrays]
    out = fn(*xs)
    assert out.dtype == minitorch.float64
    weights = np.random.default_rng(0).standard_normal(tuple(out.shape))
    (out * minitorch.from_numpy(weights)).sum().backward()
    for x, expected in zip(xs, numerical_gradients(fn, arrays, weights)):
        assert x.grad is not None and x.grad.shape == x.shape
        np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- graphs that share tensors
def test_diamond_graph_sums_both_branches_and_runs_each_node_once():
    x = minitorch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    h = x.exp()  # used by two branches that join again
    left, right = h.sin(), h * h
    y = (left + right).sum()
    calls = []
    for node in (h.grad_fn, left.grad_fn, right.grad_fn, y.grad_fn):
        node.register_hook(lambda gi, go, n=node: calls.append(n.name()))
    y.backward()
    e = np.exp([0.5, -1.0, 2.0])
    close(x.grad, (np.cos(e) + 2 * e) * e)
    assert sorted(calls) == ["ExpBackward0", "MulBackward0", "SinBackward0", "SumBackward0"]


def test_leaf_used_several_times_accumulates_every_use():
    x = minitorch.tensor(3.0, requires_grad=True)
    y = x * x * x + x - x / x  # x appears six times
    y.backward()
    close(x.grad, 3 * 9.0 + 1)
    z = x * 2
    w = x.sin()
    assert z.grad_fn.next_functions[0][0] is w.grad_fn.next_functions[0][0]  # one AccumulateGrad
    assert z.grad_fn.next_functions[0][0].variable is x
    # and one edge object, made once: a kept graph holds no copy of it per use (each copy is
    # one more object for Python's garbage collector to walk)
    assert z.grad_fn.next_functions[0] is w.grad_fn.next_functions[0]
    assert z.grad_fn.next_functions[0] == (z.grad_fn.next_functions[0][0], 0)


def test_gradients_accumulate_across_backward_calls_until_zeroed():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    grad = x.grad
    (x * x).sum().backward()
    close(x.grad, [3 + 2, 3 + 4])
    assert x.grad is grad  # accumulated in place, as in PyTorch
    x.grad.zero_()
    close(x.grad, [0.0, 0.0])
    (x * 3).sum().backward()
    close(x.grad, [3.0, 3.0])
    x.grad = None
    (x * 5).sum().backward()
    close(x.grad, [5.0, 5.0])


# redteam2: a `.grad` whose `.data` was replaced by one of another shape
@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("shape", [(1,), (), (2,), (0,), (3, 1), (2, 3)])
def test_accumulating_into_a_grad_of_another_shape_is_torchs_inplace_add(shape, create_graph):
    """PyTorch accepts ``p.grad.data = zeros(1)`` and adds the next gradient into it in place
    (``create_graph``: out of place): it broadcasts where it can, else raises its RuntimeError,
    never NumPy's ValueError."""
    import warnings

    torch = pytest.importorskip("torch", reason="PyTorch is not installed: nothing to compare")
    results = []
    for lib in (torch, minitorch):
        p = lib.nn.Parameter(lib.ones(3))
        (p * 2).sum().backward()
        p.grad.data = lib.zeros(shape)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # PyTorch's gradient layout warning
                (p * 2).sum().backward(create_graph=create_graph)
        except Exception as error:  # (compared with PyTorch's)
            results.append((type(error), str(error)))
        else:
            results.append(np.asarray(p.grad.detach().tolist()).tolist())
    assert results[1] == results[0]


def test_one_gradient_reaching_two_leaves_gives_each_its_own_grad():
    """``(x + w).backward(g)``: AddBackward0 hands the very tensor ``g`` to both leaves. Each
    leaf must keep a ``.grad`` of its own, and ``g`` must stay as it was, through a second
    backward that accumulates in place (also after ``create_graph=True``) and a ``zero_()``."""
    for create_graph in (False, True):
        x = minitorch.tensor([1.0, 2.0], requires_grad=True)
        w = minitorch.tensor([3.0, 4.0], requires_grad=True)
        g = minitorch.tensor([1.0, 1.0])
        (x + w).backward(g, create_graph=create_graph)
        assert x.grad is not w.grad and g is not x.grad and g is not w.grad
        (x + w).backward(g)
        close(x.grad, [2.0, 2.0])
        close(w.grad, [2.0, 2.0])
        x.grad.zero_()
        close(w.grad, [2.0, 2.0])
        close(g, [1.0, 1.0])


def test_retain_graph_allows_a_second_backward_that_accumulates():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    close(x.grad, 2 * np.exp([1.0, 2.0]))
    with pytest.raises(RuntimeError) as e:
        y.backward()
    assert str(e.value) == FREED


def test_second_backward_without_retain_graph_raises_pytorchs_message():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()  # a new SumBackward0, but ExpBackward0 already freed its output
    assert str(e.value) == FREED
    close(x.grad, np.exp([1.0, 2.0]))  # the failed pass changed nothing


def test_version_counter_detects_a_change_to_a_saved_tensor():
    x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    assert y._version == 0
    y.mul_(2)
    assert y._version == 1
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version "
        "1; expected version 0 instead. Hint: enable anomaly detection to find the operation "
        "that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
        "check_nan=False)."
    )


def test_inplace_on_a_leaf_that_requires_grad_is_refused_but_allowed_under_no_grad():
    w = minitorch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used "
                                           "in an in-place operation.$"):
        w.sub_(1)
    with minitorch.no_grad():
        w -= 0.5 * minitorch.ones(2)
        w.mul_(2)
    close(w, [1.0, 3.0])
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    assert w._version == 2


def test_inplace_on_a_non_leaf_rebases_its_history():
    x = minitorch.tensor([1.0, -2.0], requires_grad=True)
    y = x * 3
    y.clamp_(min=0)
    y.add_(x)  # y = clamp(3x, 0) + x
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    close(x.grad, [3.0 + 1, 0.0 + 1])


# ---------------------------------------------------------------- deep graphs
def test_backward_through_a_100000_op_chain_has_no_recursion_error():
    x = minitorch.tensor(1.0, dtype=minitorch.float64, requires_grad=True)
    c = minitorch.tensor(1.00001, dtype=minitorch.float64)
    y = x
    for _ in range(100_000):
        y = y * c
    y.backward()
    close(x.grad, 1.00001 ** 100_000, rtol=1e-9)
    del y  # freeing the chain must not recurse either


# ---------------------------------------------------------------- autograd.grad and backward
def test_autograd_grad_with_grad_outputs_allow_unused_and_materialize():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    z = minitorch.tensor([5.0], requires_grad=True)
    y = x * x
    (gx,) = minitorch.autograd.grad(y, x, grad_outputs=minitorch.tensor([1.0, 10.0]),
                                    retain_graph=True)
    close(gx, [2.0, 40.0])
    assert x.grad is None  # grad() accumulates nothing
    gx, gz = minitorch.autograd.grad(y.sum(), [x, z], allow_unused=True, retain_graph=True)
    close(gx, [2.0, 4.0])
    assert gz is None
    gx, gz = minitorch.autograd.grad(y.sum(), [x, z], materialize_grads=True)
    close(gz, [0.0])


def test_non_scalar_backward_with_a_gradient_argument():
    x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * x
    y.backward(minitorch.tensor([[1.0, 0.0], [0.5, -1.0]]))
    close(x.grad, [[2.0, 0.0], [3.0, -8.0]])


def test_backward_inputs_limits_accumulation():
    a = minitorch.tensor(2.0, requires_grad=True)
    b = minitorch.tensor(3.0, requires_grad=True)
    (a * b).backward(inputs=[a])
    close(a.grad, 3.0)
    assert b.grad is None


# ---------------------------------------------------------------- grad modes
def test_no_grad_enable_grad_and_set_grad_enabled_nest():
    x = minitorch.ones(2, requires_grad=True)
    assert minitorch.is_grad_enabled()
    with minitorch.no_grad():
        assert not (x * 2).requires_grad
        with minitorch.enable_grad():
            assert (x * 2).requires_grad
            with minitorch.set_grad_enabled(False):
                assert not minitorch.is_grad_enabled()
            assert minitorch.is_grad_enabled()
        assert not minitorch.is_grad_enabled()
        with minitorch.set_grad_enabled(True):
            assert (x * 2).grad_fn is not None
    assert minitorch.is_grad_enabled()


def test_grad_mode_is_restored_after_an_exception():
    with pytest.raises(ValueError), minitorch.no_grad():
        raise ValueError
    assert minitorch.is_grad_enabled()


def test_grad_modes_as_decorators_with_and_without_parentheses():
    x = minitorch.ones(2, requires_grad=True)

    @minitorch.no_grad()
    def f(t):
        return t * 2

    @minitorch.no_grad
    def g(t):
        return t * 2

    @minitorch.enable_grad()
    def h(t):
        return t * 2

    @minitorch.set_grad_enabled(False)
    def k(t):
        return t * 2

    assert minitorch.is_grad_enabled()  # decorating changed nothing yet
    assert not f(x).requires_grad and not g(x).requires_grad and not k(x).requires_grad
    assert f.__name__ == "f"
    with minitorch.no_grad():
        assert h(x).requires_grad
        assert not minitorch.is_grad_enabled()
    assert minitorch.is_grad_enabled()


def test_set_grad_enabled_as_a_plain_call_switches_at_once():
    try:
        minitorch.set_grad_enabled(False)
        assert not minitorch.is_grad_enabled()
    finally:
        minitorch.set_grad_enabled(True)
    assert minitorch.is_grad_enabled()


def test_grad_mode_is_thread_local_and_new_threads_start_enabled():
    seen = {}

    def worker():
        seen["enabled"] = minitorch.is_grad_enabled()
        seen["records"] = (minitorch.ones(1, requires_grad=True) * 2).requires_grad

    with minitorch.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert not minitorch.is_grad_enabled()
    assert seen == {"enabled": True, "records": True}


# ---------------------------------------------------------------- detach, data, hooks
def test_detach_shares_memory_and_version_counter():
    x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad and d.grad_fn is None
    d[0] = 10.0
    close(y, [10.0, 4.0, 6.0])
    assert y._version == d._version == 1
    z = x.detach()
    s = x.sin()  # saves x
    z.add_(1)  # changes x through the detached alias: backward must notice
    assert x._version == 1
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        s.sum().backward()


def test_data_shares_memory_but_not_the_version_counter():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    d = x.data
    assert not d.requires_grad
    d.mul_(3)
    close(x, [3.0, 6.0])
    assert x._version == 0  # .data hides the change from autograd (that is its danger)


def test_hooks_on_leaf_and_non_leaf_can_replace_the_gradient_and_be_removed():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    seen = []
    hy = y.register_hook(lambda g: seen.append(("y", g.tolist())) or g * 10)
    hx = x.register_hook(lambda g: seen.append(("x", g.tolist())))
    y.sum().backward()
    assert seen == [("y", [1.0, 1.0]), ("x", [30.0, 30.0])]
    close(x.grad, [30.0, 30.0])
    hy.remove()
    hx.remove()
    x.grad = None
    seen.clear()
    (x * 3).sum().backward()
    assert seen == []
    close(x.grad, [3.0, 3.0])


def test_retain_grad_stores_the_gradient_after_the_other_hooks():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(lambda g: g * 2)  # registered later, but runs before retain_grad's store
    y.sum().backward()
    close(y.grad, [2.0, 2.0])
    close(x.grad, [6.0, 6.0])


def test_retain_grad_keeps_the_gradient_of_a_non_leaf():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    y.retain_grad()  # a second call changes nothing
    z = y.sum() * 2
    z.backward()
    assert y.retains_grad and not y.is_leaf
    close(y.grad, [2.0, 2.0])
    close(x.grad, [4.0, 8.0])


# ---------------------------------------------------------------- custom Functions
class ScaledCube(Function):
    """``k * x**3`` with a number argument in the middle."""

    @staticmethod
    def forward(ctx, x, k, y):
        ctx.save_for_backward(x)
        ctx.k = k
        ctx.seen_needs = ctx.needs_input_grad
        return k * x ** 3 + y

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        gx = grad * 3 * ctx.k * x ** 2 if ctx.needs_input_grad[0] else None
        gy = grad if ctx.needs_input_grad[2] else None
        return gx, None, gy


class SplitSigns(Function):
    """Two outputs: the positive and the negative part."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0), x.clamp(max=0)

    @staticmethod
    @once_differentiable
    def backward(ctx, g_pos, g_neg):
        (x,) = ctx.saved_tensors
        ctx.grad_mode_in_backward = minitorch.is_grad_enabled()
        return minitorch.where(x > 0, g_pos, g_neg)


def test_custom_function_with_numbers_needs_input_grad_and_saved_tensors():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    y = minitorch.tensor([0.5, 0.5])
    out = ScaledCube.apply(x, 2.0, y)
    assert type(out.grad_fn).__name__ == "ScaledCubeBackward"
    assert out.grad_fn.needs_input_grad == (True, False, False)
    assert graph_signature(out) == ("ScaledCubeBackward", ((("AccumulateGrad", ()), 0),
                                                          (None, 0)))
    out.sum().backward()
    close(x.grad, [6.0, 24.0])
    assert y.grad is None


def test_custom_function_second_order_through_its_backward():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = minitorch.autograd.grad(ScaledCube.apply(x, 2.0, x).sum(), x, create_graph=True)
    close(g, [7.0, 25.0])
    g.sum().backward()
    close(x.grad, [12.0, 24.0])  # d/dx (6 x^2 + 1)


def test_custom_function_with_two_outputs_and_once_differentiable():
    x = minitorch.tensor([-1.0, 2.0], requires_grad=True)
    pos, neg = SplitSigns.apply(x)
    assert pos.grad_fn is neg.grad_fn and (pos._output_nr, neg._output_nr) == (0, 1)
    (pos * 3).sum().backward()  # neg gets no gradient: backward sees zeros for it
    close(x.grad, [0.0, 3.0])
    assert pos.grad_fn.grad_mode_in_backward is False


def test_custom_function_mark_non_differentiable_and_materialize_grads():
    class ArgMaxAndMax(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            i = x.argmax()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(x, i)
            return x.max(), i

        @staticmethod
        def backward(ctx, g, g_index):
            x, i = ctx.saved_tensors
            ctx.got = (g_index,)
            out = minitorch.zeros_like(x)
            out[i] = g
            return out

    x = minitorch.tensor([1.0, 5.0, 2.0], requires_grad=True)
    value, index = ArgMaxAndMax.apply(x)
    assert not index.requires_grad and value.requires_grad
    value.backward()
    close(x.grad, [0.0, 1.0, 0.0])
    assert value.grad_fn.got == (None,)


def test_custom_function_returning_an_input_unchanged():
    class Identity(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = minitorch.tensor([1.0], requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and y.grad_fn is not None
    y.backward()
    close(x.grad, [2.0])


# ---------------------------------------------------------------- second order by hand
@pytest.mark.parametrize("f, second", [
    (lambda x: x ** 3, lambda x: 6 * x),
    (lambda x: x.tanh(), lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2)),
    (lambda x: x.sigmoid(), lambda x: _sig(x) * (1 - _sig(x)) * (1 - 2 * _sig(x))),
    (lambda x: x.exp() * x.sin(), lambda x: 2 * np.exp(x) * np.cos(x)),
    (lambda x: x.log() / x, lambda x: (2 * np.log(x) - 3) / x ** 3),
])
def test_second_derivatives_by_hand(f, second):
    values = np.array([0.3, 1.2, 2.0])
    x = minitorch.tensor(values, requires_grad=True)
    (g,) = minitorch.autograd.grad(f(x).sum(), x, create_graph=True)
    assert g.requires_grad
    (h,) = minitorch.autograd.grad(g.sum(), x)
    close(h, second(values), rtol=1e-10)


def _sig(x):
    return 1 / (1 + np.exp(-x))


def test_hessian_vector_product_of_a_matmul_chain():
    a = np.array([[1.0, 2.0], [0.5, -1.0]])
    w = minitorch.tensor([[0.3, -0.2], [0.1, 0.4]], dtype=minitorch.float64, requires_grad=True)
    loss = ((minitorch.from_numpy(a) @ w @ w) ** 2).sum() / 2
    (g,) = minitorch.autograd.grad(loss, w, create_graph=True)
    v = minitorch.ones(2, 2, dtype=minitorch.float64)
    (hv,) = minitorch.autograd.grad((g * v).sum(), w)
    # the same product by central differences of the gradient
    def grad_at(wv):
        t = minitorch.tensor(wv, requires_grad=True)
        (gg,) = minitorch.autograd.grad(((minitorch.from_numpy(a) @ t @ t) ** 2).sum() / 2, t)
        return gg.numpy()

    w0, eps = w.detach().numpy(), 1e-6
    expected = (grad_at(w0 + eps) - grad_at(w0 - eps)) / (2 * eps)
    close(hv, expected, rtol=1e-6)


def test_backward_from_several_roots_on_the_same_node():
    x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a, b, _ = x.split(1)  # three outputs of one SplitBackward0 node
    minitorch.autograd.backward([a, b], [minitorch.ones(1), minitorch.full((1,), 2.0)])
    close(x.grad, [1.0, 2.0, 0.0])
    y = x * 2
    minitorch.autograd.backward([y, y], [minitorch.ones(3), minitorch.ones(3)])
    close(x.grad, [5.0, 6.0, 4.0])


@pytest.mark.parametrize("switch_off", ["requires_grad_", "detach_"])
def test_a_leaf_switched_off_after_recording_gets_no_gradient_as_in_torch(switch_off):
    """PyTorch's AccumulateGrad adds nothing into a leaf that no longer requires grad (frozen
    after the forward pass, or detached in place); its hooks still run."""
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    seen = []
    for m in (minitorch, torch):
        calls = []
        x = m.ones(2, requires_grad=True)
        other = m.ones(2, requires_grad=True)
        x.register_hook(lambda g, calls=calls: calls.append("hook"))
        x.register_post_accumulate_grad_hook(lambda t, calls=calls: calls.append("post"))
        loss = (x * 2 + other * 3).sum()
        x.requires_grad_(False) if switch_off == "requires_grad_" else x.detach_()
        loss.backward()
        seen.append((x.grad is None, other.grad.tolist(), calls))
    assert seen[0] == seen[1]


# gradcheck and gradgradcheck as the tutorials call them
def _bad_cube(lib):
    """A Function whose backward is wrong: its Jacobian is not diagonal, so the layout of
    gradcheck's message shows."""
    class Bad(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return lib.stack([x.sum(), (x * x).sum() * 2, x[0] * 3])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g[0] + g[1] * x + g[2]

    return Bad


@pytest.mark.parametrize(("dtype", "second_input"), [("float64", False), ("float32", False),
                                                     ("float64", True)])
def test_gradcheck_error_shows_pytorchs_jacobians(dtype, second_input):
    """gradcheck's GradcheckError (a RuntimeError) prints both Jacobians as PyTorch does: tensors
    of the input's dtype, one row per input element, one column per output element; with
    several wrong pairs, it names the first in PyTorch's order (output by output)."""
    import warnings

    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    messages = []
    for lib in (minitorch, torch):
        bad = _bad_cube(lib)
        x = lib.tensor([1.0, 2.0], dtype=getattr(lib, dtype), requires_grad=True)
        y = lib.tensor([3.0], dtype=getattr(lib, dtype), requires_grad=True)
        args = (x, y) if second_input else (x,)
        fn = ((lambda a, b, bad=bad: (bad.apply(b.expand(2)), bad.apply(a))) if second_input
              else bad.apply)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the float32 warning
            assert lib.autograd.gradcheck(fn, args, raise_exception=False) is False
            with pytest.raises(RuntimeError) as info:
                lib.autograd.gradcheck(fn, args)
        assert type(info.value).__name__ == "GradcheckError"
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_gradcheck_takes_pytorchs_keywords():
    """The tutorials pass ``fast_mode`` (and PyTorch's other switches): gradcheck and
    gradgradcheck accept them and give PyTorch's verdicts."""
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    kw = dict(nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, masked=None)
    verdicts = []
    for lib in (minitorch, torch):
        x = lib.tensor([0.5, -1.5, 2.0], dtype=lib.float64, requires_grad=True)
        bad = _bad_cube(lib)
        verdicts.append([
            lib.autograd.gradcheck(lambda t: t.sin() * t, (x,), fast_mode=False, **kw),
            lib.autograd.gradcheck(lambda t: t.sin() * t, (x,), fast_mode=True, **kw),
            lib.autograd.gradcheck(bad.apply, (x,), fast_mode=True, raise_exception=False),
            lib.autograd.gradgradcheck(lambda t: t.sin() * t, (x,), fast_mode=True,
                                       gen_non_contig_grad_outputs=True,
                                       check_rev_over_rev=True, check_fwd_over_rev=False),
        ])
    assert verdicts[0] == verdicts[1] == [True, True, False, True]


@pytest.mark.parametrize("case", ["one", "several", "not_differentiable", "given"])
def test_gradgradcheck_draws_pytorchs_random_grad_outputs(case):
    """Without grad_outputs, gradgradcheck draws them as PyTorch does (``make_tensor`` in
    [-1, 1) from the global generator, one per output that requires grad), so the numbers a
    program draws after the check are PyTorch's."""
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    draws = []
    for lib in (minitorch, torch):
        lib.manual_seed(0)
        x = lib.rand(2, 3, dtype=lib.float64, requires_grad=True)
        fn = {"one": lambda t: t ** 3,
              "several": lambda t: (t.exp(), (t * t).sum(0)),
              "not_differentiable": lambda t: (t ** 2, t.detach().argmax()),
              "given": lambda t: t ** 3}[case]
        go = lib.ones(2, 3, dtype=lib.float64, requires_grad=True) if case == "given" else None
        assert lib.autograd.gradgradcheck(fn, (x,), go) is True
        draws.append(lib.rand(4).tolist())
    assert draws[0] == draws[1]

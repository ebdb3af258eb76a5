"""The API tutorials meet that minitorch lacked before issue 16, each against PyTorch:
backends/accelerator/default device, ``out=``, the legacy typed constructors, new elementwise
and reduction ops, ``unique``, ``index_add``, indexing with ``range``, in-place variants,
module hooks and adaptive pooling.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch as mt
from tests._oracle import assert_same_values

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _both(a, requires_grad=False):
    a = np.asarray(a)
    return (mt.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


def _same_error(fn, exc=Exception):
    with pytest.raises(exc) as ref:
        fn(torch)
    with pytest.raises(type(ref.value)) as mine:
        fn(mt)
    assert str(mine.value) == str(ref.value)


# ---------------------------------------------------------------- backends and devices
def test_backends_answer_as_torch_cpu_build():
    assert mt.backends.mps.is_available() is torch.backends.mps.is_available() is False
    assert mt.backends.mps.is_built() is False
    assert mt.backends.cudnn.is_available() is False
    assert mt.backends.cudnn.version() is None
    assert mt.backends.cudnn.enabled is True
    mt.backends.cudnn.benchmark = True  # tutorials set it; it is kept
    assert mt.backends.cudnn.benchmark is True
    mt.backends.cudnn.benchmark = False
    assert mt.backends.cuda.is_built() in (True, False)
    assert mt.backends.cuda.matmul.allow_tf32 is False


def test_accelerator_agrees_with_cuda():
    available = mt.cuda.is_available()
    assert mt.accelerator.is_available() is available
    assert mt.accelerator.device_count() == mt.cuda.device_count()
    if available:
        assert mt.accelerator.current_accelerator() == mt.device("cuda")
    else:
        assert mt.accelerator.current_accelerator() is None
        _same_error(lambda lib: lib.accelerator.current_device_index(), RuntimeError)
    device = (mt.accelerator.current_accelerator().type if mt.accelerator.is_available()
              else "cpu")
    assert mt.zeros(1, device=device).device.type == device


def test_default_device():
    assert mt.get_default_device() == mt.device("cpu")
    mt.set_default_device("cpu")
    try:
        assert mt.zeros(2).device == mt.device("cpu")
    finally:
        mt.set_default_device(None)
    assert repr(mt.get_default_device()) == repr(torch.get_default_device())
    if not mt.cuda.is_available():
        with pytest.raises(RuntimeError, match="Cannot use device 'cuda'"):
            mt.set_default_device("cuda")
        assert mt.get_default_device().type == "cpu"


def test_device_equality_as_torch():
    """A device equals only a device: ``t.device == "cpu"`` is False in PyTorch, and here."""
    def answers(lib):
        cpu, t = lib.device("cpu"), lib.zeros(2)
        return [cpu == "cpu", cpu != "cpu", "cpu" == cpu, t.device == "cpu",
                t.device == lib.device("cpu"), t.device != lib.device("cpu"),
                t.device.type == "cpu", cpu == lib.device("cpu", 0), cpu == None,  # noqa: E711
                lib.device("cuda", 0) == "cuda:0", lib.device("cuda:1") == lib.device("cuda", 1),
                {lib.device("cpu"): 1}.get(t.device), hash(cpu) == hash(lib.device("cpu"))]
    assert answers(mt) == answers(torch)
    assert answers(mt)[:4] == [False, True, False, False]  # PyTorch's surprise, kept


@pytest.mark.parametrize("base,sizes", [
    ((1, 2), (1, 2)), ((2,), (1, 2)), ((2, 1), (2, 1)), ((2,), (1, 1, -1)), ((1, 2), (1, -1)),
    ((1, 2), (3, 2)), ((2,), (3, 2)), ((2, 1), (2, 4)), ((), (1,)), ((), (3,)), ((0,), (2, 0)),
])
def test_writing_into_an_expanded_tensor_as_torch(base, sizes):
    """An expanded view may be written into unless it repeats memory: ``x.expand(1, 2)`` of a
    (2,) tensor repeats nothing, and in-place ops on it change ``x`` (as in PyTorch); one that
    repeats an element is refused with PyTorch's error."""
    def run(lib):
        x = lib.arange(float(np.prod(base))).reshape(base)
        try:
            x.expand(*sizes).add_(1.0)
        except RuntimeError as e:
            return str(e)
        return x.tolist()
    assert run(mt) == run(torch)


# ---------------------------------------------------------------- out=
@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "matmul"])
@pytest.mark.parametrize("out_shape", [(2, 3), (0,), (5,)])
def test_out_matches_torch(name, out_shape):
    a = np.arange(6, dtype=np.float32).reshape(2, 3) + 1
    b = (np.arange(9, dtype=np.float32).reshape(3, 3) + 1) if name == "matmul" else a[::-1].copy()
    res = {}
    for lib in (mt, torch):
        out = lib.zeros(*out_shape)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = getattr(lib, name)(lib.tensor(a), lib.tensor(b), out=out)
        assert r is out
        res[lib] = (out, [str(x.message)[:60] for x in w])
    assert_same_values(res[mt][0], res[torch][0])
    assert res[mt][1] == res[torch][1]  # the resize warning, only for a non-empty wrong shape


def test_out_casts_safely_and_refuses_unsafe_casts():
    for lib in (mt, torch):
        out = lib.zeros(2, dtype=lib.float64)
        lib.add(lib.ones(2), 1, out=out)
        assert out.dtype == lib.float64 and out.tolist() == [2.0, 2.0]
    _same_error(lambda lib: lib.add(lib.ones(2), 1, out=lib.zeros(2, dtype=lib.int64)),
                RuntimeError)


def test_out_refuses_autograd():
    _same_error(lambda lib: lib.mul(lib.ones(2, requires_grad=True), 2, out=lib.zeros(2)),
                RuntimeError)
    _same_error(lambda lib: lib.matmul(lib.ones(2, 2), lib.ones(2, 2),
                                       out=lib.zeros(2, 2, requires_grad=True)), RuntimeError)
    for lib in (mt, torch):
        out = lib.zeros(2, requires_grad=True)
        with lib.no_grad():
            lib.add(lib.ones(2), 1, out=out)
        assert out.tolist() == [2.0, 2.0]


def test_factories_with_out():
    for lib in (mt, torch):
        out = lib.empty(3, dtype=lib.float64)
        assert lib.rand(2, 2, out=out) is out
        assert out.shape == (2, 2) and out.dtype == lib.float64
        lib.zeros(4, out=out)
        assert out.tolist() == [0.0] * 4
        lib.ones(2, out=out)
        assert out.tolist() == [1.0, 1.0]
        lib.randn(3, out=out)
        assert out.shape == (3,)
    _same_error(lambda lib: lib.rand(2, out=lib.empty(2, dtype=lib.float64),
                                     dtype=lib.float32), RuntimeError)


# ---------------------------------------------------------------- legacy constructors
@pytest.mark.parametrize("name", ["FloatTensor", "DoubleTensor", "LongTensor", "IntTensor",
                                  "BoolTensor", "ByteTensor"])
def test_legacy_constructors(name):
    for data in ([1, 0, 2], [[1.7, 2.2]] if name == "ByteTensor" else [[1.7, -2.2]],
                 np.array([3, 4])):
        assert_same_values(getattr(mt, name)(data), getattr(torch, name)(data))
    assert getattr(mt, name)(2, 3).shape == getattr(torch, name)(2, 3).shape
    assert getattr(mt, name)().shape == getattr(torch, name)().shape
    assert repr(getattr(mt, name)) == repr(getattr(torch, name))
    m = getattr(mt, name)([1])
    assert isinstance(m, getattr(mt, name)) and isinstance(m, mt.Tensor)
    other = "LongTensor" if name != "LongTensor" else "FloatTensor"
    assert not isinstance(m, getattr(mt, other))
    _same_error(lambda lib: getattr(lib, name)(2.5), TypeError)


# ---------------------------------------------------------------- new operations
@pytest.mark.parametrize("name", ["ceil", "floor", "asin", "acos", "atan"])
def test_unary_ops_values_and_grads(name):
    a = np.array([-0.9, -0.5, 0.0, 0.3, 0.75])
    m, t = _both(a, requires_grad=True)
    rm, rt = getattr(mt, name)(m), getattr(torch, name)(t)
    assert_same_values(rm, rt, rtol=1e-12, atol=1e-12)
    assert rm.grad_fn.name() == rt.grad_fn.name()
    rm.sum().backward()
    rt.sum().backward()
    assert_same_values(m.grad, t.grad, rtol=1e-12, atol=1e-12)
    assert_same_values(getattr(m.detach(), name)(), getattr(t.detach(), name)())
    if name in ("asin", "acos", "atan"):
        assert mt.autograd.gradcheck(getattr(mt, name), (m,))


def test_ceil_floor_keep_integer_dtype_and_trig_promotes_ints():
    for name in ("ceil", "floor", "asin"):
        assert_same_values(getattr(mt, name)(mt.tensor([1, 2])),
                           getattr(torch, name)(torch.tensor([1, 2])))


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor"])
def test_bitwise(name):
    for a, b in [([1, 2, 7], [3, 3, 5]), ([True, False], [True, True])]:
        m = getattr(mt, name)(mt.tensor(a), mt.tensor(b))
        assert_same_values(m, getattr(torch, name)(torch.tensor(a), torch.tensor(b)))
        assert_same_values(getattr(mt.tensor(a), name)(mt.tensor(b)), m)
    assert_same_values(getattr(mt, name)(mt.tensor([5, 6]), 3),
                       getattr(torch, name)(torch.tensor([5, 6]), 3))
    _same_error(lambda lib: getattr(lib, name)(lib.tensor([1.0]), lib.tensor([1.0])),
                NotImplementedError)
    assert_same_values(mt.bitwise_not(mt.tensor([1, -2])), torch.bitwise_not(torch.tensor([1, -2])))


@pytest.mark.parametrize("dim", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdim", [False, True])
def test_prod_with_zeros(dim, keepdim):
    a = np.array([[1.5, 0.0, 3.0], [2.0, 0.0, 0.0], [4.0, 5.0, -0.5], [1.0, 2.0, 3.0]])
    m, t = _both(a, requires_grad=True)
    if dim is None:
        rm, rt = m.prod(), t.prod()
    else:
        rm, rt = m.prod(dim, keepdim), t.prod(dim, keepdim)
    assert_same_values(rm, rt, rtol=1e-12)
    assert rm.grad_fn.name() == rt.grad_fn.name()
    w = np.random.default_rng(0).standard_normal(tuple(rt.shape))
    (rm * mt.tensor(w)).sum().backward()
    (rt * torch.tensor(w)).sum().backward()
    assert_same_values(m.grad, t.grad, rtol=1e-12, atol=1e-12)


def test_prod_dtypes():
    for data, kw in [([1, 2, 3], {}), ([True, True], {}), ([1.0, 2.0], {"dtype": "float64"})]:
        kw_m = {k: getattr(mt, v) for k, v in kw.items()}
        kw_t = {k: getattr(torch, v) for k, v in kw.items()}
        assert_same_values(mt.prod(mt.tensor(data), **kw_m), torch.prod(torch.tensor(data), **kw_t))
    assert_same_values(mt.prod(mt.tensor([1, 2, 3]), 0, keepdim=True),
                       torch.prod(torch.tensor([1, 2, 3]), 0, keepdim=True))
    assert_same_values(mt.tensor(5.0).prod(0), torch.tensor(5.0).prod(0))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=12), st.booleans(), st.booleans())
def test_unique_matches_torch(values, inverse, counts):
    rm = mt.unique(mt.tensor(values), return_inverse=inverse, return_counts=counts)
    rt = torch.unique(torch.tensor(values), return_inverse=inverse, return_counts=counts)
    rm, rt = (rm, rt) if isinstance(rt, tuple) else ((rm,), (rt,))
    assert len(rm) == len(rt)
    for a, b in zip(rm, rt):
        assert_same_values(a, b)


def test_unique_dim_and_method():
    a = [[1, 2], [1, 2], [3, 4], [0, 9]]
    for rm, rt in zip(mt.unique(mt.tensor(a), dim=0, return_inverse=True, return_counts=True),
                      torch.unique(torch.tensor(a), dim=0, return_inverse=True,
                                   return_counts=True)):
        assert_same_values(rm, rt)
    assert_same_values(mt.tensor([[3.0, 1.0], [1.0, 2.0]]).unique(sorted=False),
                       torch.tensor([[3.0, 1.0], [1.0, 2.0]]).unique(sorted=False))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_add_values_and_grads(dim):
    rng = np.random.default_rng(dim + 5)
    base = rng.standard_normal((3, 4))
    index = np.array([2, 0, 2])
    src_shape = list(base.shape)
    src_shape[dim] = 3
    src = rng.standard_normal(src_shape)
    bm, bt = _both(base, requires_grad=True)
    sm, st_ = _both(src, requires_grad=True)
    rm = mt.index_add(bm * 1, dim, mt.tensor(index), sm, alpha=2.5)
    rt = torch.index_add(bt * 1, dim, torch.tensor(index), st_, alpha=2.5)
    assert_same_values(rm, rt, rtol=1e-12)
    assert rm.grad_fn.name() == rt.grad_fn.name()
    w = rng.standard_normal(base.shape)
    (rm * rm * mt.tensor(w)).sum().backward()
    (rt * rt * torch.tensor(w)).sum().backward()
    assert_same_values(bm.grad, bt.grad, rtol=1e-12)
    assert_same_values(sm.grad, st_.grad, rtol=1e-12)


def test_index_add_in_place_and_errors():
    for lib in (mt, torch):
        x = lib.zeros(3, 4)
        r = x.index_add_(0, lib.tensor([0, 0]), lib.arange(8.0).reshape(2, 4), alpha=2)
        assert r is x
    assert_same_values(*(lib.zeros(3, 4).index_add_(0, lib.tensor([0, 0]),
                                                     lib.arange(8.0).reshape(2, 4), alpha=2)
                         for lib in (mt, torch)))
    s = np.arange(8.0, dtype=np.float32).reshape(2, 4)
    for args in [(0, [0.0, 1.0]), (0, [0, 5]), (0, [0]), (1, [0, 1]), (0, [[0, 1]])]:
        _same_error(lambda lib, a=args: lib.zeros(3, 4).index_add_(
            a[0], lib.tensor(a[1]), lib.tensor(s)), Exception)
    _same_error(lambda lib: lib.zeros(3, 4).index_add_(0, lib.tensor([0, 1]),
                                                       lib.tensor(s).double()), RuntimeError)


def test_index_select():
    m, t = _both(np.arange(6.0).reshape(2, 3), requires_grad=True)
    rm, rt = m.index_select(1, mt.tensor([2, 0, 2])), t.index_select(1, torch.tensor([2, 0, 2]))
    assert_same_values(rm, rt)
    assert rm.grad_fn.name() == rt.grad_fn.name()
    rm.sum().backward()
    rt.sum().backward()
    assert_same_values(m.grad, t.grad)


@pytest.mark.parametrize("key", [range(3), range(0, 5, 2), range(0), (slice(None), range(1, 3)),
                                 (range(2), 1)])
def test_indexing_with_a_range(key):
    a = np.arange(20.0).reshape(5, 4)
    m, t = _both(a, requires_grad=True)
    rm, rt = m[key], t[key]
    assert_same_values(rm, rt)
    rm.sum().backward()
    rt.sum().backward()
    assert_same_values(m.grad, t.grad)


# ---------------------------------------------------------------- in-place variants
INPLACE = ["sin_", "cos_", "exp_", "log_", "sqrt_", "abs_", "tanh_", "sigmoid_", "relu_",
           "ceil_", "floor_", "reciprocal_", "square_", "asin_", "atan_"]


@pytest.mark.parametrize("name", INPLACE)
def test_elementwise_in_place(name):
    a = np.array([0.1, 0.4, 0.9])
    results = {}
    for lib in (mt, torch):
        x = lib.tensor(a)
        assert getattr(x, name)() is x
        leaf = lib.tensor(a, requires_grad=True)
        y = leaf * 1
        getattr(y, name)()
        (y * y).sum().backward()
        results[lib] = (x, y, leaf.grad, y.grad_fn.name())
    for a_, b_ in zip(results[mt][:3], results[torch][:3]):
        assert_same_values(a_, b_, rtol=1e-12)
    assert results[mt][3] == results[torch][3]
    _same_error(lambda lib: getattr(lib.tensor(a, requires_grad=True), name)(), RuntimeError)


@pytest.mark.parametrize(("name", "args"), [("unsqueeze_", (0,)), ("unsqueeze_", (-1,)),
                                            ("squeeze_", ()), ("squeeze_", (1,)),
                                            ("t_", ()), ("transpose_", (0, 1))])
def test_shape_in_place(name, args):
    a = np.arange(6.0).reshape(2, 1, 3) if name == "squeeze_" else np.arange(6.0).reshape(2, 3)
    results = {}
    for lib in (mt, torch):
        x = lib.tensor(a)
        assert getattr(x, name)(*args) is x
        leaf = lib.tensor(a, requires_grad=True)
        y = leaf * 2
        getattr(y, name)(*args)
        (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        results[lib] = (x, leaf.grad, y.grad_fn.name())
    assert_same_values(results[mt][0], results[torch][0])
    assert_same_values(results[mt][1], results[torch][1])
    assert results[mt][2] == results[torch][2]
    _same_error(lambda lib: getattr(lib.tensor(a, requires_grad=True), name)(*args),
                RuntimeError)


def test_clamp_min_max():
    for name, arg in [("clamp_min", 0.5), ("clamp_max", 0.5)]:
        m, t = _both([0.1, 0.9])
        assert_same_values(getattr(m, name)(arg), getattr(t, name)(arg))
        getattr(m, name + "_")(arg)
        getattr(t, name + "_")(arg)
        assert_same_values(m, t)


# ---------------------------------------------------------------- module hooks
def _shapes(gs):
    return [None if g is None else tuple(g.shape) for g in gs]


def _linear_pair():
    torch.manual_seed(0)
    ref = torch.nn.Linear(2, 3)
    mine = mt.nn.Linear(2, 3)
    mine.load_state_dict({k: mt.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    return mine, ref


def test_full_backward_hook_and_pre_hook_see_torch_gradients():
    logs = {}
    for lib, lin in zip((mt, torch), _linear_pair()):
        log = []
        h1 = lin.register_full_backward_pre_hook(lambda m, go, log=log: log.append(
            ("pre", [g.tolist() for g in go])))
        h2 = lin.register_full_backward_hook(lambda m, gi, go, log=log: log.append(
            ("full", [g.tolist() for g in gi], [g.tolist() for g in go])))
        x = lib.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
        (lin(x) ** 2).sum().backward()
        h1.remove()
        h2.remove()
        (lin(x) ** 2).sum().backward()  # removed: nothing logged
        logs[lib] = log
    assert len(logs[mt]) == 2
    assert logs[mt][0][0] == "pre" and logs[mt][1][0] == "full"
    for a, b in zip(logs[mt], logs[torch]):
        np.testing.assert_allclose(np.array(a[1]), np.array(b[1]), rtol=1e-5)
        if len(a) == 3:
            np.testing.assert_allclose(np.array(a[2]), np.array(b[2]), rtol=1e-5)


def test_full_backward_hook_may_replace_grads():
    grads = {}
    for lib, lin in zip((mt, torch), _linear_pair()):
        lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
        lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 3,))
        x = lib.ones(1, 2, requires_grad=True)
        lin(x).sum().backward()
        grads[lib] = (x.grad, lin.weight.grad)
    for a, b in zip(grads[mt], grads[torch]):
        assert_same_values(a, b)


def test_full_backward_hook_with_several_inputs_and_outputs():
    logs = {}
    for lib in (mt, torch):
        class M(lib.nn.Module):
            def forward(self, a, scale, b):
                return a * b * scale, a + b

        log = []
        m = M()
        m.register_full_backward_hook(lambda mod, gi, go, log=log: log.append(
            ([None if g is None else g.tolist() for g in gi],
             [None if g is None else g.tolist() for g in go])))
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = lib.tensor([3.0, 4.0])
        out1, _ = m(a, 2.0, b)
        (out1.sum() * 3).backward()
        logs[lib] = log
    assert logs[mt] == logs[torch]


def test_full_backward_hook_when_no_input_requires_grad_warns():
    for lib, lin in zip((mt, torch), _linear_pair()):
        log = []
        lin.register_full_backward_hook(lambda m, gi, go, log=log: log.append(_shapes(gi)))
        with pytest.warns(UserWarning, match="Full backward hook is firing"):
            lin(lib.ones(4, 2)).sum().backward()
        assert log == [[None]]


def test_legacy_backward_hook_sees_the_last_node():
    logs = {}
    for lib, lin in zip((mt, torch), _linear_pair()):
        log = []
        lin.register_backward_hook(lambda m, gi, go, log=log: log.append(
            (_shapes(gi), _shapes(go))))
        seq = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU())
        seq.register_backward_hook(lambda m, gi, go, log=log: log.append(
            (_shapes(gi), _shapes(go))))
        x = lib.ones(4, 2, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lin(x).sum().backward()
            seq(x).sum().backward()
        logs[lib] = log
    assert logs[mt] == logs[torch]


def test_mixing_hook_kinds_is_an_error():
    def mix(lib):
        lin = lib.nn.Linear(2, 3)
        lin.register_full_backward_hook(lambda *a: None)
        lin.register_backward_hook(lambda *a: None)

    _same_error(mix, RuntimeError)


def test_forward_hooks_with_kwargs_and_prepend():
    logs = {}
    for lib, lin in zip((mt, torch), _linear_pair()):
        log = []
        lin.register_forward_pre_hook(lambda m, args, kwargs, log=log: log.append(
            ("pre", len(args), sorted(kwargs))), with_kwargs=True)
        lin.register_forward_hook(lambda m, args, kwargs, out, log=log: log.append(
            ("post", len(args), sorted(kwargs), tuple(out.shape))), with_kwargs=True)
        lin.register_forward_hook(lambda m, args, out, log=log: log.append("first"),
                                  prepend=True)
        lin(input=lib.ones(1, 2))
        lin(lib.ones(1, 2))
        logs[lib] = log
    assert logs[mt] == logs[torch]


# ---------------------------------------------------------------- adaptive pooling
@pytest.mark.parametrize("in_hw", [(5, 7), (4, 4), (7, 3), (1, 6)])
@pytest.mark.parametrize("out_size", [1, 2, 3, (2, None), (None, 3), (5, 2)])
@pytest.mark.parametrize("kind", ["avg", "max"])
def test_adaptive_pool2d(in_hw, out_size, kind):
    a = np.random.default_rng(sum(in_hw)).standard_normal((2, 3, *in_hw))
    m, t = _both(a, requires_grad=True)
    fn = f"adaptive_{kind}_pool2d"
    rm = getattr(mt.nn.functional, fn)(m, out_size)
    rt = getattr(torch.nn.functional, fn)(t, out_size)
    assert_same_values(rm, rt, rtol=1e-12, atol=1e-12)
    assert rm.grad_fn.name() == rt.grad_fn.name()
    w = np.random.default_rng(1).standard_normal(tuple(rt.shape))
    (rm * mt.tensor(w)).sum().backward()
    (rt * torch.tensor(w)).sum().backward()
    assert_same_values(m.grad, t.grad, rtol=1e-12, atol=1e-12)
    if kind == "max":
        _, im = getattr(mt.nn.functional, fn)(m, out_size, return_indices=True)
        _, it = getattr(torch.nn.functional, fn)(t, out_size, return_indices=True)
        assert_same_values(im, it)


@pytest.mark.parametrize("kind", ["Avg", "Max"])
@pytest.mark.parametrize("out", [1, 2, 4])
def test_adaptive_pool1d_and_modules(kind, out):
    a = np.random.default_rng(out).standard_normal((2, 3, 7)).astype(np.float32)
    mod_m = getattr(mt.nn, f"Adaptive{kind}Pool1d")(out)
    mod_t = getattr(torch.nn, f"Adaptive{kind}Pool1d")(out)
    assert repr(mod_m) == repr(mod_t)
    assert_same_values(mod_m(mt.tensor(a)), mod_t(torch.tensor(a)))
    assert_same_values(mod_m(mt.tensor(a[0])), mod_t(torch.tensor(a[0])))
    mod_m = getattr(mt.nn, f"Adaptive{kind}Pool2d")((out, None))
    mod_t = getattr(torch.nn, f"Adaptive{kind}Pool2d")((out, None))
    assert repr(mod_m) == repr(mod_t)
    assert_same_values(mod_m(mt.tensor(a)), mod_t(torch.tensor(a)))


def test_adaptive_pool_errors():
    _same_error(lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(5, 7), 2),
                RuntimeError)
    _same_error(lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(5), 2), RuntimeError)
    _same_error(lambda lib: lib.nn.functional.adaptive_avg_pool1d(lib.ones(2, 2, 2, 2), 2),
                RuntimeError)


def test_adaptive_max_pool_double_backward():
    x = mt.randn(1, 2, 5, 5, dtype=mt.float64, requires_grad=True)
    assert mt.autograd.gradgradcheck(lambda t: mt.nn.functional.adaptive_max_pool2d(t, 3) ** 2,
                                     (x,))
    assert mt.autograd.gradgradcheck(lambda t: mt.nn.functional.adaptive_avg_pool2d(t, 3) ** 2,
                                     (x,))


def test_tensor_type_accepts_legacy_types_and_names():
    for lib in (mt, torch):
        x = lib.ones(2)
        assert x.type(lib.LongTensor).dtype == lib.int64
        assert x.type("torch.DoubleTensor").dtype == lib.float64
        assert x.type(lib.int32).dtype == lib.int32
        assert x.type() == "torch.FloatTensor"
    _same_error(lambda lib: lib.ones(2).type("foo"), ValueError)


# ---------------------------------------------------------------- shapes and finite differences
@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.integers(0, 2), st.booleans(),
       st.integers(0, 1000))
def test_prod_any_shape_with_zeros(shape, dim, keepdim, seed):
    a = np.random.default_rng(seed).integers(-2, 3, size=shape).astype(np.float64)
    dim = dim % len(shape)
    m, t = _both(a, requires_grad=True)
    rm, rt = m.prod(dim, keepdim), t.prod(dim, keepdim)
    assert_same_values(rm, rt)
    rm.sum().backward()
    rt.sum().backward()
    assert_same_values(m.grad, t.grad)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(1, 9), st.integers(1, 9))
def test_adaptive_pools_any_size(h, w, oh, ow):
    a = np.random.default_rng(h * 10 + w).standard_normal((1, 2, h, w))
    for fn in ("adaptive_avg_pool2d", "adaptive_max_pool2d"):
        m, t = _both(a, requires_grad=True)
        rm = getattr(mt.nn.functional, fn)(m, (oh, ow))
        rt = getattr(torch.nn.functional, fn)(t, (oh, ow))
        assert_same_values(rm, rt, rtol=1e-12, atol=1e-12)
        (rm * rm).sum().backward()
        (rt * rt).sum().backward()
        assert_same_values(m.grad, t.grad, rtol=1e-12, atol=1e-12)


def test_finite_differences():
    gc = mt.autograd.gradcheck
    x = mt.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)
    src = mt.tensor(np.random.default_rng(1).standard_normal((2, 4)), requires_grad=True)
    assert gc(lambda t: t.prod(1), (x,))
    assert gc(lambda t: t.prod(), (x,))
    assert gc(lambda t, s: t.index_add(0, mt.tensor([2, 2]), s, alpha=0.5), (x, src))
    assert gc(lambda t: t.index_select(1, mt.tensor([3, 0, 3])), (x,))
    assert gc(lambda t: mt.nn.functional.adaptive_avg_pool1d(t.unsqueeze(0), 3), (x,))
    assert gc(lambda t: mt.linalg.vector_norm(t, 3, 1), (x,))
    cell = mt.nn.GRUCell(4, 3).double()
    assert gc(lambda t: cell(t), (x,))
    lstm = mt.nn.LSTM(4, 2, bidirectional=True).double()
    assert gc(lambda t: lstm(t.unsqueeze(1))[0], (x,))


# torch.nn.parallel and torch.use_deterministic_algorithms, as the DCGAN tutorial uses them
def test_nn_parallel_imports_and_holds_dataparallel():
    import importlib

    ref = importlib.import_module("torch.nn.parallel")
    mine = importlib.import_module("minitorch.nn.parallel")
    assert ref.DataParallel is torch.nn.DataParallel
    assert mine.DataParallel is mt.nn.DataParallel
    assert repr(mine.DataParallel(mt.nn.Linear(2, 1))) == \
        repr(ref.DataParallel(torch.nn.Linear(2, 1)))


def test_use_deterministic_algorithms_switches_like_torch():
    saved = (torch.are_deterministic_algorithms_enabled(),
             torch.is_deterministic_algorithms_warn_only_enabled())
    try:
        for args, kwargs in [((True,), {}), ((True,), {"warn_only": True}), ((False,), {}),
                             ((), {"mode": True})]:
            for lib in (torch, mt):
                assert lib.use_deterministic_algorithms(*args, **kwargs) is None
            assert mt.are_deterministic_algorithms_enabled() is \
                torch.are_deterministic_algorithms_enabled()
            assert mt.is_deterministic_algorithms_warn_only_enabled() is \
                torch.is_deterministic_algorithms_warn_only_enabled()
        for args, kwargs in [(("x",), {}), ((1,), {}), ((True,), {"warn_only": 1}),
                             ((None,), {})]:
            with pytest.raises(TypeError) as ref:
                torch.use_deterministic_algorithms(*args, **kwargs)
            with pytest.raises(TypeError) as mine:
                mt.use_deterministic_algorithms(*args, **kwargs)
            assert str(mine.value) == str(ref.value)
    finally:
        torch.use_deterministic_algorithms(saved[0], warn_only=saved[1])
        mt.use_deterministic_algorithms(False)


_NUMPY_FALLBACKS = {
    "transpose-axes": lambda lib, t: np.transpose(t, (1, 0)),
    "transpose": lambda lib, t: np.transpose(t),
    "sin": lambda lib, t: np.sin(t),
    "add": lambda lib, t: np.add(t, 1),
    "isnan": lambda lib, t: np.isnan(t),  # bool comes back as uint8, as in PyTorch
    "clip": lambda lib, t: np.clip(t, 0, 1),
    "reshape": lambda lib, t: np.reshape(t, (3, 2)),
    "round": lambda lib, t: np.round(t),
    "sin-0d": lambda lib, t: np.sin(t[0, 0]),
    "exp-int": lambda lib, t: np.exp(lib.tensor([1, 2])),
    "float64": lambda lib, t: np.exp(t.double()),
    "ravel": lambda lib, t: np.ravel(t),  # an ndarray in both
    "requires-grad": lambda lib, t: np.transpose(lib.ones(2, 2, requires_grad=True)),
}


@pytest.mark.parametrize("name", list(_NUMPY_FALLBACKS))
def test_numpy_functions_give_back_tensors_as_torch(name):
    """``np.transpose(img, (1, 2, 0))`` (the DCGAN tutorial) returns a tensor in PyTorch, through
    ``Tensor.__array_wrap__``; NumPy 2 warns about its one-argument form, in both."""
    data = np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]], dtype=np.float32)
    results = []
    for lib in (torch, mt):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                r = _NUMPY_FALLBACKS[name](lib, lib.tensor(data))
            except Exception as e:
                r = e
        results.append((r, [(x.category, str(x.message)) for x in w]))
    (ref, ref_w), (mine, mine_w) = results
    assert mine_w == ref_w
    if isinstance(ref, Exception):
        assert type(mine) is type(ref) and str(mine) == str(ref)
    elif isinstance(ref, torch.Tensor):
        assert isinstance(mine, mt.Tensor)
        assert_same_values(mine, ref)
    else:
        assert type(mine) is type(ref)
        np.testing.assert_array_equal(mine, ref)

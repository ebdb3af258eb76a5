"""Threshold, Hardshrink, Softshrink, Softmin, Softmax2d, GLU and PReLU against PyTorch: reprs,
outputs, gradients, graph-node names, in-place behaviour, parameters, state_dicts and errors.
The functions themselves (every family of inputs, the kinks, second derivatives, errors) are
compared in test_opinfo.py through ``_opinfo_samples_nn_more``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.array([[[-4.0, -0.5, -0.0, 0.0], [0.25, 0.5, 3.0, 6.0]],
              [[1.0, -1.0, 0.75, -0.3], [2.0, -2.0, 0.1, 9.0]]], np.float32)  # (2, 2, 4)

# (name, constructor arguments)
MODULES = [
    ("Threshold", (0.1, 20.0), {}), ("Threshold", (0.5, -1.0), {"inplace": True}),
    ("Threshold", (0, 7), {}),
    ("Hardshrink", (), {}), ("Hardshrink", (0.3,), {}),
    ("Softshrink", (), {}), ("Softshrink", (), {"lambd": 1.0}),
    ("Softmin", (), {"dim": 1}), ("Softmin", (-1,), {}),
    ("Softmax2d", (), {}),
    ("GLU", (), {}), ("GLU", (1,), {}),
    ("PReLU", (), {}), ("PReLU", (2,), {}), ("PReLU", (), {"num_parameters": 2, "init": -0.1}),
]


def _ids(case):
    name, args, kw = case
    return name + "".join(f"-{a}" for a in args) + "".join(f"-{k}{v}" for k, v in kw.items())


def _run(lib, module, inplace):
    x = lib.tensor(X, requires_grad=True)
    h = x * 1.0  # in place needs a non-leaf
    y = module(h)
    assert (y is h) == inplace
    y.backward(lib.tensor(np.linspace(0.5, 1.5, y.numel(), dtype=np.float32).reshape(y.shape)))
    params = [p.grad.numpy() for p in module.parameters()]
    node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
    return y.detach().numpy(), x.grad.numpy(), node, params


@pytest.mark.parametrize("case", MODULES, ids=[_ids(c) for c in MODULES])
def test_module_matches_torch(case):
    name, args, kw = case
    mine, ref = getattr(minitorch.nn, name)(*args, **kw), getattr(torch.nn, name)(*args, **kw)
    assert repr(mine) == repr(ref)
    assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in ref.named_parameters()]
    out, grad, node, params = _run(minitorch, mine, bool(kw.get("inplace")))
    out_t, grad_t, node_t, params_t = _run(torch, ref, bool(kw.get("inplace")))
    np.testing.assert_allclose(out, out_t, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(out_t))
    np.testing.assert_allclose(grad, grad_t, rtol=1e-6, atol=1e-7)
    for p, q in zip(params, params_t, strict=True):
        np.testing.assert_allclose(p, q, rtol=1e-6)
    assert node == node_t


def test_prelu_parameters_like_torch():
    for kw in ({}, {"num_parameters": 3, "init": 0.1}, {"dtype": "float64"}):
        mods = []
        for lib in (minitorch, torch):
            args = {k: getattr(lib, v) if k == "dtype" else v for k, v in kw.items()}
            lib.manual_seed(3)
            mods.append(lib.nn.PReLU(**args))
        mine, ref = mods
        assert list(mine.state_dict()) == list(ref.state_dict()) == ["weight"]
        assert str(mine.weight.dtype) == str(ref.weight.dtype)
        assert mine.num_parameters == ref.num_parameters and mine.init == ref.init
        np.testing.assert_array_equal(mine.weight.detach().numpy(), ref.weight.detach().numpy())
        assert repr(mine.weight) == repr(ref.weight)
        mine.weight.data.fill_(0.5)
        mine.reset_parameters()  # back to init, as PyTorch's
        np.testing.assert_array_equal(mine.weight.detach().numpy(), ref.weight.detach().numpy())


def test_models_print_and_train_like_torch():
    def build(lib):
        lib.manual_seed(0)
        return lib.nn.Sequential(
            lib.nn.Conv2d(2, 4, 3, padding=1), lib.nn.PReLU(4), lib.nn.Softmax2d(),
            lib.nn.Flatten(), lib.nn.Linear(16, 8), lib.nn.GLU(), lib.nn.Threshold(0.05, 0.0),
            lib.nn.Hardshrink(0.01), lib.nn.Softshrink(0.001), lib.nn.Linear(4, 3),
            lib.nn.Softmin(dim=1))
    mine, ref = build(minitorch), build(torch)
    assert repr(mine) == repr(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())
    x = np.linspace(-2, 2, 2 * 2 * 2 * 2, dtype=np.float32).reshape(2, 2, 2, 2)
    for lib, net in ((minitorch, mine), (torch, ref)):
        opt = lib.optim.SGD(net.parameters(), lr=0.5)
        for _ in range(3):
            opt.zero_grad()
            loss = (net(lib.tensor(x)) * lib.arange(3.0)).sum()
            loss.backward()
            opt.step()
    for (n, p), (_, q) in zip(mine.named_parameters(), ref.named_parameters(), strict=True):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-4,
                                   atol=1e-6, err_msg=n)


@pytest.mark.parametrize("make, x, exc", [
    (lambda lib: lib.nn.Softmax2d(), np.zeros((2, 3), np.float32), ValueError),
    (lambda lib: lib.nn.Softmax2d(), np.zeros((1, 2, 3, 4, 5), np.float32), ValueError),
    (lambda lib: lib.nn.PReLU(3), np.zeros((2, 4), np.float32), RuntimeError),
    (lambda lib: lib.nn.PReLU(), np.zeros((2, 4), np.float64), RuntimeError),
    (lambda lib: lib.nn.GLU(), np.zeros((2, 3), np.float32), RuntimeError),
    (lambda lib: lib.nn.Softshrink(-1.0), np.zeros(2, np.float32), RuntimeError),
    (lambda lib: lib.nn.Threshold(0.0, 1e40), np.zeros(2, np.float32), RuntimeError),
])
def test_module_errors_like_torch(make, x, exc):
    messages = []
    for lib in (minitorch, torch):
        with pytest.raises(exc) as info:
            make(lib)(lib.tensor(x))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_threshold_needs_its_arguments_like_torch():
    for lib in (minitorch, torch):
        with pytest.raises(TypeError, match="missing 2 required positional arguments"):
            lib.nn.Threshold()


def test_softmin_implicit_dim_warns_like_torch():
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmin"):
            lib.nn.Softmin()(lib.ones(2, 3))


@pytest.mark.parametrize("value", [-2.5, -0.5, -1, -255, -256, 2.5, 255.5])
def test_uint8_fill_values_like_torch(value):
    """A negative integer wraps into uint8, a negative float does not fit (the scalar check
    that threshold's value goes through; full(), fill_ and masked_fill wrapped -2.5 to 254)."""
    fills = (lambda lib: lib.full((2,), value, dtype=lib.uint8),
             lambda lib: lib.zeros(2, dtype=lib.uint8).fill_(value),
             lambda lib: lib.zeros(2, dtype=lib.uint8).masked_fill(lib.tensor([True, False]),
                                                                   value))
    outcomes = []
    for lib in (minitorch, torch):
        for fill in fills:
            try:
                outcomes.append(fill(lib).tolist())
            except RuntimeError as e:
                outcomes.append(str(e))
    assert outcomes[:3] == outcomes[3:]


# ------------------------------------------------------------------ channel and alpha dropout
DROPOUTS = [("Dropout1d", (2, 3, 4)), ("Dropout1d", (3, 4)), ("Dropout2d", (2, 3, 2, 2)),
            ("Dropout3d", (2, 2, 2, 2, 2)), ("Dropout3d", (2, 2, 2, 2)),
            ("AlphaDropout", (3, 4)), ("FeatureAlphaDropout", (2, 3, 2, 2)),
            ("Dropout", (3, 4))]


@pytest.mark.parametrize("name, shape", DROPOUTS, ids=[f"{n}-{len(s)}d" for n, s in DROPOUTS])
@pytest.mark.parametrize("p, dtype", [(0.5, "float32"), (0.3, "float16"), (0.7, "float64")])
def test_dropout_modules_draw_torchs_masks(name, shape, p, dtype):
    """Training mode: the same masks, bit for bit, after the same seed (and the same state
    after); evaluation mode: the input itself."""
    results = []
    for lib in (minitorch, torch):
        module = getattr(lib.nn, name)(p)
        lib.manual_seed(11)
        x = (lib.arange(1.0, math.prod(shape) + 1, dtype=getattr(lib, dtype))
             .reshape(shape) / 7).requires_grad_()
        y = module(x)
        y.backward(lib.ones_like(y))
        after = lib.rand(3)
        module.eval()
        results.append((repr(module), y.detach().numpy(), x.grad.numpy(), after.numpy(),
                        module(x) is x))
    for mine, ref in zip(*results, strict=True):
        np.testing.assert_array_equal(mine, ref)


@pytest.mark.parametrize("perm", [(1, 0), (0, 2, 1), (2, 1, 0), (1, 2, 0)])
def test_dropout_of_a_permuted_tensor_draws_in_memory_order(perm):
    """PyTorch draws the mask into ``empty_like(x)``, which keeps a transposed layout, walking
    memory in order: the mask of ``x.t()`` is not that of ``x.t().contiguous()``. minitorch
    drew it in the logical order before."""
    shape = (3, 4) if len(perm) == 2 else (2, 3, 4)
    a = np.arange(1, math.prod(shape) + 1, dtype=np.float32).reshape(shape)
    outs = []
    for lib in (minitorch, torch):
        lib.manual_seed(0)
        outs.append(lib.nn.functional.dropout(lib.tensor(a).permute(*perm), 0.5).numpy())
    np.testing.assert_array_equal(*outs)


def test_dropout_float16_scale_like_torch():
    """PyTorch divides the float16 mask by 1 - p in float32 and rounds once: 1 / (1 - 0.3) is
    1.429 in float16, where dividing by float16(0.7) gave 1.428."""
    outs = []
    for lib in (minitorch, torch):
        lib.manual_seed(0)
        outs.append(lib.nn.functional.dropout(lib.ones(64, dtype=lib.float16), 0.3).numpy())
    np.testing.assert_array_equal(*outs)


def test_dropout_module_errors_like_torch():
    for name in ("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"):
        for lib in (minitorch, torch):
            with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, "
                                                 "but got 1.5"):
                getattr(lib.nn, name)(1.5)


# ------------------------------------------------------------------ pixel shuffle
@pytest.mark.parametrize("name, arg, shape", [("PixelShuffle", 2, (2, 8, 2, 3)),
                                              ("PixelShuffle", 3, (9, 1, 2)),
                                              ("PixelUnshuffle", 2, (2, 2, 4, 6)),
                                              ("PixelUnshuffle", 3, (1, 1, 3, 6))])
def test_pixel_shuffle_modules_like_torch(name, arg, shape):
    results = []
    for lib in (minitorch, torch):
        module = getattr(lib.nn, name)(arg)
        x = lib.arange(float(math.prod(shape))).reshape(shape).requires_grad_()
        y = module(x)
        (y * lib.arange(float(y.numel())).reshape(y.shape)).sum().backward()
        node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
        results.append((repr(module), y.detach().numpy(), x.grad.numpy(), node))
    for mine, ref in zip(*results, strict=True):
        np.testing.assert_array_equal(mine, ref)


def test_pixel_shuffle_round_trip():
    x = minitorch.randn(2, 12, 3, 5)
    back = minitorch.nn.PixelUnshuffle(2)(minitorch.nn.PixelShuffle(2)(x))
    assert minitorch.equal(back, x)


# ------------------------------------------------------------------ 1-d pooling
POOLS = [("MaxPool1d", (3,), {}), ("MaxPool1d", (3, 2, 1, 2, True, True), {}),
         ("MaxPool1d", (2,), {"return_indices": True}), ("AvgPool1d", (3,), {}),
         ("AvgPool1d", (3, 2, 1, True, False), {}), ("AvgPool1d", ((2,),), {"stride": [1]})]


@pytest.mark.parametrize("name, args, kw", POOLS, ids=[_ids(c) for c in POOLS])
def test_pool1d_modules_like_torch(name, args, kw):
    results = []
    a = np.random.default_rng(1).standard_normal((2, 3, 9)).astype(np.float32)
    for lib in (minitorch, torch):
        module = getattr(lib.nn, name)(*args, **kw)
        x = lib.tensor(a, requires_grad=True)
        out = module(x)
        y, idx = out if isinstance(out, tuple) else (out, None)
        y.backward(lib.tensor(np.linspace(0.5, 1.5, y.numel(), dtype=np.float32)
                              .reshape(y.shape)))
        node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
        attrs = [getattr(module, k) for k in ("kernel_size", "stride", "padding", "ceil_mode")]
        results.append((repr(module), attrs, y.detach().numpy(), x.grad.numpy(), node,
                        None if idx is None else idx.numpy()))
    (r, attrs, out, grad, node, idx), (r_t, attrs_t, out_t, grad_t, node_t, idx_t) = results
    assert (r, attrs, node) == (r_t, attrs_t, node_t)
    np.testing.assert_array_equal(out, out_t)
    np.testing.assert_array_equal(idx, idx_t)
    # an element that wins three windows sums three gradients, in another order than PyTorch
    np.testing.assert_allclose(grad, grad_t, rtol=1e-6)


# ------------------------------------------------------------------ the old upsampling layers
@pytest.mark.parametrize("name, kw", [("UpsamplingNearest2d", {"scale_factor": 2}),
                                      ("UpsamplingNearest2d", {"size": (3, 5)}),
                                      ("UpsamplingBilinear2d", {"scale_factor": 2}),
                                      ("UpsamplingBilinear2d", {"size": 5})])
def test_upsampling_modules_like_torch(name, kw):
    results = []
    a = np.random.default_rng(2).standard_normal((1, 2, 2, 3)).astype(np.float32)
    for lib in (minitorch, torch):
        module = getattr(lib.nn, name)(**kw)
        x = lib.tensor(a, requires_grad=True)
        y = module(x)
        (y * y).sum().backward()
        node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
        results.append((repr(module), module.align_corners, node, y.detach().numpy(),
                        x.grad.numpy()))
    (*same, out, grad), (*same_t, out_t, grad_t) = results
    assert same == same_t
    np.testing.assert_allclose(out, out_t, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["upsample", "upsample_nearest", "upsample_bilinear"])
def test_upsample_functions_warn_like_torch(name):
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning, match=f"`nn.functional.{name}` is deprecated. Use "
                                             "`nn.functional.interpolate` instead."):
            getattr(lib.nn.functional, name)(lib.ones(1, 1, 2, 2), scale_factor=2)


# ------------------------------------------------------------------ Bilinear
@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"dtype": "float64"}])
def test_bilinear_module_like_torch(kw):
    results = []
    a1 = np.random.default_rng(3).standard_normal((2, 4, 3))
    a2 = np.random.default_rng(4).standard_normal((2, 4, 5))
    for lib in (minitorch, torch):
        args = {k: getattr(lib, v) if k == "dtype" else v for k, v in kw.items()}
        lib.manual_seed(5)
        module = lib.nn.Bilinear(3, 5, 2, **args)
        dtype = module.weight.dtype
        x1, x2 = lib.tensor(a1, dtype=dtype), lib.tensor(a2, dtype=dtype, requires_grad=True)
        y = module(x1, x2)
        (y * y).sum().backward()
        params = [(n, p.detach().numpy(), p.grad.numpy()) for n, p in module.named_parameters()]
        results.append((repr(module), params, y.detach().numpy(), x2.grad.numpy()))
    (r, params, out, grad), (r_t, params_t, out_t, grad_t) = results
    assert r == r_t and [p[0] for p in params] == [p[0] for p in params_t]
    for (_, v, g), (_, v_t, g_t) in zip(params, params_t, strict=True):
        np.testing.assert_array_equal(v, v_t)  # the same initial values after the same seed
        np.testing.assert_allclose(g, g_t, rtol=1e-5)
    np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ instance norm, LRN
NORMS = [("InstanceNorm1d", (3,), {}, (2, 3, 5)), ("InstanceNorm1d", (3,), {}, (3, 5)),
         ("InstanceNorm1d", (3,), {"affine": True, "track_running_stats": True}, (2, 3, 5)),
         ("InstanceNorm2d", (3,), {"affine": True}, (2, 3, 2, 3)),
         ("InstanceNorm2d", (3, 0.1, None, False, True), {}, (2, 3, 2, 3)),
         ("InstanceNorm2d", (3,), {"track_running_stats": True}, (3, 2, 3)),
         ("InstanceNorm3d", (3,), {"affine": True, "momentum": 0.5}, (2, 3, 2, 2, 2)),
         ("InstanceNorm1d", (3,), {"affine": True, "bias": False}, (2, 3, 4)),
         ("LocalResponseNorm", (3,), {}, (2, 5, 3)),
         ("LocalResponseNorm", (2, 0.1, 0.5, 2.0), {}, (2, 5, 2, 3))]


@pytest.mark.parametrize("name, args, kw, shape", NORMS, ids=[f"{n}-{len(s)}d-{a}{k}"
                                                              for n, a, k, s in NORMS])
def test_norm_modules_like_torch(name, args, kw, shape):
    """Two training steps and one evaluation: outputs, gradients, running statistics."""
    results = []
    a = np.random.default_rng(6).standard_normal(shape).astype(np.float32)
    for lib in (minitorch, torch):
        module = getattr(lib.nn, name)(*args, **kw)
        steps = []
        for training in (True, True, False):
            module.train(training)
            x = lib.tensor(a * (len(steps) + 1), requires_grad=True)
            y = module(x)
            (y * y).sum().backward()
            steps.append((y.detach().numpy(), x.grad.numpy()))
        state = {k: v.numpy() for k, v in module.state_dict().items()}
        node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
        results.append((repr(module), list(state), node, steps, list(state.values())))
    (*same, steps, state), (*same_t, steps_t, state_t) = results
    assert same == same_t
    for (out, grad), (out_t, grad_t) in zip(steps, steps_t, strict=True):
        np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(grad, grad_t, rtol=1e-4, atol=1e-4)
    for v, v_t in zip(state, state_t, strict=True):
        np.testing.assert_allclose(v, v_t, rtol=1e-6)


@pytest.mark.parametrize("make, shape, exc", [
    (lambda lib: lib.nn.InstanceNorm1d(3), (2, 3, 4, 5), ValueError),
    (lambda lib: lib.nn.InstanceNorm2d(3, affine=True), (2, 4, 3, 3), ValueError),
    (lambda lib: lib.nn.InstanceNorm1d(3), (2, 3, 1), ValueError),
    (lambda lib: lib.nn.InstanceNorm3d(2), (2, 3), ValueError),
    (lambda lib: lib.nn.LocalResponseNorm(2), (3, 4), ValueError),
])
def test_norm_module_errors_like_torch(make, shape, exc):
    messages = []
    for lib in (minitorch, torch):
        with pytest.raises(exc) as info:
            make(lib)(lib.ones(*shape))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_instance_norm_warns_on_channels_like_torch():
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
            lib.nn.InstanceNorm1d(4)(lib.randn(2, 3, 5))


# ------------------------------------------------------------------ Unfold, Fold
@pytest.mark.parametrize("kw", [{"kernel_size": 2}, {"kernel_size": (2, 3), "dilation": (2, 1),
                                                     "padding": 1, "stride": (2, 1)}])
def test_unfold_fold_modules_like_torch(kw):
    """Unfold, then Fold back: each value times the number of blocks that hold it."""
    results = []
    a = np.random.default_rng(7).standard_normal((2, 3, 5, 6)).astype(np.float32)
    for lib in (minitorch, torch):
        unfold, fold = lib.nn.Unfold(**kw), lib.nn.Fold((5, 6), **kw)
        x = lib.tensor(a, requires_grad=True)
        cols = unfold(x)
        back = fold(cols)
        (back * back).sum().backward()
        nodes = [type(t.grad_fn).__name__ if lib is minitorch else t.grad_fn.name()
                 for t in (cols, back)]
        results.append((repr(unfold), repr(fold), nodes, cols.detach().numpy(),
                        back.detach().numpy(), x.grad.numpy()))
    (*same, cols, back, grad), (*same_t, cols_t, back_t, grad_t) = results
    assert same == same_t
    np.testing.assert_array_equal(cols, cols_t)
    np.testing.assert_allclose(back, back_t, rtol=1e-6)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-5)


# ------------------------------------------------------------------ RReLU
@pytest.mark.parametrize("args", [(), (0.1, 0.3), (0.1, 0.3, True)])
def test_rrelu_module_like_torch(args):
    """Training draws PyTorch's slopes after the same seed; evaluation uses their mean."""
    results = []
    a = np.random.default_rng(8).standard_normal((4, 5)).astype(np.float32)
    for lib in (minitorch, torch):
        module = lib.nn.RReLU(*args)
        lib.manual_seed(9)
        steps = []
        for training in (True, False):
            module.train(training)
            x = lib.tensor(a, requires_grad=True)
            y = module(x * 1.0)
            y.backward(lib.ones_like(y))
            node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
            steps.append((node, y.detach().numpy().tolist(), x.grad.numpy().tolist()))
        results.append((repr(module), steps, lib.rand(2).tolist()))
    assert results[0] == results[1]


def test_identity_takes_any_arguments_like_torch():
    for lib in (minitorch, torch):
        module = lib.nn.Identity(54, unused="argument")
        x = lib.ones(2)
        assert repr(module) == "Identity()" and module(x) is x

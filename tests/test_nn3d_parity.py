"""The 3-d and transposed convolution layers, the 3-d pools, unpooling and the LP pools
against PyTorch: reprs, parameters under the same seed (bit for bit), outputs, gradients,
node names, ``output_size``, max_pool / max_unpool round trips, BatchNorm3d, and second
derivatives by finite differences. The functions themselves (every family of inputs, the
errors) are compared in test_opinfo.py through ``_opinfo_samples_nn3d``."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

RNG = np.random.default_rng(7)

# (name, constructor arguments, keyword arguments, input shape)
MODULES = [
    ("Conv3d", (2, 3, 3), {}, (2, 2, 4, 5, 4)),
    ("Conv3d", (2, 4, (1, 2, 3)), {"stride": 2, "padding": 1, "dilation": (1, 2, 1),
                                   "bias": False}, (1, 2, 5, 6, 7)),
    ("Conv3d", (2, 3, 3), {"padding": "same"}, (2, 4, 4, 4)),
    ("Conv3d", (2, 3, 2), {"padding": "valid"}, (1, 2, 3, 3, 3)),
    ("ConvTranspose1d", (2, 3, 3), {}, (2, 2, 5)),
    ("ConvTranspose1d", (2, 3, 3), {"stride": 2, "padding": 1, "output_padding": 1,
                                    "dilation": 2, "bias": False}, (2, 6)),
    ("ConvTranspose3d", (2, 3, 2), {}, (2, 2, 3, 2, 3)),
    ("ConvTranspose3d", (2, 3, (2, 3, 1)), {"stride": (2, 1, 2), "output_padding": (1, 0, 1)},
     (2, 2, 3, 3)),
    ("Conv3d", (4, 6, 2), {"groups": 2, "padding": 1}, (1, 4, 3, 3, 3)),
    ("ConvTranspose1d", (4, 6, 3), {"groups": 2, "stride": 2}, (2, 4, 5)),
    ("ConvTranspose3d", (3, 6, 2), {"groups": 3, "dilation": 2}, (1, 3, 2, 3, 2)),
    ("MaxPool3d", (2,), {}, (2, 2, 4, 4, 4)),
    ("MaxPool3d", ((3, 2, 2),), {"stride": 1, "padding": 1, "dilation": (1, 2, 1),
                                 "ceil_mode": True}, (2, 5, 5, 6)),
    ("AvgPool3d", (2,), {}, (2, 2, 4, 4, 4)),
    ("AvgPool3d", (3, 2, 1, True, False), {}, (1, 2, 5, 5, 5)),
    ("AvgPool3d", (2,), {"divisor_override": 3}, (2, 4, 4, 4)),
    ("AdaptiveAvgPool3d", ((2, None, 3),), {}, (2, 2, 5, 4, 6)),
    ("AdaptiveAvgPool3d", (1,), {}, (2, 2, 3, 3, 3)),
    ("AdaptiveMaxPool3d", (2,), {}, (2, 2, 5, 4, 6)),
    ("LPPool1d", (2, 3), {}, (2, 2, 7)),
    ("LPPool2d", (1.5, (2, 3)), {"stride": 1, "ceil_mode": True}, (2, 2, 4, 6)),
    ("LPPool3d", (3, 2), {}, (2, 2, 4, 4, 4)),
    ("FractionalMaxPool2d", (2,), {"output_size": (3, 4)}, (2, 2, 7, 9)),
    ("FractionalMaxPool2d", ((3, 2),), {"output_ratio": 0.5}, (2, 9, 8)),
    ("FractionalMaxPool3d", (2,), {"output_size": 3}, (2, 2, 6, 5, 7)),
    ("FractionalMaxPool3d", (2,), {"output_ratio": (0.5, 0.6, 0.4)}, (2, 6, 5, 7)),
    ("BatchNorm3d", (2,), {}, (2, 2, 3, 3, 3)),
    ("BatchNorm3d", (2,), {"affine": False, "momentum": None}, (3, 2, 2, 3, 2)),
    ("InstanceNorm3d", (2,), {"affine": True}, (2, 2, 3, 3, 3)),
]


def _ids(case):
    name, args, kw, shape = case
    return name + "".join(f"-{a}" for a in args) + "".join(f"-{k}{v}" for k, v in kw.items())


def _run(lib, module, x, dtype):
    t = lib.tensor(x, requires_grad=True)
    y = module(t)
    g = np.linspace(-1.0, 1.5, y.numel()).reshape(tuple(y.shape)).astype(dtype)
    y.backward(lib.tensor(g))
    node = type(y.grad_fn).__name__ if lib is minitorch else y.grad_fn.name()
    grads = [p.grad.numpy() for p in module.parameters()]
    buffers = [b.numpy() for b in module.buffers()]
    return y.detach().numpy(), t.grad.numpy(), node, grads, buffers


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", MODULES, ids=[_ids(c) for c in MODULES])
def test_module_matches_torch(case, dtype):
    name, args, kw, shape = case
    torch.manual_seed(3)
    ref = getattr(torch.nn, name)(*args, **kw)
    minitorch.manual_seed(3)
    mine = getattr(minitorch.nn, name)(*args, **kw)
    assert repr(mine) == repr(ref)
    # the same seed gives PyTorch's initial parameters, bit for bit (float32, before .double())
    assert [(n, p.detach().numpy().tolist()) for n, p in mine.named_parameters()] == \
        [(n, p.detach().numpy().tolist()) for n, p in ref.named_parameters()]
    if dtype == np.float64:
        mine, ref = mine.double(), ref.double()
    x = RNG.standard_normal(shape).astype(dtype)
    if name.startswith("LPPool"):
        x = np.abs(x) + 0.1
    tol = {"rtol": 1e-10, "atol": 1e-12} if dtype == np.float64 else {"rtol": 2e-5,
                                                                          "atol": 2e-6}
    out, grad, node, grads, buffers = _run(minitorch, mine, x, dtype)
    out_t, grad_t, node_t, grads_t, buffers_t = _run(torch, ref, x, dtype)
    assert out.dtype == out_t.dtype and out.shape == out_t.shape
    np.testing.assert_allclose(out, out_t, **tol)
    np.testing.assert_allclose(grad, grad_t, **tol)
    assert node == node_t
    for a, b in zip(grads, grads_t, strict=True):
        np.testing.assert_allclose(a, b, **tol)
    for a, b in zip(buffers, buffers_t, strict=True):
        np.testing.assert_allclose(a, b, **tol)


@pytest.mark.parametrize("n", [1, 3])
def test_conv_transpose_output_size(n):
    x = RNG.standard_normal((1, 2) + (3,) * n).astype(np.float32)
    cls = f"ConvTranspose{n}d"
    torch.manual_seed(0)
    ref = getattr(torch.nn, cls)(2, 3, 3, stride=2)
    minitorch.manual_seed(0)
    mine = getattr(minitorch.nn, cls)(2, 3, 3, stride=2)
    for size in [(8,) * n, (1, 3) + (7,) * n]:
        out = mine(minitorch.tensor(x), output_size=size).detach().numpy()
        out_t = ref(torch.tensor(x), output_size=size).detach().numpy()
        np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_max_unpool_round_trip(n):
    """pool, unpool, pool again: the same maxima, and the unpooled tensor is PyTorch's."""
    x = np.abs(RNG.standard_normal((2, 3) + (6, 4, 5)[:n])) + 0.1  # maxima above the zeros
    results = []
    for lib in (minitorch, torch):
        F = lib.nn.functional
        pool = getattr(lib.nn, f"MaxPool{n}d")(2, return_indices=True)
        unpool = getattr(lib.nn, f"MaxUnpool{n}d")(2)
        out, idx = pool(lib.tensor(x))
        back = unpool(out, idx, output_size=x.shape)
        again = getattr(F, f"max_pool{n}d")(back, 2)
        results.append((out.numpy(), idx.numpy(), back.numpy(), again.numpy(), repr(unpool)))
    for a, b in zip(*results, strict=True):
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
    np.testing.assert_array_equal(results[0][0], results[0][3])


def _gradgrad_cases():
    F = "nn.functional."
    x3, x1 = (1, 2, 3, 4, 3), (2, 2, 5)
    return [
        (F + "conv3d", [x3, (2, 2, 2, 3, 2), (2,)], {"stride": (1, 2, 1), "padding": 1}),
        (F + "conv3d", [(2, 3, 3, 3), (1, 2, 2, 1, 2)], {"dilation": 2}),
        (F + "conv_transpose1d", [x1, (2, 3, 3), (3,)], {"stride": 2, "output_padding": 1}),
        (F + "conv_transpose3d", [x3, (2, 1, 2, 2, 2)], {"stride": 2, "padding": 1}),
        (F + "max_pool3d", [x3], {"kernel_size": 2, "stride": 1}),
        (F + "avg_pool3d", [x3], {"kernel_size": 2, "padding": 1, "count_include_pad": False}),
        (F + "adaptive_avg_pool3d", [x3], {"output_size": (2, 3, 2)}),
        (F + "adaptive_max_pool3d", [x3], {"output_size": 2}),
        (F + "lp_pool3d", [x3], {"norm_type": 2, "kernel_size": 2}),
        ("conv3d", [x3, (2, 2, 1, 2, 2)], {}),
        (F + "fractional_max_pool2d", [(1, 2, 7, 8)], {
            "kernel_size": 2, "output_size": (3, 4),
            "_random_samples": minitorch.tensor([[[0.3, 0.6], [0.8, 0.1]]],
                                               dtype=minitorch.float64)}),
        (F + "fractional_max_pool3d", [(1, 2, 4, 5, 4)], {
            "kernel_size": 2, "output_size": 2,
            "_random_samples": minitorch.tensor([[[0.3, 0.6, 0.2], [0.8, 0.1, 0.5]]],
                                               dtype=minitorch.float64)}),
        (F + "max_pool3d", [x3], {"kernel_size": 2, "padding": 1, "dilation": (1, 1, 2)}),
    ]


@pytest.mark.parametrize("case", _gradgrad_cases(),
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(_gradgrad_cases())])
def test_gradgradcheck(case):
    path, shapes, kw = case
    fn = minitorch
    for part in path.split("."):
        fn = getattr(fn, part)
    rng = np.random.default_rng(1)
    # values kept apart, so that no max pool tie moves under the finite differences
    arrays = [rng.permutation(np.prod(s)).reshape(s) / np.prod(s) + 0.5 for s in shapes]
    inputs = tuple(minitorch.tensor(a, requires_grad=True) for a in arrays)
    assert minitorch.autograd.gradcheck(lambda *t: fn(*t, **kw), inputs)
    assert minitorch.autograd.gradgradcheck(lambda *t: fn(*t, **kw), inputs)


def test_max_unpool_gradgradcheck():
    x = torch.tensor(np.random.default_rng(2).permutation(48).reshape(1, 3, 4, 4) / 48.0)
    out, idx = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
    inp = minitorch.tensor(out.numpy(), requires_grad=True)
    ind = minitorch.tensor(idx.numpy())

    def f(t):
        return minitorch.nn.functional.max_unpool2d(t, ind, 2)

    assert minitorch.autograd.gradcheck(f, (inp,))
    assert minitorch.autograd.gradgradcheck(f, (inp,))


@pytest.mark.parametrize("name", ["Conv3d", "ConvTranspose1d", "ConvTranspose3d"])
@pytest.mark.parametrize("in_c, out_c, groups", [(4, 6, 0), (3, 4, 2), (4, 3, 2), (4, 6, 2)])
def test_conv_module_groups_checks(name, in_c, out_c, groups):
    """The modules' own checks of groups (ValueError, in PyTorch's words)."""
    errors = []
    for lib in (minitorch, torch):
        try:
            getattr(lib.nn, name)(in_c, out_c, 3, groups=groups)
            errors.append(None)
        except ValueError as e:
            errors.append(str(e))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("name", ["FractionalMaxPool2d", "FractionalMaxPool3d"])
@pytest.mark.parametrize("kw", [{}, {"output_size": 2, "output_ratio": 0.5},
                                {"output_ratio": 1.5}, {"output_ratio": 0.0}])
def test_fractional_module_checks(name, kw):
    errors = []
    for lib in (minitorch, torch):
        with pytest.raises(ValueError) as info:
            getattr(lib.nn, name)(2, **kw)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_fractional_module_return_indices_and_samples():
    """return_indices, and the _random_samples buffer used instead of fresh samples."""
    x = RNG.standard_normal((2, 3, 8, 9)).astype(np.float32)
    samples = np.linspace(0.1, 0.9, 12).reshape(2, 3, 2).astype(np.float32)
    got = []
    for lib in (minitorch, torch):
        pool = lib.nn.FractionalMaxPool2d(3, output_size=(4, 5), return_indices=True,
                                          _random_samples=lib.tensor(samples))
        out, idx = pool(lib.tensor(x))
        got.append((out.numpy(), idx.numpy(), [n for n, _ in pool.named_buffers()]))
    for a, b in zip(*got, strict=True):
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b


def _graph_names(out) -> list:
    """Every node name of ``out``'s graph, breadth first."""
    names, todo, seen = [], [out.grad_fn], set()
    while todo:
        node = todo.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        todo.extend(n for n, _ in node.next_functions)
    return names


@pytest.mark.parametrize("shape", [(2, 5, 3, 2), (1, 4, 2, 2, 2), (2, 4, 3)])
def test_local_response_norm_graph(shape):
    """local_response_norm averages with avg_pool3d (4-d and larger) as PyTorch does: the
    same values and the same nodes, AvgPool3DBackward0 included."""
    x = RNG.standard_normal(shape)
    got = []
    for lib in (minitorch, torch):
        t = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.local_response_norm(t, 3)
        got.append((out.detach().numpy(), _graph_names(out)))
    np.testing.assert_allclose(got[0][0], got[1][0], rtol=1e-12, atol=1e-14)
    assert got[0][1] == got[1][1]
    if len(shape) > 3:  # PyTorch's avg_pool3d has no float16 kernel on the CPU
        for lib in (minitorch, torch):
            with pytest.raises(NotImplementedError, match="avg_pool3d_out_frame"):
                lib.nn.functional.local_response_norm(lib.tensor(x.astype(np.float16)), 3)

"""Issue 26's ``nn`` layers against PyTorch: the modules (reprs, parameters, seeded
initialisation, forward and backward with the same weights), node names, second derivatives
by finite differences and Hypothesis shapes. ``tests/test_opinfo.py`` compares the
``nn.functional`` forms on every family of inputs."""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_same_values
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch
import minitorch.nn.functional as F

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

MODULES = {
    "GELU": ((), (2, 3, 4)), "GELU-tanh": (("tanh",), (2, 3, 4)), "SiLU": ((), (2, 3, 4)),
    "LayerNorm": ((4,), (2, 3, 4)), "LayerNorm-2": (((3, 4),), (2, 3, 4)),
    "GroupNorm": ((2, 4), (2, 4, 3)), "Conv1d": ((3, 5, 3), (2, 3, 9)),
    "Conv1d-stride": ((3, 2, 2, 2, 1), (2, 3, 9)),
    "ConvTranspose2d": ((3, 2, 3), (2, 3, 4, 5)),
    "ConvTranspose2d-stride": ((3, 2, 3, 2, 1, 1), (2, 3, 4, 5)),
    "Upsample": ((None, 2), (1, 2, 3, 3)),
    "Upsample-bilinear": ((None, 1.5, "bilinear"), (1, 2, 3, 4)),
}


def _module(lib, key):
    args, _ = MODULES[key]
    return getattr(lib.nn, key.split("-")[0])(*args)


@pytest.mark.parametrize("key", sorted(MODULES))
def test_module_is_pytorchs(key):
    minitorch.manual_seed(3)
    torch.manual_seed(3)
    mine, ref = _module(minitorch, key), _module(torch, key)
    assert repr(mine) == repr(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())
    for (name, p), (rname, rp) in zip(mine.named_parameters(), ref.named_parameters()):
        assert name == rname
        np.testing.assert_array_equal(p.detach().numpy(), rp.detach().numpy())  # same seed
    x = np.random.default_rng(0).standard_normal(MODULES[key][1]).astype(np.float32)
    xm = minitorch.tensor(x, requires_grad=True)
    xt = torch.tensor(x, requires_grad=True)
    ym, yt = mine(xm), ref(xt)
    assert ym.grad_fn.name() == yt.grad_fn.name()
    assert_same_values(ym, yt)
    w = np.linspace(-1, 1, yt.numel()).reshape(tuple(yt.shape)).astype(np.float32)
    ym.backward(minitorch.tensor(w))
    yt.backward(torch.tensor(w))
    assert_same_values(xm.grad, xt.grad)
    for p, rp in zip(mine.parameters(), ref.parameters()):
        assert_same_values(p.grad, rp.grad)


def test_losses_are_pytorchs():
    x = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    y = np.random.default_rng(2).standard_normal((4, 5)).astype(np.float32)
    logp = x - np.log(np.exp(x).sum(1, keepdims=True))
    for name, kw, a, b in [("SmoothL1Loss", {"beta": 0.5}, x, y),
                           ("HuberLoss", {"delta": 0.3, "reduction": "sum"}, x, y),
                           ("KLDivLoss", {"reduction": "batchmean"}, logp, np.exp(y) / 3),
                           ("KLDivLoss", {"reduction": "none", "log_target": True}, logp, y)]:
        am, at = minitorch.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
        lm = getattr(minitorch.nn, name)(**kw)(am, minitorch.tensor(b))
        lt = getattr(torch.nn, name)(**kw)(at, torch.tensor(b))
        assert lm.grad_fn.name() == lt.grad_fn.name(), name
        assert_same_values(lm, lt)
        lm.sum().backward()
        lt.sum().backward()
        assert_same_values(am.grad, at.grad)


def test_kl_div_mean_warns_as_pytorch():
    x = minitorch.zeros(2, 3)
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(x, x.exp())


def test_conv_transpose_undoes_a_strided_convolutions_shape_and_takes_output_size():
    x = minitorch.randn(1, 2, 5, 5)
    down = minitorch.nn.Conv2d(2, 4, 3, stride=2)
    up = minitorch.nn.ConvTranspose2d(4, 2, 3, stride=2)
    assert up(down(x)).shape == (1, 2, 5, 5)
    assert up(down(x), output_size=(6, 6)).shape == (1, 2, 6, 6)
    ref = torch.nn.ConvTranspose2d(4, 2, 3, stride=2)
    with torch.no_grad():
        ref.weight.copy_(torch.tensor(up.weight.detach().numpy()))
        ref.bias.copy_(torch.tensor(up.bias.detach().numpy()))
    h = down(x).detach()
    assert_same_values(up(h, output_size=[6, 6]),
                       ref(torch.tensor(h.numpy()), output_size=[6, 6]))


FUNCTIONS = {
    "gelu": lambda x: F.gelu(x) * x,
    "gelu-tanh": lambda x: F.gelu(x, approximate="tanh") * x,
    "silu": lambda x: F.silu(x) * x,
    "layer_norm": lambda x: F.layer_norm(x, (3,), x[0] * 0.5 + 1.5, x[1]),
    "group_norm": lambda x: F.group_norm(x.reshape(1, 4, 3), 2, x[:, 0], x[:, 1]),
    "conv1d": lambda x: F.conv1d(x.unsqueeze(0), x.t()[:2].unsqueeze(-1).repeat(1, 1, 2),
                                 x[0, :2], padding=1),
    "conv_transpose2d": lambda x: F.conv_transpose2d(x.reshape(1, 1, 4, 3),
                                                     x[:2, :2].reshape(1, 1, 2, 2), stride=2),
    "conv_transpose2d-op": lambda x: F.conv_transpose2d(
        x.reshape(1, 1, 4, 3), x[:2, :2].reshape(1, 1, 2, 2), dilation=2, output_padding=1,
        padding=1),
    "interpolate": lambda x: F.interpolate(x.reshape(1, 1, 4, 3), scale_factor=1.7,
                                           mode="bilinear") * x.sum(),
    "interpolate-linear": lambda x: F.interpolate(x.unsqueeze(0), size=5, mode="linear",
                                                  align_corners=True) ** 2,
    "smooth_l1": lambda x: F.smooth_l1_loss(x, x[[3, 2, 1, 0]], beta=0.7, reduction="none") * x,
    "huber": lambda x: F.huber_loss(x * 2, x[[3, 2, 1, 0]], delta=0.7, reduction="none") * x,
    "kl_div": lambda x: F.kl_div(x, (x * 0.5).exp(), reduction="batchmean"),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_second_derivatives_by_finite_differences(name):
    x = minitorch.tensor(np.random.default_rng(7).standard_normal((4, 3)), requires_grad=True)
    assert minitorch.autograd.gradcheck(FUNCTIONS[name], (x,))
    assert minitorch.autograd.gradgradcheck(FUNCTIONS[name], (x,))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(2, 9), st.integers(1, 3),
       st.integers(1, 2), st.integers(0, 1), st.integers(1, 2))
def test_conv1d_and_layer_norm_any_shape(n, c, length, k, stride, padding, dilation):
    out_len = (length + 2 * padding - dilation * (k - 1) - 1) // stride + 1
    if out_len < 3:  # layer_norm of 1 or 2 values is +-1 or 0: its gradient is rounding noise
        return
    rng = np.random.default_rng(n * 100 + c * 10 + length)
    # float64: layer_norm of a nearly constant row (one input channel, kernel 1, zero padding)
    # is ill-conditioned, and float32 rounding differences would dominate the comparison
    x = rng.standard_normal((n, c, length))
    w = rng.standard_normal((2, c, k))
    b = rng.standard_normal(2)
    outs = []
    for lib in (minitorch, torch):
        xt, wt = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
        y = lib.nn.functional.conv1d(xt, wt, lib.tensor(b), stride=stride, padding=padding,
                                     dilation=dilation)
        y = lib.nn.functional.layer_norm(y, (y.shape[-1],))
        (y * lib.tensor(np.cos(np.arange(y.numel())).reshape(tuple(y.shape)))).sum().backward()
        outs.append((y, xt.grad, wt.grad))
    for mine, ref in zip(*outs):
        assert_same_values(mine, ref, rtol=1e-9, atol=1e-10)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.sampled_from(["nearest", "nearest-exact",
                                                              "bilinear"]),
       st.one_of(st.tuples(st.integers(1, 9), st.integers(1, 9)),
                 st.floats(0.3, 3.0).map(lambda f: round(f, 2))), st.booleans())
def test_interpolate_any_size(h, w, mode, target, align):
    x = np.random.default_rng(h * 7 + w).standard_normal((1, 2, h, w)).astype(np.float32)
    kw = {"size": target} if isinstance(target, tuple) else {"scale_factor": target}
    if isinstance(target, float) and (int(h * target) < 1 or int(w * target) < 1):
        return
    if mode == "bilinear":
        kw["align_corners"] = align
    outs = []
    for lib in (minitorch, torch):
        xt = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.interpolate(xt, mode=mode, **kw)
        (y * y.detach()).sum().backward()
        outs.append((y, xt.grad))
    for a, b in zip(*outs):
        assert_same_values(a, b)


def test_layer_norm_trains_a_small_transformer_block_like_pytorch():
    def run(lib):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(6, 8), lib.nn.GELU(), lib.nn.LayerNorm(8),
                                lib.nn.Linear(8, 8), lib.nn.SiLU(), lib.nn.GroupNorm(2, 8),
                                lib.nn.Linear(8, 1))
        opt = lib.optim.SGD(net.parameters(), lr=0.1)
        x = lib.linspace(-1, 1, 30).reshape(5, 6)
        y = x.sum(1, keepdim=True).sin()
        losses = []
        for _ in range(5):
            opt.zero_grad()
            loss = lib.nn.functional.smooth_l1_loss(net(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    np.testing.assert_allclose(run(minitorch), run(torch), rtol=1e-5)


@pytest.mark.parametrize("module", ["nn.functional", "nn.modules.normalization",
                                    "nn.modules.upsampling"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"minitorch.{module}"),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "bilinear", "bilinear-align"])
def test_interpolate_sweep_of_sizes_and_scales(mode):
    """Every input size from 1 to 6 by every scale in a list (up, down, and sizes that do not
    change in one dimension), forward and backward, against PyTorch."""
    kw = {"mode": mode.split("-align")[0]}
    if mode == "bilinear-align":
        kw["align_corners"] = True
    for h in range(1, 7):
        for w in (1, 3, 6):
            x = np.random.default_rng(h * 10 + w).standard_normal((1, 2, h, w)).astype(
                np.float32)
            for sf in (0.5, 0.75, 1.0, 1.2, 1.5, 2.0, 2.6, (1.25, 1.6), (0.9, 3.0)):
                outs = []
                for lib in (minitorch, torch):
                    xt = lib.tensor(x, requires_grad=True)
                    try:
                        y = lib.nn.functional.interpolate(xt, scale_factor=sf, **kw)
                    except (RuntimeError, ValueError) as e:
                        outs.append(type(e).__name__)
                        continue
                    (y * y.detach()).sum().backward()
                    outs.append((y, xt.grad))
                if isinstance(outs[1], str):
                    assert outs[0] == outs[1], (h, w, sf)
                    continue
                for a, b in zip(*outs):
                    assert_same_values(a, b)

"""Real-GPU tests (CuPy on an NVIDIA GPU). Marked ``gpu``; skipped, with the reason, elsewhere.

The same checks run without a GPU against a simulated device in ``test_device.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not minitorch.cuda.is_available(),
                       reason=f"no usable GPU: {minitorch.cuda.unavailable_reason()}"),
]


def test_device_info():
    assert minitorch.cuda.device_count() >= 1
    assert isinstance(minitorch.cuda.get_device_name(), str)


def test_round_trip_and_repr():
    x = minitorch.arange(6.0).reshape(2, 3)
    g = x.to("cuda")
    assert g.device == minitorch.device("cuda", 0)
    assert "device='cuda:0'" in repr(g)
    np.testing.assert_array_equal(g.cpu().numpy(), x.numpy())


def test_ops_and_gradients_match_cpu():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((64, 32)).astype(np.float32)
    b = rng.standard_normal((32, 16)).astype(np.float32)
    grads = []
    for device in ("cpu", "cuda"):
        x = minitorch.tensor(a, device=device, requires_grad=True)
        w = minitorch.tensor(b, device=device, requires_grad=True)
        y = (x @ w).tanh()
        loss = (y.max(1).values + y[:, 3] * y.sigmoid().mean(1)).sum() + y[[0, 0, 5]].sum()
        loss.backward()
        grads.append((x.grad.cpu().numpy(), w.grad.cpu().numpy(), loss.item()))
    for cpu, gpu in zip(grads[0], grads[1]):
        np.testing.assert_allclose(gpu, cpu, rtol=1e-4, atol=1e-5)


def test_mixed_device_error():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        minitorch.ones(2, device="cuda") + minitorch.ones(2)


def test_training_on_gpu():
    nn, optim = minitorch.nn, minitorch.optim
    minitorch.manual_seed(0)
    X, y = minitorch.datasets.make_moons(256, noise=0.1)
    model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2)).to("cuda")
    opt = optim.Adam(model.parameters(), lr=0.05)
    X, y = X.to("cuda"), y.to("cuda")
    for _ in range(200):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X), y)
        loss.backward()
        opt.step()
    assert all(p.device.type == "cuda" for p in model.parameters())
    accuracy = (model(X).argmax(1) == y).float().mean().item()
    assert accuracy > 0.95


def test_a_zero_dim_tensor_keeps_its_bits_on_the_gpu():
    """CuPy makes a 0-d array from its value, where -0.0 lost its sign: the copy is of bytes."""
    for value in (-0.0, 1e-40):
        g = minitorch.tensor(value).to("cuda")
        back = g.cpu().numpy()
        assert np.signbit(back) == np.signbit(np.float32(value)) and back == np.float32(value)
    assert minitorch.copysign(minitorch.ones(2, device="cuda"), -0.0).cpu().tolist() == [-1, -1]


def test_an_index_out_of_bounds_is_an_error_on_the_gpu():
    """CuPy wraps an index around when reading and writes out of bounds in add.at (a crash
    that every later CUDA call reports): minitorch raises PyTorch's IndexError first."""
    x = minitorch.zeros(3, 4, device="cuda")
    bad = minitorch.tensor([1, 5], device="cuda")
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        x[bad]
    for accumulate in (False, True):
        with pytest.raises(IndexError, match="index 5 is out of bounds"):
            x.index_put_((bad,), minitorch.ones(4, device="cuda"), accumulate=accumulate)
    assert x[minitorch.tensor([-1], device="cuda")].shape == (1, 4)
    assert float(x.sum()) == 0.0  # nothing was written, and the GPU still answers

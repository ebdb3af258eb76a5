"""The issue-16 API on a real GPU (CuPy): the same computations on "cpu" and "cuda" agree.
Skipped, with the reason, without a usable GPU."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch as mt

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not mt.cuda.is_available(),
                       reason=f"no usable GPU: {mt.cuda.unavailable_reason()}"),
]


def test_accelerator_and_default_device():
    assert mt.accelerator.is_available()
    assert mt.accelerator.current_accelerator() == mt.device("cuda")
    assert mt.accelerator.current_device_index() == 0
    mt.set_default_device("cuda")
    try:
        assert mt.zeros(2).device.type == "cuda"
        assert mt.tensor([1.0]).device.type == "cuda"
        assert mt.get_default_device().type == "cuda"
    finally:
        mt.set_default_device(None)
    assert mt.zeros(2).device.type == "cpu"


def _run(device):
    mt.manual_seed(0)
    rng = np.random.default_rng(0)
    out = {}
    lstm = mt.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    state = {k: mt.tensor(rng.standard_normal(tuple(v.shape)).astype(np.float32))
             for k, v in lstm.state_dict().items()}
    lstm.load_state_dict(state)
    lstm.to(device)
    x = mt.tensor(rng.standard_normal((5, 2, 3)).astype(np.float32), device=device,
                  requires_grad=True)
    y, (h, c) = lstm(x)
    img = mt.tensor(rng.standard_normal((2, 3, 7, 5)).astype(np.float32), device=device,
                    requires_grad=True)
    pooled = mt.nn.functional.adaptive_avg_pool2d(img, (3, 2)).sum() + \
        mt.nn.functional.adaptive_max_pool2d(img, 2).sum()
    v = mt.tensor(rng.standard_normal((3, 4)).astype(np.float32), device=device,
                  requires_grad=True)
    added = (v * 1).index_add(0, mt.tensor([2, 0], device=device), v[:2] * 2)
    prod = v.prod(1).sum()
    loss = y.sum() + h.sum() + c.sum() + pooled + (added ** 2).sum() + prod
    loss.backward()
    out["loss"] = loss.item()
    out["x"] = x.grad.cpu().numpy()
    out["img"] = img.grad.cpu().numpy()
    out["v"] = v.grad.cpu().numpy()
    out["w"] = lstm.weight_hh_l1_reverse.grad.cpu().numpy()
    out["unique"] = mt.unique(mt.tensor([3, 1, 3], device=device)).cpu().numpy()
    return out


def test_new_layers_and_ops_agree_with_cpu():
    cpu, gpu = _run("cpu"), _run("cuda")
    for key in cpu:
        np.testing.assert_allclose(gpu[key], cpu[key], rtol=1e-4, atol=1e-5, err_msg=key)


def test_optimizers_and_profiler_on_gpu():
    for name in ("RMSprop", "Adagrad"):
        results = []
        for device in ("cpu", "cuda"):
            w = mt.tensor([[0.5, -1.0], [2.0, 0.1]], device=device, requires_grad=True)
            opt = getattr(mt.optim, name)([w], lr=0.1)
            for _ in range(3):
                opt.zero_grad()
                (w ** 2).sum().backward()
                opt.step()
            results.append(w.detach().cpu().numpy())
        np.testing.assert_allclose(results[1], results[0], rtol=1e-5)
    with mt.autograd.profiler.profile() as prof:
        (mt.ones(4, 4, device="cuda", requires_grad=True) @ mt.ones(4, 4, device="cuda")).sum()
    assert [e.name for e in prof.function_events] == ["aten::mm", "aten::sum"]

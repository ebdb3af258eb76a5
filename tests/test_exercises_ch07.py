"""Tests for the pretend GPU (minitorch/backends/pretend.py) and the GPU chapters' checks and
benchmark reader (minitorch/exercises/ch10_gpu.py, ch11_gpu_backends.py).

For each check: the right solution passes, typical wrong solutions fail with the text a learner
needs, and an unfinished stub (NotImplementedError) is reported as "not done yet". The checks
run on the pretend GPU here (no GPU in CI) and must leave the backend registry as they found it.
"""

from __future__ import annotations

import doctest
import json

import numpy as np
import pytest

import minitorch
from minitorch import _backend
from minitorch.backends import pretend
from minitorch.backends.pretend import (
    PRETEND,
    PretendArray,
    PretendGPU,
    add_pretend_gpu,
    second_device,
)
from minitorch.exercises.ch10_gpu import check_to_device
from minitorch.exercises.ch11_gpu_backends import bench_results, check_backend


def _result(check, fn, capsys):
    """Run a check; return (passed, printed text)."""
    passed = check(fn)
    return passed, capsys.readouterr().out


def _todo(*args, **kwargs):
    raise NotImplementedError("your code here")


@pytest.fixture(autouse=True)
def _registry_unchanged():
    """No check may leave a learner's backend plugged in."""
    add_pretend_gpu()
    before = dict(_backend._BACKENDS)
    yield
    assert _backend._BACKENDS == before
    assert isinstance(_backend._BACKENDS[PRETEND], PretendGPU)


def test_doctests():
    failures, tried = doctest.testmod(pretend, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


# ------------------------------------------------------------------ the pretend GPU
def test_pretend_gpu_is_a_real_second_device():
    sim = add_pretend_gpu()
    assert add_pretend_gpu() == sim  # registering twice is harmless
    x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g = x.to(sim)
    assert isinstance(g._data, PretendArray) and g.device == minitorch.device(PRETEND, 0)
    assert repr(g.detach()) == "tensor([[1., 2.],\n        [3., 4.]], device='sim:0')"
    y = (g @ g).relu().sum(1)
    assert isinstance(y._data, PretendArray)
    y.sum().backward()
    assert type(x.grad._data) is np.ndarray  # the gradient came home
    # d/dX sum(X @ X) = G X^T + X^T G with G all ones
    np.testing.assert_allclose(x.grad.numpy(), [[7.0, 11.0], [9.0, 13.0]])
    with pytest.raises(RuntimeError, match="found at least two devices, sim:0 and cpu!"):
        g + x
    with pytest.raises(TypeError, match="can't convert sim:0 device type tensor to numpy"):
        g.detach().numpy()
    host = np.ones(3)
    on = PretendGPU().from_numpy(host, 0)
    host[0] = 5.0
    assert on[0] == 1.0  # moving copies, as to a real GPU


def test_pretend_gpu_trains_a_model_like_the_cpu():
    nn, optim = minitorch.nn, minitorch.optim
    losses = {}
    for device in ("cpu", add_pretend_gpu()):
        minitorch.manual_seed(0)
        X, y = minitorch.datasets.make_moons(128, noise=0.1)
        model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
        opt = optim.Adam(model.parameters(), lr=0.05)
        X, y = X.to(device), y.to(device)
        for _ in range(20):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(X), y)
            loss.backward()
            opt.step()
        assert all(p.device.type == minitorch.device(device).type for p in model.parameters())
        losses[str(device)] = loss.item()
    assert losses["cpu"] == losses["sim"]


def test_second_device():
    expected = "cuda" if minitorch.cuda.is_available() else PRETEND
    assert second_device().type == expected


# ------------------------------------------------------------------ to_device
def to_device(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: to_device(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(to_device(item, device) for item in batch)
    return batch


def test_to_device_right(capsys):
    passed, out = _result(check_to_device, to_device, capsys)
    assert passed and "all 7 cases passed" in out


def test_to_device_todo(capsys):
    passed, out = _result(check_to_device, _todo, capsys)
    assert not passed and "not done yet" in out


def test_to_device_not_in_place(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            batch.to(device)  # the result is thrown away
            return batch
        if isinstance(batch, dict):
            return {key: wrong(value, device) for key, value in batch.items()}
        if isinstance(batch, (tuple, list)):
            return type(batch)(wrong(item, device) for item in batch)
        return batch

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "is not in place" in out and "is on cpu, not on sim:0" in out


def test_to_device_tuple_becomes_list(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            return batch.to(device)
        if isinstance(batch, dict):
            return {key: wrong(value, device) for key, value in batch.items()}
        if isinstance(batch, (tuple, list)):
            return [wrong(item, device) for item in batch]
        return batch

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "should stay a tuple; got list" in out


def test_to_device_drops_other_values(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            return batch.to(device)
        if isinstance(batch, dict):
            return {key: wrong(value, device) for key, value in batch.items()}
        if isinstance(batch, (tuple, list)):
            return type(batch)(wrong(item, device) for item in batch)
        return None  # forgot to give back numbers and strings

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "should come back unchanged" in out and "'index'" in out


def test_to_device_only_the_top_level(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            return batch.to(device)
        if isinstance(batch, dict):
            return {key: v.to(device) if isinstance(v, minitorch.Tensor) else v
                    for key, v in batch.items()}
        if isinstance(batch, (tuple, list)):
            return type(batch)(v.to(device) if isinstance(v, minitorch.Tensor) else v
                               for v in batch)
        return batch

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "nested" in out and "['inputs'][0]" in out


def test_to_device_rebuilding_tensors_loses_the_graph(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            return minitorch.tensor(batch.detach().cpu().numpy(), device=device)
        if isinstance(batch, dict):
            return {key: wrong(value, device) for key, value in batch.items()}
        if isinstance(batch, (tuple, list)):
            return type(batch)(wrong(item, device) for item in batch)
        return batch

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "lost `requires_grad`" in out


def test_to_device_changing_the_input(capsys):
    def wrong(batch, device):
        if isinstance(batch, minitorch.Tensor):
            return batch.to(device)
        if isinstance(batch, dict):
            for key, value in batch.items():
                batch[key] = wrong(value, device)
            return batch
        if isinstance(batch, (tuple, list)):
            return type(batch)(wrong(item, device) for item in batch)
        return batch

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "The batch you were given changed" in out


def test_to_device_forgot_return(capsys):
    def wrong(batch, device):
        batch.to(device)

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "forget a `return`" in out


# ------------------------------------------------------------------ your own backend
class MyBackend(_backend.Backend):
    def owns(self, array):
        return isinstance(array, PretendArray)

    def from_numpy(self, array, index):
        return np.array(array).view(PretendArray)

    def to_numpy(self, array):
        return np.array(array.view(np.ndarray))


def test_backend_right(capsys):
    passed, out = _result(check_backend, MyBackend, capsys)
    assert passed and "all 6 cases passed" in out


def test_backend_todo(capsys):
    class Todo(_backend.Backend):
        owns = from_numpy = to_numpy = _todo

    passed, out = _result(check_backend, Todo, capsys)
    assert not passed and "not done yet" in out


def test_backend_without_copy(capsys):
    class NoCopy(MyBackend):
        def from_numpy(self, array, index):
            return array.view(PretendArray)

    passed, out = _result(check_backend, NoCopy, capsys)
    assert not passed and "share memory" in out and "must **copy**" in out


def test_backend_to_numpy_keeps_the_subclass(capsys):
    class StillOnDevice(MyBackend):
        def to_numpy(self, array):
            return array.copy()

    passed, out = _result(check_backend, StillOnDevice, capsys)
    assert not passed and "must return a plain `np.ndarray`" in out


def test_backend_owns_everything(capsys):
    class Greedy(MyBackend):
        def owns(self, array):
            return True

    passed, out = _result(check_backend, Greedy, capsys)
    assert not passed and "`owns(array)` must be True for the device's arrays" in out


def test_backend_from_numpy_stays_on_host(capsys):
    class Host(MyBackend):
        def from_numpy(self, array, index):
            return np.array(array)

    passed, out = _result(check_backend, Host, capsys)
    assert not passed and "must return a `PretendArray`" in out


# ------------------------------------------------------------------ benchmark files
def test_bench_results_reads_the_committed_files():
    results = bench_results()
    assert results, "minitorch/exercises/bench_results/ should hold at least the CPU run"
    for r in results:
        assert r["file"].endswith(".json") and r["matmul"]
        for n, row in r["matmul"].items():
            assert int(n) > 0 and all(v > 0 for v in row.values())
    cpu_runs = [r for r in results if r.get("gpu") is None]
    assert cpu_runs and all(r["why_no_gpu"] for r in cpu_runs)


def test_bench_results_skips_other_files(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"matmul": {"64": {"minitorch cpu": 1e-4}}}))
    (tmp_path / "b.json").write_text("not json")
    (tmp_path / "c.json").write_text(json.dumps({"other": 1}))
    (tmp_path / "README.md").write_text("# results")
    assert [r["file"] for r in bench_results(tmp_path)] == ["a.json"]
    assert bench_results(tmp_path / "missing") == []

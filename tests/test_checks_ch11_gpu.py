"""Tests for chapter 11 (GPU: devices): the pretend GPU it runs on
(``minitorch/backends/pretend.py``) and the check of its exercise, ``to_device``.

The right answer passes; a stub reports "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``). The check runs on the pretend GPU here (no GPU in CI) and
must leave the backend registry as it found it.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

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
from minitorch.exercises.ch11_gpu import check_to_device

# The check moves to the real GPU where minitorch can use one, the pretend GPU otherwise.
ON_THE_OTHER_DEVICE = f"is still on cpu, not on {second_device().type}:0"


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


def _to_device_not_in_place(batch, device):
    if isinstance(batch, minitorch.Tensor):
        batch.to(device)  # the result is thrown away
        return batch
    if isinstance(batch, dict):
        return {key: _to_device_not_in_place(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_not_in_place(item, device) for item in batch)
    return batch


def test_to_device_not_in_place(capsys):
    passed, out = _result(check_to_device, _to_device_not_in_place, capsys)
    assert not passed and "is not in place" in out and ON_THE_OTHER_DEVICE in out


def _to_device_tuple_becomes_list(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: _to_device_tuple_becomes_list(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return [_to_device_tuple_becomes_list(item, device) for item in batch]
    return batch


def test_to_device_tuple_becomes_list(capsys):
    passed, out = _result(check_to_device, _to_device_tuple_becomes_list, capsys)
    assert not passed and "should stay a tuple; got list" in out


def _to_device_drops_other_values(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: _to_device_drops_other_values(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_drops_other_values(item, device) for item in batch)
    return None  # forgot to give back numbers and strings


def test_to_device_drops_other_values(capsys):
    passed, out = _result(check_to_device, _to_device_drops_other_values, capsys)
    assert not passed and "should come back unchanged" in out and "'index'" in out


def _to_device_only_the_top_level(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: v.to(device) if isinstance(v, minitorch.Tensor) else v
                for key, v in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(v.to(device) if isinstance(v, minitorch.Tensor) else v
                           for v in batch)
    return batch


def test_to_device_only_the_top_level(capsys):
    passed, out = _result(check_to_device, _to_device_only_the_top_level, capsys)
    assert not passed and "nested" in out and "`batch['inputs']` is the very tuple" in out


def _to_device_rebuilds_tensors(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return minitorch.tensor(batch.detach().cpu().numpy(), device=device)
    if isinstance(batch, dict):
        return {key: _to_device_rebuilds_tensors(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_rebuilds_tensors(item, device) for item in batch)
    return batch


def test_to_device_rebuilding_tensors_loses_the_graph(capsys):
    passed, out = _result(check_to_device, _to_device_rebuilds_tensors, capsys)
    assert not passed and "lost `requires_grad`" in out


def _to_device_changes_the_input(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        for key, value in batch.items():
            batch[key] = _to_device_changes_the_input(value, device)
        return batch
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_changes_the_input(item, device) for item in batch)
    return batch


def test_to_device_changing_the_input(capsys):
    passed, out = _result(check_to_device, _to_device_changes_the_input, capsys)
    assert not passed and "The batch you were given changed" in out


def test_to_device_forgot_return(capsys):
    def wrong(batch, device):
        batch.to(device)

    passed, out = _result(check_to_device, wrong, capsys)
    assert not passed and "forget a `return`" in out




# ------------------------------------------------------------------ more wrong answers
def _to_device_sequences(batch, device):
    from collections.abc import Mapping, Sequence

    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, Mapping):
        return {key: _to_device_sequences(value, device) for key, value in batch.items()}
    if isinstance(batch, Sequence):  # a str is a Sequence too
        return type(batch)(_to_device_sequences(item, device) for item in batch)
    return batch


def _to_device_every_value(batch, device):
    if isinstance(batch, dict):
        return {key: value.to(device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(item.to(device) for item in batch)
    return batch.to(device)


def _to_device_cuda(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to("cuda")
    if isinstance(batch, dict):
        return {key: _to_device_cuda(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_cuda(item, device) for item in batch)
    return batch


def _to_device_numpy(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.detach().cpu().numpy()
    if isinstance(batch, dict):
        return {key: _to_device_numpy(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_numpy(item, device) for item in batch)
    return batch


def test_to_device_feedback_shows_the_batch_not_the_checks_record(capsys):
    """The feedback prints what `to_device` returned, never the check's own dict with the
    expected batch in it."""
    passed, out = _result(check_to_device, _to_device_not_in_place, capsys)
    assert not passed
    got = out.split("got:\n", 1)[1].splitlines()[0]
    assert "'want'" not in out and "'before'" not in out and "'after'" not in out
    assert got.strip().startswith("tensor([1.0, 2.0, 3.0], device='cpu')")


# ------------------------------------------------------------------ the meta-test's lists
# A learner's answers that the review of chapter 11 found passing, or failing with a message
# that named the wrong cause (each fails on the check before it).
_NOTEBOOK_DEVICE = second_device()  # the notebook's `other`, a global the answer should not use


def _to_device_global_device(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(_NOTEBOOK_DEVICE)  # the notebook's device, not the argument
    if isinstance(batch, dict):
        return {key: _to_device_global_device(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_global_device(item, device) for item in batch)
    return batch


def _to_device_as_float(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device, minitorch.float32)  # "GPUs like float32": labels too
    if isinstance(batch, dict):
        return {key: _to_device_as_float(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_as_float(item, device) for item in batch)
    return batch


def _to_device_requires_grad(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device).requires_grad_()  # "so that gradients flow back"
    if isinstance(batch, dict):
        return {key: _to_device_requires_grad(value, device) for key, value in batch.items()}
    if isinstance(batch, (tuple, list)):
        return type(batch)(_to_device_requires_grad(item, device) for item in batch)
    return batch


def _to_device_tuples_only(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: _to_device_tuples_only(value, device) for key, value in batch.items()}
    if isinstance(batch, tuple):  # a list is given back as it is
        return tuple(_to_device_tuples_only(item, device) for item in batch)
    return batch


def _to_device_list_in_place(batch, device):
    if isinstance(batch, minitorch.Tensor):
        return batch.to(device)
    if isinstance(batch, dict):
        return {key: _to_device_list_in_place(value, device) for key, value in batch.items()}
    if isinstance(batch, list):
        for i, item in enumerate(batch):
            batch[i] = _to_device_list_in_place(item, device)
        return batch
    if isinstance(batch, tuple):
        return tuple(_to_device_list_in_place(item, device) for item in batch)
    return batch


RIGHT = {"check_to_device": (check_to_device, to_device)}

WRONG = [
    ("check_to_device", _to_device_not_in_place, "the moved tensor thrown away",
     ["is not in place", ON_THE_OTHER_DEVICE]),
    ("check_to_device", _to_device_tuple_becomes_list, "a tuple becomes a list",
     ["should stay a tuple; got list"]),
    ("check_to_device", _to_device_drops_other_values, "numbers and strings dropped",
     ["should come back unchanged", "'index'"]),
    ("check_to_device", _to_device_only_the_top_level, "nested containers not moved",
     ["nested", "`batch['inputs']` is the very tuple", "build a new tuple"]),
    ("check_to_device", _to_device_rebuilds_tensors, "tensors rebuilt from their values",
     ["lost `requires_grad`"]),
    ("check_to_device", _to_device_changes_the_input, "the dict changed in place",
     ["The batch you were given changed"]),
    ("check_to_device", lambda batch, device: batch.to(device), "forgot the containers",
     ["only tensors have `.to()`", "A tuple is a container"]),
    ("check_to_device", _to_device_sequences, "every Sequence, strings too",
     ["rebuilt it like a container", "a str is a sequence too"]),
    ("check_to_device", _to_device_every_value, ".to() on every value",
     ["'int' object has no attribute 'to'", "give it back unchanged"]),
    ("check_to_device", _to_device_cuda, "'cuda' hard-coded",
     ["went to cuda:0", "the `device` argument"] if minitorch.cuda.is_available()
     else ["asked for 'cuda'"]),
    ("check_to_device", _to_device_numpy, "NumPy arrays, not tensors",
     ["should be a tensor on"]),
    ("check_to_device", _to_device_global_device, "the notebook's device, not the argument",
     ["went to", "but the device asked for is cpu", "the `device` argument"]),
    ("check_to_device", _to_device_as_float, "labels turned into floats",
     ["changed its dtype from torch.int64 to torch.float32"]),
    ("check_to_device", _to_device_requires_grad, "requires_grad_() on every moved tensor",
     ["requires grad now, and did not before"]),
    ("check_to_device", _to_device_tuples_only, "a list given back as it is",
     ["`batch` is the very list you were given", "build a new list"]),
    ("check_to_device", _to_device_list_in_place, "a list filled in place",
     ["The batch you were given changed"]),
]

GIVEAWAYS = {"check_to_device": ["type(batch)(to_device(item, device)"]}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

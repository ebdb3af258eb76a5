"""Tests for chapter 12 (GPU: speed and backends): the check of its exercise, ``MyBackend``,
and the benchmark files the chapter plots.

The right answer passes; a stub reports "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``). The check must leave the backend registry as it found it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

from minitorch import _backend
from minitorch.backends.pretend import PRETEND, PretendArray, PretendGPU, add_pretend_gpu
from minitorch.exercises.ch12_gpu_backends import bench_results, check_backend


@pytest.fixture(autouse=True)
def _registry_unchanged():
    """No check may leave a learner's backend plugged in."""
    add_pretend_gpu()
    before = dict(_backend._BACKENDS)
    yield
    assert _backend._BACKENDS == before
    assert isinstance(_backend._BACKENDS[PRETEND], PretendGPU)


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
    assert passed and "all 7 cases passed" in out


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
    assert not passed and "True exactly for the device's arrays" in out


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


# ------------------------------------------------------------------ more wrong answers
class _BackendNoCopy(MyBackend):
    def from_numpy(self, array, index):
        return array.view(PretendArray)


class _BackendStillOnDevice(MyBackend):
    def to_numpy(self, array):
        return array.copy()


class _BackendGreedy(MyBackend):
    def owns(self, array):
        return True


class _BackendHost(MyBackend):
    def from_numpy(self, array, index):
        return np.array(array)


class _BackendAsarray(MyBackend):
    def to_numpy(self, array):
        return np.asarray(array)  # a plain ndarray, but the same memory


class _BackendAnyArray(MyBackend):
    def owns(self, array):
        return isinstance(array, np.ndarray)


class _BackendFloat64(MyBackend):
    def from_numpy(self, array, index):
        return np.array(array, dtype=np.float64).view(PretendArray)


class _BackendSubclass(PretendGPU):
    pass


class _BackendDelegates(MyBackend):
    def from_numpy(self, array, index):
        return PretendGPU().from_numpy(array, index)


# Answers that passed before the review of chapter 12: they only kept float32 1-D arrays right
# (the one kind the other cases used), or gave back something that is no array at all.
class _BackendAlwaysFloat32(MyBackend):
    def from_numpy(self, array, index):
        return np.array(array, dtype=np.float32).view(PretendArray)  # "GPUs compute in float32"


class _BackendBackAsFloat32(MyBackend):
    def to_numpy(self, array):
        return np.array(array.view(np.ndarray), dtype=np.float32)


class _BackendThroughAList(MyBackend):
    def to_numpy(self, array):
        return np.array(array.tolist())  # float32 comes back as float64


class _BackendFlattens(MyBackend):
    def from_numpy(self, array, index):
        return np.array(array).ravel().view(PretendArray)


class _BackendReturnsAList(MyBackend):
    def to_numpy(self, array):
        return array.tolist()


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {"check_backend": (check_backend, MyBackend)}

WRONG = [
    ("check_backend", _BackendNoCopy, "from_numpy shares memory",
     ["share memory", "must **copy**"]),
    ("check_backend", _BackendStillOnDevice, "to_numpy keeps the PretendArray",
     ["must return a plain `np.ndarray`"]),
    ("check_backend", _BackendGreedy, "owns everything",
     ["`owns` said True for a host NumPy array", "True exactly for the device's arrays"]),
    ("check_backend", _BackendAnyArray, "owns every NumPy array",
     ["`owns` said True for a host NumPy array", "True exactly for the device's arrays"]),
    ("check_backend", _BackendHost, "from_numpy stays on the host",
     ["must return a `PretendArray`"]),
    ("check_backend", _BackendAsarray, "to_numpy with np.asarray (no copy)",
     ["`to_numpy` must **copy**"]),
    ("check_backend", _BackendFloat64, "from_numpy changes the dtype",
     ["must keep the dtype", "float32"]),
    ("check_backend", _BackendSubclass, "subclasses PretendGPU", ["subclasses `PretendGPU`"]),
    ("check_backend", _BackendDelegates, "calls PretendGPU's from_numpy",
     ["called `PretendGPU`"]),
    ("check_backend", _BackendAlwaysFloat32, "from_numpy makes every array float32",
     ["`from_numpy` turned a host array of int64, shape (2, 3) into a PretendArray of "
      "float32", "with its dtype and shape"]),
    ("check_backend", _BackendBackAsFloat32, "to_numpy makes every array float32",
     ["`to_numpy` turned a device array of int64, shape (2, 3) into an ndarray of float32"]),
    ("check_backend", _BackendThroughAList, "to_numpy through tolist(): float32 -> float64",
     ["`to_numpy` turned a device array of float32", "into an ndarray of float64"]),
    ("check_backend", _BackendFlattens, "from_numpy flattens",
     ["into a PretendArray of int64, shape (6,)"]),
    ("check_backend", _BackendReturnsAList, "to_numpy returns a list",
     ["`to_numpy` returned a list", "plain `np.ndarray`"]),
]

GIVEAWAYS = {"check_backend": ["np.array(array).view(PretendArray)"]}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

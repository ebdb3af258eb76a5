"""Chapter 12 (GPU: speed and backends): the check of its code exercise, and the benchmarks.

======================  ===============================================================
name                    what it is
======================  ===============================================================
check_backend           ``class MyBackend(Backend)``: ``owns``, ``from_numpy``,
                        ``to_numpy`` (and ``index_of``) of a device backend
bench_results           the benchmark files the chapter plots (``bench_results/*.json``)
======================  ===============================================================

The check never raises: it shows ✓, ✗ or ⏳.

Example:
    >>> all("matmul" in result for result in bench_results())
    True
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from minitorch.backends.pretend import PRETEND, PretendArray, PretendGPU, PretendXP, backend_for

from ._common import safe_str
from .runner import Case, Shortcut, WrongAnswer, run_check

__all__ = ["bench_results", "check_backend"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_backend": "MyBackend",
}



# ------------------------------------------------------------------ your own backend
def check_backend(backend_class: type) -> bool:
    """Check a device backend class: ``owns``, ``from_numpy`` and ``to_numpy``.

    The check plugs an instance in as the backend of the device ``"sim"`` (in place of the
    pretend GPU, which it puts back afterwards) and then uses it through minitorch: moves,
    operations, gradients, the mixed-device error. Its arrays are :class:`PretendArray`\\ s and
    its array module is :class:`PretendXP`.

    * ``owns(array)``: ``True`` exactly for the device's arrays (PretendArrays), so minitorch can
      tell where a tensor lives from its array's type;
    * ``from_numpy(array, index)``: a **copy** of a host NumPy array, on the device;
    * ``to_numpy(array)``: a **copy** of a device array as a plain ``np.ndarray``.

    The pretend GPU's own backend (``PretendGPU``) is refused, as a base class or called.

    Example:
        >>> from minitorch._backend import Backend
        >>> class MyBackend(Backend):
        ...     def owns(self, array):
        ...         return isinstance(array, PretendArray)
        ...     def from_numpy(self, array, index):
        ...         return np.asarray(array).view(PretendArray)   # no copy: wrong
        ...     def to_numpy(self, array):
        ...         return np.array(array.view(np.ndarray))
        >>> check_backend(MyBackend)  # doctest: +ELLIPSIS
        ✗ my backend: wrong result for `from_numpy copies the host array onto the device`...
        False
    """
    import minitorch

    def new_backend():
        if isinstance(backend_class, type) and issubclass(backend_class, PretendGPU):
            raise WrongAnswer(f"`{backend_class.__name__}` subclasses `PretendGPU`, the pretend "
                              f"GPU's own backend, so it does the work: {answer_key.why}")
        backend = backend_class()
        if not isinstance(getattr(backend, "xp", None), PretendXP):
            backend.xp = PretendXP()
        return backend

    def owns():
        backend = new_backend()
        return {"device array": bool(backend.owns(np.ones(2).view(PretendArray))),
                "host array": bool(backend.owns(np.ones(2))),
                "a list": bool(backend.owns([1.0, 2.0]))}

    def from_numpy():
        backend = new_backend()
        host = np.array([1.0, 2.0, 3.0], dtype=np.float32)
        on = backend.from_numpy(host, 0)
        kind = type(on).__name__
        host[0] = 100.0  # a copy does not see this
        return {"type": kind, "values": np.asarray(on).tolist(), "dtype": str(on.dtype)}

    def to_numpy():
        backend = new_backend()
        on = np.array([4.0, 5.0], dtype=np.float32).view(PretendArray)
        back = backend.to_numpy(on)
        kind = type(back).__name__
        on[0] = -1.0  # a copy does not see this
        return {"type": kind, "values": np.asarray(back).tolist()}

    def round_trip():
        backend = new_backend()
        found = _RoundTrip()
        for what, host in HOST_ARRAYS.items():
            on = backend.from_numpy(host.copy(), 0)
            back = backend.to_numpy(on)
            found[what] = {"device": _kind(on), "host": _kind(back),
                           "values": np.asarray(back).tolist()}
        return found

    def through_minitorch():
        with backend_for(PRETEND, new_backend()):
            x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]])
            g = x.to(PRETEND)
            y = (g @ g + 1).relu().sum(0)
            return {"moved to": str(g.device), "result on": str(y.device),
                    "result": y.cpu().numpy().tolist()}

    def gradients():
        with backend_for(PRETEND, new_backend()):
            w = minitorch.tensor([1.0, -2.0, 3.0], requires_grad=True)
            (w.to(PRETEND) ** 2).sum().backward()
            return {"w.grad on": str(w.grad.device), "w.grad": w.grad.numpy().tolist(),
                    "w.grad dtype": str(w.grad.dtype)}

    def mixed():
        with backend_for(PRETEND, new_backend()):
            try:
                minitorch.ones(2).to(PRETEND) + minitorch.ones(2)
            except RuntimeError as error:
                return safe_str(error)
            return "no error"

    messages = {
        "from_numpy type": "`from_numpy` must return a `PretendArray` (the device's kind of "
        "array), or minitorch thinks the tensor is still on the CPU.",
        "from_numpy copy": "The device array changed when the host array changed afterwards: "
        "they share memory. A GPU has its own memory, so `from_numpy` must **copy** the "
        "values (a view, or `np.asarray`, only looks at the same memory).",
        "to_numpy type": "`to_numpy` must return a plain `np.ndarray`, not a PretendArray "
        "(copying a PretendArray keeps its type: change the type too).",
        "to_numpy copy": "The host array changed when the device array changed afterwards: "
        "`to_numpy` must **copy** (a view, or `np.asarray`, shares the memory).",
    }

    def compare_owns(got, want):
        wrong = [kind for kind in want if got.get(kind) != want[kind]]
        if wrong:
            said = got.get(wrong[0])
            what = {"device array": "a device array", "host array": "a host NumPy array",
                    "a list": "a list"}.get(wrong[0], wrong[0])
            raise AssertionError(
                f"`owns` said {said} for {what}: it must be True exactly for the device's "
                "arrays (PretendArrays) and False for anything else, a plain NumPy array or a "
                "list included.")
        return True

    def compare_from(got, want):
        assert got["type"] == "PretendArray", messages["from_numpy type"]
        assert got["values"] == want["values"], messages["from_numpy copy"] \
            if got["values"][0] == 100.0 else (
                f"`from_numpy` should keep the values {want['values']}; its array holds "
                f"{got['values']}.")
        assert got["dtype"] == want["dtype"], (
            f"`from_numpy` must keep the dtype: the host array is {want['dtype']}, the device "
            f"array {got['dtype']}.")
        return True

    def compare_to(got, want):
        assert got["type"] in ("ndarray", "PretendArray"), (
            f"`to_numpy` returned a {got['type']}: it must return a plain `np.ndarray`.")
        assert got["type"] == "ndarray", messages["to_numpy type"]
        assert got["values"] == want["values"], messages["to_numpy copy"] \
            if got["values"][0] == -1.0 else (
                f"`to_numpy` should keep the values {want['values']}; its array holds "
                f"{got['values']}.")
        return True

    def compare_round_trip(got, want):
        for what, right in want.items():
            have = got[what]
            assert have["device"] == right["device"], (
                f"`from_numpy` turned a host array of {what} into {have['device']}: copy it "
                "as it is, with its dtype and shape.")
            assert have["host"] == right["host"], (
                f"`to_numpy` turned a device array of {what} into {have['host']}: copy it "
                "back as it is, with its dtype and shape.")
            assert have["values"] == right["values"], (
                f"A round trip changed the values of the array of {what}: "
                f"{right['values']} came back as {have['values']}.")
        return True

    answer_key = Shortcut(
        "The exercise is to write the pretend GPU's backend: minitorch's own `PretendGPU` "
        "is the answer key.", objects={"PretendGPU": PretendGPU})
    same_device = ("Expected all tensors to be on the same device, but found at least two "
                   f"devices, {PRETEND}:0 and cpu!")
    cases = [
        Case("owns: a PretendArray yes; a NumPy array or a list no", owns,
             {"device array": True, "host array": False, "a list": False},
             compare=compare_owns),
        Case("from_numpy copies the host array onto the device", from_numpy,
             {"type": "PretendArray", "values": [1.0, 2.0, 3.0], "dtype": "float32"},
             compare=compare_from),
        Case("to_numpy copies a device array back to a plain NumPy array", to_numpy,
             {"type": "ndarray", "values": [4.0, 5.0]}, compare=compare_to),
        Case("from_numpy, then to_numpy, keep the dtype and the shape ("
             + "; ".join(HOST_ARRAYS) + ")", round_trip,
             {what: {"device": _kind(host, "PretendArray"), "host": _kind(host),
                     "values": host.tolist()} for what, host in HOST_ARRAYS.items()},
             compare=compare_round_trip, expected_repr="each array as it was, on the device "
             "(a PretendArray) and back on the host (an ndarray): the same dtype, shape and "
             "values"),
        Case(f"through minitorch: x.to({PRETEND!r}), then (x @ x + 1).relu().sum(0)",
             through_minitorch, {"moved to": f"{PRETEND}:0", "result on": f"{PRETEND}:0",
                                 "result": [24.0, 34.0]}),
        Case("gradients come back to the CPU leaf", gradients,
             {"w.grad on": "cpu", "w.grad": [2.0, -4.0, 6.0], "w.grad dtype": "torch.float32"}),
        Case("mixing devices raises PyTorch's error", mixed, same_device),
    ]
    return run_check(
        "my backend", cases,
        hint=(
            "A backend converts arrays to and from its own kind, and must copy so the two sides "
            "never share memory."
        ),
        more_help=[
            "`owns` answers whether an array is of this backend's kind.",
            "`from_numpy` and `to_numpy` must each return a copy: change the copy, and the "
            "original must stay the same.",
        ],
        refuse=[answer_key],
    )


# Host arrays whose dtype and shape a backend must keep both ways (float32 is the other cases').
HOST_ARRAYS = {
    "int64, shape (2, 3)": np.arange(6, dtype=np.int64).reshape(2, 3),
    "float32, shape (2, 2), transposed": np.arange(4, dtype=np.float32).reshape(2, 2).T,
    "float64, shape ()": np.array(2.5, dtype=np.float64),
    "bool, shape (3,)": np.array([True, False, True]),
}


def _kind(array, name=None) -> str:
    """'a PretendArray of int64, shape (2, 3)': an array's type, dtype and shape, in words."""
    name = name or type(array).__name__
    article = "an" if name[0] in "aeiou" or name == "ndarray" else "a"
    dtype, shape = getattr(array, "dtype", None), getattr(array, "shape", None)
    if dtype is None or shape is None:
        return f"{article} {name}"
    return f"{article} {name} of {dtype}, shape {tuple(shape)}"


class _RoundTrip(dict):
    """What came back from each round trip, shown as the host arrays it gave."""

    def __repr__(self) -> str:
        return "; ".join(f"{what} came back as {found['host']}" for what, found in self.items())


# ------------------------------------------------------------------ benchmark files
RESULTS_FOLDER = Path(__file__).resolve().parent / "bench_results"


def bench_results(folder: str | Path | None = None) -> list[dict]:
    """The benchmark results of ``bench/bench_gpu.py``, saved as JSON files.

    Without ``folder``, reads the files that ship with the package, in
    ``minitorch/exercises/bench_results/`` (package data: there after any install, Colab's
    included). Each result is the JSON dict with ``"file"`` added; sorted by file name. An
    empty list when there are none.

    Example:
        >>> all("matmul" in r for r in bench_results())
        True
    """
    if folder is None:
        folder = RESULTS_FOLDER
    results = []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and "matmul" in data:
            data["file"] = path.name
            results.append(data)
    return results

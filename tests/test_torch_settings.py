"""``torch.asarray`` and the global settings (determinism, float32 matmul precision, warn
always, inter-op threads, the default tensor type) and ``typename`` / ``is_storage``, side by
side with PyTorch: the same calls on both libraries give the same values, memory sharing,
graph nodes, warnings and errors."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for these functions")

LIBS = pytest.mark.parametrize("lib", [minitorch, torch], ids=["minitorch", "torch"])


@pytest.fixture(autouse=True)
def _restore_settings():
    yield
    for lib in (minitorch, torch):
        lib.use_deterministic_algorithms(False)
        lib.set_float32_matmul_precision("highest")
        lib.set_warn_always(False)
        lib.set_default_dtype(lib.float32)
    minitorch._interop_threads = None


def outcome(fn):
    """What a call gives: its result's repr (or the exception's class and message), and the
    texts of its warnings, without PyTorch's note on where in C++ it warned."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", repr(fn()))
        except Exception as e:  # the error is what is compared
            result = (type(e).__name__, str(e))
    return result, [str(w.message).split(" (Triggered internally")[0] for w in caught]


def same(call):
    """``call(lib)`` gives the same outcome with minitorch and with torch."""
    mine, ref = outcome(lambda: call(minitorch)), outcome(lambda: call(torch))
    assert mine == ref


# ------------------------------------------------------------------------------- asarray
@pytest.mark.parametrize("data", [
    [1.5, 2.0], [1, 2], [True, False], [1, 2.5], [[1, 2], [3, 4]], 3, 3.5, True, [], (1, 2.5),
    [True, 2], range(3), [np.float64(1.0), 2.0], np.float32(2.0), np.float64(2.0),
    np.int16(3), "abc", None, [[1, 2], [3]],
], ids=lambda d: type(d).__name__ + repr(d)[:20])
def test_asarray_python_data_dtypes_and_errors(data):
    same(lambda lib: lib.asarray(data))


@pytest.mark.parametrize("dtype", ["float64", "float16", "int64", "uint8", "bool"])
def test_asarray_python_data_with_dtype(dtype):
    same(lambda lib: lib.asarray([1.5, -2.0, 0.0], dtype=getattr(lib, dtype)))


def test_asarray_follows_the_default_dtype():
    for lib in (minitorch, torch):
        lib.set_default_dtype(lib.float64)
    same(lambda lib: lib.asarray([1.0, 2.0]))
    same(lambda lib: lib.asarray(np.ones(2, np.float32)))  # a NumPy array keeps its dtype


@pytest.mark.parametrize("np_dtype", [np.float64, np.float32, np.float16, np.int64, np.int32,
                                      np.int8, np.uint8, np.bool_])
def test_asarray_numpy_shares_memory_and_keeps_dtype(np_dtype):
    for lib in (minitorch, torch):
        a = np.arange(4).reshape(2, 2).astype(np_dtype)
        t = lib.asarray(a)
        assert str(t.dtype) == f"torch.{np.dtype(np_dtype).name}".replace("bool_", "bool")
        a[0, 0] = 1
        assert t[0, 0].item() == 1, lib.__name__  # the same memory
        c = lib.asarray(a, copy=True)
        a[0, 0] = 0
        assert c[0, 0].item() == 1, lib.__name__  # its own memory


def test_asarray_numpy_strides_and_views():
    base = np.ones((2, 3))
    same(lambda lib: lib.asarray(base.T).stride())
    same(lambda lib: lib.asarray(base[:, ::2]).stride())
    same(lambda lib: lib.asarray(np.arange(3.0)[::-1]))  # negative strides: PyTorch's error
    same(lambda lib: lib.asarray(np.arange(3.0)[::-1], copy=True))
    same(lambda lib: lib.asarray(np.array(2.0), copy=False))  # 0-d arrays are aliased


@pytest.mark.parametrize("src,dst", [(np.float64, "float32"), (np.float64, "int64"),
                                     (np.int64, "uint8"), (np.int8, "float16"),
                                     (np.int32, "int16"), (np.bool_, "float64")])
def test_asarray_numpy_other_dtype(src, dst):
    a = np.arange(3).astype(src)
    same(lambda lib: lib.asarray(a, dtype=getattr(lib, dst)))  # converted: a copy
    same(lambda lib: lib.asarray(a, dtype=getattr(lib, dst), copy=False))  # can't alias


def test_asarray_copy_false_errors_for_python_data():
    same(lambda lib: lib.asarray([1.0, 2.0], copy=False))
    same(lambda lib: lib.asarray(3.0, copy=False))
    same(lambda lib: lib.asarray(np.float32(2.0), copy=False))


@pytest.mark.parametrize("copy", [None, False, True])
def test_asarray_tensor_same_dtype(copy):
    for lib in (minitorch, torch):
        x = lib.ones(2, 3)
        out = lib.asarray(x, copy=copy)
        assert (out is x) == (copy is not True), lib.__name__
        out[0, 0] = 5
        assert (x[0, 0].item() == 5) == (copy is not True), lib.__name__
    same(lambda lib: lib.asarray(lib.ones(2, 3).t(), copy=copy).stride())


def test_asarray_tensor_other_dtype():
    same(lambda lib: lib.asarray(lib.ones(2), dtype=lib.float64))
    same(lambda lib: lib.asarray(lib.ones(2), dtype=lib.float64, copy=False))
    same(lambda lib: lib.asarray(lib.ones(2, dtype=lib.int64), dtype=lib.uint8, copy=False))
    same(lambda lib: lib.asarray(lib.ones(2, dtype=lib.bool), dtype=lib.float16))
    for lib in (minitorch, torch):
        x = lib.ones(2)
        assert lib.asarray(x, device="cpu", copy=False) is x


def test_asarray_requires_grad_of_a_tensor():
    def graph(lib, **kw):
        x = lib.ones(2, requires_grad=True)
        y = x * 2
        out = lib.asarray(y, **kw)
        return out, out is y, out.grad_fn is not None and type(out.grad_fn).__name__, \
            out.requires_grad, out.is_leaf

    for kw in ({}, {"requires_grad": False}, {"requires_grad": True}, {"copy": True},
               {"copy": True, "requires_grad": False}, {"dtype": "float64"},
               {"dtype": "float64", "requires_grad": False}):
        same(lambda lib, kw=kw: graph(lib, **{k: getattr(lib, v) if k == "dtype" else v
                                              for k, v in kw.items()}))


def test_asarray_requires_grad_true_on_a_leaf():
    for lib in (minitorch, torch):
        x = lib.ones(2)
        out = lib.asarray(x, requires_grad=True)
        assert out is x and x.requires_grad and x.is_leaf, lib.__name__
        c = lib.asarray(lib.ones(2), copy=True, requires_grad=True)
        assert c.requires_grad and c.is_leaf, lib.__name__
    same(lambda lib: lib.asarray(lib.ones(2, dtype=lib.int64), requires_grad=True))
    same(lambda lib: lib.asarray([1, 2], requires_grad=True))
    same(lambda lib: lib.asarray([1.0, 2.0], dtype=lib.float64, requires_grad=True))


def test_asarray_numpy_requires_grad_shares_memory():
    for lib in (minitorch, torch):
        a = np.arange(3.0)
        t = lib.asarray(a, requires_grad=True)
        assert t.requires_grad and t.is_leaf, lib.__name__
        a[0] = 9
        assert t[0].item() == 9, lib.__name__
    same(lambda lib: lib.asarray(np.arange(3), requires_grad=True))


def test_asarray_argument_errors():
    same(lambda lib: lib.asarray([1.0], dtype="float32"))
    same(lambda lib: lib.asarray([1.0], dtype=float))
    same(lambda lib: lib.asarray([1.0], copy=1))
    same(lambda lib: lib.asarray([1.0], requires_grad=1))


# ------------------------------------------------------------------------- determinism
def test_deterministic_flags():
    def run(lib):
        seen = [(lib.are_deterministic_algorithms_enabled(),
                 lib.is_deterministic_algorithms_warn_only_enabled(),
                 lib.get_deterministic_debug_mode())]
        for mode, warn_only in ((True, False), (True, True), (False, True), (False, False)):
            lib.use_deterministic_algorithms(mode, warn_only=warn_only)
            seen.append((lib.are_deterministic_algorithms_enabled(),
                         lib.is_deterministic_algorithms_warn_only_enabled(),
                         lib.get_deterministic_debug_mode()))
        return seen

    same(run)


@pytest.mark.parametrize("args,kwargs", [((1,), {}), (("x",), {}), ((None,), {}),
                                         ((True,), {"warn_only": 1}), ((), {})])
def test_use_deterministic_algorithms_errors(args, kwargs):
    same(lambda lib: lib.use_deterministic_algorithms(*args, **kwargs))


@pytest.mark.parametrize("mode", [0, 1, 2, "default", "warn", "error", True, False, 3, -1, "foo",
                                  "WARN", 1.0, None])
def test_deterministic_debug_mode(mode):
    def run(lib):
        lib.set_deterministic_debug_mode(2)  # a change that a bad mode must not undo
        try:
            lib.set_deterministic_debug_mode(mode)
        finally:
            state = (lib.get_deterministic_debug_mode(),
                     lib.are_deterministic_algorithms_enabled(),
                     lib.is_deterministic_algorithms_warn_only_enabled())
        return state

    same(run)


def test_deterministic_cpu_ops_unchanged():
    """The adds over repeated indices are deterministic on the CPU: no error, the same sums."""
    def run(lib):
        lib.use_deterministic_algorithms(True)
        i = lib.tensor([0, 0, 2])
        return (lib.zeros(3).index_add_(0, i, lib.ones(3)),
                lib.zeros(3).scatter_add_(0, i, lib.ones(3)),
                lib.zeros(3).index_put_((i,), lib.ones(3), accumulate=True),
                lib.zeros(3).put_(i, lib.ones(3), accumulate=True))

    same(run)


_PUTS = {
    "put_": lambda lib, x, i, v, **kw: x.put_(i, v, **kw),
    "put": lambda lib, x, i, v, **kw: x.put(i, v, **kw),
    "torch.put": lambda lib, x, i, v, **kw: lib.put(x, i, v, **kw),
}


@pytest.mark.parametrize("warn_only", [False, True])
@pytest.mark.parametrize("accumulate", [False, True])
@pytest.mark.parametrize("how", sorted(_PUTS))
def test_deterministic_put(how, accumulate, warn_only):
    """put_ without accumulate has no deterministic implementation (which repeated index
    wins?): PyTorch's error, or its warning with warn_only."""
    def run(lib):
        lib.use_deterministic_algorithms(True, warn_only=warn_only)
        return _PUTS[how](lib, lib.zeros(3), lib.tensor([0, 2]), lib.ones(2),
                          accumulate=accumulate)

    same(run)
    same(lambda lib: _PUTS[how](lib, lib.zeros(3), lib.tensor([0, 2]), lib.ones(2),
                                accumulate=accumulate))  # the flag off: no word


def test_deterministic_warning_names_the_callers_line():
    minitorch.use_deterministic_algorithms(True, warn_only=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minitorch.zeros(3).put_(minitorch.tensor([0]), minitorch.ones(1))
        minitorch.nn.MaxUnpool1d(2)(minitorch.ones(1, 1, 2), minitorch.tensor([[[0, 1]]]))
    assert [w.filename for w in caught] == [__file__, __file__]


def test_deterministic_put_checks_come_after_the_alert():
    def run(lib):
        lib.use_deterministic_algorithms(True)
        return lib.zeros(3).put_(lib.tensor([5]), lib.ones(1))

    same(run)
    same(lambda lib: lib.zeros(3).put_([0], lib.ones(1)))  # no tensor: the TypeError first


def test_deterministic_put_accumulate_on_the_gpu(gpu):
    minitorch.use_deterministic_algorithms(True)
    x = minitorch.zeros(3, device="cuda")
    with pytest.raises(RuntimeError, match=r"^put_ does not have a deterministic implementation"):
        x.put_(minitorch.tensor([0, 0], device="cuda"), minitorch.ones(2, device="cuda"),
               accumulate=True)


@pytest.mark.parametrize("warn_only", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_deterministic_max_unpool(n, warn_only):
    def run(lib):
        lib.use_deterministic_algorithms(True, warn_only=warn_only)
        x = lib.arange(1.0, 3.0).reshape((1, 1) + (1,) * (n - 1) + (2,))
        unpool = getattr(lib.nn.functional, f"max_unpool{n}d")
        return unpool(x, lib.tensor([0, 1]).reshape(x.shape), 2)

    same(run)


@pytest.mark.parametrize("make", [
    lambda lib: lib.empty(2), lambda lib: lib.empty(2, 3, dtype=lib.int64),
    lambda lib: lib.empty(2, dtype=lib.int8), lambda lib: lib.empty(2, dtype=lib.bool),
    lambda lib: lib.empty(2, dtype=lib.uint8), lambda lib: lib.empty(2, dtype=lib.float16),
    lambda lib: lib.empty(2, dtype=lib.float64), lambda lib: lib.empty(0),
    lambda lib: lib.empty_like(lib.ones(2, 3).t()),
    lambda lib: lib.empty_like(lib.ones(2, 3).t()).stride(),
    lambda lib: lib.empty_like(lib.ones(2, dtype=lib.int32)),
    lambda lib: lib.empty_strided((2, 3), (1, 2)),
    lambda lib: lib.empty_permuted((2, 3), (1, 0)),
    lambda lib: lib.ones(1).new_empty(2, dtype=lib.int16),
    lambda lib: lib.FloatTensor(2), lambda lib: lib.LongTensor(2, 1),
])
def test_deterministic_fills_uninitialized_memory(make):
    """With the flag on, the uninitialised factories fill NaN (integers: their largest value,
    bool: True), as PyTorch's do."""
    def run(lib):
        lib.use_deterministic_algorithms(True)
        return make(lib)

    same(run)


def test_deterministic_fills_on_the_gpu(gpu):
    minitorch.use_deterministic_algorithms(True)
    t = minitorch.empty(2, device="cuda")
    assert t.device.type == "cuda" and t.isnan().all().item()


# --------------------------------------------------------------------- matmul precision
@pytest.mark.parametrize("precision", ["highest", "high", "medium", "low", "HIGH", 1, None])
def test_float32_matmul_precision(precision):
    def run(lib):
        lib.set_float32_matmul_precision("medium")
        try:
            lib.set_float32_matmul_precision(precision)
        finally:
            got = lib.get_float32_matmul_precision()
        return got

    same(run)


def test_float32_matmul_precision_starts_highest():
    same(lambda lib: lib.get_float32_matmul_precision())


# ------------------------------------------------------------- typename and is_storage
@pytest.mark.parametrize("make", [
    lambda lib: lib.ones(2), lambda lib: lib.ones(2, dtype=lib.int64),
    lambda lib: lib.ones(2, dtype=lib.float64), lambda lib: lib.ones(2, dtype=lib.bool),
    lambda lib: lib.ones(2, dtype=lib.float16), lambda lib: lib.ones(2, dtype=lib.uint8),
    lambda lib: lib.ones(2, dtype=lib.int8), lambda lib: lib.ones(2, dtype=lib.int16),
    lambda lib: lib.ones(2, dtype=lib.int32), lambda lib: lib.ones(2, requires_grad=True) * 2,
    lambda lib: lib.nn.Parameter(lib.ones(1)), lambda lib: 1, lambda lib: 1.0,
    lambda lib: "s", lambda lib: None, lambda lib: [1], lambda lib: np.ones(2),
    lambda lib: np.float32, lambda lib: int, lambda lib: warnings.catch_warnings,
])
def test_typename_and_is_storage(make):
    same(lambda lib: (lib.typename(make(lib)), lib.is_storage(make(lib))))


def test_typename_and_is_storage_argument_errors():
    same(lambda lib: lib.typename())
    same(lambda lib: lib.typename(obj=1))
    same(lambda lib: lib.is_storage())


# --------------------------------------------------------------------------- warn always
@pytest.mark.parametrize("value", [True, False, 1, "x", None])
def test_set_warn_always(value):
    def run(lib):
        try:
            lib.set_warn_always(value)
        finally:
            got = lib.is_warn_always_enabled()
        return got

    same(run)


def test_warn_always_repeats_the_once_a_process_warnings():
    def warnings_of_two_calls(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.set_default_tensor_type(lib.FloatTensor)
            lib.set_default_tensor_type(lib.FloatTensor)
        return len(caught)

    for lib in (minitorch, torch):
        lib.set_default_tensor_type(lib.FloatTensor)  # given once, maybe now
        assert warnings_of_two_calls(lib) == 0, lib.__name__
        lib.set_warn_always(True)
        assert warnings_of_two_calls(lib) == 2, lib.__name__


# ------------------------------------------------------------------- default tensor type
@pytest.mark.parametrize("t", ["DoubleTensor", "HalfTensor", "FloatTensor", "LongTensor",
                               "BoolTensor", "torch.DoubleTensor", "torch.IntTensor",
                               "torch.Foo", "float", "dtype", "Tensor", 1])
def test_set_default_tensor_type(t):
    def run(lib):
        lib.set_warn_always(True)
        arg = getattr(lib, t) if isinstance(t, str) and not t.startswith("torch.") and \
            t != "float" else t
        if t == "dtype":
            arg = lib.float64
        try:
            lib.set_default_tensor_type(arg)
        finally:
            got = lib.get_default_dtype(), lib.tensor([1.5]).dtype
        return got

    same(run)


# ------------------------------------------------------------------- inter-op threads
_INTEROP = """
import warnings, {lib} as lib
def tr(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, str(e))
tr(lambda: type(lib.get_num_interop_threads()).__name__)
for n in (0, -1, "x", 2.0, True):
    tr(lambda: lib.set_num_interop_threads(n))
tr(lambda: lib.set_num_interop_threads(3))
tr(lambda: lib.get_num_interop_threads())
tr(lambda: lib.set_num_interop_threads(3))
tr(lambda: lib.set_num_interop_threads(2))
tr(lambda: lib.get_num_interop_threads())
"""


def test_num_interop_threads_set_once():
    """Each library in a fresh process: PyTorch's number can be set once a process."""
    outs = [subprocess.run([sys.executable, "-c", _INTEROP.format(lib=name)], capture_output=True,
                           text=True, check=True, cwd=str(__import__("pathlib").Path(
                               minitorch.__file__).parent.parent)).stdout
            for name in ("minitorch", "torch")]
    assert outs[0] == outs[1]
    assert outs[0].splitlines()[-1] == "3"


def test_num_interop_threads_default_is_positive():
    assert minitorch.get_num_interop_threads() >= 1

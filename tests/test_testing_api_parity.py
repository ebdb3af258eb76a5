"""``minitorch.testing`` (``assert_close``, ``make_tensor``), ``finfo``/``iinfo``, the dtype
questions (``result_type``, ``can_cast``, ``is_floating_point``, ``is_nonzero``,
``is_complex``), ``byte``/``char``/``short``, ``apply_``/``map_`` and the random fills
``exponential_``, ``cauchy_``, ``log_normal_``, ``geometric_``, each against the pinned PyTorch.

Every case runs the same code with ``lib = torch`` and ``lib = minitorch`` and compares what
comes back, or the exception's type and message. A type in a message is printed by each
library as its own (``<class 'minitorch._tensor.Tensor'>``): those names are mapped to
PyTorch's before the messages are compared. The random fills must give PyTorch's numbers bit
for bit after the same seed.
"""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")


def _outcome(fn, lib):
    """What ``fn(lib)`` returns (tensors as NumPy arrays with their dtype names), or the
    exception's type and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", FutureWarning)
            value = fn(lib)
    except Exception as e:  # the exception is what is compared
        message = str(e).replace("minitorch._tensor.Tensor", "torch.Tensor")
        message = message.replace("minitorch.nn.parameter", "torch.nn.parameter")
        return ("raised", type(e).__name__, message)
    return _plain(value)


def _plain(value):
    if isinstance(value, (torch.Tensor, minitorch.Tensor)):
        a = value.detach().cpu().numpy()
        return ("tensor", a.shape, str(a.dtype), a.tobytes())
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_plain(v) for v in value]
    if isinstance(value, (torch.dtype, minitorch.dtype)):
        return repr(value)
    return value


def _same(fn) -> None:
    mine, ref = _outcome(fn, minitorch), _outcome(fn, torch)
    assert mine == ref, f"\nminitorch: {mine}\ntorch:     {ref}"


# ---------------------------------------------------------------- assert_close
def _ac(a, b, **kw):
    """``lib.testing.assert_close`` on values made by ``a(lib)``, ``b(lib)``."""
    return lambda lib: lib.testing.assert_close(a(lib), b(lib), **kw)


def _t(*args, **kw):
    def make(lib):
        kw2 = {k: getattr(lib, v) if isinstance(v, str) and k == "dtype" else v
               for k, v in kw.items()}
        return lib.tensor(*args, **kw2)
    return make


NAN, INF = float("nan"), float("inf")
ASSERT_CLOSE = {
    "equal": _ac(_t([1.0, 2.0, 3.0]), _t([1.0, 2.0, 3.0])),
    "within-f32": _ac(_t([1.0, 2.0]), _t([1.0, 2.0 + 2e-6])),
    "one-off": _ac(_t([1.0, 2.0, 3.0]), _t([1.0, 2.5, 3.0])),
    "two-off-2d": _ac(_t([[1.0, 2.0], [3.0, 4.0]]), _t([[1.5, 2.0], [3.0, 0.0]])),
    "f64": _ac(_t([1.0, 2.0], dtype="float64"), _t([1.0, 2.0 + 1e-6], dtype="float64")),
    "f64-close": _ac(_t([1.0, 2.0], dtype="float64"), _t([1.0, 2.0 + 1e-8], dtype="float64")),
    "f16": _ac(_t([1.0, 2.0], dtype="float16"), _t([1.0, 2.01], dtype="float16")),
    "f16-close": _ac(_t([100.0], dtype="float16"), _t([100.06], dtype="float16")),
    "int": _ac(_t([1, 2, 3]), _t([1, 2, 4])),
    "int8": _ac(_t([1, -2], dtype="int8"), _t([1, 2], dtype="int8")),
    "uint8": _ac(_t([0, 200], dtype="uint8"), _t([10, 2], dtype="uint8")),
    "bool": _ac(_t([True, False]), _t([True, True])),
    "0d": _ac(_t(1.0), _t(1.5)),
    "0d-int": _ac(_t(3), _t(4)),
    "0d-zero": _ac(_t(1.0), _t(0.0)),
    "nan": _ac(_t([NAN, 1.0]), _t([NAN, 1.0])),
    "nan-equal": _ac(_t([NAN, 1.0]), _t([NAN, 1.0]), equal_nan=True),
    "nan-one-side": _ac(_t([1.0, 2.0]), _t([1.0, NAN])),
    "inf": _ac(_t([INF, -INF]), _t([INF, -INF])),
    "inf-sign": _ac(_t([INF, 1.0]), _t([-INF, 1.0])),
    "zero-expected": _ac(_t([0.5, 0.0]), _t([0.0, 0.0])),
    "empty": _ac(_t([]), _t([])),
    "shape": _ac(_t([1.0, 2.0]), _t([[1.0, 2.0]])),
    "dtype": _ac(_t([1.0, 2.0]), _t([1.0, 2.0], dtype="float64")),
    "dtype-unchecked": _ac(_t([1.0, 2.0]), _t([1, 2]), check_dtype=False),
    "dtype-unchecked-off": _ac(_t([1.0, 2.5]), _t([1, 2]), check_dtype=False),
    "stride": _ac(lambda lib: lib.ones(2, 3).t(), lambda lib: lib.ones(3, 2), check_stride=True),
    "stride-off": _ac(lambda lib: lib.ones(2, 3).t(), lambda lib: lib.ones(3, 2)),
    "tolerances": _ac(_t([1.0, 2.0]), _t([1.0, 2.1]), rtol=0.1, atol=0.0),
    "tolerances-fail": _ac(_t([1.0, 2.0]), _t([1.0, 2.5]), rtol=0.1, atol=0.01),
    "exact": _ac(_t([1.0, 2.0]), _t([1.0, 2.0000001]), rtol=0, atol=0),
    "only-rtol": _ac(_t([1.0]), _t([1.0]), rtol=0.1),
    "only-atol": _ac(_t([1.0]), _t([1.0]), atol=0.1),
    "msg-str": _ac(_t([1.0]), _t([2.0]), msg="mine"),
    "msg-callable": _ac(_t([1.0]), _t([2.0]), msg=lambda m: f"<{m}>"),
    "msg-not-for-shape": _ac(_t([1.0]), _t([1.0, 2.0]), msg="mine"),
    "msg-keys": _ac(lambda lib: {"a": 1}, lambda lib: {"b": 1}, msg="mine"),
    "numbers": _ac(lambda lib: 1.0, lambda lib: 1.0 + 1e-9),
    "numbers-off": _ac(lambda lib: 1.0, lambda lib: 1.5),
    "numbers-zero": _ac(lambda lib: 0.5, lambda lib: 0.0),
    "numbers-int-float": _ac(lambda lib: 1, lambda lib: 1.0),
    "numbers-int": _ac(lambda lib: 3, lambda lib: 4),
    "numbers-nan": _ac(lambda lib: NAN, lambda lib: NAN, equal_nan=True),
    "numbers-nan-off": _ac(lambda lib: NAN, lambda lib: NAN),
    "numpy-number": _ac(lambda lib: np.float32(1.0), lambda lib: np.float32(2.0)),
    "bools": _ac(lambda lib: True, lambda lib: False),
    "none": _ac(lambda lib: None, lambda lib: None),
    "none-mismatch": _ac(lambda lib: None, lambda lib: 1),
    "list": _ac(lambda lib: [lib.tensor([1.0]), 2], lambda lib: [lib.tensor([1.0]), 2]),
    "list-len": _ac(lambda lib: [1, 2], lambda lib: [1, 2, 3]),
    "list-item": _ac(lambda lib: [lib.tensor([1.0]), lib.tensor([2.0])],
                     lambda lib: [lib.tensor([1.0]), lib.tensor([3.0])]),
    "nested": _ac(lambda lib: {"a": [1, {"b": lib.tensor([1.0, 2.0])}]},
                  lambda lib: {"a": [1, {"b": lib.tensor([1.0, 2.5])}]}),
    "nested-callable": _ac(lambda lib: {"a": [lib.tensor(1.0)]},
                           lambda lib: {"a": [lib.tensor(2.0)]}, msg=lambda m: m.upper()),
    "mapping-keys": _ac(lambda lib: {"a": 1, "c": 2}, lambda lib: {"a": 1, "b": 2}),
    "size": _ac(lambda lib: lib.ones(2, 3).shape, lambda lib: (2, 3)),
    "size-off": _ac(lambda lib: lib.ones(2, 3).shape, lambda lib: (2, 4)),
    "tensor-vs-number": _ac(_t(1.0), lambda lib: 1.0),
    "tensor-vs-numpy": _ac(_t([1.0]), lambda lib: np.array([1.0], np.float32)),
    "numpy-arrays": _ac(lambda lib: np.array([1.0, 2.0]), lambda lib: np.array([1.0, 3.0])),
    "strings": _ac(lambda lib: "a", lambda lib: "a"),
    "parameter": _ac(lambda lib: lib.nn.Parameter(lib.ones(2)), lambda lib: lib.ones(2)),
    "parameter-no-subclasses": _ac(lambda lib: lib.nn.Parameter(lib.ones(2)),
                                   lambda lib: lib.ones(2), allow_subclasses=False),
    "requires-grad": _ac(lambda lib: lib.ones(2, requires_grad=True), lambda lib: lib.ones(2)),
    "requires-grad-off": _ac(lambda lib: lib.ones(2, requires_grad=True), lambda lib: lib.zeros(2)),
    "non-leaf-off": _ac(lambda lib: lib.ones(2, requires_grad=True) * 2, lambda lib: lib.ones(2)),
    "big-index": _ac(lambda lib: lib.arange(24.0).reshape(2, 3, 4),
                     lambda lib: lib.arange(24.0).reshape(2, 3, 4) * 1.01),
    "int-vs-float-mixed": _ac(_t([1, 2]), _t([1.0, 2.0])),
}


@pytest.mark.parametrize("case", sorted(ASSERT_CLOSE))
def test_assert_close(case):
    _same(ASSERT_CLOSE[case])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), max_size=3), st.sampled_from(
    ["float16", "float32", "float64", "int64", "uint8", "bool"]), st.integers(0, 2**31),
       st.sampled_from([None, (0.0, 0.0), (1e-2, 1e-3)]), st.booleans())
def test_assert_close_any_shape(shape, dtype, seed, tolerances, check_dtype):
    """Random shapes and dtypes, a few elements changed (by a little or a lot, to NaN or inf):
    the same verdict and report, indices included."""
    rng = np.random.default_rng(seed)
    a = np.asarray(rng.standard_normal(shape) * 3).astype(dtype)
    b = a.copy()
    if b.size:
        flat = b.reshape(-1)
        for i in rng.choice(b.size, size=rng.integers(0, b.size + 1), replace=False):
            change = rng.choice(["tiny", "big", "nan", "inf"] if b.dtype.kind == "f"
                                else ["big"])
            if change == "big":  # (uint8 wraps around 255)
                flat[i] = not flat[i] if b.dtype == np.bool_ else (int(flat[i]) + 2) % 256
            else:
                flat[i] = {"tiny": flat[i] * (1 + 1e-6), "nan": np.nan, "inf": np.inf}[change]
    other = np.float64 if check_dtype is False else dtype
    kw = {} if tolerances is None else dict(zip(("rtol", "atol"), tolerances))
    _same(lambda lib: lib.testing.assert_close(lib.from_numpy(a.copy()),
                                               lib.from_numpy(b.astype(other)),
                                               check_dtype=check_dtype, **kw))


def test_assert_close_device():
    """On another device: PyTorch's attribute message (the GPU, or the pretend one); with
    ``check_device=False`` both are compared on the CPU."""
    from minitorch.backends.pretend import second_device

    gpu = second_device()
    a = minitorch.ones(2)
    with pytest.raises(AssertionError, match=re.escape(
            f"The values for attribute 'device' do not match: cpu != {a.to(gpu).device}.")):
        minitorch.testing.assert_close(a, a.to(gpu))
    minitorch.testing.assert_close(a, a.to(gpu), check_device=False)
    with pytest.raises(AssertionError, match="Tensor-likes are not close"):
        minitorch.testing.assert_close(a, (a + 1).to(gpu), check_device=False)


# ---------------------------------------------------------------- make_tensor
MAKE_TENSOR = {
    "f32": lambda lib: lib.testing.make_tensor(3, 4, dtype=lib.float32, device="cpu"),
    "f64-range": lambda lib: lib.testing.make_tensor((17,), dtype=lib.float64, device="cpu",
                                                       low=-1, high=1),
    "f16": lambda lib: lib.testing.make_tensor(20, dtype=lib.float16, device="cpu"),
    "int64": lambda lib: lib.testing.make_tensor(5, 5, dtype=lib.int64, device="cpu"),
    "uint8": lambda lib: lib.testing.make_tensor([10], dtype=lib.uint8, device="cpu"),
    "int8-clamped": lambda lib: lib.testing.make_tensor(30, dtype=lib.int8, device="cpu",
                                                        low=-1000, high=1000),
    "bool": lambda lib: lib.testing.make_tensor(2, 8, dtype=lib.bool, device="cpu"),
    "noncontiguous": lambda lib: lib.testing.make_tensor(3, 4, dtype=lib.float32, device="cpu",
                                                         noncontiguous=True),
    "exclude-zero-int": lambda lib: lib.testing.make_tensor(40, dtype=lib.int32, device="cpu",
                                                            low=-1, high=2, exclude_zero=True),
    "exclude-zero-float": lambda lib: lib.testing.make_tensor(
        4, dtype=lib.float32, device="cpu", low=0, high=1e-44, exclude_zero=True),
    "full-range": lambda lib: lib.testing.make_tensor(6, dtype=lib.float32, device="cpu",
                                                      low=-1e39, high=1e39),
    "requires-grad": lambda lib: lib.testing.make_tensor(2, dtype=lib.float32, device="cpu",
                                                         requires_grad=True).requires_grad,
    "requires-grad-int": lambda lib: lib.testing.make_tensor(2, dtype=lib.int64, device="cpu",
                                                             requires_grad=True),
    "low-high": lambda lib: lib.testing.make_tensor(2, dtype=lib.float32, device="cpu", low=2,
                                                    high=1),
    "low-nan": lambda lib: lib.testing.make_tensor(2, dtype=lib.float32, device="cpu",
                                                   low=float("nan")),
    "out-of-range": lambda lib: lib.testing.make_tensor(2, dtype=lib.uint8, device="cpu",
                                                        low=-10, high=-1),
    "low-equals-high": lambda lib: lib.testing.make_tensor(2, dtype=lib.float32, device="cpu",
                                                           low=1, high=1),
}


@pytest.mark.parametrize("seed", [0, 7])
@pytest.mark.parametrize("case", sorted(MAKE_TENSOR))
def test_make_tensor(case, seed):
    """The same numbers as torch after the same seed (it is built from randint and uniform_),
    the same dtype, shape and strides, and PyTorch's errors."""
    def run(lib):
        lib.manual_seed(seed)
        out = MAKE_TENSOR[case](lib)
        return (out, out.stride()) if isinstance(out, (torch.Tensor, minitorch.Tensor)) else out
    _same(run)


# ---------------------------------------------------------------- finfo, iinfo
FLOATS = ("float16", "float32", "float64")
INTS = ("uint8", "int8", "int16", "int32", "int64")


def _info(kind, name):
    def run(lib):
        info = getattr(lib, kind)(getattr(lib, name) if isinstance(name, str) else name)
        attrs = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")
        return repr(info), str(info), [(a, getattr(info, a, None),
                                        type(getattr(info, a, None)).__name__) for a in attrs]
    return run


@pytest.mark.parametrize("name", FLOATS + INTS + ("bool",))
@pytest.mark.parametrize("kind", ["finfo", "iinfo"])
def test_finfo_iinfo(kind, name):
    _same(_info(kind, name))


@pytest.mark.parametrize("arg", [float, int, bool, "float32", None, 1.0])
@pytest.mark.parametrize("kind", ["finfo", "iinfo"])
def test_finfo_iinfo_python_types_and_errors(kind, arg):
    _same(_info(kind, arg))


def test_finfo_default_dtype_and_equality():
    _same(lambda lib: repr(lib.finfo()))
    _same(lambda lib: (lib.finfo(lib.float32) == lib.finfo(lib.float32),
                       lib.finfo(lib.float32) == lib.finfo(lib.float64),
                       lib.iinfo(lib.int8) == lib.iinfo(lib.int8)))
    minitorch.set_default_dtype(minitorch.float64)
    try:
        assert minitorch.finfo().dtype == "float64"
    finally:
        minitorch.set_default_dtype(minitorch.float32)
    _same(lambda lib: lib.iinfo())


# ---------------------------------------------------------------- dtype questions
ALL = FLOATS + INTS + ("bool",)


@pytest.mark.parametrize("to", ALL)
@pytest.mark.parametrize("from_", ALL)
def test_can_cast(from_, to):
    _same(lambda lib: lib.can_cast(getattr(lib, from_), getattr(lib, to)))


@pytest.mark.parametrize("args", [(1, "float32"), ("float32", 1.0), (float, "int8"),
                                  ("int8", float), (bool, int), (int, float), ("str", "int8"),
                                  ("int8", None), (float, "float16")])
@pytest.mark.parametrize("fn", ["can_cast", "promote_types"])
def test_can_cast_promote_types_arguments(fn, args):
    """Python's float, int and bool stand for float64, int64 and bool; anything else that is
    not a dtype is PyTorch's TypeError (promote_types crashed with an AttributeError)."""
    _same(lambda lib: getattr(lib, fn)(*(getattr(lib, a) if a in ("float32", "int8", "float16")
                                         else a for a in args)))


def _operands(lib):
    return {
        "f32": lib.ones(2), "f64": lib.ones(2, dtype=lib.float64),
        "f16": lib.ones(2, dtype=lib.float16), "i64": lib.ones(2, dtype=lib.int64),
        "i8": lib.ones(2, dtype=lib.int8), "u8": lib.ones(2, dtype=lib.uint8),
        "b": lib.ones(2, dtype=lib.bool), "0d-f64": lib.tensor(1.0, dtype=lib.float64),
        "0d-i32": lib.tensor(1, dtype=lib.int32), "0d-b": lib.tensor(True),
        "0d-u8": lib.tensor(1, dtype=lib.uint8), "int": 3, "float": 2.5, "bool": True,
        "big-int": 300, "str": "a",
    }  # (no complex numbers: minitorch has no complex dtypes)


OPERANDS = sorted(_operands(minitorch))


@pytest.mark.parametrize("b", OPERANDS)
@pytest.mark.parametrize("a", OPERANDS)
def test_result_type(a, b):
    """Every pair of operands, as a dtype or as the exception's type (PyTorch's message lists
    its overloads; minitorch says which argument is wrong)."""
    def run(lib):
        try:
            return lib.result_type(_operands(lib)[a], _operands(lib)[b])
        except TypeError:
            return "TypeError"
    _same(run)


@pytest.mark.parametrize("value", ["f32", "f64", "f16", "i64", "u8", "b", "0d-f64", "float"])
@pytest.mark.parametrize("fn", ["is_floating_point", "is_complex"])
def test_is_floating_point_is_complex(fn, value):
    _same(lambda lib: getattr(lib, fn)(_operands(lib)[value]))
    if value != "float":
        _same(lambda lib: getattr(_operands(lib)[value], fn)())


@pytest.mark.parametrize("values", [[1.0], [0.0], [-0.0], [NAN], [], [1.0, 2.0], [[0]], [True],
                                    [False], 3.0, 0])
@pytest.mark.parametrize("how", ["function", "method"])
def test_is_nonzero(values, how):
    def run(lib):
        t = lib.tensor(values)
        return lib.is_nonzero(t) if how == "function" else t.is_nonzero()
    _same(run)
    _same(lambda lib: lib.is_nonzero(values))


@pytest.mark.parametrize("value", [np.float16(1.0), np.int64(2), 1.5, [1.0], (1,), "a", None])
def test_from_numpy_names_what_it_got(value):
    """A NumPy scalar is named with its module, as PyTorch names it (it was "float16")."""
    _same(lambda lib: lib.from_numpy(value))


@pytest.mark.parametrize("values", [[], [1.0, 2.0], [0.0], [[3]]])
def test_bool_of_a_tensor(values):
    """``bool(t)`` has ``is_nonzero``'s errors (an empty tensor was "more than one value")."""
    _same(lambda lib: bool(lib.tensor(values)))


@pytest.mark.parametrize("key", [[0], [0, 2], [True]])
def test_write_at_an_index_into_an_empty_dimension(key):
    """PyTorch's words for an index into a dimension of size 0 (it named no index before)."""
    def run(lib):
        x = lib.zeros(0, 4)
        x[lib.tensor(key)] = lib.ones(4)
        return x
    _same(run)
    _same(lambda lib: lib.zeros(0, 4).index_put((lib.tensor(key),), lib.ones(4),
                                                accumulate=True))


def test_lazy_submodules_and_missing_attribute():
    """Every lazily loaded name is there; one that is not gives PyTorch's AttributeError."""
    for name in ("optim", "utils", "datasets", "viz", "exercises", "cuda", "testing",
                 "serialization", "backends", "accelerator", "profiler", "functional", "linalg",
                 "save", "load"):
        assert hasattr(minitorch, name), name
    with pytest.raises(AttributeError, match="^module 'torch' has no attribute 'nope'$"):
        torch.nope  # noqa: B018
    with pytest.raises(AttributeError, match="^module 'minitorch' has no attribute 'nope'$"):
        minitorch.nope  # noqa: B018


# ---------------------------------------------------------------- byte, char, short
CONVERT_INPUTS = {
    "floats": ([-1.5, 0.0, 2.7, 127.9, 255.0, -128.0], "float32"),
    "f64": ([1e3, -3.2, 0.5], "float64"),
    "f16": ([1.5, -2.5, 100.0], "float16"),
    "ints": ([-300, -1, 0, 1, 255, 70000], "int64"),
    "bools": ([True, False], "bool"),
    "0d": (3.5, "float32"),
    "empty": ([], "float32"),
}


@pytest.mark.parametrize("method", ["byte", "char", "short"])
@pytest.mark.parametrize("case", sorted(CONVERT_INPUTS))
def test_byte_char_short(method, case):
    values, dtype = CONVERT_INPUTS[case]
    _same(lambda lib: getattr(lib.tensor(values, dtype=getattr(lib, dtype)), method)())


def test_byte_keeps_the_graph():
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    assert x.short().dtype == minitorch.int16 and not x.short().requires_grad
    assert x.char().grad_fn is None


# ---------------------------------------------------------------- apply_, map_
APPLY = {
    "float": lambda lib: lib.tensor([1.0, 2.0, -3.0]).apply_(lambda v: v * 2 + 0.5),
    "int-truncates": lambda lib: lib.tensor([1, 2]).apply_(lambda v: v + 1.5),
    "2d": lambda lib: lib.arange(6.0).reshape(2, 3).apply_(lambda v: v ** 2),
    "bool": lambda lib: lib.tensor([True, False]).apply_(lambda v: not v),
    "float16-rounding": lambda lib: lib.tensor([0.0, 1.0], dtype=lib.float16).apply_(
        lambda v: v + 1.00048828125 + 2 ** -30),  # rounds differently straight to half
    "int8": lambda lib: lib.tensor([1, -2], dtype=lib.int8).apply_(lambda v: v * 3),
    "transposed": lambda lib: lib.arange(6).reshape(2, 3).t().apply_(
        lambda v, seen=[]: seen.append(v) or len(seen)),  # index order, not memory order
    "empty": lambda lib: lib.tensor([]).apply_(lambda v: v + 1),
    "requires-grad": lambda lib: lib.ones(2, requires_grad=True).apply_(lambda v: v),
    "map": lambda lib: lib.tensor([1.0, 2.0]).map_(lib.tensor([10.0, 20.0]), lambda a, b: a * b),
    "map-broadcast": lambda lib: lib.ones(2, 3).map_(lib.tensor([1.0, 2.0, 3.0]),
                                                   lambda a, b: a - b),
    "map-dtype": lambda lib: lib.ones(2).map_(lib.ones(2, dtype=lib.int64), lambda a, b: a),
    "map-shape": lambda lib: lib.ones(4).map_(lib.ones(2), lambda a, b: a),
    "map-requires-grad": lambda lib: lib.ones(2, requires_grad=True).map_(lib.ones(2),
                                                                          lambda a, b: a),
}


@pytest.mark.parametrize("case", sorted(APPLY))
def test_apply_map(case):
    _same(APPLY[case])


def test_apply_map_on_a_device():
    """CPU only, as in PyTorch (its TypeErrors); ``map_`` first checks ``other``'s type and
    device (the GPU, or the pretend one)."""
    from minitorch.backends.pretend import second_device

    x = minitorch.ones(2).to(second_device())
    with pytest.raises(TypeError, match="^apply_ is only implemented on CPU tensors$"):
        x.apply_(lambda v: v)
    with pytest.raises(TypeError, match="^map_ is only implemented on CPU tensors$"):
        x.map_(x, lambda v, w: v)
    with pytest.raises(TypeError, match=r"^map_: expected torch.FloatTensor for 'other'"):
        minitorch.ones(2).map_(x, lambda v, w: v)


def test_apply_returns_self_and_counts_the_change():
    x = minitorch.ones(3)
    version = x._version
    assert x.apply_(lambda v: v + 1) is x and x._version == version + 1


# ---------------------------------------------------------------- random fills
FILLS = {
    "exponential": lambda t: t.exponential_(),
    "exponential-rate": lambda t: t.exponential_(2.5),
    "exponential-inf": lambda t: t.exponential_(float("inf")),
    "cauchy": lambda t: t.cauchy_(),
    "cauchy-args": lambda t: t.cauchy_(-1.5, 0.25),
    "log-normal": lambda t: t.log_normal_(),
    "log-normal-args": lambda t: t.log_normal_(0.3, 0.1),
    "log-normal-overflow": lambda t: t.log_normal_(700.0, 10.0),
    "geometric": lambda t: t.geometric_(0.3),
    "geometric-small-p": lambda t: t.geometric_(1e-3),
}
FILL_SHAPES = [(), (0,), (5,), (15,), (16,), (17,), (33,), (3, 7), (40, 3), (1000, 37)]
FILL_DTYPES = ["float32", "float64", "float16"]


@pytest.mark.parametrize("dtype", FILL_DTYPES)
@pytest.mark.parametrize("shape", FILL_SHAPES, ids=str)
@pytest.mark.parametrize("case", sorted(FILLS))
def test_random_fill_bit_for_bit(case, shape, dtype):
    for seed in (0, 1, 2**40 + 12345):
        def run(lib, seed=seed):
            lib.manual_seed(seed)
            t = FILLS[case](lib.empty(shape, dtype=getattr(lib, dtype)))
            return t, lib.rand(3)  # the stream goes on where PyTorch's goes on
        _same(run)


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8"])
@pytest.mark.parametrize("shape", [(5,), (20,)], ids=str)
def test_geometric_integer_dtypes(shape, dtype):
    for seed in (0, 3):
        def run(lib, seed=seed):
            lib.manual_seed(seed)
            return lib.empty(shape, dtype=getattr(lib, dtype)).geometric_(0.4)
        _same(run)


@pytest.mark.parametrize("case", ["exponential", "cauchy", "log-normal", "geometric"])
def test_random_fill_memory_order_and_generator(case):
    """A transposed tensor is filled in memory order; a Generator gives its own stream; the
    scalar normal that log_normal_ leaves cached is the one normal_ then uses."""
    def transposed(lib):
        lib.manual_seed(5)
        return FILLS[case](lib.empty(4, 6).t()).contiguous()

    def generator(lib):
        g = lib.Generator().manual_seed(11)
        t = lib.empty(6)
        getattr(t, FILLS[case].__code__.co_names[0])(*([0.5] if case == "geometric" else []),
                                                       generator=g)
        return t, lib.empty(3).normal_(generator=g)

    def cached_normal(lib):
        lib.manual_seed(2)
        return FILLS[case](lib.empty(3)), lib.empty(3).normal_()

    for fn in (transposed, generator, cached_normal):
        _same(fn)


FILL_ERRORS = {
    "exponential-zero": lambda lib: lib.empty(3).exponential_(0.0),
    "exponential-negative": lambda lib: lib.empty(3).exponential_(-1.0),
    "exponential-int": lambda lib: lib.empty(3, dtype=lib.int64).exponential_(),
    "exponential-str": lambda lib: lib.empty(3).exponential_("a"),
    "cauchy-sigma": lambda lib: lib.empty(3).cauchy_(0.0, -1.0),
    "cauchy-int": lambda lib: lib.empty(3, dtype=lib.int64).cauchy_(),
    "log-normal-std": lambda lib: lib.empty(3).log_normal_(0.0, 0.0),
    "log-normal-int": lambda lib: lib.empty(3, dtype=lib.int32).log_normal_(),
    "geometric-p0": lambda lib: lib.empty(3).geometric_(0.0),
    "geometric-p1": lambda lib: lib.empty(3).geometric_(1.0),
    "geometric-p-big": lambda lib: lib.empty(3).geometric_(1.5),
    "geometric-bool": lambda lib: lib.empty(3, dtype=lib.bool).geometric_(0.5),
    "geometric-no-p": lambda lib: lib.empty(3).geometric_(),
}


@pytest.mark.parametrize("case", sorted(FILL_ERRORS))
def test_random_fill_errors(case):
    _same(FILL_ERRORS[case])


@pytest.mark.parametrize("case", ["exponential", "cauchy", "log-normal", "geometric"])
def test_random_fill_graph(case):
    """Recorded like PyTorch's: its node name, and a zero gradient to the old values."""
    def run(lib):
        lib.manual_seed(0)
        x = lib.ones(4, requires_grad=True)
        y = x * 2
        FILLS[case](y)
        (y * 3).sum().backward()
        return y.grad_fn.name(), x.grad, y
    _same(run)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        FILLS[case](minitorch.ones(2, requires_grad=True))


def test_geometric_zero_uniform_is_inf():
    """A uniform of exactly 0 (log of 0): C gives -inf and the draw is inf, not a crash."""
    from minitorch import _random

    assert math.isinf(_random.geometric_array((1,), 0.5, np.float64,
                                              _FixedGenerator())[0])


class _FixedGenerator(minitorch.Generator):
    """A generator whose next 64-bit words are all 0."""

    def _random64(self, n):
        return np.zeros(n, np.uint64)

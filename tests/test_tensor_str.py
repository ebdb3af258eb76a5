"""Tests for minitorch._tensor_str, using PyTorch's own ``repr`` as the oracle.

Every test builds a NumPy array, prints it with ``format_tensor`` and checks
the result is identical to ``repr(torch.from_numpy(array))`` under the same
print options.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import importlib.util
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

torch = pytest.importorskip("torch", reason="PyTorch not installed: oracle tests need it")


def _load_module():
    """Imports minitorch._tensor_str, or loads the file directly if the package is broken."""
    try:
        return importlib.import_module("minitorch._tensor_str")
    except Exception:  # - the package __init__ may be missing or mid-edit
        path = Path(__file__).resolve().parents[1] / "minitorch" / "_tensor_str.py"
        spec = importlib.util.spec_from_file_location("_minitorch_tensor_str", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses need the module registered
        spec.loader.exec_module(module)
        return module


_tensor_str = _load_module()
PRINT_OPTS = _tensor_str.PRINT_OPTS
PrintOptions = _tensor_str.PrintOptions
format_tensor = _tensor_str.format_tensor
set_printoptions = _tensor_str.set_printoptions

DTYPES = [
    np.float32,
    np.float64,
    np.float16,
    np.int64,
    np.int32,
    np.int16,
    np.int8,
    np.uint8,
    np.bool_,
]
FLOAT_DTYPES = [np.float32, np.float64, np.float16]
DEFAULT_DTYPES = {np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_)}
TORCH_DTYPE_NAMES = {np.dtype(d): str(torch.from_numpy(np.zeros(1, d)).dtype) for d in DTYPES}


# --------------------------------------------------------------------------- helpers


@contextlib.contextmanager
def print_options(**options):
    """Applies the same print options to minitorch and torch, restoring defaults after."""
    set_printoptions(**options)
    torch.set_printoptions(**options)
    try:
        yield
    finally:
        set_printoptions(profile="default")
        torch.set_printoptions(profile="default")


def ours(array: np.ndarray, suffixes=(), prefix: str = "tensor(") -> str:
    """Prints ``array`` with minitorch, deciding the dtype suffix as a Tensor would."""
    return format_tensor(
        array,
        prefix=prefix,
        suffixes=list(suffixes),
        is_default_dtype=array.dtype in DEFAULT_DTYPES,
        dtype_str=TORCH_DTYPE_NAMES[array.dtype],
    )


def as_torch(array: np.ndarray):
    """Copies ``array`` into a torch tensor (``np.ascontiguousarray`` would turn 0-D into 1-D)."""
    return torch.from_numpy(np.array(array, order="C", copy=True))


def theirs(array: np.ndarray) -> str:
    """Prints ``array`` with PyTorch."""
    return repr(as_torch(array))


def check(array: np.ndarray) -> None:
    """Asserts minitorch and PyTorch print ``array`` identically (with and without grad)."""
    array = np.asarray(array)
    assert ours(array) == theirs(array)
    if array.dtype.kind == "f":
        tensor = as_torch(array).requires_grad_()
        assert ours(array, ["requires_grad=True"]) == repr(tensor)
        product = tensor * 1  # same values, but now with a grad_fn
        assert ours(array, ["grad_fn=<MulBackward0>"]) == repr(product)


def f32(values) -> np.ndarray:
    return np.array(values, dtype=np.float32)


# --------------------------------------------------------------------------- hand-picked cases

RNG = np.random.default_rng(0)

HAND_PICKED = {
    "scalar_float": f32(3.0),
    "scalar_fraction": f32(3.14159),
    "scalar_neg_zero": f32(-0.0),
    "scalar_nan": f32(np.nan),
    "scalar_neg_inf": f32(-np.inf),
    "scalar_tiny": f32(1e-20),
    "scalar_huge": f32(1e20),
    "scalar_int": np.array(7),
    "scalar_int32": np.array(-7, dtype=np.int32),
    "scalar_bool": np.array(True),
    "scalar_float64": np.array(2.5),
    "scalar_float16": np.array(0.1, dtype=np.float16),
    "small_fractions": f32([0.0038, 0.0018, 0.0311]),
    "int_valued_floats": f32([1.0, 2.0, -3.0]),
    "int_valued_big": f32([1.0, 1.0e8]),
    "int_valued_over_1e8": f32([1.0, 2.0e8]),
    "sci_ratio": f32([1e-5, 1e5]),
    "sci_small": f32([1e-5, 2e-5]),
    "sci_just_below_1e-4": f32([9.9e-5, 5e-5]),
    "ratio_exactly_1000": f32([1.0, 1000.0]),
    "ratio_above_1000": f32([1.0, 1000.5]),
    "huge_magnitudes": np.array([1e300, -1e-300, 1.0]),
    "float64_extremes": np.array([np.finfo(np.float64).max, np.finfo(np.float64).tiny]),
    "float32_subnormal": f32([1e-45, 1.0]),
    "float16_extremes": np.array([65504.0, 6e-8, 1.0], dtype=np.float16),
    "float16_fractions": np.array([0.1, 0.2, 0.3333], dtype=np.float16),
    "nan_inf": f32([np.nan, np.inf, -np.inf]),
    "nan_inf_mixed": f32([np.nan, 1.5, -np.inf, 2.25]),
    "nan_inf_int_mode": f32([np.nan, 1.0, -np.inf, 20.0]),
    "nan_inf_sci": f32([np.nan, 1e-8, -np.inf, 1e8]),
    "all_zero": f32([0.0, 0.0]),
    "neg_zero": f32([-0.0, 0.0, 1.0]),
    "neg_zero_fraction": f32([-0.0, 0.5]),
    "neg_zero_sci": f32([-0.0, 1e-9]),
    "mixed_signs": f32([-1.5, 2.25, -1000.125]),
    "ints": np.array([1, 2, 3]),
    "ints_negative": np.array([-100, 2, 30000]),
    "int32": np.array([1, 2], dtype=np.int32),
    "int16": np.array([-32768, 32767], dtype=np.int16),
    "int8": np.array([-128, 0, 127], dtype=np.int8),
    "uint8": np.array([0, 255, 7], dtype=np.uint8),
    "int64_extremes": np.array([np.iinfo(np.int64).min, np.iinfo(np.int64).max]),
    "bools": np.array([True, False]),
    "bools_2d": np.array([[True, False], [False, False]]),
    "matrix": f32([[1.0, 2.5], [3.0, 4.0]]),
    "matrix_int": np.arange(12).reshape(3, 4),
    "tensor_3d": np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7,
    "tensor_4d": np.arange(48, dtype=np.int32).reshape(2, 2, 3, 4),
    "tensor_5d": np.ones((1, 2, 1, 2, 1)),
    "singleton_dims": f32([[[5.0]]]),
    "transposed": np.arange(6, dtype=np.float64).reshape(2, 3).T,
    "long_row_wraps": RNG.standard_normal(50).astype(np.float32),
    "long_int_row_wraps": np.arange(100),
    "long_rows_2d": RNG.standard_normal((3, 30)).astype(np.float32),
    "long_rows_3d": RNG.standard_normal((2, 2, 25)),
    "wide_sci_rows": (RNG.standard_normal(30) * 1e10).astype(np.float32),
    "long_bool_row": RNG.random(40) > 0.5,
    "suffix_wraps_after_row": f32([1.25] * 8 + [1.5]),
    "at_threshold": np.arange(1000, dtype=np.float32),
    "over_threshold_1d": np.arange(1001, dtype=np.float32),
    "over_threshold_int": np.arange(5000),
    "over_threshold_2d": RNG.standard_normal((100, 100)).astype(np.float32),
    "over_threshold_3d": RNG.standard_normal((20, 10, 30)),
    "over_threshold_tall": RNG.standard_normal((2000, 1)).astype(np.float32),
    "over_threshold_wide": RNG.standard_normal((1, 2000)).astype(np.float32),
    "over_threshold_short_rows": RNG.standard_normal((500, 3)).astype(np.float32),
    "summarised_hides_big_value": np.concatenate([np.ones(500), [1e10], np.ones(500)]),
    "summarised_bools": RNG.random((40, 40)) > 0.5,
    "summarised_uint8": RNG.integers(0, 256, (30, 50), dtype=np.uint8),
    "summarised_nan": np.full((50, 50), np.nan, dtype=np.float32),
}

EMPTY_SHAPES = [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0), (1, 0, 1, 2)]


@pytest.mark.parametrize("array", HAND_PICKED.values(), ids=HAND_PICKED.keys())
def test_hand_picked(array):
    check(array)


@pytest.mark.parametrize("shape", EMPTY_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_empty(shape, dtype):
    check(np.zeros(shape, dtype=dtype))


@pytest.mark.parametrize(
    ("array", "expected"),
    [
        (f32([0.0038, 0.0018, 0.0311]), "tensor([0.0038, 0.0018, 0.0311])"),
        (f32([1e-5, 1e5]), "tensor([1.0000e-05, 1.0000e+05])"),
        (np.zeros((0, 3), np.float32), "tensor([], size=(0, 3))"),
        (np.array([1, 2], np.int32), "tensor([1, 2], dtype=torch.int32)"),
        (np.array([True, False]), "tensor([ True, False])"),
        (f32([np.nan, -np.inf, -0.0, 2.0]), "tensor([nan, -inf, -0., 2.])"),
    ],
)
def test_known_strings(array, expected):
    """A few literal strings, so the expected output is visible without torch."""
    assert ours(array) == expected


def test_scalar_requires_grad_literal():
    assert format_tensor(f32(3.0), suffixes=["requires_grad=True"]) == (
        "tensor(3., requires_grad=True)"
    )


def test_dtype_then_grad_fn():
    array = np.array([2.0, 2.0])
    result = format_tensor(
        array,
        suffixes=["grad_fn=<MulBackward0>"],
        is_default_dtype=False,
        dtype_str="torch.float64",
    )
    assert result == "tensor([2., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)"
    assert result == repr(torch.from_numpy(array).requires_grad_() * 1)


def test_dtype_str_defaults_to_numpy_name():
    array = np.array([1, 2], dtype=np.int16)
    assert format_tensor(array, is_default_dtype=False) == theirs(array)


def test_custom_prefix_matches_tensor_subclass():
    class Fancy(torch.Tensor):
        pass

    array = RNG.standard_normal((4, 30)).astype(np.float32)
    expected = repr(torch.from_numpy(array).as_subclass(Fancy))
    assert ours(array, prefix="Fancy(") == expected


@pytest.mark.parametrize("suffix_len", [10, 30, 60, 75])
@pytest.mark.parametrize("length", [1, 5, 9, 10, 11, 40])
def test_suffix_wrapping(suffix_len, length):
    """Synthetic suffixes of various lengths wrap exactly where torch wraps them."""
    array = np.full(length, 1.25, dtype=np.float32)
    suffix = "x" * suffix_len
    tensor_contents = torch._tensor_str._tensor_str(torch.from_numpy(array), len("tensor("))
    expected = torch._tensor_str._add_suffixes(
        "tensor(" + tensor_contents, [suffix, suffix], len("tensor("), force_newline=False
    )
    assert ours(array, [suffix, suffix]) == expected


def test_rejects_unsupported_dtype():
    with pytest.raises(TypeError):
        format_tensor(np.array([1 + 2j]))


def test_module_does_not_import_torch():
    source = Path(_tensor_str.__file__).read_text()
    assert "import torch" not in source


def test_accepts_lists():
    assert format_tensor([1, 2, 3]) == "tensor([1, 2, 3])"


# --------------------------------------------------------------------------- print options

OPTION_SETS = [
    {"precision": 2},
    {"precision": 0},
    {"precision": 10},
    {"threshold": 5},
    {"threshold": 0},
    {"edgeitems": 1, "threshold": 10},
    {"edgeitems": 0, "threshold": 10},
    {"edgeitems": 0},
    {"linewidth": 40},
    {"linewidth": 1},
    {"linewidth": 200},
    {"sci_mode": True},
    {"sci_mode": False},
    {"sci_mode": True, "precision": 2},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "full", "precision": 6},
    {"profile": "short", "edgeitems": 4, "threshold": 20},
]

OPTION_ARRAYS = {
    "scalar": f32(1.5),
    "fractions": f32([0.0038, 0.0018, 0.0311, 1.5]),
    "ints_as_float": f32([1.0, 20.0, -300.0]),
    "zeros": f32([0.0, -0.0]),
    "nan_only": f32([np.nan, 0.0]),
    "sci": f32([1e-5, 1e5, 3.0]),
    "huge_int_float": f32([3.0e20, 1.0]),
    "ints": np.arange(-10, 20),
    "bools": np.array([[True, False, True]] * 4),
    "matrix": RNG.standard_normal((12, 12)).astype(np.float32),
    "cube": RNG.standard_normal((8, 8, 8)),
    "long": np.linspace(-5, 5, 2000, dtype=np.float32),
    "empty": np.zeros((0, 2), dtype=np.float32),
}


@pytest.mark.parametrize("array", OPTION_ARRAYS.values(), ids=OPTION_ARRAYS.keys())
@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_with_print_options(options, array):
    with print_options(**options):
        check(array)


def test_set_printoptions_semantics():
    """Profiles, overrides and the sci_mode reset all mirror torch's settings."""
    reference = torch._tensor_str.PRINT_OPTS
    calls = [
        {"profile": "short"},
        {"precision": 7},
        {"sci_mode": True},
        {"linewidth": 120},  # sci_mode silently goes back to None
        {"profile": "full", "edgeitems": 5},
        {"profile": "no-such-profile", "threshold": 12},
        {"profile": "default"},
    ]
    try:
        for call in calls:
            set_printoptions(**call)
            torch.set_printoptions(**call)
            assert dataclasses.asdict(PRINT_OPTS) == dataclasses.asdict(reference), call
    finally:
        set_printoptions(profile="default")
        torch.set_printoptions(profile="default")


def test_print_options_defaults():
    assert dataclasses.asdict(PrintOptions()) == {
        "precision": 4,
        "threshold": 1000,
        "edgeitems": 3,
        "linewidth": 80,
        "sci_mode": None,
    }
    assert dataclasses.asdict(PRINT_OPTS) == dataclasses.asdict(PrintOptions())


def test_full_profile_threshold_is_infinite():
    with print_options(profile="full"):
        assert math.isinf(PRINT_OPTS.threshold)
        check(np.arange(1500))


# --------------------------------------------------------------------------- hypothesis

HYPOTHESIS_SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@HYPOTHESIS_SETTINGS
@given(
    hnp.arrays(
        dtype=st.sampled_from(DTYPES),
        shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6),
    )
)
def test_hypothesis_small_arrays(array):
    """Arbitrary values (nan, inf, subnormals, extremes...) in small arrays."""
    check(array)


@st.composite
def scaled_float_arrays(draw):
    """Float arrays whose magnitudes cluster around a random power of ten."""
    dtype = draw(st.sampled_from(FLOAT_DTYPES))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=7))
    seed = draw(st.integers(0, 2**32 - 1))
    exponent = draw(st.integers(-10, 10) if dtype == np.float16 else st.integers(-40, 40))
    rng = np.random.default_rng(seed)
    values = rng.standard_normal(shape) * 10.0**exponent
    if draw(st.booleans()):
        values = np.round(values)
    with np.errstate(over="ignore"):
        return np.asarray(values).astype(dtype)


@HYPOTHESIS_SETTINGS
@given(scaled_float_arrays())
def test_hypothesis_scaled_floats(array):
    check(array)


@st.composite
def large_arrays(draw):
    """Arrays around and above the summarisation threshold, up to 4-D."""
    dtype = draw(st.sampled_from(DTYPES))
    ndim = draw(st.integers(1, 4))
    max_side = {1: 3000, 2: 80, 3: 20, 4: 10}[ndim]
    shape = tuple(draw(st.lists(st.integers(1, max_side), min_size=ndim, max_size=ndim)))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        high = min(draw(st.sampled_from([10, 1000, int(info.max)])), int(info.max))
        low = max(int(info.min), -high)
        return rng.integers(low, high, shape, dtype=dtype, endpoint=True)
    exponent = draw(st.integers(-6, 4) if dtype == np.float16 else st.integers(-12, 12))
    values = rng.standard_normal(shape) * 10.0**exponent
    specials = draw(st.sampled_from(["none", "round", "nan_inf", "zeros"]))
    if specials == "round":
        values = np.round(values)
    elif specials == "nan_inf":
        mask = rng.random(shape)
        values[mask < 0.01] = np.nan
        values[mask > 0.99] = -np.inf
    elif specials == "zeros":
        values[rng.random(shape) < 0.5] = -0.0
    return values.astype(dtype)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(large_arrays())
def test_hypothesis_large_arrays(array):
    check(array)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    array=hnp.arrays(
        dtype=st.sampled_from(DTYPES),
        shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=8),
    ),
    precision=st.integers(0, 8),
    threshold=st.sampled_from([0, 1, 5, 20, 100, 1000, math.inf]),
    edgeitems=st.integers(0, 4),
    linewidth=st.integers(1, 150),
    sci_mode=st.sampled_from([None, True, False]),
)
def test_hypothesis_print_options(array, precision, threshold, edgeitems, linewidth, sci_mode):
    options = {
        "precision": precision,
        "threshold": threshold,
        "edgeitems": edgeitems,
        "linewidth": linewidth,
        "sci_mode": sci_mode,
    }
    with print_options(**options):
        check(array)

"""The fast paths of the per-op hot path agree with PyTorch and with the general path.

``x * 0.5``, ``x + 1`` and ``x - 2`` on a floating-point tensor skip wrapping the number into a
tensor (``MulNumber``, ``AddNumber``, ``SubNumber``); ``x ** 2`` and ``x ** 3`` multiply, as
PyTorch does; ReLU's backward selects the gradient by multiplying with its mask. Each must give
PyTorch's values, dtypes, node names, edges and errors, on the cases where a shortcut could
go wrong: 0-d tensors, float16/float64, ints and bools, inf and NaN, double backward.
"""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_same_values, graph_signature
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for these tests")

DTYPES = ["float16", "float32", "float64", "int64", "int32", "uint8", "bool"]
NUMBERS = [0.5, -2.0, 3, 0, -1, 1e-3, 2**40, float("inf"), float("nan")]
OPS = {
    "mul": lambda x, c: x * c,
    "rmul": lambda x, c: c * x,
    "add": lambda x, c: x + c,
    "radd": lambda x, c: c + x,
    "sub": lambda x, c: x - c,
    "rsub": lambda x, c: c - x,
}


def both(array: np.ndarray, requires_grad: bool = False):
    mine = minitorch.tensor(array, requires_grad=requires_grad)
    ref = torch.tensor(array, requires_grad=requires_grad)
    return mine, ref


def outcome(fn):
    try:
        return fn(), None
    except Exception as e:  # the exception type is what is compared
        return None, type(e)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_tensor_and_number_match_pytorch(op, dtype, number, shape):
    rng = np.random.default_rng(0)
    array = (rng.standard_normal(shape) * 3).astype(dtype)
    mine, ref = both(array)
    got, got_err = outcome(lambda: OPS[op](mine, number))
    want, want_err = outcome(lambda: OPS[op](ref, number))
    assert got_err == want_err
    if want is not None:
        assert_same_values(got, want, rtol=1e-3 if dtype == "float16" else 1e-6, atol=0)


@pytest.mark.parametrize("op", OPS)
def test_number_ops_record_pytorchs_node_and_empty_edge(op):
    mine, ref = both(np.array([1.0, -2.0], np.float32), requires_grad=True)
    assert graph_signature(OPS[op](mine, 3.0)) == graph_signature(OPS[op](ref, 3.0))
    assert graph_signature(OPS[op](mine, 3)) == graph_signature(OPS[op](ref, 3))


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_number_ops_gradients_and_second_backward_match_pytorch(op, dtype):
    array = np.array([1.5, -2.0, 0.0], dtype)
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(array, requires_grad=True)
        loss = OPS[op](x, 2.5).sum()
        loss.backward()
        _, err = outcome(loss.backward)  # x * 2.5 saved the number: the graph is freed
        results.append((x.grad, err))
    (g_mine, err_mine), (g_ref, err_ref) = results
    assert_same_values(g_mine, g_ref, rtol=0, atol=0)
    assert err_mine == err_ref


def test_number_ops_have_second_derivatives():
    x = minitorch.tensor([1.5, -2.0], requires_grad=True)
    y = ((x * 3.0 + 1.0) * x - 2.0).sum()  # dy/dx = 6x + 1, d2y/dx2 = 6
    (g,) = minitorch.autograd.grad(y, x, create_graph=True)
    (h,) = minitorch.autograd.grad(g.sum(), x)
    assert g.tolist() == [10.0, -11.0]
    assert h.tolist() == [6.0, 6.0]


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(max_dims=3, max_side=5),
                  elements=st.floats(-1e3, 1e3, width=32)),
       st.sampled_from([2, 3, 2.0, 3.0]))
def test_small_integer_powers_are_pytorchs_bit_for_bit(array, exponent):
    mine, ref = both(array, requires_grad=True)
    got, want = mine ** exponent, ref ** exponent
    np.testing.assert_array_equal(got.detach().numpy(), want.detach().numpy())
    got.sum().backward()
    want.sum().backward()
    np.testing.assert_allclose(mine.grad.numpy(), ref.grad.numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float16", "float64", "int64", "uint8"])
@pytest.mark.parametrize("exponent", [2, 3, 0.5, -1])
def test_powers_keep_pytorchs_dtypes_and_errors(dtype, exponent):
    array = np.array([0, 1, 2, 5], dtype)
    mine, ref = both(array)
    got, got_err = outcome(lambda: mine ** exponent)
    want, want_err = outcome(lambda: ref ** exponent)
    assert got_err == want_err
    if want is not None:
        assert_same_values(got, want, rtol=1e-3, atol=0)


def test_power_overflow_gives_inf_without_a_warning(recwarn):
    x = minitorch.tensor([1e20, -1e20])
    assert (x ** 2).tolist() == [float("inf"), float("inf")]
    assert (x ** 3).tolist() == [float("inf"), float("-inf")]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=2, max_side=6),
                  elements=st.sampled_from([-2.0, -0.0, 0.0, 1.5, float("nan")])),
       hnp.arrays(np.float32, 36,
                  elements=st.sampled_from([-1.0, 2.0, -0.0, float("inf"), float("-inf"),
                                            float("nan")])),
       st.sampled_from(["float32", "float64", "float16"]))
def test_relu_backward_selects_gradients_like_pytorch(x, grads, dtype):
    g = grads[:x.size].reshape(x.shape).astype(dtype)
    x = x.astype(dtype)
    results = []
    for lib in (minitorch, torch):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.relu(t).backward(lib.tensor(g))
        results.append(t.grad.numpy())
    mine, ref = results
    np.testing.assert_array_equal(mine, ref)
    np.testing.assert_array_equal(np.signbit(mine), np.signbit(ref))  # 0.0, never -0.0


@settings(max_examples=200)
@given(data=st.data())
def test_broadcast_view_matches_numpy(data):
    """``_backend.broadcast_to`` (the view behind ``expand`` and reduction backwards) writes
    the strides down itself; it must give NumPy's view: shape, strides, values, read-only."""
    from minitorch import _backend

    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3))
    dtype = data.draw(st.sampled_from([np.float32, np.float64, np.float16, np.int64, np.bool_]))
    array = data.draw(hnp.arrays(dtype, shape))
    if data.draw(st.booleans()) and array.ndim:  # a non-contiguous input takes NumPy's path
        array = array[..., ::-1]
    target = data.draw(hnp.broadcastable_shapes(shape, min_dims=len(shape), max_dims=4,
                                                     min_side=0))
    try:
        want = np.broadcast_to(array, target)
    except ValueError:
        with pytest.raises(ValueError):
            _backend.broadcast_to(array, target)
        return
    got = _backend.broadcast_to(array, target)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides or not array.flags.c_contiguous
    np.testing.assert_array_equal(got, want)
    assert not got.flags.writeable
    assert np.shares_memory(got, array) or got.size == 0


def test_broadcast_view_refuses_what_numpy_refuses():
    from minitorch import _backend

    with pytest.raises(ValueError):
        _backend.broadcast_to(np.arange(3.0), (4,))
    with pytest.raises(ValueError):
        _backend.broadcast_to(np.arange(3.0), ())


# ---------------------------------------------------------------- x -= y under no_grad
# ``add_``, ``sub_`` and ``mul_`` (so ``+=``, ``-=``, ``*=``) write straight into the tensor
# when no graph is recorded. The fast path must change exactly what the general path changes,
# and refuse (leaving the tensor untouched) every case where PyTorch refuses.
INPLACE = {
    "iadd": lambda x, o: x.__iadd__(o),
    "isub": lambda x, o: x.__isub__(o),
    "imul": lambda x, o: x.__imul__(o),
    "add_alpha": lambda x, o: x.add_(o, alpha=2),
}
OTHERS = {  # name -> (dtype of a tensor operand or None for a number, shape, number)
    "same dtype": ("same", (3,), None),
    "broadcast row": ("same", (1,), None),
    "0-d tensor": ("same", (), None),
    "too big": ("same", (2, 3), None),
    "float64 tensor": ("float64", (3,), None),
    "int64 tensor": ("int64", (3,), None),
    "float": (None, None, 0.25),
    "int": (None, None, 3),
    "huge int": (None, None, 2**60),
    "bool": (None, None, True),
    "inf": (None, None, float("inf")),
}


@pytest.mark.parametrize("op", INPLACE)
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int64", "bool"])
@pytest.mark.parametrize("other", OTHERS)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
def test_inplace_arithmetic_matches_pytorch(op, dtype, other, shape):
    rng = np.random.default_rng(1)
    array = (rng.standard_normal(shape) * 3).astype(dtype)
    odtype, oshape, number = OTHERS[other]
    if odtype is not None:
        operand = (rng.standard_normal(oshape) * 2).astype(dtype if odtype == "same" else odtype)
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(array)
        o = lib.tensor(operand) if odtype is not None else number
        before = x._version
        with lib.no_grad():
            got, err = outcome(lambda: INPLACE[op](x, o))  # noqa: B023
        results.append((x, got, err, x._version - before))
    (mx, mgot, merr, mbump), (tx, tgot, terr, tbump) = results
    assert merr == terr
    assert mbump == tbump
    if terr is None:
        assert mgot is mx
    assert_same_values(mx, tx, rtol=1e-3 if dtype == "float16" else 1e-6, atol=0)


def test_inplace_fast_path_keeps_pytorchs_checks():
    # A leaf that requires grad may only be changed under no_grad.
    w = minitorch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w -= 1.0
    with minitorch.no_grad():
        w -= 1.0
    assert w.tolist() == [0.0, 0.0, 0.0] and w.requires_grad and w.grad_fn is None
    # A change to a tensor saved for backward is caught, also when made under no_grad.
    x = minitorch.ones(3, requires_grad=True)
    y = x * 2
    z = y * y
    with minitorch.no_grad():
        y *= 2
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    # An expanded view is read-only: PyTorch's message, and nothing written.
    base = minitorch.zeros(1)
    view = base.expand(3)
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        view += 1.0
    assert base.tolist() == [0.0]
    # Inference tensors cannot be changed outside inference mode.
    with minitorch.inference_mode():
        t = minitorch.ones(2)
    with pytest.raises(RuntimeError, match="Inplace update to inference tensor"):
        t += 1.0
    # Outside no_grad, a tensor that does not require grad meeting one that does is recorded.
    a = minitorch.zeros(2)
    a += minitorch.ones(2, requires_grad=True)
    assert type(a.grad_fn).__name__ == "AddBackward0"

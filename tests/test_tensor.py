"""Tensor basics against PyTorch: factories, dtypes and promotion, printing, NumPy interop,
``.data``, ``.T``, and in-place operations (on leaves under no_grad and on graph tensors).

Each case is ``fn(m)`` run with ``m = torch`` and ``m = minitorch``; whatever it returns
(tensors, strings, numbers, nested tuples) must be the same.
"""

from __future__ import annotations

import numpy as np
import pytest
from _oracle import assert_same_values, graph_signature

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def describe(m, value):
    """A comparable description: tensors become (values, dtype, requires_grad, graph)."""
    if isinstance(value, (torch.Tensor, minitorch.Tensor)):
        return ("tensor", value, value.requires_grad, value.is_leaf, graph_signature(value))
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [describe(m, v) for v in value]
    if isinstance(value, (torch.dtype, minitorch.dtype, torch.Size, minitorch.Size)):
        return "repr", repr(value)
    return type(value).__name__, value


def assert_same(a, b):
    if isinstance(a, tuple) and a and a[0] == "tensor":
        assert b[0] == "tensor"
        assert_same_values(a[1], b[1])
        assert a[2:] == b[2:], f"requires_grad/is_leaf/graph {a[2:]} != {b[2:]}"
    elif isinstance(a, tuple) and a and a[0] in ("list", "tuple"):
        assert a[0] == b[0] and len(a[1]) == len(b[1])
        for x, y in zip(a[1], b[1]):
            assert_same(x, y)
    elif isinstance(a[1], float) and np.isnan(a[1]):
        assert b[0] == a[0] and np.isnan(b[1])
    else:
        assert a == b


def check(fn):
    assert_same(describe(minitorch, fn(minitorch)), describe(torch, fn(torch)))


# ---------------------------------------------------------------- factories
FACTORIES = {
    "tensor_floats": lambda m: m.tensor([[1.0, 2.5], [3.0, -4.0]]),
    "tensor_ints": lambda m: m.tensor([1, 2, 3]),
    "tensor_bools": lambda m: m.tensor([True, False]),
    "tensor_mixed_int_float": lambda m: m.tensor([1, 2.5]),
    "tensor_mixed_bool_int": lambda m: m.tensor([True, 2]),
    "tensor_scalar_float": lambda m: m.tensor(3.5),
    "tensor_scalar_int": lambda m: m.tensor(7),
    "tensor_empty_list": lambda m: m.tensor([]),
    "tensor_nested_empty": lambda m: m.tensor([[], []]),
    "tensor_dtype": lambda m: m.tensor([1, 2], dtype=m.float64),
    "tensor_float_to_int": lambda m: m.tensor([1.7, -2.7], dtype=m.int32),
    "tensor_requires_grad": lambda m: m.tensor([1.0, 2.0], requires_grad=True),
    "tensor_of_tensors": lambda m: m.tensor([m.tensor(1.0), m.tensor(2.0)]),
    "tensor_numpy_float64": lambda m: m.tensor(np.array([1.5, 2.5])),
    "tensor_numpy_int32": lambda m: m.tensor(np.array([1, 2], dtype=np.int32)),
    "tensor_numpy_uint8": lambda m: m.tensor(np.array([1, 255], dtype=np.uint8)),
    "tensor_numpy_bool": lambda m: m.tensor(np.array([True, False])),
    "tensor_numpy_float16": lambda m: m.tensor(np.array([0.5], dtype=np.float16)),
    "tensor_numpy_scalar": lambda m: m.tensor(np.float64(2.0)),
    "as_tensor_list": lambda m: m.as_tensor([1, 2]),
    "from_numpy_float32": lambda m: m.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3)),
    "from_numpy_int64": lambda m: m.from_numpy(np.arange(3)),
    "Tensor_constructor": lambda m: m.Tensor([1, 2]),
    "ones_ints": lambda m: m.ones(2, 3),
    "ones_tuple": lambda m: m.ones((2, 3)),
    "ones_list": lambda m: m.ones([2]),
    "ones_scalar_shape": lambda m: m.ones(()),
    "zeros_dtype": lambda m: m.zeros(3, dtype=m.int64),
    "zeros_requires_grad": lambda m: m.zeros(2, 2, requires_grad=True),
    "full_float": lambda m: m.full((2, 2), 1.5),
    "full_int": lambda m: m.full((3,), 7),
    "full_bool": lambda m: m.full((2,), True),
    "full_int_shape": lambda m: m.full([2, 1], -1.0),
    "arange_int": lambda m: m.arange(5),
    "arange_start_stop": lambda m: m.arange(2, 9, 3),
    "arange_float": lambda m: m.arange(0, 1, 0.25),
    "arange_float_stop": lambda m: m.arange(3.0),
    "arange_negative_step": lambda m: m.arange(5, 0, -2),
    "arange_dtype": lambda m: m.arange(4, dtype=m.float32),
    "linspace": lambda m: m.linspace(0, 1, 5),
    "linspace_one": lambda m: m.linspace(-1, 1, 1),
    "linspace_int_dtype": lambda m: m.linspace(0, 10, 4, dtype=m.int64),
    "eye": lambda m: m.eye(3),
    "eye_rect": lambda m: m.eye(2, 3),
    "eye_dtype": lambda m: m.eye(2, dtype=m.int64),
    "ones_like": lambda m: m.ones_like(m.tensor([[1, 2]])),
    "zeros_like_dtype": lambda m: m.zeros_like(m.tensor([1.0]), dtype=m.float64),
    "full_like": lambda m: m.full_like(m.tensor([1, 2]), 3.7),
    "full_like_float": lambda m: m.full_like(m.tensor([1.0, 2.0]), 3),
    "empty_like_shape": lambda m: m.empty_like(m.ones(2, 3)).shape,
    "ones_like_requires_grad": lambda m: m.ones_like(m.ones(2), requires_grad=True),
}


@pytest.mark.parametrize("name", sorted(FACTORIES))
def test_factory_matches_torch(name):
    check(FACTORIES[name])


# ---------------------------------------------------------------- dtype promotion
OPERANDS = {
    "bool": lambda m: m.tensor([True, False]),
    "int64": lambda m: m.tensor([3, -2]),
    "int32": lambda m: m.tensor([3, -2], dtype=m.int32),
    "uint8": lambda m: m.tensor([3, 2], dtype=m.uint8),
    "float32": lambda m: m.tensor([1.5, -2.0]),
    "float64": lambda m: m.tensor([1.5, -2.0], dtype=m.float64),
    "0d_bool": lambda m: m.tensor(True),
    "0d_int64": lambda m: m.tensor(4),
    "0d_int32": lambda m: m.tensor(4, dtype=m.int32),
    "0d_float32": lambda m: m.tensor(0.5),
    "0d_float64": lambda m: m.tensor(0.5, dtype=m.float64),
    "py_bool": lambda m: True,
    "py_int": lambda m: 2,
    "py_float": lambda m: 2.5,
}
BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": lambda a, b: a / b}


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("left", sorted(OPERANDS))
def test_type_promotion_matches_torch(op, left):
    for right in sorted(OPERANDS):
        if left.startswith("py") and right.startswith("py"):
            continue
        results = []
        for m in (minitorch, torch):
            kind, value = _outcome(lambda m=m, r=right: BINARY[op](OPERANDS[left](m),
                                                                   OPERANDS[r](m)))
            results.append((kind, value if kind != "ok" else None,
                            str(value.dtype) if kind == "ok" else None,
                            repr(value.tolist()) if kind == "ok" else None))  # nan == nan
        mine, ref = results
        assert mine == ref, f"{left} {op} {right}"


def test_promote_types_table_matches_torch():
    names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32",
             "float64"]
    for a in names:
        for b in names:
            mine = minitorch.promote_types(getattr(minitorch, a), getattr(minitorch, b))
            ref = torch.promote_types(getattr(torch, a), getattr(torch, b))
            assert repr(mine) == repr(ref), (a, b)


@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparisons_give_bool_tensors(op):
    compare = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]

    def fn(m):
        a = m.tensor([1.0, 2.0, 3.0])
        return (compare(a, m.tensor([3, 2, 1])), compare(a, 2), compare(2, a),
                compare(a, m.tensor(2.0)), compare(m.tensor([True, False]), True))
    check(fn)


# ---------------------------------------------------------------- printing
REPRS = {
    "floats": lambda m: m.tensor([[1.0, 2.5], [3.0, -4.0]]),
    "ints": lambda m: m.arange(6).reshape(2, 3),
    "bools": lambda m: m.tensor([True, False]),
    "scalar": lambda m: m.tensor(3.14159),
    "float64": lambda m: m.tensor([1.0, 2.0], dtype=m.float64),
    "int32": lambda m: m.tensor([1, 2], dtype=m.int32),
    "empty": lambda m: m.zeros(0),
    "empty_2d": lambda m: m.zeros(2, 0),
    "requires_grad": lambda m: m.ones(2, requires_grad=True),
    "grad_fn": lambda m: m.ones(2, requires_grad=True) * 2,
    "grad_fn_scalar": lambda m: (m.ones(2, requires_grad=True) * 2).sum(),
    "grad_fn_float64": lambda m: m.ones(2, dtype=m.float64, requires_grad=True).exp(),
    "mean_grad_fn": lambda m: m.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).mean(),
    "custom_grad_fn_node": lambda m: _square(m),
    "large": lambda m: m.arange(2000.0),
    "scientific": lambda m: m.tensor([1e-8, 1.0, 1e8]),
    "nan_inf": lambda m: m.tensor([float("nan"), float("inf"), -1.0]),
    "negative_zero": lambda m: m.tensor([-0.0, 1.0]),
    "detached": lambda m: (m.ones(2, requires_grad=True) * 2).detach(),
    "no_grad_result": lambda m: _no_grad_result(m),
    "3d": lambda m: m.arange(24).reshape(2, 3, 4),
}


def _square(m):
    class Square(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * x

        @staticmethod
        def backward(ctx, g):
            return g

    return Square.apply(m.ones(2, requires_grad=True))


def _no_grad_result(m):
    with m.no_grad():
        return m.ones(2, requires_grad=True) * 2


@pytest.mark.parametrize("name", sorted(REPRS))
def test_repr_matches_torch(name):
    assert repr(REPRS[name](minitorch)) == repr(REPRS[name](torch))
    assert str(REPRS[name](minitorch)) == str(REPRS[name](torch))


def test_grad_fn_repr_has_pytorchs_form():
    for m in (minitorch, torch):
        y = m.ones(2, requires_grad=True) * 2
        assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")
        acc = y.grad_fn.next_functions[0][0]
        assert repr(acc).startswith("<AccumulateGrad object at 0x")
        assert type(_square(m).grad_fn).__name__ == "SquareBackward"


def test_size_and_shape_print_as_torch_size():
    def fn(m):
        x = m.ones(2, 3, 4)
        return (repr(x.shape), str(x.size()), repr(m.tensor(1.0).shape), x.size(1), x.size(-1),
                x.shape[0], repr(x.shape[1:]), str((x.shape, 1)), x.shape == (2, 3, 4),
                x.dim(), x.ndim, x.numel(), len(x), x.shape.numel())
    check(fn)


def test_metadata_matches_torch():
    def fn(m):
        x = m.ones(2, 3, dtype=m.float64)
        return (repr(x.dtype), x.is_floating_point(), m.tensor([1]).is_floating_point(),
                x.element_size(), str(x.device), x.is_contiguous(), x.t().is_contiguous(),
                x.type(), m.tensor([1]).type(), repr(m.get_default_dtype()),
                m.is_tensor(x), m.is_tensor([1]))
    check(fn)


# ---------------------------------------------------------------- NumPy and Python values
def test_tolist_and_item_give_python_values():
    def fn(m):
        return (m.tensor([[1, 2], [3, 4]]).tolist(), m.tensor([1.5, 2.0]).tolist(),
                m.tensor(2.5).item(), m.tensor([7]).item(), m.tensor(True).item(),
                m.tensor(3).tolist(), float(m.tensor(2)), int(m.tensor(2.9)),
                bool(m.tensor([0.0])), m.tensor([1.0, 2.0], requires_grad=True).tolist())
    check(fn)


def test_numpy_shares_memory_with_the_tensor():
    def fn(m):
        x = m.zeros(3)
        a = x.numpy()
        a[0] = 5.0
        x.add_(1)
        return x, a.tolist(), str(a.dtype), m.tensor([1, 2]).numpy().dtype.name
    check(fn)


def test_from_numpy_shares_memory_both_ways():
    def fn(m):
        arr = np.zeros((2, 2), dtype=np.float64)
        t = m.from_numpy(arr)
        arr[0, 0] = 3.0
        t[1] += 2.0
        t.mul_(2)
        return t, arr.tolist(), t._version
    check(fn)


def test_numpy_of_a_detached_tensor_shares_memory():
    def fn(m):
        x = m.ones(2, requires_grad=True)
        a = x.detach().numpy()
        a[1] = 4.0
        return x, x._version
    check(fn)


# ---------------------------------------------------------------- .data, .T, detach
def test_data_shares_memory_without_history():
    def fn(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        d = x.data
        d.mul_(10)
        return x, d, y.data, x._version, d.requires_grad, y.data.is_leaf
    check(fn)


def test_data_assignment_replaces_the_values():
    def fn(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        x.data = m.tensor([5.0, 6.0, 7.0])
        return x, x.requires_grad
    check(fn)


def test_T_and_mT():
    def fn(m):
        x = m.arange(6.0).reshape(2, 3).requires_grad_()
        b = m.arange(12.0).reshape(2, 2, 3)
        return x.T, x.T.T, b.mT, m.tensor([1.0, 2.0]).t(), x.t().shape
    check(fn)


def test_detach_shares_the_version_counter():
    def fn(m):
        x = m.ones(3, requires_grad=True)
        d = x.detach()
        d.add_(1)
        return x, d, x._version, d._version, d.requires_grad
    check(fn)


# ---------------------------------------------------------------- in-place operations
INPLACE_NO_GRAD = {
    "add_": lambda w: w.add_(1.5),
    "add_alpha": lambda w: w.add_(w, alpha=2),
    "sub_": lambda w: w.sub_(w * 0.5),
    "mul_": lambda w: w.mul_(3),
    "div_": lambda w: w.div_(2),
    "zero_": lambda w: w.zero_(),
    "fill_": lambda w: w.fill_(7),
    "copy_": lambda w: w.copy_(w * 0 + 4),
    "copy_broadcast": lambda w: w.copy_(w[:1] * 0 + 9),
    "clamp_": lambda w: w.clamp_(-1.0, 1.5),
    "isub": lambda w: _isub(w),
    "iadd": lambda w: _iadd(w),
    "setitem": lambda w: w.__setitem__(0, 100.0),
}


def _isub(w):
    w -= 0.1 * w
    return w


def _iadd(w):
    w += 1
    return w


@pytest.mark.parametrize("name", sorted(INPLACE_NO_GRAD))
def test_inplace_on_a_leaf_under_no_grad(name):
    def fn(m):
        w = m.tensor([1.0, -2.0, 3.0], requires_grad=True)
        with m.no_grad():
            out = INPLACE_NO_GRAD[name](w)
        same = out is w or out is None
        return w, same, w._version, w.grad_fn is None, w.requires_grad
    check(fn)


def test_inplace_on_int_and_bool_tensors():
    def fn(m):
        a = m.tensor([1, 2, 3])
        a.add_(2)
        a.mul_(a)
        b = m.tensor([1.0, 2.0])
        b.add_(m.tensor([1, 1]))
        c = m.zeros(2, dtype=m.int32)
        c.copy_(m.tensor([1.7, -1.7]))
        d = m.ones(3)
        d[m.tensor([True, False, True])] = 0.0
        return a, b, c, d, a._version
    check(fn)


REBASE = {
    "add_": lambda m, y, x: y.add_(x),
    "sub_alpha": lambda m, y, x: y.sub_(x, alpha=3),
    "mul_": lambda m, y, x: y.mul_(x),
    "div_": lambda m, y, x: y.div_(x + 5),
    "clamp_": lambda m, y, x: y.clamp_(min=0.0),
    "pow_": lambda m, y, x: y.pow_(2),
    "neg_": lambda m, y, x: y.neg_(),
    "copy_": lambda m, y, x: y.copy_(x * x),
    "fill_": lambda m, y, x: y.fill_(2.0),
    "zero_": lambda m, y, x: y.zero_(),
    "iadd": lambda m, y, x: _iadd(y),
    "masked_fill_": lambda m, y, x: y.masked_fill_(x > 0, 0.5),
    "chain": lambda m, y, x: y.mul_(2).add_(x).clamp_(max=4.0),
    "setitem_index": lambda m, y, x: y.__setitem__(1, x[0] * 10),
    "setitem_slice": lambda m, y, x: y.__setitem__(slice(1, None), x[:2]),
    "setitem_tensor_index": lambda m, y, x: y.__setitem__(m.tensor([2, 0]), x[:2] ** 2),
    "setitem_mask": lambda m, y, x: y.__setitem__(y > 2, 0.0),
    "setitem_all": lambda m, y, x: y.__setitem__(Ellipsis, x * 3),
}


@pytest.mark.parametrize("name", sorted(REBASE))
def test_inplace_on_a_non_leaf_rebases_history_like_torch(name):
    def fn(m):
        x = m.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = x * 2
        before = y.grad_fn
        REBASE[name](m, y, x)
        assert y.grad_fn is not before  # the history moved on
        (y * m.tensor([1.0, 2.0, 3.0])).sum().backward()
        return y, x.grad, y._version, y.is_leaf
    check(fn)


def test_setitem_with_grad_records_copyslices_and_index_put():
    def fn(m):
        x = m.zeros(2, 3, requires_grad=True)
        v = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = m.tensor([[5.0], [6.0]], requires_grad=True)
        y = x * 1
        y[0] = v
        a = y.grad_fn
        y[m.tensor([1, 1]), m.tensor([0, 2])] = w[1, 0] * m.ones(2)
        b = y.grad_fn
        y[:, 1:2] = w
        (y * m.arange(1.0, 7.0).reshape(2, 3)).sum().backward()
        return (type(a).__name__, type(b).__name__, type(y.grad_fn).__name__, x.grad, v.grad,
                w.grad, y)
    check(fn)


def test_setitem_on_a_leaf_without_grad_and_with_a_tensor_value():
    def fn(m):
        x = m.zeros(3, 4)
        x[1] = 1.0
        x[:, 0] = m.tensor([7.0, 8.0, 9.0])
        x[m.tensor([0, 2]), 1:3] = m.tensor([[1.0, 2.0], [3.0, 4.0]])
        x[x > 8] = -1.0
        x[..., -1] = m.arange(3.0)
        return x, x._version
    check(fn)


def test_hooks_and_retain_grad_match_torch():
    def fn(m):
        x = m.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.retain_grad()
        seen = []
        y.register_hook(lambda g: g * 2)
        handle = x.register_hook(lambda g: seen.append(g.tolist()))
        y.grad_fn.register_prehook(lambda go: seen.append(("pre", go[0].tolist())))
        y.grad_fn.register_hook(lambda gi, go: seen.append(("post", gi[0].tolist())))
        x.register_post_accumulate_grad_hook(lambda t: seen.append(("acc", t.grad.tolist())))
        y.sum().backward(retain_graph=True)
        handle.remove()
        y.sum().backward()
        return y.grad, x.grad, repr(seen)
    check(fn)

"""OpInfo samples of the small PyTorch names built from ops minitorch already has (task:
methods): the functional in-place forms (``torch.abs_(x)``), ``torch.fill``, the in-place
bitwise, logical, cumulative and matrix-product methods, the shifts, ``frexp``, ``rsub``,
``scalar_tensor``, the real-tensor forms of ``conj``/``real``/``H``, the ``unsafe_`` splits and
the ``*_copy`` functions.

``_opinfo_samples._build_table`` calls :func:`add_samples`. An in-place sample returns the
result, whether it is the tensor changed and that tensor's version, so identity and the
version counter are compared with PyTorch's too.
"""

from __future__ import annotations

import numpy as np
from _opinfo_samples import (
    A,
    Sample,
    all_families,
    f32,
    int_families,
    positive_families,
    rnd,
    unit_families,
)

# torch.<name>_(input, *args): the arguments after ``input`` and the input families
_UNIT = ("acos_", "arccos_", "asin_", "arcsin_", "atanh_", "arctanh_")
_POSITIVE = ("log_", "log2_", "log10_", "log1p_", "sqrt_", "rsqrt_", "reciprocal_", "acosh_",
             "arccosh_", "logit_")
INPLACE_FUNCTIONS = {
    "clamp_": (-0.5, 0.5), "clip_": (-0.5, 0.5), "clamp_max_": (0.5,), "clamp_min_": (0.0,),
    "fill_": (2.5,), "xlogy_": (A(rnd(3, 4, low=0.5), grad=False),),
    # (no negative exponent: PyTorch's gradient computes 2 ** -1 in integers, 0)
    "ldexp_": (A(np.array([1, 2, 3, 0]), grad=False),),
    "gcd_": (A(np.array([4, 6, -9, 0]), grad=False),),
    "lcm_": (A(np.array([4, 6, -9, 0]), grad=False),),
}
for _name in ("abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_",
              "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atanh_", "ceil_", "cos_",
              "cosh_", "deg2rad_", "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fix_",
              "floor_", "frac_", "i0_", "log10_", "log1p_", "log2_", "log_", "logit_",
              "nan_to_num_", "neg_", "negative_", "rad2deg_", "reciprocal_", "relu_", "round_",
              "rsqrt_", "sigmoid_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_",
              "trunc_", "zero_"):
    INPLACE_FUNCTIONS[_name] = ()
del _name


def _inplace_fn_call(name):
    def call(lib, x, *args, **kw):
        y = x.clone()
        out = getattr(lib, name)(y, *args, **kw)
        return out, out is y, y._version
    return call


def _families(name):
    if name in ("gcd_", "lcm_"):
        return ((f, a) for f, a in int_families((4,)) if f != "bool")
    if name == "ldexp_":
        return ((f, a) for f, a in all_families((4,)) if a.arr.ndim == 1 and a.arr.shape[0] in
                (4, 8) and not a.layout)
    if name in _UNIT:
        return unit_families()
    if name == "logit_":  # inside (0, 1), where logit is finite
        return ((f, A((0.05 + 0.9 * np.abs(np.tanh(a.arr))).astype(a.arr.dtype), layout=a.layout)
                 if f in ("ordinary", "noncontig", "strided", "float64", "float16") else a)
                for f, a in (*positive_families(), *int_families()))
    if name in _POSITIVE:
        return (*positive_families(), *int_families())
    return all_families()


def inplace_function_samples(op):
    name = op.split(":")[1]
    args = INPLACE_FUNCTIONS[name]

    def gen():
        call = _inplace_fn_call(name)
        for fam, a in _families(name):
            yield Sample(op, fam, (a, *args), call=call, gradgrad=fam == "ordinary")
        x = A(rnd(3, 4) if name not in ("gcd_", "lcm_") else np.array([4, 6, -9, 0]))
        if name not in ("gcd_", "lcm_", "ldexp_"):
            # a leaf that requires grad (torch.detach_ accepts it); a number is no tensor
            yield Sample(op, "leaf", (x, *args), call=lambda lib, x, *a: (
                getattr(lib, name)(x, *a), x._version))
        yield Sample(op, "number", (3.0, *args), call=lambda lib, x, *a: getattr(lib, name)(
            x, *a))
        yield Sample(op, "missing-input", (), call=lambda lib: getattr(lib, name)())
        if name == "round_":
            yield Sample(op, "decimals", (A(f32([1.26, -0.35, 2.5])),), {"decimals": 1},
                         call=call)
        if name == "clamp_":
            yield Sample(op, "no-bounds", (A(rnd(3)),), call=call)
            yield Sample(op, "tensor-min", (A(rnd(3)),), {"min": A(rnd(3), grad=False)},
                         call=call)
        if name == "nan_to_num_":
            yield Sample(op, "values", (A(f32([np.nan, np.inf, -np.inf, 1.0])),),
                         {"nan": 1.0, "posinf": 2.0, "neginf": -2.0}, call=call)
        if name == "fill_":
            yield Sample(op, "tensor-value", (A(rnd(3)), A(f32(1.5))), call=call)
            yield Sample(op, "1-d-value", (A(rnd(3)), A(rnd(2))), call=call)
    return gen


def fill_samples(op):
    """``torch.fill(input, value)``: a new tensor, ``FillBackward0`` (a number) or
    ``FillBackward1`` (a 0-d tensor, which gets the gradient)."""
    def node(lib, x, v):
        out = lib.fill(x, v)
        return out, out.grad_fn.name(), out is x

    def gen():
        for fam, a in all_families():
            for v in (2.5, -1, True):
                yield Sample(op, f"{fam}-{v}", (a, v), gradgrad=fam == "ordinary")
            # (a value that requires grad cannot fill an integer tensor: PyTorch's error, which
            # minitorch's fill_ does not raise either)
            yield Sample(op, f"{fam}-tensor", (a, A(f32(1.5), grad=a.arr.dtype.kind == "f")),
                         gradgrad=fam == "ordinary")
        yield Sample(op, "nan-into-int", (A(np.array([1, 2])), float("nan")))
        yield Sample(op, "1-d-value", (A(rnd(3)), A(rnd(2))))
        yield Sample(op, "number", (3.0, 1.0))
        yield Sample(op, "node", (A(rnd(3)), 2.0), call=node)
        yield Sample(op, "node-tensor", (A(rnd(3)), A(f32(2.0))), call=node)
    return gen


def add_samples(t: dict) -> None:
    for name in INPLACE_FUNCTIONS:
        t[f"fn:{name}"] = inplace_function_samples(f"fn:{name}")
    t["fn:fill"] = fill_samples("fn:fill")
    add_more_samples(t)


# --------------------------------------------------------------------------- Tensor methods
def _method_inplace_call(name):
    def call(lib, x, *args, **kw):
        y = x.clone()
        out = getattr(y, name)(*args, **kw)
        return out, out is y, y._version, y.grad_fn and y.grad_fn.name()
    return call


def _fn_or_method(op):
    style, name = op.split(":")
    if style == "fn":
        return lambda lib, *a, **kw: getattr(lib, name)(*a, **kw)
    return lambda lib, x, *a, **kw: getattr(x, name)(*a, **kw)


def _ints():
    return [("int64", A(np.array([[5, -3, 0], [7, 1, -8]]))),
            ("int32", A(np.array([[5, -3, 0], [7, 1, -8]], np.int32))),
            ("int8", A(np.array([[5, -3, 0], [7, 1, -8]], np.int8))),
            ("uint8", A(np.array([[5, 3, 0], [7, 1, 255]], np.uint8))),
            ("bool", A(np.array([[True, False, True], [False, False, True]]))),
            ("float32", A(rnd(2, 3))), ("empty", A(np.zeros((0, 3), np.int64))),
            ("0-d", A(np.array(6)))]


def bitwise_inplace_samples(op):
    """``bitwise_and_``, ..., the shifts in place: every integer dtype and bool, a tensor or a
    number as ``other``, PyTorch's errors for floats, a result that cannot be cast into the
    tensor, and a shape that does not broadcast into it."""
    name = op.split(":")[1]
    call = _method_inplace_call(name)
    unary = name == "bitwise_not_"

    def gen():
        for fam, a in _ints():
            if unary:
                yield Sample(op, fam, (a,), call=call)
                continue
            for oname, other in (("int", A(np.array([1, 2, 3]))), ("int8", A(np.array(
                    [1, 7, 9], np.int8))), ("bool", A(np.array([True, False, True]))),
                                 ("number", 2), ("float", 1.5), ("0-d", A(np.array(3)))):
                if fam in ("0-d",) and oname in ("int", "int8", "bool"):
                    continue
                yield Sample(op, f"{fam}-{oname}", (a, other), call=call)
        if not unary:
            yield Sample(op, "no-broadcast", (A(np.array([1, 2])), A(np.array([[1], [2]]))),
                         call=call)
            yield Sample(op, "shapes", (A(np.array([1, 2])), A(np.array([1, 2, 3]))),
                         call=call)
    return gen


def shift_samples(op):
    """``bitwise_left_shift``, ``bitwise_right_shift``, ``<<``, ``>>``: shifts by negative
    amounts and by the dtype's width or more, every integer dtype, numbers on either side."""
    fn = _fn_or_method(op) if not op.startswith("op:") else (
        lambda lib, a, b, _n=op[3:]: getattr(a, _n)(b))

    def gen():
        shifts = A(np.array([[-1, 0, 1], [7, 8, 63]]))
        for fam, a in _ints():
            yield Sample(op, f"{fam}-tensor", (a, shifts if a.arr.ndim == 2 else A(np.array(3))),
                         call=fn)
            yield Sample(op, f"{fam}-number", (a, 3), call=fn)
            yield Sample(op, f"{fam}-64", (a, 64), call=fn)
            yield Sample(op, f"{fam}-int8", (a, A(np.array([1, 9, -2], np.int8))), call=fn)
        yield Sample(op, "wide", (A(np.array([1, -8, 5, 127])), A(np.array([-1, 63, 64, 65]))),
                     call=fn)
        yield Sample(op, "float-shift", (A(np.array([3])), A(f32([1.0]))), call=fn)
        yield Sample(op, "bool-bool", (A(np.array([True])), A(np.array([True]))), call=fn)
        yield Sample(op, "float-number", (A(np.array([3])), 1.5), call=fn)
        yield Sample(op, "no-broadcast", (A(np.array([1, 2])), A(np.array([1, 2, 3]))), call=fn)
        if op.startswith("fn:"):
            yield Sample(op, "number-first", (3, A(np.array([1, 2]))), call=fn)
    return gen


def logical_inplace_samples(op):
    """``logical_and_``, ...: the bools written back in the tensor's dtype; PyTorch does not
    differentiate them, so the tensor keeps its node (and a leaf may be changed)."""
    name = op.split(":")[1]
    call = _method_inplace_call(name)
    args = () if name == "logical_not_" else (A(np.array([[1, 0, 2], [0, 0, 3]])),)

    def gen():
        for fam, a in all_families((2, 3)):
            if a.arr.ndim == 2:  # ("ordinary" renamed: test_gradcheck would take it, and the
                # gradient PyTorch passes on through the kept node is no derivative)
                yield Sample(op, "values" if fam == "ordinary" else fam, (a, *args), call=call)
        yield Sample(op, "leaf", (A(rnd(2, 3)), *args), call=lambda lib, x, *a: (
            getattr(x, name)(*a), x._version, x.requires_grad, x.grad_fn))
        if args:
            yield Sample(op, "float-other", (A(np.array([0, 1, 2])), A(f32([1.0, 0.0, 0.5]))),
                         call=call)
            yield Sample(op, "number", (A(np.array([0, 1])), 1), call=call)
            yield Sample(op, "no-broadcast", (A(np.array([0, 1])), A(np.array([[1], [0]]))),
                         call=call)
    return gen


def logical_xor_samples(op):
    fn = _fn_or_method(op)

    def gen():
        for fam, a in all_families((2, 3)):
            if a.arr.ndim == 2:
                yield Sample(op, fam, (a, A(np.array([[1, 0, 2], [0, 0, 3]]))), call=fn)
                yield Sample(op, fam + "-float", (a, A(f32([0.0, 1.0, np.nan]))), call=fn)
        yield Sample(op, "number", (A(np.array([0, 1])), 1), call=fn)
        yield Sample(op, "shapes", (A(np.array([0, 1])), A(np.array([0, 1, 1]))), call=fn)
    return gen


def product_inplace_samples(op):
    """``addmm_``, ``baddbmm_``, ``addbmm_``: ``beta``/``alpha``, the node, dtypes, and a
    ``self`` that the product would have to broadcast."""
    name = op.split(":")[1]
    call = _method_inplace_call(name)
    shapes = {"addmm_": ((2, 4), (2, 3), (3, 4)), "baddbmm_": ((2, 2, 4), (2, 2, 3), (2, 3, 4)),
              "addbmm_": ((2, 4), (2, 2, 3), (2, 3, 4))}[name]

    def gen():
        s, a, b = shapes
        for dt in (np.float32, np.float64, np.float16):
            yield Sample(op, np.dtype(dt).name, (A(rnd(*s, dtype=dt)), A(rnd(*a, dtype=dt)),
                                                 A(rnd(*b, dtype=dt))), call=call,
                         gradgrad=dt is np.float32)
        yield Sample(op, "beta-alpha", (A(rnd(*s)), A(rnd(*a)), A(rnd(*b))),
                     {"beta": 0.5, "alpha": 2.0}, call=call)
        yield Sample(op, "beta-0-nan", (A(np.full(s, np.nan, np.float32)), A(rnd(*a)),
                                        A(rnd(*b))), {"beta": 0}, call=call)
        yield Sample(op, "int", (A(np.ones(s, np.int64)), A(np.ones(a, np.int64)),
                                 A(np.ones(b, np.int64))), call=call)
        if name != "addbmm_":  # (PyTorch's addbmm_ resizes a broadcast self; its dtype error
            # is mat1's and mat2's, minitorch's addbmm names bmm's)
            yield Sample(op, "broadcast-self", (A(rnd(*s[-1:])), A(rnd(*a)), A(rnd(*b))),
                         call=call)
            yield Sample(op, "mixed-dtypes", (A(rnd(*s)), A(rnd(*a, dtype=np.float64)),
                                              A(rnd(*b))), call=call)
    return gen


def scan_inplace_samples(op):
    name = op.split(":")[1]
    inner = _method_inplace_call(name)

    def call(lib, x, *args, dtype=None):
        if isinstance(dtype, str):
            dtype = getattr(lib, dtype)
        return inner(lib, x, *args, **({} if dtype is None else {"dtype": dtype}))

    def gen():
        for fam, a in all_families():
            for dim in ((0,) if a.arr.ndim == 0 else (0, -1)):
                yield Sample(op, f"{fam}-{dim}", (a, dim), call=call,
                             gradgrad=fam == "ordinary")
        yield Sample(op, "dtype-same", (A(rnd(3)), 0), {"dtype": "float32"}, call=call)
        yield Sample(op, "dtype-other", (A(rnd(3)), 0), {"dtype": "float64"}, call=call)
        yield Sample(op, "int-dtype-float", (A(np.array([1, 2])), 0), {"dtype": "float32"},
                     call=call)
        yield Sample(op, "dim-out-of-range", (A(rnd(3)), 5), call=call)
    return gen


def swap_inplace_samples(op):
    name = op.split(":")[1]
    call = _method_inplace_call(name)

    def gen():
        for fam, a in all_families():
            for args in ((0, -1),) if a.arr.ndim == 0 else ((0, 1), (1, 0), (-1, 0)):
                yield Sample(op, f"{fam}-{args}", (a, *args), call=call,
                             gradgrad=fam == "ordinary")
        yield Sample(op, "out-of-range", (A(rnd(3, 4)), 0, 2), call=call)
        yield Sample(op, "leaf", (A(rnd(3, 4)), 0, 1), call=lambda lib, x, *a: getattr(x, name)(
            *a))
    return gen


def identity_samples(op):
    """``conj``, ``resolve_conj``, ``resolve_neg``, ``conj_physical``, ``adjoint``, ``real``
    and the predicates on real tensors: the result, whether it is the input itself, its node."""
    fn = _fn_or_method(op)

    def call(lib, x, *args):
        out = fn(lib, x, *args)
        if isinstance(out, lib.Tensor):
            return out, out is x, out.grad_fn and out.grad_fn.name(), out._base is x
        return out

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), call=call, gradgrad=fam == "ordinary")
        yield Sample(op, "3-d", (A(rnd(2, 3, 4)),), call=call)
        yield Sample(op, "non-leaf", (A(rnd(2, 3)),), call=lambda lib, x: call(lib, x * 1))
        yield Sample(op, "number", (2.0,), call=fn)
    return gen


def same_size_samples(op):
    fn = _fn_or_method(op)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a, A(rnd(3, 4))), call=fn)
        yield Sample(op, "same-0-d", (A(f32(1.0)), A(np.array(2))), call=fn)
        yield Sample(op, "number", (A(rnd(3)), 3), call=fn)
    return gen


def conj_physical_inplace_samples(op):
    call = _method_inplace_call("conj_physical_") if op.startswith("method:") else (
        lambda lib, x: (lambda y: (lib.conj_physical_(y) is y, y, y._version,
                                   y.grad_fn and y.grad_fn.name()))(x.clone()))

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), call=call, gradgrad=fam == "ordinary")
        yield Sample(op, "leaf", (A(rnd(3)),), call=lambda lib, x: x.conj_physical_())
    return gen


def split_samples(op):
    """``split_with_sizes`` and the ``unsafe_`` splits: pieces, nodes, whether they are views
    (the unsafe ones are not, but share the memory), and PyTorch's errors."""
    name = op.split(":")[1]
    fn = _fn_or_method(op)

    def call(lib, x, *args, **kw):
        y = x * 1 if x.requires_grad else x
        pieces = fn(lib, y, *args, **kw)
        return (*pieces, [p.grad_fn and p.grad_fn.name() for p in pieces],
                [p._base is not None for p in pieces],
                [p.numel() and p.data_ptr() - y.data_ptr() for p in pieces])

    sizes = name.endswith("sizes")
    cases = (([1, 2], 0), ([3], 0), ([0, 3], 0), ([2, 2], 1), ([1, 3], -1), ([2, 2],),
             ([5, -2], 0)) if sizes else ((1,), (2,), (2, 1), (3, -1), (0,), (-1,), (5,))

    def gen():
        for fam, a in all_families((3, 4)):
            if a.arr.ndim != 2:
                continue
            for args in cases:
                yield Sample(op, f"{fam}-{args}", (a, *args), call=call,
                             gradgrad=fam == "ordinary" and args == cases[0])
        yield Sample(op, "0-d", (A(f32(1.0)), *cases[0]), call=call)
        yield Sample(op, "empty", (A(np.zeros((0, 4), np.float32)), *(([0],) if sizes else
                                                                      (2,))), call=call)
        yield Sample(op, "bad-type", (A(rnd(3)), 1.5 if not sizes else 2), call=call)
    return gen


def narrow_copy_samples(op):
    fn = _fn_or_method(op)

    def call(lib, x, *args):
        y = x * 1 if x.requires_grad else x
        out = fn(lib, y, *args)
        return out, out.grad_fn and out.grad_fn.name(), out._base is None, out.is_contiguous()

    def gen():
        for fam, a in all_families((3, 4)):
            if a.arr.ndim == 2:
                # (not a negative start: PyTorch's narrow_copy backward fails on it)
                for args in ((0, 0, 2), (1, 1, 3), (-1, 2, 2), (0, 3, 0)):
                    yield Sample(op, f"{fam}-{args}", (a, *args), call=call,
                                 gradgrad=fam == "ordinary")
        yield Sample(op, "too-long", (A(rnd(3, 4)), 0, 2, 5), call=call)
        yield Sample(op, "dim-out-of-range", (A(rnd(3, 4)), 2, 0, 1), call=call)
        yield Sample(op, "negative-dim-out-of-range", (A(rnd(3, 4)), -3, 0, 1), call=call)
    return gen


def frexp_samples(op):
    fn = _fn_or_method(op)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), call=fn, gradgrad=fam == "ordinary")
        yield Sample(op, "powers", (A(f32([0.0, -0.0, 1.0, 8.0, -3.5, 1e-40, 3e38])),), call=fn)
        yield Sample(op, "node", (A(rnd(3)),), call=lambda lib, x: (
            fn(lib, x * 1).mantissa.grad_fn.name(), fn(lib, x).exponent.requires_grad))
    return gen


def rsub_samples(op):
    def node(lib, *args, **kw):
        out = lib.rsub(*args, **kw)
        return out, out.grad_fn and out.grad_fn.name()

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam + "-number", (a, 2), call=node, gradgrad=fam == "ordinary")
            yield Sample(op, fam + "-tensor", (a, A(rnd(3, 4))), call=node,
                         gradgrad=fam == "ordinary")
            yield Sample(op, fam + "-alpha", (a, A(rnd(3, 4)), ), {"alpha": 2}, call=node)
            yield Sample(op, fam + "-number-alpha", (a, 1.5), {"alpha": 3}, call=node)
        yield Sample(op, "bool-number", (A(np.array([True])), 1), call=node)
        yield Sample(op, "number-first", (2, A(rnd(3))), call=node)
        yield Sample(op, "shapes", (A(rnd(3)), A(rnd(2))), call=node)
    return gen


def scalar_tensor_samples(op):
    def call(lib, value, dtype=None, **kw):
        if dtype is not None:
            kw["dtype"] = getattr(lib, dtype) if isinstance(dtype, str) else dtype
        if isinstance(value, str) and value == "tensor":
            value = lib.tensor(2)
        return lib.scalar_tensor(value, **kw)

    def gen():
        for value in (3, 2.5, True, -0.0, float("nan"), float("inf"), 2**63, 1e40, 2**70,
                      -2**63 - 1, "tensor", "text", None):
            yield Sample(op, repr(value), (value,), call=call)
        for dtype in ("int64", "float64", "bool", "uint8", "float16"):
            yield Sample(op, dtype, (300,), {"dtype": dtype}, call=call)
        yield Sample(op, "requires-grad", (1.5,), {"requires_grad": True}, call=call)
        yield Sample(op, "int-requires-grad", (1,), {"dtype": "int64", "requires_grad": True},
                     call=call)
    return gen


def empty_strided_samples(op):
    """Values are undefined: the shape, strides, dtype and ``requires_grad`` are compared."""
    name = op.split(":")[1]

    def call(lib, *args, dtype=None, **kw):
        if dtype is not None:
            kw["dtype"] = getattr(lib, dtype) if isinstance(dtype, str) else dtype
        if name == "new_empty_strided":
            out = lib.ones(2, dtype=lib.float64).new_empty_strided(*args, **kw)
        else:
            out = getattr(lib, name)(*args, **kw)
        return tuple(out.shape), out.stride(), str(out.dtype), out.requires_grad, \
            out.is_contiguous()

    cases = (((2, 3), (1, 2)), ((2, 3), (3, 1)), ((2, 3), (0, 1)), ((2, 0), (1, 2)), ((), ()),
             ([2, 3], [1, 2]), ((2, 3), (1,)), ((2, 3), (-1, 1)), (2, 3), ((2, 3), (1.5, 2)))
    if name == "empty_permuted":
        cases = (((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (0, 1, 2)), ((2, 3), (1, 0)), ((), ()),
                 ((2, 3, 4), (0, 0, 1)), ((2, 3, 4), (2, 0)), ((2, 3, 4), (2, 0, 5)),
                 ((2, 3), (-1, 0)), (2, 3))

    def gen():
        for args in cases:
            yield Sample(op, repr(args), args, call=call)
        yield Sample(op, "dtype", cases[0], {"dtype": "int32"}, call=call)
        yield Sample(op, "requires-grad", cases[0], {"requires_grad": True}, call=call)
        yield Sample(op, "int-requires-grad", cases[0], {"dtype": "int64",
                                                         "requires_grad": True}, call=call)
    return gen


def dim_order_samples(op):
    def call(lib, x, how, **kw):
        y = {"plain": lambda: x, "t": lambda: x.t() if x.ndim == 2 else x,
             "step": lambda: x[..., ::2], "expand": lambda: x.expand(3, *x.shape),
             "perm": lambda: x.permute(*reversed(range(x.ndim))),
             "cl": lambda: x.reshape(1, 2, 3, 2).permute(0, 2, 3, 1) if x.numel() == 12 else x,
             }[how]()
        return y.dim_order(**kw)

    def gen():
        for fam, a in all_families():
            for how in ("plain", "t", "step", "expand", "perm", "cl"):
                if how in ("step", "perm") and a.arr.ndim == 0:
                    continue
                yield Sample(op, f"{fam}-{how}", (a, how), call=call)
                yield Sample(op, f"{fam}-{how}-check", (a, how), {"ambiguity_check": True},
                             call=call)
        yield Sample(op, "size-1", (A(rnd(1, 3)), "t"), call=call)
        yield Sample(op, "bad-check", (A(rnd(2, 3)), "plain"), {"ambiguity_check": "x"},
                     call=call)
    return gen


def inference_samples(op):
    def call(lib, x):
        with lib.inference_mode():
            y = x * 2
        return lib.is_inference(x), lib.is_inference(y)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), call=call)
        yield Sample(op, "number", (2,), call=lambda lib, x: lib.is_inference(x))
    return gen


def get_device_samples(op):
    fn = _fn_or_method(op)

    def gen():
        for fam, a in all_families():
            yield Sample(op, fam, (a,), call=fn)
        if op.startswith("fn:"):
            yield Sample(op, "number", (2,), call=fn)
    return gen


# --------------------------------------------------------------------------- the *_copy functions
COPY_CASES = {
    "alias_copy": ((),), "detach_copy": ((),), "expand_copy": (((2, 3, 4),), ((-1, 4),)),
    "permute_copy": (((1, 0),), ((0, 0),)), "t_copy": ((),), "transpose_copy": ((0, 1), (1, 5)),
    "unsqueeze_copy": ((0,), (-1,), (3,)), "squeeze_copy": ((), (0,), ((0, 1),)),
    "view_copy": (((4, 3),), ((-1,),), ((5,),)), "select_copy": ((0, 1), (1, -1), (0, 3)),
    "slice_copy": ((), (1, 0, 2), (1, None, None, 2), (0, -2, 10), (0, 0, 2, 0)),
    "diagonal_copy": ((), (1,), (-1, 1, 0)), "unbind_copy": ((), (1,)),
    "split_copy": ((1,), (2, 1), (0,)), "split_with_sizes_copy": (([1, 2],), ([1, 3], 1),
                                                                   ([2, 2],)),
    "unfold_copy": ((1, 2, 1), (0, 2, 2), (0, 4, 1)), "narrow_copy": ((1, 0, 2), (0, 2, 5)),
}


def copy_samples(op):
    """Each ``*_copy`` function: the values of the view in memory of their own (not a view,
    contiguous), recorded by the view's node with PyTorch's ``_copy`` name."""
    name = op.split(":")[1]

    def call(lib, x, *args):
        y = x * 1 if x.requires_grad else x
        out = getattr(lib, name)(y, *args)
        outs = [out] if isinstance(out, lib.Tensor) else list(out)
        return (*outs, type(out).__name__, [
            (o.grad_fn and o.grad_fn.name(), o._base is None, o.is_contiguous(),
             o.numel() == 0 or o.data_ptr() != y.data_ptr()) for o in outs])

    def gen():
        for fam, a in all_families():
            if a.arr.ndim != 2:
                continue
            for args in COPY_CASES[name]:
                yield Sample(op, f"{fam}-{args}", (a, *args), call=call,
                             gradgrad=fam == "ordinary" and name != "detach_copy")
        yield Sample(op, "number", (2.0, *COPY_CASES[name][0]), call=call)
        yield Sample(op, "no-grad-input", (A(rnd(3, 4), grad=False), *COPY_CASES[name][0]),
                     call=call)
    return gen


def add_more_samples(t: dict) -> None:
    for name in ("bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
                 "bitwise_left_shift_", "bitwise_right_shift_"):
        t[f"method:{name}"] = bitwise_inplace_samples(f"method:{name}")
    for name in ("bitwise_left_shift", "bitwise_right_shift"):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = shift_samples(f"{style}:{name}")
    for name in ("__lshift__", "__rshift__", "__rlshift__", "__rrshift__"):
        t[f"op:{name}"] = shift_samples(f"op:{name}")
    for name in ("logical_and_", "logical_or_", "logical_xor_", "logical_not_"):
        t[f"method:{name}"] = logical_inplace_samples(f"method:{name}")
    for style in ("fn", "method"):
        t[f"{style}:logical_xor"] = logical_xor_samples(f"{style}:logical_xor")
    for name in ("addmm_", "baddbmm_", "addbmm_"):
        t[f"method:{name}"] = product_inplace_samples(f"method:{name}")
    for name in ("cumsum_", "cumprod_"):
        t[f"method:{name}"] = scan_inplace_samples(f"method:{name}")
    for name in ("swapaxes_", "swapdims_"):
        t[f"method:{name}"] = swap_inplace_samples(f"method:{name}")
    for name in ("adjoint", "conj", "conj_physical", "resolve_conj", "resolve_neg", "is_conj",
                 "is_neg", "isreal", "is_signed"):
        for style in ("fn", "method"):
            t[f"{style}:{name}"] = identity_samples(f"{style}:{name}")
    for name in ("real", "imag"):
        t[f"fn:{name}"] = identity_samples(f"fn:{name}")
    for style in ("fn", "method"):
        t[f"{style}:is_same_size"] = same_size_samples(f"{style}:is_same_size")
        t[f"{style}:conj_physical_"] = conj_physical_inplace_samples(f"{style}:conj_physical_")
        t[f"{style}:get_device"] = get_device_samples(f"{style}:get_device")
        t[f"{style}:narrow_copy"] = narrow_copy_samples(f"{style}:narrow_copy")
        t[f"{style}:frexp"] = frexp_samples(f"{style}:frexp")
        for name in ("split_with_sizes", "unsafe_split", "unsafe_split_with_sizes",
                     "unsafe_chunk"):
            t[f"{style}:{name}"] = split_samples(f"{style}:{name}")
    t["fn:rsub"] = rsub_samples("fn:rsub")
    t["fn:scalar_tensor"] = scalar_tensor_samples("fn:scalar_tensor")
    for op in ("fn:empty_strided", "fn:empty_permuted", "method:new_empty_strided"):
        t[op] = empty_strided_samples(op)
    t["method:dim_order"] = dim_order_samples("method:dim_order")
    t["fn:is_inference"] = inference_samples("fn:is_inference")
    for name in COPY_CASES:
        t[f"fn:{name}"] = copy_samples(f"fn:{name}")

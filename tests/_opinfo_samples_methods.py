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

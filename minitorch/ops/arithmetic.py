"""Elementwise arithmetic with broadcasting: ``+ - * / **``, comparisons, ``maximum``,
``minimum``, ``clamp`` and ``where``.

Each backward formula sits next to its forward. Gradients are returned in the output's shape;
the engine sums them back over broadcast dimensions (``sum_to_size``) for each input.

Example:
    >>> import minitorch
    >>> a = minitorch.tensor([1.0, 2.0], requires_grad=True)
    >>> b = minitorch.tensor(3.0, requires_grad=True)
    >>> (a * b).sum().backward()
    >>> a.grad, b.grad
    (tensor([3., 3.]), tensor(3.))
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    against_number,
    as_tensor,
    broadcast_error,
    check_tensor,
    float_type,
    fused_multiply_add,
    iterator_layout,
    name_saved,
    operands,
    quietly,
    saved_attr,
    saved_number,
)

__all__ = [
    "add", "sub", "rsub", "mul", "div", "pow", "neg", "reciprocal", "maximum", "minimum",
    "clamp", "where", "masked_fill", "eq", "ne", "lt", "le", "gt", "ge", "floor_divide",
    "remainder",
]


def _binary(np_fn, a: Tensor, b: Tensor) -> Tensor:
    x, y = a._data, b._data
    if x.dtype is not y.dtype or type(x) is not type(y):  # promote, or move a 0-d CPU tensor
        x, y = operands(a, b)
    try:
        out = np_fn(x, y)
    except ValueError:
        raise broadcast_error(a.shape, b.shape) from None
    if out.ndim > 1 and not (a._data.flags.c_contiguous and b._data.flags.c_contiguous):
        out = iterator_layout(out, a, b)  # an operand not in C order: PyTorch's layout
    return _wrap(out)


class Add(Function):
    node_name = "AddBackward0"
    _builtin = True
    saved_values = {"alpha": lambda node: 1}  # the node's _saved_alpha, as in PyTorch

    @staticmethod
    def forward(a, b):
        return _binary(np.add, a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        # d(a+b)/da = 1, d(a+b)/db = 1: the gradient passes through unchanged.
        return grad, grad


class AddNumber(Function):
    """``tensor + number`` on a floating-point tensor: the number needs no wrapping.

    As in PyTorch, the number still has an edge in the graph, an empty one: ``(None, 0)``.
    """

    node_name = "AddBackward0"
    _builtin = True
    saved_values = {"alpha": lambda node: 1}  # the node's _saved_alpha, as in PyTorch
    _edge_args = (0, 1)

    @staticmethod
    def forward(a, number):
        return _wrap(a._data + number)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SubNumber(Function):
    """``tensor - number`` on a floating-point tensor."""

    node_name = "SubBackward0"
    _builtin = True
    saved_values = {"alpha": lambda node: 1}  # the node's _saved_alpha, as in PyTorch
    _edge_args = (0, 1)

    @staticmethod
    def forward(a, number):
        return _wrap(a._data - number)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class AddScaled(Function):
    """``a + alpha * b`` (``add(a, b, alpha=...)``), still named AddBackward0."""

    node_name = "AddBackward0"
    _builtin = True
    saved_values = {"alpha": saved_attr("alpha")}

    @staticmethod
    def forward(a, b, alpha):
        return _binary(lambda x, y: _add_scaled(x, y, alpha), a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, _, alpha = inputs
        ctx.alpha = alpha

    @staticmethod
    def backward(ctx, grad):
        return grad, (grad * ctx.alpha if ctx.needs_input_grad[1] else None)


def _add_scaled(x, y, alpha):
    """``x + alpha * y`` rounded once, as PyTorch's kernel computes it (a fused multiply-add),
    with ``alpha`` taken in the dtype."""
    return fused_multiply_add(y.dtype.type(alpha), y, x)


class SubScaled(AddScaled):
    """``a - alpha * b`` (``sub(a, b, alpha=...)``): ``AddScaled`` with ``-alpha``."""

    node_name = "SubBackward0"
    saved_values = {"alpha": lambda node: -node.alpha}  # PyTorch shows sub's own alpha
    _builtin = True


class Sub(Function):
    node_name = "SubBackward0"
    _builtin = True
    saved_values = {"alpha": lambda node: 1}  # the node's _saved_alpha, as in PyTorch

    @staticmethod
    def forward(a, b):
        return _binary(np.subtract, a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        # only the gradients that are needed: y - c for a constant c costs no negation
        return grad, (-grad if ctx.needs_input_grad[1] else None)


def _is_bool(v) -> bool:
    return v._data.dtype == np.bool_ if isinstance(v, Tensor) else isinstance(v, (bool, np.bool_))


def _check_sub(a, b) -> None:
    """PyTorch refuses ``-`` on bools (Python's too): it suggests ``^`` or ``~`` instead."""
    bools = _is_bool(a) + _is_bool(b)
    if bools == 2:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
            "`^` or `logical_xor()` operator instead."
        )
    if bools == 1:
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
            "trying to invert a mask, use the `~` or `logical_not()` operator instead."
        )


class Rsub(Function):
    """``number - tensor``: the number gets no edge in the graph."""

    node_name = "RsubBackward1"
    _builtin = True
    saved_values = {"alpha": lambda node: 1}  # the node's _saved_alpha, as in PyTorch
    _edge_args = (0,)

    @staticmethod
    def forward(a, b):
        return _binary(np.subtract, b, a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(Function):
    node_name = "MulBackward0"
    _builtin = True

    @staticmethod
    def forward(a, b):
        return _binary(np.multiply, a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        # Save only what backward will need: b for a's gradient, a for b's.
        (a, b), (need_a, need_b) = inputs, ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d(a*b)/da = b, d(a*b)/db = a
        return (grad * b if b is not None else None,
                grad * a if a is not None else None)


def _times(x, number):
    """``x * number`` for a Python number as PyTorch's CPU kernel computes it: a float16 array
    in float32, with the number not rounded to float16 first, then rounded once (NumPy would
    round the number first: ``0 * 1e5`` would be ``0 * inf``, NaN, and ``x / 1e5`` zero)."""
    if x.dtype.char == "e":  # float16
        return quietly(_in_float32, np.multiply, x, number)
    return x * number


def _divided(x, number):
    """``x / number`` for a Python number, computed as ``_times`` computes ``x * number``."""
    if x.dtype.char == "e":  # float16
        return quietly(_in_float32, np.true_divide, x, number)
    return quietly(np.true_divide, x, number)


def _in_float32(np_fn, x, number):
    return np_fn(x.astype(np.float32), np.float32(number)).astype(np.float16)


# Chapter 02 prints the class above, so its node is given its _saved_self and _saved_other
# (as in PyTorch) here.
name_saved(Mul, ("self", "other"))


class MulNumber(Function):
    """``tensor * number`` on a floating-point tensor: the number needs no wrapping, and it is
    all that backward needs (``d(a*c)/da = c``)."""

    node_name = "MulBackward0"
    _builtin = True
    saved_names = ("self",)  # and the number, saved as a 0-d tensor:
    saved_values = {"other": saved_number("number")}
    _edge_args = (0, 1)  # the number's edge is empty, as in PyTorch

    @staticmethod
    def forward(a, number):
        return _wrap(_times(a._data, number))

    @staticmethod
    def setup_context(ctx, inputs, output):
        # PyTorch saves the number for backward, so a second backward without retain_graph
        # fails here as it does there: the number is kept in ctx, the marker in saved_tensors.
        ctx.save_for_backward(None)
        ctx.number = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018  (raises once the graph has been freed)
        return grad * ctx.number, None


class DivNumber(Function):
    """``tensor / number`` on a floating-point tensor, as ``MulNumber`` (``d(a/c)/da = 1/c``)."""

    node_name = "DivBackward0"
    _builtin = True
    saved_names = ("self",)  # and the number, saved as a 0-d tensor:
    saved_values = {"other": saved_number("number")}
    _edge_args = (0, 1)  # the number's edge is empty, as in PyTorch

    @staticmethod
    def forward(a, number):
        return _wrap(_divided(a._data, number))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, number = inputs
        ctx.save_for_backward(None)  # PyTorch saves the number: see MulNumber
        ctx.number = number

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018  (raises once the graph has been freed)
        return grad / ctx.number, None


class Div(Function):
    node_name = "DivBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    saved_names = ("self", "other")

    @staticmethod
    def forward(a, b):
        x, y = operands(a, b)
        if x.dtype.kind != "f":  # true division of integers gives floats, each operand made
            # a float from its own dtype as in PyTorch (through the promoted integer type, a
            # 0-d -3 would be 253 next to a uint8 tensor, and 2**40 would wrap in int32)
            xp, f = array_module(x), _dtype.get_default_dtype().np
            x, y = xp.asarray(a._data).astype(f), xp.asarray(b._data).astype(f)
        try:
            return _wrap(quietly(np.true_divide, x, y))
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d(a/b)/da = 1/b, d(a/b)/db = -a/b^2, computed as (a/b)/b: b*b would overflow sooner
        return (grad / b if ctx.needs_input_grad[0] else None,
                -grad * ((a / b) / b) if a is not None else None)


class Neg(Function):
    node_name = "NegBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        if a._data.dtype == np.bool_:
            raise RuntimeError(
                "Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                "to invert a mask, use the `~` or `logical_not()` operator instead."
            )
        return _wrap(np.negative(a._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass  # backward needs nothing from the forward pass

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Reciprocal(Function):
    node_name = "ReciprocalBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.reciprocal, a._data.astype(float_type(a), copy=False)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d(1/a)/da = -1/a^2, as PyTorch computes it: out * out first, so it overflows to inf
        # where out * out does (-grad * out * out would stay finite for a small grad)
        return -grad * (out * out)


_MULTIPLIED_POWERS = (np.dtype(np.float32), np.dtype(np.float64))
_POWER_SHORTCUTS = {  # exponent -> how PyTorch's CPU kernel computes the power
    2: lambda x: x * x,
    3: lambda x: x * x * x,
    0.5: np.sqrt,
    -0.5: lambda x: 1 / np.sqrt(x),
    -1: lambda x: 1 / x,
    -2: lambda x: 1 / (x * x),
}


class PowScalar(Function):
    """``tensor ** number``."""

    node_name = "PowBackward0"
    _builtin = True
    saved_names = ("self",)
    saved_values = {"exponent": saved_attr("exponent")}

    @staticmethod
    def forward(a, exponent):
        x = a._data
        _check_exponent(a, exponent)
        if x.dtype.kind != "f":  # bool ** 2 is int64, int ** 0.5 is float32
            dt = _dtype.result_type(a, as_tensor(exponent, a))
            if dt is _dtype.bool:  # bool ** bool: PyTorch's special case (x ** True is x)
                if isinstance(exponent, (bool, np.bool_)):
                    return _wrap(x.copy() if exponent else np.ones_like(x))
                raise NotImplementedError("\"pow\" not implemented for 'Bool'")
            x = x.astype(dt.np, copy=False)
            if x.dtype.kind in "iu" and exponent < 0:
                raise RuntimeError("Integers to negative integer powers are not allowed.")
        if exponent == 1:  # a copy, as in PyTorch (the backward of x ** 2 computes x ** 1)
            return _wrap(x.copy())
        if x.dtype in _MULTIPLIED_POWERS and exponent in _POWER_SHORTCUTS:
            # PyTorch computes these powers with cheaper operations (x ** 2 is x * x,
            # x ** 0.5 is sqrt(x), ...); NumPy's float32 power gives the same numbers up to
            # rounding, up to 100x more slowly.
            return _wrap(quietly(_POWER_SHORTCUTS[exponent], x))
        return _wrap(quietly(np.power, x, x.dtype.type(exponent)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, exponent = inputs
        ctx.save_for_backward(a)
        ctx.exponent = exponent

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:  # a ** 0 is 1 everywhere (0 ** 0 too): its derivative is 0
            return _wrap(np.zeros_like(grad._data))
        # d(a^p)/da = p * a^(p-1), in PyTorch's order, times the number as its C++ does
        return grad * MulScalar.apply(a ** (p - 1), p)


def _check_exponent(a: Tensor, exponent) -> None:
    """PyTorch's checked conversion of a number exponent: into float16 for a float16 tensor,
    and an int exponent of an integer tensor into int64, then into the tensor's dtype
    (``x ** 2**31`` on int32 raises; on float32 it is inf)."""
    d = a.dtype
    if d is _dtype.float16:
        _dtype.number_as(exponent, d)
    elif d.np.kind in "iu" and isinstance(exponent, int) and not isinstance(exponent, bool):
        _dtype.number_as(exponent, _dtype.int64)
        _dtype.number_as(exponent, d)


class PowTensor(Function):
    """``tensor ** tensor``."""

    node_name = "PowBackward1"
    _builtin = True
    pack_order = (1, 0, 2)  # saved_tensors_hooks: PyTorch's pack order
    saved_names = ("self", "exponent", "result")

    @staticmethod
    def forward(a, b):
        return _binary(_safe_power, a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        ctx.save_for_backward(a, b, output)

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        ga = gb = None
        # PyTorch's formulas, in its order: the gradient is selected away where b == 0, but
        # multiplies the masked a^b * log(a), so an inf or NaN gradient at a == 0 gives NaN
        if ctx.needs_input_grad[0]:  # b * a^(b-1), taken as 0 where b == 0 (also at a == 0)
            ga = where(b == 0, 0.0, grad * (b * a ** (SubScalar.apply(b, 1)
                                                      if b.is_floating_point() else b - 1)))
        if ctx.needs_input_grad[1]:  # a^b * log(a), taken as 0 where a == 0 and b >= 0
            log_a = a.to(out.dtype).log()  # a float16 base of a float64 power: log in float64
            gb = grad * where((a == 0) & (b >= 0), 0.0, out * log_a)
        return ga, gb


class PowScalarBase(Function):
    """``number ** tensor``: the number gets no edge in the graph."""

    node_name = "PowBackward2"
    _builtin = True
    saved_names = ("exponent", "result")
    saved_values = {"self": saved_attr("base")}
    _edge_args = (1,)

    @staticmethod
    def forward(ctx, base, b):
        out = _binary(_safe_power, as_tensor(base, b), b)
        ctx.save_for_backward(b, out)
        ctx.base = base  # the Python number: its log is taken in double precision
        return out

    @staticmethod
    def backward(ctx, grad):
        b, out = ctx.saved_tensors
        c = ctx.base
        # d(c^b)/db = c^b * log(c); where c == 0 it is taken as 0 for b >= 0 (and then
        # multiplied by the gradient, as in PyTorch: an inf gradient gives NaN there)
        log_c = float(np.log(np.float64(c))) if c > 0 else (-np.inf if c == 0 else np.nan)
        if c == 0:
            return grad * where(b >= 0, 0.0, MulScalar.apply(out, log_c))
        return grad * MulScalar.apply(out, log_c)


def _safe_power(x, y):
    if x.dtype.kind in "iu" and y.dtype.kind in "iu" and np.any(y < 0):
        # integer ** negative integer: 1 ** n is 1, (-1) ** n is +-1, and PyTorch gives 0 else
        ay = np.abs(y)
        pos = quietly(np.power, x, ay)
        neg = np.where(x == 1, 1, np.where(x == -1, np.where(ay % 2, -1, 1), 0)).astype(pos.dtype)
        return np.where(y < 0, neg, pos)
    if x.dtype == np.bool_:
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    return quietly(np.power, x, y)


def _keeping_first(np_fn):
    """``np_fn`` (``np.maximum`` or ``np.minimum``) that, like PyTorch, returns its first
    operand on a tie, so ``maximum(-0.0, 0.0)`` is ``-0.0``. (NumPy's answer to a tie of
    zeros depends on the loop it takes: the first operand for float16, the second in float32's
    SIMD loop.) NaN still wins."""
    def keeping_first(x, y):
        out = np_fn(x, y)
        if isinstance(out, np.generic):  # two 0-d arrays give a NumPy scalar
            out = np.asarray(out)
        np.copyto(out, x, where=x == y)  # (a masked copy is much quicker than np.where)
        return out
    return keeping_first


_max_keeping_first, _min_keeping_first = _keeping_first(np.maximum), _keeping_first(np.minimum)


class Maximum(Function):
    node_name = "MaximumBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _binary(_max_keeping_first, a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _split_between(ctx, grad, a < b, a > b, a == b)


class Minimum(Function):
    node_name = "MinimumBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _binary(_min_keeping_first, a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return _split_between(ctx, grad, a > b, a < b, a == b)


def _split_between(ctx, grad, a_loses, b_loses, tie):
    """Gradient to the winner of max/min; ties share it half and half, as in PyTorch.

    A comparison with NaN is False, so a NaN (which wins: the result is NaN) gets the gradient.
    Recorded as PyTorch's formula, ``where(tie, grad / 2, grad).masked_fill_(loses, 0)``,
    worked out once for each input that needs it.
    """
    return tuple(MaskedFill.apply(where(tie, DivScalar.apply(grad, 2), grad), loses, 0)
                 if needed else None
                 for loses, needed in zip((a_loses, b_loses), ctx.needs_input_grad))


class Clamp(Function):
    """``clamp(x, min, max)`` with number bounds."""

    node_name = "ClampBackward1"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"min": saved_attr("lo"), "max": saved_attr("hi")}

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a)
        ctx.lo, ctx.hi = lo, hi
        dt = a.dtype  # promoted with the bounds, as ``a + bound`` would be
        for bound in (lo, hi):
            if bound is not None:
                dt = _dtype.promote_types(dt, _dtype.result_type(a, as_tensor(bound, a)))
        x = a._data.astype(dt.np, copy=False)
        out = x
        # The bounds are converted as PyTorch converts them: 2**31 is no float16, and -1 is
        # 255 as a uint8. On a tie the value itself is kept, which matters only for a zero
        # bound: clamp(-0.0, min=0) is -0.0, as in PyTorch.
        for bound, np_fn in ((lo, np.maximum), (hi, np.minimum)):
            if bound is not None:
                out = against_number(np_fn, out, _dtype.number_as(bound, dt))
        return _wrap(out if out is not x else x.copy())

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        inside = None  # the gradient passes where min <= a <= max, elsewhere it is 0
        if ctx.lo is not None:
            inside = a >= ctx.lo
        if ctx.hi is not None:
            inside = (a <= ctx.hi) if inside is None else inside & (a <= ctx.hi)
        return where(inside, grad, 0.0)


class ClampTensor(Function):
    """``clamp(x, min, max)`` with tensor bounds (a missing bound still has an edge)."""

    node_name = "ClampBackward0"
    _builtin = True
    pack_order = (2, 1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 1, 2)
    saved_names = ("self", "min", "max")  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a, lo, hi)
        # each bound promoted with ``a`` (a float bound makes an integer ``a`` float)
        lo_arr = None if lo is None else operands(a, lo)[1]
        hi_arr = None if hi is None else operands(a, hi)[1]
        kinds = [_dtype.from_numpy_dtype(x.dtype) for x in (lo_arr, hi_arr) if x is not None]
        if len(kinds) == 2:
            kinds = [_dtype.promote_types(*kinds)]
        out = a._data.astype(kinds[0].np, copy=False) if kinds else a._data
        if lo_arr is not None:
            out = _max_keeping_first(out, lo_arr.astype(out.dtype, copy=False))
        if hi_arr is not None:
            out = _min_keeping_first(out, hi_arr.astype(out.dtype, copy=False))
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        a, lo, hi = ctx.saved_tensors
        above = a >= lo if lo is not None else None
        below = a <= hi if hi is not None else None
        inside = above if below is None else (below if above is None else above & below)
        # A bound gets the gradient where it is the result; when min > max, max always is.
        g_lo = g_hi = None
        if lo is not None and lo.requires_grad:
            g_lo = where(a < lo if hi is None else (a < lo) & (lo < hi), grad, 0.0)
        if hi is not None and hi.requires_grad:
            g_hi = where(a > hi if lo is None else (a > hi) | (hi < lo), grad, 0.0)
        return where(inside, grad, 0.0), g_lo, g_hi


class ClampMin(Clamp):
    """``clamp_min(x, number)``: ``clamp(x, min=number)`` under the name PyTorch records."""

    node_name = "ClampMinBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"min": saved_attr("lo")}


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"max": saved_attr("hi")}


class ClampMinTensor(Function):
    """``clamp_min(x, tensor)``: ``ClampTensor`` with a lower bound only, so two edges."""

    node_name = "ClampMinBackward1"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 1)
    saved_names = ("self", "min")  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(ctx, a, lo):
        return ClampTensor.forward(ctx, a, lo, None)

    @staticmethod
    def backward(ctx, grad):
        return ClampTensor.backward(ctx, grad)[:2]


class ClampMaxTensor(Function):
    node_name = "ClampMaxBackward1"
    _builtin = True
    pack_order = (2, 0)  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, a, hi):
        return ClampTensor.forward(ctx, a, None, hi)

    @staticmethod
    def backward(ctx, grad):
        g_a, _, g_hi = ClampTensor.backward(ctx, grad)
        return g_a, g_hi


class MaskedFill(Function):
    """``masked_fill(mask, number)``: only the input has an edge in the graph."""

    node_name = "MaskedFillBackward0"
    _builtin = True
    _edge_args = (0,)
    saved_names = ("mask",)  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(ctx, a, mask, value):
        ctx.save_for_backward(mask)  # (as PyTorch saves it; backward reads ctx.mask)
        ctx.mask = mask
        x = a._data
        if isinstance(value, Tensor):
            value = value._data.astype(x.dtype)
        else:  # PyTorch's checked conversion: nan does not fit int64, 1e5 does not fit float16
            value = _dtype.number_as(value, a.dtype)
        return _wrap(np.where(mask._data, value, x))

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors  # (what the unpack hook gave, if a hooks block saved it)
        return grad.masked_fill(mask, 0.0)  # the filled places no longer depend on a


class MaskedFillTensor(MaskedFill):
    """``masked_fill(mask, value)`` with a 0-dim tensor value, which gets the filled gradient."""

    node_name = "MaskedFillBackward1"
    _builtin = True
    _edge_args = (0, 2)
    saved_names = ("mask",)  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def backward(ctx, grad):
        (mask,) = ctx.saved_tensors  # (what the unpack hook gave, if a hooks block saved it)
        return grad.masked_fill(mask, 0.0), where(mask, grad, 0.0).sum()


class Where(Function):
    """``where(cond, a, b)``: the condition is not differentiable and gets no edge."""

    node_name = "WhereBackward0"
    _builtin = True
    _edge_args = (1, 2)
    saved_names = ("condition",)  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(cond, a, b):
        x, y = operands(a, b)
        try:
            return _wrap(np.where(cond._data, x, y))
        except ValueError:
            raise broadcast_error(cond.shape, np.broadcast_shapes(a.shape, b.shape)) from None

    @staticmethod
    def setup_context(ctx, inputs, output):
        cond, _, _ = inputs
        ctx.save_for_backward(cond)

    @staticmethod
    def backward(ctx, grad):
        (cond,) = ctx.saved_tensors
        _, need_a, need_b = ctx.needs_input_grad  # (cond, a, b): cond needs none
        return (where(cond, grad, 0.0) if need_a else None,
                where(cond, 0.0, grad) if need_b else None)


# ---------------------------------------------------------------- functions (the public API)
def _plain_number(value, like: Tensor) -> bool:
    """Whether ``value`` is a Python number that simply takes ``like``'s floating dtype, as in
    ``x * 0.5``: the common case, which needs no wrapping into a tensor."""
    return ((type(value) is float or type(value) is int and -2**53 < value < 2**53)
            and like._data.dtype.kind == "f")


def _bool_number(value, like: Tensor) -> bool:
    """``x * True`` on a floating-point tensor: multiplied as the number, it is saved as it
    was given (``_saved_other`` is a bool tensor, as in PyTorch), not as a float."""
    return type(value) is bool and like._data.dtype.kind == "f"


def _number_first(number, other) -> Tensor:
    """``torch.add(2, x)``: PyTorch's argument parser makes the number a tensor, the first
    operand (so its node's first edge is empty, and ``alpha`` scales ``x``). ``2 + x`` does not
    come here: Python calls ``x.__radd__(2)``, which is ``add(x, 2)``."""
    if isinstance(other, Tensor):
        return as_tensor(number, other)
    _dtype.check_python_int(number)  # two numbers: a 0-d tensor of the first one's own dtype
    return _wrap(np.array(number, _dtype.scalar_dtype(number).np))


def add(input: Tensor, other, alpha=1) -> Tensor:  # noqa: A002
    """``input + alpha * other``, broadcasting shapes."""
    if not isinstance(input, Tensor):
        input = _number_first(input, other)  # noqa: A001  (torch.add(2, x))
    if alpha == 1 and isinstance(other, Tensor):  # the common case first: tensor + tensor
        return Add.apply(input, other)
    if alpha == 1 and _plain_number(other, input):
        return AddNumber.apply(input, other)
    other = as_tensor(other, input)
    if alpha != 1:
        return AddScaled.apply(input, other, alpha)
    return Add.apply(input, other)


def sub(input: Tensor, other, alpha=1) -> Tensor:  # noqa: A002
    """``input - alpha * other``."""
    if not isinstance(input, Tensor):
        input = _number_first(input, other)  # noqa: A001  (torch.sub(2, x); 2 - x is rsub)
    if (alpha == 1 and isinstance(other, Tensor) and input._data.dtype.kind != "b"
            and other._data.dtype.kind != "b"):  # the common case first: no bools involved
        return Sub.apply(input, other)
    if alpha == 1 and _plain_number(other, input):
        return SubNumber.apply(input, other)
    _check_sub(input, other)
    other = as_tensor(other, input)
    if alpha != 1:
        return SubScaled.apply(input, other, -alpha)
    return Sub.apply(input, other)


def rsub(input: Tensor, other) -> Tensor:  # noqa: A002
    """``other - input`` (what ``2 - x`` calls)."""
    _check_sub(other, input)
    return Rsub.apply(input, as_tensor(other, input))


def mul(input: Tensor, other) -> Tensor:  # noqa: A002
    """``input * other``, elementwise with broadcasting."""
    if not isinstance(input, Tensor):
        input = _number_first(input, other)  # noqa: A001  (torch.mul(2, x))
    if isinstance(other, Tensor):  # the common case first: tensor * tensor
        return Mul.apply(input, other)
    if _plain_number(other, input) or _bool_number(other, input):
        return MulNumber.apply(input, other)
    return Mul.apply(input, as_tensor(other, input))


def div(input: Tensor, other, *, rounding_mode: str | None = None) -> Tensor:  # noqa: A002
    """``input / other`` (true division: integers give floats). With ``rounding_mode="trunc"``
    the quotient is rounded toward zero (C's integer division), with ``"floor"`` down (Python's
    ``//``); both keep integer dtypes."""
    if rounding_mode is not None:
        return _rounded_div(input, other, rounding_mode)
    if not isinstance(input, Tensor):  # torch.div(2, x) (2 / x is __rtruediv__)
        if isinstance(input, int) and isinstance(other, Tensor) and other._data.dtype.kind != "f":
            input = float(input)  # noqa: A001  (-1 / a uint8 tensor is -1.0 / it, not 255 / it)
        input = _number_first(input, other)  # noqa: A001
    if _plain_number(other, input) or _bool_number(other, input):
        return DivNumber.apply(input, other)
    if isinstance(other, int) and input._data.dtype.kind != "f":
        other = float(other)  # uint8 / -1 divides by -1.0, not by -1 wrapped to 255
    return Div.apply(input, as_tensor(other, input))


def pow(input, exponent) -> Tensor:  # noqa: A001, A002
    """``input ** exponent``; either may be a number."""
    if not isinstance(input, Tensor):
        return PowScalarBase.apply(input, exponent)
    if isinstance(exponent, Tensor):
        return PowTensor.apply(input, exponent)
    return PowScalar.apply(input, exponent)


def neg(input: Tensor) -> Tensor:  # noqa: A002
    return Neg.apply(input)


def reciprocal(input: Tensor) -> Tensor:  # noqa: A002
    return Reciprocal.apply(input)


def maximum(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise maximum of two tensors (ties split the gradient)."""
    check_tensor(other, "maximum", "other", 2)
    return Maximum.apply(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise minimum of two tensors."""
    check_tensor(other, "minimum", "other", 2)
    return Minimum.apply(input, other)


def clamp(input: Tensor, min=None, max=None) -> Tensor:  # noqa: A002
    """Limit values to ``[min, max]``; the gradient is 0 where a value was clipped."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        lo = as_tensor(min, input) if min is not None else None
        hi = as_tensor(max, input) if max is not None else None
        return ClampTensor.apply(input, lo, hi)
    return Clamp.apply(input, min, max)


clip = clamp


def clamp_min(input: Tensor, min) -> Tensor:  # noqa: A002
    """``clamp(input, min=min)``, recorded as PyTorch's own op (``ClampMinBackward0``)."""
    if isinstance(min, Tensor):
        return ClampMinTensor.apply(input, as_tensor(min, input))
    return ClampMin.apply(input, min, None)


def clamp_max(input: Tensor, max) -> Tensor:  # noqa: A002
    """``clamp(input, max=max)``, recorded as PyTorch's own op (``ClampMaxBackward0``)."""
    if isinstance(max, Tensor):
        return ClampMaxTensor.apply(input, as_tensor(max, input))
    return ClampMax.apply(input, None, max)


def where(condition: Tensor, input=None, other=None):  # noqa: A002
    """Take ``input`` where ``condition`` is True, else ``other``.

    ``where(condition)`` alone is ``condition.nonzero(as_tuple=True)``: the indices of the
    non-zero elements, one tensor per dimension.
    """
    if input is None and other is None and isinstance(condition, Tensor):
        return tuple(_wrap(i.astype(np.int64)) for i in np.nonzero(condition._data))
    if not isinstance(condition, Tensor) or condition._data.dtype != np.bool_:
        raise RuntimeError(
            "where expected condition to be a boolean tensor, but got a tensor with dtype "
            f"{condition.dtype._legacy[:-6] if isinstance(condition, Tensor) else condition}"
        )
    like = input if isinstance(input, Tensor) else other if isinstance(other, Tensor) else None
    if like is None:
        from minitorch._creation import tensor

        like = tensor(input, device=condition.device)  # numbers go where the condition is
    a, b = as_tensor(input, like), as_tensor(other, like)
    dt = _dtype.result_type(a, b)
    for value in (input, other):  # a number must fit the result (PyTorch lets float16 pass)
        if not isinstance(value, Tensor) and dt is not _dtype.float16:
            _dtype.number_as(value, dt)
    return Where.apply(condition, a, b)


def check_masked_fill_args(name: str, args: tuple) -> None:
    """PyTorch's TypeError when ``masked_fill``'s mask is not a tensor or its value neither a
    tensor nor a number: the overloads it tried, with the arguments that did not fit between
    ``!``. ``args`` are the arguments as called (a method's start at ``mask``)."""
    *_, mask, value = args
    if isinstance(mask, Tensor) and isinstance(value, (Tensor, numbers.Number)):
        if isinstance(value, Tensor) and value._data.ndim:  # even of one element
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value._data.ndim} dimension(s).")
        return
    words = ["Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args]
    tried = []
    for kind in ("Tensor", "Number"):
        params = ["Tensor input", "Tensor mask", f"{kind} value"][-len(args):]
        # (PyTorch marks the value of the Number overload too, whatever it is)
        fits = [isinstance(a, Tensor) and p != "Number value" for a, p in zip(args, params)]
        marked = ", ".join(w if ok else f"!{_described(a)}!" for a, w, ok in zip(args, words, fits))
        tried.append(f" * ({', '.join(params)})\n      didn't match because some of the "
                     f"arguments have invalid types: ({marked})\n")
    raise TypeError(f"{name}() received an invalid combination of arguments - got "
                    f"({', '.join(words)}), but expected one of:\n" + "".join(tried))


def _described(arg) -> str:
    """An argument as PyTorch's argument parser describes it: ``list of [bool, int]``."""
    if isinstance(arg, (list, tuple)):
        inner = ", ".join(type(a).__name__ for a in arg)
        return f"list of [{inner}]" if isinstance(arg, list) else f"tuple of ({inner})"
    return "Tensor" if isinstance(arg, Tensor) else type(arg).__name__


def masked_fill(input: Tensor, mask: Tensor, value) -> Tensor:  # noqa: A002
    """``value`` where ``mask`` is True, ``input`` elsewhere."""
    check_masked_fill_args("masked_fill", (input, mask, value))
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.name.replace('int64', 'long')}")
    if isinstance(value, Tensor):
        return MaskedFillTensor.apply(input, mask, value)
    return MaskedFill.apply(input, mask, value)


class FloorDivide(Function):
    """``a // b``: PyTorch records it but has no derivative for it (backward raises)."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def forward(ctx, a, b):
        return _binary(_floor_divide, a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


class Remainder(Function):
    """``a % b`` with the sign of ``b``: ``a - floor(a / b) * b``, for two tensors."""

    node_name = "RemainderBackward1"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _binary(_remainder, a, b)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        # d(a % b)/da = 1, d(a % b)/db = -floor(a / b)
        gb = -grad * a.div(b, rounding_mode="floor") if ctx.needs_input_grad[1] else None
        return grad, gb


class RemainderNumber(Function):
    """``tensor % number``, PyTorch's ``remainder.Scalar``: one edge, and the gradient passes
    through unchanged."""

    node_name = "RemainderBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, a, b):
        return _binary(_remainder, a, b)

    @staticmethod
    def backward(ctx, grad):
        return grad


class NumberRemainder(Function):
    """``number % tensor``: PyTorch records it but has no derivative for it (backward raises)."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True
    _edge_args = (1,)

    @staticmethod
    def forward(ctx, a, b):
        return _binary(_remainder, a, b)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


class DivRounded(Function):
    """``div(a, b, rounding_mode=...)``: a step function of both inputs, so PyTorch's gradient
    is zero for each (unlike ``floor_divide``, whose backward raises)."""

    node_name = "DivBackward2"
    _builtin = True
    pack_order = (lambda node: _div_rounded_saved(node),)  # saved_tensors_hooks: PyTorch's

    @staticmethod
    def forward(a, b, rounding_mode, numbers=(False, False)):  # numbers: a, b were numbers
        return _binary(_floor_divide if rounding_mode == "floor" else _trunc_divide, a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.inputs = inputs  # backward needs nothing; PyTorch's node saves (and packs) them

    @staticmethod
    def backward(ctx, grad):
        zeros = _wrap(array_module(grad._data).zeros_like(grad._data))
        return zeros, zeros


def _div_rounded_saved(node) -> list:
    """What PyTorch's ``DivBackward2`` saves, in its order: ``other`` where a gradient is
    needed, ``self`` where ``other``'s is; a number is not packed (a wrapped number)."""
    a, b, _, numbers = node.inputs
    need_a, need_b = node.needs_input_grad[:2]
    return [b] * ((need_a or need_b) and not numbers[1]) + [a] * (need_b and not numbers[0])


def _rounded_div(input, other, rounding_mode: str) -> Tensor:  # noqa: A002
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")
    numbers = (not isinstance(input, Tensor), not isinstance(other, Tensor))
    if numbers[0]:
        input = as_tensor(input, other)  # noqa: A001  (number / tensor)
    return DivRounded.apply(input, as_tensor(other, input), rounding_mode, numbers)


def _trunc_divide(x, y):
    if x.dtype == np.bool_:
        raise NotImplementedError("\"div_trunc_cpu\" not implemented for 'Bool'")
    _check_int_zero(y)
    if x.dtype.kind == "f":
        return quietly(lambda u, v: array_module(u).trunc(u / v), x, y)
    q = x // y  # toward minus infinity; toward zero is one more where the signs differ
    return q + ((q * y != x) & ((x < 0) != (y < 0))).astype(q.dtype)


def _check_int_zero(y) -> None:
    if y.dtype.kind in "iub" and not np.all(y):
        raise RuntimeError("ZeroDivisionError")


def _floor_divide(x, y):
    if x.dtype == np.bool_:
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    _check_int_zero(y)
    return quietly(np.floor_divide, x, y)


def _remainder(x, y):
    if x.dtype == np.bool_:
        raise NotImplementedError("\"remainder_cpu\" not implemented for 'Bool'")
    _check_int_zero(y)
    return quietly(np.remainder, x, y)


def floor_divide(input, other) -> Tensor:  # noqa: A002
    """Elementwise floor division (integer ``// 0`` raises, as in PyTorch)."""
    if not isinstance(input, Tensor):
        input = as_tensor(input, other)  # noqa: A001  (number // tensor)
    return FloorDivide.apply(input, as_tensor(other, input))


def remainder(input, other) -> Tensor:  # noqa: A002
    """Elementwise remainder with the sign of the divisor."""
    if not isinstance(input, Tensor):  # number % tensor
        return NumberRemainder.apply(as_tensor(input, other), other)
    if not isinstance(other, Tensor):  # tensor % number
        return RemainderNumber.apply(input, as_tensor(other, input))
    return Remainder.apply(input, other)


def _compare(np_fn, a, b) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = as_tensor(a, b), b
    return _binary(np_fn, a, as_tensor(b, a))


def eq(input, other) -> Tensor:  # noqa: A002
    """Elementwise ``==`` as a bool tensor."""
    return _compare(np.equal, input, other)


def ne(input, other) -> Tensor:  # noqa: A002
    return _compare(np.not_equal, input, other)


def lt(input, other) -> Tensor:  # noqa: A002
    return _compare(np.less, input, other)


def le(input, other) -> Tensor:  # noqa: A002
    return _compare(np.less_equal, input, other)


def gt(input, other) -> Tensor:  # noqa: A002
    return _compare(np.greater, input, other)


def ge(input, other) -> Tensor:  # noqa: A002
    return _compare(np.greater_equal, input, other)


_BITWISE_NAMES = {np.bitwise_and: "bitwise_and", np.bitwise_or: "bitwise_or",
                  np.bitwise_xor: "bitwise_xor"}


def _check_broadcast(a, b) -> None:
    """PyTorch checks that the shapes broadcast before it looks at the dtypes."""
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        try:
            np.broadcast_shapes(a._data.shape, b._data.shape)
        except ValueError:
            raise broadcast_error(a.shape, b.shape) from None


def logical_op(np_fn, a, b) -> Tensor:
    """``& | ^`` on bool or integer tensors."""
    _check_broadcast(a, b)
    operands_ = (a, as_tensor(b, a)) if isinstance(b, (Tensor, numbers.Number)) else (a,)
    _check_bitwise(_BITWISE_NAMES[np_fn], *operands_)
    return _compare(np_fn, a, b)


def bitwise_not(a: Tensor) -> Tensor:
    """``~mask``: logical not for bools, bitwise not for integers."""
    if a._data.dtype.kind == "f":
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors")
    return _wrap(np.invert(a._data))


def logical_not(a: Tensor) -> Tensor:
    return _wrap(np.logical_not(a._data))


def logical_and(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise ``input and other`` of two tensors (non-zero is True)."""
    check_tensor(other, "logical_and", "other", 2)
    x, y = operands(input, other)
    try:
        return _wrap(np.logical_and(x, y))
    except ValueError:
        raise broadcast_error(input.shape, other.shape) from None


def logical_or(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise ``input or other`` of two tensors (non-zero is True)."""
    check_tensor(other, "logical_or", "other", 2)
    x, y = operands(input, other)
    try:
        return _wrap(np.logical_or(x, y))
    except ValueError:
        raise broadcast_error(input.shape, other.shape) from None


# ---------------------------------------------------------------- bitwise operations
def _check_bitwise(name: str, *tensors) -> None:
    """Bitwise kernels exist for bools and integers; PyTorch names the dtype the operation
    would compute in (``float16 & float64`` is 'Double')."""
    d = tensors[0].dtype if len(tensors) == 1 else _dtype.result_type(*tensors)
    if d.np.kind not in "biu":
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{d._legacy[:-6]}\'')


def _bitwise(np_fn, name: str, input, other) -> Tensor:  # noqa: A002
    if not isinstance(input, Tensor):
        input = as_tensor(input, other)  # noqa: A001
    other = as_tensor(other, input)
    _check_broadcast(input, other)
    _check_bitwise(name, input, other)
    return _binary(np_fn, input, other)


def bitwise_and(input, other) -> Tensor:  # noqa: A002
    """Bitwise AND of integer or bool tensors (``input & other``).

    >>> import minitorch
    >>> minitorch.bitwise_and(minitorch.tensor([5, 6]), 3)
    tensor([1, 2])
    """
    return _bitwise(np.bitwise_and, "bitwise_and", input, other)


def bitwise_or(input, other) -> Tensor:  # noqa: A002
    """Bitwise OR of integer or bool tensors (``input | other``)."""
    return _bitwise(np.bitwise_or, "bitwise_or", input, other)


def bitwise_xor(input, other) -> Tensor:  # noqa: A002
    """Bitwise XOR of integer or bool tensors (``input ^ other``).

    >>> import minitorch
    >>> minitorch.bitwise_xor(minitorch.tensor([1, 2]), minitorch.tensor([3, 3]))
    tensor([2, 1])
    """
    return _bitwise(np.bitwise_xor, "bitwise_xor", input, other)


def bitwise_not_(input: Tensor) -> Tensor:  # noqa: A002
    """``torch.bitwise_not``: ``~input`` for integer and bool tensors (PyTorch's error for
    floating ones)."""
    _check_bitwise("bitwise_not", input)
    return _wrap(np.invert(input._data))


__all__ += ["bitwise_and", "bitwise_or", "bitwise_xor"]


# ---------------------------------------------------------------- a number, as C++ adds it
class AddScalar(AddNumber):
    """``x + number`` under the node name of PyTorch's ``add.Scalar`` overload, which has one
    edge: how its C++ composites add a number (``F.pairwise_distance``'s ``eps``,
    ``special.ndtr``)."""

    node_name = "AddBackward1"
    _builtin = True
    _edge_args = (0,)


class MulScalar(MulNumber):
    """``x * number`` under the node name of PyTorch's ``mul.Scalar`` overload (one edge)."""

    node_name = "MulBackward1"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def backward(ctx, grad):  # PyTorch's derivative of mul.Scalar is mul.Scalar again
        ctx.saved_tensors  # noqa: B018  (raises once the graph has been freed)
        return (MulScalar.apply(grad, ctx.number),)


class DivScalar(DivNumber):
    """``x / number`` under the node name of PyTorch's ``div.Scalar`` overload (one edge)."""

    node_name = "DivBackward1"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def backward(ctx, grad):  # and that of div.Scalar is div.Scalar
        ctx.saved_tensors  # noqa: B018  (raises once the graph has been freed)
        return (DivScalar.apply(grad, ctx.number),)


class SubScalar(SubNumber):
    """``x - number`` under the node name of PyTorch's ``sub.Scalar`` overload (one edge),
    which its composite losses and backward formulas record."""

    node_name = "SubBackward1"
    _builtin = True
    _edge_args = (0,)


# ---------------------------------------------------------------- shifts, logical_xor, rsub
# (task: methods)
def _shift_kernel(np_fn, left: bool):
    """``x << s`` / ``x >> s`` as PyTorch computes them: a shift by a negative amount or by
    the width of the dtype or more gives 0 (``<<``) or the sign (``>>``: -1 or 0)."""
    def kernel(x, s):
        xp = array_module(x)
        x, s = xp.broadcast_arrays(x, s)
        outside = (s < 0) | (s >= x.dtype.itemsize * 8)
        shifted = np_fn(x, xp.where(outside, 0, s).astype(x.dtype))
        edge = xp.zeros_like(x) if left else xp.where(x < 0, -1, 0).astype(x.dtype)
        return xp.where(outside, edge, shifted)
    return kernel


_SHIFTS = {"bitwise_left_shift": (_shift_kernel(np.left_shift, True), "lshift"),
           "bitwise_right_shift": (_shift_kernel(np.right_shift, False), "rshift")}


def _shift(name: str, input, other) -> Tensor:  # noqa: A002
    kernel, kernel_name = _SHIFTS[name]
    if not isinstance(input, Tensor):
        input = as_tensor(input, other)  # noqa: A001
    other = as_tensor(other, input)
    _check_broadcast(input, other)
    if _dtype.result_type(input, other) is _dtype.bool:
        raise NotImplementedError(f'"{kernel_name}_cpu" not implemented for \'Bool\'')
    _check_bitwise(kernel_name, input, other)
    return _binary(kernel, input, other)


def bitwise_left_shift(input, other) -> Tensor:  # noqa: A002
    """``input << other`` of integer tensors: shifted out bits are lost, and a shift by the
    width of the dtype or more (or by a negative amount) gives 0.

    >>> import minitorch
    >>> minitorch.bitwise_left_shift(minitorch.tensor([1, -3]), 2)
    tensor([  4, -12])
    """
    return _shift("bitwise_left_shift", input, other)


def bitwise_right_shift(input, other) -> Tensor:  # noqa: A002
    """``input >> other`` of integer tensors (arithmetic: the sign is kept); a shift by the
    width of the dtype or more gives -1 for a negative number, else 0."""
    return _shift("bitwise_right_shift", input, other)


def logical_xor(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise ``bool(input) != bool(other)`` of two tensors (non-zero is True)."""
    check_tensor(other, "logical_xor", "other", 2)
    x, y = operands(input, other)
    try:
        return _wrap(np.logical_xor(x, y))
    except ValueError:
        raise broadcast_error(input.shape, other.shape) from None


class RsubTensor(Function):
    """``torch.rsub(input, other, alpha=...)`` of two tensors: ``other - alpha * input``."""

    node_name = "RsubBackward0"
    _builtin = True
    saved_values = {"alpha": saved_attr("alpha")}

    @staticmethod
    def forward(a, b, alpha):
        return _binary(lambda x, y: _add_scaled(y, x, -alpha), a, b)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.alpha = inputs[2]

    @staticmethod
    def backward(ctx, grad):
        return (grad * -ctx.alpha if ctx.needs_input_grad[0] else None), grad


class RsubScaled(RsubTensor):
    """``torch.rsub(input, number, alpha=...)``: the number gets no edge in the graph."""

    node_name = "RsubBackward1"
    _builtin = True
    saved_values = RsubTensor.saved_values
    _edge_args = (0,)

    @staticmethod
    def backward(ctx, grad):
        return grad * -ctx.alpha


def rsub_function(input, other, alpha=1) -> Tensor:  # noqa: A002
    """``torch.rsub(input, other, alpha=1)``: ``other - alpha * input``."""
    if not isinstance(input, Tensor):
        got = ", ".join(type(a).__name__ for a in (input, other))
        raise TypeError(f"rsub() received an invalid combination of arguments - got ({got}), "
                        "but expected one of:\n * (Tensor input, Tensor other, *, Number alpha "
                        "= 1)\n * (Tensor input, Number other, Number alpha = 1)\n")
    _check_sub(other, input)
    if isinstance(other, Tensor):
        _check_broadcast(other, input)
        return RsubTensor.apply(input, other, alpha)
    if alpha == 1:
        return rsub(input, other)
    return RsubScaled.apply(input, as_tensor(other, input), alpha)


__all__ += ["bitwise_left_shift", "bitwise_right_shift", "logical_xor"]


# saved-hooks task: PyTorch packs ``other`` before ``self`` (saved_tensors_hooks); set here, out
# of the class, whose source chapter 2 prints
Mul.pack_order = (1, 0)

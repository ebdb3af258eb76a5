"""Running totals and the log of a sum of exponentials: ``cumsum``, ``cumprod``, ``logsumexp``.

``cumsum``'s output ``y_k = x_0 + ... + x_k`` uses every ``x_i`` with ``i <= k``, so the gradient
of ``x_i`` adds up the gradients of all the outputs from ``k = i`` on: a running total taken
from the other end. ``logsumexp`` is ``log(sum(exp(x)))`` computed without overflow (the
largest value is taken out first); its gradient is ``softmax(x)``.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> x.cumsum(0)
    tensor([1., 3., 6.], grad_fn=<CumsumBackward0>)
    >>> x.cumsum(0).sum().backward()
    >>> x.grad
    tensor([3., 2., 1.])
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype, return_types
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops import reduction as _reduction
from minitorch.ops._util import normalize_dim, normalize_dims, quietly, saved_dim
from minitorch.ops.arithmetic import DivScalar, MulScalar, where
from minitorch.ops.arithmetic import div as _arith_div
from minitorch.ops.arithmetic import mul as _arith_mul
from minitorch.ops.reduction import _unsqueezed
from minitorch.ops.shape import Flip, Slice, cat

__all__ = ["cumsum", "cumprod", "logsumexp"]


def _acc_dtype(x: np.ndarray):
    """What PyTorch's CPU scans accumulate in: double for float32 and float64, float32 for
    float16, int64 for integers and bools."""
    if x.dtype.kind == "f":
        return np.float32 if x.dtype == np.float16 else np.float64
    return np.int64


def _scan(np_fn, x: np.ndarray, dim: int, out_dtype, reverse: bool = False) -> np.ndarray:
    """``np_fn`` (cumsum or cumprod) along ``dim``, accumulated as PyTorch does, from the end
    when ``reverse``."""
    if x.ndim == 0:
        return x.astype(out_dtype)
    xp = array_module(x)
    if reverse:
        x = xp.flip(x, dim)
    acc = _acc_dtype(x) if x.dtype.kind == "f" else out_dtype  # (inf * 0 is NaN, silently)
    out = quietly(lambda v: np_fn(v, axis=dim, dtype=acc), x)
    if reverse:
        out = xp.flip(out, dim)
    return xp.ascontiguousarray(out.astype(out_dtype, copy=False))


class Cumsum(Function):
    """Running sums along ``dim`` (from the end when ``reverse``), in ``dtype`` (the input is
    converted first). The gradient is the running sum of the output's gradient the other way
    round, in the input's dtype."""

    node_name = "CumsumBackward0"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dim")}  # as called, as in PyTorch

    @staticmethod
    def forward(ctx, a, dim, dtype, reverse=False, given=None):  # given: the dim as called
        ctx.dim, ctx.reverse, ctx.in_dtype = dim, reverse, a.dtype
        if given is not None:
            ctx.given = given
        return _wrap(_scan(np.cumsum, a._data.astype(dtype, copy=False), dim, dtype, reverse))

    @staticmethod
    def backward(ctx, grad):
        g = grad if grad.dtype is ctx.in_dtype else grad.to(ctx.in_dtype)
        if grad_mode._state.enabled and not ctx.reverse:  # create_graph: PyTorch's formula
            if g._data.size <= 1 or g._data.shape[ctx.dim] == 1:
                return g
            return g.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim)  # reversed_cumsum
        return Cumsum.apply(g, ctx.dim, g._data.dtype, not ctx.reverse)


class Cumprod(Function):
    """Running products along ``dim``, in ``dtype``.

    ``y_k = x_0 x_1 ... x_k``, so ``dL/dx_i = sum_{k >= i} g_k y_k / x_i``: a reversed running
    sum of ``g * y``, divided by ``x``. Where ``x`` has zeros that division is 0 / 0: then
    PyTorch's formulas for the products of the *other* factors are used instead
    (``_cumprod_grad_with_zeros``).
    """

    node_name = "CumprodBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, dtype):
        out = _wrap(_scan(np.cumprod, a._data.astype(dtype, copy=False), dim, dtype))
        ctx.save_for_backward(a, out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if grad.dtype is not a.dtype:
            grad = grad.to(a.dtype)
        x = a._data
        if x.size <= 1 or x.shape[ctx.dim] == 1:
            return grad
        zeros = bool((x == 0).any())
        if grad_mode._state.enabled:  # create_graph: PyTorch's formulas, recorded
            if not zeros:  # reversed_cumsum (the result in its own dtype, as PyTorch's)
                return (out * grad).flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim) / a
            return _cumprod_grad_differentiable(a, grad, ctx.dim)
        if out.dtype is not a.dtype:
            out = out.to(a.dtype)
        if not zeros:
            return Cumsum.apply(out * grad, ctx.dim, x.dtype, True) / a
        return _wrap(_cumprod_grad_with_zeros(x, grad._data, out._data, ctx.dim))


def _reversed_cumsum(x, axis: int):
    xp = array_module(x)
    return xp.flip(xp.cumsum(xp.flip(x, axis), axis=axis), axis)


def _cumprod_grad_with_zeros(x, g, y, dim: int):
    """PyTorch's O(n) gradient of ``cumprod`` for an input with zeros (arrays, no graph).

    Before the first zero ``z1`` the usual formula holds. At ``z1`` the gradient is the
    product of the elements before it times ``sum_{k=z1}^{z2-1} g_k prod_{j=z1+1}^{k} x_j``
    (up to the second zero ``z2``). After ``z1`` every output has the zero in its product,
    so every other element's gradient is 0.
    """
    xp = array_module(x)
    is_zero = x == 0
    zeros_before = xp.cumsum(is_zero, axis=dim)
    out = xp.zeros_like(g)
    before_first = zeros_before == 0
    w = xp.where(before_first, y * g, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        part = _reversed_cumsum(w, dim) / x
    out = xp.where(before_first, part, out)
    first_zone = zeros_before == 1
    first_zero_at = xp.expand_dims(xp.argmax(first_zone, axis=dim), dim)
    first_zero = xp.zeros_like(first_zone)
    xp.put_along_axis(first_zero, first_zero_at, True, axis=dim)
    first_zero &= first_zone
    after_first = first_zone & ~first_zero
    with np.errstate(invalid="ignore", over="ignore"):
        factors = xp.cumprod(xp.where(after_first, x, x.dtype.type(1)), axis=dim)
        total = xp.sum(factors * xp.where(first_zone, g, 0), axis=dim, keepdims=True)
        prev = xp.take_along_axis(y, xp.maximum(first_zero_at - 1, 0), axis=dim)
        total = total * xp.where(first_zero_at == 0, y.dtype.type(1), prev)
    return xp.where(first_zero, total, out).astype(g.dtype, copy=False)


def _narrow(t: Tensor, dim: int, start: int, stop: int) -> Tensor:
    """PyTorch's ``slice`` (``start`` and ``stop`` clamped to the dimension): always a
    ``SliceBackward0``, even when it takes everything."""
    n = t._data.shape[dim]
    start, stop = min(max(start, 0), n), min(max(stop, 0), n)
    return Slice.apply(t, dim, start, max(stop, start), 1)


def _cumprod_grad_differentiable(a: Tensor, grad: Tensor, dim: int) -> Tensor:
    """PyTorch's O(n^2) gradient of ``cumprod`` for an input with zeros, written with tensor
    operations so that it can be differentiated again: for each k, the output gradients
    ``g_k, g_{k+1}, ...`` times the products of every factor but ``x_k``, each copied into
    its place of a zero gradient (``CopySlices``, as PyTorch records it)."""
    from minitorch.ops.reduction import prod

    n = a._data.shape[dim]
    ones_shape = list(a._data.shape)
    ones_shape[dim] = 1
    ones = _wrap(array_module(a._data).ones(ones_shape, dtype=a._data.dtype))
    out = _wrap(array_module(grad._data).zeros(a._data.shape, dtype=grad._data.dtype))
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(_narrow(a, dim, 1, n), dim)], dim)
        else:
            until_k = prod(_narrow(a, dim, 0, k), dim, True)
            if k == n - 1:
                omitted = until_k
            else:
                after = cumprod(_narrow(a, dim, k + 1, n), dim)
                omitted = cat([until_k, until_k.expand_as(after) * after], dim)
        out.select(dim, k).copy_((_narrow(grad, dim, k, n) * omitted).sum(dim))
    return out


def _scan_dtype(input: Tensor, dtype, name: str) -> np.dtype:  # noqa: A002
    dtype = _dtype.as_dtype(dtype, name)
    if dtype is not None:
        return dtype.np
    return np.int64 if input._data.dtype.kind in "biu" else input._data.dtype


def cumsum(input: Tensor, dim: int, *, dtype=None) -> Tensor:  # noqa: A002
    """Running sums along ``dim``: ``out[k] = input[0] + ... + input[k]``. Integers and bools
    give int64 (as ``sum`` does); ``dtype`` converts first.

    >>> import minitorch
    >>> minitorch.cumsum(minitorch.tensor([1, 2, 3]), dim=0)
    tensor([1, 3, 6])
    """
    d = normalize_dim(dim, input._data.ndim)
    return Cumsum.apply(input, d, _scan_dtype(input, dtype, "cumsum"), False, dim)


def cumprod(input: Tensor, dim: int, *, dtype=None) -> Tensor:  # noqa: A002
    """Running products along ``dim``: ``out[k] = input[0] * ... * input[k]``.

    >>> import minitorch
    >>> minitorch.cumprod(minitorch.tensor([1.0, 2.0, 3.0]), dim=0)
    tensor([1., 2., 6.])
    """
    d = normalize_dim(dim, input._data.ndim)
    return Cumprod.apply(input, d, _scan_dtype(input, dtype, "cumprod"))


class Logsumexp(Function):
    """``log(sum(exp(x)))`` over ``dims``. The largest value ``m`` is taken out first,
    ``m + log(sum(exp(x - m)))``, so that ``exp`` cannot overflow (an infinite ``m`` is left
    in, as in PyTorch). Gradient: ``exp(x - out)``, the softmax of ``x``."""

    node_name = "LogsumexpBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        x = a._data
        xp = array_module(x)
        if x.size:
            m = xp.amax(x, axis=dims, keepdims=True)
        else:
            m = xp.zeros([1 if i in dims else s for i, s in enumerate(x.shape)], x.dtype)
        m = xp.where(xp.isinf(m), x.dtype.type(0), m)
        total = quietly(np.log, xp.sum(quietly(np.exp, x - m), axis=dims, keepdims=True))
        out = total + m
        if not keepdim:
            out = out.reshape([s for i, s in enumerate(out.shape) if i not in dims])
        out = _wrap(xp.asarray(out, dtype=x.dtype))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if not ctx.keepdim and a.ndim:  # (PyTorch's: the reduced dims unsqueezed, one by one)
            grad, out = _unsqueezed(grad, ctx.dims, False), _unsqueezed(out, ctx.dims, False)
        return grad * (a - out).exp()


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:  # noqa: A002
    """``log(sum(exp(input)))`` over ``dim`` (an int or a tuple), without overflow: the
    usual way to add probabilities kept as logarithms. Integers and bools are converted to
    the default float dtype first.

    >>> import minitorch
    >>> minitorch.tensor([1000.0, 1000.0]).logsumexp(0)
    tensor(1000.6932)
    """
    if input._data.dtype.kind != "f":
        input = input.to(_dtype.get_default_dtype())  # noqa: A001
    if isinstance(dim, (tuple, list)) and not dim and not keepdim and input._data.size \
            and input._data.ndim:  # PyTorch's kernel fails so: () means all dims, kept
        ones = ", ".join(["1"] * input._data.ndim)
        raise RuntimeError(f"output with shape [] doesn't match the broadcast shape [{ones}]")
    dims = normalize_dims(dim, input._data.ndim)
    return Logsumexp.apply(input, dims, keepdim)


# ---------------------------------------------------------------- cummax, cummin
def _running_pick(x: np.ndarray, dim: int, larger: bool) -> np.ndarray:
    """The index of the running maximum (``larger``) or minimum along ``dim``, as PyTorch's
    loop finds it: an element that ties the running value takes over (the later index wins),
    and so does a NaN, after which only another NaN does."""
    xp = array_module(x)
    run = _running(xp, xp.maximum if larger else xp.minimum, x, dim)  # NaN sticks
    before = xp.concatenate([xp.take(run, xp.zeros(1, dtype=np.intp), axis=dim), xp.take(
        run, xp.arange(x.shape[dim] - 1), axis=dim)], axis=dim)
    takes_over = (x >= before) if larger else (x <= before)
    if x.dtype.kind == "f":
        takes_over = takes_over | xp.isnan(x)
    shape = [1] * x.ndim
    shape[dim] = x.shape[dim]
    positions = xp.arange(x.shape[dim]).reshape(shape)
    return _running(xp, xp.maximum, xp.where(takes_over, positions, 0), dim).astype(np.int64)


def _running(xp, pick, x, dim: int):
    """``pick.accumulate(x, axis=dim)`` for ``pick`` maximum or minimum. CuPy has no such
    accumulate, so on a device it is a scan in log2(n) steps: after the step with shift ``s``
    each element holds the extreme of the ``2s`` elements that end at it."""
    if xp is np:
        return pick.accumulate(x, axis=dim)
    out, shift, n = x, 1, x.shape[dim]
    while shift < n:
        later = [slice(None)] * x.ndim
        earlier = list(later)
        later[dim], earlier[dim] = slice(shift, None), slice(None, n - shift)
        step = out.copy()
        step[tuple(later)] = pick(out[tuple(later)], out[tuple(earlier)])
        out, shift = step, 2 * shift
    return out


class Cummax(Function):
    """``cummax(dim)``: the running maximum and where it was; the gradient of each output goes
    to that index (added up, since many outputs can point at one element)."""

    node_name = "CummaxBackward0"
    _builtin = True
    pack_order = (0, "indices")  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(ctx, a, dim, larger=True):
        data = a._data
        ctx.dim, ctx.shape = dim, data.shape
        ctx.save_for_backward(a)  # as PyTorch (for its pack hooks; backward reads no values)
        if data.ndim == 0 or data.size == 0:
            idx = array_module(data).zeros(data.shape, np.int64)
        else:
            src = data.astype(np.float32) if data.dtype == np.float16 else data
            idx = _running_pick(src, dim, larger)
        values = array_module(data).take_along_axis(data, idx, dim) if data.ndim else data.copy()
        indices = _wrap(idx)
        ctx.indices = indices
        ctx.mark_non_differentiable(indices)
        return _wrap(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        if not ctx.shape:
            return grad
        zeros = _wrap(array_module(grad._data).zeros(ctx.shape, dtype=grad._data.dtype))
        return zeros.scatter_add(ctx.dim, ctx.indices, grad)


class Cummin(Cummax):
    node_name = "CumminBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, larger=False):
        return Cummax.forward(ctx, a, dim, False)


def cummax(input: Tensor, dim: int):  # noqa: A002
    """The running maximum along ``dim`` and the index of each:
    ``torch.return_types.cummax(values, indices)``. On a tie the later index is given; a NaN
    is larger than everything.

    >>> import minitorch
    >>> minitorch.tensor([1.0, 3.0, 2.0, 3.0]).cummax(0)
    torch.return_types.cummax(
    values=tensor([1., 3., 3., 3.]),
    indices=tensor([0, 1, 1, 3]))
    """
    d = normalize_dim(dim, input._data.ndim)
    return return_types.cummax(*Cummax.apply(input, d))


def cummin(input: Tensor, dim: int):  # noqa: A002
    """The running minimum along ``dim`` and the index of each (the later index on a tie):
    ``torch.return_types.cummin(values, indices)``."""
    d = normalize_dim(dim, input._data.ndim)
    return return_types.cummin(*Cummin.apply(input, d))


__all__ += ["cummax", "cummin"]


# ---------------------------------------------------------------- logcumsumexp
def _log_add_exp(x, y):
    """PyTorch's ``_log_add_exp_helper``: ``log(exp(x) + exp(y))`` as
    ``max + log1p(exp(min - max))``; two equal infinities give ``x`` (``inf - inf`` is
    avoided), a NaN stays NaN."""
    xp = array_module(x)
    low, high = xp.minimum(x, y), xp.maximum(x, y)  # (NaN if either is NaN)
    with np.errstate(invalid="ignore", over="ignore"):
        added = xp.log1p(xp.exp(low - high)) + high
    return xp.where((low == high) & ~xp.isfinite(low), x, added)


class Logcumsumexp(Function):
    """``logcumsumexp``: running ``log(exp(x_0) + ... + exp(x_k))`` along ``dim``, one
    ``_log_add_exp`` at a time in float64 (float32 for float16), as PyTorch's CPU kernel. Its
    backward is PyTorch's formula, made of ``logcumsumexp`` of the gradient's positive and
    negative parts from the other end, so it is differentiable again."""

    node_name = "LogcumsumexpBackward0"
    _builtin = True

    @staticmethod
    def forward(a, dim):
        x, xp = a._data, array_module(a._data)
        wide = xp.moveaxis(x.reshape(x.shape or (1,)), dim, 0)  # (a 0-d x as one element)
        moved = wide.astype(np.float32 if x.dtype == np.float16 else np.float64)
        out = xp.empty(moved.shape, x.dtype)
        running = xp.full(moved.shape[1:], -np.inf, moved.dtype)
        for k in range(moved.shape[0]):
            running = _log_add_exp(moved[k], running)
            out[k] = running
        return _wrap(xp.ascontiguousarray(xp.moveaxis(out, 0, dim)).reshape(x.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, ctx.dim = inputs
        ctx.save_for_backward(a, output)

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if grad._data.ndim == 0 or grad._data.size == 0:
            return grad
        d = ctx.dim
        lowest = float(np.finfo(grad._data.dtype).min)

        def from_the_end(t):
            return Flip.apply(Logcumsumexp.apply(Flip.apply(t, (d,)), d), (d,))

        log_abs = grad.abs().log()
        positive = from_the_end(where(grad > 0, log_abs, lowest) - out) + a
        negative = from_the_end(where(grad < 0, log_abs, lowest) - out) + a
        return positive.exp() - negative.exp()


def logcumsumexp(input: Tensor, dim: int = None) -> Tensor:  # noqa: A002
    """``log(cumsum(exp(input)))`` along ``dim``, without overflow.

    >>> import minitorch
    >>> minitorch.logcumsumexp(minitorch.tensor([0.0, 0.0, 3.0]), 0)
    tensor([0.0000, 0.6931, 3.0949])
    """
    if dim is None:
        raise TypeError('logcumsumexp() missing 1 required positional arguments: "dim"')
    if input._data.dtype.kind != "f":
        raise NotImplementedError('"logcumsumexp_out_cpu" not implemented for '
                                  f"'{input.dtype._legacy.removesuffix('Tensor')}'")
    return Logcumsumexp.apply(input, normalize_dim(dim, input._data.ndim))


# ---------------------------------------------------------------- trapezoid, cumulative_trapezoid
def _dx_or_x(y: Tensor, x, dx, dim: int, name: str):
    """The sample spacing: ``x``'s differences along ``dim`` (a 1-d ``x`` is laid along it),
    or the number ``dx``; with PyTorch's checks (``name``: the function's, trapz's errors are
    worded apart)."""
    label = "trapezoid" if name == "trapz" else name  # (trapz runs trapezoid's checks)
    if isinstance(x, Tensor) and _dtype.bool in (x.dtype, y.dtype):
        raise RuntimeError(f"{label}: received a bool input for `x` or `y`, but bool is not "
                           "supported")
    if y.dtype is _dtype.bool:
        raise RuntimeError(f"{label}: received a bool input for `y`, but bool is not supported")
    if isinstance(x, Tensor):
        if x._data.ndim == 1:
            if x._data.shape[0] != y._data.shape[dim]:
                raise RuntimeError(f"{label}: There must be one `x` value for each sample point")
            x = x.view(tuple(x._data.shape[0] if i == dim else 1 for i in range(y._data.ndim)))
        elif x._data.ndim < y._data.ndim:
            x = x.view((1,) * (y._data.ndim - x._data.ndim) + x._data.shape)
        n = x._data.shape[dim]
        left = _narrow(x, dim, 0, n - 1)  # (made first, as PyTorch's: its gradient comes last)
        return _narrow(x, dim, 1, n) - left
    if x is not None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"{type(x).__name__}), but expected one of:\n * (Tensor y, Tensor x, *, "
                        "int dim = -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)\n")
    if isinstance(dx, Tensor):  # PyTorch's argument parser takes a 0-d one as a number
        if dx._data.ndim or dx.requires_grad:
            overloads = ("(Tensor y, *, float dx = 1, int dim = -1)\n * (Tensor y, Tensor x, *, "
                         "int dim = -1)" if name == "trapz" else "(Tensor y, Tensor x, *, int "
                         "dim = -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)")
            raise TypeError(f"{name}() received an invalid combination of arguments - got "
                            f"(Tensor, dx=Tensor), but expected one of:\n * {overloads}\n")
        dx = dx.item()
    if name == "trapz":  # (its dx is a float argument: True is a number)
        return float(dx)
    if isinstance(dx, bool) or not isinstance(dx, numbers.Real):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")
    return float(dx)


def _sample_dim(y: Tensor, dim: int) -> int:
    if y._data.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return normalize_dim(dim, y._data.ndim)


def trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1, _name: str = "trapezoid") -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule, at the points ``x`` (a
    tensor) or ``dx`` apart (1 by default); 0 for no samples.

    >>> import minitorch
    >>> minitorch.trapezoid(minitorch.tensor([1.0, 2.0, 4.0]))
    tensor(4.5000)
    """
    d = _sample_dim(y, dim)
    if y._data.shape[d] == 0:  # (in y's dtype, as PyTorch)
        return _wrap(array_module(y._data).zeros(y._data.shape[:d] + y._data.shape[d + 1:],
                                                 y._data.dtype))
    step = _dx_or_x(y, x, 1 if dx is None else dx, d, _name)
    n = y._data.shape[d]
    if isinstance(step, Tensor):  # as PyTorch: ((left + right) * dx).sum(dim) / 2
        return _by_number(((_narrow(y, d, 0, n - 1) + _narrow(y, d, 1, n)) * step).sum(d),
                          DivScalar, 2.0)
    ends = y.select(d, 0) + y.select(d, -1)
    return _by_number(y.sum(d) - _by_number(ends, MulScalar, 0.5), MulScalar, step)


def trapz(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """NumPy's older name for ``trapezoid``."""
    return trapezoid(y, x, dx=dx, dim=dim, _name="trapz")


def cumulative_trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The running integrals of ``trapezoid``: one less value along ``dim`` than ``y``.

    >>> import minitorch
    >>> minitorch.cumulative_trapezoid(minitorch.tensor([1.0, 2.0, 4.0]))
    tensor([1.5000, 4.5000])
    """
    if y._data.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = normalize_dim(dim, y._data.ndim)
    step = _dx_or_x(y, x, 1 if dx is None else dx, d, "cumulative_trapezoid")
    n = y._data.shape[d]
    pairs = _narrow(y, d, 0, max(n - 1, 0)) + _narrow(y, d, min(1, n), n)
    if isinstance(step, Tensor):  # as PyTorch: ((left + right) * dx).cumsum(dim) / 2
        return _by_number(cumsum(pairs * step, d), DivScalar, 2.0)
    return cumsum(_by_number(pairs, MulScalar, step / 2.0), d)


def _by_number(t: Tensor, op, number: float) -> Tensor:
    """``t * number`` or ``t / number`` as PyTorch's C++ writes them (``MulBackward1``,
    ``DivBackward1``: the number has no edge); an integer ``t`` as Python's operators."""
    if t._data.dtype.kind == "f":
        return op.apply(t, number)
    return t * number if op is MulScalar else t / number


__all__ += ["logcumsumexp", "trapezoid", "trapz", "cumulative_trapezoid"]


# ---------------------------------------------------------------- gradient (task linalg2)
def _gradient_checks(input: Tensor, n_spacing, dims, edge_order: int) -> None:  # noqa: A002
    """PyTorch's ``pre_check_gradient``."""
    if input.dtype is _dtype.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if n_spacing is not None and dims is None and n_spacing != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a "
                           f"list of length equal to 'self.dim() = {input.dim()}', since dim "
                           f"argument was not given, but got a list of length {n_spacing}")
    if n_spacing is not None and dims is not None and n_spacing != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's "
                           "spacing and dim arguments to have the same length, but got a "
                           f"spacing argument of length {n_spacing} and a dim argument of "
                           f"length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in (range(input.dim()) if dims is None else normalize_dims(dims, input.dim())):
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least "
                               "edge_order+1")


def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:  # noqa: A002
    """The derivative of ``input`` estimated along each of ``dim`` (all by default) by
    central differences inside and one-sided ones (first or second order, ``edge_order``)
    at the ends, as ``torch.gradient``: one tensor per dimension. ``spacing`` is the
    distance between samples (one number, or one per dimension) or their coordinates (one
    1-D tensor per dimension). Built from slices, so it is differentiable.

    >>> import minitorch
    >>> minitorch.gradient(minitorch.tensor([1.0, 2.0, 4.0, 7.0]))
    (tensor([1.0000, 1.5000, 2.5000, 3.0000]),)
    """
    dims = (dim,) if isinstance(dim, int) else (None if dim is None else tuple(dim))
    if isinstance(spacing, (list, tuple)):
        n_spacing = len(spacing)
    else:
        n_spacing, spacing = None, [spacing] * (input.dim() if dims is None else len(dims))
    _gradient_checks(input, n_spacing, dims, edge_order)
    dims = tuple(range(input.dim())) if dims is None else dims
    out = []
    for d, h in zip(dims, spacing):
        d = normalize_dim(d, input.dim())
        out.append(_coordinate_gradient(input, d, h, edge_order) if isinstance(h, Tensor)
                   else _uniform_gradient(input, d, h, edge_order))
    return tuple(out)


def _part(x: Tensor, d: int, start: int, stop: int | None = None) -> Tensor:
    """``x[start:stop]`` along ``d`` (negative positions count from the end)."""
    n = x.shape[d]
    start = start + n if start < 0 else start
    stop = n if stop is None else (stop + n if stop < 0 else stop)
    return x.narrow(d, start, stop - start)


def _uniform_gradient(x: Tensor, d: int, h, edge_order: int) -> Tensor:
    """PyTorch's ``gradient_helper_float``: samples ``h`` apart. Its C++ multiplies and
    divides by numbers with the number overloads (``MulBackward1``, ``DivBackward1``)."""
    div, mul = DivScalar.apply, MulScalar.apply
    if not x.is_floating_point():  # integers become floats: the ordinary operators
        div, mul = _arith_div, _arith_mul
    center = div(_part(x, d, 2) - _part(x, d, 0, -2), h)
    if edge_order == 1:
        first = div(_part(x, d, 1, 2) - _part(x, d, 0, 1), h)
        last = div(_part(x, d, -1) - _part(x, d, -2, -1), h)
    else:
        first = div(mul(_part(x, d, 0, 1), -1.5) + mul(_part(x, d, 1, 2), 2)
                    - mul(_part(x, d, 2, 3), 0.5), h)
        last = div(mul(_part(x, d, -3, -2), 0.5) - mul(_part(x, d, -2, -1), 2)
                   + mul(_part(x, d, -1), 1.5), h)
    return cat([first, div(center, 2), last], d)


def _coordinate_gradient(x: Tensor, d: int, coords: Tensor, edge_order: int) -> Tensor:
    """PyTorch's ``gradient_helper``: samples at the 1-D ``coords``."""
    if coords.dim() != 1:
        raise RuntimeError("torch.gradient expected each element of spacing to have one "
                           f"dimension, but got an element with {coords.dim()} dimensions!")
    shape = [1] * x.dim()
    shape[d] = -1
    # Each right operand is computed first, as PyTorch's C++ evaluates them: that is the
    # order of the nodes, which orders the sums of their gradients (create_graph's graph).
    n = coords.shape[0]
    lo = coords.narrow(0, 0, n - 1)
    dx = coords.narrow(0, 1, n - 1) - lo  # (diff)
    dx1, dx2 = dx[:-1], dx[1:]
    den = dx1 * (dx1 + dx2)
    a = (-dx2 / den).reshape(shape)
    den = dx1 * dx2
    b = ((dx2 - dx1) / den).reshape(shape)
    den = dx2 * (dx1 + dx2)
    c = (dx1 / den).reshape(shape)
    right = c * _part(x, d, 2)
    middle = b * _part(x, d, 1, -1)
    center = a * _part(x, d, 0, -2) + middle + right
    if edge_order == 1:
        step = dx[0]
        lo = _part(x, d, 0, 1)
        first = (_part(x, d, 1, 2) - lo) / step
        step = dx[-1]
        lo = _part(x, d, -2, -1)
        last = (_part(x, d, -1) - lo) / step
    else:
        a = -(2.0 * dx[0] + dx[1]) / (dx[0] * (dx[0] + dx[1]))
        b = (dx[0] + dx[1]) / (dx[0] * dx[1])
        c = -dx[0] / (dx[1] * (dx[0] + dx[1]))
        first = a * _part(x, d, 0, 1) + b * _part(x, d, 1, 2) + c * _part(x, d, 2, 3)
        a = dx[-1] / (dx[-2] * (dx[-1] + dx[-2]))
        b = -(dx[-1] + dx[-2]) / (dx[-1] * dx[-2])
        c = (2 * dx[-1] + dx[-2]) / (dx[-1] * (dx[-1] + dx[-2]))
        last = a * _part(x, d, -3, -2) + b * _part(x, d, -2, -1) + c * _part(x, d, -1)
    return cat([first, center, last], d)


__all__ += ["gradient"]


_reduction._cumprod = cumprod  # prod's backward (ops/reduction.py) runs on cumprod

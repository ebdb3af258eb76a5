"""Reductions: ``sum``, ``mean``, ``max``/``min``, ``var``, ``std`` and friends.

A reduction's backward *spreads* the incoming gradient back over the reduced dimensions:
``sum`` copies it to every element, ``mean`` also divides by the count, and ``max`` sends it to
the element that won.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> x.mean().backward()
    >>> x.grad
    tensor([[0.2500, 0.2500],
            [0.2500, 0.2500]])
"""

from __future__ import annotations

import builtins
import warnings

import numpy as np

from minitorch import return_types
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import normalize_dim, normalize_dims

__all__ = ["sum", "mean", "max", "min", "amax", "amin", "argmax", "argmin", "var", "std",
           "all", "any", "norm", "sum_to_size"]


def _spread(grad: Tensor, shape: tuple, dims: tuple, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back to ``shape`` (the input's shape)."""
    if not keepdim and dims:
        kept = tuple(1 if i in dims else s for i, s in enumerate(shape))
        grad = grad.reshape(kept)
    return grad.expand(shape)


def _sum_dtype(a: Tensor, dtype) -> np.dtype | None:
    if dtype is not None:
        return dtype.np
    return np.int64 if a._data.dtype.kind in "biu" else None


class Sum(Function):
    node_name = "SumBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.shape = a._data.shape
        return _wrap(np.sum(a._data, dtype=_sum_dtype(a, dtype)))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape)  # every element contributed with weight 1


class SumDim(Function):
    node_name = "SumBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, dtype=None):
        ctx.shape, ctx.dims, ctx.keepdim = a._data.shape, dims, keepdim
        return _wrap(np.sum(a._data, axis=dims, keepdims=keepdim, dtype=_sum_dtype(a, dtype)))

    @staticmethod
    def backward(ctx, grad):
        return _spread(grad, ctx.shape, ctx.dims, ctx.keepdim)


def _check_mean_dtype(a: Tensor, name: str) -> None:
    if a._data.dtype.kind != "f":
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a.dtype._legacy[:-6]}"
        )


class Mean(Function):
    node_name = "MeanBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a._data.shape
        return _wrap(np.mean(a._data, dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        n = builtins.max(int(np.prod(ctx.shape)), 1)
        return grad.expand(ctx.shape) / n


class MeanDim(Function):
    node_name = "MeanBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        ctx.shape, ctx.dims, ctx.keepdim = a._data.shape, dims, keepdim
        return _wrap(np.mean(a._data, axis=dims, keepdims=keepdim, dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod([ctx.shape[d] for d in ctx.dims]))
        return _spread(grad, ctx.shape, ctx.dims, ctx.keepdim) / builtins.max(n, 1)


class MaxAll(Function):
    """``max()`` of all elements; ties share the gradient evenly (PyTorch's rule)."""

    node_name = "MaxBackward1"
    _builtin = True
    _np = staticmethod(np.max)

    @staticmethod
    def forward(ctx, a):
        _check_nonempty(a, "max")
        out = _wrap(np.max(a._data))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        winners = a == out
        return grad * winners / winners.sum()


class MinAll(MaxAll):
    node_name = "MinBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        _check_nonempty(a, "min")
        out = _wrap(np.min(a._data))
        ctx.save_for_backward(a, out)
        return out


def _check_nonempty(a: Tensor, name: str) -> None:
    if a._data.size == 0:
        raise RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
            "the reduction dim with the 'dim' argument."
        )


class MaxDim(Function):
    """``max(dim)``: values and the indices where they were; the gradient goes to those."""

    node_name = "MaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, keepdim, find=np.argmax):
        idx = find(a._data, axis=dim, keepdims=True)
        values = np.take_along_axis(a._data, idx, axis=dim)
        ctx.shape, ctx.dim, ctx.keepdim = a._data.shape, dim, keepdim
        ctx.index = idx
        if not keepdim:
            values, idx = values.squeeze(dim), idx.squeeze(dim)
        indices = _wrap(idx.astype(np.int64))
        ctx.mark_non_differentiable(indices)
        return _wrap(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        xp = array_module(grad._data)
        mask = xp.zeros(ctx.shape, dtype=np.bool_)
        xp.put_along_axis(mask, ctx.index, True, axis=ctx.dim)
        return _spread(grad, ctx.shape, (ctx.dim,), ctx.keepdim) * _wrap(mask)


class MinDim(MaxDim):
    node_name = "MinBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, keepdim, find=np.argmin):
        return MaxDim.forward(ctx, a, dim, keepdim, find)


class Amax(Function):
    """``amax(dim)``: the largest values; ties share the gradient evenly (unlike ``max(dim)``)."""

    node_name = "AmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, reduce=np.amax):
        out = _wrap(reduce(a._data, axis=dims, keepdims=keepdim))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        winners = a == _spread(out, a.shape, ctx.dims, ctx.keepdim)
        share = _spread(grad, a.shape, ctx.dims, ctx.keepdim) / winners.sum(ctx.dims, True)
        return share * winners


class Amin(Amax):
    node_name = "AminBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, reduce=np.amin):
        return Amax.forward(ctx, a, dims, keepdim, reduce)


class Var(Function):
    node_name = "VarBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        ctx.save_for_backward(a)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return _wrap(_variance(a._data, dims, correction, keepdim))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        n = int(np.prod([a.shape[d] for d in ctx.dims]))
        centered = a - a.mean(ctx.dims, keepdim=True)
        # d var/da_i = 2 (a_i - mean) / (N - correction)
        scale = _spread(grad, a.shape, ctx.dims, ctx.keepdim)
        return scale * centered * _ratio(2, n - ctx.correction)


def _variance(x, dims: tuple, correction: float, keepdim: bool):
    """``np.var``, but NaN (without NumPy's warning) when there are no degrees of freedom."""
    dof = int(np.prod([x.shape[d] for d in dims])) - correction
    if dof > 0:
        return np.var(x, axis=dims, ddof=correction, keepdims=keepdim)
    squares = np.square(x - np.mean(x, axis=dims, keepdims=True))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sum(squares, axis=dims, keepdims=keepdim) / x.dtype.type(0)


def _check_degrees_of_freedom(name: str, shape: tuple, dims: tuple, correction) -> None:
    if int(np.prod([shape[d] for d in dims])) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel).",
                      UserWarning, stacklevel=4)  # the line that called x.var()


def _ratio(a: float, b: float) -> float:
    """``a / b`` where no degrees of freedom (``b == 0``) give inf, as in PyTorch."""
    return a / b if b else float("inf")


class Std(Function):
    node_name = "StdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim):
        out = _wrap(np.sqrt(_variance(a._data, dims, correction, keepdim)))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.correction, ctx.keepdim = dims, correction, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        n = int(np.prod([a.shape[d] for d in ctx.dims]))
        centered = a - a.mean(ctx.dims, keepdim=True)
        # d std/da_i = (a_i - mean) / ((N - correction) std), taken as 0 where std is 0
        scale = _spread((grad / out).masked_fill(out == 0, 0.0), a.shape, ctx.dims, ctx.keepdim)
        return scale * centered * _ratio(1, n - ctx.correction)


# ---------------------------------------------------------------- functions (the public API)
def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A001, A002
    """Sum of all elements, or over ``dim`` (an int or a tuple of ints).

    >>> import minitorch
    >>> minitorch.ones(2, 3).sum(dim=1)
    tensor([3., 3.])
    """
    if dim is None:
        return Sum.apply(input, dtype)
    return SumDim.apply(input, normalize_dims(dim, input._data.ndim), keepdim, dtype)


def mean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """Average of all elements, or over ``dim``. Needs a floating-point tensor."""
    if dtype is not None:
        input = input.to(dtype)  # noqa: A001
    _check_mean_dtype(input, "mean")
    if dim is None:
        return Mean.apply(input)
    return MeanDim.apply(input, normalize_dims(dim, input._data.ndim), keepdim)


def max(input: Tensor, dim=None, keepdim: bool = False):  # noqa: A001, A002
    """The largest element; with ``dim``, a ``(values, indices)`` named tuple.

    ``max(a, b)`` with two tensors is ``maximum(a, b)``, as in PyTorch.
    """
    if isinstance(dim, Tensor):
        from minitorch.ops.arithmetic import maximum  # noqa: PLC0415

        return maximum(input, dim)
    if dim is None:
        return MaxAll.apply(input)
    d = normalize_dim(dim, input._data.ndim)
    if input._data.ndim == 0:
        return return_types.max(input.clone(), _wrap(array_module(input._data).zeros((), np.int64)))
    return return_types.max(*MaxDim.apply(input, d, keepdim))


def min(input: Tensor, dim=None, keepdim: bool = False):  # noqa: A001, A002
    """The smallest element; with ``dim``, a ``(values, indices)`` named tuple."""
    if isinstance(dim, Tensor):
        from minitorch.ops.arithmetic import minimum  # noqa: PLC0415

        return minimum(input, dim)
    if dim is None:
        return MinAll.apply(input)
    d = normalize_dim(dim, input._data.ndim)
    if input._data.ndim == 0:
        return return_types.min(input.clone(), _wrap(array_module(input._data).zeros((), np.int64)))
    return return_types.min(*MinDim.apply(input, d, keepdim))


def amax(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:  # noqa: A002
    """Maximum over ``dim`` (all dims when empty), values only."""
    return Amax.apply(input, normalize_dims(dim if dim != () else None, input._data.ndim), keepdim)


def amin(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:  # noqa: A002
    """Minimum over ``dim`` (all dims when empty), values only."""
    return Amin.apply(input, normalize_dims(dim if dim != () else None, input._data.ndim), keepdim)


def argmax(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """Index of the largest element (of the flattened tensor when ``dim`` is None)."""
    if dim is None:
        return _wrap(np.argmax(input._data).astype(np.int64))
    d = normalize_dim(dim, input._data.ndim)
    return _wrap(np.argmax(input._data, axis=d, keepdims=keepdim).astype(np.int64))


def argmin(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    if dim is None:
        return _wrap(np.argmin(input._data).astype(np.int64))
    d = normalize_dim(dim, input._data.ndim)
    return _wrap(np.argmin(input._data, axis=d, keepdims=keepdim).astype(np.int64))


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    if unbiased is None:
        return 1
    return 1 if unbiased else 0


def _var_args(input, dim, unbiased):  # noqa: A002
    if isinstance(dim, bool):  # var(unbiased) in the old positional form
        dim, unbiased = None, dim
    return normalize_dims(dim, input._data.ndim), unbiased


def var(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,  # noqa: A002
        correction=None) -> Tensor:
    """Variance, with Bessel's correction (divide by N - 1) unless ``correction=0``."""
    _check_mean_dtype(input, "var")
    dims, unbiased = _var_args(input, dim, unbiased)
    correction = _correction(unbiased, correction)
    _check_degrees_of_freedom("var", input._data.shape, dims, correction)
    return Var.apply(input, dims, correction, keepdim)


def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,  # noqa: A002
        correction=None) -> Tensor:
    """Standard deviation, the square root of ``var``."""
    _check_mean_dtype(input, "std")
    dims, unbiased = _var_args(input, dim, unbiased)
    correction = _correction(unbiased, correction)
    _check_degrees_of_freedom("std", input._data.shape, dims, correction)
    return Std.apply(input, dims, correction, keepdim)


def all(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    """Whether all elements are True (non-zero)."""
    axis = None if dim is None else normalize_dim(dim, input._data.ndim)
    return _wrap(np.all(input._data, axis=axis, keepdims=keepdim))


def any(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    """Whether any element is True (non-zero)."""
    axis = None if dim is None else normalize_dim(dim, input._data.ndim)
    return _wrap(np.any(input._data, axis=axis, keepdims=keepdim))


def norm(input: Tensor, p=2, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """The p-norm ``(sum |x|^p)^(1/p)`` (composed from differentiable ops)."""
    if p == 2:
        return (input * input).sum(dim, keepdim).sqrt()
    return (input.abs() ** p).sum(dim, keepdim) ** (1.0 / p)


def sum_to_size(input: Tensor, shape: tuple) -> Tensor:  # noqa: A002
    """Sum ``input`` down to ``shape`` (undoing broadcasting): how gradients of broadcast
    inputs are reduced."""
    shape = tuple(shape)
    have = input._data.shape
    if have == shape:
        return input
    lead = len(have) - len(shape)
    ok = lead >= 0 and builtins.all(s == 1 or s == h for s, h in zip(shape, have[lead:]))
    if not ok:
        raise RuntimeError(
            f"size {{{', '.join(map(str, shape))}}} is not expandable to size "
            f"{{{', '.join(map(str, have))}}}."
        )
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape)
                                      if s == 1 and have[lead + i] != 1)
    out = SumDim.apply(input, dims, True, None)
    return out.reshape(shape) if lead else out



# ---------------------------------------------------------------- prod
def _prod_of_others(x: np.ndarray, axis: int) -> np.ndarray:
    """For each element, the product of the *other* elements along ``axis``.

    Computed as (product of those before) * (product of those after), with no division, so a
    zero in the input is no problem: ``d prod(x)/dx_i = prod_{j != i} x_j``.
    """
    xp = array_module(x)
    x = xp.moveaxis(x, axis, -1)
    ones = xp.ones(x.shape[:-1] + (1,), dtype=x.dtype)
    before = xp.cumprod(xp.concatenate([ones, x[..., :-1]], axis=-1), axis=-1)
    after = xp.flip(xp.cumprod(xp.flip(xp.concatenate([x[..., 1:], ones], axis=-1), -1),
                               axis=-1), -1)
    return xp.moveaxis(before * after, -1, axis)


def _prod_dtype(a: Tensor, dtype) -> np.dtype:
    if dtype is not None:
        return dtype.np
    return a._data.dtype if a._data.dtype.kind == "f" else np.dtype(np.int64)


class Prod(Function):
    """The product of all elements (``ProdBackward0``).

    Backward sends each element the product of all the others (computed without dividing by
    it, so zeros work). That gradient is computed as numbers: a second derivative through
    ``prod`` is not recorded.
    """

    node_name = "ProdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dtype=None):
        ctx.save_for_backward(a)
        return _wrap(np.asarray(a._data.astype(_prod_dtype(a, dtype)).prod()))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        flat = a._data.reshape(-1)
        others = _prod_of_others(flat, 0).reshape(a._data.shape) if flat.size else flat
        return grad * _wrap(others.reshape(a._data.shape))


class ProdDim(Function):
    """The product along one dimension (``ProdBackward1``)."""

    node_name = "ProdBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dim, keepdim, dtype=None):
        ctx.save_for_backward(a)
        ctx.dim, ctx.keepdim = dim, keepdim
        data = a._data.astype(_prod_dtype(a, dtype))
        return _wrap(data.prod(axis=dim if data.ndim else None, keepdims=keepdim and data.ndim > 0))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        if a._data.ndim == 0:
            return grad
        g = grad if ctx.keepdim else grad.unsqueeze(ctx.dim)
        return g * _wrap(_prod_of_others(a._data, ctx.dim))


def prod(input: Tensor, dim: int | None = None, keepdim: bool = False, *,  # noqa: A002
         dtype=None) -> Tensor:
    """The product of the elements (of each slice along ``dim``). Integer and bool inputs give
    int64, as in PyTorch.

    >>> import minitorch
    >>> x = minitorch.tensor([2.0, 0.0, 3.0], requires_grad=True)
    >>> x.prod().backward(); x.grad
    tensor([0., 6., 0.])
    """
    if dim is None:
        return Prod.apply(input, dtype)
    return ProdDim.apply(input, normalize_dim(dim, input._data.ndim), keepdim, dtype)


__all__ += ["prod"]

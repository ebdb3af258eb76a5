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
import math
import warnings

import numpy as np

from minitorch import return_types
from minitorch._backend import array_module
from minitorch._dtype import as_dtype
from minitorch._tensor import NO_DIM, NO_KEEPDIM, Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops._util import (
    as_int64_shown,
    check_in_bounds,
    normalize_dim,
    normalize_dims,
    quietly,
    saved_attr,
    saved_dim,
    saved_sizes,
    unpacked_by_hooks,
)
from minitorch.ops.arithmetic import DivScalar, MulScalar
from minitorch.ops.arithmetic import where as _where

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "var",
           "std", "all", "any", "vector_norm", "sum_to_size"]


def _spread(grad: Tensor, shape: tuple, dims: tuple, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back to ``shape`` (the input's shape). Recorded
    (create_graph), the reduced dims come back as PyTorch's ``sum_backward`` puts them, one
    ``unsqueeze`` each; otherwise one reshape."""
    if not keepdim and dims:
        if grad_mode._state.enabled and shape:
            grad = _unsqueezed(grad, dims, False)
        else:
            grad = grad.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape)))
    return grad.expand(shape)


def _restored(t: Tensor, shape: tuple, dims: tuple, keepdim: bool) -> Tensor:
    """A reduced ``t`` reshaped with its reduced ``dims`` back as size-1 dims (PyTorch's
    ``restore_reduced_dims``, a ``ViewBackward0`` when recorded)."""
    if keepdim or not dims:
        return t
    return t.reshape(tuple(1 if i in dims else s for i, s in enumerate(shape)))


def _unsqueezed(t: Tensor, dims: tuple, keepdim: bool) -> Tensor:
    """A reduced ``t`` with its reduced ``dims`` put back as size-1 dims, one ``unsqueeze``
    each (PyTorch's ``unsqueeze_multiple``): what its backward formulas multiply by, letting
    broadcasting spread it (no ``expand`` node)."""
    if not keepdim:
        for d in sorted(dims):
            t = t.unsqueeze(d)
    return t


def _sum_dtype(a: Tensor, dtype) -> np.dtype | None:
    """What a sum adds up in: ``dtype`` if given, int64 for bools and integers (as in
    PyTorch), else the tensor's own dtype (None)."""
    if dtype is not None:
        return dtype.np
    return np.int64 if a._data.dtype.kind in "biu" else None


def _summed(x, axis, keepdims: bool, dtype):
    """``x.sum(axis, dtype=dtype)``; a float16 sum accumulates in float32, as PyTorch's does,
    and is rounded once at the end (so a sum of halves overflows only if the result does)."""
    half = dtype == np.float16 or (dtype is None and x.dtype.char == "e")  # float16
    acc = np.float32 if half else dtype
    if type(x) is np.ndarray:  # what ndarray.sum calls (inf - inf then warns from here,
        total = np.add.reduce(x, axis, acc, None, keepdims)  # where minitorch drops it)
    else:
        total = x.sum(axis=axis, keepdims=keepdims, dtype=acc)
    return quietly(total.astype, np.float16) if half else total


class Sum(Function):
    node_name = "SumBackward0"
    _builtin = True
    saved_values = {"self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, dtype=None):
        return _wrap(_summed(a._data, None, False, _sum_dtype(a, dtype)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0]._data.shape

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.shape)  # every element contributed with weight 1


class SumDim(Function):
    node_name = "SumBackward1"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dims", as_tuple=True),
                    "keepdim": saved_attr("keepdim"),
                    "self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, dims, keepdim, dtype=None, given=None):  # given: the dim as called
        total = _summed(a._data, dims, keepdim, _sum_dtype(a, dtype))
        # contiguous, as PyTorch allocates a reduction's result (NumPy's follows the input's
        # layout): a later reshape is then a view exactly where PyTorch's is
        if not total.flags.c_contiguous:
            total = total.copy(order="C")
        return _wrap(total)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, dims, keepdim = inputs[:3]
        ctx.shape, ctx.dims, ctx.keepdim = a._data.shape, dims, keepdim
        if len(inputs) > 4:
            ctx.given = inputs[4]

    @staticmethod
    def backward(ctx, grad):
        # as PyTorch's sum_backward (recorded: the reduced dims unsqueezed back one by one)
        return _spread(grad, ctx.shape, ctx.dims, ctx.keepdim)


def _acc(x):
    """The dtype a reduction of ``x`` accumulates in: float32 for float16 (as PyTorch does, so
    the mean of 70,000 halves of 1 is 1, not inf), else ``x``'s own."""
    return np.float32 if x.dtype.char == "e" else x.dtype  # float16: in float32


class Prod(Function):
    """The product of the elements (over ``dims``)."""

    node_name = "ProdBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, dtype=None):
        out = _wrap(quietly(np.prod, a._data, dims, _sum_dtype(a, dtype), None, keepdim))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        if a.ndim == 0:
            return grad
        # d prod/da_i is the product of the other elements. Without zeros that is prod / a_i;
        # with zeros it must be computed as such (0 / 0 is NaN). PyTorch's prod_backward.
        zeros = int((a._data == 0).sum())
        whole = ctx._forward_cls is Prod and len(ctx.dims) == a.ndim  # prod(), not prod(dim)
        if not whole:  # prod(dim): its reduced dim unsqueezed, and broadcasting spreads it
            grad = _unsqueezed(grad, ctx.dims, ctx.keepdim)
            out = _unsqueezed(out, ctx.dims, ctx.keepdim)
        if not zeros:
            return grad * (out / a)
        if not whole:
            return _product_of_others(grad, a, ctx.dims[0])
        if zeros > 1 and not grad_mode._state.enabled:
            # PyTorch's shortcut for prod() of all elements: with two zeros every product of
            # the others is 0, so the gradient is zeros (even where the gradient is inf)
            return _wrap(array_module(a._data).zeros_like(a._data))
        return _product_of_others(grad, a.contiguous().view(-1), 0).view_as(a)


# ops/scan.py sits above this module (its backward formulas use _unsqueezed and prod) and
# attaches its cumprod here, for prod's backward: a lower layer never imports a higher one.
_cumprod = None


def _product_of_others(grad: Tensor, a: Tensor, dim: int) -> Tensor:
    """``grad`` times, for each element, the product of the *other* elements along ``dim``
    (PyTorch's ``prod_safe_zeros_backward``): the running products before each element
    times those after it, each a ``cumprod`` of ``a`` shifted by one behind a row of ones
    (differentiable, so double backward works)."""
    from minitorch.ops.shape import cat

    cumprod = _cumprod  # (ops/scan.py's, attached from above)

    n = a.shape[dim]
    if a.numel() == 0:
        return grad.expand_as(a)
    ones = _wrap(array_module(a._data).ones(
        [1 if d == dim else s for d, s in enumerate(a.shape)], grad._data.dtype))
    before = cumprod(cat([ones, a.narrow(dim, 0, n - 1)], dim), dim)
    after = cumprod(cat([ones, a.narrow(dim, 1, n - 1).flip(dim)], dim), dim).flip(dim)
    return grad * (before * after)


class ProdDim(Prod):
    node_name = "ProdBackward1"
    _builtin = True


def _check_mean_dtype(a: Tensor, name: str) -> None:
    if a._data.dtype.kind != "f" and name in ("var", "std"):
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if a._data.dtype.kind != "f":
        raise RuntimeError(
            f"{name}(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {a.dtype._legacy[:-6]}"
        )


def _mean(x, axis, keepdims: bool):
    """``np.mean``: the sum (float16's in float32, as PyTorch's) divided by the count, then
    rounded to ``x``'s dtype. The mean of nothing is NaN, as in PyTorch, without NumPy's
    "Mean of empty slice". (What ``np.mean`` computes, at a third of its cost: it is written
    in Python, and warns about ``inf - inf`` from NumPy's own module.)"""
    dims = range(x.ndim) if axis is None else axis
    count = math.prod([x.shape[d] for d in dims])
    if count == 0:
        shape = [1 if d in dims else n for d, n in enumerate(x.shape) if keepdims or d not in dims]
        return array_module(x).full(tuple(shape), np.nan, x.dtype)
    total = _summed(x, axis, keepdims, _acc(x))  # float16's stays float32 until divided
    return (total / count).astype(x.dtype, copy=False)


class Mean(Function):
    node_name = "MeanBackward0"
    _builtin = True
    saved_values = {"self_sym_numel": saved_sizes(numel=True),
                    "self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a):
        x = a._data
        return _wrap(_mean(x, None, False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.shape = a._data.shape

    @staticmethod
    def backward(ctx, grad):
        n = builtins.max(int(np.prod(ctx.shape)), 1)
        return DivScalar.apply(grad.expand(ctx.shape), n)  # (div.Scalar, as PyTorch's)


class MeanDim(Function):
    node_name = "MeanBackward1"
    _builtin = True
    saved_values = {"dim": saved_dim("given", "dims", as_tuple=True),
                    "keepdim": saved_attr("keepdim"),
                    "self_sym_numel": saved_sizes(numel=True),
                    "self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(a, dims, keepdim, given=None):  # given: the dim as called
        x = a._data
        return _wrap(_mean(x, dims, keepdim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, dims, keepdim, ctx.given = inputs
        ctx.shape, ctx.dims, ctx.keepdim = a._data.shape, dims, keepdim

    @staticmethod
    def backward(ctx, grad):
        n = int(np.prod([ctx.shape[d] for d in ctx.dims]))
        return DivScalar.apply(_spread(grad, ctx.shape, ctx.dims, ctx.keepdim), builtins.max(n, 1))


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
        # The winners share the gradient; when the result is NaN, the NaNs are the winners.
        winners = a.isnan() if out.isnan() else a == out
        return _select(winners, grad / winners.sum())


class MinAll(MaxAll):
    node_name = "MinBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        _check_nonempty(a, "min")
        out = _wrap(np.min(a._data))
        ctx.save_for_backward(a, out)
        return out


def _select(mask: Tensor, grad: Tensor) -> Tensor:
    """``grad`` where ``mask`` is True, else 0. Selecting, not multiplying by a 0/1 mask, keeps
    an inf or NaN gradient out of the places that were not selected (``inf * 0`` is NaN)."""
    from minitorch.ops.arithmetic import where

    return where(mask, grad, 0.0)


def _check_nonempty(a: Tensor, name: str, error=RuntimeError) -> None:
    if a._data.size == 0:
        more = "" if error is IndexError else (" Specify the reduction dim with the 'dim' "
                                               "argument.")
        raise error(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0.{more}"
        )


def _check_nonempty_dims(a: Tensor, name: str, dims: tuple, all_dims: bool = False) -> None:
    """PyTorch's errors for a max-like reduction of an empty tensor (there is no identity)."""
    if a._data.size:
        return
    if all_dims:
        _check_nonempty(a, name)
    for d in dims:
        if a._data.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


class MaxDim(Function):
    """``max(dim)``: values and the indices where they were; the gradient goes to those."""

    node_name = "MaxBackward0"
    _builtin = True
    # saved_tensors_hooks: PyTorch's pack order; backward reads the indices unpacked
    pack_order = ((lambda node: _saved_indices(node), lambda node, t: _put_indices(node, *t)),)
    saved_values = {"dim": saved_dim("given", "dim"), "keepdim": saved_attr("keepdim"),
                    "indices": lambda node: _saved_indices(node),
                    "self_sym_sizes": saved_sizes()}  # as in PyTorch

    @staticmethod
    def forward(ctx, a, dim, keepdim, given=None, find=np.argmax):  # given: the dim as called
        ctx.shape = a._data.shape
        ctx.dim, ctx.keepdim, ctx.given = dim, keepdim, dim if given is None else given
        # the indices PyTorch saves are worked out from ctx.index when read; this marks them
        ctx.save_for_backward(None)  # freed after backward
        if not ctx.shape:  # a 0-d tensor is its own maximum, at index 0
            indices = _wrap(array_module(a._data).zeros((), np.int64))
            ctx.mark_non_differentiable(indices)
            return _wrap(a._data.copy()), indices
        idx = find(a._data, axis=dim, keepdims=True)
        values = np.take_along_axis(a._data, idx, axis=dim)
        ctx.index = idx
        if not keepdim:
            values, idx = values.squeeze(dim), idx.squeeze(dim)
        indices = _wrap(idx.astype(np.int64))
        ctx.mark_non_differentiable(indices)
        return _wrap(values), indices

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        if not ctx.shape:
            return grad
        xp = array_module(grad._data)
        if unpacked_by_hooks(ctx):
            check_in_bounds(ctx.index, ctx.dim, ctx.shape[ctx.dim])
        mask = xp.zeros(ctx.shape, dtype=np.bool_)
        xp.put_along_axis(mask, ctx.index, True, axis=ctx.dim)
        return _select(_wrap(mask), _spread(grad, ctx.shape, (ctx.dim,), ctx.keepdim))


class MinDim(MaxDim):
    node_name = "MinBackward0"
    _builtin = True
    saved_values = MaxDim.saved_values

    @staticmethod
    def forward(ctx, a, dim, keepdim, given=None, find=np.argmin):
        return MaxDim.forward(ctx, a, dim, keepdim, given, find)


def _saved_indices(node):
    """``_saved_indices`` of ``max(dim)`` / ``min(dim)``: the indices it returned."""
    node.saved_tensors  # noqa: B018 - raises the freed-graph error after backward
    if not node.shape:
        return _wrap(np.zeros((), np.int64))
    idx = node.index if node.keepdim else node.index.squeeze(node.dim)
    return _wrap(idx.astype(np.int64))


def _put_indices(node, indices: Tensor) -> None:
    """Backward's ``index`` from the indices a ``saved_tensors_hooks`` unpack hook gave."""
    if node.shape:
        idx = indices._data
        node.index = idx if node.keepdim else array_module(idx).expand_dims(idx, node.dim)


class Amax(Function):
    """``amax(dim)``: the largest values; ties share the gradient evenly (unlike ``max(dim)``)."""

    node_name = "AmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, reduce=np.amax, all_dims=False):
        _check_nonempty_dims(a, reduce.__name__, dims, all_dims)
        out = _wrap(reduce(a._data, axis=dims, keepdims=keepdim))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.keepdim = dims, keepdim
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors  # PyTorch's: the reduced dims restored by a reshape,
        winners = a == _restored(out, a.shape, ctx.dims, ctx.keepdim)  # then broadcasting
        share = _restored(grad, a.shape, ctx.dims, ctx.keepdim) / winners.sum(ctx.dims, True)
        return share * winners


class Amin(Amax):
    node_name = "AminBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, reduce=np.amin, all_dims=False):
        return Amax.forward(ctx, a, dims, keepdim, reduce, all_dims)


class Var(Function):
    node_name = "VarBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch, and:
    saved_values = {"dim": lambda node: _var_saved(node, 0),
                    "correction": lambda node: _var_saved(node, 1),
                    "keepdim": saved_attr("keepdim")}

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, whole=False, given=None):
        # given: (dim, correction) as PyTorch shows them (see _var_given)
        ctx.save_for_backward(a)
        ctx.dims, ctx.correction, ctx.keepdim, ctx.whole = dims, correction, keepdim, whole
        if given is not None:
            ctx.given = given
        return _wrap(_variance(a._data, dims, correction, keepdim))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return _var_backward(grad, a, ctx)


def _var_backward(grad: Tensor, a: Tensor, ctx) -> Tensor:
    """``d var/da_i = 2 (a_i - mean) / (N - correction)`` times the gradient, in PyTorch's
    order (``var_backward``: the number times the gradient, as its C++ multiplies by a
    number, then the centered input); std's backward calls it too. Without a ``dim``
    (``ctx.whole`` True) the mean is ``a.mean()``; with one (False), the gradient's reduced
    dims are unsqueezed (of an input of 2 dims or more), and broadcasting spreads it; with
    ``dim=()`` (None) nothing is unsqueezed."""
    n = int(np.prod([a.shape[d] for d in ctx.dims]))
    whole = True if a.ndim == 0 else getattr(ctx, "whole", False)
    if whole and n - ctx.correction <= 0:  # 2 / 0 times a - mean: NaN where that is 0
        with grad_mode.no_grad():
            fill = _where(a == a.mean(), math.nan, math.inf).to(a.dtype)
        return grad * fill
    if whole is False and a.ndim > 1:
        grad = _unsqueezed(grad, ctx.dims, ctx.keepdim)
    scale = MulScalar.apply(grad, _ratio(2, n - ctx.correction))
    return scale * (a - (a.mean() if whole else a.mean(ctx.dims, keepdim=True)))


def _var_saved(node, which: int):
    """``_saved_dim`` (0) or ``_saved_correction`` (1) of var's or std's node: as called
    (``node.given``), else the dims and correction it computed with."""
    given = getattr(node, "given", None)
    if given is None:
        return node.dims if which == 0 else node.correction
    return as_int64_shown(given[0]) if which == 0 else given[1]


def _var_given(dim, unbiased, correction) -> tuple:
    """var's and std's (dim, correction) as PyTorch's node shows them: the dims as called (a
    tuple), and the correction as given (from ``unbiased``: 1 or 0), None where neither a dim,
    ``unbiased`` nor a correction was given."""
    if isinstance(dim, bool):  # var(unbiased) in the old positional form
        dim, unbiased = None, dim
    if dim is not None and not isinstance(dim, (tuple, list)):
        dim = (dim,)
    if correction is None:
        if unbiased is not None:
            correction = int(bool(unbiased))
        elif dim is not None:  # (x.var(None) shows 1 in PyTorch: here it is None)
            correction = 1
    return dim, correction


def _variance(x, dims: tuple, correction: float, keepdim: bool, root: bool = False):
    """``np.var`` (its square root for ``root``), but NaN (without NumPy's warning) when there
    are no degrees of freedom. float16 is computed in float32, the root too, and rounded once:
    a float16 std of 300 has a variance (90,000) that float16 cannot hold."""
    dof = int(np.prod([x.shape[d] for d in dims])) - correction
    out_dtype, x = x.dtype, x.astype(_acc(x), copy=False)
    if dof > 0:
        out = quietly(np.var, x, dims, None, None, correction, keepdim)
    else:
        squares = np.square(x - _mean(x, dims, True))
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.sum(squares, axis=dims, keepdims=keepdim) / x.dtype.type(0)
    return quietly((np.sqrt(out) if root else out).astype, out_dtype)


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
    saved_names = ("self", "result")  # the node's _saved_<name>, as in PyTorch, and:
    saved_values = Var.saved_values

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, whole=False, given=None):
        out = _wrap(_variance(a._data, dims, correction, keepdim, root=True))
        ctx.save_for_backward(a, out)
        ctx.dims, ctx.correction, ctx.keepdim, ctx.whole = dims, correction, keepdim, whole
        if given is not None:
            ctx.given = given
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors
        # d std/da = d var/da / (2 std), taken as 0 where std is 0 (PyTorch's std_backward)
        return _var_backward((grad / MulScalar.apply(out, 2)).masked_fill(out == 0, 0.0), a, ctx)


# ---------------------------------------------------------------- functions (the public API)
# ``sum``, ``mean``, ``prod``, ``max`` and ``min`` have two overloads in PyTorch, one without a
# dim and one with: their defaults ``NO_DIM`` and ``NO_KEEPDIM`` say which was called.
_OVERLOADS = {
    "sum": ["(Tensor input, *, torch.dtype dtype = None)",
            "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, "
            "Tensor out = None)"],
    "mean": ["(Tensor input, *, torch.dtype dtype = None, Tensor out = None)",
             "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None,"
             " Tensor out = None)"],
    "prod": ["(Tensor input, *, torch.dtype dtype = None)",
             "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, "
             "Tensor out = None)"],
    "max": ["(Tensor input, *, Tensor out = None)",
            "(Tensor input, Tensor other, *, Tensor out = None)",
            "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)"],
}
_OVERLOADS["min"] = _OVERLOADS["max"]


def _overload(name: str, dim, keepdim, dtype=None) -> tuple:
    """``(dim, keepdim)`` as given, ``(NO_DIM, False)`` for the overload without a dim.

    ``keepdim`` (or ``dtype`` with it) without ``dim`` matches neither overload: PyTorch's
    TypeError. ``max``, ``min`` and ``prod`` reduce over one dim, which cannot be None.
    """
    if dim is NO_DIM:
        if keepdim is NO_KEEPDIM:
            return NO_DIM, False
        if dtype is not None:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        expected = "".join(f"\n * {o}" for o in _OVERLOADS[name])
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                        f"keepdim=bool), but expected one of:{expected}\n")
    if dim is None and name in ("max", "min", "prod"):
        raise TypeError(f"{name}(): argument 'dim' must be int, not NoneType")
    return dim, bool(keepdim)


def sum(input: Tensor, dim=NO_DIM, keepdim: bool = NO_KEEPDIM, *,  # noqa: A001, A002
        dtype=None) -> Tensor:
    """Sum of all elements, or over ``dim`` (an int or a tuple of ints).

    >>> import minitorch
    >>> minitorch.ones(2, 3).sum(dim=1)
    tensor([3., 3.])
    """
    dim, keepdim = _overload("sum", dim, keepdim, dtype)
    dtype = as_dtype(dtype, "sum")
    if (dim is NO_DIM or dim is None) and not keepdim:
        return Sum.apply(input, dtype)
    dim = None if dim is NO_DIM else dim
    return SumDim.apply(input, normalize_dims(dim, input._data.ndim), keepdim, dtype, dim)


def mean(input: Tensor, dim=NO_DIM, keepdim: bool = NO_KEEPDIM, *,  # noqa: A002
         dtype=None) -> Tensor:
    """Average of all elements, or over ``dim``. Needs a floating-point tensor."""
    dim, keepdim = _overload("mean", dim, keepdim, dtype)
    dtype = as_dtype(dtype, "mean")
    if dtype is not None:
        input = input.to(dtype)  # noqa: A001
    _check_mean_dtype(input, "mean")
    if (dim is NO_DIM or dim is None) and not keepdim:
        return Mean.apply(input)
    dim = None if dim is NO_DIM else dim
    return MeanDim.apply(input, normalize_dims(dim, input._data.ndim), keepdim, dim)


def prod(input: Tensor, dim=NO_DIM, keepdim: bool = NO_KEEPDIM, *,  # noqa: A002
         dtype=None) -> Tensor:
    """Product of all elements, or over one ``dim``. Integers and bools give int64.

    >>> import minitorch
    >>> minitorch.tensor([[1.0, 2.0], [3.0, 4.0]]).prod(dim=1)
    tensor([ 2., 12.])
    """
    dim, keepdim = _overload("prod", dim, keepdim, dtype)
    dtype = as_dtype(dtype, "prod")
    if dim is NO_DIM:
        return Prod.apply(input, tuple(range(input._data.ndim)), False, dtype)
    d = normalize_dim(_one_dim(dim, "prod"), input._data.ndim)
    return ProdDim.apply(input, (d,) if input._data.ndim else (), keepdim, dtype)


def max(input: Tensor, dim=NO_DIM, keepdim: bool = NO_KEEPDIM):  # noqa: A001, A002
    """The largest element; with ``dim``, a ``(values, indices)`` named tuple.

    ``max(a, b)`` with two tensors is ``maximum(a, b)``, as in PyTorch.
    """
    if isinstance(dim, Tensor):
        from minitorch.ops.arithmetic import maximum

        return maximum(input, dim)
    dim, keepdim = _overload("max", dim, keepdim)
    if dim is NO_DIM:
        return MaxAll.apply(input)
    given = _one_dim(dim, "max")
    _check_nonempty_dims(input, "max", (normalize_dim(given, input._data.ndim),))
    d = normalize_dim(given, input._data.ndim)
    return return_types.max(*MaxDim.apply(input, d, keepdim, given))


def min(input: Tensor, dim=NO_DIM, keepdim: bool = NO_KEEPDIM):  # noqa: A001, A002
    """The smallest element; with ``dim``, a ``(values, indices)`` named tuple."""
    if isinstance(dim, Tensor):
        from minitorch.ops.arithmetic import minimum

        return minimum(input, dim)
    dim, keepdim = _overload("min", dim, keepdim)
    if dim is NO_DIM:
        return MinAll.apply(input)
    given = _one_dim(dim, "min")
    _check_nonempty_dims(input, "min", (normalize_dim(given, input._data.ndim),))
    d = normalize_dim(given, input._data.ndim)
    return return_types.min(*MinDim.apply(input, d, keepdim, given))


def _amax_dims(input: Tensor, dim, name: str) -> tuple:  # noqa: A002
    """``amax``'s dims; as PyTorch, an empty reduced dim is reported before a repeated one."""
    if not (dim is None or dim == ()) and input._data.size == 0:
        given = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        for d in given:  # PyTorch's amax names the dim as it was given (-1 stays -1)
            if input._data.shape[normalize_dim(d, input._data.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
    return normalize_dims(dim, input._data.ndim)


def amax(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:  # noqa: A002
    """Maximum over ``dim`` (all dims when empty), values only."""
    all_dims = dim is None or dim == ()
    return Amax.apply(input, _amax_dims(input, dim, "amax"), keepdim, np.amax, all_dims)


def amin(input: Tensor, dim=(), keepdim: bool = False) -> Tensor:  # noqa: A002
    """Minimum over ``dim`` (all dims when empty), values only."""
    all_dims = dim is None or dim == ()
    return Amin.apply(input, _amax_dims(input, dim, "amin"), keepdim, np.amin, all_dims)


def _one_dim(dim, name: str) -> int:
    """The ``dim`` of a reduction that takes exactly one (``max``, ``argmax``): an int."""
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    return int(dim)


def _arg_reduce(find, name: str, input: Tensor, dim, keepdim: bool) -> Tensor:  # noqa: A002
    x = input._data
    if dim is not None:
        dim = _one_dim(dim, name)
    if x.dtype == np.bool_:
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        _check_nonempty(input, name, IndexError)
        idx = find(x)
        xp = array_module(x)
        return _wrap(xp.asarray(idx, np.int64).reshape((1,) * x.ndim if keepdim else ()))
    d = normalize_dim(dim, x.ndim)
    if x.ndim == 0:
        return _wrap(array_module(x).zeros((), np.int64))
    _check_nonempty_dims(input, name, (d,))
    return _wrap(find(x, axis=d, keepdims=keepdim).astype(np.int64))


def argmax(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """Index of the largest element (of the flattened tensor when ``dim`` is None)."""
    return _arg_reduce(np.argmax, "argmax", input, dim, keepdim)


def argmin(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """Index of the smallest element (of the flattened tensor when ``dim`` is None)."""
    return _arg_reduce(np.argmin, "argmin", input, dim, keepdim)


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
    given = _var_given(dim, unbiased, correction)
    dims, unbiased = _var_args(input, dim, unbiased)
    correction = _correction(unbiased, correction)
    _check_degrees_of_freedom("var", input._data.shape, dims, correction)
    return Var.apply(input, dims, correction, keepdim, _whole(dim), given)


def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,  # noqa: A002
        correction=None) -> Tensor:
    """Standard deviation, the square root of ``var``."""
    _check_mean_dtype(input, "std")
    given = _var_given(dim, unbiased, correction)
    dims, unbiased = _var_args(input, dim, unbiased)
    correction = _correction(unbiased, correction)
    _check_degrees_of_freedom("std", input._data.shape, dims, correction)
    return Std.apply(input, dims, correction, keepdim, _whole(dim), given)


def _whole(dim):
    """For var's backward: True without a ``dim`` (PyTorch's ``dim=None``), None for an empty
    one (``dim=()``), else False."""
    if dim is None or isinstance(dim, bool):
        return True
    return None if isinstance(dim, (tuple, list)) and not dim else False


def _logical_reduce(np_fn, input: Tensor, dim, keepdim: bool) -> Tensor:  # noqa: A002
    x = input._data
    if dim is None:
        axis = tuple(range(x.ndim))
    else:  # an int or a tuple; unlike sum, ``dim=()`` reduces nothing here (as in PyTorch)
        axis = (normalize_dim(dim, x.ndim),) if isinstance(dim, (int, np.integer)) else \
            normalize_dims(dim, x.ndim) if len(dim) else ()
    out = np_fn(x != 0, axis=axis if x.ndim else (), keepdims=keepdim)
    # uint8 gives uint8 (PyTorch's old convention), every other dtype bool
    return _wrap(array_module(x).asarray(out, dtype=np.uint8 if x.dtype == np.uint8 else np.bool_,
                                         order="C"))  # (dim=(): C order, as PyTorch's)


def all(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    """Whether all elements are True (non-zero), over ``dim`` (an int or a tuple)."""
    return _logical_reduce(np.all, input, dim, keepdim)


def any(input: Tensor, dim=None, keepdim: bool = False) -> Tensor:  # noqa: A001, A002
    """Whether any element is True (non-zero), over ``dim`` (an int or a tuple)."""
    return _logical_reduce(np.any, input, dim, keepdim)


def vector_norm(input: Tensor, p: float = 2.0, dim=None, keepdim: bool = False, *,  # noqa: A002
                dtype=None) -> Tensor:
    """The vector p-norm ``(sum |x|^p)^(1/p)`` over ``dim`` (all elements when None): the
    operation behind ``minitorch.norm``, ``Tensor.norm`` and ``linalg.vector_norm``.

    ``p`` may be any number, ``inf`` (the largest ``|x|``), ``-inf`` (the smallest) or ``0`` (the
    number of non-zeros). ``dtype`` converts the input first.

    >>> import minitorch
    >>> vector_norm(minitorch.tensor([3.0, -4.0])), vector_norm(minitorch.tensor([3.0, -4.0]), 1)
    (tensor(5.), tensor(7.))
    """
    if isinstance(p, str) or not isinstance(p, (int, float, np.number)):
        raise RuntimeError(f"norm(): p={p!r} is not supported by minitorch (a number, 'fro' or "
                           "'nuc')")
    if input._data.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype._legacy[:-6]}")
    dtype = as_dtype(dtype, "linalg_vector_norm")
    if dtype is not None:
        if not dtype.is_floating_point:
            raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, "
                               f"but got {dtype._legacy[:-6]}")
    dims = normalize_dims(dim, input._data.ndim)
    check_norm_identity(input._data.shape, p, dims)
    given = (dim if dim is None or isinstance(dim, (tuple, list)) else (dim,),
             p if type(p) in (int, float) else float(p))
    reduced = () if dim is None or _whole(dim) is None else dims
    convert = dtype.np if dtype is not None and dtype.np != input._data.dtype else None
    return Norm.apply(input, float(p), dims, keepdim, convert, given, reduced)


def check_norm_identity(shape: tuple, p: float, dims: tuple) -> None:
    """PyTorch's error for a norm with no value on an empty reduction (inf, -inf, p < 0)."""
    if (np.isinf(p) or p < 0) and builtins.any(shape[d] == 0 for d in dims):
        raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor "
                           "because the operation does not have an identity")


class Norm(Function):
    """``norm``: one node, with PyTorch's gradient at the edges (0 where the norm is 0).
    A ``dtype`` converts the input inside the node (no ``ToCopyBackward0`` before it)."""

    node_name = "LinalgVectorNormBackward0"
    _builtin = True
    saved_names = ("self", "result")  # the node's _saved_<name>, as in PyTorch, and:
    saved_values = {"ord": lambda node: getattr(node, "given", (None, node.p))[1],
                    "dim": lambda node: as_int64_shown(getattr(node, "given", (node.dims,))[0]),
                    "keepdim": saved_attr("keepdim")}

    @staticmethod
    def forward(ctx, a, p, dims, keepdim, dtype=None, given=None, reduced=None):
        # given: (dim, ord) as called, which the node shows; reduced: the dims backward
        # spreads the gradient over (() without a dim, as PyTorch's)
        data = a._data if dtype is None else a._data.astype(dtype)
        out = _wrap(norm_array(data, p, dims, keepdim))
        ctx.save_for_backward(a, out)
        ctx.p, ctx.dims, ctx.keepdim = p, dims if reduced is None else reduced, keepdim
        if given is not None:
            ctx.given = given
        return out

    @staticmethod
    def backward(ctx, grad):
        a, out = ctx.saved_tensors  # (with a dtype: the engine casts the gradient to a's)
        return norm_backward(grad, a, out, ctx.p, ctx.dims, ctx.keepdim)


def norm_array(a, p: float, dims: tuple, keepdim: bool):
    """The p-norm of the array ``a`` over ``dims``, in ``a``'s dtype (float16 adds up in
    float32)."""
    x = np.abs(a.astype(_acc(a), copy=False))
    if p == np.inf:
        out = np.max(x, axis=dims, keepdims=keepdim)
    elif p == -np.inf:
        out = np.min(x, axis=dims, keepdims=keepdim)
    elif p == 0:
        out = np.sum(x != 0, axis=dims, keepdims=keepdim, dtype=x.dtype)
    elif p == 1:
        out = np.sum(x, axis=dims, keepdims=keepdim)
    elif p == 2:
        out = np.sqrt(np.sum(x * x, axis=dims, keepdims=keepdim))
    else:
        with np.errstate(divide="ignore", over="ignore"):
            out = np.sum(x ** p, axis=dims, keepdims=keepdim) ** (1 / p)
    return array_module(x).asarray(out).astype(a.dtype)


def norm_backward(grad: Tensor, a: Tensor, out: Tensor, p: float, dims: tuple,
                  keepdim: bool) -> Tensor:
    """The gradient of ``out``, the p-norm of ``a`` over ``dims``, with PyTorch's values at
    the edges, in tensor operations (so that it can be differentiated again): PyTorch's
    ``norm_backward``. ``dims`` are the dims given (``()`` for all): without ``keepdim``
    they are unsqueezed in the gradient and the norm, and broadcasting spreads them."""
    if not keepdim and a.ndim:
        grad, out = _unsqueezed(grad, dims, False), _unsqueezed(out, dims, False)
    if p == 0:  # a count: PyTorch leaves its gradient undefined (``x.grad`` stays None)
        return None
    if p == 1:  # d|a|/da = sgn(a)
        return a.sgn() * grad
    if p == 2:  # a / ||a||, taken as 0 where the norm is 0 (then times the gradient,
        return grad * (a / out).masked_fill(out == 0, 0.0)  # so an inf gradient gives NaN)
    if np.isinf(p):  # the largest (smallest) |a| wins; ties (or NaNs) share the gradient
        size = a.abs()
        winners = (size == out) | size.isnan()
        return a.sgn() * ((grad / winners.sum(dims, True)) * winners)
    # d/da (sum |a|^p)^(1/p) = sgn(a) |a|^(p-1) / ||a||^(p-1)
    if p < 1:
        scaled = a.sgn() * a.abs().pow(p - 1).masked_fill(a == 0, 0.0)
        return scaled * grad * out.pow(1 - p)
    scaled = a.sgn() * a.abs().pow(p - 1) if p < 2 else a * a.abs().pow(p - 2)
    return scaled * (grad / out.pow(p - 1)).masked_fill(out == 0, 0.0)


def _not_expandable(shape, have) -> RuntimeError:
    return RuntimeError(f"size {{[{', '.join(map(str, shape))}]}} is not expandable to size "
                        f"{{[{', '.join(map(str, have))}]}}.")


def sum_to_size(input: Tensor, shape: tuple) -> Tensor:  # noqa: A002
    """Sum ``input`` down to ``shape`` (undoing broadcasting): how gradients of broadcast
    inputs are reduced."""
    shape = tuple(shape)
    have = input._data.shape
    if have == shape:
        return input
    lead = len(have) - len(shape)
    if lead < 0:
        raise _not_expandable(shape, have)
    kept = []  # the dimensions that were broadcast from size 1, summed with keepdim
    for i, s in enumerate(shape):
        h = have[lead + i]
        if s != h:
            if s != 1:
                raise _not_expandable(shape, have)
            kept.append(lead + i)
    kept = tuple(kept)
    if not shape:  # down to one number: a plain sum, as PyTorch's sum_to
        return input.sum()
    if not kept and not (input.requires_grad and grad_mode.is_grad_enabled()):
        # only leading dimensions to remove (a bias, a scalar) and no graph to record: one
        # sum does it. A recorded one is PyTorch's sum_to: a sum that keeps the dimensions,
        # then a view (SumBackward1 under ViewBackward0, as create_graph=True shows)
        return SumDim.apply(input, tuple(range(lead)), False, None)
    out = SumDim.apply(input, tuple(range(lead)) + kept, True, None)
    return out.reshape(shape) if lead else out


# ---------------------------------------------------------------- prod helper (linalg.det)
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


# ---------------------------------------------------------------- nansum, nanmean, aminmax
class Nansum(Function):
    """``nansum``: the sum with NaNs counted as 0; a NaN gets no gradient."""

    node_name = "NansumBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim, dtype):
        ctx.save_for_backward(a)
        ctx.dims, ctx.keepdim = dims, keepdim
        x = a._data
        if x.dtype.kind == "f":
            x = array_module(x).where(array_module(x).isnan(x), x.dtype.type(0), x)
        return _wrap(_summed(x, dims, keepdim, dtype))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        g = _spread(grad, a.shape, ctx.dims, ctx.keepdim)
        return g * a.isnan().logical_not()


def nansum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """The sum over ``dim`` (all dims when None) with every NaN counted as zero.

    >>> import minitorch
    >>> minitorch.tensor([1.0, float("nan"), 2.0]).nansum()
    tensor(3.)
    """
    dtype = as_dtype(dtype, "nansum")
    dims = normalize_dims(dim, input._data.ndim)
    return Nansum.apply(input, dims, bool(keepdim), _sum_dtype(input, dtype))


def nanmean(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:  # noqa: A002
    """The mean of the values that are not NaN over ``dim`` (NaN where there are none):
    ``nansum`` divided by the count of non-NaN values.

    >>> import minitorch
    >>> minitorch.tensor([1.0, float("nan"), 2.0]).nanmean()
    tensor(1.5000)
    """
    if input._data.dtype.kind != "f":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {input.dtype._legacy[:-6]}")
    count = input.isnan().logical_not().sum(dim, keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / count


class Aminmax(Function):
    """``aminmax``: ``amin`` and ``amax`` in one node; each shares its gradient evenly among
    the elements equal to it."""

    node_name = "AminmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        x = a._data
        low, high = _wrap(np.amin(x, axis=dims, keepdims=keepdim)), _wrap(
            np.amax(x, axis=dims, keepdims=keepdim))
        ctx.save_for_backward(a, low, high)
        ctx.dims, ctx.keepdim = dims, keepdim
        return low, high

    @staticmethod
    def backward(ctx, grad_min, grad_max):
        a, low, high = ctx.saved_tensors
        total = None
        for grad, out in ((grad_min, low), (grad_max, high)):
            if grad is None:
                continue
            winners = a == _spread(out, a.shape, ctx.dims, ctx.keepdim)
            share = _spread(grad, a.shape, ctx.dims, ctx.keepdim) / winners.sum(ctx.dims, True)
            part = share * winners
            total = part if total is None else total + part
        return total


def aminmax(input: Tensor, *, dim=None, keepdim: bool = False):  # noqa: A002
    """The smallest and the largest values (of all, or along ``dim``):
    ``torch.return_types.aminmax(min, max)``; a NaN makes both NaN.

    >>> import minitorch
    >>> minitorch.tensor([3, 1, 2]).aminmax()
    torch.return_types.aminmax(
    min=tensor(1),
    max=tensor(3))
    """
    x = input._data
    if dim is None:
        if x.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                               "operation has no identity.")
        dims = tuple(range(x.ndim))
    else:
        d = normalize_dim(dim, x.ndim)
        if x.ndim and x.shape[d] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        dims = (d,) if x.ndim else ()
    return return_types.aminmax(*Aminmax.apply(input, dims, bool(keepdim)))


__all__ += ["nansum", "nanmean", "aminmax"]

"""Statistics: ``var_mean`` and ``std_mean`` (one node for both results), ``quantile`` and
``nanquantile``.

``quantile`` is written as PyTorch writes it, from ``sort``, ``gather`` and ``lerp_``, so its
values, its graph (``SqueezeBackward4`` over ``LerpBackward1`` over ``GatherBackward0``...) and
its gradients are PyTorch's: the ``q``-th quantile of ``n`` sorted values lies at the rank
``q * (n - 1)``; between two ranks the ``interpolation`` decides (``linear``, ``lower``,
``higher``, ``nearest``, ``midpoint``). A slice with a NaN has quantile NaN;
``nanquantile`` leaves NaN out.

>>> import minitorch
>>> minitorch.quantile(minitorch.tensor([1.0, 2.0, 4.0, 8.0]), 0.5)
tensor(3.)
>>> minitorch.var_mean(minitorch.tensor([1.0, 2.0, 3.0]))
(tensor(1.), tensor(2.))
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype
from minitorch._backend import onto_device_of
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops import reduction as _reduction
from minitorch.ops._util import normalize_dim
from minitorch.ops.indexing import gather
from minitorch.ops.rearrange import broadcast_tensors
from minitorch.ops.shape import _invalid_combination
from minitorch.ops.sorting import sort

__all__ = ["var_mean", "std_mean", "quantile", "nanquantile"]


# ---------------------------------------------------------------- var_mean, std_mean
class VarMean(Function):
    """``var_mean``: the variance and the mean in one node. Each part of the gradient is
    that of ``var`` (``Var.backward``) and of ``mean`` (the gradient spread evenly)."""

    node_name = "VarMeanBackward0"
    _builtin = True
    _spread_node = _reduction.Var

    @staticmethod
    def forward(ctx, a, dims, correction, keepdim, root, whole=False):
        x = a._data
        spread = _wrap(_reduction._variance(x, dims, correction, keepdim, root=root))
        ctx.save_for_backward(*((a, spread) if root else (a,)))
        ctx.dims, ctx.correction, ctx.keepdim, ctx.whole = dims, correction, keepdim, whole
        ctx.set_materialize_grads(False)
        return spread, _wrap(_reduction._mean(x, dims, keepdim))

    @classmethod
    def backward(cls, ctx, grad_spread, grad_mean):
        a = ctx.saved_tensors[0]
        total = None
        if grad_spread is not None:
            total = cls._spread_node.backward(ctx, grad_spread)
        if grad_mean is not None:
            n = int(np.prod([a.shape[d] for d in ctx.dims]))
            part = _reduction._spread(grad_mean, a.shape, ctx.dims, ctx.keepdim) / n
            total = part if total is None else total + part
        return total


class StdMean(VarMean):
    """``std_mean``: the standard deviation and the mean in one node."""

    node_name = "StdMeanBackward0"
    _builtin = True
    _spread_node = _reduction.Std


def _spread_mean(name: str, node, input: Tensor, dim, unbiased, keepdim, correction):  # noqa: A002
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"{name} only support floating point and complex dtypes")
    dims, unbiased = _reduction._var_args(input, dim, unbiased)
    correction = _reduction._correction(unbiased, correction)
    _reduction._check_degrees_of_freedom(name, input._data.shape, dims, correction)
    return tuple(node.apply(input, dims, correction, bool(keepdim), node is StdMean,
                            _reduction._whole(dim)))


def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,  # noqa: A002
             correction=None) -> tuple:
    """``(var(input, ...), mean(input, ...))``, computed together: the variance (divided by
    N - ``correction``, Bessel's N - 1 by default) and the mean, of all elements or over
    ``dim``.

    >>> import minitorch
    >>> minitorch.var_mean(minitorch.tensor([[1.0, 3.0], [2.0, 2.0]]), 1, correction=0)
    (tensor([1., 0.]), tensor([2., 2.]))
    """
    return _spread_mean("var_mean", VarMean, input, dim, unbiased, keepdim, correction)


def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,  # noqa: A002
             correction=None) -> tuple:
    """``(std(input, ...), mean(input, ...))``, computed together (see ``var_mean``)."""
    return _spread_mean("std_mean", StdMean, input, dim, unbiased, keepdim, correction)


# ---------------------------------------------------------------- quantile, nanquantile
_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_quantile(input: Tensor, q, dim, interpolation: str, func: str) -> Tensor:  # noqa: A002
    """``q`` as a tensor of ``input``'s dtype, after PyTorch's checks (in PyTorch's order; its
    messages say ``quantile()`` for ``nanquantile`` too, but for the argument types)."""
    name = "quantile"
    if interpolation not in _MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    if dim is not None and (isinstance(dim, bool) or not isinstance(dim, numbers.Integral)):
        got = f"Tensor, {type(q).__name__}, dim={type(dim).__name__}"
        raise _invalid_combination(
            func, got, "Tensor input, Tensor q, int dim = None, bool keepdim = False, *, str "
            "interpolation = 'linear', Tensor out = None", "Tensor input, float q, int dim = "
            "None, bool keepdim = False, *, str interpolation = 'linear', Tensor out = None")
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {float(q):g}")
        dt = input._data.dtype if input.dtype.is_floating_point else np.float32
        q = _wrap(onto_device_of(np.array(q, dt), input._data))  # on input's device
    if input._data.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if q._data.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if input.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if q.dtype is not input.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    qs = q._data
    if not bool(((qs >= 0) & (qs <= 1)).all()):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    return q


def _sorted_rows(input: Tensor, dim, keepdim: bool, q: Tensor) -> tuple:  # noqa: A002
    """The values sorted along the reduced dimension, viewed as PyTorch views them (the shape
    of the result, without q's dimension, then the sorted values), and that result shape."""
    shape = input._data.shape
    if dim is None:
        values = sort(input.flatten()).values
        out_shape = [1] * len(shape) if keepdim else []
    else:
        d = normalize_dim(dim, len(shape))
        values = sort(input).values if d == len(shape) - 1 else \
            sort(input.unsqueeze(-1).transpose(d, -1)).values
        out_shape = [1 if i == d else s for i, s in enumerate(shape) if keepdim or i != d]
    return values.view(tuple(out_shape) + (values.shape[-1],)), out_shape


def _quantile(input: Tensor, q, dim, keepdim: bool, interpolation: str, name: str) -> Tensor:  # noqa: A002
    q = _check_quantile(input, q, dim, interpolation, name)
    values, _ = _sorted_rows(input, dim, keepdim, q)
    n = values.shape[-1]
    nan = values.isnan()
    if name == "nanquantile":  # rank among the numbers; a slice of NaN gets rank 0 (NaN)
        ranks = q * (nan.logical_not().sum(-1, True) - 1)
        ranks = ranks.masked_fill(ranks < 0, 0)
    else:  # a slice with a NaN gets the last rank, a NaN
        ranks, has_nan = broadcast_tensors(q * (n - 1), nan.any(-1, True))
        ranks = ranks.masked_fill(has_nan, n - 1)
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": ranks.floor, "higher": ranks.ceil, "nearest": ranks.round}[
            interpolation]()
    below = ranks.long()
    result = gather(values, -1, below)
    if interpolation in ("linear", "midpoint"):
        weights = ranks - below if interpolation == "linear" else ranks.new_full(ranks.shape,
                                                                                  0.5)
        result.lerp_(gather(values, -1, ranks.ceil().long()), weights)
    if q._data.ndim == 0:
        return result.squeeze_(-1)
    return result.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def quantile(input: Tensor, q, dim=None, keepdim: bool = False, *,  # noqa: A002
             interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles (``q`` a number or a 0-d or 1-d tensor, in [0, 1]) of all
    elements, or along ``dim``; with a 1-d ``q`` the quantiles make the first dimension.

    >>> import minitorch
    >>> minitorch.quantile(minitorch.tensor([0.0, 1.0, 2.0]), 0.25, interpolation="lower")
    tensor(0.)
    """
    return _quantile(input, q, dim, keepdim, interpolation, "quantile")


def nanquantile(input: Tensor, q, dim=None, keepdim: bool = False, *,  # noqa: A002
                interpolation: str = "linear") -> Tensor:
    """``quantile`` of the elements that are not NaN (NaN where there are none)."""
    return _quantile(input, q, dim, keepdim, interpolation, "nanquantile")

"""``softmax`` and ``log_softmax`` along a dimension (``SoftmaxBackward0``,
``LogSoftmaxBackward0``): the Functions behind ``Tensor.softmax``, ``nn.functional.softmax``
and ``nn.Softmax``, and the log-sum-exp inside ``cross_entropy``.

Example:
    >>> import minitorch
    >>> x = minitorch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> log_softmax(x, dim=0)
    tensor([-2.4076, -1.4076, -0.4076], grad_fn=<LogSoftmaxBackward0>)
"""

from __future__ import annotations

import warnings

import numpy as np

from minitorch._backend import array_module
from minitorch._dtype import as_dtype
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import normalize_dim, saved_dim
from minitorch.ops.reduction import _summed

__all__ = ["softmax", "log_softmax"]


def _zero_dim_as_row(forward):
    """A 0-d tensor is a row of one along dim 0 (as in PyTorch, whose softmax of a 0-d tensor
    is one node): ``forward`` runs on shape (1,), and the result is 0-d again."""
    def run(*args):
        if args[0]._data.ndim:
            return forward(*args)
        rows = [_wrap(a._data.reshape(1)) if isinstance(a, Tensor) else a for a in args]
        return _wrap(forward(*rows)._data.reshape(()))
    return run


class _GradientOp(Function):
    """What the gradients of softmax and log_softmax share: they take (incoming gradient,
    the forward's output, dim) and save the first two, for their own backward."""

    _builtin = True

    @staticmethod
    def setup_context(ctx, inputs, output):
        grad, out, ctx.dim = inputs
        ctx.save_for_backward(grad, out)


class Softmax(Function):
    """``exp(x) / sum(exp(x))`` along ``dim``, computed as ``exp(x - max)`` (no overflow)."""

    node_name = "SoftmaxBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"dim": saved_dim("given", "dim")}  # the dim as called

    @staticmethod
    @_zero_dim_as_row
    def forward(x, dim, given=None):
        xd = _acc(x._data)
        e = np.exp(xd - _max_along(xd, dim))
        return _wrap((e / e.sum(axis=dim, keepdims=True)).astype(x._data.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, *given = inputs  # given: the dim as called, where it was passed
        if given:
            ctx.given = given[0]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (s,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, s, ctx.dim)


class SafeSoftmax(Softmax):
    """PyTorch's ``_safe_softmax``, the softmax of attention: a row that is all -inf (a query
    whose every key is masked out) gives zeros, where a plain softmax gives NaN. Its gradient
    is softmax's: ``s * (grad - sum(grad * s))`` is zero on a row of zeros."""

    node_name = "SafeSoftmaxBackward0"
    _builtin = True

    @staticmethod
    @_zero_dim_as_row
    def forward(x, dim):
        xd = _acc(x._data)
        top = _max_along(xd, dim)
        empty = top == -np.inf
        with np.errstate(invalid="ignore"):  # 0 / 0 on the empty rows, replaced below
            e = np.exp(xd - np.where(empty, 0, top))
            s = e / e.sum(axis=dim, keepdims=True)
        return _wrap(np.where(empty, 0, s).astype(x._data.dtype, copy=False))


class SoftmaxBackwardData(_GradientOp):
    """The gradient of ``softmax`` for its input, from the gradient of its output ``s``:
    ``ds_i/dx_j = s_i (delta_ij - s_j)``, so ``grad_x = s * (grad - sum(grad * s))`` along
    ``dim``. An operation of its own, as PyTorch's ``_softmax_backward_data``: one node, not
    four, and with ``create_graph=True`` the node PyTorch has, whose backward (the second
    derivative) is written here in tensor operations."""

    node_name = "SoftmaxBackwardDataBackward0"
    _builtin = True
    saved_names = ("grad_output", "output")

    @staticmethod
    @_zero_dim_as_row
    def forward(grad, s, dim):
        g, sd = grad._data, s._data
        return _wrap(sd * (g - _summed(g * sd, dim, True, None)))

    @staticmethod
    def backward(ctx, gg):
        grad, s = ctx.saved_tensors
        need_grad, need_s = ctx.needs_input_grad[:2]
        # linear in grad, with the same map; in s: gg * (grad - sum(grad s)) - grad sum(gg s)
        return (SoftmaxBackwardData.apply(gg, s, ctx.dim) if need_grad else None,
                gg * (grad - (grad * s).sum(ctx.dim, keepdim=True))
                - grad * (gg * s).sum(ctx.dim, keepdim=True) if need_s else None)


class LogSoftmax(Function):
    """``x - log(sum(exp(x)))`` along ``dim``, with the log-sum-exp trick."""

    node_name = "LogSoftmaxBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"dim": saved_dim("given", "dim")}  # the dim as called

    @staticmethod
    @_zero_dim_as_row
    def forward(x, dim, given=None):
        if x._data.shape[dim] == 0:  # an empty dim: an empty result (the log of the empty
            return _wrap(x._data.copy())  # sum, log(0), would warn)
        xd = _acc(x._data)
        shifted = xd - _max_along(xd, dim)  # the largest entry becomes 0
        total = np.exp(shifted).sum(axis=dim, keepdims=True)
        if x._data.dtype.char == "e" and dim == x._data.ndim - 1:
            # PyTorch's float16 kernel along the last dim rounds the sum and its log to float16
            log_total = np.log(total.astype(np.float16).astype(np.float32)).astype(np.float16)
        else:
            log_total = np.log(total)
        out = shifted - log_total
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, *given = inputs  # given: the dim as called, where it was passed
        if given:
            ctx.given = given[0]
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, out, ctx.dim)


class LogSoftmaxBackwardData(_GradientOp):
    """The gradient of ``log_softmax`` for its input, from the gradient of its output
    ``out``: ``d log_softmax_i / dx_j = delta_ij - softmax_j``, so ``grad_x = grad -
    exp(out) * sum(grad)`` along ``dim``. An operation of its own, as PyTorch's
    ``_log_softmax_backward_data``: one node, not four (it runs in every training step
    through ``cross_entropy``), and with ``create_graph=True`` the node PyTorch has, whose
    backward (the second derivative) is written here in tensor operations."""

    node_name = "LogSoftmaxBackwardDataBackward0"
    _builtin = True
    saved_names = ("grad_output", "output")

    @staticmethod
    @_zero_dim_as_row
    def forward(grad, out, dim):
        g = grad._data
        return _wrap(g - np.exp(out._data) * _summed(g, dim, True, None))

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        need_grad, need_out = ctx.needs_input_grad[:2]
        softmax = out.exp()
        # linear in grad: gg - sum(gg * softmax); in out: -gg * softmax * sum(grad)
        return (gg - (gg * softmax).sum(ctx.dim, keepdim=True) if need_grad else None,
                -gg * softmax * grad.sum(ctx.dim, keepdim=True) if need_out else None)


def _acc(x: np.ndarray) -> np.ndarray:
    """``x`` in the precision PyTorch computes softmax in: float16 in float32, rounded once
    at the end (the sum of exponentials would lose digits in float16)."""
    return x.astype(np.float32) if x.dtype.char == "e" else x  # float16


def _max_along(x: np.ndarray, dim: int) -> np.ndarray:
    """``x.max(axis=dim, keepdims=True)``. NumPy reduces a short last axis (the ten class
    scores of each sample) one row at a time, and pays for every row: from 32 rows, a
    transposed copy reduced along its first axis is two to ten times quicker. The maximum is
    exact, so the order in which it is taken changes nothing."""
    if type(x) is np.ndarray and x.ndim == 2 and dim == 1 and 0 < x.shape[1] <= 32 \
            and x.shape[0] >= 32:
        return np.maximum.reduce(x.T.copy(), 0)[:, None]
    if x.shape[dim] == 0:  # an empty dim (the result is empty too): NumPy's max would raise
        return array_module(x).zeros(x.shape[:dim] + (1,) + x.shape[dim + 1:], x.dtype)
    return x.max(axis=dim, keepdims=True)


def _implicit_dim(name: str, ndim: int, stacklevel: int = 3) -> int:
    # ``stacklevel`` is PyTorch's ``_stacklevel``: 3 names the line that called the functional
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def _softmax_input(input: Tensor, dim, dtype, name: str, stacklevel: int = 3):  # noqa: A002
    x = input
    if dim is None:  # one frame deeper than PyTorch's: this helper
        dim = _implicit_dim(name, x.ndim, stacklevel + 1)
    elif not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not "
                        f"{type(dim).__name__}")
    dtype = as_dtype(dtype, name)
    if dtype is not None:
        x = x.to(dtype)
    d = normalize_dim(dim, max(x._data.ndim, 1))
    if x._data.dtype.kind != "f":  # PyTorch names its kernel: the last dim has its own
        kernel = f"{name}_lastdim_kernel_impl" if d == x._data.ndim - 1 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype._legacy[:-6]}\'')
    return x, d


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype=None) -> Tensor:
    """Turn scores into probabilities along ``dim`` (they are positive and sum to 1).

    >>> import minitorch
    >>> softmax(minitorch.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    x, d = _softmax_input(input, dim, dtype, "softmax", _stacklevel)
    return Softmax.apply(x, d, d if dim is None else dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
                dtype=None) -> Tensor:
    """``log(softmax(input))`` in one numerically stable step.

    >>> import minitorch
    >>> log_softmax(minitorch.tensor([1000.0, 1000.0]), dim=0)
    tensor([-0.6931, -0.6931])
    """
    x, d = _softmax_input(input, dim, dtype, "log_softmax", _stacklevel)
    return LogSoftmax.apply(x, d, d if dim is None else dim)


_MISSING = object()


def _with_dim_required(fn):
    """``torch.softmax`` and ``torch.log_softmax``: ``fn``, the ``nn.functional`` one, but
    with ``dim`` required, as PyTorch's top-level functions choose no dim for you (``dim`` is
    their argument 2, after ``input``)."""
    name = fn.__name__

    def with_dim(input: Tensor, dim=_MISSING, dtype=None) -> Tensor:  # noqa: A002
        if dim is _MISSING:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(f"{name}(): argument 'dim' (position 2) must be int, not "
                            f"{type(dim).__name__}")
        return fn(input, dim, dtype=dtype)

    with_dim.__name__ = with_dim.__qualname__ = name
    with_dim.__doc__ = (f"``{name}(input, dim, dtype=None)``: ``nn.functional.{name}`` with "
                        "``dim`` required.")
    return with_dim


dim_required_softmax = _with_dim_required(softmax)
dim_required_log_softmax = _with_dim_required(log_softmax)

"""``minitorch.nn.functional``: layers, activations and losses as plain functions.

Every ``nn`` layer is a thin module around one of these functions: ``nn.Linear`` calls
:func:`linear`, ``nn.Conv2d`` calls :func:`conv2d`, ``nn.CrossEntropyLoss`` calls
:func:`cross_entropy`. Each heavy operation is one ``autograd.Function`` whose graph node has
PyTorch's name (``AddmmBackward0``, ``ConvolutionBackward0``, ``NllLossBackward0``, ...). Its
forward runs on the NumPy arrays; its backward is written with tensor operations (or with
Functions whose own backward is known), so gradients of gradients work too.

Example:
    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> z = minitorch.zeros(3, requires_grad=True)
    >>> F.binary_cross_entropy_with_logits(z, minitorch.ones(3))
    tensor(0.6931, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
    >>> logits = minitorch.zeros(2, 4, requires_grad=True)
    >>> F.cross_entropy(logits, minitorch.tensor([0, 3]))
    tensor(1.3863, grad_fn=<NllLossBackward0>)
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np

from minitorch import _warnings
from minitorch import func as _func  # batch norm's check under vmap
from minitorch._backend import array_module
from minitorch._backend import to_numpy as _to_numpy
from minitorch._tensor import Tensor, _counter, _wrap
from minitorch._warnings import warn_once
from minitorch.autograd import grad_mode
from minitorch.autograd import graph as _graph  # batch_norm's pack_before
from minitorch.autograd.function import Function
from minitorch.functional import broadcast_tensors as _broadcast_tensors  # losses broadcast first

# The Function classes live in modules named for what they compute; they stay importable
# from here, as before (``from minitorch.nn.functional import NllLoss``).
from minitorch.nn._conv import (  # noqa: F401
    Convolution,
    ConvolutionInputGrad,
    ConvolutionWeightGrad,
)
from minitorch.nn._loss import (
    BinaryCrossEntropy,
    BinaryCrossEntropyWithLogits,
    MseLoss,
    NllLoss,
    NllLoss2D,
)
from minitorch.nn._pooling import (  # noqa: F401
    AdaptiveAvgPool2D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool2DGradInput,
    AvgPool2D,
    AvgPool2DBackward,
    MaxPool2DBackward,
    MaxPool2DWithIndices,
    MaxPoolGather,
    _pool_geometry,
    _shape4d,
    _taps,
)
from minitorch.nn._util import (  # noqa: F401
    _as_strided,
    _check_reduction,
    _fmt_shape,
    _legacy_reduction,
    _pair,
    _reduce,
    _reduce_array,
    _scale_grad,
    _type_name,
)
from minitorch.ops import unary as _unary
from minitorch.ops._util import as_int64_shown, check_tensor, quietly, saved_sizes
from minitorch.ops.arithmetic import AddScalar, DivScalar, MulScalar
from minitorch.ops.linalg import _check_dtypes, column_major, mm_mat1_backward, mm_mat2_backward
from minitorch.ops.reduction import sum_to_size as _sum_to_size  # gglast: linear's bias
from minitorch.ops.softmax import LogSoftmax, Softmax, log_softmax, softmax  # noqa: F401
from minitorch.ops.unary import Relu, sigmoid, tanh  # noqa: F401

__all__ = [
    # activations
    "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout",
    # layers
    "linear", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "embedding", "one_hot",
    # losses
    "mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "nll_loss", "cross_entropy",
]


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Tensor | None = None) -> Tensor:
    """Binary cross-entropy on logits: ``-[y log s(x) + (1 - y) log(1 - s(x))]``.

    Taking logits (not probabilities) lets it use ``log(1 + e^-|x|)``, which is exact where
    ``sigmoid`` followed by ``log`` would round to ``log(0)``.

    Args:
        input: logits, any shape.
        target: same shape as ``input``, values in [0, 1].
        weight: optional rescaling weight, broadcast to ``input``.
        reduction: ``"mean"`` (default), ``"sum"`` or ``"none"``.
        pos_weight: weight of positive examples, broadcast along the last dimension.
    """
    if reduce is not None or size_average is not None:  # the deprecated way to say reduction
        reduction = _legacy_reduction(size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    return _binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def _binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                      weight: Tensor | None, pos_weight: Tensor | None,
                                      reduction: str) -> Tensor:
    """:func:`binary_cross_entropy_with_logits` after its Python checks (``torch.``'s
    has none)."""
    for name, w in (("weight", weight), ("pos_weight", pos_weight)):
        if isinstance(w, Tensor) and w.requires_grad and grad_mode._state.enabled:
            raise RuntimeError(
                "The function 'binary_cross_entropy_with_logits' is not differentiable with "
                f"respect to argument '{name}'. This input cannot have requires_grad True.")
    kind = target._data.dtype.kind
    if kind == "b":  # PyTorch's first step is 1 - target
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if kind != "f":  # the loss has the target's dtype, and a float loss is not an integer
        raise RuntimeError(f"result type {_type_name(input)} can't be cast to the desired "
                           f"output type {_type_name(target)}")
    # PyTorch's errors: pos_weight meets the target first, the weight multiplies the loss
    # (checked only: the weights broadcast as they are, and the node saves them as given)
    _expand_weight(input, weight, (input, weight))
    _expand_weight(input, pos_weight, (pos_weight, target))
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


def _expand_weight(input: Tensor, weight: Tensor | None, pair: tuple) -> Tensor | None:  # noqa: A002
    """``weight`` expanded to ``input``'s shape, with PyTorch's error for a shape that does
    not broadcast (``pair``: the operands as PyTorch meets them) or broadcasts larger."""
    if weight is None or weight.shape == input.shape:
        return weight
    try:
        shape = np.broadcast_shapes(*(tuple(t.shape) for t in pair))
    except ValueError:
        raise broadcast_error(*(t.shape for t in pair)) from None
    if shape != tuple(input.shape):
        raise RuntimeError(f"output with shape {_fmt_shape(input.shape)} doesn't match the "
                           f"broadcast shape {_fmt_shape(shape)}")
    return weight.expand(input.shape)


# ====================================================================== activations
def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``max(input, 0)`` elementwise (``ReluBackward0``), as ``minitorch.relu``.

    >>> import minitorch
    >>> relu(minitorch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    if inplace:
        return input._inplace(_unary.relu)
    return _unary.relu(input)


class LeakyRelu(Function):
    """``x`` where ``x > 0``, else ``slope * x``."""

    node_name = "LeakyReluBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch
    saved_values = {"negative_slope": lambda node: node.slope}

    @staticmethod
    def forward(ctx, x, slope):
        ctx.save_for_backward(x)
        return _leaky_relu_forward(ctx, x, slope)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluGrad.apply(grad, x, ctx.slope, ctx.positive)


def _leaky_relu_forward(ctx, x, slope):
    xd = x._data
    ctx.positive, ctx.slope = xd > 0, slope  # what the gradient selects by
    return _wrap(np.where(ctx.positive, xd, xd * xd.dtype.type(slope)))


class LeakyReluGrad(Function):
    """leaky_relu's backward as an operation of its own, as PyTorch's
    ``leaky_relu_backward``: ``grad`` where the input was > 0, else ``slope * grad``. Linear in
    ``grad``, so its own backward is the same map; the input only chose the slope, so its
    gradient is zero, but there (a gradient penalty reaches the network's input)."""

    node_name = "LeakyReluBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)  # grad and the input; the slope and the mask are numbers

    @staticmethod
    def forward(grad, x, slope, positive):
        g = grad._data
        return _wrap(np.where(positive, g, g * g.dtype.type(slope)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.x, ctx.slope, ctx.positive = inputs

    @staticmethod
    def backward(ctx, gg):
        return (LeakyReluGrad.apply(gg, ctx.x, ctx.slope, ctx.positive),
                gg.new_zeros(gg.shape) if ctx.needs_input_grad[1] else None)


def leaky_relu(input: Tensor, negative_slope: float = 0.01,  # noqa: A002
               inplace: bool = False) -> Tensor:
    """``max(0, x) + negative_slope * min(0, x)``."""
    if input._data.dtype.kind != "f":
        raise NotImplementedError(
            f"\"leaky_relu_cpu\" not implemented for '{input.dtype._legacy[:-6]}'")
    if inplace:  # LeakyReluBackward1 (its class is defined further down)
        return input._inplace(LeakyReluInplace.apply, negative_slope)
    return LeakyRelu.apply(input, negative_slope)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``, so the
    expected value is unchanged. Does nothing when ``training`` is False.

    >>> import minitorch
    >>> dropout(minitorch.ones(4), p=0.5, training=False)
    tensor([1., 1., 1., 1.])
    """
    return _dropout(input, p, training, inplace)


# ====================================================================== linear
class Addmm(Function):
    """``bias + mat1 @ mat2`` in one step: what ``nn.Linear`` runs on a batch.

    With ``out = b + x W^T``: ``dL/dx = dL/dout W``, ``dL/dW^T = x^T dL/dout`` and
    ``dL/db = sum over the batch of dL/dout``.
    """

    node_name = "AddmmBackward0"
    _builtin = True
    saved_names = ("mat1", "mat2")  # the node's _saved_<name>, as in PyTorch (nodecall)
    saved_values = {"alpha": lambda node: 1, "beta": lambda node: 1,
                    "mat1_sym_sizes": saved_sizes(1), "mat2_sym_sizes": saved_sizes(2)}

    @staticmethod
    def forward(bias, mat1, mat2):
        out = mat1._data @ mat2._data
        out += bias._data
        return _wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        bias, mat1, mat2 = inputs
        _, need_1, need_2 = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if need_2 else None, mat2 if need_1 else None)
        ctx.column_major = (need_1 and column_major(mat1), need_2 and column_major(mat2))
        ctx.bias_shape = bias._data.shape

    @staticmethod
    def backward(ctx, grad):
        # The bias's gradient is PyTorch's sum_to, which its engine applies to a gradient of
        # a broadcast input: recorded, a sum that keeps the dims, then a view (SumBackward1
        # under ViewBackward0); a bias of any broadcastable shape gets its own shape back.
        mat1, mat2 = ctx.saved_tensors
        return (_sum_to_size(grad, ctx.bias_shape) if ctx.needs_input_grad[0] else None,
                mm_mat1_backward(grad, mat2, ctx.column_major[0]) if mat2 is not None else None,
                mm_mat2_backward(grad, mat1, ctx.column_major[1]) if mat1 is not None else None)


def _check_linear(mat1: Tensor, weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch's errors for linear's operands. With a bias it runs addmm, which checks the
    dtypes first (the bias's, then the input's); without, a matrix product, which checks the
    shapes first and words its dtype error as ``mm`` does."""
    if bias is not None:
        for name, t in (("self", bias), ("mat1", mat1)):
            if t._data.dtype != weight._data.dtype:
                raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                   f"{_type_name(t)} and {_type_name(weight)}")
    (n, k), (m, k2) = mat1._data.shape, weight._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    _check_dtypes(mat1, weight)


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias``: the affine map of ``nn.Linear``.

    Args:
        input: ``(*, in_features)``.
        weight: ``(out_features, in_features)``.
        bias: ``(out_features,)`` or None.

    >>> import minitorch
    >>> x = minitorch.ones(2, 3)
    >>> w = minitorch.ones(4, 3, requires_grad=True)
    >>> linear(x, w, minitorch.zeros(4))
    tensor([[3., 3., 3., 3.],
            [3., 3., 3., 3.]], grad_fn=<AddmmBackward0>)
    """
    ndim = input._data.ndim
    if weight._data.ndim != 2:
        raise RuntimeError(f"linear(): weight must be 2-D, got {weight._data.ndim}-D")
    if bias is None:
        if ndim <= 2:
            if ndim == 2:
                _check_linear(input, weight, None)
            return input.matmul(weight.t())  # MmBackward0 (2-D), SqueezeBackward4 (1-D)
        from minitorch.ops.shape import UnsafeView

        flat = input.reshape(-1, input._data.shape[-1])
        _check_linear(flat, weight, None)
        return UnsafeView.apply(flat.mm(weight.t()),
                                input._data.shape[:-1] + (weight._data.shape[0],))
    if ndim == 2:
        _check_linear(input, weight, bias)
        return Addmm.apply(bias, input, weight.t())
    if not (input.is_contiguous() and bias._data.ndim == 1):
        # PyTorch: a matrix product, then the bias added in place (AddBackward0 on top)
        return input.matmul(weight.t()).add_(bias)
    # Other shapes go through a 2-D matrix and back, as in PyTorch (ViewBackward0 on top).
    flat = input.reshape(1, -1) if ndim == 1 else input.reshape(-1, input._data.shape[-1])
    _check_linear(flat, weight, bias)
    out = Addmm.apply(bias, flat, weight.t())
    return out.view(input._data.shape[:-1] + (weight._data.shape[0],))


# ====================================================================== conv2d


def _same_padding(kernel, dilation, stride) -> tuple:
    if stride != (1, 1):  # (a ValueError from the nn.Conv modules, as in PyTorch)
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for k, d in zip(kernel, dilation)]
    if any(t % 2 for t in total):
        raise NotImplementedError(
            "minitorch supports padding='same' only when it is symmetric (odd kernel sizes)"
        )
    return (total[0] // 2, total[1] // 2)


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,  # noqa: A002
           padding=0, dilation=1, groups: int = 1) -> Tensor:
    """2-D convolution of ``input`` (N, C, H, W) or (C, H, W) with ``weight`` (O, C, kh, kw).

    >>> import minitorch
    >>> x = minitorch.ones(1, 1, 3, 3)
    >>> conv2d(x, minitorch.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
    """
    if groups != 1:  # grouped (or depthwise): the N-d convolution, which splits the channels
        return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")
    ndim = input._data.ndim
    if ndim not in (3, 4):
        raise RuntimeError(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: "
            f"{_fmt_shape(input._data.shape)}"
        )
    unbatched = ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    _check_conv_bias_dtype(x, bias)
    if x._data.dtype != weight._data.dtype:
        raise RuntimeError(
            f"expected scalar type {_type_name(x)} but found {_type_name(weight)}"
        )
    kernel = weight._data.shape[2:]
    stride, dilation = _pair(stride, "stride"), _pair(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0, 0)
        elif padding == "same":
            padding = _same_padding(kernel, dilation, stride)
        else:  # (nn.Conv2d's own check is the ValueError)
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _pair(padding, "padding")
    n, c, h, w = x._data.shape
    if c != weight._data.shape[1]:
        raise RuntimeError(
            f"Given groups=1, weight of size {_fmt_shape(weight._data.shape)}, expected "
            f"input{_fmt_shape(x._data.shape)} to have {weight._data.shape[1]} channels, but "
            f"got {c} channels instead"
        )
    eff = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    if h + 2 * padding[0] < eff[0] or w + 2 * padding[1] < eff[1]:
        raise RuntimeError(
            f"Calculated padded input size per channel: ({h + 2 * padding[0]} x "
            f"{w + 2 * padding[1]}). Kernel size: ({eff[0]} x {eff[1]}). Kernel size can't be "
            "greater than actual input size"
        )
    out = Convolution.apply(x, weight, bias, stride, padding, dilation)
    return out.squeeze(0) if unbatched else out


# ====================================================================== pooling


def _pool_input(input: Tensor, name: str) -> tuple:  # noqa: A002
    """Check the input; return it with its shape as a batch, (N, C, H, W)."""
    if input._data.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    return input, _shape4d(input._data.shape)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """The maximum of each ``kernel_size`` window, moving by ``stride`` (default: the kernel).

    >>> import minitorch
    >>> x = minitorch.arange(16.0).reshape(1, 1, 4, 4)
    >>> max_pool2d(x, 2)
    tensor([[[[ 5.,  7.],
              [13., 15.]]]])
    """
    x, shape = _pool_input(input, "max_pool2d")
    unbatched = len(shape) != x._data.ndim
    geometry = _pool_geometry(shape, kernel_size, stride, padding, dilation, ceil_mode,
                              "max_pool2d", input.shape)
    if x._data.dtype == np.bool_:
        raise NotImplementedError("\"max_pool2d\" not implemented for 'Bool'")
    out = MaxPool2DWithIndices.apply(x, geometry, (ceil_mode, stride))
    if return_indices:
        node = out.grad_fn
        if isinstance(node, MaxPool2DWithIndices._backward_cls):
            which = node.which
        else:  # no graph was recorded: find the winners again
            which = _winners(x, geometry)
        idx = MaxPool2DWithIndices.indices(which, geometry, shape)
        return out, _wrap(idx[0] if unbatched else _pooling._kept_layout(idx, x._data))
    return out


def _winners(x: Tensor, geometry) -> np.ndarray:
    """The winning offset of each window, without recording anything."""

    class _Ctx:  # the little that MaxPool2DWithIndices.forward uses of a node
        pass

    ctx = _Ctx()
    MaxPool2DWithIndices.forward(ctx, x, geometry)
    return ctx.which


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """The mean of each ``kernel_size`` window.

    >>> import minitorch
    >>> avg_pool2d(minitorch.arange(16.0).reshape(1, 1, 4, 4), 2)
    tensor([[[[ 2.5000,  4.5000],
              [10.5000, 12.5000]]]])
    """
    if input._data.ndim not in (3, 4):
        n = max(input._data.ndim, 1)
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got -3)"
        )
    x, shape = _pool_input(input, "avg_pool2d")
    geometry = _pool_geometry(shape, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d",
                              input.shape)
    if divisor_override is not None:
        divisor = float(divisor_override)
    else:  # the window size, or how many of each window's positions count
        divisor = _pooling.avg_divisor(shape[2:], geometry, ceil_mode, count_include_pad,
                                       x._data.dtype)
        if not isinstance(divisor, float) and array_module(x._data) is not np:
            divisor = array_module(x._data).asarray(divisor)
    if x._data.dtype.kind != "f" and x._data.dtype != np.int64:  # PyTorch's kernels: floats, long
        raise NotImplementedError(f"\"avg_pool2d\" not implemented for '{_type_name(x)}'")
    return AvgPool2D.apply(x, geometry, divisor,
                           (ceil_mode, stride, count_include_pad, divisor_override))


# ====================================================================== batch norm
# (ggnorm2 task: the backward is one node, as PyTorch's native_batch_norm_backward)
from minitorch.nn._norm import NativeBatchNormGrad, _batch_norm_grads  # noqa: E402


class NativeBatchNorm(Function):
    """Normalise each channel to zero mean and unit variance, then scale and shift.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias``, with the batch statistics in
    training and the running estimates in evaluation.
    """

    node_name = "NativeBatchNormBackward0"
    _builtin = True
    pack_order = (0, "_saved_running_mean", "_saved_running_var", 1, "_saved_result1",
                  "_saved_result2")  # saved_tensors_hooks: PyTorch's pack order
    _edge_args = (0, 1, 2)
    saved_names = ("input", "weight")  # as PyTorch's, and (read when asked):
    saved_values = {"eps": lambda node: float(node.eps),
                    "training": lambda node: bool(node.training),
                    "running_mean": lambda node: _batch_norm_saved(node, 0),
                    "running_var": lambda node: _batch_norm_saved(node, 1),
                    "result1": lambda node: _batch_norm_saved(node, 2),  # the batch's mean
                    "result2": lambda node: _batch_norm_saved(node, 3)}  # and 1 / std

    @staticmethod
    def forward(ctx, x, weight, bias, running_mean, running_var, training, momentum, eps):
        xd = x._data
        if xd.dtype == np.float16:  # computed in float32 and rounded once, as in PyTorch
            xd = xd.astype(np.float32)
        dims = (0,) + tuple(range(2, xd.ndim))
        shape = (1, -1) + (1,) * (xd.ndim - 2)
        if training:
            mean = quietly(np.mean, xd, dims, xd.dtype)
            var = quietly(np.var, xd, dims, xd.dtype)
            if running_mean is not None:
                if ctx._record and _graph._hooks.stack:  # see pack_before
                    ctx.old_running = [t._data.copy() for t in (running_mean, running_var)]
                n = xd.size // xd.shape[1]
                m = xd.dtype.type(momentum)
                running_mean._data *= 1 - m
                running_mean._data += m * mean
                running_var._data *= 1 - m
                running_var._data += m * var * xd.dtype.type(n / max(n - 1, 1))
                _counter(running_mean).value += 1
                _counter(running_var).value += 1
        else:
            mean, var = running_mean._data.copy(), running_var._data.copy()
        invstd = 1.0 / np.sqrt(var + xd.dtype.type(eps))
        out = (xd - mean.reshape(shape)) * invstd.reshape(shape)
        if weight is not None:
            out = out * weight._data.reshape(shape)
        if bias is not None:
            out = out + bias._data.reshape(shape)
        ctx.save_for_backward(x, weight)
        ctx.training, ctx.eps, ctx.dims, ctx.shape = training, eps, dims, shape
        ctx.running = (running_mean, running_var)  # (for _saved_running_mean and _var)
        if not training:
            ctx.stats = (_wrap(mean.reshape(shape)), _wrap(invstd.reshape(shape)))
        return _wrap(out.astype(x._data.dtype, copy=False))

    @staticmethod
    @contextlib.contextmanager
    def pack_before(node):
        """``saved_tensors_hooks``: PyTorch packs the running stats before its
        kernel updates them, so they show their old values (kept by forward in a hooks block)
        while the node is packed."""
        old = node.__dict__.pop("old_running", None)
        if old is None:
            yield
            return
        new = [t._data.copy() for t in node.running]
        for t, values in zip(node.running, old):
            t._data[...] = values
        yield  # (a pack hook that raises leaves them old, as PyTorch packs before its kernel)
        for t, values in zip(node.running, new):
            t._data[...] = values

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        args = (None if ctx.training else ctx.stats, ctx.training, ctx.eps, ctx.dims,
                ctx.needs_input_grad[:3])
        if not grad_mode._state.enabled:  # not recorded: the kernel's formula, without its node
            return _batch_norm_grads(grad, x, weight, *args)
        return NativeBatchNormGrad.apply(grad, x, weight, None, None, *args)


def _batch_norm_saved(node, which):
    """``NativeBatchNormBackward0._saved_running_mean`` (0), ``_running_var`` (1), or the
    batch statistics PyTorch saves (2: the mean, 3: ``1 / sqrt(var + eps)``, per channel, in
    the input's dtype; empty float32 ones for float16 in evaluation), worked out again from
    the saved input."""
    if which < 2 and node.running[which] is None:
        return None  # None, before backward and after
    x = node.saved_tensors[0]  # (raises the freed-graph error after backward)
    if which < 2:
        return node.running[which]
    xd = x._data.astype(np.float32) if x._data.dtype == np.float16 else x._data
    if not node.training:
        return _wrap(array_module(xd).zeros(0, xd.dtype))
    if which == 2:
        stat = quietly(np.mean, xd, node.dims, xd.dtype)
    else:
        stat = 1.0 / np.sqrt(quietly(np.var, xd, node.dims, xd.dtype) + xd.dtype.type(node.eps))
    return _wrap(stat.astype(x._data.dtype, copy=False))


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa: A002
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Batch normalisation over dimension 1 (the channels) of ``input``."""
    if training:
        size = input._data.size // input._data.shape[1]
        if size == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"{input.shape}"
            )
    return _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def _batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa: A002
                weight: Tensor | None, bias: Tensor | None, training: bool, momentum: float,
                eps: float) -> Tensor:
    """:func:`batch_norm` after its Python checks (``torch.batch_norm`` has none of them)."""
    c = input._data.shape[1]
    if running_mean is not None and running_mean._data.shape[0] != c:
        raise RuntimeError(
            f"running_mean should contain {c} elements not {running_mean._data.shape[0]}"
        )
    one_missing = (running_mean is None) != (running_var is None)
    if one_missing and not training:
        missing = "running_var" if running_var is None else "running_mean"
        raise RuntimeError(f"{missing} must be defined in evaluation mode")
    if not training and running_mean is None:
        training = True  # no running estimates: always use the batch statistics
    if training and _func._vmap_state.levels:  # running statistics updated under vmap
        _func._check_batch_norm_stats(running_mean, running_var)
    if one_missing:
        raise ValueError("running_mean and running_var must either both be None or neither be "
                         "None")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"batch_norm\" not implemented for '{_type_name(input)}'")
    return NativeBatchNorm.apply(input, weight, bias, running_mean, running_var, training,
                                 momentum, eps)


# ====================================================================== embedding
class Embedding(Function):
    """Rows of ``weight`` picked by integer indices (a table lookup)."""

    node_name = "EmbeddingBackward0"
    _builtin = True
    _edge_args = (0,)  # only the weight gets a gradient
    saved_names = ("indices",)  # the index tensor, as PyTorch saves it; and (read when asked):
    saved_values = {"padding_idx": lambda node: as_int64_shown(
                        -1 if node.padding_idx is None else node.padding_idx),
                    "scale_grad_by_freq": lambda node: node.scale_grad_by_freq,
                    "sparse": lambda node: False,  # (minitorch refuses a sparse gradient)
                    "weight_sym_argsize_0": lambda node: int(node.num)}

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq=False, index_tensor=None):
        ctx.save_for_backward(index_tensor)  # the tensor of ``indices``, as PyTorch saves it
        ctx.indices, ctx.padding_idx, ctx.num = indices, padding_idx, weight._data.shape[0]
        ctx.scale_grad_by_freq = scale_grad_by_freq
        return _wrap(weight._data[indices])

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors  # noqa: B018 - unpacked (checked, hooks run) as PyTorch unpacks it
        return EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.num, ctx.padding_idx,
                                            ctx.scale_grad_by_freq)


def _inverse_counts(indices, g):
    """``1 / (how often each index occurs)``, one per index, shaped to scale its row."""
    xp = array_module(g)
    flat = indices.reshape(-1)
    counts = xp.bincount(flat, minlength=int(flat.max()) + 1 if flat.size else 0)
    return (1 / counts[flat]).astype(g.dtype)[:, None]


class EmbeddingDenseBackward(Function):
    """Add each looked-up row's gradient into its row (a row used twice gets it twice; with
    ``scale_grad_by_freq`` each is divided by how often its index occurs)."""

    node_name = "EmbeddingDenseBackwardBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, grad, indices, num, padding_idx, scale_grad_by_freq=False):
        g = grad._data
        dim = g.shape[-1]
        flat_idx = indices.reshape(-1)
        flat_g = g.reshape(-1, dim)
        if scale_grad_by_freq:
            flat_g = flat_g * _inverse_counts(indices, g)
        if padding_idx is not None:
            keep = flat_idx != padding_idx  # the padding row never learns
            flat_idx, flat_g = flat_idx[keep], flat_g[keep]
        out = array_module(g).zeros((num, dim), dtype=g.dtype)
        array_module(g).add.at(out, flat_idx, flat_g)
        ctx.indices, ctx.padding_idx = indices, padding_idx
        return _wrap(out)

    @staticmethod
    def backward(ctx, gg):
        # PyTorch's double backward (embedding_dense_double_backward) masks the padding rows
        # but does not divide by the counts: minitorch's follows it
        rows = Embedding.apply(gg, ctx.indices, None)
        if ctx.padding_idx is not None:
            shape = ctx.indices.shape + (1,)
            rows = rows * _wrap((ctx.indices != ctx.padding_idx).astype(gg._data.dtype)
                                .reshape(shape))
        return rows


def _check_indices(indices: Tensor, kernel: str, arg: str) -> None:
    if indices._data.dtype.kind not in "iu":
        raise RuntimeError(
            f"Expected tensor for argument #{arg} 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{indices.dtype._legacy} instead (while checking "
            f"arguments for {kernel})")


def _embedding_renorm_(weight: Tensor, indices: Tensor, max_norm: float,
                       norm_type: float) -> Tensor:
    """``torch.embedding_renorm_``: scale each row of ``weight`` that ``indices`` names, in
    place, so that its ``norm_type``-norm is at most ``max_norm`` (a row above it is
    multiplied by ``max_norm / (norm + 1e-7)``). Returns ``weight``."""
    _check_indices(indices, "embedding_renorm_", "2")
    if weight.dim() != 2:
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {weight.dim()}-dimensional "
                           "tensor for argument #1 'self' (while checking arguments for "
                           "embedding_renorm_)")
    if weight.requires_grad and grad_mode.is_grad_enabled():
        if weight.grad_fn is None:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                               "operation.")
        raise RuntimeError("the derivative for 'embedding_renorm_' is not implemented (minitorch "
                           "refuses it here; PyTorch would at backward)")
    num = weight.shape[0]
    flat = _to_numpy(indices._data).reshape(-1)
    bad = flat[(flat < -num) | (flat >= num)]
    if bad.size:
        raise IndexError(f"select(): index {int(bad[0])} out of range for tensor of size "
                         f"{_fmt_shape(weight.shape)} at dimension 0")
    rows = np.unique(np.where(flat < 0, flat + num, flat))
    # each row's norm on its own, as PyTorch sums it (row.norm(p))
    norms = np.array([float(_vector_norm(weight[int(r)], norm_type)) for r in rows])
    big = norms > max_norm
    if big.any():
        scale = (max_norm / (norms[big] + 1e-7)).astype(weight._data.dtype)
        xp = array_module(weight._data)
        picked = xp.asarray(rows[big])
        weight._data[picked] = weight._data[picked] * xp.asarray(scale)[:, None]
    _counter(weight).value += 1  # one in-place op, whether or not a row changed
    return weight


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,  # noqa: A002
              max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Look up the rows of ``weight`` given by the integer tensor ``input``.

    ``max_norm``: first rescale (in place, without recording it) each looked-up row whose
    ``norm_type``-norm is above it; ``scale_grad_by_freq``: divide each row's gradient by how
    often its index occurs in ``input``. ``sparse=True`` asks for a sparse gradient, which
    minitorch (no sparse tensors) refuses.
    """
    num = weight._data.shape[0]
    if padding_idx is not None:
        if padding_idx >= num or padding_idx < -num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx += num
    if max_norm is not None:
        with grad_mode.no_grad():
            _embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    return _embedding(input, weight, padding_idx, scale_grad_by_freq, sparse)


def _embedding(input: Tensor, weight: Tensor, padding_idx: int | None,  # noqa: A002
               scale_grad_by_freq: bool, sparse: bool) -> Tensor:
    """The lookup itself (``torch.embedding``), after ``embedding``'s Python checks."""
    num = weight._data.shape[0]
    _check_indices(input, "embedding", "1")
    idx = input._data
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if sparse and weight.requires_grad and grad_mode.is_grad_enabled():
        raise NotImplementedError("minitorch has no sparse tensors: embedding(..., sparse=True) "
                                  "would give the weight a sparse gradient; use sparse=False")
    return Embedding.apply(weight, idx, padding_idx, bool(scale_grad_by_freq), input)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Integer class labels -> rows of 0s with a 1 at the label (int64).

    >>> import minitorch
    >>> one_hot(minitorch.tensor([0, 2]), 3)
    tensor([[1, 0, 0],
            [0, 0, 1]])
    """
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        if not data.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    elif data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    xp = array_module(data)
    return _wrap((data[..., None] == xp.arange(num_classes)).astype(np.int64))


# ====================================================================== losses


def _warn_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=3)


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
             reduction: str = "mean", weight=None) -> Tensor:
    """The mean squared error between ``input`` and ``target`` (``nn.MSELoss``).

    >>> import minitorch
    >>> mse_loss(minitorch.tensor([1.0, 3.0]), minitorch.tensor([0.0, 0.0]))
    tensor(5.)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        _warn_size(input, target)
        return _weighted_loss(input, target, weight, reduction, lambda x, y: (x - y).pow(2))
    _check_reduction(reduction)
    _warn_size(input, target)
    return MseLoss.apply(*_broadcast_tensors(input, target), reduction)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
            reduction: str = "mean", weight: Tensor | None = None) -> Tensor:
    """The mean absolute error ``mean(|input - target|)`` (``nn.L1Loss``).

    Built from ``sub``, ``abs`` and ``mean``, as PyTorch does, so its graph shows those nodes.
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if weight is not None:
        _warn_size(input, target)
        return _weighted_loss(input, target, weight, reduction, lambda x, y: (x - y).abs())
    _check_reduction(reduction)
    _warn_size(input, target)
    x, y = _broadcast_tensors(input, target)
    return _reduce((x - y).abs(), reduction)


def _weighted_loss(input: Tensor, target: Tensor, weight: Tensor, reduction: str,  # noqa: A002
                   error, by_weights: bool = True) -> Tensor:
    """``weight * error(input, target)``, the two broadcast together, as PyTorch's weighted
    losses compute it; ``"mean"`` divides the sum by the sum of the weights (mse_loss,
    l1_loss) or by their number (``by_weights=False``: huber_loss)."""
    x, y = _broadcast_tensors(input, target)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = error(x, y) * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.sum() / weight.sum() if by_weights else loss.mean()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', "
                     "'sum'.")


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """Binary cross-entropy on probabilities in [0, 1] (``nn.BCELoss``). Prefer
    :func:`binary_cross_entropy_with_logits` on raw scores: it is more stable."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if input._data.dtype.kind != "f":
        raise NotImplementedError(
            f"\"binary_cross_entropy\" not implemented for '{_type_name(input)}'")
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    if weight is not None and weight.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("The function 'binary_cross_entropy' is not differentiable with "
                           "respect to argument 'weight'. This input cannot have requires_grad "
                           "True.")
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def _check_target(input: Tensor, target: Tensor, weight: Tensor | None) -> None:  # noqa: A002
    """PyTorch's errors for nll_loss's operands: the target's dtype and batch size, and the
    class weights (of the input's dtype, and not something to differentiate)."""
    if weight is not None:
        if weight.requires_grad and grad_mode._state.enabled:
            kernel = "nll_loss2d_forward" if input.dim() > 2 else "nll_loss_forward"
            raise RuntimeError(
                f"The function '{kernel}' is not differentiable with respect to "
                "argument 'weight'. This input cannot have requires_grad True.")
        if weight._data.dtype != input._data.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input)} but found "
                               f"{_type_name(weight)}")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(
            f"expected target dtype to be Long or Byte, but got {_type_name(target)}"
        )
    if input._data.ndim >= 2 and target._data.ndim >= 1 \
            and input._data.shape[0] != target._data.shape[0]:
        raise ValueError(
            f"Expected input batch_size ({input._data.shape[0]}) to match target batch_size "
            f"({target._data.shape[0]})."
        )


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
             size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of the target classes, given log-probabilities (``nn.NLLLoss``).

    Args:
        input: log-probabilities, (N, C) or (C,) or (N, C, d1, ...).
        target: class indices (int64), (N,) or () or (N, d1, ...).
        weight: optional per-class weight (C,).
        ignore_index: targets with this value contribute nothing (not even to the mean).
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _check_target(input, target, weight)
    ndim = input._data.ndim
    if ndim <= 2:
        return NllLoss.apply(input, target, weight, reduction, ignore_index)
    if ndim == 4:
        return NllLoss2D.apply(input, target, weight, reduction, ignore_index)
    # Other shapes are viewed as images (N, C, 1, -1), as PyTorch does.
    n, c = input._data.shape[:2]
    out = NllLoss2D.apply(input.reshape(n, c, 1, -1), target.reshape(n, 1, -1), weight,
                          reduction, ignore_index)
    return out.view(target.shape) if reduction == "none" else out


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None,  # noqa: A002
                  size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of raw scores (logits) against class indices or class probabilities.

    ``cross_entropy(x, y) = nll_loss(log_softmax(x, 1), y)``: the log-sum-exp inside
    ``log_softmax`` keeps it exact for large logits.

    Args:
        input: logits, (N, C) or (C,) or (N, C, d1, ...).
        target: class indices (int64) of shape (N,) ..., or probabilities shaped like input.
        weight: optional per-class weight (C,).
        ignore_index: class-index targets with this value are skipped.
        label_smoothing: mix the target with the uniform distribution by this amount.
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if target._data.shape == input._data.shape and target._data.dtype.kind != "f":
        # shaped like the scores, the target holds class probabilities (one-hot labels
        # included), which must be floats
        raise RuntimeError("Expected floating point type for target with class probabilities, "
                           f"got {_type_name(target)}")
    if label_smoothing == 0.0 and input._data.ndim == 2 and target._data.dtype.kind != "f":
        # The common case, (N, C) logits and class indices, without detours.
        _check_target(input, target, weight)
        return NllLoss.apply(LogSoftmax.apply(input, 1, 1), target, weight, reduction,
                             ignore_index)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(
            f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}"
        )
    class_dim = 0 if input._data.ndim == 1 else 1
    n_classes = input._data.shape[class_dim]
    wshape = [1] * input._data.ndim
    wshape[class_dim] = n_classes
    if target._data.dtype.kind == "f" and target.shape == input.shape:
        # Probability targets: -sum_c target_c log p_c, averaged over the samples.
        logp = log_softmax(input, class_dim)
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        prod = logp * target
        if weight is not None:
            prod = prod * weight.reshape(wshape)
        if reduction == "none":
            return -prod.sum(class_dim)
        if reduction == "sum":
            return -prod.sum()
        return DivScalar.apply(-prod.sum(), input.numel() // n_classes or 1)
    _check_target(input, target, weight)
    logp = log_softmax(input, class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return nll
    # Label smoothing: (1 - eps) * nll + eps * (the loss against the uniform distribution).
    ignored = _wrap(target._data == ignore_index)
    smooth = -(logp if weight is None else logp * weight.reshape(wshape)).sum(class_dim)
    smooth = smooth.masked_fill(ignored, 0.0)
    if reduction == "mean":
        if weight is None:
            denom = float((~ignored._data).sum())
        else:
            kept = target._data[~ignored._data]
            denom = float(weight._data[kept].sum())
        smooth = smooth.sum() / denom
    elif reduction == "sum":
        smooth = smooth.sum()
    return (MulScalar.apply(nll, 1 - label_smoothing)
            + MulScalar.apply(smooth, label_smoothing / n_classes))


def _adaptive_output_size(output_size, in_hw: tuple, name: str) -> tuple:
    sizes = (output_size,) * 2 if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2:
        raise RuntimeError(f"{name}: output_size must be 2" if name == "adaptive_avg_pool2d"
                           else f"{name}(): internal error: output_size.size() must be 2")
    return tuple(i if o is None else int(o) for o, i in zip(sizes, in_hw))


def _adaptive_input(input: Tensor, name: str, colon: str = "") -> None:  # noqa: A002
    if input.dim() not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got{colon} "
                           f"[{', '.join(map(str, input.shape))}]")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"{name}" not implemented for '
                                  f"'{input.dtype._legacy[:-6]}'")
    # (interpolate's mode "area" pools through here); the max pool checks the channels too
    for i in range(1 - input.dim(), 0) if "max" in name else (-2, -1):
        if input.shape[i] == 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {i + input.dim()} being empty")


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average-pool ``(N, C, H, W)`` (or ``(C, H, W)``) to ``output_size`` whatever the input
    size (an int, or ``(h, w)`` where None keeps that dimension).

    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> F.adaptive_avg_pool2d(minitorch.ones(1, 3, 7, 5), (2, 2)).shape
    torch.Size([1, 3, 2, 2])
    """
    _adaptive_input(input, "adaptive_avg_pool2d")
    out_hw = _adaptive_output_size(output_size, tuple(input.shape[-2:]), "adaptive_avg_pool2d")
    if out_hw == (1, 1):  # global average pooling: PyTorch takes the mean
        return input.mean((-1, -2), keepdim=True)  # (its dims in this order)
    return AdaptiveAvgPool2D.apply(input, out_hw)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max-pool to ``output_size`` (see :func:`adaptive_avg_pool2d`); with
    ``return_indices=True`` also the position of each maximum in its ``H * W`` plane."""
    _adaptive_input(input, "adaptive_max_pool2d", ":")
    out_hw = _adaptive_output_size(output_size, tuple(input.shape[-2:]), "adaptive_max_pool2d")
    out, idx = AdaptiveMaxPool2D.apply(input, out_hw)
    return (out, idx) if return_indices else out


def _check_1d(input: Tensor, name: str) -> None:  # noqa: A002
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for {name})")


def _single(output_size) -> int:
    return int(output_size[0] if isinstance(output_size, (tuple, list)) else output_size)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average-pool ``(N, C, L)`` (or ``(C, L)``) to length ``output_size``."""
    _check_1d(input, "adaptive_avg_pool1d")
    out = adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size)))
    return out.squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max-pool ``(N, C, L)`` (or ``(C, L)``) to length ``output_size``."""
    _check_1d(input, "adaptive_max_pool1d")
    out, idx = adaptive_max_pool2d(input.unsqueeze(-2), (1, _single(output_size)), True)
    out, idx = out.squeeze(-2), idx.squeeze(-2)
    return (out, idx) if return_indices else out


# ====================================================================== issue 26's layers
# GELU/SiLU, layer and group norm, conv1d and conv_transpose2d, interpolate, and the robust
# losses; their Function classes live in _activation, _norm, _conv_nd, _upsample and
# _robust_loss.
from minitorch.nn._activation import Gelu, Silu  # noqa: E402
from minitorch.nn._conv_nd import ConvolutionTranspose  # noqa: E402
from minitorch.nn._norm import NativeGroupNorm, NativeLayerNorm  # noqa: E402
from minitorch.nn._robust_loss import HuberLoss, SmoothL1Loss, Xlogy  # noqa: E402
from minitorch.nn._upsample import (  # noqa: E402
    _antialias_plan,
    _source_index,
    _upsample_class,
)

__all__ += ["gelu", "silu", "layer_norm", "group_norm", "conv1d", "conv_transpose2d",
            "interpolate", "kl_div", "smooth_l1_loss", "huber_loss"]


def _check_float_input(input: Tensor, kernel: str) -> None:  # noqa: A002
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    """``x * Phi(x)``, with ``Phi`` the standard normal CDF (``approximate="tanh"``: its
    tanh approximation). The activation of BERT and GPT.

    >>> import minitorch
    >>> gelu(minitorch.tensor([-1.0, 0.0, 1.0]))
    tensor([-0.1587,  0.0000,  0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _check_float_input(input, "GeluKernelImpl")
    return Gelu.apply(input, approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x * sigmoid(x)`` (also called swish).

    >>> import minitorch
    >>> silu(minitorch.tensor([-1.0, 0.0, 1.0]))
    tensor([-0.2689,  0.0000,  0.7311])
    """
    _check_float_input(input, "silu_cpu")
    if inplace:
        return input._inplace(Silu.apply, True)
    return Silu.apply(input)


def layer_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the last ``len(normalized_shape)`` dimensions of ``input`` (each sample,
    each token, on its own), then scale by ``weight`` and shift by ``bias``."""
    if isinstance(normalized_shape, int) or not isinstance(normalized_shape, (tuple, list)):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple "
                        f"of ints, not {type(normalized_shape).__name__}")
    shape = tuple(int(s) for s in normalized_shape)
    n = len(shape)
    have = input._data.shape
    if n == 0 or len(have) < n or tuple(have[len(have) - n:]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(have)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but "
                               f"got {name} of shape {list(t.shape)} and normalized_shape = "
                               f"{list(shape)}")
    _check_float_input(input, "LayerNormKernelImpl")
    params = [t for t in (weight, bias) if t is not None]
    if any(t._data.dtype != input._data.dtype for t in params):  # PyTorch's CPU rule: only a
        if any(t._data.dtype != np.float32 for t in params):  # float16 input may have float32
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        if input._data.dtype != np.float16:  # weights (mixed precision)
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return NativeLayerNorm.apply(input, weight, bias, n, eps)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,  # noqa: A002
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Split the channels (dimension 1) of each sample into ``num_groups`` groups and
    normalise each group; then a per-channel ``weight`` and ``bias``."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    c = input._data.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.shape[0] != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of "
                               f"channels in input, but got {name} of shape {list(t.shape)} "
                               f"and input of shape {list(input.shape)}")
    _check_float_input(input, "GroupNormKernelImpl")
    return NativeGroupNorm.apply(input, weight, bias, num_groups, eps)[0]


def _one(value, name: str) -> int:
    if isinstance(value, (tuple, list)):
        if len(value) != 1:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of 1 "
                               f"values to match the convolution dimensions, but got "
                               f"{name}={list(value)}")
        return int(value[0])
    return int(value)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,  # noqa: A002
           padding=0, dilation=1, groups: int = 1) -> Tensor:
    """1-d convolution of ``input`` (N, C, L) or (C, L) with ``weight`` (O, C, k).

    >>> import minitorch
    >>> conv1d(minitorch.ones(1, 1, 4), minitorch.ones(1, 1, 2))
    tensor([[[2., 2., 2.]]])
    """
    if groups != 1:  # grouped (or depthwise): the N-d convolution, which splits the channels
        return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")
    if input._data.ndim not in (2, 3):
        raise RuntimeError("Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
                           f"input of size: {_fmt_shape(input._data.shape)}")
    unbatched = input._data.ndim == 2
    x = input.unsqueeze(0) if unbatched else input
    _check_conv_bias_dtype(x, bias)
    if x._data.dtype != weight._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(x)} but found {_type_name(weight)}")
    k = weight._data.shape[2]
    stride, dilation = _one(stride, "stride"), _one(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            padding = _same_padding((k, 1), (dilation, 1), (stride, 1))[0]
        else:  # (nn.Conv1d's own check is the ValueError)
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _one(padding, "padding")
    c, length = x._data.shape[1:]
    if c != weight._data.shape[1]:
        raise RuntimeError(
            f"Given groups=1, weight of size {_fmt_shape(weight._data.shape)}, expected "
            f"input{_fmt_shape(x._data.shape)} to have {weight._data.shape[1]} channels, but "
            f"got {c} channels instead")
    if length + 2 * padding < dilation * (k - 1) + 1:
        raise RuntimeError(f"Calculated padded input size per channel: ({length + 2 * padding})"
                           f". Kernel size: ({dilation * (k - 1) + 1}). Kernel size can't be "
                           "greater than actual input size")
    out = Convolution.apply(x, weight, bias, (stride,), (padding,), (dilation,))
    return out.squeeze(0) if unbatched else out


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride=1, padding=0, output_padding=0, groups: int = 1,
                     dilation=1) -> Tensor:
    """2-d transposed convolution ("deconvolution") of ``input`` (N, C_in, H, W) with
    ``weight`` (C_in, C_out, kh, kw): each input pixel adds ``weight`` times its value to a
    patch of the output, which is ``(H - 1) * stride - 2 * padding + dilation * (kh - 1) +
    output_padding + 1`` high. It is the gradient of ``conv2d`` with respect to its input.

    >>> import minitorch
    >>> conv_transpose2d(minitorch.ones(1, 1, 2, 2), minitorch.ones(1, 1, 2, 2)).shape
    torch.Size([1, 1, 3, 3])
    """
    if groups != 1:  # grouped: the N-d transposed convolution
        return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups,
                                  dilation, 2, "conv_transpose2d")
    if input._data.ndim not in (3, 4):
        raise RuntimeError("Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, "
                           f"but got input of size: {_fmt_shape(input._data.shape)}")
    unbatched = input._data.ndim == 3
    x = input.unsqueeze(0) if unbatched else input
    if x._data.dtype != weight._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(x)} but found {_type_name(weight)}")
    stride, padding = _pair(stride, "stride"), _pair(padding, "padding")
    dilation, output_padding = _pair(dilation, "dilation"), _pair(output_padding,
                                                                  "output_padding")
    n, c, h, w = x._data.shape
    if c != weight._data.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {_fmt_shape(weight._data.shape)}, expected "
            f"input{_fmt_shape(x._data.shape)} to have {weight._data.shape[0]} channels, but "
            f"got {c} channels instead")
    if any(op >= max(s, d) for op, s, d in zip(output_padding, stride, dilation)):
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            f"output_padding_height: {output_padding[0]} output_padding_width: "
            f"{output_padding[1]} stride_height: {stride[0]} stride_width: {stride[1]} "
            f"dilation_height: {dilation[0]} dilation_width: {dilation[1]}")
    kh, kw = weight._data.shape[2:]
    size = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, s, p, d, k, op in zip(
        (h, w), stride, padding, dilation, (kh, kw), output_padding)]
    if min(size) < 1:
        raise RuntimeError(f"Given input size per channel: ({h} x {w}). Calculated output size "
                           f"per channel: ({size[0]} x {size[1]}). Output size is too small")
    out_shape = (n, weight._data.shape[1], size[0], size[1])
    out = ConvolutionTranspose.apply(x, weight, bias, stride, padding, dilation, out_shape)
    return out.squeeze(0) if unbatched else out


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",  # noqa: A002
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dimensions of ``input`` (N, C, L), (N, C, H, W) or (N, C, D, H, W)
    to ``size``, or by ``scale_factor``. Modes: ``"nearest"`` (the default) and
    ``"nearest-exact"`` for any of them, ``"linear"`` for 3-D input, ``"bilinear"`` and
    ``"bicubic"`` for 4-D, ``"area"`` (adaptive average pooling to the output size) for 3-D
    and 4-D. The checks come in PyTorch's order.

    >>> import minitorch
    >>> interpolate(minitorch.tensor([[[1.0, 2.0]]]), scale_factor=2)
    tensor([[[1., 1., 2., 2.]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    in_sizes = list(input._data.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (tuple, list)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got "
                    f"input with spatial dimensions of {in_sizes} and output size of {size}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                    "size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(s) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] "
                                "or Tuple[int, int, int], but got size with types "
                                f"{[type(s) for s in size]}")
            sizes = [int(s) for s in size]
        else:
            sizes = [int(size)] * max(dim, 0)
        scales = [None] * len(sizes)
    elif scale_factor is not None:
        scales = list(scale_factor) if isinstance(scale_factor, (tuple, list)) else \
            [scale_factor] * max(dim, 0)
        if len(scales) != dim and isinstance(scale_factor, (tuple, list)):
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but "
                f"got input with spatial dimensions of {in_sizes} and scale_factor of shape "
                f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                "and scale_factor in (s1, s2, ...,sK) format.")
        sizes = [int(np.floor(float(n) * float(s))) for n, s in zip(in_sizes, scales)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or mode == "area":  # the kernel sees the output size only
        scales = [None] * len(sizes)
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    kernels = {"nearest": (1, 2, 3), "nearest-exact": (1, 2, 3), "area": (1, 2, 3),
               "linear": (1,), "bilinear": (2,), "bicubic": (2,)}
    if mode == "lanczos" and dim == 2:
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        raise NotImplementedError("minitorch's interpolate does not implement mode 'lanczos' "
                                  "(PyTorch's _upsample_lanczos2d_aa) yet")
    if dim not in kernels.get(mode, ()):
        needs = {"linear": 1, "bilinear": 2, "trilinear": 3}.get(mode)
        if needs is not None and needs != dim and dim in (1, 2, 3):
            raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                      f"{needs + 2}D input")
        if mode == "trilinear" and dim == 3:
            raise NotImplementedError("minitorch's interpolate has no mode 'trilinear'")
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})")
    if mode == "area":
        pool = {1: adaptive_avg_pool1d, 2: adaptive_avg_pool2d, 3: adaptive_avg_pool3d}[dim]
        return pool(input, sizes)
    kernel = "nearest" if mode.startswith("nearest") else mode
    if min(in_sizes) < 1 or min(sizes) < 1:
        names = "DHW"[3 - dim:]
        ins = ", ".join(f"{c}: {n}" for c, n in zip(names, in_sizes))
        outs = ", ".join(f"{c}: {n}" for c, n in zip(names, sizes))
        joint = " and" if dim == 1 else ""
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({ins}){joint} output ({outs})")
    if input._data.shape[1] == 0:  # (an empty batch is fine)
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor "
                           f"with sizes {list(input.shape)}")
    if antialias and input._data.dtype not in (np.float32, np.float64):
        raise NotImplementedError('"compute_index_ranges_weights" not implemented for '
                                  f"'{_type_name(input)}'")
    _check_float_input(input, "compute_indices_weights_cubic" if mode == "bicubic"
                       else f"upsample_{kernel}{dim}d_channels_last")
    plan = _antialias_plan if antialias else _source_index
    plans = tuple(plan(mode, n, out, s, bool(align_corners), input._data.dtype)
                  for n, out, s in zip(in_sizes, sizes, scales))
    return _upsample_class(mode + "-aa" * bool(antialias), dim).apply(input, plans)


def _is_integer(x) -> bool:
    """An int, a NumPy integer or an integer Tensor (what PyTorch accepts as a size)."""
    if isinstance(x, Tensor):
        return not x.dtype.is_floating_point
    return isinstance(x, (int, np.integer))


def _check_loss_inputs(input: Tensor, target: Tensor, kernel: str):  # noqa: A002
    _warn_size(input, target)
    if input._data.dtype.kind != "f" and target._data.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')
    try:
        shape = np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        from minitorch.ops._util import broadcast_error

        raise broadcast_error(input._data.shape, target._data.shape) from None
    if tuple(shape) != tuple(input._data.shape):
        input = input.expand(shape)  # noqa: A001
    if tuple(shape) != tuple(target._data.shape):
        target = target.expand(shape)
    return input, target


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """``0.5 d^2 / beta`` where ``|d| < beta``, else ``|d| - beta / 2`` (``d = input -
    target``): quadratic near 0 and linear far out, so outliers do not dominate
    (``nn.SmoothL1Loss``). ``beta=0`` is the L1 loss."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    if not beta >= 0:  # NaN too, as in PyTorch
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)
    x, y = _check_loss_inputs(input, target, "smooth_l1_cpu")
    return SmoothL1Loss.apply(x, y, reduction, float(beta))


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",  # noqa: A002
               delta: float = 1.0, weight=None) -> Tensor:
    """``0.5 d^2`` where ``|d| < delta``, else ``delta (|d| - delta / 2)`` (``nn.HuberLoss``):
    smooth L1 scaled by ``delta``. The loss has ``input``'s dtype; with ``weight`` (of its
    shape), each element's loss is weighted first."""
    if weight is not None:
        _warn_size(input, target)
        return _weighted_loss(input, target, weight, reduction,
                              lambda x, y: huber_loss(x, y, "none", delta), by_weights=False)
    _check_reduction(reduction)
    if not delta > 0:  # NaN too, as in PyTorch
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    x, y = _check_loss_inputs(input, target, "huber_cpu")
    return HuberLoss.apply(x, y, reduction, float(delta))


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """The Kullback-Leibler divergence ``sum target (log target - input)``, with ``input``
    given as log-probabilities (and ``target`` too with ``log_target=True``).
    ``reduction="batchmean"`` divides the sum by the batch size, the true KL divergence;
    ``"mean"`` (the default, with PyTorch's warning) divides by the number of elements."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if reduction not in ("mean", "sum", "none", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", UserWarning, stacklevel=2)
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input: Tensor, target: Tensor, reduction: str, log_target: bool) -> Tensor:  # noqa: A002
    """:func:`kl_div` after its Python checks and warning (``torch.kl_div`` has none)."""
    if input._data.dtype.kind != "f" or target._data.dtype.kind != "f":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    # (made in the order PyTorch's C++ makes them, right operand first, so that a recorded
    # gradient adds its parts in PyTorch's order)
    if log_target:
        difference = target - input
        loss = target.exp() * difference
    else:
        product = target * input
        loss = Xlogy.apply(target, target) - product
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    total = loss.sum()
    return total / input.shape[0] if reduction == "batchmean" and input.dim() else total


# ====================================================================== more activations
# softplus, ELU/SELU/CELU, logsigmoid, hardtanh/relu6, hardsigmoid, hardswish, mish (their
# Function classes live in _activation), and softsign and tanhshrink, which PyTorch writes
# with tensor operations.
from minitorch.nn._activation import (  # noqa: E402
    SELU_ALPHA,
    SELU_SCALE,
    Celu,
    CeluInplace,
    Elu,
    EluInplace,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LogSigmoid,
    Mish,
    Softplus,
    _result,
)

__all__ += ["softplus", "elu", "elu_", "selu", "selu_", "celu", "celu_", "logsigmoid",
            "hardtanh", "hardtanh_", "relu6", "hardsigmoid", "hardswish", "mish", "softsign",
            "tanhshrink"]


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    """``log(1 + exp(beta x)) / beta``, a smooth ReLU; ``x`` itself where
    ``beta x > threshold`` (where the two agree to float precision).

    >>> import minitorch
    >>> softplus(minitorch.tensor([-1.0, 0.0, 30.0]))
    tensor([ 0.3133,  0.6931, 30.0000])
    """
    _check_float_input(input, "softplus_cpu")
    return Softplus.apply(input, beta, threshold)


def _elu(input: Tensor, inplace: bool, coefs: tuple, cls, inplace_cls) -> Tensor:  # noqa: A002
    _check_float_input(input, "elu_cpu")
    if inplace:
        return input._inplace(inplace_cls.apply, *coefs)
    return cls.apply(input, *coefs)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``: a ReLU whose negative side bends
    smoothly down to ``-alpha``.

    >>> import minitorch
    >>> elu(minitorch.tensor([-1.0, 0.0, 2.0]))
    tensor([-0.6321,  0.0000,  2.0000])
    """
    return _elu(input, inplace, (alpha, 1.0, 1.0), Elu, EluInplace)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """In-place :func:`elu`."""
    return elu(input, alpha, inplace=True)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``scale * elu(x, alpha)`` with the constants that keep activations normalised
    (``alpha = 1.6733``, ``scale = 1.0507``)."""
    return _elu(input, inplace, (SELU_ALPHA, SELU_SCALE, 1.0), Elu, EluInplace)


def selu_(input: Tensor) -> Tensor:  # noqa: A002
    """In-place :func:`selu`."""
    return selu(input, inplace=True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x`` for ``x > 0``, else ``alpha * (exp(x / alpha) - 1)`` (continuously
    differentiable for every ``alpha``)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _elu(input, inplace, (alpha, 1.0, 1.0 / alpha), Celu, CeluInplace)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    """In-place :func:`celu`."""
    return celu(input, alpha, inplace=True)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """``log(sigmoid(x))``, computed without overflow.

    >>> import minitorch
    >>> logsigmoid(minitorch.tensor([-100.0, 0.0]))
    tensor([-100.0000,   -0.6931])
    """
    _check_float_input(input, "log_sigmoid_cpu")
    return LogSigmoid.apply(input)


def _hardtanh(input: Tensor, min_val, max_val, inplace: bool) -> Tensor:  # noqa: A002
    kind = input._data.dtype.kind
    if kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if kind == "u" and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if inplace:
        return input._inplace(Hardtanh.apply, min_val, max_val, True)
    return Hardtanh.apply(input, min_val, max_val)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Tensor:
    """``x`` clipped to ``[min_val, max_val]``; the gradient is 0 at the limits and beyond.

    >>> import minitorch
    >>> hardtanh(minitorch.tensor([-2.0, 0.5, 2.0]))
    tensor([-1.0000,  0.5000,  1.0000])
    """
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh(input, min_val, max_val, inplace)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """In-place :func:`hardtanh`."""
    return _hardtanh(input, min_val, max_val, True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``min(max(x, 0), 6)``: ``hardtanh`` with limits 0 and 6 (its node is PyTorch's
    ``HardtanhBackward0``)."""
    return _hardtanh(input, 0.0, 6.0, inplace)


def _unary_activation(input: Tensor, inplace: bool, cls, kernel: str) -> Tensor:  # noqa: A002
    _check_float_input(input, kernel)
    if inplace:  # (the gradient reads a clone of the input made before the change)
        return input._inplace(cls.apply, True)
    return cls.apply(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``min(max(x + 3, 0), 6) / 6``: a piecewise-linear sigmoid."""
    return _unary_activation(input, inplace, Hardsigmoid, "hardsigmoid_cpu")


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x * hardsigmoid(x)``: a piecewise version of ``silu`` (MobileNetV3)."""
    return _unary_activation(input, inplace, Hardswish, "hardswish_cpu")


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``x * tanh(softplus(x))``.

    >>> import minitorch
    >>> mish(minitorch.tensor([-1.0, 0.0, 1.0]))
    tensor([-0.3034,  0.0000,  0.8651])
    """
    return _unary_activation(input, inplace, Mish, "mish_cpu")


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """``x / (1 + |x|)``, written as PyTorch writes it (so its node is ``DivBackward0``)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """``x - tanh(x)`` (its node is ``SubBackward0``)."""
    return input - input.tanh()


# ====================================================================== padding and distances
# F.pad (its Function classes live in _padding), normalize, cosine_similarity and
# pairwise_distance, written with tensor operations as PyTorch writes them.
from minitorch import _dtype  # noqa: E402
from minitorch._out import with_out as _with_out  # noqa: E402
from minitorch.nn._padding import (  # noqa: E402
    GATHER_PADS,
    ConstantPadNd,
    NormDim,
)
from minitorch.ops._util import broadcast_error  # noqa: E402
from minitorch.ops.arithmetic import div as _div  # noqa: E402
from minitorch.ops.reduction import vector_norm as _vector_norm  # noqa: E402

__all__ += ["pad", "normalize", "cosine_similarity", "pairwise_distance"]

_PAD_MODES = ("constant", "reflect", "replicate", "circular")


def _check_pad_args(input, pad, mode, value) -> tuple:  # noqa: A002
    """PyTorch's argument checks of ``F.pad`` (its TypeErrors); ``pad`` as a tuple."""
    if not isinstance(input, Tensor):
        raise TypeError(f"pad(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    if not isinstance(pad, (tuple, list)):
        raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, not "
                        f"{type(pad).__name__}")
    for i, p in enumerate(pad):
        if not isinstance(p, (int, np.integer)) or isinstance(p, bool):
            raise TypeError(f"pad(): argument 'pad' (position 2) must be tuple of ints, but "
                            f"found element of type {type(p).__name__} at pos {i}")
    if not isinstance(mode, str):
        raise TypeError(f"pad(): argument 'mode' (position 3) must be str, not "
                        f"{type(mode).__name__}")
    if value is not None and not isinstance(value, (int, float, np.number)):
        raise TypeError(f"pad(): argument 'value' (position 4) must be float, not "
                        f"{type(value).__name__}")
    return tuple(int(p) for p in pad)


def _constant_pad(input: Tensor, pad: tuple, value) -> Tensor:  # noqa: A002
    shape = input._data.shape
    lead = len(shape) - len(pad) // 2
    for i, n in enumerate(shape[lead:]):  # a negative pad crops, as narrow() would
        before, after = pad[2 * (len(shape) - lead - i - 1):][:2]
        if n + min(before, 0) < 0 or n + min(before, 0) + min(after, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    value = float(value or 0.0)
    if value < 0 and input.dtype == _dtype.uint8:  # a float is not wrapped, unlike an int
        raise RuntimeError("value cannot be converted to type uint8_t without overflow")
    fill = _dtype.number_as(value, input.dtype)
    return ConstantPadNd.apply(input, pad, fill)


def _non_constant_pad(input: Tensor, pad: tuple, mode: str) -> Tensor:  # noqa: A002
    shape, k = list(input._data.shape), len(pad) // 2
    if k not in (1, 2, 3) or len(shape) not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {len(shape)}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    sizes = [(n, n + pad[2 * i] + pad[2 * i + 1])
             for i, n in enumerate(reversed(shape[-k:]))]  # (in, out): W first, then H, D
    if mode == "circular":
        return _circular_pad(input, pad, sizes)
    if 0 in shape[len(shape) - k - 1 + (len(shape) == k + 2):]:
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"{shape}")
    for i, (n, _) in enumerate(sizes):
        if mode == "reflect" and not (pad[2 * i] < n and pad[2 * i + 1] < n):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding "
                               f"({pad[2 * i]}, {pad[2 * i + 1]}) at dimension "
                               f"{len(shape) - 1 - i} of input {shape}")
    if k == 1 and sizes[0][1] < 1:
        raise RuntimeError(f"input (W: {sizes[0][0]}) is too small. Calculated output W: "
                           f"{sizes[0][1]}")
    out_shape = shape[:-k] + [m for _, m in reversed(sizes)]
    if any(m < 0 for _, m in sizes):
        if mode == "reflect" and k == 2:
            raise RuntimeError("numel: integer multiplication overflow")
        negative = min(m for _, m in sizes)
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative}: "
                           f"{out_shape}")
    if input.dtype == _dtype.bool:
        kernel = ("reflection" if mode == "reflect" else "replication") + f"_pad{k}d"
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    cls = GATHER_PADS[mode, k]
    return cls.apply(input, pad, cls)


def _circular_pad(input: Tensor, pad: tuple, sizes: list) -> Tensor:  # noqa: A002
    """PyTorch's ``_pad_circular``: the input copied into the middle of a new tensor, then each
    border copied from the other side (so its node is ``CopySlices``)."""
    for i, (n, m) in enumerate(sizes):
        if not (pad[2 * i] <= n and pad[2 * i + 1] <= n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if m < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")
    ndim, k = input.dim(), len(sizes)
    out = input.new_empty(list(input.shape[:ndim - k]) + [m for _, m in reversed(sizes)])

    def span(t: Tensor, dim: int, start: int, stop: int) -> Tensor:  # PyTorch's slice
        return t.narrow(dim, start, stop - start)

    out_middle, in_middle = out, input
    for i, (n, m) in enumerate(sizes):
        dim, before, after = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        out_middle = span(out_middle, dim, max(before, 0), m - max(after, 0))
        in_middle = span(in_middle, dim, max(-before, 0), n - max(-after, 0))
    out_middle.copy_(in_middle)
    for i, (_, m) in enumerate(sizes):
        dim, before, after = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        if before > 0:
            span(out, dim, 0, before).copy_(
                span(out, dim, m - before - max(after, 0), m - max(after, 0)))
        if after > 0:
            span(out, dim, m - after, m).copy_(
                span(out, dim, max(before, 0), max(before, 0) + after))
    return out


def pad(input: Tensor, pad, mode: str = "constant", value: float | None = None) -> Tensor:  # noqa: A002
    """Pad ``input``: ``pad = (left, right)`` for the last dimension, ``(left, right, top,
    bottom)`` for the last two, and so on (a negative pad crops). ``mode``: ``"constant"``
    (a border of ``value``, any number of dimensions), ``"reflect"`` (the mirror image without
    the edge), ``"replicate"`` (the edge repeated) or ``"circular"`` (the other side); those
    three pad the last 1, 2 or 3 dimensions of a tensor with one or two more (batch, channels).

    >>> import minitorch
    >>> pad(minitorch.tensor([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
    tensor([[3., 2., 1., 2., 3., 2.]])
    """
    pad = _check_pad_args(input, pad, mode, value)
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input "
                           f"dimension but got padding length {len(pad)} and input of dimension "
                           f"{input.dim()}")
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        return _constant_pad(input, pad, value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    return _non_constant_pad(input, pad, mode)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,  # noqa: A002
              out: Tensor | None = None) -> Tensor:
    """``input / max(||input||_p, eps)`` along ``dim``: each slice scaled to norm 1.

    >>> import minitorch
    >>> normalize(minitorch.tensor([[3.0, 4.0]]))
    tensor([[0.6000, 0.8000]])
    """
    norm = input.norm(p, dim, keepdim=True)
    if out is not None:
        return _with_out(_div)(input, norm.clamp_min_(eps).expand_as(input), out=out)
    return input / norm.clamp_min(eps).expand_as(input)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """The cosine of the angle between ``x1`` and ``x2`` (broadcast together) along ``dim``:
    as PyTorch, each divided by its norm first (each norm at least ``eps``; the clamp is not
    differentiated), then the dot product of the two.

    >>> import minitorch
    >>> cosine_similarity(minitorch.tensor([[1.0, 0.0]]), minitorch.tensor([[1.0, 1.0]]))
    tensor([0.7071])
    """
    common = _dtype.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{common._legacy[:-6]}")
    x1 = x1 if x1.is_floating_point() else x1.to(common)
    x2 = x2 if x2.is_floating_point() else x2.to(common)
    if x1.shape != x2.shape:
        try:
            shape = np.broadcast_shapes(tuple(x1.shape), tuple(x2.shape))
        except ValueError:
            raise broadcast_error(x1.shape, x2.shape) from None
        x1, x2 = x1.expand(shape), x2.expand(shape)  # PyTorch's expand_outplace: both
    n1 = _vector_norm(x1, 2, dim, keepdim=True).clone()
    n2 = _vector_norm(x2, 2, dim, keepdim=True).clone()
    with grad_mode.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    q2 = x2 / n2  # (first, as PyTorch's: what saved_tensors_hooks see comes in its order)
    return ((x1 / n1) * q2).sum(dim)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """``||x1 - x2 + eps||_p`` over the last dimension (of the two broadcast together).

    >>> import minitorch
    >>> pairwise_distance(minitorch.tensor([[0.0, 0.0]]), minitorch.tensor([[3.0, 4.0]]), eps=0)
    tensor([5.])
    """
    innermost = max(x1.dim(), x2.dim()) - 1
    diff = x1 - x2
    if not diff.is_floating_point():  # an integer difference plus a float: the default dtype
        diff = diff.to(_dtype.get_default_dtype())
    diff = AddScalar.apply(diff, eps)
    return NormDim.apply(diff, float(p), (innermost,) if innermost >= 0 else (), keepdim)


# ====================================================================== attention
# scaled_dot_product_attention (its arithmetic and fused Function live in _attention), rms_norm,
# and multi_head_attention_forward, the whole of nn.MultiheadAttention's computation, written as
# PyTorch writes it in Python, step by step, so that the same seed gives the same numbers.

from minitorch import _creation  # noqa: E402
from minitorch._dtype import CPP_NAMES  # noqa: E402
from minitorch.nn import _attention  # noqa: E402
from minitorch.ops.linalg import baddbmm as _baddbmm  # noqa: E402
from minitorch.ops.shape import cat  # noqa: E402

__all__ += ["scaled_dot_product_attention", "rms_norm", "multi_head_attention_forward"]


def _check_attention_inputs(query: Tensor, key: Tensor, value: Tensor,
                            attn_mask: Tensor | None) -> None:
    """PyTorch's checks of scaled_dot_product_attention's arguments, in its order."""
    for position, (arg, t) in enumerate((("query", query), ("key", key), ("value", value)), 1):
        check_tensor(t, "scaled_dot_product_attention", arg, position)
    if attn_mask is not None and not isinstance(attn_mask, Tensor):  # passed by keyword
        raise TypeError("scaled_dot_product_attention(): argument 'attn_mask' must be Tensor, "
                        f"not {type(attn_mask).__name__}")
    names = [CPP_NAMES[t.dtype.name] for t in (query, key, value)]
    if len(set(names)) > 1:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {names[0]} key.dtype: {names[1]} and value.dtype: "
                           f"{names[2]} instead.")
    if min(query.dim(), key.dim(), value.dim()) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.dim()} key.dim: {key.dim()} and "
                           f"value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype not in (_dtype.bool, _dtype.float32,
                                                         query.dtype):
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {CPP_NAMES[attn_mask.dtype.name]} "
                           f"and  query.dtype: {names[0]} instead.")


def _fused_attention_fits(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None,
                          dropout_p: float, enable_gqa: bool) -> bool:
    """Whether PyTorch's CPU takes its fused kernel (sdp_utils_cpp.cpp): 4-d inputs of one
    batch size and head count (``enable_gqa``: keys and values with a divisor of the query's
    head count), one head size, no dropout, keys and queries to attend, a 2-d or 4-d mask
    needing no gradient, and each input's last dimension with stride 1 (a transposed input
    takes the math path)."""
    if dropout_p > 0.0 or not q.dim() == k.dim() == v.dim() == 4:
        return False
    if not q.shape[0] == k.shape[0] == v.shape[0]:
        return False
    if enable_gqa:
        if k.shape[1] != v.shape[1] or q.shape[1] % k.shape[1]:
            return False
    elif not q.shape[1] == k.shape[1] == v.shape[1]:
        return False
    if mask is not None and (mask.dim() not in (2, 4) or mask.requires_grad):
        return False
    if not q.shape[-1] == k.shape[-1] == v.shape[-1]:
        return False
    if not (q.shape[-2] > 0 and k.shape[-2] > 0):
        return False
    return all(t.stride(-1) == 1 for t in (q, k, v) + (() if mask is None else (mask,)))


def _repeat_kv_heads(query: Tensor, key: Tensor, value: Tensor) -> tuple:
    """``enable_gqa`` on the math path: keys and values with each head (dimension -3)
    repeated for the group of query heads it serves (both, once any head count differs)."""
    heads_q, heads_k, heads_v = query.size(-3), key.size(-3), value.size(-3)
    if heads_q % heads_k or heads_q % heads_v:
        raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
    if heads_q == heads_k == heads_v:
        return key, value
    return (key.repeat_interleave(heads_q // heads_k, -3),
            value.repeat_interleave(heads_q // heads_v, -3))


def _empty_attention(query: Tensor, key: Tensor, value: Tensor) -> Tensor:
    """PyTorch's answer where there is no query or no value: zeros of the result's shape,
    tied to all three inputs by their sums times 0 (so that each gets a zero gradient of its
    own shape rather than none)."""
    shape = tuple(query.shape[:-1]) + (value.shape[-1],)
    zeros = _creation.zeros(shape, dtype=query.dtype, device=query.device)
    return zeros + MulScalar.apply(query.sum() + key.sum() + value.sum(), 0)


def _additive_mask(mask: Tensor | None, query: Tensor) -> Tensor | None:
    """A bool mask (True: may attend) as the float one added to the scores: 0 or -inf."""
    if mask is None or mask.dtype != _dtype.bool:
        return mask
    return _creation.zeros(mask.shape, dtype=query.dtype, device=query.device).masked_fill(
        mask.logical_not(), float("-inf"))


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Tensor | None = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(query key^T * scale + mask) value`` over the last two dimensions: each
    query's weighted mean of the values, weighted by how well it matches each key.

    Args:
        query: ``(..., L, E)``; key: ``(..., S, E)``; value: ``(..., S, Ev)``.
        attn_mask: broadcast to ``(..., L, S)``; bool (True: may attend) or float (added to
            the scores, ``-inf`` to forbid).
        dropout_p: dropout on the attention weights (always applied: pass 0.0 in evaluation).
        is_causal: each query attends to the keys up to its own position only (with a mask
            too only where PyTorch takes its fused kernel, which applies both).
        scale: defaults to ``1 / sqrt(E)``.
        enable_gqa: ``key`` and ``value`` may have fewer heads (dimension -3) than ``query``;
            each serves a group of query heads.

    >>> import minitorch
    >>> q = minitorch.ones(1, 2, 4)
    >>> scaled_dot_product_attention(q, q, minitorch.tensor([[[1.0], [3.0]]]))
    tensor([[[2.],
             [2.]]])
    """
    _check_attention_inputs(query, key, value, attn_mask)
    if query.shape[-2] == 0 or value.numel() == 0:
        return _empty_attention(query, key, value)
    if not query.is_floating_point():
        raise RuntimeError(f"expected scalar type Float but found {_type_name(query)}")
    if scale is None:  # 1 / sqrt(0) is inf in PyTorch's C++ (no query features: E = 0)
        scale = 1.0 / math.sqrt(query.shape[-1]) if query.shape[-1] else math.inf
    fused = _fused_attention_fits(query, key, value, attn_mask, dropout_p, enable_gqa)
    if not fused and enable_gqa:
        key, value = _repeat_kv_heads(query, key, value)
    if is_causal and attn_mask is not None and not fused:  # the fused kernel applies both
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set "
                           "when is_causal=True")
    attn_mask = _additive_mask(attn_mask, query)
    if is_causal:
        causal = _creation.ones(query.shape[-2], key.shape[-2], dtype=_dtype.bool,
                                device=query.device).tril()
        causal = _additive_mask(causal, query)
        attn_mask = causal if attn_mask is None else attn_mask + causal
    if fused:
        return _attention.ScaledDotProductFlashAttentionForCpu.apply(query, key, value,
                                                                      attn_mask, scale)
    upcast = _attention.upcast
    weights = _attention.attention_weights(upcast(query), upcast(key), upcast(attn_mask), scale)
    if dropout_p > 0.0:
        if dropout_p > 1.0:  # PyTorch's ATen dropout: a RuntimeError (F.dropout's is a ValueError)
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got "
                               f"{dropout_p}")
        weights = dropout(weights, dropout_p)
    out = weights.matmul(upcast(value))
    return out.to(query.dtype) if out.dtype != query.dtype else out


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,  # noqa: A002
             eps: float | None = None) -> Tensor:
    """Divide the last ``len(normalized_shape)`` dimensions of each sample by their root mean
    square, ``x / sqrt(mean(x^2) + eps)``, then scale by ``weight``. Unlike ``layer_norm`` it
    does not subtract the mean. ``eps=None``: the machine epsilon of the computation's dtype
    (float32 for float16 input, which is computed in float32).

    >>> import minitorch
    >>> rms_norm(minitorch.tensor([[3.0, -3.0]]), (2,))
    tensor([[ 1., -1.]])
    """
    check_tensor(input, "rms_norm", "input", 1)
    if weight is not None:
        check_tensor(weight, "rms_norm", "weight", 3)
    if not isinstance(normalized_shape, (tuple, list)):
        raise TypeError("rms_norm(): argument 'normalized_shape' (position 2) must be tuple of "
                        f"ints, not {type(normalized_shape).__name__}")
    shape = tuple(int(s) for s in normalized_shape)
    have = tuple(input.shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., "
                           "containing at least one element, but got normalized_shape = []")
    if len(have) < len(shape):
        raise ValueError(f"Input tensor must have at least {len(shape)} dimensions, but got "
                         f"{len(have)}")
    if have[len(have) - len(shape):] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*{', '.join(map(str, shape))}], but got input of size{list(have)}")
    if weight is not None and tuple(weight.shape) != shape:
        raise RuntimeError("Expected weight to be of same shape as normalized_shape, but got "
                           f"weight of shape {list(weight.shape)} and normalized_shape = "
                           f"{list(shape)}")
    if not input.is_floating_point():
        raise NotImplementedError(f"\"rms_norm\" not implemented for '{_type_name(input)}'")
    x = _attention.upcast(input)
    if eps is None:
        eps = float(np.finfo(x._data.dtype).eps)
    dims = tuple(range(x.dim() - len(shape), x.dim()))
    out = x * AddScalar.apply(x.pow(2).mean(dims, keepdim=True), eps).rsqrt()
    if weight is not None:
        if weight.dtype != input.dtype:
            _warn_rms_norm_dtypes(input, weight)
        out = out * weight
    out = out.contiguous()  # as PyTorch's: a transposed input gives a contiguous result
    return out.to(input.dtype) if out.dtype != input.dtype else out  # the input's dtype


def _warn_rms_norm_dtypes(input: Tensor, weight: Tensor) -> None:  # noqa: A002
    """PyTorch's warning for an input and a weight of different dtypes, once a process
    (``TORCH_WARN_ONCE``)."""
    warn_once("rms_norm", f"Mismatch dtype between input and weight: input dtype = "
                          f"{CPP_NAMES[input.dtype.name]}, weight dtype = "
                          f"{CPP_NAMES[weight.dtype.name]}, Cannot dispatch to fused "
                          "implementation.", stacklevel=3)


def _canonical_mask(mask: Tensor | None, mask_name: str, other_type, other_name: str,
                    target_type, check_other: bool = True) -> Tensor | None:
    """A bool mask as an additive float one (True: ``-inf``, masked out); a float mask as it
    is. Warns, as PyTorch, when the two masks of a call differ in dtype."""
    if mask is None:
        return None
    if mask.dtype != _dtype.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      "Use same type for both instead.", stacklevel=2)
    if not mask.is_floating_point():
        mask = _creation.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input: Tensor | None):  # noqa: A002
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor,
                     key_padding_mask: Tensor | None, attn_mask: Tensor | None,
                     num_heads: int) -> bool:
    """PyTorch's checks of the inputs' dimensions; True for batched (3-d) input."""
    if query.dim() not in (2, 3):
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    if key.dim() != query.dim() or value.dim() != query.dim():
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be "
                             f"{query.dim()}-D but found {key.dim()}-D and {value.dim()}-D "
                             "tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != query.dim() - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{query.dim() - 1}-D but found {key_padding_mask.dim()}-D tensor "
                             "instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or "
                                 f"3-D but found {attn_mask.dim()}-D tensor instead")
        expected = (num_heads, query.shape[0], key.shape[0])
        if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
            raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                                 f"{attn_mask.shape}")
    return batched


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor,
                          b: Tensor | None = None) -> list:
    """The query, key and value projections with the packed ``(3E, E)`` weight: one matrix
    product for self-attention (q, k, v the same tensor), two when k and v are."""
    e = q.shape[-1]
    if k is v and q is k:
        proj = linear(q, w, b)
        proj = proj.reshape(proj.shape[:-1] + (3, e)).unsqueeze(0).transpose(0, -2)
        proj = proj.squeeze(-2).contiguous()
        return [proj[0], proj[1], proj[2]]
    if k is v:
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        kv = linear(k, w_kv, b_kv)
        kv = kv.reshape(kv.shape[:-1] + (2, e)).unsqueeze(0).transpose(0, -2)
        kv = kv.squeeze(-2).contiguous()
        return [linear(q, w_q, b_q), kv[0], kv[1]]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)]


def _in_projection(q: Tensor, k: Tensor, v: Tensor, w_q: Tensor, w_k: Tensor, w_v: Tensor,
                   b_q=None, b_k=None, b_v=None) -> tuple:
    """The three projections with separate weights (``kdim`` or ``vdim`` differ from E)."""
    eq, ek, ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for name, t, want in (("query weights", w_q, (eq, eq)), ("key weights", w_k, (eq, ek)),
                          ("value weights", w_v, (eq, ev)), ("query bias", b_q, (eq,)),
                          ("key bias", b_k, (eq,)), ("value bias", b_v, (eq,))):
        if t is not None and tuple(t.shape) != want:
            raise AssertionError(f"expecting {name} shape of {want}, but got {t.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
        out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple:
    """Multi-head attention, as ``nn.MultiheadAttention`` runs it, on sequence-first input
    ``(L, N, E)`` (or unbatched ``(L, E)``): project the query, key and value, split ``E`` into
    ``num_heads`` heads, attend in each head, join the heads and project the result. Returns
    ``(output, weights)``, the weights (averaged over the heads unless
    ``average_attn_weights=False``) only when ``need_weights``."""
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:  # computed as a batch of one
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention makes the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                    check_other=False)
        if key_padding_mask is not None:
            is_causal = False  # the merged mask is no longer causal
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but "
                             f"got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # the in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight "
                                     "is None")
        biases = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight,
                                 v_proj_weight, *biases)

    # the attention mask, made 3-d
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but "
                                   f"should be {(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but "
                                   f"should be {(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # a learned extra key and value (add_bias_kv), one more column of each mask for it
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise AssertionError("bias_k is set but bias_v is None" if bias_k is not None
                             else "bias_v is set but bias_k is None")

    # heads become part of the batch: (N * num_heads, length, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, "static_k", bsz * num_heads, head_dim)
    v = _heads(v, static_v, "static_v", bsz * num_heads, head_dim)
    if add_zero_attn:  # an extra key and value of zeros
        zeros = _creation.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k = cat([k, zeros], dim=1)
        v = cat([v, zeros], dim=1)
        attn_mask, key_padding_mask = _one_more_key(attn_mask, key_padding_mask)
    src_len = k.shape[1]

    # the padding mask merged into the attention mask
    if key_padding_mask is not None:
        for d, want in ((0, bsz), (1, src_len)):
            if key_padding_mask.shape[d] != want:
                raise AssertionError(f"Expected key_padded_mask.shape[{d}] to be {want}, but "
                                     f"got {key_padding_mask.shape[d]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len)
                            .expand(-1, num_heads, -1, -1).reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:  # the weights are wanted: compute them in the open
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        scores_k = k.transpose(-2, -1)
        weights = (_baddbmm(attn_mask, q_scaled, scores_k) if attn_mask is not None
                   else q_scaled.bmm(scores_k))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        out = weights.bmm(v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            return out.squeeze(1), weights.squeeze(0)
        return out, weights
    if attn_mask is not None:  # for scaled_dot_product_attention: (N, num_heads, L, S)
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    out = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    out = out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
    return (out if batched else out.squeeze(1)), None


def _one_more_key(attn_mask: Tensor | None, key_padding_mask: Tensor | None) -> tuple:
    """Both masks with a column of zeros appended, for the key that was added."""
    return tuple(None if m is None else pad(m, (0, 1)) for m in (attn_mask, key_padding_mask))


def _heads(t: Tensor, static: Tensor | None, name: str, batch_heads: int,
           head_dim: int) -> Tensor:
    """Keys or values ``(S, N, E)`` as ``(N * num_heads, S, head_dim)``; or the given
    ``static_k``/``static_v``, already in that form."""
    if static is None:
        return t.view(t.shape[0], batch_heads, head_dim).transpose(0, 1)
    for d, want in ((0, batch_heads), (2, head_dim)):
        if static.shape[d] != want:
            raise AssertionError(f"expecting {name}.size({d}) of {want}, but got "
                                 f"{static.shape[d]}")
    return static


# ====================================================================== the other losses
# The margin losses, cosine_embedding_loss, triplet losses, Gaussian and Poisson NLL, and CTC:
# the functions and their Function classes live in _margin_loss and _ctc_loss.
from minitorch.nn._ctc_loss import CtcLoss, ctc_loss  # noqa: E402, F401
from minitorch.nn._margin_loss import (  # noqa: E402, F401
    MultilabelMarginLoss,
    MultiMarginLoss,
    SoftMarginLoss,
    cosine_embedding_loss,
    gaussian_nll_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_margin_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    poisson_nll_loss,
    soft_margin_loss,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)

__all__ += ["cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss",
            "soft_margin_loss", "multilabel_soft_margin_loss", "multi_margin_loss",
            "multilabel_margin_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
            "gaussian_nll_loss", "poisson_nll_loss", "ctc_loss"]


# ====================================================================== threshold, shrinks, GLU
# relu_, leaky_relu_, threshold(_), hardshrink, softshrink, softmin, glu and prelu (their
# Function classes live in _activation_extra).
from minitorch.nn import _activation_extra as _extra  # noqa: E402
from minitorch.ops._util import normalize_dim as _normalize_dim  # noqa: E402
from minitorch.ops.softmax import _implicit_dim  # noqa: E402

__all__ += ["relu_", "leaky_relu_", "threshold", "threshold_", "hardshrink", "softshrink",
            "softmin", "glu", "prelu"]


class LeakyReluInplace(LeakyRelu):
    """``leaky_relu_``: PyTorch's node for the in-place version, whose gradient it computes
    from the result, which it cannot do for a negative slope: it refuses."""

    node_name = "LeakyReluBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, x, slope):
        out = _leaky_relu_forward(ctx, x, slope)  # (x is not saved: the result
        ctx.out = out._data  # overwrites it; the gradient reads the result)
        return out

    @staticmethod
    def backward(ctx, grad):
        if ctx.slope < 0:
            raise _extra.inplace_negative_slope_error()
        return LeakyReluGrad.apply(grad, _result(ctx, ctx.out), ctx.slope, ctx.positive)


def relu_(input: Tensor) -> Tensor:  # noqa: A002
    """In-place :func:`relu`."""
    return relu(input, inplace=True)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    """In-place :func:`leaky_relu`."""
    return leaky_relu(input, negative_slope, inplace=True)


def _threshold(input: Tensor, threshold: float, value: float,  # noqa: A002
               inplace: bool = False) -> Tensor:
    """``x`` where ``x > threshold``, else ``value``: a ReLU whose cut and replacement are
    free (``threshold(x, 0, 0)`` is ``relu(x)``). PyTorch's is named ``_threshold`` too (its
    errors say so).

    >>> import minitorch
    >>> threshold(minitorch.tensor([-1.0, 0.5, 2.0]), 1.0, 9.0)
    tensor([9., 9., 2.])
    """
    check_tensor(input, "threshold", "input", 1)
    if input._data.dtype.kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    t, v = _dtype.number_as(threshold, input.dtype), _dtype.number_as(value, input.dtype)
    if inplace:
        return input._inplace(_extra.ThresholdInplace.apply, t, v)
    return _extra.Threshold.apply(input, t, v)


threshold = _threshold


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    """In-place :func:`threshold`."""
    check_tensor(input, "threshold_", "input", 1)
    return _threshold(input, threshold, value, True)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """0 where ``-lambd <= x <= lambd``, else ``x``.

    >>> import minitorch
    >>> hardshrink(minitorch.tensor([-1.0, 0.2, 0.7]))
    tensor([-1.0000,  0.0000,  0.7000])
    """
    return _shrink(input, lambd, "hardshrink", "hardshrink_cpu")


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """``x`` moved ``lambd`` towards 0, and 0 where ``|x| <= lambd`` (``lambd >= 0``).

    >>> import minitorch
    >>> softshrink(minitorch.tensor([-1.0, 0.2, 0.7]))
    tensor([-0.5000,  0.0000,  0.2000])
    """
    return _shrink(input, lambd, "softshrink", "softshrink_check")


def _shrink(input: Tensor, lambd, name: str, kernel: str) -> Tensor:  # noqa: A002
    check_tensor(input, name, "input", 1)
    _check_float_input(input, kernel)
    top = float(np.finfo(input._data.dtype).max)
    if name == "softshrink" and not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype "
                           f"{_type_name(input)}, but found {float(lambd):g}")
    cls = _extra.Softshrink if name == "softshrink" else _extra.Hardshrink
    return cls.apply(input, _dtype.number_as(lambd, input.dtype))


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype=None) -> Tensor:
    """``softmax(-x)`` along ``dim``: the smallest score gets the largest probability.

    >>> import minitorch
    >>> softmin(minitorch.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    if dim is None:
        dim = _implicit_dim("softmin", input.ndim, _stacklevel)
    return softmax(-input, dim, dtype=dtype)


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    """The gated linear unit: ``a * sigmoid(b)``, where ``a`` and ``b`` are the two halves of
    ``input`` along ``dim`` (whose size must be even).

    >>> import minitorch
    >>> glu(minitorch.tensor([2.0, 0.0]))
    tensor([1.])
    """
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _normalize_dim(dim, input.ndim)
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{input.shape[d]}")
    _check_float_input(input, "glu_cpu")
    return _extra.Glu.apply(input, d)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """``x`` where ``x > 0``, else ``weight * x``: a leaky ReLU whose slope is learned, one
    for all channels or one per channel (dimension 1).

    >>> import minitorch
    >>> prelu(minitorch.tensor([[-2.0, 3.0]]), minitorch.tensor([0.25]))
    tensor([[-0.5000,  3.0000]])
    """
    check_tensor(input, "prelu", "input", 1)
    check_tensor(weight, "prelu", "weight", 2)
    if input.dtype != weight.dtype:
        raise RuntimeError("prelu: Type promoting not supported. Got "
                           f"{_type_name(input)} and {_type_name(weight)}")
    n = weight.numel()
    if n != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != n:
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {n} and channel size = {channels}.")
    if weight.ndim > 1:
        raise RuntimeError("prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    _check_float_input(input, "prelu_cpu")
    if input.ndim != weight.ndim:  # one weight per channel, along dimension 1
        weight = weight.reshape([n if i == 1 else 1 for i in range(input.ndim)])
    return _extra.Prelu.apply(input, weight)


# ====================================================================== channel and alpha dropout
# dropout1d/2d/3d, alpha_dropout and feature_alpha_dropout; dropout itself is _dropout too
# (PyTorch's _dropout_impl, in _dropout).
from minitorch.nn._dropout import dropout as _dropout  # noqa: E402

__all__ += ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]


def _no_batch_dim(input: Tensor, p, training, inplace, batched: bool) -> Tensor:  # noqa: A002
    """Channel dropout of an input with or without its batch dimension (then one is added
    for the draw and taken away after, as PyTorch does)."""
    if batched:
        return _dropout(input, p, training, inplace, feature=True)
    x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = _dropout(x, p, training, inplace, feature=True)
    return out.squeeze_(0) if inplace else out.squeeze(0)


def _check_p(p) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of a ``(N, C, L)`` or ``(C, L)`` input, each with probability
    ``p``, and scale the rest by ``1 / (1 - p)``."""
    _check_p(p)
    if input.ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _no_batch_dim(input, p, training, inplace, input.ndim == 3)


def _warn_spatial(name: str, ndim: int, spatial: int) -> None:
    """PyTorch's warning for an input of dropout2d/dropout3d without the dims it expects."""
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result "
        "in an error in a future release. To retain the behavior and silence this warning, "
        f"please use dropout instead. Note that {name} exists to provide channel-wise dropout "
        f"on inputs with {spatial} spatial dimensions, a channel dimension, and an optional "
        f"batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).", stacklevel=3)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of a ``(N, C, H, W)`` input, each with probability ``p``, and
    scale the rest by ``1 / (1 - p)``. A 3-d input is taken as ``(N, C, L)``, as PyTorch
    still does (with its warning)."""
    _check_p(p)
    if input.ndim not in (3, 4):
        _warn_spatial("dropout2d", input.ndim, 2)
    if input.ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _dropout(input, p, training, inplace, feature=True)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
              inplace: bool = False) -> Tensor:
    """Zero whole channels of a ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input, each with
    probability ``p``, and scale the rest by ``1 / (1 - p)``."""
    _check_p(p)
    if input.ndim not in (4, 5):
        _warn_spatial("dropout3d", input.ndim, 3)
    return _no_batch_dim(input, p, training, inplace, input.ndim == 5)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                  inplace: bool = False) -> Tensor:
    """Dropout for SELU networks: dropped elements take SELU's negative limit and everything
    is moved and scaled so that a mean of 0 and a variance of 1 stay so. Off by default
    (``training=False``)."""
    _check_p(p)
    return _dropout(input, p, training, inplace, alpha=True)


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False,  # noqa: A002
                          inplace: bool = False) -> Tensor:
    """:func:`alpha_dropout` of whole channels (dimension 1)."""
    _check_p(p)
    return _dropout(input, p, training, inplace, feature=True, alpha=True)


# ====================================================================== pixel shuffle
from minitorch.nn._pixel import PixelShuffle, PixelUnshuffle  # noqa: E402

__all__ += ["pixel_shuffle", "pixel_unshuffle"]


def _check_pixel_args(input: Tensor, factor, name: str, arg: str) -> None:  # noqa: A002
    check_tensor(input, name, "input", 1)
    if not isinstance(factor, (int, np.integer)) or isinstance(factor, bool):
        raise TypeError(f"{name}(): argument '{arg}' (position 2) must be int, not "
                        f"{type(factor).__name__}")
    if input.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input "
                           f"with {input.ndim} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {arg}, but got {factor}")


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """``(*, C r^2, H, W) -> (*, C, H r, W r)`` with ``r = upscale_factor``: each group of
    ``r^2`` channels becomes an ``r x r`` block of pixels.

    >>> import minitorch
    >>> pixel_shuffle(minitorch.arange(4.0).reshape(4, 1, 1), 2)
    tensor([[[0., 1.],
             [2., 3.]]])
    """
    _check_pixel_args(input, upscale_factor, "pixel_shuffle", "upscale_factor")
    c = input.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be "
                           "divisible by the square of upscale_factor, but input.size(-3)="
                           f"{c} is not divisible by {upscale_factor * upscale_factor}")
    return PixelShuffle.apply(input, int(upscale_factor))


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """``(*, C, H r, W r) -> (*, C r^2, H, W)`` with ``r = downscale_factor``: the inverse of
    :func:`pixel_shuffle`."""
    _check_pixel_args(input, downscale_factor, "pixel_unshuffle", "downscale_factor")
    for side, size in (("height", input.shape[-2]), ("width", input.shape[-1])):
        if size % downscale_factor:
            dim = -2 if side == "height" else -1
            raise RuntimeError(f"pixel_unshuffle expects {side} to be divisible by "
                               f"downscale_factor, but input.size({dim})={size} is not "
                               f"divisible by {downscale_factor}")
    return PixelUnshuffle.apply(input, int(downscale_factor))


# ====================================================================== 1-d pooling
# max_pool1d and avg_pool1d: the 2-d pools of the input with a height of 1 (unsqueeze, pool,
# squeeze: PyTorch records the same three nodes), after PyTorch's 1-d argument checks.
from minitorch.nn import _pooling  # noqa: E402

__all__ += ["max_pool1d", "avg_pool1d", "max_pool1d_with_indices", "max_pool2d_with_indices",
            "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices"]


def _pool1d_args(input: Tensor, name: str, kernel_size, stride, padding,  # noqa: A002
                 dilation=1, function: str = "") -> tuple:
    """The checks PyTorch's ``avg_pool1d`` and ``max_pool1d_with_indices`` make before they
    call the 2-d pool: the rank, and one int per argument (``function``: the name the
    argument parser gives, when it is not ``name``)."""
    check_tensor(input, function or name, "input", 1)
    if isinstance(kernel_size, float):
        raise TypeError(f"{function or name}(): argument 'kernel_size' (position 2) must be "
                        "tuple of ints, not float")
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional "
                           f"tensor for argument #1 'self' (while checking arguments for "
                           f"{name})")
    if stride is None or (isinstance(stride, (tuple, list)) and not stride):
        stride = kernel_size
    return tuple(_pooling.one_int(v, name, arg) for arg, v in (
        ("kernel_size", kernel_size), ("stride", stride), ("padding", padding),
        ("dilation", dilation)))


def max_pool1d_with_indices(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """:func:`max_pool1d` and the index along the length of each maximum."""
    k, s, p, d = _pool1d_args(input, "max_pool1d", kernel_size, stride, padding, dilation,
                              "max_pool1d_with_indices")
    out, idx = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, True)
    return out.squeeze(-2), idx.squeeze(-2)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """The maximum of each ``kernel_size`` window along the last dimension of ``(N, C, L)``
    or ``(C, L)``, moving by ``stride`` (default: the kernel).

    >>> import minitorch
    >>> max_pool1d(minitorch.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
    tensor([[3., 2.]])
    """
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    check_tensor(input, "max_pool1d", "input", 1)
    if isinstance(kernel_size, float):
        raise TypeError("max_pool1d(): argument 'kernel_size' (position 2) must be tuple of "
                        "ints, not float")
    _pooling.check_max_pool1d(input, kernel_size, () if stride is None else stride, padding,
                              dilation, ceil_mode)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for '{_type_name(input)}'")
    out = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)[0]
    return out if out.requires_grad else out.contiguous()  # (PyTorch's max_pool1d_impl)


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """:func:`max_pool2d` and the flat index (``h * W + w``) of each maximum."""
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def adaptive_max_pool1d_with_indices(input: Tensor, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """:func:`adaptive_max_pool1d` and the index of each maximum."""
    return adaptive_max_pool1d(input, output_size, True)


def adaptive_max_pool2d_with_indices(input: Tensor, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """:func:`adaptive_max_pool2d` and the flat index of each maximum."""
    return adaptive_max_pool2d(input, output_size, True)


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """The mean of each ``kernel_size`` window along the last dimension.

    >>> import minitorch
    >>> avg_pool1d(minitorch.tensor([[1.0, 3.0, 2.0, 0.0]]), 2)
    tensor([[2., 1.]])
    """
    k, s, p, _ = _pool1d_args(input, "avg_pool1d", kernel_size, stride, padding)
    out = avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad)
    return out.squeeze(-2)


# ====================================================================== upsample (deprecated)
__all__ += ["upsample", "upsample_nearest", "upsample_bilinear"]


def _deprecated_upsample(name: str) -> None:
    warnings.warn(f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=3)


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",  # noqa: A002
             align_corners: bool | None = None) -> Tensor:
    """The old name of :func:`interpolate` (it warns)."""
    _deprecated_upsample("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """``interpolate(mode="nearest")`` by its old name (it warns)."""
    _deprecated_upsample("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:  # noqa: A002
    """``interpolate(mode="bilinear", align_corners=True)`` by its old name (it warns)."""
    _deprecated_upsample("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ====================================================================== bilinear
from minitorch.nn._bilinear import Trilinear  # noqa: E402

__all__ += ["bilinear"]


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor,
             bias: Tensor | None = None) -> Tensor:
    """``y[..., o] = x1[..., :] @ weight[o] @ x2[..., :] + bias[o]``: one bilinear form per
    output feature (PyTorch's ``_trilinear`` on the inputs flattened to rows).

    >>> import minitorch
    >>> bilinear(minitorch.ones(1, 2), minitorch.ones(1, 3), minitorch.ones(4, 2, 3))
    tensor([[6., 6., 6., 6.]])
    """
    named = {"input1": input1, "input2": input2, "weight": weight}
    if bias is not None:
        named["bias"] = bias
    if len({t.dtype for t in named.values()}) > 1:
        got = ", ".join(f"{k}: {_dtype.CPP_NAMES[t.dtype.name]}" for k, t in named.items())
        raise RuntimeError(f"All tensors must have the same dtype, got {got}")
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and "
                           f"{input2.ndim}")
    if input1.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    for d in range(input1.ndim - 1):
        if input1.shape[d] != input2.shape[d]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {d}: "
                               f"got {input1.shape[d]} and {input2.shape[d]}")
    for name, x, d in (("input1", input1, 1), ("input2", input2, 2)):
        if weight.ndim != 3 or x.shape[-1] != weight.shape[d]:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got "
                               f"{x.shape[-1]} but expected {weight.shape[d]}")
    if bias is not None and (bias.ndim == 0 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError("bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[0] if bias.ndim else 0} but expected {weight.shape[0]}")
    rows1 = input1.reshape(-1, input1.shape[-1])
    rows2 = input2.reshape(-1, input2.shape[-1])
    out = Trilinear.apply(rows1, weight, rows2, "bi,oij,bj->bo")
    out = out.reshape(*input1.shape[:-1], weight.shape[0])
    return out if bias is None else out + bias


# ====================================================================== instance and LRN norm
__all__ += ["instance_norm", "local_response_norm"]


def instance_norm(input: Tensor, running_mean: Tensor | None = None,  # noqa: A002
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel of each sample on its own (over its spatial positions), then
    scale and shift per channel. As PyTorch computes it: :func:`batch_norm` of the input
    viewed as one sample of ``N * C`` channels, the parameters and running statistics repeated
    ``N`` times; the running statistics then get the mean of the ``N`` updates.

    >>> import minitorch
    >>> instance_norm(minitorch.tensor([[[1.0, 3.0]]]))
    tensor([[[-1.0000,  1.0000]]])
    """
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError("Expected more than 1 spatial element when training, got input size "
                         f"{input.shape}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    return _instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                          momentum, eps)


def _instance_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,  # noqa: A002
                   weight: Tensor | None, bias: Tensor | None, use_input_stats: bool,
                   momentum: float, eps: float) -> Tensor:
    """:func:`instance_norm` after its Python checks (``torch.instance_norm`` has none)."""
    b, c = input.shape[:2]
    repeated = [None if t is None else t.repeat(b)
                for t in (weight, bias, running_mean, running_var)]
    flat = input.contiguous().view(1, b * c, *input.shape[2:])
    out = _batch_norm(flat, repeated[2], repeated[3], repeated[0], repeated[1],
                      use_input_stats, momentum, eps)
    with grad_mode.no_grad():  # each running statistic: the mean over the samples
        for stat, updated in ((running_mean, repeated[2]), (running_var, repeated[3])):
            if stat is not None:
                stat.copy_(updated.view(b, c).mean(0))
    return out.view(input.shape)


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4,  # noqa: A002
                        beta: float = 0.75, k: float = 1.0) -> Tensor:
    """Divide each value by ``(k + alpha * mean of the squares of its ``size`` neighbouring
    channels) ** beta`` (AlexNet's normalisation), written as PyTorch writes it.

    The neighbouring squares are averaged as PyTorch averages them: ``avg_pool2d`` over a 3-d
    input's channels, ``avg_pool3d`` over a larger input's (the same nodes as PyTorch's).
    """
    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality" + " " * 26  # PyTorch's text
                         + f"input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)  # (N, 1, C, L)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.shape
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)  # (N, 1, C, H, positions)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ====================================================================== unfold and fold
from minitorch.nn import _fold  # noqa: E402

__all__ += ["unfold", "fold"]


def _pairs(*values) -> list:
    return [_pair(v) for v in values]


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """The sliding ``kernel_size`` blocks of ``(N, C, H, W)`` as the columns of
    ``(N, C kh kw, L)`` (im2col).

    >>> import minitorch
    >>> unfold(minitorch.arange(4.0).reshape(1, 1, 2, 2), 1)
    tensor([[[0., 1., 2., 3.]]])
    """
    kernel, dilation, padding, stride = _pairs(kernel_size, dilation, padding, stride)
    _fold.check_block_args(kernel, dilation, padding, stride)
    shape = input.shape
    if not shape:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    if len(shape) < 3:
        n = len(shape)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         "but got 2)")
    if len(shape) not in (3, 4) or 0 in shape[-3 if len(shape) == 3 else 1:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size "
                           f"and other non-zero dimensions for input, but got: {list(shape)}")
    h, w = shape[-2:]
    out = [_fold.blocks(size, *a) for size, a in zip((h, w), zip(kernel, dilation, padding,
                                                                   stride))]
    if min(out) < 1:
        raise RuntimeError(
            f"Given input with spatial size ({h}, {w}), kernel_size=({kernel[0]}, {kernel[1]}), "
            f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), "
            f"calculated shape of the array of sliding blocks as ({out[0]}, {out[1]}), but its "
            "components must be at least one.")
    if input._data.dtype.kind not in "fb":
        raise NotImplementedError(f"\"im2col_out_cpu\" not implemented for '{_type_name(input)}'")
    return _fold.Im2Col.apply(input, kernel, dilation, padding, stride)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0,  # noqa: A002
         stride=1) -> Tensor:
    """Sum the columns of ``(N, C kh kw, L)`` back into ``(N, C, *output_size)``, each value
    where :func:`unfold` took it from (col2im).

    >>> import minitorch
    >>> fold(minitorch.ones(1, 4, 4), (3, 3), 2)
    tensor([[[[1., 2., 1.],
              [2., 4., 2.],
              [1., 2., 1.]]]])
    """
    size, kernel, dilation, padding, stride = _pairs(output_size, kernel_size, dilation,
                                                     padding, stride)
    _fold.check_block_args(kernel, dilation, padding, stride)
    shape = input.shape
    if len(shape) not in (2, 3) or 0 in shape[-2:]:
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: {list(shape)}")
    dim = len(shape) - 2  # of the planes; the blocks' one follows
    if shape[dim] % (kernel[0] * kernel[1]):
        raise RuntimeError(f"Expected size of input's dimension {dim} to be divisible by the "
                           f"product of kernel_size, but got input.size({dim})={shape[dim]} and "
                           f"kernel_size=({kernel[0]}, {kernel[1]}).")
    out = [_fold.blocks(s, *a) for s, a in zip(size, zip(kernel, dilation, padding, stride))]
    given = (f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, "
             f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
             f"{padding[1]}), stride=({stride[0]}, {stride[1]}), ")
    if shape[dim + 1] != out[0] * out[1]:
        raise RuntimeError(f"{given}expected size of input's dimension {dim + 1} to match the "
                           f"calculated number of sliding blocks {out[0]} * {out[1]} = "
                           f"{out[0] * out[1]}, but got input.size({dim + 1})={shape[dim + 1]}.")
    if min(out) < 1:
        raise RuntimeError(f"{given}calculated shape of the array of sliding blocks as "
                           f"({out[0]}, {out[1]}), which is too small (non-positive)")
    if input._data.dtype.kind not in "fb":
        raise NotImplementedError(f"\"col2im_out_cpu\" not implemented for '{_type_name(input)}'")
    return _fold.Col2Im.apply(input, tuple(size), kernel, dilation, padding, stride)


# ====================================================================== RReLU
__all__ += ["rrelu", "rrelu_"]


def rrelu(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
          training: bool = False, inplace: bool = False) -> Tensor:
    """The randomised leaky ReLU: in training, each element ``x <= 0`` becomes ``r x`` with
    its own ``r`` drawn from ``U(lower, upper)`` (PyTorch's numbers, after the same seed); out
    of training, ``x <= 0`` becomes ``x (lower + upper) / 2``.

    >>> import minitorch
    >>> rrelu(minitorch.tensor([-3.0, 2.0]), 0.1, 0.3)
    tensor([-0.6000,  2.0000])
    """
    return _rrelu(input, lower, upper, training, inplace)


def _rrelu(input: Tensor, lower, upper, training: bool, inplace: bool,  # noqa: A002
           generator=None) -> Tensor:
    """:func:`rrelu`, its slopes drawn from ``generator`` (``torch.rrelu`` takes one)."""
    check_tensor(input, "rrelu", "input", 1)
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if training and input._data.dtype not in (np.float32, np.float64):  # not even float16
        raise NotImplementedError(
            f"\"rrelu_with_noise_out_cpu\" not implemented for '{_type_name(input)}'")
    _check_float_input(input, "leaky_relu_cpu")
    noise = _extra.rrelu_noise(input._data, lower, upper, generator) if training else None
    cls = _extra.RreluWithNoiseInplace if inplace else _extra.RreluWithNoise
    args = (noise, (lower + upper) / 2, training)
    return input._inplace(cls.apply, *args) if inplace else cls.apply(input, *args)


def rrelu_(input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3,  # noqa: A002
           training: bool = False, generator=None) -> Tensor:
    """In-place :func:`rrelu` (also ``torch.rrelu_``), its slopes drawn from ``generator``."""
    check_tensor(input, "rrelu_", "input", 1)
    return _rrelu(input, lower, upper, training, True, generator)


# ====================================================================== torchnn task
# channel_shuffle (its Function in _pixel) and pdist (in ops.linalg, beside cdist, whose
# gradient it shares), and the torch.* names of the nn functions (_aten) use these.
from minitorch.nn._pixel import ChannelShuffle, NativeChannelShuffle  # noqa: E402
from minitorch.ops.linalg import pdist  # noqa: E402

__all__ += ["channel_shuffle", "native_channel_shuffle", "pdist"]

# F.hardshrink is torch.hardshrink, whose kernel writes into an ``out=`` tensor too
hardshrink = _with_out(hardshrink)


def _check_channel_shuffle(input: Tensor, groups, name: str) -> None:  # noqa: A002
    check_tensor(input, name, "input", 1)
    if not isinstance(groups, (int, np.integer)) or isinstance(groups, bool):
        raise TypeError(f"{name}(): argument 'groups' (position 2) must be int, not "
                        f"{type(groups).__name__}")
    if input.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with "
                           f"sizes {list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of "
                           f"groups:{groups}")
    if input.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got "
                           f"{input.shape[1]} channels and {groups} groups.")


def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """Split the channels (dimension 1) of a ``(N, C, *)`` input into ``groups`` groups and
    deal them out one from each group in turn, as ShuffleNet does between grouped
    convolutions.

    >>> import minitorch
    >>> channel_shuffle(minitorch.arange(6.0).reshape(1, 6, 1), 2).flatten()
    tensor([0., 3., 1., 4., 2., 5.])
    """
    _check_channel_shuffle(input, groups, "channel_shuffle")
    return ChannelShuffle.apply(input, int(groups))


def native_channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """:func:`channel_shuffle` without a derivative (PyTorch's backward raises)."""
    _check_channel_shuffle(input, groups, "native_channel_shuffle")
    return NativeChannelShuffle.apply(input, int(groups))


# ====================================================================== 3-d convs (task nn3d)
# conv3d, conv_transpose1d and conv_transpose3d: the N-d Convolution and ConvolutionTranspose
# Functions (ConvolutionBackward0) after PyTorch's checks for N spatial dimensions.
__all__ += ["conv3d", "conv_transpose1d", "conv_transpose3d"]


def _ntuple(value, name: str, n: int) -> tuple:
    """An int repeated ``n`` times, or a sequence of ``n`` ints (PyTorch's convolution
    argument check)."""
    if isinstance(value, (tuple, list)):
        if len(value) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} "
                               "values to match the convolution dimensions, but got "
                               f"{name}={list(value)}")
        return tuple(int(v) for v in value)
    return (int(value),) * n


def _conv_input(input: Tensor, weight: Tensor, n: int, name: str,  # noqa: A002
                bias: Tensor | None = None) -> tuple:
    """The input as a batch (and whether it was one sample), after the rank and dtype checks
    (a convolution's ``bias`` first: a transposed one passes none, PyTorch checks no bias)."""
    if input._data.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to "
                           f"{name}, but got input of size: {_fmt_shape(input._data.shape)}")
    unbatched = input._data.ndim == n + 1
    x = input.unsqueeze(0) if unbatched else input
    _check_conv_bias_dtype(x, bias)
    if x._data.dtype != weight._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(x)} but found {_type_name(weight)}")
    return x, unbatched


# a convolution checks its bias's dtype before its weight's
def _check_conv_bias_dtype(x: Tensor, bias) -> None:
    """PyTorch's convolutions check the bias's dtype against the input's before the weight's
    (the conv/batch-norm tutorial's float64 input into float32 layers meets this message)."""
    if bias is not None and bias._data.dtype != x._data.dtype:
        names = (CPP_NAMES.get(t.dtype.name, t.dtype.name) for t in (x, bias))
        raise RuntimeError("Input type ({}) and bias type ({}) should be the same".format(*names))


def _check_bias(weight: Tensor, bias, channels: int, given: str = "") -> None:
    if bias is not None and tuple(bias._data.shape) != (channels,):
        raise RuntimeError(f"Given {given}weight of size {_fmt_shape(weight._data.shape)}, "
                           f"expected bias to be 1-dimensional with {channels} elements, but "
                           f"got bias of size {_fmt_shape(bias._data.shape)} instead")


def _check_conv_params(weight: Tensor, stride, padding, dilation, output_padding,
                       groups: int) -> None:
    """PyTorch's ``check_shape_forward``, before it compares the shapes."""
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if min(padding) < 0:
        raise RuntimeError("negative padding is not supported")
    if min(output_padding, default=0) < 0:
        raise RuntimeError("negative output_padding is not supported")
    if min(stride) <= 0:
        raise RuntimeError("non-positive stride is not supported")
    if min(dilation) <= 0:
        raise RuntimeError("non-positive dilation is not supported")
    w0 = weight._data.shape[0]
    for what, bad in (("at least", w0 < groups), ("divisible by", w0 % groups)):
        if bad:
            raise RuntimeError(f"Given groups={groups}, expected weight to be {what} {groups} "
                               f"at dimension 0, but got weight of size "
                               f"[{_fmt_shape(weight._data.shape)}] instead")


def _conv_nd(input: Tensor, weight: Tensor, bias, stride, padding, dilation,  # noqa: A002
             groups: int, n: int, name: str) -> Tensor:
    """The convolution over ``n`` spatial dimensions, as :func:`conv2d` checks and runs it."""
    x, unbatched = _conv_input(input, weight, n, name, bias)
    kernel = weight._data.shape[2:]
    stride, dilation = _ntuple(stride, "stride", n), _ntuple(dilation, "dilation", n)
    if isinstance(padding, str):
        if padding not in ("valid", "same"):
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if padding == "same" and stride != (1,) * n:
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        total = [d * (k - 1) if padding == "same" else 0 for k, d in zip(kernel, dilation)]
        if any(t % 2 for t in total):
            raise NotImplementedError("minitorch supports padding='same' only when it is "
                                      "symmetric (odd kernel sizes)")
        padding = tuple(t // 2 for t in total)
    padding = _ntuple(padding, "padding", n)
    _check_conv_params(weight, stride, padding, dilation, (), groups)
    c, *sizes = x._data.shape[1:]
    if c != weight._data.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {_fmt_shape(weight._data.shape)}, expected "
            f"input{_fmt_shape(x._data.shape)} to have {weight._data.shape[1] * groups} "
            f"channels, but got {c} channels instead")
    _check_bias(weight, bias, weight._data.shape[0])
    padded = [s + 2 * p for s, p in zip(sizes, padding)]
    eff = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
    if any(a < b for a, b in zip(padded, eff)):
        raise RuntimeError(f"Calculated padded input size per channel: ("
                           f"{' x '.join(map(str, padded))}). Kernel size: ("
                           f"{' x '.join(map(str, eff))}). Kernel size can't be greater than "
                           "actual input size")
    out = Convolution.apply(x, weight, bias, stride, padding, dilation, groups)
    return out.squeeze(0) if unbatched else out


def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,  # noqa: A002
           padding=0, dilation=1, groups: int = 1) -> Tensor:
    """3-d convolution of ``input`` (N, C, D, H, W) or (C, D, H, W) with ``weight``
    (O, C, kd, kh, kw): the same im2col matrix product as :func:`conv2d`, over volumes.

    >>> import minitorch
    >>> conv3d(minitorch.ones(1, 1, 2, 2, 2), minitorch.ones(1, 1, 2, 2, 2))
    tensor([[[[[8.]]]]])
    """
    return _conv_nd(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


def _conv_transpose_nd(input: Tensor, weight: Tensor, bias, stride, padding,  # noqa: A002
                       output_padding, groups: int, dilation, n: int, name: str) -> Tensor:
    """The transposed convolution over ``n`` spatial dimensions (see
    :func:`conv_transpose2d`). PyTorch checks a 1-d one as a 2-d one of height 1, and its
    messages say so."""
    for arg, value in (("stride", stride), ("padding", padding),
                       ("output_padding", output_padding), ("dilation", dilation)):
        if isinstance(value, str):
            raise TypeError(f"{name}(): argument '{arg}' must be tuple of ints, not str")
    x, unbatched = _conv_input(input, weight, n, name)
    stride, padding = _ntuple(stride, "stride", n), _ntuple(padding, "padding", n)
    dilation = _ntuple(dilation, "dilation", n)
    output_padding = _ntuple(output_padding, "output_padding", n)
    _check_conv_params(weight, stride, padding, dilation, output_padding, groups)
    c, *sizes = x._data.shape[1:]
    if c != weight._data.shape[0]:
        raise RuntimeError(
            f"Given transposed=1, weight of size {_fmt_shape(weight._data.shape)}, expected "
            f"input{_fmt_shape(x._data.shape)} to have {weight._data.shape[0]} channels, but "
            f"got {c} channels instead")
    _check_bias(weight, bias, weight._data.shape[1] * groups, "transposed=1, ")
    kernel = weight._data.shape[2:]
    out_sizes = [(i - 1) * s - 2 * p + d * (k - 1) + op + 1 for i, s, p, d, k, op in zip(
        sizes, stride, padding, dilation, kernel, output_padding)]
    lift = (lambda v, one: (one, *v)) if n == 1 else (lambda v, one: tuple(v))  # 1-d as 2-d
    if any(op >= max(s, d) for op, s, d in zip(output_padding, stride, dilation)):
        axes = ("depth", "height", "width")[-max(n, 2):]
        parts = [f"{what}_{axis}: {v}"
                 for what, vals in (("output_padding", lift(output_padding, 0)),
                                    ("stride", lift(stride, 1)), ("dilation", lift(dilation, 1)))
                 for axis, v in zip(axes, vals)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but "
                           f"got {' '.join(parts)}")
    if min(out_sizes) < 1:
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, lift(sizes, 1)))}). "
            f"Calculated output size per channel: ({' x '.join(map(str, lift(out_sizes, 1)))}"
            "). Output size is too small")
    out_shape = (x._data.shape[0], weight._data.shape[1] * groups, *out_sizes)
    out = ConvolutionTranspose.apply(x, weight, bias, stride, padding, dilation, out_shape,
                                     groups)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride=1, padding=0, output_padding=0, groups: int = 1,
                     dilation=1) -> Tensor:
    """1-d transposed convolution of ``input`` (N, C_in, L) or (C_in, L) with ``weight``
    (C_in, C_out, k): the gradient of :func:`conv1d` with respect to its input.

    >>> import minitorch
    >>> conv_transpose1d(minitorch.ones(1, 1, 3), minitorch.ones(1, 1, 2))
    tensor([[[1., 2., 2., 1.]]])
    """
    return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups,
                              dilation, 1, "conv_transpose1d")


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Tensor | None = None,  # noqa: A002
                     stride=1, padding=0, output_padding=0, groups: int = 1,
                     dilation=1) -> Tensor:
    """3-d transposed convolution of ``input`` (N, C_in, D, H, W) with ``weight``
    (C_in, C_out, kd, kh, kw): the gradient of :func:`conv3d` with respect to its input.

    >>> import minitorch
    >>> conv_transpose3d(minitorch.ones(1, 1, 2, 2, 2), minitorch.ones(1, 1, 2, 2, 2)).shape
    torch.Size([1, 1, 3, 3, 3])
    """
    return _conv_transpose_nd(input, weight, bias, stride, padding, output_padding, groups,
                              dilation, 3, "conv_transpose3d")


# ====================================================================== 3-d pools (task nn3d)
# max_pool3d, avg_pool3d and the adaptive 3-d pools: the N-d pooling Functions of _pooling under
# their 3-d names, after PyTorch's 3-d checks.
__all__ += ["max_pool3d", "max_pool3d_with_indices", "avg_pool3d", "adaptive_avg_pool3d",
            "adaptive_max_pool3d", "adaptive_max_pool3d_with_indices"]


def _pool3d_args(input: Tensor, name: str, kernel_size, stride, padding, dilation,  # noqa: A002
                 either: str) -> tuple:
    """The arguments as triples, in PyTorch's words (``either``: max_pool3d's "either ")."""
    kernel = _pooling._triple(kernel_size, f"{name}: kernel_size must {either}be a single "
                                           "int, or a tuple of three ints")
    if stride is None or (isinstance(stride, (tuple, list)) and not stride):
        stride = kernel
    stride = _pooling._triple(stride, f"{name}: stride must {either}be omitted, a single int, "
                                      "or a tuple of three ints")
    padding = _pooling._triple(padding, f"{name}: padding must {either}be a single int, or a "
                                        "tuple of three ints")
    dilation = _pooling._triple(dilation, f"{name}: dilation must be either a single int, or a "
                                          "tuple of three ints")
    if input._data.ndim not in (4, 5):
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    return kernel, stride, padding, dilation


def max_pool3d_with_indices(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
                            dilation=1, ceil_mode: bool = False, return_indices: bool = False):
    """:func:`max_pool3d` and the flat index (``d * H * W + h * W + w``) of each maximum."""
    check_tensor(input, "max_pool3d_with_indices", "input", 1)
    args = _pool3d_args(input, "max_pool3d", kernel_size, stride, padding, dilation, "either ")
    geometry = _pooling.pool3d_geometry(input.shape, *args, ceil_mode,
                                        "max_pool3d_with_indices_out_cpu_template()")
    if input._data.dtype == np.bool_:
        raise NotImplementedError("\"max_pool3d\" not implemented for 'Bool'")
    out = _pooling.MaxPool3DWithIndices.apply(input, geometry, (ceil_mode, stride))
    node = out.grad_fn
    if isinstance(node, _pooling.MaxPool3DWithIndices._backward_cls):
        which = node.which
    else:  # no graph was recorded: find the winners again
        which = _winners(input, geometry)
    idx = _pooling.MaxPool3DWithIndices.indices(which, geometry, _shape4d(input.shape, 3))
    idx = idx.reshape(out.shape)  # (batched: laid out as the result, layout2 task)
    return out, _wrap(_pooling._kept_layout(idx, input._data) if input.ndim == 5 else idx)


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,  # noqa: A002
               ceil_mode: bool = False, return_indices: bool = False):
    """The maximum of each ``kernel_size`` window of a volume (N, C, D, H, W) or (C, D, H, W),
    moving by ``stride`` (default: the kernel).

    >>> import minitorch
    >>> max_pool3d(minitorch.arange(8.0).reshape(1, 1, 2, 2, 2), 2)
    tensor([[[[[7.]]]]])
    """
    out, idx = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, idx) if return_indices else out


def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """The mean of each ``kernel_size`` window of a volume (N, C, D, H, W) or (C, D, H, W).

    >>> import minitorch
    >>> avg_pool3d(minitorch.arange(8.0).reshape(1, 1, 2, 2, 2), 2)
    tensor([[[[[3.5000]]]]])
    """
    check_tensor(input, "avg_pool3d", "input", 1)
    args = _pool3d_args(input, "avg_pool3d", kernel_size, stride, padding, 1, "")
    geometry = _pooling.pool3d_geometry(input.shape, *args, ceil_mode, "avg_pool3d()", True)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    if input._data.dtype not in (np.float32, np.float64, np.int64):
        raise NotImplementedError(
            f"\"avg_pool3d_out_frame\" not implemented for '{_type_name(input)}'")
    if divisor_override is not None:
        divisor = float(divisor_override)
    else:
        divisor = _pooling.avg_divisor(input.shape[-3:], geometry, ceil_mode, count_include_pad,
                                       input._data.dtype)
        if not isinstance(divisor, float) and array_module(input._data) is not np:
            divisor = array_module(input._data).asarray(divisor)
    return _pooling.AvgPool3D.apply(input, geometry, divisor)


def _adaptive3d(input: Tensor, output_size, name: str, colon: str, must: str) -> tuple:  # noqa: A002
    """PyTorch's checks of a 3-d adaptive pool; the output size, None keeping a dimension."""
    if input.dim() not in (4, 5):
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got{colon} "
                           f"[{', '.join(map(str, input.shape))}]")
    sizes = (output_size,) * 3 if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 3:
        raise RuntimeError(must)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{input.dtype._legacy[:-6]}'")
    return tuple(i if o is None else int(o) for o, i in zip(sizes, input.shape[-3:]))


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average-pool ``(N, C, D, H, W)`` (or ``(C, D, H, W)``) to ``output_size`` whatever the
    input size (an int, or ``(d, h, w)`` where None keeps that dimension)."""
    out_size = _adaptive3d(input, output_size, "adaptive_avg_pool3d", "",
                           "adaptive_avg_pool3d: output_size must be 3")
    if out_size == (1, 1, 1):  # global average pooling: PyTorch takes the mean
        return input.mean((-3, -2, -1), keepdim=True)
    return _pooling.AdaptiveAvgPool3D.apply(input, out_size)


def adaptive_max_pool3d_with_indices(input: Tensor, output_size,  # noqa: A002
                                     return_indices: bool = False):
    """:func:`adaptive_max_pool3d` and the flat index of each maximum in its volume."""
    out_size = _adaptive3d(input, output_size, "adaptive_max_pool3d", ":",
                           "adaptive_max_pool3d(): internal error: output_size.size() must be 3")
    return _pooling.AdaptiveMaxPool3D.apply(input, out_size)


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max-pool to ``output_size`` (see :func:`adaptive_avg_pool3d`); with
    ``return_indices=True`` also the position of each maximum in its ``D * H * W`` volume."""
    out, idx = adaptive_max_pool3d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


# ====================================================================== unpooling, LP pools (nn3d)
# max_unpool1d/2d/3d (the MaxUnpool Functions of _pooling) and lp_pool1d/2d/3d, written with
# tensor operations as PyTorch writes them.
__all__ += ["max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d", "lp_pool2d",
            "lp_pool3d"]


def _unpool_output_size(input: Tensor, kernel_size, stride, padding,  # noqa: A002
                        output_size) -> list:
    """PyTorch's ``_unpool_output_size``: the default size, or ``output_size`` checked."""
    n = len(kernel_size)
    default = [(input.shape[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
               for d in range(n)]
    if output_size is None:
        return default
    if len(output_size) == n + 2:
        output_size = output_size[2:]
    if len(output_size) != n:
        raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} "
                         f"elements, but it has a length of '{len(output_size)}'")
    for d in range(n):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f"{low} and {high})")
    return [int(s) for s in output_size]


def _max_unpool(input: Tensor, indices: Tensor, out_size: list, n: int) -> Tensor:  # noqa: A002
    """PyTorch's ``max_unpool2d`` / ``max_unpool3d`` kernels: their checks, then the node."""
    if _warnings.deterministic:  # repeated indices: which value wins?
        _warnings.alert_not_deterministic(f"max_unpooling{n}d_forward_out")
    name = f"max_unpooling{n}d"
    got = "" if n == 3 else f" but got: {_type_name(indices)}"
    if n == 2 and indices._data.dtype != np.int64:
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Input to {name} should be a {n + 1}d or {n + 2}d Tensor, but got a "
                           f"tensor with {input.dim()} dimensions.")
    if indices._data.dtype != np.int64:
        raise RuntimeError(f"elements in indices should be type int64{got}")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError("Expected shape of indices to be same as that of the input tensor "
                           f"({list(input.shape)}) but got indices tensor with shape: "
                           f"{list(indices.shape)}")
    for d in range(input.dim() - n - 1, input.dim()):
        if d > 0 or input.dim() == n + 1:
            if input.shape[d] == 0:
                raise RuntimeError(
                    f"{name}_forward_out_cpu(): Expected input to have "
                    "non-zero size for non-batch dimensions, but got "
                    f"{list(input.shape)} with dimension {d} being empty.")
    if input._data.dtype.kind not in "f":
        raise NotImplementedError(f"\"max_unpool{n}d\" not implemented for "
                                  f"'{_type_name(input)}'")
    idx = indices._data
    volume = math.prod(out_size)
    bad = (idx < 0) | (idx >= volume)
    if bad.any():  # PyTorch's loop reports the last one it meets
        last = idx.reshape(-1)[bad.size - 1 - int(bad.reshape(-1)[::-1].argmax())]
        raise RuntimeError(f"Found an invalid max index: {int(last)} (output volumes are of "
                           f"size {'x'.join(map(str, out_size))})")
    cls = _pooling.MaxUnpool2D if n == 2 else _pooling.MaxUnpool3D
    return cls.apply(input, indices, tuple(out_size))


def _unpool_args(kernel_size, stride, padding, n: int) -> tuple:
    def tup(v):
        return tuple(int(a) for a in v) * (n if len(v) == 1 else 1) if isinstance(
            v, (tuple, list)) else (int(v),) * n

    kernel = tup(kernel_size)
    return kernel, kernel if stride is None else tup(stride), tup(padding)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None,  # noqa: A002
                 padding=0, output_size=None) -> Tensor:
    """The partial inverse of :func:`max_pool1d`: each value put back where ``indices`` (from
    ``max_pool1d(..., return_indices=True)``) says it came from, zeros elsewhere. As in
    PyTorch, a 2-d unpool of the input with a width of 1.

    >>> import minitorch
    >>> out, idx = minitorch.nn.functional.max_pool1d(
    ...     minitorch.tensor([[1.0, 3.0, 2.0, 0.0]]), 2, return_indices=True)
    >>> max_unpool1d(out, idx, 2)
    tensor([[0., 3., 2., 0.]])
    """
    kernel, stride, padding = _unpool_args(kernel_size, stride, padding, 1)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    return _max_unpool(input.unsqueeze(-1), indices.unsqueeze(-1), [*size, 1], 2).squeeze(-1)


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None,  # noqa: A002
                 padding=0, output_size=None) -> Tensor:
    """The partial inverse of :func:`max_pool2d`: each value put back at its index (in the
    ``H * W`` plane) from ``max_pool2d(..., return_indices=True)``, zeros elsewhere."""
    kernel, stride, padding = _unpool_args(kernel_size, stride, padding, 2)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    return _max_unpool(input, indices, size, 2)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None,  # noqa: A002
                 padding=0, output_size=None) -> Tensor:
    """The partial inverse of :func:`max_pool3d` (indices in the ``D * H * W`` volume)."""
    kernel, stride, padding = _unpool_args(kernel_size, stride, padding, 3)
    size = _unpool_output_size(input, kernel, stride, padding, output_size)
    return _max_unpool(input, indices, size, 3)


def _lp_pool(input: Tensor, norm_type, kernel_size, stride, ceil_mode: bool,  # noqa: A002
             n: int) -> Tensor:
    """PyTorch's ``lp_pool1d/2d/3d``: ``(sum over the window of x ** p) ** (1 / p)``, as the
    window mean of ``x ** p`` times the window size (inf: the max of ``|x|``)."""
    max_pool = (max_pool1d, max_pool2d, max_pool3d)[n - 1]
    avg_pool = (avg_pool1d, avg_pool2d, avg_pool3d)[n - 1]
    if isinstance(norm_type, (int, float)):
        if norm_type == float("inf"):
            return max_pool(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -float("inf"):
            return -max_pool(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if n == 1:
        size = kernel_size
    else:
        sizes = kernel_size if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * n
        size = math.prod(sizes)
    if stride is not None:
        out = avg_pool(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * relu(out.abs())).mul(size).pow(1.0 / norm_type)


def lp_pool1d(input: Tensor, norm_type, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each ``kernel_size`` window along the length of (N, C, L) or (C, L).

    >>> import minitorch
    >>> lp_pool1d(minitorch.tensor([[3.0, 4.0]]), 2, 2)
    tensor([[5.]])
    """
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input: Tensor, norm_type, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each ``kernel_size`` window of (N, C, H, W) or (C, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input: Tensor, norm_type, kernel_size, stride=None,  # noqa: A002
              ceil_mode: bool = False) -> Tensor:
    """The p-norm of each ``kernel_size`` window of (N, C, D, H, W) or (C, D, H, W)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


# ====================================================================== fractional max pools (nn3d)
# fractional_max_pool2d/3d: PyTorch's Python code (the output size, one torch.rand sample per
# plane and dimension, so the same seed gives the same windows) and its kernel's checks.
__all__ += ["fractional_max_pool2d", "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d", "fractional_max_pool3d_with_indices"]


def _fractional_max_pool(input: Tensor, kernel_size, output_size, output_ratio,  # noqa: A002
                         samples, n: int):
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if n == 2 and len(output_ratio) > 2:  # (PyTorch's len() of a float: its TypeError)
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple "
                             "of Ints.")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (tuple, list)) else (
            output_ratio,)
        ratio = ratio * n if len(ratio) == 1 else ratio
        output_size = [int(input.size(d - n) * r) for d, r in enumerate(ratio)]
    if samples is None:
        batch = 1 if input.dim() == n + 1 else input.size(0)
        samples = _creation.rand(batch, input.size(-n - 1), n, dtype=input.dtype,
                                 device=input.device)
    kernel = (kernel_size,) * n if isinstance(kernel_size, int) else tuple(kernel_size)
    out_size = (output_size,) * n if isinstance(output_size, int) else tuple(output_size)
    kernel = kernel * n if len(kernel) == 1 else kernel
    out_size = out_size * n if len(out_size) == 1 else out_size
    where = f"{name}()" if n == 2 else f"{name}_out()"
    for what, values in (("kernel_size", kernel), ("output_size", out_size)):
        if len(values) != n:
            raise RuntimeError(f"{name}: {what} must either be a single Int or tuple of Ints")
    if input.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"{where}: Expected {n + 1}D or {n + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    for d in range(1, input.dim()):
        if input.shape[d] == 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(input.shape)} with dimension {d} "
                               "being empty.")
    batch = 1 if input.dim() == n + 1 else input.shape[0]
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    if samples._data.dtype != input._data.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != input.shape[-n - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got "
                           f"{samples.shape[2]}.")
    for what, k, o, i in zip(("time", "height", "width")[-n:], kernel, out_size,
                             input.shape[-n:]):
        # (the 3-d kernel also refuses windows that would end exactly at the input's end)
        if o + k - 1 > i or (n == 3 and o + k - 1 == i):
            raise RuntimeError(f"{where}: pool {what} {k} too large relative to input {what} "
                               f"{i}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{name}_out_frame\" not implemented for "
                                  f"'{_type_name(input)}'")
    cls = _pooling.FractionalMaxPool2D if n == 2 else _pooling.FractionalMaxPool3D
    return cls.apply(input, kernel, out_size, samples._data)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None,  # noqa: A002
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None):
    """:func:`fractional_max_pool2d` and the flat index (``h * W + w``) of each maximum."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                _random_samples, 2)


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None,  # noqa: A002
                          output_ratio=None, return_indices: bool = False,
                          _random_samples: Tensor | None = None):
    """Fractional max pooling (Graham, 2014): the maximum of ``kernel_size`` windows placed
    pseudo-randomly so that ``output_size`` (or ``output_ratio`` times the input size) of
    them cover each plane. The random places come from ``torch.rand``, as in PyTorch: the
    same seed gives the same windows.

    >>> import minitorch
    >>> x = minitorch.arange(16.0).reshape(1, 1, 4, 4)
    >>> fractional_max_pool2d(x, 2, output_size=3).shape
    torch.Size([1, 1, 3, 3])
    """
    out, idx = fractional_max_pool2d_with_indices(input, kernel_size, output_size,
                                                  output_ratio, False, _random_samples)
    return (out, idx) if return_indices else out


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None,  # noqa: A002
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples: Tensor | None = None):
    """:func:`fractional_max_pool3d` and the flat index of each maximum in its volume."""
    return _fractional_max_pool(input, kernel_size, output_size, output_ratio,
                                _random_samples, 3)


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None,  # noqa: A002
                          output_ratio=None, return_indices: bool = False,
                          _random_samples: Tensor | None = None):
    """Fractional max pooling of volumes (N, C, D, H, W) or (C, D, H, W); see
    :func:`fractional_max_pool2d`."""
    out, idx = fractional_max_pool3d_with_indices(input, kernel_size, output_size,
                                                  output_ratio, False, _random_samples)
    return (out, idx) if return_indices else out


# ====================================================================== nn misc: embedding_bag
from minitorch.nn._embedding_bag import EmbeddingBag as _EmbeddingBag  # noqa: E402
from minitorch.nn._embedding_bag import _bags as _bag_plan  # noqa: E402

__all__ += ["embedding_bag"]


def embedding_bag(input: Tensor, weight: Tensor, offsets: Tensor | None = None,  # noqa: A002
                  max_norm=None, norm_type: float = 2, scale_grad_by_freq: bool = False,
                  mode: str = "mean", sparse: bool = False,
                  per_sample_weights: Tensor | None = None, include_last_offset: bool = False,
                  padding_idx: int | None = None) -> Tensor:
    """The sum, mean or maximum of each bag of rows of ``weight`` (``nn.EmbeddingBag``).

    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> w = minitorch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    >>> F.embedding_bag(minitorch.tensor([0, 2, 1]), w, minitorch.tensor([0, 2]), mode="sum")
    tensor([[6., 8.],
            [3., 4.]])
    """
    if not weight.dtype.is_floating_point and input.dtype.is_floating_point:
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage "
                      "`embedding_bag(weight, input, ...)` is deprecated, and should now be "
                      "`embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight  # noqa: A001
    if per_sample_weights is not None and input.shape != per_sample_weights.shape:
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is "
                         f"not None, then it must have the same shape as the input "
                         f"({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension "
                         f"{weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences. However, found offsets "
                             f"of type {type(offsets)}")
        off = np.arange(0, input.numel(), input.shape[1]) if input.shape[1] else \
            np.zeros(input.shape[0], np.int64)
        include_last_offset = False
        input = input.reshape(-1)  # noqa: A001
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
        off = None
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{input.dim()}")
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        with grad_mode.no_grad():
            _embedding_renorm_(weight.detach(), input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub.")
    for t, arg in ((input, "1 'indices'"), (offsets, "2 'offsets'")):
        if t is not None and t.dtype.is_floating_point:
            raise RuntimeError(f"Expected tensor for argument #{arg.split()[0]} "
                               f"{arg.split()[1]} to have one of the following scalar types: "
                               f"Long, Int; but got torch.{t.dtype._legacy} instead (while "
                               "checking arguments for embedding_bag)")
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num} "
                               f"through {num - 1}, but got {padding_idx}")
        padding_idx %= num
    idx = _to_numpy(input._data).astype(np.int64)
    off = _to_numpy(offsets._data).astype(np.int64) if off is None else off
    if off.size and off[0] != 0:
        kind = "Int" if offsets is not None and offsets.dtype == _dtype.int32 else "Long"
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                           f"has to start from position 0. However, got {off[0]}\n"
                           f"[ torch.{kind}Tensor{{}} ]")
    if off.size and off[-1] > idx.shape[0]:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {idx.shape[0]} "
                           f"but got offsets[-1] of {off[-1]}")
    bad = np.flatnonzero((idx < 0) | (idx >= num))
    if bad.size:
        if mode != "max" and padding_idx is None and weight.dtype != _dtype.float64:
            raise RuntimeError(f"Index {bad[0]} of input takes value {idx[bad[0]]} which is not "
                               f"in the valid range [0, {num})")  # PyTorch's fast path says so
        raise RuntimeError("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found "
                           f"idx to be {idx[bad[0]]}")
    if per_sample_weights is not None and per_sample_weights.dtype != weight.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(weight)} but found "
                           f"{_type_name(per_sample_weights)}")
    if sparse and weight.requires_grad and grad_mode.is_grad_enabled():
        raise NotImplementedError("minitorch has no sparse tensors: embedding_bag(..., "
                                  "sparse=True) would give the weight a sparse gradient; use "
                                  "sparse=False")
    bag_of, n_bags = _bag_plan(idx, off, include_last_offset)
    return _EmbeddingBag.apply(weight, per_sample_weights, idx, bag_of, n_bags, mode,
                              padding_idx, bool(scale_grad_by_freq), (input, offsets, off))


# ====================================================================== nn misc: affine_grid
from minitorch.nn._grid import AffineGridGenerator as _AffineGridGenerator  # noqa: E402

__all__ += ["affine_grid"]

_ALIGN_CORNERS_DEFAULT = ("Default grid_sample and affine_grid behavior has changed to "
                          "align_corners=False since 1.3.0. Please specify align_corners=True "
                          "if the old behavior is desired. See the documentation of grid_sample "
                          "for details.")


def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The sampling grid ``(N, H, W, 2)`` (or ``(N, D, H, W, 3)``) of the affine maps
    ``theta`` ``(N, 2, 3)`` (or ``(N, 3, 4)``) for an output of ``size``: each point's
    normalised coordinates in ``[-1, 1]``, mapped by its batch's matrix (for ``grid_sample``).

    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> F.affine_grid(minitorch.tensor([[[1.0, 0, 0], [0, 1, 0]]]), (1, 1, 2, 2),
    ...               align_corners=True)
    tensor([[[[-1., -1.],
              [ 1., -1.]],
    <BLANKLINE>
             [[-1.,  1.],
              [ 1.,  1.]]]])
    """
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_DEFAULT, stacklevel=2)
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    sizes = tuple(size)
    if len(sizes) in (4, 5):
        k = len(sizes) - 2
        if theta.dim() != 3 or tuple(theta.shape[-2:]) != (k, k + 1):
            kind, mat = ("2D", "Nx2x3") if k == 2 else ("3D", "Nx3x4")
            raise ValueError(f"Expected a batch of {kind} affine matrices of shape {mat} for "
                             f"size {size}. Got {theta.shape}.")
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    if align_corners and min(sizes[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids "
                      "when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(sizes) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _AffineGridGenerator.apply(theta, sizes, bool(align_corners))



# ====================================================================== nn misc: gumbel_softmax
__all__ += ["gumbel_softmax"]


def gumbel_softmax(logits: Tensor, tau: float = 1, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """A differentiable sample from the categorical distribution of ``logits``: softmax of
    ``(logits + g) / tau`` with Gumbel(0, 1) noise ``g = -log(Exponential(1))``, drawn as
    PyTorch draws it (the same numbers under the same seed). ``hard=True`` returns the one-hot
    of the largest entry, with the soft sample's gradient (straight-through).

    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> gumbel_softmax(minitorch.tensor([[1.0, 2.0, 3.0]]), hard=True)
    tensor([[0., 0., 1.]])
    """
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -_creation.empty_like(logits).exponential_().log()  # ~Gumbel(0, 1)
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft  # the reparameterization trick
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _creation.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft  # straight through


# ====================================================================== nn misc: grid_sample
from minitorch.nn._grid_sample import GridSampler2D as _GridSampler2D  # noqa: E402
from minitorch.nn._grid_sample import GridSampler3D as _GridSampler3D  # noqa: E402

__all__ += ["grid_sample"]


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear",  # noqa: A002
                padding_mode: str = "zeros", align_corners: bool | None = None) -> Tensor:
    """Read ``input`` (N, C, H, W) at the points of ``grid`` (N, Ho, Wo, 2), whose ``(x, y)``
    run from -1 to 1 across the image (with :func:`affine_grid`: a spatial transformer), or a
    volume (N, C, D, H, W) at the points ``(x, y, z)`` of ``grid`` (N, Do, Ho, Wo, 3).
    ``mode``: ``"bilinear"`` (trilinear for a volume), ``"nearest"`` or ``"bicubic"`` (4-D
    only); ``padding_mode``: ``"zeros"``, ``"border"`` or ``"reflection"``.

    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> img = minitorch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    >>> F.grid_sample(img, minitorch.tensor([[[[0.0, 0.0], [1.0, -1.0]]]]), align_corners=True)
    tensor([[[[2.5000, 2.0000]]]])
    """
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_DEFAULT, stacklevel=2)
        align_corners = False
    if grid.shape[0] != input.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last "
                           f"dimension, but got grid with sizes {list(grid.shape)}")
    for i in range(2, input.dim()):
        if input.shape[i] == 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {i} being empty")
    if not (input.dim() == grid.dim() and input.dim() in (4, 5)):
        kind = "4D" if input.dim() == 4 else "5D"
        raise RuntimeError(f"grid_sampler(): expected {kind} input and grid with same number of "
                           f"dimensions, but got input with sizes {list(input.shape)} and grid "
                           f"with sizes {list(grid.shape)}")
    if mode == "bicubic" and input.dim() == 5:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input.dtype != grid.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found "
                           f"{_type_name(grid)}")
    sampler = _GridSampler2D if input.dim() == 4 else _GridSampler3D
    return sampler.apply(input, grid, mode, padding_mode, bool(align_corners))


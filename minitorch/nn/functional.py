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

import warnings

import numpy as np

from minitorch import _dtype, _random
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd import grad_mode
from minitorch.autograd.function import Function
from minitorch.ops import unary as _unary
from minitorch.ops._util import broadcast_error
from minitorch.ops.unary import sigmoid, tanh

__all__ = [
    # activations
    "relu", "leaky_relu", "sigmoid", "tanh", "softmax", "log_softmax", "dropout",
    # layers
    "linear", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "embedding", "one_hot",
    # losses
    "mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "nll_loss", "cross_entropy",
]


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if not reduce:
        return "none"
    return "mean" if size_average else "sum"


def _softplus_neg_abs(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(-|x|))``, which never overflows."""
    return np.log1p(np.exp(-np.abs(x)))


class BinaryCrossEntropyWithLogits(Function):
    """Sigmoid followed by binary cross-entropy, in one numerically stable step.

    With ``x`` the logit, ``y`` the target and ``p`` the positive weight:
    ``loss = (1 - y) x + (1 + (p - 1) y) (log(1 + e^-|x|) + max(-x, 0))``.
    """

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    _builtin = True
    _edge_args = (0, 1)  # as in PyTorch, the weights get no gradient (and no edge)

    @staticmethod
    def forward(ctx, x, y, weight, pos_weight, reduction):
        ctx.save_for_backward(x, y, weight, pos_weight)
        ctx.reduction = reduction
        xd, yd = x._data, y._data.astype(x._data.dtype, copy=False)
        log_sig_neg = _softplus_neg_abs(xd) + np.maximum(-xd, 0)  # -log(sigmoid(x))
        if pos_weight is None:
            loss = (1 - yd) * xd + log_sig_neg
        else:
            loss = (1 - yd) * xd + (1 + (pos_weight._data - 1) * yd) * log_sig_neg
        if weight is not None:
            loss = loss * weight._data
        if reduction == "mean":
            loss = loss.mean(dtype=xd.dtype)
        elif reduction == "sum":
            loss = loss.sum(dtype=xd.dtype)
        elif reduction != "none":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return _wrap(loss.astype(xd.dtype, copy=False) if hasattr(loss, 'astype') else loss)

    @staticmethod
    def backward(ctx, grad):
        x, y, weight, pos_weight = ctx.saved_tensors
        if ctx.reduction == "mean":
            grad = grad.expand(x.shape) / max(x.numel(), 1)
        elif ctx.reduction == "sum":
            grad = grad.expand(x.shape)
        s = sigmoid(x)
        if pos_weight is None:
            gx = s - y                           # d loss / dx = sigmoid(x) - y
            gy = -x                              # d loss / dy = -x
        else:
            gx = (pos_weight * y + 1 - y) * s - pos_weight * y
            # d loss / dy = (p - 1) * (-log sigmoid(x)) - x, with -log sigmoid(x) written
            # as max(-x, 0) + log(1 + e^-|x|) so that it never overflows
            gy = (pos_weight - 1) * ((-x).relu() + ((-x.abs()).exp() + 1).log()) - x
        if weight is not None:
            gx, gy = gx * weight, gy * weight
        return grad * gx, grad * gy


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
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    if pos_weight is not None and pos_weight.shape != input.shape:
        pos_weight = pos_weight.expand(input.shape)
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


# ====================================================================== helpers
_C_TYPE = {"float16": "Half", "float32": "Float", "float64": "Double", "int64": "Long",
           "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _type_name(t: Tensor) -> str:
    """PyTorch's short C type name of a tensor's dtype (``Float``, ``Double``, ``Long``)."""
    return _C_TYPE.get(t._data.dtype.name, t._data.dtype.name)


def _fmt_shape(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def _check_reduction(reduction: str) -> None:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce_array(loss: np.ndarray, reduction: str, dtype) -> np.ndarray:
    xp = array_module(loss)
    if reduction == "mean":
        return xp.asarray(loss.mean(dtype=dtype), dtype=dtype)
    if reduction == "sum":
        return xp.asarray(loss.sum(dtype=dtype), dtype=dtype)
    return loss


def _scale_grad(grad: Tensor, reduction: str, n: int) -> Tensor:
    """The gradient of a loss *element*: ``mean`` divides the incoming gradient by ``n``."""
    if reduction == "mean":
        return grad / max(n, 1)
    return grad


def _plain_backward() -> bool:
    """True in an ordinary ``backward()`` (no ``create_graph``): the backward formulas then
    run directly on the arrays, skipping the bookkeeping that only a graph of the backward
    pass needs. With ``create_graph=True`` they run as (recorded) tensor operations."""
    return not grad_mode._state.enabled


def _pair(value, name: str = "kernel_size") -> tuple:
    """``3`` -> ``(3, 3)``; ``(3, 2)`` stays; what Conv2d and the pools accept."""
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            return (int(value[0]), int(value[0]))
        if len(value) != 2:
            raise ValueError(f"{name} must be an int or a pair of ints, got {value!r}")
        return (int(value[0]), int(value[1]))
    return (int(value), int(value))


def _as_strided(data, shape, strides):
    """A read-only strided *view* of ``data`` (NumPy's stride tricks; no copy)."""
    xp = array_module(data)
    if xp is np:
        return np.lib.stride_tricks.as_strided(data, shape, strides, writeable=False)
    return xp.lib.stride_tricks.as_strided(data, shape, strides)


# ====================================================================== activations
class Relu(Function):
    """``max(x, 0)``; its derivative is 1 where the output is positive, else 0.

    The same operation as ``minitorch.relu``, with a NumPy backward for plain ``backward()``
    calls: ReLU sits in almost every network, so its cost matters.
    """

    node_name = "ReluBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype == np.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        out = _wrap(np.maximum(a._data, 0, dtype=a._data.dtype))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # select, not multiply: an inf gradient at out <= 0 must give 0, not NaN (inf * 0)
        if _plain_backward():
            return _wrap(_select_gradient(grad._data, ~(out._data <= 0)))
        return _unary.where(out <= 0, 0.0, grad)


def _select_gradient(g, keep):
    """``g`` where ``keep``, else 0: ``np.where(keep, g, 0)``, computed faster.

    ``np.where`` branches on every element, which is slow on a random mask such as ReLU's;
    ``g * keep`` is several times faster and gives the same numbers unless ``g`` holds an inf
    or a NaN where it is dropped (then ``inf * 0`` is NaN, and ``np.where`` is used after all).
    Adding 0 turns the ``-0.0`` of a dropped negative gradient into the ``0.0`` of PyTorch.
    """
    with np.errstate(invalid="ignore"):  # inf * 0
        kept = g * keep
    if np.isnan(kept).any():
        return np.where(keep, g, g.dtype.type(0))
    kept += 0
    return kept


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``max(input, 0)`` elementwise (``ReluBackward0``).

    >>> import minitorch
    >>> relu(minitorch.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    if inplace:
        return input._inplace(Relu.apply)
    return Relu.apply(input)


class LeakyRelu(Function):
    """``x`` where ``x > 0``, else ``slope * x``."""

    node_name = "LeakyReluBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, slope):
        xd = x._data
        positive = xd > 0
        ctx.factor = _wrap(np.where(positive, 1, slope).astype(xd.dtype))  # the local slope
        return _wrap(np.where(positive, xd, xd * xd.dtype.type(slope)))

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor  # d/dx = 1 for x > 0, slope otherwise


def leaky_relu(input: Tensor, negative_slope: float = 0.01,  # noqa: A002
               inplace: bool = False) -> Tensor:
    """``max(0, x) + negative_slope * min(0, x)``."""
    if inplace:
        return input._inplace(LeakyRelu.apply, negative_slope)
    return LeakyRelu.apply(input, negative_slope)


def _softmax_dim(name: str, ndim: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
        "dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def _norm_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim % n


class Softmax(Function):
    """``exp(x) / sum(exp(x))`` along ``dim``, computed as ``exp(x - max)`` (no overflow)."""

    node_name = "SoftmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, dim):
        xd = x._data
        e = np.exp(xd - xd.max(axis=dim, keepdims=True))
        out = _wrap(e / e.sum(axis=dim, keepdims=True))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (s,) = ctx.saved_tensors
        # ds_i/dx_j = s_i (delta_ij - s_j)  =>  grad_x = s * (grad - sum(grad * s))
        if _plain_backward():
            g, sd = grad._data, s._data
            return _wrap(sd * (g - (g * sd).sum(axis=ctx.dim, keepdims=True)))
        return s * (grad - (grad * s).sum(ctx.dim, keepdim=True))


class LogSoftmax(Function):
    """``x - log(sum(exp(x)))`` along ``dim``, with the log-sum-exp trick."""

    node_name = "LogSoftmaxBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, dim):
        xd = x._data
        shifted = xd - xd.max(axis=dim, keepdims=True)  # the largest entry becomes 0
        out = _wrap(shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True)))
        ctx.dim = dim
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d log_softmax_i / dx_j = delta_ij - softmax_j
        if _plain_backward():
            g = grad._data
            return _wrap(g - np.exp(out._data) * g.sum(axis=ctx.dim, keepdims=True))
        return grad - out.exp() * grad.sum(ctx.dim, keepdim=True)


def _softmax_input(input: Tensor, dim, dtype, name: str):  # noqa: A002
    x = input
    if dim is None:
        dim = _softmax_dim(name, x.ndim)
    if dtype is not None:
        x = x.to(dtype)
    if x._data.ndim == 0:
        x = x.reshape(1)
    return x, _norm_dim(dim, x._data.ndim)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
            dtype=None) -> Tensor:
    """Turn scores into probabilities along ``dim`` (they are positive and sum to 1).

    >>> import minitorch
    >>> softmax(minitorch.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
    """
    shape = input.shape
    x, d = _softmax_input(input, dim, dtype, "softmax")
    out = Softmax.apply(x, d)
    return out.reshape(shape) if len(shape) == 0 else out


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,  # noqa: A002
                dtype=None) -> Tensor:
    """``log(softmax(input))`` in one numerically stable step.

    >>> import minitorch
    >>> log_softmax(minitorch.tensor([1000.0, 1000.0]), dim=0)
    tensor([-0.6931, -0.6931])
    """
    shape = input.shape
    x, d = _softmax_input(input, dim, dtype, "log_softmax")
    out = LogSoftmax.apply(x, d)
    return out.reshape(shape) if len(shape) == 0 else out


def dropout(input: Tensor, p: float = 0.5, training: bool = True,  # noqa: A002
            inplace: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)``, so the
    expected value is unchanged. Does nothing when ``training`` is False.

    >>> import minitorch
    >>> dropout(minitorch.ones(4), p=0.5, training=False)
    tensor([1., 1., 1., 1.])
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    data = input._data
    if p == 1.0:  # everything dropped: PyTorch multiplies by zero and draws nothing
        mask = _wrap(np.zeros((), data.dtype))
    else:  # PyTorch's mask: bernoulli(1 - p), then divided by (1 - p), in the input's dtype
        keep = _random.bernoulli_mask(data.shape, 1.0 - p)
        mask = _wrap(keep.astype(data.dtype) / data.dtype.type(1.0 - p))
    if array_module(data) is not np:
        mask = mask.to(input.device)
    if inplace:
        return input.mul_(mask)
    return input * mask  # MulBackward0: the gradient is masked and scaled the same way


# ====================================================================== linear
class Addmm(Function):
    """``bias + mat1 @ mat2`` in one step: what ``nn.Linear`` runs on a batch.

    With ``out = b + x W^T``: ``dL/dx = dL/dout W``, ``dL/dW^T = x^T dL/dout`` and
    ``dL/db = sum over the batch of dL/dout``.
    """

    node_name = "AddmmBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, bias, mat1, mat2):
        _, need_1, need_2 = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if need_2 else None, mat2 if need_1 else None)
        out = mat1._data @ mat2._data
        out += bias._data
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        mat1, mat2 = ctx.saved_tensors
        if _plain_backward():
            g = grad._data
            return (_wrap(g.sum(axis=0)) if ctx.needs_input_grad[0] else None,
                    _wrap(g @ mat2._data.T) if mat2 is not None else None,
                    _wrap(mat1._data.T @ g) if mat1 is not None else None)
        return (grad.sum(0) if ctx.needs_input_grad[0] else None,
                grad.mm(mat2.t()) if mat2 is not None else None,
                mat1.t().mm(grad) if mat1 is not None else None)


def _check_linear(mat1: Tensor, weight: Tensor) -> None:
    (n, k), (m, k2) = mat1._data.shape, weight._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    if mat1._data.dtype != weight._data.dtype:
        raise RuntimeError(
            f"mat1 and mat2 must have the same dtype, but got {_type_name(mat1)} and "
            f"{_type_name(weight)}"
        )


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
                _check_linear(input, weight)
            return input.matmul(weight.t())  # MmBackward0 (2-D), SqueezeBackward4 (1-D)
        from minitorch.ops.shape import UnsafeView  # noqa: PLC0415

        flat = input.reshape(-1, input._data.shape[-1])
        _check_linear(flat, weight)
        return UnsafeView.apply(flat.mm(weight.t()),
                                input._data.shape[:-1] + (weight._data.shape[0],))
    if ndim == 2:
        _check_linear(input, weight)
        return Addmm.apply(bias, input, weight.t())
    # Other shapes go through a 2-D matrix and back, as in PyTorch (ViewBackward0 on top).
    flat = input.reshape(1, -1) if ndim == 1 else input.reshape(-1, input._data.shape[-1])
    _check_linear(flat, weight)
    out = Addmm.apply(bias, flat, weight.t())
    return out.view(input._data.shape[:-1] + (weight._data.shape[0],))


# ====================================================================== conv2d
# The convolution is a matrix product in disguise ("im2col"). Put the input channels last
# (N, H, W, C) and pad it; a strided *view* then shows every kh x kw receptive field as a
# (kh, kw, C) block without copying. Reshaping that view to one row per output pixel,
# (N * Ho * Wo, kh * kw * C), makes the one copy; multiplying by the weight matrix
# (kh * kw * C, O) gives every output pixel of every image in a single matmul.
def _conv_out_size(size: int, k: int, s: int, p: int, d: int) -> int:
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _pad_nhwc(x: np.ndarray, ph: int, pw: int) -> np.ndarray:
    """``x`` (N, C, H, W) as channels-last (N, H + 2 ph, W + 2 pw, C), zero padded."""
    n, c, h, w = x.shape
    out = array_module(x).zeros((n, h + 2 * ph, w + 2 * pw, c), dtype=x.dtype)
    out[:, ph:ph + h, pw:pw + w, :] = x.transpose(0, 2, 3, 1)
    return out


def _im2col(x: np.ndarray, kernel, stride, padding, dilation) -> tuple:
    """Every receptive field of ``x`` (N, C, H, W) as one row of a matrix.

    Returns ``(cols, (Ho, Wo))`` with ``cols`` of shape (N * Ho * Wo, kh * kw * C).
    """
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    n, c, h, w = x.shape
    ho, wo = _conv_out_size(h, kh, sh, ph, dh), _conv_out_size(w, kw, sw, pw, dw)
    xp = _pad_nhwc(x, ph, pw)
    s_n, s_h, s_w, s_c = xp.strides
    fields = _as_strided(xp, (n, ho, wo, kh, kw, c),
                         (s_n, s_h * sh, s_w * sw, s_h * dh, s_w * dw, s_c))
    return fields.reshape(n * ho * wo, kh * kw * c), (ho, wo)


def _weight_matrix(w: np.ndarray) -> np.ndarray:
    """The weight (O, C, kh, kw) as (O, kh * kw * C), in the order of the im2col columns."""
    return w.transpose(0, 2, 3, 1).reshape(w.shape[0], -1)


def _to_nchw(rows: np.ndarray, n: int, ho: int, wo: int) -> np.ndarray:
    """One row per output pixel (N * Ho * Wo, O) -> a contiguous (N, O, Ho, Wo) array."""
    out = rows.reshape(n, ho, wo, rows.shape[1]).transpose(0, 3, 1, 2)
    return array_module(rows).ascontiguousarray(out)


def _conv2d_array(x, w, b, stride, padding, dilation) -> tuple:
    """The convolution of arrays; also returns the im2col matrix (for the weight gradient)."""
    cols, (ho, wo) = _im2col(x, w.shape[2:], stride, padding, dilation)
    out = cols @ _weight_matrix(w).T
    if b is not None:
        out += b
    return _to_nchw(out, x.shape[0], ho, wo), cols


def _conv2d_weight_grad_array(g, w_shape, cols) -> np.ndarray:
    """dL/dW = sum over output pixels of (output gradient) x (receptive field)."""
    o, c, kh, kw = w_shape
    g_rows = g.transpose(0, 2, 3, 1).reshape(-1, o)  # (N * Ho * Wo, O)
    gw = (g_rows.T @ cols).reshape(o, kh, kw, c).transpose(0, 3, 1, 2)
    return array_module(gw).ascontiguousarray(gw)


def _conv2d_input_grad_array(g, w, x_shape, stride, padding, dilation) -> np.ndarray:
    """dL/dx: every output gradient flows back to the pixels of its receptive field."""
    n, c, h, wd = x_shape
    o, _, kh, kw = w.shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    xp = array_module(g)
    qh, qw = dh * (kh - 1) - ph, dw * (kw - 1) - pw
    if (sh, sw) == (1, 1) and qh >= 0 and qw >= 0:
        # With stride 1 this is itself a convolution: of the output gradient, padded by
        # d (k - 1) - p, with the kernel flipped and its in/out channels swapped.
        flipped = xp.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        return _conv2d_array(g, flipped, None, (1, 1), (qh, qw), dilation)[0]
    # General strides: scatter each kernel tap's share back ("col2im"), one tap at a time.
    ho, wo = g.shape[2:]
    g_rows = g.transpose(0, 2, 3, 1).reshape(-1, o)
    g_cols = (g_rows @ _weight_matrix(w)).reshape(n, ho, wo, kh, kw, c)
    gx = xp.zeros((n, h + 2 * ph, wd + 2 * pw, c), dtype=g.dtype)
    for i in range(kh):
        for j in range(kw):
            gx[:, i * dh:i * dh + sh * (ho - 1) + 1:sh,
               j * dw:j * dw + sw * (wo - 1) + 1:sw, :] += g_cols[:, :, :, i, j, :]
    gx = gx[:, ph:ph + h, pw:pw + wd, :].transpose(0, 3, 1, 2)
    return xp.ascontiguousarray(gx)


class Convolution(Function):
    """2-D convolution (cross-correlation, as in every deep-learning library).

    ``out[n, o] = bias[o] + sum_c sum_ij weight[o, c, i, j] * x[n, c, s*h + d*i, s*w + d*j]``.
    Its backward is two more convolutions: one gives dL/dx, one gives dL/dweight.
    """

    node_name = "ConvolutionBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # input, weight, bias (an edge even when there is no bias)

    @staticmethod
    def forward(ctx, x, weight, bias, stride, padding, dilation):
        need_x, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        out, cols = _conv2d_array(x._data, weight._data, None if bias is None else bias._data,
                                  stride, padding, dilation)
        ctx.save_for_backward(x if need_w else None, weight if need_x else None)
        ctx.params = (stride, padding, dilation)
        ctx.x_shape, ctx.w_shape = x._data.shape, weight._data.shape
        ctx.cols = cols if need_w else None  # reused by the weight gradient
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        gx = gw = gb = None
        if weight is not None:
            gx = ConvolutionInputGrad.apply(grad, weight, ctx.x_shape, *ctx.params)
        if x is not None:
            gw = ConvolutionWeightGrad.apply(x, grad, ctx.w_shape, *ctx.params, ctx.cols)
        if ctx.needs_input_grad[2]:
            gb = grad.sum((0, 2, 3))  # the bias is added at every output pixel
        return gx, gw, gb


class ConvolutionInputGrad(Function):
    """dL/dx of a convolution, as a function of (output gradient, weight).

    It is linear in both, so its own backward is a convolution and a weight gradient.
    """

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, grad, weight, x_shape, stride, padding, dilation):
        need_g, need_w = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(grad if need_w else None, weight if need_g else None)
        ctx.params, ctx.w_shape = (stride, padding, dilation), weight._data.shape
        return _wrap(_conv2d_input_grad_array(grad._data, weight._data, x_shape, stride,
                                              padding, dilation))

    @staticmethod
    def backward(ctx, gg):
        grad, weight = ctx.saved_tensors
        d_grad = d_weight = None
        if weight is not None:
            d_grad = Convolution.apply(gg, weight, None, *ctx.params)
        if grad is not None:
            d_weight = ConvolutionWeightGrad.apply(gg, grad, ctx.w_shape, *ctx.params, None)
        return d_grad, d_weight


class ConvolutionWeightGrad(Function):
    """dL/dweight of a convolution, as a function of (input, output gradient)."""

    node_name = "ConvolutionBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1)

    @staticmethod
    def forward(ctx, x, grad, w_shape, stride, padding, dilation, cols):
        need_x, need_g = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        ctx.save_for_backward(x if need_g else None, grad if need_x else None)
        ctx.params, ctx.x_shape = (stride, padding, dilation), x._data.shape
        if cols is None:
            cols = _im2col(x._data, w_shape[2:], stride, padding, dilation)[0]
        return _wrap(_conv2d_weight_grad_array(grad._data, w_shape, cols))

    @staticmethod
    def backward(ctx, ggw):
        x, grad = ctx.saved_tensors
        d_x = d_grad = None
        if grad is not None:
            d_x = ConvolutionInputGrad.apply(grad, ggw, ctx.x_shape, *ctx.params)
        if x is not None:
            d_grad = Convolution.apply(x, ggw, None, *ctx.params)
        return d_x, d_grad


def _same_padding(kernel, dilation, stride) -> tuple:
    if stride != (1, 1):
        raise ValueError("padding='same' is not supported for strided convolutions")
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
    if groups != 1:
        raise NotImplementedError("minitorch's conv2d supports groups=1 only")
    ndim = input._data.ndim
    if ndim not in (3, 4):
        raise RuntimeError(
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: "
            f"{_fmt_shape(input._data.shape)}"
        )
    unbatched = ndim == 3
    x = input.unsqueeze(0) if unbatched else input
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
        else:
            raise ValueError(
                f"Invalid padding string '{padding}', should be one of {{'valid', 'same'}}"
            )
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
# A pool looks at the same windows as a convolution. The window offsets (i, j) are few, so the
# loops below run over them (4 for a 2x2 pool), never over pixels: each step is one NumPy
# operation on a whole (N, C, Ho, Wo) array.
def _pool_out_size(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    span = size + 2 * p - d * (k - 1) - 1
    out = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1  # the last window must start inside the input or the left padding
    return out


def _pool_geometry(x_shape, kernel, stride, padding, dilation, ceil_mode, name):
    kernel = _pair(kernel)
    stride = kernel if (stride is None or stride == []) else _pair(stride, "stride")
    padding, dilation = _pair(padding, "padding"), _pair(dilation, "dilation")
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(
                f"pad should be at most half of effective kernel size, but got pad={p}, "
                f"kernel_size={k} and dilation={d}"
            )
    n, c, h, w = x_shape
    ho = _pool_out_size(h, kernel[0], stride[0], padding[0], dilation[0], ceil_mode)
    wo = _pool_out_size(w, kernel[1], stride[1], padding[1], dilation[1], ceil_mode)
    if ho < 1 or wo < 1:
        raise RuntimeError(
            f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{ho}x{wo}). Output "
            "size is too small"
        )
    # The padded extent: left padding, plus whatever the last window needs on the right.
    hp = max(h + padding[0], (ho - 1) * stride[0] + dilation[0] * (kernel[0] - 1) + 1)
    wp = max(w + padding[1], (wo - 1) * stride[1] + dilation[1] * (kernel[1] - 1) + 1)
    return kernel, stride, padding, dilation, (ho, wo), (hp - padding[0], wp - padding[1])


def _padded(x: np.ndarray, padding, extent, fill) -> np.ndarray:
    """``x`` inside a (hp, wp) plane of ``fill`` (left/top padding, then the right side)."""
    (ph, pw), (eh, ew) = padding, extent
    n, c, h, w = x.shape
    if (ph, pw) == (0, 0) and (eh, ew) == (h, w):
        return x
    out = array_module(x).full((n, c, ph + eh, pw + ew), fill, dtype=x.dtype)
    out[:, :, ph:ph + h, pw:pw + w] = x
    return out


def _taps(kernel, stride, dilation, out_size):
    """For each kernel offset (i, j): the slices of the padded input that it reads."""
    (kh, kw), (sh, sw), (dh, dw), (ho, wo) = kernel, stride, dilation, out_size
    return [(slice(i * dh, i * dh + sh * (ho - 1) + 1, sh),
             slice(j * dw, j * dw + sw * (wo - 1) + 1, sw))
            for i in range(kh) for j in range(kw)]


def _as4d(a: np.ndarray) -> np.ndarray:
    """An unbatched (C, H, W) array as a batch of one; (N, C, H, W) unchanged."""
    return a[None] if a.ndim == 3 else a


def _shape4d(shape: tuple) -> tuple:
    return (1, *shape) if len(shape) == 3 else tuple(shape)


def _unpad(gx: np.ndarray, padding, x_shape) -> np.ndarray:
    (ph, pw), (h, w) = padding, x_shape[2:]
    if gx.shape[2:] == (h, w):
        return gx
    return array_module(gx).ascontiguousarray(gx[:, :, ph:ph + h, pw:pw + w])


class MaxPool2DWithIndices(Function):
    """The largest value of each window; the gradient goes to the element that won."""

    node_name = "MaxPool2DWithIndicesBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, geometry):
        kernel, stride, padding, dilation, out_size, extent = geometry
        xd = _as4d(x._data)
        xp = array_module(xd)
        fill = -np.inf if xd.dtype.kind == "f" else np.iinfo(xd.dtype).min
        padded = _padded(xd, padding, extent, fill)
        taps = _taps(kernel, stride, dilation, out_size)
        out = padded[(Ellipsis, *taps[0])].copy()
        which = xp.zeros(out.shape, dtype=np.uint8)  # the winning offset of each window
        for k, (rows, cols) in enumerate(taps[1:], 1):
            candidate = padded[:, :, rows, cols]
            # strictly greater: the first max wins; but a NaN always wins (the last one, as in
            # PyTorch's kernel), so its gradient goes to the NaN that the output shows
            wins = candidate > out
            if candidate.dtype.kind == "f":
                wins |= xp.isnan(candidate)
            xp.copyto(which, k, where=wins)
            xp.maximum(out, candidate, out=out)
        ctx.which, ctx.geometry, ctx.x_shape = which, geometry, x._data.shape
        return _wrap(out if x._data.ndim == 4 else out[0])

    @staticmethod
    def backward(ctx, grad):
        return MaxPool2DBackward.apply(grad, ctx.which, ctx.geometry, ctx.x_shape)

    @staticmethod
    def indices(which, geometry, x_shape) -> np.ndarray:
        """PyTorch's ``return_indices``: the flat position (in the H x W plane) of each max."""
        kernel, stride, padding, dilation, (ho, wo), _ = geometry
        xp = array_module(which)
        i, j = which // kernel[1], which % kernel[1]
        rows = xp.arange(ho)[:, None] * stride[0] + i * dilation[0] - padding[0]
        cols = xp.arange(wo)[None, :] * stride[1] + j * dilation[1] - padding[1]
        return (rows * x_shape[3] + cols).astype(np.int64)


class MaxPool2DBackward(Function):
    """Route each window's gradient to the element that won (a scatter); linear in ``grad``."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, grad, which, geometry, x_shape):
        kernel, stride, padding, dilation, out_size, extent = geometry
        g = grad._data.reshape(which.shape)
        xp = array_module(g)
        ctx.which, ctx.geometry = which, geometry
        n, c = _shape4d(x_shape)[:2]
        gx = xp.zeros((n, c, padding[0] + extent[0], padding[1] + extent[1]), dtype=g.dtype)
        overlap = any(s < d * (k - 1) + 1 for k, s, d in zip(kernel, stride, dilation))
        for k, (rows, cols) in enumerate(_taps(kernel, stride, dilation, out_size)):
            if overlap:  # an element can win several windows: add up their gradients
                gx[:, :, rows, cols] += xp.where(which == k, g, 0)
            else:  # each element is in one window at most: just write
                xp.copyto(gx[:, :, rows, cols], g, where=which == k)
        return _wrap(_unpad(gx, padding, _shape4d(x_shape)).reshape(x_shape))

    @staticmethod
    def backward(ctx, gg):
        return MaxPoolGather.apply(gg, ctx.which, ctx.geometry)


class MaxPoolGather(Function):
    """Read the value at each window's winning position (the adjoint of the scatter)."""

    node_name = "MaxPool2DWithIndicesBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, x, which, geometry):
        kernel, stride, padding, dilation, out_size, extent = geometry
        xd = _as4d(x._data)
        ctx.which, ctx.geometry, ctx.x_shape = which, geometry, x._data.shape
        padded = _padded(xd, padding, extent, 0)
        out = array_module(xd).zeros(which.shape, dtype=xd.dtype)
        for k, (rows, cols) in enumerate(_taps(kernel, stride, dilation, out_size)):
            out += array_module(xd).where(which == k, padded[:, :, rows, cols], 0)
        return _wrap(out if x._data.ndim == 4 else out[0])

    @staticmethod
    def backward(ctx, grad):
        return MaxPool2DBackward.apply(grad, ctx.which, ctx.geometry, ctx.x_shape)


def _pool_input(input: Tensor, name: str) -> tuple:  # noqa: A002
    """Check the input; return it with its shape as a batch, (N, C, H, W)."""
    if input._data.ndim not in (3, 4) or input._data.size == 0:
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
                              "max_pool2d")
    out = MaxPool2DWithIndices.apply(x, geometry)
    if return_indices:
        node = out.grad_fn
        if isinstance(node, MaxPool2DWithIndices._backward_cls):
            which = node.which
        else:  # no graph was recorded: find the winners again
            which = _winners(x, geometry)
        idx = MaxPool2DWithIndices.indices(which, geometry, shape)
        return out, _wrap(idx[0] if unbatched else idx)
    return out


def _winners(x: Tensor, geometry) -> np.ndarray:
    """The winning offset of each window, without recording anything."""

    class _Ctx:  # the little that MaxPool2DWithIndices.forward uses of a node
        pass

    ctx = _Ctx()
    MaxPool2DWithIndices.forward(ctx, x, geometry)
    return ctx.which


class AvgPool2D(Function):
    """The mean of each window. Linear, so its backward spreads the gradient evenly back."""

    node_name = "AvgPool2DBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, geometry, divisor):
        kernel, stride, padding, dilation, out_size, extent = geometry
        padded = _padded(_as4d(x._data), padding, extent, 0)
        taps = _taps(kernel, stride, dilation, out_size)
        out = padded[(Ellipsis, *taps[0])].copy()
        for rows, cols in taps[1:]:
            out += padded[:, :, rows, cols]
        out /= divisor
        ctx.geometry, ctx.divisor, ctx.x_shape = geometry, divisor, x._data.shape
        return _wrap(out if x._data.ndim == 4 else out[0])

    @staticmethod
    def backward(ctx, grad):
        return AvgPool2DBackward.apply(grad, ctx.geometry, ctx.divisor, ctx.x_shape)


class AvgPool2DBackward(Function):
    """Each window's gradient, divided by the window size, added back to its elements."""

    node_name = "AvgPool2DBackwardBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, grad, geometry, divisor, x_shape):
        kernel, stride, padding, dilation, out_size, extent = geometry
        g = _as4d(grad._data) / divisor
        n, c = _shape4d(x_shape)[:2]
        gx = array_module(g).zeros((n, c, padding[0] + extent[0], padding[1] + extent[1]),
                                   dtype=grad._data.dtype)
        for rows, cols in _taps(kernel, stride, dilation, out_size):
            gx[:, :, rows, cols] += g
        ctx.geometry, ctx.divisor = geometry, divisor
        return _wrap(_unpad(gx, padding, _shape4d(x_shape)).reshape(x_shape))

    @staticmethod
    def backward(ctx, gg):
        return AvgPool2D.apply(gg, ctx.geometry, ctx.divisor)  # the adjoint of the adjoint


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
    geometry = _pool_geometry(shape, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d")
    kernel, stride_, padding_, _, out_size, extent = geometry
    h, w = shape[2:]
    if divisor_override is not None:
        divisor = float(divisor_override)
    elif padding_ == (0, 0) and extent == (h, w) or (count_include_pad and not ceil_mode):
        divisor = float(kernel[0] * kernel[1])
    else:
        # Count, for each window, the positions that are real input (count_include_pad=False)
        # or input-or-padding but not beyond it (windows that ceil_mode lets run off the end).
        ph, pw = padding_
        inside = np.zeros((1, 1, ph + extent[0], pw + extent[1]), dtype=x._data.dtype)
        if count_include_pad:
            inside[:, :, :h + 2 * ph, :w + 2 * pw] = 1
        else:
            inside[:, :, ph:ph + h, pw:pw + w] = 1
        counts = sum(inside[:, :, rows, cols]
                     for rows, cols in _taps(kernel, stride_, (1, 1), out_size))
        divisor = counts[0, 0]
        if array_module(x._data) is not np:
            divisor = array_module(x._data).asarray(divisor)
    return AvgPool2D.apply(x, geometry, divisor)


# ====================================================================== batch norm
class NativeBatchNorm(Function):
    """Normalise each channel to zero mean and unit variance, then scale and shift.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias``, with the batch statistics in
    training and the running estimates in evaluation.
    """

    node_name = "NativeBatchNormBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)

    @staticmethod
    def forward(ctx, x, weight, bias, running_mean, running_var, training, momentum, eps):
        xd = x._data
        dims = (0,) + tuple(range(2, xd.ndim))
        shape = (1, -1) + (1,) * (xd.ndim - 2)
        if training:
            mean = xd.mean(axis=dims, dtype=xd.dtype)
            var = xd.var(axis=dims, dtype=xd.dtype)
            if running_mean is not None:
                n = xd.size // xd.shape[1]
                m = xd.dtype.type(momentum)
                running_mean._data *= 1 - m
                running_mean._data += m * mean
                running_var._data *= 1 - m
                running_var._data += m * var * xd.dtype.type(n / max(n - 1, 1))
                running_mean._version_counter.value += 1
                running_var._version_counter.value += 1
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
        if not training:
            ctx.stats = (_wrap(mean.reshape(shape)), _wrap(invstd.reshape(shape)))
        return _wrap(out.astype(xd.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, weight = ctx.saved_tensors
        dims, shape = ctx.dims, ctx.shape
        if ctx.training:
            # Written with tensor operations of x: the batch statistics depend on x too.
            mean = x.mean(dims, keepdim=True)
            xc = x - mean
            invstd = ((xc * xc).mean(dims, keepdim=True) + ctx.eps) ** -0.5
        else:
            mean, invstd = ctx.stats
            xc = x - mean
        xhat = xc * invstd
        gxhat = grad if weight is None else grad * weight.reshape(shape)
        gx = None
        if ctx.needs_input_grad[0]:
            if ctx.training:
                gx = invstd * (gxhat - gxhat.mean(dims, keepdim=True)
                               - xhat * (gxhat * xhat).mean(dims, keepdim=True))
            else:
                gx = gxhat * invstd
        gw = (grad * xhat).sum(dims) if ctx.needs_input_grad[1] else None
        gb = grad.sum(dims) if ctx.needs_input_grad[2] else None
        return gx, gw, gb


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
    c = input._data.shape[1]
    if running_mean is not None and running_mean._data.shape[0] != c:
        raise RuntimeError(
            f"running_mean should contain {c} elements not {running_mean._data.shape[0]}"
        )
    if not training and (running_mean is None or running_var is None):
        training = True  # no running estimates: always use the batch statistics
    return NativeBatchNorm.apply(input, weight, bias, running_mean, running_var, training,
                                 momentum, eps)


# ====================================================================== embedding
class Embedding(Function):
    """Rows of ``weight`` picked by integer indices (a table lookup)."""

    node_name = "EmbeddingBackward0"
    _builtin = True
    _edge_args = (0,)  # only the weight gets a gradient

    @staticmethod
    def forward(ctx, weight, indices, padding_idx):
        ctx.indices, ctx.padding_idx, ctx.num = indices, padding_idx, weight._data.shape[0]
        return _wrap(weight._data[indices])

    @staticmethod
    def backward(ctx, grad):
        return EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.num, ctx.padding_idx)


class EmbeddingDenseBackward(Function):
    """Add each looked-up row's gradient into its row (a row used twice gets it twice)."""

    node_name = "EmbeddingDenseBackwardBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, grad, indices, num, padding_idx):
        g = grad._data
        dim = g.shape[-1]
        flat_idx = indices.reshape(-1)
        flat_g = g.reshape(-1, dim)
        if padding_idx is not None:
            keep = flat_idx != padding_idx  # the padding row never learns
            flat_idx, flat_g = flat_idx[keep], flat_g[keep]
        out = array_module(g).zeros((num, dim), dtype=g.dtype)
        array_module(g).add.at(out, flat_idx, flat_g)
        ctx.indices, ctx.padding_idx = indices, padding_idx
        return _wrap(out)

    @staticmethod
    def backward(ctx, gg):
        return Embedding.apply(gg, ctx.indices, None)


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,  # noqa: A002
              max_norm=None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
              sparse: bool = False) -> Tensor:
    """Look up the rows of ``weight`` given by the integer tensor ``input``."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError(
            "minitorch's embedding supports neither max_norm, scale_grad_by_freq nor sparse"
        )
    if input._data.dtype.kind not in "iu":
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{input.dtype._legacy} instead (while checking "
            "arguments for embedding)"
        )
    idx = input._data
    num = weight._data.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= num):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += num
    return Embedding.apply(weight, idx, padding_idx)


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
        num_classes = int(data.max()) + 1 if data.size else 0
    elif data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    xp = array_module(data)
    return _wrap((data[..., None] == xp.arange(num_classes)).astype(np.int64))


# ====================================================================== losses
class _MulScalar(Function):
    """``tensor * number`` as PyTorch's composite losses record it (``MulBackward1``)."""

    node_name = "MulBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, c):
        ctx.c = c
        return _wrap(a._data * a._data.dtype.type(c))

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.c


class _DivScalar(Function):
    """``tensor / number`` as PyTorch's composite losses record it (``DivBackward1``)."""

    node_name = "DivBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, c):
        ctx.c = c
        return _wrap(a._data / a._data.dtype.type(c))

    @staticmethod
    def backward(ctx, grad):
        return grad / ctx.c


def _warn_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.", UserWarning, stacklevel=3)


class MseLoss(Function):
    """Mean squared error, ``mean((x - y)^2)``; ``d/dx = 2 (x - y) / n``."""

    node_name = "MseLossBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, y, reduction):
        dt = _dtype.result_type(x, y).np  # float32 input, float64 target: a float64 loss
        xd, yd = x._data.astype(dt, copy=False), y._data.astype(dt, copy=False)
        if xd.dtype.kind != "f":
            raise NotImplementedError(f'"mse_cpu" not implemented for \'{_type_name(x)}\'')
        try:
            diff = xd - yd
        except ValueError:
            raise broadcast_error(x.shape, y.shape) from None
        ctx.save_for_backward(x, y)
        ctx.reduction, ctx.n = reduction, diff.size
        return _wrap(_reduce_array(diff * diff, reduction, xd.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        if _plain_backward():
            scale = 2.0 / max(ctx.n, 1) if ctx.reduction == "mean" else 2.0
            dt = grad._data.dtype
            gxd = (x._data.astype(dt) - y._data.astype(dt)) * (grad._data * scale)
            return (_wrap(gxd) if ctx.needs_input_grad[0] else None,
                    _wrap(-gxd) if ctx.needs_input_grad[1] else None)
        gx = 2 * (x - y) * _scale_grad(grad, ctx.reduction, ctx.n)
        return (gx if ctx.needs_input_grad[0] else None,
                -gx if ctx.needs_input_grad[1] else None)


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
             reduction: str = "mean", weight=None) -> Tensor:
    """The mean squared error between ``input`` and ``target`` (``nn.MSELoss``).

    >>> import minitorch
    >>> mse_loss(minitorch.tensor([1.0, 3.0]), minitorch.tensor([0.0, 0.0]))
    tensor(5.)
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _warn_size(input, target)
    out = MseLoss.apply(input, target, reduction)
    if weight is not None:
        raise NotImplementedError("mse_loss(weight=...) is not supported by minitorch")
    return out


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,  # noqa: A002
            reduction: str = "mean") -> Tensor:
    """The mean absolute error ``mean(|input - target|)`` (``nn.L1Loss``).

    Built from ``sub``, ``abs`` and ``mean``, as PyTorch does, so its graph shows those nodes.
    """
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    _check_reduction(reduction)
    _warn_size(input, target)
    return _reduce((input - target).abs(), reduction)


class BinaryCrossEntropy(Function):
    """``-w [y log x + (1 - y) log(1 - x)]`` on probabilities; the logs are clamped at -100
    (as in PyTorch) so that ``x = 0`` or ``1`` gives a large finite loss, not inf."""

    node_name = "BinaryCrossEntropyBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, y, weight, reduction):
        xd = x._data
        yd = y._data.astype(xd.dtype, copy=False)
        if ((xd < 0) | (xd > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(xd), -100)
            log_1mx = np.maximum(np.log1p(-xd), -100)
        loss = -(yd * log_x + (1 - yd) * log_1mx)
        if weight is not None:
            loss = loss * weight._data
        ctx.save_for_backward(x, y, weight)
        ctx.reduction, ctx.n = reduction, xd.size
        return _wrap(_reduce_array(loss.astype(xd.dtype, copy=False), reduction, xd.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, y, weight = ctx.saved_tensors
        grad = _scale_grad(grad, ctx.reduction, ctx.n)
        if weight is not None:
            grad = grad * weight
        gx = gy = None
        if ctx.needs_input_grad[0]:
            # d/dx = (x - y) / (x (1 - x)), kept finite at x = 0 and x = 1
            gx = grad * (x - y) / ((1 - x) * x).clamp(min=1e-12)
        if ctx.needs_input_grad[1]:
            # d/dy = log(1 - x) - log(x) = -logit(x), not clamped (inf at x = 0, as in PyTorch)
            gy = grad * ((1 - x).log() - x.log())
        return gx, gy, None


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
    if weight is not None and weight.shape != input.shape:
        weight = weight.expand(input.shape)
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


class NllLoss(Function):
    """Negative log-likelihood: pick ``-logp[target]`` for each sample.

    The gradient is ``-weight[target]`` (divided by the total weight for ``mean``) at the
    target class and 0 elsewhere: a constant matrix times the incoming gradient.
    """

    node_name = "NllLossBackward0"
    _builtin = True
    _edge_args = (0,)  # the target and the class weights get no gradient

    @staticmethod
    def forward(ctx, logp, target, weight, reduction, ignore_index):
        lp = logp._data
        xp = array_module(lp)
        # One row of class scores per target: (C,) -> (1, C); (N, C, d1, ...) -> (N*d1*..., C)
        if lp.ndim <= 2:
            moved = lp if lp.ndim == 2 else lp[None]
        else:
            moved = xp.moveaxis(lp, 1, -1)
        n_classes = moved.shape[-1]
        rows_lp = moved.reshape(-1, n_classes)
        t = target.reshape(-1)
        rows = xp.arange(t.shape[0])
        valid = t != ignore_index
        all_valid = bool(valid.all())
        t_safe = t if all_valid else xp.where(valid, t, 0)
        if t_safe.size and (t_safe.min() < 0 or t_safe.max() >= n_classes):
            bad = t_safe[(t_safe < 0) | (t_safe >= n_classes)]
            raise IndexError(f"Target {int(bad[0])} is out of bounds.")
        picked = rows_lp[rows, t_safe]  # log p(target) of every sample
        if weight is not None:
            w = weight._data[t_safe].astype(lp.dtype, copy=False) * valid
        elif not all_valid:
            w = valid.astype(lp.dtype)
        else:
            w = None  # every sample counts once
        losses = -picked if w is None else -picked * w
        coef = -1.0 if w is None else -w  # d loss_i / d logp[i, target_i]
        if reduction == "none":
            out = losses.reshape(target.shape)
        elif reduction == "sum":
            out = losses.sum(dtype=lp.dtype)
        else:
            total = t.shape[0] if w is None else w.sum(dtype=lp.dtype)
            if total:
                out = losses.sum(dtype=lp.dtype) / lp.dtype.type(total)
                coef = coef / total
            else:  # every target ignored: the loss is 0 / 0 = NaN, its gradient 0 (PyTorch's)
                out, coef = lp.dtype.type(np.nan), lp.dtype.type(0)
        grad_matrix = xp.zeros(rows_lp.shape, dtype=lp.dtype)
        grad_matrix[rows, t_safe] = coef
        grad_matrix = grad_matrix.reshape(moved.shape)
        if lp.ndim == 1:
            grad_matrix = grad_matrix[0]
        elif lp.ndim > 2:
            grad_matrix = xp.moveaxis(grad_matrix, -1, 1)
        ctx.grad_matrix, ctx.reduction, ctx.ndim = _wrap(grad_matrix), reduction, lp.ndim
        return _wrap(xp.asarray(out, dtype=lp.dtype))

    @staticmethod
    def backward(ctx, grad):
        if _plain_backward():
            g = grad._data
            if ctx.reduction == "none" and ctx.ndim > 1:
                g = g[:, None]
            return _wrap(g * ctx.grad_matrix._data)
        if ctx.reduction == "none" and ctx.ndim > 1:
            grad = grad.unsqueeze(1)  # one gradient per sample, spread over its classes
        return grad * ctx.grad_matrix


class NllLoss2D(NllLoss):
    """``NllLoss`` on images, (N, C, H, W) scores against (N, H, W) targets."""

    node_name = "NllLoss2DBackward0"
    _builtin = True
    _edge_args = (0,)


def _check_target(input: Tensor, target: Tensor) -> None:  # noqa: A002
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
    _check_target(input, target)
    ndim = input._data.ndim
    if ndim <= 2:
        return NllLoss.apply(input, target._data, weight, reduction, ignore_index)
    if ndim == 4:
        return NllLoss2D.apply(input, target._data, weight, reduction, ignore_index)
    # Other shapes are viewed as images (N, C, -1, 1), as PyTorch does.
    n, c = input._data.shape[:2]
    out = NllLoss2D.apply(input.reshape(n, c, -1, 1), target._data.reshape(n, -1, 1), weight,
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
    if label_smoothing == 0.0 and input._data.ndim == 2 and target._data.dtype.kind != "f":
        # The common case, (N, C) logits and class indices, without detours.
        _check_target(input, target)
        return NllLoss.apply(LogSoftmax.apply(input, 1), target._data, weight, reduction,
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
        return _DivScalar.apply(-prod.sum(), input.numel() // n_classes or 1)
    _check_target(input, target)
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
    return (_MulScalar.apply(nll, 1 - label_smoothing)
            + _MulScalar.apply(smooth, label_smoothing / n_classes))



# ---------------------------------------------------------------- adaptive pooling
def _adaptive_bins(in_size: int, out_size: int) -> list[tuple[int, int]]:
    """PyTorch's windows: bin ``i`` covers ``[floor(i*in/out), ceil((i+1)*in/out))``.

    Neighbouring bins may overlap by one element when ``in`` is not a multiple of ``out``.
    """
    return [((i * in_size) // out_size, -((-(i + 1) * in_size) // out_size))
            for i in range(out_size)]


def _averaging_matrix(in_size: int, out_size: int, dtype) -> np.ndarray:
    """``A`` with ``(A @ v)[i]`` = the mean of bin ``i`` of ``v``."""
    a = np.zeros((out_size, in_size), dtype=dtype)
    for i, (start, end) in enumerate(_adaptive_bins(in_size, out_size)):
        a[i, start:end] = 1.0 / (end - start)
    return a


def _adaptive_output_size(output_size, in_hw: tuple) -> tuple:
    sizes = (output_size,) * 2 if isinstance(output_size, int) else tuple(output_size)
    if len(sizes) != 2:
        raise ValueError("Input dimension should be at least 4")
    return tuple(i if o is None else int(o) for o, i in zip(sizes, in_hw))


def _adaptive_input(input: Tensor, name: str, colon: str = "") -> None:  # noqa: A002
    if input.dim() not in (3, 4):
        raise RuntimeError(f"{name}(): Expected 3D or 4D tensor, but got{colon} "
                           f"[{', '.join(map(str, input.shape))}]")


class AdaptiveAvgPool2D(Function):
    """Average pooling to a fixed output size. A 2-D window mean is separable: the mean over
    the rows of the bin, then over its columns, so ``out = A_h @ x @ A_w^T`` with the
    averaging matrices ``A``. Backward is the transpose: ``grad_x = A_h^T @ grad @ A_w``."""

    node_name = "AdaptiveAvgPool2DBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, out_hw):
        h, w = x._data.shape[-2:]
        xp = array_module(x._data)
        a_h = xp.asarray(_averaging_matrix(h, out_hw[0], x._data.dtype))
        a_w = xp.asarray(_averaging_matrix(w, out_hw[1], x._data.dtype))
        ctx.a_h, ctx.a_w = _wrap(a_h), _wrap(a_w)
        return _wrap(a_h @ x._data @ a_w.T)

    @staticmethod
    def backward(ctx, grad):
        return ctx.a_h.t() @ grad @ ctx.a_w


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average-pool ``(N, C, H, W)`` (or ``(C, H, W)``) to ``output_size`` whatever the input
    size (an int, or ``(h, w)`` where None keeps that dimension).

    >>> import minitorch
    >>> import minitorch.nn.functional as F
    >>> F.adaptive_avg_pool2d(minitorch.ones(1, 3, 7, 5), (2, 2)).shape
    torch.Size([1, 3, 2, 2])
    """
    _adaptive_input(input, "adaptive_avg_pool2d")
    out_hw = _adaptive_output_size(output_size, tuple(input.shape[-2:]))
    if out_hw == (1, 1):  # global average pooling: PyTorch takes the mean
        return input.mean((-2, -1), keepdim=True)
    return AdaptiveAvgPool2D.apply(input, out_hw)


class AdaptiveMaxPool2D(Function):
    """The maximum of each adaptive bin; backward sends the gradient to the winner."""

    node_name = "AdaptiveMaxPool2DBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, out_hw):
        data = x._data
        h, w = data.shape[-2:]
        xp = array_module(data)
        out = xp.empty(data.shape[:-2] + tuple(out_hw), dtype=data.dtype)
        idx = xp.empty(data.shape[:-2] + tuple(out_hw), dtype=np.int64)
        for i, (r0, r1) in enumerate(_adaptive_bins(h, out_hw[0])):
            for j, (c0, c1) in enumerate(_adaptive_bins(w, out_hw[1])):
                window = data[..., r0:r1, c0:c1].reshape(data.shape[:-2] + (-1,))
                k = window.argmax(-1)  # first maximum, as PyTorch
                out[..., i, j] = xp.take_along_axis(window, k[..., None], -1)[..., 0]
                idx[..., i, j] = (r0 + k // (c1 - c0)) * w + c0 + k % (c1 - c0)
        ctx.shape, ctx.idx = data.shape, idx
        return _wrap(out), _wrap(idx)

    @staticmethod
    def backward(ctx, grad, _grad_indices=None):
        return AdaptiveMaxPool2DGradInput.apply(grad, ctx.shape, ctx.idx)


class AdaptiveMaxPool2DGradInput(Function):
    """Backward of adaptive max pooling: each gradient added at its window's winner (a
    winner of two overlapping windows gets both). Its own backward picks them out again."""

    node_name = "AdaptiveMaxPool2DBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, grad, shape, idx):
        from minitorch.ops.indexing import _add_at  # noqa: PLC0415

        ctx.idx = idx.reshape(idx.shape[:-2] + (-1,))
        ctx.grad_hw = grad._data.shape[-2:]
        g = grad._data.reshape(grad._data.shape[:-2] + (-1,))
        out = array_module(g).zeros(shape[:-2] + (shape[-2] * shape[-1],), dtype=g.dtype)
        lead = np.indices(g.shape[:-1], sparse=True) if g.ndim > 1 else ()
        _add_at(out, (*[i[..., None] for i in lead], ctx.idx), g)
        return _wrap(out.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        flat = grad.reshape(*grad.shape[:-2], -1)
        return flat.gather(-1, _wrap(ctx.idx)).reshape(*grad.shape[:-2], *ctx.grad_hw)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max-pool to ``output_size`` (see :func:`adaptive_avg_pool2d`); with
    ``return_indices=True`` also the position of each maximum in its ``H * W`` plane."""
    _adaptive_input(input, "adaptive_max_pool2d", ":")
    out, idx = AdaptiveMaxPool2D.apply(input, _adaptive_output_size(output_size,
                                                                    tuple(input.shape[-2:])))
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

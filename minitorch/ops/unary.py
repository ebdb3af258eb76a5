"""Elementwise functions of one tensor: ``exp``, ``log``, ``sqrt``, ``abs``, ``sin``, ``cos``,
``tanh``, ``sigmoid``, ``relu``.

Each Function states its local derivative right next to its forward computation. Some save their
*output* instead of their input because the derivative is simplest in terms of it
(``d exp(x)/dx = exp(x)``, ``d tanh(x)/dx = 1 - tanh(x)^2``).

Example:
    >>> import minitorch
    >>> x = minitorch.tensor(0.0, requires_grad=True)
    >>> minitorch.sigmoid(x).backward()
    >>> x.grad
    tensor(0.2500)
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import against_number, float_type, quietly
from minitorch.ops.arithmetic import AddScalar, MulScalar

__all__ = ["exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid", "relu", "sign"]


def _float(a: Tensor) -> np.ndarray:
    return a._data.astype(float_type(a), copy=False)


class Exp(Function):
    node_name = "ExpBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_result, as in PyTorch

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.exp, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out  # d exp(a)/da = exp(a)


class Log(Function):
    node_name = "LogBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_self, as in PyTorch

    @staticmethod
    def forward(a):
        return _wrap(quietly(np.log, _float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / a  # d log(a)/da = 1/a


class Sqrt(Function):
    node_name = "SqrtBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_result, as in PyTorch

    @staticmethod
    def forward(ctx, a):
        out = _wrap(quietly(np.sqrt, _float(a)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad / MulScalar.apply(out, 2)  # d sqrt(a)/da = 1 / (2 sqrt(a))


class Abs(Function):
    node_name = "AbsBackward0"
    _builtin = True
    saved_names = ("self",)  # the node's _saved_<name>, as in PyTorch

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype == np.bool_:
            raise NotImplementedError("\"abs_cpu\" not implemented for 'Bool'")
        ctx.save_for_backward(a)
        return _wrap(np.abs(a._data))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * Sgn.apply(a)  # d|a|/da = sgn(a), taken as 0 at a = 0 (PyTorch: sgn)


class Sin(Function):
    node_name = "SinBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(np.sin(_float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * a.cos()  # d sin(a)/da = cos(a)


class Cos(Function):
    node_name = "CosBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        return _wrap(np.cos(_float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        (a,) = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad * -a.sin()  # d cos(a)/da = -sin(a)


class Tanh(Function):
    node_name = "TanhBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_result, as in PyTorch

    @staticmethod
    def forward(a):
        return _wrap(np.tanh(_float(a)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return TanhBackward.apply(grad, out)


def _opmath(x: np.ndarray) -> np.ndarray:
    """``x`` in the dtype PyTorch's CPU kernels compute in: float32 for float16."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


class TanhBackward(Function):
    """tanh's backward as an operation of its own, as PyTorch's ``tanh_backward``:
    ``d tanh(a)/da = 1 - tanh(a)^2``, so ``grad * (1 - out^2)`` from the output ``out``. One
    node instead of three, and with ``create_graph=True`` the node PyTorch records; its own
    backward (tanh's second derivative) is in tensor operations, as PyTorch's formula:
    linear in ``grad``, and ``-2 out grad`` times the incoming gradient for ``out``."""

    node_name = "TanhBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(grad, out):
        g, o = _opmath(grad._data), _opmath(out._data)
        return _wrap((g * (1 - o * o)).astype(grad._data.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        need_grad, need_out = ctx.needs_input_grad
        return (TanhBackward.apply(gg, out) if need_grad else None,
                gg * (MulScalar.apply(out, -2) * grad) if need_out else None)


class Sigmoid(Function):
    node_name = "SigmoidBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_result, as in PyTorch

    @staticmethod
    def forward(a):
        x = _float(a)
        # 1 / (1 + e^-x), written so that neither branch overflows
        e = np.exp(-np.abs(x))
        return _wrap(np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return SigmoidBackward.apply(grad, out)


class SigmoidBackward(Function):
    """sigmoid's backward as an operation of its own, as PyTorch's ``sigmoid_backward``:
    ``d sigmoid(a)/da = s (1 - s)`` with ``s = sigmoid(a)``, the output, so ``grad * (1 - s) *
    s``. Its own backward in tensor operations, as PyTorch's formula: linear in ``grad``, and
    ``grad (1 - 2 s)`` times the incoming gradient for ``s``."""

    node_name = "SigmoidBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(grad, out):
        g, o = _opmath(grad._data), _opmath(out._data)
        return _wrap((g * (1 - o) * o).astype(grad._data.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, gg):
        grad, out = ctx.saved_tensors
        need_grad, need_out = ctx.needs_input_grad
        return (SigmoidBackward.apply(gg, out) if need_grad else None,
                gg * grad * AddScalar.apply(MulScalar.apply(out, -2), 1) if need_out else None)


class Relu(Function):
    node_name = "ReluBackward0"
    _builtin = True
    saved_names = ("result",)  # the node's _saved_result, as in PyTorch

    @staticmethod
    def forward(a):
        x = a._data
        if x.dtype == np.bool_:
            raise RuntimeError("Boolean inputs not supported for relu")
        return _wrap(against_number(np.maximum, x))  # max(x, 0); relu(-0.0) is -0.0

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        # d relu(a)/da = 1 where a > 0, else 0: select the gradient (``grad * mask`` would turn
        # an inf gradient at a <= 0 into NaN). A NaN input passes its gradient, as in PyTorch.
        return ThresholdBackward.apply(grad, out)


class ThresholdBackward(Function):
    """relu's backward as an operation of its own, as PyTorch's ``threshold_backward``:
    ``grad`` where relu's output is > 0, else 0 (a selection, not ``grad * mask``).

    It is linear in ``grad``, so its own backward (relu's second derivative, needed by
    ``create_graph=True``) is the same selection of the incoming gradient. The output it reads
    is only a mask: its gradient is zero, but, as in PyTorch, it is there, so a gradient
    penalty reaches the input of a ReLU network (with zeros) instead of missing it.
    """

    node_name = "ThresholdBackwardBackward0"
    _builtin = True

    @staticmethod
    def forward(grad, out):
        return _wrap(_select_gradient(grad._data, out._data <= 0))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, out = inputs
        ctx.out = out

    @staticmethod
    def backward(ctx, grad):
        return (ThresholdBackward.apply(grad, ctx.out),
                grad.new_zeros(grad.shape) if ctx.needs_input_grad[1] else None)


_SAME_SIZE_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def _select_gradient(g, drop):
    """``g``, with ``+0.0`` where ``drop`` is True: ``np.where(drop, 0, g)``, computed faster.

    ``np.where`` branches on every element, which is slow on a random mask such as ReLU's, and
    ``g * keep`` turns an inf into NaN (``inf * 0``) and a negative gradient into ``-0.0``. So
    the selection is done on the bits: a mask of all ones (keep) or all zeros (drop), ANDed
    with the gradient's bits, gives each kept value exactly and ``+0.0`` for each dropped one.
    """
    as_int = _SAME_SIZE_INT[g.dtype.itemsize]
    mask = array_module(g).subtract(drop, 1, dtype=as_int)  # drop: 1 - 1 = 0, keep: 0 - 1 = -1
    return (g.view(as_int) & mask).view(g.dtype)


class Sign(Function):
    node_name = "SignBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        x = a._data
        if x.dtype == np.bool_:  # the sign of True is True
            return _wrap(x.copy())
        out = np.sign(x)
        if x.dtype.kind == "f":  # PyTorch: the sign of NaN is 0
            out = np.where(np.isnan(x), x.dtype.type(0), out)
        return _wrap(out)

    @staticmethod
    def backward(ctx, grad):
        # sign is flat: its derivative is 0 (wherever it exists)
        return _wrap(array_module(grad._data).zeros_like(grad._data))


class Sgn(Sign):
    """``sgn``: ``sign`` for real numbers, recorded under its own name (``abs``'s backward
    multiplies by it, as PyTorch's does)."""

    node_name = "SgnBackward0"
    _builtin = True


def exp(input: Tensor) -> Tensor:  # noqa: A002
    """``e ** input``, elementwise."""
    return Exp.apply(input)


def log(input: Tensor) -> Tensor:  # noqa: A002
    """Natural logarithm, elementwise."""
    return Log.apply(input)


def sqrt(input: Tensor) -> Tensor:  # noqa: A002
    return Sqrt.apply(input)


def abs(input: Tensor) -> Tensor:  # noqa: A001, A002
    return Abs.apply(input)


def sin(input: Tensor) -> Tensor:  # noqa: A002
    return Sin.apply(input)


def cos(input: Tensor) -> Tensor:  # noqa: A002
    return Cos.apply(input)


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    return Tanh.apply(input)


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """``1 / (1 + exp(-input))``, computed without overflow."""
    return Sigmoid.apply(input)


def relu(input: Tensor) -> Tensor:  # noqa: A002
    """``max(input, 0)``, elementwise."""
    return Relu.apply(input)


def sign(input: Tensor) -> Tensor:  # noqa: A002
    """-1, 0 or 1 by the sign of each element (0 for NaN). Its derivative is 0."""
    return Sign.apply(input)


# ---------------------------------------------------------------- rounding and inverse trig
def _check_not_bool(a: Tensor, name: str) -> None:
    if a._data.dtype == np.bool_:  # integers round to themselves; bools are refused
        raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')


class Ceil(Function):
    """``ceil``: the smallest integer >= x. A step function: its derivative is 0."""

    node_name = "CeilBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        _check_not_bool(a, "ceil")
        return _wrap(np.ceil(a._data)) if a._data.dtype.kind == "f" else _wrap(a._data.copy())

    @staticmethod
    def backward(ctx, grad):
        # flat between the jumps: zeros, as in PyTorch (``grad * 0`` would be NaN for an inf)
        return _wrap(array_module(grad._data).zeros_like(grad._data))


class Floor(Ceil):
    """``floor``: the largest integer <= x (derivative 0)."""

    node_name = "FloorBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        _check_not_bool(a, "floor")
        return _wrap(np.floor(a._data)) if a._data.dtype.kind == "f" else _wrap(a._data.copy())


class Asin(Function):
    node_name = "AsinBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _wrap(quietly(np.arcsin, _float(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        # d asin(a)/da = 1 / sqrt(1 - a^2), as PyTorch's formula writes it
        return grad * AddScalar.apply(-a * a, 1).rsqrt()


class Acos(Function):
    node_name = "AcosBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _wrap(quietly(np.arccos, _float(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        # d acos(a)/da = -1 / sqrt(1 - a^2), as PyTorch's formula writes it
        return grad * -AddScalar.apply(-a * a, 1).rsqrt()


class Atan(Function):
    node_name = "AtanBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return _wrap(np.arctan(_float(a)))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad / AddScalar.apply(a * a, 1)  # d atan(a)/da = 1 / (1 + a^2)


def ceil(input: Tensor) -> Tensor:  # noqa: A002
    """Round up to an integer value (the dtype stays: ``ceil(1.5)`` is ``2.``).

    >>> import minitorch
    >>> minitorch.ceil(minitorch.tensor([1.5, -0.5]))
    tensor([2., -0.])
    """
    return Ceil.apply(input)


def floor(input: Tensor) -> Tensor:  # noqa: A002
    """Round down to an integer value (the dtype stays)."""
    return Floor.apply(input)


def asin(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse sine (NaN outside [-1, 1])."""
    return Asin.apply(input)


def acos(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse cosine (NaN outside [-1, 1])."""
    return Acos.apply(input)


def atan(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse tangent."""
    return Atan.apply(input)


arcsin, arccos, arctan = asin, acos, atan
__all__ += ["ceil", "floor", "asin", "acos", "atan", "arcsin", "arccos", "arctan"]

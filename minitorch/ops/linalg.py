"""Matrix products: ``matmul`` (``@``) and the ``mm``, ``mv``, ``dot``, ``bmm`` it is built from.

For ``C = A @ B`` the chain rule gives ``dL/dA = dL/dC @ B^T`` and ``dL/dB = A^T @ dL/dC``:
the gradient flows back through the same kind of product.

``matmul`` dispatches on the operands' dimensions exactly as PyTorch does, so the graph has the
same nodes: a vector times a matrix is ``unsqueeze``, ``mm``, ``squeeze``; batched operands are
broadcast, flattened to a ``bmm``, and viewed back.

Example:
    >>> import minitorch
    >>> x = minitorch.ones(5)
    >>> w = minitorch.ones(5, 3, requires_grad=True)
    >>> minitorch.matmul(x, w)
    tensor([5., 5., 5.], grad_fn=<SqueezeBackward4>)
"""

from __future__ import annotations

import numpy as np

from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import check_same_device, check_tensor

__all__ = ["matmul", "mm", "mv", "dot", "bmm"]

_C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool", "float16": "c10::Half", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char"}


def _check_dtypes(a: Tensor, b: Tensor, op: str = "mm") -> None:
    """PyTorch's message for operands of different dtypes (each kernel words it its own way)."""
    check_same_device(a, b)
    if a._data.dtype != b._data.dtype:
        x, y = a.dtype._legacy[:-6], b.dtype._legacy[:-6]  # Float, Double, Long, ...
        raise RuntimeError({
            "mm": "expected m1 and m2 to have the same dtype, but got: "
                  f"{_C_NAMES[a.dtype.name]} != {_C_NAMES[b.dtype.name]}",
            "mv": f"addmv input tensors must have the same dtype, but got {y}, {x}, and {y}",
            "dot": f"dot : expected both vectors to have same dtype, but found {x} and {y}",
            "bmm": f"expected scalar type {x} but found {y}",
        }[op])


def _check_not_bool(a: Tensor, kernel: str) -> None:
    """PyTorch has no matrix product of bools (its CPU kernels are not built for them)."""
    if a._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


class Mm(Function):
    node_name = "MmBackward0"
    _builtin = True
    saved_names = ("self", "mat2")  # the node's _saved_<name> attributes, as in PyTorch

    @staticmethod
    def forward(a, b):
        return _wrap(a._data @ b._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.mm(b.t()) if b is not None else None,
                a.t().mm(grad) if a is not None else None)


class Mv(Function):
    node_name = "MvBackward0"
    _builtin = True
    saved_names = ("self", "vec")  # the node's _saved_<name> attributes, as in PyTorch

    @staticmethod
    def forward(m, v):
        return _wrap(m._data @ v._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        m, v = inputs
        need_m, need_v = ctx.needs_input_grad
        ctx.save_for_backward(m if need_v else None, v if need_m else None)

    @staticmethod
    def backward(ctx, grad):
        m, v = ctx.saved_tensors
        # d(Mv)/dM = grad outer v, d(Mv)/dv = M^T grad
        return (grad.unsqueeze(1) * v.unsqueeze(0) if v is not None else None,
                m.t().mv(grad) if m is not None else None)


class Dot(Function):
    node_name = "DotBackward0"
    _builtin = True
    saved_names = ("self", "tensor")  # the node's _saved_<name> attributes, as in PyTorch

    @staticmethod
    def forward(a, b):
        return _wrap(array_module(a._data).asarray(np.dot(a._data, b._data)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad * b if b is not None else None, grad * a if a is not None else None)


class Bmm(Function):
    node_name = "BmmBackward0"
    _builtin = True

    @staticmethod
    def forward(a, b):
        return _wrap(np.matmul(a._data, b._data))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.bmm(b.transpose(1, 2)) if b is not None else None,
                a.transpose(1, 2).bmm(grad) if a is not None else None)


def mm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """Matrix product of two 2-D tensors."""
    if input._data.ndim != 2 or mat2._data.ndim != 2:
        bad, name = (input, "self") if input._data.ndim != 2 else (mat2, "mat2")
        raise RuntimeError(f"{name} must be a matrix")
    _check_dtypes(input, mat2)
    (n, k), (k2, m) = input._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})"
        )
    _check_not_bool(input, "addmm_impl_cpu_")
    return Mm.apply(input, mat2)


def mv(input: Tensor, vec: Tensor) -> Tensor:  # noqa: A002
    """Matrix-vector product."""
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, "
                           f"{vec._data.ndim}")
    _check_dtypes(input, vec, "mv")
    (n, k), (k2,) = input._data.shape, vec._data.shape
    if k != k2:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{k}), vec ({k2})")
    _check_not_bool(input, "addmv_impl_cpu")
    return Mv.apply(input, vec)


def dot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Dot product of two 1-D tensors."""
    if input._data.ndim != 1 or other._data.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {input._data.ndim}D and {other._data.ndim}D tensors"
        )
    _check_dtypes(input, other, "dot")
    n, m = input._data.shape[0], other._data.shape[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively"
        )
    _check_not_bool(input, "dot")
    return Dot.apply(input, other)


def bmm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """Batched matrix product of two 3-D tensors with the same batch size."""
    for name, t in (("batch1", input), ("batch2", mat2)):
        if t._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    _check_not_bool(input, "bmm")  # before the dtypes are compared, as in PyTorch
    _check_dtypes(input, mat2, "bmm")
    (bs, _, k), (bs2, k2, _) = input._data.shape, mat2._data.shape
    if (bs2, k2) != (bs, k):
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{bs}, {k}] but "
            f"got: [{bs2}, {k2}]."
        )
    return Bmm.apply(input, mat2)


def matmul(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Matrix product with PyTorch's rules for 1-D, 2-D and batched (broadcast) operands."""
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(
            "matmul(): argument 'other' (position 2) must be Tensor, not "
            f"{type(other if isinstance(input, Tensor) else input).__name__}"
        )
    da, db = input._data.ndim, other._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        from minitorch.ops.shape import SqueezeMatmul

        return SqueezeMatmul.apply(mm(input.unsqueeze(0), other), (0,))
    if da == 2 and db == 2:
        return mm(input, other)
    if _should_fold(input, other):
        return _folded_matmul(input, other)
    return _batched_matmul(input, other)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """PyTorch's test for folding the batch of the larger operand into matrix rows, so that
    one ``mm``/``mv`` does the work: when the smaller operand needs a gradient (its gradient
    is then a single product, not a sum over the batch), or when no copy is needed."""
    a_larger = a._data.ndim >= b._data.ndim
    big = a if a_larger else b.mT
    small = b if a_larger else a
    if not (big._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small._requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    shape, strides = big._data.shape, big._data.strides
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    """``(..., n, k) @ (k, m)`` as one ``mm`` of ``(prod(...) * n, k)`` by ``(k, m)``."""
    from minitorch.ops.shape import UnsafeView

    transpose = b._data.ndim > a._data.ndim  # fold b: (a @ b)^T = b^T @ a^T
    big = b.mT if transpose else a
    small = (a.t() if a._data.ndim == 2 else a) if transpose else b
    out_shape = big._data.shape[:-1]
    rows = big.reshape(int(np.prod(out_shape)), big._data.shape[-1])
    if small._data.ndim == 1:
        return UnsafeView.apply(rows.mv(small), out_shape)
    out = UnsafeView.apply(rows.mm(small), out_shape + (small._data.shape[1],))
    return out.mT.contiguous() if transpose else out


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    """Broadcast the batch dimensions, flatten them, ``bmm``, and view the result back."""
    from minitorch.ops._util import broadcast_error
    from minitorch.ops.shape import UnsafeView

    sa, sb = a._data.shape, b._data.shape
    if len(sa) == 3 and len(sb) == 3 and sa[0] != sb[0]:
        # A batch of one that needs a gradient is squeezed away, so that its gradient is one
        # product instead of a sum over the other operand's batch.
        if sa[0] == 1 and a._requires_grad:
            return matmul(a.squeeze(0), b)
        if sb[0] == 1 and b._requires_grad:
            return matmul(a, b.squeeze(0))
    n = sa[-2] if len(sa) > 1 else 1
    k, p = (sb[-2], sb[-1]) if len(sb) > 1 else (sb[0], 1)
    try:
        batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        raise broadcast_error(sa[:-2], sb[:-2]) from None
    size = int(np.prod(batch))
    a3 = a.expand(batch + (n, sa[-1])).reshape(size, n, sa[-1])
    out_shape = batch + sa[-2:-1] + sb[-1:] * (len(sb) > 1)
    if len(sb) == 1:  # a batch of matrices times a vector
        b3 = b.expand(batch + (k,)).reshape(size, k).unsqueeze(2)
        return UnsafeView.apply(bmm(a3, b3).squeeze(-1), out_shape)
    b3 = b.expand(batch + (k, p)).reshape(size, k, p)
    return UnsafeView.apply(bmm(a3, b3), out_shape)


def outer(input: Tensor, vec2: Tensor) -> Tensor:  # noqa: A002
    """The outer product of two vectors, ``out[i, j] = input[i] * vec2[j]``, computed as
    PyTorch computes it: ``input`` as a column times ``vec2`` (its node is ``MulBackward0``).

    >>> import minitorch
    >>> minitorch.outer(minitorch.tensor([1, 2]), minitorch.tensor([3, 4, 5]))
    tensor([[ 3,  4,  5],
            [ 6,  8, 10]])
    """
    check_tensor(input, "outer", "input", 1)
    check_tensor(vec2, "outer", "vec2", 2)
    for t, name in ((input, "self"), (vec2, "vec2")):
        if t._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    return input.reshape(input._data.shape[0], 1) * vec2


__all__ += ["outer"]

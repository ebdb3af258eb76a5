"""Matrix products: ``matmul`` (``@``) and the ``mm``, ``mv``, ``dot``, ``bmm`` it is built from.

For ``C = A @ B`` the chain rule gives ``dL/dA = dL/dC @ B^T`` and ``dL/dB = A^T @ dL/dC``:
the gradient flows back through the same kind of product.

``matmul`` dispatches on the operands' dimensions exactly as PyTorch does, so the graph has the
same nodes: a vector times a matrix is ``unsqueeze``, ``mm``, ``squeeze``; batched operands are
broadcast, flattened to a ``bmm``, and viewed back.

Further down: ``outer``, ``addmm`` and its batched forms, ``cdist``, and ``trace``, ``vdot``,
``tensordot``, ``inner`` and ``kron`` (built from these products as PyTorch builds them),
``dist`` and ``renorm``.

Example:
    >>> import minitorch
    >>> x = minitorch.ones(5)
    >>> w = minitorch.ones(5, 3, requires_grad=True)
    >>> minitorch.matmul(x, w)
    tensor([5., 5., 5.], grad_fn=<SqueezeBackward4>)
"""

from __future__ import annotations

import numpy as np

from minitorch import _dtype
from minitorch._backend import array_module
from minitorch._dtype import CPP_NAMES
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.autograd.grad_mode import is_grad_enabled
from minitorch.ops._util import (
    KernelNode,
    broadcast_error,
    check_same_device,
    check_tensor,
    normalize_dim,
    operands,
    saved_attr,
    saved_sizes,
    suggested_layout,
)
from minitorch.ops.arithmetic import MulScalar, _check_sub
from minitorch.ops.reduction import check_norm_identity, norm_array, norm_backward

__all__ = ["matmul", "mm", "mv", "dot", "bmm"]



def _check_dtypes(a: Tensor, b: Tensor, op: str = "mm") -> None:
    """PyTorch's message for operands of different dtypes (each kernel words it its own way)."""
    check_same_device(a, b)
    if a._data.dtype != b._data.dtype:
        x, y = a.dtype._legacy[:-6], b.dtype._legacy[:-6]  # Float, Double, Long, ...
        raise RuntimeError({
            "mm": "expected m1 and m2 to have the same dtype, but got: "
                  f"{CPP_NAMES[a.dtype.name]} != {CPP_NAMES[b.dtype.name]}",
            "mv": f"addmv input tensors must have the same dtype, but got {y}, {x}, and {y}",
            "dot": f"dot : expected both vectors to have same dtype, but found {x} and {y}",
            "bmm": f"expected scalar type {x} but found {y}",
        }[op])


def _check_not_bool(a: Tensor, kernel: str) -> None:
    """PyTorch has no matrix product of bools (its CPU kernels are not built for them)."""
    if a._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def column_major(m: Tensor) -> bool:
    """Whether matrix ``m`` is laid out column by column (strides ``(1, rows)``, as ``w.t()``
    of a contiguous ``w``): then PyTorch's ``mm_mat1_backward`` / ``mm_mat2_backward`` compute
    its gradient transposed, ``(b @ grad.t()).t()``, so it has ``m``'s layout."""
    d = m._data
    if not d.size:  # no elements: by the strides PyTorch gives its layout (Tensor.stride),
        strides = m.stride()  # so a (4, 0) ``w.t()`` is column-major, a (0, 3) one is not
        return strides[0] == 1 and strides[1] == d.shape[0]
    return d.strides[0] == d.itemsize and d.strides[1] == d.itemsize * d.shape[0]


# (Not recorded, the plain product: the same values, one view fewer on a training step.)
def mm_mat1_backward(grad: Tensor, mat2: Tensor, mat1_column_major: bool) -> Tensor:
    """``grad @ mat2^T``, the gradient of ``mat1 @ mat2`` for ``mat1``, as PyTorch records it."""
    if mat1_column_major and is_grad_enabled():
        return mat2.mm(grad.t()).t()
    return grad.mm(mat2.t())


def mm_mat2_backward(grad: Tensor, mat1: Tensor, mat2_column_major: bool) -> Tensor:
    """``mat1^T @ grad``, the gradient of ``mat1 @ mat2`` for ``mat2``, as PyTorch records it."""
    if mat2_column_major and is_grad_enabled():
        return grad.t().mm(mat1).t()
    return mat1.t().mm(grad)


class Mm(Function):
    node_name = "MmBackward0"
    _builtin = True
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    saved_names = ("self", "mat2")  # the node's _saved_<name> attributes, as in PyTorch
    saved_values = {"self_sym_sizes": saved_sizes(0), "mat2_sym_sizes": saved_sizes(1)}

    @staticmethod
    def forward(a, b):
        return _wrap(a._data @ b._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b = inputs
        need_a, need_b = ctx.needs_input_grad
        ctx.save_for_backward(a if need_b else None, b if need_a else None)
        ctx.column_major = (need_a and column_major(a), need_b and column_major(b))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (mm_mat1_backward(grad, b, ctx.column_major[0]) if b is not None else None,
                mm_mat2_backward(grad, a, ctx.column_major[1]) if a is not None else None)


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
        # d(Mv)/dM = grad outer v (PyTorch's ger: a column times v), d(Mv)/dv = M^T grad
        return (grad.reshape(grad.shape[0], 1) * v if v is not None else None,
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
    pack_order = (1, 0)  # saved_tensors_hooks: PyTorch's pack order
    saved_names = ("self", "mat2")  # the node's _saved_<name>, as in PyTorch

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
    _check_vectors(input, other)
    return Dot.apply(input, other)


def _check_vectors(input: Tensor, other: Tensor) -> None:  # noqa: A002
    """PyTorch's errors of ``dot`` and ``vdot``: two 1-D tensors of one dtype and length."""
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

        return SqueezeMatmul.apply(mm(input.unsqueeze(0), other), (0,), 0)
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


# ---------------------------------------------------------------- addmm, baddbmm, addbmm
def _scalars(beta, alpha, dtype: np.dtype) -> tuple:
    """``beta`` and ``alpha`` as the kernel uses them: whole numbers for an integer dtype."""
    if dtype.kind in "iub":
        return int(beta), int(alpha)
    return beta, alpha


def _scaled(grad: Tensor, factor) -> Tensor:
    """PyTorch's ``maybe_multiply``: ``grad * factor``, or ``grad`` itself for a factor of 1."""
    return grad if factor == 1 else MulScalar.apply(grad, factor)


def _add_scaled(x, product, beta, alpha):
    """``beta * x + alpha * product``; with ``beta == 0`` ``x`` is not read (its NaNs too)."""
    out = product if alpha == 1 else product * alpha
    if beta == 0:
        return out.astype(product.dtype, copy=True)
    return (out + (x if beta == 1 else x * beta)).astype(product.dtype, copy=False)


class Addmm(Function):
    """``beta * input + alpha * (mat1 @ mat2)``; ``input`` broadcasts to the product's shape."""

    node_name = "AddmmBackward0"
    _builtin = True
    saved_names = ("mat1", "mat2")  # the node's _saved_<name>, as in PyTorch
    saved_values = {"alpha": saved_attr("alpha"), "beta": saved_attr("beta"),
                    "mat1_sym_sizes": saved_sizes(1), "mat2_sym_sizes": saved_sizes(2)}

    @staticmethod
    def forward(ctx, x, m1, m2, beta, alpha):
        ctx.save_for_backward(m1, m2)
        ctx.shape, ctx.beta, ctx.alpha = x.shape, beta, alpha
        ctx.column_major = (column_major(m1), column_major(m2))
        return _wrap(_add_scaled(x._data, m1._data @ m2._data, beta, alpha))

    @staticmethod
    def backward(ctx, grad):
        m1, m2 = ctx.saved_tensors
        need_x, need_1, need_2 = ctx.needs_input_grad[:3]
        return (_scaled(grad, ctx.beta).sum_to_size(ctx.shape) if need_x else None,
                _scaled(mm_mat1_backward(grad, m2, ctx.column_major[0]), ctx.alpha)
                if need_1 else None,
                _scaled(mm_mat2_backward(grad, m1, ctx.column_major[1]), ctx.alpha)
                if need_2 else None)


class Baddbmm(Function):
    """``beta * input + alpha * (batch1 @ batch2)``, one product per batch."""

    node_name = "BaddbmmBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, b1, b2, beta, alpha):
        ctx.save_for_backward(b1, b2)
        ctx.shape, ctx.beta, ctx.alpha = x.shape, beta, alpha
        return _wrap(_add_scaled(x._data, np.matmul(b1._data, b2._data), beta, alpha))

    @staticmethod
    def backward(ctx, grad):
        b1, b2 = ctx.saved_tensors
        need_x, need_1, need_2 = ctx.needs_input_grad[:3]
        return (_scaled(grad, ctx.beta).sum_to_size(ctx.shape) if need_x else None,
                _scaled(grad.bmm(b2.transpose(1, 2)), ctx.alpha) if need_1 else None,
                _scaled(b1.transpose(1, 2).bmm(grad), ctx.alpha) if need_2 else None)


class Addbmm(Function):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``: the batch's products added."""

    node_name = "AddbmmBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, b1, b2, beta, alpha):
        ctx.save_for_backward(b1, b2)
        ctx.shape, ctx.beta, ctx.alpha = x.shape, beta, alpha
        a, b = b1._data, b2._data
        product = np.matmul(a, b).sum(0, dtype=a.dtype) if a.shape[0] else \
            array_module(a).zeros((a.shape[1], b.shape[2]), a.dtype)
        return _wrap(_add_scaled(x._data, product, beta, alpha))

    @staticmethod
    def backward(ctx, grad):
        b1, b2 = ctx.saved_tensors
        need_x, need_1, need_2 = ctx.needs_input_grad[:3]
        g = grad.unsqueeze(0).expand(b1.shape[0], *grad.shape)
        return (_scaled(grad, ctx.beta).sum_to_size(ctx.shape) if need_x else None,
                _scaled(g.bmm(b2.transpose(1, 2)), ctx.alpha) if need_1 else None,
                _scaled(b1.transpose(1, 2).bmm(g), ctx.alpha) if need_2 else None)


def _check_broadcast(x: Tensor, shape: tuple) -> None:
    """PyTorch expands ``input`` to the product's shape: its error where it cannot."""
    if x.shape != shape:
        x.expand(*shape)


def _check_result_dims(batch1: Tensor, batch2: Tensor) -> None:
    """PyTorch reads the result's sizes (``batch1.size(1)``, ``batch2.size(2)``) before it
    checks that the batches are 3-D: an IndexError where they have fewer dimensions."""
    for t, d in ((batch1, 1), (batch2, 2)):
        ndim = t._data.ndim
        if ndim <= d:
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions"
                             if ndim == 0 else "Dimension out of range (expected to be in "
                             f"range of [{-ndim}, {ndim - 1}], but got {d})")


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * (mat1 @ mat2)``, as ``torch.addmm``: ``input`` broadcasts to
    the product's shape, and with ``beta=0`` it is not read at all (NaN in it do not spread).

    >>> import minitorch
    >>> minitorch.addmm(minitorch.ones(2), minitorch.eye(2), minitorch.ones(2, 2), alpha=3)
    tensor([[4., 4.],
            [4., 4.]])
    """
    for name, t in (("mat1", mat1), ("mat2", mat2)):
        if t._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {t._data.ndim}-D tensor")
    (n, k), (k2, m) = mat1.shape, mat2.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    for first, name in ((input, "self"), (mat1, "mat1")):
        if first._data.dtype != mat2._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                               f"{first.dtype._legacy[:-6]} and {mat2.dtype._legacy[:-6]}")
    _check_broadcast(input, (n, m))
    _check_not_bool(mat1, "addmm_impl_cpu_")
    return Addmm.apply(input, mat1, mat2, *_scalars(beta, alpha, mat1._data.dtype))


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1,  # noqa: A002
            alpha=1) -> Tensor:
    """``beta * input + alpha * (batch1 @ batch2)``, a product per batch, as
    ``torch.baddbmm``; ``input`` broadcasts to ``(b, n, p)``."""
    _check_result_dims(batch1, batch2)
    _check_broadcast(input, (batch1.shape[0], batch1.shape[1], batch2.shape[2]))
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    dtypes = [t._data.dtype for t in (input, batch1, batch2)]
    if dtypes[0] != dtypes[1]:
        raise RuntimeError("Input dtypes must be the same, got: input {}, batch1: {}, batch2: {}"
                           .format(*(CPP_NAMES[d.name] for d in dtypes)))
    (bs, _, k), (bs2, k2, _) = batch1.shape, batch2.shape
    if (bs2, k2) != (bs, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{bs}, {k}] but got: [{bs2}, {k2}].")
    _check_dtypes(batch1, batch2, "bmm")
    _check_not_bool(batch1, "baddbmm")
    return Baddbmm.apply(input, batch1, batch2, *_scalars(beta, alpha, dtypes[0]))


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1,  # noqa: A002
           alpha=1) -> Tensor:
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``, as ``torch.addbmm``: the
    batch's matrix products added into one ``(n, p)`` matrix."""
    _check_result_dims(batch1, batch2)
    _check_broadcast(input, (batch1.shape[1], batch2.shape[2]))
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    (bs, n, k), (bs2, k2, p) = batch1.shape, batch2.shape
    if bs != bs2:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {bs} and "
                           f"{bs2}")
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{p})")
    if input._data.dtype != batch2._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got "
                           f"{input.dtype._legacy[:-6]} and {batch2.dtype._legacy[:-6]}")
    _check_dtypes(batch1, batch2, "bmm")
    _check_not_bool(batch1, "addmm_impl_cpu_")
    return Addbmm.apply(input, batch1, batch2, *_scalars(beta, alpha, input._data.dtype))


__all__ += ["addmm", "baddbmm", "addbmm"]


# ---------------------------------------------------------------- cdist
def _cdist_array(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    """The p-norm distance of each row of ``a`` to each row of ``b`` (batch dims broadcast)."""
    diff = np.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return (diff != 0).sum(-1).astype(a.dtype)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return np.sqrt((diff * diff).sum(-1))
    if p == np.inf:
        if not diff.shape[-1]:  # no coordinates: every distance is 0
            return array_module(diff).zeros(diff.shape[:-1], dtype=a.dtype)
        return diff.max(-1).astype(a.dtype)
    return (diff ** p).sum(-1) ** (1 / p)


class Cdist(Function):
    """``cdist`` computed pair by pair. Its gradient (PyTorch's ``_cdist_backward``): for each
    pair, the derivative of the distance times the incoming gradient, added over the other
    rows; 0 where the distance is 0 (and for p = 0, whose distance is a count)."""

    node_name = "CdistBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x1, x2, p):
        ctx.p = p
        out = _cdist_array(x1._data, x2._data, p)
        xp = array_module(out)  # (C order on a device too: the layout its gradient sees)
        out = _wrap(suggested_layout(out, x1._data) if xp is np else xp.ascontiguousarray(out))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, dist = ctx.saved_tensors
        # as PyTorch: one _cdist_backward node per input, the other's with the roles swapped
        # (their batch dimensions broadcast: the engine sums them down)
        g1 = g2 = None
        if ctx.needs_input_grad[0]:
            g1 = CdistGrad.apply(grad.contiguous(), x1, x2, dist, ctx.p)
        if ctx.needs_input_grad[1]:
            g2 = CdistGrad.apply(grad.mT.contiguous(), x2, x1, dist.mT.contiguous(), ctx.p)
        return g1, g2


def _cdist_grad(grad, x1, x2, dist, p: float) -> tuple:
    """The gradient of ``x1`` in ``dist = cdist(x1, x2, p)`` from ``grad``, that of ``dist``
    (batch dimensions broadcast, not summed), in tensor operations."""
    diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)  # (..., r1, r2, c)
    return (_pnorm_grad(diff, grad.unsqueeze(-1), dist.unsqueeze(-1), p).sum(-2),)


class CdistGrad(KernelNode):
    """PyTorch's ``_cdist_backward`` as one node (``CdistBackwardBackward0``, edges: the
    output gradient, ``x1``, ``x2``, the distances): :func:`_cdist_grad`, not recorded.
    PyTorch has no derivative of it (its backward raises); here its backward differentiates
    that same formula, so cdist has second derivatives."""

    node_name = "CdistBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2, 3)  # grad, x1, x2, the distances; then p
    _formula = staticmethod(_cdist_grad)
    _first_only = True


def _pnorm_grad(diff: Tensor, g: Tensor, d: Tensor, p: float) -> Tensor:
    """``g`` times the derivative of the p-norm distance ``d = |diff|_p`` (over the last
    dimension) by ``diff``: PyTorch's ``_cdist_backward`` and ``_pdist_backward``, 0 where
    the distance is 0 (and for p = 0, whose distance is a count). ``g`` and ``d`` have a last
    dimension of 1. ``d`` is the node's output, not detached: the second derivative goes
    through the distance too."""
    if p == 0 or diff.numel() == 0:
        return diff * 0
    zero = (d == 0).expand(diff.shape).detach()
    d = d.masked_fill(d == 0, 1)
    if p == 1:
        term = g * diff.sign()
    elif p == 2:
        term = g * diff / d
    elif p == np.inf:
        term = g * diff.sign() * (diff.abs() == d).to(diff.dtype)
    else:
        a = diff.abs()
        if p < 1:  # |diff| ** (p - 1) is infinite at 0: PyTorch gives 0 there
            zero = zero | (a == 0)
            a = a.masked_fill(a == 0, 1)
        term = g * diff.sign() * a ** (p - 1) / d ** (p - 1)
    return term.masked_fill(zero, 0)


class EuclideanDist(Function):
    """``_euclidean_dist``: distances through one matrix product, ``sqrt(|a|^2 + |b|^2 -
    2 a.b)`` (clamped at 1e-30 first), PyTorch's way for p = 2 with more than 25 rows."""

    node_name = "EuclideanDistBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x1, x2):
        # in float64, rounded at the end: PyTorch sums in the dtype, in an order where a row's
        # distance to itself cancels to exactly 0; here it comes within rounding of 0
        a, b = x1._data.astype(np.float64), x2._data.astype(np.float64)
        a_norm, b_norm = (a * a).sum(-1, keepdims=True), (b * b).sum(-1, keepdims=True)
        squared = a_norm + np.swapaxes(b_norm, -1, -2) - 2 * (a @ np.swapaxes(b, -1, -2))
        squared = squared.astype(x1._data.dtype)
        out = _wrap(np.sqrt(np.maximum(squared, squared.dtype.type(1e-30))))
        ctx.save_for_backward(x1, x2, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x1, x2, res = ctx.saved_tensors
        ratio = (grad / res).masked_fill((res == 0).detach(), 0)
        return (x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2),
                x2 * ratio.sum(-2).unsqueeze(-1) - ratio.transpose(-1, -2).matmul(x1))


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The p-norm distance between each row of ``x1`` (``(..., r1, c)``) and each row of
    ``x2`` (``(..., r2, c)``): a ``(..., r1, r2)`` tensor, as ``torch.cdist``.

    For p = 2 with more than 25 rows on either side (or ``compute_mode=
    "use_mm_for_euclid_dist"``) PyTorch computes through a matrix product, faster and a little
    less exact, and records ``EuclideanDistBackward0`` under a view; minitorch does the same.

    >>> import minitorch
    >>> minitorch.cdist(minitorch.tensor([[0.0, 0.0]]), minitorch.tensor([[3.0, 4.0]]))
    tensor([[5.]])
    """
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: "
                               f"{t._data.ndim}D")
    c1, c2 = x1.shape[-1], x2.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{t.dtype._legacy[:-6]}")
    p = float(p)
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    check_same_device(x1, x2)
    (r1, r2), mode = (x1.shape[-2], x2.shape[-2]), _CDIST_MODES[compute_mode]
    try:
        batch = tuple(np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
    except ValueError:
        raise broadcast_error(x1.shape[:-2], x2.shape[:-2]) from None
    mm_path = p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    if mm_path and x1.numel() and x2.numel():
        _check_dtypes(x1, x2)
        if not batch:
            return EuclideanDist.apply(x1, x2).view(r1, r2)
        n = int(np.prod(batch))
        a = x1.expand(*batch, r1, c1).contiguous().view(n, r1, c1)
        b = x2.expand(*batch, r2, c2).contiguous().view(n, r2, c2)
        return EuclideanDist.apply(a, b).view(*batch, r1, r2)
    _check_dtypes(x1, x2, "bmm")
    if x1._data.dtype == np.float16:
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    return Cdist.apply(x1, x2, p)


__all__ += ["cdist"]


# ---------------------------------------------------------------- pdist (torchnn task)
class Pdist(Function):
    """``pdist``: the p-norm distance of each pair of rows ``i < j`` of a 2-d tensor, in the
    order of ``triu_indices(n, n, 1)``: :func:`_cdist_array` of the pairs. Its gradient (PyTorch's
    ``_pdist_backward``) is cdist's, each pair's term added to row ``i`` and taken from row
    ``j``."""

    node_name = "PdistBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, p):
        xp = array_module(x._data)
        i, j = np.triu_indices(x._data.shape[0], 1)
        ctx.p, ctx.pairs = p, (i, j)
        a, b = x._data[xp.asarray(i)], x._data[xp.asarray(j)]
        out = _wrap(_cdist_array(a[:, None, :], b[:, None, :], p).reshape(len(i)))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        x, dist = ctx.saved_tensors
        return PdistGrad.apply(grad, x, dist, ctx.p, ctx.pairs)


def _pdist_grad(grad, x, dist, p: float, pairs: tuple) -> tuple:
    """The gradient of ``x`` in ``dist = pdist(x, p)`` from ``grad``, that of ``dist``, in
    tensor operations: each pair's term added to row ``i``, taken from row ``j``."""
    i, j = (_wrap(np.asarray(k, np.int64)).to(x.device) for k in pairs)
    diff = x.index_select(0, i) - x.index_select(0, j)  # (pairs, c)
    term = _pnorm_grad(diff, grad.unsqueeze(-1), dist.unsqueeze(-1), p)
    return (x.new_zeros(x.shape).index_add(0, i, term).index_add(0, j, -term),)


class PdistGrad(KernelNode):
    """PyTorch's ``_pdist_backward`` as one node (``PdistBackwardBackward0``, edges: the
    output gradient, the input, the distances): :func:`_pdist_grad`, not recorded. As
    :class:`CdistGrad`, its backward (which PyTorch lacks) differentiates that formula."""

    node_name = "PdistBackwardBackward0"
    _builtin = True
    _edge_args = (0, 1, 2)  # grad, the input, the distances; then p and the pairs
    _formula = staticmethod(_pdist_grad)
    _first_only = True


def pdist(input: Tensor, p: float = 2.0) -> Tensor:  # noqa: A002
    """The p-norm distance between each pair of rows of the 2-d ``input`` (``(n, c)``): the
    ``n (n - 1) / 2`` distances above the diagonal of ``cdist(input, input, p)``, row by row,
    as ``torch.pdist``.

    >>> import minitorch
    >>> minitorch.pdist(minitorch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
    tensor([5.0000, 1.0000, 4.2426])
    """
    check_tensor(input, "pdist", "input", 1)
    if input._data.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input._data.ndim}D")
    if input._data.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    p = float(p)
    if not p >= 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input._data.dtype == np.float16:
        raise NotImplementedError("\"pdist\" not implemented for 'Half'")
    return Pdist.apply(input.contiguous(), p)


__all__ += ["pdist"]


# ---------------------------------------------------------------- trace, vdot, inner, kron
class Trace(Function):
    """The sum of the diagonal. Its gradient is ``grad`` on the diagonal and 0 elsewhere."""

    node_name = "TraceBackward0"
    _builtin = True

    @staticmethod
    def forward(a):
        x = a._data
        acc = np.int64 if x.dtype.kind in "biu" else np.float32 if x.dtype == np.float16 \
            else x.dtype  # integers add up in int64, float16 in float32
        out = x.trace(dtype=acc).astype(np.int64 if acc == np.int64 else x.dtype)
        return _wrap(array_module(x).asarray(out))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0].shape

    @staticmethod
    def backward(ctx, grad):
        off_diagonal = _wrap(~array_module(grad._data).eye(*ctx.shape, dtype=np.bool_))
        return grad.expand(ctx.shape).masked_fill(off_diagonal, 0)


def trace(input: Tensor) -> Tensor:  # noqa: A002
    """The sum of the diagonal of a matrix (integers give int64, as in PyTorch).

    >>> import minitorch
    >>> minitorch.trace(minitorch.tensor([[1, 2], [3, 4]]))
    tensor(5)
    """
    check_tensor(input, "trace", "input", 1)
    if input._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim "
                           f"{input._data.ndim}")
    _check_not_bool(input, "trace")
    return Trace.apply(input)


class Vdot(Dot):
    """``vdot``: for real vectors the same product as ``dot``, recorded as its own node."""

    node_name = "VdotBackward0"
    _builtin = True


def vdot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The dot product of two 1-D tensors (PyTorch conjugates ``input`` first, which changes
    nothing for real numbers)."""
    _check_vectors(input, other)
    return Vdot.apply(input, other)


def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Sum the products over the last ``dims`` dimensions of ``a`` and the first ``dims`` of
    ``b`` (or over the listed pairs ``([a_dims], [b_dims])``), as one matrix product."""
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(a.dim() - dims, a.dim()))
        dims_b = list(range(dims))
    elif isinstance(dims, (list, tuple)) and len(dims) == 2:
        if isinstance(dims[0], int) or isinstance(dims[1], int):
            raise TypeError("tensordot(): argument 'dims_self' (position 3) must be tuple of "
                            f"ints, not {type(dims[0]).__name__}")
        dims_a, dims_b = list(dims[0]), list(dims[1])
        if len(dims_a) != len(dims_b):
            raise RuntimeError("both dimension lists should have same length")
    else:
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    k = 1
    for da, db in zip(dims_a, dims_b):  # a size-1 (broadcast) side: sum the other one first
        if b.shape[db] == 1:
            a = a.sum(da, keepdim=True)
        elif a.shape[da] == 1:
            b = b.sum(db, keepdim=True)
        elif a.shape[da] != b.shape[db]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a.shape[da]} in dim {da} and second has size {b.shape[db]} "
                               f"in dim {db}")
        else:
            k *= a.shape[da]
    rows, cols = (int(np.prod([t.shape[d] for d in free], dtype=np.int64))
                  for t, free in ((a, free_a), (b, free_b)))
    out_shape = [a.shape[d] for d in free_a] + [b.shape[d] for d in free_b]
    left, right = a.permute(*free_a, *dims_a), b.permute(*dims_b, *free_b)
    if rows == 1 and cols == 1:  # one dot product, as PyTorch does (flatten: 1-d as it is)
        return dot(left.flatten(), right.flatten()).view(out_shape)
    return mm(left.reshape(rows, k), right.reshape(k, cols)).view(*out_shape)


def inner(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The products along the last dimension of both, summed: ``out[i..., j...] =
    sum_k input[i..., k] * other[j..., k]`` (a 0-d operand multiplies instead).

    >>> import minitorch
    >>> minitorch.inner(minitorch.tensor([1.0, 2.0]), minitorch.tensor([[3.0, 4.0]]))
    tensor([11.])
    """
    if input._data.ndim == 0 or other._data.ndim == 0:
        return input * other
    n, m = input._data.shape[-1], other._data.shape[-1]
    if n != m:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(input.shape)} and {list(other.shape)}")
    return tensordot(input, other, ([-1], [-1]))


def kron(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The Kronecker product: every element of ``input`` times the whole of ``other``, the
    blocks laid out as ``input``'s elements are. Computed as PyTorch does, by one broadcast
    product of ``input`` viewed as ``(a0, 1, a1, 1, ...)`` and ``other`` as ``(1, b0, 1, b1,
    ...)``, then seen as ``(a0 * b0, a1 * b1, ...)`` (its node is ``UnsafeViewBackward0``).

    >>> import minitorch
    >>> minitorch.kron(minitorch.tensor([1, 10]), minitorch.tensor([1, 2, 3]))
    tensor([ 1,  2,  3, 10, 20, 30])
    """
    from minitorch.ops.shape import UnsafeView

    check_tensor(input, "kron", "input", 1)
    check_tensor(other, "kron", "other", 2)
    ndim = max(input._data.ndim, other._data.ndim)
    a_shape = (1,) * (ndim - input._data.ndim) + input._data.shape
    b_shape = (1,) * (ndim - other._data.ndim) + other._data.shape
    a = UnsafeView.apply(input, tuple(n for s in a_shape for n in (s, 1)))
    b = UnsafeView.apply(other, tuple(n for s in b_shape for n in (1, s)))
    return UnsafeView.apply(a * b, tuple(x * y for x, y in zip(a_shape, b_shape)))


__all__ += ["trace", "vdot", "tensordot", "inner", "kron"]


# ---------------------------------------------------------------- dist
class Dist(Function):
    """``||input - other||_p`` over all elements (the two broadcast). Its gradient is the
    norm's (``reduction.norm_backward``) at ``input - other``, and its negative for
    ``other``."""

    node_name = "DistBackward0"
    _builtin = True
    pack_order = (1, 0, 2)  # saved_tensors_hooks: PyTorch's pack order

    @staticmethod
    def forward(a, b, p):
        x, y = operands(a, b)
        diff = x - y
        return _wrap(norm_array(diff, p, tuple(range(diff.ndim)), False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, b, ctx.p = inputs
        ctx.save_for_backward(a, b, output)

    @staticmethod
    def backward(ctx, grad):
        a, b, out = ctx.saved_tensors
        diff = a - b
        g = norm_backward(grad, diff, out, ctx.p, (), False)
        if g is None:  # p = 0 counts, and has no gradient: PyTorch's backward fails so
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor "
                               "in C++) for argument #0 'self'")
        return g, -g  # (the engine sums each to its input's shape, then casts it)


def dist(input: Tensor, other: Tensor, p=2) -> Tensor:  # noqa: A002
    """The ``p``-norm of ``input - other`` (which broadcast against each other), as
    ``torch.dist``: ``p`` is any number, ``inf`` (the largest difference) or ``0`` (how many
    elements differ).

    >>> import minitorch
    >>> minitorch.dist(minitorch.tensor([0.0, 0.0]), minitorch.tensor([3.0, 4.0]))
    tensor(5.)
    """
    check_tensor(input, "dist", "input", 1)
    check_tensor(other, "dist", "other", 2)
    if isinstance(p, bool) or not isinstance(p, (int, float, np.number)):
        raise TypeError(f"dist(): argument 'p' (position 3) must be Number, not "
                        f"{type(p).__name__}")
    try:
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error(input._data.shape, other._data.shape) from None
    _check_sub(input, other)  # PyTorch subtracts first: its error for bools
    dtype = _dtype.result_type(input, other)
    if not dtype.is_floating_point:
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {dtype._legacy[:-6]} instead.")
    check_norm_identity(shape, float(p), tuple(range(len(shape))))
    return Dist.apply(input, other, float(p))


__all__ += ["dist"]


# ---------------------------------------------------------------- renorm
class Renorm(Function):
    """Each slice along ``dim`` whose p-norm exceeds ``maxnorm`` scaled down to it: times
    ``maxnorm / (norm + 1e-7)``. Backward is PyTorch's ``renorm_backward``: for a scaled
    slice, ``factor * grad`` minus the part that moves its norm (through ``norm_backward``)."""

    node_name = "RenormBackward0"
    _builtin = True

    @staticmethod
    def forward(a, p, dim, maxnorm):
        x = a._data
        others = tuple(d for d in range(x.ndim) if d != dim)
        norm = norm_array(x.astype(np.float32) if x.dtype == np.float16 else x, p, others, True)
        xp = array_module(x)
        factor = xp.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).astype(x.dtype)
        return _wrap(suggested_layout(x * factor, x))  # (layout2 task: PyTorch's)

    @staticmethod
    def setup_context(ctx, inputs, output):
        a, ctx.p, ctx.dim, ctx.maxnorm = inputs
        ctx.save_for_backward(a)

    @staticmethod
    def backward(ctx, grad):
        from minitorch.ops.arithmetic import AddScalar, where
        from minitorch.ops.reduction import vector_norm

        (a,) = ctx.saved_tensors
        others = tuple(d for d in range(a.dim()) if d != ctx.dim)
        # PyTorch's: the norm and its gradient in the accumulation type (double for float32
        # on the CPU, float32 for float16), the result cast back to a's dtype (ToCopyBackward0)
        acc = _dtype.float64 if a.dtype == _dtype.float64 or (
            a.dtype == _dtype.float32 and a.device.type == "cpu") else _dtype.float32
        norm = vector_norm(a, ctx.p, others, True, dtype=acc)
        along = norm_backward((a * grad).sum(others, True, dtype=acc), a, norm, ctx.p, others,
                              True)
        inv_norm = AddScalar.apply(norm, 1e-7).reciprocal()
        factor = MulScalar.apply(inv_norm, ctx.maxnorm)
        scaled = (factor * (grad - inv_norm * along)).to(a.dtype)
        return where(norm > ctx.maxnorm, scaled, grad), None, None, None


def renorm(input: Tensor, p, dim: int, maxnorm) -> Tensor:  # noqa: A002
    """``input`` with each slice along ``dim`` (each ``input.select(dim, i)``) whose
    ``p``-norm is above ``maxnorm`` scaled down to norm ``maxnorm`` (the others unchanged).

    >>> import minitorch
    >>> minitorch.renorm(minitorch.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
    tensor([[0.6000, 0.8000],
            [0.3000, 0.4000]])
    """
    check_tensor(input, "renorm", "input", 1)
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if not maxnorm >= 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {float(maxnorm)}")
    ndim = input._data.ndim
    if ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {ndim} dimensions")
    dim = normalize_dim(dim, ndim)
    if input._data.dtype.kind != "f":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {input.dtype._legacy[:-6]}")
    return Renorm.apply(input, float(p), dim, float(maxnorm))


__all__ += ["renorm"]


# ---------------------------------------------------------------- addmv, addr (task linalg2)
class Addmv(Function):
    """``beta * input + alpha * (mat @ vec)``; ``input`` broadcasts to the product's length.
    Backward, as PyTorch's: ``beta * grad`` for ``input``, ``alpha * outer(grad, vec)`` for
    ``mat`` and ``alpha * mat^T grad`` for ``vec``."""

    node_name = "AddmvBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, mat, vec, beta, alpha):
        ctx.save_for_backward(mat, vec)
        ctx.shape, ctx.beta, ctx.alpha = x.shape, beta, alpha
        return _wrap(_add_scaled(x._data, mat._data @ vec._data, beta, alpha))

    @staticmethod
    def backward(ctx, grad):
        mat, vec = ctx.saved_tensors
        need_x, need_m, need_v = ctx.needs_input_grad[:3]
        return (_scaled(grad, ctx.beta).sum_to_size(ctx.shape) if need_x else None,
                _scaled(outer(grad, vec), ctx.alpha) if need_m else None,
                _scaled(mat.t().mv(grad), ctx.alpha) if need_v else None)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * (mat @ vec)``, as ``torch.addmv``: ``input`` (0-d or 1-D)
    broadcasts to ``mat.shape[0]``, and with ``beta=0`` it is not read (its NaNs do not
    spread). For integer tensors ``beta`` and ``alpha`` are truncated to whole numbers.

    >>> import minitorch
    >>> minitorch.addmv(minitorch.ones(2), minitorch.eye(2), minitorch.tensor([1.0, 2.0]))
    tensor([2., 3.])
    """
    check_tensor(input, "addmv", "input", 1)
    check_tensor(mat, "addmv", "mat", 2)
    check_tensor(vec, "addmv", "vec", 3)
    dims = input._data.ndim, mat._data.ndim, vec._data.ndim
    if dims[1] != 2 or dims[2] != 1 or dims[0] > 1:
        raise RuntimeError("vector + matrix @ vector expected, got {}, {}, {}".format(*dims))
    (n, k), k2 = mat.shape, vec.shape[0]
    if k != k2 or (input.numel() != n and input.numel() != 1):
        if dims[0] == 0:  # PyTorch's message reads input.size(0)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat ({n}x{k}), "
                           f"vec ({k2})")
    check_same_device(input, mat)
    check_same_device(mat, vec)
    if len({input._data.dtype, mat._data.dtype, vec._data.dtype}) > 1:
        raise RuntimeError("addmv input tensors must have the same dtype, but got {}, {}, and {}"
                           .format(*(t.dtype._legacy[:-6] for t in (input, mat, vec))))
    _check_not_bool(mat, "addmv_impl_cpu")
    return Addmv.apply(input, mat, vec, *_scalars(beta, alpha, mat._data.dtype))


class Addr(Function):
    """``beta * input + alpha * outer(vec1, vec2)`` in the three's promoted dtype (for bools:
    ``(beta and input) or (alpha and vec1 and vec2)``). Backward, as PyTorch's: ``beta *
    grad`` for ``input``, ``alpha * grad @ vec2`` and ``alpha * grad^T @ vec1``."""

    node_name = "AddrBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, x, v1, v2, beta, alpha, dtype):
        ctx.save_for_backward(v1, v2)
        ctx.shape, ctx.dtype, ctx.beta, ctx.alpha = x.shape, x.dtype, beta, alpha
        a, b, c = (t._data.astype(dtype, copy=False) for t in (x, v1, v2))
        product = b[:, None] * c[None, :]
        if dtype == np.bool_:
            return _wrap((product & alpha) | (a & beta) if beta else product & alpha)
        if dtype == np.float16:  # PyTorch computes in float32 and rounds once
            return _wrap(_add_scaled(a.astype(np.float32), product.astype(np.float32), beta,
                                     alpha).astype(np.float16))
        return _wrap(_add_scaled(a, product, beta, alpha))

    @staticmethod
    def backward(ctx, grad):
        v1, v2 = ctx.saved_tensors
        need_x, need_1, need_2 = ctx.needs_input_grad[:3]
        return (_scaled(grad, ctx.beta).sum_to_size(ctx.shape).to(ctx.dtype) if need_x else None,
                _scaled(grad.mv(v2), ctx.alpha) if need_1 else None,
                _scaled(grad.t().mv(v1), ctx.alpha) if need_2 else None,
                None, None, None)


def _addr_scalar(value, dtype: np.dtype, name: str):
    """``beta`` or ``alpha`` of ``addr`` as its kernel takes it, with PyTorch's checks."""
    if isinstance(value, (bool, np.bool_)) and dtype != np.bool_:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if dtype.kind in "biu" and not isinstance(value, (int, np.integer, np.bool_)):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a "
                           "floating point number.")
    return bool(value) if dtype == np.bool_ else int(value) if dtype.kind in "iu" else value


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * outer(vec1, vec2)``, as ``torch.addr``: ``input`` broadcasts
    to ``(len(vec1), len(vec2))``, the three promote to one dtype, and with ``beta=0``
    ``input`` is not read (its NaNs do not spread).

    >>> import minitorch
    >>> minitorch.addr(minitorch.zeros(2, 2), minitorch.tensor([1, 2]), minitorch.tensor([3, 4]))
    tensor([[3., 4.],
            [6., 8.]])
    """
    check_tensor(input, "addr", "input", 1)
    check_tensor(vec1, "addr", "vec1", 2)
    check_tensor(vec2, "addr", "vec2", 3)
    for t, name in ((vec1, "vec1"), (vec2, "vec2")):
        if t._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    shape = (vec1.shape[0], vec2.shape[0])
    _check_broadcast(input, shape)
    return _addr(input, vec1, vec2, beta, alpha)


def _addr(input: Tensor, vec1: Tensor, vec2: Tensor, beta, alpha) -> Tensor:  # noqa: A002
    check_same_device(input, vec1)
    check_same_device(vec1, vec2)
    dtype = _dtype.promote_types(_dtype.promote_types(input.dtype, vec1.dtype), vec2.dtype)
    np_dtype = dtype.np
    beta = _addr_scalar(beta, np_dtype, "beta")
    alpha = _addr_scalar(alpha, np_dtype, "alpha")
    return Addr.apply(input, vec1, vec2, beta, alpha, np_dtype)


__all__ += ["addmv", "addr"]

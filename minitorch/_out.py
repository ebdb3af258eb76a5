"""The ``out=`` keyword: write an operation's result into an existing tensor.

``torch.add(a, b, out=c)`` computes ``a + b`` and copies it into ``c`` (returning ``c``), as
PyTorch does:

* ``out`` is resized when its shape differs (with PyTorch's deprecation warning unless it was
  empty; factories such as ``zeros(..., out=t)`` resize silently);
* the result is cast to ``out``'s dtype when that is a safe cast (``float32`` into
  ``float64``), and refused otherwise (``float`` into ``long``);
* ``out=`` is not differentiable: when gradients are being recorded and an argument (or
  ``out``) requires grad, it is a RuntimeError;
* factories draw or fill in ``out``'s dtype, and refuse a ``dtype=`` that disagrees with it.

Example:
    >>> import minitorch
    >>> c = minitorch.empty(2)
    >>> minitorch.add(minitorch.ones(2), 1, out=c) is c
    True
    >>> c
    tensor([2., 2.])
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from minitorch import _backend, _dtype
from minitorch._backend import array_module
from minitorch._dtype import CPP_NAMES
from minitorch._tensor import Tensor
from minitorch.autograd import grad_mode

__all__ = ["with_out", "factory_with_out"]


def _fmt(shape) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def copy_into_out(out: Tensor, result: Tensor, *, warn_resize: bool) -> Tensor:
    """Write ``result`` into ``out`` (resizing it if needed) and return ``out``."""
    if not isinstance(out, Tensor):
        raise TypeError(f"argument 'out' must be Tensor, not {type(out).__name__}")
    values = result._data
    if type(values) is not type(out._data):  # a factory's result, made on the host
        values = _backend.move(values, out.device)
    if out._data.shape != values.shape:
        if warn_resize and out._data.size != 0:
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{_fmt(out.shape)}, which does not match the required output shape "
                f"{_fmt(values.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).", UserWarning, stacklevel=3)
        if not np.can_cast(values.dtype, out._data.dtype, "same_kind"):
            out._write(values)  # raises PyTorch's "can't be cast" error
        xp = array_module(out._data)
        out._data = xp.empty(values.shape, dtype=out._data.dtype)
    out._write(values)
    return out


def _tensors_in(values):
    for v in values:
        if isinstance(v, (list, tuple)):  # cat([a, b], out=c)
            yield from _tensors_in(v)
        elif isinstance(v, Tensor):
            yield v


def _check_grad(name: str, out: Tensor, args, kwargs) -> None:
    if not grad_mode._state.enabled or name in _NOT_DIFFERENTIABLE:
        return
    if name.startswith("aten::") and any(t._requires_grad for t in _tensors_in(
            [*args, *kwargs.values()])):  # an op without a derivative (its ATen name)
        raise RuntimeError(f"derivative for {name} is not implemented")
    if any(t._requires_grad for t in _tensors_in([out, *args, *kwargs.values()])):
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad.")


# How each operation treats an ``out`` of another dtype than its result, as PyTorch does:
# most cast the result when that is safe (float32 into float64); these insist on their own dtype.
_SAME_DTYPE = {"abs", "neg", "clamp", "trunc", "fix", "frac", "sgn", "round"}
_SAME_DTYPE |= {"hardshrink"}  # (torchnn task)
# matmul and the linalg kernels: "Expected out tensor to have dtype float, but got double"
_MATMUL = {"mm", "bmm", "matmul", "linalg_inv_ex", "_linalg_det", "linalg_cross",
           "linalg_cholesky_ex", "_linalg_solve_ex", "renorm",
           "sort", "isin",  # (sort: msort(out=), in matmul's words)
           "addmv", "linalg_lu_solve",  # (task linalg2)
           "addmm", "baddbmm"}  # (task misc2)
_SAFE_CAST = {"linalg_pinv": "linalg.pinv",  # their own words for an unsafe cast
              # (task linalg2)
              "linalg_cond": "linalg.cond", "linalg_tensorinv": "tensorinv",
              "linalg_tensorsolve": "tensorsolve", "cholesky_inverse": "cholesky_inverse",
              "cholesky_solve": "cholesky_solve"}
_OWN_MESSAGE = {  # these insist on their own dtype, each in its own words
    "linalg_multi_dot": "multi_dot(): expected out tensor to have dtype {result_c10} but got "
                        "{out_c10}",
    "vdot": "result dtype {out} does not match input dtype {result}",
    # (task linalg2)
    "linalg_vecdot": "linalg.vecdot: Expected out of dtype{result} but found {out}",
    "linalg_solve_triangular": "expected scalar type {result} but found {out}",
}
# results without a gradient: their out= takes arguments that require grad
_NOT_DIFFERENTIABLE = {"searchsorted", "bucketize", "isin", "histc"}
_CAT = {"cat", "stack"}
# (task misc2) addbmm's kernel copies ``input`` into ``out`` (cast to its dtype, resized without
# a warning) and adds the products there: ``out``'s dtype must be the batches'
_INPUT_INTO_OUT = {"addbmm"}


def _check_out_kind(name: str, out: Tensor) -> None:
    """What PyTorch checks of ``out`` before anything else."""
    if not isinstance(out, Tensor):
        return
    if name == "signbit" and out.dtype is not _dtype.bool:
        raise RuntimeError("signbit does not support non-boolean outputs.")
    if name == "float_power" and out.dtype is not _dtype.float64:
        raise RuntimeError(f"the output given to float_power has dtype {out.dtype._legacy[:-6]} "
                           "but the operation's result requires dtype Double")


def _check_out_dtype(name: str, out: Tensor, result: Tensor) -> None:
    """PyTorch's error when ``out``'s dtype cannot hold ``result`` for this operation."""
    if not isinstance(out, Tensor) or out.dtype is result.dtype:
        return
    if name == "aten::heaviside":
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    if name == "ldexp" and not np.can_cast(result._data.dtype, out._data.dtype, "same_kind"):
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{out.dtype._legacy[:-6]}")
    if name in _SAME_DTYPE:
        raise RuntimeError(f"Found dtype {_dtype_name(out.dtype)} but expected "
                           f"{_dtype_name(result.dtype)}")
    if name in _MATMUL:
        raise RuntimeError(f"Expected out tensor to have dtype {CPP_NAMES[result.dtype.name]}, "
                           f"but got {CPP_NAMES[out.dtype.name]} instead")
    if name in _OWN_MESSAGE:
        raise RuntimeError(_OWN_MESSAGE[name].format(
            result=_dtype_name(result.dtype), out=_dtype_name(out.dtype),
            result_c10=CPP_NAMES[result.dtype.name], out_c10=CPP_NAMES[out.dtype.name]))
    if name in _SAFE_CAST and not np.can_cast(result._data.dtype, out._data.dtype, "same_kind"):
        raise RuntimeError(f"{_SAFE_CAST[name]}: Expected result to be safely castable from "
                           f"{_dtype_name(result.dtype)} dtype, but got result with dtype "
                           f"{_dtype_name(out.dtype)}")
    if name in ("searchsorted", "bucketize"):
        raise RuntimeError(
            "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
            "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
            f"dtype {_dtype_name(out.dtype)} and out_int32 flag is "
            f"{result.dtype is _dtype.int32}")
    if name == "logcumsumexp":
        raise RuntimeError(f"expected scalar_type {_dtype_name(result.dtype)} but found "
                           f"{_dtype_name(out.dtype)}")
    if name == "histc":
        raise RuntimeError("torch.histogram: input tensor and hist tensor should have the same "
                           f"dtype, but got input {CPP_NAMES[result.dtype.name]} and hist "
                           f"{CPP_NAMES[out.dtype.name]}")
    if name == "mvlgamma" and not np.can_cast(result._data.dtype, out._data.dtype, "same_kind"):
        raise RuntimeError(f"mvlgamma: result type {_dtype_name(result.dtype)} can't be cast to "
                           f"the desired output type {_dtype_name(result.dtype)}")  # sic
    if name in _CAT and not np.can_cast(result._data.dtype, out._data.dtype, "same_kind"):
        raise TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                        f"{_dtype_name(out.dtype)}")


def with_out(fn, name: str | None = None, writer: str | None = None):
    """Give an operation ``fn(*args, **kwargs)`` PyTorch's ``out=`` keyword (``name``: the
    name PyTorch's errors give it, when not ``fn``'s own; ``writer``: the kernel named by the
    error for arguments that require grad, when not ``name``)."""
    name = name or getattr(fn, "out_name", fn.__name__)  # an alias's errors name the original
    writer = writer or name

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):  # (misc2) the argument parser's error, named
            raise TypeError(f"{wrapper.__name__}(): argument 'out' must be Tensor, not "
                            f"{type(out).__name__}")
        _check_out_kind(name, out)
        _check_grad(writer, out, args, kwargs)
        with grad_mode.no_grad():
            if name in _INPUT_INTO_OUT and args and isinstance(args[0], Tensor):
                args = (args[0].to(out.dtype), *args[1:])
            result = fn(*args, **kwargs)
        _check_out_dtype(name, out, result)
        return copy_into_out(out, result, warn_resize=name not in _INPUT_INTO_OUT)

    return wrapper


def factory_with_out(fn):
    """Give a factory (``zeros``, ``rand``, ...) the ``out=`` keyword: it makes its values in
    ``out``'s dtype and writes them into ``out``."""

    @functools.wraps(fn)
    def wrapper(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, **kwargs)
        if not isinstance(out, Tensor):
            raise TypeError(f"argument 'out' must be Tensor, not {type(out).__name__}")
        dtype = kwargs.get("dtype")
        if dtype is not None and dtype is not out.dtype:
            raise RuntimeError(
                f"dtype {_dtype_name(dtype)} does not match dtype of out parameter "
                f"({_dtype_name(out.dtype)})")
        kwargs["dtype"] = out.dtype
        kwargs.pop("requires_grad", None)  # PyTorch ignores it together with out=
        with grad_mode.no_grad():
            result = fn(*args, **kwargs)
        if fn.__name__ == "arange" and out.numel() == result.numel():
            result = result.reshape(out.shape)  # arange fills out as it is when the sizes agree
        return copy_into_out(out, result, warn_resize=False)

    return wrapper


def _dtype_name(d: _dtype.dtype) -> str:
    return d._legacy[:-6]  # "FloatTensor" -> "Float"

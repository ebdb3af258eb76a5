"""In-place random fills: ``bernoulli_`` and ``random_``, drawn from PyTorch's random stream
(``minitorch/_random.py``), so that a seed gives the numbers PyTorch gives.

Overwriting a tensor with random numbers is recorded like any in-place operation (its node is
``BernoulliBackward2``, ``RandomBackward0``, ...), and the gradient through it is 0: the new
values do not depend on the old ones (nor on the probabilities ``p``).

Example:
    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> minitorch.empty(5).bernoulli_(0.5)
    tensor([0., 0., 1., 0., 0.])
    >>> minitorch.empty(3, dtype=minitorch.int64).random_(10)
    tensor([1, 6, 6])
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from minitorch import _creation, _random
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import broadcast_error

__all__ = ["bernoulli_", "random_", "normal"]

# What a type is called in PyTorch's range errors (its C++ name).
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}


class RandomFill(Function):
    """New values that do not depend on the old ones: the gradient through them is 0."""

    node_name = "RandomBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, a, values):
        return _wrap(array_module(a._data).asarray(values))

    @staticmethod
    def backward(ctx, grad):
        return _wrap(array_module(grad._data).zeros_like(grad._data))


class RandomTo(RandomFill):
    node_name = "RandomBackward1"
    _builtin = True


class RandomAll(RandomFill):
    node_name = "RandomBackward2"
    _builtin = True


class BernoulliScalar(RandomFill):
    node_name = "BernoulliBackward2"
    _builtin = True


class BernoulliTensor(Function):
    """``bernoulli_(p)`` with a tensor ``p``: neither ``self`` nor ``p`` gets a gradient."""

    node_name = "BernoulliBackward1"
    _builtin = True

    @staticmethod
    def forward(ctx, a, values, p):
        ctx.p_meta = (p._data.shape, p._data.dtype)
        return _wrap(array_module(a._data).asarray(values))

    @staticmethod
    def backward(ctx, grad):
        xp = array_module(grad._data)
        return _wrap(xp.zeros_like(grad._data)), _wrap(xp.zeros(*ctx.p_meta))


def bernoulli_(self: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill ``self`` in place with 1 (probability ``p``) or 0. ``p`` is a number, or a tensor
    of probabilities (one per element, broadcast to ``self``'s shape)."""
    shape, dtype = self._data.shape, self._data.dtype
    if isinstance(p, Tensor):
        probs = p._data
        if probs.size and not ((probs >= 0) & (probs <= 1)).all():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report "
                               "an enhancement request to PyTorch.)")
        probs = np.broadcast_to(np.asarray(probs, np.float32), shape)
        # one float32 uniform per element: 1 where it is below p
        draws = _random.in_memory_order(self._data, lambda shape: _random._unit(
            _random._gen(generator), int(np.prod(shape)), np.float32).reshape(shape))
        values = (draws < probs).astype(dtype)
        return self._inplace(lambda t, prob: BernoulliTensor.apply(t, values, prob), p)
    if not isinstance(p, numbers.Real):
        raise TypeError(f"bernoulli_(): argument 'p' must be float, not {type(p).__name__}")
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
    values = _random.in_memory_order(
        self._data, lambda shape: _random.bernoulli_mask(shape, float(p), generator))
    values = values.astype(dtype)
    return self._inplace(lambda t: BernoulliScalar.apply(t, values))


def _check_bounds(value: int, name: str, dtype: np.dtype) -> None:
    if dtype == np.bool_:
        low, high = 0, 1
    elif dtype.kind == "f":
        info = np.finfo(dtype)
        low, high = float(info.min), float(info.max)
    else:
        info = np.iinfo(dtype)
        low, high = int(info.min), int(info.max)
    if not low <= value <= high:
        raise RuntimeError(f"{name} is out of bounds for {_C_NAMES[dtype.name]}")
    if dtype.kind == "f":
        _warn_precision(value, name, dtype)


def _warn_precision(value: int, name: str, dtype: np.dtype) -> None:
    digits = np.finfo(dtype).nmant + 1
    if not -(1 << digits) <= value <= (1 << digits):
        warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                      f"limitations {_C_NAMES[dtype.name]} can support discrete uniform "
                      "distribution only within this range. This warning will become an error "
                      "in version 1.7 release, please fix the code in advance", UserWarning,
                      stacklevel=5)


def _full_range(shape: tuple, dtype: np.dtype, generator) -> np.ndarray:
    """``random_()``: one draw per element, modulo the size of the dtype's exact integer
    range (``2**24 + 1`` for float32, ``2**63`` for int64, 2 for bool)."""
    n = int(np.prod(shape))
    gen = _random._gen(generator)
    wide = dtype in (np.float64, np.int64)
    words = gen._random64(n) if wide else gen._random32(n).astype(np.uint64)
    if dtype == np.bool_:
        return (words & np.uint64(1)).astype(dtype).reshape(shape)
    if dtype.kind == "f":
        modulus = 2 ** np.finfo(dtype).nmant * 2 + 1  # 2**digits + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    return (words % np.uint64(modulus)).astype(dtype).reshape(shape)


def random_(self: Tensor, *args, generator=None, **kwargs) -> Tensor:
    """Fill ``self`` in place with random integers: ``random_(from, to)`` from ``[from, to)``,
    ``random_(to)`` from ``[0, to)``, ``random_()`` from all the integers the dtype holds
    exactly (``[0, 2**24]`` for float32), ``random_(from, None)`` from ``from`` up to that."""
    if len(args) > 2:
        raise TypeError(f"random_() takes from 0 to 2 positional arguments but {len(args)} "
                        "were given")
    unknown = set(kwargs) - {"from", "to"}
    if unknown:
        raise TypeError(f"random_() got an unexpected keyword argument '{unknown.pop()}'")
    shape, dtype = self._data.shape, self._data.dtype
    if len(args) == 2 or "from" in kwargs:
        from_ = args[0] if args else kwargs["from"]
        to = args[1] if len(args) == 2 else kwargs.get("to")
        node = RandomFill
    elif args or "to" in kwargs:
        from_, to, node = 0, args[0] if args else kwargs["to"], RandomTo
    else:
        values = _full_range(shape, dtype, generator)
        return self._inplace(lambda t: RandomAll.apply(t, values))
    if to is None:  # [from, the largest integer of the dtype]
        if dtype == np.bool_:
            to_inc = 1
        elif dtype.kind == "f":
            to_inc = 2 ** (np.finfo(dtype).nmant + 1)
        else:
            to_inc = int(np.iinfo(dtype).max)
        to = to_inc + 1
    low, high = int(from_), int(to)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= "
                           f"to={high}")
    ulow, uhigh = low, high
    if dtype.kind == "f":  # PyTorch moves the bounds to numbers the dtype holds
        ulow, uhigh = _random.update_from(low, dtype), _random.update_to(high, dtype)
        if ulow >= uhigh:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' "
                               f"casted to dtype, but got from={ulow} >= to={uhigh}")
    _check_bounds(ulow, "from", dtype)
    _check_bounds(uhigh - 1, "to - 1", dtype)
    values = _random.in_memory_order(
        self._data, lambda shape: _random.integers_array(low, high, shape, dtype, generator))
    return self._inplace(lambda t: node.apply(t, values))


# ------------------------------------------------------------------ normal(mean, std)
class NormalTensorFloat(Function):
    """``normal(mean, std)`` with a tensor ``mean``: new numbers, drawn as PyTorch draws them.
    Their gradient is 0 for ``mean`` and ``std`` alike: PyTorch does not differentiate through
    a draw (for a gradient through the noise, write ``mean + std * randn(...)``)."""

    node_name = "NormalBackward1"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(mean, std, generator):
        return _wrap(_normal_of_tensors(mean, std, generator))

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Nothing to save: the gradient is 0."""

    @staticmethod
    def backward(ctx, grad):
        return (grad.new_zeros(grad.shape),) * len(ctx.next_functions)  # a 0 for each edge


class NormalFloatTensor(NormalTensorFloat):
    node_name = "NormalBackward2"
    _builtin = True
    _edge_args = (1,)


class NormalTensorTensor(NormalTensorFloat):
    node_name = "NormalBackward3"
    _builtin = True
    _edge_args = (0, 1)


def _normal_of_tensors(mean, std, generator) -> np.ndarray:
    """PyTorch's ``normal_out``: draw N(0, 1) (or N(0, std) for a number ``std``) in the
    broadcast shape, then ``mul_(std)`` and ``add_(mean)``, in the dtype of the tensor
    ``mean`` (else of ``std``)."""
    m = mean._data if isinstance(mean, Tensor) else None
    s = std._data if isinstance(std, Tensor) else None
    dtype = (m if m is not None else s).dtype
    _random.check_float_fill(dtype, "normal_kernel_cpu")
    if s is None:
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    elif (s < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shapes = [a.shape for a in (m, s) if a is not None]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(*shapes) from None
    xp = array_module(m if m is not None else s)
    if s is None:  # normal_(0, std), then add_(mean)
        out = xp.asarray(_random.normal_array(shape, 0.0, std, dtype, generator))
        return (out + m).astype(dtype, copy=False)
    out = xp.asarray(_random.normal_array(shape, 0.0, 1.0, dtype, generator))
    out = (out * s).astype(dtype, copy=False)  # mul_(std): in out's dtype
    return (out + (mean if m is None else m)).astype(dtype, copy=False)  # add_(mean)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad: bool = False) -> Tensor:
    """Numbers drawn from N(mean, std**2): ``normal(mean, std, size)`` for numbers, or
    ``normal(mean, std)`` with a tensor ``mean`` and/or ``std`` (one number per element of
    their broadcast shape), as ``torch.normal``.

    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> minitorch.normal(minitorch.tensor([0.0, 10.0]), minitorch.tensor([1.0, 2.0]))
    tensor([1.5410, 9.4131])
    """
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        if size is None:
            raise TypeError("normal() missing 1 required positional argument: 'size'")
        return _creation.normal(mean, std, size, generator=generator, dtype=dtype,
                                device=device, requires_grad=requires_grad)
    if size is not None:
        raise TypeError("normal() takes no size with a tensor mean or std: the result has "
                        "their broadcast shape")
    if isinstance(mean, Tensor) and isinstance(std, Tensor):
        return NormalTensorTensor.apply(mean, std, generator)
    if isinstance(mean, Tensor):
        return NormalTensorFloat.apply(mean, float(std), generator)
    return NormalFloatTensor.apply(float(mean), std, generator)


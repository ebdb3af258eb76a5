"""In-place random fills: ``bernoulli_`` and ``random_``, drawn from PyTorch's random stream
(``minitorch/_random.py``), so that a seed gives the numbers PyTorch gives; and the draws that
make new tensors from tensors: ``normal(mean, std)``, ``bernoulli(probs)``, ``multinomial``.

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

import math
import numbers
import warnings

import numpy as np

from minitorch import _creation, _random
from minitorch._backend import array_module, to_numpy
from minitorch._dtype import CPP_NAMES
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops._util import broadcast_error

__all__ = ["bernoulli_", "random_", "normal", "bernoulli", "multinomial"]



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
        # one uniform per element, 1 where it is below p: a 53-bit double for float64 ``p``,
        # else a float32 (PyTorch's ``bernoulli_distribution<double>`` or ``<float>``)
        wide = np.float64 if probs.dtype == np.float64 else np.float32
        probs = np.broadcast_to(np.asarray(probs, wide), shape)
        draws = _random.in_memory_order(self._data, lambda shape: _random._unit(
            _random._gen(generator), int(np.prod(shape)), wide).reshape(shape))
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
        raise RuntimeError(f"{name} is out of bounds for {CPP_NAMES[dtype.name]}")
    if dtype.kind == "f":
        _warn_precision(value, name, dtype)


def _warn_precision(value: int, name: str, dtype: np.dtype) -> None:
    digits = np.finfo(dtype).nmant + 1
    if not -(1 << digits) <= value <= (1 << digits):
        warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                      f"limitations {CPP_NAMES[dtype.name]} can support discrete uniform "
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



# ------------------------------------------------------------------ bernoulli(input)
class BernoulliNotImplemented(Function):
    """``bernoulli(input, p)`` with a number ``p``: PyTorch records a node without a derivative,
    and ``backward`` through it fails."""

    node_name = "torch::autograd::NotImplemented"
    _builtin = True

    @staticmethod
    def forward(ctx, a, values):
        return _wrap(array_module(a._data).asarray(values))

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::bernoulli is not implemented")


class BernoulliFunctional(BernoulliTensor):
    """``bernoulli(input)``: 0 or 1 drawn with the probabilities ``input``; gradient 0."""

    node_name = "BernoulliBackward0"
    _builtin = True

    @staticmethod
    def forward(ctx, p, values):
        ctx.p_meta = (p._data.shape, p._data.dtype)
        return _wrap(array_module(p._data).asarray(values))

    @staticmethod
    def backward(ctx, grad):
        return _wrap(array_module(grad._data).zeros(*ctx.p_meta))


def bernoulli(input: Tensor, p=None, *, generator=None) -> Tensor:  # noqa: A002
    """0 or 1 for each element: 1 with the probability the element of ``input`` gives, as
    ``torch.bernoulli(input)``; ``bernoulli(input, p)`` uses the one probability ``p`` and
    ``input`` only for its shape and dtype. A seed gives PyTorch's numbers.

    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> minitorch.bernoulli(minitorch.tensor([0.1, 0.5, 0.9]))
    tensor([0., 0., 1.])
    """
    probs, xp = input._data, array_module(input._data)
    if p is not None:  # PyTorch: a new contiguous tensor, then bernoulli_(p)
        if isinstance(p, Tensor):
            raise TypeError("bernoulli() received an invalid combination of arguments - got "
                            "(Tensor, p=Tensor), but expected one of:\n"
                            " * (Tensor input, *, torch.Generator generator = None, Tensor out "
                            "= None)\n"
                            " * (Tensor input, float p, *, torch.Generator generator = None)\n")
        if not isinstance(p, numbers.Real):
            raise TypeError(f"bernoulli(): argument 'p' must be float, not {type(p).__name__}")
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        values = _random.bernoulli_mask(probs.shape, float(p), generator)  # C order: the
        return BernoulliNotImplemented.apply(input, xp.asarray(values, probs.dtype))  # new one
    if probs.dtype.kind != "f":
        raise NotImplementedError("\"bernoulli_tensor_cpu_p_\" not implemented for "
                                  f"'{_random._scalar_type_name(probs.dtype)}'")
    probs = to_numpy(probs)  # drawn on the host, as the seed's stream is
    if probs.size and not ((probs >= 0) & (probs <= 1)).all():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  "
                           "(Could this error message be improved?  If so, please report "
                           "an enhancement request to PyTorch.)")
    # a new contiguous tensor, filled in C order: one uniform per element, 1 where it is
    # below p (a 53-bit double for float64 probabilities, else a float32)
    wide = np.float64 if probs.dtype == np.float64 else np.float32
    draws = _random._unit(_random._gen(generator), probs.size, wide).reshape(probs.shape)
    values = (draws < np.asarray(probs, wide)).astype(probs.dtype)
    return BernoulliFunctional.apply(input, xp.asarray(values))


# ------------------------------------------------------------------ multinomial
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,  # noqa: A002
                generator=None) -> Tensor:
    """Indices drawn from the categories whose weights are ``input`` (1-d, or one row per
    distribution), as ``torch.multinomial``: the same numbers as PyTorch for a seed.

    PyTorch's CPU draws them in two ways (``aten/src/ATen/native/Distributions.cpp``):

    * Without replacement, or one sample: an exponential ``q ~ Exp(1)`` per weight (in the
      order of memory), then the ``num_samples`` largest ``input / q`` (the Gumbel trick:
      each index comes with the probability its weight gives). The largest are found by its
      ``argmax`` (one sample: the first of equal ones) or its ``topk``, whose order among
      equal values is that of the C++ library's ``std::nth_element``/``std::partial_sort``;
      :func:`_top_indices` repeats them for ties.
    * With replacement: for each row its cumulative sums (in the weights' precision, float32
      for float16), divided by the total, then for each sample one 53-bit uniform ``u`` and the
      first category whose cumulative sum is ``>= u``.

    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> minitorch.multinomial(minitorch.tensor([0.1, 0.2, 0.7]), 2)
    tensor([2, 1])
    """
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError("multinomial(): argument 'num_samples' (position 2) must be int, not "
                        f"{type(num_samples).__name__}")
    w = to_numpy(input._data)  # drawn on the host, as the seed's stream is
    if not 1 <= w.ndim <= 2:
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if w.dtype.kind != "f":
        raise RuntimeError("multinomial only supports floating-point dtypes for input, got: "
                           f"{_random._scalar_type_name(w.dtype)}")
    n = int(num_samples)
    if n <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = w.shape[-1]
    if not replacement and n > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 2**24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    shape = (n,) if w.ndim == 1 else (w.shape[0], n)
    if math.prod(shape) == 0:
        result = np.zeros(shape, np.int64)
    elif not replacement or n == 1:
        result = _multinomial_topk(w, n, generator)
    else:
        result = _multinomial_with_replacement(w, n, generator)
    return _wrap(array_module(input._data).asarray(result))


def _multinomial_topk(w: np.ndarray, n: int, generator) -> np.ndarray:
    if w.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the "
                           "operation has no identity.")
    if not (np.all(w < np.inf) and np.all(w >= 0)):
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    sums = w.sum(-1, dtype=np.float64)
    if np.any(sums == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _random._gen(generator)

    def exponential(shape):  # exponential_(1): -log1p(-u), u a 53-bit double, in w's dtype
        u = _random._unit(gen, math.prod(shape), np.float64).tolist()
        return np.array([-math.log1p(-x) for x in u], np.float64).astype(w.dtype).reshape(shape)

    q = _random.in_memory_order(w, exponential)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        if w.dtype == np.float16:  # Half divides in float32 and rounds (overflow: inf)
            ratio = (w.astype(np.float32) / q.astype(np.float32)).astype(np.float16)
        else:
            ratio = w / q
    if n == 1:  # PyTorch's argmax: the first of equal largest ones (two infs of float16)
        return np.argmax(ratio, axis=-1)[..., None].astype(np.int64)
    rows = ratio.reshape(-1, ratio.shape[-1])
    out = np.stack([_top_indices(row.astype(np.float64), n) for row in rows])
    return out.reshape(w.shape[:-1] + (n,))


def _top_indices(values: np.ndarray, k: int) -> np.ndarray:
    """The indices of the ``k`` largest ``values``, largest first, as PyTorch's CPU ``topk``
    orders them: by value, and among equal values as its ``std::partial_sort`` (``k * 64 <=
    len``) or ``std::nth_element`` then ``std::sort`` of the first ``k - 1`` leave them."""
    order = np.argsort(-values, kind="stable")
    top = values[order[:k + 1]]
    if not np.any(top[1:] == top[:-1]):  # no tie among the k (nor at the k-th): one answer
        return order[:k]
    q = [(v, i) for i, v in enumerate(values.tolist())]
    if k * 64 <= len(q):
        _partial_sort(q, 0, k, len(q))
    else:
        _nth_element(q, k - 1)
        _introsort(q, 0, k - 1)
    return np.array([i for _, i in q[:k]], np.int64)


# libstdc++'s algorithms, step for step, on lists of (value, index), "less" being "greater
# value" (PyTorch's comparison for the largest). They only matter for equal values.
def _before(x, y) -> bool:
    return x[0] > y[0]


def _median_to_first(q, result, a, b, c) -> None:
    if _before(q[a], q[b]):
        if _before(q[b], q[c]):
            q[result], q[b] = q[b], q[result]
        elif _before(q[a], q[c]):
            q[result], q[c] = q[c], q[result]
        else:
            q[result], q[a] = q[a], q[result]
    elif _before(q[a], q[c]):
        q[result], q[a] = q[a], q[result]
    elif _before(q[b], q[c]):
        q[result], q[c] = q[c], q[result]
    else:
        q[result], q[b] = q[b], q[result]


def _partition_pivot(q, first, last) -> int:
    mid = first + (last - first) // 2
    _median_to_first(q, first, first + 1, mid, last - 1)
    pivot, lo, hi = q[first], first + 1, last
    while True:
        while _before(q[lo], pivot):
            lo += 1
        hi -= 1
        while _before(pivot, q[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        q[lo], q[hi] = q[hi], q[lo]
        lo += 1


def _linear_insert(q, last) -> None:
    val, nxt = q[last], last - 1
    while _before(val, q[nxt]):
        q[last] = q[nxt]
        last, nxt = nxt, nxt - 1
    q[last] = val


def _insertion_sort(q, first, last) -> None:
    for i in range(first + 1, last):
        if _before(q[i], q[first]):
            val = q[i]
            q[first + 1:i + 1] = q[first:i]
            q[first] = val
        else:
            _linear_insert(q, i)


def _adjust_heap(q, first, hole, length, value) -> None:
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _before(q[first + child], q[first + child - 1]):
            child -= 1
        q[first + hole] = q[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        q[first + hole] = q[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and _before(q[first + parent], value):
        q[first + hole] = q[first + parent]
        hole, parent = parent, (parent - 1) // 2
    q[first + hole] = value


def _heap_select(q, first, middle, last) -> None:
    length = middle - first
    if length >= 2:
        for parent in range((length - 2) // 2, -1, -1):
            _adjust_heap(q, first, parent, length, q[first + parent])
    for i in range(middle, last):
        if _before(q[i], q[first]):
            value, q[i] = q[i], q[first]
            _adjust_heap(q, first, 0, length, value)


def _partial_sort(q, first, middle, last) -> None:
    _heap_select(q, first, middle, last)
    while middle - first > 1:  # sort_heap
        middle -= 1
        value, q[middle] = q[middle], q[first]
        _adjust_heap(q, first, 0, middle - first, value)


def _nth_element(q, nth) -> None:
    first, last = 0, len(q)
    if nth == last:
        return
    depth = 2 * (last.bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last)
            q[first], q[nth] = q[nth], q[first]
            return
        depth -= 1
        cut = _partition_pivot(q, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last)


def _introsort(q, first, last) -> None:
    """``std::sort``: introsort down to runs of 16, then insertion sort."""
    if last - first < 2:
        return

    def loop(first, last, depth):
        while last - first > 16:
            if depth == 0:
                _partial_sort(q, first, last, last)
                return
            depth -= 1
            cut = _partition_pivot(q, first, last)
            loop(cut, last, depth)
            last = cut

    loop(first, last, 2 * ((last - first).bit_length() - 1))
    if last - first > 16:
        _insertion_sort(q, first, first + 16)
        for i in range(first + 16, last):
            _linear_insert(q, i)
    else:
        _insertion_sort(q, first, last)


def _multinomial_with_replacement(w: np.ndarray, n: int, generator) -> np.ndarray:
    gen = _random._gen(generator)
    if w.shape[-1] == 0:  # rows of no categories: their sum is 0
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    acc = np.float32 if w.dtype == np.float16 else w.dtype
    rows = w.reshape(-1, w.shape[-1])
    out = np.empty((rows.shape[0], n), np.int64)
    for r, row in enumerate(rows):
        row = row.astype(acc)
        bad = ~((row >= 0) & np.isfinite(row))  # checked one by one: the first bad one
        if bad.any():  # says which error (NaN fails the ``>= 0``)
            first = row[np.argmax(bad)]
            what = "infinity or NaN" if first >= 0 else "< 0"
            what = "= " + what if first >= 0 else what
            raise RuntimeError(f"invalid multinomial distribution (encountering probability "
                               f"entry {what})")
        cum = np.cumsum(row, dtype=acc)  # one after the other, in the weights' precision
        total = cum[-1]
        if not total > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cum = cum / total
        cum[-1] = 1
        u = _random._unit(gen, n, np.float64)
        out[r] = np.searchsorted(cum.astype(np.float64), u, side="left")
    return out.reshape(w.shape[:-1] + (n,))


# ------------------------------------------------------------------ exponential_, cauchy_, ...
class ExponentialFill(RandomFill):
    node_name = "ExponentialBackward0"
    _builtin = True


class CauchyFill(RandomFill):
    node_name = "CauchyBackward0"
    _builtin = True


class LogNormalFill(RandomFill):
    node_name = "LogNormalBackward0"
    _builtin = True


class GeometricFill(RandomFill):
    node_name = "GeometricBackward0"
    _builtin = True


_MISSING = object()  # an argument not given


def _check_number(value, function: str, name: str, position: int) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be float, "
                        f"not {type(value).__name__}")
    return float(value)


def _continuous(self: Tensor, distribution: str, type_name: str) -> None:
    """PyTorch's error for an integer ``self`` (which names its type as ``type_name``)."""
    if self._data.dtype.kind != "f":
        raise RuntimeError(f"{distribution} distribution is a continuous probability "
                           f"distribution. dtype must be a floating point but you specified "
                           f"{type_name}")


def _fill(self: Tensor, node, draw) -> Tensor:
    """Write ``draw(shape)``'s numbers into ``self`` in its memory order, recorded as ``node``."""
    values = _random.in_memory_order(self._data, draw)
    return self._inplace(lambda t: node.apply(t, values))


def exponential_(self: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill ``self`` with draws from the exponential distribution of rate ``lambd``."""
    lambd = _check_number(lambd, "exponential_", "lambd", 1)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd:g}")
    _continuous(self, "Exponential", self.dtype._legacy[:-6])  # Long
    dtype = self._data.dtype
    return _fill(self, ExponentialFill,
                 lambda shape: _random.exponential_array(shape, lambd, dtype, generator))


def cauchy_(self: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """Fill ``self`` with draws from the Cauchy distribution around ``median``."""
    median = _check_number(median, "cauchy_", "median", 1)
    sigma = _check_number(sigma, "cauchy_", "sigma", 2)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={sigma:g}")
    _continuous(self, "Cauchy", CPP_NAMES[self.dtype.name])  # long int
    dtype = self._data.dtype
    return _fill(self, CauchyFill,
                 lambda shape: _random.cauchy_array(shape, median, sigma, dtype, generator))


def log_normal_(self: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """Fill ``self`` with ``exp`` of draws from N(mean, std^2)."""
    mean = _check_number(mean, "log_normal_", "mean", 1)
    std = _check_number(std, "log_normal_", "std", 2)
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std:g}")
    _random.check_float_fill(self._data.dtype, "log_normal_cpu")
    dtype = self._data.dtype
    return _fill(self, LogNormalFill,
                 lambda shape: _random.log_normal_array(shape, mean, std, dtype, generator))


def geometric_(self: Tensor, p: float = _MISSING, *, generator=None) -> Tensor:
    """Fill ``self`` with the number of trials up to the first success, each with chance
    ``p``."""
    if p is _MISSING:  # PyTorch's argument parser says it so
        raise TypeError('geometric_() missing 1 required positional arguments: "p"')
    p = _check_number(p, "geometric_", "p", 1)
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    if self._data.dtype == np.bool_:
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    dtype = self._data.dtype
    return _fill(self, GeometricFill,
                 lambda shape: _random.geometric_array(shape, p, dtype, generator))

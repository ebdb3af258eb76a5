"""Random numbers: PyTorch's CPU generator, rebuilt so that the same seed gives the same numbers.

After ``minitorch.manual_seed(s)``, ``rand``, ``randn``, ``randint``, ``randperm``,
``normal_``, ``uniform_``, dropout masks and the ``nn`` initialisers draw *exactly* what
PyTorch's CPU draws after ``torch.manual_seed(s)``, bit for bit. A learner's notebook then
prints the numbers on PyTorch's tutorial pages.

How PyTorch draws (``aten/src/ATen/CPUGeneratorImpl.cpp`` and ``core/DistributionsHelper.h``):

* One **Mersenne Twister** (mt19937) stream of 32-bit words, seeded with the low 32 bits of the
  seed. NumPy ships the same engine (``np.random.MT19937``); we only set its state.
  ``random64()`` glues two words: ``(first << 32) | second``.
* **uniform** on float32 keeps the low 24 bits of one word: ``(w & (2**24-1)) / 2**24``;
  float64 keeps the low 53 bits of a 64-bit draw. Then ``x * (b - a) + a``.
* **randint** is ``w % (high - low) + low`` (one 32-bit word, or a 64-bit draw when the range
  needs it). **randperm** is a Fisher-Yates shuffle with ``w % (n - i)``.
* **bernoulli** (dropout's mask) keeps an element when a 53-bit uniform is ``< 1 - p``.
* **normal** is Box-Muller, in two versions. Fewer than 16 numbers: one at a time in double
  precision, ``sqrt(-2 log1p(-u2)) * cos(2 pi u1)``; the matching ``sin`` value is kept for the
  next call. 16 or more: first fill the tensor with uniforms, then turn each block of 16 into
  normals (``u[0:8]`` are the radii, ``u[8:16]`` the angles); a ragged end redraws the last 16.
  For float32 PyTorch uses vectorised AVX2 ``log``/``sincos`` (Cephes polynomials, from
  ``avx_mathfun.h``) with fused multiply-adds; :func:`_avx_log` and :func:`_avx_sincos` repeat
  those steps in NumPy float32.

Example:
    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> minitorch.rand(3)
    tensor([0.4963, 0.7682, 0.0885])
"""

from __future__ import annotations

import math
import os

import numpy as np

from minitorch._device import device as _device
from minitorch._dtype import from_numpy_dtype
from minitorch._tensor import _wrap

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator",
           "get_rng_state", "set_rng_state"]

_DEFAULT_SEED = 67280421310721  # PyTorch's default seed
_N = 624  # words of Mersenne Twister state
_STATE_BYTES = 5056  # sizeof(CPUGeneratorImplState): torch.get_rng_state().numel()


def _mt_key(seed32: int) -> np.ndarray:
    """The 624-word state the Mersenne Twister starts from (``init_genrand``)."""
    key = [seed32]
    for i in range(1, _N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


class Generator:
    """A source of random numbers, as ``torch.Generator``: a Mersenne Twister plus the cached
    second half of the last scalar Box-Muller pair.

    >>> g = Generator().manual_seed(42)
    >>> g.initial_seed()
    42
    """

    def __init__(self, device="cpu") -> None:
        self.device = _device(device)
        self._mt = np.random.MT19937()
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed) -> Generator:
        """Reset the generator so that it repeats the same sequence; returns it."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            try:
                seed = int(seed)
            except (TypeError, ValueError):
                raise TypeError(f"manual_seed expected an int, but got {type(seed).__name__}"
                                ) from None
        seed = int(seed)
        if not -(2**63) <= seed < 2**64:
            raise RuntimeError("Overflow when unpacking long long")
        self._seed = seed % 2**64
        self._set_words(_mt_key(self._seed & 0xFFFFFFFF), _N)
        self._next_double_normal: float | None = None
        self._next_float_normal: float | None = None
        return self

    def seed(self) -> int:
        """Seed from fresh entropy and return the new seed."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        """The seed this generator was last seeded with."""
        return self._seed

    def _set_words(self, key: np.ndarray, pos: int) -> None:
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}

    def get_state(self):
        """The state as a uint8 tensor, in PyTorch's layout (``torch.get_rng_state()`` can be
        given to ``set_state`` and back)."""
        st = self._mt.state["state"]
        buf = bytearray(_STATE_BYTES)
        pos = int(st["pos"])
        head = np.array([self._seed], np.uint64).tobytes()
        head += np.array([_N + 1 - pos, 1], np.int32).tobytes()  # left, seeded
        head += np.array([pos], np.uint64).tobytes()  # next
        buf[0:24] = head
        buf[24:24 + 8 * _N] = st["key"].astype(np.uint64).tobytes()
        off = 24 + 8 * _N  # normal_x, normal_y, normal_rho, normal_is_valid
        if self._next_double_normal is not None:
            buf[off + 8:off + 16] = np.array([self._next_double_normal], np.float64).tobytes()
            buf[off + 24:off + 28] = np.array([1], np.int32).tobytes()
        if self._next_float_normal is not None:
            buf[off + 28:off + 32] = np.array([self._next_float_normal], np.float32).tobytes()
            buf[off + 32] = 1
        return _wrap(np.frombuffer(bytes(buf), np.uint8).copy())

    def set_state(self, new_state) -> Generator:
        """Restore a state from :meth:`get_state` (or from ``torch.get_rng_state()``)."""
        data = np.ascontiguousarray(getattr(new_state, "_data", new_state))
        if data.dtype != np.uint8:
            raise TypeError(f"expected a torch.ByteTensor, but got {data.dtype}")
        if data.size != _STATE_BYTES:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE_BYTES} but "
                               f"found the input RNG state size to be {data.size}")
        raw = data.tobytes()
        self._seed = int(np.frombuffer(raw[0:8], np.uint64)[0])
        left = int(np.frombuffer(raw[8:12], np.int32)[0])
        key = np.frombuffer(raw[24:24 + 8 * _N], np.uint64).astype(np.uint32)
        self._set_words(key, _N + 1 - left)
        off = 24 + 8 * _N
        valid = np.frombuffer(raw[off + 24:off + 28], np.int32)[0]
        self._next_double_normal = (float(np.frombuffer(raw[off + 8:off + 16], np.float64)[0])
                                    if valid else None)
        self._next_float_normal = (float(np.frombuffer(raw[off + 28:off + 32], np.float32)[0])
                                   if raw[off + 32] else None)
        return self

    # -- raw draws ----------------------------------------------------------------------------

    def _random32(self, n: int) -> np.ndarray:
        """``n`` 32-bit words from the stream (``CPUGeneratorImpl::random``)."""
        return self._mt.random_raw(n).astype(np.uint32)

    def _random64(self, n: int) -> np.ndarray:
        """``n`` 64-bit draws, each from two words, the first one high."""
        w = self._mt.random_raw(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def __repr__(self) -> str:
        return "<torch._C.Generator object>"


default_generator = Generator()


def manual_seed(seed) -> Generator:
    """Seed minitorch's global random number generator; returns it.

    >>> _ = manual_seed(1)
    >>> import minitorch
    >>> minitorch.randn(2)
    tensor([0.6614, 0.2669])
    """
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the global generator from fresh entropy; returns the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the global generator was last seeded with."""
    return default_generator.initial_seed()


def get_rng_state():
    """The global generator's state as a uint8 tensor (PyTorch's layout)."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the global generator's state."""
    default_generator.set_state(new_state)


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


# -- the order a tensor is filled in ----------------------------------------------------------

def in_memory_order(target: np.ndarray, draw) -> np.ndarray:
    """``draw(shape)``'s numbers laid out as ``target`` lies in memory.

    PyTorch's CPU kernels fill a tensor in the order of its memory, innermost (smallest
    stride) dimension fastest, not in the order of its indices: a transposed tensor gets its
    numbers in the order of its storage. ``draw`` makes numbers in C order for a shape; for a
    tensor whose dimensions are not in C order they are drawn for the dimensions sorted by
    stride and moved back.
    """
    shape, strides = target.shape, target.strides
    moving = [abs(strides[d]) for d in range(target.ndim) if shape[d] > 1]
    if all(a >= b for a, b in zip(moving, moving[1:])):  # already C order
        return draw(shape)
    perm = sorted(range(target.ndim), key=lambda d: -abs(strides[d]))
    return draw(tuple(shape[d] for d in perm)).transpose(np.argsort(perm))


# -- uniform ----------------------------------------------------------------------------------

def _unit(gen: Generator, n: int, dtype) -> np.ndarray:
    """``n`` uniforms in [0, 1) with as many random bits as ``dtype`` has mantissa bits."""
    if np.dtype(dtype) == np.float64:
        return (gen._random64(n) & np.uint64(2**53 - 1)).astype(np.float64) * 2.0**-53
    # float32, and float16 too (PyTorch draws it as a float32 and rounds): 24 bits of one word
    return (gen._random32(n) & np.uint32(2**24 - 1)).astype(np.float32) * np.float32(2.0**-24)


def uniform_array(shape, low=0.0, high=1.0, dtype=np.float32, generator=None) -> np.ndarray:
    """Numbers from U[low, high), drawn in C order as PyTorch's ``uniform_`` draws them."""
    dtype = np.dtype(dtype)
    n = math.prod(shape)
    x = _unit(_gen(generator), n, dtype)
    if dtype == np.float64:
        lo, hi = float(low), float(high)
        out = _fma64(x, hi - lo, lo) if (lo, hi) != (0.0, 1.0) else x
    else:  # float32 and float16 compute in float32, from and to rounded to float32 (not to
        lo, hi = np.float32(low), np.float32(high)  # float16: PyTorch computes in float32)
        out = _fma32(x, hi - lo, lo)
    out = out.astype(dtype, copy=False)
    out[out == dtype.type(high)] = dtype.type(low)  # one that rounds up to ``high`` becomes
    return out.reshape(shape)  # ``low``, as in PyTorch: the numbers are in [low, high)


_C_FLOAT_NAMES = {"float16": "c10::Half", "float32": "float", "float64": "double"}


def _scalar_type_name(dtype: np.dtype) -> str:
    """PyTorch's C type name of a dtype (``Float``, ``Long``), as its kernels' errors say it."""
    return from_numpy_dtype(dtype)._legacy[:-6]  # FloatTensor -> Float


def check_float_fill(dtype, kernel: str) -> None:
    """PyTorch's error for drawing floating-point numbers into an integer or bool tensor."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{_scalar_type_name(dtype)}'")


def check_uniform_range(low, high, dtype) -> None:
    """PyTorch's errors for ``uniform_(from, to)``: a floating dtype, each bound within it, in
    order."""
    check_float_fill(dtype, "check_uniform_bounds")
    dtype = np.dtype(dtype)
    limit = float(np.finfo(dtype).max)
    for name, value in (("from", low), ("to", high)):
        if not -limit <= value <= limit:
            raise RuntimeError(f"{name} is out of bounds for {_C_FLOAT_NAMES[dtype.name]}")
    if low > high:
        raise RuntimeError("uniform_ expects to return a [from, to) range, but found "
                           f"from={low:g} > to={high:g}")
    if high - low > limit:
        name = _scalar_type_name(dtype)
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{name}>::max(), "
                           f"but found to={high:g} and from={low:g} which result in to-from to "
                           "exceed the limit")


def bernoulli_mask(shape, p: float, generator=None) -> np.ndarray:
    """True with probability ``p``: a 53-bit uniform ``< p`` (``bernoulli_(p)``)."""
    n = math.prod(shape)
    return (_unit(_gen(generator), n, np.float64) < p).reshape(shape)


# -- integers ---------------------------------------------------------------------------------

def integers_array(low, high, shape, dtype=np.int64, generator=None) -> np.ndarray:
    """Integers from [low, high): ``word % (high - low) + low``, as ``random_(low, high)``.

    The word is 32 bits for a range below ``2**28``, else 64 bits (two words). For a floating
    ``dtype`` the bounds first move to numbers the dtype holds (``update_from``/``update_to``:
    ``randint(2**28, dtype=float32)`` draws from ``[0, 2**28 - 16)``), as in PyTorch.
    """
    low, high = int(low), int(high)
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        low, high = update_from(low, dtype), update_to(high, dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                           f"from={low} >= to={high}")
    n = math.prod(shape)
    span = high - low
    if span >= 2**28:
        words = _gen(generator)._random64(n)
    else:
        words = _gen(generator)._random32(n).astype(np.uint64)
    values = (words % np.uint64(span)).astype(np.int64) + low
    return values.astype(dtype, copy=False).reshape(shape)


def _digits(dtype: np.dtype) -> int:
    return np.finfo(dtype).nmant + 1  # 24 for float32: it holds every integer up to 2**24


def update_from(low: int, dtype) -> int:
    """PyTorch's ``update_from``: where ``from + 1`` rounds below ``from`` in the floating
    ``dtype``, move ``from`` up to the next number the dtype holds."""
    dtype = np.dtype(dtype)
    plus_1 = int(dtype.type(low + 1))
    if plus_1 < low:
        n = abs(low + 1).bit_length() - 1
        low = plus_1 + (1 << (n - _digits(dtype) + 1))
    return low


def update_to(high: int, dtype) -> int:
    """PyTorch's ``update_to``: where ``to - 1`` rounds up to ``to`` or more in the floating
    ``dtype``, move ``to`` down."""
    dtype = np.dtype(dtype)
    minus_1 = int(dtype.type(high - 1))
    if minus_1 >= high:
        n = abs(high - 1).bit_length() - 1
        high = minus_1 - (1 << (n - _digits(dtype) + 1))
    return high


def random_int64(generator=None) -> int:
    """One integer from [0, 2**63), as ``torch.empty((), dtype=torch.int64).random_()``."""
    return int(_gen(generator)._random64(1)[0] % np.uint64(2**63))


def permutation(n: int, generator=None) -> np.ndarray:
    """A random permutation of ``0 .. n-1`` (PyTorch's Fisher-Yates, one word per swap)."""
    n = int(n)
    if n < 0:
        raise RuntimeError(f"n must be non-negative, got{n}")
    out = list(range(n))
    if n > 1:
        z = (_gen(generator)._random32(n - 1).astype(np.int64)
             % np.arange(n, 1, -1, dtype=np.int64)).tolist()
        for i, zi in enumerate(z):
            j = zi + i
            out[i], out[j] = out[j], out[i]
    return np.array(out, dtype=np.int64)


# -- normal -----------------------------------------------------------------------------------

def normal_array(shape, mean=0.0, std=1.0, dtype=np.float32, generator=None,
                 contiguous: bool = True) -> np.ndarray:
    """Numbers from N(mean, std^2), drawn as PyTorch's ``normal_`` draws them: 16 at a time
    for a contiguous tensor of 16 or more, else one at a time (``contiguous=False`` is a
    tensor that is not: a transposed or strided view)."""
    dtype = np.dtype(dtype)
    n = math.prod(shape)
    gen = _gen(generator)
    if not contiguous and n >= 16:
        out = _scalar_normals(gen, n, mean, std)
        if dtype == np.float16:  # PyTorch's Half is made from a float
            out = out.astype(np.float32)
        return out.astype(dtype).reshape(shape)
    if dtype == np.float16:  # PyTorch computes in float32 and rounds: 16 uniforms at a time,
        if n < 16:  # 16 fresh ones for a last, partial block (not all n first, then 16 more)
            return normal_array(shape, mean, std, np.float32, generator).astype(np.float16)
        full = n - n % 16
        u = _unit(gen, full + (16 if n % 16 else 0), np.float32)
        out = np.empty(n, np.float32)
        out[:full] = _avx_block16(u[:full], np.float32(mean), np.float32(std))
        if n % 16:
            out[n - 16:] = _avx_block16(u[full:], np.float32(mean), np.float32(std))
        return out.astype(np.float16).reshape(shape)
    if n < 16:
        out = _scalar_normals(gen, n, mean, std)
    elif dtype in (np.float32, np.float16):
        out = _blocks(gen, n, dtype, lambda u: _avx_block16(u, np.float32(mean), np.float32(std)))
    else:
        out = _blocks(gen, n, dtype, lambda u: _scalar_block16(u, mean, std, dtype))
    return out.astype(dtype, copy=False).reshape(shape)


def _blocks(gen: Generator, n: int, dtype, block16) -> np.ndarray:
    """``normal_fill``: uniforms for all ``n``, turned into normals 16 at a time; when ``n`` is
    not a multiple of 16 the last 16 are drawn again and transformed again."""
    u = _unit(gen, n, dtype).astype(dtype)
    full = n - n % 16
    out = np.empty(n, dtype)
    out[:full] = block16(u[:full])
    if n % 16:
        out[n - 16:] = block16(_unit(gen, 16, dtype).astype(dtype))
    return out


def _scalar_normals(gen: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """``n`` normals in double precision, one at a time as PyTorch's scalar path draws them:
    Box-Muller makes two from two uniforms, the cosine one first; the sine one is kept for the
    next call (first a value kept from before is used)."""
    z = []
    if n and gen._next_double_normal is not None:
        z.append(gen._next_double_normal)
        gen._next_double_normal = None
    u = _unit(gen, 2 * ((n - len(z) + 1) // 2), np.float64).tolist()
    for u1, u2 in zip(u[0::2], u[1::2]):
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        z += [r * math.cos(theta), r * math.sin(theta)]
    if len(z) > n:  # an odd count: the last sine waits for the next draw
        gen._next_double_normal = z.pop()
    return _fma64(np.array(z, np.float64), float(std), float(mean))


def _scalar_block16(u: np.ndarray, mean: float, std: float, dtype) -> np.ndarray:
    """``normal_fill_16`` with the C library's log/cos/sin (Python's ``math`` is the same one)."""
    u = u.reshape(-1, 16).astype(np.float64)
    out = np.empty_like(u)
    for row_u, row_out in zip(u.tolist(), out):
        for j in range(8):
            radius = math.sqrt(-2.0 * math.log(1.0 - row_u[j]))
            theta = 2.0 * math.pi * row_u[j + 8]
            row_out[j] = _fma64_scalar(radius * math.cos(theta), std, mean)
            row_out[j + 8] = _fma64_scalar(radius * math.sin(theta), std, mean)
    return out.reshape(-1).astype(dtype)


# Cephes constants of avx_mathfun.h, as float32
_F = np.float32
_LOG_P = [_F(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                          3.3333331174E-1)]
_LOG_Q1, _LOG_Q2, _SQRTHF = _F(-2.12194440e-4), _F(0.693359375), _F(0.707106781186547524)
_DP = [_F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)]
_SIN_P = [_F(-1.9515295891E-4), _F(8.3321608736E-3), _F(-1.6666654611E-1)]
_COS_P = [_F(2.443315711809948E-005), _F(-1.388731625493765E-003), _F(4.166664568298827E-002)]
_FOPI = _F(1.27323954473516)  # 4 / pi


def _avx_log(x: np.ndarray) -> np.ndarray:
    """``log256_ps``: split ``x = m * 2**e`` with m in [sqrt(1/2), sqrt(2)), then a polynomial."""
    bits = np.maximum(x, _F(1.17549435e-38)).view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _F(1)
    m = ((bits & ~0x7F800000) | 0x3F000000).view(np.float32)  # mantissa in [0.5, 1)
    small = m < _SQRTHF
    e = e - small.astype(np.float32)
    m = (m - _F(1)) + np.where(small, m, _F(0))
    z = m * m
    y = np.full_like(m, _LOG_P[0])
    for c in _LOG_P[1:]:
        y = _fma32(y, m, c)
    y = _fma32(y * m, z, e * _LOG_Q1)
    y = _fma32(z, _F(-0.5), y)
    return _fma32(e, _LOG_Q2, m + y)


def _avx_sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sincos256_ps`` for x >= 0: reduce to [-pi/4, pi/4] by octant, then two polynomials."""
    j = (x * _FOPI).astype(np.int32)
    j = (j + 1) & ~1  # the octant, rounded to even
    y = j.astype(np.float32)
    for dp in _DP:  # x - j * pi/4, in three parts for precision
        x = _fma32(y, dp, x)
    z = x * x
    c = _fma32(_fma32(np.full_like(z, _COS_P[0]), z, _COS_P[1]), z, _COS_P[2]) * z
    c = _fma32(c, z, -(z * _F(0.5))) + _F(1)
    s = _fma32(_fma32(np.full_like(z, _SIN_P[0]), z, _SIN_P[1]), z, _SIN_P[2]) * z
    s = _fma32(s, x, x)
    swap = (j & 2) != 0
    sin, cos = np.where(swap, c, s), np.where(swap, s, c)
    sin = np.where((j & 4) != 0, -sin, sin)
    cos = np.where(((j - 2) & 4) == 0, -cos, cos)
    return sin, cos


def _avx_block16(u: np.ndarray, mean, std) -> np.ndarray:
    """``normal_fill_16_AVX2`` on rows of 16 float32 uniforms."""
    u = u.reshape(-1, 16)
    radius = np.sqrt(_F(-2) * _avx_log(_F(1) - u[:, :8]))
    sin, cos = _avx_sincos(_F(2.0 * math.pi) * u[:, 8:])
    out = np.concatenate([_fma32(radius * cos, std, mean), _fma32(radius * sin, std, mean)], 1)
    return out.reshape(-1)


# -- fused multiply-add -----------------------------------------------------------------------

def _fma32(a, b, c) -> np.ndarray:
    """``a * b + c`` rounded once to float32 (what an FMA instruction computes).

    The float32 product is exact in float64; the float64 sum is rounded once more, which can
    only go wrong when it lands exactly halfway between two float32s: then the sum's rounding
    error (Knuth's TwoSum) says which way to go.
    """
    p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    c = np.asarray(c, np.float64)
    s = p + c
    bv = s - p
    err = (p - (s - bv)) + (c - bv)
    tie = ((s.view(np.uint64) & np.uint64(0x1FFFFFFF)) == np.uint64(0x10000000)) & (err != 0)
    if tie.any():
        s = np.where(tie, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s.astype(np.float32)


def _two_prod(a, b):
    """``a * b == p + e`` exactly (Dekker's product with Veltkamp splitting)."""
    p = a * b
    split = 134217729.0  # 2**27 + 1
    ah = a * split
    ah = ah - (ah - a)
    bh = b * split
    bh = bh - (bh - b)
    al, bl = a - ah, b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _fma64(a, b, c) -> np.ndarray:
    """``a * b + c`` in float64 with one rounding (error-free product, then sum)."""
    p, e = _two_prod(np.asarray(a, np.float64), np.float64(b))
    s = p + c
    bv = s - p
    err = (p - (s - bv)) + (c - bv)
    return s + (err + e)


def _fma64_scalar(a: float, b: float, c: float) -> float:
    if b == 1.0 and c == 0.0:
        return a
    return float(_fma64(np.float64(a), b, c))


# -- exponential, Cauchy, log-normal, geometric ------------------------------------------------
# PyTorch's CPU kernels draw these one element at a time in double precision (``cpu_serial_kernel``
# with ``at::*_distribution<double>``, also for 16 elements or more): a 53-bit uniform ``u`` (or a
# scalar Box-Muller normal), the C library's ``log1p``/``tan``/``log``/``exp`` (the functions
# Python's ``math`` calls), and the double cast to the tensor's dtype.

def _one_at_a_time(shape, dtype, draw) -> np.ndarray:
    values = np.array([draw() for _ in range(math.prod(shape))], np.float64)
    if np.dtype(dtype) == np.float16:  # PyTorch's Half is made from a float
        values = values.astype(np.float32)
    return values.astype(dtype).reshape(shape)


def _of_uniforms(shape, dtype, generator, transform) -> np.ndarray:
    uniforms = iter(_unit(_gen(generator), math.prod(shape), np.float64).tolist())
    return _one_at_a_time(shape, dtype, lambda: transform(next(uniforms)))


def exponential_array(shape, lambd: float, dtype, generator=None) -> np.ndarray:
    """``exponential_(lambd)``: ``-1/lambd * log1p(-u)``."""
    scale = -1.0 / lambd
    return _of_uniforms(shape, dtype, generator, lambda u: scale * math.log1p(-u))


def cauchy_array(shape, median: float, sigma: float, dtype, generator=None) -> np.ndarray:
    """``cauchy_(median, sigma)``: ``median + sigma * tan(pi * (u - 1/2))``."""
    return _of_uniforms(shape, dtype, generator,
                        lambda u: median + sigma * math.tan(math.pi * (u - 0.5)))


def geometric_array(shape, p: float, dtype, generator=None) -> np.ndarray:
    """``geometric_(p)``: the number of trials to the first success, ``ceil(log u /
    log(1 - p))``."""
    log_q = math.log1p(-p)
    return _of_uniforms(shape, dtype, generator,
                        lambda u: math.ceil(math.log(u) / log_q) if u else math.inf)


def log_normal_array(shape, mean: float, std: float, dtype, generator=None) -> np.ndarray:
    """``log_normal_(mean, std)``: ``exp`` of a scalar normal draw (which keeps Box-Muller's
    second number for the next one, as ``normal_`` does for fewer than 16)."""
    normals = iter(_scalar_normals(_gen(generator), math.prod(shape), mean, std).tolist())
    return _one_at_a_time(shape, dtype, lambda: _c_exp(next(normals)))


def _c_exp(x: float) -> float:
    """``exp`` as C has it: inf where Python's ``math.exp`` raises OverflowError."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf

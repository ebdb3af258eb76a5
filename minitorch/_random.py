"""Random numbers: one global generator, seeded with ``minitorch.manual_seed``.

minitorch draws from NumPy's PCG64 generator, so the *values* differ from PyTorch's for the
same seed, but the same seed always gives the same values in minitorch.

Example:
    >>> import minitorch
    >>> _ = minitorch.manual_seed(0)
    >>> a = minitorch.rand(2)
    >>> _ = minitorch.manual_seed(0)
    >>> bool((a == minitorch.rand(2)).all())
    True
"""

from __future__ import annotations

import numpy as np

__all__ = ["Generator", "manual_seed", "seed", "initial_seed", "default_generator"]


class Generator:
    """A source of random numbers, as ``torch.Generator`` (``manual_seed``, ``seed``)."""

    def __init__(self, device="cpu") -> None:
        self._seed = 67280421310721  # PyTorch's default seed
        self.rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed: int) -> Generator:
        """Reset the generator so that it repeats the same sequence."""
        self._seed = int(seed)
        self.rng = np.random.default_rng(self._seed)
        return self

    def seed(self) -> int:
        """Seed from fresh entropy and return the new seed."""
        self._seed = int(np.random.SeedSequence().entropy % (2**63))
        self.rng = np.random.default_rng(self._seed)
        return self._seed

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self):
        return self.rng.bit_generator.state

    def set_state(self, state) -> None:
        self.rng.bit_generator.state = state


default_generator = Generator()


def manual_seed(seed: int) -> Generator:
    """Seed minitorch's global random number generator; returns it."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def _rng(generator) -> np.random.Generator:
    return (generator or default_generator).rng


def normal_array(shape, mean=0.0, std=1.0, dtype=np.float32, generator=None) -> np.ndarray:
    out = _rng(generator).standard_normal(shape, dtype=np.float64 if dtype == np.float64
                                          else np.float32)
    if std != 1.0 or mean != 0.0:
        out = out * np.asarray(std, out.dtype) + np.asarray(mean, out.dtype)
    return out.astype(dtype, copy=False)


def uniform_array(shape, low=0.0, high=1.0, dtype=np.float32, generator=None) -> np.ndarray:
    out = _rng(generator).random(shape, dtype=np.float64 if dtype == np.float64 else np.float32)
    if low != 0.0 or high != 1.0:
        out = out * np.asarray(high - low, out.dtype) + np.asarray(low, out.dtype)
    return out.astype(dtype, copy=False)


def integers_array(low, high, shape, dtype=np.int64, generator=None) -> np.ndarray:
    return _rng(generator).integers(low, high, size=shape, dtype=dtype)


def permutation(n: int, generator=None) -> np.ndarray:
    return _rng(generator).permutation(n)

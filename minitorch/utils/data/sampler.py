"""Samplers: the order in which a DataLoader visits the dataset.

* :class:`SequentialSampler`: 0, 1, 2, ... (``shuffle=False``);
* :class:`RandomSampler`: a fresh random permutation every epoch (``shuffle=True``);
* :class:`SubsetRandomSampler`: a random order of given indices;
* :class:`WeightedRandomSampler`: indices drawn with given weights (``torch.multinomial``);
* :class:`BatchSampler`: groups another sampler's indices into lists of ``batch_size``.

Example:
    >>> from minitorch.utils.data import BatchSampler, SequentialSampler
    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from minitorch import _random
from minitorch._tensor import _wrap
from minitorch.ops.sampling import multinomial

__all__ = ["Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
           "BatchSampler", "WeightedRandomSampler"]


class Sampler:
    """Base class: an iterable over dataset indices."""

    def __init__(self, data_source=None) -> None:
        pass

    def __iter__(self) -> Iterator[int]:
        raise NotImplementedError

    def _index_array(self) -> np.ndarray | None:
        """All the indices of one epoch as an array, when the sampler can say so cheaply."""
        return None


class SequentialSampler(Sampler):
    """The indices in order."""

    def __init__(self, data_source) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)

    def _index_array(self) -> np.ndarray:
        return np.arange(len(self.data_source))


def _fresh_generator(generator):
    """The generator to draw an epoch's order from: the one given, or a new one seeded from
    minitorch's global generator (so ``manual_seed`` makes shuffling reproducible)."""
    if generator is not None:
        return generator
    seed = _random.random_int64()  # torch.empty((), dtype=torch.int64).random_()
    return _random.Generator().manual_seed(seed)


class RandomSampler(Sampler):
    """A random permutation of the indices each epoch (or draws with replacement)."""

    def __init__(self, data_source, replacement: bool = False, num_samples: int | None = None,
                 generator=None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                "num_samples should be a positive integer value, but got "
                f"num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def _index_array(self) -> np.ndarray:
        # drawn in the same pieces as PyTorch's sampler, so the same seed gives the same order
        n = len(self.data_source)
        gen = _fresh_generator(self.generator)
        if self.replacement:
            pieces = [_random.integers_array(0, n, (32,), generator=gen)
                      for _ in range(self.num_samples // 32)]
            pieces.append(_random.integers_array(0, n, (self.num_samples % 32,), generator=gen))
        else:
            pieces = [_random.permutation(n, gen) for _ in range(self.num_samples // n)]
            pieces.append(_random.permutation(n, gen)[:self.num_samples % n])
        return np.concatenate(pieces)

    def __iter__(self) -> Iterator[int]:
        return iter(self._index_array().tolist())

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices, in a random order each epoch."""

    def __init__(self, indices: Sequence[int], generator=None) -> None:
        self.indices = indices
        self.generator = generator

    def _index_array(self) -> np.ndarray:
        order = _random.permutation(len(self.indices), self.generator)
        return np.asarray(self.indices, dtype=np.int64)[order]

    def __iter__(self) -> Iterator[int]:
        return iter(self._index_array().tolist())

    def __len__(self) -> int:
        return len(self.indices)


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler``; the last may be short unless
    ``drop_last``."""

    def __init__(self, sampler, batch_size: int, drop_last: bool) -> None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(
                f"drop_last should be a boolean value, but got drop_last={drop_last}"
            )
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def _index_batches(self) -> Iterator:
        """Batches as index arrays: sliced from one array when the sampler has it."""
        indices = self.sampler._index_array() if isinstance(self.sampler, Sampler) else None
        if indices is None:
            yield from (np.asarray(b, dtype=np.int64) for b in self)
            return
        n, bs = len(indices), self.batch_size
        stop = n - n % bs if self.drop_last else n
        for start in range(0, stop, bs):
            yield indices[start:start + bs]

    def __iter__(self) -> Iterator[list[int]]:
        batch = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return -(-len(self.sampler) // self.batch_size)


class WeightedRandomSampler(Sampler):
    """Indices ``0 .. len(weights) - 1`` drawn with probabilities proportional to ``weights``
    (with replacement by default): ``torch.multinomial`` of the weights, so a seed gives
    PyTorch's indices. Useful to oversample the rare classes of an unbalanced dataset.

    >>> import minitorch
    >>> g = minitorch.Generator().manual_seed(0)
    >>> list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, generator=g))
    [5, 4, 4, 5, 4]
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True,
                 generator=None) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or \
                num_samples <= 0:
            raise ValueError("num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError("replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        weights = np.asarray(getattr(weights, "_data", weights), dtype=np.float64)
        if weights.ndim != 1:
            raise ValueError("weights should be a 1d sequence but given weights have shape "
                             f"{tuple(weights.shape)}")
        self.weights = _wrap(weights.copy())
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(self.weights, self.num_samples, self.replacement,
                            generator=self.generator)
        yield from iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples

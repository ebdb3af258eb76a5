"""Datasets: where the samples live.

A map-style :class:`Dataset` answers two questions: how many samples (``len(ds)``) and what
is sample ``i`` (``ds[i]``, usually a ``(features, label)`` pair). The
:class:`~minitorch.utils.data.DataLoader` asks those questions to build batches.

Example:
    >>> import minitorch
    >>> from minitorch.utils.data import TensorDataset, random_split
    >>> ds = TensorDataset(minitorch.arange(10.0).reshape(5, 2), minitorch.tensor([0, 1, 0, 1, 1]))
    >>> len(ds), ds[1]
    (5, (tensor([2., 3.]), tensor(1)))
    >>> train, test = random_split(ds, [0.6, 0.4], generator=minitorch.Generator().manual_seed(0))
    >>> len(train), len(test)
    (3, 2)
"""

from __future__ import annotations

import bisect
import math
import warnings
from collections.abc import Sequence
from itertools import accumulate

import numpy as np

from minitorch import _random
from minitorch._tensor import Tensor, _wrap

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split"]


class Dataset:
    """Base class of map-style datasets: override ``__getitem__`` (and ``__len__``)."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is a stream: override ``__iter__`` instead of ``__getitem__``."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")


class TensorDataset(Dataset):
    """Samples are the rows of tensors that share their first dimension.

    ``ds[i]`` is ``(tensors[0][i], tensors[1][i], ...)``. The DataLoader takes whole batches of
    rows at once from it (one indexing operation per tensor), which is much faster than
    gathering and stacking samples one by one.
    """

    def __init__(self, *tensors: Tensor) -> None:
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), "Size mismatch between tensors"  # noqa: E501
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)

    def _get_batch(self, indices: np.ndarray) -> list:
        """The collated batch of samples ``indices``: what ``default_collate`` would build."""
        return [t[_wrap(indices)] if t.requires_grad else _wrap(t._data[indices])
                for t in self.tensors]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices`` (what ``random_split`` returns)."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list[int]) -> list:
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__([self.indices[idx] for idx in indices])
        return [self.dataset[self.indices[idx]] for idx in indices]

    def __len__(self) -> int:
        return len(self.indices)

    @property
    def _get_batch(self):
        """Batched fetching, when the underlying dataset supports it."""
        inner = getattr(self.dataset, "_get_batch", None)
        if inner is None:
            raise AttributeError("_get_batch")
        table = np.asarray(self.indices, dtype=np.int64)
        return lambda indices: inner(table[indices])


class ConcatDataset(Dataset):
    """Several datasets one after another."""

    def __init__(self, datasets) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = 0 if which == 0 else self.cumulative_sizes[which - 1]
        return self.datasets[which][idx - start]


def random_split(dataset: Dataset, lengths: Sequence, generator=None) -> list[Subset]:
    """Split ``dataset`` at random into non-overlapping subsets.

    Args:
        lengths: the sizes, or fractions that sum to 1 (the remainder of the rounding goes to
            the first subsets, one each).
        generator: a ``minitorch.Generator`` for a reproducible split.
    """
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            sizes.append(int(math.floor(n * frac)))
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
        for i, size in enumerate(sizes):
            if size == 0:
                warnings.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset.",
                    stacklevel=2)
        lengths = sizes
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = _random.permutation(sum(lengths), generator).tolist()
    return [Subset(dataset, order[end - size:end])
            for end, size in zip(accumulate(lengths), lengths)]

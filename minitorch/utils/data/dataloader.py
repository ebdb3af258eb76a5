"""``DataLoader``: an iterable over batches of a dataset.

``for xb, yb in DataLoader(ds, batch_size=64, shuffle=True):`` asks the sampler for the
indices of each batch, fetches those samples and collates them into tensors. One pass over
the loader is one *epoch*; with ``shuffle=True`` every epoch visits the samples in a new
random order.

For datasets that can hand out a whole batch at once (``TensorDataset`` and the datasets in
``minitorch.datasets``), the loader indexes each tensor once per batch instead of fetching
and stacking samples one by one, the main cost of a naive loader.

Example:
    >>> import minitorch
    >>> from minitorch.utils.data import DataLoader, TensorDataset
    >>> ds = TensorDataset(minitorch.arange(10.0), minitorch.arange(10))
    >>> loader = DataLoader(ds, batch_size=4)
    >>> len(loader)
    3
    >>> [yb.tolist() for _, yb in loader]
    [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from minitorch import _random
from minitorch.utils.data._collate import default_collate, default_convert
from minitorch.utils.data.dataset import IterableDataset
from minitorch.utils.data.sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "get_worker_info"]


class DataLoader:
    """Batches from a dataset (``torch.utils.data.DataLoader``).

    Args:
        dataset: a map-style dataset (``len`` and ``[]``) or an ``IterableDataset``.
        batch_size: samples per batch (default 1); ``None`` yields single samples.
        shuffle: a new random order every epoch.
        sampler: the order of the indices (instead of ``shuffle``).
        batch_sampler: yields whole lists of indices (instead of the four options above).
        num_workers: accepted for compatibility; minitorch loads in the main process.
        collate_fn: turns a list of samples into a batch (default: ``default_collate``).
        drop_last: drop the last batch if it is smaller than ``batch_size``.
        generator: the ``minitorch.Generator`` for shuffling.
    """

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler=None, batch_sampler=None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            )
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError(
                    f"DataLoader with IterableDataset: expected unspecified shuffle option, but "
                    f"got shuffle={shuffle}"
                )
            if sampler is not None or batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, but "
                    f"got sampler={sampler}"
                )
        elif shuffle not in (None, False) and sampler is not None:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None and not self._iterable:
            sampler = (RandomSampler(dataset, generator=generator) if shuffle
                       else SequentialSampler(dataset))
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        elif batch_size is not None and self._iterable and (
                isinstance(batch_size, bool) or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None or (self._iterable and self.batch_size is not None)

    def __len__(self) -> int:
        if self._iterable:
            n = len(self.dataset)  # raises TypeError if the stream has no length
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)

    def __iter__(self) -> Iterator:
        # PyTorch draws a base seed for worker processes each epoch, before the sampler draws;
        # drawing it too keeps minitorch's random stream in step with PyTorch's.
        _random.random_int64(self.generator)
        if self._iterable:
            return self._iter_stream()
        if self.batch_sampler is None:
            return (self.collate_fn(self.dataset[i]) for i in self.sampler)
        fetch_batch = _batch_fetcher(self.dataset)
        if (fetch_batch is not None and self.collate_fn is default_collate
                and type(self.batch_sampler) is BatchSampler):
            # The fast path: one indexing operation per tensor for the whole batch.
            return (fetch_batch(idx) for idx in self.batch_sampler._index_batches())
        return (self.collate_fn(self._fetch(indices)) for indices in self.batch_sampler)

    def _fetch(self, indices) -> list:
        getitems = getattr(self.dataset, "__getitems__", None)
        if callable(getitems):
            return getitems(indices)
        return [self.dataset[i] for i in indices]

    def _iter_stream(self):
        if self.batch_size is None:
            for sample in self.dataset:
                yield self.collate_fn(sample)
            return
        batch = []
        for sample in self.dataset:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)


def _batch_fetcher(dataset):
    """The dataset's fetch-a-whole-batch method (``_get_batch``), or None.

    None too when a subclass overrides ``__getitem__`` or ``__getitems__``: the loader must then
    call the subclass's own method for each sample, as PyTorch's does.
    """
    cls = type(dataset)
    owner = next((c for c in cls.__mro__ if "_get_batch" in vars(c)), None)
    if owner is None:
        return None
    for name in ("__getitem__", "__getitems__"):
        if getattr(cls, name, None) is not getattr(owner, name, None):
            return None
    return dataset._get_batch


def get_worker_info():
    """Information about the worker process that loads the data (its ``id``, ``num_workers``,
    ``seed``, ``dataset``), or None in the main process, as ``torch.utils.data``. minitorch
    always loads in the main process, so it is always None: an ``IterableDataset`` that
    splits its work by worker then reads the whole data once.

    >>> get_worker_info() is None
    True
    """
    return None

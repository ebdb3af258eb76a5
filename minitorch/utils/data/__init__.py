"""``minitorch.utils.data``: datasets, samplers and the DataLoader, as in PyTorch.

Example:
    >>> import minitorch
    >>> from minitorch.utils.data import DataLoader, TensorDataset
    >>> X, y = minitorch.randn(100, 2), minitorch.randint(0, 2, (100,))
    >>> loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    >>> xb, yb = next(iter(loader))
    >>> xb.shape, yb.shape
    (torch.Size([32, 2]), torch.Size([32]))
"""

from minitorch.utils.data._collate import default_collate, default_convert
from minitorch.utils.data.dataloader import DataLoader, get_worker_info
from minitorch.utils.data.dataset import (
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from minitorch.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split", "DataLoader", "default_collate", "default_convert", "Sampler",
           "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "BatchSampler",
           "WeightedRandomSampler", "get_worker_info"]

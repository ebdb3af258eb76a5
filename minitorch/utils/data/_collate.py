"""``default_collate``: turn a list of samples into one batch.

Tensors are stacked along a new first dimension; Python numbers and NumPy arrays become
tensors; tuples, lists, dicts and namedtuples keep their structure, with each field collated.
A batch of ``(image, label)`` pairs becomes ``[images, labels]``.

Example:
    >>> import minitorch
    >>> from minitorch.utils.data import default_collate
    >>> default_collate([(minitorch.ones(2), 0), (minitorch.zeros(2), 1)])
    [tensor([[1., 1.],
            [0., 0.]]), tensor([0, 1])]
"""

from __future__ import annotations

import collections.abc
import numbers

import numpy as np

from minitorch import _creation, _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap

__all__ = ["default_collate", "default_convert"]

_COLLATE_ERROR = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                  "lists; found {}")


def _stack(tensors: list[Tensor]) -> Tensor:
    if any(t.requires_grad for t in tensors):
        from minitorch.ops.shape import stack

        return stack(tensors, 0)
    xp = array_module(tensors[0]._data)
    return _wrap(xp.stack([t._data for t in tensors]))


def default_collate(batch: list):
    """Collate a list of samples into a batch (see the module docstring)."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return _stack(batch)
    if type(elem).__module__ == "numpy" and not isinstance(elem, (np.str_, np.bytes_)):
        if isinstance(elem, np.ndarray):
            if elem.dtype.kind in "OSUV":
                raise TypeError(_COLLATE_ERROR.format(elem.dtype))
            return _wrap(np.stack(batch))
        return _creation.as_tensor(np.asarray(batch))  # NumPy scalars
    if isinstance(elem, bool):
        return _creation.tensor(batch, dtype=_dtype.bool)
    if isinstance(elem, float):
        return _creation.tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, numbers.Integral):
        return _creation.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            return type(elem)(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # a namedtuple
        return type(elem)(*(default_collate(s) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = [default_collate(s) for s in zip(*batch)]
        if isinstance(elem, tuple):
            return transposed  # PyTorch turns tuples into lists
        try:
            return type(elem)(transposed)
        except TypeError:
            return transposed
    raise TypeError(_COLLATE_ERROR.format(type(elem)))


def default_convert(data):
    """What a DataLoader without batching does to each sample: NumPy arrays become tensors."""
    if isinstance(data, np.ndarray) and data.dtype.kind not in "OSUV":
        return _creation.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, list):
        return [default_convert(d) for d in data]
    return data

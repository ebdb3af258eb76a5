"""The 8x8 handwritten digits: a real dataset that ships with scikit-learn (no download).

1797 grey-scale images of the digits 0-9, 8x8 pixels with values 0-16. Small enough to train
a CNN on a laptop CPU in seconds, real enough to be interesting.

Example:
    >>> from minitorch.datasets import Digits
    >>> train, test = Digits(train=True), Digits(train=False)
    >>> len(train), len(test)
    (1438, 359)
    >>> image, label = train[0]
    >>> image.shape, image.dtype
    (torch.Size([1, 8, 8]), torch.float32)
"""

from __future__ import annotations

import functools

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.utils.data import Dataset

__all__ = ["load_digits", "Digits", "train_test_split"]


@functools.lru_cache(maxsize=1)
def _digits_arrays() -> tuple[np.ndarray, np.ndarray]:
    try:
        from sklearn.datasets import load_digits as _sklearn_digits  # heavy
    except ImportError as e:
        raise RuntimeError(
            "load_digits() needs scikit-learn, which bundles the 8x8 digits: "
            "pip install scikit-learn"
        ) from e
    bunch = _sklearn_digits()
    return bunch.images.astype(np.float32), bunch.target.astype(np.int64)


def load_digits(*, flatten: bool = False, scale: bool = True) -> tuple[Tensor, Tensor]:
    """All 1797 digits as ``(x, y)`` tensors.

    Args:
        flatten: give x as (N, 64) rows instead of (N, 1, 8, 8) images.
        scale: divide the pixel values (0-16) by 16, to [0, 1].
    """
    images, target = _digits_arrays()  # cached: never modified in place below
    if scale:
        images = images / np.float32(16.0)
    x = images.reshape(len(images), -1) if flatten else images[:, None, :, :]
    return _wrap(np.array(x, order="C")), _wrap(target.copy())


def train_test_split(*tensors: Tensor, test_size: float = 0.2, seed: int | None = 0,
                     stratify: Tensor | None = None) -> list[Tensor]:
    """Split tensors (same first dimension) at random into train and test parts.

    Returns ``[a_train, a_test, b_train, b_test, ...]`` as scikit-learn does. With
    ``stratify=y`` every class is split in the same proportion.
    """
    n = tensors[0].shape[0]
    rng = np.random.default_rng(seed)
    if stratify is None:
        order = rng.permutation(n)
        n_test = int(round(n * test_size))
        test_idx, train_idx = order[:n_test], order[n_test:]
    else:
        labels = stratify._data
        test_parts, train_parts = [], []
        for c in np.unique(labels):
            members = rng.permutation(np.flatnonzero(labels == c))
            k = int(round(len(members) * test_size))
            test_parts.append(members[:k])
            train_parts.append(members[k:])
        test_idx = rng.permutation(np.concatenate(test_parts))
        train_idx = rng.permutation(np.concatenate(train_parts))
    out = []
    for t in tensors:
        out += [_wrap(t._data[train_idx]), _wrap(t._data[test_idx])]
    return out


class Digits(Dataset):
    """The digits as a Dataset of ``(image, label)`` pairs, split into train and test.

    Args:
        train: the training part (default) or the test part.
        test_size: the fraction held out for testing (stratified by class).
        seed: the seed of the split (the same seed gives the same split).
        flatten: samples as 64-vectors instead of (1, 8, 8) images.
        transform, target_transform: functions applied to each image / label.

    Attributes:
        data: all images of this part as one float32 tensor; targets: the int64 labels.
    """

    classes = [str(d) for d in range(10)]

    def __init__(self, train: bool = True, test_size: float = 0.2, seed: int = 0,
                 flatten: bool = False, transform=None, target_transform=None) -> None:
        x, y = load_digits(flatten=flatten)
        x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=test_size,
                                                            seed=seed, stratify=y)
        self.train = train
        self.data, self.targets = (x_train, y_train) if train else (x_test, y_test)
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self) -> int:
        return self.data.shape[0]

    def __getitem__(self, index: int):
        image, target = self.data[index], int(self.targets._data[index])
        if self.transform is not None:
            image = self.transform(image)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return image, target

    @property
    def _get_batch(self):
        """Whole batches at once for the DataLoader (only without per-sample transforms)."""
        if self.transform is not None or self.target_transform is not None:
            raise AttributeError("_get_batch")
        return lambda idx: [_wrap(self.data._data[idx]), _wrap(self.targets._data[idx])]

    def __repr__(self) -> str:
        split = "Train" if self.train else "Test"
        return f"Dataset Digits\n    Number of datapoints: {len(self)}\n    Split: {split}"

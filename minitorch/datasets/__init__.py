"""``minitorch.datasets``: data to train on, with no setup.

* synthetic 2-D sets (:func:`make_moons`, :func:`make_spirals`, :func:`make_blobs`) for
  pictures of decision boundaries;
* the 8x8 digits (:func:`load_digits`, :class:`Digits`), a real dataset bundled with
  scikit-learn, so it works offline;
* MNIST (:class:`MNIST`), downloaded once and checked, plus the IDX reader behind it.

Example:
    >>> from minitorch.datasets import make_blobs
    >>> X, y = make_blobs(90, centers=3, seed=1)
    >>> X.shape, y[:5]
    (torch.Size([90, 2]), tensor([0, 1, 0, 1, 0]))
"""

from minitorch.datasets.digits import Digits, load_digits, train_test_split
from minitorch.datasets.mnist import (
    MNIST,
    check_integrity,
    default_root,
    download_url,
    read_idx,
    write_idx,
)
from minitorch.datasets.synthetic import make_blobs, make_moons, make_spirals

__all__ = ["make_moons", "make_spirals", "make_blobs", "load_digits", "Digits",
           "train_test_split", "MNIST", "read_idx", "write_idx", "check_integrity",
           "download_url", "default_root"]

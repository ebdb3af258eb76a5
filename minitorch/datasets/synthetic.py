"""Small 2-D datasets made with NumPy, for plotting decision boundaries.

Each function is seeded (the same ``seed`` gives the same points) and returns
``(X, y)``: ``X`` a float32 tensor of shape (N, 2), ``y`` an int64 tensor of class labels.

Example:
    >>> from minitorch.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, seed=0)
    >>> X.shape, X.dtype, y.dtype, sorted(set(y.tolist()))
    (torch.Size([200, 2]), torch.float32, torch.int64, [0, 1])
"""

from __future__ import annotations

import numpy as np

from minitorch._tensor import Tensor, _wrap

__all__ = ["make_moons", "make_spirals", "make_blobs"]


def _finish(x: np.ndarray, y: np.ndarray, rng: np.random.Generator,
            shuffle: bool) -> tuple[Tensor, Tensor]:
    if shuffle:
        order = rng.permutation(len(y))
        x, y = x[order], y[order]
    return _wrap(np.ascontiguousarray(x, dtype=np.float32)), _wrap(y.astype(np.int64))


def make_moons(n_samples: int = 100, noise: float = 0.0, seed: int | None = 0,
               shuffle: bool = True) -> tuple[Tensor, Tensor]:
    """Two interleaving half circles (class 0 on top, class 1 below), as scikit-learn's.

    Args:
        n_samples: total number of points (split as evenly as possible).
        noise: standard deviation of Gaussian noise added to the points.
        seed: seed of the random generator (``None``: a fresh one).
    """
    rng = np.random.default_rng(seed)
    n_out = n_samples // 2
    n_in = n_samples - n_out
    t_out, t_in = np.linspace(0, np.pi, n_out), np.linspace(0, np.pi, n_in)
    outer = np.stack([np.cos(t_out), np.sin(t_out)], axis=1)
    inner = np.stack([1 - np.cos(t_in), 1 - np.sin(t_in) - 0.5], axis=1)
    x = np.concatenate([outer, inner])
    y = np.concatenate([np.zeros(n_out, dtype=np.int64), np.ones(n_in, dtype=np.int64)])
    if noise:
        x = x + rng.normal(0.0, noise, size=x.shape)
    return _finish(x, y, rng, shuffle)


def make_spirals(n_samples: int = 100, n_classes: int = 2, noise: float = 0.2,
                 seed: int | None = 0, shuffle: bool = True) -> tuple[Tensor, Tensor]:
    """``n_classes`` spiral arms winding out from the origin (the CS231n spirals).

    Arm ``c`` has points at radius ``r`` in [0, 1] and angle ``4 (c + r)`` plus noise.
    """
    rng = np.random.default_rng(seed)
    counts = [n_samples // n_classes + (c < n_samples % n_classes) for c in range(n_classes)]
    x, y = [], []
    for c, n in enumerate(counts):
        r = np.linspace(0.0, 1.0, n)
        theta = np.linspace(c * 4.0, (c + 1) * 4.0, n) + rng.normal(0.0, noise, size=n)
        x.append(np.stack([r * np.sin(theta), r * np.cos(theta)], axis=1))
        y.append(np.full(n, c, dtype=np.int64))
    return _finish(np.concatenate(x), np.concatenate(y), rng, shuffle)


def make_blobs(n_samples: int = 100, centers=3, cluster_std: float = 1.0,
               center_box: tuple = (-10.0, 10.0), seed: int | None = 0,
               shuffle: bool = True) -> tuple[Tensor, Tensor]:
    """Gaussian clusters: ``centers`` is a number (drawn uniformly in ``center_box``) or a
    list of (x, y) centres."""
    rng = np.random.default_rng(seed)
    if isinstance(centers, int):
        centers = rng.uniform(center_box[0], center_box[1], size=(centers, 2))
    centers = np.asarray(centers, dtype=np.float64)
    k = len(centers)
    counts = [n_samples // k + (c < n_samples % k) for c in range(k)]
    x = np.concatenate([rng.normal(centers[c], cluster_std, size=(n, centers.shape[1]))
                        for c, n in enumerate(counts)])
    y = np.concatenate([np.full(n, c, dtype=np.int64) for c, n in enumerate(counts)])
    return _finish(x, y, rng, shuffle)

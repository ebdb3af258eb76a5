"""The MLP training steps that more than one benchmark times, written once. This module
imports neither minitorch nor PyTorch: each step takes the library as an argument, so a
process that times minitorch alone never loads torch (``bench_kept_graphs.py`` needs that)."""

from __future__ import annotations

import math

import numpy as np


def mlp_data(batch: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, 64)).astype(np.float32)
    y = rng.integers(0, 10, batch)
    return x, y


def mlp_lib(lib, batch: int, hidden: int):
    """The MLP step as the module tutorials write it: ``nn.Sequential``, ``CrossEntropyLoss``
    and ``optim.SGD``."""
    x, y = mlp_data(batch)
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    x, y = lib.tensor(x), lib.tensor(y)

    def step():
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

    return step


def mlp_raw_lib(lib, batch: int, hidden: int):
    """The MLP step as the "with examples" tutorials write it: raw tensors with
    ``requires_grad``, ``F.cross_entropy`` and a manual SGD update under ``no_grad``."""
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    x, y = lib.tensor(x), lib.tensor(y)
    w1 = lib.tensor(rng.standard_normal((64, hidden)).astype(np.float32) / 8).requires_grad_()
    b1 = lib.zeros(hidden, requires_grad=True)
    w2 = lib.tensor((rng.standard_normal((hidden, 10)) / math.sqrt(hidden)).astype(np.float32))
    w2.requires_grad_()
    b2 = lib.zeros(10, requires_grad=True)
    params = (w1, b1, w2, b2)
    F = lib.nn.functional  # noqa: N806  (the tutorials' name)
    lr = 0.1

    def step():
        loss = F.cross_entropy(F.relu(x @ w1 + b1) @ w2 + b2, y)
        loss.backward()
        with lib.no_grad():
            for p in params:
                p -= p.grad * lr
                p.grad.zero_()
        return loss  # bench_kept_graphs.py keeps it; bench_overhead.py drops it

    return step

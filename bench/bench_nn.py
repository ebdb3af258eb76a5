"""nn / optim / data benchmarks against PyTorch CPU and hand-written NumPy, in one run.

Run: ``python bench/bench_nn.py`` (``--quick`` for fewer repeats, ``--json PATH`` to save).

1. MLP training step: 64 -> 128 -> 10, batch 128, ReLU, ``CrossEntropyLoss``, ``optim.SGD``
   (zero_grad, forward, backward, step).
2. LeNet-style CNN forward + backward on 8x8 digits, batch 64:
   conv(1->6, 3x3, pad 1), ReLU, max-pool 2 -> conv(6->16, 3x3, pad 1), ReLU, max-pool 2 ->
   flatten -> 120 -> 84 -> 10, cross-entropy.
3. A full training run on the 8x8 digits (the CNN of ``tests/test_nn.py``: conv 16 and 32
   channels, Adam lr 1e-2, batch 64): seconds until the test accuracy reaches 97 %.
4. ``DataLoader`` over a ``TensorDataset`` of 60,000 x 784 floats, batch 64, shuffled: one epoch.
5. A 2-layer ``nn.TransformerEncoder`` (d_model 32, 4 heads, feed-forward 64, dropout 0.1),
   forward + backward of a (10, 4, 32) batch: many small operations, as in a small language
   model.

Every case runs for minitorch, PyTorch with 1 thread and with its default threads, and (where
it is short enough to write out) NumPy by hand. minitorch runs with NumPy's BLAS on 1 thread
(small matrices are faster that way; see ``minitorch.utils.threads``) and, for comparison,
with BLAS's default threads. Each figure is the *minimum* over rounds of the mean time per
call, as wall-clock time and as this process's CPU time (all threads; on a busy machine the
CPU time of single-threaded code is the steadier figure); the libraries are measured
round-robin, so a busy machine slows them alike. Nothing is asserted: timings are not tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitorch
from minitorch.utils.threads import get_num_threads, set_num_threads

try:
    import torch
except ImportError:  # the benchmark still runs, without the PyTorch columns
    torch = None

DEFAULT_BLAS_THREADS = get_num_threads()


# ---------------------------------------------------------------- timing
def best_of(cases: dict, rounds: int, number: int) -> dict:
    """``{name: (fn, setup)}`` -> ``{name: (wall s, CPU s) per call}``, round-robin, minimum.

    The CPU time (of this process, all its threads) is what a busy machine distorts least
    for single-threaded code; the wall time is what you wait for.
    """
    best = {name: [float("inf"), float("inf")] for name in cases}
    for _ in range(rounds):
        for name, (fn, setup) in cases.items():
            setup()
            fn()  # warm up (and let the settings take effect)
            t0, c0 = time.perf_counter(), time.process_time()
            for _ in range(number):
                fn()
            wall, cpu = (time.perf_counter() - t0) / number, (time.process_time() - c0) / number
            best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
    return {name: tuple(v) for name, v in best.items()}


def settings(lib_threads: int | None = None, blas_threads: int | None = 1):
    def apply():
        if torch is not None and lib_threads is not None:
            torch.set_num_threads(lib_threads)
        set_num_threads(blas_threads)
    return apply


def torch_default_threads() -> int:
    return os.cpu_count() or 1


# ---------------------------------------------------------------- 1. MLP step
def mlp_step(lib, x, y):
    lib.manual_seed(0)
    nn = lib.nn
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    x, y = lib.tensor(x), lib.tensor(y)

    def step():
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

    return step


def mlp_step_numpy(x, y):
    rng = np.random.default_rng(0)
    w1 = rng.uniform(-1 / 8, 1 / 8, (128, 64)).astype(np.float32)
    b1 = np.zeros(128, np.float32)
    w2 = rng.uniform(-1 / 11.3, 1 / 11.3, (10, 128)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    n = len(y)
    rows = np.arange(n)
    lr = np.float32(0.1)

    def step():
        h = x @ w1.T + b1
        a = np.maximum(h, 0)
        z = a @ w2.T + b2
        z = z - z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = p
        g[rows, y] -= 1
        g /= n                                # d loss / d logits
        gw2, gb2 = g.T @ a, g.sum(0)
        ga = (g @ w2) * (h > 0)
        gw1, gb1 = ga.T @ x, ga.sum(0)
        for param, grad in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            param -= lr * grad

    return step


# ---------------------------------------------------------------- 2. CNN forward + backward
def lenet(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(16 * 2 * 2, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10))


def cnn_forward_backward(lib, x, y):
    lib.manual_seed(0)
    model = lenet(lib)
    loss_fn = lib.nn.CrossEntropyLoss()
    x, y = lib.tensor(x), lib.tensor(y)

    def run():
        model.zero_grad()
        loss_fn(model(x), y).backward()

    return run


# ---------------------------------------------------------------- 3. training to 97 %
def digits_cnn(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 2 * 2, 64), nn.ReLU(), nn.Linear(64, 10))


def train_digits(lib, data, seed: int, max_epochs: int = 40) -> tuple[float, int, float]:
    """(seconds to >= 97 % test accuracy, epochs, final accuracy)."""
    (xtr, ytr), (xte, yte) = data
    lib.manual_seed(seed)
    start = time.perf_counter()
    xtr, ytr, xte, yte = (lib.tensor(a) for a in (xtr, ytr, xte, yte))
    loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(xtr, ytr), batch_size=64,
                                       shuffle=True)
    model = digits_cnn(lib)
    opt = lib.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = lib.nn.CrossEntropyLoss()
    accuracy, epoch = 0.0, 0
    for epoch in range(1, max_epochs + 1):  # noqa: B007  (returned below)
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
        model.eval()
        with lib.no_grad():
            accuracy = float((model(xte).argmax(1) == yte).float().mean())
        if accuracy >= 0.97:
            break
    return time.perf_counter() - start, epoch, accuracy


# ---------------------------------------------------------------- 4. DataLoader
def transformer_step(lib, x):
    """One forward + backward of a small 2-layer Transformer encoder (training mode)."""
    lib.manual_seed(0)
    nn = lib.nn
    layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, dropout=0.1)
    model = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    xt = lib.tensor(x)

    def step():
        model.zero_grad()
        model(xt).square().mean().backward()
    return step


def loader_epoch(lib, x, y):
    ds = lib.utils.data.TensorDataset(lib.tensor(x), lib.tensor(y))
    loader = lib.utils.data.DataLoader(ds, batch_size=64, shuffle=True)

    def run():
        for _batch in loader:
            pass

    return run


def loader_epoch_numpy(x, y):
    rng = np.random.default_rng(0)

    def run():
        order = rng.permutation(len(y))
        for start in range(0, len(y), 64):
            idx = order[start:start + 64]
            xb, yb = x[idx], y[idx]  # noqa: F841

    return run


# ---------------------------------------------------------------- main
def table(title: str, rows: list, ref: str) -> list[str]:
    lines = [f"\n{title}  (ratios: x {ref})",
             f"  {'implementation':38s} {'wall':>12s} {'ratio':>6s} {'CPU':>12s} {'ratio':>6s}"]
    ref_wall, ref_cpu = dict(rows).get(ref, (None, None))
    for name, (wall, cpu) in rows:
        rw = f"{wall / ref_wall:6.2f}" if ref_wall else "     -"
        rc = f"{cpu / ref_cpu:6.2f}" if ref_cpu else "     -"
        lines.append(f"  {name:38s} {wall * 1e3:9.3f} ms {rw} {cpu * 1e3:9.3f} ms {rc}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    results: dict = {"machine": {"python": platform.python_version(), "numpy": np.__version__,
                                 "torch": getattr(torch, "__version__", None),
                                 "cpus": os.cpu_count(), "load": os.getloadavg()[0],
                                 "blas_default_threads": DEFAULT_BLAS_THREADS}}
    out = [f"minitorch nn benchmarks (numpy {np.__version__}, torch "
           f"{getattr(torch, '__version__', 'not installed')}, {os.cpu_count()} CPUs, load "
           f"average {os.getloadavg()[0]:.1f}); minimum over {rounds} round-robin rounds"]
    rng = np.random.default_rng(0)
    mt_tag = "minitorch (BLAS 1 thread)"
    mt_tag_default = f"minitorch (BLAS {DEFAULT_BLAS_THREADS} threads)"
    torch_tag1 = "PyTorch CPU, 1 thread"
    torch_tagn = f"PyTorch CPU, {torch_default_threads()} threads"

    # 1. MLP step
    x = rng.standard_normal((128, 64)).astype(np.float32)
    y = rng.integers(0, 10, 128)
    cases = {mt_tag: (mlp_step(minitorch, x, y), settings(None, 1)),
             mt_tag_default: (mlp_step(minitorch, x, y), settings(None, DEFAULT_BLAS_THREADS)),
             "NumPy by hand (BLAS 1 thread)": (mlp_step_numpy(x, y), settings(None, 1))}
    if torch is not None:
        cases[torch_tag1] = (mlp_step(torch, x, y), settings(1, 1))
        cases[torch_tagn] = (mlp_step(torch, x, y), settings(torch_default_threads(), 1))
    mlp = best_of(cases, rounds, 100)
    ref = torch_tag1 if torch is not None else mt_tag
    out += table("1. MLP training step (64-128-10, batch 128, cross-entropy, SGD)",
                 list(mlp.items()), ref)
    results["mlp_step_s"] = mlp

    # 2. CNN forward + backward
    xc = rng.standard_normal((64, 1, 8, 8)).astype(np.float32)
    yc = rng.integers(0, 10, 64)
    cases = {mt_tag: (cnn_forward_backward(minitorch, xc, yc), settings(None, 1)),
             mt_tag_default: (cnn_forward_backward(minitorch, xc, yc),
                              settings(None, DEFAULT_BLAS_THREADS))}
    if torch is not None:
        cases[torch_tag1] = (cnn_forward_backward(torch, xc, yc), settings(1, 1))
        cases[torch_tagn] = (cnn_forward_backward(torch, xc, yc),
                             settings(torch_default_threads(), 1))
    cnn = best_of(cases, rounds, 30)
    out += table("2. LeNet-style CNN forward + backward (8x8 digits, batch 64)",
                 list(cnn.items()), ref)
    results["cnn_forward_backward_s"] = cnn

    # 3. Training on the digits to 97 % test accuracy
    from minitorch.datasets import Digits

    train, test = Digits(train=True), Digits(train=False)
    data = ((train.data.numpy(), train.targets.numpy()), (test.data.numpy(),
                                                          test.targets.numpy()))
    runs = [(mt_tag, minitorch, settings(None, 1))]
    if torch is not None:
        runs.append((torch_tag1, torch, settings(1, 1)))
    seeds = (0, 1) if args.quick else (0, 1, 2)
    training = {}
    out.append("\n3. Train the digits CNN (Adam 1e-2, batch 64) to >= 97 % test accuracy")
    out.append(f"  {'implementation':38s} {'seed':>4s} {'seconds':>9s} {'epochs':>7s} "
               f"{'s/epoch':>8s} {'accuracy':>9s}")
    for name, lib, setup in runs:
        setup()
        for seed in seeds:
            seconds, epochs, acc = train_digits(lib, data, seed)
            training.setdefault(name, []).append((seed, seconds, epochs, acc))
            out.append(f"  {name:38s} {seed:4d} {seconds:9.2f} {epochs:7d} "
                       f"{seconds / epochs:8.3f} {acc:9.4f}")
    results["digits_training"] = training

    # 4. DataLoader epoch
    xl = rng.standard_normal((60000, 784)).astype(np.float32)
    yl = rng.integers(0, 10, 60000)
    cases = {mt_tag: (loader_epoch(minitorch, xl, yl), settings(None, 1)),
             "NumPy by hand (index per batch)": (loader_epoch_numpy(xl, yl), settings(None, 1))}
    if torch is not None:
        cases[torch_tag1] = (loader_epoch(torch, xl, yl), settings(1, 1))
    loader = best_of(cases, max(2, rounds // 2), 1)
    out += table("4. DataLoader: one shuffled epoch, TensorDataset 60000 x 784, batch 64",
                 list(loader.items()), ref)
    results["dataloader_epoch_s"] = loader

    # 5. Transformer encoder forward + backward
    xs = rng.standard_normal((10, 4, 32)).astype(np.float32)
    cases = {mt_tag: (transformer_step(minitorch, xs), settings(None, 1))}
    if torch is not None:
        cases[torch_tag1] = (transformer_step(torch, xs), settings(1, 1))
    transformer = best_of(cases, rounds, 30)
    out += table("5. Transformer encoder forward + backward (2 layers, d_model 32, 4 heads, "
                 "(10, 4, 32))", list(transformer.items()), ref)
    results["transformer_forward_backward_s"] = transformer

    set_num_threads(DEFAULT_BLAS_THREADS)
    print("\n".join(out))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2, default=str)


if __name__ == "__main__":
    main()

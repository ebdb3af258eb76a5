"""Core benchmarks: per-op overhead and an MLP training step, against PyTorch and NumPy.

Run: ``python bench/bench_core.py`` (add ``--json PATH`` to save the figures).

1. Per-op overhead: forward + backward of a 1,000-op elementwise chain on a 16-element tensor.
2. An MLP training step: 64 -> 128 -> 10, batch 128, ReLU, cross-entropy written by hand from
   log-softmax, plain SGD.

Each is timed for minitorch, PyTorch CPU (1 thread and default threads) and hand-written NumPy
(forward and backward written out by hand) in the same process, so the ratios are comparable.
The numbers are the best of several repeats, in process CPU time by default (``--clock wall``
for wall-clock time). Nothing here is asserted: timings are not tests.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

# Small matrices run fastest on one BLAS thread, and PyTorch's own thread pool fights with
# OpenBLAS's when both spin on 2 cores; compare single-threaded BLAS against single-threaded
# PyTorch. (Set OPENBLAS_NUM_THREADS yourself to measure something else.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitorch

CHAIN = 1000


CLOCK = time.process_time  # set in main(): process CPU time (default) or wall time


def timeit(fn, repeat: int = 7, number: int = 1) -> float:
    """Best seconds per call of ``fn`` over ``repeat`` rounds of ``number`` calls.

    With BLAS and PyTorch on one thread, the process's CPU time is the work done, and it is
    barely disturbed by other programs on a busy machine; the minimum is the least-disturbed
    round.
    """
    fn()  # warm up
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        for _ in range(number):
            fn()
        times.append((CLOCK() - t0) / number)
    return min(times)


# ---------------------------------------------------------------- 1. per-op overhead
def chain_lib(lib):
    x = lib.ones(16, requires_grad=True)

    def run():
        y = x
        for _ in range(CHAIN // 2):
            y = y * 1.0001
            y = y + 0.0001
        y.sum().backward()
        x.grad = None

    return run


def chain_numpy():
    x = np.ones(16, dtype=np.float32)
    a, c = np.float32(1.0001), np.float32(0.0001)

    def run():
        y = x
        for _ in range(CHAIN // 2):  # forward (the values are kept, as autograd would)
            y = y * a
            y = y + c
        g = np.ones_like(x)
        for _ in range(CHAIN // 2):  # backward: d(y*a)/dy = a, d(y+c)/dy = 1
            g = g * a
        return g

    return run


# ---------------------------------------------------------------- 2. MLP step
def mlp_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((128, 64)).astype(np.float32)
    y = rng.integers(0, 10, 128)
    w1 = (rng.standard_normal((64, 128)) * 0.1).astype(np.float32)
    b1 = np.zeros(128, np.float32)
    w2 = (rng.standard_normal((128, 10)) * 0.1).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    return x, y, [w1, b1, w2, b2]


def mlp_lib(lib):
    x, y, params = mlp_data()
    x = lib.tensor(x)
    onehot = lib.tensor(np.eye(10, dtype=np.float32)[y])
    ps = [lib.tensor(p.copy(), requires_grad=True) for p in params]
    lr = 0.01

    def step():
        w1, b1, w2, b2 = ps
        h = (x @ w1 + b1).relu()
        logits = h @ w2 + b2
        m = logits.max(dim=1, keepdim=True).values
        lse = (logits - m).exp().sum(dim=1, keepdim=True).log() + m
        loss = -((logits - lse) * onehot).sum() / 128
        loss.backward()
        with lib.no_grad():
            for p in ps:
                p -= lr * p.grad
                p.grad = None
        return loss

    return step


def mlp_numpy():
    x, y, params = mlp_data()
    onehot = np.eye(10, dtype=np.float32)[y]
    w1, b1, w2, b2 = [p.copy() for p in params]
    lr = np.float32(0.01)

    def step():
        nonlocal w1, b1, w2, b2
        a = x @ w1 + b1
        h = np.maximum(a, 0)
        logits = h @ w2 + b2
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        logp = logits - (np.log(s) + m)
        loss = -(logp * onehot).sum() / 128
        g_logits = (e / s - onehot) / 128
        g_w2 = h.T @ g_logits
        g_b2 = g_logits.sum(0)
        g_h = g_logits @ w2.T
        g_a = g_h * (a > 0)
        g_w1 = x.T @ g_a
        g_b1 = g_a.sum(0)
        w1 -= lr * g_w1
        b1 -= lr * g_b1
        w2 -= lr * g_w2
        b2 -= lr * g_b2
        return loss

    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="process CPU time (robust on a busy machine) or wall-clock time")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    try:
        import torch
    except ImportError:
        torch = None
        print("PyTorch is not installed: showing minitorch and NumPy only.")

    rows = {}
    r = args.repeat
    rows["chain_minitorch"] = timeit(chain_lib(minitorch), r)
    rows["chain_numpy"] = timeit(chain_numpy(), r)
    rows["mlp_minitorch"] = timeit(mlp_lib(minitorch), r, 20)
    rows["mlp_numpy"] = timeit(mlp_numpy(), r, 20)
    if torch is not None:
        default_threads = torch.get_num_threads()
        for label, threads in (("torch1", 1), ("torch", default_threads)):
            torch.set_num_threads(threads)
            rows[f"chain_{label}"] = timeit(chain_lib(torch), r)
            rows[f"mlp_{label}"] = timeit(mlp_lib(torch), r, 20)
        torch.set_num_threads(default_threads)

    print(f"# minitorch core benchmarks  ({platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, NumPy {np.__version__}, "
          f"OPENBLAS_NUM_THREADS={os.environ['OPENBLAS_NUM_THREADS']}, {args.clock} time"
          + (f", PyTorch {torch.__version__}" if torch else "") + ")")
    print()
    print("| benchmark | minitorch | PyTorch 1 thread | PyTorch default | NumPy by hand |"
          " minitorch / PyTorch-1 | minitorch / NumPy |")
    print("|---|---|---|---|---|---|---|")
    for key, label, unit, scale in (
            ("chain", f"{CHAIN}-op chain fwd+bwd (16 elems)", "ms", 1e3),
            ("mlp", "MLP step 64-128-10, batch 128", "ms", 1e3)):
        m, n = rows[f"{key}_minitorch"], rows[f"{key}_numpy"]
        t1, tt = rows.get(f"{key}_torch1"), rows.get(f"{key}_torch")

        def f(v, scale=scale, unit=unit):
            return "n/a" if v is None else f"{v * scale:.3f} {unit}"

        print(f"| {label} | {f(m)} | {f(t1)} | {f(tt)} | {f(n)} | "
              f"{'n/a' if t1 is None else f'{m / t1:.2f}x'} | {m / n:.2f}x |")
    per_op = rows["chain_minitorch"] / CHAIN * 1e6
    print()
    print(f"per-op overhead (fwd+bwd): minitorch {per_op:.1f} us"
          + (f", PyTorch 1 thread {rows['chain_torch1'] / CHAIN * 1e6:.1f} us" if torch else ""))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()

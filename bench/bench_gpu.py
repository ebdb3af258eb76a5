"""GPU benchmarks: minitorch on CuPy vs minitorch on the CPU vs PyTorch CUDA, in one run.

Run on a machine with an NVIDIA GPU and CuPy: ``python bench/bench_gpu.py --json out.json``.
Without a GPU it measures the CPU side only (the curve chapter 07 compares against), at sizes a
laptop finishes quickly.

1. matmul forward + backward (``(A @ B).sum().backward()``) for square matrices;
2. an MLP training step (784 -> 1024 -> 1024 -> 10, batch 4096, ReLU, cross-entropy, SGD);
3. the digits CNN (Conv2d-ReLU-MaxPool-Linear) forward + backward at batch 512.

GPU timings synchronize before reading the clock (GPUs run asynchronously).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitorch  # noqa: E402


def timeit(fn, sync, repeat=5) -> float:
    fn()
    sync()
    times = []
    for _ in range(repeat):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def matmul_case(lib, n, device):
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((n, n), dtype=np.float32), device=device,
                   requires_grad=True)
    b = lib.tensor(rng.standard_normal((n, n), dtype=np.float32), device=device,
                   requires_grad=True)

    def run():
        a.grad = b.grad = None
        (a @ b).sum().backward()

    return run


def mlp_case(lib, device, batch=4096):
    rng = np.random.default_rng(0)
    sizes = [784, 1024, 1024, 10]
    ws = [lib.tensor((rng.standard_normal((i, o)) / np.sqrt(i)).astype(np.float32),
                     device=device, requires_grad=True) for i, o in zip(sizes, sizes[1:])]
    x = lib.tensor(rng.standard_normal((batch, 784), dtype=np.float32), device=device)
    onehot = lib.tensor(np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)], device=device)

    def run():
        h = x
        for w in ws[:-1]:
            h = (h @ w).relu()
        logits = h @ ws[-1]
        m = logits.max(dim=1, keepdim=True).values
        lse = (logits - m).exp().sum(dim=1, keepdim=True).log() + m
        loss = -((logits - lse) * onehot).sum() / batch
        loss.backward()
        with lib.no_grad():
            for w in ws:
                w -= 0.01 * w.grad
                w.grad = None

    return run


def cnn_case(lib, device, batch=512):
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(32 * 2 * 2, 10)).to(device)
    rng = np.random.default_rng(0)
    x = lib.tensor(rng.standard_normal((batch, 1, 8, 8), dtype=np.float32), device=device)
    y = lib.tensor(rng.integers(0, 10, batch), device=device)
    loss_fn = nn.CrossEntropyLoss()

    def run():
        model.zero_grad()
        loss_fn(model(x), y).backward()

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--sizes", type=int, nargs="*")
    args = parser.parse_args()
    gpu = minitorch.cuda.is_available()
    try:
        import torch
        torch_cuda = torch.cuda.is_available()
    except ImportError:
        torch, torch_cuda = None, False
    sizes = args.sizes or ([256, 512, 1024, 2048, 4096, 8192] if gpu else [64, 128, 256, 512,
                                                                          1024, 2048])

    def no_sync():
        pass

    runs = [("minitorch cpu", minitorch, "cpu", no_sync)]
    if gpu:
        runs.append(("minitorch cuda", minitorch, "cuda", minitorch.cuda.synchronize))
    if torch_cuda:
        runs.append(("torch cuda", torch, "cuda", torch.cuda.synchronize))

    results = {"date": datetime.date.today().isoformat(), "machine": platform.node(),
               "cpu_cores": os.cpu_count(), "gpu": minitorch.cuda.get_device_name() if gpu
               else None, "why_no_gpu": None if gpu else minitorch.cuda.unavailable_reason(),
               "matmul": {}, "mlp": {}, "cnn": {}}
    print(f"# minitorch GPU benchmarks, {results['date']}, "
          f"GPU: {results['gpu'] or 'none (' + str(results['why_no_gpu']) + ')'}")
    print("\n## matmul forward + backward (seconds)\n")
    print("| n | " + " | ".join(r[0] for r in runs) + " |")
    print("|---|" + "---|" * len(runs))
    for n in sizes:
        row = {}
        for label, lib, dev, sync in runs:
            if label == "minitorch cpu" and n > 4096:
                continue  # minutes on a CPU
            row[label] = timeit(matmul_case(lib, n, dev), sync, repeat=3 if n >= 2048 else 5)
        results["matmul"][n] = row
        print(f"| {n} | " + " | ".join(f"{row[r[0]]:.4f}" if r[0] in row else "—"
                                       for r in runs) + " |")
    for name, case in (("mlp", mlp_case), ("cnn", cnn_case)):
        print(f"\n## {name} step (seconds)\n")
        for label, lib, dev, sync in runs:
            try:
                t = timeit(case(lib, dev), sync, repeat=3)
            except Exception as e:  # noqa: BLE001  (report, don't hide)
                print(f"- {label}: failed: {type(e).__name__}: {e}")
                continue
            results[name][label] = t
            print(f"- {label}: {t:.4f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)


if __name__ == "__main__":
    main()

"""GPU benchmarks: minitorch on CuPy vs minitorch on the CPU vs PyTorch and NumPy, in one run.

Run on a machine with an NVIDIA GPU and CuPy (``pip install -e ".[gpu]"``)::

    python bench/bench_gpu.py --json minitorch/exercises/bench_results/gpu_$(date +%F).json

Without a GPU it measures the CPU side only (the curve chapter 12 compares against), at sizes a
laptop finishes in about a minute. What is timed:

1. matmul forward + backward (``(A @ B).sum().backward()``, float32, square ``n x n``): three
   matrix products, ``6 n^3`` floating-point operations. Baselines in the same run: NumPy doing
   the same three products by hand, and PyTorch (CPU, and CUDA where it has a GPU);
2. on a GPU, the copy of one ``n x n`` float32 matrix host -> device and device -> host, next to
   the matmul it would feed (the cost of moving data);
3. an MLP training step (784 -> 1024 -> 1024 -> 10, batch 4096, ReLU, cross-entropy, SGD);
4. the digits CNN (Conv2d-ReLU-MaxPool x 2, Linear; 8x8 images) forward + backward, batch 512.

Every figure is the median of a few timed runs after one warm-up call, stored with its spread
(the fastest and slowest run); GPU timings synchronize before reading the clock (GPUs run
asynchronously). The JSON also records the machine, the BLAS
thread count and the load average, because a busy machine gives slower, noisier CPU figures.
Nothing here is asserted: timings are not tests.
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


def _early_threads() -> str | None:
    """``--threads N`` must reach the BLAS libraries before NumPy is imported."""
    for i, arg in enumerate(sys.argv):
        value = arg.split("=", 1)[1] if arg.startswith("--threads=") else (
            sys.argv[i + 1] if arg == "--threads" and i + 1 < len(sys.argv) else None)
        if value is not None:
            for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ[name] = value
            return value
    return None


_early_threads()

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitorch  # noqa: E402

CPU_MAX_N = 4096  # larger CPU matmuls take minutes


def timeit(fn, sync, repeat=5) -> list[float]:
    """The seconds of each of ``repeat`` timed runs of ``fn()``, after one warm-up run."""
    fn()
    sync()
    times = []
    for _ in range(repeat):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return times


def _tensor(lib, array, device, requires_grad=False):
    return lib.tensor(array, device=device, requires_grad=requires_grad)


# ---------------------------------------------------------------- 1. matmul forward + backward
def matmul_case(lib, n, device):
    rng = np.random.default_rng(0)
    a = _tensor(lib, rng.standard_normal((n, n), dtype=np.float32), device, True)
    b = _tensor(lib, rng.standard_normal((n, n), dtype=np.float32), device, True)

    def run():
        a.grad = b.grad = None
        (a @ b).sum().backward()

    return run


def matmul_numpy(n):
    """The same three products by hand: C = A @ B, dA = G @ B.T, dB = A.T @ G (G all ones)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)

    def run():
        c = a @ b
        g = np.ones_like(c)
        return c.sum(), g @ b.T, a.T @ g

    return run


# ---------------------------------------------------------------- 2. host <-> device copies
def transfer_cases(n):
    """(host -> device, device -> host) copy functions for one n x n float32 matrix."""
    host = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    on_gpu = minitorch.tensor(host).to("cuda")
    return (lambda: minitorch.tensor(host).to("cuda")), (lambda: on_gpu.cpu())


# ---------------------------------------------------------------- 3. MLP step
def mlp_case(lib, device, batch=4096):
    rng = np.random.default_rng(0)
    sizes = [784, 1024, 1024, 10]
    ws = [_tensor(lib, (rng.standard_normal((i, o)) / np.sqrt(i)).astype(np.float32), device,
                  True) for i, o in zip(sizes, sizes[1:])]
    x = _tensor(lib, rng.standard_normal((batch, 784), dtype=np.float32), device)
    onehot = _tensor(lib, np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)], device)

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


# ---------------------------------------------------------------- 4. digits CNN
def cnn_case(lib, device, batch=512):
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(32 * 2 * 2, 10)).to(device)
    rng = np.random.default_rng(0)
    x = _tensor(lib, rng.standard_normal((batch, 1, 8, 8), dtype=np.float32), device)
    y = _tensor(lib, rng.integers(0, 10, batch), device)
    loss_fn = nn.CrossEntropyLoss()

    def run():
        model.zero_grad()
        loss_fn(model(x), y).backward()

    return run


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _load() -> list[float] | None:
    try:
        return [round(v, 2) for v in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--sizes", type=int, nargs="*", help="matmul sizes n")
    parser.add_argument("--note", default="", help="a remark stored with the results")
    parser.add_argument("--threads", type=int, help="CPU threads for BLAS and PyTorch (default: "
                        "the libraries' own choice, usually one per core)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (the "
                        "median is kept, with the fastest and slowest as its spread)")
    args = parser.parse_args()
    gpu = minitorch.cuda.is_available()
    try:
        import torch
        torch_cuda = torch.cuda.is_available()
        if args.threads:
            torch.set_num_threads(args.threads)
    except ImportError:
        torch, torch_cuda = None, False
    sizes = args.sizes or ([256, 512, 1024, 2048, 4096, 8192] if gpu
                           else [64, 128, 256, 512, 1024, 2048])

    def no_sync():
        pass

    runs = [("minitorch cpu", minitorch, "cpu", no_sync)]
    if torch is not None:
        runs.append(("torch cpu", torch, "cpu", no_sync))
    if gpu:
        runs.append(("minitorch cuda", minitorch, "cuda", minitorch.cuda.synchronize))
    if torch_cuda:
        runs.append(("torch cuda", torch, "cuda", torch.cuda.synchronize))
    labels = [r[0] for r in runs] + ["numpy cpu"]

    results = {
        "date": datetime.date.today().isoformat(),
        "machine": platform.node(),
        "cpu": _cpu_name(),
        "cpu_cores": os.cpu_count(),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "default"),
        "repeat": args.repeat,
        "torch_threads": torch.get_num_threads() if torch is not None else None,
        "versions": {"python": platform.python_version(), "numpy": np.__version__,
                     "torch": getattr(torch, "__version__", None)},
        "gpu": minitorch.cuda.get_device_name() if gpu else None,
        "why_no_gpu": None if gpu else minitorch.cuda.unavailable_reason(),
        "load_average_before": _load(),
        "note": args.note,
        "units": "seconds, median of the timed runs after a warm-up (spread: [fastest, slowest]);"
                 " matmul = (A @ B).sum().backward()",
        "matmul": {}, "transfer": {}, "mlp": {}, "cnn": {},
        "spread": {"matmul": {}, "transfer": {}, "mlp": {}, "cnn": {}},
    }
    if gpu:
        import cupy

        results["versions"]["cupy"] = cupy.__version__
    print(f"# minitorch GPU benchmarks, {results['date']}, {results['cpu']} "
          f"({results['cpu_cores']} cores), "
          f"GPU: {results['gpu'] or 'none (' + str(results['why_no_gpu']) + ')'}")
    print(f"load average before: {results['load_average_before']}")

    def record(where, label, sync, repeat, make, *args):
        """Time the function ``make(*args)`` returns; store the median at ``where[label]``, with
        the spread at the same place under ``"spread"``. A failure is printed and stored as
        text, not raised: the other figures still count."""
        place, spread = results, results["spread"]
        for key in where:
            place, spread = place.setdefault(key, {}), spread.setdefault(key, {})
        try:
            times = timeit(make(*args), sync, repeat)
        except Exception as e:  # report, don't hide
            place[label] = f"failed: {type(e).__name__}: {e}"
            print(f"- {label}, {' '.join(where)}: {place[label]}")
            return
        place[label] = statistics.median(times)
        spread[label] = [min(times), max(times)]

    def cell(row, k, digits=4):
        return f"{row[k]:.{digits}f}" if isinstance(row.get(k), float) else "—"

    print("\n## matmul forward + backward (seconds, median of repeats)\n")
    print("| n | " + " | ".join(labels) + " | minitorch cpu / numpy |")
    print("|---|" + "---|" * (len(labels) + 1))
    for n in sizes:
        key = str(n)
        for label, lib, dev, sync in runs:
            if dev == "cpu" and n > CPU_MAX_N:
                continue  # minutes on a CPU
            record(("matmul", key), label, sync, args.repeat, matmul_case, lib, n, dev)
        if n <= CPU_MAX_N:
            record(("matmul", key), "numpy cpu", no_sync, args.repeat, matmul_numpy, n)
        row = results["matmul"][key]
        ratio = (f"{row['minitorch cpu'] / row['numpy cpu']:.2f}"
                 if cell(row, "minitorch cpu") != "—" and cell(row, "numpy cpu") != "—" else "—")
        print(f"| {n} | " + " | ".join(cell(row, k) for k in labels) + f" | {ratio} |")

    if gpu:
        print("\n## one n x n float32 matrix: copies vs the matmul it feeds (seconds, median)\n")
        print("| n | host -> device | device -> host | minitorch cuda matmul fwd+bwd |")
        print("|---|---|---|---|")
        sync = minitorch.cuda.synchronize
        for n in sizes:
            key = str(n)
            for i, label in enumerate(("host_to_device", "device_to_host")):
                record(("transfer", key), label, sync, args.repeat,
                       lambda n, i: transfer_cases(n)[i], n, i)
            row = results["transfer"][key]
            row["bytes"] = 4 * n * n
            print(f"| {n} | {cell(row, 'host_to_device', 5)} | {cell(row, 'device_to_host', 5)}"
                  f" | {cell(results['matmul'][key], 'minitorch cuda', 5)} |")
    else:
        print("\n(no GPU: host <-> device copies not measured)")

    for name, case in (("mlp", mlp_case), ("cnn", cnn_case)):
        print(f"\n## {name} step (seconds, median of repeats [fastest, slowest])\n")
        for label, lib, dev, sync in runs:
            record((name,), label, sync, max(3, args.repeat // 2), case, lib, dev)
            t = results[name][label]
            if isinstance(t, float):
                lo, hi = results["spread"][name][label]
                print(f"- {label}: {t:.4f} [{lo:.4f}, {hi:.4f}]")
    results["load_average_after"] = _load()
    print(f"\nload average after: {results['load_average_after']}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()

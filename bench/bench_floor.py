"""How much of an MLP training step is NumPy's arithmetic, and how much is left for autograd.

Run: ``python bench/bench_floor.py`` (``--rounds N``, ``--runs N`` for separate processes, medians
and ranges; ``--json PATH``).

For the four MLP steps of ``bench_overhead.py`` (modules with ``optim.SGD``, and raw tensors
with ``F.cross_entropy`` and a manual update, at batch 16 and 128) it times, in interleaved
rounds in one process (CPU time, medians over the rounds):

* PyTorch's step on one thread, and minitorch's;
* **the graph's arithmetic in NumPy**: every array operation that PyTorch's graph of the step
  does, forward, backward and update, one NumPy call each, in the same order, with no
  bookkeeping at all (no nodes, no gradient buffers, no checks). minitorch computes on NumPy,
  so no minitorch step can be quicker than this; it is the floor.

It also counts what minitorch does per step: ``Function.apply`` calls (forward, the
gradient formulas, the update) and the nodes the engine runs. Then, for each step and its
target ratio (issue 25), it prints the time the target leaves for everything that is not the
floor's arithmetic, shared by those operations, next to what minitorch spends on them now and
what PyTorch's own step spends beyond the same floor (its C++ dispatch, its autograd engine,
and its kernels' difference from NumPy's). Nothing is asserted: timings are not tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench_steps import mlp_data, mlp_lib, mlp_raw_lib  # noqa: E402  (bench/ is sys.path[0])

import minitorch  # noqa: E402
from minitorch.autograd import engine, function  # noqa: E402

# The targets of issue 25: minitorch's step at most this many times PyTorch's.
TARGETS = {"mlp16": 1.0, "mlp128": 0.9, "mlp16_raw": 1.2, "mlp128_raw": 1.2}


def _log_softmax(z):
    m = z.max(1, keepdims=True)
    shifted = z - m
    return shifted - np.log(np.exp(shifted).sum(1, keepdims=True))


def _cross_entropy(z, y, rows, batch):
    """Forward and backward of ``F.cross_entropy`` as PyTorch's graph does them: log_softmax,
    nll_loss (its target check, the pick, the mean), then NllLossBackward (zeros with the
    gradient at the targets) and LogSoftmaxBackward (``g - exp(out) * sum(g)``)."""
    logp = _log_softmax(z)
    in_range = y.view(np.uint64).max() < z.shape[1]  # every target a class
    loss = -logp[rows, y].sum() / batch
    g = np.zeros_like(logp)
    g[rows, y] = np.float32(-1.0) / batch
    return in_range, loss, g - np.exp(logp) * g.sum(1, keepdims=True)


def floor_module(batch: int, hidden: int):
    """``nn.Sequential(Linear, ReLU, Linear)``, ``CrossEntropyLoss``, ``SGD.step``: Linear is
    ``addmm(b, x, W.t())``; its backward gives ``g.sum(0)`` and ``(x.t() @ g).t()``; the step
    is ``p.add_(grad, alpha=-lr)`` and ``zero_grad`` sets the gradients to None."""
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    w1 = rng.uniform(-1 / 8, 1 / 8, (hidden, 64)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.uniform(-1, 1, (10, hidden)).astype(np.float32) / math.sqrt(hidden)
    b2 = np.zeros(10, np.float32)
    params, rows, lr = (w1, b1, w2, b2), np.arange(batch), np.float32(-0.1)

    def step():
        h = np.matmul(x, w1.T) + b1  # addmm
        a = np.maximum(h, 0)  # relu
        z = np.matmul(a, w2.T) + b2
        _, _, gz = _cross_entropy(z, y, rows, batch)
        gb2, gw2 = gz.sum(0), np.matmul(a.T, gz).T  # AddmmBackward, TBackward
        ga = np.matmul(gz, w2)
        gh = np.where(a > 0, ga, 0)  # ReluBackward (threshold_backward)
        gb1, gw1 = gh.sum(0), np.matmul(x.T, gh).T
        for p, g in zip(params, (gw1, gb1, gw2, gb2)):
            p += np.multiply(g, lr)  # SGD: p.add_(g, alpha=-lr)

    return step


def floor_raw(batch: int, hidden: int):
    """Raw tensors: ``F.cross_entropy(F.relu(x @ w1 + b1) @ w2 + b2, y)``, backward, then under
    ``no_grad`` ``p -= p.grad * lr`` and ``p.grad.zero_()`` for each parameter."""
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, hidden)).astype(np.float32) / 8
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal((hidden, 10)) / math.sqrt(hidden)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    params, rows, lr = (w1, b1, w2, b2), np.arange(batch), np.float32(0.1)
    grads = [np.zeros_like(p) for p in params]

    def step():
        h = np.matmul(x, w1) + b1  # MmBackward, AddBackward
        a = np.maximum(h, 0)
        z = np.matmul(a, w2) + b2
        _, _, gz = _cross_entropy(z, y, rows, batch)
        gb2 = gz.sum(0)  # AddBackward: summed to b2's shape
        gw2, ga = np.matmul(a.T, gz), np.matmul(gz, w2.T)  # MmBackward
        gh = np.where(a > 0, ga, 0)
        gb1, gw1 = gh.sum(0), np.matmul(x.T, gh)
        for acc, g in zip(grads, (gw1, gb1, gw2, gb2)):
            acc += g  # AccumulateGrad into the zeroed .grad
        for p, g in zip(params, grads):
            p -= np.multiply(g, lr)
            g.fill(0)

    return step


def count_operations(step) -> tuple[int, int]:
    """(``Function.apply`` calls, nodes run by the engine) in one minitorch step."""
    apply_code = function.Function.apply.__func__.__code__
    node_code = engine._call_node.__code__
    counts = {apply_code: 0, node_code: 0}

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in counts:
            counts[frame.f_code] += 1

    step()  # warm
    sys.setprofile(profile)
    try:
        step()
    finally:
        sys.setprofile(None)
    return counts[apply_code], counts[node_code]


def cpu_time(run, number: int) -> float:
    c0 = time.process_time()
    for _ in range(number):
        run()
    return (time.process_time() - c0) / number


def measure(runs: dict, rounds: int, target: float) -> dict:
    """Median CPU seconds per call of each run, over interleaved rounds (rotating order)."""
    for run in runs.values():
        run()
        run()
    t0 = time.process_time()
    runs["minitorch"]()
    number = max(1, int(target / max(time.process_time() - t0, 1e-6)))
    samples: dict = {name: [] for name in runs}
    names = list(runs)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            samples[name].append(cpu_time(runs[name], number))
    return {name: statistics.median(s) for name, s in samples.items()}


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def measure_all(rounds: int, target: float, torch) -> dict:
    """Every step's medians (seconds) and operation counts, in this process."""
    steps = {"mlp16": (mlp_lib, floor_module, 16, 32), "mlp128": (mlp_lib, floor_module, 128, 128),
             "mlp16_raw": (mlp_raw_lib, floor_raw, 16, 32),
             "mlp128_raw": (mlp_raw_lib, floor_raw, 128, 128)}
    results = {}
    for name, (make, make_floor, batch, hidden) in steps.items():
        runs = {"minitorch": make(minitorch, batch, hidden), "floor": make_floor(batch, hidden)}
        if torch is not None:
            runs["torch"] = make(torch, batch, hidden)
        results[name] = measure(runs, rounds, target)
        results[name]["applies"], results[name]["nodes"] = count_operations(runs["minitorch"])
        print(f"  measured {name}", file=sys.stderr)
    return results


def run_separately(args) -> list[dict]:
    """This benchmark ``args.runs`` times, each in a fresh process: their figures."""
    import subprocess
    import tempfile

    runs = []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            subprocess.run([sys.executable, os.path.abspath(__file__), "--rounds",
                            str(args.rounds), "--target", str(args.target), "--json", path],
                           check=True, stdout=subprocess.DEVNULL)
            with open(path) as fh:
                runs.append(json.load(fh))
        print(f"run {i + 1} of {args.runs} done", file=sys.stderr)
    return runs


def print_table(runs: list[dict], rounds: int, torch_version: str | None) -> None:
    """One row per step: medians over the runs (and the range of minitorch's time beyond the
    floor, from the lowest run to the highest, where there are several)."""
    print(f"# The NumPy floor of an MLP step ({platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, NumPy {np.__version__}"
          + (f", PyTorch {torch_version} with 1 thread" if torch_version else "")
          + f"; CPU time, medians of {rounds} interleaved rounds"
          + (f", then the median of {len(runs)} separate runs" if len(runs) > 1 else "") + ")")
    print()
    print("| step | PyTorch | minitorch | NumPy floor | target | what the target leaves "
          "beyond the floor | minitorch beyond the floor | PyTorch beyond the floor "
          "| minitorch operations (apply calls + nodes) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in runs[0]:
        def med(key, name=name):
            return statistics.median(run[name][key] for run in runs)
        ops = runs[0][name]["applies"] + runs[0][name]["nodes"]
        beyond = [run[name]["minitorch"] - run[name]["floor"] for run in runs]
        mine = statistics.median(beyond)
        spread = f", {us(min(beyond))}–{us(max(beyond))}" if len(runs) > 1 else ""
        floor = med("floor")
        if torch_version is None:
            pytorch = target = allowed = theirs = "n/a"
        else:
            limit = TARGETS[name] * med("torch")
            pytorch, target = us(med("torch")), f"{TARGETS[name]}×, {us(limit)}"
            allowed = f"{us(limit - floor)} ({(limit - floor) / ops * 1e6:.2f} µs each)"
            theirs = us(statistics.median(run[name]["torch"] - run[name]["floor"]
                                          for run in runs))
        print(f"| {name} | {pytorch} | {us(med('minitorch'))} | {us(floor)} | {target} "
              f"| {allowed} | {us(mine)} ({mine / ops * 1e6:.2f} µs each{spread}) | {theirs} "
              f"| {ops} ({runs[0][name]['applies']} + {runs[0][name]['nodes']}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds per step")
    parser.add_argument("--target", type=float, default=0.05, help="seconds per timed batch")
    parser.add_argument("--runs", type=int, default=1,
                        help="separate processes to run it in; >1 prints medians and ranges")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:  # the floor and minitorch are still timed
        torch = None
    if args.runs > 1:
        runs = run_separately(args)
    else:
        minitorch.set_num_threads(1)
        if torch is not None:
            torch.set_num_threads(1)
        runs = [measure_all(args.rounds, args.target, torch)]
    print_table(runs, args.rounds, torch.__version__ if torch is not None else None)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(runs[0] if args.runs == 1 else runs, fh, indent=2)


if __name__ == "__main__":
    main()

"""What keeping each step's loss tensor costs: the raw-tensor MLP step with its graph dropped,
and with every loss kept in a list (``losses.append(loss)``, the slip that chapter 06's section
4.3 shows), minitorch against PyTorch (one thread).

Run: ``python bench/bench_kept_graphs.py`` (``--runs N``, ``--steps N``, ``--json PATH``).

A kept loss keeps its graph: its nodes and their edges stay alive after ``backward()`` (which
frees only the saved tensors). In PyTorch those live in C++; in minitorch they are Python
objects, about 22 a step, and Python's garbage collector walks every one of them at each
full collection, which it runs whenever the objects that survived have grown by a quarter.
So the cost rises with the number of steps kept, then levels off (about 1.45x the step's own
time from 20,000 to 80,000 steps on the machine of ``bench/results/kept_graphs_*.md``), and
the figure depends on ``--steps``. Each library runs in its own fresh process (a learner's
kernel imports one of them, and what is already in memory sets how often the collector
runs), ``--runs`` times, one after the other; the table gives the medians of the CPU time
per step and the range of the ratios over the runs. Nothing is asserted: timings are not
tests.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def measure(library: str, steps: int) -> dict:
    """In this process: CPU seconds per step with each loss dropped, then with each kept."""
    import importlib

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_steps import mlp_raw_lib  # imports no library: this process loads only one

    lib = importlib.import_module(library)
    lib.set_num_threads(1)
    step = mlp_raw_lib(lib, 16, 32)
    for _ in range(200):  # warm up
        step()
    gc.collect()
    start = time.process_time()
    for _ in range(steps):
        step()
    dropped = (time.process_time() - start) / steps
    kept = []
    gc.collect()
    full_before = gc.get_stats()[2]["collections"]
    start = time.process_time()
    for _ in range(steps):
        kept.append(step())
    kept_time = (time.process_time() - start) / steps
    full = gc.get_stats()[2]["collections"] - full_before
    return {"dropped": dropped, "kept": kept_time, "full_collections": full,
            "tracked_objects": len(gc.get_objects())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="separate runs of each library")
    parser.add_argument("--steps", type=int, default=20_000, help="steps timed each way")
    parser.add_argument("--json", help="write every run's figures to this file")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: measure one library here
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.steps)))
        return
    libraries = ["minitorch"]
    try:
        import torch  # noqa: F401  (only to know whether to time it)
        libraries.append("torch")
    except ImportError:
        print("PyTorch is not installed: minitorch only", file=sys.stderr)
    runs = []
    for i in range(args.runs):
        run = {}
        for library in libraries:
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", library,
                                  "--steps", str(args.steps)],
                                 check=True, capture_output=True, text=True).stdout
            run[library] = json.loads(out.splitlines()[-1])
        runs.append(run)
        print(f"run {i + 1} of {args.runs} done", file=sys.stderr)
    print(f"# kept graphs: raw-tensor MLP step (batch 16, hidden 32), {args.steps:,} steps "
          f"each way ({platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; medians of {args.runs} separate runs, CPU time, and "
          "the range of the ratios)")
    print()
    print("| library | loss dropped | every loss kept | kept / dropped | full collections |")
    print("|---|---|---|---|---|")
    for library in libraries:
        figures = [run[library] for run in runs]
        ratios = [f["kept"] / f["dropped"] for f in figures]
        print(f"| {library} | {statistics.median(f['dropped'] for f in figures) * 1e6:.0f} µs "
              f"| {statistics.median(f['kept'] for f in figures) * 1e6:.0f} µs "
              f"| **{statistics.median(ratios):.2f}×** ({min(ratios):.2f}–{max(ratios):.2f}×) "
              f"| {statistics.median(f['full_collections'] for f in figures):.0f} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(runs, fh, indent=2)


if __name__ == "__main__":
    main()

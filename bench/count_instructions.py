"""Instructions per step of the ``bench_overhead.py`` workloads, counted by callgrind.

Run: ``python bench/count_instructions.py`` (``--only NAME,...``, ``--steps N``,
``--lib minitorch|torch|numpy``, ``--json PATH``). It needs ``valgrind`` on the PATH.

Wall time on a shared machine drifts by tens of percent from one run to the next; the number of
instructions a step executes moves by about 1% (three counts of one batch-16 MLP step, on the
same code, gave 1,433k to 1,446k). So this is the figure to steer by while changing the code,
and ``bench_overhead.py`` the one to report; a change smaller than that spread is measured on
the function it touches. Each workload runs in its own ``valgrind --tool=callgrind`` process:
the step is built and warmed up uncounted, then ``--steps`` steps run inside one
``operator.call(...)``, and callgrind counts only inside that call
(``--toggle-collect=_operator_call``), so start-up and imports are left out.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def _steps(run, setup, n: int) -> None:
    for _ in range(n):
        if setup is not None:
            setup()
        run()


def child(name: str, lib: str, steps: int) -> None:
    """Inside valgrind: build one workload, warm it up, run ``steps`` steps in the counted call."""
    sys.path.insert(0, HERE)
    if lib != "torch":
        sys.modules["torch"] = None  # bench_overhead then skips PyTorch: a much faster start
    import bench_overhead

    torch = None
    if lib == "torch":
        import torch
    label, libs = bench_overhead.cases(torch)[name]
    run, setup = libs[lib]
    _steps(run, setup, 3)  # warm up (caches, first-call paths)
    operator.call(_steps, run, setup, steps)


def count(name: str, lib: str, steps: int) -> float:
    """Instructions per step of workload ``name`` (setup included where it has one)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--toggle-collect=_operator_call", sys.executable, __file__, "--child", name,
               "--lib", lib, "--steps", str(steps)]
        subprocess.run(cmd, check=True, capture_output=True)
        with open(out) as fh:
            totals = re.search(r"^(?:summary|totals): (\d+)", fh.read(), re.M)
    return int(totals.group(1)) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="chain,mlp16,mlp128,mlp16_raw,mlp128_raw",
                        help="comma-separated workload names of bench_overhead.py")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--lib", default="minitorch", choices=["minitorch", "torch", "numpy"])
    parser.add_argument("--json", help="write {workload: instructions per step} here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.lib, args.steps)
        return
    figures = {}
    for name in args.only.split(","):
        figures[name] = count(name, args.lib, args.steps)
        print(f"{name:14s} {figures[name] / 1e3:12,.1f}k instructions per step ({args.lib})",
              flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(figures, fh, indent=2)


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    main()

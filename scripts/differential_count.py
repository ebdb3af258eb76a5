"""Count how minitorch differs from PyTorch on the OpInfo samples of ``tests/_opinfo_samples.py``.

    PYTHONPATH=$PWD python scripts/differential_count.py [--list SILENT] [--op fn:sum]

Prints the number of samples in each verdict (agree, same exception class, SILENT difference,
different exception class, accepted where PyTorch raises, raises where PyTorch works), then the
non-agreeing ones grouped by cause (the op and what differed).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import torch  # noqa: E402
from _opinfo_samples import AGREE, SAME_EXC, all_samples, compare, known_difference, run  # noqa: E402

import minitorch  # noqa: E402


def _cause(op: str, detail: str) -> str:
    detail = re.sub(r"\d+(\.\d+)?", "N", detail)[:90]
    return f"{op}: {detail}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", default="", help="print every sample with this verdict")
    ap.add_argument("--op", default=None, help="only the ops whose key contains this")
    ap.add_argument("--documented", action="store_true",
                    help="count the differences listed in KNOWN_DIFFERENCES apart")
    ap.add_argument("--causes", type=int, default=400, help="how many causes to print")
    args = ap.parse_args()
    samples = [s for s in all_samples() if args.op is None or args.op in s.op]
    start = time.perf_counter()
    counts = collections.Counter()
    causes = collections.defaultdict(collections.Counter)
    for s in samples:
        verdict, detail = compare(run(minitorch, s), run(torch, s), s)
        if args.documented and known_difference(s.id, verdict):
            verdict = f"documented ({verdict})"
        counts[verdict] += 1
        if verdict not in (AGREE, SAME_EXC) and not verdict.startswith("documented"):
            causes[verdict][_cause(s.op.split(":")[-1], detail)] += 1
        if args.list and verdict == args.list:
            print(f"{verdict:28s} {s.id:50s} {detail}")
    took = time.perf_counter() - start
    print(f"\n{len(samples)} samples in {took:.1f} s")
    for v, n in counts.most_common():
        print(f"  {v:30s} {n}")
    for v, c in causes.items():
        print(f"\n{v} by cause ({sum(c.values())}):")
        for cause, n in c.most_common(args.causes):
            print(f"  {n:4d}  {cause}")


if __name__ == "__main__":
    main()

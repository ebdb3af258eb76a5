"""Count how minitorch differs from PyTorch on the OpInfo samples of ``tests/_opinfo_samples.py``.

    PYTHONPATH=$PWD python scripts/differential_count.py [--list SILENT] [--op fn:sum]

Prints the number of samples in each verdict (agree, same exception class, same class with a
different message, SILENT difference, different exception class, accepted where PyTorch raises,
raises where PyTorch works). Differences listed in ``KNOWN_DIFFERENCES`` (deliberate, with a
reason) and in ``NOT_YET_FIXED`` (found, not fixed yet) are counted apart from the undocumented
ones, and every remaining difference is printed grouped by cause (the op and what differed).
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import os
import re
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import torch
from _opinfo_samples import (
    AGREE,
    GRAD_GRAPH,
    KNOWN_DIFFERENCES,
    NOT_YET_FIXED,
    SAME_EXC,
    all_samples,
    compare,
    known_difference,
    run,
)
from _opinfo_samples_gradgraph import GRAD_GRAPHS_KEPT_DIFFERENT

import minitorch


def _cause(op: str, detail: str) -> str:
    detail = re.sub(r"\d+(\.\d+)?", "N", detail)[:90]
    return f"{op}: {detail}"


def _listed(table: list, sample_id: str, verdict: str) -> tuple | None:
    """The ``(pattern, verdict, reason)`` entry of ``table`` that lists this difference."""
    for entry in table:
        pattern, v, _ = entry
        literal = "".join("[[]" if c == "[" else "[]]" if c == "]" else c for c in pattern)
        if v == verdict and fnmatch.fnmatchcase(sample_id, literal):
            return entry
    return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--list", default="", help="print every sample with this verdict")
    ap.add_argument("--op", default=None, help="only the ops whose key contains this")
    ap.add_argument("--causes", type=int, default=400, help="how many causes to print")
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # NumPy's warnings about inf and NaN samples
    samples = [s for s in all_samples() if args.op is None or args.op in s.op]
    start = time.perf_counter()
    counts = collections.Counter()  # every sample, by verdict
    kinds = collections.defaultdict(collections.Counter)  # verdict -> deliberate/not-yet/...
    causes = collections.defaultdict(collections.Counter)
    documented = {"deliberate": collections.Counter(), "not yet fixed": collections.Counter()}
    for s in samples:
        verdict, detail = compare(run(minitorch, s), run(torch, s), s)
        counts[verdict] += 1
        if verdict in (AGREE, SAME_EXC):
            continue
        known, todo = _listed(KNOWN_DIFFERENCES, s.id, verdict), _listed(NOT_YET_FIXED, s.id,
                                                                          verdict)
        if known:
            kinds[verdict]["deliberate (KNOWN_DIFFERENCES)"] += 1
            documented["deliberate"][known] += 1
        elif todo:
            kinds[verdict]["not yet fixed (NOT_YET_FIXED)"] += 1
            documented["not yet fixed"][todo] += 1
        elif verdict == GRAD_GRAPH and known_difference(s.id, verdict):
            # the gradients' graphs not torch's: one line per op in _opinfo_samples_gradgraph
            kept = s.op in GRAD_GRAPHS_KEPT_DIFFERENT
            kinds[verdict]["kept on purpose (_opinfo_samples_gradgraph)" if kept
                           else "not yet fixed (_opinfo_samples_gradgraph)"] += 1
        else:
            kinds[verdict]["undocumented"] += 1
            causes[verdict][_cause(s.op.split(":", 1)[-1], detail)] += 1
        if args.list and verdict == args.list:
            print(f"{verdict:30s} {s.id:50s} {detail}")
    took = time.perf_counter() - start
    print(f"\n{len(samples)} samples in {took:.1f} s")
    for v, n in counts.most_common():
        split = ", ".join(f"{k}: {m}" for k, m in sorted(kinds[v].items()))
        print(f"  {v:32s} {n:6d}" + (f"   ({split})" if split else ""))
    for name, entries in documented.items():
        print(f"\n{name}: {sum(entries.values())} samples")
        for (pattern, verdict, reason), n in entries.items():
            print(f"  {n:4d}  {verdict:30s} {pattern}\n        {reason}")
    for v, c in causes.items():
        print(f"\nundocumented {v} by cause ({sum(c.values())}):")
        for cause, n in c.most_common(args.causes):
            print(f"  {n:4d}  {cause}")


if __name__ == "__main__":
    main()

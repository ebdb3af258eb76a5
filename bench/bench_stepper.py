"""How long the backward stepper and the graph-walking checks take on big graphs.

Run: ``python bench/bench_stepper.py`` (``--sizes 1000 5000 20000`` by default).

For a chain of N multiplications (N + 1 graph nodes and an ``AccumulateGrad``), it times:

* ``step_backward(loss)``: recording the backward pass and preparing every frame's data
  (the widget is "ready to step through"), then building one frame's DOT text;
* ``record_forward_graph``: recording the forward pass and building its last frame;
* ``check_find_leaves`` and ``check_topological_sort`` with a correct solution, whose
  deep cases grow with nothing but these fixed sizes (shown for reference).

It also prints the ratio to the 1k time, so linear growth reads as ratios near 5 and 20.
The reference is ``loss.backward()`` on the same graph, timed in the same run. Timings
are wall-clock, best of three. Nothing here is asserted: timings are not tests.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minitorch
from minitorch.viz import record_forward_graph, step_backward


def chain(n: int):
    x = minitorch.tensor(1.0, requires_grad=True)
    h = x
    for _ in range(n):
        h = h * 1.0001
    return h, x


def best(fn, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000, 20000])
    args = parser.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    rows = []
    for n in args.sizes:
        loss, x = chain(n)

        def ready(loss=loss, x=x):
            stepper = step_backward(loss, params={"x": x})
            stepper.frame_source(stepper.last // 2)

        def backward(loss=loss):
            loss.backward(retain_graph=True)

        def forward(n=n):
            def run():
                loss, _ = chain(n)
                return loss

            rec = record_forward_graph(run)
            rec.frame_source(rec.last)

        t_ready, t_backward, t_forward = best(ready), best(backward), best(forward)
        rows.append((n, t_ready, t_backward, t_forward))

    base = rows[0]
    print(f"{'nodes':>7} {'step_backward ready':>20} {'ratio':>6} {'loss.backward':>14} "
          f"{'stepper/backward':>17} {'record_forward':>15} {'ratio':>6}")
    for n, t_ready, t_backward, t_forward in rows:
        print(f"{n:>7,} {t_ready:>19.3f}s {t_ready / base[1]:>6.1f} {t_backward:>13.4f}s "
              f"{t_ready / t_backward:>17.0f} {t_forward:>14.3f}s {t_forward / base[3]:>6.1f}")

    # The graph-walking checks, for reference (their deep cases have fixed sizes).
    from minitorch.exercises import check_topological_sort
    from minitorch.exercises.ch02_recording_the_dag import check_find_leaves

    def topo_sort(graph, root):
        order, seen, stack = [], {root}, [(root, iter(graph.get(root, [])))]
        while stack:
            node, parents = stack[-1]
            parent = next(parents, None)
            if parent is None:
                stack.pop()
                order.append(node)
            elif parent not in seen:
                seen.add(parent)
                stack.append((parent, iter(graph.get(parent, []))))
        return order[::-1]

    def find_leaves(t):
        if t.grad_fn is None:
            return [t] if t.requires_grad else []
        leaves, seen, stack = [], set(), [t.grad_fn]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            if hasattr(node, "variable"):
                leaves.append(node.variable)
            stack.extend(n for n, _ in node.next_functions if n is not None)
        return leaves

    with redirect_stdout(io.StringIO()):
        t_topo = best(lambda: check_topological_sort(topo_sort), 1)
        t_leaves = best(lambda: check_find_leaves(find_leaves), 1)
    print(f"check_topological_sort (5,000-deep case included): {t_topo:.3f}s")
    print(f"check_find_leaves (3,000-deep case included):      {t_leaves:.3f}s")


if __name__ == "__main__":
    main()

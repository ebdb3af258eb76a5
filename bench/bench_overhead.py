"""Per-op overhead: minitorch against PyTorch (1 thread) and NumPy by hand, in one process.

Run: ``python bench/bench_overhead.py`` (``--rounds N``, ``--only NAME,...``,
``--json PATH`` to save the figures, ``--no-import`` to skip the import timings).
``--runs N`` repeats the whole benchmark in N separate processes, one after the other, and
prints one table: for each figure the median over the runs and, for the ratios, their range
(lowest to highest run). That is the table in the README.

The workloads are the small ones that learners and tutorials run, where the time goes into
each operation's overhead rather than into arithmetic:

* ``chain``: forward + backward of a 1,000-op elementwise chain on a 16-element tensor;
* ``mlp16`` / ``mlp128``: one training step (``zero_grad``, forward, ``CrossEntropyLoss``,
  backward, ``SGD.step``) of a 64 -> hidden -> 10 MLP at (batch 16, hidden 32) and
  (batch 128, hidden 128);
* ``mlp16_raw`` / ``mlp128_raw``: the same step in the style of the "with examples"
  tutorials: raw tensors with ``requires_grad``, ``F.cross_entropy`` and a manual SGD update
  under ``no_grad`` (``p -= p.grad * lr; p.grad.zero_()``), at the same two sizes;
* ``mlp16_ce``: the same small MLP with a cross-entropy written by hand from log-sum-exp;
* ``poly_*``: our own equivalents of PyTorch's "Learning PyTorch with Examples" programs,
  one training step each, fitting a cubic to ``sin(x)`` at 2,000 points: with tensors and
  hand-written gradients, with autograd, with a custom ``autograd.Function``, with ``nn``
  (``Sequential`` + ``MSELoss``), with ``optim`` (RMSprop), with a custom ``nn.Module`` and
  with the dynamic net (a random number of layers per step, SGD with momentum);
* ``backward10k``: ``backward()`` alone through a graph of 10,000 nodes (built untimed);
* ``import``: ``import minitorch`` / ``import torch`` / ``import numpy`` in a fresh
  subprocess.

Every case runs for the three libraries in *interleaved rounds* (minitorch, PyTorch, NumPy,
then again, the order rotating), and each figure is the **median** over rounds of the time
per call, as wall-clock time and as this process's CPU time. The machine this runs on is
often shared; CPU time is the steadier figure for single-threaded code, wall time is what you
wait for. BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1``, ``minitorch.set_num_threads(1)``)
and so does PyTorch (``torch.set_num_threads(1)``). Nothing is asserted: timings are not tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import minitorch  # noqa: E402

try:
    import torch
except ImportError:  # the benchmark still runs, without the PyTorch column
    torch = None

minitorch.set_num_threads(1)
if torch is not None:
    torch.set_num_threads(1)

GRAPH = 10_000


# ---------------------------------------------------------------- op chain
# The same chain as bench_core.py's per-op overhead benchmark (one definition for both).
from bench_core import CHAIN, chain_lib, chain_numpy  # noqa: E402  (bench/ is sys.path[0])
from bench_steps import mlp_data, mlp_lib, mlp_raw_lib  # noqa: E402


# ---------------------------------------------------------------- MLP step
def mlp_numpy(batch: int, hidden: int):
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    w1 = rng.uniform(-1 / 8, 1 / 8, (hidden, 64)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    bound = 1 / math.sqrt(hidden)
    w2 = rng.uniform(-bound, bound, (10, hidden)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    rows = np.arange(batch)
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
        g /= batch  # d loss / d logits
        gw2, gb2 = g.T @ a, g.sum(0)
        ga = (g @ w2) * (h > 0)
        gw1, gb1 = ga.T @ x, ga.sum(0)
        for param, grad in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            param -= lr * grad

    return step


def mlp_raw_numpy(batch: int, hidden: int):
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((64, hidden)).astype(np.float32) / 8
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal((hidden, 10)) / math.sqrt(hidden)).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    rows = np.arange(batch)
    lr = np.float32(0.1)

    def step():
        h = x @ w1 + b1
        a = np.maximum(h, 0)
        z = a @ w2 + b2
        z = z - z.max(1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        g = p
        g[rows, y] -= 1
        g /= batch  # d loss / d logits
        gw2, gb2 = a.T @ g, g.sum(0)
        ga = (g @ w2.T) * (h > 0)
        gw1, gb1 = x.T @ ga, ga.sum(0)
        for param, grad in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            param -= grad * lr

    return step


def mlp_ce_lib(lib, batch: int, hidden: int):
    """The MLP step with the cross-entropy written out from log-sum-exp, plain tensors."""
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    params = [(rng.standard_normal((64, hidden)) * 0.1).astype(np.float32),
              np.zeros(hidden, np.float32),
              (rng.standard_normal((hidden, 10)) * 0.1).astype(np.float32),
              np.zeros(10, np.float32)]
    x = lib.tensor(x)
    onehot = lib.tensor(np.eye(10, dtype=np.float32)[y])
    ps = [lib.tensor(p, requires_grad=True) for p in params]

    def step():
        w1, b1, w2, b2 = ps
        h = (x @ w1 + b1).relu()
        logits = h @ w2 + b2
        m = logits.max(dim=1, keepdim=True).values
        lse = (logits - m).exp().sum(dim=1, keepdim=True).log() + m
        loss = -((logits - lse) * onehot).sum() / batch
        loss.backward()
        with lib.no_grad():
            for p in ps:
                p -= 0.01 * p.grad
                p.grad = None

    return step


def mlp_ce_numpy(batch: int, hidden: int):
    x, y = mlp_data(batch)
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((64, hidden)) * 0.1).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal((hidden, 10)) * 0.1).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    onehot = np.eye(10, dtype=np.float32)[y]
    lr = np.float32(0.01)

    def step():
        a = x @ w1 + b1
        h = np.maximum(a, 0)
        logits = h @ w2 + b2
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        loss = -((logits - (np.log(s) + m)) * onehot).sum() / batch
        g = (e / s - onehot) / batch
        gw2, gb2 = h.T @ g, g.sum(0)
        ga = (g @ w2.T) * (a > 0)
        gw1, gb1 = x.T @ ga, ga.sum(0)
        for param, grad in ((w1, gw1), (b1, gb1), (w2, gw2), (b2, gb2)):
            param -= lr * grad
        return loss

    return step


# ---------------------------------------------------------------- "Learning PyTorch with Examples"
def sine_data(lib):
    x = lib.linspace(-math.pi, math.pi, 2000)
    return x, lib.sin(x)


def poly_tensors_lib(lib):
    """Tensors only: the gradients are written by hand (the tutorial's first program)."""
    x, y = sine_data(lib)
    g = lib.Generator().manual_seed(0)
    a, b, c, d = (lib.randn((), generator=g) for _ in range(4))
    lr = 1e-6

    def step():
        nonlocal a, b, c, d
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum().item()  # noqa: F841  (the tutorial prints it)
        grad_y_pred = 2.0 * (y_pred - y)
        grad_a = grad_y_pred.sum()
        grad_b = (grad_y_pred * x).sum()
        grad_c = (grad_y_pred * x ** 2).sum()
        grad_d = (grad_y_pred * x ** 3).sum()
        a -= lr * grad_a
        b -= lr * grad_b
        c -= lr * grad_c
        d -= lr * grad_d

    return step


def poly_numpy():
    """The tutorial's NumPy program: the same maths for every poly_* case."""
    x = np.linspace(-math.pi, math.pi, 2000).astype(np.float32)
    y = np.sin(x)
    rng = np.random.default_rng(0)
    a, b, c, d = (np.float32(v) for v in rng.standard_normal(4))
    lr = np.float32(1e-6)

    def step():
        nonlocal a, b, c, d
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = np.square(y_pred - y).sum()  # noqa: F841
        grad_y_pred = 2.0 * (y_pred - y)
        grad_a = grad_y_pred.sum()
        grad_b = (grad_y_pred * x).sum()
        grad_c = (grad_y_pred * x ** 2).sum()
        grad_d = (grad_y_pred * x ** 3).sum()
        a -= lr * grad_a
        b -= lr * grad_b
        c -= lr * grad_c
        d -= lr * grad_d

    return step


def poly_autograd_lib(lib):
    x, y = sine_data(lib)
    g = lib.Generator().manual_seed(0)
    a, b, c, d = (lib.randn((), generator=g, requires_grad=True) for _ in range(4))
    lr = 1e-6

    def step():
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with lib.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None

    return step


def legendre_function(lib):
    class LegendrePolynomial3(lib.autograd.Function):
        @staticmethod
        def forward(ctx, input):  # noqa: A002  (the tutorial's name)
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors  # noqa: A001
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    return LegendrePolynomial3


def poly_function_lib(lib):
    x, y = sine_data(lib)
    a, b, c, d = (lib.full((), v, requires_grad=True) for v in (0.0, -1.0, 0.0, 0.3))
    p3 = legendre_function(lib).apply
    lr = 5e-6

    def step():
        y_pred = a + b * p3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with lib.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None

    return step


def poly_function_numpy():
    x = np.linspace(-math.pi, math.pi, 2000).astype(np.float32)
    y = np.sin(x)
    a, b, c, d = (np.float32(v) for v in (0.0, -1.0, 0.0, 0.3))
    lr = np.float32(5e-6)

    def step():
        nonlocal a, b, c, d
        u = c + d * x
        p3 = 0.5 * (5 * u ** 3 - 3 * u)
        y_pred = a + b * p3
        loss = np.square(y_pred - y).sum()  # noqa: F841
        g = 2.0 * (y_pred - y)
        gu = g * b * 1.5 * (5 * u ** 2 - 1)
        a, b, c, d = (a - lr * g.sum(), b - lr * (g * p3).sum(),
                      c - lr * gu.sum(), d - lr * (gu * x).sum())

    return step


def poly_nn_lib(lib):
    x, y = sine_data(lib)
    xx = x.unsqueeze(-1).pow(lib.tensor([1, 2, 3]))
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 1), lib.nn.Flatten(0, 1))
    loss_fn = lib.nn.MSELoss(reduction="sum")
    lr = 1e-6

    def step():
        y_pred = model(xx)
        loss = loss_fn(y_pred, y)
        model.zero_grad()
        loss.backward()
        with lib.no_grad():
            for param in model.parameters():
                param -= lr * param.grad

    return step


def poly_nn_numpy():
    x = np.linspace(-math.pi, math.pi, 2000).astype(np.float32)
    y = np.sin(x)
    xx = x[:, None] ** np.arange(1, 4)
    rng = np.random.default_rng(0)
    w = rng.uniform(-0.57, 0.57, (1, 3)).astype(np.float32)
    b = rng.uniform(-0.57, 0.57, 1).astype(np.float32)
    lr = np.float32(1e-6)

    def step():
        y_pred = (xx @ w.T + b).reshape(-1)
        loss = np.square(y_pred - y).sum()  # noqa: F841
        g = 2.0 * (y_pred - y)
        gw = g[None, :] @ xx
        gb = g.sum(keepdims=True)
        w[...] -= lr * gw
        b[...] -= lr * gb

    return step


def poly_optim_lib(lib):
    x, y = sine_data(lib)
    xx = x.unsqueeze(-1).pow(lib.tensor([1, 2, 3]))
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 1), lib.nn.Flatten(0, 1))
    loss_fn = lib.nn.MSELoss(reduction="sum")
    optimizer = lib.optim.RMSprop(model.parameters(), lr=1e-3)

    def step():
        y_pred = model(xx)
        loss = loss_fn(y_pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    return step


def poly_optim_numpy():
    x = np.linspace(-math.pi, math.pi, 2000).astype(np.float32)
    y = np.sin(x)
    xx = x[:, None] ** np.arange(1, 4)
    rng = np.random.default_rng(0)
    params = [rng.uniform(-0.57, 0.57, (1, 3)).astype(np.float32),
              rng.uniform(-0.57, 0.57, 1).astype(np.float32)]
    square_avg = [np.zeros_like(p) for p in params]
    lr, alpha, eps = np.float32(1e-3), np.float32(0.99), np.float32(1e-8)

    def step():
        w, b = params
        y_pred = (xx @ w.T + b).reshape(-1)
        loss = np.square(y_pred - y).sum()  # noqa: F841
        g = 2.0 * (y_pred - y)
        for p, s, gp in zip(params, square_avg, (g[None, :] @ xx, g.sum(keepdims=True))):
            s *= alpha
            s += (1 - alpha) * gp * gp
            p -= lr * gp / (np.sqrt(s) + eps)

    return step


def polynomial3_module(lib):
    class Polynomial3(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = lib.nn.Parameter(lib.randn(()))
            self.b = lib.nn.Parameter(lib.randn(()))
            self.c = lib.nn.Parameter(lib.randn(()))
            self.d = lib.nn.Parameter(lib.randn(()))

        def forward(self, x):
            return self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3

    return Polynomial3


def poly_module_lib(lib):
    x, y = sine_data(lib)
    lib.manual_seed(0)
    model = polynomial3_module(lib)()
    criterion = lib.nn.MSELoss(reduction="sum")
    optimizer = lib.optim.SGD(model.parameters(), lr=1e-6)

    def step():
        y_pred = model(x)
        loss = criterion(y_pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    return step


def dynamic_net(lib):
    class DynamicNet(lib.nn.Module):
        def __init__(self, rng):
            super().__init__()
            self.rng = rng
            self.a = lib.nn.Parameter(lib.randn(()))
            self.b = lib.nn.Parameter(lib.randn(()))
            self.c = lib.nn.Parameter(lib.randn(()))
            self.d = lib.nn.Parameter(lib.randn(()))
            self.e = lib.nn.Parameter(lib.randn(()))

        def forward(self, x):
            y = self.a + self.b * x + self.c * x ** 2 + self.d * x ** 3
            for exp in range(4, self.rng.randint(4, 6)):
                y = y + self.e * x ** exp
            return y

    return DynamicNet


def poly_dynamic_lib(lib):
    x, y = sine_data(lib)
    lib.manual_seed(0)
    model = dynamic_net(lib)(random.Random(0))  # the same "random" depths for every library
    criterion = lib.nn.MSELoss(reduction="sum")
    optimizer = lib.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)

    def step():
        y_pred = model(x)
        loss = criterion(y_pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    return step


def poly_dynamic_numpy():
    x = np.linspace(-math.pi, math.pi, 2000).astype(np.float32)
    y = np.sin(x)
    rng = random.Random(0)
    params = np.random.default_rng(0).standard_normal(5).astype(np.float32)
    velocity = np.zeros(5, np.float32)
    lr, momentum = np.float32(1e-8), np.float32(0.9)
    powers = [x ** k for k in range(6)]

    def step():
        a, b, c, d, e = params
        y_pred = a + b * x + c * x ** 2 + d * x ** 3
        top = rng.randint(4, 6)
        for exp in range(4, top):
            y_pred = y_pred + e * x ** exp
        loss = np.square(y_pred - y).sum()  # noqa: F841
        g = 2.0 * (y_pred - y)
        grads = np.array([(g * powers[k]).sum() for k in range(4)]
                         + [sum((g * powers[k]).sum() for k in range(4, top))], np.float32)
        velocity[...] = momentum * velocity + grads
        params[...] -= lr * velocity

    return step


# ---------------------------------------------------------------- backward through 10,000 nodes
def graph_lib(lib):
    x = lib.ones(16, requires_grad=True)
    holder = {}

    def setup():
        x.grad = None
        y = x
        for _ in range(GRAPH // 2):
            y = y * 1.0001
            y = y + 0.0001
        holder["loss"] = y.sum()

    def run():
        holder.pop("loss").backward()

    return run, setup


def graph_numpy():
    a = np.float32(1.0001)
    x = np.ones(16, dtype=np.float32)

    def run():
        g = np.ones_like(x)
        for _ in range(GRAPH // 2):  # one multiply per MulBackward; AddBackward passes through
            g = g * a
        return g

    return run, None


# ---------------------------------------------------------------- the cases
def cases(torch_mod) -> dict:
    """``{name: (label, {library: (run, setup)})}``; setup (untimed) may be None."""
    libs = {"minitorch": minitorch}
    if torch_mod is not None:
        libs["torch"] = torch_mod

    def each(make, numpy_make=None):
        out = {name: _with_setup(make(lib)) for name, lib in libs.items()}
        if numpy_make is not None:
            out["numpy"] = _with_setup(numpy_make())
        return out

    return {
        "chain": (f"{CHAIN}-op elementwise chain, fwd+bwd (16 elements)",
                  each(chain_lib, chain_numpy)),
        "mlp16": ("MLP step, batch 16, hidden 32",
                  each(lambda lib: mlp_lib(lib, 16, 32), lambda: mlp_numpy(16, 32))),
        "mlp128": ("MLP step, batch 128, hidden 128",
                   each(lambda lib: mlp_lib(lib, 128, 128), lambda: mlp_numpy(128, 128))),
        "mlp16_raw": ("MLP step, raw tensors + F.cross_entropy + manual SGD (16, 32)",
                      each(lambda lib: mlp_raw_lib(lib, 16, 32), lambda: mlp_raw_numpy(16, 32))),
        "mlp128_raw": ("MLP step, raw tensors + F.cross_entropy + manual SGD (128, 128)",
                       each(lambda lib: mlp_raw_lib(lib, 128, 128),
                            lambda: mlp_raw_numpy(128, 128))),
        "mlp16_ce": ("MLP step, hand-written cross-entropy (16, 32)",
                     each(lambda lib: mlp_ce_lib(lib, 16, 32), lambda: mlp_ce_numpy(16, 32))),
        "poly_tensors": ("Examples: polynomial, tensors", each(poly_tensors_lib, poly_numpy)),
        "poly_autograd": ("Examples: polynomial, autograd", each(poly_autograd_lib, poly_numpy)),
        "poly_function": ("Examples: custom autograd.Function",
                          each(poly_function_lib, poly_function_numpy)),
        "poly_nn": ("Examples: nn", each(poly_nn_lib, poly_nn_numpy)),
        "poly_optim": ("Examples: optim (RMSprop)", each(poly_optim_lib, poly_optim_numpy)),
        "poly_module": ("Examples: custom nn.Module", each(poly_module_lib, poly_numpy)),
        "poly_dynamic": ("Examples: dynamic net", each(poly_dynamic_lib, poly_dynamic_numpy)),
        "backward10k": (f"backward() through {GRAPH:,} nodes", each(graph_lib, graph_numpy)),
    }


def _with_setup(made):
    return made if isinstance(made, tuple) else (made, None)


# ---------------------------------------------------------------- timing
def calibrate(run, setup, target: float) -> int:
    """How many calls make one timed batch of about ``target`` seconds."""
    for _ in range(2):  # warm up
        if setup:
            setup()
        run()
    if setup:
        setup()
    t0 = time.perf_counter()
    run()
    once = time.perf_counter() - t0
    return max(1, min(2000, int(target / max(once, 1e-7))))


def time_batch(run, setup, number: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds) per call, over ``number`` calls."""
    if setup is None:
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(number):
            run()
        return (time.perf_counter() - w0) / number, (time.process_time() - c0) / number
    wall = cpu = 0.0
    for _ in range(number):
        setup()
        w0, c0 = time.perf_counter(), time.process_time()
        run()
        wall += time.perf_counter() - w0
        cpu += time.process_time() - c0
    return wall / number, cpu / number


def measure(libs: dict, rounds: int, target: float) -> dict:
    """``{library: (median wall, median CPU)}`` over interleaved rounds (rotating order)."""
    number = calibrate(*libs["minitorch"], target)
    for name, (run, setup) in libs.items():
        if name != "minitorch":
            calibrate(run, setup, target)  # warm up
    samples: dict = {name: ([], []) for name in libs}
    names = list(libs)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            wall, cpu = time_batch(*libs[name], number)
            samples[name][0].append(wall)
            samples[name][1].append(cpu)
    return {name: (statistics.median(w), statistics.median(c))
            for name, (w, c) in samples.items()}


IMPORT_SNIPPET = ("import time; w = time.perf_counter(); c = time.process_time(); import {mod}; "
                  "print(time.perf_counter() - w, time.process_time() - c)")


def measure_imports(rounds: int, with_torch: bool) -> dict:
    """Median (wall, CPU) seconds of ``import X`` in a fresh interpreter, interleaved."""
    mods = ["minitorch", "numpy"] + (["torch"] if with_torch else [])
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    samples: dict = {m: ([], []) for m in mods}
    for r in range(rounds):
        for m in mods[r % len(mods):] + mods[:r % len(mods)]:
            out = subprocess.run([sys.executable, "-c", IMPORT_SNIPPET.format(mod=m)],
                                 capture_output=True, text=True, env=env, check=True)
            wall, cpu = map(float, out.stdout.split())
            samples[m][0].append(wall)
            samples[m][1].append(cpu)
    return {m: (statistics.median(w), statistics.median(c)) for m, (w, c) in samples.items()}


# ---------------------------------------------------------------- report
def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds >= 1e-1:
        return f"{seconds * 1e3:.0f} ms"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def ratio(a: float, b: float | None) -> str:
    return "n/a" if not b else f"{a / b:.2f}×"


def run_separately(args) -> list[dict]:
    """Run this benchmark ``args.runs`` times, each in a fresh process; their JSON figures."""
    import tempfile

    runs = []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "run.json")
            command = [sys.executable, os.path.abspath(__file__), "--rounds", str(args.rounds),
                       "--target", str(args.target), "--import-rounds",
                       str(args.import_rounds), "--json", path]
            if args.only:
                command += ["--only", args.only]
            if args.no_import:
                command.append("--no-import")
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            with open(path) as fh:
                runs.append(json.load(fh))
        print(f"run {i + 1} of {args.runs} done", file=sys.stderr)
    return runs


def print_runs_table(runs: list[dict], args) -> None:
    """One row per workload: medians over the runs of the CPU times, and of the ratios with
    their range over the runs (each run's figures are medians of its interleaved rounds)."""
    def median_of(key, lib, i=1):
        values = [run[key][lib][i] for run in runs if lib in run[key]]
        return statistics.median(values) if values else None

    def ratios(key, lib, i):
        return [run[key]["minitorch"][i] / run[key][lib][i] for run in runs if lib in run[key]]

    print(f"# minitorch per-op overhead ({platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, NumPy {np.__version__}"
          + (f", PyTorch {torch.__version__} with 1 thread" if torch else "")
          + f"; {len(runs)} separate runs of {args.rounds} interleaved rounds each: medians "
          "over the runs, and the range of the ratios from the lowest run to the highest)")
    print()
    print("| workload | minitorch (CPU) | PyTorch (CPU) | minitorch / PyTorch, CPU (wall) "
          "| range over the runs, CPU | NumPy by hand (CPU) |")
    print("|---|---|---|---|---|---|")
    for key, figures in runs[0].items():
        cpu, wall = ratios(key, "torch", 1), ratios(key, "torch", 0)
        spread = f"{min(cpu):.2f}–{max(cpu):.2f}×" if cpu else "n/a"
        shown = (f"**{statistics.median(cpu):.2f}×** ({statistics.median(wall):.2f}×)"
                 if cpu else "n/a")
        print(f"| {figures['label']} | {fmt(median_of(key, 'minitorch'))} "
              f"| {fmt(median_of(key, 'torch'))} | {shown} | {spread} "
              f"| {fmt(median_of(key, 'numpy'))} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11, help="interleaved rounds per case")
    parser.add_argument("--target", type=float, default=0.03,
                        help="seconds per timed batch (calls are batched up to this)")
    parser.add_argument("--only", help="comma-separated case names (see the module docstring)")
    parser.add_argument("--no-import", action="store_true", help="skip the import timings")
    parser.add_argument("--import-rounds", type=int, default=7)
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--runs", type=int, default=1,
                        help="separate processes to run it in; >1 prints medians and ranges")
    args = parser.parse_args()
    if args.runs > 1:
        runs = run_separately(args)
        print_runs_table(runs, args)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(runs, fh, indent=2)
        return

    all_cases = cases(torch)
    chosen = args.only.split(",") if args.only else list(all_cases)
    results: dict = {}
    for key in chosen:
        if key == "import":
            continue
        label, libs = all_cases[key]
        results[key] = (label, measure(libs, args.rounds, args.target))
        print(f"  measured {key}", file=sys.stderr)
    if not args.no_import and (not args.only or "import" in chosen):
        results["import"] = ("import (fresh interpreter)",
                             measure_imports(args.import_rounds, torch is not None))

    print(f"# minitorch per-op overhead ({platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, NumPy {np.__version__}"
          + (f", PyTorch {torch.__version__} with 1 thread" if torch else "")
          + f"; medians of {args.rounds} interleaved rounds)")
    print()
    print("| workload | minitorch (wall / CPU) | PyTorch (wall / CPU) | NumPy by hand (wall / CPU) "
          "| minitorch / PyTorch (wall / CPU) | minitorch / NumPy (CPU) |")
    print("|---|---|---|---|---|---|")
    for _key, (label, figures) in results.items():
        mw, mc = figures["minitorch"]
        tw, tc = figures.get("torch", (None, None))
        nw, nc = figures.get("numpy", (None, None))
        print(f"| {label} | {fmt(mw)} / {fmt(mc)} | {fmt(tw)} / {fmt(tc)} | {fmt(nw)} / {fmt(nc)} "
              f"| {ratio(mw, tw)} / {ratio(mc, tc)} | {ratio(mc, nc)} |")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({k: {"label": label, **{lib: list(v) for lib, v in figs.items()}}
                       for k, (label, figs) in results.items()}, fh, indent=2)


if __name__ == "__main__":
    main()

"""Nodes PyTorch writes in C++ keep their namespace in ``name()`` and not in their class name
or ``repr``: ``torch::autograd::NotImplemented`` is printed ``<NotImplemented object at ...>``.

A ``Function`` says so with ``node_name = "torch::autograd::NotImplemented"`` (see
``FunctionMeta``). Before, four ops wrote the namespace into the class name (the repr read
``<torch::autograd::NotImplemented object ...>``) and three left it out of ``name()``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")


def _hardsigmoid_grad(lib, x):
    (g,) = lib.autograd.grad(lib.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
    return g


def _multi_margin_grad(lib, x):
    loss = lib.nn.functional.multi_margin_loss(x[None], lib.tensor([0]))
    (g,) = lib.autograd.grad(loss, x, create_graph=True)
    return g.grad_fn.next_functions[0][0]  # under PyTorch's squeeze


def _copy(lib, x):
    out = lib.zeros(3)
    out.copy_(x)
    return out


CASES = {
    "hardsigmoid backward": _hardsigmoid_grad,
    "multi_margin_loss backward": _multi_margin_grad,
    "copy_": _copy,
    "bincount with weights": lambda lib, x: lib.bincount(lib.tensor([0, 1, 1]), weights=x),
    "heaviside": lambda lib, x: lib.heaviside(x, lib.tensor(0.5)),
    "heaviside_": lambda lib, x: (x * 1).heaviside_(lib.tensor(0.5)),
    "bernoulli with p": lambda lib, x: lib.bernoulli(x.sigmoid(), 0.3),
}


def _node(out):
    return out if not hasattr(out, "grad_fn") else out.grad_fn


@pytest.mark.parametrize("case", sorted(CASES))
def test_cpp_node_name_and_repr_match_torch(case):
    values = np.array([-4.0, 0.5, 2.0], np.float32)
    nodes = []
    for lib in (minitorch, torch):
        x = lib.tensor(values, requires_grad=True)
        nodes.append(_node(CASES[case](lib, x)))
    mine, ref = nodes
    assert mine.name() == ref.name()
    assert repr(mine).split(" object at ")[0] == repr(ref).split(" object at ")[0]
    assert type(mine).__name__ == type(ref).__name__

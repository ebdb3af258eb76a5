"""``bench/bench_floor.py`` times "the graph's arithmetic in NumPy" as the floor of an MLP step.
A floor that computed less than the step (a forgotten gradient, a cheaper wrong formula) would
make the figures it prints meaningless: one floor step must update the parameters exactly as
one minitorch step does, from the same start."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench"))

from bench_floor import count_operations, floor_module, floor_raw
from bench_steps import mlp_lib, mlp_raw_lib

import minitorch


def _closure(step) -> dict:
    return {name: cell.cell_contents
            for name, cell in zip(step.__code__.co_freevars, step.__closure__)}


@pytest.mark.parametrize("batch, hidden", [(16, 32), (128, 128)])
def test_raw_floor_updates_the_parameters_as_minitorch_does(batch, hidden):
    floor, step = floor_raw(batch, hidden), mlp_raw_lib(minitorch, batch, hidden)
    for _ in range(2):  # the second step starts from zeroed gradients
        floor()
        step()
    for expected, p in zip(_closure(floor)["params"], _closure(step)["params"]):
        np.testing.assert_allclose(expected, p.detach().numpy(), rtol=0, atol=1e-7)


@pytest.mark.parametrize("batch, hidden", [(16, 32), (128, 128)])
def test_module_floor_updates_the_parameters_as_minitorch_does(batch, hidden):
    floor, step = floor_module(batch, hidden), mlp_lib(minitorch, batch, hidden)
    params = list(_closure(step)["model"].parameters())
    for array, p in zip(_closure(floor)["params"], params):
        array[...] = p.detach().numpy()  # the same start
    for _ in range(2):
        floor()
        step()
    for expected, p in zip(_closure(floor)["params"], params):
        np.testing.assert_allclose(expected, p.detach().numpy(), rtol=0, atol=1e-6)


def test_operations_are_counted():
    applies, nodes = count_operations(mlp_raw_lib(minitorch, 16, 32))
    # forward: mm, add, relu, mm, add, log_softmax, nll_loss; backward: the 7 nodes and the
    # 4 leaves' AccumulateGrad; the formulas and the update call apply again
    assert nodes == 11
    assert applies > 7

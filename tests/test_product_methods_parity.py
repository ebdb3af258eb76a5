"""``Tensor.addmm``, ``baddbmm`` and ``addbmm``: the method forms of the functions (the tensor
is ``input``), as PyTorch has them. Values, node names and gradients against torch."""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")

_RNG = np.random.default_rng(3)
CASES = {
    "addmm": ((3, 4), (3, 2), (2, 4)),
    "baddbmm": ((2, 3, 4), (2, 3, 5), (2, 5, 4)),
    "addbmm": ((3, 4), (2, 3, 5), (2, 5, 4)),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": 2.0}])
def test_method_matches_torch(name, scales):
    arrays = [_RNG.standard_normal(shape) for shape in CASES[name]]
    results = []
    for lib in (minitorch, torch):
        self_, a, b = (lib.tensor(x, requires_grad=True) for x in arrays)
        out = getattr(self_, name)(a, b, **scales)
        out.backward(lib.ones(out.shape, dtype=out.dtype))
        results.append((out.grad_fn.name(), out.detach().numpy(),
                        [t.grad.numpy() for t in (self_, a, b)]))
    (mine_name, mine, mine_grads), (ref_name, ref, ref_grads) = results
    assert mine_name == ref_name
    np.testing.assert_allclose(mine, ref, rtol=1e-12)
    for g, r in zip(mine_grads, ref_grads):
        np.testing.assert_allclose(g, r, rtol=1e-12)

"""In-place writes of a value that requires grad.

``x.fill_(value)`` with a 0-d tensor ``value`` records PyTorch's ``FillBackward3``, and
``value`` gets the sum of the gradients of what it filled (before, nothing was recorded and
``value.grad`` stayed None). An in-place operation whose result cannot carry a gradient (an
integer or bool ``x``: ``x.lt_(y)``, ``x.copy_(y)``, ``x.fill_(y.sum())``) leaves ``x`` as it
was, not requiring grad; before, ``x`` became a leaf that required grad and backward wrote an
integer ``.grad`` into it. (PyTorch records a node on the integer tensor there, whose backward
then fails an internal assert: the op table lists that as a known difference.)
"""

from __future__ import annotations

import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle; install torch==2.13.0")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fill_with_a_tensor_value_passes_its_gradient(dtype):
    seen = []
    for lib in (minitorch, torch):
        value = lib.tensor(2.0, requires_grad=True)
        x = lib.zeros(3, dtype=getattr(lib, dtype))
        x.fill_(value)
        (g,) = lib.autograd.grad((x * lib.tensor([1.0, 2.0, 3.0])).sum() * x.sum(), value,
                                 create_graph=True)
        seen.append((x.grad_fn.name(), x.dtype.is_floating_point, g.item(), g.grad_fn.name()))
    assert seen[0] == seen[1]


def test_fill_with_a_tensor_of_more_than_one_element_is_refused():
    messages = []
    for lib in (minitorch, torch):
        with pytest.raises(RuntimeError) as info:
            lib.zeros(3).fill_(lib.ones(2))
        messages.append(str(info.value))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("op", ["lt_", "eq_", "copy_", "fill_", "masked_fill_", "index_fill_"])
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_an_integer_result_takes_no_history(op, dtype):
    x = minitorch.tensor([1, 0, 3]).to(getattr(minitorch, dtype))
    y = minitorch.tensor([1.5, 0.5, 2.0], requires_grad=True)
    value = y.sum()
    {"lt_": lambda: x.lt_(y), "eq_": lambda: x.eq_(y), "copy_": lambda: x.copy_(y),
     "fill_": lambda: x.fill_(value),
     "masked_fill_": lambda: x.masked_fill_(minitorch.tensor([True, False, True]), value),
     "index_fill_": lambda: x.index_fill_(0, minitorch.tensor([1]), value)}[op]()
    assert not x.requires_grad and x.grad_fn is None and x.is_leaf
    (x.to(minitorch.float32) * y).sum().backward()
    assert x.grad is None and y.grad is not None

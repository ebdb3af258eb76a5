"""``torch.autograd.Variable``, which the NLP tutorials (written for PyTorch 0.3) wrap around
every tensor, against PyTorch: a detached leaf sharing the data, ``isinstance`` true for every
tensor, and PyTorch's errors and warning."""

from __future__ import annotations

import warnings

import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _error(lib, *args, **kwargs):
    with pytest.raises(Exception) as info:
        lib.autograd.Variable(*args, **kwargs)
    return type(info.value), str(info.value)


@pytest.mark.parametrize("requires_grad", [False, True])
def test_variable_is_a_detached_leaf_sharing_data(requires_grad):
    out = []
    for lib in (mt, torch):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2
        v = lib.autograd.Variable(x, requires_grad=requires_grad)
        v.data[0] = 7.0  # the same values as x
        out.append((repr(v), v.is_leaf, v.requires_grad, v.grad_fn, x[0].item(),
                    isinstance(v, lib.Tensor)))
    assert out[0] == out[1]


def test_variable_positional_requires_grad_and_backward():
    grads = []
    for lib in (mt, torch):
        from_module = __import__(lib.__name__ + ".autograd", fromlist=["Variable"]).Variable
        x = from_module(lib.Tensor([1.0, 2.0, 3]), True)
        (x + x).sum().backward()
        grads.append(repr(x.grad))
    assert grads[0] == grads[1] == "tensor([2., 2., 2.])"


def test_variable_isinstance_and_defaults():
    for lib in (mt, torch):
        Variable = lib.autograd.Variable
        assert isinstance(lib.ones(1), Variable)
        assert not isinstance(3, Variable)
        assert not isinstance([1.0], Variable)
        assert repr(Variable()) == "tensor([])"
        assert Variable(lib.ones(2, dtype=lib.int64)).dtype == lib.int64


@pytest.mark.parametrize("args, kwargs", [
    ((3,), {}), (([1.0, 2.0],), {}), (("x",), {"requires_grad": True}),
])
def test_variable_errors_match_torch(args, kwargs):
    assert _error(mt, *args, **kwargs) == _error(torch, *args, **kwargs)


def test_variable_int_requires_grad_error_matches_torch():
    assert (_error(mt, mt.ones(2, dtype=mt.int64), requires_grad=True)
            == _error(torch, torch.ones(2, dtype=torch.int64), requires_grad=True))


def test_variable_volatile_warns_as_torch():
    messages = []
    for lib in (mt, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            v = lib.autograd.Variable(lib.ones(2), volatile=True)
        messages.append((repr(v), [(w.category, str(w.message)) for w in caught]))
    assert messages[0] == messages[1]

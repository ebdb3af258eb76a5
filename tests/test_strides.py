"""``stride()`` and ``is_contiguous()`` against PyTorch, for the layouts minitorch follows.

minitorch's tensors are NumPy arrays and report NumPy's strides (in elements). Where NumPy and
PyTorch lay memory out alike this is PyTorch's answer; these tests cover the families where
they did not, and that minitorch now follows:

* tensors without elements: NumPy gives every dimension of an empty array stride 0, PyTorch
  the strides of the tensor's layout (``torch.empty(0, 3).stride() == (3, 1)``, its ``t()``
  ``(1, 3)``), and so do the views made from it; ``torch.from_numpy`` of an empty array keeps
  NumPy's 0s, and so do its views and its clone;
* ``clone()`` and the ``*_like`` factories keep their input's layout (PyTorch's default
  ``memory_format=torch.preserve_format``), while ``contiguous()``, ``reshape`` and the
  gradient a parameter accumulates are contiguous.

Known families that still differ (not tested here, see the layout task's report): elementwise
results of inputs laid out differently (PyTorch takes the first input's layout, NumPy prefers
C order when any input has it), LAPACK-based results (PyTorch's are column-major), ops PyTorch
makes contiguous first (softmax, cat of transposed inputs), the strides of size-1 dimensions
(keepdim reductions of a transposed input, ``broadcast_to`` to new leading 1s), and the ops
that keep a ``from_numpy`` empty's 0 strides in PyTorch through ``empty_like``.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

SHAPES = [(0,), (0, 3), (3, 0), (2, 0, 3), (2, 3, 0), (0, 1), (1, 0)]


def layout(t):
    return tuple(t.shape), tuple(t.stride()), t.is_contiguous()


def assert_same_layout(make):
    """``make(lib)`` with both libraries: the same shape, strides and contiguity."""
    mine, ref = make(minitorch), make(torch)
    assert layout(mine) == layout(ref)


# ---------------------------------------------------------------- tensors without elements
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("factory", ["empty", "zeros", "ones", "rand", "randn"])
def test_empty_factories(factory, shape):
    assert_same_layout(lambda lib: getattr(lib, factory)(*shape))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_empty_from_other_factories(shape):
    assert_same_layout(lambda lib: lib.full(shape, 2.0))
    assert_same_layout(lambda lib: lib.zeros(shape, dtype=lib.int64))
    assert_same_layout(lambda lib: lib.tensor([]))


def test_empty_stride_of_one_dimension():
    for lib in (minitorch, torch):
        assert lib.empty(2, 0, 3).stride(0) == 3 and lib.empty(2, 0, 3).stride(-1) == 1


VIEWS = {
    "t": lambda x: x.t(),
    "mT": lambda x: x.mT,
    "transpose": lambda x: x.transpose(0, 1),
    "permute": lambda x: x.permute(1, 0),
    "step": lambda x: x[:, ::2],
    "rows": lambda x: x[1:],
    "unsqueeze": lambda x: x[:, None],
    "expand": lambda x: x.expand(2, *x.shape),
    "reshape": lambda x: x.reshape(x.shape[1], x.shape[0]),
    "flatten": lambda x: x.flatten(),
    "narrow": lambda x: x.narrow(1, 1, 2),
    "select": lambda x: x[:, 1],
}


# (a (4, 0) tensor has no columns to take; the stride of a new size-1 dimension of it is one
# of the size-1 differences left: PyTorch's x[:, None] has (1, 0, 1), minitorch's (1, 1, 1))
@pytest.mark.parametrize(("view", "shape"), [
    (view, shape) for view in sorted(VIEWS) for shape in ((0, 4), (4, 0))
    if shape == (0, 4) or view not in ("narrow", "select", "step", "unsqueeze")])
def test_views_of_an_empty_tensor(view, shape):
    assert_same_layout(lambda lib: VIEWS[view](lib.zeros(*shape)))


OPS = {
    "add": lambda lib, x: x + 1,
    "exp": lambda lib, x: x.exp(),
    "sum": lambda lib, x: x.sum(1),
    "sum-keepdim": lambda lib, x: x.sum(0, keepdim=True),
    "matmul": lambda lib, x: x @ lib.ones(4, 2),
    "cat": lambda lib, x: lib.cat([x, x]),
    "clone": lambda lib, x: x.clone(),
    "contiguous-t": lambda lib, x: x.t().contiguous(),
    "clone-t": lambda lib, x: x.t().clone(),
    "clone-step": lambda lib, x: x[:, ::2].clone(),
    "clone-expand": lambda lib, x: x.expand(2, 0, 4).clone(),
    "zeros_like-t": lambda lib, x: lib.zeros_like(x.t()),
    "empty_like-step": lambda lib, x: lib.empty_like(x[:, ::2]),
    "relu": lambda lib, x: lib.nn.functional.relu(x),
}


@pytest.mark.parametrize("op", sorted(OPS))
def test_results_without_elements(op):
    assert_same_layout(lambda lib: OPS[op](lib, lib.zeros(0, 4)))


@pytest.mark.parametrize("how", ["plain", "t", "step", "clone", "clone-t", "inplace",
                                 "zeros_like", "ones_like"])
def test_from_numpy_of_an_empty_array_keeps_numpy_strides(how):
    """PyTorch takes NumPy's strides, 0 for an empty array, and keeps them in views and in a
    clone (preserve_format); minitorch does too, though its fresh empties are laid out."""
    def make(lib):
        x = lib.from_numpy(np.zeros((0, 4), np.float32))
        return {"plain": lambda: x, "t": lambda: x.t(), "step": lambda: x[::2],
                "clone": lambda: x.clone(), "clone-t": lambda: x.t().clone(),
                "inplace": lambda: x.clone().add_(1),
                "zeros_like": lambda: lib.zeros_like(x.t()),
                "ones_like": lambda: lib.ones_like(x)}[how]()
    assert_same_layout(make)


def test_empty_tensor_that_requires_grad_backward():
    """A laid-out empty array still works through backward (the gradient has no elements)."""
    for lib in (minitorch, torch):
        x = lib.zeros(0, 3, requires_grad=True)
        (x.t() * 2).sum().backward()
        assert layout(x.grad) == ((0, 3), (3, 1), True)


# ---------------------------------------------------------------- clone and *_like keep layout
def _source(lib, kind):
    a = np.arange(24, dtype=np.float32)
    return {"t": lambda: lib.from_numpy(a.reshape(4, 6).copy()).t(),
            "permute3": lambda: lib.from_numpy(a.reshape(2, 3, 4).copy()).permute(2, 0, 1),
            "step": lambda: lib.from_numpy(a.reshape(4, 6).copy())[::2],
            "t-step": lambda: lib.from_numpy(a.reshape(4, 6).copy()).t()[::2],
            "contiguous": lambda: lib.from_numpy(a.reshape(4, 6).copy())}[kind]()


KINDS = ["t", "permute3", "step", "t-step", "contiguous"]


@pytest.mark.parametrize("kind", KINDS)
def test_clone_keeps_the_layout(kind):
    assert_same_layout(lambda lib: _source(lib, kind).clone())
    assert_same_layout(lambda lib: lib.clone(_source(lib, kind)))


@pytest.mark.parametrize("kind", KINDS)
def test_contiguous_and_reshape_copy_to_contiguous_memory(kind):
    assert_same_layout(lambda lib: _source(lib, kind).contiguous())
    assert_same_layout(lambda lib: _source(lib, kind).reshape(-1))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("factory", ["zeros_like", "ones_like", "empty_like", "rand_like",
                                     "randn_like", "full_like"])
def test_like_factories_keep_the_layout(factory, kind):
    args = (1.5,) if factory == "full_like" else ()
    assert_same_layout(lambda lib: getattr(lib, factory)(_source(lib, kind), *args))


@pytest.mark.parametrize("kind", ["t", "permute3"])
def test_like_factories_keep_the_values_and_the_layout_with_options(kind):
    for lib in (minitorch, torch):
        out = lib.ones_like(_source(lib, kind), dtype=lib.float64, requires_grad=True)
        assert out.requires_grad and out.dtype == lib.float64 and bool((out == 1).all())
    assert_same_layout(lambda lib: lib.ones_like(_source(lib, kind), dtype=lib.int64))
    assert_same_layout(lambda lib: lib.randint_like(_source(lib, kind), 5))


def test_inplace_op_on_a_clone_keeps_the_layout():
    assert_same_layout(lambda lib: _source(lib, "t").clone().mul_(2))
    assert_same_layout(lambda lib: _source(lib, "t").clone().exp_())


def test_clone_of_a_transposed_tensor_values_graph_and_gradient():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = {}
    for lib in (minitorch, torch):
        leaf = lib.from_numpy(a.copy()).requires_grad_(True)
        y = leaf.t().clone()
        (y * lib.from_numpy(a.T.copy())).sum().backward()
        out[lib.__name__] = (y.detach().numpy().copy(), y.grad_fn.name(), leaf.grad.numpy().copy(),
                             layout(leaf.grad))
    mine, ref = out["minitorch"], out["torch"]
    np.testing.assert_array_equal(mine[0], ref[0])
    assert mine[1] == ref[1] == "CloneBackward0"
    np.testing.assert_array_equal(mine[2], ref[2])
    assert mine[3] == ref[3]
    x = minitorch.from_numpy(a.copy()).requires_grad_(True)
    assert minitorch.autograd.gradcheck(lambda t: t.t().clone() * 3, (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: (t.t().clone() ** 2), (x,))


def test_a_parameter_gradient_is_contiguous_as_in_pytorch():
    """The engine copies a gradient it cannot take over (a transposed view, from the matmul
    of a linear layer) into contiguous memory, as PyTorch lays it out like the parameter."""
    for lib in (minitorch, torch):
        lib.manual_seed(0)
        layer = lib.nn.Linear(4, 3)
        layer(lib.ones(5, 4)).sum().backward()
        assert layout(layer.weight.grad) == ((3, 4), (4, 1), True)

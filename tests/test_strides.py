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
  gradient a parameter accumulates are contiguous (a leaf's gradient is laid out as the leaf:
  PyTorch's gradient layout contract);
* the ``memory_format=`` argument of ``clone``, ``contiguous``, ``is_contiguous``, ``to`` and
  the ``*_like`` factories (``preserve_format``, ``contiguous_format``, ``channels_last`` for
  4-d tensors, ``channels_last_3d`` for 5-d ones, PyTorch's errors for other ranks);
* one-input ops that keep their input's layout in PyTorch (``sort``, ``polygamma``, ``fill``,
  the pools of a channels-last input) or make it contiguous (``logsigmoid``, ``renorm``,
  constant pads, ``all(dim=())``, ``tile``).

Known families that still differ (not tested here, see the layout tasks' reports): elementwise
results of inputs laid out differently (PyTorch takes the first input's layout, NumPy prefers
C order when any input has it), LAPACK-based results (PyTorch's are column-major), ops PyTorch
makes contiguous first (softmax and log_softmax, which are on the training step's path, rrelu,
gradient, grid_sample, cat of transposed inputs), local_response_norm of a transposed input,
the strides of size-1 dimensions (keepdim reductions of a transposed input, ``broadcast_to``
to new leading 1s, a preserve_format copy of a transposed tensor with a size-1 dimension), and
the ops that keep a ``from_numpy`` empty's 0 strides in PyTorch through ``empty_like``.
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


# ---------------------------------------------------------------- memory_format= (layout2 task)
def outcome(make, lib):
    """``make(lib)``'s layout (and whether it is its input), or its exception and message."""
    try:
        out = make(lib)
    except (RuntimeError, TypeError) as e:
        return type(e).__name__, str(e)
    return layout(out) if hasattr(out, "stride") else out


def assert_same_outcome(make):
    assert outcome(make, minitorch) == outcome(make, torch)


def _nchw(lib, shape, how="plain"):
    x = lib.from_numpy(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
    if how == "nhwc" and x.ndim == 4:
        return x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    if how == "t" and x.ndim:
        return x.transpose(0, -1)
    return x[:, ::2] if how == "step" else x


# (a transposed tensor with a dimension of size 1 or 0 is left out where it is copied with
# preserve_format: the strides of those dimensions are one of the known differences)
def _known(fmt, shape, how) -> bool:
    return fmt == "preserve_format" and how in ("t", "step") and (1 in shape or 0 in shape)


FORMATS = ["preserve_format", "contiguous_format", "channels_last", "channels_last_3d"]
FORMAT_SHAPES = [(2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 4), (4,), (), (2, 1, 4, 5), (2, 3, 1, 1),
                 (0, 3, 4, 5), (2, 0, 4, 5), (2, 3, 0, 5), (2, 3, 4, 0), (1, 3, 1, 2, 2)]


def test_memory_format_and_layout_objects():
    for name in FORMATS + ["strided"]:
        assert repr(getattr(minitorch, name)) == repr(getattr(torch, name)) == f"torch.{name}"
    assert isinstance(minitorch.channels_last, minitorch.memory_format)
    assert isinstance(minitorch.strided, minitorch.layout)
    assert minitorch.ones(2).layout is minitorch.strided and repr(torch.ones(2).layout) == \
        "torch.strided"
    import copy
    import pickle
    for obj in (minitorch.channels_last, minitorch.strided):
        assert pickle.loads(pickle.dumps(obj)) is obj and copy.deepcopy(obj) is obj


@pytest.mark.parametrize(("how", "fmt", "shape"), [
    (how, fmt, shape) for how in ("plain", "nhwc", "t") for fmt in FORMATS
    for shape in FORMAT_SHAPES if not _known(fmt, shape, how)], ids=str)
def test_clone_contiguous_and_is_contiguous_with_a_memory_format(fmt, shape, how):
    def source(lib):
        return _nchw(lib, shape, how)
    assert_same_outcome(lambda lib: source(lib).clone(memory_format=getattr(lib, fmt)))
    assert_same_outcome(lambda lib: lib.clone(source(lib), memory_format=getattr(lib, fmt)))
    assert_same_outcome(lambda lib: source(lib).contiguous(memory_format=getattr(lib, fmt)))
    assert_same_outcome(lambda lib: source(lib).is_contiguous(memory_format=getattr(lib, fmt)))
    assert_same_outcome(lambda lib: (lambda x: x.contiguous(memory_format=getattr(lib, fmt))
                                     is x)(source(lib)))


@pytest.mark.parametrize(("how", "fmt", "shape"), [
    (how, fmt, shape) for how in ("plain", "nhwc", "t", "step") for fmt in FORMATS
    for shape in ((2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 4), (2, 0, 4, 5))
    if not _known(fmt, shape, how)], ids=str)
@pytest.mark.parametrize("factory", ["zeros_like", "ones_like", "empty_like", "rand_like",
                                     "randn_like", "full_like", "randint_like"])
def test_like_factories_with_a_memory_format(factory, fmt, shape, how):
    args = (1.5,) if factory == "full_like" else (5,) if factory == "randint_like" else ()
    assert_same_outcome(lambda lib: getattr(lib, factory)(
        _nchw(lib, shape, how), *args, memory_format=getattr(lib, fmt)))


@pytest.mark.parametrize(("how", "fmt", "shape"), [
    (how, fmt, shape) for how in ("plain", "nhwc", "t") for fmt in FORMATS
    for shape in ((2, 3, 4, 5), (2, 3, 4, 5, 6), (3, 4), (2, 3, 1, 1), (2, 1, 4, 5), (2, 0, 4, 5))
    if not _known(fmt, shape, how)], ids=str)
@pytest.mark.parametrize("args", ["none", "float64", "float32", "copy"])
def test_to_with_a_memory_format(args, fmt, shape, how):
    def make(lib):
        x = _nchw(lib, shape, how)
        a, kw = {"none": ((), {}), "float64": ((lib.float64,), {}), "float32": ((lib.float32,), {}),
                 "copy": ((), {"copy": True})}[args]
        out = x.to(*a, memory_format=getattr(lib, fmt), **kw)
        return layout(out), out is x, out.dtype is lib.float64
    assert_same_outcome(make)


def test_memory_format_values_graph_and_gradient():
    a = np.random.default_rng(0).standard_normal((2, 3, 4, 5))
    res = {}
    for lib in (minitorch, torch):
        leaf = lib.from_numpy(a.copy()).requires_grad_(True)
        outs = [leaf.clone(memory_format=lib.channels_last),
                leaf.contiguous(memory_format=lib.channels_last),
                leaf.to(memory_format=lib.channels_last),
                leaf.to(lib.float32, memory_format=lib.channels_last)]
        sum((o.double() * lib.from_numpy(a)).sum() for o in outs).backward()
        res[lib.__name__] = ([o.detach().numpy().copy() for o in outs],
                             [o.grad_fn.name() for o in outs], leaf.grad.numpy().copy(),
                             layout(leaf.grad))
    mine, ref = res["minitorch"], res["torch"]
    for m, r in zip(mine[0], ref[0]):
        np.testing.assert_array_equal(m, r)
    assert mine[1] == ref[1] == ["CloneBackward0", "CloneBackward0", "ToCopyBackward0",
                                 "ToCopyBackward0"]
    np.testing.assert_allclose(mine[2], ref[2])
    assert mine[3] == ref[3]
    x = minitorch.from_numpy(a.copy()).requires_grad_(True)
    cl = minitorch.channels_last
    assert minitorch.autograd.gradcheck(lambda t: t.clone(memory_format=cl) * 3, (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: t.contiguous(memory_format=cl) ** 2, (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: t.to(memory_format=cl) ** 2, (x,))


@pytest.mark.parametrize("call", ["clone", "contiguous", "is_contiguous", "zeros_like",
                                  "full_like", "to", "to-dtype", "to-copy", "clone-none",
                                  "contiguous-none", "like-none", "to-none"])
def test_memory_format_argument_errors(call):
    def make(lib):
        x, bad = lib.ones(2, 3, 4, 5), {"none": None}.get(call.split("-")[-1], "channels_last")
        return {"clone": lambda: x.clone(memory_format=bad),
                "clone-none": lambda: x.transpose(0, 3).clone(memory_format=bad),
                "contiguous": lambda: x.contiguous(memory_format=bad),
                "contiguous-none": lambda: x.contiguous(memory_format=bad),
                "is_contiguous": lambda: x.is_contiguous(memory_format=bad),
                "zeros_like": lambda: lib.zeros_like(x, memory_format=bad),
                "like-none": lambda: lib.zeros_like(x.transpose(0, 3), memory_format=bad),
                "full_like": lambda: lib.full_like(x, 2, memory_format=1),
                "to": lambda: x.to(memory_format=bad),
                "to-none": lambda: x.transpose(0, 3).to(lib.float64, memory_format=bad),
                "to-dtype": lambda: x.to(lib.float64, memory_format=bad),
                "to-copy": lambda: x.to("cpu", lib.float64, memory_format=bad)}[call]()
    assert_same_outcome(make)


# ---------------------------------------------------------------- the gradient layout contract
# (layout2 task) PyTorch's AccumulateGrad keeps a leaf's first gradient when nothing else holds
# it and it is laid out as the leaf (a leaf that is not dense: contiguous), else copies it into
# that layout; under create_graph=True it always copies (CopyBackwards, CloneBackward0).
_G = np.random.default_rng(3)
_A, _W = _G.standard_normal((3, 4)), _G.standard_normal((4, 3))
_B = _G.standard_normal((2, 3, 4, 5))


def _nhwc(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


GRAD_GRAPHS = {  # name: (leaf array, how the leaf is made from it, the function summed)
    "t-leaf-mul": (_A, lambda t: t.t(), lambda lib, x: x * lib.from_numpy(_W)),
    "t-leaf-add": (_A, lambda t: t.t(), lambda lib, x: x + 1),
    "t-leaf-sum": (_A, lambda t: t.t(), lambda lib, x: x),
    "t-leaf-twice": (_A, lambda t: t.t(), lambda lib, x: x + x.t().t()),
    "leaf-mul-t": (_A, lambda t: t, lambda lib, x: x * lib.from_numpy(_W).t()),
    "leaf-t-mul": (_A, lambda t: t, lambda lib, x: x.t() * lib.from_numpy(_W)),
    "step-t-leaf": (_A, lambda t: t.t()[:, ::2], lambda lib, x: x.exp()),
    "nhwc-leaf-sum": (_B, _nhwc, lambda lib, x: x),
}
# (the cases that differed: create_graph=True squares the function's result)
GRAD_CASES = [("leaf-mul-t", False), ("leaf-t-mul", True), ("nhwc-leaf-sum", False),
              ("step-t-leaf", False), ("step-t-leaf", True), ("t-leaf-add", False),
              ("t-leaf-mul", False), ("t-leaf-mul", True), ("t-leaf-sum", False),
              ("t-leaf-twice", False)]


@pytest.mark.filterwarnings(r"ignore:Using backward\(\) with create_graph=True")
@pytest.mark.parametrize(("name", "create_graph"), GRAD_CASES, ids=str)
def test_a_leaf_gradient_is_laid_out_as_the_leaf(name, create_graph):
    data, make, fn = GRAD_GRAPHS[name]
    out = {}
    for lib in (minitorch, torch):
        x = make(lib.from_numpy(data.copy())).detach().requires_grad_(True)
        y = fn(lib, x)  # (squared under create_graph, so that the gradient has a graph)
        (y * y if create_graph else y).sum().backward(create_graph=create_graph)
        node = x.grad.grad_fn
        out[lib.__name__] = (layout(x.grad), node and type(node).__name__, x.grad.detach().numpy())
    mine, ref = out["minitorch"], out["torch"]
    assert mine[:2] == ref[:2]
    np.testing.assert_allclose(mine[2], ref[2], rtol=1e-12)


def test_the_gradient_layout_contract_keeps_gradchecks():
    x = minitorch.from_numpy(_A.copy()).t().detach().requires_grad_(True)
    assert minitorch.autograd.gradcheck(lambda t: (t * 2).exp(), (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: (t * t).exp(), (x,))
    y = x.detach().requires_grad_(True)
    (g,) = minitorch.autograd.grad((y * y).sum(), y, create_graph=True)
    g.sum().backward()
    assert layout(y.grad) == layout(x) and layout(y.grad)[1] == (1, 4)


# ---------------------------------------------------------------- one-input ops (layout2 task)
# PyTorch lays out sort's results (and polygamma's) as their input, and a pool's result
# channels-last where its input is (a 1-d pool's input counts as its 4-d unsqueeze).
def _cl1d(lib):  # (N, C, L) with strides (C L, 1, C): channels-last once unsqueezed
    return lib.from_numpy(np.arange(48, dtype=np.float32).reshape(2, 8, 3)).transpose(1, 2)


def _cl2d(lib):
    return _nchw(lib, (2, 3, 4, 6), "nhwc")


LAYOUT_KEEPING = {
    "sort": lambda lib, x: x.sort(0).values,
    "sort-indices": lambda lib, x: lib.sort(x, -1, descending=True).indices,
    "argsort": lambda lib, x: x.argsort(0),
    "msort": lambda lib, x: lib.msort(x),
    "polygamma": lambda lib, x: lib.polygamma(2, x.double().abs() + 1),
    "fill": lambda lib, x: lib.fill(x, 2.5),
    "fill-tensor": lambda lib, x: lib.fill(x, lib.tensor(-1.0)),
    "isreal": lambda lib, x: x.isreal(),
}


@pytest.mark.parametrize("kind", ["t", "permute3", "t-step"])
@pytest.mark.parametrize("op", sorted(LAYOUT_KEEPING))
def test_one_input_ops_keep_the_layout(op, kind):
    assert_same_layout(lambda lib: LAYOUT_KEEPING[op](lib, _source(lib, kind)))


POOLS = {
    "max_pool1d-grad": lambda f, x: f.max_pool1d(x.detach().requires_grad_(True), 2),
    "max_pool1d-indices": lambda f, x: f.max_pool1d(x, 2, return_indices=True)[1],
    "avg_pool1d": lambda f, x: f.avg_pool1d(x, 2),
    "lp_pool1d": lambda f, x: f.lp_pool1d(x, 2, 2),
    "max_pool2d": lambda f, x: f.max_pool2d(x, 2),
    "max_pool2d-indices": lambda f, x: f.max_pool2d(x, 2, return_indices=True)[1],
    "avg_pool2d": lambda f, x: f.avg_pool2d(x, 2),
    "lp_pool2d": lambda f, x: f.lp_pool2d(x, 2, 2),
    "max_pool3d": lambda f, x: f.max_pool3d(x, (1, 2, 2)),
    "max_pool3d-indices": lambda f, x: f.max_pool3d(x, (1, 2, 2), return_indices=True)[1],
}


@pytest.mark.parametrize("op", sorted(POOLS))
def test_pools_keep_a_channels_last_layout(op):
    def make(lib):
        x = {"1": _cl1d, "2": _cl2d}.get(op.split("_pool")[1][0], lambda lib: _cl2d(
            lib).unsqueeze(2).contiguous(memory_format=lib.channels_last_3d))(lib)
        return POOLS[op](lib.nn.functional, x)
    assert_same_layout(make)


def test_pool_values_and_gradients_with_a_channels_last_input():
    out = {}
    for lib in (minitorch, torch):
        x = _cl1d(lib).double().requires_grad_(True)
        y = lib.nn.functional.max_pool1d(x, 2) * lib.nn.functional.avg_pool1d(x, 2)
        (y * y).sum().backward()
        no_grad = lib.nn.functional.max_pool1d(x.detach(), 2)  # (PyTorch's other kernel: C order)
        out[lib.__name__] = (y.detach().numpy(), x.grad.numpy(), layout(y), layout(no_grad))
    for m, r in zip(out["minitorch"][:2], out["torch"][:2]):
        np.testing.assert_allclose(m, r, rtol=1e-12)
    assert out["minitorch"][2:] == out["torch"][2:]
    x = _cl2d(minitorch).double().requires_grad_(True)
    F = minitorch.nn.functional
    assert minitorch.autograd.gradcheck(lambda t: F.max_pool2d(t, 2) + F.avg_pool2d(t, 2), (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: F.avg_pool2d(t * t, 2), (x,))


# PyTorch makes these ops' results contiguous (its kernels take a contiguous input, or allocate
# with suggest_memory_format); NumPy kept a transposed input's order.
CONTIGUOUS_RESULTS = {
    "logsigmoid": lambda lib, x: lib.nn.functional.logsigmoid(x),
    "renorm": lambda lib, x: x.renorm(2, 0, 1.0),
    "mvlgamma": lambda lib, x: lib.mvlgamma(x.abs() + 2, 2),
    "cross": lambda lib, x: lib.linalg.cross(x[:3], x[:3], dim=0),
    "cdist": lambda lib, x: lib.cdist(x, lib.ones(5, x.shape[1])),
    "pad": lambda lib, x: lib.nn.functional.pad(x, (1, 2)),
    "constant_pad_nd": lambda lib, x: lib.constant_pad_nd(x, (1, 1, 0, 2), 3.0),
    "all-no-dims": lambda lib, x: x.all(dim=()),
    "any-no-dims": lambda lib, x: lib.any(x, dim=(), keepdim=True),
    "tile-no-dims": lambda lib, x: x.tile(()),
    "repeat-ones": lambda lib, x: x.repeat(1, 1),
}


@pytest.mark.parametrize(("op", "kind"), [  # (NumPy's pad of a stepped input was C order)
    (op, kind) for op in sorted(CONTIGUOUS_RESULTS) for kind in ("t", "t-step")
    if kind == "t" or "pad" not in op], ids=str)
def test_ops_with_contiguous_results(op, kind):
    assert_same_layout(lambda lib: CONTIGUOUS_RESULTS[op](lib, _source(lib, kind)))


def test_a_padded_channels_last_tensor_stays_channels_last():
    assert_same_layout(lambda lib: lib.nn.functional.pad(_cl2d(lib), (1, 1, 1, 1)))
    assert_same_layout(lambda lib: lib.nn.functional.pad(_cl2d(lib).transpose(2, 3), (1, 1)))

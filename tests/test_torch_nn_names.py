"""The ``torch.*`` names of the nn functions (``torch.dropout``, ``torch.layer_norm``,
``torch.kl_div``, ``torch.pdist``, ...) against PyTorch: that they exist, the random ones bit
for bit after the same seed, the arguments PyTorch requires, the integer reductions and their
default, ``pdist``'s and ``channel_shuffle``'s gradients against finite differences,
``nn.ChannelShuffle`` and the two Tensor methods. Every family of inputs, the errors and the
graph-node names are compared in test_opinfo.py through ``_opinfo_samples_torchnn``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch
import minitorch.nn.functional as F

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

NAMES = """adaptive_avg_pool1d adaptive_max_pool1d alpha_dropout alpha_dropout_ avg_pool1d
batch_norm bilinear binary_cross_entropy_with_logits celu celu_ channel_shuffle
native_channel_shuffle constant_pad_nd conv1d conv2d conv_transpose2d convolution
cosine_embedding_loss cosine_similarity ctc_loss dropout dropout_ embedding
feature_alpha_dropout feature_alpha_dropout_ feature_dropout feature_dropout_ group_norm
hardshrink hinge_embedding_loss instance_norm kl_div layer_norm margin_ranking_loss max_pool1d
max_pool1d_with_indices max_pool2d pairwise_distance pdist pixel_shuffle pixel_unshuffle
poisson_nll_loss prelu rms_norm rrelu rrelu_ selu selu_ threshold threshold_
triplet_margin_loss rnn_tanh_cell rnn_relu_cell lstm_cell gru_cell""".split()


@pytest.mark.parametrize("name", NAMES)
def test_name_exists_like_torch(name):
    assert callable(getattr(torch, name))
    assert callable(getattr(minitorch, name))
    # where PyTorch's torch.X is its nn.functional.X, minitorch's is too
    if getattr(torch.nn.functional, name, None) is getattr(torch, name):
        assert getattr(F, name) is getattr(minitorch, name)


@pytest.mark.parametrize("name", ["prelu", "hardshrink"])
def test_tensor_methods(name):
    assert hasattr(torch.Tensor, name)
    x = np.array([[-2.0, -0.3, 0.0, 0.4, 3.0]], np.float32)
    args = {"prelu": lambda lib: (lib.tensor([0.25]),), "hardshrink": lambda lib: (0.35,)}[name]
    outs = []
    for lib in (minitorch, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(t, name)(*args(lib))
        y.sum().backward()
        outs.append((y.detach().numpy(), t.grad.numpy(), y.grad_fn.name()))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])
    assert outs[0][2] == outs[1][2]


# ------------------------------------------------------------------ the random ones, bit for bit
RANDOM = ["dropout", "dropout_", "feature_dropout", "feature_dropout_", "alpha_dropout",
          "alpha_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_"]
SHAPES = [(4, 5), (2, 3, 7), (2, 3, 4, 5), (64,)]  # (a feature dropout needs 2 dimensions)
CASES = [(name, shape) for name in RANDOM for shape in SHAPES
         if "feature" not in name or len(shape) > 1]


def _draw(lib, name, arr, p, layout):
    lib.manual_seed(1234)
    x = lib.tensor(arr)
    if layout == "T":
        x = x.transpose(0, -1)
    out = getattr(lib, name)(x, p, True)
    return out.numpy().copy(), lib.rand(3).numpy()


@pytest.mark.parametrize(("name", "shape"), CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("p", [0.2, 0.5, 0.9])
@pytest.mark.parametrize("layout", [None, "T"])
def test_dropout_bits_like_torch(name, shape, dtype, p, layout):
    arr = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    mine, ref = _draw(minitorch, name, arr, p, layout), _draw(torch, name, arr, p, layout)
    assert mine[0].dtype == ref[0].dtype
    np.testing.assert_array_equal(mine[0], ref[0])  # the same mask, the same rounding
    np.testing.assert_array_equal(mine[1], ref[1])  # the same numbers drawn


@pytest.mark.parametrize("name", ["rrelu", "rrelu_"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("generator", [False, True])
def test_rrelu_bits_like_torch(name, dtype, generator):
    arr = np.random.default_rng(1).standard_normal((3, 50)).astype(dtype)
    outs = []
    for lib in (minitorch, torch):
        lib.manual_seed(99)
        kw = {"generator": lib.Generator().manual_seed(5)} if generator else {}
        out = getattr(lib, name)(lib.tensor(arr), 0.1, 0.6, True, **kw)
        outs.append((out.numpy().copy(), lib.rand(2).numpy()))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])  # a generator leaves the global one


# ------------------------------------------------------------------ arguments
REQUIRED = {  # name: the arguments after the first tensor that PyTorch requires
    "dropout": (0.5, True), "dropout_": (0.5, True), "feature_dropout": (0.5, True),
    "alpha_dropout": (0.5, True), "feature_alpha_dropout": (0.5, True),
    "threshold": (0.1, 2.0), "poisson_nll_loss": ("T", True, False, 1e-8, 1),
    "batch_norm": (None, None, None, None, True, 0.1, 1e-5, True),
    "instance_norm": (None, None, None, None, True, 0.1, 1e-5, True),
    "convolution": ("W", None, [1], [0], [1], False, [0], 1),
}


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_required_arguments_like_torch(name):
    """Every argument in REQUIRED is required: each call with one fewer is a TypeError in
    both; the full call works in both."""
    x = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)
    for lib in (minitorch, torch):
        def fill(a, lib=lib):
            return {"T": lib.tensor(np.abs(x)), "W": lib.ones(2, 3, 2)}.get(a, a) \
                if isinstance(a, str) else a
        args = [fill(a) for a in REQUIRED[name]]
        getattr(lib, name)(lib.tensor(x), *args)
        for k in range(len(args)):
            with pytest.raises(TypeError):
                getattr(lib, name)(lib.tensor(x), *args[:k])


def _valid_rest(lib, name):
    """Arguments after the first that make a valid call of ``name`` (with a (2, 3, 4) input)."""
    t = lib.ones
    return {
        "celu": (), "selu": (), "threshold": (0.1, 2.0), "rrelu": (), "rrelu_": (),
        "adaptive_max_pool1d": (2,), "max_pool1d": (2,), "max_pool1d_with_indices": (2,),
        "max_pool2d": (2,), "avg_pool1d": (2,), "constant_pad_nd": ([1, 1],),
        "layer_norm": ([4],), "group_norm": (1,), "pdist": (),
        "batch_norm": (None, None, None, None, True, 0.1, 1e-5, True),
        "instance_norm": (None, None, None, None, True, 0.1, 1e-5, True),
        "binary_cross_entropy_with_logits": (t(2, 3, 4),), "hinge_embedding_loss": (t(2, 3, 4),),
        "kl_div": (t(2, 3, 4),), "poisson_nll_loss": (t(2, 3, 4), True, False, 1e-8, 1),
        "margin_ranking_loss": (t(2, 3, 4), t(2, 3, 4)),
        "cosine_embedding_loss": (t(2, 3, 4), t(2, 4)),
        "triplet_margin_loss": (t(2, 3, 4), t(2, 3, 4)), "embedding": (lib.tensor([0]),),
        "convolution": (t(2, 3, 2), None, [1], [0], [1], False, [0], 1),
        "channel_shuffle": (3,), "native_channel_shuffle": (3,),
        "rnn_tanh_cell": (t(2, 4), t(4, 3), t(4, 4)), "rnn_relu_cell": (t(2, 4), t(4, 3),
                                                                          t(4, 4)),
        "gru_cell": (t(2, 4), t(12, 3), t(12, 4)),
        "lstm_cell": ((t(2, 4), t(2, 4)), t(16, 3), t(16, 4)),
        "ctc_loss": (lib.ones(2, 2).long(), [5, 5], [2, 2]),
        **{name: (0.5, True) for name in RANDOM},
    }[name]


@pytest.mark.parametrize("name", sorted(set(NAMES) - {
    "adaptive_avg_pool1d", "bilinear", "celu_", "conv1d", "conv2d", "conv_transpose2d",
    "cosine_similarity", "hardshrink", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle",
    "prelu", "rms_norm", "selu_", "threshold_"}))
def test_not_a_tensor_like_torch(name):
    """A number where the first Tensor goes: PyTorch's parser's TypeError, the same words."""
    errors = []
    for lib in (minitorch, torch):
        with pytest.raises(TypeError) as caught:
            getattr(lib, name)(1.5, *_valid_rest(lib, name))
        errors.append(str(caught.value).split("\n")[0])
    assert errors[0] == errors[1]


LOSSES = {  # name: (the shapes of the tensors, the arguments after them)
    "binary_cross_entropy_with_logits": ([(3, 4), (3, 4)], (None, None)),
    "hinge_embedding_loss": ([(3, 4), "sign"], (1.0,)),
    "kl_div": ([(3, 4), (3, 4)], ()),
    "margin_ranking_loss": ([(3, 4), (3, 4), "sign"], (0.1,)),
    "cosine_embedding_loss": ([(3, 4), (3, 4), "sign3"], (0.1,)),
    "triplet_margin_loss": ([(3, 4), (3, 4), (3, 4)], (1.0, 2.0, 1e-6, False)),
    "poisson_nll_loss": ([(3, 4), (3, 4)], (True, False, 1e-8)),
}


def _loss_inputs(lib, name):
    rng = np.random.default_rng(3)
    arrs = []
    for shape in LOSSES[name][0]:
        if shape == "sign":
            arrs.append(np.array([[1.0], [-1.0], [1.0]], np.float32) * np.ones((3, 4)))
        elif shape == "sign3":
            arrs.append(np.array([1.0, -1.0, 1.0]))
        else:
            arrs.append(rng.standard_normal(shape))
    if LOSSES[name][0][1] == (3, 4) and name != "triplet_margin_loss":
        arrs[1] = np.abs(arrs[1]) / 4  # a target in [0, 1]
    return [lib.tensor(a.astype(np.float32), requires_grad=i == 0) for i, a in enumerate(arrs)]


@pytest.mark.parametrize("name,reduction", [
    (name, reduction) for name in sorted(LOSSES) for reduction in (0, 1, 2, 3, -1, "default")
    if not (name == "poisson_nll_loss" and reduction == "default")])  # (it has no default)
def test_integer_reductions_like_torch(name, reduction):
    """0 none, 1 mean, 2 sum, any other int none; left out: none (PyTorch's binding reads the
    schema's ``reduction=Mean`` as 0)."""
    rest = LOSSES[name][1]
    outs = []
    for lib in (minitorch, torch):
        inputs = _loss_inputs(lib, name)
        args = (*inputs, *rest) + (() if reduction == "default" else (reduction,))
        out = getattr(lib, name)(*args)
        out.sum().backward()
        outs.append((out.detach().numpy(), inputs[0].grad.numpy(), out.grad_fn.name()))
    assert outs[0][0].shape == outs[1][0].shape
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-5, atol=1e-6)
    assert outs[0][2] == outs[1][2]


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("reduction", ["mean", 1.0, True, None])
def test_reduction_must_be_an_int(name, reduction):
    for lib in (minitorch, torch):
        with pytest.raises(TypeError, match="reduction"):
            getattr(lib, name)(*_loss_inputs(lib, name), *LOSSES[name][1], reduction)


def test_kl_div_no_warning_and_log_target_keyword_only():
    x = np.log(np.array([[0.2, 0.8], [0.5, 0.5]], np.float32))
    for lib in (minitorch, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # F.kl_div warns about 'mean'; torch.kl_div does not
            lib.kl_div(lib.tensor(x), lib.tensor(x), 1)
        with pytest.raises(TypeError):
            lib.kl_div(lib.tensor(x), lib.tensor(x), 1, True)
        assert float(lib.kl_div(lib.tensor(x), lib.tensor(x), 2, log_target=True)) == 0


# ------------------------------------------------------------------ gradients
@pytest.mark.parametrize("p", [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("inf")])
def test_pdist_gradcheck(p):
    x = minitorch.tensor(np.random.default_rng(4).standard_normal((5, 3)), requires_grad=True)
    assert minitorch.autograd.gradcheck(lambda t: minitorch.pdist(t, p), (x,))
    assert minitorch.autograd.gradcheck(lambda t: F.pdist(t, p), (x,))
    if p not in (0.0, 0.5):  # (0.5: |diff| ** -0.5 is too steep for finite differences)
        # (PyTorch has no second derivative of pdist or cdist: finite differences are the
        # only oracle)
        y = minitorch.tensor(np.random.default_rng(6).standard_normal((4, 3)),
                             requires_grad=True)
        assert minitorch.autograd.gradgradcheck(lambda t: minitorch.pdist(t, p), (x,))
        assert minitorch.autograd.gradgradcheck(lambda a, b: minitorch.cdist(a, b, p), (x, y))


def test_pdist_gradient_at_ties_like_torch():
    """Equal rows (distance 0) and equal coordinates give 0 where PyTorch gives 0."""
    arr = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    for p in (0.5, 1.0, 2.0, 3.0, float("inf")):
        grads = []
        for lib in (minitorch, torch):
            x = lib.tensor(arr, requires_grad=True)
            lib.pdist(x, p).backward(lib.arange(1.0, 7.0, dtype=lib.float64))
            grads.append(x.grad.numpy())
        np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("groups", [1, 2, 3, 6])
def test_channel_shuffle_gradcheck(groups):
    x = minitorch.tensor(np.random.default_rng(5).standard_normal((2, 6, 3)),
                         requires_grad=True)
    assert minitorch.autograd.gradcheck(lambda t: F.channel_shuffle(t, groups), (x,))
    assert minitorch.autograd.gradgradcheck(lambda t: F.channel_shuffle(t, groups), (x,))


def test_native_channel_shuffle_backward_raises_like_torch():
    for lib in (minitorch, torch):
        y = lib.native_channel_shuffle(lib.ones(1, 4, 2, requires_grad=True), 2)
        assert y.grad_fn.name() == "torch::autograd::NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::native_channel_shuffle"):
            y.sum().backward()


@pytest.mark.parametrize(("name", "gates"), [("rnn_tanh_cell", 1), ("rnn_relu_cell", 1),
                                             ("lstm_cell", 4), ("gru_cell", 3)])
def test_cell_gradcheck(name, gates):
    rng = np.random.default_rng(7)
    args = [minitorch.tensor(rng.standard_normal(s), requires_grad=True)
            for s in ((2, 3), (2, 4), (4 * gates, 3), (4 * gates, 4), (4 * gates,), (4 * gates,))]

    def cell(x, h, *rest):
        out = getattr(minitorch, name)(x, (h, h * 0.5) if name == "lstm_cell" else h, *rest)
        return out if isinstance(out, tuple) else (out,)
    assert minitorch.autograd.gradcheck(cell, tuple(args))
    assert minitorch.autograd.gradgradcheck(cell, tuple(args))


@pytest.mark.parametrize("module", ["nn._aten", "nn.functional", "ops.linalg"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"minitorch.{module}"),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


# ------------------------------------------------------------------ nn.ChannelShuffle
def test_channel_shuffle_module_like_torch():
    x = np.arange(2 * 6 * 2, dtype=np.float32).reshape(2, 6, 2)
    outs = []
    for lib in (minitorch, torch):
        m = lib.nn.ChannelShuffle(3)
        t = lib.tensor(x, requires_grad=True)
        y = m(t)
        (y * lib.arange(24.0).reshape(2, 6, 2)).sum().backward()
        outs.append((repr(m), m.groups, y.detach().numpy(), t.grad.numpy(), y.grad_fn.name(),
                     list(m.state_dict())))
    assert outs[0][:2] == outs[1][:2]
    np.testing.assert_array_equal(outs[0][2], outs[1][2])
    np.testing.assert_array_equal(outs[0][3], outs[1][3])
    assert outs[0][4:] == outs[1][4:]

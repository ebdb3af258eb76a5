"""The loss modules added with ``nn/_margin_loss.py`` (CosineEmbeddingLoss, MarginRankingLoss,
HingeEmbeddingLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss,
MultiLabelMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss, GaussianNLLLoss,
PoissonNLLLoss) against PyTorch: constructor signatures and defaults, attributes, reprs,
buffers, outputs, gradients, node names and constructor errors; the third derivative of
soft_margin_loss; and Hypothesis-drawn shapes for the multi-class margins. The functions
themselves (every family of inputs, reductions, errors, graphs, second derivatives) are
compared in test_opinfo.py through ``_opinfo_samples.OPS``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch
from minitorch import nn

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

_rng = np.random.default_rng(7)
X = _rng.standard_normal((3, 4)).astype(np.float32)
Y = _rng.standard_normal((3, 4)).astype(np.float32)
SIGNS = np.where(Y > 0, 1.0, -1.0).astype(np.float32)
CLASSES = np.array([0, 3, 1])
LABELS = np.array([[0, 1, -1, 0], [3, -1, 0, 0], [2, 3, 0, -1]])
W = np.array([0.5, 1.0, 2.0, 0.25], np.float32)


def _t(lib, arr, grad=False):
    t = lib.tensor(arr)
    return t.requires_grad_() if grad else t


# (name, constructor kwargs, inputs: "x" the scored tensor that gets a gradient, else arrays)
CASES = [
    ("CosineEmbeddingLoss", {}, ("x", Y, SIGNS[:, 0])),
    ("CosineEmbeddingLoss", {"margin": 0.2, "reduction": "sum"}, ("x", Y, -SIGNS[:, 1])),
    ("MarginRankingLoss", {}, ("x", Y, SIGNS)),
    ("MarginRankingLoss", {"margin": 0.5, "reduction": "none"}, ("x", Y, SIGNS)),
    ("HingeEmbeddingLoss", {}, ("x", SIGNS)),
    ("HingeEmbeddingLoss", {"margin": 2.0, "size_average": False}, ("x", SIGNS)),
    ("SoftMarginLoss", {}, ("x", SIGNS)),
    ("SoftMarginLoss", {"reduce": False}, ("x", SIGNS)),
    ("MultiLabelSoftMarginLoss", {}, ("x", (Y > 0).astype(np.float32))),
    ("MultiLabelSoftMarginLoss", {"weight": W, "reduction": "none"},
     ("x", (Y > 0).astype(np.float32))),
    ("MultiMarginLoss", {}, ("x", CLASSES)),
    ("MultiMarginLoss", {"p": 2, "margin": 0.7, "weight": W, "reduction": "sum"},
     ("x", CLASSES)),
    ("MultiLabelMarginLoss", {}, ("x", LABELS)),
    ("MultiLabelMarginLoss", {"reduction": "none"}, ("x", LABELS)),
    ("TripletMarginLoss", {}, ("x", Y, Y[::-1].copy())),
    ("TripletMarginLoss", {"margin": 0.5, "p": 1.0, "eps": 0.0, "swap": True},
     ("x", Y, Y[::-1].copy())),
    ("TripletMarginWithDistanceLoss", {}, ("x", Y, Y[::-1].copy())),
    ("TripletMarginWithDistanceLoss", {"margin": 2.0, "swap": True, "reduction": "none"},
     ("x", Y, Y[::-1].copy())),
    ("GaussianNLLLoss", {}, ("x", Y, np.abs(Y[:, 0]) + 0.1)),
    ("GaussianNLLLoss", {"full": True, "eps": 0.5, "reduction": "sum"},
     ("x", Y, np.abs(Y) + 0.1)),
    ("PoissonNLLLoss", {}, ("x", np.abs(Y).round())),
    ("PoissonNLLLoss", {"log_input": False, "full": True, "eps": 0.1, "reduction": "none"},
     ("x2", np.abs(Y).round())),
]


def _ids(case):
    name, kw, _ = case
    return name + "".join(f"-{k}" for k in kw)


def _build(lib, name, kw):
    kw = {k: (lib.tensor(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    return getattr(lib.nn, name)(**kw)


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_loss_module_matches_torch(case):
    name, kw, inputs = case
    results = []
    for lib in (minitorch, torch):
        module = _build(lib, name, kw)
        x = lib.tensor(X if inputs[0] == "x" else np.abs(X) + 0.1, requires_grad=True)
        loss = module(x, *(lib.tensor(a) for a in inputs[1:]))
        loss.backward(lib.ones_like(loss) * 0.75)
        results.append((repr(module), loss.detach().numpy(), x.grad.numpy(),
                        loss.grad_fn.name(), list(dict(module.named_buffers())),
                        {k: v for k, v in vars(module).items() if not k.startswith("_")}))
    (rep, out, grad, node, buffers, attrs), (rep_t, out_t, grad_t, node_t, buffers_t,
                                             attrs_t) = results
    assert rep == rep_t
    np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-6)
    assert out.shape == out_t.shape and out.dtype == out_t.dtype
    np.testing.assert_allclose(grad, grad_t, rtol=1e-5, atol=1e-6)
    assert node == node_t
    assert buffers == buffers_t
    assert {k: v for k, v in attrs.items() if k != "training"} == \
        {k: v for k, v in attrs_t.items() if k != "training"}


# every loss module of torch.nn that minitorch has (all but LinearCrossEntropyLoss, a layer with
# weights of its own), and their functions; AdaptiveLogSoftmaxWithLoss, also a layer with
# weights (built from its sizes), is tested in test_nn_misc_parity.py
NAMES = sorted(n for n in dir(torch.nn) if n.endswith("Loss") and hasattr(nn, n)
               and n != "AdaptiveLogSoftmaxWithLoss")
FUNCTIONS = sorted(n for n in dir(torch.nn.functional) if n.endswith("loss")
                   or n in ("cross_entropy", "binary_cross_entropy", "kl_div",
                            "binary_cross_entropy_with_logits"))


def test_every_loss_is_there():
    missing = {n for n in dir(torch.nn) if n.endswith("Loss") and not hasattr(nn, n)}
    assert missing == {"LinearCrossEntropyLoss"}
    assert set(FUNCTIONS) <= set(dir(nn.functional)), set(FUNCTIONS) - set(dir(nn.functional))


@pytest.mark.parametrize("name", NAMES)
def test_loss_signatures_and_reprs_match_torch(name):
    """The constructor's and forward's parameters, defaults and kinds; the default repr and
    attributes."""
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]
    assert params(getattr(nn, name).__init__) == params(getattr(torch.nn, name).__init__)
    assert params(getattr(nn, name).forward) == params(getattr(torch.nn, name).forward)
    mine, ref = getattr(nn, name)(), getattr(torch.nn, name)()
    assert repr(mine) == repr(ref)
    assert {k: v for k, v in vars(mine).items() if not k.startswith("_")}.keys() == \
        {k: v for k, v in vars(ref).items() if not k.startswith("_")}.keys()


@pytest.mark.parametrize("name", FUNCTIONS)
def test_functional_signatures_match_torch(name):
    def params(fn):
        return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]
    assert params(getattr(nn.functional, name)) == params(getattr(torch.nn.functional, name))


ERRORS = [
    ("MultiMarginLoss", {"p": 3}),
    ("MultiMarginLoss", {"weight": np.ones((4, 1), np.float32)}),
    ("TripletMarginLoss", {"margin": 0.0}),
    ("TripletMarginLoss", {"margin": -1}),
    ("TripletMarginWithDistanceLoss", {"margin": 0}),
]


@pytest.mark.parametrize("case", ERRORS, ids=[_ids((*c, None)) for c in ERRORS])
def test_constructor_errors_match_torch(case):
    name, kw = case
    raised = []
    for lib in (minitorch, torch):
        with pytest.raises(Exception) as info:
            _build(lib, name, kw)
        raised.append((type(info.value), str(info.value)))
    assert raised[0] == raised[1]


def test_losses_in_a_model_print_and_move_like_torch():
    """A module holding the losses: the repr (TripletMarginWithDistanceLoss's distance is a
    submodule), the buffers in state_dict, and .double() converting the class weights."""
    def build(lib):
        return lib.nn.ModuleDict({
            "rank": lib.nn.MarginRankingLoss(0.1), "multi": lib.nn.MultiMarginLoss(
                p=2, weight=lib.tensor(W)),
            "soft": lib.nn.MultiLabelSoftMarginLoss(weight=lib.tensor(W)),
            "triplet": lib.nn.TripletMarginWithDistanceLoss(
                distance_function=lib.nn.PairwiseDistance(p=1.0), swap=True),
            "default": lib.nn.TripletMarginWithDistanceLoss(),
            "gauss": lib.nn.GaussianNLLLoss(full=True)})
    mine, ref = build(minitorch), build(torch)
    assert repr(mine) == repr(ref)
    assert list(mine.state_dict()) == list(ref.state_dict())
    mine.double()
    ref.double()
    assert str(mine["multi"].weight.dtype) == str(ref["multi"].weight.dtype)
    x = np.linspace(-2, 2, 12).reshape(3, 4)
    for lib, m in ((minitorch, mine), (torch, ref)):
        m.out = m["multi"](lib.tensor(x), lib.tensor(CLASSES)).item()
    assert mine.out == pytest.approx(ref.out, rel=1e-12)


def test_triplet_with_a_lambda_distance_matches_torch():
    outs = []
    for lib in (minitorch, torch):
        a = lib.tensor(X, requires_grad=True)
        loss = lib.nn.TripletMarginWithDistanceLoss(
            distance_function=lambda u, v, fn=lib.nn.functional: 1.0 - fn.cosine_similarity(u, v),
            margin=0.5)(a, lib.tensor(Y), lib.tensor(Y[::-1].copy()))
        loss.backward()
        outs.append((loss.item(), a.grad.numpy()))
    assert outs[0][0] == pytest.approx(outs[1][0], rel=1e-6)
    np.testing.assert_allclose(outs[0][1], outs[1][1], rtol=1e-5, atol=1e-7)


def test_soft_margin_third_derivative_matches_torch():
    """The second derivative of soft_margin_loss is itself differentiable (its backward is
    written in tensor operations): the third derivative matches torch's."""
    x64 = _rng.standard_normal((2, 3))
    y64 = _rng.standard_normal((2, 3))
    thirds = []
    for lib in (minitorch, torch):
        x = lib.tensor(x64, requires_grad=True)
        loss = lib.nn.functional.soft_margin_loss(x, lib.tensor(y64), reduction="sum")
        (g,) = lib.autograd.grad(loss, x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, create_graph=True)
        assert gg.grad_fn is not None
        (ggg,) = lib.autograd.grad((gg * gg).sum(), x)
        thirds.append(ggg.numpy())
    np.testing.assert_allclose(thirds[0], thirds[1], rtol=1e-10, atol=1e-12)


def test_new_losses_pass_gradgradcheck():
    """Second derivatives against finite differences (float64), for the losses whose
    gradient PyTorch differentiates again."""
    from minitorch.autograd import gradcheck, gradgradcheck

    F = nn.functional
    x = minitorch.tensor(_rng.standard_normal((3, 4)), requires_grad=True)
    y = minitorch.tensor(_rng.standard_normal((3, 4)), requires_grad=True)
    v = minitorch.tensor(_rng.random((3, 4)) + 0.5, requires_grad=True)
    signs = minitorch.tensor(SIGNS.astype(np.float64))
    cases = [
        (lambda a: F.soft_margin_loss(a, signs), (x,)),
        (lambda a: F.multilabel_soft_margin_loss(a, (signs + 1) / 2), (x,)),
        (lambda a, b: F.cosine_embedding_loss(a, b, signs[:, 0], margin=-0.5), (x, y)),
        (lambda a, b: F.hinge_embedding_loss(a * b, signs, margin=0.5), (x, y)),
        (lambda a, b: F.triplet_margin_loss(a, b, b.flip(0), p=3, swap=True), (x, y)),
        (lambda a, b, c: F.gaussian_nll_loss(a, b, c, full=True), (x, y, v)),
        (lambda a, c: F.poisson_nll_loss(a, c, full=True), (x, v)),
        (lambda c, a: F.poisson_nll_loss(c, a.abs(), log_input=False), (v, x)),
    ]
    for fn, inputs in cases:
        assert gradcheck(fn, inputs)
        assert gradgradcheck(fn, inputs)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 4), c=st.integers(1, 5), p=st.sampled_from([1, 2]),
       margin=st.floats(-1.0, 2.0), seed=st.integers(0, 2**16),
       reduction=st.sampled_from(["none", "sum", "mean"]))
def test_multi_margin_losses_on_drawn_shapes(n, c, p, margin, seed, reduction):
    """multi_margin_loss and multilabel_margin_loss on random shapes, classes and label lists
    (values and gradients against torch; an empty batch only unreduced: PyTorch 2.13 returns
    uninitialised memory for its mean or sum)."""
    if n == 0 and reduction != "none":
        return
    rng = np.random.default_rng(seed)
    x64 = rng.standard_normal((n, c))
    classes = rng.integers(0, c, n)
    labels = np.full((n, c), -1)
    for row in labels:
        k = rng.integers(0, c + 1)
        row[:k] = rng.integers(0, c, k)
    weight = rng.random(c) + 0.1
    results = []
    for lib in (minitorch, torch):
        F = lib.nn.functional
        x = lib.tensor(x64, requires_grad=True)
        one = F.multi_margin_loss(x, lib.tensor(classes), p=p, margin=margin,
                                  weight=lib.tensor(weight), reduction=reduction)
        two = F.multilabel_margin_loss(x, lib.tensor(labels), reduction=reduction)
        (g,) = lib.autograd.grad((one * 1.5).sum() + (two * 0.5).sum(), x)
        results.append((one.detach().numpy(), two.detach().numpy(), g.numpy()))
    for mine, ref in zip(*results):
        assert mine.shape == ref.shape
        np.testing.assert_allclose(mine, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kw", [{"size_average": False}, {"reduce": False},
                                {"size_average": True, "reduce": True}])
@pytest.mark.parametrize("name", ["MSELoss", "NLLLoss", "SoftMarginLoss", "PoissonNLLLoss"])
def test_deprecated_reduction_arguments_warn_like_torch(name, kw):
    """size_average/reduce: PyTorch's deprecation warning, in the module and the function."""
    fn = {"MSELoss": "mse_loss", "NLLLoss": "nll_loss", "SoftMarginLoss": "soft_margin_loss",
          "PoissonNLLLoss": "poisson_nll_loss"}[name]
    target = CLASSES if name == "NLLLoss" else SIGNS
    messages = []
    for lib in (minitorch, torch):
        with pytest.warns(UserWarning) as caught:
            module = getattr(lib.nn, name)(**kw)
            getattr(lib.nn.functional, fn)(lib.tensor(X), lib.tensor(target), **kw)
        messages.append([str(w.message) for w in caught])
        messages.append(module.reduction)
    assert messages[0] == messages[2] and messages[1] == messages[3]


@pytest.mark.parametrize("kw", [{}, {"blank": 3, "reduction": "sum"},
                                {"zero_infinity": True, "reduction": "none"}])
def test_ctc_loss_module_matches_torch(kw):
    lp = _rng.standard_normal((7, 3, 5)).astype(np.float32)
    targets = np.array([[1, 2, 2, 0], [2, 1, 4, 2], [0, 0, 0, 0]]) % (3 if kw.get("blank") else 5)
    results = []
    for lib in (minitorch, torch):
        module = lib.nn.CTCLoss(**kw)
        x = lib.tensor(lp, requires_grad=True)
        loss = module(x.log_softmax(2), lib.tensor(targets), lib.tensor([7, 6, 1]),
                      lib.tensor([3, 4, 2]))
        loss.backward(lib.ones_like(loss))
        results.append((repr(module), loss.detach().numpy(), x.grad.numpy(), loss.grad_fn.name(),
                        module.blank, module.zero_infinity, module.reduction))
    (rep, out, grad, *rest), (rep_t, out_t, grad_t, *rest_t) = results
    assert rep == rep_t and rest == rest_t
    np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-5, atol=1e-6)


@settings(max_examples=30, deadline=None)
@given(steps=st.integers(1, 8), batch=st.integers(1, 3), classes=st.integers(2, 5),
       seed=st.integers(0, 2**16), concatenated=st.booleans())
def test_ctc_loss_on_drawn_alignments(steps, batch, classes, seed, concatenated):
    """Random lengths and labels (repeats, impossible targets, empty ones, any blank):
    each sample's loss and the gradient, in float64, against torch."""
    rng = np.random.default_rng(seed)
    blank = int(rng.integers(0, classes))
    lp = rng.standard_normal((steps, batch, classes))
    input_lengths = rng.integers(1, steps + 1, batch)
    target_lengths = rng.integers(0, steps + 1, batch)
    others = [c for c in range(classes) if c != blank]
    labels = [rng.choice(others, n) for n in target_lengths]
    if concatenated:
        targets = np.concatenate(labels).astype(np.int64)
    else:
        targets = np.zeros((batch, max(target_lengths)), np.int64)
        for row, lab in zip(targets, labels):
            row[:len(lab)] = lab
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor(lp, requires_grad=True)
        loss = lib.nn.functional.ctc_loss(x.log_softmax(2), lib.tensor(targets),
                                          lib.tensor(input_lengths), lib.tensor(target_lengths),
                                          blank=blank, reduction="none", zero_infinity=True)
        (g,) = lib.autograd.grad((loss * lib.arange(1.0, batch + 1)).sum(), x)
        results.append((loss.detach().numpy(), g.numpy()))
    for mine, ref in zip(*results):
        np.testing.assert_allclose(mine, ref, rtol=1e-9, atol=1e-12)


def test_nll_loss_2d_is_deprecated_like_torch():
    caught = []
    for lib in (minitorch, torch):
        with pytest.warns(FutureWarning) as record:
            module = lib.nn.NLLLoss2d(ignore_index=1, reduction="sum")
        caught.append(([str(w.message) for w in record], repr(module), module.ignore_index,
                       module.reduction, isinstance(module, lib.nn.NLLLoss)))
    assert caught[0] == caught[1]


def test_gradients_without_a_derivative_are_recorded_as_in_torch():
    """multi_margin_loss, multilabel_margin_loss and ctc_loss: with create_graph=True the
    gradient is recorded under PyTorch's NotImplemented node, whose backward raises
    PyTorch's error; soft_margin_loss's gradient is an operation of its own."""
    calls = {
        "multi_margin_loss": lambda lib, x: lib.nn.functional.multi_margin_loss(
            x, lib.tensor(CLASSES)),
        "multilabel_margin_loss": lambda lib, x: lib.nn.functional.multilabel_margin_loss(
            x, lib.tensor(LABELS)),
        "soft_margin_loss": lambda lib, x: lib.nn.functional.soft_margin_loss(
            x, lib.tensor(SIGNS)),
        "ctc_loss": lambda lib, x: lib.nn.functional.ctc_loss(
            x[:, None].log_softmax(2), lib.tensor([[1, 2]]), [3], [2]),
    }
    for name, call in calls.items():
        found = []
        for lib in (minitorch, torch):
            x = lib.tensor(X.astype(np.float64), requires_grad=True)
            (g,) = lib.autograd.grad(call(lib, x), x, create_graph=True)
            try:
                (gg,) = lib.autograd.grad(g.sum(), x)
                error = gg.numpy()
            except RuntimeError as e:
                error = str(e)
            found.append((g.grad_fn.name(), error))
        assert found[0][0] == found[1][0], name
        if isinstance(found[1][1], str):
            assert found[0][1] == found[1][1], name
        else:
            np.testing.assert_allclose(found[0][1], found[1][1], rtol=1e-10, atol=1e-12)

"""minitorch.nn against PyTorch: layers, losses, Module API, printing, init, gradients.

Every layer test builds the same layer in both libraries, copies PyTorch's weights into
minitorch through ``load_state_dict``, and compares the forward output, the gradient of the
input and of every parameter, and the name of the graph node.
"""

from __future__ import annotations

import math
import re
import sys
import time
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import minitorch as mt
import minitorch.nn.functional as F

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny matrices: one BLAS thread (NumPy and PyTorch) is faster and steadier."""
    from minitorch.utils.threads import set_num_threads

    previous, previous_torch = set_num_threads(1), torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    set_num_threads(previous)
    torch.set_num_threads(previous_torch)
TF = torch.nn.functional

F32 = {"rtol": 1e-4, "atol": 1e-5}
F64 = {"rtol": 1e-9, "atol": 1e-10}


# ---------------------------------------------------------------------------------- helpers
def both(array, requires_grad=False):
    """The same values as a torch tensor and a minitorch tensor."""
    array = np.asarray(array)
    return (torch.tensor(array, requires_grad=requires_grad),
            mt.tensor(array, requires_grad=requires_grad))


def close(mine, ref, **tol):
    a = None if mine is None else np.asarray(mine.detach().numpy())
    b = None if ref is None else np.asarray(ref.detach().numpy())
    assert (a is None) == (b is None), f"{a!r} vs {b!r}"
    if a is None:
        return
    assert a.shape == b.shape, f"shape {a.shape} != {b.shape}"
    assert str(mine.dtype) == str(ref.dtype), f"dtype {mine.dtype} != {ref.dtype}"
    np.testing.assert_allclose(a, b, equal_nan=True, **(tol or F32))


def copy_weights(src_torch, dst_mt) -> None:
    """Load a torch module's state_dict into the minitorch module (strict)."""
    dst_mt.load_state_dict({k: mt.tensor(v.detach().numpy().copy())
                            for k, v in src_torch.state_dict().items()})


def run_both(make, x_shape, seed=0, dtype=np.float32, train=True, x_values=None):
    """Build ``make(lib)`` in both libraries with equal weights, run forward and backward.

    Returns (torch_module, mt_module, torch_out, mt_out, torch_x, mt_x).
    """
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tm, mm = make(torch), make(mt)
    if dtype == np.float64:
        tm, mm = tm.double(), mm.double()
    copy_weights(tm, mm)
    tm.train(train)
    mm.train(train)
    x = rng.standard_normal(x_shape).astype(dtype) if x_values is None else x_values
    tx, mx = both(x, requires_grad=np.asarray(x).dtype.kind == "f")
    tout, mout = tm(tx), mm(mx)
    g = rng.standard_normal(tuple(tout.shape)).astype(np.asarray(tout.detach()).dtype)
    tout.backward(torch.tensor(g))
    mout.backward(mt.tensor(g))
    return tm, mm, tout, mout, tx, mx


def assert_same_run(tm, mm, tout, mout, tx, mx, tol=None):
    tol = tol or F32
    close(mout, tout, **tol)
    if tx.requires_grad:
        close(mx.grad, tx.grad, **tol)
    tp, mp = dict(tm.named_parameters()), dict(mm.named_parameters())
    assert list(tp) == list(mp)
    for name in tp:
        close(mp[name].grad, tp[name].grad, **tol)
    tname = tout.grad_fn.name() if tout.grad_fn is not None else None
    mname = mout.grad_fn.name() if mout.grad_fn is not None else None
    assert mname == tname


def same_error(fn_torch, fn_mt):
    """Both raise the same exception type with the same message."""
    with pytest.raises(Exception) as et:
        fn_torch()
    with pytest.raises(Exception) as em:
        fn_mt()
    assert type(em.value).__name__ == type(et.value).__name__, (em.value, et.value)
    assert str(em.value) == str(et.value)


# ---------------------------------------------------------------------------------- layers
LAYERS = [
    ("linear-2d", lambda lib: lib.nn.Linear(5, 3), (4, 5)),
    ("linear-1d", lambda lib: lib.nn.Linear(5, 3), (5,)),
    ("linear-3d", lambda lib: lib.nn.Linear(5, 3), (2, 4, 5)),
    ("linear-nobias", lambda lib: lib.nn.Linear(5, 3, bias=False), (4, 5)),
    ("linear-nobias-3d", lambda lib: lib.nn.Linear(5, 3, bias=False), (2, 4, 5)),
    ("conv", lambda lib: lib.nn.Conv2d(3, 4, 3), (2, 3, 7, 7)),
    ("conv-stride-pad", lambda lib: lib.nn.Conv2d(3, 4, 3, stride=2, padding=1), (2, 3, 8, 9)),
    ("conv-rect", lambda lib: lib.nn.Conv2d(2, 3, (3, 2), stride=(2, 1), padding=(1, 0)),
     (2, 2, 7, 6)),
    ("conv-dilation", lambda lib: lib.nn.Conv2d(2, 3, 3, dilation=2, padding=2), (1, 2, 9, 9)),
    ("conv-same", lambda lib: lib.nn.Conv2d(2, 3, 5, padding="same"), (2, 2, 6, 6)),
    ("conv-nobias", lambda lib: lib.nn.Conv2d(1, 2, 5, bias=False), (2, 1, 8, 8)),
    ("conv-unbatched", lambda lib: lib.nn.Conv2d(3, 2, 3), (3, 5, 5)),
    ("maxpool", lambda lib: lib.nn.MaxPool2d(2), (2, 3, 8, 8)),
    ("maxpool-odd", lambda lib: lib.nn.MaxPool2d(3, stride=2, padding=1), (2, 3, 9, 7)),
    ("maxpool-ceil", lambda lib: lib.nn.MaxPool2d(2, ceil_mode=True), (1, 2, 5, 5)),
    ("maxpool-overlap", lambda lib: lib.nn.MaxPool2d(3, stride=1), (1, 2, 6, 6)),
    ("maxpool-unbatched", lambda lib: lib.nn.MaxPool2d(2), (3, 6, 6)),
    ("avgpool", lambda lib: lib.nn.AvgPool2d(2), (2, 3, 8, 8)),
    ("avgpool-pad", lambda lib: lib.nn.AvgPool2d(3, stride=2, padding=1), (2, 3, 9, 7)),
    ("avgpool-nopadcount", lambda lib: lib.nn.AvgPool2d(3, 2, 1, count_include_pad=False),
     (1, 2, 7, 7)),
    ("avgpool-ceil", lambda lib: lib.nn.AvgPool2d(2, ceil_mode=True), (1, 2, 5, 5)),
    ("flatten", lambda lib: lib.nn.Flatten(), (2, 3, 4, 5)),
    ("flatten-range", lambda lib: lib.nn.Flatten(0, 2), (2, 3, 4, 5)),
    ("relu", lambda lib: lib.nn.ReLU(), (3, 4)),
    ("leaky-relu", lambda lib: lib.nn.LeakyReLU(0.2), (3, 4)),
    ("sigmoid", lambda lib: lib.nn.Sigmoid(), (3, 4)),
    ("tanh", lambda lib: lib.nn.Tanh(), (3, 4)),
    ("softmax", lambda lib: lib.nn.Softmax(dim=1), (3, 4)),
    ("softmax-dim0", lambda lib: lib.nn.Softmax(dim=0), (3, 4)),
    ("logsoftmax", lambda lib: lib.nn.LogSoftmax(dim=-1), (2, 3, 4)),
    ("identity", lambda lib: lib.nn.Identity(), (3, 4)),
    ("batchnorm1d", lambda lib: lib.nn.BatchNorm1d(4), (6, 4)),
    ("batchnorm1d-3d", lambda lib: lib.nn.BatchNorm1d(3), (4, 3, 5)),
    ("batchnorm1d-noaffine", lambda lib: lib.nn.BatchNorm1d(4, affine=False), (6, 4)),
    ("batchnorm2d", lambda lib: lib.nn.BatchNorm2d(3), (2, 3, 4, 4)),
    ("sequential", lambda lib: lib.nn.Sequential(
        lib.nn.Conv2d(1, 4, 3, padding=1), lib.nn.ReLU(), lib.nn.MaxPool2d(2), lib.nn.Flatten(),
        lib.nn.Linear(4 * 4 * 4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 3)), (5, 1, 8, 8)),
]


@pytest.mark.parametrize("make,shape", [(m, s) for _, m, s in LAYERS],
                         ids=[n for n, _, _ in LAYERS])
def test_layer_matches_torch(make, shape):
    assert_same_run(*run_both(make, shape))


@pytest.mark.parametrize("make,shape", [(m, s) for _, m, s in LAYERS],
                         ids=[n for n, _, _ in LAYERS])
def test_layer_matches_torch_float64(make, shape):
    assert_same_run(*run_both(make, shape, seed=1, dtype=np.float64), tol=F64)


@pytest.mark.parametrize("call", ["F.batch_norm", "torch.batch_norm"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("given", ["mean", "var"])
def test_batch_norm_with_one_running_statistic_raises_as_torch(call, training, given):
    def run(lib):
        x, stat = lib.ones(3, 2), lib.zeros(2) if given == "mean" else lib.ones(2)
        mean, var = (stat, None) if given == "mean" else (None, stat)
        try:
            if call == "F.batch_norm":
                lib.nn.functional.batch_norm(x, mean, var, training=training)
            else:
                lib.batch_norm(x, None, None, mean, var, training, 0.1, 1e-5, False)
        except Exception as error:  # (the class and message are compared)
            return type(error).__name__, str(error)
        return "no error"

    assert run(mt) == run(torch)


@pytest.mark.parametrize("make,shape", [
    (lambda lib: lib.nn.BatchNorm1d(4), (6, 4)),
    (lambda lib: lib.nn.BatchNorm2d(3, momentum=0.3), (2, 3, 4, 4)),
    (lambda lib: lib.nn.BatchNorm1d(4, momentum=None), (6, 4)),
])
def test_batchnorm_running_stats_and_eval(make, shape):
    tm, mm, *_ = run_both(make, shape)
    for _ in range(2):  # a few more training batches update the running estimates
        x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
        tm(torch.tensor(x))
        mm(mt.tensor(x))
    for key, value in tm.state_dict().items():
        close(mm.state_dict()[key], value)
    # evaluation mode uses the running estimates
    assert_same_run(*run_both(make, shape, train=False))


def test_embedding_matches_torch():
    for padding_idx in (None, 0):
        idx = np.array([[1, 2, 0], [2, 2, 4]])
        torch.manual_seed(0)
        te = torch.nn.Embedding(5, 3, padding_idx=padding_idx)
        me = mt.nn.Embedding(5, 3, padding_idx=padding_idx)
        copy_weights(te, me)
        to, mo = te(torch.tensor(idx)), me(mt.tensor(idx))
        g = np.random.default_rng(0).standard_normal((2, 3, 3)).astype(np.float32)
        to.backward(torch.tensor(g))
        mo.backward(mt.tensor(g))
        close(mo, to)
        close(me.weight.grad, te.weight.grad)
        assert mo.grad_fn.name() == to.grad_fn.name() == "EmbeddingBackward0"
        assert len(mo.grad_fn.next_functions) == len(to.grad_fn.next_functions) == 1
    assert float(mt.nn.Embedding(4, 2, padding_idx=1).weight[1].abs().sum()) == 0.0


def test_dropout():
    x = mt.ones(200, 100)
    mt.manual_seed(0)
    drop = mt.nn.Dropout(0.3)
    y = drop(x)
    zeros = float((y == 0).float().mean())
    assert abs(zeros - 0.3) < 0.02
    kept = y[y != 0]
    assert np.allclose(kept.numpy(), 1 / 0.7)
    assert abs(float(y.mean()) - 1.0) < 0.05  # the scaling keeps the expected value
    drop.eval()
    assert drop(x) is x
    assert F.dropout(x, 1.0).abs().sum().item() == 0
    w = mt.ones(3, requires_grad=True)
    out = F.dropout(w, 0.5)
    assert out.grad_fn.name() == "MulBackward0"
    out.sum().backward()
    assert set(np.unique(w.grad.numpy())) <= {0.0, 2.0}
    same_error(lambda: torch.nn.Dropout(1.5), lambda: mt.nn.Dropout(1.5))


def test_one_hot_and_functional_extras():
    t, m = both(np.array([0, 2, 1]))
    assert F.one_hot(m).tolist() == TF.one_hot(t).tolist()
    assert F.one_hot(m, 5).tolist() == TF.one_hot(t, 5).tolist()
    assert F.one_hot(m).dtype == mt.int64
    for bad in (lambda lib: lib.nn.functional.one_hot(lib.tensor([1.0])),
                lambda lib: lib.nn.functional.one_hot(lib.tensor([-1])),
                lambda lib: lib.nn.functional.one_hot(lib.tensor([3]), 2)):
        same_error(lambda bad=bad: bad(torch), lambda bad=bad: bad(mt))
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    tx, mx = both(x)
    close(F.softmax(mx, 1), TF.softmax(tx, 1))
    close(F.log_softmax(mx, 0), TF.log_softmax(tx, 0))
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        close(F.softmax(mx), TF.softmax(tx, 1))
    close(F.leaky_relu(mx, 0.1), TF.leaky_relu(tx, 0.1))


@pytest.mark.parametrize("name", ["softmax", "log_softmax", "softmin"])
def test_implicit_dim_warning_names_the_callers_line_as_torch(name):
    # the NLP tutorials call F.log_softmax(x) without dim: the warning shows the learner's line
    places = []
    for lib in (mt, torch):
        fn = getattr(lib.nn.functional, name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            line = sys._getframe().f_lineno + 1
            fn(lib.ones(2, 3))
        places.append([(w.filename, w.lineno) for w in caught])
    assert places[0] == places[1] == [(__file__, line)]


def test_softmax_is_stable_for_large_logits():
    big = mt.tensor([[1000.0, 1000.0, -1000.0]])
    assert np.allclose(F.softmax(big, 1).numpy(), [[0.5, 0.5, 0.0]])
    assert np.allclose(F.log_softmax(big, 1).numpy()[0, :2], [-math.log(2)] * 2)
    loss = F.cross_entropy(mt.tensor([[1000.0, 0.0]]), mt.tensor([1]))
    assert math.isclose(loss.item(), 1000.0)


def test_max_pool_return_indices():
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 7))
    tx, mx = both(x)
    for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1)):
        to, ti = TF.max_pool2d(tx, return_indices=True, **kw)
        mo, mi = F.max_pool2d(mx, return_indices=True, **kw)
        close(mo, to)
        assert mi.tolist() == ti.tolist()
        assert mi.dtype == mt.int64
    tp = torch.nn.MaxPool2d(2, return_indices=True)
    mp = mt.nn.MaxPool2d(2, return_indices=True)
    assert mp(mx)[1].tolist() == tp(tx)[1].tolist()


def test_max_pool_ties_go_to_the_first_element():
    x = np.zeros((1, 1, 4, 4), dtype=np.float32)  # all ties, as after a ReLU
    x[0, 0, 3, 3] = 1.0
    tx, mx = both(x, requires_grad=True)
    TF.max_pool2d(tx, 2).sum().backward()
    F.max_pool2d(mx, 2).sum().backward()
    close(mx.grad, tx.grad)


# ---------------------------------------------------------------------------------- graphs
def test_graph_node_names_match_torch():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    w = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    tx, mx = both(x, True)
    tw, mw = both(w, True)
    tb, mb = both(b, True)
    ty, my = both(rng.standard_normal((4, 5)).astype(np.float32))

    def names(t):
        node = t.grad_fn
        return [node.name(), [None if n is None else n.name() for n, _ in node.next_functions]]

    cases = [
        (lambda lib, x, w, b, y: lib.nn.functional.linear(x, w, b)),
        (lambda lib, x, w, b, y: lib.nn.functional.linear(x, w)),
        (lambda lib, x, w, b, y: lib.nn.functional.linear(x[0], w, b)),
        (lambda lib, x, w, b, y: lib.nn.functional.linear(x[0], w)),
        (lambda lib, x, w, b, y: lib.nn.functional.mse_loss(lib.nn.functional.linear(x, w, b), y)),
        (lambda lib, x, w, b, y: lib.nn.functional.l1_loss(x, x * 2)),
        (lambda lib, x, w, b, y: lib.nn.functional.l1_loss(x, x * 2, reduction="sum")),
        (lambda lib, x, w, b, y: lib.nn.functional.cross_entropy(x, lib.tensor([0, 1, 2, 0]))),
        (lambda lib, x, w, b, y: lib.nn.functional.nll_loss(x, lib.tensor([0, 1, 2, 0]))),
        (lambda lib, x, w, b, y: lib.nn.functional.softmax(x, 1)),
        (lambda lib, x, w, b, y: lib.nn.functional.log_softmax(x, 1)),
        (lambda lib, x, w, b, y: lib.nn.functional.relu(x)),
        (lambda lib, x, w, b, y: lib.nn.functional.binary_cross_entropy(x.sigmoid(),
                                                                        y[:, :3].sigmoid())),
        (lambda lib, x, w, b, y: lib.nn.functional.binary_cross_entropy_with_logits(x, y[:, :3])),
        (lambda lib, x, w, b, y: lib.nn.functional.conv2d(x.reshape(1, 1, 4, 3),
                                                          w[:1, :2].reshape(1, 1, 1, 2), b[:1])),
        (lambda lib, x, w, b, y: lib.nn.functional.conv2d(x.reshape(1, 1, 4, 3),
                                                          w[:1, :2].reshape(1, 1, 1, 2))),
        (lambda lib, x, w, b, y: lib.nn.functional.max_pool2d(x.reshape(1, 1, 4, 3), 2)),
        (lambda lib, x, w, b, y: lib.nn.functional.avg_pool2d(x.reshape(1, 1, 4, 3), 2)),
        (lambda lib, x, w, b, y: lib.nn.functional.max_pool2d(x.reshape(1, 4, 3), 2)),
    ]
    for case in cases:
        assert names(case(mt, mx, mw, mb, my)) == names(case(torch, tx, tw, tb, ty))


# ---------------------------------------------------------------------------------- losses
REDUCTIONS = ["mean", "sum", "none"]
LOSSES = [
    ("mse", lambda lib, **kw: lib.nn.MSELoss(**kw), "float", "float"),
    ("l1", lambda lib, **kw: lib.nn.L1Loss(**kw), "float", "float"),
    ("bce", lambda lib, **kw: lib.nn.BCELoss(**kw), "prob", "prob"),
    ("bce-logits", lambda lib, **kw: lib.nn.BCEWithLogitsLoss(**kw), "float", "prob"),
    ("bce-logits-posw", lambda lib, **kw: lib.nn.BCEWithLogitsLoss(
        pos_weight=lib.tensor([1.0, 2.0, 0.5, 3.0]), **kw), "float", "prob"),
    ("ce", lambda lib, **kw: lib.nn.CrossEntropyLoss(**kw), "float", "class"),
    ("ce-weight", lambda lib, **kw: lib.nn.CrossEntropyLoss(
        weight=lib.tensor([0.5, 1.0, 2.0, 1.5]), **kw), "float", "class"),
    ("ce-ignore", lambda lib, **kw: lib.nn.CrossEntropyLoss(ignore_index=1, **kw), "float",
     "class"),
    ("ce-smooth", lambda lib, **kw: lib.nn.CrossEntropyLoss(label_smoothing=0.1, **kw),
     "float", "class"),
    ("ce-prob", lambda lib, **kw: lib.nn.CrossEntropyLoss(**kw), "float", "dist"),
    ("nll", lambda lib, **kw: lib.nn.NLLLoss(**kw), "logp", "class"),
    ("nll-weight-ignore", lambda lib, **kw: lib.nn.NLLLoss(
        weight=lib.tensor([0.5, 1.0, 2.0, 1.5]), ignore_index=2, **kw), "logp", "class"),
]


def _loss_inputs(kind, rng, shape=(6, 4)):
    if kind == "float":
        return rng.standard_normal(shape).astype(np.float32)
    if kind == "prob":
        return rng.uniform(0.05, 0.95, shape).astype(np.float32)
    if kind == "logp":
        x = rng.standard_normal(shape)
        return (x - np.log(np.exp(x).sum(1, keepdims=True))).astype(np.float32)
    if kind == "dist":
        p = rng.uniform(0.1, 1, shape)
        return (p / p.sum(1, keepdims=True)).astype(np.float32)
    return rng.integers(0, shape[1], shape[0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("make,xkind,ykind", [(m, a, b) for _, m, a, b in LOSSES],
                         ids=[n for n, *_ in LOSSES])
def test_loss_matches_torch(make, xkind, ykind, reduction):
    rng = np.random.default_rng(0)
    x = _loss_inputs(xkind, rng)
    y = _loss_inputs(ykind, rng)
    tx, mx = both(x, True)
    float_target = ykind in ("float", "prob") and xkind != "logp"
    ty, my = both(y, requires_grad=float_target and ykind != "dist")
    tl = make(torch, reduction=reduction)(tx, ty)
    ml = make(mt, reduction=reduction)(mx, my)
    close(ml, tl)
    g = rng.standard_normal(tuple(tl.shape)).astype(np.float32)
    tl.backward(torch.tensor(g))
    ml.backward(mt.tensor(g))
    close(mx.grad, tx.grad)
    if ty.requires_grad:
        close(my.grad, ty.grad)
    assert ml.grad_fn.name() == tl.grad_fn.name()


def test_loss_edge_cases():
    # log(0) is clamped at -100 in BCE, as in PyTorch
    tx, mx = both(np.array([0.0, 1.0, 0.5], dtype=np.float32), True)
    ty, my = both(np.array([1.0, 0.0, 1.0], dtype=np.float32))
    tl, ml = TF.binary_cross_entropy(tx, ty), F.binary_cross_entropy(mx, my)
    close(ml, tl)
    tl.backward()
    ml.backward()
    close(mx.grad, tx.grad)
    # all targets ignored: the mean is nan
    tx, mx = both(np.zeros((2, 3), dtype=np.float32))
    tt, mt_ = both(np.array([-100, -100]))
    assert math.isnan(F.cross_entropy(mx, mt_).item())
    assert math.isnan(TF.cross_entropy(tx, tt).item())
    # image targets: (N, C, H, W) scores
    rng = np.random.default_rng(0)
    tx, mx = both(rng.standard_normal((2, 3, 2, 2)).astype(np.float32), True)
    tt, mt_ = both(rng.integers(0, 3, (2, 2, 2)))
    for red in REDUCTIONS:
        close(F.cross_entropy(mx, mt_, reduction=red), TF.cross_entropy(tx, tt, reduction=red))
    assert F.cross_entropy(mx, mt_).grad_fn.name() == "NllLoss2DBackward0"
    # one sample (C,) and a 0-d target
    close(F.cross_entropy(mx[0, :, 0, 0], mt.tensor(1)), TF.cross_entropy(tx[0, :, 0, 0],
                                                                          torch.tensor(1)))
    # the MSE broadcasting warning
    with pytest.warns(UserWarning, match="Using a target size"):
        F.mse_loss(mt.zeros(1, 3), mt.zeros(3))


ERRORS = [
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(3, 5), lib.tensor([0, 1, 7])),
    lambda lib: lib.nn.functional.nll_loss(lib.zeros(3, 5), lib.tensor([0.0, 1.0, 2.0])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(3, 5), lib.tensor([0, 1])),
    lambda lib: lib.nn.functional.cross_entropy(lib.zeros(3, 5), lib.tensor([-1, 0, 0])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.tensor([1.5]), lib.tensor([1.0])),
    lambda lib: lib.nn.functional.binary_cross_entropy(lib.rand(2, 1), lib.rand(2)),
    lambda lib: lib.nn.functional.mse_loss(lib.zeros(2), lib.zeros(2), reduction="foo"),
    lambda lib: lib.nn.functional.linear(lib.zeros(1, 400), lib.zeros(120, 256), lib.zeros(120)),
    lambda lib: lib.nn.functional.linear(lib.zeros(1, 4, dtype=lib.float64), lib.zeros(2, 4),
                                         lib.zeros(2)),
    lambda lib: lib.nn.functional.conv2d(lib.zeros(2, 3), lib.zeros(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.zeros(1, 3, 32, 32), lib.zeros(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.zeros(1, 1, 4, 4), lib.zeros(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.conv2d(lib.zeros(1, 1, 8, 8, dtype=lib.float64),
                                         lib.zeros(6, 1, 5, 5)),
    lambda lib: lib.nn.functional.max_pool2d(lib.zeros(2, 3), 2),
    lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 1, 1, 1), 2),
    lambda lib: lib.nn.functional.max_pool2d(lib.zeros(1, 1, 4, 4), 2, padding=2),
    lambda lib: lib.nn.functional.dropout(lib.zeros(2), 1.5),
    lambda lib: lib.nn.functional.embedding(lib.tensor([5]), lib.zeros(3, 2)),
    lambda lib: lib.nn.BatchNorm1d(5)(lib.zeros(1, 5)),
    lambda lib: lib.nn.BatchNorm1d(5)(lib.zeros(5)),
    lambda lib: lib.nn.BatchNorm1d(5)(lib.zeros(3, 4)),
    lambda lib: lib.nn.Linear(2, 2).foo,
    lambda lib: lib.nn.Sequential(lib.nn.ReLU())[3],
]


@pytest.mark.parametrize("fn", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_errors_match_torch(fn):
    same_error(lambda: fn(torch), lambda: fn(mt))


# ---------------------------------------------------------------------------------- gradcheck
def _f64(*shape, seed=0):
    return mt.tensor(np.random.default_rng(seed).standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize("kw", [dict(), dict(stride=2, padding=1), dict(dilation=2, padding=1),
                                dict(stride=(1, 2), padding=(2, 0))])
def test_conv2d_gradcheck(kw):
    x, w, b = _f64(2, 2, 5, 6), _f64(3, 2, 3, 2, seed=1), _f64(3, seed=2)
    assert mt.autograd.gradcheck(lambda x, w, b: F.conv2d(x, w, b, **kw), (x, w, b))
    assert mt.autograd.gradgradcheck(lambda x, w: F.conv2d(x, w, None, **kw), (x, w))


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=(2, 3), stride=1),
                                dict(kernel_size=2, ceil_mode=True)])
@pytest.mark.parametrize("pool", ["max", "avg"])
def test_pool_gradcheck(pool, kw):
    x = _f64(2, 2, 5, 5)
    fn = F.max_pool2d if pool == "max" else F.avg_pool2d
    assert mt.autograd.gradcheck(lambda x: fn(x, **kw), (x,))
    assert mt.autograd.gradgradcheck(lambda x: fn(x, **kw), (x,))


def test_other_gradchecks():
    x = _f64(3, 4)
    y = mt.tensor(np.random.default_rng(5).uniform(0.1, 0.9, (3, 4)), requires_grad=True)
    t = mt.tensor([0, 3, 1])
    checks = [
        (lambda x: F.log_softmax(x, 1), (x,)),
        (lambda x: F.softmax(x, 0), (x,)),
        (lambda x: F.cross_entropy(x, t, label_smoothing=0.2), (x,)),
        (lambda x, y: F.mse_loss(x, y), (x, y)),
        (lambda y, z: F.binary_cross_entropy(y, z), (y, y.detach().requires_grad_() * 0 + 0.3)),
        (lambda x: F.batch_norm(x, None, None, training=True), (x,)),
        (lambda x: F.linear(x, x * 1.0, x[0, :3] * 1.0), (x,)),
    ]
    for fn, inputs in checks:
        assert mt.autograd.gradcheck(fn, inputs)
        assert mt.autograd.gradgradcheck(fn, inputs)
    bn_w, bn_b = _f64(4, seed=3), _f64(4, seed=4)
    assert mt.autograd.gradcheck(
        lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (x, bn_w, bn_b))
    emb = _f64(5, 2)
    assert mt.autograd.gradcheck(lambda e: F.embedding(mt.tensor([1, 1, 4]), e), (emb,))


# ---------------------------------------------------------------------------------- Module API
class _Block(mt.nn.Module):
    def __init__(self, lib):
        super().__init__()
        self.fc = lib.nn.Linear(3, 3)
        self.bn = lib.nn.BatchNorm1d(3)
        self.register_buffer("scale", lib.ones(3))
        self.register_buffer("cache", lib.zeros(1), persistent=False)

    def forward(self, x):
        return self.bn(self.fc(x)) * self.scale


def _models():
    class TBlock(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(3, 3)
            self.bn = torch.nn.BatchNorm1d(3)
            self.register_buffer("scale", torch.ones(3))
            self.register_buffer("cache", torch.zeros(1), persistent=False)

        def forward(self, x):
            return self.bn(self.fc(x)) * self.scale

    tm = torch.nn.Sequential(TBlock(), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    mm = mt.nn.Sequential(_Block(mt), mt.nn.ReLU(), mt.nn.Linear(3, 2))
    return tm, mm


def test_module_registries_match_torch():
    tm, mm = _models()
    assert [n for n, _ in mm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    assert [n for n, _ in mm.named_buffers()] == [n for n, _ in tm.named_buffers()]
    assert [n for n, _ in mm.named_modules()] == [n for n, _ in tm.named_modules()]
    assert [n for n, _ in mm.named_children()] == [n for n, _ in tm.named_children()]
    assert list(mm.state_dict()) == list(tm.state_dict())
    assert len(list(mm.parameters())) == len(list(tm.parameters())) == 6
    assert [p.shape for p in mm.parameters(recurse=False)] == []
    assert isinstance(mm[0].fc.weight, mt.nn.Parameter)
    assert mm.state_dict()["0.bn.num_batches_tracked"].dtype == mt.int64


def test_shared_parameters_are_listed_once():
    shared = mt.nn.Linear(2, 2)
    net = mt.nn.Sequential(shared, mt.nn.ReLU(), shared)
    assert len(list(net.parameters())) == 2
    assert [n for n, _ in net.named_modules()] == ["", "0", "1"]
    tshared = torch.nn.Linear(2, 2)
    tnet = torch.nn.Sequential(tshared, torch.nn.ReLU(), tshared)
    assert list(net.state_dict()) == list(tnet.state_dict())


def test_train_eval_zero_grad_requires_grad_apply():
    tm, mm = _models()
    assert mm.training and mm[0].bn.training
    mm.eval()
    assert not mm.training and not mm[0].bn.training and not mm[0].fc.training
    mm.train()
    assert mm[0].bn.training
    mm(mt.ones(4, 3)).sum().backward()
    assert all(p.grad is not None for p in mm.parameters())
    mm.zero_grad(set_to_none=False)
    assert all(p.grad is not None and float(p.grad.abs().sum()) == 0 for p in mm.parameters())
    mm.zero_grad()
    assert all(p.grad is None for p in mm.parameters())
    mm.requires_grad_(False)
    assert not any(p.requires_grad for p in mm.parameters())
    seen = []
    mm.apply(lambda m: seen.append(type(m).__name__))
    tseen = []
    tm.apply(lambda m: tseen.append(type(m).__name__))
    assert [s.replace("_Block", "TBlock") for s in seen] == tseen


def test_setattr_rules():
    m = mt.nn.Linear(2, 2)
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter"):
        m.weight = mt.zeros(2, 2)
    m.weight = mt.nn.Parameter(mt.zeros(2, 2))
    assert m.weight.shape == (2, 2) and "weight" in dict(m.named_parameters())
    m.extra = mt.nn.ReLU()
    assert "extra" in dict(m.named_children())
    del m.extra
    assert "extra" not in dict(m.named_children())
    m.bias = None
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    with pytest.raises(AttributeError, match="before Module.__init__"):
        class Bad(mt.nn.Module):
            def __init__(self):
                self.w = mt.nn.Parameter(mt.zeros(1))

        Bad()
    m2 = mt.nn.Module()
    with pytest.raises(NotImplementedError, match='missing the required "forward" function'):
        m2(mt.zeros(1))


def test_state_dict_round_trip_and_errors():
    tm, mm = _models()
    copy_weights(tm, mm)
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    tm.train()
    mm.train()
    tm(torch.tensor(x))
    mm(mt.tensor(x))  # update the running statistics
    state = mm.state_dict()
    assert all(not v.requires_grad for v in state.values())
    fresh = mt.nn.Sequential(_Block(mt), mt.nn.ReLU(), mt.nn.Linear(3, 2))
    result = fresh.load_state_dict(state)
    assert repr(result) == "<All keys matched successfully>"
    for key, value in state.items():
        assert np.array_equal(fresh.state_dict()[key].numpy(), value.numpy())
    mm.eval()
    fresh.eval()
    assert np.allclose(fresh(mt.tensor(x)).detach().numpy(), mm(mt.tensor(x)).detach().numpy())
    # keep_vars returns the Parameters themselves
    assert mm.state_dict(keep_vars=True)["2.weight"] is mm[2].weight

    tl, ml = torch.nn.Linear(2, 2), mt.nn.Linear(2, 2)
    same_error(lambda: tl.load_state_dict({"weight": torch.ones(2, 2), "foo": torch.ones(1)}),
               lambda: ml.load_state_dict({"weight": mt.ones(2, 2), "foo": mt.ones(1)}))
    same_error(lambda: tl.load_state_dict({"weight": torch.ones(3, 2), "bias": torch.ones(2)}),
               lambda: ml.load_state_dict({"weight": mt.ones(3, 2), "bias": mt.ones(2)}))
    tr = tl.load_state_dict({"weight": torch.ones(2, 2), "x": torch.ones(1)}, strict=False)
    mr = ml.load_state_dict({"weight": mt.ones(2, 2), "x": mt.ones(1)}, strict=False)
    assert repr(mr) == repr(tr)
    assert mr.missing_keys == ["bias"] and mr.unexpected_keys == ["x"]
    assert ml.weight.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_to_dtype_and_device_keep_parameter_objects():
    tm, mm = _models()
    w = mm[2].weight
    opt = mt.optim.SGD(mm.parameters(), lr=0.1)
    assert mm.to(mt.float64) is mm
    assert mm[2].weight is w and w.dtype == mt.float64
    assert mm[0].bn.num_batches_tracked.dtype == mt.int64  # integer buffers keep their dtype
    assert mm[0].scale.dtype == mt.float64
    mm(mt.ones(4, 3, dtype=mt.float64)).sum().backward()
    opt.step()  # the optimizer still holds the same (now float64) parameters
    mm.float()
    assert w.dtype == mt.float32
    assert mm.to("cpu") is mm and w.device == mt.device("cpu")
    with pytest.raises(TypeError, match="floating point"):
        mm.to(mt.int64)


def test_forward_hooks():
    lin = mt.nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(out.shape) or out + 1)
    out = lin(mt.ones(3, 2))
    assert calls == [mt.Size([3, 2])]
    assert np.allclose(out.detach().numpy(), lin.bias.detach().numpy() + 1)
    h1.remove()
    h2.remove()
    out = lin(mt.ones(3, 2))
    assert calls == [mt.Size([3, 2])]
    assert not np.allclose(out.detach().numpy(), lin.bias.detach().numpy() + 1)


def test_containers():
    layers = [mt.nn.Linear(2, 3), mt.nn.ReLU(), mt.nn.Linear(3, 1)]
    seq = mt.nn.Sequential(*layers)
    assert len(seq) == 3 and seq[0] is layers[0] and seq[-1] is layers[2]
    assert list(seq) == layers
    assert isinstance(seq[1:], mt.nn.Sequential) and len(seq[1:]) == 2 and seq[1:][0] is layers[1]
    seq.append(mt.nn.Sigmoid())
    assert len(seq) == 4
    del seq[1]
    assert [type(m).__name__ for m in seq] == ["Linear", "Linear", "Sigmoid"]
    from collections import OrderedDict

    named = mt.nn.Sequential(OrderedDict([("a", mt.nn.Linear(1, 1)), ("b", mt.nn.ReLU())]))
    assert [n for n, _ in named.named_children()] == ["a", "b"]
    ml = mt.nn.ModuleList([mt.nn.Linear(1, 1) for _ in range(3)])
    ml.append(mt.nn.ReLU())
    assert len(ml) == 4 and len(list(ml.parameters())) == 6
    assert isinstance(ml[:2], mt.nn.ModuleList)
    md = mt.nn.ModuleDict({"x": mt.nn.Linear(1, 1)})
    assert "x" in md and len(list(md.parameters())) == 2


# ---------------------------------------------------------------------------------- printing
def _zoo(lib):
    nn = lib.nn
    return nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.Conv2d(3, 4, 3, stride=2, padding=1, bias=False),
        nn.Conv2d(3, 4, 3, padding="same"), nn.Conv2d(2, 2, 3, dilation=2),
        nn.MaxPool2d(2), nn.MaxPool2d((2, 2), 1), nn.AvgPool2d(2), nn.AvgPool2d(3, 2, 1),
        nn.Flatten(), nn.Flatten(0, 2), nn.ReLU(), nn.ReLU(inplace=True), nn.LeakyReLU(),
        nn.LeakyReLU(0.2, True), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=1), nn.Softmax(),
        nn.LogSoftmax(1), nn.Dropout(), nn.Dropout(0.2), nn.Identity(), nn.BatchNorm1d(5),
        nn.BatchNorm1d(4, affine=False), nn.BatchNorm2d(3, momentum=None), nn.Embedding(10, 3),
        nn.Embedding(10, 3, padding_idx=0), nn.Linear(3, 4, bias=False),
        nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU()]), nn.ModuleList(),
        nn.MSELoss(), nn.L1Loss(), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCELoss(),
        nn.BCEWithLogitsLoss(), nn.Sequential(),
        nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.Tanh())),
    )


def test_repr_matches_torch():
    assert repr(_zoo(mt)) == repr(_zoo(torch))
    assert repr(mt.nn.ModuleList([mt.nn.Linear(2, 2) for _ in range(3)])) == repr(
        torch.nn.ModuleList([torch.nn.Linear(2, 2) for _ in range(3)]))
    assert repr(mt.nn.Parameter(mt.ones(2))) == repr(torch.nn.Parameter(torch.ones(2)))
    assert repr(mt.nn.Parameter(mt.ones(2, 2), requires_grad=False)) == repr(
        torch.nn.Parameter(torch.ones(2, 2), requires_grad=False))

    class Net(mt.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = mt.nn.Sequential(mt.nn.Conv2d(1, 4, 3), mt.nn.ReLU())
            self.head = mt.nn.Linear(4, 2)

    class TNet(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.ReLU())
            self.head = torch.nn.Linear(4, 2)

    assert repr(Net()) == repr(TNet()).replace("TNet", "Net")


# ---------------------------------------------------------------------------------- init
def test_init_functions():
    for name in ("linear", "conv2d", "sigmoid", "tanh", "relu", "selu"):
        assert mt.nn.init.calculate_gain(name) == torch.nn.init.calculate_gain(name)
    assert mt.nn.init.calculate_gain("leaky_relu", 0.2) == torch.nn.init.calculate_gain(
        "leaky_relu", 0.2)
    same_error(lambda: torch.nn.init.calculate_gain("foo"),
               lambda: mt.nn.init.calculate_gain("foo"))
    same_error(lambda: torch.nn.init.xavier_uniform_(torch.empty(3)),
               lambda: mt.nn.init.xavier_uniform_(mt.empty(3)))
    same_error(lambda: torch.nn.init.kaiming_uniform_(torch.empty(3, 4), mode="x"),
               lambda: mt.nn.init.kaiming_uniform_(mt.empty(3, 4), mode="x"))
    w = mt.nn.Parameter(mt.empty(200, 300))
    cases = [
        (lambda: mt.nn.init.kaiming_uniform_(w, a=math.sqrt(5)), 1 / math.sqrt(300), "uniform"),
        (lambda: mt.nn.init.kaiming_uniform_(w, nonlinearity="relu"), math.sqrt(6 / 300),
         "uniform"),
        (lambda: mt.nn.init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu"),
         math.sqrt(6 / 200), "uniform"),
        (lambda: mt.nn.init.xavier_uniform_(w), math.sqrt(6 / 500), "uniform"),
        (lambda: mt.nn.init.kaiming_normal_(w, nonlinearity="relu"), math.sqrt(2 / 300),
         "normal"),
        (lambda: mt.nn.init.xavier_normal_(w, gain=2.0), 2 * math.sqrt(2 / 500), "normal"),
    ]
    for fn, scale, kind in cases:
        out = fn()
        assert out is w and w.requires_grad and w.is_leaf
        values = w.detach().numpy()
        if kind == "uniform":
            assert values.max() <= scale and values.min() >= -scale
            assert abs(values.std() - scale / math.sqrt(3)) < 0.02 * scale
        else:
            assert abs(values.std() - scale) < 0.02 * scale
    mt.nn.init.constant_(w, 0.5)
    assert float(w.min()) == float(w.max()) == 0.5
    mt.nn.init.zeros_(w)
    assert float(w.abs().max()) == 0.0
    mt.nn.init.ones_(w)
    assert float(w.min()) == 1.0
    mt.nn.init.uniform_(w, -2, 3)
    assert -2 <= float(w.min()) and float(w.max()) <= 3
    mt.nn.init.normal_(w, 1.0, 0.5)
    assert abs(float(w.mean()) - 1.0) < 0.01


def test_default_initialisation_bounds():
    lin = mt.nn.Linear(50, 20)
    bound = 1 / math.sqrt(50)
    for p in (lin.weight, lin.bias):
        assert float(p.abs().max()) <= bound
        assert float(p.abs().max()) > 0.8 * bound
    conv = mt.nn.Conv2d(3, 8, 5)
    bound = 1 / math.sqrt(3 * 25)
    assert float(conv.weight.abs().max()) <= bound and float(conv.bias.abs().max()) <= bound
    bn = mt.nn.BatchNorm1d(4)
    assert bn.weight.tolist() == [1.0] * 4 and bn.bias.tolist() == [0.0] * 4
    emb = mt.nn.Embedding(100, 50)
    assert abs(float(emb.weight.std()) - 1.0) < 0.05


# ---------------------------------------------------------------------------------- training
def test_mlp_separates_two_moons():
    from minitorch.datasets import make_moons

    mt.manual_seed(0)
    x, y = make_moons(200, noise=0.1, seed=0)
    model = mt.nn.Sequential(mt.nn.Linear(2, 32), mt.nn.ReLU(), mt.nn.Linear(32, 32),
                             mt.nn.ReLU(), mt.nn.Linear(32, 2))
    opt = mt.optim.Adam(model.parameters(), lr=0.02)
    loss_fn = mt.nn.CrossEntropyLoss()
    for _ in range(400):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    accuracy = float((model(x).argmax(1) == y).float().mean())
    assert accuracy == 1.0, accuracy
    assert loss.item() < 0.05


@pytest.mark.slow
def test_cnn_trains_on_digits_to_97_percent():
    """The 'done' criterion: a small CNN, written with the PyTorch API, on the 8x8 digits."""
    from minitorch.utils.threads import set_num_threads

    previous = set_num_threads(1)  # small matrices: one BLAS thread is faster (and fair)
    try:
        _train_digits_cnn()
    finally:
        set_num_threads(previous)


def _train_digits_cnn():
    from minitorch.datasets import Digits
    from minitorch.utils.data import DataLoader

    start = time.perf_counter()
    mt.manual_seed(0)
    train, test = Digits(train=True), Digits(train=False)
    loader = DataLoader(train, batch_size=64, shuffle=True)
    nn = mt.nn
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 2 * 2, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = mt.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    accuracy, epochs = 0.0, 0
    for epochs in range(1, 31):  # noqa: B007  (reported below)
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
        model.eval()
        with mt.no_grad():
            accuracy = float((model(test.data).argmax(1) == test.targets).float().mean())
        if accuracy >= 0.97:
            break
    elapsed = time.perf_counter() - start
    print(f"\ndigits CNN: test accuracy {accuracy:.4f} after {epochs} epochs, {elapsed:.1f} s")
    assert accuracy >= 0.97


def test_no_warnings_on_import_and_light_import():
    import subprocess
    import sys

    code = ("import sys, minitorch; import minitorch.nn; "
            "print(any(m in sys.modules for m in ('matplotlib', 'sklearn', 'scipy')))")
    with warnings.catch_warnings():
        out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                             text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr
    assert re.fullmatch(r"\s*", out.stderr)


@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_clip_grad_matches_torch(norm_type):
    rng = np.random.default_rng(0)
    grads = [rng.standard_normal((3, 4)).astype(np.float32),
             rng.standard_normal(5).astype(np.float32)]
    results = []
    for lib in (torch, mt):
        params = [lib.nn.Parameter(lib.zeros(*g.shape)) for g in grads]
        for p, g in zip(params, grads):
            p.grad = lib.tensor(g)
        total = lib.nn.utils.clip_grad_norm_(params, 0.5, norm_type=norm_type)
        lib.nn.utils.clip_grad_value_(params, 0.1)
        results.append((total.item(), [p.grad.numpy().copy() for p in params]))
    assert results[1][0] == pytest.approx(results[0][0], rel=1e-6)
    for a, b in zip(results[1][1], results[0][1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)


# ---------------------------------------------------------------------------------- properties


@st.composite
def _conv_geometry(draw):
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    dh, dw = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    ph, pw = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    h = draw(st.integers(max(1, dh * (kh - 1) + 1 - 2 * ph), 9))
    w = draw(st.integers(max(1, dw * (kw - 1) + 1 - 2 * pw), 9))
    n, c, o = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return dict(shape=(n, c, h, w), weight=(o, c, kh, kw), stride=(sh, sw),
                padding=(ph, pw), dilation=(dh, dw), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_conv_geometry())
def test_conv2d_random_geometry_matches_torch(g):
    rng = np.random.default_rng(g["seed"])
    tx, mx = both(rng.standard_normal(g["shape"]), True)
    tw, mw = both(rng.standard_normal(g["weight"]), True)
    tb, mb = both(rng.standard_normal(g["weight"][0]), True)
    kw = dict(stride=g["stride"], padding=g["padding"], dilation=g["dilation"])
    to, mo = TF.conv2d(tx, tw, tb, **kw), F.conv2d(mx, mw, mb, **kw)
    close(mo, to, **F64)
    grad = rng.standard_normal(tuple(to.shape))
    to.backward(torch.tensor(grad))
    mo.backward(mt.tensor(grad))
    for m_, t_ in ((mx, tx), (mw, tw), (mb, tb)):
        close(m_.grad, t_.grad, **F64)


@st.composite
def _pool_geometry(draw):
    kh, kw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sh, sw = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    ph, pw = draw(st.integers(0, kh // 2)), draw(st.integers(0, kw // 2))
    h, w = draw(st.integers(kh, 9)), draw(st.integers(kw, 9))
    return dict(shape=(draw(st.integers(1, 2)), draw(st.integers(1, 3)), h, w),
                kernel_size=(kh, kw), stride=(sh, sw), padding=(ph, pw),
                ceil_mode=draw(st.booleans()), count_include_pad=draw(st.booleans()),
                relu=draw(st.booleans()), seed=draw(st.integers(0, 2**16)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pool_geometry())
def test_pools_random_geometry_match_torch(g):
    rng = np.random.default_rng(g["seed"])
    x = rng.standard_normal(g["shape"])
    if g["relu"]:
        x = np.maximum(x, 0)  # many ties, as after a ReLU
    kw = dict(kernel_size=g["kernel_size"], stride=g["stride"], padding=g["padding"],
              ceil_mode=g["ceil_mode"])
    for tfn, mfn, extra in ((TF.max_pool2d, F.max_pool2d, {}),
                            (TF.avg_pool2d, F.avg_pool2d,
                             {"count_include_pad": g["count_include_pad"]})):
        tx, mx = both(x, True)
        to, mo = tfn(tx, **kw, **extra), mfn(mx, **kw, **extra)
        close(mo, to, **F64)
        grad = rng.standard_normal(tuple(to.shape))
        to.backward(torch.tensor(grad))
        mo.backward(mt.tensor(grad))
        close(mx.grad, tx.grad, **F64)


# DataParallel on the CPU, as the saved-tensor hooks tutorial wraps a model in it
def test_data_parallel_on_the_cpu_holds_and_calls_its_module():
    torch.manual_seed(0)
    tm = torch.nn.DataParallel(torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()))
    m = mt.nn.DataParallel(mt.nn.Sequential(mt.nn.Linear(3, 2), mt.nn.ReLU()))
    m.load_state_dict({k: mt.tensor(v.numpy()) for k, v in tm.state_dict().items()})
    assert repr(m) == repr(tm)
    assert list(m.state_dict()) == list(tm.state_dict())
    assert m.device_ids == tm.device_ids
    x = np.array([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], dtype=np.float32)
    out, tout = m(mt.tensor(x)), tm(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), **F32)
    assert out.grad_fn.name() == tout.grad_fn.name()
    out.sum().backward()
    tout.sum().backward()
    for (name, p), (tname, tp) in zip(m.named_parameters(), tm.named_parameters(), strict=True):
        assert name == tname
        np.testing.assert_allclose(p.grad.numpy(), tp.grad.numpy(), **F32)


# the conv/batch-norm tutorial feeds float64 into float32 layers
@pytest.mark.parametrize("name", ["conv1d", "conv2d", "conv3d"])
@pytest.mark.parametrize("dtypes", [("float64", "float32", "float32"),
                                    ("float32", "float64", "float64"),
                                    ("float64", "float64", "float32"),
                                    ("float32", "float32", "float16"),
                                    ("float32", "float32", "int64"),
                                    ("float64", "float32", None)])
@pytest.mark.parametrize("groups", [1, 2])
def test_conv_checks_the_bias_dtype_before_the_weight_dtype(name, dtypes, groups):
    """A convolution whose bias's dtype is not the input's raises PyTorch's "Input type (double)
    and bias type (float) should be the same" before it looks at the weight's dtype."""
    n = int(name[-2])
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((1, 2) + (4,) * n)
    ws = rng.standard_normal((2, 2 // groups) + (2,) * n)
    bs = rng.standard_normal(2)

    def outcome(lib):
        x, w = (lib.tensor(a, dtype=getattr(lib, d)) for a, d in zip((xs, ws), dtypes))
        b = None if dtypes[2] is None else lib.tensor(bs).to(getattr(lib, dtypes[2]))
        try:
            return getattr(lib.nn.functional, name)(x, w, b, groups=groups).shape
        except RuntimeError as e:
            return str(e)

    assert outcome(mt) == outcome(torch)

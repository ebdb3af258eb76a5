"""nn.RNN / LSTM / GRU and their cells against PyTorch.

Each test builds the same layer in both libraries, copies PyTorch's weights into minitorch's
module through ``load_state_dict`` (the parameter names must agree), runs the same input and
compares the outputs, the final states and the gradients of the input, the initial state and
every parameter. float64 makes the comparison tight; one float32 case checks the default.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch as mt

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

TOL = {"rtol": 1e-10, "atol": 1e-12}


def _twin(name: str, *args, **kwargs):
    torch.manual_seed(0)
    ref = getattr(torch.nn, name)(*args, **kwargs).double()
    mine = getattr(mt.nn, name)(*args, **kwargs).double()
    state = {k: mt.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()}
    assert list(state) == list(mine.state_dict()), "parameter names or order differ"
    mine.load_state_dict(state)
    return mine, ref


def _pair(shape, seed, requires_grad=True):
    a = np.random.default_rng(seed).standard_normal(shape)
    return (mt.tensor(a, requires_grad=requires_grad),
            torch.tensor(a, requires_grad=requires_grad))


def _close(a, b, **tol):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), **(tol or TOL))


def _flatten(out):
    if isinstance(out, tuple):
        return [t for o in out for t in _flatten(o)]
    return [out]


CONFIGS = [
    {},
    {"num_layers": 2},
    {"batch_first": True},
    {"bidirectional": True},
    {"num_layers": 3, "bidirectional": True, "batch_first": True},
    {"bias": False},
]


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in
                                                                  c.items()) or "default")
@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
def test_outputs_states_and_gradients_match_torch(name, config, with_state):
    mine, ref = _twin(name, 3, 4, **config)
    directions = 2 if config.get("bidirectional") else 1
    layers = config.get("num_layers", 1)
    shape = (2, 5, 3) if config.get("batch_first") else (5, 2, 3)
    x_m, x_t = _pair(shape, 1)
    args_m, args_t, leaves = [x_m], [x_t], [(x_m, x_t)]
    if with_state:
        h_m, h_t = _pair((layers * directions, 2, 4), 2)
        leaves.append((h_m, h_t))
        if name == "LSTM":
            c_m, c_t = _pair((layers * directions, 2, 4), 3)
            leaves.append((c_m, c_t))
            args_m.append((h_m, c_m))
            args_t.append((h_t, c_t))
        else:
            args_m.append(h_m)
            args_t.append(h_t)
    outs_m, outs_t = _flatten(mine(*args_m)), _flatten(ref(*args_t))
    assert [tuple(o.shape) for o in outs_m] == [tuple(o.shape) for o in outs_t]
    for a, b in zip(outs_m, outs_t):
        _close(a, b)
    # a loss that uses every output, with different weights
    w = [np.random.default_rng(10 + i).standard_normal(tuple(o.shape))
         for i, o in enumerate(outs_t)]
    mt.stack([(o * mt.tensor(wi)).sum() for o, wi in zip(outs_m, w)]).sum().backward()
    torch.stack([(o * torch.tensor(wi)).sum() for o, wi in zip(outs_t, w)]).sum().backward()
    for a, b in leaves:
        _close(a.grad, b.grad)
    for (n, p_m), (_, p_t) in zip(mine.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(p_m.grad.numpy(), p_t.grad.numpy(), err_msg=n, **TOL)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_unbatched_input(name):
    mine, ref = _twin(name, 3, 4, num_layers=2)
    x_m, x_t = _pair((6, 3), 4)
    for a, b in zip(_flatten(mine(x_m)), _flatten(ref(x_t))):
        assert tuple(a.shape) == tuple(b.shape)
        _close(a, b)


def test_relu_rnn_and_float32_default():
    torch.manual_seed(0)
    ref = torch.nn.RNN(3, 4, nonlinearity="relu", num_layers=2)
    mine = mt.nn.RNN(3, 4, nonlinearity="relu", num_layers=2)
    mine.load_state_dict({k: mt.tensor(v.numpy()) for k, v in ref.state_dict().items()})
    a = np.random.default_rng(0).standard_normal((5, 2, 3)).astype(np.float32)
    out_m, h_m = mine(mt.tensor(a))
    out_t, h_t = ref(torch.tensor(a))
    assert out_m.dtype == mt.float32
    _close(out_m, out_t, rtol=1e-5, atol=1e-6)
    _close(h_m, h_t, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False])
def test_cells_match_torch(name, batched):
    mine, ref = _twin(name, 3, 4)
    x_m, x_t = _pair((2, 3) if batched else (3,), 5)
    h_m, h_t = _pair((2, 4) if batched else (4,), 6)
    if name == "LSTMCell":
        c_m, c_t = _pair((2, 4) if batched else (4,), 7)
        out_m, out_t = mine(x_m, (h_m, c_m)), ref(x_t, (h_t, c_t))
        loss_m = out_m[0].sum() + (out_m[1] * 2).sum()
        loss_t = out_t[0].sum() + (out_t[1] * 2).sum()
    else:
        out_m, out_t = mine(x_m, h_m), ref(x_t, h_t)
        loss_m, loss_t = (out_m * out_m).sum(), (out_t * out_t).sum()
    for a, b in zip(_flatten(out_m), _flatten(out_t)):
        _close(a, b)
    loss_m.backward()
    loss_t.backward()
    _close(x_m.grad, x_t.grad)
    _close(h_m.grad, h_t.grad)
    for (n, p_m), (_, p_t) in zip(mine.named_parameters(), ref.named_parameters()):
        np.testing.assert_allclose(p_m.grad.numpy(), p_t.grad.numpy(), err_msg=n, **TOL)
    # no state given: zeros
    for a, b in zip(_flatten(mine(x_m)), _flatten(ref(x_t))):
        _close(a, b)


def test_parameter_names_shapes_and_repr_match_torch():
    for args, kwargs in [((3, 4), {}), ((3, 4, 2), {"bidirectional": True}),
                         ((10, 20), {"num_layers": 2, "bias": False, "batch_first": True,
                                     "dropout": 0.5, "bidirectional": True})]:
        for name in ("RNN", "LSTM", "GRU"):
            ref = getattr(torch.nn, name)(*args, **kwargs)
            mine = getattr(mt.nn, name)(*args, **kwargs)
            assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == \
                [(n, tuple(p.shape)) for n, p in ref.named_parameters()]
            assert repr(mine) == repr(ref)
    for name in ("RNNCell", "LSTMCell", "GRUCell"):
        assert repr(getattr(mt.nn, name)(3, 4, bias=False)) == \
            repr(getattr(torch.nn, name)(3, 4, bias=False))
    assert repr(mt.nn.RNNCell(3, 4, nonlinearity="relu")) == \
        repr(torch.nn.RNNCell(3, 4, nonlinearity="relu"))


def test_init_is_uniform_in_plus_minus_one_over_sqrt_hidden():
    lstm = mt.nn.LSTM(3, 25)
    for p in lstm.parameters():
        assert p.abs().max().item() <= 1 / 5
        assert p.abs().max().item() > 0.15  # really spread over the range


def test_dropout_between_layers_only_in_training():
    mt.manual_seed(0)
    gru = mt.nn.GRU(3, 8, num_layers=2, dropout=0.5)
    x = mt.randn(4, 2, 3)
    gru.eval()
    a, _ = gru(x)
    b, _ = gru(x)
    assert mt.equal(a, b)
    gru.train()
    c, _ = gru(x)
    assert not mt.allclose(a, c)


@pytest.mark.parametrize(("make", "call", "exc"), [
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.ones(2, 5, 2)), RuntimeError),
    (lambda lib: lib.nn.LSTM(3, 4), lambda lib, m: m(lib.ones(2, 3, 3, 3)), ValueError),
    (lambda lib: lib.nn.GRU(3, 4), lambda lib, m: m(lib.ones(2, 5, 3), lib.zeros(1, 4, 4)),
     RuntimeError),
    (lambda lib: lib.nn.RNNCell(3, 4), lambda lib, m: m(lib.ones(2, 2)), RuntimeError),
    (lambda lib: lib.nn.RNN(3, 4, nonlinearity="foo"), None, ValueError),
])
def test_errors_match_torch(make, call, exc):
    def run(lib):
        m = make(lib)
        if call is not None:
            call(lib, m)

    with pytest.raises(exc) as ref:
        run(torch)
    with pytest.raises(exc) as mine:
        run(mt)
    assert str(mine.value) == str(ref.value)


def test_dropout_with_one_layer_warns_as_torch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        mt.nn.LSTM(3, 4, dropout=0.3)


def test_backward_through_time_draws_an_unrolled_graph():
    """Three steps of an RNN: the graph holds three tanh nodes, chained through h."""
    rnn = mt.nn.RNN(2, 3)
    out, _ = rnn(mt.ones(3, 1, 2))
    names = []
    stack, seen = [out.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(n for n, _ in node.next_functions)
    assert names.count("TanhBackward0") == 3


def _rnn_error_cases(lib):
    nn = lib.nn
    z = lib.zeros
    return {
        "rnn_unbatched_empty": lambda: nn.RNN(2, 3)(z(0, 2)),
        "rnn_batch_first_empty": lambda: nn.RNN(2, 3, batch_first=True)(z(1, 0, 2)),
        "rnn_empty_batch": lambda: nn.RNN(2, 3)(z(4, 0, 2)),
        "gru_empty": lambda: nn.GRU(2, 3)(z(0, 1, 2)),
        "lstm_empty": lambda: nn.LSTM(2, 3)(z(0, 1, 2)),
        "cell_hidden_size": lambda: nn.RNNCell(2, 3)(z(4, 2), z(4, 5)),
        "cell_batch": lambda: nn.RNNCell(2, 3)(z(4, 2), z(3, 5)),
        "cell_hidden_3d": lambda: nn.RNNCell(2, 3)(z(4, 2), z(4, 3, 1)),
        "cell_unbatched_size": lambda: nn.RNNCell(2, 3)(z(2), z(4)),
        "cell_unbatched_2d_hidden": lambda: nn.RNNCell(2, 3)(z(2), z(1, 3)),
        "lstmcell_c_batch": lambda: nn.LSTMCell(2, 3)(z(4, 2), (z(4, 3), z(3, 3))),
        "lstmcell_c_size": lambda: nn.LSTMCell(2, 3)(z(4, 2), (z(4, 3), z(4, 4))),
        "lstmcell_c_3d": lambda: nn.LSTMCell(2, 3)(z(4, 2), (z(4, 3), z(1, 4, 3))),
        "grucell_batch": lambda: nn.GRUCell(2, 3)(z(4, 2), z(2, 3)),
        "grucell_3d": lambda: nn.GRUCell(2, 3)(z(4, 2), z(1, 2, 3)),
        "cell_empty_batch": lambda: nn.RNNCell(2, 3)(z(0, 2)),
        "cell_ok": lambda: nn.RNNCell(2, 3)(z(4, 2), z(4, 3)),
        "moduledict_dot": lambda: nn.ModuleDict({"a.b": nn.Linear(1, 1)}),
        "add_module_dot": lambda: nn.Module().add_module("x.y", nn.Linear(1, 1)),
        "register_parameter_dot": lambda: nn.Module().register_parameter("x.y", None),
        "register_buffer_dot": lambda: nn.Module().register_buffer("x.y", None),
    }


def _outcome(call) -> str:
    try:
        out = call()
    except Exception as e:  # the exception is what is compared
        return f"{type(e).__name__}: {e}"
    out = out[0] if isinstance(out, tuple) else out
    return f"ok {tuple(out.shape)}" if hasattr(out, "shape") else "ok"


@pytest.mark.parametrize("case", sorted(_rnn_error_cases(mt)))
def test_recurrent_shape_errors_as_in_torch(case):
    """An empty sequence, a hidden state of the wrong batch or size, a dotted module name:
    PyTorch's exception and message, not one from a stack or a broadcast further in."""
    assert _outcome(_rnn_error_cases(mt)[case]) == _outcome(_rnn_error_cases(torch)[case])


_SEQ = np.random.default_rng(11).standard_normal((5, 2, 4)).astype(np.float32)


@pytest.mark.parametrize("make", [
    lambda lib: lib.nn.GRU(4, 3)(lib.tensor(_SEQ, requires_grad=True))[0],
    lambda lib: lib.nn.GRU(4, 3, 2, bidirectional=True)(lib.tensor(_SEQ, requires_grad=True))[0],
    lambda lib: lib.nn.RNN(4, 3, nonlinearity="relu")(lib.tensor(_SEQ, requires_grad=True))[1],
    lambda lib: lib.nn.RNN(4, 3, batch_first=True)(lib.tensor(_SEQ, requires_grad=True))[0],
    lambda lib: lib.nn.GRU(4, 3, batch_first=True)(lib.tensor(_SEQ, requires_grad=True))[0],
    lambda lib: lib.nn.GRU(4, 3)(lib.tensor(_SEQ[:, 0], requires_grad=True))[0],
    lambda lib: lib.nn.GRU(4, 3, batch_first=True)(lib.tensor(_SEQ[:, 0], requires_grad=True))[0],
    lambda lib: lib.nn.RNN(4, 3, batch_first=True)(lib.tensor(_SEQ[0], requires_grad=True))[1],
    lambda lib: lib.nn.functional.linear(lib.tensor(_SEQ, requires_grad=True).transpose(0, 1),
                                     lib.ones(3, 4, requires_grad=True), lib.ones(3)),
    lambda lib: lib.nn.functional.linear(lib.tensor(_SEQ, requires_grad=True)[:, 0, 0],
                                     lib.ones(3, 5), lib.ones(3, requires_grad=True)),
], ids=["gru", "gru-2-layers-bidirectional", "rnn-relu-h", "rnn-batch-first",
        "gru-batch-first", "gru-unbatched", "gru-unbatched-batch-first",
        "rnn-unbatched-batch-first-h", "linear-transposed-input", "linear-strided-vector"])
def test_recurrent_layers_record_pytorchs_whole_graph(make):
    """The recurrent layers record PyTorch's graph node for node (LSTM: see below): each
    step's input from an ``unbind`` of the projected sequence, the gates split with
    ``unsafe_chunk``, a batch-first output transposed in place (``TransposeBackward1``), an
    unbatched input given its batch dimension where ``batch_first`` says, and ``linear`` of a
    non-contiguous input as a matrix product plus the bias added in place, as PyTorch's
    kernels do."""
    from _opinfo_samples import graph_lines

    graphs = []
    for lib in (mt, torch):
        lib.manual_seed(0)
        graphs.append(graph_lines(make(lib).sum().grad_fn, limit=5000))
    assert graphs[0] == graphs[1]


# ---------------------------------------------------------------- LSTM: the fused float32 layer
def _lstm_case(lib, dtype="float32", hx=False, unbatched=False, x_grad=True, params_grad=True,
               state_grad=(True, True), train=True, **kwargs):
    """An LSTM of PyTorch's default initialisation (seed 0) run on ``_SEQ``: ``(y, h_n, c_n)``
    and the leaves (input, state, parameters) that require grad."""
    lib.manual_seed(0)
    dt = getattr(lib, dtype)
    lstm = lib.nn.LSTM(4, 3, **kwargs).to(dt).train(train).requires_grad_(params_grad)
    seq = _SEQ[:, 0] if unbatched else _SEQ  # (5, 2, 4): batch-first, 5 sequences of 2 steps
    args = [lib.tensor(seq, dtype=dt, requires_grad=x_grad)]
    if hx:
        rows = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
        shape = (rows, 3) if unbatched else (rows, seq.shape[1 - kwargs.get("batch_first", 0)], 3)
        rng = np.random.default_rng(12)
        args.append(tuple(lib.tensor(rng.standard_normal(shape), dtype=dt, requires_grad=r)
                          for r in state_grad))
    y, (h, c) = lstm(*args)
    leaves = [args[0], *(args[1] if hx else ()), *lstm.parameters()]
    return (y, h, c), [t for t in leaves if t.requires_grad]


_LSTM_GRAPHS = {
    "default": {},
    "2-layers": {"num_layers": 2},
    "batch-first": {"batch_first": True},
    "bidirectional": {"bidirectional": True},
    "3-layers-bidirectional-batch-first": {"num_layers": 3, "bidirectional": True,
                                           "batch_first": True},
    "no-bias": {"bias": False},
    "dropout-training": {"num_layers": 2, "dropout": 0.5},
    "dropout-eval": {"num_layers": 2, "dropout": 0.5, "train": False},
    "unbatched": {"unbatched": True, "num_layers": 2},
    "unbatched-batch-first": {"unbatched": True, "batch_first": True},
    "state": {"hx": True, "num_layers": 2, "bidirectional": True},
    "state-unbatched": {"hx": True, "unbatched": True},
    "state-only-c-grad": {"hx": True, "state_grad": (False, True)},
    "state-batch-first-no-bias": {"hx": True, "batch_first": True, "bias": False},
    "input-grad-only": {"params_grad": False},
    "params-grad-only": {"x_grad": False, "num_layers": 2},
    "state-grad-only": {"hx": True, "x_grad": False, "params_grad": False},
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("case", sorted(_LSTM_GRAPHS))
def test_lstm_records_pytorchs_whole_graph(case, dtype):
    """PyTorch's CPU build runs a float32 LSTM as one fused ``mkldnn_rnn_layer`` per layer and
    direction: one ``MkldnnRnnLayerBackward0`` node, with edges to the input, the four weights
    and the state ``hx[k]``, ``cx[k]`` (``SelectBackward0``); a batch-first input transposed
    and made contiguous (``CloneBackward0``), the directions joined by ``cat``, dropout a
    ``mul``, ``h_n`` and ``c_n`` stacks of the layers' final states. float64 and float16
    record the steps unrolled. minitorch records the same graphs, for all three outputs."""
    from _opinfo_samples import graph_lines

    graphs = [[graph_lines(o.grad_fn, limit=5000) if o.grad_fn is not None else None
               for o in _lstm_case(lib, dtype, **_LSTM_GRAPHS[case])[0]] for lib in (mt, torch)]
    assert graphs[0] == graphs[1]
    fused = ["MkldnnRnnLayerBackward0" in line for line in graphs[1][0] or []]
    assert any(fused) == (dtype == "float32")  # the case tests what it means to


F32 = {"rtol": 2e-5, "atol": 2e-6}


def _fused(out) -> bool:
    """Whether ``out`` came through the fused layer (what the tests below are about)."""
    from _opinfo_samples import graph_lines

    return any(line.endswith(" MkldnnRnnLayerBackward0") for line in graph_lines(out.grad_fn))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in
                                                                  c.items()) or "default")
@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
def test_fused_float32_lstm_matches_torch(config, with_state):
    """The fused layer's outputs and every gradient, against PyTorch's oneDNN kernel."""
    kwargs = {"hx": True, "state_grad": (True, True)} if with_state else {}
    runs = [_lstm_case(lib, **kwargs, **config) for lib in (mt, torch)]
    assert _fused(runs[0][0][0])
    for a, b in zip(runs[0][0], runs[1][0]):
        assert a.dtype == mt.float32
        _close(a, b, **F32)
    w = [np.random.default_rng(20 + i).standard_normal(tuple(o.shape)).astype(np.float32)
         for i, o in enumerate(runs[1][0])]
    for lib, (outs, _) in zip((mt, torch), runs):
        sum((o * lib.tensor(wi)).sum() for o, wi in zip(outs, w)).backward()
    for a, b in zip(runs[0][1], runs[1][1]):
        _close(a.grad, b.grad, **F32)


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "no-bias"])
def test_mkldnn_rnn_layer_gradcheck(reverse, bias):
    """The fused layer's backward, and the backward of that backward, against finite
    differences in float64: every input, the state included."""
    from minitorch.nn.modules.rnn import MkldnnRnnLayer

    rng = np.random.default_rng(3)
    steps, batch, inputs, hidden = 4, 2, 3, 2
    shapes = [(steps, batch, inputs), (4 * hidden, inputs), (4 * hidden, hidden)]
    shapes += [(4 * hidden,)] * 2 if bias else []
    shapes += [(batch, hidden)] * 2
    args = [mt.tensor(rng.standard_normal(s), requires_grad=True) for s in shapes]

    def layer(x, w_ih, w_hh, *rest):
        b_ih, b_hh, hx, cx = rest if bias else (None, None, *rest)
        return MkldnnRnnLayer.apply(x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse)

    assert mt.autograd.gradcheck(layer, args)
    assert mt.autograd.gradgradcheck(layer, args)


def test_fused_float32_lstm_second_derivatives_match_torch():
    """Double backward through the fused node: the gradients taken with ``create_graph`` are
    differentiable, and their own gradients are PyTorch's."""
    results = []
    for lib in (mt, torch):
        (y, h, c), leaves = _lstm_case(lib, hx=True, num_layers=2, bidirectional=True)
        assert _fused(y)
        loss = (y * y).sum() + (h ** 3).sum() + (c * c.sin()).sum()
        grads = lib.autograd.grad(loss, leaves, create_graph=True)
        assert all(g.grad_fn is not None for g in grads)
        sum((g * g).sum() for g in grads).backward()
        results.append([*grads, *(leaf.grad for leaf in leaves)])
    for a, b in zip(*results):
        _close(a, b, rtol=1e-4, atol=1e-5)


def _lstm_out(lib, x, hx=None):
    lib.manual_seed(0)
    y, (h, c) = lib.nn.LSTM(4, 3)(x, hx)
    return y, h, c


@pytest.mark.parametrize("make", [
    lambda lib: _lstm_out(lib, lib.tensor(_SEQ, requires_grad=True).transpose(0, 1)),
    lambda lib: _lstm_out(lib, lib.tensor(_SEQ[:2]), tuple(
        lib.tensor(_SEQ[:2, :1, :3] * k, requires_grad=True).transpose(0, 1) for k in (1, 2))),
    lambda lib: _lstm_out(lib, lib.zeros(5, 0, 4, requires_grad=True)),
], ids=["non-contiguous-input", "non-contiguous-state", "empty-batch"])
def test_fused_lstm_edge_graphs(make):
    """A non-contiguous input or state is copied first (``CloneBackward0``), as PyTorch's
    kernel does; an empty batch takes the unrolled steps (PyTorch's fused kernel wants
    elements)."""
    from _opinfo_samples import graph_lines

    graphs = [[graph_lines(o.grad_fn, limit=5000) for o in make(lib)] for lib in (mt, torch)]
    assert graphs[0] == graphs[1]


def test_fused_lstm_propagates_nan_and_inf_as_torch():
    """A NaN and an inf in the input: the same outputs, and NaN in the same gradients."""
    seq = _SEQ.copy()
    seq[1, 0, 2], seq[3, 1, 0] = np.nan, np.inf
    results = []
    for lib in (mt, torch):
        x = lib.tensor(seq, requires_grad=True)
        y, h, c = _lstm_out(lib, x)
        assert lib is torch or _fused(y)
        (y.sum() + h.sum() + c.sum()).backward()
        results.append([t.detach().numpy() for t in (y, h, c)] + [np.isnan(x.grad.numpy())])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, **F32)


def test_fused_lstm_node_saves_pytorchs_tensors():
    """The node keeps what PyTorch's keeps, under PyTorch's names (``_saved_input``, ...)."""
    nodes = [_lstm_case(lib, hx=True)[0][0].grad_fn for lib in (mt, torch)]
    for name in ("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_", "result0"):
        _close(getattr(nodes[0], f"_saved_{name}"), getattr(nodes[1], f"_saved_{name}"), **F32)

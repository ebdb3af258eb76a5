"""Attention and the Transformer against PyTorch: ``F.scaled_dot_product_attention`` (shapes
drawn by Hypothesis, dropout with a seed, second derivatives by gradgradcheck),
``nn.RMSNorm``, ``nn.MultiheadAttention`` and the ``nn.Transformer*`` modules: the parameters
drawn after the same ``manual_seed`` (state_dict keys and values, bit for bit), reprs, outputs
and gradients of inputs and parameters, in evaluation and in training (the same dropout masks),
the masks, warnings and errors. The functions themselves, over every family of inputs, are
compared in test_opinfo.py through ``_opinfo_samples_attention``."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch
from minitorch import nn

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

LIBS = (minitorch, torch)
RNG = np.random.default_rng(7)


def _arr(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def _np(t):
    return None if t is None else t.detach().numpy()


def _close(mine, ref, tol=1e-5):
    np.testing.assert_allclose(_np(mine), _np(ref), rtol=tol, atol=tol)


def _built(make, seed=0):
    """``make(lib)`` with each library after ``manual_seed(seed)``: (minitorch's, torch's)."""
    out = []
    for lib in LIBS:
        lib.manual_seed(seed)
        out.append(make(lib))
    return out


def _same_parameters(mine, ref) -> None:
    """The same state_dict keys, in the same order, and the same values, bit for bit."""
    m, r = mine.state_dict(), ref.state_dict()
    assert list(m) == list(r)
    for key in r:
        np.testing.assert_array_equal(m[key].numpy(), r[key].numpy(), err_msg=key)


def _same_gradients(mine, ref, tol=1e-4) -> None:
    named = dict(ref.named_parameters())
    for name, p in mine.named_parameters():
        if named[name].grad is None:
            assert p.grad is None, name
        else:
            np.testing.assert_allclose(p.grad.numpy(), named[name].grad.numpy(), rtol=tol,
                                       atol=tol, err_msg=name)


# ---------------------------------------------------------------- scaled_dot_product_attention
@settings(max_examples=25, deadline=None)
@given(batch=st.lists(st.integers(1, 3), min_size=0, max_size=2), n_q=st.integers(1, 4),
       n_k=st.integers(1, 4), e=st.integers(1, 5), ev=st.integers(1, 3),
       mask=st.sampled_from([None, "bool", "float", "row", "col"]),
       causal=st.booleans(), seed=st.integers(0, 2**16))
def test_sdpa_shapes_match_torch(batch, n_q, n_k, e, ev, mask, causal, seed):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((*batch, n_q, e)).astype(np.float32)
    k = rng.standard_normal((*batch, n_k, e)).astype(np.float32)
    v = rng.standard_normal((*batch, n_k, ev)).astype(np.float32)
    masks = {"bool": rng.random((n_q, n_k)) > 0.3, "float": rng.standard_normal((n_q, n_k)),
             "row": rng.standard_normal((1, n_k)), "col": rng.random((n_q, 1)) > 0.5, None: None}
    m = masks[mask]
    m = m.astype(np.float32) if m is not None and m.dtype != bool else m
    results = []
    for lib in LIBS:
        ts = [lib.tensor(a, requires_grad=True) for a in (q, k, v)]
        kw = {"attn_mask": None if m is None else lib.tensor(m), "is_causal": causal}
        try:
            out = lib.nn.functional.scaled_dot_product_attention(*ts, **kw)
        except RuntimeError as e:
            results.append(str(e))
            continue
        out.backward(lib.ones_like(out))
        results.append([_np(out)] + [_np(t.grad) for t in ts] + [out.grad_fn.name()])
    mine, ref = results
    if isinstance(ref, str):
        assert mine == ref
        return
    assert mine[-1] == ref[-1]
    for a, b in zip(mine[:-1], ref[:-1]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 2, 3, 4)])
@pytest.mark.parametrize("mask", [None, "bool", "causal"])
def test_sdpa_gradgradcheck(shape, mask):
    """Both paths (3-d: the math path, 4-d: the fused node) against finite differences, to
    the second order (PyTorch has no second derivative through its fused kernel)."""
    F = nn.functional
    q, k, v = (minitorch.tensor(_arr(*shape[:-2], n, 4, dtype=np.float64), requires_grad=True)
               for n in (3, 5, 5))
    kw = {"is_causal": True} if mask == "causal" else {}
    if mask == "bool":
        m = _arr(3, 5) > 0
        m[1] = False  # a query that attends to nothing: zeros, and zero gradients
        kw["attn_mask"] = minitorch.tensor(m)

    def f(*qkv):
        return F.scaled_dot_product_attention(*qkv, **kw)
    assert minitorch.autograd.gradcheck(f, (q, k, v))
    assert minitorch.autograd.gradgradcheck(f, (q, k, v))


# graph task: the fused node with grouped heads (keys and values taken un-repeated, their
# gradients summed over each group), and the zeros of an empty attention
@pytest.mark.parametrize("heads", [(4, 2, 2), (6, 2, 2), (3, 1, 1), (4, 4, 2)])
def test_sdpa_grouped_heads_gradgradcheck(heads):
    hq, hk, hv = heads
    q, k, v = (minitorch.tensor(_arr(2, h, n, 4, dtype=np.float64), requires_grad=True)
               for h, n in ((hq, 3), (hk, 5), (hv, 5)))

    def f(*qkv):
        return nn.functional.scaled_dot_product_attention(*qkv, enable_gqa=True)
    assert minitorch.autograd.gradcheck(f, (q, k, v))
    assert minitorch.autograd.gradgradcheck(f, (q, k, v))


@pytest.mark.parametrize("shapes", [((2, 0, 4), (2, 3, 4), (2, 3, 5)),
                                    ((1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 5, 0))])
def test_sdpa_empty_gives_zero_gradients_of_each_shape(shapes):
    q, k, v = (minitorch.tensor(_arr(*s, dtype=np.float64), requires_grad=True) for s in shapes)
    out = nn.functional.scaled_dot_product_attention(q, k, v)
    assert out.grad_fn.name() == "AddBackward0"
    out.sum().backward()
    for t in (q, k, v):
        assert t.grad.shape == t.shape and not t.grad.numpy().any()


def test_sdpa_dropout_draws_pytorchs_mask():
    q, k, v = _arr(2, 2, 3, 4), _arr(2, 2, 5, 4), _arr(2, 2, 5, 4)
    results = []
    for lib in LIBS:
        lib.manual_seed(3)
        ts = [lib.tensor(a, requires_grad=True) for a in (q, k, v)]
        out = lib.nn.functional.scaled_dot_product_attention(*ts, dropout_p=0.4)
        out.backward(lib.ones_like(out))
        results.append([_np(out), *(_np(t.grad) for t in ts), _np(lib.rand(3))])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_sdpa_fully_masked_query_gives_zeros():
    """torch 2.13 computes a query that may attend to no key as zeros (a "safe" softmax), on
    both paths, and its gradients are zeros too, not NaN."""
    for shape in ((1, 3, 4), (1, 1, 3, 4)):
        mask = np.ones((3, 5), bool)
        mask[0] = False
        results = []
        q_arr, kv_arr = _arr(*shape), _arr(*shape[:-2], 5, 4)
        for lib in LIBS:
            q = lib.tensor(q_arr, requires_grad=True)
            kv = lib.tensor(kv_arr)
            out = lib.nn.functional.scaled_dot_product_attention(q, kv, kv,
                                                                 attn_mask=lib.tensor(mask))
            out.sum().backward()
            results.append((_np(out), _np(q.grad)))
        (out, grad), (out_t, grad_t) = results
        assert not np.isnan(out).any() and not np.isnan(grad).any()
        np.testing.assert_array_equal(out[..., 0, :], 0)
        np.testing.assert_allclose(out, out_t, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(grad, grad_t, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- RMSNorm
@pytest.mark.parametrize("kw", [{}, {"eps": 1e-3}, {"elementwise_affine": False}])
@pytest.mark.parametrize("shape", [4, (3, 4)])
def test_rmsnorm_module_matches_torch(kw, shape):
    mine, ref = _built(lambda lib: lib.nn.RMSNorm(shape, **kw))
    assert repr(mine) == repr(ref)
    _same_parameters(mine, ref)
    x, w = _arr(2, 3, 4), _arr(*np.atleast_1d(shape))
    outs = []
    for lib, module in zip(LIBS, (mine, ref)):
        with lib.no_grad():
            if module.weight is not None:  # not all ones: the gradient of the weight matters
                module.weight.copy_(lib.tensor(w))
        t = lib.tensor(x, requires_grad=True)
        out = module(t)
        out.backward(lib.tensor(np.linspace(0.5, 1.5, x.size, dtype=np.float32).reshape(x.shape)))
        outs.append((out, t.grad, out.grad_fn.name()))
    (out, grad, node), (out_t, grad_t, node_t) = outs
    assert node == node_t
    _close(out, out_t)
    _close(grad, grad_t)
    _same_gradients(mine, ref)


_RMS_NORM_MIXED_TWICE = '''
import warnings
import {lib} as lib
x = lib.ones(2, 3, dtype=lib.float16)
for weight in (lib.ones(3), lib.ones(3, dtype=lib.float64)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = lib.nn.functional.rms_norm(x, (3,), weight)
    print(out.dtype, [str(w.message).split(" (Triggered")[0] for w in caught])  # torch adds where
'''


def test_rms_norm_mixed_dtypes_warn_once_as_torch_does():
    """A weight of another dtype than the input: the result has the input's dtype, and
    PyTorch warns once a process (TORCH_WARN_ONCE), so each library runs in a fresh
    interpreter."""
    printed = [subprocess.run([sys.executable, "-c", _RMS_NORM_MIXED_TWICE.format(lib=name)],
                              capture_output=True, text=True, check=True).stdout
               for name in ("minitorch", "torch")]
    assert printed[0] == printed[1]
    assert "Mismatch dtype between input and weight" in printed[0].splitlines()[0]


# ---------------------------------------------------------------- MultiheadAttention
MHA_CASES = [
    {}, {"batch_first": True}, {"bias": False}, {"kdim": 6, "vdim": 5},
    {"add_bias_kv": True}, {"add_zero_attn": True}, {"add_bias_kv": True, "add_zero_attn": True},
    {"kdim": 6, "vdim": 5, "batch_first": True, "add_bias_kv": True},
]


def _mha_inputs(kw, batched=True):
    """query (3 positions), key and value (5) for a batch of 2, in the module's layout."""
    def one(n, e):
        if not batched:
            return _arr(n, e)
        return _arr(2, n, e) if kw.get("batch_first") else _arr(n, 2, e)
    return one(3, 8), one(5, kw.get("kdim", 8)), one(5, kw.get("vdim", 8))


def _run_mha(mine, ref, arrays, self_attention=False, **call):
    """Call both modules on the same inputs (one tensor for q, k and v when
    ``self_attention``), backward through the output and the weights; compare everything."""
    results = []
    for lib, module in zip(LIBS, (mine, ref)):
        ts = [lib.tensor(a, requires_grad=True) for a in arrays]
        if self_attention:
            ts = [ts[0]] * 3
        masks = {k: (lib.tensor(v) if isinstance(v, np.ndarray) else v) for k, v in call.items()}
        out, weights = module(*ts, **masks)
        loss = (out * lib.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32)
                                 ).reshape(out.shape)).sum()
        if weights is not None:
            loss = loss + (weights * weights).sum()
        loss.backward()
        results.append((out, weights, [t.grad for t in ts[:1 if self_attention else 3]]))
    (out, w, grads), (out_t, w_t, grads_t) = results
    _close(out, out_t)
    assert (w is None) == (w_t is None)
    if w is not None:
        _close(w, w_t)
    for g, g_t in zip(grads, grads_t):
        _close(g, g_t, 1e-4)
    _same_gradients(mine, ref)


@pytest.mark.parametrize("kw", MHA_CASES, ids=str)
def test_mha_parameters_repr_and_forward_match_torch(kw):
    mine, ref = _built(lambda lib: lib.nn.MultiheadAttention(8, 2, **kw))
    assert repr(mine) == repr(ref)
    _same_parameters(mine, ref)
    for attr in ("embed_dim", "kdim", "vdim", "num_heads", "head_dim", "batch_first",
                 "_qkv_same_embed_dim", "add_zero_attn", "dropout"):
        assert getattr(mine, attr) == getattr(ref, attr), attr
    _run_mha(mine, ref, _mha_inputs(kw))
    _run_mha(mine, ref, _mha_inputs(kw), need_weights=False)
    _run_mha(mine, ref, _mha_inputs(kw), average_attn_weights=False)


def _padding(batched=True):
    pad = np.zeros((2, 5), bool)
    pad[0, 3:] = True
    pad[1, 0] = True
    return pad if batched else pad[0]


MASKS = {
    "key_padding": {"key_padding_mask": _padding()},
    "key_padding_float": {"key_padding_mask": np.where(_padding(), -np.inf, 0.0).astype(
        np.float32)},
    "attn_bool_2d": {"attn_mask": _arr(3, 5) > 0.5},
    "attn_float_2d": {"attn_mask": _arr(3, 5)},
    "attn_bool_3d": {"attn_mask": _arr(4, 3, 5) > 0.5},
    "attn_float_3d": {"attn_mask": _arr(4, 3, 5)},
    "both": {"attn_mask": _arr(3, 5) > 0.5, "key_padding_mask": _padding()},
    "causal": {"attn_mask": np.triu(np.ones((3, 5), bool), 1), "is_causal": True},
}


@pytest.mark.parametrize("need_weights", [True, False])
@pytest.mark.parametrize("masks", list(MASKS), ids=str)
@pytest.mark.parametrize("kw", [{}, {"batch_first": True, "add_zero_attn": True}], ids=str)
def test_mha_masks_match_torch(kw, masks, need_weights):
    mine, ref = _built(lambda lib: lib.nn.MultiheadAttention(8, 2, **kw))
    _run_mha(mine, ref, _mha_inputs(kw), need_weights=need_weights, **MASKS[masks])


@pytest.mark.parametrize("kw", [{}, {"batch_first": True}], ids=str)
def test_mha_self_attention_and_unbatched_match_torch(kw):
    mine, ref = _built(lambda lib: lib.nn.MultiheadAttention(8, 4, **kw))
    _run_mha(mine, ref, _mha_inputs(kw), self_attention=True)
    _run_mha(mine, ref, _mha_inputs(kw), self_attention=True, need_weights=False)
    _run_mha(mine, ref, _mha_inputs(kw, batched=False), key_padding_mask=_padding(False))
    _run_mha(mine, ref, _mha_inputs(kw, batched=False), attn_mask=_arr(4, 3, 5))


def test_mha_dropout_in_training_draws_pytorchs_masks():
    for need_weights in (True, False):
        mine, ref = _built(lambda lib: lib.nn.MultiheadAttention(8, 2, dropout=0.3))
        for lib in LIBS:
            lib.manual_seed(5)
        _run_mha(mine, ref, _mha_inputs({}), need_weights=need_weights)
        _close(minitorch.rand(4), torch.rand(4))  # and the streams are at the same place


def _error(make):
    try:
        make()
    except Exception as e:  # the class and the message are what is compared
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("case", [
    "heads", "zero", "bad-query", "key-dims", "padding-dims", "mask-dims", "mask-2d-shape",
    "mask-3d-shape", "unbatched-mask-3d", "embed", "key-value", "causal-no-mask", "int-mask",
    "padding-shape"])
def test_mha_errors_match_torch(case):
    build = {"heads": lambda lib: lib.nn.MultiheadAttention(10, 3),
             "zero": lambda lib: lib.nn.MultiheadAttention(0, 2)}
    if case in build:
        assert _error(lambda: build[case](minitorch)) == _error(lambda: build[case](torch))
        return
    q, k, v = _mha_inputs({})
    calls = {
        "bad-query": lambda lib: ((_arr(1, 3, 2, 8),) * 3, {}),
        "key-dims": lambda lib: ((q, k[0], v), {}),
        "padding-dims": lambda lib: ((q, k, v), {"key_padding_mask": np.zeros(5, bool)}),
        "mask-dims": lambda lib: ((q, k, v), {"attn_mask": np.zeros((1, 1, 3, 5), bool)}),
        "mask-2d-shape": lambda lib: ((q, k, v), {"attn_mask": np.zeros((3, 4), bool)}),
        "mask-3d-shape": lambda lib: ((q, k, v), {"attn_mask": np.zeros((3, 3, 5), bool)}),
        "unbatched-mask-3d": lambda lib: ((q[:, 0], k[:, 0], v[:, 0]),
                                          {"attn_mask": np.zeros((3, 3, 5), bool)}),
        "embed": lambda lib: ((_arr(3, 2, 6), k, v), {}),
        "key-value": lambda lib: ((q, k, v[:4]), {}),
        "causal-no-mask": lambda lib: ((q, k, v), {"is_causal": True}),
        "int-mask": lambda lib: ((q, k, v), {"attn_mask": np.zeros((3, 5), np.int64)}),
        "padding-shape": lambda lib: ((q, k, v), {"key_padding_mask": np.zeros((2, 4), bool)}),
    }

    def call(lib):
        lib.manual_seed(0)
        module = lib.nn.MultiheadAttention(8, 2)
        arrays, kw = calls[case](lib)
        return module(*(lib.tensor(a) for a in arrays),
                      **{n: lib.tensor(m) if isinstance(m, np.ndarray) else m
                         for n, m in kw.items()})
    mine, ref = _error(lambda: call(minitorch)), _error(lambda: call(torch))
    assert ref is not None and mine == ref


def test_mismatched_mask_types_warn_as_torch():
    caught = []
    for lib in LIBS:
        lib.manual_seed(0)
        module = lib.nn.MultiheadAttention(8, 2)
        q, k, v = (lib.tensor(a) for a in _mha_inputs({}))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            module(q, k, v, key_padding_mask=lib.tensor(_padding()),
                   attn_mask=lib.tensor(_arr(3, 5)))
        caught.append([str(x.message) for x in w])
    assert caught[0] == caught[1] and caught[0]


# ---------------------------------------------------------------- the Transformer
LAYER_CASES = [
    {}, {"norm_first": True}, {"activation": "gelu"}, {"batch_first": True},
    {"layer_norm_eps": 1e-3, "bias": False}, {"dim_feedforward": 8},
    {"activation": "gelu", "norm_first": True, "batch_first": True},
]


def _layer_kw(kw):
    return dict({"dim_feedforward": 16, "dropout": 0.0}, **kw)


def _src(kw, n=5):
    return _arr(2, n, 8) if kw.get("batch_first") else _arr(n, 2, 8)


def _run_modules(mine, ref, arrays, train=False, seed=None, tol=1e-4, **call):
    """Forward and backward with both libraries (after ``manual_seed(seed)`` when given);
    compare the outputs and every gradient."""
    results = []
    for lib, module in zip(LIBS, (mine, ref)):
        module.train(train)
        if seed is not None:
            lib.manual_seed(seed)
        ts = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = module(*ts, **{k: lib.tensor(v) if isinstance(v, np.ndarray) else v
                             for k, v in call.items()})
        (out * lib.tensor(np.linspace(-1, 1, out.numel(), dtype=np.float32)
                          ).reshape(out.shape)).sum().backward()
        results.append((out, [t.grad for t in ts]))
    (out, grads), (out_t, grads_t) = results
    _close(out, out_t, tol)
    for g, g_t in zip(grads, grads_t):
        _close(g, g_t, tol)
    _same_gradients(mine, ref, tol)


def _warnings_of(make):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        module = make()
    return module, [str(x.message) for x in w]


@pytest.mark.parametrize("kw", LAYER_CASES, ids=str)
def test_encoder_matches_torch(kw):
    def make(lib):
        layer = lib.nn.TransformerEncoderLayer(8, 2, **_layer_kw(kw))
        return _warnings_of(lambda: lib.nn.TransformerEncoder(layer, 2,
                                                              norm=lib.nn.LayerNorm(8)))
    (mine, warned), (ref, warned_t) = _built(make)
    assert warned == warned_t
    assert repr(mine) == repr(ref)
    _same_parameters(mine, ref)
    _run_modules(mine, ref, [_src(kw)])
    _run_modules(mine, ref, [_src(kw)], train=True)
    n = 5
    causal = torch.nn.Transformer.generate_square_subsequent_mask(n).numpy()
    _run_modules(mine, ref, [_src(kw, n)], mask=causal)
    _run_modules(mine, ref, [_src(kw, n)], mask=causal, is_causal=True)
    _run_modules(mine, ref, [_src(kw, n)], src_key_padding_mask=_padding())


@pytest.mark.parametrize("mask_check", [True, False])
@pytest.mark.parametrize("aligned", [True, False])
@pytest.mark.parametrize("float_mask", [False, True])
def test_encoder_nested_tensor_path_matches_torch(mask_check, aligned, float_mask):
    """PyTorch's inference fast path (no_grad, eval, batch_first, a padding mask) runs on
    nested tensors: the padded positions come out as zeros (then the final norm), and without
    mask_check a padding that is not at the end is taken to be."""
    pad = _padding() if aligned else np.array([[0, 0, 1, 0, 1], [0, 0, 0, 0, 1]], bool)
    if float_mask:
        pad = np.where(pad, -np.inf, 0.0).astype(np.float32)
    x = _arr(2, 5, 8)

    def make(lib):
        layer = lib.nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
        return lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(8),
                                         mask_check=mask_check).eval()
    outs = []
    for lib, module in zip(LIBS, _built(make)):
        for mode in (lib.no_grad, lib.inference_mode):
            with mode():
                outs.append(module(lib.tensor(x), src_key_padding_mask=lib.tensor(pad)))
        outs.append(module(lib.tensor(x), src_key_padding_mask=lib.tensor(pad)))  # with grad
    for mine, ref in zip(outs[:3], outs[3:]):
        _close(mine, ref)


@pytest.mark.parametrize("kw", LAYER_CASES, ids=str)
def test_decoder_matches_torch(kw):
    def make(lib):
        return lib.nn.TransformerDecoder(lib.nn.TransformerDecoderLayer(8, 2, **_layer_kw(kw)),
                                         2)
    mine, ref = _built(make)
    assert repr(mine) == repr(ref)
    _same_parameters(mine, ref)
    causal = torch.nn.Transformer.generate_square_subsequent_mask(3).numpy()
    arrays = [_src(kw, 3), _src(kw)]
    _run_modules(mine, ref, arrays)
    _run_modules(mine, ref, arrays, tgt_mask=causal, memory_key_padding_mask=_padding(),
                 tgt_is_causal=True)


@pytest.mark.parametrize("activation", ["relu", "gelu", "module", "callable"])
def test_transformer_matches_torch(activation):
    def make(lib):
        act = {"module": lib.nn.GELU(), "callable": lib.nn.functional.silu}.get(activation,
                                                                              activation)
        return _warnings_of(lambda: lib.nn.Transformer(8, 2, 2, 1, 16, dropout=0.0,
                                                       activation=act))
    (mine, warned), (ref, warned_t) = _built(make)
    assert warned == warned_t
    assert repr(mine) == repr(ref)
    _same_parameters(mine, ref)
    if activation == "module":
        # A PyTorch bug: TransformerDecoder's deepcopy of a layer whose activation is a
        # module runs TransformerDecoderLayer.__setstate__, which finds no "activation" in
        # __dict__ (a module lives in _modules) and sets F.relu there, which then shadows the
        # module: torch's decoder computes ReLU while its repr shows GELU. minitorch computes
        # the GELU it was given, so only the encoders are compared here.
        assert ref.decoder.layers[0].__dict__["activation"] is torch.nn.functional.relu
        assert isinstance(mine.decoder.layers[0].activation, nn.GELU)
        _run_modules(mine.encoder, ref.encoder, [_src({})])
        return
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(3).numpy()
    _run_modules(mine, ref, [_src({}), _src({}, 3)], tgt_mask=tgt_mask)
    _run_modules(mine, ref, [_src({}), _src({}, 3)], src_key_padding_mask=_padding(),
                 memory_key_padding_mask=_padding())


def test_training_with_dropout_draws_pytorchs_masks():
    """In training mode every dropout (the attention weights', the layers') draws the same
    bits as PyTorch's, in the same order."""
    def make(lib):
        return lib.nn.Transformer(8, 2, 1, 1, 16, dropout=0.3, batch_first=True)
    mine, ref = _built(make)
    _same_parameters(mine, ref)
    _run_modules(mine, ref, [_arr(2, 5, 8), _arr(2, 3, 8)], train=True, seed=11)


def test_dropout_of_a_transposed_input_draws_in_memory_order():
    """PyTorch's dropout fills its mask in the order of the input's memory (``empty_like``
    keeps a transposed layout), as the attention output of a batch_first layer is laid out."""
    x = np.arange(1.0, 25.0, dtype=np.float32).reshape(2, 3, 4)
    results = []
    for lib in LIBS:
        lib.manual_seed(2)
        t = lib.tensor(x, requires_grad=True)
        out = lib.nn.functional.dropout(t.transpose(0, 1), 0.5)
        out.sum().backward()
        results.append((_np(out), _np(t.grad)))
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)


def test_generate_square_subsequent_mask():
    for sz, dtype in ((1, None), (4, None), (3, "float64")):
        mine = nn.Transformer.generate_square_subsequent_mask(
            sz, dtype=getattr(minitorch, dtype) if dtype else None)
        ref = torch.nn.Transformer.generate_square_subsequent_mask(
            sz, dtype=getattr(torch, dtype) if dtype else None)
        np.testing.assert_array_equal(mine.numpy(), ref.numpy())
        assert str(mine.dtype) == str(ref.dtype)
    mine = nn.modules.transformer._generate_square_subsequent_mask(3)
    np.testing.assert_array_equal(mine.numpy(), torch.nn.modules.transformer.
                                  _generate_square_subsequent_mask(3).numpy())


@pytest.mark.parametrize("case", ["activation", "batch", "d_model"])
def test_transformer_errors_match_torch(case):
    def call(lib):
        lib.manual_seed(0)
        if case == "activation":
            return lib.nn.TransformerEncoderLayer(8, 2, activation="tanh")
        model = lib.nn.Transformer(8, 2, 1, 1, 16)
        tgt = _arr(3, 3, 8) if case == "batch" else _arr(3, 2, 6)
        return model(lib.tensor(_src({})), lib.tensor(tgt))
    mine, ref = _error(lambda: call(minitorch)), _error(lambda: call(torch))
    assert ref is not None and mine == ref


@pytest.mark.parametrize("module", ["nn.modules.attention", "nn.modules.transformer"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the examples give no warning
        result = doctest.testmod(importlib.import_module(f"minitorch.{module}"),
                                 optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_rms_norm_and_kron_record_pytorchs_whole_graph():
    """``rms_norm`` adds its eps with the number overload (``AddBackward1``), and ``kron``
    views its inputs with ``_unsafe_view`` (``UnsafeViewBackward0``), as PyTorch's C++ does."""
    def names(node, depth=0):
        if node is None or depth > 6:
            return []
        return [node.name()] + [n for child, _ in node.next_functions
                                for n in names(child, depth + 1)]
    seen = []
    for lib in (minitorch, torch):
        x = lib.tensor(np.arange(6.0).reshape(2, 3) / 5, requires_grad=True)
        w = lib.ones(2, 2, requires_grad=True)
        seen.append((names(lib.nn.functional.rms_norm(x, (3,), eps=1e-5).grad_fn),
                     names(lib.nn.functional.rms_norm(x.half(), (3,)).grad_fn),
                     names(lib.kron(x, w).grad_fn)))
    assert seen[0] == seen[1]


def _graph(node) -> list[str]:
    """Every node of the graph below ``node``, depth first in edge order, a node met again
    named by its first position: two graphs are the same if these lists are."""
    seen: dict = {}
    out: list[str] = []

    def walk(n, depth):
        if n is None:
            out.append(f"{depth} None")
        elif n in seen:
            out.append(f"{depth} {n.name()} #{seen[n]}")
        else:
            seen[n] = len(seen)
            out.append(f"{depth} {n.name()}")
            for child, _ in n.next_functions:
                walk(child, depth + 1)
    walk(node, 0)
    return out


_X = np.random.default_rng(3).standard_normal((10, 4, 32)).astype(np.float32)


def _sdpa(lib, **kw):
    q = lib.tensor(_X[:, :, :8].reshape(2, 5, 4, 8).copy(), requires_grad=True)
    return lib.nn.functional.scaled_dot_product_attention(q, q, q, **kw)


@pytest.mark.parametrize("make", [
    lambda lib: _sdpa(lib, dropout_p=0.2),
    lambda lib: _sdpa(lib, attn_mask=lib.ones(4, 4, dtype=lib.bool).tril(), dropout_p=0.2),
    lambda lib: _sdpa(lib, is_causal=True, dropout_p=0.3),
    lambda lib: lib.nn.TransformerEncoder(
        lib.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64), 2,
        enable_nested_tensor=False)(lib.tensor(_X)),
    lambda lib: lib.nn.Transformer(32, 4, 1, 1, 64)(lib.tensor(_X), lib.tensor(_X[:5])),
], ids=["sdpa-dropout", "sdpa-mask", "sdpa-causal", "encoder", "transformer"])
def test_attention_records_pytorchs_whole_graph(make):
    """The math path of attention records PyTorch's nodes, one for one: ``q`` and ``k^T``
    scaled with the number overload (``MulBackward1``), and one ``SafeSoftmaxBackward0``
    where a plain softmax between two masked fills would give the same numbers."""
    mine, ref = _built(lambda lib: _graph(make(lib).sum().grad_fn))
    assert mine == ref


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_safe_softmax_matches_torch(dtype):
    """Rows of -inf give zeros (where softmax gives NaN); a row with NaN or +inf gives what
    PyTorch's ``_safe_softmax`` gives; its gradients and second derivatives are softmax's."""
    from minitorch.ops.softmax import SafeSoftmax

    inf, nan = np.inf, np.nan
    x = np.array([[1.0, 2.0, 3.0], [-inf, -inf, -inf], [-inf, 0.0, -inf], [nan, 1.0, 2.0],
                  [inf, 1.0, 2.0], [0.0, 0.0, 0.0]], dtype)
    seed = np.random.default_rng(1).standard_normal(x.shape).astype(dtype)
    results = []
    for lib, fn in ((minitorch, lambda t: SafeSoftmax.apply(t, 1)),
                    (torch, lambda t: torch._safe_softmax(t, 1))):
        t = lib.tensor(x, requires_grad=dtype != np.float16)
        out = fn(t)
        grad = None
        if t.requires_grad:
            (grad,) = lib.autograd.grad(out, t, lib.tensor(seed))
        results.append((_np(out), _np(grad), out.grad_fn and out.grad_fn.name()))
    (out, grad, name), (out_t, grad_t, name_t) = results
    np.testing.assert_array_equal(out[1], 0)
    np.testing.assert_allclose(out, out_t, rtol=1e-3 if dtype == np.float16 else 1e-6)
    assert name == name_t
    if grad is not None:
        np.testing.assert_allclose(grad, grad_t, rtol=1e-5, atol=1e-6)
    empty = minitorch.zeros(2, 0)
    assert SafeSoftmax.apply(empty, 1).shape == torch._safe_softmax(torch.zeros(2, 0), 1).shape
    t = minitorch.tensor(np.random.default_rng(2).standard_normal((3, 4)), requires_grad=True)
    assert minitorch.autograd.gradgradcheck(lambda u: SafeSoftmax.apply(u, 1), (t,))

"""``nn.utils.rnn`` (padding and packing sequences) and the recurrent layers on packed input,
against PyTorch.

The functions get the same NumPy inputs in both libraries; the values, dtypes, printed output,
``grad_fn`` names and gradients must agree, and the gradients also pass gradcheck and
gradgradcheck in float64 (packing is one node whose backward is made of tensor operations).
``nn.RNN``, ``nn.LSTM`` and ``nn.GRU`` get PyTorch's weights through ``load_state_dict`` and a
packed batch; the packed output, each sequence's final state (at its own length) and every
gradient must be PyTorch's. Bad input raises PyTorch's exception type and message.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _oracle import assert_same_values

import minitorch as mt
from minitorch.backends.pretend import PretendArray

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

F64 = {"rtol": 1e-10, "atol": 1e-12}


def utils(lib):
    return lib.nn.utils.rnn


def both(arrays, requires_grad=False):
    """The same arrays as minitorch and torch tensors."""
    def make(lib):
        return [lib.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
                for a in arrays]
    return make(mt), make(torch)


def seqs(lengths, trailing=(2,), dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, *trailing)).astype(dtype) for n in lengths]


def same_packed(mine, ref, **tol):
    assert type(mine).__name__ == "PackedSequence"
    assert mine._fields == ref._fields
    for a, b in zip(mine, ref):
        if b is None:
            assert a is None
        else:
            assert_same_values(a, b, **(tol or F64))


# ---------------------------------------------------------------- pad_sequence
FAMILIES = {
    "float64": seqs([3, 1, 2]),
    "float32": seqs([2, 4], dtype=np.float32),
    "float16": seqs([2, 1], dtype=np.float16),
    "int64": [np.arange(3), np.arange(5, 6)],
    "bool": [np.array([True, False]), np.array([True])],
    "inf-nan": [np.array([np.inf, -np.inf, 1.0]), np.array([np.nan])],
    "empty-one": seqs([3, 0, 2]),
    "3-d": seqs([2, 3], trailing=(2, 3)),
    "1-d": [np.array([1.0, 2.0]), np.array([3.0])],
    "equal": seqs([2, 2]),
}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("padding_value", [0.0, -1.5, float("nan")])
def test_pad_sequence_matches_torch(family, batch_first, padding_side, padding_value):
    mine, ref = both(FAMILIES[family], requires_grad=True)
    try:
        expected = torch.nn.utils.rnn.pad_sequence(ref, batch_first, padding_value,
                                                   padding_side)
    except RuntimeError as error:  # NaN into an integer tensor
        with pytest.raises(RuntimeError, match=f"^{error}$"):
            utils(mt).pad_sequence(mine, batch_first, padding_value, padding_side)
        return
    out = utils(mt).pad_sequence(mine, batch_first, padding_value, padding_side)
    assert_same_values(out, expected, **F64)
    assert out.requires_grad == expected.requires_grad
    if expected.grad_fn is not None:
        assert out.grad_fn.name() == expected.grad_fn.name() == "torch::autograd::CopySlices"


def test_pad_sequence_of_a_tensor_a_generator_and_non_contiguous_sequences():
    a = np.random.default_rng(1).standard_normal((3, 4))
    assert_same_values(utils(mt).pad_sequence(mt.tensor(a)),
                       torch.nn.utils.rnn.pad_sequence(torch.tensor(a)), **F64)
    mine, ref = both([a, a[:2]])
    assert_same_values(utils(mt).pad_sequence((t[:, ::2] for t in mine), padding_side="left"),
                       torch.nn.utils.rnn.pad_sequence((t[:, ::2] for t in ref),
                                                       padding_side="left"), **F64)
    # a later sequence of another dtype, or with trailing dims that broadcast, is copied in
    assert_same_values(utils(mt).pad_sequence([mt.tensor(a), mt.tensor(a[0]).long()]),
                       torch.nn.utils.rnn.pad_sequence([torch.tensor(a),
                                                        torch.tensor(a[0]).long()]), **F64)


def test_pad_sequence_prints_as_torch():
    mine, ref = both([np.array([1.0, 2.0, 3.0]), np.array([4.0])], requires_grad=True)
    assert repr(utils(mt).pad_sequence(mine, batch_first=True, padding_side="left")) == \
        repr(torch.nn.utils.rnn.pad_sequence(ref, batch_first=True, padding_side="left"))


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
def test_pad_sequence_gradcheck(batch_first, padding_side):
    inputs = [mt.tensor(a, requires_grad=True) for a in seqs([3, 1, 2])]

    def fn(*xs):
        return utils(mt).pad_sequence(xs, batch_first, 0.5, padding_side)
    assert mt.autograd.gradcheck(fn, inputs)
    assert mt.autograd.gradgradcheck(fn, inputs)


# ---------------------------------------------------------------- packing and unpacking
PACK_CASES = [
    # (lengths, batch_first, enforce_sorted)
    ([4, 3, 1], False, True),
    ([4, 3, 1], True, True),
    ([1, 4, 3], False, False),
    ([3, 1, 4], True, False),
    ([2, 2, 2], False, True),
    ([1], False, True),
    ([2, 4, 4, 1], True, False),
]


def _padded(lengths, batch_first, dtype=np.float64, trailing=(2,), seed=0):
    steps = max(lengths) + 1  # one step more than the longest: padding at the end of all
    shape = (len(lengths), steps) if batch_first else (steps, len(lengths))
    return np.random.default_rng(seed).standard_normal(shape + trailing).astype(dtype)


@pytest.mark.parametrize("lengths,batch_first,enforce_sorted", PACK_CASES)
@pytest.mark.parametrize("lengths_as", ["list", "tensor", "int32", "float"])
def test_pack_padded_sequence_matches_torch(lengths, batch_first, enforce_sorted, lengths_as):
    x = _padded(lengths, batch_first)
    packed, ref = [], []
    for lib, out in ((mt, packed), (torch, ref)):
        given = {"list": lengths, "tensor": lib.tensor(lengths),
                 "int32": lib.tensor(lengths, dtype=lib.int32),
                 "float": lib.tensor(lengths, dtype=lib.float64)}[lengths_as]
        xt = lib.tensor(x, requires_grad=True)
        out.append(utils(lib).pack_padded_sequence(xt, given, batch_first, enforce_sorted))
    same_packed(packed[0], ref[0])
    assert packed[0].data.grad_fn.name() == ref[0].data.grad_fn.name() == \
        "PackPaddedSequenceBackward0"
    assert packed[0].batch_sizes.dtype == mt.int64
    # and back: the padded batch in the caller's order, and the lengths
    for kw in ({}, {"padding_value": -2.0}, {"total_length": max(lengths) + 2}):
        mine = utils(mt).pad_packed_sequence(packed[0], batch_first, **kw)
        expected = torch.nn.utils.rnn.pad_packed_sequence(ref[0], batch_first, **kw)
        for a, b in zip(mine, expected):
            assert_same_values(a, b, **F64)
        assert mine[0].grad_fn.name() == expected[0].grad_fn.name()


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int64, np.bool_])
def test_pack_and_pad_keep_the_dtype(dtype):
    x = _padded([3, 2], False, dtype=dtype)
    mine = utils(mt).pack_padded_sequence(mt.tensor(x), [3, 2])
    ref = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(x), [3, 2])
    same_packed(mine, ref)
    for a, b in zip(utils(mt).pad_packed_sequence(mine, padding_value=1.5),
                    torch.nn.utils.rnn.pad_packed_sequence(ref, padding_value=1.5)):
        assert_same_values(a, b, **F64)


def test_pack_padded_sequence_with_nan_and_inf_in_the_padding_and_the_data():
    x = _padded([3, 2], True)
    x[1, 2:] = np.nan
    x[0, 0, 0] = np.inf
    mine = utils(mt).pack_padded_sequence(mt.tensor(x), [3, 2], batch_first=True)
    ref = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(x), [3, 2], batch_first=True)
    same_packed(mine, ref)


def test_pack_padded_sequence_of_a_non_contiguous_input():
    x = _padded([3, 2, 2], True)
    mine = utils(mt).pack_padded_sequence(mt.tensor(x).transpose(0, 1), [3, 2, 2])
    ref = torch.nn.utils.rnn.pack_padded_sequence(torch.tensor(x).transpose(0, 1), [3, 2, 2])
    same_packed(mine, ref)


@pytest.mark.parametrize("lengths,batch_first,enforce_sorted", PACK_CASES)
def test_pack_gradients_match_torch_and_gradcheck(lengths, batch_first, enforce_sorted):
    x = _padded(lengths, batch_first)
    weights = np.random.default_rng(5).standard_normal(x.shape)
    grads = []
    for lib in (mt, torch):
        xt = lib.tensor(x, requires_grad=True)
        packed = utils(lib).pack_padded_sequence(xt, lengths, batch_first, enforce_sorted)
        out, _ = utils(lib).pad_packed_sequence(packed, batch_first, padding_value=3.0)
        (out * lib.tensor(weights[tuple(slice(0, n) for n in out.shape)])).sum().backward()
        grads.append(xt.grad)
    assert_same_values(*grads, **F64)

    def pack(t):
        return utils(mt).pack_padded_sequence(t, lengths, batch_first, enforce_sorted).data

    def round_trip(t):
        packed = utils(mt).pack_padded_sequence(t, lengths, batch_first, enforce_sorted)
        return utils(mt).pad_packed_sequence(packed, batch_first, 1.0, max(lengths) + 2)[0]
    xt = mt.tensor(x, requires_grad=True)
    for fn in (pack, round_trip):
        assert mt.autograd.gradcheck(fn, (xt,))
        assert mt.autograd.gradgradcheck(fn, (xt,))


def test_pad_packed_sequence_gradcheck_through_the_data():
    packed = utils(mt).pack_sequence([mt.tensor(a) for a in seqs([1, 3, 2])],
                                     enforce_sorted=False)

    def pad(data):
        return utils(mt).pad_packed_sequence(
            utils(mt).PackedSequence(data, packed.batch_sizes, packed.sorted_indices,
                                     packed.unsorted_indices), True, -1.0)[0]
    data = packed.data.detach().requires_grad_()
    assert mt.autograd.gradcheck(pad, (data,))
    assert mt.autograd.gradgradcheck(pad, (data,))


@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_sequence_and_unpack_sequence_match_torch(enforce_sorted):
    arrays = seqs([3, 2, 2] if enforce_sorted else [2, 3, 1])
    mine, ref = both(arrays, requires_grad=True)
    packed = utils(mt).pack_sequence(mine, enforce_sorted)
    expected = torch.nn.utils.rnn.pack_sequence(ref, enforce_sorted)
    same_packed(packed, expected)
    assert repr(packed) == repr(expected)
    unpacked = utils(mt).unpack_sequence(packed)
    for a, b, given in zip(unpacked, torch.nn.utils.rnn.unpack_sequence(expected), arrays):
        assert_same_values(a, b, **F64)
        assert a.grad_fn.name() == b.grad_fn.name() == "IndexBackward0"
        np.testing.assert_array_equal(a.detach().numpy(), given)
    sum(u.sum() * (i + 1) for i, u in enumerate(unpacked)).backward()
    sum(u.sum() * (i + 1) for i, u in enumerate(
        torch.nn.utils.rnn.unpack_sequence(expected))).backward()
    for a, b in zip(mine, ref):
        assert_same_values(a.grad, b.grad, **F64)


@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_matches_torch_and_transposes_in_place_as_torch(batch_first):
    x = _padded([3, 1, 2], batch_first)
    mine, ref = mt.tensor(x), torch.tensor(x)
    a = utils(mt).unpad_sequence(mine, mt.tensor([3, 1, 2]), batch_first)
    b = torch.nn.utils.rnn.unpad_sequence(ref, torch.tensor([3, 1, 2]), batch_first)
    assert len(a) == len(b) == 3
    for u, v in zip(a, b):
        assert_same_values(u, v, **F64)
    assert tuple(mine.shape) == tuple(ref.shape)  # (PyTorch's transpose_ of the argument)


def test_packed_sequence_is_a_namedtuple_that_converts_like_torch():
    mine, ref = both(seqs([2, 3, 1]), requires_grad=True)
    packed = utils(mt).pack_sequence(mine, enforce_sorted=False)
    expected = torch.nn.utils.rnn.pack_sequence(ref, enforce_sorted=False)
    data, batch_sizes, sorted_indices, unsorted_indices = packed
    assert data is packed.data and isinstance(packed, tuple)
    assert packed._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    for method in ("float", "double", "half", "long", "int", "short", "char", "byte"):
        same_packed(getattr(packed, method)(), getattr(expected, method)())
        assert repr(getattr(packed, method)()) == repr(getattr(expected, method)())
    assert packed.to(mt.float64) is packed and packed.double() is packed
    assert packed.cpu() is packed and packed.is_cuda is expected.is_cuda is False
    same_packed(packed.to(dtype=mt.float32), expected.to(dtype=torch.float32))
    # built by hand: from (data, batch_sizes), or with sorted indices only
    again = utils(mt).PackedSequence((data, batch_sizes), sorted_indices=sorted_indices)
    assert again.unsorted_indices.tolist() == unsorted_indices.tolist()
    assert utils(mt).PackedSequence(data, batch_sizes).sorted_indices is None


@pytest.mark.parametrize("perm", [[0], [2, 0, 1], [3, 1, 0, 2]])
def test_invert_permutation_matches_torch(perm):
    assert_same_values(utils(mt).invert_permutation(mt.tensor(perm)),
                       torch.nn.utils.rnn.invert_permutation(torch.tensor(perm)))
    assert utils(mt).invert_permutation(None) is None


def test_the_names_are_torchs():
    assert sorted(utils(mt).__all__) == sorted(torch.nn.utils.rnn.__all__)
    assert mt.nn.utils.rnn.PackedSequence.__name__ == "PackedSequence"


# ---------------------------------------------------------------- errors
def _x(lib, shape=(4, 3, 2)):
    return lib.tensor(np.zeros(shape))


ERRORS = {
    "unsorted": lambda u: u.pack_padded_sequence(_x(u.lib), [3, 4, 1]),
    "zero-length": lambda u: u.pack_padded_sequence(_x(u.lib), [4, 3, 0]),
    "zero-length-unsorted": lambda u: u.pack_padded_sequence(_x(u.lib), [0, 3, 4],
                                                             enforce_sorted=False),
    "negative-length": lambda u: u.pack_padded_sequence(_x(u.lib), [4, 3, -1]),
    "too-few-lengths": lambda u: u.pack_padded_sequence(_x(u.lib), [4, 3]),
    "2-d-lengths": lambda u: u.pack_padded_sequence(_x(u.lib), [[4, 3, 1]]),
    "0-d-lengths": lambda u: u.pack_padded_sequence(_x(u.lib), u.lib.tensor(3)),
    "batch_first-lengths": lambda u: u.pack_padded_sequence(_x(u.lib), [4, 3, 1], True),
    "empty-steps": lambda u: u.pack_padded_sequence(_x(u.lib, (0, 3, 2)), [0, 0, 0]),
    "empty-batch": lambda u: u.pack_padded_sequence(_x(u.lib, (4, 0, 2)), []),
    "empty-features": lambda u: u.pack_padded_sequence(_x(u.lib, (4, 3, 0)), [4, 3, 1]),
    "1-d-input": lambda u: u.pack_padded_sequence(_x(u.lib, (4,)), [4]),
    "pack-no-sequences": lambda u: u.pack_sequence([]),
    "pack-unsorted": lambda u: u.pack_sequence([_x(u.lib, (3,)), _x(u.lib, (4,))]),
    "pack-empty-sequence": lambda u: u.pack_sequence([_x(u.lib, (3,)), _x(u.lib, (0,))]),
    "pad-no-sequences": lambda u: u.pad_sequence([]),
    "pad-not-iterable": lambda u: u.pad_sequence(3),
    "pad-not-tensors": lambda u: u.pad_sequence([3, 4]),
    "pad-trailing-mismatch": lambda u: u.pad_sequence([_x(u.lib, (3, 2)), _x(u.lib, (2, 3))]),
    "pad-side": lambda u: u.pad_sequence([_x(u.lib, (3,))], padding_side="up"),
    "pad-side-of-0-d": lambda u: u.pad_sequence([_x(u.lib, ())], padding_side="up"),
    "pad-0-d-first": lambda u: u.pad_sequence([_x(u.lib, ())]),
    "pad-0-d-later": lambda u: u.pad_sequence([_x(u.lib, (2,)), _x(u.lib, ())]),
    "pad-value-str": lambda u: u.pad_sequence([_x(u.lib, (2,))], padding_value="a"),
    "pad-value-none": lambda u: u.pad_sequence([_x(u.lib, (2,))], padding_value=None),
    "pad-side-none": lambda u: u.pad_sequence([_x(u.lib, (2,))], padding_side=None),
    "pad-batch_first-none": lambda u: u.pad_sequence([_x(u.lib, (2,))], batch_first=None),
    "total_length": lambda u: u.pad_packed_sequence(
        u.pack_sequence([_x(u.lib, (3,))]), total_length=2),
    "packed-from-a-tensor": lambda u: u.PackedSequence(_x(u.lib, (3,))),
    "unpad-lengths-longer": lambda u: u.unpad_sequence(_x(u.lib, (3, 2, 1)),
                                                       u.lib.tensor([3, 1, 1])),
}


class _Lib:
    def __init__(self, lib):
        self.lib = lib

    def __getattr__(self, name):
        return getattr(utils(self.lib), name)


@pytest.mark.parametrize("case", ERRORS)
def test_errors_match_torch(case):
    with pytest.raises(Exception) as expected:
        ERRORS[case](_Lib(torch))
    with pytest.raises(Exception) as mine:
        ERRORS[case](_Lib(mt))
    assert type(mine.value) is type(expected.value)
    assert str(mine.value) == str(expected.value)


def test_a_length_past_the_end_is_refused():
    # (PyTorch reads past the end of the input here and packs whatever it finds)
    with pytest.raises(RuntimeError, match="at most the sequence length 4, but got a length "
                                           "of 5"):
        utils(mt).pack_padded_sequence(_x(mt), [5, 3, 1])


def test_lengths_and_batch_sizes_must_be_on_the_cpu(gpu):
    x = _x(mt).to(gpu)
    # PyTorch's message, with the device as it prints it ("cuda:0")
    with pytest.raises(RuntimeError, match=r"^'lengths' argument should be a 1D CPU int64 "
                                           r"tensor, but got 1D cuda:0 Long tensor$"):
        utils(mt).pack_padded_sequence(x, mt.tensor([4, 3, 1], device=gpu))
    with pytest.raises(ValueError, match="^batch_sizes should always be on CPU. Instances"):
        utils(mt).PackedSequence(x, mt.tensor([3, 2], device=gpu))


def test_packing_on_the_gpu_keeps_the_data_there(gpu):
    x = mt.tensor(_padded([1, 3, 2], False), requires_grad=True)
    xg = x.to(gpu)
    packed = utils(mt).pack_padded_sequence(xg, [1, 3, 2], enforce_sorted=False)
    assert isinstance(packed.data._data, PretendArray)
    assert packed.batch_sizes.device.type == "cpu" and packed.sorted_indices.device.type == "cuda"
    padded, lengths = utils(mt).pad_packed_sequence(packed)
    assert padded.device.type == "cuda" and lengths.device.type == "cpu"
    padded.sum().backward()
    mask = np.arange(4)[:, None] < np.array([1, 3, 2])[None, :]
    np.testing.assert_array_equal(x.grad.numpy(), np.broadcast_to(mask[..., None], x.shape))
    moved = utils(mt).pack_sequence([mt.tensor([1.0]), mt.tensor([2.0, 3.0])],
                                    enforce_sorted=False).to(gpu)
    assert moved.data.device == moved.sorted_indices.device == mt.device("cuda", 0)
    assert moved.batch_sizes.device.type == "cpu" and moved.is_cuda
    assert moved.cuda() is moved and moved.cpu().data.device.type == "cpu"
    assert moved.cpu().sorted_indices.device.type == "cpu"
    cpu = utils(mt).pack_sequence([mt.tensor([1.0])])
    assert cpu.cuda().data.device == cpu.cuda(0).data.device == mt.device("cuda", 0)


# ---------------------------------------------------------------- the RNNs on packed input
def _twin(name, dtype, **kwargs):
    torch.manual_seed(0)
    ref = getattr(torch.nn, name)(3, 4, dtype=getattr(torch, dtype), **kwargs)
    mine = getattr(mt.nn, name)(3, 4, dtype=getattr(mt, dtype), **kwargs)
    mine.load_state_dict({k: mt.tensor(v.detach().numpy()) for k, v in ref.state_dict().items()})
    return mine, ref


RNN_CASES = list(itertools.product(
    ["RNN", "LSTM", "GRU"], [False, True], [1, 2], [False, True], [True, False]))


@pytest.mark.parametrize("name,bidirectional,num_layers,batch_first,enforce_sorted", RNN_CASES,
                         ids=lambda v: str(v))
@pytest.mark.parametrize("with_state", [False, True], ids=["zero-state", "given-state"])
def test_rnn_on_packed_input_matches_torch(name, bidirectional, num_layers, batch_first,
                                           enforce_sorted, with_state, dtype="float64",
                                           tol=F64):
    lengths = [5, 3, 3, 1] if enforce_sorted else [3, 5, 1, 3]
    mine_m, ref_m = _twin(name, dtype, num_layers=num_layers, bidirectional=bidirectional,
                          batch_first=batch_first)
    x = _padded(lengths, batch_first, dtype=np.dtype(dtype), trailing=(3,), seed=2)
    layers = num_layers * (2 if bidirectional else 1)
    h0 = np.random.default_rng(3).standard_normal((2, layers, 4, 4)).astype(dtype)
    weights = np.random.default_rng(4).standard_normal(100).astype(dtype)
    results = []
    for lib, module in ((mt, mine_m), (torch, ref_m)):
        xt = lib.tensor(x, requires_grad=True)
        leaves = [xt, *module.parameters()]
        hx = None
        if with_state:
            hx = tuple(lib.tensor(h, requires_grad=True) for h in h0)
            leaves += list(hx) if name == "LSTM" else [hx[0]]
            hx = hx if name == "LSTM" else hx[0]
        packed = utils(lib).pack_padded_sequence(xt, lengths, batch_first, enforce_sorted)
        out, hidden = module(packed, hx)
        hidden = hidden if name == "LSTM" else (hidden,)
        loss = (out.data * lib.tensor(weights[:out.data.numel()].reshape(out.data.shape))).sum()
        loss = loss + sum((h * h).sum() for h in hidden)
        loss.backward()
        results.append((out, hidden, [leaf.grad for leaf in leaves]))
    (out, hidden, grads), (ref_out, ref_hidden, ref_grads) = results
    same_packed(out, ref_out, **tol)
    assert out.data.grad_fn.name() == ref_out.data.grad_fn.name() == "CatBackward0"
    for h, r in zip(hidden, ref_hidden):
        assert_same_values(h, r, **tol)
        assert h.grad_fn.name() == r.grad_fn.name()
    for g, r in zip(grads, ref_grads):
        assert_same_values(g, r, **tol)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_rnn_on_packed_float32_input_matches_torch(name):
    test_rnn_on_packed_input_matches_torch(name, True, 2, True, False, True, dtype="float32",
                                           tol={"rtol": 1e-4, "atol": 1e-5})


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_rnn_on_a_packed_sequence_equals_each_sequence_alone(name):
    """The point of packing: each sequence's output and final state are what the layer gives
    for that sequence alone, whatever the other sequences' lengths."""
    module = getattr(mt.nn, name)(3, 4, bidirectional=True, dtype=mt.float64)
    arrays = seqs([2, 4, 1], trailing=(3,), seed=7)
    out, hidden = module(utils(mt).pack_sequence([mt.tensor(a) for a in arrays],
                                                 enforce_sorted=False))
    h_n = hidden[0] if name == "LSTM" else hidden
    for i, (a, o) in enumerate(zip(arrays, utils(mt).unpack_sequence(out))):
        alone, alone_hidden = module(mt.tensor(a))
        alone_h = alone_hidden[0] if name == "LSTM" else alone_hidden
        np.testing.assert_allclose(o.detach().numpy(), alone.detach().numpy(), **F64)
        np.testing.assert_allclose(h_n[:, i].detach().numpy(), alone_h.detach().numpy(),
                                   **F64)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_rnn_on_packed_input_gradcheck(name):
    module = getattr(mt.nn, name)(2, 2, bidirectional=True, dtype=mt.float64)
    packed = utils(mt).pack_sequence([mt.tensor(a) for a in seqs([2, 3, 1], seed=8)],
                                     enforce_sorted=False)

    def run(data, *params):
        out, hidden = mt.func.functional_call(
            module, dict(zip(names, params)),
            (utils(mt).PackedSequence(data, packed.batch_sizes, packed.sorted_indices,
                                      packed.unsorted_indices),))
        return out.data, *(hidden if name == "LSTM" else (hidden,))
    names = [n for n, _ in module.named_parameters()]
    inputs = [packed.data.detach().requires_grad_(),
              *(p.detach().requires_grad_() for p in module.parameters())]
    assert mt.autograd.gradcheck(run, inputs)


RNN_ERRORS = {
    "dtype": lambda lib, m: m(utils(lib).pack_sequence([lib.ones(2, 3, dtype=lib.float32)])),
    "3-d-data": lambda lib, m: m(utils(lib).PackedSequence(lib.ones(4, 2, 3),
                                                           lib.tensor([2, 2]))),
    "input_size": lambda lib, m: m(utils(lib).pack_sequence([lib.ones(2, 5)])),
    "hidden-size": lambda lib, m: m(utils(lib).pack_sequence([lib.ones(2, 3)]),
                                    lib.zeros(1, 2, 4)),
}


@pytest.mark.parametrize("case", RNN_ERRORS)
@pytest.mark.parametrize("name", ["RNN", "GRU"])
def test_rnn_errors_on_packed_input_match_torch(case, name):
    mine_m, ref_m = _twin(name, "float64")
    with pytest.raises(Exception) as expected:
        RNN_ERRORS[case](torch, ref_m.float() if case == "3-d-data" else ref_m)
    with pytest.raises(Exception) as mine:
        RNN_ERRORS[case](mt, mine_m.float() if case == "3-d-data" else mine_m)
    assert type(mine.value) is type(expected.value)
    assert str(mine.value) == str(expected.value)


def test_lstm_errors_on_packed_input():
    """PyTorch's LSTM leaves a packed input unchecked: the first matrix product finds a wrong
    size or dtype (for a float64 model, PyTorch's float32 kernel says it cannot run the input,
    ours says what F.linear says)."""
    mine_m, ref_m = _twin("LSTM", "float64")
    cases = [(lambda lib, m: m.float(), lambda lib: lib.ones(2, 3, dtype=lib.float64)),
             (lambda lib, m: m, lambda lib: lib.ones(2, 5, dtype=lib.float64))]
    for model, data in cases:
        with pytest.raises(Exception) as expected:
            model(torch, ref_m)(utils(torch).pack_sequence([data(torch)]))
        with pytest.raises(Exception) as mine:
            model(mt, mine_m)(utils(mt).pack_sequence([data(mt)]))
        assert (type(mine.value), str(mine.value)) == (type(expected.value),
                                                       str(expected.value))
    # (PyTorch's packed LSTM does not check the state's shape: it crashes; ours says which)
    mine_m = mine_m.double()
    packed = utils(mt).pack_sequence([mt.ones(2, 3, dtype=mt.float64)])
    with pytest.raises(RuntimeError, match=r"^Expected cell size \(1, 1, 4\), got \[1, 2, 4\]$"):
        mine_m(packed, (mt.zeros(1, 1, 4, dtype=mt.float64),
                        mt.zeros(1, 2, 4, dtype=mt.float64)))

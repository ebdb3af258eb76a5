"""``minitorch.nn.utils.rnn``: sequences of different lengths in one batch.

A batch of sentences has sentences of different lengths. *Padding* puts them into one tensor
``(T, B, *)`` with filler after the short ones (:func:`pad_sequence`); *packing* keeps only the
real steps, time step by time step: the first step of every sequence, then the second step of
those that have one, and so on (:func:`pack_padded_sequence`, :func:`pack_sequence`). A
:class:`PackedSequence` holds those rows (``data``) and how many sequences are still running at
each step (``batch_sizes``); ``nn.RNN``, ``nn.LSTM`` and ``nn.GRU`` read it and stop each
sequence at its own length, so the filler never reaches the hidden state.

Packing needs the sequences sorted longest first; ``enforce_sorted=False`` sorts them and
keeps the permutation (``sorted_indices``) and its inverse (``unsorted_indices``), which
unpacking and the RNNs' final states undo.

All of it is built from differentiable operations (``index_select``, copies into slices,
indexing with a mask), and packing is one node, PyTorch's ``PackPaddedSequenceBackward0``,
whose backward is an ``index_add`` into zeros, so gradients flow through, to any order.

Example:
    >>> import minitorch
    >>> from minitorch.nn.utils.rnn import pack_sequence, pad_packed_sequence
    >>> packed = pack_sequence([minitorch.tensor([1, 2, 3]), minitorch.tensor([4, 5])])
    >>> packed.data, packed.batch_sizes
    (tensor([1, 4, 2, 5, 3]), tensor([2, 2, 1]))
    >>> pad_packed_sequence(packed, batch_first=True)
    (tensor([[1, 2, 3],
            [4, 5, 0]]), tensor([3, 2]))
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from minitorch import _creation, _dtype
from minitorch._backend import array_module
from minitorch._tensor import Tensor, _wrap
from minitorch.autograd.function import Function
from minitorch.ops import indexing as _indexing

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence",
           "pad_packed_sequence", "pad_sequence", "unpad_sequence", "pack_sequence",
           "unpack_sequence"]


class PackedSequence_(NamedTuple):  # noqa: N801  (PyTorch's name)
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """The steps of a batch of sequences, packed: ``data`` holds step 0 of every sequence,
    then step 1 of those still running, ...; ``batch_sizes[t]`` says how many sequences run at
    step ``t`` (a CPU int64 tensor). ``sorted_indices`` (the batch, longest first) and
    ``unsorted_indices`` (its inverse) are ``None`` when the sequences came sorted.

    Make one with :func:`pack_padded_sequence` or :func:`pack_sequence`, not by hand.
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes), sorted_indices)
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        elif batch_sizes.device.type != "cpu":
            raise ValueError(
                "batch_sizes should always be on CPU. Instances of PackedSequence should never "
                "be created manually. They should be instantiated by functions like "
                "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """``data`` as ``Tensor.to`` moves or converts it; the indices follow it to its device
        (``batch_sizes`` stays on the CPU). ``self`` when nothing changes."""
        return self._with(self.data.to(*args, **kwargs))

    def cuda(self, device=None, non_blocking: bool = False) -> PackedSequence:
        return self._with(self.data.cuda(device))

    def cpu(self) -> PackedSequence:
        return self._with(self.data.cpu())

    def _with(self, data: Tensor) -> PackedSequence:
        if data is self.data:
            return self
        sorted_indices, unsorted_indices = (
            None if t is None else t.to(data.device)
            for t in (self.sorted_indices, self.unsorted_indices))
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtype.double)

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtype.float)

    def half(self) -> PackedSequence:
        return self.to(dtype=_dtype.half)

    def long(self) -> PackedSequence:
        return self.to(dtype=_dtype.long)

    def int(self) -> PackedSequence:
        return self.to(dtype=_dtype.int)

    def short(self) -> PackedSequence:
        return self.to(dtype=_dtype.short)

    def char(self) -> PackedSequence:
        return self.to(dtype=_dtype.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=_dtype.uint8)

    @property
    def is_cuda(self) -> bool:
        """Whether ``data`` is on a CUDA device."""
        return self.data.is_cuda


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse permutation: ``output[permutation[i]] = i`` (``None`` for ``None``)."""
    if permutation is None:
        return None
    output = _creation.empty_like(permutation)
    output.scatter_(0, permutation,
                    _creation.arange(0, permutation.numel(), device=permutation.device))
    return output


# ---------------------------------------------------------------- packing: one node
class PackPaddedSequence(Function):
    """The real steps of a padded batch, step by step: ``input`` flattened over its first two
    dimensions, at the rows ``index`` (computed from the lengths). Backward puts each row's
    gradient back where it came from, into zeros (``index_add``: it can be differentiated
    again); the padding gets zero."""

    node_name = "PackPaddedSequenceBackward0"
    _builtin = True
    _edge_args = (0,)

    @staticmethod
    def forward(ctx, input, index):  # noqa: A002
        flat = input._data.reshape((-1,) + input._data.shape[2:])
        ctx.shape, ctx.index = input._data.shape, array_module(flat).asarray(index)  # its device
        return _wrap(flat[ctx.index])

    @staticmethod
    def backward(ctx, grad):
        rows = (ctx.shape[0] * ctx.shape[1],) + ctx.shape[2:]
        zeros = _wrap(array_module(grad._data).zeros(rows, dtype=grad._data.dtype))
        return _indexing.index_add(zeros, 0, _wrap(ctx.index), grad).reshape(ctx.shape)


def _pack_padded_sequence(input: Tensor, lengths: Tensor, batch_first: bool) -> tuple:  # noqa: A002
    """``(data, batch_sizes)`` with PyTorch's checks (``_VF._pack_padded_sequence``)."""
    if lengths.dim() != 1 or lengths.device.type != "cpu":
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got "
                           f"{lengths.dim()}D {lengths.device} "
                           f"{lengths.dtype._legacy.removesuffix('Tensor')} tensor")
    if input.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[-{max(input.dim(), 1)}, {max(input.dim(), 1) - 1}], but got 1)")
    steps, batch = (input.shape[1], input.shape[0]) if batch_first else input.shape[:2]
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    lens = np.asarray(lengths.tolist(), dtype=np.int64)
    if lens.shape[0] != batch:
        raise RuntimeError("Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lens.shape[0]} (batch_size={batch})")
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    if np.any(lens[1:] > lens[:-1]):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence "
            "to sidestep this requirement if you do not need ONNX exportability.")
    if lens[0] > steps:  # (PyTorch reads past the end of the input here)
        raise RuntimeError(f"Expected all lengths to be at most the sequence length {steps}, "
                           f"but got a length of {int(lens[0])}")
    batch_sizes = (lens[None, :] > np.arange(lens[0])[:, None]).sum(1)
    t, b = np.nonzero(np.arange(lens[0])[:, None] < lens[None, :])  # step-major order
    index = b * steps + t if batch_first else t * batch + b
    return PackPaddedSequence.apply(input, index), _wrap(batch_sizes.astype(np.int64))


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,  # noqa: A002
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``(T, B, *)`` (``(B, T, *)`` with ``batch_first``) whose sequences
    have the given ``lengths`` (a list or a CPU tensor). With ``enforce_sorted`` (the default)
    the lengths must decrease; otherwise the batch is sorted first and the permutation kept."""
    if not isinstance(lengths, Tensor):
        lengths = _creation.as_tensor(lengths, dtype=_dtype.int64, device="cpu")
    else:
        lengths = lengths.to(dtype=_dtype.int64)
    if enforce_sorted:
        sorted_indices = None
    else:
        lengths, sorted_indices = lengths.sort(descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)  # noqa: A001
    data, batch_sizes = _pack_padded_sequence(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False,
                        padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """Undo packing: ``(padded, lengths)``, the batch in its original order, each sequence
    followed by ``padding_value`` up to the longest (or ``total_length``) steps."""
    sizes = sequence.batch_sizes.tolist()
    max_seq_length = len(sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest "
                             "sequence in input, but got "
                             f"total_length={total_length} and max sequence length being "
                             f"{max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    padded = _creation.full((max_seq_length, sizes[0]) + tuple(data.shape[1:]), padding_value,
                            dtype=data.dtype, device=data.device)
    offset = 0
    for t, size in enumerate(sizes):  # step t of the first ``size`` sequences (CopySlices)
        padded[t, :size] = data[offset:offset + size]
        offset += size
    lengths = (np.asarray(sizes)[None, :] > np.arange(sizes[0])[:, None]).sum(1)
    lengths = _wrap(lengths.astype(np.int64))
    if batch_first:
        padded = padded.transpose(0, 1)
    unsorted_indices = sequence.unsorted_indices
    if unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, unsorted_indices),
                lengths[unsorted_indices.cpu()])
    return padded, lengths


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths ``(L_i, *)`` into one tensor ``(T, B, *)``
    (``(B, T, *)`` with ``batch_first``), filled with ``padding_value`` after each one (or
    before, ``padding_side="left"``). The trailing dimensions and dtype are the first's."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError("pad_sequence: Expected iterable for input sequences, but got arg "
                           f"of type: {type(sequences)}")
    sequences = tuple(sequences)
    for i, seq in enumerate(sequences):
        if not isinstance(seq, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got "
                            f"{type(seq).__name__}")
    for name, value, kind, pos in (("batch_first", batch_first, bool, 2),
                                   ("padding_value", padding_value, numbers.Real, 3),
                                   ("padding_side", padding_side, str, 4)):
        if not isinstance(value, kind) and not (isinstance(value, Tensor) and kind is numbers.Real):
            want = {bool: "bool", numbers.Real: "float", str: "str"}[kind]
            raise TypeError(f"pad_sequence(): argument '{name}' (position {pos}) must be "
                            f"{want}, not {type(value).__name__}")
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError("Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    first = sequences[0]
    if first.dim() == 0:
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
    for seq in sequences:
        if seq.dim() == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    max_len = max(seq.shape[0] for seq in sequences)
    dims = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    if isinstance(padding_value, Tensor):
        padding_value = padding_value.item()
    out = _creation.full(dims + tuple(first.shape[1:]), padding_value, dtype=first.dtype,
                         device=first.device)
    for i, seq in enumerate(sequences):  # each sequence copied into its slice (CopySlices)
        length = seq.shape[0]
        start = max_len - length if padding_side == "left" else 0
        if batch_first:
            out.select(0, i).narrow(0, start, length).copy_(seq)
        else:
            out.narrow(0, start, length).select(1, i).copy_(seq)
    return out


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor,
                   batch_first: bool = False) -> list[Tensor]:
    """Undo :func:`pad_sequence`: the sequences, each cut to its length. As PyTorch's, it
    transposes ``padded_sequences`` in place when ``batch_first`` is False."""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = _creation.arange(max_length, device=lengths.device)
    for seq, length in zip(padded_sequences, lengths, strict=True):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences ``(L_i, *)``: :func:`pad_sequence`, then
    :func:`pack_padded_sequence` with their lengths."""
    lengths = _creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """Undo :func:`pack_sequence`: the list of sequences, in their original order."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)

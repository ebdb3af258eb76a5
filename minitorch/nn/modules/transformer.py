"""The Transformer of "Attention Is All You Need": ``nn.TransformerEncoderLayer`` and
``nn.TransformerDecoderLayer``, their stacks ``nn.TransformerEncoder`` and
``nn.TransformerDecoder``, and ``nn.Transformer``, an encoder and a decoder together.

An encoder layer is self-attention then a two-layer feed-forward network, each added back to
its input (a residual connection) and layer-normalised: after the addition by default
(``norm_first=False``, "post-norm"), before the block with ``norm_first=True`` ("pre-norm").
A decoder layer has a second attention between them, from the target to the encoder's output
(``memory``).

PyTorch also has fast paths for inference (fused kernels, nested tensors for padded batches);
they compute the same numbers, so minitorch has only the ordinary path, and sets the padded
positions to zero where PyTorch's nested tensors leave them out (``TransformerEncoder``).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
    >>> encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    >>> encoder(minitorch.zeros(5, 3, 8)).shape        # (sequence, batch, feature)
    torch.Size([5, 3, 8])
    >>> nn.Transformer.generate_square_subsequent_mask(3)
    tensor([[0., -inf, -inf],
            [0., 0., -inf],
            [0., 0., 0.]])
"""

from __future__ import annotations

import copy
import warnings

from minitorch import _creation
from minitorch.autograd import grad_mode
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.activation import GELU, ReLU
from minitorch.nn.modules.attention import MultiheadAttention
from minitorch.nn.modules.container import ModuleList
from minitorch.nn.modules.dropout import Dropout
from minitorch.nn.modules.linear import Linear
from minitorch.nn.modules.module import Module
from minitorch.nn.modules.normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
           "TransformerDecoderLayer"]


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None):
    """The causal mask of ``sz`` positions: ``-inf`` above the diagonal (a position may not
    look at later ones), 0 elsewhere."""
    return _creation.full((sz, sz), float("-inf"), dtype=dtype, device=device).triu(1)


def _get_seq_len(src, batch_first: bool) -> int:
    return src.shape[0] if src.dim() == 2 else src.shape[1 if batch_first else 0]


def _detect_is_causal_mask(mask, is_causal: bool | None = None, size: int | None = None) -> bool:
    """``is_causal`` when given; otherwise whether ``mask`` is the causal mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    sz = size if size is not None else mask.shape[-2]
    causal = _generate_square_subsequent_mask(sz, device=mask.device, dtype=mask.dtype)
    return mask.shape == causal.shape and bool((mask == causal).all())


def _get_clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation: str):
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


class _TransformerLayer(Module):
    """What the encoder and decoder layers share: their parts, made in PyTorch's order (the
    attentions named in ``_attentions``, the feed-forward network, one layer norm and one
    dropout per block), and the blocks themselves."""

    _attentions: tuple = ()

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation=F.relu, layer_norm_eps: float = 1e-5,
                 batch_first: bool = False, norm_first: bool = False, bias: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        factory = {"device": device, "dtype": dtype}
        for name in self._attentions:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first, **factory))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        blocks = range(1, len(self._attentions) + 2)
        for i in blocks:
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias,
                                                **factory))
        for i in blocks:
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = (_get_activation_fn(activation) if isinstance(activation, str)
                           else activation)

    def _attention_block(self, attn, x, mem, attn_mask, key_padding_mask, is_causal, drop):
        x = attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                 is_causal=is_causal, need_weights=False)[0]
        return drop(x)

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        return self._attention_block(self.self_attn, x, x, attn_mask, key_padding_mask,
                                     is_causal, self.dropout1)

    def _ff_block(self, x):
        last = getattr(self, f"dropout{len(self._attentions) + 1}")
        return last(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerEncoderLayer(_TransformerLayer):
    """Self-attention and a feed-forward network, each with a residual connection, dropout
    and layer norm.

    Args:
        d_model: features per token; nhead: attention heads.
        dim_feedforward: width of the feed-forward network (default 2048).
        dropout: dropout after attention, inside and after the feed-forward network.
        activation: ``"relu"``, ``"gelu"`` or a callable.
        layer_norm_eps, batch_first, norm_first, bias: see the module docstring.
    """

    _attentions = ("self_attn",)

    @property
    def activation_relu_or_gelu(self) -> int:
        """1 for ReLU, 2 for GELU, 0 otherwise (what PyTorch's fused kernel can run)."""
        if self.activation is F.relu or isinstance(self.activation, ReLU):
            return 1
        return 2 if self.activation is F.gelu or isinstance(self.activation, GELU) else 0

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal: bool = False):
        """``src``: ``(S, N, E)`` (``(N, S, E)`` with ``batch_first``) or ``(S, E)``."""
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(src_mask), "src_mask",
                                                 src.dtype)
        src_mask = F._canonical_mask(src_mask, "src_mask", None, "", src.dtype,
                                     check_other=False)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))


class TransformerDecoderLayer(_TransformerLayer):
    """Self-attention, attention to the encoder's output (``memory``) and a feed-forward
    network, each with a residual connection, dropout and layer norm. Arguments as
    :class:`TransformerEncoderLayer`."""

    _attentions = ("self_attn", "multihead_attn")

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False):
        """``tgt``: ``(T, N, E)``, ``memory``: ``(S, N, E)`` (batch first with
        ``batch_first``)."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask,
                                    memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        return self._attention_block(self.multihead_attn, x, mem, attn_mask, key_padding_mask,
                                     is_causal, self.dropout2)


def _why_no_nested_tensor(layer) -> str:
    """Why PyTorch's encoder cannot use nested tensors with this layer ("" when it can)."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    attn = layer.self_attn
    reasons = [
        (layer.norm_first, f"{name}.norm_first was True"),
        (not attn.batch_first, f"{name}.self_attn.batch_first was not True(use batch_first "
                               "for better inference performance)"),
        (not attn._qkv_same_embed_dim, f"{name}.self_attn._qkv_same_embed_dim was not True"),
        (attn.in_proj_bias is None, f"{name}.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, f"{name}.activation_relu_or_gelu was not True"),
        (layer.norm1.eps != layer.norm2.eps,
         f"{name}.norm1.eps was not equal to {name}.norm2.eps"),
        (attn.num_heads % 2 == 1, f"{name}.self_attn.num_heads is odd"),
    ]
    return next((reason for failed, reason in reasons if failed), "")


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer``, one after the other, then ``norm`` (if
    given).

    ``enable_nested_tensor`` is PyTorch's inference fast path for padded batches: under
    ``no_grad``, in evaluation, with a ``src_key_padding_mask`` whose padding is at the end of
    each sequence, PyTorch drops the padded positions (a nested tensor) and returns zeros
    there. minitorch computes them as usual and then sets them to zero, so the output is the
    same; the warning when the layer does not allow nested tensors is PyTorch's.
    """

    def __init__(self, encoder_layer, num_layers: int, norm=None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_no_nested_tensor(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal: bool | None = None):
        src_key_padding_mask = F._canonical_mask(src_key_padding_mask, "src_key_padding_mask",
                                                 F._none_or_dtype(mask), "mask", src.dtype)
        mask = F._canonical_mask(mask, "mask", None, "", src.dtype, check_other=False)
        seq_len = _get_seq_len(src, self.layers[0].self_attn.batch_first)
        is_causal = _detect_is_causal_mask(mask, is_causal, seq_len)
        dropped = self._nested_tensor_padding(src, mask, src_key_padding_mask)
        if dropped is not None:  # the padding PyTorch's nested tensor leaves out
            src_key_padding_mask = F._canonical_mask(dropped, "", None, "", src.dtype)
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        if dropped is not None:
            output = output.masked_fill(dropped.unsqueeze(-1), 0.0)
        return output if self.norm is None else self.norm(output)

    def _nested_tensor_padding(self, src, mask, padding):
        """Where PyTorch runs this call on nested tensors, the positions they leave out (True):
        the last ones of each sequence, as many as ``padding`` marks. Otherwise None."""
        layer = self.layers[0]
        if (not self.use_nested_tensor or layer.training or src.dim() != 3 or padding is None
                or mask is not None):
            return None
        kept = padding.isneginf().logical_not().long()
        if self.mask_check and not bool((kept[:, 1:] <= kept[:, :-1]).all()):
            return None  # some padding is not at the end of its sequence
        tensors = (src, *(p for module in (layer.self_attn, layer.norm1, layer.norm2,
                                           layer.linear1, layer.linear2)
                          for p in module.parameters()))
        if grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors):
            return None
        positions = _creation.arange(padding.shape[1], device=padding.device)
        return positions >= kept.sum(1, keepdim=True)


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer``, each attending to ``memory``, then
    ``norm`` (if given)."""

    def __init__(self, decoder_layer, num_layers: int, norm=None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False):
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """An encoder of ``src`` and a decoder of ``tgt`` that attends to the encoding, with
    PyTorch's defaults (``d_model=512``, 8 heads, 6 + 6 layers). Every weight matrix is
    re-drawn Xavier-uniform after all layers are built, as PyTorch does."""

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation=F.relu, custom_encoder=None,
                 custom_decoder=None, layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)

        def stack(custom, stack_cls, layer_cls, num_layers):
            if custom is not None:
                return custom
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            return stack_cls(layer_cls(*layer_args, **factory), num_layers, norm)

        self.encoder = stack(custom_encoder, TransformerEncoder, TransformerEncoderLayer,
                             num_encoder_layers)
        self.decoder = stack(custom_decoder, TransformerDecoder, TransformerDecoderLayer,
                             num_decoder_layers)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal: bool | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False):
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None):
        """The causal mask of ``sz`` positions (``-inf`` above the diagonal, 0 elsewhere)."""
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)

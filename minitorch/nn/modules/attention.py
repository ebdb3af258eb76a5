"""``nn.MultiheadAttention``: attention with learned projections, in several heads at once.

The query, key and value are each projected (``in_proj_weight``, one ``(3E, E)`` matrix when
all three have ``embed_dim`` features), split into ``num_heads`` heads of ``E / num_heads``
features, each head attends on its own (``F.scaled_dot_product_attention``), and the heads are
joined and projected again (``out_proj``). All of it is ``F.multi_head_attention_forward``.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> mha = nn.MultiheadAttention(8, 2, batch_first=True)
    >>> x = minitorch.zeros(3, 5, 8)                  # 3 sequences of 5 tokens
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape                      # weights averaged over the heads
    (torch.Size([3, 5, 8]), torch.Size([3, 5, 5]))
"""

from __future__ import annotations

from minitorch import _creation
from minitorch.nn import functional as F
from minitorch.nn import init
from minitorch.nn.modules.linear import NonDynamicallyQuantizableLinear
from minitorch.nn.modules.module import Module
from minitorch.nn.parameter import Parameter

__all__ = ["MultiheadAttention"]


class MultiheadAttention(Module):
    """Multi-head attention of ``query`` to ``key``/``value``.

    Args:
        embed_dim: features of the query (and of the output).
        num_heads: heads; ``embed_dim`` must be divisible by it.
        dropout: dropout on the attention weights in training.
        bias: biases in the input and output projections.
        add_bias_kv: a learned extra key and value (``bias_k``, ``bias_v``).
        add_zero_attn: an extra key and value of zeros.
        kdim, vdim: features of key and value (default ``embed_dim``); when they differ,
            the projections are three weights (``q_proj_weight``, ...) instead of one.
        batch_first: input as ``(batch, seq, feature)`` instead of ``(seq, batch, feature)``.

    Initialisation (PyTorch's, in its order): ``out_proj`` as an ``nn.Linear``, then the input
    projection Xavier-uniform, the biases zero, ``bias_k`` and ``bias_v`` Xavier-normal.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")

        def parameter(*shape):
            return Parameter(_creation.empty(shape, dtype=dtype, device=device))

        if self._qkv_same_embed_dim:
            self.in_proj_weight = parameter(3 * embed_dim, embed_dim)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = parameter(embed_dim, embed_dim)
            self.k_proj_weight = parameter(embed_dim, self.kdim)
            self.v_proj_weight = parameter(embed_dim, self.vdim)
            self.register_parameter("in_proj_weight", None)
        self.register_parameter("in_proj_bias", parameter(3 * embed_dim) if bias else None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        device=device, dtype=dtype)
        if add_bias_kv:
            self.bias_k = parameter(1, 1, embed_dim)
            self.bias_v = parameter(1, 1, embed_dim)
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights: bool = True,
                attn_mask=None, average_attn_weights: bool = True, is_causal: bool = False):
        """``(output, weights)``; ``weights`` is None unless ``need_weights``.

        Masks: ``key_padding_mask`` ``(N, S)`` marks the keys to ignore (True or ``-inf``);
        ``attn_mask`` ``(L, S)`` or ``(N * num_heads, L, S)`` the query-key pairs."""
        batched = query.dim() == 3
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                      check_other=False)
        if self.batch_first and batched:  # computed sequence-first; the same tensor stays one
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query = query.transpose(1, 0)
                    key = value = key.transpose(1, 0)
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and batched:
            out = out.transpose(1, 0)
        return out, weights

"""``minitorch.nn.utils``: helpers around training (gradient clipping, parametrizations) and,
in ``nn.utils.rnn``, batches of sequences of different lengths (padding and packing)."""

from minitorch.nn.utils import parametrizations, parametrize, rnn
from minitorch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parametrizations", "parametrize", "rnn"]

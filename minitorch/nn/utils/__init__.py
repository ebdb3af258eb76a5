"""``minitorch.nn.utils``: helpers around training (gradient clipping, parametrizations)."""

from minitorch.nn.utils import parametrizations, parametrize
from minitorch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parametrizations", "parametrize"]

"""``minitorch.nn.utils``: helpers around training (gradient clipping, parametrizations,
pruning in ``nn.utils.prune``, parameters as one vector) and, in ``nn.utils.rnn``, batches of
sequences of different lengths (padding and packing)."""

from minitorch.nn.utils import parametrizations, parametrize, prune, rnn
from minitorch.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_
from minitorch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = [
    "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "parametrizations",
    "parametrize", "prune", "rnn", "vector_to_parameters",
]

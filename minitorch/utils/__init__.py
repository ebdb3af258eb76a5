"""``minitorch.utils``: helpers around the core; ``utils.data`` loads data in batches,
``utils.checkpoint`` recomputes a part of the forward in backward to save memory."""

from minitorch.utils import checkpoint, data

__all__ = ["checkpoint", "data"]

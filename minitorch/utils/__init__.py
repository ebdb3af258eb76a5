"""``minitorch.utils``: helpers around the core; ``utils.data`` loads data in batches."""

from minitorch.utils import data

__all__ = ["data"]

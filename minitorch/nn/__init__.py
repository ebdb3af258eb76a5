"""``minitorch.nn``: neural-network building blocks (``functional`` for now)."""

from minitorch.nn import functional

__all__ = ["functional"]

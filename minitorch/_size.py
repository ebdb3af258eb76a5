"""``torch.Size``: a tuple of dimension sizes that prints as PyTorch prints it."""

from __future__ import annotations

__all__ = ["Size"]


class Size(tuple):
    """The shape of a tensor: a tuple of ints.

    >>> Size([5, 3])
    torch.Size([5, 3])
    >>> Size([5, 3]).numel()
    15
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        """The number of elements a tensor of this shape holds."""
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        out = tuple.__getitem__(self, key)
        return Size(out) if isinstance(key, slice) else out

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))

    def __reduce__(self):
        return (Size, (tuple(self),))

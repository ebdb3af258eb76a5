"""Named tuples returned by ``max(dim)``, ``min(dim)`` and friends (``values``, ``indices``).

>>> import minitorch
>>> minitorch.tensor([[1.0, 5.0], [3.0, 4.0]]).max(dim=1)
torch.return_types.max(
values=tensor([5., 4.]),
indices=tensor([1, 0]))
"""

from __future__ import annotations

from collections import namedtuple

__all__ = ["max", "min"]


def _make(name: str):
    base = namedtuple(name, ["values", "indices"])

    def __repr__(self) -> str:  # noqa: N807
        return f"torch.return_types.{name}(\nvalues={self.values!r},\nindices={self.indices!r})"

    return type(name, (base,), {"__repr__": __repr__, "__slots__": (),
                                "__module__": "minitorch.return_types"})


max = _make("max")  # noqa: A001
min = _make("min")  # noqa: A001

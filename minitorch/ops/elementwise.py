"""Tensor methods that run Python on each element: ``apply_`` and ``map_`` (CPU only, and
never recorded, as in PyTorch).

Example:
    >>> import minitorch
    >>> minitorch.tensor([1, 2, 3]).apply_(lambda v: v * 10)
    tensor([10, 20, 30])
"""

from __future__ import annotations

import numpy as np

from minitorch._tensor import Tensor
from minitorch.ops._util import check_tensor

__all__ = ["apply_", "map_"]


def _check_callable_target(self: Tensor, name: str) -> None:
    if self.device.type != "cpu":
        raise TypeError(f"{name} is only implemented on CPU tensors")
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _write_results(self: Tensor, results: list) -> Tensor:
    """Write the callable's results (Python numbers, element by element) into ``self``."""
    self._write(np.array(results).astype(self._data.dtype).reshape(self._data.shape))
    return self


def apply_(self: Tensor, callable) -> Tensor:  # noqa: A002  (PyTorch's argument name)
    """Replace each element ``v`` of ``self`` with ``callable(v)``, in place. Slow: one Python
    call per element, as in PyTorch."""
    _check_callable_target(self, "apply_")
    return _write_results(self, [callable(v) for v in self._data.reshape(-1).tolist()])


def map_(self: Tensor, other: Tensor, callable) -> Tensor:  # noqa: A002
    """Replace each element ``v`` of ``self`` with ``callable(v, w)``, ``w`` the element of
    ``other`` (broadcast to ``self``'s shape) at the same place, in place."""
    _check_callable_target(self, "map_")
    check_tensor(other, "map_", "other", 1)
    if other.dtype is not self.dtype:
        raise TypeError(f"map_: expected torch.{self.dtype._legacy} for 'other' (got "
                        f"torch.{other.dtype._legacy})")
    pairs = zip(self._data.reshape(-1).tolist(),
                other.expand(self.shape)._data.reshape(-1).tolist())
    return _write_results(self, [callable(v, w) for v, w in pairs])


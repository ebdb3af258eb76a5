"""Tensor methods that run Python on each element: ``apply_`` and ``map_`` (CPU only, and
never recorded, as in PyTorch's ``torch/csrc/utils/tensor_apply.cpp``).

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


def _check_no_grad(self: Tensor, name: str) -> None:
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")


def _check_cpu(self: Tensor, name: str) -> None:
    if self.device.type != "cpu":
        raise TypeError(f"{name} is only implemented on CPU tensors")


def _type_name(t: Tensor) -> str:
    """PyTorch's old name of a tensor's type and device: ``torch.cuda.FloatTensor``."""
    return f"torch.{'cuda.' if t.device.type == 'cuda' else ''}{t.dtype._legacy}"


def _write_results(self: Tensor, results: list) -> Tensor:
    """Write the callable's results (Python numbers, in index order) into ``self``."""
    dtype = self._data.dtype
    values = np.array(results)
    if dtype == np.float16:  # PyTorch stores a Python float as a Half through a float
        values = values.astype(np.float32)
    self._write(values.astype(dtype).reshape(self._data.shape))
    return self


def apply_(self: Tensor, callable) -> Tensor:  # noqa: A002  (PyTorch's argument name)
    """Replace each element ``v`` of ``self`` with ``callable(v)``, in place. Slow: one Python
    call per element, as in PyTorch."""
    _check_no_grad(self, "apply_")
    _check_cpu(self, "apply_")
    return _write_results(self, [callable(v) for v in self._data.reshape(-1).tolist()])


def map_(self: Tensor, other: Tensor, callable) -> Tensor:  # noqa: A002
    """Replace each element ``v`` of ``self`` with ``callable(v, w)``, ``w`` the element of
    ``other`` (broadcast to ``self``'s shape) at the same place, in place."""
    _check_no_grad(self, "map_")
    check_tensor(other, "map_", "other", 1)
    if other.dtype is not self.dtype or other.device != self.device:
        raise TypeError(f"map_: expected {_type_name(self)} for 'other' (got "
                        f"{_type_name(other)})")
    _check_cpu(self, "map_")
    pairs = zip(self._data.reshape(-1).tolist(),
                other.expand(self.shape)._data.reshape(-1).tolist())
    return _write_results(self, [callable(v, w) for v, w in pairs])

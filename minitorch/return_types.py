"""Named tuples returned by ``max(dim)``, ``sort``, ``topk``, ``median(dim)``, ``linalg.svd``
and friends (``values``, ``indices``; ``U``, ``S``, ``Vh``), printed as PyTorch prints them.

>>> import minitorch
>>> minitorch.tensor([[1.0, 5.0], [3.0, 4.0]]).max(dim=1)
torch.return_types.max(
values=tensor([5., 4.]),
indices=tensor([1, 1]))
"""

from __future__ import annotations

from collections import namedtuple

__all__ = ["max", "min", "sort", "topk", "median", "linalg_svd"]


def _make(name: str, fields=("values", "indices")):
    base = namedtuple(name, fields)

    def __repr__(self) -> str:  # noqa: N807
        parts = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"torch.return_types.{name}(\n{parts})"

    return type(name, (base,), {"__repr__": __repr__, "__slots__": (),
                                "__module__": "minitorch.return_types"})


max = _make("max")  # noqa: A001
min = _make("min")  # noqa: A001
sort = _make("sort")
topk = _make("topk")
median = _make("median")
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))
kthvalue = _make("kthvalue")
mode = _make("mode")
cummax = _make("cummax")
cummin = _make("cummin")
aminmax = _make("aminmax", ("min", "max"))
nanmedian = _make("nanmedian")
__all__ += ["kthvalue", "mode", "cummax", "cummin", "aminmax"]
slogdet = _make("slogdet", ("sign", "logabsdet"))
linalg_slogdet = _make("linalg_slogdet", ("sign", "logabsdet"))
linalg_eigh = _make("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_qr = _make("linalg_qr", ("Q", "R"))
svd = _make("svd", ("U", "S", "V"))
__all__ += ["slogdet", "linalg_slogdet", "linalg_eigh", "linalg_qr", "svd"]
frexp = _make("frexp", ("mantissa", "exponent"))  # (task: methods)
# task linalg2
linalg_inv_ex = _make("linalg_inv_ex", ("inverse", "info"))
linalg_solve_ex = _make("linalg_solve_ex", ("result", "info"))
linalg_cholesky_ex = _make("linalg_cholesky_ex", ("L", "info"))
qr = _make("qr", ("Q", "R"))
triangular_solve = _make("triangular_solve", ("solution", "cloned_coefficient"))
__all__ += ["linalg_inv_ex", "linalg_solve_ex", "linalg_cholesky_ex", "qr", "triangular_solve"]
linalg_lu_factor = _make("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _make("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _make("linalg_lu", ("P", "L", "U"))
lu_unpack = _make("lu_unpack", ("P", "L", "U"))
_lu_with_info = _make("_lu_with_info", ("LU", "pivots", "info"))
__all__ += ["linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu", "lu_unpack"]
linalg_lstsq = _make("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
__all__ += ["linalg_lstsq"]
histogram = _make("histogram", ("hist", "bin_edges"))
histogramdd = _make("histogramdd", ("hist", "bin_edges"))
__all__ += ["histogram", "histogramdd"]
linalg_ldl_factor = _make("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _make("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
__all__ += ["linalg_ldl_factor", "linalg_ldl_factor_ex"]

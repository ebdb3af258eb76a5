"""``minitorch.backends.cuda``: the CUDA backend, which minitorch reaches through CuPy.

``is_built()`` says whether the CUDA backend can be used at all here (CuPy is installed);
``minitorch.cuda.is_available()`` says whether it also finds a GPU.

>>> import minitorch
>>> minitorch.backends.cuda.is_built() in (True, False)
True
"""

from __future__ import annotations

import importlib.util


def is_built() -> bool:
    """Whether minitorch can drive CUDA here: CuPy is installed (it is not imported)."""
    return importlib.util.find_spec("cupy") is not None


class _MatmulFlags:
    """``backends.cuda.matmul``: the TF32 switch. CuPy multiplies in full float32 (the flag
    is kept so that code setting it runs, and changes nothing)."""

    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True

    def __repr__(self) -> str:
        return "<minitorch.backends.cuda.matmul>"


matmul = _MatmulFlags()

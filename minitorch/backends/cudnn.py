"""``minitorch.backends.cudnn``: NVIDIA's cuDNN, which minitorch does not use.

Tutorials set ``cudnn.benchmark = True`` or ``cudnn.deterministic = True``; those flags are
plain module attributes here, kept so the code runs. minitorch's GPU kernels are CuPy's, which
are deterministic and need no tuning.

>>> import minitorch
>>> minitorch.backends.cudnn.is_available(), minitorch.backends.cudnn.version()
(False, None)
"""

from __future__ import annotations

enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    """Whether cuDNN can be used: never in minitorch."""
    return False


def version() -> int | None:
    """cuDNN's version, or None when it is not available (always None here)."""
    return None

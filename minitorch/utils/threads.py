"""How many threads NumPy's BLAS (the matrix-product library) may use.

PyTorch has ``torch.set_num_threads``; minitorch's matrix products run in NumPy's BLAS
(OpenBLAS or MKL), whose thread pool is set here. For the small matrices of a course, one
thread is often *faster*: waking other threads costs more than they save, and on a busy
machine spinning BLAS threads can slow a training loop down several times.

It uses ``threadpoolctl`` (installed with scikit-learn) when it is there; without it the
functions do nothing and return ``None``.

Example:
    >>> from minitorch.utils.threads import get_num_threads, set_num_threads
    >>> previous = get_num_threads()
    >>> _ = set_num_threads(1)
    >>> get_num_threads() in (1, None)
    True
    >>> _ = set_num_threads(previous)
"""

from __future__ import annotations

__all__ = ["set_num_threads", "get_num_threads"]


def _controller():
    try:
        from threadpoolctl import ThreadpoolController  # optional, on demand
    except ImportError:
        return None
    return ThreadpoolController()


def get_num_threads() -> int | None:
    """The number of threads of NumPy's BLAS (None if it cannot be told)."""
    ctl = _controller()
    if ctl is None:
        return None
    pools = [p for p in ctl.info() if p.get("user_api") == "blas"]
    return max((p["num_threads"] for p in pools), default=None)


def set_num_threads(n: int | None) -> int | None:
    """Let NumPy's BLAS use ``n`` threads; returns the previous number (None: unknown)."""
    previous = get_num_threads()
    ctl = _controller()
    if ctl is None or n is None:
        return previous
    ctl.limit(limits=int(n), user_api="blas")
    return previous

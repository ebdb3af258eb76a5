"""``minitorch.backends.mkl``: Intel's MKL is not used directly (NumPy picks its own BLAS)."""


def is_available() -> bool:
    return False

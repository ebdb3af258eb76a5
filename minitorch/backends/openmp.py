"""``minitorch.backends.openmp``: minitorch runs no OpenMP code of its own."""


def is_available() -> bool:
    return False

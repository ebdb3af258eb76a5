"""``minitorch.backends.mps``: Apple's Metal GPUs, which minitorch does not drive.

>>> import minitorch
>>> minitorch.backends.mps.is_available(), minitorch.backends.mps.is_built()
(False, False)
"""


def is_available() -> bool:
    """Whether tensors can be moved to ``"mps"``: never in minitorch."""
    return False


def is_built() -> bool:
    """Whether minitorch was built with MPS support: it was not."""
    return False

"""``minitorch.backends.cpu``: the CPU backend (NumPy)."""


def get_cpu_capability() -> str:
    """The instruction set the CPU kernels use; NumPy chooses its own, so: ``"DEFAULT"``."""
    return "DEFAULT"

"""``minitorch.backends``: what each compute backend can do here (``torch.backends``).

Tutorials pick their device with lines such as::

    device = ("cuda" if torch.cuda.is_available()
              else "mps" if torch.backends.mps.is_available() else "cpu")

minitorch computes on the CPU with NumPy, and on an NVIDIA GPU with CuPy when it is installed
and finds one. Apple's MPS, cuDNN and the other vendor libraries are never used, so their
``is_available()`` answers False; the flags tutorials set (``cudnn.benchmark = True``) are kept
but change nothing.

Example:
    >>> import minitorch
    >>> minitorch.backends.mps.is_available()
    False
"""

from minitorch.backends import cpu, cuda, cudnn, mkl, mps, openmp

__all__ = ["cpu", "cuda", "cudnn", "mkl", "mps", "openmp"]

"""``minitorch.nn.parallel``: where PyTorch keeps ``DataParallel``, so ``import torch.nn.parallel``
(the DCGAN tutorial's first lines) works. minitorch runs on one device, and its
``DataParallel`` simply calls the module it holds."""

from minitorch.nn.modules.container import DataParallel

__all__ = ["DataParallel"]

"""Lazy modules: ``nn.LazyLinear``, ``nn.LazyConv1d``/``2d``/``3d``,
``nn.LazyConvTranspose1d``/``2d``/``3d``,
``nn.LazyBatchNorm1d``/``2d`` and ``nn.LazyInstanceNorm1d``/``2d``, whose input size is read
from their first input.

Until then their weight and bias are :class:`~minitorch.nn.UninitializedParameter`
placeholders. A forward pre-hook, on the first call, fills in the input size, gives the
parameters their shapes (the same objects: an optimizer made before keeps them), initialises
them as the ordinary layer does (the same random numbers as PyTorch's), and turns the module
into that layer (``LazyLinear`` becomes ``Linear``).

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> layer = nn.LazyLinear(3)
    >>> layer
    LazyLinear(in_features=0, out_features=3, bias=True)
    >>> layer(minitorch.ones(2, 5)).shape
    torch.Size([2, 3])
    >>> layer
    Linear(in_features=5, out_features=3, bias=True)
"""

from __future__ import annotations

from minitorch import _creation, _dtype
from minitorch._tensor import Tensor
from minitorch.autograd import grad_mode
from minitorch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from minitorch.nn.modules.conv import (
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose1d,
    ConvTranspose2d,
    ConvTranspose3d,
)
from minitorch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from minitorch.nn.modules.linear import Linear
from minitorch.nn.parameter import (
    UninitializedBuffer,
    UninitializedParameter,
    UninitializedTensorMixin,
)

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyBatchNorm1d",
           "LazyBatchNorm2d", "LazyInstanceNorm1d", "LazyInstanceNorm2d",
           "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d"]


class LazyModuleMixin:
    """What makes a module lazy (``torch.nn.modules.lazy.LazyModuleMixin``)."""

    cls_to_become: type | None = None

    def _lazy_setup(self) -> None:
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer still waits for its shape."""
        return any(isinstance(t, UninitializedTensorMixin)
                   for t in (*self._parameters.values(), *self._buffers.values()))

    def _infer_parameters(self, module, args):
        """The pre-hook of the first call: materialize, then become ``cls_to_become``."""
        self.initialize_parameters(*args)
        if self.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        self._initialize_hook.remove()
        del self._initialize_hook
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become

    def _get_name(self) -> str:
        return type(self).__name__

    def _load_from_state_dict(self, state_dict: dict, prefix: str, *args) -> None:
        """(misc) PyTorch's lazy load hook: a placeholder takes the shape of the tensor loaded
        into it (materialized, then copied into as any parameter)."""
        for name, t in (*self._parameters.items(), *self._buffers.items()):
            value = state_dict.get(prefix + name)
            if (isinstance(t, UninitializedTensorMixin) and isinstance(value, Tensor)
                    and not isinstance(value, UninitializedTensorMixin)):
                t.materialize(value.shape)
        super()._load_from_state_dict(state_dict, prefix, *args)


class LazyLinear(LazyModuleMixin, Linear):
    """:class:`~minitorch.nn.Linear` whose ``in_features`` is the last size of its first
    input."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        self._lazy_setup()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            with grad_mode.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """``LazyConv1d``/``2d``/``3d`` (and the transposed ones): the convolution of ``_spatial``
    dimensions made with ``in_channels = 0`` and uninitialized parameters, until the first
    input."""

    _spatial = 0

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        self._out = out_channels
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode)
        self._lazy_conv_setup(bias, device, dtype)

    def _lazy_conv_setup(self, bias: bool, device, dtype) -> None:
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_channels = self._out
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        self._lazy_setup()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args) -> None:  # noqa: A002
        if not self.has_uninitialized_params():
            return
        batched = self._spatial + 2
        if input.dim() not in (batched - 1, batched):
            raise RuntimeError(f"Expected {batched - 1}D (unbatched) or {batched}D (batched) "
                               f"input to {self._get_name()}, but got input of size: "
                               f"{input.shape}")
        with grad_mode.no_grad():
            self.in_channels = input.shape[1] if input.dim() == batched else input.shape[0]
            if self.in_channels % self.groups != 0:
                raise ValueError("in_channels must be divisible by groups")
            if self.transposed:  # (in, out / groups, *kernel)
                self.weight.materialize((self.in_channels, self.out_channels // self.groups,
                                         *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups,
                                         *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


class LazyConv1d(_LazyConvMixin, Conv1d):
    """:class:`~minitorch.nn.Conv1d` whose ``in_channels`` is read from its first input."""

    cls_to_become = Conv1d
    _spatial = 1


class LazyConv2d(_LazyConvMixin, Conv2d):
    """:class:`~minitorch.nn.Conv2d` whose ``in_channels`` is read from its first input."""

    cls_to_become = Conv2d
    _spatial = 2


class LazyConv3d(_LazyConvMixin, Conv3d):
    """:class:`~minitorch.nn.Conv3d` whose ``in_channels`` is read from its first input."""

    cls_to_become = Conv3d
    _spatial = 3


class _LazyConvTransposeMixin(_LazyConvMixin):
    """``LazyConvTranspose1d``/``2d``/``3d``: the arguments of the transposed convolutions
    (``output_padding`` after ``padding``, ``dilation`` after ``bias``)."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        self._out = out_channels
        super(_LazyConvMixin, self).__init__(0, 0, kernel_size, stride, padding, output_padding,
                                             groups, False, dilation, padding_mode)
        self._lazy_conv_setup(bias, device, dtype)


class LazyConvTranspose1d(_LazyConvTransposeMixin, ConvTranspose1d):
    """:class:`~minitorch.nn.ConvTranspose1d` whose ``in_channels`` is read from its first
    input."""

    cls_to_become = ConvTranspose1d
    _spatial = 1


class LazyConvTranspose2d(_LazyConvTransposeMixin, ConvTranspose2d):
    """:class:`~minitorch.nn.ConvTranspose2d` whose ``in_channels`` is read from its first
    input."""

    cls_to_become = ConvTranspose2d
    _spatial = 2


class LazyConvTranspose3d(_LazyConvTransposeMixin, ConvTranspose3d):
    """:class:`~minitorch.nn.ConvTranspose3d` whose ``in_channels`` is read from its first
    input."""

    cls_to_become = ConvTranspose3d
    _spatial = 3


class _LazyNormBase(LazyModuleMixin):
    """Batch and instance norm whose ``num_features`` is the size of dim 1 of the first
    input (the running statistics are :class:`~minitorch.nn.UninitializedBuffer` until
    then)."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        self._bias = affine and bias
        if affine:
            self.weight = UninitializedParameter(device=device, dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(device=device, dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = _creation.tensor(0, dtype=_dtype.int64, device=device)
        self._lazy_setup()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # noqa: A002
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            for t in (self.weight, self.bias, self.running_mean, self.running_var):
                if isinstance(t, UninitializedTensorMixin):
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """:class:`~minitorch.nn.BatchNorm1d` that reads ``num_features`` from its first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """:class:`~minitorch.nn.BatchNorm2d` that reads ``num_features`` from its first input."""

    cls_to_become = BatchNorm2d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """:class:`~minitorch.nn.InstanceNorm1d` that reads ``num_features`` from its first
    input (lazy, it has weights and running statistics by default, as PyTorch's)."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """:class:`~minitorch.nn.InstanceNorm2d` that reads ``num_features`` from its first
    input (lazy, it has weights and running statistics by default, as PyTorch's)."""

    cls_to_become = InstanceNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """:class:`~minitorch.nn.BatchNorm3d` that reads ``num_features`` from its first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """:class:`~minitorch.nn.InstanceNorm3d` that reads ``num_features`` from its first
    input (lazy, it has weights and running statistics by default, as PyTorch's)."""

    cls_to_become = InstanceNorm3d

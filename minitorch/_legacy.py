"""The legacy typed constructors: ``FloatTensor``, ``LongTensor``, ``DoubleTensor``, ...

Old PyTorch code (and some tutorials) makes tensors with ``torch.LongTensor([1, 2])`` or
``torch.FloatTensor(2, 3)``. Each of these names is a tensor *type* for one dtype:

* called with data (a list, a NumPy array, a tensor of that dtype) it copies the data into a
  tensor of its dtype; called with sizes it makes a tensor of that shape (whose values are
  zeros here, and garbage in PyTorch: fill it before reading it);
* ``isinstance(t, minitorch.FloatTensor)`` asks whether ``t`` is a float32 CPU tensor.

Prefer ``minitorch.tensor(data, dtype=...)`` and ``minitorch.zeros(...)`` in new code.

Example:
    >>> import minitorch
    >>> minitorch.LongTensor([1, 2])
    tensor([1, 2])
    >>> minitorch.FloatTensor(2, 3).shape
    torch.Size([2, 3])
    >>> isinstance(minitorch.ones(1), minitorch.FloatTensor)
    True
"""

from __future__ import annotations

import numbers

import numpy as np

from minitorch import _dtype
from minitorch._creation import _uninitialized  # NaN under use_deterministic_algorithms
from minitorch._size import Size
from minitorch._tensor import Tensor, _unwrap_nested, _wrap

__all__ = ["FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor",
           "ShortTensor", "CharTensor", "ByteTensor", "BoolTensor"]


def _options(d: _dtype.dtype) -> str:
    return (f"TensorOptions(dtype={d.name}, device=cpu, layout=Strided, requires_grad=false "
            "(default), pinned_memory=false (default), memory_format=(nullopt))")


class _LegacyTensorType(type):
    """The type of ``FloatTensor`` and friends: calling one makes a tensor of its dtype."""

    dtype: _dtype.dtype

    def __call__(cls, *args, device=None, **kwargs) -> Tensor:
        if kwargs:
            raise TypeError(
                f"new() received an invalid combination of arguments - got unexpected keyword "
                f"argument '{next(iter(kwargs))}'")
        d = cls.dtype
        if len(args) == 1 and isinstance(args[0], Tensor):  # must already have our dtype
            t = args[0]
            if t.dtype is not d:
                raise TypeError(f"expected {_options(d)} (got {_options(t.dtype)})")
            return t
        if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)) and \
                not isinstance(args[0], Size):
            data = np.array(_unwrap_nested(args[0]))
            if data.dtype.kind == "f" and d.np.kind in "iub" and d.np.kind != "b":
                data = np.trunc(data)  # IntTensor([1.7]) is 1, as a C cast
            out = _wrap(data.astype(d.np))
        elif len(args) == 1 and not isinstance(args[0], (numbers.Integral, Size)):
            raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
        else:  # sizes: FloatTensor(2, 3), FloatTensor(torch.Size([2, 3])), FloatTensor()
            size = tuple(args[0]) if len(args) == 1 and isinstance(args[0], Size) else args
            out = _wrap(_uninitialized(np.zeros(tuple(int(s) for s in size) or (0,), d.np)))
        return out if device is None else out.to(device)

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype and obj.device.type == "cpu"

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _make(name: str, d: _dtype.dtype) -> type:
    return _LegacyTensorType(name, (), {"dtype": d, "__module__": "minitorch",
                                        "__doc__": f"A tensor type for dtype {d}."})


FloatTensor = _make("FloatTensor", _dtype.float32)
DoubleTensor = _make("DoubleTensor", _dtype.float64)
HalfTensor = _make("HalfTensor", _dtype.float16)
LongTensor = _make("LongTensor", _dtype.int64)
IntTensor = _make("IntTensor", _dtype.int32)
ShortTensor = _make("ShortTensor", _dtype.int16)
CharTensor = _make("CharTensor", _dtype.int8)
ByteTensor = _make("ByteTensor", _dtype.uint8)
BoolTensor = _make("BoolTensor", _dtype.bool)


def legacy_dtype(spec) -> _dtype.dtype:
    """The dtype of a legacy type or its name: ``LongTensor`` or ``"torch.LongTensor"``
    (what ``tensor.type(...)`` accepts); ``Tensor`` itself means the default dtype.

    Anything else is PyTorch's error: a ValueError for a type or a name that is not a tensor
    type, a TypeError for any other object.
    """
    if isinstance(spec, _LegacyTensorType):
        return spec.dtype
    if spec is Tensor:
        return _dtype.get_default_dtype()
    if isinstance(spec, type):
        name = spec.__name__ if spec.__module__ == "builtins" else \
            f"{spec.__module__}.{spec.__qualname__}"
        raise ValueError(f"invalid type: '{name}'")
    if isinstance(spec, str):
        found = globals().get(spec[len("torch."):]) if spec.startswith("torch.") else None
        if isinstance(found, _LegacyTensorType):
            return found.dtype
        raise ValueError(f"invalid type: '{spec}'")
    raise TypeError("dtype must be a type, str, or dtype object")

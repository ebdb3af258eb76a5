"""Containers: modules that hold other modules.

* :class:`Sequential` runs its modules one after another (``Sequential(a, b)(x) == b(a(x))``);
* :class:`ModuleList` is a list whose modules are registered (a plain Python list is not:
  its layers would be invisible to ``parameters()``);
* :class:`ModuleDict` is the same for a dict.

Example:
    >>> from minitorch import nn
    >>> net = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
    >>> len(net), net[0]
    (3, Linear(in_features=2, out_features=4, bias=True))
    >>> net[:2]
    Sequential(
      (0): Linear(in_features=2, out_features=4, bias=True)
      (1): ReLU()
    )
"""

from __future__ import annotations

import itertools
import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from minitorch import _device
from minitorch._tensor import Tensor
from minitorch.func import _tree_map
from minitorch.nn.modules.module import Module, _addindent, _typename
from minitorch.nn.parameter import Parameter

__all__ = ["Sequential", "ModuleList", "ModuleDict"]


def _index(idx: int, size: int, kind: str) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size if size else idx


class Sequential(Module):
    """Modules applied in order; ``Sequential(OrderedDict(name=module, ...))`` names them.

    Supports ``len``, iteration, indexing (``net[0]``, ``net[-1]``) and slicing (``net[1:]``,
    which is a new Sequential sharing the same modules).
    """

    def __init__(self, *args) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input):  # noqa: A002
        for module in self._modules.values():
            input = module(input)  # noqa: A001
        return input

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        keys = list(self._modules)
        return self._modules[keys[_index(idx, len(keys), "Sequential")]]

    def __setitem__(self, idx: int, module: Module) -> None:
        keys = list(self._modules)
        setattr(self, keys[_index(idx, len(keys), "Sequential")], module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        if isinstance(idx, slice):
            for key in keys[idx]:
                delattr(self, key)
        else:
            delattr(self, keys[_index(idx, len(keys), "Sequential")])
        # keep the numbering 0, 1, 2, ... after a deletion
        items = list(self._modules.items())
        self._modules.clear()
        for i, (key, module) in enumerate(items):
            self._modules[str(i) if key.isdigit() else key] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return Sequential(*self, *other)

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> Sequential:
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m
        return self

    def pop(self, key: int) -> Module:
        v = self[key]
        del self[key]
        return v


class ModuleList(Module):
    """A list of modules that registers them (so their parameters are found).

    >>> from minitorch import nn
    >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
    >>> len(list(layers.parameters()))
    6
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_index(idx, len(self), "ModuleList"))]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, str(_index(idx, len(self), "ModuleList")), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_index(idx, len(self), "ModuleList")))
        modules = list(self._modules.values())
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return ModuleList([*self, *other])

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        if isinstance(modules, Module) and not isinstance(modules, (ModuleList, Sequential)):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                f"{type(modules).__name__}"
            )
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def pop(self, key: int) -> Module:
        v = self[key]
        del self[key]
        return v

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            "ModuleList has no forward(): iterate over it in your own module's forward()"
        )

    def __repr__(self) -> str:
        """PyTorch's repr, which folds runs of identical modules: ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = [[0, 0, reprs[0]]]
        for i, r in enumerate(reprs[1:], 1):
            if r == blocks[-1][2]:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = []
        for start, end, r in blocks:
            if start == end:
                text = f"({start}): {r}"
            else:
                text = f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(_addindent(text, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules that registers them."""

    def __init__(self, modules=None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def clear(self) -> None:
        self._modules.clear()

    def update(self, modules) -> None:
        items = modules.items() if hasattr(modules, "items") else modules
        for key, module in items:
            self[key] = module

    def forward(self, *args, **kwargs):
        raise NotImplementedError("ModuleDict has no forward(): call its modules yourself")


def _describe_entry(key, p, type_name: str) -> str:
    """One line of a ParameterList's or ParameterDict's repr, as PyTorch prints it."""
    if isinstance(p, Tensor):
        size = "x".join(str(s) for s in p.shape)
        device = f" ({p.device})" if p.device.type == "cuda" else ""
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{type_name} of size {size}{device}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """A list of parameters that registers them (under the names ``"0"``, ``"1"``, ...), so
    that ``parameters()`` and the ``state_dict`` find them. A tensor put in becomes a
    :class:`~minitorch.nn.Parameter`.

    >>> import minitorch
    >>> from minitorch import nn
    >>> ps = nn.ParameterList([nn.Parameter(minitorch.ones(2)) for _ in range(2)])
    >>> [name for name, _ in ps.named_parameters()]
    ['0', '1']
    """

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx) -> str:
        return str(_index(idx, len(self), "ParameterList"))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = type(self)()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx: int, param) -> None:
        idx = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, idx, param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable) -> ParameterList:
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value) -> ParameterList:
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_describe_entry(k, p, str(getattr(p, "dtype", "")))
                         for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """A dict of parameters that registers them under their keys. A plain ``dict`` is taken
    in sorted key order, an ``OrderedDict`` (or another ParameterDict) in its own order, as in
    PyTorch."""

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _key_to_attr(key) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need "
                "non-string keys.")
        return key

    def __getitem__(self, key: str):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value) -> None:
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        for k in self._keys.copy():
            del self[k]

    def pop(self, key: str):
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple:
        k, _ = self._keys.popitem()
        self._keys[k] = None
        val = self[k]
        del self[k]
        return k, val

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default=None) -> ParameterDict:
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters) -> None:
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            "key/value pairs, but got " + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, Mapping):
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        else:
            for j, p in enumerate(parameters):
                if not isinstance(p, Iterable):
                    raise TypeError(f"ParameterDict update sequence element #{j} should be "
                                    f"Iterable; is{type(p).__name__}")
                if len(p) != 2:
                    raise ValueError(f"ParameterDict update sequence element #{j} has length "
                                     f"{len(p)}; 2 is required")
                self[p[0]] = p[1]

    def extra_repr(self) -> str:
        return "\n".join(_describe_entry(k, p, _typename(p)) for k, p in self.items())

    def __call__(self, input):  # noqa: A002
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self


__all__ += ["ParameterList", "ParameterDict"]


# DataParallel, as the saved-tensor hooks tutorial wraps a model in it
class DataParallel(Module):
    """Runs ``module`` on the batch split across devices, in PyTorch. With no accelerator, as on
    the CPU, it only holds ``module`` (printed as ``(module): ...``, its state_dict keys start
    with ``module.``) and calls it (``device_ids`` is ``[]``). With one GPU, as PyTorch with
    one, it moves ``module`` there, checks that its parameters and buffers stay there, and
    calls it on the inputs moved there. Splitting a batch over several GPUs is not written:
    pass ``device_ids=[0]``.

    >>> from minitorch import nn
    >>> nn.DataParallel(nn.Linear(2, 1))
    DataParallel(
      (module): Linear(in_features=2, out_features=1, bias=True)
    )
    """

    def __init__(self, module: Module, device_ids=None, output_device=None, dim: int = 0) -> None:
        super().__init__()
        from minitorch import cuda  # (the accelerator is asked only when one is built)

        self.module = module
        if not cuda.is_available():
            self.device_ids = []
            return
        ids = list(range(cuda.device_count())) if device_ids is None else [
            d.index if isinstance(d, _device.device) else int(d) for d in device_ids]
        if len(ids) > 1:
            raise NotImplementedError(
                f"minitorch's DataParallel runs on one GPU, not on {len(ids)}: pass "
                "device_ids=[0]")
        self.device_ids, self.output_device, self.dim = ids, ids[0], dim
        self.src_device_obj = _device.device("cuda", ids[0])
        module.to(self.src_device_obj)

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        for t in itertools.chain(self.module.parameters(), self.module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError(
                    f"module must have its parameters and buffers on device "
                    f"{self.src_device_obj} (device_ids[0]) but found one of them on device: "
                    f"{t.device}")
        inputs, kwargs = _tree_map(lambda t: t.to(self.src_device_obj) if isinstance(
            t, Tensor) else t, (inputs, kwargs))
        return self.module(*inputs, **kwargs)


__all__ += ["DataParallel"]

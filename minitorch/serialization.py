"""``save`` and ``load`` in PyTorch's own file format, so files move both ways between the two.

A ``.pt`` file is a zip archive (stored, not compressed)::

    archive/data.pkl            the object, pickled (protocol 2)
    archive/data/0, data/1 ...  one raw little-endian buffer per storage
    archive/byteorder           "little"
    archive/version             "3"
    archive/.data/serialization_id, .format_version, .storage_alignment

In the pickle a tensor is a call ``torch._utils._rebuild_tensor_v2(storage, offset, size,
stride, requires_grad, hooks)``, and ``storage`` is a *persistent id*
``('storage', torch.FloatStorage, key, location, numel)`` naming a buffer in ``data/``. Two
views of one tensor share one storage, so after loading they share memory again.

By default loading never calls ``pickle.load`` blindly: unpickling can call any function a
file names (``os.system`` included). :class:`_RestrictedUnpickler` resolves only the names on
an allow-list (containers, tensor rebuilders, storage types, dtypes) and refuses the rest with
PyTorch's ``UnpicklingError``, as ``torch.load`` does with its default ``weights_only=True``.
``weights_only=False`` is the caller's statement that the file is trusted: then the file is
unpickled in full (:class:`_FullUnpickler`), so that ``torch.save(model, path)`` and
``torch.load(path, weights_only=False)`` give back the whole model, its class included.
minitorch reads files without importing torch.

Example:
    >>> import io, minitorch
    >>> buf = io.BytesIO()
    >>> minitorch.save({"w": minitorch.arange(3.0)}, buf)
    >>> _ = buf.seek(0)
    >>> minitorch.load(buf)
    {'w': tensor([0., 1., 2.])}
"""

from __future__ import annotations

import _compat_pickle
import collections
import io
import os
import pickle
import uuid
import zipfile

import numpy as np

from minitorch import _dtype
from minitorch._device import device as _device_cls
from minitorch._size import Size
from minitorch._tensor import Tensor, _wrap

__all__ = ["save", "load", "add_safe_globals", "clear_safe_globals", "get_safe_globals",
           "safe_globals"]

_ALIGN = 64  # PyTorch aligns each storage's bytes to 64 in the archive
_STORAGE_TYPES = {  # PyTorch's legacy storage class names and their element types
    "FloatStorage": np.float32, "DoubleStorage": np.float64, "HalfStorage": np.float16,
    "LongStorage": np.int64, "IntStorage": np.int32, "ShortStorage": np.int16,
    "CharStorage": np.int8, "ByteStorage": np.uint8, "BoolStorage": np.bool_,
}
_STORAGE_OF = {np.dtype(v): k for k, v in _STORAGE_TYPES.items()}


# ------------------------------------------------------------------------------------- saving
class _TorchName:
    """Stands for ``module.name`` in PyTorch (``torch._utils._rebuild_tensor_v2``): the pickle
    records the name only, so minitorch can write it without torch."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle wants a callable in a reduce; never called here
        raise TypeError(f"{self.module}.{self.name} is a name for PyTorch, not a function")


_REBUILD_TENSOR = _TorchName("torch._utils", "_rebuild_tensor_v2")
_REBUILD_PARAMETER = _TorchName("torch._utils", "_rebuild_parameter")


class _Storage:
    """One buffer of the archive: a flat array and the key it is saved under."""

    def __init__(self, key: str, array: np.ndarray) -> None:
        self.key, self.array = key, array


class _Pickler(pickle._Pickler):
    """Writes tensors as PyTorch does. (The pure-Python pickler lets us write a GLOBAL for a
    name, such as ``torch FloatStorage``, that is not importable here.)"""

    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file) -> None:
        super().__init__(file, protocol=2)
        self.storages: list[_Storage] = []
        self._by_root: dict[int, _Storage] = {}  # id(root array) -> its storage

    def _save_torch_name(self, obj: _TorchName) -> None:
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())
        self.memoize(obj)

    dispatch[_TorchName] = _save_torch_name

    def _save_dtype(self, obj) -> None:  # a dtype is saved by its name: GLOBAL torch float32
        self.write(pickle.GLOBAL + f"torch\n{obj.name}\n".encode())
        self.memoize(obj)

    dispatch[_dtype.dtype] = _save_dtype

    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            return ("storage", _TorchName("torch", _STORAGE_OF[obj.array.dtype]), obj.key,
                    "cpu", obj.array.size)
        return None

    def reducer_override(self, obj):
        """How tensors, Parameters, Size and device pickle (everything else as usual)."""
        from minitorch.nn.parameter import Parameter

        if isinstance(obj, Parameter):
            plain = _wrap(obj._data)
            return _REBUILD_PARAMETER, (plain, obj.requires_grad, collections.OrderedDict())
        if isinstance(obj, Tensor):
            storage, offset, stride = self._storage_of(obj)
            return _REBUILD_TENSOR, (storage, offset, tuple(obj.shape), stride,
                                     obj.requires_grad, collections.OrderedDict())
        if isinstance(obj, Size):
            return _TorchName("torch", "Size"), (tuple(obj),)
        if isinstance(obj, _device_cls):
            return _TorchName("torch", "device"), (str(obj),)
        return NotImplemented

    def _storage_of(self, t: Tensor) -> tuple[_Storage, int, tuple]:
        """The storage of ``t``'s array, shared with every other view of the same memory."""
        arr = t._data
        if type(arr) is not np.ndarray:  # on a GPU: save a host copy
            arr = t.cpu()._data
        if arr.dtype not in _STORAGE_OF:
            raise TypeError(f"cannot save a tensor of dtype {arr.dtype}")
        root = arr
        while isinstance(root.base, np.ndarray):
            root = root.base
        usable = (root.dtype == arr.dtype and root.flags.c_contiguous and
                  all(s >= 0 and s % arr.itemsize == 0 for s in arr.strides))
        if usable:
            offset_bytes = arr.__array_interface__["data"][0] - root.__array_interface__["data"][0]
            usable = offset_bytes % arr.itemsize == 0
        if not usable:  # a layout PyTorch cannot describe (reversed, reinterpreted): copy
            root = arr = np.ascontiguousarray(arr)
            offset_bytes = 0
        storage = self._by_root.get(id(root))
        if storage is None:
            storage = _Storage(str(len(self.storages)), root.reshape(-1))
            self.storages.append(storage)
            self._by_root[id(root)] = storage  # storage.array keeps root alive: ids stay unique
        stride = tuple(s // arr.itemsize for s in arr.strides)
        return storage, offset_bytes // arr.itemsize, stride




def _zip_entry(z: zipfile.ZipFile, name: str, data: bytes) -> None:
    """Add a stored entry whose bytes start at a multiple of 64 (padding in the extra field,
    as PyTorch's writer does, so readers can map storages straight from the file)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    start = z.fp.tell() + 30 + len(name.encode())  # where the data would start unpadded
    pad = (-(start + 4)) % _ALIGN
    info.extra = b"FB" + pad.to_bytes(2, "little") + b"Z" * pad
    z.writestr(info, data)


def save(obj, f, pickle_module=None, pickle_protocol: int = 2,
         _use_new_zipfile_serialization: bool = True) -> None:
    """Save ``obj`` (tensors, a ``state_dict``, nested dicts/lists/tuples of them, numbers,
    strings) to the path or file object ``f``, in PyTorch's format: ``torch.load`` reads it.

    Any other picklable object can be saved too, a whole model (``torch.save(model, path)``)
    included: it is pickled with a reference to its class, and loads back with
    ``load(path, weights_only=False)``.

    >>> import io, minitorch
    >>> buf = io.BytesIO()
    >>> minitorch.save(minitorch.ones(2), buf)
    >>> buf.getvalue()[:2]
    b'PK'
    """
    if pickle_module is not None or pickle_protocol != 2 or not _use_new_zipfile_serialization:
        raise NotImplementedError("minitorch.save writes only PyTorch's default format "
                                  "(zip archive, pickle protocol 2)")
    body = io.BytesIO()
    pickler = _Pickler(body)
    pickler.dump(obj)
    records = [("data.pkl", body.getvalue()), (".format_version", b"1"),
               (".storage_alignment", b"64"), ("byteorder", b"little")]
    records += [(f"data/{s.key}", s.array.astype(s.array.dtype.newbyteorder("<")).tobytes())
                for s in pickler.storages]
    records += [("version", b"3\n"), (".data/serialization_id", _serialization_id())]
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            _write_zip(fh, records)
    else:
        _write_zip(f, records)


def _serialization_id() -> bytes:
    return (f"{uuid.uuid4().int % 10**20:020d}" * 2).encode()


def _write_zip(fh, records) -> None:
    with zipfile.ZipFile(fh, "w", zipfile.ZIP_STORED) as z:
        for name, data in records:
            _zip_entry(z, f"archive/{name}", data)


# ------------------------------------------------------------------------------------ loading
def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                       metadata=None) -> Tensor:
    """A tensor as a strided view into ``storage`` (views of one storage share memory)."""
    itemsize = storage.itemsize
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride) or any(s < 0 for s in stride) or storage_offset < 0:
        raise pickle.UnpicklingError(f"invalid tensor layout size={size} stride={stride}")
    if 0 not in size and (storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
                          >= storage.size):
        raise pickle.UnpicklingError(
            f"tensor of size {size} and stride {stride} at offset {storage_offset} does "
            f"not fit in a storage of {storage.size} elements")
    view = np.lib.stride_tricks.as_strided(storage[storage_offset:], size,
                                           tuple(s * itemsize for s in stride))
    t = _wrap(view)
    if requires_grad:
        if view.dtype.kind != "f":
            raise pickle.UnpicklingError("only floating point tensors can require gradients")
        t._requires_grad = True
    return t


def _rebuild_parameter(data: Tensor, requires_grad: bool, backward_hooks, *state):
    from minitorch.nn.parameter import Parameter

    return Parameter(data, requires_grad)


def _size(dims) -> Size:
    return Size(int(d) for d in dims)


# What a file may name, and what minitorch builds for it. Everything else is refused.
_ALLOWED = {
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("collections", "Counter"): collections.Counter,
    ("builtins", "set"): set,
    ("builtins", "complex"): complex,
    ("builtins", "bytearray"): bytearray,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    ("torch", "Size"): _size,
    ("torch", "device"): _device_cls,
}
_ALLOWED.update({("__builtin__", name): f for (m, name), f in list(_ALLOWED.items())
                 if m == "builtins"})  # protocol 2 spells builtins the Python 2 way
_ALLOWED.update({("torch", name): name for name in _STORAGE_TYPES})  # persistent ids only
_ALLOWED.update({("torch", d.name): d for d in _dtype._ALL})


def _bytes_from(text, encoding="latin1"):
    """``_codecs.encode``: how protocol 2 writes a ``bytes`` object."""
    if not isinstance(text, str) or encoding != "latin1":
        raise pickle.UnpicklingError("_codecs.encode is allowed only for latin1 bytes")
    return text.encode("latin1")


_ALLOWED[("_codecs", "encode")] = _bytes_from


# the globals a user marks safe for ``weights_only=True`` loads, as PyTorch's
# torch.serialization.add_safe_globals / safe_globals / get_safe_globals / clear_safe_globals
_UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.")
_marked_safe_globals: set = set()


def add_safe_globals(safe_globals: list) -> None:
    """Mark classes or functions as safe for ``load(..., weights_only=True)``: a file may name
    them (a saved instance of the class, a call of the function). An item is the object, found
    by its ``{__module__}.{__qualname__}``, or a pair ``(object, "the.path.in.the.file")``."""
    global _marked_safe_globals
    _marked_safe_globals = _marked_safe_globals.union(set(safe_globals))


def get_safe_globals() -> list:
    """The globals ``add_safe_globals`` (or an open ``safe_globals`` block) marked safe."""
    return list(_marked_safe_globals)


def clear_safe_globals() -> None:
    """Forget every global marked safe."""
    global _marked_safe_globals
    _marked_safe_globals = set()


class safe_globals:  # noqa: N801  (PyTorch's name)
    """``with safe_globals([MyClass]):``: ``add_safe_globals`` for the block only."""

    def __init__(self, safe_globals: list) -> None:
        self.safe_globals = safe_globals

    def __enter__(self) -> None:
        add_safe_globals(self.safe_globals)

    def __exit__(self, exc_type, exc_value, traceback) -> None:
        global _marked_safe_globals
        _marked_safe_globals = _marked_safe_globals - set(self.safe_globals)


def _user_allowed_globals() -> dict:
    """The marked globals by the path a file names them with."""
    allowed = {}
    for f in _marked_safe_globals:
        if isinstance(f, tuple):
            if len(f) != 2:
                raise ValueError("Expected tuple of length 2 (global, str of callable full path), "
                                 f"but got tuple of length: {len(f)}")
            if type(f[1]) is not str:
                raise TypeError("Expected second item in tuple to be str of callable full path, "
                                f"but got: {type(f[1])}")
            allowed[f[1]] = f[0]
        else:
            allowed[f"{f.__module__}.{f.__qualname__}"] = f
    return allowed


class _RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that can build only the allow-listed names (never ``os.system``)."""

    def __init__(self, file, read_record, location) -> None:
        super().__init__(file, encoding="utf-8")
        self._read_record = read_record
        self._location = location
        self._storages: dict[str, np.ndarray] = {}

    def find_class(self, module: str, name: str):
        try:
            return _ALLOWED[(module, name)]
        except KeyError:
            pass
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)  # protocol 2's __builtin__
        user = _user_allowed_globals()  # add_safe_globals / safe_globals
        if f"{module}.{name}" in user:
            return user[f"{module}.{name}"]
        path = name if module == "builtins" else f"{module}.{name}"  # PyTorch's spelling
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two "
            "options, \033[1mdo those steps only if you trust the source of the "
            f"checkpoint\033[0m. \n\t(1) {_UNSAFE_MESSAGE}\n\t(2) Alternatively, to load with "
            "`weights_only=True` please check the recommended steps in the following error "
            f"message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL {path} was not an "
            "allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{path}])` "
            f"or the `torch.serialization.safe_globals([{path}])` context manager to allowlist "
            "this global if you trust this class/function.\n\nCheck the documentation of "
            "torch.load to learn more about types accepted by default with weights_only "
            "https://pytorch.org/docs/stable/generated/torch.load.html.")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"
                and pid[1] in _STORAGE_TYPES):
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        _, kind, key, location, numel = pid
        if key not in self._storages:
            raw = bytearray(self._read_record(f"data/{key}"))
            dtype = np.dtype(_STORAGE_TYPES[kind]).newbyteorder("<")
            array = np.frombuffer(raw, dtype=dtype)
            if array.size != numel:
                raise pickle.UnpicklingError(
                    f"storage {key} holds {array.size} elements, the pickle says {numel}")
            self._storages[key] = array.astype(array.dtype.newbyteorder("="), copy=False)
            self._location(location)  # refuse a device we cannot load to before building
        return self._storages[key]


class _FullUnpickler(_RestrictedUnpickler):
    """``weights_only=False``: every name the file uses is imported, as ``pickle.load`` does
    (a saved model's class, from the module that defined it), so only trusted files should be
    loaded this way. Tensors are still rebuilt by minitorch from the archive's storages."""

    def find_class(self, module: str, name: str):
        found = _ALLOWED.get((module, name))
        if found is not None:
            return found
        return pickle.Unpickler.find_class(self, module, name)


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None,
         mmap: bool | None = None, **pickle_load_args):
    """Load an object saved by ``minitorch.save`` or ``torch.save`` from a path or file object.

    By default (``weights_only=None`` or ``True``, as in PyTorch 2.6 and later) loading is
    restricted: tensors, Parameters, dicts/OrderedDicts/lists/tuples/sets, numbers, strings,
    dtypes; anything else raises PyTorch's ``UnpicklingError``. ``weights_only=False`` says the
    file is trusted and unpickles it in full, so a whole model saved with
    ``torch.save(model, path)`` comes back (its class must be importable, as with ``pickle``).
    Never use it on a file from an untrusted source: unpickling can run any code.

    Args:
        map_location: where tensors go: ``None`` or ``"cpu"``, a ``minitorch.device``, a dict
            ``{"cuda:0": "cpu"}``, or a function ``(tensor, location) -> tensor``.

    >>> import io, minitorch
    >>> buf = io.BytesIO()
    >>> minitorch.save([minitorch.tensor([1, 2])], buf)
    >>> _ = buf.seek(0)
    >>> minitorch.load(buf, map_location="cpu")
    [tensor([1, 2])]
    """
    full = weights_only is False
    if pickle_module is not None:
        if not full:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                               "specified")
        if pickle_module is not pickle:
            raise NotImplementedError("minitorch.load unpickles with the standard pickle "
                                      "module only")
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, map_location, full)
    return _load(f, map_location, full)


def _load(fh, map_location, full: bool = False):
    start = fh.read(4)
    fh.seek(-len(start), 1)
    if start[:2] != b"PK":
        raise RuntimeError("minitorch.load reads PyTorch's zip format (torch.save's default "
                           "since PyTorch 1.6); this file is in another format")
    with zipfile.ZipFile(fh) as z:
        names = z.namelist()
        pkl = [n for n in names if n.endswith("data.pkl") and n.count("/") == 1]
        if not pkl:
            raise RuntimeError("PytorchStreamReader failed locating file data.pkl: file not found")
        prefix = pkl[0][: -len("data.pkl")]
        byteorder = (z.read(prefix + "byteorder").decode() if prefix + "byteorder" in names
                     else "little")
        if byteorder != "little":
            raise RuntimeError(f"minitorch reads little-endian files only, not {byteorder}")
        targets: set[str] = set()
        kind = _FullUnpickler if full else _RestrictedUnpickler
        unpickler = kind(io.BytesIO(z.read(pkl[0])), lambda name: z.read(prefix + name),
                         lambda loc: targets.add(_target(map_location, loc)))
        obj = unpickler.load()
    if callable(map_location) and not isinstance(map_location, (str, _device_cls)):
        return _map(obj, lambda t: map_location(t, "cpu"))
    elsewhere = sorted(targets - {"cpu"})
    if elsewhere:  # tensors are built on the CPU, then moved
        return _map(obj, lambda t: t.to(elsewhere[0]))
    return obj


def _target(map_location, location: str) -> str:
    """The device a storage saved at ``location`` loads to."""
    if callable(map_location) and not isinstance(map_location, (str, _device_cls)):
        return "cpu"  # the function moves each tensor afterwards
    if isinstance(map_location, dict):
        target = str(map_location.get(location, location))
    elif map_location is None:
        target = location
    else:
        target = str(map_location)
    if target.startswith("cuda"):
        from minitorch import cuda

        if not cuda.is_available():
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but "
                "torch.cuda.is_available() is False. If you are running on a CPU-only "
                "machine, please use torch.load with map_location=torch.device('cpu') to map "
                "your storages to the CPU.")
    elif target != "cpu":
        raise RuntimeError(f"don't know how to restore data location of {target}")
    return target


def _map(obj, fn):
    """``obj`` with ``fn`` applied to every tensor inside its containers."""
    if isinstance(obj, Tensor):
        return fn(obj)
    if isinstance(obj, dict):
        out = type(obj)() if isinstance(obj, collections.OrderedDict) else {}
        for k, v in obj.items():
            out[k] = _map(v, fn)
        return out
    if isinstance(obj, list):
        return [_map(v, fn) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_map(v, fn) for v in obj)
    apply = getattr(type(obj), "_apply", None)  # a whole model (weights_only=False)
    if apply is not None and callable(apply):
        return obj._apply(fn)
    return obj

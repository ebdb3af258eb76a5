"""MNIST: 70,000 28x28 handwritten digits, read from the original IDX files.

The IDX format is tiny: two zero bytes, a type code, the number of dimensions, then each
dimension as a big-endian 32-bit integer, then the values. :func:`read_idx` parses it with
NumPy. :class:`MNIST` downloads the four files (once) into a cache folder, checks their MD5
checksums, and serves ``(image, label)`` pairs as ``torchvision.datasets.MNIST`` does, except
that images are float32 tensors in [0, 1] of shape (1, 28, 28) (there is no PIL here).

Example:
    >>> import numpy as np, tempfile, os
    >>> from minitorch.datasets import read_idx, write_idx
    >>> path = os.path.join(tempfile.mkdtemp(), "labels-idx1-ubyte")
    >>> write_idx(path, np.array([3, 1, 4], dtype=np.uint8))
    >>> read_idx(path)
    array([3, 1, 4], dtype=uint8)
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import struct
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from minitorch._tensor import Tensor, _wrap
from minitorch.utils.data import Dataset

__all__ = ["read_idx", "write_idx", "check_integrity", "download_url", "MNIST",
           "default_root"]

# IDX type codes -> NumPy dtypes (multi-byte values are big-endian).
_IDX_TYPES = {0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"),
              0x0C: np.dtype(">i4"), 0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}
_IDX_CODES = {np.dtype(np.uint8): 0x08, np.dtype(np.int8): 0x09, np.dtype(np.int16): 0x0B,
              np.dtype(np.int32): 0x0C, np.dtype(np.float32): 0x0D, np.dtype(np.float64): 0x0E}


def _open(path):
    path = str(path)
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def read_idx(path) -> np.ndarray:
    """Read an IDX file (optionally gzip-compressed, by its ``.gz`` name) into an array.

    Raises:
        ValueError: if the file is not IDX (bad magic number, unknown type, wrong size).
    """
    with _open(path) as f:
        raw = f.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError(f"{path} is not an IDX file (its magic number must start with 0x0000)")
    code, ndim = raw[2], raw[3]
    if code not in _IDX_TYPES:
        raise ValueError(f"{path}: unknown IDX data type code 0x{code:02X}")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise ValueError(f"{path}: truncated IDX header")
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    dtype = _IDX_TYPES[code]
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) - header != expected:
        raise ValueError(
            f"{path}: IDX header promises {expected} bytes of data for shape {shape}, found "
            f"{len(raw) - header}"
        )
    data = np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape)
    return data.astype(dtype.newbyteorder("="))  # native byte order, writable copy


def write_idx(path, array: np.ndarray) -> None:
    """Write ``array`` as an IDX file (gzip-compressed if ``path`` ends in ``.gz``)."""
    array = np.asarray(array)
    code = _IDX_CODES.get(array.dtype.newbyteorder("="))
    if code is None:
        raise ValueError(f"IDX cannot store dtype {array.dtype}")
    header = bytes([0, 0, code, array.ndim]) + struct.pack(f">{array.ndim}I", *array.shape)
    body = array.astype(_IDX_TYPES[code]).tobytes()
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(str(path), "wb") as f:
        f.write(header + body)


def _file_hash(path, algorithm: str) -> str:
    digest = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_integrity(path, md5: str | None = None, sha256: str | None = None) -> bool:
    """Whether ``path`` exists and matches the given checksum(s)."""
    if not os.path.isfile(path):
        return False
    if md5 is not None and _file_hash(path, "md5") != md5.lower():
        return False
    if sha256 is not None and _file_hash(path, "sha256") != sha256.lower():
        return False
    return True


def download_url(url: str, path, md5: str | None = None, sha256: str | None = None,
                 timeout: float = 30.0) -> Path:
    """Download ``url`` to ``path`` and verify its checksum.

    The file is written to a temporary name first, so an interrupted download never leaves
    a half file behind.

    Raises:
        RuntimeError: the download failed (with the reason), or the checksum did not match.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        try:
            with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout) as r:
                shutil.copyfileobj(r, out)
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", e)
            raise RuntimeError(f"Failed to download {url}: {reason}") from e
        if not check_integrity(tmp, md5, sha256):
            kind, want = ("MD5", md5) if md5 is not None else ("SHA-256", sha256)
            got = _file_hash(tmp, "md5" if md5 is not None else "sha256")
            raise RuntimeError(
                f"Checksum mismatch for {url}: expected {kind} {want}, got {got}. The file may "
                "be corrupted or the mirror may serve a different file; it was not kept."
            )
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return path


def default_root() -> Path:
    """Where datasets are cached: ``$MINITORCH_DATA``, else ``~/.cache/minitorch/datasets``."""
    env = os.environ.get("MINITORCH_DATA")
    return Path(env) if env else Path.home() / ".cache" / "minitorch" / "datasets"


class MNIST(Dataset):
    """The MNIST digits (``torchvision.datasets.MNIST``'s interface).

    Args:
        root: the cache folder; files go to ``root/MNIST/raw``. ``None``: :func:`default_root`.
        train: the 60,000 training images (default) or the 10,000 test images.
        download: download the files if they are missing (they are checked by MD5).
        transform, target_transform: functions applied to each image / label.

    Attributes:
        data: uint8 tensor (N, 28, 28); targets: int64 tensor (N,).
    """

    mirrors = ["https://ossci-datasets.s3.amazonaws.com/mnist/",
               "http://yann.lecun.com/exdb/mnist/"]
    resources = [("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
                 ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
                 ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
                 ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c")]
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five",
               "6 - six", "7 - seven", "8 - eight", "9 - nine"]

    def __init__(self, root=None, train: bool = True, transform=None, target_transform=None,
                 download: bool = False) -> None:
        self.root = Path(root) if root is not None else default_root()
        self.train = train
        self.transform = transform
        self.target_transform = target_transform
        if download:
            self.download()
        if not self._check_exists():
            raise RuntimeError(
                f"Dataset not found in {self.raw_folder}. You can use download=True to "
                "download it"
            )
        prefix = "train" if train else "t10k"
        images = read_idx(self.raw_folder / f"{prefix}-images-idx3-ubyte.gz")
        labels = read_idx(self.raw_folder / f"{prefix}-labels-idx1-ubyte.gz")
        if images.ndim != 3 or labels.ndim != 1 or len(images) != len(labels):
            raise RuntimeError(
                f"MNIST files in {self.raw_folder} have unexpected shapes {images.shape} and "
                f"{labels.shape}"
            )
        self.data: Tensor = _wrap(images.astype(np.uint8))
        self.targets: Tensor = _wrap(labels.astype(np.int64))

    @property
    def raw_folder(self) -> Path:
        return self.root / "MNIST" / "raw"

    def _check_exists(self) -> bool:
        prefix = "train" if self.train else "t10k"
        return all((self.raw_folder / name).is_file()
                   for name, _ in self.resources if name.startswith(prefix))

    def download(self) -> None:
        """Download the missing files, trying each mirror in turn."""
        for name, md5 in self.resources:
            path = self.raw_folder / name
            if check_integrity(path, md5):
                continue
            errors = []
            for mirror in self.mirrors:
                try:
                    download_url(mirror + name, path, md5=md5)
                    break
                except RuntimeError as e:
                    errors.append(str(e))
            else:
                raise RuntimeError(
                    f"Error downloading {name} from every mirror:\n  " + "\n  ".join(errors)
                    + f"\nCheck your network connection, or put the file into {self.raw_folder}"
                    " by hand."
                )

    def __len__(self) -> int:
        return self.data.shape[0]

    def _images(self, idx) -> np.ndarray:
        return (self.data._data[idx] / np.float32(255.0))[..., None, :, :]

    def __getitem__(self, index: int):
        image = _wrap(self._images(index))
        target = int(self.targets._data[index])
        if self.transform is not None:
            image = self.transform(image)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return image, target

    @property
    def _get_batch(self):
        if self.transform is not None or self.target_transform is not None:
            raise AttributeError("_get_batch")
        return lambda idx: [_wrap(self._images(idx)), _wrap(self.targets._data[idx])]

    def __repr__(self) -> str:
        split = "Train" if self.train else "Test"
        return (f"Dataset MNIST\n    Number of datapoints: {len(self)}\n    Root location: "
                f"{self.root}\n    Split: {split}")

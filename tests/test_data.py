"""minitorch.utils.data and minitorch.datasets: batching, shuffling, collation, splits, and the
dataset readers (IDX files, checksums, download errors) without any network."""

from __future__ import annotations

import collections
import gzip
import hashlib
import math
import pathlib

import numpy as np
import pytest

import minitorch as mt
from minitorch.datasets import (
    MNIST,
    Digits,
    check_integrity,
    download_url,
    load_digits,
    make_blobs,
    make_moons,
    make_spirals,
    read_idx,
    train_test_split,
    write_idx,
)
from minitorch.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    SubsetRandomSampler,
    TensorDataset,
    default_collate,
    random_split,
)


def _ds(n=10):
    return TensorDataset(mt.arange(float(n * 2)).reshape(n, 2), mt.arange(n))


# ---------------------------------------------------------------------------------- Dataset
def test_tensor_dataset():
    ds = _ds()
    assert len(ds) == 10
    x, y = ds[3]
    assert x.tolist() == [6.0, 7.0] and y.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(mt.ones(3), mt.ones(4))
    with pytest.raises(NotImplementedError):
        Dataset()[0]


def test_subset_concat_random_split():
    ds = _ds()
    sub = Subset(ds, [5, 1, 7])
    assert len(sub) == 3 and sub[1][1].item() == 1
    both = ds + sub
    assert isinstance(both, ConcatDataset) and len(both) == 13 and both[11][1].item() == 1
    assert both[-1][1].item() == 7
    parts = random_split(ds, [3, 7], generator=mt.Generator().manual_seed(1))
    assert [len(p) for p in parts] == [3, 7]
    assert sorted(parts[0].indices + parts[1].indices) == list(range(10))
    again = random_split(ds, [3, 7], generator=mt.Generator().manual_seed(1))
    assert again[0].indices == parts[0].indices
    assert [len(p) for p in random_split(range(10), [0.3, 0.3, 0.4])] == [3, 3, 4]
    assert [len(p) for p in random_split(range(11), [0.5, 0.5])] == [6, 5]
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(ds, [3, 3])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(2), [1.0, 0.0])


def test_random_split_lengths_match_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    for n, fractions in [(10, [0.3, 0.3, 0.4]), (11, [0.5, 0.5]), (7, [0.1, 0.2, 0.7]),
                         (100, [0.8, 0.2])]:
        ours = [len(p) for p in random_split(range(n), fractions)]
        theirs = [len(p) for p in torch.utils.data.random_split(range(n), fractions)]
        assert ours == theirs


# ---------------------------------------------------------------------------------- DataLoader
@pytest.mark.parametrize("n,batch,drop_last", [(10, 4, False), (10, 4, True), (12, 4, False),
                                                (12, 4, True), (3, 5, False), (3, 5, True)])
def test_batches_and_last_batch(n, batch, drop_last):
    loader = DataLoader(_ds(n), batch_size=batch, drop_last=drop_last)
    batches = list(loader)
    expected = n // batch if drop_last else math.ceil(n / batch)
    assert len(loader) == len(batches) == expected
    sizes = [len(yb) for _, yb in batches]
    full = [batch] * (n // batch)
    assert sizes == (full if drop_last or n % batch == 0 else full + [n % batch])
    for xb, yb in batches:
        assert isinstance(xb, mt.Tensor) and xb.shape[1:] == (2,) and xb.dtype == mt.float32
        assert yb.dtype == mt.int64
    if batches:
        assert [y for _, yb in batches for y in yb.tolist()] == list(range(sum(sizes)))


def test_len_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    for n, batch, drop in [(10, 3, False), (10, 3, True), (9, 3, True), (1, 64, False)]:
        tl = torch.utils.data.DataLoader(range(n), batch_size=batch, drop_last=drop)
        assert len(DataLoader(range(n), batch_size=batch, drop_last=drop)) == len(tl)


def test_shuffle_covers_every_index_once_per_epoch():
    loader = DataLoader(_ds(50), batch_size=8, shuffle=True)
    orders = []
    for _ in range(3):
        seen = [y for _, yb in loader for y in yb.tolist()]
        assert sorted(seen) == list(range(50))
        orders.append(seen)
    assert orders[0] != orders[1] or orders[1] != orders[2]  # a new order each epoch
    g1 = DataLoader(_ds(50), batch_size=8, shuffle=True, generator=mt.Generator().manual_seed(3))
    g2 = DataLoader(_ds(50), batch_size=8, shuffle=True, generator=mt.Generator().manual_seed(3))
    assert [yb.tolist() for _, yb in g1] == [yb.tolist() for _, yb in g2]
    mt.manual_seed(5)
    a = [yb.tolist() for _, yb in DataLoader(_ds(20), batch_size=4, shuffle=True)]
    mt.manual_seed(5)
    b = [yb.tolist() for _, yb in DataLoader(_ds(20), batch_size=4, shuffle=True)]
    assert a == b  # manual_seed makes shuffling reproducible


def test_fast_path_equals_sample_by_sample_collation():
    ds = _ds(23)
    sub = Subset(ds, list(range(20, 3, -2)))
    for data in (ds, sub):
        for shuffle in (False, True):
            fast = DataLoader(data, batch_size=4, shuffle=shuffle,
                              generator=mt.Generator().manual_seed(0))
            slow = DataLoader(data, batch_size=4, shuffle=shuffle,
                              generator=mt.Generator().manual_seed(0),
                              collate_fn=lambda batch: default_collate(batch))
            for (fx, fy), (sx, sy) in zip(fast, slow, strict=True):
                assert fx.tolist() == sx.tolist() and fy.tolist() == sy.tolist()
                assert fx.dtype == sx.dtype and fy.dtype == sy.dtype
    assert isinstance(next(iter(DataLoader(ds, batch_size=2))), list)


def test_samplers_custom_collate_and_no_batching():
    ds = _ds(6)
    loader = DataLoader(ds, batch_size=2, sampler=[5, 4, 3, 2, 1, 0])
    assert [yb.tolist() for _, yb in loader] == [[5, 4], [3, 2], [1, 0]]
    loader = DataLoader(ds, batch_sampler=[[0, 5], [1]])
    assert [yb.tolist() for _, yb in loader] == [[0, 5], [1]]
    assert len(loader) == 2
    loader = DataLoader(ds, batch_size=3, collate_fn=lambda batch: len(batch))
    assert list(loader) == [3, 3]
    single = list(DataLoader(range(4), batch_size=None))
    assert single == [0, 1, 2, 3]
    arrays = list(DataLoader([np.ones(2)], batch_size=None))
    assert isinstance(arrays[0], mt.Tensor)
    assert list(SequentialSampler(range(3))) == [0, 1, 2]
    assert sorted(RandomSampler(range(5))) == [0, 1, 2, 3, 4]
    assert len(list(RandomSampler(range(5), replacement=True, num_samples=12))) == 12
    assert sorted(SubsetRandomSampler([7, 8, 9])) == [7, 8, 9]
    assert list(BatchSampler(range(5), 2, drop_last=True)) == [[0, 1], [2, 3]]
    loader = DataLoader(ds, batch_size=4, sampler=SubsetRandomSampler([0, 1, 2, 3, 4]))
    assert sorted(y for _, yb in loader for y in yb.tolist()) == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="mutually exclusive with shuffle"):
        DataLoader(ds, shuffle=True, sampler=[0])
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(ds, batch_size=0)


def test_iterable_dataset():
    class Stream(IterableDataset):
        def __iter__(self):
            return iter(range(7))

    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert [b.tolist() for b in DataLoader(Stream(), batch_size=3, drop_last=True)] == [
        [0, 1, 2], [3, 4, 5]]


Point = collections.namedtuple("Point", "x y")


def _plain(obj):
    """Nested containers of tensors -> nested containers of (dtype name, values)."""
    if hasattr(obj, "detach"):
        return ("tensor", str(obj.dtype), obj.detach().numpy().tolist())
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return (type(obj).__name__, *[_plain(v) for v in obj])
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [_plain(v) for v in obj])
    return obj


def test_default_collate_matches_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")
    samples = [
        lambda lib: [(lib.ones(2), 1), (lib.zeros(2), 0)],
        lambda lib: [(1, 2.0, "a", np.float32(1), np.ones(2)),
                     (3, 4.0, "b", np.float32(2), np.zeros(2))],
        lambda lib: [{"x": lib.ones(2), "y": [1, 2], "name": "p"},
                     {"x": lib.zeros(2), "y": [3, 4], "name": "q"}],
        lambda lib: [Point(1, 2.0), Point(3, 4.0)],
        lambda lib: [[lib.ones(1), (5, 6)], [lib.ones(1) * 2, (7, 8)]],
        lambda lib: [True, False],
        lambda lib: [np.int64(1), np.int64(2)],
        lambda lib: [np.array(1.5), np.array(2.5)],
        lambda lib: [lib.tensor(1), lib.tensor(2)],
    ]
    for make in samples:
        assert _plain(default_collate(make(mt))) == _plain(
            torch.utils.data.default_collate(make(torch)))
    for bad in ([[1, 2], [1]], [object()]):
        with pytest.raises(Exception) as et:
            torch.utils.data.default_collate(bad)
        with pytest.raises(Exception) as em:
            default_collate(bad)
        assert type(em.value) is type(et.value) and str(em.value) == str(et.value)


# ---------------------------------------------------------------------------------- datasets
@pytest.mark.parametrize("make", [lambda s: make_moons(101, noise=0.1, seed=s),
                                  lambda s: make_spirals(90, n_classes=3, seed=s),
                                  lambda s: make_blobs(60, centers=4, seed=s)])
def test_synthetic_datasets(make):
    x, y = make(0)
    assert x.dtype == mt.float32 and y.dtype == mt.int64
    assert x.ndim == 2 and x.shape[1] == 2 and len(y) == x.shape[0]
    counts = np.bincount(y.numpy())
    assert counts.max() - counts.min() <= 1  # balanced classes
    x2, y2 = make(0)
    assert np.array_equal(x.numpy(), x2.numpy()) and np.array_equal(y.numpy(), y2.numpy())
    x3, _ = make(1)
    assert not np.array_equal(x.numpy(), x3.numpy())


def test_moons_shape_without_noise():
    x, y = make_moons(100, noise=0.0, shuffle=False)
    upper = x[:50].numpy()
    assert np.allclose(np.hypot(upper[:, 0], upper[:, 1]), 1.0, atol=1e-6)
    assert y[:50].tolist() == [0] * 50 and y[50:].tolist() == [1] * 50


def test_digits():
    x, y = load_digits()
    assert x.shape == (1797, 1, 8, 8) and x.dtype == mt.float32 and y.dtype == mt.int64
    assert 0.0 <= float(x.min()) and float(x.max()) == 1.0
    assert load_digits(flatten=True)[0].shape == (1797, 64)
    train, test = Digits(train=True), Digits(train=False)
    assert len(train) + len(test) == 1797 and abs(len(test) - 0.2 * 1797) < 10
    image, label = train[0]
    assert image.shape == (1, 8, 8) and isinstance(label, int)
    assert np.bincount(test.targets.numpy()).min() >= 30  # stratified: every digit is there
    train_idx = {tuple(r) for r in train.data.numpy().reshape(len(train), -1).tolist()}
    assert len(train_idx) > 1000
    batch = next(iter(DataLoader(train, batch_size=16)))
    assert batch[0].shape == (16, 1, 8, 8) and batch[1].dtype == mt.int64
    a, b, c, d = train_test_split(x, y, test_size=0.25, seed=1)
    assert len(a) + len(b) == 1797 and len(c) == len(a) and len(d) == len(b)
    flat = Digits(train=False, flatten=True, transform=lambda t: t * 2)
    assert flat[0][0].shape == (64,) and float(flat[0][0].max()) <= 2.0


# ---------------------------------------------------------------------------------- IDX/MNIST
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.float32,
                                   np.float64])
@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_idx_round_trip(tmp_path, dtype, suffix):
    array = (np.arange(24).reshape(2, 3, 4) - 5).astype(dtype)
    path = tmp_path / f"data-idx3{suffix}"
    write_idx(path, array)
    out = read_idx(path)
    assert out.dtype == np.dtype(dtype) and np.array_equal(out, array)


def test_idx_header_by_hand_and_errors(tmp_path):
    # magic 0x00000801 (unsigned bytes, 1 dimension), size 3, then the bytes
    path = tmp_path / "labels-idx1-ubyte"
    path.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1]))
    assert read_idx(path).tolist() == [7, 2, 1]
    bad = tmp_path / "bad"
    bad.write_bytes(b"\x01\x02\x08\x01\x00\x00\x00\x01\x00")
    with pytest.raises(ValueError, match="not an IDX file"):
        read_idx(bad)
    short = tmp_path / "short"
    short.write_bytes(bytes([0, 0, 8, 1, 0, 0, 0, 5, 1]))
    with pytest.raises(ValueError, match="promises 5 bytes"):
        read_idx(short)
    code = tmp_path / "code"
    code.write_bytes(bytes([0, 0, 0x42, 1, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match="unknown IDX data type"):
        read_idx(code)


def _fake_mnist(folder: pathlib.Path, n_train=5, n_test=3) -> dict:
    """Write tiny MNIST-format files; return their MD5s."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    md5 = {}
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        write_idx(folder / f"{prefix}-images-idx3-ubyte.gz",
                  rng.integers(0, 256, (n, 28, 28)).astype(np.uint8))
        write_idx(folder / f"{prefix}-labels-idx1-ubyte.gz",
                  rng.integers(0, 10, n).astype(np.uint8))
    for f in folder.iterdir():
        md5[f.name] = hashlib.md5(f.read_bytes()).hexdigest()
    return md5


def test_mnist_reads_local_files(tmp_path):
    _fake_mnist(tmp_path / "MNIST" / "raw")
    train = MNIST(tmp_path, train=True)
    test = MNIST(tmp_path, train=False)
    assert len(train) == 5 and len(test) == 3
    assert train.data.dtype == mt.uint8 and train.data.shape == (5, 28, 28)
    image, label = train[0]
    assert image.shape == (1, 28, 28) and image.dtype == mt.float32
    assert 0.0 <= float(image.min()) and float(image.max()) <= 1.0
    assert isinstance(label, int) and label == int(train.targets[0])
    xb, yb = next(iter(DataLoader(train, batch_size=4)))
    assert xb.shape == (4, 1, 28, 28) and yb.dtype == mt.int64
    assert np.allclose(xb[0].numpy(), image.numpy())
    with pytest.raises(RuntimeError, match="Dataset not found.*download=True"):
        MNIST(tmp_path / "elsewhere")


def test_checksums(tmp_path):
    f = tmp_path / "f.bin"
    f.write_bytes(b"minitorch")
    md5 = hashlib.md5(b"minitorch").hexdigest()
    sha = hashlib.sha256(b"minitorch").hexdigest()
    assert check_integrity(f, md5=md5) and check_integrity(f, sha256=sha)
    assert not check_integrity(f, md5="0" * 32)
    assert not check_integrity(tmp_path / "missing", md5=md5)


def test_download_verifies_checksums(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(b"payload")
    url = src.as_uri()  # a file:// URL: urllib's download path without a network
    good = hashlib.md5(b"payload").hexdigest()
    out = download_url(url, tmp_path / "cache" / "a.bin", md5=good)
    assert out.read_bytes() == b"payload"
    with pytest.raises(RuntimeError, match="Checksum mismatch"):
        download_url(url, tmp_path / "cache" / "b.bin", md5="0" * 32)
    assert not (tmp_path / "cache" / "b.bin").exists()
    assert not list((tmp_path / "cache").glob("*.part"))  # no half files left behind


def test_download_failure_is_a_clear_runtime_error(tmp_path):
    with pytest.raises(RuntimeError, match=r"Failed to download http://127\.0\.0\.1:9/x"):
        download_url("http://127.0.0.1:9/x", tmp_path / "x", timeout=5)

    class Unreachable(MNIST):
        mirrors = ["http://127.0.0.1:9/"]

    with pytest.raises(RuntimeError, match="Error downloading train-images-idx3-ubyte.gz") as e:
        Unreachable(tmp_path, download=True)
    assert "127.0.0.1:9" in str(e.value) and "by hand" in str(e.value)


def test_mnist_download_from_a_mirror(tmp_path):
    mirror = tmp_path / "mirror"
    md5 = _fake_mnist(mirror)

    class Local(MNIST):
        mirrors = ["http://127.0.0.1:9/", mirror.as_uri() + "/"]
        resources = [(name, md5[name]) for name, _ in MNIST.resources]

    ds = Local(tmp_path / "root", download=True)
    assert len(ds) == 5
    assert (tmp_path / "root" / "MNIST" / "raw" / "train-labels-idx1-ubyte.gz").is_file()
    # a mirror that serves a corrupted file is rejected
    (mirror / "t10k-labels-idx1-ubyte.gz").write_bytes(gzip.compress(b"junk"))

    class Corrupt(Local):
        mirrors = [mirror.as_uri() + "/"]

    with pytest.raises(RuntimeError, match="Checksum mismatch"):
        Corrupt(tmp_path / "root2", download=True)

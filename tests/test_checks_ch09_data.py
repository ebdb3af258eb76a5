"""Tests for the checks of chapter 09 (Data): ``DigitsDataset``, ``collate`` and the
DataLoader's loop ``my_batches``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

import minitorch
from minitorch.exercises import ch09_data
from minitorch.exercises.ch09_data import check_collate, check_dataset
from minitorch.utils.data import Dataset, TensorDataset


# ------------------------------------------------------------------ Dataset
def _dataset(length="right", get="right", base=Dataset):
    class DigitsDataset(base):
        def __init__(self, images, labels, transform=None):
            self.images, self.labels, self.transform = images, labels, transform

        def __len__(self):
            return {"right": len(self.labels), "shape": self.images.shape,
                    "pixels": self.images[0].numel()}[length]

        def __getitem__(self, i):
            image = self.images[i]
            if get == "image only":
                return image
            if get == "swapped":
                return int(self.labels[i]), image
            if self.transform is not None and get != "ignores transform":
                image = self.transform(image)
            label = self.labels[i]
            if get == "transforms label" and self.transform is not None:
                return image, self.transform(label)
            return image, (label if get == "tensor label" else int(label))

    return DigitsDataset


def test_dataset_right(capsys):
    passed, out = _result(check_dataset, _dataset(), capsys)
    assert passed and "all 8 cases passed" in out


def test_dataset_label_as_integer_tensor_is_right_too(capsys):
    passed, out = _result(check_dataset, _dataset(get="tensor label"), capsys)
    assert passed, out


def test_dataset_todo(capsys):
    class Todo(Dataset):
        def __init__(self, images, labels, transform=None):
            pass

        def __len__(self):
            raise NotImplementedError("your code here")

        def __getitem__(self, i):
            raise NotImplementedError("your code here")

    passed, out = _result(check_dataset, Todo, capsys)
    assert not passed and "not done yet" in out


@pytest.mark.parametrize("length, expected", [
    ("shape", "needs a whole number"),
    ("pixels", "`len(ds)` is 64 for 5 samples"),
])
def test_dataset_wrong_length(length, expected, capsys):
    passed, out = _result(check_dataset, _dataset(length=length), capsys)
    assert not passed and expected in out


@pytest.mark.parametrize("get, expected", [
    ("swapped", "wrong way round"),
    ("image only", "should be the pair `(image, label)`"),
    ("ignores transform", "came back unchanged"),
    ("transforms label", "the transform is for the image only"),
])
def test_dataset_wrong_item(get, expected, capsys):
    passed, out = _result(check_dataset, _dataset(get=get), capsys)
    assert not passed and expected in out
    assert "0.64, 0.65" not in out  # images are described by their shape, not printed


def test_dataset_not_a_dataset(capsys):
    passed, out = _result(check_dataset, _dataset(base=object), capsys)
    assert not passed and "class DigitsDataset(Dataset)" in out


# ------------------------------------------------------------------ collate
def collate(batch):
    images = minitorch.stack([image for image, _ in batch])
    labels = minitorch.tensor([label for _, label in batch])
    return images, labels


def test_collate_right(capsys):
    passed, out = _result(check_collate, collate, capsys)
    assert passed and "all 6 cases passed" in out


def test_collate_todo(capsys):
    passed, out = _result(check_collate, _todo, capsys)
    assert not passed and "not done yet" in out


def test_collate_cat_instead_of_stack(capsys):
    def cats(batch):
        return (minitorch.cat([image for image, _ in batch]),
                minitorch.tensor([label for _, label in batch]))

    passed, out = _result(check_collate, cats, capsys)
    assert not passed and "`torch.stack` adds a new" in out


def test_collate_list_of_images(capsys):
    def lists(batch):
        return [image for image, _ in batch], minitorch.tensor([label for _, label in batch])

    passed, out = _result(check_collate, lists, capsys)
    assert not passed and "a list of 3" in out


def test_collate_float_labels(capsys):
    def floats(batch):
        return (minitorch.stack([image for image, _ in batch]),
                minitorch.tensor([label for _, label in batch], dtype=minitorch.float32))

    passed, out = _result(check_collate, floats, capsys)
    assert not passed and "int64" in out and "CrossEntropyLoss" in out


def test_collate_labels_as_a_list(capsys):
    def label_list(batch):
        return minitorch.stack([image for image, _ in batch]), [label for _, label in batch]

    passed, out = _result(check_collate, label_list, capsys)
    assert not passed and "one tensor" in out


def test_collate_returns_only_the_images(capsys):
    def images_only(batch):
        return minitorch.stack([image for image, _ in batch])

    passed, out = _result(check_collate, images_only, capsys)
    assert not passed and "the pair `(images, labels)`" in out


# ------------------------------------------------------------------ the loader's loop
def make_batches(shuffle_fix="right", drop="right", collate="right", epoch="right",
                 worker_draw=True):
    """``my_batches``, right, or with one deliberate fault (for the meta-test too)."""
    cache = []  # (generator, order): the generator itself is kept, so its id is never reused

    def my_batches(dataset, batch_size, shuffle=False, drop_last=False, generator=None,
                   collate_fn=minitorch.utils.data.default_collate):
        if worker_draw:
            minitorch.randint(2**63 - 1, (), generator=generator)
        n = len(dataset)
        if shuffle and shuffle_fix != "ignored":
            gen = None if shuffle_fix == "global" else generator
            order = minitorch.randperm(n, generator=gen).tolist()
            if epoch == "cached":  # shuffles once per generator
                known = [o for g, o in cache if g is generator]
                if known:
                    order = known[0]
                else:
                    cache.append((generator, order))
        else:
            order = list(range(n))
        stop = n - batch_size if drop == "always" else n
        for start in range(0, stop, batch_size):
            indices = order[start:start + batch_size]
            if drop_last and len(indices) < batch_size and drop != "ignored":
                break
            samples = [dataset[i] for i in indices]
            yield samples if collate == "skipped" else collate_fn(samples)

    return my_batches


def test_data_loader_right(capsys):
    passed, out = _result(ch09_data.check_data_loader, make_batches(), capsys)
    assert passed and "all 9 cases passed" in out


def test_data_loader_todo(capsys):
    def my_batches(dataset, batch_size, shuffle=False, drop_last=False, generator=None,
                   collate_fn=None):
        minitorch.randint(2**63 - 1, (), generator=generator)
        raise NotImplementedError("your code here")

    passed, out = _result(ch09_data.check_data_loader, my_batches, capsys)
    assert not passed and "not done yet" in out


def test_data_loader_returning_a_list_is_right_too(capsys):
    right = make_batches()

    def as_list(*args, **kwargs):
        return list(right(*args, **kwargs))

    assert _result(ch09_data.check_data_loader, as_list, capsys)[0]


@pytest.mark.parametrize("fault,words", [
    (dict(shuffle_fix="ignored"), "shuffle=True, but the samples come in order"),
    (dict(shuffle_fix="global"), "Draw the permutation from `generator`"),
    (dict(worker_draw=False), "worker-seed draw"),
    (dict(drop="ignored"), "drop_last=True, but the last batch"),
    (dict(drop="always"), "The last, smaller batch is missing"),
    (dict(collate="skipped"), "Yield collated batches"),
    (dict(epoch="cached"), "The second epoch repeats"),
])
def test_data_loader_wrong(fault, words, capsys):
    passed, out = _result(ch09_data.check_data_loader, make_batches(**fault), capsys)
    assert not passed and words in out, out


def test_data_loader_reference_is_the_same_without_pytorch(monkeypatch):
    """The reference is PyTorch's DataLoader where it is installed; minitorch's gives the very
    same batches (its random streams match PyTorch's), so the check means the same without it."""
    pytest.importorskip("torch", reason="PyTorch is not installed: nothing to compare with")
    options = [dict(batch_size=3, shuffle=True), dict(batch_size=4, shuffle=True,
                                                      drop_last=True), dict(batch_size=4)]
    with_torch = [ch09_data._reference_batches(o, 5, 2) for o in options]
    monkeypatch.setitem(__import__("sys").modules, "torch", None)  # import torch -> ImportError
    assert [ch09_data._reference_batches(o, 5, 2) for o in options] == with_torch




# ------------------------------------------------------------------ more wrong answers
class _DatasetTransformsAtInit(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images = transform(images) if transform is not None else images
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], int(self.labels[i])


class _DatasetTransformsTheStore(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        if self.transform is not None:
            self.images[i] = self.transform(self.images[i])
        return self.images[i], int(self.labels[i])


class _DatasetFloatLabels(Dataset):
    def __init__(self, images, labels, transform=None):
        self.images, self.labels, self.transform = images, labels, transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        image = self.images[i]
        if self.transform is not None:
            image = self.transform(image)
        return image, float(self.labels[i])


def _collate_cat(batch):
    return (minitorch.cat([image for image, _ in batch]),
            minitorch.tensor([label for _, label in batch]))


def _collate_lists(batch):
    return [image for image, _ in batch], minitorch.tensor([label for _, label in batch])


def _collate_float_labels(batch):
    return (minitorch.stack([image for image, _ in batch]),
            minitorch.tensor([label for _, label in batch], dtype=minitorch.float32))


def _collate_label_list(batch):
    return minitorch.stack([image for image, _ in batch]), [label for _, label in batch]


def _collate_images_only(batch):
    return minitorch.stack([image for image, _ in batch])


def _collate_numpy(batch):
    return (np.stack([image.numpy() for image, _ in batch]),
            minitorch.tensor([label for _, label in batch]))


def _collate_pops(batch):
    images, labels = [], []
    while batch:
        image, label = batch.pop(0)
        images.append(image)
        labels.append(label)
    return minitorch.stack(images), minitorch.tensor(labels)


def _collate_default(batch):
    return minitorch.utils.data.default_collate(batch)


def _batches_random_shuffle(dataset, batch_size, shuffle=False, drop_last=False, generator=None,
                            collate_fn=minitorch.utils.data.default_collate):
    minitorch.randint(2**63 - 1, (), generator=generator)
    order = list(range(len(dataset)))
    if shuffle:
        random.shuffle(order)  # Python's own random stream, not the generator
    for start in range(0, len(order), batch_size):
        indices = order[start:start + batch_size]
        if drop_last and len(indices) < batch_size:
            break
        yield collate_fn([dataset[i] for i in indices])


def _batches_shuffle_the_dataset(dataset, batch_size, shuffle=False, drop_last=False,
                                 generator=None,
                                 collate_fn=minitorch.utils.data.default_collate):
    minitorch.randint(2**63 - 1, (), generator=generator)
    if shuffle:
        order = minitorch.randperm(len(dataset), generator=generator).tolist()
        dataset[:] = [dataset[i] for i in order]  # shuffles the caller's list
    for start in range(0, len(dataset), batch_size):
        samples = dataset[start:start + batch_size]
        if drop_last and len(samples) < batch_size:
            break
        yield collate_fn(samples)


def _batches_with_a_data_loader(dataset, batch_size, shuffle=False, drop_last=False,
                                generator=None,
                                collate_fn=minitorch.utils.data.default_collate):
    yield from minitorch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=shuffle,
                                               drop_last=drop_last, generator=generator,
                                               collate_fn=collate_fn)


# second adversarial review: a wrong answer rejected without a reason ("expected True")
def _collate_sorted_by_label(batch):
    ordered = sorted(batch, key=lambda sample: sample[1])
    return (minitorch.stack([image for image, _ in ordered]),
            minitorch.tensor([label for _, label in ordered]))


# third adversarial review: the answer key as a base class, and a fixed-seed fallback
class _DatasetFromTensorDataset(TensorDataset):
    def __init__(self, images, labels, transform=None):
        super().__init__(images, labels)
        self.transform = transform

    def __getitem__(self, i):
        image, label = super().__getitem__(i)
        if self.transform is not None:
            image = self.transform(image)
        return image, int(label)


class _DatasetIsTensorDataset(TensorDataset):
    """The library has it already."""


class _DatasetWrapsTensorDataset(Dataset):
    def __init__(self, images, labels, transform=None):
        self.data, self.transform = TensorDataset(images, labels), transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        image, label = self.data[i]
        return (image if self.transform is None else self.transform(image)), int(label)


def _batches_fixed_seed_fallback(dataset, batch_size, shuffle=False, drop_last=False,
                                 generator=None,
                                 collate_fn=minitorch.utils.data.default_collate):
    if generator is None:
        generator = minitorch.Generator().manual_seed(0)  # "a default, to be repeatable"
    yield from make_batches()(dataset, batch_size, shuffle, drop_last, generator, collate_fn)


def _batches_numpy_when_no_generator(dataset, batch_size, shuffle=False, drop_last=False,
                                     generator=None,
                                     collate_fn=minitorch.utils.data.default_collate):
    minitorch.randint(2**63 - 1, (), generator=generator)
    n = len(dataset)
    if shuffle and generator is None:
        order = np.random.permutation(n).tolist()
    elif shuffle:
        order = minitorch.randperm(n, generator=generator).tolist()
    else:
        order = list(range(n))
    for start in range(0, n, batch_size):
        indices = order[start:start + batch_size]
        if drop_last and len(indices) < batch_size:
            break
        yield collate_fn([dataset[i] for i in indices])


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_dataset": (check_dataset, _dataset()),
    "check_collate": (check_collate, collate),
    "check_data_loader": (ch09_data.check_data_loader, make_batches()),
}

WRONG = [
    ("check_dataset", _dataset(length="shape"), "__len__ returns the shape",
     ["needs a whole number"]),
    ("check_dataset", _dataset(length="pixels"), "__len__ counts pixels",
     ["`len(ds)` is 64 for 5 samples"]),
    ("check_dataset", _dataset(get="swapped"), "(label, image)", ["wrong way round"]),
    ("check_dataset", _dataset(get="image only"), "returns the image only",
     ["should be the pair `(image, label)`"]),
    ("check_dataset", _dataset(get="ignores transform"), "ignores the transform",
     ["came back unchanged"]),
    ("check_dataset", _dataset(get="transforms label"), "transforms the label too",
     ["the transform is for the image only"]),
    ("check_dataset", _dataset(base=object), "not a Dataset",
     ["class DigitsDataset(Dataset)"]),
    ("check_dataset", _DatasetTransformsAtInit, "the transform applied once, in __init__",
     ["The transform ran in `__init__`", "each time it is fetched"]),
    ("check_dataset", _DatasetTransformsTheStore, "transforms the stored image in place",
     ["changed the images the dataset stores"]),
    ("check_dataset", _DatasetFloatLabels, "labels as floats", ["should be a whole number"]),
    ("check_collate", _collate_cat, "cat instead of stack", ["`torch.stack` adds a new"]),
    ("check_collate", _collate_lists, "a list of images", ["a list of 3"]),
    ("check_collate", _collate_float_labels, "float labels",
     ["int64", "CrossEntropyLoss"]),
    ("check_collate", _collate_label_list, "labels as a list", ["one tensor"]),
    ("check_collate", _collate_images_only, "returns the images only",
     ["the pair `(images, labels)`"]),
    ("check_collate", _collate_numpy, "np.stack: a NumPy array of images",
     ["came back as an ndarray"]),
    ("check_collate", _collate_pops, "pops the samples off the batch",
     ["changed the list it was given"]),
    ("check_collate", _collate_default, "default_collate", ["called `default_collate`"]),
    ("check_collate", _collate_sorted_by_label, "the samples sorted by label",
     ["default_collate gives the labels [3, 1, 4, 1, 5]", "in a different order"]),
    ("check_data_loader", make_batches(shuffle_fix="ignored"), "shuffle ignored",
     ["shuffle=True, but the samples come in order"]),
    ("check_data_loader", make_batches(shuffle_fix="global"),
     "shuffles with the global stream, not the generator", ["from `generator`", "seed (0)"]),
    ("check_data_loader", _batches_random_shuffle, "Python's random.shuffle",
     ["from `generator`"]),
    ("check_data_loader", make_batches(worker_draw=False),
     "the worker-seed draw left out", ["worker-seed draw"]),
    ("check_data_loader", make_batches(drop="ignored"), "drop_last ignored",
     ["drop_last=True, but the last batch has only 2 samples"]),
    ("check_data_loader", make_batches(drop="always"), "always drops the last batch",
     ["The last, smaller batch is missing"]),
    ("check_data_loader", make_batches(collate="skipped"), "collate_fn never called",
     ["Yield collated batches"]),
    ("check_data_loader", make_batches(epoch="cached"), "the same order every epoch",
     ["The second epoch repeats"]),
    ("check_data_loader", _batches_shuffle_the_dataset, "shuffles the dataset list itself",
     ["changed the dataset it was given"]),
    ("check_data_loader", _batches_with_a_data_loader, "a DataLoader inside",
     ["called `torch.utils.data.DataLoader`"]),
    ("check_dataset", _DatasetFromTensorDataset, "subclasses TensorDataset",
     ["called `TensorDataset`", "write the dataset yourself"]),
    ("check_dataset", _DatasetIsTensorDataset, "TensorDataset under another name",
     ["subclasses `TensorDataset`", "Subclass `Dataset`"]),
    ("check_dataset", _DatasetWrapsTensorDataset, "a TensorDataset inside",
     ["called `TensorDataset`", "write the dataset yourself"]),
    ("check_data_loader", _batches_fixed_seed_fallback, "a fixed seed when generator is None",
     ["generator=None", "falls back to a fixed seed", "global random stream"]),
    ("check_data_loader", _batches_numpy_when_no_generator,
     "NumPy's global stream when generator is None",
     ["does not follow `torch.manual_seed`", "randperm(n, generator=None)"]),
]

GIVEAWAYS = {
    "check_dataset": ["image = self.transform(image)"],
    "check_collate": ["torch.stack([image"],
    "check_data_loader": ["randperm(n, generator=generator)", "range(0, n, batch_size)"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

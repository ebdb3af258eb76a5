"""Chapter 09 (Data): the checks of its code exercises, run on real tensors and DataLoaders.

======================  ===============================================================
check                   the learner writes
======================  ===============================================================
check_dataset           ``class DigitsDataset(Dataset)``: stores images and labels;
                        ``__len__`` is the number of samples, ``__getitem__(i)`` returns
                        ``(image, label)`` with the optional ``transform`` applied to the
                        image
check_collate           ``collate(batch)``: turns a list of ``(image, label)`` samples
                        into one batch ``(images, labels)``, what a DataLoader's
                        ``collate_fn`` does
check_data_loader       ``my_batches(dataset, batch_size, shuffle, drop_last, generator,
                        collate_fn)``: one epoch of a DataLoader's batches (the order,
                        batching, ``drop_last``, collating), the same batches as the real
                        ``DataLoader`` for the same seed
======================  ===============================================================

Like every check, these never raise. The usual mistakes get an explanation: ``__len__``
returning a shape, the pair in the wrong order, the transform applied to the label,
``torch.cat`` where ``torch.stack`` belongs, labels as floats.

Example:
    >>> import minitorch
    >>> def collate(batch):
    ...     images = minitorch.stack([image for image, _ in batch])
    ...     labels = minitorch.tensor([label for _, label in batch])
    ...     return images, labels
    >>> check_collate(collate)
    ✓ collate: all 6 cases passed.
    True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import Seen, a_kind
from ._common import format_value, to_numpy
from .runner import Case, Shortcut, WrongAnswer, run_check

__all__ = ["check_collate", "check_data_loader", "check_dataset"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_dataset": "DigitsDataset",
    "check_collate": "collate",
    "check_data_loader": "my_batches",
}


def _samples(n: int = 5):
    """``n`` small distinct images (n, 1, 8, 8) and their labels (n,) as tensors."""
    import minitorch

    images = minitorch.arange(n * 64, dtype=minitorch.float32).reshape(n, 1, 8, 8) / 100
    labels = minitorch.tensor([3, 1, 4, 1, 5, 9, 2, 6, 5, 3][:n])
    return images, labels


def _is_int_label(value: Any) -> bool:
    """A Python int, or a 0-d integer tensor or NumPy integer."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, np.integer)):
        return True
    array = to_numpy(value)
    return array is not None and array.shape == () and array.dtype.kind in "iu"


def _describe(value: Any) -> str:
    """A short description of a sample or a part of one (no walls of numbers)."""
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_describe(v) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    array = to_numpy(value)
    if array is not None and array.size > 6:
        kind = "tensor" if hasattr(value, "grad_fn") else type(value).__name__
        return f"<{kind} of shape {tuple(array.shape)}>"
    return format_value(value, 120)


class _Got:
    """What a case returns: the learner's value, shown in its short description."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return _describe(self.value)


# ------------------------------------------------------------------ Dataset
def check_dataset(dataset_class: type) -> bool:
    """Check ``DigitsDataset(images, labels, transform=None)``, a map-style Dataset.

    It subclasses ``torch.utils.data.Dataset`` and stores ``images`` (N, 1, 8, 8) and
    ``labels`` (N,). ``len(ds)`` is N (a Python int). ``ds[i]`` is the pair
    ``(image, label)``: ``images[i]`` (passed through ``transform`` when one is given) and the
    label as a Python ``int`` (``int(labels[i])``; an integer 0-d tensor is accepted too).
    Negative indices work as for a list. The transform runs at every fetch, on the one image
    fetched (not once in ``__init__``), and the stored images stay unchanged. A
    ``DataLoader`` over it yields batches. ``TensorDataset`` (the answer key) is refused, as a
    base class or inside.

    Example:
        >>> from minitorch.utils.data import Dataset
        >>> class DigitsDataset(Dataset):
        ...     def __init__(self, images, labels, transform=None):
        ...         self.images, self.labels, self.transform = images, labels, transform
        ...     def __len__(self):
        ...         return len(self.labels)
        ...     def __getitem__(self, i):
        ...         image = self.images[i]
        ...         if self.transform is not None:
        ...             image = self.transform(image)
        ...         return image, int(self.labels[i])
        >>> check_dataset(DigitsDataset)
        ✓ DigitsDataset: all 8 cases passed.
        True
    """
    from minitorch.utils.data import DataLoader, Dataset, TensorDataset

    DS = dataset_class  # noqa: N806  (a class)
    images, labels = _samples(5)
    images_np = to_numpy(images).copy()

    def is_dataset():
        return isinstance(DS(images, labels), Dataset)

    def compare_dataset(got: Any, expected: Any) -> bool:
        assert got, ("`DigitsDataset(...)` is not a `Dataset`: write "
                     "`class DigitsDataset(Dataset):` (from `torch.utils.data`).")
        assert not (isinstance(DS, type) and issubclass(DS, TensorDataset)), (
            "`DigitsDataset` subclasses `TensorDataset`, which already stores, counts and "
            "fetches the samples: the exercise is to write that yourself. Subclass `Dataset` "
            "and write `__init__`, `__len__` and `__getitem__`.")
        return True

    def length():
        return DS(images, labels).__len__()

    def compare_length(got: Any, expected: Any) -> bool:
        assert isinstance(got, (int, np.integer)) and not isinstance(got, bool), (
            f"`__len__` returned {format_value(got)}, but `len()` needs a whole number: the "
            "number of samples, `len(self.labels)`.")
        assert got == expected, (
            f"`len(ds)` is {got} for 5 samples: return the number of samples, "
            "`len(self.labels)` (or `self.images.shape[0]`).")
        return True

    def item(index):
        def run():
            return _Got(DS(images, labels)[index])
        return run

    def compare_item(index):
        def compare(got: Any, expected: Any) -> bool:
            got = got.value
            want_image = images_np[index]
            want_label = int(labels[index].item())
            assert isinstance(got, (tuple, list)) and len(got) == 2, (
                f"`ds[{index}]` should be the pair `(image, label)`, got {_describe(got)}: "
                "`return image, label`.")
            image, label = got
            if _is_int_label(image) and to_numpy(label) is not None \
                    and to_numpy(label).shape == (1, 8, 8):
                raise AssertionError("The pair is the wrong way round: return "
                                     "`(image, label)`, image first, as the DataLoader and "
                                     "the training loop expect.")
            array = to_numpy(image)
            assert array is not None and array.shape == (1, 8, 8), (
                f"The image of `ds[{index}]` should be `images[{index}]`, shape (1, 8, 8); got "
                f"{_describe(image)}.")
            assert np.allclose(array, want_image), (
                f"The image of `ds[{index}]` is not `images[{index}]`: index the stored "
                "images with `i`.")
            assert _is_int_label(label), (
                f"The label of `ds[{index}]` should be a whole number (`int(self.labels[i])`); "
                f"got {format_value(label)}.")
            assert int(label) == want_label, (
                f"The label of `ds[{index}]` should be {want_label}, got {int(label)}.")
            return True
        return compare

    def with_transform():
        ds = DS(images, labels, transform=lambda image: image * 2)
        return _Got(ds[1])

    def compare_transform(got: Any, expected: Any) -> bool:
        image, label = got.value
        image = to_numpy(image)
        assert np.array_equal(to_numpy(images), images_np), (
            "Fetching a sample changed the images the dataset stores (`self.images[i] = "
            "...`?): apply the transform to the fetched image and return the result, leaving "
            "the stored images as they were.")
        if image is not None and np.allclose(image, images_np[1]):
            raise AssertionError("With `transform=lambda image: image * 2` the image came back "
                                 "unchanged: apply `self.transform` to the image in "
                                 "`__getitem__` when it is not None.")
        assert image is not None and np.allclose(image, 2 * images_np[1]), (
            f"Expected the transformed image `images[1] * 2`; got {_describe(image)}.")
        assert _is_int_label(label) and int(label) == int(labels[1].item()), (
            f"The label changed to {format_value(label)}: the transform is for the image "
            "only (labels get a separate `target_transform` in PyTorch's datasets).")
        return True

    def per_fetch():
        calls = []

        def transform(image):
            calls.append(tuple(getattr(image, "shape", ())))
            return image + len(calls)  # a different result each time, like a random shift

        ds = DS(images, labels, transform=transform)
        at_init = list(calls)
        first, second = ds[1][0], ds[1][0]
        return Seen({"_at init": at_init, "_calls": list(calls), "_first": to_numpy(first),
                     "_second": to_numpy(second),
                     "_stored unchanged": bool(np.array_equal(to_numpy(images), images_np)),
                     "transform called": f"{len(calls)} time" + "s" * (len(calls) != 1)})

    def compare_per_fetch(got: Any, expected: Any) -> bool:
        assert got["_stored unchanged"], (
            "Fetching a sample changed the images the dataset stores (`self.images[i] = "
            "...`?): apply the transform to the fetched image and return the result, leaving "
            "the stored images as they were.")
        assert not got["_at init"], (
            f"The transform ran in `__init__` (on {got['_at init'][0]}), once: apply it in "
            "`__getitem__`, to the one image fetched, each time it is fetched. A random "
            "transform (a small shift, noise) must give a new image at every fetch.")
        assert len(got["_calls"]) == 2, (
            f"Fetching `ds[1]` twice called the transform {len(got['_calls'])} times: once "
            "per fetch is right.")
        assert all(shape == (1, 8, 8) for shape in got["_calls"]), (
            f"The transform was called on shapes {got['_calls']}: call it on the one image "
            "fetched, shape (1, 8, 8).")
        return True

    def no_transform_default():
        ds = DS(images, labels)  # transform left out
        return _Got(ds[0][0])

    def compare_default(got: Any, expected: Any) -> bool:
        got = to_numpy(got.value)
        assert got is not None and np.allclose(got, images_np[0]), (
            "Without a transform, `ds[0]` should return `images[0]` unchanged: make "
            "`transform=None` the default and skip it when it is None.")
        return True

    def in_a_loader():
        loader = DataLoader(DS(images, labels), batch_size=2)
        return [(tuple(xb.shape), yb.tolist(), str(yb.dtype)) for xb, yb in loader]

    expected_batches = [((2, 1, 8, 8), [3, 1], "torch.int64"), ((2, 1, 8, 8), [4, 1],
                        "torch.int64"), ((1, 1, 8, 8), [5], "torch.int64")]

    cases = [
        Case("DigitsDataset(images, labels) is a Dataset", is_dataset, True,
             compare=compare_dataset),
        Case("len(ds) with 5 samples", length, 5, compare=compare_length),
        Case("ds[2] is (images[2], 4)", item(2), None, compare=compare_item(2),
             expected_repr="(images[2], 4)"),
        Case("ds[-1] is the last sample, (images[4], 5)", item(-1), None,
             compare=compare_item(-1), expected_repr="(images[4], 5)"),
        Case("ds[1] with transform=lambda image: image * 2", with_transform, None,
             compare=compare_transform, expected_repr="(images[1] * 2, 1)"),
        Case("a transform that gives a new result at every call, ds[1] fetched twice: "
             "applied at each fetch, to that one image", per_fetch, None,
             compare=compare_per_fetch,
             expected_repr="the transform called twice, on one (1, 8, 8) image each time"),
        Case("ds[0] with no transform given", no_transform_default, None,
             compare=compare_default, expected_repr="images[0], unchanged"),
        Case("the batches of DataLoader(ds, batch_size=2): (shape, labels, dtype)",
             in_a_loader, expected_batches,
             compare=lambda got, exp: got == exp),
    ]
    answer_key = Shortcut(
        "The exercise is to write the dataset yourself: `TensorDataset` already stores, "
        "counts and fetches the samples.",
        objects={"TensorDataset": TensorDataset})
    return run_check(
        "DigitsDataset", cases,
        hint=(
            "A map-style dataset answers two questions: how many samples (`__len__`) and what is "
            "sample i (`__getitem__`)."
        ),
        more_help=[
            "Keep what `__init__` receives; do not transform everything up front.",
            "`__getitem__` returns a pair (image, label); the transform, when given, applies to "
            "the image of that one sample.",
            "Labels should come out as plain Python ints.",
        ],
        refuse=[answer_key],
    )


# ------------------------------------------------------------------ collate_fn
def check_collate(collate: Callable[[list], Any]) -> bool:
    """Check ``collate(batch)``, a ``collate_fn`` for ``(image, label)`` samples.

    ``batch`` is a list of samples ``(image, label)``, each image a tensor (1, 8, 8) and each
    label an ``int``. ``collate`` returns ``(images, labels)``: the images **stacked** into one
    tensor (B, 1, 8, 8), in the order of the batch, and the labels as one int64 tensor (B,),
    which is what ``nn.CrossEntropyLoss`` wants. The list it is given stays unchanged, and
    ``default_collate`` is refused.

    Example:
        >>> import minitorch
        >>> def collate(batch):
        ...     images = minitorch.cat([image for image, _ in batch])   # wrong: cat
        ...     labels = minitorch.tensor([label for _, label in batch])
        ...     return images, labels
        >>> check_collate(collate)  # doctest: +ELLIPSIS
        ✗ collate: wrong result for `the images of a batch of 3: one tensor of shape (3, 1, 8, 8)`.
        ...
        False
    """
    import minitorch
    from minitorch.utils.data import DataLoader, TensorDataset, default_collate

    images, labels = _samples(5)
    samples = [(images[i], int(labels[i].item())) for i in range(5)]

    def result(batch):
        given = list(batch)
        out = collate(batch)
        if len(batch) != len(given) or any(a is not b for a, b in zip(batch, given)):
            raise WrongAnswer(
                "`collate` changed the list it was given (`pop`, `sort`, `reverse`...): the "
                "DataLoader still needs it. Read the samples without changing the list.")
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise WrongAnswer(
                f"`collate` should return the pair `(images, labels)`; got {_describe(out)}.")
        images_out = out[0]
        if not isinstance(images_out, (list, tuple, minitorch.Tensor)):
            raise WrongAnswer(
                f"The images came back as {a_kind(images_out)}: stack them into one "
                "minitorch tensor (`torch.stack`), which the network and the loss expect.")
        return out

    def images_shape():
        xb, _ = result(samples[:3])
        if isinstance(xb, (list, tuple)):
            return f"a {type(xb).__name__} of {len(xb)}"
        return tuple(xb.shape)

    def compare_shape(got: Any, expected: Any) -> bool:
        if isinstance(got, str):
            raise AssertionError(
                f"The images came back as {got} tensors: stack them into one tensor, "
                "`torch.stack(images)`, so the network gets the whole batch at once.")
        if got == (3, 8, 8):
            raise AssertionError(
                "The images have shape (3, 8, 8): `torch.cat` joins tensors along an existing "
                "dimension, so the channel dimension became the batch. `torch.stack` adds a new "
                "first dimension: (3, 1, 8, 8).")
        assert got == expected, f"Expected the shape {expected}, got {got}."
        return True

    def images_values():
        xb, _ = result([samples[3], samples[0], samples[2]])
        return _Got(xb)

    def compare_values(got: Any, expected: Any) -> bool:
        got = to_numpy(got.value)
        assert got is not None and got.shape == expected.shape and np.allclose(got, expected), (
            "The stacked images are not the batch's images in the batch's order (sample 0 of "
            "the batch first).")
        return True

    def labels_out():
        _, yb = result([samples[3], samples[0], samples[2]])
        array = to_numpy(yb)
        if array is None:
            return _describe(yb)
        return {"values": array.tolist(), "dtype": str(getattr(yb, "dtype", array.dtype)),
                "tensor": isinstance(yb, minitorch.Tensor), "type": type(yb).__name__}

    def compare_labels(got: Any, expected: Any) -> bool:
        assert isinstance(got, dict) and got["tensor"], (
            "The labels should be one tensor, `torch.tensor(labels)`; got "
            f"{got['type'] if isinstance(got, dict) else got}.")
        assert got["values"] == expected, (
            f"The labels should be {expected} (in the batch's order), got {got['values']}.")
        assert got["dtype"] == "torch.int64", (
            f"The labels have dtype {got['dtype']}. `nn.CrossEntropyLoss` wants class indices "
            "as int64: `torch.tensor(labels)` of Python ints gives int64 by itself (no "
            "`dtype=torch.float32`).")
        return True

    def batch_of_one():
        xb, yb = result(samples[4:5])
        return {"images": tuple(xb.shape), "labels": tuple(yb.shape)}

    def in_a_loader():
        ds = TensorDataset(images, labels)
        loader = DataLoader([(x, int(y)) for x, y in zip(images, labels)], batch_size=2,
                            collate_fn=collate)
        reference = DataLoader(ds, batch_size=2)
        got = [(to_numpy(xb).tolist(), to_numpy(yb).tolist()) for xb, yb in loader]
        want = [(to_numpy(xb).tolist(), to_numpy(yb).tolist()) for xb, yb in reference]
        return got == want

    def same_as_default():
        mine = result(samples)
        theirs = default_collate(samples)
        images_mine, labels_mine = to_numpy(mine[0]), to_numpy(mine[1])
        images_theirs, labels_theirs = to_numpy(theirs[0]), to_numpy(theirs[1])
        same_images = bool(images_mine is not None and images_mine.shape == images_theirs.shape
                           and np.allclose(images_mine, images_theirs))
        labels = None if labels_mine is None else labels_mine.tolist()
        return Seen({"same images": same_images, "labels": labels,
                     "_want labels": labels_theirs.tolist()})

    def compare_default(got: Any, _expected: Any) -> bool:
        want = got["_want labels"]
        if got["same images"] and got["labels"] == want:
            return True
        order = (" in a different order: keep the batch's order, sample 0 first"
                 if got["labels"] is not None and sorted(got["labels"]) == sorted(want) else "")
        assert got["labels"] == want, (
            f"On 5 samples default_collate gives the labels {want}; yours are "
            f"{got['labels']}{order}.")
        raise AssertionError(
            "On 5 samples your images differ from default_collate's: stack every sample's "
            "image, in the batch's order.")

    expected_images = to_numpy(minitorch.stack([images[3], images[0], images[2]]))
    answer_key = Shortcut(
        "The exercise is to write a `collate_fn` yourself: `default_collate` is the answer "
        "key.", objects={"default_collate": default_collate})
    cases = [
        Case("the images of a batch of 3: one tensor of shape (3, 1, 8, 8)", images_shape,
             (3, 1, 8, 8), compare=compare_shape),
        Case("the images of the batch [sample 3, sample 0, sample 2], in that order",
             images_values, expected_images, compare=compare_values,
             expected_repr="stack([image 3, image 0, image 2])"),
        Case("the labels of the batch [sample 3, sample 0, sample 2]", labels_out,
             [1, 3, 4], compare=compare_labels,
             expected_repr="tensor([1, 3, 4]) (int64)"),
        Case("a batch of one sample", batch_of_one,
             {"images": (1, 1, 8, 8), "labels": (1,)}),
        Case("the same as default_collate on 5 samples", same_as_default, True,
             compare=compare_default, expected_repr="the same images and labels"),
        Case("as the collate_fn of DataLoader(..., batch_size=2): the same batches",
             in_a_loader, True),
    ]
    return run_check(
        "collate", cases,
        hint=(
            "`collate` turns a list of (image, label) samples into one batch: a stacked image "
            "tensor and a label tensor."
        ),
        more_help=[
            "Separate the images from the labels first.",
            "Stacking adds a new first dimension, the batch dimension.",
            "The labels become one integer tensor of length batch size.",
        ],
        refuse=[answer_key],
    )


# ------------------------------------------------------------------ the DataLoader's loop
_N_SAMPLES = 10


def _loader_samples() -> list:
    """Ten ``(image, label)`` samples whose label is their index: a batch's labels name its
    samples, so feedback can show batches as lists of sample numbers."""
    images, _ = _samples(_N_SAMPLES)
    return [(images[i], i) for i in range(_N_SAMPLES)]


def _reference_batches(options: dict, seed: int | None, epochs: int) -> list:
    """The batches of the real DataLoader (PyTorch's where it is installed, else minitorch's),
    as plain values: per epoch, a list of ``(labels, images)`` per batch."""
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        lib = torch
        samples = [(torch.from_numpy(to_numpy(image).copy()), label)
                   for image, label in _loader_samples()]
    else:
        import minitorch as lib

        samples = _loader_samples()
    # Always a generator of its own: without one, DataLoader draws its worker seed from the
    # global random stream, and the check would move the learner's (the order of an
    # unshuffled loader does not depend on the seed).
    generator = lib.Generator().manual_seed(0 if seed is None else seed)
    loader = lib.utils.data.DataLoader(samples, generator=generator, **options)
    return [[_plain_batch(batch) for batch in loader] for _ in range(epochs)]


def _plain_batch(batch: Any) -> Any:
    """A batch as plain values: ``(labels, images)`` for an ``(images, labels)`` pair, the
    batch itself (a list of labels, say) for a custom ``collate_fn``."""
    if isinstance(batch, (tuple, list)) and len(batch) == 2 and to_numpy(batch[0]) is not None \
            and getattr(batch[0], "ndim", 0) == 4:
        labels = to_numpy(batch[1])
        return ([int(v) for v in labels.tolist()] if labels is not None else batch[1],
                to_numpy(batch[0]).round(6).tolist())
    return batch


class _Epochs:
    """What a case got: the learner's epochs of batches, shown as lists of sample numbers."""

    def __init__(self, epochs: list) -> None:
        self.epochs = epochs

    def __repr__(self) -> str:
        return _show_epochs(self.epochs)


def _show_epochs(epochs: list) -> str:
    def batch_text(batch):
        if isinstance(batch, tuple) and len(batch) == 2 and isinstance(batch[0], list):
            return format_value(batch[0], 80)
        return _describe(batch)

    shown = ["[" + ", ".join(batch_text(b) for b in epoch) + "]" for epoch in epochs]
    return shown[0] if len(shown) == 1 else " then ".join(
        f"epoch {i + 1}: {text}" for i, text in enumerate(shown))


class _GlobalEpochs(_Epochs):
    """Three epochs drawn without a generator (see ``check_data_loader``)."""

    def __repr__(self) -> str:
        first, again, after = (_show_epochs([epoch]) for epoch in self.epochs)
        return (f"after manual_seed(5): {first}; after manual_seed(5) again: {again}; at the "
                f"next call: {after}")


def check_data_loader(my_batches: Callable[..., Any]) -> bool:
    """Check ``my_batches(dataset, batch_size, shuffle, drop_last, generator, collate_fn)``:
    one epoch of the batches that ``DataLoader`` yields with the same options.

    The dataset is a list of ten ``(image, label)`` samples whose label is their index. The
    reference is the real ``DataLoader`` with the same seed: PyTorch's where PyTorch is
    installed (minitorch's random streams match PyTorch's bit for bit), otherwise
    minitorch's. The cases try batching in order, the short last batch, ``drop_last``,
    shuffling with a seeded ``minitorch.Generator``, two epochs from one generator (a new
    order each), and a custom ``collate_fn``. Without a generator, the order comes from the
    global random stream: the same after the same ``manual_seed``, a new one at the next call
    (not a fixed seed). The dataset stays unchanged, and a ``DataLoader`` (or its samplers)
    is refused.

    Example:
        >>> import minitorch
        >>> from minitorch.utils.data import default_collate
        >>> def my_batches(dataset, batch_size, shuffle=False, drop_last=False,
        ...                generator=None, collate_fn=default_collate):
        ...     minitorch.randint(2**63 - 1, (), generator=generator)  # the worker seed
        ...     n = len(dataset)
        ...     if shuffle:
        ...         order = minitorch.randperm(n, generator=generator).tolist()
        ...     else:
        ...         order = list(range(n))
        ...     for start in range(0, n, batch_size):
        ...         indices = order[start:start + batch_size]
        ...         if drop_last and len(indices) < batch_size:
        ...             break
        ...         yield collate_fn([dataset[i] for i in indices])
        >>> check_data_loader(my_batches)
        ✓ my_batches: all 9 cases passed.
        True
    """
    import minitorch
    from minitorch.utils.data import default_collate

    def labels_only(batch):
        return [label for _, label in batch]

    problems = [
        ("batch_size=4, in order: the last batch is short", dict(batch_size=4), None, 1),
        ("batch_size=4, drop_last=True: the short last batch is dropped",
         dict(batch_size=4, drop_last=True), None, 1),
        ("batch_size=5, drop_last=True: 10 samples fill two batches exactly",
         dict(batch_size=5, drop_last=True), None, 1),
        ("batch_size=3, shuffle=True, generator=Generator().manual_seed(0)",
         dict(batch_size=3, shuffle=True), 0, 1),
        ("batch_size=4, shuffle=True, drop_last=True, generator seeded with 7",
         dict(batch_size=4, shuffle=True, drop_last=True), 7, 1),
        ("two epochs from one generator (seed 1), batch_size=5, shuffle=True: a new order",
         dict(batch_size=5, shuffle=True), 1, 2),
        ("batch_size=20 (more than the 10 samples), drop_last=True: no batch at all",
         dict(batch_size=20, drop_last=True), None, 1),
        ("collate_fn=a function that keeps only the labels, batch_size=3",
         dict(batch_size=3, collate_fn=labels_only), None, 1),
    ]

    def run(options: dict, seed: int | None, epochs: int) -> _Epochs:
        samples = _loader_samples()
        generator = None if seed is None else minitorch.Generator().manual_seed(seed)
        kwargs = {"shuffle": False, "drop_last": False, "collate_fn": default_collate,
                  **options}
        given = list(samples)
        out = []
        for _ in range(epochs):
            batches = my_batches(samples, generator=generator, **kwargs)
            if batches is None:
                raise WrongAnswer("`my_batches` returned None: `yield` each batch (or return "
                                  "a list of them).")
            got = []
            for batch in batches:
                got.append(_plain_batch(batch))
                if len(got) > 2 * _N_SAMPLES:
                    raise WrongAnswer("More batches than samples: does the loop stop?")
            out.append(got)
            if len(samples) != len(given) or any(a is not b for a, b in zip(samples, given)):
                raise WrongAnswer(
                    "`my_batches` changed the dataset it was given (shuffled it in place, "
                    "say, with `random.shuffle(dataset)`): the dataset stays as it is; "
                    "shuffle a list of indices instead, with the generator.")
        return _Epochs(out)

    global_options = dict(batch_size=5, shuffle=True)

    def global_stream() -> _Epochs:
        """generator=None: after the same ``manual_seed`` the same order; then a new one."""
        minitorch.manual_seed(5)
        first = run(global_options, None, 1).epochs[0]
        minitorch.manual_seed(5)
        again = run(global_options, None, 1).epochs[0]
        return _GlobalEpochs([first, again, run(global_options, None, 1).epochs[0]])

    def compare_global(got: Any, expected: Any) -> bool:
        first, again, after = got.epochs
        compare_for(global_options, None)(_Epochs([first]), [None])
        assert after != first, (
            "With generator=None, the next call gave the same order again: your code falls "
            "back to a fixed seed. Without a generator, shuffle from the global random stream "
            "(pass generator=None on to `randperm`), which moves on: a new order every epoch.")
        assert again == first, (
            "With generator=None, the order does not follow `torch.manual_seed` (the same "
            "seed gave two different orders): draw it from minitorch's global random stream, "
            "`randperm(n, generator=None)`, not from Python's `random` or NumPy's.")
        return True

    def compare_for(options: dict, seed: int | None) -> Callable[[Any, list], bool]:
        batch_size = options["batch_size"]
        shuffle, drop_last = options.get("shuffle", False), options.get("drop_last", False)
        custom = "collate_fn" in options

        def labels(batch):
            return batch[0] if isinstance(batch, tuple) else batch

        def structure(mine: list, want: list | None) -> None:
            """Explain what is wrong with one epoch ``mine`` (``want``: the reference epoch,
            or None when only its structure is known)."""
            if custom:
                assert all(isinstance(b, list) for b in mine), (
                    "These batches did not go through `collate_fn`: call it on the list of "
                    "samples of each batch, and yield what it returns.")
            else:
                assert all(isinstance(b, tuple) for b in mine), (
                    "Yield collated batches, `collate_fn(samples)`, each a pair "
                    "(images, labels): not the samples, nor their indices.")
            got_order = [i for b in mine for i in labels(b)]
            sizes = [len(labels(b)) for b in mine]
            n_full = _N_SAMPLES // batch_size
            if drop_last and sizes and sizes[-1] < batch_size:
                raise AssertionError(
                    f"drop_last=True, but the last batch has only {sizes[-1]} samples, "
                    f"fewer than batch_size={batch_size}: drop it.")
            if not drop_last and len(mine) == n_full < -(-_N_SAMPLES // batch_size):
                raise AssertionError(
                    "The last, smaller batch is missing: without drop_last, the samples "
                    "left over make one more, shorter batch.")
            if any(size > batch_size for size in sizes) or any(
                    size != batch_size for size in sizes[:-1]):
                raise AssertionError(
                    f"Every batch but the last should hold batch_size={batch_size} samples; "
                    f"yours hold {sizes}.")
            if not drop_last and sorted(got_order) != list(range(_N_SAMPLES)):
                raise AssertionError(
                    "An epoch visits every sample exactly once: some samples are missing or "
                    "repeated.")
            if len(set(got_order)) != len(got_order):
                raise AssertionError("A sample appears twice in one epoch.")
            if shuffle and got_order and got_order == sorted(got_order):
                raise AssertionError(
                    "shuffle=True, but the samples come in order 0, 1, 2, ...: shuffle the "
                    "indices at the start of the epoch.")
            if not shuffle and got_order != sorted(got_order):
                raise AssertionError(
                    "shuffle=False: the samples should come in order 0, 1, 2, ...")
            if want is not None and mine != want:
                if shuffle:
                    raise AssertionError(
                        f"The order differs from DataLoader's with the same seed ({seed}). Draw "
                        "the permutation from `generator` (not the global random stream), "
                        "once per epoch, after the worker-seed draw that the exercise gives "
                        "you.")
                raise AssertionError("The batches differ from DataLoader's.")

        def compare(got: Any, expected: list) -> bool:
            epochs = got.epochs
            structure(epochs[0], expected[0])
            if len(epochs) == 2:
                assert epochs[1] != epochs[0], (
                    "The second epoch repeats the first one's order. Each epoch draws a new "
                    "permutation from the same generator (it has moved on since): do not "
                    "re-seed it, and do not keep the first order.")
                structure(epochs[1], None)
            return True
        return compare

    data = minitorch.utils.data
    answer_key = Shortcut(
        "The exercise is to write the DataLoader's loop yourself: a `DataLoader` (or its "
        "samplers) would make the batches for you.",
        objects={f"torch.utils.data.{name}": getattr(data, name)
                 for name in ("DataLoader", "RandomSampler", "SequentialSampler",
                              "BatchSampler") if hasattr(data, name)},
        packages=("torch",))
    cases = []
    for name, options, seed, epochs in problems:
        # the real DataLoader's first epoch; a second epoch is checked for being a new,
        # well-formed order (the real sampler also draws an unused permutation when it runs
        # out, a detail the exercise leaves out)
        expected = _reference_batches(options, seed, 1)
        shown = _show_epochs(expected)
        if epochs == 2:
            shown = f"epoch 1: {shown} then epoch 2: a new order of all {_N_SAMPLES} samples"
        cases.append(Case(name, lambda o=options, s=seed, e=epochs: run(o, s, e), expected,
                          compare=compare_for(options, seed), expected_repr=shown))
    cases.append(Case(
        "generator=None, batch_size=5, shuffle=True: after torch.manual_seed(5) twice, the "
        "same order; then, at the next call, a new one", global_stream, None,
        compare=compare_global,
        expected_repr="an order that follows the global seed and moves on with it"))
    return run_check(
        "my_batches", cases,
        hint="An epoch of a DataLoader: an order of the indices (shuffled by the generator, or "
        "0, 1, 2, ...), cut into batches of batch_size, each list of samples passed through "
        "collate_fn.",
        more_help=[
            "First the order: all the indices 0 .. len(dataset) - 1, or a random permutation "
            "of them drawn from `generator` when shuffle is True.",
            "Then walk through that order batch_size indices at a time; the last group may "
            "be smaller. With drop_last=True, a smaller last group is skipped.",
            "For each group, fetch the samples `dataset[i]` into a list, and yield "
            "`collate_fn` of that list.",
            "The same seed must give the same batches as the real DataLoader: keep the "
            "worker-seed draw at the top, and shuffle with the generator you were given.",
        ],
        refuse=[answer_key],
    )

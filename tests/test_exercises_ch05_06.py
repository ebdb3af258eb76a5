"""Tests for the checks of chapters 5 and 6 (minitorch/exercises/ch05.py, ch06.py).

For each check: the right solution passes, typical wrong solutions fail with the text a learner
needs, and an unfinished stub (NotImplementedError) is reported as "not done yet".
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import minitorch
from minitorch import nn
from minitorch.autograd import grad_mode
from minitorch.exercises import ch05, ch06
from minitorch.exercises.ch05 import check_line, check_my_linear, check_sgd_step
from minitorch.exercises.ch06 import check_collate, check_dataset
from minitorch.utils.data import Dataset


def _result(check, solution, capsys):
    """Run a check; return (passed, printed text)."""
    passed = check(solution)
    return passed, capsys.readouterr().out


def _todo(*args, **kwargs):
    raise NotImplementedError("your code here")


@pytest.mark.parametrize("module", [ch05, ch06])
def test_doctests(module):
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


@pytest.fixture(autouse=True)
def _grad_mode_stays_on():
    """No check may leave recording off, whatever the learner's code did."""
    assert grad_mode._state.enabled
    yield
    assert grad_mode._state.enabled


# ------------------------------------------------------------------ chapter 5: sgd_step
def sgd_step(params, lr):
    with minitorch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            p -= lr * p.grad
            p.grad.zero_()


def test_sgd_step_right(capsys):
    passed, out = _result(check_sgd_step, sgd_step, capsys)
    assert passed and "all 6 cases passed" in out


def test_sgd_step_grad_set_to_none_and_data_update_are_right_too(capsys):
    def via_data(params, lr):
        for p in params:
            if p.grad is not None:
                p.data -= lr * p.grad
                p.grad = None

    passed, out = _result(check_sgd_step, via_data, capsys)
    assert passed, out


def test_sgd_step_todo(capsys):
    passed, out = _result(check_sgd_step, _todo, capsys)
    assert not passed and "not done yet" in out


def test_sgd_step_without_no_grad(capsys):
    def outside(params, lr):
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, outside, capsys)
    assert not passed
    assert "in-place operation" in out and "with torch.no_grad():" in out


def test_sgd_step_rebinding_the_loop_variable(capsys):
    def rebinds(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p = p - lr * p.grad
                    p.grad = None

    passed, out = _result(check_sgd_step, rebinds, capsys)
    assert not passed and "did not change" in out and "p -= lr * p.grad" in out


def test_sgd_step_wrong_sign(capsys):
    def ascends(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p += lr * p.grad
                    p.grad.zero_()

    passed, out = _result(check_sgd_step, ascends, capsys)
    assert not passed and "*up* the gradient" in out


def test_sgd_step_forgets_to_clear(capsys):
    def keeps(params, lr):
        with minitorch.no_grad():
            for p in params:
                if p.grad is not None:
                    p -= lr * p.grad

    passed, out = _result(check_sgd_step, keeps, capsys)
    assert not passed and "still holds the gradient" in out


def test_sgd_step_does_not_skip_missing_grads(capsys):
    def no_skip(params, lr):
        with minitorch.no_grad():
            for p in params:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, no_skip, capsys)
    assert not passed and "is None" in out and "continue" in out


def test_sgd_step_leaves_recording_off(capsys):
    def switches_off(params, lr):
        minitorch.set_grad_enabled(False)
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad.zero_()

    passed, out = _result(check_sgd_step, switches_off, capsys)
    assert not passed and "Recording is still switched off" in out


# ------------------------------------------------------------------ chapter 5: Line
class Line(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(minitorch.tensor(0.0))
        self.b = nn.Parameter(minitorch.tensor(0.0))

    def forward(self, x):
        return self.w * x + self.b


def test_line_right(capsys):
    passed, out = _result(check_line, Line, capsys)
    assert passed and "all 6 cases passed" in out


def test_line_todo(capsys):
    class Todo(nn.Module):
        def __init__(self):
            super().__init__()
            raise NotImplementedError("your code here")

    passed, out = _result(check_line, Todo, capsys)
    assert not passed and "not done yet" in out


def test_line_forgets_super_init(capsys):
    class NoSuper(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(minitorch.tensor(0.0))
            self.b = nn.Parameter(minitorch.tensor(0.0))

        def forward(self, x):
            return self.w * x + self.b

    passed, out = _result(check_line, NoSuper, capsys)
    assert not passed and "super().__init__()" in out


def test_line_plain_tensors_are_not_registered(capsys):
    class Plain(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = minitorch.tensor(0.0, requires_grad=True)
            self.b = minitorch.tensor(0.0, requires_grad=True)

        def forward(self, x):
            return self.w * x + self.b

    passed, out = _result(check_line, Plain, capsys)
    assert not passed and "plain tensor" in out and "nn.Parameter" in out


def test_line_shape_one_instead_of_scalar(capsys):
    class Vector(Line):
        def __init__(self):
            nn.Module.__init__(self)
            self.w = nn.Parameter(minitorch.zeros(1))
            self.b = nn.Parameter(minitorch.zeros(1))

    passed, out = _result(check_line, Vector, capsys)
    assert not passed and "shape (1,)" in out


def test_line_not_a_module(capsys):
    class NotModule:
        def __init__(self):
            self.w = nn.Parameter(minitorch.tensor(0.0))
            self.b = nn.Parameter(minitorch.tensor(0.0))

    passed, out = _result(check_line, NotModule, capsys)
    assert not passed and "class Line(nn.Module)" in out


def test_line_forgets_the_bias_in_forward(capsys):
    class NoBias(Line):
        def forward(self, x):
            return self.w * x

    passed, out = _result(check_line, NoBias, capsys)
    assert not passed and "self.w * x + self.b" in out


# ------------------------------------------------------------------ chapter 5: MyLinear
def _linear(init="uniform", transposed=False, forward="right", order=("weight", "bias"),
            call_super=True):
    class MyLinear(nn.Module):
        def __init__(self, in_features, out_features):
            if call_super:
                super().__init__()
            k = 1 / math.sqrt(in_features)
            shape = (in_features, out_features) if transposed else (out_features, in_features)
            weight = {"uniform": minitorch.rand(*shape) * 2 * k - k,
                      "randn": minitorch.randn(*shape),
                      "zeros": minitorch.zeros(*shape)}[init]
            values = {"weight": weight, "bias": minitorch.rand(out_features) * 2 * k - k}
            for name in order:
                setattr(self, name, nn.Parameter(values[name]))

        def forward(self, x):
            if forward == "no bias":
                return x @ self.weight.T
            if forward == "no transpose":
                return x @ self.weight + self.bias
            return x @ (self.weight if transposed else self.weight.T) + self.bias

    return MyLinear


def test_my_linear_right(capsys):
    passed, out = _result(check_my_linear, _linear(), capsys)
    assert passed and "all 9 cases passed" in out


def test_my_linear_todo(capsys):
    class Todo(nn.Module):
        def __init__(self, in_features, out_features):
            raise NotImplementedError("your code here")

    passed, out = _result(check_my_linear, Todo, capsys)
    assert not passed and "not done yet" in out


def test_my_linear_weight_stored_as_in_out(capsys):
    passed, out = _result(check_my_linear, _linear(transposed=True), capsys)
    assert not passed and "(out_features, in_features)" in out


def test_my_linear_all_zero_weights(capsys):
    passed, out = _result(check_my_linear, _linear(init="zeros"), capsys)
    assert not passed and "symmetry" in out


def test_my_linear_randn_init_is_too_wide(capsys):
    passed, out = _result(check_my_linear, _linear(init="randn"), capsys)
    assert not passed and "1/sqrt(in_features)" in out


def test_my_linear_forgets_the_bias(capsys):
    passed, out = _result(check_my_linear, _linear(forward="no bias"), capsys)
    assert not passed and "x @ self.weight.T + self.bias" in out


def test_my_linear_forgets_the_transpose(capsys):
    passed, out = _result(check_my_linear, _linear(forward="no transpose"), capsys)
    assert not passed and "transpose" in out


def test_my_linear_bias_registered_first(capsys):
    passed, out = _result(check_my_linear, _linear(order=("bias", "weight")), capsys)
    assert not passed and "before `bias`" in out


def test_my_linear_forgets_super_init(capsys):
    passed, out = _result(check_my_linear, _linear(call_super=False), capsys)
    assert not passed and "super().__init__()" in out


# ------------------------------------------------------------------ chapter 6: Dataset
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
    assert passed and "all 7 cases passed" in out


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


# ------------------------------------------------------------------ chapter 6: collate
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


# ------------------------------------------------------------------ chapter 6: the loader's loop
def make_batches(shuffle_fix="right", drop="right", collate="right", epoch="right",
                 worker_draw=True):
    """``my_batches``, right, or with one deliberate fault (for the meta-test too)."""
    cache = {}

    def my_batches(dataset, batch_size, shuffle=False, drop_last=False, generator=None,
                   collate_fn=minitorch.utils.data.default_collate):
        if worker_draw:
            minitorch.randint(2**63 - 1, (), generator=generator)
        n = len(dataset)
        if shuffle and shuffle_fix != "ignored":
            gen = None if shuffle_fix == "global" else generator
            order = minitorch.randperm(n, generator=gen).tolist()
            if epoch == "cached":
                order = cache.setdefault(id(generator), order)  # shuffles once per generator
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
    passed, out = _result(ch06.check_data_loader, make_batches(), capsys)
    assert passed and "all 8 cases passed" in out


def test_data_loader_todo(capsys):
    def my_batches(dataset, batch_size, shuffle=False, drop_last=False, generator=None,
                   collate_fn=None):
        minitorch.randint(2**63 - 1, (), generator=generator)
        raise NotImplementedError("your code here")

    passed, out = _result(ch06.check_data_loader, my_batches, capsys)
    assert not passed and "not done yet" in out


def test_data_loader_returning_a_list_is_right_too(capsys):
    right = make_batches()

    def as_list(*args, **kwargs):
        return list(right(*args, **kwargs))

    assert _result(ch06.check_data_loader, as_list, capsys)[0]


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
    passed, out = _result(ch06.check_data_loader, make_batches(**fault), capsys)
    assert not passed and words in out, out


def test_data_loader_reference_is_the_same_without_pytorch(monkeypatch):
    """The reference is PyTorch's DataLoader where it is installed; minitorch's gives the very
    same batches (its random streams match PyTorch's), so the check means the same without it."""
    pytest.importorskip("torch", reason="PyTorch is not installed: nothing to compare with")
    options = [dict(batch_size=3, shuffle=True), dict(batch_size=4, shuffle=True,
                                                      drop_last=True), dict(batch_size=4)]
    with_torch = [ch06._reference_batches(o, 5, 2) for o in options]
    monkeypatch.setitem(__import__("sys").modules, "torch", None)  # import torch -> ImportError
    assert [ch06._reference_batches(o, 5, 2) for o in options] == with_torch


# ------------------------------------------------------------------ chapter 5: conv vs linear
def make_conv2d(fault="right"):
    """``conv2d_by_hand``, right or with one deliberate slip (for the meta-test too)."""

    def conv2d_by_hand(x, weight, bias):
        K, C, kh, kw = weight.shape
        _, H, W = x.shape
        if fault == "flipped":
            weight = minitorch.tensor(weight.numpy()[:, :, ::-1, ::-1].copy())
        if fault == "first channel":
            x, weight = x[:1], weight[:, :1]
        oh, ow = (H - kh, W - kw) if fault == "off by one" else (H - kh + 1, W - kw + 1)
        out = minitorch.zeros(K, oh, ow, dtype=x.dtype)
        for k in range(K):
            for i in range(oh):
                for j in range(ow):
                    value = (x[:, i:i + kh, j:j + kw] * weight[k]).sum()
                    out[k, i, j] = value if fault == "no bias" else value + bias[k]
        return out.transpose(1, 2) if fault == "transposed" else out

    return conv2d_by_hand


def make_unfold(fault="right"):
    """``unfold``, right or with one deliberate slip (for the meta-test too)."""

    def unfold(x, kh, kw):
        C, H, W = x.shape
        positions = [(i, j) for i in range(H - kh + 1) for j in range(W - kw + 1)]
        if fault == "column major":
            positions = sorted(positions, key=lambda p: (p[1], p[0]))
        if fault == "channels last":
            rows = [x[:, i:i + kh, j:j + kw].permute(1, 2, 0).reshape(-1) for i, j in positions]
        else:
            rows = [x[:, i:i + kh, j:j + kw].reshape(-1) for i, j in positions]
        out = minitorch.stack(rows)
        return out.T if fault == "transposed" else out

    return unfold


def test_conv2d_by_hand_right(capsys):
    passed, out = _result(ch05.check_conv2d_by_hand, make_conv2d(), capsys)
    assert passed and "all 4 cases passed" in out


def test_conv2d_by_hand_todo(capsys):
    passed, out = _result(ch05.check_conv2d_by_hand, _todo, capsys)
    assert not passed and "not done yet" in out


@pytest.mark.parametrize("fault,words", [
    ("flipped", "You flipped the filter"), ("no bias", "The bias is missing"),
    ("first channel", "Only the first input channel"), ("off by one", "H - kh + 1 = 2"),
    ("transposed", "olumns are swapped"),
])
def test_conv2d_by_hand_wrong(fault, words, capsys):
    passed, out = _result(ch05.check_conv2d_by_hand, make_conv2d(fault), capsys)
    assert not passed and words in out, out


def test_unfold_right(capsys):
    passed, out = _result(ch05.check_unfold, make_unfold(), capsys)
    assert passed and "all 4 cases passed" in out


def test_unfold_todo(capsys):
    passed, out = _result(ch05.check_unfold, _todo, capsys)
    assert not passed and "not done yet" in out


@pytest.mark.parametrize("fault,words", [
    ("transposed", "is the transpose of"), ("channels last", "flatten it channel first"),
    ("column major", "The patches come column by column"),
])
def test_unfold_wrong(fault, words, capsys):
    passed, out = _result(ch05.check_unfold, make_unfold(fault), capsys)
    assert not passed and words in out, out


def test_conv_references_agree_without_pytorch(monkeypatch):
    """The references are PyTorch's conv2d and unfold where installed; minitorch's conv2d and a
    NumPy sliding window give the same numbers without it."""
    pytest.importorskip("torch", reason="PyTorch is not installed: nothing to compare with")
    problems = ch05._conv_problems()
    with_torch = [ch05._conv_reference(x, w, b) for _, x, w, b in problems]
    x = np.arange(40, dtype=np.float64).reshape(2, 4, 5)
    unfold_torch = ch05._unfold_reference(x, 3, 2)
    monkeypatch.setitem(__import__("sys").modules, "torch", None)
    for (_, x_, w, b), want in zip(problems, with_torch):
        assert np.allclose(ch05._conv_reference(x_, w, b), want)
    assert np.array_equal(ch05._unfold_reference(x, 3, 2), unfold_torch)

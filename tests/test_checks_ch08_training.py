"""Tests for the checks of chapter 08 (Training): ``conv2d_by_hand`` and ``unfold``.

The right answers pass; stubs report "not done yet"; every realistic wrong answer in
``WRONG`` fails with a message that names its real cause (the harness-wide guarantees are in
``test_checks_robustness.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from _checks import assert_fails_naming, run, wrong_ids
from _checks import checked as _result
from _checks import todo as _todo

import minitorch
from minitorch.exercises import ch08_training


# ------------------------------------------------------------------ conv2d_by_hand and unfold
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
        out = minitorch.zeros(K, oh, ow, dtype=None if fault == "float32" else x.dtype)
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
    passed, out = _result(ch08_training.check_conv2d_by_hand, make_conv2d(), capsys)
    assert passed and "all 4 cases passed" in out


def test_conv2d_by_hand_todo(capsys):
    passed, out = _result(ch08_training.check_conv2d_by_hand, _todo, capsys)
    assert not passed and "not done yet" in out


@pytest.mark.parametrize("fault,words", [
    ("flipped", "You flipped the filter"), ("no bias", "The bias is missing"),
    ("first channel", "Only the first input channel"), ("off by one", "H - kh + 1 = 2"),
    ("transposed", "olumns are swapped"),
])
def test_conv2d_by_hand_wrong(fault, words, capsys):
    passed, out = _result(ch08_training.check_conv2d_by_hand, make_conv2d(fault), capsys)
    assert not passed and words in out, out


def test_unfold_right(capsys):
    passed, out = _result(ch08_training.check_unfold, make_unfold(), capsys)
    assert passed and "all 4 cases passed" in out


def test_unfold_todo(capsys):
    passed, out = _result(ch08_training.check_unfold, _todo, capsys)
    assert not passed and "not done yet" in out


@pytest.mark.parametrize("fault,words", [
    ("transposed", "is the transpose of"), ("channels last", "flatten it channel first"),
    ("column major", "The patches come column by column"),
])
def test_unfold_wrong(fault, words, capsys):
    passed, out = _result(ch08_training.check_unfold, make_unfold(fault), capsys)
    assert not passed and words in out, out


def test_conv_references_agree_without_pytorch(monkeypatch):
    """The references are PyTorch's conv2d and unfold where installed; minitorch's conv2d and a
    NumPy sliding window give the same numbers without it."""
    pytest.importorskip("torch", reason="PyTorch is not installed: nothing to compare with")
    problems = ch08_training._conv_problems()
    with_torch = [ch08_training._conv_reference(x, w, b) for _, x, w, b in problems]
    x = np.arange(40, dtype=np.float64).reshape(2, 4, 5)
    unfold_torch = ch08_training._unfold_reference(x, 3, 2)
    monkeypatch.setitem(__import__("sys").modules, "torch", None)
    for (_, x_, w, b), want in zip(problems, with_torch):
        assert np.allclose(ch08_training._conv_reference(x_, w, b), want)
    assert np.array_equal(ch08_training._unfold_reference(x, 3, 2), unfold_torch)


# ------------------------------------------------------------------ more wrong answers
def _conv_filter_zero(x, weight, bias):
    K, C, kh, kw = weight.shape
    _, H, W = x.shape
    out = minitorch.zeros(K, H - kh + 1, W - kw + 1, dtype=x.dtype)
    for k in range(K):
        for i in range(H - kh + 1):
            for j in range(W - kw + 1):
                out[k, i, j] = (x[:, i:i + kh, j:j + kw] * weight[0]).sum() + bias[k]
    return out


def _conv_numpy(x, weight, bias):
    xs, ws, bs = x.numpy(), weight.numpy(), bias.numpy()
    K, C, kh, kw = ws.shape
    _, H, W = xs.shape
    out = np.zeros((K, H - kh + 1, W - kw + 1))
    for k in range(K):
        for i in range(H - kh + 1):
            for j in range(W - kw + 1):
                out[k, i, j] = (xs[:, i:i + kh, j:j + kw] * ws[k]).sum() + bs[k]
    return out


def _conv_built_in(x, weight, bias):
    return minitorch.nn.functional.conv2d(x.unsqueeze(0), weight, bias)[0]


def _conv_sliding_windows(x, weight, bias):
    windows = np.lib.stride_tricks.sliding_window_view(x.numpy(), weight.shape[2:], axis=(1, 2))
    out = np.einsum("cijuv,kcuv->kij", windows, weight.numpy()) + bias.numpy()[:, None, None]
    return minitorch.tensor(out)


def _conv_bias_in_place(x, weight, bias):
    K, C, kh, kw = weight.shape
    _, H, W = x.shape
    out = minitorch.zeros(K, H - kh + 1, W - kw + 1, dtype=x.dtype)
    x -= x.mean()  # "normalise" the image first: changes the caller's x
    for k in range(K):
        for i in range(H - kh + 1):
            for j in range(W - kw + 1):
                out[k, i, j] = (x[:, i:i + kh, j:j + kw] * weight[k]).sum() + bias[k]
    return out


def _unfold_list(x, kh, kw):
    C, H, W = x.shape
    return [x[:, i:i + kh, j:j + kw].reshape(-1)
            for i in range(H - kh + 1) for j in range(W - kw + 1)]


def _unfold_one_short(x, kh, kw):
    C, H, W = x.shape
    return minitorch.stack([x[:, i:i + kh, j:j + kw].reshape(-1)
                            for i in range(H - kh) for j in range(W - kw)])


def _unfold_sliding_windows(x, kh, kw):
    C, H, W = x.shape
    windows = np.lib.stride_tricks.sliding_window_view(x.numpy(), (kh, kw), axis=(1, 2))
    return minitorch.tensor(windows.transpose(1, 2, 0, 3, 4).reshape(-1, C * kh * kw).copy())


def _unfold_numpy(x, kh, kw):
    C, H, W = x.shape
    xs = x.numpy()
    return np.stack([xs[:, i:i + kh, j:j + kw].reshape(-1)
                     for i in range(H - kh + 1) for j in range(W - kw + 1)])


# second adversarial review: a wrong answer that passed the check before
def _unfold_float32_buffer(x, kh, kw):
    """Copies the patches into a buffer made without a dtype: float32, rounded."""
    C, H, W = x.shape
    out = minitorch.zeros((H - kh + 1) * (W - kw + 1), C * kh * kw)
    row = 0
    for i in range(H - kh + 1):
        for j in range(W - kw + 1):
            out[row] = x[:, i:i + kh, j:j + kw].reshape(-1)
            row += 1
    return out


def _conv_by_unfolding(x, weight, bias):
    """Right: the patches as rows, times the flattened filters."""
    K, C, kh, kw = weight.shape
    _, H, W = x.shape
    patches = minitorch.stack([x[:, i:i + kh, j:j + kw].reshape(-1)
                               for i in range(H - kh + 1) for j in range(W - kw + 1)])
    return (patches @ weight.reshape(K, -1).T + bias).T.reshape(K, H - kh + 1, W - kw + 1)


def _unfold_built_in(x, kh, kw):
    """The answer key the check itself compares with: F.unfold, transposed."""
    return minitorch.nn.functional.unfold(x.unsqueeze(0), (kh, kw))[0].T


def _unfold_tensor_method(x, kh, kw):
    """Tensor.unfold twice: the sliding windows as a view."""
    C, H, W = x.shape
    windows = x.unfold(1, kh, 1).unfold(2, kw, 1)  # (C, oh, ow, kh, kw)
    return windows.permute(1, 2, 0, 3, 4).reshape((H - kh + 1) * (W - kw + 1), -1)


def _conv_with_f_unfold(x, weight, bias):
    K, C, kh, kw = weight.shape
    _, H, W = x.shape
    patches = minitorch.nn.functional.unfold(x.unsqueeze(0), (kh, kw))[0]
    return (weight.reshape(K, -1) @ patches + bias.unsqueeze(1)).reshape(K, H - kh + 1,
                                                                          W - kw + 1)


def test_conv2d_by_unfolding_passes():
    assert run(ch08_training.check_conv2d_by_hand, _conv_by_unfolding).passed


# ------------------------------------------------------------------ the meta-test's lists
RIGHT = {
    "check_conv2d_by_hand": (ch08_training.check_conv2d_by_hand, make_conv2d()),
    "check_unfold": (ch08_training.check_unfold, make_unfold()),
}

WRONG = [
    ("check_conv2d_by_hand", make_conv2d("flipped"), "the filter flipped (textbook "
     "convolution)", ["You flipped the filter", "cross-correlation"]),
    ("check_conv2d_by_hand", make_conv2d("no bias"), "the bias forgotten",
     ["The bias is missing", "with bias 0.5"]),
    ("check_conv2d_by_hand", make_conv2d("first channel"), "the first input channel only",
     ["Only the first input channel", "2 input channels"]),
    ("check_conv2d_by_hand", make_conv2d("off by one"), "one position too few",
     ["H - kh + 1"]),
    ("check_conv2d_by_hand", make_conv2d("transposed"), "rows and columns swapped",
     ["olumns are swapped"]),
    ("check_conv2d_by_hand", make_conv2d("float32"), "the output made float32 (no dtype)",
     ["Your output is float32, though x, weight and bias are float64"]),
    ("check_conv2d_by_hand", _conv_filter_zero, "filter 0 for every output channel",
     ["Every output channel used filter 0"]),
    ("check_conv2d_by_hand", _conv_numpy, "a NumPy array", ["Return a minitorch tensor"]),
    ("check_conv2d_by_hand", _conv_built_in, "F.conv2d", ["called `F.conv2d`"]),
    ("check_conv2d_by_hand", _conv_sliding_windows, "NumPy's sliding windows",
     ["called `np.lib.stride_tricks.sliding_window_view`"]),
    ("check_conv2d_by_hand", _conv_bias_in_place, "changes x in place",
     ["changed its input `x`"]),
    ("check_unfold", make_unfold("transposed"), "F.unfold's (C*kh*kw, L) layout",
     ["is the transpose of", "one row per patch"]),
    ("check_unfold", make_unfold("channels last"), "each patch flattened channels last",
     ["flatten it channel first", "2 channels"]),
    ("check_unfold", make_unfold("column major"), "the patches column by column",
     ["column by column"]),
    ("check_unfold", _unfold_list, "a list of rows", ["stack them into one tensor"]),
    ("check_unfold", _unfold_one_short, "one position too few each way",
     ["(H - kh + 1) * (W - kw + 1)"]),
    ("check_unfold", _unfold_sliding_windows, "NumPy's sliding windows",
     ["called `np.lib.stride_tricks.sliding_window_view`"]),
    ("check_unfold", _unfold_numpy, "a NumPy array", ["Return a minitorch tensor"]),
    ("check_unfold", _unfold_built_in, "F.unfold, transposed",
     ["called `F.unfold`", "the built-in unfolds"]),
    ("check_unfold", _unfold_tensor_method, "Tensor.unfold twice",
     ["called `Tensor.unfold`"]),
    ("check_conv2d_by_hand", _conv_with_f_unfold, "F.unfold and a matrix product",
     ["called `F.unfold`"]),
    ("check_unfold", _unfold_float32_buffer, "copied into a float32 buffer",
     ["Your patches are float32, though x is float64"]),
]

GIVEAWAYS = {
    "check_conv2d_by_hand": ["(x[:, i:i + kh, j:j + kw] * weight[k]).sum() + bias[k]"],
    "check_unfold": ["torch.stack(rows)", "for i in range(H - kh + 1) for j in"],
}


@pytest.mark.parametrize("name,wrong,what,words", WRONG, ids=wrong_ids(WRONG))
def test_wrong_answers_fail_naming_the_cause(name, wrong, what, words):
    assert_fails_naming(RIGHT[name][0], wrong, what, words)


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_the_right_solutions_pass(name):
    check, solution = RIGHT[name]
    assert run(check, solution).passed

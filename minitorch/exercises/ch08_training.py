"""Chapter 08 (Training): the checks of its code exercises.

======================  ===============================================================
check                   the learner writes
======================  ===============================================================
check_conv2d_by_hand    ``conv2d_by_hand(x, weight, bias)``: a ``Conv2d`` output for one
                        image (C, H, W), a sum over every patch, no padding, stride 1
check_unfold            ``unfold(x, kh, kw)``: the patches of one image as rows
                        (L, C * kh * kw), so that a ``Linear`` with the convolution's
                        weights computes the convolution
======================  ===============================================================

Like every check, these never raise: they show ✓, ✗ (with what was wrong) or ⏳ (the learner's
code still raises ``NotImplementedError``) and return ``True`` when all cases pass.

Example:
    >>> def unfold(x, kh, kw):
    ...     raise NotImplementedError("your code here")
    >>> check_unfold(unfold)  # doctest: +ELLIPSIS
    ⏳ unfold: not done yet...
    False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._checking import a_kind
from ._common import format_value, to_numpy
from .runner import Case, Shortcut, WrongAnswer, run_check

__all__ = ["check_conv2d_by_hand", "check_unfold"]

# The name of the learner's code that each check takes, in the notebook's order (read by
# the grader, `python -m minitorch.exercises grade`, and by the progress table).
CHECKS = {
    "check_conv2d_by_hand": "conv2d_by_hand",
    "check_unfold": "unfold",
}


# ------------------------------------------------------------------ convolution vs linear
# The references: PyTorch's conv2d and unfold where PyTorch is installed, otherwise
# minitorch's F.conv2d and a NumPy sliding window. The "slips" below are computed in NumPy
# only to name a mistake, never to decide whether the answer is right.
def _windows(x: np.ndarray, kh: int, kw: int) -> np.ndarray:
    """``(C, H, W)`` -> ``(oh, ow, C, kh, kw)``: every kh x kw patch (a view, no copy)."""
    view = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))
    return view.transpose(1, 2, 0, 3, 4)


def _xcorr(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross-correlation in NumPy: ``(C, H, W)``, ``(K, C, kh, kw)``, ``(K,)`` -> ``(K, oh,
    ow)``."""
    return np.einsum("ijcuv,kcuv->kij", _windows(x, *w.shape[2:]), w) + b[:, None, None]


def _conv_reference(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    try:
        import torch
    except ImportError:
        import minitorch as torch
    out = torch.nn.functional.conv2d(torch.tensor(x[None]), torch.tensor(w), torch.tensor(b))
    return out[0].detach().numpy()


def _unfold_reference(x: np.ndarray, kh: int, kw: int) -> np.ndarray:
    try:
        import torch
    except ImportError:
        oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
        return _windows(x, kh, kw).reshape(oh * ow, -1).copy()
    return torch.nn.functional.unfold(torch.tensor(x[None]), (kh, kw))[0].T.numpy()


def _conv_problems() -> list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(5)
    x1 = np.arange(16, dtype=np.float64).reshape(1, 4, 4)
    w1 = np.array([[[[1.0, 2.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 3.0]]]])
    return [
        ("one channel: a 3 x 3 filter on a 4 x 4 image, bias 0", x1, w1, np.zeros(1)),
        ("the same with bias 0.5", x1, w1, np.array([0.5])),
        ("2 input channels, 3 filters of 2 x 3, on a 5 x 6 image",
         rng.standard_normal((2, 5, 6)), rng.standard_normal((3, 2, 2, 3)),
         rng.standard_normal(3)),
        ("3 input channels, 2 filters of 1 x 1 (a Linear per pixel)",
         rng.standard_normal((3, 3, 4)), rng.standard_normal((2, 3, 1, 1)),
         rng.standard_normal(2)),
    ]


def _unchanged(*inputs: tuple) -> None:
    """A wrong answer if the learner's function changed one of its input tensors."""
    for name, tensor, original in inputs:
        if not np.array_equal(to_numpy(tensor), original):
            raise WrongAnswer(
                f"Your function changed its input `{name}` in place (`+=`, a method ending in "
                "`_`, item assignment): the caller's tensor is not yours to change. Write into "
                "a new tensor.")


def _a_tensor(value: Any) -> None:
    """A wrong answer unless ``value`` is a minitorch tensor."""
    import minitorch

    if not isinstance(value, minitorch.Tensor):
        raise WrongAnswer(f"Return a minitorch tensor (what `torch.zeros`, `torch.stack` and "
                          f"tensor arithmetic give in this notebook); got {a_kind(value)}.")


def _by_hand(exercise: str) -> Shortcut:
    """The built-ins that compute a convolution or its patches: the answer keys."""
    import minitorch

    return Shortcut(
        f"`{exercise}` is written by hand, with loops, slicing and tensor arithmetic: "
        "`F.conv2d`, `nn.Conv2d`, the built-in unfolds (`F.unfold`, `nn.Unfold`, "
        "`Tensor.unfold`) and NumPy's sliding windows (`sliding_window_view`, `as_strided`) "
        "would compute the answer for you.",
        objects={"F.conv2d": minitorch.nn.functional.conv2d, "nn.Conv2d": minitorch.nn.Conv2d,
                 "F.unfold": minitorch.nn.functional.unfold, "nn.Unfold": minitorch.nn.Unfold,
                 "Tensor.unfold": minitorch.Tensor.unfold,
                 "np.lib.stride_tricks.sliding_window_view":
                     np.lib.stride_tricks.sliding_window_view,
                 "np.lib.stride_tricks.as_strided": np.lib.stride_tricks.as_strided},
        packages=("torch", "scipy"))


def check_conv2d_by_hand(conv2d_by_hand: Callable[[Any, Any, Any], Any]) -> bool:
    """Check ``conv2d_by_hand(x, weight, bias)``: the output of ``Conv2d`` (stride 1, no
    padding) for one image ``x`` of shape ``(C, H, W)``, with ``weight`` ``(K, C, kh, kw)``
    and ``bias`` ``(K,)``: ``out[k, i, j] = bias[k] + sum(weight[k] * x[:, i:i+kh, j:j+kw])``,
    shape ``(K, H - kh + 1, W - kw + 1)``.

    The reference is PyTorch's ``conv2d`` where PyTorch is installed, minitorch's otherwise.
    The inputs are float64 tensors and must come back unchanged; the result is a minitorch
    tensor, computed by hand (``F.conv2d``, ``nn.Conv2d``, the built-in unfolds and sliding
    windows are refused).

    Example:
        >>> import minitorch
        >>> def conv2d_by_hand(x, weight, bias):
        ...     K, C, kh, kw = weight.shape
        ...     _, H, W = x.shape
        ...     out = minitorch.zeros(K, H - kh + 1, W - kw + 1, dtype=x.dtype)
        ...     for k in range(K):
        ...         for i in range(H - kh + 1):
        ...             for j in range(W - kw + 1):
        ...                 patch = x[:, i:i + kh, j:j + kw]
        ...                 out[k, i, j] = (patch * weight[k]).sum() + bias[k]
        ...     return out
        >>> check_conv2d_by_hand(conv2d_by_hand)
        ✓ conv2d_by_hand: all 4 cases passed.
        True
    """
    import minitorch

    def run(x, w, b):
        xt, wt, bt = minitorch.tensor(x), minitorch.tensor(w), minitorch.tensor(b)
        out = conv2d_by_hand(xt, wt, bt)
        _unchanged(("x", xt, x), ("weight", wt, w), ("bias", bt, b))
        _a_tensor(out)
        return out

    def compare_for(x, w, b):
        def compare(got: Any, expected: np.ndarray) -> bool:
            array = to_numpy(got)
            assert array is not None, f"Return a tensor; got {format_value(got)}."
            K, _, kh, kw = w.shape  # noqa: N806  (the names of the formula)
            H, W = x.shape[1:]  # noqa: N806
            if array.shape != expected.shape:
                if array.shape == (K, H - kh, W - kw) or array.shape == (K, H - kh + 2,
                                                                           W - kw + 2):
                    raise AssertionError(
                        f"The output has shape {array.shape}, expected {expected.shape}: a "
                        f"filter {kh} rows tall fits H - kh + 1 = {H - kh + 1} times down an "
                        f"image {H} rows tall (count the positions again).")
                if array.shape == (K, W - kw + 1, H - kh + 1):
                    raise AssertionError(
                        f"The output has shape {array.shape}: rows and columns are swapped. "
                        "Output row i comes from image rows i .. i + kh - 1.")
                if array.shape == (K, H - kw + 1, W - kh + 1):
                    raise AssertionError(
                        f"The output has shape {array.shape}, expected {expected.shape}: kh and "
                        f"kw are swapped. The filter is kh = {kh} rows tall and kw = {kw} "
                        "columns wide (weight.shape is (K, C, kh, kw)).")
                raise AssertionError(
                    f"The output should have shape (K, H - kh + 1, W - kw + 1) = "
                    f"{expected.shape}; got {array.shape}.")
            assert not (array.dtype == np.float32 and expected.dtype == np.float64), (
                "Your output is float32, though x, weight and bias are float64: a tensor made "
                "without a dtype is float32 (the default), and every value stored in it is "
                "rounded to float32's 7 digits. Make the output in the inputs' dtype, the dtype "
                "`conv2d` returns.")
            if np.allclose(array, expected, rtol=1e-6, atol=1e-8):
                return True
            slips = [
                (_xcorr(x, np.repeat(w[:1], w.shape[0], axis=0), b),
                 "Every output channel used filter 0: output channel k comes from filter "
                 "weight[k]."),
                (_xcorr(x, w[:, :, ::-1, ::-1], b),
                 "You flipped the filter: that is the convolution of maths textbooks. "
                 "PyTorch's Conv2d does not flip it (strictly, it computes a "
                 "cross-correlation): multiply weight[k, c, u, v] with x[c, i + u, j + v]."),
                (expected - b[:, None, None],
                 "The bias is missing: add bias[k] once to every position of output "
                 "channel k."),
                (_xcorr(x[:1], w[:, :1], b),
                 "Only the first input channel counts in your sum: a filter spans every input "
                 "channel, so sum over c as well as over the rows and columns of the patch."),
                (expected + (w.shape[1] - 1) * b[:, None, None],
                 "The bias is added once per input channel: add it once per output value."),
                (expected.transpose(0, 2, 1),
                 "Rows and columns are swapped: output row i comes from image rows "
                 "i .. i + kh - 1, output column j from image columns j .. j + kw - 1."),
            ]
            for value, why in slips:
                if np.allclose(array, value, rtol=1e-6, atol=1e-8) and not np.allclose(
                        value, expected, rtol=1e-6, atol=1e-8):
                    raise AssertionError(why)
            return False
        return compare

    cases = [Case(name, lambda x=x, w=w, b=b: run(x, w, b), _conv_reference(x, w, b),
                  compare=compare_for(x, w, b)) for name, x, w, b in _conv_problems()]
    return run_check(
        "conv2d_by_hand", cases,
        hint="A convolution output is one weighted sum per filter and per position: the "
        "filter times the patch under it, summed, plus the filter's bias.",
        more_help=[
            "How many positions? A filter kh rows tall fits H - kh + 1 times down the image, "
            "and W - kw + 1 times across.",
            "The patch at output position (i, j) is x[:, i:i + kh, j:j + kw]: every input "
            "channel, kh rows, kw columns. It has the shape of weight[k].",
            "Multiply the patch with weight[k] elementwise, sum everything, and add bias[k]; "
            "loop over k, i and j (no flipping of the filter).",
        ],
        refuse=[_by_hand("conv2d_by_hand")],
    )


class _Patches:
    """What the Linear case got: the learner's patches (shown by shape), and the conv's parts."""

    def __init__(self, *parts: Any) -> None:
        self.parts = parts

    def __repr__(self) -> str:
        patches = self.parts[0]
        return f"patches of shape {None if patches is None else tuple(patches.shape)}"


def check_unfold(unfold: Callable[[Any, int, int], Any]) -> bool:
    """Check ``unfold(x, kh, kw)``: every ``kh x kw`` patch of one image ``x`` ``(C, H, W)``,
    flattened, one patch per row, shape ``(L, C * kh * kw)`` with
    ``L = (H - kh + 1) * (W - kw + 1)``. The patches come row by row of the output (left to
    right, then down), and each is flattened channel first, then row, then column: the order
    of ``conv.weight.view(K, -1)``. So ``Linear`` with the convolution's weight, applied to
    the rows, gives the convolution's output.

    The reference is PyTorch's ``F.unfold`` (transposed) where PyTorch is installed, a NumPy
    sliding window otherwise; the last case compares with minitorch's real ``nn.Conv2d``. The
    result is one minitorch tensor, computed by hand (``F.conv2d``, ``nn.Conv2d``, the
    built-in unfolds ``F.unfold``, ``nn.Unfold``, ``Tensor.unfold`` and sliding windows are
    refused), and ``x`` comes back unchanged.

    Example:
        >>> import minitorch
        >>> def unfold(x, kh, kw):
        ...     C, H, W = x.shape
        ...     rows = [x[:, i:i + kh, j:j + kw].reshape(-1)
        ...             for i in range(H - kh + 1) for j in range(W - kw + 1)]
        ...     return minitorch.stack(rows)
        >>> check_unfold(unfold)
        ✓ unfold: all 4 cases passed.
        True
    """
    import minitorch
    from minitorch import nn

    rng = np.random.default_rng(11)
    problems = [
        ("one channel, a 3 x 3 image, 2 x 2 patches",
         np.arange(1, 10, dtype=np.float64).reshape(1, 3, 3), 2, 2),
        ("2 channels, a 4 x 5 image, 3 x 2 patches",
         np.arange(40, dtype=np.float64).reshape(2, 4, 5), 3, 2),
        ("3 channels, a 3 x 4 image, 1 x 3 patches", rng.standard_normal((3, 3, 4)), 1, 3),
    ]

    def compare_for(x, kh, kw):
        H, W = x.shape[1:]  # noqa: N806  (the names of the formula)
        oh, ow = H - kh + 1, W - kw + 1

        def compare(got: Any, expected: np.ndarray) -> bool:
            array = to_numpy(got)
            assert array is not None, f"Return a tensor; got {format_value(got)}."
            if array.shape == expected.shape[::-1] and array.shape != expected.shape:
                raise AssertionError(
                    f"Shape {array.shape} is the transpose of {expected.shape}: one row per "
                    "patch, so that a Linear layer reads each patch as one input sample. "
                    "(PyTorch's own F.unfold returns the transposed layout, (C*kh*kw, L).)")
            if array.shape != expected.shape:
                raise AssertionError(
                    f"Expected (L, C * kh * kw) = {expected.shape}, with L = "
                    f"(H - kh + 1) * (W - kw + 1) = {oh} * {ow} patches; got {array.shape}.")
            assert not (array.dtype == np.float32 and expected.dtype == np.float64), (
                "Your patches are float32, though x is float64: a tensor made without a dtype "
                "is float32 (the default), and every value copied into it is rounded to "
                "float32's 7 digits. Unfolding only moves numbers: keep x's dtype.")
            if np.allclose(array, expected):
                return True
            windows = _windows(x, kh, kw)
            slips = [
                (windows.transpose(0, 1, 3, 4, 2).reshape(oh * ow, -1),
                 "Each patch is flattened pixel by pixel with the channels innermost; flatten "
                 "it channel first, then row, then column, the order of "
                 "`conv.weight.view(K, -1)`: x[:, i:i+kh, j:j+kw].reshape(-1) keeps it."),
                (windows.transpose(1, 0, 2, 3, 4).reshape(oh * ow, -1),
                 "The patches come column by column; list them row by row of the output "
                 "(left to right, then down), the order of conv(x).view(K, -1)."),
            ]
            for value, why in slips:
                if np.allclose(array, value) and not np.allclose(value, expected):
                    raise AssertionError(why)
            return False
        return compare

    def run(x, kh, kw):
        xt = minitorch.tensor(x)
        out = unfold(xt, kh, kw)
        _unchanged(("x", xt, x))
        if isinstance(out, (list, tuple)) and out and all(
                isinstance(row, minitorch.Tensor) for row in out):
            raise WrongAnswer(f"You returned a {type(out).__name__} of {len(out)} rows: stack "
                              "them into one tensor, one patch per row.")
        _a_tensor(out)
        return out

    cases = [Case(name, lambda x=x, kh=kh, kw=kw: run(x, kh, kw),
                  _unfold_reference(x, kh, kw), compare=compare_for(x, kh, kw))
             for name, x, kh, kw in problems]

    def as_linear():
        minitorch.manual_seed(3)
        conv = nn.Conv2d(2, 3, kernel_size=(3, 2), dtype=minitorch.float64)
        x = minitorch.randn(2, 5, 4, dtype=minitorch.float64)
        patches = unfold(x, 3, 2)
        _a_tensor(patches)
        patches = to_numpy(patches)
        weight = conv.weight.detach().reshape(3, -1).numpy()
        return _Patches(patches, weight, conv.bias.detach().numpy(),
                        conv(x.unsqueeze(0))[0].detach())

    def compare_linear(got: Any, _expected: Any) -> bool:
        patches, weight, bias, conv_out = got.parts
        assert patches is not None and patches.shape == (9, 12), (
            "The patches of a (2, 5, 4) image with 3 x 2 patches should be a (9, 12) tensor "
            f"(3 * 3 positions, 2 * 3 * 2 numbers each); got "
            f"{format_value(None if patches is None else patches.shape)}.")
        mine = (patches @ weight.T + bias).T.reshape(3, 3, 3)  # what Linear(12, 3) computes
        assert np.allclose(mine, to_numpy(conv_out)), (
            "Linear(C * kh * kw, K), with the Conv2d's weight.view(K, -1) and bias, on your "
            "patches, does not give the Conv2d's output: check the order of the patches and "
            "of the numbers inside each one.")
        return True

    cases.append(Case("Linear with the Conv2d's weights on your patches = the Conv2d's output",
                      as_linear, True, compare=compare_linear,
                      expected_repr="conv(x) for nn.Conv2d(2, 3, kernel_size=(3, 2))"))
    return run_check(
        "unfold", cases,
        hint="Unfolding turns every patch the filter can sit on into one row: then one "
        "matrix product with the flattened filters computes every output position at once.",
        more_help=[
            "How many rows? One per output position: (H - kh + 1) * (W - kw + 1).",
            "The patch at output position (i, j) is x[:, i:i + kh, j:j + kw]; flatten it into "
            "one row, keeping the channel, row, column order of the tensor.",
            "Collect the rows for i from top to bottom and, within a row of positions, j from "
            "left to right; stack them into one tensor.",
        ],
        refuse=[_by_hand("unfold")],
    )

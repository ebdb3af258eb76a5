"""``roll``, ``movedim``, the stacks, ``tensor_split``, ``tile``, ``repeat_interleave``,
``meshgrid``, ``diag``, ``diag_embed`` and ``Tensor.unfold`` against PyTorch: what the op table
(``tests/_opinfo_samples_shape_extra.py``) does not compare. The views share memory and the
version counter with their base, writes go through them, autograd follows an in-place change
made through them, the warning of ``meshgrid`` without ``indexing``, and second derivatives
checked with finite differences."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from _oracle import assert_second_derivatives_agree

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

X = np.arange(12, dtype=np.float64).reshape(3, 4) / 7 - 0.5

# op(lib, x) -> a view of x, in both libraries
VIEWS = {
    "movedim": lambda lib, x: lib.movedim(x, 0, 1),
    "moveaxis": lambda lib, x: x.moveaxis((0, 1), (1, 0)),
    "swapdims": lambda lib, x: lib.swapdims(x, 0, 1),
    "swapaxes": lambda lib, x: x.swapaxes(axis0=1, axis1=0),
    "tensor_split": lambda lib, x: lib.tensor_split(x, [1, 3], 1)[1],
    "tensor_split-sections": lambda lib, x: x.tensor_split(2)[0],
    "unfold": lambda lib, x: x.unfold(1, 2, 1),
    "unfold-step": lambda lib, x: x.unfold(0, 2, 2),
    "meshgrid": lambda lib, x: lib.meshgrid(x[0], x[1], indexing="ij")[0],
}


def _both(fn, data=X):
    out = []
    for lib in (minitorch, torch):
        base = lib.tensor(data.copy(), requires_grad=True)
        out.append((lib, base, fn(lib, base)))
    return out


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_views_share_memory_with_their_base(name):
    for lib, x, v in _both(VIEWS[name]):
        assert v._base is x, (lib.__name__, name)
    # a write into the base shows in the view (and the view's version is the base's)
    for lib in (minitorch, torch):
        y = lib.tensor(X.copy())
        w = VIEWS[name](lib, y)
        y.add_(1)
        assert w._version == y._version == 1
    mine, ref = (VIEWS[name](lib, lib.tensor(X.copy())) for lib in (minitorch, torch))
    np.testing.assert_array_equal(mine.numpy(), ref.numpy())


@pytest.mark.parametrize("name", ["tensor_split", "movedim", "unfold-step", "swapdims"])
def test_in_place_change_through_a_view_reaches_the_base(name):
    results = []
    for lib in (minitorch, torch):
        leaf = lib.tensor(X.copy(), requires_grad=True)
        y = leaf * 2
        v = VIEWS[name](lib, y)
        v.mul_(3)
        (y * lib.tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
        results.append((y.detach().numpy(), leaf.grad.numpy(), type(y.grad_fn).__name__,
                        v.grad_fn.name()))
    (y1, g1, n1, v1), (y2, g2, n2, v2) = results
    np.testing.assert_allclose(y1, y2)
    np.testing.assert_allclose(g1, g2)
    assert (n1, v1) == (n2, v2) == ("CopySlices", "AsStridedBackward0")


@pytest.mark.parametrize("name", ["roll", "hstack", "vstack", "row_stack", "dstack",
                                  "column_stack", "tile", "repeat_interleave-tensor", "diag",
                                  "diag_embed"])
def test_copies_do_not_share_memory(name):
    fns = {
        "roll": lambda lib, x: lib.roll(x, 1, 0),
        "hstack": lambda lib, x: lib.hstack([x]), "vstack": lambda lib, x: lib.vstack([x]),
        "row_stack": lambda lib, x: lib.row_stack([x]), "dstack": lambda lib, x: lib.dstack([x]),
        "column_stack": lambda lib, x: lib.column_stack([x]),
        "tile": lambda lib, x: lib.tile(x, (1,)),
        "repeat_interleave-tensor": lambda lib, x: x.repeat_interleave(lib.tensor(1), 0),
        "diag": lambda lib, x: lib.diag(x), "diag_embed": lambda lib, x: lib.diag_embed(x),
    }
    for lib, x, out in _both(fns[name]):
        assert out._base is None, (lib.__name__, name)
        before = out.detach().numpy().copy()
        with lib.no_grad():
            x.add_(1)
        np.testing.assert_array_equal(out.detach().numpy(), before)


def test_repeat_interleave_int_is_a_view_of_a_clone():
    """PyTorch expands, clones and views (``ViewBackward0`` over ``CloneBackward0``)."""
    for _, x, out in _both(lambda lib, x: x.repeat_interleave(2, dim=1)):
        assert out._base is not None and out._base is not x
        assert out.grad_fn.name() == "ViewBackward0"
        assert out.grad_fn.next_functions[0][0].name() == "CloneBackward0"


def test_grad_fn_is_printed_as_pytorch_prints_it():
    for name, fn in [("RollBackward0", lambda lib, x: lib.roll(x, 1)),
                     ("UnfoldBackward0", lambda lib, x: x.unfold(0, 2, 1)),
                     ("DiagEmbedBackward0", lambda lib, x: x.diag_embed()),
                     ("DiagonalBackward0_copy", lambda lib, x: lib.diag(x)),
                     ("RepeatBackward0", lambda lib, x: x.tile(2)),
                     ("PermuteBackward0", lambda lib, x: x.movedim(1, 0)),
                     ("CatBackward0", lambda lib, x: lib.column_stack([x, x]))]:
        mine, ref = (repr(out).split("grad_fn=")[1] for _, _, out in _both(fn))
        assert mine.startswith(f"<{name}") and ref.startswith(f"<{name}")


_MESHGRID_TWICE = '''
import warnings, sys
import {lib} as lib
a = lib.tensor([1.0, 2.0])
for _ in range(2):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.meshgrid(a, a)
    print([str(w.message).split(" (Triggered")[0] for w in caught])  # torch adds where
with warnings.catch_warnings():
    warnings.simplefilter("error")
    lib.meshgrid(a, a, indexing="xy")
'''


def test_meshgrid_warns_once_without_indexing_as_torch_does():
    """PyTorch warns once a process when ``indexing`` is not given (TORCH_WARN_ONCE), so
    each library runs in a fresh interpreter: the first call warns, the second does not."""
    printed = [subprocess.run([sys.executable, "-c", _MESHGRID_TWICE.format(lib=name)],
                              capture_output=True, text=True, check=True).stdout
               for name in ("minitorch", "torch")]
    assert printed[0] == printed[1]
    assert printed[0].splitlines()[0] == ("['torch.meshgrid: in an upcoming release, it will be "
                                          "required to pass the indexing argument.']")
    assert minitorch.meshgrid is minitorch.functional.meshgrid


SECOND_ORDER = {
    "roll": lambda lib, x: lib.roll(x, (1, -1), (0, 1)) ** 2,
    "movedim": lambda lib, x: lib.movedim(x, 0, 1) ** 2,
    "hstack": lambda lib, x: lib.hstack([x, x[0]]) ** 2 if x.dim() == 1 else
    lib.hstack([x, x * 2]) ** 2,
    "vstack": lambda lib, x: lib.vstack([x, x[0]]) ** 2,
    "dstack": lambda lib, x: lib.dstack([x, x]) ** 2,
    "column_stack": lambda lib, x: lib.column_stack([x, x[:, 0]]) ** 2,
    "tensor_split": lambda lib, x: lib.tensor_split(x, 2, 1)[1] ** 2,
    "tile": lambda lib, x: lib.tile(x, (2, 1, 2)) ** 2,
    "repeat_interleave": lambda lib, x: x.repeat_interleave(2, 0) ** 2,
    "repeat_interleave-tensor": lambda lib, x: x.repeat_interleave(lib.tensor([2, 0, 1]), 0) ** 2,
    "diag": lambda lib, x: lib.diag(x, 1) ** 2,
    "diag-1-d": lambda lib, x: lib.diag(x[0], -1) ** 2,
    "diag_embed": lambda lib, x: lib.diag_embed(x, 1, 0, 2) ** 2,
    "unfold": lambda lib, x: x.unfold(1, 3, 1) ** 2,
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivatives_match_finite_differences_and_torch(name):
    assert_second_derivatives_agree(SECOND_ORDER[name], X, minitorch, torch)


def test_unfold_of_overlapping_windows_adds_their_gradients():
    for lib in (minitorch, torch):
        x = lib.arange(6.0, requires_grad=True)
        x.unfold(0, 3, 1).sum().backward()
        assert x.grad.tolist() == [1.0, 2.0, 3.0, 3.0, 2.0, 1.0]


def test_tensor_methods_exist_where_torch_has_them():
    for name in ("roll", "movedim", "moveaxis", "swapaxes", "swapdims", "tensor_split", "tile",
                 "repeat_interleave", "diag", "diag_embed", "unfold"):
        assert hasattr(torch.Tensor, name) and hasattr(minitorch.Tensor, name), name
    for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack", "meshgrid"):
        assert hasattr(minitorch, name) and not hasattr(minitorch.Tensor, name), name

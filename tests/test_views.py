"""Views as PyTorch has them (issue 26), with torch 2.13 as the oracle.

* Every view-making op shares memory, the version counter and ``_base`` as PyTorch's does;
  indexing down to one element gives a view too (NumPy gives a copy there).
* An in-place op on a view of a recorded tensor rewrites the base's history: the base's node
  becomes ``CopySlices``, the views' ``AsStridedBackward0``; gradients, node names, versions
  and errors match PyTorch's, for keys drawn by Hypothesis too.
* Second-order gradients and a second backward go through ``CopySlices`` as in PyTorch.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def outcome(fn):
    """What ``fn()`` gives, or the class and message of what it raises."""
    try:
        return fn()
    except Exception as e:
        return (type(e).__name__, str(e))


class Values:
    """A tensor's values, equal to another's to float32 rounding (and of the same dtype)."""

    def __init__(self, t) -> None:
        self.array = np.array(t.detach().numpy(), dtype=np.float64)
        self.dtype = str(t.dtype).split(".")[-1]

    def __eq__(self, other) -> bool:
        return (isinstance(other, Values) and self.dtype == other.dtype
                and self.array.shape == other.array.shape
                and np.allclose(self.array, other.array, rtol=1e-6, atol=1e-6, equal_nan=True))

    def __repr__(self) -> str:
        return f"Values({self.array.tolist()}, {self.dtype})"


def plain(v):
    """A comparable picture of a result: tensors as their values, sizes as tuples."""
    if isinstance(v, (minitorch.Tensor, torch.Tensor)):
        return Values(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if type(v).__name__ == "Size":
        return tuple(v)
    return v


# ---------------------------------------------------------------- every view-making op
VIEW_OPS = {
    "view": lambda x: x.view(12), "view_as": lambda x: x.view_as(x),
    "reshape": lambda x: x.reshape(4, 3), "reshape-of-t (a copy)": lambda x: x.t().reshape(12),
    "flatten": lambda x: x.flatten(), "t": lambda x: x.t(), "T": lambda x: x.T,
    "mT": lambda x: x.mT, "transpose": lambda x: x.transpose(0, 1),
    "permute": lambda x: x.permute(1, 0), "squeeze": lambda x: x[None].squeeze(0),
    "unsqueeze": lambda x: x.unsqueeze(1), "expand": lambda x: x[:1].expand(3, 4),
    "narrow": lambda x: x.narrow(1, 1, 2), "select": lambda x: x.select(1, 2),
    "unbind": lambda x: x.unbind(1)[2], "split": lambda x: x.split(2)[1],
    "chunk": lambda x: x.chunk(2, 1)[1], "diagonal": lambda x: x.diagonal(1),
    "detach (not a view)": lambda x: x.detach(), "contiguous": lambda x: x.contiguous(),
    "x[1]": lambda x: x[1], "x[1, 2]": lambda x: x[1, 2], "x[-1, -2]": lambda x: x[-1, -2],
    "x[...]": lambda x: x[...], "x[None]": lambda x: x[None], "x[:, 1:3]": lambda x: x[:, 1:3],
    "x[::2, 1]": lambda x: x[::2, 1], "x[1][2]": lambda x: x[1][2], "x.t()[0]": lambda x: x.t()[0],
    "x[..., 1, None]": lambda x: x[..., 1, None], "x[[0, 2]] (a copy)": lambda x: x[[0, 2]],
}


@pytest.mark.parametrize("name", list(VIEW_OPS))
def test_view_shares_memory_version_and_base_like_torch(name):
    def probe(lib):
        x = lib.arange(12.0).reshape(3, 4).clone()
        v = VIEW_OPS[name](x)
        facts = [v._base is x, v._is_view(), tuple(v.shape), v._version]
        if v._is_view():
            facts.append(v.storage_offset())
        x.add_(100)  # the base changes: the view shows it, and its version is the base's
        facts += [plain(v), x._version, v._version]
        facts.append(outcome(lambda: v.mul_(-1)))  # and the other way round
        facts += [plain(x), x._version, v._version]
        return plain(facts)

    assert probe(minitorch) == probe(torch)


@pytest.mark.parametrize("name", list(VIEW_OPS))
def test_inplace_on_each_view_of_a_recorded_tensor_like_torch(name):
    def probe(lib):
        leaf = lib.arange(12.0).reshape(3, 4).clone().requires_grad_()
        z = leaf * 2
        v = VIEW_OPS[name](z)
        facts = [v.grad_fn and v.grad_fn.name()]
        facts.append(plain(outcome(lambda: v.mul_(leaf[0, 0] + 1))))
        facts += [z.grad_fn.name(), z._version, outcome(lambda: v.grad_fn and v.grad_fn.name())]
        weights = lib.arange(12.0).reshape(3, 4) / 10
        (z * weights).sum().backward()
        return plain(facts + [leaf.grad])

    assert probe(minitorch) == probe(torch)


# ---------------------------------------------------------------- the examples
def test_indexing_to_one_element_gives_a_view():
    def probe(lib):
        x = lib.arange(6.0)
        old = x[2]
        x[2] = 50.0
        y = lib.arange(6.0).reshape(2, 3)
        y[1, 2].add_(10)
        return plain([old, old._base is x, old._version, x._version, y])

    assert probe(minitorch) == probe(torch) == plain(
        [minitorch.tensor(50.0), True, 1, 1, minitorch.tensor([[0.0, 1, 2], [3, 4, 15]])])


def test_inplace_on_a_view_rewrites_the_base_history_as_in_the_autograd_mechanics_note():
    def probe(lib):
        y = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = y * 2
        view = z[1:]
        view.mul_(3)
        facts = [z.grad_fn.name(), repr(z.grad_fn).split(" object")[0],
                 [n.name() if n else None for n, _ in z.grad_fn.next_functions],
                 view.grad_fn.name(), [n.name() for n, _ in view.grad_fn.next_functions],
                 z._version]
        z.sum().backward()
        return plain(facts + [y.grad])

    assert probe(minitorch) == probe(torch)
    assert probe(minitorch)[:2] == ["torch::autograd::CopySlices", "<CopySlices"]
    assert probe(minitorch)[-1] == Values(minitorch.tensor([2.0, 6.0, 6.0]))


@pytest.mark.parametrize("code", [
    "z[:, 0] += 1",
    "z[1] *= w",
    "z[z < 0] = 0",
    "z[0, z[0] > 1] = -1.0",
    "z[1:, 1] = w[:2]",
    "z[0] = w * 3",
    "z[...] = w",
    "z[:] = 2.0",
    "z[-3:] = w",
    "z[None, 1] = w.sum()",
    "z[[0, 2]] = w",
    "z.t()[1].clamp_(min=0.0)",
    "z.view(-1)[::3].fill_(1.0)",
    "z[1].zero_()",
    "z[2, 1:].copy_(w[1:])",
    "z.diagonal().exp_()",
    "z[1:][0].div_(w)",
])
def test_writes_through_an_index_on_a_recorded_tensor_like_torch(code):
    def probe(lib):
        x = lib.tensor(np.linspace(-2.0, 2.0, 12).reshape(3, 4).astype(np.float32),
                       requires_grad=True)
        w = lib.tensor([0.5, -1.5, 2.0, 1.0], requires_grad=True)
        z = x * 1
        exec(code, {"z": z, "w": w})
        facts = [z, z.grad_fn.name(), z._version]
        (z * lib.arange(12.0).reshape(3, 4)).sum().backward()
        return plain(facts + [x.grad, w.grad])

    assert probe(minitorch) == probe(torch)


def test_views_of_views_and_a_view_used_after_its_base_changed_like_torch():
    def probe(lib):
        x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        z = x * 1
        row = z[1]
        part = row[1:]
        first = z[0]
        names = [part.grad_fn.name(), first.grad_fn.name()]
        part.mul_(2)
        names += [z.grad_fn.name(), row.grad_fn.name(), part.grad_fn.name(),
                  first.grad_fn.name(), part._base is z, row._base is z]
        z.mul_(3)  # the base itself changes: its views follow its new node
        names += [first.grad_fn.name(), first.grad_fn.next_functions[0][0].name()]
        (first * 10 + part.sum()).sum().backward()
        return plain(names + [first, part, x.grad])

    assert probe(minitorch) == probe(torch)


def test_a_view_made_before_its_base_joined_the_graph_follows_it_like_torch():
    def probe(lib):
        w = lib.tensor(2.0, requires_grad=True)
        b = lib.zeros(3)
        v = b[0]
        before = [v.requires_grad, v.grad_fn]
        b[1:].add_(w)
        facts = before + [b.grad_fn.name(), [n and n.name() for n, _ in b.grad_fn.next_functions],
                          v.requires_grad, v.grad_fn.name()]
        (b.sum() + v * 5).backward()
        return plain(facts + [w.grad])

    assert probe(minitorch) == probe(torch)


def test_second_order_gradients_go_through_copyslices_like_torch():
    def probe(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = x * x
        z[1:].mul_(x[1:])
        (g,) = lib.autograd.grad(z.sum(), x, create_graph=True)
        first = [g, g.grad_fn.name()]
        g.sum().backward()
        second = x.grad.clone()
        x.grad = None
        z = x ** 2
        z[0].mul_(x[2])
        z.sum().backward(create_graph=True)  # Tensor.backward(create_graph=True)...
        gx = x.grad
        x.grad = None
        (gx * lib.tensor([1.0, 2.0, 3.0])).sum().backward()  # ...then a double backward
        return plain(first + [second, gx, x.grad])

    assert probe(minitorch) == probe(torch)


def test_a_second_backward_through_copyslices_like_torch():
    def probe(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = lib.tensor([4.0, 5.0], requires_grad=True)
        z = x * 1
        z[1:].mul_(w)  # mul saved both of its inputs: a second backward needs them
        z.sum().backward(retain_graph=True)
        z.sum().backward()
        again = outcome(lambda: z.sum().backward())
        return plain([x.grad, w.grad, again])

    mine, ref = probe(minitorch), probe(torch)
    assert mine == ref
    assert "Trying to backward through the graph a second time" in mine[2][1]


def test_saved_tensors_see_changes_through_views_like_torch():
    def probe(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = x * 1
        s = z.sin()  # sin saved z
        z[0].mul_(2)
        return outcome(lambda: s.sum().backward())

    mine, ref = probe(minitorch), probe(torch)
    assert mine[0] == ref[0] == "RuntimeError"
    # (PyTorch names the node the saved tensor has now, minitorch the one it had when saved)
    assert mine[1].split(", which")[0] == ref[1].split(", which")[0]
    assert mine[1].split("is at")[1] == ref[1].split("is at")[1]


@pytest.mark.parametrize("case", ["leaf view", "leaf setitem", "leaf whole setitem", "unbind",
                                  "split of a plain tensor", "view of an unbind piece",
                                  "made under no_grad", "view of a no_grad view", "expand",
                                  "overlapping copy"])
def test_inplace_on_views_raises_pytorchs_errors(case):
    def probe(lib):
        x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        z = x * 1
        if case == "leaf view":
            return outcome(lambda: x[0].mul_(2))
        if case == "leaf setitem":
            return outcome(lambda: x.__setitem__((0, 1), 5.0))
        if case == "leaf whole setitem":
            return outcome(lambda: x.__setitem__(slice(None), 5.0))
        if case == "unbind":
            return outcome(lambda: z.unbind()[1].mul_(2))
        if case == "split of a plain tensor":
            return outcome(lambda: lib.zeros(2, 2).split(1)[0].add_(x[0]))
        if case == "view of an unbind piece":
            return outcome(lambda: z.unbind()[0][1:].mul_(2))
        if case == "made under no_grad":
            with lib.no_grad():
                v = z[0]
            return outcome(lambda: v.mul_(2))
        if case == "view of a no_grad view":
            with lib.no_grad():
                v = x[0]
            return outcome(lambda: v[1:].mul_(2))
        if case == "expand":
            return outcome(lambda: z[:1].expand(2, 2).mul_(2))
        return outcome(lambda: z.view(-1).__setitem__(slice(1, None), z.view(-1)[:-1]))

    mine, ref = probe(minitorch), probe(torch)
    assert mine == ref
    assert mine[0] == "RuntimeError" and "minitorch does not support" not in mine[1]


def test_an_unbind_piece_used_after_its_base_changed_raises_pytorchs_error():
    def probe(lib):
        x = lib.ones(2, 2, requires_grad=True)
        z = x * 2
        piece = z.unbind()[0]
        z.mul_(2)
        return outcome(lambda: piece * 2), outcome(lambda: piece.grad_fn)

    mine = probe(minitorch)
    assert mine == probe(torch) and mine[0][0] == "RuntimeError"


def test_no_grad_writes_through_views_change_values_not_history_like_torch():
    def probe(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 2
        with lib.no_grad():
            y[0].mul_(10)
            y[1:] = 7.0
            x[2] = 0.5  # no_grad lets a leaf change too
        facts = [y, y.grad_fn.name(), y._version, x._version]
        y.sum().backward()
        return plain(facts + [x.grad, x])

    assert probe(minitorch) == probe(torch)


def test_a_view_made_under_no_grad_requires_grad_through_its_base_like_torch():
    def probe(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with lib.no_grad():
            v = x[1:]
        out = (v * 2).sum() + x.sum()
        facts = [v.requires_grad, v.is_leaf, v.grad_fn, out.requires_grad]
        out.backward()
        return plain(facts + [x.grad, v.grad])

    assert probe(minitorch) == probe(torch)


def test_detach_is_not_a_view_but_shares_the_version_counter_like_torch():
    def probe(lib):
        x = lib.zeros(3, requires_grad=True)
        d = x[1:].detach()
        d.add_(1)
        return plain([d._base, d._is_view(), d._version, x._version, x])

    assert probe(minitorch) == probe(torch)


def test_the_old_refusal_is_gone():
    src = (pathlib.Path(minitorch.__file__).parent / "_tensor.py").read_text()
    assert "does not support in-place operations on views" not in src


# ---------------------------------------------------------------- Hypothesis: keys and shapes
@st.composite
def shapes_and_keys(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple))
    parts, dims = [], list(shape)
    for n in dims:
        kind = draw(st.sampled_from(["int", "slice", "all", "none"]))
        if kind == "int":
            parts.append(draw(st.integers(-n, n - 1)))
        elif kind == "slice":
            parts.append(slice(draw(st.none() | st.integers(-n - 1, n + 1)),
                               draw(st.none() | st.integers(-n - 1, n + 1)),
                               draw(st.none() | st.integers(1, 3))))
        elif kind == "all":
            parts.append(slice(None))
        else:
            parts.append(None)
            parts.append(draw(st.integers(-n, n - 1)))
    if draw(st.booleans()):  # an ``...`` for some of the trailing indices
        cut = draw(st.integers(0, len(parts)))
        parts = parts[:cut] + [Ellipsis]
    return shape, tuple(parts)


@settings(max_examples=60, deadline=None)
@given(shapes_and_keys())
def test_basic_indexing_is_a_view_like_torch(case):
    shape, key = case

    def probe(lib):
        x = lib.arange(float(np.prod(shape))).reshape(shape).clone()
        v = x[key]
        # (an empty view starts at 0 for minitorch: NumPy does not keep where it would start)
        facts = [tuple(v.shape), v._base is x, v.storage_offset() if v.numel() else 0, plain(v)]
        v.add_(100)  # through the view into x
        x[key] = x[key] * 2  # a write through the same key
        return facts + [plain(x), x._version, v._version]

    assert probe(minitorch) == probe(torch)


@settings(max_examples=60, deadline=None)
@given(shapes_and_keys(), st.booleans())
def test_inplace_through_a_drawn_key_on_a_recorded_tensor_like_torch(case, use_setitem):
    shape, key = case

    def probe(lib):
        n = int(np.prod(shape))
        leaf = lib.tensor(np.linspace(-1.0, 2.0, n).reshape(shape).astype(np.float32),
                          requires_grad=True)
        w = lib.tensor(1.5, requires_grad=True)
        z = leaf * 2
        before = z[0] if len(shape) > 1 else None  # a view made before the change
        if use_setitem:
            z[key] = z[key] * w
        else:
            z[key].mul_(w)
        facts = [z.grad_fn.name(), z._version]
        out = (z * lib.arange(float(n)).reshape(shape)).sum()
        if before is not None:
            out = out + (before ** 2).sum()
        failed = outcome(out.backward)  # z[:] = z[:] * w: mul saved the view z[:] changed
        if failed:
            return facts + [plain(z), failed[0]]  # (the message names another node, as above)
        return facts + [plain(z), plain(leaf.grad), plain(w.grad)]

    assert probe(minitorch) == probe(torch)


def test_each_change_marks_only_the_views_used_since_the_last_one():
    # ``for row in z: row.mul_(2)`` must not touch every live row at every change (that would
    # be quadratic): a marked view is listed again only once it is used
    x = minitorch.randn(200, 3, requires_grad=True)
    z = x * 1
    rows = list(z)
    for row in rows:
        row.mul_(2)
    listed = [r for r in (z._version_counter.views or []) if r() is not None]
    assert len(listed) <= 1
    assert all(r._view_stale is not None for r in rows[:-1])
    (z.sum() + rows[0].sum() * 10).backward()
    expected = np.full((200, 3), 2.0)
    expected[0] = 22.0
    np.testing.assert_allclose(x.grad.numpy(), expected)
    assert rows[0].grad_fn.name() == "AsStridedBackward0"


@pytest.mark.parametrize("variant", ["the view", "the view, then the base", "a view of it"])
def test_backward_runs_the_nodes_in_pytorchs_order_after_a_change_through_a_view(variant):
    # The view changed in place gets its AsStridedBackward0 at once, right after the base's
    # CopySlices, as PyTorch's does (not when its grad_fn is first read): the nodes' order of
    # creation, and so the order backward runs them in, is PyTorch's.
    def order(lib):
        y = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        z = y * 2
        v = z[1:]
        v.mul_(3)
        if variant == "the view":
            loss = z.sum() + v.sum()
        elif variant == "the view, then the base":
            w = z[:2]
            z.add_(1)
            loss = z.sum() + v.sum() + w.sum()
        else:
            v2 = v[1:]
            v2.mul_(2)
            loss = z.sum() + v.sum() + v2.sum()
        ran, stack, seen = [], [loss.grad_fn], set()
        while stack:  # a pre-hook on every node notes when backward runs it
            node = stack.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            name = node.name().split("::")[-1]
            node.register_prehook(lambda g, name=name: ran.append(name))
            stack.extend(n for n, _ in node.next_functions)
        loss.backward()
        return ran, y.grad.tolist()

    assert order(minitorch) == order(torch)

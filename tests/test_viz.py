"""Tests for minitorch.viz: graph pictures, the backward stepper and the forward recorder.

The pictures are checked through their DOT text (exact where the graph is small), the
stepper against the engine's own record of a backward pass, and every widget is driven from
code (slider values, button clicks) as a learner would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import minitorch as torch
from minitorch.autograd.recorders import record_backward
from minitorch.viz import (
    INSTALL_HINT,
    draw_graph,
    record_forward_graph,
    step_backward,
    track_modules,
)

ROOT = Path(__file__).resolve().parents[1]
has_dot = pytest.mark.skipif(not __import__("shutil").which("dot"),
                             reason="Graphviz's dot program is not installed")


def seed_example(frozen_w: bool = False):
    """PyTorch's autograd tutorial example: x, y, w, b, matmul, binary_cross_entropy_with_logits."""
    torch.manual_seed(0)
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    if frozen_w:
        w.requires_grad_(False)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    return x, y, w, b, z, loss


def diamond():
    """x is used twice: loss = (3x + 4x).sum(), so x.grad = 7 from two arrivals."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * 3 + x * 4).sum()
    return x, loss


def edges(source: str) -> list:
    return re.findall(r"^\t(\w+) -> (\w+)", source, flags=re.M)


def node_keys(source: str) -> list:
    return re.findall(r"^\t+(\w+) \[label=", source, flags=re.M)


def label_of(source: str, key: str) -> str:
    return re.search(rf"^\t+{key} \[label=<(.*?)> shape", source, flags=re.M).group(1)


def hide_dot(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no `dot` on the PATH


# ----------------------------------------------------------------------------- draw_graph
def test_seed_example_dot():
    _, _, w, b, _, loss = seed_example()
    src = draw_graph(loss, params={"w": w, "b": b}).source
    for text in ("AddBackward0", "BinaryCrossEntropyWithLogitsBackward0", "MmBackward0",
                 "w (5, 3)", "b (3,)", "output ()"):
        assert text in src
    # walk order: n0 is the root's grad_fn; edges go input -> the op that used it
    assert node_keys(src) == ["n0", "n1", "n2", "n3", "n4", "n5", "out0"]
    assert edges(src) == [("n1", "n0"), ("n2", "n1"), ("n3", "n1"), ("n4", "n2"),
                          ("n5", "n4"), ("n0", "out0")]
    assert "<B>b (3,)</B>" in label_of(src, "n3")
    assert "<B>w (5, 3)</B>" in label_of(src, "n5")
    assert "0x" not in src


def test_unnamed_leaves_show_their_shape():
    _, _, _, _, _, loss = seed_example()
    src = draw_graph(loss).source
    assert "<B>(5, 3)</B>" in src and "<B>(3,)</B>" in src


def test_diamond_has_one_leaf_with_two_edges():
    x, loss = diamond()
    d = draw_graph(loss, params={"x": x})
    src = d.source
    names = [re.search(r"<B>(.*?)</B>", label_of(src, k)).group(1) for k in node_keys(src)]
    assert names == ["SumBackward0", "AddBackward0", "MulBackward0", "MulBackward0", "x (2,)",
                     "output ()"]
    assert edges(src) == [("n1", "n0"), ("n2", "n1"), ("n3", "n1"), ("n4", "n2"),
                          ("n4", "n3"), ("n0", "out0")]
    assert d.text.count("x (2,)") == 2  # written under each of its two users


def test_frozen_parameter_drops_out_of_the_graph():
    _, _, w, b, _, loss = seed_example(frozen_w=True)
    d = draw_graph(loss, params={"w": w, "b": b})
    src = d.source
    # x and w need no gradient, so matmul was not recorded at all
    assert "MmBackward0" not in src and "SqueezeBackward4" not in src
    frozen = re.search(r"^\t(p\d+) \[label=<<B>w \(5, 3\)</B>.*$", src, flags=re.M)
    assert frozen, src
    assert 'style="dashed,filled"' in frozen.group(0) and "requires_grad=False" in frozen.group(0)
    assert all(frozen.group(1) not in e for e in edges(src))  # standing apart
    assert "requires_grad=False: not in the graph" in src  # the legend explains the grey box
    assert "w (5, 3)  · requires_grad=False  [no grad]" in d.text


def test_frozen_parameter_that_was_saved_is_linked_without_gradient():
    torch.manual_seed(0)
    h = torch.randn(2, 4, requires_grad=True)  # e.g. the output of an earlier layer
    w = torch.randn(4, 3)  # frozen: requires_grad=False
    loss = torch.mm(h, w).sum()
    src = draw_graph(loss, params={"h": h, "w": w}).source
    mm = next(k for k in node_keys(src) if "MmBackward0" in label_of(src, k))
    frozen = re.search(r"^\t(p\d+) \[label=<<B>w \(4, 3\)</B>", src, flags=re.M).group(1)
    assert (frozen, mm) in edges(src)
    assert re.search(rf"^\t{frozen} -> {mm} \[.*style=\"dashed\"", src, flags=re.M)
    assert "used, but gets no gradient" in src


def test_unused_parameter_and_named_output():
    w = torch.ones(3, requires_grad=True)
    spare = torch.ones(2, requires_grad=True)
    z = w * 2
    loss = z.sum()
    src = draw_graph(loss, params={"w": w, "spare": spare, "z": z, "loss": loss}).source
    assert "not used by this graph" in src and "spare (2,)" in src
    assert "→ z (3,)" in src  # noted in the box of the op that made z
    assert "<B>loss ()</B>" in src and "→ loss" not in src


def test_root_without_graph_and_several_roots():
    with torch.no_grad():
        w = torch.ones(3, requires_grad=True)
        z = w * 2
    d = draw_graph(z)
    assert "no graph was recorded" in d.source and "requires_grad=False" in d.text
    a = w * 2
    b = w * 3
    src = draw_graph(a, b, params={"w": w}).source
    assert "output 0 (3,)" in src and "output 1 (3,)" in src
    assert src.count("<B>w (3,)</B>") == 1  # the shared leaf is drawn once


def test_show_saved_then_freed():
    x, _, w, b, _, loss = seed_example()
    src = draw_graph(loss, params={"w": w, "b": b, "x": x}, show_saved=True).source
    assert "saved for backward" in src  # legend
    assert "saved (3,)" in src and "float32" in src  # the logits and the target saved by BCE
    assert "saved (1, 5)" in src  # MmBackward0 saved x as a (1, 5) matrix
    loss.backward()
    src = draw_graph(loss, params={"w": w, "b": b}, show_saved=True).source
    assert "saved tensors: freed" in src and "saved (3,)" not in src


def test_show_grad_and_show_data():
    _, _, w, b, _, loss = seed_example()
    before = draw_graph(loss, params={"w": w, "b": b}, show_grad=True).source
    assert before.count("grad: None</FONT>") == 2
    loss.backward()
    src = draw_graph(loss, params={"w": w, "b": b}, show_grad=True, show_data=True).source
    assert "grad: shape (5, 3)" in src  # 15 elements: the shape
    g = b.grad.numpy()
    assert "grad: [" + ", ".join(f"{v:.4g}" for v in g) + "]" in src  # 3 elements: values
    assert "data: [" in src and "data: [[" not in src  # b's values; w is too big


def test_long_chains_collapse_and_max_nodes():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(1000):
        y = y * 1.001
    d = draw_graph(y, params={"x": x})
    assert "MulBackward0 ×1000" in d.source and "a chain of 1000 identical ops" in d.source
    assert len(node_keys(d.source)) == 3  # the chain, x, the output
    assert "MulBackward0 ×1000" in d.text
    full = draw_graph(y, params={"x": x}, collapse=None)
    assert len(node_keys(full.source)) == 1002
    short = draw_graph(y, params={"x": x}, collapse=None, max_nodes=5)
    assert "… 996 more nodes" in short.source
    assert len([k for k in node_keys(short.source) if k.startswith("n")]) == 5
    assert ("more", "n4") in edges(short.source)
    assert "not used" not in short.source  # x is in the graph, just not drawn


def test_two_thousand_ops_to_dot():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(1000):  # alternating ops: nothing collapses
        y = y * 1.001
        y = y + 0.5
    d = draw_graph(y, params={"x": x})
    source = d.source
    assert len(node_keys(source)) == 2002
    assert len(d.text.splitlines()) == 2002  # the text tree copes with a deep graph too


def test_digraph_wraps_the_same_source(tmp_path):
    graphviz = pytest.importorskip("graphviz")
    _, _, w, b, _, loss = seed_example()
    d = draw_graph(loss, params={"w": w, "b": b})
    assert isinstance(d.digraph, graphviz.Digraph)
    assert d.digraph.source == d.source


def test_same_graph_same_bytes():
    a = draw_graph(seed_example()[5], params={"w": seed_example()[2]}, show_saved=True)
    x, y, w, b, z, loss = seed_example()
    b1 = draw_graph(loss, params={"w": w, "b": b}, show_saved=True, show_grad=True)
    x, y, w, b, z, loss = seed_example()
    b2 = draw_graph(loss, params={"w": w, "b": b}, show_saved=True, show_grad=True)
    assert b1.source == b2.source
    assert b1.text == b2.text
    assert a.source != b1.source  # the test can tell pictures apart


SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {root!r})
    import minitorch as torch
    from minitorch.viz import draw_graph, step_backward
    torch.manual_seed(0)
    x = torch.ones(5); y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True); b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    d = draw_graph(loss, params={{"w": w, "b": b}}, show_saved=True, show_grad=True)
    s = step_backward(loss, params={{"w": w, "b": b}})
    sys.stdout.write(d.source + s.frame_source(3) + {svg})
""")


def _in_subprocess(svg: bool) -> str:
    code = SCRIPT.format(root=str(ROOT), svg="d.svg()" if svg else "''")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": "random"})
    return out.stdout


def test_same_bytes_across_processes():
    first, second = _in_subprocess(False), _in_subprocess(False)
    assert first == second and "w (5, 3)" in first
    x, y, w, b, z, loss = seed_example()
    here = draw_graph(loss, params={"w": w, "b": b}, show_saved=True, show_grad=True).source
    assert first.startswith(here)


@has_dot
def test_svg_is_deterministic_across_processes():
    first, second = _in_subprocess(True), _in_subprocess(True)
    assert first == second and "<svg" in first


@has_dot
def test_svg_render_contains_node_names():
    x, _, w, b, _, loss = seed_example()
    d = draw_graph(loss, params={"w": w, "b": b})
    svg = d.svg()
    assert svg.startswith("<svg")
    for text in ("AddBackward0", "BinaryCrossEntropyWithLogitsBackward0", "w (5, 3)", "b (3,)"):
        assert text in svg
    bundle = d._repr_mimebundle_()
    assert set(bundle) == {"image/svg+xml", "text/plain"}
    assert bundle["image/svg+xml"] == svg
    assert "0x" not in bundle["text/plain"] and "0x" not in svg
    assert bundle["text/plain"].startswith("output ()\n└── BinaryCrossEntropyWithLogitsBackward0")


@has_dot
def test_render_png(tmp_path):
    pytest.importorskip("graphviz")
    _, _, w, b, _, loss = seed_example()
    path = draw_graph(loss, params={"w": w, "b": b}).render(str(tmp_path / "seed"))
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_dot_a_hint_and_a_text_tree(monkeypatch, tmp_path):
    hide_dot(monkeypatch, tmp_path)
    _, _, w, b, _, loss = seed_example()
    d = draw_graph(loss, params={"w": w, "b": b})
    bundle = d._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    text = bundle["text/plain"]
    hint, tree = text.split("\n", 1)
    assert hint == INSTALL_HINT
    for needle in ("apt-get install graphviz", "brew install graphviz",
                   "conda install -c conda-forge graphviz python-graphviz", "mybinder.org"):
        assert needle in hint
    assert tree == textwrap.dedent("""\
        output ()
        └── BinaryCrossEntropyWithLogitsBackward0
            └── AddBackward0
                ├── SqueezeBackward4
                │   └── MmBackward0
                │       └── w (5, 3)  · AccumulateGrad  [leaf]
                └── b (3,)  · AccumulateGrad  [leaf]""")
    assert bundle["text/html"].startswith("<pre>Graphviz") and "&lt;" not in tree
    with pytest.raises(RuntimeError, match="apt-get install graphviz"):
        d.svg()
    assert "0x" not in repr(d)
    s = step_backward(loss, params={"w": w, "b": b})
    assert s.frame_html(0).startswith("<pre>Graphviz")


# ----------------------------------------------------------------------------- the stepper
def _engine_steps(make):
    """The engine's own record of a plain backward on a fresh copy of the graph."""
    leaf, loss = make()
    with record_backward() as steps:
        loss.backward()
    return [s.node.name() for s in steps], leaf


def test_stepper_follows_the_engines_real_order_seed():
    expected, plain_w = _engine_steps(lambda: (seed_example()[2], seed_example()[5]))
    x, y, w, b, z, loss = seed_example()
    s = step_backward(loss, params={"w": w, "b": b})
    assert [st.node.name() for st in s.steps] == expected
    assert [st.index for st in s.steps] == list(range(len(expected)))
    # Plain backward on an identical graph gives the grads the stepper computed.
    x2, y2, w2, b2, z2, loss2 = seed_example()
    loss2.backward()
    finals = {id(st.accumulated_into): st.grad_after for st in s.steps
              if st.accumulated_into is not None}
    np.testing.assert_allclose(finals[id(w)].numpy(), w2.grad.numpy(), rtol=1e-6)
    np.testing.assert_allclose(finals[id(b)].numpy(), b2.grad.numpy(), rtol=1e-6)
    last = s.last
    assert s.leaf_state(last, w)["grad"] == "a (5, 3) tensor"
    assert s.caption(last) == "Step 6 of 6: AccumulateGrad writes w.grad = a (5, 3) tensor"
    assert s.leaf_state(last, b)["grad"] == "[" + ", ".join(
        f"{v:.3g}" for v in b2.grad.numpy()) + "]"
    # The learner's tensors are untouched, and backward still works (retain_graph=True).
    assert w.grad is None and b.grad is None
    loss.backward()
    np.testing.assert_allclose(w.grad.numpy(), w2.grad.numpy(), rtol=1e-6)


def test_stepper_diamond_accumulates_in_two_steps():
    expected, _ = _engine_steps(diamond)
    x, loss = diamond()
    s = step_backward(loss, params={"x": x})
    names = [st.node.name() for st in s.steps]
    assert names == expected == ["SumBackward0", "AddBackward0", "MulBackward0",
                                 "MulBackward0", "torch::autograd::AccumulateGrad"]
    states = [s.leaf_state(k, x) for k in range(len(names))]
    assert [len(st["received"]) for st in states] == [0, 0, 1, 2, 2]
    assert all(st["expected"] == 2 for st in states)
    assert [st["accumulated"] for st in states] == [False, False, False, False, True]
    first, second = states[3]["received"]
    assert first.tolist() == [4.0, 4.0] and second.tolist() == [3.0, 3.0]  # x*4 ran first
    assert states[4]["grad"] == "[7, 7]"
    # The frames say so, in the picture and in the text tree.
    assert "received 1 of 2: sum [4, 4]" in s.frame_source(2)
    assert "received 2 of 2: sum [7, 7]" in s.frame_source(3)
    assert ".grad = [7, 7]" in s.frame_source(4)
    assert ".grad = None" in s.frame_source(1)
    assert s.caption(4) == "Step 5 of 5: AccumulateGrad writes x.grad = [7, 7]"
    x2, loss2 = diamond()
    loss2.backward()
    assert s.steps[-1].grad_after.tolist() == x2.grad.tolist() == [7.0, 7.0]
    assert x.grad is None


def test_stepper_frames_highlight_and_colour_edges():
    x, loss = diamond()
    s = step_backward(loss, params={"x": x})
    src = s.frame_source(2)  # the first MulBackward0 runs
    running = [k for k in node_keys(src) if 'fillcolor="#FFE08A"' in
               re.search(rf"^\t{k} \[.*$", src, flags=re.M).group(0)]
    assert len(running) == 1 and "MulBackward0" in label_of(src, running[0])
    carried = re.findall(r"^\t\w+ -> \w+ \[.*dir=\"back\".*label=\" (.*?) \"", src, flags=re.M)
    assert sorted(carried) == ["1", "[1, 1]", "[1, 1]", "[1, 1]", "[4, 4]"]
    # Not yet carried: the label is there (so the layout holds still) but invisible.
    assert re.search(r'label=" \[3, 3\] " fontcolor="transparent"', src)
    # Every box has the same size in every frame.
    sizes = [re.findall(r'width="([\d.]+)" height="([\d.]+)"', s.frame_source(k))
             for k in range(s.first, s.last + 1)]
    assert all(sz == sizes[0] for sz in sizes)


def test_stepper_leaves_grad_and_hooks_as_they_were():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    mid = x * 2
    mid.retain_grad()
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(1))
    loss = (mid * mid).sum()
    loss.backward(retain_graph=True)
    grad_before, mid_before = x.grad, mid.grad
    values = grad_before.tolist()
    s = step_backward(loss, params={"x": x})
    assert x.grad is grad_before and x.grad.tolist() == values  # same object, same values
    assert mid.grad is mid_before and seen == [1]
    assert s.leaf_state(s.last, x)["grad"] == "[8, 16]"  # this pass only, from None
    s2 = step_backward(loss, params={"x": x}, keep_existing_grad=True)
    assert s2.leaf_state(s2.last, x)["grad"] == "[16, 32]"  # on top of the existing .grad
    assert "  .grad = [8, 16]" not in s2.frame_source(0)
    assert ".grad = [8, 16]" in s2.frame_source(0)
    assert x.grad.tolist() == values
    loss.backward()  # the hooks still work
    assert mid.grad.tolist() == [8.0, 16.0] and seen == [1, 1]


def test_stepper_without_retain_graph_frees_the_graph():
    x, loss = diamond()
    step_backward(loss, retain_graph=False)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_stepper_refuses_a_loss_without_graph():
    with pytest.raises(RuntimeError, match="does not require grad"):
        step_backward(torch.ones(1).sum())


def test_stepper_widget_headless():
    pytest.importorskip("ipywidgets")
    x, loss = diamond()
    s = step_backward(loss, params={"x": x})
    assert s.current == 0 and s.slider.max == 4 and s.prev_button.disabled
    s.next_button.click()
    assert s.current == 1 and s.slider.value == 1
    s.slider.value = 3
    assert s.current == 3 and not s.next_button.disabled
    s.next_button.click()
    assert s.current == 4 and s.next_button.disabled
    s.next_button.click()  # stays on the last frame
    assert s.current == 4
    s.prev_button.click()
    assert s.current == 3
    view = s.view.value
    assert view.startswith("<svg") or view.startswith("<pre>")
    assert "received 2 of 2" in view or "received 2 of 2" in s.frame_text(3)
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "0x" not in bundle["text/plain"]
    assert bundle["text/plain"].startswith("BackwardStepper: 5 steps (SumBackward0 → ")
    with pytest.raises(IndexError):
        s.show(5)


# ----------------------------------------------------------------------- forward recorder
def test_forward_recorder_frames():
    torch.manual_seed(0)
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)

    def forward():
        z = torch.matmul(x, w) + b
        return torch.nn.functional.binary_cross_entropy_with_logits(z, y)

    rec = record_forward_graph(forward, params={"w": w, "b": b})
    assert [n.name() for n in rec.nodes] == [
        "MmBackward0", "SqueezeBackward4", "AddBackward0", "BinaryCrossEntropyWithLogitsBackward0"]
    assert rec.result.grad_fn is rec.nodes[-1]
    assert (rec.first, rec.last) == (1, 4)
    for k in range(1, 5):
        src = rec.frame_source(k)
        ops = [key for key in node_keys(src) if re.fullmatch(r"n\d+", key)]
        assert ops == [f"n{i}" for i in range(k)]  # only the first k recorded nodes
        assert "just recorded" in src and f"<B>{rec.nodes[k - 1].name()}</B>" in src
    assert "b (3,)" not in rec.frame_source(2) and "b (3,)" in rec.frame_source(3)
    assert "w (5, 3)" in rec.frame_source(1)
    assert rec.caption(3) == ("Op 3 of 4 recorded: AddBackward0, next_functions = "
                              "((SqueezeBackward4, 0), (AccumulateGrad, 0))")
    assert rec.caption(2).endswith("((MmBackward0, 0),)")
    assert "grad_fn=AddBackward0" in rec.frame_source(3)
    assert rec.frame_source(4) == record_forward_graph(forward, params={"w": w, "b": b}) \
        .frame_source(4)
    with pytest.raises(IndexError):
        rec.frame_source(0)


def test_forward_recorder_as_context_manager_and_widget():
    from minitorch.viz import ForwardRecording

    a = torch.tensor(2.0, requires_grad=True)
    earlier = a * 3
    with ForwardRecording(params={"a": a}) as rec:
        out = earlier + a
    assert [n.name() for n in rec.nodes] == ["AddBackward0"]
    src = rec.frame_source(1)
    assert "MulBackward0" in src and "recorded before" in src  # made before the block
    pytest.importorskip("ipywidgets")
    assert rec.slider.min == 1 and rec.slider.max == 1
    assert "0x" not in rec._repr_mimebundle_()["text/plain"]
    del out


# ----------------------------------------------------------------------- module grouping
class _Hooks:
    def __init__(self, hooks: dict, key: int) -> None:
        self.hooks, self.key = hooks, key

    def remove(self) -> None:
        self.hooks.pop(self.key, None)


class FakeModule:
    """Just enough of nn.Module: named_modules, named_parameters and forward hooks."""

    pre_hooks_supported = True

    def __init__(self, **children) -> None:
        self.children = children
        self.params: dict = {}
        self._pre: dict = {}
        self._post: dict = {}

    def __getattr__(self, name):
        if name == "register_forward_pre_hook" and not type(self).pre_hooks_supported:
            raise AttributeError(name)
        if name == "register_forward_pre_hook":
            return self._register_pre
        raise AttributeError(name)

    def _register_pre(self, fn):
        key = len(self._pre)
        self._pre[key] = fn
        return _Hooks(self._pre, key)

    def register_forward_hook(self, fn):
        key = len(self._post)
        self._post[key] = fn
        return _Hooks(self._post, key)

    def named_modules(self, prefix: str = ""):
        yield prefix, self
        for name, child in self.children.items():
            yield from child.named_modules(f"{prefix}.{name}" if prefix else name)

    def named_parameters(self, prefix: str = ""):
        for name, p in self.params.items():
            yield (f"{prefix}.{name}" if prefix else name), p
        for name, child in self.children.items():
            yield from child.named_parameters(f"{prefix}.{name}" if prefix else name)

    def __call__(self, x):
        for fn in list(self._pre.values()):
            fn(self, (x,))
        out = self.forward(x)
        for fn in list(self._post.values()):
            fn(self, (x,), out)
        return out


class Affine(FakeModule):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.params = {"weight": torch.ones(n, requires_grad=True),
                       "bias": torch.zeros(n, requires_grad=True)}

    def forward(self, x):
        return x * self.params["weight"] + self.params["bias"]


class Net(FakeModule):
    def forward(self, x):
        return self.children["fc2"](self.children["fc1"](x).relu())


@pytest.mark.parametrize("pre_hooks", [True, False])
def test_track_modules_groups_nodes(monkeypatch, pre_hooks):
    monkeypatch.setattr(FakeModule, "pre_hooks_supported", pre_hooks)
    net = Net(fc1=Affine(3), fc2=Affine(3))
    x = torch.ones(3)
    with track_modules(net) as scopes:
        out = net(x)
    loss = out.sum()
    assert not net._post and not net.children["fc1"]._post  # hooks removed again
    assert sorted(set(scopes.scope_of.values())) == ["", "fc1", "fc2"]
    src = draw_graph(loss, module=scopes).source
    assert 'label="fc1: Affine"' in src and 'label="fc2: Affine"' in src
    assert 'label="Net"' in src
    # nesting: the Net box holds fc1 and fc2; SumBackward0 (the loss) stays outside
    body = src[src.index("subgraph cluster_m0"):]
    depth, inside = 0, []
    for line in body.splitlines():
        depth += line.count("{") - line.count("}")
        inside.append(line)
        if depth == 0:
            break
    block = "\n".join(inside)
    assert "cluster_m1" in block and "cluster_m2" in block and "ReluBackward0" in block
    assert "SumBackward0" not in block
    assert "<B>weight (3,)</B>" in block  # leaves grouped by parameter name
    fc1 = block[block.index("cluster_m1"):block.index("cluster_m2")]
    assert "AddBackward0" in fc1 and "MulBackward0" in fc1 and "ReluBackward0" not in fc1


def test_draw_graph_with_a_model_names_parameters():
    net = Net(fc1=Affine(2), fc2=Affine(2))
    loss = net(torch.ones(2)).sum()
    src = draw_graph(loss, module=net).source
    assert src.count("<B>weight (2,)</B>") == 2 and 'label="fc1: Affine"' in src


def test_track_modules_without_hooks_is_harmless():
    class Plain:
        def __call__(self, x):
            return x * 2

    x = torch.ones(2, requires_grad=True)
    with track_modules(Plain()) as scopes:
        y = Plain()(x).sum()
    assert scopes.scope_of == {}
    assert "MulBackward0" in draw_graph(y, module=scopes).source


def test_real_nn_module_if_present():
    nn = torch.nn
    if not hasattr(nn, "Linear") or not hasattr(nn, "Module"):
        pytest.skip("minitorch.nn.Module / Linear not built yet")
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
    with track_modules(model) as scopes:
        loss = model(torch.randn(2, 4)).sum()
    src = draw_graph(loss, module=scopes).source
    assert 'label="0: Linear"' in src and 'label="2: Linear"' in src
    assert "<B>weight (3, 4)</B>" in src


# ----------------------------------------------------------------------- imports
def test_import_minitorch_does_not_import_viz_graphviz_or_ipywidgets():
    code = ("import sys, minitorch; import minitorch.viz as v; v.draw_graph; "
            "print(sorted(m for m in ('graphviz', 'ipywidgets', 'matplotlib') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
    code = "import sys, minitorch; print('minitorch.viz' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_draw_graph_works_without_ipywidgets_and_graphviz(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.split(".")[0] in ("ipywidgets", "graphviz"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    x, loss = diamond()
    d = draw_graph(loss, params={"x": x})
    assert "MulBackward0" in d.source and "x (2,)" in d.text
    with pytest.raises(ImportError, match="pip install graphviz"):
        _ = d.digraph
    s = step_backward(loss, params={"x": x})
    assert "received 2 of 2" in s.frame_source(3)  # frames work without ipywidgets
    with pytest.raises(ImportError):
        _ = s.widget


# ------------------------------------------------------------------ validation, dot errors, threads
def test_viz_inputs_are_validated_with_clear_messages():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x
    for bad in (0, -3):
        with pytest.raises(ValueError, match="max_nodes must be at least 1"):
            draw_graph(y, max_nodes=bad)
    with pytest.raises(TypeError, match="max_nodes must be an int"):
        draw_graph(y, max_nodes=2.5)
    with pytest.raises(ValueError, match="at least one tensor"):
        draw_graph()
    with pytest.raises(TypeError, match="expects tensors, but argument 0 is a list"):
        draw_graph([y])
    with pytest.raises(TypeError, match="params must be a dict"):
        draw_graph(y, params=[x])
    with pytest.raises(TypeError, match=r"params\['x'\] must be a tensor"):
        draw_graph(y, params={"x": 2.0})
    with pytest.raises(ValueError, match="collapse must be None"):
        draw_graph(y, collapse=-1)
    with pytest.raises(TypeError, match="expects a tensor"):
        step_backward(3.0)
    with pytest.raises(TypeError, match="expects a function"):
        record_forward_graph(y)
    assert "MulBackward0" in draw_graph(y, max_nodes=1).source


def test_control_characters_in_names_are_escaped():
    x = torch.tensor(2.0, requires_grad=True)
    name = 'x\x00\x07\t"<b>\\\n'
    d = draw_graph(x * x, params={name: x})
    assert "\x00" not in d.source and "\x07" not in d.source and "\t\"" not in d.source
    assert "\\x07" in d.source and "&lt;b&gt;" in d.source
    frames = step_backward(x * x, params={name: x})
    assert all(c not in frames.frame_source(k) for k in range(frames.last + 1)
               for c in ("\x00", "\x07"))
    if shutil.which("dot"):
        assert d.svg().startswith("<svg")  # dot accepts it
        assert frames.frame_svg(0).startswith("<svg")


def test_the_install_hint_appears_only_when_dot_is_missing(monkeypatch):
    from minitorch.viz import _dot, _player, drawing

    x = torch.tensor(2.0, requires_grad=True)
    d = draw_graph(x * x, params={"x": x})
    frames = step_backward(x * x, params={"x": x})

    def broken(source, fmt="svg"):
        raise RuntimeError("dot failed: Error: syntax error in line 3 near 'oops'")

    monkeypatch.setattr(_dot, "dot_available", lambda: True)
    monkeypatch.setattr(drawing, "dot_available", lambda: True)
    monkeypatch.setattr(_player, "dot_available", lambda: True)
    monkeypatch.setattr(drawing, "run_dot", broken)
    monkeypatch.setattr(_player, "run_dot", broken)
    for text in (d._repr_mimebundle_()["text/plain"], frames.frame_html(0)):
        assert "syntax error in line 3" in text
        assert "was not found" not in text and "apt-get install" not in text
    monkeypatch.setattr(_dot, "dot_available", lambda: False)
    assert _dot.failure_text(None) == INSTALL_HINT


def test_recorders_are_thread_local():
    import threading

    from minitorch.autograd.recorders import record_backward, record_forward

    x = torch.tensor(2.0, requires_grad=True)
    started, done = threading.Event(), threading.Event()

    def other_thread():
        started.wait()
        y = (x * 3).sum()  # recorded only by a recorder of this thread
        y.backward()
        done.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with record_forward() as forward_steps, record_backward() as backward_steps:
        started.set()
        done.wait(10)
        z = x.exp()
        z.backward()
    thread.join()
    assert [node.name() for node, _ in forward_steps] == ["ExpBackward0"]
    assert [s.node.name() for s in backward_steps] == ["ExpBackward0",
                                                       "torch::autograd::AccumulateGrad"]


def test_stepper_set_up_grows_linearly():
    """Counted, not timed: preparing the frames builds each box's texts a bounded number of
    times, whatever the length of the graph (it used to build every frame)."""
    from minitorch.viz import stepper as stepper_module

    calls = {"n": 0}
    original = stepper_module._estimate_parts

    def counting(title, details):
        calls["n"] += 1
        return original(title, details)

    counts = []
    for n in (100, 400):
        x = torch.tensor(1.0, requires_grad=True)
        h = x
        for _ in range(n):
            h = h * 1.0
        calls["n"] = 0
        stepper_module._estimate_parts = counting
        try:
            step_backward(h, params={"x": x})
        finally:
            stepper_module._estimate_parts = original
        counts.append(calls["n"])
    assert counts[1] <= 4.5 * counts[0], counts


def _rewritten_by_a_view():
    """z = y * 2; z[1:].mul_(w): z's history becomes CopySlices, the view's AsStridedBackward0."""
    y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([4.0, 5.0], requires_grad=True)
    z = y * 2
    view = z[1:]
    view.mul_(w)
    return y, w, z, view, z.sum() + view.sum()


def test_graph_of_an_inplace_change_through_a_view_is_drawn_and_deterministic():
    y, w, z, view, loss = _rewritten_by_a_view()
    picture = draw_graph(loss, params={"y": y, "w": w, "z": z, "view": view})
    assert picture.text == textwrap.dedent("""\
        output ()
        └── AddBackward0
            ├── SumBackward0
            │   └── CopySlices  · → z (3,) · MulBackward0 on a view
            │       ├── MulBackward0
            │       │   └── y (3,)  · AccumulateGrad  [leaf]
            │       └── w (2,)  · AccumulateGrad  [leaf]
            └── SumBackward0
                └── AsStridedBackward0  · → view (2,)
                    └── CopySlices  · → z (3,) · MulBackward0 on a view  (↑ shown above)""")
    assert picture.source.count("<B>CopySlices</B>") == 1  # one node, reached twice
    y2, w2, z2, view2, loss2 = _rewritten_by_a_view()
    same = draw_graph(loss2, params={"y": y2, "w": w2, "z": z2, "view": view2})
    assert same.source == picture.source and same.text == picture.text


def test_stepper_and_forward_recorder_name_the_rewritten_nodes():
    y, w, z, view, loss = _rewritten_by_a_view()
    s = step_backward(loss, params={"y": y, "w": w})
    with record_backward() as steps:
        _rewritten_by_a_view()[-1].backward()
    assert [st.node.name() for st in s.steps] == [st.node.name() for st in steps]
    captions = [s.caption(st.index) for st in s.steps]
    assert any(c.startswith(f"Step {i + 1} of {len(captions)}: CopySlices gets")
               for i, c in enumerate(captions))
    assert any("AsStridedBackward0 gets [1, 1]" in c for c in captions)

    def forward():
        z = y * 2
        part = z[1:]
        part.mul_(3)
        return z.sum() + part.sum()

    rec = record_forward_graph(forward, params={"y": y})
    assert "CopySlices  · a history rewritten by an in-place change through a view" in \
        rec.frame_text(len(rec.nodes))

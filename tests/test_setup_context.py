"""``autograd.Function`` written PyTorch 2's second way: ``forward(*args)`` without ctx, and
``setup_context(ctx, inputs, output)`` to save what backward needs.

The oracle is PyTorch: the same Function, written once against each library, must give the same
values, gradients, ``needs_input_grad``, calls and errors. The built-ins use this style too, and
``Function.apply`` makes no node for them when nothing is recorded (checked at the end).
"""

from __future__ import annotations

import inspect
import pathlib

import numpy as np
import pytest

import minitorch
from minitorch.autograd import function
from minitorch.ops import arithmetic, unary

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def scaled_product(lib, calls: list):
    """``a * b * k`` for a number k, in the split style, logging each static method it runs."""

    class ScaledProduct(lib.autograd.Function):
        @staticmethod
        def forward(a, b, k):
            calls.append(("forward", lib.is_grad_enabled()))
            return a * b * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            a, b, k = inputs
            calls.append(("setup_context", tuple(ctx.needs_input_grad), lib.is_grad_enabled()))
            ctx.save_for_backward(a, b, output)
            ctx.k = k

        @staticmethod
        def backward(ctx, grad):
            a, b, out = ctx.saved_tensors
            calls.append(("backward", out.shape == a.shape))
            return grad * b * ctx.k, grad * a * ctx.k, None

    return ScaledProduct


def run(lib, a_grad: bool, b_grad: bool, no_grad: bool = False):
    calls: list = []
    op = scaled_product(lib, calls)
    rng = np.random.default_rng(0)
    a = lib.tensor(rng.standard_normal((2, 3)), requires_grad=a_grad)
    b = lib.tensor(rng.standard_normal((2, 3)), requires_grad=b_grad)
    if no_grad:
        with lib.no_grad():
            out = op.apply(a, b, 1.5)
    else:
        out = op.apply(a, b, 1.5)
        if out.requires_grad:
            out.sum().backward()
    grads = [None if t.grad is None else t.grad.numpy().copy() for t in (a, b)]
    return out.detach().numpy().copy(), out.requires_grad, grads, calls


@pytest.mark.parametrize("a_grad,b_grad,no_grad", [
    (True, True, False), (True, False, False), (False, True, False), (False, False, False),
    (True, True, True),
])
def test_split_style_function_runs_as_in_pytorch(a_grad, b_grad, no_grad):
    mine, ref = run(minitorch, a_grad, b_grad, no_grad), run(torch, a_grad, b_grad, no_grad)
    np.testing.assert_allclose(mine[0], ref[0], rtol=1e-12)
    assert mine[1] == ref[1]  # requires_grad of the output
    for g, h in zip(mine[2], ref[2]):
        assert (g is None) == (h is None)
        if g is not None:
            np.testing.assert_allclose(g, h, rtol=1e-12)
    # forward and setup_context run with grad mode off, setup_context even under no_grad,
    # needs_input_grad as PyTorch gives it; backward once where a gradient is needed
    assert mine[3] == ref[3]


def test_split_style_saved_output_is_freed_after_backward():
    for lib in (minitorch, torch):
        op = scaled_product(lib, [])
        a = lib.ones(3, requires_grad=True)
        out = op.apply(a, lib.ones(3), 2.0).sum()
        out.backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            out.backward()


def test_split_style_mark_non_differentiable_and_names():
    for lib in (minitorch, torch):
        class SortedIdx(lib.autograd.Function):
            @staticmethod
            def forward(x):
                values, idx = x.sort()
                return values, idx

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.mark_non_differentiable(output[1])
                ctx.save_for_backward(output[1])

            @staticmethod
            def backward(ctx, g, _):
                (idx,) = ctx.saved_tensors
                return g.new_zeros(g.shape).scatter(0, idx, g)

        x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
        values, idx = SortedIdx.apply(x)
        assert values.grad_fn.name() == "SortedIdxBackward"
        assert not idx.requires_grad
        (values * lib.tensor([1.0, 10.0, 100.0])).sum().backward()
        assert x.grad.tolist() == [100.0, 1.0, 10.0]


def test_forward_that_takes_ctx_beside_setup_context_fails_as_in_pytorch():
    for lib in (minitorch, torch):
        class Wrong(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def setup_context(ctx, inputs, output):
                pass

            @staticmethod
            def backward(ctx, g):
                return g * 2

        with pytest.raises(TypeError, match="missing a required argument: 'x'"):
            Wrong.apply(lib.ones(2, requires_grad=True))


def test_builtins_make_no_node_when_nothing_is_recorded(monkeypatch):
    """The point of the split for the built-ins: with recording off (a backward pass without
    create_graph, or no_grad), ``apply`` runs ``forward`` alone, with no ctx and no node."""
    made = []
    for cls in (arithmetic.Mul, arithmetic.MulNumber, unary.Exp):
        node_cls = cls._backward_cls
        monkeypatch.setattr(cls, "_backward_cls",
                            lambda node_cls=node_cls: made.append(node_cls) or node_cls())
    x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    with minitorch.no_grad():
        (x * x * 2.0).exp()
    assert made == []
    y = (x * x * 2.0).exp()  # recorded: a node each
    assert [c.__name__ for c in made] == ["MulBackward0", "MulBackward0", "ExpBackward0"]
    made.clear()
    y.sum().backward()  # the backward formulas run Mul and MulNumber with recording off
    assert made == []
    np.testing.assert_allclose(x.grad.numpy(), 4 * x.detach().numpy() * y.detach().numpy())
    made.clear()
    g = minitorch.autograd.grad((x * x).exp().sum(), x, create_graph=True)[0]
    assert "MulBackward0" in [c.__name__ for c in made]  # create_graph records the formulas
    assert g.requires_grad


def test_contributing_shows_sin_as_it_is():
    """CONTRIBUTING.md walks through ``Sin``: its listing is the class as it is in the code."""
    text = (pathlib.Path(__file__).parents[1] / "CONTRIBUTING.md").read_text()
    listing = text.split("```python\nclass Sin(Function):", 1)[1].split("```", 1)[0]
    assert "class Sin(Function):" + listing == inspect.getsource(unary.Sin)


def test_split_style_is_recognised_through_inheritance():
    assert arithmetic.SubScaled._separate_setup and arithmetic.AddScaled._separate_setup
    assert not function.Function._separate_setup


def test_split_style_setup_context_sees_forwards_defaults():
    seen = {}
    for lib in (minitorch, torch):
        class Scale(lib.autograd.Function):
            @staticmethod
            def forward(x, k=3.0):
                return x * k

            @staticmethod
            def setup_context(ctx, inputs, output):
                seen[type(inputs[0]).__module__.split(".")[0]] = inputs[1:]
                ctx.k = inputs[1]

            @staticmethod
            def backward(ctx, g):
                return g * ctx.k, None

        x = lib.ones(2, requires_grad=True)
        Scale.apply(x).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]
    assert seen == {"minitorch": (3.0,), "torch": (3.0,)}


@pytest.mark.parametrize("returns", ["made-with-grad-on", "the-input", "a-view", "both"])
@pytest.mark.parametrize("how", ["under-no_grad", "input-needs-no-grad"])
def test_a_function_that_records_no_node_hands_back_what_torch_does(returns, how):
    """With no node recorded, PyTorch's ``_wrap_outputs`` detaches what ``forward`` made with
    grad mode turned back on, hands back a detached alias of a returned input that requires
    grad (a view of one that does not), and leaves a view alone."""
    def run(lib):
        class F(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                if returns == "the-input":
                    return x
                if returns == "a-view":
                    return x.view_as(x)
                with lib.enable_grad():
                    y = x * 2
                return (y, x) if returns == "both" else y

            @staticmethod
            def backward(ctx, *grads):
                return grads[0] * 2

        x = lib.ones(2, requires_grad=how == "under-no_grad")
        with lib.no_grad() if how == "under-no_grad" else lib.enable_grad():
            out = F.apply(x)
        outs = out if isinstance(out, tuple) else (out,)
        return [(o.requires_grad, type(o.grad_fn).__name__, o is x, o._base is x)
                for o in outs]

    assert run(minitorch) == run(torch)


@pytest.mark.parametrize("how", ["under-no_grad", "input-needs-no-grad"])
def test_an_input_marked_dirty_comes_back_as_itself_when_no_node_is_recorded(how):
    """``_wrap_outputs`` makes a view of a returned input only if forward did not change it."""
    def run(lib):
        class AddOne(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                x.add_(1)
                ctx.mark_dirty(x)
                return x

            @staticmethod
            def backward(ctx, grad):
                return grad

        x = lib.zeros(2, requires_grad=False)
        with lib.no_grad() if how == "under-no_grad" else lib.enable_grad():
            out = AddOne.apply(x)
        return out is x, out._base is x, out.tolist()

    assert run(minitorch) == run(torch)

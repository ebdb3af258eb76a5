"""What the chapters say PyTorch does, held against the pinned PyTorch.

The notebooks compare with PyTorch only where it is installed, and only in cells whose output
nbval ignores. These tests hold the claims most likely to drift, whatever the notebooks print:
the random numbers behind the worked examples, node names and their numbers, what a node saves
for backward, what ``inference_mode`` refuses and accepts, type promotion, how tensors print,
and the error messages the chapters quote. Each test names the chapter that makes the claim.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for the course's claims")

LIBS = [minitorch, torch]


def _outcome(fn):
    """``fn()``'s value, or ``(exception type name, message)`` if it raised."""
    try:
        return fn()
    except Exception as e:
        return type(e).__name__, str(e)


def _raw(t) -> tuple:
    a = np.ascontiguousarray(t.detach().numpy())
    return a.shape, str(a.dtype), a.tobytes()


# ---------------------------------------------------------------- random numbers (01, 03-09)

def _chapter_draws(lib) -> list:
    """The seeded draws of the chapters' examples, in the order each chapter makes them."""
    draws = []
    lib.manual_seed(0)                                   # 01: randn and rand after one seed
    draws += [lib.randn(2, 3), lib.rand(3)]
    lib.manual_seed(0)                                   # 02-06: the worked example's w and b
    draws += [lib.randn(5, 3), lib.randn(3)]
    lib.manual_seed(0)                                   # 06: the micro-batches
    draws += [lib.randn(8, 3), lib.randn(8)]
    lib.manual_seed(0)                                   # 07: the noise of the line
    draws += [lib.randn(30)]
    lib.manual_seed(0)                                   # 08: a shuffled order per epoch
    draws += [lib.randperm(100), lib.randperm(100), lib.randint(0, 10, (7,))]
    g = lib.Generator().manual_seed(0)                   # 09: the DataLoader's first draw
    draws += [lib.randint(2**63 - 1, (), generator=g), lib.randperm(10, generator=g)]
    return draws


def test_the_chapters_random_draws_are_pytorchs():
    mine, ref = _chapter_draws(minitorch), _chapter_draws(torch)
    assert [_raw(t) for t in mine] == [_raw(t) for t in ref]


# ---------------------------------------------------------------- node names (02, 03)

def _variant_names(lib) -> list[str]:
    a = lib.ones(1, 3, 1, requires_grad=True)
    results = [a.squeeze(), a.squeeze(0), a.squeeze((0, 2)), a.clone().squeeze_(),
               a.clone().squeeze_(0), a.clone().squeeze_((0, 2)), a.sum(), a.sum(0), a.sum((0, 1)),
               a.sum(1, keepdim=True), a.mean(), a.mean(0), a + 1, a * 2, 2 * a, a - a]
    return [r.grad_fn.name() for r in results]


def test_numbered_node_names_are_pytorchs():
    assert _variant_names(minitorch) == _variant_names(torch)
    assert _variant_names(minitorch)[:8] == [
        "SqueezeBackward0", "SqueezeBackward1", "SqueezeBackward2", "SqueezeBackward3",
        "SqueezeBackward4", "SqueezeBackward5", "SumBackward0", "SumBackward1"]


def _first_derivative_node_and_linear_nodes(lib) -> list[str]:
    x = lib.tensor(2.0, requires_grad=True)
    (dy,) = lib.autograd.grad(x ** 3, x, create_graph=True)   # 05: recorded as grad * 3 x**2
    layer = lib.nn.Linear(4, 3)                                # 07: F.linear on a batch
    return [dy.grad_fn.name(), layer(lib.ones(2, 4)).grad_fn.name()]


def test_create_graph_records_mul_and_linear_records_addmm():
    assert (_first_derivative_node_and_linear_nodes(minitorch)
            == _first_derivative_node_and_linear_nodes(torch)
            == ["MulBackward0", "AddmmBackward0"])


def _worked_example_names(lib) -> list[str]:
    lib.manual_seed(0)
    w = lib.randn(5, 3, requires_grad=True)
    b = lib.randn(3, requires_grad=True)
    loss = lib.nn.functional.binary_cross_entropy_with_logits(
        lib.matmul(lib.ones(5), w) + b, lib.zeros(3))
    names, node = [], loss.grad_fn
    while node is not None:              # follow the first input all the way to w
        names.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    return names


def test_matmul_of_a_vector_and_a_matrix_records_mm_and_squeeze_4():
    assert _worked_example_names(minitorch) == _worked_example_names(torch) == [
        "BinaryCrossEntropyWithLogitsBackward0", "AddBackward0", "SqueezeBackward4",
        "MmBackward0", "torch::autograd::AccumulateGrad"]


# ---------------------------------------------------------------- what a node saves (04, 06)

OPS = {
    "sigmoid": lambda lib, x, c: lib.sigmoid(x),   # saves its result
    "exp": lambda lib, x, c: lib.exp(x),           # saves its result
    "tanh": lambda lib, x, c: lib.tanh(x),         # saves its result
    "relu": lambda lib, x, c: lib.relu(x),         # saves its result
    "x * c": lambda lib, x, c: x * c,              # saves c only: only x needs a gradient
    "c * x": lambda lib, x, c: c * x,
    "x ** 3": lambda lib, x, c: x ** 3,            # saves x
    "x + c": lambda lib, x, c: x + c,              # saves nothing
}


def _change_then_backward(lib, op: str, change: str):
    """Change one tensor in place after ``op`` ran, then run backward: ``("ran", gradient)``,
    or the error's type and message."""
    leaf = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
    x = leaf * 1                        # not a leaf, so it may be changed in place
    c = lib.tensor([2.0, 3.0, 4.0])     # needs no gradient
    out = OPS[op](lib, x, c)
    {"input": x, "other": c, "output": out}[change].mul_(2)
    return _outcome(lambda: ("ran", (out.sum().backward(), leaf.grad.tolist())[1]))


@pytest.mark.parametrize("change", ["input", "other", "output"])
@pytest.mark.parametrize("op", list(OPS))
def test_what_a_node_saves_is_what_pytorch_saves(op, change):
    """A node refuses a saved tensor that changed since; what it refuses shows what it saved."""
    mine = _change_then_backward(minitorch, op, change)
    ref = _change_then_backward(torch, op, change)
    assert mine[0] == ref[0]
    if mine[0] == "ran":
        np.testing.assert_allclose(mine[1], ref[1], rtol=1e-6)
    else:
        assert mine == ref


def test_sigmoid_saves_its_output_and_mul_saves_the_other_factor():
    refused = {key: _change_then_backward(minitorch, *key)[0] != "ran"
               for key in [("sigmoid", "input"), ("sigmoid", "output"), ("x * c", "input"),
                           ("x * c", "other"), ("x + c", "input"), ("x + c", "other")]}
    assert refused == {("sigmoid", "input"): False, ("sigmoid", "output"): True,
                       ("x * c", "input"): False, ("x * c", "other"): True,
                       ("x + c", "input"): False, ("x + c", "other"): False}


def _second_backward(lib):
    a = lib.ones(3, requires_grad=True)
    total = (a + a + 1).sum()            # saves nothing: can be back-propagated twice
    total.backward()
    total.backward()
    x = lib.ones(1, 5)
    w = lib.ones(5, 3, requires_grad=True)
    loss = (x @ w).sum()                 # MmBackward0 saves x
    loss.backward()
    return a.grad.tolist(), _outcome(loss.backward)


def test_a_second_backward_fails_only_through_a_node_that_saved():
    mine, ref = _second_backward(minitorch), _second_backward(torch)
    assert mine == ref
    assert mine[0] == [4.0, 4.0, 4.0] and mine[1][0] == "RuntimeError"


# ---------------------------------------------------------------- inference_mode (06)

def _inference(lib):
    w = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        pred = w * 2
    (w + pred).sum().backward()          # add saves nothing: accepted
    return {
        "pred": (pred.is_inference(), pred.requires_grad),
        "w + pred, backward": w.grad.tolist(),
        "w * pred": _outcome(lambda: (w * pred).sum()),   # mul would save pred: refused
        "pred._version": _outcome(lambda: pred._version),
        "clone": pred.clone().is_inference(),
        "clone * w": _outcome(lambda: (pred.clone() * w).requires_grad),
    }


def test_inference_mode_refuses_only_what_must_be_saved():
    mine, ref = _inference(minitorch), _inference(torch)
    assert mine == ref
    assert mine["w + pred, backward"] == [1.0, 1.0, 1.0]
    assert mine["w * pred"][0] == "RuntimeError"


# ---------------------------------------------------------------- the diamond (03, 06)

def _diamond(lib):
    x = lib.tensor(3.0, requires_grad=True)
    calls = []
    x.register_hook(lambda grad: calls.append(grad.item()))
    ((x * 2) * (x + 1)).backward()
    return calls, x.grad.item()


def test_the_diamond_writes_x_grad_once_with_the_sum():
    assert _diamond(minitorch) == _diamond(torch) == ([14.0], 14.0)


# ---------------------------------------------------------------- dtypes and printing (01)

def _promotions(lib) -> list[str]:
    f64 = lib.float64
    results = [
        lib.tensor([1, 2]) + lib.tensor([0.5, 0.5]),
        lib.tensor([1, 2]) + 1.5,
        lib.tensor([1, 2]) / 2,
        lib.tensor([True, False]) + 1,
        lib.ones(2) + lib.ones(2, dtype=f64),
        lib.ones(2) + lib.tensor(1.0, dtype=f64),              # 0-d, same category: float32
        lib.tensor([1, 2]) + lib.tensor(1.0, dtype=f64),       # 0-d, higher category: float64
        lib.tensor([1], dtype=lib.int32) + lib.tensor([1]),
        lib.tensor([1], dtype=lib.int32) + lib.tensor(1),      # 0-d, same category: int32
        lib.tensor([True]) + lib.tensor(1),                    # 0-d, higher category: int64
        lib.ones(2, dtype=lib.float16) + lib.tensor(1.0, dtype=f64),
        lib.ones(2, dtype=lib.float16) + 1.5,
        lib.tensor(1) + lib.tensor(1.0, dtype=f64),            # both 0-d: float64
        lib.from_numpy(np.ones(2)) + lib.ones(2),
    ]
    return [str(r.dtype) for r in results]


def test_type_promotion_as_chapter_01_states_it():
    mine = _promotions(minitorch)
    assert mine == _promotions(torch)
    assert mine[5:7] == ["torch.float32", "torch.float64"]


def _reprs(lib) -> list[str]:
    return [repr(lib.tensor([True, False])), repr(lib.tensor([1, 2])),
            repr(lib.tensor([1.5, 2.0])), repr(lib.tensor([1, 2], dtype=lib.int32)),
            repr(lib.tensor([1.5], dtype=lib.float64)), repr(lib.tensor([1e-5, 1.0, 1e5])),
            repr(lib.tensor([1000.5, 2.0])), repr(lib.tensor(3.0, requires_grad=True) * 2)]


def test_printing_shows_the_dtype_unless_float32_int64_or_bool():
    assert _reprs(minitorch) == _reprs(torch)


# ---------------------------------------------------------------- quoted errors (01, 04, 06)

def _errors(lib) -> list:
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    z = w * 2
    h = lib.sigmoid(lib.tensor([[1.0, 2.0]]) @ lib.tensor([[0.5], [-0.25]], requires_grad=True))
    h *= 2
    return [_outcome(lambda: lib.tensor([1, 2, 3], requires_grad=True)),
            _outcome(w.numpy),
            _outcome(lambda: lib.ones(2, 3) + lib.ones(2)),
            _outcome(lambda: z.requires_grad_(False)),
            _outcome(lambda: h.sum().backward())]


def test_the_errors_the_chapters_quote_are_pytorchs():
    assert _errors(minitorch) == _errors(torch)

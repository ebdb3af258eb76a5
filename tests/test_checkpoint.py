"""``torch.utils.checkpoint``, against PyTorch.

Each scenario is a function of the library (``minitorch`` or ``torch``): it runs from the same
NumPy inputs and returns a log of what came out (gradients, how often the checkpointed function
ran, warnings, errors with their types and messages). The two logs must be equal, floats within
float32's tolerance.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="these tests compare checkpoint with torch")

X = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], dtype=np.float32)
W1 = np.array([[0.5, -1.0, 0.3], [2.0, 1.5, -0.7], [0.25, -3.0, 1.1], [0.1, 0.2, -0.4]],
              dtype=np.float32)
W2 = np.array([[1.0, -0.5, 0.75, 2.0]], dtype=np.float32)


def _arr(t):
    return None if t is None else np.array(t.detach().numpy(), dtype=np.float64).tolist()


def _same(a, b) -> bool:
    """Equal logs, floats within float32's tolerance (sums in another order differ a little)."""
    if isinstance(a, float) and isinstance(b, float):
        return bool(np.isclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


def _error(e: BaseException) -> tuple:
    return (type(e).__name__, str(e))


def _both(scenario, *args):
    mine, ref = scenario(minitorch, *args), scenario(torch, *args)
    assert _same(mine, ref), f"minitorch: {mine}\ntorch:     {ref}"
    return mine


def _mlp(lib):
    """Linear(3, 4), tanh, Linear(4, 1) with fixed weights."""
    l1, l2 = lib.nn.Linear(3, 4), lib.nn.Linear(4, 1)
    with lib.no_grad():
        l1.weight.copy_(lib.tensor(W1))
        l1.bias.copy_(lib.tensor([0.1, -0.2, 0.3, 0.0]))
        l2.weight.copy_(lib.tensor(W2))
        l2.bias.fill_(0.5)
    return l1, l2


@pytest.mark.parametrize("reentrant", [False, True])
def test_mlp_gradients_and_one_recomputation(reentrant):
    def scenario(lib):
        l1, l2 = _mlp(lib)
        calls = []

        def block(x):
            calls.append("run")
            return l2(lib.tanh(l1(x)) * x.sum(1, keepdim=True))

        x = lib.tensor(X, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(block, x, use_reentrant=reentrant)
        ran_forward = len(calls)
        (y ** 2).sum().backward()
        return [_arr(y), y.grad_fn.name() if reentrant else None, ran_forward, len(calls),
                _arr(x.grad), _arr(l1.weight.grad), _arr(l1.bias.grad), _arr(l2.weight.grad)]

    log = _both(scenario)
    assert log[2:4] == [1, 2]


@pytest.mark.parametrize("reentrant", [False, True])
def test_checkpoint_sequential_on_a_sequential(reentrant):
    def scenario(lib, segments):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.ReLU(), lib.nn.Linear(5, 4),
                                  lib.nn.Tanh(), lib.nn.Linear(4, 2))
        with lib.no_grad():
            for i, p in enumerate(model.parameters()):
                p.copy_(lib.tensor(np.linspace(-1, 1, p.numel(), dtype=np.float32)
                                   .reshape(tuple(p.shape)) * (i + 1)))
        x = lib.tensor(X, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint_sequential(model, segments, x,
                                                       use_reentrant=reentrant)
        y.sum().backward()
        return [_arr(y), _arr(x.grad)] + [_arr(p.grad) for p in model.parameters()]

    for segments in (1, 2, 5):
        _both(scenario, segments)


@pytest.mark.parametrize("reentrant", [False, True])
@pytest.mark.parametrize("preserve", [True, False])
def test_dropout_inside_gets_the_same_mask_when_the_rng_state_is_preserved(reentrant, preserve):
    def scenario(lib):
        lib.manual_seed(7)
        x = lib.tensor(np.linspace(0.5, 2, 40, dtype=np.float32).reshape(4, 10),
                       requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(
            lambda t: lib.nn.functional.dropout(t * t, p=0.5, training=True), x,
            use_reentrant=reentrant, preserve_rng_state=preserve)
        y.sum().backward()
        after = lib.rand(3)  # the surrounding random state was put back (or not)
        mask = (y != 0).float()
        return [_arr(y), _arr(x.grad), _arr(after),
                bool((x.grad == 2 * x.detach() * 2 * mask).all())]

    log = _both(scenario)
    assert log[-1] is preserve  # the gradient is that of the forward's mask only if preserved


def test_non_tensor_arguments_and_keyword_arguments():
    def scenario(lib):
        out = []

        def fn(a, scale, b=None, *, power=2):
            return (a * scale) ** power + (0 if b is None else b.sin())

        a = lib.tensor(X, requires_grad=True)
        b = lib.tensor(X[::-1].copy(), requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(fn, a, 3.0, b, use_reentrant=False, power=3)
        y.sum().backward()
        out += [_arr(a.grad), _arr(b.grad)]
        a.grad = b.grad = None
        y = lib.utils.checkpoint.checkpoint(fn, a, 0.5, b, use_reentrant=True)
        y.sum().backward()
        out += [_arr(a.grad), _arr(b.grad)]
        try:
            lib.utils.checkpoint.checkpoint(fn, a, 3.0, use_reentrant=True, power=3)
        except ValueError as e:
            out.append(_error(e))
        return out

    log = _both(scenario)
    assert log[-1] == ("ValueError", "Unexpected keyword arguments: power")


def test_double_backward_non_reentrant():
    def scenario(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: (t ** 3).sin().sum(), x,
                                            use_reentrant=False)
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return [_arr(g), _arr(gg)]

    _both(scenario)


@pytest.mark.filterwarnings("ignore:Using backward() with create_graph=True")
def test_double_backward_reentrant_is_refused_as_in_torch():
    def scenario(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: (t ** 3).sum(), x, use_reentrant=True)
        y.backward(create_graph=True)
        out = [_arr(x.grad), x.grad.requires_grad]
        try:
            x.grad.sum().backward()
        except RuntimeError as e:
            out.append(_error(e))
        return out

    _both(scenario)


def test_grad_and_inputs_are_refused_with_reentrant():
    def scenario(lib):
        out = []
        x = lib.tensor(X, requires_grad=True)
        for call in (lambda y: lib.autograd.grad(y, x),
                     lambda y: y.backward(inputs=[x])):
            y = lib.utils.checkpoint.checkpoint(lambda t: (t * t).sum(), x, use_reentrant=True)
            try:
                call(y)
            except RuntimeError as e:
                out.append(_error(e))
            y = lib.utils.checkpoint.checkpoint(lambda t: (t * t).sum(), x, use_reentrant=False)
            result = call(y)
            out.append(_arr(result[0] if result else x.grad))
        return out

    log = _both(scenario)
    assert log[0][1].startswith("When use_reentrant=True, torch.utils.checkpoint is incompat")


def test_warnings():
    def scenario(lib):
        out = []
        x = lib.tensor(X, requires_grad=True)
        for call in (lambda: lib.utils.checkpoint.checkpoint(lambda t: t * 2, x),
                     lambda: lib.utils.checkpoint.checkpoint_sequential([lambda t: t * 2], 1, x),
                     lambda: lib.utils.checkpoint.checkpoint(lambda t: t * 2, x.detach(),
                                                             use_reentrant=True),
                     lambda: lib.utils.checkpoint.checkpoint(lambda t: t * 2, x.detach(),
                                                             use_reentrant=False)):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                y = call()
            out.append(([(w.category.__name__, str(w.message)) for w in caught],
                        y.requires_grad))
        return out

    log = _both(scenario)
    assert log[2][0] == [("UserWarning",
                          "None of the inputs have requires_grad=True. Gradients will be None")]
    assert log[0][0][0][1].startswith("torch.utils.checkpoint: the use_reentrant parameter")


def test_argument_errors():
    def scenario(lib):
        out = []
        cp = lib.utils.checkpoint
        x = lib.tensor(X, requires_grad=True)
        calls = [
            lambda: cp.checkpoint(lambda t: t, x, use_reentrant=True,
                                  context_fn=lambda: (None, None)),
            lambda: cp.checkpoint(lambda t: t, x, use_reentrant=True, debug=True),
            lambda: cp.checkpoint(lambda t: t, x, use_reentrant=False, determinism_check="x"),
            lambda: cp.checkpoint_sequential([lambda t: t], 1, x, use_reentrant=False, foo=1),
            lambda: cp.detach_variable([x]),
        ]
        for call in calls:
            try:
                call()
                out.append("no error")
            except (ValueError, RuntimeError) as e:
                out.append(_error(e))
        return out

    _both(scenario)


def test_recomputation_that_differs_is_a_checkpoint_error():
    def scenario(lib, which):
        cp = lib.utils.checkpoint
        runs = []

        def fn(t):
            runs.append(1)
            if which == "shape":
                return (t[: len(runs)] * t[: len(runs)]).sum()
            return (t.sin() * t if len(runs) == 1 else t.sin()).sum()  # fewer saved tensors

        x = lib.tensor(X, requires_grad=True)
        y = cp.checkpoint(fn, x, use_reentrant=False)
        try:
            y.backward()
        except cp.CheckpointError as e:
            return [type(e).__mro__[1].__name__, str(e)]
        return "no error"

    for which in ("shape", "count"):
        log = _both(scenario, which)
        assert log[0] == "RuntimeError"


def test_determinism_check_none_and_early_stop():
    def scenario(lib, early_stop):
        cp = lib.utils.checkpoint
        steps = []

        def fn(t):
            steps.append("a")
            u = t.exp()
            steps.append("b")
            v = u * t
            steps.append("c")
            return v + 1

        x = lib.tensor(X, requires_grad=True)
        y = cp.checkpoint(fn, x, use_reentrant=False, early_stop=early_stop,
                          determinism_check="none")
        y.sum().backward()
        with cp.set_checkpoint_early_stop(early_stop):
            y2 = cp.checkpoint(fn, x, use_reentrant=False)
        y2.sum().backward()
        return [steps, _arr(x.grad)]

    assert _both(scenario, True)[0].count("c") == 2  # the recomputations stopped after "b"
    assert _both(scenario, False)[0].count("c") == 4


def test_no_grad_retain_graph_saved_attributes_and_context_fn():
    def scenario(lib):
        cp = lib.utils.checkpoint
        log = []

        def fn(t):
            log.append("fn")
            return t.exp().sum()

        x = lib.tensor(X, requires_grad=True)
        with lib.no_grad():
            log.append(cp.checkpoint(fn, x, use_reentrant=False).requires_grad)
        y = cp.checkpoint(fn, x, use_reentrant=False)
        log.append(_arr(y.grad_fn.next_functions[0][0]._saved_result))  # recomputes
        y.backward(retain_graph=True)
        y.backward()
        log.append(_arr(x.grad))

        class Ctx:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(f"enter {self.name}")

            def __exit__(self, *exc):
                log.append(f"exit {self.name}")

        y = cp.checkpoint(fn, x, use_reentrant=False,
                          context_fn=lambda: (Ctx("forward"), Ctx("recompute")))
        log.append("backward")
        y.backward()
        return log

    log = _both(scenario)
    assert log[:3] == ["fn", False, "fn"]


def test_nested_checkpoints_and_in_place_change_of_an_input():
    def scenario(lib):
        cp = lib.utils.checkpoint
        x = lib.tensor(X, requires_grad=True)

        def inner(t):
            return t.cos() * t

        def outer(t):
            return cp.checkpoint(inner, t.exp(), use_reentrant=False).sin()

        y = cp.checkpoint(outer, x, use_reentrant=False)
        y.sum().backward()
        out = [_arr(x.grad)]
        a = lib.tensor(X, requires_grad=True) * 1
        y = cp.checkpoint(inner, a, use_reentrant=False)
        with lib.no_grad():
            a.add_(1)
        try:
            y.sum().backward()
        except RuntimeError as e:
            out.append(_error(e))
        return out

    assert _both(scenario)[-1][1].startswith("one of the variables needed for gradient")


def test_what_is_kept_for_backward_is_the_input_only():
    def scenario(lib):
        x = lib.tensor(X, requires_grad=True)
        packed = []
        with lib.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                    lambda t: t):
            lib.utils.checkpoint.checkpoint(lambda t: t.exp().sin().sum(), x,
                                            use_reentrant=False)
        return [p is x for p in packed]  # an outer hook sees the input, not what is inside

    assert _both(scenario) == [True]
    x = minitorch.tensor(X, requires_grad=True)
    cp = minitorch.utils.checkpoint
    y = cp.checkpoint(lambda t: t.exp().sin().sum(), x, use_reentrant=False)
    sin = y.grad_fn.next_functions[0][0]
    holders = [s.packed for s in sin._saved + sin.next_functions[0][0]._saved]
    assert holders and all(type(h) is cp._Holder and h.value is cp._EMPTY for h in holders)
    y.backward(retain_graph=True)  # each holder was filled, then emptied by its unpack
    assert all(h.value is cp._EMPTY for h in holders)


def test_reentrant_recomputation_without_grad_is_an_error():
    def scenario(lib):
        x = lib.tensor(X, requires_grad=True)
        y = lib.utils.checkpoint.checkpoint(lambda t: t.detach() * 2, x, use_reentrant=True)
        try:
            y.sum().backward()
        except RuntimeError as e:
            return _error(e)
        return "no error"

    assert _both(scenario) == ("RuntimeError", "none of output has requires_grad=True, this "
                                               "checkpoint() is not necessary")


def test_gradcheck_in_float64():
    """Non-reentrant only: gradcheck calls ``autograd.grad``, which the reentrant one refuses."""
    a = minitorch.tensor(X.astype(np.float64), requires_grad=True)
    b = minitorch.tensor(W1[:2].astype(np.float64), requires_grad=True)

    def f(a, b):
        return minitorch.utils.checkpoint.checkpoint(
            lambda u, v, k: (u * v).tanh() * k + u.exp(), a, b, 0.5, use_reentrant=False)

    assert minitorch.autograd.gradcheck(f, (a, b[:, :3]))
    assert minitorch.autograd.gradgradcheck(f, (a, b[:, :3]))

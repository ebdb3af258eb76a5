"""Which nodes a backward pass runs, and what a node's post hook may do, side by side with
PyTorch: ``autograd.grad`` and ``backward(inputs=...)`` run only the nodes on a path to the
inputs asked for (the rest keep their saved tensors and fire no hooks), and a hook registered
with ``grad_fn.register_hook`` may return new gradients for the node to send on."""

from __future__ import annotations

import warnings

import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for the engine's passes")


def _both(program):
    """``program(lib)`` for minitorch and PyTorch: its result, or the error's type and text."""
    out = []
    for lib in (minitorch, torch):
        try:
            out.append(program(lib))
        except Exception as error:  # (compared with PyTorch's)
            out.append((type(error).__name__, str(error)))
    return out


def _branches(lib, call: str):
    """y uses x only through sqrt (a branch that grad(y, w) does not need) and w directly."""
    ran = []
    x = lib.tensor([0.0, 4.0], requires_grad=True)
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    s = x.sqrt()
    s.register_hook(lambda g: ran.append("sqrt's output"))
    s.grad_fn.register_prehook(lambda g: ran.append("sqrt's node"))
    y = (s * w).sum()
    if call == "grad":
        (g,) = lib.autograd.grad(y, w)
    else:
        y.backward(inputs=[w])
        g = w.grad
    later = lib.autograd.grad(s.sum(), x)[0]  # sqrt's saved tensors are still there
    return g.tolist(), x.grad, later.tolist(), ran


@pytest.mark.parametrize("call", ["grad", "backward inputs"])
def test_a_pass_runs_only_the_nodes_that_lead_to_the_inputs(call):
    mine, theirs = _both(lambda lib: _branches(lib, call))
    assert mine == theirs
    assert mine[0] == [0.0, 2.0] and mine[2] == [pytest.approx(float("inf")), 0.25]


@pytest.mark.parametrize("call", ["grad", "backward inputs"])
def test_a_branch_not_needed_is_not_checked_for_nan(call):
    def program(lib):
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        w = lib.tensor([1.0, 1.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)
            with lib.autograd.detect_anomaly():
                y = (x.sqrt() * 0 + w).sum()
                if call == "grad":
                    result = lib.autograd.grad(y, w)[0].tolist()
                else:
                    y.backward(inputs=[w])
                    result = (w.grad.tolist(), x.grad)
        return result, [str(m.message) for m in caught if "Error detected" in str(m.message)]

    mine, theirs = _both(program)
    assert mine == theirs == (([1.0, 1.0] if call == "grad" else ([1.0, 1.0], None)), [])


def test_a_target_that_leads_to_another_runs():
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        y = (h * h).sum()
        return [g.tolist() for g in lib.autograd.grad(y, (h, x))]

    mine, theirs = _both(program)
    assert mine == theirs == [[6.0, 12.0], [18.0, 36.0]]


POST_HOOKS = {
    "replaced": lambda gi: (gi[0] * 0 + 5,),
    "None kept": lambda gi: (None,),
    "too many": lambda gi: (gi[0], gi[0]),
    "a tensor": lambda gi: gi[0],
    "a list": lambda gi: [gi[0] * 2],
    "a number": lambda gi: (3,),
    "another size": lambda gi: (gi[0][:1],),
    "another dtype": lambda gi: (gi[0].double(),),
}


@pytest.mark.parametrize("case", sorted(POST_HOOKS))
def test_a_post_hook_may_replace_the_gradients(case):
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.exp()

        def myhook(grad_inputs, grad_outputs):
            return POST_HOOKS[case](grad_inputs)

        y.grad_fn.register_hook(myhook)
        y.sum().backward()
        return None if x.grad is None else [round(v, 4) for v in x.grad.tolist()]

    mine, theirs = _both(program)
    assert mine == theirs
    if case == "replaced":
        assert mine == [5.0, 5.0]


def test_a_post_hook_of_a_node_with_a_number_input():
    def program(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.grad_fn.register_hook(lambda gi, go: (gi[0] + 1, None))
        y.sum().backward()
        return x.grad.tolist()

    mine, theirs = _both(program)
    assert mine == theirs == [4.0, 4.0]


def _hooked_tensor(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    return x, y


HOOKED_PASSES = {
    # grad() of a tensor the pass stops at: after the tensor's hooks
    "grad, non-leaf": lambda lib: _grad_of_hooked(lib),
    # ... and so for a leaf, whose AccumulateGrad does not run
    "grad, leaf": lambda lib: _grad_of_hooked_leaf(lib),
    # a node's pre-hook runs only when the node runs: not for a gradient the pass stops at
    "grad, node pre-hook": lambda lib: _grad_past_prehook(lib),
    # a tensor the pass goes on from: as the gradient arrived (PyTorch's quirk)
    "grad, non-leaf and leaf": lambda lib: _grad_of_both(lib),
    "backward inputs, non-leaf and leaf": lambda lib: _backward_into_both(lib),
    "backward inputs, leaf": lambda lib: _backward_into_hooked_leaf(lib),
}


def _grad_of_hooked(lib):
    _, y = _hooked_tensor(lib)
    return lib.autograd.grad((y * 3).sum(), y)


def _grad_of_hooked_leaf(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    return lib.autograd.grad((x * 2).sum(), x)


def _grad_past_prehook(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda grads: (grads[0] * 100,))
    return lib.autograd.grad((y * 3).sum(), y)


def _grad_of_both(lib):
    x, y = _hooked_tensor(lib)
    return lib.autograd.grad((y * 3).sum(), [y, x])


def _backward_into_both(lib):
    x, y = _hooked_tensor(lib)
    (y * 3).sum().backward(inputs=[y, x])
    return y._grad if lib is minitorch else y.grad, x.grad  # (non-leaf .grad warns)


def _backward_into_hooked_leaf(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 2).sum().backward(inputs=[x])
    return (x.grad,)


@pytest.mark.parametrize("case", sorted(HOOKED_PASSES))
def test_which_hooks_a_captured_gradient_went_through(case):
    def program(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return [g.tolist() for g in HOOKED_PASSES[case](lib)]

    mine, theirs = _both(program)
    assert mine == theirs
    assert isinstance(mine, list)  # (gradients, not an error)


def _hooked_everywhere(lib, log):
    """z = x * y, with every kind of hook on z, its node, x and x's AccumulateGrad."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = lib.tensor([3.0, 4.0], requires_grad=True)
    z = x * y
    z.register_hook(lambda g: log.append("z's hook"))
    z.grad_fn.register_prehook(lambda grads: log.append("z's node, before"))
    z.grad_fn.register_hook(lambda gi, go: log.append("z's node, after"))
    acc = z.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda grads: log.append("x's AccumulateGrad, before"))
    acc.register_hook(lambda gi, go: log.append(f"x's AccumulateGrad, after {len(gi)} {len(go)}"))
    x.register_hook(lambda g: log.append("x's hook"))
    x.register_post_accumulate_grad_hook(lambda t: log.append("x accumulated"))
    return x, y, z


@pytest.mark.parametrize("call", ["backward", "backward inputs=[x]", "backward inputs=[z]",
                                  "backward inputs=[z, y]", "grad x", "grad z"])
def test_which_hooks_run_and_in_what_order(call):
    def program(lib):
        log = []
        x, y, z = _hooked_everywhere(lib, log)
        loss = (z * z).sum()
        if call.startswith("grad"):
            lib.autograd.grad(loss, x if call == "grad x" else z)
        else:
            inputs = {"backward": None, "backward inputs=[x]": [x], "backward inputs=[z]": [z],
                      "backward inputs=[z, y]": [z, y]}[call]
            loss.backward(inputs=inputs)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # (the .grad of a non-leaf)
            grads = [None if t.grad is None else t.grad.tolist() for t in (x, y, z)]
        try:  # did the pass run z's node (and free what it saved)?
            z.grad_fn._saved_self  # noqa: B018
            freed = False
        except RuntimeError:
            freed = True
        return log, grads, z.retains_grad, freed

    mine, theirs = _both(program)
    assert mine == theirs

"""Hooks for saved tensors and the rest of ``torch.autograd.graph``, against PyTorch.

Each scenario runs twice, once on minitorch and once on torch, from the same NumPy inputs, and
logs what the hooks saw (when they ran, what they were given, in which grad mode) and what came
out (gradients, errors with their types and messages); the two logs must be equal.
"""

from __future__ import annotations

import os
import threading
import uuid

import numpy as np
import pytest

import minitorch
from minitorch.autograd import function

torch = pytest.importorskip("torch", reason="these tests compare saved-tensor hooks with torch")

X = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], dtype=np.float32)
W = np.array([[0.5, -1.0], [2.0, 1.5], [0.25, -3.0]], dtype=np.float32)


def _arr(t):
    """The values, rounded to 5 significant digits (float32 sums differ in the last bits)."""
    if t is None:
        return None
    a = np.array(t.detach().numpy(), dtype=np.float64)
    return np.vectorize(lambda v: float(f"{v:.5g}"), otypes=[np.float64])(a) if a.size else a


def _describe(lib, t, inputs) -> tuple:
    """What a hook was given: which input it is (or none), its values, grad_fn name and flags."""
    which = next((k for k, v in inputs.items() if t is v), None)
    fn = None if t.grad_fn is None else t.grad_fn.name()
    return (which, _arr(t).tolist(), fn, t.requires_grad, t.is_leaf, lib.is_grad_enabled())


def _logging_hooks(lib, log, inputs):
    def pack(t):
        log.append(("pack", *_describe(lib, t, inputs)))
        return ("packed", t)

    def unpack(p):
        assert p[0] == "packed"  # unpack gets what pack returned
        log.append(("unpack", *_describe(lib, p[1], inputs)))
        return p[1]

    return pack, unpack


def _square_fn(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            out = x * x
            ctx.save_for_backward(x, out, None)
            return out

        @staticmethod
        def backward(ctx, grad):
            x, out, none = ctx.saved_tensors
            assert none is None
            return grad * 2 * x + 0 * out

    return Square


def _program(lib, name, x, w):
    F = lib.nn.functional
    if name == "mul":
        return x * w.T
    if name == "exp":
        return (x * 2).exp()
    if name == "matmul":
        return x @ w
    if name == "function":
        return _square_fn(lib).apply(x)
    if name == "linear":
        return F.linear(x, w.T, w[0])
    if name == "module":
        lin = lib.nn.Linear(3, 2)
        with lib.no_grad():
            lin.weight.copy_(w.T)
            lin.bias.copy_(w[0])
        return lin(x).tanh()
    raise AssertionError(name)


@pytest.mark.parametrize("name", ["mul", "exp", "matmul", "function", "linear", "module"])
def test_pack_and_unpack_see_what_torch_shows(name):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W, requires_grad=True)
        log: list = []
        with lib.autograd.graph.saved_tensors_hooks(*_logging_hooks(lib, log, {"x": x, "w": w})):
            y = _program(lib, name, x, w)
        log.append("forward done")
        (y * y).sum().backward()
        return log, [x.grad.detach().numpy()] + (
            [] if w.grad is None else [w.grad.detach().numpy()])

    (log, grads), (torch_log, torch_grads) = run(minitorch), run(torch)
    assert log == torch_log
    assert len(grads) == len(torch_grads)
    for g, tg in zip(grads, torch_grads):
        np.testing.assert_allclose(g, tg, rtol=1e-5, atol=1e-6)


def test_hooks_open_at_save_time_are_used_and_retain_graph_unpacks_again():
    def run(lib):
        H = lib.autograd.graph.saved_tensors_hooks
        log: list = []
        x = lib.tensor(X, requires_grad=True)
        with H(lambda t: (log.append("pack A"), t)[1], lambda t: (log.append("unpack A"), t)[1]):
            y = x.exp()
        with H(lambda t: (log.append("pack B"), t)[1], lambda t: (log.append("unpack B"), t)[1]):
            z = y.sin()
            with H(lambda t: (log.append("pack C"), t)[1],
                   lambda t: (log.append("unpack C"), t)[1]):
                s = z.sum() * z.mean()
            u = s.cos()
        r = (u * 2).sum()
        with H(lambda t: (log.append("pack D"), t)[1], lambda t: (log.append("unpack D"), t)[1]):
            r.backward(retain_graph=True)
            log.append("again")
            r.backward()
        return log, _arr(x.grad).tolist()

    assert run(minitorch) == run(torch)


def test_saved_attributes_unpack_only_their_own_tensor():
    def run(lib):
        log: list = []
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(*_logging_hooks(lib, log, {"x": x, "w": w})):
            y = (x @ w).exp()
        out = []
        for t in (y.grad_fn._saved_result, y.grad_fn.next_functions[0][0]._saved_mat2,
                  y.grad_fn._saved_result):
            out.append((t is x, t is w, t is y, t.grad_fn and t.grad_fn.name(), t.is_leaf,
                        t.requires_grad, _arr(t).tolist()))
        (t.sum() * 2).backward()  # from the unpacked leaf w: into w.grad, through y's node
        return log, out, _arr(x.grad).tolist(), _arr(w.grad).tolist()

    assert run(minitorch) == run(torch)


def test_double_backward_through_hooks():
    def run(lib):
        x = lib.tensor(X.astype(np.float64), requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t * 1):
            y = (x * x * x).exp().sum() + (x @ x.T).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g * g).sum().backward()
        return _arr(g), _arr(x.grad)

    (g, gx), (tg, tgx) = run(minitorch), run(torch)
    np.testing.assert_allclose(g, tg, rtol=1e-12)
    np.testing.assert_allclose(gx, tgx, rtol=1e-12)


def test_nesting_threads_and_no_grad():
    def run(lib):
        H = lib.autograd.graph.saved_tensors_hooks
        log: list = []
        x = lib.tensor(X, requires_grad=True)
        seen_in_thread = []

        def other():
            x.exp()
            seen_in_thread.append(len(log))

        with H(lambda t: (log.append("outer"), t)[1], lambda t: t):
            with H(lambda t: (log.append("inner"), t)[1], lambda t: t):
                x.exp()
                thread = threading.Thread(target=other)
                thread.start()
                thread.join()
            x.exp()
            with lib.no_grad():
                x.exp()  # nothing saved, nothing packed
        x.exp()
        return log, seen_in_thread

    assert run(minitorch) == run(torch) == (["inner", "outer"], [1])


def _error(fn):
    try:
        fn()
    except Exception as e:  # the type and message are compared with torch's
        return type(e).__name__, str(e)
    return None


def _errors(lib):
    graph = lib.autograd.graph
    H = graph.saved_tensors_hooks
    x = lib.tensor(X, requires_grad=True)
    out = {}
    with H(lambda t: 1, lambda p: p):
        y = x.exp()
    out["unpack not a tensor"] = _error(lambda: y.sum().backward())
    b = lib.tensor(X)
    with H(lambda t: t.add_(1), lambda p: p):
        out["pack in place"] = _error(lambda: x * b)
    with H(lambda t: t, lambda t: t):
        y = (x * x).sum()
    y.backward()
    out["freed"] = _error(y.backward)
    out["freed attribute"] = _error(lambda: y.grad_fn.next_functions[0][0]._saved_self)

    def disabled_then_hooks():
        with graph.disable_saved_tensors_hooks("no hooks here"), H(lambda t: t, lambda t: t):
            pass

    def hooks_then_disabled():
        with H(lambda t: t, lambda t: t), graph.disable_saved_tensors_hooks("not now"):
            pass

    out["disabled"] = _error(disabled_then_hooks)
    out["disable inside hooks"] = _error(hooks_then_disabled)
    out["enabled again"] = _error(lambda: H(lambda t: t, lambda t: t).__enter__() or
                                  H.__exit__(None))
    e = _error(lambda: H(1, 2).__enter__())
    out["not callable"] = (e[0], e[1].split("Invoked with")[0])
    # grad_fn._raw_saved_<name>
    y = x.exp()
    raw = y.grad_fn._raw_saved_result
    raw.register_hooks(lambda t: t, lambda t: t)
    out["raw twice"] = _error(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    e = _error(lambda: raw.register_hooks(1, lambda t: t))
    out["raw not callable"] = (e[0], e[1].split("Invoked with")[0])
    y.sum().backward()
    out["raw freed"] = _error(lambda: raw.register_hooks(lambda t: t, lambda t: t))
    with H(lambda t: t, lambda t: t):
        y = x.exp()
    out["raw after default hooks"] = _error(
        lambda: y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t))
    out["edge of a constant"] = _error(lambda: graph.get_gradient_edge(lib.tensor(X)))
    return out


def test_errors_are_torch_errors():
    mine, ref = _errors(minitorch), _errors(torch)
    assert mine == ref
    assert all(v is not None for k, v in ref.items() if k != "enabled again")


def test_raw_saved_register_hooks():
    def run(lib):
        log: list = []
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W, requires_grad=True)
        y = (x @ w).exp()
        y.grad_fn._raw_saved_result.register_hooks(
            lambda t: (log.append(("pack", t is y, t.grad_fn, _arr(t).tolist())), t * 1)[1],
            lambda p: (log.append("unpack"), p + 0)[1])
        log.append("registered")
        s = y.grad_fn._saved_result
        log.append((s.grad_fn.name(), _arr(s).tolist()))
        y.sum().backward()
        return log, _arr(x.grad).tolist()

    assert run(minitorch) == run(torch)


def test_with_hooks_no_version_check_as_in_torch():
    # PyTorch does not check versions of tensors that hooks packed: the hooks own the values.
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        b = lib.tensor(W.T.copy())
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = (x * b).sum()
        b.mul_(3)
        y.backward()
        return _arr(x.grad).tolist()

    assert run(minitorch) == run(torch)


def test_save_on_cpu():
    def run(lib, pin):
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W, requires_grad=True)
        with lib.autograd.graph.save_on_cpu(pin_memory=pin):
            y = (x @ w).tanh().sum()
        x.detach().mul_(2)  # with pin_memory the saved copy keeps the old values
        y.backward()
        return _arr(w.grad).tolist()

    assert run(minitorch, False) == run(torch, False)
    assert run(minitorch, True) == run(torch, True)
    assert run(torch, True) != run(torch, False)


def test_tutorial_pack_to_disk(tmp_path):
    """The tutorial "Hooks for autograd saved tensors": saving big tensors to disk."""

    def run(lib):
        class SelfDeletingTempFile:
            def __init__(self):
                self.name = os.path.join(tmp_path, str(uuid.uuid4()))

            def __del__(self):
                os.remove(self.name)

        def pack_hook(tensor):
            if tensor.numel() < 4:
                return tensor.detach()
            temp_file = SelfDeletingTempFile()
            lib.save(tensor, temp_file.name)
            return temp_file

        def unpack_hook(packed):
            if isinstance(packed, lib.Tensor):
                return packed
            return lib.load(packed.name)

        x = lib.tensor(X, requires_grad=True)
        small = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
            y = (x.pow(2) * small).sum()
        files = len(os.listdir(tmp_path))
        y.backward()
        return files, _arr(x.grad).tolist(), _arr(small.grad).tolist()

    mine = run(minitorch)
    assert len(os.listdir(tmp_path)) == 0
    assert mine == run(torch)
    assert mine[0] > 0


def test_node_gradient_edge_and_increment_version():
    def run(lib):
        graph = lib.autograd.graph
        x = lib.tensor(X, requires_grad=True)
        y = x.exp()
        out = [isinstance(y.grad_fn, graph.Node), isinstance(x, graph.Node),
               isinstance(y.grad_fn.next_functions[0][0], graph.Node),
               isinstance(_square_fn(lib).apply(x).grad_fn, graph.Node)]
        edge = graph.get_gradient_edge(y)
        out += [edge.node is y.grad_fn, edge.output_nr, edge.node.name()]
        leaf = graph.get_gradient_edge(x)
        out += [leaf.node.name(), leaf.output_nr, leaf.node is y.grad_fn.next_functions[0][0]]
        a, b = lib.unbind(x, 0)
        out.append(graph.get_gradient_edge(b).output_nr)
        z = lib.tensor(X)
        s = (x * z).sum()
        graph.increment_version(z)
        out.append(z._version)
        graph.increment_version([z, lib.tensor(1.0)])
        out.append(z._version)
        out.append(_error(s.backward))
        return out

    assert run(minitorch) == run(torch)


def test_node_is_a_base_class_to_implement():
    for lib in (minitorch, torch):
        class Half(lib.autograd.graph.Node):
            pass

        with pytest.raises(TypeError, match="abstract"):
            Half()
        assert not isinstance(object(), lib.autograd.graph.Node)


def test_no_hooks_no_cost():
    # With no block open, no watcher of the nodes being made packs anything.
    H = minitorch.autograd.graph.saved_tensors_hooks
    pack = minitorch.autograd.graph._pack_node
    assert pack not in function.node_watchers
    with pytest.raises(ZeroDivisionError), H(lambda t: t, lambda t: t):
        assert function.node_watchers.count(pack) == 1
        with H(lambda t: t, lambda t: t):
            assert function.node_watchers.count(pack) == 1
        1 / 0  # noqa: B018
    assert pack not in function.node_watchers
    x = minitorch.tensor(X, requires_grad=True)
    assert type(x.exp().grad_fn._saved[0]) is function.SavedTensor


def test_walking_a_graph_unpacks_nothing():
    from minitorch.autograd.graph import saved_tensors_hooks, walk

    log: list = []
    x = minitorch.tensor(X, requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: (log.append(1), t)[1]):
        y = (x * 2).exp()
    plain = (x * 2).exp()
    assert [n.saved for n in walk(y).nodes] == [[], [], []]
    assert [len(n.saved) for n in walk(plain).nodes] == [1, 0, 0]
    assert log == []


def test_double_backward_packs_and_unpacks():
    """test_double_backward_through_hooks passes even if hooks are never called (its hooks are
    identities): count the calls as well."""
    def run(lib):
        log = []
        x = lib.tensor(X.astype(np.float64), requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: (log.append("p"), t.clone())[1],
                                                    lambda t: (log.append("u"), t * 1)[1]):
            y = (x * x * x).exp().sum() + (x @ x.T).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g * g).sum().backward()
        return log.count("p"), log.count("u"), np.round(x.grad.detach().numpy(), 6).tolist()

    mine, theirs = run(minitorch), run(torch)
    assert mine == theirs
    assert mine[0] > 0


GRADIENT_EDGE_CASES = {
    "grad, non-leaf": lambda lib, x, y, e: lib.autograd.grad((y * y).sum(), e(y)),
    "grad, edge and tensor": lambda lib, x, y, e: lib.autograd.grad((y * y).sum(), [e(y), x]),
    "grad, leaf, materialized": lambda lib, x, y, e: lib.autograd.grad(
        (x * 2).sum(), e(x), materialize_grads=True),
    "grad, unused edge, materialized": lambda lib, x, y, e: lib.autograd.grad(
        (x * 2).sum(), e(y), allow_unused=True, materialize_grads=True),
    "backward inputs, leaf": lambda lib, x, y, e: ((y * y).sum().backward(inputs=[e(x)]),
                                                   x.grad),
    "backward inputs, non-leaf": lambda lib, x, y, e: ((y * y).sum().backward(inputs=[e(y)]),
                                                       x.grad, y._grad if lib is minitorch
                                                       else y.grad),
}


@pytest.mark.parametrize("case", sorted(GRADIENT_EDGE_CASES))
def test_a_gradient_edge_is_an_input(case):
    """PyTorch's docstring: autograd.grad(loss, get_gradient_edge(t)) is autograd.grad(loss, t)."""
    results = []
    for lib in (minitorch, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        try:
            out = GRADIENT_EDGE_CASES[case](lib, x, y, lib.autograd.graph.get_gradient_edge)
            results.append([None if g is None else g.tolist() for g in out])
        except RuntimeError as error:
            results.append(str(error))
    assert results[0] == results[1]
    assert case.startswith("grad, unused") or isinstance(results[0], list)


# ---------------------------------------------------------------- register_multi_grad_hook
def _multi_grad_log(lib, mode):
    """The torch docstring's example and more: which gradients each backward hands to fn."""
    log = []
    a = lib.tensor(X, requires_grad=True)
    b = lib.tensor(X * 2, requires_grad=True)
    c, d = a * b, a * b
    e = (c * 3).exp()

    def fn(grads):
        if mode == "any":
            log.append(("any", _arr(grads).tolist()))
        else:
            log.append(("all", [None if g is None else _arr(g).tolist() for g in grads]))

    handle = lib.autograd.graph.register_multi_grad_hook((a, b, c, d, e), fn, mode=mode)
    c.sum().backward(retain_graph=True)
    log.append("|")
    (d * 2).sum().backward(retain_graph=True)
    log.append("|")
    c.sum().backward(inputs=(a,), retain_graph=True)
    log.append("|")
    e.sum().backward(retain_graph=True)  # c is reached through e: one call, not two
    log.append("|")
    lib.autograd.grad((e.sum(), d.sum()), (c,), retain_graph=True)  # c only: d and e's leaves
    log.append("|")
    handle.remove()
    c.sum().backward(retain_graph=True)
    log.append("removed")
    return log


@pytest.mark.parametrize("mode", ["all", "any"])
def test_register_multi_grad_hook_as_torch(mode):
    mine, ref = _multi_grad_log(minitorch, mode), _multi_grad_log(torch, mode)
    assert mine == ref
    assert mine.count("|") == 5 and len(mine) > 7


def test_register_multi_grad_hook_errors_and_grad_of_leaves():
    for lib in (minitorch, torch):
        a = lib.ones(2, requires_grad=True)
        with pytest.raises(ValueError, match=r"Expects mode to be one of \('all', 'any'\) but "
                                             "got some"):
            lib.autograd.graph.register_multi_grad_hook((a,), print, mode="some")
        with pytest.raises(AssertionError, match="^Expected gradient function to be set$"):
            lib.autograd.graph.register_multi_grad_hook((a, lib.ones(2)), print)
        lib.autograd.graph.register_multi_grad_hook((a, lib.ones(2)), print, mode="any")


def test_register_multi_grad_hook_in_grad_with_a_leaf():
    """PyTorch cannot tell whether grad() will run a leaf's AccumulateGrad, and says so."""
    seen = []
    for lib in (minitorch, torch):
        a = lib.ones(2, requires_grad=True)
        b = a * 2
        lib.autograd.graph.register_multi_grad_hook((a, b), print)
        with pytest.raises(RuntimeError) as error:
            lib.autograd.grad(b.sum(), (a,))
        seen.append(str(error.value))
    assert seen[0] == seen[1]
    assert seen[0].startswith("A leaf node was passed to _will_engine_execute_node")


# ---------------------------------------------------------------- what each op packs, in order
# (saved-hooks task) Every tensor PyTorch's node saves is packed, integer ones too (indices, a
# target), in PyTorch's order: a node's inputs by name, then its outputs (``mm`` packs ``mat2``
# before ``self``; ``layer_norm`` bias, input, weight, mean, rstd).
A4 = np.array([[1.0, -2.0, 0.5, 4.0], [3.0, 0.25, -1.5, 2.0], [-0.75, 1.25, 2.5, -3.0]],
              dtype=np.float32)
B4 = np.array([[0.5, -1.0, 2.0, 1.5, 0.25], [2.0, 1.5, -0.5, 0.75, 1.0],
               [0.25, -3.0, 1.0, 0.5, -2.0], [1.0, 0.5, -1.5, 2.5, 0.125]], dtype=np.float32)
C4 = A4[::-1].copy() + 3
IMG = np.linspace(-2, 3, 2 * 3 * 4 * 4, dtype=np.float32).reshape(2, 3, 4, 4) ** 2 % 5


def _op_program(lib, name, a):
    """name -> (output, the other inputs by name) for one op applied to ``a`` (3, 4)."""
    F = lib.nn.functional
    b, c = lib.tensor(B4, requires_grad=True), lib.tensor(C4, requires_grad=True)
    target = lib.tensor([1, 0, 3])
    index = lib.tensor([[0, 2], [1, 3], [3, 0]])
    weight, bias = lib.tensor(C4[0], requires_grad=True), lib.tensor(A4[1], requires_grad=True)
    programs = {
        "mm": lambda: lib.mm(a, b), "matmul": lambda: a @ b,
        "bmm": lambda: lib.bmm(a[None], b[None]), "linear": lambda: F.linear(a, b.T),
        "div": lambda: a / c, "div const": lambda: c.detach() / a,
        "mul": lambda: a * c, "pow": lambda: (a * a).pow(c), "pow scalar": lambda: a.pow(3),
        "maximum": lambda: lib.maximum(a, c), "minimum": lambda: lib.minimum(a, c),
        "atan2": lambda: lib.atan2(a, c), "fmax": lambda: lib.fmax(a, c),
        "logaddexp": lambda: lib.logaddexp(a, c),
        "exp": lambda: a.exp(), "tanh": lambda: a.tanh(), "sigmoid": lambda: a.sigmoid(),
        "relu": lambda: a.relu(), "softmax": lambda: F.softmax(a, dim=1),
        "log_softmax": lambda: F.log_softmax(a, dim=1),
        "layer_norm": lambda: F.layer_norm(a, (4,), weight, bias),
        "layer_norm no affine": lambda: F.layer_norm(a, (4,)),
        "batch_norm": lambda: F.batch_norm(a, None, None, weight, bias, training=True),
        "batch_norm eval": lambda: F.batch_norm(a, lib.zeros(4), lib.ones(4), weight, bias),
        "conv2d": lambda: F.conv2d(lib.tensor(IMG) * a[0, 0], b[:3, :3].expand(2, 3, 3, 3)),
        "max_pool2d": lambda: F.max_pool2d(a.reshape(1, 1, 3, 4), 2),
        "embedding": lambda: F.embedding(index, a.T),
        "cross_entropy": lambda: F.cross_entropy(a, target),
        "nll_loss": lambda: F.nll_loss(a, target),
        "nll_loss weight": lambda: F.nll_loss(a, target, weight.detach(), reduction="sum"),
        "mse_loss": lambda: F.mse_loss(a, c),
        "gather": lambda: lib.gather(a, 1, index),
        "index_select": lambda: lib.index_select(a, 1, lib.tensor([1, 0, 3])),
        "index": lambda: a[target[:2], 1:],
        "index mask": lambda: a[lib.tensor([True, False, True])],
        "sort": lambda: lib.sort(a, dim=1)[0], "topk": lambda: lib.topk(a, 2, dim=1)[0],
        "max(dim)": lambda: lib.max(a, dim=1)[0], "min(dim) keepdim": lambda: a.min(0, True)[0],
        "cumsum": lambda: lib.cumsum(a, dim=1), "where": lambda: lib.where(c > 3.5, a, c),
    }
    more, more_inputs = _more_op_programs(lib, a, c, index, target)  # (saved-hooks2 task)
    programs.update(more)
    programs.update(_more_op_programs3(lib, a, c, more_inputs))  # (saved-hooks3 task)
    return programs[name](), {"b": b, "c": c, "target": target, "index": index,
                              "weight": weight, "bias": bias, **more_inputs}


OP_PROGRAMS = ["mm", "matmul", "bmm", "linear", "div", "div const", "mul", "pow", "pow scalar",
               "maximum", "minimum", "atan2", "fmax", "logaddexp", "exp", "tanh", "sigmoid",
               "relu", "softmax", "log_softmax", "layer_norm", "layer_norm no affine",
               "batch_norm", "batch_norm eval", "conv2d", "max_pool2d", "embedding",
               "cross_entropy", "nll_loss", "nll_loss weight", "mse_loss", "gather",
               "index_select", "index", "index mask", "sort", "topk", "max(dim)",
               "min(dim) keepdim", "cumsum", "where"]




# (saved-hooks2 task) Ops that save integer indices or a mask, and the caller's own index tensor
# (packed as it is: which input it is, by identity).
def _more_op_programs(lib, a, c, index, target):
    F = lib.nn.functional
    src = lib.tensor(C4 - 1, requires_grad=True)
    mask = lib.tensor(A4 > 0.3)
    rows = lib.tensor([2, 0, 1])

    def img(n):  # a as (1, 3, 4), (1, 1, 3, 4) or (1, 1, 3, 2, 2)
        return a.reshape(1, 3, 4) if n == 1 else a.reshape(1, 1, 3, 4) if n == 2 else \
            a.reshape(1, 1, 3, 2, 2)

    return {
        "median(dim)": lambda: lib.median(a, 1)[0],
        "median(dim) keepdim": lambda: a.median(0, keepdim=True)[0],
        "nanmedian(dim)": lambda: lib.nanmedian(a, 1)[0],
        "kthvalue": lambda: lib.kthvalue(a, 2, 1)[0], "mode": lambda: lib.mode(a, 1)[0],
        "cummax": lambda: lib.cummax(a, 1)[0], "cummin": lambda: lib.cummin(a, 0)[0],
        "max_pool3d": lambda: F.max_pool3d(img(3), 2, 1),
        "adaptive_max_pool1d": lambda: F.adaptive_max_pool1d(img(1), 2),
        "adaptive_max_pool2d": lambda: F.adaptive_max_pool2d(img(2), 2),
        "adaptive_max_pool3d": lambda: F.adaptive_max_pool3d(img(3), 2),
        "max_unpool1d": lambda: F.max_unpool1d(img(1)[..., :2], lib.tensor([[[1, 3]] * 3]), 2),
        "max_unpool2d": lambda: F.max_unpool2d(img(2)[..., :1, :2], lib.tensor([[[[1, 6]]]]), 2),
        "scatter": lambda: a.scatter(1, index, src[:, :2]),
        "scatter value": lambda: a.scatter(1, index, 2.5),
        "scatter_add": lambda: a.scatter_add(1, index, src[:, :2]),
        "scatter_reduce": lambda: a.scatter_reduce(1, index, src[:, :2], "amax"),
        "index_add": lambda: a.index_add(1, target, src[:, :3], alpha=2),
        "index_copy": lambda: a.index_copy(1, target, src[:, :3]),
        "index_fill": lambda: a.index_fill(1, target, 2.0),
        "index_fill tensor": lambda: a.index_fill(1, target, src[0, 0]),
        "masked_fill": lambda: a.masked_fill(mask, 2.0),
        "masked_fill tensor": lambda: a.masked_fill(mask, src[0, 0]),
        "masked_scatter": lambda: a.masked_scatter(mask, src),
        "masked_select": lambda: a.masked_select(mask),
        "take": lambda: lib.take(a, target), "put": lambda: a.put(target, src[0, :3]),
        "index_put": lambda: a.index_put((rows,), src, accumulate=True),
        "multi_margin_loss": lambda: F.multi_margin_loss(a, target),
        "multi_margin_loss weight": lambda: F.multi_margin_loss(a, target,
                                                                weight=c[0].detach()),
        "multilabel_margin_loss": lambda: F.multilabel_margin_loss(a, lib.tensor(
            [[1, -1, 0, 0], [0, 3, -1, 0], [2, 1, 3, -1]])),
        # two- and three-tensor elementwise ops: PyTorch's order (other before self...)
        "hypot": lambda: lib.hypot(a, c), "dist": lambda: lib.dist(a, c),
        "dist p=1": lambda: lib.dist(a, c, 1), "xlogy": lambda: lib.xlogy(a, c + 1),
        "xlogy number self": lambda: lib.xlogy(2.0, a * a + 1),
        "xlogy number other": lambda: lib.xlogy(a, 2.0),
        "lerp tensor weight": lambda: lib.lerp(a, c, src),
        "clamp tensors": lambda: lib.clamp(a, c - 4, src),
        "clamp min tensor": lambda: lib.clamp(a, min=c - 4),
        "clamp max tensor": lambda: lib.clamp(a, max=c - 4),
        "remainder": lambda: lib.remainder(a, c + 1),
        "cross": lambda: lib.linalg.cross(a[:, :3], c[:, 1:]),
        # the caller's own index tensor is packed (``which`` names it: the same object)
        "index_select own index": lambda: lib.index_select(a, 1, target),
        "index own": lambda: a[rows], "index two own": lambda: a[rows, target],
        "index own mask": lambda: a[mask], "index own and slice": lambda: a[1:, target],
    }, {"src": src, "mask": mask, "rows": rows}


OP_PROGRAMS += [
    "median(dim)", "median(dim) keepdim", "nanmedian(dim)", "kthvalue", "mode", "cummax",
    "cummin", "max_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
    "adaptive_max_pool3d", "max_unpool1d", "max_unpool2d", "scatter", "scatter value",
    "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_fill", "index_fill tensor",
    "masked_fill", "masked_fill tensor", "masked_scatter", "masked_select", "take", "put",
    "index_put", "multi_margin_loss", "multi_margin_loss weight",
    "multilabel_margin_loss", "hypot", "dist", "dist p=1", "xlogy", "xlogy number self",
    "xlogy number other", "lerp tensor weight", "clamp tensors", "clamp min tensor",
    "clamp max tensor", "remainder", "cross", "index_select own index",
    "index own", "index two own", "index own mask", "index own and slice"]


# (saved-hooks3 task) div with a rounding mode (other, then self, each where PyTorch saves it;
# a number is not packed), cosine_similarity (x2 / norm2 first), ``x[idx] = v``, which packs
# the caller's own index tensors, and embedding_bag.
def _more_op_programs3(lib, a, c, more):
    F = lib.nn.functional
    rows, src, mask = more["rows"], more["src"], more["mask"]
    offsets = lib.tensor([0, 1])
    target = lib.tensor([1, 0, 3])  # (not one of the inputs: a[rows, target] below packs rows)

    def written(key, value):
        b = a * 1
        b[key] = value
        return b

    return {
        "div floor": lambda: lib.div(a, c, rounding_mode="floor"),
        "div trunc number": lambda: lib.div(a, 2.0, rounding_mode="trunc"),
        "div trunc 0-d": lambda: lib.div(a, lib.tensor(2.0), rounding_mode="trunc"),
        "div number self": lambda: lib.div(2.0, a, rounding_mode="floor"),
        "div const other": lambda: lib.div(a, lib.tensor(C4), rounding_mode="floor"),
        "div const self": lambda: lib.div(lib.tensor(C4), a, rounding_mode="trunc"),
        "cosine_similarity": lambda: lib.nn.functional.cosine_similarity(a, c),
        "cosine_similarity dim 0": lambda: lib.nn.functional.cosine_similarity(a, c * a, 0),
        "setitem own index": lambda: written(rows, src),
        "setitem two own": lambda: written((rows, target), src[0, :3]),
        "setitem own and slice": lambda: written((slice(1, None), target), src[1:, :3]),
        "setitem own mask": lambda: written(mask, src[0, 0] * lib.ones(7)),
        # embedding_bag: indices, offsets, per_sample_weights (and the weight, where they
        # require grad), offset2bag, bag_size, max_indices, as PyTorch's CPU kernel makes them
        "embedding_bag sum": lambda: F.embedding_bag(rows, a, offsets, mode="sum"),
        "embedding_bag mean": lambda: F.embedding_bag(rows, a, offsets),
        "embedding_bag max": lambda: F.embedding_bag(rows, a, offsets, mode="max"),
        "embedding_bag weights": lambda: F.embedding_bag(
            rows, a, offsets, mode="sum", per_sample_weights=src[0, :3]),
        "embedding_bag 2-d": lambda: F.embedding_bag(lib.tensor([[2, 0], [1, 1]]), a),
        "embedding_bag padding": lambda: F.embedding_bag(rows, a, offsets, mode="max",
                                                         padding_idx=1),
        "embedding_bag sum padding": lambda: F.embedding_bag(rows, a, offsets, mode="sum",
                                                             padding_idx=1),
        "embedding_bag float64": lambda: F.embedding_bag(rows, a.double(), offsets,
                                                         mode="sum"),
        "embedding_bag int32 last": lambda: F.embedding_bag(
            rows.int(), a, lib.tensor([0, 1, 3], dtype=lib.int32), include_last_offset=True),
    }


OP_PROGRAMS += ["div floor", "div trunc number", "div trunc 0-d", "div number self",
                "div const other", "div const self", "cosine_similarity",
                "cosine_similarity dim 0", "setitem own index", "setitem two own",
                "setitem own and slice", "setitem own mask", "embedding_bag sum",
                "embedding_bag mean", "embedding_bag max", "embedding_bag weights",
                "embedding_bag 2-d", "embedding_bag padding", "embedding_bag sum padding",
                "embedding_bag float64", "embedding_bag int32 last"]


@pytest.mark.parametrize("name", OP_PROGRAMS)
def test_each_op_packs_what_torch_packs_in_its_order(name):
    def run(lib):
        a = lib.tensor(A4, requires_grad=True)
        log: list = []
        inputs = {"a": a}

        def pack(t):
            log.append(("pack", str(t.dtype).rpartition(".")[2], *_describe(lib, t, inputs)))
            return ("packed", t)

        def unpack(p):
            t = p[1]
            log.append(("unpack", str(t.dtype).rpartition(".")[2], *_describe(lib, t, inputs)))
            return t

        with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
            y, others = _op_program(lib, name, a)
        inputs.update(others)  # (made inside the block: identified when unpacked)
        log.append("forward done")
        (y * y).sum().backward()
        return log, a.grad.numpy()  # the packs and the unpacks of each node in their order

    (log, grad), (torch_log, torch_grad) = run(minitorch), run(torch)
    assert log == torch_log
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-4, atol=1e-4)  # (batch_norm's: ~0)


# (saved-hooks2 task) backward reads what the unpack hook gave for the indices or mask a node
# packed, as PyTorch's does: an unpack hook that returns other indices (rolled) or the negated
# mask moves the gradient exactly as it moves PyTorch's.
def _modified_unpack_program(lib, name, a):
    index, mask = lib.tensor([[0, 2], [1, 3], [3, 0]]), lib.tensor(A4 > 0.3)
    src = lib.tensor(A4[:, :2] + 1, requires_grad=True)
    return {"sort": lambda: lib.sort(a, 1)[0], "topk": lambda: lib.topk(a, 2, 1)[0],
            "cummax": lambda: lib.cummax(a, 1)[0], "cummin": lambda: lib.cummin(a, 0)[0],
            "median(dim)": lambda: lib.median(a, 1)[0],
            "kthvalue keepdim": lambda: lib.kthvalue(a, 2, 1, keepdim=True)[0],
            "mode": lambda: lib.mode(a, 1)[0],
            "scatter": lambda: a.scatter(1, index, src),
            "scatter value": lambda: a.scatter(1, index, 2.0),
            "scatter_add": lambda: a.scatter_add(1, index, a[:, 1:3] * src),
            "scatter_reduce": lambda: a.scatter_reduce(1, index, a[:, 1:3] * src, "sum"),
            "gather": lambda: lib.gather(a, 1, index),
            "masked_fill": lambda: a.masked_fill(mask, 2.0),
            "multi_margin_loss": lambda: lib.nn.functional.multi_margin_loss(
                a, lib.tensor([1, 0, 3]))}[name]()


@pytest.mark.parametrize("name", ["sort", "topk", "cummax", "cummin", "median(dim)",
                                  "kthvalue keepdim", "mode", "scatter", "scatter value",
                                  "scatter_add", "scatter_reduce", "gather", "masked_fill",
                                  "multi_margin_loss"])
def test_backward_reads_what_the_unpack_hook_gave(name):
    def change(lib, t):
        return t.roll(1, 0) if t.dtype == lib.int64 else ~t if t.dtype == lib.bool else t

    _check_unpack_feeds_backward(_modified_unpack_program, name, change)


def _check_unpack_feeds_backward(program, name, change):
    """``program(lib, name, a)`` under hooks whose unpack returns ``change(lib, t)``: the
    gradient of ``a`` is torch's, and the change does move torch's."""
    def run(lib, modify=True):
        a = lib.tensor(A4, requires_grad=True)

        def unpack(t):
            return change(lib, t) if modify else t

        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), unpack):
            y = program(lib, name, a)
        (y * y).sum().backward()
        return a.grad.numpy()

    grad, torch_grad = run(minitorch), run(torch)
    np.testing.assert_allclose(grad, torch_grad, rtol=1e-5, atol=1e-6)
    assert not np.array_equal(run(torch, modify=False), torch_grad)  # (the hook changes it)


# (saved-hooks3 task) The same for the indices or mask a node packs from a getter (worked out
# from what minitorch keeps): backward reads what the unpack hook gave, as PyTorch's does. The
# unpack hook rolls them along their last dimension (a mask keeps its count of True values;
# index_fill's, whose order does not count, are reflected: 3 - index).
def _computed_unpack_program(lib, name, a):
    F = lib.nn.functional
    target, rows = lib.tensor([1, 0, 3]), lib.tensor([2, 0, 1])
    mask = lib.tensor(A4 > 0.3)
    src = lib.tensor(C4 - 1, requires_grad=True)
    return {"max(dim)": lambda: lib.max(a, dim=1)[0],
            "min(dim) keepdim": lambda: a.min(0, True)[0],
            "index_select": lambda: lib.index_select(a, 1, target),
            "take": lambda: lib.take(a, target),
            "index": lambda: a[rows], "index two": lambda: a[rows, target],
            "index and slice": lambda: a[1:, target], "index mask": lambda: a[mask],
            "index_add": lambda: a.index_add(1, target, src[:, :3] * a[:, :3], alpha=2),
            "index_copy": lambda: a.index_copy(1, target, src[:, :3] * a[:, :3]),
            "index_fill": lambda: a.index_fill(1, target, 2.0),
            "index_fill tensor": lambda: a.index_fill(1, target, src[0, 0]),
            "put": lambda: a.put(target, src[0, :3] * a[0, :3]),
            "index_put": lambda: a.index_put((rows,), src * a, accumulate=True),
            "index_put two": lambda: a.index_put((rows, target), src[0, :3] * a[0, :3]),
            "masked_scatter": lambda: a.masked_scatter(mask, src * a),
            "masked_select": lambda: a.masked_select(mask),
            "adaptive_max_pool2d": lambda: F.adaptive_max_pool2d(a.reshape(1, 1, 3, 4), 2),
            "max_unpool2d": lambda: F.max_unpool2d(a.reshape(1, 1, 3, 4)[..., :1, :2],
                                                   lib.tensor([[[[1, 6]]]]), 2),
            "max_pool2d": lambda: F.max_pool2d(a.reshape(1, 1, 3, 4), 2, 1),
            "max_pool2d unbatched": lambda: F.max_pool2d(a.reshape(1, 3, 4), 2, 1),
            "max_pool1d": lambda: F.max_pool1d(a.reshape(1, 3, 4), 2),
            "max_pool3d": lambda: F.max_pool3d(a.reshape(1, 1, 1, 3, 4), (1, 2, 2), 1),
            "nll_loss": lambda: F.nll_loss(a, target),
            "nll_loss weight": lambda: F.nll_loss(a, target, lib.tensor(C4[0]), reduction="sum"),
            "cross_entropy": lambda: F.cross_entropy(a, target)}[name]()


@pytest.mark.parametrize("name", [
    "max(dim)", "min(dim) keepdim", "index_select", "take", "index", "index two",
    "index and slice", "index mask", "index_add", "index_copy", "index_fill",
    "index_fill tensor", "put", "index_put", "index_put two", "masked_scatter",
    "masked_select", "adaptive_max_pool2d", "max_unpool2d", "max_pool2d",
    "max_pool2d unbatched", "max_pool1d", "max_pool3d", "nll_loss", "nll_loss weight",
    "cross_entropy"])
def test_backward_reads_the_unpacked_computed_indices(name):
    def change(lib, t):
        if t.dtype not in (lib.int64, lib.bool):
            return t
        return 3 - t if name.startswith("index_fill") else t.roll(1, -1)

    _check_unpack_feeds_backward(_computed_unpack_program, name, change)


# A node unpacks all it saved as its backward begins, in its pack order: what
# its backward did not read is not handed later to ``grad_fn._saved_<name>``, which unpacks
# again (each read calls the unpack hook, as in PyTorch).
def test_unpacked_in_order_and_read_again_after_a_retained_backward():
    def run(lib):
        log: list = []
        x = lib.tensor(X, requires_grad=True)
        w = lib.tensor(W.T.copy(), requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(
                lambda t: t, lambda t: (log.append(("unpack", t is x, t is w)), t)[1]):
            y = (x * w).sum()
            z = (x @ lib.tensor(W)).sum()  # (backward needs only mat2)
        y.backward(retain_graph=True)
        log.append("read")
        log.append(y.grad_fn.next_functions[0][0]._saved_self is x)
        z.backward(retain_graph=True)
        log.append("read")
        node = z.grad_fn.next_functions[0][0]
        log.append((node.name(), node._saved_self is None, _arr(node._saved_mat2).tolist()))
        return log, _arr(x.grad).tolist()

    assert run(minitorch) == run(torch)


# PyTorch packs batch_norm's running stats before its kernel updates them: the
# pack hook sees the old values (in the tensors themselves); a hook that keeps the tensor (not
# a copy) gives the updated ones when it is unpacked.
@pytest.mark.parametrize("how", ["functional", "module", "torch.batch_norm", "eval"])
@pytest.mark.parametrize("keep", ["tensor", "clone", "list"])
def test_batch_norm_packs_the_running_stats_before_the_update(how, keep):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        log: list = []
        bn = lib.nn.BatchNorm1d(3, momentum=0.5)
        rm, rv = (bn.running_mean, bn.running_var) if how == "module" else (
            lib.tensor([0.5, -1.0, 2.0]), lib.tensor([1.0, 2.0, 0.5]))

        def pack(t):
            log.append(("pack", t is rm, t is rv, _arr(t).tolist()))
            return t if keep == "tensor" else t.clone() if keep == "clone" else \
                (t.tolist(), t.dtype)

        def unpack(p):
            t = p if keep != "list" else lib.tensor(p[0], dtype=p[1])
            log.append(("unpack", _arr(t).tolist()))
            return t

        for step in range(2):
            with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
                if how == "functional":
                    y = lib.nn.functional.batch_norm(x, rm, rv, training=True, momentum=0.5)
                elif how == "module":
                    y = bn(x)
                elif how == "torch.batch_norm":
                    y = lib.batch_norm(x, None, None, rm, rv, True, 0.25, 1e-5, False)
                else:
                    y = lib.nn.functional.batch_norm(x * (step + 1), rm, rv)
            log.append(("forward done", _arr(rm).tolist(), _arr(rv).tolist()))
            (y * y).sum().backward()
        return log, _arr(x.grad).tolist()

    assert run(minitorch) == run(torch)


# An unpack hook that gives negative indices (each index minus the size, 4):
# PyTorch's backward wraps them (take, put, index_fill, indexing) or refuses them with its
# kernel's error (gather, scatter_add, index_select and the index_select in index_add's,
# index_copy's and index_fill's backward, max(dim)...); minitorch's does the same.
def _negative_program(lib, name, a):
    F = lib.nn.functional
    t, rows, index = lib.tensor([1, 0, 3]), lib.tensor([2, 0, 1]), lib.tensor(
        [[0, 2], [1, 3], [3, 0], [2, 2]])
    return {"index_select": lambda: lib.index_select(a, 1, t),
            "index_select dim 0": lambda: lib.index_select(a, 0, t),
            "take": lambda: lib.take(a, t), "gather": lambda: lib.gather(a, 1, index),
            "take_along_dim": lambda: a.take_along_dim(index, 1),
            "index_add": lambda: a.index_add(1, t, a[:, :3] * 2, alpha=2),
            "index_add dim 0": lambda: a.index_add(0, t, a[:3] * 2),
            "index_copy": lambda: a.index_copy(1, t, a[:, :3] * 2),
            "index_fill": lambda: a.index_fill(1, t, 2.0),
            "index_fill tensor": lambda: a.index_fill(1, t, a[0, 0] * 2),
            "put": lambda: a.put(t, a[0, :3] * 2),
            "put accumulate": lambda: a.put(t, a[0, :3] * 2, accumulate=True),
            "index_put": lambda: a.index_put((rows,), a[:3] * 2, accumulate=True),
            "index_put two": lambda: a.index_put((rows, t), a[0, :3] * 2),
            "index": lambda: a[rows], "index two": lambda: a[rows, t],
            "index and slice": lambda: a[1:, t],
            "scatter": lambda: a.scatter(1, index[:3], a[:3, :2] * 2),
            "scatter_add": lambda: a.scatter_add(1, index[:3], a[:3, :2] * 2),
            "scatter_reduce": lambda: a.scatter_reduce(1, index[:3], a[:3, :2] * 2, "sum"),
            "max(dim)": lambda: lib.max(a, 1)[0], "min(dim) keepdim": lambda: a.min(0, True)[0],
            "median(dim)": lambda: lib.median(a, 1)[0], "kthvalue": lambda: lib.kthvalue(a, 2)[0],
            "mode": lambda: lib.mode(a, 1)[0], "sort": lambda: lib.sort(a, 1)[0],
            "cummax": lambda: lib.cummax(a, 1)[0],
            "max_pool2d": lambda: F.max_pool2d(a.reshape(1, 1, 4, 4), 2, 1)}[name]()


@pytest.mark.parametrize("name", [
    "index_select", "index_select dim 0", "take", "gather", "take_along_dim", "index_add",
    "index_add dim 0", "index_copy", "index_fill", "index_fill tensor", "put",
    "put accumulate", "index_put", "index_put two", "index", "index two", "index and slice",
    "scatter", "scatter_add", "scatter_reduce", "max(dim)", "min(dim) keepdim", "median(dim)",
    "kthvalue", "mode", "sort", "cummax", "max_pool2d"])
def test_unpacked_negative_indices_as_torch(name):
    def run(lib):
        a = lib.tensor(np.arange(16.0, dtype=np.float32).reshape(4, 4) % 7, requires_grad=True)

        def unpack(t):
            return t - 4 if t.dtype in (lib.int64, lib.int32) else t

        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), unpack):
            y = _negative_program(lib, name, a)
        return _error(lambda: (y * y).sum().backward()) or _arr(a.grad).tolist()

    assert run(minitorch) == run(torch)


@pytest.mark.parametrize("shape,dim", [((4, 4), 1), ((4, 4), 0), ((4,), 0), ((2, 4, 3), 1),
                                       ((2, 4, 3), 2), ((4, 1), 1)])
@pytest.mark.parametrize("index", [[1, -3, 9], [1, 9, -3], [0, 2]])
def test_index_select_out_of_range_error_as_torch(shape, dim, index):
    # along dim 1 PyTorch's kernel names the first bad index
    def run(lib):
        x = lib.tensor(np.zeros(shape, np.float32))
        return _error(lambda: lib.index_select(x, dim, lib.tensor(index)))
# a node unpacks what it saved in PyTorch's order as its backward begins, not in
# the order minitorch's backward reads it (the tutorial's ``a * b`` unpacks ``b`` first).
@pytest.mark.parametrize("name", OP_PROGRAMS)
def test_each_node_unpacks_in_torchs_order(name):
    def run(lib):
        a = lib.tensor(A4, requires_grad=True)
        log: list = []
        inputs = {"a": a}

        def unpack(p):
            log.append(("unpack", str(p.dtype).rpartition(".")[2], *_describe(lib, p, inputs)))
            return p

        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y, others = _op_program(lib, name, a)
        inputs.update(others)
        (y * y).sum().backward()
        return log

    assert run(minitorch) == run(torch)


# embedding_bag's backward reads what it saved (indices, offsets,
# per_sample_weights, the weight, offset2bag, bag_size, max_indices) as the unpack hook gave
# it, as PyTorch's CPU kernel does: a sum or mean sends each bag's gradient (offset2bag) to each
# index's row, a mean divides by bag_size, a maximum sends each nonempty bag's (bag_size)
# gradient to max_indices; an empty offset2bag (PyTorch's fast path) is rebuilt from offsets.
EBAG_W = np.random.default_rng(5).standard_normal((6, 3)).astype(np.float32)
EBAG_IN, EBAG_OFF = [1, 2, 4, 1, 5, 0], [0, 2, 2, 5]  # (the second bag is empty)
EBAG_CASES = {
    "sum": {"mode": "sum"}, "mean": {}, "max": {"mode": "max"},
    "sum weights": {"mode": "sum", "per_sample_weights": True},
    "sum padding": {"mode": "sum", "padding_idx": 1}, "mean padding": {"padding_idx": 1},
    "max padding": {"mode": "max", "padding_idx": 1},
    "sum weights padding": {"mode": "sum", "per_sample_weights": True, "padding_idx": 2},
    "mean last offset": {"include_last_offset": True, "offsets": [0, 2, 2, 6]},
    "sum weights last offset": {"mode": "sum", "per_sample_weights": True,
                                "include_last_offset": True, "offsets": [0, 2, 2, 6]},
    "mean past the last offset": {"include_last_offset": True, "offsets": [0, 2, 4]},
    "max past the last offset": {"mode": "max", "include_last_offset": True,
                                 "offsets": [0, 2, 4]},
    "mean 2-d": {"input": [[1, 2, 4], [1, 5, 0]]}, "max 2-d": {"mode": "max", "input": [
        [1, 2, 4], [1, 5, 0]]},
    "sum 2-d weights": {"mode": "sum", "input": [[1, 2, 4], [1, 5, 0]],
                        "per_sample_weights": True},
    "sum float64": {"mode": "sum", "dtype": "float64"},
    "mean float64 padding": {"dtype": "float64", "padding_idx": 5},
    "mean scale_grad_by_freq": {"scale_grad_by_freq": True},
    "sum int32": {"mode": "sum", "int32": True}, "mean int32": {"int32": True},
    "max int32 indices": {"mode": "max", "int32": "indices"},
}


def _ebag_program(lib, case):
    kw = dict(EBAG_CASES[case])
    dtype = getattr(lib, kw.pop("dtype", "float32"))
    inp, off = kw.pop("input", EBAG_IN), kw.pop("offsets", EBAG_OFF)
    int32 = kw.pop("int32", False)
    w = lib.tensor(EBAG_W, dtype=dtype, requires_grad=True)
    idx = lib.tensor(inp, dtype=lib.int32 if int32 else lib.int64)
    offsets = None if np.ndim(inp) == 2 else lib.tensor(
        off, dtype=lib.int32 if int32 is True else lib.int64)
    if kw.pop("per_sample_weights", False):
        kw["per_sample_weights"] = lib.tensor(
            np.linspace(-1.5, 2, idx.numel()).reshape(idx.shape), dtype=dtype,
            requires_grad=True)
    return w, kw.get("per_sample_weights"), lambda: lib.nn.functional.embedding_bag(
        idx, w, offsets, **kw)


def _ebag_run(lib, case, pack, unpack, module=False):
    """The bags, and the gradients of the weight and the per-sample weights (or the error) of
    a backward through embedding_bag under the hooks."""
    w, psw, bag = _ebag_program(lib, case)
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = bag()
    scale = lib.tensor(np.arange(1.0, y.numel() + 1).reshape(y.shape), dtype=y.dtype)
    err = _error(lambda: (y * scale).sum().backward())
    return err or [t if t is None else t.detach().numpy().astype(np.float64)
                   for t in (y, w.grad, None if psw is None else psw.grad)]


def _ebag_same(mine, theirs) -> None:
    """The same error, or the same gradients (float32 sums in another order: close)."""
    if isinstance(theirs, tuple) or isinstance(mine, tuple):
        if mine != theirs:
            pytest.fail(f"{mine!r} != torch's {theirs!r}")
        return
    for a, b in zip(mine, theirs, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def _ebag_changes(lib, case, which):
    """Pack hook and unpack hook that change the ``which``-th tensor packed (in PyTorch's
    order) as ``change(t)``."""
    def hooks(change):
        count = [0]

        def pack(t):
            count[0] += 1
            return count[0] - 1, t.clone()

        def unpack(p):
            return change(p[1]) if p[0] == which else p[1]

        return pack, unpack
    return hooks


def _ebag_names(lib, case):
    """The names of what embedding_bag packs, in PyTorch's order."""
    names: list = []
    w, psw, bag = _ebag_program(lib, case)
    with lib.autograd.graph.saved_tensors_hooks(lambda t: names.append(t) or t, lambda t: t):
        bag()
    out = ["indices", "offsets"] + (["per_sample_weights", "weight"] if psw is not None else [])
    return out + ["offset2bag", "bag_size", "max_indices"][:len(names) - len(out)]


@pytest.mark.parametrize("case", list(EBAG_CASES))
@pytest.mark.parametrize("how", ["as is", "clone", "saved as arrays"])
def test_embedding_bag_backward_through_hooks_as_torch(case, how):
    def run(lib):
        if how == "as is":
            return _ebag_run(lib, case, lambda t: t, lambda t: t)
        if how == "clone":
            return _ebag_run(lib, case, lambda t: t.clone(), lambda t: t)
        return _ebag_run(lib, case, lambda t: (t.numpy().copy(), t.dtype),  # (a disk's round
                         lambda p: lib.tensor(p[0], dtype=p[1]))          # trip: new tensors)

    _ebag_same(run(minitorch), run(torch))


def _ebag_modified(lib, name, t):
    """A changed saved tensor that PyTorch's kernel still reads within bounds."""
    if name == "offsets":  # the bags between the first and the last start one earlier (read
        return lib.cat([t[:1], (t[1:-1] - 1).clamp(min=0), t[-1:]])  # where offset2bag is empty)
    if name in ("indices", "offset2bag"):
        return t.flip(0) if name == "indices" or t.numel() else t
    if name == "bag_size":
        return t + 1  # (a mean divides by one more; a maximum sends an empty bag's gradient)
    if name == "max_indices":
        return (t + 1) % 6
    return t * 2  # the per-sample weights or the weight


# each case with each tensor that PyTorch's embedding_bag saves for it
EBAG_SAVED = [(case, name) for case in EBAG_CASES for name in _ebag_names(torch, case)]


@pytest.mark.parametrize("case, name", EBAG_SAVED)
def test_embedding_bag_backward_reads_what_the_unpack_hook_gave(case, name):
    def run(lib):
        names = _ebag_names(lib, case)
        if name not in names:
            return None
        which = names.index(name)
        hooks = _ebag_changes(lib, case, which)
        return _ebag_run(lib, case, *hooks(lambda t: _ebag_modified(lib, name, t)))

    _ebag_same(run(minitorch), run(torch))


# Saved tensors of another type or shape: PyTorch's checks and errors (its kernel's reads
# outside the tensors, such as an index past the weight in a sum, are left out).
EBAG_BAD = {
    "float indices": ("indices", lambda lib, t: t.float()),
    "float offsets": ("offsets", lambda lib, t: t.double()),
    "int32 indices": ("indices", lambda lib, t: t.int()),
    "int32 offsets": ("offsets", lambda lib, t: t.int()),
    "float offset2bag": ("offset2bag", lambda lib, t: t.float()),
    "int32 offset2bag": ("offset2bag", lambda lib, t: t.int()),
    "empty offset2bag": ("offset2bag", lambda lib, t: t[:0]),
    "short offset2bag": ("offset2bag", lambda lib, t: t[:2] if t.numel() else t),
    "float bag_size": ("bag_size", lambda lib, t: t.float()),
    "int32 bag_size": ("bag_size", lambda lib, t: t.int()),
    "float max_indices": ("max_indices", lambda lib, t: t.float()),
    "int32 max_indices": ("max_indices", lambda lib, t: t.int()),
    "1-d max_indices": ("max_indices", lambda lib, t: t[:, 0] if t.dim() == 2 else t),
    "negative max_indices": ("max_indices", lambda lib, t: t - 6 if t.dim() == 2 else t),
    "max_indices past the weight": ("max_indices",
                                    lambda lib, t: t + 6 if t.dim() == 2 else t),
}


@pytest.mark.parametrize("case", ["sum", "mean", "max", "sum weights", "sum float64",
                                  "mean int32"])
@pytest.mark.parametrize("bad", list(EBAG_BAD))
def test_embedding_bag_unpacked_of_another_type_as_torch(case, bad):
    name, change = EBAG_BAD[bad]

    def run(lib):
        hooks = _ebag_changes(lib, case, _ebag_names(lib, case).index(name))
        return _ebag_run(lib, case, *hooks(lambda t: change(lib, t)))

    _ebag_same(run(minitorch), run(torch))


def test_embedding_bag_module_backward_reads_the_unpacked_offset2bag():
    def run(lib):
        lib.manual_seed(0)
        bag = lib.nn.EmbeddingBag(6, 3, mode="mean")
        with lib.no_grad():
            bag.weight.copy_(lib.tensor(EBAG_W))
        with lib.autograd.graph.saved_tensors_hooks(
                lambda t: t, lambda t: t.flip(0) if t.dtype == lib.int64 and t.numel() == 6
                and t.max() <= 3 else t):  # (the offset2bag [0, 0, 2, 2, 2, 3])
            y = bag(lib.tensor(EBAG_IN), lib.tensor(EBAG_OFF))
        (y * lib.arange(1.0, 13).reshape(4, 3)).sum().backward()
        return _arr(bag.weight.grad).tolist()

    assert run(minitorch) == run(torch)


# A node's pre-hooks run before it unpacks what it saved (PyTorch unpacks inside the node's
# apply): a pre-hook registered after the forward still comes first, and when one raises,
# nothing was unpacked, so reading ``_saved_self`` later calls the unpack hook.
@pytest.mark.parametrize("op", ["mul", "mm", "div"])
@pytest.mark.parametrize("raises", [False, True])
def test_pre_hooks_run_before_the_saved_tensors_are_unpacked(op, raises):
    def run(lib):
        log: list = []
        a = lib.tensor(X, requires_grad=True)
        b = lib.tensor(X + 1.0, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(
                lambda t: t, lambda t: (log.append("unpack"), t)[1]):
            y = a * b if op == "mul" else a @ b.T if op == "mm" else a / b

        def pre_hook(grads):
            log.append("pre-hook")
            if raises:
                raise ValueError("stop")

        y.grad_fn.register_prehook(pre_hook)
        y.grad_fn.register_hook(lambda gi, go: log.append("post-hook"))
        try:
            y.sum().backward(retain_graph=True)
        except ValueError:
            log.append("raised")
        log.append("read")
        y.grad_fn._saved_self  # noqa: B018 - calls the unpack hook
        return log

    assert run(minitorch) == run(torch)


# A pack hook that raises: PyTorch packs batch_norm's inputs before its kernel runs, so the
# running statistics keep their old values (and the error is the hook's).
@pytest.mark.parametrize("how", ["functional", "module"])
def test_batch_norm_stats_unchanged_when_the_pack_hook_raises(how):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        bn = lib.nn.BatchNorm1d(3)
        rm, rv = (bn.running_mean, bn.running_var) if how == "module" else (
            lib.zeros(3), lib.ones(3))

        def pack(t):
            raise ZeroDivisionError("pack")

        with lib.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            try:
                if how == "module":
                    bn(x)
                else:
                    lib.nn.functional.batch_norm(x, rm, rv, training=True)
            except ZeroDivisionError as error:
                seen = str(error)
        return seen, _arr(rm).tolist(), _arr(rv).tolist()

    assert run(minitorch) == run(torch)

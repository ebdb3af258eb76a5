"""``torch.utils.swap_tensors`` and ``torch.__future__``'s conversion switches, as the recipe
"Extension points in nn.Module for load_state_dict and tensor subclasses" uses them, each case
run with both libraries and compared (values, classes, identities and errors)."""

from __future__ import annotations

import weakref

import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")


def _run(lib, case):
    out = []
    try:
        case(lib, out)
    except Exception as e:  # the error is part of what is compared
        out.append((type(e).__name__, str(e)))
    return [str(x).replace("minitorch", "torch") for x in out]


def _plain_pair(lib, out):
    t1, t2 = lib.arange(2), lib.arange(3)
    lib.utils.swap_tensors(t1, t2)
    out += [t1, t2, t1.shape, t2.dtype]


def _class_and_autograd_state(lib, out):
    a = lib.ones(2, requires_grad=True)
    p = lib.nn.Parameter(lib.zeros(3))
    lib.utils.swap_tensors(a, p)
    out += [type(a).__name__, a, type(p).__name__, p, a.is_leaf, p.requires_grad]


def _attributes_grad_and_version(lib, out):
    x, y = lib.arange(3.0), lib.ones(2)
    x.foo = 1
    k = lib.ones(2, requires_grad=True)
    k.grad = lib.full((2,), 5.0)
    lib.utils.swap_tensors(x, y)
    lib.utils.swap_tensors(k, x)
    x.add_(1)
    out += [y.foo, hasattr(x, "foo"), x._version, y._version, k.grad, x.grad, x]


def _weakref_t1(lib, out):
    x, y = lib.ones(2), lib.zeros(2)
    r = weakref.ref(x)
    lib.utils.swap_tensors(x, y)
    out.append(r)


def _weakref_t2(lib, out):
    x, y = lib.ones(2), lib.zeros(2)
    r = weakref.ref(y)
    lib.utils.swap_tensors(x, y)
    out.append(r)


def _not_a_tensor(lib, out):
    lib.utils.swap_tensors(lib.ones(2), 3)


def _poisoned_accumulator(lib, out):
    w = lib.ones(2, requires_grad=True)
    loss = (w * 3).sum()
    z = lib.zeros(2, requires_grad=True)
    lib.utils.swap_tensors(w, z)
    out += [w, z]
    loss.backward()


def _new_graph_after_swap(lib, out):
    m = lib.nn.Linear(2, 1)
    lib.manual_seed(0)
    m(lib.ones(1, 2)).sum().backward()
    w = m.weight
    lib.utils.swap_tensors(m.weight, lib.nn.Parameter(lib.zeros(1, 2)))
    m.weight.grad = None
    m(lib.ones(1, 2)).sum().backward()
    out += [m.weight, w is m.weight, m.weight.grad]


def _future_flags(lib, out):
    fut = lib.__future__
    out += [fut.get_swap_module_params_on_conversion(),
            fut.get_overwrite_module_params_on_conversion()]
    fut.set_swap_module_params_on_conversion(True)
    out.append(fut.get_swap_module_params_on_conversion())
    fut.set_swap_module_params_on_conversion(False)


def _overwrite_on_conversion(lib, out):
    lin = lib.nn.Linear(2, 2)
    lin(lib.ones(1, 2)).sum().backward()
    w0 = lin.weight
    lib.__future__.set_overwrite_module_params_on_conversion(True)
    try:
        lin.double()
    finally:
        lib.__future__.set_overwrite_module_params_on_conversion(False)
    out += [lin.weight is w0, type(lin.weight).__name__, lin.weight.dtype, w0.dtype,
            lin.weight.requires_grad, lin.weight.grad.dtype, lin.weight.grad.requires_grad,
            w0.grad.dtype]
    w1 = lin.weight
    lin.float()
    out += [lin.weight is w1, w1.dtype]


def _swap_on_conversion(lib, out):
    lin = lib.nn.Linear(2, 2)
    w0 = lin.weight
    lib.__future__.set_swap_module_params_on_conversion(True)
    try:
        lin.double()
    finally:
        lib.__future__.set_swap_module_params_on_conversion(False)
    out += [lin.weight is w0, w0.dtype, type(w0).__name__]


CASES = [_plain_pair, _class_and_autograd_state, _attributes_grad_and_version, _weakref_t1,
         _weakref_t2, _not_a_tensor, _poisoned_accumulator, _new_graph_after_swap,
         _future_flags, _overwrite_on_conversion, _swap_on_conversion]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__.strip("_") for c in CASES])
def test_like_torch(case):
    assert _run(minitorch, case) == _run(torch, case)


# Tensor.module_load, the hook the recipe's __torch_function__ intercepts
def _module_load_copies(lib, out):
    with lib.no_grad():
        dest = lib.nn.Parameter(lib.zeros(2, 3))
    src = lib.arange(6, dtype=lib.float64).reshape(2, 3).requires_grad_()
    got = dest.module_load(src)
    out += [got, type(got).__name__, got.dtype, got.requires_grad, dest, dest._version]


def _module_load_assigns(lib, out):
    dest = lib.nn.Parameter(lib.zeros(2, 3))
    src = lib.arange(6, dtype=lib.float64).reshape(2, 3).requires_grad_()
    got = dest.module_load(src, assign=True)
    out += [got, type(got).__name__, got.dtype, got.requires_grad, dest]


def _module_load_bad_shape(lib, out):
    with lib.no_grad():
        lib.zeros(2, 3).module_load(lib.ones(4))


def _module_load_is_a_tensor_method(lib, out):
    out.append(repr(lib.Tensor.module_load).split(" at ")[0])


CASES2 = [_module_load_copies, _module_load_assigns, _module_load_bad_shape,
          _module_load_is_a_tensor_method]


@pytest.mark.parametrize("case", CASES2, ids=[c.__name__.strip("_") for c in CASES2])
def test_module_load_like_torch(case):
    assert _run(minitorch, case) == _run(torch, case)

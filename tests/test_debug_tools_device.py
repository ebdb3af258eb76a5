"""The autograd debugging tools on a device: saved-tensor hooks (``save_on_cpu``), checkpointing,
anomaly mode, multi-grad hooks and ``torch.func``.

On a machine with a GPU the device is the real one (CuPy); elsewhere (CI) it is the package's
pretend GPU, whose arrays refuse to mix with NumPy's as CuPy's do. Each tool must keep a
program's tensors where they were: gradients on the device, values equal to the CPU's.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch
from minitorch import _backend
from minitorch.backends.pretend import PretendGPU

REAL_GPU = minitorch.cuda.is_available()
RNG = np.random.default_rng(7)
X = RNG.standard_normal((5, 4)).astype(np.float32)
W = RNG.standard_normal((4, 3)).astype(np.float32)


@pytest.fixture
def cuda():
    """The device "cuda": the GPU where there is one, the pretend GPU otherwise."""
    if REAL_GPU:
        yield minitorch.device("cuda", 0)
        return
    old = _backend.register_backend("cuda", PretendGPU())
    old_flag = _backend.devices_in_use
    try:
        yield minitorch.device("cuda", 0)
    finally:
        _backend.register_backend("cuda", old)
        _backend.devices_in_use = old_flag


def _on(t, device) -> bool:
    return t.device == device


def _close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(a.detach().cpu().numpy(), b.detach().cpu().numpy(),
                               rtol=rtol, atol=atol)


def _leaves(device):
    x = minitorch.tensor(X, device=device, requires_grad=True)
    w = minitorch.tensor(W, device=device, requires_grad=True)
    return x, w


def test_save_on_cpu_packs_to_the_cpu_and_unpacks_to_the_device(cuda):
    t = minitorch.tensor(X, device=cuda)
    for pin in (False, True):
        hooks = minitorch.autograd.graph.save_on_cpu(pin_memory=pin)
        packed = hooks.pack_hook(t)
        assert packed[1].device == minitorch.device("cpu")
        back = hooks.unpack_hook(packed)
        assert _on(back, cuda)
        _close(back, t)


def test_backward_through_save_on_cpu_on_the_device(cuda):
    grads = {}
    for device in ("cpu", cuda):
        x, w = _leaves(device)
        with minitorch.autograd.graph.save_on_cpu(pin_memory=True):
            y = (x @ w).tanh().pow(2).sum()
        y.backward()
        assert _on(x.grad, x.device) and _on(w.grad, w.device)
        grads[str(device)] = (x.grad, w.grad)
    for a, b in zip(grads["cpu"], grads[str(cuda)]):
        _close(a, b)


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_checkpoint_with_dropout_on_the_device(cuda, use_reentrant):
    """Recomputation draws the same dropout mask as the forward did, on the device too."""
    from minitorch.utils.checkpoint import checkpoint

    def block(x, w):
        return minitorch.nn.functional.dropout((x @ w).relu(), p=0.5, training=True)

    def grads(device, checkpointed):
        minitorch.manual_seed(3)
        x, w = _leaves(device)
        out = checkpoint(block, x, w, use_reentrant=use_reentrant) if checkpointed \
            else block(x, w)
        (out * out).sum().backward()
        assert _on(out, x.device) and _on(w.grad, x.device)
        return out, x.grad, w.grad

    plain = grads(cuda, False)
    for a, b in zip(plain, grads(cuda, True)):
        _close(a, b)
    for a, b in zip(plain, grads("cpu", True)):
        _close(a, b)


def test_anomaly_mode_names_the_node_on_the_device(cuda):
    x = minitorch.tensor([0.0, 1.0], device=cuda, requires_grad=True)
    with minitorch.autograd.detect_anomaly(check_nan=True):
        y = x.sqrt()  # the gradient of sqrt at 0 is inf; times 0 gives NaN
        with pytest.warns(UserWarning, match="Traceback of forward call"), \
                pytest.raises(RuntimeError,
                              match="Function 'SqrtBackward0' returned nan values in its 0th"):
            (y * 0).sum().backward()


def test_multi_grad_hook_sees_device_gradients(cuda):
    x, w = _leaves(cuda)
    seen = []
    minitorch.autograd.graph.register_multi_grad_hook(
        (x, w), lambda gs: seen.append([g.device for g in gs]))
    (x @ w).sum().backward()
    assert seen == [[cuda, cuda]]


def test_func_transforms_keep_the_device(cuda):
    from minitorch import func

    def f(x, w):
        return (x @ w).tanh().sum()

    results = {}
    for device in ("cpu", cuda):
        x, w = (t.detach() for t in _leaves(device))
        g = func.grad(f, argnums=(0, 1))(x, w)
        jac = func.jacrev(lambda v, w=w: (v @ w).sin())(x[0])
        _, tangent = func.jvp(lambda v, w=w: (v @ w).exp(), (x[0],), (minitorch.ones_like(x[0]),))
        batched = func.vmap(lambda row, w=w: (row @ w).sum())(x)
        outs = (*g, jac, tangent, batched)
        assert all(_on(o, x.device) for o in outs)
        results[str(device)] = outs
    for a, b in zip(results["cpu"], results[str(cuda)]):
        _close(a, b)


def test_func_edge_paths_keep_the_device(cuda):
    """The paths that build tensors of their own: an output that does not depend on the input
    (a zero Jacobian), forward mode's basis, the Hessian, and vmap over an empty batch."""
    from minitorch import func

    x = minitorch.tensor(X, device=cuda)
    unrelated = func.jacrev(lambda v: v.detach() * 2)(x[0])
    forward = func.jacfwd(lambda v: (v * v).sum())(x[0])
    no_tangent_path = func.jacfwd(lambda v: minitorch.ones(2, device=v.device))(x[0])
    hess = func.hessian(lambda v: (v ** 3).sum())(x[0])
    empty = func.vmap(lambda row: row.sum())(x[:0])
    empty_arg = func.vmap(lambda row, c: row * c, in_dims=(0, None))(x[:0], x[0])
    for t in (unrelated, forward, no_tangent_path, hess, empty, empty_arg):
        assert _on(t, cuda), t
    assert unrelated.shape == (4, 4) and not unrelated.cpu().numpy().any()
    assert empty.shape == (0,) and empty_arg.shape == (0, 4)
    _close(hess, minitorch.diag(6 * x[0]))

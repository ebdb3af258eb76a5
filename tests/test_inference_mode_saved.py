"""inference_mode, ``Tensor.is_inference``, the version counter and ``_saved_<name>`` attributes.

PyTorch is the oracle: each scenario runs on both libraries and must give the same values,
the same flags and the same exception types and messages.
"""

from __future__ import annotations

import numpy as np
import pytest

import minitorch

torch = pytest.importorskip("torch", reason="PyTorch is the oracle for these semantics")

LIBS = [minitorch, torch]


def _outcome(fn):
    """The value of ``fn()``, or ``(exception type name, message)`` if it raised."""
    try:
        return fn()
    except Exception as e:
        return type(e).__name__, str(e)


def _scenario(lib):
    w = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        inside = lib.is_inference_mode_enabled(), lib.is_grad_enabled()
        y = w * 2
        y_view = w.view(3)           # a view of a normal tensor stays normal
        y.add_(1)                    # in-place inside: allowed, not counted
        version_inside = _outcome(lambda: y._version)
    with lib.no_grad():
        z = w * 2
    return {
        "inside": inside,
        "outside": (lib.is_inference_mode_enabled(), lib.is_grad_enabled()),
        "y": (y.requires_grad, y.is_inference(), y.tolist()),
        "view": y_view.is_inference(),
        "w": w.is_inference(),
        "version_inside": version_inside,
        "version_outside": _outcome(lambda: y._version),
        "inplace_outside": _outcome(lambda: y.add_(1)),
        "saved_for_backward": _outcome(lambda: w * y),
        "not_saved": _outcome(lambda: (w + y).requires_grad),
        "clone": y.clone().is_inference(),  # (PyTorch gives this clone _version 1: a quirk)
        "no_grad_tensor": (z.is_inference(), z._version),
    }


def test_inference_mode_matches_pytorch():
    mine, ref = _scenario(minitorch), _scenario(torch)
    assert mine == ref


@pytest.mark.parametrize("lib", LIBS, ids=lambda m: m.__name__)
def test_inference_mode_false_and_nesting(lib):
    with lib.no_grad():
        with lib.inference_mode(False):
            assert lib.is_grad_enabled() and not lib.is_inference_mode_enabled()
            assert not lib.ones(1).is_inference()
        assert not lib.is_grad_enabled()
    with lib.inference_mode():
        with lib.inference_mode(False):
            assert lib.is_grad_enabled() and not lib.ones(1).is_inference()
        assert lib.ones(1).is_inference()
    assert lib.is_grad_enabled() and not lib.is_inference_mode_enabled()


@pytest.mark.parametrize("lib", LIBS, ids=lambda m: m.__name__)
def test_inference_mode_decorator(lib):
    @lib.inference_mode()
    def f(x):
        return x * 2

    out = f(lib.ones(2, requires_grad=True))
    assert out.is_inference() and not out.requires_grad
    assert lib.is_grad_enabled()


def test_version_counter_and_detach_match_pytorch():
    def run(lib):
        a = lib.ones(3)
        a.add_(1)
        a.mul_(2)
        _ = a + 1
        a[0] = 5
        d = a.detach()
        d.zero_()
        x = lib.ones(3, requires_grad=True)
        y = x.exp()
        y.detach().add_(1)  # shares y's version counter: y.exp's saved result is stale
        return a._version, d._version, _outcome(lambda: y.sum().backward())

    assert run(minitorch) == run(torch)


def _mm_saved(lib, need_x, need_w):
    x = lib.tensor(np.ones((1, 5), dtype=np.float32), requires_grad=need_x)
    w = lib.tensor(np.arange(15, dtype=np.float32).reshape(5, 3), requires_grad=need_w)
    node = lib.mm(x, w).grad_fn
    saved_self, saved_mat2 = node._saved_self, node._saved_mat2
    return (None if saved_self is None else saved_self.tolist(),
            None if saved_mat2 is None else saved_mat2.tolist())


@pytest.mark.parametrize("need_x, need_w", [(False, True), (True, False), (True, True)])
def test_mm_saves_what_the_other_gradient_needs(need_x, need_w):
    assert _mm_saved(minitorch, need_x, need_w) == _mm_saved(torch, need_x, need_w)


@pytest.mark.parametrize("lib", LIBS, ids=lambda m: m.__name__)
def test_saved_attribute_after_backward_raises(lib):
    x = lib.ones(2, 2, requires_grad=True)
    out = lib.mm(x, x)
    node = out.grad_fn
    assert node._saved_self is not None
    out.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = node._saved_self


def test_mv_and_dot_saved_names_match_pytorch():
    def run(lib):
        m = lib.ones(2, 3, requires_grad=True)
        v = lib.ones(3)
        mv = lib.mv(m, v).grad_fn
        d = lib.dot(v, m[0]).grad_fn
        return (mv._saved_self is None, mv._saved_vec.tolist(),
                d._saved_self.tolist(), d._saved_tensor is None)

    assert run(minitorch) == run(torch)


def test_inference_tensors_are_per_thread_and_the_quick_gate_resets():
    """Tensors skip the thread-local inference flag while no inference_mode block is open
    anywhere (``grad_mode._inference_blocks``); the flag itself stays per thread."""
    import threading

    from minitorch.autograd import grad_mode

    assert grad_mode._inference_blocks == 0
    x = minitorch.ones(2)
    assert not (x * 2).is_inference()
    seen = {}
    inside, done = threading.Event(), threading.Event()

    def other_thread():
        inside.wait()
        seen["other"] = (x * 2).is_inference()  # main is in inference mode, this thread is not
        done.set()

    t = threading.Thread(target=other_thread)
    t.start()
    with minitorch.inference_mode():
        assert grad_mode._inference_blocks == 1
        assert (x * 2).is_inference()
        with minitorch.inference_mode(False):
            assert not (x * 2).is_inference()
        assert (x * 2).is_inference()
        inside.set()
        done.wait(10)
    t.join()
    assert seen == {"other": False}
    assert grad_mode._inference_blocks == 0
    assert not (x * 2).is_inference()

    @minitorch.inference_mode()
    def decorated():
        return (x * 2).is_inference()

    assert decorated() and grad_mode._inference_blocks == 0


# the autograd notes' inference-mode rules
@pytest.mark.parametrize("how", ["requires_grad_()", "requires_grad ="])
def test_requires_grad_on_an_inference_tensor_outside_inference_mode_raises(how):
    """``requires_grad_()``, or setting ``requires_grad``, on a tensor made in inference mode
    raises PyTorch's error outside inference mode (after the dtype's); False, and True inside
    inference mode, are allowed."""
    def run(lib):
        def set_to(t, value):
            if how == "requires_grad_()":
                return t.requires_grad_(value).requires_grad
            t.requires_grad = value
            return t.requires_grad

        with lib.inference_mode():
            r, n = lib.ones(2), lib.ones(2, dtype=lib.long)
        seen = [_outcome(lambda: set_to(r, True)), _outcome(lambda: set_to(n, True))]
        seen.append(_outcome(lambda: set_to(r, False)))
        with lib.inference_mode():
            seen.append(_outcome(lambda: set_to(r, True)))
        seen.append(_outcome(lambda: set_to(r, False)))
        seen.append(_outcome(lambda: set_to(lib.ones(2), True)))
        return seen

    assert run(minitorch) == run(torch)

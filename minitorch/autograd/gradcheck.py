"""Checking gradients against finite differences: ``gradcheck`` and ``gradgradcheck``.

The derivative of ``f`` at ``x`` along one coordinate is close to the *central difference*
``(f(x + eps) - f(x - eps)) / (2 eps)``. ``gradcheck`` compares, for every input coordinate and
every output element, that number with what autograd computes. Use float64 inputs: with float32
the rounding error of the difference swamps the comparison.

Example:
    >>> import minitorch
    >>> x = minitorch.randn(3, dtype=minitorch.float64, requires_grad=True)
    >>> minitorch.autograd.gradcheck(lambda t: (t * t.sin()).sum(), (x,))
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from minitorch._tensor import Tensor
from minitorch.autograd.engine import grad as _grad

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck", "numerical_jacobian",
           "analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when autograd and finite differences disagree."""


def _outputs(func, inputs) -> tuple:
    out = func(*inputs)
    return (out,) if isinstance(out, Tensor) else tuple(out)


def numerical_jacobian(func: Callable, inputs: Sequence[Tensor], eps: float = 1e-6) -> list:
    """Central-difference Jacobians: ``J[i][j]`` has shape (numel of output j, numel of input i)."""
    inputs = tuple(inputs)
    outs = _outputs(func, inputs)
    jac = [[np.zeros((o.numel(), t.numel())) for o in outs] for t in inputs]
    for i, t in enumerate(inputs):
        if not (isinstance(t, Tensor) and t.requires_grad):
            continue
        data = t._data  # nudged in place, element by element in row-major order (whatever
        for k in range(data.size):  # its layout: a reshape of a column-major one is a copy)
            at = np.unravel_index(k, data.shape)
            orig = data[at].item()
            data[at] = orig + eps
            plus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            data[at] = orig - eps
            minus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            data[at] = orig
            for j in range(len(outs)):
                jac[i][j][:, k] = (plus[j] - minus[j]) / (2 * eps)
    return jac


def analytical_jacobian(func: Callable, inputs: Sequence[Tensor]) -> list:
    """Jacobians from autograd, one backward per output element."""
    inputs = tuple(inputs)
    diff = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]
    outs = _outputs(func, inputs)
    jac = [[np.zeros((o.numel(), t.numel())) for o in outs] for t in inputs]
    for j, o in enumerate(outs):
        if not o.requires_grad:
            continue
        for r in range(o.numel()):
            seed = np.zeros(o.numel(), dtype=o._data.dtype)
            seed[r] = 1
            from minitorch._tensor import _wrap

            grads = _grad(o, diff, _wrap(seed.reshape(o._data.shape)), retain_graph=True,
                          allow_unused=True)
            gi = iter(grads)
            for i, t in enumerate(inputs):
                if isinstance(t, Tensor) and t.requires_grad:
                    g = next(gi)
                    if g is not None:
                        jac[i][j][r, :] = g._data.astype(np.float64).reshape(-1)
    return jac


def gradcheck(func: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Compare autograd's Jacobian of ``func`` at ``inputs`` with finite differences.

    Returns True when they agree within ``atol + rtol * |numerical|``; otherwise raises a
    :class:`GradcheckError` that shows both Jacobians as PyTorch prints them, one row per
    input element and one column per output element (or returns False when
    ``raise_exception=False``). PyTorch's other keywords are accepted: minitorch runs the
    one full (slow-mode) comparison whatever ``fast_mode`` says, and has no forward-mode AD
    for ``check_forward_ad`` to check.
    """
    from minitorch import _creation

    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and t.requires_grad and t.dtype.name != "float64":
            import warnings

            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point. "
                "This check will likely fail if all the inputs are not of double precision "
                "floating point. ", UserWarning, stacklevel=2)
    numerical = numerical_jacobian(func, inputs, eps)
    analytical = analytical_jacobian(func, inputs)
    checked = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    for j in range(len(numerical[0]) if numerical else 0):  # output by output, as PyTorch
        for i in checked:
            n, a, t = numerical[i][j], analytical[i][j], inputs[i]
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                # PyTorch's layout: (numel of input i, numel of output j), in the input's dtype
                n, a = (_creation.tensor(m.T, dtype=t.dtype) for m in (n, a))
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{n}\nanalytical:{a}\n"
                )
    return True


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """Check second derivatives: ``gradcheck`` of the gradient of ``func`` (via create_graph).

    Without ``grad_outputs``, the outputs that require grad get random ones drawn as PyTorch
    draws them (``make_tensor`` in ``[-1, 1)`` from the global generator), so the random
    numbers drawn after the check are PyTorch's too.
    """
    from minitorch import _creation, _dtype
    from minitorch.testing import make_tensor

    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    if grad_outputs is None:
        outs = [o for o in _outputs(func, inputs) if o.requires_grad]
        grad_outputs = tuple(
            make_tensor(o.shape, dtype=o.dtype if o.is_floating_point() else _dtype.float64,
                        device=o.device, low=-1, high=1, requires_grad=True,
                        noncontiguous=gen_non_contig_grad_outputs)
            for o in outs)
    grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    n_in = len(inputs)
    diff_idx = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]

    def first_grad(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs_ = [o for o in _outputs(func, ins) if o.requires_grad]
        gs = _grad(outs_, [ins[i] for i in diff_idx], gos, create_graph=True, allow_unused=True)
        return tuple(g if g is not None else _creation.zeros_like(ins[i])
                     for g, i in zip(gs, diff_idx))

    return gradcheck(first_grad, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)

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
              rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """Compare autograd's Jacobian of ``func`` at ``inputs`` with finite differences.

    Returns True when they agree within ``atol + rtol * |numerical|``; otherwise raises a
    :class:`GradcheckError` that shows both Jacobians (or returns False when
    ``raise_exception=False``).
    """
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
    for i, t in enumerate(inputs):
        if not (isinstance(t, Tensor) and t.requires_grad):
            continue
        for j, (n, a) in enumerate(zip(numerical[i], analytical[i])):
            if not np.allclose(a, n, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                with np.printoptions(precision=4, suppress=True):
                    raise GradcheckError(
                        f"Jacobian mismatch for output {j} with respect to input {i},\n"
                        f"numerical:{n}\nanalytical:{a}\n"
                    )
    return True


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6,
                  atol: float = 1e-5, rtol: float = 1e-3, raise_exception: bool = True) -> bool:
    """Check second derivatives: ``gradcheck`` of the gradient of ``func`` (via create_graph)."""
    from minitorch import _creation

    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    outs = _outputs(func, inputs)
    if grad_outputs is None:
        gen = np.random.default_rng(0)
        grad_outputs = tuple(
            _creation.tensor(gen.standard_normal(o.shape), dtype=o.dtype, requires_grad=True)
            for o in outs)
    grad_outputs = tuple(grad_outputs)
    n_in = len(inputs)
    diff_idx = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]

    def first_grad(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs_ = _outputs(func, ins)
        gs = _grad(outs_, [ins[i] for i in diff_idx], gos, create_graph=True, allow_unused=True)
        return tuple(g if g is not None else _creation.zeros_like(ins[i])
                     for g, i in zip(gs, diff_idx))

    return gradcheck(first_grad, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)

"""``minitorch.autograd``: recording the graph and running the chain rule backwards.

* :mod:`~minitorch.autograd.function`: ``Function``, the graph nodes and ``ctx``;
* :mod:`~minitorch.autograd.engine`: ``backward`` and ``grad``;
* :mod:`~minitorch.autograd.grad_mode`: ``no_grad`` and friends;
* :mod:`~minitorch.autograd.anomaly_mode`: ``detect_anomaly``, which forward line failed;
* :mod:`~minitorch.autograd.graph`: walking a recorded graph;
* :mod:`~minitorch.autograd.gradcheck`: checking gradients against finite differences;
* :mod:`~minitorch.autograd.variable`: ``Variable``, old code's wrapper (now a plain tensor).
"""

from minitorch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from minitorch.autograd.engine import backward, grad
from minitorch.autograd.function import Function, once_differentiable
from minitorch.autograd.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)

__all__ = ["Function", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled",
           "is_grad_enabled", "inference_mode", "is_inference_mode_enabled",
           "once_differentiable", "gradcheck", "gradgradcheck", "detect_anomaly",
           "set_detect_anomaly"]


# ``gradcheck``/``gradgradcheck`` (functions) and ``graph`` import the Tensor module, which
# imports this package first; ``minitorch/__init__.py`` attaches them once Tensor exists.


def __getattr__(name: str):
    # ``autograd.functional``, ``autograd.profiler`` and ``autograd.variable`` load on first use.
    if name in ("functional", "profiler", "variable", "Variable"):
        import importlib

        module = importlib.import_module(f"minitorch.autograd.{name.lower()}")
        return module.Variable if name == "Variable" else module
    raise AttributeError(f"module 'minitorch.autograd' has no attribute '{name}'")

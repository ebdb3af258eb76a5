"""``minitorch.utils``: helpers around the core; ``utils.data`` loads data in batches,
``utils.checkpoint`` recomputes a part of the forward in backward to save memory."""

import weakref

from minitorch._tensor import Tensor
from minitorch.utils import checkpoint, data

__all__ = ["checkpoint", "data", "swap_tensors"]


# torch.utils.swap_tensors (the swap_tensors recipe)
_POISONED = (
    "Trying to execute AccumulateGrad node that was poisoned by swap_tensors this can happen "
    "when you try to run backward on a tensor that was swapped. For a module m with "
    "`torch.__future__.set_swap_module_params_on_conversion(True)` you should not change the "
    "device or dtype of the module (e.g. `m.cpu()` or `m.half()`) between running forward and "
    "backward. To resolve this, please only change the device/dtype before running forward (or "
    "after both forward and backward).")


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Swap what two Tensor objects are: each keeps its identity (``id``, every reference to
    it) and takes the other's class, values, attributes and autograd state.

    A minitorch tensor keeps all of that in its ``__dict__``, so the swap is of ``__class__``
    and ``__dict__``. As in PyTorch, a tensor with a weak reference is refused, and a leaf
    already in a graph has its gradient accumulator poisoned: backward through the old graph
    raises instead of accumulating into the wrong tensor.
    """
    if weakref.getweakrefs(t1):
        raise RuntimeError("Cannot swap t1 because it has weakref associated with it")
    if weakref.getweakrefs(t2):
        raise RuntimeError("Cannot swap t2 because it has weakref associated with it")
    for t in (t1, t2):
        if not isinstance(t, Tensor):  # PyTorch asks the argument for its use count first
            raise AttributeError(f"'{type(t).__name__}' object has no attribute '_use_count'")
    for t in (t1, t2):
        edge = t.__dict__.pop("_leaf_edge", None)  # a later graph makes a fresh accumulator
        if edge is not None:
            edge[0].register_prehook(_poisoned)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
    t1.__dict__, t2.__dict__ = t2.__dict__, t1.__dict__


def _poisoned(grad_outputs):
    raise RuntimeError(_POISONED)

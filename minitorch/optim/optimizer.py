"""``Optimizer``: the base class of the update rules (``SGD``, ``Adam``, ...).

An optimizer holds references to the parameters, grouped in ``param_groups`` (each group a
dict with its own ``lr`` and other settings), and a ``state`` dict per parameter (momentum
buffers, running averages). The training loop is always the same three lines::

    optimizer.zero_grad()   # clear the old gradients (they accumulate otherwise)
    loss.backward()         # fill p.grad for every parameter
    optimizer.step()        # p <- p - lr * (something computed from p.grad)

``step`` runs under ``no_grad`` and changes the parameters *in place*, so the model (which
holds the same Parameter objects) sees the new values.

Example:
    >>> import minitorch
    >>> w = minitorch.nn.Parameter(minitorch.tensor([1.0, 2.0]))
    >>> opt = minitorch.optim.SGD([w], lr=0.1)
    >>> (w * w).sum().backward()
    >>> opt.step(); w
    Parameter containing:
    tensor([0.8000, 1.6000], requires_grad=True)
"""

from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from minitorch._tensor import Tensor, _counter
from minitorch.autograd import grad_mode
from minitorch.ops._util import fused_multiply_add

__all__ = ["Optimizer", "required"]


class _Required:
    """The default of a hyper-parameter that every group must give (SGD's old ``lr``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _Required()


class Optimizer:
    """Base class for optimizers (``torch.optim.Optimizer``).

    Args:
        params: an iterable of tensors, of ``(name, tensor)`` pairs (``model.named_parameters()``:
            the names are kept in each group's ``param_names``), or of dicts (parameter groups)
            such as ``[{"params": model.base.parameters()}, {"params": head, "lr": 1e-3}]``.
        defaults: the hyper-parameters a group gets when it does not give its own.
    """

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                f"dicts, but got torch.{params.dtype._legacy}"
            )
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own settings (e.g. when unfreezing layers)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list "
                "instead."
            )
        else:
            param_group["params"] = list(params)
        _split_names(param_group)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                kind = type(p).__qualname__  # named as torch.typename does
                if type(p).__module__ not in (None, "builtins"):
                    kind = f"{type(p).__module__}.{kind}"
                raise TypeError(
                    f"optimizer can only optimize Tensors, but one of the params is {kind}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization "
                    f"parameter {name}"
                )
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(set(ids)) != len(ids):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information", stacklevel=3)
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        for group in self.param_groups:
            if ("param_names" in param_group) != ("param_names" in group):
                raise ValueError(
                    "all optimizer param groups should be with/without names. cannot add "
                    "param group " + ("with names" if "param_names" in param_group
                                      else "without names") + " to the optimizer")
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear every parameter's ``.grad`` (set it to None, or to zeros)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p._grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    g = p._grad
                    if g._grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    def step(self, closure: Callable[[], Any] | None = None):
        """Update the parameters once. ``closure`` (optional) re-evaluates the loss."""
        raise NotImplementedError

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    # ------------------------------------------------------------------ saving
    def state_dict(self) -> dict:
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [indices]}]}``.

        Parameters are named by their position across all groups, so the dict can be loaded
        into a fresh optimizer built over a fresh model.
        """
        mapping: dict[int, int] = {}
        groups = []
        index = 0
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                if id(p) not in mapping:
                    mapping[id(p)] = index
                    index += 1
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {mapping[id(p)]: s for p, s in self.state.items() if id(p) in mapping}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore the hyper-parameters and the per-parameter state saved by ``state_dict``."""
        state_dict = copy.deepcopy(state_dict)
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError(
                    "loaded state dict contains a parameter group that doesn't match the size "
                    "of optimizer's group"
                )
        id_map = {old: p for group, saved in zip(self.param_groups, saved_groups)
                  for old, p in zip(saved["params"], group["params"])}
        self.state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                p = id_map[key]
                self.state[p] = {k: self._cast(p, k, v) for k, v in value.items()}
            else:
                self.state[key] = value
        self.param_groups = [_restore_group(group, saved)
                             for group, saved in zip(self.param_groups, saved_groups)]

    @staticmethod
    def _cast(param: Tensor, key: str, value):
        """State tensors follow their parameter's dtype and device (``step`` stays float32)."""
        if not isinstance(value, Tensor) or key == "step":
            return value
        out = value.to(param.device)
        return out.to(param.dtype) if param.is_floating_point() else out

    # ------------------------------------------------------------------ printing
    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\n"
            text += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)


def _split_names(param_group: dict) -> None:
    """Named parameters (``model.named_parameters()``, pairs ``(name, tensor)``): keep the
    tensors in ``params`` and the names in ``param_names`` (saved by ``state_dict``). Either
    every parameter of the group is named or none is."""
    params = param_group["params"]
    names = [p[0] for p in params if isinstance(p, tuple)]
    param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in params]
    if names:
        if len(names) != len(params):
            raise ValueError("all optimizer params should be with/without names. Some param "
                             "names are missing")
        param_group["param_names"] = names


def _restore_group(group: dict, saved: dict) -> dict:
    """A loaded group: the saved settings, this optimizer's tensors, and its names when the
    saved group has none."""
    new = {**saved, "params": group["params"]}
    if "param_names" in group and "param_names" not in new:
        new["param_names"] = group["param_names"]
    return new


def _check_adam_hyperparameters(lr, eps, betas, weight_decay) -> None:
    """PyTorch's ValueErrors, in its order, for the hyperparameters the Adam family shares
    (Adam, AdamW, Adamax, NAdam, RAdam)."""
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _params_with_grad(group: dict):
    """The parameters of a group that have a gradient, with the NumPy arrays of both."""
    for p in group["params"]:
        if p._grad is not None:
            yield p, p._grad._data


def _bump(p: Tensor) -> None:
    """Count an in-place change of ``p`` (so stale saved copies are detected)."""
    _counter(p).value += 1


# PyTorch's optimizers update their tensors with ``add_(x, alpha=a)``, ``addcmul_`` and
# ``lerp_``, whose CPU kernels round ``a * x + out`` once (a fused multiply-add). These helpers
# do the same in place, with the numbers taken in ``out``'s dtype as PyTorch takes them.
def _add(a, x, alpha: float):
    """``a.add(x, alpha=alpha)``: ``a + alpha * x``, rounded once, as a new array."""
    return fused_multiply_add(_as_dtype(alpha, a), x, a)


def _add_(out, x, alpha: float) -> None:
    """``out.add_(x, alpha=alpha)``: ``out + alpha * x``, rounded once, in place."""
    fused_multiply_add(_as_dtype(alpha, out), x, out, out=out)


def _addcmul_(out, x, y, value: float = 1) -> None:
    """``out.addcmul_(x, y, value=value)``: ``out + (value * x) * y``, the last step fused."""
    fused_multiply_add(x if value == 1 else _as_dtype(value, out) * x, y, out, out=out)


def _lerp_(start, end, weight: float) -> None:
    """``start.lerp_(end, weight)``: from the nearer end, ``start + w (end - start)`` or
    ``end + (w - 1) (end - start)``, each rounded once as PyTorch's lerp kernel does."""
    w = _as_dtype(weight, start)
    if weight < 0.5:
        fused_multiply_add(w, end - start, start, out=start)
    else:
        fused_multiply_add(w - w.dtype.type(1), end - start, end, out=start)


def _weight_decay(group: dict, data, grad, lr: float):
    """The group's weight decay, as PyTorch's Adam family applies it: decoupled (AdamW's), ``p``
    shrinks in place by ``1 - lr * wd``; else (L2) the gradient becomes ``grad + wd * p``,
    rounded once. Returns the gradient to use."""
    wd = group["weight_decay"]
    if wd == 0:
        return grad
    if group["decoupled_weight_decay"]:
        data *= _as_dtype(1 - lr * wd, data)
        return grad
    return _add(grad, data, wd)


def _as_dtype(value: float, data):
    """A Python number as a scalar of ``data``'s dtype (PyTorch casts scalars this way)."""
    return data.dtype.type(value)

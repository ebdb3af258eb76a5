"""``nn.Module``: the base class of every layer and every network.

A module is a Python object that *owns* parameters and sub-modules. You write two things:

* ``__init__``: create the layers and assign them as attributes. ``Module.__setattr__`` sees
  every assignment: a :class:`~minitorch.nn.Parameter` goes into ``self._parameters``, a module
  into ``self._modules``. That registry is how ``parameters()``, ``state_dict()``, ``to()``,
  ``zero_grad()`` and ``print(net)`` find everything, however deeply nested.
* ``forward``: the computation. Calling ``net(x)`` runs ``forward`` (plus any hooks); autograd
  records the graph as it runs, so backward comes for free.

Example:
    >>> import minitorch
    >>> from minitorch import nn
    >>> class TwoLayer(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.hidden = nn.Linear(2, 3)
    ...         self.out = nn.Linear(3, 1)
    ...     def forward(self, x):
    ...         return self.out(self.hidden(x).relu())
    >>> net = TwoLayer()
    >>> [name for name, _ in net.named_parameters()]
    ['hidden.weight', 'hidden.bias', 'out.weight', 'out.bias']
    >>> net(minitorch.ones(4, 2)).shape
    torch.Size([4, 1])
"""

from __future__ import annotations

import itertools
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import Any

from minitorch import __future__ as _future
from minitorch import _dtype
from minitorch._device import device as _device_cls
from minitorch._tensor import Tensor, _counter
from minitorch.autograd import grad_mode
from minitorch.autograd.function import RemovableHandle
from minitorch.nn.parameter import Buffer, Parameter, UninitializedTensorMixin

__all__ = ["Module"]


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it could not match."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s: str, num_spaces: int) -> str:
    """Indent every line but the first (how nested modules are printed)."""
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(num_spaces * " " + line for line in lines)


class Module:
    """Base class for all neural-network modules (``torch.nn.Module``).

    Subclasses call ``super().__init__()`` first, then assign parameters and sub-modules as
    attributes, and define ``forward``.

    Attributes:
        training: ``True`` in training mode (the default), ``False`` after ``eval()``. Layers
            such as Dropout and BatchNorm behave differently in the two modes.
    """

    training: bool
    _version = 1
    call_super_init = False

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected argument"
            )
        # object.__setattr__ skips our own __setattr__ (the registries do not exist yet).
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_modules", {})
        setattr_(self, "_forward_hooks", OrderedDict())
        setattr_(self, "_forward_pre_hooks", OrderedDict())

    def forward(self, *input: Any) -> Any:  # noqa: A002
        """The computation of the module. Every subclass must override it."""
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    # ------------------------------------------------------------------ calling
    # Backward hooks are rare: the class attributes stand for "none" until one is registered.
    _backward_hooks: dict = {}
    _backward_pre_hooks: dict = {}
    _is_full_backward_hook: bool | None = None
    _forward_hooks_with_kwargs: frozenset = frozenset()
    _forward_pre_hooks_with_kwargs: frozenset = frozenset()

    def __call__(self, *args, **kwargs):
        """Run the forward pre-hooks, ``forward``, then the forward hooks."""
        if not (self._forward_hooks or self._forward_pre_hooks or self._backward_hooks
                or self._backward_pre_hooks):
            return self.forward(*args, **kwargs)  # the fast path: no hooks
        for key, hook in tuple(self._forward_pre_hooks.items()):
            if key in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, "
                            f"new_kwargs), but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        full = None
        if self._is_full_backward_hook and (self._backward_hooks or self._backward_pre_hooks):
            from minitorch.nn.modules._hooks import BackwardHook

            full = BackwardHook(self, list(self._backward_hooks.values()),
                                list(self._backward_pre_hooks.values()))
            args = full.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for key, hook in tuple(self._forward_hooks.items()):
            if key in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        if full is not None:
            output = full.setup_output_hook(output)
        elif self._is_full_backward_hook is False and self._backward_hooks:
            self._attach_legacy_backward_hooks(output)
        return output

    def _attach_legacy_backward_hooks(self, output) -> None:
        """``register_backward_hook``'s old behaviour: hook the node that made the output."""
        node = output.grad_fn if isinstance(output, Tensor) else None
        if node is None:
            return
        hooks = list(self._backward_hooks.values())

        def call(grad_inputs, grad_outputs):
            for hook in hooks:
                hook(self, grad_inputs, grad_outputs)

        node.register_hook(call)

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """Call ``hook(module, args)`` before ``forward``; a returned value replaces the args.

        With ``with_kwargs=True`` the hook is ``hook(module, args, kwargs)`` and may return a
        new ``(args, kwargs)`` pair; ``prepend=True`` runs it before the hooks already there.

        >>> import minitorch
        >>> from minitorch import nn
        >>> lin = nn.Identity()
        >>> h = lin.register_forward_pre_hook(lambda m, args: args[0] * 2)
        >>> lin(minitorch.ones(1))
        tensor([2.])
        >>> h.remove()
        """
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        if with_kwargs:
            object.__setattr__(self, "_forward_pre_hooks_with_kwargs",
                               self._forward_pre_hooks_with_kwargs | {handle.id})
        return handle

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False,
                              always_call: bool = False) -> RemovableHandle:
        """Call ``hook(module, args, output)`` after ``forward``; a returned value replaces the
        output. Handy for looking at activations inside a network.

        With ``with_kwargs=True`` the hook is ``hook(module, args, kwargs, output)``;
        ``prepend=True`` runs it before the hooks already there.

        >>> import minitorch
        >>> from minitorch import nn
        >>> seen = []
        >>> relu = nn.ReLU()
        >>> h = relu.register_forward_hook(lambda m, args, out: seen.append(out.shape))
        >>> _ = relu(minitorch.ones(2, 3)); seen
        [torch.Size([2, 3])]
        """
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        if with_kwargs:
            object.__setattr__(self, "_forward_hooks_with_kwargs",
                               self._forward_hooks_with_kwargs | {handle.id})
        return handle

    def _backward_hook_dict(self, name: str, full: bool) -> OrderedDict:
        if self._is_full_backward_hook is not None and self._is_full_backward_hook != full:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)
        hooks = self.__dict__.get(name)
        if hooks is None:
            hooks = OrderedDict()
            object.__setattr__(self, name, hooks)
        return hooks

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False
                                    ) -> RemovableHandle:
        """Call ``hook(module, grad_input, grad_output)`` when the gradients with respect to
        the module's inputs have been computed. ``grad_input`` has one entry per positional
        argument (None for non-tensors); a returned tuple replaces it.

        >>> import minitorch
        >>> from minitorch import nn
        >>> lin = nn.Linear(2, 1)
        >>> h = lin.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 2,))
        >>> x = minitorch.ones(1, 2, requires_grad=True)
        >>> lin(x).sum().backward()
        >>> bool((x.grad == 2 * lin.weight).all())
        True
        """
        hooks = self._backward_hook_dict("_backward_hooks", True)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False
                                        ) -> RemovableHandle:
        """Call ``hook(module, grad_output)`` when the gradients with respect to the module's
        outputs have been computed (before those of its inputs); a returned tuple replaces
        them."""
        hooks = self._backward_hook_dict("_backward_pre_hooks", True)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook: Callable) -> RemovableHandle:
        """The old form of backward hook (deprecated in PyTorch, kept for old code).

        ``hook(module, grad_input, grad_output)`` is attached to the *last operation* of the
        forward pass, so ``grad_input`` holds that operation's input gradients, which are not
        always the module's (for ``Linear``: bias, input and weight). Use
        :meth:`register_full_backward_hook` in new code.
        """
        hooks = self._backward_hook_dict("_backward_hooks", False)
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        return handle

    # ------------------------------------------------------------------ registration
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name, self.__dict__, self._buffers, self._modules,
                              self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError(
                        "cannot assign module before Module.__init__() call"
                    )
                self._remove_from(name, self.__dict__, self._parameters, self._buffers,
                                  self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{_typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(
                            f"cannot assign '{_typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    # an nn.Buffer says whether it is saved; a plain tensor keeps the old say
                    persistent = value.persistent if isinstance(value, Buffer) else \
                        name not in self._non_persistent_buffers_set
                    self.register_buffer(name, value, persistent)
                else:
                    object.__setattr__(self, name, value)

    @staticmethod
    def _remove_from(name: str, *dicts_or_sets) -> None:
        for d in dicts_or_sets:
            if name in d:
                if isinstance(d, set):
                    d.discard(name)
                else:
                    del d[name]

    def __getattr__(self, name: str) -> Any:
        # Only called when normal lookup fails: look in the registries.
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self))
        keys += list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(k for k in set(keys) if not k[:1].isdigit())

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter under ``name`` (what ``self.name = Parameter(...)`` does)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                "be created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method."
            )
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (like BatchNorm's running mean).

        Buffers move with ``to()`` and are saved in the ``state_dict`` (unless
        ``persistent=False``), but optimizers never see them.
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        _check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name`` (what ``self.name = module`` does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        _check_name(name, "module")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        """The sub-module at a dotted path such as ``"features.0"``."""
        mod = self
        if target == "":
            return mod
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    # ------------------------------------------------------------------ iteration
    def _named_members(self, get_members, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True):
        memo = set()
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
                   if recurse else [(prefix, self)])
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter of this module and (with ``recurse``) its sub-modules, once each.

        >>> from minitorch import nn
        >>> [p.shape for p in nn.Linear(3, 2).parameters()]
        [torch.Size([2, 3]), torch.Size([2])]
        """
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(dotted_name, parameter)`` pairs; a parameter shared by two layers appears once."""
        return self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                   remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                   remove_duplicate)

    def children(self) -> Iterator[Module]:
        """The direct sub-modules."""
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self) -> Iterator[Module]:
        """This module and every module inside it, depth first."""
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """``(dotted_name, module)`` for this module (name ``""``) and all sub-modules."""
        if memo is None:
            memo = set()
        if id(self) in memo:
            return
        if remove_duplicate:
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    # ------------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode=True``) or evaluation mode, recursively; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode: the same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Freeze (``False``) or unfreeze every parameter; returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Clear the gradients of all parameters (by default by setting them to ``None``)."""
        for p in self.parameters():
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

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every sub-module (children first) and on self; returns self.

        The classic use is custom initialisation: ``net.apply(init_weights)``.
        """
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ device and dtype
    def _apply(self, fn: Callable[[Tensor], Tensor]) -> Module:
        """Replace every parameter's and buffer's values by ``fn(values)``, in place.

        The Parameter *objects* stay the same, so an optimizer built before ``to()`` still
        updates the right tensors.
        """
        for module in self.children():
            module._apply(fn)
        with grad_mode.no_grad():
            for key, p in self._parameters.items():
                if p is None:
                    continue
                if _future.get_overwrite_module_params_on_conversion():
                    self._parameters[key] = _new_parameter(p, fn)
                    continue
                _set_values(p, fn(p))
                if p._grad is not None:
                    _set_values(p._grad, fn(p._grad))
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Move and/or cast the parameters and buffers: ``to("cpu")``, ``to(torch.float64)``.

        Only floating-point tensors change dtype (integer buffers such as
        ``num_batches_tracked`` stay integers). Returns self.
        """
        device, dtype = _parse_to(*args, **kwargs)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )

        def convert(t: Tensor) -> Tensor:
            out = t
            if device is not None:
                out = out.to(device)
            if dtype is not None and out.is_floating_point():
                out = out.to(dtype)
            return out

        return self._apply(convert)

    def cpu(self) -> Module:
        return self.to("cpu")

    def cuda(self, device: int | None = None) -> Module:
        return self.to("cuda" if device is None else f"cuda:{device}")

    def float(self) -> Module:
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def type(self, dst_type) -> Module:
        return self._apply(lambda t: t.to(dst_type))

    # ------------------------------------------------------------------ state_dict
    def state_dict(self, *, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict:
        """An ordered dict from dotted names to the (detached) parameters and buffers.

        >>> from minitorch import nn
        >>> list(nn.Linear(2, 1).state_dict())
        ['weight', 'bias']
        """
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # each module's version
        if hasattr(destination, "_metadata"):  # (by its prefix, as PyTorch's state_dict)
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, p in self._parameters.items():
            if p is not None:  # (a lazy module's placeholder as it is, as PyTorch's lazy mixin)
                lazy = isinstance(p, UninitializedTensorMixin)
                destination[prefix + name] = p if keep_vars or lazy else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                lazy = isinstance(b, UninitializedTensorMixin)
                destination[prefix + name] = b if keep_vars or lazy else b.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict: dict, prefix: str, missing_keys: list,
                              unexpected_keys: list, error_msgs: list) -> None:
        local_state = {k: v for k, v in itertools.chain(
            self._parameters.items(),
            ((k, v) for k, v in self._buffers.items()
             if k not in self._non_persistent_buffers_set)) if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected torch.Tensor or '
                    f"Tensor-like object from checkpoint but received {type(value)}"
                )
                continue
            if len(param.shape) == 0 and len(value.shape) == 1 and value.shape[0] == 1:
                value = value[0]
            if value.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {value.shape} from "
                    f"checkpoint, the shape in current model is {param.shape}."
                )
                continue
            try:
                with grad_mode.no_grad():
                    param.copy_(value)
            except Exception as ex:  # reported as PyTorch does
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {param.size()} and whose dimensions in the checkpoint are "
                    f"{value.size()}, an exception occurred : {ex.args}."
                )
        for key in state_dict:
            if key.startswith(prefix):
                first = key[len(prefix):].split(".", 1)[0]
                if first not in self._modules and first not in local_state:
                    unexpected_keys.append(key)

    def load_state_dict(self, state_dict: dict, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy values from ``state_dict`` into this module's parameters and buffers.

        With ``strict=True`` (the default) the keys must match exactly; otherwise a
        RuntimeError lists the missing and unexpected keys, as PyTorch's does.
        """
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []

        def load(module: Module, local: dict, prefix: str = "") -> None:
            module._load_from_state_dict(local, prefix, missing, unexpected, errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)},
                         child_prefix)

        load(self, dict(state_dict))
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------ printing
    def extra_repr(self) -> str:
        """The text inside ``Name(...)`` when the module is printed; layers override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)


def _typename(obj) -> str:
    if isinstance(obj, Tensor):
        return f"torch.{obj.dtype._legacy}"
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in (None, "builtins") else f"{module}.{name}"


def _check_name(name: str, kind: str) -> None:
    if "." in name:
        got = f", got: {name}" if kind == "module" else ""  # as PyTorch: a module's name only
        raise KeyError(f'{kind} name can\'t contain "."{got}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')


def _new_parameter(p: Parameter, fn: Callable[[Tensor], Tensor]) -> Parameter:
    """``Module._apply`` under ``__future__.set_overwrite_module_params_on_conversion(True)``:
    a new Parameter holding ``fn(p)``, with ``fn`` of its gradient (PyTorch's order)."""
    out = Parameter(fn(p), p.requires_grad)
    if p._grad is not None:
        out.grad = fn(p._grad).requires_grad_(p._grad.requires_grad)
    return out


def _set_values(t: Tensor, new: Tensor) -> None:
    """Point ``t`` at ``new``'s values (and device), keeping the same Tensor object."""
    if new is t:
        return
    t._data = new._data  # the device follows the array (NumPy: CPU, CuPy: GPU)
    _counter(t).value += 1


def _parse_to(*args, **kwargs):
    """``Module.to``'s arguments: a device, a dtype, a tensor, or keywords."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"to() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, (str, _device_cls, int)) and not isinstance(a, bool):
            device = _device_cls(f"cuda:{a}" if isinstance(a, int) else a)
        elif isinstance(a, bool):
            pass  # non_blocking
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    return device, dtype

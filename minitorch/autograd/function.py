"""Graph nodes and ``autograd.Function``: how a forward pass records the DAG.

Every differentiable operation in minitorch, built-in or written by a learner, is a
:class:`Function` with two static methods:

* ``forward(ctx, *inputs)`` computes the result and may stash what backward needs with
  ``ctx.save_for_backward(...)``;
* ``backward(ctx, *grad_outputs)`` returns one gradient per input (``None`` where there is none).

PyTorch 2 also takes a second style, which the built-in operations use: ``forward(*inputs)``
without ctx, and ``setup_context(ctx, inputs, output)`` to save what backward needs. Saving
matters only when a node is recorded, so when nothing is (under ``no_grad``, and in a backward
pass), ``apply`` runs a built-in's ``forward`` alone: no ctx, no node.

``Function.apply`` runs ``forward`` and, when recording is on and an input requires grad, puts
a node into the graph. That node *is* the ``ctx``: an instance of a class made for each Function
(``MulBackward0`` for the built-in ``Mul``, ``MyOpBackward`` for a learner's ``MyOp``). Its
``next_functions`` point at the nodes that produced the inputs, so the DAG runs from the outputs
(roots) back to the leaves, where :class:`AccumulateGrad` nodes write ``.grad``.

Example:
    >>> import minitorch
    >>> class Square(minitorch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     def backward(ctx, grad):
    ...         (x,) = ctx.saved_tensors
    ...         return 2 * x * grad
    >>> x = minitorch.tensor(3.0, requires_grad=True)
    >>> Square.apply(x).backward()
    >>> x.grad
    tensor(6.)
"""

from __future__ import annotations

import inspect
import itertools
import sys
from collections.abc import Callable
from typing import Any

from minitorch import _backend
from minitorch.autograd import grad_mode

__all__ = ["Node", "AccumulateGrad", "FunctionCtx", "BackwardCFunction", "Function",
           "once_differentiable"]

_sequence = itertools.count()  # the order nodes were created in; backward runs newest first
_profiler = None  # the running autograd.profiler.profile, if any (see apply)


# What watches the nodes being made: each is called as ``watch(node, outputs)`` once a node is
# recorded (``record_forward`` while one is open, anomaly mode while it is on, the packing of
# saved tensors while a ``saved_tensors_hooks`` block is open: autograd/graph.py).
node_watchers: list = []

_FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


class RemovableHandle:
    """Returned by ``register_hook``; ``.remove()`` takes the hook out again."""

    _ids = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self.hooks = hooks
        self.id = next(RemovableHandle._ids)

    def remove(self) -> None:
        self.hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class Node:
    """A node of the backward graph (``torch.autograd.graph.Node``).

    As in PyTorch, a built-in op's node and an ``AccumulateGrad`` are called, ``node(grad)``,
    to run their backward (``_call_builtin``, ``AccumulateGrad.__call__``); the node of a
    learner's ``Function`` is not callable, and has ``apply``.

    Attributes:
        next_functions: ``((node, output_nr), ...)``, one pair per input of the forward op:
            the node that produced that input (``None`` if it needs no gradient) and which of
            that node's outputs it was.
    """

    # Defaults live on the class, so creating a node (once per recorded op) sets nothing.
    _next: tuple = ()
    _seq = 0
    _pre_hooks = None
    _hooks = None
    _tensor_pre_hooks = None
    _num_outputs = 1
    _input_meta: tuple = ()  # (shape, dtype) of each input, to check gradients against
    _saved: tuple = ()  # what backward needs (``save_for_backward``), freed after backward
    _builtin = False  # a built-in op's node: its backward returns one gradient per edge
    _metadata = None

    def name(self) -> str:
        """The node's name, such as ``"MulBackward0"``."""
        return type(self).__name__

    @property
    def next_functions(self) -> tuple:
        return self._next

    @property
    def metadata(self) -> dict:
        """A dict kept with the node, for anything (anomaly mode keeps the forward's stack)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def register_hook(self, fn: Callable) -> RemovableHandle:
        """Call ``fn(grad_inputs, grad_outputs)`` after this node runs in backward."""
        if self._hooks is None:
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = fn
        return handle

    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """Call ``fn(grad_outputs)`` before this node runs; a non-None result replaces them."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = fn
        for key in [k for k, h in self._pre_hooks.items() if getattr(h, "unpacks_saved", False)]:
            self._pre_hooks[key] = self._pre_hooks.pop(key)  # saved tensors: after the others
        return handle

    def _register_tensor_hook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        """Hooks of a non-leaf tensor: they see (and may replace) that output's gradient."""
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle.id] = fn
        for key in [k for k, h in hooks.items() if getattr(h, "retains_grad", False)]:
            hooks[key] = hooks.pop(key)  # retain_grad stores the gradient after every other hook
        return handle

    def _release(self) -> None:
        """Free what the node saved for backward (after a backward without retain_graph)."""

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


def through_hooks(hooks: dict, grad):
    """``grad`` through a tensor's gradient hooks, in order: each may return a replacement."""
    for hook in tuple(hooks.values()):
        new = hook(grad)
        if new is not None:
            check_hook_result(hook, grad, new)
            grad = new
    return grad


def check_hook_result(hook, old, new) -> None:
    """PyTorch's error when a gradient hook returns a gradient of another size or dtype."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if new.shape != old.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if new.dtype is not old.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was "
                           f"torch.{old.dtype._legacy} got torch.{new.dtype._legacy})")


class AccumulateGrad(Node):
    """The node at a leaf tensor: adds the incoming gradient into ``variable.grad``."""

    _seq = float("inf")  # runs as soon as its gradient is complete

    def __init__(self, variable) -> None:
        self.variable = variable

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"

    def apply(self, grad):
        """Accumulate ``grad`` into the leaf: the first gradient is copied, later ones added."""
        return self.accumulate_handed_over([grad])

    def __call__(self, *grads, **kwargs):
        """``node(grad)``, as PyTorch calls a node: ``apply``, without the leaf's gradient
        hooks (backward runs those before the node); a None gradient adds nothing, but the
        post-accumulate hooks still run, as in PyTorch."""
        _check_call(grads, kwargs, 1)
        if grads[0] is not None:
            return self.accumulate_handed_over([grads[0]], False)
        for hook in tuple((self.variable._post_accumulate_hooks or {}).values()):
            hook(self.variable)
        return ()

    def accumulate_handed_over(self, handed: list, hooks: bool = True):
        """``apply`` for the one gradient in ``handed``, which the caller lets go of (the engine
        hands over its own buffer). If nothing else holds that gradient or its memory, the leaf
        keeps it as its ``.grad`` instead of a copy, as PyTorch's AccumulateGrad does."""
        grad, var = handed.pop(), self.variable
        if hooks and var._hooks:
            grad = through_hooks(var._hooks, grad)
        # A leaf switched off since its graph was recorded (requires_grad_(False), detach_())
        # gets nothing, as in PyTorch; its hooks still run.
        if var._requires_grad:
            if grad_mode._state.enabled:  # create_graph=True: keep the sum differentiable
                # The first gradient is a (recorded) copy, as in PyTorch (CopyBackwards): the
                # incoming tensor may be the caller's, or reach another leaf too.
                var._grad = grad._as_grad_of(var) if var._grad is None else var._grad + grad
            elif var._grad is None:  # the first one: this variable and getrefcount's argument
                unshared = sys.getrefcount(grad) == 2 and grad._grad_fn is None and (
                    getattr(grad._data, "base", 0) is None and sys.getrefcount(grad._data) == 2)
                # (else a copy, laid out as the parameter is: PyTorch's layout contract)
                same = unshared and grad._data.strides == var._data.strides  # (an array that
                var._grad = grad if same else grad._as_grad_of(var, unshared)  # owns its
            else:  # memory and is held by one tensor has no view anywhere)
                var._grad._accumulate_(grad)
        if var._post_accumulate_hooks:
            for hook in tuple(var._post_accumulate_hooks.values()):
                hook(var)
        return ()


def _check_call(grads: tuple, kwargs: dict, expected: int) -> None:
    """PyTorch's errors for ``node(*grads)``: one tensor (or None) per output of the node."""
    if kwargs:
        raise TypeError("keyword arguments are not supported")
    if len(grads) != expected:
        raise TypeError(f"expected {expected} arguments, got {len(grads)} instead")
    for i, g in enumerate(grads):
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(f"argument {i} is not a Variable")


def _call_builtin(node, *grads, **kwargs):
    """``node(*grads)`` for a built-in op's node, as PyTorch calls one: its backward formula
    on one gradient per output, giving one gradient per edge (None where an edge leads
    nowhere), a lone gradient unwrapped. Unlike backward, no hooks run and no gradient is
    summed down to its input's shape. A learner's node is not callable: it has ``apply``."""
    _check_call(grads, kwargs, node._num_outputs)
    if all(g is None for g in grads):
        outs = (None,) * len(node._next)
    else:
        if node._materialize and any(g is None for g in grads):
            grads = _zeros_for_missing(node, list(grads))
        outs = node._forward_cls.backward(node, *grads)
        outs = outs if type(outs) is tuple else (outs,)
        outs = tuple([None if nxt is None else g for (nxt, _), g in zip(node._next, outs)])
    return outs[0] if len(outs) == 1 else outs


def _zeros_for_missing(node, grads: list) -> list:
    """A multi-output node's backward gets zeros, not None, for outputs that got no gradient
    (unless its Function called ``ctx.set_materialize_grads(False)``)."""
    like = next(g for g in grads if g is not None)
    meta = node._output_meta or ()
    return [like.new_zeros(meta[i][0], dtype=meta[i][1])
            if g is None and i < len(meta) and meta[i] is not None else g
            for i, g in enumerate(grads)]


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved."""

    __slots__ = ("tensor", "version", "origin")

    def __init__(self, tensor) -> None:
        counter = tensor._version_counter  # None until the tensor first changes: version 0
        if counter is not None and tensor.is_inference():
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors "
                "created in inference mode in computation tracked by autograd. To work around "
                "this, you can make a clone to get a normal tensor and use it in autograd, or "
                "use `torch.no_grad()` instead of `torch.inference_mode()`.")
        self.tensor = tensor
        self.version = 0 if counter is None else counter.value
        # (node, output_nr) when a node saved its own output (set by _record_node): the
        # version error names that node; for any other tensor it names the tensor's grad_fn
        # when the error happens (its last in-place operation), as PyTorch does
        self.origin = None

    def unpack(self):
        t = self.tensor
        counter = t._version_counter  # None: never changed since it was made
        now = 0 if counter is None else counter.value
        if now != self.version:
            shape = ", ".join(str(s) for s in t.shape)
            node, nr = self.origin or (t.grad_fn, t._output_nr)  # (a view's is made on use)
            which = f", which is output {nr} of {_short_name(node)}," if node else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [torch.{t.dtype._legacy} [{shape}]]{which} is at version "
                f"{now}; expected version {self.version} instead. Hint: enable "
                "anomaly detection to find the operation that failed to compute its gradient, "
                "with torch.autograd.set_detect_anomaly(True, check_nan=False)."
            )
        return t


def _unpack_saved(node, i: int):
    """The i-th saved tensor, as PyTorch's ``_saved_<name>`` gives it: an input itself, but
    an output of the node as a new tensor on the same memory, whose ``grad_fn`` is the node."""
    if node._saved is _FREED and node._freed_none and node._freed_none[i]:
        return None
    s = node.saved_tensors if node._saved is _FREED else node._saved[i]  # (it raises if freed)
    t = None if s is None else s.unpack()  # this one only: a hook unpacks nothing else
    if t is None or s.origin is None or s.origin[0] is not node:
        return t
    alias = t.detach()
    alias._set_history(node, s.origin[1])
    return alias


def _short_name(node) -> str:
    name = node.name()
    return name.rsplit("Backward", 1)[0] if "Backward" in name else name


_FREED = object()
_NO_EDGE = (None, 0)  # the edge of an input that needs no gradient (a number, or None)
_NO_META = (None, None)


class _NeedsInputGrad:
    """``ctx.needs_input_grad`` of a ctx that records nothing: ``Function.apply`` skips the
    question, and it is worked out from the inputs only if ``forward`` asks."""

    def __get__(self, ctx, owner=None):
        if ctx is None:
            return self
        return tuple(isinstance(a, Tensor) and a._requires_grad for a in ctx._inputs)


class FunctionCtx:
    """What ``forward`` and ``backward`` share: saved tensors and flags."""

    needs_input_grad = _NeedsInputGrad()  # a recorded node has its own, set by apply
    _inputs: tuple = ()
    _saved: tuple = ()
    _record = False  # True when apply records a node: only then is anything saved
    _non_differentiable: tuple = ()
    _materialize = True
    _output_meta = None

    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; they are checked for in-place changes when unpacked."""
        if not self._record:  # no node is recorded: nothing will need them
            return
        saved = []
        for t in tensors:
            if t is None:
                saved.append(None)
            elif isinstance(t, Tensor):
                saved.append(SavedTensor(t))
            else:
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{tensors.index(t)} is of type {type(t).__name__}"
                )
        self._saved = tuple(saved)

    @property
    def saved_tensors(self) -> tuple:
        """The tensors given to ``save_for_backward``, checked against in-place changes."""
        saved = self._saved
        if saved is _FREED:
            raise RuntimeError(_FREED_MESSAGE)
        tensors = []
        for s in saved:
            tensors.append(None if s is None else s.unpack())
        return tuple(tensors)

    def mark_non_differentiable(self, *tensors) -> None:
        """Mark outputs (such as indices) that never receive a gradient."""
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors) -> None:
        """Mark inputs that ``forward`` changed in place: with no node recorded, such an input
        comes back as itself, not as a view of it (``_tensor._untracked``). (A recorded node
        does not take over their history as PyTorch's does.)"""
        self._dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """Whether ``None`` output gradients reach backward as zeros (the default) or None."""
        self._materialize = value


class BackwardCFunction(FunctionCtx, Node):
    """Base of the node classes that ``Function`` makes: the ctx and the graph node in one."""

    _forward_cls: type
    _freed_none: tuple = ()  # after backward freed ``_saved``: which of it was None

    def apply(self, *grads):
        """Run the Function's backward for this node: one gradient per edge."""
        out = self._forward_cls.backward(self, *grads)
        if self._builtin:
            return out
        # A learner's backward returns one gradient per forward argument, numbers included;
        # keep those of the Tensor arguments, which are the ones with edges.
        out = out if type(out) is tuple else (out,)
        n = len(self.needs_input_grad)
        if len(out) < n or any(g is not None for g in out[n:]):
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {n}, got {len(out)})")
        for i, g in enumerate(out[:n]):
            if g is not None and i not in self._edge_args:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at position "
                    f"{i + 1}, but the corresponding forward input was not a Variable")
        return tuple([out[i] for i in self._edge_args])

    def _release(self) -> None:
        saved = self._saved
        if saved and saved is not _FREED:
            if None in saved:  # its ``_saved_<name>`` stays None, as in PyTorch
                self._freed_none = tuple([s is None for s in saved])
            self._saved = _FREED

    def __repr__(self) -> str:
        if self._builtin:
            return f"<{type(self).__name__} object at {hex(id(self))}>"
        return f"<minitorch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"


class FunctionMeta(type):
    """Gives each Function subclass its own node class, named as PyTorch names it."""

    def __init__(cls, name, bases, attrs) -> None:
        node_name = attrs.get("node_name", name + "Backward")
        node_attrs = {"_forward_cls": cls, "_builtin": attrs.get("_builtin", False),
                      "__module__": "minitorch.autograd.function"}
        # A node PyTorch writes in C++ keeps its namespace in ``name()`` only: the node of
        # ``node_name = "torch::autograd::NotImplemented"`` is the class ``NotImplemented``.
        short_name = node_name.rpartition("::")[2]
        if short_name != node_name:
            node_attrs["name"] = lambda node, full=node_name: full
        # ``saved_names = ("self", "mat2")`` gives the node ``_saved_self`` and ``_saved_mat2``,
        # the i-th tensor given to ``save_for_backward`` (or None), as PyTorch's nodes have;
        # ``saved_values = {"alpha": get}`` gives ``_saved_alpha``, ``get(node)``. Both are
        # worked out only when read: recording a node costs nothing more.
        for i, saved_name in enumerate(attrs.get("saved_names", ())):
            node_attrs[f"_saved_{saved_name}"] = property(
                lambda node, i=i: _unpack_saved(node, i),
                doc=f"The saved tensor ``{saved_name}`` of the forward call, or None.")
            node_attrs[f"_raw_saved_{saved_name}"] = property(lambda node, i=i: _raw_saved(node, i))
        for saved_name, get in attrs.get("saved_values", {}).items():
            node_attrs[f"_saved_{saved_name}"] = property(get)
        if node_attrs["_builtin"]:  # PyTorch's own nodes are called: ``node(grad)``
            node_attrs["__call__"] = _call_builtin
        cls._backward_cls = type(short_name, (BackwardCFunction,), node_attrs)
        # PyTorch 2's second style: ``forward(*args)`` takes no ctx, and ``setup_context(ctx,
        # inputs, output)`` saves what backward needs (see ``_run_forward``).
        cls._separate_setup = "setup_context" in attrs and name != "Function" or any(
            getattr(b, "_separate_setup", False) for b in bases)
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    """Base class for differentiable operations, as ``torch.autograd.Function``.

    Subclass it with static ``forward(ctx, ...)`` and ``backward(ctx, *grads)`` methods and call
    ``MyOp.apply(...)``. Never instantiate it. Backward formulas written with minitorch tensor
    operations are themselves differentiable, so higher-order gradients work.
    """

    _builtin = False
    _edge_args = None  # a built-in may list the argument positions that get edges

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError(
            "Function objects are not meant to be instantiated: call the static "
            f"{type(self).__name__}.apply(...) instead."
        )

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        """The other way to write a Function (PyTorch 2): ``forward(*inputs)`` without ctx,
        and this, called after it, to save on ``ctx`` what backward needs."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args):
        """Run ``forward`` and, if grad mode is on and an input requires grad, record the ctx
        as a node of the graph (``_record_node``)."""
        if _profiler is not None and _profiler.wants(cls):  # autograd.profiler times each op
            return _profiler.time_op(cls, args)
        if _backend.devices_in_use:  # some tensor left the CPU: check they are together
            _check_devices(args)
        if cls._separate_setup and not cls._builtin:  # setup_context sees the defaults too
            args = _with_defaults(cls.forward, args)
        # Which inputs need a gradient? Only asked in grad mode: under no_grad, and in a
        # backward pass without create_graph, nothing is recorded and forward is all there is.
        needs = []
        if grad_mode._state.enabled:
            for a in args:
                needs.append(isinstance(a, Tensor) and a._requires_grad)
        if True not in needs:
            if cls._builtin and cls._separate_setup:  # its setup_context only saves for
                return cls.forward(*args)  # backward: with nothing recorded, no ctx at all
            ctx = cls._backward_cls()
            ctx._inputs = args  # ``ctx.needs_input_grad`` is worked out if forward asks
            return _run_forward(cls, ctx, args)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(needs)
        ctx._record = True  # ``save_for_backward`` keeps what it is given
        return _record_node(ctx, args, _run_forward(cls, ctx, args))


def _with_defaults(forward, args: tuple) -> tuple:
    """``args`` bound to ``forward``'s signature, with its defaults filled in, as PyTorch does
    for a Function with ``setup_context`` (a call that does not fit raises its TypeError)."""
    bound = inspect.signature(forward).bind(*args)
    bound.apply_defaults()
    return bound.args


def _run_forward(cls, ctx, args):
    """``forward(ctx, *args)``; or, for a Function with its own ``setup_context``,
    ``forward(*args)`` and then ``setup_context(ctx, args, output)``.

    A learner's Function runs under ``no_grad``, as in PyTorch: the operations inside it are
    not recorded (the Function's own node stands for them). A built-in computes on arrays.
    """
    if cls._builtin:
        return _forward_and_setup(cls, ctx, args)
    with grad_mode.no_grad():
        out = _forward_and_setup(cls, ctx, args)
    # with no node recorded, hand back what PyTorch does (outputs detached: _tensor._untracked)
    return out if ctx._record else _untracked(out, args, ctx)


def _forward_and_setup(cls, ctx, args):
    if not cls._separate_setup:
        return cls.forward(ctx, *args)
    out = cls.forward(*args)
    cls.setup_context(ctx, args, out)
    return out


def _record_node(ctx, args: tuple, out):
    """Put ``ctx`` into the graph as the node that made ``out``.

    Its edges point at where each input came from (the input's ``grad_fn``, or the
    ``AccumulateGrad`` of a leaf), and it keeps each input's shape and dtype so that the engine
    can check the gradients backward returns. The inputs are the Tensor arguments, or for a
    built-in the arguments it lists in ``_edge_args`` (``where`` has no edge for its condition,
    ``clamp`` one per bound, even a missing one). Then the node becomes the ``grad_fn`` of each
    output that can carry a gradient: a floating-point tensor not marked non-differentiable.
    """
    cls, listed = ctx._forward_cls, ctx._forward_cls._edge_args
    edges, meta = [], []
    for a in (args if listed is None else map(args.__getitem__, listed)):
        if isinstance(a, Tensor):
            edges.append(a._edge())
            meta.append((a._data.shape, a._data.dtype))
        elif listed is not None:  # a listed argument that is None gets an empty edge
            edges.append(_NO_EDGE)
            meta.append(_NO_META)
    if not cls._builtin:  # which arguments of a learner's forward have edges
        ctx._edge_args = listed if listed is not None else tuple(
            [i for i, a in enumerate(args) if isinstance(a, Tensor)])
    ctx._next, ctx._input_meta, ctx._seq = tuple(edges), tuple(meta), next(_sequence)
    outputs = out if isinstance(out, tuple) else (out,)
    for i, o in enumerate(outputs):
        if not isinstance(o, Tensor) or o._data.dtype.kind != "f" or (
                ctx._non_differentiable and any(o is n for n in ctx._non_differentiable)):
            continue  # an integer output (indices, a mask) carries no gradient
        if not cls._builtin and any(o is a for a in args):
            o = o.view_as(o)  # a learner's forward returned an input: record on an alias
            outputs = outputs[:i] + (o,) + outputs[i + 1:]
        o._set_history(ctx, i)
    if ctx._saved:  # outputs saved in forward were saved before their node existed
        _name_saved_outputs(ctx, outputs)
    if len(outputs) > 1:  # to hand zeros to backward for outputs that get no gradient
        ctx._num_outputs = len(outputs)
        ctx._output_meta = tuple((o._data.shape, o.dtype) if isinstance(o, Tensor)
                                 else None for o in outputs)
    for watch in node_watchers:  # record_forward, anomaly mode, saved_tensors_hooks
        watch(ctx, outputs)
    return outputs if isinstance(out, tuple) else outputs[0]


def _name_saved_outputs(ctx, outputs) -> None:
    """Outputs saved in forward were saved before their node existed: name it now."""
    if ctx._saved is _FREED:
        return
    for s in ctx._saved:
        if s is not None and s.origin is None:
            for i, o in enumerate(outputs):
                if s.tensor is o:
                    s.origin = (ctx, i)


# minitorch/_tensor.py sets this to the Tensor class (it is defined after this module).
Tensor: type = type(None)
# Set by other modules: what ``grad_fn._raw_saved_<name>`` gives (autograd/graph.py); the
# device check of apply, and what a Function that records no node hands back (_tensor.py)
_raw_saved = _check_devices = _untracked = None


def once_differentiable(fn):
    """Decorate a ``backward`` that is not itself differentiable (runs it under no_grad)."""

    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            return fn(ctx, *grads)

    return wrapper

"""``torch.utils.checkpoint``: trade compute for memory by recomputing a part of the forward.

``checkpoint(fn, *args, use_reentrant=False)`` runs ``fn`` and keeps, for backward, only its
inputs: whatever the operations inside ``fn`` save for backward is thrown away, and ``fn`` runs
again in backward to get it back. Two ways, as in PyTorch:

* ``use_reentrant=False`` (recommended) is built on
  :class:`~minitorch.autograd.graph.saved_tensors_hooks`. The forward is recorded as usual, but
  each saved tensor is packed into an empty ``_Holder``. The first time backward unpacks a
  holder that is empty, ``fn`` runs again on the kept inputs under a second pair of hooks that
  fills the holders in order (and stops as soon as all are filled); each unpack then empties its
  holder, so the recomputed tensors live only as long as backward needs them.
* ``use_reentrant=True`` is a ``Function`` (:class:`CheckpointFunction`): its forward runs ``fn``
  under ``no_grad``, and its backward runs ``fn`` again under ``enable_grad`` and calls
  ``backward`` on that fresh graph from inside backward (hence *reentrant*).

With ``preserve_rng_state=True`` (the default) the recomputation starts from the random state
the forward started from, so a dropout inside ``fn`` draws the same mask both times.

Example:
    >>> import minitorch
    >>> from minitorch.utils.checkpoint import checkpoint
    >>> x = minitorch.tensor([1.0, 2.0], requires_grad=True)
    >>> y = checkpoint(lambda t: (t * t).sin(), x, use_reentrant=False)
    >>> y.sum().backward(); x.grad
    tensor([ 1.0806, -2.6146])
"""

from __future__ import annotations

import contextlib
import warnings
import weakref

from minitorch import _random
from minitorch._tensor import Tensor
from minitorch.autograd import engine, function, grad_mode, graph
from minitorch.autograd.function import Function

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError", "CheckpointFunction",
           "check_backward_validity", "detach_variable", "noop_context_fn",
           "set_checkpoint_early_stop", "set_checkpoint_debug_enabled"]

_DEFAULT_DETERMINISM_MODE = "default"
_checkpoint_debug_enabled: bool | None = None
_enable_checkpoint_early_stop: bool | None = None


class CheckpointError(RuntimeError):
    """The recomputation did not save what the forward saved (see ``determinism_check``)."""


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None):
    """Override the ``debug`` flag of every checkpoint run inside (None: leave it to each)."""
    global _checkpoint_debug_enabled
    prev, _checkpoint_debug_enabled = _checkpoint_debug_enabled, enabled
    try:
        yield
    finally:
        _checkpoint_debug_enabled = prev


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool):
    """Whether non-reentrant checkpoints made inside stop recomputing as soon as every saved
    tensor is back (overrides their ``early_stop``)."""
    global _enable_checkpoint_early_stop
    prev, _enable_checkpoint_early_stop = _enable_checkpoint_early_stop, enable
    try:
        yield
    finally:
        _enable_checkpoint_early_stop = prev


def noop_context_fn():
    """The default ``context_fn``: no context for the forward nor for the recomputation."""
    return contextlib.nullcontext(), contextlib.nullcontext()


def detach_variable(inputs: tuple) -> tuple:
    """Each tensor of ``inputs`` detached, requiring grad as it did (other values as they are)."""
    if not isinstance(inputs, tuple):
        raise RuntimeError("Only tuple of tensors is supported. Got Unsupported input type: "
                           f"{type(inputs).__name__}")
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad = inp.requires_grad
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs) -> None:
    """Warn when no tensor input requires grad: a reentrant checkpoint then has no graph."""
    if not any(inp.requires_grad for inp in inputs if isinstance(inp, Tensor)):
        warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                      stacklevel=2)


@contextlib.contextmanager
def _rng_as_in_forward(state):
    """Run with the global random state set to ``state`` (None: leave it alone), and put the
    surrounding state back afterwards (PyTorch's ``fork_rng``)."""
    if state is None:
        yield
        return
    outside = _random.get_rng_state()
    _random.set_rng_state(state)
    try:
        yield
    finally:
        _random.set_rng_state(outside)


# ---------------------------------------------------------------- use_reentrant=True
def _is_checkpoint_valid() -> bool:
    """False when the backward running now was asked for some inputs only (``autograd.grad``,
    ``backward(inputs=...)``): the recomputed graph's own backward would not reach them."""
    return not any(isinstance(run, engine._Capture) for run in engine.passes.running)


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward under ``no_grad``, keeping the inputs; backward runs
    the function again under ``enable_grad`` and backward through that graph."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        check_backward_validity(args)
        ctx.run_function = run_function
        ctx.fwd_cpu_state = _random.get_rng_state() if preserve_rng_state else None
        # non-tensor inputs are kept on ctx, tensors saved for backward (None holds their place)
        ctx.inputs, ctx.tensor_indices, tensor_inputs = [], [], []
        for i, arg in enumerate(args):
            if isinstance(arg, Tensor):
                tensor_inputs.append(arg)
                ctx.tensor_indices.append(i)
                ctx.inputs.append(None)
            else:
                ctx.inputs.append(arg)
        ctx.save_for_backward(*tensor_inputs)
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *args):
        if not _is_checkpoint_valid():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument.")
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with _rng_as_in_forward(ctx.fwd_cpu_state):
            detached_inputs = detach_variable(tuple(inputs))
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached_inputs)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        # backward from the outputs that require grad only
        pairs = [(o, g) for o, g in zip(outputs, args)
                 if isinstance(o, Tensor) and o.requires_grad]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not "
                               "necessary")
        engine.backward([o for o, _ in pairs], [g for _, g in pairs])
        grads = tuple(inp.grad if isinstance(inp, Tensor) else None for inp in detached_inputs)
        return (None, None) + grads


# ---------------------------------------------------------------- use_reentrant=False
_debug_tip_msg = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint‑debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""


def _default_meta_extractor(x) -> dict:
    return {"shape": x.shape, "dtype": x.dtype, "device": x.device}


_allowed_determinism_checks_to_fns = {
    _DEFAULT_DETERMINISM_MODE: _default_meta_extractor,
    "none": lambda _: None,
}

_EMPTY = object()  # a holder between recomputations


class _Holder:
    """What the forward's pack hook keeps instead of a saved tensor: empty until a
    recomputation fills it, and emptied again by the unpack that takes the tensor."""

    __slots__ = ("value", "__weakref__")

    def __init__(self) -> None:
        self.value = _EMPTY


class _StopRecomputationError(Exception):
    """Raised by the recomputation's pack hook once every holder is filled (early stop)."""


class _CheckpointFrame:
    """One non-reentrant checkpoint: its inputs, how to recompute, and the holders of what the
    forward saved, in the order it saved them (weakly: a holder whose node was freed is gone)."""

    def __init__(self, recompute_fn, early_stop: bool, metadata_fn) -> None:
        self.recompute_fn = recompute_fn
        self.early_stop = early_stop
        self.metadata_fn = metadata_fn
        self.saved_args: list = []
        self.weak_holders: list = []
        self.x_metadatas: list = []
        self.recomp_counter = 0
        self.forward_completed = False
        self.ignore_saved_mismatch = False

    def save_inputs(self, *args) -> None:
        # The inputs are saved tensors (a later in-place change is the usual version error);
        # inside an outer checkpoint they are packed by its hooks, so it recomputes them.
        self.saved_args = [_save_input(a) if isinstance(a, Tensor) else a for a in args]

    def get_inputs(self) -> list:
        return [a.unpack() if isinstance(a, (function.SavedTensor, graph._HookedSaved)) else a
                for a in self.saved_args]

    def recompute(self) -> None:
        """Run the function again, filling the holders that are still alive."""
        self.recomp_counter = 0
        try:
            with _recomputation_hook(self), grad_mode.enable_grad():
                self.recompute_fn(*self.get_inputs())
        except _StopRecomputationError:
            pass
        self.check_recomputed_tensors_match()

    def check_recomputed_tensors_match(self) -> None:
        if self.ignore_saved_mismatch:
            return
        if len(self.weak_holders) != self.recomp_counter:
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.weak_holders)}\n"
                f"Number of tensors saved during recomputation: {self.recomp_counter}.\n"
                f"{_debug_tip_msg}")
        different = []
        for idx, weak_holder in enumerate(self.weak_holders):
            holder = weak_holder()
            if holder is None or holder.value is _EMPTY:
                continue
            x_meta, now = self.x_metadatas[idx], self.metadata_fn(holder.value)
            if x_meta != now:
                different.append(f"tensor at position {idx}:\nsaved metadata: {x_meta}\n"
                                  f"recomputed metadata: {now}\n")
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{''.join(different)}.\n"
                f"{_debug_tip_msg}")


def _save_input(t):
    if graph._hooks.stack:  # an outer checkpoint (or other hooks) packs it
        pack_hook, unpack_hook = graph._hooks.stack[-1]
        return graph._HookedSaved(t, pack_hook, unpack_hook,
                                  t._edge() if t.requires_grad else (None, 0))
    return function.SavedTensor(t)


class _checkpoint_hook(graph.saved_tensors_hooks):  # noqa: N801
    """The forward's hooks: each saved tensor becomes an empty holder (its shape, dtype and
    device are noted for the determinism check); unpacking an empty holder recomputes."""

    def __init__(self, frame: _CheckpointFrame) -> None:
        def pack_hook(x):
            holder = _Holder()
            frame.weak_holders.append(weakref.ref(holder))
            frame.x_metadatas.append(frame.metadata_fn(x))
            return holder

        def unpack_hook(holder):
            if holder.value is _EMPTY:
                frame.recompute()
            ret, holder.value = holder.value, _EMPTY
            return ret

        super().__init__(pack_hook, unpack_hook)


class _recomputation_hook(graph.saved_tensors_hooks):  # noqa: N801
    """The recomputation's hooks: the k-th tensor saved goes into the forward's k-th holder."""

    def __init__(self, frame: _CheckpointFrame) -> None:
        def pack_hook(x):
            x = x.detach() if x.requires_grad else x
            idx = frame.recomp_counter
            frame.recomp_counter += 1
            if idx >= len(frame.weak_holders):
                if not frame.forward_completed:  # a backward inside the checkpointed function
                    frame.ignore_saved_mismatch = True
                    return x
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    f"than during the original forward pass.\n{_debug_tip_msg}")
            holder = frame.weak_holders[idx]()
            if holder is not None:  # (None: its node was freed, nobody will unpack it)
                holder.value = x
            if frame.early_stop and frame.recomp_counter == len(frame.weak_holders):
                raise _StopRecomputationError
            return x

        super().__init__(pack_hook, lambda x: x)


def _checkpoint_without_reentrant_generator(fn, preserve_rng_state=True,
                                            context_fn=noop_context_fn,
                                            determinism_check=_DEFAULT_DETERMINISM_MODE,
                                            debug=False, early_stop=True, *args, **kwargs):
    """Set up the checkpoint, yield while the caller runs ``fn``, then finish: the forward
    runs between the two steps of this generator, under the forward's hooks."""
    if _checkpoint_debug_enabled if _checkpoint_debug_enabled is not None else debug:
        if context_fn is not noop_context_fn:
            raise ValueError("debug=True is incompatible with non-default context_fn")
    if determinism_check not in _allowed_determinism_checks_to_fns:
        raise ValueError(
            "determinism_check should be one of "
            f"{list(_allowed_determinism_checks_to_fns.keys())}, but got {determinism_check}")
    metadata_fn = _allowed_determinism_checks_to_fns[determinism_check]
    forward_context, recompute_context = context_fn()
    fwd_cpu_state = _random.get_rng_state() if preserve_rng_state else None

    def recompute_fn(*inputs) -> None:
        with _rng_as_in_forward(fwd_cpu_state), recompute_context:
            fn(*inputs, **kwargs)

    frame = _CheckpointFrame(recompute_fn, _enable_checkpoint_early_stop
                             if _enable_checkpoint_early_stop is not None else early_stop,
                             metadata_fn)
    if not grad_mode.is_grad_enabled():
        yield
        return
    frame.save_inputs(*args)
    suppressed = False
    with _checkpoint_hook(frame), forward_context:
        try:
            yield
        except BaseException:
            suppressed = True
            raise
    if suppressed:
        raise RuntimeError(_SUPPRESSED)
    frame.forward_completed = True


_SUPPRESSED = (
    "torch.utils.checkpoint: the forward context provided by context_fn suppressed an exception "
    "raised during the checkpointed forward. This is not supported because checkpoint cannot "
    "return a value for a failed forward.")


# ---------------------------------------------------------------- the API
def checkpoint(function, *args, use_reentrant: bool | None = None, context_fn=noop_context_fn,
               determinism_check: str = _DEFAULT_DETERMINISM_MODE, debug: bool = False,
               early_stop: bool = True, **kwargs):
    """Run ``function(*args, **kwargs)`` keeping only its inputs for backward: what it saves is
    recomputed in backward by running it again.

    Args:
        function: the part of the model to run.
        args: its arguments (tensors or not).
        use_reentrant: pass it. False (recommended) works with ``autograd.grad``,
            ``backward(inputs=...)``, keyword arguments and double backward; True is the old
            ``Function`` (the default when omitted, with a warning, as in PyTorch).
        context_fn: returns two context managers, for the forward and for the recomputation
            (non-reentrant only).
        determinism_check: ``"default"`` checks that the recomputation saved tensors of the
            same shapes, dtypes and devices as the forward; ``"none"`` checks nothing.
        debug: accepted as in PyTorch; minitorch's errors carry no operator logs.
        early_stop: stop the recomputation once every saved tensor is back.
        preserve_rng_state (keyword): recompute from the forward's random state (default True).
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant:
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError("Passing `context_fn` or `debug` is only supported when "
                             "use_reentrant=False.")
        return CheckpointFunction.apply(function, preserve, *args)
    gen = _checkpoint_without_reentrant_generator(
        function, preserve, context_fn, determinism_check, debug, early_stop, *args, **kwargs)
    next(gen)  # before the forward
    try:
        ret = function(*args, **kwargs)
    except BaseException as e:
        try:
            gen.throw(e)
        except StopIteration as stop:
            raise RuntimeError(_SUPPRESSED) from stop
        raise
    try:
        next(gen)  # after it
    except StopIteration:
        return ret
    raise AssertionError("torch.utils.checkpoint: expected context_fn generator to yield "
                         "exactly twice, but it yielded more than twice.")


def checkpoint_sequential(functions, segments, input, use_reentrant=None, **kwargs):  # noqa: A002
    """Run ``functions`` (an ``nn.Sequential`` or a list of modules or functions) one after
    another on ``input``, in ``segments`` chunks: every chunk but the last is checkpointed."""
    from minitorch import nn

    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run_function(start, end, functions):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    if isinstance(functions, nn.Sequential):
        functions = list(functions.children())
    segment_size = len(functions) // segments
    out, end = input, -1  # the last chunk is not checkpointed
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        out = checkpoint(run_function(start, end, functions), out,
                         use_reentrant=use_reentrant, preserve_rng_state=preserve)
    return run_function(end + 1, len(functions) - 1, functions)(out)

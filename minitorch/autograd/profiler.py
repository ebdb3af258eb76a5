"""``autograd.profiler``: where does the time go? Time every operation and backward node.

While a :class:`profile` is active, ``Function.apply`` (every differentiable operation) and the
backward engine (every node it runs, as one of its ``observers``) report to it; when none is
active they test one module-level variable and go on. Each report is a :class:`FunctionEvent`
with a start and an end; events that start inside another one are its *children*:

* ``CPU total``: the time from start to end, children included;
* ``Self CPU``: the total minus the children's totals -- the time spent in the event itself.

Forward operations are named as PyTorch's kernels are (``aten::mm``, ``aten::relu``);
backward nodes by their node name (``MmBackward0``); :class:`record_function` adds your own
named ranges. ``key_averages()`` groups the events by name and ``table()`` prints them in
PyTorch's layout.

Operations that are not autograd Functions (creating tensors, comparisons, ``sign``) are not
timed separately: their time counts in the enclosing event's ``Self CPU``.

Example:
    >>> import minitorch
    >>> x = minitorch.randn(64, 32, requires_grad=True)
    >>> with minitorch.autograd.profiler.profile() as prof:
    ...     with minitorch.autograd.profiler.record_function("forward"):
    ...         loss = (x @ x.T).relu().sum()
    ...     loss.backward()
    >>> print(prof.key_averages().table(sort_by="cpu_time_total"))  # doctest: +SKIP
    >>> [e.name for e in prof.function_events][:5]
    ['forward', 'aten::permute', 'aten::mm', 'aten::relu', 'aten::sum']
"""

from __future__ import annotations

import json
import re
import time
from collections import OrderedDict

from minitorch.autograd import engine as _engine
from minitorch.autograd import function as _function

__all__ = ["profile", "record_function", "FunctionEvent", "FunctionEventAvg", "EventList"]

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])|(?<=[a-z])(?=[A-Z])")


def _op_name(cls) -> str:
    """``aten::`` and the snake-case name of a built-in op (``MaxPool2DWithIndicesBackward0``
    -> ``aten::max_pool2d_with_indices``); a learner's Function keeps its class name."""
    if not cls._builtin:
        return cls.__name__
    node = cls._backward_cls.__name__
    base = re.sub(r"Backward\d*$", "", node) or cls.__name__
    return "aten::" + _CAMEL.sub("_", base).lower()


def _now_us() -> float:
    return time.perf_counter_ns() / 1000.0


def _format_time(time_us: float) -> str:
    """``1.234ms``, as PyTorch prints times."""
    if time_us >= 1e6:
        return f"{time_us / 1e6:.3f}s"
    if time_us >= 1e3:
        return f"{time_us / 1e3:.3f}ms"
    return f"{time_us:.3f}us"


def _format_memory(nbytes: int) -> str:
    """``39.06 KB``, as PyTorch prints memory."""
    for unit, size in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if abs(nbytes) >= size:
            return f"{nbytes / size:.2f} {unit}"
    return f"{nbytes} B"


def _format_share(time_us: float, total_us: float) -> str:
    return "NaN" if total_us == 0 else f"{time_us * 100.0 / total_us:.2f}%"


class FunctionEvent:
    """One timed range: an operation, a backward node or a ``record_function`` block."""

    def __init__(self, id: int, name: str, start_us: float, input_shapes=None) -> None:  # noqa: A002
        self.id = id
        self.name = name
        self.start_us = start_us
        self.end_us = start_us
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None
        self.input_shapes = input_shapes or []
        self.allocated = 0  # the bytes of its outputs (recorded with profile_memory=True)

    @property
    def key(self) -> str:
        return self.name

    @property
    def count(self) -> int:
        return 1

    @property
    def cpu_time_total(self) -> float:
        """Start to end, in microseconds (children included)."""
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self) -> float:
        """The total minus the children's totals, in microseconds."""
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    cpu_time = cpu_time_total

    @property
    def cpu_memory_usage(self) -> int:
        """The bytes it and its children allocated."""
        return self.allocated + sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def self_cpu_memory_usage(self) -> int:
        return self.allocated

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time="
                f"{_format_time(self.cpu_time_total)} self_cpu_time="
                f"{_format_time(self.self_cpu_time_total)} "
                f"cpu_children={[c.id for c in self.cpu_children]}>")


class FunctionEventAvg:
    """The events of one name, added up (a row of ``key_averages()``)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.input_shapes = None

    def add(self, event) -> FunctionEventAvg:
        self.count += event.count
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        self.cpu_memory_usage += event.cpu_memory_usage
        self.self_cpu_memory_usage += event.self_cpu_memory_usage
        return self

    @property
    def cpu_time(self) -> float:
        """The average total time per call, in microseconds."""
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time="
                f"{_format_time(self.self_cpu_time_total)} cpu_time="
                f"{_format_time(self.cpu_time)} count={self.count}>")


_SORT_KEYS = {"cpu_time", "cpu_time_total", "self_cpu_time_total", "count",
              "cpu_memory_usage", "self_cpu_memory_usage"}


class EventList(list):
    """A list of events (or of averages) that can print itself as PyTorch's table (with the
    memory columns when ``profile_memory`` is set)."""

    def __init__(self, events=(), profile_memory: bool = False) -> None:
        super().__init__(events)
        self.profile_memory = profile_memory

    def key_averages(self, group_by_input_shape: bool = False) -> EventList:
        """One :class:`FunctionEventAvg` per event name (per name and shapes if asked)."""
        groups: OrderedDict = OrderedDict()
        for e in self:
            name = "ProfilerStep*" if e.key.startswith("ProfilerStep#") else e.key  # all steps
            key = (name, str(e.input_shapes)) if group_by_input_shape else name
            if key not in groups:
                groups[key] = FunctionEventAvg(name)
                if group_by_input_shape:
                    groups[key].input_shapes = e.input_shapes
            groups[key].add(e)
        return EventList(groups.values(), self.profile_memory)

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total")
        for e in self:
            total.add(e)
        return total

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by: str | None = None, row_limit: int = 100,
              max_name_column_width: int = 55, max_shapes_column_width: int = 80,
              header: str | None = None,
              top_level_events_only: bool = False, **kwargs) -> str:
        """The events as PyTorch's profiler table: Name, Self CPU %, Self CPU, CPU total %,
        CPU total, CPU time avg, # of Calls; sorted by ``sort_by`` (largest first)."""
        if sort_by is not None and sort_by not in _SORT_KEYS:
            raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
        events = list(self)
        if top_level_events_only:
            events = [e for e in events if getattr(e, "cpu_parent", None) is None]
        total = self.self_cpu_time_total
        if sort_by is not None:
            events.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        if row_limit is not None and row_limit >= 0:
            events = events[:row_limit]
        if not self:
            return ""
        name_width = min(max(len(e.key) for e in self) + 4, max_name_column_width)
        headers = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total",
                   "CPU time avg"] + ["CPU Mem", "Self CPU Mem"] * self.profile_memory + [
                   "# of Calls"]
        widths = [name_width] + [12] * (len(headers) - 1)
        has_shapes = any(getattr(e, "input_shapes", None) for e in self)
        if has_shapes:  # recorded with record_shapes=True (grouped by them, for averages)
            headers.append("Input Shapes")
            widths.append(min(max(len(str(e.input_shapes)) for e in self) + 4,
                              max_shapes_column_width))
        row_format = "".join("{:>" + str(w) + "}  " for w in widths)
        separator = "".join("-" * w + "  " for w in widths)
        lines = [separator]
        if header is not None:
            lines = ["=" * (len(separator) - 2), header, *lines]
        lines += [row_format.format(*headers), separator]
        for e in events:
            name = e.key
            if len(name) >= max_name_column_width - 3:
                name = name[:max_name_column_width - 3] + "..."
            memory = [_format_memory(e.cpu_memory_usage),
                      _format_memory(e.self_cpu_memory_usage)] if self.profile_memory else []
            lines.append(row_format.format(
                name, _format_share(e.self_cpu_time_total, total),
                _format_time(e.self_cpu_time_total), _format_share(e.cpu_time_total, total),
                _format_time(e.cpu_time_total), _format_time(e.cpu_time), *memory, e.count,
                *[str(e.input_shapes)[:widths[-1]]] * has_shapes))
        lines += [separator, f"Self CPU time total: {_format_time(total)}", ""]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace (open it in chrome://tracing or Perfetto)."""
        trace = [{"name": e.name, "ph": "X", "ts": e.start_us, "dur": e.cpu_time_total,
                  "pid": 0, "tid": 0, "cat": "cpu_op"} for e in self
                 if isinstance(e, FunctionEvent)]
        with open(path, "w") as f:
            json.dump({"traceEvents": trace}, f)


class profile:  # noqa: N801  (PyTorch's name)
    """Time every operation and backward node run inside the ``with`` block.

    Args:
        enabled: ``False`` makes the block a no-op.
        record_shapes: also remember the input shapes of each operation (for
            ``key_averages(group_by_input_shape=True)``).
        profile_memory: also count the bytes of each operation's outputs (the ``CPU Mem``
            and ``Self CPU Mem`` columns; PyTorch counts every allocation, temporaries too).
        use_cuda, with_stack, with_flops, with_modules: accepted for compatibility;
            minitorch times the CPU (NumPy) work only.
    """

    def __init__(self, enabled: bool = True, *, use_cuda: bool = False,
                 use_device=None, record_shapes: bool = False, with_flops: bool = False,
                 profile_memory: bool = False, with_stack: bool = False,
                 with_modules: bool = False, use_kineto: bool = False,
                 use_cpu: bool = True, experimental_config=None, acc_events: bool = False,
                 custom_trace_id_callback=None) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self._events: list[FunctionEvent] = []
        self._stack: list[FunctionEvent] = []
        self._bypass = False
        self._previous = None
        self._entered = False

    # ---------------------------------------------------------------- the hooks
    def wants(self, cls) -> bool:
        """Called by ``Function.apply``: False once, for the call :meth:`time_op` makes."""
        if self._bypass:
            self._bypass = False
            return False
        return True

    def time_op(self, cls, args):
        """Time ``cls.apply(*args)`` as one event (the ops it calls become its children)."""
        shapes = None
        if self.record_shapes:
            shapes = [list(a.shape) if isinstance(a, _function.Tensor) else [] for a in args]
        self.begin(_op_name(cls), shapes)
        try:
            self._bypass = True
            out = cls.apply(*args)
            if self.profile_memory:
                self._stack[-1].allocated = sum(
                    o.nbytes for o in (out if isinstance(out, tuple) else (out,))
                    if isinstance(o, _function.Tensor))
            return out
        finally:
            self._bypass = False
            self.end()

    def begin(self, name: str, input_shapes=None) -> None:
        event = FunctionEvent(len(self._events), name, _now_us(), input_shapes)
        if self._stack:
            event.cpu_parent = self._stack[-1]
            self._stack[-1].cpu_children.append(event)
        self._events.append(event)
        self._stack.append(event)

    def end(self) -> None:
        self._stack.pop().end_us = _now_us()

    def node_started(self, node, grads) -> None:
        """Called by the backward engine (this profile is one of its observers)."""
        self.begin(node.name())

    def node_finished(self, node, grads, outs) -> None:
        self.end()

    # ---------------------------------------------------------------- the context manager
    def __enter__(self) -> profile:
        if self._entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self._entered = True
        if self.enabled:
            self._previous = _function._profiler
            _function._profiler = self  # Function.apply times each op
            _engine.observers.append(self)  # the engine each backward node
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled:
            _function._profiler = self._previous
            _engine.observers.remove(self)
            while self._stack:  # ranges left open by an exception end here
                self.end()
        self._entered = False

    # ---------------------------------------------------------------- the results
    def _check_finished(self) -> None:
        if self._entered:
            raise RuntimeError("Profiler didn't finish running")

    @property
    def function_events(self) -> EventList:
        """Every event, in the order they started."""
        self._check_finished()
        return EventList(self._events, self.profile_memory)

    def events(self) -> EventList:
        return self.function_events

    def key_averages(self, group_by_input_shape: bool = False, **kwargs) -> EventList:
        """One row per event name: calls, total and self time (see :class:`EventList`)."""
        return self.function_events.key_averages(group_by_input_shape)

    def total_average(self) -> FunctionEventAvg:
        return self.function_events.total_average()

    @property
    def self_cpu_time_total(self) -> float:
        """The time of the whole profile: the sum of every event's self time."""
        return self.function_events.self_cpu_time_total

    def table(self, *args, **kwargs) -> str:
        return self.function_events.table(*args, **kwargs)

    def export_chrome_trace(self, path: str) -> None:
        self.function_events.export_chrome_trace(path)

    def __str__(self) -> str:
        return self.table()


class record_function:  # noqa: N801  (PyTorch's name)
    """Label a block of code in the profile: its time shows as a row named ``name``.

    Works as a context manager and as a decorator; costs nothing without a profiler.

    >>> import minitorch
    >>> with minitorch.autograd.profiler.profile() as prof:
    ...     with minitorch.autograd.profiler.record_function("my_block"):
    ...         y = minitorch.ones(3, requires_grad=True) * 2
    >>> [e.name for e in prof.function_events]
    ['my_block', 'aten::mul']
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self._profiler = None

    def __enter__(self) -> record_function:
        self._profiler = _function._profiler
        if self._profiler is not None:
            self._profiler.begin(self.name)
        return self

    def __exit__(self, *exc) -> None:
        if self._profiler is not None:
            self._profiler.end()
            self._profiler = None

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name):
                return fn(*args, **kwargs)

        return wrapper

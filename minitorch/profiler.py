"""``minitorch.profiler``: the newer spelling of :mod:`minitorch.autograd.profiler`.

``torch.profiler.profile(activities=[ProfilerActivity.CPU])`` tutorials run unchanged: the
profile is the same autograd profile (CPU time of each operation and backward node), and a
``schedule`` (made by :func:`schedule`) records only some steps of a long job, handing each
finished trace to ``on_trace_ready`` as PyTorch's does.

>>> import minitorch
>>> from minitorch.profiler import profile, record_function, ProfilerActivity
>>> with profile(activities=[ProfilerActivity.CPU]) as prof:
...     with record_function("model_inference"):
...         y = minitorch.ones(2, 2, requires_grad=True).relu()
>>> prof.key_averages()[0].key
'model_inference'
"""

from __future__ import annotations

import enum
import warnings

from minitorch.autograd import profiler as _autograd_profiler
from minitorch.autograd.profiler import EventList, record_function

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "EventList"]


class ProfilerActivity(enum.Enum):
    """What to profile: minitorch measures ``CPU`` (NumPy) time; ``CUDA`` is accepted."""

    CPU = 0
    CUDA = 2


class ProfilerAction(enum.Enum):
    """What a :func:`schedule` tells the profiler to do at a step."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
             skip_first_wait: int = 0):
    """The step -> :class:`ProfilerAction` function PyTorch's ``schedule`` returns: skip
    ``skip_first`` steps, then cycles of ``wait`` idle steps, ``warmup`` steps (not kept) and
    ``active`` recorded steps, the last of which saves the trace; ``repeat`` cycles (0: no end).

    >>> s = schedule(wait=1, warmup=1, active=2)
    >>> [s(i).name for i in range(4)]
    ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE']
    """
    def schedule_fn(step: int) -> ProfilerAction:
        if step < 0:
            raise AssertionError(f"Step must be non-negative. Got {step}.")
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return ProfilerAction.NONE
        if mod_step < wait + warmup:
            return ProfilerAction.WARMUP
        return (ProfilerAction.RECORD if mod_step < num_steps - 1
                else ProfilerAction.RECORD_AND_SAVE)

    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0).")
    if warmup == 0:
        warnings.warn("Profiler won't be using warmup, this can skew profiler results",
                      stacklevel=2)
    return schedule_fn


def _record_always(step: int) -> ProfilerAction:
    return ProfilerAction.RECORD


_warned_clearing = False


class profile(_autograd_profiler.profile):  # noqa: N801
    """``torch.profiler.profile``: an autograd profile with the newer keyword arguments.

    Without a ``schedule`` everything in the block is one trace. With one, :meth:`step` ends a
    step (each is a ``ProfilerStep#N`` range in the table): a WARMUP step starts a new trace,
    which keeps the RECORD steps and ends at the step after RECORD_AND_SAVE or at the end of
    the block, calling ``on_trace_ready(prof)`` (``prof.step_num`` is the step after it). A new
    trace forgets the old one's events unless ``acc_events=True``.
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False,
                 with_modules: bool = False, experimental_config=None,
                 execution_trace_observer=None, acc_events: bool = False,
                 use_cuda=None, custom_trace_id_callback=None) -> None:
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory)
        self.activities = activities
        self.acc_events = acc_events
        self.record_steps = schedule is not None
        self.schedule = schedule if schedule is not None else _record_always
        self.on_trace_ready = on_trace_ready
        self.step_num = 0
        self.step_rec_fn = None
        self.current_action = self.schedule(self.step_num)
        self._prepared = self._traced = False

    def start(self) -> None:
        self._transit(ProfilerAction.NONE, self.current_action)
        self._start_step()

    def stop(self) -> None:
        self._end_step()
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the end of a step (of a training loop): the schedule says what comes next."""
        self._end_step()
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)
        self._start_step()

    def _start_step(self) -> None:
        if self.record_steps:
            self.step_rec_fn = record_function(f"ProfilerStep#{self.step_num}")
            self.step_rec_fn.__enter__()

    def _end_step(self) -> None:
        if self.step_rec_fn is not None:
            self.step_rec_fn.__exit__(None, None, None)
            self.step_rec_fn = None

    def _transit(self, previous, current) -> None:
        """PyTorch's action map: prepare a trace (forget the last one) on entering WARMUP or
        RECORD, record during RECORD steps, hand it over after RECORD_AND_SAVE or at the end."""
        if (previous, current) in _WRONG_ORDER:
            warnings.warn(f"Incorrect schedule: {previous.name} followed by {current.name}",
                          stacklevel=3)
        if previous in _RECORDING and (previous is ProfilerAction.RECORD_AND_SAVE
                                       or current not in _RECORDING):
            super().__exit__(None, None, None)
            self._prepared = False
            if previous is ProfilerAction.RECORD_AND_SAVE or current is None:
                if self.on_trace_ready is not None:
                    self.on_trace_ready(self)
        if previous is ProfilerAction.WARMUP and current is None:
            self._prepared = False  # the warm-up's trace ends empty
        elif current in (ProfilerAction.WARMUP, *_RECORDING) and not self._prepared:
            self._prepare()
        if current in _RECORDING and not self._entered:
            super().__enter__()

    def _prepare(self) -> None:
        global _warned_clearing
        if self._traced and not self.acc_events and not _warned_clearing:
            _warned_clearing = True
            warnings.warn("Warning: Profiler clears events at the end of each cycle. Only "
                          "events from the current cycle will be reported. To keep events "
                          "across cycles, set acc_events=True.", stacklevel=4)
        if not self.acc_events:
            self._events, self._stack = [], []
        self._prepared = self._traced = True

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


_WRONG_ORDER = {(ProfilerAction.WARMUP, ProfilerAction.NONE),
                (ProfilerAction.RECORD, ProfilerAction.NONE),
                (ProfilerAction.RECORD, ProfilerAction.WARMUP)}

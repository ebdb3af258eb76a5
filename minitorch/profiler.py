"""``minitorch.profiler``: the newer spelling of :mod:`minitorch.autograd.profiler`.

``torch.profiler.profile(activities=[ProfilerActivity.CPU])`` tutorials run unchanged: the
activities, schedule and trace handler arguments are accepted, and the profile is the same
autograd profile (CPU time of each operation and backward node).

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

from minitorch.autograd import profiler as _autograd_profiler
from minitorch.autograd.profiler import EventList, record_function

__all__ = ["profile", "record_function", "ProfilerActivity", "EventList"]


class ProfilerActivity(enum.Enum):
    """What to profile: minitorch measures ``CPU`` (NumPy) time; ``CUDA`` is accepted."""

    CPU = 0
    CUDA = 2


class profile(_autograd_profiler.profile):  # noqa: N801
    """``torch.profiler.profile``: an autograd profile with the newer keyword arguments."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False,
                 with_modules: bool = False, experimental_config=None,
                 execution_trace_observer=None, acc_events: bool = False,
                 use_cuda=None, custom_trace_id_callback=None) -> None:
        super().__init__(record_shapes=record_shapes)
        self.activities = activities
        self.on_trace_ready = on_trace_ready

    def start(self) -> None:
        self.__enter__()

    def stop(self) -> None:
        self.__exit__(None, None, None)
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def step(self) -> None:
        """Mark a training step (schedules are not supported: everything is recorded)."""

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        if self.on_trace_ready is not None and exc[0] is None:
            self.on_trace_ready(self)

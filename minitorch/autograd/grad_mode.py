"""Grad modes: turning graph recording off and on.

Recording is a per-thread switch. ``no_grad``, ``enable_grad`` and ``set_grad_enabled`` flip it
for a block of code, and each works both as a context manager and as a decorator.

Example:
    >>> import minitorch
    >>> w = minitorch.ones(3, requires_grad=True)
    >>> with minitorch.no_grad():
    ...     y = w * 2
    >>> y.requires_grad
    False
"""

from __future__ import annotations

import functools
import threading

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode"]


class _State(threading.local):
    enabled = True  # every new thread starts with recording on, as in PyTorch


_state = _State()


def is_grad_enabled() -> bool:
    """Whether operations are recorded into the graph right now (on this thread)."""
    return _state.enabled


class _DecoratorContextManager:
    """A context manager that can also decorate a function (with or without parentheses)."""

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses: the function arrives as the only argument.
        if cls is not set_grad_enabled and len(args) == 1 and not kwargs and callable(args[0]):
            return cls()(args[0])
        return super().__new__(cls)

    def __call__(self, func):
        if getattr(getattr(func, "__code__", None), "co_flags", 0) & 0x20:  # generator
            raise TypeError(f"{type(self).__name__} does not decorate generator functions")

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return wrapper

    def clone(self):
        return type(self)()

    def __enter__(self):
        raise NotImplementedError

    def __exit__(self, *exc) -> None:
        _state.enabled = self._prev


class no_grad(_DecoratorContextManager):  # noqa: N801
    """Don't record operations: results of ops inside have ``requires_grad=False``.

    Use it for inference and for parameter updates. Works as ``with no_grad():`` and as
    ``@no_grad()``.

    >>> import minitorch
    >>> @minitorch.no_grad()
    ... def predict(x):
    ...     return x * 2
    >>> predict(minitorch.ones(1, requires_grad=True)).requires_grad
    False
    """

    def __enter__(self) -> None:
        self._prev = _state.enabled
        _state.enabled = False


class enable_grad(_DecoratorContextManager):  # noqa: N801
    """Record operations again, even inside a ``no_grad`` block.

    >>> import minitorch
    >>> x = minitorch.ones(1, requires_grad=True)
    >>> with minitorch.no_grad():
    ...     with minitorch.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    def __enter__(self) -> None:
        self._prev = _state.enabled
        _state.enabled = True


class set_grad_enabled(_DecoratorContextManager):  # noqa: N801
    """Set recording on or off. Takes effect at once when called as a function, and is
    restored on exit when used with ``with`` or as a decorator.

    >>> import minitorch
    >>> with minitorch.set_grad_enabled(False):
    ...     minitorch.is_grad_enabled()
    False
    """

    def __init__(self, mode: bool) -> None:
        self._prev = _state.enabled
        self.mode = bool(mode)
        _state.enabled = self.mode

    def __enter__(self) -> None:
        _state.enabled = self.mode

    def clone(self):
        prev = _state.enabled
        new = set_grad_enabled(self.mode)
        _state.enabled = prev
        new._prev = prev
        return new

    def __call__(self, func):
        _state.enabled = self._prev  # used as a decorator: don't change the mode now
        return super().__call__(func)


class inference_mode(no_grad):  # noqa: N801
    """Like ``no_grad`` (minitorch has no separate inference tensors)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        self._prev = _state.enabled
        if self.mode:
            _state.enabled = False

    def clone(self):
        return type(self)(self.mode)

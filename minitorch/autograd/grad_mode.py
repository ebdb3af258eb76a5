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

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled"]


class _State(threading.local):
    enabled = True  # every new thread starts with recording on, as in PyTorch
    inference = False  # inside inference_mode: new tensors are inference tensors


_state = _State()
# How many inference_mode(True) blocks are open, in all threads together. While it is 0 no
# thread is in inference mode, so making a tensor can skip reading the thread-local flag.
_inference_blocks = 0
_inference_lock = threading.Lock()


def is_grad_enabled() -> bool:
    """Whether operations are recorded into the graph right now (on this thread)."""
    return _state.enabled


def is_inference_mode_enabled() -> bool:
    """Whether ``inference_mode`` is on right now (on this thread)."""
    return _state.inference


class _DecoratorContextManager:
    """A context manager that can also decorate a function (with or without parentheses)."""

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses: the function arrives as the only argument.
        if args and cls is not set_grad_enabled and len(args) == 1 and not kwargs \
                and callable(args[0]):
            return cls()(args[0])
        return object.__new__(cls)

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


class inference_mode(_DecoratorContextManager):  # noqa: N801
    """``no_grad``, and more: tensors made inside are *inference tensors*.

    Inside, nothing is recorded (as under ``no_grad``). Tensors created inside also skip the
    bookkeeping that autograd would need later: they have no version counter (``t._version``
    raises), they may not be changed in place outside inference mode, and they may not be
    saved for backward. ``t.is_inference()`` tells them apart; ``t.clone()`` outside the block
    makes a normal tensor. ``inference_mode(False)`` switches both back on inside a block.

    >>> import minitorch
    >>> w = minitorch.ones(2, requires_grad=True)
    >>> with minitorch.inference_mode():
    ...     y = w * 2
    >>> y.requires_grad, y.is_inference(), w.is_inference()
    (False, True, False)
    """

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        global _inference_blocks
        self._prev = _state.enabled
        self._prev_inference = _state.inference
        if self.mode:
            with _inference_lock:
                _inference_blocks += 1
        _state.enabled = not self.mode
        _state.inference = self.mode

    def __exit__(self, *exc) -> None:
        global _inference_blocks
        _state.enabled = self._prev
        _state.inference = self._prev_inference
        if self.mode:
            with _inference_lock:
                _inference_blocks -= 1

    def clone(self):
        return type(self)(self.mode)

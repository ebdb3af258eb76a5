"""PyTorch's ``TORCH_WARN_ONCE``: a few warnings (a deprecated form, a slow path taken) are
given once a process, the first time their case happens, and never again.

Example:
    >>> import warnings
    >>> from minitorch._warnings import warn_once
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     for _ in range(3):
    ...         warn_once("doc-example", "said once")
    >>> [str(w.message) for w in caught]
    ['said once']
"""

from __future__ import annotations

import os
import sys
import warnings

__all__ = ["warn_once"]

_given: set = set()  # the keys of the warnings given so far in this process
warn_always = False  # torch.set_warn_always(True): every such warning is given every time


def warn_once(key: str, message: str, stacklevel: int = 2) -> None:
    """A ``UserWarning`` with ``message``, unless the warning ``key`` was given before.

    ``stacklevel`` counts as for ``warnings.warn`` called where ``warn_once`` is called: 2 names
    the line that called the function calling ``warn_once``."""
    if warn_always or key not in _given:
        _given.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel + 1)


# torch.use_deterministic_algorithms: the flags, read (one bool) by the operations that have
# no deterministic implementation, and by the factories that fill uninitialised memory
deterministic = False
deterministic_warn_only = False


def alert_not_deterministic(caller: str) -> None:
    """PyTorch's error (or, with ``warn_only=True``, its warning, at the first line outside
    minitorch) for an operation without a deterministic implementation, called when
    :data:`deterministic` is on."""
    if deterministic_warn_only:
        package = os.path.dirname(__file__) + os.sep
        stacklevel, frame = 2, sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith(package):
            stacklevel, frame = stacklevel + 1, frame.f_back
        warnings.warn(f"{caller} does not have a deterministic implementation, but you set "
                      "'torch.use_deterministic_algorithms(True, warn_only=True)'. You can file "
                      "an issue at https://github.com/pytorch/pytorch/issues to help us "
                      "prioritize adding deterministic support for this operation.",
                      UserWarning, stacklevel=stacklevel)
        return
    raise RuntimeError(f"{caller} does not have a deterministic implementation, but you set "
                       "'torch.use_deterministic_algorithms(True)'. You can turn off determinism "
                       "just for this operation, or you can use the 'warn_only=True' option, if "
                       "that's acceptable for your application. You can also file an issue at "
                       "https://github.com/pytorch/pytorch/issues to help us prioritize adding "
                       "deterministic support for this operation.")

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

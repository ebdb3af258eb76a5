"""Printing tensors the way PyTorch does.

This module turns a NumPy array into the string PyTorch's ``repr`` would show
for a tensor holding the same values, for example::

    tensor([[0.0038, 0.0018],
            [0.0311, 1.0000]], requires_grad=True)

It is a clean NumPy re-implementation of ``torch/_tensor_str.py``. The work is
split into three steps, each a small function:

1. ``_Formatter`` looks at every value that will be shown and decides on one
   style for the whole tensor: plain integers (``3.``), fixed point
   (``3.1416``) or scientific notation (``3.1416e+00``), and one common width
   so that columns line up.
2. ``_tensor_body`` walks the tensor dimension by dimension and builds the
   nested brackets, wrapping long rows at ``linewidth`` and replacing the
   middle of large tensors with ``...``.
3. ``format_tensor`` adds the ``tensor(`` prefix and the trailing keyword
   parts (``dtype=...``, ``size=...``, ``requires_grad=True``, ...), moving
   them onto a new line when the current one would grow too long.

The output has to match PyTorch character for character, so a few of
PyTorch's quirks are copied on purpose; they are pointed out in comments.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

__all__ = ["PRINT_OPTS", "PrintOptions", "format_tensor", "set_printoptions"]


@dataclasses.dataclass
class PrintOptions:
    """Settings that control how tensors are printed.

    Attributes:
        precision: Number of digits after the decimal point for floats.
        threshold: Tensors with more elements than this are summarised:
            only the first and last ``edgeitems`` entries of each dimension
            are shown, with ``...`` in between.
        edgeitems: Number of entries kept at each end of a summarised
            dimension.
        linewidth: Number of characters per line before rows are wrapped.
        sci_mode: ``True`` forces scientific notation, ``False`` forbids it
            and ``None`` lets the formatter choose from the values.
    """

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


#: The print options currently in force; change them with `set_printoptions`.
PRINT_OPTS = PrintOptions()

# Named presets accepted by ``set_printoptions(profile=...)``.
_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Change how tensors are printed, like ``torch.set_printoptions``.

    The ``profile`` preset is applied first, then any explicit option
    overrides it. Options left as ``None`` keep their current value, with
    one exception copied from PyTorch: ``sci_mode`` is *always* assigned, so
    calling this function without ``sci_mode`` resets it to automatic.

    Args:
        precision: Digits after the decimal point (default 4).
        threshold: Element count above which tensors are summarised
            (default 1000).
        edgeitems: Entries kept at each end of a summarised dimension
            (default 3).
        linewidth: Characters per line before wrapping (default 80).
        profile: A preset: ``"default"``, ``"short"`` (precision 2,
            edgeitems 2) or ``"full"`` (never summarise). As in PyTorch, an
            unknown name is silently ignored.
        sci_mode: ``True`` or ``False`` to force scientific notation on or
            off; ``None`` lets the formatter decide.

    Example:
        >>> set_printoptions(precision=2)
        >>> format_tensor(np.array([1.12345], dtype=np.float32))
        'tensor([1.12])'
        >>> set_printoptions(profile="default")
    """
    if profile is not None and profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Chooses one style and width for all the elements of a tensor.

    Integer and boolean tensors are printed with ``str``. For floating-point
    tensors only the finite, non-zero values take part in the choice:

    * if they are all whole numbers, they are printed with no decimals and a
      trailing dot (``2.``), so the reader still sees a float;
    * scientific notation is used when the values span more than three
      orders of magnitude, or any is above ``1e8`` or below ``1e-4``
      (unless ``PRINT_OPTS.sci_mode`` forces a choice);
    * otherwise fixed-point notation with ``PRINT_OPTS.precision`` decimals.

    Attributes:
        floating: Whether the tensor holds floating-point values.
        int_mode: Whether every finite non-zero value is a whole number.
        sci_mode: Whether scientific notation is used.
        max_width: Width every formatted element is right-aligned to.
        precision: Number of decimals, read from ``PRINT_OPTS``.
    """

    def __init__(self, values: np.ndarray) -> None:
        """Inspects the values that will be printed.

        Args:
            values: The elements that will actually be shown (for a
                summarised tensor, only the edges), in any shape.
        """
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        self.precision = PRINT_OPTS.precision

        if not self.floating:
            for value in values.ravel().tolist():
                self.max_width = max(self.max_width, len(str(value)))
            return

        finite = values[np.isfinite(values) & (values != 0)]
        if finite.size == 0:
            # Only zeros, nan and inf: keep the defaults (whole numbers with
            # a trailing dot, width 1). Note a forced sci_mode is ignored too.
            return

        # Take |x| in the tensor's own dtype, then work in float64 so that
        # float16 cannot overflow in the ratio below.
        magnitudes = np.abs(finite).astype(np.float64)
        smallest = float(magnitudes.min())
        largest = float(magnitudes.max())
        self.int_mode = bool(np.all(np.ceil(finite) == finite))

        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        if self.sci_mode:
            spec, extra = f".{self.precision}e", 0
        elif self.int_mode:
            spec, extra = ".0f", 1  # room for the trailing "."
        else:
            spec, extra = f".{self.precision}f", 0
        for value in finite.tolist():
            self.max_width = max(self.max_width, len(format(value, spec)) + extra)

    def format(self, value: float) -> str:
        """Formats one element, right-aligned to ``max_width``.

        Values wider than ``max_width`` (such as ``-0.`` or ``-inf``, which
        did not take part in choosing the width) are left unpadded, exactly
        as PyTorch does.

        Args:
            value: A Python scalar (float, int or bool) taken from the tensor.

        Returns:
            The formatted element.
        """
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = format(value, f"{self.max_width}.{self.precision}e")
        elif self.int_mode:
            text = format(value, ".0f")
            if math.isfinite(value):
                text += "."
        else:
            text = format(value, f".{self.precision}f")
        return text.rjust(self.max_width)


def _summarized_values(data: np.ndarray) -> np.ndarray:
    """Returns the elements that a summarised print actually shows.

    Along every dimension longer than ``2 * edgeitems`` only the first and
    last ``edgeitems`` entries are kept. The result is only used to choose
    the formatting, so the order of the elements does not matter.

    Args:
        data: The whole tensor.

    Returns:
        An array holding just the visible elements.
    """
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if not edge:
        # Nothing but "..." is printed, so no element affects the layout.
        return data.reshape(-1)[:0]
    keep = [
        np.r_[0:edge, size - edge : size] if size > 2 * edge else np.arange(size)
        for size in data.shape
    ]
    return data[np.ix_(*keep)]


def _vector_str(row: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Formats a 1-D tensor, wrapping it over several lines if needed.

    Args:
        row: The 1-D array to print.
        indent: Column at which the opening bracket sits.
        summarize: Whether to elide the middle of long rows.
        formatter: The formatter shared by the whole tensor.

    Returns:
        The row as ``[a, b, c]``, possibly spread over several lines.
    """
    edge = PRINT_OPTS.edgeitems
    # Each element takes its width plus ", ".
    element_length = formatter.max_width + 2
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    if summarize and not edge:
        items = ["..."]
    elif summarize and row.shape[0] > 2 * edge:
        # The leading space of " ..." is part of PyTorch's output.
        items = (
            [formatter.format(v) for v in row[:edge].tolist()]
            + [" ..."]
            + [formatter.format(v) for v in row[-edge:].tolist()]
        )
    else:
        items = [formatter.format(v) for v in row.tolist()]

    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_body(data: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    """Formats the values of a non-empty tensor, without prefix or suffixes.

    Sub-tensors are separated by a comma and as many line breaks as they
    have dimensions (a blank line between matrices of a 3-D tensor, ...),
    and each level of nesting is indented one more column.

    Args:
        data: The array to print.
        indent: Column at which the opening bracket sits.
        summarize: Whether to elide the middle of long dimensions.
        formatter: The formatter shared by the whole tensor.

    Returns:
        The nested, bracketed values.
    """
    if data.ndim == 0:
        return formatter.format(data.item())
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatter)

    def sub(index: int) -> str:
        return _tensor_body(data[index], indent + 1, summarize, formatter)

    edge = PRINT_OPTS.edgeitems
    size = data.shape[0]
    if summarize and size > 2 * edge:
        slices = (
            [sub(i) for i in range(edge)] + ["..."] + [sub(i) for i in range(size - edge, size)]
        )
    else:
        slices = [sub(i) for i in range(size)]

    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(slices) + "]"


def _add_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    """Appends ``, suffix`` parts and the closing parenthesis.

    A suffix goes onto a new line, indented to line up with the values,
    when it would make the current line longer than ``linewidth``.

    Args:
        text: Prefix plus formatted values.
        suffixes: Keyword parts such as ``"dtype=torch.float64"``.
        indent: Indentation for suffixes moved onto a new line.

    Returns:
        The complete representation.
    """
    parts = [text]
    # PyTorch's quirk, kept for identical output: this overestimates the
    # length of the last line by 2 characters, so suffixes wrap a little early.
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def format_tensor(
    data: np.ndarray,
    *,
    prefix: str = "tensor(",
    suffixes: Sequence[str] = (),
    is_default_dtype: bool = True,
    dtype_str: str = "",
) -> str:
    """Builds the string PyTorch's ``repr`` shows for a tensor.

    Args:
        data: The tensor's values. Supported dtypes: float16/32/64,
            int8/16/32/64, uint8 and bool.
        prefix: Text before the values; continuation lines are indented by
            its length.
        suffixes: Already formatted keyword parts to append after the
            automatic ones, e.g. ``"requires_grad=True"`` or
            ``"grad_fn=<AddBackward0>"``.
        is_default_dtype: Whether the dtype is one PyTorch leaves implicit
            (the default float dtype, int64 and bool). If not, a
            ``dtype=`` part is added.
        dtype_str: Name shown after ``dtype=``, e.g. ``"torch.float64"``;
            when empty it is derived from ``data.dtype``.

    Returns:
        The full representation, e.g. ``"tensor([1, 2], dtype=torch.int32)"``.

    Raises:
        TypeError: If ``data`` has an unsupported dtype (complex, object...).

    Example:
        >>> format_tensor(np.array([1.0, 2.0], dtype=np.float32),
        ...               suffixes=["requires_grad=True"])
        'tensor([1., 2.], requires_grad=True)'
    """
    data = np.asarray(data)
    if data.dtype.kind not in "fiub":
        raise TypeError(f"cannot print a tensor with NumPy dtype {data.dtype}")
    dtype_str = dtype_str or f"torch.{data.dtype.name}"
    indent = len(prefix)
    extra: list[str] = []

    if data.size == 0:
        # Shapes other than (0,) are spelled out, as NumPy does.
        if data.ndim != 1:
            extra.append(f"size={tuple(data.shape)}")
        # With no values to hint at it, PyTorch shows every dtype except the
        # default float one, even int64 and bool.
        if not (is_default_dtype and data.dtype.kind == "f"):
            extra.append(f"dtype={dtype_str}")
        body = "[]"
    else:
        # With edgeitems=0 a summarised tensor prints as "[...]", so the
        # shape is added to say what is hidden.
        if not PRINT_OPTS.edgeitems:
            extra.append(f"size={tuple(data.shape)}")
        if not is_default_dtype:
            extra.append(f"dtype={dtype_str}")
        summarize = data.size > PRINT_OPTS.threshold
        shown = _summarized_values(data) if summarize else data
        body = _tensor_body(data, indent, summarize, _Formatter(shown))

    return _add_suffixes(prefix + body, [*extra, *suffixes], indent)

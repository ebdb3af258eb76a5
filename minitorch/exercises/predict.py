""""Predict the value" exercises: the learner types what a line of code will produce.

The learner's text is read by a small, safe expression reader (no ``eval``): numbers,
``+ - * / **``, parentheses, lists such as ``[1, 2]``, a few names (``pi``, ``e``, ``inf``,
``True``, ``False``, ``None``) and functions (``exp``, ``log``, ``sqrt``, ``sigmoid``, ...).
It also accepts values copied from printed output: ``tensor([0.5, 1.0])`` or ``array(2.)``.

Example:
    >>> exercise = PredictValue("x = tensor(3.); y = x * x; dy/dx?", answer=6.0)
    >>> exercise.entry.value = "2 * 3"
    >>> exercise.check_button.click()
    >>> exercise.correct
    True
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

import ipywidgets as widgets
import numpy as np

from ._common import DisplaysWidget, inline_markup, plain, to_numpy

__all__ = ["PredictValue", "parse_answer"]


def _sigmoid(x: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-np.asarray(x, dtype=float)))


def _same(x: Any) -> Any:
    return x


_NAMES: dict[str, Any] = {
    "pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan,
    "True": True, "False": False, "None": None,
    # as a person types them (or as JSON and NumPy print them)
    "true": True, "false": False, "none": None, "null": None,
    "Inf": math.inf, "infinity": math.inf, "Infinity": math.inf, "NaN": math.nan, "NAN": math.nan,
}
_MAX_LENGTH = 10_000  # characters
_MAX_DEPTH = 32  # nested brackets: deeper answers are refused before parsing
_FUNCTIONS: dict[str, Any] = {
    "sqrt": np.sqrt, "exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "tanh": np.tanh, "abs": np.abs, "sigmoid": _sigmoid,
    # values pasted from printed output: tensor([1., 2.]) and array([1., 2.])
    "tensor": _same, "array": _same,
}
_BINARY = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b,
}
_DECIMAL_COMMA = re.compile(r"^\s*-?\d+,\d+\s*$")


def _evaluate(node: ast.AST) -> Any:
    """Evaluate one node of the expression tree; anything not listed is refused."""
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, type(None))):
        return node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)  # floats, so 10**10**10 overflows instead of hanging
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_evaluate(item) for item in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _numeric(_evaluate(node.operand))
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _numeric(_evaluate(node.left)), _numeric(_evaluate(node.right))
        return _BINARY[type(node.op)](left, right)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS and len(node.args) == 1):
        # keyword arguments such as requires_grad=True in pasted output are ignored
        return _FUNCTIONS[node.func.id](_evaluate(node.args[0]))
    if isinstance(node, ast.Name):
        raise ValueError(f"unknown name {node.id!r}")
    if isinstance(node, ast.Call):
        raise ValueError(f"known functions are {', '.join(sorted(_FUNCTIONS))}")
    raise ValueError("only numbers, + - * / **, ( ), and [lists] are allowed")


def _numeric(value: Any) -> Any:
    """Lists become arrays so that arithmetic works elementwise; None is refused."""
    if value is None or isinstance(value, bool):
        raise ValueError("arithmetic needs numbers")
    return np.asarray(value, dtype=float) if isinstance(value, list) else value


def parse_answer(text: str) -> Any:
    """Read a typed answer: a number, an expression, a (nested) list, True/False or None.

    Raises:
        ValueError: if the text is not something this reader understands.

    Example:
        >>> parse_answer("1/4")
        0.25
        >>> parse_answer("[1, 2**3]")
        [1.0, 8.0]
        >>> parse_answer("tensor([0.5, -1.])")
        [0.5, -1.0]
    """
    if not isinstance(text, str):
        raise ValueError(f"expected the typed text, got a {type(text).__name__}")
    text = text.strip().replace("\u2212", "-")  # a pasted "−" is a minus sign
    if not text:
        raise ValueError("empty answer")
    if len(text) > _MAX_LENGTH:
        raise ValueError(f"the answer is too long (more than {_MAX_LENGTH:,} characters)")
    depth = deepest = 0
    for char in text:
        depth += (char in "([{") - (char in ")]}")
        deepest = max(deepest, depth)
    if deepest > _MAX_DEPTH:
        raise ValueError(f"the answer is nested too deeply (more than {_MAX_DEPTH} brackets)")
    if _DECIMAL_COMMA.match(text):
        raise ValueError("use a dot for decimals: 0.5, not 0,5")
    try:
        tree = ast.parse(text, mode="eval")
        with np.errstate(all="ignore"):
            value = _evaluate(tree)
    except (SyntaxError, ValueError) as error:
        if isinstance(error, ValueError) and not isinstance(error, SyntaxError):
            raise
        raise ValueError("not a valid expression") from None
    except OverflowError:
        raise ValueError("the number is too large") from None
    except (RecursionError, MemoryError):
        raise ValueError("the expression is nested too deeply") from None
    except (ZeroDivisionError, TypeError) as error:
        raise ValueError(str(error)) from None
    if isinstance(value, np.ndarray):
        value = value.tolist()
    elif isinstance(value, np.generic):
        value = value.item()
    return value


def _format(value: Any) -> str:
    """Numbers with up to 6 significant digits; arrays as lists."""
    if value is None or isinstance(value, bool):
        return str(value)
    array = to_numpy(value)
    if array is None:
        return repr(value)
    if array.ndim == 0:
        return f"{array.item():.6g}"
    return "[" + ", ".join(_format(row) for row in array) + "]"


def _compare(got: Any, answer: Any, tolerance: float) -> tuple[bool, str]:
    """(right?, hint) for a parsed answer. Numbers may be off by ``tolerance * max(1, |x|)``."""
    if answer is None or isinstance(answer, bool):
        if got is answer or (isinstance(got, bool) and got == answer):
            return True, ""
        if isinstance(answer, bool) and not isinstance(got, bool):
            return False, "The answer is True or False."
        return False, ""
    got_array, answer_array = to_numpy(got), to_numpy(answer)
    if got_array is None or isinstance(got, bool):
        return False, "The answer is a number." if answer_array.ndim == 0 else \
            f"The answer has shape {answer_array.shape}."
    if got_array.shape != answer_array.shape:
        if answer_array.ndim == 0:
            return False, "The answer is a single number, not a list."
        return False, (f"The answer has shape {answer_array.shape}; "
                       f"you typed shape {got_array.shape}.")
    typed, right = got_array.astype(float), answer_array.astype(float)
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.abs(typed - right)
        allowed = tolerance * np.maximum(1.0, np.abs(right))
        off = ~(error <= allowed)
    # inf and nan are answers too: inf matches inf of the same sign, nan matches nan.
    special = ~np.isfinite(right) | ~np.isfinite(typed)
    same_special = (np.isnan(right) & np.isnan(typed)) | (np.isinf(right) & (typed == right))
    off = np.where(special, ~same_special, off)
    if not off.any():
        return True, ""
    if answer_array.ndim == 0:
        if np.isnan(right) or np.isnan(typed):
            return False, ("The answer is nan (not a number)." if np.isnan(right)
                           else "The answer is a number, not nan.")
        return False, "Too high." if typed > right else "Too low."
    first = tuple(int(i) for i in np.argwhere(off)[0])
    return False, f"{int(off.sum())} of {off.size} numbers are off; the first at index {first}."


class PredictValue(DisplaysWidget):
    """Ask the learner to predict a value, check it, and reveal the answer on request.

    Args:
        prompt: the question, e.g. "What does `x.grad` print after two backward calls?".
        answer: a number, a (nested) list or array of numbers, ``True``/``False`` or ``None``.
        tolerance: how close a number must be: ``|typed - answer| <= tolerance * max(1,
            |answer|)`` (absolute for small answers, relative for large ones).
        explanation: why the answer is what it is; shown by **Reveal**.
        reveal: whether to offer a **Reveal** button.
        hint: a sentence shown under every wrong answer (besides the automatic "too high",
            "too low" or shape hints).

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        entry: the ``Text`` widget the learner types in.
        check_button, reveal_button: the two buttons (``reveal_button`` is ``None`` when
            ``reveal=False``).
        feedback: the feedback as plain text.
        status: ``""`` (not checked), ``"correct"``, ``"wrong"`` or ``"invalid"``.
        correct: ``True`` after a right answer was checked.
        revealed: ``True`` after **Reveal** was pressed.
        reveal_text: what **Reveal** showed, as plain text.
        attempts: how many times **Check** read a valid answer.

    Example:
        >>> exercise = PredictValue("sigmoid(0)?", 0.5, explanation="e^0 = 1, so 1/(1+1).")
        >>> exercise.entry.value = "1/3"
        >>> exercise.check_button.click()
        >>> exercise.feedback
        '✗ Not quite: 1/3 = 0.333333. Too low.'
        >>> exercise.reveal_button.click()
        >>> exercise.reveal_text
        'Answer: 0.5. e^0 = 1, so 1/(1+1).'
    """

    def __init__(
        self,
        prompt: str,
        answer: Any,
        tolerance: float = 1e-3,
        explanation: str = "",
        reveal: bool = True,
        hint: str = "",
    ) -> None:
        self.prompt = prompt
        self.answer = answer.tolist() if isinstance(answer, np.ndarray) else answer
        self.tolerance = tolerance
        self.explanation = explanation
        self.hint = hint
        self.feedback = ""
        self.status = ""
        self.correct = False
        self.revealed = False
        self.reveal_text = ""
        self.attempts = 0

        self.entry = widgets.Text(placeholder="a number, 1/3, or a list like [1, 2]",
                                  layout=widgets.Layout(width="22em"))
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           icon="check")
        self.check_button.on_click(self._on_check)
        buttons: list[widgets.Widget] = [self.entry, self.check_button]
        self.reveal_button: widgets.Button | None = None
        if reveal:
            self.reveal_button = widgets.Button(description="Reveal", icon="eye")
            self.reveal_button.on_click(self._on_reveal)
            buttons.append(self.reveal_button)
        self.feedback_widget = widgets.HTML("")
        self.reveal_widget = widgets.HTML("")
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>Predict the value.</b> {inline_markup(prompt)}"),
            widgets.HBox(buttons), self.feedback_widget, self.reveal_widget,
        ])
        # Stable CSS classes, so browser tests (tests/browser/) find the parts of the exercise.
        self.widget.add_class("mt-predict")
        self.entry.add_class("mt-predict-entry")
        self.check_button.add_class("mt-check")
        if self.reveal_button is not None:
            self.reveal_button.add_class("mt-reveal")
        self.feedback_widget.add_class("mt-feedback")
        self.reveal_widget.add_class("mt-reveal-text")

    def _on_check(self, _button: Any = None) -> None:
        typed = self.entry.value.strip()
        try:
            got = parse_answer(typed)
        except ValueError as error:
            self.status, self.correct = "invalid", False
            self.feedback = (f"⚠ Could not read {typed!r} ({error}). Type a number like 0.25, "
                             "an expression like 1/3, or a list like [1, 2].")
            self.feedback_widget.value = f'<span style="color: #8d6e00">{self.feedback}</span>'
            return
        self.attempts += 1
        self.correct, auto_hint = _compare(got, self.answer, self.tolerance)
        value = _format(got)
        same = value.replace(" ", "") == typed.replace(" ", "")
        shown = typed if same else f"{typed} = {value}"
        if self.correct:
            self.status = "correct"
            self.feedback = f"✓ Right: {shown}."
        else:
            self.status = "wrong"
            hints = " ".join(part for part in (auto_hint, plain(self.hint)) if part)
            self.feedback = f"✗ Not quite: {shown}." + (f" {hints}" if hints else "")
        color = "#2e7d32" if self.correct else "#c62828"
        self.feedback_widget.value = (
            f'<span style="color: {color}">{inline_markup(self.feedback)}</span>'
        )

    def _on_reveal(self, _button: Any = None) -> None:
        self.revealed = True
        self.reveal_text = f"Answer: {_format(self.answer)}."
        if self.explanation:
            self.reveal_text += f" {plain(self.explanation)}"
        self.reveal_widget.value = (
            f"<b>Answer:</b> <code>{_format(self.answer)}</code>. "
            f"{inline_markup(self.explanation)}"
        )

    def __repr__(self) -> str:
        return f"PredictValue: {plain(self.prompt)}"

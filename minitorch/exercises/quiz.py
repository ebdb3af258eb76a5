"""Multiple-choice and multi-select quizzes built from core ipywidgets.

A :class:`Quiz` shows a question, its options and a **Check** button. A wrong answer explains
the options the learner chose (why each is right or wrong), without giving the right answer
away; a right answer marks every option ✓ or ✗ with its explanation, so a learner learns as
much from the wrong options as from the right one.

Example:
    >>> quiz = Quiz("2 + 2 = ?", ["3", "4"], answer="4")
    >>> quiz.select("4")
    >>> quiz.check_button.click()
    >>> quiz.correct
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from ._common import DisplaysWidget, inline_markup, plain

__all__ = ["Quiz"]


_OPTION_CSS = (
    "<style>.mt-quiz-choices label{height:auto !important;white-space:normal !important;"
    "line-height:1.35 !important;padding:2px 0}"
    ".mt-quiz-choices .widget-radio-box label{display:flex;align-items:flex-start}"
    ".mt-quiz-choices .widget-radio-box input{flex:none;order:-1;margin:3px 6px 0 0}</style>"
)


class Quiz(DisplaysWidget):
    """A quiz question with one right answer (``multi=False``) or a set of them (``multi=True``).

    Single-answer quizzes use ``RadioButtons``; multi-select quizzes use one ``Checkbox`` per
    option. Options may contain ```code``` in backticks; the feedback shows it as code.

    Args:
        question: the question text.
        options: the answers to choose from.
        answer: the right option, by index or by text; for ``multi=True`` an iterable of them.
        explanations: one explanation per option, shown after checking (optional).
        multi: ``True`` for "select all that apply".

    Attributes:
        widget: the ``ipywidgets.VBox`` to display.
        choices: the ``RadioButtons`` (single answer); its ``value`` is an option index.
        checkboxes: the ``Checkbox`` widgets, one per option (multi-select).
        check_button: the **Check** button.
        feedback_widget: the ``HTML`` widget that shows the feedback.
        feedback: the feedback as plain text (``""`` before the first check).
        correct: ``True`` once the current selection has been checked and is right.
        answered: ``True`` once a selection has been checked.

    Example:
        >>> quiz = Quiz("Which are even?", ["1", "2", "4"], answer={"2", "4"}, multi=True)
        >>> quiz.checkboxes[1].value = True
        >>> quiz.check_button.click()
        >>> quiz.correct, quiz.feedback.splitlines()[0]
        (False, '✗ Partly right: you found 1 of 2 right options.')
    """

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        answer: Any,
        explanations: Sequence[str] | None = None,
        multi: bool = False,
    ) -> None:
        self.question = question
        self.options = list(options)
        self.multi = multi
        if not multi and isinstance(answer, (set, frozenset, list, tuple)):
            if len(answer) != 1:
                raise ValueError("a single-answer Quiz needs exactly one answer; use multi=True")
            answer = next(iter(answer))
        self.answer: set[int] = self._indices(answer if multi else [answer])
        if explanations is not None and len(explanations) != len(self.options):
            raise ValueError(
                f"got {len(explanations)} explanations for {len(self.options)} options"
            )
        self.explanations = list(explanations) if explanations is not None else None
        self.feedback = ""
        self.correct = False
        self.answered = False
        self._build()

    # ----------------------------------------------------------------------------- widgets
    def _build(self) -> None:
        label_layout = widgets.Layout(width="auto")
        # Long options wrap inside their own row instead of running over the next button.
        title = widgets.HTML(f"{_OPTION_CSS}<b>{inline_markup(self.question)}</b>")
        self.choices: widgets.RadioButtons | None = None
        self.checkboxes: list[widgets.Checkbox] = []
        if self.multi:
            self.checkboxes = [
                widgets.Checkbox(value=False, description=plain(option), indent=False,
                                 layout=label_layout)
                for option in self.options
            ]
            choice_box: widgets.Widget = widgets.VBox(
                [widgets.HTML("<i>Select all that apply.</i>"), *self.checkboxes]
            )
        else:
            self.choices = widgets.RadioButtons(
                options=[(plain(option), index) for index, option in enumerate(self.options)],
                value=None,
                layout=label_layout,
            )
            choice_box = self.choices
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           icon="check")
        self.check_button.on_click(self._on_check)
        self.feedback_widget = widgets.HTML("")
        self.widget = widgets.VBox([title, choice_box, self.check_button, self.feedback_widget])
        # Stable CSS classes, so browser tests (tests/browser/) find the parts of a quiz.
        self.widget.add_class("mt-quiz")
        self.widget.add_class("mt-quiz-multi" if self.multi else "mt-quiz-single")
        title.add_class("mt-question")
        choice_box.add_class("mt-quiz-choices")
        for box in self.checkboxes:
            box.add_class("mt-quiz-option")
        self.check_button.add_class("mt-check")
        self.feedback_widget.add_class("mt-feedback")

    def _indices(self, choices: Iterable[Any]) -> set[int]:
        """Option indices of ``choices``: indices, or option texts (with or without backticks)."""
        labels = [plain(option) for option in self.options]
        indices = set()
        for choice in choices:
            if isinstance(choice, int) and 0 <= choice < len(self.options):
                indices.add(choice)
            elif choice in self.options:
                indices.add(self.options.index(choice))
            elif choice in labels:
                indices.add(labels.index(choice))
            else:
                raise ValueError(f"{choice!r} is not one of the options {self.options}")
        return indices

    @property
    def selected(self) -> set[int]:
        """The indices of the options the learner has selected right now.

        Example:
            >>> Quiz("?", ["a", "b"], answer="a").selected
            set()
        """
        if self.multi:
            return {index for index, box in enumerate(self.checkboxes) if box.value}
        return set() if self.choices.value is None else {self.choices.value}

    def select(self, *choices: Any) -> None:
        """Select options by index or text, as a learner would by clicking.

        Example:
            >>> quiz = Quiz("Pick b", ["a", "b"], answer=1)
            >>> quiz.select("b")
            >>> quiz.selected
            {1}
        """
        indices = self._indices(choices)
        if self.multi:
            for index, box in enumerate(self.checkboxes):
                box.value = index in indices
        elif len(indices) != 1:
            raise ValueError("select exactly one option in a single-answer quiz")
        else:
            self.choices.value = indices.pop()

    # ----------------------------------------------------------------------------- checking
    def _on_check(self, _button: Any = None) -> None:
        selected = self.selected
        if not selected:
            self.correct = False
            self.feedback = "Pick an answer first."
            self.feedback_widget.value = f"<i>{self.feedback}</i>"
            return
        self.answered = True
        self.correct = selected == self.answer
        verdict = self._verdict(selected)
        text_lines = [verdict]
        html_rows = []
        # A wrong answer explains only the options the learner chose, so one wrong click
        # does not give the right answer away; a right answer explains every option.
        shown = range(len(self.options)) if self.correct else sorted(selected)
        for index in shown:
            option = self.options[index]
            right = index in self.answer
            mark = "✓" if right else "✗"
            chosen = " (your choice)" if index in selected else ""
            explanation = self.explanations[index] if self.explanations else ""
            line = f"{mark} {plain(option)}{chosen}"
            text_lines.append(f"{line}: {plain(explanation)}" if explanation else line)
            color = "#2e7d32" if right else "#c62828"
            weight = "bold" if index in selected else "normal"
            html_rows.append(
                f'<li style="list-style: none; margin: 2px 0">'
                f'<span style="color: {color}; font-weight: bold">{mark}</span> '
                f'<span style="font-weight: {weight}">{inline_markup(option)}{chosen}</span>'
                + (f"<br><span style='margin-left: 1.4em'>{inline_markup(explanation)}</span>"
                   if explanation else "")
                + "</li>"
            )
        self.feedback = "\n".join(text_lines)
        color = "#2e7d32" if self.correct else "#c62828"
        self.feedback_widget.value = (
            f'<div style="color: {color}; font-weight: bold">{inline_markup(verdict)}</div>'
            f'<ul style="padding-left: 0.5em">{"".join(html_rows)}</ul>'
        )

    def _verdict(self, selected: set[int]) -> str:
        """The first line of the feedback: right, wrong, or partly right."""
        if self.correct:
            return "✓ Correct!"
        if not self.multi:
            return "✗ Not quite. Read why below, then try again."
        found = len(selected & self.answer)
        wrong = len(selected - self.answer)
        if found == 0:
            return f"✗ None of your choices is right: {len(self.answer)} options are."
        text = f"✗ Partly right: you found {found} of {len(self.answer)} right options"
        if wrong:
            text += f", and picked {wrong} wrong {'one' if wrong == 1 else 'ones'}"
        return text + "."

    # ----------------------------------------------------------------------------- display
    def __repr__(self) -> str:
        lines = [f"Quiz: {plain(self.question)}"]
        lines += [f"  [{index}] {plain(option)}" for index, option in enumerate(self.options)]
        return "\n".join(lines)

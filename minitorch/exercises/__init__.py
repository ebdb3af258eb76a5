"""Exercise widgets for the minitorch notebooks: quizzes, predictions, checks and plots.

This package is not imported by ``import minitorch``: the notebooks import it themselves,
so the core library stays light. It needs ipywidgets (and matplotlib for the plots, imported
only when a plot is drawn). Everything works from code too, which is how the tests drive it.

=========================  =================================================================
name                       what it is
=========================  =================================================================
:class:`Quiz`              a multiple-choice or multi-select question with a Check button
:func:`quiz_for`           the quiz for question ``i`` of chapter ``n`` (from ``QUESTIONS``)
:class:`PredictValue`      "predict the value": type a number, check it, reveal the answer
:func:`run_check`          run :class:`Case` objects against learner code, show ✓ ✗ ⏳
:class:`Shortcut`          a built-in an exercise replaces: a learner's call to it is refused
:func:`more_help`          the next help step of the last failed check (Jupyter: a button)
:func:`set_time_limit`     how long a check's case may run before "an infinite loop?"
:class:`ProgressTable`     every chapter's exercises, done or not (saved on this computer)
:func:`reset_progress`     forget the saved progress
``python -m minitorch.exercises grade``  grade learners' notebooks (see :mod:`.grading`)
``chNN_name``              the checks of chapter ``NN`` (its notebook is ``NN_name.ipynb``)
:func:`tangent_explorer`   a loss curve and its tangent, with sliders for ``w`` and ``b``
:func:`descent_2d`         gradient descent on a 2-D surface, stepped with buttons
:class:`LiveLossPlot`      a loss curve that redraws itself during training
:func:`plot_decision_boundary`  the regions of a 2-D classifier
:func:`show_source`        print a minitorch function's or class's source as plain text
:class:`expected_error`    run code that should fail; show its error without raising it
=========================  =================================================================

Example:
    >>> from minitorch.exercises import Case, run_check
    >>> run_check("add", [Case("1 + 2", lambda: 1 + 2, 3)])
    ✓ add: all 1 cases passed.
    True
"""

from .display import expected_error, show_source
from .plots import (
    Descent2D,
    LiveLossPlot,
    TangentExplorer,
    decision_grid,
    descent_2d,
    logistic_loss,
    logistic_loss_grad,
    plot_decision_boundary,
    tangent_explorer,
)
from .predict import PredictValue, parse_answer
from .progress import ProgressTable, progress_path, reset_progress
from .questions import QUESTIONS, Question, quiz_for
from .quiz import Quiz
from .runner import (
    Case,
    CheckResult,
    Shortcut,
    WrongAnswer,
    approx,
    default_compare,
    evaluate,
    get_time_limit,
    last_result,
    more_help,
    run_check,
    set_time_limit,
)

__all__ = [
    "Case", "CheckResult", "Descent2D", "LiveLossPlot", "PredictValue", "ProgressTable",
    "QUESTIONS", "Question", "Quiz", "Shortcut", "TangentExplorer", "WrongAnswer", "approx",
    "decision_grid", "default_compare", "descent_2d", "evaluate", "expected_error",
    "get_time_limit", "last_result", "logistic_loss", "logistic_loss_grad", "more_help",
    "parse_answer", "plot_decision_boundary", "progress_path", "quiz_for", "reset_progress",
    "run_check", "set_time_limit", "show_source", "tangent_explorer",
]

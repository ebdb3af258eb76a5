"""The course's chapters and their checks, read from the package's own files.

Every chapter ``NN_name.ipynb`` has an exercise module ``minitorch/exercises/chNN_name.py``
whose ``CHECKS`` dict names each check and the learner's code it takes, in the notebook's
order (``{"check_mul": "Mul", ...}``). This module finds those files by their name and reads
``CHECKS`` and the chapter's title (the docstring's ``Chapter NN (Title): ...``) from their
source, without importing them: the grader and the progress table know every chapter's
exercises without running any check code, and a new chapter or check is picked up as soon
as its module exists.

Example:
    >>> first = chapters()[1]
    >>> first.module, first.number, first.title, first.notebook
    ('ch01_tensors', 1, 'Tensors', '01_tensors.ipynb')
    >>> first.checks
    {'check_broadcast_shape': 'broadcast_shape', 'check_my_tensor': 'MyTensor'}
    >>> find_chapter("02").title
    'Recording the DAG'
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Chapter", "chapters", "find_chapter"]

EXERCISES = Path(__file__).resolve().parent
MODULE_NAME = re.compile(r"ch(\d\d)_(\w+)")
_TITLE = re.compile(r"Chapter\s+\d+\s+\((.+?)\):")


@dataclass(frozen=True)
class Chapter:
    """One chapter: its exercise module, number, title and checks.

    Attributes:
        module: the exercise module's name, ``"ch02_recording_the_dag"``.
        number: the chapter's number, ``2``.
        title: its title, ``"Recording the DAG"``.
        checks: ``{check function: the learner's name it takes}``, in the notebook's order.
    """

    module: str
    number: int
    title: str
    checks: dict[str, str] = field(hash=False)

    @property
    def slug(self) -> str:
        """The module's name without its number (``"recording_the_dag"``): it stays the same
        when chapters are renumbered, so saved progress keys use it."""
        return MODULE_NAME.fullmatch(self.module).group(2)

    @property
    def notebook(self) -> str:
        """The notebook's file name, ``"02_recording_the_dag.ipynb"``."""
        return f"{self.module[2:]}.ipynb"

    @property
    def label(self) -> str:
        """``"02 Recording the DAG"``."""
        return f"{self.number:02d} {self.title}"


def read_chapter(path: Path) -> Chapter:
    """The :class:`Chapter` of the exercise module at ``path``, read from its source.

    Raises:
        ValueError: the module has no literal ``CHECKS`` dict of names.
    """
    path = Path(path)
    match = MODULE_NAME.fullmatch(path.stem)
    if match is None:
        raise ValueError(f"{path.name} is not a chapter's exercise module (chNN_name.py)")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    checks = None
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "CHECKS"):
            try:
                checks = ast.literal_eval(node.value)
            except ValueError:  # not a literal: CHECKS = dict(...) or built in a loop
                checks = None
    if not isinstance(checks, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in checks.items()):
        raise ValueError(f"{path.name} has no CHECKS = {{'check_name': 'learner_name', ...}} "
                         "dict at module level")
    docstring = ast.get_docstring(tree) or ""
    title = _TITLE.match(docstring)
    name = match.group(2)
    return Chapter(module=path.stem, number=int(match.group(1)),
                   title=title.group(1) if title else name.replace("_", " ").capitalize(),
                   checks=dict(checks))


@functools.lru_cache(maxsize=1)
def _chapters(folder: Path) -> tuple[Chapter, ...]:
    paths = sorted(p for p in folder.glob("ch[0-9][0-9]_*.py") if MODULE_NAME.fullmatch(p.stem))
    return tuple(read_chapter(p) for p in paths)


def chapters() -> list[Chapter]:
    """Every chapter that has an exercise module, in order.

    Example:
        >>> [c.number for c in chapters()][:3]
        [0, 1, 2]
    """
    return list(_chapters(EXERCISES))


def find_chapter(key: str | int) -> Chapter:
    """The chapter named by ``key``: its number (``2``, ``"02"``), its module
    (``"ch02_recording_the_dag"``), its notebook (``"02_recording_the_dag"``, with or
    without ``.ipynb``) or its slug (``"recording_the_dag"``).

    Raises:
        LookupError: no chapter matches.

    Example:
        >>> find_chapter(2).module == find_chapter("02_recording_the_dag.ipynb").module
        True
    """
    text = str(key).strip().removesuffix(".ipynb")
    for chapter in chapters():
        names = {chapter.module, chapter.module[2:], chapter.slug}
        if text in names or (text.isdigit() and int(text) == chapter.number):
            return chapter
    known = ", ".join(c.module[2:] for c in chapters())
    raise LookupError(f"no chapter {key!r}; the chapters are {known}")

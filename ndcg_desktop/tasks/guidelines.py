"""Setting the project's grading guidelines, for every front: where a text comes from is named here, once.

>>> import tempfile, pathlib
>>> from ndcg_desktop.tasks.project import create_project
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with create_project(folder / "p.ndcgproj", annotator="ana") as project:
...     done = set_guidelines(project, "# Grades\\n3: answers it\\n", source=folder / "rules.md", annotator="ana")
...     again = set_guidelines(project, "# Grades\\n3: answers it\\n", source=GuidelinesEdit.WINDOW, annotator="ana")
>>> done.changed, done.guidelines.source, done.lines, again.changed
(True, 'file:rules.md', 2, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ndcg_desktop.store import Project
from ndcg_desktop.store.texts import Guidelines

__all__ = ["Guidelines", "GuidelinesEdit", "GuidelinesSet", "set_guidelines"]


class GuidelinesEdit(StrEnum):
    """The window's ways of changing the guidelines, as the history records them (a file is ``file:NAME``)."""

    WINDOW = "window"  # edited in the window
    UNDO = "undo"  # Edit > Undo put the previous text back
    REDO = "redo"  # Edit > Redo made the edit again


@dataclass(frozen=True)
class GuidelinesSet:
    """The guidelines in force after :func:`set_guidelines`; ``changed`` False when they were that text already."""

    guidelines: Guidelines
    changed: bool
    lines: int  # of the text given


def set_guidelines(project: Project, text: str, *, source: GuidelinesEdit | Path, annotator: str) -> GuidelinesSet:
    """Record ``text`` (Markdown) as the grading guidelines, audited with who, when and ``source``: a window edit,
    or the file it was read from (recorded as ``file:NAME``). The next frozen version names their SHA-256."""
    before = project.texts.guidelines()
    label = f"file:{source.name}" if isinstance(source, Path) else source.value
    after = project.texts.set_guidelines(text, source=label, annotator=annotator)
    return GuidelinesSet(after, changed=before is None or before.id != after.id, lines=len(text.splitlines()))

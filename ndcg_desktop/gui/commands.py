"""Every edit is an undoable command that calls the store (glue's rule)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from ndcg_desktop.store import Project

translate = QCoreApplication.translate

Changed = Callable[[str, str], None]


class SetGradeCommand(QUndoCommand):
    """Grade one pool item; undo restores the previous grade (both are audited)."""

    def __init__(
        self,
        project: Project,
        version: int,
        query_id: str,
        doc_id: str,
        grade: int | None,
        old: int | None,
        changed: Changed,
    ) -> None:
        if grade is None:
            text = translate("commands", "Grade {doc_id} ungraded for {query_id}").format(
                doc_id=doc_id, query_id=query_id
            )
        else:
            text = translate("commands", "Grade {doc_id} as {grade} for {query_id}").format(
                doc_id=doc_id, grade=grade, query_id=query_id
            )
        super().__init__(text)
        self.project, self.version = project, version
        self.query_id, self.doc_id, self.grade, self.old = query_id, doc_id, grade, old
        self.changed = changed

    def redo(self) -> None:
        self.project.set_grade(self.query_id, self.doc_id, self.grade, version=self.version)
        self.changed(self.query_id, self.doc_id)

    def undo(self) -> None:
        self.project.set_grade(self.query_id, self.doc_id, self.old, version=self.version)
        self.changed(self.query_id, self.doc_id)


class SetNoteCommand(QUndoCommand):
    def __init__(
        self, project: Project, version: int, query_id: str, doc_id: str, note: str, old: str, changed: Changed
    ) -> None:
        super().__init__(
            translate("commands", "Note on {doc_id} for {query_id}").format(doc_id=doc_id, query_id=query_id)
        )
        self.project, self.version = project, version
        self.query_id, self.doc_id, self.note, self.old = query_id, doc_id, note, old
        self.changed = changed

    def redo(self) -> None:
        self.project.set_note(self.query_id, self.doc_id, self.note, version=self.version)
        self.changed(self.query_id, self.doc_id)

    def undo(self) -> None:
        self.project.set_note(self.query_id, self.doc_id, self.old, version=self.version)
        self.changed(self.query_id, self.doc_id)

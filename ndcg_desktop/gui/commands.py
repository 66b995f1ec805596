"""Every edit is an undoable command that calls a use case of :mod:`ndcg_desktop.tasks` (glue's rule).

A write can fail (another program holds the project file's write lock, the disk is full, the
file became read-only). A failed command marks itself obsolete, so the undo stack drops it instead
of claiming an edit that is not on disk, reports the reason, and the view re-reads the row.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from ndcg_desktop.domain import InputError
from ndcg_desktop.sessions.annotate import AnnotateSession
from ndcg_desktop.tasks.pool_builds import BatchesAdded
from ndcg_desktop.tasks.project import Taken

translate = QCoreApplication.translate

Changed = Callable[[str, str], None]
Failed = Callable[[str], None]

# What a write to the project file can raise besides a bug: the store's own errors, SQLite's
# (busy, full, read-only, I/O) and the operating system's.
WRITE_ERRORS = (InputError, sqlite3.Error, OSError)


def write_problem(exc: BaseException) -> str:
    """One sentence saying why a write failed and what to do, in the interface language."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and "locked" in text:
        return translate(
            "commands",
            "Another program is writing to the project file and holds its lock ({error}). "
            "Nothing was saved; try again when it has finished.",
        ).format(error=text)
    if isinstance(exc, sqlite3.Error | OSError):
        return translate("commands", "The project file could not be written ({error}). Nothing was saved.").format(
            error=text
        )
    return text  # the store's errors name the file and the problem already


def run_write(command: QUndoCommand, write: Callable[[], object], what: str, failed: Failed) -> bool:
    """Run ``command``'s write; if it fails, drop the command from the undo history and report why."""
    try:
        write()
    except WRITE_ERRORS as exc:
        command.setObsolete(True)  # QUndoStack deletes an obsolete command instead of keeping it
        failed(f"{what}: {write_problem(exc)}")
        return False
    return True


class _StoreCommand(QUndoCommand):
    """Runs a store write on redo and its inverse on undo; a failure is reported, never recorded."""

    def __init__(self, text: str, query_id: str, doc_id: str, changed: Changed, failed: Failed) -> None:
        super().__init__(text)
        self.query_id, self.doc_id = query_id, doc_id
        self.changed, self.failed = changed, failed

    def _run(self, write: Callable[[], object], what: str) -> None:
        run_write(self, write, what, self.failed)
        self.changed(self.query_id, self.doc_id)  # show what the file holds, whichever way it went


class SetGradeCommand(_StoreCommand):
    """Grade one pool item through the Annotate session's use case; undo puts back what it took (both audited)."""

    def __init__(
        self,
        session: AnnotateSession,
        version: int,
        query_id: str,
        doc_id: str,
        grade: int | None,
        changed: Changed,
        failed: Failed,
    ) -> None:
        """Undo puts back what the grade took (the row and its ratings, through the store's undo)."""
        if grade is None:
            text = translate("commands", "Grade {doc_id} ungraded for {query_id}").format(
                doc_id=doc_id, query_id=query_id
            )
        else:
            text = translate("commands", "Grade {doc_id} as {grade} for {query_id}").format(
                doc_id=doc_id, grade=session.grade_text(grade), query_id=query_id
            )
        super().__init__(text, query_id, doc_id, changed, failed)
        self.session, self.version, self.grade = session, version, grade
        self.taken: Taken | None = None
        self.batch: BatchesAdded | None = None  # the next batch of an adaptive pool this grade brought in

    def redo(self) -> None:
        def write() -> None:
            self.taken = self.session.grade_item(self.version, self.query_id, self.doc_id, self.grade)

        graded = run_write(
            self, write, translate("commands", "{doc_id} was not graded").format(doc_id=self.doc_id), self.failed
        )
        if graded and self.grade is not None:
            # The grade is on disk whatever follows: a next batch that cannot be chosen is said, not undone.
            run_write(
                QUndoCommand(),
                lambda: setattr(self, "batch", self.session.next_batch_after(self.version, self.query_id)),
                translate("commands", "The next batch of {query_id} was not added").format(query_id=self.query_id),
                self.failed,
            )
        self.changed(self.query_id, self.doc_id)

    def undo(self) -> None:
        taken, batch = self.taken, self.batch
        assert taken is not None

        def write() -> None:
            if batch is not None:  # the batch this grade brought in goes first, then the grade
                self.session.take_back_batch(batch)
                self.batch = None
            self.session.put_back(taken, "undo grade")

        self._run(write, translate("commands", "The grade of {doc_id} could not be undone").format(doc_id=self.doc_id))


class SetNoteCommand(_StoreCommand):
    """Set one pool item's note through the Annotate session's use case; undo puts back what it took."""

    def __init__(
        self,
        session: AnnotateSession,
        version: int,
        query_id: str,
        doc_id: str,
        note: str,
        changed: Changed,
        failed: Failed,
    ) -> None:
        super().__init__(
            translate("commands", "Note on {doc_id} for {query_id}").format(doc_id=doc_id, query_id=query_id),
            query_id,
            doc_id,
            changed,
            failed,
        )
        self.session, self.version, self.note = session, version, note
        self.taken: Taken | None = None

    def redo(self) -> None:
        def write() -> None:
            self.taken = self.session.note_item(self.version, self.query_id, self.doc_id, self.note)

        self._run(write, translate("commands", "The note on {doc_id} was not saved").format(doc_id=self.doc_id))

    def undo(self) -> None:
        taken = self.taken
        assert taken is not None
        self._run(
            lambda: self.session.put_back(taken, "undo note"),
            translate("commands", "The note on {doc_id} could not be undone").format(doc_id=self.doc_id),
        )

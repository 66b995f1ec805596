"""Pool ▸ Add document, Remove ungraded item, Discard draft, Export qrels: the window's side of tasks.pool_editing.

What an edit would do, and why it does nothing, is :class:`~ndcg_desktop.sessions.pool_edit.PoolEditSession`'s
(it follows the project's events, so an undo, a discard or another program's write is seen without a refresh);
the menu forwards the Annotate view's place (version, query, document, the query's text) from the
:class:`~ndcg_desktop.sessions.annotate.AnnotateSession` to it, and reads nothing of the Annotate widget.
Each edit is a command on the window's undo stack that calls the session's use case (which audits it); a failed
write is reported and never enters the undo history (as in :mod:`.commands`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence, QUndoCommand
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.annotate.words import refusal_text
from ndcg_desktop.gui.commands import WRITE_ERRORS, run_write, write_problem
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label, show_message
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.sessions.annotate import AnnotateSession
from ndcg_desktop.sessions.annotate_rules import Refusal
from ndcg_desktop.sessions.pool_edit import SEARCH_LIMIT, DocumentSearch, EditRefusal, PoolEditSession
from ndcg_desktop.tasks.export import export_frozen_pool
from ndcg_desktop.tasks.pool_editing import (
    DiscardedDraft,
    DiscardPlan,
    PoolEdit,
    discard,
    plan_discard,
    restore_discarded,
)
from ndcg_desktop.tasks.project import DraftStarted, Project, start_draft

translate = QCoreApplication.translate

Changed = Callable[[str, "str | None"], None]  # query ID, the document to select (None: keep the place)
Failed = Callable[[str], None]

SEARCH_COLUMNS = [
    (QT_TRANSLATE_NOOP("pool_editing", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("pool_editing", "Found in"), "found", ""),
    (QT_TRANSLATE_NOOP("pool_editing", "In this pool"), "in_pool", ""),
    (QT_TRANSLATE_NOOP("pool_editing", "Title"), "title", ""),  # last: it takes the room left
]
FOUND_IN = {
    "id": QT_TRANSLATE_NOOP("pool_editing", "ID"),
    "title": QT_TRANSLATE_NOOP("pool_editing", "title"),
    "text": QT_TRANSLATE_NOOP("pool_editing", "text"),
}
DEBOUNCE_MS = 250


def edit_refusal_text(refusal: EditRefusal) -> str:
    """Why an edit of the pool did nothing (sessions.pool_edit), in the window's words; "" when the menu
    entry is silently idle (no pool or no query shown: nothing to act on)."""
    kind = refusal.kind
    if kind in ("read_only", "frozen"):  # the Annotate view's words for a pool that cannot change
        return refusal_text(Refusal(kind, version=refusal.version), number_box=False)
    if kind == "no_document":
        return translate("pool_editing", "No document is selected: nothing was removed.")
    if kind == "graded":
        return translate(
            "pool_editing", "{doc_id} is graded {grade}: only an ungraded item can be removed from a pool."
        ).format(doc_id=refusal.doc_id, grade=refusal.grade_text)
    if kind == "not_in_pool":
        return translate("pool_editing", "{doc_id} is not in the pool of {query_id}: nothing was removed.").format(
            doc_id=refusal.doc_id, query_id=refusal.query_id
        )
    return ""


class _EditCommand(QUndoCommand):
    """Runs a use case on redo and its inverse on undo; a failure is reported and the command dropped."""

    def __init__(self, text: str, changed: Changed, failed: Failed) -> None:
        super().__init__(text)
        self.changed, self.failed = changed, failed

    def _run(self, work: Callable[[], object], what: str) -> bool:
        return run_write(self, work, what, self.failed)


class AddItemCommand(_EditCommand):
    """Add a document to a query's pool in a draft; undo takes it out again."""

    def __init__(
        self, session: PoolEditSession, version: int, query_id: str, doc_id: str, changed: Changed, failed: Failed
    ) -> None:
        text = translate("pool_editing", "Add {doc_id} to the pool of {query_id}").format(
            doc_id=doc_id.strip(), query_id=query_id
        )
        super().__init__(text, changed, failed)
        self.session, self.version, self.query_id, self.doc_id = session, version, query_id, doc_id
        self.edit: PoolEdit | None = None

    def redo(self) -> None:
        def work() -> None:
            self.edit = self.session.add(self.doc_id, version=self.version, query_id=self.query_id)

        what = translate("pool_editing", "{doc_id} was not added").format(doc_id=self.doc_id.strip())
        if self._run(work, what):
            assert self.edit is not None
            self.changed(self.query_id, self.edit.doc_id)

    def undo(self) -> None:
        edit = self.edit
        assert edit is not None
        what = translate("pool_editing", "Adding {doc_id} could not be undone").format(doc_id=edit.doc_id)
        if self._run(lambda: self.session.undo(edit), what):
            self.changed(self.query_id, None)


class RemoveItemCommand(_EditCommand):
    """Remove an ungraded item; undo puts it back with its note."""

    def __init__(
        self, session: PoolEditSession, version: int, query_id: str, doc_id: str, changed: Changed, failed: Failed
    ) -> None:
        text = translate("pool_editing", "Remove {doc_id} from the pool of {query_id}").format(
            doc_id=doc_id, query_id=query_id
        )
        super().__init__(text, changed, failed)
        self.session, self.version, self.query_id, self.doc_id = session, version, query_id, doc_id
        self.edit: PoolEdit | None = None

    def redo(self) -> None:
        def work() -> None:
            self.edit = self.session.remove(self.doc_id, version=self.version, query_id=self.query_id)

        if self._run(work, translate("pool_editing", "{doc_id} was not removed").format(doc_id=self.doc_id)):
            self.changed(self.query_id, None)

    def undo(self) -> None:
        edit = self.edit
        assert edit is not None
        what = translate("pool_editing", "Removing {doc_id} could not be undone").format(doc_id=self.doc_id)
        if self._run(lambda: self.session.undo(edit), what):
            self.changed(self.query_id, self.doc_id)


class DiscardDraftCommand(_EditCommand):
    """The draft was discarded in the background before this was pushed; undo brings it back, redo discards again.

    An undo the project refuses (another draft exists, started by a step not on this stack) keeps the step: the
    stack is put back at once, so Edit ▸ Undo can bring the draft back later and nothing it took is lost.
    """

    def __init__(
        self,
        project: Project,
        discarded: DiscardedDraft,
        refreshed: Callable[[int | None], None],
        failed: Failed,
        keep: Callable[[], None],
        *,
        annotator: str,
    ) -> None:
        text = translate("pool_editing", "Discard draft pool v{version}").format(version=discarded.draft.version)
        super().__init__(text, lambda _q, _d: None, failed)
        self.project, self.discarded, self.refreshed, self.keep = project, discarded, refreshed, keep
        self.annotator = annotator
        self._done = True  # the first redo (the push) finds the draft discarded already, as after a refused undo

    def redo(self) -> None:
        if self._done:
            self._done = False
            return

        def work() -> None:
            self.discarded = discard(self.project, plan_discard(self.project), annotator=self.annotator)

        if self._run(work, translate("pool_editing", "The draft was not discarded")):
            self.refreshed(None)

    def undo(self) -> None:
        version = self.discarded.draft.version
        try:
            restore_discarded(self.project, self.discarded, annotator=self.annotator)
        except WRITE_ERRORS as exc:
            self.failed(
                translate(
                    "pool_editing",
                    "Draft pool v{version} was not brought back: {problem}. The step stays in Edit ▸ Undo.",
                ).format(version=version, problem=write_problem(exc))
            )
            self._done = True  # still discarded: the redo that puts the stack back writes nothing
            self.keep()
            return
        self.refreshed(version)


class StartDraftCommand(_EditCommand):
    """Pool ▸ New draft from this version, on the undo stack: undo discards the draft it started (as it was
    started: the edits made in it are undone first), redo brings that draft back under its number. So a draft
    discarded before it is brought back by the undo after this one, not refused."""

    def __init__(
        self, project: Project, source: int, refreshed: Callable[[int | None], None], failed: Failed, *, annotator: str
    ) -> None:
        super().__init__(
            translate("pool_editing", "New draft from pool v{version}").format(version=source),
            lambda _q, _d: None,
            failed,
        )
        self.project, self.source, self.refreshed, self.annotator = project, source, refreshed, annotator
        self.started: DraftStarted | None = None
        self.discarded: DiscardedDraft | None = None

    def redo(self) -> None:
        def work() -> None:
            if self.discarded is None:  # the push: start it
                self.started = start_draft(self.project, self.source, annotator=self.annotator)
            else:  # a redo: the same draft back under its number, not a new one
                restore_discarded(self.project, self.discarded, annotator=self.annotator)

        if self._run(work, translate("pool_editing", "No draft was started")):
            assert self.started is not None
            self.refreshed(self.started.draft.version)

    def undo(self) -> None:
        assert self.started is not None
        version = self.started.draft.version

        def work() -> None:
            self.discarded = discard(self.project, plan_discard(self.project), annotator=self.annotator)

        if self._run(
            work, translate("pool_editing", "Draft pool v{version} was not taken back").format(version=version)
        ):
            self.refreshed(None)


class AddDocumentDialog(QDialog):
    """A document ID typed, or one picked from the corpus by a search (debounced, in the background); the search's
    state is :class:`~ndcg_desktop.sessions.pool_edit.DocumentSearch`'s."""

    def __init__(
        self, project: Project, query: str, in_pool: set[str] | frozenset[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.searcher = DocumentSearch(project, in_pool)
        self._task: Task | None = None
        self.setWindowTitle(translate("pool_editing", "Add a document to the pool"))
        self.query_label = plain_label(query, wrap=True)  # project data: plain text
        self.query_label.setAccessibleName(translate("pool_editing", "Query"))
        self.search = QLineEdit(placeholderText=translate("pool_editing", "Document ID, or words of a title or text"))
        self.search.setAccessibleName(translate("pool_editing", "Document ID or search words"))
        self.search.setClearButtonEnabled(True)
        self.summary = plain_label(
            translate("pool_editing", "Type an ID to add it as it is, or words to search the imported documents."),
            wrap=True,
        )
        self.summary.setAccessibleName(translate("pool_editing", "Search result summary"))
        self.model = FrameModel(SEARCH_COLUMNS, self)
        self.model.clear()
        self.view = table_view(
            sorted_proxy(self.model, self),
            sortable=False,  # in the order found: IDs first, then titles, then texts
            name=translate("pool_editing", "Matching documents"),
            description=translate(
                "pool_editing", "Documents whose ID starts with, or whose title or text contains, what you typed"
            ),
        )
        self.view.setMinimumHeight(240)
        self.view.doubleClicked.connect(lambda _index: self._accept())
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = QPushButton(translate("pool_editing", "Add to the pool"))
        self.add_button.setEnabled(False)
        self.buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.query_label)
        layout.addWidget(self.search)
        layout.addWidget(self.summary)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.buttons)
        self.timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self.timer.timeout.connect(self.run_search)
        self.search.textChanged.connect(self._typed)
        self.search.returnPressed.connect(self._accept)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._update_button())
        self.resize(640, 440)

    def chosen(self) -> str:
        """The selected document, or else the ID as typed."""
        index = self.view.currentIndex()
        if index.isValid():
            return self.model.display[0][index.row()]
        return self.search.text().strip()

    def _update_button(self) -> None:
        self.add_button.setEnabled(self.searcher.can_add(self.chosen()))

    def _typed(self) -> None:
        self.view.clearSelection()
        self.view.setCurrentIndex(self.model.index(-1, -1))
        self._update_button()
        self.timer.start()

    def run_search(self) -> None:
        if self._task is not None:
            self._task.cancel_event.set()  # a newer search supersedes it
        job = self.searcher.job(self.search.text())
        if self.search.text().strip():
            self.summary.setText(translate("pool_editing", "Searching…"))

        def shown(found: pd.DataFrame) -> None:
            if self.searcher.apply(job, found):  # else an older search's answer
                self._show()

        self._task = run_in_background(lambda cancelled, **_: job(cancelled=cancelled), shown, self._failed)

    def _failed(self, message: str) -> None:
        self.summary.setText(message)

    def _show(self) -> None:
        found = self.searcher.found
        yes, no = translate("pool_editing", "yes"), ""
        frame = found.assign(
            found=[translate("pool_editing", FOUND_IN[m]) for m in found["match"]],
            in_pool=[yes if there else no for there in found["in_pool"]],
        )
        self.model.load(frame.reset_index(drop=True))
        fit_columns(self.view, self.model)
        typed = self.search.text().strip()
        if not len(found):
            text = translate("pool_editing", "No imported document matches; Add puts the ID {doc_id} in as typed.")
            self.summary.setText(text.format(doc_id=typed) if typed else "")
        else:
            more = translate("pool_editing", " (the first {limit})").format(limit=SEARCH_LIMIT)
            self.summary.setText(
                translate(
                    "pool_editing", "{count} documents match{more}; pick one, or Add takes the ID as typed."
                ).format(count=len(found), more=more if len(found) >= SEARCH_LIMIT else "")
            )
        self._update_button()

    def _accept(self) -> None:
        self._update_button()
        if self.add_button.isEnabled():
            self.accept()

    def done(self, result: int) -> None:
        if self._task is not None:
            self._task.cancel_event.set()
        super().done(result)


class PoolEditor(QObject):
    """The Pool menu's editing entries, bound to the main window (its project, workspace and undo stack)."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.session = PoolEditSession()
        self.session.follow(window.slot)  # each project, and every change to its items, from its events
        self.annotate: AnnotateSession = window.workspace.session  # where the editor acts: the Annotate view's place

    def add_actions(self, menu: QMenu) -> None:
        def action(text: str, slot: Callable[[], None], shortcut: str | None = None) -> QAction:
            item = QAction(text, self.window)
            if shortcut:
                item.setShortcut(QKeySequence(shortcut))
            item.triggered.connect(lambda _checked=False: slot())
            menu.addAction(item)
            return item

        menu.addSeparator()
        self.add_action = action(
            translate("pool_editing", "&Add document to this query's pool…"), self.add_document, "Ctrl+Shift+A"
        )
        self.remove_action = action(
            translate("pool_editing", "&Remove ungraded item from the pool"), self.remove_item, "Delete"
        )
        self.discard_action = action(translate("pool_editing", "&Discard draft…"), self.discard_draft)
        menu.addSeparator()
        self.export_action = action(translate("pool_editing", "&Export qrels…"), self.export_qrels, "Ctrl+Shift+E")

    def update_actions(self, writable: bool, version: Any, has_draft: bool) -> None:
        # Only while the Annotate tab shows: Delete on the Scores tab must not remove an item out of sight.
        shown = self.window.tabs.currentWidget() is self.window.workspace
        editable = writable and version is not None and not version.frozen and shown
        self.add_action.setEnabled(editable)
        self.remove_action.setEnabled(editable)
        self.discard_action.setEnabled(writable and has_draft)
        self.export_action.setEnabled(version is not None and version.frozen)

    # -- add and remove ---------------------------------------------------------------------
    def _status(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 15000)

    def _failed(self, message: str) -> None:
        self._status(message)
        self.window.show_error(message)

    def _changed(self, query_id: str, doc_id: str | None) -> None:
        """After an item joined or left a query's pool: that query shown, ``doc_id`` (if still there) current."""
        self.annotate.focus(query_id, doc_id)

    def _place(self) -> None:
        """Forward the Annotate session's place (the version and query shown) to the editor's session."""
        version = self.annotate.version
        self.session.show(version.version if version is not None else None, self.annotate.query_id)

    def _refused(self, refusal: EditRefusal) -> None:
        if text := edit_refusal_text(refusal):
            self._status(text)

    def add_document(self, doc_id: str | None = None) -> None:
        """Pool ▸ Add document: to the query shown, by ID or picked from the corpus."""
        self._place()
        session = self.session
        if (refusal := session.add_refusal()) is not None:
            self._refused(refusal)
            return
        assert session.project is not None and session.version is not None and session.query_id is not None
        if doc_id is None:
            query = f"{session.query_id} — {self.annotate.query_text}"
            dialog = AddDocumentDialog(session.project, query, session.in_pool(), self.window)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            doc_id = dialog.chosen()
        command = AddItemCommand(session, session.version, session.query_id, doc_id, self._changed, self._failed)
        self.window.undo_stack.push(command)
        if command.edit is not None:
            text = translate("pool_editing", "Added {doc_id} to the pool of {query_id}; Ctrl+Z takes it out again.")
            if not command.edit.has_text:
                text = translate(
                    "pool_editing",
                    "Added {doc_id} to the pool of {query_id}; its text is not imported (File ▸ Import documents).",
                )
            self._status(text.format(doc_id=command.edit.doc_id, query_id=command.edit.query_id))

    def remove_item(self) -> None:
        """Pool ▸ Remove ungraded item: the selected document, if it has no grade (the session decides)."""
        self._place()
        session, doc_id = self.session, self.annotate.doc_id
        if (refusal := session.remove_refusal(doc_id)) is not None:
            self._refused(refusal)
            return
        assert doc_id is not None and session.version is not None and session.query_id is not None
        command = RemoveItemCommand(session, session.version, session.query_id, doc_id, self._changed, self._failed)
        self.window.undo_stack.push(command)
        if command.edit is not None:
            self._status(
                translate("pool_editing", "Removed {doc_id} from the pool of {query_id}; Ctrl+Z puts it back.").format(
                    doc_id=doc_id, query_id=command.query_id
                )
            )

    # -- discard ----------------------------------------------------------------------------
    def discard_draft(self) -> None:
        """Pool ▸ Discard draft: a confirmation naming what goes, then the work in the background."""
        project = self.session.project
        if project is None or project.pools.draft() is None:
            return
        try:
            plan = self.session.plan_discard()
        except WRITE_ERRORS as exc:
            self._failed(write_problem(exc))
            return
        if (
            show_message(
                self.window,
                QMessageBox.Icon.Question,
                translate("pool_editing", "Discard draft"),
                discard_question(plan),
                QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel,
            )
            != QMessageBox.StandardButton.Discard
        ):
            return
        try:
            job = self.session.discard_job(plan)  # refused if the draft changed while the question was open
        except ValueError:
            self._failed(translate("pool_editing", "The draft pool changed since the confirmation; discard again."))
            return

        def done(discarded: DiscardedDraft) -> None:  # the version list followed through the project's events
            command = DiscardDraftCommand(
                project,
                discarded,
                self._refreshed,
                self._failed,
                self._keep_undo_step,
                annotator=self.session.annotator,
            )
            self.window.undo_stack.push(command)
            self._status(
                translate("pool_editing", "Draft pool v{version} discarded; Ctrl+Z brings it back.").format(
                    version=plan.draft.version
                )
            )

        self.window._background(
            translate("pool_editing", "Discarding the draft…"),
            lambda cancelled, **_: job(cancelled=cancelled),
            done,
        )

    def _refreshed(self, version: int | None) -> None:
        self.window.refresh(version=version)

    def _keep_undo_step(self) -> None:
        """After a refused undo: the stack put back where it was (the command's redo then writes nothing)."""
        QTimer.singleShot(0, self.window.undo_stack.redo)

    def start_draft(self, source: int) -> bool:
        """Pool ▸ New draft from this version, as an undoable step; False when it was refused (and said why)."""
        command = StartDraftCommand(
            self.window.project, source, self._refreshed, self._failed, annotator=self.session.annotator
        )
        self.window.undo_stack.push(command)
        return command.started is not None and not command.isObsolete()

    # -- export -----------------------------------------------------------------------------
    def export_qrels(self, path: str | None = None, fmt: str | None = None) -> None:
        """Pool ▸ Export qrels: the shown frozen version as TREC qrels or CSV, with its manifest beside it
        (``tasks.export.export_frozen_pool``, as ``ndcg export-qrels``)."""
        project, version = self.window.project, self.window.current_version()
        if project is None or version is None or not version.frozen:
            self._status(translate("pool_editing", "Only a frozen pool version can be exported as qrels."))
            return
        trec = translate("pool_editing", "TREC qrels (*.qrels *.txt)")
        csv = translate("pool_editing", "CSV (*.csv)")
        asked = path is None  # the save dialog asked before replacing a file: the user's choice
        if path is None:
            suggested = f"{project.path.stem}-v{version.version}.qrels"
            path, chosen = file_dialogs.save_file(
                self.window, translate("pool_editing", "Export qrels"), suggested, f"{trec};;{csv}"
            )
            if not path:
                return
            fmt = "csv" if chosen == csv or path.lower().endswith(".csv") else "trec"
        target, kind = path, fmt or "trec"

        def done(written: Any) -> None:
            self._status(
                translate(
                    "pool_editing", "Wrote pool v{version} (sha256 {hash}…) to {path}, its manifest to {manifest}."
                ).format(version=version.version, hash=version.short_hash, path=target, manifest=written[1].name)
            )

        self.window._background(
            translate("pool_editing", "Exporting qrels…"),
            lambda **_: export_frozen_pool(project, target, version=version.version, fmt=kind, force=asked),
            done,
        )


def discard_question(plan: DiscardPlan) -> str:
    """The confirmation: what discarding deletes, named, counted from the rows the discard takes."""
    who = ", ".join(plan.annotators) if plan.annotators else translate("pool_editing", "nobody")
    others = "".join(
        [
            translate("pool_editing", "; {count} answers given by language models").format(count=plan.model_answers)
            if plan.model_answers
            else "",
            translate("pool_editing", "; {count} work files handed out").format(count=plan.handouts)
            if plan.handouts
            else "",
            translate(
                "pool_editing", "; {count} records of how it was pooled (strategy, runs, order of choice)"
            ).format(count=plan.pool_builds)
            if plan.pool_builds
            else "",
            *(  # a table a later format adds is named as it is
                translate("pool_editing", "; {count} rows of {table}").format(count=count, table=table)
                for table, count in sorted(plan.unnamed.items())
            ),
        ]
    )
    return translate(
        "pool_editing",
        "Discard draft pool v{version}?\n\n"
        "Deleted: its {items} items for {queries} queries, with {graded} grades and {notes} notes; {ratings} "
        "ratings (by {who}), {adjudicated} adjudications and {assignments} work-file assignments{others}. "
        "{own} items were graded or noted in this draft and exist nowhere else.\n\n"
        "The audit log keeps a record, and Edit ▸ Undo brings all of it back while the project stays open.",
    ).format(
        version=plan.draft.version,
        items=plan.items,
        queries=plan.queries,
        graded=plan.graded,
        who=who,
        notes=plan.notes,
        ratings=plan.ratings,
        adjudicated=plan.adjudicated,
        assignments=plan.assignments,
        others=others,
        own=plan.own_work,
    )

"""The annotation workspace: queries, a query's pool, the document, and the grade bar.

It renders :class:`~ndcg_desktop.sessions.annotate.AnnotateSession` and forwards keys and clicks to it; what
is shown, where a key moves and why it does nothing are decided there, without Qt.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import (
    QKeySequence,
    QShortcut,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain.blind import BLIND
from ndcg_desktop.gui.annotate.document import DocumentPane
from ndcg_desktop.gui.annotate.guidelines import SHORTCUT as GUIDELINES_KEY
from ndcg_desktop.gui.annotate.guidelines import GuidelinesPanel
from ndcg_desktop.gui.annotate.models import PoolFilterProxy, PoolTableModel, QueryFilterProxy, QueryListModel
from ndcg_desktop.gui.annotate.panes import PoolPane, QueriesPane
from ndcg_desktop.gui.annotate.query_loader import QueryLoader
from ndcg_desktop.gui.annotate.words import refusal_text
from ndcg_desktop.gui.commands import WRITE_ERRORS, SetGradeCommand, SetNoteCommand, write_problem
from ndcg_desktop.gui.plain import show_message
from ndcg_desktop.sessions import annotate as aspect
from ndcg_desktop.sessions.annotate import AnnotateSession
from ndcg_desktop.sessions.annotate_rules import Refusal
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.kit import Job

translate = QCoreApplication.translate


class Workspace(QWidget):
    """Renders the Annotate session (one pool version of a project) and forwards keys; edits are undoable commands."""

    progress_changed = Signal(int, int)  # graded, total in the shown version
    queries_loaded = Signal()  # the shown version's query list is complete (read on a worker when large)
    refused = Signal(object)  # FrozenVersionChanged: a large frozen version failed its check while being read
    error = Signal(str)  # shown in a dialog
    status = Signal(str)  # shown in the status bar: why a key did nothing, what failed

    def __init__(
        self, undo_stack: QUndoStack, parent: QWidget | None = None, *, slot: ProjectSlot | None = None
    ) -> None:
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.session = AnnotateSession()
        self._write_failed = False
        self._syncing = False  # the selection is being set from the session: its signals are not the user's
        self._note_for: tuple[int, str, str, str] | None = (
            None  # the item (version, query, doc) the note box shows, its stored note
        )
        self._shown_doc: str | None = None  # the document whose text is shown

        self.loader = QueryLoader()
        self.queries = QueryListModel(self.session, self)
        self.query_proxy = QueryFilterProxy(self)
        self.query_proxy.setSourceModel(self.queries)
        self.pool = PoolTableModel(self.session, self)
        self.pool_proxy = PoolFilterProxy(self)
        self.pool_proxy.setSourceModel(self.pool)

        # Left: queries with a filter box. Centre: the query, its pool, the grade bar and the note.
        left, centre = QueriesPane(self.query_proxy), PoolPane(self.pool_proxy)
        self.filter_box, self.query_view = left.filter_box, left.view
        self.banner, self.topic, self.query_label = centre.banner, centre.topic, centre.topic.title
        self.order_box, self.ungraded_only, self.pool_view = centre.order_box, centre.ungraded_only, centre.view
        self.grade_bar, self.note_edit = centre.grade_bar, centre.note_edit
        self.grade_buttons = self.grade_bar.buttons
        self.left, self.centre = left, centre
        self.ungraded_only.toggled.connect(self._ungraded_only)
        self.order_box.activated.connect(lambda _i: self._order_chosen())
        self.grade_bar.graded.connect(self.grade_current)
        self.note_edit.returnPressed.connect(self.save_note)

        # Right: the document, readable.
        right = self.document = DocumentPane()
        self.doc_title, self.reader, self.long_notice = right.doc_title, right.reader, right.long_notice

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("workspace_splitter")
        self.guidelines = GuidelinesPanel()  # shown or hidden with Ctrl+G, remembered
        for w in (left, centre, right, self.guidelines):
            self.splitter.addWidget(w)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 4)
        self.splitter.setStretchFactor(2, 4)
        self.splitter.setStretchFactor(3, 2)
        self.splitter.setSizes([330, 540, 410, 300])
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 8, 8, 8)
        self._layout.addWidget(self.splitter)

        self.query_view.selectionModel().currentRowChanged.connect(self._query_selected)
        self.pool_view.selectionModel().currentRowChanged.connect(self._doc_selected)
        self._shortcuts()
        self._set_tab_order()
        self.session.changed.connect(self._render)
        if slot is not None:
            self.session.follow(slot)

    def put_above(self, row: QHBoxLayout) -> None:
        """A row above the panes (the window's pool-version choice)."""
        self._layout.insertLayout(0, row)

    # -- construction helpers --------------------------------------------------------------
    def _shortcuts(self) -> None:
        def add(keys: str, slot: object) -> None:
            shortcut = QShortcut(QKeySequence(keys), self)
            # The whole window while the workspace shows (a hidden widget's shortcuts are off): the keys
            # work whichever pane or toolbar has focus; a text field keeps its typed keys (ShortcutOverride).
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(slot)

        for digit in range(10):
            add(str(digit), lambda d=digit: self.grade_key(d))
        add("J", lambda: self.move_doc(1))
        add("K", lambda: self.move_doc(-1))
        add("N", self.next_query_with_ungraded)
        add("E", self.focus_note)
        add("Ctrl+F", self.filter_box.setFocus)
        add("Escape", self.pool_view.setFocus)
        add(GUIDELINES_KEY, self.guidelines.toggle)

    def _set_tab_order(self) -> None:
        """Tab follows the work: filter, queries, pool, grade buttons, note, then the document."""
        chain = [self.filter_box, self.query_view, self.order_box, self.ungraded_only, self.pool_view]
        chain += self.grade_bar.focus_widgets()  # in grade order: added so on every rebuild
        chain += [self.note_edit, self.reader]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    # -- rendering the session --------------------------------------------------------------
    def _render(self, aspects: frozenset[str]) -> None:
        """Show what the session says changed; the selection signals this raises are not the user's."""
        syncing, self._syncing = self._syncing, True
        try:
            self._render_parts(aspects)
        finally:
            self._syncing = syncing
        if aspect.REFUSED in aspects and self.session.refusal is not None:
            self.refused.emit(self.session.refusal)
        if aspect.QUERIES in aspects and self.session.query_id is not None and not self._query_shown():
            self.select_query_row(0)  # the query the session kept is filtered out of the list: the first shown

    def _render_parts(self, aspects: frozenset[str]) -> None:
        if aspect.PROJECT in aspects:
            self.guidelines.attach(
                self.session.project, self.undo_stack, self._report_failure, annotator=self.session.annotator
            )
        if aspects & {aspect.PROJECT, aspect.VERSION}:
            self._render_version()
        if aspect.QUERIES in aspects:
            if aspect.LOADING not in aspects:
                self.loader.cancel()  # read anew at once: an older read's rows must not land
            self.queries.reset()
            self.left.size_columns(self.queries)
        elif aspect.COUNTS in aspects:
            self.queries.values_changed(1, 2)
        if aspect.POOL in aspects:
            self.pool.reset()
            self._render_topic()
            self.pool_view.resizeColumnToContents(0)
        elif aspect.ITEMS in aspects:
            self.pool.values_changed(2, 4)
        if aspects & {aspect.PROJECT, aspect.ORDER}:
            self._render_order()  # after the models took the session's new rows
        if aspects & {aspect.QUERIES, aspect.POOL, aspect.CURRENT, aspect.ITEMS, aspect.ORDER}:
            self._sync_selection()
            self._show_item(force=aspect.POOL in aspects)
        elif aspect.DOCUMENT in aspects:
            self._show_item(force=True)
        if aspect.LOADING in aspects and self.session.pending is not None:
            self.loader.start(self.session.pending, self._queries_read, self.error.emit)
            self.topic.show_message(translate("workspace", "Reading the queries of this pool version…"))
        if aspects & {aspect.QUERIES, aspect.COUNTS, aspect.VERSION}:
            self._emit_progress()
        if aspect.QUERIES in aspects and aspect.LOADING not in aspects and self.session.project is not None:
            focus = QApplication.focusWidget()
            if focus is None or not self.isAncestorOf(focus):
                self.pool_view.setFocus()  # grading keys work at once, without a click first
            self.queries_loaded.emit()

    def _queries_read(self, job: Job[object], rows: object) -> None:
        self.session.apply(job, rows)  # type: ignore[arg-type]

    def _render_version(self) -> None:
        self.centre.show_version(self.session.version, locked=self.session.locked() is not None, model=self.pool)
        if self.session.version is not None:
            self._set_tab_order()  # the grade bar's buttons were rebuilt

    def _render_order(self) -> None:
        self.order_box.setCurrentIndex(max(self.order_box.findData(self.session.order), 0))
        column = PoolTableModel.BLIND_COLUMN if self.session.order == BLIND else 0
        self.pool_view.sortByColumn(column, Qt.SortOrder.AscendingOrder)  # the session sorted already: same order

    def _render_topic(self) -> None:
        query_id = self.session.query_id
        if query_id is None:
            self.topic.show_message(
                translate("workspace", "No queries yet: import queries and judgments, or build a pool from runs.")
            )
        elif self.session.version is None:
            self.topic.show_message(
                translate("workspace", "No pool yet: import judgments (File ▸ Import judgments) or build one from runs")
            )
        else:
            self.topic.show_topic(query_id, self.session.topic)  # terms: title, description

    def _query_shown(self) -> bool:
        row = self.queries.row_of(self.session.query_id or "")
        return row >= 0 and self.query_proxy.mapFromSource(self.queries.index(row, 0)).isValid()

    def _sync_selection(self) -> None:
        """The views' current rows are the session's query and item."""
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        for view, proxy, row in (
            (self.query_view, self.query_proxy, self.queries.row_of(self.session.query_id or "")),
            (self.pool_view, self.pool_proxy, self.pool.row_of(self.session.doc_id or "")),
        ):
            index = proxy.mapFromSource(proxy.sourceModel().index(row, 0)) if row >= 0 else QModelIndex()
            if index.isValid():
                if view.currentIndex().row() != index.row() or not view.selectionModel().isRowSelected(index.row()):
                    view.selectionModel().setCurrentIndex(index, flags)
                    view.scrollTo(index)  # only when it moved: a list scrolled away stays while grading
            else:
                view.selectionModel().clear()

    def _show_item(self, *, force: bool = False) -> None:
        """The current item's grade and note; its document when another item (or ``force``)."""
        doc_id, project = self.session.doc_id, self.session.project
        if doc_id is None or project is None:
            self.grade_bar.show_grade(None)
            self.document.clear()
            self._show_note(None)
            self._shown_doc = None
            return
        self.grade_bar.show_grade(self.session.pool.grades[self.session.item()])
        self._show_note(self.session.note())
        if force or doc_id != self._shown_doc:
            self._shown_doc = doc_id
            session = self.session
            self.document.show_document(project, doc_id, session.query_text, session.parents, session.chunks_of)

    def _show_note(self, note: str | None) -> None:
        """The shown item's note (``None``: no item). A note typed and not saved with Enter is never dropped: a
        redraw of its item keeps it; leaving the item (any way: a grade, J/K, N, a click) saves it to that item."""
        session, typed = self.session, self.note_edit.text().strip()
        item = None
        if note is not None and session.version is not None and session.query_id and session.doc_id:
            item = (session.version.version, session.query_id, session.doc_id)
        shown, modified = self._note_for, self.note_edit.isModified()
        if modified and shown is not None and item == shown[:3]:
            return
        if modified and shown is not None and typed != shown[3] and session.project is not None:
            version, query_id, doc_id, _ = shown
            project = session.project  # saved after this redraw, to the project it was typed in
            QTimer.singleShot(0, lambda: self._save_left_note(project, (version, query_id, doc_id), typed))
        self.note_edit.setText(note or "")
        self.note_edit.setCursorPosition(0)  # a long note shows its start
        self._note_for = None if item is None or note is None else (*item, note)

    def _save_left_note(self, project: object, item: tuple[int, str, str], note: str) -> None:
        if self.session.project is not project:
            return  # the project was closed or replaced meanwhile
        version, query_id, doc_id = item
        first = True

        def changed(q: str, d: str) -> None:  # its first write shows nothing: the user moved on; undo/redo show it
            nonlocal first
            if not first:
                self._refresh_item(q, d)
            first = False

        self._push(SetNoteCommand(self.session, version, query_id, doc_id, note, changed, self._report_failure))

    def grade_keys(self) -> tuple[str, str] | None:
        """The grading keys of the shown scale and what they do, for the shortcuts list."""
        if self.session.version is None:
            return None
        scale = self.session.version.scale
        if not self.grade_bar.uses_buttons:
            return "0 … 9, Enter", translate(
                "workspace", "Type a grade from {low} to {high} into the number box; Enter grades and moves on"
            ).format(low=scale.low, high=scale.high)
        keys = aspect.digit_keys(scale.low, scale.high)
        return keys, translate("dialogs", "Grade the current document and move to the next ungraded one")

    def digit_keys(self) -> str | None:
        """The digit keys of the shown scale (Adjudicate's keys too, in the shortcuts list), or None."""
        if self.session.version is None:
            return None
        return aspect.digit_keys(self.session.version.scale.low, self.session.version.scale.high)

    def _emit_progress(self) -> None:
        progress = self.session.progress()
        if progress is not None:
            self.progress_changed.emit(*progress)

    # -- what the user does: forwarded to the session ------------------------------------------------
    def select_query_row(self, proxy_row: int) -> None:
        if self.query_proxy.rowCount() == 0:
            self.session.select_query(None)
            return
        proxy_row = min(max(proxy_row, 0), self.query_proxy.rowCount() - 1)
        source = self.query_proxy.mapToSource(self.query_proxy.index(proxy_row, 0)).row()
        self.session.select_query(self.queries.query_id(source))
        self._render(frozenset({aspect.CURRENT}))  # the same query: the selection shown again

    def _query_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._syncing and current.isValid():
            self.session.select_query(self.queries.query_id(self.query_proxy.mapToSource(current).row()))

    def select_doc_row(self, proxy_row: int) -> None:
        if self.pool_proxy.rowCount() == 0:
            self.session.select_item(None)
            return
        proxy_row = min(max(proxy_row, 0), self.pool_proxy.rowCount() - 1)
        source = self.pool_proxy.mapToSource(self.pool_proxy.index(proxy_row, 0)).row()
        self.session.select_item(self.pool.doc_id(source))
        self._render(frozenset({aspect.CURRENT}))

    def _doc_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._syncing and current.isValid():
            self.session.select_item(self.pool.doc_id(self.pool_proxy.mapToSource(current).row()))

    def _ungraded_only(self, value: bool) -> None:
        self.session.set_ungraded_only(value)
        self.pool_proxy.refilter()
        self._render(frozenset({aspect.CURRENT}))

    def _order_chosen(self) -> None:
        """The annotator chose an order: the session shows it and records it in the project."""
        try:
            self.session.set_judging_order(str(self.order_box.currentData()))
        except WRITE_ERRORS as exc:
            self._report_failure(
                translate("workspace", "The pool order was not recorded: {problem}").format(problem=write_problem(exc))
            )

    def grade_key(self, digit: int) -> None:
        """A digit key: grade at once on a small scale; on a large one, start typing into the number box."""
        if self.grade_bar.uses_buttons or not self.grade_bar.isEnabled():
            self.grade_current(digit)
        else:
            self.grade_bar.start_typing(digit)

    def grade_current(self, grade: int) -> None:
        """Grade the current document and move to the next ungraded one (keyboard-first). What a key does is
        decided by the session (sessions.annotate_rules's rules); this only asks, words and shows."""
        session = self.session
        outcome = session.key(grade)
        if isinstance(outcome, Refusal):
            self.status.emit(self._worded(outcome))
            return
        doc_id, query_id, version, row = session.doc_id, session.query_id, session.version, session.item()
        assert doc_id is not None and query_id is not None and version is not None
        if outcome.kind == "same":
            self._advance()
            return
        old, who = session.pool.grades[row], session.pool.annotators[row]
        if outcome.kind == "confirm" and not self._confirm_regrade(doc_id, old, grade, who):  # type: ignore[arg-type]
            self.status.emit(
                translate("workspace", "Kept the grade {old} that {who} gave {doc_id}.").format(
                    old=session.grade_text(old), who=who, doc_id=doc_id
                )
            )
            return
        command = SetGradeCommand(
            session,
            version.version,
            query_id,
            doc_id,
            grade,
            self._refresh_item,
            self._report_failure,
        )
        if not self._push(command):
            return  # stay on the document: its grade is still the stored one
        if command.batch is not None:  # an adaptive pool's next batch joined: its first, in the order shown
            self.session.batch_arrived(query_id)
            self.status.emit(translate("workspace", "More documents of {query} await grading.").format(query=query_id))
        else:
            self._advance()
        if not self.grade_bar.uses_buttons:
            self.pool_view.setFocus()  # J/K and the next digit work again

    def _worded(self, refusal: Refusal) -> str:
        return refusal_text(refusal, number_box=self.grade_bar.spin is not None)

    def _confirm_regrade(self, doc_id: str, old: int, grade: int, who: str) -> bool:
        """Replacing another annotator's grade is deliberate: ask (No is the default)."""
        answer = show_message(
            self,
            QMessageBox.Icon.Question,
            translate("workspace", "Replace another annotator's grade?"),
            translate(
                "workspace",
                "{doc_id} was graded {old} by {who}. Replace that grade with your {grade}?\n\n"
                "Both grades stay in the audit log, and Ctrl+Z undoes the change.",
            ).format(doc_id=doc_id, old=self.session.grade_text(old), who=who, grade=self.session.grade_text(grade)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _push(self, command: QUndoCommand) -> bool:
        """Run a command through the undo stack; False when its write failed (it is then not on the stack)."""
        self._write_failed = False
        self.undo_stack.push(command)
        return not self._write_failed

    def _report_failure(self, message: str) -> None:
        self._write_failed = True
        self.status.emit(message)
        self.error.emit(message)

    def _advance(self) -> None:
        if not self.session.advance():
            self.status.emit(
                translate(
                    "workspace", "Every document of {query} is graded; N goes to the next query to grade."
                ).format(query=self.session.query_id)
            )

    def save_note(self) -> None:
        session = self.session
        if session.note_refusal() is not None or session.version is None or session.query_id is None:
            return
        assert session.doc_id is not None
        old, note = session.note(), self.note_edit.text().strip()
        if note != old:
            command = SetNoteCommand(
                session,
                session.version.version,
                session.query_id,
                session.doc_id,
                note,
                self._refresh_item,
                self._report_failure,
            )
            if not self._push(command):
                self.note_edit.setText(note)  # keep what was typed, to save again
                self.note_edit.setModified(True)
                self.note_edit.setFocus()
                return
        self.note_edit.setModified(False)
        self._show_note(session.note())
        self.pool_view.setFocus()

    def _refresh_item(self, query_id: str, doc_id: str) -> None:
        """After a command ran (or was undone): its item shown. Its values already follow the project's events."""
        self.session.focus(query_id, doc_id)

    def move_doc(self, step: int) -> None:
        self.session.move(step)

    def next_query_with_ungraded(self) -> None:
        proxy = self.query_proxy
        shown = [self.queries.query_id(proxy.mapToSource(proxy.index(r, 0)).row()) for r in range(proxy.rowCount())]
        query_id = self.session.next_query(shown)  # the list as filtered here
        if isinstance(query_id, Refusal):
            self.status.emit(self._worded(query_id))
            return
        if query_id is not None:
            self.session.select_query(query_id)
            self.pool_view.setFocus()
            return
        awaiting = self.session.awaiting_total()
        if awaiting:
            self.status.emit(
                translate(
                    "workspace",
                    "No query has documents left to grade here; {count} await adjudication in the Adjudicate tab.",
                ).format(count=awaiting)
            )
        else:
            self.status.emit(translate("workspace", "No query in the list has ungraded documents left."))

    def focus_note(self) -> None:
        refusal = self.session.note_refusal()
        if refusal is not None:
            reason = self._worded(refusal) if refusal.kind != "no_document" else ""
            self.status.emit(reason or translate("workspace", "No document is selected: there is no note to edit."))
            return
        self.note_edit.setFocus()
        self.note_edit.deselect()
        self.note_edit.end(False)  # typing adds to the note instead of replacing it

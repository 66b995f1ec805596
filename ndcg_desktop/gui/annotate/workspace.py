"""The annotation workspace: queries, a query's pool, the document, and the grade bar."""

from __future__ import annotations

import pandas as pd
from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import (
    QKeySequence,
    QShortcut,
    QTextDocumentFragment,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain.blind import BLIND, DOC_ID
from ndcg_desktop.gui.annotate.document import DocumentPane, list_table
from ndcg_desktop.gui.annotate.grade_bar import GradeBar
from ndcg_desktop.gui.annotate.guidelines import SHORTCUT as GUIDELINES_KEY
from ndcg_desktop.gui.annotate.guidelines import GuidelinesPanel
from ndcg_desktop.gui.annotate.models import (
    PoolFilterProxy,
    PoolTableModel,
    QueryFilterProxy,
    QueryListModel,
    QueryRows,
)
from ndcg_desktop.gui.annotate.query_loader import QueryLoader
from ndcg_desktop.gui.annotate.topic_header import TopicHeader
from ndcg_desktop.gui.annotate.words import refusal_text
from ndcg_desktop.gui.commands import WRITE_ERRORS, SetGradeCommand, SetNoteCommand, write_problem
from ndcg_desktop.gui.plain import bold_label as _title
from ndcg_desktop.gui.plain import plain_tooltip, show_message
from ndcg_desktop.tasks.annotating import GradingRules, Refusal, next_query_to_grade, next_ungraded
from ndcg_desktop.tasks.grading import set_judging_order
from ndcg_desktop.tasks.project import PoolVersion, Project

translate = QCoreApplication.translate

BANNER_FROZEN = "background:#e8eef7; color:#1f3b63; border:1px solid #b9c9e0; border-radius:4px; padding:6px 10px;"


class Workspace(QWidget):
    """Shows one pool version of a project; edits go through the undo stack to the store."""

    progress_changed = Signal(int, int)  # graded, total in the shown version
    queries_loaded = Signal()  # the shown version's query list is complete (read on a worker when large)
    refused = Signal(object)  # FrozenVersionChanged: a large frozen version failed its check while being read
    error = Signal(str)  # shown in a dialog
    status = Signal(str)  # shown in the status bar: why a key did nothing, what failed

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.project: Project | None = None
        self.version: PoolVersion | None = None
        self.query_id: str | None = None
        self.query_text = ""
        self.parents: dict[str, str] = {}  # chunk ID -> its document, from the stored runs' chunk maps
        self.chunks_of: dict[str, list[str]] = {}
        self._write_failed = False

        self.loader = QueryLoader()
        self.queries = QueryListModel(self)
        self.query_proxy = QueryFilterProxy(self)
        self.query_proxy.setSourceModel(self.queries)
        self.pool = PoolTableModel(self)
        self.pool_proxy = PoolFilterProxy(self)
        self.pool_proxy.setSourceModel(self.pool)

        # Left: queries with a filter box.
        self.filter_box = QLineEdit(placeholderText=translate("workspace", "Filter queries (Ctrl+F)"))
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.setAccessibleName(translate("workspace", "Filter queries"))
        self.filter_box.textChanged.connect(self.query_proxy.setFilterFixedString)
        self.query_view = list_table(self.query_proxy, "queries_view", translate("workspace", "Queries"))
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        queries_title = _title(translate("workspace", "Queries"))
        queries_title.setBuddy(self.query_view)
        lv.addWidget(queries_title)
        lv.addWidget(self.filter_box)
        lv.addWidget(self.query_view)

        # Centre: the query, its pool, the grade bar and the note.
        self.banner = QLabel()
        self.banner.setStyleSheet(BANNER_FROZEN)
        self.banner.setWordWrap(True)
        self.banner.setMinimumHeight(2 * self.banner.fontMetrics().lineSpacing() + 16)
        self.banner.setAccessibleName(translate("workspace", "Pool version notice"))
        self.banner.hide()
        self.topic = TopicHeader()  # the query's title in bold, its description and narrative below
        self.query_label = self.topic.title
        self.ungraded_only = QCheckBox(translate("workspace", "Show ungraded only"))
        self.ungraded_only.setAccessibleName(translate("workspace", "Show ungraded only"))
        self.ungraded_only.toggled.connect(self.pool_proxy.set_ungraded_only)
        self.order_box = QComboBox()
        self.order_box.setAccessibleName(translate("workspace", "Pool order"))
        self.order_box.addItem(translate("workspace", "Blind order"), BLIND)
        self.order_box.addItem(translate("workspace", "Document ID order"), DOC_ID)
        self.order_box.setToolTip(
            translate(
                "workspace",
                "Blind order hides the runs' ranking, which would bias a grade: each query's pool is "
                "shuffled the same way for everyone. The order is recorded in the project.",
            )
        )
        self.order_box.activated.connect(lambda _i: self._order_chosen())
        self.pool_view = list_table(self.pool_proxy, "pool_view", translate("workspace", "Pool"))
        header = self.pool_view.horizontalHeader()
        header.setStretchLastSection(False)
        # Sized once per load, not ResizeToContents: that re-measures every row on each grade.
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(3, 90)
        header.resizeSection(4, 110)
        self.grade_bar = GradeBar()
        self.grade_buttons = self.grade_bar.buttons
        self.grade_bar.graded.connect(self.grade_current)
        self.note_edit = QLineEdit(
            placeholderText=translate("workspace", "Note on this document (E to edit, Enter to save)")
        )
        self.note_edit.setAccessibleName(translate("workspace", "Note"))
        self.note_edit.setAccessibleDescription(
            translate("workspace", "Note on this document (E to edit, Enter to save)")
        )
        self.note_edit.returnPressed.connect(self.save_note)
        centre = QWidget()
        cv = QVBoxLayout(centre)
        cv.setContentsMargins(0, 0, 0, 0)
        cv.addWidget(self.banner)
        cv.addWidget(self.topic)
        row = QHBoxLayout()
        pool_title = _title(translate("workspace", "Pool"))
        pool_title.setBuddy(self.pool_view)
        row.addWidget(pool_title)
        row.addStretch(1)
        row.addWidget(self.order_box)
        row.addSpacing(8)
        row.addWidget(self.ungraded_only)
        cv.addLayout(row)
        cv.addWidget(self.pool_view, 1)
        cv.addWidget(self.grade_bar)
        cv.addWidget(self.note_edit)

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

    # -- loading -------------------------------------------------------------------------
    def show_version(self, project: Project, version: PoolVersion, *, keep_doc: str | None = None) -> None:
        keep = self.query_id
        self.project, self.version = project, version
        self._read_chunk_parents(project)
        self._rebuild_grade_bar()
        self._size_pool_columns()
        self._apply_order(project.judging_order())
        self.guidelines.attach(project, self.undo_stack, self._report_failure)
        frozen = version.frozen
        self.banner.setVisible(frozen)
        self.banner.clear()  # nothing of another version's notice stays behind, shown or not
        self.banner.setToolTip("")
        if frozen:
            text = translate(
                "workspace",
                "<b>Frozen:</b> pool version {version} (sha256 {hash}…) is read-only. "
                "Pool ▸ New draft from this version starts the next round.",
            ).format(version=version.version, hash=version.short_hash)
            self.banner.setText(text)
            self.banner.setAccessibleDescription(QTextDocumentFragment.fromHtml(text).toPlainText())
            self.banner.setToolTip(
                plain_tooltip(
                    translate("workspace", "Frozen {when} by {who}\nsha256 {hash}").format(
                        when=version.frozen_at, who=version.frozen_by, hash=version.hash
                    )
                )
            )
        self.grade_bar.setEnabled(not frozen)
        self.note_edit.setReadOnly(frozen)
        self._load_queries(version.version, frozen, keep, keep_doc=keep_doc)

    def _read_chunk_parents(self, project: Project) -> None:
        self.parents = project.chunk_parents()
        self.chunks_of = {}  # a document -> its chunks that runs returned
        for chunk, parent in self.parents.items():
            self.chunks_of.setdefault(parent, []).append(chunk)

    def _load_queries(self, number: int, frozen: bool, keep: str | None, *, keep_doc: str | None = None) -> None:
        """List version ``number``'s queries and select ``keep`` (else the first) and in it ``keep_doc`` (else the
        first ungraded document): at once, or when read."""
        assert self.project is not None
        self.query_id = None  # another version: the pool must be read again even for the same query

        def show(rows: QueryRows) -> None:
            self.queries.load_rows(rows, frozen=frozen)
            self._size_query_columns()
            row = self.queries.row_of(keep) if keep else -1
            self.select_query_row(self.query_proxy.mapFromSource(self.queries.index(max(row, 0), 0)).row())
            doc_row = self.pool.row_of(keep_doc) if keep_doc is not None and row >= 0 else -1
            if doc_row >= 0:
                self.select_doc_row(self.pool_proxy.mapFromSource(self.pool.index(doc_row, 0)).row())
            self._emit_progress()
            focus = QApplication.focusWidget()
            if focus is None or not self.isAncestorOf(focus):
                self.pool_view.setFocus()  # grading keys work at once, without a click first
            self.queries_loaded.emit()

        if not self.loader.start(self.project, number, show, self.refused.emit, self.error.emit):
            # Nothing of the version shown before stays on screen while this one's list is read.
            self.queries.load_rows(QueryRows(), frozen=frozen)
            self._load_pool(None)
            self.topic.show_message(translate("workspace", "Reading the queries of this pool version…"))

    def grade_keys(self) -> tuple[str, str] | None:
        """The grading keys of the shown scale and what they do, for the shortcuts list."""
        if self.version is None:
            return None
        scale = self.version.scale
        if not self.grade_bar.uses_buttons:
            return "0 … 9, Enter", translate(
                "workspace", "Type a grade from {low} to {high} into the number box; Enter grades and moves on"
            ).format(low=scale.low, high=scale.high)
        digits = [g for g in range(scale.low, scale.high + 1) if 0 <= g <= 9]
        keys = " ".join(str(d) for d in digits) if len(digits) <= 4 else f"{digits[0]} … {digits[-1]}"
        return keys, translate("dialogs", "Grade the current document and move to the next ungraded one")

    def show_no_pool(self, project: Project) -> None:
        """A project without any pool version: its queries, and nothing of another project's pool or grades."""
        self.project, self.version = project, None
        self.guidelines.attach(project, self.undo_stack, self._report_failure)
        self.banner.hide()
        self.banner.clear()
        self.grade_bar.clear()  # no scale to grade on until a pool exists
        self.grade_bar.setEnabled(False)
        self.note_edit.setReadOnly(True)
        self._load_queries(-1, False, None)

    def _apply_order(self, order: str) -> None:
        """Sort the pool blind (by the hidden blind-order column) or by document ID."""
        self.order_box.setCurrentIndex(max(self.order_box.findData(order), 0))
        self.pool_view.setColumnHidden(PoolTableModel.BLIND_COLUMN, True)
        column = PoolTableModel.BLIND_COLUMN if order == BLIND else 0
        self.pool_view.sortByColumn(column, Qt.SortOrder.AscendingOrder)

    def _order_chosen(self) -> None:
        """The annotator chose an order: show it, keep the current document, record it in the project."""
        order = str(self.order_box.currentData())
        doc_id = self.current_doc()
        self._apply_order(order)
        if doc_id is not None:
            proxy = self.pool_proxy.mapFromSource(self.pool.index(self.pool.row_of(doc_id), 0))
            self.select_doc_row(proxy.row())
        if self.project is None or self.project.read_only or order == self.project.judging_order():
            return
        try:
            set_judging_order(self.project, order)
        except WRITE_ERRORS as exc:
            self._report_failure(
                translate("workspace", "The pool order was not recorded: {problem}").format(problem=write_problem(exc))
            )

    def _size_query_columns(self) -> None:
        # Measured from the model's longest texts: resizeColumnToContents asked data() through the
        # bindings for 200 rows x 3 columns x every role (about 60 ms of a refresh after an import).
        metrics, header = self.query_view.fontMetrics(), self.query_view.horizontalHeader()
        for column in range(3):
            texts = self.queries.widest_candidates(column)
            widest = max((metrics.horizontalAdvance(text) for text in texts), default=0)
            header.resizeSection(column, max(widest + 16, header.sectionSizeHint(column)))

    def _size_pool_columns(self) -> None:
        assert self.version is not None
        metrics = self.pool_view.fontMetrics()
        low, high = self.version.scale.low, self.version.scale.high
        # The labelled grades and the scale's ends: measuring every grade of a huge scale would hang.
        grades = {*range(low, min(high, low + len(self.version.labels) - 1) + 1), low, high}
        self.pool.labels, self.pool.low = self.version.labels, low
        widest = max([metrics.horizontalAdvance(self.pool.grade_text(g)) for g in grades] + [40])
        self.pool_view.horizontalHeader().resizeSection(2, widest + 24)

    def _rebuild_grade_bar(self) -> None:
        assert self.version is not None
        self.grade_bar.set_scale(self.version.scale, self.version.labels)
        self._set_tab_order()

    def select_query_row(self, proxy_row: int) -> None:
        if self.query_proxy.rowCount() == 0:
            self._load_pool(None)
            return
        proxy_row = min(max(proxy_row, 0), self.query_proxy.rowCount() - 1)
        index = self.query_proxy.index(proxy_row, 0)
        self.query_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.query_view.scrollTo(index)
        self._query_selected(index, QModelIndex())

    def _query_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        query_id = self.queries.query_id(self.query_proxy.mapToSource(current).row())
        if query_id != self.query_id or self.pool.rowCount() == 0:
            self._load_pool(query_id)

    def _load_pool(self, query_id: str | None) -> None:
        self.query_id = query_id
        if self.project is None or self.version is None or query_id is None:
            self.pool.clear()
            if query_id is None:
                text = translate(
                    "workspace", "No queries yet: import queries and judgments, or build a pool from runs."
                )
            else:
                text = translate(
                    "workspace", "No pool yet: import judgments (File ▸ Import judgments) or build one from runs"
                )
            self.topic.show_message(text)
            self._show_doc(None)
            return
        self.query_text = self.topic.show_topic(query_id, self.project.query(query_id))  # terms: title, description
        self.pool.load(
            self.project.pool_items(self.version.version, query_id),
            self.version.labels,
            self.version.scale.low,
            self._awaiting(query_id),
        )
        self.pool_view.resizeColumnToContents(0)
        first = self._first_ungraded_row() if not self.version.frozen else 0
        self.select_doc_row(first if first is not None else 0)

    def _first_ungraded_row(self, after: int = -1) -> int | None:
        """The next ungraded row after ``after`` in the order shown (tasks.annotating.next_ungraded)."""
        rows = []
        for row in range(self.pool_proxy.rowCount()):
            source = self.pool_proxy.mapToSource(self.pool_proxy.index(row, 0)).row()
            rows.append((self.pool.doc_id(source), self.pool.grade(source), self.pool.is_awaiting(source)))
        return next_ungraded(rows, after)

    def select_doc_row(self, proxy_row: int) -> None:
        if self.pool_proxy.rowCount() == 0:
            self._show_doc(None)
            return
        proxy_row = min(max(proxy_row, 0), self.pool_proxy.rowCount() - 1)
        index = self.pool_proxy.index(proxy_row, 0)
        self.pool_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.pool_view.scrollTo(index)
        self._doc_selected(index, QModelIndex())

    def current_doc(self) -> str | None:
        index = self.pool_view.currentIndex()
        if not index.isValid():
            return None
        return self.pool.doc_id(self.pool_proxy.mapToSource(index).row())

    def _doc_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self._show_doc(None)
            return
        self._show_doc(self.pool.doc_id(self.pool_proxy.mapToSource(current).row()))

    def _show_doc(self, doc_id: str | None) -> None:
        if doc_id is None or self.project is None:
            self.grade_bar.show_grade(None)
            self.document.clear()
            self.note_edit.clear()
            return
        row = self.pool.row_of(doc_id)
        self.grade_bar.show_grade(self.pool.grade(row))
        self.note_edit.setText(self.pool.note(row))
        self.document.show_document(self.project, doc_id, self.query_text, self.parents, self.chunks_of)

    # -- actions -------------------------------------------------------------------------
    def grade_key(self, digit: int) -> None:
        """A digit key: grade at once on a small scale; on a large one, start typing into the number box."""
        if self.grade_bar.uses_buttons or not self.grade_bar.isEnabled():
            self.grade_current(digit)
        else:
            self.grade_bar.start_typing(digit)

    def grade_current(self, grade: int) -> None:
        """Grade the current document and move to the next ungraded one (keyboard-first). What a key does is
        decided by tasks.annotating; this only asks, words and shows."""
        doc_id = self.current_doc()
        row = self.pool.row_of(doc_id) if doc_id is not None else -1
        refusal = self._rules().refusal(
            query_id=self.query_id, doc_id=doc_id, grade=grade, awaiting=row >= 0 and self.pool.is_awaiting(row)
        )
        if refusal is not None or doc_id is None or self.project is None or self.version is None:
            self.status.emit(self._worded(refusal) if refusal else "")
            return
        assert self.query_id is not None
        proxy_row = self.pool_view.currentIndex().row()
        old, who = self.pool.grade(row), self.pool.annotator(row)
        decision = self._rules().decide(grade=grade, old=old, who=who)
        if decision.kind == "same":
            self._advance(proxy_row)
            return
        if decision.kind == "confirm" and not self._confirm_regrade(doc_id, old, grade, who):  # type: ignore[arg-type]
            self.status.emit(
                translate("workspace", "Kept the grade {old} that {who} gave {doc_id}.").format(
                    old=old, who=who, doc_id=doc_id
                )
            )
            return
        command = SetGradeCommand(
            self.project,
            self.version.version,
            self.query_id,
            doc_id,
            grade,
            (old, who or None, self.pool.updated_at(row)),
            self._refresh_item,
            self._report_failure,
        )
        if not self._push(command):
            return  # stay on the document: its grade is still the stored one
        self._advance(proxy_row)
        if not self.grade_bar.uses_buttons:
            self.pool_view.setFocus()  # J/K and the next digit work again

    def _rules(self) -> GradingRules:
        version = self.version
        return GradingRules(
            scale=version.scale if version is not None else None,
            frozen=version is not None and version.frozen,
            read_only=self.project is None or self.project.read_only,
            user=self.project.user if self.project is not None else "",
            version=version.version if version is not None else None,
        )

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
            ).format(doc_id=doc_id, old=old, who=who, grade=grade),
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

    def _advance(self, proxy_row: int) -> None:
        nxt = self._first_ungraded_row(after=proxy_row if not self.pool_proxy.ungraded_only else proxy_row - 1)
        if nxt is None:
            # Never on to a graded row by itself: the next key would change a grade nobody meant to touch.
            nxt = min(proxy_row, self.pool_proxy.rowCount() - 1)
            self.status.emit(
                translate(
                    "workspace", "Every document of {query} is graded; N goes to the next query to grade."
                ).format(query=self.query_id)
            )
        self.select_doc_row(nxt)

    def save_note(self) -> None:
        if self.project is None or self.version is None or self.version.frozen or self.query_id is None:
            return
        doc_id = self.current_doc()
        if doc_id is None:
            return
        old = self.pool.note(self.pool.row_of(doc_id))
        note = self.note_edit.text().strip()
        if note != old:
            command = SetNoteCommand(
                self.project,
                self.version.version,
                self.query_id,
                doc_id,
                note,
                old,
                self._refresh_item,
                self._report_failure,
            )
            if not self._push(command):
                self.note_edit.setText(note)  # keep what was typed, to save again
                self.note_edit.setFocus()
                return
        self.pool_view.setFocus()

    def _refresh_item(self, query_id: str, doc_id: str) -> None:
        """After a command ran (or was undone): show its item. The values and counts already follow the project's
        events (:meth:`items_changed`)."""
        if self.project is None or self.version is None:
            return
        if query_id != self.query_id:
            row = self.queries.row_of(query_id)
            if row < 0:
                return  # the query left the pool meanwhile
            self.select_query_row(self.query_proxy.mapFromSource(self.queries.index(row, 0)).row())
        if doc_id == self.current_doc():
            self._show_doc(doc_id)
            return
        row = self.pool.row_of(doc_id)
        proxy = self.pool_proxy.mapFromSource(self.pool.index(row, 0)) if row >= 0 else None
        if proxy is not None and proxy.isValid():
            self.select_doc_row(proxy.row())

    def reload_query(self, query_id: str, doc_id: str | None = None) -> None:
        """After an item joined or left a query's pool: that query shown, ``doc_id`` (if still there) selected."""
        self._refresh_item(query_id, doc_id or "")

    def items_changed(self, queries: frozenset[str] | None) -> None:
        """Items of the shown version changed (here, by an undo, a task or another program; ``None``: any query):
        the queries' counts and the shown pool follow, and the selected document stays selected if it is there."""
        if self.project is None or self.version is None:
            return
        listed = queries is not None and len(queries) <= 64 and all(self.queries.row_of(q) >= 0 for q in queries)
        if not listed:  # many queries, or one that joined or left the list: read the list again
            self._load_queries(self.version.version, self.version.frozen, self.query_id, keep_doc=self.current_doc())
            return
        assert queries is not None
        for query_id in queries:
            if query_id == self.query_id:
                self._reload_pool()
            else:
                items = self.project.pool_items(self.version.version, query_id)
                counts = len(items), int(items["grade"].notna().sum()), len(self._awaiting(query_id))
                self.queries.update_counts(query_id, *counts)
        self._emit_progress()

    def _reload_pool(self) -> None:
        """Read the shown query's pool again: changed values in place, the selection kept where it can be."""
        assert self.project is not None and self.version is not None and self.query_id is not None
        items = self.project.pool_items(self.version.version, self.query_id)
        awaiting = self._awaiting(self.query_id)
        self.queries.update_counts(self.query_id, len(items), int(items["grade"].notna().sum()), len(awaiting))
        if sorted(items["doc_id"]) != sorted(self.pool.doc_ids()) or awaiting != self.pool.awaiting:
            keep, proxy_row = self.current_doc(), self.pool_view.currentIndex().row()
            self.pool.load(items, self.version.labels, self.version.scale.low, awaiting)
            row = self.pool.row_of(keep) if keep is not None else -1
            self.select_doc_row(self.pool_proxy.mapFromSource(self.pool.index(row, 0)).row() if row >= 0 else proxy_row)
            return
        for rec in items.itertuples(index=False):
            self.pool.set_values(
                rec.doc_id,
                grade=None if pd.isna(rec.grade) else int(rec.grade),
                annotator=rec.annotator,
                note=rec.note,
                updated_at=None if pd.isna(rec.updated_at) else str(rec.updated_at),
            )
        current = self.current_doc()
        if current is not None:
            self._show_doc(current)

    def _awaiting(self, query_id: str) -> frozenset[str]:
        assert self.project is not None and self.version is not None
        if self.version.frozen:
            return frozenset()
        return frozenset(self.project.awaiting_adjudication(self.version.version, query_id))

    def texts_changed(self, *, queries: bool) -> None:
        """Texts changed: the query list when titles or topics did (``queries``); the shown document always."""
        if self.project is None:
            return
        if queries:
            number = self.version.version if self.version is not None else -1
            frozen = self.version.frozen if self.version is not None else False
            self._load_queries(number, frozen, self.query_id, keep_doc=self.current_doc())
        else:
            self._show_doc(self.current_doc())

    def runs_changed(self) -> None:
        """A run was imported: its chunk map may make a shown ID a passage of a document."""
        if self.project is None:
            return
        self._read_chunk_parents(self.project)
        self._show_doc(self.current_doc())

    def move_doc(self, step: int) -> None:
        self.select_doc_row(self.pool_view.currentIndex().row() + step)

    def next_query_with_ungraded(self) -> None:
        if self.version is None or self.version.frozen:
            self.status.emit(self.locked_reason())
            return
        ungraded = [
            self.queries.ungraded(self.query_proxy.mapToSource(self.query_proxy.index(row, 0)).row())
            for row in range(self.query_proxy.rowCount())
        ]
        row = next_query_to_grade(ungraded, self.query_view.currentIndex().row())
        if row is not None:
            self.select_query_row(row)
            self.pool_view.setFocus()
            return
        awaiting = self.queries.awaiting_total()
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
        reason = self.locked_reason()
        if reason or self.current_doc() is None:
            self.status.emit(reason or translate("workspace", "No document is selected: there is no note to edit."))
            return
        self.note_edit.setFocus()
        self.note_edit.deselect()
        self.note_edit.end(False)  # typing adds to the note instead of replacing it

    def locked_reason(self) -> str:
        """Why nothing in the shown pool can change (status bar), or an empty string."""
        locked = self._rules().locked()
        return self._worded(locked) if locked is not None else ""

    def _emit_progress(self) -> None:
        if self.project is None or self.version is None:
            return
        self.progress_changed.emit(*self.queries.totals())

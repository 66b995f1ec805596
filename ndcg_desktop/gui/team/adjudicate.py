"""The Adjudicate view: the draft's items rated differently, most consequential first, settled by a pick or a rule.

Everything shown comes from :class:`~ndcg_desktop.sessions.team.AdjudicateSession`, which follows the
project's events (a pick, an undo, a merge, another program's write); the list is computed off the GUI thread when
the view is shown. Picks and rules are undoable commands that call the session's use cases, as ``ndcg adjudicate``
calls the same task functions.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut, QUndoCommand, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain.names import is_model
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.gui.annotate.grade_bar import GradeBar
from ndcg_desktop.gui.commands import WRITE_ERRORS, write_problem
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.gui.tasks import run_in_background
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.team import LIST, PROJECT, SELECTED, AdjudicateSession, KeyRefusal
from ndcg_desktop.tasks.adjudication import RULES, Disagreements, RuleApplied
from ndcg_desktop.tasks.project import Project, Taken

translate = QCoreApplication.translate

COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "nDCG swing"), "swing", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Ratings"), "ratings", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade"), "grade_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Settled by"), "how_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run_text", ""),
]
RULE_NAMES = {
    "median": QT_TRANSLATE_NOOP("team", "Median, rounded down"),
    "majority": QT_TRANSLATE_NOOP("team", "Majority (ties stay open)"),
    "lowest": QT_TRANSLATE_NOOP("team", "Lowest rating"),
    "highest": QT_TRANSLATE_NOOP("team", "Highest rating"),
}


def key_refusal_text(refusal: KeyRefusal) -> str:
    """Why a grade key did nothing (sessions.team), in the window's words; "" when the key is silently idle
    (nothing to adjudicate, or nothing selected: the list says so already)."""
    if refusal.kind == "off_scale":
        return translate("team", "{grade} is not a grade here: this draft's grades run from {low} to {high}.").format(
            grade=refusal.grade, low=refusal.low, high=refusal.high
        )
    if refusal.kind == "read_only":
        return translate("workspace", "The project is open read-only: grades cannot change.")
    return ""


class PickCommand(QUndoCommand):
    """The adjudicator's grade for one item; undo puts back exactly what the pick took (grade, author, time, how)."""

    def __init__(self, view: AdjudicateView, query_id: str, doc_id: str, grade: int) -> None:
        super().__init__(
            translate("team", "Adjudicate {doc_id} as {grade} for {query_id}").format(
                doc_id=doc_id, grade=view.grade_text(grade), query_id=query_id
            )
        )
        self.view, self.query_id, self.doc_id, self.grade = view, query_id, doc_id, grade
        self.taken: Taken | None = None

    def redo(self) -> None:
        session = self.view.session
        self.taken = self.view.write(lambda: session.pick(self.query_id, self.doc_id, self.grade), self)

    def undo(self) -> None:
        if self.taken is not None:
            taken: Taken = self.taken
            self.view.write(lambda: self.view.session.undo_pick(taken), self)


class ApplyRuleCommand(QUndoCommand):
    """A rule settles the open items; undo opens exactly those items again."""

    def __init__(self, view: AdjudicateView, rule: str) -> None:
        super().__init__(translate("team", "Adjudicate the open items by {rule}").format(rule=rule))
        self.view, self.rule = view, rule
        self.done: RuleApplied | None = None

    def redo(self) -> None:
        self.done = self.view.write(lambda: self.view.session.apply_rule(self.rule), self)

    def undo(self) -> None:
        if self.done is not None:
            applied = self.done
            self.view.write(lambda: self.view.session.undo_rule(applied), self)


class AdjudicateView(QWidget):
    """The differing items of the draft, a detail pane (ratings, notes, topic, document) and the grade bar."""

    error = Signal(str)
    status = Signal(str)  # why a key did nothing
    changed = Signal()  # something was settled (the session follows the project's events; tests wait on this)

    def __init__(
        self, undo_stack: QUndoStack, parent: QWidget | None = None, *, slot: ProjectSlot | None = None
    ) -> None:
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.session = AdjudicateSession()
        self._task: Any = None
        self._shown: Disagreements | None = None  # the list the table holds
        self.k = QSpinBox()
        self.k.setRange(1, 1000)
        self.k.setValue(self.session.k)
        self.k.setPrefix("K = ")
        self.k.setAccessibleName(translate("team", "Cutoff of the nDCG swing"))
        self.k.valueChanged.connect(self.session.set_k)
        self.rule = QComboBox()
        for key in RULES:
            self.rule.addItem(translate("team", RULE_NAMES[key]), key)
        self.rule.setAccessibleName(translate("team", "Adjudication rule"))
        self.apply_button = QPushButton(translate("team", "Apply to the open items"))
        self.apply_button.clicked.connect(self.apply_rule)
        self.summary = plain_label(wrap=True)
        top = QHBoxLayout()
        top.addWidget(QLabel(translate("team", "Ordered by the nDCG swing at")))
        top.addWidget(self.k)
        top.addStretch(1)
        top.addWidget(QLabel(translate("team", "Rule:")))
        top.addWidget(self.rule)
        top.addWidget(self.apply_button)
        self.model = FrameModel(COLUMNS, self)
        self.proxy = sorted_proxy(self.model, self)
        self.table = table_view(
            self.proxy,
            name=translate("team", "Items rated differently"),
            description=translate("team", "Largest possible change of a run's per-query nDCG first"),
        )
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._current_changed())
        self.detail = QTextBrowser()
        self.detail.setOpenLinks(False)
        self.detail.setAccessibleName(translate("team", "Ratings, notes, topic and document"))
        self.grade_bar = GradeBar()
        self.grade_bar.graded.connect(self.pick_selected)
        right = QWidget()
        side = QVBoxLayout(right)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.detail, 1)
        side.addWidget(plain_label(translate("team", "Adjudicated grade:")))
        side.addWidget(self.grade_bar)
        split = QSplitter()
        split.addWidget(self.table)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 400])
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        for digit in range(10):
            # The view's own keys: without them a digit went to the table's keyboard search, which jumped to the
            # first document whose ID starts with it.
            shortcut = QShortcut(QKeySequence(str(digit)), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda d=digit: self.grade_key(d))
        self.session.changed.connect(self._session_changed)
        if slot is not None:
            self.session.follow(slot)  # each project, and every change to it, from its events
        self._session_changed(frozenset({PROJECT, LIST, SELECTED}))

    @property
    def project(self) -> Project | None:
        return self.session.project

    @property
    def found(self) -> Disagreements | None:
        """The list shown (None while it is computed)."""
        return self.session.found

    def grade_key(self, digit: int) -> None:
        """A digit key: pick that grade for the selected item on a small scale; type into the number box on a
        large one. The session says why a key does nothing."""
        if self.grade_bar.isEnabled() and not self.grade_bar.uses_buttons:
            self.grade_bar.start_typing(digit)
            return
        refusal = self.session.key_refusal(digit)
        if refusal is None:
            self.pick_selected(digit)
        elif text := key_refusal_text(refusal):
            self.status.emit(text)

    # -- following the session ---------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Show ``project``'s draft (a window without a slot tells the view itself)."""
        self.session.set_project(project)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.session.stale:
            self.reload()

    def _session_changed(self, aspects: frozenset[str]) -> None:
        if LIST in aspects:
            if self.session.found is None:
                self._clear()
                if self.session.stale and (self.isVisible() or self.session.draft is None):
                    self.reload()  # a hidden view computes when it is next shown
            elif self.session.found is not self._shown:
                self._show_list()
        if SELECTED in aspects:
            self._show_selected()

    def reload(self) -> None:
        """Compute the list in the background (it scores every stored run around each item)."""
        if self._task is not None:
            self._task.cancel_event.set()
            self._task = None
        job = self.session.job()
        if job is None:
            self._clear()
            return
        if self.session.scale is not None:
            self.grade_bar.set_scale(self.session.scale, self.session.labels)
        self.summary.setText(translate("team", "Comparing ratings…"))

        def done(found: Disagreements) -> None:
            self._task = None
            self.session.apply(job, found)  # dropped if the project changed meanwhile

        self._task = run_in_background(lambda **_: job(), done, self.error.emit)

    def _clear(self) -> None:
        self._shown = None
        self.model.clear()
        self.detail.clear()  # what it showed may have changed: never shown beside the new list
        if self.session.draft is None:
            self.summary.setText(translate("team", "No draft pool: nothing to adjudicate."))
        self._enable()

    def _show_list(self) -> None:
        found = self.session.found
        assert found is not None
        self._shown = found
        items, labels, low = found.items, self.session.labels, self.session.scale.low if self.session.scale else 0
        frame = items.assign(
            grade_text=[
                translate("team", "open") if pd.isna(g) else grade_label(int(g), labels, low) for g in items["grade"]
            ],
            how_text=[
                "" if pd.isna(h) else translate("team", RULE_NAMES.get(str(h), "")) or translate("team", "pick")
                for h in items["how"]
            ],
            run_text=[r if isinstance(r, str) else "" for r in items["run"]],
        )
        self.model.load(frame)
        self.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # the largest swing first
        fit_columns(self.table, self.model)
        selected = self.session.selected
        row = self.session.row_of(*selected) if selected is not None else None
        if row is not None:  # the item selected before the list was computed again
            self.table.setCurrentIndex(self.proxy.mapFromSource(self.model.index(row, 0)))
        self.summary.setText(
            translate("team", "Draft v{version}: {count} items rated differently, {open} still open.").format(
                version=found.version, count=len(items), open=found.open
            )
        )
        self._show_selected()

    def _enable(self) -> None:
        writable = self.session.writable()
        self.apply_button.setEnabled(writable and self.session.open_count() > 0)
        self.grade_bar.setEnabled(writable and self.session.selected_item() is not None)

    def _current_changed(self) -> None:
        index = self.table.currentIndex()
        if self._shown is None or not index.isValid():
            return  # a list being replaced: the session keeps the selection
        row = self.proxy.mapToSource(index).row()
        items = self._shown.items
        self.session.select((str(items["query_id"].iloc[row]), str(items["doc_id"].iloc[row])))

    def grade_text(self, grade: int) -> str:
        """``grade`` with the draft's label, as the list and the detail pane show it."""
        return grade_label(grade, self.session.labels, self.session.scale.low if self.session.scale else 0)

    def _selected(self) -> pd.Series | None:
        return self.session.selected_item()

    def _show_selected(self) -> None:
        item = self._selected()
        self._enable()
        project = self.session.project
        if item is None or project is None:
            self.detail.clear()
            return
        q, d = str(item["query_id"]), str(item["doc_id"])
        labels, low = self.session.labels, self.session.scale.low if self.session.scale else 0
        topic = project.texts.query(q) or {"text": ""}
        doc = project.texts.document(d) or {"title": "", "text": ""}
        html = ["<h3>", _esc(f"{q} · {d}"), "</h3><ul>"]
        for r in self.session.ratings_of(q, d).itertuples():
            note = f" — {r.note}" if r.note else ""
            grade = grade_label(int(r.grade), labels, low)
            who = str(r.annotator)
            kind = f" ({_esc(translate('team', 'a language model'))})" if is_model(who) else ""  # not a person
            html.append(f"<li><b>{_esc(who)}</b>{kind}: {_esc(grade + note)}</li>")
        html += ["</ul><p><b>", _esc(translate("team", "Topic")), ":</b> ", _esc(topic["text"]), "</p>"]
        html += ["<p><b>", _esc(doc["title"]), "</b></p><p>", _esc(doc["text"][:20000]), "</p>"]
        self.detail.setHtml("".join(html))  # every piece of project data escaped: shown as text, never markup

    # -- settling --------------------------------------------------------------------------
    def pick_selected(self, grade: int) -> None:
        """Pick ``grade`` for the selected item, then move to the next open one (as a grade does in Annotate)."""
        item = self._selected()
        if item is None:
            return
        after = self.session.next_open()  # from the list as it is now: the pick drops it
        command = PickCommand(self, str(item["query_id"]), str(item["doc_id"]), grade)
        self.undo_stack.push(command)
        if command.taken is not None and after is not None:
            self.session.select(after)  # selected in the table once the list is computed again

    def apply_rule(self) -> None:
        self.undo_stack.push(ApplyRuleCommand(self, str(self.rule.currentData())))

    def write(self, change: Any, command: QUndoCommand | None) -> Any:
        """Run one use case of the session; a failure is reported and the command dropped. What it wrote reaches
        the session (and every view) through the project's events."""
        if self.session.project is None:
            return None
        try:
            result = change()
        except WRITE_ERRORS as exc:
            if command is not None:
                command.setObsolete(True)
            self.error.emit(write_problem(exc))
            result = None
        self.changed.emit()
        return result


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")

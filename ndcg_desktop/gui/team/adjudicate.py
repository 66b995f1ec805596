"""The Adjudicate view: the draft's items rated differently, most consequential first, settled by a pick or a rule.

The list and the swings come from ``tasks.adjudication`` (computed off the GUI thread); picks and rules are
undoable commands that call the same task functions as ``ndcg adjudicate``.
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
from ndcg_desktop.gui.annotate.grade_bar import GradeBar
from ndcg_desktop.gui.commands import WRITE_ERRORS, write_problem
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.gui.tasks import run_in_background
from ndcg_desktop.tasks.adjudication import (
    RULES,
    Disagreements,
    RuleApplied,
    apply_rule,
    disagreements,
    pick_taken,
    undo_rule,
)
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


class PickCommand(QUndoCommand):
    """The adjudicator's grade for one item; undo puts back exactly what the pick took (grade, author, time, how)."""

    def __init__(self, view: AdjudicateView, query_id: str, doc_id: str, grade: int) -> None:
        super().__init__(
            translate("team", "Adjudicate {doc_id} as {grade} for {query_id}").format(
                doc_id=doc_id, grade=grade, query_id=query_id
            )
        )
        self.view, self.query_id, self.doc_id, self.grade = view, query_id, doc_id, grade
        self.taken: Taken | None = None

    def redo(self) -> None:
        self.taken = self.view.write(lambda p: pick_taken(p, self.query_id, self.doc_id, self.grade), self)

    def undo(self) -> None:
        if self.taken is not None:
            taken = self.taken
            self.view.write(lambda p: p.undo(taken, action="undo adjudicate (pick)"), self)


class ApplyRuleCommand(QUndoCommand):
    """A rule settles the open items; undo opens exactly those items again."""

    def __init__(self, view: AdjudicateView, rule: str) -> None:
        super().__init__(translate("team", "Adjudicate the open items by {rule}").format(rule=rule))
        self.view, self.rule = view, rule
        self.done: RuleApplied | None = None

    def redo(self) -> None:
        self.done = self.view.write(lambda p: apply_rule(p, self.rule), self)

    def undo(self) -> None:
        if self.done is not None:
            applied = self.done
            self.view.write(lambda p: undo_rule(p, applied), self)


class AdjudicateView(QWidget):
    """The differing items of the draft, a detail pane (ratings, notes, topic, document) and the grade bar."""

    error = Signal(str)
    status = Signal(str)  # why a key did nothing
    changed = Signal()  # something was settled (the views follow the project's events; tests wait on this)

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.undo_stack = undo_stack
        self.project: Project | None = None
        self.found: Disagreements | None = None
        self._task: Any = None
        self._stale = True
        self.k = QSpinBox()
        self.k.setRange(1, 1000)
        self.k.setValue(10)
        self.k.setPrefix("K = ")
        self.k.setAccessibleName(translate("team", "Cutoff of the nDCG swing"))
        self.k.valueChanged.connect(lambda _v: self.reload())
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
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self._reselect: tuple[str, str] | None = None
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
        self.set_project(None)

    def grade_key(self, digit: int) -> None:
        """A digit key: pick that grade for the selected item on a small scale; type into the number box on a
        large one."""
        if not self.grade_bar.isEnabled():
            return
        if not self.grade_bar.uses_buttons:
            self.grade_bar.start_typing(digit)
        elif self.grade_bar.buttons.button(digit) is not None:  # a grade of the scale
            self.pick_selected(digit)
        else:
            grades = [self.grade_bar.buttons.id(b) for b in self.grade_bar.buttons.buttons()]
            self.status.emit(
                translate("team", "{grade} is not a grade here: this draft's grades run from {low} to {high}.").format(
                    grade=digit, low=min(grades), high=max(grades)
                )
            )

    # -- loading ---------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Show ``project``'s draft; the list is recomputed now if the view is visible, else when it is shown."""
        self.project = project
        self._stale = True
        if self.isVisible() or project is None:
            self.reload()

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._stale:
            self.reload()

    def reload(self) -> None:
        """Recompute the list in the background (it scores every stored run around each item)."""
        if self._task is not None:
            self._task.cancel_event.set()
        self._stale = False
        if self.found is not None:  # else a reload is under way: the item it will select again stays chosen
            item = self._selected()  # selected again once the list is back, if it is still on it
            self._reselect = None if item is None else (str(item["query_id"]), str(item["doc_id"]))
        self.found = None
        self.detail.clear()  # what it showed may have changed: never shown beside the new list
        draft = self.project.draft() if self.project is not None else None
        if self.project is None or draft is None:
            self.model.clear()
            self.summary.setText(translate("team", "No draft pool: nothing to adjudicate."))
            self._enable()
            return
        self.grade_bar.set_scale(draft.scale, draft.labels)
        self.summary.setText(translate("team", "Comparing ratings…"))
        project, k = self.project, self.k.value()
        self._task = run_in_background(lambda **_: disagreements(project, k=k), self._loaded, self.error.emit)

    def _loaded(self, found: Disagreements) -> None:
        self._task = None
        self.found = found
        items = found.items
        frame = items.assign(
            grade_text=[translate("team", "open") if pd.isna(g) else str(int(g)) for g in items["grade"]],
            how_text=[
                "" if pd.isna(h) else translate("team", RULE_NAMES.get(str(h), "")) or translate("team", "pick")
                for h in items["how"]
            ],
            run_text=[r if isinstance(r, str) else "" for r in items["run"]],
        )
        self.model.load(frame)
        self.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # the largest swing first
        fit_columns(self.table, self.model)
        if self._reselect is not None:
            q, d = self._reselect
            rows = items.index[(items["query_id"] == q) & (items["doc_id"] == d)]
            if len(rows):
                source = self.model.index(items.index.get_loc(rows[0]), 0)
                self.table.setCurrentIndex(self.proxy.mapFromSource(source))
        self._show_selected()  # from the new ratings, or cleared
        self.summary.setText(
            translate("team", "Draft v{version}: {count} items rated differently, {open} still open.").format(
                version=found.version, count=len(items), open=found.open
            )
        )
        self._enable()

    def _enable(self) -> None:
        writable = self.project is not None and not self.project.read_only
        has_open = self.found is not None and self.found.open > 0
        self.apply_button.setEnabled(writable and has_open)
        self.grade_bar.setEnabled(writable and self._selected() is not None)

    def _selected(self) -> pd.Series | None:
        index = self.table.currentIndex()
        if self.found is None or not index.isValid():
            return None
        row = self.proxy.mapToSource(index).row()
        return self.found.items.iloc[row] if row < len(self.found.items) else None

    def _show_selected(self) -> None:
        item = self._selected()
        self._enable()
        if item is None or self.project is None or self.found is None:
            self.detail.clear()
            return
        q, d = str(item["query_id"]), str(item["doc_id"])
        ratings = self.found.ratings[(self.found.ratings["query_id"] == q) & (self.found.ratings["doc_id"] == d)]
        topic = self.project.query(q) or {"text": ""}
        doc = self.project.document(d) or {"title": "", "text": ""}
        html = ["<h3>", _esc(f"{q} · {d}"), "</h3><ul>"]
        for r in ratings.itertuples():
            note = f" — {r.note}" if r.note else ""
            who = str(r.annotator)
            kind = f" ({_esc(translate('team', 'a language model'))})" if is_model(who) else ""  # not a person
            html.append(f"<li><b>{_esc(who)}</b>{kind}: {int(r.grade)}{_esc(note)}</li>")
        html += ["</ul><p><b>", _esc(translate("team", "Topic")), ":</b> ", _esc(topic["text"]), "</p>"]
        html += ["<p><b>", _esc(doc["title"]), "</b></p><p>", _esc(doc["text"][:20000]), "</p>"]
        self.detail.setHtml("".join(html))  # every piece of project data escaped: shown as text, never markup

    # -- settling --------------------------------------------------------------------------
    def pick_selected(self, grade: int) -> None:
        item = self._selected()
        if item is None:
            return
        self.undo_stack.push(PickCommand(self, str(item["query_id"]), str(item["doc_id"]), grade))

    def apply_rule(self) -> None:
        self.undo_stack.push(ApplyRuleCommand(self, str(self.rule.currentData())))

    def write(self, change: Any, command: QUndoCommand | None) -> Any:
        """Run one store change; a failure is reported and the command dropped. The list is recomputed."""
        if self.project is None:
            return None
        try:
            result = change(self.project)
        except WRITE_ERRORS as exc:
            if command is not None:
                command.setObsolete(True)
            self.error.emit(write_problem(exc))
            result = None
        self.changed.emit()  # the window refreshes every view, this one included
        return result


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")

"""*Pool ▸ Compare pool versions…*: two frozen versions side by side (issue 16), as ``ndcg diff-pools`` shows them.

Everything chosen and shown is :class:`~ndcg_desktop.sessions.pool_diff.PoolDiffSession`'s: the versions, K
and every policy the command line offers (from the one table of choices), and the diff. The session follows the
project's events (a version frozen, a run imported, a refusal); its job runs on a worker behind a cancellable
progress dialog, and the tables are formatted there too (:func:`~ndcg_desktop.gui.scores.tables.table_data`). The
widgets only show prepared cells: the queries that changed (selecting one narrows the items to it), the items
added, removed and regraded with who and when, and each run's mean under both versions with Kendall's tau between
the two orderings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QRegularExpression, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import bold_label, plain_label
from ndcg_desktop.gui.pools.menu import ProjectDialogs
from ndcg_desktop.gui.scores.tables import (
    Column,
    FrameModel,
    TableData,
    fit_columns,
    sorted_proxy,
    table_data,
    table_view,
)
from ndcg_desktop.gui.scores.text import choice_title, not_scored_text
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.sessions.pool_diff import DIFF_CHOICES, INPUTS, PROJECT, RESULT, PoolDiffSession
from ndcg_desktop.tasks.pool_diff import PoolDiff
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

SHORTCUT = "Ctrl+Shift+D"

QUERY_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Added"), "added", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Removed"), "removed", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Regraded"), "regraded", "int"),
]
ITEM_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Change"), "change_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade in v{a}"), "grade_a_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade in v{b}"), "grade_b_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Who"), "who", ""),
    (QT_TRANSLATE_NOOP("analysis", "When (UTC)"), "when", ""),
    (QT_TRANSLATE_NOOP("analysis", "Iteration in v{a}"), "iteration_a_text", ""),  # the qrels' round, as read
    (QT_TRANSLATE_NOOP("analysis", "Iteration in v{b}"), "iteration_b_text", ""),
]
RUN_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run", ""),
    (QT_TRANSLATE_NOOP("analysis", "Mean nDCG, v{a}"), "mean_a", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Mean nDCG, v{b}"), "mean_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Difference"), "difference", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Rank in v{a}"), "rank_a", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Rank in v{b}"), "rank_b", "int"),
]
CHANGES = {
    "added": QT_TRANSLATE_NOOP("analysis", "added"),
    "removed": QT_TRANSLATE_NOOP("analysis", "removed"),
    "regraded": QT_TRANSLATE_NOOP("analysis", "regraded"),
}
# Every choice `ndcg diff-pools` has, as the session offers it from the one table of choices: the EvalSettings
# field, its title and each value in the window's words, the default first (the refusing one for unjudged documents:
# nothing is guessed until the user chooses, rule 6).
POLICIES: list[tuple[str, str, list[tuple[str, str]]]] = [
    (choice.name, choice.label, PoolDiffSession.options(choice.name)) for choice in DIFF_CHOICES
]


@dataclass(frozen=True)
class PoolDiffTables:
    """A diff and its three tables, formatted on the worker that computed it."""

    diff: PoolDiff
    queries: TableData
    items: TableData
    runs: TableData


def diff_tables(diff: PoolDiff) -> PoolDiffTables:
    """Format ``diff`` for the dialog's tables (any thread: no Qt object is touched; change names translated)."""
    items = diff.changes.copy()
    items["change_text"] = [translate("analysis", CHANGES[c]) for c in items["change"]]
    for column in ("grade_a", "grade_b"):  # labelled as every grade in the window; "—": not in that version
        items[f"{column}_text"] = diff.grade_texts(column)
    for column in ("iteration_a", "iteration_b"):  # "—": not in that version, as its grade
        items[f"{column}_text"] = items[column].astype(object).where(items[column].notna(), "—").astype(str)
    items["who"] = items["who"].fillna("")
    items["when"] = items["at"].fillna("").astype(str).str.replace("T", " ").str.replace("+00:00", "")
    runs = diff.means.astype({"rank_a": "float64", "rank_b": "float64"})
    return PoolDiffTables(
        diff, table_data(QUERY_COLUMNS, diff.per_query), table_data(ITEM_COLUMNS, items), table_data(RUN_COLUMNS, runs)
    )


class PoolDiffDialog(QDialog):
    """Choose two frozen versions (A before B), K and every policy; *Compare* shows what changed."""

    def __init__(self, project: Project, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        super().__init__(parent)
        self.session = PoolDiffSession()
        self.session.set_project(project)
        self._slot = slot
        if slot is not None:
            slot.subscribe(self.session.project_event)  # a version frozen, a run imported, a refusal: followed
        self.tables: PoolDiffTables | None = None
        self.setWindowTitle(translate("analysis", "Compare pool versions"))
        self.version_a, self.version_b = QComboBox(), QComboBox()
        self.version_a.setAccessibleName(translate("analysis", "Earlier version"))
        self.version_b.setAccessibleName(translate("analysis", "Later version"))
        self.k = QSpinBox(minimum=1, maximum=10_000, value=self.session.k)
        self.k.setAccessibleName(translate("analysis", "Cutoff K"))
        self.policies: dict[str, QComboBox] = {}
        for name, _caption, options in POLICIES:
            box = self.policies[name] = QComboBox()
            for value, text in options:
                box.addItem(translate("analysis", text), value)
        self.unjudged = self.policies["unjudged"]
        self.unjudged.setAccessibleName(choice_title("unjudged"))
        self.policies["duplicates"].setAccessibleName(choice_title("duplicates"))
        self.shared = QCheckBox(translate("analysis", "Means over the &queries both judge"))
        self.shared.setToolTip(
            translate("analysis", "Each run's means over the queries both versions judge, new topics left out")
        )
        self.compare_button = QPushButton(translate("analysis", "&Compare"))
        self.compare_button.setDefault(True)
        self.compare_button.clicked.connect(self.compare)
        choices = QHBoxLayout()
        for label, widget in (
            (translate("analysis", "&From"), self.version_a),
            (translate("analysis", "&to"), self.version_b),
            (translate("analysis", "at &K"), self.k),
        ):
            caption = QLabel(label)
            caption.setBuddy(widget)
            choices.addWidget(caption)
            choices.addWidget(widget)
        choices.addWidget(self.shared)
        choices.addStretch(1)
        choices.addWidget(self.compare_button)
        policies = QGridLayout()  # three rows of two: every choice whole within 1100 px, in either language
        for i, (name, caption_text, _options) in enumerate(POLICIES):
            caption = QLabel(translate("analysis", caption_text))
            caption.setBuddy(self.policies[name])
            policies.addWidget(caption, i // 2, 3 * (i % 2), Qt.AlignmentFlag.AlignRight)
            policies.addWidget(self.policies[name], i // 2, 3 * (i % 2) + 1)
        policies.setColumnStretch(2, 1)  # the gap between the two columns takes what is left

        self.summary = plain_label(wrap=True)
        self.summary.setAccessibleName(translate("analysis", "Summary of the changes"))
        self.queries_model = FrameModel(QUERY_COLUMNS, self)
        self.items_model = FrameModel(ITEM_COLUMNS, self)
        self.runs_model = FrameModel(RUN_COLUMNS, self)
        self.items_filter = sorted_proxy(self.items_model, self)
        self.items_filter.setFilterKeyColumn(0)  # the query
        self.queries_view = self._view(self.queries_model, translate("analysis", "Queries that changed"))
        self.items_view = table_view(
            self.items_filter,
            name=translate("analysis", "Items added, removed and regraded"),
            description=translate("analysis", "Select a query on the left to see only its items"),
        )
        self.runs_view = self._view(self.runs_model, translate("analysis", "Each run's mean under both versions"))
        self.runs_view.horizontalHeader().setStretchLastSection(False)  # numbers stay beside their headers
        self.queries_view.selectionModel().currentRowChanged.connect(lambda current, _old: self._narrow(current))
        self.tau = plain_label(wrap=True)
        self.tau.setAccessibleName(translate("analysis", "Kendall's tau between the two orderings"))
        self.refused = plain_label(wrap=True)
        self.refused.setAccessibleName(translate("analysis", "Runs that could not be scored"))
        self.settings_line = plain_label(wrap=True)
        self.settings_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The widgets forward each choice to the session; what it says then is rendered (_changed).
        self.version_a.currentIndexChanged.connect(lambda _i: self._versions_chosen())
        self.version_b.currentIndexChanged.connect(lambda _i: self._versions_chosen())
        for name, box in self.policies.items():
            box.currentIndexChanged.connect(lambda _i, n=name, b=box: self.session.choose(n, str(b.currentData())))
        self.k.valueChanged.connect(self.session.set_k)
        self.shared.toggled.connect(self.session.set_shared_queries)
        self.session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, INPUTS, RESULT}))

        changes = QSplitter(Qt.Orientation.Horizontal)
        changes.addWidget(self._pane(translate("analysis", "Queries that changed"), self.queries_view))
        changes.addWidget(self._pane(translate("analysis", "Items (select a query to narrow)"), self.items_view))
        changes.setSizes([360, 620])  # the per-query counts whole, the items the rest
        runs = self._pane(translate("analysis", "Runs under both versions"), self.runs_view, self.tau, self.refused)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(changes)
        split.addWidget(runs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(choices)
        layout.addLayout(policies)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addWidget(self.settings_line)
        layout.addWidget(buttons)
        self.resize(1100, 660)

    @property
    def project(self) -> Project | None:
        return self.session.project

    def forget(self) -> None:
        """The dialog goes (another project): it no longer follows the slot."""
        if self._slot is not None:
            self._slot.unsubscribe(self.session.project_event)
            self._slot = None

    def _versions_chosen(self) -> None:
        self.session.set_versions(self.version_a.currentData(), self.version_b.currentData())

    def _changed(self, aspects: frozenset[str]) -> None:
        """Render the session: its versions and choices, and its diff or why there is none."""
        session = self.session
        if aspects & {PROJECT, INPUTS}:
            for box, chosen in ((self.version_a, session.a), (self.version_b, session.b)):
                box.blockSignals(True)
                box.clear()
                for v in session.frozen:
                    text = translate("analysis", "v{version} · frozen {when} by {who}").format(
                        version=v.version, when=(v.frozen_at or "")[:10], who=v.frozen_by or "?"
                    )
                    box.addItem(text, v.version)
                box.setCurrentIndex(box.findData(chosen))
                box.blockSignals(False)
            self.k.blockSignals(True)
            self.k.setValue(session.k)
            self.k.blockSignals(False)
            self.shared.blockSignals(True)
            self.shared.setChecked(session.shared_queries)
            self.shared.blockSignals(False)
            for name, box in self.policies.items():
                box.blockSignals(True)
                box.setCurrentIndex(box.findData(session.choices[name]))
                box.blockSignals(False)
            self.compare_button.setEnabled(session.ready())
        if aspects & {PROJECT, INPUTS, RESULT} and session.result is None:
            self._clear()

    def _clear(self) -> None:
        """No diff for the choices shown: a result shown is no longer theirs, so it goes; headers name the choice."""
        fields = {"a": str(self.session.a), "b": str(self.session.b)}
        for model in (self.queries_model, self.items_model, self.runs_model):
            model.header_fields = fields
            model.clear()
        self.tables = None
        if self.session.problem:
            self.summary.setText(self.session.problem)
        elif len(self.session.frozen) < 2:
            self.summary.setText(translate("analysis", "Compare needs two frozen pool versions."))
        else:
            self.summary.setText(translate("analysis", "Choose two versions and press Compare."))
        for label in (self.tau, self.refused, self.settings_line):
            label.clear()

    def _view(self, model: FrameModel, name: str) -> Any:
        return table_view(sorted_proxy(model, self), name=name)

    @staticmethod
    def _pane(title: str, *widgets: QWidget) -> QWidget:
        pane = QWidget()
        column = QVBoxLayout(pane)
        column.setContentsMargins(0, 4, 0, 0)
        column.addWidget(bold_label(title))
        for widget in widgets:
            column.addWidget(widget, 1 if widget is widgets[0] else 0)
        return pane

    def settings(self) -> EvalSettings:
        """The policies the session scores under (the choices shown)."""
        return self.session.settings()

    def compare(self) -> None:
        """Diff the chosen versions and score every run under both: the session's job, on a worker (cancellable)."""
        if not self.session.ready():
            return
        job = self.session.job()

        def work(progress: Any = None, cancelled: Any = None) -> PoolDiffTables:
            return diff_tables(job(progress=progress, cancelled=cancelled))

        def done(tables: PoolDiffTables) -> None:
            if self.session.apply(job, tables.diff):  # not for choices made since
                self.show_result(tables)

        run_with_progress(
            self,
            translate("analysis", "Comparing pool versions…"),
            work,
            done,
            lambda message: self._failed(job, message),
        )

    def _failed(self, job: Job, message: str) -> None:
        """The comparison was refused (a version changed on disk, say): no figure of an earlier one stays beside
        the refusal."""
        self.session.refused(job, message)

    def show_result(self, tables: PoolDiffTables) -> None:
        self.tables = tables
        diff = tables.diff
        s = diff.summary()
        fields = {"a": str(diff.a), "b": str(diff.b)}
        self.summary.setText(
            translate(
                "analysis",
                "v{a} → v{b}: {added} added, {removed} removed, {regraded} regraded, in {queries} queries "
                "(who and when: the audit log of v{b}).",
            ).format(
                a=diff.a,
                b=diff.b,
                added=s["added"],
                removed=s["removed"],
                regraded=s["regraded"],
                queries=s["queries_changed"],
            )
        )
        for model, data, view in (
            (self.queries_model, tables.queries, self.queries_view),
            (self.items_model, tables.items, self.items_view),
            (self.runs_model, tables.runs, self.runs_view),
        ):
            model.header_fields = fields
            view.model().sort(-1)  # prepared in the task's order (queries, then documents; runs as listed)
            model.show(data)
            fit_columns(view, model)
        self.items_filter.setFilterRegularExpression(QRegularExpression())
        if diff.tau is None:
            self.tau.setText(translate("analysis", "Kendall's tau needs at least two runs scored under both versions."))
        else:
            self.tau.setText(
                translate(
                    "analysis",
                    "Kendall's tau-b between the runs' orderings under v{a} and v{b}: {tau:.4f} (p = {p}); "
                    "1 is the same order, -1 the reverse.",
                ).format(a=diff.a, b=diff.b, tau=diff.tau, p="—" if diff.tau_p is None else f"{diff.tau_p:.3g}")
            )
        refused = [f"{name}: {not_scored_text(why)}" for name, why in diff.refused.items()]
        self.refused.setText(
            translate("analysis", "Not scored: {runs}").format(runs="; ".join(refused)) if refused else ""
        )
        self.refused.setToolTip("\n".join(f"{name}: {why.error.located()}" for name, why in diff.refused.items()))
        self.refused.setVisible(bool(refused))
        self.settings_line.setText(diff.settings.to_text(diff.k))

    def _narrow(self, current: Any) -> None:
        """Show only the items of the query selected on the left (all when none is)."""
        if not current.isValid():
            self.items_filter.setFilterRegularExpression(QRegularExpression())
            return
        query = str(current.sibling(current.row(), 0).data())
        pattern = QRegularExpression(f"^{QRegularExpression.escape(query)}$")
        self.items_filter.setFilterRegularExpression(pattern)


class PoolDiffAction(ProjectDialogs):
    """Installs *Pool ▸ Compare pool versions…* (Ctrl+Shift+D) in ``window``; one dialog per project."""

    def __init__(self, window: Any, pool_menu: Any) -> None:
        super().__init__(window)
        self.action = self.add(pool_menu, translate("analysis", "&Compare pool versions…"), self.open, SHORTCUT)

    @property
    def dialog(self) -> PoolDiffDialog | None:
        dialog: PoolDiffDialog | None = self.dialogs.get("diff")
        return dialog

    def open(self) -> PoolDiffDialog | None:
        dialog: PoolDiffDialog | None = self.open_dialog("diff", PoolDiffDialog)
        return dialog

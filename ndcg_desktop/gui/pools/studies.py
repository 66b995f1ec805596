"""*Pool ▸ Simulate pooling…* and *Pool ▸ Reusability…*: what a pool would cost, and whether it is reusable, on the
open project (its latest frozen version as the oracle, its stored runs as the runs; issue 34 items 3 and 4).

Everything shown is the sessions' (:mod:`ndcg_desktop.sessions.pool_studies`); the study runs on a worker
behind a cancellable progress dialog; the tables and charts only show its numbers.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCharts import QScatterSeries
from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.gui.charts import IDEAL_COLOUR, OTHER_COLOUR, RUN_COLOUR, _ChartView, _line
from ndcg_desktop.gui.file_dialogs import folder
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.pools.dialogs import ParameterFields
from ndcg_desktop.gui.pools.menu import ProjectDialogs
from ndcg_desktop.gui.scores.tables import Column, FrameModel, fit_columns, sorted_proxy, table_data, table_view
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.pool_studies import (
    NO_FROZEN_VERSION,
    NO_PROJECT,
    PROJECT,
    RESULT,
    TOO_FEW_RUNS,
    ReusabilitySession,
    SimulationSession,
    StudyRequest,
    parse_budgets,
)
from ndcg_desktop.tasks.pool_builds import STRATEGIES, Strategy
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

SIMULATION_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Strategy"), "strategy", ""),
    (QT_TRANSLATE_NOOP("analysis", "Budget"), "budget", ""),
    (QT_TRANSLATE_NOOP("analysis", "Judged"), "judged", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Relevant found"), "relevant_found", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Share"), "relevant_share", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "tau_b"), "tau_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "tau_ap"), "tau_ap", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Max rank change"), "max_rank_change", "int"),
]

REUSABILITY_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run", ""),
    (QT_TRANSLATE_NOOP("analysis", "Group"), "group", ""),
    (QT_TRANSLATE_NOOP("analysis", "Mean (full pool)"), "mean_full", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Mean (without own)"), "mean_without_own", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Rank (full)"), "rank_full", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Rank (without own)"), "rank_without_own", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Unique relevant"), "unique_relevant", "int"),
]

UNAVAILABLE = {
    NO_PROJECT: QT_TRANSLATE_NOOP("analysis", "Open a project first."),
    NO_FROZEN_VERSION: QT_TRANSLATE_NOOP(
        "analysis", "The project has no frozen version to serve as the oracle: freeze a pool first."
    ),
    TOO_FEW_RUNS: QT_TRANSLATE_NOOP("analysis", "A pooling study needs at least two stored runs: import runs first."),
}

LINE_COLOURS = (RUN_COLOUR, IDEAL_COLOUR, OTHER_COLOUR, QColor("#8e44ad"), QColor("#c0392b"), QColor("#16a085"))


class SimulationChart(_ChartView):
    """Relevant found (left axis) and tau_b (right axis) against documents judged, one pair of lines a strategy."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("analysis", "Relevant found (solid) and tau_b (dashed) against judgments"),
            translate("analysis", "Pooling simulation chart"),
            translate(
                "analysis",
                "Line chart per strategy: relevant documents found (solid, left axis) and Kendall's tau_b of the "
                "runs' order (dashed, right axis) at each budget's number of judgments.",
            ),
            parent,
        )
        self.x_axis = self._axis(translate("analysis", "judgments"), 0, 1, Qt.AlignmentFlag.AlignBottom)
        self.x_axis.setLabelFormat("%d")
        self.y_axis = self._axis(translate("analysis", "relevant found"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        self.y_axis.setLabelFormat("%d")
        self.tau_axis = self._axis(translate("analysis", "tau_b"), -1, 1, Qt.AlignmentFlag.AlignRight)
        self.found: dict[str, Any] = {}
        self.tau: dict[str, Any] = {}

    def show_rows(self, rows: list[dict[str, Any]]) -> None:
        """``rows``: the simulation's rows (strategy, judged, relevant_found, tau_b), in budget order per strategy."""
        chart = self.chart()
        for series in [*self.found.values(), *self.tau.values()]:
            chart.removeSeries(series)
        self.found, self.tau = {}, {}
        strategies = list(dict.fromkeys(str(r["strategy"]) for r in rows))
        for i, name in enumerate(strategies):
            colour = LINE_COLOURS[i % len(LINE_COLOURS)]
            mine = sorted((r for r in rows if r["strategy"] == name), key=lambda r: r["judged"])
            found = _line(html.escape(name), colour)
            tau = _line(
                translate("analysis", "{strategy} tau_b").format(strategy=html.escape(name)),
                colour,
                dashed=True,
            )
            found.replace([QPointF(float(r["judged"]), float(r["relevant_found"])) for r in mine])
            tau.replace([QPointF(float(r["judged"]), float(r["tau_b"])) for r in mine if r["tau_b"] == r["tau_b"]])
            for series, axis in ((found, self.y_axis), (tau, self.tau_axis)):
                chart.addSeries(series)
                series.attachAxis(self.x_axis)
                series.attachAxis(axis)
            for marker in chart.legend().markers(tau):  # the legend names each strategy once; dashed is tau_b
                marker.setVisible(False)
            self.found[name], self.tau[name] = found, tau
        top_x = max([1, *(int(r["judged"]) for r in rows)])
        top_y = max([1, *(int(r["relevant_found"]) for r in rows)])
        self.x_axis.setRange(0, top_x)
        self.x_axis.applyNiceNumbers()
        self.y_axis.setRange(0, top_y)
        self.y_axis.applyNiceNumbers()
        self.tau_axis.setRange(-1, 1)
        self._describe(
            translate("analysis", "{count} strategies at {budgets} budgets.").format(
                count=len(strategies), budgets=len(rows) // max(len(strategies), 1)
            )
            if rows
            else ""
        )


class ReusabilityChart(_ChartView):
    """Each run's mean nDCG@K against the full pool (across) and without its own documents (up)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("analysis", "Mean with and without the run's own documents"),
            translate("analysis", "Reusability chart"),
            translate(
                "analysis",
                "One point per run: its mean nDCG against the full pool across, against the pool without the "
                "documents only its group contributed up. Points below the diagonal lost by being left out.",
            ),
            parent,
        )
        self.points = QScatterSeries()
        self.points.setName(translate("analysis", "runs"))
        self.points.setMarkerSize(9)
        self.points.setColor(RUN_COLOUR)
        self.diagonal = _line(translate("analysis", "equal"), QColor("#888888"), 1, dashed=True)
        self.diagonal.setPointsVisible(False)
        self.chart().addSeries(self.diagonal)
        self.chart().addSeries(self.points)
        self.x_axis = self._axis(translate("analysis", "mean (full pool)"), 0, 1, Qt.AlignmentFlag.AlignBottom)
        self.y_axis = self._axis(translate("analysis", "mean (without own)"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        for series in (self.diagonal, self.points):
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)

    def show_runs(self, pairs: list[tuple[float, float]]) -> None:
        self.points.replace([QPointF(x, y) for x, y in pairs])
        top = max([0.05, *(v for pair in pairs for v in pair)]) * 1.08
        top = min(top, 1.0) if top <= 1.0 else top
        for axis in (self.x_axis, self.y_axis):
            axis.setRange(0, top)
            axis.applyNiceNumbers()
        end = max(self.x_axis.max(), self.y_axis.max())
        self.diagonal.replace([QPointF(0, 0), QPointF(end, end)])
        self._describe(translate("analysis", "{count} runs.").format(count=len(pairs)) if pairs else "")


class _StudyDialog(QDialog):
    """Runs, depth, K, what the study adds, a Run button; the summary, chart and table below."""

    columns: list[Column]
    title = ""

    def __init__(self, session: Any, parent: QWidget | None, slot: ProjectSlot | None) -> None:
        super().__init__(parent)
        self.session = session
        self._slot = slot
        if slot is not None:
            slot.subscribe(self.session.project_event)
        self.runs = QListWidget()
        self.runs.setAccessibleName(translate("analysis", "Runs"))
        self.runs.setMaximumHeight(76)
        self.pool_depth = QSpinBox(minimum=1, maximum=10_000, value=100)
        self.pool_depth.setAccessibleName(translate("analysis", "Pool depth"))
        self.cutoff = QSpinBox(minimum=1, maximum=10_000, value=DEFAULT_K)
        self.cutoff.setAccessibleName(translate("analysis", "K"))
        self.form = QFormLayout()
        self.form.addRow(translate("analysis", "Runs"), self.runs)
        depth_row = QHBoxLayout()
        depth_row.addWidget(self.pool_depth)
        depth_row.addWidget(plain_label(translate("analysis", "nDCG@")))
        depth_row.addWidget(self.cutoff)
        depth_row.addStretch(1)
        self.form.addRow(translate("analysis", "Pool depth"), depth_row)
        self.run_button = QPushButton(translate("analysis", "&Run"))
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.compute)
        self.summary = plain_label(wrap=True)
        self.summary.setAccessibleName(translate("analysis", "Summary"))
        self.model = FrameModel(self.columns, self)
        self.table = table_view(sorted_proxy(self.model, self), name=translate("analysis", "Study results"))
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # stable: budgets stay in order within a strategy
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        self.setWindowTitle(translate("analysis", self.title))

    def _lay_out(self, chart: QWidget, height: int) -> None:
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(chart, 3)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.buttons)
        self.resize(840, height)
        self.session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, RESULT}))

    def forget(self) -> None:
        if self._slot is not None:
            self._slot.unsubscribe(self.session.project_event)
            self._slot = None

    def request(self) -> StudyRequest:
        names = [
            self.runs.item(i).text()
            for i in range(self.runs.count())
            if self.runs.item(i).checkState() == Qt.CheckState.Checked
        ]
        return StudyRequest(tuple(names), self.pool_depth.value(), self.cutoff.value())

    def make_job(self) -> Any:
        """The session's job for the fields (each study defines it)."""
        raise NotImplementedError

    def show_result(self, result: Any) -> None:
        """Show ``result`` (None: nothing) in the table and the chart (each study defines it)."""
        raise NotImplementedError

    def compute(self) -> None:
        try:
            job = self.make_job()
        except InputError as exc:
            self.summary.setText(exc.located())
            return
        run_with_progress(
            self,
            translate("analysis", "Running the study…"),
            lambda progress=None, cancelled=None: job(progress=progress, cancelled=cancelled),
            lambda result: None if self.session.apply(job, result) else None,
            lambda message: self.session.refused(job, message),
        )

    def _changed(self, aspects: frozenset[str]) -> None:
        if PROJECT in aspects:
            self.runs.clear()
            for name in self.session.run_names():
                item = QListWidgetItem(name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                self.runs.addItem(item)
        unavailable = self.session.unavailable()
        self.run_button.setEnabled(not unavailable)
        result = self.session.result
        if result is None:
            self.model.clear()
            self.show_result(None)
            self.summary.setText(
                self.session.problem
                or (translate("analysis", UNAVAILABLE[unavailable]) if unavailable else "")
                or translate("analysis", "Choose the runs and press Run.")
            )
            return
        self.show_result(result)


class SimulationDialog(_StudyDialog):
    """Strategies at budgets on the latest frozen version: the table per strategy and budget, and the chart."""

    columns = SIMULATION_COLUMNS
    title = QT_TRANSLATE_NOOP("analysis", "Simulate pooling")

    def __init__(self, project: Project, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        session = SimulationSession()
        session.set_project(project)
        super().__init__(session, parent, slot)
        self.strategy_boxes: dict[str, QCheckBox] = {}
        self.parameter_fields: dict[str, ParameterFields] = {}
        strategies = QVBoxLayout()
        for spec in STRATEGIES:
            box = QCheckBox(translate("pooling", spec.label))
            box.setToolTip(spec.description)
            box.setChecked(True)
            fields = ParameterFields(spec, lambda: None)
            line = QHBoxLayout()
            line.addWidget(box)
            line.addWidget(fields, 1)
            strategies.addLayout(line)
            self.strategy_boxes[spec.name] = box
            self.parameter_fields[spec.name] = fields
        self.form.addRow(translate("analysis", "Strategies"), strategies)
        self.budgets = QLineEdit("10%, 20%, 30%")
        self.budgets.setAccessibleName(translate("analysis", "Budgets"))
        self.budgets.setToolTip(
            translate(
                "analysis",
                "Comma-separated: documents per query (20), a share of each query's depth pool (10%), or a total "
                "(total:500).",
            )
        )
        self.form.addRow(translate("analysis", "Budgets"), self.budgets)
        self.export_button = self.buttons.addButton(
            translate("analysis", "&Export…"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.export_button.clicked.connect(self.export)
        self.chart = SimulationChart(self)
        self._lay_out(self.chart, 900)

    def strategies(self) -> list[Strategy]:
        return [
            Strategy.of(name, **self.parameter_fields[name].values())
            for name, box in self.strategy_boxes.items()
            if box.isChecked()
        ]

    def make_job(self) -> Any:
        return self.session.job(self.request(), self.strategies(), parse_budgets(self.budgets.text()))

    def show_result(self, result: Any) -> None:
        self.export_button.setEnabled(result is not None)
        if result is None:
            self.chart.show_rows([])
            return
        self.model.show(table_data(self.columns, result.rows))
        fit_columns(self.table, self.model)
        self.chart.show_rows(result.rows.to_dict("records"))
        self.summary.setText(
            translate(
                "analysis",
                "Oracle: frozen version v{version}. The depth pool holds {documents} documents, {relevant} relevant.",
            ).format(
                version=result.manifest["oracle"]["pool_version"],
                documents=result.pool_documents,
                relevant=result.pool_relevant,
            )
        )

    def export(self, target: str | None = None) -> None:
        chosen = target or folder(self, translate("analysis", "Export the simulation into a folder"))
        if not chosen:
            return
        try:
            written = self.session.export(chosen)
        except InputError as exc:
            self.summary.setText(exc.located())
            return
        self.summary.setText(
            translate("analysis", "Wrote {count} files into {folder}.").format(count=len(written), folder=chosen)
        )


class ReusabilityDialog(_StudyDialog):
    """Each run (or group) left out of the latest frozen version's pool: the table per run, and the chart."""

    columns = REUSABILITY_COLUMNS
    title = QT_TRANSLATE_NOOP("analysis", "Reusability")

    def __init__(self, project: Project, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        session = ReusabilitySession()
        session.set_project(project)
        super().__init__(session, parent, slot)
        self.group_by = QLineEdit()
        self.group_by.setAccessibleName(translate("analysis", "Group runs by"))
        self.group_by.setPlaceholderText(translate("analysis", "each run its own group"))
        self.group_by.setToolTip(
            translate(
                "analysis",
                "A regular expression searched in each run's name: runs with the same match (its first group if "
                "it has one) are one team, left out together.",
            )
        )
        self.form.addRow(translate("analysis", "Group by (regex)"), self.group_by)
        self.chart = ReusabilityChart(self)
        self._lay_out(self.chart, 760)

    def make_job(self) -> Any:
        return self.session.job(self.request(), self.group_by.text())

    def show_result(self, result: Any) -> None:
        if result is None:
            self.chart.show_runs([])
            return
        self.model.show(table_data(self.columns, result.runs))
        fit_columns(self.table, self.model)
        pairs = [
            (float(a), float(b))
            for a, b in zip(result.runs["mean_full"], result.runs["mean_without_own"], strict=True)
            if a is not None and b is not None and a == a and b == b
        ]
        self.chart.show_runs(pairs)
        tau = "—" if result.tau_b is None or result.tau_b != result.tau_b else f"{result.tau_b:.4f}"
        self.summary.setText(
            translate("analysis", "Oracle: frozen version v{version}. tau_b over all runs: {tau}.").format(
                version=result.manifest["oracle"]["pool_version"], tau=tau
            )
        )


class StudiesAction(ProjectDialogs):
    """Installs *Pool ▸ Simulate pooling…* and *Pool ▸ Reusability…* in ``window``."""

    def __init__(self, window: Any, pool_menu: Any) -> None:
        super().__init__(window)
        self.simulate_action = self.add(pool_menu, translate("analysis", "&Simulate pooling…"), self.open_simulation)
        self.reusability_action = self.add(pool_menu, translate("analysis", "Re&usability…"), self.open_reusability)

    def open_simulation(self) -> SimulationDialog | None:
        dialog: SimulationDialog | None = self.open_dialog("simulation", SimulationDialog)
        return dialog

    def open_reusability(self) -> ReusabilityDialog | None:
        dialog: ReusabilityDialog | None = self.open_dialog("reusability", ReusabilityDialog)
        return dialog

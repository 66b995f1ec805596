"""*Pool ▸ Pool economics…*: relevant documents found against judgments made, for the draft being judged, beside
the strategy's expected curve (issue 34 item 5).

Everything shown is :class:`~ndcg_desktop.sessions.pool_economics.EconomicsSession`'s; the curves are computed on a
worker behind a cancellable progress dialog; the chart and the table only show them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.gui.charts import IDEAL_COLOUR, RUN_COLOUR, _ChartView, _line
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.pools.menu import ProjectDialogs
from ndcg_desktop.gui.scores.tables import Column, FrameModel, fit_columns, sorted_proxy, table_data, table_view
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.sessions.pool_economics import PROJECT, RESULT, EconomicsSession
from ndcg_desktop.tasks.pool_economics import ALL, Economics
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Judged"), "judged", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Relevant found"), "relevant", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Expected at as many"), "expected_relevant", "f2"),
    (QT_TRANSLATE_NOOP("analysis", "Budget"), "budget", "int"),
]


class EconomicsChart(_ChartView):
    """Relevant documents found (up) against judgments made (across): the draft's, and the strategy's expected."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("analysis", "Relevant found against judgments"),
            translate("analysis", "Pool economics chart"),
            translate(
                "analysis",
                "Line chart: relevant documents found after each judgment, for the draft and for the strategy "
                "simulated on the latest frozen version.",
            ),
            parent,
        )
        self.actual = _line(translate("analysis", "this draft"), RUN_COLOUR)
        self.expected = _line(translate("analysis", "expected (frozen version)"), IDEAL_COLOUR, dashed=True)
        for series in (self.actual, self.expected):
            series.setPointsVisible(False)
            self.chart().addSeries(series)
        self.x_axis = self._axis(translate("analysis", "judgments"), 0, 1, Qt.AlignmentFlag.AlignBottom)
        self.y_axis = self._axis(translate("analysis", "relevant found"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        for series in (self.actual, self.expected):
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)

    def show_curves(self, actual: list[tuple[int, int]], expected: list[tuple[int, int]]) -> None:
        self.actual.replace([QPointF(0, 0)] + [QPointF(float(x), float(y)) for x, y in actual])
        self.expected.replace([QPointF(0, 0)] + [QPointF(float(x), float(y)) for x, y in expected] if expected else [])
        self.expected.setVisible(bool(expected))
        xs = [x for x, _ in actual + expected] or [1]
        ys = [y for _, y in actual + expected] or [1]
        for axis, top in ((self.x_axis, max(xs)), (self.y_axis, max(ys) + 1)):
            axis.setLabelFormat("%d")  # whole judgments, whole documents
            axis.setRange(0, max(top, 1))
            axis.setTickCount(min(max(top, 1), 10) + 1)
            axis.applyNiceNumbers()
        found = actual[-1] if actual else (0, 0)
        self._describe(
            translate("analysis", "{relevant} relevant found in {judged} judgments.").format(
                relevant=found[1], judged=found[0]
            )
        )


class EconomicsDialog(QDialog):
    """The draft's curves, a query chooser (all queries first) and the per-query table."""

    def __init__(self, project: Project, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        super().__init__(parent)
        self.session = EconomicsSession()
        self.session.set_project(project)
        self._slot = slot
        if slot is not None:
            slot.subscribe(self.session.project_event)
        self.setWindowTitle(translate("analysis", "Pool economics"))
        self.query = QComboBox()
        self.query.setAccessibleName(translate("analysis", "Query shown"))
        self.query.currentIndexChanged.connect(lambda _i: self.session.show_query(str(self.query.currentData() or "")))
        self.compute_button = QPushButton(translate("analysis", "&Compute"))
        self.compute_button.setDefault(True)
        self.compute_button.clicked.connect(self.compute)
        self.chart = EconomicsChart(self)
        self.summary = plain_label(wrap=True)
        self.summary.setAccessibleName(translate("analysis", "Summary"))
        self.model = FrameModel(COLUMNS, self)
        self.table = table_view(sorted_proxy(self.model, self), name=translate("analysis", "Each query's judgments"))
        row = QHBoxLayout()
        caption = QLabel(translate("analysis", "&Query"))
        caption.setBuddy(self.query)
        row.addWidget(caption)
        row.addWidget(self.query, 1)
        row.addWidget(self.compute_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.chart, 3)
        layout.addWidget(self.table, 2)
        layout.addWidget(buttons)
        self.resize(760, 640)
        self.session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, RESULT}))

    def forget(self) -> None:
        if self._slot is not None:
            self._slot.unsubscribe(self.session.project_event)
            self._slot = None

    def compute(self) -> None:
        if self.session.draft() is None:
            return
        job: Job[Economics | None] = self.session.job()
        run_with_progress(
            self,
            translate("analysis", "Computing the pool's economics…"),
            lambda progress=None, cancelled=None: job(progress=progress, cancelled=cancelled),
            lambda result: None if self.session.apply(job, result) else None,
            lambda message: self.session.refused(job, message),
        )

    def _changed(self, aspects: frozenset[str]) -> None:
        session, result = self.session, self.session.result
        self.compute_button.setEnabled(session.draft() is not None)
        if RESULT in aspects:
            self.query.blockSignals(True)
            self.query.clear()
            self.query.addItem(translate("analysis", "All queries"), ALL)
            for q in result.build.queries if result is not None else []:
                self.query.addItem(q, q)
            self.query.setCurrentIndex(max(self.query.findData(session.query_id), 0))
            self.query.blockSignals(False)
            if result is None:
                self.model.clear()
            else:
                self.model.show(table_data(COLUMNS, result.per_query))
                fit_columns(self.table, self.model)
        if result is None:
            self.chart.show_curves([], [])
            if session.problem:
                self.summary.setText(session.problem)
            elif session.draft() is None:
                self.summary.setText(translate("analysis", "There is no draft pool being judged."))
            else:
                self.summary.setText(translate("analysis", "Press Compute to see the draft's relevant found so far."))
            return
        actual = result.curve(result.actual, session.query_id)
        expected = result.curve(result.expected, session.query_id)
        self.chart.show_curves(actual, expected)
        judged, found = actual[-1] if actual else (0, 0)
        text = translate(
            "analysis", "Draft v{version}, pooled by {strategy}: {found} relevant found in {judged} judgments."
        ).format(version=result.version, strategy=result.build.strategy, found=found, judged=judged)
        if result.oracle is None:
            text += " " + translate("analysis", "No frozen version yet: no expected curve.")
        elif not expected:
            text += " " + translate("analysis", "The frozen version did not judge this query: no expected curve.")
        else:
            text += " " + translate("analysis", "Expected: simulated on frozen version v{oracle}.").format(
                oracle=result.oracle
            )
        self.summary.setText(text)


class EconomicsAction(ProjectDialogs):
    """Installs *Pool ▸ Pool economics…* and *Pool ▸ Add next batches* in ``window``."""

    def __init__(self, window: Any, pool_menu: Any) -> None:
        super().__init__(window)
        self.action = self.add(pool_menu, translate("analysis", "Pool &economics…"), self.open)

    def open(self) -> EconomicsDialog | None:
        dialog: EconomicsDialog | None = self.open_dialog("economics", EconomicsDialog)
        return dialog

"""The comparison of two runs scored with the same settings: per-query differences, scatter, histograms."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QWidget

from ndcg_desktop.gui.charts import HistogramChart, ScatterChart
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import (
    FrameModel,
    fit_columns,
    load_sorted,
    select_query_row,
    sorted_proxy,
    table_view,
)
from ndcg_desktop.gui.scores.text import scored_against
from ndcg_desktop.sessions.scores import QUERY, RESULT, ScoresSession
from ndcg_desktop.tasks.explaining import ndcg_histogram

translate = QCoreApplication.translate

# {run} and {other} are run names, filled in once the two runs are known.
COMPARE_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of {run}"), "ndcg_a", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of {other}"), "ndcg_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "{other} − {run}"), "difference", "f4"),
]


class ComparisonPanel(QWidget):
    """Empty unless the session's result compares two runs."""

    export_requested = Signal()

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.label = plain_label(wrap=True)  # names both runs and the pool version: project data
        self.label.setAccessibleName(translate("analysis", "Comparison summary"))
        self.comparison = FrameModel(COMPARE_COLUMNS, self)
        self.comparison.header_fields = {"run": "", "other": ""}
        self.proxy = sorted_proxy(self.comparison, self)
        self.view = table_view(
            self.proxy,
            name=translate("analysis", "Comparison"),
            description=translate("analysis", "One row per query: the nDCG of both runs and their difference"),
        )
        self.scatter = ScatterChart()
        self.histogram = HistogramChart()
        self.export_button = QPushButton(translate("analysis", "Export comparison CSV…"))
        self.export_button.setAccessibleName(translate("analysis", "Export comparison CSV"))
        self.export_button.clicked.connect(self.export_requested)
        grid = QGridLayout(self)
        grid.addWidget(self.label, 0, 0, 1, 2)
        grid.addWidget(self.export_button, 0, 2, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.view, 1, 0)
        grid.addWidget(self.scatter, 1, 1)
        grid.addWidget(self.histogram, 1, 2)
        for column, stretch in enumerate((3, 2, 3)):
            grid.setColumnStretch(column, stretch)
        self.setMinimumHeight(280)
        session.changed.connect(self._changed)
        self.view.selectionModel().currentRowChanged.connect(self._row_selected)
        self._show()

    def _changed(self, aspects: frozenset[str]) -> None:
        if RESULT in aspects:
            self._show()
        if aspects & {RESULT, QUERY}:
            select_query_row(self.view, self.comparison, self.session.selected_query)

    def _row_selected(self, current: Any, _previous: Any) -> None:
        if current.isValid() and self.session.result is not None:
            row = self.proxy.mapToSource(current).row()
            self.session.select_query(self.comparison.value(row, "query_id"))  # the breakdown shows it

    def focus_order(self) -> list[QWidget]:
        return [self.export_button, self.view, self.scatter, self.histogram]

    def _show(self) -> None:
        result = self.session.result
        compared = result is not None and result.second is not None and result.comparison is not None
        self.export_button.setEnabled(compared)
        if not compared:
            self.label.clear()
            self.comparison.clear()
            self.histogram.show_histograms([])
            return
        assert result is not None and result.second is not None and result.comparison is not None
        table, counts = result.comparison, result.counts
        run, other = result.first.run_name, result.second.run_name
        self.comparison.header_fields = {"run": run, "other": other}
        load_sorted(self.view, self.comparison, table, "difference")
        self.scatter.show_comparison(table, run, other)
        self.histogram.show_histograms(
            [
                (run, ndcg_histogram(result.first)),
                (other, ndcg_histogram(result.second)),
            ]
        )
        fit_columns(self.view, self.comparison)
        mean = result.second.evaluation.summary["mean_ndcg"]
        self.label.setText(
            translate(
                "analysis",
                "{against} · {other}: {mean} (macro mean) · better on {wins} queries, equal on {ties}, "
                "worse on {losses} (of {total} counted in both means)",
            ).format(
                against=scored_against(run, result.first.version, result.first.residual),
                other=other,
                mean="—" if mean is None else f"{mean:.4f}",
                wins=counts["wins"],
                ties=counts["ties"],
                losses=counts["losses"],
                total=len(table),
            )
        )

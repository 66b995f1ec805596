"""One pair query by query (differences, wins/ties/losses), and a query's breakdown for both runs side by side."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QItemSelection, Qt
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.breakdown import BreakdownPanel
from ndcg_desktop.gui.scores.tables import Column, FrameModel, fit_columns, load_sorted, sorted_proxy, table_view
from ndcg_desktop.sessions.runs import PAIR, PROJECT, RunsSession

translate = QCoreApplication.translate

QUERY_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "nDCG {a}"), "ndcg_a", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "nDCG {b}"), "ndcg_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Difference b - a"), "difference", "f4"),
]


class PairPanel(QWidget):
    """The session's open pair: its queries (largest difference first) and the selected query for both runs."""

    def __init__(self, session: RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.summary = plain_label(translate("runs", "Click a pair in the significance tab to open it."), wrap=True)
        self.summary.setAccessibleName(translate("runs", "The pair compared"))
        self.queries = FrameModel(QUERY_COLUMNS, self)
        self.queries_proxy = sorted_proxy(self.queries, self)
        self.queries_view = table_view(
            self.queries_proxy,
            name=translate("runs", "The pair query by query"),
            description=translate(
                "runs", "Each query's nDCG under both runs and the difference; select one to see both"
            ),
        )
        self.queries_view.selectionModel().selectionChanged.connect(self._query_selected)
        self.left = BreakdownPanel(session)
        self.right = BreakdownPanel(session)
        both = QSplitter(Qt.Orientation.Horizontal)
        for panel in (self.left, self.right):
            panel.set_chart_shown(False)  # the tables need the width; the Scores view has the chart
            both.addWidget(panel)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.queries_view)
        split.addWidget(both)
        split.setSizes([330, 1100])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        session.changed.connect(self._changed)

    def focus_order(self) -> list[QWidget]:
        return [self.queries_view, *self.left.focus_order(), *self.right.focus_order()]

    def _changed(self, aspects: frozenset[str]) -> None:
        if not aspects & {PROJECT, PAIR}:
            return
        pair = self.session.pair
        if pair is None:
            self.queries.header_fields = {}  # no run's name stays in the headers
            self.queries.clear()
            self.summary.setText(translate("runs", "Click a pair in the significance tab to open it."))
            self.show_query("")
            return
        self.queries.header_fields = {"a": pair.a, "b": pair.b}
        load_sorted(self.queries_view, self.queries, pair.table, "difference", ascending=False)
        fit_columns(self.queries_view, self.queries)
        mean = float(pair.table["difference"].mean()) if len(pair.table) else float("nan")
        self.summary.setText(
            translate(
                "runs",
                "{b} against {a} at K={k}, over the {n} queries in both means: {wins} wins, {ties} ties, "
                "{losses} losses; mean difference {difference}. Select a query to see both runs' breakdowns.",
            ).format(
                a=pair.a,
                b=pair.b,
                k=pair.k,
                n=len(pair.table),
                difference=f"{mean:+.4f}",
                **pair.counts,
            )
        )
        if self.queries.rowCount():
            self.queries_view.selectRow(0)
        else:
            self.show_query("")

    def _query_selected(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = selected.indexes()
        if rows:
            self.show_query(self.queries.value(self.queries_proxy.mapToSource(rows[0]).row(), "query_id"))

    def show_query(self, query_id: str) -> None:
        """``query_id`` of the open pair: run a's breakdown on the left, run b's on the right."""
        pair, result = self.session.pair, self.session.result
        if pair is None or result is None or not query_id:
            self.left.show_scored(None, "")
            self.right.show_scored(None, "")
            return
        self.left.show_scored(result.scored[pair.a][pair.k], query_id)
        self.right.show_scored(result.scored[pair.b][pair.k], query_id)

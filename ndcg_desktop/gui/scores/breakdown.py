"""The selected query's breakdown: the run's top K beside the ideal ranking, the chart, the missed documents."""

from __future__ import annotations

import html
from dataclasses import dataclass

import pandas as pd
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QGridLayout, QLabel, QTextBrowser, QVBoxLayout, QWidget

from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.gui.annotate.highlight import highlighted_html
from ndcg_desktop.gui.charts import CumulativeChart
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import FrameModel, fit_columns, table_view
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.sessions.runs import RunsSession
from ndcg_desktop.sessions.scores import ScoresSession
from ndcg_desktop.tasks.explaining import explain_query
from ndcg_desktop.tasks.scoring import ScoredRun

translate = QCoreApplication.translate

POSITION_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Rank"), "rank", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade"), "grade_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Gain"), "gain", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Discount"), "discount", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Contribution"), "contribution", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Cumulative DCG"), "cumulative_dcg", "f4"),
]
MISSED_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade"), "grade_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Where the run placed it"), "where", ""),
]
IDEAL_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Rank"), "rank", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade"), "grade_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Gain"), "gain", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Cumulative IDCG"), "cumulative_idcg", "f4"),
]


def _bold(text: str) -> QLabel:
    label = plain_label(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


LARGE_RESULT = 50_000  # per-position rows (queries x K) above which a query's breakdown is made on a worker


@dataclass(frozen=True)
class QueryBreakdown:
    """One query's breakdown, ready to show: the top K, the ideal ranking, the missed documents, the sentence."""

    positions: pd.DataFrame
    ideal: pd.DataFrame
    missed: pd.DataFrame
    explain: str
    k: int


def query_breakdown(first: ScoredRun, query_id: str) -> QueryBreakdown:
    """The breakdown of ``query_id`` in a scored run, on any thread (no Qt object is touched; translate is safe)."""
    version = first.version
    explained = explain_query(first, query_id)
    positions, ideal, missed = explained.positions, explained.ideal.copy(), explained.missed.copy()
    labels, low = version.labels, version.scale.low
    unjudged = translate("analysis", "unjudged")
    positions["grade_text"] = [
        grade_label(int(g), labels, low) if judged else unjudged
        for g, judged in zip(positions["grade"].fillna(0), positions["judged"], strict=True)
    ]
    ideal["grade_text"] = [grade_label(int(g), labels, low) for g in ideal["grade"]]
    missed["grade_text"] = [grade_label(int(g), labels, low) for g in missed["grade"]]
    not_returned, position = translate("analysis", "not returned"), translate("analysis", "position {position}")
    missed["where"] = [not_returned if pd.isna(p) else position.format(position=p) for p in missed["position"]]
    explain = translate(
        "analysis",
        "{run}, query {query}: nDCG {ndcg} against the whole frozen pool v{version} (sha256 {hash}…); "
        "candidate-only "
        "{candidate} (ideal taken from the returned documents only: it measures ordering among "
        "what was returned, and ignores what was missed).",
    ).format(
        run=first.run_name,
        query=query_id,
        version=version.version,
        hash=(version.hash or "")[:12],
        ndcg=f"{explained.ndcg:.4f}",
        candidate=f"{explained.candidate_ndcg:.4f}",
    )
    if first.residual is not None:  # rule 21: the pool is what the earlier version left of it
        explain += " " + translate(
            "analysis", "Residual: the documents judged in v{version} are removed from the pool and the ranking."
        ).format(version=first.residual.from_version)
    if explained.tie_at_k:
        tie = translate("analysis", "Tie at K: the tie-averaged nDCG is {ndcg}.")
        explain += " " + tie.format(ndcg=f"{explained.tie_averaged_ndcg:.4f}")
    return QueryBreakdown(positions, ideal, missed, explain, explained.k)


class BreakdownPanel(QWidget):
    """Shows one query of the session's result; empty without a result."""

    def __init__(self, session: ScoresSession | RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.explain = plain_label(wrap=True)
        self.explain.setAccessibleName(translate("analysis", "Breakdown of the selected query"))
        self.positions = FrameModel(POSITION_COLUMNS, self)
        self.ideal = FrameModel(IDEAL_COLUMNS, self)
        self.missed = FrameModel(MISSED_COLUMNS, self)
        self.positions_view = table_view(
            self.positions,
            sortable=False,
            name=translate("analysis", "The run's top K"),
            description=translate(
                "analysis", "The selected query's top K: each document's grade, gain, discount and contribution"
            ),
        )
        self.ideal_view = table_view(
            self.ideal,
            sortable=False,
            name=translate("analysis", "The ideal ranking"),
            description=translate("analysis", "The best possible top K from the frozen pool, which gives the IDCG"),
        )
        self.missed_view = table_view(
            self.missed,
            sortable=False,
            name=translate("analysis", "Missed relevant documents"),
            description=translate(
                "analysis", "Relevant documents not in the run's top K, and where the run placed them"
            ),
        )
        self.missed_label = _bold(translate("analysis", "Relevant documents missed in the top K"))
        self.missed_label.setBuddy(self.missed_view)
        self.chart = CumulativeChart()
        self._request = 0  # the latest query asked for: a slower worker's older breakdown is dropped
        self._shown: ScoredRun | None = None  # the scored run whose query is asked for
        self._task: Task | None = None
        for view, model in (
            (self.positions_view, self.positions),
            (self.ideal_view, self.ideal),
            (self.missed_view, self.missed),
        ):
            view.setToolTip(translate("analysis", "Double-click a document to read it"))
            view.doubleClicked.connect(lambda index, m=model: self.read_document(m, index.row()))
        positions_label = _bold(translate("analysis", "The run's top K"))
        positions_label.setBuddy(self.positions_view)
        ideal_label = _bold(translate("analysis", "The ideal ranking (from the frozen pool)"))
        ideal_label.setBuddy(self.ideal_view)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.explain, 0, 0, 1, 3)
        grid.addWidget(positions_label, 1, 0)
        grid.addWidget(ideal_label, 1, 1)
        grid.addWidget(self.positions_view, 2, 0, 3, 1)
        grid.addWidget(self.ideal_view, 2, 1)
        grid.addWidget(self.missed_label, 3, 1)
        grid.addWidget(self.missed_view, 4, 1)
        grid.addWidget(self.chart, 1, 2, 4, 1)
        for column, stretch in enumerate((4, 3, 3)):
            grid.setColumnStretch(column, stretch)
        grid.setRowStretch(2, 3)
        grid.setRowStretch(4, 2)
        self.setMinimumHeight(280)
        # The results panel selects a new result's first query, and sends "" when the result is lost: the one
        # place that empties this (it was emptied again on every change of the session, each time rebuilding
        # three tables and the chart, during every refresh after an import).

    def focus_order(self) -> list[QWidget]:
        return [self.positions_view, self.ideal_view, self.missed_view, self.chart]

    def set_chart_shown(self, shown: bool) -> None:
        """Two breakdowns side by side leave no room for the chart: its column goes with it."""
        self.chart.setVisible(shown)
        layout = self.layout()
        assert isinstance(layout, QGridLayout)
        layout.setColumnStretch(2, 3 if shown else 0)

    def show_query(self, query_id: str) -> None:
        """Show one query of the Scores session's result ("" or no result: empty)."""
        result = self.session.result if isinstance(self.session, ScoresSession) else None
        self.show_scored(result.first if result is not None else None, query_id)

    def show_scored(self, first: ScoredRun | None, query_id: str) -> None:
        """Show one query of a scored run (None or "": empty); the Runs view shows two runs' side by side.

        A large result's query is prepared on a worker (:func:`query_breakdown` reads the query's judgments,
        its ranking below K and the result's per-position rows: on a 7M-line run, ~0.1-0.2 s of a frozen
        window after each Score); a small one at once, as before.
        """
        self._request += 1
        if self._task is not None:
            self._task.cancel_event.set()
            self._task = None
        self._shown = first
        if first is None or not query_id:
            for model in (self.positions, self.ideal, self.missed):
                model.clear()
            self.explain.clear()
            self.missed_label.setText(translate("analysis", "Relevant documents missed in the top K"))  # no count left
            self.chart.show_query(
                pd.DataFrame(columns=["rank", "cumulative_dcg"]), pd.DataFrame(columns=["rank", "cumulative_idcg"]), 1
            )
            return
        request = self._request
        if len(first.evaluation.per_position) <= LARGE_RESULT:
            self._render(request, first, query_breakdown(first, query_id))
            return

        def done(data: QueryBreakdown) -> None:
            self._task = None
            self._render(request, first, data)

        self._task = run_in_background(lambda **_: query_breakdown(first, query_id), done, lambda _message: None)

    def _render(self, request: int, first: ScoredRun, data: QueryBreakdown) -> None:
        result = self.session.result if isinstance(self.session, ScoresSession) else None
        lost = isinstance(self.session, ScoresSession) and (result is None or result.first is not first)
        if request != self._request or self._shown is not first or lost:
            return  # another query or another result since: that one shows
        self.positions.load(data.positions)
        self.ideal.load(data.ideal)
        self.chart.show_query(data.positions, data.ideal, data.k)
        self.missed.load(data.missed)
        self.missed_label.setText(
            translate("analysis", "Relevant documents missed in the top {k} ({count})").format(
                k=data.k, count=len(data.missed)
            )
        )
        self.explain.setText(data.explain)
        for view, model in (
            (self.positions_view, self.positions),
            (self.ideal_view, self.ideal),
            (self.missed_view, self.missed),
        ):
            fit_columns(view, model)

    def read_document(self, model: FrameModel, row: int) -> QDialog | None:
        """Show a document's text (double-click in a breakdown table)."""
        project = self.session.project
        if project is None or row < 0:
            return None
        doc_id = model.value(row, "doc_id")
        doc = project.texts.document(doc_id)
        dialog = QDialog(self)
        dialog.setWindowTitle(translate("analysis", "Document {doc_id}").format(doc_id=doc_id))
        reader = QTextBrowser()
        reader.setAccessibleName(translate("analysis", "Document text"))
        if doc is None:
            missing = translate("analysis", "The text of {doc_id} was not imported (File ▸ Import documents).")
            reader.setHtml(f"<p><i>{html.escape(missing.format(doc_id=doc_id))}</i></p>")
        else:
            reader.setHtml(f"<h3>{html.escape(doc['title'] or doc_id)}</h3>" + highlighted_html(doc["text"], ""))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)  # and Esc, as every dialog
        close.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(reader)
        layout.addWidget(close)
        dialog.resize(560, 420)
        dialog.show()
        return dialog

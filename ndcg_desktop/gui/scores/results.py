"""The scored result: whose it is (run, pool version, hash), the settings, the means, the per-query table."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.scores.tables import (
    FrameModel,
    ResultsProxy,
    TableData,
    fit_columns,
    select_query_row,
    show_sorted,
    sorted_frame,
    table_data,
    table_view,
)
from ndcg_desktop.gui.scores.text import describe_settings, scored_against
from ndcg_desktop.sessions.scores import PROJECT, QUERY, RESULT, ScoresSession
from ndcg_desktop.tasks.scoring import ScoreResult

translate = QCoreApplication.translate

RESULT_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "nDCG"), "ndcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Candidate-only (diagnostic)"), "candidate_ndcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "DCG"), "dcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "IDCG"), "idcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Relevant in pool"), "relevant_in_pool", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Found in top K"), "relevant_found", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Missed"), "relevant_missed", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged in top K"), "unjudged_in_top_k", "int"),
    # sorted by the width: the queries whose unjudged documents could move the score most come first
    (QT_TRANSLATE_NOOP("analysis", "If unjudged were 0 .. top grade"), "unjudged_bounds", "interval"),
    (QT_TRANSLATE_NOOP("analysis", "Tie-averaged nDCG"), "tie_averaged_ndcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Flags"), "flags", ""),
]


def results_table(result: ScoreResult) -> TableData:
    """The per-query results table of ``result``, sorted by query (natural order), flags named; any thread.

    7,000 queries take about a second to format: the Scores view runs this on the scoring worker.
    """
    frame = result.first.evaluation.per_query.copy()
    names = (
        translate("analysis", "no ranking"),  # QCoreApplication.translate is thread-safe
        translate("analysis", "zero IDCG"),
        translate("analysis", "excluded"),
        translate("analysis", "tie at K"),
    )
    separator = translate("analysis", ", ", "list separator")
    frame["flags"] = [
        separator.join(n for n, on in zip(names, flags, strict=True) if on)
        for flags in zip(frame["no_ranking"], frame["zero_idcg"], frame["excluded"], frame["tie_at_k"], strict=True)
    ]
    bounds = result.first.bounds
    if bounds is not None:  # rule 17: where unjudged documents sit, the range they allow
        frame["unjudged_bounds"] = bounds["ndcg_gap"].to_numpy()
        frame["unjudged_bounds_low"] = bounds["ndcg_lower"].to_numpy()
        frame["unjudged_bounds_high"] = bounds["ndcg_upper"].to_numpy()
    return table_data(RESULT_COLUMNS, sorted_frame(frame, "query_id"), shade_by="ndcg")


class ResultsPanel(QWidget):
    """Empty until the session has a result; emptied again whenever it loses it."""

    query_selected = Signal(str)  # the query ID of the selected row ("" when none)
    export_requested = Signal()

    def __init__(self, session: ScoresSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._prepared: tuple[ScoreResult, TableData] | None = None
        self.owner = plain_label(wrap=True)  # names the run, the pool version and its hash (project data)
        self.owner.setAccessibleName(translate("analysis", "Scored run and pool version"))
        font = QFont(self.owner.font())
        font.setBold(True)
        self.owner.setFont(font)
        self.settings_line = plain_label(wrap=True)
        self.settings_line.setAccessibleName(translate("analysis", "Settings"))
        self.settings_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.headline = QLabel()
        self.headline.setTextFormat(Qt.TextFormat.PlainText)
        big = QFont(self.headline.font())
        big.setPointSizeF(big.pointSizeF() * 1.6)
        big.setBold(True)
        self.headline.setFont(big)
        self.summary = plain_label(wrap=True)
        self.summary.setAccessibleName(translate("analysis", "Summary"))
        self.results = FrameModel(RESULT_COLUMNS, self)
        self.results_proxy = ResultsProxy(self)
        self.results_proxy.setSourceModel(self.results)
        self.results_view = table_view(
            self.results_proxy,
            name=translate("analysis", "Per-query results"),
            description=translate("analysis", "One row per query; select one to see its breakdown in the tab below"),
        )
        self.results_view.selectionModel().currentRowChanged.connect(self._row_selected)
        self.below_on = QCheckBox(translate("analysis", "nDCG below"))
        self.below_on.setAccessibleName(translate("analysis", "nDCG below"))
        self.below_on.setAccessibleDescription(
            translate("analysis", "Show only the queries whose nDCG is below the threshold")
        )
        self.below = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.05, value=0.3, decimals=2)
        self.below.setAccessibleName(translate("analysis", "nDCG threshold"))
        self.missed_only = QCheckBox(translate("analysis", "has missed relevant"))
        self.missed_only.setAccessibleName(translate("analysis", "has missed relevant"))
        self.missed_only.setAccessibleDescription(
            translate("analysis", "Show only the queries that missed a relevant document in the top K")
        )
        self.below_on.toggled.connect(self._filter)
        self.below.valueChanged.connect(self._filter)
        self.missed_only.toggled.connect(self._filter)
        self.export_button = QPushButton(translate("analysis", "Export CSV…"))
        self.export_button.setAccessibleName(translate("analysis", "Export CSV"))
        self.export_button.setToolTip(
            translate("analysis", "Write per_query.csv, per_position.csv and manifest.json to a folder")
        )
        self.export_button.clicked.connect(self.export_requested)
        filters_label = QLabel(translate("analysis", "Show only queries with"))
        filters_label.setBuddy(self.below_on)
        filters = QHBoxLayout()
        filters.addWidget(filters_label)
        filters.addWidget(self.below_on)
        filters.addWidget(self.below)
        filters.addWidget(self.missed_only)
        filters.addStretch(1)
        filters.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.owner)
        layout.addWidget(self.settings_line)
        headline = QHBoxLayout()
        headline.addWidget(self.headline)
        headline.addWidget(self.summary, 1)
        layout.addLayout(headline)
        layout.addLayout(filters)
        layout.addWidget(self.results_view)
        session.changed.connect(self._changed)
        self._changed(frozenset({RESULT}))

    def offer(self, result: ScoreResult, table: TableData) -> None:
        """The per-query table of ``result``, prepared on the worker that scored it (:func:`results_table`).

        Used when the session shows that very result; anything else is prepared when shown.
        """
        self._prepared = (result, table)

    def focus_order(self) -> list[QWidget]:
        return [self.below_on, self.below, self.missed_only, self.export_button, self.results_view]

    def _changed(self, aspects: frozenset[str]) -> None:
        if aspects & {PROJECT, RESULT}:
            self._show()
        if QUERY in aspects:
            select_query_row(self.results_view, self.results, self.session.selected_query)

    def _show(self) -> None:
        result = self.session.result
        self.export_button.setEnabled(result is not None)
        for label in (self.owner, self.settings_line, self.headline, self.summary):
            label.setVisible(result is not None)
        if result is None:
            for label in (self.owner, self.settings_line, self.headline, self.summary):
                label.clear()
            self.results.clear()
            fit_columns(self.results_view, self.results)  # headers whole before the first result
            self.query_selected.emit("")
            return
        first = result.first
        e, s = first.evaluation, first.evaluation.summary
        self.owner.setText(scored_against(first.run_name, first.version, first.residual))
        self.settings_line.setText(
            translate("analysis", "{settings}; zero-IDCG: {zero_idcg} of {total}").format(
                settings=describe_settings(e.settings, e.k), zero_idcg=s["zero_idcg"], total=s["queries_total"]
            )
        )
        mean = "—" if s["mean_ndcg"] is None else f"{s['mean_ndcg']:.4f}"
        pooled = "—" if s["pooled_ndcg"] is None else f"{s['pooled_ndcg']:.4f}"
        self.headline.setText(f"{s['measure']} {mean}")  # "nDCG@10 0.5105"
        self.summary.setText(
            translate(
                "analysis",
                "(macro mean) · pooled ratio {pooled} (sum DCG / sum IDCG) · queries {total} total, {in_mean} in "
                "the mean, {zero_idcg} zero-IDCG, {excluded} excluded, {no_ranking} no ranking, {dropped} dropped · "
                "unjudged in top K {unjudged}, ties at K {ties}",
            ).format(
                pooled=pooled,
                total=s["queries_total"],
                in_mean=s["queries_in_mean"],
                zero_idcg=s["zero_idcg"],
                excluded=s["excluded"],
                no_ranking=s["no_ranking"],
                dropped=s["dropped_unanswered"],
                unjudged=s["unjudged_in_top_k"],
                ties=s["ties_at_k"],
            )
        )
        prepared = self._prepared
        self._prepared = None
        table = prepared[1] if prepared is not None and prepared[0] is result else results_table(result)
        show_sorted(self.results_view, self.results, table, "query_id")
        fit_columns(self.results_view, self.results)
        if self.results_proxy.rowCount():
            self.results_view.selectRow(0)

    def _filter(self) -> None:
        below = self.below.value() if self.below_on.isChecked() else None
        self.results_proxy.set_filters(below, self.missed_only.isChecked())

    def _row_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.session.result is None:
            return
        row = self.results_proxy.mapToSource(current).row()
        query_id = self.results.value(row, "query_id")
        self.session.select_query(query_id)  # the breakdown and the comparison table follow the session
        self.query_selected.emit(query_id)

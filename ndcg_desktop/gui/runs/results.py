"""The runs table: per run and K the mean (with ranx-style superscripts), its interval, and the bounds."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.gui.charts import IntervalChart
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.runs.text import few_queries_text, settings_text, superscripts_text, ties_text
from ndcg_desktop.gui.scores.tables import (
    Column,
    FrameModel,
    TableData,
    fit_columns,
    sorted_proxy,
    table_data,
    table_view,
)
from ndcg_desktop.sessions.runs import PROJECT, RESULT, SHOWN, RunsResult, RunsSession, runs_rows

translate = QCoreApplication.translate

RUN_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Letter"), "letter", ""),
    (QT_TRANSLATE_NOOP("analysis", "Run"), "run", ""),
    (QT_TRANSLATE_NOOP("analysis", "K"), "k", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Mean nDCG (beats)"), "mean_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "95% CI"), "ci", "interval"),
    (QT_TRANSLATE_NOOP("analysis", "Pooled ratio"), "pooled", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Judged@K"), "judged_at_k", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Queries in the mean"), "queries", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Ties at K"), "queries_with_tie_at_k", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Tie-averaged mean"), "tie_averaged_mean", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "If unjudged were 0 .. top grade"), "bound", "interval"),
    (QT_TRANSLATE_NOOP("analysis", "The run's choices"), "choices", ""),
]


def choices_text(settings: EvalSettings) -> str:
    """A run's resolutions, in the interface language (the policy words are the settings line's)."""
    return translate(
        "runs", "unjudged: {unjudged}, duplicates: {duplicates}, unknown queries: {unknown}, queries: {queries}"
    ).format(
        unjudged=translate("analysis", str(settings.unjudged)),
        duplicates=translate("analysis", str(settings.duplicates)),
        unknown=translate("analysis", str(settings.unknown_queries)),
        queries=translate("analysis", str(settings.queries)),
    )


def runs_table(result: RunsResult) -> TableData:
    """The runs table's cells (any thread: the worker that compared formats them; translate() is thread-safe)."""
    rows = runs_rows(result.comparison)
    evaluations = result.comparison.evaluations
    rows["choices"] = [
        choices_text(evaluations[r][k].settings.policies) for r, k in zip(rows["run"], rows["k"], strict=True)
    ]
    return table_data(RUN_COLUMNS, rows, shade_by="mean")


class RunsTablePanel(QWidget):
    """The settings line and the sortable runs table of the session's result (empty without one)."""

    def __init__(self, session: RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._prepared: tuple[RunsResult, TableData] | None = None
        self.settings_line = plain_label(wrap=True)
        self.settings_line.setAccessibleName(translate("runs", "How every figure was computed"))
        self.warnings = plain_label(wrap=True)  # the session's warnings, as `ndcg compare` prints them
        self.warnings.setAccessibleName(translate("runs", "Warnings about the comparison"))
        self.warnings.setStyleSheet("color: #b35c00;")  # amber: readable on light and on dark bases alike
        self.warnings.hide()
        self.runs = FrameModel(RUN_COLUMNS, self)
        self.runs_proxy = sorted_proxy(self.runs, self)
        self.runs_view = table_view(
            self.runs_proxy,
            name=translate("runs", "Runs table"),
            description=translate(
                "runs",
                "Per run and K: the mean nDCG with the letters of the runs it beats significantly, its bootstrap "
                "confidence interval, the pooled ratio, judged@K, the queries in the mean, the queries with a tie "
                "straddling K and the tie-averaged mean, and the bounds from unjudged documents",
            ),
        )
        self.chart = IntervalChart()
        self.k_box = QComboBox()
        self.k_box.setAccessibleName(translate("runs", "K shown in the plot, the matrix and the pairs"))
        self.k_box.activated.connect(lambda _i: session.show_k(self.k_box.currentData()))
        k_label = QLabel(translate("runs", "Plot, matrix and pairs at K"))
        k_label.setBuddy(self.k_box)
        k_line = QHBoxLayout()
        k_line.addWidget(k_label)
        k_line.addWidget(self.k_box)
        k_line.addStretch(1)
        table = QWidget()
        column = QVBoxLayout(table)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.runs_view, 1)
        column.addLayout(k_line)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(table)
        split.addWidget(self.chart)
        split.setSizes([980, 420])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.settings_line)
        layout.addWidget(self.warnings)
        layout.addWidget(split, 1)
        session.changed.connect(self._changed)

    def focus_order(self) -> list[QWidget]:
        return [self.runs_view, self.k_box, self.chart]

    def offer(self, result: RunsResult, table: TableData) -> None:
        """The runs table of ``result``, prepared on the worker that computed it."""
        self._prepared = (result, table)

    def _changed(self, aspects: frozenset[str]) -> None:
        if aspects & {PROJECT, RESULT}:
            self._show_result()
        if aspects & {PROJECT, RESULT, SHOWN}:
            self._show_plot()

    def _show_plot(self) -> None:
        result, k = self.session.result, self.session.shown_k
        rows = runs_rows(result.comparison) if result is not None else None
        if rows is None:
            self.chart.show_intervals([], k, "")
            return
        at = rows[rows["k"] == k]
        runs = list(zip(at["letter"] + " " + at["run"], at["mean"], at["ci_low"], at["ci_high"], strict=True))
        self.chart.show_intervals(runs, k, f"{result.comparison.stats.confidence:.0%}")
        self.k_box.setCurrentIndex(max(self.k_box.findData(k), 0))

    def _show_result(self) -> None:
        result = self.session.result
        warnings = "\n".join(
            [
                *(few_queries_text(found) for found in self.session.warnings()),
                *(ties_text(tie) for tie in self.session.tie_warnings()),
            ]
        )
        self.warnings.setText(warnings)
        self.warnings.setVisible(bool(warnings))
        self.k_box.clear()
        if result is None:
            self.runs.clear()
            fit_columns(self.runs_view, self.runs)  # the headers whole, before any row
            self.settings_line.setText(translate("runs", "Nothing compared yet."))
            return
        for k in result.comparison.ks:
            self.k_box.addItem(str(k), k)
        prepared, self._prepared = self._prepared, None
        table = prepared[1] if prepared is not None and prepared[0] is result else runs_table(result)
        self.runs_proxy.sort(-1)
        self.runs.show(table)
        fit_columns(self.runs_view, self.runs)
        version = self.session.version
        self.settings_line.setText(
            translate("runs", "Against pool v{version} (sha256 {hash}…): {settings}").format(
                version=version.version if version else "?",
                hash=(version.hash or "")[:12] if version else "",
                settings=settings_text(result.comparison),  # the record's line, in the window's words
            )
            + "\n"
            + superscripts_text(result.comparison)
        )

"""The analyst's view: choose a run and a frozen pool, resolve every flag, read per-query NDCG.

All numbers come from ``ndcg_desktop.scoring`` (the same code as ``ndcg score``); this module
formats them and never computes a metric.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pandas as pd
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import (
    DuplicatePolicy,
    EvalSettings,
    Gain,
    QuerySet,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)
from ndcg_desktop.gui.charts import CumulativeChart, HistogramChart, ScatterChart
from ndcg_desktop.gui.highlight import highlighted_html
from ndcg_desktop.gui.models import SORT_ROLE, Index, grade_label, natural_key
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.scoring import Evaluation
from ndcg_desktop.scoring.explain import (
    FlagReport,
    FullRankings,
    compare,
    histogram,
    ideal_ranking,
    missed_relevant,
)
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import ScoredRun, check_run, score_run

# The context is this module's name, literally: pyside6-lupdate files every string of this module under
# "analysis", and self.tr() would look up the runtime class (a subclass) instead.
translate = QCoreApplication.translate

SEND_FOR_JUDGING = "send"
CHECK_KEYS = QKeySequence("F5")
SCORE_KEYS = (QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter"))  # Enter: the keypad's
GAIN_TEXTS = {
    Gain.LINEAR: QT_TRANSLATE_NOOP("analysis", "linear gain"),
    Gain.EXPONENTIAL: QT_TRANSLATE_NOOP("analysis", "exponential gain"),
}


def _shade(value: float) -> QBrush:
    """Red for bad queries through amber to green, light enough to read text on."""
    value = min(max(value, 0.0), 1.0)
    red, green = (255, int(120 + 135 * value / 0.5)) if value < 0.5 else (int(255 - 120 * (value - 0.5) / 0.5), 255)
    return QBrush(QColor(red, green, 150, 110))


class FrameModel(QAbstractTableModel):
    """A read-only table of prepared strings and raw sort values (results, positions, ideal)."""

    def __init__(self, columns: list[tuple[str, str, str]], parent: Any = None) -> None:
        super().__init__(parent)
        self.columns = columns  # (header, frame column, format) ; format: "", "f4", "int", "flag"
        self.header_fields: dict[str, str] = {}  # fills named placeholders in headers, e.g. {"run": "bm25"}
        self.display: list[list[str]] = []
        self.raw: list[list[Any]] = []
        self.shade_column = -1
        self.shades: list[QBrush] = []

    def load(self, frame: pd.DataFrame, shade: str | None = None) -> None:
        self.beginResetModel()
        self.display, self.raw = [], []
        for _, name, fmt in self.columns:
            values = frame[name].tolist() if name in frame else [""] * len(frame)
            self.raw.append([natural_key(str(v)) if fmt == "" else (-1 if v is None or v != v else v) for v in values])
            self.display.append([_format(v, fmt) for v in values])
        self.shade_column = next((i for i, c in enumerate(self.columns) if c[1] == shade), -1)
        self.shades = [_shade(float(v)) for v in frame[shade]] if shade else []
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.display else len(self.display[0])

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            header = translate("analysis", self.columns[section][0])  # marked with QT_TRANSLATE_NOOP("analysis", …)
            return header.format(**self.header_fields) if self.header_fields else header
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display[col][row]
        if role == SORT_ROLE:
            return self.raw[col][row]
        if role == Qt.ItemDataRole.BackgroundRole and col == self.shade_column:
            return self.shades[row]
        if role == Qt.ItemDataRole.TextAlignmentRole and self.columns[col][2] in ("f4", "int"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _column(self, name: str) -> int:
        return next(i for i, c in enumerate(self.columns) if c[1] == name)

    def value(self, row: int, column: str) -> str:
        return self.display[self._column(column)][row]

    def raw_value(self, row: int, column: str) -> Any:
        return self.raw[self._column(column)][row]


def _format(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if fmt == "f4":
        return f"{float(value):.4f}"
    if fmt == "int":
        return str(int(value))
    return str(value)


class ResultsProxy(QSortFilterProxyModel):
    """Sort by raw values; filter by "NDCG below" and "has missed relevant"."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.below: float | None = None
        self.missed_only = False

    def set_filters(self, below: float | None, missed_only: bool) -> None:
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            self.below, self.missed_only = below, missed_only
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.below, self.missed_only = below, missed_only
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, FrameModel)
        if self.below is not None and float(model.raw_value(source_row, "ndcg")) >= self.below:
            return False
        return not (self.missed_only and int(model.raw_value(source_row, "relevant_missed")) == 0)


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
    (QT_TRANSLATE_NOOP("analysis", "Tie-averaged nDCG"), "tie_averaged_ndcg", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Flags"), "flags", ""),
]
POSITION_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Rank"), "rank", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Document"), "doc_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Grade"), "grade_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Gain"), "gain", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Discount"), "discount", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Contribution"), "contribution", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Cumulative DCG"), "cumulative_dcg", "f4"),
]
COMPARE_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of the run"), "ndcg_a", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of the other run"), "ndcg_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Other − run"), "difference", "f4"),
]
FLAG_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged"), "unjudged_total", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Unjudged in top K"), "unjudged_in_top_k", "int"),
    (QT_TRANSLATE_NOOP("analysis", "Their positions in the top K"), "unjudged_positions", ""),
    (QT_TRANSLATE_NOOP("analysis", "Duplicates"), "duplicates", "int"),
    (QT_TRANSLATE_NOOP("analysis", "No ranking"), "no_ranking_text", ""),
    (QT_TRANSLATE_NOOP("analysis", "Tie at K"), "tie_at_k_text", ""),
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
# The comparison's headers once the two runs are known; {run} and {other} are run names.
COMPARE_NAMED_COLUMNS = [
    (QT_TRANSLATE_NOOP("analysis", "Query"), "query_id", ""),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of {run}"), "ndcg_a", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "nDCG of {other}"), "ndcg_b", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "{other} − {run}"), "difference", "f4"),
]


def _table(model: Any, sortable: bool = True) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.horizontalHeader().setResizeContentsPrecision(200)  # fitting a column measures 200 rows, not all
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 10)
    view.setSortingEnabled(sortable)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class AnalysisView(QWidget):
    """Run + frozen pool + settings -> flags to resolve -> per-query results and breakdowns."""

    error = Signal(str)
    sent_for_judging = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.project: Project | None = None
        self.report: FlagReport | None = None
        self.evaluation: Evaluation | None = None
        self.qrels: Any = None

        self.run_box = QComboBox()
        self.run_box.setAccessibleName(translate("analysis", "Run"))
        self.run_box.setAccessibleDescription(translate("analysis", "The stored run to score"))
        self.version_box = QComboBox()
        self.version_box.setAccessibleName(translate("analysis", "Frozen pool version"))
        self.version_box.setAccessibleDescription(
            translate("analysis", "The frozen judgments the run is scored against")
        )
        self.k = QSpinBox(minimum=1, maximum=10_000, value=10)
        self.k.setAccessibleName(translate("analysis", "Cutoff K"))
        self.k.setAccessibleDescription(translate("analysis", "Only the first K documents of each ranking are scored"))
        self.gain = QComboBox()
        self.gain.setAccessibleName(translate("analysis", "Gain"))
        self.gain.setAccessibleDescription(
            translate(
                "analysis", "How a grade becomes a gain: linear (the grade) or exponential (2 to the grade, minus 1)"
            )
        )
        for g in Gain:
            self.gain.addItem(translate("analysis", GAIN_TEXTS[g]), g.value)
        self.zero_idcg = QComboBox()
        self.zero_idcg.setAccessibleName(translate("analysis", "Queries with zero IDCG"))
        self.zero_idcg.setAccessibleDescription(
            translate("analysis", "Whether queries without a relevant document in the pool count in the mean")
        )
        self.zero_idcg.addItem(translate("analysis", "zero-IDCG: score 0, in the mean"), ZeroIdcgPolicy.KEEP.value)
        self.zero_idcg.addItem(translate("analysis", "zero-IDCG: excluded"), ZeroIdcgPolicy.EXCLUDE.value)
        self.compare_box = QComboBox()
        self.compare_box.setAccessibleName(translate("analysis", "Compare with run"))
        self.compare_box.setAccessibleDescription(
            translate("analysis", "Another run scored with the same settings, shown in the Comparison tab")
        )
        self.check_button = QPushButton(translate("analysis", "Check run"))
        self.check_button.setAccessibleName(translate("analysis", "Check run"))
        self.check_button.setToolTip(
            translate(
                "analysis", "Find what needs a decision before scoring: unjudged documents, duplicates… ({keys})"
            ).format(keys=_keys(CHECK_KEYS))
        )
        self.check_button.clicked.connect(self.check)
        run_label = QLabel(translate("analysis", "Run"))
        run_label.setBuddy(self.run_box)  # a buddy names the field for screen readers
        against_label = QLabel(translate("analysis", "against"))
        against_label.setBuddy(self.version_box)
        k_label = QLabel(translate("analysis", "K"))
        k_label.setBuddy(self.k)
        compare_label = QLabel(translate("analysis", "compare with"))
        compare_label.setBuddy(self.compare_box)
        top = QGridLayout()
        top.addWidget(run_label, 0, 0)
        top.addWidget(self.run_box, 0, 1)
        top.addWidget(against_label, 0, 2)
        top.addWidget(self.version_box, 0, 3)
        top.addWidget(self.check_button, 0, 5)
        top.addWidget(k_label, 1, 0)
        knobs = QHBoxLayout()
        knobs.addWidget(self.k)
        knobs.addWidget(self.gain)
        knobs.addWidget(self.zero_idcg)
        knobs.addStretch(1)
        knobs.addWidget(compare_label)
        knobs.addWidget(self.compare_box)
        top.addLayout(knobs, 1, 1, 1, 5)
        top.setColumnStretch(4, 1)
        for w in (self.run_box, self.version_box, self.k, self.gain, self.zero_idcg, self.compare_box):
            signal = w.valueChanged if isinstance(w, QSpinBox) else w.currentIndexChanged
            signal.connect(self._invalidate)

        # Resolve panel: one choice per flag group.
        self.flags_toggle = QToolButton()
        self.flags_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.flags_toggle.setCheckable(True)
        self.flags_toggle.setAutoRaise(True)
        self.flags_toggle.setStyleSheet("QToolButton { font-weight: bold; }")
        self.flags_toggle.setAccessibleName(translate("analysis", "Resolve before scoring"))
        self.flags_toggle.setAccessibleDescription(
            translate("analysis", "Shows or hides the choices for what the check found")
        )
        self.flags_toggle.toggled.connect(self._show_flags)
        self.flags_box = QGroupBox()
        grid = QGridLayout(self.flags_box)
        self.flag_labels: dict[str, QLabel] = {}
        self.choices: dict[str, QComboBox] = {}
        choose = translate("analysis", "choose…")
        groups = [
            (
                "unjudged",
                translate("analysis", "Unjudged documents"),
                [
                    (choose, None),
                    (translate("analysis", "count as non-relevant (keeps its position)"), UnjudgedPolicy.ZERO.value),
                    (translate("analysis", "condense (remove, close the gaps)"), UnjudgedPolicy.CONDENSE.value),
                    (translate("analysis", "send for judging (adds them to a draft)"), SEND_FOR_JUDGING),
                ],
            ),
            (
                "duplicates",
                translate("analysis", "Duplicate documents"),
                [(choose, None), (translate("analysis", "keep the first"), DuplicatePolicy.FIRST.value)],
            ),
            (
                "unknown_queries",
                translate("analysis", "Run queries not in the pool"),
                [(choose, None), (translate("analysis", "ignore them (listed)"), UnknownQueryPolicy.IGNORE.value)],
            ),
            (
                "queries",
                translate("analysis", "Pool queries without a ranking"),
                [
                    (translate("analysis", "score them 0 (every pool query counts)"), QuerySet.POOL.value),
                    (translate("analysis", "score only answered queries"), QuerySet.RUN.value),
                ],
            ),
        ]
        for row, (key, title, options) in enumerate(groups):
            title_label = QLabel(f"<b>{title}</b>")
            grid.addWidget(title_label, row, 0)
            self.flag_labels[key] = QLabel("—")
            grid.addWidget(self.flag_labels[key], row, 1)
            combo = QComboBox()
            combo.setAccessibleName(title)
            title_label.setBuddy(combo)
            for text, value in options:
                combo.addItem(text, value)
            combo.currentIndexChanged.connect(self._update_score_button)
            self.choices[key] = combo
            grid.addWidget(combo, row, 2)
        self.ties_label = QLabel("—")
        ties_title = translate("analysis", "Ties straddling K")
        grid.addWidget(QLabel(f"<b>{ties_title}</b>"), len(groups), 0)
        grid.addWidget(self.ties_label, len(groups), 1, 1, 2)
        grid.setColumnStretch(1, 1)
        self.missing_label = QLabel(translate("analysis", "Check a run to see what needs a decision."))
        self.missing_label.setWordWrap(True)
        self.score_button = QPushButton()
        self.score_button.setEnabled(False)
        self.score_button.clicked.connect(self.score)
        self._set_score_text(sending=False)
        self.details_button = QPushButton()
        self.details_button.setCheckable(True)
        self.details_button.setEnabled(False)
        self.details_button.setAccessibleDescription(
            translate("analysis", "Shows or hides a table of the queries the check flagged")
        )
        _set_button_text(self.details_button, translate("analysis", "Show flagged queries"))
        self.flag_details = FrameModel(FLAG_COLUMNS, self)
        self.flag_view = _table(self.flag_details)
        self.flag_view.setAccessibleName(translate("analysis", "Flagged queries"))
        self.flag_view.setAccessibleDescription(
            translate("analysis", "One row per flagged query: unjudged documents, duplicates, no ranking, tie at K")
        )
        self.flag_view.setMinimumHeight(160)
        self.flag_view.hide()
        self.details_button.toggled.connect(self._toggle_details)
        row = QHBoxLayout()
        row.addWidget(self.missing_label, 1)
        row.addWidget(self.details_button)
        row.addWidget(self.score_button)
        grid.addLayout(row, len(groups) + 1, 0, 1, 3)
        grid.addWidget(self.flag_view, len(groups) + 2, 0, 1, 3)

        # Results.
        self.settings_line = QLabel()
        self.settings_line.setWordWrap(True)
        self.settings_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.results = FrameModel(RESULT_COLUMNS, self)
        self.results_proxy = ResultsProxy(self)
        self.results_proxy.setSourceModel(self.results)
        self.results_view = _table(self.results_proxy)
        self.results_view.setAccessibleName(translate("analysis", "Per-query results"))
        self.results_view.setAccessibleDescription(
            translate("analysis", "One row per query; select one to see its breakdown in the tab below")
        )
        self.results_view.selectionModel().currentRowChanged.connect(self._query_selected)
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
        self.export_button.clicked.connect(self.export)
        self.export_button.setEnabled(False)
        filters_label = QLabel(translate("analysis", "Show only queries with"))
        filters_label.setBuddy(self.below_on)
        filters = QHBoxLayout()
        filters.addWidget(filters_label)
        filters.addWidget(self.below_on)
        filters.addWidget(self.below)
        filters.addWidget(self.missed_only)
        filters.addStretch(1)
        filters.addWidget(self.export_button)

        self.comparison_label = QLabel()
        self.comparison = FrameModel(COMPARE_COLUMNS, self)
        self.comparison_proxy = QSortFilterProxyModel(self)
        self.comparison_proxy.setSortRole(SORT_ROLE)
        self.comparison_proxy.setSourceModel(self.comparison)
        self.comparison_view = _table(self.comparison_proxy)
        self.comparison_view.setAccessibleName(translate("analysis", "Comparison"))
        self.comparison_view.setAccessibleDescription(
            translate("analysis", "One row per query: the nDCG of both runs and their difference")
        )
        self.comparison_box = QWidget()
        self.scatter = ScatterChart()
        self.histogram = HistogramChart()
        self.comparison_export = QPushButton(translate("analysis", "Export comparison CSV…"))
        self.comparison_export.setAccessibleName(translate("analysis", "Export comparison CSV"))
        self.comparison_export.clicked.connect(lambda: self.export_comparison())
        cl = QGridLayout(self.comparison_box)
        cl.addWidget(self.comparison_label, 0, 0, 1, 2)
        cl.addWidget(self.comparison_export, 0, 2, Qt.AlignmentFlag.AlignRight)
        cl.addWidget(self.comparison_view, 1, 0)
        cl.addWidget(self.scatter, 1, 1)
        cl.addWidget(self.histogram, 1, 2)
        for column, stretch in enumerate((3, 2, 3)):
            cl.setColumnStretch(column, stretch)
        self.comparison_box.setMinimumHeight(280)
        self.comparison_table: pd.DataFrame | None = None
        self.comparison_names = ("", "")
        self.explain = QLabel()
        self.explain.setWordWrap(True)
        self.positions = FrameModel(POSITION_COLUMNS, self)
        self.ideal = FrameModel(IDEAL_COLUMNS, self)
        self.positions_view = _table(self.positions, sortable=False)
        self.ideal_view = _table(self.ideal, sortable=False)
        self.missed = FrameModel(MISSED_COLUMNS, self)
        self.missed_view = _table(self.missed, sortable=False)
        self.missed_label = QLabel(translate("analysis", "<b>Relevant documents missed in the top K</b>"))
        self.missed_label.setBuddy(self.missed_view)
        self.chart = CumulativeChart()
        self.rankings: FullRankings | None = None
        for view, model in (
            (self.positions_view, self.positions),
            (self.ideal_view, self.ideal),
            (self.missed_view, self.missed),
        ):
            view.setToolTip(translate("analysis", "Double-click a document to read it"))
            view.doubleClicked.connect(lambda index, m=model: self.read_document(m, index.row()))
        self.positions_view.setAccessibleName(translate("analysis", "The run's top K"))
        self.positions_view.setAccessibleDescription(
            translate("analysis", "The selected query's top K: each document's grade, gain, discount and contribution")
        )
        self.ideal_view.setAccessibleName(translate("analysis", "The ideal ranking"))
        self.ideal_view.setAccessibleDescription(
            translate("analysis", "The best possible top K from the frozen pool, which gives the IDCG")
        )
        self.missed_view.setAccessibleName(translate("analysis", "Missed relevant documents"))
        self.missed_view.setAccessibleDescription(
            translate("analysis", "Relevant documents not in the run's top K, and where the run placed them")
        )
        positions_label = QLabel(translate("analysis", "<b>The run's top K</b>"))
        positions_label.setBuddy(self.positions_view)
        ideal_label = QLabel(translate("analysis", "<b>The ideal ranking (from the frozen pool)</b>"))
        ideal_label.setBuddy(self.ideal_view)
        breakdown = QWidget()
        bl = QGridLayout(breakdown)
        bl.setContentsMargins(0, 0, 0, 0)
        bl.addWidget(self.explain, 0, 0, 1, 3)
        bl.addWidget(positions_label, 1, 0)
        bl.addWidget(ideal_label, 1, 1)
        bl.addWidget(self.positions_view, 2, 0, 3, 1)
        bl.addWidget(self.ideal_view, 2, 1)
        bl.addWidget(self.missed_label, 3, 1)
        bl.addWidget(self.missed_view, 4, 1)
        bl.addWidget(self.chart, 1, 2, 4, 1)
        bl.setColumnStretch(0, 4)
        bl.setColumnStretch(1, 3)
        bl.setColumnStretch(2, 3)
        bl.setRowStretch(2, 3)
        bl.setRowStretch(4, 2)
        breakdown.setMinimumHeight(280)

        results_top = QWidget()
        rl = QVBoxLayout(results_top)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.settings_line)
        rl.addWidget(self.summary)
        rl.addLayout(filters)
        rl.addWidget(self.results_view)
        self.lower = QTabWidget()
        self.lower.setAccessibleName(translate("analysis", "Breakdown and comparison"))
        self.lower.addTab(breakdown, translate("analysis", "Breakdown of the selected query"))
        self.lower.addTab(self.comparison_box, translate("analysis", "Comparison"))
        self.lower.setTabEnabled(1, False)
        self.lower.setTabToolTip(1, translate("analysis", "Choose a run in 'compare with' and score"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(results_top)
        split.addWidget(self.lower)
        split.setSizes([380, 380])
        for combo in self.findChildren(QComboBox):  # long option texts must not set the window's width
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.flags_toggle)
        layout.addWidget(self.flags_box)
        self.flags_toggle.setChecked(True)
        layout.addWidget(split, 1)
        self._keyboard()

    def _keyboard(self) -> None:
        """Tab order top to bottom, and shortcuts for the two main actions (shown in the buttons' tooltips)."""
        order: list[QWidget] = [
            self.run_box,
            self.version_box,
            self.check_button,
            self.k,
            self.gain,
            self.zero_idcg,
            self.compare_box,
            self.flags_toggle,
            *self.choices.values(),
            self.details_button,
            self.score_button,
            self.flag_view,
            self.below_on,
            self.below,
            self.missed_only,
            self.export_button,
            self.results_view,
            self.lower,
            self.positions_view,
            self.ideal_view,
            self.missed_view,
            self.chart,
            self.comparison_export,
            self.comparison_view,
            self.scatter,
            self.histogram,
        ]
        for first, second in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(first, second)
        # Window context: active only while this view is shown (the Scores tab); the buttons' own
        # setShortcut would be reset by every setText().
        pairs = [(CHECK_KEYS, self.check_button)] + [(keys, self.score_button) for keys in SCORE_KEYS]
        for keys, button in pairs:
            shortcut = QShortcut(keys, self)
            shortcut.activated.connect(button.animateClick)  # does nothing while the button is disabled

    # -- state -----------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        self.project = project
        self.run_box.blockSignals(True)
        self.version_box.blockSignals(True)
        self.run_box.clear()
        self.version_box.clear()
        self.compare_box.blockSignals(True)
        self.compare_box.clear()
        self.compare_box.addItem(translate("analysis", "no other run"), None)
        if project is not None:
            for info in project.runs():
                self.run_box.addItem(f"{info.name}  ({info.source_name})", info.name)
                self.compare_box.addItem(info.name, info.name)
            for v in reversed(project.versions()):
                if v.frozen:
                    text = translate("analysis", "pool v{version} · {hash}…").format(
                        version=v.version, hash=v.short_hash
                    )
                    self.version_box.addItem(text, v.version)
        self.run_box.blockSignals(False)
        self.version_box.blockSignals(False)
        self.compare_box.blockSignals(False)
        ready = self.run_box.count() > 0 and self.version_box.count() > 0
        self.check_button.setEnabled(ready)
        self._invalidate()
        if not ready and project is not None:
            self.missing_label.setText(
                translate(
                    "analysis",
                    "Import a run (File ▸ Import run) and freeze a pool version (Pool ▸ Freeze draft) to score.",
                )
            )

    def settings(self) -> EvalSettings:
        """The settings the choices make; a refused group stays at its refusing default."""

        def choice(key: str, default: str) -> str:
            value = self.choices[key].currentData()
            return default if value in (None, SEND_FOR_JUDGING) else str(value)

        return EvalSettings(
            k=self.k.value(),
            gain=Gain(self.gain.currentData()),
            zero_idcg=ZeroIdcgPolicy(self.zero_idcg.currentData()),
            unjudged=UnjudgedPolicy(choice("unjudged", UnjudgedPolicy.REJECT.value)),
            duplicates=DuplicatePolicy(choice("duplicates", DuplicatePolicy.REJECT.value)),
            unknown_queries=UnknownQueryPolicy(choice("unknown_queries", UnknownQueryPolicy.REJECT.value)),
            queries=QuerySet(choice("queries", QuerySet.POOL.value)),
            scale=self.project.version(self.version_box.currentData()).scale if self.project else EvalSettings().scale,
        )

    def _show_flags(self, shown: bool) -> None:
        """The resolve panel folds away once scored; its choices stay in the settings line."""
        self.flags_box.setVisible(shown)
        self.flags_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.flags_toggle.setText(
            translate("analysis", "Resolve before scoring")
            if shown
            else translate("analysis", "Resolve before scoring: every flag has a choice (show)")
        )

    def _toggle_details(self, shown: bool) -> None:
        self.flag_view.setVisible(shown)
        text = translate("analysis", "Hide flagged queries") if shown else translate("analysis", "Show flagged queries")
        _set_button_text(self.details_button, text)

    def _invalidate(self) -> None:
        self.report = None
        self.flags_toggle.setChecked(True)
        self.flag_details.load(pd.DataFrame(columns=[c[1] for c in FLAG_COLUMNS]))
        self.details_button.setChecked(False)
        self.details_button.setEnabled(False)
        for label in self.flag_labels.values():
            label.setText("—")
        self.ties_label.setText("—")
        self.missing_label.setText(translate("analysis", "Check the run to see what needs a decision."))
        self._update_score_button()

    def _sending(self) -> bool:
        """Send for judging is chosen and there is something to send (after grading, nothing is)."""
        chosen = self.choices["unjudged"].currentData() == SEND_FOR_JUDGING
        return chosen and self.report is not None and self.report.unjudged_total > 0

    def _update_score_button(self) -> None:
        if self.report is None:
            self.score_button.setEnabled(False)
            return
        if self._sending():
            self._set_score_text(sending=True)
            self.score_button.setEnabled(True)
            self.missing_label.setText(
                translate(
                    "analysis",
                    "The unjudged documents will be added to a draft pool for "
                    "grading; score again once that draft is frozen.",
                )
            )
            return
        self._set_score_text(sending=False)
        missing = missing_sentences(self.report, self.settings())
        self.score_button.setEnabled(not missing)
        if missing:
            problems = translate("analysis", "; ", "separator between problems").join(missing)
            self.missing_label.setText(translate("analysis", "Before scoring: {problems}.").format(problems=problems))
        else:
            self.missing_label.setText(translate("analysis", "Ready to score."))

    def _set_score_text(self, sending: bool) -> None:
        """Score, or Send for judging when the unjudged documents go to a draft; name and tooltip follow."""
        if sending:
            text = translate("analysis", "Send for judging")
            tip = translate("analysis", "Add the unjudged documents to a draft pool for grading ({keys})")
        else:
            text = translate("analysis", "Score")
            tip = translate("analysis", "Score the run with these choices ({keys})")
        _set_button_text(self.score_button, text)
        self.score_button.setToolTip(tip.format(keys=_keys(SCORE_KEYS[0])))

    # -- work ------------------------------------------------------------------------------
    def check(self) -> None:
        if self.project is None or self.run_box.currentIndex() < 0 or self.version_box.currentIndex() < 0:
            return
        project, name, version, base = (
            self.project,
            self.run_box.currentData(),
            self.version_box.currentData(),
            self.settings(),
        )

        def work(progress: Any, cancelled: Any) -> FlagReport:
            return check_run(project, name, version, base, progress=progress, cancelled=cancelled).report

        run_with_progress(self, translate("analysis", "Checking the run…"), work, self._show_report, self.error.emit)

    def _show_report(self, report: FlagReport) -> None:
        self.report = report
        k = self.k.value()
        self.flag_labels["unjudged"].setText(
            translate("analysis", "{total} in {queries} queries ({in_top_k} in the top {k})").format(
                total=report.unjudged_total, queries=report.unjudged_queries, in_top_k=report.unjudged_in_top_k, k=k
            )
        )
        self.flag_labels["duplicates"].setText(f"{report.duplicates}")
        self.flag_labels["unknown_queries"].setText(_listing(report.unknown_queries))
        self.flag_labels["queries"].setText(_listing(report.unanswered_queries))
        for key, label in self.flag_labels.items():  # what was found, read out with the choice
            self.choices[key].setAccessibleDescription(
                translate("analysis", "Found: {flags}").format(flags=label.text())
            )
        ties = _listing(report.ties_at_k)
        if report.ties_at_k:
            ties = translate("analysis", "{ties} (the tie-averaged nDCG is shown beside each)").format(ties=ties)
        self.ties_label.setText(ties)
        details = report.per_query.copy()
        no_ranking, tie = translate("analysis", "no ranking"), translate("analysis", "tie")
        details["no_ranking_text"] = [no_ranking if v else "" for v in details["no_ranking"]]
        details["tie_at_k_text"] = [tie if v else "" for v in details["tie_at_k"]]
        self.flag_details.load(details)
        self.flag_view.resizeColumnsToContents()
        self.details_button.setEnabled(len(details) > 0)
        _set_button_text(
            self.details_button,
            translate("analysis", "Show flagged queries ({count})").format(count=len(details))
            if len(details)
            else translate("analysis", "No flagged queries"),
        )
        self._update_score_button()

    def score(self) -> None:
        if self.project is None or self.report is None:
            return
        if self._sending():
            self._send_for_judging()
            return
        project, name, number, base = (
            self.project,
            self.run_box.currentData(),
            self.version_box.currentData(),
            self.settings(),
        )
        other_name = self.compare_box.currentData()
        if other_name == name:
            other_name = None

        def work(progress: Any, cancelled: Any) -> tuple[ScoredRun, ScoredRun | None]:
            first = score_run(project, name, number, base, rankings=True, progress=progress, cancelled=cancelled)
            if other_name is None:
                return first, None
            # The other run with its own reading (tie policy and ID map).
            second = score_run(project, other_name, number, base, progress=progress, cancelled=cancelled)
            return first, second

        def done(result: tuple[ScoredRun, ScoredRun | None]) -> None:
            first, second = result
            self.qrels, self.rankings = first.qrels, first.rankings
            self._show_results(first.evaluation, first.version)
            self.flags_toggle.setChecked(False)
            self._show_comparison(first.evaluation, second.evaluation if second else None, other_name)

        run_with_progress(self, translate("analysis", "Scoring…"), work, done, self.error.emit)

    def _show_comparison(self, first: Evaluation, second: Evaluation | None, name: str | None) -> None:
        self.lower.setTabEnabled(1, second is not None)
        self.comparison_table = None
        if second is None:
            return
        table, counts = compare(first, second)
        self.comparison_table = table
        run_name = str(self.run_box.currentData())
        self.comparison.columns = COMPARE_NAMED_COLUMNS
        self.comparison.header_fields = {"run": run_name, "other": str(name)}
        self.comparison.load(table, shade=None)
        self.scatter.show_comparison(table, run_name, str(name))
        self.comparison_names = (run_name, str(name))
        self.histogram.show_histograms(
            [(run_name, histogram(first.per_query)), (str(name), histogram(second.per_query))]
        )
        self.comparison_view.sortByColumn(3, Qt.SortOrder.AscendingOrder)
        self.comparison_view.resizeColumnsToContents()
        mean = second.summary["mean_ndcg"]
        self.comparison_label.setText(
            translate(
                "analysis",
                "<b>{run}</b>: {mean} (macro mean) · better on {wins} queries, equal on {ties}, "
                "worse on {losses} (of {total} counted in both means)",
            ).format(
                run=html.escape(str(name)),
                mean="—" if mean is None else f"{mean:.4f}",
                wins=counts["wins"],
                ties=counts["ties"],
                losses=counts["losses"],
                total=len(table),
            )
        )

    def _send_for_judging(self) -> None:
        assert self.project is not None
        name = self.run_box.currentData()
        try:
            counts = self.project.send_for_judging(name)
        except Exception as exc:  # InputError: read-only project, a draft elsewhere...
            self.error.emit(str(exc))
            return
        draft = self.project.draft()
        self.sent_for_judging.emit(
            translate(
                "analysis",
                "{count} documents of {run} await grading in draft pool v{version}. "
                "Grade them, freeze the draft, then score again.",
            ).format(count=int(counts["new"].sum()), run=name, version=draft.version if draft else "?")
        )

    def _show_results(self, e: Evaluation, version: Any) -> None:
        self.evaluation = e
        s = e.summary
        self.settings_line.setText(
            translate(
                "analysis", "<b>{settings}</b>, pool v{version} ({hash}…), zero-IDCG: {zero_idcg} of {total}"
            ).format(
                settings=html.escape(describe_settings(e.settings)),
                version=version.version,
                hash=version.short_hash,
                zero_idcg=s["zero_idcg"],
                total=s["queries_total"],
            )
        )
        mean = "—" if s["mean_ndcg"] is None else f"{s['mean_ndcg']:.4f}"
        pooled = "—" if s["pooled_ndcg"] is None else f"{s['pooled_ndcg']:.4f}"
        headline = f"<span style='font-size:16pt'><b>{s['measure']} {mean}</b></span>"  # data: "nDCG@10 0.5105"
        self.summary.setText(
            translate(
                "analysis",
                "{headline} (macro mean) &nbsp; pooled ratio {pooled} (sum DCG / sum IDCG) "
                "&nbsp; · &nbsp; queries {total} total, {in_mean} in the mean, {zero_idcg} zero-IDCG, "
                "{excluded} excluded, {no_ranking} no ranking, {dropped} dropped &nbsp; · &nbsp; "
                "unjudged in top K {unjudged}, ties at K {ties}",
            ).format(
                headline=headline,
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
        frame = e.per_query.copy()
        names = (
            translate("analysis", "no ranking"),
            translate("analysis", "zero IDCG"),
            translate("analysis", "excluded"),
            translate("analysis", "tie at K"),
        )
        separator = translate("analysis", ", ", "list separator")
        frame["flags"] = [
            separator.join(n for n, on in zip(names, flags, strict=True) if on)
            for flags in zip(frame["no_ranking"], frame["zero_idcg"], frame["excluded"], frame["tie_at_k"], strict=True)
        ]
        self.results.load(frame, shade="ndcg")
        self.results_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.results_view.resizeColumnsToContents()
        self.export_button.setEnabled(True)
        if self.results_proxy.rowCount():
            self.results_view.selectRow(0)

    def _filter(self) -> None:
        below = self.below.value() if self.below_on.isChecked() else None
        self.results_proxy.set_filters(below, self.missed_only.isChecked())

    def _query_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid() or self.evaluation is None:
            return
        e = self.evaluation
        row = self.results_proxy.mapToSource(current).row()
        query_id = str(e.per_query["query_id"].iloc[row])
        rec = e.per_query.iloc[row]
        positions = e.per_position[e.per_position["query_id"].astype(str) == query_id].copy()
        version = self.project.version(self.version_box.currentData()) if self.project else None
        labels, low = (version.labels, version.scale.low) if version else ([], 0)
        unjudged = translate("analysis", "unjudged")
        positions["grade_text"] = [
            grade_label(int(g), labels, low) if judged else unjudged
            for g, judged in zip(positions["grade"].fillna(0), positions["judged"], strict=True)
        ]
        self.positions.load(positions)
        ideal = ideal_ranking(self.qrels, query_id, e.settings.k, e.settings.gain)
        ideal["grade_text"] = [grade_label(int(g), labels, low) for g in ideal["grade"]]
        self.ideal.load(ideal)
        self.chart.show_query(positions, ideal, e.settings.k)
        missed = missed_relevant(self.qrels, e.per_position, query_id, e.settings.gain, self.rankings)
        missed["grade_text"] = [grade_label(int(g), labels, low) for g in missed["grade"]]
        not_returned, position = translate("analysis", "not returned"), translate("analysis", "position {position}")
        missed["where"] = [not_returned if pd.isna(p) else position.format(position=p) for p in missed["position"]]
        self.missed.load(missed)
        self.missed_label.setText(
            translate("analysis", "<b>Relevant documents missed in the top {k}</b> ({count})").format(
                k=e.settings.k, count=len(missed)
            )
        )
        explain = translate(
            "analysis",
            "<b>{query}</b>: nDCG {ndcg} against the whole frozen pool; candidate-only "
            "{candidate} (ideal taken from the returned documents only: it measures ordering among "
            "what was returned, and ignores what was missed).",
        )
        explain = explain.format(
            query=html.escape(query_id), ndcg=f"{rec['ndcg']:.4f}", candidate=f"{rec['candidate_ndcg']:.4f}"
        )
        if rec["tie_at_k"]:
            tie = translate("analysis", "Tie at K: the tie-averaged nDCG is {ndcg}.")
            explain += " " + tie.format(ndcg=f"{rec['tie_averaged_ndcg']:.4f}")
        self.explain.setText(explain)
        for view in (self.positions_view, self.ideal_view, self.missed_view):
            view.resizeColumnsToContents()

    def read_document(self, model: FrameModel, row: int) -> QDialog | None:
        """Show a document's text (double-click in a breakdown table)."""
        if self.project is None or row < 0:
            return None
        doc_id = model.value(row, "doc_id")
        doc = self.project.document(doc_id)
        dialog = QDialog(self)
        dialog.setWindowTitle(translate("analysis", "Document {doc_id}").format(doc_id=doc_id))
        reader = QTextBrowser()
        reader.setAccessibleName(translate("analysis", "Document text"))
        if doc is None:
            missing = translate("analysis", "The text of {doc_id} was not imported (File ▸ Import documents).")
            reader.setHtml(f"<p><i>{missing.format(doc_id=html.escape(doc_id))}</i></p>")
        else:
            reader.setHtml(f"<h3>{html.escape(doc['title'] or doc_id)}</h3>" + highlighted_html(doc["text"], ""))
        layout = QVBoxLayout(dialog)
        layout.addWidget(reader)
        dialog.resize(560, 420)
        dialog.show()
        return dialog

    def export(self, folder: str | None = None) -> list[Path]:
        """per_query.csv, per_position.csv and manifest.json, plus comparison.csv when comparing."""
        if self.evaluation is None:
            return []
        folder = folder or QFileDialog.getExistingDirectory(self, translate("analysis", "Export results to a folder"))
        if not folder:
            return []
        from ndcg_desktop.formats.export import export_comparison, export_evaluation  # `ndcg score --export`'s writer

        try:
            paths = export_evaluation(self.evaluation, folder)
            if self.comparison_table is not None:
                paths.append(export_comparison(self.comparison_table, self.comparison_names, folder))
            return paths
        except OSError as exc:
            self.error.emit(_write_error(folder, exc))
            return []

    def export_comparison(self, path: str | None = None) -> Path | None:
        if self.comparison_table is None:
            return None
        title, csv_filter = translate("analysis", "Export comparison"), translate("analysis", "CSV (*.csv)")
        path = path or QFileDialog.getSaveFileName(self, title, "comparison.csv", csv_filter)[0]
        if not path:
            return None
        from ndcg_desktop.formats.export import export_comparison

        try:
            return export_comparison(self.comparison_table, self.comparison_names, Path(path).parent, Path(path).name)
        except OSError as exc:
            self.error.emit(_write_error(path, exc))
            return None


def _write_error(path: str, exc: OSError) -> str:
    return translate("analysis", "{path}: cannot write the export ({reason})").format(
        path=path, reason=exc.strerror or exc
    )


# Policy values as the settings line shows them (the command line's option values, in English).
_POLICY_WORDS = (
    QT_TRANSLATE_NOOP("analysis", "linear"),
    QT_TRANSLATE_NOOP("analysis", "exponential"),
    QT_TRANSLATE_NOOP("analysis", "reject"),
    QT_TRANSLATE_NOOP("analysis", "zero"),
    QT_TRANSLATE_NOOP("analysis", "condense"),
    QT_TRANSLATE_NOOP("analysis", "first"),
    QT_TRANSLATE_NOOP("analysis", "pool"),
    QT_TRANSLATE_NOOP("analysis", "run"),
    QT_TRANSLATE_NOOP("analysis", "ignore"),
    QT_TRANSLATE_NOOP("analysis", "docid-desc"),
    QT_TRANSLATE_NOOP("analysis", "docid-asc"),
    QT_TRANSLATE_NOOP("analysis", "file-order"),
)


def _word(value: object) -> str:
    return translate("analysis", str(value))


def describe_settings(settings: EvalSettings) -> str:
    """``EvalSettings.describe()`` in the interface language (the same words in English)."""
    zero = (
        translate("analysis", "kept in the mean")
        if settings.zero_idcg is ZeroIdcgPolicy.KEEP
        else translate("analysis", "excluded")
    )
    text = translate(
        "analysis",
        "nDCG@{k}, {gain} gain, log2 discount, unjudged: {unjudged}, duplicates: {duplicates}, zero-IDCG: {zero}, "
        "queries: {queries}, unknown queries: {unknown}, ties: {ties}, scale {scale}",
    ).format(
        k=settings.k,
        gain=_word(settings.gain),
        unjudged=_word(settings.unjudged),
        duplicates=_word(settings.duplicates),
        zero=zero,
        queries=_word(settings.queries),
        unknown=_word(settings.unknown_queries),
        ties=_word(settings.ties),
        scale=settings.scale,
    )
    if settings.id_map is not None:
        text += translate("analysis", ", IDs cut at {separator}").format(separator=repr(settings.id_map))
    return text


def missing_sentences(report: FlagReport, settings: EvalSettings) -> list[str]:
    """``FlagReport.missing()`` in the interface language."""
    sentences = {
        "unjudged": translate("analysis", "{count} unjudged documents ({top} in the top {k}) need a policy").format(
            count=report.unjudged_total, top=report.unjudged_in_top_k, k=settings.k
        ),
        "duplicates": translate("analysis", "{count} duplicate documents need a policy").format(
            count=report.duplicates
        ),
        "unknown_queries": translate("analysis", "{count} run queries are not in the pool").format(
            count=len(report.unknown_queries)
        ),
    }
    return [sentences[group] for group in report.missing_groups(settings)]


def _listing(items: list[str], limit: int = 8) -> str:
    """``3: q1, q2, q3``, or ``12: q1, …, q8 and 4 more``."""
    if not items:
        return translate("analysis", "none")
    shown = translate("analysis", ", ", "list separator").join(items[:limit])
    if len(items) > limit:
        shown = translate("analysis", "{items} and {more} more").format(items=shown, more=len(items) - limit)
    return translate("analysis", "{count}: {items}").format(count=len(items), items=shown)


def _keys(keys: QKeySequence) -> str:
    """A shortcut as the platform writes it ("Ctrl+Return", "⌘↩"), for tooltips."""
    return keys.toString(QKeySequence.SequenceFormat.NativeText)


def _set_button_text(button: QPushButton, text: str) -> None:
    """A button whose text changes keeps its accessible name in step."""
    button.setText(text)
    button.setAccessibleName(text)


__all__ = ["AnalysisView", "FrameModel"]

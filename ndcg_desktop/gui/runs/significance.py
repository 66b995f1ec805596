"""Significance at the shown K: the run x run matrix of corrected p-values and the pairs; a pair opens on click."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QTableView, QVBoxLayout, QWidget

from ndcg_desktop.gui.annotate.models import Index
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import bold_label, plain_label
from ndcg_desktop.gui.runs.inputs import CORRECTION_TEXTS, TEST_TEXTS
from ndcg_desktop.gui.scores.tables import Column, FrameModel, fit_columns, sorted_proxy, table_view
from ndcg_desktop.sessions.runs import (
    PROJECT,
    RESULT,
    SHOWN,
    MatrixCell,
    RunsSession,
    matrix_cells,
    pairs_rows,
)

translate = QCoreApplication.translate

PAIR_COLUMNS: list[Column] = [
    (QT_TRANSLATE_NOOP("analysis", "Run a"), "a", ""),
    (QT_TRANSLATE_NOOP("analysis", "Run b"), "b", ""),
    (QT_TRANSLATE_NOOP("analysis", "Difference b - a"), "difference", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Its 95% CI"), "difference_ci", "interval"),
    (QT_TRANSLATE_NOOP("analysis", "Effect size d_z"), "cohens_dz", "f4"),
    (QT_TRANSLATE_NOOP("analysis", "Wins/ties/losses of b"), "wtl", ""),
    (QT_TRANSLATE_NOOP("analysis", "p (t)"), "p_t", "p"),
    (QT_TRANSLATE_NOOP("analysis", "p (Wilcoxon)"), "p_wilcoxon", "p"),
    (QT_TRANSLATE_NOOP("analysis", "p (randomization)"), "p_randomization", "p"),
    (QT_TRANSLATE_NOOP("analysis", "Corrected p"), "p_chosen", "p"),
    (QT_TRANSLATE_NOOP("analysis", "Queries needed"), "queries_needed", "int"),
]
BETTER, WORSE = QColor(46, 139, 87, 90), QColor(200, 60, 60, 80)


class MatrixModel(QAbstractTableModel):
    """Row run against column run: the corrected p-value, ▲/▼ when the row run is significantly better/worse."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.cells: list[list[MatrixCell | None]] = []

    def load(self, names: list[str], cells: list[list[MatrixCell | None]]) -> None:
        self.beginResetModel()
        self.names, self.cells = names, cells
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.names)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.names)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) and 0 <= section < len(self.names):
            return self.names[section]  # run names: data, shown as text
        return None

    def text(self, row: int, column: int) -> str:
        cell = self.cells[row][column]
        if cell is None:
            return "" if row == column else "—"
        mark = ("▲" if cell.difference > 0 else "▼") if cell.significant else ""
        return f"{cell.p:.3g} {mark}".strip() if cell.p == cell.p else translate("runs", "n/a")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, column = index.row(), index.column()
        cell = self.cells[row][column]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.BackgroundRole and cell.significant:
            return QBrush(BETTER if cell.difference > 0 else WORSE)
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = translate("runs", "{row} minus {column}: {difference}; corrected p {p}").format(
                row=self.names[row], column=self.names[column], difference=f"{cell.difference:+.4f}", p=f"{cell.p:.3g}"
            )
            return f"{tip}\n{cell.reason}" if cell.reason else tip  # why p is n/a, or that it is a limit
        return None


class SignificancePanel(QWidget):
    """The matrix beside the pairs table; clicking a cell or a row opens that pair query by query."""

    pair_chosen = Signal(int, str, str)  # K, a, b (b against a, as compared)

    def __init__(self, session: RunsSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.caption = plain_label(wrap=True)
        self.caption.setAccessibleName(translate("runs", "How significance is decided"))
        self.matrix = MatrixModel(self)
        self.matrix_view = QTableView()
        self.matrix_view.setModel(self.matrix)
        self.matrix_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.matrix_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.matrix_view.setAccessibleName(translate("runs", "Significance matrix"))
        self.matrix_view.setAccessibleDescription(
            translate(
                "runs", "Row run against column run: the corrected p-value; a triangle marks a significant win or loss"
            )
        )
        self.matrix_view.clicked.connect(self._cell_clicked)
        self.pairs = FrameModel(PAIR_COLUMNS, self)
        self.pairs_proxy = sorted_proxy(self.pairs, self)
        self.pairs_view = table_view(
            self.pairs_proxy,
            name=translate("runs", "Pairs compared"),
            description=translate(
                "runs",
                "Each pair: the mean difference with its interval, the effect size, wins/ties/losses and the tests",
            ),
        )
        self.pairs_view.activated.connect(self._pair_activated)
        self.pairs_view.clicked.connect(self._pair_activated)
        matrix_box = QVBoxLayout()
        matrix_label = bold_label(translate("runs", "Significance matrix (row against column)"))
        matrix_label.setBuddy(self.matrix_view)
        matrix_box.addWidget(matrix_label)
        matrix_box.addWidget(self.matrix_view, 1)
        pairs_box = QVBoxLayout()
        pairs_label = bold_label(translate("runs", "Pairs (click one to see it query by query)"))
        pairs_label.setBuddy(self.pairs_view)
        pairs_box.addWidget(pairs_label)
        pairs_box.addWidget(self.pairs_view, 1)
        tables = QHBoxLayout()
        tables.addLayout(matrix_box, 2)
        tables.addLayout(pairs_box, 5)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addLayout(tables, 1)
        session.changed.connect(self._changed)

    def focus_order(self) -> list[QWidget]:
        return [self.matrix_view, self.pairs_view]

    def _changed(self, aspects: frozenset[str]) -> None:
        if not aspects & {PROJECT, RESULT, SHOWN}:
            return
        result, k = self.session.result, self.session.shown_k
        if result is None:
            self.matrix.load([], [])
            self.pairs.clear()
            fit_columns(self.pairs_view, self.pairs)
            self.caption.setText("")
            return
        comparison = result.comparison
        self.matrix.load(comparison.names, matrix_cells(comparison, k))
        self.matrix_view.resizeColumnsToContents()
        self.pairs_proxy.sort(-1)
        self.pairs.load(pairs_rows(comparison, k))
        fit_columns(self.pairs_view, self.pairs)
        stats = comparison.stats
        self.caption.setText(
            translate(
                "runs",
                "At K={k}: significant when the {test}'s p-value after {correction} is below {alpha}; "
                "{pairs}. ▲: the row run is significantly better; ▼: worse.",
            ).format(
                k=k,
                test=translate("runs", TEST_TEXTS[stats.test]),
                correction=translate("runs", CORRECTION_TEXTS[stats.correction]),
                alpha=f"{stats.alpha:g}",
                pairs=translate("runs", "each run against {run}").format(run=comparison.baseline)
                if comparison.baseline
                else translate("runs", "every pair of runs"),
            )
        )

    def _cell_clicked(self, index: Index) -> None:
        cell = self.matrix.cells[index.row()][index.column()] if index.isValid() else None
        if cell is not None:
            self.pair_chosen.emit(self.session.shown_k, cell.a, cell.b)

    def _pair_activated(self, index: Index) -> None:
        row = self.pairs_proxy.mapToSource(index).row()
        if row >= 0:
            self.pair_chosen.emit(self.session.shown_k, self.pairs.value(row, "a"), self.pairs.value(row, "b"))

"""The confusion matrix of two annotators' grades as a heat map: a table model whose cells are shaded by count."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.gui.annotate.models import Index

translate = QCoreApplication.translate
_CENTRE = int(Qt.AlignmentFlag.AlignCenter)


def heat(share: float) -> QBrush:
    """A blue whose strength grows with ``share`` (0..1 of the largest cell); light enough to read text on."""
    share = min(max(share, 0.0), 1.0)
    return QBrush(QColor(40, 110, 220, int(20 + 200 * share)))


class ConfusionModel(QAbstractTableModel):
    """Rows: the first annotator's grade; columns: the second's; cells: how many items got that pair of grades."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.counts = np.zeros((0, 0), dtype=np.int64)
        self.row_labels: list[str] = []
        self.column_labels: list[str] = []
        self.tips: list[list[str]] = []
        self.shades: list[list[QBrush]] = []
        self.bold = QFont()
        self.bold.setBold(True)

    def load(self, counts: np.ndarray, grades: tuple[int, ...], labels: list[str], a: str, b: str) -> None:
        """Show ``counts`` (from ``AgreementReport.matrix``) with each grade's label; tooltips name both annotators."""
        self.beginResetModel()
        self.counts = counts
        low = grades[0] if grades else 0
        names = [grade_label(g, labels, low) for g in grades]
        self.row_labels = names  # the caption beside the view names whose grades are rows and columns
        self.column_labels = names
        largest = int(counts.max()) if counts.size else 0
        self.shades = [[heat(int(c) / largest if largest else 0.0) for c in row] for row in counts]
        self.tips = [
            [
                translate("agreement", "{a} gave {grade_a}, {b} gave {grade_b}: {count} items").format(
                    a=a, grade_a=names[i], b=b, grade_b=names[j], count=int(counts[i, j])
                )
                for j in range(len(names))
            ]
            for i in range(len(names))
        ]
        self.endResetModel()

    def clear(self) -> None:
        self.load(np.zeros((0, 0), dtype=np.int64), (), [], "", "")

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.row_labels)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.column_labels)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):  # the tooltip: whole when elided
            return None
        labels = self.column_labels if orientation == Qt.Orientation.Horizontal else self.row_labels
        return labels[section] if 0 <= section < len(labels) else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return str(int(self.counts[row, col]))
        if role == Qt.ItemDataRole.BackgroundRole:
            return self.shades[row][col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tips[row][col]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _CENTRE
        if role == Qt.ItemDataRole.FontRole and row == col:
            return self.bold  # the diagonal: both gave the same grade
        return None


def heatmap_view(model: ConfusionModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # reachable with the keyboard; its cells read as a table
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    view.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)
    view.setAccessibleName(translate("agreement", "Confusion matrix"))
    view.setAccessibleDescription(
        translate("agreement", "How many items each pair of grades was given by the two annotators; darker is more")
    )
    return view

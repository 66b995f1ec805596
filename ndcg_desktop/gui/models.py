"""Qt table models over the project's tables: data() formats, it never computes."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex


def natural_key(text: str) -> str:
    """A sort key that puts q2 before q10 (numbers compared by value)."""
    return re.sub(r"\d+", lambda m: m.group(0).zfill(12), text)


class QueryListModel(QAbstractTableModel):
    """Queries of the shown pool version with grading progress and state."""

    COLUMNS = ("Query", "Graded", "State", "Text")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._frame = pd.DataFrame(columns=["query_id", "text", "pool_size", "graded"])
        self._frozen = False

    def load(self, frame: pd.DataFrame, *, frozen: bool) -> None:
        self.beginResetModel()
        self._frame = frame.reset_index(drop=True)
        self._frozen = frozen
        self.endResetModel()

    def query_id(self, row: int) -> str:
        return str(self._frame.at[row, "query_id"])

    def row_of(self, query_id: str) -> int:
        matches = self._frame.index[self._frame["query_id"] == query_id]
        return int(matches[0]) if len(matches) else -1

    def update_counts(self, query_id: str, pool_size: int, graded: int) -> None:
        row = self.row_of(query_id)
        if row < 0:
            return
        self._frame.at[row, "pool_size"] = pool_size
        self._frame.at[row, "graded"] = graded
        self.dataChanged.emit(self.index(row, 1), self.index(row, 2))

    def totals(self) -> tuple[int, int]:
        """(graded, pool items) over all queries of the version."""
        return int(self._frame["graded"].sum()), int(self._frame["pool_size"].sum())

    def ungraded(self, row: int) -> int:
        return int(self._frame.at[row, "pool_size"] - self._frame.at[row, "graded"])

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def _state(self, row: int) -> str:
        if self._frozen:
            return "frozen"
        if self._frame.at[row, "pool_size"] == 0:
            return "no pool"
        return "to grade" if self.ungraded(row) else "done"

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        rec = self._frame.iloc[row]
        size, graded = int(rec["pool_size"]), int(rec["graded"])
        if role == Qt.ItemDataRole.DisplayRole:
            return (str(rec["query_id"]), f"{graded}/{size}", self._state(row), str(rec["text"]))[col]
        if role == SORT_ROLE:
            ratio = graded / size if size else -1.0
            return (natural_key(str(rec["query_id"])), ratio, self._state(row), str(rec["text"]))[col]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{rec['query_id']}: {rec['text']}\n{graded} of {size} graded"
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and self._state(row) == "to grade":
            return QBrush(QColor("#b35c00"))
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class PoolTableModel(QAbstractTableModel):
    """One query's pool: document, title, grade, annotator, note."""

    COLUMNS = ("Document", "Title", "Grade", "Annotator", "Note")

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._frame = pd.DataFrame(columns=["query_id", "doc_id", "grade", "annotator", "note", "title"])
        self.labels: list[str] = []
        self.low = 0

    def load(self, frame: pd.DataFrame, labels: list[str], low: int) -> None:
        self.beginResetModel()
        self._frame = frame.reset_index(drop=True)
        self.labels, self.low = labels, low
        self.endResetModel()

    def clear(self) -> None:
        self.load(self._frame.iloc[0:0], [], 0)

    def doc_id(self, row: int) -> str:
        return str(self._frame.at[row, "doc_id"])

    def grade(self, row: int) -> int | None:
        value = self._frame.at[row, "grade"]
        return None if pd.isna(value) else int(value)

    def note(self, row: int) -> str:
        return str(self._frame.at[row, "note"] or "")

    def row_of(self, doc_id: str) -> int:
        matches = self._frame.index[self._frame["doc_id"] == doc_id]
        return int(matches[0]) if len(matches) else -1

    def counts(self) -> tuple[int, int]:
        return len(self._frame), int(self._frame["grade"].notna().sum())

    def set_values(self, doc_id: str, **values: Any) -> None:
        """Reflect a change the store has already made (after a command ran)."""
        row = self.row_of(doc_id)
        if row < 0:
            return
        for key, value in values.items():
            self._frame.at[row, key] = pd.NA if value is None else value
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def grade_text(self, grade: int | None) -> str:
        if grade is None:
            return "—"
        i = grade - self.low
        label = self.labels[i] if 0 <= i < len(self.labels) else ""
        return f"{grade} · {label}" if label else str(grade)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._frame)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        rec = self._frame.iloc[row]
        grade = self.grade(row)
        if role == Qt.ItemDataRole.DisplayRole:
            values = (rec["doc_id"], rec["title"], self.grade_text(grade), rec["annotator"], rec["note"])
            value = values[col]
            return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)
        if role == SORT_ROLE:
            return (natural_key(str(rec["doc_id"])), str(rec["title"]), -1 if grade is None else grade,
                    str(rec["annotator"] or ""), str(rec["note"] or ""))[col]  # fmt: skip
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and grade is None:
            return QBrush(QColor("#8a8a8a"))
        if role == Qt.ItemDataRole.ToolTipRole and col in (1, 4):
            return self.data(index)
        return None


class PoolFilterProxy(QSortFilterProxyModel):
    """Sorting by raw values, and the "show ungraded only" switch."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.ungraded_only = False

    def set_ungraded_only(self, value: bool) -> None:
        if hasattr(self, "beginFilterChange"):  # Qt 6.10+
            self.beginFilterChange()
            self.ungraded_only = value
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.ungraded_only = value
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self.ungraded_only:
            return True
        model = self.sourceModel()
        assert isinstance(model, PoolTableModel)
        return model.grade(source_row) is None


class QueryFilterProxy(QSortFilterProxyModel):
    """Sorting by raw values; the filter box matches query ID or text."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)

"""Qt table models over the project's tables: data() formats, it never computes.

Columns are kept as plain Python lists with their display and sort values prepared on
load: data() is called thousands of times per repaint or sort, so it must only index.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from ndcg_desktop.domain.blind import blind_key
from ndcg_desktop.domain.natural import natural_key  # re-exported: the Scores view sorts IDs with it
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_tooltip

translate = QCoreApplication.translate

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TODO = QBrush(QColor("#b35c00"))  # amber: readable on light and on dark bases alike
_MUTED = QBrush(QColor("#8a8a8a"))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

# A query's state: a key kept in the model, its text translated once per load (data() must only index).
_FROZEN, _NO_POOL, _TO_GRADE, _DONE, _AWAITING = "frozen", "no pool", "to grade", "done", "awaiting"
STATE_TEXTS = {
    _FROZEN: QT_TRANSLATE_NOOP("models", "frozen"),
    _NO_POOL: QT_TRANSLATE_NOOP("models", "no pool"),
    _TO_GRADE: QT_TRANSLATE_NOOP("models", "to grade"),
    _DONE: QT_TRANSLATE_NOOP("models", "done"),
    _AWAITING: QT_TRANSLATE_NOOP("models", "awaiting adjudication"),
}


def grade_label(grade: int | None, labels: list[str], low: int) -> str:
    """'2 · Highly relevant' for a grade on a scale starting at ``low``; '—' when ungraded."""
    if grade is None:
        return "—"
    i = grade - low
    label = labels[i] if 0 <= i < len(labels) else ""
    return f"{grade} · {label}" if label else str(grade)


def _text(value: Any) -> str:
    return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)


class _ListTableModel(QAbstractTableModel):
    COLUMNS: tuple[str, ...] = ()
    _sort: tuple[int, Qt.SortOrder]
    _row: dict[str, int]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self._rows()

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if orientation == Qt.Orientation.Horizontal and role in (_DISPLAY, Qt.ItemDataRole.ToolTipRole):
            return translate("models", self.COLUMNS[section])  # the tooltip: the header whole when elided
        return None

    def _rows(self) -> int:
        raise NotImplementedError

    def _apply_sort(self) -> None:
        raise NotImplementedError

    def _sort_rows(self, column: int, order: Qt.SortOrder, keys: list[str]) -> None:
        """Sort by ``column`` (``_apply_sort``); the selection and other persistent indexes move with their rows.

        ``keys`` names each row before the sort; ``self._row`` maps a key to its row after it.
        """
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        before = list(keys)
        self._apply_sort()
        for index in self.persistentIndexList():
            if index.isValid():
                self.changePersistentIndex(index, self.index(self._row[before[index.row()]], index.column()))
        self.layoutChanged.emit()


@dataclass(frozen=True)
class QueryRows:
    """A query list's columns as plain lists, prepared away from the GUI thread (no Qt object is touched)."""

    ids: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    graded: list[int] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)  # natural-order sort keys of the IDs
    awaiting: list[int] = field(default_factory=list)  # ungraded items waiting for adjudication

    @classmethod
    def of(cls, frame: pd.DataFrame) -> QueryRows:
        """From ``query_progress``'s frame: query_id, text, pool_size, graded, awaiting."""
        ids = [str(x) for x in frame["query_id"]]
        return cls(
            ids,
            [_text(x) for x in frame["text"]],
            [int(x) for x in frame["pool_size"]],
            [int(x) for x in frame["graded"]],
            [natural_key(x) for x in ids],
            [int(x) for x in frame["awaiting"]] if "awaiting" in frame else [0] * len(ids),
        )


class QueryListModel(_ListTableModel):
    """Queries of the shown pool version with grading progress and state."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("models", "Query"),
        QT_TRANSLATE_NOOP("models", "Graded"),
        QT_TRANSLATE_NOOP("models", "State"),
        QT_TRANSLATE_NOOP("models", "Text"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._ids: list[str] = []
        self._texts: list[str] = []
        self._sizes: list[int] = []
        self._graded: list[int] = []
        self._awaiting: list[int] = []
        self._keys: list[str] = []
        self._row: dict[str, int] = {}
        self._frozen = False
        self._state_texts = {key: translate("models", text) for key, text in STATE_TEXTS.items()}
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def load(self, frame: pd.DataFrame, *, frozen: bool) -> None:
        self.load_rows(QueryRows.of(frame), frozen=frozen)

    def load_rows(self, rows: QueryRows, *, frozen: bool) -> None:
        """Show rows prepared by :meth:`QueryRows.of` (on any thread): only the sort is left to do here."""
        self.beginResetModel()
        self._ids, self._texts, self._keys = list(rows.ids), list(rows.texts), list(rows.keys)
        self._sizes, self._graded = list(rows.sizes), list(rows.graded)
        self._awaiting = list(rows.awaiting) if rows.awaiting else [0] * len(self._ids)
        self._frozen = frozen
        self._state_texts = {key: translate("models", text) for key, text in STATE_TEXTS.items()}
        self._apply_sort()
        self.endResetModel()

    # Sorting happens here, in Python lists, not in the proxy: a proxy sorts by calling data() through
    # the bindings about 15 times per row (5,000 queries: about a second on every reload).
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort_rows(column, order, self._ids)

    def _apply_sort(self) -> None:
        column, order = self._sort
        if column >= 0:
            n = len(self._ids)
            columns: list[list[Any]] = [
                list(self._keys),
                [self._graded[r] / self._sizes[r] if self._sizes[r] else -1.0 for r in range(n)],
                [self._state_text(r) for r in range(n)],
                list(self._texts),
            ]
            values = columns[column]
            rows = sorted(range(n), key=values.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)
            self._ids, self._texts, self._keys = ([x[r] for r in rows] for x in (self._ids, self._texts, self._keys))
            self._sizes, self._graded, self._awaiting = (
                [x[r] for r in rows] for x in (self._sizes, self._graded, self._awaiting)
            )
        self._row = {q: i for i, q in enumerate(self._ids)}

    def _rows(self) -> int:
        return len(self._ids)

    def query_id(self, row: int) -> str:
        return self._ids[row]

    def row_of(self, query_id: str) -> int:
        return self._row.get(query_id, -1)

    def widest_candidates(self, column: int, count: int = 40) -> list[str]:
        """The ``count`` longest display texts of ``column`` (by characters): the ones worth measuring in pixels."""
        if column == 0:
            texts: list[str] = self._ids
        elif column == 1:
            texts = [f"{self._graded[r]}/{self._sizes[r]}" for r in range(len(self._ids))]
        elif column == 2:
            texts = list(self._state_texts.values())
        else:
            texts = self._texts
        return heapq.nlargest(count, texts, key=len)

    def update_counts(self, query_id: str, pool_size: int, graded: int, awaiting: int = 0) -> None:
        row = self.row_of(query_id)
        if row < 0:
            return
        self._sizes[row], self._graded[row], self._awaiting[row] = pool_size, graded, awaiting
        self.dataChanged.emit(self.index(row, 1), self.index(row, 2))

    def awaiting_total(self) -> int:
        """Items of the listed queries that wait for adjudication."""
        return sum(self._awaiting)

    def totals(self) -> tuple[int, int]:
        """(graded, pool items) over all queries of the version."""
        return sum(self._graded), sum(self._sizes)

    def ungraded(self, row: int) -> int:
        """Items still to grade here (those awaiting adjudication are settled in the Adjudicate tab)."""
        return self._sizes[row] - self._graded[row] - self._awaiting[row]

    def _state(self, row: int) -> str:
        if self._frozen:
            return _FROZEN
        if self._sizes[row] == 0:
            return _NO_POOL
        if self.ungraded(row):
            return _TO_GRADE
        return _AWAITING if self._awaiting[row] else _DONE

    def _state_text(self, row: int) -> str:
        return self._state_texts[self._state(row)]

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        row, col = index.row(), index.column()
        if role == _DISPLAY:
            if col == 0:
                return self._ids[row]
            if col == 1:
                return f"{self._graded[row]}/{self._sizes[row]}"
            return self._state_text(row) if col == 2 else self._texts[row]
        if role == SORT_ROLE:
            if col == 0:
                return self._keys[row]
            if col == 1:
                return self._graded[row] / self._sizes[row] if self._sizes[row] else -1.0
            return self._state_text(row) if col == 2 else self._texts[row]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and self._state(row) == _TO_GRADE:
            return _TODO
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(
                translate("models", "{query}: {text}\n{graded} of {total} graded").format(
                    query=self._ids[row], text=self._texts[row], graded=self._graded[row], total=self._sizes[row]
                )
            )
        return None


class PoolTableModel(_ListTableModel):
    """One query's pool: document, title, grade, annotator, note."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("models", "Document"),
        QT_TRANSLATE_NOOP("models", "Title"),
        QT_TRANSLATE_NOOP("models", "Grade"),
        QT_TRANSLATE_NOOP("models", "Annotator"),
        QT_TRANSLATE_NOOP("models", "Note"),
        QT_TRANSLATE_NOOP("models", "Blind order"),  # hidden: sorting by it shows the pool blind
    )
    BLIND_COLUMN = 5

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._docs: list[str] = []
        self._titles: list[str] = []
        self._grades: list[int | None] = []
        self._annotators: list[str] = []
        self._notes: list[str] = []
        self._updated: list[str | None] = []
        self._keys: list[str] = []
        self._blind: list[str] = []
        self._origin: list[int] = []  # each row's position as loaded (the store's order)
        self._row: dict[str, int] = {}
        self._sort: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)
        self.labels: list[str] = []
        self.low = 0
        self.awaiting: frozenset[str] = frozenset()  # rated differently, not settled: for the Adjudicate tab

    def load(self, frame: pd.DataFrame, labels: list[str], low: int, awaiting: frozenset[str] = frozenset()) -> None:
        self.beginResetModel()
        self.awaiting = awaiting
        self._docs = [str(x) for x in frame["doc_id"]]
        self._titles = [_text(x) for x in frame["title"]]
        self._grades = [None if pd.isna(g) else int(g) for g in frame["grade"]]
        self._annotators = [_text(x) for x in frame["annotator"]]
        self._notes = [_text(x) for x in frame["note"]]
        self._updated = [None if pd.isna(x) else str(x) for x in frame["updated_at"]]
        self._keys = [natural_key(x) for x in self._docs]
        self._blind = [blind_key(str(q), d) for q, d in zip(frame["query_id"], self._docs, strict=True)]
        self._origin = list(range(len(self._docs)))
        self.labels, self.low = labels, low
        self._apply_sort()
        self.endResetModel()

    # Sorted here, as QueryListModel is: a proxy sorts a reset model by calling data() through the bindings
    # about 15 times per row (a 1,000-document pool: about 0.2 s of a frozen window on every query change).
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort_rows(column, order, self._docs)

    def _sort_values(self, column: int) -> list[Any]:
        """The raw values column ``column`` sorts by (what data() gives under SORT_ROLE)."""
        if column == 2:
            return [-1 if g is None else g for g in self._grades]
        return [self._keys, self._titles, None, self._annotators, self._notes, self._blind][column]  # type: ignore[return-value]

    def _apply_sort(self) -> None:
        column, order = self._sort
        if 0 <= column < len(self.COLUMNS):
            # Equal values keep the order the rows were loaded in, whichever column was sorted before
            # (as the proxy's stable sort of the unsorted source did).
            rows = sorted(range(len(self._docs)), key=self._origin.__getitem__)
            values = self._sort_values(column)
            rows = sorted(rows, key=values.__getitem__, reverse=order == Qt.SortOrder.DescendingOrder)
            for name in ("_docs", "_titles", "_grades", "_annotators", "_notes", "_updated", "_keys", "_blind"):
                column_values = getattr(self, name)
                setattr(self, name, [column_values[r] for r in rows])
            self._origin = [self._origin[r] for r in rows]
        self._row = {d: i for i, d in enumerate(self._docs)}

    def clear(self) -> None:
        columns = ["query_id", "doc_id", "title", "grade", "annotator", "note", "updated_at"]
        self.load(pd.DataFrame(columns=columns), [], 0)

    def _rows(self) -> int:
        return len(self._docs)

    def doc_id(self, row: int) -> str:
        return self._docs[row]

    def grade(self, row: int) -> int | None:
        return self._grades[row]

    def doc_ids(self) -> list[str]:
        return list(self._docs)

    def note(self, row: int) -> str:
        return self._notes[row]

    def annotator(self, row: int) -> str:
        return self._annotators[row]

    def updated_at(self, row: int) -> str | None:
        return self._updated[row]

    def row_of(self, doc_id: str) -> int:
        return self._row.get(doc_id, -1)

    def is_awaiting(self, row: int) -> bool:
        """Rated differently by annotators and not settled: graded in the Adjudicate tab, not here."""
        return self._grades[row] is None and self._docs[row] in self.awaiting

    def counts(self) -> tuple[int, int]:
        return len(self._docs), sum(g is not None for g in self._grades)

    def set_values(
        self, doc_id: str, *, grade: int | None, annotator: str | None, note: str | None, updated_at: str | None = None
    ) -> None:
        """Reflect a change the store has already made (after a command ran)."""
        row = self.row_of(doc_id)
        if row < 0:
            return
        self._grades[row], self._annotators[row], self._notes[row] = grade, _text(annotator), _text(note)
        self._updated[row] = updated_at
        self.dataChanged.emit(self.index(row, 2), self.index(row, 4))

    def grade_text(self, grade: int | None) -> str:
        return grade_label(grade, self.labels, self.low)

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 2 and self.is_awaiting(row):
                return translate(
                    "models", "Annotators rated this document differently: it is settled in the Adjudicate tab."
                )
            return plain_tooltip((self._titles, self._notes)[col == 4][row]) if col in (1, 4) else None
        if role == _DISPLAY:
            if col == 0:
                return self._docs[row]
            if col == 1:
                return self._titles[row]
            if col == 2:
                if self.is_awaiting(row):
                    return translate("models", "awaiting adjudication")
                return self.grade_text(self._grades[row])
            if col == self.BLIND_COLUMN:
                return None
            return self._annotators[row] if col == 3 else self._notes[row]
        if role == SORT_ROLE:
            if col == 0:
                return self._keys[row]
            if col == 2:
                grade = self._grades[row]
                return -1 if grade is None else grade
            return (None, self._titles, None, self._annotators, self._notes, self._blind)[col][row]  # type: ignore[index]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and self._grades[row] is None:
            return _MUTED
        return None


class PoolFilterProxy(QSortFilterProxyModel):
    """The "show ungraded only" switch; sorting is the source model's (PoolTableModel.sort)."""

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

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)  # the proxy keeps the source's order


class QueryFilterProxy(QSortFilterProxyModel):
    """The filter box matches query ID or text; sorting is the source model's (QueryListModel.sort)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)  # the proxy keeps the source's order

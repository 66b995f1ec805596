"""The Annotate view's Qt models over its session's rows (sessions.annotate): data() formats, it never computes.

The rows are the session's plain Python lists, prepared when read: data() is called thousands of times per
repaint or sort, so it only indexes. Sorting is the session's too (in Python: a proxy sorts by calling data()
through the bindings about 15 times per row).
"""

from __future__ import annotations

import heapq
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from ndcg_desktop.domain.natural import natural_key  # noqa: F401 - re-exported: the Scores view sorts IDs with it
from ndcg_desktop.domain.settings import grade_label
from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP
from ndcg_desktop.gui.plain import plain_tooltip
from ndcg_desktop.sessions.annotate import AnnotateSession
from ndcg_desktop.sessions.annotate_rows import (
    AWAITING,
    DONE,
    FROZEN,
    NO_POOL,
    POOL_SORT_KEYS,
    QUERY_SORT_KEYS,
    TO_GRADE,
)

translate = QCoreApplication.translate

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
Index = QModelIndex | QPersistentModelIndex
_DISPLAY = Qt.ItemDataRole.DisplayRole
_TODO = QBrush(QColor("#b35c00"))  # amber: readable on light and on dark bases alike
_MUTED = QBrush(QColor("#8a8a8a"))
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

# A query's state (the session's key), its text translated once per load (data() must only index).
STATE_TEXTS = {
    FROZEN: QT_TRANSLATE_NOOP("models", "frozen"),
    NO_POOL: QT_TRANSLATE_NOOP("models", "no pool"),
    TO_GRADE: QT_TRANSLATE_NOOP("models", "to grade"),
    DONE: QT_TRANSLATE_NOOP("models", "done"),
    AWAITING: QT_TRANSLATE_NOOP("models", "awaiting adjudication"),
}


class _SessionTableModel(QAbstractTableModel):
    """A table over one of the session's row lists; ``reset`` after the session read them anew."""

    COLUMNS: tuple[str, ...] = ()

    def __init__(self, session: AnnotateSession, parent: Any = None) -> None:
        super().__init__(parent)
        self.session = session

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

    def reset(self) -> None:
        self.beginResetModel()
        self.endResetModel()

    def values_changed(self, first: int, last: int) -> None:
        """Columns ``first``..``last`` of every row changed in place (the view repaints what it shows)."""
        if self._rows():
            self.dataChanged.emit(self.index(0, first), self.index(self._rows() - 1, last))

    def _sorted(self, ids: list[str], sort: Any, row_of: Any) -> None:
        """Run ``sort()`` (the session's); the selection and other persistent indexes move with their rows."""
        self.layoutAboutToBeChanged.emit()
        before = list(ids)
        sort()
        for index in self.persistentIndexList():
            if index.isValid() and index.row() < len(before):
                self.changePersistentIndex(index, self.index(row_of(before[index.row()]), index.column()))
        self.layoutChanged.emit()


class QueryListModel(_SessionTableModel):
    """Queries of the shown pool version with grading progress and state."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("models", "Query"),
        QT_TRANSLATE_NOOP("models", "Graded"),
        QT_TRANSLATE_NOOP("models", "State"),
        QT_TRANSLATE_NOOP("models", "Text"),
    )

    def __init__(self, session: AnnotateSession, parent: Any = None) -> None:
        super().__init__(session, parent)
        self._state_texts = {key: translate("models", text) for key, text in STATE_TEXTS.items()}

    def reset(self) -> None:
        self._state_texts = {key: translate("models", text) for key, text in STATE_TEXTS.items()}
        super().reset()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        rows = self.session.queries
        descending = order == Qt.SortOrder.DescendingOrder
        self._sorted(
            rows.ids,
            lambda: self.session.sort_queries(QUERY_SORT_KEYS[column], descending, words=self._state_texts),
            lambda q: self.session.queries.row_of(q),
        )

    def _rows(self) -> int:
        return len(self.session.queries)

    def query_id(self, row: int) -> str:
        return self.session.queries.ids[row]

    def row_of(self, query_id: str) -> int:
        return self.session.queries.row_of(query_id)

    def counts(self, row: int) -> tuple[int, int, int]:
        """(items, graded, awaiting adjudication) of the query at ``row``."""
        rows = self.session.queries
        return rows.sizes[row], rows.graded[row], rows.awaiting[row]

    def ungraded(self, row: int) -> int:
        return self.session.queries.ungraded(row)

    def totals(self) -> tuple[int, int]:
        return self.session.queries.totals()

    def widest_candidates(self, column: int, count: int = 40) -> list[str]:
        """The ``count`` longest display texts of ``column`` (by characters): the ones worth measuring in pixels."""
        rows = self.session.queries
        if column == 0:
            texts: list[str] = rows.ids
        elif column == 1:
            texts = [f"{g}/{n}" for g, n in zip(rows.graded, rows.sizes, strict=True)]
        elif column == 2:
            texts = list(self._state_texts.values())
        else:
            texts = rows.texts
        return heapq.nlargest(count, texts, key=len)

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        row, col = index.row(), index.column()
        rows = self.session.queries
        if role == _DISPLAY:
            if col == 0:
                return rows.ids[row]
            if col == 1:
                return f"{rows.graded[row]}/{rows.sizes[row]}"
            return self._state_texts[self.session.query_state(row)] if col == 2 else rows.texts[row]
        if role == SORT_ROLE:
            if col == 0:
                return rows.keys[row]
            if col == 1:
                return rows.graded[row] / rows.sizes[row] if rows.sizes[row] else -1.0
            return self._state_texts[self.session.query_state(row)] if col == 2 else rows.texts[row]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and self.session.query_state(row) == TO_GRADE:
            return _TODO
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(
                translate("models", "{query}: {text}\n{graded} of {total} graded").format(
                    query=rows.ids[row], text=rows.texts[row], graded=rows.graded[row], total=rows.sizes[row]
                )
            )
        return None


class PoolTableModel(_SessionTableModel):
    """The current query's pool: document, title, grade, annotator, note."""

    COLUMNS = (
        QT_TRANSLATE_NOOP("models", "Document"),
        QT_TRANSLATE_NOOP("models", "Title"),
        QT_TRANSLATE_NOOP("models", "Grade"),
        QT_TRANSLATE_NOOP("models", "Annotator"),
        QT_TRANSLATE_NOOP("models", "Note"),
        QT_TRANSLATE_NOOP("models", "Blind order"),  # hidden: sorting by it shows the pool blind
    )
    BLIND_COLUMN = 5

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if 0 <= column < len(self.COLUMNS):
            descending = order == Qt.SortOrder.DescendingOrder
            self._sorted(
                self.session.pool.docs,
                lambda: self.session.sort_pool(POOL_SORT_KEYS[column], descending),
                lambda d: self.session.pool.row_of(d),
            )

    def _rows(self) -> int:
        return len(self.session.pool)

    def doc_id(self, row: int) -> str:
        return self.session.pool.docs[row]

    def doc_ids(self) -> list[str]:
        return list(self.session.pool.docs)

    def row_of(self, doc_id: str) -> int:
        return self.session.pool.row_of(doc_id)

    def grade(self, row: int) -> int | None:
        return self.session.pool.grades[row]

    def annotator(self, row: int) -> str:
        return self.session.pool.annotators[row]

    def note(self, row: int) -> str:
        return self.session.pool.notes[row]

    def is_awaiting(self, row: int) -> bool:
        return self.session.pool.is_awaiting(row)

    def grade_text(self, grade: int | None) -> str:
        version = self.session.version
        return grade_label(grade, version.labels if version else [], version.scale.low if version else 0)

    def data(self, index: Index, role: int = _DISPLAY) -> Any:
        row, col = index.row(), index.column()
        pool = self.session.pool
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 2 and pool.is_awaiting(row):
                return translate(
                    "models", "Annotators rated this document differently: it is settled in the Adjudicate tab."
                )
            return plain_tooltip((pool.titles, pool.notes)[col == 4][row]) if col in (1, 4) else None
        if role == _DISPLAY:
            if col == 0:
                return pool.docs[row]
            if col == 1:
                return pool.titles[row]
            if col == 2:
                if pool.is_awaiting(row):
                    return translate("models", "awaiting adjudication")
                return self.grade_text(pool.grades[row])
            if col == self.BLIND_COLUMN:
                return None
            return pool.annotators[row] if col == 3 else pool.notes[row]
        if role == SORT_ROLE:
            if col == 0:
                return pool.keys[row]
            if col == 2:
                grade = pool.grades[row]
                return -1 if grade is None else grade
            return (None, pool.titles, None, pool.annotators, pool.notes, pool.blind)[col][row]  # type: ignore[index]
        if role == Qt.ItemDataRole.ForegroundRole and col == 2 and pool.grades[row] is None:
            return _MUTED
        return None


class PoolFilterProxy(QSortFilterProxyModel):
    """The "show ungraded only" switch, as the session decides it; sorting is the session's (PoolTableModel.sort)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)

    def refilter(self) -> None:
        """The session's filter changed: ask it again for every row."""
        if hasattr(self, "beginFilterChange"):  # Qt 6.10+
            self.beginFilterChange()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, PoolTableModel)
        return model.session.accepts(source_row)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)  # the proxy keeps the source's order


class QueryFilterProxy(QSortFilterProxyModel):
    """The filter box matches query ID or text; sorting is the session's (QueryListModel.sort)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)  # the proxy keeps the source's order

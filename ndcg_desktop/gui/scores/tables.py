"""The one table model the Scores view's tables share, its sort/filter proxy, and a configured view.

``data()`` formats prepared values; it never computes. Raw values sit under ``SORT_ROLE``.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ndcg_desktop.gui.annotate.models import SORT_ROLE, Index, natural_key

translate = QCoreApplication.translate

# (header, frame column, format); format: "" text, "f4" four decimals, "int", "p" (three significant
# digits, for p-values), "interval" (the column holds the sort value, the width of an interval; the
# frame's ``<column>_low`` and ``<column>_high`` columns are its ends, shown as [low, high]); headers
# are marked with QT_TRANSLATE_NOOP("analysis", ...) where they are declared and may hold {named}
# placeholders.
Column = tuple[str, str, str]  # the header is a QT_TRANSLATE_NOOP marker (typed str in gui.i18n)


def shade(value: float) -> QBrush:
    """Red for bad queries through amber to green, light enough to read text on."""
    value = min(max(value, 0.0), 1.0)
    red, green = (255, int(120 + 135 * value / 0.5)) if value < 0.5 else (int(255 - 120 * (value - 0.5) / 0.5), 255)
    return QBrush(QColor(red, green, 150, 110))


def format_value(value: Any, fmt: str) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "—"
    if fmt == "f4":
        return f"{float(value):.4f}"
    if fmt == "int":
        return str(int(value))
    if fmt == "p":  # p-values span many orders of magnitude: three significant digits
        return f"{float(value):.3g}"
    return str(value)


_TIP = Qt.ItemDataRole.ToolTipRole
# The widest a column grows to fit its cells: wider texts (a reason, a run's choices) are elided, whole in the
# tooltip. Every other cell and every header fits whole (issue 36: "Titl", "awaiting adju…", "Set").
FIT_CAP = 480
LONG_TEXT = 40  # characters: a cell this long may be wider than FIT_CAP, so it carries its text as a tooltip


@dataclass(frozen=True)
class TableData:
    """A table's cells prepared for :class:`FrameModel`: display strings and raw sort values per column.

    Made by :func:`table_data` on any thread (no Qt object is touched), so a large result is formatted
    on the worker that computed it rather than on the GUI thread.
    """

    display: list[list[str]]
    raw: list[list[Any]]
    shade_column: int = -1  # the column whose background shades by ``shade_values`` (-1: none)
    shade_values: list[float] = field(default_factory=list)
    tips: dict[int, list[Any]] = field(default_factory=dict)  # column -> per row: why the value is n/a (or None)


def table_data(columns: list[Column], frame: pd.DataFrame, shade_by: str | None = None) -> TableData:
    """Format ``frame`` for ``columns`` (text IDs get natural sort keys; numbers keep their value, NaN -> -1)."""
    display, raw = [], []
    for _, name, fmt in columns:
        values = frame[name].tolist() if name in frame else [""] * len(frame)
        raw.append([natural_key(str(v)) if fmt == "" else (-1 if v is None or v != v else v) for v in values])
        if fmt == "interval" and f"{name}_low" in frame and f"{name}_high" in frame:
            ends = zip(frame[f"{name}_low"].tolist(), frame[f"{name}_high"].tolist(), strict=True)
            display.append([f"[{format_value(lo, 'f4')}, {format_value(hi, 'f4')}]" for lo, hi in ends])
        else:
            display.append([format_value(v, "f4" if fmt == "interval" else fmt) for v in values])
    shade_column = next((i for i, c in enumerate(columns) if c[1] == shade_by), -1)
    shades = [float(v) for v in frame[shade_by]] if shade_by else []
    # A column's ``<name>_reason`` (a comparison's "why n/a") becomes the tooltip of its cells.
    tips = {i: frame[f"{c[1]}_reason"].tolist() for i, c in enumerate(columns) if f"{c[1]}_reason" in frame}
    return TableData(display, raw, shade_column, shades, tips)


class _Unfilled(dict[str, str]):
    """Header fields; a placeholder not filled yet reads as an ellipsis, never as ``{a}``."""

    def __missing__(self, key: str) -> str:
        return "…"


class FrameModel(QAbstractTableModel):
    """A read-only table of prepared strings and raw sort values, loaded from a data frame."""

    def __init__(self, columns: list[Column], parent: Any = None, *, context: str = "analysis") -> None:
        super().__init__(parent)
        self.columns = columns
        self.context = context  # the translation context of the headers' QT_TRANSLATE_NOOP markers
        self.header_fields: dict[str, str] = {}  # fills named placeholders in headers, e.g. {"run": "bm25"}
        self.display: list[list[str]] = []
        self.raw: list[list[Any]] = []
        self.shade_column = -1
        self.shade_values: list[float] = []
        self.tips: dict[int, list[Any]] = {}
        self._brushes: dict[float, QBrush] = {}  # made when a row is first painted, one per distinct value

    def load(self, frame: pd.DataFrame, shade_by: str | None = None) -> None:
        self.show(table_data(self.columns, frame, shade_by))

    def show(self, data: TableData) -> None:
        """Show cells already prepared (by :func:`table_data`, perhaps on a worker thread)."""
        self.beginResetModel()
        self.display, self.raw = data.display, data.raw
        self.shade_column, self.shade_values = data.shade_column, data.shade_values
        self.tips = data.tips
        self._brushes = {}
        self.endResetModel()

    def clear(self) -> None:
        """No rows (without building an empty data frame: views clear on every change of the session)."""
        self.show(TableData([[] for _ in self.columns], [[] for _ in self.columns]))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or not self.display else len(self.display[0])

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # The tooltip is the header whole: a column narrower than its header shows it elided (…).
        if orientation == Qt.Orientation.Horizontal and role in (Qt.ItemDataRole.DisplayRole, _TIP):
            header = translate(self.context, self.columns[section][0])
            return header.format_map(_Unfilled(self.header_fields)) if "{" in header else header
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display[col][row]
        if role == SORT_ROLE:
            return self.raw[col][row]
        if role == Qt.ItemDataRole.ToolTipRole and col in self.tips:
            tip = self.tips[col][row]
            return tip if isinstance(tip, str) else None
        if role == Qt.ItemDataRole.ToolTipRole:  # a text longer than a column may grow (FIT_CAP): whole here
            shown = self.display[col][row]
            return shown if len(shown) > LONG_TEXT else None
        if role == Qt.ItemDataRole.BackgroundRole and col == self.shade_column:
            value = self.shade_values[row]
            brush = self._brushes.get(value)
            if brush is None:
                brush = self._brushes[value] = shade(value)
            return brush
        if role == Qt.ItemDataRole.TextAlignmentRole and self.columns[col][2] in ("f4", "int", "interval", "p"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _column(self, name: str) -> int:
        return next(i for i, c in enumerate(self.columns) if c[1] == name)

    def value(self, row: int, column: str) -> str:
        return self.display[self._column(column)][row]

    def raw_value(self, row: int, column: str) -> Any:
        return self.raw[self._column(column)][row]


class ResultsProxy(QSortFilterProxyModel):
    """Sort by raw values; filter by "nDCG below" and "has missed relevant"."""

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


def sorted_frame(frame: pd.DataFrame, by: str, *, ascending: bool = True) -> pd.DataFrame:
    """``frame`` sorted by column ``by`` (IDs in natural order), with a fresh index; any thread."""
    # IDs arrive as object or as pandas' string dtypes (Arrow-backed): both sort in natural order.
    textual = pd.api.types.is_object_dtype(frame[by]) or pd.api.types.is_string_dtype(frame[by])
    key = (lambda values: values.astype(str).map(natural_key)) if textual else None
    ordered = frame.sort_values(by, ascending=ascending, key=key, kind="stable") if len(frame) else frame
    return ordered.reset_index(drop=True)


def load_sorted(
    view: QTableView, model: FrameModel, frame: pd.DataFrame, by: str, *, ascending: bool = True, **load: Any
) -> None:
    """Load ``frame`` already sorted by column ``by`` and show that sort, without the proxy sorting it again.

    A proxy re-sorts a reset model through ``data()``, a Python call per comparison: seconds of a
    frozen window for thousands of rows. The frame is sorted by pandas instead (IDs in natural
    order) and the proxy is told not to sort until the user clicks a header.
    """
    data = table_data(model.columns, sorted_frame(frame, by, ascending=ascending), **load)
    show_sorted(view, model, data, by, ascending=ascending)


def show_sorted(view: QTableView, model: FrameModel, data: TableData, by: str, *, ascending: bool = True) -> None:
    """Show ``data`` prepared from a frame already sorted by ``by`` (see :func:`load_sorted`)."""
    proxy = view.model()
    if isinstance(proxy, QSortFilterProxyModel):
        proxy.sort(-1)
    model.show(data)
    header = view.horizontalHeader()
    header.blockSignals(True)  # the indicator only: a signal would make the view sort again
    column = next(i for i, c in enumerate(model.columns) if c[1] == by)
    header.setSortIndicator(column, Qt.SortOrder.AscendingOrder if ascending else Qt.SortOrder.DescendingOrder)
    header.blockSignals(False)


def sorted_proxy(model: FrameModel, parent: Any = None) -> QSortFilterProxyModel:
    proxy = QSortFilterProxyModel(parent)
    proxy.setSortRole(SORT_ROLE)
    proxy.setSourceModel(model)
    return proxy


def table_view(model: Any, *, sortable: bool = True, name: str = "", description: str = "") -> QTableView:
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
    view.setAccessibleName(name)
    view.setAccessibleDescription(description)
    return view


def fit_columns(view: QTableView, model: FrameModel, rows: int = 200) -> None:
    """Size each column to its header and the longest of its first ``rows`` cells.

    ``resizeColumnsToContents`` asks ``data()`` for every role of every measured cell (tens of
    thousands of Python calls, a visible stall on a large result); the model already holds the
    display strings, so one width per column is measured here.
    """
    metrics = view.fontMetrics()
    header = view.horizontalHeader()
    header_metrics = header.fontMetrics()
    padding = 2 * view.style().pixelMetric(view.style().PixelMetric.PM_FocusFrameHMargin) + 14
    for column in range(model.columnCount()):  # the last too: stretching only ever makes it wider
        if header.isSectionHidden(column):
            continue
        cells = model.display[column][:rows] if model.display else []
        widest = max((metrics.horizontalAdvance(text) for text in heapq.nlargest(20, cells, key=len)), default=0)
        title = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
        heading = max((header_metrics.horizontalAdvance(line) for line in title.split("\n")), default=0)
        width = max(widest + padding, heading + header_room(header))
        header.resizeSection(column, min(width, max(FIT_CAP, heading + header_room(header))))


def header_room(header: QHeaderView) -> int:
    """What a header section needs beside its text: the style's margins and the sort indicator."""
    style = header.style()
    margin = style.pixelMetric(style.PixelMetric.PM_HeaderMargin, None, header)
    arrow = style.pixelMetric(style.PixelMetric.PM_HeaderMarkSize, None, header)
    return 3 * margin + arrow + 2


def fit_view_columns(view: QTableView, columns: Iterable[int], rows: int = 100) -> None:
    """:func:`fit_columns` for a model that is not a :class:`FrameModel` (the Annotate panes): each of ``columns``
    sized to its header and the widest of its first ``rows`` cells, up to :data:`FIT_CAP`."""
    model, header, metrics = view.model(), view.horizontalHeader(), view.fontMetrics()
    padding = 2 * view.style().pixelMetric(view.style().PixelMetric.PM_FocusFrameHMargin) + 14
    for column in columns:
        texts = [str(model.index(r, column).data() or "") for r in range(min(rows, model.rowCount()))]
        widest = max((metrics.horizontalAdvance(text) for text in texts), default=0)
        title = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
        heading = header.fontMetrics().horizontalAdvance(title) + header_room(header)
        header.resizeSection(column, min(max(widest + padding, heading), max(FIT_CAP, heading)))


def select_query_row(view: QTableView, model: FrameModel, query_id: str | None) -> None:
    """Make ``query_id``'s row the view's current row (nothing when it is not listed or already current)."""
    if query_id is None or not model.display:
        return
    proxy = view.model()
    current = view.currentIndex()
    if current.isValid():
        source = proxy.mapToSource(current) if isinstance(proxy, QSortFilterProxyModel) else current
        if model.value(source.row(), "query_id") == query_id:
            return
    column = model.display[model._column("query_id")]
    if query_id not in column:
        return
    index = model.index(column.index(query_id), 0)
    shown = proxy.mapFromSource(index) if isinstance(proxy, QSortFilterProxyModel) else index
    if shown.isValid():
        view.setCurrentIndex(shown)
        view.scrollTo(shown)

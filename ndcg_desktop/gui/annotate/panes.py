"""The Annotate tab's left and centre panes: the query list with its filter, and the pool being graded with the
version's notice, the topic, the order and filter, the grade bar and the note. They lay out and size; what they
show comes from the workspace, which renders the session."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSortFilterProxyModel
from PySide6.QtGui import QResizeEvent, QTextDocumentFragment
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain.blind import BLIND, DOC_ID
from ndcg_desktop.gui.annotate.document import list_table
from ndcg_desktop.gui.annotate.grade_bar import GradeBar
from ndcg_desktop.gui.annotate.models import PoolTableModel, QueryListModel
from ndcg_desktop.gui.annotate.topic_header import TopicHeader
from ndcg_desktop.gui.plain import bold_label, plain_tooltip
from ndcg_desktop.gui.scores.tables import FIT_CAP, fit_view_columns
from ndcg_desktop.tasks.project import PoolVersion

translate = QCoreApplication.translate

BANNER_FROZEN = "background:#e8eef7; color:#1f3b63; border:1px solid #b9c9e0; border-radius:4px; padding:6px 10px;"


class QueriesPane(QWidget):
    """The queries of the shown version, with a filter box (Ctrl+F)."""

    def __init__(self, proxy: QSortFilterProxyModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter_box = QLineEdit(placeholderText=translate("workspace", "Filter queries (Ctrl+F)"))
        self.filter_box.setClearButtonEnabled(True)
        self.filter_box.setAccessibleName(translate("workspace", "Filter queries"))
        self.filter_box.textChanged.connect(proxy.setFilterFixedString)
        self.view = list_table(proxy, "queries_view", translate("workspace", "Queries"))
        title = bold_label(translate("workspace", "Queries"))
        title.setBuddy(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (title, self.filter_box, self.view):
            layout.addWidget(widget)

    def size_columns(self, model: QueryListModel) -> None:
        # Measured from the model's longest texts: resizeColumnToContents asked data() through the
        # bindings for 200 rows x 3 columns x every role (about 60 ms of a refresh after an import).
        metrics, header = self.view.fontMetrics(), self.view.horizontalHeader()
        for column in range(4):  # the text too: the list scrolls sideways rather than cut it (FIT_CAP)
            texts = model.widest_candidates(column)
            widest = max((metrics.horizontalAdvance(text) for text in texts), default=0)
            fitted = max(widest + 16, header.sectionSizeHint(column))
            header.resizeSection(column, min(fitted, max(FIT_CAP, header.sectionSizeHint(column))))


class FrozenBanner(QLabel):
    """The notice above a frozen version: read-only, its hash, and the way on."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet(BANNER_FROZEN)
        self.setWordWrap(True)
        self.setMinimumHeight(2 * self.fontMetrics().lineSpacing() + 16)
        self.setAccessibleName(translate("workspace", "Pool version notice"))
        self.hide()

    def show_version(self, version: PoolVersion | None) -> None:
        frozen = version is not None and version.frozen
        self.setVisible(frozen)
        self.clear()  # nothing of another version's notice stays behind, shown or not
        self.setToolTip("")
        if version is None or not frozen:
            return
        text = translate(
            "workspace",
            "<b>Frozen:</b> pool version {version} (sha256 {hash}…) is read-only. "
            "Pool ▸ New draft from this version starts the next round.",
        ).format(version=version.version, hash=version.short_hash)
        self.setText(text)
        self.setAccessibleDescription(QTextDocumentFragment.fromHtml(text).toPlainText())
        self.setToolTip(
            plain_tooltip(
                translate("workspace", "Frozen {when} by {who}\nsha256 {hash}").format(
                    when=version.frozen_at, who=version.frozen_by, hash=version.hash
                )
            )
        )


class PoolPane(QWidget):
    """The current query's topic and pool, the order and the filter, the grade bar and the note."""

    def __init__(self, proxy: QSortFilterProxyModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.banner = FrozenBanner()
        self.topic = TopicHeader()  # the query's title in bold, its description and narrative below
        self.ungraded_only = QCheckBox(translate("workspace", "Show ungraded only"))
        self.ungraded_only.setAccessibleName(translate("workspace", "Show ungraded only"))
        self.order_box = QComboBox()
        self.order_box.setAccessibleName(translate("workspace", "Pool order"))
        self.order_box.addItem(translate("workspace", "Blind order"), BLIND)
        self.order_box.addItem(translate("workspace", "Document ID order"), DOC_ID)
        self.order_box.setToolTip(
            translate(
                "workspace",
                "Blind order hides the runs' ranking, which would bias a grade: each query's pool is "
                "shuffled the same way for everyone. The order is recorded in the project.",
            )
        )
        self.view = list_table(proxy, "pool_view", translate("workspace", "Pool"))
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        # Sized once per query, not ResizeToContents: that re-measures every row on each grade. The title and
        # the annotator fit whole (up to FIT_CAP; the pool scrolls sideways) instead of a squeezed "A…".
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.resizeSection(4, 110)
        header.moveSection(2, 1)  # shown as Document, Grade, Title, …: the grade stays in sight when titles are long
        proxy.modelReset.connect(lambda: fit_view_columns(self.view, (0, 1, 3)))
        proxy.layoutChanged.connect(lambda: fit_view_columns(self.view, (0, 1, 3)))
        self.view.setColumnHidden(PoolTableModel.BLIND_COLUMN, True)
        self.grade_bar = GradeBar()
        hint = translate("workspace", "Note on this document (E to edit, Enter to save)")
        self.note_edit = QLineEdit(placeholderText=hint)
        self.note_edit.setAccessibleName(translate("workspace", "Note"))
        self.note_edit.setAccessibleDescription(hint)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.topic)
        row = QHBoxLayout()
        title = bold_label(translate("workspace", "Pool"))
        title.setBuddy(self.view)
        row.addWidget(title)
        row.addStretch(1)
        row.addWidget(self.order_box)
        row.addSpacing(8)
        row.addWidget(self.ungraded_only)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.grade_bar)
        layout.addWidget(self.note_edit)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.topic.set_room(self.height())

    def show_version(self, version: PoolVersion | None, *, locked: bool, model: PoolTableModel) -> None:
        """The version's notice and scale; nothing can be graded or noted while ``locked``."""
        self.banner.show_version(version)
        if version is None:
            self.grade_bar.clear()  # no scale to grade on until a pool exists
        else:
            self.grade_bar.set_scale(version.scale, version.labels)
            self._size_grade_column(version, model)
        self.grade_bar.setEnabled(not locked)
        self.note_edit.setReadOnly(locked)

    def _size_grade_column(self, version: PoolVersion, model: PoolTableModel) -> None:
        metrics = self.view.fontMetrics()
        low, high = version.scale.low, version.scale.high
        # The labelled grades and the scale's ends: measuring every grade of a huge scale would hang.
        grades = {*range(low, min(high, low + len(version.labels) - 1) + 1), low, high}
        widest = max([metrics.horizontalAdvance(model.grade_text(g)) for g in grades] + [40])
        self.view.horizontalHeader().resizeSection(2, widest + 24)

"""The Annotate tab's panes: the document (or a chunk inside its document), readable, with the query's terms
marked; and the tables' common make."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QTableView, QTextBrowser, QVBoxLayout, QWidget

from ndcg_desktop.gui.annotate.highlight import LONG_DOCUMENT, highlighted_html
from ndcg_desktop.gui.annotate.reader import mark_retrieved, show_long_text, show_passage
from ndcg_desktop.gui.plain import bold_label, plain_label
from ndcg_desktop.gui.themes import muted_colour
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate


class DocumentPane(QFrame):
    """The title and the text of the shown document; a chunk is shown inside its parent document."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc_title = bold_label("")
        self.doc_title.setWordWrap(True)
        self.doc_title.setAccessibleName(translate("workspace", "Document title"))
        self.reader = QTextBrowser()
        self.reader.setOpenLinks(False)
        self.reader.setAccessibleName(translate("workspace", "Document text"))
        reading = QFont(self.reader.font())
        reading.setPointSizeF(reading.pointSizeF() * 1.15)
        self.reader.setFont(reading)
        self.reader.document().setDocumentMargin(12)
        self.long_notice = plain_label(wrap=True)
        self.long_notice.setAccessibleName(translate("workspace", "Long document notice"))
        self.long_notice.setStyleSheet(f"color:{muted_colour()}")
        self.long_notice.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        heading = bold_label(translate("workspace", "Document"))
        heading.setBuddy(self.reader)
        layout.addWidget(heading)
        layout.addWidget(self.doc_title)
        layout.addWidget(self.long_notice)
        layout.addWidget(self.reader, 1)

    def clear(self) -> None:
        self.long_notice.hide()
        self.reader.setExtraSelections([])
        self.doc_title.setText("")
        self.reader.setHtml("")

    def show_document(
        self,
        project: Project,
        doc_id: str,
        query_text: str,
        parents: dict[str, str],
        chunks_of: dict[str, list[str]],
    ) -> None:
        """``doc_id`` with ``query_text``'s terms marked: a chunk (in ``parents``) inside its document, a document
        with the chunks runs returned of it (``chunks_of``) marked."""
        self.long_notice.hide()
        self.reader.setExtraSelections([])
        if doc_id in parents:  # a chunk: shown inside its document
            show_passage(self.reader, self.doc_title, self.long_notice, project, doc_id, parents[doc_id], query_text)
            return
        doc = project.texts.document(doc_id)
        if doc is None:
            self.doc_title.setText(doc_id)
            missing = translate("workspace", "This document's text was not imported (File ▸ Import documents).")
            self.reader.setHtml(f"<p><i>{missing}</i></p>")
            return
        self.doc_title.setText(f"{doc_id} — {doc['title']}" if doc["title"] else doc_id)
        text = doc["text"]
        if len(text) <= LONG_DOCUMENT:
            self.reader.setHtml(highlighted_html(text, query_text))
        else:
            show_long_text(self.reader, self.long_notice, text, query_text)
        if doc_id in chunks_of:
            mark_retrieved(self.reader, self.long_notice, project, chunks_of[doc_id])


def list_table(model: object, object_name: str, accessible_name: str) -> QTableView:
    """A table of the Annotate tab (queries, pool): whole rows, one at a time, sorted, keys first."""
    view = QTableView()
    view.setObjectName(object_name)  # not translated: saved window state and tests find it by name
    view.setAccessibleName(accessible_name)
    view.setModel(model)  # type: ignore[arg-type]
    view.setTabKeyNavigation(False)  # Tab leaves the table for the next control; arrows move within it
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.horizontalHeader().setResizeContentsPrecision(200)  # fitting a column measures 200 rows, not all
    view.setSortingEnabled(True)
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 10)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    header = view.horizontalHeader()
    header.setStretchLastSection(True)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return view

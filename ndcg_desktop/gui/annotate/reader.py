"""What the document pane shows beyond a short document: a long one as plain text, a chunk inside its document.

A chunk judged in its context: the parent document's title and text, with the chunk's passage marked.
Which document a chunk belongs to comes from the stored runs' chunk maps (``project.runs.chunk_parents``);
the passage's own text is the document stored under the chunk's ID, when one was imported.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QLabel, QTextBrowser, QTextEdit

from ndcg_desktop.gui.annotate.highlight import (
    HIGHLIGHT_LIMIT,
    LONG_DOCUMENT,
    display_text,
    highlighted_html,
    mark_spans,
)
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

PASSAGE_BACKGROUND = "#cfe3ff"  # a light blue, apart from the yellow of the query's terms


def show_long_text(reader: QTextBrowser, notice: QLabel, text: str, query: str) -> None:
    """Plain text in short blocks, terms marked in the first part only (rich text of megabytes freezes)."""
    reader.setPlainText(display_text(text))
    mark = QTextCharFormat()
    mark.setBackground(QColor("#ffe58a"))
    mark.setForeground(QColor("#000000"))
    selections = []
    for start, end in mark_spans(text, query):
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(reader.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection.cursor, selection.format = cursor, mark
        selections.append(selection)
    reader.setExtraSelections(selections)
    notice.setText(
        translate(
            "workspace",
            "Long document ({count} characters): query terms are marked in the first {limit} characters only.",
        ).format(count=f"{len(text):,}", limit=f"{HIGHLIGHT_LIMIT:,}")
    )
    notice.show()


def passage_cursors(document: QTextDocument, passage: str) -> list[QTextCursor]:
    """A cursor over each paragraph of ``passage`` found in ``document``, in order (empty if not found).

    Paragraphs are searched one after the other (a document block never spans paragraphs); the
    line breaks inside a paragraph are Qt's line separators (U+2028) in a document made from HTML.
    """
    cursors: list[QTextCursor] = []
    start = 0
    for paragraph in (p.strip() for p in re.split(r"\n\s*\n", passage)):
        if not paragraph:
            continue
        found = document.find(paragraph.replace("\n", "\u2028"), start, QTextDocument.FindFlag.FindCaseSensitively)
        if found.isNull():
            found = document.find(paragraph, start, QTextDocument.FindFlag.FindCaseSensitively)  # plain text
        if found.isNull():
            return []
        cursors.append(found)
        start = found.selectionEnd()
    return cursors


def show_passage(
    reader: QTextBrowser, title: QLabel, notice: QLabel, project: Project, chunk_id: str, parent_id: str, query: str
) -> None:
    """Show chunk ``chunk_id`` inside its document ``parent_id``: the parent's title, its text, the passage marked."""
    parent = project.texts.document(parent_id)
    chunk = project.texts.document(chunk_id)
    passage = chunk["text"] if chunk else ""
    heading = translate("passage", "{chunk_id} — a passage of {parent_id}").format(
        chunk_id=chunk_id, parent_id=parent_id
    )
    title.setText(f"{heading}: {parent['title']}" if parent and parent["title"] else heading)
    if parent is None or not parent["text"]:
        reader.setHtml(highlighted_html(passage, query))
        notice.setText(
            translate("passage", "The text of its document {parent_id} is not imported: the passage is shown alone.")
            if passage
            else translate("passage", "Neither this passage's text nor its document's ({parent_id}) is imported.")
        )
        notice.setText(notice.text().format(parent_id=parent_id))
        notice.show()
        return
    text = parent["text"]
    if len(text) <= LONG_DOCUMENT:
        reader.setHtml(highlighted_html(text, query))
    else:
        show_long_text(reader, notice, text, query)
    cursors = _mark(reader, passage_cursors(reader.document(), passage) if passage else [])
    if cursors:
        notice.setText(translate("passage", "The passage judged is marked in blue inside its document."))
    elif passage:
        notice.setText(translate("passage", "The passage's text was not found in its document's text."))
    else:
        notice.setText(translate("passage", "This passage's own text is not imported: its whole document is shown."))
    notice.show()


def _mark(reader: QTextBrowser, cursors: list[QTextCursor]) -> list[QTextCursor]:
    """Mark ``cursors`` in the passage colour (beside a long text's term marks) and scroll to the first."""
    mark = QTextCharFormat()
    mark.setBackground(QColor(PASSAGE_BACKGROUND))
    mark.setForeground(QColor("#000000"))
    selections = []
    for cursor in cursors:
        selection = QTextEdit.ExtraSelection()
        selection.cursor, selection.format = cursor, mark
        selections.append(selection)
    reader.setExtraSelections(reader.extraSelections() + selections)
    if cursors:
        start = QTextCursor(cursors[0])
        start.setPosition(cursors[0].selectionStart())
        reader.setTextCursor(start)
        reader.ensureCursorVisible()
    return cursors


def mark_retrieved(reader: QTextBrowser, notice: QLabel, project: Project, chunk_ids: list[str]) -> int:
    """In a document being judged, mark the passages of its chunks that runs returned (their texts, when imported).

    Returns how many were found; the notice says so when any were.
    """
    cursors: list[QTextCursor] = []
    for chunk_id in chunk_ids:
        chunk = project.texts.document(chunk_id)
        if chunk and chunk["text"]:
            cursors += passage_cursors(reader.document(), chunk["text"])
    cursors.sort(key=lambda c: c.selectionStart())
    _mark(reader, cursors)
    if cursors:
        notice.setText(
            translate("passage", "Passages that runs returned from this document are marked in blue ({count}).").format(
                count=len({c.selectionStart() for c in cursors})
            )
        )
        notice.show()
    return len(cursors)

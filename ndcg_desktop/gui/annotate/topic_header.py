"""The query being graded, as a topic: its ID and title in bold, its description and narrative below."""

from __future__ import annotations

import html

from PySide6.QtCore import QByteArray, QCoreApplication, Qt, QUrl
from PySide6.QtGui import QImage, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QFrame, QLabel, QTextBrowser, QVBoxLayout, QWidget

from ndcg_desktop.gui.plain import plain_label
from ndcg_desktop.gui.themes import muted_colour

translate = QCoreApplication.translate

DETAIL_LINES = 7  # the description and narrative take at least this many lines; longer ones grow, then scroll
ROOM_SHARE = 0.45  # ... up to this share of the pane's height (a TREC narrative of 15 lines is read whole)
SLACK_LINES = 2  # a topic at most this much longer is shown whole: a scroll bar for a line or two hid the last one


class StaticBrowser(QTextBrowser):
    """A text browser that loads nothing: no image, no stylesheet, no file (project data is never a path)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, name: QUrl | str) -> object:  # noqa: N802 - Qt's name
        # Not None: for a null answer QTextDocument reads a file: URL itself. An empty image is drawn as nothing.
        return QImage() if kind == QTextDocument.ResourceType.ImageResource.value else QByteArray()


class TopicHeader(QWidget):
    """Shows one topic; every text is the project's data, escaped, selectable, never interpreted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._room = 0  # the height of the pane the header sits in (0: not known yet)
        self.title = plain_label(translate("workspace", "Select a query"), wrap=True)
        self.title.setObjectName("topic_title")
        self.title.setAccessibleName(translate("workspace", "Current query"))
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.title.setFont(font)
        self.details = StaticBrowser()
        self.details.setObjectName("topic_details")
        self.details.setAccessibleName(translate("workspace", "Topic description and narrative"))
        self.details.setFrameShape(QFrame.Shape.NoFrame)
        self.details.viewport().setAutoFillBackground(False)  # part of the header, on the window's background
        self.details.setStyleSheet("QTextBrowser { background: transparent; }")
        self.details.document().setDocumentMargin(2)
        self.details.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.details.setFixedHeight(self._bound())
        self.details.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # Tab follows the work; a click selects text
        self.details.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.details)

    def _bound(self) -> int:
        """The tallest the details get: DETAIL_LINES lines, or ROOM_SHARE of the pane if more, in whole lines (a
        scrolled text shows no line cut in half)."""
        line = self.details.fontMetrics().lineSpacing()
        lines = max(DETAIL_LINES, int(self._room * ROOM_SHARE) // line)
        return lines * line + 8

    def set_room(self, height: int) -> None:
        """The pane holding the header is ``height`` tall: the details may grow to a share of it."""
        if height != self._room:
            self._room = height
            self._fit()

    def _fit(self) -> None:
        """As high as the text when it is at most SLACK_LINES over the bound (whole, no scroll bar), else the
        bound (it scrolls). Measured at the width the text wraps to, again whenever that width changes."""
        details = self.details
        if details.isHidden():
            return
        document = details.document()
        document.setTextWidth(details.viewport().width())
        needed = int(document.size().height() + 0.999) + 2 * details.frameWidth()
        bound = self._bound()
        slack = SLACK_LINES * details.fontMetrics().lineSpacing()
        height = max(needed, 1) if needed <= bound + slack else bound
        if height != details.height():
            details.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    @property
    def label(self) -> QLabel:
        return self.title

    def show_message(self, text: str) -> None:
        """No topic: a sentence in the title's place."""
        self.title.setText(text)
        self.details.clear()
        self.details.hide()

    def show_topic(self, query_id: str, topic: dict[str, str] | None) -> str:
        """Show a query's topic; returns the text whose terms the document view highlights (title and description)."""
        title = topic["title"] if topic else ""
        description = topic["description"] if topic else ""
        narrative = topic["narrative"] if topic else ""
        shown = title or translate("workspace", "(no query text imported)")
        self.title.setText(f"{query_id} — {shown}")
        if description or narrative:
            self.details.setHtml(_details_html(description, narrative, translate("workspace", "Narrative")))
            self.details.show()
            self._fit()
            self.details.verticalScrollBar().setValue(0)
        else:
            self.details.clear()
            self.details.hide()
        return " ".join(part for part in (title, description) if part)


def _paragraphs(text: str, style: str = "") -> str:
    return "".join(
        f"<p style='margin:0 0 4px 0;{style}'>{html.escape(part).replace(chr(10), '<br>')}</p>"
        for part in text.split("\n\n")
        if part  # a line of its own (a list's item) stays one
    )


def _details_html(description: str, narrative: str, narrative_label: str) -> str:
    """The description as it is, the narrative muted below with its label; every text escaped."""
    parts = [_paragraphs(description)]
    if narrative:
        parts.append(
            f"<p style='margin:4px 0 0 0; color:{muted_colour()}'><i>{html.escape(narrative_label)}</i></p>"
            + _paragraphs(narrative)
        )
    return "".join(parts)

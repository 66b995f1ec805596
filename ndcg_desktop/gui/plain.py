"""User data shown as text, never as HTML.

Qt guesses whether a label's, a tooltip's or a message box's text is rich text
(``Qt.mightBeRichText``); a query ID, a title, a file name or an error message that quotes one
could then load an image from disk or restyle the window. Everything that can contain project
data goes through these helpers.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel, QMessageBox, QTableWidget, QWidget


def plain_label(text: str = "", *, wrap: bool = False) -> QLabel:
    """A label whose text is never interpreted as HTML."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setText(text)
    return label


def bold_label(text: str) -> QLabel:
    """A plain-text label in the bold font (a pane's heading)."""
    label = plain_label(text)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (tooltips have no text-format switch: escape it as HTML)."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text, quote=False)}</p>" if text else ""


def show_message(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
    default: QMessageBox.StandardButton = QMessageBox.StandardButton.NoButton,
) -> QMessageBox.StandardButton:
    """A modal message box showing ``text`` as plain text; returns the button pressed."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    if default != QMessageBox.StandardButton.NoButton:
        box.setDefaultButton(default)
    return QMessageBox.StandardButton(box.exec())


def tip_headers(table: QTableWidget) -> None:
    """Each header item's tooltip is its text, whole where the column is too narrow and Qt elides it (…)."""
    for column in range(table.columnCount()):
        item = table.horizontalHeaderItem(column)
        if item is not None:
            item.setToolTip(item.text())


def chain(*widgets: QWidget) -> None:
    """Set the Tab order to the given sequence (top to bottom in each dialog)."""
    for first, second in zip(widgets, widgets[1:], strict=False):
        QWidget.setTabOrder(first, second)


def box_buttons(buttons: QDialogButtonBox) -> list[QWidget]:
    """The box's buttons, accept before reject: Tab reaches the default action first."""
    return list(buttons.buttons())

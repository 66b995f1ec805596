"""Colour themes: the platform's own palette, a dark one and a high-contrast one.

The widgets use palette roles, not fixed colours, except where a colour carries meaning (nDCG
shading, the frozen banner, errors); those read the palette too (see ``is_dark``).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOption, QWidget

THEMES = ("system", "dark", "high-contrast")


def _palette(colours: dict[QPalette.ColorRole, str], disabled_text: str) -> QPalette:
    palette = QPalette()
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled_text))
    return palette


def dark() -> QPalette:
    R = QPalette.ColorRole
    return _palette(
        {
            R.Window: "#202124",
            R.WindowText: "#e8eaed",
            R.Base: "#17181a",
            R.AlternateBase: "#26282b",
            R.Text: "#e8eaed",
            R.Button: "#2d2f33",
            R.ButtonText: "#e8eaed",
            R.Highlight: "#3b78c4",
            R.HighlightedText: "#ffffff",
            R.ToolTipBase: "#2d2f33",
            R.ToolTipText: "#e8eaed",
            R.Link: "#8ab4f8",
            R.PlaceholderText: "#9aa0a6",
            R.Light: "#3c4043",
            R.Midlight: "#34373b",
            R.Mid: "#4a4d52",
            R.Dark: "#111214",
            R.Shadow: "#000000",
            R.BrightText: "#ffffff",
        },
        "#7f8489",
    )


def high_contrast() -> QPalette:
    """Black and white with yellow selection, in the manner of Windows' High Contrast Black."""
    R = QPalette.ColorRole
    return _palette(
        {
            R.Window: "#000000",
            R.WindowText: "#ffffff",
            R.Base: "#000000",
            R.AlternateBase: "#1a1a1a",
            R.Text: "#ffffff",
            R.Button: "#000000",
            R.ButtonText: "#ffffff",
            R.Highlight: "#ffff00",
            R.HighlightedText: "#000000",
            R.ToolTipBase: "#000000",
            R.ToolTipText: "#ffffff",
            R.Link: "#00ffff",
            R.PlaceholderText: "#c0c0c0",
            R.Light: "#ffffff",
            R.Midlight: "#ffffff",
            R.Mid: "#ffffff",
            R.Dark: "#ffffff",
            R.Shadow: "#ffffff",
            R.BrightText: "#ffff00",
        },
        "#3ff23f",
    )


class OutlinedIndicators(QProxyStyle):
    """Fusion with check boxes, radio buttons and text fields outlined in a readable colour.

    Fusion outlines them in a darker shade of the window colour: on a dark window that is nearly
    black on nearly black, and an unchecked box disappears. The outline here is the palette's
    placeholder-text colour, which every theme sets readable on its base.
    """

    _OUTLINED = (
        QStyle.PrimitiveElement.PE_IndicatorCheckBox,
        QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
        QStyle.PrimitiveElement.PE_IndicatorRadioButton,
        QStyle.PrimitiveElement.PE_PanelLineEdit,
    )

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in self._OUTLINED or option.rect.isEmpty():
            return
        if element == QStyle.PrimitiveElement.PE_PanelLineEdit and option.lineWidth <= 0:  # type: ignore[attr-defined]
            return  # frameless editors (inside spin boxes, table cells) stay frameless
        palette: QPalette = option.palette
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.PlaceholderText), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
        else:
            painter.drawRoundedRect(rect, 2, 2)
        painter.restore()


def apply(app: QApplication, theme: str | None) -> str:
    """Use ``theme`` ("system" or empty: leave the platform's palette alone)."""
    if theme not in ("dark", "high-contrast"):
        return "system"
    # Fusion draws everything from the palette; the proxy outlines what Fusion draws too faintly on dark.
    app.setStyle(OutlinedIndicators(QStyleFactory.create("Fusion")))
    app.setPalette(dark() if theme == "dark" else high_contrast())
    if theme == "high-contrast":
        app.setStyleSheet(HIGH_CONTRAST_SHEET)
    return theme


# Fusion outlines check boxes in a shade of the window colour, which on pure black is black.
HIGH_CONTRAST_SHEET = """
QCheckBox::indicator, QTableView::indicator {
    width: 13px; height: 13px; border: 2px solid #ffffff; background: #000000;
}
QCheckBox::indicator:checked, QTableView::indicator:checked { background: #ffff00; }
QCheckBox::indicator:focus { border-color: #ffff00; }
"""


def is_dark(palette: QPalette | None = None) -> bool:
    window = (palette or QApplication.palette()).color(QPalette.ColorRole.Window)
    return window.lightness() < 128


def error_colour() -> str:
    """Red that reads on the current window colour (dark red on light, light red on dark)."""
    return "#ff7b72" if is_dark() else "#a40000"


def muted_colour() -> str:
    """Secondary text: the palette's placeholder colour, which every theme sets readable."""
    return QApplication.palette().color(QPalette.ColorRole.PlaceholderText).name()

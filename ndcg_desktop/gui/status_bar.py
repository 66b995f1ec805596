"""The status bar's messages never run into its permanent labels (issue 36).

Qt draws a temporary message in the room left of the permanent widgets and cuts it there: at 1177 px a long
message ("Exported 8 files into /home/…/export") ran under "Grading as …" and the pace. While a message is
wider than that room, the permanent labels step aside; they return when the message ends. A message wider than
the whole bar keeps its text whole in the bar's tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QStatusBar, QWidget

MARGIN = 24  # the bar's own margins and the size grip, in pixels


class WholeMessages:
    """Binds ``bar``: ``sides`` (its permanent widgets) are hidden while a message needs their room."""

    def __init__(self, bar: QStatusBar, sides: Sequence[QWidget]) -> None:
        self.bar, self.sides = bar, list(sides)
        self.stepped_aside: list[QWidget] = []
        bar.messageChanged.connect(self._shown)

    def room(self) -> int:
        """The width a message has beside the permanent widgets shown now."""
        layout = self.bar.layout()
        spacing = layout.spacing() if layout is not None else 0
        taken: int = sum(int(w.width()) + spacing for w in self.sides if w.isVisible())
        return self.bar.width() - taken - MARGIN

    def _shown(self, text: str) -> None:
        if not text:
            for widget in self.stepped_aside:
                widget.show()
            self.stepped_aside = []
            self.bar.setToolTip("")
            return
        if self.bar.fontMetrics().horizontalAdvance(text) > self.room():
            for widget in self.sides:
                if widget.isVisible():
                    widget.hide()
                    self.stepped_aside.append(widget)
        self.bar.setToolTip(text if self.bar.fontMetrics().horizontalAdvance(text) > self.room() else "")

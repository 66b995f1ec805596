"""The dark theme's check boxes can be seen (issue 14: they were nearly invisible)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton

from ndcg_desktop.gui import themes

from .conftest import shot


@pytest.fixture
def dark(qapp):
    style, palette, sheet = qapp.style().name(), qapp.palette(), qapp.styleSheet()
    assert themes.apply(qapp, "dark") == "dark"
    yield
    qapp.setStyleSheet(sheet)
    qapp.setStyle(style)
    qapp.setPalette(palette)


def indicator_contrast(box) -> int:
    """Largest lightness difference between the check box's indicator and the window colour."""
    option = QStyleOptionButton()
    box.initStyleOption(option)
    rect = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    image = box.grab().toImage()
    window = QApplication.palette().color(QPalette.ColorRole.Window).lightness()
    return max(
        abs(QColor(image.pixel(x, y)).lightness() - window)
        for x in range(rect.left(), rect.right() + 1)
        for y in range(rect.top(), rect.bottom() + 1)
    )


def test_unchecked_boxes_stand_out_on_the_dark_window(dark, window, small_project, qtbot):
    window.resize(1200, 760)
    window.open_project(small_project)
    qtbot.wait(20)
    box = window.workspace.ungraded_only
    assert not box.isChecked()
    # Fusion's own outline on this palette differs by 11 (of 255) from the window: invisible.
    assert indicator_contrast(box) > 100
    shot(window, "theme_dark_workspace_checkbox")

"""The dark and high-contrast palettes: every view still reads (screenshots to look at)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from ndcg_desktop.gui import themes
from ndcg_desktop.tasks.freezing import freeze_draft

from .conftest import shot


@pytest.fixture
def themed(qapp):
    """Apply a theme for one test, then give the application its own style and palette back."""
    style, palette, sheet = qapp.style().name(), qapp.palette(), qapp.styleSheet()
    yield lambda name: themes.apply(qapp, name)
    qapp.setStyleSheet(sheet)
    qapp.setStyle(style)
    qapp.setPalette(palette)


@pytest.mark.parametrize("theme", ["dark", "high-contrast"])
def test_views_in_dark_and_high_contrast_palettes(themed, theme, window, small_project, qtbot):
    assert themed(theme) == theme
    assert themes.is_dark()
    from ndcg_desktop.store import Project

    with Project.open(small_project) as p:
        p.judgments.remove_ungraded(annotator="tester")
        freeze_draft(p, annotator="tester")
        p.pools.new_draft_from(1, annotator="tester")
    window.resize(1200, 760)
    window.open_project(small_project)
    qtbot.wait(30)
    shot(window, f"theme_{theme}_workspace")
    window.tabs.setCurrentIndex(1)
    view = window.analysis
    view.check()
    qtbot.waitUntil(lambda: view.report is not None, timeout=10_000)
    view.choices["unjudged"].setCurrentIndex(view.choices["unjudged"].findData("zero"))
    view.choices["unknown_queries"].setCurrentIndex(view.choices["unknown_queries"].findData("ignore"))
    view.results_panel.missed_only.setChecked(True)
    view.score_button.click()
    qtbot.waitUntil(lambda: view.evaluation is not None, timeout=10_000)
    qtbot.wait(30)
    shot(window, f"theme_{theme}_scores")
    text = QApplication.palette().color(QPalette.ColorRole.WindowText)
    window_colour = QApplication.palette().color(QPalette.ColorRole.Window)
    assert abs(text.lightness() - window_colour.lightness()) > 150  # the palette itself has contrast
    assert themes.error_colour() != "#a40000"  # errors switch to a red that reads on dark


def test_system_theme_leaves_the_palette_alone(themed, qapp):
    before = qapp.palette().color(QPalette.ColorRole.Window).name()
    assert themed("system") == "system"
    assert qapp.palette().color(QPalette.ColorRole.Window).name() == before

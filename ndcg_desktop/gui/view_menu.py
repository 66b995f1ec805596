"""*View ▸ Language* and *View ▸ Theme*: preferences that take effect at the next start (moved out of main_window)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMainWindow, QMenu, QMenuBar

from ndcg_desktop.gui.i18n import LANGUAGES
from ndcg_desktop.gui.preferences import Preferences

translate = QCoreApplication.translate


def add_view_menu(window: QMainWindow, bar: QMenuBar) -> QMenu:
    """The View menu of ``window``: radio items for the interface language and the theme."""
    view = bar.addMenu(translate("main_window", "&View"))
    _choice_menu(
        window,
        view.addMenu(translate("main_window", "&Language")),
        "language",
        [("", translate("main_window", "As the system")), *LANGUAGES.items()],
    )
    _choice_menu(
        window,
        view.addMenu(translate("main_window", "&Theme")),
        "theme",
        [
            ("", translate("main_window", "As the system")),
            ("dark", translate("main_window", "Dark")),
            ("high-contrast", translate("main_window", "High contrast")),
        ],
    )
    return view


def _choice_menu(window: QMainWindow, menu: QMenu, key: str, options: list[tuple[str, str]]) -> None:
    """Radio items for a preference that applies at the next start (language, theme), said above them.

    Applying either at once would leave every text and colour computed before the change as it was.
    """
    note = menu.addAction(translate("main_window", "Applies the next time ndcg-desktop starts"))
    note.setEnabled(False)  # a line of text in the menu, not a command
    menu.addSeparator()
    group = QActionGroup(menu)
    current = getattr(Preferences.load(), key)
    for value, text in options:
        action = QAction(text, menu, checkable=True, checked=value == current)
        action.triggered.connect(lambda _checked=False, v=value: _set_preference(window, key, v))
        group.addAction(action)
        menu.addAction(action)


def _set_preference(window: QMainWindow, key: str, value: str) -> None:
    preferences = Preferences.load()
    setattr(preferences, key, value)
    preferences.save()
    message = translate("main_window", "Saved; it takes effect the next time ndcg-desktop starts.")
    window.statusBar().showMessage(message, 8000)

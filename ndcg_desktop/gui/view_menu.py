"""*View ▸ Language*, *View ▸ Theme* (they take effect at the next start) and *View ▸ Annotator name…* (the name
the window and the command line credit grades to outside a work file: tasks.identity)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDialog, QInputDialog, QLabel, QLineEdit, QMainWindow, QMenu, QMenuBar, QMessageBox

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.cells import check_person
from ndcg_desktop.gui.i18n import LANGUAGES
from ndcg_desktop.gui.plain import show_message
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
    view.addSeparator()
    name = view.addAction(translate("main_window", "&Annotator name…"))
    name.triggered.connect(lambda _checked=False: ask_annotator_name(window))
    return view


def annotator_name_dialog(window: QMainWindow) -> QInputDialog:
    """View ▸ Annotator name…'s question: its long explanation wraps, so the dialog is a reading width wide
    (it was 1,187 px, the explanation on one line)."""
    dialog = QInputDialog(window)
    dialog.setWindowTitle(translate("main_window", "Annotator name"))
    dialog.setLabelText(
        translate(
            "main_window",
            "Grades you give are credited to this name (NDCG_USER, when set, overrides it; inside a work file, "
            "its annotator grades). Empty: your login name. It applies to the projects you open from now on.",
        )
    )
    dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
    dialog.setTextValue(Preferences.load().annotator)
    for label in dialog.findChildren(QLabel):
        label.setWordWrap(True)
    em = dialog.fontMetrics().horizontalAdvance("M")
    dialog.setFixedWidth(min(44 * em, 520))
    return dialog


def ask_annotator_name(window: QMainWindow, typed: str | None = None) -> bool:
    """Ask for (or take ``typed`` as) the name grades are credited to outside a work file; empty: the login name.
    Saved in the preferences, which the command line reads too; a project opened from now on uses it."""
    if typed is None:
        dialog = annotator_name_dialog(window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        text = dialog.textValue()
        typed = text
    name = typed.strip()
    try:
        if name:
            name = check_person(name, "annotator name")
    except InputError as exc:
        show_message(window, QMessageBox.Icon.Warning, "ndcg-desktop", exc.located())
        return False
    preferences = Preferences.load()
    preferences.annotator = name
    preferences.save()
    if hasattr(window, "prefs"):
        window.prefs.annotator = name  # the window's copy of the preferences, written on close
    message = translate("main_window", "Saved; it applies to the projects you open from now on.")
    window.statusBar().showMessage(message, 8000)
    return True


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

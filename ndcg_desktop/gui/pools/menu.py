"""Pool-menu entries that each open one dialog for the open project, written once for every such dialog."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from ndcg_desktop.tasks.project import Project


class ProjectDialogs(QObject):
    """The dialogs a set of menu entries opens, one of each kind for the open project: opening one again brings it
    forward, and a dialog left open when another project (or none) is opened is closed, never shown stale."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.dialogs: dict[str, Any] = {}
        self.dialog_for: Project | None = None  # the project the dialogs were opened for
        self.actions: list[QAction] = []

    def add(self, menu: Any, text: str, opens: Callable[[], Any], shortcut: str | None = None) -> QAction:
        action = QAction(text, self.window)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: opens())
        menu.addAction(action)
        self.actions.append(action)
        return action

    def update(self, project: Project | None) -> None:
        """Enabled with a project open; a dialog left open for another project (or none) is closed."""
        for action in self.actions:
            action.setEnabled(project is not None)
        if self.dialog_for is not project:
            for dialog in self.dialogs.values():
                dialog.forget()
                dialog.close()
                dialog.deleteLater()
            self.dialogs = {}

    def open_dialog(self, kind: str, make: Callable[..., Any]) -> Any:
        """The ``kind`` dialog for the open project (``make(project, window, slot=...)`` the first time), shown."""
        project = self.window.project
        if project is None:
            return None
        if kind not in self.dialogs:
            self.dialogs[kind] = make(project, self.window, slot=self.window.slot)
            self.dialog_for = project
        dialog = self.dialogs[kind]
        if dialog.isVisible():
            dialog.raise_()  # open already: bring it forward
        dialog.show()
        dialog.activateWindow()
        return dialog

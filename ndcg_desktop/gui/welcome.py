"""The welcome page: new, open, demo, and the recent projects."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from ndcg_desktop.gui.preferences import recent_projects
from ndcg_desktop.gui.themes import muted_colour

if TYPE_CHECKING:
    from ndcg_desktop.gui.main_window import MainWindow

# Its strings keep the "main_window" context they were translated under.
translate = QCoreApplication.translate


class WelcomePage(QWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        title = QLabel("ndcg-desktop")  # the application's name, not translated
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 2.2)
        font.setBold(True)
        title.setFont(font)
        subtitle = QLabel(
            translate(
                "main_window",
                "Build and freeze graded judgment pools, then score runs against a fixed judged universe, "
                "with every evaluation choice explicit.",
            )
        )
        subtitle.setWordWrap(True)
        buttons = QHBoxLayout()
        self.buttons: list[QPushButton] = []
        for text, slot, name in (
            (translate("main_window", "New project…"), window.new_project, "new"),
            (translate("main_window", "Open project…"), window.open_project_dialog, "open"),
            (translate("main_window", "Open demo"), window.open_demo, "demo"),
        ):
            button = QPushButton(text)
            button.setAccessibleName(text)
            button.setObjectName(f"welcome_{name}")
            button.setMinimumHeight(40)
            button.setMinimumWidth(150)
            button.clicked.connect(slot)
            buttons.addWidget(button)
            self.buttons.append(button)
        buttons.addStretch(1)
        self.recent = QListWidget()
        self.recent.setAccessibleName(translate("main_window", "Recent projects"))
        self.recent.itemActivated.connect(lambda item: window.open_project(item.data(Qt.ItemDataRole.UserRole)))
        self.recent_label = QLabel(translate("main_window", "<b>Recent projects</b>"))
        self.recent_label.setBuddy(self.recent)
        self.empty_hint = QLabel(translate("main_window", "Projects you open or create will be listed here."))
        self.empty_hint.setStyleSheet(f"color:{muted_colour()}")
        column = QWidget()
        column.setMaximumWidth(760)
        layout = QVBoxLayout(column)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(14)
        layout.addWidget(title)
        layout.addWidget(subtitle)
        layout.addSpacing(8)
        layout.addLayout(buttons)
        layout.addSpacing(16)
        layout.addWidget(self.recent_label)
        layout.addWidget(self.empty_hint)
        layout.addWidget(self.recent, 1)
        hint = QLabel(
            translate(
                "main_window", "Every change is stored in the project file the moment you make it: there is no Save."
            )
        )
        hint.setStyleSheet(f"color:{muted_colour()}")
        layout.addWidget(hint)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(48, 40, 48, 32)
        outer.addStretch(1)
        outer.addWidget(column, 4)
        outer.addStretch(1)
        for first, second in zip([*self.buttons, self.recent], [*self.buttons, self.recent][1:], strict=False):
            QWidget.setTabOrder(first, second)

    def refresh(self) -> None:
        self.recent.clear()
        for path in recent_projects():
            item = QListWidgetItem(f"{Path(path).name}    —    {Path(path).parent}")
            item.setData(Qt.ItemDataRole.UserRole, path)
            item.setToolTip(path)
            self.recent.addItem(item)
        empty = self.recent.count() == 0
        self.recent.setVisible(not empty)
        self.empty_hint.setVisible(empty)

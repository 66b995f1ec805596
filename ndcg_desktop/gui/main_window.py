"""The main window: welcome page, workspace, menus, and long work behind progress dialogs."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop import __version__
from ndcg_desktop.domain import InputError
from ndcg_desktop.gui.analysis import AnalysisView
from ndcg_desktop.gui.dialogs import BuildPoolDialog, FreezeDialog, ImportRunDialog, NewProjectDialog, ShortcutsDialog
from ndcg_desktop.gui.preferences import Preferences, forget_project, recent_projects, remember_project, ui_state
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.gui.workspace import Workspace
from ndcg_desktop.store import SUFFIX, PoolVersion, Project, ProjectInUse
from ndcg_desktop.store.project import default_user

FILTER = f"ndcg-desktop projects (*{SUFFIX})"


class WelcomePage(QWidget):
    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        title = QLabel("ndcg-desktop")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 2.2)
        font.setBold(True)
        title.setFont(font)
        subtitle = QLabel(
            "Build and freeze graded judgment pools, then score runs against a fixed judged universe, "
            "with every evaluation choice explicit."
        )
        subtitle.setWordWrap(True)
        buttons = QHBoxLayout()
        for text, slot, name in (
            ("New project…", window.new_project, "new"),
            ("Open project…", window.open_project_dialog, "open"),
            ("Open demo", window.open_demo, "demo"),
        ):
            button = QPushButton(text)
            button.setObjectName(f"welcome_{name}")
            button.setMinimumHeight(40)
            button.setMinimumWidth(150)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.recent = QListWidget()
        self.recent.setAccessibleName("Recent projects")
        self.recent.itemActivated.connect(lambda item: window.open_project(item.data(Qt.ItemDataRole.UserRole)))
        self.recent_label = QLabel("<b>Recent projects</b>")
        self.empty_hint = QLabel("Projects you open or create will be listed here.")
        self.empty_hint.setStyleSheet("color:#666")
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
        hint = QLabel("Every change is stored in the project file the moment you make it: there is no Save.")
        hint.setStyleSheet("color:#666")
        layout.addWidget(hint)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(48, 40, 48, 32)
        outer.addStretch(1)
        outer.addWidget(column, 4)
        outer.addStretch(1)

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


class MainWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("ndcg-desktop")
        self.prefs = Preferences.load()
        self.project: Project | None = None
        self.undo_stack = QUndoStack(self)
        self.welcome = WelcomePage(self)
        self.workspace = Workspace(self.undo_stack)
        self.workspace.error.connect(self.show_error)
        self.workspace.progress_changed.connect(self._progress)
        self.analysis = AnalysisView()
        self.analysis.error.connect(self.show_error)
        self.analysis.sent_for_judging.connect(self._sent_for_judging)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.workspace, "Annotate")
        scroller = QScrollArea()  # small or scaled screens scroll instead of forcing a big window
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setWidget(self.analysis)
        self.tabs.addTab(scroller, "Scores")
        self.tabs.currentChanged.connect(lambda _i: self._update_actions())
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)
        self.version_box = QComboBox()
        self.version_box.setAccessibleName("Pool version")
        self.version_box.setMinimumContentsLength(26)
        self.version_box.activated.connect(self._version_chosen)
        self._build_menus()
        self.saved_label = QLabel("All changes are saved as you make them")
        self.progress_label = QLabel()
        self.progress_label.setMinimumWidth(260)
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.statusBar().addWidget(self.saved_label)
        self.statusBar().addPermanentWidget(self.progress_label)
        screen = self.screen().availableGeometry()
        self.resize(min(1280, int(screen.width() * 0.92)), min(800, int(screen.height() * 0.9)))
        self._restore_state()
        self.welcome.refresh()
        self._update_actions()

    # -- menus -----------------------------------------------------------------------------
    def _action(self, menu: Any, text: str, slot: Callable[[], Any], shortcut: Any = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&New project…", self.new_project, QKeySequence.StandardKey.New)
        self._action(file, "&Open project…", self.open_project_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(file, "Open &demo project", self.open_demo)
        file.addSeparator()
        self.import_actions = [
            self._action(file, "Import &queries…", self.import_queries),
            self._action(file, "Import &documents…", self.import_documents),
            self._action(file, "Import &judgments…", self.import_judgments),
            self._action(file, "Import &run…", self.import_run),
        ]
        file.addSeparator()
        self.close_action = self._action(file, "&Close project", self.close_project, QKeySequence.StandardKey.Close)
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        edit = bar.addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addAction(undo)
        edit.addAction(redo)
        pool = bar.addMenu("&Pool")
        self.pool_action = self._action(pool, "&Build pool from runs…", self.build_pool, "Ctrl+Shift+P")
        self.freeze_action = self._action(pool, "&Freeze draft…", self.freeze, "Ctrl+Shift+F")
        self.new_draft_action = self._action(pool, "&New draft from this version", self.new_draft)
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&Keyboard shortcuts", lambda: ShortcutsDialog(self).exec(), "F1")
        self._action(help_menu, "&About ndcg-desktop", self.about)
        toolbar = QToolBar("Pool version")
        toolbar.setObjectName("version_toolbar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(" Pool version: "))
        toolbar.addWidget(self.version_box)
        self.addToolBar(toolbar)
        self.toolbar = toolbar

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in recent_projects():
            self._action(self.recent_menu, path, lambda p=path: self.open_project(p))
        if not self.recent_menu.actions():
            self.recent_menu.addAction("No recent projects").setEnabled(False)

    def _update_actions(self) -> None:
        open_ = self.project is not None
        writable = open_ and not self.project.read_only  # type: ignore[union-attr]
        version = self.current_version()
        for action in self.import_actions:
            action.setEnabled(writable)
        self.close_action.setEnabled(open_)
        self.pool_action.setEnabled(writable and bool(self.project and self.project.runs()))
        self.freeze_action.setEnabled(writable and version is not None and not version.frozen)
        has_draft = bool(self.project and self.project.draft())
        self.new_draft_action.setEnabled(writable and version is not None and version.frozen and not has_draft)
        self.toolbar.setVisible(open_ and self.tabs.currentWidget() is self.workspace)

    # -- projects --------------------------------------------------------------------------
    def annotator(self) -> str:
        return self.prefs.annotator or default_user()

    def new_project(self) -> None:
        dialog = NewProjectDialog(self.prefs.annotator or default_user(), self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Create project", str(Path.home() / f"evaluation{SUFFIX}"), FILTER)
        if not path:
            return
        if not path.endswith(SUFFIX):
            path += SUFFIX
        self.prefs.annotator = dialog.annotator.text().strip()
        self.prefs.save()
        try:
            Project.create(path, scale=dialog.scale(), labels=dialog.labels(), user=self.annotator()).close()
        except InputError as exc:
            self.show_error(str(exc))
            return
        self.open_project(path)

    def open_project_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open project", str(Path.home()), FILTER)
        if path:
            self.open_project(path)

    def open_demo(self) -> None:
        from ndcg_desktop.demo import ensure_demo

        try:
            self.open_project(ensure_demo())
        except InputError as exc:
            self.show_error(str(exc))

    def open_project(self, path: str | Path) -> bool:
        self.close_project()
        try:
            project = Project.open(path, user=self.annotator())
        except ProjectInUse as exc:
            answer = QMessageBox.question(
                self, "Project in use", f"{exc}\n\nOpen it read-only?",
                QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
            )  # fmt: skip
            if answer != QMessageBox.StandardButton.Open:
                return False
            project = Project.open(path, read_only=True, user=self.annotator())
        except InputError as exc:
            self.show_error(str(exc))
            if not Path(path).exists():
                forget_project(str(path))
                self.welcome.refresh()
            return False
        self.project = project
        remember_project(project.path)
        self.stack.setCurrentWidget(self.tabs)
        self.refresh(prefer_draft=True)
        # Loading leaves many long-lived objects; freezing them keeps full collections (tens of
        # ms on a big project) out of the key presses that follow.
        gc.collect()
        gc.freeze()
        return True

    def close_project(self) -> None:
        if self.project is None:
            return
        self._save_state()
        self.undo_stack.clear()
        self.project.close()
        self.project = None
        self.version_box.clear()
        self.analysis.set_project(None)
        self.stack.setCurrentWidget(self.welcome)
        self.welcome.refresh()
        self.setWindowTitle("ndcg-desktop")
        self.progress_label.clear()
        self._update_actions()

    def current_version(self) -> PoolVersion | None:
        if self.project is None or self.version_box.currentIndex() < 0:
            return None
        number = self.version_box.currentData()
        return self.project.version(number) if number is not None else None

    def refresh(self, *, prefer_draft: bool = False, version: int | None = None) -> None:
        """Reload versions and the workspace after anything changed the project."""
        assert self.project is not None
        versions = self.project.versions()
        current = version if version is not None else self.version_box.currentData()
        self.version_box.clear()
        for v in reversed(versions):
            text = f"v{v.version} · frozen · {v.short_hash}…" if v.frozen else f"v{v.version} · draft"
            self.version_box.addItem(text, v.version)
        if prefer_draft or current is None:
            draft = self.project.draft()
            current = draft.version if draft else (versions[-1].version if versions else None)
        if current is not None:
            self.version_box.setCurrentIndex(self.version_box.findData(current))
        self._show_current()
        self.analysis.set_project(self.project)

    def _version_chosen(self, _index: int) -> None:
        self.undo_stack.clear()  # commands belong to the version they were made in
        self._show_current()

    def _show_current(self) -> None:
        assert self.project is not None
        version = self.current_version()
        name = self.project.path.name + (" (read-only)" if self.project.read_only else "")
        if version is None:
            self.workspace.project = self.project
            self.workspace.version = None
            self.workspace.queries.load(self.project.query_progress(-1), frozen=False)
            self.workspace.select_query_row(0)
            self.progress_label.setText(
                "No pool yet: import judgments (File ▸ Import judgments) or build one from runs"
            )
            self.setWindowTitle(f"{name} — ndcg-desktop")
        else:
            self.workspace.show_version(self.project, version)
            state = "frozen" if version.frozen else "draft"
            self.setWindowTitle(f"{name} — pool v{version.version} ({state}) — ndcg-desktop")
            self.workspace.grade_bar.setEnabled(not version.frozen and not self.project.read_only)
        self._update_actions()

    def _sent_for_judging(self, message: str) -> None:
        self.undo_stack.clear()
        self.refresh(prefer_draft=True)
        self.tabs.setCurrentWidget(self.workspace)
        QMessageBox.information(self, "Sent for judging", message)

    def _progress(self, graded: int, total: int) -> None:
        version = self.current_version()
        if version is None:
            return
        share = f" ({100 * graded / total:.0f}%)" if total else ""
        self.progress_label.setText(f"Pool v{version.version}: {graded:,} of {total:,} graded{share}")

    # -- long work ---------------------------------------------------------------------------
    def _background(self, title: str, fn: Callable[..., Any], done: Callable[[Any], None]) -> None:
        def cancelled() -> None:
            self.statusBar().showMessage("Cancelled: the project is unchanged.", 6000)

        run_with_progress(self, title, fn, done, self.show_error, cancelled)

    def _pick(self, title: str, filters: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(self, title, str(Path.home()), filters)
        return path or None

    def import_queries(self, path: str | None = None) -> None:
        path = path or self._pick("Import queries", "Queries (*.tsv *.csv *.jsonl *.txt *.gz);;All files (*)")
        if not path or self.project is None:
            return
        project = self.project
        self._background("Importing queries…", lambda **_: project.import_queries(path),
                         lambda n: self._imported(f"Imported {n} queries."))  # fmt: skip

    def import_documents(self, path: str | None = None) -> None:
        path = path or self._pick("Import documents", "Documents (*.jsonl *.csv *.tsv *.gz);;All files (*)")
        if not path or self.project is None:
            return
        project = self.project
        self._background(
            "Importing documents…",
            lambda progress, cancelled: project.import_documents(path, progress=progress, cancelled=cancelled),
            lambda n: self._imported(f"Imported {n} documents."),
        )

    def import_judgments(self, path: str | None = None) -> None:
        path = path or self._pick("Import judgments", "Judgments (*.txt *.qrels *.csv *.tsv *.gz);;All files (*)")
        if not path or self.project is None:
            return
        project = self.project
        self._background(
            "Importing judgments…",
            lambda **_: project.import_qrels(path, negative_as_ungraded=True),
            lambda r: self._imported(
                f"Judgments: {r['added']} added, {r['graded_existing']} pool items graded, {r['ungraded']} ungraded.",
                prefer_draft=True,
            ),
        )

    def import_run(self, path: str | None = None, values: tuple[str, Any, str | None, Any] | None = None) -> None:
        path = path or self._pick("Import run", "Runs (*.txt *.run *.trec *.csv *.tsv *.jsonl *.gz);;All files (*)")
        if not path or self.project is None:
            return
        if values is None:
            dialog = ImportRunDialog(Path(path).stem, [r.name for r in self.project.runs()], path, self)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            values = dialog.values()
        name, ties, id_map, order = values
        project = self.project
        self._background(
            "Importing run…",
            lambda **_: project.import_run(path, name=name, ties=ties, id_map=id_map, order=order),
            lambda info: self._imported(f"Imported run {info.name}: {info.rows} documents for {info.queries} queries."),
        )

    def _imported(self, message: str, *, prefer_draft: bool = False) -> None:
        self.statusBar().showMessage(message, 8000)
        self.refresh(prefer_draft=prefer_draft)

    def build_pool(self) -> None:
        if self.project is None:
            return
        project = self.project
        preview = lambda names, depth: project.pool_from_runs(names, depth, apply=False)  # noqa: E731
        dialog = BuildPoolDialog([r.name for r in project.runs()], preview, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        names, depth = dialog.chosen()
        self._background(
            "Adding documents to the draft pool…",
            lambda **_: project.pool_from_runs(names, depth),
            lambda counts: self._imported(
                f"Added {int(counts['new'].sum())} documents to the draft pool; they await grading.",
                prefer_draft=True,
            ),
        )

    def freeze(self) -> None:
        version = self.current_version()
        if self.project is None or version is None or version.frozen:
            return
        items = self.project.pool_items(version.version)
        dialog = FreezeDialog(version.version, items, version.labels, version.scale.low, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            frozen = self.project.freeze(version=version.version, remove_ungraded=dialog.remove.isChecked())
        except InputError as exc:
            self.show_error(str(exc))
            return
        self.undo_stack.clear()
        self.refresh(version=frozen.version)
        QMessageBox.information(
            self, "Pool frozen",
            f"Pool version {frozen.version} is frozen.\n\nSHA-256:\n{frozen.hash}\n\n"
            "Scores computed against it will name this version and hash.",
        )  # fmt: skip

    def new_draft(self) -> None:
        version = self.current_version()
        if self.project is None or version is None:
            return
        try:
            draft = self.project.new_draft_from(version.version)
        except InputError as exc:
            self.show_error(str(exc))
            return
        self.undo_stack.clear()
        self.refresh(version=draft.version)
        self.statusBar().showMessage(f"Draft v{draft.version} started from v{version.version}.", 8000)

    # -- misc ------------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        QMessageBox.warning(self, "ndcg-desktop", message)

    def about(self) -> None:
        QMessageBox.about(
            self, "About ndcg-desktop",
            f"<b>ndcg-desktop {__version__}</b><p>Graded judgment pools that freeze, and NDCG against a fixed "
            "judged universe, with every evaluation choice explicit.</p>",
        )  # fmt: skip

    def _restore_state(self) -> None:
        state = ui_state()
        geometry = state.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        for key, widget in (("splitter", self.workspace.splitter),):
            value = state.value(f"window/{key}")
            if isinstance(value, QByteArray):
                widget.restoreState(value)
        for key, view in (("queries", self.workspace.query_view), ("pool", self.workspace.pool_view)):
            value = state.value(f"columns/{key}")
            if isinstance(value, QByteArray):
                view.horizontalHeader().restoreState(value)

    def _save_state(self) -> None:
        state = ui_state()
        state.setValue("window/geometry", self.saveGeometry())
        state.setValue("window/splitter", self.workspace.splitter.saveState())
        state.setValue("columns/queries", self.workspace.query_view.horizontalHeader().saveState())
        state.setValue("columns/pool", self.workspace.pool_view.horizontalHeader().saveState())
        state.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._save_state()
        self.close_project()
        event.accept()

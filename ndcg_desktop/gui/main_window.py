"""The main window: the welcome page, the Annotate and Scores tabs, menus, and long work behind progress dialogs."""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QEventLoop, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QScrollArea,
    QStackedWidget,
    QTabWidget,
)

from ndcg_desktop import __version__
from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.progress import Cancelled
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.agreement import AgreementView
from ndcg_desktop.gui.annotate.workspace import Workspace
from ndcg_desktop.gui.judge import JudgeActions
from ndcg_desktop.gui.pace_status import PaceLabel
from ndcg_desktop.gui.plain import show_message
from ndcg_desktop.gui.pools.diff import PoolDiffAction
from ndcg_desktop.gui.pools.economics import EconomicsAction
from ndcg_desktop.gui.pools.editing import PoolEditor
from ndcg_desktop.gui.pools.studies import StudiesAction
from ndcg_desktop.gui.preferences import Preferences, forget_project, recent_projects, remember_project, ui_state
from ndcg_desktop.gui.project.actions import ProjectActions
from ndcg_desktop.gui.project.dialogs import NewProjectDialog, ShortcutsDialog
from ndcg_desktop.gui.runs import RunsView
from ndcg_desktop.gui.scores import ScoresView
from ndcg_desktop.gui.scores.send import SendForJudgingCommand
from ndcg_desktop.gui.status_bar import WholeMessages
from ndcg_desktop.gui.tasks import Task, run_with_progress, task_events
from ndcg_desktop.gui.team import TeamActions
from ndcg_desktop.gui.view_menu import add_view_menu
from ndcg_desktop.gui.welcome import WelcomePage
from ndcg_desktop.sessions import annotate
from ndcg_desktop.sessions.events import ItemsChanged, ProjectEvent, ProjectSlot, VersionsChanged
from ndcg_desktop.tasks import (
    NegativeGrades,
    SentForJudging,
)
from ndcg_desktop.tasks.identity import Opened, default_user, grading_name, open_to_grade, stated_user
from ndcg_desktop.tasks.project import (
    SUFFIX,
    FrozenVersionChanged,
    PoolVersion,
    Project,
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    create_project,
    open_project,
    take_over,
)
from ndcg_desktop.tasks.work_files import work_origin

translate = QCoreApplication.translate


def project_filter() -> str:
    """The file-dialog filter for project files, in the interface language."""
    return translate("main_window", "ndcg-desktop projects (*{suffix})").format(suffix=SUFFIX)


class MainWindow(QMainWindow):
    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("ndcg-desktop")  # the application's name, not translated
        self.prefs = Preferences.load()
        # The open project and its events: every view's session follows the slot; nothing is fanned out by hand.
        self.slot = ProjectSlot()
        self._open_ticket = 0  # drawn by each open; a check's result under an older one is dropped (open_project)
        self.slot.subscribe(self._project_event)
        task_events().refused.connect(self.slot.refused)  # a task met a changed frozen version
        task_events().ended.connect(self.slot.check)  # a task may have written on its own connection
        self._watch_timer = QTimer(self)  # another program's writes (read-only windows, raw SQL on a draft)
        self._watch_timer.setInterval(2000)
        self._watch_timer.timeout.connect(self.slot.check)
        self._watch_timer.start()
        self.undo_stack = QUndoStack(self)
        self.welcome = WelcomePage(self)
        self.workspace = Workspace(self.undo_stack, slot=self.slot)
        self.workspace.session.changed.connect(self._annotate_changed)  # the version it shows: box, title, actions
        self.workspace.refused.connect(self._refused)
        self.workspace.status.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self.workspace.progress_changed.connect(self._progress)
        self.scores = ScoresView(slot=self.slot)
        self.agreement = AgreementView(slot=self.slot)
        self.runs = RunsView(slot=self.slot)
        for view in (self.workspace, self.scores, self.agreement, self.runs):
            view.error.connect(self.show_error)
        for view in (self.scores, self.agreement, self.runs):
            view.exported.connect(self._exported)
        self.scores.sent_for_judging.connect(self._sent_for_judging)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.setAccessibleName(translate("main_window", "Project views"))
        self.tabs.addTab(self.workspace, translate("main_window", "Annotate"))
        scroller = QScrollArea()  # small or scaled screens scroll instead of forcing a big window
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setWidget(self.scores)
        self.tabs.addTab(scroller, translate("main_window", "Scores"))
        self.tabs.addTab(self.agreement, translate("main_window", "Agreement"))
        self.tabs.addTab(self.runs, translate("main_window", "Runs"))
        self.tabs.currentChanged.connect(lambda _i: self._update_actions())
        self.stack = QStackedWidget()
        self.stack.addWidget(self.welcome)
        self.stack.addWidget(self.tabs)
        self.setCentralWidget(self.stack)
        self.version_box = QComboBox()
        self.version_box.setAccessibleName(translate("main_window", "Pool version"))
        self.version_box.setMinimumContentsLength(26)
        self.version_box.activated.connect(self._version_chosen)
        self.pool_editor = PoolEditor(self)
        self.project_actions = ProjectActions(self)
        self._build_menus()
        self.saved_label = QLabel(translate("main_window", "All changes are saved as you make them"))
        self.progress_label = QLabel()
        self.progress_label.setAccessibleName(translate("main_window", "Grading progress"))
        self.progress_label.setMinimumWidth(260)
        self.progress_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.pace_label = PaceLabel()
        self.statusBar().addWidget(self.saved_label)
        self.grader_label = QLabel()  # whom a work file's grades are credited to
        self.grader_label.setAccessibleName(translate("main_window", "Grading as"))
        self.statusBar().addPermanentWidget(self.grader_label)
        self.statusBar().addPermanentWidget(self.pace_label)
        self.statusBar().addPermanentWidget(self.progress_label)
        self.whole_messages = WholeMessages(self.statusBar(), (self.grader_label, self.pace_label, self.progress_label))
        screen = self.screen().availableGeometry()
        self.resize(min(1280, int(screen.width() * 0.92)), min(800, int(screen.height() * 0.9)))
        self._restore_state()
        self.welcome.refresh()
        self._update_actions()
        # What start-up made (the imported libraries: most of the heap) is out of the collector's sight, so the
        # collection after a project opens walks only what came since (a whole heap's walk held the window 70-130
        # ms). Freezing is cheap; the little garbage start-up leaves is kept.
        gc.freeze()

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
        file = bar.addMenu(translate("main_window", "&File"))
        self._action(file, translate("main_window", "&New project…"), self.new_project, QKeySequence.StandardKey.New)
        self._action(
            file, translate("main_window", "&Open project…"), self.open_project_dialog, QKeySequence.StandardKey.Open
        )
        self.recent_menu = file.addMenu(translate("main_window", "Open &recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(file, translate("main_window", "Open &demo project"), self.open_demo)
        file.addSeparator()
        self.import_actions = [
            self._action(file, translate("main_window", "Import &queries…"), self.import_queries),
            self._action(file, translate("main_window", "Import &documents…"), self.import_documents),
            self._action(file, translate("main_window", "Import &judgments…"), self.import_judgments),
            self._action(file, translate("main_window", "Import &run…"), self.import_run),
        ]
        file.addSeparator()
        self.close_action = self._action(file, translate("main_window", "&Close project"), self.close_project, "Ctrl+W")
        self._action(file, translate("main_window", "&Quit"), self.close, QKeySequence.StandardKey.Quit)
        edit = bar.addMenu(translate("main_window", "&Edit"))
        undo = self.undo_stack.createUndoAction(self)
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.undo_stack.createRedoAction(self)
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        # Qt would glue a prefix to the command's text; whole sentences let a translator order the words.
        self.undo_stack.undoTextChanged.connect(lambda text: self._name_undo(undo, text))
        self.undo_stack.redoTextChanged.connect(lambda text: self._name_redo(redo, text))
        self._name_undo(undo, self.undo_stack.undoText())
        self._name_redo(redo, self.undo_stack.redoText())
        edit.addAction(undo)
        edit.addAction(redo)
        pool = bar.addMenu(translate("main_window", "&Pool"))
        self.pool_action = self._action(
            pool, translate("main_window", "&Build pool from runs…"), self.build_pool, "Ctrl+Shift+P"
        )
        self.next_batches_action = self._action(
            pool, translate("main_window", "Add next &batches (adaptive pool)"), self.next_batches
        )
        self.freeze_action = self._action(pool, translate("main_window", "&Freeze draft…"), self.freeze, "Ctrl+Shift+F")
        self.new_draft_action = self._action(
            pool, translate("main_window", "&New draft from this version"), self.new_draft
        )
        self.pool_editor.add_actions(pool)  # add, remove, discard, export qrels
        self.team = TeamActions(self, pool)  # Assign work…, Merge returned work…, the Adjudicate tab
        self.pool_diff = PoolDiffAction(self, pool)  # Compare pool versions… (Ctrl+Shift+D)
        self.economics = EconomicsAction(self, pool)  # Pool economics…
        self.studies = StudiesAction(self, pool)  # Simulate pooling…, Reusability…
        self.judge = JudgeActions(self, pool)  # Judge with a model…
        add_view_menu(self, bar)  # Language, Theme
        help_menu = bar.addMenu(translate("main_window", "&Help"))
        self._action(
            help_menu,
            translate("main_window", "&Keyboard shortcuts"),
            lambda: ShortcutsDialog(self, self.workspace.grade_keys(), self.workspace.digit_keys()).exec(),
            "F1",
        )
        self._action(help_menu, translate("main_window", "&About ndcg-desktop"), self.about)
        # The version graded and edited belongs to the Annotate tab (the Pool menu acts on it); the other views
        # choose their own frozen version. Above the tabs it claimed a place on views it does not drive.
        version_label = QLabel(translate("main_window", " Pool version: "))
        version_label.setBuddy(self.version_box)
        row = QHBoxLayout()
        row.addWidget(version_label)
        row.addWidget(self.version_box)
        row.addStretch(1)
        self.workspace.put_above(row)

    @staticmethod
    def _name_undo(action: QAction, text: str) -> None:
        if text:
            action.setText(translate("main_window", "&Undo {action}").format(action=text))
        else:
            action.setText(translate("main_window", "&Undo"))

    @staticmethod
    def _name_redo(action: QAction, text: str) -> None:
        if text:
            action.setText(translate("main_window", "&Redo {action}").format(action=text))
        else:
            action.setText(translate("main_window", "&Redo"))

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in recent_projects():
            self._action(self.recent_menu, path, functools.partial(self.open_project, path))
        if not self.recent_menu.actions():
            self.recent_menu.addAction(translate("main_window", "No recent projects")).setEnabled(False)

    def _update_actions(self) -> None:
        open_ = self.project is not None
        writable = open_ and not self.project.read_only  # type: ignore[union-attr]
        version = self.current_version()
        for action in self.import_actions:
            action.setEnabled(writable)
        self.close_action.setEnabled(open_)
        self.pool_action.setEnabled(writable)  # without runs, the dialog says to import one first
        self.freeze_action.setEnabled(writable and version is not None and not version.frozen)
        has_draft = bool(self.project and self.project.pools.draft())
        self.new_draft_action.setEnabled(writable and version is not None and version.frozen and not has_draft)
        self.pool_editor.update_actions(writable, version, has_draft)
        self.team.update()
        work_file = self.project is not None and work_origin(self.project) is not None
        self.judge.update(writable=writable, has_draft=has_draft, work_file=work_file)
        self.pool_diff.update(self.project)
        self.economics.update(self.project)
        self.studies.update(self.project)
        self.next_batches_action.setEnabled(writable and has_draft and not work_file)
        # On every tab (the Pool menu acts on its version): shown on one only, it moved the tab bar by its height.

    # -- projects --------------------------------------------------------------------------
    @property
    def project(self) -> Project | None:
        """The open project (the slot's)."""
        return self.slot.project

    def annotator(self) -> str:
        """Who grades outside a work file: NDCG_USER, else the saved name, else the login (tasks.identity)."""
        return grading_name()

    def new_project(self) -> None:
        dialog = NewProjectDialog(self.prefs.annotator or default_user(), self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        path, _ = file_dialogs.save_file(
            self, translate("main_window", "Create project"), f"evaluation{SUFFIX}", project_filter()
        )
        if not path:
            return
        if not path.endswith(SUFFIX):
            path += SUFFIX
        typed = dialog.annotator.text().strip()
        # The login name offered and accepted states nobody: saved, it would refuse every work file handed to
        # another name (tasks.identity.annotator) although the user never chose it.
        self.prefs.annotator = "" if typed == default_user() and not self.prefs.annotator else typed
        self.prefs.save()
        try:
            create_project(path, scale=dialog.scale(), labels=dialog.labels(), annotator=self.annotator()).close()
        except InputError as exc:
            self.show_error(exc.located())
            return
        self.open_project(path)

    def open_project_dialog(self) -> None:
        path = file_dialogs.open_file(self, translate("main_window", "Open project"), project_filter())
        if path:
            self.open_project(path)

    def open_demo(self) -> None:
        from ndcg_desktop.demo import ensure_demo

        try:
            self.open_project(ensure_demo())
        except InputError as exc:
            self.show_error(exc.located())

    def open_project(self, path: str | Path) -> bool:
        """Open ``path``; the project open before is closed only once this one opened (a refusal, a missing
        file or a Cancel leaves it open, its views and undo history as they were).

        The file is opened and checked on a worker (SQLite's quick_check, every stored field by its class, the
        protection triggers, who grades: a third of a second for 100,000 judgments) while the window goes on
        painting; nothing of it is shown, and nothing written, before the check has passed. Opening another
        project meanwhile, closing it or closing the window drops the late result: that file is closed unseen.
        """
        if self.project is not None and Path(path).resolve() == self.project.path.resolve():
            if not self.project.read_only:
                return True  # open already, for writing: nothing to do (its own lock would refuse a second open)
            # open read-only: a read-only open holds no lock, so the writable one is tried beside it
        self._open_ticket += 1
        ticket, stated, annotator = self._open_ticket, stated_user(), self.annotator()
        try:  # who grades is decided once, here (tasks.identity.annotator: a work file's own annotator)
            opened = self._checked(ticket, lambda: open_to_grade(path, stated))
        except (ProjectInUse, ProtectionAltered, ProjectReadOnly) as exc:  # in use, altered, read-only: reading is safe
            answer = show_message(
                self,
                QMessageBox.Icon.Question,
                translate("main_window", "Project in use"),
                translate("main_window", "{error}\n\nOpen it read-only?").format(error=exc.located()),
                QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
            )
            if answer != QMessageBox.StandardButton.Open or ticket != self._open_ticket:
                return False
            opened = self._checked(ticket, lambda: Opened(open_project(path, read_only=True), annotator))
        except InputError as exc:
            self.show_error(exc.located())
            if not Path(path).exists():
                forget_project(str(path))
                self.welcome.refresh()
            return False
        if opened is None:  # cancelled, superseded, or an unexpected error (shown)
            return False
        project = opened.project
        self.close_project()
        self.statusBar().clearMessage()  # nothing said of the project before
        self.saved_label.setText(
            translate("main_window", "Open read-only: nothing can be changed")
            if project.read_only
            else translate("main_window", "All changes are saved as you make them")
        )
        self.slot.open(project, annotator=opened.annotator)  # every view's session starts over with this project
        remember_project(project.path)
        self.stack.setCurrentWidget(self.tabs)
        self.pace_label.set_project(project, opened.annotator)
        self._show_grader(project)
        # Loading leaves many long-lived objects; freezing them keeps full collections (tens of ms on a big
        # project) out of the key presses that follow. After the views' first paint, as a slice of its own: with
        # the views' loading in one slice it held the window over 100 ms.
        QTimer.singleShot(0, self._freeze_garbage)
        return True

    @staticmethod
    def _freeze_garbage() -> None:
        gc.collect()
        gc.freeze()

    def _checked(self, ticket: int, opening: Callable[[], Opened]) -> Opened | None:
        """Run ``opening`` (it opens and checks a project file) on a worker behind a cancellable progress dialog,
        with the event loop running meanwhile; return its project, handed to this thread, or raise its refusal.

        None when cancelled, when an unexpected error was shown, or when the result came late: another open, a
        close or the window's closing came after ``ticket`` was drawn; that project is closed, never shown.
        """
        outcome: list[tuple[object, str | None]] = []
        loop = QEventLoop()

        def work(**kwargs: Any) -> object:
            try:
                opened = opening()
            except InputError as exc:  # raised again on the GUI thread, for the caller to tell which
                return exc
            if kwargs["cancelled"]():
                opened.project.close()
                raise Cancelled
            return opened

        def ended(result: object = None, message: str | None = None) -> None:
            outcome.append((result, message))
            loop.quit()

        title = translate("main_window", "Checking the project file…")
        run_with_progress(self, title, work, ended, lambda message: ended(message=message), ended, busy=True)
        if not outcome:
            loop.exec()
        result, message = outcome[0]
        if ticket != self._open_ticket:  # late: neither its project nor its refusal is shown
            if isinstance(result, Opened):
                result.project.close()
            return None
        if isinstance(result, InputError):
            raise result
        if message is not None:
            self.show_error(message)
        if not isinstance(result, Opened):
            return None
        take_over(result.project)  # the window's thread uses, watches and hears the connection it was opened with
        return result

    def _show_grader(self, project: Project) -> None:
        """Who the grades given here are credited to, always in the status bar."""
        name, origin = self.workspace.session.grading_as()
        if origin is not None:
            text = translate("main_window", "Grading as {name} for {project}, handed out {when}").format(
                name=origin.annotator, project=origin.project_name, when=origin.assigned_at[:10]
            )
        elif project.read_only:
            text = ""
        else:
            text = translate("main_window", "Grading as {name}").format(name=name)
        self.grader_label.setText(text)

    def close_project(self) -> None:
        self._open_ticket += 1  # a project still being checked is dropped when its result comes
        if self.project is None:
            return
        self._save_state()
        self.undo_stack.clear()
        self.slot.close()  # every view's session hears it, then the project closes
        self.saved_label.clear()  # nothing is said of a project once none is open
        self.version_box.clear()
        self.pace_label.set_project(None)
        self.grader_label.clear()
        self.stack.setCurrentWidget(self.welcome)
        self.welcome.refresh()
        self.setWindowTitle("ndcg-desktop")  # the application's name, not translated
        self.progress_label.clear()
        self._update_actions()

    def current_version(self) -> PoolVersion | None:
        """The pool version the Annotate tab shows (its session decides; the Pool menu acts on it), as the file
        has it now: None also while a version that just went (a discarded draft) is shown, until its event."""
        shown = self.workspace.session.version
        if self.project is None or shown is None:
            return None
        return next((v for v in self.project.pools.versions() if v.version == shown.version), None)

    def refresh(self, *, prefer_draft: bool = False, version: int | None = None) -> None:
        """Read the versions again and show ``version`` (else the draft when ``prefer_draft``, else the one shown)."""
        assert self.project is not None
        session = self.workspace.session
        draft = self.project.pools.draft() if prefer_draft else None
        if version is None:
            version = draft.version if draft is not None else (session.version.version if session.version else None)
        session.show_version(version)

    def _version_chosen(self, _index: int) -> None:
        # The history stays: every command names its version and writes through the store, so an undo (a
        # discarded draft brought back) works whichever version is shown; only closing the project ends it.
        if self.project is not None:
            self.workspace.session.show_version(self.version_box.currentData())

    def _annotate_changed(self, aspects: frozenset[str]) -> None:
        """The Annotate session shows another version, or the versions changed: the box, the title, the actions."""
        if self.project is None or not aspects & {annotate.PROJECT, annotate.VERSION}:
            return
        session = self.workspace.session
        self.version_box.clear()
        for v in reversed(session.versions):
            if v.frozen:
                text = translate("main_window", "v{version} · frozen · {hash}…").format(
                    version=v.version, hash=v.short_hash
                )
            else:
                text = translate("main_window", "v{version} · draft").format(version=v.version)
            self.version_box.addItem(text, v.version)
        version = session.version
        name = self._project_name()
        if version is None:
            self.version_box.setCurrentIndex(-1)
            self.progress_label.setText(
                translate(
                    "main_window", "No pool yet: import judgments (File ▸ Import judgments) or build one from runs"
                )
            )
            self.setWindowTitle(translate("main_window", "{project} — ndcg-desktop").format(project=name))
        else:
            self.version_box.setCurrentIndex(self.version_box.findData(version.version))
            if version.frozen:
                title = translate("main_window", "{project} — pool v{version} (frozen) — ndcg-desktop")
            else:
                title = translate("main_window", "{project} — pool v{version} (draft) — ndcg-desktop")
            self.setWindowTitle(title.format(project=name, version=version.version))
        self._update_actions()

    def _refused(self, exc: FrozenVersionChanged) -> None:
        """Contract rule 15: the window refuses a changed frozen version too, saying why (maybe found on a worker)."""
        self.slot.refused(exc)  # every view forgets what it computed
        self.show_error(exc.located())

    def _project_event(self, event: ProjectEvent) -> None:
        """The window's own parts follow the project (the views' sessions follow it themselves)."""
        if self.project is None:
            return
        if isinstance(event, VersionsChanged | ItemsChanged):
            self.statusBar().clearMessage()  # what it said (a discard, why a key did nothing) may no longer hold
        if isinstance(event, ItemsChanged):
            self.pace_label.schedule()

    def _project_name(self) -> str:
        assert self.project is not None
        name = self.project.path.name
        return (
            translate("main_window", "{project} (read-only)").format(project=name) if self.project.read_only else name
        )

    @property
    def analysis(self) -> ScoresView:
        """The Scores view (its former name, kept for scripts and benchmarks)."""
        return self.scores

    def _sent_for_judging(self, sent: SentForJudging, run: str) -> None:
        assert self.project is not None
        self.refresh(version=sent.draft)
        self.undo_stack.push(
            SendForJudgingCommand(self.project, sent, run, annotator=self.slot.annotator)
        )  # Edit ▸ Undo takes them back
        self.tabs.setCurrentWidget(self.workspace)
        show_message(  # names the run: plain text, never rich text
            self,
            QMessageBox.Icon.Information,
            translate("main_window", "Sent for judging"),
            translate(
                "analysis",
                "{count} documents of {run} await grading in draft pool v{version}. "
                "Grade them, freeze the draft, then score again.",
            ).format(count=len(sent.items), run=run, version=sent.draft),
        )

    def _progress(self, graded: int, total: int) -> None:
        self.pace_label.schedule()
        version = self.current_version()
        if version is None:
            return
        if total:
            text = translate("main_window", "Pool v{version}: {graded} of {total} graded ({percent}%)").format(
                version=version.version, graded=f"{graded:,}", total=f"{total:,}", percent=f"{100 * graded / total:.0f}"
            )
        else:
            text = translate("main_window", "Pool v{version}: {graded} of {total} graded").format(
                version=version.version, graded=f"{graded:,}", total=f"{total:,}"
            )
        self.progress_label.setText(text)

    # -- long work ---------------------------------------------------------------------------
    def _background(
        self, title: str, fn: Callable[..., Any], done: Callable[[Any], None], *, busy: bool = False
    ) -> Task:
        project = self.project

        def cancelled() -> None:
            self.statusBar().showMessage(translate("main_window", "Cancelled: the project is unchanged."), 6000)

        def finished(result: Any) -> None:
            if self.project is project:  # a result for a project closed meanwhile must not reach the views
                done(result)

        return run_with_progress(self, title, fn, finished, self.show_error, cancelled, busy=busy)

    # -- the project's actions (gui/project/actions.py) -----------------------------------------
    def import_queries(self, path: str | None = None) -> None:
        self.project_actions.import_queries(path)

    def import_documents(self, path: str | None = None) -> None:
        self.project_actions.import_documents(path)

    def import_judgments(self, path: str | None = None, negative: NegativeGrades = NegativeGrades.REFUSE) -> None:
        self.project_actions.import_judgments(path, negative)

    def import_run(self, path: str | None = None, values: Any = None) -> None:
        self.project_actions.import_run(path, values)

    def build_pool(self) -> None:
        self.project_actions.build_pool()

    def freeze(self) -> None:
        self.project_actions.freeze()

    def next_batches(self) -> None:
        self.project_actions.next_batches()

    def new_draft(self) -> None:
        self.project_actions.new_draft()

    # -- misc ------------------------------------------------------------------------------
    def _exported(self, paths: list[Path]) -> None:
        """The status bar says that an export happened and where (issue 36: nothing said so)."""
        if not paths:
            return
        if len(paths) == 1:
            text = translate("main_window", "Exported {path}").format(path=paths[0])
        else:
            text = translate("main_window", "Exported {count} files into {folder}").format(
                count=len(paths), folder=Path(paths[0]).parent
            )
        self.statusBar().showMessage(text, 30000)

    def show_error(self, message: str) -> None:
        # Plain text: messages quote file names and IDs. Title: the application's name, not translated.
        show_message(self, QMessageBox.Icon.Warning, "ndcg-desktop", message)

    def about(self) -> None:
        QMessageBox.about(
            self,
            translate("main_window", "About ndcg-desktop"),
            translate(
                "main_window",
                "<b>ndcg-desktop {version}</b><p>Graded judgment pools that freeze, and NDCG against a fixed "
                "judged universe, with every evaluation choice explicit.</p>",
            ).format(version=__version__),
        )

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
        self.judge.stop()  # a model's job ends its requests now and keeps its answers before the project closes
        self._save_state()
        self.close_project()
        event.accept()

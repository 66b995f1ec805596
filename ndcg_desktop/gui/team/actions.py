"""The window's team actions: the two Pool menu entries and the Adjudicate tab, wired to the team tasks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMessageBox

from ndcg_desktop.domain import InputError
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.plain import show_message
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.gui.team.adjudicate import AdjudicateView
from ndcg_desktop.gui.team.assign import AssignDialog
from ndcg_desktop.store import SUFFIX
from ndcg_desktop.tasks.teams import Assignment, MergeReport, assign_work, merge_work, work_sizes

translate = QCoreApplication.translate


class TeamActions(QObject):
    """Installs *Pool ▸ Assign work…*, *Pool ▸ Merge returned work…* and the *Adjudicate* tab in ``window``."""

    def __init__(self, window: Any, pool_menu: Any) -> None:
        super().__init__(window)
        self.window = window
        pool_menu.addSeparator()
        self.assign_action = QAction(translate("team", "&Assign work…"), window)
        self.assign_action.triggered.connect(lambda _checked=False: self.assign())
        self.merge_action = QAction(translate("team", "&Merge returned work…"), window)
        self.merge_action.triggered.connect(lambda _checked=False: self.merge())
        pool_menu.addAction(self.assign_action)
        pool_menu.addAction(self.merge_action)
        self.view = AdjudicateView(window.undo_stack)
        self.view.error.connect(window.show_error)
        self.view.changed.connect(lambda: window.refresh())
        window.tabs.addTab(self.view, translate("team", "Adjudicate"))

    def update(self, *, writable: bool, has_draft: bool) -> None:
        self.assign_action.setEnabled(writable and has_draft)
        self.merge_action.setEnabled(writable and has_draft)

    def assign(self) -> None:
        project = self.window.project
        if project is None:
            return
        try:
            sizes = work_sizes(project)
        except InputError as exc:
            self.window.show_error(exc.located())
            return
        if sizes.empty:
            self.window.show_error(
                translate("team", "Every item of the draft is graded: there is no work to hand out.")
            )
            return
        folder = str(project.path.parent / f"{project.path.stem}-work")
        dialog = AssignDialog(sizes, folder, self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        values = dialog.values()

        def done(result: Assignment) -> None:
            show_message(
                self.window,
                QMessageBox.Icon.Information,
                translate("team", "Work files written"),
                translate("team", "{count} work files for draft v{version} are in {folder}.").format(
                    count=len(result.files), version=result.version, folder=str(values["out_dir"])
                ),
            )

        self._background(
            translate("team", "Writing work files…"),
            lambda progress, cancelled: assign_work(project, progress=progress, cancelled=cancelled, **values),
            done,
        )

    def merge(self) -> None:
        project = self.window.project
        if project is None:
            return
        paths = file_dialogs.open_files(
            self.window,
            translate("team", "Merge returned work"),
            translate("team", "Work files (*{suffix})").format(suffix=SUFFIX),
        )
        if not paths:
            return

        def done(report: MergeReport) -> None:
            self.window.refresh()
            t = report.totals
            show_message(
                self.window,
                QMessageBox.Icon.Information,
                translate("team", "Work merged"),
                translate(
                    "team",
                    "{files} files merged into draft v{version}: {new} new ratings, {changed} changed, {unchanged} "
                    "unchanged. {open} items rated differently wait in the Adjudicate view.",
                ).format(
                    files=len(report.files),
                    version=report.version,
                    new=t["new"],
                    changed=t["changed"],
                    unchanged=t["unchanged"],
                    open=t["unsettled"],
                ),
            )

        self._background(
            translate("team", "Merging returned work…"),
            lambda progress, cancelled: merge_work(project, paths, progress=progress, cancelled=cancelled),
            done,
        )

    def _background(self, title: str, fn: Any, done: Any) -> None:
        """``fn`` off the GUI thread behind a cancellable progress dialog; ``done`` if the project is still open."""
        project = self.window.project

        def finished(result: Any) -> None:
            if self.window.project is project:
                done(result)

        def cancelled() -> None:
            self.window.statusBar().showMessage(translate("team", "Cancelled: nothing was written."), 6000)

        run_with_progress(self.window, title, fn, finished, self.window.show_error, cancelled)

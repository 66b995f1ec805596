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
from ndcg_desktop.sessions.team import TeamRefusal, known_people, team_refusal, work_to_hand_out
from ndcg_desktop.tasks.importing import (
    AnnotatorTaken,
    NegativeGrades,
    NegativeGradesFound,
    RatingsImport,
    import_ratings,
)
from ndcg_desktop.tasks.project import SUFFIX
from ndcg_desktop.tasks.teams import Assignment, MergeReport, assign_work, merge_work

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
        self.view = AdjudicateView(window.undo_stack, slot=window.slot)  # follows the project's events itself
        self.view.error.connect(window.show_error)
        self.view.status.connect(lambda text: window.statusBar().showMessage(text, 15000))
        # what a pick or a rule wrote reaches every view through the project's events (sessions.events)
        window.tabs.addTab(self.view, translate("team", "Adjudicate"))

    def update(self) -> None:
        """Assign and merge are the coordinator's, on a writable draft: not in an annotator's work file
        (``sessions.team.team_refusal`` decides)."""
        offered = team_refusal(self.window.project) is None
        self.assign_action.setEnabled(offered)
        self.merge_action.setEnabled(offered)

    def assign(self) -> None:
        project = self.window.project
        if project is None:
            return
        sizes = work_to_hand_out(project)
        if isinstance(sizes, TeamRefusal):
            if sizes.kind == "problem":
                self.window.show_error(sizes.message)
            elif sizes.kind == "nothing_to_grade":
                self.window.show_error(
                    translate("team", "Every item of the draft is graded: there is no work to hand out.")
                )
            return
        folder = str(project.path.parent / f"{project.path.stem}-work")
        dialog = AssignDialog(sizes, folder, self.window, known_people(project))
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        values = dialog.values()

        def done(result: Assignment) -> None:
            show_message(
                self.window,
                QMessageBox.Icon.Information,
                translate("team", "Work files written"),
                translate("team", "{count} work files for draft v{version} are in {folder}.").format(
                    count=len(result.files), version=result.version, folder=values.out_dir
                ),
            )

        self._background(
            translate("team", "Writing work files…"),
            lambda progress, cancelled: assign_work(
                project,
                list(values.annotators),
                values.out_dir,
                overlap=values.overlap,
                per_query=values.per_query,
                seed=values.seed,
                progress=progress,
                cancelled=cancelled,
            ),
            done,
        )

    def merge(self) -> None:
        project, annotator = self.window.project, self.window.slot.annotator
        if project is None:
            return
        paths = file_dialogs.open_files(
            self.window,
            translate("team", "Merge returned work"),
            translate("team", "Work files (*{suffix})").format(suffix=SUFFIX),
        )
        if not paths:
            return

        def done(report: MergeReport) -> None:  # the views followed the merge through the project's events
            t = report.totals
            show_message(
                self.window,
                QMessageBox.Icon.Information,
                translate("team", "Work merged"),
                translate(
                    "team",
                    "{files} merged into draft v{version}: {new} new ratings, {changed} changed, {unchanged} "
                    "unchanged. {open} items rated differently wait in the Adjudicate view.",
                ).format(
                    files=translate("team", "1 file")
                    if len(report.files) == 1
                    else translate("team", "{count} files").format(count=len(report.files)),
                    version=report.version,
                    new=t["new"],
                    changed=t["changed"],
                    unchanged=t["unchanged"],
                    open=t["unsettled"],
                )
                + "".join(f"\n\n{note}" for note in report.notes),  # missing or withdrawn items (tasks.teams)
            )

        self._background(
            translate("team", "Merging returned work…"),
            lambda progress, cancelled: merge_work(
                project, paths, progress=progress, cancelled=cancelled, annotator=annotator
            ),
            done,
        )

    def import_ratings(
        self, path: str, annotator: str, negative: NegativeGrades = NegativeGrades.REFUSE, replace: bool = False
    ) -> None:
        """*File ▸ Import judgments…* as an annotator's ratings: negative grades and a name that already has
        ratings are questions (the command line's --negative-as-ungraded and --replace), not failures."""
        project, by = self.window.project, self.window.slot.annotator
        if project is None:
            return

        def work(**_: Any) -> RatingsImport | NegativeGradesFound | AnnotatorTaken:
            try:
                return import_ratings(project, path, annotator, replace=replace, negative=negative, imported_by=by)
            except (NegativeGradesFound, AnnotatorTaken) as exc:  # a question for the user, not a failure
                return exc

        def done(result: RatingsImport | NegativeGradesFound | AnnotatorTaken) -> None:
            if isinstance(result, InputError):
                negative_found = isinstance(result, NegativeGradesFound)
                question = (
                    translate(
                        "team", "Import the negative grades as items without a rating, to be graded before freezing?"
                    )
                    if negative_found
                    else translate("team", "Replace {name}'s ratings in the draft with this file's?").format(
                        name=annotator
                    )
                )
                answer = show_message(
                    self.window,
                    QMessageBox.Icon.Question,
                    translate("team", "Import ratings"),
                    f"{result.located()}\n\n{question}",
                    QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                    QMessageBox.StandardButton.Cancel,
                )
                if answer == QMessageBox.StandardButton.Yes:
                    again = (NegativeGrades.UNGRADED, replace) if negative_found else (negative, True)
                    self.import_ratings(path, annotator, *again)
                return
            t = result.totals
            self.window.statusBar().showMessage(
                translate(
                    "team",
                    "{name}: {new} new ratings in draft v{version}, {joined} items joined the pool; {open} items "
                    "rated differently wait in the Adjudicate view.",
                ).format(
                    name=result.annotator,
                    new=t["new"],
                    version=result.version,
                    joined=result.items_added,
                    open=t["unsettled"],
                ),
                8000,
            )
            self.window.refresh(prefer_draft=True)
            for other, items in result.identical:
                show_message(
                    self.window,
                    QMessageBox.Icon.Warning,
                    translate("team", "Identical ratings"),
                    translate(
                        "team",
                        "{name}'s ratings equal {other}'s on every one of the {items} items both rated: the same file "
                        "twice, or one person under two names? The Agreement view shows the figures with and without "
                        "the duplicate.",
                    ).format(name=result.annotator, other=other, items=items),
                )

        self._background(translate("team", "Importing ratings…"), work, done)

    def _background(self, title: str, fn: Any, done: Any) -> None:
        """``fn`` off the GUI thread behind a cancellable progress dialog; ``done`` if the project is still open."""
        project = self.window.project

        def finished(result: Any) -> None:
            if self.window.project is project:
                done(result)

        def cancelled() -> None:
            self.window.statusBar().showMessage(translate("team", "Cancelled: nothing was written."), 6000)

        run_with_progress(self.window, title, fn, finished, self.window.show_error, cancelled)

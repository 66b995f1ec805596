"""The project's own actions in the window: imports (queries, documents, judgments, runs), building the pool from
runs, freezing the draft and starting the next one. Each calls its use case in tasks, on a worker behind a
progress dialog; the views follow what it wrote through the project's events."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QMessageBox

from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.plain import show_message
from ndcg_desktop.gui.pools.dialogs import BuildPoolDialog, FreezeDialog
from ndcg_desktop.gui.project.dialogs import ImportJudgmentsDialog, ImportRunDialog
from ndcg_desktop.gui.project.release import ReleaseCommand, ReleasePreviewDialog, release_totals
from ndcg_desktop.tasks import (
    NegativeGrades,
    NegativeGradesFound,
    import_judgments,
    import_run,
)
from ndcg_desktop.tasks.compare_inputs import file_run_name
from ndcg_desktop.tasks.importing import (
    JudgmentsImported,
    RegradeRefused,
    ReleaseApplied,
    ReleasePreview,
    apply_release,
    import_documents,
    import_queries,
    plan_release,
)
from ndcg_desktop.tasks.pool_builds import apply_pool, next_batches, plan_pool
from ndcg_desktop.tasks.project import Frozen, freeze, freeze_preview

translate = QCoreApplication.translate


class ProjectActions:
    """File ▸ Import …, Pool ▸ Build pool from runs…, Freeze draft…, New draft from this version, for ``window``."""

    def __init__(self, window: Any) -> None:
        self.window = window

    def _pick(self, title: str, filters: str) -> str | None:
        return file_dialogs.open_file(self.window, title, filters)

    def import_queries(self, path: str | None = None) -> None:
        path = path or self._pick(
            translate("main_window", "Import queries"),
            translate("main_window", "Queries and topics (*.tsv *.csv *.jsonl *.txt *.xml *.gz);;All files (*)"),
        )
        if not path or self.window.project is None:
            return
        project = self.window.project
        self.window._background(
            translate("main_window", "Importing queries…"),
            lambda **_: import_queries(project, path),
            lambda done: self._imported(
                translate("main_window", "Imported {count} queries.").format(count=done.count)
                + (
                    " "
                    + translate("main_window", "Replaced {replaced} existing topics: {ids}.").format(
                        replaced=len(done.replaced), ids=" ".join(done.replaced)
                    )
                    if done.replaced
                    else ""
                )
            ),
        )

    def import_documents(self, path: str | None = None) -> None:
        path = path or self._pick(
            translate("main_window", "Import documents"),
            translate("main_window", "Documents (*.jsonl *.csv *.tsv *.gz);;All files (*)"),
        )
        if not path or self.window.project is None:
            return
        project = self.window.project
        self.window._background(
            translate("main_window", "Importing documents…"),
            lambda progress, cancelled: import_documents(project, path, progress=progress, cancelled=cancelled),
            lambda done: self._imported(
                translate("main_window", "Imported {count} documents.").format(count=done.count)
            ),
        )

    def import_judgments(self, path: str | None = None, negative: NegativeGrades = NegativeGrades.REFUSE) -> None:
        picked = path is None  # chosen here: ask how it comes in (the pool's judgments or a person's ratings)
        path = path or self._pick(
            translate("main_window", "Import judgments"),
            translate("main_window", "Judgments (*.txt *.qrels *.csv *.tsv *.gz);;All files (*)"),
        )
        if not path or self.window.project is None:
            return
        if picked:
            dialog = ImportJudgmentsDialog(Path(path).name, self.window)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            if (annotator := dialog.annotator()) is not None:
                self.window.team.import_ratings(path, annotator, negative)
                return
            if dialog.release():
                self.import_release(path)
                return
        project, annotator = self.window.project, self.window.slot.annotator

        def work(**_: Any) -> JudgmentsImported | NegativeGradesFound | RegradeRefused:
            try:
                return import_judgments(project, path, negative=negative, annotator=annotator)
            except (NegativeGradesFound, RegradeRefused) as exc:  # a question for the user, not a failure
                return exc

        def done(result: JudgmentsImported | NegativeGradesFound | RegradeRefused) -> None:
            if isinstance(result, NegativeGradesFound):
                self._ask_negative_grades(result, lambda: self.import_judgments(path, NegativeGrades.UNGRADED))
                return
            if isinstance(result, RegradeRefused):
                self._ask_release(path, result)
                return
            self._imported(
                translate(
                    "main_window",
                    "Judgments imported: {graded} items graded ({added} added to the pool, of them {ungraded} "
                    "ungraded; {filled} already in it graded now); {unchanged} unchanged.",
                ).format(
                    graded=f"{result.graded:,}",
                    added=f"{result.added:,}",
                    ungraded=f"{result.ungraded:,}",
                    filled=f"{result.graded_existing:,}",
                    unchanged=f"{result.unchanged:,}",
                ),
                prefer_draft=True,
            )

        self.window._background(translate("main_window", "Importing judgments…"), work, done)

    def import_release(self, path: str, negative: NegativeGrades = NegativeGrades.REFUSE) -> None:
        """A corrected release: its changes per query are computed in the background and shown; only *Make the
        draft equal* writes them, as one step of Edit ▸ Undo (``ndcg import-qrels --release``). Negative grades
        are a question, as for a plain import (``--negative-as-ungraded``)."""
        project, annotator = self.window.project, self.window.slot.annotator
        if project is None:
            return

        def planned(**_: Any) -> ReleasePreview | NegativeGradesFound:
            try:
                return plan_release(project, path, negative=negative)
            except NegativeGradesFound as exc:  # a question for the user, not a failure
                return exc

        def shown(preview: ReleasePreview | NegativeGradesFound) -> None:
            if isinstance(preview, NegativeGradesFound):
                self._ask_negative_grades(preview, lambda: self.import_release(path, NegativeGrades.UNGRADED))
                return
            if preview.unchanged:
                self.window.statusBar().showMessage(
                    translate("main_window", "The draft already holds exactly the judgments of {name}.").format(
                        name=preview.path.name
                    ),
                    8000,
                )
                return
            dialog = ReleasePreviewDialog(preview, self.window)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            self.window._background(
                translate("main_window", "Making the draft equal to the file…"),
                lambda **_: apply_release(project, preview, annotator=annotator),
                applied,
            )

        def applied(done: ReleaseApplied) -> None:
            self.window.undo_stack.push(ReleaseCommand(project, done, annotator=annotator))
            self._imported(
                translate("main_window", "Draft v{version} now holds exactly the judgments of {name}: {totals}").format(
                    version=done.version, name=done.preview.path.name, totals=release_totals(done.preview)
                ),
                prefer_draft=True,
            )

        self.window._background(
            translate("main_window", "Comparing the file with the draft…"),
            planned,
            shown,
        )

    def _ask_release(self, path: str, refused: RegradeRefused) -> None:
        """A regrade: nothing was imported; the remedy is the release (the command line's --release), offered."""
        answer = show_message(
            self.window,
            QMessageBox.Icon.Question,
            translate("main_window", "A corrected release?"),
            translate(
                "main_window",
                "{error}\n\nNothing was imported. Compare the file with the draft, to make the draft equal to it "
                "(items added, withdrawn and regraded)?",
            ).format(error=refused.located()),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.import_release(path)

    def _ask_negative_grades(self, found: NegativeGradesFound, again: Callable[[], None]) -> None:
        """trec_eval's negative grades: the same explicit choice as the command line's --negative-as-ungraded
        (yes: ``again``, the import asked again with it)."""
        answer = show_message(
            self.window,
            QMessageBox.Icon.Question,
            translate("main_window", "Negative grades"),
            translate(
                "main_window",
                "{error}\n\nImport the negative grades as ungraded pool items, to be graded before freezing?",
            ).format(error=found.located()),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Yes:
            again()

    def import_run(
        self, path: str | None = None, values: tuple[str, Any, str | Path | None, Any] | None = None
    ) -> None:
        path = path or self._pick(
            translate("main_window", "Import run"),
            translate("main_window", "Runs (*.txt *.run *.trec *.csv *.tsv *.jsonl *.gz);;All files (*)"),
        )
        if not path or self.window.project is None:
            return
        if values is None:
            suggested = file_run_name(path)  # as ndcg compare names a run file: tfidf.run.gz -> tfidf
            dialog = ImportRunDialog(suggested, [r.name for r in self.window.project.runs.all()], path, self.window)
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return
            values = dialog.values()
        name, ties, id_map, order = values
        project, annotator = self.window.project, self.window.slot.annotator
        self.window._background(
            translate("main_window", "Importing run…"),
            lambda **_: import_run(
                project, path, name=name, ties=ties, id_map=id_map, order=order, annotator=annotator
            ),
            lambda info: self._imported(
                translate("main_window", "Imported run {name}: {rows} documents for {queries} queries.").format(
                    name=info.name, rows=info.rows, queries=info.queries
                )
            ),
        )

    def _imported(self, message: str, *, prefer_draft: bool = False) -> None:
        """An import ended (every view followed what it wrote through the project's events): say so, and show
        the draft it wrote to."""
        self.window.statusBar().showMessage(message, 8000)
        draft = self.window.project.pools.draft() if prefer_draft and self.window.project is not None else None
        shown = self.window.current_version()
        if draft is not None and (shown is None or shown.version != draft.version):
            self.window.refresh(version=draft.version)

    def build_pool(self) -> None:
        if self.window.project is None:
            return
        project, annotator = self.window.project, self.window.slot.annotator
        preview = lambda request: plan_pool(project, request)  # noqa: E731
        dialog = BuildPoolDialog([r.name for r in project.runs.all()], preview, self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted or dialog.plan is None:
            return
        plan = dialog.plan  # exactly the preview shown (refused if the draft or a run changed since)
        self.window._background(
            translate("main_window", "Adding documents to the draft pool…"),
            lambda **_: apply_pool(project, plan, annotator=annotator),
            lambda pooled: self._imported(
                translate("main_window", "Added {count} documents to the draft pool; they await grading.").format(
                    count=pooled.added
                ),
                prefer_draft=True,
            ),
        )

    def next_batches(self) -> None:
        """Pool ▸ Add next batches: after merging work files, every query of an adaptive pool whose batch people
        graded gets its next (as ``ndcg pool-next``)."""
        if self.window.project is None:
            return
        project, annotator = self.window.project, self.window.slot.annotator
        self.window._background(
            translate("main_window", "Choosing the next batches…"),
            lambda **_: next_batches(project, annotator=annotator),
            lambda added: self._imported(
                translate("main_window", "Added {count} documents in the next batches of {queries} queries.").format(
                    count=added.documents, queries=added.queries
                )
                if added.documents
                else translate(
                    "main_window",
                    "No query's batch is graded in full yet, or every query's budget is spent: nothing was added.",
                ),
                prefer_draft=True,
            ),
        )

    def freeze(self) -> None:
        version = self.window.current_version()
        if self.window.project is None or version is None or version.frozen:
            return
        dialog = FreezeDialog(freeze_preview(self.window.project, version.version), self.window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        project, remove, anyway = self.window.project, dialog.remove.isChecked(), dialog.anyway.isChecked()
        annotator = self.window.slot.annotator

        def done(frozen: Frozen) -> None:
            self.window.undo_stack.clear()  # the shown version, now frozen, followed through the project's events
            QMessageBox.information(
                self.window,
                translate("main_window", "Pool frozen"),
                translate(
                    "main_window",
                    "Pool version {version} is frozen.\n\nSHA-256:\n{hash}\n\n"
                    "Scores computed against it will name this version and hash.",
                ).format(version=frozen.version.version, hash=frozen.version.hash),
            )

        # Hashing a large pool takes seconds: in the background, behind a progress dialog.
        self.window._background(
            translate("main_window", "Freezing the draft…"),
            lambda **_: freeze(
                project, version=version.version, remove_ungraded=remove, work_out=anyway, annotator=annotator
            ),
            done,
        )

    def new_draft(self) -> None:
        version = self.window.current_version()
        if self.window.project is None or version is None:
            return
        # as `ndcg new-draft --from-version`, an undoable step (a discard before it stays undoable after it)
        if not self.window.pool_editor.start_draft(version.version):
            return
        draft = self.window.project.pools.draft()
        assert draft is not None
        self.window.statusBar().showMessage(
            translate("main_window", "Draft v{draft} started from v{version}.").format(
                draft=draft.version, version=version.version
            ),
            8000,
        )

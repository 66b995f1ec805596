"""The Scores view: the session's small views put together, and the work they ask for run in the background.

Everything shown comes from :class:`~ndcg_desktop.sessions.scores.ScoresSession`; the views here
only render it and send it the user's intents. The main window talks to this view through its
methods (``set_project``, ``reload``, ``check``, ``score``, ``export``), never its widgets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QDialog, QSplitter, QTabWidget, QToolButton, QVBoxLayout, QWidget

from ndcg_desktop.domain import InputError
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.scores.breakdown import BreakdownPanel
from ndcg_desktop.gui.scores.comparison import ComparisonPanel
from ndcg_desktop.gui.scores.history import HistoryPanel
from ndcg_desktop.gui.scores.pickers import CHECK_KEYS, InputsBar
from ndcg_desktop.gui.scores.resolve import SCORE_KEYS, ResolvePanel, flags_table
from ndcg_desktop.gui.scores.results import ResultsPanel, results_table
from ndcg_desktop.gui.scores.send import SendForJudgingDialog
from ndcg_desktop.gui.scores.tables import TableData
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.sessions.scores import CHECKS, PROJECT, QUERY, RESULT, ScoresSession
from ndcg_desktop.tasks import JudgingPlan, SentForJudging, apply_send_for_judging
from ndcg_desktop.tasks.explaining import FlagReport
from ndcg_desktop.tasks.export import export_comparison_csv, export_result
from ndcg_desktop.tasks.project import Project, SavedEvaluation

translate = QCoreApplication.translate


class ScoresView(QWidget):
    """Run + frozen pool + settings -> each run's flags resolved -> results, breakdown, comparison, history."""

    error = Signal(str)
    exported = Signal(list)  # the paths an export wrote: the window's status bar says where
    sent_for_judging = Signal(object, str)  # SentForJudging, run name

    def __init__(self, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        super().__init__(parent)
        self.session = ScoresSession()
        if slot is not None:
            self.session.follow(slot)  # each project, and every change to it, from its events
        self.inputs = InputsBar(self.session)
        self.inputs.check_requested.connect(self.check)
        self.resolve = ResolvePanel(self.session)
        self.resolve.score_requested.connect(self.score)
        self.resolve.send_requested.connect(self.send_for_judging)
        self.flags_toggle = QToolButton()
        self.flags_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.flags_toggle.setCheckable(True)
        self.flags_toggle.setAutoRaise(True)
        self.flags_toggle.setStyleSheet("QToolButton { font-weight: bold; }")
        self.flags_toggle.setAccessibleName(translate("analysis", "Resolve before scoring"))
        self.flags_toggle.setAccessibleDescription(
            translate("analysis", "Shows or hides the choices for what the check found")
        )
        self.flags_toggle.toggled.connect(self._show_flags)
        self.results_panel = ResultsPanel(self.session)
        self.results_panel.export_requested.connect(lambda: self.export())
        self.breakdown = BreakdownPanel(self.session)
        # The breakdown shows the session's selected query, chosen in the results or the comparison table.
        self.session.changed.connect(
            lambda aspects: (
                self.breakdown.show_query(self.session.selected_query or "") if aspects & {RESULT, QUERY} else None
            )
        )
        self.comparison_panel = ComparisonPanel(self.session)
        self.comparison_panel.export_requested.connect(lambda: self.export_comparison())
        self.history = HistoryPanel(self.session)
        self.history.reopen_requested.connect(self.reopen)
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setAccessibleName(translate("analysis", "Breakdown, comparison and history"))
        self.lower_tabs.addTab(self.breakdown, translate("analysis", "Breakdown of the selected query"))
        self.lower_tabs.addTab(self.comparison_panel, translate("analysis", "Comparison"))
        self.lower_tabs.addTab(self.history, translate("analysis", "Saved evaluations"))
        self.lower_tabs.setTabToolTip(1, translate("analysis", "Choose a run in 'compare with' and score"))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.results_panel)
        split.addWidget(self.lower_tabs)
        split.setSizes([380, 380])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.inputs)
        layout.addWidget(self.flags_toggle)
        layout.addWidget(self.resolve)
        layout.addWidget(split, 1)
        self.flags_toggle.setChecked(True)
        self._keyboard()
        self.session.changed.connect(self._changed)
        self._changed(frozenset({PROJECT, RESULT}))

    # -- what the window and the tests read ------------------------------------------------------
    @property
    def report(self) -> FlagReport | None:
        """The run's check (None until checked under the current inputs)."""
        checked = self.session.checks.get(self.session.run or "")
        return checked.report if checked is not None else None

    @property
    def evaluation(self) -> Any:
        result = self.session.result
        return result.first.evaluation if result is not None else None

    # The controls, for keyboard tests and screenshots; the window itself uses the methods below.
    run_box = property(lambda self: self.inputs.run_box)
    version_box = property(lambda self: self.inputs.version_box)
    compare_box = property(lambda self: self.inputs.compare_box)
    residual_box = property(lambda self: self.inputs.residual_box)
    k = property(lambda self: self.inputs.k)
    choices = property(lambda self: self.resolve.choices)
    score_button = property(lambda self: self.resolve.score_button)
    missing_label = property(lambda self: self.resolve.missing_label)

    # -- the window's interface ----------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): every part of the view starts over."""
        self.session.set_project(project)

    def reload(self) -> None:
        """The open project changed (import, freeze, send for judging): keep what still holds."""
        self.session.reload()

    def _keyboard(self) -> None:
        order: list[QWidget] = [
            *self.inputs.focus_order(),
            self.flags_toggle,
            *self.resolve.focus_order(),
            *self.results_panel.focus_order(),
            self.lower_tabs,
            *self.breakdown.focus_order(),
            *self.comparison_panel.focus_order(),
            *self.history.focus_order(),
        ]
        for first, second in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(first, second)
        # Window context: active only while this view is shown (the Scores tab).
        pairs = [(CHECK_KEYS, self.inputs.check_button)] + [(keys, self.resolve.score_button) for keys in SCORE_KEYS]
        for keys, button in pairs:
            QShortcut(keys, self).activated.connect(button.animateClick)  # nothing while the button is disabled

    def _changed(self, aspects: frozenset[str]) -> None:
        if aspects & {PROJECT, RESULT}:
            result = self.session.result
            compared = result is not None and result.second is not None
            self.lower_tabs.setTabEnabled(1, compared)
            if result is None:
                self.flags_toggle.setChecked(True)
            if not compared and self.lower_tabs.currentIndex() == 1:
                self.lower_tabs.setCurrentIndex(0)
        if CHECKS in aspects and not self.session.checks:
            self.flags_toggle.setChecked(True)

    def _show_flags(self, shown: bool) -> None:
        """The resolve panel folds away once scored; its choices stay in the settings line."""
        self.resolve.setVisible(shown)
        self.flags_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.flags_toggle.setText(
            translate("analysis", "Resolve before scoring")
            if shown
            else translate("analysis", "Resolve before scoring: every flag has a choice (show)")
        )

    def _run(self, title: str, job: Job, done: Any = None) -> None:
        """Run a session job behind the progress dialog; its result is dropped if an input changed meanwhile.

        A check's flagged-queries table and a score's per-query table are formatted on the same worker
        (thousands of rows took up to a second of the GUI thread when the result arrived).
        """

        def work(progress: Any = None, cancelled: Any = None) -> tuple[Any, TableData | None]:
            result = job(progress=progress, cancelled=cancelled)
            if job.kind == "score":
                return result, results_table(result)
            return result, flags_table(list(result.values())) if job.kind == "check" else None

        def finished(out: tuple[Any, TableData | None]) -> None:
            result, table = out
            if job.kind == "score" and table is not None:
                self.results_panel.offer(result, table)
            elif job.kind == "check" and table is not None:
                self.resolve.offer(list(result.values()), table)
            if self.session.apply(job, result) and done is not None:
                done()

        run_with_progress(self, title, work, finished, self.error.emit)

    def check(self) -> None:
        """Check the run, and the comparison run, against the pool version."""
        if self.session.run is None or self.session.pool_version is None:
            return
        self._run(translate("analysis", "Checking the run…"), self.session.check_job())

    def score(self) -> None:
        if not self.session.ready():
            return
        self._run(translate("analysis", "Scoring…"), self.session.score_job(), self._scored)

    def _scored(self) -> None:
        self.flags_toggle.setChecked(False)
        result = self.session.result
        problems = [s.not_recorded for s in (result.first, result.second) if s and s.not_recorded] if result else []
        if problems:  # the scores on screen stand; only their record in the project failed
            self.error.emit(
                translate("analysis", "The scores are shown but not recorded in the project: {problem}").format(
                    problem=problems[0]
                )
            )

    def send_for_judging(self) -> QDialog | None:
        """Preview what a draft would get, ask for confirmation, then add exactly that in the background."""
        if not self.session.sending():
            return None
        dialog = SendForJudgingDialog(self.session, self)
        dialog.accepted.connect(lambda: self._send(dialog.plan))
        dialog.open()
        return dialog

    def _send(self, plan: JudgingPlan | None) -> None:
        project, annotator = self.session.project, self.session.annotator
        if plan is None or project is None:
            return

        def work(**_: Any) -> SentForJudging:
            return apply_send_for_judging(project, plan, annotator=annotator)

        def done(sent: SentForJudging) -> None:
            if self.session.project is project:
                self.sent_for_judging.emit(sent, plan.run_name)

        run_with_progress(
            self, translate("analysis", "Adding documents to the draft pool…"), work, done, self.error.emit
        )

    def reopen(self, saved: SavedEvaluation) -> None:
        """Put a saved evaluation's inputs and choices back, then check and score them again."""
        self.session.reopen(saved)
        self._run(translate("analysis", "Checking the run…"), self.session.check_job(), self.score)

    def export(self, folder: str | None = None) -> list[Path]:
        """per_query.csv, per_position.csv and manifest.json, plus comparison.csv when comparing."""
        result = self.session.result
        if result is None:
            return []
        folder = folder or file_dialogs.folder(self, translate("analysis", "Export results to a folder"))
        if not folder:
            return []
        try:
            self.session.prove()  # its version changed on disk since it was scored: refused, and forgotten
            written = export_result(result, folder)
        except InputError as exc:  # refused or unwritable: the message names the folder
            self.error.emit(exc.located())
            return []
        self.exported.emit(written)
        return written

    def export_comparison(self, path: str | None = None) -> Path | None:
        result = self.session.result
        if result is None or result.second is None:
            return None
        title, csv_filter = translate("analysis", "Export comparison"), translate("analysis", "CSV (*.csv)")
        path = path or file_dialogs.save_file(self, title, "comparison.csv", csv_filter)[0]
        if not path:
            return None
        try:
            self.session.prove()
            written = export_comparison_csv(result, path)
        except InputError as exc:  # refused or unwritable: the message names the file
            self.error.emit(exc.located())
            return None
        self.exported.emit([written])
        return written

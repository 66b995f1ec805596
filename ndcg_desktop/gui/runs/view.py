"""The Runs view: every imported run scored against one frozen pool version, compared with its uncertainty.

Everything shown comes from :class:`~ndcg_desktop.tasks.runs_session.RunsSession`; the widgets only
render it and send it the user's intents. Checking, scoring and comparing run on the thread pool
behind a cancellable progress dialog; a result computed from inputs changed meanwhile is dropped
by the session. The main window talks to this view through ``set_project``, ``reload``, ``check``,
``score`` and ``export``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QFileDialog, QFrame, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from ndcg_desktop.gui.runs.inputs import CHECK_KEYS, SCORE_KEYS, RunsInputs, RunsResolvePanel
from ndcg_desktop.gui.runs.results import RunsTablePanel, runs_table
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import export_comparison
from ndcg_desktop.tasks.runs_session import RunsSession
from ndcg_desktop.tasks.session import Job

translate = QCoreApplication.translate


class RunsView(QScrollArea):
    """Pool version + cut-offs + each run's choices -> the runs table, the interval plot, significance, pairs."""

    error = Signal(str)
    exported = Signal(list)  # the paths written

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = RunsSession()
        self.inputs = RunsInputs(self.session)
        self.inputs.check_requested.connect(self.check)
        self.inputs.score_requested.connect(self.score)
        self.inputs.export_requested.connect(lambda: self.export())
        self.resolve = RunsResolvePanel(self.session)
        self.table_panel = RunsTablePanel(self.session)
        self.resolve.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.inputs)
        layout.addWidget(self.resolve)
        layout.addWidget(self.table_panel, 1)
        self.setWidgetResizable(True)  # small or scaled screens scroll instead of forcing a big window (as Scores)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(content)
        order: list[QWidget] = [
            *self.inputs.focus_order(),
            *self.resolve.focus_order(),
            *self.table_panel.focus_order(),
        ]
        for first, second in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(first, second)
        # Window context: active only while this view is shown (the Runs tab); nothing while a button is disabled.
        QShortcut(CHECK_KEYS, self).activated.connect(self.inputs.check_button.animateClick)
        QShortcut(SCORE_KEYS, self).activated.connect(self.inputs.score_button.animateClick)

    # -- the window's interface ----------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): every part of the view starts over."""
        self.session.set_project(project)

    def reload(self) -> None:
        """The open project changed (a run imported, a version frozen): keep what still holds."""
        self.session.reload()

    def check(self) -> None:
        """Check the compared runs not checked yet against the pool version."""
        if self.session.project is None or self.session.pool_version is None or not self.session.unchecked():
            return
        self._run(translate("runs", "Checking the runs…"), self.session.check_job())

    def score(self) -> None:
        """Score every compared run at every K (not recorded), then compare them."""
        if not self.session.ready():
            return
        self._run(translate("runs", "Scoring and comparing the runs…"), self.session.score_job())

    def _run(self, title: str, job: Job) -> None:
        """Run a session job behind the progress dialog; the runs table is formatted on the same worker."""

        def work(progress: Any = None, cancelled: Any = None) -> tuple[Any, Any]:
            result = job(progress=progress, cancelled=cancelled)
            return result, runs_table(result) if job.kind == "score" else None

        def finished(out: tuple[Any, Any]) -> None:
            result, table = out
            if table is not None:
                self.table_panel.offer(result, table)
            self.session.apply(job, result)

        run_with_progress(self, title, work, finished, self.error.emit)

    def export(self, folder: str | None = None) -> None:
        """Everything `ndcg compare --export` writes, through the same task, in the background."""
        result = self.session.result
        if result is None:
            return
        folder = folder or QFileDialog.getExistingDirectory(
            self, translate("runs", "Export the comparison to a folder")
        )
        if not folder:
            return
        comparison = result.comparison

        def work(**_: Any) -> list[Path]:
            return export_comparison(comparison, folder)

        run_with_progress(self, translate("runs", "Writing the comparison…"), work, self.exported.emit, self.error.emit)

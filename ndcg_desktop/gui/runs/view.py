"""The Runs view: every imported run scored against one frozen pool version, compared with its uncertainty.

Everything shown comes from :class:`~ndcg_desktop.sessions.runs.RunsSession`; the widgets only
render it and send it the user's intents. Checking, scoring and comparing run on the thread pool
behind a cancellable progress dialog; a result computed from inputs changed meanwhile is dropped
by the session. The main window talks to this view through ``set_project``, ``reload``, ``check``,
``score`` and ``export``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ndcg_desktop.domain import InputError
from ndcg_desktop.gui import file_dialogs
from ndcg_desktop.gui.runs.inputs import CHECK_KEYS, SCORE_KEYS, RunsInputs, RunsResolvePanel
from ndcg_desktop.gui.runs.pair import PairPanel
from ndcg_desktop.gui.runs.results import RunsTablePanel, runs_table
from ndcg_desktop.gui.runs.significance import SignificancePanel
from ndcg_desktop.gui.tasks import run_with_progress
from ndcg_desktop.sessions.events import ProjectSlot
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.sessions.runs import PROJECT, RESULT, RunsSession
from ndcg_desktop.tasks.comparing import export_comparison
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate


class RunsView(QScrollArea):
    """Pool version + cut-offs + each run's choices -> the runs table, the interval plot, significance, pairs."""

    error = Signal(str)
    exported = Signal(list)  # the paths written

    def __init__(self, parent: QWidget | None = None, *, slot: ProjectSlot | None = None) -> None:
        super().__init__(parent)
        self.session = RunsSession()
        if slot is not None:
            self.session.follow(slot)  # each project, and every change to it, from its events
        self.inputs = RunsInputs(self.session)
        self.inputs.check_requested.connect(self.check)
        self.inputs.score_requested.connect(self.score)
        self.inputs.export_requested.connect(lambda: self.export())
        self.resolve = RunsResolvePanel(self.session)
        self.table_panel = RunsTablePanel(self.session)
        self.significance = SignificancePanel(self.session)
        self.pair_panel = PairPanel(self.session)
        self.significance.pair_chosen.connect(self.open_pair)
        self.lower_tabs = QTabWidget()
        self.lower_tabs.setAccessibleName(translate("runs", "Significance and pairs"))
        self.lower_tabs.addTab(self.significance, translate("runs", "Significance"))
        self.lower_tabs.addTab(self.pair_panel, translate("runs", "A pair query by query"))
        self.lower_tabs.setMinimumHeight(440)  # two breakdowns side by side: the view scrolls on small screens
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table_panel)
        split.addWidget(self.lower_tabs)
        split.setSizes([260, 520])
        self.split = split
        self.resolve.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.resolve_toggle = QToolButton()  # folds the choices away once compared (as the Scores view does)
        self.resolve_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.resolve_toggle.setCheckable(True)
        self.resolve_toggle.setAutoRaise(True)
        self.resolve_toggle.setStyleSheet("QToolButton { font-weight: bold; }")
        self.resolve_toggle.setAccessibleDescription(translate("runs", "Shows or hides each run's choices"))
        self.resolve_toggle.toggled.connect(self._show_resolve)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.inputs)
        layout.addWidget(self.resolve_toggle)
        layout.addWidget(self.resolve)
        layout.addWidget(split, 1)
        self.setWidgetResizable(True)  # small or scaled screens scroll instead of forcing a big window (as Scores)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(content)
        order: list[QWidget] = [
            *self.inputs.focus_order(),
            self.resolve_toggle,
            *self.resolve.focus_order(),
            *self.table_panel.focus_order(),
            self.lower_tabs,
            *self.significance.focus_order(),
            *self.pair_panel.focus_order(),
        ]
        for first, second in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(first, second)
        # Window context: active only while this view is shown (the Runs tab); nothing while a button is disabled.
        QShortcut(CHECK_KEYS, self).activated.connect(self.inputs.check_button.animateClick)
        QShortcut(SCORE_KEYS, self).activated.connect(self.inputs.score_button.animateClick)
        self.resolve_toggle.setChecked(True)
        self._show_resolve(True)
        self.session.changed.connect(self._changed)

    def _changed(self, aspects: frozenset[str]) -> None:
        if PROJECT in aspects:  # another project starts where a fresh view does
            self.lower_tabs.setCurrentIndex(0)
        if RESULT in aspects:  # folded once compared, shown again when the result goes
            self.resolve_toggle.setChecked(self.session.result is None)

    def _show_resolve(self, shown: bool) -> None:
        self.resolve.setVisible(shown)
        self.resolve_toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        text = (
            translate("runs", "Each run's choices before scoring")
            if shown
            else translate("runs", "Each run's choices before scoring: every run resolved (show)")
        )
        self.resolve_toggle.setText(text)
        self.resolve_toggle.setAccessibleName(text)

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

    def open_pair(self, k: int, a: str, b: str) -> None:
        """Open a pair query by query (b against a at K) and show it."""
        if self.session.result is not None:
            self.session.select_pair(k, a, b)
            self.lower_tabs.setCurrentWidget(self.pair_panel)

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
        folder = folder or file_dialogs.folder(self, translate("runs", "Export the comparison to a folder"))
        if not folder:
            return
        try:
            self.session.prove()  # its version changed on disk since it was compared: refused, and forgotten
        except InputError as exc:
            self.error.emit(exc.located())
            return
        comparison = result.comparison

        def work(**_: Any) -> list[Path]:
            return export_comparison(comparison, folder)

        run_with_progress(self, translate("runs", "Writing the comparison…"), work, self.exported.emit, self.error.emit)

"""The status bar's judging pace: today's count and seconds per judgment, and the time the draft still needs.

Computed by ``tasks.pace.pace_report`` on a worker thread (its own read-only connections) a moment after
grading pauses, so a key press never waits for it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from ndcg_desktop.domain.pace import duration_parts
from ndcg_desktop.gui.plain import plain_tooltip
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.tasks.pace import PaceReport, pace_report
from ndcg_desktop.tasks.project import Project

translate = QCoreApplication.translate

REFRESH_MS = 1500  # after the last grade: the figures follow the work without costing a key press


class PaceLabel(QLabel):
    """Shows the pace of the project's user today and the draft's time left; the tooltip has everyone's."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setAccessibleName(translate("pace", "Judging pace"))
        self.project: Project | None = None
        self.annotator = ""  # whose pace today is the headline: the one the project's grades are credited to
        self.report: PaceReport | None = None
        self._task: Task | None = None
        self.timer = QTimer(self, singleShot=True, interval=REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

    def set_project(self, project: Project | None, annotator: str = "") -> None:
        self.project, self.annotator, self.report = project, annotator, None
        self.clear()
        self.setToolTip("")
        if project is not None:
            self.timer.start()  # once the project is open and shown: never a thread competing with the opening

    def schedule(self) -> None:
        """Something was graded: refresh once grading pauses."""
        if self.project is not None:
            self.timer.start()

    def refresh(self) -> None:
        project = self.project
        if project is None:
            return
        if self._task is not None:
            self._task.cancel_event.set()  # superseded

        def work(**_: Any) -> PaceReport:
            return pace_report(project)

        def done(report: PaceReport) -> None:
            if self.project is project:
                self.show_report(report)

        def failed(message: str) -> None:
            if self.project is project:  # not a project closed meanwhile (its label may be gone with its window)
                self.setText(message)

        self._task = run_in_background(work, done, failed)

    def show_report(self, report: PaceReport) -> None:
        self.report = report
        assert self.project is not None
        self.setText(status_text(report, self.annotator, dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")))
        self.setToolTip(plain_tooltip(tooltip_text(report)))


def duration_label(seconds: float) -> str:
    """A duration in the interface's language: 45 s, 12 min, 3 h 20 min."""
    unit, n = duration_parts(seconds)
    patterns = {
        "s": translate("pace", "{s} s"),
        "min": translate("pace", "{min} min"),
        "h min": translate("pace", "{h} h {min} min"),
    }
    return patterns[unit].format(**n)


def status_text(report: PaceReport, user: str, today: str) -> str:
    """One line: the user's judgments today and their median pace; the draft's ungraded items and time left."""
    parts = []
    mine = report.pace.by_day[(report.pace.by_day["who"] == user) & (report.pace.by_day["day"] == today)]
    if len(mine):
        graded, median_s = int(mine["graded"].iloc[0]), float(mine["median_s"].iloc[0])
        if median_s == median_s:
            parts.append(
                translate("pace", "Today: {graded} graded, {seconds} s each").format(
                    graded=graded, seconds=f"{median_s:.1f}"
                )
            )
        else:
            parts.append(translate("pace", "Today: {graded} graded").format(graded=graded))
    if report.draft is not None and report.ungraded:
        if report.time_left_s is not None:
            parts.append(
                translate("pace", "v{version}: about {left} left").format(
                    version=report.draft, left=duration_label(report.time_left_s)
                )
            )
    return " · ".join(parts)


def tooltip_text(report: PaceReport) -> str:
    """Everyone's pace per day, the estimate's arithmetic, and the rule."""
    lines = []
    for who, day, graded, timed, median_s in report.pace.by_day.itertuples(index=False, name=None):
        seconds = f"{median_s:.1f} s" if median_s == median_s else "—"
        lines.append(
            translate("pace", "{who}, {day}: {graded} graded, median {seconds} ({timed} timed)").format(
                who=who, day=day, graded=graded, seconds=seconds, timed=timed
            )
        )
    if report.draft is not None and report.time_left_s is not None and report.pace.median_s is not None:
        lines.append(
            translate("pace", "Draft v{version}: {ungraded} ungraded × {seconds} s ≈ {left}").format(
                version=report.draft,
                ungraded=report.ungraded,
                seconds=f"{report.pace.median_s:.1f}",
                left=duration_label(report.time_left_s),
            )
        )
    lines.append(
        translate(
            "pace",
            "Seconds per judgment: the median gap between a person's consecutive grades; gaps over {minutes} "
            "minutes are pauses and left out. Imported grades are not timed.",
        ).format(minutes=f"{report.pace.pause_s / 60:g}")
    )
    return "\n".join(lines)

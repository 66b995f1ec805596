"""Judging progress and pace of a project: per annotator and day, and the time the draft still needs.

Both fronts call :func:`pace_report`: the window's status bar and ``ndcg status`` (text and ``--json``).
The arithmetic and its rule are in :mod:`ndcg_desktop.domain.pace`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.pace import PAUSE_SECONDS, JudgingPace, judging_pace, pace_rule
from ndcg_desktop.store import Project


@dataclass(frozen=True)
class PaceReport:
    """The pace tables, the draft's ungraded items and the time they should take."""

    pace: JudgingPace
    draft: int | None  # the draft's version number (None without a draft)
    ungraded: int
    time_left_s: float | None  # None without a draft or without any timed judgment

    @property
    def rule(self) -> str:
        return pace_rule(self.pace.pause_s)

    def as_dict(self) -> JsonObject:
        """For ``ndcg status --json``: plain numbers (None where there is nothing to time)."""

        def rows(frame: Any) -> list[dict[str, Any]]:
            return [
                {k: (None if isinstance(v, float) and v != v else v) for k, v in row.items()}
                for row in frame.to_dict("records")
            ]

        return {
            "rule": self.rule,
            "pause_seconds": self.pace.pause_s,
            "median_seconds": self.pace.median_s,
            "by_annotator": rows(self.pace.by_annotator),
            "by_day": rows(self.pace.by_day),
            "draft": self.draft,
            "ungraded": self.ungraded,
            "time_left_seconds": self.time_left_s,
        }


def pace_report(project: Project, *, pause_s: float = PAUSE_SECONDS) -> PaceReport:
    """Judging pace from the project's audit log, and the time left for its draft at that pace.

    Reads through connections of its own (safe on a worker thread while the window grades).
    """
    pace = judging_pace(project.judgments.judging_log(), pause_s=pause_s)
    draft, ungraded = project.judgments.draft_ungraded()
    if draft is None:
        return PaceReport(pace, None, 0, None)
    return PaceReport(pace, draft, ungraded, pace.time_left_s(ungraded))

"""diff_pools as the window runs it: progress per step, cancel between and inside the scorings (no Qt)."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain import EvalSettings, UnjudgedPolicy
from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.pool_diff import diff_pools


def test_progress_counts_the_changes_then_each_runs_two_scorings(two_versions):
    seen: list[tuple[int, int]] = []
    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(unjudged=UnjudgedPolicy.ZERO)
        diff = diff_pools(project, 1, 2, base, 2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(step, 1 + 2 * 2) for step in range(1, 6)]  # the changes, then x and y under v1 and v2
    assert diff.means["run"].tolist() == ["x", "y"] and diff.refused == {}


def test_cancel_stops_with_nothing_returned(two_versions):
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) >= 3  # after the first run's scoring under v1 has begun

    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(unjudged=UnjudgedPolicy.ZERO)
        with pytest.raises(Cancelled):
            diff_pools(project, 1, 2, base, 2, cancelled=cancelled)
    assert len(asked) == 3

"""compare_project scores each stored run once for every K: each K's figures are score_run's own at that K."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import EvalSettings, UnjudgedPolicy
from ndcg_desktop.scoring.stats import StatsSettings
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.comparing import compare_project
from ndcg_desktop.tasks.scoring import score_run


@pytest.mark.parametrize("unjudged", [UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE])
def test_each_k_equals_score_run_at_that_k(two_versions, unjudged):
    ks = [1, 2, 3]
    seen: list[tuple[int, int]] = []
    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(k=10, unjudged=unjudged, scale=project.scale)
        result = compare_project(
            project, ["x", "y"], 2, ks, base, StatsSettings(resamples=200), progress=lambda d, t: seen.append((d, t))
        )
        for name in ("x", "y"):
            for k in ks:
                alone = score_run(project, name, 2, base.with_(k=k), record=False, bounds=True)
                together = result.evaluations[name][k]
                pd.testing.assert_frame_equal(together.per_query, alone.evaluation.per_query, check_exact=True)
                pd.testing.assert_frame_equal(together.per_position, alone.evaluation.per_position, check_exact=True)
                assert together.summary == alone.evaluation.summary
                assert {**together.manifest, "created": None} == {**alone.evaluation.manifest, "created": None}
                rows = result.per_query[(result.per_query["run"] == name) & (result.per_query["k"] == k)]
                assert rows["ndcg_upper"].tolist() == alone.bounds["ndcg_upper"].tolist()
    assert seen == [(3, 6), (6, 6)]  # a run's every K at once

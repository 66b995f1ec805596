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


@pytest.mark.parametrize("unjudged", [UnjudgedPolicy.ZERO, UnjudgedPolicy.CONDENSE])
def test_score_run_at_is_score_run_at_each_k_with_one_whole_ranking(two_versions, unjudged):
    """The one multi-K path of ndcg compare --project and the window's Runs view."""
    from ndcg_desktop.tasks.scoring import score_run_at

    ks = [2, 1, 3]
    with Project.open(two_versions, read_only=True) as project:
        base = EvalSettings(k=10, unjudged=unjudged, scale=project.scale)
        together = score_run_at(project, "x", 2, base, ks, rankings=True, bounds=True)
        assert list(together) == ks
        for k in ks:
            alone = score_run(project, "x", 2, base.with_(k=k), record=False, bounds=True, rankings=True)
            mine = together[k]
            assert (mine.run_name, mine.version, mine.evaluation_id) == (alone.run_name, alone.version, None)
            pd.testing.assert_frame_equal(mine.evaluation.per_query, alone.evaluation.per_query, check_exact=True)
            assert {**mine.evaluation.manifest, "created": None} == {**alone.evaluation.manifest, "created": None}
            pd.testing.assert_frame_equal(mine.bounds, alone.bounds, check_exact=True)
        first = score_run(project, "x", 2, base.with_(k=ks[0]), record=False, rankings=True).rankings
        assert all(s.rankings is together[ks[0]].rankings for s in together.values())  # one per run
        judged = {"A", "B", "C", "E", "F", "G"}
        for query in ("q1", "q2", "no such query"):
            assert together[2].rankings.ranking(query, judged) == first.ranking(query, judged)

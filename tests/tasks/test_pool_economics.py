"""Pool economics (issue 34 item 5): relevant found against judgments made for the draft, beside the strategy's
expected curve simulated on the latest frozen version; numbers derived here by hand."""

from __future__ import annotations

from pathlib import Path

from ndcg_desktop.scoring.pooling import Budget, Strategy
from ndcg_desktop.sessions.events import ItemsChanged, ProjectSlot
from ndcg_desktop.sessions.pool_economics import EconomicsSession
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_builds import PoolRequest, apply_pool, plan_pool
from ndcg_desktop.tasks.pool_economics import ALL, pool_economics
from tests.tasks.test_pool_builds import RUNS, _write_run


def test_the_drafts_curve_beside_the_strategys_expected_one(tmp_path: Path) -> None:
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "v1.qrels").write_text("q1 0 a1 2\nq1 0 b1 1\nq1 0 c1 0\nq1 0 a2 0\n")
    with Project.create(path, annotator="ana") as p:
        for name in RUNS:
            _write_run(tmp_path / f"{name}.run", name)
            p.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="ana")
        p.judgments.import_qrels(tmp_path / "v1.qrels", annotator="ana")
        freeze_draft(p, annotator="ana")
        p.pools.new_draft_from(1, annotator="ana")
        # rrf (k = 60) on q1 takes a1 (1/61 + 1/62), then b1 and c1 (1/61 each, by ID): all judged in v1 already
        plan = plan_pool(p, PoolRequest(("A", "B", "C"), Strategy.parse("rrf"), Budget.parse("3"), 4, ("q1",)))
        apply_pool(p, plan, annotator="ana")
        p.judgments.set_grade("q1", "b1", 0, annotator="ana")  # the draft judges b1 otherwise than v1
        economics = pool_economics(p, 2)
    assert economics is not None and economics.oracle == 1
    # the draft: a1 relevant, b1 not (regraded), c1 not -> 1, 1, 1; v1 as the oracle: 1, 2, 2
    assert economics.curve(economics.actual, "q1") == [(1, 1), (2, 1), (3, 1)]
    assert economics.curve(economics.expected, "q1") == [(1, 1), (2, 2), (3, 2)]
    assert economics.curve(economics.actual, ALL) == [(1, 1), (2, 1), (3, 1)]
    assert economics.per_query.to_dict("records") == [
        {"query_id": "q1", "judged": 3, "relevant": 1, "expected_relevant": 2.0, "budget": 3}
    ]


def test_the_session_drops_its_curves_when_the_drafts_grades_change(tmp_path: Path) -> None:
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ana") as p:
        for name in RUNS:
            _write_run(tmp_path / f"{name}.run", name)
            p.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="ana")
    slot, session = ProjectSlot(), EconomicsSession()
    session.follow(slot)
    project = Project.open(path)
    slot.open(project, annotator="ana")
    request = PoolRequest(("A", "B", "C"), Strategy.parse("maxmean"), Budget.parse("6"), 4, ("q1", "q2"), 2)
    apply_pool(project, plan_pool(project, request), annotator="ana")
    project.judgments.set_grade("q1", "a1", 2, annotator="ana")
    project.judgments.set_grade("q2", "x1", 0, annotator="ana")
    job = session.job()
    assert session.apply(job, job())
    result = session.result
    assert result is not None and result.oracle is None and result.expected.empty  # no frozen version yet
    # over all queries, by position then query: q1's a1 (relevant), then q2's x1 (not)
    assert result.curve(result.actual, ALL) == [(1, 1), (2, 1)]
    session.project_event(ItemsChanged(result.version, frozenset({"q1"})))
    assert session.result is None
    stale = job
    assert not session.apply(stale, job())  # computed before the change: never shown
    slot.close()

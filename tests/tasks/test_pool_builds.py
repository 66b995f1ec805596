"""Pooling with a strategy and a budget, and an adaptive pool filled in batches (issue 34 items 1 and 2; contract
rule 20). Every expected order is derived here from the definitions, by hand."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.blind import judging_order
from ndcg_desktop.scoring.pooling import Budget, Strategy
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.export import export_frozen_pool
from ndcg_desktop.tasks.identity import open_to_grade
from ndcg_desktop.tasks.pool_builds import (
    PoolRequest,
    apply_pool,
    batch_progress,
    build_state,
    next_batches,
    plan_pool,
    take_back_batches,
)
from ndcg_desktop.tasks.pooling import pool_from_runs
from ndcg_desktop.tasks.project import freeze
from ndcg_desktop.tasks.status import project_status
from ndcg_desktop.tasks.teams import assign_work, merge_work

# Three runs of q1, depth 4 (and q2, answered by A only). Scores fall with the rank, so the file order is the rank.
RUNS = {
    "A": {"q1": ["a1", "a2", "a3", "a4"], "q2": ["x1", "x2"]},
    "B": {"q1": ["b1", "a1", "b2", "b3"]},
    "C": {"q1": ["c1", "c2", "c3", "c4"]},
}


def _write_run(path: Path, name: str) -> None:
    path.write_text(
        "".join(f"{q} Q0 {d} {r + 1} {10 - r} {name}\n" for q, docs in RUNS[name].items() for r, d in enumerate(docs))
    )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, annotator="ana") as p:
        for name in RUNS:
            _write_run(tmp_path / f"{name}.run", name)
            p.runs.import_run(tmp_path / f"{name}.run", name=name, annotator="ana")
    opened = Project.open(path)
    yield opened
    opened.close()


def _grade(project: Project, query: str, grades: dict[str, int]) -> None:
    for doc, grade in grades.items():
        project.judgments.set_grade(query, doc, grade, annotator="ana")


def test_rrf_within_a_budget_records_everything_rule_20_names(project: Project, tmp_path: Path) -> None:
    # rrf, k = 60 (Cormack et al.): A ranks a1 1st; B ranks a1 2nd and b1 1st; C ranks c1 1st.
    # a1: 1/61 + 1/62; b1 = c1 = 1/61 (ties: document ID ascending); a2 = c2 = 1/62; ...
    scores = {"a1": 1 / 61 + 1 / 62, "b1": 1 / 61, "c1": 1 / 61, "a2": 1 / 62, "c2": 1 / 62}
    expected = sorted(scores, key=lambda d: (-scores[d], d))[:3]
    assert expected == ["a1", "b1", "c1"]
    request = PoolRequest(("A", "B", "C"), Strategy.parse("rrf"), Budget.parse("3"), 4, ("q1",))
    plan = plan_pool(project, request)
    assert plan.choices[["doc_id", "position"]].values.tolist() == [[d, i + 1] for i, d in enumerate(expected)]
    # q1's depth pool: a1..a4, b1..b3, c1..c4 = 11 distinct documents; q2 was not asked for
    assert plan.per_query.to_dict("records") == [
        {"query_id": "q1", "candidates": 11, "budget": 3, "chosen": 3, "new": 3}
    ]
    assert project.pools.draft() is None  # a plan writes nothing
    pooled = apply_pool(project, plan, annotator="ana")
    assert pooled.added == 3 and sorted(project.pools.pool_items(pooled.draft)["doc_id"]) == sorted(expected)
    (build,) = project.builds.of_version(pooled.draft)
    assert (build.strategy, build.parameters, build.budget, build.depth, build.queries) == (
        "rrf(k=60)",
        {"k": 60},
        "3",
        4,
        ["q1"],
    )
    file_hashes = [hashlib.sha256((tmp_path / f"{n}.run").read_bytes()).hexdigest() for n in ("A", "B", "C")]
    assert [r["name"] for r in build.runs] == ["A", "B", "C"]
    assert [r["sha256"] for r in build.runs] == file_hashes
    stored = dict(sqlite3.connect(project.path).execute("SELECT name, data_hash FROM runs").fetchall())
    assert [r["data_hash"] for r in build.runs] == [stored[n] for n in ("A", "B", "C")]


def test_depth_pooling_without_a_budget_is_todays_pool(project: Project) -> None:
    request = PoolRequest(("A", "B"), Strategy.parse("depth"), None, 2)
    plan = plan_pool(project, request)
    # rank 1 of every run in the order given, then rank 2, each document once: a1, b1, a2 (a1 again from B)
    order = plan.choices.groupby("query_id")["doc_id"].apply(list).to_dict()
    assert order == {"q1": ["a1", "b1", "a2"], "q2": ["x1", "x2"]}
    assert pool_from_runs(project, ["A", "B"], 2, apply=False)["candidates"].tolist() == [3, 2]  # the same pool


def test_refusals_name_the_problem(project: Project) -> None:
    with pytest.raises(InputError, match="needs a batch size"):
        PoolRequest(("A",), Strategy.parse("maxmean"), None, 4)
    with pytest.raises(InputError, match="a batch size is for an adaptive strategy"):
        PoolRequest(("A",), Strategy.parse("rrf"), None, 4, batch_size=2)
    with pytest.raises(InputError, match="no chosen run answered query 'q9'"):
        plan_pool(project, PoolRequest(("A",), Strategy.parse("depth"), None, 4, ("q1", "q9")))
    with pytest.raises(InputError, match="has no run named 'Z'"):
        plan_pool(project, PoolRequest(("A", "Z"), Strategy.parse("depth"), None, 4))
    plan = plan_pool(project, PoolRequest(("A",), Strategy.parse("depth"), None, 1))
    project.pools.ensure_draft(annotator="ana")  # the draft changed since the preview
    with pytest.raises(InputError, match="preview again"):
        apply_pool(project, plan, annotator="ana")


def _maxmean(project: Project) -> int:
    request = PoolRequest(("A", "B", "C"), Strategy.parse("maxmean"), Budget.parse("6"), 4, ("q1",), batch_size=2)
    return apply_pool(project, plan_pool(project, request), annotator="ana").draft


def _batches(project: Project, version: int) -> list[list[str]]:
    choices = project.builds.choices(version)
    return [list(rows["doc_id"]) for _, rows in choices.groupby("batch")]


def test_maxmean_fills_a_query_in_batches_from_peoples_grades(project: Project) -> None:
    """MaxMean (Losada et al. 2016), batches of 2, budget 6, by hand. Every arm starts at (0 + 1)/(0 + 2) = 1/2.

    Batch 1: nothing judged. A wins the tie (runs in order); a1 joins the batch without an observation, so A
    stays at 1/2 and wins again: a2. Batch 1 = [a1, a2].
    People grade a1 = 2, a2 = 0. Batch 2, replayed with those grades free: A sees a1 relevant (2/3), then a2 not
    (2/4 = 1/2); the tie goes to A again: a3, then a4 join. Batch 2 = [a3, a4].
    People grade both 0. Batch 3: A after a1, a2, a3 is at 2/5; B (1/2) goes first: b1 joins; B's next, a1, is
    judged relevant: free, B at 2/3; b2 joins. Batch 3 = [b1, b2]: six documents, the budget is spent.
    """
    version = _maxmean(project)
    assert _batches(project, version) == [["a1", "a2"]]
    assert next_batches(project, annotator="ana").documents == 0  # the batch is not graded yet
    _grade(project, "q1", {"a1": 2})
    assert next_batches(project, annotator="ana").documents == 0  # half graded: still not
    _grade(project, "q1", {"a2": 0})
    added = next_batches(project, annotator="ana")
    assert added.added == {project.builds.of_version(version)[0].build_id: {"q1": ["a3", "a4"]}}
    _grade(project, "q1", {"a3": 0, "a4": 0})
    next_batches(project, annotator="ana")
    assert _batches(project, version) == [["a1", "a2"], ["a3", "a4"], ["b1", "b2"]]
    assert project.builds.choices(version)["position"].tolist() == [1, 2, 3, 4, 5, 6]
    _grade(project, "q1", {"b1": 1, "b2": 0})
    assert next_batches(project, annotator="ana").documents == 0
    (build,) = project.builds.of_version(version)
    (state,) = batch_progress(project, build_state(project, build))
    assert (state.batch, state.chosen, state.graded, state.budget, state.state) == (3, 6, 6, 6, "spent")


def test_a_models_grade_never_completes_a_batch(project: Project) -> None:
    version = _maxmean(project)
    _grade(project, "q1", {"a1": 2})
    with project.transaction() as conn:  # how freezing fills an item from a model's rating (rule 18)
        conn.execute(
            "UPDATE judgments SET grade = 0, annotator = 'model:m', adjudication = 'model:m' WHERE doc_id = 'a2'"
        )
    assert next_batches(project, annotator="ana").documents == 0
    assert _batches(project, version) == [["a1", "a2"]]


def test_the_new_batch_is_met_in_blind_order(project: Project) -> None:
    version = _maxmean(project)
    _grade(project, "q1", {"a1": 2, "a2": 0})
    next_batches(project, annotator="ana")
    items = project.pools.pool_items(version, "q1")
    waiting = items[items["grade"].isna()]["doc_id"].tolist()
    assert sorted(waiting) == ["a3", "a4"]
    # what the Annotate view walks: the pool in the blind order, the ungraded ones being this batch alone
    walked = [d for d in judging_order("q1", items["doc_id"].tolist()) if d in waiting]
    assert walked == judging_order("q1", ["a3", "a4"])


def test_taking_a_batch_back_leaves_the_draft_as_before(project: Project) -> None:
    version = _maxmean(project)
    _grade(project, "q1", {"a1": 2, "a2": 0})
    before = (project.pools.pool_items(version).to_dict("records"), project.builds.choices(version).to_dict("records"))
    added = next_batches(project, annotator="ana")
    assert take_back_batches(project, added, annotator="ana") == 2
    after = (project.pools.pool_items(version).to_dict("records"), project.builds.choices(version).to_dict("records"))
    assert after == before


def test_work_files_carry_the_batch_and_nothing_of_the_runs(project: Project, tmp_path: Path) -> None:
    version = _maxmean(project)
    assignment = assign_work(project, ["ben"], tmp_path / "out", overlap=0.0)
    work = assignment.files["ben"]
    con = sqlite3.connect(work)
    try:
        assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM pool_builds").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM pool_choices").fetchone()[0] == 0
        assert sorted(d for (d,) in con.execute("SELECT doc_id FROM judgments")) == ["a1", "a2"]  # the batch
    finally:
        con.close()
    with open_to_grade(work, "ben") as (copy, ben):
        copy.judgments.set_grade("q1", "a1", 2, annotator=ben)
        copy.judgments.set_grade("q1", "a2", 0, annotator=ben)
    merge_work(project, [work], annotator="ana")
    added = next_batches(project, annotator="ana")  # ndcg pool-next after the merge
    assert added.added[project.builds.of_version(version)[0].build_id] == {"q1": ["a3", "a4"]}


def test_the_frozen_versions_manifest_carries_the_record(project: Project, tmp_path: Path) -> None:
    version = _maxmean(project)
    _grade(project, "q1", {"a1": 2, "a2": 0})
    next_batches(project, annotator="ana")
    _grade(project, "q1", {"a3": 0, "a4": 1})
    freeze(project, annotator="ana")
    export_frozen_pool(project, tmp_path / "v.qrels", version=version)
    manifest = json.loads((tmp_path / "v.qrels.manifest.json").read_text())
    (record,) = manifest["pooling"]
    assert (record["strategy"], record["budget"], record["depth"], record["batch_size"]) == ("maxmean()", "6", 4, 2)
    assert record["queries"] == ["q1"] and [r["name"] for r in record["runs"]] == ["A", "B", "C"]
    assert record["order"] == {"q1": ["a1", "a2", "a3", "a4"]}
    assert record["batches"] == {"q1": [2, 2]}
    assert (record["chosen"], record["added"]) == (4, 4)
    lines = "".join(f"q1\t{i + 1}\t{d}\t{i // 2 + 1}\n" for i, d in enumerate(["a1", "a2", "a3", "a4"]))
    assert record["order_sha256"] == hashlib.sha256(b"ndcg-pool-order-v1\n" + lines.encode()).hexdigest()
    status = next(v for v in project_status(project)["pool_versions"] if v["version"] == version)
    assert [b["strategy"] for b in status["pooling"]] == ["maxmean()"]

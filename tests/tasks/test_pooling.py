"""Send for judging: the plan says exactly what will be added, and applying adds exactly that."""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.pools import PoolRepository
from ndcg_desktop.tasks import QueryScope, apply_send_for_judging, plan_send_for_judging, undo_send_for_judging

QRELS = "q1 0 A 3\nq1 0 B 2\nq2 0 E 1\n"
# q1: B, X, C, Z (X, C, Z unjudged at ranks 2, 3, 4); q2: E, Y; q9 is not in the pool.
RUN = (
    "q1 Q0 B 1 4.0 s\nq1 Q0 X 2 3.0 s\nq1 Q0 C 3 2.0 s\nq1 Q0 Z 4 1.0 s\n"
    "q2 Q0 E 1 1.0 s\nq2 Q0 Y 2 0.5 s\nq9 Q0 W 1 1.0 s\n"
)


@pytest.fixture
def project(stored):
    return stored(QRELS, RUN)


def pairs(frame):
    return sorted(map(tuple, frame[["query_id", "doc_id"]].values.tolist()))


def test_plan_is_limited_to_the_depth_and_the_scope(project):
    plan = plan_send_for_judging(project, "sys", 1, depth=2)
    assert pairs(plan.items) == [("q1", "X"), ("q2", "Y")]  # not C, Z (below depth 2), not q9 (not in the pool)
    assert plan.per_query.values.tolist() == [["q1", 1, 0, 1], ["q2", 1, 0, 1]]
    assert plan.draft is None and plan.total == 2
    everything = plan_send_for_judging(project, "sys", 1, depth=10, scope=QueryScope.RUN)
    assert pairs(everything.items) == [("q1", "C"), ("q1", "X"), ("q1", "Z"), ("q2", "Y"), ("q9", "W")]
    assert project.pools.draft() is None  # a plan writes nothing
    whole = plan_send_for_judging(project, "sys", 1, scope=QueryScope.RUN)  # no depth: every returned document
    assert pairs(whole.items) == pairs(everything.items)  # 10 is past the longest ranking (4): the same plan
    with pytest.raises(InputError, match="the depth must be a positive integer, not 0"):
        plan_send_for_judging(project, "sys", 1, depth=0)


def test_apply_adds_exactly_the_plan_and_counts_what_waits(project):
    plan = plan_send_for_judging(project, "sys", 1, depth=2)
    sent = apply_send_for_judging(project, plan, annotator="tester")
    assert (sent.draft, sent.created_draft) == (2, True)
    items = project.pools.pool_items(2)
    assert pairs(items[items["grade"].isna()]) == [("q1", "X"), ("q2", "Y")]
    again = plan_send_for_judging(project, "sys", 1, depth=3)
    assert pairs(again.items) == [("q1", "C")]  # X and Y already wait in the draft
    assert again.per_query.set_index("query_id").loc["q1"].tolist() == [2, 1, 1]  # unjudged, waiting, to add
    with pytest.raises(InputError, match="changed since the preview"):
        apply_send_for_judging(project, plan, annotator="tester")  # made when there was no draft


def test_cli_send_for_judging_dry_run_then_apply(project, capsys):
    path = str(project.path)
    project.close()
    assert main(["send-for-judging", path, "--run-name", "sys", "--depth", "2", "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "q1\twould add 1 of 1 unjudged (0 already waiting)",
        "q2\twould add 1 of 1 unjudged (0 already waiting)",
        "would add 2 documents of run sys to a new draft",
    ]
    assert main(["send-for-judging", path, "--run-name", "sys", "--depth", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "2 documents of run sys await grading in draft version 2; freeze it, then score again"
    )


def test_undo_takes_back_a_new_draft_and_only_ungraded_items_of_an_old_one(project):
    sent = apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=2), annotator="tester")
    assert undo_send_for_judging(project, sent, annotator="tester") == 2
    assert project.pools.draft() is None and [v.version for v in project.pools.versions()] == [1]
    # Into an existing draft: the undo removes what it added and is still ungraded, nothing else.
    draft = project.pools.new_draft_from(1, annotator="tester").version  # 3: the audit log names 2 (issue 23 item 3)
    sent = apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=3), annotator="tester")
    assert pairs(sent.items) == [("q1", "C"), ("q1", "X"), ("q2", "Y")]
    project.judgments.set_grade("q1", "X", 1, annotator="tester")
    assert undo_send_for_judging(project, sent, annotator="tester") == 2
    assert pairs(project.pools.pool_items(draft)) == [("q1", "A"), ("q1", "B"), ("q1", "X"), ("q2", "E")]
    assert list(project.judgments.audit_log(draft)["action"]).count("undo send for judging") == 2


def test_discard_draft_from_the_cli_needs_confirmation(project, capsys):
    apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=2), annotator="tester")
    path = str(project.path)
    project.close()
    assert main(["discard-draft", path]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {path}: discarding draft version 2 cannot be undone and deletes its 5 items and 3 ratings (by "
        "import:q.txt); add --yes to confirm"
    )
    assert main(["discard-draft", path, "--yes"]) == 0
    assert capsys.readouterr().out == "discarded draft version 2\n"
    with Project.open(path) as p:
        assert p.pools.draft() is None and [v.version for v in p.pools.versions()] == [1]
        assert set(p.judgments.audit_log(2)["action"]) == {
            "draft",
            "send for judging",
            "discard draft",
        }  # draft: issue 33
    assert main(["discard-draft", path, "--yes"]) == 2
    assert capsys.readouterr().err.strip() == f"error: {path}: has no draft pool to discard"


def test_the_new_draft_copies_the_frozen_version_and_audits_the_sending(project, capsys):
    assert main(["send-for-judging", str(project.path), "--run-name", "sys", "--depth", "2"]) == 2  # open here
    assert "in another" in capsys.readouterr().err
    apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=2), annotator="tester")
    draft = project.pools.draft()
    assert draft.version == 2 and draft.parent == 1
    items = project.pools.pool_items(2).set_index("doc_id")
    assert pd.isna(items.loc["X", "grade"]) and items.loc["A", "grade"] == 3
    assert set(project.judgments.audit_log(2)["action"]) == {
        "draft",
        "send for judging",
    }  # the draft audited (issue 33)


def _reference_plan(run: pd.DataFrame, qrels: pd.DataFrame, draft: pd.DataFrame, depth: int, pool_only: bool):
    """What the plan must hold, by an independent pandas read: (items in run order, per-query counts)."""
    top = run[run["rank"] <= depth]
    if pool_only:
        top = top[top["q"].isin(set(qrels["q"]))]
    judged = top.merge(qrels[["q", "d"]], on=["q", "d"], how="left", indicator=True)["_merge"] == "both"
    unjudged = top[judged.to_numpy() == False]  # noqa: E712
    waiting = unjudged.merge(draft, on=["q", "d"], how="left", indicator=True)["_merge"] == "both"
    items = unjudged[waiting.to_numpy() == False]  # noqa: E712
    counts = {q: [int((unjudged["q"] == q).sum()), int((items["q"] == q).sum())] for q in sorted(set(unjudged["q"]))}
    return items[["q", "rank", "d"]].values.tolist(), [[q, u, u - a, a] for q, (u, a) in counts.items()]


@pytest.mark.parametrize(("depth", "scope"), [(7, QueryScope.POOL), (40, QueryScope.RUN), (3, QueryScope.POOL)])
def test_a_plan_of_many_pairs_matches_a_pandas_anti_join_without_reading_items_into_python(
    stored, monkeypatch, depth, scope
):
    import numpy as np

    from ndcg_desktop.domain.data import Qrels

    rng = np.random.default_rng(7)
    rows = [(f"q{q}", f"doc-{d}") for q in range(30) for d in rng.choice(500, 40, replace=False)]
    run = pd.DataFrame(rows, columns=["q", "d"])
    run["rank"] = run.groupby("q").cumcount() + 1  # the file's order; scores fall with it
    judged = run.sample(frac=0.3, random_state=3).query("q != 'q29'")  # q29 is not in the pool
    judged = pd.concat([judged, pd.DataFrame({"q": ["q0", "q5"], "d": ["elsewhere", "doc-999"]})])
    qrels_text = "".join(f"{q} 0 {d} {i % 3}\n" for i, (q, d) in enumerate(judged[["q", "d"]].values.tolist()))
    run_text = "".join(f"{q} Q0 {d} {r} {1000 - r} s\n" for q, d, r in run[["q", "d", "rank"]].values.tolist())
    project = stored(qrels_text, run_text)
    apply_send_for_judging(
        project, plan_send_for_judging(project, "sys", 1, depth=2), annotator="tester"
    )  # a draft with waiting items
    project.judgments.add_items(
        pd.DataFrame({"query_id": ["q3"], "doc_id": [run[run["q"] == "q3"]["d"].iloc[4]]}), annotator="tester"
    )
    draft = project.pools.pool_items(2).rename(columns={"query_id": "q", "doc_id": "d"})[["q", "d"]]

    # A million pairs as Python objects (a pandas frame of the version's items, the qrels as a frame of strings)
    # hold the GIL for seconds on the worker, freezing the window: the plan reads neither.
    def refused(*args, **kwargs):
        raise AssertionError("the plan read pairs into Python objects")

    monkeypatch.setattr(PoolRepository, "pool_items", refused)
    monkeypatch.setattr(Qrels, "frame", property(refused))
    plan = plan_send_for_judging(project, "sys", 1, depth=depth, scope=scope)

    items, per_query = _reference_plan(run, judged, draft, depth, scope is QueryScope.POOL)
    assert plan.items.values.tolist() == items
    assert plan.per_query.values.tolist() == per_query
    assert plan.per_query["waiting"].sum() > 0 and plan.total == len(items) > 0


def test_without_a_draft_the_plan_does_not_read_the_frozen_versions_pairs_again(project, monkeypatch):
    """The new draft would copy the version whose judgments decided what is unjudged: nothing of the plan can be
    waiting there, and reading its pairs (770,000 at 7M lines) only held the worker's GIL."""
    monkeypatch.setattr(PoolRepository, "pairs", lambda *a: pytest.fail("read the version's pairs"))
    plan = plan_send_for_judging(project, "sys", 1, depth=10, scope=QueryScope.RUN)
    assert pairs(plan.items) == [("q1", "C"), ("q1", "X"), ("q1", "Z"), ("q2", "Y"), ("q9", "W")]
    assert plan.per_query.values.tolist() == [["q1", 3, 0, 3], ["q2", 1, 0, 1], ["q9", 1, 0, 1]]

"""Adjudication (issue 15): differing items listed by how much they can move a run's nDCG, settled by a pick or a
rule recorded with the version; freezing waits for every one; the frozen manifest names the annotators."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.domain.settings import GradeScale, UnjudgedPolicy, default_labels
from ndcg_desktop.scoring.agreement import agreement
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import ratings_hash
from ndcg_desktop.tasks.adjudication import apply_rule, disagreements, pick, rule_grade, team_manifest, undo_rule
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run

COLUMNS = ["query_id", "doc_id", "annotator", "grade", "note", "rated_at"]


@pytest.mark.parametrize(
    "grades, median, majority, lowest, highest",
    [
        ([1, 3], 1, None, 1, 3),
        ([0, 1, 3, 3], 1, 3, 0, 3),  # lower middle of 1 and 3 is 1
        ([2, 0, 1], 1, None, 0, 2),  # three different: a tie for the majority
        ([3, 3, 0], 3, 3, 0, 3),
    ],
)
def test_each_rule_on_its_definition(grades, median, majority, lowest, highest):
    assert [rule_grade(grades, r) for r in ("median", "majority", "lowest", "highest")] == [
        median,
        majority,
        lowest,
        highest,
    ]


@pytest.fixture
def rated(tmp_path) -> Path:
    """Draft: q1 A B C D, q2 E F. Ratings: q1 A ana 1 / ben 3 (run misses A); q1 B ana 2 / ben 2; q1 C ana 0 /
    ben 1 (in the run's top 2); q1 D ana 0; q2 E ana 1 / ben 2 / chen 2; q2 F ana 1. Run bm25: q1 [B, C], q2 [E]."""
    path = tmp_path / "p.ndcgproj"
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 B 1 2 s\nq1 Q0 C 2 1 s\nq2 Q0 E 1 1 s\n")
    rows = [
        ("q1", "A", "ana", 1),
        ("q1", "A", "ben", 3),
        ("q1", "B", "ana", 2),
        ("q1", "B", "ben", 2),
        ("q1", "C", "ana", 0),
        ("q1", "C", "ben", 1),
        ("q1", "D", "ana", 0),
        ("q2", "E", "ana", 1),
        ("q2", "E", "ben", 2),
        ("q2", "E", "chen", 2),
        ("q2", "F", "ana", 1),
    ]
    frame = pd.DataFrame([(*r, "", "t") for r in rows], columns=COLUMNS)
    with Project.create(path, annotator="coord") as project:
        project.runs.import_run(run, name="bm25", annotator="coord")
        project.judgments.add_items(frame[["query_id", "doc_id"]].drop_duplicates(), annotator="coord")
        project.ratings.add_ratings(frame, version=1, source="test", annotator="coord")
    return path


def test_the_list_is_sorted_by_the_largest_ndcg_swing(rated):
    with Project.open(rated) as project:
        found = disagreements(project, k=2)
    items = found.items
    assert items[["query_id", "doc_id"]].values.tolist() == [["q1", "A"], ["q1", "C"], ["q2", "E"]]
    # q1 universe at the open items' lowest ratings: A in {1, 3}, B 2, C 0 (or 1), D 0; run [B, C], K=2
    a = (2 + 0 / math.log2(3)) / (2 + 1 / math.log2(3)) - (2 + 0) / (3 + 2 / math.log2(3))
    c = (2 + 1 / math.log2(3)) / (2 + 1 / math.log2(3)) - (2 + 0) / (2 + 1 / math.log2(3))
    e = 2 / (2 + 1 / math.log2(3)) - 1 / (1 + 1 / math.log2(3))  # q2: run [E], E in {1, 2}, F 1
    assert items["swing"].tolist() == [pytest.approx(x, abs=1e-12) for x in (a, c, e)]
    assert a > c > e
    # each rating with its grade's label, as the window shows grades (issue 23 item 4)
    labels = default_labels(GradeScale())  # the project's: 0..3, the default ladder
    n, r, h, p = (f"{g} · {label}" for g, label in enumerate(labels))
    assert items["ratings"].tolist() == [f"ana {r}, ben {p}", f"ana {n}, ben {r}", f"ana {r}, ben {h}, chen {h}"]
    assert items["grade"].isna().all() and found.open == 3


def test_a_pick_and_a_rule_settle_items_and_are_recorded(rated):
    with Project.open(rated) as project:
        assert pick(project, "q1", "A", 2, annotator="judge") == (None, None)
        done = apply_rule(project, "majority", annotator="judge")  # q1 C (0 vs 1) is a tie; q2 E: ben and chen say 2
        assert (done.settled.values.tolist(), done.left) == ([["q2", "E", 2]], 1)
        median = apply_rule(project, "median", annotator="judge")  # q1 C: lower middle of 0, 1
        assert (median.settled.values.tolist(), median.left) == ([["q1", "C", 0]], 0)
        items = project.pools.pool_items(1).set_index(["query_id", "doc_id"])
        assert items.loc[("q1", "A"), "grade"] == 2 and items.loc[("q1", "A"), "annotator"] == "judge"
        assert items.loc[("q2", "E"), "grade"] == 2 and items.loc[("q1", "C"), "grade"] == 0
        how = project.ratings.settled_items(1).set_index(["query_id", "doc_id"])["how"].to_dict()
        assert how == {("q1", "A"): "pick", ("q1", "C"): "median", ("q2", "E"): "majority"}
        undo_rule(project, median, annotator="judge")  # a rule can be taken back (undo)
        assert disagreements(project, k=2).open == 1
        assert apply_rule(project, "median", annotator="judge").settled.values.tolist() == [["q1", "C", 0]]
        # a pick can be taken back (undo) and the item is open again
        assert pick(project, "q1", "A", None, annotator="judge") == (2, "pick")
        assert disagreements(project, k=2).open == 1
        with pytest.raises(InputError, match="1 item that annotators rated differently"):
            freeze_draft(project, annotator="judge")
        pick(project, "q1", "A", 3, annotator="judge")
        with pytest.raises(InputError, match="grade 4 is outside the scale 0..3"):
            pick(project, "q1", "A", 4, annotator="judge")


def test_the_frozen_versions_manifest_names_the_annotators_their_ratings_hash_and_the_rules(rated):
    with Project.open(rated) as project:
        pick(project, "q1", "A", 3, annotator="judge")
        apply_rule(project, "median", annotator="judge")
        version = freeze_draft(project, annotator="judge")
        manifest = team_manifest(project, version)
        ratings = project.ratings.verified(1)
        scored = score_run(project, "bm25", None, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False)
    expected = {
        name: {"ratings": len(group), "sha256": ratings_hash(group, GradeScale(0, 3), name)}
        for name, group in ratings.groupby("annotator")
    }
    assert sorted(expected) == ["ana", "ben", "chen"]
    assert {n: e["ratings"] for n, e in expected.items()} == {"ana": 6, "ben": 4, "chen": 1}
    figures = agreement(ratings, GradeScale(0, 3)).summary()  # rule 16: the agreement figures, all queries
    assert figures["annotators"] == ["ana", "ben", "chen"] and isinstance(figures["alpha_ordinal"], float)
    assert manifest == {"annotators": expected, "adjudication": {"median": 2, "pick": 1}, "agreement": figures}
    assert scored.evaluation.manifest["judgments"]["agreement"] == figures
    assert scored.evaluation.manifest["judgments"]["annotators"] == expected
    assert scored.evaluation.manifest["judgments"]["adjudication"] == {"median": 2, "pick": 1}

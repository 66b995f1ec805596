"""A person never sees a model's grade before giving their own (issue 25, contract rule 18): the class of reads.

Everything the Annotate view shows or decides about an item comes from a few store reads (the pool's grade and
its author, the per-query counts of graded and awaiting items, the items awaiting adjudication) and from
``sessions.annotate_rules``'s rules on them. A model's rating must reach none of them: an item rated only by models is
ungraded there, never graded, never "awaiting adjudication" (even when two models differ), and a person's grade
over it is neither a question ("replace model:x's grade?") nor recorded as a pick between them.

The model's ratings are written by the assessor's own recording path (``project.assessor``), as a job writes them.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ndcg_desktop.domain import GradeScale
from ndcg_desktop.sessions.annotate_rules import GradingRules, next_query_to_grade, next_ungraded
from ndcg_desktop.store import Project
from tests.helpers import model_rates

MODELS = ("model:alpha", "model:beta")


@pytest.fixture
def project(tmp_path, write):
    """A draft: q1 with A (graded 3, from the file), B, C, D ungraded; q2 with E ungraded."""
    p = Project.create(tmp_path / "p.ndcgproj", scale=GradeScale(0, 3), annotator="ann")
    qrels = write("j.qrels", "q1 0 A 3\nq1 0 B -1\nq1 0 C -1\nq1 0 D -1\nq2 0 E -1\n")
    p.judgments.import_qrels(qrels, negative_as_ungraded=True, annotator="ann")
    yield p
    p.close()


def annotate_reads(project: Project) -> dict[str, object]:
    """What the Annotate view reads of the draft, in plain values."""
    version = project.pools.draft().version
    items = project.pools.pool_items(version)
    progress = project.pools.query_progress(version).set_index("query_id")
    return {
        "grades": {
            (q, d): (None if pd.isna(g) else int(g), a if isinstance(a, str) else None)
            for q, d, g, a in items[["query_id", "doc_id", "grade", "annotator"]].itertuples(index=False)
        },
        "graded": progress["graded"].to_dict(),
        "awaiting": progress["awaiting"].to_dict(),
        "awaiting_items": {q: project.ratings.awaiting(version, q) for q in ("q1", "q2")},
    }


def test_items_rated_only_by_models_read_as_ungraded_everywhere_annotate_looks(project):
    before = annotate_reads(project)
    # two models that differ on B, agree on C, and one alone on D and on q2's E
    model_rates(project, MODELS[0], {("q1", "B"): 0, ("q1", "C"): 2, ("q1", "D"): 1, ("q2", "E"): 3})
    model_rates(project, MODELS[1], {("q1", "B"): 3, ("q1", "C"): 2})
    recorded = set(project.ratings.verified(project.pools.draft().version)["annotator"])
    assert recorded == {"import:j.qrels", *MODELS}
    after = annotate_reads(project)
    assert after == before
    assert after["grades"] == {
        ("q1", "A"): (3, "import:j.qrels"),
        ("q1", "B"): (None, None),
        ("q1", "C"): (None, None),
        ("q1", "D"): (None, None),
        ("q2", "E"): (None, None),
    }
    assert after["graded"] == {"q1": 1, "q2": 0}
    assert after["awaiting"] == {"q1": 0, "q2": 0}  # two models differing on B make no adjudication
    # the next document and query to grade are the ones a person has not graded, models or not
    rows = [(d, g, False) for (q, d), (g, _a) in after["grades"].items() if q == "q1"]
    assert next_ungraded(rows, after=0) == 1
    assert next_query_to_grade([4 - 1, 1], current=0) == 1


def test_a_person_grading_an_item_a_model_rated_is_not_asked_and_makes_no_pick(project):
    model_rates(project, MODELS[0], {("q1", "B"): 0})
    version = project.pools.draft().version
    item = project.pools.pool_items(version, query_id="q1").set_index("doc_id").loc["B"]
    rules = GradingRules(scale=GradeScale(0, 3), frozen=False, read_only=False, user="ann", version=version)
    old = None if pd.isna(item["grade"]) else int(item["grade"])
    who = item["annotator"] if isinstance(item["annotator"], str) else None
    assert rules.decide(grade=2, old=old, who=who).kind == "grade"  # no "replace model:alpha's grade?"
    project.judgments.set_grade("q1", "B", 2, annotator="ann")
    graded = project.pools.pool_items(version, query_id="q1").set_index("doc_id").loc["B"]
    assert (int(graded["grade"]), graded["annotator"]) == (2, "ann")
    # the person's grade is theirs, not an adjudicator's pick between them and the model
    assert project.ratings.settled_items(version).empty
    assert project.pools.query_progress(version).set_index("query_id").loc["q1", ["graded", "awaiting"]].tolist() == [
        2,
        0,
    ]

"""Freezing's policy (tasks.freezing): what blocks a freeze, what it removes, and when a model's ratings may fill
the items no person rated (contract rule 18). Moved from the store's tests with the policy; the draft of a model's
record and the plain project are the store tests' own fixtures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project, pool_hash
from ndcg_desktop.tasks.freezing import freeze_draft

from ..store import test_assessor_record as record
from ..store import test_project as plain
from ..store.conftest import dump

MODEL, answer, start = record.MODEL, record.answer, record.start
draft, project = record.draft, plain.project  # the store tests' fixtures


def test_filling_from_a_model_is_refused_until_it_was_compared_with_people_then_recorded(draft):
    model_grades = {"d1": 2, "d2": 1, "d3": 2, "d4": 0, "d5": 1, "d6": 0, "d7": 3, "d8": 0}
    people = {"d1": 2, "d2": 2, "d3": 2, "d4": 0, "d5": 0, "d6": 0}
    with Project.open(draft) as p:
        run = start(p)
        p.assessor.record(run, [answer("d7", 3), answer("d8", 0)])  # only the items no person rated
        before = dump(draft)
        with pytest.raises(InputError) as refused:
            freeze_draft(p, fill_from=MODEL, annotator="coord")
        assert str(refused.value).startswith(
            f"{draft}: {MODEL} was compared with people on 0 items of draft version 1; filling ungraded items "
            "from it needs at least 50 (--min-shared)"
        )
        with pytest.raises(InputError, match="model:other has no ratings in draft version 1"):
            freeze_draft(p, fill_from="model:other", annotator="coord")
        with pytest.raises(InputError, match="'ana' does not name a model's ratings"):
            freeze_draft(p, fill_from="ana", annotator="coord")
        assert dump(draft) == before
        p.assessor.record(run, [answer(d, model_grades[d]) for d in people])  # calibrated on the rated items
        with pytest.raises(InputError, match="compared with people on 6 items .* needs at least 7"):
            freeze_draft(p, fill_from=MODEL, min_shared=7, annotator="coord")
        version = freeze_draft(p, fill_from=MODEL, min_shared=6, annotator="coord")
        frozen = p.pools.qrels(version.version).frame.set_index("doc_id")["grade"]
        assert frozen.to_dict() == people | {"d7": 3, "d8": 0}  # people's grades, the model's only where none
        team = p.pools.team(version)
    assert team["adjudication"] == {MODEL: 2}
    found = team["models"][MODEL]
    assert found["grades"] == 2
    assert found["runs"] == [
        {
            "model": "tiny",
            "endpoint_host": "127.0.0.1:9",
            "template_sha256": "a" * 64,
            "parameters": {"temperature": 0.0},
        }
    ]
    a = np.array([model_grades[d] for d in people])
    b = np.array([people[d] for d in people])
    assert found["agreement"]["items"] == 6 and found["agreement"]["exact"] == pytest.approx(np.mean(a == b))
    assert found["agreement"]["kappa_linear"] == pytest.approx(
        cohen_kappa_score(a, b, labels=[0, 1, 2, 3], weights="linear")
    )


def test_freezing_with_ungraded_items_a_model_rated_names_filling_from_it_beside_removing_them(draft):
    with Project.open(draft) as p:
        with pytest.raises(InputError) as plain:
            freeze_draft(p, annotator="coord")
        assert "--fill-ungraded-from" not in str(plain.value)  # no model rated anything: one way, to remove them
        p.assessor.record(start(p), [answer("d7", 3)])
        with pytest.raises(InputError) as refused:
            freeze_draft(p, annotator="coord")
        assert str(refused.value).startswith(
            f"{draft}: draft version 1 has 2 ungraded items; grade them, or remove them explicitly; or fill the items "
            f"no person rated from {MODEL}'s grades once it was compared with people (freeze --fill-ungraded-from "
            f"{MODEL})"
        )


def test_freeze_requires_grades_and_hashes(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B -1\n"), negative_as_ungraded=True, annotator="ann")
    with pytest.raises(InputError, match="1 ungraded item; grade them, or remove them explicitly"):
        freeze_draft(project, annotator="ann")
    project.judgments.set_grade("q1", "B", 1, annotator="ann")
    v = freeze_draft(project, annotator="ann")
    assert v.frozen and len(v.hash) == 64 and v.frozen_by == "ann"
    expected = pool_hash(pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["A", "B"], "grade": [3, 1]}), v.scale)
    assert v.hash == expected
    with pytest.raises(InputError, match="no draft pool to freeze"):
        freeze_draft(project, annotator="ann")


def test_freeze_can_drop_ungraded_explicitly(project, write):
    project.judgments.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B -1\n"), negative_as_ungraded=True, annotator="ann")
    v = freeze_draft(project, remove_ungraded=True, annotator="ann")
    assert project.pools.pool_items(v.version)["doc_id"].tolist() == ["A"]
    assert "remove" in set(project.judgments.audit_log()["action"])


def test_freezing_counts_only_the_ungraded_items_rated_differently(tmp_path):
    """An ungraded item nobody rated is "ungraded", one rated alike is settled, one rated differently is open."""
    with Project.create(tmp_path / "p.ndcgproj", annotator="ann") as project:
        project.judgments.add_items(pd.DataFrame({"query_id": ["q1"] * 5, "doc_id": list("ABCDE")}), annotator="ann")
        project.judgments.set_grade("q1", "A", 2, annotator="ann")
        ratings = pd.DataFrame(
            [
                ("q1", "B", "bob", 1, "", "t"),
                ("q1", "B", "cat", 3, "", "t"),  # B: differ
                ("q1", "C", "bob", 2, "", "t"),
                ("q1", "C", "cat", 0, "", "t"),  # C: differ
                ("q1", "D", "bob", 1, "", "t"),
                ("q1", "D", "cat", 1, "", "t"),  # D: alike, settled
            ],
            columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"],
        )
        project.ratings.add_ratings(ratings, version=1, source="test", annotator="ann")
        before = dump(project.file.path)
        for remove in (False, True):
            with pytest.raises(InputError, match="has 2 items that annotators rated differently"):
                freeze_draft(project, remove_ungraded=remove, annotator="ann")
        assert dump(project.file.path) == before
        project.ratings.adjudicate(
            pd.DataFrame([("q1", "B", 1), ("q1", "C", 2)], columns=["query_id", "doc_id", "grade"]),
            version=1,
            how="pick",
            annotator="ann",
        )
        with pytest.raises(InputError, match="has 1 ungraded item; grade them"):  # E: in the pool, never rated
            freeze_draft(project, annotator="ann")
        frozen = freeze_draft(project, remove_ungraded=True, annotator="ann")
        assert project.pools.qrels(frozen.version).frame.set_index("doc_id")["grade"].to_dict() == {
            "A": 2,
            "B": 1,
            "C": 2,
            "D": 1,
        }

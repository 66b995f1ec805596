"""A machine assessor's record in the project file (issue 25, contract rule 18, format 9): its runs and answers kept
as given, its grades ratings of model:<name> that never settle an item, and filling a draft from them only after
its agreement with people was measured. These test the store; tests/assessor/ judges with a real model server."""

from __future__ import annotations

import sqlite3
from functools import partial

import pandas as pd
import pytest

from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project
from ndcg_desktop.store.ratings import RATING_COLUMNS
from ndcg_desktop.store.schema import ASSESSOR_FORMAT, SCHEMA_VERSION
from ndcg_desktop.tasks.adjudication import apply_rule, disagreements, rule_grade
from ndcg_desktop.tasks.advice import what_blocks_freezing
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_editing import discard, plan_discard, remove_from_pool, restore_discarded, undo_remove
from tests.helpers import model_answer, start_model_run

from .conftest import dump
from .test_undo import append_only, assert_same, full_dump

MODEL = "model:tiny"
DOCS = [f"d{i}" for i in range(1, 9)]


def ratings(rows: list[tuple[str, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame([(q, d, a, g, "", "2026-01-01T00:00:00") for q, d, a, g in rows], columns=RATING_COLUMNS)


@pytest.fixture
def draft(tmp_path):
    """A draft of q1 d1..d8 (scale 0..3): ana rated d1..d6 (d1..d3: 2, d4..d6: 0); d7, d8 no person rated."""
    path = tmp_path / "p.ndcgproj"
    with Project.create(path, scale=GradeScale(0, 3), annotator="coord") as p:
        p.judgments.add_items(pd.DataFrame({"query_id": ["q1"] * len(DOCS), "doc_id": DOCS}), annotator="coord")
        grades = [2, 2, 2, 0, 0, 0]
        p.ratings.add_ratings(
            ratings([("q1", d, "ana", g) for d, g in zip(DOCS, grades, strict=False)]),
            version=1,
            source="test",
            annotator="coord",
        )
    return path


start = partial(start_model_run, annotator=MODEL, version=1)  # start(project): the model's run on the draft
answer = partial(model_answer, "q1")  # answer(doc, grade): every item here is on q1


def test_every_answer_is_kept_and_only_a_grade_becomes_the_models_rating(draft):
    with Project.open(draft) as p:
        run = start(p)
        assert p.assessor.record(run, [answer("d1", 3), answer("d7", None), answer("d8", 1)]) == 3
        kept = p.assessor.attempts(1)
        assert kept["doc_id"].tolist() == ["d1", "d7", "d8"]
        assert kept["grade"].tolist()[::2] == [3, 1] and kept["grade"].isna().tolist() == [False, True, False]
        assert kept["raw"].tolist() == ['{"grade": 3}', "I think it is relevant", '{"grade": 1}']
        assert kept.loc[1, "failure"] == 'the answer is not a JSON object {"grade": N}'
        assert kept["latency"].tolist() == [0.25] * 3 and kept["prompt_tokens"].tolist() == [100] * 3
        mine = p.ratings.verified(1).query("annotator == @MODEL")
        assert mine[["doc_id", "grade"]].values.tolist() == [["d1", 3], ["d8", 1]]  # the failure is no rating
        assert p.assessor.judged(1, MODEL, "a" * 64)["doc_id"].tolist() == ["d1", "d8"]
        assert p.assessor.judged(1, MODEL, "b" * 64).empty  # another template judges again
        log = p.judgments.audit_log(1)
        assert log[log["who"] == MODEL]["doc_id"].tolist() == ["d1", "d8"]
        assert p.assessor.runs(1)[["graded", "failed"]].values.tolist() == [[2, 1]]


def test_a_models_rating_never_settles_an_item(draft):
    """The class: however a model's rating arrives (its own record, or the ratings merge every annotator's
    ratings go through), an item only the model rated stays ungraded, and a model differing from a person
    leaves nothing to adjudicate."""
    with Project.open(draft) as p:
        p.ratings.add_ratings(
            ratings([("q1", "d7", MODEL, 3), ("q1", "d1", MODEL, 0)]), version=1, source="t", annotator="coord"
        )
        run = start(p)
        p.assessor.record(run, [answer("d8", 2), answer("d2", 3)])
        items = p.pools.items(1).set_index("doc_id")["grade"]
        assert items[["d7", "d8"]].isna().all()  # rated by the model alone: ungraded
        assert items[["d1", "d2"]].tolist() == [2, 2]  # the person's grade stands
        assert p.ratings.unsettled(1) == 0 and p.ratings.awaiting(1, "q1") == set()
        p.ratings.add_ratings(ratings([("q1", "d7", "ben", 1)]), version=1, source="t", annotator="coord")
        assert p.pools.items(1).set_index("doc_id").loc["d7", "grade"] == 1  # ben's alone, not ben's and the model's
        # every other place that asks which items differ: progress per query, the advice, adjudication (d8: two
        # models differ, no person rated it)
        p.ratings.add_ratings(ratings([("q1", "d8", "model:other", 0)]), version=1, source="t", annotator="coord")
        assert p.pools.query_progress(1)["awaiting"].tolist() == [0]
        assert (
            what_blocks_freezing(p, 1) == "draft version 1 has 1 item ungraded: grade them, or freeze "
            "without them (ndcg freeze PROJECT --remove-ungraded)"
        )  # d8 (rated by the model alone)
        found = disagreements(p)
        assert found.items.empty  # d1, d2: a person and the model differ; nothing for anyone to adjudicate


def test_a_models_rating_never_counts_toward_an_adjudication_rule(draft):
    with Project.open(draft) as p:
        p.ratings.add_ratings(
            ratings([("q1", "d7", "ana", 1), ("q1", "d7", "ben", 2)]), version=1, source="t", annotator="coord"
        )
        p.assessor.record(start(p), [answer("d7", 3)])
        found = disagreements(p)
        assert found.items[["doc_id", "low", "high"]].values.tolist() == [["d7", 1, 2]]  # people's spread
        # the model's shown beside them, each grade with its label
        assert found.items.loc[0, "ratings"] == f"ana 1 · Related, ben 2 · Highly relevant, {MODEL} 3 · Perfect"
        applied = apply_rule(p, "median", annotator="coord")
        assert applied.settled[["doc_id", "grade"]].values.tolist() == [["d7", rule_grade([1, 2], "median")]]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE assessor_attempts SET grade = 0",
        "UPDATE assessor_attempts SET raw = 'edited'",
        "UPDATE assessor_runs SET model = 'other'",
    ],
)
def test_answers_and_runs_are_kept_as_given(draft, statement):
    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d1", 3)])
    con = sqlite3.connect(draft, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="kept as given|recorded as it started"):
            con.execute(statement)
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):  # a grade and a failure, or neither
            con.execute(
                "INSERT INTO assessor_attempts (run_id, version, query_id, doc_id, grade, failure, raw, latency, at) "
                "VALUES (1, 1, 'q1', 'd2', NULL, NULL, '', 0, '')"
            )
    finally:
        con.close()


def test_a_frozen_versions_answers_cannot_be_removed_or_added(draft):
    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d1", 3)])
        freeze_draft(p, remove_ungraded=True, annotator="coord")
    con = sqlite3.connect(draft, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="frozen: its model answers cannot be removed"):
            con.execute("DELETE FROM assessor_attempts")
        with pytest.raises(sqlite3.IntegrityError, match="frozen: no model answer can be added"):
            con.execute(
                "INSERT INTO assessor_attempts (run_id, version, query_id, doc_id, grade, failure, raw, latency, at) "
                "VALUES (1, 1, 'q1', 'd1', 1, NULL, '', 0, '')"
            )
    finally:
        con.close()


def test_a_format_8_project_is_read_as_it_is_and_migrated_at_its_first_writable_open(draft):
    con = sqlite3.connect(draft, isolation_level=None)
    con.executescript(  # format 10's record of how pools were built and format 11's iterations go too
        "ALTER TABLE judgments DROP COLUMN iteration; DROP TABLE pool_choices; DROP TABLE pool_builds; "
        "DROP TABLE assessor_attempts; DROP TABLE assessor_runs; PRAGMA user_version = 8;"
    )
    con.close()
    before = dump(draft)
    with Project.open(draft, read_only=True) as p:
        assert p.file.schema_version == ASSESSOR_FORMAT - 1 and p.protection_problems() == []
        assert p.assessor.runs(1).empty and p.assessor.attempts(1).empty and p.assessor.judged(1, MODEL, "").empty
    assert dump(draft) == before
    with Project.open(draft) as p:
        assert p.file.schema_version == SCHEMA_VERSION > ASSESSOR_FORMAT and p.protection_problems() == []
        p.assessor.record(start(p), [answer("d1", 3)])
        assert len(p.assessor.attempts(1)) == 1


def test_discarding_the_draft_or_removing_an_item_takes_its_answers_and_undo_puts_them_back(draft):
    """The model's runs and answers are rows of the draft like any other (issue 24 item 1's undo): counted by the
    discard, taken with the draft or the item, and put back exactly."""
    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d7", 3), answer("d8", None), answer("d1", 0)])
    before = full_dump(draft)
    with Project.open(draft) as p:
        plan = plan_discard(p)
        assert plan.others == {"assessor_runs": 1, "assessor_attempts": 3}
        restore_discarded(p, discard(p, plan, annotator="coord"), annotator="coord")
        edit = remove_from_pool(
            p, 1, "q1", "d8", annotator="coord"
        )  # ungraded: only the model's failed answer refers to it
        assert len(p.assessor.attempts(1)) == 2
        undo_remove(p, edit, annotator="coord")
    assert_same(before, full_dump(draft), append_only(draft))


def test_discard_draft_without_yes_names_everything_it_would_delete_a_models_answers_included(draft, capsys):
    from ndcg_desktop.cli.main import main

    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d7", 3), answer("d8", None)])
    assert main(["discard-draft", str(draft)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"error: {draft}: discarding draft version 1 cannot be undone and deletes its 8 items, 7 ratings (by ana, "
        f"{MODEL}) and 2 answers given by language models; add --yes to confirm"
    )

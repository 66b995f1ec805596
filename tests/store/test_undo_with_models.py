"""An undo and a language model's answers given since (contract rule 18): the answers a model ADDED to an
operation's scope after it neither block its undo nor are lost by it; anything else changed since still refuses.

The draft is test_assessor_record's: q1 d1..d8, ana rated d1..d6; user coord; the model is model:tiny."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.names import is_model
from ndcg_desktop.store import Project
from ndcg_desktop.store.undo import Taken, items_scope, take
from ndcg_desktop.tasks.pool_editing import discard, plan_discard, restore_discarded

from . import test_assessor_record
from .test_assessor_record import answer, ratings, start
from .test_undo import append_only, assert_same, full_dump

draft = test_assessor_record.draft  # the same fixture: q1 d1..d8, ana rated d1..d6

MODELS = ("assessor_runs", "assessor_attempts")
REFUSED = "the items of pool version 1 changed since; nothing was undone"


def grade_d7(p: Project) -> Taken:
    return p.judgments.set_grade("q1", "d7", 2, annotator="coord")


def note_d1(p: Project) -> Taken:
    return p.judgments.set_note("q1", "d1", "why it is relevant", annotator="coord")


def merge_d7(p: Project) -> Taken:
    return p.ratings.merge_ratings(ratings([("q1", "d7", "ben", 1)]), version=1, source="test", annotator="coord")[1]


def model_ratings(dump: dict[str, list[Any]]) -> list[Any]:
    """The ratings table's rows of a model (each value is (type name, value); annotator is the 4th column)."""
    return [row for row in dump["ratings"] if is_model(row[3][1])]


@pytest.mark.parametrize("operation", [grade_d7, note_d1, merge_d7], ids=["grade", "note", "merge"])
def test_an_undo_keeps_the_answers_a_model_gave_since_and_takes_back_only_the_operation(
    draft: Path, operation: Callable[[Project], Taken]
) -> None:
    before = full_dump(draft)
    with Project.open(draft) as p:
        taken = operation(p)
        p.assessor.record(start(p), [answer("d7", 3), answer("d1", 0), answer("d8", None)])
    answered = full_dump(draft)
    with Project.open(draft) as p:
        p.undo.restore(taken, action="undo", annotator="coord")
    after = full_dump(draft)
    logs = append_only(draft)
    expected = {t: rows for t, rows in before.items() if t not in MODELS and t != "ratings"}
    assert_same(expected, {t: rows for t, rows in after.items() if t in expected}, logs)  # the operation undone
    assert after["ratings"] == sorted(before["ratings"] + model_ratings(answered))  # the model's ratings kept
    assert model_ratings(answered) and all(after[t] == answered[t] for t in MODELS)  # its run and answers kept
    assert len(answered["assessor_attempts"]) == 3
    with Project.open(draft) as p:
        assert p.ratings.unsettled(1) == 0  # the model's rating of d7 (3) beside no person's settles nothing


def test_a_person_rating_the_item_since_still_refuses_and_writes_nothing(draft: Path) -> None:
    with Project.open(draft) as p:
        taken = grade_d7(p)
        p.assessor.record(start(p), [answer("d7", 3)])
        p.ratings.add_ratings(ratings([("q1", "d7", "ben", 1)]), version=1, source="test", annotator="coord")
    before = full_dump(draft)
    with Project.open(draft) as p, pytest.raises(InputError, match=REFUSED):
        p.undo.restore(taken, action="undo", annotator="coord")
    assert full_dump(draft) == before


def test_a_note_written_since_still_refuses_and_writes_nothing(draft: Path) -> None:
    with Project.open(draft) as p:
        taken = grade_d7(p)
        p.assessor.record(start(p), [answer("d7", 3)])
        p.judgments.set_note("q1", "d7", "changed since", annotator="coord")
    before = full_dump(draft)
    with Project.open(draft) as p, pytest.raises(InputError, match=REFUSED):
        p.undo.restore(taken, action="undo", annotator="coord")
    assert full_dump(draft) == before


def test_a_models_rating_that_was_there_and_changed_since_refuses(draft: Path) -> None:
    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d7", 1)])
        taken = grade_d7(p)
        p.assessor.record(start(p), [answer("d7", 3)])  # judged again: the model's rating of d7 changes
    before = full_dump(draft)
    with Project.open(draft) as p, pytest.raises(InputError, match=REFUSED):
        p.undo.restore(taken, action="undo", annotator="coord")
    assert full_dump(draft) == before


def test_a_discard_takes_the_models_rows_and_its_undo_puts_them_back_whole(draft: Path) -> None:
    with Project.open(draft) as p:
        grade = grade_d7(p)
        p.assessor.record(start(p), [answer("d7", 3), answer("d8", None)])
    answered = full_dump(draft)
    with Project.open(draft) as p:
        gone = discard(p, plan_discard(p), annotator="coord")
        assert not gone.taken.after.models.tables  # it left nothing: it holds the rows it took, once
        restore_discarded(p, gone, annotator="coord")
    assert_same(answered, full_dump(draft), append_only(draft))
    with Project.open(draft) as p:
        p.undo.restore(
            grade, action="undo", annotator="coord"
        )  # the grade given before the discard is still undone after it
        assert p.ratings.verified(1).query("doc_id == 'd7'")["annotator"].tolist() == ["model:tiny"]
        assert len(p.assessor.attempts(1)) == 2


def test_a_models_rating_given_in_the_place_of_one_the_operation_took_refuses(draft: Path) -> None:
    """An operation that took a model's rating (here: a bare take that deletes it), then the model rates the item
    again: putting both back cannot be, so the undo is refused and writes nothing."""
    with Project.open(draft) as p:
        p.assessor.record(start(p), [answer("d7", 1)])
        with p.file.transaction() as conn:
            taken = take(
                conn,
                items_scope(1, [("q1", "d7")]),
                lambda: conn.execute("DELETE FROM ratings WHERE doc_id = 'd7'"),
            )
        p.assessor.record(start(p), [answer("d7", 3)])
    before = full_dump(draft)
    with Project.open(draft) as p, pytest.raises(InputError, match=REFUSED):
        p.undo.restore(taken, action="undo", annotator="coord")
    assert full_dump(draft) == before

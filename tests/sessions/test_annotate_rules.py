"""What a grading key does in Annotate (sessions.annotate_rules), without Qt: refusals, regrades, the next document."""

from __future__ import annotations

import pytest

from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.sessions.annotate_rules import (
    Decision,
    GradingRules,
    Refusal,
    next_query_to_grade,
    next_ungraded,
)

DRAFT = GradingRules(scale=GradeScale(0, 3), frozen=False, read_only=False, user="ana", version=2)


@pytest.mark.parametrize(
    ("rules", "query", "doc", "grade", "awaiting", "expected"),
    [
        (GradingRules(None, False, False, "ana"), "q1", "d1", 1, False, Refusal("no_pool")),
        (GradingRules(GradeScale(0, 3), True, False, "ana", 1), "q1", "d1", 1, False, Refusal("frozen", version=1)),
        (GradingRules(GradeScale(0, 3), False, True, "ana", 2), "q1", "d1", 1, False, Refusal("read_only")),
        (DRAFT, None, "d1", 1, False, Refusal("no_query")),
        (DRAFT, "q1", "d1", 7, False, Refusal("off_scale", grade=7, low=0, high=3)),
        (DRAFT, "q1", "d1", -1, False, Refusal("off_scale", grade=-1, low=0, high=3)),
        (DRAFT, "q1", None, 1, False, Refusal("no_document")),
        (DRAFT, "q1", "d1", 1, True, Refusal("awaiting", doc_id="d1")),
        (DRAFT, "q1", "d1", 3, False, None),
        (DRAFT, "q1", "d1", 0, False, None),
    ],
)
def test_why_a_key_does_nothing(rules, query, doc, grade, awaiting, expected):
    assert rules.refusal(query_id=query, doc_id=doc, grade=grade, awaiting=awaiting) == expected


def test_the_first_reason_wins_a_frozen_version_before_a_grade_off_its_scale():
    frozen = GradingRules(GradeScale(0, 3), True, False, "ana", 1)
    assert frozen.refusal(query_id=None, doc_id=None, grade=9) == Refusal("frozen", version=1)
    # read-only first: the frozen version's way on (Pool > New draft) is closed to a read-only project too
    both = GradingRules(GradeScale(0, 3), True, True, "ana", 1)
    assert both.refusal(query_id="q1", doc_id="d1", grade=1) == Refusal("read_only")


@pytest.mark.parametrize(
    ("grade", "old", "who", "expected"),
    [
        (2, None, None, Decision("grade")),
        (1, 2, "ana", Decision("grade")),  # my own grade: changed without a question
        (1, 2, "", Decision("grade")),  # nobody's (an ungraded item's leftover annotator)
        (2, 1, "ben", Decision("confirm", old=1, who="ben")),
        (2, 1, "import:qrels.txt", Decision("confirm", old=1, who="import:qrels.txt")),
        (3, 3, "ben", Decision("same")),  # the grade it has: nothing changes, nobody is asked
    ],
)
def test_regrading_someone_elses_grade_is_confirmed_first(grade, old, who, expected):
    assert DRAFT.decide(grade=grade, old=old, who=who) == expected


def test_the_next_ungraded_document_is_after_the_current_one_wrapping_and_passes_over_disputed_items():
    rows = [("a", None, False), ("b", 2, False), ("c", None, True), ("d", None, False), ("e", 0, False)]
    assert next_ungraded(rows, after=0) == 3  # b graded, c awaits adjudication
    assert next_ungraded(rows, after=3) == 0  # wraps around
    assert next_ungraded(rows) == 0
    assert next_ungraded([("a", 1, False), ("c", None, True)], after=0) is None  # never a graded one
    assert next_ungraded([], after=-1) is None


def test_the_next_query_to_grade():
    assert next_query_to_grade([0, 3, 0, 1], current=1) == 3
    assert next_query_to_grade([0, 3, 0, 1], current=3) == 1
    assert next_query_to_grade([0, 0], current=0) is None
    assert next_query_to_grade([], current=-1) is None


@pytest.mark.parametrize("who", ["ANA", "Ana", "ａｎａ", "A\u0301na"])
def test_a_name_differing_only_in_case_width_or_accents_is_the_grader_here_as_everywhere(who):
    """Issue 32 item 5: the rules fold names as handouts, merges and the identity do (domain.names.name_key)."""
    from ndcg_desktop.domain.names import name_key
    from ndcg_desktop.tasks.identity import credited_name

    assert name_key(who) == name_key("ana") and credited_name(who, ["ana"]) == "ana"  # the same person elsewhere
    assert DRAFT.decide(grade=2, old=1, who=who) == Decision("grade")  # her own grade: no confirmation
    assert DRAFT.decide(grade=2, old=1, who="ben") == Decision("confirm", old=1, who="ben")

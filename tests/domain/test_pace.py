"""Judging pace from hand-made audit logs; every expected number is written as the arithmetic that gives it."""

from __future__ import annotations

from statistics import median

import pandas as pd
import pytest

from ndcg_desktop.domain.pace import duration_text, judging_pace, pace_rule

D1, D2 = "2026-11-30", "2026-12-01"


def row(who, at, action="grade", new_grade=1, doc_id=None, still_graded=True):
    """An audit row; each its own item (version 1, q1, a fresh document) unless ``doc_id`` is given."""
    doc = doc_id or f"{who}-{at}"
    return {
        "who": who, "at": at, "action": action, "new_grade": new_grade,
        "version": 1, "query_id": "q1", "doc_id": doc, "still_graded": still_graded,
    }  # fmt: skip


def log() -> pd.DataFrame:
    rows = [
        # ann, day 1: gaps 6, 10, then a 30-minute pause (left out), 4, then a pause of hours (left out)
        row("ann", f"{D1}T10:00:00+00:00"),
        row("ann", f"{D1}T10:00:06+00:00", new_grade=2),
        row("ann", f"{D1}T10:00:16+00:00", new_grade=0),
        row("ann", f"{D1}T10:30:16+00:00"),
        row("ann", f"{D1}T10:30:20+00:00"),
        row("ann", f"{D1}T23:59:58+00:00"),
        # ann, day 2: the 5 s gap across midnight ends on day 2, then 9 s
        row("ann", f"{D2}T00:00:03+00:00"),
        row("ann", f"{D2}T00:00:12+00:00"),
        # bob, day 1: 3 s, exactly 10 minutes (kept: only longer gaps are pauses), 1 s
        row("bob", f"{D1}T10:00:00+00:00"),
        row("bob", f"{D1}T10:00:03+00:00"),
        row("bob", f"{D1}T10:10:03+00:00"),
        row("bob", f"{D1}T10:10:04+00:00"),
        # not judgments: an import, a grade cleared (undo to ungraded), a note
        row("bob", f"{D1}T10:10:05+00:00", action="import"),
        row("bob", f"{D1}T10:10:06+00:00", new_grade=None),
        row("ann", f"{D1}T10:00:07+00:00", action="note", new_grade=None),
        # nor is an undo that puts an earlier grade back (Ctrl+Z)
        row("bob", f"{D1}T10:10:07+00:00", action="undo grade", new_grade=2),
    ]
    return pd.DataFrame(rows).sample(frac=1, random_state=7).reset_index(drop=True)  # order must not matter


def test_per_annotator_and_day():
    pace = judging_pace(log())
    ann1, ann2, bob1 = [6, 10, 4], [5, 9], [3, 600, 1]
    expected_days = [
        ["ann", D1, 6, len(ann1), median(ann1)],
        ["ann", D2, 2, len(ann2), median(ann2)],
        ["bob", D1, 4, len(bob1), median(bob1)],
    ]
    assert pace.by_day.values.tolist() == expected_days
    expected_people = [["ann", 6 + 2, len(ann1 + ann2), median(ann1 + ann2)], ["bob", 4, len(bob1), median(bob1)]]
    assert pace.by_annotator.values.tolist() == expected_people
    assert pace.median_s == median(ann1 + ann2 + bob1)  # (5 + 6) / 2 = 5.5
    assert pace.time_left_s(10) == 10 * median(ann1 + ann2 + bob1)


def test_the_pause_limit_is_a_parameter():
    pace = judging_pace(log(), pause_s=5)
    ann, bob = [4, 5], [3, 1]  # only gaps of at most 5 s remain
    assert pace.by_annotator["median_s"].tolist() == [median(ann), median(bob)]
    assert pace.by_annotator["timed"].tolist() == [len(ann), len(bob)]
    assert pace.median_s == median(ann + bob)


def test_one_judgment_each_times_nothing():
    pace = judging_pace(pd.DataFrame([row("ann", f"{D1}T10:00:00+00:00"), row("bob", f"{D1}T10:00:01+00:00")]))
    assert pace.by_annotator.values.tolist()[0][:3] == ["ann", 1, 0]
    assert pace.by_annotator["median_s"].isna().all()
    assert pace.median_s is None and pace.time_left_s(10) is None


def test_an_empty_log():
    columns = ["who", "at", "action", "new_grade", "version", "query_id", "doc_id", "still_graded"]
    pace = judging_pace(pd.DataFrame(columns=columns))
    assert pace.by_day.empty and pace.by_annotator.empty and pace.median_s is None


def test_graded_counts_distinct_items_that_still_hold_a_grade():
    """Issue 36: "Today: 34 graded" counted undone and redone grades. Here ann grades d1, regrades it, grades d2
    (then undone: d2 holds no grade now) and d3: six grade rows, two items graded."""
    rows = [
        row("ann", f"{D1}T10:00:00+00:00", doc_id="d1"),
        row("ann", f"{D1}T10:00:05+00:00", doc_id="d1", new_grade=2),  # changed her mind: still one item
        row("ann", f"{D1}T10:00:09+00:00", doc_id="d2", still_graded=False),  # undone with Ctrl+Z
        row("ann", f"{D1}T10:00:12+00:00", doc_id="d3", still_graded=True),
        row("ann", f"{D1}T10:00:14+00:00", doc_id="d3"),  # redone after an undo: the same item
        row("ann", f"{D2}T09:00:00+00:00", doc_id="d1", new_grade=3),  # the next day: counted on that day
    ]
    pace = judging_pace(pd.DataFrame(rows))
    assert pace.by_day[["who", "day", "graded"]].values.tolist() == [["ann", D1, 2], ["ann", D2, 1]]
    assert pace.by_annotator["graded"].tolist() == [2]  # d1 and d3
    assert pace.by_day["timed"].tolist() == [4, 0]  # the pace still times every key press: gaps 5, 4, 3, 2


@pytest.mark.parametrize(
    ("seconds", "text"), [(5.5, "6 s"), (59, "59 s"), (90, "2 min"), (3 * 3600 + 20 * 60, "3 h 20 min")]
)
def test_durations_read_as_people_say_them(seconds, text):
    assert duration_text(seconds) == text


def test_the_rule_names_the_pause():
    assert "gaps over 10 min are pauses and left out" in pace_rule()
    assert "gaps over 2 min" in pace_rule(120)

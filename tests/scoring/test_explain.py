"""Flag counting and the per-query explanations the analysis view shows."""

from __future__ import annotations

from math import log2

import pytest

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.explain import FullRankings, compare, ideal_ranking, inspect, missed_relevant
from tests.helpers import measure

QRELS = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\nq2 0 E 1\nq3 0 F 2\n"
RUN = "q1 Q0 B 1 3 s\nq1 Q0 X 2 2 s\nq1 Q0 B 3 1 s\nq2 Q0 E 1 5 s\nq2 Q0 Y 2 5 s\nq9 Q0 A 1 1 s\n"


@pytest.fixture
def data(write):
    return read_qrels(write("q.txt", QRELS)), read_run(write("r.txt", RUN))


def test_inspect_counts_every_flag_group(data):
    qrels, run = data
    report = inspect(qrels, run, measure(), 1)
    # Y ties with E on q2 and comes first under docid-desc, so one unjudged document is in the top 1.
    assert (report.unjudged_total, report.unjudged_in_top_k, report.unjudged_queries) == (2, 1, 2)
    assert report.duplicates == 1
    assert report.unknown_queries == ["q9"]
    assert report.unanswered_queries == ["q3"]
    assert report.ties_at_k == ["q2"]  # E and Y tie on 5 across K=1
    # Per query: q1 has X unjudged at position 2 (outside the top 1) and B twice; q2 has Y at 1.
    assert report.per_query.values.tolist() == [
        ["q1", 1, 0, "", 1, False, False],
        ["q2", 1, 1, "1", 0, False, True],
        ["q3", 0, 0, "", 0, True, False],
    ]
    assert len(report.missing(EvalSettings())) == 3
    ready = measure(unjudged="zero", duplicates="first", unknown_queries="ignore")
    assert report.missing(ready.policies) == []
    evaluate(qrels, run, ready, 1)  # and indeed nothing is refused


def test_ideal_ranking_comes_from_the_whole_universe(data):
    qrels, _ = data
    ideal = ideal_ranking(qrels, "q1", 2, EvalSettings().gain)
    assert ideal["doc_id"].tolist() == ["A", "B"]
    assert ideal["cumulative_idcg"].iloc[-1] == pytest.approx(3 / log2(2) + 2 / log2(3))


def test_missed_relevant(data):
    qrels, run = data
    e = evaluate(qrels, run, measure(unjudged="zero", duplicates="first", unknown_queries="ignore"), 2)
    missed = missed_relevant(qrels, e.per_position, "q1", EvalSettings().gain)
    assert missed.values.tolist() == [["A", 3], ["C", 1]]  # D has no gain, B was found


def test_missed_relevant_says_where_below_k(write):
    qrels = read_qrels(write("q.txt", "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 1\nq2 0 E 1\n"))
    # q2 comes first in the file: its block must not confuse q1's lookup. B repeats (kept first).
    run = read_run(
        write(
            "r.txt",
            "q2 Q0 E 1 9 s\nq1 Q0 X 1 9 s\nq1 Q0 B 2 8 s\nq1 Q0 Y 3 7 s\n"
            "q1 Q0 B 4 6 s\nq1 Q0 C 5 5 s\nq1 Q0 Z 6 4 s\nq1 Q0 A 7 3 s\n",
        )
    )
    zero = measure(unjudged="zero", duplicates="first")
    e = evaluate(qrels, run, zero, 2)
    missed = missed_relevant(qrels, e.per_position, "q1", zero.policies.gain, FullRankings.of(run, zero))
    # Ranked X B Y C Z A (the second B dropped): A at 6, C at 4, D never returned.
    assert missed.astype(object).where(missed.notna(), None).values.tolist() == [
        ["A", 3, 6],
        ["C", 1, 4],
        ["D", 1, None],
    ]
    condense = zero.with_(unjudged="condense")
    e = evaluate(qrels, run, condense, 2)
    missed = missed_relevant(qrels, e.per_position, "q1", condense.policies.gain, FullRankings.of(run, condense))
    # Condensed: B C A; the top 2 is B C, so A is missed at 3.
    assert missed.astype(object).where(missed.notna(), None).values.tolist() == [["A", 3, 3], ["D", 1, None]]
    assert FullRankings.of(run, zero).ranking("nope") == []


def test_compare_two_runs(write):
    qrels = read_qrels(write("q.txt", "q1 0 A 1\nq2 0 B 1\nq3 0 C 1\n"))
    first = read_run(write("a.txt", "q1 Q0 A 1 1 s\nq2 Q0 X 1 1 s\nq3 Q0 C 1 1 s\n"))
    second = read_run(write("b.txt", "q1 Q0 X 1 1 s\nq2 Q0 B 1 1 s\nq3 Q0 C 1 1 s\n"))
    settings = measure(unjudged="zero")
    table, counts = compare(evaluate(qrels, first, settings, 1), evaluate(qrels, second, settings, 1))
    assert table["difference"].tolist() == [-1.0, 1.0, 0.0]
    assert counts == {"wins": 1, "ties": 1, "losses": 1}
    with pytest.raises(ValueError, match="same evaluation settings"):
        compare(evaluate(qrels, first, settings, 1), evaluate(qrels, second, settings, 2))


def test_histogram_counts_the_queries_in_the_mean(write):
    from ndcg_desktop.scoring.explain import histogram

    qrels = read_qrels(write("q.txt", "q1 0 A 1\nq2 0 B 1\nq3 0 C 1\nq4 0 D 0\n"))
    run = read_run(write("r.txt", "q1 Q0 A 1 1 s\nq2 Q0 X 1 2 s\nq2 Q0 B 2 1 s\n"))
    e = evaluate(qrels, run, measure(unjudged="zero", zero_idcg="exclude"), 2)
    table = histogram(e.per_query, bins=4)
    # q1 = 1.0 (last bin includes 1), q2 = 1/log2(3) = 0.63, q3 = 0 (no ranking), q4 excluded (zero IDCG).
    assert table["queries"].tolist() == [1, 0, 1, 1]
    assert table["low"].tolist() == [0.0, 0.25, 0.5, 0.75]


def test_a_querys_explanations_read_its_rows_not_a_frame_of_every_judgment(write, monkeypatch):
    """The breakdown runs on the window's thread: building ``qrels.frame`` (every judgment as strings, about
    0.1 s per 100,000 judgments) there froze the window after each score. Values as computed by hand."""
    from ndcg_desktop.domain.data import Qrels

    lines = [f"q{q} 0 d{d} {(q + d) % 4}\n" for q in range(40) for d in range(30)]
    qrels = read_qrels(write("q.txt", "".join(lines)))
    run = read_run(write("r.txt", "".join(f"q7 Q0 d{d} {26 - d} {d} s\n" for d in range(25, 5, -1))))
    zero = measure(unjudged="zero", unknown_queries="ignore", queries="run")
    e = evaluate(qrels, run, zero, 3)

    def refused(self):
        raise AssertionError("built the frame of every judgment")

    monkeypatch.setattr(Qrels, "frame", property(refused))
    ideal = ideal_ranking(qrels, "q7", 3, zero.policies.gain)
    # q7's grades are (7 + d) % 4: grade 3 for d = 0, 4, ..., 28 (IDs in string order: d0, d12, d16, ...).
    assert ideal["doc_id"].tolist() == ["d0", "d12", "d16"] and ideal["grade"].tolist() == [3, 3, 3]
    assert ideal["cumulative_idcg"].iloc[-1] == pytest.approx(3 / log2(2) + 3 / log2(3) + 3 / log2(4))  # linear gain
    missed = missed_relevant(qrels, e.per_position, "q7", zero.policies.gain, FullRankings.of(run, zero))
    # The run ranks d25 (grade 0), d24 (3), d23 (2), ... d6 (1): the top 3 is d25, d24, d23.
    expected = sorted(
        ((f"d{d}", (7 + d) % 4, 25 - d + 1 if 6 <= d <= 25 else None) for d in range(30) if (7 + d) % 4 > 0),
        key=lambda row: (-row[1], row[0]),
    )
    expected = [row for row in expected if row[0] not in ("d24", "d23")]
    assert missed.astype(object).where(missed.notna(), None).values.tolist() == [list(row) for row in expected]
    assert (
        ideal_ranking(qrels, "q99", 3, zero.policies.gain).empty
        and missed_relevant(qrels, e.per_position, "q99", zero.policies.gain).empty
    )

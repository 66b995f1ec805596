"""The residual kernel (``scoring/residual.py``, rule 21) on every shape of run: string, numeric and listed IDs, chunk
IDs through the run's ID map, and file lines kept for every refusal after the removal."""

from __future__ import annotations

import math

import pytest

from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.residual import residual
from tests.helpers import measure

SCALE = GradeScale(0, 3)


def _qrels(write, name, text):
    return read_qrels(write(name, text), scale=SCALE)


def test_chunk_ids_are_removed_by_the_document_they_map_to(write):
    later = _qrels(write, "v2.txt", "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq1 0 D 0\n")
    earlier = _qrels(write, "v1.txt", "q1 0 A 3\nq1 0 D 0\n")
    run = read_run(write("r.txt", "q1 Q0 C#1 1 3 s\nq1 Q0 D#4 2 2 s\nq1 Q0 B#2 3 1 s\nq1 Q0 A#9 4 0.5 s\n"))
    left = residual(later, run, earlier, id_map="#")
    assert (left.run_documents_removed, left.judgments_removed) == (2, 2)
    evaluation = evaluate(left.qrels, left.run, measure(id_map="#", scale=SCALE), 2)
    # [C, B] over B=2, C=1: the hand-worked case of rule 21
    expected = (1 / math.log2(2) + 2 / math.log2(3)) / (2 / math.log2(2) + 1 / math.log2(3))
    assert evaluation.summary["mean_ndcg"] == pytest.approx(expected, abs=1e-12)


def test_numeric_and_listed_runs_and_a_query_left_with_nothing(write):
    later = _qrels(write, "v2.txt", "q1 0 10 3\nq1 0 20 2\nq2 0 30 1\n")
    earlier = _qrels(write, "v1.txt", "q1 0 10 3\nq2 0 30 1\n")  # q2: every judgment was judged before
    numeric = read_run(write("n.txt", "q1 Q0 10 1 2 s\nq1 Q0 20 2 1 s\nq2 Q0 30 1 1 s\nq2 Q0 40 2 0.5 s\n"))
    listed = read_run(
        write("l.jsonl", '{"query_id": "q1", "doc_ids": ["10"]}\n{"query_id": "q2", "doc_ids": ["40"]}\n')
    )
    for run in (numeric, listed):
        left = residual(later, run, earlier)
        assert left.emptied_queries == ("q2",) and left.qrels.query_ids() == ["q1"]
        evaluation = evaluate(left.qrels, left.run, measure(unjudged="zero", scale=SCALE), 5)
        assert evaluation.summary["queries_total"] == 1  # q2 has no residual universe: not scored, not unknown
    left = residual(later, listed, earlier)
    assert left.run.empty_queries == ("q1",)  # its only document was judged before: answered, nothing left
    per_query = evaluate(left.qrels, left.run, measure(scale=SCALE), 5).per_query.set_index("query_id")
    assert (per_query.loc["q1", "ndcg"], bool(per_query.loc["q1", "no_ranking"])) == (0.0, False)


def test_a_refusal_after_the_removal_names_the_runs_own_line(write):
    later = _qrels(write, "v2.txt", "q1 0 A 3\nq1 0 B 2\n")
    earlier = _qrels(write, "v1.txt", "q1 0 A 3\n")
    path = write("r.txt", "q1 Q0 A 1 3 s\nq1 Q0 B 2 2 s\nq1 Q0 B 3 1 s\n")
    left = residual(later, read_run(path), earlier)
    with pytest.raises(InputError) as refused:
        evaluate(left.qrels, left.run, measure(scale=SCALE), 3)
    assert refused.value.line == 3 and str(path) in str(refused.value)  # B's second line, as the file numbers it

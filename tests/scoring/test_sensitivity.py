"""An item's swing: how much its grade (lowest vs highest rating) can move a query's nDCG in a run (issue 15)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ndcg_desktop.domain.settings import Gain, TiePolicy, UnjudgedPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring.ndcg import evaluate
from ndcg_desktop.scoring.ranking import top_documents
from ndcg_desktop.scoring.sensitivity import grade_swings
from tests.helpers import measure

UNIVERSE = pd.DataFrame({"query_id": ["q1"] * 4, "doc_id": ["A", "B", "C", "D"], "grade": [3, 2, 1, 0]})


def test_the_contracts_example_with_the_best_document_rated_1_or_3():
    """Rule 1's universe; ranking [B, C]; K=2; A (missed by the run) rated 1 by one annotator, 3 by another."""
    top = pd.DataFrame({"query_id": ["q1", "q1"], "rank": [1, 2], "doc_id": ["B", "C"]})
    items = pd.DataFrame({"query_id": ["q1"], "doc_id": ["A"], "low": [1], "high": [3]})
    out = grade_swings(UNIVERSE, {"bm25": top}, items, k=2, gain=Gain.LINEAR)
    with_a_1 = (2 + 1 / math.log2(3)) / (2 + 1 / math.log2(3))  # ideal B=2, A=1 (or C=1): the run is ideal
    with_a_3 = (2 + 1 / math.log2(3)) / (3 + 2 / math.log2(3))
    assert out["swing"].tolist() == [pytest.approx(with_a_1 - with_a_3, abs=1e-12)]
    assert out["run"].tolist() == ["bm25"]


def test_without_runs_every_swing_is_zero():
    items = pd.DataFrame({"query_id": ["q1"], "doc_id": ["A"], "low": [0], "high": [3]})
    out = grade_swings(UNIVERSE, {}, items, k=10, gain=Gain.LINEAR)
    assert out["swing"].tolist() == [0.0] and out["run"].tolist() == [None]


@given(
    grades=st.lists(st.integers(0, 3), min_size=2, max_size=6),
    order=st.permutations(range(6)),
    k=st.integers(1, 6),
    low=st.integers(0, 3),
    high=st.integers(0, 3),
    exponential=st.booleans(),
)
def test_the_swing_is_the_difference_of_the_scoring_cores_ndcg(
    tmp_path_factory, grades, order, k, low, high, exponential
):
    """Oracle: ``evaluate`` on qrels files with the item at its low and at its high grade."""
    folder = tmp_path_factory.mktemp("swing")
    docs = [f"D{i}" for i in range(len(grades))]
    ranked = [docs[i] for i in order if i < len(docs)][: max(1, len(docs) - 1)] + ["X"]  # X: unjudged
    run_path = folder / "run.txt"
    run_path.write_text("".join(f"q1 Q0 {d} {r} {100 - r} s\n" for r, d in enumerate(ranked, start=1)))
    gain = Gain.EXPONENTIAL if exponential else Gain.LINEAR
    settings = measure(gain=gain, unjudged=UnjudgedPolicy.ZERO)
    scores = []
    for value in (low, high):
        lines = [f"q1 0 {d} {value if d == 'D0' else g}\n" for d, g in zip(docs, grades, strict=True)]
        qrels_path = folder / f"q{value}.txt"
        qrels_path.write_text("".join(lines))
        run = read_run(run_path)
        scores.append(float(evaluate(read_qrels(qrels_path), run, settings, k).per_query["ndcg"].iloc[0]))
    universe = pd.DataFrame({"query_id": "q1", "doc_id": docs, "grade": grades})
    top = top_documents(read_run(run_path), k, ties=TiePolicy.DOCID_DESC)
    items = pd.DataFrame({"query_id": ["q1"], "doc_id": ["D0"], "low": [low], "high": [high]})
    out = grade_swings(universe, {"r": top}, items, k=k, gain=gain)
    assert out["swing"].iloc[0] == pytest.approx(abs(scores[1] - scores[0]), abs=1e-12)

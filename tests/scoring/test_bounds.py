"""Bounds from unjudged documents (rule 17): the two readings, by formula and through the scoring core."""

from __future__ import annotations

import json
from math import log2
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ndcg_desktop.domain.data import Qrels
from ndcg_desktop.domain.settings import GradeScale, UnjudgedPolicy, UnknownQueryPolicy
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.scoring import evaluate
from ndcg_desktop.scoring.bounds import mean_bounds, unjudged_bounds
from tests.helpers import measure

TOL = 1e-12
UNIVERSE_WITHOUT_D = "q1 0 A 3\nq1 0 B 2\nq1 0 C 1\n"  # the contract's example, D left unjudged


@pytest.fixture
def bounds_of(write):
    def _bounds(qrels_text: str, run: dict[str, list[str]], **settings):
        settings = {"unjudged": "zero", **settings}
        k = settings.pop("k", 10)
        qrels = read_qrels(write("qrels.txt", qrels_text), scale=settings.get("scale", GradeScale()))
        text = "".join(json.dumps({"query_id": q, "doc_ids": docs}) + "\n" for q, docs in run.items())
        evaluation = evaluate(qrels, read_run(write("run.jsonl", text)), measure(**settings), k)
        return evaluation, unjudged_bounds(evaluation, qrels).set_index("query_id")

    return _bounds


def test_contract_example_with_d_unjudged(bounds_of):
    evaluation, b = bounds_of(UNIVERSE_WITHOUT_D, {"q1": ["B", "D", "C"]}, k=3)
    row = b.loc["q1"]
    lower = (2 / log2(2) + 1 / log2(4)) / (3 / log2(2) + 2 / log2(3) + 1 / log2(4))
    # D as grade 3: it earns 3/log2(3) at position 2, and the ideal now holds A=3, D=3, B=2
    upper = (2 / log2(2) + 3 / log2(3) + 1 / log2(4)) / (3 / log2(2) + 3 / log2(3) + 2 / log2(4))
    assert abs(row["ndcg_unjudged_zero"] - lower) <= TOL and abs(row["ndcg_unjudged_top"] - upper) <= TOL
    assert (round(lower, 6), round(upper, 6)) == (0.525005, 0.745452)
    assert (row["ndcg_lower"], row["ndcg_upper"]) == (row["ndcg_unjudged_zero"], row["ndcg_unjudged_top"])
    assert abs(row["ndcg_gap"] - (upper - lower)) <= TOL
    assert row["unjudged_in_top_k"] == 1
    assert evaluation.per_query.loc[0, "ndcg"] == row["ndcg_unjudged_zero"]  # the lower reading is the zero score


def test_exponential_gain_and_a_query_without_unjudged(bounds_of):
    qrels = UNIVERSE_WITHOUT_D + "q2 0 E 1\n"
    _, b = bounds_of(qrels, {"q1": ["D", "A"], "q2": ["E"]}, k=2, gain="exponential")
    upper = (7 / log2(2) + 7 / log2(3)) / (7 / log2(2) + 7 / log2(3))  # D as 3 first, then A: ideal itself
    lower = (7 / log2(3)) / (7 / log2(2) + 3 / log2(3))
    assert abs(b.loc["q1", "ndcg_upper"] - upper) <= TOL and abs(b.loc["q1", "ndcg_lower"] - lower) <= TOL
    assert b.loc["q2", "ndcg_gap"] == 0.0 and b.loc["q2", "ndcg_lower"] == b.loc["q2", "ndcg_upper"] == 1.0


def test_the_top_grade_reading_can_be_the_smaller_one(bounds_of):
    """The hypothetical document raises the ideal more than the DCG: the interval still runs low to high."""
    _, b = bounds_of("q1 0 A 3\nq1 0 J 0\nq1 0 K 0\n", {"q1": ["A", "J", "K", "X"]}, k=4)
    top = (3 / log2(2) + 3 / log2(5)) / (3 / log2(2) + 3 / log2(3))
    row = b.loc["q1"]
    assert row["ndcg_unjudged_zero"] == 1.0 and abs(row["ndcg_unjudged_top"] - top) <= TOL
    assert (row["ndcg_lower"], row["ndcg_upper"]) == (row["ndcg_unjudged_top"], 1.0)
    assert abs(row["ndcg_gap"] - (1.0 - top)) <= TOL


def test_zero_idcg_query_with_an_unjudged_document_and_mean_bounds(bounds_of):
    evaluation, b = bounds_of("q1 0 A 0\nq2 0 B 2\n", {"q1": ["X"], "q2": ["B"]}, k=1)
    assert (b.loc["q1", "ndcg_lower"], b.loc["q1", "ndcg_upper"]) == (0.0, 1.0)  # X as 3 is the ideal itself
    assert mean_bounds(b.reset_index(), evaluation.per_query["in_mean"]) == ((0.0 + 1.0) / 2, (1.0 + 1.0) / 2)


def test_refuses_a_condensed_evaluation(bounds_of, write):
    qrels = read_qrels(write("q.txt", UNIVERSE_WITHOUT_D))
    run = read_run(write("r.jsonl", '{"query_id": "q1", "doc_ids": ["B", "D"]}\n'))
    evaluation = evaluate(qrels, run, measure(unjudged=UnjudgedPolicy.CONDENSE))
    with pytest.raises(ValueError, match="unjudged=zero"):
        unjudged_bounds(evaluation, qrels)


def _with_top_grade(qrels: Qrels, positions: pd.DataFrame, top: int) -> Qrels:
    """The judgments plus every unjudged document of the top K at the top grade (the upper reading's universe)."""
    extra = positions.loc[~positions["judged"], ["query_id", "doc_id"]].assign(grade=top, line=0)
    frame = pd.concat([qrels.frame, extra.astype({"grade": "int64", "line": "int64"})], ignore_index=True)
    return Qrels(frame, qrels.source)


@pytest.mark.parametrize("k", [5, 10, 100])
def test_upper_reading_equals_scoring_with_the_unjudged_judged_top_grade(data_dir: Path, k: int):
    """Independent route: add the top K's unjudged documents to the judgments at grade 4, score again."""
    folder = data_dir / "cranfield"
    settings = measure(unjudged=UnjudgedPolicy.ZERO, unknown_queries=UnknownQueryPolicy.IGNORE, scale=GradeScale(0, 4))
    qrels = read_qrels(folder / "qrels.txt", scale=settings.terms.scale)
    run = read_run(folder / "bm25.run.gz")
    evaluation = evaluate(qrels, run, settings, k)
    b = unjudged_bounds(evaluation, qrels)
    again = evaluate(_with_top_grade(qrels, evaluation.per_position, 4), run, settings, k)
    assert np.max(np.abs(b["ndcg_unjudged_top"].to_numpy() - again.per_query["ndcg"].to_numpy())) <= TOL
    assert b["ndcg_unjudged_zero"].equals(evaluation.per_query["ndcg"])
    assert (b["ndcg_lower"] <= b["ndcg_upper"]).all() and b["ndcg_gap"].gt(0).sum() > 100
    assert int(b["unjudged_in_top_k"].sum()) == evaluation.summary["unjudged_in_top_k"]


def test_bounds_read_the_judgments_columns_not_a_frame_of_every_judgment(bounds_of, monkeypatch):
    """Bounds are computed on the scoring worker after every Score: a pandas frame of every judgment's strings
    held its GIL long enough to freeze the window on a large pool. q2's judgments, and q9's (a query the run
    did not answer and the table does not list), stay out of q1's ideal."""

    def refused(self):
        raise AssertionError("built the frame of every judgment")

    monkeypatch.setattr(Qrels, "frame", property(refused))
    qrels = UNIVERSE_WITHOUT_D + "q2 0 E 3\nq9 0 F 3\n"
    _, b = bounds_of(qrels, {"q1": ["B", "D", "C"], "q2": ["X", "E"]}, k=3, unknown_queries="ignore", queries="run")
    lower = (2 / log2(2) + 1 / log2(4)) / (3 / log2(2) + 2 / log2(3) + 1 / log2(4))
    upper = (2 / log2(2) + 3 / log2(3) + 1 / log2(4)) / (3 / log2(2) + 3 / log2(3) + 2 / log2(4))
    assert (
        abs(b.loc["q1", "ndcg_unjudged_zero"] - lower) <= TOL and abs(b.loc["q1", "ndcg_unjudged_top"] - upper) <= TOL
    )
    # q2: X unjudged at 1, E (3) at 2; read as the top grade, X joins E in the ideal.
    q2_lower, q2_upper = (3 / log2(3)) / (3 / log2(2)), (3 / log2(2) + 3 / log2(3)) / (3 / log2(2) + 3 / log2(3))
    assert abs(b.loc["q2", "ndcg_unjudged_zero"] - q2_lower) <= TOL
    assert abs(b.loc["q2", "ndcg_unjudged_top"] - q2_upper) <= TOL
    assert list(b.index) == ["q1", "q2"]

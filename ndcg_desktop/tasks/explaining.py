"""Why a scored run scored what it did, one query at a time: the top K, the ideal ranking, what was missed.

The Scores and Runs views show this (their panels only word and lay it out); the arithmetic is the scoring
module's, reached through here.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ndcg_desktop.scoring import Cancelled
from ndcg_desktop.scoring.explain import FlagReport, histogram, ideal_ranking, missed_relevant
from ndcg_desktop.tasks.scoring import ScoredRun

__all__ = ["Cancelled", "FlagReport", "QueryExplained", "explain_query", "ndcg_histogram"]


@dataclass(frozen=True)
class QueryExplained:
    """One query of a scored run: ``positions`` (the top K with grade, gain, discount, contribution, judged),
    ``ideal`` (the best top K from the frozen pool), ``missed`` (relevant documents outside the top K, with the
    position the run gave them or NaN), and the query's figures."""

    query_id: str
    positions: pd.DataFrame
    ideal: pd.DataFrame
    missed: pd.DataFrame
    ndcg: float
    candidate_ndcg: float
    tie_at_k: bool
    tie_averaged_ndcg: float
    k: int


def explain_query(scored: ScoredRun, query_id: str) -> QueryExplained:
    """The breakdown of ``query_id`` in ``scored`` (any thread): the Scores and Runs views' query panel."""
    e, qrels = scored.evaluation, scored.qrels
    rec = e.per_query[e.per_query["query_id"].astype(str) == query_id].iloc[0]
    positions = e.per_position[e.per_position["query_id"].astype(str) == query_id].copy()
    return QueryExplained(
        query_id=query_id,
        positions=positions,
        ideal=ideal_ranking(qrels, query_id, e.k, e.settings.policies.gain),
        missed=missed_relevant(qrels, e.per_position, query_id, e.settings.policies.gain, scored.rankings),
        ndcg=float(rec["ndcg"]),
        candidate_ndcg=float(rec["candidate_ndcg"]),
        tie_at_k=bool(rec["tie_at_k"]),
        tie_averaged_ndcg=float(rec["tie_averaged_ndcg"]),
        k=e.k,
    )


def ndcg_histogram(scored: ScoredRun, bins: int = 10) -> pd.DataFrame:
    """How many of the queries in the mean fall in each nDCG bin [0, 0.1), ..., [0.9, 1.0] (low, high, queries)."""
    return histogram(scored.evaluation.per_query, bins)

"""How much one item's grade can move a query's nDCG: the order in which differing ratings are adjudicated.

For an item rated differently (lowest rating ``low``, highest ``high``), its *swing* in a run is
|nDCG@K(item = high) - nDCG@K(item = low)| for its query, every other item of the query's universe keeping its
grade. Both the DCG (if the run returns the item in the top K) and the IDCG (always: rule 1's fixed universe)
move. Pure arithmetic over plain frames; the gain and discount are the scoring core's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ndcg_desktop.domain.settings import Gain
from ndcg_desktop.scoring.dcg import discounts, gain_values


def _ndcg(top_grades: np.ndarray, universe: np.ndarray, k: int, gain: Gain) -> float:
    """nDCG@k of one query: ``top_grades`` are the grades of the returned top k (unjudged: 0), in order."""
    ideal = np.sort(gain_values(universe, gain))[::-1][:k]
    idcg = float((ideal * discounts(np.arange(1, len(ideal) + 1))).sum())
    if idcg == 0.0:  # rule 7: a zero-IDCG query scores 0
        return 0.0
    dcg = float((gain_values(top_grades, gain) * discounts(np.arange(1, len(top_grades) + 1))).sum())
    return dcg / idcg


def grade_swings(
    universe: pd.DataFrame, tops: dict[str, pd.DataFrame], items: pd.DataFrame, *, k: int, gain: Gain
) -> pd.DataFrame:
    """Per item, its largest swing over the runs and the run where it is largest.

    ``universe``: query_id, doc_id, grade (every item of the pool, an undecided one at any grade in its range);
    ``tops``: per run name, query_id, rank, doc_id of its top ``k`` distinct documents (``ranking.top_documents``);
    ``items``: query_id, doc_id, low, high. Returns ``items`` with ``swing`` (0.0 without runs) and ``run``.

    Example: universe A=3, B=2, C=1; ranking [B, C]; K=2; item A rated 1 or 3::

        swing = (2/log2(2) + 1/log2(3)) / (2/log2(2) + 1/log2(3))  -  (2 + 1/log2(3)) / (3 + 2/log2(3))
    """
    by_query = {q: frame for q, frame in universe.groupby("query_id", sort=False)}
    run_lists = {
        name: {q: frame.sort_values("rank")["doc_id"].tolist()[:k] for q, frame in top.groupby("query_id", sort=False)}
        for name, top in tops.items()
    }
    swings: list[float] = []
    where: list[str | None] = []
    for query_id, doc_id, low, high in items[["query_id", "doc_id", "low", "high"]].itertuples(index=False):
        pool = by_query[query_id]
        grade_of = dict(zip(pool["doc_id"], pool["grade"].astype(int), strict=True))
        best, best_run = 0.0, None
        for name in sorted(run_lists):
            returned = run_lists[name].get(query_id, [])
            scores = []
            for value in (int(low), int(high)):
                grade_of[doc_id] = value
                top = np.array([grade_of.get(d, 0) for d in returned], dtype=np.int64)
                scores.append(_ndcg(top, np.fromiter(grade_of.values(), dtype=np.int64), k, gain))
            swing = abs(scores[1] - scores[0])
            if best_run is None or swing > best:
                best, best_run = swing, name
        swings.append(best)
        where.append(best_run)
    return items.assign(swing=np.array(swings, dtype=np.float64), run=where)

"""How far unjudged documents in the top K could move a score (rule 17): a lower and an upper bound.

For each query, with m unjudged documents in the top K of the run as returned:

- ``ndcg_unjudged_zero``: nDCG@K with every unjudged document counted as non-relevant (gain 0,
  in its position): the score under ``unjudged=zero``;
- ``ndcg_unjudged_top``: DCG⁺@K / IDCG⁺@K with every unjudged document in the top K given the
  scale's top grade: DCG⁺ adds gain(top) / log2(i + 1) at each unjudged position i, and the ideal
  IDCG⁺ is taken over the judged universe **plus** those m hypothetically relevant documents (a
  judgment can only add documents to the universe, so the ideal must hold them too);
- ``ndcg_lower`` / ``ndcg_upper``: the smaller and the larger of the two, ``ndcg_gap`` their
  difference. A query without unjudged documents in its top K has a gap of 0.

Usually the top-grade reading is the larger, but not always: the hypothetical documents also
raise the ideal. Universe A=3 (and non-relevant J, J'), ranking [A, J, J', X] with X unjudged, K=4:
as non-relevant 3/3 = 1; as the top grade (3 + 3/log2(5)) / (3 + 3/log2(3)) = 0.877. Hence the
interval is between the two readings, whichever is larger. These are the two named readings, not
the extremes over every possible grading of several unjudged documents.

The contract's example with D unjudged (universe A=3, B=2, C=1; ranking [B, D, C]; K=3)::

    lower = (2/log2(2) + 1/log2(4)) / (3/log2(2) + 2/log2(3) + 1/log2(4))             = 0.525005
    upper = (2/log2(2) + 3/log2(3) + 1/log2(4)) / (3/log2(2) + 3/log2(3) + 2/log2(4)) = 0.745452

The bounds are computed from an evaluation made under ``unjudged=zero`` (its per-position table
names the unjudged documents in the top K; its nDCG is the lower bound), with the scoring core's
own kernels for gains, discounts and the ideal.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ndcg_desktop.domain.data import Qrels
from ndcg_desktop.domain.settings import UnjudgedPolicy
from ndcg_desktop.scoring.dcg import _sum_top_k, gain_values
from ndcg_desktop.scoring.ndcg import Evaluation

BOUND_COLUMNS = ("ndcg_unjudged_zero", "ndcg_unjudged_top", "ndcg_lower", "ndcg_upper", "ndcg_gap")


def unjudged_bounds(evaluation: Evaluation, qrels: Qrels, *, top_grade: int | None = None) -> pd.DataFrame:
    """Per query of ``evaluation``: ``query_id``, the :data:`BOUND_COLUMNS` and ``unjudged_in_top_k``.

    ``top_grade``: the grade the upper reading gives an unjudged document (default: the scale's top;
    ``ndcg compare`` without ``--scale`` passes the highest grade in the judgments, since a qrels graded
    0..2 read against the default 0..3 would otherwise assume a grade nobody could give).

    ``evaluation`` must have been made against ``qrels`` under ``unjudged=zero``, or under
    ``reject`` (it then had no unjudged document); a condensed ranking no longer shows where its
    unjudged documents were. Zero-IDCG queries stay as the
    evaluation scored them (0) unless an unjudged document makes the upper ideal positive.
    """
    settings = evaluation.settings
    if settings.policies.unjudged is UnjudgedPolicy.CONDENSE:
        raise ValueError("bounds are read from an evaluation made with unjudged=zero, not condense")
    per_query = evaluation.per_query
    queries = pd.Index(per_query["query_id"])
    n = len(queries)
    grade = settings.terms.scale.high if top_grade is None else top_grade
    top_gain = float(gain_values(np.array([grade]), settings.policies.gain)[0])

    positions = evaluation.per_position
    unjudged = positions[~positions["judged"].to_numpy(dtype=bool)]
    q_unjudged = queries.get_indexer(unjudged["query_id"])
    keep = q_unjudged >= 0
    m = np.bincount(q_unjudged[keep], minlength=n)
    added = np.bincount(q_unjudged[keep], weights=top_gain * unjudged["discount"].to_numpy()[keep], minlength=n)
    dcg_upper = per_query["dcg"].to_numpy() + added

    # IDCG⁺: the universe's gains plus m top gains per query, through the core's ideal-ordering kernel.
    # Each judgment's row of the table through its query code: a few thousand distinct IDs looked up, not a
    # pandas frame of every judgment's strings (which held a scoring worker's GIL ~0.1 s per 700,000 judgments).
    c = qrels.judgments
    pool_q = queries.get_indexer(pd.Index(c.queries.to_pylist(), dtype=queries.dtype))[c.q] if len(c.q) else c.q
    in_table = pool_q >= 0
    groups = np.concatenate([pool_q[in_table], np.repeat(np.arange(n), m)]).astype(np.int64)
    gains = np.concatenate([gain_values(c.grade[in_table], settings.policies.gain), np.full(m.sum(), top_gain)])
    idcg_upper = _sum_top_k(groups, gains, evaluation.k, n)

    lower = per_query["ndcg"].to_numpy(dtype=np.float64)  # the reading as non-relevant
    with np.errstate(divide="ignore", invalid="ignore"):
        upper = np.where(idcg_upper > 0, dcg_upper / idcg_upper, 0.0)
    top = np.where(m > 0, upper, lower)  # nothing unjudged: both readings are the score itself
    return pd.DataFrame(
        {
            "query_id": per_query["query_id"],
            "ndcg_unjudged_zero": lower,
            "ndcg_unjudged_top": top,
            "ndcg_lower": np.minimum(lower, top),
            "ndcg_upper": np.maximum(lower, top),
            "ndcg_gap": np.abs(top - lower),
            "unjudged_in_top_k": m,
        }
    )


def mean_bounds(bounds: pd.DataFrame, in_mean: pd.Series | np.ndarray) -> tuple[float, float]:
    """The bounds of the mean: the means of each reading over the queries in the mean, smaller first."""
    counted = np.asarray(in_mean, dtype=bool)
    if not counted.any():
        return (float("nan"), float("nan"))
    zero = float(bounds["ndcg_unjudged_zero"].to_numpy()[counted].mean())
    top = float(bounds["ndcg_unjudged_top"].to_numpy()[counted].mean())
    return (min(zero, top), max(zero, top))

"""DCG at one cut-off K: gains, discounts, the ideal ordering, and the stages that cut a looked-up ranking at K.

ranx composes ``_dcg``, ``_idcg`` and ``_ndcg``; so does this: :func:`near_top_k` (the rows that can count at K),
:func:`dcg_at_k` (rules 2-4), :func:`ties_at_k` (rule 10) and :func:`per_query_at_k` (rules 1, 6-9), each a
function of plain arrays, tested alone (tests/scoring/test_dcg_stages.py). :mod:`ndcg_desktop.scoring.ndcg`
orders, deduplicates and looks the run up once (:class:`Ranked`), then runs these stages at every K.

Legend of the short array names: ``q`` query code, ``key`` sort key, ``d`` code into the document IDs, ``row`` file
row, ``pos`` 1-based position; an ``s`` in front (``sq``) marks an array over every ranked row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ndcg_desktop.domain.settings import EvalSettings, Gain, QuerySet, ZeroIdcgPolicy
from ndcg_desktop.scoring.ranking import DocIds, positions


def gain_values(grades: np.ndarray, gain: Gain) -> np.ndarray:
    """Gain per grade. Grades at or below zero earn nothing (trec_eval: only rel_level > 0 counts).

    >>> gain_values(np.array([3, 2, 0, -1]), Gain.LINEAR).tolist()
    [3.0, 2.0, 0.0, 0.0]
    >>> gain_values(np.array([3, 2, 0]), Gain.EXPONENTIAL).tolist()
    [7.0, 3.0, 0.0]
    """
    g = np.maximum(np.asarray(grades, dtype=np.float64), 0.0)
    if gain is Gain.EXPONENTIAL:
        return np.exp2(g) - 1.0
    return g


def discounts(positions: np.ndarray) -> np.ndarray:
    """1 / log2(rank + 1) for 1-based ranks."""
    return 1.0 / np.log2(np.asarray(positions, dtype=np.float64) + 1.0)


def _sum_top_k(groups: np.ndarray, gains: np.ndarray, k: int, n_groups: int) -> np.ndarray:
    """Per group: DCG@k of ``gains`` sorted descending (an ideal ordering)."""
    positive = np.flatnonzero(gains > 0)  # zero gains add nothing wherever they sit
    groups, gains = groups[positive], gains[positive]
    order = np.lexsort((-gains, groups))
    g, v = groups[order], gains[order]
    pos = positions(g)
    top = pos <= k
    return np.bincount(g[top], weights=v[top] * discounts(pos[top]), minlength=n_groups)


def _ideal_dcg(groups: np.ndarray, grades: np.ndarray, gain: Gain, k: int, n_groups: int) -> np.ndarray:
    """Per group: DCG@k of the gains of ``grades`` sorted descending, from how many of each grade it has.

    Grades are few distinct integers, so a group's ideal list is known from its grade counts: it is
    built down to position ``k`` only (no sort of the judgments), term by term in the order
    :func:`_sum_top_k` adds them, so the sums are the same to the last bit.
    """
    positive = np.flatnonzero(grades > 0)  # gain > 0 exactly when grade > 0, under either gain
    top_grade = int(grades[positive].max()) if len(positive) else 0
    if top_grade < 1:
        return np.zeros(n_groups, dtype=np.float64)
    width = top_grade  # one column per grade: top_grade, top_grade - 1, ..., 1
    if n_groups * width > 4 * len(grades) + (1 << 22):  # a wide scale over few judgments: sort them instead
        return _sum_top_k(groups[positive], gain_values(grades[positive], gain), k, n_groups)
    cell = groups[positive].astype(np.int64) * width + (top_grade - grades[positive])
    counts = np.bincount(cell, minlength=n_groups * width).reshape(n_groups, width)
    above = np.cumsum(counts, axis=1) - counts  # positions taken by higher grades of the same group
    reach = np.clip(k - above, 0, counts).ravel()  # how many of each grade reach position k
    cells = np.repeat(np.arange(n_groups * width, dtype=np.int64), reach)
    g = cells // width
    pos = positions(g)
    v = gain_values(top_grade - cells % width, gain)
    return np.bincount(g, weights=v * discounts(pos), minlength=n_groups)


def _tie_group_ends(groups: np.ndarray, key: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """For each of ``rows``, one past the last row of its tie group (equal group and key).

    Works from the sparse list of rows tied with the row before them, so that a run of any
    length costs a few passes of comparisons and no per-group loop.
    """
    if len(groups) < 2 or not len(rows):
        return rows + 1
    tied = np.flatnonzero((groups[1:] == groups[:-1]) & (key[1:] == key[:-1])) + 1
    if not len(tied):
        return rows + 1
    # Consecutive entries of ``tied`` extend one group; find the run that ``row + 1`` starts.
    i = np.searchsorted(tied, rows + 1)
    inside = tied[np.minimum(i, len(tied) - 1)] == rows + 1
    run_last = np.flatnonzero(np.r_[tied[1:] != tied[:-1] + 1, True])
    last = run_last[np.minimum(np.searchsorted(run_last, i), len(run_last) - 1)]
    return np.where(inside, tied[last] + 1, rows + 1)


@dataclass
class Ranked:
    """What every cutoff shares: the ranking ordered, deduplicated and looked up in the pool (``s*``: ranked rows)."""

    nq: int
    pool_queries: np.ndarray
    pool_grade: np.ndarray  # the judgments a returned document may match, and their gains
    pool_gain: np.ndarray
    idcgs: dict[int, np.ndarray]  # per K: each query's ideal DCG over its whole universe
    relevant_in_pool: np.ndarray
    docs: DocIds
    sq: np.ndarray  # run query code
    sk: np.ndarray  # sort key
    sd: np.ndarray  # code into docs
    srow: np.ndarray  # file row
    pq: np.ndarray  # pool query code
    starts: np.ndarray  # each query's first row
    lengths: np.ndarray
    judged_rows: np.ndarray  # rows judged (ascending), and the index of each one's judgment
    judged_hit: np.ndarray
    judged_q: np.ndarray  # before rule 6's condensing: the pool query and position of each judged row
    judged_pos: np.ndarray
    listed: np.ndarray  # rows per query before rule 6
    answered: np.ndarray
    returned: np.ndarray
    unjudged_total: np.ndarray
    duplicates_per_query: np.ndarray
    n_dup: int
    unknown: list[str]


@dataclass
class NearTop:
    """Each query's first K rows and the rest of the tie group at position K, in ranked order (``q``: pool query)."""

    q: np.ndarray
    key: np.ndarray
    d: np.ndarray
    row: np.ndarray
    pos: np.ndarray
    judged: np.ndarray  # the row's document is judged for its query; then its grade and gain (else 0)
    grade: np.ndarray
    gain: np.ndarray


def near_top_k(r: Ranked, k: int, *, list_order: bool) -> NearTop:
    """Only positions up to K earn gain, and ties reach past K only from position K: the rows that can count.

    ``list_order``: the run is ordered as listed (no scores, so no ties).
    """
    near_end = r.starts + np.minimum(r.lengths, k)
    if not list_order:
        near_end = _tie_group_ends(r.sq, r.sk, near_end - 1)
    span = near_end - r.starts
    offset = np.repeat(np.cumsum(span) - span, span)
    near = np.repeat(r.starts, span) + np.arange(int(span.sum())) - offset
    pos = near - np.repeat(r.starts, span) + 1
    judged_rows, judged_hit = r.judged_rows, r.judged_hit
    at = np.minimum(np.searchsorted(judged_rows, near), max(len(judged_rows) - 1, 0))
    judged = judged_rows[at] == near if len(judged_rows) else np.zeros(len(near), dtype=bool)
    hit = np.where(judged, judged_hit[at] if len(judged_hit) else -1, -1)
    grade = np.zeros(len(near), dtype=np.int64)
    gain = np.zeros(len(near), dtype=np.float64)
    grade[judged] = r.pool_grade[hit[judged]]
    gain[judged] = r.pool_gain[hit[judged]]
    return NearTop(r.pq[near], r.sk[near], r.sd[near], r.srow[near], pos, judged, grade, gain)


@dataclass
class AtK:
    """Rules 2-4 over :class:`NearTop`: per query DCG@K and the relevant documents found in the top K; per row,
    whether it is in the top K and its discount."""

    dcg: np.ndarray
    relevant_found: np.ndarray
    top: np.ndarray
    disc: np.ndarray


def dcg_at_k(near: NearTop, k: int, nq: int) -> AtK:
    """DCG over the ranking as it is (never padded): sum of gain / log2(pos + 1) over positions 1..K."""
    top = near.pos <= k
    disc = discounts(near.pos)
    contrib = np.where(top, near.gain * disc, 0.0)
    dcg = np.bincount(near.q[top], weights=contrib[top], minlength=nq)
    relevant_found = np.bincount(near.q[top & (near.gain > 0)], minlength=nq)
    return AtK(dcg, relevant_found, top, disc)


def ties_at_k(near: NearTop, at: AtK, k: int, nq: int, *, list_order: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rule 10: per query, whether a tie straddles K (positions K and K+1 share a key), and the tie-averaged DCG.

    Tie-averaged DCG gives every member of a tied group the group's mean gain (McSherry and Najork 2008).
    Groups that start past K would add exactly zero, so leaving them out changes nothing.
    """
    sq, sk = near.q, near.key
    if list_order:
        new_group = np.ones(len(sq), dtype=bool)
    else:
        new_group = np.r_[True, (sq[1:] != sq[:-1]) | (sk[1:] != sk[:-1])][: len(sq)]
    straddle = np.flatnonzero((near.pos == k)[:-1] & ~new_group[1:]) if len(sq) > 1 else np.zeros(0, np.int64)
    tie_at_k = np.zeros(nq, dtype=bool)
    tie_at_k[sq[straddle]] = True
    gid = np.cumsum(new_group) - 1
    n_groups = int(gid[-1]) + 1 if len(gid) else 0
    members = np.maximum(np.bincount(gid, minlength=n_groups), 1)
    mean_gain = np.bincount(gid, weights=near.gain, minlength=n_groups) / members
    group_disc = np.bincount(gid, weights=np.where(at.top, at.disc, 0.0), minlength=n_groups)
    group_q = sq[new_group]
    tie_dcg = np.bincount(group_q, weights=mean_gain * group_disc, minlength=nq)
    return tie_at_k, tie_dcg


def per_query_at_k(
    r: Ranked, k: int, settings: EvalSettings, at: AtK, tie_at_k: np.ndarray, tie_dcg: np.ndarray
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Rules 1 and 6-9: the per-query columns at K (which queries count and how), and the pool queries dropped.

    NDCG = DCG / IDCG over the whole universe; 0 for a zero-IDCG query (kept in the mean or excluded by
    ``settings.zero_idcg``); the candidate-only NDCG (rule 1's diagnostic) divides by the ideal of the judged
    documents returned.
    """
    nq, idcg = r.nq, r.idcgs[k]
    unjudged_top_k = np.minimum(r.listed, k) - np.bincount(r.judged_q[r.judged_pos <= k], minlength=nq)
    judged_grades = r.pool_grade[r.judged_hit]
    candidate_idcg = _ideal_dcg(r.pq[r.judged_rows], judged_grades, settings.gain, k, nq)
    evaluated = np.ones(nq, dtype=bool) if settings.queries is QuerySet.POOL else r.answered.copy()
    dropped: list[str] = r.pool_queries[~evaluated].tolist()
    zero_idcg = idcg <= 0
    excluded = zero_idcg & (settings.zero_idcg is ZeroIdcgPolicy.EXCLUDE)
    with np.errstate(divide="ignore", invalid="ignore"):
        ndcg = np.where(zero_idcg, 0.0, at.dcg / idcg)
        candidate_ndcg = np.where(candidate_idcg > 0, at.dcg / candidate_idcg, 0.0)
        tie_ndcg = np.where(zero_idcg, 0.0, tie_dcg / idcg)
    per_query = {
        "query_id": r.pool_queries,
        "ndcg": ndcg,
        "dcg": at.dcg,
        "idcg": idcg,
        "candidate_ndcg": candidate_ndcg,
        "tie_averaged_ndcg": tie_ndcg,
        "returned": r.returned,
        "relevant_in_pool": r.relevant_in_pool,
        "relevant_found": at.relevant_found,
        "relevant_missed": r.relevant_in_pool - at.relevant_found,
        "unjudged_in_top_k": unjudged_top_k,
        "unjudged_total": r.unjudged_total,
        "duplicates_removed": r.duplicates_per_query,
        "zero_idcg": zero_idcg,
        "excluded": excluded,
        "no_ranking": ~r.answered,
        "tie_at_k": tie_at_k,
        "in_mean": evaluated & ~excluded,
    }
    if not evaluated.all():
        per_query = {name: column[evaluated] for name, column in per_query.items()}
    return per_query, dropped

"""NDCG against a fixed judged universe, vectorised over all queries at once.

The contract is ``shared/PRODUCT.md``; every rule is named where it is applied.
Nothing here reads files or imports Qt: callers hand in :class:`Qrels` and :class:`Run`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop import __version__
from ndcg_desktop.domain.data import OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import (
    DuplicatePolicy,
    EvalSettings,
    Gain,
    QuerySet,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)
from ndcg_desktop.scoring.ranking import positions, rank_run, repeats

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]


class Cancelled(Exception):
    """Raised when the caller's cancel flag is set; nothing has been changed."""


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


@dataclass
class Evaluation:
    """Everything one scoring produces: per-query and per-position tables, summary, manifest."""

    settings: EvalSettings
    per_query: pd.DataFrame
    per_position: pd.DataFrame
    summary: dict[str, Any]
    manifest: dict[str, Any]
    unknown_queries: list[str] = field(default_factory=list)
    dropped_queries: list[str] = field(default_factory=list)


def evaluate(
    qrels: Qrels,
    run: Run,
    settings: EvalSettings,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Evaluation:
    """Score ``run`` against the fixed universe of ``qrels`` under ``settings``.

    Refused policies (unjudged documents, duplicates, unknown queries under ``reject``)
    raise :class:`InputError` naming the run file and line and the setting that resolves it.

    Example, PRODUCT.md rule 1 (universe A=3, B=2, C=1, D=0; ranking [B, C]; K=2)::

        DCG  = 2/log2(2) + 1/log2(3) = 2.630930
        IDCG = 3/log2(2) + 2/log2(3) = 4.261860
        NDCG = 0.617320, while the candidate-only diagnostic is 1.0
    """
    steps = 7
    step = 0

    def advance() -> None:
        nonlocal step
        if cancelled is not None and cancelled():
            raise Cancelled()
        step += 1
        if progress is not None:
            progress(step, steps)

    k = settings.k
    path = run.source.path
    pool = qrels.frame
    pool_queries = np.array(sorted(pool["query_id"].unique().tolist()), dtype=object)
    nq = len(pool_queries)
    pool_index = pd.Index(pool_queries)
    pool_q = pool_index.get_indexer(pool["query_id"]).astype(np.int64)
    pool_gain = gain_values(pool["grade"].to_numpy(), settings.gain)
    advance()

    # Rule 9: run queries that are not in the pool are an error unless explicitly ignored.
    run_query_ids = np.array(run.queries.to_pylist(), dtype=object)
    run_to_pool = (
        pool_index.get_indexer(run_query_ids).astype(np.int64) if len(run_query_ids) else np.zeros(0, np.int64)
    )
    unknown_codes = np.flatnonzero(run_to_pool < 0)
    unknown = sorted(run_query_ids[unknown_codes].tolist())
    unknown += sorted(q for q in run.empty_queries if q not in pool_index)
    if unknown and settings.unknown_queries is UnknownQueryPolicy.REJECT:
        rows = np.flatnonzero(np.isin(run.q, unknown_codes))
        line = run.line_of(int(rows[0])) if len(rows) else None
        qid = str(run_query_ids[run.q[rows[0]]]) if len(rows) else unknown[0]
        raise InputError(
            f"query {qid} is not in the judgment pool ({len(unknown)} unknown "
            f"quer{'y' if len(unknown) == 1 else 'ies'}; often an ID mismatch)",
            path=path,
            line=line,
            hint="choose --unknown-queries ignore",
        )
    advance()

    # Rules 10 and 11: map chunk IDs, order by score (or rank, or list order), break ties.
    ranking = rank_run(run, ties=settings.ties, id_map=settings.id_map)
    docs = ranking.docs
    row_q = run_to_pool.astype(np.int32)[ranking.q] if len(run) else np.zeros(0, np.int32)
    if len(unknown_codes):
        kept = np.flatnonzero(row_q >= 0)
        sq, sk, sd, srow = row_q[kept], ranking.key[kept], ranking.d[kept], ranking.row[kept]
    else:
        sq, sk, sd, srow = row_q, ranking.key, ranking.d, ranking.row  # the common case: no copies
    del ranking, row_q
    advance()

    # Rule 5: a document twice in one query's ranking is an error unless the first is kept.
    n_docs = max(len(docs), 1)
    pair = sq.astype(np.int64) * n_docs + sd
    dup = repeats(pair)
    duplicates_per_query = np.bincount(sq[dup], minlength=nq)
    if dup.any() and settings.duplicates is DuplicatePolicy.REJECT:
        j = int(np.flatnonzero(dup)[np.argmin(srow[dup])])
        first = int(srow[np.flatnonzero(pair == pair[j])[0]])
        label = _doc_label(run, int(srow[j]), docs, sd[j], settings)
        raise InputError(
            f"document {label} appears again for query {pool_queries[sq[j]]} (also at line {run.line_of(first)}; "
            f"{int(dup.sum())} duplicate{'s' if dup.sum() != 1 else ''} in all)",
            path=path,
            line=run.line_of(int(srow[j])),
            hint="choose --duplicates first",
        )
    if dup.any():
        keep = ~dup
        sq, sk, sd, srow = sq[keep], sk[keep], sd[keep], srow[keep]
    del pair
    answered = np.bincount(sq, minlength=nq) > 0
    advance()

    # Rule 6: look every returned document up in its query's fixed universe.
    pool_docs = pa.array(pool["doc_id"].unique().tolist(), pa.string())
    pool_doc_index = pd.Index(pool_docs.to_pylist())
    pool_d = pool_doc_index.get_indexer(pool["doc_id"]).astype(np.int64)
    dict_to_pool_doc = pc.fill_null(pc.index_in(docs, value_set=pool_docs), -1).to_numpy().astype(np.int64)
    n_pool_docs = max(len(pool_docs), 1)
    run_pd = dict_to_pool_doc[sd] if len(sd) else np.zeros(0, np.int64)
    pool_pairs = pd.Index(pool_q * n_pool_docs + pool_d)
    hit = np.full(len(sd), -1, dtype=np.int64)
    known = run_pd >= 0
    hit[known] = pool_pairs.get_indexer(sq[known] * n_pool_docs + run_pd[known])
    judged = hit >= 0
    pos_before = positions(sq)
    unjudged_total = np.bincount(sq[~judged], minlength=nq)
    unjudged_top_k = np.bincount(sq[~judged & (pos_before <= k)], minlength=nq)
    if (~judged).any() and settings.unjudged is UnjudgedPolicy.REJECT:
        j = int(np.flatnonzero(~judged)[np.argmin(srow[~judged])])
        label = _doc_label(run, int(srow[j]), docs, sd[j], settings)
        n = int((~judged).sum())
        raise InputError(
            f"document {label} for query {pool_queries[sq[j]]} is not in the judgment pool "
            f"(unjudged; {n} unjudged document{'s' if n != 1 else ''} in all)",
            path=path,
            line=run.line_of(int(srow[j])),
            hint="choose --unjudged zero|condense",
        )
    pos = pos_before
    if settings.unjudged is UnjudgedPolicy.CONDENSE and not judged.all():
        sq, sk, sd, srow, hit, judged = sq[judged], sk[judged], sd[judged], srow[judged], hit[judged], judged[judged]
        pos = positions(sq)
    grade = np.zeros(len(sq), dtype=np.int64)
    gain = np.zeros(len(sq), dtype=np.float64)
    grade[judged] = pool["grade"].to_numpy()[hit[judged]]
    gain[judged] = pool_gain[hit[judged]]
    advance()

    # Rules 2-4: DCG over the ranking as it is (never padded); IDCG over the whole universe.
    top = pos <= k
    disc = discounts(pos)
    contrib = np.where(top, gain * disc, 0.0)
    dcg = np.bincount(sq[top], weights=contrib[top], minlength=nq)
    idcg = _sum_top_k(pool_q, pool_gain, k, nq)
    candidate_idcg = _sum_top_k(sq, gain, k, nq)  # rule 1's diagnostic: ideal of the candidates only
    relevant_in_pool = np.bincount(pool_q[pool_gain > 0], minlength=nq)
    relevant_found = np.bincount(sq[top & (gain > 0)], minlength=nq)
    returned = np.bincount(sq, minlength=nq)

    # Rule 10: a tie straddles K when positions K and K+1 share a key; tie-averaged DCG
    # gives every member of a tied group the group's mean gain (McSherry and Najork 2008).
    if run.order is OrderKind.LIST:
        new_group = np.ones(len(sq), dtype=bool)
    else:
        new_group = np.r_[True, (sq[1:] != sq[:-1]) | (sk[1:] != sk[:-1])][: len(sq)]
    at_k = np.flatnonzero((pos == k)[:-1] & ~new_group[1:]) if len(sq) > 1 else np.zeros(0, np.int64)
    tie_at_k = np.zeros(nq, dtype=bool)
    tie_at_k[sq[at_k]] = True
    gid = np.cumsum(new_group) - 1
    n_groups = int(gid[-1]) + 1 if len(gid) else 0
    mean_gain = np.bincount(gid, weights=gain, minlength=n_groups) / np.maximum(np.bincount(gid, minlength=n_groups), 1)
    group_disc = np.bincount(gid, weights=np.where(top, disc, 0.0), minlength=n_groups)
    group_q = sq[new_group]
    tie_dcg = np.bincount(group_q, weights=mean_gain * group_disc, minlength=nq)
    advance()

    # Rules 7-9: which queries count, and how.
    empty_known = pool_index.get_indexer(list(run.empty_queries)) if run.empty_queries else np.zeros(0, np.int64)
    answered[empty_known[empty_known >= 0]] = True
    if settings.queries is QuerySet.POOL:
        evaluated = np.ones(nq, dtype=bool)
    else:
        evaluated = answered.copy()
    dropped = pool_queries[~evaluated].tolist()
    zero_idcg = idcg <= 0
    excluded = zero_idcg & (settings.zero_idcg is ZeroIdcgPolicy.EXCLUDE)
    with np.errstate(divide="ignore", invalid="ignore"):
        ndcg = np.where(zero_idcg, 0.0, dcg / idcg)
        candidate_ndcg = np.where(candidate_idcg > 0, dcg / candidate_idcg, 0.0)
        tie_ndcg = np.where(zero_idcg, 0.0, tie_dcg / idcg)

    per_query = pd.DataFrame(
        {
            "query_id": pool_queries,
            "ndcg": ndcg,
            "dcg": dcg,
            "idcg": idcg,
            "candidate_ndcg": candidate_ndcg,
            "tie_averaged_ndcg": tie_ndcg,
            "returned": returned,
            "relevant_in_pool": relevant_in_pool,
            "relevant_found": relevant_found,
            "relevant_missed": relevant_in_pool - relevant_found,
            "unjudged_in_top_k": unjudged_top_k,
            "unjudged_total": unjudged_total,
            "duplicates_removed": duplicates_per_query,
            "zero_idcg": zero_idcg,
            "excluded": excluded,
            "no_ranking": ~answered,
            "tie_at_k": tie_at_k,
            "in_mean": evaluated & ~excluded,
        }
    )
    per_query = per_query[evaluated].reset_index(drop=True)

    per_position = _per_position(run, settings, pool_queries, docs, sq, sd, srow, pos, top, judged, grade, gain, disc)
    summary = _summary(per_query, settings, unknown, dropped, int(dup.sum()))
    manifest = _manifest(qrels, run, settings, summary, nq, unknown, dropped)
    advance()
    return Evaluation(settings, per_query, per_position, summary, manifest, unknown, dropped)


def _doc_label(run: Run, row: int, docs: pa.Array, code: int, settings: EvalSettings) -> str:
    mapped = docs[int(code)].as_py()
    if settings.id_map is None:
        return str(mapped)
    original = run.docs[int(run.d[row])].as_py()
    return f"{mapped} (from {original})" if original != mapped else str(mapped)


def _per_position(
    run: Run,
    settings: EvalSettings,
    pool_queries: np.ndarray,
    docs: pa.Array,
    sq: np.ndarray,
    sd: np.ndarray,
    srow: np.ndarray,
    pos: np.ndarray,
    top: np.ndarray,
    judged: np.ndarray,
    grade: np.ndarray,
    gain: np.ndarray,
    disc: np.ndarray,
) -> pd.DataFrame:
    """The top K of every query, position by position (what earned gain, and where)."""
    idx = np.flatnonzero(top)
    idx = idx[np.argsort(sq[idx], kind="stable")]  # queries in the pool's (sorted) order
    rows = srow[idx]
    contribution = gain[idx] * disc[idx]
    frame = pd.DataFrame(
        {
            "query_id": pool_queries[sq[idx]],
            "rank": pos[idx],
            "doc_id": docs.take(pa.array(sd[idx])).to_numpy(zero_copy_only=False),
            "returned_id": run.docs.take(pa.array(run.d[rows])).to_numpy(zero_copy_only=False),
            "score": run.score[rows] if run.score is not None else np.full(len(idx), np.nan),
            "judged": judged[idx],
            "grade": pd.array(np.where(judged[idx], grade[idx], 0), dtype="Int64"),
            "gain": gain[idx],
            "discount": disc[idx],
            "contribution": contribution,
            "line": [run.line_of(int(r)) for r in rows] if run.line_numbers is not None else rows + run.first_line,
        }
    )
    frame.loc[~frame["judged"], "grade"] = pd.NA
    frame["cumulative_dcg"] = frame.groupby("query_id", sort=False)["contribution"].cumsum()
    return frame


def _summary(
    per_query: pd.DataFrame, settings: EvalSettings, unknown: list[str], dropped: list[str], duplicates: int
) -> dict[str, Any]:
    in_mean = per_query[per_query["in_mean"]]
    n = len(in_mean)
    idcg_sum = float(in_mean["idcg"].sum())
    return {
        "measure": f"nDCG@{settings.k}",
        "settings": settings.describe(),
        # Rule 8: the headline is the equal-weight macro mean; the pooled ratio is another number.
        "mean_ndcg": float(in_mean["ndcg"].mean()) if n else None,
        "pooled_ndcg": float(in_mean["dcg"].sum()) / idcg_sum if idcg_sum > 0 else None,
        "mean_candidate_ndcg": float(in_mean["candidate_ndcg"].mean()) if n else None,
        "mean_tie_averaged_ndcg": float(in_mean["tie_averaged_ndcg"].mean()) if n else None,
        "queries_total": int(len(per_query)),
        "queries_in_mean": int(n),
        "zero_idcg": int(per_query["zero_idcg"].sum()),
        "excluded": int(per_query["excluded"].sum()),
        "no_ranking": int(per_query["no_ranking"].sum()),
        "dropped_unanswered": len(dropped),
        "unknown_queries_ignored": len(unknown),
        "unjudged_in_top_k": int(per_query["unjudged_in_top_k"].sum()),
        "unjudged_total": int(per_query["unjudged_total"].sum()),
        "duplicates_removed": duplicates,
        "ties_at_k": int(per_query["tie_at_k"].sum()),
    }


def _manifest(
    qrels: Qrels,
    run: Run,
    settings: EvalSettings,
    summary: dict[str, Any],
    n_pool_queries: int,
    unknown: list[str],
    dropped: list[str],
) -> dict[str, Any]:
    """Rule 13: enough to reproduce the figure, and to prove what it was computed from."""
    return {
        "tool": "ndcg-desktop",
        "version": __version__,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "settings": settings.as_dict(),
        "judgments": {
            "path": qrels.source.path,
            "sha256": qrels.source.sha256,
            "format": qrels.source.format,
            "judgments": qrels.n_judgments,
            "queries": n_pool_queries,
            "identical_repeats_dropped": qrels.repeats,
            "pool_version": None,
        },
        "run": {
            "path": run.source.path,
            "sha256": run.source.sha256,
            "format": run.source.format,
            "order": run.order.value,
            "reading": list(run.notes),
            "ranked_documents": len(run),
            "queries": len(run.answered_queries()),
        },
        "counts": {k: v for k, v in summary.items() if k not in ("measure", "settings")},
        "unknown_queries_ignored": unknown,
        "dropped_queries": dropped,
    }

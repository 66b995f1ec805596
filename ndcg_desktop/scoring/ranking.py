"""From a run's rows to ranked lists: ID mapping, ordering, tie-breaking, duplicates."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.data import OrderKind, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import TiePolicy


@dataclass
class Ranking:
    """A run's rows in ranked order, grouped by query (each query's rows are contiguous)."""

    q: np.ndarray  # int32 code into run.queries
    d: np.ndarray  # int32 code into ``docs`` (IDs after the ID map)
    row: np.ndarray  # the file row each position came from
    key: np.ndarray  # the sort key (negated score, rank or list position): equal keys are ties
    docs: pa.Array  # distinct document IDs after the ID map


def map_ids(run: Run, id_map: str | None) -> tuple[pa.Array, np.ndarray]:
    """Rule 11: cut every returned ID at the first ``id_map`` (``doc12#3`` -> ``doc12``).

    Returns the distinct mapped IDs and each row's code into them. Works on the distinct
    IDs, not on every row, so it costs little on large runs.
    """
    if id_map is None:
        return run.docs, run.d
    cut = pc.list_element(pc.split_pattern(run.docs, pattern=id_map, max_splits=1), 0)
    empty = np.flatnonzero(pc.equal(pc.utf8_length(cut), 0).to_numpy(zero_copy_only=False))
    if len(empty):
        rows = np.flatnonzero(np.isin(run.d, empty))
        raise InputError(
            f"document ID {run.docs[int(empty[0])].as_py()!r} is empty once cut at {id_map!r}",
            path=run.source.path,
            line=run.line_of(int(rows[0])),
        )
    encoded = pc.dictionary_encode(cut)
    return encoded.dictionary, encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)[run.d]


def order_rows(groups: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Stable permutation sorting rows by (group, key); equal keys keep file order.

    Run files usually list each query's documents together and already in order; then
    only whole query blocks are moved, which is far cheaper than a full sort.
    """
    n = len(groups)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    same = groups[1:] == groups[:-1]
    contiguous = len(starts) == len(np.unique(groups[starts]))
    if not contiguous or (same & (key[1:] < key[:-1])).any():
        return np.lexsort((key, groups))  # stable
    lengths = np.diff(np.r_[starts, n])
    block_order = np.argsort(groups[starts], kind="stable")
    new_starts = np.cumsum(np.r_[0, lengths[block_order][:-1]])
    return np.arange(n, dtype=np.int64) + np.repeat(starts[block_order] - new_starts, lengths[block_order])


def rank_run(run: Run, *, ties: TiePolicy, id_map: str | None = None) -> Ranking:
    """Rule 10: order each query's documents by score (or rank, or list order), ties by policy.

    The default policy is trec_eval's: equal scores ordered by document ID, descending,
    as plain string comparison (UTF-8 byte order, like C's strcmp).
    """
    docs, doc_code = map_ids(run, id_map)
    if run.order is OrderKind.SCORE:
        key = -run.score  # type: ignore[operator]
    elif run.order is OrderKind.RANK:
        key = run.rank.astype(np.float64)  # type: ignore[union-attr]
    else:
        key = np.arange(len(run), dtype=np.float64)
    perm = order_rows(run.q, key)
    sq, sk, sd = run.q[perm], key[perm], doc_code[perm]
    same_as_prev = np.r_[False, (sq[1:] == sq[:-1]) & (sk[1:] == sk[:-1])]
    tied = np.flatnonzero(same_as_prev | np.r_[same_as_prev[1:], False])
    if len(tied) and ties is not TiePolicy.FILE_ORDER:
        # Only the tied rows move, each within its own group of equal keys.
        tied_docs = np.unique(sd[tied])
        order = pc.sort_indices(docs.take(pa.array(tied_docs))).to_numpy()
        doc_rank = np.empty(len(tied_docs), dtype=np.int64)
        doc_rank[order] = np.arange(len(tied_docs))
        tiebreak = doc_rank[np.searchsorted(tied_docs, sd[tied])]
        if ties is TiePolicy.DOCID_DESC:
            tiebreak = -tiebreak
        group = np.cumsum(~same_as_prev)[tied]
        moved = tied[np.lexsort((tiebreak, group))]
        sd[tied], perm[tied] = sd[moved], perm[moved]
    return Ranking(q=sq, d=sd, row=perm, key=sk, docs=docs)


def positions(groups: np.ndarray) -> np.ndarray:
    """1-based position within each run of equal values of a grouped array."""
    n = len(groups)
    index = np.arange(n, dtype=np.int64)
    if n == 0:
        return index
    starts = np.where(np.r_[True, groups[1:] != groups[:-1]], index, 0)
    return index - np.maximum.accumulate(starts) + 1


def repeats(values: np.ndarray) -> np.ndarray:
    """Mask of values already seen earlier in the array (the first occurrence is not marked)."""
    if len(values) < 2 or not (np.diff(np.sort(values)) == 0).any():
        return np.zeros(len(values), dtype=bool)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    mask = np.empty(len(values), dtype=bool)
    mask[order] = np.r_[False, ordered[1:] == ordered[:-1]]
    return mask


def top_documents(run: Run, depth: int, *, ties: TiePolicy, id_map: str | None = None) -> pd.DataFrame:
    """The first ``depth`` distinct documents of every query: what depth-k pooling adds.

    Returns a frame with columns ``query_id``, ``rank`` and ``doc_id`` (after the ID map).
    """
    ranking = rank_run(run, ties=ties, id_map=id_map)
    pair = ranking.q.astype(np.int64) * max(len(ranking.docs), 1) + ranking.d
    keep = np.flatnonzero(~repeats(pair))
    q, d = ranking.q[keep], ranking.d[keep]
    pos = positions(q)
    top = pos <= depth
    return pd.DataFrame(
        {
            "query_id": run.queries.take(pa.array(q[top])).to_numpy(zero_copy_only=False),
            "rank": pos[top],
            "doc_id": ranking.docs.take(pa.array(d[top])).to_numpy(zero_copy_only=False),
        }
    )

"""NDCG against a fixed judged universe, vectorised over all queries at once.

The contract is ``docs/evaluation-contract.md``; every rule is named where it is applied.
Nothing here reads files or imports Qt: callers hand in :class:`Qrels` and :class:`Run`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.arrays import scalar, strings, to_arrow, to_numpy
from ndcg_desktop.domain.data import JudgmentColumns, OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError, choose
from ndcg_desktop.domain.progress import Cancelled, IsCancelled, Progress
from ndcg_desktop.domain.settings import (
    DuplicatePolicy,
    EvalSettings,
    Gain,
    QuerySet,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)
from ndcg_desktop.scoring.idkeys import GOLDEN, IdCollision, pair_keys
from ndcg_desktop.scoring.judged import id_keys
from ndcg_desktop.scoring.ranking import (
    DocIds,
    DocKeys,
    NumberedIds,
    RowIds,
    blocks,
    doc_strings,
    first_repeats,
    keys_among,
    positions,
    rank_run,
    verify_same,
)
from ndcg_desktop.scoring.report import manifest_of, per_position_columns, per_position_frame, summary_of

if TYPE_CHECKING:
    import pandas as pd  # the tables are built on first use: scoring a file loads no pandas (issue 37)


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


def _pool_queries(judgments: JudgmentColumns) -> tuple[pa.Array, np.ndarray]:
    """The pool's distinct query IDs in code point order, and each judgment's code into them.

    Readers and the store hand them so already; anything else (an unused or unsorted ID) is
    renumbered here, over the distinct IDs only.
    """
    queries, q = judgments.queries, judgments.q
    used = np.bincount(q, minlength=len(queries)) > 0
    if judgments.keeps_queries:  # a query whose lines were all negative grades is still the pool's (trec_eval -c)
        used[:] = True
    ordered = len(queries) < 2 or not pc.any(pc.greater_equal(queries[:-1], queries[1:])).as_py()
    if used.all() and ordered:
        return queries, q
    kept = queries.filter(to_arrow(used))
    order = to_numpy(pc.sort_indices(kept))  # UTF-8 byte order = Python's str order
    code = np.full(len(queries), -1, dtype=np.int32)
    code[np.flatnonzero(used)[order]] = np.arange(len(order), dtype=np.int32)
    return kept.take(to_arrow(order)), code[q]


# Judgments are ruled out by key when there are at least FILTER_LEAST of them and FILTER_RATIO per ranked row.
FILTER_LEAST, FILTER_RATIO = 1 << 16, 16


def _maybe_returned(judgments: JudgmentColumns, docs: DocIds, codes: np.ndarray) -> np.ndarray | None:
    """Judgment rows whose document may be among ``docs`` at ``codes`` (all that are, few others), ascending.

    When the judgments far outnumber the run (a 10M-line qrels file, a small run), a table of bits
    over the run's document keys rules most judgment rows out before any of their text is looked
    at; the rest of scoring then sees only the rows left. None when that would not pay.
    """
    n = len(judgments.q)
    if n < FILTER_LEAST or n < FILTER_RATIO * len(codes):
        return None
    if isinstance(docs, RowIds):
        returned = docs.strings  # every row's ID: repeats change nothing here
    elif isinstance(docs, NumberedIds):
        returned = doc_strings(docs, np.unique(codes))
    else:
        returned = docs
    if not len(returned):
        return np.zeros(0, dtype=np.int64)
    # id_keys are splitmix outputs (every bit spread), so their top bits serve as the table's slots.
    keys = judgments.doc_keys if judgments.doc_keys is not None else id_keys(judgments.doc_ids)
    bits = int(min(max(len(returned) * 64, 1 << 16), 1 << 30)).bit_length()  # about 1 in 64 others passes
    return _bit_table_hits(id_keys(returned), keys, bits, mixed=True)


def _index_in(values: pa.Array, distinct: pa.Array) -> np.ndarray:
    """Index of each value in ``distinct`` (int64), -1 where it is absent."""
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64)
    found = pc.index_in(values.cast(distinct.type), value_set=distinct)
    index: np.ndarray = to_numpy(found.fill_null(scalar(-1, found.type))).astype(np.int64)
    return index


@dataclass
class _Rows:
    """A ranking's arrays over every ranked row, filtered together (``d`` may be ``row`` itself: RowIds)."""

    q: np.ndarray  # run query code
    key: np.ndarray  # sort key
    d: np.ndarray  # code into docs
    row: np.ndarray  # file row
    ident: np.ndarray  # document identity key; from rule 5 on, the (query, document) pair key written over it

    def take(self, index: np.ndarray) -> _Rows:
        row = self.row[index]
        d = row if self.d is self.row else self.d[index]
        return _Rows(self.q[index], self.key[index], d, row, self.ident[index])


def _judged(pair: np.ndarray, pool_q: np.ndarray, pool_ident: np.ndarray, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows whose (query, document) pair is judged, ascending, and the index of each one's judgment.

    Most returned documents are judged for no query: a table of bits over the pool's pairs (about
    16 a pair, so one row in sixteen passes by chance) rules them out with one lookup each, and
    only the rest are searched for among the pool's sorted pairs.
    """
    pool_pair = pair_keys(pool_q, pool_ident, exact)
    order = np.argsort(pool_pair)
    ordered = pool_pair[order]
    if len(ordered) > 1 and not exact and (ordered[1:] == ordered[:-1]).any():
        raise IdCollision()  # the pool's pairs are distinct, so equal hashes are distinct IDs
    if not len(ordered) or not len(pair):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    bits = int(min(max(len(ordered) * 16, 1 << 16), 1 << 30)).bit_length()
    candidates = _bit_table_hits(ordered, pair, bits, mixed=not exact)
    needles = pair[candidates]
    sort = np.argsort(needles)  # sorted needles walk the pool's pairs in order: far fewer cache misses
    at = np.minimum(np.searchsorted(ordered, needles[sort]), len(ordered) - 1)
    hit = ordered[at] == needles[sort]
    found = np.zeros(len(candidates), dtype=np.int64) - 1
    found[sort[hit]] = order[at[hit]]
    return candidates[found >= 0], found[found >= 0]


def _bit_table_hits(members: np.ndarray, values: np.ndarray, bits: int, *, mixed: bool) -> np.ndarray:
    """Indices of ``values`` that may be among ``members`` (all that are, and a few that are not)."""
    shift = np.uint64(64 - bits)

    def slots(x: np.ndarray) -> np.ndarray:
        # Hashed pairs are spread already; exact ones (query << 32 | code) by Fibonacci hashing.
        return (x >> shift) if mixed else ((x * GOLDEN) >> shift)

    table = np.zeros(1 << (bits - 3), dtype=np.uint8)  # packed: bit s of the table is bit s % 8 of byte s // 8
    where = slots(members)
    np.bitwise_or.at(table, where >> np.uint64(3), np.left_shift(1, (where & np.uint64(7)).astype(np.uint8)))
    found = []
    for start in range(0, len(values), _STEP):  # in steps: the temporaries stay a few MiB, not 8 bytes a row each
        s = slots(values[start : start + _STEP])
        byte = table[s >> np.uint64(3)]
        byte >>= (s & np.uint64(7)).astype(np.uint8)
        found.append(np.flatnonzero(byte & 1) + start)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


_STEP = 1 << 20


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
class Evaluation:
    """Everything one scoring produces: per-query and per-position tables, summary, manifest.

    The tables are held as columns (numpy, and Arrow for document IDs); :attr:`per_query` and
    :attr:`per_position` are pandas DataFrames of them, built on first use (pandas is imported then:
    ``ndcg score`` prints from the columns and never loads it).
    """

    settings: EvalSettings
    per_query_columns: dict[str, np.ndarray]  # one entry per per_query column, in its order
    per_position_columns: dict[str, np.ndarray | pa.Array]
    summary: dict[str, Any]
    manifest: dict[str, Any]
    unknown_queries: list[str] = field(default_factory=list)
    dropped_queries: list[str] = field(default_factory=list)
    _frames: dict[str, pd.DataFrame] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def per_query(self) -> pd.DataFrame:
        """One row per evaluated query (the columns of :attr:`per_query_columns`), built once."""
        if "per_query" not in self._frames:
            import pandas as pd

            self._frames["per_query"] = pd.DataFrame(self.per_query_columns)
        return self._frames["per_query"]

    @property
    def per_position(self) -> pd.DataFrame:
        """The top K of every query, position by position (what earned gain, and where), built once."""
        if "per_position" not in self._frames:
            self._frames["per_position"] = per_position_frame(self.per_position_columns)
        return self._frames["per_position"]


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

    Example, the contract's rule 1 (universe A=3, B=2, C=1, D=0; ranking [B, C]; K=2)::

        DCG  = 2/log2(2) + 1/log2(3) = 2.630930
        IDCG = 3/log2(2) + 2/log2(3) = 4.261860
        NDCG = 0.617320, while the candidate-only diagnostic is 1.0
    """
    return evaluate_cutoffs(qrels, run, settings, [settings.k], progress=progress, cancelled=cancelled)[settings.k]


def evaluate_cutoffs(
    qrels: Qrels,
    run: Run,
    settings: EvalSettings,
    ks: Sequence[int],
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> dict[int, Evaluation]:
    """:func:`evaluate` at every K of ``ks`` (``settings.k`` is ignored): each the same as its own call.

    The run is ordered, deduplicated and looked up in the pool once; only the cut at K and what
    follows from it is repeated (ordering a 1M-line run is most of a scoring).

    Example (universe A=3, B=2, C=1, D=0; ranking [B, C]), ``evaluate_cutoffs(qrels, run, settings, [1, 2])``::

        {1: NDCG@1 = 2/3, 2: NDCG@2 = (2/log2(2) + 1/log2(3)) / (3/log2(2) + 2/log2(3)) = 0.617320}
    """
    if not ks or len(set(ks)) != len(ks):
        raise InputError("give each cutoff once, and at least one")
    try:
        return _evaluate(qrels, run, settings, ks, progress, cancelled, exact=False)
    except IdCollision:  # two distinct IDs share a 64-bit hash: the same steps over exact dictionary codes
        return _evaluate(qrels, run, settings, ks, progress, cancelled, exact=True)


def _evaluate(
    qrels: Qrels,
    run: Run,
    settings: EvalSettings,
    ks: Sequence[int],
    progress: Progress | None,
    cancelled: IsCancelled | None,
    *,
    exact: bool,
) -> dict[int, Evaluation]:
    steps = 4 + 3 * len(ks)  # four steps before the cut, three at each K
    step = 0

    def advance() -> None:
        nonlocal step
        if cancelled is not None and cancelled():
            raise Cancelled()
        step += 1
        if progress is not None:
            progress(step, steps)

    path = run.source.path
    # The pool as columns (query codes, Arrow document IDs, numpy grades): a 10M-line qrels file is
    # never one Python string per line. What needs every judgment is counted from codes and grades
    # alone (rules 1 and 4: the ideal from each query's grade counts); the document IDs are looked
    # at only for the judgments a returned document may match (below).
    judgments = qrels.judgments
    pool_query_ids, all_q = _pool_queries(judgments)
    pool_queries = np.array(pool_query_ids.to_pylist(), dtype=object)
    nq = len(pool_queries)
    idcgs = {k: _ideal_dcg(all_q, judgments.grade, settings.gain, k, nq) for k in ks}
    relevant_in_pool = np.bincount(all_q[judgments.grade > 0], minlength=nq)
    advance()

    # Rule 9: run queries that are not in the pool are an error unless explicitly ignored.
    run_query_ids = np.array(run.queries.to_pylist(), dtype=object)
    run_to_pool = _index_in(run.queries, pool_query_ids)
    unknown_codes = np.flatnonzero(run_to_pool < 0)
    unknown = sorted(run_query_ids[unknown_codes].tolist())
    known_queries = set(pool_queries.tolist())
    unknown += sorted(q for q in run.empty_queries if q not in known_queries)
    if unknown and settings.unknown_queries is UnknownQueryPolicy.REJECT:
        listing = np.flatnonzero(np.isin(run.q, unknown_codes))
        line = run.line_of(int(listing[0])) if len(listing) else None
        qid = str(run_query_ids[run.q[listing[0]]]) if len(listing) else unknown[0]
        raise InputError(
            f"query {qid} is not in the judgment pool ({len(unknown)} unknown "
            f"quer{'y' if len(unknown) == 1 else 'ies'}; often an ID mismatch)",
            path=path,
            line=line,
            hint=choose("unknown_queries", "ignore"),
        )
    advance()

    # Rules 10 and 11: map chunk IDs, order by score (or rank, or list order), break ties.
    # A run can hold millions of rows: the arrays over every row (query codes stay the run's
    # own, mapped to the pool's on the few rows that need it) are only compared and filtered,
    # and the arithmetic runs on the rows near the top of each ranking.
    ranking = rank_run(run, ties=settings.ties, id_map=settings.id_map, exact=exact)
    docs, keys = ranking.docs, ranking.keys
    rows = _Rows(ranking.q, ranking.key, ranking.d, ranking.row, keys.ident)
    del ranking
    if len(unknown_codes):
        rows = rows.take(np.flatnonzero(run_to_pool[rows.q] >= 0))
    advance()

    # Rule 5: a document twice in one query's ranking is an error unless the first is kept.
    # Documents are compared by their identity keys (scoring/idkeys.py), paired with the pool's query.
    pq = run_to_pool.astype(np.int32)[rows.q]
    maybe = _maybe_returned(judgments, docs, rows.d)
    if maybe is None:
        pool_q, pool_did, pool_grade = all_q, judgments.doc_ids, judgments.grade
    else:  # ``pool_*`` from here on: only the judgments a returned document may match
        pool_q, pool_did, pool_grade = all_q[maybe], judgments.doc_ids.take(to_arrow(maybe)), judgments.grade[maybe]
    del all_q, maybe
    pool_did = pool_did.cast(pa.large_string())  # 64-bit offsets: one array of any size
    if isinstance(pool_did, pa.ChunkedArray):
        pool_did = pool_did.combine_chunks() if pool_did.num_chunks else pa.nulls(0, pa.large_string())
    pool_gain = gain_values(pool_grade, settings.gain)
    pool_ident, both = keys_among(docs, keys, pool_did)
    # The pairs are written over the identity keys (8 bytes a row fewer at the peak): rows.ident is the pair now.
    dup, rows.ident = first_repeats(pq, docs, rows.d, DocKeys(rows.ident, both.exact, both.injective), reuse=True)
    pair = rows.ident
    n_dup = int(dup.sum())
    duplicates_per_query = np.bincount(pq[dup], minlength=nq)
    if n_dup and settings.duplicates is DuplicatePolicy.REJECT:
        j = int(np.flatnonzero(dup)[np.argmin(rows.row[dup])])
        first = int(rows.row[np.flatnonzero(pair == pair[j])[0]])
        label = _doc_label(run, int(rows.row[j]), docs, rows.d[j], settings)
        raise InputError(
            f"document {label} appears again for query {pool_queries[pq[j]]} "
            f"(also at line {run.line_of(first)}; {n_dup} duplicate{'s' if n_dup != 1 else ''} in all)",
            path=path,
            line=run.line_of(int(rows.row[j])),
            hint=choose("duplicates", "first"),
        )
    if n_dup:
        keep = np.flatnonzero(~dup)
        rows, pq = rows.take(keep), pq[keep]
        pair = rows.ident
    del dup
    sq, sk, sd, srow = rows.q, rows.key, rows.d, rows.row
    starts, lengths = blocks(sq)  # each query's rows are contiguous
    listed = np.zeros(nq, dtype=np.int64)  # rows per query, before rule 6
    listed[pq[starts]] = lengths
    answered = listed > 0
    advance()

    # Rule 6: look every returned document up in its query's fixed universe, by (query, document) key.
    judged_rows, judged_hit = _judged(pair, pool_q, pool_ident, both.exact)
    if not both.exact:  # hashed keys: a match must be the same query (then the same key: pair_keys) and document
        if (pq[judged_rows] != pool_q[judged_hit]).any():
            raise IdCollision()
        verify_same(docs, both, sd[judged_rows], pool_did.take(to_arrow(judged_hit)))
    del pair, rows
    judged_q = pq[judged_rows]
    judged_pos = judged_rows - starts[np.searchsorted(starts, judged_rows, side="right") - 1] + 1
    unjudged_total = listed - np.bincount(judged_q, minlength=nq)
    n_unjudged = len(sq) - len(judged_rows)
    if n_unjudged and settings.unjudged is UnjudgedPolicy.REJECT:
        unjudged = np.ones(len(sq), dtype=bool)
        unjudged[judged_rows] = False
        j = int(np.flatnonzero(unjudged)[np.argmin(srow[unjudged])])
        label = _doc_label(run, int(srow[j]), docs, sd[j], settings)
        raise InputError(
            f"document {label} for query {pool_queries[pq[j]]} is not in the judgment pool "
            f"(unjudged; {n_unjudged} unjudged document{'s' if n_unjudged != 1 else ''} in all)",
            path=path,
            line=run.line_of(int(srow[j])),
            hint=choose("unjudged", "zero", "condense"),
        )
    if settings.unjudged is UnjudgedPolicy.CONDENSE and n_unjudged:
        sq, sk, sd, srow, pq = sq[judged_rows], sk[judged_rows], sd[judged_rows], srow[judged_rows], pq[judged_rows]
        judged_rows = np.arange(len(sq))
        starts, lengths = blocks(sq)
    returned = np.zeros(nq, dtype=np.int64)
    returned[pq[starts]] = lengths
    empty_known = _index_in(strings(list(run.empty_queries)), pool_query_ids)
    answered[empty_known[empty_known >= 0]] = True  # rule 9: an empty ranking is an answer
    ranked = _Ranked(
        nq=nq,
        pool_queries=pool_queries,
        pool_grade=pool_grade,
        pool_gain=pool_gain,
        idcgs=idcgs,
        relevant_in_pool=relevant_in_pool,
        docs=docs,
        sq=sq,
        sk=sk,
        sd=sd,
        srow=srow,
        pq=pq,
        starts=starts,
        lengths=lengths,
        judged_rows=judged_rows,
        judged_hit=judged_hit,
        judged_q=judged_q,
        judged_pos=judged_pos,
        listed=listed,
        answered=answered,
        returned=returned,
        unjudged_total=unjudged_total,
        duplicates_per_query=duplicates_per_query,
        n_dup=n_dup,
        unknown=unknown,
    )
    return {k: _cut(qrels, run, settings.with_(k=k), ranked, advance) for k in ks}


def _cut(qrels: Qrels, run: Run, settings: EvalSettings, r: _Ranked, advance: Callable[[], None]) -> Evaluation:
    """The evaluation at ``settings.k`` of a ranking already ordered, deduplicated and looked up."""
    k, nq, pool_queries, pool_grade, pool_gain, docs = (
        settings.k,
        r.nq,
        r.pool_queries,
        r.pool_grade,
        r.pool_gain,
        r.docs,
    )
    sq, sk, sd, srow, pq, starts, lengths = r.sq, r.sk, r.sd, r.srow, r.pq, r.starts, r.lengths
    judged_rows, judged_hit, unknown, idcg, relevant_in_pool = (
        r.judged_rows,
        r.judged_hit,
        r.unknown,
        r.idcgs[k],
        r.relevant_in_pool,
    )
    unjudged_top_k = np.minimum(r.listed, k) - np.bincount(r.judged_q[r.judged_pos <= k], minlength=nq)
    candidate_idcg = _ideal_dcg(pq[judged_rows], pool_grade[judged_hit], settings.gain, k, nq)  # rule 1's diagnostic

    # Only positions up to K earn gain, and ties reach past K only from position K: keep each
    # query's first K rows and the rest of the tie group at position K ("near", in ranked order).
    near_end = starts + np.minimum(lengths, k)
    if run.order is not OrderKind.LIST:
        near_end = _tie_group_ends(sq, sk, near_end - 1)
    span = near_end - starts
    offset = np.repeat(np.cumsum(span) - span, span)
    near = np.repeat(starts, span) + np.arange(int(span.sum())) - offset
    pos = near - np.repeat(starts, span) + 1
    sq, sk, sd, srow = pq[near], sk[near], sd[near], srow[near]
    at = np.minimum(np.searchsorted(judged_rows, near), max(len(judged_rows) - 1, 0))
    judged = judged_rows[at] == near if len(judged_rows) else np.zeros(len(near), dtype=bool)
    hit = np.where(judged, judged_hit[at] if len(judged_hit) else -1, -1)
    grade = np.zeros(len(sq), dtype=np.int64)
    gain = np.zeros(len(sq), dtype=np.float64)
    grade[judged] = pool_grade[hit[judged]]
    gain[judged] = pool_gain[hit[judged]]
    advance()

    # Rules 2-4: DCG over the ranking as it is (never padded); IDCG over the whole universe.
    top = pos <= k
    disc = discounts(pos)
    contrib = np.where(top, gain * disc, 0.0)
    dcg = np.bincount(sq[top], weights=contrib[top], minlength=nq)
    relevant_found = np.bincount(sq[top & (gain > 0)], minlength=nq)

    # Rule 10: a tie straddles K when positions K and K+1 share a key; tie-averaged DCG
    # gives every member of a tied group the group's mean gain (McSherry and Najork 2008).
    # Groups that start past K would add exactly zero, so leaving them out changes nothing.
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
    answered = r.answered
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

    per_query = {
        "query_id": pool_queries,
        "ndcg": ndcg,
        "dcg": dcg,
        "idcg": idcg,
        "candidate_ndcg": candidate_ndcg,
        "tie_averaged_ndcg": tie_ndcg,
        "returned": r.returned,
        "relevant_in_pool": relevant_in_pool,
        "relevant_found": relevant_found,
        "relevant_missed": relevant_in_pool - relevant_found,
        "unjudged_in_top_k": unjudged_top_k,
        "unjudged_total": r.unjudged_total,
        "duplicates_removed": r.duplicates_per_query,
        "zero_idcg": zero_idcg,
        "excluded": excluded,
        "no_ranking": ~answered,
        "tie_at_k": tie_at_k,
        "in_mean": evaluated & ~excluded,
    }
    if not evaluated.all():
        per_query = {name: column[evaluated] for name, column in per_query.items()}

    per_position = per_position_columns(
        run, settings, pool_queries, docs, sq, sd, srow, pos, top, judged, grade, gain, disc
    )
    summary = summary_of(per_query, settings, unknown, dropped, r.n_dup, qrels, run)
    manifest = manifest_of(qrels, run, settings, summary, nq, unknown, dropped)
    advance()
    return Evaluation(settings, per_query, per_position, summary, manifest, unknown, dropped)


@dataclass
class _Ranked:
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


def _doc_label(run: Run, row: int, docs: DocIds, code: int, settings: EvalSettings) -> str:
    mapped = doc_strings(docs, np.array([code]))[0].as_py()
    if settings.id_map is None:
        return str(mapped)
    original = run.doc_ids(np.array([row]))[0].as_py()
    return f"{mapped} (from {original})" if original != mapped else str(mapped)

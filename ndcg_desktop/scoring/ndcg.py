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
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.data import JudgmentColumns, OrderKind, Qrels, Run
from ndcg_desktop.domain.errors import InputError, choose
from ndcg_desktop.domain.progress import Cancelled, IsCancelled, Progress
from ndcg_desktop.domain.settings import (
    Cutoffs,
    DataTerms,
    DuplicatePolicy,
    Gain,
    Measure,
    UnjudgedPolicy,
    UnknownQueryPolicy,
)
from ndcg_desktop.scoring.dcg import Ranked, _ideal_dcg, dcg_at_k, gain_values, near_top_k, per_query_at_k, ties_at_k
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
    rank_run,
    verify_same,
)
from ndcg_desktop.scoring.report import manifest_of, per_position_columns, per_position_frame, summary_of

if TYPE_CHECKING:
    import pandas as pd  # the tables are built on first use: scoring a file loads no pandas (issue 37)


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


@dataclass
class Evaluation:
    """Everything one scoring produces: per-query and per-position tables, summary, manifest.

    The tables are held as columns (numpy, and Arrow for document IDs); :attr:`per_query` and
    :attr:`per_position` are pandas DataFrames of them, built on first use (pandas is imported then:
    ``ndcg score`` prints from the columns and never loads it).
    """

    settings: Measure  # the policies on the data's terms it was scored under
    k: int  # the cutoff this evaluation is at
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
    settings: Measure,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Evaluation:
    """Score ``run`` against the fixed universe of ``qrels`` at cutoff ``k`` under ``settings``.

    Refused policies (unjudged documents, duplicates, unknown queries under ``reject``)
    raise :class:`InputError` naming the run file and line and the setting that resolves it.

    Example, the contract's rule 1 (universe A=3, B=2, C=1, D=0; ranking [B, C]; K=2)::

        DCG  = 2/log2(2) + 1/log2(3) = 2.630930
        IDCG = 3/log2(2) + 2/log2(3) = 4.261860
        NDCG = 0.617320, while the candidate-only diagnostic is 1.0
    """
    return evaluate_cutoffs(qrels, run, settings, Cutoffs((k,)), progress=progress, cancelled=cancelled)[k]


def evaluate_cutoffs(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    ks: Cutoffs,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> dict[int, Evaluation]:
    """:func:`evaluate` at every K of ``ks`` (checked where they were taken): each the same as its own call.

    The run is ordered, deduplicated and looked up in the pool once; only the cut at K and what
    follows from it is repeated (ordering a 1M-line run is most of a scoring).

    Example (universe A=3, B=2, C=1, D=0; ranking [B, C]), ``evaluate_cutoffs(qrels, run, settings, [1, 2])``::

        {1: NDCG@1 = 2/3, 2: NDCG@2 = (2/log2(2) + 1/log2(3)) / (3/log2(2) + 2/log2(3)) = 0.617320}
    """
    try:
        return _evaluate(qrels, run, settings, ks, progress, cancelled, exact=False)
    except IdCollision:  # two distinct IDs share a 64-bit hash: the same steps over exact dictionary codes
        return _evaluate(qrels, run, settings, ks, progress, cancelled, exact=True)


def _evaluate(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    ks: Sequence[int],
    progress: Progress | None,
    cancelled: IsCancelled | None,
    *,
    exact: bool,
) -> dict[int, Evaluation]:
    """The pipeline: the universe, the run's queries, order, candidate judgments, dedupe, judge lookup (each a
    stage below, once), then the cut at every K (:mod:`ndcg_desktop.scoring.dcg`'s stages)."""
    steps = 4 + 3 * len(ks)  # four steps before the cut, three at each K
    step = 0

    def advance() -> None:
        nonlocal step
        if cancelled is not None and cancelled():
            raise Cancelled()
        step += 1
        if progress is not None:
            progress(step, steps)

    # The pool as columns (query codes, Arrow document IDs, numpy grades): a 10M-line qrels file is
    # never one Python string per line. What needs every judgment is counted from codes and grades
    # alone (rules 1 and 4: the ideal from each query's grade counts); the document IDs are looked
    # at only for the judgments a returned document may match (below).
    policies = settings.policies
    judgments = qrels.judgments
    pool_query_ids, all_q = _pool_queries(judgments)
    u = _universe(pool_query_ids, all_q, judgments.grade, policies.gain, ks)
    advance()

    run_to_pool, unknown_codes, unknown = _run_queries(run, u, policies.unknown_queries)
    advance()

    # A run can hold millions of rows: the arrays over every row (query codes stay the run's
    # own, mapped to the pool's on the few rows that need it) are only compared and filtered,
    # and the arithmetic runs on the rows near the top of each ranking.
    docs, keys, rows = _ordered_rows(run, settings.terms, run_to_pool, unknown_codes, exact=exact)
    advance()

    # Documents are compared by their identity keys (scoring/idkeys.py), paired with the pool's query.
    pq = run_to_pool.astype(np.int32)[rows.q]
    pool_q, pool_did, pool_grade = _candidate_judgments(judgments, all_q, docs, rows.d)
    del all_q  # ``pool_*`` from here on: only the judgments a returned document may match
    pool_gain = gain_values(pool_grade, policies.gain)
    pool_ident, both = keys_among(docs, keys, pool_did)
    rows, pq, n_dup, duplicates_per_query = _without_duplicates(run, settings, u, docs, both, rows, pq)
    looked = _looked_up(u, docs, both, rows, pq, pool_q, pool_ident, pool_did)
    del rows, pq  # the pair keys go: what follows needs the ranked rows and their judgments only
    advance()

    kept = _unjudged_rule(qrels, run, settings, u, docs, looked)
    empty_known = _index_in(strings(list(run.empty_queries)), pool_query_ids)
    looked.answered[empty_known[empty_known >= 0]] = True  # rule 9: an empty ranking is an answer
    ranked = Ranked(
        nq=u.nq,
        pool_queries=u.queries,
        pool_grade=pool_grade,
        pool_gain=pool_gain,
        idcgs=u.idcgs,
        relevant_in_pool=u.relevant,
        docs=docs,
        judged_hit=looked.judged_hit,
        listed=looked.listed,
        answered=looked.answered,
        judged_rows=kept.judged_rows,
        judged_q=kept.judged_q,
        judged_pos=kept.judged_pos,
        returned=kept.returned,
        unjudged_total=kept.unjudged_total,
        duplicates_per_query=duplicates_per_query,
        n_dup=n_dup,
        unknown=unknown,
        **vars(kept.rows),  # sq, sk, sd, srow, pq, starts, lengths
    )
    del looked  # under *condense*, the rows before it
    return {k: _cut(qrels, run, settings, k, ranked, advance) for k in ks}


@dataclass
class _Universe:
    """Rules 1 and 4: the pool's queries, and what every judgment counts for (from codes and grades alone)."""

    query_ids: pa.Array  # the pool's distinct query IDs, code point order
    queries: np.ndarray  # the same, as Python strings
    idcgs: dict[int, np.ndarray]  # per K: each query's ideal DCG over its whole universe
    relevant: np.ndarray  # per query: judgments with a positive grade

    @property
    def nq(self) -> int:
        return len(self.queries)


def _universe(query_ids: pa.Array, q: np.ndarray, grade: np.ndarray, gain: Gain, ks: Sequence[int]) -> _Universe:
    """Each query's ideal DCG at every K and its relevant judgments, ``q`` coding each judgment's query."""
    queries = np.array(query_ids.to_pylist(), dtype=object)
    nq = len(queries)
    idcgs = {k: _ideal_dcg(q, grade, gain, k, nq) for k in ks}
    return _Universe(query_ids, queries, idcgs, np.bincount(q[grade > 0], minlength=nq))


def _run_queries(run: Run, u: _Universe, policy: UnknownQueryPolicy) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Rule 9: each run query's code in the pool (-1: not in it), those codes, and the unknown query IDs (empty
    rankings too); an error unless they are explicitly ignored."""
    run_query_ids = np.array(run.queries.to_pylist(), dtype=object)
    run_to_pool = _index_in(run.queries, u.query_ids)
    unknown_codes = np.flatnonzero(run_to_pool < 0)
    unknown = sorted(run_query_ids[unknown_codes].tolist())
    known_queries = set(u.queries.tolist())
    unknown += sorted(q for q in run.empty_queries if q not in known_queries)
    if unknown and policy is UnknownQueryPolicy.REJECT:
        listing = np.flatnonzero(np.isin(run.q, unknown_codes))
        line = run.line_of(int(listing[0])) if len(listing) else None
        qid = str(run_query_ids[run.q[listing[0]]]) if len(listing) else unknown[0]
        raise InputError(
            f"query {qid} is not in the judgment pool ({len(unknown)} unknown "
            f"quer{'y' if len(unknown) == 1 else 'ies'}; often an ID mismatch)",
            path=run.source.path,
            line=line,
            hint=choose("unknown_queries", "ignore"),
        )
    return run_to_pool, unknown_codes, unknown


def _ordered_rows(
    run: Run, terms: DataTerms, run_to_pool: np.ndarray, unknown_codes: np.ndarray, *, exact: bool
) -> tuple[DocIds, DocKeys, _Rows]:
    """Rules 10 and 11: chunk IDs mapped, rows ordered by score (or rank, or list order), ties broken by policy;
    the rows of unknown queries left out."""
    ranking = rank_run(run, ties=terms.ties, id_map=terms.id_map, exact=exact)
    docs, keys = ranking.docs, ranking.keys
    rows = _Rows(ranking.q, ranking.key, ranking.d, ranking.row, keys.ident)
    del ranking
    if len(unknown_codes):
        rows = rows.take(np.flatnonzero(run_to_pool[rows.q] >= 0))
    return docs, keys, rows


def _candidate_judgments(
    judgments: JudgmentColumns, q: np.ndarray, docs: DocIds, codes: np.ndarray
) -> tuple[np.ndarray, pa.Array, np.ndarray]:
    """The query codes, document IDs (one large_string array) and grades of the judgments a returned document
    may match (:func:`_maybe_returned`; all of them when ruling out does not pay)."""
    maybe = _maybe_returned(judgments, docs, codes)
    if maybe is None:
        pool_q, pool_did, pool_grade = q, judgments.doc_ids, judgments.grade
    else:
        pool_q, pool_did, pool_grade = q[maybe], judgments.doc_ids.take(to_arrow(maybe)), judgments.grade[maybe]
    pool_did = pool_did.cast(pa.large_string())  # 64-bit offsets: one array of any size
    if isinstance(pool_did, pa.ChunkedArray):
        pool_did = pool_did.combine_chunks() if pool_did.num_chunks else pa.nulls(0, pa.large_string())
    return pool_q, pool_did, pool_grade


def _without_duplicates(
    run: Run, settings: Measure, u: _Universe, docs: DocIds, both: DocKeys, rows: _Rows, pq: np.ndarray
) -> tuple[_Rows, np.ndarray, int, np.ndarray]:
    """Rule 5: a document twice in one query's ranking is an error unless the first is kept. The rows kept (their
    ``ident`` now the (query, document) pair key), their pool query codes, the count removed and it per query."""
    # The pairs are written over the identity keys (8 bytes a row fewer at the peak): rows.ident is the pair now.
    dup, rows.ident = first_repeats(pq, docs, rows.d, DocKeys(rows.ident, both.exact, both.injective), reuse=True)
    pair = rows.ident
    n_dup = int(dup.sum())
    duplicates_per_query = np.bincount(pq[dup], minlength=u.nq)
    if n_dup and settings.policies.duplicates is DuplicatePolicy.REJECT:
        j = int(np.flatnonzero(dup)[np.argmin(rows.row[dup])])
        first = int(rows.row[np.flatnonzero(pair == pair[j])[0]])
        label = _doc_label(run, int(rows.row[j]), docs, rows.d[j], settings)
        raise InputError(
            f"document {label} appears again for query {u.queries[pq[j]]} "
            f"(also at line {run.line_of(first)}; {n_dup} duplicate{'s' if n_dup != 1 else ''} in all)",
            path=run.source.path,
            line=run.line_of(int(rows.row[j])),
            hint=choose("duplicates", "first"),
        )
    if n_dup:
        keep = np.flatnonzero(~dup)
        rows, pq = rows.take(keep), pq[keep]
    return rows, pq, n_dup, duplicates_per_query


def _judged_rows(
    docs: DocIds,
    both: DocKeys,
    pair: np.ndarray,
    pq: np.ndarray,
    codes: np.ndarray,
    pool_q: np.ndarray,
    pool_ident: np.ndarray,
    pool_did: pa.Array,
) -> tuple[np.ndarray, np.ndarray]:
    """Rule 6's lookup: the rows whose document is in their query's fixed universe, by (query, document) key, and
    the index of each one's judgment; a hashed match is proven the same query and document."""
    judged_rows, judged_hit = _judged(pair, pool_q, pool_ident, both.exact)
    if not both.exact:  # hashed keys: a match must be the same query (then the same key: pair_keys) and document
        if (pq[judged_rows] != pool_q[judged_hit]).any():
            raise IdCollision()
        verify_same(docs, both, codes[judged_rows], pool_did.take(to_arrow(judged_hit)))
    return judged_rows, judged_hit


@dataclass
class _Scored:
    """Ranked rows (``s*`` as in :class:`Ranked`) with their pool query codes, and each query's block of them."""

    sq: np.ndarray
    sk: np.ndarray
    sd: np.ndarray
    srow: np.ndarray
    pq: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray

    @classmethod
    def of(cls, sq: np.ndarray, sk: np.ndarray, sd: np.ndarray, srow: np.ndarray, pq: np.ndarray) -> _Scored:
        starts, lengths = blocks(sq)  # each query's rows are contiguous
        return cls(sq, sk, sd, srow, pq, starts, lengths)

    def take(self, index: np.ndarray) -> _Scored:
        return _Scored.of(self.sq[index], self.sk[index], self.sd[index], self.srow[index], self.pq[index])


@dataclass
class _LookedUp:
    """The ranked rows after rule 5 and rule 6's lookup: which rows are judged, by which candidate judgment."""

    rows: _Scored
    listed: np.ndarray  # rows per pool query, before rule 6
    answered: np.ndarray
    judged_rows: np.ndarray
    judged_hit: np.ndarray


def _looked_up(
    u: _Universe,
    docs: DocIds,
    both: DocKeys,
    rows: _Rows,
    pq: np.ndarray,
    pool_q: np.ndarray,
    pool_ident: np.ndarray,
    pool_did: pa.Array,
) -> _LookedUp:
    """Each query's block of rows, and each row looked up among the candidate judgments by its (query, document)
    key (:func:`_judged_rows`)."""
    scored = _Scored.of(rows.q, rows.key, rows.d, rows.row, pq)
    listed = np.zeros(u.nq, dtype=np.int64)
    listed[pq[scored.starts]] = scored.lengths
    judged_rows, judged_hit = _judged_rows(docs, both, rows.ident, pq, rows.d, pool_q, pool_ident, pool_did)
    return _LookedUp(scored, listed, listed > 0, judged_rows, judged_hit)


@dataclass
class _Kept:
    """Rule 6 applied: the rows scored (every row, or under *condense* the judged ones), the judged rows among
    them, and what is counted as returned (each judged row's query and position, the unjudged per query)."""

    rows: _Scored
    judged_rows: np.ndarray
    judged_q: np.ndarray
    judged_pos: np.ndarray
    returned: np.ndarray  # rows per pool query after rule 6
    unjudged_total: np.ndarray


def _unjudged_rule(qrels: Qrels, run: Run, settings: Measure, u: _Universe, docs: DocIds, looked: _LookedUp) -> _Kept:
    """Rule 6: an unjudged document is an error (*reject*), non-relevant in its place (*zero*) or left out, the
    rows below it moving up (*condense*)."""
    rows, judged_rows = looked.rows, looked.judged_rows
    judged_q = rows.pq[judged_rows]
    judged_pos = judged_rows - rows.starts[np.searchsorted(rows.starts, judged_rows, side="right") - 1] + 1
    unjudged_total = looked.listed - np.bincount(judged_q, minlength=u.nq)
    n_unjudged = len(rows.sq) - len(judged_rows)
    policy = settings.policies.unjudged
    if n_unjudged and policy is UnjudgedPolicy.REJECT:
        _refuse_unjudged(qrels, run, settings, u, docs, judged_rows, rows.sd, rows.srow, rows.pq)
    if n_unjudged and policy is UnjudgedPolicy.CONDENSE:
        rows = rows.take(judged_rows)
        judged_rows = np.arange(len(rows.sq))
    returned = np.zeros(u.nq, dtype=np.int64)
    returned[rows.pq[rows.starts]] = rows.lengths
    return _Kept(rows, judged_rows, judged_q, judged_pos, returned, unjudged_total)


def _refuse_unjudged(
    qrels: Qrels,
    run: Run,
    settings: Measure,
    u: _Universe,
    docs: DocIds,
    judged_rows: np.ndarray,
    sd: np.ndarray,
    srow: np.ndarray,
    pq: np.ndarray,
) -> None:
    """Rule 6 under *reject*: the first unjudged document of the file, named with its line (and, when its judgment
    is a negative grade, with that: trec_eval's "pooled, not judged", looked up here, on the error path only)."""
    n_unjudged = len(sd) - len(judged_rows)
    unjudged = np.ones(len(sd), dtype=bool)
    unjudged[judged_rows] = False
    j = int(np.flatnonzero(unjudged)[np.argmin(srow[unjudged])])
    label = _doc_label(run, int(srow[j]), docs, sd[j], settings)
    query = str(u.queries[pq[j]])
    in_all = f"{n_unjudged} unjudged document{'s' if n_unjudged != 1 else ''} in all"
    pooled = qrels.pooled_not_judged(query, _doc_id(docs, sd[j]))
    if pooled is None:
        why = f"is not in the judgment pool (unjudged; {in_all})"
    else:
        grade, line = pooled
        where = f"in {qrels.source.path}" if line is None else f"at {qrels.source.path}:{line}"
        why = f'is in the pool but not judged (grade {grade} {where}, trec_eval\'s "pooled, not judged"; {in_all})'
    raise InputError(
        f"document {label} for query {query} {why}",
        path=run.source.path,
        line=run.line_of(int(srow[j])),
        hint=choose("unjudged", "zero", "condense"),
    )


def _cut(qrels: Qrels, run: Run, settings: Measure, k: int, r: Ranked, advance: Callable[[], None]) -> Evaluation:
    """The evaluation at ``k`` of a ranking already ordered, deduplicated and looked up: the stages of
    :mod:`ndcg_desktop.scoring.dcg`, then the tables, the summary and the manifest."""
    list_order = run.order is OrderKind.LIST
    near = near_top_k(r, k, list_order=list_order)
    advance()
    at = dcg_at_k(near, k, r.nq)
    tie_at_k, tie_dcg = ties_at_k(near, at, k, r.nq, list_order=list_order)
    advance()
    per_query, dropped = per_query_at_k(r, k, settings.policies, at, tie_at_k, tie_dcg)
    per_position = per_position_columns(
        run, settings, r.pool_queries, r.docs, near.q, near.d, near.row, near.pos, at.top, near.judged, near.grade,
        near.gain, at.disc,
    )  # fmt: skip
    summary = summary_of(per_query, settings, k, r.unknown, dropped, r.n_dup, qrels, run)
    manifest = manifest_of(qrels, run, settings, k, summary, r.nq, r.unknown, dropped)
    advance()
    return Evaluation(settings, k, per_query, per_position, summary, manifest, r.unknown, dropped)


def _doc_id(docs: DocIds, code: int) -> str:
    """The document ID at ``code``, as scored (mapped, under an ID map)."""
    return str(doc_strings(docs, np.array([code]))[0].as_py())


def _doc_label(run: Run, row: int, docs: DocIds, code: int, settings: Measure) -> str:
    mapped = _doc_id(docs, code)
    if settings.terms.id_map is None:
        return str(mapped)
    original = run.doc_ids(np.array([row]))[0].as_py()
    return f"{mapped} (from {original})" if original != mapped else str(mapped)

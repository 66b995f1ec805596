"""From a run's rows to ranked lists: ID mapping, ordering, tie-breaking, duplicates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.arrays import scalar, strings, to_arrow, to_numpy
from ndcg_desktop.domain.chunks import ChunkMap, IdMap
from ndcg_desktop.domain.data import OrderKind, Run
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import TiePolicy
from ndcg_desktop.scoring.idkeys import IdCollision, identity_keys, pair_keys, string_ranks
from ndcg_desktop.scoring.judged import any_repeat

if TYPE_CHECKING:  # pooling's frame: imported where it is built
    import pandas as pd


@dataclass(frozen=True)
class NumberedIds:
    """The IDs "0", "1", ... up to ``size - 1`` as a dictionary never built: code ``i`` is ``str(i)``.

    Runs whose document IDs are all numbers (``Run.doc_numbers``) are ranked and scored with
    the numbers as codes.
    """

    size: int

    def __len__(self) -> int:
        return self.size


@dataclass(frozen=True)
class RowIds:
    """Each row's ID as read (``Run.doc_column``), never made distinct: code ``i`` is row ``i``'s ID.

    Equal IDs have different codes here; their identity is the 64-bit key of ``scoring/idkeys.py``.
    """

    strings: pa.Array

    def __len__(self) -> int:
        return len(self.strings)


DocIds: TypeAlias = pa.Array | NumberedIds | RowIds  # document IDs, indexed by code


def doc_strings(docs: DocIds, codes: np.ndarray) -> pa.Array:
    """The IDs (strings) of some codes."""
    if isinstance(docs, NumberedIds):
        return pc.cast(to_arrow(np.asarray(codes), pa.int64()), pa.string())
    if isinstance(docs, RowIds):
        return docs.strings.take(to_arrow(np.asarray(codes)))
    return docs.take(to_arrow(np.asarray(codes)))


@dataclass
class DocKeys:
    """The identity of ranked documents: equal IDs have equal ``ident``.

    ``exact``: distinct IDs have distinct keys below 2**32 (dictionary codes or numbers), so a
    (query, key) pair composes exactly; otherwise keys are 64-bit, pairs are hashed and every match
    is verified. ``injective``: distinct IDs have distinct keys (IDs of at most 8 bytes), so a
    match of keys needs no look at the strings.
    """

    ident: np.ndarray  # per ranked position: uint64 hashes, or the codes themselves (non-negative) when exact
    exact: bool
    injective: bool


def keys_of(docs: DocIds, codes: np.ndarray, *, exact: bool = False) -> DocKeys:
    """The identity keys of ranked positions given by their codes into ``docs``.

    IDs held as strings (every row's, or distinct ones: a stored run, a mapped one) get hashed keys, as the
    file path's rows do, unless ``exact`` asks for the codes themselves (after an :class:`IdCollision`):
    matching a pool's IDs against codes built a hash table of every distinct ID (1.6 s for a stored run of
    4.8M distinct IDs), against hashed keys it is a sort.
    """
    if isinstance(docs, RowIds):
        ident, injective = identity_keys(docs.strings, codes)
        return DocKeys(ident, False, injective)
    if isinstance(docs, pa.Array) and not exact:
        ident, injective = identity_keys(docs)
        return DocKeys(ident[codes], False, injective)
    return DocKeys(codes, True, True)  # numbers, or exact codes: no 8-byte copy of every row


def keys_among(docs: DocIds, keys: DocKeys, values: pa.Array) -> tuple[np.ndarray, DocKeys]:
    """Identity keys for other IDs (a judgment pool's) comparable with ``keys``, and the exactness that holds for both.

    With codes, IDs that are not among ``docs`` get keys no ranked position has.
    """
    if not keys.exact:
        ident, injective = identity_keys(values)
        return ident, DocKeys(keys.ident, False, keys.injective and injective)
    absent = np.uint64(len(docs)) + np.arange(len(values), dtype=np.uint64)  # distinct, above every code
    if isinstance(docs, NumberedIds):
        # Only a canonical integer string can equal a numbered ID.
        canonical = to_numpy(pc.match_substring_regex(values, r"^(0|[1-9][0-9]{0,9})$"))
        index = np.flatnonzero(canonical)
        numbers = to_numpy(pc.cast(values.filter(to_arrow(canonical)), pa.int64()))
        inside = numbers < docs.size
        absent[index[inside]] = numbers[inside].astype(np.uint64)
        return absent, keys
    position = pc.index_in(values, value_set=docs)
    found = np.flatnonzero(to_numpy(position.is_valid()))
    absent[found] = to_numpy(position.fill_null(scalar(0, position.type)))[found].astype(np.uint64)
    return absent, keys


def verify_same(docs: DocIds, keys: DocKeys, codes: np.ndarray, others: pa.Array) -> None:
    """Raise :class:`IdCollision` unless the IDs at ``codes`` equal ``others``, pairwise (found equal by key)."""
    if keys.exact or keys.injective or not len(codes):
        return
    if not pc.all(pc.equal(doc_strings(docs, codes), others)).as_py():
        raise IdCollision()


def first_repeats(
    groups: np.ndarray, docs: DocIds, codes: np.ndarray, keys: DocKeys, *, reuse: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Rule 5: mask of positions whose document appeared earlier in the same group (query), and the pair keys.

    Pairs compare by key; when keys are hashed, every repeat found is verified on its IDs. ``reuse``: hashed
    pairs are written over ``keys.ident`` (see :func:`pair_keys`).
    """
    pair = pair_keys(groups, keys.ident, keys.exact, reuse=reuse)
    if not any_repeat(groups, pair):  # duplicates are rare: first only ask whether there are any (a True is confirmed)
        return np.zeros(len(pair), dtype=bool), pair
    order = np.argsort(pair, kind="stable")
    ordered = pair[order]
    again = np.r_[False, ordered[1:] == ordered[:-1]]
    run_start = np.maximum.accumulate(np.where(again, 0, np.arange(len(order))))
    repeated, first = order[again], order[run_start[again]]
    if not keys.exact:  # equal pairs in one group have equal identity keys (pair_keys); the IDs decide
        if (groups[repeated] != groups[first]).any():
            raise IdCollision()
        verify_same(docs, keys, codes[repeated], doc_strings(docs, codes[first]))
    mask = np.zeros(len(pair), dtype=bool)
    mask[repeated] = True
    return mask, pair


@dataclass
class Ranking:
    """A run's rows in ranked order, grouped by query (each query's rows are contiguous)."""

    q: np.ndarray  # int32 code into run.queries
    d: np.ndarray  # code into ``docs`` (IDs after the ID map); for RowIds the file row
    row: np.ndarray  # the file row each position came from
    key: np.ndarray  # the sort key (score, rank or list position): equal keys are ties
    docs: DocIds  # document IDs after the ID map
    keys: DocKeys  # each position's document identity


def map_ids(run: Run, id_map: IdMap | None, *, exact: bool = False) -> tuple[DocIds, np.ndarray | None]:
    """Rule 11: cut every returned ID at the first ``id_map`` (``doc12#3`` -> ``doc12``), or look each
    one up in a chunk map read from a file (a returned ID the map lacks is refused with its line).

    Returns the mapped IDs and each row's code into them (None for :class:`RowIds`, whose code is
    the row). Works on the distinct IDs, not on every row, so it costs little on large runs.
    ``exact`` asks for dictionary codes instead of :class:`RowIds` (after an :class:`IdCollision`).
    """
    if isinstance(id_map, ChunkMap):
        return _look_up(run, id_map)
    if run.doc_numbers is not None and (id_map is None or not set(id_map) <= set("0123456789")):
        # Digits only: a separator with any other character never occurs in them.
        return NumberedIds(int(run.doc_numbers.max()) + 1 if len(run) else 0), run.doc_numbers
    if id_map is None and run.doc_column is not None and not exact:
        return RowIds(run.doc_column), None
    if id_map is None:
        return run.docs, run.d
    cut = pc.list_element(pc.split_pattern(run.docs, pattern=id_map, max_splits=1), scalar(0, pa.int32()))
    length = pc.utf8_length(cut)
    empty = np.flatnonzero(to_numpy(pc.equal(length, scalar(0, length.type))))
    if len(empty):
        row = int(np.flatnonzero(np.isin(run.d, empty))[0])  # the first such line, named with its ID
        raise InputError(
            f"document ID {run.docs[int(run.d[row])].as_py()!r} is empty once cut at {id_map!r}",
            path=run.source.path,
            line=run.line_of(row),
        )
    encoded = pc.dictionary_encode(cut)
    return encoded.dictionary, to_numpy(encoded.indices).astype(np.int32)[run.d]


def _look_up(run: Run, chunk_map: ChunkMap) -> tuple[DocIds, np.ndarray]:
    """Each distinct returned ID replaced by its document from ``chunk_map``, vectorised over the distinct IDs."""
    mapping = chunk_map.mapping()
    chunks = strings(list(mapping))
    parents = strings(list(mapping.values()))
    docs, codes = run.docs, run.d  # numbered IDs too: run.docs builds their dictionary
    found = pc.index_in(docs, value_set=chunks)
    missing = np.flatnonzero(to_numpy(pc.is_null(found)))
    if len(missing):
        row = int(np.flatnonzero(np.isin(codes, missing))[0])  # the first such line, named with its ID
        raise InputError(
            f"document ID {docs[int(codes[row])].as_py()!r} is not a chunk of the ID map {chunk_map.label()}",
            path=run.source.path,
            line=run.line_of(row),
        )
    encoded = pc.dictionary_encode(parents.take(found))
    return encoded.dictionary, to_numpy(encoded.indices).astype(np.int32)[codes]


def order_rows(groups: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Stable permutation sorting rows by (group, key); equal keys keep file order."""
    perm = _order(groups, key, descending=False)
    return np.arange(len(groups), dtype=np.int64) if perm is None else perm


def _order(groups: np.ndarray, key: np.ndarray, descending: bool) -> np.ndarray | None:
    """Like :func:`order_rows`, but None when the rows are in order already.

    Run files usually list each query's documents together and already in order; then
    only whole query blocks are moved, which is far cheaper than a full sort, and when the
    blocks are in order too (codes numbered by first appearance) nothing moves at all.
    """
    n = len(groups)
    if n == 0:
        return None
    same = groups[1:] == groups[:-1]
    starts = np.flatnonzero(np.r_[True, ~same])
    block_groups = groups[starts]
    ordered_groups = np.sort(block_groups)  # (np.unique imports numpy.ma: 10-30 ms of a small file's start-up)
    contiguous = not (ordered_groups[1:] == ordered_groups[:-1]).any()  # each query in one block
    out_of_order = key[1:] > key[:-1] if descending else key[1:] < key[:-1]
    if not contiguous or (same & out_of_order).any():
        return np.lexsort((-key if descending else key, groups))  # stable
    if (block_groups[1:] > block_groups[:-1]).all():
        return None
    lengths = np.diff(np.r_[starts, n])
    block_order = np.argsort(block_groups, kind="stable")
    new_starts = np.cumsum(np.r_[0, lengths[block_order][:-1]])
    order: np.ndarray = np.arange(n, dtype=np.int64) + np.repeat(starts[block_order] - new_starts, lengths[block_order])
    return order


def rank_run(run: Run, *, ties: TiePolicy, id_map: IdMap | None = None, exact: bool = False) -> Ranking:
    """Rule 10: order each query's documents by score (or rank, or list order), ties by policy.

    The default policy is trec_eval's: equal scores ordered by document ID, descending,
    as plain string comparison (UTF-8 byte order, like C's strcmp). ``exact``: see :func:`map_ids`.
    """
    docs, doc_code = map_ids(run, id_map, exact=exact)
    if run.order is OrderKind.SCORE:
        key: np.ndarray = run.score  # type: ignore[assignment]  # descending; never changed in place
    elif run.order is OrderKind.RANK:
        key = run.rank.astype(np.float64)  # type: ignore[union-attr]
    else:
        key = np.arange(len(run), dtype=np.float64)
    perm = _order(run.q, key, run.order is OrderKind.SCORE)
    if perm is None:  # no copies of the run's columns (and never change them in place below)
        perm = np.arange(len(run), dtype=np.int64 if len(run) >= 1 << 31 else np.int32)
        sq, sk, sd = run.q, key, doc_code
    else:
        sq, sk, sd = run.q[perm], key[perm], None if doc_code is None else doc_code[perm]
    if sd is None:  # RowIds: the code is the file row, so ``sd`` is ``perm`` itself (moved with it below)
        sd = perm
    same_as_prev = np.r_[False, (sq[1:] == sq[:-1]) & (sk[1:] == sk[:-1])]
    tied = np.flatnonzero(same_as_prev | np.r_[same_as_prev[1:], False])
    if len(tied) and ties is not TiePolicy.FILE_ORDER:
        # Only the tied rows move, each within its own group of equal keys.
        tiebreak = string_order(docs, sd[tied])
        if ties is TiePolicy.DOCID_DESC:
            tiebreak = -tiebreak
        group = np.cumsum(~same_as_prev[tied])  # numbers the tie groups in order
        moved = tied[_sort_within(group, tiebreak)]
        if sd is doc_code:
            sd = sd.copy()
        if sd is perm:
            perm[tied] = perm[moved]
        else:
            sd[tied], perm[tied] = sd[moved], perm[moved]
    return Ranking(q=sq, d=sd, row=perm, key=sk, docs=docs, keys=keys_of(docs, sd, exact=exact))


def _sort_within(group: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Stable permutation sorting by (group, key), for ascending groups."""
    low, span = int(key.min()), int(key.max()) - int(key.min()) + 1
    if int(group[-1]) * span < 1 << 62:
        # One combined key: a stable sort of runs already in group order is far faster than lexsort.
        return np.argsort(group * span + (key - low), kind="stable")
    return np.lexsort((key, group))


def string_order(docs: DocIds, codes: np.ndarray) -> np.ndarray:
    """An int64 per code that sorts as the IDs do as strings (UTF-8 byte order, like strcmp)."""
    if isinstance(docs, NumberedIds):
        # Digit strings compare digit by digit, then the shorter first ("1" < "10" < "9"):
        # the number's digits left-aligned to ten places, then its length.
        numbers = codes.astype(np.int64)
        length = np.searchsorted(_POWERS_OF_TEN, numbers, side="right")
        length[numbers == 0] = 1
        return numbers * _POWERS_OF_TEN[10 - length] * 16 + length
    return string_ranks(doc_strings(docs, codes))


_POWERS_OF_TEN = 10 ** np.arange(11, dtype=np.int64)  # numbered IDs have at most ten digits


def blocks(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and length of each run of equal values of a grouped array."""
    n = len(groups)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    return starts, np.diff(np.r_[starts, n])


def positions(groups: np.ndarray) -> np.ndarray:
    """1-based position within each run of equal values of a grouped array."""
    n = len(groups)
    index = np.arange(n, dtype=np.int64)
    if n == 0:
        return index
    starts = np.where(np.r_[True, groups[1:] != groups[:-1]], index, 0)
    return index - np.maximum.accumulate(starts) + 1


def top_pairs(run: Run, depth: int, *, ties: TiePolicy, id_map: IdMap | None = None) -> pa.Table:
    """The first ``depth`` distinct documents of every query, as Arrow columns ``query_id``, ``rank``, ``doc_id``.

    Nothing here becomes one Python object per document: a worker building this for millions of lines
    (pooling, send for judging) leaves Python's GIL to the window's thread.
    """
    try:
        ranking = rank_run(run, ties=ties, id_map=id_map)
        repeated, _ = first_repeats(ranking.q, ranking.docs, ranking.d, ranking.keys)
    except IdCollision:  # two distinct IDs share a hash: exact dictionary codes instead
        ranking = rank_run(run, ties=ties, id_map=id_map, exact=True)
        repeated, _ = first_repeats(ranking.q, ranking.docs, ranking.d, ranking.keys)
    keep = np.flatnonzero(~repeated)
    q, d = ranking.q[keep], ranking.d[keep]
    pos = positions(q)
    top = pos <= depth
    return pa.table(
        {
            "query_id": run.queries.take(to_arrow(q[top])).cast(pa.string()),
            "rank": to_arrow(pos[top], pa.int64()),
            "doc_id": doc_strings(ranking.docs, d[top]).cast(pa.string()),
        }
    )


def top_documents(run: Run, depth: int, *, ties: TiePolicy, id_map: IdMap | None = None) -> pd.DataFrame:
    """The first ``depth`` distinct documents of every query: what depth-k pooling adds.

    Returns a frame with columns ``query_id``, ``rank`` and ``doc_id`` (after the ID map), the IDs in
    pandas' Arrow-backed string dtype (see :func:`top_pairs`).
    """
    return top_pairs(run, depth, ties=ties, id_map=id_map).to_pandas()

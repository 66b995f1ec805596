"""64-bit keys for string IDs, read straight from Arrow's buffers: identity and order without a dictionary.

Dictionary-encoding the document IDs of a 7M-line run (hashing every string into one table) was the
costliest step of scoring it. Two numpy-vectorised keys replace it:

- an **identity key** per ID: the ID's bytes themselves when it has at most 8 (``D1234567``, MS MARCO
  passage numbers), so that distinct IDs have distinct keys; for longer IDs a 64-bit hash of all its
  bytes. Equal IDs always have equal keys; callers verify the rare matches of hashed keys on the
  strings and raise :class:`IdCollision` when two distinct IDs share a key (then the caller starts
  again with exact dictionary codes);
- an **order key**: the first 8 bytes read big-endian, so integers compare as the strings do
  (UTF-8 byte order, C's ``strcmp``); ranks compare the first four such words (32 bytes), and IDs
  sharing all four are compared in full.

Legend: ``w`` a little-endian 8-byte word of an ID, zero past its end (IDs hold no NUL, rule 14).
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.arrays import to_arrow, to_numpy

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / phi: Fibonacci hashing's multiplier
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)  # splitmix64's finaliser


class IdCollision(Exception):
    """Two distinct IDs share a 64-bit hash (about 1 in 10**10 for a billion pairs): use exact codes."""


def mix(x: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    """splitmix64's finaliser: a bijection of uint64 that spreads every input bit over the output."""
    x = x if inplace else x.copy()
    for start in range(0, max(len(x), 1), _STEP):  # a block at a time: each shift's temporary stays a few MiB
        part = x[start : start + _STEP]
        part ^= part >> np.uint64(30)
        part *= _M1
        part ^= part >> np.uint64(27)
        part *= _M2
        part ^= part >> np.uint64(31)
    return x


_STEP = 1 << 19


def _offsets_and_chars(strings: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """Start offsets (n + 1, absolute) and the bytes of a string or large_string array, without copies."""
    if strings.null_count:
        raise ValueError("IDs are never null")
    wide = pa.types.is_large_string(strings.type)
    if not (wide or pa.types.is_string(strings.type)):
        raise TypeError(f"expected strings, not {strings.type}")
    item = 8 if wide else 4
    buffers = strings.buffers()
    offsets = np.frombuffer(
        buffers[1], dtype=np.int64 if wide else np.int32, count=len(strings) + 1, offset=item * strings.offset
    )
    chars = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    return offsets, chars


_MASKS = np.array([(1 << (8 * n)) - 1 for n in range(8)] + [(1 << 64) - 1], dtype=np.uint64)  # n bytes kept


def _word(chars: np.ndarray, starts: np.ndarray, lengths: np.ndarray, index: int) -> np.ndarray:
    """Word ``index`` (bytes 8*index .. 8*index+7) of each ID, zero past its end."""
    at = starts + 8 * index if index else starts
    room = len(chars) - 7
    if room <= 0:
        out = np.zeros(len(starts), dtype=np.uint64)
        tail = np.arange(len(starts))
    else:
        # An unaligned view: element i is the 8 bytes starting at byte i (one gather per word, no loop).
        view = np.ndarray((room,), dtype="<u8", buffer=chars, strides=(1,))
        if len(at) and int(at.max()) < room:  # the usual case: no ID reaches the buffer's last 7 bytes
            out, tail = view[at], np.zeros(0, dtype=np.int64)
        else:
            out = view[np.minimum(at, room - 1)]
            tail = np.flatnonzero(at >= room)  # the last few bytes of the buffer: read byte by byte
    if not len(tail) and (not len(lengths) or int(lengths.min()) >= 8 * (index + 1)):
        return out  # every ID has all 8 bytes of this word, read whole (the usual case for the first)
    left = np.clip(lengths - 8 * index, 0, 8) if index else np.minimum(lengths, 8)
    for i in tail:
        out[i] = int.from_bytes(chars[at[i] : at[i] + max(int(left[i]), 0)].tobytes().ljust(8, b"\0"), "little")
    out &= _MASKS[left]
    return out


def identity_keys(strings: pa.Array, rows: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
    """A uint64 per ID, equal for equal IDs; and whether distinct IDs are sure to differ (all at most 8 bytes).

    ``rows``: the keys of these rows only, in that order (``identity_keys(s)[0][rows]`` without the
    full-length array in between).

    >>> keys, exact = identity_keys(pa.array(["D1", "D1", "D2"]))
    >>> bool(keys[0] == keys[1]), bool(keys[0] != keys[2]), exact
    (True, True, True)
    """
    offsets, chars = _offsets_and_chars(strings)
    n = len(offsets) - 1 if rows is None else len(rows)
    keys = np.empty(n, dtype=np.uint64)
    injective = True
    # A block of rows at a time: every temporary is a few hundred KiB that the allocator hands back for the
    # next block, where whole-column temporaries (a dozen of 8 bytes a row) were fresh pages each (issue 28).
    for lo in range(0, n, _BLOCK):
        hi = min(lo + _BLOCK, n)
        if rows is None:
            starts, ends = offsets[lo:hi], offsets[lo + 1 : hi + 1]
        else:
            starts, ends = offsets[rows[lo:hi]], offsets[rows[lo:hi] + 1]
        injective &= _block_keys(chars, starts, ends - starts, keys[lo:hi])
    return keys, injective


def _block_keys(chars: np.ndarray, starts: np.ndarray, lengths: np.ndarray, out: np.ndarray) -> bool:
    """:func:`identity_keys` of one block into ``out``; True if no ID of it is longer than 8 bytes."""
    out[:] = _word(chars, starts, lengths, 0)
    long = np.flatnonzero(lengths > 8)
    if not len(long):
        return True
    # Usually every ID of a block is long, and of as many words: whole arrays then, no gathers by row.
    rows: slice | np.ndarray = slice(None) if len(long) == len(lengths) else long
    st, ln = starts[rows], lengths[rows]
    h = mix(out[rows] ^ (ln.astype(np.uint64) * GOLDEN), inplace=True)
    for index in range(1, (int(ln.max()) + 7) // 8):
        more = ln > 8 * index
        if more.all():
            h ^= _word(chars, st, ln, index)
            mix(h, inplace=True)
        else:
            sub = np.flatnonzero(more)
            h[sub] = mix(h[sub] ^ _word(chars, st[sub], ln[sub], index), inplace=True)
    out[rows] = h
    return False


_BLOCK = 1 << 16


def order_keys(strings: pa.Array) -> np.ndarray:
    """The first 8 bytes of each ID as a big-endian uint64: ``a < b`` for keys implies ``a < b`` for the IDs."""
    offsets, chars = _offsets_and_chars(strings)
    return _word(chars, offsets[:-1], np.diff(offsets), 0).byteswap()


def string_ranks(strings: pa.Array) -> np.ndarray:
    """An int64 per ID that sorts as the IDs do as strings (UTF-8 byte order, like strcmp); equal IDs, equal ranks.

    Ordered by their first 32 bytes as four big-endian words (zero past the end: IDs hold no NUL, so
    a prefix sorts first); only IDs that share all four with another and are longer than 32 bytes
    are compared in full. (The first 8 bytes alone left every ``msmarco_doc_…`` ID undecided.)

    >>> ids = pa.array(["b", "a", "abcdefgh2", "abcdefgh10", "b"])
    >>> ranks = string_ranks(ids)
    >>> [ids[int(i)].as_py() for i in np.argsort(ranks, kind="stable")]
    ['a', 'abcdefgh10', 'abcdefgh2', 'b', 'b']
    >>> bool(ranks[0] == ranks[4])
    True
    """
    n = len(strings)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    offsets, chars = _offsets_and_chars(strings)
    starts, lengths = offsets[:-1], np.diff(offsets)
    longest = int(lengths.max())
    words = min(max((longest + 7) // 8, 1), _ORDER_WORDS)
    keys = [_word(chars, starts, lengths, i).byteswap() for i in range(words)]
    order = np.lexsort(keys[::-1])  # the first word decides first
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for key in keys:
        ordered = key[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.cumsum(new) - 1
    if longest <= 8 * words:
        return rank
    distinct = int(new.sum())
    shared = np.bincount(rank, minlength=distinct) > 1
    has_long = np.bincount(rank, weights=lengths > 8 * words, minlength=distinct) > 0
    undecided = np.flatnonzero((shared & has_long)[rank])
    if not len(undecided):
        return rank
    # Full comparison inside each undecided key: the rank among all their distinct strings orders
    # every group correctly, since the groups' keys already order the groups.
    subset = strings.take(to_arrow(undecided))
    values = pc.unique(subset)
    by_value = np.empty(len(values), dtype=np.int64)
    by_value[to_numpy(pc.sort_indices(values))] = np.arange(len(values))
    sub = np.zeros(n, dtype=np.int64)
    sub[undecided] = by_value[to_numpy(pc.index_in(subset, value_set=values))]
    result: np.ndarray = rank * (len(values) + 1) + sub
    return result


_ORDER_WORDS = 4


def pair_keys(groups: np.ndarray, keys: np.ndarray, exact: bool, *, reuse: bool = False) -> np.ndarray:
    """One uint64 per (group, key) pair: exactly ``group << 32 | key`` when ``exact`` (keys below 2**32), else hashed.

    Hashed pairs are equal for equal pairs; a match between hashed pairs must be verified. A hashed pair is a
    bijection of its key for a given group, so pairs equal within one group have equal keys. ``reuse``: the
    hashed pairs are written over ``keys`` (one array of 8 bytes a row fewer; the keys are gone).
    """
    if exact:
        pair = groups.astype(np.uint64)
        pair <<= np.uint64(32)
        for start in range(0, len(pair), _STEP):  # the keys widened a block at a time, not in one copy
            pair[start : start + _STEP] |= keys[start : start + _STEP].astype(np.uint64)
        return pair
    # Groups are small codes: each group's own hash is computed once and looked up per row.
    by_group = mix(np.arange(int(groups.max()) + 1 if len(groups) else 0, dtype=np.uint64) + GOLDEN)
    if not reuse:
        pair = by_group[groups]
        pair ^= keys
        return mix(pair, inplace=True)
    for start in range(0, len(keys), _STEP):
        keys[start : start + _STEP] ^= by_group[groups[start : start + _STEP]]
    return mix(keys, inplace=True)

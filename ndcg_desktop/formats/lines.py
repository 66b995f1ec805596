"""The exact reading of a whitespace-separated TREC file (qrels and runs), vectorised over its bytes with numpy.

pyarrow's CSV reader (``common.read_whitespace_table``) is the fast path; it gives up on a file it cannot read
the way the line-by-line rules do (a lone CR, a byte-order mark, a bad line), and this reader decides then. It
reads as a loop over the lines would (trec_eval reads a line at a time too) and names the same first bad line:
lines split at LF, their CRs stripped at the end, blank lines (what ``str.strip()`` empties) skipped, fields
separated by runs of spaces and tabs and by nothing else (:func:`common.split_fields`). Short names: ``b`` the
file's bytes, ``sep`` a space or tab, ``inside`` a byte of a line's text (not its line end).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from ndcg_desktop.domain.arrays import to_arrow
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import parse_numbers, separator_hint
from ndcg_desktop.formats.common import split_fields


@dataclass
class Fields:
    """Every non-blank line's fields, a column each; the numbers asked for; each line's number."""

    columns: dict[int, pa.Array]  # field index -> pa.string()
    numbers: dict[int, np.ndarray]  # field index -> float64 values
    lines: np.ndarray  # int64, 1-based


def read_fields(
    data: bytes, path: str | Path, layout: str, keep: Sequence[int], numbers: Sequence[tuple[int, str]] = ()
) -> Fields:
    """The fields of ``data``'s non-blank lines, as many a line as ``layout`` names: those ``keep`` names as text,
    those ``numbers`` names (index, what) read as scores and ranks are. The first wrong line is refused, named:
    another number of fields or a field that is no number, then (the lines before it read) a byte not UTF-8.

    >>> text = b"q1 Q0 d1 1 2.5 t\\n\\n q2\\tQ0 d2 1 -1 t\\r\\n"
    >>> read = read_fields(text, "r.txt", "query_id Q0 doc_id rank score tag", (0, 5), [(4, "score")])
    >>> read.columns[0].to_pylist(), read.columns[5].to_pylist(), read.numbers[4].tolist(), read.lines.tolist()
    (['q1', 'q2'], ['t', 't'], [2.5, -1.0], [1, 3])
    >>> read_fields(b"q1 0 d1 3\\nq1 0 d2\\n", "q.txt", "query_id iteration doc_id grade", (0, 1, 2, 3))
    Traceback (most recent call last):
    ...
    ndcg_desktop.domain.errors.InputError: q.txt:2: expected 4 columns (query_id iteration doc_id grade), found 3
    """
    width = len(layout.split())
    valid, not_utf8 = _utf8_prefix(data, path)
    b = np.frombuffer(valid, dtype=np.uint8)
    starts, ends, stripped = _line_texts(b)
    field = (b != 32) & (b != 9) & (b != 10)  # a byte of a field: not a separator, not a line end
    field[stripped] = False
    first = field.copy()  # the first byte of each field
    first[1:] &= ~field[:-1]
    last = field  # the last byte of each field (field is not needed after this)
    last[:-1] &= ~field[1:]
    lo, hi = np.flatnonzero(first), np.flatnonzero(last) + 1
    del first, last, field
    counts = np.diff(np.searchsorted(lo, np.concatenate((starts, [len(b)]))))  # fields per line
    kept = np.flatnonzero(_nonblank(valid, b, lo, counts, starts, ends))
    wrong = np.flatnonzero(counts[kept] != width)
    complete = kept[: wrong[0]] if len(wrong) else kept  # the lines before the first with another count
    if len(lo) != len(complete) * width:  # blank lines with fields (a lone form feed) or lines after a bad one
        wanted = np.zeros(len(starts), dtype=bool)
        wanted[complete] = True
        wanted = np.repeat(wanted, counts)
        lo, hi = lo[wanted], hi[wanted]
    columns = _columns(valid, lo, hi, width, sorted({*keep, *(index for index, _ in numbers)}))
    lines = complete.astype(np.int64) + 1
    parsed: dict[int, np.ndarray] = {}
    refused: list[tuple[int, int, InputError]] = []  # a loop stops at the first: by line, then field order
    for order, (index, what) in enumerate(numbers):
        try:
            parsed[index] = parse_numbers(columns[index], what, path, lambda row: int(lines[row]))
        except InputError as exc:
            refused.append((exc.line or 0, order, exc))
    if refused:
        raise min(refused, key=lambda r: r[:2])[2]
    if len(wrong):
        at = int(kept[wrong[0]])
        text = valid[starts[at] : ends[at]].decode("utf-8")
        raise InputError(
            f"expected {width} columns ({layout}), found {len(split_fields(text))}" + separator_hint(text),
            path=path,
            line=at + 1,
        )
    if not_utf8 is not None:
        raise not_utf8
    return Fields(columns, parsed, lines)


def _utf8_prefix(data: bytes, path: str | Path) -> tuple[bytes, InputError | None]:
    """``data`` up to the line holding its first byte that is no UTF-8, and the refusal naming that line (None when
    all of it is UTF-8): the lines before it are read first, as a loop would."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, start) + 1
        refusal = InputError(f"invalid UTF-8 at byte {exc.start - start + 1} of the line", path=path, line=line)
        return data[:start], refusal
    return data, None


def _line_texts(b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each line's text starts and ends, lines split at LF and the CRs at a line's end stripped, and where
    those CRs are."""
    newlines = np.flatnonzero(b == 10)
    starts = np.concatenate(([0], newlines + 1))
    ends = np.concatenate((newlines, [len(b)]))
    stripped: list[np.ndarray] = []
    while True:  # CR LF: once; a line ending in several CRs: once for each
        cr = np.flatnonzero(ends > starts)
        cr = cr[b[ends[cr] - 1] == 13]
        if not len(cr):
            return starts, ends, np.concatenate(stripped or [np.zeros(0, dtype=np.int64)])
        ends[cr] -= 1
        stripped.append(ends[cr])


_TEXT_BYTES = np.ones(256, dtype=bool)  # a byte that starts a character ``str.strip()`` keeps, in ASCII
_TEXT_BYTES[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = False
_TEXT_BYTES[0x80:] = False  # a character of several bytes: decided by Python


def _nonblank(
    data: bytes, b: np.ndarray, lo: np.ndarray, counts: np.ndarray, starts: np.ndarray, ends: np.ndarray
) -> np.ndarray:
    """Each line: True unless ``str.strip()`` empties it. A line with no field is blank; one whose first field
    starts with a character other than an ASCII blank (the usual line) is not; the rest (a field of form feeds,
    one that starts with U+00A0 ...) Python decides: rare."""
    nonblank = counts > 0
    heads = np.concatenate(([0], np.cumsum(counts)))[:-1][nonblank]  # each line's first field, in ``lo``
    unsure = np.flatnonzero(nonblank)[~_TEXT_BYTES[b[lo[heads]]]]
    for line in unsure.tolist():
        nonblank[line] = bool(data[starts[line] : ends[line]].decode("utf-8").strip())
    return nonblank


def _columns(data: bytes, lo: np.ndarray, hi: np.ndarray, width: int, keep: Sequence[int]) -> dict[int, pa.Array]:
    """Field ``j`` of every line (``j`` in ``keep``) as a string array: ``data`` cut at every field's bounds into
    one array without a copy (field ``k`` is piece ``2k + 1``, the pieces between hold separators and line
    ends), then each column taken out of it."""
    bounds = np.empty(2 * len(lo) + 2, dtype=np.int64)
    bounds[0], bounds[-1] = 0, len(data)
    bounds[1:-1:2], bounds[2:-1:2] = lo, hi
    pieces = pa.Array.from_buffers(pa.large_string(), len(bounds) - 1, [None, pa.py_buffer(bounds), pa.py_buffer(data)])
    return {j: pieces.take(to_arrow(np.arange(2 * j + 1, 2 * len(lo), 2 * width))).cast(pa.string()) for j in keep}

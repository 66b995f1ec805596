"""Run files: TREC, CSV/TSV with a header, and JSONL as RAG pipelines log them."""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ndcg_desktop.domain.arrays import strings, to_arrow, to_numpy
from ndcg_desktop.domain.data import OrderKind, Run, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import brief, check_id, clean_ids, is_number, parse_number, show
from ndcg_desktop.formats.common import (
    BOM,
    RUN_FORMATS,
    JsonInt,
    base_suffix,
    blank_comments,
    check_utf8,
    first_content_line,
    iter_lines,
    iter_records,
    load_json,
    make_source,
    names_file_on_memory_error,
    open_input,
    read_delimited_table,
    read_header,
    read_whitespace_table,
    row_line_numbers,
    separated_by,
    split_fields,
)
from ndcg_desktop.formats.large import read_large_separated
from ndcg_desktop.formats.lines import read_fields
from ndcg_desktop.formats.streams import as_file

_TREC_COLUMNS = ["query_id", "q0", "doc_id", "rank", "score", "tag"]
# The run tag is read dictionary-encoded (a handful of distinct values over millions of lines): it names the run.
_TREC_TYPES = {
    "query_id": pa.string(),
    "doc_id": pa.string(),
    "score": pa.float64(),
    "tag": pa.dictionary(pa.int32(), pa.string()),
}
_TREC_NOTE = "ordered by score descending, rank column ignored as in trec_eval"
_TREC_RANK_NOTE = "ordered by the rank column ascending, scores ignored (not trec_eval's order)"
ORDERS = {
    "trec": (OrderKind.SCORE, OrderKind.RANK, OrderKind.LIST),
    "jsonl": (OrderKind.LIST,),
}  # what each format can be ordered by; CSV/TSV: the columns their header names, and LIST


def _trec_types(order: OrderKind | None) -> dict[str, pa.DataType]:
    return _TREC_TYPES | {"rank": pa.float64()} if order is OrderKind.RANK else _TREC_TYPES


STREAM_MIN_BYTES = 32 << 20  # TREC runs at least this large are parsed straight from disk


def detect_run_format(path: str | Path, data: bytes) -> str:
    r"""The format of a run file: JSONL by its suffix; else a first line (comments aside) that is a TREC line is no
    header, whatever the file is called (TREC lines in a ``.tsv`` file are read as trec_eval reads them); else
    the suffix, else the content.

    >>> detect_run_format("r.tsv", b"1\tQ0\tTUKO#13640#0\t1\t9.5\tbm25\n")
    'trec'
    >>> detect_run_format("r.tsv", b"query_id\tdoc_id\tscore\n")
    'tsv'
    """
    suffix = base_suffix(path)
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    head = first_content_line(data)
    fields = split_fields(head)
    trec = len(fields) == 6 and is_number(fields[4])  # a TREC line, whatever its IDs hold (even "query_id,")
    if suffix in (".csv", ".tsv"):
        return "trec" if trec else suffix[1:]
    if head.startswith("{"):
        # A JSON object, unless it is no JSON at all and reads as a TREC line (a query ID "{q1}"); a JSON line
        # can split into six fields too ('{"query_id": "q", "doc_ids": [ 3 ]}'), so JSON is asked first.
        try:
            json.loads(head)
        except ValueError:
            return "trec" if trec else "jsonl"  # neither: the JSONL reader names what is wrong with the line
        return "jsonl"
    if trec:
        return "trec"
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if "query_id" in [c.strip() for c in head.split(sep)]:
            return fmt
    return "trec"


@names_file_on_memory_error
def read_run(path: str | Path, *, fmt: str | None = None, order: OrderKind | None = None) -> Run:
    """Read a run, validating every line; raises :class:`InputError` naming file and line.

    By default TREC runs are ordered by score, as trec_eval orders them (their rank column is
    ignored), CSV/TSV by score if given else by rank, and JSONL as listed. ``order`` asks for
    another order the file supports: the rank column, or the order of the lines (``LIST``).
    """

    def check_head(head: bytes) -> None:  # a stream's first lines, read as the whole stream will be
        _finish(make_source(path, "", ""), _parse(head, path, fmt, order)[1])

    with as_file(path, check_head) as file:
        large = _read_large_trec(file, fmt, order)
        if large is not None:
            run = _finish(*large)
        else:
            data, digest = open_input(file)  # the SHA-256 is computed on a thread while the file is parsed
            fmt, columns = _parse(data, file, fmt, order)
            del data  # the file's bytes are no longer needed: keep the peak low for multi-GB runs
            run = _finish(make_source(file, digest.result(), fmt), columns)
        run.source = replace(run.source, path=str(path))  # a stream's copy is named as the stream
    # pyarrow's allocator keeps what parsing freed (a 7M-line run: about 160 MiB) for reuse; scoring
    # allocates through numpy, which never reuses it, so give it back now.
    pa.default_memory_pool().release_unused()
    return run


def _parse(data: bytes, path: str | Path, fmt: str | None, order: OrderKind | None = None) -> tuple[str, _Columns]:
    """Detect (or check) the format, then read the in-memory bytes with that format's reader."""
    fmt = fmt or detect_run_format(path, data)
    if fmt not in RUN_FORMATS:
        raise InputError(f"unknown run format {fmt!r}; choose one of {', '.join(RUN_FORMATS)}")
    if order is not None and fmt in ORDERS and order not in ORDERS[fmt]:
        raise InputError(f"a {fmt} run cannot be ordered by {order.value}", path=path)
    check_utf8(data, path)
    name = str(path)
    if fmt == "trec":
        columns = _read_trec(data, name, order)
    elif fmt == "jsonl":
        columns = _read_jsonl(data, name)
    else:
        columns = _read_delimited(data, name, "," if fmt == "csv" else "\t", order)
    return fmt, _in_file_order(columns) if order is OrderKind.LIST else columns


def _in_file_order(c: _Columns) -> _Columns:
    if c.order is not OrderKind.LIST:
        c.order = OrderKind.LIST
        c.notes = ["ordered as the lines of the file list them (scores and ranks ignored)"]
    return c


@dataclass
class _Columns:
    """What a reader extracted, before IDs are encoded and checked."""

    query_ids: pa.Array | pa.ChunkedArray
    doc_ids: pa.Array | pa.ChunkedArray
    score: np.ndarray | None
    rank: np.ndarray | None
    order: OrderKind
    line_numbers: np.ndarray | None
    first: int
    notes: list[str]
    empty_queries: tuple[str, ...] = ()
    tag: str | None = None  # TREC: the run tag when every line gives the same one
    comments: int = 0  # TREC: comment lines skipped (trec_eval 10.0: a line starting with '#')


def _contiguous(ids: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One array of the IDs (large_string when their bytes pass 32-bit offsets)."""
    if not isinstance(ids, pa.ChunkedArray):
        return ids
    if not ids.num_chunks:
        return pa.nulls(0, pa.string())
    if sum(c.buffers()[2].size if c.buffers()[2] is not None else 0 for c in ids.chunks) >= 1 << 31:
        ids = ids.cast(pa.large_string())
    return ids.combine_chunks()


def _moved_into_one(chunks: list[pa.Array]) -> pa.Array:
    """One array of the strings of ``chunks``, which it empties: each chunk is let go once copied.

    :func:`_contiguous` holds every chunk until the copy is whole, so a run's document IDs (185 MB
    for 7M lines of ``msmarco_doc_17_10768284``) were twice in memory at the peak (issue 28).
    """
    if any(chunk.type != pa.string() or chunk.null_count for chunk in chunks):
        return _contiguous(pa.chunked_array(chunks, chunks[0].type if chunks else pa.string()))
    rows = sum(len(chunk) for chunk in chunks)
    sizes = [_char_span(chunk) for chunk in chunks]
    wide = sum(sizes) >= 1 << 31  # 64-bit offsets past 2 GiB of text, as _contiguous
    offsets = np.empty(rows + 1, dtype=np.int64 if wide else np.int32)
    chars = np.empty(sum(sizes), dtype=np.uint8)
    offsets[0] = row = at = 0
    # pyarrow's allocator keeps what is freed for reuse: hand back the other columns' chunks (freed by now) first,
    # then each 64 MiB of these as they are copied, so the copy takes their place (measured: 548 -> 385 MiB here).
    pool = pa.default_memory_pool()
    pool.release_unused()
    released = 0
    while chunks:
        chunk = chunks.pop(0)
        n = len(chunk)
        own = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=n + 1, offset=4 * chunk.offset)
        size = int(own[-1] - own[0])
        np.add(own[1:], np.int64(at - int(own[0])), out=offsets[row + 1 : row + n + 1], casting="unsafe")
        if size:
            chars[at : at + size] = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)[own[0] : own[-1]]
        row, at = row + n, at + size
        del chunk, own
        if at - released > 64 << 20:
            pool.release_unused()
            released = at
    kind = pa.large_string() if wide else pa.string()
    return pa.Array.from_buffers(kind, rows, [None, pa.py_buffer(offsets), pa.py_buffer(chars)])


def _char_span(chunk: pa.Array) -> int:
    """The bytes of a string array's values."""
    if not len(chunk):
        return 0
    own = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=len(chunk) + 1, offset=4 * chunk.offset)
    return int(own[-1] - own[0])


def _encode(ids: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """Dictionary-encode IDs: (distinct values, int32 code per row)."""
    # One hash pass over contiguous data: unifying per-chunk dictionaries is several times slower.
    encoded = pc.dictionary_encode(_contiguous(ids))
    codes = to_numpy(encoded.indices).astype(np.int32, copy=False)
    return encoded.dictionary, codes


def _encode_queries(ids: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """Like :func:`_encode` (same values, same codes), hashing only the first row of each block.

    Run files list each query's documents together, so comparing neighbours finds the few
    rows where the query changes, and those alone need a dictionary lookup.
    """
    chunks = [c for c in (ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]) if len(c)]
    heads, lengths = [], []
    n_heads = 0
    for chunk in chunks:
        n = len(chunk)
        change = to_numpy(pc.not_equal(chunk.slice(1), chunk.slice(0, n - 1)))
        first = np.flatnonzero(np.r_[True, change])
        n_heads += len(first)
        if n_heads > len(ids) // 8 + 1:
            return _encode(ids)  # not grouped by query: hashing every row is cheaper
        heads.append(chunk.take(to_arrow(first)))
        lengths.append(np.diff(np.r_[first, n]))
    if not heads:
        return _encode(ids)
    values, head_codes = _encode(pa.chunked_array(heads, ids.type))
    return values, np.repeat(head_codes, np.concatenate(lengths))


def _canonical_integers(ids: pa.Array | pa.ChunkedArray) -> np.ndarray | None:
    """Each ID's value (int32) if every ID is a decimal integer in canonical form below 2**31, else None.

    Canonical: only ASCII digits, no sign, no leading zero ("0", "7", "4096"; not "", "007",
    "+7" or "0x7"), so that the value's decimal string is the ID and distinct IDs have distinct
    values. pyarrow's cast alone would accept "007", "-0" and hexadecimal "0x7".
    """
    if len(ids) == 0:
        return None
    chunks = ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]
    for chunk in chunks:
        if len(chunk) == 0:
            continue
        if chunk.type != pa.string() or chunk.null_count:
            return None
        # Checked on the raw buffers: no per-string work in Python and no copies of the strings.
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=len(chunk) + 1, offset=4 * chunk.offset)
        chars = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
        lengths = np.diff(offsets)
        if lengths.min() == 0 or lengths.max() > 10:  # empty, or more digits than an int32 holds
            return None
        if chars.min() < 48 or chars.max() > 57:  # not all ASCII digits
            return None
        if ((chars[offsets[:-1] - offsets[0]] == 48) & (lengths > 1)).any():  # a leading zero
            return None
    try:
        numbers = pc.cast(ids, pa.int32())  # only digits now, so this is exact; 10 digits may overflow
    except pa.ArrowInvalid:
        return None
    if isinstance(numbers, pa.ChunkedArray):
        numbers = numbers.combine_chunks() if numbers.num_chunks else pa.nulls(0, pa.int32())
    result: np.ndarray = to_numpy(numbers)
    return result


def _clean_dictionary(
    values: pa.Array, codes: np.ndarray, what: str, path: str, line_of: Callable[[int], int]
) -> tuple[pa.Array, np.ndarray]:
    """Apply the ID rule to a dictionary's distinct values; re-encode if trimming merged some."""

    def value_line(i: int) -> int:  # the first row with value i: dictionaries list values in order of appearance
        return line_of(int(np.flatnonzero(codes == i)[0]))

    cleaned = clean_ids(values, what, path, value_line)
    if cleaned is values:
        return values, codes
    distinct, remap = _encode(cleaned)
    return distinct, remap[codes]


def _finish(source: Source, c: _Columns) -> Run:
    queries, q = _encode_queries(c.query_ids)
    del c.query_ids
    # Document IDs are never dictionary-encoded here (the costliest step for millions of nearly
    # distinct strings; see Run): kept as numbers when all are integers, else as one string column.
    numbers = _canonical_integers(c.doc_ids)
    column = None
    if numbers is None:
        chunks = c.doc_ids.chunks if isinstance(c.doc_ids, pa.ChunkedArray) else [c.doc_ids]
        del c.doc_ids  # the chunks list holds the last references: each is freed once copied
        column = _moved_into_one(chunks) if len(chunks) > 1 else chunks[0] if chunks else pa.nulls(0, pa.string())
    else:
        del c.doc_ids
    if len(q) == 0 and not c.empty_queries:
        raise InputError("has no ranked documents", path=source.path)

    def line_of(row: int) -> int:
        return int(c.line_numbers[row]) if c.line_numbers is not None else c.first + row

    queries, q = _clean_dictionary(queries, q, "query ID", source.path, line_of)
    if column is not None:  # canonical integers are never empty and never need trimming
        column = clean_ids(column, "document ID", source.path, line_of)
    for name, values in (("score", c.score), ("rank", c.rank)):
        if values is None:
            continue
        bad = ~np.isfinite(values)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            shown = float(values[row])
            why = " (infinite, or too large for a floating-point number)" if np.isinf(shown) else ""
            raise InputError(f"{name} {shown} is not a finite number{why}", path=source.path, line=line_of(row))
    return Run(
        queries,
        None,
        q,
        None,
        c.score,
        c.rank,
        c.order,
        source,
        c.line_numbers,
        c.first,
        c.notes,
        c.empty_queries,
        doc_numbers=numbers,
        doc_column=column,
        tag=c.tag,
        comments=c.comments,
    )


def _read_trec(data: bytes, path: str, order: OrderKind | None = None) -> _Columns:
    data, comments = blank_comments(data)  # trec_eval 10.0: a line starting with '#' is a comment
    read = read_whitespace_table(data, _TREC_COLUMNS, _trec_types(order))
    columns = _read_trec_slow(data, path, order) if read is None else _trec_columns(read[0], None)
    if read is not None:
        columns.line_numbers = row_line_numbers(read[1], read[0].num_rows, 1)
    columns.comments = comments
    return columns


def _trec_columns(table: pa.Table, line_numbers: np.ndarray | None) -> _Columns:
    by_rank = "rank" in table.column_names
    return _Columns(
        table.column("query_id"),
        table.column("doc_id"),
        to_numpy(table.column("score")),
        to_numpy(table.column("rank")) if by_rank else None,
        OrderKind.RANK if by_rank else OrderKind.SCORE,
        line_numbers,
        1,
        [_TREC_RANK_NOTE if by_rank else _TREC_NOTE],
        tag=_one_tag(table.column("tag").unique().to_pylist()),
    )


def _one_tag(tags: list[Any]) -> str | None:
    """The run tag when every line gives the same (non-blank) one, else None (the run is named after its file)."""
    return tags[0].strip() or None if len(tags) == 1 and isinstance(tags[0], str) else None


def _read_large_trec(path: str | Path, fmt: str | None, order: OrderKind | None) -> tuple[Source, _Columns] | None:
    """A large TREC run parsed by pyarrow straight from disk while a thread hashes and scans it
    (:func:`read_large_separated`); None, for the in-memory reader, when that path does not apply."""
    if fmt not in (None, "trec"):
        return None
    large = read_large_separated(
        path,
        _TREC_COLUMNS,
        _trec_types(order),
        lambda head: (fmt or detect_run_format(path, head)) == "trec",
        min_bytes=STREAM_MIN_BYTES,
    )
    if large is None:
        return None
    table, sha256, line_numbers = large
    if pc.any(pc.starts_with(table.column("query_id"), "#")).as_py():
        return None  # comment lines: the in-memory reader skips them, keeping every line's number
    columns = _trec_columns(table, line_numbers)
    del table, large  # scores and the tag are numpy and a name now: their chunks go back (see _moved_into_one)
    pa.default_memory_pool().release_unused()
    return make_source(path, sha256, "trec"), _in_file_order(columns) if order is OrderKind.LIST else columns


def _read_trec_slow(data: bytes, path: str, order: OrderKind | None) -> _Columns:
    """What the fast path could not read: names the first bad line exactly (fields separated by spaces and tabs)."""
    by_rank = order is OrderKind.RANK
    numbers = [(4, "score"), (3, "rank")] if by_rank else [(4, "score")]  # a line's score is read before its rank
    read = read_fields(data, path, "query_id Q0 doc_id rank score tag", (0, 2, 5), numbers)
    return _Columns(
        read.columns[0],
        read.columns[2],
        read.numbers[4],
        read.numbers[3] if by_rank else None,
        OrderKind.RANK if by_rank else OrderKind.SCORE,
        read.lines,
        1,
        [_TREC_RANK_NOTE if by_rank else _TREC_NOTE],
        tag=_one_tag(pc.unique(read.columns[5]).to_pylist()),
    )


def ordered_by(header: list[str], path: str, sep: str, order: OrderKind | None) -> tuple[str, list[str]]:
    """The column a table of ``header``'s columns is ordered by (score if given, else rank, unless ``order`` says),
    and the reading's notes; :class:`InputError` (line 1: the header) when it names no such column."""
    if not {"query_id", "doc_id"} <= set(header) or not ({"score", "rank"} & set(header)):
        named = ", ".join(show(name) for name in header)
        raise InputError(
            f"the header must name the columns query_id, doc_id and score or rank{separated_by(sep)}; found {named}",
            path=path,
            line=1,
            hint=_TREC_HINT,
        )
    by = "score" if "score" in header else "rank"
    if order in (OrderKind.SCORE, OrderKind.RANK):
        by = order.value
        if by not in header:
            raise InputError(f"cannot order by {by}: the header has no {by} column", path=path, line=1)
    notes = [f"ordered by {by} {'descending' if by == 'score' else 'ascending'}"]
    if by == "score" and "rank" in header:
        notes.append("the rank column is ignored because scores are given")
    elif by == "rank" and "score" in header:
        notes.append("the score column is ignored: ordered by rank as chosen")
    return by, notes


def run_from_columns(
    source: Source, query_ids: pa.Array, doc_ids: pa.Array, values: np.ndarray, by: str, notes: list[str]
) -> Run:
    """A run given as columns (a DataFrame's, say), checked as a file's lines are: row i is line i + 1.

    ``values`` are the ``by`` column's numbers (score or rank, as :func:`ordered_by` chose).
    """
    kind = OrderKind.SCORE if by == "score" else OrderKind.RANK
    score, rank = (values, None) if by == "score" else (None, values)
    return _finish(source, _Columns(query_ids, doc_ids, score, rank, kind, None, 1, notes))


_TREC_HINT = "for a TREC run (query_id Q0 doc_id rank score tag) choose --run-format trec"


def _read_delimited(data: bytes, path: str, sep: str, order: OrderKind | None = None) -> _Columns:
    try:
        header = read_header(data, path, sep)
    except InputError as exc:  # a header that is no header: perhaps TREC lines under a .csv or .tsv name
        raise InputError(exc.message, path=path, line=exc.line, hint=_TREC_HINT) from None
    by, notes = ordered_by(header, path, sep, order)
    table = read_delimited_table(data, sep, {"query_id": pa.string(), "doc_id": pa.string(), by: pa.float64()})
    if table is None or table.num_rows == 0 or table.column(by).null_count:
        return _read_delimited_slow(data, path, sep, header, by, notes)
    values = to_numpy(table.column(by))
    kind = OrderKind.SCORE if by == "score" else OrderKind.RANK
    return _Columns(
        table.column("query_id"),
        table.column("doc_id"),
        values if by == "score" else None,
        values if by == "rank" else None,
        kind,
        row_line_numbers(data, table.num_rows, 2),
        2,
        notes,
    )


def _read_delimited_slow(data: bytes, path: str, sep: str, header: list[str], by: str, notes: list[str]) -> _Columns:
    iq, idoc, iv = header.index("query_id"), header.index("doc_id"), header.index(by)
    qids, dids, values, lines = [], [], [], []
    for number, cells in iter_records(data, path, sep, len(header)):
        qids.append(cells[iq])
        dids.append(cells[idoc])
        values.append(parse_number(cells[iv], by, path, number))
        lines.append(number)
    if not lines:
        raise InputError("has a header but no ranked documents", path=path, line=1)
    arr = np.array(values, dtype=np.float64)
    return _Columns(
        strings(qids),
        strings(dids),
        arr if by == "score" else None,
        arr if by == "rank" else None,
        OrderKind.SCORE if by == "score" else OrderKind.RANK,
        np.array(lines, dtype=np.int64),
        2,
        notes,
    )


def _read_jsonl(data: bytes, path: str) -> _Columns:
    qids: list[str] = []
    dids: list[str] = []
    lines: list[int] = []
    seen: dict[str, int] = {}
    empty: list[str] = []
    for number, text in iter_lines(data, path):
        obj = load_json(text, path, number)
        if not isinstance(obj, dict) or "query_id" not in obj or "doc_ids" not in obj:
            raise InputError('expected an object with "query_id" and "doc_ids"', path=path, line=number)
        qid = _json_id(obj["query_id"], "query_id", path, number)
        docs = obj["doc_ids"]
        if not isinstance(docs, list):
            raise InputError('"doc_ids" must be a list of document IDs', path=path, line=number)
        if qid in seen:
            raise InputError(
                f"query {brief(qid)} is already listed at line {seen[qid]}; give each query one line",
                path=path,
                line=number,
            )
        seen[qid] = number
        if not docs:
            empty.append(qid)
        for doc in docs:
            dids.append(_json_id(doc, "doc_ids", path, number))
        qids.extend([qid] * len(docs))
        lines.extend([number] * len(docs))
    if not seen:
        raise InputError("has no queries", path=path)
    # A query listed with no documents is an answer (it scores 0), not a missing ranking.
    return _Columns(
        strings(qids),
        strings(dids),
        None,
        None,
        OrderKind.LIST,
        np.array(lines, dtype=np.int64),
        1,
        ["ordered as listed in doc_ids"],
        tuple(empty),
    )


def _json_id(value: object, field: str, path: str, line: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f'"{field}" must hold strings, found {show(json.dumps(value)[:100])}', path=path, line=line)
    text = value.text if isinstance(value, JsonInt) else str(value)  # -0 keeps its sign, as the file wrote it
    return check_id(text, "query ID" if field == "query_id" else "document ID", path, line)


def _head(path: str | Path, rows: int) -> bytes:
    """The first ``rows`` data lines of a run (the first 100 KB at most), decompressed, without a BOM."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file" if not p.exists() else "is not a file", path=path)
    with open(p, "rb") as handle:
        compressed = handle.read(2) == b"\x1f\x8b"
    kept: list[bytes] = []
    data_lines = size = 0
    try:
        with gzip.open(p, "rb") if compressed else open(p, "rb") as handle:
            while raw := handle.readline(100_001):  # a bounded read: a file without line ends is not read whole
                kept.append(raw)
                size += len(raw)
                if raw.strip():
                    data_lines += 1
                header = 1 if kept[0].lstrip(BOM).strip().startswith(b"query_id") else 0
                if data_lines >= rows + header or size > 100_000:
                    break
    except (OSError, EOFError, zlib.error) as exc:
        problem = f"is not a valid gzip file ({exc})" if compressed else f"cannot be read: {exc}"
        raise InputError(problem, path=path) from None
    head = b"".join(kept)
    if head.startswith(BOM):
        head = head[len(BOM) :]
    if not head.strip():
        raise InputError("is empty: no data lines", path=path)
    return head


def supported_orders(path: str | Path, *, fmt: str | None = None) -> list[OrderKind]:
    """The orders this run file can be read in (its columns decide), the format's default first.

    Reads the head of the file once; raises :class:`InputError` when even the default fails.
    """
    head = _head(path, 8)
    default = _parse(head, path, fmt)[1].order
    orders = [default]
    for order in OrderKind:
        if order is not default:
            try:
                _parse(head, path, fmt, order)
            except InputError:
                continue
            orders.append(order)
    return orders


def preview_run(
    path: str | Path, *, rows: int = 8, fmt: str | None = None, order: OrderKind | None = None
) -> tuple[Run, list[int]]:
    """The first lines of a run read exactly as the full import would read them.

    Returns a small :class:`Run` of the first ``rows`` data lines (the first 100 KB at most) and
    their line numbers, for an import dialog to show before the whole file is read.
    """
    head = _head(path, rows)
    fmt, columns = _parse(head, path, fmt, order)
    run = _finish(make_source(path, "", fmt), columns)
    return run, [run.line_of(i) for i in range(len(run))]

"""Run files: TREC, CSV/TSV with a header, and JSONL as RAG pipelines log them."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ndcg_desktop.domain.data import OrderKind, Run, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.common import (
    base_suffix,
    check_utf8,
    first_line,
    has_inner_blank_lines,
    iter_lines,
    make_source,
    nonblank_line_numbers,
    read_input,
    read_whitespace_table,
)

RUN_FORMATS = ("trec", "csv", "tsv", "jsonl")
_TREC_COLUMNS = ["query_id", "q0", "doc_id", "rank", "score", "tag"]


def detect_run_format(path: str | Path, data: bytes) -> str:
    suffix = base_suffix(path)
    if suffix in (".csv", ".tsv"):
        return suffix[1:]
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    head = first_line(data)
    if head.startswith("{"):
        return "jsonl"
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if "query_id" in [c.strip() for c in head.split(sep)]:
            return fmt
    return "trec"


def read_run(path: str | Path, *, fmt: str | None = None) -> Run:
    """Read a run, validating every line; raises :class:`InputError` naming file and line.

    TREC runs are ordered by score, as trec_eval orders them; their rank column is ignored.
    """
    data, digest = read_input(path)
    fmt = fmt or detect_run_format(path, data)
    if fmt not in RUN_FORMATS:
        raise InputError(f"unknown run format {fmt!r}; choose one of {', '.join(RUN_FORMATS)}")
    check_utf8(data, path)
    source = make_source(path, digest, fmt)
    if fmt == "trec":
        columns = _read_trec(data, source)
    elif fmt == "jsonl":
        columns = _read_jsonl(data, source)
    else:
        columns = _read_delimited(data, source, "," if fmt == "csv" else "\t")
    del data  # the file's bytes are no longer needed: keep the peak low for multi-GB runs
    return _finish(source, columns)


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


def _encode(ids: pa.Array | pa.ChunkedArray) -> tuple[pa.Array, np.ndarray]:
    """Dictionary-encode IDs: (distinct values, int32 code per row)."""
    if isinstance(ids, pa.ChunkedArray):
        # One hash pass over contiguous data: unifying per-chunk dictionaries is several times slower.
        ids = ids.combine_chunks() if ids.num_chunks else pa.array([], pa.string())
    encoded = pc.dictionary_encode(ids)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    return encoded.dictionary, codes


def _check_ids(values: pa.Array, codes: np.ndarray, what: str, run_source: Source, line_of) -> None:
    lengths = pc.utf8_length(pc.utf8_trim_whitespace(values)).to_numpy(zero_copy_only=False)
    empty = np.flatnonzero(lengths == 0)
    if len(empty):
        rows = np.flatnonzero(np.isin(codes, empty))
        raise InputError(f"empty {what}", path=run_source.path, line=line_of(int(rows[0])))


def _finish(source: Source, c: _Columns) -> Run:
    queries, q = _encode(c.query_ids)
    del c.query_ids
    docs, d = _encode(c.doc_ids)
    del c.doc_ids
    run = Run(queries, docs, q, d, c.score, c.rank, c.order, source, c.line_numbers, c.first, c.notes, c.empty_queries)
    score, rank = c.score, c.rank
    if len(run) == 0 and not c.empty_queries:
        raise InputError("has no ranked documents", path=source.path)
    _check_ids(queries, q, "query ID", source, run.line_of)
    _check_ids(docs, d, "document ID", source, run.line_of)
    for name, values in (("score", score), ("rank", rank)):
        if values is None:
            continue
        bad = ~np.isfinite(values)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise InputError(f"{name} {values[row]!r} is not a finite number", path=source.path, line=run.line_of(row))
    return run


def _line_map(data: bytes, n_rows: int, first: int) -> np.ndarray | None:
    if has_inner_blank_lines(data):
        return nonblank_line_numbers(data)[first - 1 : first - 1 + n_rows]
    return None


def _read_trec(data: bytes, source: Source) -> _Columns:
    notes = ["ordered by score descending, rank column ignored as in trec_eval"]
    table = read_whitespace_table(
        data, _TREC_COLUMNS, {"query_id": pa.string(), "doc_id": pa.string(), "score": pa.float64()}
    )
    if table is None:
        return _read_trec_slow(data, source, notes)
    return _Columns(
        table.column("query_id"),
        table.column("doc_id"),
        table.column("score").to_numpy(),
        None,
        OrderKind.SCORE,
        _line_map(data, table.num_rows, 1),
        1,
        notes,
    )


def _read_trec_slow(data: bytes, source: Source, notes: list[str]) -> _Columns:
    """Line by line: accepts any whitespace, and names the first bad line exactly."""
    qids, dids, scores, lines = [], [], [], []
    for number, text in iter_lines(data, source.path):
        parts = text.split()
        if len(parts) != 6:
            raise InputError(
                f"expected 6 columns (query_id Q0 doc_id rank score tag), found {len(parts)}",
                path=source.path,
                line=number,
            )
        qids.append(parts[0])
        dids.append(parts[2])
        scores.append(_float(parts[4], "score", source.path, number))
        lines.append(number)
    return _Columns(
        pa.array(qids, pa.string()),
        pa.array(dids, pa.string()),
        np.array(scores, dtype=np.float64),
        None,
        OrderKind.SCORE,
        np.array(lines, dtype=np.int64),
        1,
        notes,
    )


def _float(text: str, what: str, path: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{what} {text!r} is not a number", path=path, line=line) from None
    if not math.isfinite(value):
        raise InputError(f"{what} {text!r} is not a finite number", path=path, line=line)
    return value


def _read_delimited(data: bytes, source: Source, sep: str) -> _Columns:
    header = [c.strip() for c in next(csv.reader([first_line(data)], delimiter=sep))]
    required = {"query_id", "doc_id"}
    if not required <= set(header) or not ({"score", "rank"} & set(header)):
        raise InputError(
            f"header must name query_id{sep}doc_id and score or rank; found {sep.join(header)}",
            path=source.path,
            line=1,
        )
    by = "score" if "score" in header else "rank"
    notes = [f"ordered by {by} {'descending' if by == 'score' else 'ascending'}"]
    if by == "score" and "rank" in header:
        notes.append("the rank column is ignored because scores are given")
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            parse_options=pacsv.ParseOptions(delimiter=sep),
            convert_options=pacsv.ConvertOptions(
                column_types={"query_id": pa.string(), "doc_id": pa.string(), by: pa.float64()},
                include_columns=["query_id", "doc_id", by],
                strings_can_be_null=False,
            ),
        )
        values = table.column(by).to_numpy()
        if table.column(by).null_count or table.num_rows == 0:
            raise pa.ArrowInvalid("missing values or no rows")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return _read_delimited_slow(data, source, sep, header, by, notes)
    order = OrderKind.SCORE if by == "score" else OrderKind.RANK
    return _Columns(
        table.column("query_id"),
        table.column("doc_id"),
        values if by == "score" else None,
        values if by == "rank" else None,
        order,
        _line_map(data, table.num_rows, 2),
        2,
        notes,
    )


def _read_delimited_slow(
    data: bytes, source: Source, sep: str, header: list[str], by: str, notes: list[str]
) -> _Columns:
    lines_iter = iter_lines(data, source.path)
    next(lines_iter)
    iq, idoc, iv = header.index("query_id"), header.index("doc_id"), header.index(by)
    qids, dids, values, lines = [], [], [], []
    for number, text in lines_iter:
        cells = next(csv.reader([text], delimiter=sep))
        if len(cells) != len(header):
            raise InputError(
                f"expected {len(header)} columns as in the header, found {len(cells)}", path=source.path, line=number
            )
        qids.append(cells[iq].strip())
        dids.append(cells[idoc].strip())
        values.append(_float(cells[iv], by, source.path, number))
        lines.append(number)
    if not lines:
        raise InputError("has a header but no ranked documents", path=source.path, line=1)
    arr = np.array(values, dtype=np.float64)
    return _Columns(
        pa.array(qids, pa.string()),
        pa.array(dids, pa.string()),
        arr if by == "score" else None,
        arr if by == "rank" else None,
        OrderKind.SCORE if by == "score" else OrderKind.RANK,
        np.array(lines, dtype=np.int64),
        2,
        notes,
    )


def _read_jsonl(data: bytes, source: Source) -> _Columns:
    qids: list[str] = []
    dids: list[str] = []
    lines: list[int] = []
    seen: dict[str, int] = {}
    empty: list[str] = []
    for number, text in iter_lines(data, source.path):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"not valid JSON ({exc.msg} at column {exc.colno})", path=source.path, line=number
            ) from None
        if not isinstance(obj, dict) or "query_id" not in obj or "doc_ids" not in obj:
            raise InputError('expected an object with "query_id" and "doc_ids"', path=source.path, line=number)
        qid = _json_id(obj["query_id"], "query_id", source.path, number)
        docs = obj["doc_ids"]
        if not isinstance(docs, list):
            raise InputError('"doc_ids" must be a list of document IDs', path=source.path, line=number)
        if qid in seen:
            raise InputError(
                f"query {qid} is already listed at line {seen[qid]}; give each query one line",
                path=source.path,
                line=number,
            )
        seen[qid] = number
        if not docs:
            empty.append(qid)
        for doc in docs:
            dids.append(_json_id(doc, "doc_ids", source.path, number))
        qids.extend([qid] * len(docs))
        lines.extend([number] * len(docs))
    if not seen:
        raise InputError("has no queries", path=source.path)
    # A query listed with no documents is an answer (it scores 0), not a missing ranking.
    return _Columns(
        pa.array(qids, pa.string()),
        pa.array(dids, pa.string()),
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
        raise InputError(f'"{field}" must hold strings, found {json.dumps(value)}', path=path, line=line)
    text = str(value)
    if not text.strip():
        raise InputError(f'empty ID in "{field}"', path=path, line=line)
    return text

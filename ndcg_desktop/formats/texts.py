"""Query and document texts: TSV, CSV and JSONL, documents streamed in bounded batches."""

from __future__ import annotations

import csv
import json
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import brief, check_id, show
from ndcg_desktop.formats.common import (
    MAX_LINE_BYTES,
    BoundedGzip,
    base_suffix,
    check_utf8,
    first_line,
    iter_lines,
    iter_records,
    load_json,
    names_file_on_memory_error,
    out_of_memory,
    read_header,
    read_input,
)

BATCH = 10_000
_SURROGATE = re.compile("[\ud800-\udfff]")


def _text_format(path: str | Path, head: str) -> str:
    suffix = base_suffix(path)
    if suffix in (".jsonl", ".json", ".ndjson") or head.startswith("{"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    return "tsv"


@names_file_on_memory_error
def read_queries(path: str | Path) -> pd.DataFrame:
    """Queries as ``query_id<TAB>text`` lines (a header is optional), CSV with a header, or JSONL."""
    data, _ = read_input(path)
    check_utf8(data, path)
    fmt = _text_format(path, first_line(data))
    ids: list[str] = []
    texts: list[str] = []
    lines: list[int] = []
    if fmt == "jsonl":
        for number, text in iter_lines(data, path):
            obj = _json_object(text, path, number, ("query_id",))
            ids.append(_id(obj["query_id"], "query ID", path, number))
            texts.append(_text(obj.get("text"), "text", path, number))
            lines.append(number)
    elif fmt == "csv":
        header = read_header(data, path, ",")
        if "query_id" not in header or "text" not in header:
            raise InputError("the header must name query_id and text", path=path, line=1)
        i_id, i_text = header.index("query_id"), header.index("text")
        for number, cells in iter_records(data, path, ",", len(header)):
            ids.append(check_id(cells[i_id], "query ID", path, number))
            texts.append(cells[i_text].strip())
            lines.append(number)
    else:
        header_done = False
        for number, text in iter_lines(data, path):
            cells = text.split("\t", 1)
            if not header_done and cells[0].strip() == "query_id":
                header_done = True
                continue
            header_done = True
            if len(cells) != 2:
                raise InputError("expected query_id<TAB>text", path=path, line=number)
            ids.append(check_id(cells[0], "query ID", path, number))
            texts.append(cells[1].strip())
            lines.append(number)
    frame = pd.DataFrame({"query_id": ids, "text": texts, "line": lines})
    dup = frame[frame.duplicated("query_id", keep=False)]
    if len(dup):
        first, second = dup.iloc[0], dup.iloc[1]
        raise InputError(
            f"query {brief(second['query_id'])} is listed twice (also at line {first['line']})",
            path=path,
            line=int(second["line"]),
        )
    if frame.empty:
        raise InputError("has no queries", path=path)
    return frame


def _open_text(path: Path) -> tuple[IO[bytes], IO[bytes], int]:
    """(line source, raw file for progress, size in bytes) for a plain or gzip file."""
    raw = open(path, "rb")  # noqa: SIM115 - closed by the caller
    size = path.stat().st_size
    if raw.read(2) == b"\x1f\x8b":
        raw.seek(0)
        return BoundedGzip(raw, path, size), raw, size  # type: ignore[return-value]
    raw.seek(0)
    return raw, raw, size


def iter_documents(path: str | Path, batch: int = BATCH) -> Iterator[tuple[list[tuple[str, str, str]], int, int]]:
    """Stream documents as batches of (doc_id, title, text), with bytes read and total bytes.

    JSONL objects need ``doc_id`` (``title`` and ``text`` are optional); CSV/TSV need a header
    naming ``doc_id`` and optionally ``title`` and ``text``. Memory stays bounded by ``batch``.
    """
    target = Path(path)
    if not target.exists():
        raise InputError("no such file", path=path)
    if target.is_dir():
        raise InputError("is a directory, not a file", path=path)
    source, raw, size = _open_text(target)
    try:
        head = source.read(4096)
        source.seek(0)
        fmt = _text_format(path, head.decode("utf-8", errors="replace").lstrip("\ufeff").lstrip())
        pending: list[tuple[str, str, str]] = []
        seen_any = False
        records = _json_records(source, path) if fmt == "jsonl" else _delimited_records(source, path, fmt)
        for record in records:
            pending.append(record)
            seen_any = True
            if len(pending) >= batch:
                yield pending, raw.tell(), size
                pending = []
        if pending:
            yield pending, raw.tell(), size
        if not seen_any:
            raise InputError("has no documents", path=path)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"cannot be read ({exc})", path=path) from None
    except MemoryError:
        raise out_of_memory(path) from None
    finally:
        source.close()
        raw.close()


def _bounded_lines(source: IO[bytes], path: str | Path) -> Iterator[tuple[int, str]]:
    """(line number, text with its line end) of every line, none longer than MAX_LINE_BYTES."""
    number = 0
    while line := source.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise InputError(
                f"line is longer than {MAX_LINE_BYTES >> 20} MiB (the limit for one line of any input file)",
                path=path,
                line=number,
            )
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("invalid UTF-8", path=path, line=number) from None
        if number == 1:
            text = text.lstrip("\ufeff")
        yield number, text


def _decoded_lines(source: IO[bytes], path: str | Path) -> Iterator[tuple[int, str]]:
    for number, text in _bounded_lines(source, path):
        text = text.rstrip("\r\n")
        if text.strip():
            yield number, text


def _json_records(source: IO[bytes], path: str | Path) -> Iterator[tuple[str, str, str]]:
    for number, text in _decoded_lines(source, path):
        obj = _json_object(text, path, number, ("doc_id",))
        yield (
            _id(obj["doc_id"], "document ID", path, number),
            _text(obj.get("title"), "title", path, number),
            _text(obj.get("text"), "text", path, number),
        )


def _delimited_records(source: IO[bytes], path: str | Path, fmt: str) -> Iterator[tuple[str, str, str]]:
    sep = "," if fmt == "csv" else "\t"
    numbered = _bounded_lines(source, path)
    line = 0

    def texts() -> Iterator[str]:  # the csv module reads lines; ``line`` follows the last one it took
        nonlocal line
        for number, text in numbered:
            line = number
            yield text

    reader = csv.reader(texts(), delimiter=sep, strict=True)
    try:
        header = [c.strip() for c in next(reader)]
        if "doc_id" not in header:
            raise InputError(
                f"the header must name doc_id (and optionally title, text); found {show(sep.join(header))}",
                path=path,
                line=1,
            )
        if len(set(header)) != len(header):
            raise InputError("the header names a column twice", path=path, line=1)
        i_id = header.index("doc_id")
        i_title = header.index("title") if "title" in header else None
        i_text = header.index("text") if "text" in header else None
        for cells in reader:
            start = line - _cells_lines(cells) + 1
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue
            if len(cells) != len(header):
                raise InputError(f"expected {len(header)} columns, found {len(cells)}", path=path, line=start)
            yield (
                check_id(cells[i_id], "document ID", path, start),
                cells[i_title] if i_title is not None else "",
                cells[i_text] if i_text is not None else "",
            )
    except StopIteration:
        raise InputError("is empty", path=path) from None
    except csv.Error as exc:
        raise InputError(f"malformed CSV ({exc})", path=path, line=line) from None


def _cells_lines(cells: list[str]) -> int:
    """How many lines a record read by the csv module spans (its quoted cells may hold line ends)."""
    return 1 + sum(cell.count("\n") for cell in cells)


def _json_object(text: str, path: str | Path, line: int, required: tuple[str, ...]) -> dict[str, Any]:
    obj = load_json(text, path, line)
    if not isinstance(obj, dict) or any(key not in obj for key in required):
        raise InputError(f"expected an object with {', '.join(repr(k) for k in required)}", path=path, line=line)
    return obj


def _id(value: object, what: str, path: str | Path, line: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{what} must be a string, found {show(json.dumps(value)[:100])}", path=path, line=line)
    return check_id(str(value), what, path, line)


def _text(value: object, field: str, path: str | Path, line: int) -> str:
    """A title or text: a string (null is empty); objects, lists and lone surrogates are refused."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f'"{field}" must be a string, found {show(json.dumps(value)[:100])}', path=path, line=line)
    text = value if isinstance(value, str) else json.dumps(value)
    bad = _SURROGATE.search(text)
    if bad:
        raise InputError(
            f'"{field}" holds a lone surrogate (U+{ord(bad.group()):04X}), which is not text', path=path, line=line
        )
    return text

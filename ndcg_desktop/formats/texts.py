"""Documents: TSV, CSV and JSONL, streamed in bounded batches. Queries (topics) are read by :mod:`.topics`."""

from __future__ import annotations

import csv
import io
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import check_id, show
from ndcg_desktop.formats.common import (
    MAX_DOCUMENT_CHARS,
    MAX_LINE_BYTES,
    MAX_TOPIC_FIELD_CHARS,
    BoundedGzip,
    base_suffix,
    blank_run_error,
    load_json,
    out_of_memory,
)
from ndcg_desktop.formats.streams import as_file
from ndcg_desktop.formats.topics import json_id, json_text, read_queries

__all__ = ["BATCH", "iter_documents", "read_queries"]  # read_queries: kept importable from here

BATCH = 10_000


def _text_format(path: str | Path, head: str) -> str:
    suffix = base_suffix(path)
    if suffix in (".jsonl", ".json", ".ndjson") or head.startswith("{"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    return "tsv"


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
    if not Path(path).exists():
        raise InputError("no such file", path=path)
    if Path(path).is_dir():
        raise InputError("is a directory, not a file", path=path)
    with as_file(path, lambda head: _check_head(head, path)) as file:  # a stream: read from a checked copy
        yield from _documents(Path(file), path, batch)


def _check_head(head: bytes, path: str | Path) -> None:
    """A stream's first lines read as documents, so that one never giving a document is refused at once."""
    for _ in _records(io.BytesIO(head), path):
        pass


def _records(source: IO[bytes], path: str | Path) -> Iterator[tuple[str, str, str]]:
    head = source.read(4096)
    source.seek(0)
    fmt = _text_format(path, head.decode("utf-8", errors="replace").lstrip("\ufeff").lstrip())
    return _json_records(source, path) if fmt == "jsonl" else _delimited_records(source, path, fmt)


def _documents(target: Path, path: str | Path, batch: int) -> Iterator[tuple[list[tuple[str, str, str]], int, int]]:
    source, raw, size = _open_text(target)
    try:
        pending: list[tuple[str, str, str]] = []
        seen_any = False
        for record in _records(source, path):
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
    blank, blank_from = 0, 1  # blank bytes in a row, from that line: a gzip of blank lines gives no data
    while line := source.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(line) > MAX_LINE_BYTES:
            raise InputError(
                f"line is longer than {MAX_LINE_BYTES >> 20} MiB (the limit for one line of any input file)",
                path=path,
                line=number,
            )
        if line.isspace():
            blank, blank_from = blank + len(line), blank_from if blank else number
            if blank > MAX_LINE_BYTES:
                raise blank_run_error(path, blank_from)
        else:
            blank = 0
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
        doc_id = json_id(obj["doc_id"], "document ID", path, number)
        yield _document(
            doc_id,
            json_text(obj.get("title"), "title", path, number),
            json_text(obj.get("text"), "text", path, number),
            path,
            number,
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
            yield _document(
                check_id(cells[i_id], "document ID", path, start),
                cells[i_title] if i_title is not None else "",
                cells[i_text] if i_text is not None else "",
                path,
                start,
            )
    except StopIteration:
        raise InputError("is empty", path=path) from None
    except csv.Error as exc:
        raise InputError(f"malformed CSV ({exc})", path=path, line=line) from None


def _document(doc_id: str, title: str, text: str, path: str | Path, line: int) -> tuple[str, str, str]:
    """One document, its title and text refused past their limits (docs/guarantees.md)."""
    for field, value, limit in (("title", title, MAX_TOPIC_FIELD_CHARS), ("text", text, MAX_DOCUMENT_CHARS)):
        if len(value) > limit:
            raise InputError(
                f"the {field} of document {doc_id} is longer than {limit:,} characters (the limit for a document's "
                f"{field})",
                path=path,
                line=line,
            )
    return doc_id, title, text


def _cells_lines(cells: list[str]) -> int:
    """How many lines a record read by the csv module spans (its quoted cells may hold line ends)."""
    return 1 + sum(cell.count("\n") for cell in cells)


def _json_object(text: str, path: str | Path, line: int, required: tuple[str, ...]) -> dict[str, Any]:
    obj = load_json(text, path, line)
    if not isinstance(obj, dict) or any(key not in obj for key in required):
        raise InputError(f"expected an object with {', '.join(repr(k) for k in required)}", path=path, line=line)
    return obj

"""Query and document texts: TSV, CSV and JSONL, documents streamed in bounded batches."""

from __future__ import annotations

import csv
import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.common import base_suffix, first_line, iter_lines, read_input

BATCH = 10_000


def _text_format(path: str | Path, head: str) -> str:
    suffix = base_suffix(path)
    if suffix in (".jsonl", ".json", ".ndjson") or head.startswith("{"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    return "tsv"


def read_queries(path: str | Path) -> pd.DataFrame:
    """Queries as ``query_id<TAB>text`` lines (a header is optional), CSV with a header, or JSONL."""
    data, _ = read_input(path)
    fmt = _text_format(path, first_line(data))
    ids: list[str] = []
    texts: list[str] = []
    lines: list[int] = []
    if fmt == "jsonl":
        for number, text in iter_lines(data, path):
            obj = _json_object(text, path, number, ("query_id",))
            ids.append(_id(obj["query_id"], "query_id", path, number))
            texts.append(str(obj.get("text", "")))
            lines.append(number)
    else:
        sep = "," if fmt == "csv" else "\t"
        rows = iter_lines(data, path)
        header: list[str] | None = None
        for number, text in rows:
            cells = next(csv.reader([text], delimiter=sep)) if fmt == "csv" else text.split("\t", 1)
            if header is None and fmt == "csv":
                header = [c.strip() for c in cells]
                if "query_id" not in header or "text" not in header:
                    raise InputError("the header must name query_id and text", path=path, line=number)
                continue
            if header is None and cells[0].strip() == "query_id":
                header = cells
                continue
            header = header or ["query_id", "text"]
            if fmt == "csv":
                if len(cells) != len(header):
                    raise InputError(f"expected {len(header)} columns, found {len(cells)}", path=path, line=number)
                record = dict(zip(header, cells, strict=True))
                qid, qtext = record["query_id"], record["text"]
            else:
                if len(cells) != 2:
                    raise InputError("expected query_id<TAB>text", path=path, line=number)
                qid, qtext = cells
            ids.append(_id(qid, "query_id", path, number))
            texts.append(qtext.strip())
            lines.append(number)
    frame = pd.DataFrame({"query_id": ids, "text": texts, "line": lines})
    dup = frame[frame.duplicated("query_id", keep=False)]
    if len(dup):
        first, second = dup.iloc[0], dup.iloc[1]
        raise InputError(
            f"query {second['query_id']} is listed twice (also at line {first['line']})",
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
        return gzip.GzipFile(fileobj=raw), raw, size  # type: ignore[return-value]
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
    except (OSError, EOFError) as exc:
        raise InputError(f"cannot be read ({exc})", path=path) from None
    finally:
        source.close()
        raw.close()


def _decoded_lines(source: IO[bytes], path: str | Path) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(source, start=1):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("invalid UTF-8", path=path, line=number) from None
        if number == 1:
            text = text.lstrip("\ufeff")
        text = text.rstrip("\r\n")
        if text.strip():
            yield number, text


def _json_records(source: IO[bytes], path: str | Path) -> Iterator[tuple[str, str, str]]:
    for number, text in _decoded_lines(source, path):
        obj = _json_object(text, path, number, ("doc_id",))
        yield _id(obj["doc_id"], "doc_id", path, number), str(obj.get("title") or ""), str(obj.get("text") or "")


def _delimited_records(source: IO[bytes], path: str | Path, fmt: str) -> Iterator[tuple[str, str, str]]:
    sep = "," if fmt == "csv" else "\t"
    wrapper = io.TextIOWrapper(source, encoding="utf-8-sig", newline="")
    reader = csv.reader(wrapper, delimiter=sep)
    try:
        header = [c.strip() for c in next(reader)]
    except StopIteration:
        raise InputError("is empty", path=path) from None
    except UnicodeDecodeError:
        raise InputError("invalid UTF-8", path=path, line=1) from None
    if "doc_id" not in header:
        raise InputError(
            f"the header must name doc_id (and optionally title, text); found {sep.join(header)}", path=path, line=1
        )
    i_id = header.index("doc_id")
    i_title = header.index("title") if "title" in header else None
    i_text = header.index("text") if "text" in header else None
    try:
        for cells in reader:
            if not cells:
                continue
            if len(cells) != len(header):
                raise InputError(f"expected {len(header)} columns, found {len(cells)}", path=path, line=reader.line_num)
            yield (
                _id(cells[i_id], "doc_id", path, reader.line_num),
                cells[i_title] if i_title is not None else "",
                cells[i_text] if i_text is not None else "",
            )
    except UnicodeDecodeError:
        raise InputError("invalid UTF-8", path=path, line=reader.line_num + 1) from None
    finally:
        wrapper.detach()  # the caller owns and closes the byte stream


def _json_object(text: str, path: str | Path, line: int, required: tuple[str, ...]) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=path, line=line) from None
    if not isinstance(obj, dict) or any(key not in obj for key in required):
        raise InputError(f"expected an object with {', '.join(repr(k) for k in required)}", path=path, line=line)
    return obj


def _id(value: object, field: str, path: str | Path, line: int) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(f"{field} must be a string, found {json.dumps(value)}", path=path, line=line)
    text = str(value).strip()
    if not text:
        raise InputError(f"empty {field}", path=path, line=line)
    return text

"""Chunk maps (chunk ID -> document ID) from a file: JSONL ``{"chunk_id", "doc_id"}`` or CSV/TSV with a header.

Every problem names the file and the line: a missing field, an ID refused by rule 14, a chunk listed
twice with two different documents (an identical repeat is tolerated), an empty file.
"""

from __future__ import annotations

from pathlib import Path

from ndcg_desktop.domain.chunks import ChunkMap
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.cells import brief, check_id
from ndcg_desktop.formats.common import (
    check_utf8,
    first_line,
    iter_lines,
    iter_records,
    names_file_on_memory_error,
    read_header,
    read_input,
)
from ndcg_desktop.formats.texts import _json_object, _text_format
from ndcg_desktop.formats.topics import json_id

FIELDS = ("chunk_id", "doc_id")


@names_file_on_memory_error
def read_chunk_map(path: str | Path) -> ChunkMap:
    """Read a chunk map; the map is named by the file's name and SHA-256.

    A line ``{"chunk_id": "doc12#3", "doc_id": "doc12"}`` maps ``doc12#3`` to ``doc12``
    (``read_chunk_map("chunks.jsonl").mapping()["doc12#3"] == "doc12"``).
    """
    data, sha256 = read_input(path)
    check_utf8(data, path)
    fmt = _text_format(path, first_line(data))
    rows: list[tuple[str, str, int]] = []
    if fmt == "jsonl":
        for number, text in iter_lines(data, path):
            obj = _json_object(text, path, number, FIELDS)
            rows.append(
                (
                    json_id(obj["chunk_id"], "chunk ID", path, number),
                    json_id(obj["doc_id"], "document ID", path, number),
                    number,
                )
            )
    else:
        separator = "," if fmt == "csv" else "\t"
        header = [cell.strip() for cell in read_header(data, path, separator)]
        if any(name not in header for name in FIELDS):
            raise InputError(
                f"the header must name chunk_id and doc_id (found {', '.join(map(brief, header))})", path=path, line=1
            )
        i_chunk, i_doc = header.index("chunk_id"), header.index("doc_id")
        for number, cells in iter_records(data, path, separator, len(header)):
            rows.append(
                (
                    check_id(cells[i_chunk], "chunk ID", path, number),
                    check_id(cells[i_doc], "document ID", path, number),
                    number,
                )
            )
    if not rows:
        raise InputError("has no chunks", path=path)
    pairs: dict[str, tuple[str, int]] = {}
    for chunk, doc, number in rows:
        seen = pairs.setdefault(chunk, (doc, number))
        if seen[0] != doc:
            raise InputError(
                f"chunk {brief(chunk)} belongs to document {brief(seen[0])} at line {seen[1]} and to {brief(doc)} here",
                path=path,
                line=number,
            )
    return ChunkMap(Path(path).name, sha256, tuple((chunk, doc) for chunk, (doc, _) in pairs.items()))

"""Chunk maps from a file: JSONL, CSV and TSV; every refusal names the file and the line."""

from __future__ import annotations

import hashlib

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.chunk_map import read_chunk_map

JSONL = (
    '{"chunk_id": "d1#0", "doc_id": "d1", "text": "first"}\n'
    '{"chunk_id": "d1#1", "doc_id": "d1"}\n'
    '{"chunk_id": "c9", "doc_id": "d2"}\n'
)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("chunks.jsonl", JSONL),
        ("chunks.csv", "chunk_id,doc_id\nd1#0,d1\nd1#1,d1\nc9,d2\n"),
        ("chunks.tsv", "doc_id\tchunk_id\nd1\td1#0\nd1\td1#1\nd2\tc9\n"),  # columns in any order
        ("chunks.jsonl", JSONL + '{"chunk_id": "c9", "doc_id": "d2"}\n'),  # an identical repeat is tolerated
    ],
)
def test_formats(write, name, text):
    path = write(name, text)
    chunk_map = read_chunk_map(path)
    assert chunk_map.mapping() == {"d1#0": "d1", "d1#1": "d1", "c9": "d2"}
    assert (chunk_map.source, chunk_map.sha256) == (name, hashlib.sha256(path.read_bytes()).hexdigest())


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        (
            "m.jsonl",
            '{"chunk_id": "a", "doc_id": "d"}\n{"chunk_id": "b"}\n',
            2,
            "expected an object with 'chunk_id', 'doc_id'",
        ),
        ("m.jsonl", '{"chunk_id": "a", "doc_id": "d"}\nnot json\n', 2, "not valid JSON"),
        ("m.jsonl", '{"chunk_id": "a b", "doc_id": "d"}\n', 1, "chunk ID 'a b' contains"),
        ("m.jsonl", '{"chunk_id": "a", "doc_id": ["d"]}\n', 1, "document ID must be a string"),
        (
            "m.jsonl",
            '{"chunk_id": "a", "doc_id": "d"}\n\n{"chunk_id": "a", "doc_id": "e"}\n',
            3,
            "chunk a belongs to document d at line 1 and to e here",
        ),
        ("m.csv", "chunk,doc_id\na,d\n", 1, "the header must name chunk_id and doc_id"),
        ("m.csv", "chunk_id,doc_id\na,d\nb\n", 3, "expected 2 columns as in the header, found 1"),
        ("m.tsv", "chunk_id\tdoc_id\na\t\u200bd\n", 2, "document ID"),
    ],
)
def test_refusals_name_file_and_line(write, name, text, line, message):
    path = write(name, text)
    with pytest.raises(InputError) as caught:
        read_chunk_map(path)
    assert (caught.value.path, caught.value.line) == (str(path), line)
    assert message in caught.value.message


def test_an_empty_map_is_refused(write):
    path = write("m.csv", "chunk_id,doc_id\n")
    with pytest.raises(InputError, match="has no chunks"):
        read_chunk_map(path)

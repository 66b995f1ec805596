"""Every reader refuses a gzip bomb the same way (the bound lowered so the test stays small)."""

from __future__ import annotations

import gzip
import json

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats import common
from ndcg_desktop.formats.chunk_map import read_chunk_map
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.texts import iter_documents, read_queries

BOUND = 1 << 20  # the test's BOMB_MIN_BYTES: 1 MiB instead of 64 MiB


@pytest.fixture(autouse=True)
def small_bound(monkeypatch):
    monkeypatch.setattr(common, "BOMB_MIN_BYTES", BOUND)


def _bomb(lines: str, *, size: int = 4 * BOUND) -> bytes:
    """A gzip of ``lines`` repeated to ``size`` bytes: far more than 100 times smaller than it expands."""
    payload = (lines * (size // len(lines) + 1)).encode()
    data = gzip.compress(payload, 9)
    assert len(payload) > common.BOMB_RATIO * len(data) and len(payload) > BOUND
    return data


DOC = json.dumps({"doc_id": "D1", "text": "x " * 200}) + "\n"
CASES = {
    "docs.jsonl.gz": ("", DOC, lambda p: list(iter_documents(p))),
    "docs.csv.gz": ("doc_id,text\n", "D1," + "x " * 200 + "\n", lambda p: list(iter_documents(p))),
    "docs.tsv.gz": ("doc_id\ttext\n", "D1\t" + "x " * 200 + "\n", lambda p: list(iter_documents(p))),
    "queries.jsonl.gz": ("", json.dumps({"query_id": "q1", "text": "y " * 200}) + "\n", read_queries),
    "queries.csv.gz": ("query_id,text\n", "q1," + "y " * 200 + "\n", read_queries),
    "queries.tsv.gz": ("", "q1\t" + "y " * 200 + "\n", read_queries),
    "qrels.txt.gz": ("", "q1 0 D1 1\n", read_qrels),
    "qrels.csv.gz": ("query_id,doc_id,grade\n", "q1,D1,1\n", read_qrels),
    "run.txt.gz": ("", "q1 Q0 D1 1 2 s\n", read_run),
    "run.csv.gz": ("query_id,doc_id,score\n", "q1,D1,2\n", read_run),
    "run.jsonl.gz": ("", json.dumps({"query_id": "q1", "doc_ids": ["D1"]}) + "\n", read_run),
    "chunks.jsonl.gz": ("", json.dumps({"chunk_id": "D1#" + "0" * 200, "doc_id": "D1"}) + "\n", read_chunk_map),
    "chunks.csv.gz": ("chunk_id,doc_id\n", "D1#" + "0" * 200 + ",D1\n", read_chunk_map),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_reader_refuses_a_gzip_bomb(write, name):
    header, line, read = CASES[name]
    path = write(name, gzip.compress(header.encode()) + _bomb(line))
    with pytest.raises(InputError) as info:
        read(path)
    assert str(info.value) == (
        f"{path}: expands to more than {common.BOMB_RATIO} times its compressed size: refused as a likely "
        "decompression bomb (decompress it yourself if it is real data)"
    )


@pytest.mark.parametrize("name", ["docs.jsonl.gz", "docs.csv.gz"])
def test_a_real_compressed_document_file_is_read(write, name):
    """Text that compresses about 3 times passes, past the bound too."""
    import random

    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)) for _ in range(5000)]
    rows = [(f"D{i}", " ".join(rng.choice(words) for _ in range(60))) for i in range(4000)]
    if name.startswith("docs.jsonl"):
        text = "".join(json.dumps({"doc_id": d, "text": t}) + "\n" for d, t in rows)
    else:
        text = "doc_id,text\n" + "".join(f"{d},{t}\n" for d, t in rows)
    assert len(text) > BOUND
    path = write(name, gzip.compress(text.encode()))
    read = [doc for batch, _, _ in iter_documents(path) for doc in batch]
    assert [d for d, _, _ in read] == [d for d, _ in rows]

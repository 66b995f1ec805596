"""Every reader takes a gzipped file and reads from it exactly what it reads from the plain one.

tests/data keeps its large files gzipped, and README.md promises `.gz` for every input, so each
reader and each format is checked here on the same content, plain and compressed.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import preview_run, read_run, supported_orders
from ndcg_desktop.formats.texts import iter_documents, read_queries

QRELS = {
    "qrels.txt": "q1 0 A 2\nq1 0 B 0\nq2 0 C 1\n",
    "qrels.csv": "query_id,doc_id,grade\nq1,A,2\nq1,B,0\nq2,C,1\n",
    "qrels.tsv": "query_id\tdoc_id\tgrade\nq1\tA\t2\nq1\tB\t0\nq2\tC\t1\n",
}
RUNS = {
    "run.run": "q1 Q0 A 1 2.5 s\nq1 Q0 B 2 1.5 s\nq2 Q0 C 1 0.5 s\n",
    "run.csv": "query_id,doc_id,score\nq1,A,2.5\nq1,B,1.5\nq2,C,0.5\n",
    "run.tsv": "query_id\tdoc_id\trank\nq1\tA\t1\nq1\tB\t2\nq2\tC\t1\n",
    "run.jsonl": '{"query_id": "q1", "doc_ids": ["A", "B"]}\n{"query_id": "q2", "doc_ids": ["C"]}\n',
}
QUERIES = {
    "queries.tsv": "q1\tfirst query\nq2\tsecond query\n",
    "queries.csv": "query_id,text\nq1,first query\nq2,second query\n",
    "queries.jsonl": '{"query_id": "q1", "text": "first query"}\n{"query_id": "q2", "text": "second query"}\n',
}
DOCUMENTS = {
    "docs.jsonl": '{"doc_id": "A", "title": "T", "text": "alpha"}\n{"doc_id": "B", "title": "", "text": "beta"}\n',
    "docs.csv": "doc_id,title,text\nA,T,alpha\nB,,beta\n",
    "docs.tsv": "doc_id\ttitle\ttext\nA\tT\talpha\nB\t\tbeta\n",
}


def plain_and_gzipped(write, name: str, text: str):
    return write(name, text), write(name + ".gz", gzip.compress(text.encode("utf-8")))


def rows(run) -> list[tuple[str, str, int]]:
    """(query, document, line) per row, as read."""
    queries = run.queries.to_pylist()
    docs = run.doc_ids(np.arange(len(run))).to_pylist()
    return [(queries[run.q[i]], docs[i], run.line_of(i)) for i in range(len(run))]


@pytest.mark.parametrize("name", sorted(QRELS))
def test_read_qrels_reads_gzip(write, name):
    plain, packed = plain_and_gzipped(write, name, QRELS[name])
    a, b = read_qrels(plain), read_qrels(packed)
    assert a.source.format == b.source.format
    first = 2 if name.endswith("sv") else 1  # after the header
    assert (
        b.frame.to_dict("list")
        == a.frame.to_dict("list")
        == {
            "query_id": ["q1", "q1", "q2"],
            "doc_id": ["A", "B", "C"],
            "grade": [2, 0, 1],
            "line": [first, first + 1, first + 2],
        }
    )


@pytest.mark.parametrize("name", sorted(RUNS))
def test_read_run_preview_and_orders_read_gzip(write, name):
    plain, packed = plain_and_gzipped(write, name, RUNS[name])
    if name.endswith(".jsonl"):
        expected = [("q1", "A", 1), ("q1", "B", 1), ("q2", "C", 2)]
    else:
        first = 2 if name.endswith("sv") else 1  # after the header
        expected = [("q1", "A", first), ("q1", "B", first + 1), ("q2", "C", first + 2)]
    assert rows(read_run(plain)) == rows(read_run(packed)) == expected
    assert read_run(packed).source.format == read_run(plain).source.format
    assert rows(preview_run(packed, rows=5)[0]) == expected
    assert supported_orders(packed) == supported_orders(plain)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_read_queries_reads_gzip(write, name):
    plain, packed = plain_and_gzipped(write, name, QUERIES[name])
    expected = {"query_id": ["q1", "q2"], "title": ["first query", "second query"]}
    got = read_queries(packed)
    assert got[["query_id", "title"]].to_dict("list") == expected
    assert read_queries(plain)[["query_id", "title"]].to_dict("list") == expected


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_iter_documents_reads_gzip(write, name):
    plain, packed = plain_and_gzipped(write, name, DOCUMENTS[name])
    expected = [("A", "T", "alpha"), ("B", "", "beta")]
    assert [doc for batch, _, _ in iter_documents(packed) for doc in batch] == expected
    assert [doc for batch, _, _ in iter_documents(plain) for doc in batch] == expected

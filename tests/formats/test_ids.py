"""Rule 14 of docs/evaluation-contract.md: one rule for IDs in every reader and on every path through it.

An ID is its cell with surrounding whitespace trimmed; whitespace, control characters, NUL,
byte-order marks and invisible characters inside it are refused with file and line.
"""

from __future__ import annotations

import json

import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.texts import iter_documents, read_queries

# (name, character) placed inside an ID; every one must be refused.
BAD = [
    ("space", " "),
    ("tab", "\t"),
    ("nul", "\x00"),
    ("escape", "\x1b"),
    ("carriage-return", "\r"),
    ("line-feed", "\n"),
    ("delete", "\x7f"),
    ("c1-next-line", "\x85"),
    ("no-break-space", "\xa0"),
    ("bom", "\ufeff"),
    ("zero-width-space", "\u200b"),
    ("zero-width-joiner", "\u200d"),
    ("right-to-left-mark", "\u200f"),
    ("line-separator", "\u2028"),
    ("word-joiner", "\u2060"),
    ("ideographic-space", "\u3000"),
]
BAD_IDS = [pytest.param(f"d{ch}7", id=name) for name, ch in BAD]


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _refused(call, path, line: int) -> InputError:
    with pytest.raises(InputError) as info:
        call()
    assert str(info.value).startswith(f"{path}:{line}: "), str(info.value)
    return info.value


# Files that put the bad ID on line 3 (as a document ID), for every reader and format, each as its
# fast path and its slow path read it (padding lines make the fast path's file large enough to matter).
def _qrels_files(bad: str) -> dict[str, str]:
    return {
        "q.csv": f"query_id,doc_id,grade\nq1,A,1\nq1,{_csv_cell(bad)},2\n",
        "q.tsv": f"query_id\tdoc_id\tgrade\nq1\tA\t1\nq1\t{_csv_cell(bad)}\t2\n",
    }


@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize("name", ["q.csv", "q.tsv"])
def test_qrels_refuse_bad_ids(write, bad, name):
    path = write(name, _qrels_files(bad)[name])
    error = _refused(lambda: read_qrels(path), path, 3)
    assert "document ID" in str(error)


@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize("name", ["r.csv", "r.tsv", "r.jsonl"])
def test_runs_refuse_bad_ids(write, bad, name):
    files = {
        "r.csv": f"query_id,doc_id,score\nq1,A,2\nq1,{_csv_cell(bad)},1\n",
        "r.tsv": f"query_id\tdoc_id\tscore\nq1\tA\t2\nq1\t{_csv_cell(bad)}\t1\n",
        "r.jsonl": '{"query_id": "q0", "doc_ids": ["Z"]}\n{"query_id": "q2", "doc_ids": ["Y"]}\n'
        + json.dumps({"query_id": "q1", "doc_ids": ["A", bad]})
        + "\n",
    }
    path = write(name, files[name])
    error = _refused(lambda: read_run(path), path, 3)
    assert "document ID" in str(error)


@pytest.mark.parametrize("bad", BAD_IDS)
def test_query_and_document_texts_refuse_bad_ids(write, bad):
    queries = write("queries.jsonl", '{"query_id": "q1", "text": "a"}\n\n' + json.dumps({"query_id": bad}) + "\n")
    _refused(lambda: read_queries(queries), queries, 3)
    queries_csv = write("queries.csv", f"query_id,text\nq1,a\n{_csv_cell(bad)},b\n")
    _refused(lambda: read_queries(queries_csv), queries_csv, 3)
    docs = write("docs.jsonl", '{"doc_id": "A"}\n\n' + json.dumps({"doc_id": bad, "text": "t"}) + "\n")
    _refused(lambda: list(iter_documents(docs)), docs, 3)
    docs_csv = write("docs.csv", f"doc_id,text\nA,t\n{_csv_cell(bad)},t\n")
    _refused(lambda: list(iter_documents(docs_csv)), docs_csv, 3)


@pytest.mark.parametrize("name, ch", [(n, c) for n, c in BAD if c not in " \t\r\n"])
def test_trec_files_refuse_bad_ids_on_every_path(write, name, ch):
    """TREC fields are separated by spaces and tabs; any other of these characters stays in the ID."""
    qrels = write("qrels.txt", f"q1 0 A 1\nq2 0 B 1\nq1 0 d{ch}7 2\n")
    _refused(lambda: read_qrels(qrels), qrels, 3)
    run = write("run.txt", f"q1 Q0 A 1 2 s\nq2 Q0 B 1 2 s\nq1 Q0 d{ch}7 2 1 s\n")
    _refused(lambda: read_run(run), run, 3)
    mixed = write("mixed.txt", f"q1\tQ0 A 1 2 s\nq2 Q0 B 1 2 s\nq1 Q0 d{ch}7 2 1 s\n")  # mixed separators
    _refused(lambda: read_run(mixed), mixed, 3)


def test_a_bom_inside_a_file_is_no_invisible_second_query(write):
    path = write("qrels.txt", "q1 0 A 1\n\ufeffq1 0 B 1\n")
    error = _refused(lambda: read_qrels(path), path, 2)
    assert "U+FEFF" in str(error)


def test_surrounding_whitespace_is_trimmed_on_every_path(write):
    """`q1,A ,3` and `q1,A ,+3` name the same document, whichever reader takes the file."""
    fast = read_qrels(write("a.csv", "query_id,doc_id,grade\nq1,A ,3\n q2 ,B,1\n"))
    slow = read_qrels(write("b.csv", "query_id,doc_id,grade\nq1,A ,+3\n q2 ,B,1\n"))
    expected = [("q1", "A", 3), ("q2", "B", 1)]
    for qrels in (fast, slow):
        assert list(qrels.frame[["query_id", "doc_id", "grade"]].itertuples(index=False, name=None)) == expected
    run = read_run(write("r.jsonl", '{"query_id": " q1 ", "doc_ids": [" A", "B\\u00a0"]}\n'))
    assert (run.queries.to_pylist(), run.docs.to_pylist()) == (["q1"], ["A", "B"])


def test_messages_escape_and_cut_what_they_show(write):
    path = write("r.jsonl", json.dumps({"query_id": "q1", "doc_ids": ["\x1b[31m" + "x" * 1_000_000]}) + "\n")
    error = str(_refused(lambda: read_run(path), path, 1))
    assert "\x1b" not in error and "\\x1b" in error
    assert len(error) < 400


def test_an_integer_id_in_json_keeps_the_text_the_file_wrote(tmp_path):
    """``-0`` in a JSON line is the ID "-0", as the same file with the ID quoted says; Python's int would make it
    "0", another document (the other integers already kept their digits)."""
    from ndcg_desktop.formats.chunk_map import read_chunk_map
    from ndcg_desktop.formats.runs import read_run

    bare, quoted = tmp_path / "bare.jsonl", tmp_path / "quoted.jsonl"
    bare.write_text('{"query_id": -0, "doc_ids": [-0, 7, -12]}\n')
    quoted.write_text('{"query_id": "-0", "doc_ids": ["-0", "7", "-12"]}\n')
    for path in (bare, quoted):
        run = read_run(path)
        assert run.queries.to_pylist() == ["-0"] and run.docs.to_pylist() == ["-0", "7", "-12"]
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text('{"chunk_id": -0, "doc_id": 0}\n')
    assert read_chunk_map(chunks).pairs == (("-0", "0"),)

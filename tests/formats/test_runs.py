"""Run files: TREC, CSV/TSV, JSONL; accepted variants and refusals naming file and line."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pyarrow as pa
import pytest

from ndcg_desktop.domain import InputError, OrderKind
from ndcg_desktop.formats.runs import read_run

TREC = "q1 Q0 A 1 3.5 tag\nq1 Q0 B 2 2.0 tag\nq2 Q0 C 1 1.0 tag\n"


def triples(run):
    queries = run.queries.to_pylist()
    docs = run.docs.to_pylist()
    return [(queries[q], docs[d], float(s)) for q, d, s in zip(run.q, run.d, run.score, strict=True)]


EXPECTED = [("q1", "A", 3.5), ("q1", "B", 2.0), ("q2", "C", 1.0)]


@pytest.mark.parametrize(
    "text",
    [
        TREC,
        "\ufeff" + TREC,
        TREC.replace("\n", "\r\n"),
        TREC.replace(" ", "\t"),
        TREC.replace(" ", "  "),
        "q1\tQ0\tA\t1\t  3.5\ttag\nq1 Q0 B 2 2.0 tag\nq2 Q0 C 1 1.0 tag\n",  # trec_eval's own test file style
        TREC + "\n\n",
    ],
    ids=["plain", "bom", "crlf", "tabs", "spaces", "mixed", "trailing-blank"],
)
def test_trec_variants(write, text):
    run = read_run(write("run.txt", text))
    assert triples(run) == EXPECTED
    assert run.order is OrderKind.SCORE
    assert "rank column ignored" in run.notes[0]


def test_gzip(write):
    run = read_run(write("run.txt.gz", gzip.compress(TREC.encode())))
    assert triples(run) == EXPECTED


def test_csv_with_score_and_tsv_with_rank(write):
    run = read_run(write("r.csv", "query_id,doc_id,score\nq1,A,3.5\nq1,B,2\nq2,C,1\n"))
    assert triples(run) == EXPECTED and run.order is OrderKind.SCORE
    run = read_run(write("r.tsv", "query_id\tdoc_id\trank\nq1\tB\t2\nq1\tA\t1\n"))
    assert run.order is OrderKind.RANK and run.rank.tolist() == [2.0, 1.0]
    run = read_run(write("r2.csv", "query_id,doc_id,rank,score\nq1,A,1,3\n"))
    assert run.order is OrderKind.SCORE and any("rank column is ignored" in n for n in run.notes)


def test_jsonl(write):
    lines = [{"query_id": "q1", "doc_ids": ["d3", "d7"]}, {"query_id": 2, "doc_ids": []}]
    run = read_run(write("r.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n"))
    assert run.order is OrderKind.LIST
    assert run.docs.take(run.d).to_pylist() == ["d3", "d7"]
    assert run.empty_queries == ("2",)
    assert run.line_of(1) == 1


def test_format_detection_and_forcing(write):
    assert read_run(write("r.txt", '{"query_id": "q", "doc_ids": ["a"]}\n')).source.format == "jsonl"
    assert read_run(write("r.dat", "query_id,doc_id,score\nq,a,1\n")).source.format == "csv"
    with pytest.raises(InputError):
        read_run(write("r.csv", TREC), fmt="csv")
    assert read_run(write("r2.csv", TREC), fmt="trec").source.format == "trec"


def test_line_numbers_survive_blank_lines(write):
    run = read_run(write("run.txt", "\nq1 Q0 A 1 3 t\n\n\nq1 Q0 B 2 2 t\n"))
    assert [run.line_of(i) for i in range(2)] == [2, 5]


@pytest.mark.parametrize(
    ("name", "content", "line", "fragment"),
    [
        ("run.txt", "q1 Q0 A 1 3 t\nq1 Q0 B 2 2\n", 2, "expected 6 columns"),
        ("run.txt", "q1 Q0 A 1 3 t\nq1 Q0 B 2 x t\n", 2, "score 'x' is not a number"),
        ("run.txt", "q1 Q0 A 1 3 t\nq1 Q0 B 2 nan t\n", 2, "not a finite number"),
        ("run.txt", "q1 Q0 A 1 3 t\n\nq1 Q0 B 2 inf t\n", 3, "not a finite number"),
        ("run.txt", b"q1 Q0 A 1 3 t\nq1 Q0 B\xc3 2 2 t\n", 2, "invalid UTF-8"),
        ("run.csv", "query_id,doc_id,score\nq1,A,1\nq1,B,oops\n", 3, "score 'oops' is not a number"),
        ("run.csv", "query_id,doc_id,score\nq1,A,1\nq1,,2\n", 3, "empty document ID"),
        ("run.csv", "query_id,doc_id,score\nq1,A,1\nq1,B,\n", 3, "score '' is not a number"),
        ("run.csv", "query_id,doc_id\nq1,A\n", 1, "score or rank"),
        ("run.jsonl", '{"query_id": "q1", "doc_ids": ["a"]}\n{"query_id": "q2", "doc_ids": [\n', 2, "not valid JSON"),
        (
            "run.jsonl",
            '{"query_id": "q1", "doc_ids": ["a"]}\n{"query_id": "q1", "doc_ids": ["b"]}\n',
            2,
            "already listed at line 1",
        ),
        ("run.jsonl", '{"query_id": "q1", "docs": ["a"]}\n', 1, '"query_id" and "doc_ids"'),
        ("run.jsonl", '{"query_id": "q1", "doc_ids": [1.5]}\n', 1, "must hold strings"),
        ("run.jsonl", '{"query_id": "q1", "doc_ids": "a"}\n', 1, "must be a list"),
    ],
)
def test_refusals_name_file_and_line(write, name, content, line, fragment):
    path = write(name, content)
    with pytest.raises(InputError) as info:
        read_run(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert fragment in message


def test_empty_missing_and_directory(write, tmp_path):
    with pytest.raises(InputError, match="is empty"):
        read_run(write("run.txt", "\n\n"))
    with pytest.raises(InputError, match="no such file"):
        read_run(tmp_path / "missing.run")
    with pytest.raises(InputError, match="is a directory"):
        read_run(tmp_path)


def test_real_results_trunc_has_junk_columns(data_dir):
    path = data_dir / "trec_eval_test" / "results.trunc"
    with pytest.raises(InputError) as info:
        read_run(path)
    assert str(info.value).startswith(f"{path}:1: expected 6 columns")


def test_real_trec_eval_results(data_dir):
    run = read_run(data_dir / "trec_eval_test" / "results.test")
    assert len(run) == 1500 and sorted(run.queries.to_pylist()) == ["301", "302", "303"]
    assert np.isfinite(run.score).all()


def test_preview_reads_the_first_lines_like_the_import(write):
    from ndcg_desktop.formats.runs import preview_run

    text = "".join(f"q{i // 3} Q0 D{i} {i % 3 + 1} {10 - i} sys\n" for i in range(30))
    run, lines = preview_run(write("run.txt", text), rows=5)
    assert len(run) == 5 and lines == [1, 2, 3, 4, 5]
    assert run.doc_ids(np.arange(5)).to_pylist() == ["D0", "D1", "D2", "D3", "D4"]
    run, lines = preview_run(write("r.csv.gz", gzip.compress(b"query_id,doc_id,rank\nq1,A,1\nq1,B,2\n")), rows=5)
    assert run.order is OrderKind.RANK and lines == [2, 3]
    with pytest.raises(InputError, match=r"bad.txt:2: expected 6 columns"):
        preview_run(write("bad.txt", "q1 Q0 A 1 1 s\nq1 Q0 B\n"))


def test_the_user_can_choose_how_rankings_are_formed(write, monkeypatch):
    from ndcg_desktop.formats import runs
    from ndcg_desktop.formats.runs import preview_run
    from ndcg_desktop.scoring.ranking import rank_run

    # The rank column disagrees with the scores: B is ranked first, but A has the higher score.
    text = "q1 Q0 A 2 3.5 s\nq1 Q0 B 1 2.0 s\nq1 Q0 C 3 9.0 s\n"
    path = write("r.txt", text)

    def ranked(run):
        return run.docs.take(rank_run(run, ties="docid-desc").d).to_pylist()

    assert ranked(read_run(path)) == ["C", "A", "B"]
    by_rank = read_run(path, order=OrderKind.RANK)
    assert by_rank.order is OrderKind.RANK and ranked(by_rank) == ["B", "A", "C"]
    assert "rank column" in by_rank.notes[0]
    listed = read_run(path, order=OrderKind.LIST)
    assert listed.order is OrderKind.LIST and ranked(listed) == ["A", "B", "C"]
    monkeypatch.setattr(runs, "STREAM_MIN_BYTES", 1)  # the large-file path honours the choice too
    assert ranked(read_run(path, order=OrderKind.RANK)) == ["B", "A", "C"]
    assert ranked(read_run(path, order=OrderKind.LIST)) == ["A", "B", "C"]
    # The line-by-line reader (mixed separators and a bad rank) names the line.
    with pytest.raises(InputError, match=r"r2.txt:2: rank 'x' is not a number"):
        read_run(write("r2.txt", "q1\tQ0 A 1 1 s\nq1 Q0 B x 1 s\n"), order=OrderKind.RANK)
    csv_path = write("r.csv", "query_id,doc_id,rank,score\nq1,A,2,3.5\nq1,B,1,2.0\n")
    assert ranked(read_run(csv_path, order=OrderKind.RANK)) == ["B", "A"]
    with pytest.raises(InputError, match=r"r3.csv:1: cannot order by rank: the header has no rank column"):
        read_run(write("r3.csv", "query_id,doc_id,score\nq1,A,1\n"), order=OrderKind.RANK)
    with pytest.raises(InputError, match="a jsonl run cannot be ordered by score"):
        read_run(write("r.jsonl", '{"query_id": "q1", "doc_ids": ["A"]}\n'), order=OrderKind.SCORE)
    preview, _ = preview_run(path, order=OrderKind.RANK)
    assert ranked(preview) == ["B", "A", "C"]


def test_supported_orders_follow_the_columns(write):
    from ndcg_desktop.formats.runs import supported_orders

    assert supported_orders(write("r.txt", "q1 Q0 A 1 2.0 s\n")) == [OrderKind.SCORE, OrderKind.RANK, OrderKind.LIST]
    assert supported_orders(write("r.csv", "query_id,doc_id,rank\nq1,A,1\n")) == [OrderKind.RANK, OrderKind.LIST]
    assert supported_orders(write("r.jsonl", '{"query_id": "q1", "doc_ids": ["A"]}\n')) == [OrderKind.LIST]
    with pytest.raises(InputError, match="bad.txt:1"):
        supported_orders(write("bad.txt", "q1 Q0 A\n"))


def test_a_line_starting_with_a_brace_is_jsonl_only_when_it_is_json(tmp_path):
    """A TREC run whose first query ID starts with '{' is TREC; a JSON line that happens to split into six fields
    with a number fifth is still JSONL."""
    from ndcg_desktop.formats.runs import detect_run_format

    assert detect_run_format(tmp_path / "r.txt", b"{q1} Q0 B 1 5 r\n") == "trec"
    assert detect_run_format(tmp_path / "r.txt", b'{"query_id": "q", "doc_ids": [ 3 ]}\n') == "jsonl"
    assert detect_run_format(tmp_path / "r.txt", b'{"query_id": "q", "doc_ids": [\n') == "jsonl"  # named there
    run = tmp_path / "braces.txt"
    run.write_text("{q1} Q0 B 1 5 r\n{q1} Q0 C 2 4 r\n")
    assert read_run(run).queries.to_pylist() == ["{q1}"]


def test_document_ids_are_made_one_array_letting_each_chunk_go_once_copied() -> None:
    """Issue 28: a run's ID chunks (as pyarrow's reader gives them) become one array equal to their concatenation,
    sliced and empty chunks included; the chunks are handed over and released, never held beside the whole copy."""
    import gc

    from ndcg_desktop.formats.runs import _moved_into_one

    pieces = [pa.array([f"msmarco_doc_{i:02d}_{j}" for j in range(i * 7)], pa.string()) for i in range(12)]
    pieces[3] = pieces[3].slice(2, 9)  # an offset into its buffers
    expected = pa.chunked_array(pieces).combine_chunks()
    pool = pa.default_memory_pool()
    before = pool.bytes_allocated()
    chunks = [pa.array(piece.to_pylist(), pa.string()) for piece in pieces]  # owned only by this list
    held = pool.bytes_allocated() - before
    assert held > 0
    joined = _moved_into_one(chunks)
    assert chunks == []
    gc.collect()
    assert joined.type == pa.string() and joined.equals(expected)
    assert pool.bytes_allocated() - before < held  # the chunks' buffers are gone; the copy is numpy's

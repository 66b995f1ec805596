"""Issue 11's low items in the readers: each refusal or value that was wrong, as the user met it."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.formats.runs import read_run
from ndcg_desktop.formats.texts import iter_documents, read_queries


def _refusal(call) -> str:
    with pytest.raises(InputError) as info:
        call()
    return str(info.value)


def test_non_finite_scores_are_named_as_numbers(write):
    path = write("r.txt", "q1 Q0 A 1 inf s\n")
    overflow = "(infinite, or too large for a floating-point number)"
    assert _refusal(lambda: read_run(path)) == f"{path}:1: score inf is not a finite number {overflow}"
    path = write("r2.txt", "q1 Q0 A 1 3 s\nq1 Q0 B 2 1e400 s\n")  # parses as inf: the message must not only say inf
    assert _refusal(lambda: read_run(path)) == f"{path}:2: score inf is not a finite number {overflow}"


SEPARATES = "which does not separate columns: only spaces and tabs do)"


@pytest.mark.parametrize(
    "char, name",
    [
        ("\x00", "U+0000 (NUL)"),
        ("\x0b", "U+000B (vertical tab)"),
        ("\x0c", "U+000C (form feed)"),
        ("\r", "U+000D (carriage return)"),
        ("\u00a0", "U+00A0 (no-break space)"),
        ("\u3000", "U+3000 (ideographic space)"),
    ],
)
def test_a_wrong_column_count_names_the_invisible_separator(write, char, name):
    # only spaces and tabs separate columns (as trec_eval's own files have them): a line whose columns
    # were split by another character is refused, and the message says which character it holds
    run = write("r.txt", f"q1 Q0 A 1 3 s\nq1 Q0 B 2{char}2 s\n")
    assert _refusal(lambda: read_run(run)) == (
        f"{run}:2: expected 6 columns (query_id Q0 doc_id rank score tag), found 5 (the line holds {name}, {SEPARATES}"
    )
    qrels = write("j.txt", f"q1 0 A 1\nq1 0 B{char}1\n")
    assert _refusal(lambda: read_qrels(qrels)) == (
        f"{qrels}:2: expected 4 columns (query_id iteration doc_id grade), found 3 (the line holds {name}, {SEPARATES}"
    )


def test_csv_line_numbers_count_quoted_line_breaks(write):
    docs = write("d.csv", 'doc_id,text\nA,"two\nlines"\n"B\x00",t\n')
    assert _refusal(lambda: list(iter_documents(docs))).startswith(f"{docs}:4: document ID 'B\\x00'")
    queries = write("q.csv", 'query_id,text\nq1,"a\nb\nc"\n,empty\n')
    assert _refusal(lambda: read_queries(queries)) == f"{queries}:5: empty query ID"
    qrels = write("j.csv", 'query_id,doc_id,grade\n"q1",A,1\n"q\n2",B,1\n')
    assert _refusal(lambda: read_qrels(qrels)).startswith(f"{qrels}:3: query ID 'q\\n2'")


def test_an_unterminated_quote_is_refused_not_merged(write):
    docs = write("d.csv", 'doc_id,text\nA,"open\nB,t\nC,u\n')
    assert "malformed CSV" in _refusal(lambda: list(iter_documents(docs)))
    queries = write("q.csv", 'query_id,text\nq1,"open\nq2,t\n')
    assert "malformed CSV" in _refusal(lambda: read_queries(queries))


@pytest.mark.parametrize(
    "name, text",
    [
        ("j.csv", "query_id,doc_id,grade,grade\nq1,A,1,2\n"),
        ("r.csv", "query_id,doc_id,score,query_id\nq1,A,1,q2\n"),
        ("q.csv", "query_id,text,text\nq1,a,b\n"),
        ("d.csv", "doc_id,text,doc_id\nA,t,B\n"),
    ],
)
def test_a_header_naming_a_column_twice_is_refused(write, name, text):
    path = write(name, text)
    read = {"j": read_qrels, "r": read_run, "q": read_queries, "d": lambda p: list(iter_documents(p))}[name[0]]
    message = _refusal(lambda: read(path))
    assert message.startswith(f"{path}:1: the header names ") and "twice" in message


def test_titles_and_texts_must_be_text(write):
    docs = write("d.jsonl", '{"doc_id": "A", "title": "ok"}\n{"doc_id": "B", "title": {"en": "x"}}\n')
    assert (
        _refusal(lambda: list(iter_documents(docs))) == f"""{docs}:2: "title" must be a string, found '{{"en": "x"}}'"""
    )
    queries = write("q.jsonl", json.dumps({"query_id": "q1", "text": ["a"]}) + "\n")
    assert _refusal(lambda: read_queries(queries)) == f"""{queries}:1: "text" must be a string, found '["a"]'"""


def test_duplicate_json_keys_are_refused(write):
    docs = write("d.jsonl", '{"doc_id": "A", "text": "one", "text": "two"}\n')
    assert _refusal(lambda: list(iter_documents(docs))) == f"{docs}:1: the key 'text' is given twice in one object"


def test_grade_scales_stay_where_every_gain_is_finite():
    assert GradeScale.parse("-100..0") == GradeScale(-100, 0)
    with pytest.raises(InputError, match=r"grades must lie between -100 and 100"):
        GradeScale.parse("1000..1100")  # exponential gain 2^1100 - 1 is inf, and inf / inf is NaN


def test_empty_grade_labels_are_refused(tmp_path):
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["init", str(tmp_path / "p.ndcgproj"), "--labels", "No,,Yes,Perfect"])
    assert (status, err.getvalue()) == (2, "error: grade label 2 is empty; give every grade a label\n")
    assert not (tmp_path / "p.ndcgproj").exists()

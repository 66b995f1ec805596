"""Judgment files: accepted variants, and every refusal naming file and line."""

from __future__ import annotations

import gzip

import pytest

from ndcg_desktop.domain import GradeScale, InputError
from ndcg_desktop.formats.qrels import read_qrels

GOOD = "q1 0 A 3\nq1 0 B 2\nq2 0 C 1\n"


def rows(qrels):
    return sorted(map(tuple, qrels.frame[["query_id", "doc_id", "grade"]].itertuples(index=False)))


EXPECTED = [("q1", "A", 3), ("q1", "B", 2), ("q2", "C", 1)]


@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        "\ufeff" + GOOD,  # UTF-8 BOM
        GOOD.replace("\n", "\r\n"),  # CRLF
        GOOD.replace(" ", "\t"),  # tabs
        GOOD.replace(" ", "   "),  # runs of spaces
        "q1\t0  A 3\nq1 0\tB 2\nq2 0 C 1\n",  # mixed
        GOOD + "\n\n\n",  # trailing blank lines
        GOOD.rstrip("\n"),  # no final newline
    ],
    ids=["plain", "bom", "crlf", "tabs", "spaces", "mixed", "trailing-blank", "no-final-newline"],
)
def test_trec_variants_accepted(write, text):
    assert rows(read_qrels(write("qrels.txt", text))) == EXPECTED


def test_csv_and_tsv(write):
    csv_text = "query_id,doc_id,grade\nq1,A,3\nq1,B,2\nq2,C,1\n"
    assert rows(read_qrels(write("j.csv", csv_text))) == EXPECTED
    assert rows(read_qrels(write("j.tsv", csv_text.replace(",", "\t")))) == EXPECTED
    # Detected from content when the extension says nothing; columns may come in any order.
    assert rows(read_qrels(write("j.txt", "grade,query_id,doc_id\n3,q1,A\n2,q1,B\n1,q2,C\n"))) == EXPECTED
    assert read_qrels(write("j2.txt", csv_text)).source.format == "csv"


def test_gzip_is_transparent(write):
    q = read_qrels(write("qrels.txt.gz", gzip.compress(GOOD.encode())))
    assert rows(q) == EXPECTED
    assert q.source.format == "trec"


def test_identical_repeat_tolerated_and_counted(write):
    q = read_qrels(write("qrels.txt", GOOD + "q1 0 A 3\n"))
    assert rows(q) == EXPECTED and q.repeats == 1


def test_scale_is_respected(write):
    """A -1..4 scale lets -1 into the file; trec_eval reads it as in the pool, not judged (issue 33): kept as read,
    counted, and out of the judged universe scoring reads."""
    q = read_qrels(write("qrels.txt", "q1 0 A -1\nq1 0 B 4\n"), scale=GradeScale(-1, 4))
    as_read = q.frame_as_read()[["query_id", "doc_id", "grade"]].itertuples(index=False)
    assert sorted(map(tuple, as_read)) == [("q1", "A", -1), ("q1", "B", 4)]
    assert rows(q) == [("q1", "B", 4)] and q.unjudged_in_pool == 1


@pytest.mark.parametrize(
    ("name", "content", "line", "fragment"),
    [
        ("qrels.txt", "q1 0 A 3\nq1 0 B\n", 2, "expected 4 columns"),
        ("qrels.txt", "q1 0 A 3\nq1 0 B 2 x\n", 2, "expected 4 columns"),
        ("qrels.txt", "q1 0 A 3\nq1 0 B 2.5\n", 2, "grade '2.5' is not an integer"),
        ("qrels.txt", "q1 0 A 3\nq1 0 B high\n", 2, "grade 'high' is not an integer"),
        ("qrels.txt", "q1 0 A 3\n\nq1 0 B 9\n", 3, "grade 9 is outside the scale 0..3"),
        ("qrels.txt", "q1 0 A 3\nq1 0 B -1\n", 2, "grade -1 is outside the scale 0..3"),
        ("qrels.txt", "q1 0 A 3\nq1 0 B 1\nq1 0 A 2\n", 3, "graded 2 here but 3 at line 1"),
        ("qrels.txt", b"q1 0 A 3\nq1 0 \xff 2\n", 2, "invalid UTF-8"),
        ("j.csv", "query_id,doc_id\nq1,A\n", 1, "missing grade"),
        ("j.csv", "query_id,doc_id,grade\nq1,A,3\nq1,,2\n", 3, "empty document ID"),
        ("j.csv", "query_id,doc_id,grade\nq1,A,3\nq1,B\n", 3, "expected 3 columns"),
        ("j.csv", "query_id,doc_id,grade\nq1,A,x\n", 2, "grade 'x' is not an integer"),
    ],
)
def test_refusals_name_file_and_line(write, name, content, line, fragment):
    path = write(name, content)
    with pytest.raises(InputError) as info:
        read_qrels(path)
    message = str(info.value)
    assert message.startswith(f"{path}:{line}: "), message
    assert fragment in message


@pytest.mark.parametrize(("content", "fragment"), [("", "is empty"), ("\n \n", "is empty")])
def test_empty_file(write, content, fragment):
    path = write("qrels.txt", content)
    with pytest.raises(InputError, match=fragment) as info:
        read_qrels(path)
    assert str(path) in str(info.value)


def test_header_only_csv(write):
    path = write("j.csv", "query_id,doc_id,grade\n")
    with pytest.raises(InputError) as info:
        read_qrels(path)
    assert str(info.value).startswith(f"{path}:1: ")


def test_missing_path_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_qrels(tmp_path / "nope.txt")
    with pytest.raises(InputError, match="is a directory"):
        read_qrels(tmp_path)


def test_real_trec_dl_qrels(data_dir):
    q = read_qrels(data_dir / "trec_dl" / "qrels.dl19-passage.txt.gz")
    assert q.frame["query_id"].nunique() == 43
    assert set(q.frame["grade"].unique()) <= {0, 1, 2, 3}


def test_real_rel_level_needs_its_scale(data_dir):
    path = data_dir / "trec_eval_test" / "qrels.rel_level"
    with pytest.raises(InputError, match=r"qrels.rel_level:\d+: grade (-1|4) is outside the scale 0..3"):
        read_qrels(path)
    assert read_qrels(path, scale=GradeScale(-1, 4)).n_judgments > 3000

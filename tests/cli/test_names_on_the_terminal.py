"""User-given names and file names never reach the terminal raw (escape sequences, line ends, invisibles)."""

from __future__ import annotations

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.status import project_status

RUN = "q1 Q0 D1 1 2 s\nq1 Q0 D2 2 1 s\n"

# (id, run name, the character the refusal names)
BAD_NAMES = [
    pytest.param("\x1b[31mRED", "U+001B", id="escape-sequence"),
    pytest.param("a\nb", "U+000A", id="line-feed"),
    pytest.param("a\rb", "U+000D", id="carriage-return"),
    pytest.param("bm\u200b25", "U+200B", id="zero-width-space"),
    pytest.param("bm25\ufe0f", "U+FE0F", id="variation-selector"),
    pytest.param("bm\U000e002025", "U+E0020", id="tag-space"),
    pytest.param("bm\u316425", "U+3164", id="hangul-filler"),
    pytest.param("bm\u202e52", "U+202E", id="right-to-left-override"),
    pytest.param("bm\t25", "U+0009", id="tab"),
]


@pytest.fixture
def project(tmp_path, capsys):
    path = str(tmp_path / "p.ndcg")
    assert main(["init", path]) == 0
    capsys.readouterr()
    return path


@pytest.mark.parametrize("name, code", BAD_NAMES)
def test_a_run_name_follows_the_id_rule(project, write, capsys, name, code):
    run = write("run.txt", RUN)
    assert main(["import-run", project, str(run), "--name", name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and err.isprintable() is False  # only the final line end
    assert err.startswith("error: run name '") and f" contains {code} " in err
    with Project.open(project, read_only=True) as opened:
        assert opened.runs.all() == []  # nothing written


def test_a_run_name_is_trimmed_like_an_id_and_may_hold_spaces(project, write, capsys):
    run = write("run.txt", RUN)
    assert main(["import-run", project, str(run), "--name", "  bm25 "]) == 0
    assert capsys.readouterr().out.startswith("imported run bm25: 2 documents")
    assert main(["import-run", project, str(run), "--name", "BM25 baseline"]) == 0
    assert capsys.readouterr().out.startswith("imported run BM25 baseline: 2 documents")
    assert main(["import-run", project, str(run), "--name", "BM25\u00a0baseline"]) == 2
    assert capsys.readouterr().err.startswith("error: run name 'BM25\\xa0baseline' contains U+00A0 ")


# (id, file name, as the terminal must show it)
FILE_NAMES = [
    pytest.param("e\x1b[31mvil\nfake.txt", "e\\x1b[31mvil\\nfake.txt", id="escape-and-line-feed"),
    pytest.param("tab\there.txt", "tab\\there.txt", id="tab"),
    pytest.param("zero\u200bwidth.txt", "zero\\u200bwidth.txt", id="zero-width-space"),
    pytest.param("bell\x07.txt", "bell\\x07.txt", id="bell"),
]


@pytest.mark.parametrize("file_name, shown", FILE_NAMES)
def test_a_file_name_in_an_error_is_escaped_on_one_line(project, write, tmp_path, capsys, file_name, shown):
    bad = write(file_name, "q1 Q0 D1 1 2 s\nq1 Q0 D1\x00 2 1 s\n")
    assert main(["import-run", project, str(bad), "--name", "r"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path}/{shown}:2: document ID 'D1\\x00' contains U+0000")
    assert err.count("\n") == 1 and err.endswith("\n") and err[:-1].isprintable()


@pytest.mark.parametrize("file_name, shown", FILE_NAMES)
def test_status_and_import_messages_escape_file_names(project, write, tmp_path, capsys, file_name, shown):
    run = write(file_name, RUN)
    assert main(["import-run", project, str(run), "--name", "sys"]) == 0
    capsys.readouterr()
    assert main(["status", project]) == 0
    out = capsys.readouterr().out
    line = next(text for text in out.splitlines() if text.startswith("  sys  "))
    assert line == f"  sys  {shown} (trec, 2 documents, 1 query, ties docid-desc)"  # status names the file only
    assert line.isprintable()
    assert main(["score", "--qrels", str(write("q.txt", "q1 0 D1 1\nq1 0 D2 0\n")), "--run", str(run)]) == 0
    score_out = capsys.readouterr().out
    assert f"run        {tmp_path}/{shown} (trec, " in score_out
    assert "\x1b" not in score_out and "\u200b" not in score_out


def test_a_stored_name_written_by_an_older_version_is_escaped_in_status(project, write, capsys):
    """Names stored before the rule (or by another tool) are still shown escaped by the status table."""
    from ndcg_desktop.cli.status import _status_text

    run = write("run.txt", RUN)
    assert main(["import-run", project, str(run), "--name", "old"]) == 0
    with Project.open(project, read_only=True) as opened:
        status = project_status(opened)
    status["runs"][0]["name"] = "\x1b[31mRED\nfake"
    status["labels"][0] = "Not\x1b[2J relevant"
    text = _status_text(status)
    assert "  \\x1b[31mRED\\nfake  run.txt (trec, 2 documents" in text
    assert ": Not\\x1b[2J relevant, " in text and "\x1b" not in text


def test_an_annotator_name_follows_the_id_rule(project, monkeypatch, capsys):
    monkeypatch.setenv("NDCG_USER", "ann\x1b[31m")
    assert main(["freeze", project]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: user name (NDCG_USER or the login name) 'ann\\x1b[31m' contains U+001B ")
    assert err.count("\n") == 1

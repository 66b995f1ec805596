"""A project whose tables or stored values were changed by another program: one line naming the file and what does
not read back, never a traceback (found by trying such files as an attacker would)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.demo import build_demo
from tests.helpers import tamper

ALTERED = "cannot be read as ndcg-desktop wrote it: "
CHANGED = "pool version 1 has changed since it was frozen: "
SCORE = ["score", "--run-name", "bm25", "--unjudged", "zero"]

# (what another program did, the command that reads it, what the one line says)
EDITS = [
    ("DROP TABLE evaluations", ["status"], ALTERED + "its tables (SQLite: no such table: evaluations)"),
    ("DELETE FROM meta WHERE key = 'scale'", ["status"], ALTERED + "its setting 'scale' (missing)"),
    ("UPDATE meta SET value = 'x..y' WHERE key = 'scale'", ["status"], ALTERED + "its grade scale (grade scale must"),
    ("UPDATE meta SET value = CAST(x'5b22ff225d' AS TEXT) WHERE key = 'labels'", ["status"], "decode to UTF-8"),
    ("UPDATE runs SET reading = '{bad'", SCORE, ALTERED + "runs.reading of row 1 is not JSON"),
    ("UPDATE runs SET rows = 'abc'", ["status"], ALTERED + "runs.rows of row 1 holds the text 'abc' where a number"),
    (
        "UPDATE pool_versions SET labels = '{bad'",
        ["export-qrels"],
        ALTERED + "pool_versions.labels of row 1 is not JSON",
    ),
    (
        "UPDATE pool_versions SET team = '{bad' WHERE version = 1",
        SCORE,
        ALTERED + "pool_versions.team of row 1 is not JSON",
    ),
    ("UPDATE pool_versions SET team = '[]' WHERE version = 1", ["export-qrels"], CHANGED + "its recorded team"),
    ("UPDATE judgments SET updated_at = CAST(x'ff' AS TEXT) WHERE version = 1", ["export-qrels"], "decode to UTF-8"),
    ("ALTER TABLE runs RENAME COLUMN reading TO readingx", ["status"], "(SQLite: no such column: reading)"),
]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    return build_demo(tmp_path_factory.mktemp("demo") / "demo.ndcgproj")


def altered_copy(demo: Path, folder: Path, statement: str) -> Path:
    """A copy of the demo changed by ``statement`` as the sqlite3 shell would, its triggers dropped and recreated."""
    path = folder / "altered.ndcgproj"
    shutil.copyfile(demo, path)
    tamper(path, statement, triggers=None)
    return path


@pytest.mark.parametrize(("statement", "command", "said"), EDITS, ids=[e[0][:48] for e in EDITS])
def test_a_value_that_does_not_read_back_is_one_line_naming_the_project(
    demo, tmp_path, capsys, statement, command, said
):
    path = altered_copy(demo, tmp_path, statement)
    where = ["--project", str(path)] if command[0] == "score" else [str(path)]
    extra = ["-o", str(tmp_path / "out.qrels")] if command == ["export-qrels"] else []
    code = main([command[0], *where, *command[1:], *extra])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"error: {path}: ") and said in err and len(err.strip().splitlines()) <= 2


def test_status_names_what_changed_in_a_frozen_version_its_ratings_included(demo, tmp_path, capsys):
    """status proves each frozen version as every use does (judgments and ratings), and says what changed."""
    path = altered_copy(demo, tmp_path, "UPDATE ratings SET grade = 0 WHERE version = 1 AND grade = 3")
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert "v1  frozen " in out and "CHANGED SINCE FROZEN: the ratings of annotator" in out


FIRST_OF_DRAFT = (
    "WHERE version = 2 AND (query_id, doc_id) = (SELECT query_id, doc_id FROM judgments WHERE version = 2 AND "
    "grade IS NOT NULL ORDER BY 1, 2 LIMIT 1)"
)
DRAFT_EDITS = [
    (f"UPDATE judgments SET grade = 2.5 {FIRST_OF_DRAFT}", ["adjudicate", "{p}", "--rule", "median"]),
    (
        f"UPDATE judgments SET grade = 2.5 {FIRST_OF_DRAFT}",
        ["assign", "{p}", "--annotators", "ana,ben", "--out", "{w}"],
    ),
    (f"UPDATE judgments SET grade = 'x' {FIRST_OF_DRAFT}", ["import-qrels", "{p}", "{q}", "--annotator", "ben"]),
    (f"UPDATE judgments SET doc_id = x'ff' {FIRST_OF_DRAFT}", ["send-for-judging", "{p}", "--run-name", "bm25"]),
]


@pytest.mark.parametrize(("statement", "command"), DRAFT_EDITS, ids=[f"{e[1][0]}-{e[0][33:45]}" for e in DRAFT_EDITS])
def test_a_draft_edited_by_hand_into_what_no_reader_accepts_is_one_line(demo, tmp_path, capsys, statement, command):
    """A draft is editable through raw SQL (only frozen versions are guarded); a command reading a grade that is no
    whole number or an ID that is not text says so, naming the project and the version, and writes nothing."""
    path = altered_copy(demo, tmp_path, statement)
    (tmp_path / "a.qrels").write_text("q1 0 x 1\n")
    fill = {"{p}": str(path), "{w}": str(tmp_path / "work"), "{q}": str(tmp_path / "a.qrels")}
    before = path.read_bytes()
    assert main([fill.get(arg, arg) for arg in command]) == 2
    err = capsys.readouterr().err
    # refused when the file opens, naming the field (store/fields.py, issue 33 item 9)
    assert err.startswith(f"error: {path}: {ALTERED}judgments.") and "of the row keyed 2, " in err
    assert "Traceback" not in err
    assert path.read_bytes() == before and not (tmp_path / "work").exists()

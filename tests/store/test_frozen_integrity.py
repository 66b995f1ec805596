"""Rule 15 of docs/evaluation-contract.md: a frozen version proves it is unchanged (issue 11, item 1).

Its content hash is recomputed whenever it is used (scoring, export, a new draft, the window
loading it) and compared with the one recorded at freezing; a file whose protection triggers are
missing or altered is refused for writing. Every tamper here goes through a plain sqlite3
connection, as another program (the ``sqlite3`` shell) would.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.formats.cells import _PY_BAD
from ndcg_desktop.store import FrozenVersionChanged, Project, ProtectionAltered, pool_hash
from ndcg_desktop.tasks.export import write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.status import project_status
from tests.helpers import FROZEN_JUDGMENTS_GUARD, sql_rows, tamper

TRIGGER = FROZEN_JUDGMENTS_GUARD


def trigger_sql(path: Path, name: str) -> str:
    return str(sql_rows(path, "SELECT sql FROM sqlite_master WHERE name = ?", name)[0][0])


@pytest.fixture
def frozen(tmp_path) -> tuple[Path, str]:
    """A project whose version 1 is frozen: q1 A=3 B=2 C=1, q2 D=1. Returns its path and hash."""
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 2\nq1 0 C 1\nq2 0 D 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 A 1 3 s\nq1 Q0 B 2 2 s\nq2 Q0 D 1 1 s\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        project.runs.import_run(tmp_path / "r.txt", name="bm25", annotator="ann")
        version = freeze_draft(project, annotator="ann")
    assert version.hash is not None
    return path, version.hash


def changed_hash(path: Path) -> str:
    """The hash version 1's rows have now, computed independently of the store's verification."""
    con = sqlite3.connect(path)
    try:
        frame = pd.read_sql_query("SELECT query_id, doc_id, grade FROM judgments WHERE version = 1", con)
        low, high = con.execute("SELECT scale_low, scale_high FROM pool_versions WHERE version = 1").fetchone()
    finally:
        con.close()
    from ndcg_desktop.domain import GradeScale

    return pool_hash(frame, GradeScale(low, high))


def assert_every_use_refused(path: Path, recorded: str, now: str, tmp_path: Path, capsys) -> None:
    """Scoring, export, a new draft, the window's listing: each refuses, naming v1 and both hashes."""
    assert recorded != now
    with Project.open(path, read_only=True) as project:
        for use in (
            lambda: project.pools.qrels(1),
            lambda: project.pools.qrels(),
            lambda: project.pools.frozen_version(None),
            lambda: write_qrels(project, tmp_path / "out.qrels", version=1),
            lambda: project.pools.query_progress(1),
        ):
            with pytest.raises(FrozenVersionChanged) as refused:
                use()
            message = str(refused.value)
            assert "pool version 1" in message
            assert recorded in message and now in message
            assert str(path) in message
    assert not (tmp_path / "out.qrels").exists()

    for argv in (
        ["score", "--project", str(path), "--run-name", "bm25", "--unjudged", "zero"],
        ["export-qrels", str(path), "-o", str(tmp_path / "out.qrels")],
        ["new-draft", str(path)],
    ):
        capsys.readouterr()
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: ")
        assert "pool version 1" in err and recorded in err and now in err
    assert not (tmp_path / "out.qrels").exists()


def test_an_intact_frozen_version_is_used_normally(frozen, tmp_path, capsys):
    path, recorded = frozen
    assert changed_hash(path) == recorded  # the independent computation agrees on an intact file
    with Project.open(path) as project:
        assert project.pools.qrels(1).frame["grade"].tolist() == [3, 2, 1, 1]
        write_qrels(project, tmp_path / "out.qrels", version=1)
        assert len(project.pools.query_progress(1)) == 2
        assert project.pools.new_draft_from(1, annotator="ann").version == 2
    assert main(["score", "--project", str(path), "--run-name", "bm25", "--unjudged", "zero"]) == 0


def test_trigger_dropped_and_grade_updated_is_refused_for_writing_and_every_use(frozen, tmp_path, capsys):
    path, recorded = frozen
    tamper(path, "UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'", restore=False)
    now = changed_hash(path)

    with pytest.raises(ProtectionAltered) as refused:
        Project.open(path)
    message = str(refused.value)
    assert str(path) in message and TRIGGER in message and "read-only" in message
    assert isinstance(refused.value, InputError)

    with Project.open(path, read_only=True) as project:  # read-only use may still report
        assert project.protection_problems() == [f"trigger {TRIGGER} is missing"]
        status = project_status(project)
        assert status["protection"] == [f"trigger {TRIGGER} is missing"]
        assert [v["intact"] for v in status["pool_versions"]] == [False]
    assert_every_use_refused(path, recorded, now, tmp_path, capsys)


def test_trigger_dropped_grade_updated_and_trigger_recreated_is_caught_by_the_hash(frozen, tmp_path, capsys):
    """The triggers look intact again; only recomputing the hash can tell."""
    path, recorded = frozen
    tamper(path, "UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'")
    now = changed_hash(path)
    with Project.open(path) as project:  # writable: the protection is back
        assert project.protection_problems() == []
        with pytest.raises(FrozenVersionChanged, match=recorded):
            project.pools.new_draft_from(1, annotator="ann")
        assert project.pools.draft() is None  # nothing was written
    assert_every_use_refused(path, recorded, now, tmp_path, capsys)


@pytest.mark.parametrize(
    "statements",
    [
        ("INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, 'q2', 'E', 3)",),
        ("DELETE FROM judgments WHERE version = 1 AND doc_id = 'C'",),
        ("UPDATE judgments SET doc_id = 'Z' WHERE version = 1 AND doc_id = 'C'",),
        ("UPDATE judgments SET grade = NULL WHERE version = 1 AND doc_id = 'C'",),
    ],
    ids=["row-inserted", "row-deleted", "id-changed", "grade-cleared"],
)
def test_a_row_inserted_or_deleted_in_a_frozen_version_is_refused(frozen, tmp_path, capsys, statements):
    path, recorded = frozen
    tamper(
        path,
        *statements,
        triggers=("frozen_judgment_not_updated", "frozen_judgment_not_deleted", "frozen_judgment_not_added"),
    )
    with Project.open(path, read_only=True) as project:
        with pytest.raises(FrozenVersionChanged) as refused:
            project.pools.qrels(1)
    assert recorded in str(refused.value)
    assert "pool version 1" in str(refused.value)


def test_a_wal_from_a_modified_copy_beside_a_byte_identical_file_is_refused(frozen, tmp_path, capsys):
    """The main file is byte for byte the frozen one; the change lives in a -wal put beside it."""
    path, recorded = frozen
    original = path.read_bytes()
    other = tmp_path / "copy"
    other.mkdir()
    copy = other / path.name
    shutil.copy(path, copy)
    con = sqlite3.connect(copy, isolation_level=None)
    try:
        saved = trigger_sql(copy, TRIGGER)
        con.execute(f"DROP TRIGGER {TRIGGER}")
        con.execute("UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'")
        con.execute(saved)
        shutil.copy(Path(f"{copy}-wal"), Path(f"{path}-wal"))  # while the copy's WAL is not checkpointed
    finally:
        con.close()
    assert path.read_bytes() == original  # opening it at all would checkpoint the WAL into it
    now = changed_hash(copy)
    assert_every_use_refused(path, recorded, now, tmp_path, capsys)


@pytest.mark.parametrize(
    "sql",
    [
        f"DROP TRIGGER {TRIGGER}",
        "DROP TRIGGER audit_log_not_deleted",
        "CREATE TRIGGER extra AFTER INSERT ON judgments BEGIN SELECT 1; END",
    ],
    ids=["frozen-trigger-dropped", "audit-trigger-dropped", "trigger-added"],
)
def test_a_missing_or_foreign_trigger_refuses_writing(frozen, sql):
    path, _ = frozen
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(sql)
    con.close()
    with pytest.raises(ProtectionAltered):
        Project.open(path)
    with Project.open(path, read_only=True) as project:
        assert len(project.protection_problems()) == 1


def test_an_altered_trigger_refuses_writing(frozen):
    """Same name, different body: a trigger that no longer protects anything."""
    path, _ = frozen
    con = sqlite3.connect(path, isolation_level=None)
    con.execute(f"DROP TRIGGER {TRIGGER}")
    con.execute(f"CREATE TRIGGER {TRIGGER} BEFORE UPDATE ON judgments WHEN 0 BEGIN SELECT 1; END")
    con.close()
    with pytest.raises(ProtectionAltered, match=f"trigger {TRIGGER} is altered"):
        Project.open(path)


def test_a_change_made_while_the_project_is_open_is_caught_at_the_next_use(frozen):
    """Verification is remembered only until another connection commits (PRAGMA data_version)."""
    path, recorded = frozen
    with Project.open(path, read_only=True) as project:
        assert project.pools.qrels(1).frame["grade"].tolist() == [3, 2, 1, 1]
        tamper(path, "UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'")
        with pytest.raises(FrozenVersionChanged, match=recorded):
            project.pools.qrels(1)


@pytest.mark.parametrize("read_only", [False, True])
def test_a_check_remembered_on_one_threads_connection_never_vouches_for_another_threads(frozen, read_only):
    """Each thread has its own connection, and data_version counts per connection: a fresh worker connection
    opened after a tamper starts at the value the window's connection had when it verified. The remembered check
    is stamped by the window's connection, which sees every other connection's commit."""
    import threading

    path, recorded = frozen
    with Project.open(path, read_only=read_only) as project:
        assert project.pools.frozen_version(1).hash == recorded  # verified on this thread's connection
        tamper(path, "UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'")
        outcome: list[object] = []

        def worker() -> None:
            try:
                outcome.append(project.pools.frozen_version(1))
            except FrozenVersionChanged as exc:
                outcome.append(exc)

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join(30)
        assert isinstance(outcome[0], FrozenVersionChanged) and recorded in str(outcome[0])
        with pytest.raises(FrozenVersionChanged, match=recorded):  # and on the window's thread too
            project.pools.frozen_version(1)


# Any IDs rule 14 allows (freezing refuses the others, even in a draft edited through raw SQL).
ids = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=4
).filter(lambda text: _PY_BAD.search(text) is None)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(ids, ids, st.integers(0, 3)), min_size=1, max_size=30, unique_by=lambda t: (t[0], t[1])))
def test_the_check_reads_in_the_order_the_freeze_hashed(tmp_path_factory, triples):
    """SQLite's byte order equals Python's code-point order on any IDs (the check sorts in SQL, freezing in pandas)."""
    path = tmp_path_factory.mktemp("order") / "p.ndcgproj"
    frame = pd.DataFrame(triples, columns=["query_id", "doc_id", "grade"])
    with Project.create(path, annotator="ann") as project:
        project.judgments.add_items(frame[["query_id", "doc_id"]], annotator="ann")
        for q, d, g in triples:
            project.judgments.set_grade(q, d, g, annotator="ann")
        version = freeze_draft(project, annotator="ann")
        assert version.hash == pool_hash(frame, version.scale)
        assert project.pools.current_hash(1, version.scale) == version.hash


def test_status_reports_altered_protection_and_a_changed_version(frozen, capsys):
    """Read-only use still reports: `ndcg status` names the missing trigger and the changed version."""
    path, recorded = frozen
    tamper(path, "UPDATE judgments SET grade = 0 WHERE version = 1 AND doc_id = 'A'", restore=False)
    capsys.readouterr()
    assert main(["status", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"WARNING    protection triggers not intact (trigger {TRIGGER} is missing)" in out
    assert f"sha256 {recorded[:12]}… CHANGED SINCE FROZEN" in out


def test_rows_merged_through_a_tab_or_a_line_break_are_refused_though_the_text_hashes_the_same(frozen):
    """Two judgments replaced by one whose document ID holds ``TAB grade LF query TAB``: the hashed text, and so the
    hash, is unchanged; the text no longer has one line per judgment, which no allowed ID can cause. The same for
    an annotator's ratings."""
    path, recorded = frozen
    merged = "'B' || char(9) || '2' || char(10) || 'q1' || char(9) || 'C'"
    tamper(
        path,
        "DELETE FROM judgments WHERE version = 1 AND doc_id IN ('B', 'C')",
        f"INSERT INTO judgments (version, query_id, doc_id, grade, annotator, note, updated_at) "
        f"VALUES (1, 'q1', {merged}, 1, 'x', '', 't')",
        triggers=("frozen_judgment_not_deleted", "frozen_judgment_not_added"),
    )
    assert changed_hash(path) == recorded  # the attack works on the text alone
    with Project.open(path, read_only=True) as project:
        with pytest.raises(FrozenVersionChanged, match="a stored ID now holds a tab or a line break"):
            project.pools.frozen_version(1)
        with pytest.raises(FrozenVersionChanged, match="a stored ID now holds a tab or a line break"):
            project.pools.qrels(1)
        assert project_status(project)["pool_versions"][0]["intact"] is False


def test_ratings_merged_through_a_tab_or_a_line_break_are_refused(frozen):
    path, _ = frozen
    merged = "'B' || char(9) || '2' || char(10) || 'q1' || char(9) || 'C'"
    tamper(
        path,
        "DELETE FROM ratings WHERE version = 1 AND doc_id IN ('B', 'C')",
        "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
        f"VALUES (1, 'q1', {merged}, 'import:q.txt', 1, '', 't')",
        triggers=("frozen_rating_not_deleted", "frozen_rating_not_added"),
    )
    with Project.open(path, read_only=True) as project:
        with pytest.raises(FrozenVersionChanged, match="import:q.txt .* they are now 3 ratings with sha256 none: a"):
            project.pools.qrels(1)


DRAFT_EDITS = [
    ("UPDATE judgments SET grade = 99 WHERE doc_id = 'A'", "document 'A' for query 'q1' is graded 99, outside"),
    # a grade not stored as a number is refused when the file opens (store/fields.py, issue 33 item 9)
    (
        "UPDATE judgments SET grade = 2.5 WHERE doc_id = 'A'",
        "judgments.grade of the row keyed 1, 'q1', 'A' holds the real 2.5",
    ),
    (
        "UPDATE judgments SET grade = 'abc' WHERE doc_id = 'A'",
        "judgments.grade of the row keyed 1, 'q1', 'A' holds the text 'abc'",
    ),
    ("UPDATE judgments SET doc_id = 'A x' WHERE doc_id = 'A'", "document ID 'A x' contains"),
    ("UPDATE judgments SET doc_id = ' A' WHERE doc_id = 'A'", "a document ID has whitespace around it"),
    ("UPDATE judgments SET doc_id = '' WHERE doc_id = 'A'", "empty document ID"),
    ("UPDATE judgments SET query_id = 'q' || char(8203) || '1' WHERE doc_id = 'A'", "query ID 'q\\u200b1' contains"),
    ("UPDATE judgments SET doc_id = 'A' || char(10) || 'x' WHERE doc_id = 'A'", "holds a tab or a line break"),
    ("UPDATE ratings SET grade = 7 WHERE doc_id = 'B'", "rated document 'B' for query 'q1' 7, not a whole number on"),
    ("UPDATE ratings SET grade = 1.5 WHERE doc_id = 'B'", "ratings.grade of the row keyed 1, 'q1', 'B', "),
]


@pytest.mark.parametrize(("edit", "message"), DRAFT_EDITS, ids=[m for _, m in DRAFT_EDITS])
def test_freezing_refuses_a_draft_edited_into_what_no_reader_accepts(tmp_path, capsys, edit, message):
    """A draft stays editable through raw SQL; freezing reads its items back as they will be scored and refuses
    grades off the scale or not whole, and IDs that break rule 14, naming the item; the draft stays a draft."""
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 2\nq2 0 D 1\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute(edit)
    finally:
        con.close()
    assert main(["freeze", str(path)]) == 2
    err = capsys.readouterr().err
    if ".grade of the row keyed" in message:  # refused when the file opens, before anything is read
        assert f"{path}: cannot be read as ndcg-desktop wrote it: " in err and "Traceback" not in err
        with pytest.raises(InputError, match=re.escape(message)):
            Project.open(path)
        return
    assert "draft version 1 cannot be frozen: " in err and message in err and "Traceback" not in err
    with Project.open(path, read_only=True) as project:
        assert [v.state for v in project.pools.versions()] == ["draft"]

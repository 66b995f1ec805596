"""The project file under stress: crashes, a second process, raw SQL, bad files, failed imports.

Issue 3 asks that annotators' work is never lost or silently changed: a grade is on disk when
``set_grade`` returns, a frozen pool cannot change whoever writes to the file, a file that is not
a project is refused untouched, and an import that fails or is cancelled leaves nothing behind.
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

import ndcg_desktop.store.core as core_module
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store import Cancelled, Project, ProjectInUse, pool_hash
from ndcg_desktop.store.schema import SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft

REPO = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and flock are POSIX")

# --------------------------------------------------------------------------------------------
# helpers


def child_env() -> dict[str, str]:
    path = os.environ.get("PYTHONPATH")
    return {
        **os.environ,
        "PYTHONPATH": str(REPO) + (os.pathsep + path if path else ""),
        "NDCG_USER": "child",
        "PYTHONUNBUFFERED": "1",
    }


def make_project(path: Path, *, queries: int = 4, docs: int = 5, grade: bool = False) -> list[tuple[str, str]]:
    """A project whose draft holds queries x docs items, ungraded unless ``grade``."""
    items = [(f"q{q}", f"d{q}-{d}") for q in range(queries) for d in range(docs)]
    with Project.create(path, annotator="maker") as project:
        project.judgments.add_items(pd.DataFrame(items, columns=["query_id", "doc_id"]), annotator="maker")
        if grade:
            for i, (q, d) in enumerate(items):
                project.judgments.set_grade(q, d, i % 4, annotator="maker")
    return items


def raw(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A plain SQLite connection, as any other program would open the file."""
    if read_only:
        return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None)
    return sqlite3.connect(path, isolation_level=None)


def dump(path: Path) -> list[str]:
    """Every table's content and the schema, as SQL text: equal dumps mean an identical project."""
    con = raw(path, read_only=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


def integrity(path: Path) -> list[str]:
    con = raw(path)
    try:
        return [row[0] for row in con.execute("PRAGMA integrity_check")]
    finally:
        con.close()


class Child:
    """A Python child process running ``script``; its stdout lines are collected by a thread."""

    def __init__(self, script: Path, *args: str, stdin: int | None = subprocess.DEVNULL) -> None:
        self.stderr_path = script.with_suffix(f".{time.monotonic_ns()}.err")
        self._stderr = open(self.stderr_path, "wb")  # noqa: SIM115 - closed in finish()
        self.proc = subprocess.Popen(
            [sys.executable, str(script), *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=child_env(),
            cwd=REPO,
        )
        self.lines: list[str] = []  # complete lines only: a line is written and flushed after the fact
        self._got = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw_line in self.proc.stdout:
            if raw_line.endswith(b"\n"):
                with self._got:
                    self.lines.append(raw_line.decode().rstrip("\n"))
                    self._got.notify_all()
        with self._got:
            self._got.notify_all()

    def wait_for(self, line: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        with self._got:
            while line not in self.lines:
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not self._reader.is_alive()):
                    self.finish()
                    raise AssertionError(f"child never printed {line!r}; stderr:\n{self.errors()}")
                self._got.wait(min(left, 0.1))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.finish()

    def finish(self, timeout: float = 30.0) -> int:
        code = self.proc.wait(timeout)
        self._reader.join(timeout)
        self._stderr.close()
        return code

    def errors(self) -> str:
        return self.stderr_path.read_text(errors="replace")


# --------------------------------------------------------------------------------------------
# a child that is killed while grading

GRADER = """
import random, sys
from ndcg_desktop.store import Project

path, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
project = Project.open(path)
items = project.pools.pool_items(project.pools.draft().version)
todo = items[items["grade"].isna()]
ungraded = list(zip(todo["query_id"], todo["doc_id"]))
everything = list(zip(items["query_id"], items["doc_id"]))
rng.shuffle(ungraded)
out = sys.stdout
out.write("ready\\n")
out.flush()
step = 0
while True:
    # first every ungraded item, then regrades (and a few clears) at random, until killed
    q, d = ungraded[step] if step < len(ungraded) else rng.choice(everything)
    grade = rng.choice([0, 1, 2, 3, 0, 1, 2, 3, None])
    text = "-" if grade is None else str(grade)
    out.write(f"begin {q} {d} {text}\\n")
    out.flush()
    project.judgments.set_grade(q, d, grade, annotator="maker")
    out.write(f"done {q} {d} {text}\\n")  # only now has the call returned
    out.flush()
    step += 1
"""


def parse_calls(lines: list[str]) -> tuple[list[tuple[str, str, int | None]], tuple[str, str, int | None] | None]:
    """The calls that returned, in order, and the one that had begun but not returned (if any)."""
    done: list[tuple[str, str, int | None]] = []
    in_flight = None
    for line in lines:
        if line == "ready":
            continue
        kind, q, d, text = line.split(" ")
        call = (q, d, None if text == "-" else int(text))
        if kind == "begin":
            in_flight = call
        elif kind == "done":
            assert call == in_flight, f"child printed done without begin: {line}"
            done.append(call)
            in_flight = None
    return done, in_flight


@pytest.mark.slow  # SIGKILL rounds: about 10 s
@posix_only
def test_grades_survive_sigkill(tmp_path):
    """Kill a grading child at random points: every grade whose call returned is on disk."""
    path = tmp_path / "crash.ndcgproj"
    items = make_project(path, queries=10, docs=30)
    script = tmp_path / "grader.py"
    script.write_text(GRADER)
    seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    expected: dict[tuple[str, str], int | None] = dict.fromkeys(items)
    audited = 0  # 'grade' rows in the audit log so far
    returned_total = 0
    for round_number in range(5):
        where = f"seed {seed}, round {round_number}"
        child = Child(script, str(path), str(rng.randrange(2**32)))
        if round_number == 0:
            # once at a random moment from the start: while importing, opening or grading
            time.sleep(rng.uniform(0.0, 0.8))
        else:
            child.wait_for("ready")
            time.sleep(rng.uniform(0.02, 0.5))
        child.kill()
        assert child.proc.returncode == -signal.SIGKILL, f"{where}: the child ended by itself:\n{child.errors()}"
        returned, in_flight = parse_calls(child.lines)
        returned_total += len(returned)

        assert integrity(path) == ["ok"], where
        con = raw(path)
        try:
            current = {
                (q, d): g for q, d, g in con.execute("SELECT query_id, doc_id, grade FROM judgments WHERE version = 1")
            }
            log = con.execute(
                "SELECT query_id, doc_id, old_grade, new_grade FROM audit_log WHERE action = 'grade' ORDER BY id"
            ).fetchall()
        finally:
            con.close()

        # the audit log holds exactly the calls that returned, in order, plus at most the one in flight
        new_rows = [(q, d, new) for q, d, _old, new in log[audited:]]
        committed_in_flight = len(new_rows) - len(returned)
        assert committed_in_flight in ((0, 1) if in_flight else (0,)), f"{where}: {len(new_rows)} new audit rows"
        assert new_rows[: len(returned)] == returned, where
        for q, d, grade in returned:
            expected[(q, d)] = grade
        if committed_in_flight:
            assert new_rows[-1] == in_flight, where
            expected[in_flight[:2]] = in_flight[2]
        audited = len(log)
        print(f"{where}: {len(returned)} grades returned, in flight: {in_flight}, committed: {committed_in_flight}")

        # every grade whose call returned is there, with its value
        assert current == expected, where

        # the audit trail is one consistent chain per item, ending at the item's current grade
        last: dict[tuple[str, str], int | None] = dict.fromkeys(items)
        for q, d, old, new in log:
            assert old == last[(q, d)], f"{where}: audit row for {q}/{d} says old {old}, was {last[(q, d)]}"
            last[(q, d)] = new
        assert last == current, where

        # and the project opens for writing again: the dead child's lock is gone
        with Project.open(path) as project:
            frame = project.pools.pool_items(1)
            seen = {
                (q, d): (None if pd.isna(g) else int(g))
                for q, d, g in frame[["query_id", "doc_id", "grade"]].itertuples(index=False)
            }
            assert seen == current, where
    assert returned_total > 20, f"seed {seed}: the children hardly graded anything ({returned_total} calls)"


# --------------------------------------------------------------------------------------------
# a second process

HOLDER = """
import sys
from ndcg_desktop.store import Project

project = Project.open(sys.argv[1])
project.judgments.set_grade("q0", "d0-0", 3, annotator="maker")
print("open", flush=True)
sys.stdin.read()  # hold the project until the parent closes our stdin (or kills us)
project.close()
"""


@posix_only
@pytest.mark.parametrize("ending", ["exit", "sigkill"])
def test_second_writer_is_refused_while_the_first_holds_the_project(tmp_path, ending):
    path = tmp_path / "shared.ndcgproj"
    make_project(path)
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    child = Child(script, str(path), stdin=subprocess.PIPE)
    try:
        child.wait_for("open")
        before = dump(path)

        with pytest.raises(ProjectInUse) as refused:
            Project.open(path)
        assert isinstance(refused.value, InputError)
        assert str(refused.value) == (
            f"{path}: is open in another ndcg-desktop window or process; close it there, or open it read-only"
        )
        assert dump(path) == before  # refused without touching anything

        with Project.open(path, read_only=True) as viewer:
            items = viewer.pools.pool_items(1)
            graded = items[items["doc_id"] == "d0-0"]["grade"].tolist()
            assert graded == [3]  # the holder's grade is visible
            with pytest.raises(InputError, match="read-only"):
                viewer.judgments.set_grade("q0", "d0-1", 1, annotator="maker")
        assert dump(path) == before
    finally:
        if ending == "exit":
            assert child.proc.stdin is not None
            child.proc.stdin.close()
            assert child.finish() == 0, child.errors()
        else:
            child.kill()

    with Project.open(path) as project:  # the lock went with the process
        project.judgments.set_grade("q0", "d0-1", 1, annotator="maker")
        assert project.pools.pool_items(1, "q0")["grade"].tolist()[:2] == [3, 1]


def test_second_writer_in_the_same_process_is_refused(tmp_path):
    path = tmp_path / "twice.ndcgproj"
    make_project(path)
    with Project.open(path):
        with pytest.raises(ProjectInUse):
            Project.open(path)
        with Project.open(path, read_only=True) as viewer:
            assert len(viewer.pools.pool_items(1)) == 20
    with Project.open(path):
        pass


# --------------------------------------------------------------------------------------------
# frozen pools, whoever writes to the file


@pytest.fixture
def frozen_project(tmp_path) -> Path:
    """Version 1 frozen (q0: 5 graded items), version 2 a draft copied from it plus one new item."""
    path = tmp_path / "frozen.ndcgproj"
    make_project(path, queries=1, grade=True)
    with Project.open(path) as project:
        frozen = freeze_draft(project, annotator="maker")
        assert frozen.version == 1 and frozen.frozen
        project.pools.new_draft_from(1, annotator="maker")
        project.judgments.add_items(pd.DataFrame({"query_id": ["q0"], "doc_id": ["new"]}), annotator="maker")
    return path


LABELS = '\'["a", "b", "c", "d"]\''
FROZEN_WRITES = {
    "grade": "UPDATE judgments SET grade = 0 WHERE version = 1",
    "note": "UPDATE judgments SET note = 'changed' WHERE version = 1 AND doc_id = 'd0-1'",
    "move-out": "UPDATE judgments SET version = 2, doc_id = 'moved' WHERE version = 1 AND doc_id = 'd0-1'",
    "move-in": "UPDATE judgments SET version = 1 WHERE version = 2 AND doc_id = 'new'",
    "delete-judgment": "DELETE FROM judgments WHERE version = 1 AND doc_id = 'd0-1'",
    "delete-judgments": "DELETE FROM judgments",
    "insert-judgment": "INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, 'q0', 'extra', 3)",
    "replace-judgment": "INSERT OR REPLACE INTO judgments (version, query_id, doc_id, grade) "
    "VALUES (1, 'q0', 'd0-1', 0)",
    "upsert-judgment": "INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, 'q0', 'd0-1', 0) "
    "ON CONFLICT DO UPDATE SET grade = excluded.grade",
    "unfreeze": "UPDATE pool_versions SET state = 'draft' WHERE version = 1",
    "rehash": "UPDATE pool_versions SET hash = 'forged' WHERE version = 1",
    "rescale": "UPDATE pool_versions SET scale_high = 9 WHERE version = 1",
    "delete-version": "DELETE FROM pool_versions WHERE version = 1",
    "delete-versions": "DELETE FROM pool_versions",
    "audit-update": "UPDATE audit_log SET new_grade = 0",
    "audit-update-one": "UPDATE audit_log SET who = 'someone else' WHERE id = 1",
    "audit-delete": "DELETE FROM audit_log WHERE id = 1",
    "audit-delete-all": "DELETE FROM audit_log",
}

# REPLACE deletes the conflicting row without firing DELETE triggers (unless recursive_triggers
# is on, which no other program will set), so these go around the BEFORE DELETE triggers.
REPLACE_WRITES = {
    "replace-version": "INSERT OR REPLACE INTO pool_versions (version, state, scale_low, scale_high, labels, "
    f"created_at, created_by) VALUES (1, 'draft', 0, 3, {LABELS}, 'now', 'someone')",
    "update-or-replace-version": "UPDATE OR REPLACE pool_versions SET version = 1 WHERE version = 2",
    "replace-audit": "INSERT OR REPLACE INTO audit_log (id, version, query_id, doc_id, action, new_grade, who, at) "
    "VALUES (1, 1, 'q0', 'd0-1', 'grade', 0, 'someone', 'now')",
}


def assert_write_refused(path: Path, sql: str) -> None:
    before = dump(path)
    con = raw(path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(sql)
    finally:
        con.close()
    assert dump(path) == before
    with Project.open(path, read_only=True) as project:
        v1 = project.pools.version(1)
        assert v1.frozen
        items = project.pools.pool_items(1)
        assert pool_hash(items, v1.scale) == v1.hash


@pytest.mark.parametrize("sql", FROZEN_WRITES.values(), ids=FROZEN_WRITES.keys())
def test_frozen_pool_and_audit_log_refuse_raw_sql(frozen_project, sql):
    assert_write_refused(frozen_project, sql)


@pytest.mark.parametrize("sql", REPLACE_WRITES.values(), ids=REPLACE_WRITES.keys())
def test_frozen_pool_and_audit_log_refuse_conflict_replace(frozen_project, sql):
    assert_write_refused(frozen_project, sql)


def test_the_draft_stays_editable_through_raw_sql(frozen_project):
    """The triggers guard frozen rows only: the control for the refusals above."""
    con = raw(frozen_project)
    try:
        con.execute("UPDATE judgments SET grade = 2 WHERE version = 2 AND doc_id = 'new'")
        assert con.execute("SELECT grade FROM judgments WHERE version = 2 AND doc_id = 'new'").fetchone() == (2,)
        con.execute("UPDATE judgments SET grade = NULL WHERE version = 2 AND doc_id = 'd0-1'")
        with pytest.raises(sqlite3.IntegrityError, match="needs a grade"):  # freezing still needs every grade
            con.execute("UPDATE pool_versions SET state = 'frozen' WHERE version = 2")
    finally:
        con.close()


# --------------------------------------------------------------------------------------------
# files that are not projects


def _other_application(path: Path, *, wal: bool) -> None:
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode = WAL")
    con.execute("CREATE TABLE bookmarks (url TEXT, title TEXT)")
    con.execute("INSERT INTO bookmarks VALUES ('https://example.org', 'Example')")
    con.commit()
    con.close()


def _built_project(path: Path) -> None:
    make_project(path, queries=20, docs=100)
    with Project.open(path) as project:
        project.judgments.set_grade("q0", "d0-0", 2, annotator="maker")


def _page(path: Path, table: str) -> tuple[int, int]:
    """Byte offset of a table's root page, and the page size."""
    con = raw(path, read_only=True)
    try:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    finally:
        con.close()
    return (root - 1) * size, size


def _truncated(path: Path) -> None:
    _built_project(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 123])


def _overwritten_page(path: Path) -> None:
    _built_project(path)
    offset, size = _page(path, "judgments")
    data = bytearray(path.read_bytes())
    data[offset : offset + 200] = b"\xff" * 200
    path.write_bytes(bytes(data))


def _bad_cell_pointer(path: Path) -> None:
    """The first cell of pool_versions points outside the page's content area."""
    _built_project(path)
    offset, _size = _page(path, "pool_versions")
    data = bytearray(path.read_bytes())
    assert data[offset] == 13, "expected a leaf table page"  # its cell pointers start at byte 8
    data[offset + 8 : offset + 10] = struct.pack(">H", 0x0100)
    path.write_bytes(bytes(data))
    assert integrity(path) != ["ok"]  # SQLite itself calls this file corrupt


def _interrupted_create(path: Path) -> None:
    """What a killed ``Project.create`` can leave: schema and application_id, no schema version yet."""
    _built_project(path)
    con = raw(path)
    con.execute("DELETE FROM meta")
    con.execute("PRAGMA user_version = 0")
    con.close()


NOT_PROJECTS: dict[str, Callable[[Path], None]] = {
    "random-bytes": lambda p: p.write_bytes(random.Random(3).randbytes(20_000)),
    "empty": lambda p: p.write_bytes(b""),
    "text": lambda p: p.write_text("q1 0 d1 3\nq1 0 d2 1\n"),
    "sqlite-header-then-garbage": lambda p: p.write_bytes(b"SQLite format 3\x00" + random.Random(4).randbytes(8192)),
    "other-application": lambda p: _other_application(p, wal=False),
    "other-application-wal": lambda p: _other_application(p, wal=True),
    "truncated-project": _truncated,
    "overwritten-page": _overwritten_page,
    "bad-cell-pointer": _bad_cell_pointer,
    "interrupted-create": _interrupted_create,
}


@pytest.mark.parametrize("read_only", [False, True], ids=["write", "read-only"])
@pytest.mark.parametrize("make", NOT_PROJECTS.values(), ids=NOT_PROJECTS.keys())
def test_a_file_that_is_not_a_project_is_refused_untouched(tmp_path, make, read_only):
    path = tmp_path / "victim.ndcgproj"
    make(path)
    for sidecar in ("-wal", "-shm", ".lock"):  # only the file itself, as a user would hand it over
        Path(str(path) + sidecar).unlink(missing_ok=True)
    before = path.read_bytes()
    with pytest.raises(InputError) as refused:
        Project.open(path, read_only=read_only).close()
    assert str(path) in str(refused.value)
    assert not isinstance(refused.value, ProjectInUse)
    assert path.read_bytes() == before


@pytest.mark.parametrize("read_only", [False, True], ids=["write", "read-only"])
def test_a_project_from_a_newer_version_is_refused(tmp_path, read_only):
    path = tmp_path / "future.ndcgproj"
    make_project(path)
    con = raw(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.close()
    before = path.read_bytes()
    with pytest.raises(InputError, match="newer") as refused:
        Project.open(path, read_only=read_only).close()
    assert str(path) in str(refused.value)
    assert path.read_bytes() == before


def test_a_failed_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    """A migration is one transaction: if its second statement fails, its first is undone."""
    path = tmp_path / "old.ndcgproj"
    make_project(path)
    before = dump(path)
    monkeypatch.setattr(core_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(
        core_module.MIGRATIONS, SCHEMA_VERSION, "CREATE TABLE added (x); INSERT INTO no_such_table VALUES (1);"
    )
    with pytest.raises(Exception):  # noqa: B017 - any error; the point is what it leaves behind
        Project.open(path)
    gc.collect()
    assert dump(path) == before


def test_a_failed_open_releases_the_project(tmp_path, monkeypatch):
    """An open that fails after taking the lock must not leave the project 'in use'."""
    path = tmp_path / "old.ndcgproj"
    make_project(path)
    monkeypatch.setattr(core_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(core_module.MIGRATIONS, SCHEMA_VERSION, "INSERT INTO no_such_table VALUES (1);")
    with pytest.raises(Exception) as failed:  # noqa: B017, PT011 - kept: a GUI keeps the error to show it
        Project.open(path)
    monkeypatch.undo()
    assert failed.value is not None
    Project.open(path).close()


# --------------------------------------------------------------------------------------------
# imports that fail or are cancelled


@pytest.fixture
def project_with_content(tmp_path) -> Path:
    """Documents, a draft with graded and ungraded items, and one run: something to lose."""
    path = tmp_path / "content.ndcgproj"
    make_project(path, queries=3, docs=4)
    docs = tmp_path / "first-docs.jsonl"
    docs.write_text("".join(f'{{"doc_id": "d0-{i}", "title": "old {i}", "text": "old text"}}\n' for i in range(4)))
    run = tmp_path / "first.run"
    run.write_text("".join(f"q0 Q0 d0-{i} {i + 1} {10 - i} first\n" for i in range(4)))
    with Project.open(path) as project:
        project.texts.import_documents(docs)
        project.judgments.set_grade("q0", "d0-0", 3, annotator="maker")
        project.judgments.set_grade("q1", "d1-0", 0, annotator="maker")
        project.judgments.set_note("q1", "d1-0", "checked twice", annotator="maker")
        project.runs.import_run(run, name="first", annotator="maker")
    return path


def big_jsonl(path: Path, lines: int, bad_line: int | None = None) -> Path:
    """``lines`` documents, the first few updating existing ones; ``bad_line`` is not JSON."""
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, lines + 1):
            if number == bad_line:
                out.write('{"doc_id": "broken", "title": \n')
            elif number <= 4:
                out.write(f'{{"doc_id": "d0-{number - 1}", "title": "NEW", "text": "replaced"}}\n')
            else:
                out.write(f'{{"doc_id": "p{number}", "title": "t{number}", "text": "passage {number}"}}\n')
    return path


def test_import_documents_failing_near_the_end_writes_nothing(project_with_content, tmp_path):
    before = dump(project_with_content)
    source = big_jsonl(tmp_path / "docs.jsonl", 25_001, bad_line=25_000)  # batches of 10,000 went in first
    batches = []
    with Project.open(project_with_content) as project:
        with pytest.raises(InputError) as failed:
            project.texts.import_documents(source, progress=lambda done, total: batches.append(done))
        assert len(batches) >= 2  # the failure came after rows had been written inside the transaction
        assert (failed.value.path, failed.value.line) == (str(source), 25_000)
        assert str(failed.value).startswith(f"{source}:25000: ")
        assert project.texts.document("d0-0")["title"] == "old 0"
    assert dump(project_with_content) == before


def test_import_documents_cancelled_after_the_first_batch_writes_nothing(project_with_content, tmp_path):
    before = dump(project_with_content)
    source = big_jsonl(tmp_path / "docs.jsonl", 25_000)
    asked: list[bool] = []

    def cancelled() -> bool:
        asked.append(True)
        return len(asked) > 1  # go on for the first batch, then stop

    batches = []
    with Project.open(project_with_content) as project:
        with pytest.raises(Cancelled):
            project.texts.import_documents(
                source, progress=lambda done, total: batches.append(done), cancelled=cancelled
            )
        assert len(batches) == 1
        assert project.texts.document("p5") is None
    assert dump(project_with_content) == before

    # the project is not left inside a transaction: the next import goes through and stays
    with Project.open(project_with_content) as project:
        assert project.texts.import_documents(big_jsonl(tmp_path / "small.jsonl", 10)) == 10
    con = raw(project_with_content, read_only=True)
    try:
        assert con.execute("SELECT title FROM documents WHERE doc_id = 'p10'").fetchone() == ("t10",)
    finally:
        con.close()


@pytest.mark.parametrize(
    "bad, problem",
    [("q2 0 new-2 7", "outside the scale"), ("q2 0 new-2 two", "grade"), ("q2 0 new-2", "column")],
    ids=["grade-outside-scale", "grade-not-a-number", "missing-column"],
)
def test_import_qrels_with_a_bad_last_line_leaves_the_draft_unchanged(project_with_content, tmp_path, bad, problem):
    before = dump(project_with_content)
    lines = ["q0 0 d0-1 2", "q1 0 d1-1 1", "q2 0 new-1 3", "q9 0 other 1", bad]  # fills, adds, then fails
    source = tmp_path / "qrels.txt"
    source.write_text("\n".join(lines) + "\n")
    with Project.open(project_with_content) as project:
        with pytest.raises(InputError, match=problem) as failed:
            project.judgments.import_qrels(source, annotator="maker")
    assert (failed.value.path, failed.value.line) == (str(source), len(lines))
    assert dump(project_with_content) == before


@pytest.mark.parametrize(
    "bad",
    ["q1 Q0 d1-3 4 not-a-score second", "q1 Q0 d1-3 4", "q1 Q0 d1-3 4 5.0 second extra"],
    ids=["bad-score", "missing-columns", "extra-column"],
)
def test_import_run_with_a_bad_line_stores_nothing(project_with_content, tmp_path, bad):
    before = dump(project_with_content)
    lines = [f"q1 Q0 d1-{i} {i + 1} {9 - i} second" for i in range(3)] + [bad]
    source = tmp_path / "second.run"
    source.write_text("\n".join(lines) + "\n")
    with Project.open(project_with_content) as project:
        with pytest.raises(InputError) as failed:
            project.runs.import_run(source, name="second", annotator="maker")
        assert [r.name for r in project.runs.all()] == ["first"]
    assert (failed.value.path, failed.value.line) == (str(source), len(lines))
    assert dump(project_with_content) == before


def test_every_failed_import_leaves_the_project_usable(project_with_content, tmp_path):
    """After all of the above, a grade still commits at once and is seen by another connection."""
    bad = tmp_path / "bad.txt"
    bad.write_text("q0 0 d0-2 9\n")
    with Project.open(project_with_content) as project:
        with pytest.raises(InputError):
            project.judgments.import_qrels(bad, annotator="maker")
        project.judgments.set_grade("q0", "d0-2", 1, annotator="maker")
        con = raw(project_with_content, read_only=True)
        try:
            row = con.execute("SELECT grade FROM judgments WHERE version = 1 AND doc_id = 'd0-2'").fetchone()
        finally:
            con.close()
        assert row == (1,)


def test_dump_notices_a_one_cell_change(tmp_path):
    """The dump used above notices a one-cell change (so equal dumps are meaningful)."""
    path = tmp_path / "p.ndcgproj"
    make_project(path)
    copy = tmp_path / "copy.ndcgproj"
    shutil.copy(path, copy)
    assert dump(copy) == dump(path)
    with Project.open(copy) as project:
        project.judgments.set_note("q0", "d0-0", "x", annotator="maker")
    assert dump(copy) != dump(path)

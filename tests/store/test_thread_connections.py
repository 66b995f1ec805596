"""Each thread talks to the project through a connection of its own (the window's thread never waits out, joins
or sees a worker's unfinished write)."""

import os
import sqlite3
import threading
import time

import pytest

from ndcg_desktop.store import Cancelled, Project, ProjectBusy
from ndcg_desktop.store.core import translated
from ndcg_desktop.tasks.freezing import freeze_draft


@pytest.fixture
def project(tmp_path):
    (tmp_path / "j.qrels").write_text("q1 0 A 1\nq1 0 B 0\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
    with Project.open(tmp_path / "p.ndcgproj") as p:
        yield p


SLOW = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) SELECT sum(slow(i)) FROM n"


def slow_on(conn, started: threading.Event, seconds: float = 0.05) -> None:
    """Give ``conn`` a ``slow(x)`` SQL function (``SLOW`` calls it 200 times): the statement runs long enough
    for another thread to act while it is running, and ``started`` is set once it does."""

    def slow(_value):
        started.set()
        time.sleep(seconds)
        return 1

    conn.create_function("slow", 1, slow)


def grades(project):
    return dict(project.file.query("SELECT doc_id, grade FROM judgments ORDER BY doc_id"))


def hold_a_write(project, inside: threading.Event, release: threading.Event, errors: list) -> threading.Thread:
    """A worker that changes B's grade inside a transaction and keeps it open until released."""

    def work():
        try:
            with project.file.transaction() as conn:
                conn.execute("UPDATE judgments SET grade = 3 WHERE doc_id = 'B'")
                inside.set()
                release.wait(10)
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            errors.append(exc)
            inside.set()

    thread = threading.Thread(target=work)
    thread.start()
    return thread


def test_a_workers_unfinished_write_is_neither_seen_nor_joined_by_the_windows_thread(project):
    inside, release, errors = threading.Event(), threading.Event(), []
    worker = hold_a_write(project, inside, release, errors)
    try:
        assert inside.wait(10) and not errors
        # One shared connection showed the uncommitted grade here, and a write here failed with SQLite's
        # "cannot start a transaction within a transaction" (or joined the worker's transaction).
        assert grades(project) == {"A": 1, "B": 0}
        began = time.perf_counter()
        with pytest.raises(ProjectBusy, match="is writing to the project file"):
            project.judgments.set_grade(
                "q1", "A", 2, annotator="tester"
            )  # a grade waits briefly for the write lock, then says so
        assert time.perf_counter() - began < 3
    finally:
        release.set()
        worker.join(10)
    assert not errors
    assert grades(project) == {"A": 1, "B": 3}  # the worker's write, whole; the refused grade, nowhere
    project.judgments.set_grade("q1", "A", 2, annotator="tester")
    assert grades(project) == {"A": 2, "B": 3}


def test_reads_on_the_windows_thread_do_not_wait_for_a_workers_statement(project):
    """A statement running on a worker (here a deliberately slow one) no longer holds the window's connection."""
    started, results = threading.Event(), []

    def work():
        conn = project.file.conn
        slow_on(conn, started, seconds=0.3)
        results.append(conn.execute("SELECT sum(slow(grade)) FROM judgments").fetchone()[0])

    worker = threading.Thread(target=work)
    worker.start()
    assert started.wait(10)
    began = time.perf_counter()
    assert grades(project) == {"A": 1, "B": 0}
    waited = time.perf_counter() - began
    worker.join(10)
    assert results == [2]
    assert waited < 0.25  # the shared connection made this wait for the worker's 0.6 s statement


def test_closing_the_project_closes_the_connection_of_a_thread_that_has_ended(project):
    seen = []
    worker = threading.Thread(target=lambda: seen.append(project.file.conn))
    worker.start()
    worker.join(10)
    (other,) = seen
    assert other is not project.file.conn
    project.close()
    with pytest.raises(sqlite3.ProgrammingError):
        other.execute("SELECT 1")


def test_closing_the_project_while_a_worker_runs_a_statement_interrupts_it_and_the_worker_closes_its_own(project):
    """Closing a connection that another thread is running a statement on crashed Python's sqlite3 module (it
    reads the closed handle when the statement returns): the project interrupts it instead, and the worker's
    task closes its own connection when it ends."""
    from ndcg_desktop.store import release_thread_connections

    started, outcome, connections = threading.Event(), [], []

    def work():
        conn = project.file.conn
        connections.append(conn)
        slow_on(conn, started)
        try:
            with translated(project.file.path):  # as every Project method reads
                outcome.append(conn.execute(SLOW).fetchone())
        except (sqlite3.Error, Cancelled) as exc:
            outcome.append(exc)
        finally:
            release_thread_connections()  # as every background task does at its end

    worker = threading.Thread(target=work)
    worker.start()
    assert started.wait(10)
    began = time.perf_counter()
    project.close()  # from the window's thread, mid-statement
    worker.join(10)
    assert time.perf_counter() - began < 5  # 200 rows x 50 ms would be 10 s
    # A task whose project closed under it ends as cancelled (nothing shown, nothing written), not as an error.
    assert isinstance(outcome[0], Cancelled) and "the project was closed" in str(outcome[0])
    with pytest.raises(sqlite3.ProgrammingError):  # closed by its own thread
        connections[0].execute("SELECT 1")


def test_a_task_end_closes_the_threads_connection_and_the_next_use_opens_another(project):
    from ndcg_desktop.store import release_thread_connections

    seen = []

    def work():
        first = project.file.conn
        release_thread_connections()
        seen.extend([first, project.file.conn, dict(project.file.query("SELECT doc_id, grade FROM judgments"))])
        release_thread_connections()

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(10)
    first, second, grades = seen
    assert first is not second and grades == {"A": 1, "B": 0}
    for conn in (first, second):
        with pytest.raises(sqlite3.ProgrammingError):
            conn.execute("SELECT 1")
    assert project.file._others == {}  # nothing left for close() to do


def test_a_read_only_project_gives_other_threads_read_only_connections(project, tmp_path):
    path = project.file.path
    project.close()
    with Project.open(path, read_only=True) as read_only:
        seen = []

        def work():
            try:
                seen.append(dict(read_only.file.query("SELECT doc_id, grade FROM judgments")))
                read_only.file.conn.execute("UPDATE judgments SET grade = 3")
            except sqlite3.Error as exc:
                seen.append(exc)

        worker = threading.Thread(target=work)
        worker.start()
        worker.join(10)
    assert seen[0] == {"A": 1, "B": 0}
    assert isinstance(seen[1], sqlite3.OperationalError) and "readonly" in str(seen[1])


def test_a_frozen_versions_check_serves_every_thread_until_another_connection_commits(tmp_path, monkeypatch):
    """Rule 15 checks at every use, and remembers a check until the file changes: a worker's new connection
    does not hash the version again (at 766k judgments each check, score and preview paid 0.3-0.6 s for it)."""
    from ndcg_desktop.store.pools import PoolRepository

    (tmp_path / "j.qrels").write_text("q1 0 A 1\nq1 0 B 0\n")
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", annotator="tester")
        freeze_draft(p, annotator="tester")
    hashed: list[str] = []
    original = PoolRepository._hashed_lines
    monkeypatch.setattr(
        PoolRepository,
        "_hashed_lines",
        lambda self, number: (hashed.append(threading.current_thread().name), original(self, number))[1],
    )
    with Project.open(tmp_path / "p.ndcgproj") as project:
        project.pools.frozen_version(1)
        assert len(hashed) == 1

        def use():
            project.pools.frozen_version(1)

        worker = threading.Thread(target=use, name="worker")
        worker.start()
        worker.join(10)
        assert hashed == ["MainThread"]  # nothing changed: the worker relied on the window's check
        writer = threading.Thread(target=lambda: project.file.set_meta("touched", "1"), name="writer")
        writer.start()
        writer.join(10)
        project.pools.frozen_version(1)
        assert hashed == ["MainThread", "MainThread"]  # another connection committed: checked again


def test_closing_the_project_during_a_workers_write_cancels_it_and_writes_nothing(project):
    from ndcg_desktop.store import release_thread_connections

    path, started, outcome = project.file.path, threading.Event(), []

    def work():
        try:
            slow_on(project.file.conn, started)
            with project.file.transaction() as conn:
                conn.execute("UPDATE judgments SET grade = 3 WHERE doc_id = 'B'")
                conn.execute(SLOW).fetchone()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            outcome.append(exc)
        finally:
            release_thread_connections()

    worker = threading.Thread(target=work)
    worker.start()
    assert started.wait(10)
    project.close()  # quitting, or opening another project, while the write runs
    worker.join(10)
    assert isinstance(outcome[0], Cancelled), outcome  # not an AttributeError from a rollback on None
    with Project.open(path, read_only=True) as again:
        assert grades(again) == {"A": 1, "B": 0}


@pytest.mark.parametrize("how", ["moved", "replaced"])
def test_a_worker_never_connects_to_another_file_at_the_projects_name(project, tmp_path, how):
    """A worker connects by name; the window's connection follows the open file. A project moved while open
    left an empty SQLite file at its old name, and one replaced by another project was read instead."""
    from ndcg_desktop.domain import InputError

    path = project.file.path
    project.file.query("SELECT 1")  # the window's connection, open on the file itself
    os.rename(path, tmp_path / "elsewhere.ndcgproj")
    if how == "replaced":
        (tmp_path / "k.qrels").write_text("q9 0 Z 2\n")
        with Project.create(path, annotator="tester") as other:
            other.judgments.import_qrels(tmp_path / "k.qrels", annotator="tester")
    before = path.read_bytes() if path.exists() else None
    outcome = []

    def work():
        try:
            outcome.append(project.file.query("SELECT doc_id FROM judgments"))
        except InputError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(10)
    assert isinstance(outcome[0], InputError)
    assert str(outcome[0]).startswith(f"{path}: was moved, renamed or replaced while it was open")
    assert (path.read_bytes() if path.exists() else None) == before  # nothing created, nothing read or written
    assert grades(project) == {"A": 1, "B": 0}  # the window's connection still has the project itself

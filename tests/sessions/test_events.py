"""The project's events (sessions.events): every change reaches the subscribers, whoever made it and however."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.sessions.events import (
    ItemsChanged,
    ProjectClosed,
    ProjectEvents,
    RunsChanged,
    SettingsChanged,
    TextsChanged,
    VersionRefused,
    VersionsChanged,
)
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.project import FrozenVersionChanged, create_project, open_project


@pytest.fixture
def project(tmp_path, write):
    """v1 frozen (q1: A=3, B=0), and draft v2 copied from it."""
    p = create_project(tmp_path / "p.ndcgproj", annotator="ann")
    p.judgments.import_qrels(write("q.txt", "q1 0 A 3\nq1 0 B 0\n"), annotator="ann")
    freeze_draft(p, annotator="ann")
    p.pools.new_draft_from(1, annotator="ann")
    yield p
    p.close()


@pytest.fixture
def seen(project):
    events = ProjectEvents(project)
    received: list[object] = []
    events.subscribe(received.append)
    yield received
    events.close()


def test_a_grade_given_here_is_an_item_change_of_its_version_at_once(project, seen):
    project.judgments.set_grade("q1", "A", 1, version=2, annotator="ann")
    assert seen == [ItemsChanged(2, frozenset({"q1"}))]


def test_a_note_an_added_item_and_a_removed_item_are_item_changes(project, seen):
    project.judgments.set_note("q1", "B", "why", version=2, annotator="ann")
    project.judgments.add_items(
        pd.DataFrame({"query_id": ["q1", "q2"], "doc_id": ["C", "C"]}), version=2, annotator="ann"
    )
    project.judgments.remove_items(pd.DataFrame({"query_id": ["q2"], "doc_id": ["C"]}), version=2, annotator="ann")
    assert seen == [
        ItemsChanged(2, frozenset({"q1"})),
        ItemsChanged(2, frozenset({"q1", "q2"})),
        ItemsChanged(2, frozenset({"q2"})),
    ]


def test_versions_started_discarded_and_frozen_are_version_changes(project, seen):
    project.judgments.discard_draft(2, annotator="ann")
    assert seen == [VersionsChanged(removed=(2,)), ItemsChanged(2, frozenset({"q1"}))]  # its items went with it
    seen.clear()
    draft = project.pools.new_draft_from(1, annotator="ann").version
    assert seen == [VersionsChanged(added=(draft,)), ItemsChanged(draft, frozenset({"q1"}))]
    item = project.pools.pool_items(draft).iloc[0]  # a regrade: a copy of its parent would not freeze (issue 35)
    project.judgments.set_grade(
        item["query_id"], item["doc_id"], 0 if item["grade"] else 1, version=draft, annotator="ann"
    )
    seen.clear()
    freeze_draft(project, version=draft, annotator="ann")
    assert seen[0] == VersionsChanged(frozen=(draft,))


def test_runs_texts_and_settings(project, seen, write):
    project.runs.import_run(write("r.txt", "q1 Q0 A 1 2.0 r\n"), name="r", annotator="ann")
    project.texts.import_topics(write("queries.tsv", "q1\tbest pizza\n"))
    project.judgments.set_judging_order("doc_id")
    project.texts.import_documents(write("docs.jsonl", '{"doc_id": "A", "title": "t", "text": "x"}\n'))
    assert seen == [RunsChanged(), TextsChanged(queries=True), SettingsChanged(), TextsChanged(documents=True)]


def test_a_failed_write_is_no_event(project, seen):
    with pytest.raises(InputError):
        project.judgments.set_grade("q1", "A", 99, version=2, annotator="ann")  # off the scale
    with pytest.raises(InputError):
        project.judgments.set_grade("q1", "A", 2, version=1, annotator="ann")  # frozen
    assert seen == []


def test_a_workers_write_is_seen_at_the_next_check(project, tmp_path):
    events = ProjectEvents(project)
    seen: list[object] = []
    events.subscribe(seen.append)
    worker = threading.Thread(target=lambda: project.judgments.set_grade("q1", "B", 2, version=2, annotator="ann"))
    worker.start()
    worker.join()
    assert seen == []  # another connection's commit: not known until checked
    events.check()
    assert ItemsChanged(2, frozenset({"q1"})) in seen  # named by the audit row the worker's grade left
    assert project.pools.pool_items(2).set_index("doc_id").loc["B", "grade"] == 2
    seen.clear()
    events.check()
    assert seen == []  # told once
    events.close()


def test_another_programs_write_is_seen_at_the_next_check(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="ann") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ann")
    window = open_project(path)
    events = ProjectEvents(window)
    seen: list[object] = []
    events.subscribe(seen.append)
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute(\"UPDATE judgments SET note = 'x' WHERE doc_id = 'A'\"); c.commit()"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    events.check()
    assert ItemsChanged(1) in seen
    events.close()
    window.close()


def test_a_table_added_by_a_later_format_is_watched_without_being_listed(tmp_path, write, monkeypatch):
    from ndcg_desktop.store import core

    later = core.schema_tables() | {"later_things"}  # a later format's table (any other table is refused)
    monkeypatch.setattr(core, "schema_tables", lambda: later)
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="ann") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ann")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE later_things (version INTEGER NOT NULL, what TEXT)")
    conn.commit()
    conn.close()
    with open_project(path) as p:
        events = ProjectEvents(p)
        seen: list[object] = []
        events.subscribe(seen.append)
        with p.transaction() as c:
            c.execute("INSERT INTO later_things VALUES (1, 'x')")
        assert seen == [ItemsChanged(1)]  # no query column: any query
        events.close()


def test_a_subscriber_that_writes_is_told_of_its_own_write_after_the_round(project):
    events = ProjectEvents(project)
    seen: list[object] = []

    def write_once(event: object) -> None:
        seen.append(event)
        if len(seen) == 1:
            project.judgments.set_note("q1", "A", "second", version=2, annotator="ann")

    events.subscribe(write_once)
    project.judgments.set_note("q1", "A", "first", version=2, annotator="ann")
    assert seen == [ItemsChanged(2, frozenset({"q1"}))] * 2
    events.close()


def test_refusals_and_closing_are_told_once(project, seen):
    error = FrozenVersionChanged("pool version 1 has changed", path=project.path)
    events = ProjectEvents(project)
    told: list[object] = []
    events.subscribe(told.append)
    events.refused(error)
    events.close()
    events.close()
    project.judgments.set_grade("q1", "A", 1, version=2, annotator="ann")  # after closing: nobody is told
    assert told == [VersionRefused(error), ProjectClosed()]


def test_a_workers_run_import_is_a_run_change_and_no_item_change(project, write):
    events = ProjectEvents(project)
    seen: list[object] = []
    events.subscribe(seen.append)
    path = write("r.txt", "q1 Q0 A 1 2.0 r\n")
    worker = threading.Thread(target=lambda: project.runs.import_run(path, name="r", annotator="ann"))
    worker.start()
    worker.join()
    events.check()
    assert RunsChanged() in seen
    assert not [event for event in seen if isinstance(event, ItemsChanged | VersionsChanged)]
    assert TextsChanged(documents=True) in seen  # may have changed: not marked
    assert TextsChanged(queries=True, documents=True) not in seen
    events.close()


def test_a_workers_bulk_write_is_every_draft_without_reading_each_audit_row(project, write):
    """Past a few thousand new audit rows (an import, a send for judging) the window's thread reads none of them:
    every draft may have changed, of any query."""
    events = ProjectEvents(project)
    seen: list[object] = []
    events.subscribe(seen.append)
    lines = "".join(f"q{i % 700} 0 d{i} {i % 4}\n" for i in range(6_000))
    path = write("many.txt", lines)
    worker = threading.Thread(target=lambda: project.judgments.import_qrels(path, annotator="ann"))
    worker.start()
    worker.join()
    events.check()
    assert ItemsChanged(2) in seen and ItemsChanged(2, frozenset({"q1"})) not in seen
    events.close()


def test_a_commit_no_mark_explains_is_any_draft(tmp_path, write):
    """Documents imported by another connection (not marked: too many to count cheaply) or a raw edit of a draft:
    every draft may have changed."""
    path = tmp_path / "p.ndcgproj"
    with create_project(path, annotator="ann") as p:
        p.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ann")
    window = open_project(path)
    events = ProjectEvents(window)
    seen: list[object] = []
    events.subscribe(seen.append)
    docs = write("d.jsonl", '{"doc_id": "A", "title": "t", "text": "x"}\n')
    worker = threading.Thread(target=lambda: window.texts.import_documents(docs))
    worker.start()
    worker.join()
    events.check()
    assert seen == [ItemsChanged(1), TextsChanged(documents=True)]
    events.close()
    window.close()


def test_a_subscriber_that_fails_never_makes_the_write_look_failed(project, monkeypatch):
    """The grade is on disk when the call returns (the promise of every write); a view's bug is reported as a bug."""
    import sys

    reported: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: reported.append(kind))
    events = ProjectEvents(project)

    def broken(event: object) -> None:
        raise RuntimeError("a view's bug")

    events.subscribe(broken)
    project.judgments.set_grade("q1", "A", 1, version=2, annotator="ann")  # returns: the write committed
    assert reported == [RuntimeError]
    assert project.pools.pool_items(2).set_index("doc_id").loc["A", "grade"] == 1
    events.unsubscribe(broken)
    events.close()

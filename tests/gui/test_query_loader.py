"""A large pool version's query list is read on a worker; nothing stale shows meanwhile, nothing stale lands after.

After sending a 1M-line run for judging, reading the draft's query list (a GROUP BY over a million
items) froze the window for about a quarter of a second (issue 10); after a 7M-line import, 0.55 s
(issue 13). The threshold is lowered here so that small projects take the worker's path.
"""

from __future__ import annotations

import threading

import pytest

from ndcg_desktop.sessions import annotate as annotate_session
from ndcg_desktop.store import Project
from ndcg_desktop.store.pools import PoolRepository

from .test_tampered_project import capture_messages, frozen_then_tampered


@pytest.fixture
def read_on(monkeypatch) -> list[bool]:
    """Patches LARGE to 10 items; records, for each query list read, whether it ran on the GUI thread."""
    monkeypatch.setattr(annotate_session, "LARGE", 10)
    on_gui: list[bool] = []
    original = PoolRepository.query_progress

    def spy(self, number, **kwargs):
        on_gui.append(threading.current_thread() is threading.main_thread())
        return original(self, number, **kwargs)

    monkeypatch.setattr(PoolRepository, "query_progress", spy)
    return on_gui


def large_project(tmp_path) -> tuple:
    path = tmp_path / "large.ndcgproj"
    (tmp_path / "j.qrels").write_text("".join(f"q{i} 0 D{i} -1\n" for i in range(30, 0, -1)))  # 30 items > 10
    with Project.create(path, annotator="tester") as p:
        p.judgments.import_qrels(tmp_path / "j.qrels", negative_as_ungraded=True, annotator="tester")
    return path


def shown(ws) -> list[str]:
    return [ws.query_proxy.index(r, 0).data() for r in range(ws.query_proxy.rowCount())]


def test_a_large_query_list_is_read_on_a_worker_and_nothing_of_the_last_project_shows_meanwhile(
    window, small_project, tmp_path, qtbot, read_on
):
    ws = window.workspace
    window.open_project(small_project)  # 5 items, 2 queries: read at once, on the GUI thread
    assert read_on == [True] and shown(ws) == ["q1", "q2"] and ws.session.doc_id == "C"  # q1's first ungraded
    shared: list[str] = []  # statements on the window's connection (a long one there blocks the window's own)
    with qtbot.waitSignal(ws.queries_loaded, timeout=30_000):
        window.open_project(large_project(tmp_path))
        window.project.file.conn.set_trace_callback(shared.append)
        # Until the list arrives: no query, no pool, no document of the small project; grading keys do nothing.
        assert shown(ws) == [] and ws.pool.rowCount() == 0 and ws.session.doc_id is None
        assert ws.query_label.text() == "Reading the queries of this pool version…"
    window.project.file.conn.set_trace_callback(None)
    assert read_on[-1] is False  # read on a worker thread, through a connection of its own
    assert [q for q in shared if "GROUP BY query_id" in q] == []
    assert shown(ws) == [f"q{i}" for i in range(1, 31)]  # natural order, as when read at once
    assert ws.session.query_id == "q1" and ws.session.doc_id == "D1" and ws.queries.totals() == (0, 30)


def test_a_list_still_being_read_when_another_project_opens_never_lands(
    window, small_project, tmp_path, qtbot, read_on
):
    ws = window.workspace
    window.open_project(large_project(tmp_path))
    assert ws.loader.busy
    window.open_project(small_project)  # before the large list arrived
    qtbot.waitUntil(lambda: not any(task for task in query_loader_tasks()), timeout=30_000)
    qtbot.wait(50)  # any queued result has been delivered (and dropped)
    assert shown(ws) == ["q1", "q2"] and ws.session.doc_id == "C"


def query_loader_tasks() -> list:
    from ndcg_desktop.gui import tasks

    return list(tasks._running)


def test_a_large_frozen_version_that_fails_its_hash_check_is_refused_from_the_worker(
    window, tmp_path, monkeypatch, qtbot, read_on
):
    monkeypatch.setattr(annotate_session, "LARGE", 0)  # even two items go to the worker
    path, recorded = frozen_then_tampered(tmp_path, restore=True)
    said = capture_messages(monkeypatch)
    assert window.open_project(path)
    qtbot.waitUntil(lambda: len(said) == 1, timeout=30_000)
    assert "pool version 1 has changed since it was frozen" in said[0] and recorded in said[0]
    assert read_on[0] is False
    assert window.workspace.pool_view.model().rowCount() == 0  # the changed grades are not shown
    assert window.windowTitle() == "t.ndcgproj — ndcg-desktop"  # not "pool v1 (frozen)"

"""Opening a project checks its file on a worker (issue 37 target 5): the window goes on painting meanwhile.

The check (SQLite's quick_check, every stored field by its class, the protection triggers, who grades) took a
third of a second on the GUI thread for 100,000 judgments. On a worker it keeps every guarantee: a damaged file
is refused with its message and nothing is written to it; nothing of a project is shown before its check passed;
and a check whose project is no longer wanted (another was opened, or the project closed, meanwhile) is dropped:
its file is closed unseen.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from pathlib import Path

from PySide6.QtCore import QTimer

import ndcg_desktop.gui.main_window as main_window_module
from ndcg_desktop.store import Project


def slow_checks(monkeypatch, slow: Path) -> tuple[threading.Event, list[threading.Thread]]:
    """Every open's check records its thread; ``slow``'s waits until the returned event is set."""
    release = threading.Event()
    threads: list[threading.Thread] = []
    real = main_window_module.open_to_grade

    def check(path, stated=None):
        threads.append(threading.current_thread())
        if Path(path) == slow:
            release.wait(20)
        return real(path, stated)

    monkeypatch.setattr(main_window_module, "open_to_grade", check)
    return release, threads


def test_a_late_check_for_a_project_no_longer_open_is_dropped(window, small_project, tmp_path, monkeypatch):
    other = tmp_path / "other.ndcgproj"
    shutil.copyfile(small_project, other)
    release, threads = slow_checks(monkeypatch, small_project)
    opened_meanwhile: list[bool] = []

    def open_the_other() -> None:  # runs while small_project's check waits: the window's event loop is not held
        assert window.project is None  # nothing of the file being checked is shown
        opened_meanwhile.append(window.open_project(other))
        release.set()

    QTimer.singleShot(0, open_the_other)
    assert window.open_project(small_project) is False  # its check passed, but late: dropped
    assert opened_meanwhile == [True]
    assert window.project is not None and window.project.path == other
    assert other.name in window.windowTitle()
    assert threads and threading.main_thread() not in threads  # both checks ran on workers
    # the dropped project was closed, lock included: it opens for writing again
    with Project.open(small_project) as again:
        assert not again.read_only
    # the project that stayed open is the window's own: a grade is written and seen
    window.workspace.session.select_query("q1")
    window.workspace.grade_current(1)
    assert window.undo_stack.count() == 1


def test_closing_while_the_check_runs_drops_the_project(window, small_project, monkeypatch):
    release, _ = slow_checks(monkeypatch, small_project)

    def close_meanwhile() -> None:
        window.close_project()
        release.set()

    QTimer.singleShot(0, close_meanwhile)
    assert window.open_project(small_project) is False
    assert window.project is None
    assert window.stack.currentWidget() is window.welcome
    with Project.open(small_project) as again:  # closed unseen: its lock is free
        assert not again.read_only


def test_a_damaged_file_opened_in_the_window_is_refused_with_its_message(window, small_project, messages):
    con = sqlite3.connect(small_project)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    pages = [r[0] for r in con.execute("SELECT pageno FROM dbstat WHERE name = 'judgments'")]
    con.close()
    assert pages
    with open(small_project, "r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * page_size)
            handle.write(b"\xa5" * page_size)
    before = small_project.read_bytes()
    assert window.open_project(small_project) is False
    assert window.project is None
    assert window.stack.currentWidget() is window.welcome
    assert len(messages) == 1
    kind, text = messages[0]
    assert kind == "warning"
    assert text.startswith(f"{small_project}: is damaged (SQLite: database disk image is malformed)")
    assert "\n" not in text and "Traceback" not in text
    assert small_project.read_bytes() == before  # refused before anything was written

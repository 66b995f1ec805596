"""Issue 33 item 6: in the window, a model's job stops when asked and keeps every answer it received.

Cancel on the progress dialog asks nothing more and ends the job within the request deadline, the project's lock
held until then (a second job is refused, saying so),
closing the window during a stuck request exits and keeps what came before, and a second job on the project (from
the window or the command line) is refused while one runs, in words that say so. The stuck request comes from a small
real loopback server that never answers (tests/assessor/hostile.py); the model loop's own answers in the other test
files come from the real llama.cpp server."""

from __future__ import annotations

import threading
import time

from PySide6.QtWidgets import QProgressDialog, QPushButton

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.assessing.lock import judging
from tests.assessor.hostile import Hostile, after, grade_answer
from tests.assessor.servers import MODEL

DEADLINE = 8.0  # the job's request deadline (--timeout)


def stuck(release: threading.Event):
    """A reply that never comes (until the test ends): the request is stuck, not refused."""

    def reply(handler, seen, number):
        release.wait(120)

    return reply


def attempts(path):
    with Project.open(path, read_only=True) as project:
        return project.assessor.attempts(1)


def start(window, server, qtbot, *, answered: int):
    window.judge.session.set(model=MODEL, endpoint=server.url, items="all", concurrency=1, timeout=DEADLINE)
    window.judge.judge()
    qtbot.waitUntil(lambda: len(server.chats()) > answered, timeout=30_000)  # the next request is in flight
    time.sleep(0.3)  # and is now stuck


def test_cancel_ends_a_stuck_job_within_its_deadline_keeps_the_answers_and_holds_off_a_second(
    window, small_project, qtbot, messages
):
    release = threading.Event()
    with Hostile(chat=after(2, stuck(release), grade_answer(2))) as server:
        try:
            assert window.open_project(small_project)
            start(window, server, qtbot, answered=2)
            # shown while the request is stuck (no progress reported since): the window's busy dialog, with Cancel
            qtbot.waitUntil(lambda: any(p.isVisible() for p in window.findChildren(QProgressDialog)), timeout=5000)
            progress = next(p for p in window.findChildren(QProgressDialog) if p.isVisible())
            began = time.monotonic()
            progress.findChild(QPushButton).click()  # its Cancel button: the dialog goes, the stuck request stays
            window.judge.judge()  # judging again at once: refused while the first job ends, nothing asked twice
            qtbot.waitUntil(lambda: len(messages) == 2, timeout=int(DEADLINE * 3000))
            took = time.monotonic() - began
            asked = len(server.chats())
        finally:
            release.set()
    assert took < DEADLINE + 5, f"the job ended {took:.1f} s after Cancel, past its {DEADLINE} s deadline"
    assert asked == 3  # two answered, the stuck one; nothing after Cancel, nothing by the second job
    assert "a model is already judging this project (" in messages[0][1]
    assert "Cancelled: judge again with the same model and template to go on." in messages[1][1]
    kept = attempts(small_project)
    assert kept["grade"].tolist()[:2] == [2, 2] and kept["grade"].isna().sum() == len(kept) - 2  # the stuck one failed


def test_closing_the_window_during_a_stuck_request_exits_and_keeps_the_answers(qtbot, small_project, messages):
    from ndcg_desktop.gui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    release = threading.Event()
    with Hostile(chat=after(1, stuck(release), grade_answer(3))) as server:
        try:
            assert window.open_project(small_project)
            start(window, server, qtbot, answered=1)
            began = time.monotonic()
            assert window.close()
            took = time.monotonic() - began
            assert took < 10 and window.project is None
            with judging(small_project):  # the job has ended (it held the lock while it ran): nothing keeps the exit
                pass
            assert len(server.chats()) == 2  # nothing asked after the window closed
        finally:
            release.set()
    kept = attempts(small_project)
    assert len(kept) == 1 and kept["grade"].tolist() == [3]


def test_a_second_job_on_the_project_is_refused_in_the_window_naming_the_one_that_runs(
    window, small_project, qtbot, messages
):
    with Hostile(chat=grade_answer(1)) as server:
        assert window.open_project(small_project)
        window.judge.session.set(model=MODEL, endpoint=server.url, items="all")
        with judging(small_project):  # another front (ndcg judge) holds the project's judging lock
            window.judge.judge()
            qtbot.waitUntil(lambda: len(messages) == 1, timeout=30_000)
        assert not server.chats()  # nothing asked
    said = messages[0][1]
    assert "a model is already judging this project (" in said and str(small_project) in said
    assert "one judging job at a time" in said
    assert len(attempts(small_project)) == 0

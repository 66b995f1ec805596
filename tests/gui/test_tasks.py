"""Background work runs behind the GUI thread: its threads are niced, so the window is scheduled first."""

from __future__ import annotations

import os
import sys

import pytest

from ndcg_desktop.gui.tasks import run_in_background


@pytest.mark.skipif(sys.platform == "win32", reason="a thread's nice value is POSIX")
def test_a_background_task_runs_at_a_lower_priority_than_the_gui_thread(qtbot):
    """Measured with tests/gui/test_responsiveness.py at load 12-14 on two shared cores: importing a 1M-line run
    stalled the window 268-361 ms with workers at the GUI thread's priority, 91-230 ms with them at nice 5."""
    got: list[int] = []
    run_in_background(lambda **_: os.getpriority(os.PRIO_PROCESS, 0), got.append, pytest.fail)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    assert got[0] >= os.getpriority(os.PRIO_PROCESS, 0) + 5  # the test's own (GUI) thread: unchanged


def test_the_end_of_a_task_never_runs_inside_the_progress_dialogs_own_set_value(qtbot, monkeypatch):
    """A modal QProgressDialog's setValue() runs the event loop, which can deliver the task's end: the dialog was
    then closed and deleted, and the next task started, from inside its own setValue() (a segfault seen once)."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QProgressDialog, QWidget

    from ndcg_desktop.gui import tasks

    events: list[str] = []

    class Dialog(QProgressDialog):
        inside = False

        def setValue(self, value: int) -> None:  # noqa: N802 (Qt's name)
            Dialog.inside = True
            try:
                super().setValue(value)
                QCoreApplication.processEvents()  # as a shown modal dialog does: the task's end arrives here
                QCoreApplication.processEvents()
            finally:
                Dialog.inside = False
            events.append("setValue returned")

        def close(self) -> bool:
            events.append("close inside setValue" if Dialog.inside else "close")
            return super().close()

    monkeypatch.setattr(tasks, "QProgressDialog", Dialog)
    parent = QWidget()
    qtbot.addWidget(parent)

    def work(progress, cancelled):
        progress(1, 2)
        return 42

    def done(result):
        events.append(f"done {result}" + (" inside setValue" if Dialog.inside else ""))

    tasks.run_with_progress(parent, "working", work, done, pytest.fail)
    qtbot.waitUntil(lambda: any(e.startswith("done") for e in events), timeout=10_000)
    assert events == ["setValue returned", "close", "done 42"]

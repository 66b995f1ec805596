"""Long work off the GUI thread: a QRunnable per task, results back through signals."""

from __future__ import annotations

import os
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from ndcg_desktop.domain import InputError
from ndcg_desktop.tasks.explaining import Cancelled
from ndcg_desktop.tasks.project import FrozenVersionChanged, release_thread_connections

translate = QCoreApplication.translate


class TaskSignals(QObject):
    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal()


class TaskEvents(QObject):
    """What every task tells the window, for the open project's events (sessions.events.ProjectSlot)."""

    refused = Signal(object)  # a FrozenVersionChanged a task met (rule 15): every view forgets that version's results
    ended = Signal()  # a task ended: it may have written on its own connection, so the project is checked


_task_events: list[TaskEvents] = []


def task_events() -> TaskEvents:
    """The one :class:`TaskEvents`; first made on the GUI thread (the main window asks for it), so that a
    worker's signal reaches the window on its own thread."""
    if not _task_events:
        _task_events.append(TaskEvents())
    return _task_events[0]


def _ended() -> None:
    if _task_events:
        _task_events[0].ended.emit()


def _behind_the_gui_thread() -> None:
    """Lower this worker thread's CPU priority, and so that of the threads it starts (hashing, scanning, pyarrow's).

    On two busy cores the GUI thread otherwise queues for a time slice behind its own process's workers: the
    window stalls with nothing to do but wait. Niced, the workers still take every cycle the window leaves idle.
    """
    if hasattr(os, "setpriority"):  # POSIX; on Linux each thread has its own nice value
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(_GUI_NICE + 5, 19))
        except OSError:
            pass  # not allowed here: the work runs at the usual priority


_GUI_NICE = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else 0  # imported on the GUI thread


class Task(QRunnable):
    """Runs ``fn(progress=..., cancelled=...)`` on the thread pool; never touches widgets."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn
        self.signals = TaskSignals()
        self.cancel_event = threading.Event()
        self.ended = threading.Event()  # set when fn has returned or raised (a window closing waits for it)
        self.setAutoDelete(False)  # the caller keeps it until its signals have arrived

    def run(self) -> None:
        try:
            self._run()
        except RuntimeError as exc:  # the window closed meanwhile: its signals are gone, nobody waits for the end
            if "deleted" not in str(exc):
                raise
        finally:
            self.ended.set()

    def _run(self) -> None:
        _behind_the_gui_thread()
        try:
            result = self.fn(progress=self.signals.progress.emit, cancelled=self.cancel_event.is_set)
        except Cancelled:
            self.signals.cancelled.emit()
        except InputError as exc:
            if isinstance(exc, FrozenVersionChanged) and _task_events:
                _task_events[0].refused.emit(exc)  # every view forgets what it computed from that version
            self.signals.failed.emit(exc.located())  # the hint names command-line options
        except Exception as exc:  # an unexpected bug: show it rather than lose it
            # QCoreApplication.translate is thread-safe; only widgets must stay on the GUI thread.
            message = translate("tasks", "unexpected error: {error}\n\n{traceback}")
            self.signals.failed.emit(message.format(error=exc, traceback=traceback.format_exc(limit=4)))
        else:
            self.signals.finished.emit(result)
        finally:
            release_thread_connections()  # a pool thread keeps no project connection between tasks


_running: set[Task] = set()


def run_with_progress(
    parent: QWidget,
    title: str,
    fn: Callable[..., Any],
    on_done: Callable[[Any], None],
    on_error: Callable[[str], None],
    on_cancel: Callable[[], None] | None = None,
    *,
    busy: bool = False,
) -> Task:
    """Run ``fn`` in the background behind a modal, cancellable progress dialog (``busy``: shown as a busy bar
    after 300 ms even if ``fn`` reports no progress; otherwise it shows at its first report)."""
    dialog = QProgressDialog(title, translate("tasks", "Cancel"), 0, 0, parent)
    dialog.setWindowTitle("ndcg-desktop")  # the application's name, not translated
    dialog.setAccessibleName(title)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(300)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    if busy:
        dialog.setValue(0)  # Qt shows the dialog minimumDuration after its first value: a busy bar meanwhile
    task = Task(fn)
    _running.add(task)

    # A modal dialog's setValue() runs the event loop, which may deliver the task's end: closing and
    # deleting the dialog (and running the caller's callback, which may start the next task) from inside
    # its own setValue() crashed once. The end waits until setValue() has returned; later progress is dropped.
    state: dict[str, Any] = {"updating": False, "ended": False, "pending": None}

    def progress(done: int, total: int) -> None:
        if state["ended"] or state["updating"]:
            return
        scale = 1000
        state["updating"] = True
        try:
            dialog.setMaximum(scale)
            dialog.setValue(int(scale * done / max(total, 1)))
        finally:
            state["updating"] = False
        pending, state["pending"] = state["pending"], None
        if pending is not None:
            pending()

    def finish(callback: Callable[..., None], *args: Any) -> None:
        if state["updating"]:
            state["pending"] = lambda: finish(callback, *args)
            return
        if state["ended"]:
            return
        state["ended"] = True
        _running.discard(task)
        dialog.close()
        dialog.deleteLater()
        window = parent.window()
        if QApplication.activeWindow() is None and window.isVisible():
            window.activateWindow()  # the closed progress dialog leaves no window active: keys go nowhere
        _ended()  # the views follow what the task wrote before its caller goes on
        callback(*args)

    task.signals.progress.connect(progress)
    task.signals.finished.connect(lambda result: finish(on_done, result))
    task.signals.failed.connect(lambda message: finish(on_error, message))
    task.signals.cancelled.connect(lambda: finish(on_cancel or (lambda: None)))
    dialog.canceled.connect(task.cancel_event.set)
    QThreadPool.globalInstance().start(task)
    return task


def run_in_background(fn: Callable[..., Any], on_done: Callable[[Any], None], on_error: Callable[[str], None]) -> Task:
    """Run ``fn`` on the thread pool without a dialog (previews); set ``task.cancel_event`` to drop it."""
    task = Task(fn)
    _running.add(task)

    def finish(callback: Callable[..., None], *args: Any) -> None:
        _running.discard(task)
        _ended()
        if not task.cancel_event.is_set():
            callback(*args)

    task.signals.finished.connect(lambda result: finish(on_done, result))
    task.signals.failed.connect(lambda message: finish(on_error, message))
    task.signals.cancelled.connect(lambda: finish(lambda: None))
    QThreadPool.globalInstance().start(task)
    return task

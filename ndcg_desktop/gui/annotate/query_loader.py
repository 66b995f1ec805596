"""Reading a large pool version's query list on a worker thread (the session's job; small lists it reads at once).

The list needs a GROUP BY over every item of the version: about a quarter of a second on the GUI thread for a
draft of a million items, as after sending a 1M-line run for judging, and more for a frozen version checked
against its hash. :class:`~ndcg_desktop.sessions.annotate.AnnotateSession` decides which lists are large and
hands out the read as a job; this runs it on the thread pool and hands the rows (or the refusal) back.
"""

from __future__ import annotations

from collections.abc import Callable

from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.sessions.kit import Job
from ndcg_desktop.tasks.project import FrozenVersionChanged


class QueryLoader:
    """Runs one read at a time; a newer read, or :meth:`cancel`, drops the result of an older one."""

    def __init__(self) -> None:
        self._ticket = 0
        self._task: Task | None = None

    @property
    def busy(self) -> bool:
        """A read runs on a worker and its result has not arrived."""
        return self._task is not None

    def cancel(self) -> None:
        self._ticket += 1
        if self._task is not None:
            self._task.cancel_event.set()  # run_in_background drops its result
            self._task = None

    def start(self, job: Job, done: Callable[[Job, object], None], failed: Callable[[str], None]) -> None:
        """Run ``job`` on a worker; ``done(job, rows or FrozenVersionChanged)`` or ``failed(message)`` runs later
        on the GUI thread."""
        self.cancel()
        ticket = self._ticket

        def work(**_: object) -> object:
            try:  # on this thread's own connection: the window's small queries do not wait for this one
                return job()
            except FrozenVersionChanged as exc:  # rule 15: the window refuses the version, saying why
                return exc

        def finished(callback: Callable[[], None]) -> None:
            if ticket == self._ticket:
                self._task = None
                callback()

        self._task = run_in_background(
            work,
            lambda result: finished(lambda: done(job, result)),
            lambda message: finished(lambda: failed(message)),
        )

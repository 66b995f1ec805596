"""Reading a pool version's query list: at once when it is small, on a worker thread when it is large.

The list needs a GROUP BY over every item of the version (``Project.query_progress``): about a
quarter of a second on the GUI thread for a draft of a million items, as after sending a 1M-line
run for judging, and more for a frozen version checked against its hash. Large lists are read and
prepared (:class:`~ndcg_desktop.gui.annotate.models.QueryRows`) on the thread pool; small ones, the usual
case, at once, so a small project's window is complete as soon as it is opened.
"""

from __future__ import annotations

from collections.abc import Callable

from ndcg_desktop.gui.annotate.models import QueryRows
from ndcg_desktop.gui.tasks import Task, run_in_background
from ndcg_desktop.tasks.project import FrozenVersionChanged, Project

# Items in the version (or queries in the project) above which the list is read on a worker: reading
# 20,000 takes about 5 ms, well inside a frame.
LARGE = 20_000


class QueryLoader:
    """Starts one read at a time; a newer read, or :meth:`cancel`, drops the result of an older one."""

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

    def start(
        self,
        project: Project,
        number: int,
        done: Callable[[QueryRows], None],
        refused: Callable[[FrozenVersionChanged], None],
        failed: Callable[[str], None],
    ) -> bool:
        """Read version ``number``'s query list (-1: the project's queries without a pool) for ``done``.

        Returns True when ``done`` already ran (a small list; an error is raised to the caller as
        before); False when the list is read on a worker and ``done`` (or ``refused`` for a frozen
        version that fails its hash check, or ``failed`` with a message) runs later on the GUI thread.
        """
        self.cancel()
        if not project.query_list_exceeds(number, LARGE):
            done(QueryRows.of(project.query_progress(number)))
            return True
        ticket = self._ticket

        def work(**_: object) -> QueryRows | FrozenVersionChanged:
            try:  # on this thread's own connection: the window's small queries do not wait for this one
                return QueryRows.of(project.query_progress(number))
            except FrozenVersionChanged as exc:  # rule 15: the window refuses the version, saying why
                return exc

        def finished(callback: Callable[..., None], result: object) -> None:
            if ticket == self._ticket:
                self._task = None
                callback(result)

        self._task = run_in_background(
            work,
            lambda result: finished(refused if isinstance(result, FrozenVersionChanged) else done, result),
            lambda message: finished(failed, message),
        )
        return False

"""*Pool ▸ Pool economics*'s state: the draft, its curves once computed (:func:`~ndcg_desktop.tasks.pool_economics.\
pool_economics`) and the query shown."""

from __future__ import annotations

from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.sessions.events import FollowsProject, ItemsChanged, ProjectEvent, VersionRefused
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.pool_economics import ALL, Economics, pool_economics

PROJECT, RESULT, QUERY = "project", "result", "query"


class EconomicsSession(FollowsProject):
    """*Pool ▸ Pool economics*: the draft, its curves once computed, the query shown (ALL: every query). A change
    of the draft's grades or versions drops the curves, so none stays stale on screen."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.result: Economics | None = None
        self.query_id = ALL
        self.problem = ""
        self.generation = 0

    def set_project(self, project: Project | None) -> None:
        self.project = project
        self.query_id = ALL
        self._drop({PROJECT, RESULT})

    def reload(self) -> None:
        self._drop({RESULT})

    def forget_results(self) -> None:
        self._drop({RESULT})

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, ItemsChanged):
            if self.result is not None and event.version == self.result.version:
                self._drop({RESULT})
        elif isinstance(event, VersionRefused):
            self.forget_results()
        else:
            super().project_changed(event)

    def _drop(self, aspects: set[str]) -> None:
        self.generation += 1
        self.result = None
        self.problem = ""
        self.changed.emit(frozenset(aspects))

    def draft(self) -> PoolVersion | None:
        return self.project.pools.draft() if self.project is not None else None

    def job(self) -> Job[Economics | None]:
        project, draft = self.project, self.draft()
        if project is None or draft is None:
            raise ValueError("open a project with a draft pool first")
        number = draft.version

        def work(progress: Progress | None = None, cancelled: IsCancelled | None = None) -> Economics | None:
            return pool_economics(project, number, progress=progress, cancelled=cancelled)

        return Job("economics", self.generation, work)

    def apply(self, job: Job[Economics | None], result: Economics | None) -> bool:
        """Show ``result`` if nothing changed since ``job`` was made; False (dropped) otherwise."""
        if job.generation != self.generation:
            return False
        self.result = result
        self.problem = "" if result is not None else "the draft was not built by ndcg pool or Build pool"
        if result is not None and self.query_id != ALL and self.query_id not in result.build.queries:
            self.query_id = ALL
        self.changed.emit(frozenset({RESULT, QUERY}))
        return True

    def refused(self, job: Job[Economics | None], message: str) -> None:
        if job.generation == self.generation:
            self.result, self.problem = None, message
            self.changed.emit(frozenset({RESULT}))

    def show_query(self, query_id: str) -> None:
        if query_id != self.query_id:
            self.query_id = query_id
            self.changed.emit(frozenset({QUERY}))

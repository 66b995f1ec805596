"""The state of *Pool ▸ Simulate pooling…* and *Pool ▸ Reusability…* (issue 34 items 3 and 4, the window's part).

Both study the open project: its latest frozen version is the oracle, its stored runs are the runs (read by
:func:`~ndcg_desktop.tasks.pool_runs.pool_runs_from_project`, proven as ``ndcg simulate-pooling --project`` proves
them), and the numbers are :func:`~ndcg_desktop.tasks.pool_simulation.simulate_pooling`'s and
:func:`~ndcg_desktop.tasks.pool_simulation.reusability`'s, unchanged. A session holds what the view shows: the
project, why a study cannot run (no frozen version, fewer than two stored runs), the last result; a change of the
project's versions or runs drops the result, so none stays stale on screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from ndcg_desktop.domain import EvalSettings, InputError
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.scoring.pooling import Budget, Strategy
from ndcg_desktop.sessions.events import FollowsProject
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.pool_runs import pool_runs_from_project
from ndcg_desktop.tasks.pool_simulation import (
    PoolingSimulation,
    Reusability,
    export_simulation,
    groups_of,
    reusability,
    simulate_pooling,
)

PROJECT, RESULT = "project", "result"
NO_PROJECT, NO_FROZEN_VERSION, TOO_FEW_RUNS = "no project", "no frozen version", "too few runs"
UNAVAILABLE = {  # why a study cannot run (the window shows its own translation of each)
    NO_PROJECT: "Open a project first.",
    NO_FROZEN_VERSION: "The project has no frozen version to serve as the oracle: freeze a pool first.",
    TOO_FEW_RUNS: "A pooling study needs at least two stored runs: import runs first.",
}
T = TypeVar("T")


def parse_budgets(text: str) -> list[Budget]:
    """``10%, 20%, total:500`` as budgets (the core's sentence for one it cannot read)."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise InputError("give at least one budget: 10%, 20, or total:500")
    return [Budget.parse(part) for part in parts]


@dataclass(frozen=True)
class StudyRequest:
    """What the view's fields ask for."""

    runs: tuple[str, ...]
    depth: int
    k: int


class _StudySession(FollowsProject, Generic[T]):
    """The project, the stored runs to offer, why the study cannot run, the last result."""

    kind = "study"

    def __init__(self) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.result: T | None = None
        self.problem = ""
        self.generation = 0

    def set_project(self, project: Project | None) -> None:
        self.project = project
        self._drop({PROJECT, RESULT})

    def reload(self) -> None:
        self._drop({PROJECT, RESULT})

    def forget_results(self) -> None:
        self._drop({RESULT})

    def _drop(self, aspects: set[str]) -> None:
        self.generation += 1
        self.result = None
        self.problem = ""
        self.changed.emit(frozenset(aspects))

    def run_names(self) -> list[str]:
        return [info.name for info in self.project.runs.all()] if self.project is not None else []

    def unavailable(self) -> str:
        """Why the study cannot run on this project (a key of :data:`UNAVAILABLE`; "" when it can)."""
        if self.project is None:
            return NO_PROJECT
        if not any(v.frozen for v in self.project.pools.versions()):
            return NO_FROZEN_VERSION
        if len(self.run_names()) < 2:
            return TOO_FEW_RUNS
        return ""

    def _job(self, request: StudyRequest, study: Callable[..., T], **options: object) -> Job[T]:
        """``study(pool, depth=, k=, base=, progress=, cancelled=, **options)`` on the requested runs, with the
        latest frozen version as the oracle, read on the worker."""
        project = self.project
        why = self.unavailable()
        if project is None or why:
            raise InputError(UNAVAILABLE[why or NO_PROJECT])

        def work(progress: Progress | None = None, cancelled: IsCancelled | None = None) -> T:
            base = EvalSettings()
            pool = pool_runs_from_project(project, request.runs, None, base)
            return study(
                pool, depth=request.depth, k=request.k, base=base, progress=progress, cancelled=cancelled, **options
            )

        return Job(self.kind, self.generation, work)

    def apply(self, job: Job[T], result: T) -> bool:
        """Show ``result`` if nothing changed since ``job`` was made; False (dropped) otherwise."""
        if job.generation != self.generation:
            return False
        self.result, self.problem = result, ""
        self.changed.emit(frozenset({RESULT}))
        return True

    def refused(self, job: Job[T], message: str) -> None:
        if job.generation == self.generation:
            self.result, self.problem = None, message
            self.changed.emit(frozenset({RESULT}))


class SimulationSession(_StudySession[PoolingSimulation]):
    """*Pool ▸ Simulate pooling*: strategies at budgets on the project's latest frozen version."""

    kind = "simulate-pooling"

    def job(
        self, request: StudyRequest, strategies: Sequence[Strategy], budgets: Sequence[Budget]
    ) -> Job[PoolingSimulation]:
        return self._job(request, simulate_pooling, strategies=list(strategies), budgets=list(budgets))

    def export(self, folder: str | Path) -> list[Path]:
        """The shown result as ``ndcg simulate-pooling --export`` writes it."""
        if self.result is None:
            raise InputError("nothing to export: run the simulation first")
        return export_simulation(self.result, folder)


class ReusabilitySession(_StudySession[Reusability]):
    """*Pool ▸ Reusability*: each run (or group of runs) left out of the project's latest frozen version's pool."""

    kind = "reusability"

    def job(self, request: StudyRequest, group_by: str = "") -> Job[Reusability]:
        pattern = group_by.strip() or None
        groups = groups_of(request.runs, group_by=pattern)  # a bad expression refused before any work

        return self._job(request, reusability, groups=groups)

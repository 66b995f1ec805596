"""*Compare pool versions*' state as a Qt-free, evented session (the pattern of :mod:`ndcg_desktop.sessions.scores`).

The two frozen versions chosen (A before B), K and every evaluation choice ``ndcg diff-pools`` offers, each
offered from the one table of choices (:mod:`ndcg_desktop.domain.choices`, the default first, so nothing is
guessed until the user chooses: rule 6), and the diff once computed. Any change of an input drops the diff; a diff
computed from older inputs is refused by :meth:`PoolDiffSession.apply`. The session follows the project's events:
a version frozen since is offered, a chosen version that went is dropped (with the diff), a new run drops the diff
(its runs table would lack it), and a refused version drops what was computed from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.domain.choices import BY_NAME, DEFAULT_K, Choice
from ndcg_desktop.sessions.events import FollowsProject, ProjectEvent, RunsChanged, VersionRefused, VersionsChanged
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks import pool_diff
from ndcg_desktop.tasks.pool_diff import PoolDiff

# (project, a, b, settings, progress=..., cancelled=...) -> PoolDiff
Differ = Callable[..., PoolDiff]

# The choices `ndcg diff-pools` takes (every evaluation choice but the stored runs' own reading: ties).
DIFF_CHOICES: tuple[Choice, ...] = tuple(
    BY_NAME[name] for name in ("gain", "unjudged", "duplicates", "unknown_queries", "zero_idcg", "queries")
)

# Aspects carried by PoolDiffSession.changed.
PROJECT, INPUTS, RESULT = "project", "inputs", "result"


def _diff_pools(*args: Any, **kwargs: Any) -> PoolDiff:
    return pool_diff.diff_pools(*args, **kwargs)  # looked up when called: a test may stand in for it


class PoolDiffSession(FollowsProject):
    """Project + two frozen versions + K + choices -> one :class:`~ndcg_desktop.tasks.pool_diff.PoolDiff`."""

    def __init__(self, differ: Differ = _diff_pools) -> None:
        self.differ = differ
        self.changed = Emitter()
        self.project: Project | None = None
        self.frozen: list[PoolVersion] = []  # oldest first
        self.a: int | None = None
        self.b: int | None = None
        self.k = DEFAULT_K
        self.shared_queries = False  # the means over the queries both versions judge (--shared-queries)
        self.choices: dict[str, str] = {choice.name: choice.default.value for choice in DIFF_CHOICES}
        self.result: PoolDiff | None = None
        self.problem = ""  # why the last comparison was refused ("" when it was not)
        self.generation = 0  # moves with every input and every dropped result
        self._inputs = 0  # moves with the inputs only (a refusal is shown for the inputs it was asked for)
        self._asked: dict[int, int] = {}  # job generation -> the inputs it was made for

    # -- inputs ----------------------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        """Another project (or none): the two latest frozen versions, the default K and every choice's default."""
        self.project = project
        self.frozen = [v for v in project.pools.versions() if v.frozen] if project is not None else []
        self.a, self.b = self._latest_two()
        self.k = DEFAULT_K
        self.shared_queries = False
        self.choices = {choice.name: choice.default.value for choice in DIFF_CHOICES}
        self._drop({PROJECT, INPUTS, RESULT})

    def _latest_two(self) -> tuple[int | None, int | None]:
        numbers = [v.version for v in self.frozen]
        if len(numbers) >= 2:
            return numbers[-2], numbers[-1]
        return (numbers[0], numbers[0]) if numbers else (None, None)

    def reload(self) -> None:
        """Versions came, went or were frozen: keep the chosen ones that are still frozen versions."""
        if self.project is None:
            return
        self.frozen = [v for v in self.project.pools.versions() if v.frozen]
        numbers = [v.version for v in self.frozen]
        if self.a in numbers and self.b in numbers:
            self.changed.emit(frozenset({INPUTS}))  # more to choose from; the diff of the two chosen still holds
            return
        self.a, self.b = self._latest_two()
        self._drop({INPUTS, RESULT})

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, VersionsChanged):
            self.reload()
        elif isinstance(event, RunsChanged):
            self._drop({RESULT})  # the runs table would lack the new run
        elif isinstance(event, VersionRefused):
            self.forget_results()

    def forget_results(self) -> None:
        self._drop({RESULT})

    def set_versions(self, a: int | None, b: int | None) -> None:
        """Compare ``a`` (before) with ``b``: each one of the frozen versions offered."""
        offered = [v.version for v in self.frozen]
        for number in (a, b):
            if number is not None and number not in offered:
                raise ValueError(f"pool version {number} is not a frozen version of this project ({offered})")
        if (a, b) != (self.a, self.b):
            self.a, self.b = a, b
            self._drop({INPUTS, RESULT})

    def set_k(self, k: int) -> None:
        if k != self.k:
            self.k = k
            self._drop({INPUTS, RESULT})

    def set_shared_queries(self, shared: bool) -> None:
        """Each run's means over the queries both versions judge (``ndcg diff-pools --shared-queries``), or not."""
        if bool(shared) != self.shared_queries:
            self.shared_queries = bool(shared)
            self._drop({INPUTS, RESULT})

    def choose(self, name: str, value: str) -> None:
        """One of :data:`DIFF_CHOICES` (``choose("unjudged", "zero")``)."""
        choice = BY_NAME[name] if name in self.choices else None
        if choice is None:
            raise ValueError(f"no choice {name!r} here ({', '.join(self.choices)})")
        if value not in choice.values:
            raise ValueError(f"{value!r} is not a value of {name} ({', '.join(choice.values)})")
        if self.choices[name] != value:
            self.choices[name] = value
            self._drop({INPUTS, RESULT})

    @staticmethod
    def options(name: str) -> list[tuple[str, str]]:
        """Each value of a choice with its words (untranslated), the default first, as the table declares them."""
        return list(BY_NAME[name].labels.items())

    def settings(self) -> EvalSettings:
        """The policies the diff scores under (the versions bring their scales and the runs their readings)."""
        return EvalSettings().with_(**{choice.name: choice.enum(self.choices[choice.name]) for choice in DIFF_CHOICES})

    # -- work ------------------------------------------------------------------------------------
    def ready(self) -> bool:
        """Two frozen versions to compare (choosing one twice is refused by the diff, in its words)."""
        return self.project is not None and len(self.frozen) >= 2 and self.a is not None and self.b is not None

    def job(self) -> Job[PoolDiff]:
        """The diff of the chosen versions under the chosen settings, to run on any thread; hand it to apply."""
        project, a, b, differ = self.project, self.a, self.b, self.differ
        if project is None or a is None or b is None:
            raise ValueError("open a project with two frozen pool versions first")
        settings, k = self.settings(), self.k
        shared = {"shared_queries": True} if self.shared_queries else {}

        def work(progress: Any = None, cancelled: Any = None) -> PoolDiff:
            return differ(project, a, b, settings, k=k, progress=progress, cancelled=cancelled, **shared)

        self._asked = {self.generation: self._inputs}
        return Job("diff", self.generation, work)

    def apply(self, job: Job[object], result: PoolDiff) -> bool:
        """Show ``result`` if the inputs are those it was computed from; False (dropped) otherwise."""
        if job.generation != self.generation:
            return False
        self.result, self.problem = result, ""
        self.changed.emit(frozenset({RESULT}))
        return True

    def refused(self, job: Job[object], message: str) -> bool:
        """The job was refused (a version changed on disk, say): no earlier diff stays beside ``message``, shown
        while the inputs are those it was asked for (the refusal may have dropped the result already)."""
        if self._asked.get(job.generation) != self._inputs:
            return False
        self.generation += 1
        self.result, self.problem = None, message
        self.changed.emit(frozenset({RESULT}))
        return True

    def _drop(self, aspects: set[str]) -> None:
        self.generation += 1
        if aspects & {PROJECT, INPUTS}:
            self._inputs += 1
        self.result, self.problem = None, ""
        self.changed.emit(frozenset(aspects))

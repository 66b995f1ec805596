"""The Agreement view's state as a Qt-free, evented model (the pattern of :mod:`ndcg_desktop.sessions.scores`).

Inputs: the project, a pool version (a draft or a frozen one) and the settings the runs are scored
under (K, gain, and the policies for unjudged documents, duplicates and unknown queries). Any change
drops the result; a result computed from older inputs is refused by :meth:`AgreementSession.apply`,
so no view shows a stale figure. Another project or pool version puts the three policies back to
their refusing defaults: a choice made for one version's runs is never carried to another's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.sessions.events import FollowsProject, ItemsChanged, ProjectEvent, VersionRefused, VersionsChanged
from ndcg_desktop.sessions.kit import Emitter, Job, prove_or_forget
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.agreement import AgreementResult, Caveat, load_agreement

# (project, version, settings, k=..., progress=..., cancelled=...) -> AgreementResult
Loader = Callable[..., AgreementResult]

# Aspects carried by AgreementSession.changed.
PROJECT, INPUTS, RESULT = "project", "inputs", "result"


class AgreementSession(FollowsProject):
    """Project + pool version + scoring settings -> one :class:`AgreementResult`."""

    def __init__(self, loader: Loader = load_agreement) -> None:
        self.loader = loader  # reads the version's ratings and computes; tests may hand in their own ratings
        self.changed = Emitter()
        self.project: Project | None = None
        self.version: int | None = None
        self.settings = EvalSettings()  # the contract's defaults: unjudged documents refused until chosen
        self.k = DEFAULT_K
        self.result: AgreementResult | None = None
        self.generation = 0

    def versions(self) -> list[PoolVersion]:
        return self.project.pools.versions() if self.project is not None else []

    def set_project(self, project: Project | None) -> None:
        """Another project (or none): the newest version (the draft if any) is chosen, nothing computed."""
        self.project = project
        versions = self.versions()
        self.version = versions[-1].version if versions else None
        self._unset_policies()
        self._drop({PROJECT, INPUTS, RESULT})

    def reload(self) -> None:
        """The project changed (a merge, an adjudication, a freeze): keep the version if it still exists."""
        numbers = [v.version for v in self.versions()]
        if self.version not in numbers:
            self.version = numbers[-1] if numbers else None
            self._unset_policies()
        self._drop({INPUTS, RESULT})

    def set_version(self, number: int | None) -> None:
        if number != self.version:
            self.version = number
            self._unset_policies()
            self._drop({INPUTS, RESULT})

    def set_settings(self, **changes: object) -> None:
        """The gain or a policy (``gain=Gain.EXPONENTIAL``, ``unjudged=...``, ``duplicates=...``)."""
        settings = self.settings.with_(**changes)
        if settings != self.settings:
            self.settings = settings
            self._drop({INPUTS, RESULT})

    def set_k(self, k: int) -> None:
        """The cutoff the runs are scored at (the window's spin box bounds it)."""
        if k != self.k:
            self.k = k
            self._drop({INPUTS, RESULT})

    def _unset_policies(self) -> None:
        defaults = EvalSettings()
        self.settings = self.settings.with_(
            unjudged=defaults.unjudged, duplicates=defaults.duplicates, unknown_queries=defaults.unknown_queries
        )

    def ready(self) -> bool:
        return self.project is not None and self.version is not None

    def job(self) -> Job[AgreementResult]:
        """The computation for the current inputs, to run on any thread; hand its result to :meth:`apply`."""
        project, version, settings, k, loader = self.project, self.version, self.settings, self.k, self.loader
        if project is None or version is None:
            raise ValueError("no project or pool version chosen")

        def work(progress: Any = None, cancelled: Any = None) -> AgreementResult:
            return loader(project, version, settings, k=k, progress=progress, cancelled=cancelled)

        return Job("agreement", self.generation, work)

    def apply(self, job: Job[AgreementResult], result: AgreementResult) -> bool:
        """Show ``result`` if the inputs are those it was computed from; False (dropped) otherwise."""
        if job.generation != self.generation:
            return False
        self.result = result
        self.changed.emit(frozenset({RESULT}))
        return True

    def warnings(self) -> list[str]:
        """The shown result's warnings (:meth:`AgreementResult.warnings`: two annotators identical on every item
        both rated, and the figures without the duplicate), as ``ndcg agreement`` prints them; [] without a result."""
        return self.result.warnings() if self.result is not None else []

    def caveats(self) -> list[Caveat]:
        """What to keep in mind reading the shown result (too few shared items, too few runs for Kendall's tau),
        the caveats ``ndcg agreement`` prints; [] without a result."""
        return self.result.caveats() if self.result is not None else []

    def items_changed(self, version: int) -> None:
        """A grade, rating or item of ``version`` changed: a result computed from it goes (another version's stays)."""
        if self.result is not None and self.result.version.version == version:
            self._drop({RESULT})
        elif self.version == version:
            self.generation += 1  # a job computing it now would be as stale

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, ItemsChanged):
            self.items_changed(event.version)
        elif isinstance(event, VersionsChanged):
            self.reload()
        elif isinstance(event, VersionRefused):
            self.forget_results()

    def forget_results(self) -> None:
        """The project refused a frozen version (changed on disk): the result goes; the inputs stay."""
        self._drop({RESULT})

    def prove(self) -> None:
        """Before the result leaves the window (an export): :func:`prove_or_forget` its version, if frozen."""
        if self.project is not None and self.result is not None and self.result.version.frozen:
            prove_or_forget(self.project, self.result.version.version, self.forget_results)

    def _drop(self, aspects: set[str]) -> None:
        self.generation += 1
        self.result = None
        self.changed.emit(frozenset(aspects))

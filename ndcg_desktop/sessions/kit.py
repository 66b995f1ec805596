"""What every view session is made of: a Qt-free signal, a job to run on any thread, the pool-version choice and
the proof a frozen version gives before a result leaves the window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ndcg_desktop.store import FrozenVersionChanged, PoolVersion, Project


def prove_or_forget(project: Project, version: int, forget: Callable[[], None]) -> None:
    """Before a view's result leaves the window (an export): frozen ``version`` still proves itself (rules 15 and
    16), or ``forget()`` drops what was computed from it and :class:`~ndcg_desktop.store.FrozenVersionChanged`
    is raised."""
    try:
        project.pools.frozen_version(version)
    except FrozenVersionChanged:
        forget()
        raise


class Emitter:
    """A minimal evented signal: ``connect(callback)``, ``emit(*args)``; no Qt."""

    def __init__(self) -> None:
        self._callbacks: list[Callable[..., object]] = []

    def connect(self, callback: Callable[..., object]) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable[..., object]) -> None:
        self._callbacks.remove(callback)

    def emit(self, *args: object) -> None:
        for callback in list(self._callbacks):
            callback(*args)


T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Job(Generic[T_co]):
    """Work to run anywhere: ``fn(progress=..., cancelled=...)``; its result goes back through ``apply``."""

    kind: str  # "check", "score" or "plan"
    generation: int
    fn: Callable[..., T_co]

    def __call__(
        self, progress: Callable[[int, int], None] | None = None, cancelled: Callable[[], bool] | None = None
    ) -> T_co:
        """The job's result (what the session's ``apply`` takes back)."""
        return self.fn(progress=progress, cancelled=cancelled)


class VersionChoice:
    """The project's pool versions, the one chosen and the older one a score may be residual from (rule 21)
    (a session's ``_versions``, ``_pool_version`` and ``_residual_from``)."""

    _versions: list[PoolVersion]
    _pool_version: int | None
    _residual_from: int | None = None

    @property
    def residual_from(self) -> int | None:
        """The earlier frozen version whose judged documents are removed before scoring (None: not residual)."""
        return self._residual_from

    @property
    def residual_versions(self) -> list[PoolVersion]:
        """The versions a score against the chosen one can be residual from: the older frozen ones, newest first."""
        if self._pool_version is None:
            return []
        return [v for v in self.frozen_versions if v.version < self._pool_version]

    def _check_residual(self, number: int | None) -> None:
        if number is not None and number not in [v.version for v in self.residual_versions]:
            raise ValueError(f"pool version {number} is no older frozen version than the one scored")

    def _residual_gone(self) -> bool:
        """Drop a residual choice that is no longer an older frozen version than the chosen one; True if dropped."""
        if self._residual_from is not None and self._residual_from not in [v.version for v in self.residual_versions]:
            self._residual_from = None
            return True
        return False

    @property
    def frozen_versions(self) -> list[PoolVersion]:
        """The frozen versions, newest first."""
        return [v for v in reversed(self._versions) if v.frozen]

    @property
    def version(self) -> PoolVersion | None:
        return next((v for v in self._versions if v.version == self._pool_version), None)

    def _follow_versions(self, listed: list[int]) -> None:
        """After the versions changed (``listed``: the frozen ones before): a version frozen since is chosen (the
        work just finished is what one scores next); else the choice stays while still frozen, or the newest."""
        frozen = [v.version for v in self.frozen_versions]
        new = [number for number in frozen if number not in listed]
        if new:
            self._pool_version = new[0]
        elif self._pool_version not in frozen:
            self._pool_version = frozen[0] if frozen else None

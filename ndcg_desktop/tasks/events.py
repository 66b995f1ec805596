"""The open project's events: one Qt-free source that every view's session subscribes to.

napari's evented models are the pattern: a change is an event, and nothing is refreshed by a hand-written
list of views. The events are derived from what the file says changed (``store/watch.py``), not announced by
the code that wrote, so a grade, an undo, a worker's import or another program's write all reach every
subscriber the same way:

- after every write committed on the window's thread, at once;
- after another connection's commit (a worker, another process), at the next :meth:`ProjectEvents.check`
  (the window calls it when a task ends and on a timer).

Example:

>>> import tempfile, pathlib
>>> from ndcg_desktop.tasks.project import create_project
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> project = create_project(folder / "p.ndcgproj")
>>> events = ProjectEvents(project)
>>> seen = []
>>> events.subscribe(seen.append)
>>> _ = project.ensure_draft()
>>> seen
[VersionsChanged(added=(1,), removed=(), frozen=())]
>>> events.close(); project.close()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ndcg_desktop.store import FrozenVersionChanged, Project
from ndcg_desktop.store.watch import NO_VERSION, Changes

__all__ = [
    "EvaluationsChanged",
    "ItemsChanged",
    "ProjectClosed",
    "ProjectEvent",
    "ProjectEvents",
    "RunsChanged",
    "SettingsChanged",
    "TextsChanged",
    "VersionRefused",
    "VersionsChanged",
]


class ProjectEvent:
    """Base of every project event (typed, frozen dataclasses below)."""


@dataclass(frozen=True)
class ItemsChanged(ProjectEvent):
    """Pool items, grades, notes, ratings, assignments or adjudications of ``version`` changed."""

    version: int


@dataclass(frozen=True)
class VersionsChanged(ProjectEvent):
    """Pool versions were added (a draft started or restored), removed (a draft discarded) or frozen."""

    added: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    frozen: tuple[int, ...] = ()


@dataclass(frozen=True)
class RunsChanged(ProjectEvent):
    """A run was imported."""


@dataclass(frozen=True)
class TextsChanged(ProjectEvent):
    """Queries, topics, documents or the grading guidelines changed."""


@dataclass(frozen=True)
class EvaluationsChanged(ProjectEvent):
    """An evaluation was recorded."""


@dataclass(frozen=True)
class SettingsChanged(ProjectEvent):
    """A project setting (the judging order, ...) changed."""


@dataclass(frozen=True)
class VersionRefused(ProjectEvent):
    """A frozen version no longer proves itself (rules 15-16): nothing computed from it may stay on screen.
    ``error`` is the refusal, to show once."""

    error: FrozenVersionChanged


@dataclass(frozen=True)
class ProjectClosed(ProjectEvent):
    """The project was closed (or replaced by another): every session starts over."""


Subscriber = Callable[[ProjectEvent], None]

# Tables whose change is one event whatever the version; any other table with a version column is an item change.
_BY_TABLE: dict[str, ProjectEvent] = {
    "runs": RunsChanged(),
    "queries": TextsChanged(),
    "documents": TextsChanged(),
    "guidelines": TextsChanged(),
    "evaluations": EvaluationsChanged(),
    "meta": SettingsChanged(),
}


class ProjectEvents:
    """The event source of one open project. ``subscribe(callback)``; ``check()`` after others may have written."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._subscribers: list[Subscriber] = []
        self._versions = self._version_states()
        self._dispatching = False
        self._again = False
        self._closed = False
        self._watch = project.watch(self.check)

    def subscribe(self, callback: Subscriber) -> None:
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        if callback in self._subscribers:
            self._subscribers.remove(callback)

    def emit(self, event: ProjectEvent) -> None:
        """Tell every subscriber (in the order they subscribed)."""
        for callback in list(self._subscribers):
            callback(event)

    def refused(self, exc: FrozenVersionChanged) -> None:
        """A use of a frozen version failed its proof: every view forgets what it computed from it."""
        self.emit(VersionRefused(exc))

    def close(self) -> None:
        """The project closes: say so once, then stop."""
        if self._closed:
            return
        self._closed = True
        self.emit(ProjectClosed())
        self._subscribers.clear()

    def check(self) -> None:
        """Turn what changed since the last check into events. A subscriber that writes is told again after."""
        if self._closed:
            return
        if self._dispatching:  # a subscriber wrote: its change is taken once this round is told
            self._again = True
            return
        self._dispatching = True
        try:
            while True:
                self._again = False
                changes = self._watch.take()
                if changes:
                    for event in self._events(changes):
                        self.emit(event)
                if not self._again:
                    break
        finally:
            self._dispatching = False

    # -- what the changes mean -----------------------------------------------------------------
    def _version_states(self) -> dict[int, str]:
        return {v.version: v.state for v in self.project.versions()}

    def _events(self, changes: Changes) -> list[ProjectEvent]:
        before, after = self._versions, self._version_states()
        self._versions = after
        events: list[ProjectEvent] = []
        added = tuple(v for v in after if v not in before)
        removed = tuple(v for v in before if v not in after)
        frozen = tuple(v for v, state in after.items() if state == "frozen" and before.get(v) == "draft")
        if added or removed or frozen:
            events.append(VersionsChanged(added, removed, frozen))
        items: set[int] = set()
        others: list[ProjectEvent] = []
        for table, version in sorted(changes.touched):
            if table in _BY_TABLE:
                others.append(_BY_TABLE[table])
            elif version != NO_VERSION and table != "pool_versions":
                items.add(version)
        if changes.external:  # another connection wrote: what it touched is unknown, so every draft may have
            items |= {v for v, state in after.items() if state == "draft"} | set(removed)
            others += [RunsChanged(), TextsChanged(), EvaluationsChanged(), SettingsChanged()]
        events += [ItemsChanged(v) for v in sorted(items)]
        events += list(dict.fromkeys(others))  # once each, in a fixed order
        return events

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
>>> project = create_project(folder / "p.ndcgproj", annotator="ana")
>>> events = ProjectEvents(project)
>>> seen = []
>>> events.subscribe(seen.append)
>>> _ = project.pools.ensure_draft(annotator="ana")
>>> seen
[VersionsChanged(added=(1,), removed=(), frozen=())]
>>> events.close(); project.close()
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from ndcg_desktop.store import FrozenVersionChanged, Project
from ndcg_desktop.store.watch import NO_QUERY, NO_VERSION, Changes

__all__ = [
    "EvaluationsChanged",
    "ItemsChanged",
    "ProjectClosed",
    "ProjectEvent",
    "ProjectEvents",
    "ProjectOpened",
    "ProjectSlot",
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
    """Pool items, grades, notes, ratings, assignments or adjudications of ``version`` changed: of the queries
    named, or of any query when ``queries`` is None (another program wrote, or the change was not per query)."""

    version: int
    queries: frozenset[str] | None = None

    def touches(self, query_id: str) -> bool:
        return self.queries is None or query_id in self.queries


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
    """Texts changed: the queries (titles, topics), the documents, or the grading guidelines. ``documents`` is also
    True after another connection wrote (documents are too many to mark cheaply, so they may have)."""

    queries: bool = False
    documents: bool = False
    guidelines: bool = False


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


@dataclass(frozen=True)
class ProjectOpened(ProjectEvent):
    """``project`` is now the open one, its changes made as ``annotator`` (told by a :class:`ProjectSlot` to its
    subscribers)."""

    project: Project
    annotator: str


Subscriber = Callable[[ProjectEvent], None]

# Tables whose change is one event whatever the version; any other table with a version column is an item change.
_BY_TABLE: dict[str, ProjectEvent] = {
    "runs": RunsChanged(),
    "queries": TextsChanged(queries=True),
    "documents": TextsChanged(documents=True),
    "guidelines": TextsChanged(guidelines=True),
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
        return {v.version: v.state for v in self.project.pools.versions()}

    def _events(self, changes: Changes) -> list[ProjectEvent]:
        before, after = self._versions, self._version_states()
        self._versions = after
        events: list[ProjectEvent] = []
        added = tuple(v for v in after if v not in before)
        removed = tuple(v for v in before if v not in after)
        frozen = tuple(v for v, state in after.items() if state == "frozen" and before.get(v) == "draft")
        if added or removed or frozen:
            events.append(VersionsChanged(added, removed, frozen))
        items: dict[int, set[str] | None] = {}  # version -> the queries touched (None: any)
        others: list[ProjectEvent] = []
        for table, version, query_id in sorted(changes.touched):
            if table in _BY_TABLE:
                others.append(_BY_TABLE[table])
            elif version != NO_VERSION and table != "pool_versions":
                queries = items.setdefault(version, set())
                if queries is not None:
                    if query_id == NO_QUERY:
                        items[version] = None
                    else:
                        queries.add(query_id)
        if changes.documents:
            others.append(TextsChanged(documents=True))
        events += [
            ItemsChanged(v, None if queries is None else frozenset(queries)) for v, queries in sorted(items.items())
        ]
        texts = [event for event in others if isinstance(event, TextsChanged)]
        others = [event for event in others if not isinstance(event, TextsChanged)]
        if texts:  # one event for every kind of text that changed
            others.append(
                TextsChanged(
                    queries=any(t.queries for t in texts),
                    documents=any(t.documents for t in texts),
                    guidelines=any(t.guidelines for t in texts),
                )
            )
        events += list(dict.fromkeys(others))  # once each
        return events


class ProjectSlot:
    """Where a front keeps its one open project: sessions subscribe once, and hear every project's events.

    Opening tells :class:`ProjectOpened`, closing (or opening another) :class:`ProjectClosed`; in between, the
    open project's own events. Nothing is fanned out by a list of views.

    >>> import tempfile, pathlib
    >>> from ndcg_desktop.tasks.project import create_project
    >>> slot, seen = ProjectSlot(), []
    >>> slot.subscribe(lambda event: seen.append(type(event).__name__))
    >>> slot.open(create_project(pathlib.Path(tempfile.mkdtemp()) / "p.ndcgproj", annotator="ana"), annotator="ana")
    >>> _ = slot.project.pools.ensure_draft(annotator=slot.annotator)
    >>> slot.close()
    >>> seen
    ['ProjectOpened', 'VersionsChanged', 'ProjectClosed']
    """

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self.events: ProjectEvents | None = None
        self._annotator = ""

    @property
    def project(self) -> Project | None:
        return self.events.project if self.events is not None else None

    @property
    def annotator(self) -> str:
        """Whom the open project's changes are credited to ('' with none open): decided once, when it was opened
        (:func:`ndcg_desktop.tasks.identity.open_to_grade`)."""
        return self._annotator if self.events is not None else ""

    def subscribe(self, callback: Subscriber) -> None:
        self._subscribers.append(callback)

    def unsubscribe(self, callback: Subscriber) -> None:
        if callback in self._subscribers:
            self._subscribers.remove(callback)

    def _tell(self, event: ProjectEvent) -> None:
        for callback in list(self._subscribers):
            callback(event)

    def open(self, project: Project, *, annotator: str) -> None:
        """``project`` (already open) becomes the slot's, its changes made as ``annotator``; the one before is
        closed first."""
        self.close()
        self.events, self._annotator = ProjectEvents(project), annotator
        self.events.subscribe(self._tell)
        self._tell(ProjectOpened(project, annotator))

    def close(self) -> None:
        """Close the open project, if any, after telling everyone."""
        events, self.events = self.events, None
        if events is not None:
            events.close()  # tells ProjectClosed through _tell
            events.project.close()

    def check(self) -> None:
        """Look for other connections' writes (after a task ends; on a timer for other programs)."""
        if self.events is not None:
            self.events.check()

    def refused(self, exc: FrozenVersionChanged) -> None:
        if self.events is not None:
            self.events.refused(exc)


class FollowsProject(ABC):
    """A view's session fed by a :class:`ProjectSlot`: it starts over with each project and keeps up with it.

    Subclasses define ``set_project(project)`` and may override :meth:`project_changed` (the default reloads
    after versions or runs changed and forgets results after a refusal, through ``reload``/``forget_results``).
    ``annotator`` is whom the project's changes are credited to, set before ``set_project``: what a session passes
    to every write that records who.
    """

    annotator: str = ""

    @abstractmethod
    def set_project(self, project: Project | None) -> None: ...

    def follow(self, slot: ProjectSlot) -> None:
        slot.subscribe(self.project_event)
        if slot.project is not None:
            self.annotator = slot.annotator
            self.set_project(slot.project)

    def project_event(self, event: ProjectEvent) -> None:
        if isinstance(event, ProjectOpened):
            self.annotator = event.annotator
            self.set_project(event.project)
        elif isinstance(event, ProjectClosed):
            self.annotator = ""
            self.set_project(None)
        else:
            self.project_changed(event)

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, VersionsChanged | RunsChanged):
            self.reload()
        elif isinstance(event, VersionRefused):
            self.forget_results()

    @abstractmethod
    def reload(self) -> None: ...

    @abstractmethod
    def forget_results(self) -> None: ...

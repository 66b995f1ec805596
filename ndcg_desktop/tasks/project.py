"""The way in to a project for every front (the window, the command line, the Python API).

The fronts never import the store: they open and create projects here, and name the store's types
(a pool version, a run's record, the errors a project can raise) through this module.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with create_project(folder / "p.ndcgproj", annotator="ana") as project:
...     project.scale
GradeScale(low=0, high=3)
>>> with open_project(folder / "p.ndcgproj", read_only=True) as project:
...     project.read_only
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import check_person
from ndcg_desktop.store import (
    SUFFIX,
    Cancelled,
    DiskFull,
    FrozenVersionChanged,
    PoolVersion,
    Project,
    ProjectBusy,
    ProjectDamaged,
    ProjectInUse,
    ProjectReadOnly,
    ProtectionAltered,
    RunChanged,
    RunInfo,
    SavedEvaluation,
    StorageProblem,
    release_thread_connections,
)
from ndcg_desktop.store.errors import known_error
from ndcg_desktop.store.pools import DEFAULT_LABELS, default_labels
from ndcg_desktop.store.team import outstanding_text
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks.advice import start_a_draft
from ndcg_desktop.tasks.assessing.injection import (
    Flagged,
    fillable_items,
    flag_items,
    flagged_text,
    suggested_model,
)
from ndcg_desktop.tasks.freezing import FreezeChoices, fill_option, freeze_draft
from ndcg_desktop.tasks.identity import USER_NAME, grading_name

__all__ = [
    "DEFAULT_LABELS",
    "SUFFIX",
    "DiskFull",
    "FrozenVersionChanged",
    "Cancelled",
    "PoolVersion",
    "Project",
    "ProjectBusy",
    "ProjectDamaged",
    "ProjectInUse",
    "ProjectReadOnly",
    "ProtectionAltered",
    "RunChanged",
    "RunInfo",
    "SavedEvaluation",
    "StorageProblem",
    "create_project",
    "default_labels",
    "DraftStarted",
    "FreezePreview",
    "Frozen",
    "GradeCount",
    "RatedBy",
    "freeze",
    "freeze_preview",
    "known_error",
    "open_project",
    "release_thread_connections",
    "start_draft",
    "take_over",
    "Taken",
]


def open_project(path: str | Path, *, read_only: bool = False) -> Project:
    """Open a project file (one writer at a time; readers need no lock). Close it, or use ``with``. Each write
    names who makes it (:func:`~.identity.open_to_grade` opens a project with the name its changes carry)."""
    return Project.open(path, read_only=read_only)


def take_over(project: Project) -> None:
    """Make the calling thread ``project``'s own: opened and checked on a worker (the window's open), it is used,
    watched and written from this thread from now on. Only once the worker is done with it."""
    project.file.adopt()


def create_project(
    path: str | Path,
    *,
    scale: GradeScale | None = None,
    labels: list[str] | None = None,
    annotator: str | None = None,
) -> Project:
    """Create an empty project with a grade scale (0..3 unless given) and a label per grade, and open it; its
    creator is ``annotator`` (None: :func:`~.identity.grading_name`), checked as every person's name."""
    creator = check_person(annotator or grading_name(), USER_NAME)
    return Project.create(path, scale=scale, labels=labels, annotator=creator)


@dataclass(frozen=True)
class DraftStarted:
    """The draft :func:`start_draft` started and the frozen version it copies."""

    draft: PoolVersion
    source: int


def start_draft(project: Project, source: int | None = None, *, annotator: str) -> DraftStarted:
    """Start the next draft as a copy of frozen version ``source`` (the latest frozen one when None). Refused,
    saying what to do instead, when there is nothing to copy."""
    if source is None:
        latest = project.pools.latest_frozen()
        if latest is None:
            draft = project.pools.draft()
            advice = f"continue draft version {draft.version}" if draft else start_a_draft(project)
            raise InputError(f"has no frozen version to copy; {advice}", path=project.path)
        source = latest.version
    return DraftStarted(project.pools.new_draft_from(source, annotator=annotator), source)


@dataclass(frozen=True)
class GradeCount:
    """How many items of a draft have ``grade``, named by its ``label``."""

    grade: int
    label: str
    count: int


@dataclass(frozen=True)
class FreezePreview:
    """What freezing draft ``version`` would freeze: its queries and items, how many have each grade of the scale,
    how many are ungraded, and how many await adjudication (freezing refuses them; removing the ungraded would not
    help)."""

    version: int
    queries: int
    documents: int
    grades: tuple[GradeCount, ...]  # every grade of the draft's scale, lowest first
    ungraded: int
    awaiting: int
    work_out: str = ""  # the work files still handed out, named (store.team.outstanding_text); "" when none
    graded_queries: int | None = None  # the queries with a graded item (None: as many as ``queries``)

    def kept(self, *, remove_ungraded: bool) -> tuple[int, int]:
        """The queries and documents the frozen version would hold: all of them, or, with ``remove_ungraded``,
        only the graded items and their queries (issue 36: the summary kept the draft's count after the tick)."""
        if not remove_ungraded:
            return self.queries, self.documents
        queries = self.queries if self.graded_queries is None else self.graded_queries
        return queries, self.documents - self.ungraded

    @property
    def offers_removal(self) -> bool:
        """Removing the ungraded items is a way to freeze: there are some, and nothing awaits adjudication."""
        return self.ungraded > 0 and not self.awaiting

    def can_freeze(self, *, remove_ungraded: bool, work_out: bool = False) -> bool:
        """Whether :func:`freeze` would go ahead: nothing awaits adjudication, no work is still handed out (or
        ``work_out``: freeze anyway), and something graded is left once the ungraded items are removed (or there
        are none)."""
        if self.awaiting or (self.work_out and not work_out):
            return False
        if remove_ungraded:
            return self.documents > self.ungraded
        return self.ungraded == 0 and self.documents > 0


def freeze_preview(project: Project, version: int) -> FreezePreview:
    """The confirmation before :func:`freeze`, counted here so that every front says the same.

    >>> # freeze_preview(project, 2).grades[3] == GradeCount(3, "Perfect", 41)
    """
    draft = project.pools.version(version)
    items = project.pools.pool_items(version)
    counts = items["grade"].dropna().astype("int64").value_counts()
    grades = tuple(
        GradeCount(grade, label, int(counts.get(grade, 0)))
        for grade, label in zip(range(draft.scale.low, draft.scale.high + 1), draft.labels, strict=True)
    )
    return FreezePreview(
        version,
        queries=int(items["query_id"].nunique()),
        documents=len(items),
        grades=grades,
        ungraded=int(items["grade"].isna().sum()),
        awaiting=int(project.pools.query_progress(version)["awaiting"].sum()),
        work_out=outstanding_text(project.ratings.outstanding_handouts(version)),
        graded_queries=int(items.loc[items["grade"].notna(), "query_id"].nunique()),
    )


@dataclass(frozen=True)
class RatedBy:
    """One annotator of a frozen version (rule 16): how many ratings, and the SHA-256 of them."""

    name: str
    ratings: int
    sha256: str


@dataclass(frozen=True)
class Frozen:
    """A version :func:`freeze` froze, with its team record: each annotator's ratings and how many differing items
    were settled each way (pick, median, ...)."""

    version: PoolVersion
    annotators: tuple[RatedBy, ...]
    adjudication: tuple[tuple[str, int], ...]
    team: JsonObject  # the whole record (rule 16), with each model's grades and agreement (rule 18)
    filled: int = 0  # items filled from ``fill_from``'s grades
    flagged: tuple[Flagged, ...] = ()  # those of them whose text addresses the grader (tasks.assessing.injection)


def freeze(project: Project, *, annotator: str, **choices: Unpack[FreezeChoices]) -> Frozen:
    """Freeze the draft (``version``, or the one draft) into an immutable, hashed version. Refused while items
    await adjudication, when nothing is graded, and while items are ungraded unless ``remove_ungraded`` or
    ``fill_from`` (``model:NAME``: items no person rated take the model's grade, refused unless the model was
    compared with people on at least ``min_shared`` items of this draft; contract rule 18), and while work files
    are still handed out unless ``work_out`` (frozen anyway, the hand-outs named in the audit log).

    With ``fill_from``, the items it would fill whose document or topic text addresses the grader
    (:mod:`tasks.assessing.injection`) are named: in ``flagged``, in a refusal's message, and in an export's manifest
    (``filled_texts_flagged``).

    >>> # ndcg freeze p.ndcgproj --remove-ungraded and Pool > Freeze draft... are, in code:
    >>> # freeze(project, remove_ungraded=True).version.hash
    """
    fill: list[tuple[str, str]] = []
    flagged: tuple[Flagged, ...] = ()
    version, fill_from = choices.get("version"), choices.get("fill_from")
    target = project.pools.version(version) if version is not None else project.pools.draft()
    if fill_from is not None and target is not None and not target.frozen:
        fill = fillable_items(project, target.version, fill_from)
        flagged = flag_items(project, fill)
    try:
        frozen = freeze_draft(project, annotator=annotator, **choices)
    except InputError as exc:
        model = fill_from
        if fill_from is None and target is not None and not target.frozen:  # a refusal that suggests filling
            model = suggested_model(project, target.version)
            if model is not None and fill_option(model) in exc.message:
                fill = fillable_items(project, target.version, model)
                flagged = flag_items(project, fill)
        if not flagged:
            raise
        raise InputError(
            f"{exc.message}; and {flagged_text(flagged, len(fill), f'it would fill from {model}')}",
            path=exc.path,
            line=exc.line,
            hint=exc.hint,
        ) from exc
    team = project.pools.team(frozen)
    return Frozen(
        frozen,
        tuple(RatedBy(name, int(r["ratings"]), str(r["sha256"])) for name, r in team["annotators"].items()),
        tuple((str(how), int(count)) for how, count in team["adjudication"].items()),
        team,
        len(fill),
        flagged,
    )

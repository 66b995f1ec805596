"""The team views' state as Qt-free, evented sessions (the pattern of :mod:`ndcg_desktop.sessions.scores`).

- :class:`AdjudicateSession`: the draft's items rated differently (most consequential first), each annotator's
  grade, the grade chosen, which item is selected, what a digit key does (or why it does nothing), and the next
  open item. It follows the project's events: a pick, a rule, an undo, a merge, a worker's or another program's
  write drops the list, which the view computes again (off the GUI thread) when it is shown.
- :class:`AssignSession`: *Assign work*'s choices and the plan they make, or why there is none.
- :func:`team_refusal`: why *Assign work* or *Merge returned work* is not offered, or why there is no work to hand out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.names import is_model
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.sessions.events import FollowsProject, ItemsChanged, ProjectEvent, RunsChanged, VersionsChanged
from ndcg_desktop.sessions.kit import Emitter, Job
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks.adjudication import (
    RULES,
    Disagreements,
    RuleApplied,
    apply_rule,
    disagreements,
    pick_taken,
    undo_rule,
)
from ndcg_desktop.tasks.grading import undo
from ndcg_desktop.tasks.teams import plan_summary, work_sizes
from ndcg_desktop.tasks.work_files import work_origin

# Aspects carried by AdjudicateSession.changed.
PROJECT, SETTINGS, LIST, SELECTED = "project", "settings", "list", "selected"


@dataclass(frozen=True)
class KeyRefusal:
    """Why a grade key did nothing in Adjudicate. ``kind``: no_draft, read_only, no_item, off_scale (``grade`` is
    not on the draft's scale ``low``..``high``)."""

    kind: str
    grade: int | None = None
    low: int | None = None
    high: int | None = None


class AdjudicateSession(FollowsProject):
    """Project -> its draft's differing items at one K, one of them selected."""

    def __init__(self) -> None:
        self.changed = Emitter()
        self.project: Project | None = None
        self.draft: PoolVersion | None = None
        self.k = DEFAULT_K
        self.found: Disagreements | None = None
        self.selected: tuple[str, str] | None = None  # (query_id, doc_id), kept across a recomputed list
        self.stale = True  # the list must be computed (again) before it is shown
        self.generation = 0

    # -- following the project -------------------------------------------------------------------
    def set_project(self, project: Project | None) -> None:
        self.project = project
        self.selected = None
        self._drop({PROJECT, LIST, SELECTED})

    def reload(self) -> None:
        """The draft's ratings, items, adjudications or runs changed: the list goes, to be computed again."""
        self._drop({LIST})

    def project_changed(self, event: ProjectEvent) -> None:
        if isinstance(event, ItemsChanged):
            if self.draft is None or event.version == self.draft.version:
                self.reload()
        elif isinstance(event, VersionsChanged | RunsChanged):  # the swings are measured on every stored run
            self.reload()

    def forget_results(self) -> None:
        """Nothing here comes from a frozen version (the list is the draft's)."""

    def _drop(self, aspects: set[str]) -> None:
        self.generation += 1
        self.found = None
        self.stale = True
        self.draft = self.project.pools.draft() if self.project is not None else None
        self.changed.emit(frozenset(aspects))

    # -- inputs and work -------------------------------------------------------------------------
    def set_k(self, k: int) -> None:
        if k != self.k:
            self.k = k
            self._drop({SETTINGS, LIST})

    def job(self) -> Job[Disagreements] | None:
        """The list for the current inputs, to run on any thread (None: no draft, nothing to compute)."""
        self.stale = False
        project, k = self.project, self.k
        if project is None or self.draft is None:
            return None

        def work(progress: Any = None, cancelled: Any = None) -> Disagreements:
            return disagreements(project, k=k)

        return Job("disagreements", self.generation, work)

    def apply(self, job: Job[object], found: Disagreements) -> bool:
        """Show ``found`` if nothing changed since the job was made; the selection stays if the item is listed."""
        if job.generation != self.generation:
            return False
        self.found = found
        if self.selected is not None and self.row_of(*self.selected) is None:
            self.selected = None
        self.changed.emit(frozenset({LIST, SELECTED}))
        return True

    # -- reading ---------------------------------------------------------------------------------
    @property
    def scale(self) -> GradeScale | None:
        return self.draft.scale if self.draft is not None else None

    @property
    def labels(self) -> list[str]:
        return list(self.draft.labels) if self.draft is not None else []

    @property
    def items(self) -> pd.DataFrame:
        """The differing items, most consequential first: query_id, doc_id, low, high, ratings, notes, grade (the
        chosen one; NaN while open), how, swing, run."""
        return self.found.items if self.found is not None else pd.DataFrame()

    def row_of(self, query_id: str, doc_id: str) -> int | None:
        items = self.items
        if not len(items):
            return None
        rows = items.index[(items["query_id"] == query_id) & (items["doc_id"] == doc_id)]
        return int(items.index.get_loc(rows[0])) if len(rows) else None

    def select(self, item: tuple[str, str] | None) -> None:
        if item != self.selected:
            self.selected = item
            self.changed.emit(frozenset({SELECTED}))

    def selected_item(self) -> pd.Series | None:
        row = self.row_of(*self.selected) if self.selected is not None else None
        return self.items.iloc[row] if row is not None else None

    def ratings_of(self, query_id: str, doc_id: str) -> pd.DataFrame:
        """Each annotator's grade and note of one item (annotator, grade, note)."""
        if self.found is None:
            return pd.DataFrame(columns=["annotator", "grade", "note"])
        r = self.found.ratings
        mine = r[(r["query_id"] == query_id) & (r["doc_id"] == doc_id)]
        return mine[["annotator", "grade", "note"]].reset_index(drop=True)

    def chosen_grade(self, query_id: str, doc_id: str) -> int | None:
        """The adjudicated grade of an item (None while it is open)."""
        row = self.row_of(query_id, doc_id)
        if row is None:
            return None
        grade = self.items["grade"].iloc[row]
        return None if pd.isna(grade) else int(grade)

    def open_count(self) -> int:
        return self.found.open if self.found is not None else 0

    def next_open(self) -> tuple[str, str] | None:
        """The first open item after the selected one in the list's order (wrapping), or None when all are settled."""
        items = self.items
        if not len(items):
            return None
        start = self.row_of(*self.selected) if self.selected is not None else None
        count = len(items)
        for step in range(1, count + 1):
            row = ((start if start is not None else -1) + step) % count
            if pd.isna(items["grade"].iloc[row]):
                return str(items["query_id"].iloc[row]), str(items["doc_id"].iloc[row])
        return None

    # -- deciding and writing --------------------------------------------------------------------
    def writable(self) -> bool:
        return self.project is not None and not self.project.read_only and self.draft is not None

    def key_refusal(self, grade: int) -> KeyRefusal | None:
        """Why picking ``grade`` for the selected item does nothing now, or None (the pick may go ahead)."""
        if self.project is None or self.draft is None:
            return KeyRefusal("no_draft")
        if self.project.read_only:
            return KeyRefusal("read_only")
        if self.selected_item() is None:
            return KeyRefusal("no_item")
        scale = self.draft.scale
        if not scale.low <= grade <= scale.high:
            return KeyRefusal("off_scale", grade, scale.low, scale.high)
        return None

    def _need(self) -> Project:
        if self.project is None:
            raise ValueError("no project open")
        return self.project

    def pick(self, query_id: str, doc_id: str, grade: int | None) -> Taken:
        """Settle one item with the adjudicator's grade; returns what the pick took, for :meth:`undo`."""
        return pick_taken(self._need(), query_id, doc_id, grade, annotator=self.annotator)

    def undo_pick(self, taken: Taken) -> None:
        undo(self._need(), taken, action="undo adjudicate (pick)", annotator=self.annotator)

    def apply_rule(self, rule: str) -> RuleApplied:
        """Settle every open item by ``rule`` (:data:`~ndcg_desktop.tasks.adjudication.RULES`)."""
        if rule not in RULES:
            raise InputError(f"unknown adjudication rule {rule!r}; choose one of {', '.join(RULES)}")
        return apply_rule(self._need(), rule, annotator=self.annotator)

    def undo_rule(self, applied: RuleApplied) -> None:
        undo_rule(self._need(), applied, annotator=self.annotator)


# -- handing work out ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamRefusal:
    """Why *Assign work* / *Merge returned work* does nothing. ``kind``: no_project, read_only, no_draft,
    work_file (work is handed out by the coordinator, never from an annotator's work file), nothing_to_grade,
    or problem (``message``: the task's own words)."""

    kind: str
    message: str = ""


def team_refusal(project: Project | None) -> TeamRefusal | None:
    """Why work cannot be handed out of, or merged into, ``project`` now, or None."""
    if project is None:
        return TeamRefusal("no_project")
    if project.read_only:
        return TeamRefusal("read_only")
    if project.pools.draft() is None:
        return TeamRefusal("no_draft")
    if work_origin(project) is not None:
        return TeamRefusal("work_file")
    return None


def work_to_hand_out(project: Project) -> pd.Series | TeamRefusal:
    """The items to grade per query of the draft, or why there is no work to hand out."""
    refusal = team_refusal(project)
    if refusal is not None:
        return refusal
    try:
        sizes = work_sizes(project)
    except InputError as exc:
        return TeamRefusal("problem", exc.located())
    return sizes if not sizes.empty else TeamRefusal("nothing_to_grade")


def known_people(project: Project) -> tuple[str, ...]:
    """The people (never a ``model:`` annotator) who rated an item of the project or were handed one, sorted:
    the only names *Assign work* offers (issue 36: it never invents annotators)."""
    return tuple(name for name in project.ratings.raters() if not is_model(name))


@dataclass(frozen=True)
class AssignChoices:
    """What *Assign work* hands out: ``assign_work(project, annotators, out_dir, overlap=, per_query=, seed=)``."""

    annotators: tuple[str, ...]
    out_dir: str
    overlap: float
    per_query: int
    seed: int


class AssignSession:
    """*Assign work*'s choices (annotators, the share of shared queries, annotators per shared query, seed, folder)
    and the plan they make (``tasks.teams.plan_summary``), or the problem that stops it."""

    def __init__(self, sizes: pd.Series, folder: str, known: tuple[str, ...] = ()) -> None:
        self.sizes = sizes  # items to grade per query of the draft
        self.changed = Emitter()
        self.known = known  # the project's people (known_people): offered, never names made up
        self.names = ", ".join(known)
        self.overlap_percent = 20.0
        self.per_query = 2
        self.seed = 0
        self.folder = folder
        self.plan: pd.DataFrame = pd.DataFrame()
        self.problem = ""  # the plan's refusal (naming the problem), or the folder's absence
        self.no_folder = False
        self.no_names = False
        self._update()

    def set(self, **changes: object) -> None:
        """Change any of ``names``, ``overlap_percent``, ``per_query``, ``seed``, ``folder``; the plan follows."""
        for name, value in changes.items():
            if name not in ("names", "overlap_percent", "per_query", "seed", "folder"):
                raise ValueError(f"no choice {name!r} in Assign work")
            setattr(self, name, value)
        self._update()

    def annotators(self) -> list[str]:
        return [name.strip() for name in self.names.split(",") if name.strip()]

    def values(self) -> AssignChoices:
        """The choices, as ``tasks.teams.assign_work`` takes them."""
        return AssignChoices(
            annotators=tuple(self.annotators()),
            out_dir=self.folder.strip(),
            overlap=self.overlap_percent / 100.0,
            per_query=self.per_query,
            seed=self.seed,
        )

    def ready(self) -> bool:
        """Annotators named, a plan, and a folder to write the work files to."""
        return not self.no_names and not self.problem and not self.no_folder

    def _update(self) -> None:
        values = self.values()
        self.no_names = not values.annotators
        self.no_folder = not values.out_dir
        if self.no_names:  # nothing typed yet: no plan, and no refusal to show either
            self.plan, self.problem = pd.DataFrame(), ""
            self.changed.emit()
            return
        try:
            self.plan = plan_summary(
                self.sizes,
                list(values.annotators),
                overlap=values.overlap,
                per_query=values.per_query,
                seed=values.seed,
            )
            self.problem = ""
        except InputError as exc:
            self.plan = pd.DataFrame()
            self.problem = exc.located()
        self.changed.emit()

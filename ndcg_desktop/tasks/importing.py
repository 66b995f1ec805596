"""Importing queries, documents, judgments and runs into a project, with one policy for each choice in every front."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain import GradeScale, InputError, OrderKind, TiePolicy
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.natural import natural_key, natural_sorted
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.cells import check_person
from ndcg_desktop.formats.chunk_map import read_chunk_map
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.store import Project, RunInfo
from ndcg_desktop.store.core import now
from ndcg_desktop.store.errors import NegativeGradeOutside
from ndcg_desktop.store.judgments import RegradeRefused as RegradeRefused  # the window offers the release instead
from ndcg_desktop.store.ratings import AnnotatorTaken as AnnotatorTaken  # the front asks before replacing
from ndcg_desktop.store.releases import CHANGES, ReleasePlan
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks.agreement import DUPLICATE_MIN_ITEMS
from ndcg_desktop.tasks.work_files import no_look_alikes


class NegativeGrades(StrEnum):
    """trec_eval's negative grades ("pooled but not judged") below the project's scale.

    Refused by default in both fronts; importing them as ungraded pool items is an explicit choice
    (the command line's ``--negative-as-ungraded``, a question in the window). A negative grade
    inside the scale (a -1..4 project) is a grade like any other.
    """

    REFUSE = "refuse"
    UNGRADED = "ungraded"

    def __str__(self) -> str:
        return self.value


class NegativeGradesFound(InputError):
    """The file has negative grades below the scale and the policy refuses them."""


def _negative_refused(refused: NegativeGradeOutside) -> NegativeGradesFound:
    """The store's refusal of a negative grade below the scale under the default policy, for every import (a
    plain one, a person's ratings, a corrected release): a choice the window asks about, with the command line's
    option that takes such grades as its hint (the window shows :meth:`~InputError.located` alone)."""
    message = refused.message + " (trec_eval's negative grade: pooled but not judged)"
    hint = "import negative grades as ungraded items with --negative-as-ungraded"
    return NegativeGradesFound(message, path=refused.path, line=refused.line, hint=hint)


@dataclass(frozen=True)
class QueriesImported:
    """What :func:`import_queries` stored: how many queries (topics), how many of them carry a description and a
    narrative, and the topics already stored that it replaced with other words (in natural order) or left as
    they were."""

    count: int
    with_description: int
    with_narrative: int
    replaced: tuple[str, ...] = ()
    unchanged: int = 0

    def replaced_text(self) -> str:
        """``; replaced 2 existing topics: 351 352`` for the command line's line; "" when none was replaced."""
        if not self.replaced:
            return ""
        n = len(self.replaced)
        return f"; replaced {count(n, 'existing topic')}: {' '.join(self.replaced)}"


def import_queries(project: Project, path: str | Path, *, fmt: str | None = None) -> QueriesImported:
    """Add or update queries (TREC topic files, TSV, CSV, JSONL; ``fmt`` forces one), in one transaction; says
    which stored topics it replaced (their words differed) and how many it left unchanged.

    >>> # ndcg import-queries p.ndcgproj topics.txt and File > Import queries... are, in code:
    >>> # import_queries(project, "topics.txt").count
    """
    topics = project.texts.import_topics(path, fmt=fmt)
    replaced = topics.loc[topics["stored"] == "replaced", "query_id"].tolist()
    return QueriesImported(
        count=len(topics),
        with_description=int((topics["description"] != "").sum()),
        with_narrative=int((topics["narrative"] != "").sum()),
        replaced=tuple(natural_sorted(replaced)),
        unchanged=int((topics["stored"] == "unchanged").sum()),
    )


@dataclass(frozen=True)
class DocumentsImported:
    """What :func:`import_documents` stored."""

    count: int


def import_documents(
    project: Project, path: str | Path, *, progress: Progress | None = None, cancelled: IsCancelled | None = None
) -> DocumentsImported:
    """Stream documents (JSONL or CSV/TSV with doc_id, title, text) into the project in one transaction; a
    ``cancelled()`` flag that turns true ends it with nothing written (:class:`~ndcg_desktop.store.Cancelled`)."""
    return DocumentsImported(project.texts.import_documents(path, progress=progress, cancelled=cancelled))


@dataclass(frozen=True)
class JudgmentsImported:
    """What :func:`import_judgments` changed in draft ``version``: items ``added`` (``ungraded`` of them, for
    negative grades), items already in the pool it graded (``graded_existing``), items it left ``unchanged``, the
    file's lines that repeat another exactly (``identical_repeats``), and every item it graded (``graded``)."""

    version: int | None  # None: nothing was written, so no draft was started
    added: int
    graded_existing: int
    unchanged: int
    ungraded: int
    identical_repeats: int
    comment_lines: int = 0  # skipped: trec_eval 10.0 reads a TREC line starting with '#' as a comment

    @property
    def graded(self) -> int:
        """The new items it added with a grade and the ungraded ones already in the pool that it graded."""
        return self.added - self.ungraded + self.graded_existing


def import_judgments(
    project: Project,
    path: str | Path,
    *,
    negative: NegativeGrades = NegativeGrades.REFUSE,
    fmt: str | None = None,
    annotator: str,
) -> JudgmentsImported:
    """Import judgments into the draft pool (started if there is none) under the negative-grade policy; what
    changed."""
    try:
        report = project.judgments.import_qrels(
            path, negative_as_ungraded=negative is NegativeGrades.UNGRADED, fmt=fmt, annotator=annotator
        )
    except NegativeGradesFound:
        raise
    except RegradeRefused as exc:  # the store names the regrade; the command line's remedy is worded here
        hint = "to make the draft equal to a corrected release (regrades and withdrawals included), import it with "
        raise RegradeRefused(exc.message, path=exc.path, line=exc.line, hint=hint + "--release") from None
    except NegativeGradeOutside as exc:  # the store says where; the choice is worded here
        raise _negative_refused(exc) from None
    draft = project.pools.draft()
    return JudgmentsImported(
        version=draft.version if draft is not None else None,
        added=report["added"],
        graded_existing=report["graded_existing"],
        unchanged=report["unchanged"],
        ungraded=report["ungraded"],
        identical_repeats=report["identical_repeats"],
        comment_lines=report["comment_lines"],
    )


@dataclass(frozen=True)
class RatingsImport:
    """What :func:`import_ratings` did: the draft, how many items joined it, the ratings' counts, and whom the
    new ratings repeat exactly."""

    path: Path
    annotator: str
    version: int  # the draft
    started: str  # "" (the draft existed), "an empty draft" or "a copy of pool version N"
    items_added: int  # items of the file the draft lacked, joined ungraded
    ungraded: int  # of the file's lines, negative grades joined as items without a rating
    totals: dict[str, int]  # new, changed, unchanged, removed, settled, unsettled (RatingRepository)
    # (other annotator, items both rated): identical on every one of at least DUPLICATE_MIN_ITEMS items
    identical: list[tuple[str, int]] = field(default_factory=list)
    comment_lines: int = 0  # skipped: trec_eval 10.0 reads a TREC line starting with '#' as a comment


def import_ratings(
    project: Project,
    path: str | Path,
    annotator: str,
    *,
    imported_by: str,
    replace: bool = False,
    negative: NegativeGrades = NegativeGrades.REFUSE,
    fmt: str | None = None,
) -> RatingsImport:
    """A qrels file's grades as ``annotator``'s ratings of the draft, which is started if there is none; the
    import is ``imported_by``'s (the audit log's who).

    The file's items the draft lacks join it ungraded (a new draft copies the latest frozen version, or starts
    empty); every grade becomes the annotator's rating, and each rated item is settled as after a merge: the
    grade of agreeing ratings, or open for adjudication. So two assessors' files go into a fresh project by two
    calls, and ``agreement``, ``adjudicate`` and ``freeze`` follow. An annotator who already has ratings in the
    draft is refused (:class:`~ndcg_desktop.store.ratings.AnnotatorTaken`) unless ``replace``: their ratings
    then become exactly the file's. Everything is checked before anything is written, in one transaction.

    >>> # ndcg import-qrels p.ndcgproj ana.qrels --annotator ana is, in code:
    >>> # import_ratings(Project.open(p), "ana.qrels", "ana")
    """
    name = check_person(annotator.strip(), "annotator name")
    target = project.pools.draft_target(None)
    if target.version is not None:  # a draft edited by hand (a grade of 'x') is refused here, naming it
        project.pools.pool_items(target.version)
        no_look_alikes(project, target.version, [name])  # 'jose' is no second annotator beside 'José'
    scale = target.scale
    source = Path(path)
    # The project's scale is checked below; negative grades are kept here, to be refused or joined ungraded.
    qrels = read_qrels(source, scale=GradeScale(-(2**63), 2**63 - 1), fmt=fmt)
    frame = qrels.frame_as_read()
    below = frame["grade"] < scale.low
    skipped = below & (frame["grade"] < 0) if negative is NegativeGrades.UNGRADED else below & False
    wrong = frame[(frame["grade"] > scale.high) | (below & ~skipped)]
    if len(wrong):
        bad = wrong.sort_values("line").iloc[0]
        grade, line = int(bad["grade"]), int(bad["line"])
        if grade < 0:  # refused by the default policy: with UNGRADED every negative grade is skipped above
            raise _negative_refused(NegativeGradeOutside(grade, scale, path=source, line=line))
        raise InputError(f"grade {grade} is outside the scale {scale}", path=source, line=line)
    rated = frame[~skipped]
    ratings = pd.DataFrame(
        {
            "query_id": rated["query_id"].astype(str),
            "doc_id": rated["doc_id"].astype(str),
            "annotator": name,
            "grade": rated["grade"].astype("int64"),
            "note": "",
            "rated_at": now(),
        }
    )
    try:
        totals = project.ratings.import_ratings(
            frame[["query_id", "doc_id", "line"]],
            ratings,
            target=target,
            annotator=name,
            source=source.name,
            replace=replace,
            imported_by=imported_by,
        )
    except AnnotatorTaken as taken:  # the store says whose ratings are there; the command line's remedy is worded here
        raise AnnotatorTaken(
            taken.message, path=taken.path, hint="ndcg import-qrels PROJECT FILE --annotator NAME --replace"
        ) from None
    number = totals.pop("draft")
    started = (
        ""
        if target.version is not None
        else (f"a copy of pool version {target.parent}" if target.parent is not None else "an empty draft")
    )
    return RatingsImport(
        path=source,
        annotator=name,
        version=number,
        started=started,
        items_added=totals.pop("items_added"),
        ungraded=int(skipped.sum()),
        totals=totals,
        identical=[(o, n) for o, n in project.ratings.identical_to(number, name) if n >= DUPLICATE_MIN_ITEMS],
        comment_lines=qrels.comments,
    )


def import_run(
    project: Project,
    path: str | Path,
    *,
    name: str,
    ties: TiePolicy = TiePolicy.DOCID_DESC,
    id_map: IdMap | Path | None = None,
    order: OrderKind | None = None,
    fmt: str | None = None,
    annotator: str,
) -> RunInfo:
    """Store a run with the reading settings that will order it from now on (import time owns them).

    ``id_map`` is a separator (``"#"``), a chunk map, or the :class:`~pathlib.Path` of a chunk map file
    (JSONL or CSV/TSV with ``chunk_id`` and ``doc_id``), read here.
    """
    if isinstance(id_map, Path):
        id_map = read_chunk_map(id_map)
    return project.runs.import_run(path, name=name, ties=ties, id_map=id_map, order=order, fmt=fmt, annotator=annotator)


@dataclass(frozen=True)
class ReleasePreview:
    """What making the draft equal to a corrected release would do (:func:`plan_release`), for both fronts to show
    before asking: per query (``per_query``: query_id, added, withdrawn, regraded, iteration; natural order) and in
    total, with every item's change (``changes``) and where it goes."""

    plan: ReleasePlan
    per_query: pd.DataFrame

    @property
    def path(self) -> Path:
        return self.plan.path

    @property
    def source(self) -> str:
        """Whom the release's grades are credited to: ``import:FILE``."""
        return self.plan.source

    @property
    def draft(self) -> str:
        """Where it goes, in words: ``draft version N`` or ``a new draft copying pool version N``."""
        t = self.plan.target
        if t.version is not None:
            return f"draft version {t.version}"
        return f"a new draft copying pool version {t.parent}" if t.parent is not None else "a new, empty draft"

    @property
    def changes(self) -> pd.DataFrame:
        return self.plan.changes

    def total(self, change: str) -> int:
        """How many items it would ``added``, ``withdrawn``, ``regraded`` or move to another ``iteration``."""
        return int((self.plan.changes["change"] == change).sum())

    @property
    def unchanged(self) -> bool:
        return len(self.plan.changes) == 0

    def words(self) -> str:
        """One line: the totals, as ``ndcg import-qrels --release`` prints them."""
        return (
            f"{self.total('added'):,} added, {self.total('withdrawn'):,} withdrawn, {self.total('regraded'):,} "
            f"regraded, {self.total('iteration'):,} moved to another iteration, in "
            f"{count(len(self.per_query), 'query', grouped=True)} "
            f"({count(self.plan.lines, 'judgment', grouped=True)} in the file)"
        )


@dataclass(frozen=True)
class ReleaseApplied:
    """A release made draft ``version`` equal to its file; ``taken`` is what it took, for :func:`undo_release`."""

    version: int
    preview: ReleasePreview
    taken: Taken


def plan_release(
    project: Project, path: str | Path, *, negative: NegativeGrades = NegativeGrades.REFUSE, fmt: str | None = None
) -> ReleasePreview:
    """Compare a corrected release with the draft (or the frozen version a new draft would copy), writing nothing.

    >>> # ndcg import-qrels p.ndcgproj final.qrels --release --dry-run is, in code:
    >>> # print(plan_release(project, "final.qrels").words())
    """
    try:
        plan = project.releases.plan(path, negative_as_ungraded=negative is NegativeGrades.UNGRADED, fmt=fmt)
    except NegativeGradeOutside as exc:  # the store says where; the command line's option is named here
        raise _negative_refused(exc) from None
    return ReleasePreview(plan, _per_query(plan.changes))


def apply_release(project: Project, preview: ReleasePreview, *, annotator: str) -> ReleaseApplied:
    """Make the draft's judgments exactly the release's (the preview shown; refused if the draft changed since):
    items added, withdrawn (with every row referring to them) and regraded, each audited as ``release
    (import:FILE)``; the grades credited to the file."""
    version, taken = project.releases.apply(preview.plan, annotator=annotator)
    return ReleaseApplied(version, preview, taken)


def undo_release(project: Project, applied: ReleaseApplied, *, annotator: str) -> None:
    """Put back every row the release took (audited as ``undo release``); refused if the items changed since."""
    project.undo.restore(applied.taken, action="undo release", annotator=annotator)


def _per_query(changes: pd.DataFrame) -> pd.DataFrame:
    table = (
        pd.crosstab(changes["query_id"], changes["change"])
        .reindex(columns=list(CHANGES), fill_value=0)
        .rename_axis(columns=None)
        .reset_index()
    )
    order = sorted(range(len(table)), key=lambda i: natural_key(str(table["query_id"].iloc[i])))
    return table.iloc[order].reset_index(drop=True).astype({c: "int64" for c in CHANGES})

"""Judging as a team (issue 15): ratings per annotator, work files handed out and merged back.

The coordinator's draft is split among annotators (:func:`plan_assignment`, :func:`assign_work`); each gets a
work file, itself a project file holding only their queries, the items ungraded, the texts, and a record of
where it came from. :func:`merge_work` adds what they graded as their ratings; :func:`import_ratings` does the
same for a qrels file. Both check everything before writing, and write in one transaction.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import tempfile
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.blind import BLIND
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import check_person, show
from ndcg_desktop.formats.common import MAX_NOTE_CHARS
from ndcg_desktop.formats.qrels import read_qrels
from ndcg_desktop.store import ImportCancelled, PoolVersion, Project
from ndcg_desktop.store.core import now
from ndcg_desktop.store.ratings import RATING_COLUMNS

RATINGS_TABLE_COLUMNS = ["query_id", "doc_id", "annotator", "grade"]
WORK_META = "work"  # meta key of a work file: JSON, see WorkOrigin
WORK_KIND = "ndcg-desktop work file v1"
WORK_SUFFIX = ".ndcgproj"

Progress = Callable[[int, int], None]
IsCancelled = Callable[[], bool]


def ratings_table(project: Project, version: int | None = None) -> pd.DataFrame:
    """Each annotator's grades of a pool version: one row per (query_id, doc_id, annotator) with its grade (int).

    ``version`` None: the draft if there is one, else the latest frozen version (verified against its hash).
    Items with one rating appear once; agreement statistics use the items with two or more.

    Example: an item q1 A rated 2 by ana and 3 by ben gives the rows ``("q1", "A", "ana", 2)`` and
    ``("q1", "A", "ben", 3)``.
    """
    if version is None:
        chosen = project.draft() or project.latest_frozen()
        if chosen is None:
            raise InputError("has no pool version yet", path=project.path)
        version = chosen.version
    else:
        project.version(version)  # an unknown version is refused, naming the project
    return project.ratings(version)[RATINGS_TABLE_COLUMNS].reset_index(drop=True)


# -- assigning -----------------------------------------------------------------------------------------------


def plan_assignment(
    sizes: pd.Series, annotators: Sequence[str], *, overlap: float, per_query: int = 2, seed: int = 0
) -> pd.DataFrame:
    """Which annotator grades which query: rows (annotator, query_id), sorted.

    ``sizes``: the number of items to grade per query (index query_id). A fraction ``overlap`` of the queries
    (rounded to the nearest whole query) goes to ``per_query`` annotators each, so that agreement can be
    measured; every other query to one. Queries are shuffled with ``seed``; each goes to the annotators with
    the fewest items so far (ties: the order given), so the work is balanced and the plan reproducible.

    >>> plan_assignment(pd.Series({"q1": 3, "q2": 3}), ["ana", "ben"], overlap=0.5, seed=1).values.tolist()
    [['ana', 'q1'], ['ana', 'q2'], ['ben', 'q2']]
    """
    if len(set(annotators)) != len(annotators) or not annotators:
        raise InputError("the annotators must be distinct names, at least one")
    if not 0.0 <= overlap <= 1.0:
        raise InputError(f"the overlap is a fraction of the queries between 0 and 1, not {overlap}")
    if per_query < 2:
        raise InputError(f"--per-query is how many annotators grade an overlapping query: at least 2, not {per_query}")
    shared = round(overlap * len(sizes))
    if shared and per_query > len(annotators):
        raise InputError(f"{per_query} annotators per shared query need at least {per_query} annotators")
    order = sorted(sizes.index.astype(str))
    random.Random(seed).shuffle(order)
    load = {name: 0 for name in annotators}
    rows: list[tuple[str, str]] = []
    for i, query_id in enumerate(order):
        wanted = per_query if i < shared else 1
        chosen = sorted(annotators, key=lambda name: (load[name], annotators.index(name)))[:wanted]
        for name in chosen:
            load[name] += int(sizes[query_id])
            rows.append((name, query_id))
    return pd.DataFrame(rows, columns=["annotator", "query_id"]).sort_values(
        ["annotator", "query_id"], ignore_index=True
    )


def plan_summary(
    sizes: pd.Series, annotators: Sequence[str], *, overlap: float, per_query: int = 2, seed: int = 0
) -> pd.DataFrame:
    """Per annotator: how many queries, how many of them shared, how many items to grade (names checked)."""
    names = [_file_name(check_person(name, "annotator name")) for name in annotators]
    plan = plan_assignment(sizes, names, overlap=overlap, per_query=per_query, seed=seed)
    shared = plan.groupby("query_id")["annotator"].transform("size") > 1
    plan = plan.assign(shared=shared.astype(int), items=plan["query_id"].map(sizes).astype(int))
    out = plan.groupby("annotator", sort=False).agg(
        queries=("query_id", "size"), shared=("shared", "sum"), items=("items", "sum")
    )
    return out.reindex(names).fillna(0).astype(int).rename_axis("annotator").reset_index()


def work_sizes(project: Project) -> pd.Series:
    """Per query of the draft, the items still to grade: what :func:`assign_work` hands out."""
    draft = _draft(project)
    items = project.pool_items(draft.version)
    return items[items["grade"].isna()].groupby("query_id").size()


@dataclass(frozen=True)
class WorkOrigin:
    """Where a work file comes from, stored in it (meta ``work``) and checked when it is merged."""

    work_id: str
    project_id: str
    project_name: str
    base_version: int  # the coordinator's draft
    base_hash: str  # the frozen version the draft started from ('' for a first draft)
    scope_sha256: str  # SHA-256 of the (query_id, doc_id) items handed out, sorted
    annotator: str
    assigned_at: str

    def to_json(self) -> str:
        return json.dumps({"kind": WORK_KIND, **self.__dict__}, sort_keys=True)

    @staticmethod
    def from_json(text: str, path: Path) -> WorkOrigin:
        try:
            data = json.loads(text)
            if data.pop("kind") != WORK_KIND:
                raise ValueError
            origin = WorkOrigin(**data)
            types = {name: int if name == "base_version" else str for name in data}
            if any(type(getattr(origin, name)) is not kind for name, kind in types.items()):  # "2" is no version
                raise ValueError
            return origin
        except (ValueError, TypeError, KeyError, AttributeError):
            raise InputError(
                "is a project but its work-file record is damaged; ask for a new work file", path=path
            ) from None


@dataclass
class Assignment:
    """What :func:`assign_work` wrote: one work file per annotator and the plan behind them."""

    version: int
    plan: pd.DataFrame  # annotator, query_id
    files: dict[str, Path]
    items: dict[str, int]  # per annotator
    shared_queries: int
    seed: int


def scope_hash(items: pd.DataFrame) -> str:
    """SHA-256 of the (query_id, doc_id) pairs handed out, in sorted order."""
    ordered = items[["query_id", "doc_id"]].sort_values(["query_id", "doc_id"])
    digest = hashlib.sha256(b"ndcg-work-scope-v1\n")
    digest.update("".join(f"{q}\t{d}\n" for q, d in ordered.itertuples(index=False)).encode())
    return digest.hexdigest()


def _draft(project: Project) -> PoolVersion:
    draft = project.draft()
    if draft is None:
        raise InputError(
            "has no draft pool to hand out or merge into; build one (ndcg pool) or start one (ndcg new-draft)",
            path=project.path,
        )
    return draft


def assign_work(
    project: Project,
    annotators: Sequence[str],
    out_dir: str | Path,
    *,
    overlap: float,
    per_query: int = 2,
    seed: int = 0,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> Assignment:
    """Split the draft's ungraded items among ``annotators`` and write one work file each into ``out_dir``.

    A work file (``out_dir/NAME.ndcgproj``) is a project file that opens in the same application: the
    annotator's topics (title, description, narrative), the grading guidelines, those queries' ungraded items in
    a draft (judged in blind order), the documents' text, and a :class:`WorkOrigin`. Nobody's grades are in it.
    The assignment is recorded in the project so that a merge can check the file's scope. Nothing is written
    unless every file is.
    """
    names = [_file_name(check_person(name.strip(), "annotator name")) for name in annotators]
    draft = _draft(project)
    items = project.pool_items(draft.version)
    todo = items[items["grade"].isna()][["query_id", "doc_id"]]
    if todo.empty:
        raise InputError(f"draft version {draft.version} has no ungraded item to hand out", path=project.path)
    taken = project.assignments.assignments(draft.version)
    already = sorted(set(taken["annotator"]) & set(names))
    if already:
        raise InputError(
            f"{already[0]} already has a work file for draft version {draft.version} (it stays valid: merge it when "
            "it comes back); give new work another name",
            path=project.path,
        )
    plan = plan_assignment(todo.groupby("query_id").size(), names, overlap=overlap, per_query=per_query, seed=seed)
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise InputError("is not a folder", path=target)
    if not target.parent.is_dir():
        raise InputError("the folder does not exist", path=target.parent)
    files = {name: target / f"{name}{WORK_SUFFIX}" for name in names}
    for path in files.values():
        if path.exists():
            raise InputError("already exists; choose another folder", path=path)
    project_id = project.meta("project_id") or str(uuid.uuid4())
    parent = project.version(draft.parent) if draft.parent is not None else None
    target.mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".ndcg-work-", dir=target))
    written: list[Path] = []
    try:
        records = []
        for done, name in enumerate(names):
            if cancelled is not None and cancelled():
                raise ImportCancelled()
            queries = plan.loc[plan["annotator"] == name, "query_id"].tolist()
            mine = todo[todo["query_id"].isin(queries)]
            origin = WorkOrigin(
                work_id=str(uuid.uuid4()),
                project_id=project_id,
                project_name=project.path.name,
                base_version=draft.version,
                base_hash=(parent.hash or "") if parent is not None else "",
                scope_sha256=scope_hash(mine),
                annotator=name,
                assigned_at=now(),
            )
            _write_work_file(project, draft, staging / files[name].name, origin, mine)
            records += [(name, q, origin.work_id) for q in queries]
            if progress is not None:
                progress(done + 1, len(names))
        for path in files.values():
            os.replace(staging / path.name, path)
            written.append(path)
        project.assignments.record(
            draft.version, pd.DataFrame(records, columns=["annotator", "query_id", "work_id"]), project_id
        )
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    counts = plan.merge(todo, on="query_id").groupby("annotator").size()
    return Assignment(
        version=draft.version,
        plan=plan,
        files=files,
        items={name: int(counts.get(name, 0)) for name in names},
        shared_queries=round(overlap * todo["query_id"].nunique()),
        seed=seed,
    )


_NOT_IN_FILE_NAMES = set('/\\:*?"<>|')


def _file_name(name: str) -> str:
    """``name`` itself, if it can name a work file (NAME.ndcgproj) on every system."""
    if name.startswith(".") or _NOT_IN_FILE_NAMES & set(name):
        raise InputError(
            f"annotator name {name!r} cannot name a work file: it starts with a dot or holds one of "
            f"{' '.join(sorted(_NOT_IN_FILE_NAMES))}"
        )
    return name


def _write_work_file(project: Project, draft: PoolVersion, path: Path, origin: WorkOrigin, items: pd.DataFrame) -> None:
    queries, docs = project.texts.texts_of(sorted(set(items["query_id"])), sorted(set(items["doc_id"])))
    guidelines = project.guidelines()
    with Project.create(path, scale=draft.scale, labels=draft.labels, user=origin.annotator) as work:
        work.texts.put_texts(queries, docs)
        if guidelines is not None and guidelines.text:
            work.set_guidelines(guidelines.text, source=f"work:{project.path.name}")
        work.add_items(items, action="assigned")
        work.set_meta("judging_order", BLIND)
        work.set_meta(WORK_META, origin.to_json())


# -- merging ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MergedFile:
    path: Path
    annotator: str
    graded: int  # ratings the file holds
    ungraded: int  # items still to grade in it (partial work: merge it again later)


@dataclass
class MergeReport:
    """What a merge added: counts per file and in all."""

    version: int
    files: list[MergedFile] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)  # new, changed, unchanged, settled, unsettled


@dataclass
class _Incoming:
    path: Path
    annotator: str
    ratings: pd.DataFrame  # RATING_COLUMNS plus line (0 for a work file)
    ungraded: int


def read_work_file(path: str | Path) -> tuple[WorkOrigin, pd.DataFrame, GradeScale]:
    """A work file's origin, its items (query_id, doc_id, grade, note, updated_at) and its scale; not checked."""
    target = Path(path)
    with Project.open(target, read_only=True) as work:
        text = work.meta(WORK_META)
        if text is None:
            raise InputError("is a project, not a work file (ndcg assign writes those)", path=target)
        origin = WorkOrigin.from_json(text, target)
        versions = work.versions()
        if not versions:
            raise InputError("is a work file without a pool; ask for a new work file", path=target)
        v = versions[-1]
        # An annotator's copy is edited by hand at times: a grade, ID or text that ndcg-desktop never wrote is
        # named here, before anything reads it as a number or as text.
        bad = work.file.query(
            "SELECT query_id, doc_id, quote(grade) FROM judgments WHERE version = ? AND ((grade IS NOT NULL AND "
            "typeof(grade) != 'integer') OR typeof(query_id) != 'text' OR typeof(doc_id) != 'text' OR "
            "typeof(note) != 'text' OR (updated_at IS NOT NULL AND typeof(updated_at) != 'text')) LIMIT 1",
            (v.version,),
        )
        if bad:
            query, doc, grade = (str(value) for value in bad[0])
            raise InputError(
                f"holds document {show(doc)} for query {show(query)} with the grade {grade} or a text that "
                "ndcg-desktop did not write (the file was edited by hand); nothing was merged: ask for a new "
                "work file, or grade it again in ndcg-desktop",
                path=target,
            )
        long = work.file.query(
            "SELECT query_id, doc_id FROM judgments WHERE version = ? AND length(note) > ? LIMIT 1",
            (v.version, MAX_NOTE_CHARS),
        )
        if long:  # checked in SQL, before 30 MB notes are read into memory
            raise InputError(
                f"holds a note longer than {MAX_NOTE_CHARS:,} characters (the limit for a note), on document "
                f"{show(str(long[0][1]))} for query {show(str(long[0][0]))}; nothing was merged",
                path=target,
            )
        items = work.items(v.version)  # text that is not UTF-8, say, is refused there, naming the file
        return origin, items, v.scale


@dataclass(frozen=True)
class _Draft:
    """What every work file is checked against, read once per merge."""

    version: PoolVersion
    project_id: str | None
    assigned: pd.DataFrame  # annotator, query_id, work_id
    pool: set[tuple[str, str]]  # (query_id, doc_id) of every item: a set, checked by 100 files x 1,000 items

    @staticmethod
    def of(project: Project) -> _Draft:
        draft = _draft(project)
        items = project.items(draft.version)
        pool = set(zip(items["query_id"].tolist(), items["doc_id"].tolist(), strict=True))
        return _Draft(draft, project.meta("project_id"), project.assignments.assignments(draft.version), pool)


def _check_work_file(target: _Draft, path: Path) -> _Incoming:
    draft = target.version
    origin, items, scale = read_work_file(path)
    if origin.project_id != target.project_id:
        raise InputError(f"is work for another project ({origin.project_name}); nothing was merged", path=path)
    if origin.base_version != draft.version:
        raise InputError(
            f"is work for pool version {origin.base_version}, but the draft is version {draft.version} "
            "(that version was frozen or discarded since); nothing was merged",
            path=path,
        )
    if scale != draft.scale:
        raise InputError(f"grades on the scale {scale}, the draft's is {draft.scale}; nothing was merged", path=path)
    assigned = target.assigned
    mine = assigned[(assigned["annotator"] == origin.annotator) & (assigned["work_id"] == origin.work_id)]
    if mine.empty:
        raise InputError(
            f"says it is {origin.annotator}'s work, but no such work file was handed out for draft version "
            f"{draft.version}; nothing was merged",
            path=path,
        )
    outside = items[~items["query_id"].isin(set(mine["query_id"]))]
    keys = zip(items["query_id"].tolist(), items["doc_id"].tolist(), strict=True)
    absent = items[[key not in target.pool for key in keys]]
    if len(outside) or len(absent):
        bad = (outside if len(outside) else absent).iloc[0]
        raise InputError(
            f"holds document {bad['doc_id']} for query {bad['query_id']}, which was not handed out to "
            f"{origin.annotator} (the file's scope was changed); nothing was merged",
            path=path,
        )
    graded = items[items["grade"].notna()]
    wrong = graded[(graded["grade"] < draft.scale.low) | (graded["grade"] > draft.scale.high)]
    if len(wrong):
        bad = wrong.iloc[0]
        raise InputError(
            f"grades document {bad['doc_id']} for query {bad['query_id']} {int(bad['grade'])}, outside the scale "
            f"{draft.scale}; nothing was merged",
            path=path,
        )
    ratings = pd.DataFrame(
        {
            "query_id": graded["query_id"].astype(str),
            "doc_id": graded["doc_id"].astype(str),
            "annotator": origin.annotator,
            "grade": graded["grade"].astype("int64"),
            "note": graded["note"].fillna("").astype(str),
            "rated_at": graded["updated_at"].fillna("").astype(str),
            "line": 0,
        }
    )
    return _Incoming(path, origin.annotator, ratings, int(items["grade"].isna().sum()))


def merge_work(
    project: Project,
    paths: Sequence[str | Path],
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> MergeReport:
    """Add the grades of returned work files as their annotators' ratings, in one transaction.

    Each file must belong to this project and its current draft, hold only what was handed out to its
    annotator, and grade on the draft's scale; the first that does not is refused, naming it, and nothing is
    written. A file can be merged again (after more grading): equal ratings change nothing.
    """
    target = _Draft.of(project)
    incoming: list[_Incoming] = []
    for done, path in enumerate(paths):
        if cancelled is not None and cancelled():
            raise ImportCancelled()
        incoming.append(_check_work_file(target, Path(path)))
        if progress is not None:
            progress(done + 1, len(paths) + 1)
    return _add(project, target.version, incoming)


def import_ratings(project: Project, path: str | Path, annotator: str, *, fmt: str | None = None) -> MergeReport:
    """Add a qrels file's grades as ``annotator``'s ratings of the draft's items, with a merge's checks.

    Every (query, document) must be in the draft pool and every grade on its scale; otherwise the file and
    line are named and nothing is written.
    """
    name = check_person(annotator.strip(), "annotator name")
    draft = _draft(project)
    target = Path(path)
    frame = read_qrels(target, scale=GradeScale(-(2**63), 2**63 - 1), fmt=fmt).frame
    wrong = frame[(frame["grade"] < draft.scale.low) | (frame["grade"] > draft.scale.high)]
    if len(wrong):
        bad = wrong.sort_values("line").iloc[0]
        raise InputError(
            f"grade {int(bad['grade'])} is outside the scale {draft.scale}", path=target, line=int(bad["line"])
        )
    pool = project.pool_items(draft.version)[["query_id", "doc_id"]]
    absent = frame.merge(pool, how="left", indicator=True)
    absent = absent[absent["_merge"] == "left_only"]
    if len(absent):
        bad = absent.sort_values("line").iloc[0]
        raise InputError(
            f"document {bad['doc_id']} for query {bad['query_id']} is not in the pool of draft version "
            f"{draft.version}; add it to the pool first (import-qrels without --annotator)",
            path=target,
            line=int(bad["line"]),
        )
    stamp = now()
    ratings = pd.DataFrame(
        {
            "query_id": frame["query_id"].astype(str),
            "doc_id": frame["doc_id"].astype(str),
            "annotator": name,
            "grade": frame["grade"].astype("int64"),
            "note": "",
            "rated_at": stamp,
            "line": frame["line"],
        }
    )
    return _add(project, draft, [_Incoming(target, name, ratings, 0)])


def _add(project: Project, draft: PoolVersion, incoming: list[_Incoming]) -> MergeReport:
    frame = pd.concat([i.ratings.assign(file=str(i.path)) for i in incoming], ignore_index=True)
    key = ["query_id", "doc_id", "annotator"]
    distinct = frame.drop_duplicates(key + ["grade", "note"])
    clash = distinct[distinct.duplicated(key, keep=False)]
    if len(clash):  # two files (or lines) give one annotator two ratings of one item
        first = clash.iloc[0]
        others = clash[(clash[key] == first[key]).all(axis=1)]
        where = " and ".join(sorted({Path(f).name for f in others["file"]}))
        raise InputError(
            f"{first['annotator']} rated document {first['doc_id']} for query {first['query_id']} differently in "
            f"{where}; nothing was merged",
            path=Path(first["file"]),
            line=int(first["line"]) or None,
        )
    distinct = distinct.drop_duplicates(key)
    source = ", ".join(sorted({i.path.name for i in incoming}))
    totals = project.rating_store.add_ratings(distinct[RATING_COLUMNS], version=draft.version, source=source)
    files = [MergedFile(i.path, i.annotator, len(i.ratings), i.ungraded) for i in incoming]
    return MergeReport(version=draft.version, files=files, totals=totals)

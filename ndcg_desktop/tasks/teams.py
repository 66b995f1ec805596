"""Judging as a team (issue 15): ratings per annotator, work files handed out and merged back.

The coordinator's draft is split among annotators (:func:`plan_assignment`, :func:`assign_work`); each gets a
work file, itself a project file holding only their queries, the items ungraded, the texts, and a record of
where it came from. :func:`merge_work` adds what they graded as their ratings (a qrels file's grades become a
person's ratings in :mod:`ndcg_desktop.tasks.importing`). It checks everything before writing, in one transaction.
"""

from __future__ import annotations

import hmac
import os
import random
import secrets
import shutil
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.blind import BLIND
from ndcg_desktop.domain.counts import count, plural
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import same_person
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.cells import check_person, plain, show
from ndcg_desktop.store import Cancelled, PoolVersion, Project
from ndcg_desktop.store.core import now
from ndcg_desktop.store.ratings import RATING_COLUMNS
from ndcg_desktop.store.undo import Taken
from ndcg_desktop.tasks.advice import start_a_draft
from ndcg_desktop.tasks.work_files import (
    WORK_META,
    WORK_SUFFIX,
    WorkOrigin,
    check_credits,
    handout_digest,
    no_look_alikes,
    read_work,
    scope_hash,
    work_origin,
)
from ndcg_desktop.tasks.work_files import read_work_file as read_work_file  # imported from here before

RATINGS_TABLE_COLUMNS = ["query_id", "doc_id", "annotator", "grade"]


def ratings_table(project: Project, version: int | None = None) -> pd.DataFrame:
    """Each annotator's grades of a pool version: one row per (query_id, doc_id, annotator) with its grade (int).

    ``version`` None: the draft if there is one, else the latest frozen version (verified against its hash).
    Items with one rating appear once; agreement statistics use the items with two or more.

    Example: an item q1 A rated 2 by ana and 3 by ben gives the rows ``("q1", "A", "ana", 2)`` and
    ``("q1", "A", "ben", 3)``.
    """
    if version is None:
        chosen = project.pools.draft() or project.pools.latest_frozen()
        if chosen is None:
            raise InputError("has no pool version yet", path=project.path)
        version = chosen.version
    else:
        project.pools.version(version)  # an unknown version is refused, naming the project
    return project.ratings.verified(version)[RATINGS_TABLE_COLUMNS].reset_index(drop=True)


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
    if not annotators:
        raise InputError("the annotators must be distinct names, at least one")
    for i, name in enumerate(annotators):
        twin = same_person(name, list(annotators[:i])) or (name if name in annotators[:i] else None)
        if twin is not None:
            raise InputError(f"the annotators must be distinct names: {name!r} and {twin!r} are compared as one")
    if not 0.0 <= overlap <= 1.0:
        raise InputError(f"the overlap is a fraction of the queries between 0 and 1, not {overlap}")
    if per_query < 2:
        raise InputError(f"--per-query is how many annotators grade an overlapping query: at least 2, not {per_query}")
    shared = shared_queries(overlap, len(sizes))
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


def shared_queries(overlap: float, queries: int) -> int:
    """How many of ``queries`` an ``overlap`` shares: the nearest whole number, and at least one when the overlap is
    above 0 (a small overlap of few queries would otherwise share none, and no agreement could be measured).

    >>> shared_queries(0.2, 10), shared_queries(0.01, 12), shared_queries(0.0, 12)
    (2, 1, 0)
    """
    return max(round(overlap * queries), 1 if overlap > 0 and queries else 0)


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
    items = project.pools.pool_items(draft.version)
    return items[items["grade"].isna()].groupby("query_id").size()


@dataclass
class Assignment:
    """What :func:`assign_work` wrote: one work file per annotator and the plan behind them."""

    version: int
    plan: pd.DataFrame  # annotator, query_id
    files: dict[str, Path]
    items: dict[str, int]  # per annotator
    shared_queries: int
    seed: int


def _draft(project: Project) -> PoolVersion:
    origin = work_origin(project)
    if origin is not None:  # work is handed out and merged by the coordinator, never from an annotator's copy
        raise InputError(
            f"is a work file handed to {plain(origin.annotator)}; work is handed out and merged in the coordinator's "
            f"project ({plain(origin.project_name)}), not in a work file",
            path=project.path,
        )
    draft = project.pools.draft()
    if draft is None:
        raise InputError(f"has no draft pool to hand out or merge into; {start_a_draft(project)}", path=project.path)
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
    items = project.pools.pool_items(draft.version)
    todo = items[items["grade"].isna()][["query_id", "doc_id"]]
    if todo.empty:
        raise InputError(f"draft version {draft.version} has no ungraded item to hand out", path=project.path)
    taken = project.ratings.assignments(draft.version)
    no_look_alikes(project, draft.version, names)
    already = sorted(set(taken["annotator"]) & set(names))
    if already:
        one = len(already) == 1
        raise InputError(
            f"{', '.join(already)} already {'has a work file' if one else 'have work files'} for draft version "
            f"{draft.version} ({'it stays' if one else 'they stay'} valid: merge {'it' if one else 'them'} when "
            f"{'it comes' if one else 'they come'} back); hand new work out under other names (for example "
            f"{', '.join(f'{name}-2' for name in already)}), or merge the returned work and start a new draft",
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
    project_id = project.file.setting("project_id") or str(uuid.uuid4())
    secret = project.ratings.secret() or secrets.token_hex(32)
    parent = project.pools.version(draft.parent) if draft.parent is not None else None
    written: list[Path] = []
    staging: Path | None = None
    try:
        target.mkdir(exist_ok=True)
        _remove_stale_staging(target)
        # The folder's name carries this process's ID, so a later assign can tell a killed one's leftovers.
        staging = Path(tempfile.mkdtemp(prefix=f"{_STAGING}{os.getpid()}-", dir=target))
        records, handouts, handed = [], [], []
        for done, name in enumerate(names):
            if cancelled is not None and cancelled():
                raise Cancelled()
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
            origin = replace(origin, digest=handout_digest(secret, origin))
            _write_work_file(project, draft, staging / files[name].name, origin, mine)
            records += [(name, q, origin.work_id) for q in queries]
            handouts.append((origin.work_id, name, origin.scope_sha256, origin.digest, origin.assigned_at))
            handed.append(mine.assign(work_id=origin.work_id))
            if progress is not None:
                progress(done + 1, len(names))
        for path in files.values():
            os.replace(staging / path.name, path)
            written.append(path)
        project.ratings.record_handouts(
            draft.version,
            pd.DataFrame(records, columns=["annotator", "query_id", "work_id"]),
            project_id,
            handouts=pd.DataFrame(handouts, columns=["work_id", "annotator", "scope_sha256", "digest", "assigned_at"]),
            items=pd.concat(handed, ignore_index=True),
            secret=secret,
        )
    except OSError as exc:  # an immutable or special folder, a full disk, a name the file system refuses
        for path in written:
            path.unlink(missing_ok=True)
        where = exc.filename2 or exc.filename or target  # os.replace names the destination second
        raise InputError(
            f"cannot write the work files there ({exc.strerror or exc}); nothing was handed out", path=where
        ) from None
    except BaseException:
        for path in written:
            path.unlink(missing_ok=True)
        raise
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    counts = plan.merge(todo, on="query_id").groupby("annotator").size()
    return Assignment(
        version=draft.version,
        plan=plan,
        files=files,
        items={name: int(counts.get(name, 0)) for name in names},
        shared_queries=shared_queries(overlap, todo["query_id"].nunique()),
        seed=seed,
    )


_NOT_IN_FILE_NAMES = set('/\\:*?"<>|')
# A work file is built as ".NAME.ndcgproj.XXXXXXXX.tmp" beside SQLite's "-wal" and "-shm": every form of the name
# fits the 255 bytes most file systems allow a name.
MAX_NAME_BYTES = 200
_STAGING = ".ndcg-work-"  # the prefix of assign's staging folder inside the output folder: .ndcg-work-PID-XXXX


def _remove_stale_staging(folder: Path) -> None:
    """Remove the staging folders an assign left in ``folder`` when it was killed (its process is gone)."""
    for entry in folder.glob(f"{_STAGING}*"):
        if entry.is_dir() and _stale(entry):
            shutil.rmtree(entry, ignore_errors=True)


def _stale(entry: Path) -> bool:
    pid = entry.name[len(_STAGING) :].split("-", 1)[0]
    if os.name != "posix":  # Windows has no signal 0 (os.kill would end the process): a day old is stale
        return time.time() - entry.stat().st_mtime > 86_400
    if not pid.isdigit():  # an older ndcg-desktop's, without a process ID
        return True
    if int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: at work
        return False
    return False


def _file_name(name: str) -> str:
    """``name`` itself, if it can name a work file (NAME.ndcgproj) on every system."""
    if name.startswith(".") or _NOT_IN_FILE_NAMES & set(name):
        raise InputError(
            f"annotator name {name!r} cannot name a work file: it starts with a dot or holds one of "
            f"{' '.join(sorted(_NOT_IN_FILE_NAMES))}"
        )
    if len(name.encode()) > MAX_NAME_BYTES:
        raise InputError(
            f"annotator name {show(name)} is too long to name a work file: at most {MAX_NAME_BYTES} bytes in UTF-8, "
            f"not {len(name.encode())}"
        )
    return name


def _write_work_file(project: Project, draft: PoolVersion, path: Path, origin: WorkOrigin, items: pd.DataFrame) -> None:
    queries, docs = project.texts.texts_of(sorted(set(items["query_id"])), sorted(set(items["doc_id"])))
    guidelines = project.texts.guidelines()
    with Project.create(path, scale=draft.scale, labels=draft.labels, annotator=origin.annotator) as work:
        work.texts.put_texts(queries, docs)
        if guidelines is not None and guidelines.text:
            work.texts.set_guidelines(guidelines.text, source=f"work:{project.path.name}", annotator=origin.annotator)
        work.judgments.add_items(items, action="assigned", annotator=origin.annotator)
        work.file.set_meta("judging_order", BLIND)
        work.file.set_meta(WORK_META, origin.to_json())


# -- merging ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MergedFile:
    path: Path
    annotator: str
    graded: int  # ratings merged from the file
    ungraded: int  # items still to grade in it (partial work: merge it again later)
    missing: int = 0  # items handed out that are no longer in the file (deleted from it)
    withdrawn: int = 0  # items handed out that the coordinator removed from the draft since: not merged


@dataclass
class MergeReport:
    """What a merge added: counts per file and in all, and what happened besides (one sentence each)."""

    version: int
    files: list[MergedFile] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)  # new, changed, unchanged, settled, unsettled
    taken: Taken | None = None  # the merged items' rows and ratings as they were: project.undo.restore puts them back
    notes: list[str] = field(default_factory=list)


@dataclass
class _Incoming:
    path: Path
    annotator: str
    ratings: pd.DataFrame  # RATING_COLUMNS plus line (0 for a work file)
    ungraded: int
    missing: int = 0
    withdrawn: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Draft:
    """What every work file is checked against, read once per merge."""

    version: PoolVersion
    project_id: str | None
    assigned: pd.DataFrame  # annotator, query_id, work_id
    pool: set[tuple[str, str]]  # (query_id, doc_id) of every item: a set, checked by 100 files x 1,000 items
    secret: str | None

    @staticmethod
    def of(project: Project) -> _Draft:
        draft = _draft(project)
        items = project.pools.items(draft.version)
        pool = set(zip(items["query_id"].tolist(), items["doc_id"].tolist(), strict=True))
        return _Draft(
            draft,
            project.file.setting("project_id"),
            project.ratings.assignments(draft.version),
            pool,
            project.ratings.secret(),
        )


def _check_work_file(project: Project, target: _Draft, path: Path) -> _Incoming:
    draft = target.version
    origin, items, scale, others = read_work(path)
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
    handout = project.ratings.handout(origin.work_id)
    if handout is not None:
        handed = _check_handout(project, target, path, origin, handout)
    else:
        handed = _legacy_scope(target, path, origin, items)
    check_credits(path, origin, others)
    notes: list[str] = []
    keys = items[["query_id", "doc_id"]]
    inserted = keys.merge(handed, how="left", indicator=True)
    inserted = inserted[inserted["_merge"] == "left_only"]
    if len(inserted):
        bad = inserted.iloc[0]
        raise InputError(
            f"holds document {bad['doc_id']} for query {bad['query_id']}, which was not handed out to "
            f"{origin.annotator} (added to the file: {len(inserted)} such items); nothing was merged",
            path=path,
        )
    deleted = handed.merge(keys, how="left", indicator=True)
    deleted = deleted[deleted["_merge"] == "left_only"]
    if len(deleted):
        first = deleted.iloc[0]
        notes.append(
            f"{path.name}: {count(len(deleted), 'item')} handed out to {origin.annotator} "
            f"{plural(len(deleted), 'is', 'are')} missing from the file (deleted "
            f"from it; the first: document {first['doc_id']} for query {first['query_id']}); they stay ungraded "
            "by them"
        )
    keys_in_file = zip(items["query_id"].tolist(), items["doc_id"].tolist(), strict=True)
    in_pool = pd.Series([key in target.pool for key in keys_in_file], index=items.index, dtype=bool)
    gone = items[~in_pool]
    if len(gone):
        first = gone.iloc[0]
        graded_gone = int(gone["grade"].notna().sum())
        notes.append(
            f"{path.name}: {count(len(gone), 'item')} handed out to {origin.annotator} "
            f"{plural(len(gone), 'was', 'were')} removed from draft version "
            f"{draft.version} since (the first: document {first['doc_id']} for query {first['query_id']}); "
            f"{count(graded_gone, 'grade')} of them {plural(graded_gone, 'was', 'were')} not merged, the rest were"
        )
    items = items[in_pool]
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
    ungraded = int(items["grade"].isna().sum())
    return _Incoming(path, origin.annotator, ratings, ungraded, len(deleted), len(gone), notes)


def _check_handout(
    project: Project, target: _Draft, path: Path, origin: WorkOrigin, handout: dict[str, object]
) -> pd.DataFrame:
    """The items handed out with the work file ``origin`` claims to be, if its record is the one handed out."""
    edited = "the file's record of who it was handed to and what it holds was edited; nothing was merged"
    if handout["version"] != target.version.version:
        raise InputError(
            f"claims work {origin.work_id}, which was handed out on pool version {handout['version']}; {edited}",
            path=path,
        )
    if origin.annotator != handout["annotator"]:
        raise InputError(
            f"says it is {origin.annotator}'s work, but work {origin.work_id} was handed out to "
            f"{handout['annotator']}; {edited}",
            path=path,
        )
    if origin.scope_sha256 != handout["scope_sha256"] or origin.assigned_at != handout["assigned_at"]:
        raise InputError(f"does not hold the scope work {origin.work_id} was handed out with; {edited}", path=path)
    expected = handout_digest(target.secret or "", replace(origin, assigned_at=str(handout["assigned_at"])))
    if not (hmac.compare_digest(origin.digest, expected) and hmac.compare_digest(str(handout["digest"]), expected)):
        raise InputError(
            f"carries a digest that does not match work {origin.work_id} as this project handed it out (the file's "
            "record, or the project's record of its handouts, was edited); nothing was merged",
            path=path,
        )
    handed = project.ratings.handout_items(origin.work_id)
    if scope_hash(handed) != handout["scope_sha256"]:
        raise InputError(
            f"cannot be checked: this project's record of the items of work {origin.work_id} was edited; nothing "
            "was merged",
            path=project.path,
        )
    return handed


def _legacy_scope(target: _Draft, path: Path, origin: WorkOrigin, items: pd.DataFrame) -> pd.DataFrame:
    """A work file handed out before format 8, checked by the queries recorded for it: its items in those queries."""
    assigned = target.assigned
    mine = assigned[(assigned["annotator"] == origin.annotator) & (assigned["work_id"] == origin.work_id)]
    if mine.empty:
        raise InputError(
            f"says it is {origin.annotator}'s work, but no such work file was handed out for draft version "
            f"{target.version.version}; nothing was merged",
            path=path,
        )
    if origin.digest:  # a digest, but no handout recorded: the record was removed or the file forged
        raise InputError(
            f"carries a digest, but this project has no record of handing out work {origin.work_id}; nothing was "
            "merged",
            path=path,
        )
    return items.loc[items["query_id"].isin(set(mine["query_id"])), ["query_id", "doc_id"]]


def merge_work(
    project: Project,
    paths: Sequence[str | Path],
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
    annotator: str,
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
            raise Cancelled()
        incoming.append(_check_work_file(project, target, Path(path)))
        if progress is not None:
            progress(done + 1, len(paths) + 1)
    return _add(project, target.version, incoming, annotator=annotator)


def _add(project: Project, draft: PoolVersion, incoming: list[_Incoming], *, annotator: str) -> MergeReport:
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
    totals, taken, older = project.ratings.merge_ratings(
        distinct[RATING_COLUMNS], version=draft.version, source=source, newest_wins=True, annotator=annotator
    )
    files = [MergedFile(i.path, i.annotator, len(i.ratings), i.ungraded, i.missing, i.withdrawn) for i in incoming]
    notes = [note for i in incoming for note in i.notes]
    if older:  # an older copy of a work file replayed: its grades never replace newer ones
        q, d, who, at, stored = older[0]
        came = distinct[(distinct["query_id"] == q) & (distinct["doc_id"] == d) & (distinct["annotator"] == who)]
        notes.append(
            f"{len(older)} rating{'s' if len(older) != 1 else ''} older than the one{'s' if len(older) != 1 else ''} "
            f"merged before {'were' if len(older) != 1 else 'was'} left out, never applied: the first, {who}'s of "
            f"document {d} for query {q} in {Path(came['file'].iloc[0]).name} (rated {at or 'at no recorded time'}; "
            f"the one kept was rated {stored})"
        )
    return MergeReport(version=draft.version, files=files, totals=totals, taken=taken, notes=notes)

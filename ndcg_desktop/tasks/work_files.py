"""Work files (issue 15, issue 24 items 3 and 4): what a work file records of where it comes from, what the
coordinator's project keeps of each handout, and who grades inside a work file.

A work file is bound to the annotator it was handed to: whoever opens it grades as that annotator, and a user who
states another name is refused (:func:`ndcg_desktop.tasks.identity.annotator`, the one decision of whose name a
project's changes carry). The coordinator's project keeps each handout (annotator, work ID, scope hash, items) and a
keyed digest of it (:func:`handout_digest`, HMAC-SHA256 under a secret that never leaves that project), which the
work file carries; a merge compares the file with them (``tasks.teams``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import same_person
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.formats.cells import show
from ndcg_desktop.formats.common import MAX_NOTE_CHARS
from ndcg_desktop.store import Project

WORK_META = "work"  # meta key of a work file: JSON, see WorkOrigin
WORK_KIND = "ndcg-desktop work file v1"
WORK_SUFFIX = ".ndcgproj"


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
    digest: str = ""  # the handout's keyed digest (handout_digest); '' in files handed out before format 8

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


def scope_hash(items: pd.DataFrame) -> str:
    """SHA-256 of the (query_id, doc_id) pairs handed out, in sorted order."""
    ordered = items[["query_id", "doc_id"]].sort_values(["query_id", "doc_id"])
    digest = hashlib.sha256(b"ndcg-work-scope-v1\n")
    digest.update("".join(f"{q}\t{d}\n" for q, d in ordered.itertuples(index=False)).encode())
    return digest.hexdigest()


def handout_digest(secret: str, origin: WorkOrigin) -> str:
    """HMAC-SHA256, under the coordinator's secret, of what identifies a handout: project, draft, work ID,
    annotator, scope hash and time. A work file carries it; only the project that holds the secret can make one."""
    fields = [origin.project_id, str(origin.base_version), origin.work_id, origin.annotator, origin.scope_sha256]
    message = json.dumps(["ndcg-handout-v1", *fields, origin.assigned_at], ensure_ascii=False).encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


# -- who grades ------------------------------------------------------------------------------------------------


def work_origin(project: Project) -> WorkOrigin | None:
    """Where a work file comes from (None for a project that is not a work file)."""
    text = project.file.setting(WORK_META)
    return None if text is None else WorkOrigin.from_json(text, project.path)


def work_annotator(project: Project) -> str | None:
    """The annotator a work file was handed to (None for a project that is not a work file)."""
    origin = work_origin(project)
    return None if origin is None else origin.annotator


def read_work_file(path: str | Path) -> tuple[WorkOrigin, pd.DataFrame, GradeScale]:
    """A work file's origin, its items (query_id, doc_id, grade, note, updated_at) and its scale.

    Checked here: what ndcg-desktop never writes (a grade that is no whole number, text that is not UTF-8). The
    rest is checked at merge.
    """
    origin, items, scale, _ = read_work(path)
    return origin, items, scale


def read_work(path: str | Path) -> tuple[WorkOrigin, pd.DataFrame, GradeScale, tuple[str, int] | None]:
    """:func:`read_work_file`, and who else than its annotator gave the most of its grades (name, count), if anyone:
    what :func:`check_credits` refuses once the file's record is proven."""
    target = Path(path)
    with Project.open(target, read_only=True) as work:
        text = work.file.setting(WORK_META)
        if text is None:
            raise InputError(
                "is a project, not a work file (ndcg assign PROJECT --annotators NAMES -o DIR writes those)",
                path=target,
            )
        origin = WorkOrigin.from_json(text, target)
        versions = work.pools.versions()
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
        # A grade's time orders copies of the file at merge (the newest wins): what ndcg-desktop writes, an ISO
        # 8601 time to the second in UTC, checked in SQL before 10 MB strings are read (issue 33 item 9).
        odd_time = work.file.query(
            "SELECT query_id, doc_id, length(updated_at) FROM judgments WHERE version = ? AND updated_at IS NOT NULL "
            "AND (length(updated_at) != 25 OR updated_at NOT GLOB "
            "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]+00:00') LIMIT 1",
            (v.version,),
        )
        if odd_time:
            raise InputError(
                f"holds document {show(str(odd_time[0][1]))} for query {show(str(odd_time[0][0]))} with a grading "
                f"time of {int(odd_time[0][2]):,} characters that ndcg-desktop did not write (a time like "
                "2026-01-31T12:00:00+00:00); nothing was merged: ask for a new work file",
                path=target,
            )
        items = work.pools.items(v.version)  # text that is not UTF-8, say, is refused there, naming the file
        others = work.file.query(
            "SELECT annotator, count(*) FROM judgments WHERE version = ? AND grade IS NOT NULL AND annotator IS NOT "
            "NULL AND annotator != ? GROUP BY annotator ORDER BY count(*) DESC, annotator LIMIT 1",
            (v.version, origin.annotator),
        )
        return origin, items, v.scale, ((str(others[0][0]), int(others[0][1])) if others else None)


def check_credits(path: Path, origin: WorkOrigin, others: tuple[str, int] | None) -> None:
    """Refuse a work file holding grades given as anyone but its annotator (``others``, from :func:`read_work`; an
    older ndcg-desktop credited the window's user): they are never passed off as the annotator's."""
    if others is not None:
        who, count = others
        raise InputError(
            f"was handed to {origin.annotator}, but {count} of its grades were given as {show(who)}; grades in a "
            f"work file are credited only to its annotator: nothing was merged (grade them again as "
            f"{origin.annotator}, or hand {show(who)} a work file of their own)",
            path=path,
        )


def no_look_alikes(project: Project, version: int, names: Sequence[str]) -> None:
    """Refuse a name that would be taken for another spelling of someone with work or ratings on draft ``version``
    (names are compared by :func:`~ndcg_desktop.domain.names.same_person`: without case, accents or width)."""
    handed = set(project.ratings.assignments(version)["annotator"])
    known = sorted(handed | set(project.ratings.verified(version)["annotator"]))
    for name in names:
        twin = same_person(name, known)
        if twin is not None:
            raise InputError(
                f"annotator name {name!r} would be taken for {twin!r}, who already has work or ratings on draft "
                f"version {version} (names are compared without case, accents or width); use {twin!r} for "
                "that person, or a name that differs",
                path=project.path,
            )

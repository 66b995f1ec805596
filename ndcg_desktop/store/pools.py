"""Pool versions: drafts, freezing into hashed immutable versions, and frozen qrels for scoring."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.data import Qrels, Source
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_sorted
from ndcg_desktop.domain.settings import LABEL_LADDERS, GradeScale
from ndcg_desktop.domain.settings import default_labels as default_labels  # re-exported: one function for every front
from ndcg_desktop.formats.cells import clean_ids, show
from ndcg_desktop.formats.qrels import judgment_lines
from ndcg_desktop.store import team
from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import ProjectFile, chain_problems, now
from ndcg_desktop.store.errors import NoFrozenVersion, stored_value
from ndcg_desktop.store.hashes import UNFRAMED, UNFRAMED_LINES, hash_of, hash_text
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import CHAIN_FORMAT, ITERATION_FORMAT, TEAM_FORMAT, chain_link, framed, unsettled_items


class FrozenVersionChanged(InputError):
    """A frozen version's judgments no longer hash to the hash recorded when it was frozen (or its ratings to
    the hashes recorded then); ``what`` says what changed."""

    def __init__(self, message: str, *, path: str | Path, what: str = "", own: bool = True) -> None:
        super().__init__(message, path=path)
        self.what = what
        self.own = own  # False: the version itself is as recorded, but the record that proves it is not intact


def _names(problem: str, version: int) -> bool:
    """True if a problem of the record of frozen versions (core.chain_problems) is about ``version`` itself: it
    names it, or the chain is broken at it or before it (every link after a broken one is unproven)."""
    broken = re.match(r"the record of frozen versions is broken at version (\d+) ", problem)
    if broken is not None:
        return int(broken.group(1)) <= version
    return problem.startswith((f"pool version {version} ", f"frozen pool version {version} "))


def _rated(entry: Any) -> str:
    if entry is None:
        return "none"
    if not isinstance(entry, dict):  # a record altered into another shape: shown as it is
        return repr(entry)[:200]
    return f"{entry.get('ratings')} ratings with sha256 {entry.get('sha256')}"


DEFAULT_LABELS = LABEL_LADDERS[4]  # the default scale 0..3's; every scale's come from domain.default_labels


@dataclass(frozen=True)
class DraftTarget:
    """Where a write to "the draft" goes: an existing draft, or a new one made inside that write."""

    version: int | None  # the existing draft; None: a new one
    parent: int | None  # the frozen version a new draft copies (None: a new, empty draft)
    scale: GradeScale
    labels: list[str]


@dataclass(frozen=True)
class PoolVersion:
    version: int
    state: str  # draft | frozen
    parent: int | None
    scale: GradeScale
    labels: list[str]
    created_at: str
    created_by: str
    frozen_at: str | None
    frozen_by: str | None
    hash: str | None
    guidelines_sha256: str | None = None  # the grading guidelines current when it was frozen
    team: str | None = None  # its team record (store/team.py) as recorded when frozen; None before format 5

    @property
    def frozen(self) -> bool:
        return self.state == "frozen"

    @property
    def short_hash(self) -> str:
        return (self.hash or "")[:8]


class PoolRepository(Repository):
    """Pool versions of one project file: which exist, drafts, freezing, frozen qrels."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file
        # version -> the file's change stamp (ProjectFile.change_stamp) when its hash last matched, taken before
        # reading: one check serves every thread until another connection commits.
        self._verified: dict[int, int] = {}
        self._judged: dict[int, int] = {}  # judgments proven (team not yet) at this data_version

    def versions(self) -> list[PoolVersion]:
        schema = self.file.schema_version  # an older file opened read-only has no guidelines, no team record
        rows = self.file.query(
            "SELECT version, state, parent, scale_low, scale_high, labels, created_at, created_by, "
            f"frozen_at, frozen_by, hash, {'NULL' if schema < 3 else 'guidelines_sha256'}, "
            f"{'NULL' if schema < TEAM_FORMAT else 'team'} FROM pool_versions ORDER BY version"
        )
        versions = []
        for r in rows:
            with stored_value(self.file.path, f"the scale and labels of pool version {r[0]}"):
                scale, labels = GradeScale(r[3], r[4]), [str(label) for label in json.loads(r[5])]
            versions.append(PoolVersion(r[0], r[1], r[2], scale, labels, r[6], r[7], r[8], r[9], r[10], r[11], r[12]))
        return versions

    def version(self, number: int) -> PoolVersion:
        for v in self.versions():
            if v.version == number:
                return v
        raise InputError(f"has no pool version {number}", path=self.file.path)

    def draft(self) -> PoolVersion | None:
        drafts = [v for v in self.versions() if not v.frozen]
        return drafts[-1] if drafts else None

    def latest_frozen(self) -> PoolVersion | None:
        frozen = [v for v in self.versions() if v.frozen]
        return frozen[-1] if frozen else None

    @writes
    def ensure_draft(self, *, annotator: str) -> PoolVersion:
        """The draft to edit: the existing one, else a new one from the latest frozen version (by ``annotator``)."""
        target = self.draft_target(None)
        with self.file.transaction() as conn:
            number = self.open_draft(conn, target, annotator=annotator)
        return self.version(number)

    def draft_target(self, number: int | None) -> DraftTarget:
        """The draft a write goes to, found without writing (a new draft is made by :meth:`open_draft`).

        ``number`` names an existing draft; None means the current draft, or else a new one that
        copies the latest frozen version (verified, rule 15), or an empty one on the project's scale.
        """
        if number is not None:
            v = self.version(number)
            if (problem := self.chain_problem(v)) is not None and not v.frozen:
                raise FrozenVersionChanged(f"cannot be written: {problem}", path=self.file.path, what=problem)
            if v.frozen:
                raise InputError(
                    f"pool version {v.version} is frozen (hash {v.short_hash}) and cannot change; "
                    "start a new draft from it",
                    path=self.file.path,
                )
            return DraftTarget(v.version, None, v.scale, v.labels)
        draft = self.draft()
        if draft is not None:
            if (problem := self.chain_problem(draft)) is not None:
                raise FrozenVersionChanged(f"cannot be written: {problem}", path=self.file.path, what=problem)
            return DraftTarget(draft.version, None, draft.scale, draft.labels)
        latest = self.latest_frozen()
        if latest is not None:
            self.verified(latest)
            return DraftTarget(None, latest.version, latest.scale, latest.labels)
        return DraftTarget(None, None, self.file.scale, self.file.labels)

    def target_items(self, target: DraftTarget) -> pd.DataFrame:
        """The items a write to ``target`` starts from: the draft's, or the frozen version a new draft copies."""
        source = target.version if target.version is not None else target.parent
        return self.pool_items(source if source is not None else -1)

    @writes
    def open_draft(self, conn: sqlite3.Connection, target: DraftTarget, *, annotator: str) -> int:
        """Inside the caller's transaction: the target draft's number, creating it (by ``annotator``) if it does not
        exist yet.

        Created inside the write that needs it, a draft disappears with that write if it fails.
        """
        if target.version is not None:
            return target.version
        new = self._insert_version(
            conn, parent=target.parent, scale=target.scale, labels=target.labels, annotator=annotator
        )
        if target.parent is not None:
            self._copy_items(conn, target.parent, new)
        return new

    def iteration(self, alias: str = "") -> str:
        """SQL for a judgment's iteration: its column, or ``'0'`` in a file older than the column (opened
        read-only, so not migrated: every judgment it holds was exported with iteration 0)."""
        if self.file.schema_version < ITERATION_FORMAT:
            return "'0'"
        return f"{alias}.iteration" if alias else "iteration"

    def _copy_items(self, conn: sqlite3.Connection, source: int, new: int) -> None:
        conn.execute(
            "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, note, updated_at, adjudication, "
            "iteration) SELECT ?, query_id, doc_id, grade, annotator, note, updated_at, adjudication, iteration "
            "FROM judgments WHERE version = ?",
            (new, source),
        )
        # Each annotator's ratings come along: the next round keeps who graded what.
        conn.execute(
            "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
            "SELECT ?, query_id, doc_id, annotator, grade, note, rated_at FROM ratings WHERE version = ?",
            (new, source),
        )

    def _insert_version(
        self, conn: sqlite3.Connection, *, parent: int | None, scale: GradeScale, labels: list[str], annotator: str
    ) -> int:
        # A number the audit log names is not given again: a discarded draft's (its undo brings it back under
        # that number, with its handouts; its audit rows name it alone). Only a draft discarded empty leaves no row.
        (number,) = conn.execute(
            "SELECT 1 + max(coalesce((SELECT max(version) FROM pool_versions), 0), "
            "coalesce((SELECT max(version) FROM audit_log), 0))"
        ).fetchone()
        conn.execute(
            "INSERT INTO pool_versions (version, state, parent, scale_low, scale_high, labels, created_at, created_by) "
            "VALUES (?, 'draft', ?, ?, ?, ?, ?, ?)",
            (number, parent, scale.low, scale.high, json.dumps(labels), now(), annotator),
        )
        # Audited (issue 33 item 10): the log names every number given, so a version removed later is missed.
        source = "" if parent is None else f"from version {parent}"
        audit(conn, [change(number, "", "", "draft", new_note=source)], annotator=annotator)
        return int(number)

    @writes
    def new_draft_from(self, number: int, *, annotator: str) -> PoolVersion:
        """Start the next round: a draft (by ``annotator``) that copies frozen version ``number``."""
        source = self.version(number)
        self.verified(source)
        if not source.frozen:
            raise InputError(
                f"pool version {number} is a draft; only a frozen version can be copied", path=self.file.path
            )
        if self.draft() is not None:
            raise InputError(
                f"already has a draft (version {self.draft().version}); freeze or continue it first",  # type: ignore[union-attr]
                path=self.file.path,
            )
        with self.file.transaction() as conn:
            new = self._insert_version(
                conn, parent=number, scale=source.scale, labels=source.labels, annotator=annotator
            )
            self._copy_items(conn, number, new)
        return self.version(new)

    def current_hash(self, number: int, scale: GradeScale) -> str | None:
        """The hash a version's judgments have now (``pool_hash``, as at freezing); None if some are ungraded."""
        return hash_of(self._hashed_lines(number), scale)

    def _hashed_lines(self, number: int) -> bytes | None:
        """A version's judgments as the hash reads them, sorted ``query<TAB>doc<TAB>grade`` lines; None if some
        are ungraded, ``UNFRAMED_LINES`` if a field holds a tab or a line break (:func:`framed`). Written by
        SQLite in one statement: no Python object per judgment."""
        # SQLite's BINARY order (UTF-8 bytes) is Python's (code points): the order pool_hash sorts into,
        # read straight from the primary key without sorting. An integer grade reads as Python writes it. As a
        # BLOB: the UTF-8 bytes come as they are (decoding them into a str and encoding it back held the GIL).
        items, graded, text = self.file.conn.execute(
            "SELECT count(*), count(grade), "
            "       CAST(group_concat(query_id || char(9) || doc_id || char(9) || grade || char(10), '') AS BLOB) "
            "FROM (SELECT query_id, doc_id, grade FROM judgments WHERE version = ? ORDER BY query_id, doc_id)",
            (number,),
        ).fetchone()
        if graded < items:
            return None
        lines = bytes(text or b"")
        return lines if framed(lines, items) else UNFRAMED_LINES

    def verified(self, v: PoolVersion) -> PoolVersion:
        """``v`` itself, once its judgments are proven to hash to the recorded hash (contract rule 15).

        A frozen version is checked at each use; a check is remembered until another connection
        commits to the file (``PRAGMA data_version``). Raises :class:`FrozenVersionChanged`.
        """
        if not v.frozen:
            return v
        stamp = self.file.change_stamp()
        if self._verified.get(v.version) == stamp:
            return v
        self._compare(v, self.current_hash(v.version, v.scale), stamp)
        return v

    def _compare(self, v: PoolVersion, now_hash: str | None, stamp: int) -> None:
        """Refuse a frozen version whose judgments now hash to ``now_hash``, unless that is its recorded hash,
        or whose ratings or adjudications differ from its recorded team (:func:`team.team_record`)."""
        self._compare_judgments(v, now_hash)
        self._compare_team(v, stamp)
        self._verified[v.version] = stamp

    def chain_problem(self, v: PoolVersion) -> str | None:
        """What the record of frozen versions says is wrong with ``v`` (or with the record itself), or None."""
        if self.file.schema_version < CHAIN_FORMAT:  # an older file opened read-only: no record
            return None
        mine = [p for p in chain_problems(self.file.conn) if _names(p, v.version)]
        return "; ".join(mine) if mine else None

    def record_problem(self, v: PoolVersion) -> str | None:
        """What is wrong with the record of frozen versions that is not about ``v`` itself (a link broken, another
        version flipped or removed, audit rows removed), or None: then ``v`` cannot be proven either, but it is not
        the version to blame (issue 33 item 10)."""
        if self.file.schema_version < CHAIN_FORMAT:
            return None
        others = [p for p in chain_problems(self.file.conn) if not _names(p, v.version)]
        return "; ".join(others) if others else None

    def _compare_judgments(self, v: PoolVersion, now_hash: str | None) -> None:
        if (problem := self.chain_problem(v)) is not None:
            self._refuse(v, problem)
        if (problem := self.record_problem(v)) is not None:
            what = f"the record of frozen versions that proves it is not intact ({problem})"
            raise FrozenVersionChanged(
                f"pool version {v.version} cannot be proven: {what}; the file was altered outside ndcg-desktop, so "
                "nothing scored against this version can be trusted: restore the project from a backup",
                path=self.file.path,
                what=what,
                own=False,
            )
        if now_hash == UNFRAMED:
            self._refuse(v, "a stored ID now holds a tab or a line break, so its lines no longer read as one "
                         "judgment each")  # fmt: skip
        if now_hash != v.hash:
            now_text = now_hash if now_hash is not None else "nothing (it has ungraded items)"
            self._refuse(v, f"its recorded sha256 is {v.hash}, its judgments now hash to {now_text}")

    def prove_team(self, number: int) -> None:
        """The rest of rule 16's proof of a version read by ``qrels(number, team=False)``: its annotators' ratings
        and its adjudications against its recorded team. Runs on any thread (on that thread's connection), so it
        can go on while the judgments are scored; nothing computed from them may be used before it returns."""
        v = self._frozen_version(number)
        stamp = self.file.change_stamp()
        self._compare_team(v, stamp)
        if self._judged.get(v.version) == stamp:  # judgments and team proven at the same data_version
            self._verified[v.version] = stamp

    def _compare_team(self, v: PoolVersion, stamp: int) -> None:
        if v.team is not None and self._verified.get(v.version) != stamp:  # proven at this data_version: not again
            try:
                recorded = team.decode(v.team)
                annotators, adjudication = dict(recorded["annotators"]), recorded["adjudication"]
            except (ValueError, KeyError, TypeError):  # not what freezing wrote
                self._refuse(v, "its recorded team (annotators, ratings hashes, adjudications) no longer reads back")
            found = team.annotator_digests(self.file.conn, v.version, v.scale)
            for name in sorted(set(annotators) | set(found)):
                was, now_is = annotators.get(name), found.get(name)
                if was != now_is:
                    self._refuse(
                        v,
                        f"the ratings of annotator {name} were recorded as {_rated(was)}, they are now "
                        f"{_rated(now_is)}",
                    )
            adjudicated = team.adjudication_counts(self.file.conn, v.version)
            if adjudicated != adjudication:
                self._refuse(v, f"its adjudications were recorded as {adjudication}, they are now {adjudicated}")

    def _refuse(self, v: PoolVersion, what: str) -> NoReturn:
        raise FrozenVersionChanged(
            f"pool version {v.version} has changed since it was frozen: {what}; the file was altered outside "
            "ndcg-desktop, so nothing scored against this version can be trusted: restore the project from a backup",
            path=self.file.path,
            what=what,
        )

    def team(self, v: PoolVersion) -> dict[str, Any]:
        """Version ``v``'s team record (rule 16): recorded when it was frozen and proven with the version; computed
        from its ratings for a draft or a version frozen before format 5 (the same content)."""
        self.verified(v)
        if v.team is not None:
            with stored_value(self.file.path, f"the team record of pool version {v.version}"):
                return team.decode(v.team)
        return team.team_record(self.file.conn, v.version, v.scale)

    def writable_draft(self, number: int) -> PoolVersion:
        """An existing draft, by number; a frozen version is refused."""
        return self.version(self.draft_target(number).version)  # type: ignore[arg-type]

    def pool_items(self, number: int, query_id: str | None = None) -> pd.DataFrame:
        """The pool of a version: query_id, doc_id, grade (None if ungraded), annotator, note, updated_at, title,
        iteration (the qrels' round, as read)."""
        sql = (
            "SELECT j.query_id, j.doc_id, j.grade, j.annotator, j.note, j.updated_at, "
            f"coalesce(d.title, '') AS title, {self.iteration('j')} AS iteration "
            "FROM judgments j LEFT JOIN documents d ON d.doc_id = j.doc_id "
            "WHERE j.version = ?"
        )
        params: list[Any] = [number]
        if query_id is not None:
            sql += " AND j.query_id = ?"
            params.append(query_id)
        return self.file.graded_frame(
            sql + " ORDER BY j.query_id, j.doc_id", params, f"the items of pool version {number}"
        )

    def pairs(self, number: int, step: int = 20_000) -> tuple[pa.Array, pa.Array]:
        """A version's (query_id, doc_id) pairs as two Arrow string columns, in no particular order.

        Read ``step`` rows at a time: SQLite steps without the GIL, and each step's Python strings become Arrow
        text at once, so a worker reading a million items never holds the GIL for long (``pool_items`` builds a
        pandas frame from every row in one call).
        """
        cursor = self.file.conn.execute("SELECT query_id, doc_id FROM judgments WHERE version = ?", (number,))
        queries: list[pa.Array] = []
        docs: list[pa.Array] = []
        with stored_value(self.file.path, f"the items of pool version {number}"):  # a draft edited by hand
            while rows := cursor.fetchmany(step):
                queries.append(pa.array([row[0] for row in rows], pa.string()))
                docs.append(pa.array([row[1] for row in rows], pa.string()))
        if not queries:
            return pa.array([], pa.string()), pa.array([], pa.string())
        return pa.concat_arrays(queries), pa.concat_arrays(docs)

    def items(self, number: int) -> pd.DataFrame:
        """A version's items without the documents' titles: query_id, doc_id, grade (None if ungraded), note,
        updated_at; the lean read for checks over many items."""
        return self.file.graded_frame(
            "SELECT query_id, doc_id, grade, note, updated_at FROM judgments WHERE version = ? "
            "ORDER BY query_id, doc_id",
            [number],
            f"the items of pool version {number}",
        )

    def query_list_exceeds(self, number: int, rows: int) -> bool:
        """Whether version ``number`` has more than ``rows`` items or the project more than ``rows`` queries.

        Reads at most ``rows + 1`` index entries of each, so the window can decide at once whether
        :meth:`query_progress` is worth a worker thread.
        """
        sql = (
            "SELECT EXISTS (SELECT 1 FROM judgments WHERE version = ? LIMIT 1 OFFSET ?) "
            "OR EXISTS (SELECT 1 FROM queries LIMIT 1 OFFSET ?)"
        )
        return bool(self.file.conn.execute(sql, (number, rows, rows)).fetchone()[0])

    def query_progress(self, number: int) -> pd.DataFrame:
        """Every query (imported or pooled) with its text, pool size and graded count in a version.

        On a worker thread this GROUP BY over a million items runs on that thread's own connection (core), so
        the window's small queries (the versions list, the runs) do not wait for it.
        """
        for v in self.versions():  # the window lists version -1 (none) for a project without a pool
            if v.version == number:
                self.verified(v)
        return self._progress(self.file.conn, number)

    @staticmethod
    def _progress(conn: sqlite3.Connection, number: int) -> pd.DataFrame:
        # awaiting: ungraded items whose people's ratings differ (settled in Adjudicate, not graded again); a
        # model's rating never makes an item awaiting (contract rule 18: nobody sees it before grading)
        rated = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ratings'").fetchone()
        awaiting = (
            f"     d AS (SELECT query_id, count(*) AS awaiting FROM ({unsettled_items()}) GROUP BY query_id),"
            if rated
            else "     d AS (SELECT NULL AS query_id, 0 AS awaiting WHERE 0),"  # a file from before ratings
        )
        return pd.read_sql_query(
            "WITH p AS (SELECT query_id, count(*) AS pool_size, count(grade) AS graded"
            "           FROM judgments WHERE version = :v GROUP BY query_id)," + awaiting + ""
            "     ids AS (SELECT query_id FROM queries UNION SELECT query_id FROM p) "
            "SELECT ids.query_id, coalesce(q.text, '') AS text, coalesce(p.pool_size, 0) AS pool_size,"
            "       coalesce(p.graded, 0) AS graded, coalesce(d.awaiting, 0) AS awaiting "
            "FROM ids LEFT JOIN p ON p.query_id = ids.query_id LEFT JOIN queries q ON q.query_id = ids.query_id "
            "LEFT JOIN d ON d.query_id = ids.query_id ORDER BY ids.query_id",
            conn,
            params={"v": number},
        )

    @writes
    def mark_frozen(self, conn: sqlite3.Connection, version: int, scale: GradeScale, *, annotator: str) -> None:
        """Inside the caller's transaction: hash a draft's final items and freeze it with that hash, by ``annotator``.

        A draft can be edited through raw SQL (only frozen versions are guarded): what is frozen is first read
        back as it will be scored, and refused unless every ID keeps rule 14 and every grade and rating is a
        whole number on the scale.
        """
        lines = self._hashed_lines(version)  # None with ungraded items: the schema's trigger refuses those
        if lines is not None:
            self._check_draft(conn, version, lines, scale)
        digest = None if lines is None else hash_text(lines, scale)  # the lines just checked: read once
        if digest is not None:
            self._refuse_repeat(conn, version, digest)
        recorded = team.team_record(conn, version, scale)
        if any(rated["sha256"] == team.UNFRAMED_RATINGS for rated in recorded["annotators"].values()):
            raise InputError(
                f"draft version {version} cannot be frozen: a rating's ID or grade holds a tab or a line break",
                path=self.file.path,
            )
        record = team.encode(recorded)
        if self.file.schema_version >= CHAIN_FORMAT and (problems := chain_problems(conn)):
            raise InputError(f"draft version {version} cannot be frozen: {'; '.join(problems)}", path=self.file.path)
        conn.execute(
            "UPDATE pool_versions SET state = 'frozen', frozen_at = ?, frozen_by = ?, hash = ?, team = ?, "
            # the guidelines it was judged under: the last set, unless that cleared them
            "guidelines_sha256 = (SELECT NULLIF(sha256, '') FROM guidelines ORDER BY id DESC LIMIT 1) "
            "WHERE version = ? AND state = 'draft'",
            (now(), annotator, digest, record, version),
        )
        if self.file.schema_version >= CHAIN_FORMAT:  # the number joins the record of frozen versions, once
            last = conn.execute("SELECT link FROM frozen_chain ORDER BY version DESC LIMIT 1").fetchone()
            link = chain_link(last[0] if last else "", version, digest or "")
            conn.execute("INSERT INTO frozen_chain (version, hash, link) VALUES (?, ?, ?)", (version, digest, link))
        # Audited with its hash (issue 33 item 10): the chain's check finds a frozen version whose link went.
        audit(conn, [change(version, "", "", "freeze", new_note=digest or "")], annotator=annotator)
        # Just hashed and recorded from what it holds: proven (its manifest, printed next, reads nothing again).
        # Were this transaction to fail, the version stays a draft, which is never checked.
        self._verified[version] = self.file.change_stamp()

    def _refuse_repeat(self, conn: sqlite3.Connection, version: int, digest: str) -> None:
        """Rule 21: a draft whose judgments hash as a frozen version's (the same items with the same grades, on the
        same scale) freezes into no new number; refused naming that version, its parent first."""
        parent = conn.execute("SELECT parent FROM pool_versions WHERE version = ?", (version,)).fetchone()
        same = [
            int(row[0])
            for row in conn.execute(
                "SELECT version FROM pool_versions WHERE state = 'frozen' AND hash = ? ORDER BY version DESC",
                (digest,),
            )
        ]
        if not same:
            return
        if parent is not None and parent[0] in same:
            what = f"its parent, pool version {parent[0]}"
            earlier = int(parent[0])
        else:
            what = f"pool version {same[0]}"
            earlier = same[0]
        raise InputError(
            f"draft version {version} is identical to {what} (the same items with the same grades): freezing it "
            f"would repeat version {earlier} under a new number; change the draft first, or score against version "
            f"{earlier}",
            path=self.file.path,
        )

    def _check_draft(self, conn: sqlite3.Connection, version: int, lines: bytes, scale: GradeScale) -> None:
        problem = _draft_problem(conn, version, lines, scale)
        if problem is not None:
            raise InputError(f"draft version {version} cannot be frozen: {problem}", path=self.file.path)

    def frozen_version(self, number: int | None, *, check: bool = True) -> PoolVersion:
        """A frozen version for use (the latest if ``number`` is None), verified against its hash.

        ``check=False`` only for a caller that reads its judgments next with :meth:`qrels`, which proves them
        from the lines it scores: checking here too would read every judgment twice.
        """
        v = self._frozen_version(number)
        return self.verified(v) if check else v

    def _frozen_version(self, number: int | None) -> PoolVersion:
        if number is None:
            latest = self.latest_frozen()
            if latest is None:
                raise NoFrozenVersion("has no frozen pool version", path=self.file.path)
            return latest
        v = self.version(number)
        if not v.frozen:
            raise InputError(f"pool version {number} is a draft; scores need a frozen version", path=self.file.path)
        return v

    def qrels(self, number: int | None = None, *, team: bool = True, iterations: tuple[str, ...] = ()) -> Qrels:
        """The judgments of a frozen version, ready for scoring. Drafts are refused.

        Read once: the lines whose hash is checked (rule 15) are the lines scored. ``team=False`` leaves the
        proof of the annotators' ratings (rule 16) to :meth:`prove_team`, which the caller must run before using
        anything computed from these judgments. ``iterations``: only the judgments of those rounds (the qrels'
        iteration column as read), once the whole version is proven; none: every judgment.
        """
        v = self._frozen_version(number)
        stamp = self.file.change_stamp()
        lines = self._hashed_lines(v.version)
        now_hash = hash_of(lines, v.scale)
        if team:
            self._compare(v, now_hash, stamp)
        else:
            self._compare_judgments(v, now_hash)
            self._judged[v.version] = stamp
        source = Source(path=f"{self.file.path.name} pool v{v.version}", sha256=v.hash or "", format="pool")
        if iterations:
            lines = self._round_lines(v.version, iterations)
            if not lines:
                raise self._no_round(v.version, iterations)
        return Qrels(judgment_lines(lines or b""), source)

    def _no_round(self, number: int, iterations: tuple[str, ...]) -> InputError:
        rounds = ", ".join(show(r) for r in natural_sorted(sorted(set(self.iterations(number)))))
        return InputError(
            f"pool version {number} has no judgment of iteration {', '.join(map(show, iterations))}; its "
            f"iterations are {rounds}",
            path=self.file.path,
        )

    def _round_lines(self, number: int, iterations: tuple[str, ...]) -> bytes:
        """The hashed lines of a version's judgments of the given iterations (read after the whole is proven)."""
        marks = ", ".join("?" for _ in iterations)
        (text,) = self.file.conn.execute(
            "SELECT CAST(group_concat(query_id || char(9) || doc_id || char(9) || grade || char(10), '') AS BLOB) "
            f"FROM (SELECT query_id, doc_id, grade FROM judgments WHERE version = ? AND {self.iteration()} IN "
            f"({marks}) ORDER BY query_id, doc_id)",
            (number, *iterations),
        ).fetchone()
        return bytes(text or b"")

    def iterations(self, number: int) -> list[str]:
        """Each judgment's iteration in a version, in key order (query, document)."""
        rows = self.file.conn.execute(
            f"SELECT {self.iteration()} FROM judgments WHERE version = ? ORDER BY query_id, doc_id", (number,)
        ).fetchall()
        return [str(r[0]) for r in rows]

    def round_items(self, number: int, iterations: tuple[str, ...] = ()) -> pd.DataFrame:
        """:meth:`pool_items` of version ``number``, only those of the given rounds (the qrels' iteration column as
        read) when ``iterations``; refused when none is."""
        items = self.pool_items(number)
        if iterations:
            items = items[items["iteration"].isin(iterations)]
            if items.empty:
                raise self._no_round(number, iterations)
        return items


def _draft_problem(conn: sqlite3.Connection, version: int, lines: bytes, scale: GradeScale) -> str | None:
    """Why a draft's items (its hashed ``lines``) and ratings cannot be frozen as they are, or None: each read back
    by the reader that scores them, IDs by rule 14's own check, grades and ratings against the scale."""
    # Stored as SQLite stores what ndcg-desktop writes, or refused: a BLOB b'3' or a text '3' reads back as the
    # grade 3 in the hashed lines, and export-qrels (which reads the grade as an integer) would refuse the version.
    odd = conn.execute(
        "SELECT quote(query_id), quote(doc_id), quote(grade), typeof(query_id) = 'text' AND typeof(doc_id) = 'text' "
        "FROM judgments WHERE version = ? AND (typeof(grade) NOT IN ('integer', 'null') "
        "OR typeof(query_id) != 'text' OR typeof(doc_id) != 'text') LIMIT 1",
        (version,),
    ).fetchone()
    if odd is not None:
        if not odd[3]:
            return f"a query or document ID is stored as something other than text ({odd[0]}, {odd[1]})"
        return f"a grade is not a whole number: document {odd[1]} for query {odd[0]} is graded {odd[2]}"
    if lines is UNFRAMED_LINES:
        return "a query or document ID holds a tab or a line break"
    try:
        items = judgment_lines(lines)
    except ValueError:
        return "a grade is not a whole number"
    for ids, what in ((items.queries, "query ID"), (items.doc_ids, "document ID")):
        try:
            if not clean_ids(ids, what, "", lambda row: row + 1).equals(ids):
                return f"a {what} has whitespace around it"
        except InputError as exc:
            return exc.message
    outside = np.flatnonzero((items.grade < scale.low) | (items.grade > scale.high))
    if len(outside):
        row = int(outside[0])
        doc, query = items.doc_ids[row].as_py(), items.queries[items.q[row]].as_py()
        grade = int(items.grade[row])
        return f"document {show(doc)} for query {show(query)} is graded {grade}, outside the scale {scale}"
    bad = conn.execute(
        "SELECT query_id, doc_id, annotator, grade FROM ratings WHERE version = ? AND "
        "(typeof(grade) != 'integer' OR grade < ? OR grade > ?) LIMIT 1",
        (version, scale.low, scale.high),
    ).fetchone()
    if bad is not None:
        rated = str(bad[3]) if isinstance(bad[3], int | float) else show(str(bad[3]))
        return (
            f"annotator {show(str(bad[2]))} rated document {show(str(bad[1]))} for query {show(str(bad[0]))} "
            f"{rated}, not a whole number on the scale {scale}"
        )
    return None

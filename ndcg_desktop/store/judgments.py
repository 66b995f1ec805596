"""Judgments in a draft pool: grades, notes, added and removed items, imported qrels, the audit log."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ndcg_desktop.domain.blind import BLIND
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.formats.common import check_note
from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import INTERACTIVE_BUSY_MS, ProjectFile, now
from ndcg_desktop.store.incoming import read_incoming
from ndcg_desktop.store.pools import DraftTarget, PoolRepository, PoolVersion
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import person_rating
from ndcg_desktop.store.team import model_agreement, outstanding_text
from ndcg_desktop.store.undo import Left, Taken, capture, items_scope, take, version_scope

# The items of a draft that a model's rating may fill: ungraded, rated by no person, rated by the model.
_FILLABLE = (
    "SELECT {what} FROM judgments j JOIN ratings r ON (r.version, r.query_id, r.doc_id) = (j.version, j.query_id, "
    "j.doc_id) AND r.annotator = ? WHERE j.version = ? AND j.grade IS NULL AND NOT EXISTS (SELECT 1 FROM ratings p "
    "WHERE (p.version, p.query_id, p.doc_id) = (j.version, j.query_id, j.doc_id) AND " + person_rating("p") + ")"
)
_BATCH = 5_000  # rows a step when feeding a temporary table: other threads get the GIL between steps
# (a step's Python strings and its executemany hold the GIL: 50,000-row steps held it 70-155 ms at a time
# while 6.7M pairs were sent for judging, at load 5; the window's thread waited that long)


class RegradeRefused(InputError):
    """An import that only adds met a regrade: the file grades an item otherwise than the draft (a corrected
    release; the remedy is the front's to word: tasks.importing names the command line's, the window asks)."""


class JudgmentRepository(Repository):
    """Every change to a draft's items, each audited, each one transaction."""

    def __init__(self, file: ProjectFile, pools: PoolRepository) -> None:
        self.file = file
        self.pools = pools

    @writes
    def set_grade(
        self, query_id: str, doc_id: str, grade: int | None, *, annotator: str, version: int | None = None
    ) -> Taken:
        """Grade one pool item as ``annotator`` (``None`` clears it). Audited. Returns what it took (the item and
        its ratings before), for an undo."""
        target = self.pools.draft_target(version)
        if grade is not None and not (target.scale.low <= grade <= target.scale.high):
            raise InputError(f"grade {grade} is outside the scale {target.scale}")
        stamp = now()
        with self.file.transaction(wait_ms=INTERACTIVE_BUSY_MS) as conn:  # a key press: fail promptly
            number = self.pools.open_draft(conn, target, annotator=annotator)
            old = self._item(conn, number, query_id, doc_id)
            scope = items_scope(number, [(query_id, doc_id)])
            before = capture(conn, scope)
            conn.execute(
                "UPDATE judgments SET grade = ?, annotator = ?, updated_at = ? "
                "WHERE version = ? AND query_id = ? AND doc_id = ?",
                (grade, annotator, stamp, number, query_id, doc_id),
            )
            self._rate(conn, number, query_id, doc_id, grade, annotator, stamp)
            audit(
                conn,
                [change(number, query_id, doc_id, "grade", old_grade=old[0], new_grade=grade)],
                annotator=annotator,
                at=now(),  # read apart from the row's time, as it always was
            )
            return Taken(scope, before, Left.of(capture(conn, scope)))

    def _rate(
        self,
        conn: sqlite3.Connection,
        number: int,
        query_id: str,
        doc_id: str,
        grade: int | None,
        annotator: str,
        stamp: str,
    ) -> None:
        """A grade given in the project is also its author's rating; if others rated the item differently, the
        grade is that person's pick (judgments.adjudication). A grade cleared takes back its author's rating."""
        key = (number, query_id, doc_id)
        if grade is None:
            conn.execute(
                "DELETE FROM ratings WHERE version = ? AND query_id = ? AND doc_id = ? AND annotator = ?",
                (*key, annotator),
            )
        else:
            conn.execute(
                "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
                "SELECT version, query_id, doc_id, ?, grade, note, ? FROM judgments "
                "WHERE version = ? AND query_id = ? AND doc_id = ? "
                "ON CONFLICT (version, query_id, doc_id, annotator) DO UPDATE SET grade = excluded.grade, "
                "rated_at = excluded.rated_at",
                (annotator, stamp, *key),
            )
        differing = conn.execute(
            # a model's differing rating makes no pick: the person graded, nobody adjudicated (contract rule 18)
            "SELECT count(*) FROM ratings WHERE version = ? AND query_id = ? AND doc_id = ? AND grade IS NOT ? AND "
            + person_rating(),
            (*key, grade),
        ).fetchone()[0]
        conn.execute(
            "UPDATE judgments SET adjudication = ? WHERE version = ? AND query_id = ? AND doc_id = ?",
            ("pick" if grade is not None and differing else None, *key),
        )

    @writes
    def set_note(self, query_id: str, doc_id: str, note: str, *, annotator: str, version: int | None = None) -> Taken:
        """Set the note of one pool item as ``annotator``. Audited. Returns what it took (the item and its ratings
        before), for an undo."""
        check_note(note, self.file.path)
        target = self.pools.draft_target(version)
        with self.file.transaction(wait_ms=INTERACTIVE_BUSY_MS) as conn:  # a key press: fail promptly
            number = self.pools.open_draft(conn, target, annotator=annotator)
            old = self._item(conn, number, query_id, doc_id)
            scope = items_scope(number, [(query_id, doc_id)])
            before = capture(conn, scope)
            conn.execute(
                "UPDATE judgments SET note = ?, updated_at = ? WHERE version = ? AND query_id = ? AND doc_id = ?",
                (note, now(), number, query_id, doc_id),
            )
            conn.execute(  # the note is also the user's own rating's, if they rated the item
                "UPDATE ratings SET note = ? WHERE version = ? AND query_id = ? AND doc_id = ? AND annotator = ?",
                (note, number, query_id, doc_id, annotator),
            )
            audit(
                conn,
                [change(number, query_id, doc_id, "note", old_note=old[1], new_note=note)],
                annotator=annotator,
                at=now(),
            )
            return Taken(scope, before, Left.of(capture(conn, scope)))

    def _item(self, conn: sqlite3.Connection, version: int, query_id: str, doc_id: str) -> tuple[Any, Any]:
        row = conn.execute(
            "SELECT grade, note FROM judgments WHERE version = ? AND query_id = ? AND doc_id = ?",
            (version, query_id, doc_id),
        ).fetchone()
        if row is None:
            raise InputError(f"document {doc_id} is not in the pool of query {query_id} (version {version})")
        return row[0], row[1]

    def audit_log(self, version: int | None = None) -> pd.DataFrame:
        sql = "SELECT * FROM audit_log" + (" WHERE version = ?" if version is not None else "") + " ORDER BY id"
        return pd.read_sql_query(sql, self.file.conn, params=[version] if version is not None else [])

    def judging_log(self) -> pd.DataFrame:
        """The audit rows that give a grade (who, at, action, new_grade, version, query_id, doc_id, and
        ``still_graded``: whether that item holds a grade now, so an undone grade is not counted as work).

        Filtered by SQLite (which lets go of Python's GIL), on a worker's own connection, so a pace refresh
        stays off the window's key presses even when imports wrote a large audit log.
        """
        frame = pd.read_sql_query(
            "SELECT a.who, a.at, a.action, a.new_grade, a.version, a.query_id, a.doc_id, "
            "j.grade IS NOT NULL AS still_graded FROM audit_log a LEFT JOIN judgments j "
            "ON j.version = a.version AND j.query_id = a.query_id AND j.doc_id = a.doc_id "
            "WHERE a.action = 'grade' AND a.new_grade IS NOT NULL ORDER BY a.id",
            self.file.conn,
        )
        frame["still_graded"] = frame["still_graded"].astype(bool)
        return frame

    def draft_ungraded(self) -> tuple[int | None, int]:
        """The draft's version number (None without a draft) and how many of its items are ungraded."""
        conn = self.file.conn
        row = conn.execute(
            "SELECT max(version) FROM pool_versions WHERE state = 'draft'"  # at most one draft exists
        ).fetchone()
        if row[0] is None:
            return None, 0
        count = conn.execute("SELECT count(*) FROM judgments WHERE version = ? AND grade IS NULL", (row[0],))
        return int(row[0]), int(count.fetchone()[0])

    def judging_order(self) -> str:
        """How a query's pool is ordered for judging: "blind" (the default) or "doc_id" (domain.blind)."""
        return self.file.meta("judging_order", BLIND)

    @writes
    def set_judging_order(self, order: str) -> None:
        """Record the judging order used for this project (which orders there are: tasks.grading)."""
        self.file.set_meta("judging_order", order)

    @writes
    def add_items(
        self, pairs: pd.DataFrame, *, annotator: str, version: int | None = None, action: str = "add"
    ) -> pd.DataFrame:
        """Add ungraded (query_id, doc_id) items to a draft; returns per query how many were new."""
        target = self.pools.draft_target(version)
        with self.file.transaction() as conn:
            number = self.pools.open_draft(conn, target, annotator=annotator)
            return self.add_items_in(conn, number, pairs, action, annotator=annotator)

    @writes
    def add_items_in(
        self, conn: sqlite3.Connection, number: int, pairs: pd.DataFrame, action: str, *, annotator: str
    ) -> pd.DataFrame:
        """Inside the caller's transaction: :meth:`add_items` into draft ``number`` (a pool build adds its record
        in the same transaction)."""
        with _staged(conn, pairs, number) as staged:
            counts = _counts(conn, staged)
            conn.execute(
                "INSERT INTO judgments (version, query_id, doc_id, grade) "
                f"SELECT ?, query_id, doc_id, NULL FROM {staged} WHERE new ORDER BY query_id, doc_id",  # appends
                (number,),
            )
            conn.execute(
                "INSERT INTO audit_log (version, query_id, doc_id, action, who, at) "
                f"SELECT ?, query_id, doc_id, ?, ?, ? FROM {staged} WHERE new ORDER BY rowid",  # order given
                (number, action, annotator, now()),  # one time stamp for the one transaction
            )
        return counts

    def preview_items(self, pairs: pd.DataFrame, *, version: int | None = None) -> pd.DataFrame:
        """What :meth:`add_items` would add, per query, writing nothing (not even a new draft)."""
        target = self.pools.draft_target(version)
        source = target.version if target.version is not None else target.parent  # a new draft copies its parent
        with _staged(self.file.conn, pairs, source if source is not None else -1) as staged:
            return _counts(self.file.conn, staged)

    @writes
    def remove_ungraded(self, *, annotator: str, version: int | None = None) -> int:
        """Remove every ungraded item of a draft (an explicit step before freezing). Audited."""
        target = self.pools.draft_target(version)
        if target.version is None:  # a new draft would copy a frozen version: nothing ungraded to remove
            return 0
        with self.file.transaction() as conn:
            return self._remove_ungraded(conn, target.version, annotator=annotator)

    def _remove_ungraded(self, conn: sqlite3.Connection, number: int, *, annotator: str) -> int:
        rows = conn.execute(
            "SELECT query_id, doc_id FROM judgments WHERE version = ? AND grade IS NULL", (number,)
        ).fetchall()
        conn.execute("DELETE FROM judgments WHERE version = ? AND grade IS NULL", (number,))
        audit(conn, (change(number, q, d, "remove") for q, d in rows), annotator=annotator, at=now())
        return len(rows)

    @writes
    def remove_items(self, pairs: pd.DataFrame, *, annotator: str, version: int, action: str = "remove") -> int:
        """Remove ungraded (query_id, doc_id) items from a draft, undoing an addition; graded ones stay. Audited.

        Returns how many were removed (:meth:`take_items` returns what they took, for an undo).
        """
        return self.take_items(pairs, annotator=annotator, version=version, action=action).before.count("judgments")

    @writes
    def take_items(self, pairs: pd.DataFrame, *, annotator: str, version: int, action: str = "remove") -> Taken:
        """Remove the ungraded ones of the (query_id, doc_id) items from a draft with every row that refers to
        them (:mod:`.undo`), in one audited transaction; returns what was taken."""
        v = self.pools.writable_draft(version)
        wanted = list(pairs[["query_id", "doc_id"]].drop_duplicates().itertuples(index=False, name=None))
        with self.file.transaction() as conn:
            with _staged(conn, pd.DataFrame(wanted, columns=["query_id", "doc_id"]), v.version) as staged:
                gone = conn.execute(
                    f"SELECT s.query_id, s.doc_id FROM {staged} s JOIN judgments j ON j.version = ? "
                    "AND j.query_id = s.query_id AND j.doc_id = s.doc_id WHERE j.grade IS NULL ORDER BY s.rowid",
                    (v.version,),
                ).fetchall()
            taken = take(conn, items_scope(v.version, [(q, d) for q, d in gone]))
            audit(conn, (change(v.version, q, d, action) for q, d in gone), annotator=annotator, at=now())
        return taken

    @writes
    def discard_draft(self, version: int | None = None, *, annotator: str, expected: str | None = None) -> Taken:
        """Delete a draft with every row that refers to it (items, ratings, assignments, ...: :mod:`.undo`); each
        item's removal is audited. Returns what was taken. Frozen versions are refused.

        ``expected``: the digest of what the confirmation counted (:meth:`~.undo.Rows.digest`); a draft that
        holds anything else now is refused, nothing deleted.
        """
        draft = self.pools.version(version) if version is not None else self.pools.draft()
        if draft is None:
            raise InputError("has no draft pool to discard", path=self.file.path)
        v = self.pools.writable_draft(draft.version)
        with self.file.transaction() as conn:
            rows = conn.execute("SELECT query_id, doc_id FROM judgments WHERE version = ?", (v.version,)).fetchall()
            taken = take(conn, version_scope(v.version))
            if expected is not None and taken.before.digest() != expected:
                raise InputError("the draft pool changed since the confirmation; discard again", path=self.file.path)
            audit(conn, (change(v.version, q, d, "discard draft") for q, d in rows), annotator=annotator, at=now())
        return taken

    @writes
    def import_qrels(
        self, path: str | Path, *, annotator: str, negative_as_ungraded: bool = False, fmt: str | None = None
    ) -> dict[str, int]:
        """Import judgments into the draft. Conflicting grades already in the draft are refused.

        Negative grades (trec_eval's "pooled but not judged") are refused, or imported as
        ungraded pool items when ``negative_as_ungraded``.
        """
        target = self.pools.draft_target(None)
        scale = target.scale
        source, qrels, low = read_incoming(path, scale, negative_as_ungraded=negative_as_ungraded, fmt=fmt)
        c = qrels.as_read
        stamp = now()
        # Below the scale only with negative_as_ungraded (-1 on a -1..4 scale is a grade): stored ungraded.
        grades: list[int | None] = c.grade.tolist()
        for row in np.flatnonzero(low).tolist():
            grades[row] = None
        columns = [c.queries.take(pa.array(c.q)).to_pylist(), c.doc_ids.to_pylist(), grades, c.lines().tolist()]
        if c.iteration is not None:  # else every line's is 0, the column's default: nothing more to send
            columns.append(c.iteration.to_pylist())
        incoming = zip(*columns, strict=True)
        fields = "query_id, doc_id, grade, line" + (", iteration" if c.iteration is not None else "")
        with self.file.transaction() as conn:
            number = self.pools.open_draft(conn, target, annotator=annotator)
            # The file's judgments go into a temporary table in file order; SQLite then compares them with the
            # draft's and copies them by a few set statements (766k judgments: seconds, not a minute of
            # per-row statements and pandas merges).
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS importing (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, "
                "grade INTEGER, line INTEGER NOT NULL, present INTEGER NOT NULL DEFAULT 0, old INTEGER, "
                "iteration TEXT NOT NULL DEFAULT '0')"
            )
            conn.execute("DELETE FROM importing")
            for batch in iter(lambda: list(itertools.islice(incoming, _BATCH)), []):
                conn.executemany(f"INSERT INTO importing ({fields}) VALUES ({', '.join('?' for _ in columns)})", batch)
            if conn.execute("SELECT EXISTS (SELECT 1 FROM judgments WHERE version = ?)", (number,)).fetchone()[0]:
                conn.execute(
                    "UPDATE importing SET present = 1, old = j.grade FROM judgments j "
                    "WHERE j.version = ? AND j.query_id = importing.query_id AND j.doc_id = importing.doc_id",
                    (number,),
                )
            clash = conn.execute(
                "SELECT query_id, doc_id, grade, old, line FROM importing "
                "WHERE present AND old IS NOT NULL AND grade IS NOT NULL AND grade != old ORDER BY line LIMIT 1"
            ).fetchone()
            if clash is not None:
                raise RegradeRefused(
                    f"document {clash[1]} for query {clash[0]} is already graded {clash[3]} in "
                    f"{_where(target)}, the file says {clash[2]}",
                    path=path,
                    line=clash[4],
                )
            fill = "present AND old IS NULL AND grade IS NOT NULL"  # an ungraded item the file grades
            added, graded_existing, present, ungraded = conn.execute(
                f"SELECT count(*) - sum(present), coalesce(sum({fill}), 0), coalesce(sum(present), 0), "
                "coalesce(sum(NOT present AND grade IS NULL), 0) FROM importing"
            ).fetchone()
            conn.execute(
                "INSERT INTO judgments (version, query_id, doc_id, grade, annotator, updated_at, iteration) "
                "SELECT ?, query_id, doc_id, grade, CASE WHEN grade IS NULL THEN NULL ELSE ? END, ?, iteration "
                "FROM importing WHERE NOT present ORDER BY query_id, doc_id",  # key order: B-tree appends
                (number, source, stamp),
            )
            conn.execute(
                "UPDATE judgments SET grade = i.grade, annotator = ?, updated_at = ?, iteration = i.iteration "
                "FROM importing i "
                "WHERE judgments.version = ? AND judgments.query_id = i.query_id AND judgments.doc_id = i.doc_id "
                "AND i.present AND i.old IS NULL AND i.grade IS NOT NULL",
                (source, stamp, number),
            )
            for rows in ("NOT present", fill):  # the added, then the graded, each in file order
                conn.execute(
                    "INSERT INTO audit_log (version, query_id, doc_id, action, new_grade, who, at) "
                    f"SELECT ?, query_id, doc_id, 'import', grade, ?, ? FROM importing WHERE {rows} ORDER BY rowid",
                    (number, annotator, stamp),  # who ran the import
                )
                conn.execute(  # the file's grades are also its ratings, credited like the grades
                    "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
                    f"SELECT ?, query_id, doc_id, ?, grade, '', ? FROM importing WHERE ({rows}) AND grade IS NOT NULL "
                    # key order: B-tree appends (in file order, each rating went to a random page of the table and
                    # its index: 766k ratings 5-6 s of CPU instead of 3.4-3.9, and several times the wall time)
                    "ORDER BY query_id, doc_id ON CONFLICT DO NOTHING",
                    (number, source, stamp),
                )
            conn.execute("DELETE FROM importing")
        return {
            "lines": int(len(c.q) + qrels.repeats),
            "added": int(added),
            "graded_existing": int(graded_existing),
            "unchanged": int(present - graded_existing),
            "ungraded": int(ungraded),  # of the added: a -1 for a graded item leaves it as it is
            "identical_repeats": int(qrels.repeats),
            "comment_lines": int(qrels.comments),  # skipped (trec_eval 10.0: a TREC line starting with '#')
        }

    def graded_count(self, version: int) -> tuple[int, int]:
        """How many items version ``version`` holds, and how many of them are graded."""
        items, graded = self.file.query("SELECT count(*), count(grade) FROM judgments WHERE version = ?", (version,))[0]
        return int(items), int(graded)

    def item_counts(self, version: int) -> tuple[int, int, int]:
        """Version ``version``'s items, graded items and queries."""
        row = self.file.query(
            "SELECT count(*), count(grade), count(DISTINCT query_id) FROM judgments WHERE version = ?", (version,)
        )[0]
        return int(row[0]), int(row[1]), int(row[2])

    def models_of_ungraded(self, version: int) -> list[str]:
        """The models that rated some ungraded item of ``version``, in name order."""
        return [
            str(row[0])
            for row in self.file.query(
                "SELECT DISTINCT r.annotator FROM judgments j JOIN ratings r ON (r.version, r.query_id, "
                "r.doc_id) = (j.version, j.query_id, j.doc_id) WHERE j.version = ? AND j.grade IS NULL AND NOT "
                + person_rating("r")
                + " ORDER BY r.annotator",
                (version,),
            )
        ]

    def rated_by(self, version: int, annotator: str) -> int:
        """How many ratings ``annotator`` gave in ``version``."""
        return int(
            self.file.query("SELECT count(*) FROM ratings WHERE version = ? AND annotator = ?", (version, annotator))[
                0
            ][0]
        )

    def compared_with_people(self, v: PoolVersion, model: str) -> int:
        """On how many items of ``v`` ``model``'s ratings can be compared with people's grades (store.team)."""
        return int(model_agreement(self.file.conn, v.version, v.scale, model)["items"])

    def fillable(self, version: int, model: str) -> int:
        """How many items freezing ``version`` would fill from ``model``'s ratings."""
        return int(self.file.query(_FILLABLE.format(what="count(*)"), (model, version))[0][0])

    @writes
    def record_freeze(
        self,
        v: PoolVersion,
        *,
        fill_from: str | None = None,
        remove_ungraded: bool = False,
        annotator: str,
        work_out: list[tuple[str, str, int, int]] | None = None,
    ) -> PoolVersion:
        """Freeze draft ``v`` into an immutable, hashed version, as the caller decided (tasks.freezing): first fill
        the items no person rated from ``fill_from``'s ratings (the way each was settled recorded as that name),
        then remove the ungraded items, all in one transaction. ``work_out``: the hand-outs still out, named in an
        audit row of the version (``freeze with work out: ...``)."""
        with self.file.transaction() as conn:  # filling, removing the ungraded items and freezing: one transaction
            if fill_from is not None:
                self._fill(conn, v.version, fill_from, annotator=annotator)
            if remove_ungraded:
                self._remove_ungraded(conn, v.version, annotator=annotator)
            self.pools.mark_frozen(conn, v.version, v.scale, annotator=annotator)
            if work_out:  # frozen anyway: the choice is on record, naming every hand-out left out
                what = f"freeze with work out: {outstanding_text(work_out)}"[:1000]
                audit(conn, [change(v.version, "", "", what)], annotator=annotator, at=now())
        return self.pools.version(v.version)

    def _fill(self, conn: sqlite3.Connection, version: int, model: str, *, annotator: str) -> None:
        """Inside the caller's transaction: each item no person rated takes ``model``'s rating as its grade, the
        way it was settled recorded as ``model``; audited."""
        stamp = now()
        conn.execute(
            "UPDATE judgments SET grade = r.grade, annotator = r.annotator, adjudication = r.annotator, updated_at = ? "
            "FROM (" + _FILLABLE.format(what="j.query_id, j.doc_id, r.grade, r.annotator") + ") r "
            "WHERE judgments.version = ? AND judgments.query_id = r.query_id AND judgments.doc_id = r.doc_id",
            (stamp, model, version, version),
        )
        conn.execute(
            "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, who, at) "
            "SELECT version, query_id, doc_id, ?, NULL, grade, ?, ? FROM judgments WHERE version = ? "
            "AND adjudication = ? AND updated_at = ? ORDER BY query_id, doc_id",
            (f"fill ({model})", annotator, stamp, version, model, stamp),
        )


def _where(target: DraftTarget) -> str:
    if target.version is not None:
        return f"draft version {target.version}"
    return f"pool version {target.parent} (which the new draft copies)"


_names = itertools.count()


@contextmanager
def _staged(conn: sqlite3.Connection, pairs: pd.DataFrame, version: int) -> Iterator[str]:
    """A temporary table of the distinct (query_id, doc_id) pairs in the order given, each marked ``new`` when
    version ``version`` lacks it; dropped afterwards. Yields its name (each call its own: threads share the
    connection).

    The pairs go in by ``executemany`` in ``_BATCH``-row steps (other threads get the GIL between them) and SQLite
    decides which are new through the pool's primary key, without the GIL. A pandas anti-join against the
    version's items read into memory held the GIL for about 0.2 s a call at a million items, and the items' read
    longer: the window froze while the build-pool preview or a send ran on a worker.
    """
    name = f"temp.staged_{next(_names)}"
    conn.execute(
        f"CREATE TABLE {name} (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, new INTEGER, UNIQUE (query_id, doc_id))"
    )
    try:
        queries, docs = pairs["query_id"].astype(str), pairs["doc_id"].astype(str)
        for start in range(0, len(pairs), _BATCH):
            rows = zip(
                queries.iloc[start : start + _BATCH].tolist(), docs.iloc[start : start + _BATCH].tolist(), strict=True
            )
            conn.executemany(f"INSERT OR IGNORE INTO {name} (query_id, doc_id) VALUES (?, ?)", rows)  # first seen
        conn.execute(
            f"UPDATE {name} SET new = NOT EXISTS (SELECT 1 FROM judgments j "
            f"WHERE j.version = ? AND j.query_id = {name}.query_id AND j.doc_id = {name}.doc_id)",
            (version,),
        )
        yield name
    finally:
        conn.execute(f"DROP TABLE IF EXISTS {name}")


def _counts(conn: sqlite3.Connection, staged: str) -> pd.DataFrame:
    """Per query (in order of ID): the distinct candidates staged and how many of them are new."""
    rows = conn.execute(
        f"SELECT query_id, count(*), sum(new) FROM {staged} GROUP BY query_id ORDER BY query_id"
    ).fetchall()
    return pd.DataFrame(
        {
            "query_id": pd.Series([r[0] for r in rows], dtype="str"),  # pandas' string dtype, as a groupby gave
            "candidates": pd.Series([r[1] for r in rows], dtype="int64"),
            "new": pd.Series([r[2] for r in rows], dtype="int64"),
        }
    )

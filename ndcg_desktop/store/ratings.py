"""Ratings per annotator (issue 15): every annotator's grade of a pool item, and the settling of the pool's grade.

A pool item (``judgments``) carries the version's grade, the adjudicated one; ``ratings`` keeps each annotator's
own grade, note and time. When an item's ratings change, its grade is settled again: one rating, or ratings that
all agree, give the grade; ratings that differ leave it ungraded until someone adjudicates (a pick, or a rule).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.pools import DraftTarget, PoolRepository, PoolVersion
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.schema import HANDOUT_FORMAT, RATINGS_FORMAT, person_rating, unsettled_items
from ndcg_desktop.store.team import adjudication_counts, annotator_digests, outstanding_handouts, ratings_digest
from ndcg_desktop.store.undo import Left, Taken, capture, items_scope

RATING_COLUMNS = ["query_id", "doc_id", "annotator", "grade", "note", "rated_at"]
_BATCH = 50_000

HANDOUT_SECRET = "handout_secret"  # meta key: the key of the handouts' digests, never written into a work file

# How an item's grade was settled when its ratings differ (judgments.adjudication). NULL: nothing to settle.
PICK = "pick"


class AnnotatorTaken(InputError):
    """The annotator already has ratings in the draft, and replacing them was not asked for."""


def ratings_hash(triples: pd.DataFrame, scale: GradeScale, annotator: str) -> str:
    """SHA-256 over one annotator's (query, doc, grade) ratings, sorted, with the scale and the name.

    Built like the pool hash (one line per rating), under its own header so the two never coincide.
    """
    ordered = triples.sort_values(["query_id", "doc_id"], kind="stable")
    # Python ints from tolist(): int() on each numpy scalar took most of the time of a large version's hash
    grades = ordered["grade"].astype("int64").tolist()
    rows = zip(ordered["query_id"].tolist(), ordered["doc_id"].tolist(), grades, strict=True)
    return ratings_digest("".join([f"{q}\t{d}\t{g}\n" for q, d, g in rows]).encode(), scale, annotator)


class RatingRepository(Repository):
    """The ratings of each pool version, merging new ones, and adjudicating differing items; and what was handed
    out on a draft: which queries each annotator's work file holds, and (format 8) each work file's handout
    (annotator, scope hash, keyed digest) with its items."""

    def __init__(self, file: ProjectFile, pools: PoolRepository) -> None:
        self.file = file
        self.pools = pools

    @property
    def available(self) -> bool:
        """False for an older file opened read-only (not migrated): it has no ratings, only grades."""
        return self.file.schema_version >= RATINGS_FORMAT

    def verified(self, version: int) -> pd.DataFrame:
        """:meth:`rows`, a frozen version's proven first (rules 15 and 16): what a reader of the ratings is given."""
        for v in self.pools.versions():
            if v.version == version:
                self.pools.verified(v)
        return self.rows(version)

    def rows(self, version: int) -> pd.DataFrame:
        """Every rating of a version: query_id, doc_id, annotator, grade, note, rated_at (sorted by the three IDs)."""
        if not self.available:
            return pd.DataFrame({c: pd.Series(dtype="int64" if c == "grade" else object) for c in RATING_COLUMNS})
        return self.file.graded_frame(
            "SELECT query_id, doc_id, annotator, grade, note, rated_at FROM ratings WHERE version = ? "
            "ORDER BY query_id, doc_id, annotator",
            [version],
            f"the ratings of pool version {version}",
            grade="int64",
        )

    def annotators(self) -> list[str]:
        """Every name credited with a rating, a grade or a handout in any version, sorted: whom the project knows."""
        if not self.available:
            return []
        rows = self.file.query(
            "SELECT annotator FROM ratings UNION SELECT annotator FROM judgments WHERE annotator IS NOT NULL "
            "UNION SELECT annotator FROM assignments ORDER BY 1"
        )
        return [str(row[0]) for row in rows]

    def raters(self) -> list[str]:
        """Every name that rated an item or was handed one, sorted: the people and models themselves, never a
        judgment's combined credit (``ana+ben``, written when a rule settles agreeing ratings)."""
        if not self.available:
            return []
        rows = self.file.query("SELECT annotator FROM ratings UNION SELECT annotator FROM assignments ORDER BY 1")
        return [str(row[0]) for row in rows]

    def annotator_hashes(self, v: PoolVersion) -> dict[str, dict[str, Any]]:
        """Per annotator of version ``v``: how many ratings, and the SHA-256 of them (:func:`ratings_hash`, written
        by SQLite: no Python object per rating)."""
        return annotator_digests(self.file.conn, v.version, v.scale)

    def unsettled(self, version: int, *, per_item: bool = False) -> int:
        """How many items of a version have differing ratings and no adjudicated grade yet (``per_item``: looked
        up item by item, for a version with few ungraded items; :func:`~.schema.unsettled_items`)."""
        if not self.available:
            return 0
        sql = f"SELECT count(*) FROM ({unsettled_items(per_item=True)})" if per_item else _UNSETTLED_COUNT
        return int(self.file.conn.execute(sql, {"v": version}).fetchone()[0])

    @writes
    def add_ratings(self, incoming: pd.DataFrame, *, version: int, source: str, annotator: str) -> dict[str, int]:
        """Add or update ratings in a draft, in one transaction; items whose grades changed are settled again.

        ``incoming`` has the columns of :data:`RATING_COLUMNS` (one row per item and annotator); every item must
        be in the draft. A rating equal to the stored one (grade and note) changes nothing, so adding the same
        ratings twice is a no-op. The settling is audited as ``annotator``'s. Returns counts: ``new``, ``changed``,
        ``unchanged``, ``settled``, ``unsettled``.
        """
        return self.merge_ratings(incoming, version=version, source=source, annotator=annotator)[0]

    @writes
    def merge_ratings(
        self, incoming: pd.DataFrame, *, version: int, source: str, annotator: str, newest_wins: bool = False
    ) -> tuple[dict[str, int], Taken, list[tuple[str, str, str, str, str]]]:
        """:meth:`add_ratings`, also returning what it took (the items' rows and ratings before), for an undo.

        ``newest_wins`` (a work file's grades, each with its time): a rating older than the stored one of the same
        item and annotator is left out, never applied (an older copy of a work file replayed); of two at the same
        time, the higher (grade, note) stays, so that any order of merges leaves the same ratings. They are counted
        as ``older`` and listed third: (query_id, doc_id, annotator, its time, the stored time)."""
        v = self.pools.writable_draft(version)
        rows = incoming[RATING_COLUMNS]
        keys = list(dict.fromkeys(zip(rows["query_id"].astype(str), rows["doc_id"].astype(str), strict=True)))
        with self.file.transaction() as conn:
            scope = items_scope(v.version, keys)
            before = capture(conn, scope)
            older: list[tuple[str, str, str, str, str]] = []
            counts = self._write(
                conn,
                v.version,
                rows,
                source,
                now(),
                annotator=annotator,
                replacing=None,
                older=older if newest_wins else None,
            )
            taken = Taken(scope, before, Left.of(capture(conn, scope)))
        return counts, taken, older

    @writes
    def import_ratings(
        self,
        items: pd.DataFrame,
        incoming: pd.DataFrame,
        *,
        target: DraftTarget,
        annotator: str,
        imported_by: str,
        source: str,
        replace: bool = False,
    ) -> dict[str, int]:
        """One file's grades as ``annotator``'s ratings, imported by ``imported_by`` (audited as theirs), in one
        transaction (``import-qrels --annotator``).

        The draft ``target`` is made if it does not exist yet (:meth:`PoolRepository.open_draft`); ``items``
        (query_id, doc_id, line) not in it join it ungraded, audited as imported; ``incoming`` (the columns of
        :data:`RATING_COLUMNS`) become the annotator's ratings, and their items are settled as after a merge.
        An annotator who already has ratings in the draft is refused (:class:`AnnotatorTaken`) unless
        ``replace``: then their ratings become exactly the file's, the ones it lacks removed. Returns the counts
        of :meth:`add_ratings` plus ``draft``, ``items_added`` and ``removed``.
        """
        stamp = now()
        with self.file.transaction() as conn:
            number = self.pools.open_draft(conn, target, annotator=imported_by)
            held = int(
                conn.execute(
                    "SELECT count(*) FROM ratings WHERE version = ? AND annotator = ?", (number, annotator)
                ).fetchone()[0]
            )
            if held and not replace:
                where = f"draft version {number}" if target.version is not None else "the draft it would start"
                raise AnnotatorTaken(
                    f"{annotator} already has {held} rating{'s' if held != 1 else ''} in {where}; import this file "
                    f"under another name, or replace {annotator}'s ratings with it",
                    path=self.file.path,
                )
            added = _join_items(conn, number, items, imported_by, stamp)
            counts = self._write(
                conn, number, incoming[RATING_COLUMNS], source, stamp, annotator=imported_by, replacing=annotator
            )
        return {"draft": number, "items_added": added, **counts}

    def identical_to(self, version: int, annotator: str) -> list[tuple[str, int]]:
        """The other annotators of ``version`` who gave ``annotator``'s grade on every item both rated (one or
        more), each with how many items that is, in name order."""
        rows = self.file.query(
            "SELECT o.annotator, count(*), sum(o.grade = m.grade) FROM ratings m JOIN ratings o ON o.version = "
            "m.version AND o.query_id = m.query_id AND o.doc_id = m.doc_id AND o.annotator != m.annotator "
            "WHERE m.version = ? AND m.annotator = ? GROUP BY o.annotator ORDER BY o.annotator",
            (version, annotator),
        )
        return [(str(other), int(items)) for other, items, same in rows if items == same]

    def _write(
        self,
        conn: Any,
        version: int,
        rows: pd.DataFrame,
        source: str,
        stamp: str,
        *,
        annotator: str,
        replacing: str | None,
        older: list[tuple[str, str, str, str, str]] | None = None,
    ) -> dict[str, int]:
        """Inside the caller's transaction: add or update ``rows`` as ratings of ``version`` and settle their items.

        ``replacing`` names an annotator whose ratings not among ``rows`` are removed (their items settled too);
        the counts then say how many (``removed``).
        """
        _stage(
            conn,
            "incoming_ratings (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, annotator TEXT NOT NULL, grade INTEGER "
            "NOT NULL, note TEXT NOT NULL, rated_at TEXT NOT NULL, PRIMARY KEY (query_id, doc_id, annotator))",
            "INSERT INTO incoming_ratings VALUES (?, ?, ?, ?, ?, ?)",
            rows,
            {"query_id": str, "doc_id": str, "annotator": str, "grade": "int64", "note": str, "rated_at": str},
        )
        missing = conn.execute(
            "SELECT i.query_id, i.doc_id FROM incoming_ratings i LEFT JOIN judgments j ON j.version = ? "
            "AND j.query_id = i.query_id AND j.doc_id = i.doc_id WHERE j.query_id IS NULL LIMIT 1",
            (version,),
        ).fetchone()
        if missing is not None:
            raise InputError(
                f"{source}: document {missing[1]} for query {missing[0]} is not in the pool of draft version {version}",
                path=self.file.path,
            )
        if older is not None:  # (time, grade, note) ordered as row values: a total order, so merges commute
            stale = (
                "FROM incoming_ratings i JOIN ratings r ON r.version = ? AND r.query_id = i.query_id AND r.doc_id = "
                "i.doc_id AND r.annotator = i.annotator WHERE (i.rated_at, i.grade, i.note) < (r.rated_at, r.grade, "
                "r.note) AND NOT (i.grade = r.grade AND i.note = r.note)"
            )
            older += [
                (str(q), str(d), str(a), str(t), str(st))
                for q, d, a, t, st in conn.execute(
                    f"SELECT i.query_id, i.doc_id, i.annotator, i.rated_at, r.rated_at {stale} "
                    "ORDER BY i.query_id, i.doc_id, i.annotator",
                    (version,),
                )
            ]
            conn.execute(
                "DELETE FROM incoming_ratings WHERE (query_id, doc_id, annotator) IN "
                f"(SELECT i.query_id, i.doc_id, i.annotator {stale})",
                (version,),
            )
        # Only what differs from the stored rating is written: the same ratings twice change nothing.
        conn.execute("DROP TABLE IF EXISTS temp.changed_ratings")
        conn.execute(
            "CREATE TEMP TABLE changed_ratings AS SELECT i.*, r.grade AS old_grade, r.note AS old_note "
            "FROM incoming_ratings i LEFT JOIN ratings r ON r.version = ? AND r.query_id = i.query_id "
            "AND r.doc_id = i.doc_id AND r.annotator = i.annotator "
            "WHERE r.grade IS NULL OR r.grade != i.grade OR r.note != i.note",
            (version,),
        )
        counts = conn.execute(
            "SELECT count(*), count(old_grade), (SELECT count(*) FROM incoming_ratings) FROM changed_ratings"
        ).fetchone()
        removed = 0
        if replacing is not None:  # the annotator's ratings the incoming ones lack: taken out (grade NULL here)
            removed = conn.execute(
                "INSERT INTO changed_ratings SELECT r.query_id, r.doc_id, r.annotator, NULL, '', ?, r.grade, r.note "
                "FROM ratings r WHERE r.version = ? AND r.annotator = ? AND NOT EXISTS (SELECT 1 FROM incoming_ratings "
                "i WHERE i.query_id = r.query_id AND i.doc_id = r.doc_id AND i.annotator = r.annotator)",
                (stamp, version, replacing),
            ).rowcount
            conn.execute(
                "DELETE FROM ratings WHERE version = ? AND annotator = ? AND (query_id, doc_id) IN "
                "(SELECT query_id, doc_id FROM changed_ratings WHERE grade IS NULL)",
                (version, replacing),
            )
        conn.execute(
            "INSERT INTO ratings (version, query_id, doc_id, annotator, grade, note, rated_at) "
            "SELECT ?, query_id, doc_id, annotator, grade, note, rated_at FROM changed_ratings "
            "WHERE grade IS NOT NULL ORDER BY query_id, doc_id, annotator "
            "ON CONFLICT (version, query_id, doc_id, annotator) DO UPDATE SET "
            "grade = excluded.grade, note = excluded.note, rated_at = excluded.rated_at",
            (version,),
        )
        conn.execute(
            "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, old_note, new_note, "
            "who, at) SELECT ?, query_id, doc_id, ?, old_grade, grade, old_note, note, annotator, ? "
            "FROM changed_ratings ORDER BY query_id, doc_id, annotator",
            (version, f"rating ({source})"[:200], stamp),
        )
        settled = self._settle(conn, version, stamp, annotator=annotator)
        unsettled = int(conn.execute(_UNSETTLED_COUNT, {"v": version}).fetchone()[0])
        conn.execute("DELETE FROM incoming_ratings")
        conn.execute("DROP TABLE temp.changed_ratings")
        new, changed, total = int(counts[0]) - int(counts[1]), int(counts[1]), int(counts[2])
        counted = {"new": new, "changed": changed, "unchanged": total - new - changed, "settled": settled}
        if older is not None:
            counted["older"] = len(older)
        return counted | ({"removed": int(removed)} if replacing is not None else {}) | {"unsettled": unsettled}

    def _settle(self, conn: Any, version: int, stamp: str, *, annotator: str) -> int:
        """Settle again the items whose ratings changed (temp.changed_ratings): agreement gives the grade,
        a difference clears it for adjudication. Audited; returns how many items' grades changed."""
        conn.execute("DROP TABLE IF EXISTS temp.settling")
        conn.execute(
            "CREATE TEMP TABLE settling AS "
            "SELECT r.query_id, r.doc_id, CASE WHEN min(r.grade) = max(r.grade) THEN min(r.grade) END AS grade, "
            "group_concat(r.annotator, '+') AS annotator, j.grade AS old_grade "
            "FROM (SELECT DISTINCT query_id, doc_id FROM changed_ratings WHERE old_grade IS NOT grade) c "
            # by the primary key, so each item's ratings come in annotator order (a sorted subquery here
            # would be scanned once per item: minutes for 100,000 ratings)
            "JOIN ratings r ON r.version = ? AND r.query_id = c.query_id AND r.doc_id = c.doc_id AND "
            + person_rating("r")
            + " "
            "JOIN judgments j ON j.version = ? AND j.query_id = c.query_id AND j.doc_id = c.doc_id "
            "GROUP BY r.query_id, r.doc_id",
            (version, version),
        )
        conn.execute(  # an item whose last rating was replaced away (grade NULL here) is ungraded again
            "INSERT INTO settling SELECT c.query_id, c.doc_id, NULL, NULL, j.grade "
            "FROM (SELECT DISTINCT query_id, doc_id FROM changed_ratings WHERE grade IS NULL) c "
            "JOIN judgments j ON j.version = ? AND j.query_id = c.query_id AND j.doc_id = c.doc_id "
            "WHERE NOT EXISTS (SELECT 1 FROM ratings r WHERE r.version = j.version AND r.query_id = c.query_id "
            "AND r.doc_id = c.doc_id AND " + person_rating("r") + ")",
            (version,),
        )
        conn.execute(
            "UPDATE judgments SET grade = s.grade, annotator = CASE WHEN s.grade IS NULL THEN NULL ELSE s.annotator "
            "END, adjudication = NULL, updated_at = ? FROM settling s "
            "WHERE judgments.version = ? AND judgments.query_id = s.query_id AND judgments.doc_id = s.doc_id",
            (stamp, version),
        )
        changed = conn.execute(
            "INSERT INTO audit_log (version, query_id, doc_id, action, old_grade, new_grade, who, at) "
            "SELECT ?, query_id, doc_id, 'settle', old_grade, grade, ?, ? FROM settling "
            "WHERE old_grade IS NOT grade ORDER BY query_id, doc_id",
            (version, annotator, stamp),
        ).rowcount
        conn.execute("DROP TABLE temp.settling")
        return int(changed)

    @writes
    def adjudicate(self, decisions: pd.DataFrame, *, version: int, how: str | None, annotator: str) -> Taken:
        """Give items (query_id, doc_id, grade) their adjudicated grade, recording ``how`` (pick or a rule).

        The adjudicator (``annotator``) is recorded as the grade's author; audited. A missing grade with
        ``how`` None takes a decision back (the item waits for adjudication again). Returns what it took (the
        items as they were), for an undo.
        """
        v = self.pools.writable_draft(version)
        grades = decisions["grade"].astype("Int64")
        outside = grades[(grades < v.scale.low) | (grades > v.scale.high)].dropna()
        if len(outside):
            raise InputError(f"grade {int(outside.iloc[0])} is outside the scale {v.scale}")
        stamp = now()
        rows = [
            (None if pd.isna(g) else int(g), None if pd.isna(g) else annotator, how, stamp, v.version, q, d)
            for q, d, g in zip(decisions["query_id"].astype(str), decisions["doc_id"].astype(str), grades, strict=True)
        ]
        with self.file.transaction() as conn:
            old = {
                (q, d): g
                for q, d, g in conn.execute(
                    "SELECT query_id, doc_id, grade FROM judgments WHERE version = ?", (v.version,)
                ).fetchall()
            }
            absent = [(q, d) for *_, q, d in rows if (q, d) not in old]
            if absent:
                raise InputError(f"document {absent[0][1]} is not in the pool of query {absent[0][0]}")
            scope = items_scope(v.version, [(q, d) for *_, q, d in rows])
            before = capture(conn, scope)
            conn.executemany(
                "UPDATE judgments SET grade = ?, annotator = ?, adjudication = ?, updated_at = ? "
                "WHERE version = ? AND query_id = ? AND doc_id = ?",
                rows,
            )
            action = f"adjudicate ({how})"
            changes = (change(v.version, q, d, action, old_grade=old[(q, d)], new_grade=g) for g, *_, q, d in rows)
            audit(conn, changes, annotator=annotator, at=stamp)
            return Taken(scope, before, Left.of(capture(conn, scope)))

    def settled_items(self, version: int, query_id: str | None = None, doc_id: str | None = None) -> pd.DataFrame:
        """query_id, doc_id, how of the items of a version whose differing ratings were settled."""
        if not self.available:
            return pd.DataFrame({"query_id": [], "doc_id": [], "how": []}, dtype=object)
        sql = (
            "SELECT query_id, doc_id, adjudication AS how FROM judgments WHERE version = ? AND adjudication IS NOT NULL"
        )
        params: list[Any] = [version]
        if query_id is not None and doc_id is not None:
            sql += " AND query_id = ? AND doc_id = ?"
            params += [query_id, doc_id]
        return pd.read_sql_query(sql + " ORDER BY query_id, doc_id", self.file.conn, params=params)

    def awaiting(self, version: int, query_id: str) -> set[str]:
        """The documents of ``query_id`` in ``version`` that wait for adjudication: rated differently, not graded."""
        if not self.available:
            return set()
        rows = self.file.conn.execute(
            f"SELECT doc_id FROM ({unsettled_items(one_query=True)})", {"v": version, "q": query_id}
        )
        return {str(doc_id) for (doc_id,) in rows}

    def adjudications(self, version: int) -> dict[str, int]:
        """How the differing items of a version were settled: count per way (pick, median, ...)."""
        return adjudication_counts(self.file.conn, version)

    def assignments(self, version: int) -> pd.DataFrame:
        """annotator, query_id, work_id of every assignment on ``version``."""
        return pd.read_sql_query(
            "SELECT annotator, query_id, work_id FROM assignments WHERE version = ? ORDER BY annotator, query_id",
            self.file.conn,
            params=[version],
        )

    def secret(self) -> str | None:
        """The key of this project's handout digests (None until the first handout)."""
        rows = self.file.query("SELECT value FROM meta WHERE key = ?", (HANDOUT_SECRET,))
        return str(rows[0][0]) if rows else None

    def handout(self, work_id: str) -> dict[str, Any] | None:
        """The recorded handout of a work file (work_id, version, annotator, scope_sha256, digest, assigned_at)."""
        if self.file.schema_version < HANDOUT_FORMAT:
            return None
        rows = self.file.query(
            "SELECT work_id, version, annotator, scope_sha256, digest, assigned_at FROM handouts WHERE work_id = ?",
            (work_id,),
        )
        names = ("work_id", "version", "annotator", "scope_sha256", "digest", "assigned_at")
        return dict(zip(names, rows[0], strict=True)) if rows else None

    def outstanding_handouts(self, version: int) -> list[tuple[str, str, int, int]]:
        """The work files of a draft still out: (annotator, work_id, items, unrated) (store.team)."""
        return outstanding_handouts(self.file.conn, version)

    def handout_items(self, work_id: str) -> pd.DataFrame:
        """query_id, doc_id of the items a work file was handed out with, sorted."""
        return pd.read_sql_query(
            "SELECT query_id, doc_id FROM handout_items WHERE work_id = ? ORDER BY query_id, doc_id",
            self.file.conn,
            params=[work_id],
        )

    @writes
    def record_handouts(
        self,
        version: int,
        rows: pd.DataFrame,
        project_id: str,
        *,
        handouts: pd.DataFrame,
        items: pd.DataFrame,
        secret: str,
    ) -> None:
        """Record (annotator, query_id, work_id) rows on a draft, each work file's handout (work_id, annotator,
        scope_sha256, digest, assigned_at) and items (work_id, query_id, doc_id), the project's identity and the
        digests' key, in one transaction."""
        with self.file.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('project_id', ?)", (project_id,))
            conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (HANDOUT_SECRET, secret))
            conn.executemany(
                "INSERT INTO assignments (version, annotator, query_id, work_id) VALUES (?, ?, ?, ?)",
                [(version, a, q, w) for a, q, w in rows[["annotator", "query_id", "work_id"]].itertuples(index=False)],
            )
            columns = ["work_id", "annotator", "scope_sha256", "digest", "assigned_at"]
            conn.executemany(
                "INSERT INTO handouts (work_id, version, annotator, scope_sha256, digest, assigned_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [(w, version, a, s, d, t) for w, a, s, d, t in handouts[columns].itertuples(index=False)],
            )
            conn.executemany(
                "INSERT INTO handout_items (work_id, query_id, doc_id) VALUES (?, ?, ?)",
                items[["work_id", "query_id", "doc_id"]].itertuples(index=False),
            )


def _join_items(conn: Any, version: int, items: pd.DataFrame, annotator: str, stamp: str) -> int:
    """Inside the caller's transaction: add the (query_id, doc_id) ``items`` a draft lacks, ungraded, audited as
    imported in the order of their ``line``. Returns how many joined."""
    _stage(
        conn,
        "joining (query_id TEXT NOT NULL, doc_id TEXT NOT NULL, line INTEGER NOT NULL, new INTEGER, "
        "PRIMARY KEY (query_id, doc_id))",
        "INSERT OR IGNORE INTO joining (query_id, doc_id, line) VALUES (?, ?, ?)",
        items,
        {"query_id": str, "doc_id": str, "line": "int64"},
    )
    conn.execute(
        "UPDATE joining SET new = NOT EXISTS (SELECT 1 FROM judgments j WHERE j.version = ? "
        "AND j.query_id = joining.query_id AND j.doc_id = joining.doc_id)",
        (version,),
    )
    added = conn.execute(
        "INSERT INTO judgments (version, query_id, doc_id, grade) SELECT ?, query_id, doc_id, NULL FROM joining "
        "WHERE new ORDER BY query_id, doc_id",  # key order: B-tree appends
        (version,),
    ).rowcount
    conn.execute(
        "INSERT INTO audit_log (version, query_id, doc_id, action, who, at) "
        "SELECT ?, query_id, doc_id, 'import', ?, ? FROM joining WHERE new ORDER BY line",
        (version, annotator, stamp),
    )
    conn.execute("DELETE FROM joining")
    return int(added)


_UNSETTLED_COUNT = f"SELECT count(*) FROM ({unsettled_items()})"


def _stage(conn: Any, table: str, insert: str, frame: pd.DataFrame, columns: dict[str, Any]) -> None:
    """Inside the caller's transaction: the TEMP table ``table`` (its definition) emptied and filled with ``frame``'s
    ``columns`` (name -> type), a batch of rows at a time (one Python tuple per row only for a batch)."""
    conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS {table}")
    conn.execute(f"DELETE FROM {table.split(' ', 1)[0]}")
    for start in range(0, len(frame), _BATCH):
        part = frame.iloc[start : start + _BATCH]
        conn.executemany(
            insert, zip(*(part[name].astype(kind).tolist() for name, kind in columns.items()), strict=True)
        )

"""Taking rows and putting back exactly those rows: the one mechanism behind every destructive operation's undo.

An operation names its scope: a whole pool version, or some of a draft's items. The rows in scope are found
in every table that refers to it through a foreign key, discovered from the schema (``sqlite_master`` and
``PRAGMA foreign_key_list``), so a table added later is covered without anyone listing it. They are captured
before the operation (:func:`capture`, the same query the confirmation counts from), and undo deletes what the
scope holds now and inserts the captured rows again, after checking that nothing in scope changed since the
operation. SQLite's session extension records changesets this way; Python's ``sqlite3`` does not expose it.

A language model's answers (its runs, attempts and ``model:<name>`` ratings, contract rule 18) are no person's
change: those ADDED to the scope since the operation neither block its undo nor are lost by it, since a model may
judge the draft at any time. A model's row that was there after the operation must still be there unchanged.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import is_model
from ndcg_desktop.store.audit import audit, change
from ndcg_desktop.store.core import ProjectFile
from ndcg_desktop.store.repository import Repository, writes
from ndcg_desktop.store.sql import NOT_SQLITES
from ndcg_desktop.store.sql import identifier as _q

ITEM_KEY = ("version", "query_id", "doc_id")  # a pool item: judgments' primary key
MODEL_TABLES = frozenset({"assessor_runs", "assessor_attempts"})  # a model's runs and answers, every row
MODEL_RATINGS = ("ratings", "annotator")  # and its ratings: the rows whose annotator is model:<name>


@dataclass(frozen=True)
class Scope:
    """The rows of ``table`` whose ``columns`` take one of ``keys``, and every row that refers to them."""

    table: str
    columns: tuple[str, ...]
    keys: tuple[tuple[Any, ...], ...]


def version_scope(version: int) -> Scope:
    """A whole pool version: its row, its items, their ratings, its assignments, anything that refers to it."""
    return Scope("pool_versions", ("version",), ((version,),))


def items_scope(version: int, pairs: Sequence[tuple[str, str]]) -> Scope:
    """Some items of a version (query_id, doc_id), with everything that refers to them (their ratings)."""
    return Scope("judgments", ITEM_KEY, tuple((version, q, d) for q, d in dict.fromkeys(pairs)))


@dataclass(frozen=True)
class Table:
    """One table's rows in a scope: its column names (``_rowid_`` first for a table with a hidden rowid)."""

    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]

    def values(self, column: str) -> list[Any]:
        at = self.columns.index(column)
        return [row[at] for row in self.rows]


@dataclass(frozen=True)
class Rows:
    """The rows of a scope in every table, parents before children (the order they are inserted in)."""

    tables: dict[str, Table] = field(default_factory=dict)

    def count(self, table: str) -> int:
        return len(self.tables[table].rows) if table in self.tables else 0

    def values(self, table: str, column: str) -> list[Any]:
        return self.tables[table].values(column) if table in self.tables else []

    @functools.cached_property
    def digest_text(self) -> str:
        """SHA-256 over every captured value; ``repr`` tells the types apart (1, 1.0, '1' and b'1' differ)."""
        h = hashlib.sha256(b"ndcg-rows-v1\n")
        for name, table in self.tables.items():
            h.update(repr((name, table.columns, len(table.rows))).encode())
            h.update(repr(table.rows).encode())  # one call: a call per row took seconds for 400,000 rows
        return h.hexdigest()

    def digest(self) -> str:
        return self.digest_text


def _by_model(rows: Rows) -> tuple[Rows, Rows]:
    """``rows`` split into the rows no model wrote and a model's rows (:data:`MODEL_TABLES`, its ratings)."""
    people, models = Rows(), Rows()
    for name, table in rows.tables.items():
        if name in MODEL_TABLES:
            models.tables[name] = table
        elif name == MODEL_RATINGS[0]:
            at = table.columns.index(MODEL_RATINGS[1])
            mine = [row for row in table.rows if is_model(row[at])]
            if mine:
                models.tables[name] = Table(table.columns, mine)
            theirs = [row for row in table.rows if not is_model(row[at])]
            if theirs:  # as _capture leaves out a table with no rows in scope
                people.tables[name] = Table(table.columns, theirs)
        else:
            people.tables[name] = table
    return people, models


@dataclass(frozen=True)
class Left:
    """What an operation left in its scope: a digest of the rows no model wrote, and a model's rows whole (few: a
    discard leaves none), to tell them from the model's rows added since."""

    digest: str
    models: Rows

    @classmethod
    def of(cls, rows: Rows) -> Left:
        people, models = _by_model(rows)
        return cls(people.digest(), models)

    def added(self, now: Rows) -> Rows | None:
        """The model's rows in ``now`` added since, or None if anything else changed (a person's row, a note, a
        model's row that was there changed or gone)."""
        people, models = _by_model(now)
        if people.digest() != self.digest:
            return None
        added = Rows()
        for name, table in models.tables.items():
            was = set(self.models.tables[name].rows) if name in self.models.tables else set()
            if not was <= set(table.rows):
                return None
            new = [row for row in table.rows if row not in was]
            if new:
                added.tables[name] = Table(table.columns, new)
        if any(name not in models.tables for name in self.models.tables):
            return None
        return added


@dataclass(frozen=True)
class Taken:
    """What an operation took: its scope's rows before it (``before``) and what it left (``after``)."""

    scope: Scope
    before: Rows
    after: Left

    @property
    def version(self) -> int:
        """The pool version it took from (both scopes' keys start with it)."""
        return int(self.scope.keys[0][0]) if self.scope.keys else -1


_names = itertools.count()


def _columns(conn: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """The columns an INSERT gives, ``_rowid_`` first when the table has a rowid that no column names."""
    info = conn.execute(f"PRAGMA table_info({_q(table)})").fetchall()  # generated columns are not listed
    names = tuple(str(row[1]) for row in info)
    if _without_rowid(conn, table):
        return names
    pk = [row for row in info if row[5]]
    aliased = len(pk) == 1 and str(pk[0][2]).upper() == "INTEGER"  # INTEGER PRIMARY KEY is the rowid itself
    return names if aliased else ("_rowid_", *names)


def _without_rowid(conn: sqlite3.Connection, table: str) -> bool:
    found = conn.execute("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", (table,))
    return bool(found.fetchone()[0])


def _key(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns that name one row: ``_rowid_``, the INTEGER PRIMARY KEY, or a WITHOUT ROWID table's key."""
    if columns[0] == "_rowid_":
        return ("_rowid_",)
    pk = sorted((row[5], str(row[1])) for row in conn.execute(f"PRAGMA table_info({_q(table)})") if row[5])
    return tuple(name for _, name in pk)


@dataclass(frozen=True)
class _Link:
    """A foreign key: ``columns`` of the child refer to ``to`` of ``parent``."""

    parent: str
    columns: tuple[str, ...]
    to: tuple[str, ...]


def _links(conn: sqlite3.Connection) -> tuple[list[str], dict[str, list[_Link]]]:
    """Every table, and each one's foreign keys to another table (a self-reference is no part of a scope: a
    version's child versions, ``pool_versions.parent``, are not the version's rows)."""
    tables = [
        str(row[0])
        for row in conn.execute(f"SELECT name FROM sqlite_master WHERE type = 'table' AND {NOT_SQLITES} ORDER BY name")
    ]
    links: dict[str, list[_Link]] = {}
    for table in tables:
        by_id: dict[int, list[Any]] = {}
        for row in conn.execute(f"PRAGMA foreign_key_list({_q(table)})"):
            by_id.setdefault(int(row[0]), []).append(row)
        for rows in by_id.values():
            parent = str(rows[0][2])
            if parent == table:
                continue
            ordered = sorted(rows, key=lambda r: int(r[1]))
            to = [r[4] for r in ordered]
            if any(t is None for t in to):  # REFERENCES parent: its primary key
                pk = sorted((r[5], str(r[1])) for r in conn.execute(f"PRAGMA table_info({_q(parent)})") if r[5])
                to = [name for _, name in pk]
            links.setdefault(table, []).append(_Link(parent, tuple(str(r[3]) for r in ordered), tuple(map(str, to))))
    return tables, links


def referring(conn: sqlite3.Connection, root: str) -> list[str]:
    """``root`` and every table that refers to it, directly or through another: parents before children."""
    tables, links = _links(conn)
    order = [root]
    changed = True
    while changed:  # a fixed point: a table joins once a parent of it has
        changed = False
        for table in tables:
            if table not in order and any(link.parent in order for link in links.get(table, [])):
                order.append(table)
                changed = True
    return order


class _Scoped:
    """The SQL that selects a scope's rows in each table: driven by the keys, each step a primary-key lookup.

    (A row-value ``(a, b, c) IN (SELECT ...)`` is searched by its first column only in SQLite 3.40: every grade
    scanned the whole version's items and ratings.)
    """

    def __init__(self, conn: sqlite3.Connection, scope: Scope, keys: str) -> None:
        self.scope, self.keys = scope, keys
        self.order = referring(conn, scope.table)
        self.links = _links(conn)[1]

    def select(self, table: str, columns: Sequence[str]) -> str:
        picked = ", ".join(f"t.{_q(c)} AS {_q(c)}" for c in columns)
        if table == self.scope.table:
            on = " AND ".join(f"t.{_q(c)} = k.{_q(c)}" for c in self.scope.columns)
            return f"SELECT {picked} FROM {self.keys} AS k CROSS JOIN {_q(table)} AS t ON {on}"
        parts = [
            f"SELECT {picked} FROM ({self.select(link.parent, link.to)}) AS k CROSS JOIN {_q(table)} AS t ON "
            + " AND ".join(f"t.{_q(c)} = k.{_q(p)}" for c, p in zip(link.columns, link.to, strict=True))
            for link in self.links.get(table, [])
            if link.parent in self.order
        ]
        return " UNION ".join(parts)  # two ways in: a row counts once


@contextmanager
def _keys(conn: sqlite3.Connection, scope: Scope) -> Iterator[_Scoped]:
    """The scope's SQL, over a temporary table of its keys (dropped afterwards)."""
    name = f"temp.undo_keys_{next(_names)}"
    conn.execute(f"CREATE TABLE {name} ({', '.join(map(_q, scope.columns))})")
    try:
        marks = ", ".join("?" for _ in scope.columns)
        conn.executemany(f"INSERT INTO {name} VALUES ({marks})", scope.keys)
        yield _Scoped(conn, scope, name)
    finally:
        conn.execute(f"DROP TABLE IF EXISTS {name}")


def _capture(conn: sqlite3.Connection, scoped: _Scoped) -> Rows:
    rows = Rows()
    for table in scoped.order:
        columns = _columns(conn, table)
        key = _key(conn, table, columns)
        by = ", ".join(str(columns.index(c) + 1) for c in key)
        found = conn.execute(f"SELECT * FROM ({scoped.select(table, columns)}) ORDER BY {by}").fetchall()
        if found:
            rows.tables[table] = Table(columns, [tuple(r) for r in found])
    return rows


def capture(conn: sqlite3.Connection, scope: Scope) -> Rows:
    """Every row in ``scope``, in every table that refers to it: what an operation on it would take."""
    with _keys(conn, scope) as scoped:
        return _capture(conn, scoped)


def _delete(conn: sqlite3.Connection, rows: Rows) -> None:
    """Delete exactly ``rows`` (just captured), by each one's key, children first: no parent row is left
    referred to, and a cascade finds nothing left to delete."""
    for table in reversed(list(rows.tables)):
        captured = rows.tables[table]
        key = _key(conn, table, captured.columns)
        at = [captured.columns.index(c) for c in key]
        where = " AND ".join(f"{_q(c)} = ?" for c in key)
        conn.executemany(f"DELETE FROM {_q(table)} WHERE {where}", [tuple(r[i] for i in at) for r in captured.rows])


def take(conn: sqlite3.Connection, scope: Scope, operation: Callable[[], None] | None = None) -> Taken:
    """Inside the caller's transaction: capture ``scope``, run ``operation`` (None: delete every row in scope),
    and return what it took. The rows deleted are the rows captured."""
    with _keys(conn, scope) as scoped:
        before = _capture(conn, scoped)
        if operation is None:
            _delete(conn, before)
        else:
            operation()
        after = Left.of(_capture(conn, scoped))
    return Taken(scope, before, after)


def put_back(conn: sqlite3.Connection, taken: Taken, *, path: Any, changed: str) -> Rows:
    """Inside the caller's transaction: replace the scope's rows with the ones ``taken`` captured, keeping a
    model's rows added since; returns the rows replaced (what the operation had left).

    Refused (nothing written: the caller's transaction is rolled back) when the scope no longer holds what the
    operation left: something changed it since, and putting the old rows back would lose that change. ``changed``
    says what, for the message.
    """
    refused = InputError(f"{changed} changed since; nothing was undone", path=path)
    with _keys(conn, taken.scope) as scoped:
        replaced = _capture(conn, scoped)
        added = taken.after.added(replaced)
        if added is None:
            raise refused
        _delete(conn, replaced)
        try:
            for rows in (taken.before, added):  # the model's rows refer to the items put back
                for table in scoped.order:  # parents first
                    if table in rows.tables:
                        _insert(conn, table, rows.tables[table])
        except sqlite3.IntegrityError:  # a model's row added in the place of one the operation took
            raise refused from None
    return replaced


def _insert(conn: sqlite3.Connection, table: str, rows: Table) -> None:
    conn.executemany(
        f"INSERT INTO {_q(table)} ({', '.join(map(_q, rows.columns))}) VALUES ({', '.join('?' for _ in rows.columns)})",
        rows.rows,
    )


# What the refusal names when a scope changed since its operation, by the scope's root table.
_SCOPE_NAMES = {"pool_versions": "pool version {0}", "judgments": "the items of pool version {0}"}


class UndoRepository(Repository):
    """Counts what an operation would take, and puts back what one took."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file

    def preview(self, scope: Scope) -> Rows:
        """The rows an operation on ``scope`` would take now (read, nothing written): what a confirmation counts."""
        return capture(self.file.conn, scope)

    def version_contents(self, version: int) -> Rows:
        """Every row of ``version`` in every table that refers to it: what discarding it would take."""
        return self.preview(version_scope(version))

    @writes
    def restore(self, taken: Taken, *, action: str, annotator: str) -> None:
        """Put back what ``taken`` took, in one transaction, each item it touched audited as ``action`` by
        ``annotator``.

        Refused, writing nothing, if anything in its scope changed since (a grade given after a merge, a draft
        started again under the number of the one discarded).
        """
        changed = _SCOPE_NAMES.get(taken.scope.table, taken.scope.table).format(taken.version)
        with self.file.transaction() as conn:
            replaced = put_back(conn, taken, path=self.file.path, changed=changed)
            was, now_is = _items(replaced), _items(taken.before)
            changes = (
                change(
                    key[0],
                    key[1],
                    key[2],
                    action,
                    old_grade=was.get(key, (None, None))[0],
                    new_grade=now_is.get(key, (None, None))[0],
                    old_note=was.get(key, (None, None))[1] or None,
                    new_note=now_is.get(key, (None, None))[1] or None,
                )
                for key in sorted(now_is.keys() | was.keys(), key=repr)
            )
            audit(conn, changes, annotator=annotator)


def _items(rows: Rows) -> dict[tuple[Any, ...], tuple[Any, Any]]:
    """Each pool item in ``rows``: (version, query_id, doc_id) -> (grade, note)."""
    if "judgments" not in rows.tables:
        return {}
    table = rows.tables["judgments"]
    at = {c: i for i, c in enumerate(table.columns)}
    return {(r[at["version"]], r[at["query_id"]], r[at["doc_id"]]): (r[at["grade"]], r[at["note"]]) for r in table.rows}

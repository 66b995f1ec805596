"""The one way a name or a text is put into SQL that is built as text (a trigger, a PRAGMA's argument, a table
that is discovered): everything else goes in as a bound parameter. A project file may come from someone else, so
a table's name is data, never code (issue 33, item 8)."""

from __future__ import annotations


def identifier(name: str) -> str:
    """``name`` as an SQL identifier: in double quotes, each double quote doubled (SQLite's quoting)."""
    return '"' + name.replace('"', '""') + '"'


def text_literal(value: str) -> str:
    """``value`` as an SQL string literal (where no parameter can be bound: a trigger's body)."""
    return "'" + value.replace("'", "''") + "'"


# A condition on sqlite_master's ``name``: not one of SQLite's own tables. Its reserved prefix is matched as text:
# in LIKE 'sqlite_%' the ``_`` is a wildcard, which would pass over a table named "sqliteX...".
NOT_SQLITES = "substr(name, 1, 7) != 'sqlite_'"

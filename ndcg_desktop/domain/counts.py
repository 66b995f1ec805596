"""English counts in the texts the command line and the Python API print: "1 query", "2 queries".

One rule for every layer that words a count (scoring, tasks, the command line), so that none prints "1 queries".
The window's texts are not built here: they go through Qt's translation, which has its own plural forms.
"""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``one`` for exactly 1, else ``many``: 0 takes the plural in English. Without ``many``, the regular plural
    (query -> queries, item -> items); an irregular one is given."""
    if n == 1:
        return one
    if many is not None:
        return many
    return one[:-1] + "ies" if one.endswith("y") and one[-2:-1] not in tuple("aeiou") else one + "s"


def count(n: int, one: str, many: str | None = None, *, grouped: bool = False) -> str:
    """``n`` and its noun: "1 query", "0 queries"; ``grouped`` writes the number as 12,345."""
    return f"{n:,} {plural(n, one, many)}" if grouped else f"{n} {plural(n, one, many)}"

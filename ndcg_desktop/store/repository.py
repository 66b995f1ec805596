"""What every part of the store's API shares: SQLite errors translated on every public method, writes marked.

Callers reach the repositories directly (``project.pools.versions()``), so the translation Project's facade once
gave each of its methods is given here to each repository's own; and a repository says which of its methods change
the file, so that the fronts, which only read the store, can be held to it (tests/test_architecture.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ndcg_desktop.store.core import is_write, translated, writes

if TYPE_CHECKING:
    from ndcg_desktop.store.core import ProjectFile

__all__ = ["Repository", "errors_translated", "is_write", "translating", "writes"]

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)


def translating(method: F) -> F:
    """``method`` with the SQLite errors a user can act on (a damaged page, a locked file) turned into their
    one-line InputError, through :mod:`.errors`; writes are translated by the transaction helper as well."""

    @functools.wraps(method)
    def translate(self: Any, *args: Any, **kwargs: Any) -> Any:
        with translated(self.file.path, os_errors=False):
            return method(self, *args, **kwargs)

    translate.translated = True  # type: ignore[attr-defined]
    return translate  # type: ignore[return-value]


def errors_translated(cls: C) -> C:
    """Every public method ``cls`` defines, :func:`translating` (properties and class methods are left as they
    are: they read no table)."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, translating(member))
    return cls


class Repository:
    """One part of the open file (pools, judgments, ratings, runs, ...) over the :class:`ProjectFile` it is given.

    A subclass's public methods are :func:`errors_translated` when it is defined: one cannot be added that lets a
    raw ``sqlite3.DatabaseError`` reach a caller.
    """

    file: ProjectFile

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        errors_translated(cls)

"""The command line's words for a project that cannot be written: the store says what failed and whether opening
the file read-only is a way out (``ProjectReadOnly.reopen``); what read-only use still allows is said here.

Loads no store: the command line words every error through :func:`said_on_the_command_line`, scoring files too.
"""

from __future__ import annotations

import sys

from ndcg_desktop.domain.errors import InputError

# what a project that cannot be written still allows, on the command line (the store's ProjectReadOnly.reopened)
READ_ONLY_USE = "ndcg status PROJECT works, score and export-qrels too once a version is frozen"


def said_on_the_command_line(error: InputError) -> str:
    """``error`` as the command line prints it: a project that cannot be written is refused naming the commands
    that still work on it read-only; any other error as it is (``str(error)``, its hint in options). An error of
    the store's exists only once the store is loaded, so an unloaded store (scoring files) is no match."""
    store_errors = sys.modules.get("ndcg_desktop.store.errors")
    if store_errors is not None and isinstance(error, store_errors.ProjectReadOnly) and error.reopen:
        return str(error.reopened(READ_ONLY_USE))
    return str(error)

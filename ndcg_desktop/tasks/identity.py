"""Who is grading: one answer for the window and the command line.

The name a person states is ``NDCG_USER`` when it is set (it overrides everything, for scripts and shared
machines), else the name saved in the preferences (the window's *New project* dialog and preferences write it;
``ndcg`` reads the same file), else nobody stated one and the login name is only a default. Inside a work file
the annotator it was handed to grades, whatever was stated (:func:`ndcg_desktop.tasks.work_files.grader`).

Elsewhere the name is compared with the names the project already credits (ratings, grades, handouts) as
handouts and merges compare them (:func:`~ndcg_desktop.domain.names.name_key`: without case, accents or width):
``NDCG_USER=Ana`` in a project where ``ana`` rated grades as ``ana``, not as a second annotator
(:func:`credited_name`).

>>> grading_name() == (stated_user() or default_user())
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

import platformdirs

from ndcg_desktop.domain.names import same_person
from ndcg_desktop.store.core import default_user

APP = "ndcg-desktop"
__all__ = ["config_dir", "credited_name", "grading_name", "saved_name", "stated_user"]


def config_dir() -> Path:
    """The preferences folder (platformdirs); ``NDCG_DESKTOP_CONFIG_DIR`` overrides it (tests use a temporary one)."""
    return Path(os.environ.get("NDCG_DESKTOP_CONFIG_DIR") or platformdirs.user_config_path(APP))


def saved_name() -> str:
    """The annotator name saved in the preferences ('' when none, or when the file does not read)."""
    try:
        data = json.loads((config_dir() / "preferences.json").read_text(encoding="utf-8"))
        return str(data.get("annotator", "")).strip() if isinstance(data, dict) else ""
    except (OSError, ValueError):
        return ""


def stated_user() -> str | None:
    """The name the user stated: ``NDCG_USER``, else the saved preference; None when neither is set."""
    return os.environ.get("NDCG_USER", "").strip() or saved_name() or None


def grading_name() -> str:
    """The name grades are credited to outside a work file: the stated one, else the login name."""
    return stated_user() or default_user()


def credited_name(name: str, known: Iterable[str]) -> str:
    """The spelling grades by ``name`` are credited to: ``name`` when the project knows it as typed, else the
    first of ``known`` that is the same person (one rule with handouts and merges), else ``name``.

    >>> credited_name("Ana", ["ana", "ben"]), credited_name("ana", ["Ana", "ana"]), credited_name("cy", ["ana"])
    ('ana', 'ana', 'cy')
    """
    names = list(known)
    if name in names:
        return name
    return same_person(name, names) or name

"""Who is grading: one answer for the window and the command line, decided once per opened project.

The name a person states is ``NDCG_USER`` when it is set (it overrides everything, for scripts and shared
machines), else the name saved in the preferences (the window's *New project* dialog and preferences write it;
``ndcg`` reads the same file), else nobody stated one and the login name is only a default (:func:`grading_name`).

:func:`annotator` is the one decision of whose name an opened project's changes carry, and :func:`open_to_grade`
opens a project with it: inside a work file, the annotator it was handed to, whatever was stated (one who states
another name is refused); elsewhere the name as the project already spells that person (:func:`credited_name`:
compared by :func:`~ndcg_desktop.domain.names.name_key`, without case, accents or width, as handouts and merges
compare names), so ``NDCG_USER=Ana`` in a project where ``ana`` rated grades as ``ana``, not as a second annotator.
The store never decides a name: every write that records one receives it.

>>> grading_name() == (stated_user() or default_user())
True
"""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import platformdirs

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.names import name_key, same_person
from ndcg_desktop.formats.cells import check_person
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.work_files import work_annotator

APP = "ndcg-desktop"
USER_NAME = "user name (NDCG_USER or the login name)"
__all__ = [
    "Opened",
    "annotator",
    "config_dir",
    "credited_name",
    "default_user",
    "grading_name",
    "open_to_grade",
    "open_to_read",
    "read_preferences",
    "saved_name",
    "stated_user",
]


def config_dir() -> Path:
    """The preferences folder (platformdirs); ``NDCG_DESKTOP_CONFIG_DIR`` overrides it (tests use a temporary one)."""
    return Path(os.environ.get("NDCG_DESKTOP_CONFIG_DIR") or platformdirs.user_config_path(APP))


def read_preferences() -> dict[str, object]:
    """The saved preferences as read (empty when there are none, or when the file does not read as an object)."""
    try:
        data = json.loads((config_dir() / "preferences.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_name(preferences: dict[str, object] | None = None) -> str:
    """The annotator name saved in ``preferences`` (read from the file when not given), stripped; '' when none."""
    return str((read_preferences() if preferences is None else preferences).get("annotator", "")).strip()


def stated_user() -> str | None:
    """The name the user stated: ``NDCG_USER``, else the saved preference; None when neither is set."""
    return os.environ.get("NDCG_USER", "").strip() or saved_name() or None


def default_user() -> str:
    """The name when nobody stated one: ``NDCG_USER`` as set (only spaces reach here, and are refused as empty),
    else the login name."""
    return os.environ.get("NDCG_USER") or getpass.getuser()


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


def annotator(project: Project, stated: str | None) -> str:
    """Who grades in ``project``, checked as a person's name: for a work file, the annotator it was handed to;
    else ``stated`` (None: :func:`default_user`) as the project already spells that person.

    A work file is refused when the user stated another name: its grades are credited to its annotator only, so
    nobody grades in another's file under their own name or unknowingly under the other's.

    >>> # annotator(Project.open("ben.ndcgproj", read_only=True), "ana") refuses: "was handed to ben; you are ana"
    """
    handed_to = work_annotator(project)
    if handed_to is None:  # folded onto a name the project knows, as handouts and merges compare names
        name = check_person(stated or default_user(), USER_NAME)
        return credited_name(name, project.ratings.annotators())
    if stated is not None and name_key(stated) != name_key(handed_to):
        raise InputError(
            f"is a work file handed to {handed_to}, and you are {stated}: its grades are credited to {handed_to} "
            f"only; ask for your own work file, or open it as {handed_to} (annotator name in the preferences, "
            "or NDCG_USER)",
            path=project.path,
        )
    return check_person(handed_to, "annotator name")  # checked like every name when it was handed out


class Opened(NamedTuple):
    """A project opened to be written and the one name its changes carry (``with ... as (project, annotator)``)."""

    project: Project
    annotator: str

    def __enter__(self) -> Opened:
        return self

    def __exit__(self, *exc: object) -> None:
        self.project.close()


def open_to_read(path: str | Path) -> Opened:
    """Open a project read-only (a dry run, a listing): nothing it does records a name, so it carries none."""
    return Opened(Project.open(path, read_only=True), "")


def open_to_grade(path: str | Path, stated: str | None = None) -> Opened:
    """Open a project for writing, with the name its changes carry (:func:`annotator`; ``stated``, when None, is
    :func:`stated_user`).

    >>> # ndcg adjudicate ben.ndcgproj ... under NDCG_USER=ana is refused; with NDCG_USER unset it writes as ben
    """
    stated = stated if stated is not None else stated_user()
    project = Project.open(path)
    try:
        return Opened(project, annotator(project, stated))
    except BaseException:
        project.close()
        raise

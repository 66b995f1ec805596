"""Grading a pool item, writing its note, choosing the judging order, and undoing what a change took: the use
cases behind the Annotate view's keys and Edit > Undo, Qt-free (what a key decides is :mod:`.annotating`).

A change returns what it took (:class:`~ndcg_desktop.store.undo.Taken`); :func:`undo` puts exactly that back,
in every table, or refuses when the scope changed since.

>>> import tempfile, pathlib, pandas as pd
>>> from ndcg_desktop.tasks.project import create_project
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with create_project(folder / "p.ndcgproj", annotator="ana") as project:
...     _ = project.judgments.add_items(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"]}), annotator="ana")
...     taken = grade_item(project, "q1", "d1", 2, version=1, annotator="ana")
...     graded = project.pools.pool_items(1)["grade"].tolist()
...     undo(project, taken, action="undo grade", annotator="ana")
...     graded, project.pools.pool_items(1)["grade"].isna().tolist()
([2], [True])
"""

from __future__ import annotations

from ndcg_desktop.domain.blind import JUDGING_ORDERS
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.undo import Taken

__all__ = ["Taken", "grade_item", "note_item", "set_judging_order", "undo"]


def grade_item(
    project: Project, query_id: str, doc_id: str, grade: int | None, *, version: int, annotator: str
) -> Taken:
    """Give ``doc_id`` of ``query_id`` in draft ``version`` the ``grade`` (None: ungraded again), credited to
    ``annotator`` (:func:`.identity.annotator` decides who); returns what it took, for :func:`undo`."""
    return project.judgments.set_grade(query_id, doc_id, grade, annotator=annotator, version=version)


def note_item(project: Project, query_id: str, doc_id: str, note: str, *, version: int, annotator: str) -> Taken:
    """Write ``annotator``'s note of ``doc_id`` of ``query_id`` in draft ``version``; returns what it took, for
    :func:`undo`."""
    return project.judgments.set_note(query_id, doc_id, note, annotator=annotator, version=version)


def undo(project: Project, taken: Taken, *, action: str, annotator: str) -> None:
    """Put back exactly what a change took (a grade, a note, a discard, a removal, an adjudication, a merge, a
    send for judging), audited as ``action`` by ``annotator``; refused, writing nothing, when its scope changed
    since."""
    project.undo.restore(taken, action=action, annotator=annotator)


def set_judging_order(project: Project, order: str) -> None:
    """Record how a query's pool is ordered for judging: one of :data:`~ndcg_desktop.domain.blind.JUDGING_ORDERS`
    (``blind``, the default, or ``doc_id``)."""
    if order not in JUDGING_ORDERS:
        raise InputError(f"judging order must be one of {', '.join(JUDGING_ORDERS)}, not {order!r}")
    project.judgments.set_judging_order(order)

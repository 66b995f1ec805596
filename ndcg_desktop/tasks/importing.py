"""Importing judgments and runs into a project, with one policy for each choice in both fronts."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from ndcg_desktop.domain import InputError, OrderKind, TiePolicy
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.formats.chunk_map import read_chunk_map
from ndcg_desktop.store import Project, RunInfo


class NegativeGrades(StrEnum):
    """trec_eval's negative grades ("pooled but not judged") below the project's scale.

    Refused by default in both fronts; importing them as ungraded pool items is an explicit choice
    (the command line's ``--negative-as-ungraded``, a question in the window). A negative grade
    inside the scale (a -1..4 project) is a grade like any other.
    """

    REFUSE = "refuse"
    UNGRADED = "ungraded"

    def __str__(self) -> str:
        return self.value


class NegativeGradesFound(InputError):
    """The file has negative grades below the scale and the policy refuses them."""


def import_judgments(
    project: Project, path: str | Path, *, negative: NegativeGrades = NegativeGrades.REFUSE, fmt: str | None = None
) -> dict[str, int]:
    """Import judgments into the draft pool under the negative-grade policy; the counts of what changed.

    ``graded`` counts every item the file graded: the new ones it added with a grade and the
    ungraded ones already in the pool that it graded (``graded_existing``).
    """
    try:
        report = project.import_qrels(path, negative_as_ungraded=negative is NegativeGrades.UNGRADED, fmt=fmt)
    except NegativeGradesFound:
        raise
    except InputError as exc:
        if negative is NegativeGrades.REFUSE and "negative-as-ungraded" in str(exc):
            message = exc.message + " (trec_eval's negative grade: pooled but not judged)"
            hint = "import negative grades as ungraded items with --negative-as-ungraded"
            raise NegativeGradesFound(message, path=exc.path, line=exc.line, hint=hint) from None
        raise
    return {**report, "graded": report["added"] - report["ungraded"] + report["graded_existing"]}


def import_run(
    project: Project,
    path: str | Path,
    *,
    name: str,
    ties: TiePolicy = TiePolicy.DOCID_DESC,
    id_map: IdMap | Path | None = None,
    order: OrderKind | None = None,
    fmt: str | None = None,
) -> RunInfo:
    """Store a run with the reading settings that will order it from now on (import time owns them).

    ``id_map`` is a separator (``"#"``), a chunk map, or the :class:`~pathlib.Path` of a chunk map file
    (JSONL or CSV/TSV with ``chunk_id`` and ``doc_id``), read here.
    """
    if isinstance(id_map, Path):
        id_map = read_chunk_map(id_map)
    return project.import_run(path, name=name, ties=ties, id_map=id_map, order=order, fmt=fmt)

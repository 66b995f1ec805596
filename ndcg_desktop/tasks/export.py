"""Exporting a scored result (the same writer as ``ndcg score --export``) and a frozen pool with its manifest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ndcg_desktop import __version__
from ndcg_desktop.formats.export import (
    check_output_file,
    check_replaceable,
    export_comparison_file,
    export_evaluation,
    write_output,
)
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.assessing.injection import flagged_fills_record
from ndcg_desktop.tasks.pool_builds import pooling_record
from ndcg_desktop.tasks.scoring import ScoreResult

MANIFEST_SUFFIX = ".manifest.json"


def export_result(result: ScoreResult, folder: str | Path) -> list[Path]:
    """per_query.csv, per_position.csv and manifest.json of the run, plus comparison.csv when comparing."""
    comparison = None
    if result.second is not None and result.comparison is not None:
        comparison = (result.comparison, (result.first.run_name, result.second.run_name))
    return export_evaluation(result.first.evaluation, folder, comparison=comparison)  # whole or absent


def export_comparison_csv(result: ScoreResult, path: str | Path) -> Path:
    """The comparison table alone, to a file of the caller's naming (refusals: ``formats.export.write_output``)."""
    if result.second is None or result.comparison is None:
        raise ValueError("this result compares no runs")
    return export_comparison_file(result.comparison, (result.first.run_name, result.second.run_name), path)


def export_frozen_pool(
    project: Project,
    path: str | Path,
    *,
    version: int | None = None,
    fmt: str = "trec",
    force: bool = False,
    iterations: tuple[str, ...] = (),
) -> tuple[PoolVersion, Path]:
    """Write a frozen version as qrels (TREC or CSV) and its manifest beside it, as ``PATH.manifest.json``.

    The manifest names the version, its hash, who froze it when, the written file's SHA-256, the
    grading guidelines it was judged under (their SHA-256, or null), its team record (annotators, adjudication,
    agreement, and the grades that came from a model) and how its pool was built (``pooling``: each build's
    strategy, budget, queries, runs and their hashes, and the order it chose documents in; empty for a pool
    built before that was recorded). ``iterations``: only the judgments of those rounds (the manifest lists them).
    Both files are checked and written
    atomically (``formats.export.write_output``); the qrels file first. A file already at either name is replaced
    only when it is an earlier export of ours, exactly as written (its manifest beside it names it with its
    SHA-256: the rule of the folder exports), or with ``force`` (the window's save dialog asked); otherwise
    :class:`InputError` naming the file, and nothing is written.

    >>> # export_frozen_pool(project, "pool.qrels") writes pool.qrels and pool.qrels.manifest.json
    """
    target = Path(path)
    manifest_path = target.with_name(target.name + MANIFEST_SUFFIX)
    if not force:  # a link, a FIFO or a project at either name is refused first, as it is named there
        check_output_file(target), check_output_file(manifest_path)
        check_replaceable(target, manifest_path, "ndcg export-qrels")
    frozen = project.export_qrels(path, version=version, fmt=fmt, iterations=iterations)
    team = project.pools.team(frozen)
    manifest: dict[str, Any] = {
        "tool": "ndcg-desktop",
        "version": __version__,
        "project": str(project.path),
        "pool_version": frozen.version,
        "pool_hash": frozen.hash,
        # only these rounds' judgments (the qrels' iteration column, as read); absent: the whole version
        **({"iterations": list(iterations)} if iterations else {}),
        "frozen_at": frozen.frozen_at,
        "frozen_by": frozen.frozen_by,
        "scale": str(frozen.scale),
        "labels": frozen.labels,
        "guidelines_sha256": frozen.guidelines_sha256,
        **team,  # rules 16 and 18, as in a score's manifest: who graded, how many grades from a model
        **flagged_fills_record(project, frozen.version, team),  # of those, items whose text addresses the grader
        "pooling": pooling_record(project, frozen.version),  # rule 20: strategy, budget, runs, order of choice
        "file": {"name": target.name, "format": fmt, "sha256": hashlib.sha256(target.read_bytes()).hexdigest()},
    }
    written = write_output(manifest_path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return frozen, written

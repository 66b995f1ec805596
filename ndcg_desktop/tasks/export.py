"""Exporting a scored result: the same writer as ``ndcg score --export``."""

from __future__ import annotations

from pathlib import Path

from ndcg_desktop.formats.export import export_comparison_file, export_evaluation
from ndcg_desktop.tasks.session import ScoreResult


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

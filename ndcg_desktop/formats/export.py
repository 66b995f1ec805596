"""Writing results: spreadsheet-safe CSV and JSON, always atomically, and an evaluation's export folder.

The one writer behind `ndcg score --export` and the window's *Export CSV…*.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol

import pandas as pd

# Cells a spreadsheet would run as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> object:
    """Prefix text cells that a spreadsheet would evaluate with a quote; numbers pass through.

    >>> neutralise("=HYPERLINK(1)"), neutralise("-d7"), neutralise(-1.5)
    ("'=HYPERLINK(1)", "'-d7", -1.5)
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def atomic_write(path: str | Path, text: str) -> None:
    """Write to a temporary file in the same folder, then move it into place."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_csv(frame: pd.DataFrame, path: str | Path) -> None:
    """UTF-8 CSV with a header row; text columns neutralised, floats at full precision."""
    safe = frame.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(neutralise)
    atomic_write(path, safe.to_csv(index=False, lineterminator="\n"))


def write_json(data: Any, path: str | Path) -> None:
    atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class ExportableEvaluation(Protocol):
    """What an export needs from an evaluation (``scoring.Evaluation`` has it; formats does not import scoring)."""

    per_query: pd.DataFrame
    per_position: pd.DataFrame
    manifest: dict[str, Any]


def export_evaluation(evaluation: ExportableEvaluation, folder: str | Path) -> list[Path]:
    """Write per_query.csv, per_position.csv and manifest.json into ``folder``."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "per_query.csv", out / "per_position.csv", out / "manifest.json"]
    write_csv(evaluation.per_query, paths[0])
    write_csv(evaluation.per_position, paths[1])
    write_json(evaluation.manifest, paths[2])
    return paths


def export_comparison(
    table: pd.DataFrame, runs: tuple[str, str], folder: str | Path, name: str = "comparison.csv"
) -> Path:
    """Write a comparison (``explain.compare``) like the other tables, its columns named after the runs."""
    a, b = runs
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(
        table.rename(columns={"ndcg_a": f"ndcg {a}", "ndcg_b": f"ndcg {b}", "difference": f"{b} - {a}"}), out / name
    )
    return out / name

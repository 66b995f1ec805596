"""Saved evaluations: which run was scored against which frozen version, how, with what manifest."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ndcg_desktop.store.core import ProjectFile, now
from ndcg_desktop.store.errors import stored_value


@dataclass(frozen=True)
class SavedEvaluation:
    """One recorded evaluation: the run, the frozen version, the settings text, its manifest."""

    id: int
    run_name: str
    pool_version: int
    settings: str  # EvalSettings.to_text()
    manifest: dict[str, Any]
    created_at: str


class EvaluationRepository:
    """The evaluations recorded in one project file."""

    def __init__(self, file: ProjectFile) -> None:
        self.file = file

    def save_evaluation(self, run_name: str, version: int, settings_text: str, manifest: dict[str, Any]) -> int:
        with self.file.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO evaluations (run_name, pool_version, settings, manifest, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (run_name, version, settings_text, json.dumps(manifest), now()),
            )
        return int(cur.lastrowid)  # type: ignore[arg-type]

    def evaluations(self) -> list[SavedEvaluation]:
        """Every recorded evaluation, newest first."""
        rows = self.file.query(
            "SELECT id, run_name, pool_version, settings, manifest, created_at FROM evaluations ORDER BY id DESC"
        )
        saved = []
        for r in rows:
            with stored_value(self.file.path, f"the manifest of recorded evaluation {r[0]}"):
                manifest = json.loads(r[4])
            saved.append(SavedEvaluation(r[0], r[1], r[2], r[3], manifest, r[5]))
        return saved

"""Saved evaluations: which run was scored against which frozen version, how, with what manifest."""

from __future__ import annotations

import json
from typing import Any

from ndcg_desktop.store.core import ProjectFile, now


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

"""A project with frozen judgments (version 1) and one stored run named ``sys``."""

from __future__ import annotations

import pytest

from ndcg_desktop.store import Project
from ndcg_desktop.tasks.freezing import freeze_draft


@pytest.fixture
def stored(tmp_path, write):
    """stored(qrels_text, run_text) -> an open project: the qrels frozen as v1, the run stored as ``sys``."""
    opened: list[Project] = []

    def make(qrels: str, run: str) -> Project:
        project = Project.create(tmp_path / "p.ndcgproj", annotator="ann")
        opened.append(project)
        project.judgments.import_qrels(write("q.txt", qrels), annotator="ann")
        freeze_draft(project, annotator="ann")
        project.runs.import_run(write("r.txt", run), name="sys", annotator="ann")
        return project

    yield make
    for project in opened:
        project.close()

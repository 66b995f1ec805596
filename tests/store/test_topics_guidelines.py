"""Topics and grading guidelines in the project file (issue 14): schema format 3 and its migration from format 2.

tests/data/schema_v2/project-v2.ndcgproj was written by format-2 code (SOURCES.md): two query strings, frozen
version 1, run bm25, draft version 2. Every check reads the file through a plain sqlite3 connection too.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.domain.settings import UnjudgedPolicy
from ndcg_desktop.store import Project
from ndcg_desktop.store.schema import SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import score_run
from ndcg_desktop.tasks.status import project_status
from tests.helpers import raw_sql
from tests.helpers import sql_rows as _sql

from .conftest import dump

GUIDELINES_TRIGGERS = {"guidelines_not_updated", "guidelines_not_deleted", "guidelines_not_replaced"}


def _v2_copy(tmp_path: Path, data_dir: Path) -> Path:
    path = tmp_path / "old.ndcgproj"
    shutil.copyfile(data_dir / "schema_v2" / "project-v2.ndcgproj", path)
    return path


def test_a_format_2_project_opens_read_only_unchanged_with_its_queries_as_titles(tmp_path, data_dir):
    path = _v2_copy(tmp_path, data_dir)
    before = dump(path)
    with Project.open(path, read_only=True) as project:
        assert project.texts.query("q1") == {
            "query_id": "q1",
            "text": "what is a pool",
            "title": "what is a pool",
            "description": "",
            "narrative": "",
        }
        assert project.texts.guidelines() is None
        assert project.texts.guidelines_history() == []
        assert [v.guidelines_sha256 for v in project.pools.versions()] == [None, None]
        assert project_status(project)["guidelines"] is None
    assert dump(path) == before
    assert _sql(path, "PRAGMA user_version") == [(2,)]


# The judgments' format-2 columns (later formats add some: format 4's adjudication).
FORMAT_2_JUDGMENTS = (
    "SELECT version, query_id, doc_id, grade, annotator, note, updated_at FROM judgments ORDER BY 1, 2, 3"
)


def test_a_format_2_project_is_migrated_to_topics_and_guidelines(tmp_path, data_dir):
    path = _v2_copy(tmp_path, data_dir)
    frozen_before = _sql(path, "SELECT version, state, hash FROM pool_versions ORDER BY version")
    judgments_before = _sql(path, FORMAT_2_JUDGMENTS)
    with Project.open(path) as project:
        assert project.protection_problems() == []
        assert project.texts.query("q2")["title"] == "graded relevance"
        assert project.texts.query("q2")["description"] == ""
        v1 = project.pools.frozen_version(1)  # recomputes the hash: the migration left the frozen version intact
        assert v1.guidelines_sha256 is None  # frozen before the project had guidelines
        scored = score_run(project, "bm25", 1, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False)
        assert scored.evaluation.manifest["judgments"]["guidelines_sha256"] is None
        set_ = project.texts.set_guidelines("# Rules\n", source="window", annotator="cy")
        assert (set_.who, set_.source, set_.sha256) == ("cy", "window", hashlib.sha256(b"# Rules\n").hexdigest())
    assert _sql(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]  # 2 -> 3 (topics) -> 4 (ratings) -> ...
    assert _sql(path, "SELECT version, state, hash FROM pool_versions ORDER BY version") == frozen_before
    assert _sql(path, FORMAT_2_JUDGMENTS) == judgments_before
    triggers = {row[0] for row in _sql(path, "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert GUIDELINES_TRIGGERS <= triggers
    assert _sql(path, "SELECT query_id, text, description, narrative FROM queries ORDER BY query_id") == [
        ("q1", "what is a pool", "", ""),
        ("q2", "graded relevance", "", ""),
    ]


def test_migrated_and_new_projects_have_the_same_tables(tmp_path, data_dir):
    path = _v2_copy(tmp_path, data_dir)
    Project.open(path).close()
    Project.create(tmp_path / "new.ndcgproj", annotator="tester").close()

    def columns(file: Path) -> dict[str, list[str]]:
        tables = [row[0] for row in _sql(file, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(row[1] for row in _sql(file, f"PRAGMA table_info({t})")) for t in tables}

    assert columns(path) == columns(tmp_path / "new.ndcgproj")


def test_topics_are_stored_whole_and_replaced_whole(tmp_path, data_dir, write):
    with Project.create(tmp_path / "p.ndcgproj", annotator="tester") as project:
        assert len(project.texts.import_topics(data_dir / "trec_topics" / "topics.701-703.txt")) == 3
        topic = project.texts.query("702")
        assert (topic["title"], topic["description"]) == (
            "urban beekeeping rules",
            "What rules apply to keeping honey bees in a city?",
        )
        assert topic["narrative"].startswith("Relevant documents state a rule")
        # a file of titles only describes its queries whole: the description and narrative are cleared
        assert len(project.texts.import_topics(write("q.tsv", "702\tbeekeeping in cities\n"))) == 1
        assert project.texts.query("702") == {
            "query_id": "702",
            "text": "beekeeping in cities",
            "title": "beekeeping in cities",
            "description": "",
            "narrative": "",
        }
        assert project.texts.query("701")["description"].startswith("How are worn-out solar panels")


def test_guidelines_history_is_audited_append_only_and_frozen_versions_name_their_hash(tmp_path, write):
    path = tmp_path / "p.ndcgproj"
    first, second = "# Grading\n\n3: answers the question\n", "# Grading\n\n3: answers it fully\n"
    with Project.create(path, annotator="ana") as project:
        project.judgments.import_qrels(write("q.txt", "q1 0 A 3\n"), annotator="ana")
        assert (
            project.texts.set_guidelines(first, source="file:g.md", annotator="ana").sha256
            == hashlib.sha256(first.encode()).hexdigest()
        )
        assert (
            project.texts.set_guidelines(first, source="window", annotator="ana").id == 1
        )  # the same text again adds nothing
        v1 = freeze_draft(project, annotator="ana")
        project.pools.new_draft_from(1, annotator="ana")
        project.texts.set_guidelines(
            second.replace("\n", "\r\n"), source="window", annotator="ana"
        )  # CR LF stored as LF
        project.judgments.set_grade(
            "q1", "A", 2, version=2, annotator="ana"
        )  # a copy of its parent would not freeze (issue 35)
        v2 = freeze_draft(project, annotator="ana")
        project.texts.set_guidelines("", source="undo", annotator="ana")  # cleared
        project.pools.new_draft_from(2, annotator="ana")
        project.judgments.set_grade("q1", "A", 1, version=3, annotator="ana")
        v3 = freeze_draft(project, annotator="ana")
        history = project.texts.guidelines_history()
        assert [(g.id, g.source, g.who, g.text) for g in history] == [
            (1, "file:g.md", "ana", first),
            (2, "window", "ana", second),
            (3, "undo", "ana", ""),
        ]
        assert [v.guidelines_sha256 for v in (v1, v2, v3)] == [
            hashlib.sha256(first.encode()).hexdigest(),
            hashlib.sha256(second.encode()).hexdigest(),
            None,
        ]
        assert project_status(project)["guidelines"] is None
    for statement in (
        "UPDATE guidelines SET text = 'forged' WHERE id = 1",
        "DELETE FROM guidelines WHERE id = 1",
        "INSERT OR REPLACE INTO guidelines (id, text, sha256, source, who, at) VALUES (1, 'x', 'y', 'z', 'w', 'v')",
        "UPDATE pool_versions SET guidelines_sha256 = 'forged' WHERE version = 1",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            raw_sql(path, statement)

"""A frozen version's team record (rules 15 and 16, issue 13): each annotator's ratings hash, the adjudications and
the agreement figures are recorded when the version is frozen (format 5), read back at each use instead of reading
every rating, and proven where the version's own hash is: a tampered rating is refused, naming both hashes.

``tests/data/schema_v4/`` holds a project written by the format-4 code and the team manifest that code gave for
its frozen version 1 (``team-v1.json``); the same data must give the same manifest, byte for byte, recorded or not.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import EvalSettings
from ndcg_desktop.domain.settings import GradeScale, UnjudgedPolicy
from ndcg_desktop.scoring.agreement import agreement
from ndcg_desktop.store import FrozenVersionChanged, Project
from ndcg_desktop.store import team as team_module
from ndcg_desktop.store.ratings import RatingRepository, ratings_hash
from ndcg_desktop.store.schema import SCHEMA_VERSION, TEAM_FORMAT
from ndcg_desktop.tasks.adjudication import team_manifest
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.scoring import check_run, score_run, score_run_at
from tests.store.test_frozen_integrity import tamper
from tests.store.test_ratings import RATING_TRIGGERS
from tests.store.test_ratings import rows as sql

SCALE = GradeScale(0, 3)


@pytest.fixture
def v4(tmp_path, data_dir) -> Path:
    """A copy of the format-4 project: version 1 frozen (three annotators, adjudicated by pick and median), draft
    version 2 copied from it."""
    path = tmp_path / "v4.ndcgproj"
    shutil.copyfile(data_dir / "schema_v4" / "project-v4.ndcgproj", path)
    return path


@pytest.fixture
def format_4_manifest(data_dir) -> dict[str, object]:
    return dict(json.loads((data_dir / "schema_v4" / "team-v1.json").read_text(encoding="utf-8")))


def a_change(path: Path) -> Path:
    """Draft 2 is a copy of version 1, which no longer freezes into a new number (issue 35): one more graded item,
    written without a rating, makes it another set of judgments and leaves the team's data (ratings, adjudications)
    as they were."""
    con = sqlite3.connect(path)
    try:
        with con:
            con.execute("INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (2, 'q1', 'Z-new', 0)")
    finally:
        con.close()
    return path


def independent_team(path: Path, version: int) -> dict[str, object]:
    """Rule 16's figures computed from the ratings table through pandas, without the store."""
    con = sqlite3.connect(path)
    try:
        ratings = pd.read_sql_query(
            f"SELECT query_id, doc_id, annotator, grade FROM ratings WHERE version = {version}", con
        )
        how = pd.read_sql_query(f"SELECT adjudication FROM judgments WHERE version = {version}", con)
    finally:
        con.close()
    return {
        "annotators": {
            name: {"ratings": len(group), "sha256": ratings_hash(group, SCALE, name)}
            for name, group in ratings.groupby("annotator")
        },
        "adjudication": {str(k): int(n) for k, n in how["adjudication"].value_counts().sort_index().items()},
        "agreement": agreement(ratings, SCALE, per_query=False).summary(),
    }


def test_a_format_4_project_migrates_and_its_old_version_keeps_the_manifest_it_had(v4, format_4_manifest):
    assert sql(v4, "PRAGMA user_version") == [(TEAM_FORMAT - 1,)]
    before = sql(v4, "SELECT * FROM pool_versions ORDER BY version")
    with Project.open(v4) as project:
        assert project.protection_problems() == []
        team = team_manifest(project, project.pools.version(1))
    assert sql(v4, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    # the frozen row is not rewritten: its team is computed at each use, as the format-4 code did
    assert sql(v4, "SELECT * FROM pool_versions ORDER BY version") == [(*r, None) for r in before]
    assert json.dumps(team) == json.dumps(format_4_manifest)
    assert format_4_manifest == independent_team(v4, 1)
    assert list(team["annotators"]) == ["ana", "ben", "chen"]


def test_freezing_records_the_team_and_the_same_data_gives_the_same_manifest_byte_for_byte(v4, format_4_manifest):
    with Project.open(a_change(v4)) as project:
        version = freeze_draft(
            project, annotator="judge"
        )  # draft 2: version 1's items (one more), ratings and adjudications, copied
        assert version.version == 2 and version.team is not None
        recorded = team_manifest(project, version)
    stored = sql(v4, "SELECT team FROM pool_versions WHERE version = 2")[0][0]
    assert json.loads(str(stored)) == format_4_manifest
    assert json.dumps(recorded) == json.dumps(format_4_manifest)  # same content and key order as format 4's
    assert recorded == independent_team(v4, 2)


def test_scoring_a_recorded_version_reads_no_rating_back(v4, format_4_manifest, monkeypatch):
    with Project.open(a_change(v4)) as project:
        freeze_draft(project, annotator="judge")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the agreement was computed again")

    monkeypatch.setattr(team_module, "_agreement", refuse)
    monkeypatch.setattr(RatingRepository, "verified", refuse)
    monkeypatch.setattr(RatingRepository, "rows", refuse)
    with Project.open(v4, read_only=True) as project:
        scored = score_run(project, "bm25", 2, EvalSettings(unjudged=UnjudgedPolicy.ZERO), record=False)
    judgments = scored.evaluation.manifest["judgments"]
    assert {k: judgments[k] for k in ("annotators", "adjudication", "agreement")} == format_4_manifest


@pytest.mark.parametrize(
    "statement, named",
    [
        (
            "UPDATE ratings SET grade = 0 WHERE version = 2 AND query_id = 'q2' AND doc_id = 'E' AND annotator = 'ben'",
            "ben",
        ),
        ("DELETE FROM ratings WHERE version = 2 AND query_id = 'q1' AND doc_id = 'D' AND annotator = 'ana'", "ana"),
        ("INSERT INTO ratings VALUES (2, 'q1', 'D', 'dan', 3, '', 't')", "dan"),
    ],
)
def test_a_tampered_rating_of_a_frozen_version_is_refused_naming_both_hashes(v4, tmp_path, capsys, statement, named):
    with Project.open(a_change(v4)) as project:
        recorded = freeze_draft(project, annotator="judge").team
    assert recorded is not None
    was = json.loads(recorded)["annotators"].get(named)
    tamper(v4, statement, triggers=RATING_TRIGGERS)  # triggers restored verbatim: the protection looks intact
    now = independent_team(v4, 2)["annotators"].get(named)
    assert now != was
    with Project.open(v4, read_only=True) as project:
        assert project.protection_problems() == []
        project.pools.qrels(1)  # the other version is untouched
        for use in (
            lambda: project.pools.qrels(2),
            lambda: project.pools.frozen_version(2),
            lambda: project.pools.query_progress(2),
        ):
            with pytest.raises(FrozenVersionChanged) as refused:
                use()
            message = str(refused.value)
            assert f"pool version 2 has changed since it was frozen: the ratings of annotator {named}" in message
            for entry in (was, now):
                assert (entry["sha256"] if entry else "none") in message
        # Scoring proves the ratings on a thread while the judgments (proven first) are scored: the same refusal.
        assert project.pools.qrels(2, team=False).frame is not None
        with pytest.raises(FrozenVersionChanged, match=f"the ratings of annotator {named}"):
            project.pools.prove_team(2)
    evaluations = sql(v4, "SELECT count(*) FROM evaluations")
    with Project.open(v4) as project:
        settings = EvalSettings(unjudged=UnjudgedPolicy.ZERO)
        for use in (
            lambda: score_run(project, "bm25", 2, settings),
            lambda: score_run_at(project, "bm25", 2, settings, [1, 5]),
            lambda: check_run(project, "bm25", 2, settings),
        ):
            with pytest.raises(FrozenVersionChanged, match=f"the ratings of annotator {named}"):
                use()
    assert sql(v4, "SELECT count(*) FROM evaluations") == evaluations  # nothing recorded
    capsys.readouterr()
    assert main(["score", "--project", str(v4), "--run-name", "bm25", "--pool-version", "2", "--unjudged", "zero"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and f"annotator {named}" in err


def test_a_tampered_adjudication_of_a_frozen_version_is_refused(v4):
    with Project.open(a_change(v4)) as project:
        freeze_draft(project, annotator="judge")
    tamper(
        v4,
        "UPDATE judgments SET adjudication = 'pick' WHERE version = 2 AND adjudication = 'median' AND doc_id = 'C'",
        triggers=("frozen_judgment_not_updated",),
    )
    with Project.open(v4, read_only=True) as project, pytest.raises(FrozenVersionChanged) as refused:
        project.pools.qrels(2)
    assert "its adjudications were recorded as {'median': 2, 'pick': 1}, they are now {'median': 1, 'pick': 2}" in str(
        refused.value
    )


def test_freeze_reads_the_judgments_and_ratings_once(v4, capsys, frozen_reads):
    """`ndcg freeze` hashes the judgments and each annotator's ratings as it freezes; the manifest it prints
    next reads nothing again (it read both twice more: a check of the version just frozen)."""
    assert main(["freeze", str(a_change(v4))]) == 0
    out = capsys.readouterr().out
    assert frozen_reads == {"judgments": 1, "ratings": 1}
    assert out.startswith("froze pool version 2\nannotator ana: 7 ratings")

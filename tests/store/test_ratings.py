"""Ratings per annotator (issue 15, rule 16 of docs/evaluation-contract.md): the schema, its migration, and the
triggers that make a frozen version's ratings as final as its grades. Tampering goes through plain sqlite3."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.domain.settings import GradeScale
from ndcg_desktop.store import Project, ProtectionAltered, pool_hash
from ndcg_desktop.store.ratings import RATING_COLUMNS, ratings_hash
from ndcg_desktop.store.schema import RATINGS_FORMAT, SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.teams import ratings_table
from tests.helpers import sql_rows as rows

from .conftest import dump

RATING_TRIGGERS = ("frozen_rating_not_updated", "frozen_rating_not_deleted", "frozen_rating_not_added")
# tests/data/schema_v3/project-v3.ndcgproj (and schema_v2's), read independently of the store (tests/data/SOURCES.md)
V1_HASH = "cf6b2dc2a59d37ca0a3b6b3637ca713080d05308ecdd6a1f21568f6ae43b1916"


@pytest.fixture
def v2(tmp_path, data_dir) -> Path:
    """A copy of the format-3 project (the format before ratings; named for the v2 -> v3 of the issue's text)."""
    path = tmp_path / "old.ndcgproj"
    shutil.copyfile(data_dir / "schema_v3" / "project-v3.ndcgproj", path)
    return path


def test_a_format_2_project_is_migrated_through_format_3_to_ratings(tmp_path, data_dir):
    path = tmp_path / "older.ndcgproj"
    shutil.copyfile(data_dir / "schema_v2" / "project-v2.ndcgproj", path)
    graded = rows(path, "SELECT version, query_id, doc_id, annotator, grade FROM judgments WHERE grade IS NOT NULL")
    with Project.open(path) as project:
        assert project.pools.qrels(1).source.sha256 == V1_HASH
    assert rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert rows(path, "SELECT version, query_id, doc_id, annotator, grade FROM ratings") == sorted(graded)


def test_a_format_3_project_migrates_every_judgment_into_the_rating_of_its_annotator(v2):
    judgments = "SELECT version, query_id, doc_id, grade, annotator, note, updated_at FROM judgments ORDER BY 1, 2, 3"
    before_judgments = rows(v2, judgments)
    before_audit = rows(v2, "SELECT * FROM audit_log ORDER BY id")
    before_versions = rows(v2, "SELECT * FROM pool_versions ORDER BY version")
    assert rows(v2, "PRAGMA user_version") == [(RATINGS_FORMAT - 1,)]
    assert before_versions[0][10] == V1_HASH

    with Project.open(v2) as project:
        assert project.protection_problems() == []
        assert project.pools.qrels(1).source.sha256 == V1_HASH  # verified: the frozen hash is unchanged

    assert rows(v2, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert rows(v2, judgments) == before_judgments  # the adjudicated grade is each judgment's grade, unchanged
    assert rows(v2, "SELECT adjudication FROM judgments WHERE adjudication IS NOT NULL") == []
    assert rows(v2, "SELECT * FROM audit_log ORDER BY id") == before_audit
    # format 5 adds the team record, NULL for versions frozen before it (computed at each use): rows otherwise equal
    assert rows(v2, "SELECT * FROM pool_versions ORDER BY version") == [(*r, None) for r in before_versions]
    expected = [
        (v, q, d, a if a else "unrecorded", g, n, t or "") for v, q, d, g, a, n, t in before_judgments if g is not None
    ]
    assert rows(v2, "SELECT * FROM ratings ORDER BY version, query_id, doc_id") == expected
    # the file as SOURCES.md describes it: ben regraded q1 A to 2 in the draft, ana graded q1 X 2 with a note
    assert ("2", "q1", "A", "ben", 2) == tuple(str(x) if i == 0 else x for i, x in enumerate(expected[5][:5]))
    names = {r[0] for r in rows(v2, "SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert set(RATING_TRIGGERS) <= names


def test_the_migration_is_atomic(v2, monkeypatch):
    """A failure inside the ratings migration leaves the format-2 file exactly as it was."""
    from ndcg_desktop.store import core

    before = dump(v2)
    broken = core.MIGRATIONS[RATINGS_FORMAT - 1] + "\nINSERT INTO no_such_table VALUES (1);"
    monkeypatch.setitem(core.MIGRATIONS, RATINGS_FORMAT - 1, broken)
    with pytest.raises(InputError, match="no such table: no_such_table"):  # translated: no traceback
        Project.open(v2)
    assert dump(v2) == before
    assert rows(v2, "SELECT name FROM sqlite_master WHERE name = 'ratings'") == []


def test_the_ratings_table_for_agreement(v2):
    with Project.open(v2) as project:
        table = ratings_table(project, 2)
        assert list(table.columns) == ["query_id", "doc_id", "annotator", "grade"]
        assert table.to_records(index=False).tolist() == [
            ("q1", "A", "ben", 2),
            ("q1", "B", "import:qrels.txt", 2),
            ("q1", "C", "import:qrels.txt", 1),
            ("q1", "X", "ana", 2),
            ("q2", "D", "import:qrels.txt", 1),
            ("q2", "E", "import:qrels.txt", 2),
        ]
        assert table["grade"].dtype == "int64"
        assert ratings_table(project).equals(table)  # None: the draft
        with pytest.raises(InputError, match="has no pool version 7"):
            ratings_table(project, 7)


def test_a_grade_given_in_the_project_is_its_authors_rating_and_undo_takes_it_back(v2):
    with Project.open(v2) as project:
        taken = project.judgments.set_grade("q1", "B", 3, annotator="chen")
        items = project.pools.pool_items(2).set_index(["query_id", "doc_id"])
        assert items.loc[("q1", "B"), "grade"] == 3
        mine = project.ratings.verified(2).set_index(["query_id", "doc_id", "annotator"])
        assert mine.loc[("q1", "B", "chen"), "grade"] == 3
        assert mine.loc[("q1", "B", "import:qrels.txt"), "grade"] == 2
        # chen's grade settles a difference: a pick
        assert rows(v2, "SELECT adjudication FROM judgments WHERE version = 2 AND doc_id = 'B'") == [("pick",)]
        project.undo.restore(taken, action="undo grade", annotator="chen")
        assert project.ratings.verified(2).query("doc_id == 'B'")["annotator"].tolist() == ["import:qrels.txt"]
        assert rows(v2, "SELECT adjudication FROM judgments WHERE version = 2 AND doc_id = 'B'") == [(None,)]


def test_a_frozen_versions_ratings_hash_per_annotator(v2):
    with Project.open(v2) as project:
        hashes = project.ratings.annotator_hashes(project.pools.version(1))
    frame = pd.DataFrame(
        [("q1", "A", 3), ("q1", "B", 2), ("q1", "C", 1), ("q2", "D", 1), ("q2", "E", 2)],
        columns=["query_id", "doc_id", "grade"],
    )
    assert hashes == {
        "import:qrels.txt": {"ratings": 5, "sha256": ratings_hash(frame, GradeScale(0, 3), "import:qrels.txt")}
    }
    assert hashes["import:qrels.txt"]["sha256"] != pool_hash(frame, GradeScale(0, 3))


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ratings SET grade = 0 WHERE version = 1",
        "UPDATE ratings SET version = 2 WHERE version = 1 AND doc_id = 'A'",
        "UPDATE ratings SET version = 1 WHERE version = 2 AND doc_id = 'X'",
        "DELETE FROM ratings WHERE version = 1",
        "INSERT INTO ratings VALUES (1, 'q1', 'A', 'mallory', 0, '', 'now')",
        "INSERT OR REPLACE INTO ratings VALUES (1, 'q1', 'A', 'import:qrels.txt', 0, '', 'now')",
    ],
    ids=["update", "move-out", "move-in", "delete", "insert", "replace"],
)
def test_a_frozen_versions_ratings_refuse_every_change_through_raw_sql(v2, statement):
    Project.open(v2).close()  # migrated
    before = dump(v2)
    con = sqlite3.connect(v2, isolation_level=None)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="pool version is frozen: (its ratings|no rating)"):
            con.execute(statement)
    finally:
        con.close()
    assert dump(v2) == before


@pytest.mark.parametrize("trigger", RATING_TRIGGERS)
def test_the_rating_triggers_are_part_of_the_protection_checked_at_open(v2, trigger):
    Project.open(v2).close()
    con = sqlite3.connect(v2, isolation_level=None)
    try:
        con.execute(f"DROP TRIGGER {trigger}")
    finally:
        con.close()
    with pytest.raises(ProtectionAltered, match=f"trigger {trigger} is missing"):
        Project.open(v2)
    con = sqlite3.connect(v2, isolation_level=None)
    try:  # altered: the same name doing nothing
        con.execute(f"CREATE TRIGGER {trigger} BEFORE DELETE ON ratings WHEN 0 BEGIN SELECT 1; END")
    finally:
        con.close()
    with pytest.raises(ProtectionAltered, match=f"trigger {trigger} is altered"):
        Project.open(v2)


def test_an_item_rated_differently_blocks_freezing_even_when_removing_ungraded(v2):
    with Project.open(v2) as project:
        incoming = pd.DataFrame(
            [("q1", "C", "dan", 3, "", "t")], columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"]
        )
        counts = project.ratings.add_ratings(incoming, version=2, source="test", annotator="chen")
        assert counts == {"new": 1, "changed": 0, "unchanged": 0, "settled": 1, "unsettled": 1}
        assert project.ratings.add_ratings(incoming, version=2, source="test", annotator="chen") == {
            "new": 0,
            "changed": 0,
            "unchanged": 1,
            "settled": 0,
            "unsettled": 1,
        }
        before = dump(v2)
        for remove in (False, True):
            with pytest.raises(InputError, match="1 item that annotators rated differently"):
                freeze_draft(project, remove_ungraded=remove, annotator="chen")
        assert dump(v2) == before
        project.ratings.adjudicate(
            pd.DataFrame([("q1", "C", 2)], columns=["query_id", "doc_id", "grade"]),
            version=2,
            how="pick",
            annotator="chen",
        )
        frozen = freeze_draft(project, annotator="chen")
        assert frozen.frozen
        assert project.pools.qrels(2).frame.query("doc_id == 'C'")["grade"].tolist() == [2]


def test_a_format_3_project_opened_read_only_is_not_migrated_and_has_no_ratings(v2):
    before = dump(v2)
    with Project.open(v2, read_only=True) as project:
        assert project.file.schema_version == RATINGS_FORMAT - 1
        assert project.ratings.verified(1).empty and list(project.ratings.verified(1).columns) == RATING_COLUMNS
        assert project.ratings.annotator_hashes(project.pools.version(1)) == {}
        assert project.pools.qrels(1).source.sha256 == V1_HASH
    assert dump(v2) == before

"""The record of how a pool was built (issue 34, contract rule 20): kept with its draft, frozen with it, taken and
put back whole by every undo, migrated into older files."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.pool_builds import CHOICE_COLUMNS, NewBuild
from ndcg_desktop.store.schema import POOLING_FORMAT, SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_editing import discard, plan_discard, remove_from_pool, restore_discarded, undo_remove
from ndcg_desktop.tasks.status import project_status
from tests.store.test_undo import append_only, assert_same, full_dump

DATA = Path(__file__).parent.parent / "data"
RUNS = [
    {"name": "a", "sha256": "f" * 64, "data_hash": "e" * 64},
    {"name": "b", "sha256": "1" * 64, "data_hash": "2" * 64},
]


def _build(batch_size: int | None = None) -> NewBuild:
    return NewBuild("rrf(k=60)", {"k": 60}, "3", 10, batch_size, ["q1", "q2"], RUNS)


def _choices(rows: list[tuple[str, str, int, int]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=CHOICE_COLUMNS)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    with Project.create(tmp_path / "p.ndcgproj", annotator="ana") as p:
        p.judgments.add_items(
            pd.DataFrame({"query_id": ["q1"], "doc_id": ["d0"]}), action="add", annotator="ana"
        )  # in the draft before
    return Project.open(tmp_path / "p.ndcgproj")


def test_a_build_records_its_strategy_runs_queries_and_order(project: Project) -> None:
    chosen = _choices([("q1", "d3", 1, 1), ("q1", "d0", 2, 1), ("q1", "d1", 3, 1), ("q2", "d9", 1, 1)])
    build_id, counts = project.builds.record(_build(), chosen, annotator="ana")
    assert counts.set_index("query_id")[["candidates", "new"]].to_dict("index") == {
        "q1": {"candidates": 3, "new": 2},  # d0 was in the draft: chosen, at no cost
        "q2": {"candidates": 1, "new": 1},
    }
    (build,) = project.builds.of_version(1)
    assert (build.build_id, build.strategy, build.parameters, build.budget, build.depth) == (
        build_id,
        "rrf(k=60)",
        {"k": 60},
        "3",
        10,
    )
    assert build.queries == ["q1", "q2"] and build.runs == RUNS and build.batch_size is None and build.built_by == "ana"
    order = project.builds.choices(1)
    assert order[["query_id", "position", "doc_id", "new"]].values.tolist() == [
        ["q1", 1, "d3", 1],
        ["q1", 2, "d0", 0],
        ["q1", 3, "d1", 1],
        ["q2", 1, "d9", 1],
    ]
    assert sorted(project.pools.pool_items(1)["doc_id"]) == ["d0", "d1", "d3", "d9"]
    status = next(v for v in project_status(project)["pool_versions"] if v["version"] == 1)
    assert status["pooling"] == [build.record()]
    actions = project.judgments.audit_log(1)["action"].tolist()
    assert actions.count("pool") == 3


def test_only_a_persons_grade_is_one_an_adaptive_build_learns_from(project: Project) -> None:
    project.builds.record(_build(2), _choices([("q1", "d1", 1, 1), ("q1", "d2", 2, 1)]), annotator="ana")
    project.judgments.set_grade("q1", "d1", 2, annotator="ana")
    project.judgments.set_grade("q1", "d0", 0, annotator="ana")
    with project.transaction() as conn:  # as freezing fills an item from a model (rule 18)
        conn.execute("UPDATE judgments SET grade = 3, adjudication = 'model:m' WHERE doc_id = 'd2'")
    assert sorted(project.builds.people_grades(1)) == [("q1", "d0", 0), ("q1", "d1", 2)]
    grades = project.builds.choices(1).set_index("doc_id")["grade"]
    assert grades["d1"] == 2 and pd.isna(grades["d2"])


def test_discard_and_its_undo_put_back_the_record_exactly(project: Project) -> None:
    project.builds.record(_build(2), _choices([("q1", "d1", 1, 1), ("q2", "d5", 1, 1)]), annotator="ana")
    project.judgments.set_grade("q1", "d1", 1, annotator="ana")
    before = full_dump(project.path)
    edit = discard(project, plan_discard(project), annotator="ana")
    assert project.builds.of_version(1) == [] and project.file.query("SELECT count(*) FROM pool_choices")[0][0] == 0
    restore_discarded(project, edit, annotator="ana")
    assert_same(before, full_dump(project.path), append_only(project.path))


def test_removing_a_chosen_item_takes_its_choice_and_the_undo_puts_it_back(project: Project) -> None:
    project.builds.record(_build(), _choices([("q1", "d1", 1, 1), ("q1", "d2", 2, 1)]), annotator="ana")
    before = full_dump(project.path)
    edit = remove_from_pool(project, 1, "q1", "d2", annotator="ana")
    assert project.builds.choices(1)["doc_id"].tolist() == ["d1"]
    undo_remove(project, edit, annotator="ana")
    assert_same(before, full_dump(project.path), append_only(project.path))


def test_a_batch_added_and_taken_back_leaves_the_file_as_it_was(project: Project) -> None:
    build_id, _ = project.builds.record(_build(1), _choices([("q1", "d1", 1, 1)]), annotator="ana")
    project.judgments.set_grade("q1", "d1", 2, annotator="ana")
    before = full_dump(project.path)
    project.builds.add_batch(build_id, _choices([("q1", "d0", 2, 2), ("q1", "d4", 3, 2)]), annotator="ana")
    assert project.builds.choices(1)[["doc_id", "batch", "new"]].values.tolist() == [
        ["d1", 1, 1],
        ["d0", 2, 0],
        ["d4", 2, 1],
    ]
    assert project.builds.take_batches(1, [(build_id, "q1", 2)], annotator="ana") == 1  # d4 left; d0 was there before
    after = full_dump(project.path)
    logs = append_only(project.path)
    assert_same(before, after, logs)


def test_a_batch_graded_since_is_not_taken_back(project: Project) -> None:
    build_id, _ = project.builds.record(_build(1), _choices([("q1", "d1", 1, 1)]), annotator="ana")
    project.builds.add_batch(build_id, _choices([("q1", "d4", 2, 2)]), annotator="ana")
    project.judgments.set_grade("q1", "d4", 1, annotator="ana")
    with pytest.raises(InputError, match="was graded since; nothing was undone"):
        project.builds.take_batches(1, [(build_id, "q1", 2)], annotator="ana")
    assert project.builds.choices(1)["doc_id"].tolist() == ["d1", "d4"]


def test_a_frozen_versions_record_cannot_change(project: Project) -> None:
    build_id, _ = project.builds.record(_build(), _choices([("q1", "d1", 1, 1)]), annotator="ana")
    project.judgments.set_grade("q1", "d0", 0, annotator="ana")
    project.judgments.set_grade("q1", "d1", 3, annotator="ana")
    freeze_draft(project, annotator="ana")
    con = sqlite3.connect(project.path)
    try:
        for sql in (
            "UPDATE pool_builds SET budget = '9'",
            "DELETE FROM pool_builds",
            "UPDATE pool_choices SET position = 7",
            "DELETE FROM pool_choices",
            f"INSERT INTO pool_choices VALUES ({build_id}, 1, 'q1', 2, 'd0', 1, 0)",
            "INSERT INTO pool_builds (version, strategy, parameters, budget, depth, queries, runs, built_at, built_by) "
            "VALUES (1, 'depth(k=1)', '{}', '1', 1, '[]', '[]', '', '')",
        ):
            with pytest.raises(sqlite3.IntegrityError):
                con.execute(sql)
    finally:
        con.close()
    with pytest.raises(InputError, match="frozen"):
        project.builds.add_batch(build_id, _choices([("q1", "d0", 2, 2)]), annotator="ana")


def test_an_older_file_gains_the_tables_and_keeps_its_protection(tmp_path: Path) -> None:
    source = DATA / "schema_v4"
    for name in ("project-v4.ndcgproj", "project-v4.ndcgproj-wal", "project-v4.ndcgproj-shm"):
        shutil.copy(source / name, tmp_path / name)
    with Project.open(tmp_path / "project-v4.ndcgproj") as p:
        assert p.file.schema_version == SCHEMA_VERSION >= POOLING_FORMAT
        assert p.protection_problems() == []
        assert all(p.builds.of_version(v.version) == [] for v in p.pools.versions())


def test_the_discard_confirmation_names_the_record(project: Project) -> None:
    from ndcg_desktop.cli.project import discard_words

    project.builds.record(_build(), _choices([("q1", "d1", 1, 1), ("q1", "d2", 2, 1)]), annotator="ana")
    plan = plan_discard(project)
    assert (plan.pool_builds, plan.unnamed) == (1, {})
    assert discard_words(plan) == "its 3 items and 1 record of how it was pooled (strategy, runs, order of choice)"

"""Work files bound to their annotator and scope (issue 24 items 3, 4, 6): who grades inside a work file, what the
coordinator's project keeps of each handout, and what a merge refuses or reports. Every refusal names the file and
writes nothing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.schema import SCHEMA_VERSION
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.identity import annotator, open_to_grade
from ndcg_desktop.tasks.teams import assign_work, merge_work, ratings_table
from ndcg_desktop.tasks.work_files import WORK_META, read_work_file, scope_hash
from tests.helpers import raw_sql as raw
from tests.helpers import sql_rows
from tests.store.conftest import dump
from tests.tasks.test_teams import grade_all, make_team


@pytest.fixture
def team(tmp_path) -> Path:
    return make_team(tmp_path)


def handed_out(team: Path, tmp_path: Path, names=("ana", "ben"), overlap=0.0) -> dict[str, Path]:
    with Project.open(team) as project:
        return assign_work(project, list(names), tmp_path / "work", overlap=overlap, seed=1).files


def origin_json(path: Path) -> dict:
    return json.loads(sql_rows(path, "SELECT value FROM meta WHERE key = ?", WORK_META)[0][0])


def rewrite_origin(path: Path, **changes: object) -> None:
    data = origin_json(path) | changes
    raw(path, ("UPDATE meta SET value = ? WHERE key = ?", (json.dumps(data), WORK_META)))


def refused(team: Path, files: list[Path]) -> str:
    """The refusal of merging ``files``, after checking that nothing was written."""
    before = dump(team)
    with Project.open(team) as project, pytest.raises(InputError) as caught:
        merge_work(project, files, annotator="coord")
    assert dump(team) == before
    return str(caught.value)


# -- who grades ---------------------------------------------------------------------------------------------------


def test_grading_in_a_work_file_is_credited_to_its_annotator_whoever_opens_it(team, tmp_path, monkeypatch):
    files = handed_out(team, tmp_path)
    monkeypatch.delenv("NDCG_USER", raising=False)  # nobody stated a name: the login name is only a default
    _, items, _ = read_work_file(files["ben"])
    with open_to_grade(files["ben"]) as (work, who):
        assert who == "ben"
        for q, d in items[["query_id", "doc_id"]].itertuples(index=False):
            work.judgments.set_grade(q, d, 2, annotator=who)
    with Project.open(team) as project:
        report = merge_work(project, [files["ben"]], annotator="coord")
        assert [(f.annotator, f.graded) for f in report.files] == [("ben", len(items))]
        assert set(ratings_table(project)["annotator"]) == {"ben"}


@pytest.mark.parametrize("stated", ["alice", "ana"])
def test_a_user_who_says_otherwise_is_refused_a_work_file(team, tmp_path, monkeypatch, stated):
    files = handed_out(team, tmp_path)
    before = dump(files["ben"])
    monkeypatch.setenv("NDCG_USER", stated)
    with pytest.raises(InputError) as caught:
        open_to_grade(files["ben"])
    message = str(caught.value)
    assert message.startswith(f"{files['ben']}: is a work file handed to ben, and you are {stated}")
    with pytest.raises(InputError, match="handed to ben, and you are alice"), Project.open(files["ben"]) as work:
        annotator(work, "alice")  # the window asks the same function, with its preference
    assert dump(files["ben"]) == before


@pytest.mark.parametrize("stated", ["ben", "Ben", "BEN"])
def test_the_annotators_own_name_in_any_case_opens_their_file(team, tmp_path, stated):
    files = handed_out(team, tmp_path)
    with open_to_grade(files["ben"], stated) as (_, who):
        assert who == "ben"


def test_an_ordinary_project_grades_as_the_stated_user(team, monkeypatch):
    monkeypatch.setenv("NDCG_USER", "coord2")
    with open_to_grade(team) as (_, who):
        assert who == "coord2"


@pytest.mark.parametrize("draft", [1, 2])
def test_grades_given_as_someone_else_inside_a_work_file_are_refused_at_merge(team, tmp_path, draft):
    if draft == 2:  # the coordinator's draft is version 2; the work file's own pool is its version 1
        with Project.open(team) as project:
            for item in project.pools.pool_items(1).itertuples():
                project.judgments.set_grade(item.query_id, item.doc_id, 0, annotator="coord")
            freeze_draft(project, annotator="coord")
            project.pools.new_draft_from(1, annotator="coord")
            project.judgments.add_items(
                pd.DataFrame([(f"q{i}", "d39") for i in range(4)], columns=["query_id", "doc_id"]), annotator="coord"
            )
    files = handed_out(team, tmp_path)
    grade_all(files["ben"], "alice", lambda a, q, d: 1)  # an older window credited its own user
    message = refused(team, [files["ben"]])
    assert message.startswith(f"{files['ben']}: was handed to ben, but")
    assert "grades were given as 'alice'" in message


# -- the coordinator's record of each handout ------------------------------------------------------------------


def test_the_coordinators_project_keeps_each_handout_and_its_items(team, tmp_path):
    files = handed_out(team, tmp_path, overlap=0.2)
    with Project.open(team) as project:
        secret = project.ratings.secret()
        for name, path in files.items():
            origin, items, _ = read_work_file(path)
            handout = project.ratings.handout(origin.work_id)
            assert handout is not None
            assert (handout["annotator"], handout["scope_sha256"], handout["version"]) == (name, scope_hash(items), 1)
            kept = project.ratings.handout_items(origin.work_id)
            assert kept.values.tolist() == items[["query_id", "doc_id"]].values.tolist()
            assert origin.digest == handout["digest"] and len(origin.digest) == 64
    assert secret is not None and len(secret) == 64
    for path in files.values():  # the key stays in the coordinator's project
        con = sqlite3.connect(path)
        try:
            assert secret not in str(con.execute("SELECT * FROM meta").fetchall())
        finally:
            con.close()


EDITS = [
    ("annotator", lambda own, other: {"annotator": other["annotator"]}, "was handed out to ben"),
    ("work ID", lambda own, other: {"work_id": other["work_id"]}, "was handed out to ana"),
    (
        "work ID and annotator",
        lambda own, other: {"work_id": other["work_id"], "annotator": other["annotator"]},
        "does not hold the scope",
    ),
    ("scope hash", lambda own, other: {"scope_sha256": other["scope_sha256"]}, "does not hold the scope"),
    ("digest", lambda own, other: {"digest": other["digest"]}, "carries a digest that does not match"),
    ("made-up work ID", lambda own, other: {"work_id": "0" * 36}, "no such work file was handed out"),
]


@pytest.mark.parametrize(("what", "edit", "said"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_identity_is_refused_naming_the_file(team, tmp_path, what, edit, said):
    """Edit a work file's record (its own fields, or fields read in another annotator's file): refused."""
    files = handed_out(team, tmp_path)
    grade_all(files["ben"], "ben", lambda a, q, d: 1)
    own, other = origin_json(files["ben"]), origin_json(files["ana"])
    changes = edit(own, other)
    rewrite_origin(files["ben"], **changes)
    if "annotator" in changes:  # the grades inside follow the forged name, as a careful forger would make them
        raw(files["ben"], f"UPDATE judgments SET annotator = '{changes['annotator']}' WHERE grade IS NOT NULL")
    message = refused(team, [files["ben"]])
    assert message.startswith(f"{files['ben']}: ") and said in message


def test_the_digest_cannot_be_made_without_the_coordinators_secret(team, tmp_path):
    """A file whose record was rewritten whole, with a digest computed under another key, is refused."""
    from dataclasses import replace

    from ndcg_desktop.tasks.work_files import WorkOrigin, handout_digest

    files = handed_out(team, tmp_path)
    origin = WorkOrigin(**{k: v for k, v in origin_json(files["ben"]).items() if k != "kind"})
    forged = replace(origin, digest=handout_digest("guessed", origin))
    rewrite_origin(files["ben"], digest=forged.digest)
    assert "carries a digest that does not match" in refused(team, [files["ben"]])


def test_an_edited_handout_record_in_the_coordinators_project_is_refused(team, tmp_path):
    files = handed_out(team, tmp_path)
    origin, _, _ = read_work_file(files["ben"])
    raw(team, f"UPDATE handouts SET annotator = 'ana' WHERE work_id = '{origin.work_id}'")
    message = refused(team, [files["ben"]])
    assert "says it is ben's work, but work" in message and "was handed out to ana" in message


# -- the scope: inserted, deleted, withdrawn items ---------------------------------------------------------------


def test_an_item_inserted_into_a_work_file_is_refused_naming_it(team, tmp_path):
    """Not handed out to anyone, or handed out to another: either is refused, and the item is named."""
    files = handed_out(team, tmp_path)
    _, ana_items, _ = read_work_file(files["ana"])
    theirs = ana_items.iloc[0]
    with Project.open(team) as project:  # a pool item that nobody was handed
        project.judgments.add_items(pd.DataFrame([("q0", "d39")], columns=["query_id", "doc_id"]), annotator="coord")
    for q, d in ((theirs["query_id"], theirs["doc_id"]), ("q0", "d39")):
        raw(files["ben"], "DELETE FROM judgments WHERE grade IS NULL AND query_id = 'x'")
        raw(files["ben"], f"INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, '{q}', '{d}', 2)")
        message = refused(team, [files["ben"]])
        assert message.startswith(f"{files['ben']}: holds document {d} for query {q}, which was not handed out to ben")
        raw(files["ben"], f"DELETE FROM judgments WHERE query_id = '{q}' AND doc_id = '{d}'")


def test_items_deleted_from_a_work_file_are_reported_missing(team, tmp_path):
    files = handed_out(team, tmp_path)
    _, items, _ = read_work_file(files["ben"])
    grade_all(files["ben"], "ben", lambda a, q, d: 1)
    gone = items.iloc[:3]
    for q, d in gone[["query_id", "doc_id"]].itertuples(index=False):
        raw(files["ben"], f"DELETE FROM judgments WHERE query_id = '{q}' AND doc_id = '{d}'")
    with Project.open(team) as project:
        report = merge_work(project, [files["ben"]], annotator="coord")
    [merged] = report.files
    assert (merged.graded, merged.ungraded, merged.missing) == (len(items) - 3, 0, 3)
    first = gone.iloc[0]
    assert report.notes == [
        f"ben.ndcgproj: 3 items handed out to ben are missing from the file (deleted from it; the first: document "
        f"{first['doc_id']} for query {first['query_id']}); they stay ungraded by them"
    ]


def test_items_the_coordinator_removed_since_are_reported_and_the_rest_merged(team, tmp_path):
    """Issue 24 item 6: an ungraded item handed out, then removed from the draft by the coordinator."""
    files = handed_out(team, tmp_path)
    _, items, _ = read_work_file(files["ben"])
    grade_all(files["ben"], "ben", lambda a, q, d: 2)
    removed = items.iloc[[0]][["query_id", "doc_id"]]
    with Project.open(team) as project:
        project.judgments.remove_items(removed, version=1, annotator="coord")
        report = merge_work(project, [files["ben"]], annotator="coord")
        assert len(ratings_table(project)) == len(items) - 1
    [merged] = report.files
    assert (merged.graded, merged.withdrawn, merged.missing) == (len(items) - 1, 1, 0)
    q, d = removed.iloc[0]
    assert report.notes == [
        f"ben.ndcgproj: 1 item handed out to ben was removed from draft version 1 since (the first: document {d} "
        f"for query {q}); 1 grade of them was not merged, the rest were"
    ]
    assert "not handed out" not in " ".join(report.notes)


def test_a_work_file_handed_out_before_format_8_is_still_merged_by_its_queries(team, tmp_path):
    """A format-7 project (no handouts) with work out: migrated at open, its work files checked as before."""
    files = handed_out(team, tmp_path)
    for path in files.values():  # format 7 wrote no digest
        data = origin_json(path)
        del data["digest"]
        raw(path, f"UPDATE meta SET value = '{json.dumps(data)}' WHERE key = 'work'")
    raw(team, "DROP TABLE handout_items", "DROP TABLE handouts", "DELETE FROM meta WHERE key = 'handout_secret'")
    raw(team, "DROP TABLE pool_choices", "DROP TABLE pool_builds")  # format 10's record of how pools were built
    raw(team, "ALTER TABLE judgments DROP COLUMN iteration")  # format 11's round of each judgment
    raw(team, "DROP TABLE assessor_attempts", "DROP TABLE assessor_runs", "PRAGMA user_version = 7")  # a format-7 file
    grade_all(files["ben"], "ben", lambda a, q, d: 2)
    with Project.open(team) as project:
        assert project.file.schema_version == SCHEMA_VERSION and project.ratings.handout("x") is None
        report = merge_work(project, [files["ben"]], annotator="coord")
        assert report.files[0].graded == len(read_work_file(files["ben"])[1]) and report.notes == []
    _, ana_items, _ = read_work_file(files["ana"])
    q, d = ana_items.iloc[0][["query_id", "doc_id"]]
    raw(files["ben"], f"INSERT INTO judgments (version, query_id, doc_id, grade) VALUES (1, '{q}', '{d}', 2)")
    assert f"holds document {d} for query {q}, which was not handed out to ben" in refused(team, [files["ben"]])
    rewrite_origin(files["ben"], digest="0" * 64)  # a digest with no handout on record: refused, not trusted
    assert "carries a digest, but this project has no record of handing out work" in refused(team, [files["ben"]])


def test_a_work_file_handed_out_empty_merges_as_nothing(team, tmp_path):
    """More annotators than queries: someone's work file holds no item; merging it adds nothing and says so."""
    with Project.open(team) as project:
        keep = project.pools.pool_items(1)
        project.judgments.remove_items(
            keep[keep["query_id"] != "q0"][["query_id", "doc_id"]], version=1, annotator="coord"
        )
        files = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.0, seed=1).files
    empty = next(path for path in files.values() if read_work_file(path)[1].empty)
    with Project.open(team) as project:
        report = merge_work(project, [empty], annotator="coord")
    assert [(f.graded, f.ungraded, f.missing, f.withdrawn) for f in report.files] == [(0, 0, 0, 0)]
    assert report.totals["new"] == 0 and report.notes == []


def test_work_is_never_handed_out_or_merged_from_a_work_file(team, tmp_path):
    """Found by a new user: `ndcg assign` on a work file wrote work files of a work file."""
    files = handed_out(team, tmp_path)
    with Project.open(files["ben"]) as work:
        for attempt in (
            lambda: assign_work(work, ["zoe"], tmp_path / "nested", overlap=0.0),
            lambda: merge_work(work, [files["ana"]], annotator="ben"),
        ):
            with pytest.raises(InputError, match="is a work file handed to ben; work is handed out and merged in"):
                attempt()
    assert not (tmp_path / "nested").exists()

"""Every destructive operation puts back exactly what it took (issue 24 item 1), in every table.

The check is a full dump of the project file generated from ``sqlite_master``: a table added later is compared
without editing this file. Append-only tables (an unconditional BEFORE DELETE trigger refuses their deletes: the
audit log, the guidelines history) only grow, so their rows before must be the first rows after.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.store.undo import items_scope, referring
from ndcg_desktop.tasks.adjudication import apply_rule, pick, pick_taken, undo_rule
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pool_editing import discard, plan_discard, remove_from_pool, restore_discarded, undo_remove
from ndcg_desktop.tasks.pooling import apply_send_for_judging, plan_send_for_judging, take_back_sent
from ndcg_desktop.tasks.teams import assign_work, merge_work, read_work_file

ANNOTATORS = ("ana", "ben", "chen")


def full_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows (rowid included where the table has one) and the schema, read-only."""
    con = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        dump: dict[str, list[tuple[Any, ...]]] = {
            "sqlite_master": con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name").fetchall()
        }
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"):
            rowid = not con.execute("SELECT wr FROM pragma_table_list WHERE name = ?", (table,)).fetchone()[0]
            columns = ("_rowid_, " if rowid else "") + "*"
            # typeof() too: 1 and 1.0 and '1' are different values to put back
            rows = con.execute(f'SELECT {columns} FROM "{table}"').fetchall()
            dump[table] = sorted(tuple((type(v).__name__, v) for v in row) for row in rows)
            if rowid:
                dump[table] = sorted(dump[table], key=lambda row: row[0][1])
        return dump
    finally:
        con.close()


def append_only(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        triggers = con.execute("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    finally:
        con.close()
    return {table for table, sql in triggers if re.search(r"BEFORE DELETE ON \w+\s+BEGIN", sql)}


def assert_same(before: dict[str, list[Any]], after: dict[str, list[Any]], logs: set[str]) -> None:
    assert set(before) == set(after)
    for table in before:
        if table in logs:
            assert after[table][: len(before[table])] == before[table], table  # only grown
        else:
            assert after[table] == before[table], table


@pytest.fixture
def team_draft(tmp_path: Path) -> Path:
    return build_team_draft(tmp_path)


def build_team_draft(tmp_path: Path) -> Path:
    """v1 frozen (q0..q3, d0 graded 1 each); draft v2 adds d1..d4 to each query, handed out to ana, ben and chen
    (two per query), graded in their work files and merged; one differing item adjudicated by a pick, notes on
    two items, one item left unsettled for each of the other open disagreements; a run ``sys`` stored."""
    (tmp_path / "q.txt").write_text("".join(f"q{i} 0 d0 1\n" for i in range(4)))
    (tmp_path / "r.txt").write_text(
        "".join(f"q{i} Q0 d{j} {j + 1} {10 - j} sys\n" for i in range(4) for j in (0, 5, 6))
    )
    path = tmp_path / "team.ndcgproj"
    with Project.create(path, annotator="coord") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="coord")
        freeze_draft(project, annotator="coord")
        project.pools.new_draft_from(1, annotator="coord")
        pairs = [(f"q{i}", f"d{j}") for i in range(4) for j in range(1, 5)]
        project.judgments.add_items(pd.DataFrame(pairs, columns=["query_id", "doc_id"]), version=2, annotator="coord")
        project.runs.import_run(tmp_path / "r.txt", name="sys", annotator="coord")
        done = assign_work(project, list(ANNOTATORS), tmp_path / "work", overlap=1.0, seed=1)
    for name, work_path in done.files.items():  # ana 1, ben 1 (3 on d2 and d4), chen 2
        _, items, _ = read_work_file(work_path)
        with Project.open(work_path) as work:
            for q, d in items[["query_id", "doc_id"]].itertuples(index=False):
                grade = {"ana": 1, "chen": 2}.get(name, 3 if d in ("d2", "d4") else 1)
                work.judgments.set_grade(q, d, grade, annotator=name)
                work.judgments.set_note(q, d, f"{name} on {d}", annotator=name)
    with Project.open(path) as project:
        merge_work(project, list(done.files.values()), annotator="coord")
        open_items = project.pools.pool_items(2)
        open_items = open_items[open_items["grade"].isna()]
        assert len(open_items) >= 3  # something to adjudicate, to leave open, and to remove
        first = open_items.iloc[0]
        pick(project, first["query_id"], first["doc_id"], 2, annotator="coord")
        project.judgments.set_note(
            first["query_id"], first["doc_id"], "picked 2: see the guidelines", version=2, annotator="coord"
        )
        assert set(project.ratings.verified(2)["annotator"]) == {*ANNOTATORS, "import:q.txt"}
        assert len(project.ratings.assignments(2)) > 0
    return path


def a_copy(path: Path, tmp_path: Path, name: str) -> Path:
    target = tmp_path / f"{name}.ndcgproj"
    shutil.copy(path, target)
    return target


def discard_and_restore(project: Project) -> None:
    gone = discard(project, plan_discard(project), annotator="coord")
    assert project.pools.draft() is None
    restore_discarded(project, gone, annotator="coord")


def remove_an_unsettled_item_and_undo(project: Project) -> None:
    items = project.pools.pool_items(2)
    row = items[items["grade"].isna()].iloc[-1]  # rated differently by two annotators, not adjudicated
    before = len(project.ratings.verified(2))
    edit = remove_from_pool(project, 2, row["query_id"], row["doc_id"], annotator="coord")
    assert len(project.ratings.verified(2)) == before - 2  # its two ratings went with it
    undo_remove(project, edit, annotator="coord")


def pick_and_undo(project: Project) -> None:
    items = project.pools.pool_items(2)
    row = items[items["grade"].isna()].iloc[0]
    project.undo.restore(
        pick_taken(project, row["query_id"], row["doc_id"], 1, annotator="coord"),
        action="undo adjudicate (pick)",
        annotator="coord",
    )


def rule_and_undo(project: Project) -> None:
    applied = apply_rule(project, "median", annotator="coord")
    assert len(applied.settled) > 0
    undo_rule(project, applied, annotator="coord")


def merge_again_and_undo(project: Project) -> None:
    work = sorted((project.path.parent / "work").glob("*.ndcgproj"))
    ana = next(p for p in work if "ana" in p.name)
    _, items, _ = read_work_file(ana)
    with Project.open(ana) as file:  # ana changes her mind on two items
        for q, d in items[["query_id", "doc_id"]].head(2).itertuples(index=False):
            file.judgments.set_grade(q, d, 3, annotator="ana")
    report = merge_work(project, [ana], annotator="coord")
    assert report.totals["changed"] == 2 and report.taken is not None
    project.undo.restore(report.taken, action="undo merge", annotator="coord")


def grade_an_unsettled_item_and_undo(project: Project) -> None:
    items = project.pools.pool_items(2)
    row = items[items["grade"].isna()].iloc[-1]  # coord's grade is a pick among ana's and ben's ratings
    project.undo.restore(
        project.judgments.set_grade(row["query_id"], row["doc_id"], 3, version=2, annotator="coord"),
        action="undo grade",
        annotator="coord",
    )


def note_a_rated_item_and_undo(project: Project) -> None:
    rated = project.ratings.verified(2)
    row = rated[rated["annotator"] == "ana"].iloc[0]
    # her note is also her rating's
    taken = project.judgments.set_note(row["query_id"], row["doc_id"], "changed my mind", version=2, annotator="ana")
    project.undo.restore(taken, action="undo note", annotator="coord")


OPERATIONS: dict[str, Callable[[Project], None]] = {
    "grade": grade_an_unsettled_item_and_undo,
    "note": note_a_rated_item_and_undo,
    "discard draft": discard_and_restore,
    "remove item": remove_an_unsettled_item_and_undo,
    "adjudication pick": pick_and_undo,
    "adjudication rule": rule_and_undo,
    "merge of a work file": merge_again_and_undo,
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_do_then_undo_leaves_every_table_as_it_was(team_draft, tmp_path, operation):
    path = team_draft
    before = full_dump(path)
    with Project.open(path) as project:
        OPERATIONS[operation](project)
    assert_same(before, full_dump(path), append_only(path))


def test_send_for_judgings_undo_and_its_redo_put_back_what_they_took(team_draft):
    with Project.open(team_draft) as project:
        sent = apply_send_for_judging(project, plan_send_for_judging(project, "sys", 1, depth=3), annotator="coord")
        assert len(sent.items) == 8  # d5, d6 of four queries
        q, d = sent.items.iloc[0]
        project.judgments.set_note(q, d, "sent: check it", version=2, annotator="coord")
        rated = pd.DataFrame(
            [(q, d, "ana", 0, "", "t1"), (q, d, "ben", 3, "why", "t2")],
            columns=["query_id", "doc_id", "annotator", "grade", "note", "rated_at"],
        )
        project.ratings.add_ratings(rated, version=2, source="test", annotator="coord")  # differing: it stays ungraded
    before = full_dump(team_draft)
    with Project.open(team_draft) as project:
        taken = take_back_sent(project, sent, annotator="coord")
        assert taken.before.count("judgments") == 8 and taken.before.count("ratings") == 2
        project.undo.restore(taken, action="redo send for judging", annotator="coord")
    assert_same(before, full_dump(team_draft), append_only(team_draft))


def test_a_table_added_later_is_taken_and_put_back_without_naming_it(team_draft, monkeypatch):
    from ndcg_desktop.store import core

    later = core.schema_tables() | {"flags", "rounds"}  # a later format's tables (any other table is refused)
    monkeypatch.setattr(core, "schema_tables", lambda: later)
    con = sqlite3.connect(team_draft, isolation_level=None)
    con.executescript(
        """
        CREATE TABLE flags (version INTEGER NOT NULL, query_id TEXT NOT NULL, doc_id TEXT NOT NULL, flag TEXT,
            FOREIGN KEY (version, query_id, doc_id) REFERENCES judgments (version, query_id, doc_id)
            ON DELETE CASCADE);
        CREATE TABLE rounds (id INTEGER PRIMARY KEY, version INTEGER REFERENCES pool_versions, label BLOB);
        INSERT INTO flags SELECT version, query_id, doc_id, 'look' FROM judgments WHERE version = 2;
        INSERT INTO rounds (version, label) VALUES (2, x'00ff'), (1, 2.5);
        """
    )
    handed = con.execute("SELECT count(*) FROM handouts WHERE version = 2").fetchone()[0]
    items = con.execute(
        "SELECT count(*) FROM handout_items WHERE work_id IN (SELECT work_id FROM handouts WHERE version = 2)"
    ).fetchone()[0]
    con.close()
    before = full_dump(team_draft)
    with Project.open(team_draft) as project:
        plan = plan_discard(project)
        # 4 queries x 5 items; v1's round stays; the handouts (format 8) are named without being listed here either
        assert plan.others == {"flags": 20, "rounds": 1, "handouts": handed, "handout_items": items}
        assert handed > 0 and items > 0
        gone = discard(project, plan, annotator="coord")
        con = sqlite3.connect(team_draft)
        assert con.execute("SELECT count(*) FROM flags").fetchone() == (0,)
        assert con.execute("SELECT count(*) FROM rounds").fetchone() == (1,)
        con.close()
        restore_discarded(project, gone, annotator="coord")
        remove_an_unsettled_item_and_undo(project)
    assert_same(before, full_dump(team_draft), append_only(team_draft))


def test_the_confirmation_counts_what_the_discard_takes(team_draft):
    con = sqlite3.connect(team_draft)
    expected = {
        "items": con.execute("SELECT count(*) FROM judgments WHERE version = 2").fetchone()[0],
        "graded": con.execute("SELECT count(grade) FROM judgments WHERE version = 2").fetchone()[0],
        "ratings": con.execute("SELECT count(*) FROM ratings WHERE version = 2").fetchone()[0],
        "assignments": con.execute("SELECT count(*) FROM assignments WHERE version = 2").fetchone()[0],
        "adjudicated": con.execute("SELECT count(adjudication) FROM judgments WHERE version = 2").fetchone()[0],
    }
    who = sorted(r[0] for r in con.execute("SELECT DISTINCT annotator FROM ratings WHERE version = 2"))
    con.close()
    assert expected["adjudicated"] == 1 and expected["ratings"] > 0 and expected["assignments"] > 0
    with Project.open(team_draft) as project:
        plan = plan_discard(project)
        counted = {key: getattr(plan, key) for key in expected}
        assert counted == expected
        assert plan.annotators == who
        gone = discard(project, plan, annotator="coord")
        assert gone.taken.before.digest() == plan.rows.digest()  # the rows counted are the rows taken


def test_undo_is_refused_when_its_scope_changed_since(team_draft):
    with Project.open(team_draft) as project:
        applied = apply_rule(project, "median", annotator="coord")
        q, d = applied.settled.iloc[0][["query_id", "doc_id"]]
        project.judgments.set_grade(q, d, 0, version=2, annotator="coord")  # a later edit in the rule's scope
        before = full_dump(team_draft)
        with pytest.raises(InputError, match="the items of pool version 2 changed since; nothing was undone"):
            undo_rule(project, applied, annotator="coord")
    assert full_dump(team_draft) == before


def test_every_table_that_names_a_pool_version_refers_to_it(team_draft):
    """A table that holds a version number without a foreign key would escape the undo's scope: only the
    append-only logs may (they are never taken)."""
    con = sqlite3.connect(team_draft)
    try:
        scoped = set(referring(con, "pool_versions"))
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        naming = {
            t for t in tables if {"version", "pool_version"} & {r[1] for r in con.execute(f"PRAGMA table_info({t})")}
        }
    finally:
        con.close()
    assert naming - scoped == append_only(team_draft) & naming
    assert {"judgments", "ratings", "assignments", "evaluations"} <= scoped
    assert items_scope(2, [("q0", "d1"), ("q0", "d1")]).keys == ((2, "q0", "d1"),)

"""Freezing while work files are still handed out (issue 33, item 13) names the outstanding hand-outs and needs a
choice: wait (the refusal, nothing frozen), or freeze anyway (``--with-work-out``), recorded in the audit log."""

from __future__ import annotations

import sqlite3

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.project import freeze
from ndcg_desktop.tasks.teams import assign_work, merge_work, read_work_file

from .test_teams import grade_all, make_team


def handed_out(tmp_path):
    team = make_team(tmp_path)
    with Project.open(team) as project:
        done = assign_work(project, ["ana", "ben"], tmp_path / "work", overlap=0.0, seed=1)
    return team, done.files


def items_of(path) -> int:
    return len(read_work_file(path)[1])


def test_freezing_with_work_out_names_each_handout_and_freezes_only_when_told(tmp_path, capsys):
    team, files = handed_out(tmp_path)
    grade_all(files["ana"], "ana", lambda a, q, d: 1)
    grade_all(files["ben"], "ben", lambda a, q, d: 2)
    with Project.open(team) as project:
        merge_work(project, [files["ana"]], annotator="coord")  # ana's is back; ben's is still out
    ben_items = items_of(files["ben"])
    assert main(["freeze", str(team), "--remove-ungraded"]) == 2
    err = capsys.readouterr().err
    assert f"draft version 1 has work still handed out: ben ({ben_items} of {ben_items} items not returned" in err
    assert "ana (" not in err and "--with-work-out" in err and "Traceback" not in err
    with Project.open(team, read_only=True) as project:
        assert project.pools.version(1).frozen is False
    assert main(["freeze", str(team), "--remove-ungraded", "--with-work-out"]) == 0
    capsys.readouterr()
    con = sqlite3.connect(team)
    try:
        rows = con.execute("SELECT action, who FROM audit_log WHERE action LIKE 'freeze with work out:%'").fetchall()
        state = con.execute("SELECT state FROM pool_versions WHERE version = 1").fetchone()[0]
    finally:
        con.close()
    assert state == "frozen"
    assert len(rows) == 1 and rows[0][0].startswith(f"freeze with work out: ben ({ben_items} of {ben_items} items")


def test_once_every_handout_is_merged_freezing_needs_no_choice(tmp_path):
    team, files = handed_out(tmp_path)
    for name in files:
        grade_all(files[name], name, lambda a, q, d: 1)
    with Project.open(team) as project:
        merge_work(project, list(files.values()), annotator="coord")
        assert freeze(project, annotator="coord").version.frozen
    con = sqlite3.connect(team)
    try:
        assert con.execute("SELECT count(*) FROM audit_log WHERE action LIKE 'freeze with work out:%'").fetchone() == (
            0,
        )
    finally:
        con.close()

"""Work files: the newest grade wins (issue 33, item 11). Replaying an older copy of a work file never replaces a
newer rating from the same hand-out: a rating older than the stored one is left out (named in the merge's
report) and never applied, and merging is idempotent and order-free: any order of copies, merged one by one and
again, leaves the same ratings and pool grades."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
from pathlib import Path

from ndcg_desktop.cli.main import main
from ndcg_desktop.store import Project
from ndcg_desktop.tasks.teams import merge_work, read_work_file
from tests.helpers import raw_sql as raw

from .test_teams import assigned, make_team

EARLY, LATE, LATER = "2030-01-01T00:00:00+00:00", "2030-01-02T00:00:00+00:00", "2030-01-03T00:00:00+00:00"


def state(path: Path) -> tuple[list[tuple], list[tuple]]:
    """The ratings and the pool's grades, read with plain sqlite3."""
    con = sqlite3.connect(path)
    try:
        ratings = con.execute(
            "SELECT query_id, doc_id, annotator, grade, note, rated_at FROM ratings ORDER BY 1, 2, 3"
        ).fetchall()
        grades = con.execute("SELECT version, query_id, doc_id, grade FROM judgments ORDER BY 1, 2, 3").fetchall()
    finally:
        con.close()
    return ratings, grades


def copy_graded(source: Path, target: Path, q: str, d: str, grade: int, at: str) -> Path:
    """A copy of a work file with one item graded ``grade`` at time ``at``."""
    shutil.copyfile(source, target)
    raw(target, f"UPDATE judgments SET grade = {grade}, updated_at = '{at}' WHERE query_id = '{q}' AND doc_id = '{d}'")
    return target


def copies(tmp_path: Path) -> tuple[Path, dict[str, Path], str, str]:
    team = make_team(tmp_path)
    files = assigned(team, tmp_path)
    _, items, _ = read_work_file(files["ana"])
    q, d = (str(x) for x in items.iloc[0][["query_id", "doc_id"]])
    made = {
        "old": copy_graded(files["ana"], tmp_path / "ana-old.ndcgproj", q, d, 1, EARLY),
        "new": copy_graded(files["ana"], tmp_path / "ana-new.ndcgproj", q, d, 3, LATE),
        "tie": copy_graded(files["ana"], tmp_path / "ana-tie.ndcgproj", q, d, 2, LATE),
        "newest": copy_graded(files["ana"], tmp_path / "ana-newest.ndcgproj", q, d, 0, LATER),
    }
    return team, made, q, d


def test_an_older_copy_merged_after_a_newer_one_is_left_out_and_named(tmp_path, capsys):
    team, made, q, d = copies(tmp_path)
    with Project.open(team) as project:
        merge_work(project, [made["new"]], annotator="coord")
    after_new = state(team)
    assert [r for r in after_new[0] if r[:3] == (q, d, "ana")] == [(q, d, "ana", 3, "", LATE)]
    assert main(["merge", str(team), str(made["old"])]) == 0
    out = capsys.readouterr().out
    assert "0 changed" in out and "1 older left out" in out
    assert (
        f"1 rating older than the one merged before was left out, never applied: the first, ana's of document {d} "
        f"for query {q} in ana-old.ndcgproj (rated {EARLY}; the one kept was rated {LATE})"
    ) in out
    assert state(team) == after_new  # her rating stays 3, its time LATE; nothing un-settled


def test_merging_copies_in_any_order_leaves_the_same_ratings(tmp_path):
    """Every order of four copies (an older, a newer, one at the same time with another grade, the newest), each
    merged alone and then all merged again: one result, the newest rating (and of the two at one time, the higher
    grade when the newest is absent)."""
    results: dict[tuple[str, ...], tuple[list[tuple], list[tuple]]] = {}
    base = tmp_path / "base"
    base.mkdir()
    team, made, q, d = copies(base)
    for names in [
        *itertools.permutations(["old", "new", "tie", "newest"]),
        *itertools.permutations(["old", "tie", "new"]),
    ]:
        here = tmp_path / "-".join(names)
        here.mkdir()
        project_path = here / team.name
        shutil.copyfile(team, project_path)
        with Project.open(project_path) as project:  # one opening: each merge is its own transaction
            for name in names:
                merge_work(project, [made[name]], annotator="coord")
        once = state(project_path)
        with Project.open(project_path) as project:
            for name in names:  # again: idempotent
                report = merge_work(project, [made[name]], annotator="coord")
                assert report.totals["changed"] == 0 and report.totals["new"] == 0
        assert state(project_path) == once
        results[names] = once
    with_newest = {v[0].__repr__() for k, v in results.items() if "newest" in k}
    without = {v[0].__repr__() for k, v in results.items() if "newest" not in k}
    assert len(with_newest) == 1 and len(without) == 1
    some_newest = next(v for k, v in results.items() if "newest" in k)
    some_without = next(v for k, v in results.items() if "newest" not in k)
    assert [r for r in some_newest[0] if r[:3] == (q, d, "ana")] == [(q, d, "ana", 0, "", LATER)]
    assert [r for r in some_without[0] if r[:3] == (q, d, "ana")] == [(q, d, "ana", 3, "", LATE)]  # 3 > 2 at LATE
    assert len({repr(v[1]) for k, v in results.items() if "newest" in k}) == 1  # the pool's grades too


def test_a_grading_time_ndcg_desktop_did_not_write_is_refused_in_sql_naming_the_file(tmp_path, capsys):
    """Issue 33 item 9: a time that is not ours (a 10 MB string, a word, another zone) is one line, read by
    length in SQL only."""
    team, made, q, d = copies(tmp_path)
    for bad in ("x" * 10_000_000, "yesterday", "2030-01-01T00:00:00+02:00", "2030-01-01 00:00:00+00:00"):
        raw(made["new"], f"UPDATE judgments SET updated_at = '{bad}' WHERE query_id = '{q}' AND doc_id = '{d}'")
        before = state(team)
        assert main(["merge", str(team), str(made["new"])]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(made["new"]) in err and "Traceback" not in err
        assert (
            f"with a grading time of {len(bad):,} characters that ndcg-desktop did not write" in err
            if len(bad) < 128
            else f"judgments.updated_at of the row keyed 1, {q!r}, {d!r} holds {len(bad):,} characters" in err
        )  # past any time's length: refused when the file opens (store/fields.py)
        assert state(team) == before

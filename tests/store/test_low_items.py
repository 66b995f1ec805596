"""Issue 11's low items that belong to the project file: file modes, a hint for an option that
does not exist, and pooling depths below one."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ndcg_desktop.cli.main import main
from ndcg_desktop.domain import InputError
from ndcg_desktop.store import Project
from ndcg_desktop.tasks import plan_send_for_judging
from ndcg_desktop.tasks.export import write_qrels
from ndcg_desktop.tasks.freezing import freeze_draft
from ndcg_desktop.tasks.pooling import pool_from_runs

from .conftest import dump


@pytest.fixture
def frozen(tmp_path) -> Path:
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\nq1 0 B 1\n")
    (tmp_path / "r.txt").write_text("q1 Q0 X 1 3 s\nq1 Q0 A 2 2 s\nq1 Q0 Y 3 1 s\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        project.runs.import_run(tmp_path / "r.txt", name="bm25", annotator="ann")
        freeze_draft(project, annotator="ann")
    return path


@pytest.fixture
def umask() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077], ids=["umask-022", "umask-002", "umask-077"])
def test_project_files_and_exports_honour_the_umask(tmp_path, umask, mask):
    os.umask(mask)
    path = tmp_path / "p.ndcgproj"
    (tmp_path / "q.txt").write_text("q1 0 A 3\n")
    with Project.create(path, annotator="ann") as project:
        project.judgments.import_qrels(tmp_path / "q.txt", annotator="ann")
        freeze_draft(project, annotator="ann")
        write_qrels(project, tmp_path / "out.qrels")
        write_qrels(project, tmp_path / "out.csv", fmt="csv")
    expected = 0o666 & ~mask
    for made in (path, tmp_path / "out.qrels", tmp_path / "out.csv"):
        assert stat.S_IMODE(made.stat().st_mode) == expected, made.name


def test_a_grade_outside_the_project_scale_names_that_scale_and_no_option_import_qrels_lacks(frozen, tmp_path, capsys):
    for content, grade in (("q1 0 C 7\n", 7), ("query_id,doc_id,grade\nq1,C,9\n", 9)):
        bad = tmp_path / "bad.txt"
        bad.write_text(content)
        before = dump(frozen)
        capsys.readouterr()
        assert main(["import-qrels", str(frozen), str(bad)]) == 2
        line = 2 if content.startswith("query_id") else 1
        assert capsys.readouterr().err == f"error: {bad}:{line}: grade {grade} is outside the scale 0..3\n"
        assert dump(frozen) == before


@pytest.mark.parametrize("depth", [0, -1])
def test_send_for_judging_and_pooling_refuse_a_depth_below_one(frozen, capsys, depth):
    before = dump(frozen)
    with Project.open(frozen) as project:
        with pytest.raises(InputError, match=f"the depth must be a positive integer, not {depth}"):
            plan_send_for_judging(project, "bm25", None, depth=depth)
        with pytest.raises(InputError, match=f"the pool depth must be a positive integer, not {depth}"):
            pool_from_runs(project, ["bm25"], depth, annotator="ann")
    for argv in (
        ["send-for-judging", str(frozen), "--run-name", "bm25", "--depth", str(depth)],
        ["send-for-judging", str(frozen), "--run-name", "bm25", "--depth", str(depth), "--dry-run"],
        ["pool", str(frozen), "--runs", "bm25", "--depth", str(depth)],
    ):
        capsys.readouterr()
        with pytest.raises(SystemExit, match="2"):  # the parser refuses it, naming the option (every numeric input)
            main(argv)
        err = capsys.readouterr().err
        assert err.splitlines()[-1].endswith(
            f"argument --depth: --depth must be a whole number from 1 to 2147483647, not {depth}"
        )
    assert dump(frozen) == before
